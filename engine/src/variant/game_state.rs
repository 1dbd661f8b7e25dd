//! Variant games behind the one game interface ([`crate::game::Game`]) that search and solvers
//! see: [`VariantGameState`] wraps a full [`State`] with the end rules of RULES.md §X4-X6, §K7 and
//! §S11 ([`super::game::end_by_rule`]), an optional *deal*
//! root (a chance node over full states, for games whose hidden set-up is private: Surprise
//! layouts §S2, Fan-qi owner's-choice arrangements §F3) and an optional ply horizon.
//!
//! # Action numbering
//!
//! Every player action and chance outcome is one [`GameAction`] (`u32`), fixed for all variants
//! (squares are raw indices `rank * 11 + file`, below 121, see [`crate::geometry`]):
//!
//! | bits                | meaning                                                        |
//! |---------------------|----------------------------------------------------------------|
//! | `0x0000_xxxx`       | move: `to` in bits 0-6, `from` in bits 7-13, bit 14 = turn face-down (§F5), bit 15 = marker transfer (§K4) |
//! | `0x0001_00ss`       | Surprise flip of the disc on square `ss` (§S4)                 |
//! | `0x0002_0000`       | negotiation demand (§S11)                                      |
//! | `0x0003_000a`       | answer: `a` = 0 resign, 1 draw, 2 refuse (§S11)                |
//! | `0x0004_00cm`       | reveal (chance, §P2): `m` = mover's drawn role index + 1 (0: none), `c` = captured face-down piece's role index + 1 (0: none) |
//! | `0x0005_iiii`       | deal (chance at a deal root): index `i` into the dealt states  |
//! | `0x0006_000i`       | set-up: Surprise layout index `i` into [`LAYOUT_NAMES`] (§S2)  |
//! | `0x0007_000r`       | set-up: Fan-qi owner's-choice placement of role index `r` (§F3) |
//!
//! Legal actions are listed in ascending code order, so the list depends only on the acting
//! player's information (legality never depends on the opponent's hidden identities: §F7; a
//! Surprise flip depends only on the mover's own back faces, §S4-S6).
//!
//! # Returns
//! +1 for a win, -1 for a loss, 0 for a draw, first player (Red, [`PlayerId::FIRST`]) and second
//! (Black). At the horizon ([`GameOptions::max_plies`] plies after the wrapper's root) the game
//! ends with [`Leaf::Draw`] (0) or [`Leaf::Eval`] (`0.9 * tanh(eval / scale)` of the static
//! evaluation of [`crate::search::eval`], Red's point of view, on the full state:
//! [`crate::search::eval::value`]).
//!
//! # Information sets and determinization
//! [`Game::infoset_key`] is [`View::infoset_key`] (the view FEN and the player's observation
//! stream, perfect recall). [`Game::sample_determinization`] is [`View::sample`] (uniform over the
//! consistent hidden parts); at a deal root it draws a deal. A determinization keeps the game's
//! public history (used for repetition). Limitation: [`View::sample`] keeps the *true*
//! observation streams of both players, so in a determinization only the sampling player's
//! information-set key is meaningful.
//!
//! Equality and hashing ([`PartialEq`], [`Hash`]) compare the full state, its pools and captured
//! identities, and the *public* history (player actions and the public part of chance outcomes),
//! so a determinization equals the game-tree state with the same hidden parts.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use rand::Rng;

use super::config::{CaptureKnowledge, Placement};
use super::game::{Ply, VariantEnd};
use super::state::{Action as VAction, Answer, ChanceOutcome, State, LAYOUT_NAMES};
use super::View;
use crate::game::{Action as GameAction, ChanceMode, Game, GameInfo, Information, PlayerId, Turn, Utility};
use crate::geometry::Square;
use crate::piece::{Color, Role};
use crate::repetition::RecordPly;

const FLIP_TAG: u32 = 1 << 16;
const DEMAND_CODE: u32 = 2 << 16;
const ANSWER_TAG: u32 = 3 << 16;
const REVEAL_TAG: u32 = 4 << 16;
const DEAL_TAG: u32 = 5 << 16;
const LAYOUT_TAG: u32 = 6 << 16;
const PLACE_TAG: u32 = 7 << 16;
const TAG_MASK: u32 = 0xFFFF_0000;

