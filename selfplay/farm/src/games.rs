//! The games the farm plays (#17 item 3): a run names a game (a RULES.md variant, played through
//! the contract's `engine::variant::game_state::VariantGameState`, or a RULES-more preset:
//! `missile`, `skill`, `camel-5`, …, `engine::more::presets`), and [`GameLoop`] is what one game
//! of the farm ([`crate::play`]) needs of it: the state, the end, chance, a search for a net
//! player's decision, classical bots and the material adjudication at the ply limit.
//! [`MoreLoop`] plays any [`Playable`] game through the one search ([`crate::search::Generic`])
//! and the `engine::search::game_bot` bots. Design: `docs/train-any-game.md`.

use crate::search::{resolve_chance, Generic, Search, SearchConfig, SearchGame};
use crate::teacher::{self, TeacherTargets};
use engine::game::{PlayerId, Turn};
use engine::search::GameBot;
use engine::more::presets::Playable;
use engine::observe::Encoding;
use engine::Color;
use engine::any_game::{AnyGame, AnyGameError};
use rand::Rng;

/// Why a run's game cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The config's `variant` names neither a variant nor a RULES-more preset, or its rule file
    /// is broken ([`AnyGame::resolve`]).
    #[error("config key `variant` = {value:?}: {reason}")]
    Unknown {
        /// The value given.
        value: String,
        /// Why no rule book plays it.
        reason: String,
    },
    /// A variant the encoding cannot lay out.
    #[error("config key `variant` = {value:?}: no encoding for this game: {reason}")]
    NoEncoding {
        /// The value given.
        value: String,
        /// The encoding's error.
        reason: String,
    },
}

/// Loads the game named by a config's `variant` with the encoding every size of the run follows,
/// resolved as every command resolves it ([`AnyGame::resolve`]): a RULES-more preset or rule file
/// (its game's `Observe::encoding`), else a variant preset or file (`encoding_for`).
///
/// # Errors
/// [`GameError::Unknown`] when neither loads it, [`GameError::NoEncoding`] for a variant the
/// encoding cannot lay out.
pub fn load_game(spec: &str) -> Result<(AnyGame, Encoding), GameError> {
    let game = AnyGame::resolve(spec).map_err(|e| GameError::Unknown { value: spec.into(), reason: e.to_string() })?;
    let encoding = game.encoding().map_err(|e| match e {
        AnyGameError::NoEncoding { problem, .. } => GameError::NoEncoding { value: spec.into(), reason: problem.to_string() },
        e => GameError::Unknown { value: spec.into(), reason: e.to_string() },
    })?;
    Ok((game, encoding))
}

/// A teacher decision's training targets: the policy over `(action, slot, probability)`, the
/// search value for the mover and the teacher's best action.
pub type Teaching<A> = (Vec<(A, u16, f32)>, f32, A);

/// One game of the farm, as [`crate::play`] drives it. Players are colours (seat 0 is Red).
pub trait GameLoop: Send + Sized {
    /// The search side of a net player's decision.
    type S: SearchGame;
    /// A classical bot ([`crate::Player::Bot`]).
    type Bot: Send;

    /// `(winner, reason)` once the game is over.
    fn outcome(&self) -> Option<(Option<Color>, String)>;
    /// Actions played so far (set-up actions included).
    fn plies(&self) -> u32;
    /// Whether the game is in its set-up phase.
    fn in_setup(&self) -> bool;
    /// Resolves a chance state with `rng`; whether there was one.
    fn resolve_chance(&mut self, rng: &mut impl Rng) -> bool;
    /// The colour to act (at a player's turn).
    fn to_act(&self) -> Color;
    /// The legal actions of the player to act.
    fn legal(&self) -> Vec<<Self::S as SearchGame>::Action>;
    /// Plays `action`, drawing any chance outcome after it with `rng`.
    fn play(&mut self, action: <Self::S as SearchGame>::Action, rng: &mut impl Rng);
    /// Red's material lead in soldier units (chariot 9, cannon 4.5, horse 4, …), for the
    /// adjudication at the ply limit.
    fn material_lead(&self) -> f32;
    /// The search for the decision of `me` (to act), taking over `prev` where the game can.
    ///
    /// # Errors
    /// A message when the state cannot be searched.
    fn search(&self, prev: Option<Search<Self::S>>, me: Color, cfg: &SearchConfig, noise: bool, rng: &mut impl Rng) -> Result<Search<Self::S>, String>;
    /// Builds the bot of `spec` with `seed`.
    ///
    /// # Errors
    /// The spec's error.
    fn bot(&self, spec: &str, seed: u64) -> Result<Self::Bot, String>;
    /// The bot's choice for the player to act.
    fn bot_choose(&self, bot: &mut Self::Bot) -> <Self::S as SearchGame>::Action;
    /// The bot's analysed choice as training targets for `me` (a warm-start teacher), when the
    /// game's bots can analyse; `None` otherwise.
    fn teach(&self, bot: &mut Self::Bot, me: Color, t: &TeacherTargets) -> Option<Teaching<<Self::S as SearchGame>::Action>>;
    /// `me`'s observation of the current state (`encoding().obs_len()` floats).
    fn observe(&self, me: Color) -> Vec<f32>;
    /// The policy slots of `actions` (legal for `me` now), in order.
    fn slots(&self, actions: &[<Self::S as SearchGame>::Action], me: Color) -> Vec<u16>;
    /// The encoding of [`GameLoop::observe`].
    fn encoding(&self) -> Encoding;
}

