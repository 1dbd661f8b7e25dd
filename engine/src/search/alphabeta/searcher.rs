//! The one alpha-beta searcher, generic over the [`SearchPosition`]: iterative deepening, PVS
//! with late-move reductions, quiescence, transposition table, killers and history, and the
//! position's own rule hooks (repetition by [`crate::repetition`] on the core).

use super::order::Picker;
use super::position::{CorePosition, SearchPosition, HISTORY_PER_SIDE};
use super::tt::*;
use super::{Limits, Score, SearchInfo, SearchResult, Techniques, DEFAULT_HASH_MB, INF, MATE, MATE_BOUND, MAX_DEPTH, MAX_PLY};
use crate::position::Position;
use crate::repetition::RecordPly;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Nodes between two looks at the clock and the stop flag.
pub(super) const CHECK_EVERY: u64 = 1024;

/// The alpha-beta searcher of the variants' core position ([`CorePosition`]).
pub type Searcher = AlphaBeta<CorePosition>;

/// The alpha-beta searcher over positions `P`. Owns its transposition table, killer and history
/// tables; reuse one searcher across the moves of a game to keep the table warm, or call
/// [`AlphaBeta::clear`].
pub struct AlphaBeta<P: SearchPosition> {
    tt: Vec<TtEntry<P::Packed>>,
    age: u8,
    killers: Vec<[P::Move; 2]>,
    history: Vec<i32>,
    pv: Vec<[P::Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// One move buffer per ply.
    pickers: Vec<Picker<P::Move>>,
    stop: Arc<AtomicBool>,
    // Per-search state.
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    start: Instant,
    limits: Limits,
    iter_depth: i32,
    root_best: Option<P::Move>,
    /// Whether the move into each ply was a null move (no two passes in a row).
    null_at: [bool; MAX_PLY + 1],
    /// Late-move reductions by depth and move index, in plies ([`lmr_table`]).
    lmr: Box<[[u8; 64]; 64]>,
    /// The quiet moves searched so far at each ply (the history malus of a cut-off).
    quiets: Vec<Vec<P::Move>>,
    /// The move that led to each ply ([`SearchPosition::NULL_MOVE`] at the root and after a
    /// null move): the key of the counter-move table.
    prev_move: Vec<P::Move>,
    /// The quiet move that last refuted each move, by the refuting side and the refuted move's
    /// history slot (`Techniques::COUNTER_MOVE`).
    counter: Vec<P::Move>,
    /// The static evaluation at each ply of the path (`-INF` in check or unknown).
    evals: Vec<i32>,
}

/// Late-move reductions in plies by remaining depth and move index (both capped at 63):
/// `0.75 + ln(depth) ln(index) / 2.25`, the shape of Stockfish's and Pikafish's tables.
fn lmr_table() -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.75 + (d as f64).ln() * (i as f64).ln() / 2.25).max(0.0) as u8;
        }
    }
    t
}

/// Margin of reverse futility pruning per ply of remaining depth, in centipawns.
const RFP_MARGIN: i32 = 110;
/// Margin of futility pruning: base and per ply, in centipawns.
const FUTILITY_BASE: i32 = 90;
const FUTILITY_PER_PLY: i32 = 110;
/// Aspiration window's first half-width, in centipawns.
const ASPIRATION_DELTA: i32 = 30;

impl<P: SearchPosition> Default for AlphaBeta<P> {
    fn default() -> Self {
        AlphaBeta::new(DEFAULT_HASH_MB)
    }
}

impl AlphaBeta<CorePosition> {
    /// Searches the core position `pos` within `limits` (root moves restricted to
    /// `limits.searchmoves` when it is not empty).
    ///
    /// `game` is the game's record up to `pos`, oldest first: one [`RecordPly`] per ply with the
    /// [`Position::hash`] after it; the last entry is the ply that led to `pos` (when its hash is
    /// not `pos`'s, or `game` is empty, `pos` is appended as a ply about which nothing more is
    /// known). The first entry may stand for the start position ([`RecordPly::occurrence`]). A
    /// position of the search that repeats one of the record or of the search path is judged by
    /// [`crate::repetition::verdict`]: a draw, or a loss for the side that checked or chased
    /// perpetually. `on_info` is called after each completed iteration.
    pub fn search(&mut self, pos: &Position, game: &[RecordPly], limits: &Limits, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        self.search_position(CorePosition::new(pos, game).with_eval(limits.eval.as_ref()), &limits.searchmoves, limits, on_info)
    }

