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
pub(crate) const NORTH: usize = 0;
pub(crate) const EAST: usize = 1;
pub(crate) const SOUTH: usize = 2;
pub(crate) const WEST: usize = 3;

/// Precomputed attack tables for one geometry. All tables are indexed by [`Square::index`] (0..128).
#[derive(Clone, Debug)]
pub struct Attacks {
    /// The geometry these tables describe.
    pub geometry: Geometry,
    /// `rays[dir][sq]`: points strictly beyond `sq` in direction `dir` (N, E, S, W), to the edge.
    rays: [[Bitboard; 128]; 4],
    /// `lines[sq]`: the union of the four rays.
    lines: [Bitboard; 128],
    /// `horse_reach[sq]`: every square from which a horse can attack `sq` on some occupancy (the
    /// union of the `horse_from` squares), for a quick "no horse near" test.
    pub(crate) horse_reach: [Bitboard; 128],
    /// Board points off the first file (a) and off the last file: where a sideways step east or
    /// west may start without wrapping into the next rank.
    not_first_file: Bitboard,
    not_last_file: Bitboard,
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

/// Index of the highest set bit of `b`, or 0 if `b` is empty (no branch).
#[inline(always)]
fn top_index(b: Bitboard) -> u8 {
    (127 - (b.0 | 1).leading_zeros()) as u8
}

impl Attacks {
    /// Builds the tables for `geometry` (a few microseconds; done once per variant).
    pub fn new(geometry: &Geometry) -> Attacks {
        let g = geometry;
        let e = Bitboard::EMPTY;
        let mut a = Attacks {
            geometry: g.clone(),
            rays: [[e; 128]; 4],
            lines: [e; 128],
            horse_reach: [e; 128],
            not_first_file: e,
            not_last_file: e,
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
        for sq in g.squares() {
            if sq.file() != 0 {
                a.not_first_file.set(sq);
            }
            if sq.file() + 1 != g.files {
                a.not_last_file.set(sq);
            }
        }
        for sq in g.squares() {
            let i = sq.index();
            a.lines[i] = a.rays[NORTH][i] | a.rays[EAST][i] | a.rays[SOUTH][i] | a.rays[WEST][i];
            a.horse_reach[i] = a.horse_from[i].iter().fold(e, |acc, &(_, f)| acc | f);
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
            att |= self.up_to_nearest(d, self.rays[d][i], occ);
        }
        for d in [SOUTH, WEST] {
            att |= self.up_to_nearest(d, self.rays[d][i], occ);
        }
        att
    }

    /// Points a line piece on `sq` attacks along its file only (the flying-general line, §X3).
    #[inline(always)]
    pub fn file_line(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let i = sq.index();
        self.up_to_nearest(NORTH, self.rays[NORTH][i], occ) | self.up_to_nearest(SOUTH, self.rays[SOUTH][i], occ)
    }

    /// Cannon captures from `sq`: in each direction, the first occupied point beyond the first
    /// occupied point (the screen). The result includes pieces of both colours; mask it with the
    /// enemy. Quiet cannon moves are `chariot(sq, occ) & !occ`.
    #[inline(always)]
    pub fn cannon_captures(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let i = sq.index();
        let mut att = Bitboard::EMPTY;
        for d in [NORTH, EAST, SOUTH, WEST] {
            let b = self.rays[d][i] & occ;
            att |= Self::nearest_bit(d, b ^ Self::nearest_bit(d, b));
        }
        att
    }

    /// Chariot moves and cannon captures from `sq` in one pass over the four rays: `(slides,
    /// jumps)` where `slides` is [`Attacks::chariot`] and `jumps` is [`Attacks::cannon_captures`].
    #[inline(always)]
    pub(crate) fn line_and_jumps(&self, sq: Square, occ: Bitboard) -> (Bitboard, Bitboard) {
        let i = sq.index();
        let mut slides = Bitboard::EMPTY;
        let mut jumps = Bitboard::EMPTY;
        for d in [NORTH, EAST, SOUTH, WEST] {
            let ray = self.rays[d][i];
            let b = ray & occ;
            slides |= self.up_to_nearest(d, ray, occ);
            jumps |= Self::nearest_bit(d, b ^ Self::nearest_bit(d, b));
        }
        (slides, jumps)
    }

    // Branch-free ray scans. A ray leaves its square towards higher indices (north, east), where
    // the point of a set nearest the origin is its lowest bit, or towards lower indices (south,
    // west), where it is the highest bit. Both work on the whole `u128`, so on every board size.

    /// The point of `b` nearest the origin of a ray in direction `dir`, as a set (empty if `b` is).
    #[inline(always)]
    pub(crate) fn nearest_bit(dir: usize, b: Bitboard) -> Bitboard {
        if dir == NORTH || dir == EAST {
            Bitboard(b.0 & b.0.wrapping_neg())
        } else {
            // An empty `b` gives index 0, and the `&` then the empty set.
            b & Bitboard::from_square(Square::new_unchecked(top_index(b)))
        }
    }

    /// The points of `ray` (leaving some square in direction `dir`) up to and including the first
    /// point of `occ` on it; the whole ray if none.
    #[inline(always)]
    pub(crate) fn up_to_nearest(&self, dir: usize, ray: Bitboard, occ: Bitboard) -> Bitboard {
        let b = ray & occ;
        if dir == NORTH || dir == EAST {
            // Bits up to and including the lowest set bit (all bits when `b` is empty).
            Bitboard(ray.0 & (b.0 ^ b.0.wrapping_sub(1)))
        } else {
            // The ray minus what lies beyond the highest set bit. An empty `b` gives index 0,
            // a point with no ray south or west (a0), so the whole ray.
            ray ^ self.rays[dir][top_index(b) as usize]
        }
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

    /// The steps of all soldiers of `color` in `soldiers` at once, by shifts of the whole set
    /// (the same steps as [`Attacks::soldier`]): forward, and east and west for those outside
    /// their own half. The three sets are disjoint per soldier, so the number of moves is the sum
    /// of their sizes (once masked).
    #[inline(always)]
    pub(crate) fn soldier_steps(&self, color: Color, soldiers: Bitboard) -> [Bitboard; 3] {
        let g = &self.geometry;
        let stride = u32::from(crate::geometry::STRIDE);
        let forward = match color {
            Color::Red => Bitboard(soldiers.0 << stride),
            Color::Black => Bitboard(soldiers.0 >> stride),
        };
        let crossed = soldiers & !g.half[color.index()];
        let east = Bitboard((crossed & self.not_last_file).0 << 1);
        let west = Bitboard((crossed & self.not_first_file).0 >> 1);
        [forward & g.board, east, west]
    }

    /// Points strictly beyond `sq` in direction `dir` ([`NORTH`], [`EAST`], [`SOUTH`], [`WEST`]).
    #[inline(always)]
    pub(crate) fn ray(&self, dir: usize, sq: Square) -> Bitboard {
        self.rays[dir][sq.index()]
    }

    /// Points strictly beyond `sq` in every orthogonal direction (for "same line" tests).
    #[inline(always)]
    pub fn lines(&self, sq: Square) -> Bitboard {
        self.lines[sq.index()]
    }
}
