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
use engine::search::alphabeta::Score;
use engine::search::expectimax::{ExpectiGame, Expectimax, ExpectimaxConfig};
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

/// What a hidden-game search found: the best action and the line it expects.
#[derive(Clone, Debug)]
pub struct HiddenResult {
    /// The best action.
    pub best: Action,
    /// The expected line as UCI move texts, the best action first (see [`search`]).
    pub pv: Vec<String>,
}

/// Searches `state` (decision node; its side to move's view is what is searched) with the game's
/// public `record`, printing `info` lines with `out`; `None` when there is no legal action.
///
/// One `info` line per completed iteration (also when only one action is legal, searched to at
/// most [`FORCED_DEPTH`] plies for its score): `depth`, `seldepth` (deepest ply reached, quiescence
/// included), `score cp|mate`, `wdl` ([`crate::uci::wdl`]), `nodes`, `nps`, `time` and the PV: the
/// best action, then the line expected in the most-weighted determinization (each next action
/// from a search one ply shallower), up to the first reveal, whose outcome is chance.
pub fn search(state: &State, record: &[RecordPly], limits: &HiddenLimits, stop: &Arc<AtomicBool>, out: &mut dyn FnMut(&str)) -> Option<HiddenResult> {
    let start = Instant::now();
    let mut legal = state.legal_actions();
    legal.retain(|a| !matches!(a, Action::Demand));
    if !limits.searchmoves.is_empty() {
        legal.retain(|a| limits.searchmoves.contains(a));
    }
    let first = *legal.first()?;
    if legal.iter().any(|a| matches!(a, Action::Layout { .. } | Action::Place { .. })) {
        // A secret set-up whose choices look alike to every evaluation: the engine's
        // deterministic pick (engine::search::setup_choice chooses at random in-process).
        let text = vnot::action_string(state, first);
        out("info string a secret set-up choice: not searched");
        out(&format!("info depth 0 seldepth 0 score cp 0 nodes 0 nps 0 time {} pv {text}", start.elapsed().as_millis()));
        return Some(HiddenResult { best: first, pv: vec![text] });
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
    let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, 64);
    if legal.len() == 1 {
        // A forced move: searched only for the score the GUI shows.
        max_depth = max_depth.min(FORCED_DEPTH);
    }
    // The PV follows the determinization with the most weight.
    let heaviest = dets.iter().enumerate().fold(0, |b, (i, d)| if d.1 > dets[b].1 { i } else { b });
    let elapsed = || start.elapsed().as_millis() as u64;
    let mut best = (first, 0.0);
    let mut pv = vec![vnot::action_string(state, first)];
    let mut nodes = 0u64;
    for depth in 1..=max_depth {
        let mut sum = vec![0.0; legal.len()];
        let mut seen = vec![0.0; legal.len()];
        let mut complete = true;
        let mut searched = 0;
        let mut seldepth = 0;
        let nodes_before = nodes;
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
            let cfg = ExpectimaxConfig { depth, qdepth: 4, nodes: left_nodes.or(cap), ms: left_ms, samples: 1, ..ExpectimaxConfig::default() };
            let mut e = Expectimax::new(cfg).with_stop(stop.clone());
            let r = e.search_in_game(det, record);
            nodes += r.nodes;
            seldepth = seldepth.max(r.seldepth);
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
        if searched == 0 {
            // Stopped before any determinization finished depth 1: nothing to report (the first
            // legal action is played).
            break;
        }
        let scored = (0..legal.len()).filter(|&i| seen[i] > 0.0).map(|i| (legal[i], sum[i] / seen[i]));
        if let Some(b) = scored.fold(None, |acc: Option<(Action, f64)>, x| if acc.is_none_or(|a| x.1 > a.1) { Some(x) } else { acc }) {
            best = b;
        }
        // The rest of the line, within a quarter of this iteration's nodes and the time left.
        let budget = ((nodes - nodes_before) / 4).max(2_000);
        let (line, line_nodes) = expected_line(&dets[heaviest].0, record, best.0, depth, budget, limits, stop, elapsed());
        nodes += line_nodes;
        pv = line;
        let ms = elapsed();
        let (w, d, l) = crate::uci::wdl(crate::uci::WDL_JIEQI, &uci_score(best.1));
        out(&format!(
            "info depth {depth} seldepth {} score {} wdl {w} {d} {l} nodes {nodes} nps {} time {ms} pv {}",
            seldepth.max(depth),
            uci_score_text(best.1),
            nodes * 1000 / ms.max(1),
            pv.join(" ")
        ));
        if !complete || best.1.abs() >= engine::search::expectimax::MATE / 2.0 {
            break;
        }
        if limits.soft_time_ms.is_some_and(|soft| ms >= soft) {
            break;
        }
    }
    Some(HiddenResult { best: best.0, pv })
}

/// Deepest search of a forced move (one legal action), plies: enough for a score to show.
pub const FORCED_DEPTH: u32 = 3;

/// The line expected after `first` in the determinization `det`: `first`, then each side's best
/// action from a search one ply shallower than the last, until a reveal (chance), the end of
/// the game, depth 1, or the `budget` of nodes, the time or `stop` runs out. The move texts and
/// the nodes spent.
#[allow(clippy::too_many_arguments)]
fn expected_line(det: &State, record: &[RecordPly], first: Action, depth: u32, budget: u64, limits: &HiddenLimits, stop: &Arc<AtomicBool>, elapsed_ms: u64) -> (Vec<String>, u64) {
    let started = Instant::now();
    let mut line = vec![vnot::action_string(det, first)];
    let mut rec = record.to_vec();
    let mut s = det.clone();
    let mut nodes = 0u64;
    let mut a = first;
    for d in (1..depth).rev() {
        let next = s.child(a);
        if next.is_chance() || next.legal_actions().is_empty() {
            break;
        }
        rec.push(s.record_ply(a, &next));
        s = next;
        let left_ms = limits.time_ms.map(|t| t.saturating_sub(elapsed_ms + started.elapsed().as_millis() as u64));
        if stop.load(Ordering::Relaxed) || left_ms == Some(0) || nodes >= budget {
            break;
        }
        let cfg = ExpectimaxConfig { depth: d, qdepth: 4, nodes: Some(budget - nodes), ms: left_ms, samples: 1, ..ExpectimaxConfig::default() };
        let r = Expectimax::new(cfg).with_stop(stop.clone()).search_in_game(&s, &rec);
        nodes += r.nodes;
        match r.best() {
            Some((b, _)) if r.depth == d && !matches!(b, Action::Demand) => {
                line.push(vnot::action_string(&s, b));
                a = b;
            }
            _ => break,
        }
    }
    (line, nodes)
}

/// The UCI score of an expectimax value: a mate in N moves (negative when mated) for mate
/// scores (`±(MATE - plies)`), else centipawns.
fn uci_score(v: f64) -> Score {
    let mate = engine::search::expectimax::MATE;
    if v.abs() >= mate / 2.0 {
        let plies = (mate - v.abs()).round() as i32;
        let moves = (plies + 1) / 2;
        Score::Mate(if v > 0.0 { moves } else { -moves })
    } else {
        Score::Cp(v.round() as i32)
    }
}

/// `cp N` or `mate N` of an expectimax value.
fn uci_score_text(v: f64) -> String {
    match uci_score(v) {
        Score::Cp(c) => format!("cp {c}"),
        Score::Mate(m) => format!("mate {m}"),
    }
}
