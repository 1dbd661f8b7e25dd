//! The searcher: iterative deepening, PVS with late-move reductions, quiescence, transposition
//! table, killers and history, repetition by the rule code of [`crate::repetition`].

use super::order::Picker;
use super::pst::{capture_gain, evaluate, piece_value};
use super::tt::*;
use super::{Limits, Score, SearchInfo, SearchResult, INF, MATE, MATE_BOUND, MAX_DEPTH, MAX_PLY, DEFAULT_HASH_MB};
use crate::moves::{Move, MoveList};
use crate::piece::Color;
use crate::position::Position;
use crate::repetition::RecordPly;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;


/// Nodes between two looks at the clock and the stop flag.
pub(super) const CHECK_EVERY: u64 = 1024;

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
