//! Preset names of the RULES-more.md games and one entry point per command, so that the CLI
//! (`anqi variants`, `anqi play`, `anqi perft`) handles every preset here the same way: each
//! game plugs in through [`Playable`] and [`super::family::RuleFamily`] (in its folder's
//! `family.rs`) and its line in the registry (`more/mod.rs`), and the helpers below are generic. The RULES.md variants plug
//! into the same trait as [`crate::variant::game_state::VariantGameState`]
//! (`crate::variant::playable`), and [`crate::any_game::with_any_game`] dispatches over both.

use crate::search::Scored;
use super::family::{RuleFamily, WithFamily};
use super::{MoreError, MoreVariant};
use crate::any_game::Start;
use crate::game::Action;
use crate::piece::Color;
use crate::picture::{MoveText, Picture, PictureError, PictureOptions, Viewpoint};

/// A family of types indexed by a game, `F::Of<G>` (a bot for `G`, a player seated at `G`):
/// what [`Playable::from_variant`] converts.
pub trait GameFamily {
    /// The member for game `G`.
    type Of<G: Playable>;
}

/// What the CLI needs of a game beyond [`Scored`]: its FEN, result, perft and record strings;
/// and, for nets ([`crate::observe::Observe`]), its observation tensor and action index, so that
/// every game can be trained (#17 item 3). Implemented by every RULES-more.md game, by their
/// open twins ([`super::open::Open`], which also need [`super::observe::ObserveAll`]) and by the
/// RULES.md variants ([`crate::variant::game_state::VariantGameState`]).
pub trait Playable: Scored + crate::observe::Observe {
    /// This game as the RULES.md variants' game ([`crate::variant::game_state::VariantGameState`]),
    /// `None` for every other game: how a caller finds the games that have what only the
    /// variants have (UCI engines, the variants' own bots and set-up policies).
    fn as_variant(&self) -> Option<&crate::variant::game_state::VariantGameState> {
        None
    }
    /// `x`, made for the variants' game, as the same thing for this game: `Some(x)` for the
    /// variants' game itself (a typed identity: `F::Of<Self>` is `F::Of<VariantGameState>`
    /// there), `None` for every other game. Replaces a downcast through `Any`.
    fn from_variant<F: GameFamily>(x: F::Of<crate::variant::game_state::VariantGameState>) -> Option<F::Of<Self>>
    where
        Self: Sized,
    {
        let _ = x;
        None
    }
    /// The full-state FEN.
    fn full_fen(&self) -> String;
    /// `(result, reason)` once the game is decided (`1-0`, `0-1`, `1/2-1/2`); `None` while it
    /// goes on (and at a search horizon, which cuts a game without deciding it).
    fn result(&self) -> Option<(&'static str, &'static str)>;
    /// Perft of the position rules from this state (RULES.md §P): legal moves only; a chance
    /// node counts each outcome (§P2).
    fn perft(&self, depth: u32) -> u64;
    /// Perft below each legal move, as move strings.
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// The Chinese record of a legal action ([`super::notation`], RULES.md §F8); set-up actions
    /// keep their action string.
    fn chinese(&self, a: Action) -> String;
    /// Plays the legal action with this action string (a record entry: for the variants, reveal
    /// letters of RULES.md §F8 name a chance result the move needs).
    ///
    /// # Errors
    /// [`MoreError::Move`] (or [`MoreError::Variant`]) when no legal action has that string, or
    /// when the move needs a chance result the text does not name
    /// ([`Playable::play_record`] draws it instead).
    fn play_text(&mut self, text: &str) -> Result<(), MoreError>;
    /// Plays a record entry as [`Playable::play_text`], drawing with `rng` a chance result the
    /// move needs and the text does not name (RULES.md §F8, §P2). Games without chance play the
    /// text and leave `rng` untouched.
    ///
    /// # Errors
    /// As [`Playable::play_text`], less the missing chance result.
    fn play_record(&mut self, text: &str, rng: &mut dyn rand::RngCore) -> Result<(), MoreError> {
        let _ = rng;
        self.play_text(text)
    }
    /// How many chance results legal action `a` may lead to, counted on what the player to move
    /// knows (RULES.md §P2: the identities it has not seen), so that a list of actions with their
    /// multiplicities stays a function of the mover's view. 1 for games without chance.
    fn chance_multiplicity(&self, a: Action) -> u64 {
        let _ = a;
        1
    }
    /// The player whose view FEN this game was built from (docs/notation.md §2): its hidden
    /// parts are then one determinization standing in for what that player cannot see, and only
    /// that player's view and actions are meaningful. `None` for a game built from a full state.
    fn given_view(&self) -> Option<Color> {
        None
    }
    /// The identity-perft position of RULES.md §P3 (every undetermined face-down piece is its
    /// start point's type), `None` for games without face-down pieces.
    fn identity(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
    /// Whether the game is still in its set-up phase (placements, tile choices, Surprise
    /// layouts, owner's arrangements), before the first board move.
    fn in_setup(&self) -> bool;
    /// The view FEN of `c` (docs/notation.md §5): what that player sees; the full FEN where
    /// nothing is hidden.
    fn view_fen(&self, c: Color) -> String;
    /// The board: size, river and palaces (for pictures of the position).
    fn geometry(&self) -> &'static super::Geometry;
    /// The picture of the position as `viewpoint` sees it ([`crate::picture`]): what `anqi
    /// render`, `anqi view` and `anqi serve` draw. It holds only what that viewer sees. The
    /// default draws the viewer's view FEN (the full FEN for the full view) on
    /// [`Playable::geometry`] with [`Playable::board_marks`] ([`super::picture::draw`]); the
    /// RULES.md variants draw from the side's [`crate::variant::View`]
    /// ([`crate::variant::picture`]), with beliefs and a record's deal when asked.
    ///
    /// # Errors
    /// [`PictureError`] when the FEN does not fit the board or `opts.last` is no move on it.
    fn picture(&self, viewpoint: Viewpoint, opts: &PictureOptions<'_>) -> Result<Picture, PictureError> {
        super::picture::draw(self, viewpoint, opts)
    }
    /// Player action `a`, legal here, followed by chance outcome `chance` if it led to one, which
    /// the game recorded as `entry` ([`crate::seeded::play_ply`]), as `viewer` saw it (`None`:
    /// the full state): the move lists of the viewer pages and the play page. The default is the
    /// entry and [`Playable::chinese`] for every viewer (nothing in a RULES-more.md ply's text is
    /// hidden: secret placements and tiles are written as what the mover did, which the view FEN
    /// already shows); the RULES.md variants drop from a side's text a captured face-down
    /// identity that side did not see (RULES.md §F6, §F8).
    fn move_text(&self, a: Action, chance: Option<Action>, entry: &str, viewer: Option<Color>) -> MoveText {
        let _ = (chance, viewer);
        MoveText { iccs: entry.to_string(), chinese: self.chinese(a) }
    }
    /// The marks a picture draws besides the pieces, as `viewer` sees them (`None`: the full
    /// state): only what that viewer's view FEN holds. Default: none; the skill game's tiles.
    fn board_marks(&self, viewer: Option<Color>) -> BoardMarks {
        let _ = viewer;
        BoardMarks::default()
    }
    /// The start a seed gives this game ([`crate::seeded`]), called on the game at its rules'
    /// start (set-up phase included): the position after a set-up drawn from `seed`, as a
    /// full-state FEN and a label for records. The default draws each set-up action uniformly
    /// ([`crate::seeded::draw_setup_actions`]); the RULES.md variants draw Surprise layouts,
    /// owner's arrangements, deals and open twins' deals ([`crate::variant::seeded::generate`]).
    ///
    /// # Errors
    /// The start cannot be built (a broken rule file).
    fn seeded_setup(self, seed: u64) -> Result<crate::seeded::SeededSetup, MoreError>
    where
        Self: Sized,
    {
        Ok(crate::seeded::draw_setup_actions(self, seed))
    }
    /// Where the chance of a game from this start with seed `seed` comes from
    /// ([`crate::seeded`]). The default draws each outcome by its probability
    /// ([`crate::seeded::DrawnChance`]); the variants reveal the deal of this start
    /// ([`crate::variant::seeded::DealtChance`]).
    fn seeded_chance(&self, seed: u64) -> Box<dyn crate::seeded::ChanceSource<Self>>
    where
        Self: Sized,
    {
        Box::new(crate::seeded::DrawnChance::new(seed))
    }
    /// The record entry of legal player action `a` played here, followed by chance outcome
    /// `chance` if it led to one ([`crate::seeded::play_ply`]). The default is the action string;
    /// the variants add the revealed types (RULES.md §F8).
    fn record_entry(&self, a: Action, chance: Option<Action>) -> String {
        let _ = chance;
        self.action_string(a)
    }
    /// The player action of record entry `text` here, any chance result it names left to the
    /// game's chance ([`crate::seeded::replay_entry`] checks the entry is written alike). The
    /// default is the legal action with that action string; the variants read the move and skip
    /// the reveal letters.
    ///
    /// # Errors
    /// [`MoreError::Move`] (or [`MoreError::Variant`]) when no legal action reads so.
    fn parse_entry(&self, text: &str) -> Result<Action, MoreError> {
        crate::seeded::legal_action_named(self, text)
    }
    /// The name records give games of `spec` (the name or rule file this game was built from):
    /// by default `spec` itself, so that a rule file is recorded by its path and loads again;
    /// the RULES.md variants give their variant's name.
    fn record_name(&self, spec: &str) -> String {
        spec.to_string()
    }
    /// The legal actions in the order the random opening plies of a seeded game draw from
    /// (an index drawn uniformly, [`crate::seeded::OPENING_SALT`]). The default is
    /// [`Game::legal_actions`]; the variants keep their move generator's order, which their
    /// records were drawn in.
    fn opening_actions(&self) -> Vec<Action> {
        self.legal_actions()
    }
}

/// A mark a picture draws on a point besides the piece there: a skill game's tile in its recess
/// (RULES-more.md §1.2, §1.6), as one viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardMark {
    /// File, 0 = `a`.
    pub file: u8,
    /// Rank, 0 = Red's back rank.
    pub rank: u8,
    /// The side it belongs to.
    pub color: Color,
    /// Short label: `T6`, or `?` for one the viewer has not seen.
    pub label: String,
    /// Its name (`将可飞`), empty when unseen.
    pub name: String,
}

