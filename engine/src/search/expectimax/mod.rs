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
//!   [`ExpectimaxConfig::qdepth`] plies, standing pat on [`crate::search::eval::evaluate`]; inside it a capture
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

//!
//! One search for every game (issue #17): [`ExpectiSearch`] is written against
//! [`ExpectiGame`], what the search needs of a game. The variants implement it on their full
//! [`State`] by today's code ([`variant`]: the rules above); every [`crate::search::Scored`] game
//! (the RULES-more.md games, [`crate::more`]) implements it through [`crate::game::Game`]
//! ([`game`]: captures are actions with [`crate::search::Scored::gain_cp`] > 0, no checks, ends
//! and repetitions judged by the game's own [`crate::game::Game::turn`], terminal returns as mate
//! scores). [`Expectimax`] is the variants' searcher, [`ExpectimaxBot`] their bot and
//! [`GameExpectimaxBot`] the bot of any `Scored` game.

pub mod game;
pub mod variant;

pub use game::GameExpectimaxBot;
pub use variant::ExpectimaxBot;

use crate::variant::{Action, State};
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
    /// The learned evaluation of the leaves and quiescence stand-pats (`eval=zoo:NAME|PATH`,
    /// [`crate::nnue`], a full refresh per evaluation) instead of [`ExpectiGame::eval`]; `None`:
    /// the hand-written one, or the family's network where [`ExpectimaxConfig::family_eval`]
    /// says so.
    pub eval: Option<crate::nnue::EvalNet>,
    /// With no `eval` (`eval=auto`, the default): the variant's published network
    /// ([`crate::nnue::default_for`]) where there is one, in the honest bot (never the oracle);
    /// `eval=none` clears it (the spec then says `eval=none`).
    pub family_eval: bool,
}

impl Default for ExpectimaxConfig {
    /// Depth 2, quiescence 4, 200 000 nodes, no time budget, one determinization, the family's
    /// learned evaluation (`eval=auto`; +123 ± 70 Elo in Jieqi, issue #36). (The node
    /// budget bounds the rare explosions of chance nodes: a face-down piece capturing a
    /// face-down piece in Fan-qi has up to 36 outcomes, each searched with a full window.)
    fn default() -> Self {
        ExpectimaxConfig { depth: 2, qdepth: 4, nodes: Some(200_000), ms: None, samples: 1, eval: None, family_eval: true }
    }
}

impl ExpectimaxConfig {
    /// Parses `depth=N,qdepth=N,nodes=N,ms=N,samples=N,eval=auto|none|zoo:NAME|PATH` (any
    /// subset; `nodes=0` lifts the node budget).
    ///
    /// # Errors
    /// A message naming the bad parameter.
    pub fn from_params(params: &str) -> Result<ExpectimaxConfig, String> {
        let mut c = ExpectimaxConfig::default();
        let mut seen = Vec::new();
        for (k, v) in super::parse_params(params)? {
            // Ranges that work (issue #39): out-of-range values are refused, not clamped.
            let n = |lo, hi| super::param_in("expectimax", &k, &v, lo, hi);
            let name = match k.as_str() {
                "depth" => {
                    c.depth = n(1, (MAX_PLY / 2) as u64)? as u32;
                    "depth"
                }
                "qdepth" => {
                    c.qdepth = n(0, 16)? as u32;
                    "qdepth"
                }
                // nodes=0: no node budget.
                "nodes" => {
                    c.nodes = Some(n(0, super::MAX_SPEC_NODES)?).filter(|&x| x > 0);
                    "nodes"
                }
                "ms" => {
                    c.ms = Some(n(1, super::MAX_SPEC_MS)?);
                    "ms"
                }
                "samples" | "k" => {
                    c.samples = n(1, 10_000)? as u32;
                    "samples"
                }
                "eval" => {
                    (c.eval, c.family_eval) = super::alphabeta::parse_eval("expectimax", &v)?;
                    "eval"
                }
                other => return Err(format!("expectimax parameter {other:?} unknown (known: depth, qdepth, nodes, ms, samples, eval)")),
            };
            super::param_once("expectimax", &mut seen, name)?;
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
        s += &crate::search::alphabeta::eval_suffix(self.eval.as_ref(), self.family_eval);
        s
    }

    /// This configuration as searched in the variant named `variant`: with
    /// [`ExpectimaxConfig::family_eval`] and no `eval`, the family's network filled in
    /// ([`crate::nnue::default_for`]; none where none is published).
    pub fn for_variant(&self, variant: &str) -> ExpectimaxConfig {
        ExpectimaxConfig { eval: crate::search::alphabeta::eval_for_variant(self.eval.as_ref(), self.family_eval, variant), ..self.clone() }
    }

    /// The network of [`ExpectimaxConfig::eval`], if any.
    #[inline]
    pub fn net(&self) -> Option<&crate::nnue::Network> {
        self.eval.as_ref().map(|e| &*e.net)
    }
}

/// What a state reached by an action (or a chance outcome) is, seen from the side `us` that
/// decided at the node above it ([`ExpectiGame::next`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Next {
    /// Nature draws one of [`ExpectiGame::outcomes`].
    Chance,
    /// `us` decides again (the child's value is `us`'s value).
    Same,
    /// The other side decides (the child's value is negated: negamax).
    Other,
    /// The game is over with this return for `us` (positive: `us` won; 0: a draw); the search
    /// scores it as a mate at the child's ply.
    End(f64),
}

