//! Net-guided PUCT information-set MCTS over determinizations (single-observer IS-MCTS), for
//! any game of the contract (`engine::game::Game` + `engine::observe::Observe` +
//! `engine::search::Scored`, [`Generic`]): the RULES.md variants and the RULES-more games alike.
//!
//! The tree belongs to the deciding player's information set. Each simulation draws a full state
//! consistent with that player's information (`Game::sample_determinization`), walks the tree
//! playing the selected actions on it (sampling chance outcomes as they come), and stops at a
//! node not yet expanded: the net evaluates the acting player's observation *of that
//! determinized state* and the value is backed up. Below an action, children are keyed by the
//! root player's information-set key after it (`Game::infoset_key`), so one node gathers every
//! determinization the root player cannot tell apart and different observations (a revealed
//! type, drawn by chance §P2) are never mixed; only actions legal in the current determinization
//! compete at a node (the opponent's flips depend on back faces it holds), and an action first
//! met in a later determinization enters with the mean prior.
//!
//! The search is a resumable state machine ([`Search::advance`] / [`Search::deliver`]) so that a
//! farm can gather the leaf evaluations of many games into one net batch; one search can gather
//! several leaves per call too ([`SearchConfig::batch`], with virtual loss), and stop on a wall
//! clock ([`Search::set_deadline`]). The end of a line is the game's own (`Turn::Terminal` of the
//! determinized state, which carries the game's record), and a repetition ends it at once by the
//! game's search rule (`Scored::search_repetition`: for the variants the engine's two-fold rule
//! over the record and the simulated line, `VariantGameState::repeat_in_search`: a draw, worth the
//! draw value, or a loss for the side that checked or chased perpetually, RULES.md §X6).
//!
//! A player's tree outlives its decision ([`Search::reuse_generic`], [`SearchConfig::reuse_tree`]):
//! the node the player's information set leads to after the player's move and the opponent's
//! reply becomes the next root, visits and values kept (`reuse.rs`).
//!
//! What a game has alone comes through the contract's hooks (`game.rs`): the leaf value of
//! [`SearchConfig::value_mix`] (`Scored::leaf_searcher`) and the root checks
//! (`Scored::root_win`, `Scored::root_losing`: the variants' mate in two and loss check).

mod game;
mod reuse;
mod setup;
mod tree;

use engine::observe::Encoding;
use rand::Rng;
use std::time::Instant;
pub use game::{end_value_for, resolve_chance, Generic, GenericError, SearchGame, Step};
use serde::{Deserialize, Serialize};
pub use setup::{is_setup, LayoutMixture, MixtureError};
pub use tree::OutcomeChild;
use tree::{Edge, Node};

