//! Bots written against the [`crate::game::Game`] trait only, so that every game of this module (and any
//! other [`Scored`] game) is played by the same code without special cases: `random`, `greedy`,
//! `alphabeta` (a negamax on the full state: a cheating oracle under hidden set-ups, as the
//! variant `alphabeta` is), `ismcts` (the variants' information-set MCTS itself,
//! [`crate::search::ismcts`], SO or MO, Cowling, Powley and Whitehouse 2012), `expectimax` (the
//! variants' expectimax itself, [`crate::search::expectimax`], on determinizations) and `pimc` (perfect
//! information Monte Carlo: the expectimax, by default, or alpha-beta on determinizations drawn
//! by [`crate::game::Game::sample_determinization`], Long et al. 2010).
//!
//! `random` and `greedy` are the variant bots themselves ([`crate::search::RandomBot`],
//! [`crate::search::GreedyBot`]), implemented here for any [`Scored`] game. Specs are parsed as the
//! variant bots' are (`alphabeta:depth=3`, `ismcts:iterations=2000`, `pimc:k=8,depth=2`, also
//! `pimc:k=8,search=alphabeta:depth=2`, or a `.toml` file with a `[bot]` table).

use std::collections::HashMap;

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::game::{Action, Turn};

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

const MATE: i32 = 1_000_000;

/// A search's budget: nodes per search and an optional wall-clock deadline (the `ms` parameter,
/// checked every 256 nodes).
struct Limit {
    nodes: u64,
    budget: u64,
    deadline: Option<Instant>,
    out_of_time: bool,
}

impl Limit {
    fn new(budget: u64, deadline: Option<Instant>) -> Limit {
        Limit { nodes: 0, budget, deadline, out_of_time: false }
    }

