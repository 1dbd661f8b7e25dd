//! The camel-xiangqi game state behind [`crate::game::Game`] (RULES-more.md §2.6, §2.12, §2.13).
//!
//! Perfect information (§2.13: fixed public trick and number layouts), no chance. End: no legal
//! action loses (checkmate, stalemate, or a captured general that cannot be redeemed, §2.6 /
//! §2.12); a third repetition draws unless one side checked on every move of the cycle (it
//! loses, [ASM] standard); 120 plies without capture draw; a ply horizon draws.
//!
//! # Action numbering
//! | code | meaning |
//! |---|---|
//! | `from | to << 7 | unit << 14 | promote << 15` | a move (promote: 0 none, 1 chariot, 2 horse, 3 cannon, 4 camel) |
//! | `0x0004_000d` | rotate (`d` = 1 clockwise, 0 anticlockwise) |
//! | `0x0008_000d` | translate in direction `d` (0 +file, 1 -file, 2 +rank, 3 -rank) |
//! | `0x000C_000b` | flip (`b` = 1 front-back, 0 left-right) |

use rand::Rng;

use super::fen;
use super::movegen::CAction;
use super::position::CamelPosition;
use super::rules::{CamelPreset, CamelRules};
use crate::game::{Action, ChanceMode, Game, GameInfo, Information, PlayerId, Turn, Utility};
use crate::more::history::{color_of, player_of, seat_return, Ply, Record};
use crate::more::piece::Kind;
use crate::more::MoreError;
use crate::piece::Color;

const TAG: u32 = 1 << 18;

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
            from as u32 | (to as u32) << 7 | (unit as u32) << 14 | pr << 15
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
            from: (c & 0x7F) as u8,
            to: (c >> 7 & 0x7F) as u8,
            unit: c >> 14 & 1 == 1,
            promote: match c >> 15 & 7 {
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
    pos: CamelPosition,
    record: Record,
    path: u64,
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
        Ok(CamelGame::from_position(preset, fen::parse(preset.rules, text)?))
    }

    fn from_position(preset: CamelPreset, pos: CamelPosition) -> CamelGame {
        let root = pos.hash();
        let mut g = CamelGame { preset, record: Record::new(root), path: 0x0C0C_1234_5678_9ABC ^ root, pos, plies: 0, max_plies: 400, legal: Vec::new(), end: None };
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

    fn refresh(&mut self) {
        self.legal.clear();
        self.end = None;
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
        GameInfo { name: self.preset.name, num_players: 2, chance: ChanceMode::Deterministic, information: Information::Perfect, utility: Utility::ZeroSum, min_utility: -1.0, max_utility: 1.0 }
    }

    fn turn(&self) -> Turn {
        if self.end.is_some() {
            Turn::Terminal
        } else {
            Turn::Player(player_of(self.pos.turn()))
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
        let Some(a) = decode(action) else { return };
        let mover = self.pos.turn();
        self.pos.play_unchecked(a);
        self.plies += 1;
        let check = self.pos.in_check(mover.opponent());
        self.record.plies.push(Ply { hash: self.pos.hash(), mover, forbidden: check });
        self.path = self.path.rotate_left(13) ^ (action.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.refresh();
    }

    fn returns(&self, player: PlayerId) -> f64 {
        seat_return(self.end.and_then(CamelEnd::winner), player)
    }

    fn infoset_key(&self, player: PlayerId) -> u64 {
        self.path ^ (player.index() as u64 + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9)
    }

    fn infoset_string(&self, player: PlayerId) -> String {
        format!("{} #{:016x}", self.fen(), self.infoset_key(player))
    }

    fn sample_determinization<R: Rng + ?Sized>(&self, _player: PlayerId, _rng: &mut R) -> Self {
        self.clone()
    }

    fn action_string(&self, action: Action) -> String {
        decode(action).map(|a| fen::action_string(&self.pos, a)).unwrap_or_default()
    }
}

impl crate::more::bots::Scored for CamelGame {
    fn eval_cp(&self, player: PlayerId) -> i32 {
        self.material(color_of(player))
    }

    fn gain_cp(&self, action: Action) -> i32 {
        match decode(action) {
            Some(CAction::Move { to, .. }) => self.pos.board().get(to).filter(|p| p.color != self.pos.turn()).map_or(0, |p| p.kind.value().min(2000)),
            _ => 0,
        }
    }
}

/// Perft (RULES.md §P): every legal action, plate actions included.
pub fn perft(p: &CamelPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut v = Vec::new();
    p.legal_actions(&mut v);
    if depth == 1 {
        return v.len() as u64;
    }
    v.into_iter()
        .map(|a| {
            let mut q = p.clone();
            q.play_unchecked(a);
            perft(&q, depth - 1)
        })
        .sum()
}
