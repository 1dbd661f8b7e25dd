//! The first layer's outputs for both perspectives, refreshed from scratch or updated by the
//! pieces a move changed.

use super::{feature, simd, Network, PieceOn, HIDDEN};
use crate::geometry::Geometry;
use crate::piece::Color;

/// The accumulator: for each perspective (indexed by [`Color::index`]) the bias plus the weight
/// rows of the active features, `i16` at scale [`super::QA`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    v: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// The accumulator of an empty board (the biases).
    pub fn new(net: &Network) -> Accumulator {
        let mut b = [0i16; HIDDEN];
        b.copy_from_slice(&net.ft_bias);
        Accumulator { v: [b, b] }
    }

    /// The half of `perspective`.
    #[inline]
    pub fn half(&self, perspective: Color) -> &[i16; HIDDEN] {
        &self.v[perspective.index()]
    }

    /// Recomputes both halves from the pieces of a position.
    pub fn refresh(&mut self, net: &Network, geom: &Geometry, pieces: &[PieceOn]) {
        *self = Accumulator::new(net);
        for c in Color::ALL {
            let rows: Vec<&[i16]> = pieces.iter().map(|&p| net.row(feature(geom, c, p))).collect();
            simd::update(net.simd, &mut self.v[c.index()], &rows, &[]);
        }
    }

    /// Removes the features of `removed` and adds those of `added` in both halves (a move's
    /// changes: at most a few pieces each).
    #[inline]
    pub fn update(&mut self, net: &Network, geom: &Geometry, removed: &[PieceOn], added: &[PieceOn]) {
        const MAX: usize = 4;
        debug_assert!(removed.len() <= MAX && added.len() <= MAX);
        for c in Color::ALL {
            let mut sub: [&[i16]; MAX] = [&[]; MAX];
            let mut add: [&[i16]; MAX] = [&[]; MAX];
            for (slot, &p) in sub.iter_mut().zip(removed) {
                *slot = net.row(feature(geom, c, p));
            }
            for (slot, &p) in add.iter_mut().zip(added) {
                *slot = net.row(feature(geom, c, p));
            }
            simd::update(net.simd, &mut self.v[c.index()], &add[..added.len().min(MAX)], &sub[..removed.len().min(MAX)]);
        }
    }
}
