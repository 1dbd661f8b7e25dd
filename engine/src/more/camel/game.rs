//! The camel-xiangqi game state behind [`crate::game::Game`] (RULES-more.md §2.6, §2.12, §2.13).
//!
//! Perfect information by default (§2.13: fixed public trick and number layouts), no chance.
//! Under the secret-layout option ([`CamelRules::secret_tricks`], preset `camel-7-secret`) the
//! game starts with a set-up phase: Red places a trick (or the blank) on each cell of its plate's
//! trick face in turn (owner-local cells, column-major from the back-left: action `K5@e0`, the
//! ninth cell takes the last tile), then Black does, unseen by Red (a simultaneous commit). A
//! layout stays hidden from the opponent until its plate is first flipped; infoset keys hide it
//! and [`Game::sample_determinization`] re-deals it (the secret part is [`super::secret`]). End: no legal
//! action loses (checkmate, stalemate, or a captured general that cannot be redeemed, §2.6 /
//! §2.12); a third repetition draws unless one side checked on every move of the cycle (it
//! loses, [ASM] standard); 120 plies without capture draw; a ply horizon draws.
//!
//! # Action numbering
//! | code | meaning |
//! |---|---|
//! | `from | to << 8 | unit << 16 | promote << 17` | a move (promote: 0 none, 1 chariot, 2 horse, 3 cannon, 4 camel) |
//! | `0x0010_000d` | rotate (`d` = 1 clockwise, 0 anticlockwise) |
//! | `0x0020_000d` | translate in direction `d` (0 +file, 1 -file, 2 +rank, 3 -rank) |
//! | `0x0030_000b` | flip (`b` = 1 front-back, 0 left-right) |
//! | `0x0040_000t` | secret set-up: trick `t` (1-8, 9 = the blank) on the next cell |

use rand::Rng;

use super::fen;
use super::movegen::CAction;
use super::position::{CamelPosition, Cell};
use super::rules::{CamelPreset, CamelRules};
use crate::game::{Action, Game, GameInfo, PlayerId, Turn};
use crate::more::history::{game_info, color_of, mix, player_of, seat_return, Ply, Record};
use crate::more::piece::Kind;
use crate::more::MoreError;
use crate::piece::Color;

const TAG: u32 = 1 << 20;
/// Set-up action codes: `SETUP | tile`.
pub(super) const SETUP: u32 = 4 * TAG;
/// The own paths before any placement.
pub(super) const OWN_ROOT: [u64; 2] = [0x5EED_0000_0000_0C01, 0x5EED_0000_0000_0C02];

/// How a camel game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CamelEnd {
    /// No legal action while in check (`winner` won).
    Checkmate(Color),
    /// The general was captured and cannot be redeemed (§2.6).
    GeneralCaptured(Color),
    /// No legal action, not in check.
    Stalemate(Color),
    /// Perpetual check lost.
    PerpetualCheck(Color),
    /// Third repetition.
    Repetition,
    /// No capture for the limit.
    NoCapture,
    /// Ply horizon.
    Horizon,
}

impl CamelEnd {
    /// The winner.
    pub fn winner(self) -> Option<Color> {
        match self {
            CamelEnd::Checkmate(c) | CamelEnd::GeneralCaptured(c) | CamelEnd::Stalemate(c) | CamelEnd::PerpetualCheck(c) => Some(c),
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
            CamelEnd::Checkmate(_) => "checkmate",
            CamelEnd::GeneralCaptured(_) => "general captured, no redemption",
            CamelEnd::Stalemate(_) => "stalemate",
            CamelEnd::PerpetualCheck(_) => "perpetual check",
            CamelEnd::Repetition => "repetition",
            CamelEnd::NoCapture => "no-capture rule",
            CamelEnd::Horizon => "ply limit",
        }
    }
}

/// The code of an action.
pub fn encode(a: CAction) -> Action {
    Action(match a {
        CAction::Move { from, to, unit, promote } => {
            let pr = match promote {
                None => 0,
                Some(Kind::Chariot) => 1,
                Some(Kind::Horse) => 2,
                Some(Kind::Cannon) => 3,
                Some(_) => 4,
            };
            from as u32 | (to as u32) << 8 | (unit as u32) << 16 | pr << 17
        }
        CAction::Rotate { cw } => TAG | cw as u32,
        CAction::Translate { dir } => (2 * TAG) | dir as u32,
        CAction::Flip { front_back } => (3 * TAG) | front_back as u32,
    })
}

