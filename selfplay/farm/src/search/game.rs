//! What the search needs of a game ([`SearchGame`]), implemented once, for any [`Game`] +
//! [`Observe`] + [`Scored`] ([`Generic`]: the RULES.md variants through
//! `engine::variant::game_state::VariantGameState` and every RULES-more game alike). What a
//! game has alone comes through the contract's hooks: its leaf value
//! ([`Scored::leaf_searcher`]) and its root checks ([`Scored::root_win`], [`Scored::root_losing`]).
//!
//! A [`SearchGame`] value is the searching player's side of one decision: what that player knows
//! at the root (from which determinizations are drawn) plus whatever per-search bookkeeping the
//! game needs. The search core
//! (`mod.rs`, `tree.rs`) only sees the associated `Action`, `Player` and `State` types through it.
//! Design: `docs/train-any-game.md`.

use super::SearchConfig;
use engine::game::{Game, PlayerId, Turn};
use engine::observe::{Encoding, Observe};
use engine::search::expectimax::{ExpectimaxConfig, MATE};
use engine::search::Scored;
use rand::Rng;
use std::fmt::Debug;

/// What one step of a simulation ([`SearchGame::step`]) led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step<P> {
    /// The key of the child reached (what the searching player's tree separates children by).
    pub key: u64,
    /// `Some(winner)` when the rules end the line here by repetition (`Some(None)`: a draw).
    pub ended: Option<Option<P>>,
}

/// The game side of a [`super::Search`]: the searching player's information at the root and the
/// game's rules as the tree needs them. Values are in [-1, 1] for the player named with them.
pub trait SearchGame: Send + Sized {
    /// A player action.
    type Action: Copy + Eq + Debug + Send + Sync + 'static;
    /// A player (seat or colour).
    type Player: Copy + Eq + Debug + Send + Sync + 'static;
    /// A full (determinized) state.
    type State: Clone;

    /// The searching player (to act at the root).
    fn player(&self) -> Self::Player;
    /// The key of the root node (the one [`Step::key`] would give on reaching the root).
    fn root_key(&self) -> u64;
    /// The encoding of every observation this search asks the net about.
    fn encoding(&self) -> Encoding;
    /// The root player's observation (`encoding().obs_len()` floats).
    fn observe_root(&self) -> Vec<f32>;
    /// The policy slots of the root's legal `actions`, in their order.
    fn root_slots(&self, actions: &[Self::Action]) -> Vec<u16>;
    /// Whether `actions` (the root's) are a set-up decision (no simulations, a mixed choice).
    fn is_setup(&self, actions: &[Self::Action]) -> bool;
    /// A full state consistent with the root player's information, chance resolved.
    fn determinize<R: Rng>(&self, rng: &mut R) -> Self::State;
    /// Called at the start of every simulation (drops the previous simulation's bookkeeping).
    fn begin(&mut self);
    /// The legal actions of the player to act in `s` (empty at the end).
    fn legal(&self, s: &Self::State) -> Vec<Self::Action>;
    /// The player to act in `s` (at a player's turn).
    fn to_act(&self, s: &Self::State) -> Self::Player;
    /// When `s` is finished: a player and the value for them (0 a draw, scored by the search's
    /// draw contempt). `no_actions`: `legal(s)` is empty.
    fn end_value(&self, s: &Self::State, no_actions: bool) -> Option<(Self::Player, f32)>;
    /// `player`'s observation of `s` into `out` (`encoding().obs_len()` floats, overwritten).
    fn observe_into(&self, s: &Self::State, player: Self::Player, out: &mut [f32]);
    /// The policy slots of `actions` (legal in `s` for `player`), in their order.
    fn slots(&self, s: &Self::State, actions: &[Self::Action], player: Self::Player) -> Vec<u16>;
    /// Plays `action` of `player` on `s`, then any chance outcome (drawn with `rng`).
    fn step<R: Rng>(&mut self, s: &mut Self::State, action: Self::Action, player: Self::Player, rng: &mut R) -> Step<Self::Player>;
    /// A tactical value of the leaf `s` for its player to act ([`SearchConfig::value_mix`]), when
    /// the game has one and it is configured.
    fn leaf_tactics(&mut self, _s: &Self::State, _cfg: &SearchConfig) -> Option<f32> {
        None
    }
    /// The index of a root action that wins at once ([`SearchConfig::root_win_check`],
    /// [`SearchConfig::root_mate_in_two`]); `None` by default.
    fn root_win<R: Rng>(&self, _actions: &[Self::Action], _cfg: &SearchConfig, _rng: &mut R) -> Option<usize> {
        None
    }
    /// Root slots (from `slots`, parallel to `actions`) of actions that allow the opponent an
    /// immediate win ([`SearchConfig::root_loss_check`]); none by default.
    fn root_losing<R: Rng>(&self, _actions: &[Self::Action], _slots: &[u16], _rng: &mut R) -> Vec<u16> {
        Vec::new()
    }
}

