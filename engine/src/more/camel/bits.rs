//! Camel-xiangqi move generation on the core bitboard layout ([`crate::more::bits`]) for the
//! nodes that need none of the editions' special machinery (RULES-more.md §2.4 piece rules, §2.6
//! legality with redemption, §2.7-§2.11 plates): a board of at most 11 files (the 13- and
//! 15-file boards keep the mailbox path, §2.14 #1), no stack on the board (§2.10), no
//! redemption pending (§2.6), no active trick (§2.9) and no promotion window that a trick could
//! open, and under stacking rule set I nothing (every pair may stack there). Most nodes of a
//! game and of perft are such nodes; the others keep the mailbox generator of
//! [`super::movegen`] ([`CamelPosition::legal_actions_mailbox`]).
//!
//! In such a node the piece moves come from the bitboards (under the number face of edition 7,
//! §2.11, with the opponent's soldiers' freeze recomputed after moves onto, off or on its
//! plate); plate actions, moves that form a stack and general moves while its plate shows the
//! trick face are generated or tested by the mailbox rules. "Check" is §2.6's: facing, or a
//! capture of the general that no own camel could redeem (any capture in edition 1). Not
//! attacked at all, a move of an unpinned piece other than the general that captures or lands
//! off the danger points ([`BitGeo::pins_and_danger`], with the camels' blocking points) is
//! legal without being made. The mailbox generator stays the reference:
//! `engine/tests/more_bits.rs` compares both.

use super::movegen::CAction;
use super::position::CamelPosition;
use super::rules::StackRules;
use crate::bitboard::Bitboard;
use crate::geometry::Square;
use crate::more::bits::BitGeo;
use crate::more::geometry::Sq;
use crate::more::piece::Kind;
use crate::movegen::Counter;
use crate::piece::Color;

use crate::more::bits::kind::{GENERAL, ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER, CAMEL, CHANCELLOR};

/// Kinds that may form a stack (§2.10).
fn eligible(k: usize) -> bool {
    matches!(k, HORSE | CHARIOT | CANNON | CAMEL)
}

/// A camel position's pieces on the core layout, for a node without special machinery.
#[derive(Copy, Clone)]
struct Bits {
    g: &'static BitGeo,
    pieces: [[Bitboard; 11]; 2],
    occ: [Bitboard; 2],
    mail: [u8; 128],
    /// Each side's plate (palace, wherever it lies) and its diagonals.
    plate: [Bitboard; 2],
    plate_diag: [Bitboard; 2],
    /// Each side's soldiers may not move (number face, §2.11).
    frozen: [bool; 2],
    /// The squares touching each side's plate (§2.7 blocked rotation).
    ring: [Bitboard; 2],
    /// The opponent's plate when it shows the number face (§2.11): moves onto or off it, and
    /// captures on it, may change whether its soldiers are frozen.
    watch: Bitboard,
    /// The numbers of the opponent's plate cells by core square (0 elsewhere; number face only).
    numbers: [(Square, u8); 9],
    /// The side to move's general moves are decided by the mailbox rules (trick face up).
    slow_general: bool,
    /// Stacking is possible (edition 6+, rule set II).
    stacking: bool,
    /// The side to move's crossed soldiers may retreat (§2.8 window).
    retreat: bool,
    redemption: bool,
}

impl Bits {
    /// Whether the node needs none of the special machinery (see the module comment), stacks
    /// and foreign pieces apart (checked by the scan of [`Bits::new`]).
    fn admits(p: &CamelPosition) -> bool {
        let r = &p.rules;
        if p.redeem.is_some() || (r.stacking() && r.stacking == StackRules::I) {
            return false;
        }
        let c = p.turn;
        for side in Color::ALL {
            if p.plates[side.index()].trick_up() && p.trick(side).is_some() {
                return false;
            }
        }
        !(p.promo_window[c.index()].is_some() && p.plates[c.index()].trick_up())
    }

