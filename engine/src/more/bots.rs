//! Bots written against the [`crate::game::Game`] trait only, so that every game of this module (and any
//! other [`Scored`] game) is played by the same code without special cases: `random`, `greedy`,
//! `alphabeta` (the one alpha-beta of [`crate::search::alphabeta`] on the full state, through its
//! copy-make adapter: a cheating oracle under hidden set-ups, as the variant `alphabeta` is),
//! `ismcts` (the variants' information-set MCTS itself, [`crate::search::ismcts`], SO or MO,
//! Cowling, Powley and Whitehouse 2012), `expectimax` (the variants' expectimax itself,
//! [`crate::search::expectimax`], on determinizations) and `pimc` (perfect information Monte
//! Carlo: that expectimax by default, or the same alpha-beta, on determinizations drawn by
//! [`crate::game::Game::sample_determinization`], Long et al. 2010). On a [`VariantGameState`]
//! `alphabeta` is the variant bot itself ([`Scored::alphabeta_bot`]) and the alpha-beta `pimc`
//! the one PIMC of [`crate::search::pimc`] that the variant `pimc` runs.
//!
//! `random` and `greedy` are the variant bots themselves ([`crate::search::RandomBot`],
//! [`crate::search::GreedyBot`]), implemented here for any [`Scored`] game. Specs are parsed as the
//! variant bots' are (`alphabeta:depth=3`, `ismcts:iterations=2000`, `pimc:k=8,depth=2`, also
//! `pimc:k=8,search=alphabeta:depth=2`, or a `.toml` file with a `[bot]` table).

use std::collections::HashMap;

use crate::game::Action;
use crate::search::alphabeta::{GameAlphaBetaBot, Limits};
use crate::search::Decision;
use crate::variant::game_state::{encode, VariantGameState};

/// A game the bots can evaluate: the one trait of the search bots, defined with them.
pub use crate::search::Scored;

/// A move chooser over any [`Scored`] game. Deterministic given its seed.
pub trait GameBot<G: Scored>: Send {
    /// Name for records.
    fn name(&self) -> String;
    /// One of `g.legal_actions()` (non-empty).
    fn choose(&mut self, g: &G) -> Action;
}

pub use crate::search::{GreedyBot, RandomBot};
use crate::search::expectimax::{ExpectimaxConfig, GameExpectimaxBot};
use crate::search::ismcts::{GameIsmctsBot, IsmctsConfig};

/// The one IS-MCTS ([`crate::search::ismcts`], Cowling, Powley and Whitehouse 2012) on any
/// [`Scored`] game.
impl<G: Scored> GameBot<G> for GameIsmctsBot {
    fn name(&self) -> String {
        GameIsmctsBot::name(self)
    }
    fn choose(&mut self, g: &G) -> Action {
        GameIsmctsBot::choose(self, g)
    }
}

/// The one expectimax ([`crate::search::expectimax`], Ballard 1983) on any [`Scored`] game.
impl<G: Scored> GameBot<G> for GameExpectimaxBot {
    fn name(&self) -> String {
        GameExpectimaxBot::name(self)
    }
    fn choose(&mut self, g: &G) -> Action {
        GameExpectimaxBot::choose(self, g)
    }
}

/// The variants' `random` bot, on any [`Scored`] game: the same type and code.
impl<G: Scored> GameBot<G> for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }
    fn choose(&mut self, g: &G) -> Action {
        self.pick(&g.legal_actions())
    }
}

/// The variants' `greedy` bot on any [`Scored`] game, scoring actions by [`Scored::gain_cp`].
impl<G: Scored> GameBot<G> for GreedyBot {
    fn name(&self) -> String {
        "greedy".into()
    }
    fn choose(&mut self, g: &G) -> Action {
        self.pick(&g.legal_actions(), |&a| g.gain_cp(a))
    }
}

