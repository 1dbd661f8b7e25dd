//! What the one alpha-beta ([`super::AlphaBeta`]) needs of a position: the [`SearchPosition`]
//! trait, and its implementation on the core position of the variants ([`CorePosition`]: the
//! [`Position`] with the game's record and the search path, judged by [`crate::repetition`]).

use super::pst::{capture_gain, evaluate, piece_value};
use super::MATE;
use crate::moves::{Move, MoveList};
use crate::position::{Position, Undo};
use crate::repetition::RecordPly;

/// Slots of the history table per side: [`SearchPosition::history_index`] is below it.
pub const HISTORY_PER_SIDE: usize = 128 * 128;

/// A position the one alpha-beta searches, with make/unmake (or copy-make) of moves. Scores are
/// centipawns (or `±(MATE - plies)`, [`super::MATE`]) from the side to move's point of view.
pub trait SearchPosition: Clone {
    /// A move.
    type Move: Copy + Eq + std::fmt::Debug;
    /// What [`SearchPosition::unmake`] needs to take a move back.
    type Undo;
    /// A move as stored in the transposition table.
    type Packed: Copy + Eq;
    /// The packed "no move".
    const NO_PACKED: Self::Packed;
    /// A move that is never legal (fills the killer and PV tables).
    const NULL_MOVE: Self::Move;
    /// Whether the side to move changes with every move. When false, the searcher compares
    /// [`SearchPosition::side`] before and after each move (set-up phases in which one player
    /// places several pieces in a row).
    const ALTERNATES: bool;

    /// Key of the position in the transposition table.
    fn hash(&self) -> u64;
    /// The side to move, 0 or 1 (indexes the history table).
    fn side(&self) -> usize;
    /// The legal moves into `out` (cleared first).
    fn legal_moves(&mut self, out: &mut Vec<Self::Move>);
    /// The legal captures that quiescence searches into `out` (cleared first): those whose
    /// material gain is at least `margin` centipawns (delta pruning). Not called in check.
    fn captures(&mut self, margin: i32, out: &mut Vec<Self::Move>);
    /// Whether `m` captures.
    fn is_capture(&self, m: Self::Move) -> bool;
    /// The MVV-LVA ordering value of `m` when it captures (higher first), `None` otherwise.
    fn capture_order(&self, m: Self::Move) -> Option<i32>;
    /// Plays `m` (legal).
    fn make(&mut self, m: Self::Move) -> Self::Undo;
    /// Takes back `m`, played by [`SearchPosition::make`] with `undo`.
    fn unmake(&mut self, m: Self::Move, undo: Self::Undo);
    /// After [`SearchPosition::make`] in the main search (not quiescence): records the ply on the
    /// search path that [`SearchPosition::rule_score`] reads.
    fn push_path(&mut self, m: Self::Move, capture: bool, gave_check: bool);
    /// Before [`SearchPosition::unmake`]: forgets the ply recorded by [`SearchPosition::push_path`].
    fn pop_path(&mut self);
    /// Whether the side to move is in check (check extension, evasions in quiescence).
    fn in_check(&self) -> bool;
    /// Static evaluation for the side to move, in centipawns (below [`super::MATE_BOUND`]).
    fn evaluate(&self) -> i32;
    /// The history-table slot of `m` for its mover, below [`HISTORY_PER_SIDE`].
    fn history_index(m: Self::Move) -> usize;
    /// `m` for the transposition table.
    fn pack(m: Self::Move) -> Self::Packed;
    /// The move of a packed one (not [`SearchPosition::NO_PACKED`]).
    fn unpack(p: Self::Packed) -> Self::Move;
    /// At a node of the main search: the score for the side to move at `ply` when a rule ends the
    /// game here (a repetition of the path, a move-count draw, the game's own end), else `None`.
    fn rule_score(&self, ply: usize) -> Option<i32>;
    /// At a quiescence node: the score when the game has ended here by its own rules (not by
    /// repetition), else `None`. Positions that end only by having no legal move return `None`.
    fn terminal_score(&self, ply: usize) -> Option<i32>;
}

/// The core position of the variants as searched: the [`Position`] with the game's record and the
/// search path (one [`RecordPly`] per ply, the hash after it), so that repetitions, perpetual
/// checks and chases (§X6) and the no-capture rule are judged by [`crate::repetition`].
#[derive(Clone)]
pub struct CorePosition {
    pos: Position,
    path: Vec<RecordPly>,
}

