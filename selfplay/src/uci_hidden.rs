//! `anqi uci` in the hidden-information variants (Surprise, Fan-qi, Jieqi): the search plays the
//! hidden game from its side's view (issue 13 item 4), never the full state it was handed.
//!
//! From the side to move's [`View`] it draws a fixed sequence of determinizations (the opponent's
//! Surprise layout, the owner's-choice arrangement and the captured identities it did not see;
//! in the random modes the undetermined pool stays undetermined) and searches each with
//! [`Expectimax`]: reveals are chance nodes weighted by the pool (as Pikafish's Jieqi branch
//! searches them), Surprise flips and face-down moves are searched, and the game's record is seen
//! (repetition, perpetual check and chase). Equal determinizations are searched once, weighted by
//! their count. Iterative deepening: the mean score per action over the determinizations searched
//! to depth `d` (all of them, or those finished before a budget ran out) picks the move, and an
//! `info` line reports it. Budgets: `go depth` (default 12), `nodes`, `movetime` and the clocks (as for
//! xiangqi), `stop` (checked between determinizations and inside each search through its time
//! budget); `infinite` and `ponder` search until `stop`.

use engine::repetition::RecordPly;
use engine::search::expectimax::{Expectimax, ExpectimaxConfig};
use engine::variant::{notation as vnot, Action, State, View};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Determinizations searched per depth.
pub const DETERMINIZATIONS: u32 = 6;
/// Deepest iteration without a `depth` limit.
pub const MAX_DEPTH: u32 = 12;

/// Limits of one hidden-game search.
#[derive(Clone, Debug, Default)]
pub struct HiddenLimits {
    /// Deepest iteration (plies).
    pub depth: Option<u32>,
    /// Node budget (all determinizations together).
    pub nodes: Option<u64>,
    /// Hard time budget in ms.
    pub time_ms: Option<u64>,
    /// Soft time budget: no new iteration starts after it.
    pub soft_time_ms: Option<u64>,
    /// Only these actions are considered (`searchmoves`), when not empty.
    pub searchmoves: Vec<Action>,
}

/// Searches `state` (decision node; its side to move's view is what is searched) with the game's
/// public `record`, printing `info` lines with `out`; the best action, `None` when there is no
/// legal action.
pub fn search(state: &State, record: &[RecordPly], limits: &HiddenLimits, stop: &Arc<AtomicBool>, out: &mut dyn FnMut(&str)) -> Option<Action> {
    let start = Instant::now();
    let mut legal = state.legal_actions();
    legal.retain(|a| !matches!(a, Action::Demand));
    if !limits.searchmoves.is_empty() {
        legal.retain(|a| limits.searchmoves.contains(a));
    }
    let first = *legal.first()?;
    if legal.len() == 1 || legal.iter().any(|a| matches!(a, Action::Layout { .. } | Action::Place { .. })) {
        // One choice, or a secret set-up whose choices look alike to every evaluation: the
        // engine's deterministic pick (engine::search::setup_choice chooses at random in-process).
        return Some(first);
    }
    let view = View::new(state, state.turn());
    let mut rng = Pcg64Mcg::seed_from_u64(0x5EED);
    // Equal determinizations are searched once and weighted by their count (in Jieqi, before a
    // capture the view hides nothing but the pool, which stays chance: one determinization).
    let mut dets: Vec<(State, f64)> = Vec::new();
    for _ in 0..DETERMINIZATIONS {
        let d = view.sample(&mut rng);
        let fen = engine::variant::fen::write(&d);
        match dets.iter_mut().find(|(x, _)| engine::variant::fen::write(x) == fen) {
            Some(e) => e.1 += 1.0,
            None => dets.push((d, 1.0)),
        }
    }
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, 64);
    let elapsed = || start.elapsed().as_millis() as u64;
    let mut best = (first, 0.0);
    let mut nodes = 0u64;
    for depth in 1..=max_depth {
        let mut sum = vec![0.0; legal.len()];
        let mut seen = vec![0.0; legal.len()];
        let mut complete = true;
        let mut searched = 0;
        for (det, weight) in &dets {
            let left_ms = limits.time_ms.map(|t| t.saturating_sub(elapsed()));
            let left_nodes = limits.nodes.map(|n| n.saturating_sub(nodes));
            if stop.load(Ordering::Relaxed) || left_ms == Some(0) || left_nodes == Some(0) {
                complete = false;
                break;
            }
            // Without a node budget each search keeps expectimax's default cap, which bounds the
            // rare explosions of chance nodes (a face-down piece taking a face-down piece).
            let cap = ExpectimaxConfig::default().nodes;
            let cfg = ExpectimaxConfig { depth, qdepth: 4, nodes: left_nodes.or(cap), ms: left_ms, samples: 1 };
            let mut e = Expectimax::new(cfg).with_stop(stop.clone());
            let r = e.search_in_game(det, record);
            nodes += r.nodes;
            if r.depth < depth {
                complete = false;
                break;
            }
            for (a, v) in r.values {
                if let Some(i) = legal.iter().position(|x| *x == a) {
                    sum[i] += weight * v;
                    seen[i] += weight;
                }
            }
            searched += 1;
        }
        // An iteration cut short still counts when at least one determinization finished it (as
        // PIMC's budget does): a deeper search of part of the view beats a shallower one of all.
        if searched == 0 && depth > 1 {
            break;
        }
        let scored = (0..legal.len()).filter(|&i| seen[i] > 0.0).map(|i| (legal[i], sum[i] / seen[i]));
        if let Some(b) = scored.fold(None, |acc: Option<(Action, f64)>, x| if acc.is_none_or(|a| x.1 > a.1) { Some(x) } else { acc }) {
            best = b;
        }
        let ms = elapsed();
        out(&format!(
            "info depth {depth} score {} nodes {nodes} nps {} time {ms} pv {}",
            uci_score(best.1),
            nodes * 1000 / ms.max(1),
            vnot::action_string(state, best.0)
        ));
        if !complete || best.1.abs() >= engine::search::expectimax::MATE / 2.0 {
            break;
        }
        if limits.soft_time_ms.is_some_and(|soft| ms >= soft) {
            break;
        }
    }
    Some(best.0)
}

/// The UCI `score` of an expectimax value: `mate N` (moves, negative when mated) for mate scores
/// (`±(MATE - plies)`), else `cp N`.
fn uci_score(v: f64) -> String {
    let mate = engine::search::expectimax::MATE;
    if v.abs() >= mate / 2.0 {
        let plies = (mate - v.abs()).round() as i64;
        let moves = (plies + 1) / 2;
        format!("mate {}", if v > 0.0 { moves } else { -moves })
    } else {
        format!("cp {}", v.round() as i64)
    }
}
