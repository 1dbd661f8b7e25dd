//! Missile-xiangqi move generation on the core bitboard layout ([`crate::more::bits`]): the
//! same moves as [`MissilePosition::legal_moves`] and [`MissilePosition::legal_moves_seen`]
//! (RULES-more.md §0.3, §3.3-§3.5, §3.7 dead general, §3.8 [R] hidden checks), made and unmade
//! in place, for perft and the game's legal-move lists.
//!
//! Legality as in the core ([`crate::movegen`]): once per node the side to move's general gives
//! the pins (pieces of either side whose leaving their point may expose it) and the danger points
//! (where a piece would become an enemy cannon's screen); when the general is not attacked, most
//! moves are legal without being made ([`MissileBits::legal`]); the rest are made, tested and
//! unmade. The mailbox generator stays the reference ([`MissilePosition::legal_moves_mailbox`],
//! [`MissilePosition::legal_moves_seen_mailbox`]): `engine/tests/more_bits.rs` compares both.

use super::position::{Effect, MMove, MissilePosition};
use super::rules::{BaseOutcome, BaseReading, DeadGeneral, FighterBlock, MissileRules};
use crate::bitboard::Bitboard;
use crate::geometry::Square;
use crate::more::bits::BitGeo;
use crate::more::piece::Piece;
use crate::movegen::Counter;
use crate::piece::Color;

use crate::more::bits::kind::{GENERAL, ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER, FIGHTER, MISSILE};

/// A missile position on bitboards (see the module comment).
#[derive(Clone, Debug)]
pub struct MissileBits {
    g: &'static BitGeo,
    pieces: [[Bitboard; 11]; 2],
    occ: [Bitboard; 2],
    /// Piece code ([`Piece::code`]) per core square, 0 when empty.
    mail: [u8; 128],
    in_base: Bitboard,
    turn: Color,
    base_reading: BaseReading,
    base_illegal: bool,
    strict_dead_general: bool,
    fighter_two_of_three: bool,
}

/// What [`MissileBits::make`] needs to undo a move.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    mover: u8,
    target: u8,
    effect: Effect,
    in_base: Bitboard,
}

impl MissileBits {
    /// The bitboard form of `p`; `None` if its board does not fit the core layout (never for the
    /// 11x10 board of §3.2).
    pub fn new(p: &MissilePosition) -> Option<MissileBits> {
        let g = BitGeo::of(p.geo())?;
        let rules: &MissileRules = p.rules();
        let mut b = MissileBits {
            g,
            pieces: [[Bitboard::EMPTY; 11]; 2],
            occ: [Bitboard::EMPTY; 2],
            mail: [0; 128],
            in_base: Bitboard::EMPTY,
            turn: p.turn(),
            base_reading: rules.base_reading,
            base_illegal: rules.base_outcome == BaseOutcome::Illegal,
            strict_dead_general: rules.dead_general == DeadGeneral::Strict,
            fighter_two_of_three: rules.fighter_block == FighterBlock::AnyTwoOfThree,
        };
        for (s, pc) in p.board().pieces() {
            let q = g.bit(s);
            b.put(q, pc.code());
            if p.in_base(s) {
                b.in_base |= Bitboard::from_square(q);
            }
        }
        Some(b)
    }