/// What the game is worth when the horizon is reached.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Leaf {
    /// A draw (0).
    Draw,
    /// `0.9 * tanh(eval_cp / scale_cp)` of the static evaluation (Red's point of view).
    Eval {
        /// Centipawns that map to tanh(1) ≈ 0.76.
        scale_cp: f64,
    },
}

/// Horizon and leaf value of a [`VariantGameState`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GameOptions {
    /// Plies (player decisions) after the wrapper's root at which the game stops.
    pub max_plies: u32,
    /// Value at the horizon.
    pub leaf: Leaf,
}

impl Default for GameOptions {
    /// 400 plies, then a draw.
    fn default() -> Self {
        GameOptions { max_plies: 400, leaf: Leaf::Draw }
    }
}

/// How a [`VariantGameState`] ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// By a rule of the variant.
    Rule(VariantEnd),
    /// At the horizon.
    Horizon,
}

/// A variant game state implementing [`Game`]; see the module documentation.
#[derive(Clone)]
pub struct VariantGameState {
    state: State,
    opts: GameOptions,
    /// Dealt full states and probabilities while the deal is pending.
    deal: Option<Arc<Vec<(State, f64)>>>,
    plies: u32,
    start_hash: u64,
    history: Vec<RecordPly>,
    /// The board action waiting for its chance outcome: (mover, board action).
    waiting: Option<(Color, bool)>,
    /// Hash of the public history (actions and public parts of chance outcomes).
    public_path: u64,
    legal: Vec<GameAction>,
    end: Option<GameEnd>,
    /// The player whose view FEN the game was built from ([`VariantGameState::given_as_view`]).
    viewer: Option<Color>,
    /// The last player action applied (for pictures that mark it).
    last: Option<VAction>,
}

use crate::more::history::mix;

/// Hash of what both sides see of the position: the core position (side to move included), the
/// face-down layer, flip rights and markers. Hidden identities do not change while a position
/// repeats, so this decides repetitions as [`State::hash`] would.
pub fn public_hash(s: &State) -> u64 {
    let down = s.face_down().0;
    let mut h = mix(s.position().hash(), down as u64);
    h = mix(h, (down >> 64) as u64);
    for c in Color::ALL {
        let (r, k) = s.flip_rights(c);
        h = mix(h, (r as u64) << 8 | k as u64);
        if s.variant().caps.king_pieces {
            h = mix(h, s.marker(c).index() as u64);
        }
    }
    h
}

/// The fixed code of a variant action (see the module documentation).
pub fn encode(a: VAction) -> GameAction {
    GameAction(match a {
        VAction::Move { from, to, turn_down, marker } => {
            (to.index() as u32) | (from.index() as u32) << 7 | (turn_down as u32) << 14 | (marker as u32) << 15
        }
        VAction::Flip { at } => FLIP_TAG | at.index() as u32,
        VAction::Demand => DEMAND_CODE,
        VAction::Answer(x) => {
            ANSWER_TAG
                | match x {
                    Answer::Resign => 0,
                    Answer::Draw => 1,
                    Answer::Refuse => 2,
                }
        }
        VAction::Layout { index } => LAYOUT_TAG | index as u32,
        VAction::Place { role } => PLACE_TAG | role.index() as u32,
    })
}

/// The variant action of a player-action code, `None` for chance codes and malformed codes.
pub fn decode(a: GameAction) -> Option<VAction> {
    let c = a.0;
    match c & TAG_MASK {
        0 => Some(VAction::Move {
            from: Square::new_unchecked((c >> 7 & 0x7F) as u8),
            to: Square::new_unchecked((c & 0x7F) as u8),
            turn_down: c & 1 << 14 != 0,
            marker: c & 1 << 15 != 0,
        }),
        FLIP_TAG => Some(VAction::Flip { at: Square::new_unchecked((c & 0x7F) as u8) }),
        DEMAND_CODE => Some(VAction::Demand),
        ANSWER_TAG => match c & 0xFFFF {
            0 => Some(VAction::Answer(Answer::Resign)),
            1 => Some(VAction::Answer(Answer::Draw)),
            2 => Some(VAction::Answer(Answer::Refuse)),
            _ => None,
        },
        LAYOUT_TAG => ((c & 0xFFFF) < LAYOUT_NAMES.len() as u32).then_some(VAction::Layout { index: (c & 0xFFFF) as u8 }),
        PLACE_TAG => Role::ALL.get((c & 0xFFFF) as usize).map(|&role| VAction::Place { role }),
        _ => None,
    }
}

