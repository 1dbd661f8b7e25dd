//! Legal move generation for the position core (RULES.md §X2-X4).
//!
//! Pseudo-legal moves come from the attack tables masked by each type's region; a move is legal
//! if it does not leave the mover's general attacked (§X4) or facing the other general (§X3).
//!
//! Most moves are proven legal without making them. Once per node, `Position::safety` looks at
//! the general's four lines, its horse-leg points and (when minor pieces can attack it) its
//! elephant eyes, and finds:
//! - whether the general is in check;
//! - the *pinned* own pieces: those whose leaving their point can expose the general (the only
//!   piece between it and an enemy chariot, or enemy general on its file; one of the two pieces
//!   between it and an enemy cannon; a piece on the leg of an enemy horse aiming at it; a piece
//!   on the eye of an enemy elephant aiming at it);
//! - the *danger* points: empty points between the general and an enemy cannon with nothing
//!   between them (a "hollow" cannon). Any piece landing there becomes the cannon's screen.
//!
//! When not in check, a move of a piece other than the general, from an unpinned point, to a
//! point that is not a danger point, is legal: leaving an unpinned point opens no line, horse leg
//! or elephant eye onto the general, landing elsewhere than a danger point can only block, and a
//! capture removes an attacker without changing any occupancy. Only the general's moves, pinned
//! pieces' moves and every move while in check are tested in full
//! ([`Position::leaves_general_attacked`]); a non-general move to a danger point is always
//! illegal. In check, only the moves that capture or block the (first found) checker, or move
//! its cannon screen away, are tried. Bulk counting ([`Position::count_legal`], used at perft's
//! last ply) therefore adds whole target sets at once.

use crate::attacks::{Attacks, NORTH, SOUTH};
use crate::bitboard::Bitboard;
use crate::geometry::Square;
use crate::moves::{Move, MoveList};
use crate::piece::Role;
use crate::position::Position;

/// What the side to move must respect to keep its general safe, found once per node (see the
/// module comment).
#[derive(Copy, Clone, Debug)]
struct Safety {
    /// The general is attacked now.
    in_check: bool,
    /// Own pieces whose every move is tested in full.
    pinned: Bitboard,
    /// In check: a legal move other than the general's must land on one of these points (capture
    /// or block one checker, the first one found)...
    evade_to: Bitboard,
    /// ... or leave one of these (that checker's cannon screen). Not in check: all points, none.
    evade_from: Bitboard,
    /// Points that no piece other than the general may move to (a hollow cannon's line).
    danger: Bitboard,
}

/// Where generated legal moves go: a list, or just a count.
trait Sink {
    /// Whether moves must come in the order of [`Position::pseudo_legal_moves`].
    const ORDERED: bool;
    /// Whether every piece's legal destinations must come in one [`Sink::targets`] call (no
    /// [`Sink::one`], no [`Sink::count`]).
    const PER_PIECE: bool = false;
    /// Whether bulk counts must keep the pieces of [`Sink::extra_movers`] apart.
    const EXTRA: bool = false;
    /// Pieces whose moves to some points count twice ([`Position::count_legal_plus`]).
    fn extra_movers(&self) -> Bitboard {
        Bitboard::EMPTY
    }
    /// Adds the moves to `targets` of pieces among [`Sink::extra_movers`] (only called when
    /// [`Sink::EXTRA`]).
    fn count_extra(&mut self, _targets: Bitboard) {}
    /// Every point of `targets` is a legal destination of the piece on `from`.
    fn targets(&mut self, from: Square, targets: Bitboard);
    /// One legal move.
    fn one(&mut self, m: Move);
    /// Adds legal moves, one per point of `targets`, without saying which (only called when
    /// not [`Sink::ORDERED`]).
    fn count(&mut self, targets: Bitboard);
}

impl Sink for MoveList {
    const ORDERED: bool = true;
    #[inline(always)]
    fn targets(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to));
        }
    }
    #[inline(always)]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
    fn count(&mut self, _targets: Bitboard) {
        unreachable!("a move list is filled in order");
    }
}

