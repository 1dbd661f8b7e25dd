//! What a tournament or study is played under: a RULES.md variant ([`engine::variant`]) or a
//! RULES-more.md preset ([`engine::more`]: missile, skill, camel). The runner and the draw-rate
//! study go through [`Ruleset`] alone, so neither has a branch per kind of game; the two kinds
//! differ only in their set-up, their bots and their record strings, and both are played by the
//! one loop [`super::game::drive`].
//!
//! **Presets**: the set-up phase (missile's hidden placements §3.6, skill's tile choices §1) is
//! drawn uniformly at random from the set-up seed, as the variants' hidden set-ups are (Surprise
//! layouts, owner's-choice arrangements), so both games of a pair start from the same position;
//! the record's start FEN is the full state after the set-up, and the moves are the games' action
//! strings. These games reveal a hidden set-up when it is complete (RULES-more.md §1.9, §3.8), so
//! a game started from that FEN hides nothing the rules still hide; under missile xiangqi's
//! face-down reading (§3.8, `face_down`) the FEN's `down` field keeps the placed pieces
//! face-down, so the game from it hides what the rules hide. Players are the Game-trait bots of [`engine::search::game_bot`] (`random`, `greedy`,
//! `alphabeta`, `pimc`, `ismcts`); UCI engines have no protocol for these games and are refused
//! ([`PresetError::Uci`]).

use super::game::{self, drive, Match, Outcome, Played, PlayerKind, Rules, Setup, OPENING_SALT, SETUP_SALT};
use engine::game::Turn;
use engine::search::game_bot::{self as more_bots, GameBot};
use engine::more::history::color_of;
use engine::more::presets::{self, with_game, Playable, WithGame};
use engine::more::MoreError;
use engine::variant::Variant;
use engine::Color;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Why a RULES-more.md preset cannot be played as asked.
#[derive(Debug, thiserror::Error)]
pub enum PresetError {
    /// UCI engines do not play the RULES-more.md presets.
    #[error("player {player:?}: UCI engines cannot play {preset:?} (a RULES-more.md preset, outside the UCI protocol); use a built-in bot")]
    Uci {
        /// The player's spec.
        player: String,
        /// The preset.
        preset: String,
    },
    /// The game refused a FEN, a move or a bot spec.
    #[error("{preset}: {source}")]
    Game {
        /// The preset.
        preset: String,
        /// The game's error.
        source: MoreError,
    },
}

/// The rules a tournament or study plays.
#[derive(Clone, Debug)]
pub enum Ruleset {
    /// A RULES.md variant (preset or TOML file).
    Variant(&'static Variant),
    /// A RULES-more.md preset, by name.
    Preset(String),
}

impl Ruleset {
    /// The preset or variant named `spec` (a RULES-more.md preset name, else a RULES.md preset
    /// or variant TOML file).
    ///
    /// # Errors
    /// Neither kind knows `spec`.
    pub fn load(spec: &str) -> anyhow::Result<Ruleset> {
        if presets::is_spec(spec) {
            return Ok(Ruleset::Preset(spec.to_string()));
        }
        Ok(Ruleset::Variant(crate::cli::variant_arg::load(spec)?))
    }

    /// The name written to records.
    pub fn name(&self) -> &str {
        match self {
            Ruleset::Variant(v) => &v.name,
            Ruleset::Preset(p) => p,
        }
    }

    /// The hidden set-up drawn from `seed` ([`Setup::generate`] for variants; the module docs for
    /// presets).
    ///
    /// # Errors
    /// The start state cannot be built.
    pub fn setup(&self, seed: u64) -> anyhow::Result<Setup> {
        match self {
            Ruleset::Variant(v) => Setup::generate(v, seed),
            Ruleset::Preset(p) => Ok(preset_setup(p, seed)?),
        }
    }

    /// Checks that `spec` builds a bot of this ruleset's games.
    ///
    /// # Errors
    /// The spec's error text.
    pub fn check_bot(&self, spec: &str) -> Result<(), String> {
        match self {
            Ruleset::Variant(v) => game::build_bot(spec, 0, &v.name).map(|_| ()),
            Ruleset::Preset(p) => {
                struct Check<'a>(&'a str);
                impl WithGame for Check<'_> {
                    type Output = Result<(), String>;
                    fn run<G: Playable>(self, g: G) -> Self::Output {
                        more_bots::from_spec_for::<G>(self.0, 0, &g).map(|_| ())
                    }
                }
                with_game(p, None, Check(spec)).map_err(|e| e.to_string())?
            }
        }
    }

    /// Plays one game from `setup`, `red` and `black` started with the seeds `seeds` (Red's,
    /// Black's).
    ///
    /// # Errors
    /// A player fails to start, or the set-up does not parse.
    pub fn play(&self, setup: &Setup, rules: Rules, red: &PlayerKind, black: &PlayerKind, seeds: (u64, u64)) -> anyhow::Result<Played> {
        match self {
            Ruleset::Variant(v) => {
                let mut r = red.start(v, seeds.0)?;
                let mut b = black.start(v, seeds.1)?;
                game::play(v, setup, rules, &mut r, &mut b)
            }
            Ruleset::Preset(p) => Ok(play_preset(p, setup, rules, [red, black], seeds)?),
        }
    }

    /// Replays a record's moves from its set-up, checking each against the game (for variants,
    /// also the reveal letters), and returns
    /// the end the rules give (`None`: the game had not ended, e.g. at the ply limit).
    ///
    /// # Errors
    /// An illegal move or a record string the game writes differently.
    pub fn replay(&self, setup: &Setup, moves: &[String]) -> anyhow::Result<Option<Outcome>> {
        match self {
            Ruleset::Variant(v) => {
                let g = game::replay(v, setup, moves)?;
                Ok(g.outcome().map(|end| Outcome { winner: end.winner(), reason: end.reason().to_string() }))
            }
            Ruleset::Preset(p) => Ok(replay_preset(p, setup, moves)?),
        }
    }
}

