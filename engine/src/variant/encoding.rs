//! The observation tensor and the fixed action index of the RULES.md 9x10 variants (encoding
//! version [`ENCODING_VERSION`]; `docs/encoding.md` is the written form of this module and must
//! change with it). [`encoding`] states its shapes as an [`Encoding`] of the game contract
//! ([`crate::observe`]); `VariantGameState` implements [`crate::observe::Observe`] with it.
//!
//! Everything is seen from the acting player: the observation is built from that player's
//! [`View`] only (never the full state), and the board is oriented so that the acting player's
//! back rank is row 0 (Black's ranks are mirrored, `row = 9 - rank`; files are kept). Actions are
//! indexed in the same orientation, so one net plays both colours.
//!
//! Observation: [`PLANES`] planes of 10 rows x 9 files (`plane * 90 + row * 9 + file`), see the
//! `P_*` constants. Action index ([`ACTIONS`] slots): `kind * 8100 + to * 90 + from` for moves
//! (kind 0 plain, 1 turned face-down on arrival §F5, 2 with the king-piece marker §K4), then one
//! flip slot per point (§S4), then demand and the three answers (§S11), then the ten §S2 layouts
//! and the seven §F3 placement types of the set-up phase. The first [`BOARD_SLOTS`] slots are laid
//! out as a `[BOARD_CHANNELS, 90]` tensor (channel-major), which is exactly what a 1x1
//! convolution over the board produces, so the policy head needs no gather.

use super::config::Hidden;
use super::state::Answer;
use super::{Action, State, View};
use crate::observe::{Encoding, PolicyShape, TensorShape};
use crate::piece::{Color, Role};
use crate::geometry::Square;
use serde::{Deserialize, Serialize};

/// Version of the observation layout and the action index. Bumped on any change to either.
pub const ENCODING_VERSION: u32 = 1;

/// Rows (ranks) of the encoded board.
pub const ROWS: usize = 10;
/// Files of the encoded board.
pub const FILES: usize = 9;
/// Points of the encoded board.
pub const POINTS: usize = ROWS * FILES;

/// Own pieces by the type they move as, `+ role.index()` (face-down pieces included).
pub const P_OWN: usize = 0;
/// Opponent pieces by the type they move as, `+ role.index()`.
pub const P_OPP: usize = 7;
/// Own face-down pieces (§F).
pub const P_OWN_DOWN: usize = 14;
/// Opponent face-down pieces.
pub const P_OPP_DOWN: usize = 15;
/// Own hidden faces (Surprise back faces §S1, Fan-qi identities §F), `+ role.index() - 1` for
/// advisor..soldier: 1 where known to the acting player, else the belief (fraction).
pub const P_OWN_HIDDEN: usize = 16;
/// Opponent hidden faces, as [`P_OWN_HIDDEN`].
pub const P_OPP_HIDDEN: usize = 22;
/// Own pieces whose hidden face the opponent knows (a seen back §S4, a public identity §F5).
pub const P_OWN_EXPOSED: usize = 28;
/// Opponent pieces whose hidden face the acting player knows.
pub const P_OPP_EXPOSED: usize = 29;
/// Own king piece (§K1).
pub const P_OWN_MARKER: usize = 30;
/// Opponent king piece.
pub const P_OPP_MARKER: usize = 31;
/// Own grinding run's piece, valued run length / limit (§K7).
pub const P_OWN_RUN: usize = 32;
/// Opponent grinding run.
pub const P_OPP_RUN: usize = 33;
/// Constant plane: the acting player is Red.
pub const P_IS_RED: usize = 34;
/// Constant plane: plies without capture / the no-capture limit (§X6; 0 when off).
pub const P_NO_CAPTURE: usize = 35;
/// Constant plane: move number / 150, at most 1.
pub const P_MOVE_NUMBER: usize = 36;
/// Constant plane: own flip rights left / rights at the start (§S5).
pub const P_OWN_RIGHTS: usize = 37;
/// Constant plane: opponent flip rights left / rights at the start.
pub const P_OPP_RIGHTS: usize = 38;
/// Constant plane: own chariot reveals made / limit (§S5).
pub const P_OWN_CHARIOT_REVEALS: usize = 39;
/// Constant plane: opponent chariot reveals made / limit.
pub const P_OPP_CHARIOT_REVEALS: usize = 40;
/// Constant plane: a demand is pending and the acting player answers (§S11).
pub const P_DEMAND: usize = 41;
/// Constant plane: the set-up phase (§S2 layouts, §F3 owner's-choice placement).
pub const P_SETUP: usize = 42;
/// Constant planes: own identities not yet seen by the acting player, by type advisor..soldier
/// (`+ role.index() - 1`), count / the start array's count of that type (§F).
pub const P_OWN_UNSEEN: usize = 43;
/// Constant planes: opponent identities not yet seen.
pub const P_OPP_UNSEEN: usize = 49;
/// Constant plane of ones (marks the board for zero-padded convolutions).
pub const P_ONES: usize = 55;
/// Constant plane: own material on the board by the type pieces move as (chariot 9, cannon 4.5,
/// horse 4, advisor and elephant 2, soldier 1; generals excluded) / the start array's 48.
pub const P_OWN_MATERIAL: usize = 56;
/// Constant plane: opponent material, as [`P_OWN_MATERIAL`].
pub const P_OPP_MATERIAL: usize = 57;
/// Number of planes.
pub const PLANES: usize = 58;
/// Floats in one observation.
pub const OBS_LEN: usize = PLANES * POINTS;

