//! The transposition table's entries: bounds, packed moves and mate scores stored relative to
//! the node.

use super::MATE_BOUND;
use crate::moves::Move;

pub(super) const BOUND_EXACT: u8 = 1;
pub(super) const BOUND_LOWER: u8 = 2;
pub(super) const BOUND_UPPER: u8 = 3;
pub(super) const NO_MOVE: u16 = u16::MAX;

#[derive(Copy, Clone)]
pub(super) struct TtEntry {
    pub(super) key: u64,
    pub(super) score: i16,
    pub(super) mv: u16,
    pub(super) depth: i8,
    pub(super) bound: u8,
    pub(super) age: u8,
}

pub(super) const EMPTY_ENTRY: TtEntry = TtEntry { key: 0, score: 0, mv: NO_MOVE, depth: -1, bound: 0, age: 0 };

pub(super) fn pack(m: Move) -> u16 {
    (m.from.raw() as u16) << 8 | m.to.raw() as u16
}

pub(super) fn unpack(v: u16) -> Option<Move> {
    if v == NO_MOVE {
        return None;
    }
    Some(Move::new(
        crate::geometry::Square::new_unchecked((v >> 8) as u8),
        crate::geometry::Square::new_unchecked((v & 0xFF) as u8),
    ))
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
