//! A missile-xiangqi position (RULES-more.md §3): board, side to move, which missiles are still
//! in base (§3.5), the removal clock and the move number; move generation, the take matrix of
//! §3.4, the base rule of §3.5, the legality filter (§0.3, §3.3 facing) and the dead-general
//! restriction (§3.7 win 3).

use super::super::board::Board;
use super::super::geometry::{Geometry, Sq, DIAG, HORSE, LONG_LEAP, ORTHO};
use super::super::piece::{Kind, Piece};
use super::rules::{BaseOutcome, BaseReading, DeadGeneral, FighterBlock, MissileRules};
use crate::piece::Color;

/// A move: from and to squares. What happens on `to` follows from the position (§3.4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MMove {
    /// Origin.
    pub from: Sq,
    /// Destination (or the attacked square, for a mutual destruction).
    pub to: Sq,
}

/// What a move does on its target square (RULES-more.md §3.4, §3.5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// To an empty square.
    Quiet,
    /// An ordinary capture: the mover lands on the square (any non-missile target; a cannon
    /// taking a missile, §3.4 row 2).
    Capture,
    /// Mutual destruction (碰炸同歸於盡): both pieces removed, the square left empty (§3.4).
    Mutual,
    /// Base rule (§3.5): the attacking missile is removed and the attacked one stays.
    SelfDestruct,
}

/// A missile-xiangqi position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MissilePosition {
    pub(super) board: Board,
    pub(super) turn: Color,
    /// Squares holding a missile that has never moved (in base, §3.5).
    pub(super) in_base: u128,
    pub(super) halfmove: u16,
    pub(super) fullmove: u16,
    pub(super) rules: MissileRules,
}