/// Move kinds: plain, turned face-down on arrival (§F5), with the marker (§K4).
pub const MOVE_KINDS: usize = 3;
/// Policy channels per from-point: one per (kind, to-point), then the flip.
pub const BOARD_CHANNELS: usize = MOVE_KINDS * POINTS + 1;
/// Slots laid out on the board (moves and flips).
pub const BOARD_SLOTS: usize = BOARD_CHANNELS * POINTS;
/// First flip slot.
pub const FLIP_BASE: usize = MOVE_KINDS * POINTS * POINTS;
/// The demand slot (§S11).
pub const DEMAND: usize = BOARD_SLOTS;
/// First answer slot: resign, draw, refuse.
pub const ANSWER_BASE: usize = DEMAND + 1;
/// First layout slot (§S2, layouts in `LAYOUT_NAMES` order).
pub const LAYOUT_BASE: usize = ANSWER_BASE + 3;
/// First placement slot (§F3, by [`Role::index`]).
pub const PLACE_BASE: usize = LAYOUT_BASE + 10;
/// Number of action slots.
pub const ACTIONS: usize = PLACE_BASE + Role::COUNT;
/// Slots after the board slots (negotiation and set-up).
pub const EXTRA_SLOTS: usize = ACTIONS - BOARD_SLOTS;

const _: () = assert!(ACTIONS <= u16::MAX as usize, "action indices are stored as u16");
const _: () = assert!(OBS_LEN <= u16::MAX as usize, "observation cells are stored as u16");

/// The game name of this encoding in an [`Encoding`] (every RULES.md 9x10 variant shares it).
pub const GAME: &str = "variants";

/// This encoding as the game contract states it ([`crate::observe`]): game [`GAME`], version
/// [`ENCODING_VERSION`], observation [`PLANES`] x [`ROWS`] x [`FILES`], policy [`BOARD_CHANNELS`]
/// slots per point then [`EXTRA_SLOTS`] (so `actions()` is [`ACTIONS`] and `obs_len()` is
/// [`OBS_LEN`]). Nets, shards and checkpoints made before encodings were recorded are of this one.
pub fn encoding() -> Encoding {
    Encoding {
        game: GAME.to_string(),
        version: ENCODING_VERSION,
        observation: TensorShape { planes: PLANES, rows: ROWS, files: FILES },
        policy: PolicyShape { board_channels: BOARD_CHANNELS, extra: EXTRA_SLOTS },
    }
}