/// Search settings (the `[search]` table of a training config).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchConfig {
    /// Simulations per move (the root's own evaluation counts as one).
    pub simulations: u32,
    /// PUCT exploration constant.
    #[serde(default = "default_c_puct")]
    pub c_puct: f32,
    /// First-play urgency: an unvisited action's value is the node's net value minus this. With
    /// the few simulations of a CPU run keep it at 0: a positive reduction makes the search
    /// revisit the first-tried action instead of trying the others once (with uniform priors and
    /// a flat value, 0.2 needs about a hundred simulations before a second action is tried).
    #[serde(default = "default_fpu")]
    pub fpu_reduction: f32,
    /// Dirichlet noise concentration at the root (self-play only).
    #[serde(default = "default_alpha")]
    pub dirichlet_alpha: f32,
    /// Weight of the root noise (0 switches it off).
    #[serde(default = "default_noise")]
    pub dirichlet_fraction: f32,
    /// Softmax temperature applied to the net's priors (above 1 flattens them, so that a small
    /// search still visits moves the policy underrates).
    #[serde(default = "default_one")]
    pub policy_temperature: f32,
    /// Play at once a move after which the opponent has lost (mate, stalemate §X4, grinding
    /// §K7) in every sampled determinization.
    #[serde(default = "default_true")]
    pub root_win_check: bool,
    /// Extends the win check by two plies: play at once a checking move after which every
    /// reply of the opponent allows a win in one (a mate in two), in every sampled
    /// determinization. Only checking first moves are tried, so it costs a few thousand rule
    /// lookups at most; it finishes won games that a small search shuffles (32 simulations
    /// spread over ~40 moves see no mate two moves ahead, and with a saturated value every
    /// move looks winning).
    #[serde(default = "default_true")]
    pub root_mate_in_two: bool,
    /// Never choose a root action after which the opponent can win at once (a reply that
    /// mates, stalemates §X4 or grinds §K7) in one of a few sampled determinizations, unless
    /// every action does. A few hundred rule lookups per move; with the small budgets of a CPU
    /// run the tree alone rarely sees such replies (32 simulations over ~40 moves).
    #[serde(default = "default_true")]
    pub root_loss_check: bool,
    /// Contempt for draws inside the tree (repetitions and drawn end states), in value units
    /// (-1 loss .. +1 win): a draw is worth `-draw_contempt` to the searching player and
    /// `+draw_contempt` to the opponent, so a side that cannot tell how to make progress still
    /// prefers any other move to repeating (as engines' "contempt"). 0 scores draws as 0.
    #[serde(default)]
    pub draw_contempt: f32,
    /// Leaves gathered per net call within one search ([`Search::advance`]): each descent after
    /// the first is steered off the pending ones by a virtual loss (a visit counted as a loss on
    /// every edge of its path, taken back on delivery). 1 (the default) evaluates one leaf at a
    /// time, the exact sequential PUCT; a farm batches across games anyway, a lone bot wants 8-16.
    #[serde(default = "default_batch")]
    pub batch: u32,
    /// Weight `λ` of a tactical search value mixed into every leaf's net value:
    /// `v = (1 - λ) v_net + λ v_search`, where `v_search` is an expectimax search of
    /// [`SearchConfig::value_depth`] plies and its quiescence on the *determinized* state of the
    /// simulation (drawn from the searching player's view, so no hidden information enters),
    /// mapped by `0.9 tanh(cp / value_scale_cp)` (a mate found as ±1). AlphaGo mixed its value net
    /// with rollouts the same way (λ = 0.5; Silver et al., Nature 529, 2016); here it gives a
    /// young net's search the material and capture tactics it has not learnt yet. 0 (the
    /// default) is the pure net value. The root keeps the net's value.
    #[serde(default)]
    pub value_mix: f32,
    /// Plies of the search behind [`SearchConfig::value_mix`] (0: quiescence only, captures and
    /// evasions up to 4 plies).
    #[serde(default)]
    pub value_depth: u32,
    /// Centipawns of the search value that map to `tanh(1)` (600: a horse ahead is worth 0.52).
    #[serde(default = "default_value_scale")]
    pub value_scale_cp: f32,
    /// Keep the tree between a player's decisions ([`Search::reuse_generic`]): the node reached by the
    /// public record since the last decision (the player's move, the opponent's reply and the
    /// public outcomes between) becomes the new root with its visits and values, when it is in
    /// the tree and the player's information set there is the one the tree searched; else the
    /// search starts afresh. [`SearchConfig::simulations`] then counts the new simulations, so a
    /// reused root ends with more visits than a fresh one. In self-play each game keeps one tree
    /// per net player, and the policy target is the visit distribution of the (reused) root,
    /// earlier visits included (as AlphaZero and KataGo keep them); root noise is drawn afresh
    /// onto a reused root's priors. On by default.
    #[serde(default = "default_true")]
    pub reuse_tree: bool,
    /// A move chosen at a temperature above 0 ([`Search::choose`]; the first plies of self-play
    /// and of evaluation matches) is drawn only among the root actions whose mean value lies
    /// within this many value units (-1 loss .. +1 win) of the move the search would play at
    /// temperature 0 (Leela Chess Zero's `TempValueCutoff`): variety among near-equal moves,
    /// never a sampled blunder that 32 simulations spread over 40 moves visited once. `None`
    /// (the default) samples every visited action by its visit count, as AlphaZero.
    #[serde(default)]
    pub temperature_value_cutoff: Option<f32>,
}

