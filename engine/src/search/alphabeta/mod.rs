//! The one alpha-beta search of every game (issue #17): [`AlphaBeta`] is generic over a
//! [`SearchPosition`] (make/unmake, move lists, evaluation, rule hooks). [`Searcher`] is it on the
//! variants' core position ([`CorePosition`], RULES.md §X), on which the *oracle* bot of every
//! variant is built; the RULES-more.md games and any other [`crate::search::Scored`] game are
//! searched through a copy-make adapter.
//!
//! The searcher is a classical single-threaded engine (described here on the core position):
//! - iterative deepening over a principal variation search (PVS) with late-move reductions of
//!   quiet moves;
//! - a fixed-size transposition table keyed by the Zobrist [`crate::position::Position::hash`] (set in MiB);
//! - quiescence search over captures (all evasions when in check), with delta pruning; it sees
//!   mate there but not stalemate (a quiet position without captures stands pat);
//! - move ordering: transposition-table move, captures by MVV-LVA, two killer moves per ply, then
//!   the history heuristic;
//! - one ply of extension for a move that gives check;
//! - mate scores that count plies from the root ([`Score::Mate`] counts moves, as UCI does);
//!   no legal move loses, whether in check or not (§X4);
//! - a repetition of any earlier position of the game or of the search path (same side to move,
//!   since the last capture) is judged at once by the rule code of [`crate::repetition`] (§X6):
//!   a draw, or a loss for the side that checked or chased perpetually in the cycle (scored as a
//!   mate at that ply); the 120-ply no-capture rule draws when the variant's rule table has it;
//! - budgets: depth (plies), nodes (every node, quiescence included, counts; the node budget is
//!   never exceeded), wall time (ms, checked every 1024 nodes) and a shared stop flag
//!   (`Arc<AtomicBool>`, checked every 1024 nodes);
//! - an info callback after each completed depth ([`SearchInfo`]).
//!
//! The evaluation ([`evaluate`]) is material (chariot 900, cannon 450, horse 400, advisor and
//! elephant 200, soldier 100 before and 200 after crossing the river) plus small piece-square
//! tables, from the side to move's point of view, in centipawns.
//!
//! Search is deterministic given the position, the game history, the limits (without a time limit
//! or stop flag) and the transposition table's contents; [`AlphaBetaBot`] clears the table before
//! every decision so that its choices depend on the state only.
//!
//! [`AlphaBetaBot`] is the **cheating oracle** for hidden-information variants: it searches
//! [`State::position`], the core in which every piece moves as the type it currently moves as
//! (face-down pieces as their start point's type, Surprise discs by their visible face), sees no
//! flips, reveals or chance, and plays the best plain move among the state's legal
//! [`Action::Move`]s. It is an approximation for those variants (a face-down piece is valued as
//! its start point's type, and it does not know that moving it reveals something else), and
//! it reads the full state, so it is not a fair player of a hidden variant.


mod bot;
mod game;
mod order;
mod position;
mod pst;
mod searcher;
#[cfg(test)]
mod tests;
mod tt;

pub use bot::{action_for_move, eval_for_variant, eval_suffix, limits_name, oracle_root_moves, parse_eval, parse_limits, AlphaBetaBot};
pub use game::{GameAlphaBetaBot, GameNode, GameSearch};
pub use pst::{evaluate, piece_value, SOLDIER_CROSSED};
pub use position::{CorePosition, CoreUndo, HiddenValues, SearchPosition, HISTORY_PER_SIDE};
pub use searcher::{AlphaBeta, Searcher};

use crate::moves::Move;

/// Deepest ply the search reaches (root = 0), extensions and quiescence included.
pub const MAX_PLY: usize = 128;
/// Deepest iteration of iterative deepening, in plies.
pub const MAX_DEPTH: u32 = 100;
/// Score of mate at the root (internal units, centipawn scale); mate in `n` plies is `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores at or beyond this magnitude are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than every score.
const INF: i32 = 32_000;
/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
// ---------------------------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------------------------

/// A score as reported to users: centipawns, or moves to mate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (full moves of the side to move): positive when the side to move
    /// mates, negative when it is mated, 0 when it is mated already (no legal move).
    Mate(i32),
}

impl Score {
    /// Converts an internal score (centipawns, or `±(MATE - plies)`).
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }

    /// The UCI form: `cp 35` or `mate -3`.
    pub fn uci(&self) -> String {
        match self {
            Score::Cp(c) => format!("cp {c}"),
            Score::Mate(m) => format!("mate {m}"),
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.uci())
    }
}

/// Budgets of one search. Every budget that is set applies; the first reached stops the search.
/// With none set the search runs until the stop flag is raised (or [`MAX_DEPTH`]).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration, in plies (nominal depth; extensions and quiescence go deeper).
    pub depth: Option<u32>,
    /// Node budget: nodes visited, quiescence included. Never exceeded.
    pub nodes: Option<u64>,
    /// Hard wall-time budget in milliseconds, checked every 1024 nodes.
    pub time_ms: Option<u64>,
    /// Soft time budget in milliseconds: no new iteration starts after it has passed.
    pub soft_time_ms: Option<u64>,
    /// Only these root moves are searched (UCI `searchmoves`); empty means all legal moves.
    pub searchmoves: Vec<Move>,
    /// Selective-search techniques switched off (all on by default); for measuring what each
    /// is worth (`alphabeta:off=null+rfp`).
    pub off: Techniques,
    /// The learned evaluation the search uses instead of material and piece-square tables
    /// (`alphabeta:eval=zoo:NAME|PATH`, [`crate::nnue`]); `None`: the hand-written one, or
    /// the family's network where [`Limits::family_eval`] says so.
    pub eval: Option<crate::nnue::EvalNet>,
    /// With no `eval`: the honest search of a variant
    /// ([`AlphaBetaBot::view_search`](bot::AlphaBetaBot::view_search), `pimc`'s) uses the
    /// published network of the variant's family ([`crate::nnue::default_for`]) where there is
    /// one. Set by `pimc` specs unless they say `eval=none`; the oracle's full-state search
    /// never uses it.
    pub family_eval: bool,
}

