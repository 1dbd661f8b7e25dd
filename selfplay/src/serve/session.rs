//! One game between the human at the play page and a bot, in any game of the contract (a
//! RULES.md variant, or a RULES-more.md preset or rule file: [`Playable`], entered through
//! [`with_any_game`]), and the [`Observation`] the page is sent after each step. The session is
//! one generic body ([`Served`]) behind a trait object ([`Session`]).
//!
//! The human is a player like any other (the project's no-leak rule): everything sent to the
//! page is computed from what the human may know: the board as the human's view shows it
//! ([`crate::viewer::picture_of`]), the moves as the human saw them ([`move_seen`]) and the
//! human's legal actions listed from a determinization of the human's information set
//! ([`legal_from_view`]; they are an observation too), never from the full state. So two games
//! that differ only in what the human cannot see send the page the same bytes (tested in
//! `selfplay/tests/viewer.rs`).
//!
//! Set-up: where the game starts with a set-up phase (Surprise layouts §S2, owner's-choice
//! arrangements §F3, missile placements, skill tiles, secret camel layouts) it is played on the
//! page by the human and by the bot as in any game, and the record starts after it; otherwise the
//! game starts from the set-up its seed gives ([`Playable::seeded_setup`]: the deal of the
//! random modes, Jieqi and Fan-qi 4, 6, 8, 10), as tournaments draw it. Chance comes from the
//! seed ([`Playable::seeded_chance`]), so the saved PGN replays exactly ([`crate::viewer::frames`]).
//! The server draws the seed of a hidden game ([`hides`]); the page never chooses it.
//!
//! Refusals ([`Served::play`]) are a function of the human's view too: an action is first looked
//! up among the human's legal actions ([`legal_from_view`]), and one not there gets one message
//! whatever the reason the rules would give on the full state (which may name a hidden piece:
//! RULES.md §S6's "a chariot may be revealed only after one was lost" on the bot's disc).
//!
//! Undo ([`Served::undo`]) re-deals: the game is taken back to before the human's last move and
//! then replaced by a determinization of the human's information set there
//! ([`engine::game::Game::sample_determinization`], drawn with the server's re-deal generator),
//! with chance from a fresh seed. Every identity the human has not seen (the bot's Surprise
//! backs and secret placements, the identities only the bot has seen, the undetermined pool of
//! the random modes) is dealt again, so "move, see, undo" shows a new draw each time and never
//! the old one. The human's own view, and so the page, is unchanged by the re-deal; the bot's
//! secret choices may change (it is the human who took the move back). Set-up choices are not
//! taken back.

use crate::tournament::config::{Budget, PlayerConfig};
use crate::tournament::game::{Outcome, PlayerKind, Setup};
use crate::tournament::pgn::{GameKey, Record};
use crate::tournament::GameSpec;
use crate::viewer::picture::Picture;
use crate::viewer::seen::{move_seen, MoveText};
use crate::viewer::{picture_of, Viewpoint};
use engine::any_game::{with_any_game, Start};
use engine::game::{Action, PlayerId, Turn};
use engine::more::presets::{Playable, WithGame};
use engine::search::game_bot::GameBot;
use engine::seeded::{play_ply, ChanceSource};
use engine::Color;
use crate::tournament::game::replay_moves;
use engine::game::Information;
use rand::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::Serialize;

/// What went wrong with a request, shown on the page.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The variant is unknown or its rule file is broken.
    #[error("variant {name:?}: {problem}")]
    Variant {
        /// The name asked for.
        name: String,
        /// What is wrong.
        problem: String,
    },
    /// The bot spec cannot be built.
    #[error("bot {spec:?}: {problem}")]
    Bot {
        /// The spec.
        spec: String,
        /// What is wrong.
        problem: String,
    },
    /// The action is not legal now.
    #[error("{text:?} is not a legal action now: {problem}")]
    Illegal {
        /// The action string sent.
        text: String,
        /// Why.
        problem: String,
    },
    /// The request does not fit the game's state.
    #[error("{0}")]
    State(String),
}

/// A legal action of the human, as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LegalAction {
    /// The action string to send back (`h2e2`, `h0h0`, `layout=C3`, `place=R`, `R@a1`).
    pub text: String,
    /// Origin and destination of a board move or flip (for highlighting).
    pub from: Option<String>,
    /// Destination.
    pub to: Option<String>,
}