    /// The board tables.
    pub fn geo(&self) -> &'static BitGeo {
        self.g
    }

    #[inline(always)]
    fn put(&mut self, q: Square, code: u8) {
        let Some(pc) = Piece::from_code(code) else { return };
        let bb = Bitboard::from_square(q);
        self.pieces[pc.color.index()][pc.kind.index()] ^= bb;
        self.occ[pc.color.index()] ^= bb;
        self.mail[q.index()] = code;
    }

    #[inline(always)]
    fn take(&mut self, q: Square) -> u8 {
        let code = self.mail[q.index()];
        if let Some(pc) = Piece::from_code(code) {
            let bb = Bitboard::from_square(q);
            self.pieces[pc.color.index()][pc.kind.index()] ^= bb;
            self.occ[pc.color.index()] ^= bb;
            self.mail[q.index()] = 0;
        }
        code
    }

    #[inline(always)]
    fn all(&self) -> Bitboard {
        self.occ[0] | self.occ[1]
    }

    /// What a move from `from` to `to` does (RULES-more.md §3.4, §3.5), for a pseudo-legal move.
    #[inline(always)]
    fn effect(&self, from: Square, to: Square) -> Effect {
        let target = self.mail[to.index()];
        if target == 0 {
            return Effect::Quiet;
        }
        let mover_kind = (self.mail[from.index()] - 1) % 11;
        let target_kind = (target - 1) % 11;
        let m = MISSILE as u8;
        if mover_kind == m && target_kind == m {
            let protected = match self.base_reading {
                BaseReading::Narrow => self.in_base.contains(from) && self.in_base.contains(to),
                BaseReading::Broad => self.in_base.contains(to),
            };
            if protected {
                Effect::SelfDestruct
            } else {
                Effect::Mutual
            }
        } else if mover_kind == m || (target_kind == m && mover_kind != CANNON as u8) {
            Effect::Mutual
        } else {
            Effect::Capture
        }
    }

    /// Plays the pseudo-legal move `from`-`to` (the side to move's piece) and returns its undo.
    #[inline]
    pub fn make(&mut self, from: Square, to: Square) -> Undo {
        let effect = self.effect(from, to);
        let in_base = self.in_base;
        let (mover, target);
        match effect {
            Effect::Quiet => {
                mover = self.take(from);
                target = 0;
                self.put(to, mover);
                self.in_base &= !(Bitboard::from_square(from) | Bitboard::from_square(to));
            }
            Effect::Capture => {
                target = self.take(to);
                mover = self.take(from);
                self.put(to, mover);
                self.in_base &= !(Bitboard::from_square(from) | Bitboard::from_square(to));
            }
            Effect::Mutual => {
                target = self.take(to);
                mover = self.take(from);
                self.in_base &= !(Bitboard::from_square(from) | Bitboard::from_square(to));
            }
            Effect::SelfDestruct => {
                mover = self.take(from);
                target = 0;
                self.in_base &= !Bitboard::from_square(from);
            }
        }
        self.turn = self.turn.opponent();
        Undo { mover, target, effect, in_base }
    }

    /// Takes back the move `from`-`to` played by [`MissileBits::make`].
    #[inline]
    pub fn unmake(&mut self, from: Square, to: Square, u: Undo) {
        self.turn = self.turn.opponent();
        match u.effect {
            Effect::Quiet | Effect::Capture => {
                self.take(to);
            }
            Effect::Mutual | Effect::SelfDestruct => {}
        }
        self.put(from, u.mover);
        if u.target != 0 {
            self.put(to, u.target);
        }
        self.in_base = u.in_base;
    }

    /// Whether the fighter leap with near points `near` and far point `far` is blocked by `occ`
    /// (RULES-more.md §3.3, §3.9 #4).
    #[inline(always)]
    fn fighter_blocked(&self, near: Bitboard, far: Bitboard, occ: Bitboard) -> bool {
        if self.fighter_two_of_three {
            (occ & (near | far)).more_than_one()
        } else {
            (occ & near) == near
        }
    }

    /// Whether `t` is attacked by a piece of `by` not on `hidden` (generals left out), as
    /// [`MissilePosition::attacked_unless`].
    fn attacked(&self, t: Square, by: Color, hidden: Bitboard) -> bool {
        let at = &self.g.at;
        let occ = self.all();
        let p = &self.pieces[by.index()];
        let seen = !hidden;
        if (at.chariot(t, occ) & (p[CHARIOT] | p[MISSILE]) & seen).any() {
            return true;
        }
        if (at.cannon_captures(t, occ) & p[CANNON] & seen).any() {
            return true;
        }
        if (at.horse_attackers(t, occ) & p[HORSE] & seen).any() {
            return true;
        }
        let fighters = p[FIGHTER] & seen;
        if fighters.any() {
            for l in &self.g.long_leap_from[t.index()] {
                if (l.target & fighters).any() && !self.fighter_blocked(l.near, l.far, occ) {
                    return true;
                }
            }
        }
        if (self.g.soldier_from[by.index()][t.index()] & p[SOLDIER] & seen).any() {
            return true;
        }
        let tb = Bitboard::from_square(t);
        if (tb & self.g.palace_diag[by.index()]).any() && (at.diagonal[t.index()] & p[ADVISOR] & self.g.palace_diag[by.index()] & seen).any() {
            return true;
        }
        (tb & self.g.half[by.index()]).any() && (at.elephant_targets(t, occ) & p[ELEPHANT] & seen).any()
    }

    /// Whether `c`'s general is attacked by a piece not on `hidden` or faces the other general
    /// (true when `c` has no general), as [`MissilePosition::in_check_seen`].
    fn in_check(&self, c: Color, hidden: Bitboard) -> bool {
        let Some(gs) = self.pieces[c.index()][GENERAL].first() else { return true };
        let generals = self.pieces[0][GENERAL] | self.pieces[1][GENERAL];
        self.attacked(gs, c.opponent(), hidden) || (self.g.at.file_line(gs, self.all()) & generals).any()
    }

    /// The pseudo-legal targets of the piece of colour `c` and kind `k` on `from` (RULES-more.md
    /// §0.3, §3.3; the general never takes a missile, §3.4; protected missile attacks left out
    /// under [`BaseOutcome::Illegal`], §3.5).
    #[inline(always)]
    fn targets(&self, from: Square, c: Color, k: usize) -> Bitboard {
        let at = &self.g.at;
        let occ = self.all();
        let own = self.occ[c.index()];
        let i = from.index();
        let t = match k {
            GENERAL => at.orthogonal[i] & self.g.palace[c.index()] & !self.pieces[c.opponent().index()][MISSILE],
            ADVISOR => {
                let d = self.g.palace_diag[c.index()];
                if d.contains(from) {
                    at.diagonal[i] & d
                } else {
                    Bitboard::EMPTY
                }
            }
            ELEPHANT => at.elephant_targets(from, occ) & self.g.half[c.index()],
            HORSE => at.horse_targets(from, occ),
            CHARIOT => at.chariot(from, occ),
            MISSILE => {
                let mut t = at.chariot(from, occ);
                if self.base_illegal {
                    let guarded = match self.base_reading {
                        BaseReading::Narrow if self.in_base.contains(from) => self.in_base,
                        BaseReading::Narrow => Bitboard::EMPTY,
                        BaseReading::Broad => self.in_base,
                    };
                    t &= !(guarded & self.pieces[c.opponent().index()][MISSILE]);
                }
                t
            }
            CANNON => {
                let (slides, jumps) = (at.chariot(from, occ), at.cannon_captures(from, occ));
                (slides & !occ) | (jumps & self.occ[c.opponent().index()])
            }
            SOLDIER => self.g.soldier[c.index()][i],
            FIGHTER => {
                let mut t = Bitboard::EMPTY;
                for l in &self.g.long_leap[i] {
                    if l.target.any() && !self.fighter_blocked(l.near, l.far, occ) {
                        t |= l.target;
                    }
                }
                t
            }
            _ => Bitboard::EMPTY,
        };
        t & !own
    }

    /// Pins and danger points of `c`'s general on `gs` ([`BitGeo::pins_and_danger`]), the
    /// missiles among the line pieces and the fighters' blocking points added.
    fn pins_and_danger(&self, c: Color, gs: Square) -> (Bitboard, Bitboard) {
        let g = self.g;
        let e = &self.pieces[c.opponent().index()];
        let sliders = e[CHARIOT] | e[MISSILE] | self.pieces[0][GENERAL] | self.pieces[1][GENERAL];
        let (mut pins, danger) = g.pins_and_danger(gs, self.all(), sliders, e[CANNON], e[HORSE], e[ELEPHANT]);
        if e[FIGHTER].any() {
            for l in &g.long_leap_from[gs.index()] {
                if (l.target & e[FIGHTER]).any() {
                    pins |= l.near | l.far;
                }
            }
        }
        (pins, danger)
    }

    /// Hands every legal move of the side to move to `sink` as (origin, set of destinations);
    /// with `hidden` (face-down squares, `seen` true) legality is decided on what the mover sees
    /// (RULES-more.md §3.8 [R] hidden checks, [`MissilePosition::legal_moves_seen`]).
    ///
    /// Not in check, a move of a piece other than the general that is not among the pins of
    /// [`MissileBits::pins_and_danger`] is legal without a test when it lands on an empty point
    /// that is not a danger point, or captures (the target point stays occupied), or destroys a
    /// target (both points emptied, §3.4) off the general's lines, diagonal neighbours and fighter
    /// blocking points. A face-down target that survives (a self-destruction, §3.5) turns face up
    /// and may then give check, so such moves are tested too. Every other move is made, tested
    /// and unmade.
    fn legal(&mut self, hidden: Bitboard, seen: bool, sink: &mut impl FnMut(Square, Bitboard)) {
        let c = self.turn;
        let Some(gs) = self.pieces[c.index()][GENERAL].first() else { return };
        let enemy_general = if seen { self.pieces[c.opponent().index()][GENERAL] } else { Bitboard::EMPTY };
        let g = self.g;
        let at = &g.at;
        let in_check = self.in_check(c, hidden);
        let occ = self.all();
        let enemy_missiles = self.pieces[c.opponent().index()][MISSILE];
        let only_king = self.strict_dead_general && (at.chariot(gs, occ) & enemy_missiles & g.palace[c.index()]).any();
        let (pins, danger) = if in_check { (Bitboard::EMPTY, Bitboard::EMPTY) } else { self.pins_and_danger(c, gs) };
        let mut near = at.lines(gs) | at.diagonal[gs.index()];
        for l in &g.long_leap_from[gs.index()] {
            near |= l.near | l.far;
        }
        let mut movers = self.occ[c.index()];
        while let Some(from) = movers.first() {
            movers.clear(from);
            let k = ((self.mail[from.index()] - 1) % 11) as usize;
            let t = self.targets(from, c, k);
            if t.is_empty() {
                continue;
            }
            let always = t & enemy_general;
            let rest = t & !enemy_general;
            if only_king && k != GENERAL {
                if always.any() {
                    sink(from, always);
                }
                continue;
            }
            let tested = if in_check || k == GENERAL || pins.contains(from) {
                rest
            } else {
                let destroyed = match k {
                    MISSILE => rest & occ,
                    CANNON => Bitboard::EMPTY,
                    _ => rest & enemy_missiles,
                };
                rest & (danger | (destroyed & near) | hidden)
            };
            let mut ok = (rest & !tested) | always;
            for to in tested {
                let u = self.make(from, to);
                let left = hidden & !(Bitboard::from_square(from) | Bitboard::from_square(to));
                if !self.in_check(c, left) {
                    ok.set(to);
                }
                self.unmake(from, to, u);
            }
            if ok.any() {
                sink(from, ok);
            }
        }
    }

    /// Number of legal moves of the side to move (see [`MissileBits::legal`]).
    fn count(&mut self, hidden: Bitboard, seen: bool) -> u64 {
        let mut n = Counter::new();
        self.legal(hidden, seen, &mut |_, t| n.add(t));
        u64::from(n.finish())
    }

    /// The legal moves of the side to move as (origin, destination) pairs of core squares.
    pub fn moves(&mut self, hidden: Bitboard, seen: bool) -> Vec<(Square, Square)> {
        let mut v = Vec::with_capacity(96);
        self.legal(hidden, seen, &mut |from, t| v.extend(t.map(|to| (from, to))));
        v
    }

    /// Leaf count at `depth` (RULES.md §P; bulk count at the last ply); with `seen`, the tree of
    /// the moves each side sees as legal under the face-down reading, `hidden` the face-down
    /// squares, each move turning its piece (and its target) face up.
    pub fn perft(&mut self, hidden: Bitboard, seen: bool, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count(hidden, seen);
        }
        let mut n = 0;
        for (from, to) in self.moves(hidden, seen) {
            let u = self.make(from, to);
            n += self.perft(hidden & !(Bitboard::from_square(from) | Bitboard::from_square(to)), seen, depth - 1);
            self.unmake(from, to, u);
        }
        n
    }

    /// A core-square move as the game's move.
    pub fn to_mmove(&self, from: Square, to: Square) -> MMove {
        MMove { from: self.g.sq(from), to: self.g.sq(to) }
    }

    /// The legal moves as the game's moves into `out`, in (from, to) order.
    fn legal_mmoves(&mut self, hidden: Bitboard, seen: bool, out: &mut Vec<MMove>) {
        out.clear();
        let g = self.g;
        self.legal(hidden, seen, &mut |from, t| out.extend(t.map(|to| MMove { from: g.sq(from), to: g.sq(to) })));
        out.sort_unstable();
    }
}

