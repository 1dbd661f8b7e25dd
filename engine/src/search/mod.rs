//! Bots behind one trait, [`GameBot`]: a bot of any game of the contract ([`Scored`], the
//! RULES.md variants included as [`crate::variant::game_state::VariantGameState`]) is handed the
//! game and reads only what its player may know: determinizing bots draw the hidden part from the
//! player's view; only the bots named oracles (`alphabeta`, `oracle`) read the full state
//! (docs/architecture.md: "the oracle bot is the one place that is handed the full state").
//! [`registry`] holds the one table of bot names and [`game_bot::from_spec`] builds them.

pub mod alphabeta;
pub mod arena;
pub mod eval;
pub mod expectimax;
pub mod game_bot;
pub mod ismcts;
pub mod pimc;
pub mod registry;
pub mod root_win;
pub mod scored;

pub use game_bot::GameBot;
pub use game_bot::from_spec;
pub use scored::Scored;

// The registry: one line per bot (`registry::bots!`; a new bot is its file and one line here).
registry::bots! {
    "random" "random" => game_bot::build_random,
    "greedy" "greedy" => game_bot::build_greedy,
    "alphabeta" "alphabeta[:depth=N,nodes=N,ms=N,hash=N]" => game_bot::build_alphabeta,
    "expectimax" "expectimax[:depth=N,qdepth=N,nodes=N,ms=N,samples=N]" => game_bot::build_expectimax,
    "oracle" "oracle[:depth=N,...]" => game_bot::build_oracle,
    "pimc" "pimc[:k=N,ms=N,depth=N,nodes=N,ties=first|random,search=SPEC]" => game_bot::build_pimc,
    "ismcts" "ismcts[:iterations=N,ms=N,c=X,mode=so|mo]" => game_bot::build_ismcts,
    mod noisy: "noisy" "noisy[:p=X,search=SPEC]" => noisy::build,
}

use crate::piece::Role;
use crate::variant::Action;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// At a set-up decision (a secret Surprise layout §S2, an owner's-choice placement §F3) the search
/// bots have no evaluation that tells the choices apart (every choice shows the same board), so
/// they choose uniformly at random: the equilibrium-free default; the layout game of
/// [`crate::solve::layouts`] studies better mixtures. `None` when `legal` is not a set-up decision.
pub fn setup_choice(legal: &[Action], rng: &mut impl Rng) -> Option<Analysis> {
    let start = std::time::Instant::now();
    if !legal.iter().any(|a| matches!(a, Action::Layout { .. } | Action::Place { .. })) {
        return None;
    }
    let pick = legal[rng.random_range(0..legal.len())];
    let share = 1.0 / legal.len() as f64;
    let stats = legal.iter().map(|&a| ActionStat { action: a, share, score: 0.0, visits: 0 }).collect();
    let mut out = Analysis::from_stats(legal, stats, Rank::Share, "-", 0, "set-up choices", 0, start);
    out.best = pick;
    Some(out)
}

/// One action in an [`Analysis`]: `A` is the variants' typed [`Action`] inside their bots and
/// the contract's [`crate::game::Action`] at [`GameBot::analyse`].
#[derive(Clone, Debug, PartialEq)]
pub struct ActionStat<A = Action> {
    /// The action.
    pub action: A,
    /// Share of the bot's preference: IS-MCTS visit share, PIMC share of determinizations in
    /// which the action was best, expectimax share of samples in which it was best.
    pub share: f64,
    /// Mean score, in [`Analysis::score_unit`].
    pub score: f64,
    /// Visits (IS-MCTS) or determinizations that scored it (PIMC, expectimax).
    pub visits: u64,
}

/// Which figure ranks an analysis.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rank {
    /// By share (ties by score).
    Share,
    /// By score (ties by share).
    Score,
}