/// What [`Playable::board_marks`] gives a picture: the marks, and which FEN field (0-based,
/// whitespace-separated) they draw, so that the picture does not also write it as text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardMarks {
    /// The marks.
    pub marks: Vec<BoardMark>,
    /// The FEN field the marks show, if any.
    pub fen_field: Option<usize>,
}

/// Something done with a preset's game whatever its concrete type: [`with_game`] builds the
/// game and hands it to [`WithGame::run`], so callers (the CLI, tournaments, studies) write one
/// generic body instead of one branch per game.
pub trait WithGame {
    /// What the body returns.
    type Output;
    /// The body, for the preset's game `g`.
    fn run<G: Playable>(self, g: G) -> Self::Output;
}

/// Builds the game of preset or rule file `name` ([`MoreVariant::resolve`]), from its start
/// (set-up phase included) or from `fen` (after set-up), without a ply horizon of its own, and
/// runs `body` on it.
///
/// # Errors
/// [`MoreError::UnknownPreset`], a rule file's error, or the FEN's error.
pub fn with_game<W: WithGame>(name: &str, fen: Option<&str>, body: W) -> Result<W::Output, MoreError> {
    with_game_at(name, fen.map_or(Start::Setup, Start::Fen), body)
}

/// [`with_game`] from any [`Start`]: [`Start::AfterSetup`] is perft's start (RULES.md §P4): the
/// open array of §3.6 for every missile set-up, tiles T1-T8 in recess order for skill-tile
/// xiangqi, the camel start as it is (each game's [`RuleFamily::game`]).
///
/// These games have no Surprise layouts: [`Start::AfterSetup`]'s `layouts` is ignored, as the
/// RULES.md variants without discs ignore it.
///
/// # Errors
/// As [`with_game`].
pub fn with_game_at<W: WithGame>(name: &str, start: Start<'_>, body: W) -> Result<W::Output, MoreError> {
    // docs/open-twins.md §O6: an open twin is the hidden game wrapped in `Open`.
    let (base, open) = super::open::split(name)?.unwrap_or_else(|| (name.to_string(), false));
    let twin = open.then(|| super::config::intern(name));
    struct Build<'a, W> {
        start: Start<'a>,
        twin: Option<&'static str>,
        body: W,
    }
    impl<W: WithGame> WithFamily for Build<'_, W> {
        type Output = Result<W::Output, MoreError>;
        fn run<P: RuleFamily>(self, p: P) -> Self::Output {
            let g = p.game(self.start)?;
            Ok(match self.twin {
                Some(n) => self.body.run(super::open::Open::new(g, n)),
                None => self.body.run(g),
            })
        }
    }
    MoreVariant::resolve(&base)?.visit(Build { start, twin, body })
}