    fn new(p: &CamelPosition) -> Option<Bits> {
        let g = BitGeo::of(p.geo())?;
        if !Self::admits(p) {
            return None;
        }
        let mut b = Bits {
            g,
            pieces: [[Bitboard::EMPTY; 11]; 2],
            occ: [Bitboard::EMPTY; 2],
            mail: [0; 128],
            plate: [Bitboard::EMPTY; 2],
            plate_diag: [Bitboard::EMPTY; 2],
            frozen: [false; 2],
            ring: [Bitboard::EMPTY; 2],
            watch: Bitboard::EMPTY,
            numbers: [(Square::new_unchecked(0), 0); 9],
            slow_general: false,
            stacking: false,
            retreat: false,
            redemption: false,
        };
        let n = p.geo().len();
        // Eight squares at a time, skipping empty runs (most of the board).
        for (base, (chunk, under)) in p.board.codes().chunks(8).zip(p.under[..n].chunks(8)).enumerate() {
            let mut word = [0u8; 8];
            word[..under.len()].copy_from_slice(under);
            if u64::from_le_bytes(word) != 0 {
                return None;
            }
            word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            let mut w = u64::from_le_bytes(word);
            while w != 0 {
                let byte = w.trailing_zeros() / 8;
                let code = (w >> (byte * 8)) as u8;
                w &= !(0xFFu64 << (byte * 8));
                // Piece codes: 1 + 11 * colour + kind (`Piece::code`).
                let (color, k) = (usize::from(code > 11), usize::from((code - 1) % 11));
                let q = g.bit((base * 8) as Sq + byte as Sq);
                let bb = Bitboard::from_square(q);
                b.pieces[color][k] |= bb;
                b.occ[color] |= bb;
                b.mail[q.index()] = code;
            }
        }
        if (b.pieces[0][Kind::Fighter as usize] | b.pieces[1][Kind::Fighter as usize] | b.pieces[0][Kind::Missile as usize] | b.pieces[1][Kind::Missile as usize]).any() {
            return None;
        }
        let geo = p.geo();
        for side in Color::ALL {
            for col in 0..3 {
                for row in 0..3 {
                    let q = g.bb(p.cell_square(side, col, row));
                    b.plate[side.index()] |= q;
                    if (col + row) % 2 == 0 {
                        b.plate_diag[side.index()] |= q;
                    }
                }
            }
            let (f0, r0) = p.plates[side.index()].origin;
            for f in f0 as i16 - 1..=f0 as i16 + 3 {
                for r in r0 as i16 - 1..=r0 as i16 + 3 {
                    if f >= 0 && r >= 0 && f < geo.files as i16 && r < geo.ranks as i16 {
                        b.ring[side.index()] |= g.bb(geo.sq(f as u8, r as u8));
                    }
                }
            }
            b.ring[side.index()] &= !b.plate[side.index()];
        }
        b.finish(p);
        Some(b)
    }

    /// Sets what follows from the position besides pieces and plates.
    fn finish(&mut self, p: &CamelPosition) {
        let r = &p.rules;
        let c = p.turn;
        for side in Color::ALL {
            self.frozen[side.index()] = p.frozen(side);
        }
        let o = c.opponent();
        let plate = &p.plates[o.index()];
        self.watch = Bitboard::EMPTY;
        if plate.number_up() {
            self.watch = self.plate[o.index()];
            for col in 0..3u8 {
                for row in 0..3u8 {
                    let q = self.g.bit(p.cell_square(o, col, row));
                    self.numbers[usize::from(col * 3 + row)] = (q, plate.up[col as usize][row as usize] - super::position::NUMBER);
                }
            }
        }
        self.slow_general = p.plates[c.index()].trick_up();
        self.stacking = r.stacking();
        self.retreat = r.translation() && p.last_act[c.opponent().index()] == super::position::LastAct::Palace;
        self.redemption = r.redemption();
    }

