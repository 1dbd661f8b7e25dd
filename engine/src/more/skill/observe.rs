//! The observation tensor and action index of skill-tile xiangqi ([`crate::observe::Observe`],
//! docs/encoding.md "Skill-tile xiangqi"): 105 planes on board A (9 x 11, river row) or board B
//! (9 x 10), RULES-more.md §1.2, from the observer's side. The only hidden part of the game, the
//! opponent's tile choices during the secret set-up (§1.9), never reaches the tensor: only how
//! many the opponent has chosen.

use super::game::{decode, encode, SkillGame, REMOVE_TAG, SETUP_TAG};
use super::position::SMove;
use super::tiles::COUNT;
use crate::game::{Action, PlayerId};
use crate::more::observe::{color, kind_planes, move_slot, slot_move, Frame, ObserveAll, Planes};
use crate::more::piece::Kind;
use crate::observe::{Encoding, Observe, PolicyShape};
use crate::piece::Color;

/// Version of the skill encoding (docs/encoding.md); bumped on any change of planes or slots.
pub const VERSION: u32 = 1;

/// The piece kinds of skill-tile xiangqi in plane order (the baseline seven, §0.3).
pub const KINDS: [Kind; 7] = [Kind::General, Kind::Advisor, Kind::Elephant, Kind::Horse, Kind::Chariot, Kind::Cannon, Kind::Soldier];
const KIND_PLANE: [u8; 11] = kind_planes(KINDS);
const TILES: usize = COUNT as usize;

/// Own pieces by kind (7 planes).
pub const OWN: usize = 0;
/// Opponent pieces by kind (7 planes).
pub const OPP: usize = 7;
/// Own tiles T1..T32 on their recesses (32 planes, §1.5).
pub const OWN_TILES: usize = 14;
/// Opponent tiles T1..T32 the observer has seen (32 planes).
pub const OPP_TILES: usize = 46;
/// Own recesses without a tile yet (set-up).
pub const OWN_EMPTY: usize = 78;
/// Opponent recesses without a tile yet.
pub const OPP_EMPTY: usize = 79;
/// Opponent recesses holding a tile the observer has not seen (secret set-up, §1.9).
pub const OPP_UNSEEN: usize = 80;
/// Constant: the observer's tile is active (§1.5: under its general, not neutralised).
pub const OWN_ACTIVE: usize = 81;
/// Constant: the opponent's tile is active.
pub const OPP_ACTIVE: usize = 82;
/// The piece the side not to move moved last (stagnation exclusion §1.7, T23).
pub const LAST_MOVED: usize = 83;
/// Constant: that piece's kind, [`KINDS`] order (7 planes; T23 imitation).
pub const LAST_KIND: usize = 84;
/// Constant: that last move went along the river row (§1.10 #4 strict flag).
pub const ALONG_RIVER: usize = 91;
/// The observer's soldier in its T31 second promotion window.
pub const OWN_PROMO: usize = 92;
/// The opponent's soldier in its T31 second promotion window.
pub const OPP_PROMO: usize = 93;
/// The pending T16 victory soldier (§1.6.1).
pub const VICTORY: usize = 94;
/// The square of the stagnating piece removed last this turn (§1.7).
pub const REMOVED: usize = 95;
/// Constant: a removal was made this turn (the move is still to come).
pub const MID_TURN: usize = 96;
/// Constant: the observer is Red.
pub const IS_RED: usize = 97;
/// Constant: plies without removal / the no-capture limit (0 without one).
pub const NO_CAPTURE: usize = 98;
/// Constant: plies played / 400, at most 1.
pub const PLIES: usize = 99;
/// Constant: the tile set-up phase.
pub const SETUP: usize = 100;
/// Constant: opponent tiles chosen / 8.
pub const OPP_CHOSEN: usize = 101;
/// Constant: the side to move is in check.
pub const IN_CHECK: usize = 102;
/// Constant: the observer is the one to act.
pub const TO_ACT: usize = 103;
/// Constant ones.
pub const ONES: usize = 104;
/// Planes in all.
pub const PLANES: usize = 105;

/// Move kinds of the board block: plain, exchange (兑), T31 promotion to chariot, horse, cannon.
const MOVE_KINDS: usize = 5;
const PROMOTIONS: [Kind; 3] = [Kind::Chariot, Kind::Horse, Kind::Cannon];