/// A bot's move distribution at one decision, best first ([`GameBot::analyse`]; `A` as in
/// [`ActionStat`]).
#[derive(Clone, Debug)]
pub struct Analysis<A = Action> {
    /// The action the bot plays.
    pub best: A,
    /// Analysed actions, best first.
    pub stats: Vec<ActionStat<A>>,
    /// Unit of [`ActionStat::score`]: `cp` (centipawns) or `value` (expected result in [-1, 1]).
    pub score_unit: &'static str,
    /// Units of work done: iterations, determinizations.
    pub work: u64,
    /// Name of the unit of work.
    pub work_unit: &'static str,
    /// Search nodes (states visited), where counted.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub elapsed_ms: f64,
}

/// An analysis at the contract: actions of [`crate::game::Action`].
pub type GameAnalysis = Analysis<crate::game::Action>;

impl<A: Copy> Analysis<A> {
    /// This analysis with every action mapped by `f` (e.g. a variant's typed actions encoded for
    /// the contract, [`crate::variant::game_state::encode`]).
    pub fn map<B>(self, f: impl Fn(A) -> B) -> Analysis<B> {
        Analysis {
            best: f(self.best),
            stats: self.stats.into_iter().map(|s| ActionStat { action: f(s.action), share: s.share, score: s.score, visits: s.visits }).collect(),
            score_unit: self.score_unit,
            work: self.work,
            work_unit: self.work_unit,
            nodes: self.nodes,
            elapsed_ms: self.elapsed_ms,
        }
    }

    /// The analysis of a bot that reports only its choice `best` (one stat, share 1): the
    /// default of [`GameBot::analyse`].
    pub fn chosen(best: A, start: std::time::Instant) -> Analysis<A> {
        let stat = ActionStat { action: best, share: 1.0, score: 0.0, visits: 1 };
        Analysis { best, stats: vec![stat], score_unit: "-", work: 1, work_unit: "decisions", nodes: 0, elapsed_ms: start.elapsed().as_secs_f64() * 1e3 }
    }
}

impl Analysis {
    /// Sorts `stats` by `rank` and picks the best; with no stats, refuses a pending demand or
    /// takes the first legal action.
    #[allow(clippy::too_many_arguments)]
    pub fn from_stats(
        legal: &[Action],
        mut stats: Vec<ActionStat>,
        rank: Rank,
        score_unit: &'static str,
        work: u64,
        work_unit: &'static str,
        nodes: u64,
        start: std::time::Instant,
    ) -> Analysis {
        let key = |s: &ActionStat| match rank {
            Rank::Share => (s.share, s.score),
            Rank::Score => (s.score, s.share),
        };
        stats.sort_by(|a, b| key(b).partial_cmp(&key(a)).unwrap_or(std::cmp::Ordering::Equal));
        let refuse = Action::Answer(crate::variant::state::Answer::Refuse);
        let best = match stats.first() {
            Some(s) => s.action,
            None if legal.contains(&refuse) => refuse,
            None => legal.first().copied().unwrap_or(refuse),
        };
        Analysis { best, stats, score_unit, work, work_unit, nodes, elapsed_ms: start.elapsed().as_secs_f64() * 1e3 }
    }
}

/// Uniformly random legal actions: the one `random` bot of every game ([`GameBot`]).
pub struct RandomBot {
    rng: Pcg64Mcg,
}

impl RandomBot {
    /// A random bot with `seed`.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: Pcg64Mcg::seed_from_u64(seed) }
    }

    /// One of `legal` (non-empty), uniformly.
    pub fn pick<A: Copy>(&mut self, legal: &[A]) -> A {
        legal[self.rng.random_range(0..legal.len())]
    }
}

/// Material value of a type in points (chariot 9, cannon 4.5, horse 4, advisor/elephant 2,
/// soldier 1, general 1000): the usual xiangqi scale, used by `greedy`.
pub fn material(role: Role) -> i32 {
    match role {
        Role::General => 100_000,
        Role::Chariot => 900,
        Role::Cannon => 450,
        Role::Horse => 400,
        Role::Advisor | Role::Elephant => 200,
        Role::Soldier => 100,
    }
}

