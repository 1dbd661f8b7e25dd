//! The validated position: bitboards by colour and type, a mailbox, side to move, counters and an
//! incrementally updated Zobrist hash. Built from an unvalidated [`Setup`] by
//! [`Position::from_setup`]; moves are applied with [`Position::play`] / [`Position::unplay`]
//! (make/unmake) or by cloning (copy-make): `benches`/`anqi perft --bench` measure both.

use crate::attacks::{Attacks, EAST, NORTH, SOUTH, WEST};
use crate::bitboard::Bitboard;
use crate::geometry::Square;
use crate::moves::Move;
use crate::piece::{Color, Piece, Role};
use crate::rules::Rules;
use crate::zobrist;

/// An unvalidated position: pieces on points, side to move and counters ("not necessarily legal").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Pieces by square index (`rank * 11 + file`); `None` is empty.
    pub board: [Option<Piece>; 128],
    /// Side to move.
    pub turn: Color,
    /// Plies since the last capture (FEN field 5).
    pub halfmove: u32,
    /// Move number, starting at 1, incremented after Black's move (FEN field 6).
    pub fullmove: u32,
}

impl Default for Setup {
    fn default() -> Self {
        Setup { board: [None; 128], turn: Color::Red, halfmove: 0, fullmove: 1 }
    }
}

/// Why a [`Setup`] is not a legal position (RULES.md §X).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side has no general.
    #[error("{0} has no general")]
    MissingGeneral(Color),
    /// A side has more than one general.
    #[error("{0} has {1} generals (exactly one allowed)")]
    TooManyGenerals(Color, u32),
    /// A piece stands on a point that its type can never reach (§X2 regions and move shapes).
    #[error("{color} {role} on {square}: the {role} can never stand there (RULES.md §X2 regions)")]
    ImpossiblePoint {
        /// Owner.
        color: Color,
        /// Type.
        role: Role,
        /// Point.
        square: Square,
    },
    /// A piece stands outside the board.
    #[error("piece on {0}, outside the board")]
    OffBoard(Square),
    /// A side has more pieces of a type than the game has.
    #[error("{color} has {count} {role}s (at most {max})")]
    TooMany {
        /// Owner.
        color: Color,
        /// Type.
        role: Role,
        /// Pieces found.
        count: u32,
        /// Allowed.
        max: u32,
    },
    /// The side that just moved left its general attacked (§X4), so the side to move could capture it.
    #[error("{0} (not to move) is in check: the position cannot arise")]
    OpponentInCheck(Color),
}

/// State that [`Position::play`] overwrites and [`Position::unplay`] restores.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    /// Piece captured on the destination, if any.
    pub captured: Option<Piece>,
    /// Halfmove clock before the move.
    pub halfmove: u32,
    /// Hash before the move.
    pub hash: u64,
}

/// Side to move, counters and hash of a [`Position`], saved by [`Position::counters`] and put
/// back by [`Position::restore_counters`] (variant make/unmake around low-level edits).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Counters {
    turn: Color,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
}

/// A legal standard-xiangqi position (the core that variants build on).
#[derive(Clone)]
pub struct Position {
    rules: &'static Rules,
    board: [Option<Piece>; 128],
    by_color: [Bitboard; 2],
    by_role: [Bitboard; Role::COUNT],
    turn: Color,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    general: [Square; 2],
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", crate::notation::fen::write(self))
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.turn == other.turn
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
    }
}

impl Position {
    /// The standard start position (RULES.md §X1).
    pub fn start() -> Position {
        crate::notation::fen::parse(crate::notation::fen::START).expect("start FEN is valid")
    }

    /// The standard start array (RULES.md §X1) under a variant's `rules`.
    pub fn start_with(rules: &'static Rules) -> Position {
        let setup = crate::notation::fen::parse_setup(crate::notation::fen::START).expect("start FEN is valid");
        Position::from_setup(&setup, rules).expect("start array is legal under every rule table")
    }

    /// Validates `setup` under `rules`.
    ///
    /// # Errors
    /// [`PositionError`] naming the first problem: missing or doubled general, a piece off the board
    /// or on a point its type can never reach, too many pieces of a type, or the side not to move
    /// in check.
    pub fn from_setup(setup: &Setup, rules: &'static Rules) -> Result<Position, PositionError> {
        let pos = Position::from_setup_unchecked_check(setup, rules)?;
        let them = pos.turn.opponent();
        if pos.is_attacked_by(pos.general[them.index()], pos.occupied(), pos.turn, Bitboard(!0)) {
            return Err(PositionError::OpponentInCheck(them));
        }
        Ok(pos)
    }

