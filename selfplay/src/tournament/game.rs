//! One game between two players from a seeded set-up, for any game of the contract
//! ([`Playable`], entered through [`engine::any_game::with_any_game`] by
//! [`super::games::GameSpec`]): the set-up of a pair, the players (a bot or a UCI engine,
//! [`super::players`]) and the one game loop shared by tournaments, the ladder and the studies
//! ([`play`]).
//!
//! **Seeds** ([`engine::seeded`]): a seed decides everything hidden, so that both games of a pair
//! (colours swapped) start from the same hidden position, see the same chance and open alike:
//! the set-up ([`Playable::seeded_setup`]: Surprise layouts, owner's-choice arrangements, random
//! deals and open twins for the RULES.md variants, [`engine::variant::seeded`]; set-up actions
//! drawn uniformly for the RULES-more.md presets), the chance ([`Playable::seeded_chance`]: the
//! variants reveal the deal of the start) and the random opening plies
//! ([`Playable::opening_actions`]).
//!
//! The set-up is written to records as the start full-state FEN (§N) and the seed; the deal is
//! re-derived from them, and the moves carry the revealed types (§F8,
//! [`Playable::record_entry`]), which a replay checks ([`replay_moves`]).

use super::config::{Budget, EngineRestart, PlayerConfig};
use super::envvars;
use super::games::GameSpec;
use super::players::{self, Player, Ply, UciSpec};
use super::uci_client::{parse_spec, EngineFailure};
use engine::game::Turn;
use engine::more::history::color_of;
use engine::more::presets::Playable;
use engine::more::MoreError;
use engine::seeded::{play_ply, replay_entry, SeededSetup, OPENING_SALT};
use engine::variant::{fen as vfen, State, Variant};
use engine::Color;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Duration;

/// The hidden set-up of a pair of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Start full-state FEN (RULES.md §N).
    pub fen: String,
    /// Seed of the deal (random modes), of chance and of the random opening plies.
    pub seed: u64,
    /// Human-readable summary, e.g. `layouts C3,A`.
    pub label: String,
}

/// §S2 layout names.
pub use engine::variant::seeded::LAYOUTS;

impl Setup {
    /// The set-up of `seed` from a game's [`SeededSetup`].
    pub fn seeded(s: SeededSetup, seed: u64) -> Setup {
        Setup { fen: s.fen, seed, label: s.label }
    }

    /// The set-up of variant `v` for `seed` ([`engine::variant::seeded::generate`]).
    ///
    /// # Errors
    /// The variant's start state cannot be built (a broken variant file).
    pub fn generate(v: &'static Variant, seed: u64) -> anyhow::Result<Setup> {
        Ok(Setup::seeded(engine::variant::seeded::generate(v, seed)?, seed))
    }

    /// The start state.
    ///
    /// # Errors
    /// The FEN does not parse for `v`.
    pub fn state(&self, v: &'static Variant) -> anyhow::Result<State> {
        vfen::parse(v, &self.fen).map_err(|e| anyhow::anyhow!("set-up FEN {:?}: {e}", self.fen))
    }

    /// The deal of the undetermined face-down pieces of `start` (empty outside random modes and
    /// in open twins, whose deal is in the start state; [`engine::variant::seeded::deal`]).
    pub fn deal(&self, start: &State) -> Deal {
        engine::variant::seeded::deal(start, self.seed)
    }

    /// The hidden set-up and its open twin's for `seed` (docs/open-twins.md §O4): `hidden` may
    /// be the hidden variant or its open twin; both set-ups hold the same layouts, arrangement
    /// or deal, the open one with every identity written in its FEN.
    ///
    /// # Errors
    /// The variant hides nothing, or a start state cannot be built.
    pub fn pair(hidden: &'static Variant, seed: u64) -> anyhow::Result<(Setup, Setup)> {
        use engine::any_game::{twin_of, Twin};
        let (h, o) = (twin_of(hidden, Twin::Hidden)?, twin_of(hidden, Twin::Open)?);
        Ok((Setup::generate(h, seed)?, Setup::generate(o, seed)?))
    }
}

/// Dealt identities by square index (module docs): [`engine::variant::open::Deal`], shared
/// with the open twins (docs/open-twins.md) so that a hidden game and its twin play one deal.
pub use engine::variant::open::Deal;

/// How a player is built: a bot spec (with the budget folded in) or a UCI engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// A bot spec ([`crate::bots::game_bot_for`]).
    Bot(String),
    /// External engine (RULES.md variants only).
    Uci(UciSpec),
}