/// One-ply material greedy: the action that wins the most material, random among equals. The
/// one `greedy` bot of every game ([`GameBot`]): an action scores its [`Scored::gain_cp`] (in
/// the variants the captured piece's [`material`], face-down pieces counting as the type they
/// move as).
pub struct GreedyBot {
    rng: Pcg64Mcg,
}

impl GreedyBot {
    /// A greedy bot with `seed`.
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot { rng: Pcg64Mcg::seed_from_u64(seed) }
    }

    /// The action of `legal` (non-empty) with the highest `score`, uniformly among equals.
    pub fn pick<A: Copy>(&mut self, legal: &[A], score: impl Fn(&A) -> i32) -> A {
        let scores: Vec<i32> = legal.iter().map(&score).collect();
        let best = scores.iter().copied().max().unwrap_or(0);
        let top: Vec<A> = legal.iter().zip(&scores).filter(|(_, &s)| s == best).map(|(a, _)| *a).collect();
        top[self.rng.random_range(0..top.len())]
    }
}

/// Splits `k=v,k=v` parameters (`:` also separates; a piece without `=` after a `:` belongs to
/// the value before it, as in `eval=zoo:jieqi`). A `search=` parameter takes the rest of the
/// string as its value, so nested specs need no quoting: `k=8,search=alphabeta:depth=2`.
///
/// # Errors
/// A part without `=`.
pub fn parse_params(params: &str) -> Result<Vec<(String, String)>, String> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut rest = params.trim();
    let mut after_colon = false;
    while !rest.is_empty() {
        if let Some(v) = rest.strip_prefix("search=") {
            out.push(("search".to_string(), v.trim().to_string()));
            break;
        }
        let end = rest.find([',', ':']).unwrap_or(rest.len());
        let part = rest[..end].trim();
        let colon = rest[end..].starts_with(':');
        rest = rest.get(end + 1..).unwrap_or("").trim_start();
        let joins = after_colon && !part.is_empty() && !part.contains('=');
        after_colon = colon;
        if part.is_empty() {
            continue;
        }
        // A piece without `=` after a `:` belongs to the value before it (`eval=zoo:jieqi`).
        if let (true, Some(last)) = (joins, out.last_mut()) {
            last.1.push(':');
            last.1.push_str(part);
            continue;
        }
        let (k, v) = part.split_once('=').ok_or_else(|| format!("bot parameter {part:?}: expected key=value"))?;
        let k = k.trim().to_string();
        if out.iter().any(|(seen, _): &(String, String)| *seen == k) {
            return Err(format!("bot parameter {k:?} is given twice"));
        }
        out.push((k, v.trim().to_string()));
    }
    Ok(out)
}

/// The `key=value` parts of a bot's parameter text, separated by `,` or `:`; a piece without
/// `=` after a `:` belongs to the value before it, so `eval=zoo:xiangqi,depth=3` is
/// `eval=zoo:xiangqi` and `depth=3` (trimmed, empty parts dropped).
pub fn spec_parts(params: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = params;
    let mut after_colon = false;
    while !rest.is_empty() {
        let end = rest.find([',', ':']).unwrap_or(rest.len());
        let piece = rest[..end].trim();
        let sep = rest[end..].chars().next();
        match out.last_mut() {
            Some(last) if after_colon && !piece.contains('=') && !piece.is_empty() => {
                last.push(':');
                last.push_str(piece);
            }
            _ if !piece.is_empty() => out.push(piece.to_owned()),
            _ => {}
        }
        after_colon = sep == Some(':');
        rest = rest.get(end + 1..).unwrap_or("");
    }
    out
}

/// Refuses a parameter given twice under two of its names (`iterations` and `n`): `names` are
/// the canonical names seen so far, `name` the one of the parameter at hand.
///
/// # Errors
/// A message naming the parameter and the bot.
pub fn param_once(bot: &str, seen: &mut Vec<&'static str>, name: &'static str) -> Result<(), String> {
    if seen.contains(&name) {
        return Err(format!("{bot} parameter {name} is given twice"));
    }
    seen.push(name);
    Ok(())
}

