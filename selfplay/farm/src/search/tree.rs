//! The tree of [`Search`]: nodes and edges, PUCT selection, expansion, root noise and backup.

use super::{Search, SearchGame};
use engine::Color;
use rand::Rng;

/// An action out of a node, with its prior and statistics (values for the node's player).
#[derive(Clone, Debug)]
pub(super) struct Edge<A> {
    pub(super) slot: u16,
    pub(super) action: A,
    pub(super) prior: f32,
    pub(super) n: u32,
    pub(super) w: f32,
    pub(super) child: u32,
}

/// A node of the searching player's tree.
#[derive(Clone, Debug)]
pub(super) struct Node<A, P> {
    pub(super) player: P,
    pub(super) expanded: bool,
    /// Net value for `player`.
    pub(super) value: f32,
    /// Edges sorted by slot.
    pub(super) edges: Vec<Edge<A>>,
    /// What separates this node from the other children of its edge ([`super::Step::key`]: for
    /// the variants what both players see on reaching it,
    /// [`engine::variant::game_state::public_hash`] of the state).
    pub(super) key: u64,
    /// The next child of the same edge (another public outcome), or [`NO_CHILD`].
    pub(super) sibling: u32,
    /// Requested from the net and not yet delivered.
    pub(super) waiting: bool,
}

impl<A, P> Node<A, P> {
    /// An unexpanded node reached with public observation `key`.
    pub(super) fn new(player: P, key: u64) -> Node<A, P> {
        Node { player, expanded: false, value: 0.0, edges: Vec::new(), key, sibling: NO_CHILD, waiting: false }
    }
}

/// A child of one root edge: the public observation it was reached with, its visits and the
/// net's value there for the player to act ([`Search::outcome_children`]).
#[derive(Clone, Debug, PartialEq)]
pub struct OutcomeChild<P = Color> {
    /// The child's key ([`super::Step::key`]; for the variants
    /// [`engine::variant::game_state::public_hash`] of the states in this child).
    pub key: u64,
    /// Visits of the child (sum over its edges; 0 while it is a leaf).
    pub visits: u32,
    /// The net's value at the child for its player to act (0 before it is expanded).
    pub value: f32,
    /// The mean backed-up value over the child's edges, for its player to act (0 unvisited).
    pub q: f32,
    /// The player to act at the child.
    pub player: P,
}

pub(super) const NO_CHILD: u32 = u32::MAX;

