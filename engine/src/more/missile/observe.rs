//! The observation tensor and action index of missile xiangqi ([`crate::observe::Observe`],
//! docs/encoding.md "Missile xiangqi"): 38 planes on the 11 x 10 board (RULES-more.md §3.2),
//! from the observer's side; the opponent's hidden placements (§3.8 set-up) and the kinds of its
//! face-down pieces (§3.8 alternative reading) never reach the tensor, only what the observer's
//! view FEN holds (the face-down squares and the pool of hidden kinds).

use super::facedown::{self, FaceDown};
use super::game::{decode, encode, MissileGame, SETUP_TAG};
use super::position::MMove;
use crate::game::{Action, PlayerId};
use crate::more::observe::{color, kind_planes, move_slot, slot_move, Frame, ObserveAll, Planes};
use crate::more::piece::Kind;
use crate::observe::{Encoding, Observe, PolicyShape};
use crate::piece::Color;

/// Version of the missile encoding (docs/encoding.md); bumped on any change of planes or slots.
pub const VERSION: u32 = 1;

/// The piece kinds of missile xiangqi in plane order (§3.3).
pub const KINDS: [Kind; 9] =
    [Kind::General, Kind::Advisor, Kind::Elephant, Kind::Horse, Kind::Chariot, Kind::Cannon, Kind::Soldier, Kind::Fighter, Kind::Missile];
const KIND_PLANE: [u8; 11] = kind_planes(KINDS);
/// The kinds a side places in a hidden set-up (§3.8), in belief-plane order.
pub const FREE: [Kind; 5] = [Kind::Chariot, Kind::Horse, Kind::Cannon, Kind::Fighter, Kind::Soldier];

/// Own pieces by kind (9 planes).
pub const OWN: usize = 0;
/// Opponent pieces whose kind the observer knows, by kind (9 planes).
pub const OPP: usize = 9;
/// Own face-down pieces.
pub const OWN_DOWN: usize = 18;
/// Opponent face-down pieces.
pub const OPP_DOWN: usize = 19;
/// Opponent face-down kinds as the observer knows them, [`FREE`] order (5 planes).
pub const OPP_BELIEF: usize = 20;
/// The observer's next piece to place, [`FREE`] order (5 constant planes).
pub const NEXT_PLACE: usize = 25;
/// Constant: the set-up phase.
pub const SETUP: usize = 30;
/// Constant: opponent placements made / the set-up order's length.
pub const OPP_PLACED: usize = 31;
/// Constant: the observer is Red.
pub const IS_RED: usize = 32;
/// Constant: plies without removal / the no-capture limit (0 without one).
pub const NO_CAPTURE: usize = 33;
/// Constant: plies played / 400, at most 1.
pub const PLIES: usize = 34;
/// Constant: the side to move is in check as announced (face-up checkers only under face-down).
pub const IN_CHECK: usize = 35;
/// Constant: the observer is the one to act.
pub const TO_ACT: usize = 36;
/// Constant ones.
pub const ONES: usize = 37;
/// Planes in all.
pub const PLANES: usize = 38;

