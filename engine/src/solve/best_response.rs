//! Exact evaluation of a policy by full tree enumeration (small games only): expected values,
//! best response, NashConv and exploitability, with OpenSpiel's definitions
//! (`open_spiel/python/algorithms/exploitability.py`):
//!
//! * `NashConv(σ) = Σ_p (BR_p(σ_{-p}) - u_p(σ))`, the total gain available to the players by
//!   each deviating alone to a best response;
//! * `exploitability(σ) = NashConv(σ) / 2` for two-player zero-sum games, i.e. the mean of the
//!   two best-response values. It is 0 exactly at a Nash equilibrium.
//!
//! The best response is computed as in OpenSpiel's `BestResponsePolicy`: at each of the
//! responder's information sets `I` it plays `argmax_a Σ_{h ∈ I} π_{-p}(h) v(h·a)`, where
//! `π_{-p}` is the reach probability due to chance and the opponent, and `v` the responder's
//! value below under that same best response.

use std::collections::HashMap;

use crate::game::{Action, Game, PlayerId};

use super::policy::{slots_from_policy, InfosetPolicy, Policy, TabularPolicy};
use super::tree::{GameTree, Node};
use super::SolveError;

/// A best response of one player to the other's fixed strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct BestResponse {
    /// The responding player.
    pub player: PlayerId,
    /// The responder's expected return (in game units) playing the best response.
    pub value: f64,
    /// The chosen action at each of the responder's information sets, by information-set key.
    pub actions: HashMap<u64, Action>,
}

/// Values of a strategy profile: expected returns, best-response values, NashConv and
/// exploitability. All in game units (chips for poker).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// Expected return of each player when both follow the profile.
    pub values: [f64; 2],
    /// Each player's best-response value against the other's strategy.
    pub best_response_values: [f64; 2],
    /// `Σ_p (best_response_values[p] - values[p])`.
    pub nash_conv: f64,
    /// `nash_conv / 2` (OpenSpiel's `exploitability` for two players).
    pub exploitability: f64,
}

/// Expected returns of both players under a slot-indexed strategy profile on `tree`.
pub fn expected_values_on_tree(tree: &GameTree, strategy: &[f64]) -> [f64; 2] {
    // Children have larger indices than parents: one backward sweep evaluates the tree.
    let mut value = vec![[0.0f64; 2]; tree.nodes.len()];
    for i in (0..tree.nodes.len()).rev() {
        value[i] = match tree.nodes[i] {
            Node::Terminal { returns } => returns,
            Node::Chance { first, len } => {
                let children = first as usize..(first + len) as usize;
                let mut v = [0.0; 2];
                for (p, c) in tree.chance_prob[children.clone()]
                    .iter()
                    .zip(&value[children])
                {
                    v[0] += p * c[0];
                    v[1] += p * c[1];
                }
                v
            }
            Node::Decision {
                slot, first, len, ..
            } => {
                let mut v = [0.0; 2];
                for a in 0..len as usize {
                    let p = strategy[slot as usize + a];
                    let c = first as usize + a;
                    v[0] += p * value[c][0];
                    v[1] += p * value[c][1];
                }
                v
            }
        };
    }
    value[0]
}

/// Best response of `player` to the other player's part of the slot-indexed `strategy`.
pub fn best_response_on_tree(tree: &GameTree, strategy: &[f64], player: PlayerId) -> BestResponse {
    let seat = player.index() as u8;
    // Reach probability of every node due to chance and the opponent.
    let mut reach = vec![0.0f64; tree.nodes.len()];
    reach[0] = 1.0;
    for i in 0..tree.nodes.len() {
        match tree.nodes[i] {
            Node::Terminal { .. } => {}
            Node::Chance { first, len } => {
                for c in first as usize..(first + len) as usize {
                    reach[c] = reach[i] * tree.chance_prob[c];
                }
            }
            Node::Decision {
                player: mover,
                slot,
                first,
                len,
                ..
            } => {
                for a in 0..len as usize {
                    let p = if mover == seat {
                        1.0
                    } else {
                        strategy[slot as usize + a]
                    };
                    reach[first as usize + a] = reach[i] * p;
                }
            }
        }
    }
    let mut ctx = BrContext {
        tree,
        strategy,
        seat,
        reach,
        value: vec![f64::NAN; tree.nodes.len()],
        best: vec![None; tree.infosets.len()],
    };
    let value = ctx.value(0);
    let mut actions = HashMap::new();
    for (i, choice) in ctx.best.iter().enumerate() {
        if let Some(a) = *choice {
            let info = &tree.infosets[i];
            actions.insert(info.key, tree.slot_actions[(info.slot + a) as usize]);
        }
    }
    BestResponse {
        player,
        value,
        actions,
    }
}

/// State of one best-response computation.
struct BrContext<'a> {
    tree: &'a GameTree,
    strategy: &'a [f64],
    seat: u8,
    /// Chance-and-opponent reach of each node.
    reach: Vec<f64>,
    /// Memoised responder value of each node (NaN = not yet computed).
    value: Vec<f64>,
    /// Memoised best action (index into the information set's actions).
    best: Vec<Option<u32>>,
}

