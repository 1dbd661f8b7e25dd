//! Attack tables for the seven piece types (RULES.md §X2), built once per [`Geometry`].
//!
//! Chariot and cannon lines use ray tables and a first-blocker scan (`trailing_zeros` /
//! `leading_zeros` on the `u128`), which works unchanged on every board size. Horse legs and
//! elephant eyes are precomputed per square as (blocking point, targets) pairs.

use crate::bitboard::Bitboard;
use crate::geometry::{Geometry, Square};
use crate::piece::Color;
use std::sync::OnceLock;

/// Direction indices into [`Attacks::rays`]: towards higher rank, higher file, lower rank, lower file.
const NORTH: usize = 0;
const EAST: usize = 1;
const SOUTH: usize = 2;
const WEST: usize = 3;

/// Precomputed attack tables for one geometry. All tables are indexed by [`Square::index`] (0..128).
#[derive(Clone, Debug)]
pub struct Attacks {
    /// The geometry these tables describe.
    pub geometry: Geometry,
    /// `rays[dir][sq]`: points strictly beyond `sq` in direction `dir` (N, E, S, W), to the edge.
    rays: [[Bitboard; 128]; 4],
    /// Orthogonal neighbours (the general's step, before the palace mask).
    pub orthogonal: [Bitboard; 128],
    /// Diagonal neighbours (the advisor's step, before the palace mask).
    pub diagonal: [Bitboard; 128],
    /// Horse moves from a square: `(leg, targets)` per orthogonal direction; the two targets are
    /// reachable only while the leg point is empty.
    pub horse: [[(Bitboard, Bitboard); 4]; 128],
    /// Horses that attack a square: `(diagonal neighbour, horse squares)`; a horse on one of those
    /// squares attacks the target while that diagonal neighbour (its leg) is empty.
    pub horse_from: [[(Bitboard, Bitboard); 4]; 128],
    /// Elephant moves: `(eye, target)` per diagonal; the target is reachable while the eye is empty.
    pub elephant: [[(Bitboard, Bitboard); 4]; 128],
    /// Soldier steps per colour: forward always, sideways once outside its own half.
    pub soldier: [[Bitboard; 128]; 2],
    /// Squares from which a soldier of the colour attacks the square (inverse of `soldier`).
    pub soldier_from: [[Bitboard; 128]; 2],
}

impl Attacks {
    /// Builds the tables for `geometry` (a few microseconds; done once per variant).
    pub fn new(geometry: &Geometry) -> Attacks {
        let g = geometry;
        let e = Bitboard::EMPTY;
        let mut a = Attacks {
            geometry: g.clone(),
            rays: [[e; 128]; 4],
            orthogonal: [e; 128],
            diagonal: [e; 128],
            horse: [[(e, e); 4]; 128],
            horse_from: [[(e, e); 4]; 128],
            elephant: [[(e, e); 4]; 128],
            soldier: [[e; 128]; 2],
            soldier_from: [[e; 128]; 2],
        };
        let bb = |s: Option<Square>| s.map(Bitboard::from_square).unwrap_or_default();
        const ORTH: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
        const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
        for sq in g.squares() {
            let i = sq.index();
            for (d, &(df, dr)) in ORTH.iter().enumerate() {
                let mut cur = sq.offset(df, dr, g);
                while let Some(s) = cur {
                    a.rays[d][i].set(s);
                    cur = s.offset(df, dr, g);
                }
                a.orthogonal[i] |= bb(sq.offset(df, dr, g));
                // Horse: one orthogonal step (leg), then one diagonal step outward.
                if let Some(leg) = sq.offset(df, dr, g) {
                    let (t1, t2) = if df == 0 {
                        (sq.offset(1, 2 * dr, g), sq.offset(-1, 2 * dr, g))
                    } else {
                        (sq.offset(2 * df, 1, g), sq.offset(2 * df, -1, g))
                    };
                    a.horse[i][d] = (Bitboard::from_square(leg), bb(t1) | bb(t2));
                }
            }
            for (d, &(df, dr)) in DIAG.iter().enumerate() {
                a.diagonal[i] |= bb(sq.offset(df, dr, g));
                if let Some(eye) = sq.offset(df, dr, g) {
                    a.elephant[i][d] = (Bitboard::from_square(eye), bb(sq.offset(2 * df, 2 * dr, g)));
                    // Horses whose leg is this diagonal neighbour: at (2df, dr) and (df, 2dr).
                    let from = bb(sq.offset(2 * df, dr, g)) | bb(sq.offset(df, 2 * dr, g));
                    a.horse_from[i][d] = (Bitboard::from_square(eye), from);
                }
            }
            for c in Color::ALL {
                let fwd: i8 = if c == Color::Red { 1 } else { -1 };
                let mut t = bb(sq.offset(0, fwd, g));
                if !g.in_own_half(c, sq) {
                    t |= bb(sq.offset(1, 0, g)) | bb(sq.offset(-1, 0, g));
                }
                a.soldier[c.index()][i] = t;
            }
        }
        for c in 0..2 {
            for from in g.squares() {
                for to in a.soldier[c][from.index()] {
                    a.soldier_from[c][to.index()].set(from);
                }
            }
        }
        a
    }