/// The action of a code.
pub fn decode(a: Action) -> Option<CAction> {
    let c = a.0;
    Some(match c / TAG {
        0 => CAction::Move {
            from: (c & 0xFF) as u8,
            to: (c >> 8 & 0xFF) as u8,
            unit: c >> 16 & 1 == 1,
            promote: match c >> 17 & 7 {
                0 => None,
                1 => Some(Kind::Chariot),
                2 => Some(Kind::Horse),
                3 => Some(Kind::Cannon),
                4 => Some(Kind::Camel),
                _ => return None,
            },
        },
        1 => CAction::Rotate { cw: c & 1 == 1 },
        2 => CAction::Translate { dir: (c & 3) as u8 },
        3 => CAction::Flip { front_back: c & 1 == 1 },
        _ => return None,
    })
}

/// A camel-xiangqi game; see the module documentation.
#[derive(Clone, Debug)]
pub struct CamelGame {
    preset: CamelPreset,
    pub(super) pos: CamelPosition,
    pub(super) record: Record,
    /// The public history (actions, and layouts as flips reveal them).
    pub(super) path: u64,
    /// The secret set-up (§2.13): tiles placed so far by Red and Black, in cell order.
    pub(super) setup: Option<[Vec<Cell>; 2]>,
    /// Each side's trick layout as placed (owner-local cells, column-major), secret games only.
    pub(super) layouts: [Option<[Cell; 9]>; 2],
    /// What each side alone knows: its own placements.
    pub(super) own_path: [u64; 2],
    plies: u32,
    max_plies: u32,
    legal: Vec<Action>,
    end: Option<CamelEnd>,
}

impl CamelGame {
    /// A new game from the edition's start.
    pub fn new(preset: CamelPreset) -> CamelGame {
        CamelGame::from_position(preset, CamelPosition::start(preset.rules))
    }

    /// A game of a named preset.
    ///
    /// # Errors
    /// [`MoreError::UnknownPreset`].
    pub fn preset(name: &str) -> Result<CamelGame, MoreError> {
        Ok(CamelGame::new(CamelRules::preset(name)?))
    }

    /// A game from a FEN.
    ///
    /// # Errors
    /// [`MoreError::Fen`].
    pub fn from_fen(preset: CamelPreset, text: &str) -> Result<CamelGame, MoreError> {
        let pos = fen::parse(preset.rules, text)?;
        super::secret::check_faces(&pos)?;
        let g = CamelGame::from_position(preset, pos);
        g.check_setup_position(preset)?;
        Ok(g)
    }

    fn from_position(preset: CamelPreset, pos: CamelPosition) -> CamelGame {
        let root = pos.hash();
        let mut g = CamelGame {
            preset,
            record: Record::new(root),
            path: 0x0C0C_1234_5678_9ABC ^ root,
            setup: None,
            layouts: [None, None],
            own_path: OWN_ROOT,
            pos,
            plies: 0,
            max_plies: 400,
            legal: Vec::new(),
            end: None,
        };
        g.adopt_layouts();
        // The public path starts from what both players see (secret cells hidden), not from
        // the full hash: a FEN's secret layouts would otherwise enter the other side's key.
        g.path = 0x0C0C_1234_5678_9ABC ^ g.public_hash();
        g.refresh();
        g
    }

    /// With a ply horizon of `n` (default 400).
    pub fn with_max_plies(mut self, n: u32) -> CamelGame {
        self.max_plies = n;
        self.refresh();
        self
    }

    /// The position.
    pub fn position(&self) -> &CamelPosition {
        &self.pos
    }
    /// Plies played (set-up placements and actions).
    pub fn plies(&self) -> u32 {
        self.plies
    }
    /// How the game ended.
    pub fn end(&self) -> Option<CamelEnd> {
        self.end
    }
    /// The FEN.
    pub fn fen(&self) -> String {
        fen::write(&self.pos)
    }

    /// Plays an action given by its string.
    ///
    /// # Errors
    /// [`MoreError::Move`].
    pub fn play_str(&mut self, text: &str) -> Result<(), MoreError> {
        let a = self.legal.iter().copied().find(|&a| self.action_string(a) == text.trim()).ok_or_else(|| MoreError::Move(format!("{text:?} is not legal here")))?;
        self.apply(a);
        Ok(())
    }

