//! The skill-tile game state behind [`crate::game::Game`] (RULES-more.md §1.5, §1.7-§1.9).
//!
//! * **Tile set-up as actions (§1.5, §1.9):** Red fills its 8 recesses in recess order (one
//!   action per tile number), then Black. Open set-up: every choice is public. Secret set-up
//!   (`skill-secret`): Black does not see Red's choices until both layouts are complete (a
//!   simultaneous commit), so information-set keys hide them and
//!   [`Game::sample_determinization`] re-draws them.
//! * **A turn is (removal set, move) (§1.7):** each stagnation removal is its own action by the
//!   same player (ascending squares, so each subset is listed once), followed by the move. A
//!   removal is offered only if a legal move (possibly after more removals) still follows.
//! * **End (§1.8):** no legal turn loses; the T16 victory soldier wins when the reply did not
//!   remove it; a third repetition draws unless one side checked on every move of the cycle
//!   (it loses, RULES.md §X6 style [ASM]); 120 plies without removal draw; a ply horizon draws.
//!
//! # Action numbering
//! | code | meaning |
//! |---|---|
//! | `from | to << 7 | exchange << 14 | promote << 15` | a move (promote: 0 none, 1 chariot, 2 horse, 3 cannon) |
//! | `0x0002_00ss` | remove the stagnating piece on `ss` |
//! | `0x0004_00tt` | set-up: tile number `tt` into the side's next recess |

use rand::seq::SliceRandom;
use rand::Rng;

use super::fen;
use super::position::{SMove, SkillPosition};
use super::rules::{SkillPreset, SkillRules};
use super::tiles::{TileId, COUNT};
use crate::game::{Action, Game, GameInfo, PlayerId, Turn};
use crate::more::geometry::Sq;
use crate::more::history::{game_info, color_of, mix, player_of, seat_return, Ply, Record};
use crate::more::piece::{Kind, Piece};
use crate::more::MoreError;
use crate::piece::Color;

/// The tag of removal action codes (`REMOVE_TAG | square`).
pub(super) const REMOVE_TAG: u32 = 2 << 16;
/// The tag of tile set-up action codes (`SETUP_TAG | tile`).
pub(super) const SETUP_TAG: u32 = 4 << 16;

/// How a skill-tile game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SkillEnd {
    /// No legal turn while in check (`winner` won).
    Checkmate(Color),
    /// No legal turn while not in check.
    Stalemate(Color),
    /// T16 (§1.6.1): the victory soldier survived the reply.
    VictorySoldier(Color),
    /// The side that checked on every move of a threefold cycle lost.
    PerpetualCheck(Color),
    /// Third repetition.
    Repetition,
    /// Plies without removal.
    NoCapture,
    /// Ply horizon.
    Horizon,
}

impl SkillEnd {
    /// The winner.
    pub fn winner(self) -> Option<Color> {
        match self {
            SkillEnd::Checkmate(c) | SkillEnd::Stalemate(c) | SkillEnd::VictorySoldier(c) | SkillEnd::PerpetualCheck(c) => Some(c),
            _ => None,
        }
    }
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub fn result(self) -> &'static str {
        crate::more::history::result_text(self.winner())
    }
    /// Short reason.
    pub fn reason(self) -> &'static str {
        match self {
            SkillEnd::Checkmate(_) => "checkmate",
            SkillEnd::Stalemate(_) => "stalemate",
            SkillEnd::VictorySoldier(_) => "victory soldier",
            SkillEnd::PerpetualCheck(_) => "perpetual check",
            SkillEnd::Repetition => "repetition",
            SkillEnd::NoCapture => "no-capture rule",
            SkillEnd::Horizon => "ply limit",
        }
    }
}

/// The action code of a move.
pub fn encode(m: SMove) -> Action {
    let promo = match m.promote {
        None => 0,
        Some(Kind::Chariot) => 1,
        Some(Kind::Horse) => 2,
        Some(_) => 3,
    };
    Action(m.from as u32 | (m.to as u32) << 7 | (m.exchange as u32) << 14 | promo << 15)
}

/// The move of a move code.
pub fn decode(a: Action) -> Option<SMove> {
    if a.0 >= REMOVE_TAG {
        return None;
    }
    let promote = match a.0 >> 15 & 3 {
        0 => None,
        1 => Some(Kind::Chariot),
        2 => Some(Kind::Horse),
        _ => Some(Kind::Cannon),
    };
    Some(SMove { from: (a.0 & 0x7F) as u8, to: (a.0 >> 7 & 0x7F) as u8, exchange: a.0 >> 14 & 1 == 1, promote })
}

