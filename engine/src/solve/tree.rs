//! The full game tree of a small game, compiled once into flat arrays, for the full-width
//! solvers (CFR and its variants) and for exact best response / exploitability.
//!
//! Layout: nodes are numbered so that a parent comes before its children and the children of a
//! node are consecutive (`first .. first + len`, in the order of the legal actions or chance
//! outcomes). Each information set owns `len` consecutive *slots* (one per legal action) in the
//! slot-indexed arrays the solvers keep (regrets, strategies, averages). Information sets are
//! numbered in order of discovery by a depth-first walk, so with perfect recall a player's
//! earlier information set always has a smaller number than a later one.

use std::collections::HashMap;

use crate::game::{Action, Game, GameInfo, PlayerId, Turn, Utility};

use super::SolveError;

/// Default bound on the number of tree nodes [`GameTree::build`] will create.
pub const DEFAULT_MAX_NODES: usize = 20_000_000;

/// One node of a compiled tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Node {
    /// End of the game, with both players' returns.
    Terminal {
        /// Returns of the first and second player.
        returns: [f64; 2],
    },
    /// Nature moves; child `first + i` has probability [`GameTree::chance_prob`] of its index.
    Chance {
        /// Index of the first child.
        first: u32,
        /// Number of children.
        len: u32,
    },
    /// A player moves; child `first + i` follows the `i`-th legal action.
    Decision {
        /// Seat of the acting player (0 or 1).
        player: u8,
        /// Information set index.
        infoset: u32,
        /// First slot of the information set (equal to `infosets[infoset].slot`).
        slot: u32,
        /// Index of the first child.
        first: u32,
        /// Number of children (legal actions).
        len: u32,
    },
}

/// One information set of a compiled tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InfosetInfo {
    /// The acting player.
    pub player: PlayerId,
    /// The game's [`Game::infoset_key`] for that player.
    pub key: u64,
    /// First slot; the actions occupy `slot .. slot + len`.
    pub slot: u32,
    /// Number of legal actions.
    pub len: u32,
    /// The player's previous decision on the path here (the slot of that information set's
    /// chosen action), or `None` at the player's first decision. Well defined by perfect recall.
    pub parent: Option<u32>,
}

/// A compiled two-player game tree; see the module documentation for the layout.
#[derive(Clone, Debug)]
pub struct GameTree {
    /// The game's properties.
    pub info: GameInfo,
    /// All nodes; index 0 is the root.
    pub nodes: Vec<Node>,
    /// Probability of reaching each node from its parent if the parent is a chance node, else 1.
    pub chance_prob: Vec<f64>,
    /// All information sets.
    pub infosets: Vec<InfosetInfo>,
    /// Information sets of each player, ascending (earlier decisions first).
    pub player_infosets: [Vec<u32>; 2],
    /// Nodes of each information set, concatenated; see `infoset_node_start`.
    pub infoset_nodes: Vec<u32>,
    /// `infoset_nodes[infoset_node_start[i] .. infoset_node_start[i + 1]]` are the nodes of
    /// information set `i` (length `infosets.len() + 1`).
    pub infoset_node_start: Vec<u32>,
    /// The action of each slot.
    pub slot_actions: Vec<Action>,
    /// Index of the information set owning each slot.
    pub slot_infoset: Vec<u32>,
    /// Map from (player seat, key) to information set index.
    pub index: HashMap<(u8, u64), u32>,
}

impl GameTree {
    /// Compiles the full tree below `root`, with at most [`DEFAULT_MAX_NODES`] nodes.
    ///
    /// # Errors
    /// See [`GameTree::build_with_limit`].
    pub fn build<G: Game>(root: &G) -> Result<GameTree, SolveError> {
        Self::build_with_limit(root, DEFAULT_MAX_NODES)
    }

    /// Compiles the full tree below `root`.
    ///
    /// # Errors
    /// [`SolveError::Unsupported`] unless the game is two-player zero-sum or constant-sum;
    /// [`SolveError::TreeTooLarge`] past `max_nodes` nodes; [`SolveError::InconsistentActions`]
    /// or [`SolveError::ImperfectRecall`] when the information-set keys violate the
    /// [`Game`] contract; [`SolveError::BadChance`] for invalid chance outcome lists.
    pub fn build_with_limit<G: Game>(root: &G, max_nodes: usize) -> Result<GameTree, SolveError> {
        let info = root.info();
        if info.num_players != 2 || info.utility == Utility::GeneralSum {
            return Err(SolveError::Unsupported(format!(
                "{}: the solvers need a two-player zero-sum game ({} players, {:?})",
                info.name, info.num_players, info.utility
            )));
        }
        let mut builder = Builder {
            tree: GameTree {
                info,
                nodes: vec![Node::Terminal { returns: [0.0; 2] }],
                chance_prob: vec![1.0],
                infosets: Vec::new(),
                player_infosets: [Vec::new(), Vec::new()],
                infoset_nodes: Vec::new(),
                infoset_node_start: Vec::new(),
                slot_actions: Vec::new(),
                slot_infoset: Vec::new(),
                index: HashMap::new(),
            },
            members: Vec::new(),
            max_nodes,
            actions: Vec::new(),
            outcomes: Vec::new(),
        };
        builder.expand(root, 0, [None, None])?;
        let Builder {
            mut tree, members, ..
        } = builder;
        let mut start = 0u32;
        for m in &members {
            tree.infoset_node_start.push(start);
            tree.infoset_nodes.extend_from_slice(m);
            start += m.len() as u32;
        }
        tree.infoset_node_start.push(start);
        Ok(tree)
    }