/// The code of a reveal outcome.
pub fn encode_chance(o: ChanceOutcome) -> GameAction {
    let r = |x: Option<Role>| x.map(|r| r.index() as u32 + 1).unwrap_or(0);
    GameAction(REVEAL_TAG | r(o.mover) | r(o.captured) << 4)
}

/// The reveal outcome of a chance code, `None` for other codes.
pub fn decode_chance(a: GameAction) -> Option<ChanceOutcome> {
    if a.0 & TAG_MASK != REVEAL_TAG {
        return None;
    }
    let r = |x: u32| if x == 0 { None } else { Role::ALL.get(x as usize - 1).copied() };
    Some(ChanceOutcome { mover: r(a.0 & 0xF), captured: r(a.0 >> 4 & 0xF) })
}

/// Whether the captured part of a reveal is seen by `observer` when `capturer` captured (§F6 and
/// its options; used for observation keys of search trees).
pub fn sees_captured(s: &State, capturer: Color, observer: Color) -> bool {
    if s.variant().open {
        return true; // docs/open-twins.md §O2
    }
    match s.variant().fanqi.capture_knowledge {
        CaptureKnowledge::Both => true,
        CaptureKnowledge::Nobody => false,
        CaptureKnowledge::Default => s.variant().fanqi.placement() != Placement::Random || observer == capturer,
    }
}

/// The seat of colour `c` (Red = first).
pub fn player_of(c: Color) -> PlayerId {
    match c {
        Color::Red => PlayerId::FIRST,
        Color::Black => PlayerId::SECOND,
    }
}

/// The colour playing in seat `p` (first = Red).
pub fn color_of(p: PlayerId) -> Color {
    if p == PlayerId::FIRST {
        Color::Red
    } else {
        Color::Black
    }
}

fn is_board_action(a: VAction) -> bool {
    matches!(a, VAction::Move { .. } | VAction::Flip { .. })
}

impl VariantGameState {
    /// A game from `state` (a decision or chance node) with default options (400 plies, draw).
    pub fn new(state: State) -> VariantGameState {
        VariantGameState::with_options(state, GameOptions::default())
    }

    /// A game from `state` with no horizon: it ends only by its rules (RULES.md §X4-X6, §K7,
    /// §S11), as a game between players does. Callers that cap the length count
    /// [`VariantGameState::plies`] themselves.
    pub fn unbounded(state: State) -> VariantGameState {
        VariantGameState::with_options(state, GameOptions { max_plies: u32::MAX, leaf: Leaf::Draw })
    }

    /// A game from `state` with `opts`.
    pub fn with_options(state: State, opts: GameOptions) -> VariantGameState {
        let mut g = VariantGameState {
            start_hash: public_hash(&state),
            state,
            opts,
            deal: None,
            plies: 0,
            history: Vec::new(),
            waiting: None,
            public_path: 0x0A0A_1234_5678_9ABC,
            legal: Vec::new(),
            end: None,
            viewer: None,
            last: None,
        };
        g.refresh();
        g
    }

    /// This game marked as built from `viewer`'s view FEN (docs/notation.md §2): its state is one
    /// determinization of that view, and only `viewer`'s view and actions are meaningful
    /// ([`crate::variant::given::Given::state`]).
    pub fn given_as_view(mut self, viewer: Color) -> VariantGameState {
        self.viewer = Some(viewer);
        self
    }

    /// The player whose view FEN the game was built from, `None` for a full state.
    pub fn viewer(&self) -> Option<Color> {
        self.viewer
    }

    /// The last player action applied since this game was built, if any.
    pub fn last_action(&self) -> Option<VAction> {
        self.last
    }

