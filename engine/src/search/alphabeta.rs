//! Alpha-beta search for standard xiangqi on the position core (RULES.md §X), and the *oracle* bot
//! built on it for every variant.
//!
//! The searcher ([`Searcher`]) is a classical single-threaded engine:
//! - iterative deepening over a principal variation search (PVS) with late-move reductions of
//!   quiet moves;
//! - a fixed-size transposition table keyed by the Zobrist [`Position::hash`] (set in MiB);
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

use crate::moves::{Move, MoveList, MAX_MOVES};
use crate::piece::{Color, Role};
use crate::position::Position;
use crate::repetition::RecordPly;
use crate::search::Bot;
use crate::variant::{Action, State};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

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
// Evaluation
// ---------------------------------------------------------------------------------------------

/// Material value of a piece type in centipawns (a soldier that has crossed the river counts
/// [`SOLDIER_CROSSED`] instead). The general's value only orders captures.
pub const fn piece_value(role: Role) -> i32 {
    match role {
        Role::General => 10_000,
        Role::Chariot => 900,
        Role::Cannon => 450,
        Role::Horse => 400,
        Role::Advisor | Role::Elephant => 200,
        Role::Soldier => 100,
    }
}

/// Value of a soldier across the river, in centipawns.
pub const SOLDIER_CROSSED: i32 = 200;

/// Piece-square bonuses in centipawns, indexed `[role][relative rank][file]`: rank 0 is the
/// owner's back rank; the tables are symmetric in the files, so they serve both colours.
#[rustfmt::skip]
const PST: [[[i16; 9]; 10]; Role::COUNT] = [
    // General: stay home.
    [
        [  0,   0,   0,  -5,   0,  -5,   0,   0,   0],
        [  0,   0,   0, -15, -10, -15,   0,   0,   0],
        [  0,   0,   0, -25, -20, -25,   0,   0,   0],
        [0; 9], [0; 9], [0; 9], [0; 9], [0; 9], [0; 9], [0; 9],
    ],
    // Advisor: the palace centre.
    [
        [  0,   0,   0,   0,   0,   0,   0,   0,   0],
        [  0,   0,   0,   0,  10,   0,   0,   0,   0],
        [  0,   0,   0,  -5,   0,  -5,   0,   0,   0],
        [0; 9], [0; 9], [0; 9], [0; 9], [0; 9], [0; 9], [0; 9],
    ],
    // Elephant: the centre point e2.
    [
        [  0,   0,   0,   0,   0,   0,   0,   0,   0],
        [0; 9],
        [ -5,   0,   0,   0,  10,   0,   0,   0,  -5],
        [0; 9],
        [  0,   0,  -5,   0,   0,   0,  -5,   0,   0],
        [0; 9], [0; 9], [0; 9], [0; 9], [0; 9],
    ],
    // Horse: centre and the points near the enemy palace; edges and home are poor.
    [
        [-20, -10, -10, -10, -30, -10, -10, -10, -20],
        [-10,   0,   0,   0, -10,   0,   0,   0, -10],
        [-10,   5,  10,   5,   5,   5,  10,   5, -10],
        [ -5,   5,  10,  15,  10,  15,  10,   5,  -5],
        [  0,  10,  15,  20,  15,  20,  15,  10,   0],
        [  0,  15,  20,  25,  20,  25,  20,  15,   0],
        [  5,  20,  25,  30,  25,  30,  25,  20,   5],
        [  5,  25,  30,  35,  30,  35,  30,  25,   5],
        [  0,  20,  35,  25,  10,  25,  35,  20,   0],
        [ -5,   5,  10,  10,   0,  10,  10,   5,  -5],
    ],
    // Chariot: open, advanced, central files.
    [
        [-10,   0,  -5,   5,   0,   5,  -5,   0, -10],
        [ -5,   5,   0,   5,   0,   5,   0,   5,  -5],
        [  0,   5,   5,  10,   5,  10,   5,   5,   0],
        [  0,  10,  10,  15,  15,  15,  10,  10,   0],
        [  5,  15,  15,  20,  20,  20,  15,  15,   5],
        [ 10,  20,  20,  25,  25,  25,  20,  20,  10],
        [ 10,  20,  20,  25,  25,  25,  20,  20,  10],
        [ 10,  20,  20,  30,  30,  30,  20,  20,  10],
        [ 10,  25,  25,  35,  35,  35,  25,  25,  10],
        [  5,  15,  15,  20,  20,  20,  15,  15,   5],
    ],
    // Cannon: the central file and the enemy back rank.
    [
        [  0,   0,   5,  10,  10,  10,   5,   0,   0],
        [  0,   5,   5,   5,   5,   5,   5,   5,   0],
        [  0,   5,   5,  10,  20,  10,   5,   5,   0],
        [  0,   0,   0,   5,  10,   5,   0,   0,   0],
        [  0,   5,   5,   5,  10,   5,   5,   5,   0],
        [  0,   5,   5,   5,  10,   5,   5,   5,   0],
        [  0,   5,   5,   5,  10,   5,   5,   5,   0],
        [  5,   5,   5,  10,  15,  10,   5,   5,   5],
        [  5,   5,   5,   5,  10,   5,   5,   5,   5],
        [ 10,  10,   5,   0,   5,   0,   5,  10,  10],
    ],
    // Soldier: before the river the centre soldier is worth pushing; across it, near the palace.
    [
        [0; 9], [0; 9], [0; 9],
        [  0,   0,   0,   0,   5,   0,   0,   0,   0],
        [  0,   0,   5,   0,  10,   0,   5,   0,   0],
        [-10,   0,  10,  20,  25,  20,  10,   0, -10],
        [  0,  10,  30,  45,  50,  45,  30,  10,   0],
        [  0,  10,  35,  55,  60,  55,  35,  10,   0],
        [  0,  10,  30,  50,  55,  50,  30,  10,   0],
        [-20, -10,   0,   0,   0,   0,   0, -10, -20],
    ],
];