fn default_value_scale() -> f32 {
    600.0
}

fn default_c_puct() -> f32 {
    1.5
}
fn default_fpu() -> f32 {
    0.0
}
fn default_alpha() -> f32 {
    0.3
}
fn default_noise() -> f32 {
    0.25
}
fn default_true() -> bool {
    true
}
fn default_batch() -> u32 {
    1
}
fn default_one() -> f32 {
    1.0
}

impl SearchConfig {
    /// `simulations` with the default constants.
    pub fn with_simulations(simulations: u32) -> SearchConfig {
        SearchConfig {
            simulations,
            c_puct: default_c_puct(),
            fpu_reduction: default_fpu(),
            dirichlet_alpha: default_alpha(),
            dirichlet_fraction: default_noise(),
            policy_temperature: 1.0,
            root_win_check: true,
            root_mate_in_two: true,
            root_loss_check: true,
            draw_contempt: 0.0,
            batch: default_batch(),
            value_mix: 0.0,
            value_depth: 0,
            value_scale_cp: default_value_scale(),
            reuse_tree: true,
            temperature_value_cutoff: None,
        }
    }
}

/// A leaf waiting for the net: its node, the player to act there, its legal actions, and the
/// edges that lead to it as (node, slot) (which carry a virtual loss until the evaluation is
/// delivered; slots, not edge indices, since a later descent may insert edges).
struct Pending<S: SearchGame> {
    leaf: u32,
    player: S::Player,
    actions: Vec<S::Action>,
    /// The policy slots of `actions`, in their order.
    slots: Vec<u16>,
    path: Vec<(u32, u32)>,
    done: bool,
    /// The tactical value of the leaf's determinized state for `player`
    /// ([`SearchConfig::value_mix`]), when mixed.
    tactical: Option<f32>,
}

/// What one simulation ended in.
enum Sim {
    /// A value was backed up (an end of the game, a repetition).
    Backed,
    /// A new leaf joined the requests.
    Leaf,
    /// The descent reached a leaf already waiting for the net (nothing changed).
    Collision,
}

/// One decision's search, over the game side `S` ([`SearchGame`]).
pub struct Search<S: SearchGame> {
    cfg: SearchConfig,
    noise: bool,
    /// The game side: the root player's information and the rules' bookkeeping.
    game: S,
    root_actions: Vec<S::Action>,
    nodes: Vec<Node<S::Action, S::Player>>,
    /// Simulations finished (backed up).
    sims: u32,
    /// The current descent's edges (node, action slot).
    path: Vec<(u32, u32)>,
    /// The leaves of the current batch, in request order.
    pending: Vec<Pending<S>>,
    /// The encoding of the observations (the game's): the size of each request.
    encoding: Encoding,
    /// Their observations, `encoding.obs_len()` each, in request order.
    obs: Vec<f32>,
    /// Their legal slots, in request order.
    slots: Vec<Vec<u16>>,
    root_obs: Vec<f32>,
    root_slots: Vec<u16>,
    /// Root slots the loss check excludes (sorted; empty when none or all would be).
    root_banned: Vec<u16>,
    /// Stop starting simulations at this instant ([`Search::set_deadline`]).
    deadline: Option<Instant>,
    /// A set-up decision (layouts or placements): no simulations, a mixed choice ([`setup`]).
    setup: bool,
    /// The layout mixture's weights over the root actions, when one applies.
    setup_weights: Option<Vec<f64>>,
    /// The root checks (win, mate in two, loss) have run.
    root_checked: bool,
    /// Root visits kept from the previous decision's tree ([`Search::reuse_generic`]; 0 when fresh).
    reused: u32,
    /// The root was taken over from the previous decision's tree.
    reused_tree: bool,
}