    /// A game whose root is a chance node dealing one of `states` (with probabilities summing to
    /// 1): e.g. the 100 Surprise layout pairs (§S2). The deal is hidden: it is not part of the
    /// public history, and each player learns of it only what its view shows.
    ///
    /// # Panics
    /// If `states` is empty.
    pub fn dealt(states: Vec<(State, f64)>, opts: GameOptions) -> VariantGameState {
        let first = states.first().expect("a deal needs at least one state").0.clone();
        let mut g = VariantGameState::with_options(first, opts);
        g.deal = Some(Arc::new(states));
        g.legal.clear();
        g.end = None;
        g
    }

    /// This game with `prior` plies (oldest first) played before its root: they count for the
    /// repetition rule (§X6) but not for the horizon. The position before the first prior ply is
    /// unknown and counts as no occurrence.
    pub fn with_prior(mut self, prior: &[RecordPly]) -> VariantGameState {
        if prior.is_empty() || self.deal.is_some() {
            return self;
        }
        let mut history: Vec<RecordPly> = prior.to_vec();
        history.append(&mut self.history);
        self.history = history;
        self.start_hash = 0;
        self.refresh();
        self
    }

    /// The public record of the repetition rules (RULES.md §X6), one entry per ply since the game
    /// began (after [`VariantGameState::with_prior`]'s prior record): what both players saw of
    /// each ply (the position's public hash, check, the quiet core move). Bots are handed it
    /// (the [`crate::search::GameBot`] handed this game reads it) to search with the game's history.
    pub fn record(&self) -> &[RecordPly] {
        &self.history
    }

    /// The full state (for the oracle, tests and tools).
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Plies played since the wrapper's root.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The options.
    pub fn options(&self) -> GameOptions {
        self.opts
    }

    /// How the game ended, if it did.
    pub fn end(&self) -> Option<GameEnd> {
        self.end
    }

    /// The legal player actions (codes, ascending); empty at chance and terminal states.
    pub fn legal(&self) -> &[GameAction] {
        &self.legal
    }

    /// Applies a variant action (must be legal).
    pub fn apply_variant(&mut self, a: VAction) {
        self.apply(encode(a));
    }

    /// Plays the variant action `a` (must be legal); if it leaves a chance node (a reveal,
    /// §F4/§S6), `chance` picks the outcome from the list of outcomes and their probabilities
    /// (e.g. [`super::game::draw_outcome`] with a seeded generator), which is applied and returned.
    pub fn play(&mut self, a: VAction, chance: impl FnOnce(&[(ChanceOutcome, f64)]) -> ChanceOutcome) -> Option<ChanceOutcome> {
        self.apply(encode(a));
        if !self.state.is_chance() {
            return None;
        }
        let o = chance(&self.state.chance_outcomes());
        self.apply(encode_chance(o));
        Some(o)
    }

    /// Plays `a` as [`VariantGameState::play`] does and returns its record entry (the text with
    /// RULES.md §F8 reveal letters, [`Ply::new`]): for callers that keep a game's texts (a UCI
    /// engine's move list, tools).
    pub fn play_recorded(&mut self, a: VAction, chance: impl FnOnce(&[(ChanceOutcome, f64)]) -> ChanceOutcome) -> Ply {
        let before = self.state.clone();
        let o = self.play(a, chance);
        Ply::new(&before, a, o)
    }

    /// The end by the variant's rules, if reached (`None` while the game goes on and at the
    /// horizon, [`VariantGameState::end`]).
    pub fn outcome(&self) -> Option<VariantEnd> {
        match self.end {
            Some(GameEnd::Rule(e)) => Some(e),
            _ => None,
        }
    }