/// The selective-search techniques of the searcher, as a set of flags (a set flag in
/// [`Limits::off`] switches that technique off). Names as in `alphabeta:off=...`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Techniques(pub u16);

impl Techniques {
    /// Null-move pruning (reduction 3 + depth/4).
    pub const NULL_MOVE: Techniques = Techniques(1);
    /// Reverse futility pruning (static null move) at depth 1-6.
    pub const REVERSE_FUTILITY: Techniques = Techniques(2);
    /// Futility pruning and late-move pruning of quiet moves at depth 1-3.
    pub const FUTILITY: Techniques = Techniques(4);
    /// Logarithmic late-move reductions (else: 1 ply, 2 at depth 6 from the tenth move).
    pub const LMR_LOG: Techniques = Techniques(8);
    /// Aspiration windows at the root from depth 4.
    pub const ASPIRATION: Techniques = Techniques(16);
    /// Internal iterative reduction: one ply less at depth 4+ without a table move.
    pub const IIR: Techniques = Techniques(32);
    /// History malus: the quiet moves tried before a quiet cut-off lose its history bonus.
    pub const HISTORY_MALUS: Techniques = Techniques(64);
    /// The transposition table in quiescence: probed for cut-offs and the first capture,
    /// written with depth 0.
    pub const QSEARCH_TT: Techniques = Techniques(128);
    /// Counter moves: the quiet move that last refuted the opponent's previous move is tried
    /// after the killers.
    pub const COUNTER_MOVE: Techniques = Techniques(256);
    /// "Improving" (Stockfish's): where the static evaluation is above that of two plies
    /// before, reverse futility needs one ply less of margin; where it is not, late-move pruning
    /// keeps two thirds of the quiet moves and non-PV late-move reductions are one ply deeper.
    pub const IMPROVING: Techniques = Techniques(512);
    /// Every technique with its name.
    pub const NAMED: [(&'static str, Techniques); 10] = [
        ("malus", Techniques::HISTORY_MALUS),
        ("null", Techniques::NULL_MOVE),
        ("rfp", Techniques::REVERSE_FUTILITY),
        ("futility", Techniques::FUTILITY),
        ("lmr", Techniques::LMR_LOG),
        ("aspiration", Techniques::ASPIRATION),
        ("iir", Techniques::IIR),
        ("qtt", Techniques::QSEARCH_TT),
        ("counter", Techniques::COUNTER_MOVE),
        ("improving", Techniques::IMPROVING),
    ];

    /// Whether every flag of `t` is set.
    #[inline]
    pub fn has(self, t: Techniques) -> bool {
        self.0 & t.0 == t.0 && t.0 != 0
    }

    /// Parses names joined by `+` (`null+rfp`), or `all`.
    ///
    /// # Errors
    /// A message naming an unknown technique and the known ones.
    pub fn parse(text: &str) -> Result<Techniques, String> {
        let mut t = Techniques::default();
        for name in text.split('+').map(str::trim).filter(|n| !n.is_empty()) {
            if name == "all" {
                t.0 = u16::MAX;
                continue;
            }
            let Some((_, f)) = Techniques::NAMED.iter().find(|(n, _)| *n == name) else {
                let known: Vec<&str> = Techniques::NAMED.iter().map(|(n, _)| *n).collect();
                return Err(format!("alphabeta parameter off: unknown technique {name:?} (known: {}, all)", known.join(", ")));
            };
            t.0 |= f.0;
        }
        Ok(t)
    }

    /// The names of the set flags joined by `+`.
    pub fn names(self) -> String {
        Techniques::NAMED.iter().filter(|(_, f)| self.has(*f)).map(|(n, _)| *n).collect::<Vec<_>>().join("+")
    }
}

impl Limits {
    /// A depth limit of `plies`.
    pub fn depth(plies: u32) -> Limits {
        Limits { depth: Some(plies), ..Limits::default() }
    }

    /// A node budget of `nodes`.
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    /// A hard time budget of `ms` milliseconds.
    pub fn time_ms(ms: u64) -> Limits {
        Limits { time_ms: Some(ms), ..Limits::default() }
    }
}

/// Progress report after each completed iteration.
#[derive(Clone, Debug)]
pub struct SearchInfo<M = Move> {
    /// Iteration depth in plies.
    pub depth: u32,
    /// Deepest ply reached (selective depth), in plies.
    pub seldepth: u32,
    /// Score of the best move.
    pub score: Score,
    /// Internal score (centipawns or `±(MATE - plies)`).
    pub raw_score: i32,
    /// Nodes searched so far in this search.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Principal variation, root move first.
    pub pv: Vec<M>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M = Move> {
    /// Best move, `None` only when the root has no legal move (or `searchmoves` excluded all).
    pub best: Option<M>,
    /// Score of the best move (from the last completed iteration).
    pub score: Score,
    /// Internal score.
    pub raw_score: i32,
    /// Deepest completed iteration in plies (0 if none completed).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds used.
    pub time_ms: u64,
    /// Principal variation of the last completed iteration.
    pub pv: Vec<M>,
}