    /// The bitboards of `q`, the position after this node's plain move or landing capture (or
    /// 丞 jump over `eye`) from `from` to `to`; `None` where `q` needs the mailbox rules.
    fn after_move(&self, q: &CamelPosition, from: Square, to: Square, eye: Bitboard) -> Option<Bits> {
        if !Self::admits(q) {
            return None;
        }
        let mut b = Bits { ..*self };
        for sq in eye | Bitboard::from_square(to) {
            let code = b.mail[sq.index()];
            if code != 0 {
                let (color, k) = (usize::from(code > 11), usize::from((code - 1) % 11));
                let bb = Bitboard::from_square(sq);
                b.pieces[color][k] ^= bb;
                b.occ[color] ^= bb;
                b.mail[sq.index()] = 0;
            }
        }
        let code = b.mail[from.index()];
        let (color, k) = (usize::from(code > 11), usize::from((code - 1) % 11));
        let moved = Bitboard::from_square(from) | Bitboard::from_square(to);
        b.pieces[color][k] ^= moved;
        b.occ[color] ^= moved;
        b.mail[from.index()] = 0;
        b.mail[to.index()] = code;
        b.finish(q);
        Some(b)
    }

    #[inline(always)]
    fn all(&self) -> Bitboard {
        self.occ[0] | self.occ[1]
    }

    /// The pieces of `by` that can capture on `t` through `occ` (§2.4 rules, no trick), those on
    /// `gone` left out; a 丞 never captures by landing.
    fn attackers(&self, t: Square, by: Color, occ: Bitboard, gone: Bitboard, frozen: bool) -> Bitboard {
        let g = self.g;
        let at = &g.at;
        let p = &self.pieces[by.index()];
        let b = by.index();
        let i = t.index();
        let tb = Bitboard::from_square(t);
        let mut a = (at.chariot(t, occ) & p[CHARIOT]) | (at.cannon_captures(t, occ) & p[CANNON]) | (at.horse_attackers(t, occ) & p[HORSE]);
        if !frozen {
            a |= g.soldier_from[b][i] & p[SOLDIER];
        }
        if p[CAMEL].any() {
            for l in &g.camel_from[i] {
                if (l.target & p[CAMEL]).any() && (l.block & occ).is_empty() {
                    a |= l.target;
                }
            }
        }
        if (tb & self.plate_diag[b]).any() {
            a |= at.diagonal[i] & p[ADVISOR] & self.plate_diag[b];
        }
        if (tb & g.half[b]).any() {
            a |= at.elephant_targets(t, occ) & p[ELEPHANT];
        }
        if (tb & self.plate[b]).any() {
            a |= at.orthogonal[i] & p[GENERAL];
        }
        a & !gone
    }

    /// Whether the general of `c` on `gs` is in check (§2.6 point 3) with occupancy `occ`, the
    /// enemy pieces on `gone` captured and `c`'s camels `camels`: facing, or an enemy capture no
    /// camel of `c` redeems (any capture without redemption, or one by a camel).
    fn check(&self, c: Color, gs: Square, occ: Bitboard, gone: Bitboard, camels: Bitboard, frozen: bool) -> bool {
        let generals = (self.pieces[0][GENERAL] | self.pieces[1][GENERAL]) & occ & !gone;
        if (self.g.at.file_line(gs, occ) & generals).any() {
            return true;
        }
        let a = self.attackers(gs, c.opponent(), occ, gone, frozen);
        if a.is_empty() {
            return false;
        }
        if !self.redemption || (a & self.pieces[c.opponent().index()][CAMEL]).any() {
            return true;
        }
        // After each capture, could a camel of `c` leap back onto the general's point?
        for x in a {
            let occ3 = occ & !Bitboard::from_square(x);
            let redeemed = self.g.camel_from[gs.index()].iter().any(|l| (l.target & camels).any() && (l.block & occ3).is_empty());
            if !redeemed {
                return true;
            }
        }
        false
    }