/// The one alpha-beta ([`crate::search::alphabeta`]) on any [`Scored`] game, through the
/// copy-make adapter [`crate::search::alphabeta::GameNode`].
impl<G: Scored> GameBot<G> for GameAlphaBetaBot<G> {
    fn name(&self) -> String {
        GameAlphaBetaBot::name(self)
    }
    fn choose(&mut self, g: &G) -> Action {
        GameAlphaBetaBot::choose(self, g)
    }
}

/// The variants' `alphabeta` oracle bot (the searcher on the core position) on a
/// [`VariantGameState`], handed the game's public record: [`Scored::alphabeta_bot`] of the variants.
impl GameBot<VariantGameState> for crate::search::alphabeta::AlphaBetaBot {
    fn name(&self) -> String {
        crate::search::Bot::name(self)
    }
    fn choose(&mut self, g: &VariantGameState) -> Action {
        encode(crate::search::Bot::choose(self, &Decision::with_record(g.state(), g.record())))
    }
}

/// The generic PIMC of [`crate::search::pimc`] on any [`Scored`] game.
pub use crate::search::pimc::GamePimcBot as PimcBot;

impl<G: Scored> GameBot<G> for PimcBot<G> {
    fn name(&self) -> String {
        PimcBot::name(self)
    }
    fn choose(&mut self, g: &G) -> Action {
        PimcBot::choose(self, g)
    }
}

