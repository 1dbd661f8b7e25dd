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
use crate::search::GameBot;
use crate::search::alphabeta::{GameAlphaBetaBot, GameSearch, Limits};
use crate::variant::game_state::{color_of, decode, decode_chance, encode_chance, sees_captured, VariantGameState};
use crate::variant::ChanceOutcome;
use rand_pcg::Pcg64Mcg;

/// A game the search bots can play: a static evaluation, the material an action wins, the
/// IS-MCTS hooks, the bots' entry points `alphabeta_bot` / `alphabeta_search` (with defaults: the
/// one alpha-beta on the copy-make adapter), and what a search bot does at a set-up decision or
/// when its search chose nothing.
pub trait Scored: Game + Send + 'static {
    /// Static evaluation of the state for `player`, in centipawns (positive = good for `player`).
    fn eval_cp(&self, player: PlayerId) -> i32;

    /// [`Scored::eval_cp`] with the learned evaluation `net` ([`crate::nnue`]) where the game
    /// has one (the variants: [`crate::search::eval::evaluate_learned`] of the core position);
    /// the default, and `None`, give [`Scored::eval_cp`].
    fn eval_cp_with(&self, player: PlayerId, net: Option<&crate::nnue::Network>) -> i32 {
        let _ = net;
        self.eval_cp(player)
    }

    /// Material the acting player wins with `action` (negative when it loses material), for
    /// `greedy` and move ordering.
    fn gain_cp(&self, action: Action) -> i32;

    /// Whether the player to act is in check, on this state as given (the full state for an
    /// oracle, a determinization for PIMC and expectimax, never a player's view): the searches'
    /// check extension and their evasion search in quiescence
    /// ([`crate::search::alphabeta::GameNode`], [`crate::search::expectimax`]). The default: never
    /// (a game without checks). False at a terminal or chance state and during a set-up.
    fn in_check(&self) -> bool {
        false
    }

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

    /// Draws determinizations for `player` at this state one after another, each as
    /// [`Game::sample_determinization`] draws it (the same states from the same generator), for
    /// the searches that draw many at one decision (IS-MCTS, PIMC, expectimax's samples): work that
    /// depends only on the state and the player is done once. The default calls
    /// `sample_determinization` for each draw; the variants build the player's view once.
    fn determinizer<'a>(&'a self, player: PlayerId) -> Box<dyn FnMut(&mut Pcg64Mcg) -> Self + 'a>
    where
        Self: Sized,
    {
        Box::new(move |rng| self.sample_determinization(player, rng))
    }

    /// The `alphabeta` bot of this game ([`crate::search::game_bot::from_spec`]), searching within
    /// `limits` with a table of `hash_mb` MiB. The default is the one alpha-beta on the copy-make
    /// adapter ([`GameAlphaBetaBot`]); the variants search their core position instead.
    fn alphabeta_bot(limits: Limits, hash_mb: usize) -> Box<dyn GameBot<Self>>
    where
        Self: Sized,
    {
        Box::new(GameAlphaBetaBot::new(limits, hash_mb))
    }

    /// This game's own implementation of the bot of `spec` ([`crate::search::game_bot::from_spec`]
    /// asks it first), or `None` (the default) for the registry's generic bot. The RULES.md
    /// variants play `expectimax`, `oracle`, `pimc` and `ismcts` by their bots on the typed
    /// state ([`crate::search::registry::variant_bot`]), which also read `ties=random` and
    /// `search=mcts`.
    ///
    /// # Errors
    /// The spec's parameter error, as text.
    fn own_bot(spec: &crate::search::registry::BotSpec, seed: u64) -> Option<Result<Box<dyn GameBot<Self>>, String>>
    where
        Self: Sized,
    {
        let _ = (spec, seed);
        None
    }

    /// A leaf evaluator for the net search's tactical leaf value (the farm's
    /// `SearchConfig::value_mix`): the value of a state for its side to move in centipawns, by
    /// the expectimax of `cfg` ([`crate::search::expectimax::ExpectiSearch::leaf_value`]; mates
    /// as `±(MATE - ply)`). The default runs the one expectimax on this game's states; the
    /// RULES.md variants run it on their typed `State` (the same search, without copying the
    /// game's record at every node).
    fn leaf_searcher(cfg: crate::search::expectimax::ExpectimaxConfig) -> Box<dyn FnMut(&Self) -> f64 + Send>
    where
        Self: Sized,
    {
        let mut x = crate::search::expectimax::ExpectiSearch::<Self>::new(cfg);
        Box::new(move |s| x.leaf_value(s))
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

    /// The `pimc` configuration this game plays for a parsed spec: as parsed (the default inner
    /// search is the expectimax); the RULES.md variants resolve the default to the alpha-beta
    /// ([`crate::search::pimc::PimcConfig::for_variants`]).
    fn pimc_config(c: crate::search::pimc::PimcConfig) -> crate::search::pimc::PimcConfig
    where
        Self: Sized,
    {
        c
    }

    /// A root action of `player` (index into `actions`, `player`'s legal actions here) that wins
    /// at once, for a search to play without searching (the farm's
    /// `SearchConfig::root_win_check`); with `mate_in_two`, also a mate in two where the game
    /// checks for one. Determinizations are drawn for `player` with `rng`. The default is the
    /// generic win in one ([`crate::search::root_win::generic_win`]); the RULES.md variants check
    /// a win in one and a mate in two on their typed states
    /// ([`crate::variant::root_checks`]).
    fn root_win(&self, player: PlayerId, actions: &[Action], mate_in_two: bool, rng: &mut dyn rand::RngCore) -> Option<usize>
    where
        Self: Sized,
    {
        let _ = mate_in_two;
        crate::search::root_win::generic_win(self, player, actions, rng)
    }

    /// A search's verdict on the repetition the last ply made, for the state a simulation has
    /// just reached (the farm's net search asks after every step): `Some(winner)` ends the line
    /// (`Some(None)`: a draw), `None` goes on. Inside a search the first repetition already
    /// decides the line (the opponent could repeat it again), which steers play away from a
    /// repetition draw when ahead and away from a losing perpetual. The default: none (a game
    /// whose `turn()` ends repeated positions by its own rule is searched by that rule); the
    /// RULES.md variants judge the record and the line by the one rule module
    /// ([`crate::repetition::judge`] with two occurrences, RULES.md §X6).
    fn search_repetition(&self) -> Option<Option<PlayerId>>
    where
        Self: Sized,
    {
        None
    }

    /// Indices into `actions` (`player`'s legal actions here) of actions after which the
    /// opponent can win at once in a determinization drawn for `player` with `rng`, for a search
    /// to exclude (the farm's `SearchConfig::root_loss_check`). The default finds none; the
    /// RULES.md variants test the opponent's checking replies
    /// ([`crate::variant::root_checks::losing_actions`]).
    fn root_losing(&self, player: PlayerId, actions: &[Action], rng: &mut dyn rand::RngCore) -> Vec<usize>
    where
        Self: Sized,
    {
        let _ = (player, actions, rng);
        Vec::new()
    }

    /// Whether this is a set-up decision (a secret layout or an owner's-choice placement) at which
    /// the search bots have no evaluation that tells the choices apart and choose uniformly at
    /// random ([`crate::search::setup_choice`]). The default: never (the RULES-more.md set-ups are
    /// searched).
    fn is_setup_decision(&self) -> bool {
        false
    }

    /// The action a search bot plays when its search chose none of `legal` (non-empty). The
    /// default is the first.
    fn fallback_action(&self, legal: &[Action]) -> Action {
        legal[0]
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

    fn eval_cp_with(&self, player: PlayerId, net: Option<&crate::nnue::Network>) -> i32 {
        crate::search::eval::evaluate_with(self.state(), color_of(player), net)
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

    /// The player's view built once ([`VariantGameState::determinizer`]).
    fn determinizer<'a>(&'a self, player: PlayerId) -> Box<dyn FnMut(&mut Pcg64Mcg) -> Self + 'a> {
        Box::new(VariantGameState::determinizer(self, player))
    }

    /// The side to move's general attacked (RULES.md §X4, the position's own test, as the
    /// variants' expectimax reads it); false at a chance state.
    fn in_check(&self) -> bool {
        !self.state().is_chance() && self.state().side_in_check()
    }

    /// The variants' oracle [`crate::search::alphabeta::AlphaBetaBot`] (the searcher on the core
    /// position), so that a spec means the same bot through either entry point.
    fn alphabeta_bot(limits: Limits, hash_mb: usize) -> Box<dyn GameBot<Self>> {
        Box::new(crate::search::alphabeta::AlphaBetaBot::new(limits, hash_mb))
    }

    /// The variants' expectimax on the typed `State` ([`crate::search::expectimax::Expectimax`]).
    fn leaf_searcher(cfg: crate::search::expectimax::ExpectimaxConfig) -> Box<dyn FnMut(&Self) -> f64 + Send> {
        let mut x = crate::search::expectimax::Expectimax::new(cfg);
        Box::new(move |g: &VariantGameState| x.leaf_value(g.state()))
    }

    /// The variants' `expectimax`, `oracle`, `pimc` and `ismcts` ([`crate::search::registry::variant_bot`]).
    fn own_bot(spec: &crate::search::registry::BotSpec, seed: u64) -> Option<Result<Box<dyn GameBot<Self>>, String>> {
        crate::search::registry::variant_bot(spec, seed)
    }

    /// The variants' search on the core position (with the game's record), valuing face-down
    /// pieces as the mover's view does ([`crate::search::alphabeta::AlphaBetaBot::view_search`]).
    fn alphabeta_search(limits: Limits, hash_mb: usize) -> Box<dyn GameSearch<Self>> {
        Box::new(crate::search::alphabeta::AlphaBetaBot::new(limits, hash_mb))
    }

    /// The default inner search is the alpha-beta ([`crate::search::pimc::PimcConfig::for_variants`]).
    fn pimc_config(c: crate::search::pimc::PimcConfig) -> crate::search::pimc::PimcConfig {
        c.for_variants()
    }

    /// A win in one and, with `mate_in_two`, a mate in two on the typed states of `player`'s
    /// view ([`crate::variant::root_checks::immediate_win`], [`crate::variant::root_checks::mate_in_two`]);
    /// none at a chance state or an action that is no variant player action.
    fn root_win(&self, player: PlayerId, actions: &[Action], mate_in_two: bool, mut rng: &mut dyn rand::RngCore) -> Option<usize> {
        let (view, typed) = self.typed_root(player, actions)?;
        let rc = &mut rng;
        crate::variant::root_checks::immediate_win(&view, &typed, rc).or_else(|| if mate_in_two { crate::variant::root_checks::mate_in_two(&view, &typed, rc) } else { None })
    }

    /// The two-fold rule inside a search over the game's record (its start included) and the
    /// simulated line ([`VariantGameState::repeat_in_search`], RULES.md §X6), after a board ply
    /// (a move or a flip), where the variant has repetition rules.
    fn search_repetition(&self) -> Option<Option<PlayerId>> {
        self.repeat_in_search().map(|o| o.winner().map(crate::variant::game_state::player_of))
    }

    /// The opponent's checking (or, in King chess, grinding) replies that win at once
    /// ([`crate::variant::root_checks::losing_actions`]).
    fn root_losing(&self, player: PlayerId, actions: &[Action], mut rng: &mut dyn rand::RngCore) -> Vec<usize> {
        match self.typed_root(player, actions) {
            Some((view, typed)) => crate::variant::root_checks::losing_actions(&view, &typed, &mut rng),
            None => Vec::new(),
        }
    }

    /// A secret Surprise layout (§S2) or an owner's-choice placement (§F3).
    fn is_setup_decision(&self) -> bool {
        self.legal().iter().any(|&a| matches!(decode(a), Some(crate::variant::Action::Layout { .. } | crate::variant::Action::Place { .. })))
    }

    /// A pending demand is refused (as the variants' [`crate::search::Analysis::from_stats`]);
    /// otherwise the first legal action.
    fn fallback_action(&self, legal: &[Action]) -> Action {
        let refuse = crate::variant::game_state::encode(crate::variant::Action::Answer(crate::variant::state::Answer::Refuse));
        if legal.contains(&refuse) { refuse } else { legal[0] }
    }

    fn chance_observation(&self, outcome: Action, observer: PlayerId) -> u32 {
        let o = decode_chance(outcome).unwrap_or(ChanceOutcome { mover: None, captured: None });
        let seen = sees_captured(self.state(), self.state().turn(), color_of(observer));
        encode_chance(ChanceOutcome { mover: o.mover, captured: if seen { o.captured } else { None } }).0
    }
}

impl VariantGameState {
    /// `player`'s view and `actions` as variant actions, for the root checks; `None` at a chance
    /// state or when an action is no player action of the variants.
    fn typed_root(&self, player: PlayerId, actions: &[Action]) -> Option<(crate::variant::View, Vec<crate::variant::Action>)> {
        if self.state().is_chance() {
            return None;
        }
        let typed: Option<Vec<crate::variant::Action>> = actions.iter().map(|&a| decode(a)).collect();
        Some((crate::variant::View::new(self.state(), color_of(player)), typed?))
    }
}
