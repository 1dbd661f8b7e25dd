//! One game between the human at the play page and a bot, in any RULES.md variant (preset or
//! rule file), and the [`Observation`] the page is sent after each step.
//!
//! The human is a player like any other (the project's no-leak rule): everything sent to the
//! page is computed from the human's [`View`] and the record as the human saw it
//! ([`frames::moves_seen`]); the human's legal actions are listed from a determinization of that
//! view (they are an observation too), never from the full state. So two games that differ only
//! in what the human cannot see send the page the same bytes (tested in
//! `selfplay/tests/serve_no_leak.rs`).
//!
//! Set-up: Surprise layouts (§S2) and owner's-choice arrangements (§F3) are chosen by the human
//! on the page and by the bot as in any game; the random modes (Jieqi, Fan-qi 4, 6, 8, 10) deal
//! the hidden identities from the game's seed as tournaments do ([`Setup::generate`]), so the
//! saved PGN replays exactly ([`crate::tournament::game::replay`]).

use crate::tournament::config::{Budget, PlayerConfig};
use crate::tournament::game::{Deal, PlayerKind, Setup};
use crate::tournament::pgn::{GameKey, Record};
use crate::tournament::GameSpec;
use crate::viewer::frames::{self, MoveText};
use crate::viewer::Viewpoint;
use crate::viewer::picture::Picture;
use crate::viewer::variant_picture;
use engine::search::{Bot, Decision};
use engine::variant::game::VariantGame;
use engine::variant::{fen as vfen, notation, Action, SetupKind, State, Variant, View};
use engine::Color;
use rand::SeedableRng;
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
    /// The action string to send back (`h2e2`, `h0h0`, `layout=C3`, `place=R`).
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
}

/// A game in progress.
pub struct Session {
    v: &'static Variant,
    human: Color,
    bot_spec: String,
    bot: Box<dyn Bot>,
    /// The set-up phase's state (Surprise layouts, owner's-choice placements), until it ends.
    pre: Option<State>,
    setup: Setup,
    start: State,
    deal: Deal,
    game: VariantGame,
    chance_rng: Pcg64Mcg,
    resigned: bool,
    saved: Option<String>,
    number: u32,
}

/// Salt of a served game's chance draws beyond the deal.
const CHANCE_SALT: u64 = 0x5E7E_C4A1;

impl Session {
    /// Starts a game; the bot moves at once when it is to act.
    ///
    /// # Errors
    /// [`SessionError`] naming the variant or the bot.
    pub fn new(ask: &NewGame, number: u32) -> Result<Session, SessionError> {
        let verr = |problem: String| SessionError::Variant { name: ask.variant.clone(), problem };
        if engine::more::presets::is_spec(&ask.variant) {
            return Err(verr("the RULES-more.md games (skill, camel, missile) cannot be played on this page yet; play them with `anqi play`".into()));
        }
        let game = GameSpec::load(&ask.variant).map_err(|e| verr(format!("{e:#}")))?;
        let v = crate::cli::variant_arg::load(&ask.variant).map_err(|e| verr(format!("{e:#}")))?;
        let player = PlayerConfig {
            name: None,
            spec: ask.bot.clone(),
            nodes: None,
            movetime_ms: None,
            depth: None,
            options: Default::default(),
            timeout_ms: None,
            dialect: None,
        };
        let budget = Budget { nodes: None, movetime_ms: ask.movetime_ms, depth: None };
        let kind = PlayerKind::from_config(&player, &budget, &game).map_err(|e| SessionError::Bot { spec: ask.bot.clone(), problem: format!("{e:#}") })?;
        let PlayerKind::Bot(spec) = kind else {
            return Err(SessionError::Bot { spec: ask.bot.clone(), problem: "UCI engines are not offered on the play page".into() });
        };
        let bot = crate::bots::for_variant(&spec, ask.seed, &v.name).map_err(|problem| SessionError::Bot { spec: spec.clone(), problem })?;
        let secret_setup = v.caps.setup != SetupKind::None;
        let (pre, setup) = if secret_setup {
            (Some(State::new_game(v)), Setup { fen: String::new(), seed: ask.seed, label: "chosen on the page".into() })
        } else {
            (None, Setup::generate(v, ask.seed).map_err(|e| verr(format!("{e:#}")))?)
        };
        let start = if pre.is_some() { State::new_game(v) } else { setup.state(v).map_err(|e| verr(format!("{e:#}")))? };
        let deal = setup.deal(&start);
        let mut s = Session {
            v,
            human: ask.human,
            bot_spec: spec,
            bot,
            pre,
            setup,
            game: VariantGame::new(start.clone()),
            start,
            deal,
            chance_rng: Pcg64Mcg::seed_from_u64(ask.seed ^ CHANCE_SALT),
            resigned: false,
            saved: None,
            number,
        };
        s.finish_setup_if_done();
        s.bot_moves();
        Ok(s)
    }