fn seat(c: Color) -> PlayerId {
    engine::more::history::player_of(c)
}

/// A game of the farm: the game itself (its own end and repetition rules), the one search
/// ([`Generic`], its tree kept between a player's decisions by [`Search::reuse_generic`]), the
/// `engine::search::game_bot` bots (as teachers: their analysis where they give one,
/// [`teacher::targets`], else their choice and the game's evaluation after it,
/// [`teacher::generic_targets`]) and [`engine::search::Scored::eval_cp`] as material
/// (centipawns / 100).
#[derive(Clone)]
pub struct MoreLoop<G> {
    game: G,
    plies: u32,
}

impl<G: Playable> MoreLoop<G> {
    /// A game from `start`.
    pub fn new(start: G) -> MoreLoop<G> {
        MoreLoop { game: start, plies: 0 }
    }

    /// The state.
    pub fn state(&self) -> &G {
        &self.game
    }
}

impl<G: Playable> GameLoop for MoreLoop<G> {
    type S = Generic<G>;
    type Bot = Box<dyn GameBot<G>>;

    fn outcome(&self) -> Option<(Option<Color>, String)> {
        if self.game.turn() != Turn::Terminal {
            return None;
        }
        let r = self.game.returns(PlayerId::FIRST);
        let winner = if r > 0.0 {
            Some(Color::Red)
        } else if r < 0.0 {
            Some(Color::Black)
        } else {
            None
        };
        let reason = self.game.result().map_or_else(|| "ended".to_string(), |(_, why)| why.to_string());
        Some((winner, reason))
    }
    fn plies(&self) -> u32 {
        self.plies
    }
    fn in_setup(&self) -> bool {
        self.game.in_setup()
    }
    fn resolve_chance(&mut self, rng: &mut impl Rng) -> bool {
        resolve_chance(&mut self.game, rng)
    }
    fn to_act(&self) -> Color {
        engine::more::history::color_of(self.game.turn().player().unwrap_or(PlayerId::FIRST))
    }
    fn legal(&self) -> Vec<engine::game::Action> {
        self.game.legal_actions()
    }
    fn play(&mut self, action: engine::game::Action, rng: &mut impl Rng) {
        self.game.apply(action);
        self.plies += 1;
        resolve_chance(&mut self.game, rng);
    }
    fn material_lead(&self) -> f32 {
        self.game.eval_cp(PlayerId::FIRST) as f32 / 100.0
    }
    fn search(&self, prev: Option<Search<Generic<G>>>, _me: Color, cfg: &SearchConfig, noise: bool, rng: &mut impl Rng) -> Result<Search<Generic<G>>, String> {
        Search::reuse_generic(prev, self.game.clone(), crate::search::is_setup(&self.game), cfg, noise, rng).map_err(|e| e.to_string())
    }
    fn bot(&self, spec: &str, seed: u64) -> Result<Self::Bot, String> {
        crate::netmore::bot_from_spec(spec, seed, &self.game)
    }
    fn bot_choose(&self, bot: &mut Self::Bot) -> engine::game::Action {
        bot.choose(&self.game)
    }
    fn teach(&self, bot: &mut Self::Bot, me: Color, t: &TeacherTargets) -> Option<Teaching<engine::game::Action>> {
        let an = bot.analyse(&self.game);
        if an.stats.is_empty() {
            return Some(teacher::generic_targets(&self.game, seat(me), an.best, t));
        }
        let (policy, q) = teacher::targets(&an, |a| self.game.action_index(a) as u16, t);
        Some((policy, q, an.best))
    }
    fn observe(&self, me: Color) -> Vec<f32> {
        self.game.observation(seat(me))
    }
    fn slots(&self, actions: &[engine::game::Action], _me: Color) -> Vec<u16> {
        actions.iter().map(|&a| self.game.action_index(a) as u16).collect()
    }
    fn encoding(&self) -> Encoding {
        self.game.encoding()
    }
}