    /// Whether a move of `c`'s piece of kind `k` from `from` to `to` leaves `c` in check; `eye`
    /// is the point of a piece a 丞 jumps and captures (empty otherwise).
    fn leaves_check(&self, c: Color, k: usize, from: Square, to: Square, eye: Bitboard) -> bool {
        let (fb, tb) = (Bitboard::from_square(from), Bitboard::from_square(to));
        let occ = ((self.all() & !fb) | tb) & !eye;
        let gone = tb | eye;
        let own = &self.pieces[c.index()];
        let (gs, camels) = match k {
            GENERAL => (to, own[CAMEL]),
            CAMEL => match own[GENERAL].first() {
                Some(gs) => (gs, (own[CAMEL] & !fb) | tb),
                None => return true,
            },
            _ => match own[GENERAL].first() {
                Some(gs) => (gs, own[CAMEL]),
                None => return true,
            },
        };
        self.check(c, gs, occ, gone, camels, self.frozen_after(c, from, to, eye))
    }

    /// Whether the opponent of `c` has its soldiers frozen after `c`'s move from `from` to `to`
    /// capturing what stands on `to` and `eye` (§2.11: the numbers under `c`'s pieces on its
    /// plate sum to more than those under its own).
    fn frozen_after(&self, c: Color, from: Square, to: Square, eye: Bitboard) -> bool {
        let o = c.opponent().index();
        if self.watch.is_empty() || (self.watch & (Bitboard::from_square(from) | Bitboard::from_square(to) | eye)).is_empty() {
            return self.frozen[o];
        }
        let (mut mine, mut theirs) = (0u32, 0u32);
        for &(q, n) in &self.numbers {
            let code = if q == from || eye.contains(q) {
                0
            } else if q == to {
                self.mail[from.index()]
            } else {
                self.mail[q.index()]
            };
            if code == 0 {
                continue;
            }
            if usize::from(code > 11) == o {
                theirs += u32::from(n);
            } else {
                mine += u32::from(n);
            }
        }
        mine > theirs
    }

    /// The piece targets of `c`'s piece of kind `k` on `from`: (plain moves and landing
    /// captures, 丞 jumps as the landing points, own pieces a stack may form on).
    fn targets(&self, from: Square, c: Color, k: usize) -> (Bitboard, Bitboard, Bitboard) {
        let g = self.g;
        let at = &g.at;
        let occ = self.all();
        let own = self.occ[c.index()];
        let enemy = self.occ[c.opponent().index()];
        let i = from.index();
        let ci = c.index();
        let (t, jumps) = match k {
            GENERAL => (at.orthogonal[i] & self.plate[ci], Bitboard::EMPTY),
            ADVISOR if self.plate_diag[ci].contains(from) => (at.diagonal[i] & self.plate_diag[ci], Bitboard::EMPTY),
            ELEPHANT => (at.elephant_targets(from, occ) & g.half[ci], Bitboard::EMPTY),
            CHANCELLOR => {
                let mut quiet = Bitboard::EMPTY;
                let mut jumps = Bitboard::EMPTY;
                let enemy_ok = enemy & !self.pieces[c.opponent().index()][GENERAL];
                for &(eye, target) in &at.elephant[i] {
                    if (target & g.half[ci] & !occ).is_empty() {
                        continue;
                    }
                    if (eye & occ).is_empty() {
                        quiet |= target;
                    } else if (eye & enemy_ok).any() {
                        jumps |= target;
                    }
                }
                (quiet, jumps)
            }
            HORSE => (at.horse_targets(from, occ), Bitboard::EMPTY),
            CAMEL => {
                let mut t = Bitboard::EMPTY;
                for l in &g.camel[i] {
                    if (l.block & occ).is_empty() {
                        t |= l.target;
                    }
                }
                (t, Bitboard::EMPTY)
            }
            CHARIOT => (at.chariot(from, occ), Bitboard::EMPTY),
            CANNON => {
                let slides = at.chariot(from, occ);
                ((slides & !enemy) | (at.cannon_captures(from, occ) & enemy), Bitboard::EMPTY)
            }
            SOLDIER if !self.frozen[ci] => {
                let mut t = g.soldier[ci][i];
                if self.retreat {
                    t |= g.soldier_back[ci][i];
                }
                (t, Bitboard::EMPTY)
            }
            _ => (Bitboard::EMPTY, Bitboard::EMPTY),
        };
        let stack = if self.stacking && eligible(k) { t & own } else { Bitboard::EMPTY };
        (t & !own, jumps, stack)
    }

