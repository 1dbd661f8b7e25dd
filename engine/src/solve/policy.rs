//! Policies: a probability distribution over legal actions at every decision state, as the
//! solvers produce them and as best response and evaluation consume them.

use std::collections::HashMap;

use crate::game::{Action, Game, PlayerId};

use super::tree::GameTree;
use super::SolveError;

/// A (behavioural) policy for every player of a game.
///
/// Implementations must depend on the state only through the acting player's information
/// state, as a strategy in an imperfect-information game must.
pub trait Policy<G: Game> {
    /// Writes into `out` (one entry per legal action of `state`, in the order of
    /// [`Game::legal_actions`]) the probability that `player`, who is to act at `state`, plays
    /// each action. The entries are non-negative and sum to 1.
    fn action_probabilities(&self, state: &G, player: PlayerId, out: &mut [f64]);
}

/// The uniform random policy: every legal action with equal probability.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UniformPolicy;

impl<G: Game> Policy<G> for UniformPolicy {
    fn action_probabilities(&self, _state: &G, _player: PlayerId, out: &mut [f64]) {
        let p = 1.0 / out.len() as f64;
        out.fill(p);
    }
}

/// A policy stored as a table from (player, information-set key) to action probabilities,
/// in legal-action order. Information sets missing from the table play uniformly.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TabularPolicy {
    table: HashMap<(PlayerId, u64), InfosetPolicy>,
}

/// The policy at one information set.
#[derive(Clone, Debug, PartialEq)]
pub struct InfosetPolicy {
    /// The legal actions, in the game's order.
    pub actions: Vec<Action>,
    /// Probability of each action (same length as `actions`, summing to 1).
    pub probs: Vec<f64>,
}

impl TabularPolicy {
    /// An empty table (uniform everywhere).
    pub fn new() -> TabularPolicy {
        TabularPolicy::default()
    }

    /// Sets the policy of `player` at the information set `key`.
    pub fn insert(&mut self, player: PlayerId, key: u64, policy: InfosetPolicy) {
        self.table.insert((player, key), policy);
    }

    /// The policy of `player` at information set `key`, if stored.
    pub fn get(&self, player: PlayerId, key: u64) -> Option<&InfosetPolicy> {
        self.table.get(&(player, key))
    }

    /// Number of stored information sets.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether no information set is stored.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// All stored entries, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (PlayerId, u64, &InfosetPolicy)> {
        self.table.iter().map(|(&(p, k), v)| (p, k, v))
    }

    /// Builds a table from a slot-indexed strategy over a compiled tree (see [`GameTree`]).
    pub fn from_slots(tree: &GameTree, strategy: &[f64]) -> TabularPolicy {
        let mut table = HashMap::with_capacity(tree.infosets.len());
        for info in &tree.infosets {
            let slots = info.slot as usize..(info.slot + info.len) as usize;
            let policy = InfosetPolicy {
                actions: tree.slot_actions[slots.clone()].to_vec(),
                probs: strategy[slots].to_vec(),
            };
            table.insert((info.player, info.key), policy);
        }
        TabularPolicy { table }
    }

    /// The table as a slot-indexed strategy over `tree` (uniform where an information set is
    /// missing or stored with a different number of actions).
    pub fn to_slots(&self, tree: &GameTree) -> Vec<f64> {
        let mut out = tree.uniform_strategy();
        for info in &tree.infosets {
            if let Some(entry) = self.table.get(&(info.player, info.key)) {
                if entry.probs.len() == info.len as usize {
                    out[info.slot as usize..(info.slot + info.len) as usize]
                        .copy_from_slice(&entry.probs);
                }
            }
        }
        out
    }
}

impl<G: Game> Policy<G> for TabularPolicy {
    fn action_probabilities(&self, state: &G, player: PlayerId, out: &mut [f64]) {
        match self.table.get(&(player, state.infoset_key(player))) {
            Some(entry) if entry.probs.len() == out.len() => out.copy_from_slice(&entry.probs),
            _ => out.fill(1.0 / out.len() as f64),
        }
    }
}

/// Evaluates `policy` once per information set of `tree` (at its first state, found by walking
/// the game from `root` alongside the tree) and returns it as a slot-indexed strategy.
///
/// # Errors
/// [`SolveError::BadPolicy`] if the policy returns probabilities that are negative or do not
/// sum to 1 (within 1e-6).
pub fn slots_from_policy<G: Game, P: Policy<G> + ?Sized>(
    tree: &GameTree,
    root: &G,
    policy: &P,
) -> Result<Vec<f64>, SolveError> {
    let mut strategy = vec![f64::NAN; tree.num_slots()];
    let mut filled = vec![false; tree.infosets.len()];
    let mut actions = Vec::new();
    fill(
        tree,
        root,
        0,
        policy,
        &mut strategy,
        &mut filled,
        &mut actions,
    )?;
    Ok(strategy)
}

/// Recursive helper of [`slots_from_policy`].
fn fill<G: Game, P: Policy<G> + ?Sized>(
    tree: &GameTree,
    state: &G,
    node: u32,
    policy: &P,
    strategy: &mut [f64],
    filled: &mut [bool],
    actions: &mut Vec<Action>,
) -> Result<(), SolveError> {
    match tree.nodes[node as usize] {
        super::tree::Node::Terminal { .. } => Ok(()),
        super::tree::Node::Chance { first, len } => {
            let outcomes = state.chance_outcomes();
            debug_assert_eq!(outcomes.len(), len as usize);
            for (i, (action, _)) in outcomes.into_iter().enumerate() {
                fill(
                    tree,
                    &state.child(action),
                    first + i as u32,
                    policy,
                    strategy,
                    filled,
                    actions,
                )?;
            }
            Ok(())
        }
        super::tree::Node::Decision {
            player,
            infoset,
            slot,
            first,
            len,
        } => {
            if !filled[infoset as usize] {
                filled[infoset as usize] = true;
                let out = &mut strategy[slot as usize..(slot + len) as usize];
                policy.action_probabilities(state, PlayerId::new(player), out);
                let sum: f64 = out.iter().sum();
                if (sum - 1.0).abs() > 1e-6 || out.iter().any(|p| p.is_nan() || *p < 0.0) {
                    return Err(SolveError::BadPolicy(
                        state.infoset_string(PlayerId::new(player)),
                    ));
                }
            }
            state.legal_actions_into(actions);
            let list = actions.clone();
            for (i, action) in list.into_iter().enumerate() {
                fill(
                    tree,
                    &state.child(action),
                    first + i as u32,
                    policy,
                    strategy,
                    filled,
                    actions,
                )?;
            }
            Ok(())
        }
    }
}