/// Any [`Game`] + [`Observe`] as a [`SearchGame`] (the RULES-more games): determinizations by
/// [`Game::sample_determinization`] for the root player, children keyed by the root player's
/// [`Game::infoset_key`] after the action and its chance outcomes (so determinizations the root
/// player cannot tell apart share a node and different observations never mix), the end of the
/// game by [`Turn::Terminal`] with [`Game::returns`] scaled to [-1, 1] by the game's utility
/// bounds. Repetitions end a line by the game's search rule ([`Scored::search_repetition`]: the
/// variants' two-fold rule over the record and the line) or its own (`turn()` ends repeated
/// positions); the
/// leaf value of [`SearchConfig::value_mix`] is the game's expectimax ([`Scored::leaf_searcher`]);
/// the root's checks are the game's ([`Scored::root_win`]: by default the generic win in one,
/// `engine::search::root_win::generic_win`; [`Scored::root_losing`]); the tree is reused
/// between decisions by information-set key ([`super::Search::reuse_generic`]).
#[derive(Clone, Debug)]
pub struct Generic<G: Scored> {
    root: G,
    player: PlayerId,
    setup: bool,
    /// The leaf searcher of [`SearchConfig::value_mix`], made on first use.
    tactics: LeafSearch<G>,
}

/// The game's leaf evaluator ([`Scored::leaf_searcher`]) behind [`SearchGame::leaf_tactics`] of
/// [`Generic`], made on first use; a clone starts without one (it holds only scratch state).
pub struct LeafSearch<G: Scored>(Option<Box<dyn FnMut(&G) -> f64 + Send>>);

impl<G: Scored> Clone for LeafSearch<G> {
    fn clone(&self) -> Self {
        LeafSearch(None)
    }
}

impl<G: Scored> std::fmt::Debug for LeafSearch<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "LeafSearch(made)" } else { "LeafSearch(none)" })
    }
}

/// Why a [`Generic`] search cannot start.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GenericError {
    /// The root is not a player's turn (chance or the end of the game).
    #[error("the root state is not a player's turn ({0:?})")]
    NotAPlayersTurn(Turn),
}

impl<G: Scored + Observe> Generic<G> {
    /// The search side of the player to act in `root`; `setup` marks a set-up decision (then the
    /// search draws from the net's priors without simulations, as for the variants' layouts).
    ///
    /// # Errors
    /// [`GenericError::NotAPlayersTurn`] at a chance or terminal state.
    pub fn new(root: G, setup: bool) -> Result<Generic<G>, GenericError> {
        let player = root.turn().player().ok_or(GenericError::NotAPlayersTurn(root.turn()))?;
        Ok(Generic { root, player, setup, tactics: LeafSearch(None) })
    }

    /// The root state.
    pub fn root(&self) -> &G {
        &self.root
    }
}

/// Resolves every chance node at `s` in turn, each outcome drawn by its probability with `rng`
/// ([`engine::game::draw_weighted`]);
/// whether there was one.
pub fn resolve_chance<G: Game, R: Rng>(s: &mut G, rng: &mut R) -> bool {
    let mut any = false;
    while s.turn().is_chance() {
        any = true;
        let outs = s.chance_outcomes();
        // No draw from `rng` where a chance node lists no outcome.
        if outs.is_empty() {
            break;
        }
        let Some(pick) = engine::game::draw_weighted(&outs, rng) else { break };
        s.apply(pick);
    }
    any
}

impl<G: Scored + Observe + Send> SearchGame for Generic<G> {
    type Action = engine::game::Action;
    type Player = PlayerId;
    type State = G;