    pub(super) fn refresh(&mut self) {
        self.legal.clear();
        self.end = None;
        if let Some(c) = self.placing() {
            self.legal.extend(self.free_tiles(c).into_iter().map(|t| Action(SETUP | t as u32)));
            return;
        }
        if self.plies >= self.max_plies {
            self.end = Some(CamelEnd::Horizon);
            return;
        }
        if let Some(e) = self.repetition() {
            self.end = Some(e);
            return;
        }
        let mut acts = Vec::new();
        self.pos.legal_actions(&mut acts);
        self.legal.extend(acts.into_iter().map(encode));
        self.legal.sort_unstable();
        if self.legal.is_empty() {
            let me = self.pos.turn();
            self.end = Some(if self.pos.redeem().is_some() {
                CamelEnd::GeneralCaptured(me.opponent())
            } else if self.pos.in_check(me) {
                CamelEnd::Checkmate(me.opponent())
            } else {
                CamelEnd::Stalemate(me.opponent())
            });
            return;
        }
        if let Some(limit) = self.pos.rules().no_capture_plies {
            if self.pos.halfmove() >= limit && self.pos.redeem().is_none() {
                self.end = Some(CamelEnd::NoCapture);
                self.legal.clear();
            }
        }
    }

    fn repetition(&self) -> Option<CamelEnd> {
        let loser = self.record.threefold(self.pos.halfmove())?;
        Some(match loser {
            Some(c) if self.pos.rules().ban_perpetual_check => CamelEnd::PerpetualCheck(c.opponent()),
            _ => CamelEnd::Repetition,
        })
    }

    /// Material from `c`'s view.
    pub fn material(&self, c: Color) -> i32 {
        let b = self.pos.board();
        let mut v = 0;
        for (s, p) in b.pieces() {
            for q in [Some(p), self.pos.under(s)].into_iter().flatten() {
                if q.kind != Kind::General {
                    v += if q.color == c { q.kind.value() } else { -q.kind.value() };
                }
            }
        }
        v
    }
}

impl Game for CamelGame {
    fn info(&self) -> GameInfo {
        game_info(self.preset.name, self.preset.rules.secret_tricks)
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
        if self.setup.is_some() {
            self.place(action.0 & 0xF);
            self.plies += 1;
            self.refresh();
            return;
        }
        let Some(a) = decode(action) else { return };
        let mover = self.pos.turn();
        let revealing = matches!(a, CAction::Flip { .. }) && self.hidden(mover);
        self.pos.play_unchecked(a);
        self.plies += 1;
        let check = self.pos.in_check(mover.opponent());
        self.record.plies.push(Ply { hash: self.record_hash(), mover, forbidden: check });
        self.path = self.path.rotate_left(13) ^ (action.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        if revealing {
            // §2.13: the flip shows the secret layout to both players.
            let face = self.pos.plates[mover.index()].up;
            self.path = face.iter().flatten().fold(self.path, |h, &c| mix(h, c as u64));
        }
        self.refresh();
    }

    fn returns(&self, player: PlayerId) -> f64 {
        seat_return(self.end.and_then(CamelEnd::winner), player)
    }

    fn infoset_key(&self, player: PlayerId) -> u64 {
        let c = color_of(player);
        match &self.setup {
            Some(placed) => mix(mix(self.own_path[c.index()], placed[c.opponent().index()].len() as u64), 1 + c as u64),
            None => mix(mix(self.path, self.own_path[c.index()]), 3 + c as u64),
        }
    }

    fn infoset_string(&self, player: PlayerId) -> String {
        format!("{} #{:016x}", self.view_fen(color_of(player)), self.infoset_key(player))
    }

    fn sample_determinization<R: Rng + ?Sized>(&self, player: PlayerId, rng: &mut R) -> Self {
        self.redeal(color_of(player).opponent(), rng)
    }

    fn action_string(&self, action: Action) -> String {
        match decode(action) {
            Some(a) => fen::action_string(&self.pos, a),
            None => self.setup_string(action),
        }
    }
}

impl crate::search::Scored for CamelGame {
    fn eval_cp(&self, player: PlayerId) -> i32 {
        self.material(color_of(player))
    }

    /// The side to move's general capturable or facing ([`CamelPosition::in_check`], §2.5 and the
    /// redemption rule).
    fn in_check(&self) -> bool {
        let me = self.pos.turn();
        self.setup.is_none() && self.end.is_none() && self.pos.general(me).is_some() && self.pos.in_check(me)
    }

    fn gain_cp(&self, action: Action) -> i32 {
        match decode(action) {
            Some(CAction::Move { to, .. }) => self.pos.board().get(to).filter(|p| p.color != self.pos.turn()).map_or(0, |p| p.kind.value().min(2000)),
            _ => 0,
        }
    }
}

/// Perft (RULES.md §P): every legal action, plate actions included (on the bitboards where the
/// nodes allow, [`super::bits`]).
pub fn perft(p: &CamelPosition, depth: u32) -> u64 {
    super::bits::perft(p, depth)
}