/// Counts moves without listing them (bulk counting at perft's last ply): target sets are
/// added with [`Counter::add`], single moves with [`Counter::add_one`], and [`Counter::finish`]
/// gives the total. Variants use it to count actions derived from core moves.
///
/// Baseline x86-64 has no `popcnt` instruction, so `count_ones` costs about 35 instructions on a
/// `u128`. Instead of one count per target set, the sets are summed point by point in a
/// bit-sliced counter (`ones` + 2 `twos`, deeper overlaps counted at once, which is rare): an
/// addition is a few logical operations, and only `finish` counts bits.
#[derive(Clone, Debug, Default)]
pub struct Counter {
    ones: Bitboard,
    twos: Bitboard,
    /// Moves already counted (single moves, overflow of the bit-sliced counter).
    total: u32,
}

impl Counter {
    /// An empty count.
    #[inline(always)]
    pub fn new() -> Counter {
        Counter { ones: Bitboard::EMPTY, twos: Bitboard::EMPTY, total: 0 }
    }

    /// Adds one for each point of `targets`.
    #[inline(always)]
    pub fn add(&mut self, targets: Bitboard) {
        self.count(targets);
    }

    /// Adds `n`.
    #[inline(always)]
    pub fn add_n(&mut self, n: u32) {
        self.total += n;
    }

    /// The total so far.
    #[inline(always)]
    pub fn finish(&self) -> u32 {
        let mut n = self.total + self.ones.count();
        if self.twos.any() {
            n += 2 * self.twos.count();
        }
        n
    }
}

impl Sink for Counter {
    const ORDERED: bool = false;
    #[inline(always)]
    fn targets(&mut self, _from: Square, targets: Bitboard) {
        self.count(targets);
    }
    #[inline(always)]
    fn one(&mut self, _m: Move) {
        self.total += 1;
    }
    #[inline(always)]
    fn count(&mut self, targets: Bitboard) {
        let carry = self.ones & targets;
        self.ones ^= targets;
        if carry.any() {
            let carry2 = self.twos & carry;
            self.twos ^= carry;
            if carry2.any() {
                // Points reached by a fourth set: they held 3 (ones and twos) and now hold 4.
                self.total += 4 * carry2.count();
            }
        }
    }
}

/// Counts legal moves, moves of `movers` to `points` twice ([`Position::count_legal_plus`]).
struct PlusCounter {
    counter: Counter,
    movers: Bitboard,
    points: Bitboard,
}

impl Sink for PlusCounter {
    const ORDERED: bool = false;
    const EXTRA: bool = true;
    #[inline(always)]
    fn targets(&mut self, from: Square, targets: Bitboard) {
        self.counter.count(targets);
        // Most pieces reach none of the points: test that first. Membership by a table load,
        // not a variable `u128` shift (see `Bitboard::from_square`).
        let twice = targets & self.points;
        if twice.any() && (self.movers & Bitboard::from_square(from)).any() {
            self.counter.count(twice);
        }
    }
    #[inline(always)]
    fn one(&mut self, m: Move) {
        let twice = (self.movers & Bitboard::from_square(m.from)).any() && (self.points & Bitboard::from_square(m.to)).any();
        self.counter.total += 1 + u32::from(twice);
    }
    #[inline(always)]
    fn count(&mut self, targets: Bitboard) {
        self.counter.count(targets);
    }
    #[inline(always)]
    fn extra_movers(&self) -> Bitboard {
        self.movers
    }
    #[inline(always)]
    fn count_extra(&mut self, targets: Bitboard) {
        self.counter.count(targets);
        self.counter.count(targets & self.points);
    }
}

/// Hands each piece's whole set of legal destinations to a closure ([`Position::legal_targets`]).
struct PerPiece<F: FnMut(Square, Bitboard)>(F);