    /// Hands the legal piece moves to `sink` as (origin, set of destinations) where the move is
    /// a plain move or landing capture, and the other legal actions one by one to `one` (丞
    /// jumps, stacks, moves decided by the mailbox rules).
    fn legal(&self, p: &CamelPosition, sink: &mut impl FnMut(Square, Bitboard), one: &mut impl FnMut(CAction)) {
        let c = p.turn;
        let Some(gs) = self.pieces[c.index()][GENERAL].first() else { return };
        let occ = self.all();
        let own = &self.pieces[c.index()];
        let frozen_o = self.frozen[c.opponent().index()];
        let quiet_now = !self.check(c, gs, occ, Bitboard::EMPTY, own[CAMEL], frozen_o) && self.attackers(gs, c.opponent(), occ, Bitboard::EMPTY, frozen_o).is_empty();
        let (mut pins, danger) = if quiet_now {
            let e = &self.pieces[c.opponent().index()];
            let sliders = e[CHARIOT] | self.pieces[0][GENERAL] | self.pieces[1][GENERAL];
            self.g.pins_and_danger(gs, occ, sliders, e[CANNON], e[HORSE], e[ELEPHANT])
        } else {
            (Bitboard::EMPTY, Bitboard::EMPTY)
        };
        if quiet_now {
            for l in &self.g.camel_from[gs.index()] {
                if (l.target & self.pieces[c.opponent().index()][CAMEL]).any() {
                    pins |= l.block;
                }
            }
        }
        let g = self.g;
        let mv = |from: Square, to: Square| CAction::Move { from: g.sq(from), to: g.sq(to), unit: false, promote: None };
        let mut movers = self.occ[c.index()];
        while let Some(from) = movers.first() {
            movers.clear(from);
            let k = usize::from((self.mail[from.index()] - 1) % 11);
            let (t, jumps, stack) = self.targets(from, c, k);
            for to in stack {
                // Rule set II (§2.10): only singleton types of two different kinds; the
                // mailbox rules check the rest (neither point attacked).
                let tk = usize::from((self.mail[to.index()] - 1) % 11);
                if k == tk || own[k].more_than_one() || own[tk].more_than_one() {
                    continue;
                }
                if p.may_stack(g.sq(from), g.sq(to)) && slow_legal(p, mv(from, to)) {
                    one(mv(from, to));
                }
            }
            for to in jumps {
                // The jumped piece sits on the eye, half-way.
                let eye = Bitboard::from_square(Square::new_unchecked(((from.raw() as u16 + to.raw() as u16) / 2) as u8));
                if !self.leaves_check(c, k, from, to, eye) {
                    one(mv(from, to));
                }
            }
            if t.is_empty() {
                continue;
            }
            let slow = if k == GENERAL && self.slow_general { t } else { Bitboard::EMPTY };
            let tested = if !quiet_now || k == GENERAL || pins.contains(from) || self.watch.contains(from) { t & !slow } else { t & (danger | self.watch) & !slow };
            let mut ok = t & !tested & !slow;
            for to in tested {
                if !self.leaves_check(c, k, from, to, Bitboard::EMPTY) {
                    ok.set(to);
                }
            }
            for to in slow {
                if slow_legal(p, mv(from, to)) {
                    ok.set(to);
                }
            }
            if ok.any() {
                sink(from, ok);
            }
        }
        // Plate actions only where their first conditions can hold (§2.7 empty ring, §2.8 no
        // elephant and no enemy on the plate, §2.9 nothing but the general on the plate).
        let r = &p.rules;
        let ci = c.index();
        let rotate = r.rotation() && (self.ring[ci] & occ).is_empty();
        let translate = r.translation() && own[ELEPHANT].is_empty() && (self.plate[ci] & self.occ[c.opponent().index()]).is_empty();
        let flip = r.tricks() && (self.plate[ci] & occ & !Bitboard::from_square(gs)).is_empty();
        if !(rotate || translate || flip) {
            return;
        }
        let mut plate = Vec::new();
        p.plate_actions(&mut plate);
        for a in plate {
            if slow_legal(p, a) {
                one(a);
            }
        }
    }
}

