//! Move ordering: moves with ordering scores handed out best first.

use crate::moves::{Move, MoveList, MAX_MOVES};

/// Moves with ordering scores, handed out best first (selection sort: cut-offs come early).
pub(super) struct Picker {
    pub(super) moves: [Move; MAX_MOVES],
    pub(super) scores: [i32; MAX_MOVES],
    pub(super) len: usize,
}

impl Picker {
    pub(super) fn new(list: &MoveList) -> Picker {
        let none = Move::new(crate::geometry::Square::new_unchecked(0), crate::geometry::Square::new_unchecked(0));
        let mut p = Picker { moves: [none; MAX_MOVES], scores: [0; MAX_MOVES], len: list.len() };
        p.moves[..list.len()].copy_from_slice(list.as_slice());
        p
    }

    /// The best remaining move, moved to position `i`.
    #[inline]
    pub(super) fn pick(&mut self, i: usize) -> Move {
        let mut best = i;
        for j in i + 1..self.len {
            if self.scores[j] > self.scores[best] {
                best = j;
            }
        }
        self.moves.swap(i, best);
        self.scores.swap(i, best);
        self.moves[i]
    }
}