/// Value of `color`'s piece of type `role` on `sq`: material plus the piece-square bonus.
#[inline]
fn piece_square_value(pos: &Position, color: Color, role: Role, sq: crate::geometry::Square) -> i32 {
    let g = &pos.rules().attacks.geometry;
    let rank = (g.relative_rank(color, sq) as usize).min(9);
    let file = (sq.file() as usize).min(8);
    let base = if role == Role::Soldier && !g.in_own_half(color, sq) { SOLDIER_CROSSED } else { piece_value(role) };
    let base = if role == Role::General { 0 } else { base };
    base + PST[role.index()][rank][file] as i32
}

/// Static evaluation of `pos` in centipawns from the side to move's point of view: material
/// (soldiers 100, 200 across the river) plus piece-square bonuses.
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = [0i32; 2];
    for color in Color::ALL {
        let mut total = 0;
        for role in Role::ALL {
            for sq in pos.pieces(color, role) {
                total += piece_square_value(pos, color, role, sq);
            }
        }
        score[color.index()] = total;
    }
    let us = pos.turn().index();
    score[us] - score[1 - us]
}

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
pub struct SearchInfo {
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
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Best move, `None` only when the root has no legal move (or `searchmoves` excluded all).
    pub best: Option<Move>,
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
    pub pv: Vec<Move>,
}

// ---------------------------------------------------------------------------------------------
// Transposition table
// ---------------------------------------------------------------------------------------------

const BOUND_EXACT: u8 = 1;
const BOUND_LOWER: u8 = 2;
const BOUND_UPPER: u8 = 3;
const NO_MOVE: u16 = u16::MAX;

#[derive(Copy, Clone)]
struct TtEntry {
    key: u64,
    score: i16,
    mv: u16,
    depth: i8,
    bound: u8,
    age: u8,
}

const EMPTY_ENTRY: TtEntry = TtEntry { key: 0, score: 0, mv: NO_MOVE, depth: -1, bound: 0, age: 0 };

fn pack(m: Move) -> u16 {
    (m.from.raw() as u16) << 8 | m.to.raw() as u16
}

fn unpack(v: u16) -> Option<Move> {
    if v == NO_MOVE {
        return None;
    }
    Some(Move::new(
        crate::geometry::Square::new_unchecked((v >> 8) as u8),
        crate::geometry::Square::new_unchecked((v & 0xFF) as u8),
    ))
}

/// Stores mate scores relative to the node (plies to mate from here), not to the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

// ---------------------------------------------------------------------------------------------
// Searcher
// ---------------------------------------------------------------------------------------------

/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;

/// The alpha-beta searcher. Owns its transposition table, killer and history tables; reuse one
/// searcher across the moves of a game to keep the table warm, or call [`Searcher::clear`].
pub struct Searcher {
    tt: Vec<TtEntry>,
    age: u8,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    pv: Vec<[Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// The game's record and the search path: one entry per ply, the hash after it (see
    /// [`Searcher::search`]).
    path: Vec<RecordPly>,
    stop: Arc<AtomicBool>,
    // Per-search state.
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    start: Instant,
    limits: Limits,
    iter_depth: i32,
    root_best: Option<Move>,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(DEFAULT_HASH_MB)
    }
}