/// Builds a bot from a spec: `random`, `greedy`, `alphabeta[:depth=N,nodes=N,ms=N,hash=N]`
/// (default depth 3; [`Scored::alphabeta_bot`]: the one alpha-beta, on the variants' core position
/// for the variants), `pimc[:k=N,ms=N,search=expectimax:...]` (the variants' PIMC default: the one
/// expectimax averaged over `k` determinizations, [`GameExpectimaxBot::pimc`]; plain `pimc`,
/// `pimc:k=N` and `pimc:k=N,ms=N` mean it), `pimc:k=N,depth=N,nodes=N,ms=N,hash=N` (alpha-beta on
/// each determinization, [`crate::search::pimc::GamePimcBot`]; inner depth 2, no node limit by default; also in the
/// variants' spelling `pimc:k=N,ms=N,search=alphabeta:depth=N,nodes=N`),
/// `ismcts[:iterations=N,ms=N,c=X,mode=so|mo,rollout=N,scale=X,horizon=N]` (the variants' spec,
/// [`IsmctsConfig::from_params`]; `ms`: milliseconds per move, as the variant bots take it),
/// `expectimax[:depth=N,qdepth=N,nodes=N,ms=N,samples=N]` (the variants' spec,
/// [`ExpectimaxConfig::from_params`]: the one expectimax on `samples` determinizations),
/// `oracle[:depth=N,...]` (that expectimax on the full state: a cheating oracle, as the variants'
/// `oracle`), or a path ending in `.toml` whose `[bot]`
/// table names the bot. The parameter syntax and its parsing are the variant bots'
/// ([`crate::search::parse_params`], [`crate::search::spec_from_toml`]), so one spec means the same
/// bot in a variant and in a preset wherever both bots take its parameters.
///
/// # Errors
/// The unknown bot or parameter, as text.
pub fn from_spec<G: Scored>(spec: &str, seed: u64) -> Result<Box<dyn GameBot<G>>, String> {
    use crate::search::{param_u64, parse_params};
    let spec = spec.trim();
    if spec.ends_with(".toml") {
        let text = std::fs::read_to_string(spec).map_err(|e| format!("bot file {spec:?}: {e}"))?;
        return from_spec(&crate::search::spec_from_toml(&text)?, seed);
    }
    let (name, params) = spec.split_once(':').unwrap_or((spec, ""));
    let mut kv: HashMap<String, String> = HashMap::new();
    // PIMC's inner search: `Some(params)` for the expectimax (the default, as in the variants,
    // unless the alpha-beta is named or its plain `depth`/`nodes` keys are given).
    let mut expecti: Option<String> = None;
    let mut alphabeta_named = false;
    for (k, v) in parse_params(params)? {
        if k == "search" && name == "pimc" {
            let (inner, p) = v.split_once(':').unwrap_or((v.as_str(), ""));
            match inner {
                "alphabeta" => {
                    alphabeta_named = true;
                    for (k, v) in parse_params(p)? {
                        kv.insert(k, v);
                    }
                }
                "expectimax" => expecti = Some(p.to_string()),
                _ => return Err(format!("pimc search {inner:?}: only expectimax[:depth=N,...] and alphabeta[:depth=N,nodes=N] play the RULES-more.md games")),
            }
            continue;
        }
        kv.insert(k, v);
    }
    if name == "pimc" && expecti.is_none() && !alphabeta_named && !kv.contains_key("depth") && !kv.contains_key("nodes") {
        expecti = Some(String::new());
    }
    let num = |k: &str, d: u64| -> Result<u64, String> { kv.get(k).map_or(Ok(d), |v| param_u64(name, k, v)) };
    let ms = || -> Result<Option<u64>, String> { kv.get("ms").map(|v| param_u64(name, "ms", v).map(|m| m.max(1))).transpose() };
    let known = |keys: &[&str]| -> Result<(), String> {
        match kv.keys().find(|k| !keys.contains(&k.as_str())) {
            Some(k) => Err(format!("{name}: unknown parameter {k:?} (known: {})", if keys.is_empty() { "none".to_string() } else { keys.join(", ") })),
            None => Ok(()),
        }
    };
    match name {
        "random" => {
            known(&[])?;
            Ok(Box::new(RandomBot::new(seed)))
        }
        "greedy" => {
            known(&[])?;
            Ok(Box::new(GreedyBot::new(seed)))
        }
        "alphabeta" => {
            known(&["depth", "nodes", "ms", "hash"])?;
            let (limits, hash) = crate::search::alphabeta::parse_limits(params, 3)?;
            Ok(G::alphabeta_bot(limits, hash))
        }
        "pimc" => {
            known(&["k", "depth", "nodes", "ms", "hash"])?;
            if let Some(p) = expecti {
                if kv.contains_key("depth") || kv.contains_key("nodes") || kv.contains_key("hash") {
                    return Err("pimc: depth, nodes and hash are the alpha-beta's; give the expectimax's in search=expectimax:depth=N,nodes=N".into());
                }
                return Ok(Box::new(GameExpectimaxBot::pimc(ExpectimaxConfig::from_params(&p)?, num("k", 8)? as u32, ms()?, seed)));
            }
            let limits = Limits { depth: Some((num("depth", 2)? as u32).clamp(1, crate::search::alphabeta::MAX_DEPTH)), nodes: kv.get("nodes").map(|v| param_u64(name, "nodes", v).map(|n| n.max(1))).transpose()?, ..Limits::default() };
            Ok(Box::new(PimcBot::<G>::new(num("k", 8)?.clamp(1, u32::MAX as u64) as u32, ms()?, limits, num("hash", 4)?.max(1) as usize, seed)))
        }
        "ismcts" => Ok(Box::new(GameIsmctsBot::new(IsmctsConfig::from_params(params)?, seed))),
        "expectimax" => Ok(Box::new(GameExpectimaxBot::new(ExpectimaxConfig::from_params(params)?, seed))),
        "oracle" => Ok(Box::new(GameExpectimaxBot::oracle(ExpectimaxConfig::from_params(params)?, seed))),
        _ => Err(format!(
            "unknown bot {spec:?} (known here: random, greedy, alphabeta[:depth=N], pimc[:k=N,depth=N], ismcts[:iterations=N,mode=so|mo], expectimax[:depth=N,ms=N,samples=N], oracle[:depth=N], or a .toml file with a [bot] table)"
        )),
    }
}