/// Whether action `a` leaves the mover out of check by the mailbox rules (§2.6 point 3).
fn slow_legal(p: &CamelPosition, a: CAction) -> bool {
    let mut q = p.clone();
    q.play_unchecked(a);
    !q.in_check(p.turn)
}

impl CamelPosition {
    /// The legal actions of the side to move (§2.6 point 3 filter after every action), sorted:
    /// on the bitboards where the node allows (see the module comment), else
    /// [`CamelPosition::legal_actions_mailbox`].
    pub fn legal_actions(&self, out: &mut Vec<CAction>) {
        let Some(b) = Bits::new(self) else { return self.legal_actions_mailbox(out) };
        out.clear();
        let g = b.g;
        let mut extra = Vec::new();
        b.legal(
            self,
            &mut |from, t| {
                let f = g.sq(from);
                out.extend(t.map(|to| CAction::Move { from: f, to: g.sq(to), unit: false, promote: None }));
            },
            &mut |a| extra.push(a),
        );
        if !extra.is_empty() {
            out.extend(extra);
            out.sort_unstable();
            out.dedup();
        }
    }

    /// The number of [`CamelPosition::legal_actions`] (perft's bulk count at the last ply).
    pub fn count_legal(&self) -> u64 {
        let Some(b) = Bits::new(self) else {
            let mut v = Vec::new();
            self.legal_actions_mailbox(&mut v);
            return v.len() as u64;
        };
        let mut n = Counter::new();
        let mut extra = 0u32;
        b.legal(self, &mut |_, t| n.add(t), &mut |_| extra += 1);
        u64::from(n.finish() + extra)
    }
}

/// Perft (RULES.md §P) of `p` on the bitboards where the nodes allow, the child's bitboards
/// updated from the parent's after a plain move (bulk count at the last ply).
pub(super) fn perft(p: &CamelPosition, depth: u32) -> u64 {
    perft_with(p, Bits::new(p), depth)
}

fn perft_with(p: &CamelPosition, b: Option<Bits>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some(b) = b else {
        let mut v = Vec::new();
        p.legal_actions_mailbox(&mut v);
        if depth == 1 {
            return v.len() as u64;
        }
        return v
            .into_iter()
            .map(|a| {
                let mut q = p.clone();
                q.play_unchecked(a);
                perft_with(&q, Bits::new(&q), depth - 1)
            })
            .sum();
    };
    if depth == 1 {
        let mut n = Counter::new();
        let mut extra = 0u32;
        b.legal(p, &mut |_, t| n.add(t), &mut |_| extra += 1);
        return u64::from(n.finish() + extra);
    }
    let mut plain: Vec<(Square, Square)> = Vec::with_capacity(64);
    let mut extra = Vec::new();
    b.legal(p, &mut |from, t| plain.extend(t.map(|to| (from, to))), &mut |a| extra.push(a));
    let g = b.g;
    let mut n = 0;
    for (from, to) in plain {
        let mut q = p.clone();
        q.play_unchecked(CAction::Move { from: g.sq(from), to: g.sq(to), unit: false, promote: None });
        n += perft_with(&q, b.after_move(&q, from, to, Bitboard::EMPTY), depth - 1);
    }
    for a in extra {
        let mut q = p.clone();
        q.play_unchecked(a);
        n += perft_with(&q, Bits::new(&q), depth - 1);
    }
    n
}