    /// Draws `player`'s determinizations of this state one after another
    /// ([`Game::sample_determinization`], which is one draw of it): `player`'s [`View`] is built
    /// once, then each call samples it ([`View::sample`]) with the generator given; before the
    /// deal nothing is known and every draw is the state itself.
    pub fn determinizer<R: Rng>(&self, player: PlayerId) -> impl FnMut(&mut R) -> VariantGameState + '_ {
        // Before the deal there is nothing to sample: no view is built.
        let view = self.deal.is_none().then(|| View::new(&self.state, color_of(player)));
        move |rng: &mut R| match &view {
            Some(v) => self.with_state(v.sample(rng)),
            None => self.clone(),
        }
    }

    /// The repetition verdict of a search on the ply just played (RULES.md §X6 inside a search:
    /// the position after a board ply occurring a second time in the record, the start
    /// included, within the plies since the last capture, decides the line,
    /// [`crate::repetition::judge`] with two occurrences); `None` at a chance state, after a
    /// ply that is no move or flip, or in a variant without repetition rules.
    pub fn repeat_in_search(&self) -> Option<crate::outcome::Outcome> {
        if self.deal.is_some() || self.state.is_chance() || !self.history.last()?.board {
            return None;
        }
        let pos = self.state.position();
        let end = &pos.rules().end;
        if !end.repetition {
            return None;
        }
        let start = (self.start_hash != 0).then_some(self.start_hash);
        crate::repetition::judge(end, pos, start, &self.history, 2, pos.halfmove() as usize)
    }

    /// The game with a different full state at the same point (same public history): used for
    /// determinizations. `state` must share this state's public position.
    pub fn with_state(&self, state: State) -> VariantGameState {
        let mut g = self.clone();
        g.state = state;
        g.deal = None;
        g.refresh();
        g
    }

    fn refresh(&mut self) {
        self.legal.clear();
        if self.deal.is_some() || self.state.is_chance() {
            self.end = None;
            return;
        }
        let legal = &mut self.legal;
        self.state.visit_actions(&mut |a| legal.push(encode(a)));
        self.legal.sort_unstable();
        self.end = self.compute_end().map(GameEnd::Rule);
        if self.end.is_none() && self.plies >= self.opts.max_plies {
            self.end = Some(GameEnd::Horizon);
        }
        if self.end.is_some() {
            self.legal.clear();
        }
    }

    /// The end by rule ([`super::game::end_by_rule`], the one rule text of both games).
    fn compute_end(&self) -> Option<VariantEnd> {
        let start = (self.start_hash != 0).then_some(self.start_hash);
        super::game::end_by_rule(&self.state, || !self.legal.is_empty(), start, &self.history)
    }

    fn finish_ply(&mut self, mover: Color, board: bool, quiet: Option<crate::moves::Move>) {
        let hash = public_hash(&self.state);
        let gave_check = board && self.state.side_in_check();
        self.history.push(RecordPly { hash, gave_check, mover, board, quiet });
        self.plies += 1;
    }

    /// The value of the end for Red (+1 win, -1 loss, 0 draw; the leaf value at the horizon).
    pub fn red_return(&self) -> f64 {
        match self.end {
            Some(GameEnd::Rule(e)) => match e.winner() {
                Some(Color::Red) => 1.0,
                Some(Color::Black) => -1.0,
                None => 0.0,
            },
            Some(GameEnd::Horizon) => match self.opts.leaf {
                Leaf::Draw => 0.0,
                Leaf::Eval { scale_cp } => crate::search::eval::value(&self.state, Color::Red, scale_cp),
            },
            None => 0.0,
        }
    }

    /// A fingerprint of the full state and the public history (see the module documentation).
    fn fingerprint(&self) -> u64 {
        let s = &self.state;
        let mut h = mix(self.public_path, s.hash());
        for c in Color::ALL {
            for (i, &n) in s.pool(c).iter().enumerate() {
                h = mix(h, (c.index() * 16 + i) as u64 * 256 + n as u64);
            }
        }
        for &(a, b, r) in s.captured_face_down() {
            h = mix(h, (a.index() * 100 + b.index() * 10 + r.index()) as u64);
        }
        for &(o, v, b, shown) in s.captured_discs() {
            h = mix(h, (o.index() * 1000 + v.index() * 100 + b.index() * 10 + shown as usize) as u64);
        }
        h = mix(h, s.is_chance() as u64 | (self.deal.is_some() as u64) << 1 | (s.turn().index() as u64) << 2);
        mix(h, self.plies as u64)
    }

    fn name(&self) -> &'static str {
        self.state.variant().name.as_str()
    }
}

impl fmt::Debug for VariantGameState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VariantGameState({} ply {}{})", super::fen::write(&self.state), self.plies, if self.deal.is_some() { " deal" } else { "" })
    }
}

impl PartialEq for VariantGameState {
    fn eq(&self, other: &Self) -> bool {
        self.fingerprint() == other.fingerprint()
    }
}

impl Eq for VariantGameState {}

impl Hash for VariantGameState {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.fingerprint());
    }
}