/// Every preset of this module, with its one-line description.
pub fn presets() -> Vec<(&'static str, &'static str)> {
    super::FAMILIES.iter().flat_map(|f| f.presets.iter().filter_map(|n| (f.preset)(n).ok())).map(|v| (v.name(), v.description())).collect()
}

/// The resolved rule table of a preset or rule file as a rule file ([`MoreVariant::to_toml`],
/// for `anqi variants --show`): what it prints loads back to the same rules.
///
/// # Errors
/// [`MoreError::UnknownPreset`], a rule file's error.
pub fn describe(name: &str) -> Result<String, MoreError> {
    match super::open::split(name)? {
        // docs/open-twins.md §O6: the hidden game's table, then `[info] open`.
        Some((base, true)) => Ok(format!("# open twin: {name}\n{}\n[info]\nopen = true\n", MoreVariant::resolve(&base)?.to_toml())),
        _ => Ok(MoreVariant::resolve(name)?.to_toml()),
    }
}

/// Whether `name` is a preset of this module.
pub fn is_preset(name: &str) -> bool {
    presets().iter().any(|(n, _)| *n == name)
}

/// Whether `spec` is a preset of this module or a rule file based on one
/// ([`MoreVariant::recognises`]): what `--variant` routes here.
pub fn is_spec(spec: &str) -> bool {
    MoreVariant::recognises(spec) || spec.strip_suffix(super::open::SUFFIX).is_some_and(MoreVariant::recognises)
}