    /// Counts a node; whether the budget is spent.
    fn spent(&mut self) -> bool {
        self.nodes += 1;
        if !self.out_of_time && self.nodes.is_multiple_of(256) {
            self.out_of_time = self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        self.out_of_time || self.nodes >= self.budget
    }
}

/// The deadline `ms` milliseconds from now.
fn deadline(ms: Option<u64>) -> Option<Instant> {
    ms.map(|ms| Instant::now() + Duration::from_millis(ms))
}

/// Negamax alpha-beta to a fixed depth within a [`Limit`]; captures first.
fn negamax<G: Scored>(g: &G, depth: u32, mut alpha: i32, beta: i32, lim: &mut Limit, ply: i32) -> i32 {
    let spent = lim.spent();
    let me = match g.turn() {
        Turn::Player(p) => p,
        // Callers score terminal children themselves (from the mover's side); chance nodes do not
        // occur in the games here.
        Turn::Terminal | Turn::Chance => return 0,
    };
    if depth == 0 || spent {
        return g.eval_cp(me);
    }
    let mut l = g.legal_actions();
    l.sort_by_key(|&a| -g.gain_cp(a));
    let mut best = -MATE - 1;
    for a in l {
        let c = g.child(a);
        let v = match c.turn() {
            Turn::Terminal => {
                let r = c.returns(me);
                if r == 0.0 {
                    0
                } else {
                    (MATE - ply - 1) * r.signum() as i32
                }
            }
            Turn::Player(p) if p == me => negamax(&c, depth - 1, alpha, beta, lim, ply + 1),
            _ => -negamax(&c, depth - 1, -beta, -alpha, lim, ply + 1),
        };
        if v > best {
            best = v;
        }
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Scores every legal action of `g` by negamax at `depth` (from the acting player's view).
fn score_actions<G: Scored>(g: &G, depth: u32, budget: u64, deadline: Option<Instant>) -> Vec<(Action, i32)> {
    let Turn::Player(me) = g.turn() else { return Vec::new() };
    let mut lim = Limit::new(budget, deadline);
    g.legal_actions()
        .into_iter()
        .map(|a| {
            let c = g.child(a);
            let v = match c.turn() {
                Turn::Terminal => (c.returns(me) * MATE as f64) as i32,
                Turn::Player(p) if p == me => negamax(&c, depth.saturating_sub(1), -MATE - 1, MATE + 1, &mut lim, 1),
                _ => -negamax(&c, depth.saturating_sub(1), -MATE - 1, MATE + 1, &mut lim, 1),
            };
            (a, v)
        })
        .collect()
}

/// Fixed-depth alpha-beta on the full state (random among equal best), within `nodes` and, if
/// set, `ms` milliseconds (leaves past the budget are scored statically).
pub struct AlphaBetaBot {
    depth: u32,
    nodes: u64,
    ms: Option<u64>,
    rng: Pcg64Mcg,
}

impl<G: Scored> GameBot<G> for AlphaBetaBot {
    fn name(&self) -> String {
        format!("alphabeta:depth={}", self.depth)
    }
    fn choose(&mut self, g: &G) -> Action {
        let s = score_actions(g, self.depth, self.nodes, deadline(self.ms));
        let best = s.iter().map(|x| x.1).max().unwrap_or(0);
        let top: Vec<Action> = s.iter().filter(|x| x.1 == best).map(|x| x.0).collect();
        top[self.rng.random_range(0..top.len())]
    }
}

/// PIMC with the alpha-beta inner search (`pimc:k=N,depth=N,...` or `search=alphabeta:...`; the
/// default inner search is the expectimax, [`GameExpectimaxBot::pimc`]): `k` determinizations
/// from the acting player's information, alpha-beta on each; the
/// action with the best mean score. With `ms`, no determinization starts after `ms`
/// milliseconds (the first always runs) and the searches stop at that deadline.
pub struct PimcBot {
    k: u32,
    depth: u32,
    nodes: u64,
    ms: Option<u64>,
    rng: Pcg64Mcg,
}

impl<G: Scored> GameBot<G> for PimcBot {
    fn name(&self) -> String {
        format!("pimc:k={},depth={}", self.k, self.depth)
    }
    fn choose(&mut self, g: &G) -> Action {
        let Turn::Player(me) = g.turn() else { return g.legal_actions()[0] };
        let legal = g.legal_actions();
        let mut sum: HashMap<Action, i64> = HashMap::new();
        let end = deadline(self.ms);
        for i in 0..self.k.max(1) {
            if i > 0 && end.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let d = g.sample_determinization(me, &mut self.rng);
            for (a, v) in score_actions(&d, self.depth, self.nodes, end) {
                *sum.entry(a).or_insert(0) += v as i64;
            }
        }
        let best = legal.iter().map(|a| sum.get(a).copied().unwrap_or(i64::MIN)).max().unwrap_or(0);
        let top: Vec<Action> = legal.iter().copied().filter(|a| sum.get(a).copied().unwrap_or(i64::MIN) == best).collect();
        top[self.rng.random_range(0..top.len())]
    }
}

/// Builds a bot from a spec: `random`, `greedy`, `alphabeta[:depth=N,nodes=N,ms=N]`,
/// `pimc[:k=N,ms=N,search=expectimax:...]` (the variants' PIMC default: the one expectimax
/// averaged over `k` determinizations, [`GameExpectimaxBot::pimc`]; plain `pimc`, `pimc:k=N` and
/// `pimc:k=N,ms=N` mean it), `pimc:k=N,depth=N,nodes=N,ms=N` (alpha-beta on each determinization,
/// [`PimcBot`]; also in the variants' spelling `pimc:k=N,ms=N,search=alphabeta:depth=N,nodes=N`),
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
    let rng = Pcg64Mcg::seed_from_u64(seed);
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
            known(&["depth", "nodes", "ms"])?;
            Ok(Box::new(AlphaBetaBot { depth: num("depth", 3)? as u32, nodes: num("nodes", 2_000_000)?, ms: ms()?, rng }))
        }
        "pimc" => {
            known(&["k", "depth", "nodes", "ms"])?;
            if let Some(p) = expecti {
                if kv.contains_key("depth") || kv.contains_key("nodes") {
                    return Err("pimc: depth and nodes are the alpha-beta's; give them in search=expectimax:depth=N,nodes=N".into());
                }
                return Ok(Box::new(GameExpectimaxBot::pimc(ExpectimaxConfig::from_params(&p)?, num("k", 8)? as u32, ms()?, seed)));
            }
            Ok(Box::new(PimcBot { k: num("k", 8)? as u32, depth: num("depth", 2)? as u32, nodes: num("nodes", 200_000)?, ms: ms()?, rng }))
        }
        "ismcts" => Ok(Box::new(GameIsmctsBot::new(IsmctsConfig::from_params(params)?, seed))),
        "expectimax" => Ok(Box::new(GameExpectimaxBot::new(ExpectimaxConfig::from_params(params)?, seed))),
        "oracle" => Ok(Box::new(GameExpectimaxBot::oracle(ExpectimaxConfig::from_params(params)?, seed))),
        _ => Err(format!(
            "unknown bot {spec:?} (known here: random, greedy, alphabeta[:depth=N], pimc[:k=N,depth=N], ismcts[:iterations=N,mode=so|mo], expectimax[:depth=N,ms=N,samples=N], oracle[:depth=N], or a .toml file with a [bot] table)"
        )),
    }
}
