//! The float network: what the trainer exports before quantization, and the reference the
//! quantized [`super::Network`] is measured against.

use super::{feature, PieceOn, EVAL_SCALE, HIDDEN, INPUTS};
use crate::geometry::Geometry;
use crate::piece::Color;

/// Float weights of `(INPUTS -> HIDDEN) x 2 -> 1` (see [`super`]).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// First layer, `INPUTS x HIDDEN` row-major: the row of feature `f` is
    /// `ft_weight[f * HIDDEN..(f + 1) * HIDDEN]`.
    pub ft_weight: Vec<f32>,
    /// First layer's bias, `HIDDEN`.
    pub ft_bias: Vec<f32>,
    /// Output weights, `2 * HIDDEN`: the side to move's perspective first, then the other's.
    pub out_weight: Vec<f32>,
    /// Output bias.
    pub out_bias: f32,
}

impl FloatNet {
    /// A net of zeros (evaluates every position as 0).
    pub fn zeros() -> FloatNet {
        FloatNet { ft_weight: vec![0.0; INPUTS * HIDDEN], ft_bias: vec![0.0; HIDDEN], out_weight: vec![0.0; 2 * HIDDEN], out_bias: 0.0 }
    }

    /// Whether every tensor has its shape.
    pub fn has_shapes(&self) -> bool {
        self.ft_weight.len() == INPUTS * HIDDEN && self.ft_bias.len() == HIDDEN && self.out_weight.len() == 2 * HIDDEN
    }

    /// The first layer's output from `perspective` (before the activation).
    pub fn accumulate(&self, geom: &Geometry, pieces: &[PieceOn], perspective: Color) -> Vec<f32> {
        let mut acc = self.ft_bias.clone();
        for &p in pieces {
            let f = feature(geom, perspective, p);
            for (a, w) in acc.iter_mut().zip(&self.ft_weight[f * HIDDEN..(f + 1) * HIDDEN]) {
                *a += w;
            }
        }
        acc
    }

    /// The evaluation in centipawns for `stm` (the side to move) of the position made of
    /// `pieces` on a board of geometry `geom`.
    pub fn evaluate(&self, geom: &Geometry, pieces: &[PieceOn], stm: Color) -> f32 {
        let screlu = |x: f32| x.clamp(0.0, 1.0).powi(2);
        let us = self.accumulate(geom, pieces, stm);
        let them = self.accumulate(geom, pieces, stm.opponent());
        let mut out = self.out_bias;
        for i in 0..HIDDEN {
            out += screlu(us[i]) * self.out_weight[i] + screlu(them[i]) * self.out_weight[HIDDEN + i];
        }
        out * EVAL_SCALE
    }
}
