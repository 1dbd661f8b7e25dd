//! The RULES-more.md boards on the core's `u128` bitboard layout (issue #17 item 2).
//!
//! A [`BitGeo`] describes one [`Geometry`] of up to 11 files x 11 ranks with the core's square
//! indexing (`rank * 11 + file`, [`crate::geometry::Square`]): it reuses the core
//! [`Attacks`] tables (rays, cannon screens, horse legs, elephant eyes, steps), built for that
//! board size, and adds what the core does not have: the palaces, halves and river of the
//! RULES-more.md geometry (§1.2, §2.3, §3.2), soldier steps under its river, and the leapers of
//! these games (the 目 leap (1,3) of the fighter §3.3 and mule horse T10, the 用 leap (2,3) of
//! the camel §2.4 and camel-step horse T18) with their blocking points.
//!
//! Boards wider or taller than 11 (the 13- and 15-file camel boards, §2.14 #1) have no
//! `BitGeo` ([`BitGeo::of`] returns `None`) and keep the mailbox path.

use super::geometry::{Geometry, Sq, CAMEL, LONG_LEAP, MAX_SQUARES};
use crate::attacks::Attacks;
use crate::bitboard::Bitboard;
use crate::geometry::{Geometry as CoreGeometry, Square, MAX_FILES, MAX_RANKS};
use crate::piece::Color;
use std::sync::{Mutex, OnceLock};

/// Kind indices into the games' per-kind bitboard arrays (`Kind as usize`), shared by every
/// game's `bits.rs`.
pub(crate) mod kind {
    use crate::more::piece::Kind;
    pub(crate) const GENERAL: usize = Kind::General as usize;
    pub(crate) const ADVISOR: usize = Kind::Advisor as usize;
    pub(crate) const ELEPHANT: usize = Kind::Elephant as usize;
    pub(crate) const HORSE: usize = Kind::Horse as usize;
    pub(crate) const CHARIOT: usize = Kind::Chariot as usize;
    pub(crate) const CANNON: usize = Kind::Cannon as usize;
    pub(crate) const SOLDIER: usize = Kind::Soldier as usize;
    pub(crate) const FIGHTER: usize = Kind::Fighter as usize;
    pub(crate) const MISSILE: usize = Kind::Missile as usize;
    pub(crate) const CAMEL: usize = Kind::Camel as usize;
    pub(crate) const CHANCELLOR: usize = Kind::Chancellor as usize;
}

/// One (1,3) leap from a square (RULES-more.md §3.3 fighter, §1.6 T10 mule horse): the target
/// and the points straight ahead along the long axis at distances 1, 2 (`near`) and 3 (`far`,
/// empty when off the board).
#[derive(Copy, Clone, Debug, Default)]
pub struct LongLeap {
    /// The square the leap reaches (empty when off the board: the entry is unused).
    pub target: Bitboard,
    /// The points one and two steps ahead along the long axis.
    pub near: Bitboard,
    /// The point one step ahead along the long axis (the mule horse's leg, §1.6 T10).
    pub leg: Bitboard,
    /// The point three steps ahead along the long axis (for [`super::missile::FighterBlock::AnyTwoOfThree`]).
    pub far: Bitboard,
}

/// One (2,3) leap of the camel (RULES-more.md §2.4, §1.6 T18): the target and its blocking
/// point, the diagonal neighbour towards it.
#[derive(Copy, Clone, Debug, Default)]
pub struct CamelLeap {
    /// The square the leap reaches (empty when off the board).
    pub target: Bitboard,
    /// The diagonal neighbour `(sign dx, sign dy)` that blocks the leap when occupied.
    pub block: Bitboard,
}

/// A RULES-more.md board on the core bitboard layout (see the module comment).
#[derive(Debug)]
pub struct BitGeo {
    /// The core tables for a `files` x `ranks` board.
    pub at: Attacks,
    /// Every point of the board.
    pub board: Bitboard,
    /// Each side's palace (9 points), by [`Color::index`].
    pub palace: [Bitboard; 2],
    /// Each side's palace diagonals (5 advisor points).
    pub palace_diag: [Bitboard; 2],
    /// Each side's own half (a river row belongs to neither, §1.2 board A).
    pub half: [Bitboard; 2],
    /// Soldier steps of each side: forward, sideways once on the enemy half (§0.3), and on a
    /// river-row board the direct crossing from the own bank to the enemy bank (§1.3, §2.14 #12).
    pub soldier: [[Bitboard; 128]; 2],
    /// The retreat step of a soldier on the enemy half that stays there (skill T8, camel §2.8).
    pub soldier_back: [[Bitboard; 128]; 2],
    /// Squares from which a soldier of the side steps to the square (inverse of `soldier`).
    pub soldier_from: [[Bitboard; 128]; 2],
    /// The eight (1,3) leaps from each square, in [`LONG_LEAP`] order.
    pub long_leap: [[LongLeap; 8]; 128],
    /// The eight (1,3) leaps that reach each square: `target` holds the leaper's square, the
    /// blocking points are those of its leap.
    pub long_leap_from: [[LongLeap; 8]; 128],
    /// The eight (2,3) leaps from each square, in [`CAMEL`] order.
    pub camel: [[CamelLeap; 8]; 128],
    /// The eight (2,3) leaps that reach each square (`target` holds the leaper's square).
    pub camel_from: [[CamelLeap; 8]; 128],
    /// Files and ranks.
    pub files: u8,
    /// Ranks.
    pub ranks: u8,
    to_bit: [u8; MAX_SQUARES],
    to_sq: [u8; 128],
}