fn game_error(preset: &str) -> impl Fn(MoreError) -> PresetError + '_ {
    move |source| PresetError::Game { preset: preset.to_string(), source }
}

/// The end of a preset game, if it ended.
fn outcome_of<G: Playable>(g: &G) -> Option<Outcome> {
    let (result, reason) = g.result()?;
    let winner = match result {
        "1-0" => Some(Color::Red),
        "0-1" => Some(Color::Black),
        _ => None,
    };
    Some(Outcome { winner, reason: reason.to_string() })
}

/// The set-up of preset `name` for `seed`: set-up actions drawn uniformly at random.
fn preset_setup(name: &str, seed: u64) -> Result<Setup, PresetError> {
    struct Draw(u64);
    impl WithGame for Draw {
        type Output = Setup;
        fn run<G: Playable>(self, mut g: G) -> Setup {
            let mut rng = Pcg64Mcg::seed_from_u64(self.0 ^ SETUP_SALT);
            let mut drawn = 0;
            while g.in_setup() && !g.is_terminal() {
                let l = g.legal_actions();
                g.apply(l[rng.random_range(0..l.len())]);
                drawn += 1;
            }
            let label = if drawn > 0 { format!("set-up drawn ({drawn} actions)") } else { "-".into() };
            Setup { fen: g.full_fen(), seed: self.0, label }
        }
    }
    with_game(name, None, Draw(seed)).map_err(game_error(name))
}

/// A preset game between two Game-trait bots.
struct PresetMatch<G: Playable> {
    game: G,
    bots: [Box<dyn GameBot<G>>; 2],
    moves: Vec<String>,
}

impl<G: Playable> PresetMatch<G> {
    fn apply(&mut self, a: engine::game::Action) {
        self.moves.push(self.game.action_string(a));
        self.game.apply(a);
    }
}

impl<G: Playable> Match for PresetMatch<G> {
    fn outcome(&self) -> Option<Outcome> {
        outcome_of(&self.game)
    }
    fn plies(&self) -> usize {
        self.moves.len()
    }
    fn mover(&self) -> Color {
        match self.game.turn() {
            Turn::Player(p) => color_of(p),
            // `drive` asks only before the end; these games have no chance nodes.
            Turn::Chance | Turn::Terminal => Color::Red,
        }
    }
    fn play_random(&mut self, rng: &mut Pcg64Mcg) {
        let l = self.game.legal_actions();
        self.apply(l[rng.random_range(0..l.len())]);
    }
    fn play_player(&mut self) -> Result<(), String> {
        let Turn::Player(p) = self.game.turn() else { return Err("no player to move".into()) };
        let a = self.bots[p.index()].choose(&self.game);
        if !self.game.legal_actions().contains(&a) {
            return Err(format!("illegal action {a}"));
        }
        self.apply(a);
        Ok(())
    }
    fn moves(&self) -> Vec<String> {
        self.moves.clone()
    }
}

fn play_preset(name: &str, setup: &Setup, rules: Rules, kinds: [&PlayerKind; 2], seeds: (u64, u64)) -> Result<Played, PresetError> {
    struct Body<'a> {
        name: &'a str,
        seed: u64,
        rules: Rules,
        specs: [&'a PlayerKind; 2],
        seeds: (u64, u64),
    }
    impl WithGame for Body<'_> {
        type Output = Result<Played, PresetError>;
        fn run<G: Playable>(self, game: G) -> Self::Output {
            let bot = |k: &PlayerKind, seed: u64| match k {
                PlayerKind::Bot(spec) => more_bots::from_spec_for::<G>(spec, seed, &game)
                    .map_err(|e| PresetError::Game { preset: self.name.to_string(), source: MoreError::Bot(e) }),
                PlayerKind::Uci { program, .. } => Err(PresetError::Uci { player: format!("uci:{program}"), preset: self.name.to_string() }),
            };
            let bots = [bot(self.specs[0], self.seeds.0)?, bot(self.specs[1], self.seeds.1)?];
            let mut m = PresetMatch { game, bots, moves: Vec::new() };
            Ok(drive(&mut m, self.rules, &mut Pcg64Mcg::seed_from_u64(self.seed ^ OPENING_SALT)))
        }
    }
    let body = Body { name, seed: setup.seed, rules, specs: kinds, seeds };
    with_game(name, Some(&setup.fen), body).map_err(game_error(name))?
}

fn replay_preset(name: &str, setup: &Setup, moves: &[String]) -> Result<Option<Outcome>, PresetError> {
    struct Body<'a>(&'a str, &'a [String]);
    impl WithGame for Body<'_> {
        type Output = Result<Option<Outcome>, PresetError>;
        fn run<G: Playable>(self, mut g: G) -> Self::Output {
            for (i, m) in self.1.iter().enumerate() {
                g.play_text(m).map_err(|e| PresetError::Game { preset: self.0.to_string(), source: MoreError::Move(format!("ply {}: {e}", i + 1)) })?;
            }
            Ok(outcome_of(&g))
        }
    }
    with_game(name, Some(&setup.fen), Body(name, moves)).map_err(game_error(name))?
}
