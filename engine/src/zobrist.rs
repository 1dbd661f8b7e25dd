//! Zobrist keys for incremental position hashing, generated at compile time (splitmix64), so a
//! hash is the same in every build and can be stored in records and tables.

use crate::piece::Piece;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn piece_keys() -> [[u64; 128]; Piece::COUNT] {
    let mut keys = [[0u64; 128]; Piece::COUNT];
    let mut state = 0x5851_F42D_4C95_7F2Du64;
    let mut p = 0;
    while p < Piece::COUNT {
        let mut s = 0;
        while s < 128 {
            let (ns, v) = splitmix(state);
            state = ns;
            keys[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    keys
}

/// Key of a piece (by [`Piece::index`]) on a square (by index).
pub static PIECE_SQUARE: [[u64; 128]; Piece::COUNT] = piece_keys();

/// Key toggled when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(0x1234_5678_9ABC_DEF0).1;

/// Key of `piece` on square index `sq`.
#[inline(always)]
pub fn piece_square(piece: Piece, sq: usize) -> u64 {
    PIECE_SQUARE[piece.index()][sq]
}

/// A further key stream for variant state (flip rights, markers, hidden layers): key `i` of
/// namespace `ns`. Deterministic across builds.
pub const fn extra_key(ns: u64, i: u64) -> u64 {
    splitmix(splitmix(ns.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i).1).1
}
