//! The quantized network ([`Network`]): integer inference from an [`Accumulator`].

use super::{simd, Accumulator, FloatNet, PieceOn, EVAL_SCALE, HIDDEN, INPUTS, QA, QB, WEIGHT_CLIP};
use crate::geometry::Geometry;
use crate::piece::Color;
use serde::{Deserialize, Serialize};

/// What a network file says about itself (stored in the file, covered by its hash).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetMeta {
    /// The variant (or game family) it was trained for, e.g. `xiangqi`, `jieqi`.
    pub variant: String,
    /// Free text: data, steps, measured matches.
    pub description: String,
}

/// The quantized network: first layer `i16` (scale [`QA`]), output weights `i16` (scale [`QB`]),
/// output bias `i32` (scale `QA * QB`). Built by [`Network::quantize`] or read by
/// [`Network::load`].
#[derive(Clone)]
pub struct Network {
    /// `INPUTS x HIDDEN` row-major.
    pub(super) ft_weight: Vec<i16>,
    /// `HIDDEN`.
    pub(super) ft_bias: Vec<i16>,
    /// `2 * HIDDEN`: the side to move's half first.
    pub(super) out_weight: Vec<i16>,
    pub(super) out_bias: i32,
    pub(super) meta: NetMeta,
    /// FNV-1a 64 of the file's bytes before the hash (its identity).
    pub(super) hash: u64,
    /// Whether inference takes the AVX2 path.
    pub(super) simd: bool,
}

fn q(x: f32, scale: i32) -> i16 {
    (x.clamp(-WEIGHT_CLIP, WEIGHT_CLIP) * scale as f32).round() as i16
}

impl Network {
    /// Quantizes `f` (weights beyond [`WEIGHT_CLIP`] are clipped). Its hash is that of the
    /// bytes [`Network::save`] writes.
    ///
    /// # Panics
    /// Never for a `FloatNet` with its shapes ([`FloatNet::has_shapes`]); a wrong shape panics
    /// (a programming error of the exporter).
    pub fn quantize(f: &FloatNet, meta: NetMeta) -> Network {
        assert!(f.has_shapes(), "FloatNet shapes: ft_weight {}, ft_bias {}, out_weight {}", f.ft_weight.len(), f.ft_bias.len(), f.out_weight.len());
        let mut n = Network {
            ft_weight: f.ft_weight.iter().map(|&w| q(w, QA)).collect(),
            ft_bias: f.ft_bias.iter().map(|&w| q(w, QA)).collect(),
            out_weight: f.out_weight.iter().map(|&w| q(w, QB)).collect(),
            out_bias: (f.out_bias * (QA * QB) as f32).round() as i32,
            meta,
            hash: 0,
            simd: simd::available(),
        };
        n.hash = super::file::hash_of(&n.body_bytes());
        n
    }

    /// What the network says about itself.
    pub fn meta(&self) -> &NetMeta {
        &self.meta
    }

    /// The network's identity: FNV-1a 64 of its file's bytes before the stored hash.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The first 12 hex digits of [`Network::hash`] (names nets in bot specs and reports).
    pub fn short_hash(&self) -> String {
        format!("{:016x}", self.hash)[..12].to_owned()
    }

    /// Uses the portable path even where AVX2 is available (benchmarks and the bit-identity test).
    pub fn set_simd(&mut self, on: bool) {
        self.simd = on && simd::available();
    }

    /// The weight row of feature `f` (below [`INPUTS`]).
    #[inline]
    pub(super) fn row(&self, f: usize) -> &[i16] {
        debug_assert!(f < INPUTS);
        &self.ft_weight[f * HIDDEN..(f + 1) * HIDDEN]
    }

    /// The evaluation in centipawns for `stm` from an accumulator of the position (both
    /// perspectives up to date).
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, stm: Color) -> i32 {
        let (us, them) = (acc.half(stm), acc.half(stm.opponent()));
        let sum = simd::output(self.simd, us, them, &self.out_weight);
        self.finish(sum)
    }

    /// The evaluation through the element-by-element reference loop (no vectorization
    /// assumed): the scores the SIMD path must reproduce bit for bit.
    pub fn evaluate_reference(&self, acc: &Accumulator, stm: Color) -> i32 {
        let (us, them) = (acc.half(stm), acc.half(stm.opponent()));
        let mut sum = 0i32;
        for (i, half) in [us, them].into_iter().enumerate() {
            for j in 0..HIDDEN {
                let v = (half[j] as i32).clamp(0, QA);
                let vw = (v * self.out_weight[i * HIDDEN + j] as i32) as i16 as i32;
                sum = sum.wrapping_add(vw * v);
            }
        }
        self.finish(sum)
    }

    #[inline]
    fn finish(&self, sum: i32) -> i32 {
        let out = (sum / QA) as i64 + self.out_bias as i64;
        (out * EVAL_SCALE as i64 / (QA * QB) as i64) as i32
    }

    /// The evaluation in centipawns for `stm` of the position made of `pieces` (a full refresh).
    pub fn evaluate_pieces(&self, geom: &Geometry, pieces: &[PieceOn], stm: Color) -> i32 {
        let mut acc = Accumulator::new(self);
        acc.refresh(self, geom, pieces);
        self.evaluate(&acc, stm)
    }

    /// The weights back as floats (what [`Network::quantize`] would turn into this network).
    pub fn dequantize(&self) -> FloatNet {
        FloatNet {
            ft_weight: self.ft_weight.iter().map(|&w| w as f32 / QA as f32).collect(),
            ft_bias: self.ft_bias.iter().map(|&w| w as f32 / QA as f32).collect(),
            out_weight: self.out_weight.iter().map(|&w| w as f32 / QB as f32).collect(),
            out_bias: self.out_bias as f32 / (QA * QB) as f32,
        }
    }
}