/// Perft (RULES.md §P) of preset or rule file `name` from `fen` or its start (after set-up: the RULES-more.md §3.6 array
/// for the hidden missile set-ups, §P4); with `divide`, the count below each move too.
///
/// # Errors
/// An unknown preset or a bad FEN.
pub fn perft(name: &str, fen: Option<&str>, depth: u32, divide: bool) -> Result<(Vec<(String, u64)>, u64), MoreError> {
    struct Body(u32, bool);
    impl WithGame for Body {
        type Output = (Vec<(String, u64)>, u64);
        fn run<G: Playable>(self, g: G) -> Self::Output {
            perft_rows(&g, self.0, self.1)
        }
    }
    // docs/open-twins.md §O6: an open twin's tree is its hidden game's (same legal moves).
    with_game_at(name, fen.map_or(Start::AfterSetup { layouts: None }, Start::Fen), Body(depth, divide))
}

/// Perft of `g` to `depth`; with `divide`, the rows below each legal move too (their counts sum
/// to the total; at depth 0 there are no rows and the total is 1).
pub fn perft_rows<G: Playable>(g: &G, depth: u32, divide: bool) -> (Vec<(String, u64)>, u64) {
    if divide && depth > 0 {
        let rows = g.divide(depth);
        let total = rows.iter().map(|r| r.1).sum();
        (rows, total)
    } else {
        (Vec::new(), g.perft(depth))
    }
}

/// What `anqi actions` prints: the FEN after the moves, the legal action strings (sorted) and
/// how the game ended, if it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionsReport {
    /// Full-state FEN after the moves.
    pub fen: String,
    /// The side to move's view FEN, when it differs from the full state (something is hidden
    /// from that side): what the command shows, since the list of legal actions is that side's.
    pub view: Option<String>,
    /// Legal action strings, sorted.
    pub actions: Vec<String>,
    /// `(result, reason)` when the game is over.
    pub end: Option<(String, String)>,
}

fn actions_of<G: Playable>(mut g: G, moves: &str) -> Result<ActionsReport, MoreError> {
    for (i, m) in moves.split_whitespace().enumerate() {
        g.play_text(m).map_err(|e| MoreError::Move(format!("move {} ({m:?}): {e}", i + 1)))?;
    }
    let mut actions: Vec<String> = g.legal_actions().into_iter().map(|a| g.action_string(a)).collect();
    actions.sort();
    let fen = g.full_fen();
    let view = match g.turn() {
        crate::game::Turn::Player(p) => Some(g.view_fen(if p == crate::game::PlayerId::FIRST { crate::piece::Color::Red } else { crate::piece::Color::Black })),
        _ => None,
    }
    .filter(|v| *v != fen);
    Ok(ActionsReport { fen, view, actions, end: g.result().map(|(r, w)| (r.to_string(), w.to_string())) })
}

/// Plays `moves` (action strings, space separated; set-up actions included when starting from
/// the preset's start) and reports the legal actions after them.
///
/// # Errors
/// An unknown preset, a bad FEN, an illegal move.
pub fn actions(name: &str, fen: Option<&str>, moves: &str) -> Result<ActionsReport, MoreError> {
    struct Body<'a>(&'a str);
    impl WithGame for Body<'_> {
        type Output = Result<ActionsReport, MoreError>;
        fn run<G: Playable>(self, g: G) -> Self::Output {
            actions_of(g, self.0)
        }
    }
    with_game(name, fen, Body(moves))?
}

/// The start position and depth `anqi perft --bench` measures for preset `name`: 4 plies for
/// every game (0.1-0.2 s on the bitboards; 3 plies ran in a few milliseconds, too short to
/// measure a rate).
pub fn bench_depth(_name: &str) -> u32 {
    4
}