/// A skill-tile game; see the module documentation.
#[derive(Clone, Debug)]
pub struct SkillGame {
    preset: SkillPreset,
    pos: SkillPosition,
    setup: bool,
    last_removed: Option<Sq>,
    record: Record,
    own_path: [u64; 2],
    public_path: u64,
    plies: u32,
    max_plies: u32,
    legal: Vec<Action>,
    end: Option<SkillEnd>,
}

/// The default layouts for perft and `--fen`-less tests: T1..T8 for Red and Black (recess order).
pub const DEFAULT_TILES: [[TileId; 8]; 2] = [[1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 8]];

impl SkillGame {
    /// A new game with the tile set-up phase.
    pub fn new(preset: SkillPreset) -> SkillGame {
        let pos = SkillPosition::start(preset.rules, [[0; 8]; 2]);
        SkillGame::from_parts(preset, pos, true)
    }

    /// A game after set-up with the given layouts.
    pub fn with_tiles(preset: SkillPreset, tiles: [[TileId; 8]; 2]) -> SkillGame {
        SkillGame::from_parts(preset, SkillPosition::start(preset.rules, tiles), false)
    }

    /// A game from a FEN (after set-up: no tile may be 0).
    ///
    /// # Errors
    /// [`MoreError::Fen`].
    pub fn from_fen(preset: SkillPreset, text: &str) -> Result<SkillGame, MoreError> {
        let pos = fen::parse(preset.rules, text)?;
        if pos.tiles.iter().flatten().any(|&t| t == 0) {
            return Err(MoreError::Fen("every recess needs a tile to play from a FEN".into()));
        }
        Ok(SkillGame::from_parts(preset, pos, false))
    }

    /// A game of a named preset with its set-up phase.
    ///
    /// # Errors
    /// [`MoreError::UnknownPreset`].
    pub fn preset(name: &str) -> Result<SkillGame, MoreError> {
        Ok(SkillGame::new(SkillRules::preset(name)?))
    }

    fn from_parts(preset: SkillPreset, pos: SkillPosition, setup: bool) -> SkillGame {
        let root = pos.hash();
        let mut g = SkillGame {
            preset,
            record: Record::new(root),
            pos,
            setup,
            last_removed: None,
            own_path: [0x711E_0000_0000_0001, 0x711E_0000_0000_0002],
            public_path: 0x0B0B_1234_5678_9ABC ^ root,
            plies: 0,
            max_plies: 400,
            legal: Vec::new(),
            end: None,
        };
        g.refresh();
        g
    }

    /// With a ply horizon of `n` (default 400).
    pub fn with_max_plies(mut self, n: u32) -> SkillGame {
        self.max_plies = n;
        self.refresh();
        self
    }

    /// The position.
    pub fn position(&self) -> &SkillPosition {
        &self.pos
    }

    /// Whether the tile set-up is under way.
    pub fn in_setup(&self) -> bool {
        self.setup
    }

