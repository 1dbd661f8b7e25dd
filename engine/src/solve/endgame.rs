//! Small endgames with hidden pieces solved as extensive-form games: a variant position (e.g. a
//! Jieqi ending with two or three face-down pieces, RULES.md §F9) behind [`VariantGameState`],
//! cut at a ply horizon where the static evaluation gives the payoff (`tanh(eval / scale)`, Red's
//! point of view), solved by any algorithm of [`super::Algorithm`] (Monte Carlo CFR by default,
//! Lanctot et al. 2009), with the exploitability of the average strategy computed exactly on the
//! enumerated tree ([`mod@super::best_response`]). Chance is the reveals of §P2; the hidden
//! information is the capturer-only knowledge of §F6 (and, in owner's-choice modes or Surprise,
//! the owner's secrets).

use std::time::{Duration, Instant};

use crate::game::{Game, Turn};
use crate::variant::game_state::{GameOptions, Leaf, VariantGameState};
use crate::variant::State;

use super::{evaluate_on_tree, new_solver, Algorithm, GameTree, SolveError};

/// Options of an endgame solve.
#[derive(Clone, Debug)]
pub struct EndgameOptions {
    /// Horizon in plies from the position.
    pub plies: u32,
    /// Centipawns mapped to tanh(1) at the horizon.
    pub scale: f64,
    /// Solver.
    pub algorithm: Algorithm,
    /// Iterations.
    pub iterations: u64,
    /// Seed of the sampling solvers.
    pub seed: u64,
}

/// The result of an endgame solve.
#[derive(Clone, Debug)]
pub struct EndgameReport {
    /// Nodes of the enumerated tree.
    pub nodes: usize,
    /// Information sets of the tree.
    pub infosets: usize,
    /// Chance nodes of the tree.
    pub chance_nodes: usize,
    /// Red's expected value under the average strategy, in [-1, 1].
    pub value: f64,
    /// Exploitability (NashConv / 2) of the average strategy.
    pub exploitability: f64,
    /// Exploitability of the uniform strategy, for scale.
    pub uniform_exploitability: f64,
    /// Iterations run.
    pub iterations: u64,
    /// Solver time.
    pub solve_time: Duration,
    /// The root player's average strategy at the root: action text and probability.
    pub root_strategy: Vec<(String, f64)>,
}

/// Solves the endgame at `state`.
///
/// # Errors
/// Tree construction and solver errors ([`SolveError`]).
pub fn solve(state: State, opts: &EndgameOptions) -> Result<EndgameReport, SolveError> {
    let root = VariantGameState::with_options(state, GameOptions { max_plies: opts.plies, leaf: Leaf::Eval { scale_cp: opts.scale } });
    let tree = GameTree::build(&root)?;
    let chance_nodes = tree.nodes.iter().filter(|n| matches!(n, super::tree::Node::Chance { .. })).count();
    let uniform = evaluate_on_tree(&tree, &tree.uniform_strategy());
    let mut solver = new_solver(&root, opts.algorithm, opts.seed)?;
    let start = Instant::now();
    while solver.iterations() < opts.iterations {
        solver.iterate();
    }
    let solve_time = start.elapsed();
    let policy = solver.average_policy();
    let eval = evaluate_on_tree(&tree, &policy.to_slots(&tree));
    let mut root_strategy = Vec::new();
    if let Turn::Player(p) = root.turn() {
        let actions = root.legal_actions();
        let key = root.infoset_key(p);
        let probs: Vec<f64> = match policy.get(p, key) {
            Some(ip) => ip.probs.clone(),
            None => vec![1.0 / actions.len() as f64; actions.len()],
        };
        for (a, q) in actions.iter().zip(probs) {
            root_strategy.push((root.action_string(*a), q));
        }
        root_strategy.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
    }
    Ok(EndgameReport {
        nodes: tree.nodes.len(),
        infosets: tree.infosets.len(),
        chance_nodes,
        value: eval.values[0],
        exploitability: eval.exploitability,
        uniform_exploitability: uniform.exploitability,
        iterations: solver.iterations(),
        solve_time,
        root_strategy,
    })
}
