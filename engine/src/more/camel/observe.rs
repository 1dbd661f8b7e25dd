//! The observation tensor and action index of camel xiangqi ([`crate::observe::Observe`],
//! docs/encoding.md "Camel xiangqi"): 104 planes on the edition's board (11, 13 or 15 files x 10
//! ranks, or 11 ranks with the river row, RULES-more.md §2.3, §2.14 #1 and #12), from the
//! observer's side: top and bottom pieces of stacks (§2.10), both plates with both faces
//! (§2.7-§2.11) and the per-side memory of the position. The only hidden part of the game, the
//! opponent's secret trick layout (§2.13) before its plate is first flipped, never reaches the
//! tensor: its cells are marked "hidden", in place (rotations are public).

use super::game::{decode, encode, CamelGame, SETUP};
use super::movegen::CAction;
use super::position::{Cell, LastAct, BLANK, NUMBER, UNSET};
use crate::game::{Action, PlayerId};
use crate::more::observe::{color, kind_planes, move_slot, slot_move, Frame, ObserveAll, Planes};
use crate::more::piece::Kind;
use crate::observe::{Encoding, Observe, PolicyShape};
use crate::piece::Color;

/// Version of the camel encoding (docs/encoding.md); bumped on any change of planes or slots.
pub const VERSION: u32 = 1;

/// The piece kinds of camel xiangqi in plane order (§0.3, §2.4).
pub const KINDS: [Kind; 9] =
    [Kind::General, Kind::Advisor, Kind::Elephant, Kind::Horse, Kind::Chariot, Kind::Cannon, Kind::Soldier, Kind::Camel, Kind::Chancellor];
const KIND_PLANE: [u8; 11] = kind_planes(KINDS);

/// Own top pieces by kind (9 planes; a lone piece is a top piece).
pub const OWN: usize = 0;
/// Opponent top pieces by kind (9 planes).
pub const OPP: usize = 9;
/// Own bottom pieces of stacks by kind (9 planes, §2.10).
pub const OWN_UNDER: usize = 18;
/// Opponent bottom pieces of stacks by kind (9 planes).
pub const OPP_UNDER: usize = 27;
/// The observer's plate ([`PLATE_PLANES`] planes, offsets as listed there).
pub const OWN_PLATE: usize = 36;
/// The opponent's plate ([`PLATE_PLANES`] planes).
pub const OPP_PLATE: usize = 59;
/// Planes per plate: +0 the plate's squares; +1..+9 the visible face's trick K1..K8 and the
/// blank; +10 its number / 9; +11..+19 the face beneath, trick K1..K8 and blank; +20 its number
/// / 9; +21 a cell beneath the observer cannot see (§2.13); +22 a cell beneath not placed yet.
pub const PLATE_PLANES: usize = 23;
/// Constant: the observer's plate was flipped at least once.
pub const OWN_FLIPPED: usize = 82;
/// Constant: the opponent's plate was flipped at least once.
pub const OPP_FLIPPED: usize = 83;
/// Constant: the observer's last own action was a rotation or translation (editions 3-4).
pub const OWN_LAST_PALACE: usize = 84;
/// Constant: the observer's last own action was a flip (edition 7).
pub const OWN_LAST_FLIP: usize = 85;
/// Constant: the opponent's last action was a rotation or translation.
pub const OPP_LAST_PALACE: usize = 86;
/// Constant: the opponent's last action was a flip.
pub const OPP_LAST_FLIP: usize = 87;
/// The square where the side to move's general was just captured (§2.6 redemption pending).
pub const REDEEM: usize = 88;
/// The observer's soldier in its K3 second promotion window.
pub const OWN_PROMO: usize = 89;
/// The opponent's soldier in its K3 second promotion window.
pub const OPP_PROMO: usize = 90;
/// Constant: the observer's soldiers are frozen (§2.11).
pub const OWN_FROZEN: usize = 91;
/// Constant: the opponent's soldiers are frozen.
pub const OPP_FROZEN: usize = 92;
/// Constant: the observer has an active trick (§2.9).
pub const OWN_TRICK: usize = 93;
/// Constant: the opponent has an active trick.
pub const OPP_TRICK: usize = 94;
/// Constant: the observer is Red.
pub const IS_RED: usize = 95;
/// Constant: plies without capture / the no-capture limit (0 without one).
pub const NO_CAPTURE: usize = 96;
/// Constant: plies played / 400, at most 1.
pub const PLIES: usize = 97;
/// Constant: the secret set-up phase (§2.13).
pub const SETUP_PHASE: usize = 98;
/// Constant: own trick tiles placed / 9.
pub const OWN_PLACED: usize = 99;
/// Constant: opponent trick tiles placed / 9.
pub const OPP_PLACED: usize = 100;
/// Constant: the side to move is in check.
pub const IN_CHECK: usize = 101;
/// Constant: the observer is the one to act.
pub const TO_ACT: usize = 102;
/// Constant ones.
pub const ONES: usize = 103;
/// Planes in all.
pub const PLANES: usize = 104;

