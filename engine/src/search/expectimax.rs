//! Expectimax search on full variant states: alpha-beta (negamax) at decision nodes and exact
//! expectation at chance nodes, the `*-minimax` family of Michie (1966) and Ballard (1983, "The
//! *-minimax search procedure for trees containing chance nodes", Artificial Intelligence 21),
//! as Pikafish's Jieqi branch searches random reveals (RULES.md §P2, §F2, §F6).
//!
//! * Decision nodes search every legal [`Action`] of the full state — moves, Surprise flips
//!   (§S4), turning face-down (§F5), marker transfers (§K4), answers to a demand (§S11) — except
//!   the negotiation demand itself, which the search never makes.
//! * A move that leaves a chance node (a face-down piece turns up, or one is captured) is valued
//!   as the probability-weighted mean of its outcomes ([`State::chance_outcomes`]); children of a
//!   chance node are searched with a full window (no pruning across chance).
//! * Leaves: a capture-only quiescence search (every evasion when in check) of at most
//!   [`ExpectimaxConfig::qdepth`] plies, standing pat on [`eval::evaluate`]; inside it a capture
//!   or evasion that leaves a chance node ends the line with the mean static evaluation of the
//!   outcomes (searching on below every outcome with a full window is exponential in Fan-qi).
//! * Ends: no legal action loses (§X4) as `-(MATE - ply)`; a resignation or grinding loss (§K7)
//!   loses, an agreed draw is 0; a repetition along the game's record or the search path is
//!   judged by [`crate::repetition::in_search`] (draw, or a mate score against the side that
//!   checked or chased perpetually), and the 60-move rule draws.
//! * Budgets: nominal depth (plies, iterative deepening from 1), nodes (every node counts) and
//!   wall time in milliseconds (checked every 1024 nodes); a budget hit discards the unfinished
//!   iteration (at depth 1 the partial one is kept). Without a time budget the search is a
//!   function of the state and the configuration.
//!
//! Scores are centipawns (f64, since chance averages are fractional) from the point of view of
//! the side to decide. In a hidden-information variant the bot ([`ExpectimaxBot`]) searches
//! determinizations drawn from its own [`crate::variant::View`] (`samples` of them, averaging the
//! action scores): in the random Fan-qi modes and Jieqi the determinization only fixes what the
//! player cannot see of captured pieces, and reveals stay chance nodes.

use super::eval;
use super::{ActionStat, Analysis, Bot, Decision, Rank};
use crate::repetition::RecordPly;
use crate::variant::game_state::public_hash;
use crate::variant::{Action, State};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

/// Score of being mated at the root, in centipawns; mate in `n` plies scores `MATE - n`.
pub const MATE: f64 = 100_000.0;
const INF: f64 = 1e9;
const MAX_PLY: u32 = 64;

/// Expectimax budgets and options.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectimaxConfig {
    /// Nominal depth in plies (decision plies; chance does not consume depth).
    pub depth: u32,
    /// Longest quiescence line in plies (0: static evaluation at depth 0).
    pub qdepth: u32,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Wall-time budget in milliseconds.
    pub ms: Option<u64>,
    /// Determinizations per decision (the bot averages action scores over them).
    pub samples: u32,
}

impl Default for ExpectimaxConfig {
    /// Depth 2, quiescence 4, 200 000 nodes, no time budget, one determinization. (The node
    /// budget bounds the rare explosions of chance nodes: a face-down piece capturing a
    /// face-down piece in Fan-qi has up to 36 outcomes, each searched with a full window.)
    fn default() -> Self {
        ExpectimaxConfig { depth: 2, qdepth: 4, nodes: Some(200_000), ms: None, samples: 1 }
    }
}

impl ExpectimaxConfig {
    /// Parses `depth=N,qdepth=N,nodes=N,ms=N,samples=N` (any subset; `nodes=0` lifts the node
    /// budget).
    ///
    /// # Errors
    /// A message naming the bad parameter.
    pub fn from_params(params: &str) -> Result<ExpectimaxConfig, String> {
        let mut c = ExpectimaxConfig::default();
        for (k, v) in super::parse_params(params)? {
            let n = super::param_u64("expectimax", &k, &v)?;
            match k.as_str() {
                "depth" => c.depth = (n as u32).clamp(1, MAX_PLY / 2),
                "qdepth" => c.qdepth = (n as u32).min(16),
                // nodes=0: no node budget.
                "nodes" => c.nodes = (n > 0).then_some(n),
                "ms" => c.ms = Some(n.max(1)),
                "samples" | "k" => c.samples = (n as u32).max(1),
                other => return Err(format!("expectimax parameter {other:?} unknown (known: depth, qdepth, nodes, ms, samples)")),
            }
        }
        Ok(c)
    }