impl<F: FnMut(Square, Bitboard)> Sink for PerPiece<F> {
    const ORDERED: bool = false;
    const PER_PIECE: bool = true;
    #[inline(always)]
    fn targets(&mut self, from: Square, targets: Bitboard) {
        if targets.any() {
            (self.0)(from, targets);
        }
    }
    fn one(&mut self, _m: Move) {
        unreachable!("per-piece sinks take whole target sets");
    }
    fn count(&mut self, _targets: Bitboard) {
        unreachable!("per-piece sinks take whole target sets");
    }
}

impl Position {
    /// Appends every pseudo-legal move of the side to move (moves by §X2 shapes and regions,
    /// captures of enemy pieces only; the general's safety is not checked).
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        let us = self.turn();
        let ui = us.index();
        let rules = self.rules();
        let a = rules.attacks;
        let occ = self.occupied();
        let own = self.by_color(us);
        let enemy = self.by_color(us.opponent());
        let not_own = !own;
        let mut add = |from, targets: Bitboard| {
            for to in targets {
                list.push(Move::new(from, to));
            }
        };
        for from in self.pieces(us, Role::Chariot) {
            add(from, a.chariot(from, occ) & not_own);
        }
        for from in self.pieces(us, Role::Horse) {
            add(from, a.horse_targets(from, occ) & not_own & rules.region[ui][Role::Horse.index()]);
        }
        for from in self.pieces(us, Role::Cannon) {
            add(from, (a.chariot(from, occ) & !occ) | (a.cannon_captures(from, occ) & enemy));
        }
        for from in self.pieces(us, Role::Soldier) {
            add(from, a.soldier[ui][from.index()] & not_own & rules.region[ui][Role::Soldier.index()]);
        }
        for from in self.pieces(us, Role::Advisor) {
            add(from, a.diagonal[from.index()] & not_own & rules.region[ui][Role::Advisor.index()]);
        }
        for from in self.pieces(us, Role::Elephant) {
            add(from, a.elephant_targets(from, occ) & not_own & rules.region[ui][Role::Elephant.index()]);
        }
        let g = self.general(us);
        add(g, a.orthogonal[g.index()] & not_own & rules.region[ui][Role::General.index()]);
    }

    /// All legal moves of the side to move (§X2-X4), in the order of
    /// [`Position::pseudo_legal_moves`].
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// Appends the legal moves of the side to move to `list` (same moves and order as
    /// [`Position::legal_moves`]; lets a caller reuse one list).
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        self.generate_legal(list);
    }

    /// Removes from `list` the pseudo-legal moves that leave the mover's general attacked.
    #[inline]
    pub fn retain_legal(&self, list: &mut MoveList) {
        let s = self.safety();
        let g = self.general(self.turn());
        if s.in_check {
            list.retain(|m| !self.leaves_general_attacked(*m));
            return;
        }
        list.retain(|m| {
            if m.from == g || s.pinned.contains(m.from) {
                !self.leaves_general_attacked(*m)
            } else {
                !s.danger.contains(m.to)
            }
        });
    }

    /// Number of legal moves (for bulk-counted perft), without listing them.
    #[inline]
    pub fn count_legal(&self) -> usize {
        let mut c = Counter::new();
        self.generate_legal(&mut c);
        c.finish() as usize
    }

    /// [`Position::count_legal`] and [`Position::in_check`] from one look at the general's
    /// safety (variants whose extra actions depend on check, e.g. Surprise flips §S7).
    #[inline]
    pub fn count_legal_and_check(&self) -> (usize, bool) {
        let mut c = Counter::new();
        let in_check = self.generate_legal(&mut c);
        (c.finish() as usize, in_check)
    }

    /// [`Position::count_legal`] plus one for each legal move of a piece on `movers` to a point
    /// of `points` (a variant's second action per such move, e.g. turning face-down on arrival),
    /// and [`Position::in_check`], in one pass.
    #[inline]
    pub fn count_legal_plus(&self, movers: Bitboard, points: Bitboard) -> (usize, bool) {
        let mut c = PlusCounter { counter: Counter::new(), movers, points };
        let in_check = self.generate_legal(&mut c);
        (c.counter.finish() as usize, in_check)
    }

    /// Calls `f(from, targets)` once for each piece of the side to move that has a legal move,
    /// with all its legal destinations (the moves of [`Position::legal_moves`], grouped by
    /// piece, pieces in no particular order). Returns whether the side to move is in check.
    /// Lets variants count actions derived from core moves by whole target sets (bulk perft).
    #[inline]
    pub fn legal_targets(&self, f: impl FnMut(Square, Bitboard)) -> bool {
        self.generate_legal(&mut PerPiece(f))
    }

    /// Whether `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// The general's safety facts for the side to move (see the module comment). Must agree
    /// with [`Position::is_attacked_by`] on whether the general is attacked.
    #[inline(always)]
    fn safety(&self) -> Safety {
        let us = self.turn();
        let them = us.opponent();
        let ti = them.index();
        let rules = self.rules();
        let a = rules.attacks;
        let g = self.general(us);
        let gi = g.index();
        let occ = self.occupied();
        let own = self.by_color(us);
        let e_chariots = self.pieces(them, Role::Chariot);
        let e_cannons = self.pieces(them, Role::Cannon);
        let e_general = Bitboard::from_square(self.general(them));
        let mut in_check = false;
        let mut pinned = Bitboard::EMPTY;
        let mut danger = Bitboard::EMPTY;
        let mut evade_to = Bitboard(!0);
        let mut evade_from = Bitboard::EMPTY;
        // Records a check; the first checker found gives the evasion masks (any one checker's
        // masks are a superset of the legal non-general moves: every check must be answered).
        let mut check = |to: Bitboard, from: Bitboard| {
            if !in_check {
                evade_to = to;
                evade_from = from;
            }
            in_check = true;
        };

        // Lines: chariots (§X2), the enemy general along the file (§X3 flying general), cannons.
        // Along each ray from the general, with p1, p2, p3 the first occupied points:
        // a chariot at p1 checks, at p2 pins an own p1; a cannon at p1 makes the points before
        // it dangerous, at p2 checks, at p3 pins the own pieces among p1 and p2.
        for d in 0..4 {
            let ray = a.ray(d, g);
            let rooks = if d == NORTH || d == SOUTH { e_chariots | e_general } else { e_chariots };
            if ((rooks | e_cannons) & ray).is_empty() {
                continue;
            }
            let b = ray & occ;
            let p1 = Attacks::nearest_bit(d, b);
            if (p1 & rooks).any() {
                // Capture it or block the line.
                check(a.up_to_nearest(d, ray, occ), Bitboard::EMPTY);
                continue;
            }
            if (p1 & e_cannons).any() {
                danger |= a.up_to_nearest(d, ray, occ) ^ p1;
            }
            let b = b ^ p1;
            let p2 = Attacks::nearest_bit(d, b);
            if (p2 & rooks).any() {
                pinned |= p1 & own;
                continue;
            }
            if (p2 & e_cannons).any() {
                // Capture it, add a second screen, or move the screen (p1) away.
                check(a.up_to_nearest(d, ray, b), p1);
                continue;
            }
            let p3 = Attacks::nearest_bit(d, b ^ p2);
            if (p3 & e_cannons).any() {
                pinned |= (p1 | p2) & own;
            }
        }

        // Horses (§X2): a horse attacks through an empty leg; an own piece on the leg is pinned.
        let e_horses = self.pieces(them, Role::Horse);
        if (a.horse_reach[gi] & e_horses).any() {
            for &(leg, from) in &a.horse_from[gi] {
                if (from & e_horses).any() {
                    if (leg & occ).is_empty() {
                        check(leg | (from & e_horses), Bitboard::EMPTY);
                    } else {
                        pinned |= leg & own;
                    }
                }
            }
        }

        let soldiers = a.soldier_from[ti][gi] & self.pieces(them, Role::Soldier);
        if soldiers.any() {
            check(soldiers, Bitboard::EMPTY);
        }
        if (a.orthogonal[gi] & e_general).any() && rules.region[ti][Role::General.index()].contains(g) {
            check(e_general, Bitboard::EMPTY);
        }
        if rules.minor_attacks_general {
            let advisors = a.diagonal[gi] & self.pieces(them, Role::Advisor);
            if advisors.any() && rules.region[ti][Role::Advisor.index()].contains(g) {
                check(advisors, Bitboard::EMPTY);
            }
            let e_elephants = self.pieces(them, Role::Elephant);
            if rules.region[ti][Role::Elephant.index()].contains(g) {
                for &(eye, to) in &a.elephant[gi] {
                    if (to & e_elephants).any() {
                        if (eye & occ).is_empty() {
                            check(eye | (to & e_elephants), Bitboard::EMPTY);
                        } else {
                            pinned |= eye & own;
                        }
                    }
                }
            }
        }
        Safety { in_check, pinned, danger, evade_to, evade_from }
    }

    /// Emits the legal moves of the side to move into `sink`; in the order of
    /// [`Position::pseudo_legal_moves`] when the sink is [`Sink::ORDERED`]. Returns whether the
    /// side to move is in check.
    #[inline(always)]
    fn generate_legal<S: Sink>(&self, sink: &mut S) -> bool {
        let s = self.safety();
        let us = self.turn();
        let ui = us.index();
        let rules = self.rules();
        let a = rules.attacks;
        let occ = self.occupied();
        let own = self.by_color(us);
        let enemy = self.by_color(us.opponent());
        // Destinations open to a piece other than the general.
        let to_mask = !own & !s.danger;
        // Pieces whose moves are tested one by one: pinned ones, or all of them in check (then
        // only the moves that could answer the check, see `Safety::evade_to`).
        let slow = if s.in_check { own } else { s.pinned };
        self.emit(sink, &s, slow, self.pieces(us, Role::Chariot), |from| a.chariot(from, occ) & to_mask);
        let region = rules.region[ui][Role::Horse.index()];
        self.emit(sink, &s, slow, self.pieces(us, Role::Horse), |from| a.horse_targets(from, occ) & to_mask & region);
        self.emit(sink, &s, slow, self.pieces(us, Role::Cannon), |from| {
            let (slides, jumps) = a.line_and_jumps(from, occ);
            ((slides & !occ) | (jumps & enemy)) & !s.danger
        });
        let region = rules.region[ui][Role::Soldier.index()];
        let soldiers = self.pieces(us, Role::Soldier);
        if S::ORDERED || S::PER_PIECE {
            self.emit(sink, &s, slow, soldiers, |from| a.soldier[ui][from.index()] & to_mask & region);
        } else {
            // Counting: all free soldiers' steps at once, by direction.
            let free = soldiers & !slow;
            if S::EXTRA {
                let extra = free & sink.extra_movers();
                if extra.any() {
                    for steps in a.soldier_steps(us, extra) {
                        sink.count_extra(steps & to_mask & region);
                    }
                }
                let plain = free & !extra;
                if plain.any() {
                    for steps in a.soldier_steps(us, plain) {
                        sink.count(steps & to_mask & region);
                    }
                }
            } else if free.any() {
                for steps in a.soldier_steps(us, free) {
                    sink.count(steps & to_mask & region);
                }
            }
            self.emit(sink, &s, slow, soldiers & slow, |from| a.soldier[ui][from.index()] & to_mask & region);
        }
        let region = rules.region[ui][Role::Advisor.index()];
        self.emit(sink, &s, slow, self.pieces(us, Role::Advisor), |from| a.diagonal[from.index()] & to_mask & region);
        let region = rules.region[ui][Role::Elephant.index()];
        self.emit(sink, &s, slow, self.pieces(us, Role::Elephant), |from| {
            a.elephant_targets(from, occ) & to_mask & region
        });
        // The general: test each destination (§X3, §X4), seeing through the point it leaves.
        let g = self.general(us);
        let g_bb = Bitboard::from_square(g);
        let them = us.opponent();
        let mut legal = Bitboard::EMPTY;
        for to in a.orthogonal[g.index()] & !own & rules.region[ui][Role::General.index()] {
            let to_bb = Bitboard::from_square(to);
            if !self.attacked_by_inline(to, (occ ^ g_bb) | to_bb, them, !to_bb) {
                if S::PER_PIECE {
                    legal |= to_bb;
                } else {
                    sink.one(Move::new(g, to));
                }
            }
        }
        if S::PER_PIECE {
            sink.targets(g, legal);
        }
        s.in_check
    }

    /// Emits the moves of `pieces` (all of one type), whose pseudo-legal destinations, already
    /// masked for unpinned pieces, are `targets(from)`. Pieces in `slow` have each move tested.
    #[inline(always)]
    fn emit<S: Sink>(
        &self,
        sink: &mut S,
        s: &Safety,
        slow: Bitboard,
        pieces: Bitboard,
        targets: impl Fn(Square) -> Bitboard,
    ) {
        if S::ORDERED {
            for from in pieces {
                if slow.contains(from) {
                    self.emit_tested(sink, s, from, targets(from));
                } else {
                    sink.targets(from, targets(from));
                }
            }
        } else {
            for from in pieces & !slow {
                sink.targets(from, targets(from));
            }
            for from in pieces & slow {
                self.emit_tested(sink, s, from, targets(from));
            }
        }
    }

    /// Emits the moves from `from` to `targets` that pass the full test (in check, only those
    /// that could answer the check are tried).
    #[inline(always)]
    fn emit_tested<S: Sink>(&self, sink: &mut S, s: &Safety, from: Square, targets: Bitboard) {
        let targets = if s.evade_from.contains(from) { targets } else { targets & s.evade_to };
        let mut legal = Bitboard::EMPTY;
        for to in targets {
            let m = Move::new(from, to);
            if !self.leaves_general_attacked(m) {
                if S::PER_PIECE {
                    legal.set(to);
                } else {
                    sink.one(m);
                }
            }
        }
        if S::PER_PIECE {
            sink.targets(from, legal);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::Attacks;
    use crate::geometry::Geometry;
    use crate::notation::fen;
    use crate::piece::{Color, Piece};
    use crate::rules::Rules;
    use rand::{Rng, SeedableRng};

    /// Whether a piece of `by` other than one on `skip` attacks `sq` under `occ`, square by
    /// square from the §X2 move shapes (independent of the attack tables).
    fn naive_attacked(pos: &Position, sq: Square, occ: Bitboard, by: Color, skip: Square) -> bool {
        let rules = pos.rules();
        let g = &rules.attacks.geometry;
        let (tf, tr) = (sq.file() as i32, sq.rank() as i32);
        let empty = |f: i32, r: i32| !occ.contains(Square::new(f as u8, r as u8).expect("on board"));
        // Occupied points strictly between two points on one line.
        let between = |f0: i32, r0: i32| -> u32 {
            let (df, dr) = ((tf - f0).signum(), (tr - r0).signum());
            let (mut f, mut r, mut n) = (f0 + df, r0 + dr, 0);
            while (f, r) != (tf, tr) {
                n += u32::from(!empty(f, r));
                f += df;
                r += dr;
            }
            n
        };
        for s in g.squares() {
            let Some(p) = pos.piece_at(s) else { continue };
            if p.color != by || s == skip || s == sq {
                continue;
            }
            let (f, r) = (s.file() as i32, s.rank() as i32);
            let (df, dr) = (tf - f, tr - r);
            let line = df == 0 || dr == 0;
            let region = |role: Role| rules.region[by.index()][role.index()].contains(sq);
            let hit = match p.role {
                Role::Chariot => line && between(f, r) == 0,
                Role::Cannon => line && between(f, r) == 1,
                Role::General => (df == 0 && between(f, r) == 0) || (df.abs() + dr.abs() == 1 && region(Role::General)),
                Role::Horse => {
                    (df.abs() == 1 && dr.abs() == 2 && empty(f, r + dr.signum()))
                        || (df.abs() == 2 && dr.abs() == 1 && empty(f + df.signum(), r))
                }
                Role::Soldier => {
                    let fwd = if by == Color::Red { 1 } else { -1 };
                    (df == 0 && dr == fwd) || (dr == 0 && df.abs() == 1 && !g.in_own_half(by, s))
                }
                Role::Advisor => rules.minor_attacks_general && df.abs() == 1 && dr.abs() == 1 && region(Role::Advisor),
                Role::Elephant => {
                    rules.minor_attacks_general
                        && df.abs() == 2
                        && dr.abs() == 2
                        && empty(f + df / 2, r + dr / 2)
                        && region(Role::Elephant)
                }
            };
            if hit {
                return true;
            }
        }
        false
    }

    /// The reference definition: pseudo-legal moves after which no enemy piece attacks the
    /// mover's general (the captured piece no longer attacks).
    fn reference(pos: &Position) -> Vec<Move> {
        let mut list = MoveList::new();
        pos.pseudo_legal_moves(&mut list);
        let us = pos.turn();
        list.iter()
            .copied()
            .filter(|m| {
                let occ = (pos.occupied() ^ Bitboard::from_square(m.from)) | Bitboard::from_square(m.to);
                let g = if m.from == pos.general(us) { m.to } else { pos.general(us) };
                let naive = naive_attacked(pos, g, occ, us.opponent(), m.to);
                assert_eq!(naive, pos.leaves_general_attacked(*m), "{m:?} in {pos:?}");
                !naive
            })
            .collect()
    }

    /// `legal_targets` gives the reference moves grouped by piece, each piece once, and
    /// `count_legal_and_check` agrees with `count_legal` and `in_check`.
    fn check_grouped(pos: &Position, want: &[Move]) {
        let mut got = Vec::new();
        let mut seen = Bitboard::EMPTY;
        let in_check = pos.legal_targets(|from, targets| {
            assert!(!seen.contains(from), "{pos:?}: {from} twice");
            seen.set(from);
            got.extend(targets.map(|to| Move::new(from, to)));
        });
        let mut want = want.to_vec();
        want.sort_by_key(|m| (m.from.index(), m.to.index()));
        got.sort_by_key(|m| (m.from.index(), m.to.index()));
        assert_eq!(got, want, "{pos:?}");
        assert_eq!(in_check, pos.in_check(), "{pos:?}");
        assert_eq!(pos.count_legal_and_check(), (want.len(), in_check), "{pos:?}");
        // Movers (own pieces) and points picked by the bits of the position's hash.
        let h = pos.hash();
        let movers = Bitboard(pos.by_color(pos.turn()).0 & (u128::from(h.rotate_left(29)) << 64 | u128::from(h)));
        let points = Bitboard(u128::from(h.rotate_left(17)) << 56 | u128::from(h.rotate_left(7)));
        let plus = want.iter().filter(|m| movers.contains(m.from) && points.contains(m.to)).count();
        assert_eq!(pos.count_legal_plus(movers, points), (want.len() + plus, in_check), "{pos:?}");
    }

    /// Random games from the perft positions: the fast generator, the counter and
    /// `retain_legal` agree with the reference at every node.
    #[test]
    fn fast_legality_matches_reference() {
        let fens = [
            fen::START,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
            "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
            "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
            "4k4/4a4/9/9/9/9/4c4/9/R8/4K4 w - - 0 1",
            "3k5/9/3c5/9/9/3R5/9/3N5/4A4/3K5 w - - 0 1",
        ];
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        let mut nodes = 0;
        for f in fens {
            for _ in 0..300 {
                let mut pos = fen::parse(f).expect("valid FEN");
                for _ in 0..150 {
                    let want = reference(&pos);
                    let got = pos.legal_moves();
                    assert_eq!(got.as_slice(), &want[..], "{pos:?}");
                    assert_eq!(pos.count_legal(), want.len(), "{pos:?}");
                    check_grouped(&pos, &want);
                    let mut list = MoveList::new();
                    pos.pseudo_legal_moves(&mut list);
                    pos.retain_legal(&mut list);
                    assert_eq!(list.as_slice(), &want[..], "{pos:?}");
                    nodes += 1;
                    if want.is_empty() {
                        break;
                    }
                    pos.play(want[rng.random_range(0..want.len())]);
                }
            }
        }
        assert!(nodes > 100_000);
    }

    /// Compares the generator with the reference along a random game from `pos`.
    fn walk(mut pos: Position, plies: usize, rng: &mut rand_pcg::Pcg64) -> usize {
        for n in 0..plies {
            let want = reference(&pos);
            assert_eq!(pos.legal_moves().as_slice(), &want[..], "{pos:?}");
            assert_eq!(pos.count_legal(), want.len(), "{pos:?}");
            check_grouped(&pos, &want);
            let mut list = MoveList::new();
            pos.pseudo_legal_moves(&mut list);
            pos.retain_legal(&mut list);
            assert_eq!(list.as_slice(), &want[..], "{pos:?}");
            if want.is_empty() {
                return n + 1;
            }
            pos.play(want[rng.random_range(0..want.len())]);
        }
        plies
    }

    /// Random placements of random material (both generals in their palaces, every other piece
    /// anywhere its region allows) under `rules`, each followed by a random game.
    fn random_positions(rules: &'static Rules, seed: u64) -> usize {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        let g = &rules.attacks.geometry;
        let squares: Vec<Square> = g.squares().collect();
        let mut nodes = 0;
        let mut tries = 0;
        while nodes < 40_000 {
            tries += 1;
            assert!(tries < 100_000, "too few valid placements");
            let turn = if rng.random_bool(0.5) { Color::Red } else { Color::Black };
            let mut setup = crate::position::Setup { turn, ..Default::default() };
            for c in Color::ALL {
                let palace: Vec<Square> = rules.region[c.index()][0].collect();
                let sq = palace[rng.random_range(0..palace.len())];
                setup.board[sq.index()] = Some(Piece::new(c, Role::General));
            }
            for _ in 0..rng.random_range(2..24) {
                let sq = squares[rng.random_range(0..squares.len())];
                let role = Role::ALL[rng.random_range(1..Role::COUNT)];
                let c = Color::ALL[rng.random_range(0..2)];
                if setup.board[sq.index()].is_none() && rules.region[c.index()][role.index()].contains(sq) {
                    setup.board[sq.index()] = Some(Piece::new(c, role));
                }
            }
            if let Ok(pos) = Position::from_setup(&setup, rules) {
                nodes += walk(pos, 40, &mut rng);
            }
        }
        nodes
    }

    /// Rules on `geometry` with the standard regions, any placement allowed.
    fn loose_rules(geometry: Geometry, minor: bool) -> &'static Rules {
        let attacks: &'static Attacks = Box::leak(Box::new(Attacks::new(&geometry)));
        let g = &attacks.geometry;
        let mut region = [[g.board; Role::COUNT]; 2];
        for c in Color::ALL {
            region[c.index()][Role::General.index()] = g.palace[c.index()];
            if !minor {
                region[c.index()][Role::Advisor.index()] = g.palace[c.index()];
                region[c.index()][Role::Elephant.index()] = g.half[c.index()];
            }
        }
        Box::leak(Box::new(Rules {
            attacks,
            region,
            reachable: [[g.board; Role::COUNT]; 2],
            minor_attacks_general: minor,
            limit_counts: false,
            end: crate::rules::EndRules::default(),
        }))
    }

    #[test]
    fn random_placements_match_reference() {
        random_positions(Rules::standard(), 1);
        random_positions(loose_rules(Geometry::new(9, 10), false), 2);
    }

    /// Fan-qi style rules: advisors and elephants anywhere, and able to attack the general.
    #[test]
    fn minor_attackers_match_reference() {
        random_positions(loose_rules(Geometry::new(9, 10), true), 3);
    }

    /// Other board sizes (RULES-more.md), up to 11x11.
    #[test]
    fn other_boards_match_reference() {
        random_positions(loose_rules(Geometry::new(11, 11), false), 4);
        random_positions(loose_rules(Geometry::new(11, 11), true), 5);
        random_positions(loose_rules(Geometry::new(7, 8), false), 6);
        random_positions(loose_rules(Geometry::new(5, 5), true), 7);
    }
}