/// An index drawn by `weights` (non-negative) whose sum is `total` (positive): one
/// `rng.random::<f64>()` scaled by `total`, then the first weight the remainder falls under,
/// each weight passed subtracted from it; the last index when rounding leaves a remainder.
/// ([`engine::game::draw_weighted`] keeps a running sum instead, which may round differently;
/// the searches' temperature and set-up draws have always subtracted, and records depend on it.)
fn draw_scaled(weights: &[f64], total: f64, rng: &mut impl Rng) -> usize {
    let mut x = rng.random::<f64>() * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    weights.len() - 1
}

impl<G: engine::search::Scored + engine::observe::Observe + Send> Search<Generic<G>> {
    /// A search of any `Game` + `Observe` for the player to act in `root` (the true state: only
    /// that player's information enters, through `Game::sample_determinization`), whose legal
    /// actions are `root.legal_actions()`; `setup` marks a set-up decision. Repetitions are the
    /// game's own ([`Generic`]); [`Search::reuse_generic`] keeps the previous tree.
    ///
    /// # Errors
    /// [`GenericError`] when `root` is not a player's turn.
    pub fn generic(root: G, setup: bool, cfg: &SearchConfig, noise: bool) -> Result<Self, GenericError> {
        let actions = root.legal_actions();
        Ok(Search::with_game(Generic::new(root, setup)?, actions, cfg, noise))
    }
}

impl<S: SearchGame> Search<S> {
    /// A search on the game side `game` whose root player's legal actions are `actions`
    /// (non-empty). `noise` adds Dirichlet noise at the root (self-play).
    pub fn with_game(game: S, actions: Vec<S::Action>, cfg: &SearchConfig, noise: bool) -> Search<S> {
        let root_slots = game.root_slots(&actions);
        let root = game.root_key();
        let setup = game.is_setup(&actions);
        Search {
            cfg: cfg.clone(),
            noise: noise && cfg.dirichlet_fraction > 0.0,
            nodes: vec![Node::new(game.player(), root)],
            sims: 0,
            path: Vec::new(),
            pending: Vec::new(),
            encoding: game.encoding(),
            obs: Vec::new(),
            slots: Vec::new(),
            root_obs: Vec::new(),
            root_slots,
            root_banned: Vec::new(),
            deadline: None,
            setup,
            setup_weights: None,
            root_actions: actions,
            root_checked: false,
            reused: 0,
            reused_tree: false,
            game,
        }
    }

    /// The game side of this search.
    pub fn game(&self) -> &S {
        &self.game
    }

    /// Stops the search at `deadline` (wall clock): [`Search::advance`] starts no simulation
    /// after it (the root is still evaluated, and requests already made are still delivered), so
    /// [`SearchConfig::simulations`] becomes a cap. `None` (the default) searches to the cap.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    fn time_up(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The root observation (after the first [`Search::advance`]).
    pub fn root_obs(&self) -> &[f32] {
        &self.root_obs
    }

    /// The root's legal slots, parallel to its legal actions.
    pub fn root_slots(&self) -> &[u16] {
        &self.root_slots
    }

    /// Simulations done in this search (a reused tree's earlier ones not counted).
    pub fn simulations(&self) -> u32 {
        self.sims
    }

    /// Visits of the root's edges: this search's simulations (less the root's own evaluation,
    /// which has no edge) plus those kept from a reused tree ([`Search::reused_visits`]).
    pub fn root_visits(&self) -> u32 {
        self.nodes[0].edges.iter().map(|e| e.n).sum()
    }