/// What the expectimax search needs of a game: one state of it, at a decision, chance or end,
/// from which the search plays actions and chance outcomes. Scores are centipawns from the point
/// of view of [`ExpectiGame::side`].
///
/// Implemented for the variants' full [`State`] ([`variant`], exactly the variant search's
/// rules) and for every [`crate::search::Scored`] game ([`game`]).
pub trait ExpectiGame: Clone {
    /// A player action.
    type Act: Copy + PartialEq + std::fmt::Debug;
    /// A chance outcome.
    type Outcome;
    /// A side (a player).
    type Side: Copy + PartialEq;
    /// One entry of the game's record and of the search path, for the repetition rules (`()`
    /// for games that judge repetitions themselves).
    type Ply: Clone;

    /// The side to decide (called at decision nodes only).
    fn side(&self) -> Self::Side;

    /// The state after the player action `a` (a legal action of this decision node).
    fn play(&self, a: Self::Act) -> Self;

    /// What this state, reached by an action of `us` (or a chance outcome after one), is.
    fn next(&self, us: Self::Side) -> Next;

    /// The chance outcomes of this chance state with their probabilities (summing to 1).
    fn outcomes(&self) -> Vec<(Self::Outcome, f64)>;

    /// Draws the chance outcome `o` in place.
    fn apply_outcome(&mut self, o: Self::Outcome);

    /// The end of the game judged at this decision node before any action is searched (resigned
    /// or agreed results, repetitions along `path`, move-count draws), as a score for
    /// [`ExpectiGame::side`] with mates as `±(MATE - ply)`; `None` to search on. `path` is the
    /// game's record followed by the search path down to this node.
    fn end_value(&self, path: &[Self::Ply], ply: u32) -> Option<f64>;

    /// The actions the search considers at this decision node, in the game's order, or the
    /// node's score when there is none (no legal action: `-(MATE - ply)` where that loses).
    ///
    /// # Errors
    /// `Err(score)` when the node has no searchable action.
    fn actions(&self, ply: u32) -> Result<Vec<Self::Act>, f64>;

    /// The searchable actions at the root (the values reported), in the game's order.
    fn root_actions(&self) -> Vec<Self::Act>;

    /// Whether the side to decide is in check (quiescence then searches every action).
    fn in_check(&self) -> bool;

    /// Whether quiescence searches `a` (a capture).
    fn is_capture(&self, a: Self::Act) -> bool;

    /// Puts `acts` (actions of this node) in search order, best first (stable among equals).
    fn order(&self, acts: &mut [Self::Act]);

    /// Static evaluation for `side`, in centipawns.
    fn eval(&self, side: Self::Side) -> f64;

