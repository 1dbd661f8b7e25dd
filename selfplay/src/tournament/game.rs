//! One game between two players from a hidden set-up: the set-up of a pair, the players (a
//! built-in bot or a UCI engine) and the game loop shared by tournaments and experiments.
//!
//! **Set-ups** ([`Setup::generate`]): a seed decides everything hidden, so that both games of a
//! pair (colours swapped) start from the same hidden position and see the same chance:
//! - Surprise: both sides' layouts (RULES.md §S2), uniformly among the 10 each;
//! - Fan-qi owner's-choice modes 3, 5, 7, 9: each side's face-down pieces are shuffled among its
//!   face-down points (the "owner's choice" made at random, §F3);
//! - random modes (Fan-qi 4, 6, 8, 10, Jieqi): a *deal*, one type from the pool for every
//!   undetermined face-down point, drawn at random. A chance node (§P2) is resolved with the
//!   dealt type of the moved piece's origin and of the captured piece's point. Dealing the whole
//!   pool in advance and revealing on demand draws each reveal uniformly from the pool, as the
//!   rules' chance does, but makes both games of a pair share the hidden identities;
//! - other variants have nothing hidden (the seed still drives the random opening plies).
//!
//! The set-up is written to records as the start full-state FEN (§N) and the seed; the deal is
//! re-derived from them ([`Setup::deal`]), and the moves carry the revealed types (§F8).

use super::uci_client::{parse_spec, UciClient};
use super::config::{Budget, PlayerConfig};
use super::dialect::Dialect;
use super::envvars;
use super::ruleset::Ruleset;
use engine::search::{Bot, Decision};
use engine::variant::game::VariantGame;
use engine::variant::{fen as vfen, notation, Action, ChanceOutcome, SetupKind, State, Variant};
use engine::Color;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::collections::BTreeMap;
use std::time::Duration;

/// The hidden set-up of a pair of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Start full-state FEN (RULES.md §N).
    pub fen: String,
    /// Seed of the deal (random modes) and of the random opening plies.
    pub seed: u64,
    /// Human-readable summary, e.g. `layouts C3,A`.
    pub label: String,
}

/// §S2 layout names.
pub const LAYOUTS: [&str; 10] = ["A", "B", "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8"];

impl Setup {
    /// The set-up for `seed` (module docs).
    ///
    /// # Errors
    /// The variant's start state cannot be built (a broken variant file).
    pub fn generate(v: &'static Variant, seed: u64) -> anyhow::Result<Setup> {
        if v.open {
            // docs/open-twins.md §O4: the hidden game's set-up for the same seed, its deal
            // made at the start and shown.
            let h: &'static Variant = Box::leak(Box::new(v.hidden_twin()?));
            let hidden = Setup::generate(h, seed)?;
            let start = hidden.state(h)?;
            let open = engine::variant::open::open_state(v, &start, &hidden.deal(&start))?;
            return Ok(Setup { fen: vfen::write(&open), seed, label: format!("{} (open)", hidden.label) });
        }
        let mut rng = Pcg64Mcg::seed_from_u64(seed ^ SETUP_SALT);
        match v.caps.setup {
            SetupKind::Layouts => {
                let r = LAYOUTS[rng.random_range(0..LAYOUTS.len())];
                let b = LAYOUTS[rng.random_range(0..LAYOUTS.len())];
                let s = State::start(v, Some((r, b)))?;
                Ok(Setup { fen: vfen::write(&s), seed, label: format!("layouts {r},{b}") })
            }
            SetupKind::Placement => {
                let s = State::start(v, None)?;
                let fen = shuffle_arrangement(&vfen::write(&s), &mut rng);
                vfen::parse(v, &fen).map_err(|e| anyhow::anyhow!("shuffled arrangement {fen:?}: {e}"))?;
                Ok(Setup { fen, seed, label: "arrangement shuffled".into() })
            }
            SetupKind::None if v.random_reveals() => {
                let s = State::start(v, None)?;
                Ok(Setup { fen: vfen::write(&s), seed, label: "random deal".into() })
            }
            SetupKind::None => Ok(Setup { fen: vfen::write(&State::start(v, None)?), seed, label: "-".into() }),
        }
    }

    /// The start state.
    ///
    /// # Errors
    /// The FEN does not parse for `v`.
    pub fn state(&self, v: &'static Variant) -> anyhow::Result<State> {
        vfen::parse(v, &self.fen).map_err(|e| anyhow::anyhow!("set-up FEN {:?}: {e}", self.fen))
    }

