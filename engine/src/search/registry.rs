//! The one bot registry: the table of bot names with their parameters ([`BOTS`]), the one spec
//! parser ([`BotSpec::parse`]: a `.toml` file's `[bot]` table, then `name:params`), and the two
//! builders that share them, so that a spec means the same bot in every game: [`from_spec`] for
//! the RULES.md variants (a [`Bot`] handed the deciding player's [`super::Decision`]) and
//! [`super::game_bot::from_spec`] for any [`super::Scored`] game (a [`super::game_bot::GameBot`],
//! the variants included as [`crate::variant::game_state::VariantGameState`]). Each bot parses its
//! own parameters ([`super::alphabeta::parse_limits`], [`super::expectimax::ExpectimaxConfig`],
//! [`super::pimc::PimcConfig`], [`super::ismcts::IsmctsConfig`]) whichever builder asks.
//!
//! A caller with bots of its own (a trained net, `net:…`) matches its names before asking the
//! registry, and the registry's error texts list the engine's bots from [`BOTS`].

use super::{alphabeta, expectimax, ismcts, pimc, Bot, GreedyBot, RandomBot};

/// One bot of the registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotEntry {
    /// The name a spec starts with.
    pub name: &'static str,
    /// The spec's syntax, for error texts and help: `alphabeta[:depth=N,...]`.
    pub syntax: &'static str,
}

/// Every bot of the engine, in the order error texts list them.
pub const BOTS: &[BotEntry] = &[
    BotEntry { name: "random", syntax: "random" },
    BotEntry { name: "greedy", syntax: "greedy" },
    BotEntry { name: "alphabeta", syntax: "alphabeta[:depth=N,nodes=N,ms=N,hash=N]" },
    BotEntry { name: "expectimax", syntax: "expectimax[:depth=N,qdepth=N,nodes=N,ms=N,samples=N]" },
    BotEntry { name: "oracle", syntax: "oracle[:depth=N,...]" },
    BotEntry { name: "pimc", syntax: "pimc[:k=N,ms=N,depth=N,nodes=N,ties=first|random,search=SPEC]" },
    BotEntry { name: "ismcts", syntax: "ismcts[:iterations=N,ms=N,c=X,mode=so|mo]" },
];

/// The engine's bots as error texts list them: each [`BotEntry::syntax`] of [`BOTS`], then the
/// `.toml` form.
pub fn known_bots() -> String {
    let names: Vec<&str> = BOTS.iter().map(|b| b.syntax).collect();
    format!("{}, or a .toml file with a [bot] table", names.join(", "))
}

/// The error text of a spec that names no bot of the registry.
pub fn unknown_bot(spec: &str) -> String {
    format!("unknown bot {spec:?} (known: {})", known_bots())
}

/// A bot spec split into its name and its parameter text (`pimc:k=8,search=alphabeta:depth=2`
/// is `pimc` and `k=8,search=alphabeta:depth=2`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    /// The bot's name (the text before the first `:`).
    pub name: String,
    /// Its parameters (the text after it; empty when none).
    pub params: String,
}

impl BotSpec {
    /// Parses `spec`: a path ending in `.toml` is read and its `[bot]` table turned into a spec
    /// ([`super::spec_from_toml`]); then the name is split from the parameters. The name is not
    /// checked here: each builder matches it against [`BOTS`] (and its own extra bots).
    ///
    /// # Errors
    /// An unreadable file or a bad `[bot]` table, as text.
    pub fn parse(spec: &str) -> Result<BotSpec, String> {
        let spec = spec.trim();
        if spec.ends_with(".toml") {
            let text = std::fs::read_to_string(spec).map_err(|e| format!("bot file {spec:?}: {e}"))?;
            return BotSpec::parse(&super::spec_from_toml(&text)?);
        }
        let (name, params) = spec.split_once(':').unwrap_or((spec, ""));
        Ok(BotSpec { name: name.trim().to_string(), params: params.trim().to_string() })
    }

    /// Refuses parameters for a bot that takes none (`random`, `greedy`).
    ///
    /// # Errors
    /// The first parameter given, naming the bot.
    pub fn no_params(&self) -> Result<(), String> {
        match super::parse_params(&self.params)?.first() {
            Some((k, _)) => Err(format!("{}: unknown parameter {k:?} (known: none)", self.name)),
            None => Ok(()),
        }
    }
}

/// Builds a bot of the RULES.md variants from a spec ([`BOTS`]), seeded:
///
/// - `random`, `greedy`;
/// - `alphabeta[:depth=N,nodes=N,ms=N,hash=N]` (the cheating oracle, deterministic);
/// - `expectimax[:depth=N,qdepth=N,nodes=N,ms=N,samples=N]` ([`expectimax`]);
/// - `oracle[:depth=N,...]`: expectimax on the full state, a cheating oracle that (unlike
///   `alphabeta`) uses the hidden faces and identities and plays flips ([`expectimax`]);
/// - `pimc[:k=N,ms=N,search=SPEC]` with `SPEC` one of `alphabeta:...` (the default on the
///   RULES.md variants since issue 36: [`pimc::PimcConfig::for_variants`]), `expectimax:...`
///   (the default before, and on the RULES-more.md games), `mcts:...`, or the alpha-beta's plain
///   `depth=N,nodes=N,hash=N` ([`pimc::PimcConfig::from_params`]); `search=` takes the rest of
///   the string;
/// - `ismcts[:iterations=N,ms=N,c=X,mode=so|mo,rollout=N,scale=X,horizon=N]` ([`ismcts`]);
/// - a path ending in `.toml` whose `[bot]` table names the bot ([`super::spec_from_toml`]).
///
/// # Errors
/// The unknown spec ([`unknown_bot`]) or parameter, as text.
pub fn from_spec(spec: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    let s = BotSpec::parse(spec)?;
    let params = s.params.as_str();
    match s.name.as_str() {
        "random" => s.no_params().map(|_| Box::new(RandomBot::new(seed)) as Box<dyn Bot>),
        "greedy" => s.no_params().map(|_| Box::new(GreedyBot::new(seed)) as Box<dyn Bot>),
        "alphabeta" => Ok(Box::new(alphabeta::AlphaBetaBot::from_params(params)?)),
        "expectimax" => Ok(Box::new(expectimax::ExpectimaxBot::new(expectimax::ExpectimaxConfig::from_params(params)?, seed))),
        "oracle" => Ok(Box::new(expectimax::ExpectimaxBot::oracle(expectimax::ExpectimaxConfig::from_params(params)?, seed))),
        "pimc" => Ok(Box::new(pimc::PimcBot::new(pimc::PimcConfig::from_params(params)?, seed))),
        "ismcts" => Ok(Box::new(ismcts::IsmctsBot::new(ismcts::IsmctsConfig::from_params(params)?, seed))),
        _ => Err(unknown_bot(spec)),
    }
}