impl PlayerKind {
    /// From a `[[player]]` table and the default budget, for games of `game`. Built-in specs are
    /// checked by building the bot once ([`GameSpec::check_bot`]).
    ///
    /// A UCI spec's `${NAME}` / `$NAME` are replaced from the environment ([`envvars`]).
    ///
    /// # Errors
    /// An unknown spec, a budget the bot rejects, a UCI engine without any budget, a UCI spec
    /// naming an unset environment variable, or a UCI engine for a game other than a RULES.md
    /// variant ([`players::SeatError::Uci`]).
    pub fn from_config(p: &PlayerConfig, default: &Budget, game: &GameSpec) -> anyhow::Result<PlayerKind> {
        let own = Budget { nodes: p.nodes, movetime_ms: p.movetime_ms, depth: p.depth };
        let budget = own.or(default);
        let uci_spec = if p.spec.starts_with("uci:") {
            Some(envvars::expand(&p.spec).map_err(|e| anyhow::anyhow!("player {:?}: {e}", p.name.as_deref().unwrap_or(&p.spec)))?)
        } else {
            None
        };
        if let Some((program, args)) = uci_spec.as_deref().and_then(parse_spec) {
            if !game.speaks_uci() {
                return Err(players::SeatError::Uci { player: p.spec.clone(), game: game.spec().to_string() }.into());
            }
            if budget.is_empty() {
                anyhow::bail!("player {:?}: a UCI engine needs a budget (nodes, movetime_ms or depth)", p.spec);
            }
            let timeout = Duration::from_millis(p.timeout_ms.unwrap_or(budget.movetime_ms.unwrap_or(0) * 3 + 30_000));
            return Ok(PlayerKind::Uci(UciSpec {
                program,
                args,
                options: p.options.clone(),
                go: budget.as_go(),
                timeout,
                dialect: p.dialect,
                restart: EngineRestart::Game,
            }));
        }
        if p.spec.starts_with("uci:") {
            anyhow::bail!("player {:?}: expected uci:<program> [args…]", p.spec);
        }
        game.check_bot(&p.spec).map_err(|e| anyhow::anyhow!("player {:?}: {e}", p.spec))?;
        // Each budget key is appended as a parameter (`nodes=`, `ms=`, `depth=`). A key from the
        // tournament's [budget] that the bot does not take (random and greedy take none,
        // ismcts counts iterations, not nodes) is skipped for it; a per-player key it does not
        // take is an error.
        let mut spec = p.spec.clone();
        let keys = [
            ("nodes", own.nodes.map(|x| x.to_string()), default.nodes.map(|x| x.to_string())),
            ("ms", own.movetime_ms.map(|x| x.to_string()), default.movetime_ms.map(|x| x.to_string())),
            ("depth", own.depth.map(|x| x.to_string()), default.depth.map(|x| x.to_string())),
        ];
        for (key, mine, theirs) in keys {
            let (value, explicit) = match (mine, theirs) {
                (Some(v), _) => (v, true),
                (None, Some(v)) => (v, false),
                (None, None) => continue,
            };
            let with = with_param(&spec, key, &value);
            match game.check_bot(&with) {
                Ok(_) => spec = with,
                Err(e) if explicit => anyhow::bail!("player {:?}: budget {key}={value}: {e}", p.spec),
                Err(_) => {}
            }
        }
        Ok(PlayerKind::Bot(spec))
    }

    /// Seats the player at the game of `g` (whose spec is `game`, for errors), seeded `seed`. A
    /// UCI engine that dies or stays silent while it starts ([`EngineFailure`]) is seated as a
    /// [`players::Forfeit`]: it loses the game at its first turn, with the failure as the reason,
    /// and the tournament goes on (issue #39).
    ///
    /// # Errors
    /// The bot spec fails to build or the engine's program cannot be run; a UCI engine at a game
    /// other than a RULES.md variant, one that lacks the variant, or one whose dialect cannot be
    /// given the variant's positions without what its side may not know
    /// ([`players::uci_player`]).
    pub fn start<G: Playable>(&self, g: &G, seed: u64, game: &str) -> anyhow::Result<Box<dyn Player<G>>> {
        match self {
            PlayerKind::Bot(spec) => players::bot_player(spec, seed, g).map_err(anyhow::Error::msg),
            PlayerKind::Uci(uci) => match players::uci_player(uci, g, game) {
                Err(e) if e.chain().any(|c| c.is::<EngineFailure>()) => Ok(Box::new(players::Forfeit(format!("{e:#}")))),
                other => other,
            },
        }
    }

    /// This player with UCI engines started as `restart` says (bots are unchanged).
    pub fn with_restart(mut self, restart: EngineRestart) -> PlayerKind {
        if let PlayerKind::Uci(u) = &mut self {
            u.restart = restart;
        }
        self
    }
}

