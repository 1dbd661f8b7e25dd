//! What the RULES-more.md games share in their observation encodings ([`crate::observe`],
//! docs/encoding.md "RULES-more.md games"): the acting player's frame on a board of any
//! geometry, a plane writer, the move-slot layout, and the open twins' observations.
//!
//! * **Frame:** a point is `row * files + file`; Red sees the board as it is (`row = rank`,
//!   `file = file`), Black sees it turned 180° (`row = ranks - 1 - rank`, `file = files - 1 -
//!   file`), as each player sees it from its own side of the table: its back rank is row 0 and
//!   its own left is file 0. One net plays both colours; a turn, unlike the RULES.md variants'
//!   mirror (files kept), also shows each side's palace plate (camel xiangqi, §2.9, drawn in
//!   its owner's frame, which is the board turned 180° for Black) the same way to both.
//! * **Move slots:** a move of kind `k` from point `from` to point `to` has slot `(k * points +
//!   to) * points + from`: board channel `k * points + to`, channel-major at point `from`.
//! * **Open twins:** [`ObserveAll`] writes a game's observation with every hidden part shown;
//!   [`Open`] observes through it and keeps the base game's [`Encoding`] (its planes mean "what
//!   the player knows", which in the twin is everything), so a net of the hidden game reads the
//!   twin's tensors and the other way round.

use super::geometry::{Geometry, Sq};
use super::open::Open;
use super::presets::Playable;
use super::piece::Kind;
use crate::game::{Action, PlayerId};
use crate::observe::{Encoding, Observe, TensorShape};
use crate::piece::Color;

/// The observer's frame on a board: points of the observation against board squares.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    geo: &'static Geometry,
    black: bool,
}

impl Frame {
    /// The frame of `viewer` on `geo`.
    pub fn new(geo: &'static Geometry, viewer: Color) -> Frame {
        Frame { geo, black: viewer == Color::Black }
    }

    /// Points of one plane (`ranks * files`).
    #[inline]
    pub fn points(&self) -> usize {
        self.geo.len()
    }

    /// The tensor shape of `planes` planes on this board (rows = ranks, files = files).
    pub fn shape(geo: &Geometry, planes: usize) -> TensorShape {
        TensorShape { planes, rows: geo.ranks as usize, files: geo.files as usize }
    }

    /// The point of square `s` in this frame: the square itself for Red, the square turned
    /// 180° for Black (`points - 1 - s`).
    #[inline]
    pub fn point(&self, s: Sq) -> usize {
        if self.black {
            self.points() - 1 - s as usize
        } else {
            s as usize
        }
    }

    /// The square of `point` in this frame (`None` off the board). The inverse of
    /// [`Frame::point`].
    #[inline]
    pub fn square(&self, point: usize) -> Option<Sq> {
        if point >= self.points() {
            return None;
        }
        Some(if self.black { self.points() - 1 - point } else { point } as Sq)
    }
}

/// The slot of a move of kind `kind` from point `from` to point `to` (module docs).
#[inline]
pub fn move_slot(points: usize, kind: usize, from: usize, to: usize) -> usize {
    (kind * points + to) * points + from
}

/// The `(kind, from, to)` points of a move slot below `kinds * points * points`; `None` above.
#[inline]
pub fn slot_move(points: usize, kinds: usize, slot: usize) -> Option<(usize, usize, usize)> {
    (slot < kinds * points * points).then(|| (slot / (points * points), slot % points, slot / points % points))
}

/// Writes planes of an observation (`plane * points + point`).
pub struct Planes<'a> {
    out: &'a mut [f32],
    points: usize,
}

impl<'a> Planes<'a> {
    /// Clears `out` (which must hold `planes * points` floats) and writes into it.
    ///
    /// # Panics
    /// When `out.len()` is not `shape.len()`.
    pub fn new(out: &'a mut [f32], shape: TensorShape) -> Planes<'a> {
        assert_eq!(out.len(), shape.len(), "observation buffer of {} floats for a {}x{}x{} tensor", out.len(), shape.planes, shape.rows, shape.files);
        out.fill(0.0);
        Planes { out, points: shape.points() }
    }

    /// Sets one cell.
    #[inline]
    pub fn set(&mut self, plane: usize, point: usize, v: f32) {
        self.out[plane * self.points + point] = v;
    }

    /// Fills a whole plane with `v` (a constant plane).
    #[inline]
    pub fn fill(&mut self, plane: usize, v: f32) {
        self.out[plane * self.points..(plane + 1) * self.points].fill(v);
    }
}

/// The plane index of each [`Kind`] for a game whose piece kinds are `kinds` (in plane order).
pub const fn kind_planes<const N: usize>(kinds: [Kind; N]) -> [u8; 11] {
    let mut out = [u8::MAX; 11];
    let mut i = 0;
    while i < N {
        out[kinds[i] as usize] = i as u8;
        i += 1;
    }
    out
}

/// `player`'s colour (seat 0 is Red).
#[inline]
pub fn color(player: PlayerId) -> Color {
    crate::more::history::color_of(player)
}

/// A RULES-more.md game that can also write an observation with every hidden part shown (what a
/// player of its open twin knows, docs/open-twins.md §O6), in the same planes as
/// [`Observe::observe_into`].
pub trait ObserveAll: Observe {
    /// `player`'s observation with nothing hidden (`encoding().obs_len()` floats, overwritten).
    fn observe_all_into(&self, player: PlayerId, out: &mut [f32]);
}

/// The open twin observes its game with nothing hidden and keeps the base game's encoding.
impl<G: Playable + ObserveAll> Observe for Open<G> {
    fn encoding(&self) -> Encoding {
        self.inner().encoding()
    }
    fn observe_into(&self, player: PlayerId, out: &mut [f32]) {
        self.inner().observe_all_into(player, out);
    }
    fn action_index(&self, action: Action) -> usize {
        self.inner().action_index(action)
    }
    fn index_action(&self, index: usize) -> Option<Action> {
        self.inner().index_action(index)
    }
}

/// The open twin hides nothing already.
impl<G: Playable + ObserveAll> ObserveAll for Open<G> {
    fn observe_all_into(&self, player: PlayerId, out: &mut [f32]) {
        self.inner().observe_all_into(player, out);
    }
}
