//! `Bitboard(u128)`: one bit per point of a board of up to 11 files x 11 ranks.
//!
//! Bit index = `rank * 11 + file` (see [`crate::geometry::Square`]), so the same layout serves the
//! standard 9x10 board and the larger boards of `RULES-more.md` without a rewrite.

use crate::geometry::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// `SQUARE_BB[i]`: the set holding only the point with index `i`.
const SQUARE_BB: [Bitboard; 128] = {
    let mut t = [Bitboard(0); 128];
    let mut i = 0;
    while i < 128 {
        t[i] = Bitboard(1u128 << i);
        i += 1;
    }
    t
};

/// A set of points. Bit `i` is the point with [`Square`] index `i`.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        // A table load: without BMI2 a variable `u128` shift costs about seven instructions.
        SQUARE_BB[sq.index() & 127]
    }

    /// Whether no point is set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether at least one point is set.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        (self.0 >> sq.index()) & 1 != 0
    }

    /// Number of points in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether more than one point is set.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest-index point, if any.
    #[inline(always)]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest-index point, if any.
    #[inline(always)]
    pub fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new_unchecked(127 - self.0.leading_zeros() as u8))
        }
    }

    /// Lowest point of a non-empty set (undefined result, but no panic, on an empty set).
    #[inline(always)]
    pub fn lsb(self) -> Square {
        Square::new_unchecked((self.0.trailing_zeros() as u8) & 127)
    }

    /// Highest point of a non-empty set (undefined result, but no panic, on an empty set).
    #[inline(always)]
    pub fn msb(self) -> Square {
        Square::new_unchecked((127u32.wrapping_sub(self.0.leading_zeros()) as u8) & 127)
    }

    /// Adds `sq`.
    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.index();
    }

    /// Removes `sq`.
    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.index());
    }

    /// Toggles `sq`.
    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1u128 << sq.index();
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::new_unchecked(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(sq)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bitboard(")?;
        let mut first = true;
        for sq in *self {
            if !first {
                write!(f, ",")?;
            }
            write!(f, "{sq}")?;
            first = false;
        }
        write!(f, ")")
    }
}
