//! The tree kept between a player's decisions ([`super::SearchConfig::reuse_tree`]).
//!
//! A tree ([`Generic`]) keys every node by the root player's information-set key, so the node of
//! the line played since the last decision (the player's own move, the opponent's reply, the
//! chance outcomes between) is found by its key alone ([`Search::reuse_generic`]) and becomes
//! the new root with its subtree, visits and values. What decides is the player's information
//! and the random stream: nothing the player cannot see.

use super::tree::{Node, NO_CHILD};
use super::{Generic, GenericError, Search, SearchConfig, SearchGame};
use engine::observe::Observe;
use rand::Rng;

/// The subtree of `nodes` under `root`, renumbered with `root` first (its sibling link cut, no
/// node waiting for the net).
fn subtree<A, P: Copy>(mut nodes: Vec<Node<A, P>>, root: u32) -> Vec<Node<A, P>> {
    let player = nodes[root as usize].player;
    let take = |nodes: &mut Vec<Node<A, P>>, i: u32| {
        let mut n = std::mem::replace(&mut nodes[i as usize], Node::new(player, 0));
        n.waiting = false;
        n
    };
    let mut out = vec![take(&mut nodes, root)];
    out[0].sibling = NO_CHILD;
    let mut i = 0;
    while i < out.len() {
        for e in 0..out[i].edges.len() {
            let mut c = out[i].edges[e].child;
            let mut last = NO_CHILD;
            while c != NO_CHILD {
                let id = out.len() as u32;
                let mut n = take(&mut nodes, c);
                c = n.sibling;
                n.sibling = NO_CHILD;
                out.push(n);
                if last == NO_CHILD {
                    out[i].edges[e].child = id;
                } else {
                    out[last as usize].sibling = id;
                }
                last = id;
            }
        }
        i += 1;
    }
    out
}

impl<G: engine::search::Scored + Observe + Send> Search<Generic<G>> {
    /// The search for the next decision of the player to act in `root` (the true state, as
    /// [`Search::generic`] takes it), taking over the subtree of `prev` (the player's previous
    /// search, after its move was played) at the player's information set in `root`, or a fresh
    /// [`Search::generic`] when `prev` is `None`, `cfg.reuse_tree` is off, either is a set-up
    /// decision, or the tree cannot be reused.
    ///
    /// A generic tree keys every node by the root player's [`Game::infoset_key`] there (perfect
    /// recall: the key names the whole line of what the player saw), so the node of the line
    /// played since the last decision is the one node of the tree with the new root's key, to
    /// act for the same player: its determinizations are exactly those consistent with what the
    /// player has seen since, and no information-set check is needed. It is used when it is the only such node (moves the player cannot see may lead to
    /// several: then the search starts afresh), expanded, with exactly the root's legal actions.
    /// A reused root keeps its visits and values ([`Search::reused_visits`]); `noise` mixes fresh
    /// Dirichlet noise (drawn with `rng`) into its priors.
    ///
    /// # Errors
    /// [`GenericError`] when `root` is not a player's turn.
    pub fn reuse_generic(prev: Option<Search<Generic<G>>>, root: G, setup: bool, cfg: &SearchConfig, noise: bool, rng: &mut impl Rng) -> Result<Self, GenericError> {
        let mut fresh = Search::generic(root, setup, cfg, noise)?;
        let Some(prev) = prev else { return Ok(fresh) };
        if !cfg.reuse_tree || fresh.setup || prev.setup || prev.pending.iter().any(|p| !p.done) || prev.game.player() != fresh.game.player() {
            return Ok(fresh);
        }
        let Some(node) = prev.infoset_node(fresh.nodes[0].key) else { return Ok(fresh) };
        if !prev.fits(node, &fresh) {
            return Ok(fresh);
        }
        fresh.nodes = subtree(prev.nodes, node);
        fresh.reused = fresh.root_visits();
        fresh.reused_tree = true;
        if fresh.noise {
            fresh.add_noise(rng);
        }
        Ok(fresh)
    }

    /// The one node below the root keyed `key` with the root player to act, if exactly one.
    fn infoset_node(&self, key: u64) -> Option<u32> {
        let me = self.game.player();
        let mut found = None;
        for (i, n) in self.nodes.iter().enumerate().skip(1) {
            if n.key == key && n.player == me {
                if found.is_some() {
                    return None;
                }
                found = Some(i as u32);
            }
        }
        found
    }
}

impl<S: SearchGame> Search<S> {
    /// Whether `node` can be the root of `fresh`: an expanded decision of its player with its
    /// key and exactly its legal actions, nothing pending.
    fn fits(&self, node: u32, fresh: &Search<S>) -> bool {
        let n = &self.nodes[node as usize];
        let mut slots = fresh.root_slots.clone();
        slots.sort_unstable();
        n.expanded
            && !n.waiting
            && n.player == fresh.game.player()
            && n.key == fresh.nodes[0].key
            && n.edges.len() == slots.len()
            && n.edges.iter().zip(&slots).all(|(e, &s)| e.slot == s)
    }

    /// Whether this search's root was taken over from the previous decision's tree.
    pub fn is_reused(&self) -> bool {
        self.reused_tree
    }

    /// The root's actions with their priors (after the policy temperature, and the root noise
    /// where it applies), in slot order.
    pub fn root_priors(&self) -> Vec<(S::Action, f32)> {
        self.nodes[0].edges.iter().map(|e| (e.action, e.prior)).collect()
    }

    /// The visits (over its edges) of the node reached from the root by `line`: each action
    /// followed by the root player's key of the node after it and its chance outcome (the
    /// root player's `Game::infoset_key` there); `None` when the line leaves the tree.
    pub fn visits_along(&self, line: &[(S::Action, u64)]) -> Option<u32> {
        let mut node = 0u32;
        for &(action, key) in line {
            let e = self.nodes[node as usize].edges.iter().find(|e| e.action == action)?;
            let mut c = e.child;
            while c != NO_CHILD && self.nodes[c as usize].key != key {
                c = self.nodes[c as usize].sibling;
            }
            if c == NO_CHILD {
                return None;
            }
            node = c;
        }
        Some(self.nodes[node as usize].edges.iter().map(|e| e.n).sum())
    }

    /// Drops the tree and starts from an unexpanded root (the win check's move needs none).
    pub(super) fn clear_tree(&mut self) {
        let (player, key) = (self.nodes[0].player, self.nodes[0].key);
        self.nodes.clear();
        self.nodes.push(Node::new(player, key));
        self.reused = 0;
        self.reused_tree = false;
    }
}