    /// [`ExpectiGame::eval`] with the learned evaluation `net` where the game has one (the
    /// default, and `None`, give [`ExpectiGame::eval`]).
    fn eval_with(&self, side: Self::Side, net: Option<&crate::nnue::Network>) -> f64 {
        let _ = net;
        self.eval(side)
    }

    /// The record entry of playing `a` here and reaching the decision node `after`.
    fn record_ply(&self, a: Self::Act, after: &Self) -> Self::Ply;
}

/// Result of one search of one state.
#[derive(Clone, Debug)]
pub struct RootValues<A = Action> {
    /// Every searched root action with its score (centipawns, side to decide's view), in the
    /// order of [`ExpectiGame::root_actions`] (for the variants [`State::legal_actions`]).
    pub values: Vec<(A, f64)>,
    /// Deepest completed iteration in plies (0 if none completed).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Deepest ply reached, quiescence included (UCI `seldepth`).
    pub seldepth: u32,
}

impl<A: Copy> RootValues<A> {
    /// The action with the highest score (first among equals).
    pub fn best(&self) -> Option<(A, f64)> {
        let mut best: Option<(A, f64)> = None;
        for &(a, v) in &self.values {
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((a, v));
            }
        }
        best
    }
}

/// The searcher of any [`ExpectiGame`] (one search at a time; holds the counters).
pub struct ExpectiSearch<G: ExpectiGame> {
    cfg: ExpectimaxConfig,
    nodes: u64,
    /// Deepest ply reached by the current search.
    seldepth: u32,
    start: Instant,
    stopped: bool,
    /// The game's record and the search path.
    path: Vec<G::Ply>,
    /// An outside stop flag (a UCI `stop`), polled with the budgets.
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

/// The variants' searcher: [`ExpectiSearch`] on the full variant [`State`].
pub type Expectimax = ExpectiSearch<State>;

impl<G: ExpectiGame> ExpectiSearch<G> {
    /// A searcher with `cfg`.
    pub fn new(cfg: ExpectimaxConfig) -> ExpectiSearch<G> {
        ExpectiSearch { cfg, nodes: 0, seldepth: 0, start: Instant::now(), stopped: false, path: Vec::new(), stop: None }
    }

    /// This searcher stopping when `flag` is raised (polled every 1024 nodes, as the clock).
    pub fn with_stop(mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) -> ExpectiSearch<G> {
        self.stop = Some(flag);
        self
    }

    /// Iterative deepening to the configured depth within the budgets; the scores of every root
    /// action from the deepest completed iteration. The game is taken to start at `s`.
    pub fn search(&mut self, s: &G) -> RootValues<G::Act> {
        self.search_in_game(s, &[])
    }

    /// [`ExpectiSearch::search`] of `s` reached by the game whose record is `record` (for the
    /// variants [`crate::variant::game_state::VariantGameState::record`]): a position of the search that
    /// repeats one of the record or of the search path is scored by the repetition rules (§X6: a
    /// draw, or a mate score against the side that checked or chased perpetually).
    pub fn search_in_game(&mut self, s: &G, record: &[G::Ply]) -> RootValues<G::Act> {
        self.path.clear();
        self.path.extend_from_slice(record);
        self.start = Instant::now();
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        let mut out = RootValues { values: Vec::new(), depth: 0, nodes: 0, seldepth: 0 };
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
            out.values = s.root_actions().into_iter().map(|a| (a, 0.0)).collect();
        }
        out.nodes = self.nodes;
        out.seldepth = self.seldepth;
        out
    }

    /// The value of `s` for its side to move, in centipawns: a search of `cfg.depth` plies
    /// (0: the quiescence search alone, at most `cfg.qdepth` plies of captures and evasions
    /// standing pat on the static evaluation) with a full window, mates as `±(MATE - ply)`.
    /// Budgets apply as in [`ExpectiSearch::search`]; no game record (a leaf evaluator: the
    /// caller judges repetitions). Used by the net search to mix a tactical value into its leaves
    /// (AlphaGo's mixed leaf evaluation, Silver et al., Nature 529, 2016).
    pub fn leaf_value(&mut self, s: &G) -> f64 {
        self.path.clear();
        self.start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.node(s, self.cfg.depth, -INF, INF, 0, false)
    }

