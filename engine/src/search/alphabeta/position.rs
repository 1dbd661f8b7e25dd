//! What the one alpha-beta ([`super::AlphaBeta`]) needs of a position: the [`SearchPosition`]
//! trait, and its implementation on the core position of the variants ([`CorePosition`]: the
//! [`Position`] with the game's record and the search path, judged by [`crate::repetition`]).

use super::pst::{capture_gain, evaluate, material_value, piece_value};
use crate::bitboard::Bitboard;
use super::MATE;
use crate::moves::{Move, MoveList};
use crate::position::{Position, Undo};
use crate::repetition::RecordPly;

/// Subtracted from a losing capture's ordering value ([`SearchPosition::capture_order`]) so
/// that it comes after the killers and the quiet moves.
pub const LOSING_CAPTURE: i32 = 2_000_000;

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

    /// Null-move pruning (C. Donninger, "Null move and deep search", ICCA Journal 16(3), 1993):
    /// passes the turn for a reduced search when passing is a sound guess here (the side to
    /// move, not in check, keeps pieces beyond soldiers and the palace guard, so zugzwang is
    /// unlikely), recording the pass on the search path; `None` (the default) where the position
    /// has no such move. Undone by [`SearchPosition::unmake_null`].
    fn make_null(&mut self) -> Option<Self::Undo> {
        None
    }

    /// Takes back [`SearchPosition::make_null`] (called only after it returned `Some`).
    fn unmake_null(&mut self, undo: Self::Undo) {
        let _ = undo;
    }
}

/// The core position of the variants as searched: the [`Position`] with the game's record and the
/// search path (one [`RecordPly`] per ply, the hash after it), so that repetitions, perpetual
/// checks and chases (§X6) and the no-capture rule are judged by [`crate::repetition`].
#[derive(Clone)]
pub struct CorePosition {
    pos: Position,
    path: Vec<RecordPly>,
    hidden: Option<Box<HiddenValues>>,
    nnue: Option<Box<NnueStack>>,
}

/// The learned evaluation's state along the search path: one accumulator per ply, the last
/// that of the current position (pushed by make, popped by unmake).
#[derive(Clone)]
struct NnueStack {
    net: std::sync::Arc<crate::nnue::Network>,
    stack: Vec<crate::nnue::Accumulator>,
    /// Where moving reveals (§F8): the face-down squares at the root. A piece of unknown
    /// identity that moved in the search stands on a square outside them; in real games it would
    /// have been revealed, so no position the network learnt from has it face down off its start
    /// point. The network leaves it out and the evaluation adds its hidden value instead.
    root_down: Option<Bitboard>,
}

/// What a searcher that may not read hidden identities values instead of the core's piece types
/// (RULES.md §F2, §P2): the squares of pieces whose identity the searching player does not know
/// (face-down pieces; in the search also the pieces that left such a square, whose reveal it
/// cannot foresee), each with its value in centipawns: the mean over the identities the player
/// has not seen of that side (a martingale under reveals), or the identity where the player
/// knows it. Built from the player's view ([`HiddenValues::from_known`]); moves with the pieces.
#[derive(Clone, Debug)]
pub struct HiddenValues {
    /// Squares holding a piece valued by `value` instead of its core type.
    pub squares: Bitboard,
    /// Value in centipawns of the piece on each square of `squares` (indexed by
    /// [`crate::geometry::Square::index`]).
    pub value: [i16; 128],
    /// The identity of the piece on each square of `squares` where the searching player knows
    /// it (its own face-down pieces in the owner's-choice Fan-qi modes, §F3): when that piece
    /// moves it is revealed (§F8) and moves as its identity from then on.
    pub identity: [Option<crate::piece::Role>; 128],
    /// Whether moving a face-down piece reveals it in this game (RULES.md §F8; a Surprise disc
    /// stays a disc, §S3): the search then cannot foresee what a moved one becomes.
    pub reveals_on_move: bool,
}