/// Why a variant cannot be encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodingError {
    /// The board is not the standard 9 x 10 this encoding version lays out.
    #[error("variant {variant}: encoding v{ENCODING_VERSION} needs the 9x10 board, not {files}x{ranks}")]
    Board {
        /// Variant name.
        variant: String,
        /// Files.
        files: u8,
        /// Ranks.
        ranks: u8,
    },
}

/// Checks that `variant` can be encoded.
///
/// # Errors
/// [`EncodingError::Board`] when the variant's board is not 9x10.
pub fn check_variant(variant: &super::Variant) -> Result<(), EncodingError> {
    let g = &variant.rules.attacks.geometry;
    if usize::from(g.files) == FILES && usize::from(g.ranks) == ROWS {
        Ok(())
    } else {
        Err(EncodingError::Board { variant: variant.name.clone(), files: g.files, ranks: g.ranks })
    }
}

/// [`encoding`] for `variant`, after [`check_variant`].
///
/// # Errors
/// [`EncodingError::Board`] when the variant's board is not 9x10.
pub fn encoding_for(variant: &super::Variant) -> Result<Encoding, EncodingError> {
    check_variant(variant).map(|()| encoding())
}

/// The encoded point of `sq` for `player` (row-major, the player's back rank first).
#[inline]
pub fn point(sq: Square, player: Color) -> usize {
    let rank = usize::from(sq.rank());
    let row = match player {
        Color::Red => rank,
        Color::Black => ROWS - 1 - rank,
    };
    row * FILES + usize::from(sq.file())
}

/// The square of encoded point `p` for `player` (inverse of [`point`]).
#[inline]
pub fn square(p: usize, player: Color) -> Square {
    let (row, file) = (p / FILES, p % FILES);
    let rank = match player {
        Color::Red => row,
        Color::Black => ROWS - 1 - row,
    };
    Square::new(file as u8, rank as u8).expect("point inside the 9x10 board")
}

/// The slot of `a` when `player` is to act.
pub fn action_index(a: Action, player: Color) -> usize {
    match a {
        Action::Move { from, to, turn_down, marker } => {
            let kind = if turn_down {
                1
            } else if marker {
                2
            } else {
                0
            };
            kind * POINTS * POINTS + point(to, player) * POINTS + point(from, player)
        }
        Action::Flip { at } => FLIP_BASE + point(at, player),
        Action::Demand => DEMAND,
        Action::Answer(Answer::Resign) => ANSWER_BASE,
        Action::Answer(Answer::Draw) => ANSWER_BASE + 1,
        Action::Answer(Answer::Refuse) => ANSWER_BASE + 2,
        Action::Layout { index } => LAYOUT_BASE + usize::from(index),
        Action::Place { role } => PLACE_BASE + role.index(),
    }
}

/// The action of slot `i` when `player` is to act (whether it is legal is another matter).
pub fn index_action(i: usize, player: Color) -> Option<Action> {
    if i < FLIP_BASE {
        let kind = i / (POINTS * POINTS);
        let to = square(i / POINTS % POINTS, player);
        let from = square(i % POINTS, player);
        return Some(Action::Move { from, to, turn_down: kind == 1, marker: kind == 2 });
    }
    Some(match i {
        _ if i < DEMAND => Action::Flip { at: square(i - FLIP_BASE, player) },
        DEMAND => Action::Demand,
        _ if i < LAYOUT_BASE => Action::Answer([Answer::Resign, Answer::Draw, Answer::Refuse][i - ANSWER_BASE]),
        _ if i < PLACE_BASE => Action::Layout { index: (i - LAYOUT_BASE) as u8 },
        _ if i < ACTIONS => Action::Place { role: Role::from_index(i - PLACE_BASE)? },
        _ => return None,
    })
}

/// Slots of `actions` for the side to act in `state`.
pub fn indices(actions: &[Action], player: Color) -> Vec<u16> {
    actions.iter().map(|&a| action_index(a, player) as u16).collect()
}