impl Game for VariantGameState {
    fn info(&self) -> GameInfo {
        GameInfo {
            name: self.name(),
            num_players: 2,
            chance: ChanceMode::ExplicitStochastic,
            // An open twin shows every player the whole state (docs/open-twins.md §O2).
            information: if self.state.variant().open { Information::Perfect } else { Information::Imperfect },
            utility: Utility::ZeroSum,
            min_utility: -1.0,
            max_utility: 1.0,
        }
    }

    fn turn(&self) -> Turn {
        if self.deal.is_some() || self.state.is_chance() {
            Turn::Chance
        } else if self.end.is_some() {
            Turn::Terminal
        } else {
            Turn::Player(player_of(self.state.turn()))
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<GameAction>) {
        out.clear();
        out.extend_from_slice(&self.legal);
    }

    fn chance_outcomes_into(&self, out: &mut Vec<(GameAction, f64)>) {
        out.clear();
        if let Some(deal) = &self.deal {
            out.extend(deal.iter().enumerate().map(|(i, (_, p))| (GameAction(DEAL_TAG | i as u32), *p)));
        } else if self.state.is_chance() {
            out.extend(self.state.chance_outcomes().into_iter().map(|(o, p)| (encode_chance(o), p)));
        }
    }

    fn apply(&mut self, action: GameAction) {
        if let Some(deal) = self.deal.take() {
            let i = (action.0 & 0xFFFF) as usize;
            assert!(action.0 & TAG_MASK == DEAL_TAG && i < deal.len(), "deal outcome {action} out of range");
            self.state = deal[i].0.clone();
            self.start_hash = public_hash(&self.state);
            self.refresh();
            return;
        }
        if self.state.is_chance() {
            let o = decode_chance(action).unwrap_or_else(|| panic!("chance outcome {action:#x?} is not a reveal"));
            let (mover, board) = self.waiting.take().unwrap_or((self.state.turn(), true));
            // The mover's drawn type is public; the captured part is hashed by the state.
            self.public_path = mix(self.public_path, encode_chance(ChanceOutcome { mover: o.mover, captured: None }).0 as u64);
            self.state.apply_chance(o);
            self.finish_ply(mover, board, None);
            self.refresh();
            return;
        }
        let a = decode(action).unwrap_or_else(|| panic!("action {action:#x?} is not a player action"));
        debug_assert!(self.legal.contains(&action), "illegal action {a:?}");
        let mover = self.state.turn();
        // Set-up choices are secret (§S2, §F3): only that one was made is public.
        // In an open twin they are public (docs/open-twins.md §O2).
        let secret = matches!(a, VAction::Layout { .. } | VAction::Place { .. }) && !self.state.variant().open;
        let public = if secret { action.0 & TAG_MASK } else { action.0 };
        self.public_path = mix(self.public_path, public as u64);
        let quiet = self.state.quiet_move(a);
        self.state.apply(a);
        self.last = Some(a);
        if self.state.is_chance() {
            self.waiting = Some((mover, is_board_action(a)));
            self.legal.clear();
            return;
        }
        self.finish_ply(mover, is_board_action(a), quiet);
        self.refresh();
    }

    fn returns(&self, player: PlayerId) -> f64 {
        let r = self.red_return();
        if player == PlayerId::FIRST {
            r
        } else {
            -r
        }
    }

    fn infoset_key(&self, player: PlayerId) -> u64 {
        View::new(&self.state, color_of(player)).infoset_key()
    }

    fn infoset_string(&self, player: PlayerId) -> String {
        let v = View::new(&self.state, color_of(player));
        format!("{} #{:016x}", v.fen(), v.infoset_key())
    }

    fn sample_determinization<R: Rng + ?Sized>(&self, player: PlayerId, rng: &mut R) -> Self {
        let mut r = rng;
        self.determinizer::<&mut R>(player)(&mut r)
    }

    fn action_string(&self, action: GameAction) -> String {
        if let Some(a) = decode(action) {
            return super::notation::action_string(&self.state, a);
        }
        if let Some(o) = decode_chance(action) {
            let c = |r: Option<Role>| r.map(|r| crate::piece::Piece::new(Color::Red, r).char()).unwrap_or('-');
            return format!("reveal {}{}", c(o.mover), c(o.captured));
        }
        format!("deal {}", action.0 & 0xFFFF)
    }
}