impl HiddenValues {
    /// The values a player's view gives the face-down pieces: `known` is the view's state with
    /// everything the player cannot see blanked ([`crate::variant::View::known`]): a face-down
    /// piece whose identity it states counts as that identity, any other as the mean of its
    /// side's unseen identities ([`crate::search::eval::expected_facedown_value`]). `None` when
    /// no piece is face down.
    pub fn from_known(known: &crate::variant::State) -> Option<HiddenValues> {
        let down = known.face_down();
        if !down.any() {
            return None;
        }
        let reveals_on_move = known.variant().caps.hidden == crate::variant::Hidden::FaceDown;
        let mut h = HiddenValues { squares: down, value: [0; 128], identity: [None; 128], reveals_on_move };
        let mut mean = [None, None];
        for sq in down {
            let Some(piece) = known.position().piece_at(sq) else { continue };
            h.identity[sq.index()] = known.identity(sq);
            let v = match known.identity(sq) {
                Some(r) => piece_value(r) as f64,
                None => {
                    let c = piece.color;
                    mean[c.index()].get_or_insert_with(|| crate::search::eval::expected_facedown_value(known, c)).unwrap_or(piece_value(piece.role) as f64)
                }
            };
            h.value[sq.index()] = v.round() as i16;
        }
        Some(h)
    }
}