/// Move kinds of the board block: plain, whole stack (§2.10), K3 promotion to chariot, horse,
/// cannon, camel.
const MOVE_KINDS: usize = 6;
const PROMOTIONS: [Kind; 4] = [Kind::Chariot, Kind::Horse, Kind::Cannon, Kind::Camel];
/// Extra slots: rotate (2), translate (4), flip (2), set-up tile K1..K8 and the blank (9).
const EXTRA: usize = 17;
const TRANSLATE: usize = 2;
const FLIP: usize = 6;
const TILE: usize = 8;

impl CamelGame {
    /// Writes `player`'s observation; with `all`, also the opponent's secret layout (open twin).
    fn write_observation(&self, player: PlayerId, all: bool, out: &mut [f32]) {
        let pos = self.position();
        let geo = pos.geo();
        let me = color(player);
        let o = me.opponent();
        let frame = Frame::new(geo, me);
        let mut w = Planes::new(out, Frame::shape(geo, PLANES));
        for (s, p) in pos.board().pieces() {
            let pt = frame.point(s);
            let k = KIND_PLANE[p.kind.index()] as usize;
            w.set(if p.color == me { OWN } else { OPP } + k, pt, 1.0);
            if let Some(u) = pos.under(s) {
                w.set(if u.color == me { OWN_UNDER } else { OPP_UNDER } + KIND_PLANE[u.kind.index()] as usize, pt, 1.0);
            }
        }
        for (c, base) in [(me, OWN_PLATE), (o, OPP_PLATE)] {
            let plate = pos.plate(c);
            let hide = c == o && !all && self.hidden(o);
            for col in 0..3u8 {
                for row in 0..3u8 {
                    let pt = frame.point(pos.cell_square(c, col, row));
                    w.set(base, pt, 1.0);
                    cell(&mut w, base + 1, pt, plate.up[col as usize][row as usize]);
                    let beneath = plate.down[col as usize][row as usize];
                    if beneath == UNSET {
                        w.set(base + 22, pt, 1.0);
                    } else if hide {
                        w.set(base + 21, pt, 1.0);
                    } else {
                        cell(&mut w, base + 11, pt, beneath);
                    }
                }
            }
        }
        for (c, flipped, palace, flip, promo, frozen, trick) in
            [(me, OWN_FLIPPED, OWN_LAST_PALACE, OWN_LAST_FLIP, OWN_PROMO, OWN_FROZEN, OWN_TRICK), (o, OPP_FLIPPED, OPP_LAST_PALACE, OPP_LAST_FLIP, OPP_PROMO, OPP_FROZEN, OPP_TRICK)]
        {
            let i = c.index();
            if pos.flips[i] > 0 {
                w.fill(flipped, 1.0);
            }
            match pos.last_act[i] {
                LastAct::Piece => {}
                LastAct::Palace => w.fill(palace, 1.0),
                LastAct::Flip => w.fill(flip, 1.0),
            }
            if let Some(s) = pos.promo_window[i] {
                w.set(promo, frame.point(s), 1.0);
            }
            if pos.frozen(c) {
                w.fill(frozen, 1.0);
            }
            if pos.trick(c).is_some() {
                w.fill(trick, 1.0);
            }
        }
        if let Some(s) = pos.redeem() {
            w.set(REDEEM, frame.point(s), 1.0);
        }
        if me == Color::Red {
            w.fill(IS_RED, 1.0);
        }
        if let Some(limit) = pos.rules().no_capture_plies {
            w.fill(NO_CAPTURE, (pos.halfmove() as f32 / limit.max(1) as f32).min(1.0));
        }
        w.fill(PLIES, (self.plies() as f32 / 400.0).min(1.0));
        match &self.setup {
            Some(placed) => {
                w.fill(SETUP_PHASE, 1.0);
                w.fill(OWN_PLACED, placed[me.index()].len() as f32 / 9.0);
                w.fill(OPP_PLACED, placed[o.index()].len() as f32 / 9.0);
            }
            None => {
                if pos.in_check(pos.turn()) {
                    w.fill(IN_CHECK, 1.0);
                }
            }
        }
        if self.to_act() == me {
            w.fill(TO_ACT, 1.0);
        }
        w.fill(ONES, 1.0);
    }