/// Everything the page is sent after a step: a function of the human's information set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Observation {
    /// The variant's name.
    pub variant: String,
    /// The bot's spec.
    pub bot: String,
    /// `red` or `black`.
    pub human: &'static str,
    /// The board as the human sees it.
    pub picture: Picture,
    /// The moves as the human saw them (after the set-up).
    pub moves: Vec<MoveText>,
    /// The human's legal actions (empty unless it is the human's turn).
    pub legal: Vec<LegalAction>,
    /// In the set-up phase.
    pub setup: bool,
    /// `1-0`, `0-1`, `1/2-1/2` once over.
    pub result: Option<String>,
    /// A line for the status bar.
    pub status: String,
    /// Where the finished game was saved.
    pub saved: Option<String>,
}

/// How a new game is asked for.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Preset or rule file.
    pub variant: String,
    /// Bot spec.
    pub bot: String,
    /// The human's colour.
    pub human: Color,
    /// Milliseconds per bot move (folded into the spec as `ms=` where the bot takes it).
    pub movetime_ms: Option<u64>,
    /// Seed of the deal, chance and the bot.
    pub seed: u64,
    /// Seed of the generator that re-deals what the human has not seen at each undo
    /// ([`Served::undo`]).
    pub redeal_seed: u64,
}

/// A game in progress on the play page, whatever the game.
pub type Session = Box<dyn Served>;

/// What the server does with a game in progress ([`ServedGame`] for every game type).
pub trait Served: Send {
    /// The human's colour.
    fn human(&self) -> Color;
    /// Whether the game is over.
    fn over(&self) -> bool;
    /// Plays the human's action (an action string of [`Observation::legal`]), then the bot's
    /// replies.
    ///
    /// # Errors
    /// The game is over, it is not the human's turn, or the action is not legal.
    fn play(&mut self, text: &str) -> Result<(), SessionError>;
    /// Takes back the human's last move (and the bot's replies to it), then re-deals every
    /// identity the human has not seen (module docs). Set-up choices are not taken back.
    ///
    /// # Errors
    /// Nothing to take back.
    fn undo(&mut self) -> Result<(), SessionError>;
    /// The human resigns.
    fn resign(&mut self);
    /// The finished game as a PGN record (`None` while it goes on or before its set-up ended).
    fn record(&self, date: &str) -> Option<Record>;
    /// Notes where the finished game was saved.
    fn set_saved(&mut self, path: String);
    /// Whether the finished game was saved.
    fn is_saved(&self) -> bool;
    /// The full state's FEN now (RULES.md §N): never sent to the page; for tests and logs.
    fn full_fen(&self) -> String;
    /// What the page is sent now: a function of the human's information set only ([`observe`]).
    ///
    /// # Errors
    /// As [`observe`].
    fn observation(&self) -> Result<Observation, SessionError>;
}

/// Whether `variant` hides anything from a player (an imperfect-information game): the server
/// then draws its seed itself.
///
/// # Errors
/// [`SessionError::Variant`] when the variant does not load.
pub fn hides(variant: &str) -> Result<bool, SessionError> {
    struct Hides;
    impl WithGame for Hides {
        type Output = bool;
        fn run<G: Playable>(self, g: G) -> bool {
            g.info().information == Information::Imperfect
        }
    }
    with_any_game(variant, Start::Setup, Hides).map_err(|e| SessionError::Variant { name: variant.to_string(), problem: e.to_string() })
}

/// Starts a game; the bot moves at once when it is to act.
///
/// # Errors
/// [`SessionError`] naming the variant or the bot.
pub fn start(ask: &NewGame, number: u32) -> Result<Session, SessionError> {
    start_at(ask, number, None)
}

/// Starts a game from full-state FEN `fen` (RULES.md §N) instead of the seed's set-up: for tests
/// that build two states of one information set (the page never sends a FEN).
///
/// # Errors
/// As [`start`]; the FEN does not read.
pub fn start_from_fen(ask: &NewGame, number: u32, fen: &str) -> Result<Session, SessionError> {
    start_at(ask, number, Some(fen))
}