    /// Root visits kept from the previous decision's tree ([`Search::reuse_generic`]); 0 when this search
    /// started afresh.
    pub fn reused_visits(&self) -> u32 {
        self.reused
    }

    /// Runs simulations until the net must evaluate positions (returns true; see
    /// [`Search::requests`]) or the budget is spent (false). Up to [`SearchConfig::batch`] leaves
    /// are gathered per call, each descent steered off the ones before by a virtual loss; a
    /// descent that reaches a leaf already requested changes nothing, and after `batch` such
    /// collisions the gathering stops with what it has. Returns true without work while a
    /// request is undelivered.
    pub fn advance(&mut self, rng: &mut impl Rng) -> bool {
        if self.pending.iter().any(|p| !p.done) {
            return true;
        }
        self.pending.clear();
        self.slots.clear();
        if self.root_actions.len() == 1 {
            // A forced move needs no search.
            self.encode_root();
            if !self.nodes[0].expanded {
                self.expand(0, self.game.player(), 0.0, &[1.0], self.root_actions.clone(), &self.root_slots.clone());
                self.nodes[0].edges[0].n = 1;
            }
            return false;
        }
        if self.setup && (self.setup_weights.is_some() || self.nodes[0].expanded) {
            return false; // a set-up choice needs at most the root's priors
        }
        if !self.root_checked {
            // Once per decision, on a fresh root and on a reused one alike.
            self.root_checked = true;
            self.encode_root();
            if self.cfg.root_win_check && !self.setup {
                let win = self.game.root_win(&self.root_actions, &self.cfg, rng);
                if let Some(i) = win {
                    self.clear_tree();
                    let n = self.root_actions.len();
                    self.expand(0, self.game.player(), 1.0, &vec![1.0 / n as f32; n], self.root_actions.clone(), &self.root_slots.clone());
                    let slot = self.root_slots[i];
                    if let Some(e) = self.nodes[0].edges.iter_mut().find(|e| e.slot == slot) {
                        e.n = 1;
                        e.w = 1.0;
                    }
                    return false;
                }
            }
            if self.cfg.root_loss_check && !self.setup {
                let mut banned = self.game.root_losing(&self.root_actions, &self.root_slots, rng);
                banned.sort_unstable();
                banned.dedup();
                if banned.len() < self.root_actions.len() {
                    self.root_banned = banned;
                }
            }
        }
        if !self.nodes[0].expanded {
            self.obs.clear();
            self.obs.extend_from_slice(&self.root_obs);
            self.slots.push(self.root_slots.clone());
            self.nodes[0].waiting = true;
            self.pending.push(Pending { leaf: 0, player: self.game.player(), actions: self.root_actions.clone(), slots: self.root_slots.clone(), path: Vec::new(), done: false, tactical: None });
            return true;
        }
        let batch = self.cfg.batch.max(1) as usize;
        let mut collisions = 0;
        while self.sims.saturating_add(self.pending.len() as u32) < self.cfg.simulations && self.pending.len() < batch && !self.time_up() {
            if let Sim::Collision = self.simulate(rng) {
                collisions += 1;
                if collisions >= batch {
                    break;
                }
            }
        }
        !self.pending.is_empty()
    }

    /// A draw's value for `player` under [`SearchConfig::draw_contempt`].
    pub(super) fn draw_value(&self, player: S::Player) -> f32 {
        if player == self.game.player() {
            -self.cfg.draw_contempt
        } else {
            self.cfg.draw_contempt
        }
    }

    fn encode_root(&mut self) {
        if self.root_obs.is_empty() {
            self.root_obs = self.game.observe_root();
        }
    }

    /// How many positions await the net (after [`Search::advance`] returned true; requests
    /// already delivered included).
    pub fn requests(&self) -> usize {
        self.pending.len()
    }

    /// The encoding of this search's observations (see [`encoding`]).
    pub fn encoding(&self) -> &Encoding {
        &self.encoding
    }