    /// The human's colour.
    pub fn human(&self) -> Color {
        self.human
    }

    /// The state now (the set-up state during the set-up). For the server's own use and tests:
    /// never sent to the page.
    pub fn state(&self) -> &State {
        self.pre.as_ref().unwrap_or(self.game.state())
    }

    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.resigned || (self.pre.is_none() && self.game.outcome().is_some())
    }

    fn finish_setup_if_done(&mut self) {
        let Some(pre) = &self.pre else { return };
        if pre.in_setup() {
            return;
        }
        let start = pre.clone();
        self.setup.fen = vfen::write(&start);
        self.deal = self.setup.deal(&start);
        self.game = VariantGame::new(start.clone());
        self.start = start;
        self.pre = None;
    }

    fn apply(&mut self, a: Action) {
        match &mut self.pre {
            Some(pre) => {
                pre.apply(a);
                self.finish_setup_if_done();
            }
            None => {
                let (deal, rng) = (&self.deal, &mut self.chance_rng);
                self.game.play(a, |outs| deal.resolve(a, outs, rng));
            }
        }
    }

    /// Lets the bot act while it is to move and the game is on.
    fn bot_moves(&mut self) {
        while !self.over() && self.state().turn() != self.human {
            let a = match &self.pre {
                Some(pre) => self.bot.choose(&Decision::new(pre)),
                None => self.bot.choose(&Decision::in_game(&self.game)),
            };
            self.apply(a);
        }
    }

    /// Plays the human's action (an action string of [`Observation::legal`]), then the bot's
    /// replies.
    ///
    /// # Errors
    /// The game is over, it is not the human's turn, or the action is not legal.
    pub fn play(&mut self, text: &str) -> Result<(), SessionError> {
        if self.over() {
            return Err(SessionError::State("the game is over".into()));
        }
        let s = self.state();
        if s.turn() != self.human {
            return Err(SessionError::State("it is not your turn".into()));
        }
        let a = notation::parse_action(s, text).map_err(|e| SessionError::Illegal { text: text.to_string(), problem: e.to_string() })?;
        self.apply(a);
        self.bot_moves();
        Ok(())
    }

    /// Takes back the human's last move (and the bot's replies to it). Set-up choices are not
    /// taken back.
    ///
    /// # Errors
    /// Nothing to take back.
    pub fn undo(&mut self) -> Result<(), SessionError> {
        if self.pre.is_some() || self.resigned || self.saved.is_some() {
            return Err(SessionError::State("nothing to take back (set-up choices and finished games stay)".into()));
        }
        let plies = self.game.plies().to_vec();
        let mut s = self.start.clone();
        let mut last_human = None;
        for (i, p) in plies.iter().enumerate() {
            if s.turn() == self.human {
                last_human = Some(i);
            }
            s.apply(p.action);
            if let Some(o) = p.chance.filter(|_| s.is_chance()) {
                s.apply_chance(o);
            }
        }
        let Some(k) = last_human else { return Err(SessionError::State("you have not moved yet".into())) };
        let mut game = VariantGame::new(self.start.clone());
        for p in &plies[..k] {
            let chance = p.chance;
            game.play(p.action, |outs| chance.unwrap_or(outs[0].0));
        }
        self.game = game;
        Ok(())
    }

    /// The human resigns.
    pub fn resign(&mut self) {
        self.resigned = true;
    }

    /// The finished game as a PGN record (`None` while it goes on or before its set-up ended).
    pub fn record(&self, date: &str) -> Option<Record> {
        if !self.over() || self.pre.is_some() {
            return None;
        }
        let outcome = match self.game.outcome() {
            Some(e) if !self.resigned => crate::tournament::game::Outcome { winner: e.winner(), reason: e.reason().to_string() },
            _ => crate::tournament::game::Outcome { winner: Some(self.human.opponent()), reason: "resignation".into() },
        };
        let (red, black) = match self.human {
            Color::Red => ("human".to_string(), self.bot_spec.clone()),
            Color::Black => (self.bot_spec.clone(), "human".to_string()),
        };
        Some(Record {
            event: "anqi serve".into(),
            fingerprint: "serve".into(),
            key: GameKey { pairing: 0, pair: self.number, game: u8::from(self.human == Color::Black) },
            variant: self.v.name.clone(),
            red,
            black,
            setup: self.setup.clone(),
            moves: self.game.plies().iter().map(|p| p.text.clone()).collect(),
            outcome,
            date: date.to_string(),
        })
    }

    /// Notes where the finished game was saved.
    pub fn set_saved(&mut self, path: String) {
        self.saved = Some(path);
    }

    /// Whether the finished game was saved.
    pub fn is_saved(&self) -> bool {
        self.saved.is_some()
    }

    /// What the page is sent now: a function of the human's information set only ([`observe`]).
    pub fn observation(&self) -> Observation {
        let result = if self.over() { self.record("").map(|r| (r.outcome.result().to_string(), r.outcome.reason)) } else { None };
        let meta = Meta { variant: &self.v.name, bot: &self.bot_spec, result, saved: self.saved.clone() };
        observe(&self.start, &self.game, self.pre.as_ref(), self.human, meta)
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

/// The observation of `human` in `game` (which began at `start`), or in the set-up state `pre`
/// while the set-up goes on: built from the human's [`View`], the record as the human saw it
/// ([`frames::moves_seen`]) and the legal actions of that view ([`legal_from_view`]).
pub fn observe(start: &State, game: &VariantGame, pre: Option<&State>, human: Color, meta: Meta<'_>) -> Observation {
    let s = pre.unwrap_or(game.state());
    let view = View::new(s, human);
    let last = if pre.is_some() { None } else { game.plies().last().map(|p| p.action) };
    let picture = variant_picture::picture_of_view(&view, variant_picture::Options { last, beliefs: false, dealt: None });
    let moves = if pre.is_some() { Vec::new() } else { frames::moves_seen(start, game, Viewpoint::from(human)).unwrap_or_default() };
    let over = meta.result.is_some();
    let legal = if !over && s.turn() == human { legal_from_view(&view) } else { Vec::new() };
    let status = match (&meta.result, pre.is_some()) {
        (Some((r, reason)), _) => format!("game over: {r} ({reason})"),
        (None, true) if s.turn() == human => "set-up: choose".to_string(),
        (None, true) => format!("{} sets up in secret", human.opponent()),
        (None, false) => "your move".to_string(),
    };
    Observation {
        variant: meta.variant.to_string(),
        bot: meta.bot.to_string(),
        human: Viewpoint::from(human).name(),
        picture,
        moves,
        legal,
        setup: pre.is_some(),
        result: meta.result.map(|(r, _)| r),
        status,
        saved: meta.saved,
    }
}

/// The legal actions of the view's player, listed from a fixed determinization of the view (so
/// the list is a function of the view, as `anqi actions` does with a view FEN).
pub fn legal_from_view(view: &View) -> Vec<LegalAction> {
    let det = view.sample(&mut Pcg64Mcg::seed_from_u64(0));
    let mut out: Vec<LegalAction> = det
        .legal_actions()
        .into_iter()
        .map(|a| {
            let text = notation::action_string(&det, a);
            let (from, to) = match a {
                Action::Move { from, to, .. } => (Some(from.to_string()), Some(to.to_string())),
                Action::Flip { at } => (Some(at.to_string()), Some(at.to_string())),
                _ => (None, None),
            };
            LegalAction { text, from, to }
        })
        .collect();
    out.sort_by(|a, b| a.text.cmp(&b.text));
    out
}

impl From<Color> for Viewpoint {
    fn from(c: Color) -> Viewpoint {
        match c {
            Color::Red => Viewpoint::Red,
            Color::Black => Viewpoint::Black,
        }
    }
}