    /// Plies played (tile choices and moves; removals are part of their turn's move).
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The stagnating piece removed last in the turn under way (§1.7; `None` before the
    /// turn's first removal): further removals of this turn take higher squares.
    pub fn last_removed(&self) -> Option<Sq> {
        self.last_removed
    }

    /// How the game ended.
    pub fn end(&self) -> Option<SkillEnd> {
        self.end
    }

    /// The full-state FEN.
    pub fn fen(&self) -> String {
        fen::write(&self.pos)
    }

    /// The side choosing tiles now (set-up) or to move.
    pub fn to_act(&self) -> Color {
        if self.setup {
            if self.pos.tiles[0].contains(&0) {
                Color::Red
            } else {
                Color::Black
            }
        } else {
            self.pos.turn()
        }
    }

    fn refresh(&mut self) {
        self.legal.clear();
        if self.end.is_some() {
            return;
        }
        if self.setup {
            let c = self.to_act().index();
            for t in 1..=COUNT {
                if !self.pos.tiles[c].contains(&t) {
                    self.legal.push(Action(SETUP_TAG | t as u32));
                }
            }
            return;
        }
        if self.plies >= self.max_plies {
            self.end = Some(SkillEnd::Horizon);
            return;
        }
        if self.last_removed.is_none() {
            if let Some(e) = self.repetition() {
                self.end = Some(e);
                return;
            }
        }
        let mut moves = Vec::new();
        self.pos.legal_moves(&mut moves);
        self.legal.extend(moves.into_iter().map(encode));
        for s in self.pos.removable() {
            if self.last_removed.is_some_and(|a| s <= a) {
                continue;
            }
            let mut q = self.pos.clone();
            q.remove(s);
            if q.has_turn(Some(s)) {
                self.legal.push(Action(REMOVE_TAG | s as u32));
            }
        }
        self.legal.sort_unstable();
        if self.legal.is_empty() {
            let me = self.pos.turn();
            self.end = Some(if self.pos.in_check(me) { SkillEnd::Checkmate(me.opponent()) } else { SkillEnd::Stalemate(me.opponent()) });
            return;
        }
        if let Some(limit) = self.pos.rules().no_capture_plies {
            if self.pos.halfmove() >= limit && self.last_removed.is_none() {
                self.end = Some(SkillEnd::NoCapture);
                self.legal.clear();
            }
        }
    }

    fn repetition(&self) -> Option<SkillEnd> {
        let loser = self.record.threefold(self.pos.halfmove())?;
        Some(match loser {
            Some(c) if self.pos.rules().ban_perpetual_check => SkillEnd::PerpetualCheck(c.opponent()),
            _ => SkillEnd::Repetition,
        })
    }

    /// Plays an action given as its string (see [`fen`]).
    ///
    /// # Errors
    /// [`MoreError::Move`] when no legal action has that string.
    pub fn play_str(&mut self, text: &str) -> Result<(), MoreError> {
        let a = self.legal.iter().copied().find(|&a| self.action_string(a) == text.trim()).ok_or_else(|| MoreError::Move(format!("{text:?} is not legal here")))?;
        self.apply(a);
        Ok(())
    }

    /// Material from `c`'s view (centipawns).
    pub fn material(&self, c: Color) -> i32 {
        self.pos.board().pieces().filter(|(_, p)| p.kind != Kind::General).map(|(_, p)| if p.color == c { p.kind.value() } else { -p.kind.value() }).sum()
    }

    /// The view FEN of `c` (docs/notation.md §5.2): the full FEN, except that during the secret
    /// tile set-up the opponent's chosen tiles are written `?` (chosen, not seen) in the tiles
    /// field. [`SkillGame::from_view`] reads it back.
    pub fn view_fen(&self, c: Color) -> String {
        let full = self.fen();
        if !self.tiles_hidden_from(c, c.opponent()) {
            return full;
        }
        let o = c.opponent().index();
        let chosen = self.pos.tiles[o].iter().filter(|&&t| t != 0).count();
        let mut fields: Vec<String> = full.split(' ').map(str::to_string).collect();
        if let Some(tiles) = fields.get_mut(2) {
            let mut sides: Vec<String> = tiles.split('/').map(str::to_string).collect();
            if let Some(side) = sides.get_mut(o) {
                *side = side.split(',').enumerate().map(|(i, t)| if i < chosen { "?" } else { t }).collect::<Vec<_>>().join(",");
            }
            *tiles = sides.join("/");
        }
        fields.join(" ")
    }

    /// Whether `viewer` cannot see `owner`'s chosen tiles: the opponent's, under the secret
    /// set-up while it lasts (RULES-more.md §1.5). The one rule of [`SkillGame::view_fen`] and
    /// [`SkillGame::tile_marks`].
    fn tiles_hidden_from(&self, viewer: Color, owner: Color) -> bool {
        viewer != owner && self.setup && self.preset.rules.secret_setup
    }

    /// The tiles in their recesses as `viewer` sees them (`None`: the full state), for pictures
    /// (RULES-more.md §1.2, §1.6; FEN field 2, docs/notation.md §5.2): each chosen tile with its
    /// number and name, except, under the secret set-up while it lasts, the opponent's, which
    /// are `?` as in [`SkillGame::view_fen`]. Recesses not filled yet carry no mark.
    pub fn tile_marks(&self, viewer: Option<Color>) -> crate::more::presets::BoardMarks {
        let g = self.pos.geo();
        let mut marks = Vec::new();
        for c in Color::ALL {
            let hidden = viewer.is_some_and(|v| self.tiles_hidden_from(v, c));
            for (&sq, &t) in self.pos.recesses(c).iter().zip(self.pos.tiles(c).iter()) {
                if t == 0 {
                    continue;
                }
                let (label, name) = if hidden { ("?".to_string(), String::new()) } else { (format!("T{t}"), super::tiles::name(t).to_string()) };
                marks.push(crate::more::presets::BoardMark { file: g.file(sq), rank: g.rank(sq), color: c, label, name });
            }
        }
        crate::more::presets::BoardMarks { marks, fen_field: Some(2) }
    }

    /// A game state that a view FEN ([`SkillGame::view_fen`]) describes. During set-up (a `0` or
    /// `?` in the tiles field) the tile choices are replayed from the start in order, each hidden
    /// `?` as the smallest tile still free for that side (one state of the information set;
    /// [`Game::sample_determinization`] draws others), so its infoset string for the viewer is
    /// the viewed state's. After set-up it is [`SkillGame::from_fen`] (without the move history).
    ///
    /// # Errors
    /// [`MoreError::Fen`]: a malformed view, an illegal or out-of-order choice, `?` where nothing
    /// is hidden, or fields that do not match the replayed set-up.
    pub fn from_view(preset: SkillPreset, text: &str) -> Result<SkillGame, MoreError> {
        let bad = |why: String| MoreError::Fen(format!("view {text:?}: {why}"));
        let tiles = text.split(' ').nth(2).ok_or_else(|| bad("no tiles field".into()))?;
        let sides: Vec<Vec<&str>> = tiles.split('/').map(|s| s.split(',').collect()).collect();
        if sides.len() != 2 {
            return Err(bad("the tiles field is RED/BLACK".into()));
        }
        if !sides.iter().flatten().any(|t| *t == "0" || *t == "?") {
            return SkillGame::from_fen(preset, text);
        }
        let hidden: Vec<usize> = (0..2).filter(|&i| sides[i].contains(&"?")).collect();
        let viewer = match hidden.as_slice() {
            [] => None,
            [o] => Some(if *o == 0 { Color::Black } else { Color::Red }),
            _ => return Err(bad("both sides' tiles are hidden".into())),
        };
        let mut g = SkillGame::new(preset);
        for (i, side) in sides.iter().enumerate() {
            for t in side {
                if *t == "0" {
                    break;
                }
                if g.to_act().index() != i || !g.setup {
                    return Err(bad("tile choices out of order".into()));
                }
                let a = if *t == "?" {
                    g.legal.first().copied().ok_or_else(|| bad("no tile left".into()))?
                } else {
                    Action(SETUP_TAG | t.parse::<u8>().map_err(|_| bad(format!("{t:?} is not a tile")))? as u32)
                };
                if !g.legal.contains(&a) {
                    return Err(bad(format!("tile {t} is not a legal choice here")));
                }
                g.apply(a);
            }
        }
        let again = match viewer {
            Some(c) => g.view_fen(c),
            None => g.fen(),
        };
        if again != text {
            return Err(bad(format!("does not match the replayed set-up (expected {again:?})")));
        }
        Ok(g)
    }
}

impl Game for SkillGame {
    fn info(&self) -> GameInfo {
        game_info(self.preset.name, self.preset.rules.secret_setup)
    }