    /// Request `i` (< [`Search::requests`]): the observation of the acting player's view
    /// ([`Search::encoding`]'s `obs_len()` floats) and its legal slots.
    pub fn request(&self, i: usize) -> (&[f32], &[u16]) {
        let n = self.encoding.obs_len();
        (&self.obs[i * n..(i + 1) * n], &self.slots[i])
    }

    /// The observations of every request, concatenated in request order (`requests()` times
    /// [`Search::encoding`]'s `obs_len()` floats), for one net batch.
    pub fn request_obs(&self) -> &[f32] {
        &self.obs[..self.pending.len() * self.encoding.obs_len()]
    }

    /// The legal slots of every request, in request order.
    pub fn request_slots(&self) -> Vec<&[u16]> {
        self.slots.iter().map(Vec::as_slice).collect()
    }

    /// Delivers the net's priors (over request `i`'s slots, in order) and value (for the acting
    /// player) for request `i`: its virtual loss is taken back, the leaf expanded and the value
    /// backed up. A second delivery of one request is ignored.
    pub fn deliver(&mut self, i: usize, priors: &[f32], value: f32, rng: &mut impl Rng) {
        let Some(p) = self.pending.get_mut(i) else { return };
        if p.done {
            return;
        }
        p.done = true;
        let (leaf, player, actions, slots, path) = (p.leaf, p.player, std::mem::take(&mut p.actions), std::mem::take(&mut p.slots), std::mem::take(&mut p.path));
        let value = match p.tactical {
            Some(t) => (1.0 - self.cfg.value_mix) * value + self.cfg.value_mix * t,
            None => value,
        };
        self.virtual_loss(&path, false);
        self.nodes[leaf as usize].waiting = false;
        let t = self.cfg.policy_temperature;
        if t > 0.0 && (t - 1.0).abs() > 1e-6 {
            let mut q: Vec<f32> = priors.iter().map(|&x| x.max(1e-12).powf(1.0 / t)).collect();
            let sum: f32 = q.iter().sum();
            q.iter_mut().for_each(|x| *x /= sum);
            self.expand(leaf, player, value, &q, actions, &slots);
        } else {
            self.expand(leaf, player, value, priors, actions, &slots);
        }
        if leaf == 0 && self.noise {
            self.add_noise(rng);
        }
        self.backup(&path, player, value);
        self.sims += 1;
    }

    /// One simulation: a determinization, a descent to a leaf, and either a value backed up or
    /// the leaf added to the requests (with a virtual loss on its path).
    fn simulate(&mut self, rng: &mut impl Rng) -> Sim {
        let mut det = self.game.determinize(rng);
        let mut node = 0u32;
        self.path.clear();
        self.game.begin();
        loop {
            let actions = self.game.legal(&det);
            if let Some((player, v)) = self.game.end_value(&det, actions.is_empty()) {
                let v = if v == 0.0 { self.draw_value(player) } else { v };
                let path = std::mem::take(&mut self.path);
                self.backup(&path, player, v);
                self.path = path;
                self.sims += 1;
                return Sim::Backed;
            }
            let player = self.game.to_act(&det);
            if !self.nodes[node as usize].expanded {
                if self.nodes[node as usize].waiting {
                    return Sim::Collision;
                }
                let (k, n) = (self.pending.len(), self.encoding.obs_len());
                self.obs.resize((k + 1) * n, 0.0);
                self.game.observe_into(&det, player, &mut self.obs[k * n..]);
                let slots = self.game.slots(&det, &actions, player);
                self.slots.push(slots.clone());
                let n = &mut self.nodes[node as usize];
                n.player = player;
                n.waiting = true;
                let path = std::mem::take(&mut self.path);
                self.virtual_loss(&path, true);
                let tactical = self.game.leaf_tactics(&det, &self.cfg);
                self.pending.push(Pending { leaf: node, player, actions, slots, path, done: false, tactical });
                return Sim::Leaf;
            }
            let slots = self.game.slots(&det, &actions, player);
            let e = self.select(node, &actions, &slots);
            self.path.push((node, u32::from(self.nodes[node as usize].edges[e].slot)));
            let action = self.nodes[node as usize].edges[e].action;
            let step = self.game.step(&mut det, action, player, rng);
            if let Some(winner) = step.ended {
                let me = self.game.to_act(&det);
                let v = match winner {
                    Some(w) if w == me => 1.0,
                    Some(_) => -1.0,
                    None => self.draw_value(me),
                };
                let path = std::mem::take(&mut self.path);
                self.backup(&path, me, v);
                self.path = path;
                self.sims += 1;
                return Sim::Backed;
            }
            let next = self.game.to_act(&det);
            node = self.child(node, e, step.key, next);
        }
    }