    /// [`Position::from_setup`] without the test that the side not to move is not in check; for
    /// variants whose notion of check differs (King chess §K6 checks it after reading markers).
    ///
    /// # Errors
    /// As [`Position::from_setup`], except [`PositionError::OpponentInCheck`].
    pub fn from_setup_unchecked_check(setup: &Setup, rules: &'static Rules) -> Result<Position, PositionError> {
        let geom = &rules.attacks.geometry;
        let mut pos = Position {
            rules,
            board: [None; 128],
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; Role::COUNT],
            turn: setup.turn,
            halfmove: setup.halfmove,
            fullmove: setup.fullmove.max(1),
            hash: 0,
            general: [Square::new_unchecked(0); 2],
        };
        for (i, p) in setup.board.iter().enumerate() {
            if let Some(p) = *p {
                let sq = Square::new_unchecked(i as u8);
                if !geom.contains(sq) {
                    return Err(PositionError::OffBoard(sq));
                }
                if !rules.reachable[p.color.index()][p.role.index()].contains(sq) {
                    return Err(PositionError::ImpossiblePoint { color: p.color, role: p.role, square: sq });
                }
                pos.put(sq, p);
            }
        }
        for c in Color::ALL {
            let gens = pos.pieces(c, Role::General);
            match gens.count() {
                0 => return Err(PositionError::MissingGeneral(c)),
                1 => pos.general[c.index()] = gens.lsb(),
                n => return Err(PositionError::TooManyGenerals(c, n)),
            }
            for role in Role::ALL {
                if !rules.limit_counts {
                    break;
                }
                let max = rules.start_points(c, role).count();
                let count = pos.pieces(c, role).count();
                if count > max {
                    return Err(PositionError::TooMany { color: c, role, count, max });
                }
            }
        }
        if pos.turn == Color::Black {
            pos.hash ^= zobrist::BLACK_TO_MOVE;
        }
        Ok(pos)
    }

    /// The unvalidated form of this position.
    pub fn to_setup(&self) -> Setup {
        Setup { board: self.board, turn: self.turn, halfmove: self.halfmove, fullmove: self.fullmove }
    }

    #[inline(always)]
    fn put(&mut self, sq: Square, p: Piece) {
        self.board[sq.index()] = Some(p);
        self.by_color[p.color.index()].set(sq);
        self.by_role[p.role.index()].set(sq);
        self.hash ^= zobrist::piece_square(p, sq.index());
    }

    /// The rule table.
    #[inline(always)]
    pub fn rules(&self) -> &'static Rules {
        self.rules
    }

    /// Side to move.
    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the last capture.
    #[inline(always)]
    pub fn halfmove(&self) -> u32 {
        self.halfmove
    }

    /// Move number (starts at 1, incremented after Black moves).
    #[inline(always)]
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// Zobrist hash of pieces and side to move (counters excluded).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Hash recomputed from scratch (tests compare it with the incremental [`Position::hash`]).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.turn == Color::Black { zobrist::BLACK_TO_MOVE } else { 0 };
        for (i, p) in self.board.iter().enumerate() {
            if let Some(p) = p {
                h ^= zobrist::piece_square(*p, i);
            }
        }
        h
    }

    /// Piece on `sq`.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// All occupied points.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Points occupied by `c`.
    #[inline(always)]
    pub fn by_color(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// Points occupied by pieces of type `r` (both colours).
    #[inline(always)]
    pub fn by_role(&self, r: Role) -> Bitboard {
        self.by_role[r.index()]
    }

    /// Points occupied by `c`'s pieces of type `r`.
    #[inline(always)]
    pub fn pieces(&self, c: Color, r: Role) -> Bitboard {
        self.by_color[c.index()] & self.by_role[r.index()]
    }

    /// Where `c`'s general stands.
    #[inline(always)]
    pub fn general(&self, c: Color) -> Square {
        self.general[c.index()]
    }

    /// Whether a piece of `color` standing on a point of `attackers_mask` attacks `sq` under
    /// occupancy `occ`. The mask lets legality tests drop a piece just captured.
    #[inline]
    pub fn is_attacked_by(&self, sq: Square, occ: Bitboard, color: Color, attackers_mask: Bitboard) -> bool {
        self.attacked_by_inline(sq, occ, color, attackers_mask)
    }

    /// [`Position::is_attacked_by`], inlined where the move generator tests the general's moves.
    #[inline(always)]
    pub(crate) fn attacked_by_inline(&self, sq: Square, occ: Bitboard, color: Color, attackers_mask: Bitboard) -> bool {
        let a = self.rules.attacks;
        let ci = color.index();
        let si = sq.index();
        let attackers_mask = attackers_mask & self.by_color[ci];
        let r = |role: Role| self.by_role[role.index()] & attackers_mask;
        // Occupancy-free tests first: soldiers, the general's step (§X2).
        if (a.soldier_from[ci][si] & r(Role::Soldier)).any() {
            return true;
        }
        let generals = r(Role::General);
        if (a.orthogonal[si] & generals).any() && self.rules.region[ci][Role::General.index()].contains(sq) {
            return true;
        }
        let horses = r(Role::Horse);
        if (a.horse_reach[si] & horses).any() && (a.horse_attackers(sq, occ) & horses).any() {
            return true;
        }
        // Lines, one ray at a time and only rays holding a possible attacker: a chariot (or, along
        // the file, a general: §X3 flying general) attacks as the nearest point, a cannon as the
        // second nearest occupied point. Attackers are looked for in `occ | rooks` so that a
        // chariot missing from `occ` still attacks, as with `chariot(sq, occ)`.
        let chariots = r(Role::Chariot);
        let cannons = r(Role::Cannon);
        if (a.lines(sq) & (chariots | cannons | generals)).any() {
            for d in [NORTH, EAST, SOUTH, WEST] {
                let ray = a.ray(d, sq);
                let rooks = if d == NORTH || d == SOUTH { chariots | generals } else { chariots };
                if (ray & (rooks | cannons)).is_empty() {
                    continue;
                }
                if (Attacks::nearest_bit(d, ray & (occ | rooks)) & rooks).any() {
                    return true;
                }
                let b = ray & occ;
                if (Attacks::nearest_bit(d, b ^ Attacks::nearest_bit(d, b)) & cannons).any() {
                    return true;
                }
            }
        }
        if self.rules.minor_attacks_general {
            if (a.diagonal[si] & r(Role::Advisor)).any() && self.rules.region[ci][Role::Advisor.index()].contains(sq) {
                return true;
            }
            if (a.elephant_targets(sq, occ) & r(Role::Elephant)).any()
                && self.rules.region[ci][Role::Elephant.index()].contains(sq)
            {
                return true;
            }
        }
        false
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        let us = self.turn;
        self.is_attacked_by(self.general[us.index()], self.occupied(), us.opponent(), Bitboard(!0))
    }

    /// Whether the move would leave the mover's general attacked (§X3, §X4). `m` must be
    /// pseudo-legal for the side to move.
    #[inline]
    pub fn leaves_general_attacked(&self, m: Move) -> bool {
        let us = self.turn;
        let them = us.opponent();
        let from_bb = Bitboard::from_square(m.from);
        let to_bb = Bitboard::from_square(m.to);
        let occ = (self.occupied() ^ from_bb) | to_bb;
        let general = if m.from == self.general[us.index()] { m.to } else { self.general[us.index()] };
        self.is_attacked_by(general, occ, them, !to_bb)
    }

    /// [`Position::leaves_general_attacked`] with the enemy pieces on `exclude` unable to capture
    /// (King chess §K6: a king piece gives no check).
    #[inline]
    pub fn leaves_general_attacked_excluding(&self, m: Move, exclude: Bitboard) -> bool {
        let us = self.turn;
        let them = us.opponent();
        let from_bb = Bitboard::from_square(m.from);
        let to_bb = Bitboard::from_square(m.to);
        let occ = (self.occupied() ^ from_bb) | to_bb;
        let general = if m.from == self.general[us.index()] { m.to } else { self.general[us.index()] };
        self.is_attacked_by(general, occ, them, !to_bb & !exclude)
    }

    /// Applies a legal move in place and returns what [`Position::unplay`] needs.
    #[inline]
    pub fn play(&mut self, m: Move) -> Undo {
        let undo = Undo { captured: self.board[m.to.index()], halfmove: self.halfmove, hash: self.hash };
        let p = match self.board[m.from.index()] {
            Some(p) => p,
            None => return undo,
        };
        let from_bb = Bitboard::from_square(m.from);
        let to_bb = Bitboard::from_square(m.to);
        if let Some(c) = undo.captured {
            self.by_color[c.color.index()] ^= to_bb;
            self.by_role[c.role.index()] ^= to_bb;
            self.hash ^= zobrist::piece_square(c, m.to.index());
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        self.by_color[p.color.index()] ^= from_bb | to_bb;
        self.by_role[p.role.index()] ^= from_bb | to_bb;
        self.board[m.from.index()] = None;
        self.board[m.to.index()] = Some(p);
        self.hash ^= zobrist::piece_square(p, m.from.index()) ^ zobrist::piece_square(p, m.to.index());
        if p.role == Role::General {
            self.general[p.color.index()] = m.to;
        }
        if self.turn == Color::Black {
            self.fullmove += 1;
        }
        self.turn = self.turn.opponent();
        self.hash ^= zobrist::BLACK_TO_MOVE;
        undo
    }

    /// Takes back `m`, which must be the last move applied by [`Position::play`].
    #[inline]
    pub fn unplay(&mut self, m: Move, undo: Undo) {
        self.turn = self.turn.opponent();
        if self.turn == Color::Black {
            self.fullmove -= 1;
        }
        let p = match self.board[m.to.index()] {
            Some(p) => p,
            None => return,
        };
        let from_bb = Bitboard::from_square(m.from);
        let to_bb = Bitboard::from_square(m.to);
        self.by_color[p.color.index()] ^= from_bb | to_bb;
        self.by_role[p.role.index()] ^= from_bb | to_bb;
        self.board[m.from.index()] = Some(p);
        self.board[m.to.index()] = undo.captured;
        if let Some(c) = undo.captured {
            self.by_color[c.color.index()] ^= to_bb;
            self.by_role[c.role.index()] ^= to_bb;
        }
        if p.role == Role::General {
            self.general[p.color.index()] = m.from;
        }
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
    }

    /// A null move for search (null-move pruning): the turn passes without a move. The
    /// halfmove clock restarts at 0, so that a repetition is never matched across the null move
    /// (the repetition window of [`crate::repetition::in_search`] is the clock). Not a legal
    /// action of any game. Undone by [`Position::unplay_null`].
    #[inline]
    pub fn play_null(&mut self) -> Undo {
        let undo = Undo { captured: None, halfmove: self.halfmove, hash: self.hash };
        self.pass_turn(true);
        undo
    }

    /// Takes back [`Position::play_null`].
    #[inline]
    pub fn unplay_null(&mut self, undo: Undo) {
        self.turn = self.turn.opponent();
        if self.turn == Color::Black {
            self.fullmove -= 1;
        }
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
    }

    /// Low-level edit used by variant rules (flips, swaps, reveals): puts `piece` (or nothing) on
    /// `sq`, keeping bitboards, the general's square and the hash consistent. It does not change
    /// the side to move or the counters, and does not check legality.
    pub fn set_piece(&mut self, sq: Square, piece: Option<Piece>) {
        if let Some(old) = self.board[sq.index()] {
            self.by_color[old.color.index()].clear(sq);
            self.by_role[old.role.index()].clear(sq);
            self.hash ^= zobrist::piece_square(old, sq.index());
            self.board[sq.index()] = None;
        }
        if let Some(p) = piece {
            self.put(sq, p);
            if p.role == Role::General {
                self.general[p.color.index()] = sq;
            }
        }
    }

    /// Side to move, counters and hash, to be put back by [`Position::restore_counters`].
    #[inline(always)]
    pub fn counters(&self) -> Counters {
        Counters { turn: self.turn, halfmove: self.halfmove, fullmove: self.fullmove, hash: self.hash }
    }

    /// Low-level edit used by variant unmake: puts back side to move, counters and hash saved by
    /// [`Position::counters`]. The pieces must already be as they were then (restored with
    /// [`Position::set_piece`]), so that the hash matches them again.
    #[inline(always)]
    pub fn restore_counters(&mut self, c: Counters) {
        self.turn = c.turn;
        self.halfmove = c.halfmove;
        self.fullmove = c.fullmove;
        self.hash = c.hash;
    }

    /// Low-level edit used by variant rules: ends the turn without moving a piece (a flip is a
    /// whole move, RULES.md §S4), advancing the counters like a non-capturing move.
    pub fn pass_turn(&mut self, capture: bool) {
        self.halfmove = if capture { 0 } else { self.halfmove + 1 };
        if self.turn == Color::Black {
            self.fullmove += 1;
        }
        self.turn = self.turn.opponent();
        self.hash ^= zobrist::BLACK_TO_MOVE;
    }

    /// Whether either side still has a piece that can reach the other half (§X6 no-attacker rule):
    /// a chariot, horse, cannon or soldier, or an advisor or elephant whose region crosses the river.
    pub fn has_attacking_material(&self) -> bool {
        let mut att = self.by_role(Role::Chariot)
            | self.by_role(Role::Horse)
            | self.by_role(Role::Cannon)
            | self.by_role(Role::Soldier);
        if self.rules.minor_attacks_general {
            att |= self.by_role(Role::Advisor) | self.by_role(Role::Elephant);
        }
        att.any()
    }
}