    fn player(&self) -> PlayerId {
        self.player
    }
    fn root_key(&self) -> u64 {
        self.root.infoset_key(self.player)
    }
    fn encoding(&self) -> Encoding {
        self.root.encoding()
    }
    fn observe_root(&self) -> Vec<f32> {
        self.root.observation(self.player)
    }
    fn root_slots(&self, actions: &[Self::Action]) -> Vec<u16> {
        actions.iter().map(|&a| self.root.action_index(a) as u16).collect()
    }
    fn is_setup(&self, _actions: &[Self::Action]) -> bool {
        self.setup
    }
    fn determinize<R: Rng>(&self, rng: &mut R) -> G {
        let mut s = self.root.sample_determinization(self.player, rng);
        resolve_chance(&mut s, rng);
        s
    }
    fn begin(&mut self) {}
    fn legal(&self, s: &G) -> Vec<Self::Action> {
        s.legal_actions()
    }
    fn to_act(&self, s: &G) -> PlayerId {
        s.turn().player().unwrap_or(self.player)
    }
    fn end_value(&self, s: &G, no_actions: bool) -> Option<(PlayerId, f32)> {
        match s.turn() {
            Turn::Terminal => Some((self.player, end_value_for(s, self.player))),
            // A player with nothing to play outside the end: the contract forbids it; scored as a
            // draw rather than searched into.
            Turn::Player(p) if no_actions => Some((p, 0.0)),
            _ => None,
        }
    }
    fn observe_into(&self, s: &G, player: PlayerId, out: &mut [f32]) {
        s.observe_into(player, out);
    }
    fn slots(&self, s: &G, actions: &[Self::Action], _player: PlayerId) -> Vec<u16> {
        actions.iter().map(|&a| s.action_index(a) as u16).collect()
    }
    fn step<R: Rng>(&mut self, s: &mut G, action: Self::Action, _player: PlayerId, rng: &mut R) -> Step<PlayerId> {
        s.apply(action);
        resolve_chance(s, rng);
        Step { key: s.infoset_key(self.player), ended: s.search_repetition() }
    }
    fn root_win<R: Rng>(&self, actions: &[Self::Action], cfg: &SearchConfig, rng: &mut R) -> Option<usize> {
        self.root.root_win(self.player, actions, cfg.root_mate_in_two, rng)
    }
    fn root_losing<R: Rng>(&self, actions: &[Self::Action], slots: &[u16], rng: &mut R) -> Vec<u16> {
        self.root.root_losing(self.player, actions, rng).into_iter().filter_map(|i| slots.get(i).copied()).collect()
    }
    /// The game's expectimax value of the leaf ([`Scored::leaf_searcher`]), as the variants'
    /// search mixes it ([`SearchConfig::value_mix`], [`SearchConfig::value_depth`]).
    fn leaf_tactics(&mut self, s: &G, cfg: &SearchConfig) -> Option<f32> {
        if cfg.value_mix <= 0.0 {
            return None;
        }
        let x = self.tactics.0.get_or_insert_with(|| G::leaf_searcher(ExpectimaxConfig { depth: cfg.value_depth, qdepth: 4, nodes: Some(20_000), ms: None, samples: 1, ..ExpectimaxConfig::default() }));
        Some(tactical_value(x(s), cfg))
    }
}

/// The value of the finished game `s` for `player` in [-1, 1]: [`Game::returns`] scaled by the
/// game's utility bounds (its sign where they coincide).
pub fn end_value_for<G: Game>(s: &G, player: PlayerId) -> f32 {
    let info = s.info();
    let r = s.returns(player);
    let span = info.max_utility - info.min_utility;
    let v = if span > 0.0 { (2.0 * r - (info.max_utility + info.min_utility)) / span } else { r.signum() };
    v.clamp(-1.0, 1.0) as f32
}

/// A leaf searcher's centipawns as a value in [-1, 1] for the side to move: a mate is ±1, any
/// other score `0.9 tanh(cp / value_scale_cp)` ([`SearchConfig::value_mix`]).
fn tactical_value(cp: f64, cfg: &SearchConfig) -> f32 {
    if cp.abs() >= MATE - 1_000.0 {
        cp.signum() as f32
    } else {
        0.9 * (cp as f32 / cfg.value_scale_cp.max(1.0)).tanh()
    }
}