    /// The deal of the undetermined face-down pieces of `start` (empty outside random modes and
    /// in open twins, whose deal is in the start state).
    pub fn deal(&self, start: &State) -> Deal {
        Deal::draw(start, &mut Pcg64Mcg::seed_from_u64(self.seed ^ 0xDEA1_DEA1))
    }

    /// The hidden set-up and its open twin's for `seed` (docs/open-twins.md §O4): `hidden` may
    /// be the hidden variant or its open twin; both set-ups hold the same layouts, arrangement
    /// or deal, the open one with every identity written in its FEN.
    ///
    /// # Errors
    /// The variant hides nothing, or a start state cannot be built.
    pub fn pair(hidden: &'static Variant, seed: u64) -> anyhow::Result<(Setup, Setup)> {
        let h: &'static Variant = Box::leak(Box::new(hidden.hidden_twin()?));
        let o: &'static Variant = Box::leak(Box::new(hidden.open_twin()?));
        Ok((Setup::generate(h, seed)?, Setup::generate(o, seed)?))
    }
}

/// Shuffles each side's `square=Letter` entries of the sixth FEN field (§N2) among its squares.
fn shuffle_arrangement(fen: &str, rng: &mut Pcg64Mcg) -> String {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if fields.len() < 6 {
        return fen.to_string();
    }
    let entries: Vec<(String, char)> =
        fields[5].split(',').filter_map(|e| e.split_once('=').and_then(|(sq, l)| Some((sq.to_string(), l.chars().next()?)))).collect();
    let mut out = Vec::new();
    for red in [true, false] {
        let side: Vec<&(String, char)> = entries.iter().filter(|(_, l)| l.is_ascii_uppercase() == red).collect();
        let mut letters: Vec<char> = side.iter().map(|(_, l)| *l).collect();
        letters.shuffle(rng);
        out.extend(side.iter().zip(letters).map(|((sq, _), l)| format!("{sq}={l}")));
    }
    fields[5] = out.join(",");
    fields.join(" ")
}

/// Dealt identities by square index (module docs): [`engine::variant::open::Deal`], shared
/// with the open twins (docs/open-twins.md) so that a hidden game and its twin play one deal.
pub use engine::variant::open::Deal;

/// A draw from `(outcome, probability)` pairs.
pub fn sample(outs: &[(ChanceOutcome, f64)], rng: &mut Pcg64Mcg) -> ChanceOutcome {
    engine::variant::game::draw_outcome(outs, rng)
}

/// How a player is built: a bot spec (with the budget folded in) or a UCI engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// A bot spec: [`build_bot`] for the variants (built-in bot or `net:` checkpoint),
    /// `engine::search::game_bot::from_spec` for the RULES-more.md presets.
    Bot(String),
    /// External engine.
    Uci {
        /// Program.
        program: String,
        /// Arguments.
        args: Vec<String>,
        /// `setoption` pairs.
        options: BTreeMap<String, String>,
        /// The `go` command.
        go: String,
        /// Per-move timeout.
        timeout: Duration,
        /// The configured dialect (`None`: detected from the engine's `id name`).
        dialect: Option<Dialect>,
    },
}