impl SkillGame {
    /// Writes `player`'s observation; with `all`, also the opponent's secret tiles (open twin).
    fn write_observation(&self, player: PlayerId, all: bool, out: &mut [f32]) {
        let pos = self.position();
        let geo = pos.geo();
        let me = color(player);
        let o = me.opponent();
        let frame = Frame::new(geo, me);
        let mut w = Planes::new(out, Frame::shape(geo, PLANES));
        let setup = self.in_setup();
        let secret = setup && pos.rules().secret_setup && !all;
        for (s, p) in pos.board().pieces() {
            let base = if p.color == me { OWN } else { OPP };
            w.set(base + KIND_PLANE[p.kind.index()] as usize, frame.point(s), 1.0);
        }
        for (c, tiles, empty) in [(me, OWN_TILES, OWN_EMPTY), (o, OPP_TILES, OPP_EMPTY)] {
            let hide = c == o && secret;
            for (&s, &t) in pos.recesses(c).iter().zip(pos.tiles(c).iter()) {
                let pt = frame.point(s);
                if t == 0 {
                    w.set(empty, pt, 1.0);
                } else if hide {
                    w.set(OPP_UNSEEN, pt, 1.0);
                } else if (1..=TILES).contains(&(t as usize)) {
                    w.set(tiles + t as usize - 1, pt, 1.0);
                }
            }
        }
        if !setup {
            if pos.active(me).is_some() {
                w.fill(OWN_ACTIVE, 1.0);
            }
            if pos.active(o).is_some() {
                w.fill(OPP_ACTIVE, 1.0);
            }
            if pos.in_check(pos.turn()) {
                w.fill(IN_CHECK, 1.0);
            }
        }
        if let Some(s) = pos.last_sq {
            w.set(LAST_MOVED, frame.point(s), 1.0);
        }
        if let Some(k) = pos.last_kind {
            w.fill(LAST_KIND + KIND_PLANE[k.index()] as usize, 1.0);
        }
        if pos.last_along_river {
            w.fill(ALONG_RIVER, 1.0);
        }
        for (c, plane) in [(me, OWN_PROMO), (o, OPP_PROMO)] {
            if let Some(s) = pos.promo_window[c.index()] {
                w.set(plane, frame.point(s), 1.0);
            }
        }
        if let Some(s) = pos.pending_victory() {
            w.set(VICTORY, frame.point(s), 1.0);
        }
        if let Some(s) = self.last_removed() {
            w.set(REMOVED, frame.point(s), 1.0);
            w.fill(MID_TURN, 1.0);
        }
        if me == Color::Red {
            w.fill(IS_RED, 1.0);
        }
        if let Some(limit) = pos.rules().no_capture_plies {
            w.fill(NO_CAPTURE, (pos.halfmove() as f32 / limit.max(1) as f32).min(1.0));
        }
        w.fill(PLIES, (self.plies() as f32 / 400.0).min(1.0));
        if setup {
            w.fill(SETUP, 1.0);
        }
        w.fill(OPP_CHOSEN, pos.tiles(o).iter().filter(|&&t| t != 0).count() as f32 / 8.0);
        if self.to_act() == me {
            w.fill(TO_ACT, 1.0);
        }
        w.fill(ONES, 1.0);
    }
}

impl Observe for SkillGame {
    /// `skill` v1: [`PLANES`] x ranks x files; `5 * points + 1` board channels (a move of kind
    /// plain, exchange, promotion to chariot, horse, cannon: channel `kind * points + to`, at
    /// point `from`; a stagnation removal: channel `5 * points`, at its point), then 32 extra
    /// slots, tile T1..T32 into the next recess.
    fn encoding(&self) -> Encoding {
        let geo = self.position().geo();
        Encoding {
            game: "skill".into(),
            version: VERSION,
            observation: Frame::shape(geo, PLANES),
            policy: PolicyShape { board_channels: MOVE_KINDS * geo.len() + 1, extra: TILES },
        }
    }

    fn observe_into(&self, player: PlayerId, out: &mut [f32]) {
        self.write_observation(player, false, out);
    }

    fn action_index(&self, action: Action) -> usize {
        let frame = Frame::new(self.position().geo(), self.to_act());
        let n = frame.points();
        if action.0 >= SETUP_TAG {
            return (MOVE_KINDS * n + 1) * n + (action.0 & 0xFF) as usize - 1;
        }
        if action.0 >= REMOVE_TAG {
            return MOVE_KINDS * n * n + frame.point((action.0 & 0x7F) as u8);
        }
        let m = decode(action).unwrap_or(SMove { from: 0, to: 0, exchange: false, promote: None });
        debug_assert!(!(m.exchange && m.promote.is_some()), "an exchange never promotes");
        let kind = match m.promote {
            _ if m.exchange => 1,
            None => 0,
            Some(k) => 2 + PROMOTIONS.iter().position(|&x| x == k).unwrap_or(0),
        };
        move_slot(n, kind, frame.point(m.from), frame.point(m.to))
    }

    fn index_action(&self, index: usize) -> Option<Action> {
        let frame = Frame::new(self.position().geo(), self.to_act());
        let n = frame.points();
        if let Some((kind, from, to)) = slot_move(n, MOVE_KINDS, index) {
            let (exchange, promote) = match kind {
                0 => (false, None),
                1 => (true, None),
                k => (false, Some(PROMOTIONS[k - 2])),
            };
            return Some(encode(SMove { from: frame.square(from)?, to: frame.square(to)?, exchange, promote }));
        }
        let rest = index - MOVE_KINDS * n * n;
        if rest < n {
            return Some(Action(REMOVE_TAG | frame.square(rest)? as u32));
        }
        let t = rest - n;
        (t < TILES).then(|| Action(SETUP_TAG | (t as u32 + 1)))
    }
}

impl ObserveAll for SkillGame {
    fn observe_all_into(&self, player: PlayerId, out: &mut [f32]) {
        self.write_observation(player, true, out);
    }
}