/// Parses an integer parameter of bot `bot` that must lie in `lo..=hi`.
///
/// # Errors
/// A message naming the parameter and the range.
pub fn param_in(bot: &str, k: &str, v: &str, lo: u64, hi: u64) -> Result<u64, String> {
    let n = param_u64(bot, k, v)?;
    if n < lo || n > hi {
        return Err(format!("{bot} parameter {k}: {n} is out of range ({lo} to {hi})"));
    }
    Ok(n)
}

/// Parses a real parameter of bot `bot` that must lie in `lo..=hi`.
///
/// # Errors
/// A message naming the parameter and the range.
pub fn param_f64_in(bot: &str, k: &str, v: &str, lo: f64, hi: f64) -> Result<f64, String> {
    let x = param_f64(bot, k, v)?;
    if !(lo..=hi).contains(&x) {
        return Err(format!("{bot} parameter {k}: {x} is out of range ({lo} to {hi})"));
    }
    Ok(x)
}

/// The largest wall-time budget a bot spec takes, in milliseconds (an hour per move).
pub const MAX_SPEC_MS: u64 = 3_600_000;
/// The largest node budget a bot spec takes.
pub const MAX_SPEC_NODES: u64 = 10_000_000_000;
/// The largest transposition table a bot spec takes, in MiB.
pub const MAX_SPEC_HASH_MB: u64 = 1024;

/// Parses a non-negative integer parameter of bot `bot`.
///
/// # Errors
/// A message naming the parameter.
pub fn param_u64(bot: &str, k: &str, v: &str) -> Result<u64, String> {
    v.parse().map_err(|_| format!("{bot} parameter {k}: {v:?} is not a non-negative integer"))
}

/// Parses a real parameter of bot `bot`.
///
/// # Errors
/// A message naming the parameter.
pub fn param_f64(bot: &str, k: &str, v: &str) -> Result<f64, String> {
    v.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| format!("{bot} parameter {k}: {v:?} is not a number"))
}

/// The spec string of the `[bot]` table of a TOML document: `kind` names the bot, every other
/// key is a parameter; `search` may be a string spec or a nested table with its own `kind`.
///
/// ```toml
/// [bot]
/// kind = "pimc"
/// k = 8
/// [bot.search]
/// kind = "alphabeta"
/// depth = 2
/// ```
/// gives `pimc:k=8,search=alphabeta:depth=2`.
///
/// # Errors
/// TOML syntax, a missing `[bot]` table or `kind`, or a value that is not a number, string or
/// boolean.
pub fn spec_from_toml(text: &str) -> Result<String, String> {
    let doc: toml::Table = text.parse().map_err(|e: toml::de::Error| format!("bot TOML: {e}"))?;
    let bot = doc.get("bot").and_then(|b| b.as_table()).ok_or("bot TOML: no [bot] table")?;
    table_spec(bot)
}

fn table_spec(t: &toml::Table) -> Result<String, String> {
    let kind = t.get("kind").and_then(|k| k.as_str()).ok_or("bot TOML: [bot] needs kind = \"NAME\"")?;
    let mut params = Vec::new();
    let mut search = None;
    for (k, v) in t {
        if k == "kind" {
            continue;
        }
        let text = match v {
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Float(f) => f.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            toml::Value::String(s) => s.clone(),
            toml::Value::Table(inner) if k == "search" => table_spec(inner)?,
            _ => return Err(format!("bot TOML: key {k}: expected a number, string or boolean")),
        };
        if k == "search" {
            search = Some(text);
        } else {
            params.push(format!("{k}={text}"));
        }
    }
    // `search=` takes the rest of the spec, so it goes last.
    if let Some(s) = search {
        params.push(format!("search={s}"));
    }
    Ok(if params.is_empty() { kind.to_string() } else { format!("{kind}:{}", params.join(",")) })
}