    fn turn(&self) -> Turn {
        if self.end.is_some() {
            Turn::Terminal
        } else {
            Turn::Player(player_of(self.to_act()))
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        out.extend_from_slice(&self.legal);
    }

    fn chance_outcomes_into(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
    }

    fn apply(&mut self, action: Action) {
        assert!(self.legal.contains(&action), "illegal action {action} in {}", self.fen());
        if action.0 >= SETUP_TAG {
            let c = self.to_act();
            let t = (action.0 & 0xFF) as u8;
            if let Some(slot) = self.pos.tiles[c.index()].iter_mut().find(|t| **t == 0) {
                *slot = t;
            }
            self.own_path[c.index()] = mix(self.own_path[c.index()], t as u64);
            if !self.preset.rules.secret_setup {
                self.public_path = mix(self.public_path, action.0 as u64);
            }
            self.plies += 1;
            if !self.pos.tiles[1].contains(&0) {
                self.setup = false;
                self.public_path = mix(mix(self.public_path, self.own_path[0]), self.own_path[1]);
                self.record = Record::new(self.pos.hash());
            }
            self.refresh();
            return;
        }
        self.public_path = mix(self.public_path, action.0 as u64);
        if action.0 >= REMOVE_TAG {
            let s = (action.0 & 0x7F) as u8;
            self.pos.remove(s);
            self.last_removed = Some(s);
            self.refresh();
            return;
        }
        let Some(m) = decode(action) else { return };
        let mover = self.pos.turn();
        let claim = self.pos.pending_victory();
        self.pos.play_unchecked(m);
        self.last_removed = None;
        self.plies += 1;
        let check = self.pos.in_check(mover.opponent());
        self.record.plies.push(Ply { hash: self.pos.hash(), mover, forbidden: check });
        // T16: the claimant's soldier survived this reply.
        if let Some(s) = claim {
            if self.pos.board().is(s, Piece::new(mover.opponent(), Kind::Soldier)) {
                self.end = Some(SkillEnd::VictorySoldier(mover.opponent()));
            }
        }
        self.refresh();
    }

    fn returns(&self, player: PlayerId) -> f64 {
        seat_return(self.end.and_then(SkillEnd::winner), player)
    }

    fn infoset_key(&self, player: PlayerId) -> u64 {
        let c = color_of(player);
        if self.setup && self.preset.rules.secret_setup {
            let n = self.pos.tiles[c.opponent().index()].iter().filter(|&&t| t != 0).count();
            mix(mix(self.own_path[c.index()], n as u64), 1 + c as u64)
        } else {
            mix(mix(self.public_path, self.own_path[c.index()]), 3 + c as u64)
        }
    }

    fn infoset_string(&self, player: PlayerId) -> String {
        let c = color_of(player);
        format!("{} #{:016x}", self.view_fen(c), self.infoset_key(player))
    }

    fn sample_determinization<R: Rng + ?Sized>(&self, player: PlayerId, rng: &mut R) -> Self {
        let c = color_of(player);
        let o = c.opponent();
        if !(self.setup && self.preset.rules.secret_setup) {
            return self.clone();
        }
        let n = self.pos.tiles[o.index()].iter().filter(|&&t| t != 0).count();
        if n == 0 {
            return self.clone();
        }
        let mut g = self.clone();
        let mut pool: Vec<TileId> = (1..=COUNT).collect();
        pool.shuffle(rng);
        g.own_path[o.index()] = if o == Color::Red { 0x711E_0000_0000_0001 } else { 0x711E_0000_0000_0002 };
        for (i, &t) in pool.iter().take(n).enumerate() {
            g.pos.tiles[o.index()][i] = t;
            g.own_path[o.index()] = mix(g.own_path[o.index()], t as u64);
        }
        g.refresh();
        g
    }

    fn action_string(&self, action: Action) -> String {
        if action.0 >= SETUP_TAG {
            let c = self.to_act();
            let i = self.pos.tiles[c.index()].iter().position(|&t| t == 0).unwrap_or(0);
            let sq = self.pos.recesses(c)[i];
            return format!("T{}@{}", action.0 & 0xFF, self.pos.geo().name(sq));
        }
        if action.0 >= REMOVE_TAG {
            return format!("-{}", self.pos.geo().name((action.0 & 0x7F) as u8));
        }
        decode(action).map(|m| fen::move_string(&self.pos, m)).unwrap_or_default()
    }
}

impl crate::search::Scored for SkillGame {
    fn eval_cp(&self, player: PlayerId) -> i32 {
        self.material(color_of(player))
    }