/// The position hash of a board with Zobrist sum `zobrist`, `turn` to move and the base flags
/// `in_base` ([`MissilePosition::hash`]).
#[inline]
fn position_hash(zobrist: u64, turn: Color, in_base: u128) -> u64 {
    let b = zobrist ^ (zobrist >> 29);
    let mut h = b ^ (turn as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^= (in_base as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ ((in_base >> 64) as u64).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

/// The horse's leg for the leap (dx, dy): the orthogonal neighbour in the long direction (§0.3).
#[inline]
fn leg(dx: i8, dy: i8) -> (i8, i8) {
    if dx.abs() == 2 {
        (dx.signum(), 0)
    } else {
        (0, dy.signum())
    }
}

impl MissilePosition {
    /// The §3.6 start array [ASM] with `rules`.
    pub fn start(rules: MissileRules) -> MissilePosition {
        // The board field of the §3.6 array (our ranks 9 .. 0).
        let board = Board::parse_field(geometry(), START_BOARD).expect("start array parses");
        let mut p = MissilePosition { board, turn: Color::Red, in_base: 0, halfmove: 0, fullmove: 1, rules };
        p.in_base = p.missile_squares();
        p
    }

    /// An empty-board position (for set-up and tests).
    pub fn empty(rules: MissileRules) -> MissilePosition {
        MissilePosition { board: Board::empty(geometry()), turn: Color::Red, in_base: 0, halfmove: 0, fullmove: 1, rules }
    }

    pub(super) fn missile_squares(&self) -> u128 {
        let mut m = 0u128;
        for (s, p) in self.board.pieces() {
            if p.kind == Kind::Missile {
                m |= 1 << s;
            }
        }
        m
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The geometry (§3.2).
    pub fn geo(&self) -> &'static Geometry {
        self.board.geo()
    }

    /// Side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The rules.
    pub fn rules(&self) -> &MissileRules {
        &self.rules
    }

    /// Plies since the last removal of a piece.
    pub fn halfmove(&self) -> u16 {
        self.halfmove
    }

    /// Move number (starts at 1, incremented after Black's move).
    pub fn fullmove(&self) -> u16 {
        self.fullmove
    }

    /// Whether the missile on `s` is in base (has never moved, §3.5).
    pub fn in_base(&self, s: Sq) -> bool {
        self.in_base >> s & 1 == 1
    }

    /// A hash of everything that decides the future: board, side to move, base flags.
    #[inline]
    pub fn hash(&self) -> u64 {
        position_hash(self.board.zobrist(), self.turn, self.in_base)
    }

    /// The [`MissilePosition::hash`] and the [`MissilePosition::halfmove`] of
    /// [`MissilePosition::after`]`(m)` for a pseudo-legal `m`, from the squares `m` changes,
    /// without copying the position (the repetition test of every legal move, §3.7).
    #[inline]
    pub fn hash_after(&self, m: MMove) -> (u64, u16) {
        let effect = self.effect(m).unwrap_or(Effect::Quiet);
        let (mover, target) = (self.board.code(m.from), self.board.code(m.to));
        let (from_bit, to_bit) = (1u128 << m.from, 1u128 << m.to);
        let mut z = self.board.zobrist() ^ Board::key(m.from, mover);
        let in_base = match effect {
            Effect::Quiet | Effect::Capture => {
                z ^= Board::key(m.to, target) ^ Board::key(m.to, mover);
                self.in_base & !(from_bit | to_bit)
            }
            Effect::Mutual => {
                z ^= Board::key(m.to, target);
                self.in_base & !(from_bit | to_bit)
            }
            Effect::SelfDestruct => self.in_base & !from_bit,
        };
        let halfmove = if effect == Effect::Quiet { self.halfmove.saturating_add(1) } else { 0 };
        (position_hash(z, self.turn.opponent(), in_base), halfmove)
    }

    /// The general of `c`, if on the board.
    pub fn general(&self, c: Color) -> Option<Sq> {
        self.board.find(Piece::new(c, Kind::General))
    }

    /// What `m` does on its target square (§3.4, §3.5); `None` if `to` holds a piece of the mover
    /// or `from` is empty.
    pub fn effect(&self, m: MMove) -> Option<Effect> {
        let mover = self.board.get(m.from)?;
        let target = match self.board.get(m.to) {
            None => return Some(Effect::Quiet),
            Some(t) if t.color == mover.color => return None,
            Some(t) => t,
        };
        Some(match (mover.kind, target.kind) {
            (Kind::Missile, Kind::Missile) => {
                let protected = match self.rules.base_reading {
                    BaseReading::Narrow => self.in_base(m.from) && self.in_base(m.to),
                    BaseReading::Broad => self.in_base(m.to),
                };
                if protected {
                    Effect::SelfDestruct
                } else {
                    Effect::Mutual
                }
            }
            (Kind::Missile, _) => Effect::Mutual,
            (Kind::Cannon, Kind::Missile) => Effect::Capture,
            (_, Kind::Missile) => Effect::Mutual,
            _ => Effect::Capture,
        })
    }

    /// Plays `m` (pseudo-legal) without any legality check.
    pub fn play_unchecked(&mut self, m: MMove) {
        let effect = self.effect(m).unwrap_or(Effect::Quiet);
        let mover = self.board.get(m.from);
        let from_bit = 1u128 << m.from;
        let to_bit = 1u128 << m.to;
        match effect {
            Effect::Quiet | Effect::Capture => {
                self.board.set(m.to, mover);
                self.board.set(m.from, None);
                self.in_base &= !(from_bit | to_bit);
            }
            Effect::Mutual => {
                self.board.set(m.to, None);
                self.board.set(m.from, None);
                self.in_base &= !(from_bit | to_bit);
            }
            Effect::SelfDestruct => {
                self.board.set(m.from, None);
                self.in_base &= !from_bit;
            }
        }
        self.halfmove = if effect == Effect::Quiet { self.halfmove.saturating_add(1) } else { 0 };
        if self.turn == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = self.turn.opponent();
    }

    /// The position after `m`.
    pub fn after(&self, m: MMove) -> MissilePosition {
        let mut p = self.clone();
        p.play_unchecked(m);
        p
    }

    /// Pushes the pseudo-legal moves of the piece on `from` (owned by `c`): every pattern of
    /// §0.3 and §3.3, targets empty or enemy, the general never taking a missile (§3.4), and
    /// protected missile attacks left out under [`BaseOutcome::Illegal`].
    pub fn piece_moves(&self, from: Sq, out: &mut Vec<MMove>) {
        let Some(p) = self.board.get(from) else { return };
        let g = self.geo();
        let c = p.color;
        let b = &self.board;
        let push = |to: Sq, out: &mut Vec<MMove>| match b.get(to) {
            None => out.push(MMove { from, to }),
            Some(t) if t.color != c => out.push(MMove { from, to }),
            _ => {}
        };
        match p.kind {
            Kind::General => {
                for (dx, dy) in ORTHO {
                    if let Some(to) = g.offset(from, dx, dy) {
                        if g.in_palace(c, to) && b.get(to).is_none_or(|t| t.kind != Kind::Missile) {
                            push(to, out);
                        }
                    }
                }
            }
            Kind::Advisor => {
                for (dx, dy) in DIAG {
                    if let Some(to) = g.offset(from, dx, dy) {
                        if g.on_palace_diagonal(c, to) && g.on_palace_diagonal(c, from) {
                            push(to, out);
                        }
                    }
                }
            }
            Kind::Elephant => {
                for (dx, dy) in DIAG {
                    if let (Some(eye), Some(to)) = (g.offset(from, dx, dy), g.offset(from, 2 * dx, 2 * dy)) {
                        if b.is_empty(eye) && g.own_half(c, to) {
                            push(to, out);
                        }
                    }
                }
            }
            Kind::Horse => {
                for (dx, dy) in HORSE {
                    let (lx, ly) = leg(dx, dy);
                    if let (Some(l), Some(to)) = (g.offset(from, lx, ly), g.offset(from, dx, dy)) {
                        if b.is_empty(l) {
                            push(to, out);
                        }
                    }
                }
            }
            Kind::Fighter => {
                for (dx, dy) in LONG_LEAP {
                    let Some(to) = g.offset(from, dx, dy) else { continue };
                    if !self.fighter_blocked(from, dx, dy) {
                        push(to, out);
                    }
                }
            }
            Kind::Chariot | Kind::Missile => {
                for (dx, dy) in ORTHO {
                    let mut s = from;
                    while let Some(to) = g.offset(s, dx, dy) {
                        match b.get(to) {
                            None => out.push(MMove { from, to }),
                            Some(t) => {
                                if t.color != c {
                                    let m = MMove { from, to };
                                    if !(p.kind == Kind::Missile
                                        && self.rules.base_outcome == BaseOutcome::Illegal
                                        && self.effect(m) == Some(Effect::SelfDestruct))
                                    {
                                        out.push(m);
                                    }
                                }
                                break;
                            }
                        }
                        s = to;
                    }
                }
            }
            Kind::Cannon => {
                for (dx, dy) in ORTHO {
                    let mut s = from;
                    let mut screen = false;
                    while let Some(to) = g.offset(s, dx, dy) {
                        match (screen, b.get(to)) {
                            (false, None) => out.push(MMove { from, to }),
                            (false, Some(_)) => screen = true,
                            (true, None) => {}
                            (true, Some(t)) => {
                                if t.color != c {
                                    out.push(MMove { from, to });
                                }
                                break;
                            }
                        }
                        s = to;
                    }
                }
            }
            Kind::Soldier => {
                if let Some(to) = g.offset(from, 0, Geometry::forward(c)) {
                    push(to, out);
                }
                if g.crossed(c, from) {
                    for dx in [-1, 1] {
                        if let Some(to) = g.offset(from, dx, 0) {
                            push(to, out);
                        }
                    }
                }
            }
            // Not pieces of this game.
            Kind::Camel | Kind::Chancellor => {}
        }
    }

    /// Whether the fighter on `from` is blocked (阻航) for the leap (dx, dy) (§3.3, §3.9 #4):
    /// by default when both points straight ahead along the long axis are occupied; under
    /// [`FighterBlock::AnyTwoOfThree`] when at least two of the three long-side points are.
    pub fn fighter_blocked(&self, from: Sq, dx: i8, dy: i8) -> bool {
        let g = self.geo();
        let (sx, sy) = if dy.abs() == 3 { (0, dy.signum()) } else { (dx.signum(), 0) };
        let occ = |k: i8| g.offset(from, k * sx, k * sy).is_some_and(|s| !self.board.is_empty(s));
        match self.rules.fighter_block {
            FighterBlock::TwoAhead => occ(1) && occ(2),
            FighterBlock::AnyTwoOfThree => (occ(1) as u8 + occ(2) as u8 + occ(3) as u8) >= 2,
        }
    }

    /// All pseudo-legal moves of `c`, in square order of origin.
    pub fn pseudo_moves(&self, c: Color, out: &mut Vec<MMove>) {
        for s in 0..self.geo().len() as u8 {
            if self.board.is_color(s, c) {
                self.piece_moves(s, out);
            }
        }
    }

    /// Whether `c`'s general is attacked by `c`'s opponent, or faces the enemy general on an open
    /// file (§0.3): the squares from which an enemy piece could take it by its move rule.
    pub fn in_check(&self, c: Color) -> bool {
        self.in_check_seen(c, 0)
    }

    /// [`MissilePosition::in_check`] as the face-down reading decides it (RULES-more.md §3.8 [R]
    /// hidden checks): the pieces on the squares of `hidden` (face-down pieces) give no check,
    /// though they still block; facing generals count as ever (generals are always face up).
    pub fn in_check_seen(&self, c: Color, hidden: u128) -> bool {
        match self.general(c) {
            Some(gs) => self.attacked_unless(gs, c.opponent(), hidden) || self.facing(gs),
            None => true,
        }
    }

    /// Whether the general on `gs` sees the other general along the file with nothing between.
    fn facing(&self, gs: Sq) -> bool {
        let g = self.geo();
        for dy in [1i8, -1] {
            let mut s = gs;
            while let Some(t) = g.offset(s, 0, dy) {
                if let Some(p) = self.board.get(t) {
                    if p.kind == Kind::General {
                        return true;
                    }
                    break;
                }
                s = t;
            }
        }
        false
    }

    /// Whether square `t` is attacked by a piece of `by` (by the move rules of §0.3 and §3.3,
    /// generals left out).
    pub fn attacked(&self, t: Sq, by: Color) -> bool {
        self.attacked_unless(t, by, 0)
    }

    /// [`MissilePosition::attacked`] counting no attack by a piece on a square of `hidden`: such
    /// pieces still block lines, legs and eyes and screen cannons (the face-down pieces of
    /// RULES-more.md §3.8 [R] hidden checks, whose kind the side that must answer does not know).
    pub fn attacked_unless(&self, t: Sq, by: Color, hidden: u128) -> bool {
        let g = self.geo();
        let b = &self.board;
        // A piece of `by` of kind `k` that counts as an attacker on `s`.
        let is_at = |s: Sq, k: Kind| hidden >> s & 1 == 0 && b.is(s, Piece::new(by, k));
        let is = |s: Option<Sq>, k: Kind| s.is_some_and(|s| is_at(s, k));
        // Rays: chariot or missile first, cannon second.
        for (dx, dy) in ORTHO {
            let mut s = t;
            let mut screen = false;
            while let Some(n) = g.offset(s, dx, dy) {
                if let Some(p) = b.get(n) {
                    let seen = hidden >> n & 1 == 0;
                    if !screen {
                        if seen && p.color == by && matches!(p.kind, Kind::Chariot | Kind::Missile) {
                            return true;
                        }
                        screen = true;
                    } else {
                        if seen && p.color == by && p.kind == Kind::Cannon {
                            return true;
                        }
                        break;
                    }
                }
                s = n;
            }
        }
        for (dx, dy) in HORSE {
            // A horse on t - (dx, dy) leaping (dx, dy).
            let h = g.offset(t, -dx, -dy);
            if is(h, Kind::Horse) {
                let (lx, ly) = leg(dx, dy);
                if h.and_then(|h| g.offset(h, lx, ly)).is_some_and(|l| b.is_empty(l)) {
                    return true;
                }
            }
        }
        for (dx, dy) in LONG_LEAP {
            let f = g.offset(t, -dx, -dy);
            if let Some(f) = f.filter(|&f| is_at(f, Kind::Fighter)) {
                if !self.fighter_blocked(f, dx, dy) {
                    return true;
                }
            }
        }
        if is(g.offset(t, 0, -Geometry::forward(by)), Kind::Soldier) {
            return true;
        }
        for dx in [-1, 1] {
            if let Some(s) = g.offset(t, dx, 0) {
                if is_at(s, Kind::Soldier) && g.crossed(by, s) {
                    return true;
                }
            }
        }
        for (dx, dy) in DIAG {
            if let Some(s) = g.offset(t, dx, dy) {
                if is_at(s, Kind::Advisor) && g.on_palace_diagonal(by, s) && g.on_palace_diagonal(by, t) {
                    return true;
                }
                if let Some(e) = g.offset(t, 2 * dx, 2 * dy) {
                    if is_at(e, Kind::Elephant) && b.is_empty(s) && g.own_half(by, t) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether `c` is in check by an enemy missile that stands in `c`'s palace (the "dead
    /// general" threat of §3.7 win 3).
    pub fn palace_missile_check(&self, c: Color) -> bool {
        let Some(gs) = self.general(c) else { return false };
        let g = self.geo();
        for (dx, dy) in ORTHO {
            let mut s = gs;
            while let Some(n) = g.offset(s, dx, dy) {
                if let Some(p) = self.board.get(n) {
                    if p.color != c && p.kind == Kind::Missile && g.in_palace(c, n) {
                        return true;
                    }
                    break;
                }
                s = n;
            }
        }
        false
    }

    /// Whether a pseudo-legal move is legal: afterwards the mover's general is not attacked and
    /// does not face the other (§0.3, §3.4 last paragraph), and under the strict dead-general
    /// reading (§3.7) a palace-missile check is answered by a general move.
    pub fn is_legal(&self, m: MMove, dead_general_only_king: bool) -> bool {
        let c = self.turn;
        if dead_general_only_king && self.board.get(m.from).is_none_or(|p| p.kind != Kind::General) {
            return false;
        }
        !self.after(m).in_check(c)
    }

    /// Whether the strict dead-general restriction applies to the side to move now.
    pub fn general_moves_only(&self) -> bool {
        self.rules.dead_general == DeadGeneral::Strict && self.palace_missile_check(self.turn)
    }

    /// [`MissilePosition::legal_moves`] by the mailbox generator, in (from, to) order: each
    /// pseudo-legal move made on a copy and tested. The reference the bitboard generator is
    /// tested against (`engine/tests/more_bits.rs`), and the path of a board that does not fit
    /// the core layout.
    pub fn legal_moves_mailbox(&self, out: &mut Vec<MMove>) {
        out.clear();
        let mut pseudo = Vec::with_capacity(128);
        self.pseudo_moves(self.turn, &mut pseudo);
        let only_king = self.general_moves_only();
        out.extend(pseudo.into_iter().filter(|&m| self.is_legal(m, only_king)));
        out.sort_unstable();
    }

    /// [`MissilePosition::legal_moves_seen`] by the mailbox generator, in (from, to) order (see
    /// [`MissilePosition::legal_moves_mailbox`]). The moves of the side to move under the
    /// face-down reading, decided on what that side sees (RULES-more.md §3.8 [R] hidden checks),
    /// `hidden` holding the squares of face-down pieces: as [`MissilePosition::legal_moves`],
    /// except that afterwards only face-up enemy
    /// pieces must not attack the mover's general (an enemy face-down piece blocks lines and legs
    /// and may be taken, but gives no check; facing generals stay illegal), and that a capture of
    /// the enemy general (open only to a piece that was face-down when the enemy moved) is always
    /// legal: it ends the game at once. Nothing is legal for a side whose general was captured.
    pub fn legal_moves_seen_mailbox(&self, hidden: u128, out: &mut Vec<MMove>) {
        out.clear();
        let c = self.turn;
        if self.general(c).is_none() {
            return;
        }
        let enemy_general = self.general(c.opponent());
        let mut pseudo = Vec::with_capacity(128);
        self.pseudo_moves(c, &mut pseudo);
        let only_king = self.general_moves_only();
        out.extend(pseudo.into_iter().filter(|&m| {
            if Some(m.to) == enemy_general {
                return true;
            }
            if only_king && self.board.get(m.from).is_none_or(|p| p.kind != Kind::General) {
                return false;
            }
            let left = hidden & !(1u128 << m.from | 1u128 << m.to);
            !self.after(m).in_check_seen(c, left)
        }));
        out.sort_unstable();
    }

    /// Pieces of `c` left on the board.
    pub fn count(&self, c: Color, k: Kind) -> usize {
        self.board.pieces().filter(|(_, p)| p.color == c && p.kind == k).count()
    }
}

/// The board field of the §3.6 start array [ASM].
pub const START_BOARD: &str = "mrnbakabnrm/11/1fc5cf1/1p1p1p1p1p1/11/11/1P1P1P1P1P1/1FC5CF1/11/MRNBAKABNRM";

static GEO: std::sync::OnceLock<Geometry> = std::sync::OnceLock::new();

/// The missile board (§3.2), built once.
pub fn geometry() -> &'static Geometry {
    GEO.get_or_init(Geometry::missile)
}