impl BrContext<'_> {
    /// Responder's value at `node` when the responder best-responds below.
    fn value(&mut self, node: u32) -> f64 {
        let cached = self.value[node as usize];
        if !cached.is_nan() {
            return cached;
        }
        let v = match self.tree.nodes[node as usize] {
            Node::Terminal { returns } => returns[self.seat as usize],
            Node::Chance { first, len } => (first..first + len)
                .map(|c| self.tree.chance_prob[c as usize] * self.value(c))
                .sum(),
            Node::Decision {
                player,
                infoset,
                slot,
                first,
                len,
            } => {
                if player == self.seat {
                    let a = self.best_action(infoset);
                    self.value(first + a)
                } else {
                    let mut v = 0.0;
                    for a in 0..len {
                        let p = self.strategy[(slot + a) as usize];
                        if p > 0.0 {
                            v += p * self.value(first + a);
                        }
                    }
                    v
                }
            }
        };
        self.value[node as usize] = v;
        v
    }

    /// The responder's best action at `infoset`: maximises the reach-weighted action value.
    fn best_action(&mut self, infoset: u32) -> u32 {
        if let Some(a) = self.best[infoset as usize] {
            return a;
        }
        let tree = self.tree;
        let len = tree.infosets[infoset as usize].len;
        let mut best = (0u32, f64::NEG_INFINITY);
        for a in 0..len {
            let mut q = 0.0;
            for &h in tree.nodes_of(infoset) {
                let w = self.reach[h as usize];
                if w > 0.0 {
                    if let Node::Decision { first, .. } = tree.nodes[h as usize] {
                        q += w * self.value(first + a);
                    }
                }
            }
            if q > best.1 {
                best = (a, q);
            }
        }
        self.best[infoset as usize] = Some(best.0);
        best.0
    }
}

/// Expected values, best responses, NashConv and exploitability of a slot-indexed profile.
pub fn evaluate_on_tree(tree: &GameTree, strategy: &[f64]) -> Evaluation {
    let values = expected_values_on_tree(tree, strategy);
    let best_response_values =
        PlayerId::BOTH.map(|p| best_response_on_tree(tree, strategy, p).value);
    let nash_conv = (best_response_values[0] - values[0]) + (best_response_values[1] - values[1]);
    Evaluation {
        values,
        best_response_values,
        nash_conv,
        exploitability: nash_conv / 2.0,
    }
}

/// Exploitability of a slot-indexed profile: `NashConv / 2`.
pub fn exploitability_on_tree(tree: &GameTree, strategy: &[f64]) -> f64 {
    evaluate_on_tree(tree, strategy).exploitability
}

/// Evaluates `policy` on the full game below `root` (expected values, best responses, NashConv,
/// exploitability), by tree enumeration.
///
/// # Errors
/// Tree construction errors ([`GameTree::build`]) and [`SolveError::BadPolicy`].
pub fn evaluate<G: Game, P: Policy<G> + ?Sized>(
    root: &G,
    policy: &P,
) -> Result<Evaluation, SolveError> {
    let tree = GameTree::build(root)?;
    let strategy = slots_from_policy(&tree, root, policy)?;
    Ok(evaluate_on_tree(&tree, &strategy))
}

/// OpenSpiel's `exploitability`: `NashConv / 2` (0 at a Nash equilibrium).
///
/// # Errors
/// As [`evaluate`].
pub fn exploitability<G: Game, P: Policy<G> + ?Sized>(
    root: &G,
    policy: &P,
) -> Result<f64, SolveError> {
    Ok(evaluate(root, policy)?.exploitability)
}

/// OpenSpiel's `nash_conv`: the sum over players of their best-response gains.
///
/// # Errors
/// As [`evaluate`].
pub fn nash_conv<G: Game, P: Policy<G> + ?Sized>(root: &G, policy: &P) -> Result<f64, SolveError> {
    Ok(evaluate(root, policy)?.nash_conv)
}

/// Expected return of each player when both follow `policy`.
///
/// # Errors
/// As [`evaluate`].
pub fn expected_values<G: Game, P: Policy<G> + ?Sized>(
    root: &G,
    policy: &P,
) -> Result<[f64; 2], SolveError> {
    let tree = GameTree::build(root)?;
    let strategy = slots_from_policy(&tree, root, policy)?;
    Ok(expected_values_on_tree(&tree, &strategy))
}

/// Best response of `player` to `policy` (the other player's part of it).
///
/// # Errors
/// As [`evaluate`].
pub fn best_response<G: Game, P: Policy<G> + ?Sized>(
    root: &G,
    policy: &P,
    player: PlayerId,
) -> Result<BestResponse, SolveError> {
    let tree = GameTree::build(root)?;
    let strategy = slots_from_policy(&tree, root, policy)?;
    Ok(best_response_on_tree(&tree, &strategy, player))
}

/// The best response as a deterministic [`TabularPolicy`] for the responder's information sets.
pub fn best_response_policy(tree: &GameTree, response: &BestResponse) -> TabularPolicy {
    let mut policy = TabularPolicy::new();
    for &i in &tree.player_infosets[response.player.index()] {
        let info = &tree.infosets[i as usize];
        let actions =
            tree.slot_actions[info.slot as usize..(info.slot + info.len) as usize].to_vec();
        // Information sets the response never reaches keep their first action.
        let chosen = response
            .actions
            .get(&info.key)
            .copied()
            .or(actions.first().copied());
        let probs = actions
            .iter()
            .map(|&a| if Some(a) == chosen { 1.0 } else { 0.0 })
            .collect();
        policy.insert(response.player, info.key, InfosetPolicy { actions, probs });
    }
    policy
}