impl MissileGame {
    /// Writes `player`'s observation; with `all`, also what the opponent hides (open twin).
    fn write_observation(&self, player: PlayerId, all: bool, out: &mut [f32]) {
        let pos = self.position();
        let geo = pos.geo();
        let me = color(player);
        let o = me.opponent();
        let frame = Frame::new(geo, me);
        let mut w = Planes::new(out, Frame::shape(geo, PLANES));
        let setup = self.setup_state();
        let face = self.face();
        // During the set-up the opponent's placements are secret (§3.8).
        let secret: &[u8] = match setup {
            Some((_, placed)) if !all => &placed[o.index()],
            _ => &[],
        };
        let down = |s| face.is_some_and(|f: &FaceDown| f.is_down(s));
        for (s, p) in pos.board().pieces() {
            let pt = frame.point(s);
            let k = KIND_PLANE[p.kind.index()] as usize;
            if p.color == me {
                w.set(OWN + k, pt, 1.0);
                if down(s) {
                    w.set(OWN_DOWN, pt, 1.0);
                }
            } else if secret.contains(&s) {
                continue;
            } else if down(s) {
                w.set(OPP_DOWN, pt, 1.0);
                if all {
                    w.set(OPP + k, pt, 1.0);
                    if let Some(b) = FREE.iter().position(|&x| x == p.kind) {
                        w.set(OPP_BELIEF + b, pt, 1.0);
                    }
                }
            } else {
                w.set(OPP + k, pt, 1.0);
            }
        }
        if let (Some(f), false) = (face, all) {
            // The opponent's face-down kinds as its view FEN gives them: the squares only
            // soldiers could be placed on hold soldiers; the rest share the pool's other kinds.
            let squares = f.squares(pos, o);
            let (front, back): (Vec<u8>, Vec<u8>) =
                squares.iter().partition(|&&s| facedown::rel_rank(pos, s, o) >= facedown::setup_depth(Kind::Chariot));
            let soldier = FREE.iter().position(|&k| k == Kind::Soldier).unwrap_or(4);
            for &s in &front {
                w.set(OPP_BELIEF + soldier, frame.point(s), 1.0);
            }
            let mut counts = [0usize; 5];
            let mut left_soldiers = front.len();
            for k in f.pool(pos, o) {
                if k == Kind::Soldier && left_soldiers > 0 {
                    left_soldiers -= 1;
                } else if let Some(b) = FREE.iter().position(|&x| x == k) {
                    counts[b] += 1;
                }
            }
            let n = back.len().max(1) as f32;
            for &s in &back {
                for (b, &c) in counts.iter().enumerate() {
                    if c > 0 {
                        w.set(OPP_BELIEF + b, frame.point(s), c as f32 / n);
                    }
                }
            }
        }
        if let Some((order, placed)) = setup {
            w.fill(SETUP, 1.0);
            if let Some(&k) = order.get(placed[me.index()].len()) {
                if let Some(b) = FREE.iter().position(|&x| x == k) {
                    w.fill(NEXT_PLACE + b, 1.0);
                }
            }
            w.fill(OPP_PLACED, placed[o.index()].len() as f32 / order.len().max(1) as f32);
        }
        if me == Color::Red {
            w.fill(IS_RED, 1.0);
        }
        if let Some(limit) = pos.rules().no_capture_plies {
            w.fill(NO_CAPTURE, (pos.halfmove() as f32 / limit.max(1) as f32).min(1.0));
        }
        w.fill(PLIES, (self.plies() as f32 / 400.0).min(1.0));
        if self.check_announced() {
            w.fill(IN_CHECK, 1.0);
        }
        if self.to_act() == me {
            w.fill(TO_ACT, 1.0);
        }
        w.fill(ONES, 1.0);
    }
}

impl Observe for MissileGame {
    /// `missile` v1: [`PLANES`] x ranks x files; `points + 1` board channels (a move: channel
    /// `to`, at point `from`; a set-up placement: channel `points`, at its point), no extra slot.
    fn encoding(&self) -> Encoding {
        let geo = self.position().geo();
        Encoding {
            game: "missile".into(),
            version: VERSION,
            observation: Frame::shape(geo, PLANES),
            policy: PolicyShape { board_channels: geo.len() + 1, extra: 0 },
        }
    }

    fn observe_into(&self, player: PlayerId, out: &mut [f32]) {
        self.write_observation(player, false, out);
    }

    fn action_index(&self, action: Action) -> usize {
        let frame = Frame::new(self.position().geo(), self.to_act());
        let n = frame.points();
        match decode(action) {
            Some(m) => move_slot(n, 0, frame.point(m.from), frame.point(m.to)),
            None => move_slot(n, 1, 0, 0) + frame.point((action.0 & 0x7F) as u8),
        }
    }

    fn index_action(&self, index: usize) -> Option<Action> {
        let frame = Frame::new(self.position().geo(), self.to_act());
        let n = frame.points();
        if let Some((_, from, to)) = slot_move(n, 1, index) {
            return Some(encode(MMove { from: frame.square(from)?, to: frame.square(to)? }));
        }
        let sq = frame.square(index.checked_sub(n * n)?)?;
        Some(Action(SETUP_TAG | sq as u32))
    }
}

impl ObserveAll for MissileGame {
    fn observe_all_into(&self, player: PlayerId, out: &mut [f32]) {
        self.write_observation(player, true, out);
    }
}
