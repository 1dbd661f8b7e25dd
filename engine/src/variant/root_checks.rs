//! The variants' checks at the root of a search that settle a move without the tree (the farm's
//! net search, `SearchConfig::root_win_check`, `root_mate_in_two`, `root_loss_check`, through
//! [`crate::search::Scored::root_win`] and [`crate::search::Scored::root_losing`]): a win in one
//! or a mate in two played at once, and moves that allow an immediate loss excluded; plus the
//! rules' end values of a determinized state ([`terminal_value`]).
//!
//! Information: every check samples determinizations of the mover's [`View`] only.

use super::state::Agreement;
use super::{Action, Hidden, State, View};
use crate::Color;
use rand::Rng;

/// The value of a finished determinized state for its side to act, if it is finished
/// (RULES.md §X4-X6, §K7, §S11; repetition excepted, see the module docs).
pub fn terminal_value(s: &State, no_actions: bool) -> Option<f32> {
    let me = s.turn();
    let lose_if = |c: Color| if c == me { -1.0 } else { 1.0 };
    match s.agreement() {
        Some(Agreement::Resigned(c)) => return Some(lose_if(c)),
        Some(Agreement::Drawn) => return Some(0.0),
        None => {}
    }
    if let Some(c) = s.grind_loss() {
        return Some(lose_if(c));
    }
    if no_actions {
        return Some(-1.0);
    }
    let pos = s.position();
    let end = &pos.rules().end;
    if end.no_capture_plies.is_some_and(|limit| pos.halfmove() >= limit) {
        return Some(0.0);
    }
    if end.no_attacker_draw && !pos.has_attacking_material() && s.face_down().is_empty() {
        return Some(0.0);
    }
    None
}

/// Whether the side to act in `s` has a move or flip after which the opponent has lost (mate,
/// stalemate §X4, grinding §K7) without chance. As in the loss check, only answers that give
/// check (or grind) are tested outside King chess: a stalemate without check is rare.
fn has_win_in_one(s: &State) -> bool {
    let king = s.variant().caps.king_pieces;
    let mut won = false;
    s.visit_actions(&mut |a| {
        if won || !matches!(a, Action::Move { .. } | Action::Flip { .. }) {
            return;
        }
        let c = s.child(a);
        if !king && !c.position().in_check() && c.grind_loss().is_none() {
            return;
        }
        won = !c.is_chance() && c.turn() != s.turn() && terminal_value(&c, c.legal_actions().is_empty()) == Some(-1.0);
    });
    won
}

/// A root action (index into `root_actions`, the legal actions of `view`'s player) after which
/// the opponent has lost in every one of a few determinizations (one when the variant hides
/// nothing); actions leading to chance are not considered.
pub fn immediate_win(view: &View, root_actions: &[Action], rng: &mut impl Rng) -> Option<usize> {
    // One determinization says it all when nothing is hidden.
    let samples = if view.known().variant().caps.hidden == Hidden::None { 1 } else { 4 };
    let dets: Vec<State> = (0..samples).map(|_| view.sample(rng)).collect();
    'actions: for (i, &a) in root_actions.iter().enumerate() {
        if !matches!(a, Action::Move { .. } | Action::Flip { .. }) {
            continue;
        }
        for d in &dets {
            if d.is_chance() {
                return None;
            }
            let c = d.child(a);
            if c.is_chance() || terminal_value(&c, c.legal_actions().is_empty()) != Some(-1.0) || c.turn() == d.turn() {
                continue 'actions;
            }
        }
        return Some(i);
    }
    None
}

/// A root move that gives check and after which every reply of the opponent allows a win
/// in one (the farm's `SearchConfig::root_mate_in_two`), in each of a few determinizations (one
/// when the variant hides nothing); actions leading to chance are not considered.
pub fn mate_in_two(view: &View, root_actions: &[Action], rng: &mut impl Rng) -> Option<usize> {
    let samples = if view.known().variant().caps.hidden == Hidden::None { 1 } else { 2 };
    let me = view.player();
    let dets: Vec<State> = (0..samples).map(|_| view.sample(rng)).collect();
    if dets.iter().any(State::is_chance) {
        return None;
    }
    'actions: for (i, &a) in root_actions.iter().enumerate() {
        if !matches!(a, Action::Move { .. }) {
            continue;
        }
        for d in &dets {
            let c = d.child(a);
            if c.is_chance() || c.turn() == me || !c.position().in_check() {
                continue 'actions;
            }
            let replies = c.legal_actions();
            if replies.is_empty() {
                continue 'actions; // a win in one: immediate_win's case
            }
            for &b in &replies {
                let cc = c.child(b);
                if cc.is_chance() || cc.turn() != me || !has_win_in_one(&cc) {
                    continue 'actions;
                }
            }
        }
        return Some(i);
    }
    None
}

/// Indices into `root_actions` of actions after which the opponent wins at once in one of a few determinizations (one when the variant hides nothing).
/// Replies are tested only when they give check (or in King chess, where the king piece may not
/// be the general), since a position without check where the side to move has no action (a
/// stalemate, §X4) is rare.
pub fn losing_actions(view: &View, root_actions: &[Action], rng: &mut impl Rng) -> Vec<usize> {
    let caps = view.known().variant().caps;
    let samples = if caps.hidden == Hidden::None { 1 } else { 2 };
    let me = view.player();
    let dets: Vec<State> = (0..samples).map(|_| view.sample(rng)).collect();
    let mut out = Vec::new();
    'actions: for (i, &a) in root_actions.iter().enumerate() {
        if !matches!(a, Action::Move { .. } | Action::Flip { .. }) {
            continue;
        }
        for d in &dets {
            if d.is_chance() {
                return Vec::new();
            }
            let c = d.child(a);
            if c.is_chance() || c.turn() == me {
                continue;
            }
            let mut lost = false;
            c.visit_actions(&mut |b| {
                if lost || !matches!(b, Action::Move { .. } | Action::Flip { .. }) {
                    return;
                }
                let cc = c.child(b);
                if cc.is_chance() || cc.turn() != me {
                    return;
                }
                if !caps.king_pieces && !cc.position().in_check() && cc.grind_loss().is_none() {
                    return;
                }
                lost = terminal_value(&cc, cc.legal_actions().is_empty()) == Some(-1.0);
            });
            if lost {
                out.push(i);
                continue 'actions;
            }
        }
    }
    out
}