    /// The spec string (`expectimax:depth=2,...`).
    pub fn spec(&self) -> String {
        let mut s = format!("expectimax:depth={},qdepth={},nodes={}", self.depth, self.qdepth, self.nodes.unwrap_or(0));
        if let Some(m) = self.ms {
            s += &format!(",ms={m}");
        }
        if self.samples != 1 {
            s += &format!(",samples={}", self.samples);
        }
        s
    }
}

/// Result of one search of one state.
#[derive(Clone, Debug)]
pub struct RootValues {
    /// Every searched root action with its score (centipawns, side to decide's view), in the
    /// order of [`State::legal_actions`].
    pub values: Vec<(Action, f64)>,
    /// Deepest completed iteration in plies (0 if none completed).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

impl RootValues {
    /// The action with the highest score (first among equals).
    pub fn best(&self) -> Option<(Action, f64)> {
        let mut best: Option<(Action, f64)> = None;
        for &(a, v) in &self.values {
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((a, v));
            }
        }
        best
    }
}

/// The searcher (one search at a time; holds the counters).
pub struct Expectimax {
    cfg: ExpectimaxConfig,
    nodes: u64,
    start: Instant,
    stopped: bool,
    /// The game's public record and the search path (hashes by [`public_hash`]).
    path: Vec<RecordPly>,
    /// An outside stop flag (a UCI `stop`), polled with the budgets.
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// Ordering key: captures by most valuable victim, least valuable attacker; then flips.
fn order_key(s: &State, a: Action) -> i32 {
    match a {
        Action::Move { from, to, .. } => {
            let pos = s.position();
            match pos.piece_at(to) {
                Some(v) => 10 * eval::role_value(v.role) - pos.piece_at(from).map(|p| eval::role_value(p.role) / 10).unwrap_or(0),
                None => 0,
            }
        }
        Action::Flip { .. } => 1,
        _ => -1,
    }
}

fn searchable(a: &Action) -> bool {
    !matches!(a, Action::Demand)
}

impl Expectimax {
    /// A searcher with `cfg`.
    pub fn new(cfg: ExpectimaxConfig) -> Expectimax {
        Expectimax { cfg, nodes: 0, start: Instant::now(), stopped: false, path: Vec::new(), stop: None }
    }

    /// This searcher stopping when `flag` is raised (polled every 1024 nodes, as the clock).
    pub fn with_stop(mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) -> Expectimax {
        self.stop = Some(flag);
        self
    }

    /// Iterative deepening to the configured depth within the budgets; the scores of every root
    /// action from the deepest completed iteration. The game is taken to start at `s`.
    pub fn search(&mut self, s: &State) -> RootValues {
        self.search_in_game(s, &[])
    }

    /// [`Expectimax::search`] of `s` reached by the game whose public record is `record`
    /// ([`crate::variant::game::VariantGame::record`]): a position of the search that repeats
    /// one of the record or of the search path is scored by the repetition rules (§X6: a draw, or
    /// a mate score against the side that checked or chased perpetually).
    pub fn search_in_game(&mut self, s: &State, record: &[RecordPly]) -> RootValues {
        self.path.clear();
        self.path.extend_from_slice(record);
        self.start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        let mut out = RootValues { values: Vec::new(), depth: 0, nodes: 0 };
        for depth in 1..=self.cfg.depth {
            let vals = self.root(s, depth);
            if self.stopped {
                if out.depth == 0 {
                    out.values = vals;
                }
                break;
            }
            out.values = vals;
            out.depth = depth;
        }
        if out.values.is_empty() {
            // Budget hit before the first action finished: fall back to the static order.
            out.values = s.legal_actions().into_iter().filter(searchable).map(|a| (a, 0.0)).collect();
        }
        out.nodes = self.nodes;
        out
    }

    /// The value of `s` for its side to move, in centipawns: a search of `cfg.depth` plies
    /// (0: the quiescence search alone, at most `cfg.qdepth` plies of captures and evasions
    /// standing pat on [`eval::evaluate`]) with a full window, mates as `±(MATE - ply)`.
    /// Budgets apply as in [`Expectimax::search`]; no game record (a leaf evaluator: the caller
    /// judges repetitions). Used by the net search to mix a tactical value into its leaves
    /// (AlphaGo's mixed leaf evaluation, Silver et al., Nature 529, 2016).
    pub fn leaf_value(&mut self, s: &State) -> f64 {
        self.path.clear();
        self.start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.node(s, self.cfg.depth, -INF, INF, 0, false)
    }