    /// Root actions with their slots and visit counts.
    pub fn visits(&self) -> Vec<(S::Action, u16, u32)> {
        self.nodes[0].edges.iter().map(|e| (e.action, e.slot, e.n)).collect()
    }

    /// Root actions with the net's prior, the visit count and the mean value (for the deciding
    /// player; `None` when unvisited), sorted by policy slot. Priors are 0 before the root's
    /// evaluation is delivered.
    pub fn root_policy(&self) -> Vec<(S::Action, f32, u32, Option<f32>)> {
        self.nodes[0].edges.iter().map(|e| (e.action, e.prior, e.n, (e.n > 0).then(|| e.w / e.n as f32))).collect()
    }

    /// The root value estimate for the deciding player (mean over visits, else the net's).
    pub fn root_value(&self) -> f32 {
        let r = &self.nodes[0];
        let (n, w) = r.edges.iter().fold((0u32, 0f32), |(n, w), e| (n + e.n, w + e.w));
        if n > 0 {
            w / n as f32
        } else {
            r.value
        }
    }

    /// The action to play: the most visited at temperature 0, ties broken by the higher mean
    /// value, then the higher prior; else drawn with probability proportional to
    /// `visits^(1/temperature)`.
    ///
    /// The value tie-break matters with the few simulations of a CPU run: 32 simulations over
    /// some 40 legal actions leave many actions at one visit each, and breaking those ties by
    /// prior alone played a move the search had scored as a repetition draw (measured on the
    /// quick run's checkpoint against the untrained net: 143 of 200 games drawn by repetition,
    /// the repeating moves played with 1 visit of 32; `examples/repetition_probe.rs`).
    ///
    /// At a set-up decision the choice is drawn whatever the temperature (a layout mixture if
    /// one was set, else the net's priors; see [`setup`]).
    pub fn choose(&self, temperature: f32, rng: &mut impl Rng) -> S::Action {
        if self.setup {
            return self.choose_setup(rng);
        }
        let edges = &self.nodes[0].edges;
        if edges.is_empty() {
            return self.root_actions[0];
        }
        let q = |e: &Edge<S::Action>| if e.n > 0 { e.w / e.n as f32 } else { f32::NEG_INFINITY };
        let best = edges
            .iter()
            .max_by(|a, b| {
                a.n.cmp(&b.n)
                    .then(q(a).total_cmp(&q(b)))
                    .then(a.prior.partial_cmp(&b.prior).unwrap_or(std::cmp::Ordering::Equal))
            })
            .expect("edges");
        if temperature <= 1e-3 {
            return best.action;
        }
        let floor = self.cfg.temperature_value_cutoff.map_or(f32::NEG_INFINITY, |c| q(best) - c);
        let weights: Vec<f64> =
            edges.iter().map(|e| if q(e) >= floor { f64::from(e.n).powf(1.0 / f64::from(temperature)) } else { 0.0 }).collect();
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            return self.choose(0.0, rng);
        }
        edges[draw_scaled(&weights, total, rng)].action
    }
}
