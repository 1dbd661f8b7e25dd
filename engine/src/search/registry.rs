//! The one bot registry: the list of bots (the `bots!` line of each in `search/mod.rs`: name,
//! spec syntax, builder; [`BOTS`]) and the one spec parser ([`BotSpec::parse`]: a `.toml` file's
//! `[bot]` table, then `name:params`), read by the one builder, [`super::game_bot::from_spec`],
//! for every [`super::Scored`] game (the RULES.md variants included as [`VariantGameState`],
//! which play four of the bots by their own implementations, [`variant_bot`]). Each bot parses its
//! own parameters ([`super::alphabeta::parse_limits`], [`super::expectimax::ExpectimaxConfig`],
//! [`super::pimc::PimcConfig`], [`super::ismcts::IsmctsConfig`]) whichever builder asks.
//!
//! A caller with bots of its own (a trained net, `net:…`) matches its names before asking the
//! registry, and the registry's error texts list the engine's bots from [`BOTS`].

use super::{expectimax, ismcts, pimc, GameBot};
use crate::variant::game_state::VariantGameState;

/// One bot of the registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotEntry {
    /// The name a spec starts with.
    pub name: &'static str,
    /// The spec's syntax, for error texts and help: `alphabeta[:depth=N,...]`.
    pub syntax: &'static str,
}

pub use super::BOTS;

/// Declares the registry's bots, one line each, in the order error texts list them:
/// `[mod FILE:] "name" "syntax" => builder`, where `builder` is a generic function
/// `fn<G: Scored>(&BotSpec, seed: u64) -> Result<Box<dyn GameBot<G>>, String>` that parses the
/// spec's parameters and builds the bot for any game, and the optional `mod FILE:` declares the
/// bot's own file `engine/src/search/FILE.rs` (so a new bot is that file and its one line). It
/// expands, in `search`, to the modules, [`BOTS`] and [`super::build_bot`].
macro_rules! bots {
    ($( $(mod $m:ident :)? $name:literal $syntax:literal => $build:path ),* $(,)?) => {
        $( $(pub mod $m;)? )*

        /// Every bot of the engine, in the order error texts list them (declared by
        /// [`registry::bots!`](crate::search::registry)).
        pub const BOTS: &[registry::BotEntry] = &[$(registry::BotEntry { name: $name, syntax: $syntax }),*];

        /// The bot of the registry that `spec` names, built for game `G` by its builder (`None`
        /// for a name not in [`BOTS`]).
        ///
        /// # Errors
        /// The builder's: a bad parameter, as text.
        pub fn build_bot<G: Scored>(spec: &registry::BotSpec, seed: u64) -> Option<Result<Box<dyn GameBot<G>>, String>> {
            match spec.name.as_str() {
                $($name => Some($build(spec, seed)),)*
                _ => None,
            }
        }
    };
}
pub(crate) use bots;

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

/// The RULES.md variants' own implementations of registry bots ([`super::Scored::own_bot`] of
/// [`VariantGameState`], asked first by [`super::game_bot::from_spec`]), seeded; `None` for the
/// bots the variants play by the generic code (`random`, `greedy`, `alphabeta`, which is
/// [`super::alphabeta::AlphaBetaBot`] through [`super::Scored::alphabeta_bot`]):
///
/// - `expectimax[:depth=N,qdepth=N,nodes=N,ms=N,samples=N]` ([`expectimax`]);
/// - `oracle[:depth=N,...]`: expectimax on the full state, a cheating oracle that (unlike
///   `alphabeta`) uses the hidden faces and identities and plays flips ([`expectimax`]);
/// - `pimc[:k=N,ms=N,ties=first|random,search=SPEC]` with `SPEC` one of `alphabeta:...` (the
///   default on the RULES.md variants since issue 36: [`pimc::PimcConfig::for_variants`]),
///   `expectimax:...`, `mcts:...`, or the alpha-beta's plain `depth=N,nodes=N,hash=N`
///   ([`pimc::PimcConfig::from_params`]); `search=` takes the rest of the string;
/// - `ismcts[:iterations=N,ms=N,c=X,mode=so|mo,rollout=N,scale=X,horizon=N]` ([`ismcts`]).
///
/// # Errors
/// A bad parameter, as text.
pub fn variant_bot(spec: &BotSpec, seed: u64) -> Option<Result<Box<dyn GameBot<VariantGameState>>, String>> {
    let params = spec.params.as_str();
    let bot: Result<Box<dyn GameBot<VariantGameState>>, String> = match spec.name.as_str() {
        "expectimax" => expectimax::ExpectimaxConfig::from_params(params).map(|c| Box::new(expectimax::ExpectimaxBot::new(c, seed)) as _),
        "oracle" => expectimax::ExpectimaxConfig::from_params(params).map(|c| Box::new(expectimax::ExpectimaxBot::oracle(c, seed)) as _),
        "pimc" => pimc::PimcConfig::from_params(params).map(|c| Box::new(pimc::PimcBot::new(c, seed)) as _),
        "ismcts" => ismcts::IsmctsConfig::from_params(params).map(|c| Box::new(ismcts::IsmctsBot::new(c, seed)) as _),
        _ => return None,
    };
    Some(bot)
}
