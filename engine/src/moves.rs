//! Moves and fixed-capacity move lists.

use crate::geometry::Square;

/// A move: a piece goes from `from` to `to` (capturing whatever enemy piece stands there).
///
/// `extra` is 0 for a plain move; hidden-information variants use it for the optional parts of a
/// move (a flip's new face, a reveal, turning face-down, a marker transfer; RULES.md §S4, §F5, §K4).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Origin point.
    pub from: Square,
    /// Destination point.
    pub to: Square,
    /// Variant-specific extra (0 = none).
    pub extra: u8,
}

impl Move {
    /// A plain move.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to, extra: 0 }
    }

    /// ICCS / UCI-xiangqi coordinates, e.g. `h2e2` (RULES.md coordinates).
    pub fn iccs(&self) -> String {
        format!("{}{}", self.from, self.to)
    }
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.extra == 0 {
            write!(f, "{}{}", self.from, self.to)
        } else {
            write!(f, "{}{}+{}", self.from, self.to, self.extra)
        }
    }
}

/// Capacity of a [`MoveList`]. The most legal moves known for a standard xiangqi position is
/// about 110 (chariots, cannons and horses all free in mid-board); variants whose moves carry
/// optional extras (marker transfer, turning face-down) can at most double that, plus 16 flips.
pub const MAX_MOVES: usize = 320;

/// A fixed-capacity list of moves (no heap allocation in move generation).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList { moves: [Move::new(Square::new_unchecked(0), Square::new_unchecked(0)); MAX_MOVES], len: 0 }
    }

    /// Appends a move. Moves past the capacity are dropped (the capacity is a proven bound).
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes all moves.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(&Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            if f(&self.moves[i]) {
                self.moves[j] = self.moves[i];
                j += 1;
            }
        }
        self.len = j;
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: &Move) -> bool {
        self.as_slice().contains(m)
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