fn start_at(ask: &NewGame, number: u32, fen: Option<&str>) -> Result<Session, SessionError> {
    let verr = |problem: String| SessionError::Variant { name: ask.variant.clone(), problem };
    let game = GameSpec::load(&ask.variant).map_err(|e| verr(format!("{e:#}")))?;
    let player = PlayerConfig { name: None, spec: ask.bot.clone(), nodes: None, movetime_ms: None, depth: None, options: Default::default(), timeout_ms: None, dialect: None };
    let budget = Budget { nodes: None, movetime_ms: ask.movetime_ms, depth: None };
    let kind = PlayerKind::from_config(&player, &budget, &game).map_err(|e| SessionError::Bot { spec: ask.bot.clone(), problem: format!("{e:#}") })?;
    let PlayerKind::Bot(spec) = kind else {
        return Err(SessionError::Bot { spec: ask.bot.clone(), problem: "UCI engines are not offered on the play page".into() });
    };
    struct HasSetup;
    impl WithGame for HasSetup {
        type Output = bool;
        fn run<G: Playable>(self, g: G) -> bool {
            g.in_setup()
        }
    }
    // A set-up phase is played on the page; otherwise the seed's set-up (a deal) is the start.
    let on_page = fen.is_none() && with_any_game(&ask.variant, Start::Setup, HasSetup).map_err(|e| verr(e.to_string()))?;
    let setup = match fen {
        Some(f) => Setup { fen: f.to_string(), seed: ask.seed, label: "given".into() },
        None if on_page => Setup { fen: String::new(), seed: ask.seed, label: "chosen on the page".into() },
        None => game.setup(ask.seed).map_err(|e| verr(format!("{e:#}")))?,
    };
    let at = if on_page { Start::Setup } else { Start::Fen(&setup.fen) };
    let begin = Begin { ask, number, name: game.name().to_string(), bot_spec: spec, setup: setup.clone() };
    with_any_game(&ask.variant, at, begin).map_err(|e| verr(e.to_string()))?
}

/// Builds the [`ServedGame`] of the game at its start.
struct Begin<'a> {
    ask: &'a NewGame,
    number: u32,
    name: String,
    bot_spec: String,
    setup: Setup,
}

impl WithGame for Begin<'_> {
    type Output = Result<Session, SessionError>;

    fn run<G: Playable>(self, g: G) -> Self::Output {
        let ask = self.ask;
        let bot = crate::bots::game_bot_for(&self.bot_spec, ask.seed, &g).map_err(|problem| SessionError::Bot { spec: self.bot_spec.clone(), problem })?;
        let pre = g.in_setup().then(|| g.clone());
        let chance = g.seeded_chance(ask.seed);
        let mut s = ServedGame {
            name: self.name,
            human: ask.human,
            bot_spec: self.bot_spec,
            bot,
            seed: ask.seed,
            pre,
            setup: self.setup,
            start: g.clone(),
            game: g,
            chance,
            history: Vec::new(),
            plies: Vec::new(),
            entries: Vec::new(),
            seen: Vec::new(),
            redeal: Pcg64Mcg::seed_from_u64(ask.redeal_seed),
            redealt: None,
            resigned: false,
            saved: None,
            number: self.number,
        };
        s.finish_setup_if_done();
        s.bot_moves();
        Ok(Box::new(s))
    }
}

/// The player id of colour `c`.
fn player_of(c: Color) -> PlayerId {
    if c == Color::Red {
        PlayerId::FIRST
    } else {
        PlayerId::SECOND
    }
}

/// A game of type `G` in progress between the human and a bot.
pub struct ServedGame<G: Playable> {
    /// The name written to records ([`Playable::record_name`]).
    name: String,
    human: Color,
    bot_spec: String,
    bot: Box<dyn GameBot<G>>,
    seed: u64,
    /// The set-up phase's game, until the set-up ends.
    pre: Option<G>,
    setup: Setup,
    /// The game at the end of its set-up, where the record starts.
    start: G,
    /// The game now (after the set-up).
    game: G,
    chance: Box<dyn ChanceSource<G>>,
    /// The game before each ply since `start` (what undo goes back to).
    history: Vec<G>,
    /// The plies since `start`: player action and the chance outcome it led to.
    plies: Vec<(Action, Option<Action>)>,
    /// Their record entries ([`Playable::record_entry`]).
    entries: Vec<String>,
    /// The same plies as the human saw them ([`move_seen`]).
    seen: Vec<MoveText>,
    resigned: bool,
    saved: Option<String>,
    number: u32,
    /// The generator of the re-deals at undo.
    redeal: Pcg64Mcg,
    /// The last re-deal: the ply it was made at, the game it dealt and its chance seed.
    redealt: Option<(usize, G, u64)>,
}

impl<G: Playable> ServedGame<G> {
    /// The game now: the set-up game during the set-up.
    fn now(&self) -> &G {
        self.pre.as_ref().unwrap_or(&self.game)
    }

    /// Ends the set-up phase once its game is past it: the record starts there, from its FEN.
    fn finish_setup_if_done(&mut self) {
        let Some(pre) = &self.pre else { return };
        if pre.in_setup() {
            return;
        }
        let start = pre.clone();
        self.setup.fen = start.full_fen();
        self.chance = start.seeded_chance(self.seed);
        self.game = start.clone();
        self.start = start;
        self.pre = None;
    }