    /// The extra slot of a plate action (rotate, translate, flip) for the acting side, in its
    /// frame: Black's frame is the board turned 180°, so its `+file` is `-file` and its `+rank`
    /// is `-rank` (turns and flips look the same).
    fn plate_slot(&self, a: CAction) -> usize {
        let black = self.to_act() == Color::Black;
        match a {
            CAction::Rotate { cw } => usize::from(!cw),
            CAction::Translate { dir } => TRANSLATE + if black { dir as usize ^ 1 } else { dir as usize },
            CAction::Flip { front_back } => FLIP + usize::from(front_back),
            CAction::Move { .. } => 0,
        }
    }
}

/// Writes face cell `x` at `pt`: trick K1..K8 and the blank on planes `base..base + 9`, a number
/// on `base + 9` as n / 9; a plain cell writes nothing.
fn cell(w: &mut Planes<'_>, base: usize, pt: usize, x: Cell) {
    if (1..=BLANK).contains(&x) {
        w.set(base + x as usize - 1, pt, 1.0);
    } else if x > NUMBER && x <= NUMBER + 9 {
        w.set(base + 9, pt, (x - NUMBER) as f32 / 9.0);
    }
}

impl Observe for CamelGame {
    /// `camel` v1: [`PLANES`] x ranks x files; `6 * points` board channels (a move of kind
    /// plain, whole stack, promotion to chariot, horse, cannon, camel: channel `kind * points +
    /// to`, at point `from`), then 17 extra slots: rotate clockwise, anticlockwise; translate
    /// towards the acting side's right (+file in its frame), left, forwards, backwards; flip
    /// left-right, front-back; set-up tile K1..K8, the blank.
    fn encoding(&self) -> Encoding {
        let geo = self.position().geo();
        Encoding {
            game: "camel".into(),
            version: VERSION,
            observation: Frame::shape(geo, PLANES),
            policy: PolicyShape { board_channels: MOVE_KINDS * geo.len(), extra: EXTRA },
        }
    }

    fn observe_into(&self, player: PlayerId, out: &mut [f32]) {
        self.write_observation(player, false, out);
    }

    fn action_index(&self, action: Action) -> usize {
        let frame = Frame::new(self.position().geo(), self.to_act());
        let n = frame.points();
        let board = MOVE_KINDS * n * n;
        match decode(action) {
            Some(CAction::Move { from, to, unit, promote }) => {
                debug_assert!(!(unit && promote.is_some()), "a stack never promotes");
                let kind = match promote {
                    _ if unit => 1,
                    None => 0,
                    Some(k) => 2 + PROMOTIONS.iter().position(|&x| x == k).unwrap_or(0),
                };
                move_slot(n, kind, frame.point(from), frame.point(to))
            }
            Some(a) => board + self.plate_slot(a),
            None => board + TILE + (action.0 & 0xF) as usize - 1,
        }
    }

    fn index_action(&self, index: usize) -> Option<Action> {
        let frame = Frame::new(self.position().geo(), self.to_act());
        let n = frame.points();
        if let Some((kind, from, to)) = slot_move(n, MOVE_KINDS, index) {
            let (unit, promote) = match kind {
                0 => (false, None),
                1 => (true, None),
                k => (false, Some(PROMOTIONS[k - 2])),
            };
            return Some(encode(CAction::Move { from: frame.square(from)?, to: frame.square(to)?, unit, promote }));
        }
        let x = index - MOVE_KINDS * n * n;
        let black = self.to_act() == Color::Black;
        let a = match x {
            0 | 1 => CAction::Rotate { cw: x == 0 },
            2..=5 => {
                let d = (x - TRANSLATE) as u8;
                CAction::Translate { dir: if black { d ^ 1 } else { d } }
            }
            6 | 7 => CAction::Flip { front_back: x == 7 },
            8..=16 => return Some(Action(SETUP | (x - TILE + 1) as u32)),
            _ => return None,
        };
        Some(encode(a))
    }
}

impl ObserveAll for CamelGame {
    fn observe_all_into(&self, player: PlayerId, out: &mut [f32]) {
        self.write_observation(player, true, out);
    }
}