/// What [`CorePosition::make`] saves to take a move back: the position's [`Undo`], and with
/// [`HiddenValues`] the squares and the value on the target before the move.
#[derive(Copy, Clone, Debug)]
pub struct CoreUndo {
    undo: Undo,
    squares: Bitboard,
    target_value: i16,
    target_identity: Option<crate::piece::Role>,
    /// The moved piece as it stood before a reveal changed its type, if one did.
    revealed: Option<crate::piece::Piece>,
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
        CorePosition { pos: pos.clone(), path, hidden: None, nnue: None }
    }

    /// Evaluates with the learned network `eval` ([`crate::nnue`]) instead of material and
    /// piece-square tables (`None`: keeps the hand-written evaluation). The pieces of the
    /// [`HiddenValues`] are its face-down pieces.
    pub fn with_eval(mut self, eval: Option<&crate::nnue::EvalNet>) -> CorePosition {
        let root_down = self.hidden.as_ref().filter(|h| h.reveals_on_move).map(|h| h.squares);
        self.nnue = eval.map(|e| Box::new(NnueStack { net: e.net.clone(), stack: Vec::with_capacity(super::MAX_PLY + 8), root_down }));
        let pieces = self.nnue_pieces();
        if let Some(n) = &mut self.nnue {
            let mut acc = crate::nnue::Accumulator::new(&n.net);
            acc.refresh(&n.net, &self.pos.rules().attacks.geometry, &pieces);
            n.stack.push(acc);
        }
        self
    }

    /// The pieces of unknown identity that moved in the search where moving reveals (left out
    /// of the network's inputs, see [`NnueStack`]).
    #[inline]
    fn nnue_moved_hidden(&self) -> Bitboard {
        match (&self.hidden, self.nnue.as_ref().and_then(|n| n.root_down)) {
            (Some(h), Some(root)) => h.squares & !root,
            _ => Bitboard::EMPTY,
        }
    }

    /// The learned evaluation for the side to move: the network's score plus the hidden values
    /// of the pieces it leaves out ([`CorePosition::nnue_moved_hidden`]).
    #[inline]
    fn eval_nnue(&self, n: &NnueStack) -> i32 {
        let acc = n.stack.last().expect("the root's accumulator");
        let mut v = n.net.evaluate(acc, self.pos.turn());
        if let Some(h) = &self.hidden {
            let us = self.pos.turn();
            for sq in self.nnue_moved_hidden() {
                if let Some(p) = self.pos.piece_at(sq) {
                    let d = h.value[sq.index()] as i32;
                    v += if p.color == us { d } else { -d };
                }
            }
        }
        v.clamp(-super::MATE_BOUND + 1, super::MATE_BOUND - 1)
    }

    /// The pieces as the learned evaluation sees them: the core position with the squares of
    /// the [`HiddenValues`] face down.
    fn nnue_pieces(&self) -> Vec<crate::nnue::PieceOn> {
        self.pos.occupied().into_iter().filter_map(|sq| self.nnue_piece(sq)).collect()
    }

    /// The piece on `sq` as the learned evaluation sees it.
    #[inline]
    fn nnue_piece(&self, sq: crate::geometry::Square) -> Option<crate::nnue::PieceOn> {
        if self.nnue_moved_hidden().contains(sq) {
            return None;
        }
        self.pos.piece_at(sq).map(|piece| crate::nnue::PieceOn { sq, piece, face_down: self.hidden.as_ref().is_some_and(|h| h.squares.contains(sq)) })
    }

    /// Whether the learned evaluation's accumulator equals a full refresh of the position (the
    /// incremental-update test).
    #[cfg(test)]
    pub(crate) fn nnue_matches_refresh(&self) -> bool {
        let Some(n) = &self.nnue else { return true };
        let mut acc = crate::nnue::Accumulator::new(&n.net);
        acc.refresh(&n.net, &self.pos.rules().attacks.geometry, &self.nnue_pieces());
        n.stack.last() == Some(&acc)
    }

    /// Plays `m` and updates the hidden values (see [`SearchPosition::make`]).
    #[inline]
    fn make_core(&mut self, m: Move) -> CoreUndo {
        let Some(h) = &mut self.hidden else {
            return CoreUndo { undo: self.pos.play(m), squares: Bitboard::EMPTY, target_value: 0, target_identity: None, revealed: None };
        };
        let mut saved = CoreUndo { undo: Undo { captured: None, halfmove: 0, hash: 0 }, squares: h.squares, target_value: h.value[m.to.index()], target_identity: h.identity[m.to.index()], revealed: None };
        // A capture removes the victim's value; a piece of unknown identity carries its value;
        // one whose identity the player knows is revealed as it (§F8) and valued by its type.
        h.squares.clear(m.to);
        let mut reveal = None;
        if saved.squares.contains(m.from) {
            h.squares.clear(m.from);
            match h.identity[m.from.index()] {
                Some(r) => reveal = Some(r),
                None => {
                    h.squares.set(m.to);
                    h.value[m.to.index()] = h.value[m.from.index()];
                    h.identity[m.to.index()] = None;
                }
            }
        }
        saved.undo = self.pos.play(m);
        if let (Some(r), Some(p)) = (reveal, self.pos.piece_at(m.to)) {
            if p.role != r {
                saved.revealed = Some(p);
                self.pos.set_piece(m.to, Some(crate::piece::Piece { color: p.color, role: r }));
            }
        }
        saved
    }


    /// [`CorePosition::new`] valuing the pieces of `hidden` by its values (an honest search of a
    /// hidden variant: the core position and these values are functions of the player's view).
    pub fn with_hidden(pos: &Position, game: &[RecordPly], hidden: Option<HiddenValues>) -> CorePosition {
        let mut c = CorePosition::new(pos, game);
        c.hidden = hidden.map(Box::new);
        c
    }

    /// The static evaluation for the side to move: [`evaluate`] with the pieces of the
    /// [`HiddenValues`] counted at their values (plus their square's bonus) instead of their
    /// core type's.
    fn eval_hidden(&self) -> i32 {
        let base = evaluate(&self.pos);
        let Some(h) = &self.hidden else { return base };
        let us = self.pos.turn();
        let mut delta = 0;
        for sq in h.squares {
            let Some(p) = self.pos.piece_at(sq) else { continue };
            let d = h.value[sq.index()] as i32 - material_value(&self.pos, p.color, p.role, sq);
            delta += if p.color == us { d } else { -d };
        }
        base + delta
    }

    /// A cheap static-exchange test: `m` captures a piece worth less than the capturer and the
    /// opponent attacks the target square once the capture is made, so the exchange is expected
    /// to lose material. Captures of equal or greater value are never losing here.
    #[inline]
    fn losing_capture(&self, m: Move) -> bool {
        let (Some(attacker), Some(victim)) = (self.pos.piece_at(m.from), self.pos.piece_at(m.to)) else { return false };
        if attacker.role == crate::piece::Role::General {
            return false;
        }
        let gain = self.victim_value(m.to, victim.color, victim.role);
        let risk = match &self.hidden {
            Some(h) if h.squares.contains(m.from) => h.value[m.from.index()] as i32,
            _ => piece_value(attacker.role),
        };
        if gain >= risk {
            return false;
        }
        let occ = self.pos.occupied() ^ Bitboard::from_square(m.from);
        self.pos.is_attacked_by(m.to, occ, victim.color, !Bitboard::from_square(m.to))
    }

    /// The value the side to move gains by capturing on `sq` (with the hidden values).
    #[inline]
    fn victim_value(&self, sq: crate::geometry::Square, color: crate::piece::Color, role: crate::piece::Role) -> i32 {
        match &self.hidden {
            Some(h) if h.squares.contains(sq) => h.value[sq.index()] as i32,
            _ => capture_gain(&self.pos, color, role, sq),
        }
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }
}

