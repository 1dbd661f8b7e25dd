//! The transposition table's entries: bounds, packed moves and mate scores stored relative to
//! the node.

use super::MATE_BOUND;

pub(super) const BOUND_EXACT: u8 = 1;
pub(super) const BOUND_LOWER: u8 = 2;
pub(super) const BOUND_UPPER: u8 = 3;

/// The bound a node's result `best` is, searched with the window (`alpha`, `beta`): a lower
/// bound at or above beta, exact inside the window, an upper bound at or below alpha.
#[inline]
pub(super) fn bound_of(best: i32, alpha: i32, beta: i32) -> u8 {
    if best >= beta {
        BOUND_LOWER
    } else if best > alpha {
        BOUND_EXACT
    } else {
        BOUND_UPPER
    }
}

/// One slot of the table; `K` is the position's packed move ([`super::SearchPosition::Packed`]:
/// a `u16` on the core, so that an entry is 16 bytes).
#[derive(Copy, Clone)]
pub(super) struct TtEntry<K> {
    pub(super) key: u64,
    pub(super) score: i16,
    pub(super) mv: K,
    pub(super) depth: i8,
    pub(super) bound: u8,
    pub(super) age: u8,
}

/// The empty slot, with `none` as its move.
pub(super) const fn empty_entry<K: Copy>(none: K) -> TtEntry<K> {
    TtEntry { key: 0, score: 0, mv: none, depth: -1, bound: 0, age: 0 }
}

/// Stores mate scores relative to the node (plies to mate from here), not to the root.
pub(super) fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub(super) fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The score entry `e` proves for a node at `ply` searched with the window (`alpha`, `beta`):
/// its exact score, a lower bound at or above beta, or an upper bound at or below alpha; `None`
/// when its bound does not decide the window (the caller checks the entry's depth).
pub(super) fn cutoff<K>(e: &TtEntry<K>, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = from_tt(e.score as i32, ply);
    match e.bound {
        BOUND_EXACT => Some(s),
        BOUND_LOWER if s >= beta => Some(s),
        BOUND_UPPER if s <= alpha => Some(s),
        _ => None,
    }
}