impl CorePosition {
    /// `pos` after the game `game` (oldest first; the last entry is the ply that led to `pos`;
    /// when its hash is not `pos`'s, or `game` is empty, `pos` is appended as a ply about which
    /// nothing more is known).
    pub fn new(pos: &Position, game: &[RecordPly]) -> CorePosition {
        let mut path = Vec::with_capacity(game.len() + 256);
        path.extend_from_slice(game);
        if game.last().is_none_or(|p| p.hash != pos.hash()) {
            path.push(RecordPly::occurrence(pos.hash(), pos.turn().opponent()));
        }
        CorePosition { pos: pos.clone(), path }
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }
}

impl SearchPosition for CorePosition {
    type Move = Move;
    type Undo = Undo;
    type Packed = u16;
    const NO_PACKED: u16 = u16::MAX;
    const NULL_MOVE: Move = Move::new(crate::geometry::Square::new_unchecked(0), crate::geometry::Square::new_unchecked(0));
    const ALTERNATES: bool = true;

    #[inline]
    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    #[inline]
    fn side(&self) -> usize {
        self.pos.turn().index()
    }

    #[inline]
    fn legal_moves(&mut self, out: &mut Vec<Move>) {
        let l = self.pos.legal_moves();
        out.clear();
        out.extend_from_slice(l.as_slice());
    }

    #[inline]
    fn captures(&mut self, margin: i32, out: &mut Vec<Move>) {
        let pos = &self.pos;
        let mut moves = MoveList::new();
        pos.pseudo_legal_moves(&mut moves);
        let enemy = pos.by_color(pos.turn().opponent());
        moves.retain(|m| enemy.contains(m.to) && pos.piece_at(m.to).map(|p| capture_gain(pos, p.color, p.role, m.to) >= margin).unwrap_or(false));
        pos.retain_legal(&mut moves);
        out.clear();
        out.extend_from_slice(moves.as_slice());
    }

    #[inline]
    fn is_capture(&self, m: Move) -> bool {
        self.pos.piece_at(m.to).is_some()
    }

    #[inline]
    fn capture_order(&self, m: Move) -> Option<i32> {
        let victim = self.pos.piece_at(m.to)?;
        let attacker = self.pos.piece_at(m.from).map(|p| piece_value(p.role)).unwrap_or(0);
        Some(piece_value(victim.role) * 16 - attacker / 16)
    }

    #[inline]
    fn make(&mut self, m: Move) -> Undo {
        self.pos.play(m)
    }

    #[inline]
    fn unmake(&mut self, m: Move, undo: Undo) {
        self.pos.unplay(m, undo)
    }

    #[inline]
    fn push_path(&mut self, m: Move, capture: bool, gave_check: bool) {
        let mover = self.pos.turn().opponent();
        self.path.push(RecordPly { hash: self.pos.hash(), mover, gave_check, board: true, quiet: (!capture).then_some(m) });
    }

    #[inline]
    fn pop_path(&mut self) {
        self.path.pop();
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.pos.in_check()
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        evaluate(&self.pos)
    }

    #[inline]
    fn history_index(m: Move) -> usize {
        m.from.index() * 128 + m.to.index()
    }

    #[inline]
    fn pack(m: Move) -> u16 {
        (m.from.raw() as u16) << 8 | m.to.raw() as u16
    }

    #[inline]
    fn unpack(v: u16) -> Move {
        Move::new(crate::geometry::Square::new_unchecked((v >> 8) as u8), crate::geometry::Square::new_unchecked((v & 0xFF) as u8))
    }

    /// Repetitions along the path within the reversible window (§X6: 0 for a draw, a mate score
    /// when one side checked or chased perpetually in the cycle), then the no-capture rule.
    #[inline]
    fn rule_score(&self, ply: usize) -> Option<i32> {
        let pos = &self.pos;
        let end = &pos.rules().end;
        if let Some(o) = crate::repetition::in_search(end, pos, &self.path, pos.halfmove() as usize) {
            return Some(match o {
                crate::outcome::Outcome::Win { winner, .. } if winner == pos.turn() => MATE - ply as i32,
                crate::outcome::Outcome::Win { .. } => -MATE + ply as i32,
                crate::outcome::Outcome::Draw { .. } => 0,
            });
        }
        crate::repetition::no_capture_draw(end, pos.halfmove(), &self.path).then_some(0)
    }

    /// The core ends only by having no legal move (§X4) and by the rules of
    /// [`SearchPosition::rule_score`].
    #[inline]
    fn terminal_score(&self, _ply: usize) -> Option<i32> {
        None
    }
}
