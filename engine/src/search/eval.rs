//! A simple static evaluation of variant states for the search bots (expectimax, PIMC, IS-MCTS),
//! in centipawns.
//!
//! Material on the usual xiangqi scale (chariot 900, cannon 450, horse 400, advisor and elephant
//! 200, soldier 100, 200 once across the river), plus 10 for a chariot, horse or cannon standing
//! in the enemy half. Surprise discs (RULES.md §S3) count by their visible face. A face-down piece
//! (§F2) counts as its identity where the state determines it (a determinization, an
//! owner's-choice arrangement, a piece turned down under §F5), and otherwise as the *expected*
//! value of its side's undetermined pool (§P2: each undetermined face-down piece is equally
//! likely to be any pool entry), so a reveal changes the expected evaluation only through
//! position, not through material: the material term is a martingale under chance.

use crate::piece::{Color, Role};
use crate::variant::State;

/// The learned evaluation ([`crate::nnue`], issue #36) of `s` from `perspective`'s point of view,
/// in centipawns: the network on the core position with the face-down pieces (RULES.md §F2,
/// Surprise discs §S3) as face-down inputs, so it reads what every player sees and never a
/// determinized identity. A full refresh of the accumulator (no incremental update): for the
/// leaves of the searches that copy states (expectimax, IS-MCTS); the alpha-beta core updates
/// its accumulator on make/unmake instead.
pub fn evaluate_learned(s: &State, perspective: Color, net: &crate::nnue::Network) -> i32 {
    let pos = s.position();
    let pieces = crate::nnue::pieces_of(pos, s.face_down());
    let v = net.evaluate_pieces(&pos.rules().attacks.geometry, &pieces, pos.turn());
    if perspective == pos.turn() { v } else { -v }
}

/// [`evaluate_learned`] with a network, else the hand-written [`evaluate`].
#[inline]
pub fn evaluate_with(s: &State, perspective: Color, net: Option<&crate::nnue::Network>) -> i32 {
    match net {
        Some(n) => evaluate_learned(s, perspective, n),
        None => evaluate(s, perspective),
    }
}

/// Value of a piece type in centipawns (the general's value only orders captures).
pub const fn role_value(role: Role) -> i32 {
    match role {
        Role::General => 10_000,
        Role::Chariot => 900,
        Role::Cannon => 450,
        Role::Horse => 400,
        Role::Advisor | Role::Elephant => 200,
        Role::Soldier => 100,
    }
}

/// Value of a soldier that has crossed the river, in centipawns.
pub const SOLDIER_CROSSED: i32 = 200;

/// Bonus for a chariot, horse or cannon in the enemy half, in centipawns.
pub const ADVANCED: i32 = 10;

/// Expected value (centipawns) of one undetermined face-down piece of `c`: the mean of
/// [`role_value`] over `c`'s pool, or `None` when the pool is empty.
pub fn expected_facedown_value(s: &State, c: Color) -> Option<f64> {
    let pool = s.pool(c);
    let n: u32 = pool.iter().map(|&k| k as u32).sum();
    if n == 0 {
        return None;
    }
    let total: i64 = Role::ALL.iter().map(|r| role_value(*r) as i64 * pool[r.index()] as i64).sum();
    Some(total as f64 / n as f64)
}

/// Static evaluation of `s` in centipawns from `perspective`'s point of view (positive: good for
/// `perspective`). The general is not counted.
pub fn evaluate(s: &State, perspective: Color) -> i32 {
    let pos = s.position();
    let geom = &pos.rules().attacks.geometry;
    let down = s.face_down();
    let mut score = [0f64; 2];
    let mut pool_mean: [Option<Option<f64>>; 2] = [None, None];
    for c in Color::ALL {
        let ci = c.index();
        for role in Role::ALL {
            if role == Role::General {
                continue;
            }
            for sq in pos.pieces(c, role) {
                let v = if down.contains(sq) {
                    match s.identity(sq) {
                        Some(r) => role_value(r) as f64,
                        None => {
                            let m = *pool_mean[ci].get_or_insert_with(|| expected_facedown_value(s, c));
                            m.unwrap_or(role_value(role) as f64)
                        }
                    }
                } else {
                    let across = !geom.in_own_half(c, sq);
                    let base = if role == Role::Soldier && across { SOLDIER_CROSSED } else { role_value(role) };
                    let adv = if across && matches!(role, Role::Chariot | Role::Horse | Role::Cannon) { ADVANCED } else { 0 };
                    (base + adv) as f64
                };
                score[ci] += v;
            }
        }
    }
    let us = perspective.index();
    (score[us] - score[1 - us]).round() as i32
}

/// Largest magnitude of a static value: a position is never valued like a decided game (±1),
/// so a search that can mate prefers mating to winning material.
pub const LEAF_CAP: f64 = 0.9;

/// [`evaluate`] mapped into `(-LEAF_CAP, LEAF_CAP)` by `LEAF_CAP * tanh(eval / scale_cp)`.
pub fn value(s: &State, perspective: Color, scale_cp: f64) -> f64 {
    LEAF_CAP * (evaluate(s, perspective) as f64 / scale_cp.max(1.0)).tanh()
}
