//! The tree kept between a player's decisions ([`super::SearchConfig::reuse_tree`]).
//!
//! The tree is keyed by public information: the action path, and below each action the public
//! observation after it ([`public_hash`]). The game's public record names the same hashes
//! ([`RecordPly::hash`]), so the plies played since the last decision (the player's own move, the
//! opponent's reply, the reveals between) lead from the old root to one node, which becomes the
//! new root with its subtree, visits and values. What decides is the player's old view (which
//! drew the tree's determinizations), the public record and the random stream: nothing the
//! player cannot see.
//!
//! The node is used only when it is the player's own decision with the same public observation
//! and the same legal actions, and when the player's information set there is the one the tree
//! searched: children are keyed by public outcomes only, so a private observation in between (a
//! Jieqi or Fan-qi capture of a face-down piece shows its identity to the capturer alone) leaves
//! one node holding the determinizations of several information sets. That is checked by
//! following the line in a few determinizations of the old view
//! ([`REUSE_CHECK_SAMPLES`], every chance outcome with the recorded public observation): every
//! one must give the player the view it now has. Otherwise, or when the line is not in the tree
//! (or is ambiguous in it), the search starts afresh.
//!
//! The generic games' trees ([`Generic`]) key every node by the root player's information-set
//! key, so their reuse ([`Search::reuse_generic`]) finds the new root by its key alone.

use super::tree::{Node, NO_CHILD};
use super::{Generic, GenericError, Search, SearchConfig, SearchGame, VariantSearch};
use engine::observe::Observe;
use engine::repetition::RecordPly;
use engine::variant::game_state::public_hash;
use engine::variant::{Action, State, View};
use rand::Rng;

/// Determinizations of the old view followed along the played line to check that the player's
/// information set at the new root is the one the tree searched.
pub const REUSE_CHECK_SAMPLES: usize = 8;

impl Search<VariantSearch> {
    /// The search for the next decision of the player of `prev` (the previous decision's search,
    /// after its move was played), or a fresh [`Search::new`] with the same arguments when
    /// `prev` is `None`, `cfg.reuse_tree` is off, or the tree cannot be reused (see the module
    /// docs). `history` must extend the record `prev` was given by the plies played since
    /// (another game, or an undone move, starts afresh). A reused root keeps its visits and
    /// values ([`Search::reused_visits`]); `noise` mixes fresh Dirichlet noise into its priors.
    /// `rng` draws the noise and the information-set check's determinizations.
    pub fn reuse(
        prev: Option<Search>,
        view: View,
        actions: Vec<Action>,
        cfg: &SearchConfig,
        noise: bool,
        history: &[RecordPly],
        rng: &mut impl Rng,
    ) -> Search {
        let mut fresh = Search::new(view, actions, cfg, noise, history);
        let Some(prev) = prev else { return fresh };
        // A search left with requests undelivered still carries their virtual losses.
        if !cfg.reuse_tree || fresh.setup || prev.setup || prev.pending.iter().any(|p| !p.done) {
            return fresh;
        }
        let Some(root) = prev.line_node(history) else { return fresh };
        if !prev.fits(root, &fresh) || !prev.same_information(root, &fresh.game.view, history, rng) {
            return fresh;
        }
        fresh.nodes = subtree(prev.nodes, root);
        fresh.reused = fresh.root_visits();
        fresh.reused_tree = true;
        if fresh.noise {
            fresh.add_noise(rng);
        }
        fresh
    }

    /// The plies of `history` past this search's record, if `history` extends it by at least one.
    fn new_plies<'h>(&self, history: &'h [RecordPly]) -> Option<&'h [RecordPly]> {
        let old = &self.game.line[..self.game.record_len];
        (history.len() > old.len() && history[..old.len()] == *old).then(|| &history[old.len()..])
    }

    /// The node reached from the root by the plies of `history` past this search's record, each
    /// matched by its mover and public hash to exactly one (edge, child) of the node before it;
    /// `None` when a ply has no such child, or more than one.
    fn line_node(&self, history: &[RecordPly]) -> Option<u32> {
        let mut node = 0u32;
        for ply in self.new_plies(history)? {
            let n = &self.nodes[node as usize];
            if !n.expanded || n.player != ply.mover {
                return None;
            }
            let mut found = None;
            for e in &n.edges {
                let mut c = e.child;
                while c != NO_CHILD {
                    if self.nodes[c as usize].key == ply.hash {
                        if found.is_some() {
                            return None; // two lines with one public record: ambiguous
                        }
                        found = Some(c);
                    }
                    c = self.nodes[c as usize].sibling;
                }
            }
            node = found?;
        }
        Some(node)
    }

    /// The actions and public hashes of the path from the root to `node`.
    fn path_to(&self, node: u32, history: &[RecordPly]) -> Vec<(Action, u64)> {
        let mut out = Vec::new();
        let mut at = 0u32;
        for ply in self.new_plies(history).unwrap_or_default() {
            for e in &self.nodes[at as usize].edges {
                let mut c = e.child;
                while c != NO_CHILD && self.nodes[c as usize].key != ply.hash {
                    c = self.nodes[c as usize].sibling;
                }
                if c != NO_CHILD {
                    out.push((e.action, ply.hash));
                    at = c;
                    break;
                }
            }
        }
        debug_assert_eq!(at, node);
        out
    }

    /// Whether following the played line from determinizations of this search's view (every
    /// chance outcome with the recorded public observation) gives the player the view `now` in
    /// every one that can have led there (see the module docs), and at least one can.
    fn same_information(&self, node: u32, now: &View, history: &[RecordPly], rng: &mut impl Rng) -> bool {
        let path = self.path_to(node, history);
        let mut reached = 0;
        for _ in 0..REUSE_CHECK_SAMPLES {
            let d = self.game.view.sample(rng);
            if d.is_chance() || !follow(&d, &path, now, &mut reached) {
                return false;
            }
        }
        reached > 0
    }
}

/// Plays `path` on `s` (each action, then every chance outcome whose public hash is the
/// recorded one); false when an end reached gives the player of `now` another view. Ends are
/// counted in `reached`; a state where the line's action is illegal or its public hash differs
/// cannot have led there and is passed over.
fn follow(s: &State, path: &[(Action, u64)], now: &View, reached: &mut u32) -> bool {
    let Some((&(a, key), rest)) = path.split_first() else {
        *reached += 1;
        return View::new(s, now.player()) == *now;
    };
    if !s.legal_actions().contains(&a) {
        return true;
    }
    let mut c = s.clone();
    c.apply(a);
    if !c.is_chance() {
        return public_hash(&c) != key || follow(&c, rest, now, reached);
    }
    for (o, p) in c.chance_outcomes() {
        if p <= 0.0 {
            continue;
        }
        let mut x = c.clone();
        x.apply_chance(o);
        if public_hash(&x) == key && !follow(&x, rest, now, reached) {
            return false;
        }
    }
    true
}

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
    /// player has seen since, and no information-set check is needed (unlike the variants' public
    /// keys). It is used when it is the only such node (moves the player cannot see may lead to
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
    /// followed by the public observation after it ([`public_hash`] of the state after the action
    /// and its chance outcome, as a record names it); `None` when the line leaves the tree.
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