impl BitGeo {
    /// The tables of `g`, built once per distinct geometry and kept for the process; `None` when
    /// the board does not fit the 11x11 index space (wider camel boards, §2.14 #1). A per-thread
    /// memo keyed by the geometry's address answers repeated calls without the lock (a
    /// `'static` geometry is never freed, so its address names it).
    pub fn of(g: &'static Geometry) -> Option<&'static BitGeo> {
        type Memo = std::cell::Cell<[(usize, Option<&'static BitGeo>); 4]>;
        thread_local! {
            static MEMO: Memo = const { std::cell::Cell::new([(0, None); 4]) };
        }
        let key = g as *const Geometry as usize;
        let memo = MEMO.with(std::cell::Cell::get);
        if let Some(&(_, b)) = memo.iter().find(|(k, _)| *k == key) {
            return b;
        }
        let b = Self::lookup(g);
        MEMO.with(|m| {
            let mut v = m.get();
            v.rotate_right(1);
            v[0] = (key, b);
            m.set(v);
        });
        b
    }

    #[cold]
    #[inline(never)]
    fn lookup(g: &Geometry) -> Option<&'static BitGeo> {
        if g.files > MAX_FILES || g.ranks > MAX_RANKS || g.files < 3 || g.ranks < 3 {
            return None;
        }
        static CACHE: OnceLock<Mutex<Vec<(Geometry, &'static BitGeo)>>> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
        let mut v = cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, b)) = v.iter().find(|(k, _)| k == g) {
            return Some(b);
        }
        let b: &'static BitGeo = Box::leak(Box::new(BitGeo::new(g)));
        v.push((g.clone(), b));
        Some(b)
    }

    // Never inlined: its frame holds the whole table set, and a caller that inlined it would
    // probe that much stack on every call.
    #[inline(never)]
    fn new(g: &Geometry) -> BitGeo {
        let core = CoreGeometry::new(g.files, g.ranks);
        let at = Attacks::new(&core);
        let e = Bitboard::EMPTY;
        let mut b = BitGeo {
            at,
            board: core.board,
            palace: [e; 2],
            palace_diag: [e; 2],
            half: [e; 2],
            soldier: [[e; 128]; 2],
            soldier_back: [[e; 128]; 2],
            soldier_from: [[e; 128]; 2],
            long_leap: [[LongLeap::default(); 8]; 128],
            long_leap_from: [[LongLeap::default(); 8]; 128],
            camel: [[CamelLeap::default(); 8]; 128],
            camel_from: [[CamelLeap::default(); 8]; 128],
            files: g.files,
            ranks: g.ranks,
            to_bit: [u8::MAX; MAX_SQUARES],
            to_sq: [u8::MAX; 128],
        };
        for s in 0..g.len() as Sq {
            let bit = Square::new(g.file(s), g.rank(s)).expect("inside 11x11").raw();
            b.to_bit[s as usize] = bit;
            b.to_sq[bit as usize] = s;
        }
        let bb = |s: Option<Sq>| s.map_or(e, |s| b.bb(s));
        let mut soldier = [[e; 128]; 2];
        let mut soldier_back = [[e; 128]; 2];
        let mut long_leap = [[LongLeap::default(); 8]; 128];
        let mut camel = [[CamelLeap::default(); 8]; 128];
        let (mut palace, mut palace_diag, mut half) = ([e; 2], [e; 2], [e; 2]);
        for s in 0..g.len() as Sq {
            let i = b.bit(s).index();
            let me = b.bb(s);
            for c in Color::ALL {
                if g.in_palace(c, s) {
                    palace[c.index()] |= me;
                }
                if g.on_palace_diagonal(c, s) {
                    palace_diag[c.index()] |= me;
                }
                if g.own_half(c, s) {
                    half[c.index()] |= me;
                }
                let fwd = Geometry::forward(c);
                let ahead = g.offset(s, 0, fwd);
                let mut t = bb(ahead);
                if ahead.is_some_and(|a| g.is_river(a)) && g.own_half(c, s) {
                    t |= bb(g.offset(s, 0, 2 * fwd));
                }
                if g.crossed(c, s) {
                    t |= bb(g.offset(s, 1, 0)) | bb(g.offset(s, -1, 0));
                    if let Some(back) = g.offset(s, 0, -fwd).filter(|&b| g.crossed(c, b)) {
                        soldier_back[c.index()][i] = b.bb(back);
                    }
                }
                soldier[c.index()][i] = t;
            }
            for (k, &(dx, dy)) in LONG_LEAP.iter().enumerate() {
                let Some(to) = g.offset(s, dx, dy) else { continue };
                let (sx, sy) = if dy.abs() == 3 { (0, dy.signum()) } else { (dx.signum(), 0) };
                let leg = bb(g.offset(s, sx, sy));
                let near = leg | bb(g.offset(s, 2 * sx, 2 * sy));
                long_leap[i][k] = LongLeap { target: b.bb(to), near, leg, far: bb(g.offset(s, 3 * sx, 3 * sy)) };
            }
            for (k, &(dx, dy)) in CAMEL.iter().enumerate() {
                let Some(to) = g.offset(s, dx, dy) else { continue };
                camel[i][k] = CamelLeap { target: b.bb(to), block: bb(g.offset(s, dx.signum(), dy.signum())) };
            }
        }
        for s in 0..g.len() as Sq {
            let i = b.bit(s).index();
            for c in 0..2 {
                for to in soldier[c][i] {
                    b.soldier_from[c][to.index()] |= b.bb(s);
                }
            }
            for k in 0..8 {
                let l = long_leap[i][k];
                if let Some(to) = l.target.first() {
                    b.long_leap_from[to.index()][k] = LongLeap { target: b.bb(s), ..l };
                }
                let c = camel[i][k];
                if let Some(to) = c.target.first() {
                    b.camel_from[to.index()][k] = CamelLeap { target: b.bb(s), ..c };
                }
            }
        }
        b.soldier = soldier;
        b.soldier_back = soldier_back;
        b.long_leap = long_leap;
        b.camel = camel;
        b.palace = palace;
        b.palace_diag = palace_diag;
        b.half = half;
        b
    }

    /// The core square of mailbox square `s` (which must be on the board).
    #[inline(always)]
    pub fn bit(&self, s: Sq) -> Square {
        Square::new_unchecked(self.to_bit[s as usize])
    }

    /// The set holding only mailbox square `s`.
    #[inline(always)]
    pub fn bb(&self, s: Sq) -> Bitboard {
        Bitboard::from_square(self.bit(s))
    }

    /// The mailbox square of core square `q` (which must be on the board).
    #[inline(always)]
    pub fn sq(&self, q: Square) -> Sq {
        self.to_sq[q.index()]
    }

    /// The pins and danger points of a general on `gs` (as the core's [`crate::movegen`]): the
    /// pieces (of either side) whose leaving their point may expose it, and the empty points
    /// where a piece would become the screen of an enemy cannon in `cannons`. Per orthogonal
    /// line with blockers `b1`, `b2`, `b3` counted from `gs`: `b1` is pinned when `b2` is in
    /// `sliders` (the enemy's line pieces and the generals) or `b3` in `cannons`; `b2` when `b3`
    /// is in `cannons`. A horse leg or elephant eye next to the general is pinned when an enemy
    /// horse in `horses` or elephant in `elephants` stands behind it. Leapers of the games (the
    /// fighter, the camel) add their own blocking points.
    pub fn pins_and_danger(&self, gs: Square, occ: Bitboard, sliders: Bitboard, cannons: Bitboard, horses: Bitboard, elephants: Bitboard) -> (Bitboard, Bitboard) {
        let at = &self.at;
        let (mut pins, mut danger) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for d in 0..4 {
            let ray = at.ray(d, gs);
            let b = ray & occ;
            let b1 = Attacks::nearest_bit(d, b);
            if b1.is_empty() {
                continue;
            }
            let r1 = b ^ b1;
            let b2 = Attacks::nearest_bit(d, r1);
            let b3 = Attacks::nearest_bit(d, r1 ^ b2);
            if (b1 & cannons).any() {
                danger |= at.up_to_nearest(d, ray, occ) & !b1;
            }
            let cannon3 = (b3 & cannons).any();
            if cannon3 || (b2 & sliders).any() {
                pins |= b1;
            }
            if cannon3 {
                pins |= b2;
            }
        }
        for &(leg, from) in &at.horse_from[gs.index()] {
            if (from & horses).any() {
                pins |= leg;
            }
        }
        for &(eye, target) in &at.elephant[gs.index()] {
            if (target & elephants).any() {
                pins |= eye;
            }
        }
        (pins, danger)
    }

    /// The core-layout set of a mailbox bit set (bit `s` for mailbox square `s`, as the games'
    /// `u128` masks hold them).
    pub fn from_mask(&self, mask: u128) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        let mut m = mask;
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            if s < MAX_SQUARES && self.to_bit[s] != u8::MAX {
                out |= Bitboard::from_square(Square::new_unchecked(self.to_bit[s]));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_on_each_fitting_board() {
        for g in [Geometry::missile(), Geometry::skill_a(), Geometry::camel_with(11, true).expect("11 files")] {
            let g: &'static Geometry = Box::leak(Box::new(g));
            let b = BitGeo::of(g).expect("fits");
            for s in 0..g.len() as Sq {
                assert_eq!(b.sq(b.bit(s)), s);
                assert_eq!(b.bit(s).file(), g.file(s));
                assert_eq!(b.bit(s).rank(), g.rank(s));
            }
            assert_eq!(b.board.count() as usize, g.len());
        }
        assert!(BitGeo::of(Box::leak(Box::new(Geometry::camel_with(13, false).expect("13 files")))).is_none());
    }
}