    /// Tables for the standard 9x10 board, built once.
    pub fn standard() -> &'static Attacks {
        static A: OnceLock<Attacks> = OnceLock::new();
        A.get_or_init(|| Attacks::new(Geometry::standard()))
    }

    /// Chariot attacks from `sq` with occupancy `occ`: every point up to and including the first
    /// occupied point in each direction.
    #[inline(always)]
    pub fn chariot(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let i = sq.index();
        let mut att = Bitboard::EMPTY;
        for d in [NORTH, EAST] {
            let ray = self.rays[d][i];
            let b = ray & occ;
            att |= if b.any() { ray ^ self.rays[d][b.lsb().index()] } else { ray };
        }
        for d in [SOUTH, WEST] {
            let ray = self.rays[d][i];
            let b = ray & occ;
            att |= if b.any() { ray ^ self.rays[d][b.msb().index()] } else { ray };
        }
        att
    }

    /// Points a line piece on `sq` attacks along its file only (the flying-general line, §X3).
    #[inline(always)]
    pub fn file_line(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let i = sq.index();
        let up = self.rays[NORTH][i];
        let b = up & occ;
        let mut att = if b.any() { up ^ self.rays[NORTH][b.lsb().index()] } else { up };
        let down = self.rays[SOUTH][i];
        let b = down & occ;
        att |= if b.any() { down ^ self.rays[SOUTH][b.msb().index()] } else { down };
        att
    }

    /// Cannon captures from `sq`: in each direction, the first occupied point beyond the first
    /// occupied point (the screen). The result includes pieces of both colours; mask it with the
    /// enemy. Quiet cannon moves are `chariot(sq, occ) & !occ`.
    #[inline(always)]
    pub fn cannon_captures(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let i = sq.index();
        let mut att = Bitboard::EMPTY;
        for d in [NORTH, EAST] {
            let b = self.rays[d][i] & occ;
            if b.any() {
                let beyond = self.rays[d][b.lsb().index()] & occ;
                if beyond.any() {
                    att.set(beyond.lsb());
                }
            }
        }
        for d in [SOUTH, WEST] {
            let b = self.rays[d][i] & occ;
            if b.any() {
                let beyond = self.rays[d][b.msb().index()] & occ;
                if beyond.any() {
                    att.set(beyond.msb());
                }
            }
        }
        att
    }

    /// Horse targets from `sq` given occupancy (legs checked), before any colour mask.
    #[inline(always)]
    pub fn horse_targets(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let mut att = Bitboard::EMPTY;
        for &(leg, t) in &self.horse[sq.index()] {
            if (leg & occ).is_empty() {
                att |= t;
            }
        }
        att
    }

    /// Squares from which a horse attacks `sq` given occupancy (legs checked).
    #[inline(always)]
    pub fn horse_attackers(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let mut from = Bitboard::EMPTY;
        for &(leg, f) in &self.horse_from[sq.index()] {
            if (leg & occ).is_empty() {
                from |= f;
            }
        }
        from
    }

    /// Elephant targets from `sq` given occupancy (eyes checked), before region and colour masks.
    #[inline(always)]
    pub fn elephant_targets(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let mut att = Bitboard::EMPTY;
        for &(eye, t) in &self.elephant[sq.index()] {
            if (eye & occ).is_empty() {
                att |= t;
            }
        }
        att
    }

    /// Points strictly beyond `sq` in every orthogonal direction (for "same line" tests).
    #[inline(always)]
    pub fn lines(&self, sq: Square) -> Bitboard {
        let i = sq.index();
        self.rays[0][i] | self.rays[1][i] | self.rays[2][i] | self.rays[3][i]
    }
}