impl MissilePosition {
    /// The legal moves of the side to move, in (from, to) order (RULES-more.md §0.3,
    /// §3.3-§3.5, §3.7 dead general). On the bitboards ([`MissileBits`]) unless the board does
    /// not fit the core layout (never for the 11x10 board of §3.2), else
    /// [`MissilePosition::legal_moves_mailbox`]: the same list either way.
    pub fn legal_moves(&self, out: &mut Vec<MMove>) {
        match MissileBits::new(self) {
            Some(mut b) => b.legal_mmoves(Bitboard::EMPTY, false, out),
            None => self.legal_moves_mailbox(out),
        }
    }

    /// The legal moves of the side to move under the face-down reading, decided on what that
    /// side sees (RULES-more.md §3.8 [R] hidden checks), `hidden` holding the squares of
    /// face-down pieces (bit `s` for square `s`), in (from, to) order: see
    /// [`MissilePosition::legal_moves_seen_mailbox`] for the rule; on the bitboards as
    /// [`MissilePosition::legal_moves`].
    pub fn legal_moves_seen(&self, hidden: u128, out: &mut Vec<MMove>) {
        match MissileBits::new(self) {
            Some(mut b) => {
                let h = b.geo().from_mask(hidden);
                b.legal_mmoves(h, true, out);
            }
            None => self.legal_moves_seen_mailbox(hidden, out),
        }
    }
}