    /// Scores of every root action at `depth` (exact: full window at the root). Stops early,
    /// returning the actions scored so far, when a budget is hit.
    pub fn root(&mut self, s: &State, depth: u32) -> Vec<(Action, f64)> {
        let depth = depth.max(1);
        let acts: Vec<Action> = s.legal_actions().into_iter().filter(searchable).collect();
        let mut out = Vec::with_capacity(acts.len());
        for a in acts {
            let v = self.action_value(s, a, depth - 1, -INF, INF, 0, false);
            if self.stopped {
                break;
            }
            out.push((a, v));
        }
        out
    }

    /// Value of playing `a` in `s` for the side deciding in `s`.
    #[allow(clippy::too_many_arguments)]
    fn action_value(&mut self, s: &State, a: Action, depth: u32, alpha: f64, beta: f64, ply: u32, quiesce: bool) -> f64 {
        let child = s.child(a);
        if child.is_chance() && quiesce {
            // In quiescence a reveal ends the line: the mean static evaluation of its outcomes
            // (searching on below every outcome with a full window explodes in Fan-qi).
            let us = s.turn();
            self.nodes += 1;
            return child
                .chance_outcomes()
                .into_iter()
                .map(|(o, p)| {
                    let mut c = child.clone();
                    c.apply_chance(o);
                    p * eval::evaluate(&c, us) as f64
                })
                .sum();
        }
        let ply_of = |c: &State| RecordPly {
            hash: public_hash(c),
            mover: s.turn(),
            gave_check: c.position().in_check(),
            board: matches!(a, Action::Move { .. } | Action::Flip { .. }),
            quiet: s.quiet_move(a),
        };
        if child.is_chance() {
            let mut total = 0.0;
            for (o, p) in child.chance_outcomes() {
                let mut c = child.clone();
                c.apply_chance(o);
                self.path.push(ply_of(&c));
                total += p * -self.node(&c, depth, -INF, INF, ply + 1, quiesce);
                self.path.pop();
                if self.stopped {
                    return total;
                }
            }
            total
        } else {
            self.path.push(ply_of(&child));
            let v = -self.node(&child, depth, -beta, -alpha, ply + 1, quiesce);
            self.path.pop();
            v
        }
    }