    fn apply(&mut self, a: Action) {
        match &mut self.pre {
            Some(pre) => {
                play_ply(pre, a, self.chance.as_mut());
                self.finish_setup_if_done();
            }
            None => {
                let before = self.game.clone();
                let (entry, chance) = play_ply(&mut self.game, a, self.chance.as_mut());
                self.seen.push(move_seen(&before, a, chance, &entry, Viewpoint::from(self.human)));
                self.history.push(before);
                self.plies.push((a, chance));
                self.entries.push(entry);
            }
        }
    }

    /// The record's set-up and moves: from the set-up's end when the moves replay there with its
    /// seed (no undo, or re-deals that changed nothing the record shows); otherwise from the
    /// last re-deal, with its seed, the moves before it named in the set-up's label.
    fn record_moves(&self) -> (Setup, Vec<String>) {
        let Some((at, dealt, seed)) = &self.redealt else { return (self.setup.clone(), self.entries.clone()) };
        if replay_moves(self.start.clone(), self.setup.seed, &self.entries).is_ok() {
            return (self.setup.clone(), self.entries.clone());
        }
        let before = if *at == 0 { String::new() } else { format!(", after {}", self.entries[..*at].join(" ")) };
        let label = format!("{}; re-dealt from {}'s view by an undo at ply {}{before}", self.setup.label, Viewpoint::from(self.human).name(), at + 1);
        (Setup { fen: dealt.full_fen(), seed: *seed, label }, self.entries[*at..].to_vec())
    }

    /// Whether `c` is to act in the game now.
    fn to_act(&self, c: Color) -> bool {
        self.now().turn() == Turn::Player(player_of(c))
    }

    /// Lets the bot act while it is to move and the game is on.
    fn bot_moves(&mut self) {
        while !self.over() && self.to_act(self.human.opponent()) {
            let g = self.pre.as_ref().unwrap_or(&self.game);
            let a = self.bot.choose(g);
            self.apply(a);
        }
    }

    /// The end of the game: the rules' result, or the human's resignation.
    fn outcome(&self) -> Outcome {
        match Outcome::of(&self.game) {
            Some(o) if !self.resigned => o,
            _ => Outcome { winner: Some(self.human.opponent()), reason: "resignation".into() },
        }
    }
}

impl<G: Playable> Served for ServedGame<G> {
    fn human(&self) -> Color {
        self.human
    }

    fn over(&self) -> bool {
        self.resigned || (self.pre.is_none() && self.game.is_terminal())
    }

    fn play(&mut self, text: &str) -> Result<(), SessionError> {
        if self.over() {
            return Err(SessionError::State("the game is over".into()));
        }
        if !self.to_act(self.human) {
            return Err(SessionError::State("it is not your turn".into()));
        }
        let g = self.now();
        // Looked up among the actions of the human's view first: the rules' own reason for
        // refusing an action is written on the full state and may name what the human cannot
        // see, so every refusal is this one message.
        let illegal = || SessionError::Illegal { text: text.to_string(), problem: "not among your legal actions (the page lists them)".into() };
        if !legal_from_view(g, self.human).iter().any(|l| l.text == text) {
            return Err(illegal());
        }
        // Legal actions are a function of the view, so the true game takes the same text.
        let a = g.parse_entry(text).ok().filter(|a| g.legal_actions().contains(a)).ok_or_else(illegal)?;
        self.apply(a);
        self.bot_moves();
        Ok(())
    }

    fn undo(&mut self) -> Result<(), SessionError> {
        if self.pre.is_some() || self.resigned || self.saved.is_some() {
            return Err(SessionError::State("nothing to take back (set-up choices and finished games stay)".into()));
        }
        let me = Turn::Player(player_of(self.human));
        let Some(k) = self.history.iter().rposition(|g| g.turn() == me) else { return Err(SessionError::State("you have not moved yet".into())) };
        let back = self.history[k].clone();
        self.history.truncate(k);
        self.plies.truncate(k);
        self.entries.truncate(k);
        self.seen.truncate(k);
        // The re-deal (module docs): a state of the human's information set, drawn afresh, and
        // chance from a fresh seed; nothing of the true state the human has not seen survives.
        let seed = self.redeal.next_u64();
        let dealt = back.sample_determinization(player_of(self.human), &mut self.redeal);
        self.chance = dealt.seeded_chance(seed);
        self.redealt = Some((k, dealt.clone(), seed));
        self.game = dealt;
        Ok(())
    }

    fn resign(&mut self) {
        self.resigned = true;
    }

