//! Perft for every variant (RULES.md §P): decision plies consume depth; chance outcomes (§P2)
//! are expanded inside the ply that caused them, each counted once (unweighted).
//!
//! The tree is walked in place ([`State::make`] / [`State::unmake`]) on one copy of the root,
//! and the last ply is counted in bulk ([`State::count_leaves_with`]).

use super::state::{Action, LeafCtx, State};

/// Leaves of the action tree `depth` decision plies deep from `s`.
pub fn perft(s: &State, depth: u32) -> u64 {
    let ctx = LeafCtx::new(s);
    perft_in_place(&mut s.clone(), depth, &ctx)
}

/// [`perft`] on `s` itself, which is left as it was.
fn perft_in_place(s: &mut State, depth: u32, ctx: &LeafCtx) -> u64 {
    if s.is_chance() {
        let mut n = 0;
        for (o, _) in s.chance_outcomes() {
            let u = s.make_chance(o);
            n += perft_in_place(s, depth, ctx);
            s.unmake(&u);
        }
        return n;
    }
    if depth == 0 {
        return 1;
    }
    if s.is_core_only() {
        // Standard rules with nothing beyond the core's moves (§P5: one action per core move),
        // now and in every descendant: the core's make/unmake perft counts the same tree.
        return crate::perft::perft(&mut s.position().clone(), depth);
    }
    if depth == 1 {
        // Bulk count: each action's chance outcomes are leaves (§P1-P2).
        return s.count_leaves_with(ctx);
    }
    // Collected on the stack: no allocation per node.
    let mut actions: arrayvec::ArrayVec<Action, { crate::moves::MAX_MOVES }> = arrayvec::ArrayVec::new();
    s.visit_actions(&mut |a| {
        let _ = actions.try_push(a);
    });
    let mut n = 0;
    for a in actions {
        if matches!(a, Action::Demand) {
            continue; // §P5: negotiation actions are not counted
        }
        if depth == 2 {
            // The next ply is counted in bulk: only what that count reads follows the move.
            if let Some(u) = s.make_leaf(a) {
                n += s.count_leaves_with(ctx);
                s.unmake_leaf(&u);
                continue;
            }
        }
        match s.make(a) {
            Some(u) => {
                n += perft_in_place(s, depth - 1, ctx);
                s.unmake(&u);
            }
            // Set-up choices (the first plies of a new game) by copy.
            None => n += perft_in_place(&mut s.child(a), depth - 1, ctx),
        }
    }
    n
}

/// Per-action counts at the root (`--divide`), with the total.
pub fn divide(s: &State, depth: u32) -> (Vec<(Action, u64)>, u64) {
    let mut out = Vec::new();
    let mut total = 0;
    if depth == 0 || s.is_chance() {
        return (out, perft(s, depth));
    }
    for a in s.legal_actions() {
        if matches!(a, Action::Demand) {
            continue;
        }
        let n = perft(&s.child(a), depth - 1);
        total += n;
        out.push((a, n));
    }
    (out, total)
}