    fn budget_hit(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if let Some(n) = self.cfg.nodes {
            if self.nodes >= n {
                self.stopped = true;
            }
        }
        if self.nodes.is_multiple_of(1024) {
            if self.stop.as_ref().is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed)) {
                self.stopped = true;
            }
            if let Some(ms) = self.cfg.ms {
                if self.start.elapsed().as_millis() as u64 >= ms {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    /// Value of a decision node for its side to move; `depth` counts the plies left before
    /// quiescence (`quiesce`: already in it, `depth` = quiescence plies left).
    fn node(&mut self, s: &State, depth: u32, mut alpha: f64, beta: f64, ply: u32, quiesce: bool) -> f64 {
        self.nodes += 1;
        if self.budget_hit() {
            return 0.0;
        }
        let us = s.turn();
        match s.agreement() {
            Some(crate::variant::state::Agreement::Resigned(c)) => return if c == us { -(MATE - ply as f64) } else { MATE - ply as f64 },
            Some(crate::variant::state::Agreement::Drawn) => return 0.0,
            None => {}
        }
        if let Some(c) = s.grind_loss() {
            return if c == us { -(MATE - ply as f64) } else { MATE - ply as f64 };
        }
        // Repetitions along the record and the path, and the 60-move rule (§X6).
        let pos = s.position();
        let end = &pos.rules().end;
        if end.repetition {
            match crate::repetition::in_search(end, pos, &self.path, pos.halfmove() as usize) {
                Some(crate::outcome::Outcome::Win { winner, .. }) => return if winner == us { MATE - ply as f64 } else { -(MATE - ply as f64) },
                Some(crate::outcome::Outcome::Draw { .. }) => return 0.0,
                None => {}
            }
        }
        if crate::repetition::no_capture_draw(end, pos.halfmove(), &self.path) {
            return 0.0;
        }
        let mut acts: Vec<Action> = s.legal_actions();
        if acts.is_empty() {
            return -(MATE - ply as f64);
        }
        acts.retain(searchable);
        if acts.is_empty() {
            return eval::evaluate(s, us) as f64;
        }
        let in_check = s.position().in_check();
        let (quiesce, depth) = if !quiesce && depth == 0 { (true, self.cfg.qdepth) } else { (quiesce, depth) };
        let mut best = -INF;
        if quiesce {
            let stand = eval::evaluate(s, us) as f64;
            if depth == 0 || ply >= MAX_PLY {
                return stand;
            }
            if !in_check {
                if stand >= beta {
                    return stand;
                }
                best = stand;
                alpha = alpha.max(stand);
                acts.retain(|a| matches!(*a, Action::Move { to, .. } if s.position().piece_at(to).is_some()));
            }
        } else if ply >= MAX_PLY {
            return eval::evaluate(s, us) as f64;
        }
        acts.sort_by_key(|a| -order_key(s, *a));
        for a in acts {
            let v = self.action_value(s, a, depth - 1, alpha, beta, ply, quiesce);
            if self.stopped {
                return best.max(-INF / 2.0);
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Nodes searched by the current (or last) search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// Expectimax as a [`Bot`]: searches `samples` determinizations of its view and plays the
/// action with the highest mean score. Deterministic given its seed (without a time budget).
///
/// As the **oracle** ([`ExpectimaxBot::oracle`], spec `oracle:...`) it searches the full state
/// itself ([`Decision::oracle_full_state`]: true back faces and identities; reveals still chance
/// where the pool is undetermined) — the same search as the honest bot with the hidden
/// information given away, so the difference between the two measures what the information is
/// worth.
pub struct ExpectimaxBot {
    cfg: ExpectimaxConfig,
    rng: Pcg64Mcg,
    oracle: bool,
}

impl ExpectimaxBot {
    /// A bot with `cfg` and `seed`.
    pub fn new(cfg: ExpectimaxConfig, seed: u64) -> ExpectimaxBot {
        ExpectimaxBot { cfg, rng: Pcg64Mcg::seed_from_u64(seed), oracle: false }
    }

    /// The cheating oracle with `cfg`: searches the full state (one search, no sampling); the
    /// seed serves the set-up choices.
    pub fn oracle(cfg: ExpectimaxConfig, seed: u64) -> ExpectimaxBot {
        ExpectimaxBot { cfg: ExpectimaxConfig { samples: 1, ..cfg }, rng: Pcg64Mcg::seed_from_u64(seed), oracle: true }
    }
}

impl Bot for ExpectimaxBot {
    fn name(&self) -> String {
        if self.oracle {
            self.cfg.spec().replacen("expectimax", "oracle", 1)
        } else {
            self.cfg.spec()
        }
    }

    fn choose(&mut self, d: &Decision) -> Action {
        self.analyse(d).best
    }

    fn analyse(&mut self, d: &Decision) -> Analysis {
        let start = Instant::now();
        let legal = d.legal_actions();
        if let Some(a) = super::setup_choice(&legal, &mut self.rng) {
            return a;
        }
        let view = d.view();
        let mut sum = vec![0.0; legal.len()];
        let mut seen = vec![0u32; legal.len()];
        let mut wins = vec![0u32; legal.len()];
        let mut nodes = 0;
        let mut done = 0u64;
        let mut e = Expectimax::new(self.cfg.clone());
        for _ in 0..self.cfg.samples {
            let det = if self.oracle { d.oracle_full_state().clone() } else { view.sample(&mut self.rng) };
            let r = e.search_in_game(&det, d.record());
            nodes += r.nodes;
            done += 1;
            for &(a, v) in &r.values {
                if let Some(i) = legal.iter().position(|x| *x == a) {
                    sum[i] += v;
                    seen[i] += 1;
                }
            }
            if let Some((a, _)) = r.best() {
                if let Some(i) = legal.iter().position(|x| *x == a) {
                    wins[i] += 1;
                }
            }
            if self.cfg.ms.is_some_and(|ms| start.elapsed().as_millis() as u64 >= ms) {
                break;
            }
        }
        let stats: Vec<ActionStat> = legal
            .iter()
            .enumerate()
            .filter(|(i, _)| seen[*i] > 0)
            .map(|(i, &a)| ActionStat { action: a, share: wins[i] as f64 / done as f64, score: sum[i] / seen[i] as f64, visits: seen[i] as u64 })
            .collect();
        Analysis::from_stats(&legal, stats, Rank::Score, "cp", done, "determinizations", nodes, start)
    }
}