impl PlayerKind {
    /// From a `[[player]]` table and the default budget, for a game of `ruleset`. Built-in specs
    /// are checked by building the bot once (the bots of `ruleset`'s games,
    /// [`Ruleset::check_bot`]).
    ///
    /// A UCI spec's `${NAME}` / `$NAME` are replaced from the environment ([`envvars`]).
    ///
    /// # Errors
    /// An unknown spec, a budget the bot rejects, a UCI engine without any budget, a UCI spec
    /// naming an unset environment variable, or a UCI engine for a RULES-more.md preset
    /// ([`super::ruleset::PresetError::Uci`]).
    pub fn from_config(p: &PlayerConfig, default: &Budget, ruleset: &Ruleset) -> anyhow::Result<PlayerKind> {
        let own = Budget { nodes: p.nodes, movetime_ms: p.movetime_ms, depth: p.depth };
        let budget = own.or(default);
        let uci_spec = if p.spec.starts_with("uci:") {
            Some(envvars::expand(&p.spec).map_err(|e| anyhow::anyhow!("player {:?}: {e}", p.name.as_deref().unwrap_or(&p.spec)))?)
        } else {
            None
        };
        if let Some((program, args)) = uci_spec.as_deref().and_then(parse_spec) {
            if let Ruleset::Preset(preset) = ruleset {
                return Err(super::ruleset::PresetError::Uci { player: p.spec.clone(), preset: preset.clone() }.into());
            }
            if budget.is_empty() {
                anyhow::bail!("player {:?}: a UCI engine needs a budget (nodes, movetime_ms or depth)", p.spec);
            }
            let timeout = Duration::from_millis(p.timeout_ms.unwrap_or(budget.movetime_ms.unwrap_or(0) * 3 + 30_000));
            return Ok(PlayerKind::Uci { program, args, options: p.options.clone(), go: budget.as_go(), timeout, dialect: p.dialect });
        }
        if p.spec.starts_with("uci:") {
            anyhow::bail!("player {:?}: expected uci:<program> [args…]", p.spec);
        }
        ruleset.check_bot(&p.spec).map_err(|e| anyhow::anyhow!("player {:?}: {e}", p.spec))?;
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
            let with = format!("{spec}{}{key}={value}", if spec.contains(':') { "," } else { ":" });
            match ruleset.check_bot(&with) {
                Ok(_) => spec = with,
                Err(e) if explicit => anyhow::bail!("player {:?}: budget {key}={value}: {e}", p.spec),
                Err(_) => {}
            }
        }
        Ok(PlayerKind::Bot(spec))
    }

    /// Starts the player for one game.
    ///
    /// # Errors
    /// The bot spec or the engine fails to start.
    /// An engine whose dialect cannot be given the variant's positions without what its side
    /// may not know (a secret set-up to a non-anqi engine) is refused ([`super::engine_view`]).
    pub fn start(&self, variant: &'static Variant, seed: u64) -> anyhow::Result<Agent> {
        match self {
            PlayerKind::Bot(spec) => Ok(Agent::Bot(build_bot(spec, seed, &variant.name).map_err(anyhow::Error::msg)?)),
            PlayerKind::Uci { program, args, options, go, timeout, dialect } => {
                let mut c = UciClient::start(program, args, options, &variant.name, *dialect)?;
                super::engine_view::check_variant_dialect(c.dialect(), variant).map_err(|e| anyhow::anyhow!("UCI engine {program:?}: {e}"))?;
                c.new_game()?;
                Ok(Agent::Uci { client: Box::new(c), go: go.clone(), timeout: *timeout })
            }
        }
    }
}

/// Builds an in-process bot: every spec of `engine::search::from_spec` plus a trained
/// checkpoint with its search settings (`net:checkpoint=PATH,sims=N`, see [`crate::bots`]).
///
/// A bot trained for another variant than `variant` is refused ([`crate::bots::for_variant`]).
///
/// # Errors
/// The spec's error text.
pub fn build_bot(spec: &str, seed: u64, variant: &str) -> Result<Box<dyn Bot>, String> {
    crate::bots::for_variant(spec, seed, variant)
}

/// A player in a game.
pub enum Agent {
    /// In-process bot.
    Bot(Box<dyn Bot>),
    /// External engine.
    Uci {
        /// The process.
        client: Box<UciClient>,
        /// `go` command.
        go: String,
        /// Per-move timeout.
        timeout: Duration,
    },
}

impl Agent {
    /// The action for the side to move in `game`, which began at `start`.
    ///
    /// # Errors
    /// The engine failed or answered an illegal move (a forfeit).
    pub fn choose(&mut self, start: &State, game: &VariantGame) -> Result<Action, String> {
        let s = game.state();
        match self {
            Agent::Bot(b) => Ok(b.choose(&Decision::in_game(game))),
            Agent::Uci { client, go, timeout } => {
                // Only what this side may know (engine_view): a view FEN under a secret set-up,
                // capture letters it did not see dropped.
                let pos = super::engine_view::position_for(client.dialect(), start, game, s.turn())?;
                let m = client.best_move_at(&pos, go, *timeout).map_err(|e| format!("{e:#}"))?;
                let m = m.ok_or_else(|| "engine returned no move in a position with legal moves".to_string())?;
                notation::parse_action(s, &m).map_err(|e| format!("engine move {m:?}: {e}"))
            }
        }
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

/// A game in progress as [`drive`] sees it: the one game loop of tournaments and studies runs
/// the variant games ([`play`]) and the RULES-more.md presets ([`super::ruleset`]) through this.
pub trait Match {
    /// The end under the game's own rules, if it has ended.
    fn outcome(&self) -> Option<Outcome>;
    /// Plies played so far (the record's length).
    fn plies(&self) -> usize;
    /// The side to move.
    fn mover(&self) -> Color;
    /// Plays a uniformly random legal action drawn with `rng` (the random opening plies).
    fn play_random(&mut self, rng: &mut Pcg64Mcg);
    /// Asks the side to move's player and plays its action.
    ///
    /// # Errors
    /// The player failed or answered an illegal move: a forfeit, with the reason.
    fn play_player(&mut self) -> Result<(), String>;
    /// The record strings of the plies.
    fn moves(&self) -> Vec<String>;
}

/// Plays `m` to its end: the game's own end, the ply limit (a draw), or a forfeit; the first
/// [`Rules::opening_plies`] plies are random, drawn with `opening`.
pub fn drive<M: Match>(m: &mut M, rules: Rules, opening: &mut Pcg64Mcg) -> Played {
    let outcome = loop {
        if let Some(end) = m.outcome() {
            break end;
        }
        if m.plies() >= rules.max_plies {
            break Outcome { winner: None, reason: "ply limit".into() };
        }
        let mover = m.mover();
        if m.plies() < rules.opening_plies {
            m.play_random(opening);
        } else if let Err(why) = m.play_player() {
            break Outcome { winner: Some(mover.opponent()), reason: format!("forfeit: {why}") };
        }
    };
    Played { moves: m.moves(), outcome }
}

/// A variant game between two [`Agent`]s, chance resolved by the set-up's deal.
struct VariantMatch<'a> {
    game: VariantGame,
    /// The start state, which UCI engines are sent (each in its dialect's FEN).
    start: State,
    deal: Deal,
    chance_rng: Pcg64Mcg,
    red: &'a mut Agent,
    black: &'a mut Agent,
}

impl VariantMatch<'_> {
    fn play_action(&mut self, a: Action) {
        let (deal, rng) = (&self.deal, &mut self.chance_rng);
        self.game.play(a, |outs| deal.resolve(a, outs, rng));
    }
}