impl Searcher {
    /// A searcher with a transposition table of about `hash_mb` MiB (at least 1).
    pub fn new(hash_mb: usize) -> Searcher {
        let none = Move::new(crate::geometry::Square::new_unchecked(0), crate::geometry::Square::new_unchecked(0));
        let mut s = Searcher {
            tt: Vec::new(),
            age: 0,
            killers: vec![[none; 2]; MAX_PLY],
            history: vec![0; 2 * 128 * 128],
            pv: vec![[none; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            path: Vec::with_capacity(1024),
            stop: Arc::new(AtomicBool::new(false)),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            start: Instant::now(),
            limits: Limits::default(),
            iter_depth: 0,
            root_best: None,
        };
        s.resize(hash_mb);
        s
    }

    /// Resizes the transposition table to about `hash_mb` MiB (a power of two of entries),
    /// clearing it.
    pub fn resize(&mut self, hash_mb: usize) {
        let bytes = hash_mb.max(1).saturating_mul(1 << 20);
        let want = (bytes / std::mem::size_of::<TtEntry>()).max(1024);
        let entries = if want.is_power_of_two() { want } else { want.next_power_of_two() / 2 };
        self.tt = vec![EMPTY_ENTRY; entries];
    }

    /// Number of transposition-table entries.
    pub fn tt_entries(&self) -> usize {
        self.tt.len()
    }

    /// Forgets everything learned: transposition table, killers, history.
    pub fn clear(&mut self) {
        self.tt.fill(EMPTY_ENTRY);
        self.history.fill(0);
        let none = Move::new(crate::geometry::Square::new_unchecked(0), crate::geometry::Square::new_unchecked(0));
        self.killers.fill([none; 2]);
        self.age = 0;
    }

    /// The stop flag this searcher polls (every 1024 nodes). Raising it ends the current search,
    /// which then returns the best move of the last completed iteration. The flag is *not*
    /// lowered by [`Searcher::search`]; lower it before starting another search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Replaces the stop flag (e.g. with one shared with a UCI reader thread).
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// Searches `pos` within `limits`.
    ///
    /// `game` is the game's record up to `pos`, oldest first: one [`RecordPly`] per ply with the
    /// [`Position::hash`] after it; the last entry is the ply that led to `pos` (when its hash is
    /// not `pos`'s, or `game` is empty, `pos` is appended as a ply about which nothing more is
    /// known). The first entry may stand for the start position ([`RecordPly::occurrence`]). A
    /// position of the search that repeats one of the record or of the search path is judged by
    /// [`crate::repetition::verdict`]: a draw, or a loss for the side that checked or chased
    /// perpetually. `on_info` is called after each completed iteration.
    pub fn search(
        &mut self,
        pos: &Position,
        game: &[RecordPly],
        limits: &Limits,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.start = Instant::now();
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.limits = limits.clone();
        self.root_best = None;
        self.age = self.age.wrapping_add(1);
        for h in self.history.iter_mut() {
            *h /= 4;
        }
        self.path.clear();
        self.path.extend_from_slice(game);
        if game.last().is_none_or(|p| p.hash != pos.hash()) {
            self.path.push(RecordPly::occurrence(pos.hash(), pos.turn().opponent()));
        }
        let mut pos = pos.clone();

        let mut root_moves = pos.legal_moves();
        if !limits.searchmoves.is_empty() {
            root_moves.retain(|m| limits.searchmoves.contains(m));
        }
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            score: Score::Cp(0),
            raw_score: 0,
            depth: 0,
            nodes: 0,
            time_ms: 0,
            pv: Vec::new(),
        };
        if root_moves.is_empty() {
            let raw = if limits.searchmoves.is_empty() { -MATE } else { 0 };
            result.score = Score::from_internal(raw);
            result.raw_score = raw;
            return result;
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            self.iter_depth = depth as i32;
            let score = self.root(&mut pos, &root_moves, depth as i32);
            if self.stopped {
                // An interrupted iteration is discarded, except at depth 1 where it is all we have.
                if result.depth == 0 {
                    if let Some(m) = self.root_best {
                        result.best = Some(m);
                    }
                }
                break;
            }
            let pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
            result.best = pv.first().copied().or(result.best);
            result.score = Score::from_internal(score);
            result.raw_score = score;
            result.depth = depth;
            result.pv = pv.clone();
            let ms = self.start.elapsed().as_millis() as u64;
            let info = SearchInfo {
                depth,
                seldepth: self.seldepth as u32,
                score: result.score,
                raw_score: score,
                nodes: self.nodes,
                nps: self.nodes * 1000 / ms.max(1),
                time_ms: ms,
                pv,
            };
            on_info(&info);
            if let Some(soft) = limits.soft_time_ms {
                if ms >= soft {
                    break;
                }
            }
            // A proven mate (or loss) shorter than the depth searched cannot change.
            if score.abs() >= MATE_BOUND && (MATE - score.abs()) < depth as i32 {
                break;
            }
        }
        result.nodes = self.nodes;
        result.time_ms = self.start.elapsed().as_millis() as u64;
        result
    }

    /// Nodes searched by the current (or last) search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                self.stopped = true;
                return true;
            }
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            if self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if let Some(ms) = self.limits.time_ms {
                if self.start.elapsed().as_millis() as u64 >= ms {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    fn tt_index(&self, key: u64) -> usize {
        (key as usize) & (self.tt.len() - 1)
    }

    fn tt_probe(&self, key: u64) -> Option<TtEntry> {
        let e = self.tt[self.tt_index(key)];
        (e.key == key && e.bound != 0).then_some(e)
    }

    fn tt_store(&mut self, key: u64, depth: i32, score: i32, bound: u8, mv: Option<Move>, ply: usize) {
        let i = self.tt_index(key);
        let old = self.tt[i];
        if old.key == key || old.age != self.age || depth >= old.depth as i32 - 1 {
            let mv = match mv {
                Some(m) => pack(m),
                None if old.key == key => old.mv,
                None => NO_MOVE,
            };
            self.tt[i] = TtEntry {
                key,
                score: to_tt(score, ply) as i16,
                mv,
                depth: depth.clamp(-1, 127) as i8,
                bound,
                age: self.age,
            };
        }
    }

    /// When the current position (top of the path) repeats an earlier one within the reversible
    /// window (the last `halfmove` plies), same side to move: its score for the side to move at
    /// `ply` by the repetition rules (§X6: 0 for a draw, a mate score when one side checked or
    /// chased perpetually in the cycle).
    fn repetition_score(&self, pos: &Position, halfmove: u32, ply: usize) -> Option<i32> {
        Some(match crate::repetition::in_search(&pos.rules().end, pos, &self.path, halfmove as usize)? {
            crate::outcome::Outcome::Win { winner, .. } if winner == pos.turn() => MATE - ply as i32,
            crate::outcome::Outcome::Win { .. } => -MATE + ply as i32,
            crate::outcome::Outcome::Draw { .. } => 0,
        })
    }

    fn history_slot(color: Color, m: Move) -> usize {
        color.index() * 128 * 128 + m.from.index() * 128 + m.to.index()
    }

    /// Scores moves for ordering (higher first).
    fn score_moves(&self, pos: &Position, picker: &mut Picker, tt_move: Option<Move>, ply: usize) {
        let us = pos.turn();
        for i in 0..picker.len {
            let m = picker.moves[i];
            picker.scores[i] = if Some(m) == tt_move {
                10_000_000
            } else if let Some(victim) = pos.piece_at(m.to) {
                let attacker = pos.piece_at(m.from).map(|p| piece_value(p.role)).unwrap_or(0);
                1_000_000 + piece_value(victim.role) * 16 - attacker / 16
            } else if self.killers[ply][0] == m {
                900_000
            } else if self.killers[ply][1] == m {
                800_000
            } else {
                self.history[Self::history_slot(us, m)].min(700_000)
            };
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for k in ply + 1..child_len {
            self.pv[ply][k] = self.pv[ply + 1][k];
        }
        self.pv_len[ply] = child_len;
    }

    fn root(&mut self, pos: &mut Position, root_moves: &MoveList, depth: i32) -> i32 {
        let ply = 0;
        self.pv_len[0] = 0;
        let key = pos.hash();
        let tt_move = self.tt_probe(key).and_then(|e| unpack(e.mv));
        // Keep the previous iteration's best move first.
        let prefer = self.root_best.or(tt_move);
        let mut moves = Picker::new(root_moves);
        self.score_moves(pos, &mut moves, prefer, ply);
        let mut alpha = -INF;
        let beta = INF;
        let mut best = -INF;
        let mut best_move = None;
        for i in 0..moves.len {
            let m = moves.pick(i);
            let score = self.child(pos, m, depth, alpha, beta, ply, i, false);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                self.root_best = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                }
            }
        }
        if !self.stopped {
            if let Some(m) = best_move {
                self.tt_store(key, depth, best, BOUND_EXACT, Some(m), ply);
            }
        }
        best
    }

    /// Plays `m` and searches the child with PVS (and LMR for late quiet moves); returns the
    /// score from the mover's point of view.
    #[allow(clippy::too_many_arguments)]
    fn child(&mut self, pos: &mut Position, m: Move, depth: i32, alpha: i32, beta: i32, ply: usize, index: usize, in_check: bool) -> i32 {
        let capture = pos.piece_at(m.to).is_some();
        let mover = pos.turn();
        let undo = pos.play(m);
        let gives_check = pos.in_check();
        self.path.push(RecordPly { hash: pos.hash(), mover, gave_check: gives_check, board: true, quiet: (!capture).then_some(m) });
        let ext = i32::from(gives_check && (ply as i32) < 2 * self.iter_depth + 4);
        let new_depth = depth - 1 + ext;
        let score = if index == 0 {
            -self.negamax(pos, new_depth, -beta, -alpha, ply + 1, gives_check)
        } else {
            let quiet = !capture && !gives_check && !in_check;
            let killer = self.killers[ply].contains(&m);
            let r = if quiet && !killer && depth >= 3 && index >= 3 {
                1 + i32::from(depth >= 6 && index >= 10)
            } else {
                0
            };
            let mut s = -self.negamax(pos, new_depth - r, -alpha - 1, -alpha, ply + 1, gives_check);
            if s > alpha && r > 0 && !self.stopped {
                s = -self.negamax(pos, new_depth, -alpha - 1, -alpha, ply + 1, gives_check);
            }
            if s > alpha && s < beta && !self.stopped {
                s = -self.negamax(pos, new_depth, -beta, -alpha, ply + 1, gives_check);
            }
            s
        };
        self.path.pop();
        pos.unplay(m, undo);
        score
    }

    fn negamax(&mut self, pos: &mut Position, depth: i32, mut alpha: i32, mut beta: i32, ply: usize, in_check: bool) -> i32 {
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.pv_len[ply] = ply;
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        // Repetitions along the path (§X6): a draw, or a loss for the perpetual side.
        if let Some(score) = self.repetition_score(pos, pos.halfmove(), ply) {
            return score;
        }
        if crate::repetition::no_capture_draw(&pos.rules().end, pos.halfmove(), &self.path) {
            return 0;
        }
        if ply >= MAX_PLY - 2 {
            return evaluate(pos);
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let pv_node = beta - alpha > 1;
        let key = pos.hash();
        let mut tt_move = None;
        if let Some(e) = self.tt_probe(key) {
            tt_move = unpack(e.mv);
            if !pv_node && e.depth as i32 >= depth {
                let s = from_tt(e.score as i32, ply);
                match e.bound {
                    BOUND_EXACT => return s,
                    BOUND_LOWER if s >= beta => return s,
                    BOUND_UPPER if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let legal = pos.legal_moves();
        if legal.is_empty() {
            // §X4: checkmate and stalemate both lose.
            return -MATE + ply as i32;
        }
        let mut moves = Picker::new(&legal);
        self.score_moves(pos, &mut moves, tt_move, ply);
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let us = pos.turn();
        for i in 0..moves.len {
            let m = moves.pick(i);
            let capture = pos.piece_at(m.to).is_some();
            let score = self.child(pos, m, depth, alpha, beta, ply, i, in_check);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        if !capture {
                            if self.killers[ply][0] != m {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = m;
                            }
                            let slot = Self::history_slot(us, m);
                            self.history[slot] = (self.history[slot] + depth * depth).min(600_000);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            BOUND_LOWER
        } else if best > orig_alpha {
            BOUND_EXACT
        } else {
            BOUND_UPPER
        };
        self.tt_store(key, depth, best, bound, best_move, ply);
        best
    }

    fn qsearch(&mut self, pos: &mut Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 2 {
            return evaluate(pos);
        }
        let in_check = pos.in_check();
        let mut moves;
        let mut best;
        if in_check {
            moves = pos.legal_moves();
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            best = -INF;
        } else {
            let stand = evaluate(pos);
            if stand >= beta {
                return stand;
            }
            if stand > alpha {
                alpha = stand;
            }
            best = stand;
            moves = MoveList::new();
            pos.pseudo_legal_moves(&mut moves);
            let enemy = pos.by_color(pos.turn().opponent());
            // Delta pruning: a capture that cannot lift the score near alpha is skipped.
            let margin = alpha - stand - 200;
            moves.retain(|m| {
                enemy.contains(m.to)
                    && pos.piece_at(m.to).map(|p| capture_gain(pos, p.color, p.role, m.to) >= margin).unwrap_or(false)
            });
            pos.retain_legal(&mut moves);
        }
        let mut picker = Picker::new(&moves);
        self.score_moves(pos, &mut picker, None, ply.min(MAX_PLY - 1));
        for i in 0..picker.len {
            let m = picker.pick(i);
            let undo = pos.play(m);
            let score = -self.qsearch(pos, -beta, -alpha, ply + 1);
            pos.unplay(m, undo);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Material (and placement) the side to move gains by capturing `color`'s `role` on `sq`.
fn capture_gain(pos: &Position, color: Color, role: Role, sq: crate::geometry::Square) -> i32 {
    if role == Role::General {
        return INF;
    }
    piece_square_value(pos, color, role, sq)
}

/// Moves with ordering scores, handed out best first (selection sort: cut-offs come early).
struct Picker {
    moves: [Move; MAX_MOVES],
    scores: [i32; MAX_MOVES],
    len: usize,
}

impl Picker {
    fn new(list: &MoveList) -> Picker {
        let none = Move::new(crate::geometry::Square::new_unchecked(0), crate::geometry::Square::new_unchecked(0));
        let mut p = Picker { moves: [none; MAX_MOVES], scores: [0; MAX_MOVES], len: list.len() };
        p.moves[..list.len()].copy_from_slice(list.as_slice());
        p
    }

    /// The best remaining move, moved to position `i`.
    #[inline]
    fn pick(&mut self, i: usize) -> Move {
        let mut best = i;
        for j in i + 1..self.len {
            if self.scores[j] > self.scores[best] {
                best = j;
            }
        }
        self.moves.swap(i, best);
        self.scores.swap(i, best);
        self.moves[i]
    }
}

// ---------------------------------------------------------------------------------------------
// The oracle bot
// ---------------------------------------------------------------------------------------------

/// The core moves that correspond to `state`'s legal [`Action::Move`]s (plain or not), in the
/// order of [`Position::legal_moves`]; these are the root moves the oracle searches.
pub fn oracle_root_moves(state: &State) -> Vec<Move> {
    let acts = state.legal_actions();
    let legal = state.position().legal_moves();
    legal
        .iter()
        .copied()
        .filter(|m| acts.iter().any(|a| matches!(*a, Action::Move { from, to, .. } if from == m.from && to == m.to)))
        .collect()
}

/// The action of `state` that plays core move `m`: the plain one (no turning face-down, no marker
/// transfer) if legal, else the first legal action with the same points.
pub fn action_for_move(state: &State, m: Move) -> Option<Action> {
    let acts = state.legal_actions();
    let plain = Action::Move { from: m.from, to: m.to, turn_down: false, marker: false };
    if acts.contains(&plain) {
        return Some(plain);
    }
    acts.into_iter().find(|a| matches!(*a, Action::Move { from, to, .. } if from == m.from && to == m.to))
}

/// Alpha-beta as a [`Bot`]: the **cheating oracle** for hidden-information variants (see the
/// module documentation). It searches `state.position()` within its [`Limits`] and plays the
/// matching [`Action::Move`]. Without such a move (only flips or negotiation answers are legal)
/// it answers a demand with `refuse` and otherwise takes the first legal action. It never flips
/// and never demands. The transposition table is cleared before every decision, so its choice
/// is a function of the state and the limits (unless a time limit is set).
pub struct AlphaBetaBot {
    searcher: Searcher,
    limits: Limits,
}

impl AlphaBetaBot {
    /// A bot searching within `limits` with a table of `hash_mb` MiB.
    pub fn new(limits: Limits, hash_mb: usize) -> AlphaBetaBot {
        AlphaBetaBot { searcher: Searcher::new(hash_mb), limits }
    }

    /// Parses the parameters after `alphabeta:` — `depth=N` (plies), `nodes=N`, `ms=N`
    /// (milliseconds), `hash=N` (MiB), separated by `,` or `:`. Without parameters the bot
    /// searches to depth 4.
    ///
    /// # Errors
    /// A message naming the bad parameter.
    pub fn from_params(params: &str) -> Result<AlphaBetaBot, String> {
        let mut limits = Limits::default();
        let mut hash = 8usize;
        for part in params.split([',', ':']).map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| format!("alphabeta parameter {part:?}: expected key=value (depth, nodes, ms, hash)"))?;
            let n: u64 = v.trim().parse().map_err(|_| format!("alphabeta parameter {k}: {v:?} is not a non-negative integer"))?;
            match k.trim() {
                "depth" => limits.depth = Some((n as u32).clamp(1, MAX_DEPTH)),
                "nodes" => limits.nodes = Some(n.max(1)),
                "ms" | "movetime" => limits.time_ms = Some(n.max(1)),
                "hash" => hash = (n as usize).max(1),
                other => return Err(format!("alphabeta parameter {other:?} unknown (known: depth, nodes, ms, hash)")),
            }
        }
        if limits.depth.is_none() && limits.nodes.is_none() && limits.time_ms.is_none() {
            limits.depth = Some(4);
        }
        Ok(AlphaBetaBot::new(limits, hash))
    }

    /// The limits of each decision.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }
}

impl Bot for AlphaBetaBot {
    fn name(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.limits.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.limits.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(t) = self.limits.time_ms {
            parts.push(format!("ms={t}"));
        }
        if parts.is_empty() {
            "alphabeta".into()
        } else {
            format!("alphabeta:{}", parts.join(","))
        }
    }

    fn choose(&mut self, d: &super::Decision) -> Action {
        // The cheating oracle (issue #4): it searches the full state by name.
        let state = d.oracle_full_state();
        let acts = state.legal_actions();
        let roots = oracle_root_moves(state);
        if !roots.is_empty() {
            self.searcher.clear();
            self.searcher.stop_flag().store(false, Ordering::Relaxed);
            let mut limits = self.limits.clone();
            limits.searchmoves = roots;
            let game = crate::repetition::core_tail(state.position(), d.record());
            let r = self.searcher.search(state.position(), &game, &limits, &mut |_| {});
            if let Some(a) = r.best.and_then(|m| action_for_move(state, m)) {
                return a;
            }
        }
        if acts.contains(&Action::Answer(crate::variant::state::Answer::Refuse)) {
            return Action::Answer(crate::variant::state::Answer::Refuse);
        }
        acts[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    fn search(f: &str, limits: Limits) -> SearchResult {
        let pos = fen::parse(f).expect("fen");
        let mut s = Searcher::new(4);
        s.search(&pos, &[], &limits, &mut |_| {})
    }

    fn mv(s: &str) -> Move {
        let (a, b) = crate::notation::iccs::parse_squares(s).expect("squares");
        Move::new(a, b)
    }

    /// Exhaustive check: does the side to move force mate within `n` of its own moves?
    fn forces_mate(pos: &mut Position, n: u32) -> bool {
        if n == 0 {
            return false;
        }
        for m in pos.legal_moves().iter().copied() {
            let u = pos.play(m);
            let ok = all_replies_mated(pos, n - 1);
            pos.unplay(m, u);
            if ok {
                return true;
            }
        }
        false
    }

    /// Exhaustive check: is the side to move mated now, or mated within `n` more moves of the
    /// opponent whatever it replies?
    fn all_replies_mated(pos: &mut Position, n: u32) -> bool {
        let replies = pos.legal_moves();
        if replies.is_empty() {
            return true;
        }
        if n == 0 {
            return false;
        }
        for r in replies.iter().copied() {
            let u = pos.play(r);
            let ok = forces_mate(pos, n);
            pos.unplay(r, u);
            if !ok {
                return false;
            }
        }
        true
    }

    const MATE_IN_1: &str = "3k5/1R7/R8/9/9/9/9/9/9/4K4 w - - 0 1";
    const MATE_IN_2: &str = "4k4/9/R8/1R7/9/9/9/9/9/3K5 w - - 0 1";

    #[test]
    fn mate_in_one() {
        let r = search(MATE_IN_1, Limits::depth(3));
        assert_eq!(r.score, Score::Mate(1));
        let mut pos = fen::parse(MATE_IN_1).expect("fen");
        let best = r.best.expect("a move");
        pos.play(best);
        assert!(pos.legal_moves().is_empty() && pos.in_check(), "{best} mates");
    }

    #[test]
    fn mate_in_two() {
        let mut pos = fen::parse(MATE_IN_2).expect("fen");
        assert!(!forces_mate(&mut pos, 1), "not a mate in 1");
        assert!(forces_mate(&mut pos, 2), "a forced mate in 2");
        let r = search(MATE_IN_2, Limits::depth(5));
        assert_eq!(r.score, Score::Mate(2), "pv {:?}", r.pv);
        let best = r.best.expect("a move");
        let u = pos.play(best);
        assert!(all_replies_mated(&mut pos, 1), "{best} forces mate next move");
        pos.unplay(best, u);
    }

    #[test]
    fn mated_side_reports_negative_mate() {
        // Black to move after a mate-in-2 first move: every reply is mated next move.
        let mut pos = fen::parse(MATE_IN_2).expect("fen");
        let r = search(MATE_IN_2, Limits::depth(5));
        pos.play(r.best.expect("move"));
        let mut s = Searcher::new(1);
        let r2 = s.search(&pos, &[], &Limits::depth(4), &mut |_| {});
        assert_eq!(r2.score, Score::Mate(-1));
    }

    #[test]
    fn no_legal_move_is_mate_zero() {
        let mut pos = fen::parse(MATE_IN_1).expect("fen");
        let r = search(MATE_IN_1, Limits::depth(2));
        pos.play(r.best.expect("move"));
        let mut s = Searcher::new(1);
        let r2 = s.search(&pos, &[], &Limits::depth(3), &mut |_| {});
        assert_eq!(r2.best, None);
        assert_eq!(r2.score, Score::Mate(0));
    }

    #[test]
    fn prefers_winning_a_chariot() {
        // The red chariot can take an undefended black horse on f4 or chariot on b8.
        let f = "4k4/1r7/9/9/9/1R3n3/9/9/9/3K5 w - - 0 1";
        for d in 1..=4 {
            let r = search(f, Limits::depth(d));
            assert_eq!(r.best, Some(mv("b4b8")), "depth {d}: {:?}", r.pv);
        }
    }

    #[test]
    fn start_position_search_is_sane_and_deterministic() {
        let mut infos = Vec::new();
        let pos = Position::start();
        let mut s = Searcher::new(4);
        let r = s.search(&pos, &[], &Limits::depth(4), &mut |i| infos.push(i.clone()));
        assert_eq!(infos.len(), 4);
        assert!(infos.windows(2).all(|w| w[0].depth + 1 == w[1].depth));
        let best = r.best.expect("a move");
        assert!(pos.is_legal(best));
        assert!(matches!(r.score, Score::Cp(c) if c.abs() < 200), "{:?}", r.score);
        let mut s2 = Searcher::new(4);
        let r2 = s2.search(&pos, &[], &Limits::depth(4), &mut |_| {});
        assert_eq!((r.best, r.raw_score, r.nodes), (r2.best, r2.raw_score, r2.nodes));
    }

    #[test]
    fn respects_node_budget() {
        for budget in [1u64, 10, 100, 1_000, 5_000, 20_000] {
            let r = search(fen::START, Limits::nodes(budget));
            assert!(r.nodes <= budget, "{} nodes > {budget}", r.nodes);
            let best = r.best.expect("a move even on a tiny budget");
            assert!(Position::start().is_legal(best));
        }
    }

    #[test]
    fn stop_flag_ends_search() {
        let pos = Position::start();
        let mut s = Searcher::new(4);
        s.stop_flag().store(true, Ordering::Relaxed);
        let r = s.search(&pos, &[], &Limits::default(), &mut |_| {});
        assert!(r.nodes <= CHECK_EVERY);
        assert!(pos.is_legal(r.best.expect("a move")));
    }

    #[test]
    fn never_returns_an_illegal_move() {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        let mut s = Searcher::new(2);
        for game in 0..12 {
            let mut pos = Position::start();
            let mut hist = Vec::new();
            for ply in 0..160 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                if ply % 7 == game % 7 {
                    let limits = if ply % 2 == 0 { Limits::depth(3) } else { Limits::nodes(3_000) };
                    let r = s.search(&pos, &hist, &limits, &mut |_| {});
                    let best = r.best.expect("a move when moves exist");
                    assert!(legal.contains(&best), "illegal {best} in {}", fen::write(&pos));
                    // The PV is a legal line.
                    let mut p = pos.clone();
                    for &m in &r.pv {
                        assert!(p.is_legal(m), "pv move {m} illegal in {}", fen::write(&p));
                        p.play(m);
                    }
                }
                let m = legal[rng.random_range(0..legal.len())];
                let mover = pos.turn();
                let quiet = pos.piece_at(m.to).is_none().then_some(m);
                pos.play(m);
                hist.push(RecordPly { hash: pos.hash(), mover, gave_check: pos.in_check(), board: true, quiet });
            }
        }
    }

    #[test]
    fn repetition_scores_as_draw() {
        // Red is a chariot up; a1a2 would repeat the position of the game's history, so it
        // scores as a draw, while without that history it scores the material.
        let pos = fen::parse("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 4 1").expect("fen");
        let m = mv("a1a2");
        let mut child = pos.clone();
        child.play(m);
        let limits = Limits { depth: Some(3), searchmoves: vec![m], ..Limits::default() };
        let mut s = Searcher::new(1);
        let fresh = s.search(&pos, &[], &limits, &mut |_| {});
        assert!(matches!(fresh.score, Score::Cp(c) if c > 500) || matches!(fresh.score, Score::Mate(n) if n > 0), "{:?}", fresh.score);
        s.clear();
        let repeated = s.search(&pos, &[RecordPly::occurrence(child.hash(), Color::Red), RecordPly::occurrence(pos.hash(), Color::Black)], &limits, &mut |_| {});
        assert_eq!(repeated.score, Score::Cp(0));
        // Any other move keeps the advantage, so with all moves allowed it avoids the repetition.
        s.clear();
        let free = s.search(&pos, &[RecordPly::occurrence(child.hash(), Color::Red), RecordPly::occurrence(pos.hash(), Color::Black)], &Limits::depth(3), &mut |_| {});
        assert_ne!(free.best, Some(m));
        assert!(matches!(free.score, Score::Cp(c) if c > 500) || matches!(free.score, Score::Mate(n) if n > 0), "{:?}", free.score);
    }

    #[test]
    fn bot_plays_legal_actions_in_variants() {
        use crate::variant::Variant;
        for name in ["xiangqi", "jieqi", "fanqi-1", "surprise", "king"] {
            let v: &'static Variant = Box::leak(Box::new(Variant::preset(name).expect("preset")));
            let mut state = State::start(v, None).expect("start");
            let mut bot = AlphaBetaBot::from_params("depth=2").expect("params");
            let mut rng = Pcg64Mcg::seed_from_u64(3);
            for _ in 0..20 {
                if state.is_chance() {
                    let outs = state.chance_outcomes();
                    state.apply_chance(outs[rng.random_range(0..outs.len())].0);
                    continue;
                }
                let acts = state.legal_actions();
                if acts.is_empty() {
                    break;
                }
                let a = bot.choose(&crate::search::Decision::new(&state));
                assert!(acts.contains(&a), "{name}: {a:?} not legal");
                state.apply(a);
            }
        }
    }

    #[test]
    fn spec_parameters() {
        assert_eq!(AlphaBetaBot::from_params("").expect("ok").limits().depth, Some(4));
        let b = AlphaBetaBot::from_params("depth=3,nodes=500").expect("ok");
        assert_eq!((b.limits().depth, b.limits().nodes), (Some(3), Some(500)));
        assert!(AlphaBetaBot::from_params("depth=x").is_err());
        assert!(AlphaBetaBot::from_params("width=3").is_err());
    }

    /// `cargo test -p anqi-engine --release bench_start_position -- --ignored --nocapture`:
    /// prints the iterations of a depth-7 search of the start position (speed check).
    #[test]
    #[ignore]
    fn bench_start_position() {
        let mut s = Searcher::new(64);
        let r = s.search(&Position::start(), &[], &Limits::depth(7), &mut |i| {
            let pv: Vec<String> = i.pv.iter().map(|m| m.iccs()).collect();
            println!("depth {} seldepth {} score {} nodes {} nps {} time {} pv {}", i.depth, i.seldepth, i.score, i.nodes, i.nps, i.time_ms, pv.join(" "));
        });
        println!("best {:?} nodes {} ms {}", r.best, r.nodes, r.time_ms);
    }
}