    /// The side to move's general attacked or facing (§1.3, T6 excepted), also in the middle of
    /// a turn's removals (§1.7).
    fn in_check(&self) -> bool {
        let me = self.pos.turn();
        !self.setup && self.end.is_none() && self.pos.general(me).is_some() && self.pos.in_check(me)
    }

    fn gain_cp(&self, action: Action) -> i32 {
        let b = self.pos.board();
        if (REMOVE_TAG..SETUP_TAG).contains(&action.0) {
            return b.get((action.0 & 0x7F) as u8).map_or(0, |p| p.kind.value());
        }
        let Some(m) = decode(action) else { return 0 };
        let tv = b.get(m.to).map_or(0, |p| p.kind.value());
        let mv = b.get(m.from).map_or(0, |p| p.kind.value());
        let promo = m.promote.map_or(0, |k| k.value() - Kind::Soldier.value());
        if m.exchange {
            tv - mv
        } else {
            tv + promo
        }
    }
}

/// Perft of whole turns (removal set, move), RULES.md §P with RULES-more.md §1.7's turn structure (on the
/// bitboards where the nodes allow, [`super::bits`]; the last ply counted without playing it).
pub fn perft(p: &SkillPosition, depth: u32) -> u64 {
    super::bits::perft(p, depth)
}

/// Calls `f` with the position after every turn from `p` (removals above `after`, then a move).
pub fn turns(p: &SkillPosition, after: Option<Sq>, f: &mut dyn FnMut(&SkillPosition)) {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    for m in moves {
        let mut q = p.clone();
        q.play_unchecked(m);
        f(&q);
    }
    if !p.river_occupied_by_opponent() {
        return;
    }
    for s in p.removable() {
        if after.is_some_and(|a| s <= a) {
            continue;
        }
        let mut q = p.clone();
        q.remove(s);
        turns(&q, Some(s), f);
    }
}