    fn record(&self, date: &str) -> Option<Record> {
        if !self.over() || self.pre.is_some() {
            return None;
        }
        let (setup, moves) = self.record_moves();
        let (red, black) = match self.human {
            Color::Red => ("human".to_string(), self.bot_spec.clone()),
            Color::Black => (self.bot_spec.clone(), "human".to_string()),
        };
        Some(Record {
            event: "anqi serve".into(),
            fingerprint: "serve".into(),
            key: GameKey { pairing: 0, pair: self.number, game: u8::from(self.human == Color::Black) },
            variant: self.name.clone(),
            red,
            black,
            setup,
            moves,
            outcome: self.outcome(),
            date: date.to_string(),
        })
    }

    fn set_saved(&mut self, path: String) {
        self.saved = Some(path);
    }

    fn is_saved(&self) -> bool {
        self.saved.is_some()
    }

    fn full_fen(&self) -> String {
        self.now().full_fen()
    }

    fn observation(&self) -> Result<Observation, SessionError> {
        let result = if self.over() && self.pre.is_none() {
            let o = self.outcome();
            Some((o.result().to_string(), o.reason))
        } else {
            None
        };
        let meta = Meta { variant: &self.name, bot: &self.bot_spec, result, saved: self.saved.clone() };
        let last = if self.pre.is_some() { None } else { self.entries.last().map(String::as_str) };
        observe(self.now(), self.pre.is_some(), &self.seen, last, self.human, meta)
    }
}

/// The public facts of a served game besides the board and the moves.
pub struct Meta<'a> {
    /// The variant's name.
    pub variant: &'a str,
    /// The bot's spec.
    pub bot: &'a str,
    /// Result and reason, once over.
    pub result: Option<(String, String)>,
    /// Where the finished game was saved.
    pub saved: Option<String>,
}

/// The observation of `human` in game `g` (in its set-up phase when `setup`), whose moves the
/// human saw as `moves` ([`move_seen`]), the last written `last`: built from the human's view of
/// the board ([`picture_of`]), those moves and the legal actions of the human's information set
/// ([`legal_from_view`]).
///
/// # Errors
/// [`SessionError::State`] when the human's view cannot be drawn (a RULES-more.md view FEN that
/// does not fit its board: a bug of the game).
pub fn observe<G: Playable>(g: &G, setup: bool, moves: &[MoveText], last: Option<&str>, human: Color, meta: Meta<'_>) -> Result<Observation, SessionError> {
    let picture = picture_of(g, Viewpoint::from(human), last, false).map_err(|e| SessionError::State(format!("the board cannot be drawn: {e}")))?;
    let over = meta.result.is_some();
    let my_turn = g.turn() == Turn::Player(player_of(human));
    let legal = if !over && my_turn { legal_from_view(g, human) } else { Vec::new() };
    let status = match (&meta.result, setup) {
        (Some((r, reason)), _) => format!("game over: {r} ({reason})"),
        (None, true) if my_turn => "set-up: choose".to_string(),
        (None, true) => format!("{} sets up in secret", human.opponent()),
        (None, false) => "your move".to_string(),
    };
    Ok(Observation {
        variant: meta.variant.to_string(),
        bot: meta.bot.to_string(),
        human: Viewpoint::from(human).name(),
        picture,
        moves: moves.to_vec(),
        legal,
        setup,
        result: meta.result.map(|(r, _)| r),
        status,
        saved: meta.saved,
    })
}

/// The legal actions of `human` in `g`, listed from a fixed determinization of the human's
/// information set ([`engine::game::Game::sample_determinization`] with a fixed seed: the list is
/// a function of the human's view, as `anqi actions` does with a view FEN), with the squares a
/// board move or flip names (`h2e2`, `h0h0R`; none for set-up choices and the like).
pub fn legal_from_view<G: Playable>(g: &G, human: Color) -> Vec<LegalAction> {
    let det = g.sample_determinization(player_of(human), &mut Pcg64Mcg::seed_from_u64(0));
    let geo = g.geometry();
    let mut out: Vec<LegalAction> = det
        .legal_actions()
        .into_iter()
        .map(|a| {
            let text = det.action_string(a);
            let squares = geo.parse_prefix(&text).and_then(|(from, rest)| Ok((from, geo.parse_prefix(rest)?.0)));
            let (from, to) = match squares {
                Ok((f, t)) => (Some(geo.name(f)), Some(geo.name(t))),
                Err(_) => (None, None),
            };
            LegalAction { text, from, to }
        })
        .collect();
    out.sort_by(|a, b| a.text.cmp(&b.text));
    out
}