    /// Total number of action slots (sum over information sets of their action counts).
    pub fn num_slots(&self) -> usize {
        self.slot_actions.len()
    }

    /// Nodes belonging to information set `infoset`.
    pub fn nodes_of(&self, infoset: u32) -> &[u32] {
        let i = infoset as usize;
        &self.infoset_nodes
            [self.infoset_node_start[i] as usize..self.infoset_node_start[i + 1] as usize]
    }

    /// Index of `player`'s information set with key `key`, if it occurs in the tree.
    pub fn infoset_of(&self, player: PlayerId, key: u64) -> Option<u32> {
        self.index.get(&(player.index() as u8, key)).copied()
    }

    /// A uniform strategy over all slots.
    pub fn uniform_strategy(&self) -> Vec<f64> {
        self.slot_infoset
            .iter()
            .map(|&i| 1.0 / f64::from(self.infosets[i as usize].len))
            .collect()
    }
}

/// Depth-first tree builder.
struct Builder {
    tree: GameTree,
    /// Nodes of each information set, in discovery order.
    members: Vec<Vec<u32>>,
    max_nodes: usize,
    /// Scratch buffers (each list is copied before recursing).
    actions: Vec<Action>,
    outcomes: Vec<(Action, f64)>,
}

impl Builder {
    /// Reserves `n` consecutive child nodes and returns the first index.
    fn reserve(&mut self, n: usize) -> Result<u32, SolveError> {
        let first = self.tree.nodes.len();
        if first + n > self.max_nodes {
            return Err(SolveError::TreeTooLarge {
                max_nodes: self.max_nodes,
            });
        }
        self.tree
            .nodes
            .resize(first + n, Node::Terminal { returns: [0.0; 2] });
        self.tree.chance_prob.resize(first + n, 1.0);
        Ok(first as u32)
    }

    /// Fills node `id` from `state` and expands its subtree. `last` is each player's previous
    /// decision slot on the path.
    fn expand<G: Game>(
        &mut self,
        state: &G,
        id: u32,
        last: [Option<u32>; 2],
    ) -> Result<(), SolveError> {
        match state.turn() {
            Turn::Terminal => {
                let returns = [
                    state.returns(PlayerId::FIRST),
                    state.returns(PlayerId::SECOND),
                ];
                self.tree.nodes[id as usize] = Node::Terminal { returns };
            }
            Turn::Chance => {
                state.chance_outcomes_into(&mut self.outcomes);
                let outcomes = self.outcomes.clone();
                let total: f64 = outcomes.iter().map(|o| o.1).sum();
                if outcomes.is_empty()
                    || (total - 1.0).abs() > 1e-9
                    || outcomes.iter().any(|o| o.1 <= 0.0)
                {
                    return Err(SolveError::BadChance(state.infoset_string(PlayerId::FIRST)));
                }
                let len = outcomes.len() as u32;
                let first = self.reserve(outcomes.len())?;
                self.tree.nodes[id as usize] = Node::Chance { first, len };
                for (i, &(action, p)) in outcomes.iter().enumerate() {
                    let child = first + i as u32;
                    self.tree.chance_prob[child as usize] = p;
                    self.expand(&state.child(action), child, last)?;
                }
            }
            Turn::Player(player) => {
                state.legal_actions_into(&mut self.actions);
                let actions = self.actions.clone();
                if actions.is_empty() {
                    return Err(SolveError::InconsistentActions(
                        state.infoset_string(player),
                    ));
                }
                let seat = player.index();
                let key = state.infoset_key(player);
                let infoset = match self.tree.index.get(&(seat as u8, key)) {
                    Some(&i) => {
                        let known = &self.tree.infosets[i as usize];
                        let slots = known.slot as usize..(known.slot + known.len) as usize;
                        if self.tree.slot_actions[slots] != actions[..] {
                            return Err(SolveError::InconsistentActions(
                                state.infoset_string(player),
                            ));
                        }
                        if known.parent != last[seat] {
                            return Err(SolveError::ImperfectRecall(state.infoset_string(player)));
                        }
                        i
                    }
                    None => {
                        let i = self.tree.infosets.len() as u32;
                        let slot = self.tree.slot_actions.len() as u32;
                        self.tree.infosets.push(InfosetInfo {
                            player,
                            key,
                            slot,
                            len: actions.len() as u32,
                            parent: last[seat],
                        });
                        self.tree.slot_actions.extend_from_slice(&actions);
                        self.tree
                            .slot_infoset
                            .extend(std::iter::repeat_n(i, actions.len()));
                        self.tree.player_infosets[seat].push(i);
                        self.tree.index.insert((seat as u8, key), i);
                        self.members.push(Vec::new());
                        i
                    }
                };
                self.members[infoset as usize].push(id);
                let slot = self.tree.infosets[infoset as usize].slot;
                let len = actions.len() as u32;
                let first = self.reserve(actions.len())?;
                self.tree.nodes[id as usize] = Node::Decision {
                    player: seat as u8,
                    infoset,
                    slot,
                    first,
                    len,
                };
                for (i, &action) in actions.iter().enumerate() {
                    let mut next_last = last;
                    next_last[seat] = Some(slot + i as u32);
                    self.expand(&state.child(action), first + i as u32, next_last)?;
                }
            }
        }
        Ok(())
    }
}