/// A Gamma(`alpha`, 1) variate (Marsaglia and Tsang; boosted for `alpha < 1`).
fn gamma(alpha: f64, rng: &mut impl Rng) -> f64 {
    if alpha < 1.0 {
        let u: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
        return gamma(alpha + 1.0, rng) * u.powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        // Box-Muller normal.
        let u1: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
        let u2: f64 = rng.random();
        let x = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u: f64 = rng.random();
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

impl<S: SearchGame> Search<S> {

    /// Expands `node` for `player` with the net's `value` and `priors` over `actions` (whose
    /// policy slots are `slots`, in order).
    pub(super) fn expand(&mut self, node: u32, player: S::Player, value: f32, priors: &[f32], actions: Vec<S::Action>, slots: &[u16]) {
        let mut edges: Vec<Edge<S::Action>> = actions
            .iter()
            .zip(priors)
            .zip(slots)
            .map(|((&action, &prior), &slot)| Edge {
                slot,
                action,
                prior,
                n: 0,
                w: 0.0,
                child: NO_CHILD,
            })
            .collect();
        edges.sort_by_key(|e| e.slot);
        let n = &mut self.nodes[node as usize];
        n.player = player;
        n.value = value;
        n.edges = edges;
        n.expanded = true;
    }

    pub(super) fn add_noise(&mut self, rng: &mut impl Rng) {
        let alpha = f64::from(self.cfg.dirichlet_alpha);
        let frac = self.cfg.dirichlet_fraction;
        let edges = &mut self.nodes[0].edges;
        let g: Vec<f64> = edges.iter().map(|_| gamma(alpha, rng)).collect();
        let sum: f64 = g.iter().sum::<f64>().max(f64::MIN_POSITIVE);
        for (e, x) in edges.iter_mut().zip(g) {
            e.prior = (1.0 - frac) * e.prior + frac * (x / sum) as f32;
        }
    }

    /// Adds `value` (for `leaf_player`) to every edge of `path` ((node, slot) pairs), negated
    /// for the edges of the other player.
    pub(super) fn backup(&mut self, path: &[(u32, u32)], leaf_player: S::Player, value: f32) {
        for &(node, slot) in path {
            let n = &mut self.nodes[node as usize];
            let x = if n.player == leaf_player { value } else { -value };
            let Ok(e) = n.edges.binary_search_by_key(&(slot as u16), |e| e.slot) else { continue };
            let edge = &mut n.edges[e];
            edge.n += 1;
            edge.w += x;
        }
    }

    /// Adds (`on`) or takes back a virtual loss on every edge of `path`: one visit valued as a
    /// loss for the edge's player, so that the next descent of a batch prefers other lines.
    pub(super) fn virtual_loss(&mut self, path: &[(u32, u32)], on: bool) {
        let (dn, dw) = if on { (1i64, -1.0) } else { (-1, 1.0) };
        for &(node, slot) in path {
            let edges = &mut self.nodes[node as usize].edges;
            let Ok(e) = edges.binary_search_by_key(&(slot as u16), |e| e.slot) else { continue };
            let edge = &mut edges[e];
            edge.n = (i64::from(edge.n) + dn).max(0) as u32;
            edge.w += dw;
        }
    }

    /// The child of edge `e` of `node` reached with public observation `key` (created, with
    /// `player` to act, when first reached).
    pub(super) fn child(&mut self, node: u32, e: usize, key: u64, player: S::Player) -> u32 {
        let mut c = self.nodes[node as usize].edges[e].child;
        let mut last = NO_CHILD;
        while c != NO_CHILD {
            if self.nodes[c as usize].key == key {
                return c;
            }
            last = c;
            c = self.nodes[c as usize].sibling;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(Node::new(player, key));
        if last == NO_CHILD {
            self.nodes[node as usize].edges[e].child = id;
        } else {
            self.nodes[last as usize].sibling = id;
        }
        id
    }

    /// The children of the root edge of `action`, one per public observation reached after it
    /// (a revealed type, §P2), in order of creation; empty when the action is not a root edge
    /// or was never followed.
    pub fn outcome_children(&self, action: S::Action) -> Vec<OutcomeChild<S::Player>> {
        let mut out = Vec::new();
        let Some(edge) = self.nodes[0].edges.iter().find(|e| e.action == action) else { return out };
        let mut c = edge.child;
        while c != NO_CHILD {
            let n = &self.nodes[c as usize];
            let (visits, w) = n.edges.iter().fold((0u32, 0f32), |(v, w), e| (v + e.n, w + e.w));
            let q = if visits > 0 { w / visits as f32 } else { 0.0 };
            out.push(OutcomeChild { key: n.key, visits, value: n.value, q, player: n.player });
            c = n.sibling;
        }
        out
    }


    /// PUCT choice among the edges of `node` legal in this determinization (adding any legal
    /// action not met before); `slots` are the policy slots of `actions`, in order.
    pub(super) fn select(&mut self, node: u32, actions: &[S::Action], slots: &[u16]) -> usize {
        let mut legal: Vec<(u16, S::Action)> = slots.iter().copied().zip(actions.iter().copied()).collect();
        legal.sort_by_key(|x| x.0);
        let n = &mut self.nodes[node as usize];
        if legal.iter().any(|(s, _)| n.edges.binary_search_by_key(s, |e| e.slot).is_err()) {
            let mean = 1.0 / legal.len() as f32;
            for &(slot, action) in &legal {
                if let Err(at) = n.edges.binary_search_by_key(&slot, |e| e.slot) {
                    n.edges.insert(at, Edge { slot, action, prior: mean, n: 0, w: 0.0, child: NO_CHILD });
                }
            }
        }
        let all_legal = legal.len() == n.edges.len();
        let mut avail = Vec::with_capacity(legal.len());
        let mut total = 0u32;
        let mut j = 0;
        for (i, e) in n.edges.iter().enumerate() {
            let ok = all_legal || {
                while j < legal.len() && legal[j].0 < e.slot {
                    j += 1;
                }
                j < legal.len() && legal[j].0 == e.slot
            };
            if ok {
                avail.push(i);
                total += e.n;
            }
        }
        if node == 0 && !self.root_banned.is_empty() {
            // The loss check's exclusions, unless they would leave nothing here.
            let banned = &self.root_banned;
            let kept: Vec<usize> = avail.iter().copied().filter(|&i| banned.binary_search(&n.edges[i].slot).is_err()).collect();
            if !kept.is_empty() {
                total = kept.iter().map(|&i| n.edges[i].n).sum();
                avail = kept;
            }
        }
        let sqrt_n = (total.max(1) as f32).sqrt();
        let fpu = n.value - self.cfg.fpu_reduction;
        let c = self.cfg.c_puct;
        let mut best = avail[0];
        let mut best_score = f32::NEG_INFINITY;
        for &i in &avail {
            let e = &n.edges[i];
            let q = if e.n > 0 { e.w / e.n as f32 } else { fpu };
            let score = q + c * e.prior * sqrt_n / (1.0 + e.n as f32);
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }

}


#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn gamma_mean() {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        for alpha in [0.3, 1.0, 2.5] {
            let n = 20_000;
            let mean: f64 = (0..n).map(|_| gamma(alpha, &mut rng)).sum::<f64>() / n as f64;
            assert!((mean - alpha).abs() < 0.05 * alpha.max(1.0), "alpha {alpha}: mean {mean}");
        }
    }
}