impl Match for VariantMatch<'_> {
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().map(|end| Outcome { winner: end.winner(), reason: end.reason().to_string() })
    }
    fn plies(&self) -> usize {
        self.game.plies().len()
    }
    fn mover(&self) -> Color {
        self.game.state().turn()
    }
    fn play_random(&mut self, rng: &mut Pcg64Mcg) {
        let acts = self.game.state().legal_actions();
        self.play_action(acts[rng.random_range(0..acts.len())]);
    }
    fn play_player(&mut self) -> Result<(), String> {
        let agent = if self.mover() == Color::Red { &mut *self.red } else { &mut *self.black };
        let a = agent.choose(&self.start, &self.game)?;
        self.play_action(a);
        Ok(())
    }
    fn moves(&self) -> Vec<String> {
        self.game.plies().iter().map(|p| p.text.clone()).collect()
    }
}

/// Plays one variant game from `setup` between `red` and `black` (through [`drive`]).
///
/// # Errors
/// The set-up FEN does not parse.
pub fn play(v: &'static Variant, setup: &Setup, rules: Rules, red: &mut Agent, black: &mut Agent) -> anyhow::Result<Played> {
    let start = setup.state(v)?;
    let deal = setup.deal(&start);
    let mut m = VariantMatch {
        game: VariantGame::new(start.clone()),
        start,
        deal,
        chance_rng: Pcg64Mcg::seed_from_u64(setup.seed ^ CHANCE_SALT),
        red,
        black,
    };
    Ok(drive(&mut m, rules, &mut Pcg64Mcg::seed_from_u64(setup.seed ^ OPENING_SALT)))
}

/// Salt of the chance seed (the deal's fallback draws) of a set-up.
const CHANCE_SALT: u64 = 0xC4A1_7CE5;
/// Salt of the random opening plies' seed of a set-up, shared by every game kind.
pub const OPENING_SALT: u64 = 0x0BE1_0BE1;
/// Salt of the seed that draws a set-up, shared by every game kind.
pub const SETUP_SALT: u64 = 0x5E70_5E70;

/// Replays a record from its set-up, checking every move and that the record strings (with
/// their reveal letters) come out identical. Returns the final game.
///
/// # Errors
/// A move that is illegal, or whose revealed types differ from the record.
pub fn replay(v: &'static Variant, setup: &Setup, moves: &[String]) -> anyhow::Result<VariantGame> {
    let start = setup.state(v)?;
    let deal = setup.deal(&start);
    let mut chance_rng = Pcg64Mcg::seed_from_u64(setup.seed ^ CHANCE_SALT);
    let mut game = VariantGame::new(start);
    for (i, m) in moves.iter().enumerate() {
        let a = notation::parse_action(game.state(), m).map_err(|e| anyhow::anyhow!("ply {}: {e}", i + 1))?;
        game.play(a, |outs| deal.resolve(a, outs, &mut chance_rng));
        let got = &game.plies()[i].text;
        if got != m {
            anyhow::bail!("ply {}: record says {m:?}, replay gives {got:?}", i + 1);
        }
    }
    Ok(game)
}
