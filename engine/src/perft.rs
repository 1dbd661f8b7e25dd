//! Perft: counting the leaves of the move tree (RULES.md §P1), the standard check of a move
//! generator against published counts and peer engines.

use crate::moves::Move;
use crate::position::Position;

/// Leaves of the legal move tree `depth` plies deep (make/unmake; bulk count at depth 1).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal() as u64;
    }
    let moves = pos.legal_moves();
    let mut n = 0;
    for &m in &moves {
        let u = pos.play(m);
        n += perft(pos, depth - 1);
        pos.unplay(m, u);
    }
    n
}

/// The same count by copy-make (each child is a clone); kept to measure which is faster.
pub fn perft_copy(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal() as u64;
    }
    let moves = pos.legal_moves();
    let mut n = 0;
    for &m in &moves {
        let mut child = pos.clone();
        child.play(m);
        n += perft_copy(&child, depth - 1);
    }
    n
}

/// Per-move counts at the root (`--divide`), in generation order, with the total.
pub fn divide(pos: &mut Position, depth: u32) -> (Vec<(Move, u64)>, u64) {
    let mut out = Vec::new();
    let mut total = 0;
    if depth == 0 {
        return (out, 1);
    }
    for &m in &pos.legal_moves() {
        let u = pos.play(m);
        let n = perft(pos, depth - 1);
        pos.unplay(m, u);
        out.push((m, n));
        total += n;
    }
    (out, total)
}