/// The legal-action mask of `state` as a dense 0/1 vector over [`ACTIONS`].
pub fn legal_mask(state: &State) -> Vec<f32> {
    let mut m = vec![0f32; ACTIONS];
    for i in indices(&state.legal_actions(), state.turn()) {
        m[usize::from(i)] = 1.0;
    }
    m
}

/// Start-array count of each type per side (§X1), by [`Role::index`].
const START_COUNT: [f32; Role::COUNT] = [1.0, 2.0, 2.0, 2.0, 2.0, 2.0, 5.0];

/// Writes the observation of `view` (the acting player is `view.player()`) into `out`
/// ([`OBS_LEN`] floats, overwritten).
pub fn encode_into(view: &View, out: &mut [f32]) {
    assert_eq!(out.len(), OBS_LEN, "observation buffer");
    out.fill(0.0);
    let me = view.player();
    let s = view.known();
    let v = s.variant();
    let pos = s.position();
    let mut set = |plane: usize, sq: Square, x: f32| out[plane * POINTS + point(sq, me)] = x;
    let side = |c: Color, own: usize, opp: usize| if c == me { own } else { opp };

    for sq in pos.occupied() {
        let Some(p) = pos.piece_at(sq) else { continue };
        set(side(p.color, P_OWN, P_OPP) + p.role.index(), sq, 1.0);
    }
    // What the rules hide and mark, decided once per variant (`Variant::caps`).
    match v.caps.hidden {
        Hidden::BackFaces => {
            for sq in pos.occupied() {
                let Some(p) = pos.piece_at(sq) else { continue };
                if let Some(b) = s.back(sq) {
                    set(side(p.color, P_OWN_HIDDEN, P_OPP_HIDDEN) + b.index() - 1, sq, 1.0);
                    if s.back_seen().contains(sq) || p.color != me {
                        set(side(p.color, P_OWN_EXPOSED, P_OPP_EXPOSED), sq, 1.0);
                    }
                }
            }
            for (sq, belief) in view.back_beliefs() {
                for (r, &b) in belief.iter().enumerate().take(Role::COUNT).skip(1) {
                    if b > 0.0 {
                        set(P_OPP_HIDDEN + r - 1, sq, b);
                    }
                }
            }
        }
        Hidden::FaceDown => {
            for c in Color::ALL {
                let pool = s.pool(c);
                let total: f32 = pool.iter().map(|&n| f32::from(n)).sum();
                for sq in s.face_down() & pos.by_color(c) {
                    set(side(c, P_OWN_DOWN, P_OPP_DOWN), sq, 1.0);
                    let hidden = side(c, P_OWN_HIDDEN, P_OPP_HIDDEN);
                    match s.identity(sq) {
                        Some(r) if r != Role::General => {
                            set(hidden + r.index() - 1, sq, 1.0);
                            let exposed = if c == me { s.public_identities().contains(sq) } else { true };
                            if exposed {
                                set(side(c, P_OWN_EXPOSED, P_OPP_EXPOSED), sq, 1.0);
                            }
                        }
                        _ if total > 0.0 => {
                            for (r, &n) in pool.iter().enumerate().take(Role::COUNT).skip(1) {
                                if n > 0 {
                                    set(hidden + r - 1, sq, f32::from(n) / total);
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        Hidden::None => {}
    }
    if v.caps.king_pieces {
        let limit = if v.king.grind_limit > 0 { f32::from(v.king.grind_limit) } else { 6.0 };
        for c in Color::ALL {
            set(side(c, P_OWN_MARKER, P_OPP_MARKER), s.marker(c), 1.0);
            if let Some((sq, n)) = s.run(c) {
                set(side(c, P_OWN_RUN, P_OPP_RUN), sq, (f32::from(n) / limit).min(1.0));
            }
        }
    }

    let mut fill = |plane: usize, x: f32| {
        if x != 0.0 {
            out[plane * POINTS..(plane + 1) * POINTS].fill(x);
        }
    };
    fill(P_IS_RED, if me == Color::Red { 1.0 } else { 0.0 });
    if let Some(limit) = pos.rules().end.no_capture_plies {
        fill(P_NO_CAPTURE, (pos.halfmove() as f32 / limit.max(1) as f32).min(1.0));
    }
    fill(P_MOVE_NUMBER, (pos.fullmove() as f32 / 150.0).min(1.0));
    if v.caps.hidden == Hidden::BackFaces {
        let sr = &v.surprise;
        for c in Color::ALL {
            let (rights, reveals) = s.flip_rights(c);
            if sr.flip_rights > 0 {
                fill(side(c, P_OWN_RIGHTS, P_OPP_RIGHTS), f32::from(rights) / f32::from(sr.flip_rights));
            }
            if sr.chariot_reveal_limit > 0 {
                fill(
                    side(c, P_OWN_CHARIOT_REVEALS, P_OPP_CHARIOT_REVEALS),
                    f32::from(reveals) / f32::from(sr.chariot_reveal_limit),
                );
            }
        }
        // A pending demand is the only decision node where the side to act is not the side to move.
        if !s.is_chance() && !s.in_setup() && s.turn() != pos.turn() {
            fill(P_DEMAND, 1.0);
        }
    }
    if s.in_setup() {
        fill(P_SETUP, 1.0);
    }
    if v.caps.face_down() {
        for c in Color::ALL {
            let pool = s.pool(c);
            for r in 1..Role::COUNT {
                fill(side(c, P_OWN_UNSEEN, P_OPP_UNSEEN) + r - 1, f32::from(pool[r]) / START_COUNT[r]);
            }
        }
    }
    for c in Color::ALL {
        fill(side(c, P_OWN_MATERIAL, P_OPP_MATERIAL), material(pos, c) / START_MATERIAL);
    }
    fill(P_ONES, 1.0);
}

/// Material of the start array per side in soldier units (2 x 9 + 2 x 4.5 + 2 x 4 + 2 x 2 + 2 x 2 + 5).
pub const START_MATERIAL: f32 = 48.0;

/// Material of `c` on the board in soldier units, by the type pieces move as (generals excluded).
pub fn material(pos: &crate::Position, c: Color) -> f32 {
    Role::ALL
        .into_iter()
        .filter(|&r| r != Role::General)
        .map(|r| pos.pieces(c, r).count() as f32 * crate::search::material(r) as f32 / 100.0)
        .sum()
}

/// The observation of `view` as a new vector.
pub fn encode(view: &View) -> Vec<f32> {
    let mut out = vec![0f32; OBS_LEN];
    encode_into(view, &mut out);
    out
}

/// A lossless compact form of an observation for storage: planes that are constant over the
/// board (and not zero) as `(plane, value)`, every other non-zero cell as `(plane * points +
/// point, value)`. The methods without a shape are for this encoding ([`PLANES`] x 10 x 9); the
/// `_shape` ones serve any [`TensorShape`] of at most 256 planes and 65,536 cells (what the
/// stored `u8` / `u16` indices hold).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CompactObs {
    /// Constant planes.
    pub fills: Vec<(u8, f32)>,
    /// Other non-zero cells.
    pub cells: Vec<(u16, f32)>,
}

/// The shape of this encoding's observation.
const SHAPE: TensorShape = TensorShape { planes: PLANES, rows: ROWS, files: FILES };

impl CompactObs {
    /// Compacts a dense observation of [`OBS_LEN`] floats.
    pub fn from_dense(dense: &[f32]) -> CompactObs {
        CompactObs::from_dense_shape(dense, &SHAPE)
    }

    /// Compacts a dense observation of `shape` (`shape.len()` floats).
    ///
    /// # Panics
    /// When `dense` is not `shape.len()` floats long, or `shape` has more than 256 planes or
    /// 65,536 cells.
    pub fn from_dense_shape(dense: &[f32], shape: &TensorShape) -> CompactObs {
        assert_eq!(dense.len(), shape.len(), "observation length");
        assert!(shape.planes <= 256 && shape.len() <= 1 << 16, "shape {shape:?} too large for CompactObs");
        let mut c = CompactObs::default();
        for (p, plane) in dense.chunks_exact(shape.points().max(1)).enumerate() {
            let x = plane[0];
            if plane.iter().all(|&y| y == x) {
                if x != 0.0 {
                    c.fills.push((p as u8, x));
                }
            } else {
                for (i, &y) in plane.iter().enumerate() {
                    if y != 0.0 {
                        c.cells.push(((p * shape.points() + i) as u16, y));
                    }
                }
            }
        }
        c
    }

    /// Writes the dense observation into `out` ([`OBS_LEN`] floats, overwritten).
    pub fn expand_into(&self, out: &mut [f32]) {
        self.expand_into_shape(out, &SHAPE);
    }

    /// Writes the dense observation of `shape` into `out` (overwritten); indices outside `out`
    /// are skipped ([`CompactObs::fits`] tells them).
    pub fn expand_into_shape(&self, out: &mut [f32], shape: &TensorShape) {
        out.fill(0.0);
        let n = shape.points();
        for &(p, x) in &self.fills {
            let p = usize::from(p);
            if p < shape.planes && (p + 1) * n <= out.len() {
                out[p * n..(p + 1) * n].fill(x);
            }
        }
        for &(i, x) in &self.cells {
            if let Some(y) = out.get_mut(usize::from(i)) {
                *y = x;
            }
        }
    }

    /// Whether every index is inside the observation (checked when reading shards).
    pub fn in_range(&self) -> bool {
        self.fits(&SHAPE)
    }

    /// Whether every index is inside an observation of `shape`.
    pub fn fits(&self, shape: &TensorShape) -> bool {
        self.fills.iter().all(|&(p, _)| usize::from(p) < shape.planes) && self.cells.iter().all(|&(i, _)| usize::from(i) < shape.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_round_trip() {
        for p in 0..POINTS {
            for c in Color::ALL {
                assert_eq!(point(square(p, c), c), p);
            }
        }
        let e0 = Square::parse("e0").expect("square");
        assert_eq!(point(e0, Color::Red), 4);
        assert_eq!(point(e0, Color::Black), 9 * FILES + 4);
    }

    #[test]
    fn encoding_states_the_constants() {
        let e = encoding();
        assert_eq!(e.actions(), ACTIONS);
        assert_eq!(e.obs_len(), OBS_LEN);
        assert_eq!(e.board_slots(), BOARD_SLOTS);
        assert_eq!(e.observation.points(), POINTS);
        assert_eq!((e.game.as_str(), e.version), ("variants", 1));
        assert_eq!(e.check_same(&encoding()), Ok(()));
    }

    #[test]
    fn compact_observations_round_trip_in_any_shape() {
        for shape in [SHAPE, TensorShape { planes: 3, rows: 11, files: 10 }, TensorShape { planes: 1, rows: 1, files: 41 }] {
            // A constant plane, a zero plane, scattered cells.
            let dense: Vec<f32> = (0..shape.len())
                .map(|i| if i < shape.points() { 0.5 } else if i % 7 == 3 { i as f32 } else { 0.0 })
                .collect();
            let c = CompactObs::from_dense_shape(&dense, &shape);
            assert!(c.fits(&shape));
            let mut back = vec![9.0; shape.len()];
            c.expand_into_shape(&mut back, &shape);
            assert_eq!(back, dense, "{shape:?}");
        }
        let c = CompactObs { fills: vec![], cells: vec![(41, 1.0)] };
        assert!(!c.fits(&TensorShape { planes: 1, rows: 1, files: 41 }));
    }

    #[test]
    fn index_round_trip_of_every_slot() {
        for c in Color::ALL {
            for i in 0..ACTIONS {
                let a = index_action(i, c).expect("every slot names an action");
                assert_eq!(action_index(a, c), i, "{a:?}");
            }
            assert_eq!(index_action(ACTIONS, c), None);
        }
    }
}