    /// Scores of every root action at `depth` (exact: full window at the root). Stops early,
    /// returning the actions scored so far, when a budget is hit.
    pub fn root(&mut self, s: &G, depth: u32) -> Vec<(G::Act, f64)> {
        let depth = depth.max(1);
        let acts = s.root_actions();
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
    fn action_value(&mut self, s: &G, a: G::Act, depth: u32, alpha: f64, beta: f64, ply: u32, quiesce: bool) -> f64 {
        let child = s.play(a);
        self.edge(s, a, &child, depth, alpha, beta, ply, quiesce)
    }

    /// Value, for the side deciding in `s`, of `c`: the state reached from `s` by `a` and the
    /// chance outcomes drawn since. A chance node is the probability-weighted mean of its
    /// outcomes, searched with a full window; in quiescence a reveal ends the line with the mean
    /// static evaluation of its outcomes (searching on below every outcome with a full window
    /// explodes in Fan-qi).
    #[allow(clippy::too_many_arguments)]
    fn edge(&mut self, s: &G, a: G::Act, c: &G, depth: u32, alpha: f64, beta: f64, ply: u32, quiesce: bool) -> f64 {
        let us = s.side();
        match c.next(us) {
            Next::Chance if quiesce => {
                self.nodes += 1;
                c.outcomes()
                    .into_iter()
                    .map(|(o, p)| {
                        let mut x = c.clone();
                        x.apply_outcome(o);
                        p * match x.next(us) {
                            Next::End(r) => end_score(r, ply + 1),
                            _ => x.eval_with(us, self.cfg.net()),
                        }
                    })
                    .sum()
            }
            Next::Chance => {
                let mut total = 0.0;
                for (o, p) in c.outcomes() {
                    let mut x = c.clone();
                    x.apply_outcome(o);
                    total += p * self.edge(s, a, &x, depth, -INF, INF, ply, quiesce);
                    if self.stopped {
                        return total;
                    }
                }
                total
            }
            Next::End(r) => {
                self.nodes += 1;
                end_score(r, ply + 1)
            }
            Next::Same => {
                self.path.push(s.record_ply(a, c));
                let v = self.node(c, depth, alpha, beta, ply + 1, quiesce);
                self.path.pop();
                v
            }
            Next::Other => {
                self.path.push(s.record_ply(a, c));
                let v = -self.node(c, depth, -beta, -alpha, ply + 1, quiesce);
                self.path.pop();
                v
            }
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
    fn node(&mut self, s: &G, depth: u32, mut alpha: f64, beta: f64, ply: u32, quiesce: bool) -> f64 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.budget_hit() {
            return 0.0;
        }
        let us = s.side();
        if let Some(v) = s.end_value(&self.path, ply) {
            return v;
        }
        let mut acts = match s.actions(ply) {
            Ok(acts) => acts,
            Err(v) => return v,
        };
        let in_check = s.in_check();
        let (quiesce, depth) = if !quiesce && depth == 0 { (true, self.cfg.qdepth) } else { (quiesce, depth) };
        let mut best = -INF;
        if quiesce {
            let stand = s.eval_with(us, self.cfg.net());
            if depth == 0 || ply >= MAX_PLY {
                return stand;
            }
            if !in_check {
                if stand >= beta {
                    return stand;
                }
                best = stand;
                alpha = alpha.max(stand);
                acts.retain(|a| s.is_capture(*a));
            }
        } else if ply >= MAX_PLY {
            return s.eval_with(us, self.cfg.net());
        }
        s.order(&mut acts);
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

/// The score of a game's end with return `r` (for the side scored) at `ply`: `±(MATE - ply)`,
/// 0 for a draw.
fn end_score(r: f64, ply: u32) -> f64 {
    if r > 0.0 {
        MATE - ply as f64
    } else if r < 0.0 {
        -(MATE - ply as f64)
    } else {
        0.0
    }
}