    /// [`AlphaBeta::search`] valuing the pieces of `hidden` by its values instead of their core
    /// types ([`super::HiddenValues`]: an honest search of a hidden variant).
    pub fn search_hidden(&mut self, pos: &Position, game: &[RecordPly], hidden: Option<super::HiddenValues>, limits: &Limits, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        self.search_position(CorePosition::with_hidden(pos, game, hidden).with_eval(limits.eval.as_ref()), &limits.searchmoves, limits, on_info)
    }
}

impl<P: SearchPosition> AlphaBeta<P> {
    /// A searcher with a transposition table of about `hash_mb` MiB (at least 1).
    pub fn new(hash_mb: usize) -> AlphaBeta<P> {
        let none = P::NULL_MOVE;
        let mut s = AlphaBeta {
            tt: Vec::new(),
            age: 0,
            killers: vec![[none; 2]; MAX_PLY],
            history: vec![0; 2 * HISTORY_PER_SIDE],
            pv: vec![[none; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            pickers: (0..MAX_PLY).map(|_| Picker::default()).collect(),
            stop: Arc::new(AtomicBool::new(false)),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            start: Instant::now(),
            limits: Limits::default(),
            iter_depth: 0,
            root_best: None,
            null_at: [false; MAX_PLY + 1],
            lmr: lmr_table(),
            quiets: (0..MAX_PLY).map(|_| Vec::new()).collect(),
            prev_move: vec![none; MAX_PLY + 1],
            counter: vec![none; 2 * HISTORY_PER_SIDE],
            evals: vec![-INF; MAX_PLY + 1],
        };
        s.resize(hash_mb);
        s
    }

    /// Resizes the transposition table to about `hash_mb` MiB (a power of two of entries),
    /// clearing it.
    pub fn resize(&mut self, hash_mb: usize) {
        let bytes = hash_mb.max(1).saturating_mul(1 << 20);
        let want = (bytes / std::mem::size_of::<TtEntry<P::Packed>>()).max(1024);
        let entries = if want.is_power_of_two() { want } else { want.next_power_of_two() / 2 };
        self.tt = vec![empty_entry(P::NO_PACKED); entries];
    }

    /// [`AlphaBeta::resize`] that fails instead of aborting when the memory cannot be had: on
    /// failure the table is left as it was.
    ///
    /// # Errors
    /// The allocation of the new table failed.
    pub fn try_resize(&mut self, hash_mb: usize) -> Result<(), std::collections::TryReserveError> {
        let bytes = hash_mb.max(1).saturating_mul(1 << 20);
        let want = (bytes / std::mem::size_of::<TtEntry<P::Packed>>()).max(1024);
        let entries = if want.is_power_of_two() { want } else { want.next_power_of_two() / 2 };
        let mut tt = Vec::new();
        tt.try_reserve_exact(entries)?;
        tt.resize(entries, empty_entry(P::NO_PACKED));
        self.tt = tt;
        Ok(())
    }

    /// Number of transposition-table entries.
    pub fn tt_entries(&self) -> usize {
        self.tt.len()
    }

    /// Forgets everything learned: transposition table, killers, history.
    pub fn clear(&mut self) {
        self.tt.fill(empty_entry(P::NO_PACKED));
        self.history.fill(0);
        self.killers.fill([P::NULL_MOVE; 2]);
        self.counter.fill(P::NULL_MOVE);
        self.age = 0;
    }

    /// The stop flag this searcher polls (every 1024 nodes). Raising it ends the current search,
    /// which then returns the best move of the last completed iteration. The flag is *not*
    /// lowered by a search; lower it before starting another search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Replaces the stop flag (e.g. with one shared with a UCI reader thread).
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// Searches `pos` within `limits` (`limits.searchmoves` is not read: the root moves are
    /// restricted to `searchmoves` when it is not empty). `on_info` is called after each
    /// completed iteration.
    pub fn search_position(&mut self, mut pos: P, searchmoves: &[P::Move], limits: &Limits, on_info: &mut dyn FnMut(&SearchInfo<P::Move>)) -> SearchResult<P::Move> {
        self.start = Instant::now();
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.limits = limits.clone();
        self.root_best = None;
        self.prev_move[0] = P::NULL_MOVE;
        self.evals[0] = -INF;
        self.age = self.age.wrapping_add(1);
        for h in self.history.iter_mut() {
            *h /= 4;
        }

        let mut root_moves = Vec::new();
        pos.legal_moves(&mut root_moves);
        if !searchmoves.is_empty() {
            root_moves.retain(|m| searchmoves.contains(m));
        }
        let mut result = SearchResult { best: root_moves.first().copied(), score: Score::Cp(0), raw_score: 0, depth: 0, nodes: 0, time_ms: 0, pv: Vec::new() };
        if root_moves.is_empty() {
            let raw = if searchmoves.is_empty() { -MATE } else { 0 };
            result.score = Score::from_internal(raw);
            result.raw_score = raw;
            return result;
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let aspiration = !limits.off.has(Techniques::ASPIRATION);
        for depth in 1..=max_depth {
            self.iter_depth = depth as i32;
            // Aspiration windows: from depth 4 search a narrow window around the last score and
            // widen it (doubling) on the side that failed.
            let (mut alpha, mut beta, mut delta) = if aspiration && depth >= 4 && result.raw_score.abs() < MATE_BOUND {
                (result.raw_score - ASPIRATION_DELTA, result.raw_score + ASPIRATION_DELTA, ASPIRATION_DELTA)
            } else {
                (-INF, INF, INF)
            };
            let score = loop {
                let s = self.root(&mut pos, &root_moves, depth as i32, alpha, beta);
                if self.stopped {
                    break s;
                }
                if s <= alpha && alpha > -INF {
                    delta = delta.saturating_mul(2);
                    alpha = if delta > 800 { -INF } else { (s - delta).max(-INF) };
                } else if s >= beta && beta < INF {
                    delta = delta.saturating_mul(2);
                    beta = if delta > 800 { INF } else { (s + delta).min(INF) };
                } else {
                    break s;
                }
            };
            if self.stopped {
                // An interrupted iteration is discarded, except at depth 1 where it is all we have.
                if result.depth == 0 {
                    if let Some(m) = self.root_best {
                        result.best = Some(m);
                    }
                }
                break;
            }
            let pv: Vec<P::Move> = self.pv[0][..self.pv_len[0]].to_vec();
            result.best = pv.first().copied().or(result.best);
            result.score = Score::from_internal(score);
            result.raw_score = score;
            result.depth = depth;
            result.pv = pv.clone();
            let ms = self.start.elapsed().as_millis() as u64;
            let info = SearchInfo { depth, seldepth: self.seldepth as u32, score: result.score, raw_score: score, nodes: self.nodes, nps: self.nodes * 1000 / ms.max(1), time_ms: ms, pv };
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

    fn tt_probe(&self, key: u64) -> Option<TtEntry<P::Packed>> {
        let e = self.tt[self.tt_index(key)];
        (e.key == key && e.bound != 0).then_some(e)
    }

    #[inline]
    fn unpack(p: P::Packed) -> Option<P::Move> {
        (p != P::NO_PACKED).then(|| P::unpack(p))
    }

    fn tt_store(&mut self, key: u64, depth: i32, score: i32, bound: u8, mv: Option<P::Move>, ply: usize) {
        let i = self.tt_index(key);
        let old = self.tt[i];
        if old.key == key || old.age != self.age || depth >= old.depth as i32 - 1 {
            let mv = match mv {
                Some(m) => P::pack(m),
                None if old.key == key => old.mv,
                None => P::NO_PACKED,
            };
            self.tt[i] = TtEntry { key, score: to_tt(score, ply) as i16, mv, depth: depth.clamp(-1, 127) as i8, bound, age: self.age };
        }
    }

    #[inline]
    fn history_slot(side: usize, m: P::Move) -> usize {
        side * HISTORY_PER_SIDE + P::history_index(m)
    }

    /// Scores moves for ordering (higher first).
    fn score_moves(&self, pos: &P, picker: &mut Picker<P::Move>, tt_move: Option<P::Move>, ply: usize) {
        let us = pos.side();
        let counter = self.counter_move(us, ply);
        picker.scores.clear();
        for &m in &picker.moves {
            picker.scores.push(if Some(m) == tt_move {
                10_000_000
            } else if let Some(c) = pos.capture_order(m) {
                1_000_000 + c
            } else if self.killers[ply][0] == m {
                900_000
            } else if self.killers[ply][1] == m {
                800_000
            } else if counter == Some(m) {
                750_000
            } else {
                self.history[Self::history_slot(us, m)].min(700_000)
            });
        }
    }

    /// The counter move of the move that led to `ply`, for side `us` (none at the root, after a
    /// null move, or with `Techniques::COUNTER_MOVE` off).
    #[inline]
    fn counter_move(&self, us: usize, ply: usize) -> Option<P::Move> {
        let prev = self.prev_move[ply];
        if prev == P::NULL_MOVE || self.limits.off.has(Techniques::COUNTER_MOVE) {
            return None;
        }
        let m = self.counter[Self::history_slot(us, prev)];
        (m != P::NULL_MOVE).then_some(m)
    }

    fn update_pv(&mut self, ply: usize, m: P::Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for k in ply + 1..child_len {
            self.pv[ply][k] = self.pv[ply + 1][k];
        }
        self.pv_len[ply] = child_len;
    }

    fn root(&mut self, pos: &mut P, root_moves: &[P::Move], depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let ply = 0;
        self.pv_len[0] = 0;
        self.null_at[0] = false;
        let orig_alpha = alpha;
        let key = pos.hash();
        let tt_move = self.tt_probe(key).and_then(|e| Self::unpack(e.mv));
        // Keep the previous iteration's best move first.
        let prefer = self.root_best.or(tt_move);
        let mut moves = std::mem::take(&mut self.pickers[0]);
        moves.moves.clear();
        moves.moves.extend_from_slice(root_moves);
        self.score_moves(pos, &mut moves, prefer, ply);
        let mut best = -INF;
        let mut best_move = None;
        for i in 0..moves.len() {
            let m = moves.pick(i);
            let Some(score) = self.child(pos, m, depth, alpha, beta, ply, i, false, false, true) else { continue };
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha || self.root_best.is_none() {
                    self.root_best = Some(m);
                }
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.pickers[0] = moves;
        if !self.stopped {
            if let Some(m) = best_move {
                self.tt_store(key, depth, best, bound_of(best, orig_alpha, beta), Some(m), ply);
            }
        }
        best
    }

    /// Plays `m` and searches the child with PVS (and LMR for late quiet moves); returns the
    /// score from the mover's point of view, or `None` when `prune_quiet` is set and `m` turned
    /// out quiet (neither a capture nor a check): futility and late-move pruning skip it.
    #[allow(clippy::too_many_arguments)]
    fn child(&mut self, pos: &mut P, m: P::Move, depth: i32, alpha: i32, beta: i32, ply: usize, index: usize, in_check: bool, prune_quiet: bool, pv_node: bool) -> Option<i32> {
        let capture = pos.is_capture(m);
        let mover = pos.side();
        let undo = pos.make(m);
        let gives_check = pos.in_check();
        if prune_quiet && !capture && !gives_check {
            pos.unmake(m, undo);
            return None;
        }
        pos.push_path(m, capture, gives_check);
        self.null_at[ply + 1] = false;
        self.prev_move[ply + 1] = m;
        let ext = i32::from(gives_check && (ply as i32) < 2 * self.iter_depth + 4);
        let new_depth = depth - 1 + ext;
        let score = if !P::ALTERNATES && pos.side() == mover {
            // The same side moves again (a set-up phase): no negation, the full window.
            self.negamax(pos, new_depth, alpha, beta, ply + 1, gives_check)
        } else if index == 0 {
            -self.negamax(pos, new_depth, -beta, -alpha, ply + 1, gives_check)
        } else {
            let quiet = !capture && !gives_check && !in_check;
            let killer = self.killers[ply].contains(&m);
            let r = if self.limits.off.has(Techniques::LMR_LOG) {
                if quiet && !killer && depth >= 3 && index >= 3 { 1 + i32::from(depth >= 6 && index >= 10) } else { 0 }
            } else if quiet && depth >= 3 && index >= 2 {
                let mut r = self.lmr[(depth as usize).min(63)][index.min(63)] as i32;
                r -= i32::from(pv_node) + i32::from(killer);
                // One ply more where the position is not improving (Stockfish's `improving`).
                r += i32::from(!pv_node && !self.improving(ply));
                r.clamp(0, new_depth - 1)
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
        pos.pop_path();
        pos.unmake(m, undo);
        Some(score)
    }

    fn negamax(&mut self, pos: &mut P, depth: i32, mut alpha: i32, mut beta: i32, ply: usize, in_check: bool) -> i32 {
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.pv_len[ply] = ply;
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        // Repetitions along the path (§X6 on the core), the game's own end elsewhere.
        if let Some(score) = pos.rule_score(ply) {
            return score;
        }
        if ply >= MAX_PLY - 2 {
            return pos.evaluate();
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
            tt_move = Self::unpack(e.mv);
            if !pv_node && e.depth as i32 >= depth {
                if let Some(s) = cutoff(&e, ply, alpha, beta) {
                    return s;
                }
            }
        }
        let off = self.limits.off;
        let mut depth = depth;
        // The static evaluation drives the pruning below; none in check.
        let static_eval = if in_check { -INF } else { pos.evaluate() };
        self.evals[ply] = static_eval;
        let improving = self.improving(ply);
        let no_mate_window = beta.abs() < MATE_BOUND && alpha.abs() < MATE_BOUND;
        if !pv_node && !in_check && no_mate_window {
            // Reverse futility pruning: far above beta at low depth, the opponent's best reply
            // is not expected to bring the score back (one ply less of margin when improving).
            let rfp_plies = depth - i32::from(improving && !off.has(Techniques::IMPROVING));
            if !off.has(Techniques::REVERSE_FUTILITY) && depth <= 6 && static_eval - RFP_MARGIN * rfp_plies >= beta {
                return static_eval;
            }
            // Null-move pruning: if passing still fails high on a reduced search, a move will.
            if !off.has(Techniques::NULL_MOVE) && depth >= 3 && static_eval >= beta && !self.null_at[ply] {
                if let Some(undo) = pos.make_null() {
                    self.null_at[ply + 1] = true;
                    self.prev_move[ply + 1] = P::NULL_MOVE;
                    let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(2);
                    let s = -self.negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                    self.null_at[ply + 1] = false;
                    pos.unmake_null(undo);
                    if self.stopped {
                        return 0;
                    }
                    if s >= beta {
                        return if s >= MATE_BOUND { beta } else { s };
                    }
                }
            }
        }
        // Internal iterative reduction: without a table move this node was not searched
        // before, and the ordering is poor; search it one ply shallower.
        if !off.has(Techniques::IIR) && depth >= 4 && tt_move.is_none() {
            depth -= 1;
        }
        let mut moves = std::mem::take(&mut self.pickers[ply]);
        pos.legal_moves(&mut moves.moves);
        if moves.moves.is_empty() {
            self.pickers[ply] = moves;
            // §X4: checkmate and stalemate both lose.
            return -MATE + ply as i32;
        }
        self.score_moves(pos, &mut moves, tt_move, ply);
        // Futility and late-move pruning of quiet moves at low depth: a quiet move cannot lift
        // a static evaluation this far below alpha, and late quiet moves rarely matter.
        let futile = !pv_node && !in_check && no_mate_window && !off.has(Techniques::FUTILITY) && depth <= 3 && static_eval + FUTILITY_BASE + FUTILITY_PER_PLY * depth <= alpha;
        let late_quiet = if !pv_node && !in_check && !off.has(Techniques::FUTILITY) && depth <= 3 {
            let n = (4 + 3 * depth * depth) as usize;
            if improving || off.has(Techniques::IMPROVING) { n } else { n * 2 / 3 }
        } else {
            usize::MAX
        };
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let us = pos.side();
        let mut quiets = std::mem::take(&mut self.quiets[ply]);
        quiets.clear();
        for i in 0..moves.len() {
            let m = moves.pick(i);
            let capture = pos.is_capture(m);
            let prune_quiet = i > 0 && best > -MATE_BOUND && (futile || i >= late_quiet) && !capture && !self.killers[ply].contains(&m);
            let Some(score) = self.child(pos, m, depth, alpha, beta, ply, i, in_check, prune_quiet, pv_node) else { continue };
            if self.stopped {
                self.pickers[ply] = moves;
                self.quiets[ply] = quiets;
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
                            let bonus = depth * depth;
                            let prev = self.prev_move[ply];
                            if prev != P::NULL_MOVE {
                                self.counter[Self::history_slot(us, prev)] = m;
                            }
                            let slot = Self::history_slot(us, m);
                            self.history[slot] = (self.history[slot] + bonus).min(600_000);
                            // The quiet moves tried before the cut-off move lose what it gains.
                            if !self.limits.off.has(Techniques::HISTORY_MALUS) {
                                for &q in &quiets {
                                    let slot = Self::history_slot(us, q);
                                    self.history[slot] = (self.history[slot] - bonus).max(-600_000);
                                }
                            }
                        }
                        break;
                    }
                }
            }
            if !capture {
                quiets.push(m);
            }
        }
        self.quiets[ply] = quiets;
        self.pickers[ply] = moves;
        self.tt_store(key, depth, best, bound_of(best, orig_alpha, beta), best_move, ply);
        best
    }

    /// Whether the static evaluation at `ply` is above that of two plies before (true where
    /// either is unknown: in check, or near the root), with `Techniques::IMPROVING` on.
    #[inline]
    fn improving(&self, ply: usize) -> bool {
        if self.limits.off.has(Techniques::IMPROVING) || ply < 2 {
            return true;
        }
        let (now, before) = (self.evals[ply], self.evals[ply - 2]);
        now == -INF || before == -INF || now > before
    }

    fn qsearch(&mut self, pos: &mut P, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if let Some(score) = pos.terminal_score(ply) {
            return score;
        }
        if ply >= MAX_PLY - 2 {
            return pos.evaluate();
        }
        let use_tt = !self.limits.off.has(Techniques::QSEARCH_TT);
        let key = pos.hash();
        let mut tt_move = None;
        if use_tt {
            if let Some(e) = self.tt_probe(key) {
                tt_move = Self::unpack(e.mv);
                if beta - alpha == 1 {
                    if let Some(s) = cutoff(&e, ply, alpha, beta) {
                        return s;
                    }
                }
            }
        }
        let orig_alpha = alpha;
        let mut best_move = None;
        let in_check = pos.in_check();
        let mut picker = std::mem::take(&mut self.pickers[ply]);
        let mut best;
        if in_check {
            pos.legal_moves(&mut picker.moves);
            if picker.moves.is_empty() {
                self.pickers[ply] = picker;
                return -MATE + ply as i32;
            }
            best = -INF;
        } else {
            let stand = pos.evaluate();
            if stand >= beta {
                self.pickers[ply] = picker;
                return stand;
            }
            if stand > alpha {
                alpha = stand;
            }
            best = stand;
            // Delta pruning: a capture that cannot lift the score near alpha is skipped.
            pos.captures(alpha - stand - 200, &mut picker.moves);
        }
        // The table's move is ordered first only where it is among the moves generated here.
        self.score_moves(pos, &mut picker, tt_move, ply.min(MAX_PLY - 1));
        for i in 0..picker.len() {
            let m = picker.pick(i);
            let mover = pos.side();
            let undo = pos.make(m);
            let score = if !P::ALTERNATES && pos.side() == mover { self.qsearch(pos, alpha, beta, ply + 1) } else { -self.qsearch(pos, -beta, -alpha, ply + 1) };
            pos.unmake(m, undo);
            if self.stopped {
                self.pickers[ply] = picker;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.pickers[ply] = picker;
        // Written with depth 0, never over a deeper entry of the same position.
        if use_tt && best > -INF && self.tt_probe(key).is_none_or(|e| e.depth <= 0) {
            self.tt_store(key, 0, best, bound_of(best, orig_alpha, beta), best_move, ply);
        }
        best
    }
}