/// `spec` with the parameter `key=value` added to its outer bot: before a nested `search=`
/// (which takes the rest of a spec, so that `pimc:search=expectimax:depth=2` with a time budget
/// is `pimc:ms=50,search=expectimax:depth=2`, not an expectimax with 50 ms for each
/// determinization), else at the end.
pub fn with_param(spec: &str, key: &str, value: &str) -> String {
    let nested = spec.match_indices("search=").map(|(i, _)| i).find(|&i| i > 0 && matches!(spec.as_bytes()[i - 1], b',' | b':'));
    match nested {
        Some(i) => format!("{}{key}={value},{}", &spec[..i], &spec[i..]),
        None => format!("{spec}{}{key}={value}", if spec.contains(':') { "," } else { ":" }),
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Reason: a rule (`checkmate`, `60-move rule`, …), `ply limit`, or `forfeit: …`.
    pub reason: String,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::Red) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// Red's points.
    pub fn red_score(&self) -> f64 {
        match self.winner {
            Some(Color::Red) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        }
    }

    /// The end the rules gave `g` ([`Playable::result`]), if it ended.
    pub fn of<G: Playable>(g: &G) -> Option<Outcome> {
        let (result, reason) = g.result()?;
        let winner = match result {
            "1-0" => Some(Color::Red),
            "0-1" => Some(Color::Black),
            _ => None,
        };
        Some(Outcome { winner, reason: reason.to_string() })
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Played {
    /// Record strings of the plies.
    pub moves: Vec<String>,
    /// The end.
    pub outcome: Outcome,
}

/// Game settings.
#[derive(Copy, Clone, Debug)]
pub struct Rules {
    /// Ply limit (adjudicated draw).
    pub max_plies: usize,
    /// Plies played uniformly at random first (seeded by the set-up, so both games of a pair
    /// open alike).
    pub opening_plies: usize,
}

/// A game in progress between two players: the game, its chance, the plies and their record
/// entries.
struct GameMatch<'a, G: Playable> {
    game: G,
    chance: Box<dyn engine::seeded::ChanceSource<G>>,
    plies: Vec<Ply>,
    moves: Vec<String>,
    players: [&'a mut dyn Player<G>; 2],
}

impl<G: Playable> GameMatch<'_, G> {
    /// Plays legal player action `a` and the chance it leads to, recording both.
    fn play(&mut self, a: engine::game::Action) {
        let (text, chance) = play_ply(&mut self.game, a, self.chance.as_mut());
        self.moves.push(text);
        self.plies.push((a, chance));
    }
}

/// Plays one game from `start` (the game at the set-up's FEN) between `red` and `black`: the
/// first [`Rules::opening_plies`] plies uniformly at random among
/// [`Playable::opening_actions`] (drawn with the set-up's seed), then the players, to the
/// game's own end, the ply limit (a draw) or a forfeit (an illegal action or a failed player:
/// the other side wins). Chance comes from [`Playable::seeded_chance`] of the seed.
pub fn play<G: Playable>(start: G, seed: u64, rules: Rules, red: &mut dyn Player<G>, black: &mut dyn Player<G>) -> Played {
    let chance = start.seeded_chance(seed);
    let mut m = GameMatch { game: start, chance, plies: Vec::new(), moves: Vec::new(), players: [red, black] };
    let mut opening = Pcg64Mcg::seed_from_u64(seed ^ OPENING_SALT);
    let outcome = loop {
        if let Some(end) = Outcome::of(&m.game) {
            break end;
        }
        if m.moves.len() >= rules.max_plies {
            break Outcome { winner: None, reason: "ply limit".into() };
        }
        let Turn::Player(p) = m.game.turn() else {
            break Outcome { winner: None, reason: format!("no player to move ({:?})", m.game.turn()) };
        };
        if m.moves.len() < rules.opening_plies {
            let acts = m.game.opening_actions();
            m.play(acts[opening.random_range(0..acts.len())]);
            continue;
        }
        let chosen = m.players[p.index()].choose(&m.game, &m.plies).and_then(|a| {
            if m.game.legal_actions().contains(&a) {
                Ok(a)
            } else {
                Err(format!("illegal action {a}"))
            }
        });
        match chosen {
            Ok(a) => m.play(a),
            Err(why) => break Outcome { winner: Some(color_of(p).opponent()), reason: format!("forfeit: {why}") },
        }
    };
    Played { moves: m.moves, outcome }
}

/// Replays record entries `moves` in `start` (the game at the set-up's FEN) with the chance of
/// `seed`, checking every move and that each entry (with its reveal letters) is written
/// identically ([`engine::seeded::replay_entry`]). Returns the final game.
///
/// # Errors
/// [`MoreError::Move`] naming the ply: an illegal move, or revealed types that differ from the
/// record.
pub fn replay_moves<G: Playable>(mut g: G, seed: u64, moves: &[String]) -> Result<G, MoreError> {
    let mut chance = g.seeded_chance(seed);
    for (i, m) in moves.iter().enumerate() {
        replay_entry(&mut g, m, chance.as_mut()).map_err(|e| MoreError::Move(format!("ply {}: {e}", i + 1)))?;
    }
    Ok(g)
}


#[cfg(test)]
mod tests {
    use super::with_param;

    #[test]
    fn budget_goes_to_the_outer_bot_not_a_nested_search() {
        assert_eq!(with_param("pimc:search=expectimax:depth=2", "ms", "50"), "pimc:ms=50,search=expectimax:depth=2");
        assert_eq!(with_param("pimc:k=8,search=alphabeta:depth=2", "ms", "50"), "pimc:k=8,ms=50,search=alphabeta:depth=2");
        assert_eq!(with_param("pimc", "ms", "50"), "pimc:ms=50");
        assert_eq!(with_param("ismcts:mode=so", "ms", "50"), "ismcts:mode=so,ms=50");
        // `search=` only as a parameter's name, not inside a value.
        assert_eq!(with_param("net:checkpoint=research=x", "ms", "50"), "net:checkpoint=research=x,ms=50");
    }
}
