//! Perft of missile xiangqi (RULES.md §P conventions): leaves of the legal move tree of the
//! position rules (§3.3-§3.5, §3.7 dead general); repetition bans do not stop it (§P6), and
//! set-up actions are not counted (§P4). Under the face-down reading the tree is that of the
//! moves each side sees as legal (§3.8 [R] hidden checks, [`perft_seen`]).

use super::position::{MMove, MissilePosition};

/// Leaf count at `depth`.
pub fn perft(p: &MissilePosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::with_capacity(96);
    p.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|&m| perft(&p.after(m), depth - 1)).sum()
}

/// Leaf count below each root move, and the total.
pub fn divide(p: &MissilePosition, depth: u32) -> (Vec<(MMove, u64)>, u64) {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let rows: Vec<(MMove, u64)> = moves.iter().map(|&m| (m, if depth <= 1 { 1 } else { perft(&p.after(m), depth - 1) })).collect();
    let total = rows.iter().map(|r| r.1).sum();
    (rows, total)
}

/// Leaf count at `depth` under the face-down reading (RULES-more.md §3.8 [R] hidden checks): the
/// moves of [`MissilePosition::legal_moves_seen`], `hidden` holding the face-down squares; a
/// move turns its piece (and removes its target) face up, and a captured general ends the line.
pub fn perft_seen(p: &MissilePosition, hidden: u128, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::with_capacity(96);
    p.legal_moves_seen(hidden, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|&m| perft_seen(&p.after(m), hidden & !(1u128 << m.from | 1u128 << m.to), depth - 1)).sum()
}

/// [`divide`] under the face-down reading ([`perft_seen`]).
pub fn divide_seen(p: &MissilePosition, hidden: u128, depth: u32) -> (Vec<(MMove, u64)>, u64) {
    let mut moves = Vec::new();
    p.legal_moves_seen(hidden, &mut moves);
    let rows: Vec<(MMove, u64)> =
        moves.iter().map(|&m| (m, if depth <= 1 { 1 } else { perft_seen(&p.after(m), hidden & !(1u128 << m.from | 1u128 << m.to), depth - 1) })).collect();
    let total = rows.iter().map(|r| r.1).sum();
    (rows, total)
}