impl SearchPosition for CorePosition {
    type Move = Move;
    type Undo = CoreUndo;
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
        moves.retain(|m| enemy.contains(m.to) && pos.piece_at(m.to).map(|p| self.victim_value(m.to, p.color, p.role) >= margin).unwrap_or(false));
        // Captures that lose material by the cheap exchange test are not searched out.
        moves.retain(|m| !self.losing_capture(*m));
        let pos = &self.pos;
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
        let value = match &self.hidden {
            Some(h) if h.squares.contains(m.to) => h.value[m.to.index()] as i32,
            _ => piece_value(victim.role),
        };
        // A losing capture (cheap exchange test) is tried after the quiet moves.
        let losing = if self.losing_capture(m) { LOSING_CAPTURE } else { 0 };
        Some(value * 16 - attacker / 16 - losing)
    }

    #[inline]
    fn make(&mut self, m: Move) -> CoreUndo {
        if self.nnue.is_none() {
            return self.make_core(m);
        }
        let before = [self.nnue_piece(m.from), self.nnue_piece(m.to)];
        let undo = self.make_core(m);
        let after = [self.nnue_piece(m.from), self.nnue_piece(m.to)];
        let geom = &self.pos.rules().attacks.geometry;
        if let Some(n) = &mut self.nnue {
            let mut acc = *n.stack.last().expect("the root's accumulator");
            let removed: arrayvec::ArrayVec<crate::nnue::PieceOn, 2> = before.into_iter().flatten().collect();
            let added: arrayvec::ArrayVec<crate::nnue::PieceOn, 2> = after.into_iter().flatten().collect();
            acc.update(&n.net, geom, &removed, &added);
            n.stack.push(acc);
        }
        undo
    }

    #[inline]
    fn unmake(&mut self, m: Move, undo: CoreUndo) {
        if let Some(n) = &mut self.nnue {
            n.stack.pop();
        }
        if let Some(p) = undo.revealed {
            self.pos.set_piece(m.to, Some(p));
        }
        self.pos.unplay(m, undo.undo);
        if let Some(h) = &mut self.hidden {
            h.squares = undo.squares;
            h.value[m.to.index()] = undo.target_value;
            h.identity[m.to.index()] = undo.target_identity;
        }
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
        if let Some(n) = &self.nnue {
            return self.eval_nnue(n);
        }
        if self.hidden.is_some() {
            self.eval_hidden()
        } else {
            evaluate(&self.pos)
        }
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

    /// Passes when the side to move has a chariot, horse or cannon (soldiers, advisors and
    /// elephants alone are where zugzwang decides xiangqi endings). The pass restarts the
    /// halfmove clock ([`Position::play_null`]), so no repetition is matched across it.
    #[inline]
    fn make_null(&mut self) -> Option<CoreUndo> {
        let us = self.pos.turn();
        let heavy = self.pos.pieces(us, crate::piece::Role::Chariot) | self.pos.pieces(us, crate::piece::Role::Horse) | self.pos.pieces(us, crate::piece::Role::Cannon);
        if !heavy.any() {
            return None;
        }
        let undo = self.pos.play_null();
        self.path.push(RecordPly { hash: self.pos.hash(), mover: us, gave_check: false, board: true, quiet: None });
        Some(CoreUndo { undo, squares: Bitboard::EMPTY, target_value: 0, target_identity: None, revealed: None })
    }

    #[inline]
    fn unmake_null(&mut self, undo: CoreUndo) {
        self.path.pop();
        self.pos.unplay_null(undo.undo);
    }

    /// The core ends only by having no legal move (§X4) and by the rules of
    /// [`SearchPosition::rule_score`].
    #[inline]
    fn terminal_score(&self, _ply: usize) -> Option<i32> {
        None
    }
}
