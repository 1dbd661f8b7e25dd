//! Perft of missile xiangqi (RULES.md §P conventions): leaves of the legal move tree of the
//! position rules (§3.3-§3.5, §3.7 dead general); repetition bans do not stop it (§P6), and
//! set-up actions are not counted (§P4). Under the face-down reading the tree is that of the
//! moves each side sees as legal (§3.8 [R] hidden checks, [`perft_seen`]). The counting runs on
//! the bitboard form of the position ([`super::bits::MissileBits`]).

use super::bits::MissileBits;
use super::position::{MMove, MissilePosition};

/// Leaf count at `depth`.
pub fn perft(p: &MissilePosition, depth: u32) -> u64 {
    perft_seen_or_not(p, 0, false, depth)
}

/// Leaf count below each root move, and the total.
pub fn divide(p: &MissilePosition, depth: u32) -> (Vec<(MMove, u64)>, u64) {
    divide_seen_or_not(p, 0, false, depth)
}

/// Leaf count at `depth` under the face-down reading (RULES-more.md §3.8 [R] hidden checks): the
/// moves of [`MissilePosition::legal_moves_seen`], `hidden` holding the face-down squares (bit
/// `s` for square `s`); a move turns its piece (and removes its target) face up, and a captured
/// general ends the line.
pub fn perft_seen(p: &MissilePosition, hidden: u128, depth: u32) -> u64 {
    perft_seen_or_not(p, hidden, true, depth)
}

/// [`divide`] under the face-down reading ([`perft_seen`]).
pub fn divide_seen(p: &MissilePosition, hidden: u128, depth: u32) -> (Vec<(MMove, u64)>, u64) {
    divide_seen_or_not(p, hidden, true, depth)
}

fn perft_seen_or_not(p: &MissilePosition, hidden: u128, seen: bool, depth: u32) -> u64 {
    match MissileBits::new(p) {
        Some(mut b) => {
            let h = b.geo().from_mask(hidden);
            b.perft(h, seen, depth)
        }
        None => mailbox_perft(p, hidden, seen, depth),
    }
}

fn divide_seen_or_not(p: &MissilePosition, hidden: u128, seen: bool, depth: u32) -> (Vec<(MMove, u64)>, u64) {
    let mut moves = Vec::new();
    if seen {
        p.legal_moves_seen(hidden, &mut moves);
    } else {
        p.legal_moves(&mut moves);
    }
    let rows: Vec<(MMove, u64)> = moves
        .iter()
        .map(|&m| {
            let left = if seen { hidden & !(1u128 << m.from | 1u128 << m.to) } else { 0 };
            (m, if depth <= 1 { 1 } else { perft_seen_or_not(&p.after(m), left, seen, depth - 1) })
        })
        .collect();
    let total = rows.iter().map(|r| r.1).sum();
    (rows, total)
}

/// The mailbox tree walk ([`MissilePosition::legal_moves_mailbox`] at every node): the reference the
/// bitboard count is tested against, and the path of a board that does not fit the core layout.
pub fn mailbox_perft(p: &MissilePosition, hidden: u128, seen: bool, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::with_capacity(96);
    if seen {
        p.legal_moves_seen_mailbox(hidden, &mut moves);
    } else {
        p.legal_moves_mailbox(&mut moves);
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|&m| mailbox_perft(&p.after(m), if seen { hidden & !(1u128 << m.from | 1u128 << m.to) } else { 0 }, seen, depth - 1)).sum()
}
