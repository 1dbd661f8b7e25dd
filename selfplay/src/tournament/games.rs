//! What a tournament, the ladder or a study plays: any game the engine knows, by name or rule
//! file ([`GameSpec`]). Every method is one generic body over the game's type, entered through
//! [`with_any_game`], so neither the runner nor the studies have a branch per rule book: the
//! RULES.md variants and the RULES-more.md presets (missile, skill, camel and their open twins)
//! differ only in what their [`Playable`] hooks do (set-up, chance, record strings, opening
//! order; [`engine::seeded`]) and in the players they seat ([`super::players`]).

use super::game::{self, Outcome, Played, PlayerKind, Rules, Setup};
use engine::any_game::{with_any_game, AnyGameError, Start};
use engine::more::presets::{Playable, WithGame};
use engine::more::MoreError;

/// Why a game of a [`GameSpec`] cannot be set up, played or replayed.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The game cannot be built (an unknown name, a bad rule file, a bad set-up FEN).
    #[error(transparent)]
    Build(#[from] AnyGameError),
    /// The game refused a set-up, a move of a record or a record string.
    #[error("{game}: {source}")]
    Game {
        /// The game's spec.
        game: String,
        /// The game's error.
        source: MoreError,
    },
}

/// A game by the name or rule file it was asked for, checked to build.
#[derive(Clone, Debug)]
pub struct GameSpec {
    spec: String,
    name: String,
    uci: bool,
}

impl GameSpec {
    /// The game `spec` names: a RULES-more.md preset or rule file, else a RULES.md preset or
    /// variant TOML file ([`with_any_game`]).
    ///
    /// # Errors
    /// [`GameError::Build`] when neither rule book knows `spec` or its rule file is broken.
    pub fn load(spec: &str) -> Result<GameSpec, GameError> {
        struct Probe<'a>(&'a str);
        impl WithGame for Probe<'_> {
            type Output = (String, bool);
            fn run<G: Playable>(self, g: G) -> Self::Output {
                (g.record_name(self.0), super::players::as_variant(&g).is_some())
            }
        }
        let (name, uci) = with_any_game(spec, Start::Setup, Probe(spec))?;
        Ok(GameSpec { spec: spec.to_string(), name, uci })
    }

    /// The spec it was loaded from.
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// The name written to records ([`Playable::record_name`]).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether UCI engines can play it (the RULES.md variants; [`super::players::uci_player`]).
    pub fn speaks_uci(&self) -> bool {
        self.uci
    }

    fn game_error(&self) -> impl Fn(MoreError) -> GameError + '_ {
        move |source| GameError::Game { game: self.spec.clone(), source }
    }

    /// The set-up drawn from `seed` ([`Playable::seeded_setup`]).
    ///
    /// # Errors
    /// The start cannot be built.
    pub fn setup(&self, seed: u64) -> Result<Setup, GameError> {
        struct Draw(u64);
        impl WithGame for Draw {
            type Output = Result<engine::seeded::SeededSetup, MoreError>;
            fn run<G: Playable>(self, g: G) -> Self::Output {
                g.seeded_setup(self.0)
            }
        }
        let s = with_any_game(&self.spec, Start::Setup, Draw(seed))?.map_err(self.game_error())?;
        Ok(Setup::seeded(s, seed))
    }

    /// Checks that `spec` builds a bot of this game ([`crate::bots::game_bot_for`]).
    ///
    /// # Errors
    /// The spec's error text.
    pub fn check_bot(&self, spec: &str) -> Result<(), String> {
        struct Check<'a>(&'a str);
        impl WithGame for Check<'_> {
            type Output = Result<(), String>;
            fn run<G: Playable>(self, g: G) -> Self::Output {
                crate::bots::game_bot_for(self.0, 0, &g).map(|_| ())
            }
        }
        with_any_game(&self.spec, Start::Setup, Check(spec)).map_err(|e| e.to_string())?
    }

    /// Plays one game from `setup` ([`game::play`]), `red` and `black` started with the seeds
    /// `seeds` (Red's, Black's).
    ///
    /// # Errors
    /// A player fails to start, or the set-up does not build.
    pub fn play(&self, setup: &Setup, rules: Rules, red: &PlayerKind, black: &PlayerKind, seeds: (u64, u64)) -> anyhow::Result<Played> {
        struct Body<'a> {
            game: &'a str,
            seed: u64,
            rules: Rules,
            kinds: [&'a PlayerKind; 2],
            seeds: (u64, u64),
        }
        impl WithGame for Body<'_> {
            type Output = anyhow::Result<Played>;
            fn run<G: Playable>(self, g: G) -> Self::Output {
                let mut red = self.kinds[0].start(&g, self.seeds.0, self.game)?;
                let mut black = self.kinds[1].start(&g, self.seeds.1, self.game)?;
                Ok(game::play(g, self.seed, self.rules, red.as_mut(), black.as_mut()))
            }
        }
        let body = Body { game: &self.spec, seed: setup.seed, rules, kinds: [red, black], seeds };
        with_any_game(&self.spec, Start::Fen(&setup.fen), body).map_err(GameError::from)?
    }

    /// Replays a record's moves from its set-up, checking each against the game and that it is
    /// written identically (reveal letters included, [`game::replay_moves`]), and returns the
    /// end the rules give (`None`: the game had not ended, e.g. at the ply limit).
    ///
    /// # Errors
    /// An illegal move or a record string the game writes differently.
    pub fn replay(&self, setup: &Setup, moves: &[String]) -> Result<Option<Outcome>, GameError> {
        struct Body<'a>(u64, &'a [String]);
        impl WithGame for Body<'_> {
            type Output = Result<Option<Outcome>, MoreError>;
            fn run<G: Playable>(self, g: G) -> Self::Output {
                Ok(Outcome::of(&game::replay_moves(g, self.0, self.1)?))
            }
        }
        with_any_game(&self.spec, Start::Fen(&setup.fen), Body(setup.seed, moves))?.map_err(self.game_error())
    }
}
