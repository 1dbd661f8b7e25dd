//! What the search bots need of a [`Game`] beyond the trait itself: a static evaluation, the
//! material an action wins, and two hooks of the one IS-MCTS ([`super::ismcts`], after Cowling,
//! Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012) with
//! defaults that every game without cached lists or private chance can keep: the legal actions in
//! ascending code order, and what an observer sees of a chance outcome.
//!
//! The variants implement it on [`VariantGameState`] (their cached legal list; the capture
//! reveals of RULES.md §F6 that only some players see), the RULES-more.md games on their own
//! states ([`crate::more`]).

use crate::game::{Action, Game, PlayerId};
use crate::more::bots::GameBot;
use crate::search::alphabeta::{GameAlphaBetaBot, GameSearch, Limits};
use crate::variant::game_state::{color_of, decode, decode_chance, encode_chance, sees_captured, VariantGameState};
use crate::variant::ChanceOutcome;

/// A game the search bots can play: a static evaluation, the material an action wins, the
/// IS-MCTS hooks and the bots' entry points `alphabeta_bot` / `pimc_bot` (with defaults: the one
/// alpha-beta on the copy-make adapter).
pub trait Scored: Game + Send + 'static {
    /// Static evaluation of the state for `player`, in centipawns (positive = good for `player`).
    fn eval_cp(&self, player: PlayerId) -> i32;

    /// Material the acting player wins with `action` (negative when it loses material), for
    /// `greedy` and move ordering.
    fn gain_cp(&self, action: Action) -> i32;

    /// The legal actions at a player's turn in ascending code order (IS-MCTS merges them with a
    /// node's sorted edges). The default fills `buf` with [`Game::legal_actions_into`] and sorts
    /// it; a game that keeps its list sorted returns it without copying.
    fn legal_ascending<'a>(&'a self, buf: &'a mut Vec<Action>) -> &'a [Action] {
        self.legal_actions_into(buf);
        buf.sort_unstable();
        buf
    }

    /// What `observer` sees of the chance outcome `outcome` drawn at this (chance) state, as a
    /// number: equal numbers for outcomes the observer cannot tell apart. IS-MCTS keys each
    /// observer's tree by it (Cowling et al. 2012, §VI). The default, the outcome itself, is
    /// right when every chance outcome is public.
    fn chance_observation(&self, outcome: Action, _observer: PlayerId) -> u32 {
        outcome.0
    }

    /// The `alphabeta` bot of this game ([`crate::more::bots::from_spec`]), searching within
    /// `limits` with a table of `hash_mb` MiB. The default is the one alpha-beta on the copy-make
    /// adapter ([`GameAlphaBetaBot`]); the variants search their core position instead.
    fn alphabeta_bot(limits: Limits, hash_mb: usize) -> Box<dyn GameBot<Self>>
    where
        Self: Sized,
    {
        Box::new(GameAlphaBetaBot::new(limits, hash_mb))
    }

    /// The one alpha-beta's search of this game as PIMC runs it on each determinization
    /// ([`crate::search::pimc::GamePimcBot`]), within `limits`, table `hash_mb` MiB. The default
    /// is [`GameAlphaBetaBot`] on the copy-make adapter; the variants search their core position.
    fn alphabeta_search(limits: Limits, hash_mb: usize) -> Box<dyn GameSearch<Self>>
    where
        Self: Sized,
    {
        Box::new(GameAlphaBetaBot::new(limits, hash_mb))
    }

    /// The `pimc` bot of this game with `k` determinizations, an optional decision budget of `ms`
    /// milliseconds and the one alpha-beta within `limits` (table `hash_mb` MiB) on each, seeded.
    /// The default is [`crate::more::bots::PimcBot`]; the variants use [`crate::search::pimc`]
    /// with `search=alphabeta`.
    fn pimc_bot(k: u32, ms: Option<u64>, limits: Limits, hash_mb: usize, seed: u64) -> Box<dyn GameBot<Self>>
    where
        Self: Sized,
    {
        Box::new(crate::more::bots::PimcBot::new(k, ms, limits, hash_mb, seed))
    }
}

/// The variant games as a [`Scored`] game: the static evaluation of
/// [`crate::search::eval::evaluate`] and the captured piece's [`crate::search::material`] on the
/// public position (the variant `greedy`'s score); the cached legal list (ascending codes); a
/// reveal seen as its public part — the drawn type of the piece that turns up — plus the captured
/// face-down piece's identity only for those who see it (RULES.md §F6,
/// [`crate::variant::game_state::sees_captured`]); a deal as nothing.
impl Scored for VariantGameState {
    fn eval_cp(&self, player: PlayerId) -> i32 {
        crate::search::eval::evaluate(self.state(), color_of(player))
    }

    fn gain_cp(&self, action: Action) -> i32 {
        match decode(action) {
            Some(crate::variant::Action::Move { to, .. }) => {
                self.state().position().piece_at(to).map(|p| crate::search::material(p.role)).unwrap_or(0)
            }
            _ => 0,
        }
    }

    fn legal_ascending<'a>(&'a self, _buf: &'a mut Vec<Action>) -> &'a [Action] {
        self.legal()
    }

    /// The variants' oracle [`crate::search::alphabeta::AlphaBetaBot`] (the searcher on the core
    /// position), so that a spec means the same bot through either entry point.
    fn alphabeta_bot(limits: Limits, hash_mb: usize) -> Box<dyn GameBot<Self>> {
        Box::new(crate::search::alphabeta::AlphaBetaBot::new(limits, hash_mb))
    }

    /// The variants' oracle search on the core position (with the game's record).
    fn alphabeta_search(limits: Limits, hash_mb: usize) -> Box<dyn GameSearch<Self>> {
        Box::new(crate::search::alphabeta::AlphaBetaBot::new(limits, hash_mb))
    }

    /// The variants' [`crate::search::pimc::PimcBot`] with `search=alphabeta` (the variant PIMC
    /// takes no table size: its inner searcher has 4 MiB).
    fn pimc_bot(k: u32, ms: Option<u64>, limits: Limits, _hash_mb: usize, seed: u64) -> Box<dyn GameBot<Self>> {
        let inner = crate::search::alphabeta::limits_name(&limits);
        let ms = ms.map(|m| format!(",ms={m}")).unwrap_or_default();
        let cfg = crate::search::pimc::PimcConfig::from_params(&format!("k={k}{ms},search={inner}")).expect("a well-formed pimc spec");
        Box::new(crate::search::pimc::PimcBot::new(cfg, seed))
    }

    fn chance_observation(&self, outcome: Action, observer: PlayerId) -> u32 {
        let o = decode_chance(outcome).unwrap_or(ChanceOutcome { mover: None, captured: None });
        let seen = sees_captured(self.state(), self.state().turn(), color_of(observer));
        encode_chance(ChanceOutcome { mover: o.mover, captured: if seen { o.captured } else { None } }).0
    }
}
