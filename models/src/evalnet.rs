//! The learned evaluation's network in tch (issue #36 item 2): the float twin of
//! `engine::nnue`'s `(INPUTS -> HIDDEN) x 2 -> 1` network, trained on [`EvalSample`]s and exported
//! as an [`engine::nnue::FloatNet`].
//!
//! The sparse first layer is an embedding bag (sum) over each perspective's active features;
//! feature indices come from `engine::nnue::feature` (the one feature map; none is kept here).
//! Forward pass, as [`engine::nnue::FloatNet::evaluate`]: `acc_c = ft_bias + Σ ft_weight[f]`,
//! `out = out_bias + w_stm · screlu(acc_stm) + w_other · screlu(acc_other)` with
//! `screlu(x) = clamp(x, 0, 1)²`, in units of `EVAL_SCALE` centipawns.
//!
//! Loss: `mean((sigmoid(out) - t)²)` with the target
//! `t = λ · sigmoid(score_cp / EVAL_SCALE) + (1 - λ) · (result + 1) / 2` (the mix of search score
//! and game result of Stockfish's and Pikafish's trainers).

use crate::evalshard::EvalSample;
use engine::geometry::Geometry;
use engine::nnue::{feature, FloatNet, EVAL_SCALE, HIDDEN, INPUTS, QA, QB, WEIGHT_CLIP};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use tch::{Kind, Tensor};

/// The samples' feature indices, flattened: sample `i`'s side-to-move features are
/// `us[us_off[i]..us_off[i + 1]]`, the other perspective's likewise in `them`.
#[derive(Clone, Debug, Default)]
pub struct Encoded {
    /// Side-to-move perspective features.
    pub us: Vec<u16>,
    /// Offsets into `us`, `len + 1` entries.
    pub us_off: Vec<u32>,
    /// The other perspective's features.
    pub them: Vec<u16>,
    /// Offsets into `them`.
    pub them_off: Vec<u32>,
    /// Search scores for the side to move, centipawns.
    pub score_cp: Vec<f32>,
    /// Results for the side to move: 1, 0, -1.
    pub result: Vec<f32>,
}

impl Encoded {
    /// Encodes `samples` on a board of geometry `geom`.
    pub fn new(geom: &Geometry, samples: &[EvalSample]) -> Encoded {
        let mut e = Encoded { us_off: vec![0], them_off: vec![0], ..Encoded::default() };
        for s in samples {
            let stm = s.side_to_move();
            let pieces = s.pieces_on();
            e.us.extend(pieces.iter().map(|&p| feature(geom, stm, p) as u16));
            e.them.extend(pieces.iter().map(|&p| feature(geom, stm.opponent(), p) as u16));
            e.us_off.push(e.us.len() as u32);
            e.them_off.push(e.them.len() as u32);
            e.score_cp.push(f32::from(s.score_cp));
            e.result.push(f32::from(s.result));
        }
        e
    }

    /// Samples encoded.
    pub fn len(&self) -> usize {
        self.score_cp.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.score_cp.is_empty()
    }

    /// The batch of samples `ids` with targets mixed by `lambda` (see the module documentation).
    pub fn batch(&self, ids: &[usize], lambda: f32) -> Batch {
        let gather = |feats: &[u16], off: &[u32]| {
            let mut idx = Vec::new();
            let mut offsets = Vec::with_capacity(ids.len());
            for &i in ids {
                offsets.push(idx.len() as i64);
                idx.extend(feats[off[i] as usize..off[i + 1] as usize].iter().map(|&f| i64::from(f)));
            }
            (Tensor::from_slice(&idx), Tensor::from_slice(&offsets))
        };
        let (us, us_off) = gather(&self.us, &self.us_off);
        let (them, them_off) = gather(&self.them, &self.them_off);
        let sig = |x: f32| 1.0 / (1.0 + (-x).exp());
        let target: Vec<f32> =
            ids.iter().map(|&i| lambda * sig(self.score_cp[i] / EVAL_SCALE) + (1.0 - lambda) * (self.result[i] + 1.0) / 2.0).collect();
        Batch { us, us_off, them, them_off, target: Tensor::from_slice(&target) }
    }
}

/// One training batch (CPU tensors).
#[derive(Debug)]
pub struct Batch {
    /// Side-to-move feature indices (int64), all samples concatenated.
    pub us: Tensor,
    /// Start of each sample's features in `us` (int64, one per sample).
    pub us_off: Tensor,
    /// The other perspective's indices.
    pub them: Tensor,
    /// Offsets into `them`.
    pub them_off: Tensor,
    /// Targets in [0, 1], one per sample.
    pub target: Tensor,
}

/// The trainable network: four float tensors with gradients.
#[derive(Debug)]
pub struct EvalNet {
    /// `[INPUTS, HIDDEN]`.
    pub ft_weight: Tensor,
    /// `[HIDDEN]`.
    pub ft_bias: Tensor,
    /// `[2 * HIDDEN]`: the side to move's half first.
    pub out_weight: Tensor,
    /// `[1]`.
    pub out_bias: Tensor,
}

/// Names of the parameters in checkpoints, in [`EvalNet::params`] order.
pub const PARAM_NAMES: [&str; 4] = ["ft_weight", "ft_bias", "out_weight", "out_bias"];

impl EvalNet {
    /// A network initialised from `seed` (a Rust generator, so the start is the same with any
    /// libtorch): first-layer weights normal with standard deviation `0.5 / √32` (an
    /// accumulator of ~32 pieces spreads over the clipped range), biases 0.25, output weights
    /// normal `1 / √(2 · HIDDEN)`, output bias 0.
    pub fn new(seed: u64) -> EvalNet {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut normal = |n: usize, sd: f32| -> Vec<f32> {
            (0..n)
                .map(|_| {
                    let (u1, u2): (f32, f32) = (rng.random::<f32>().max(1e-7), rng.random());
                    sd * (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos()
                })
                .collect()
        };
        let ft = normal(INPUTS * HIDDEN, 0.5 / 32f32.sqrt());
        let out = normal(2 * HIDDEN, 1.0 / (2.0 * HIDDEN as f32).sqrt());
        EvalNet::from_float(&FloatNet { ft_weight: ft, ft_bias: vec![0.25; HIDDEN], out_weight: out, out_bias: 0.0 })
    }

    /// The network holding `f`'s weights (gradients on).
    pub fn from_float(f: &FloatNet) -> EvalNet {
        let t = |v: &[f32], shape: &[i64]| Tensor::from_slice(v).reshape(shape).set_requires_grad(true);
        EvalNet {
            ft_weight: t(&f.ft_weight, &[INPUTS as i64, HIDDEN as i64]),
            ft_bias: t(&f.ft_bias, &[HIDDEN as i64]),
            out_weight: t(&f.out_weight, &[2 * HIDDEN as i64]),
            out_bias: t(&[f.out_bias], &[1]),
        }
    }

    /// The parameters, in [`PARAM_NAMES`] order.
    pub fn params(&self) -> [&Tensor; 4] {
        [&self.ft_weight, &self.ft_bias, &self.out_weight, &self.out_bias]
    }

    /// The raw output (units of `EVAL_SCALE` centipawns), one per sample of `b`, computed with
    /// every weight on the grid of the quantized network (quantization-aware training: the
    /// forward pass rounds, the gradient passes straight through to the float weights), so the
    /// exported network evaluates as trained: rounding 256 output weights to steps of
    /// `EVAL_SCALE / QB` = 6.25 cp afterwards cost about 12 cp a position (measured on xiangqi).
    pub fn forward(&self, b: &Batch) -> Tensor {
        let ft_weight = fake_quant(&self.ft_weight, QA as f64);
        let ft_bias = fake_quant(&self.ft_bias, QA as f64);
        let out_weight = fake_quant(&self.out_weight, QB as f64);
        let out_bias = fake_quant(&self.out_bias, (QA * QB) as f64);
        let acc = |idx: &Tensor, off: &Tensor| {
            let (sum, _, _, _) = Tensor::embedding_bag(&ft_weight, idx, off, false, 0, false, None::<Tensor>, false);
            (sum + &ft_bias).clamp(0.0, 1.0).square()
        };
        let us = acc(&b.us, &b.us_off);
        let them = acc(&b.them, &b.them_off);
        let h = HIDDEN as i64;
        us.matmul(&out_weight.narrow(0, 0, h)) + them.matmul(&out_weight.narrow(0, h, h)) + out_bias
    }

    /// The loss of `b`: `mean((sigmoid(out) - target)²)`.
    pub fn loss(&self, b: &Batch) -> Tensor {
        (self.forward(b).sigmoid() - &b.target).square().mean(Kind::Float)
    }

    /// Clips every weight and bias to `[-WEIGHT_CLIP, WEIGHT_CLIP]`, the range the quantized
    /// file holds (after each optimiser step).
    pub fn clip(&self) {
        tch::no_grad(|| {
            for p in self.params() {
                let _ = p.shallow_clone().clamp_(-f64::from(WEIGHT_CLIP), f64::from(WEIGHT_CLIP));
            }
        });
    }

    /// The weights as the engine's float network, on the quantized grid (as [`EvalNet::forward`]
    /// uses them).
    pub fn to_float(&self) -> FloatNet {
        let v = |t: &Tensor, scale: i32| {
            let t = tch::no_grad(|| fake_quant(t, f64::from(scale))).detach().to_kind(Kind::Float).contiguous().view([-1]);
            let n = t.numel();
            let mut out = vec![0f32; n];
            t.copy_data(&mut out, n);
            out
        };
        FloatNet {
            ft_weight: v(&self.ft_weight, QA),
            ft_bias: v(&self.ft_bias, QA),
            out_weight: v(&self.out_weight, QB),
            out_bias: v(&self.out_bias, QA * QB)[0],
        }
    }
}

/// `x` rounded to steps of `1 / scale` in the forward pass, with the identity's gradient (the
/// straight-through estimator).
fn fake_quant(x: &Tensor, scale: f64) -> Tensor {
    let snapped = (x * scale).round() / scale;
    x + (snapped - x).detach()
}

/// Adam (Kingma and Ba) over the four parameters, with its state for checkpoints.
#[derive(Debug)]
pub struct Adam {
    /// Learning rate.
    pub lr: f64,
    /// First-moment estimates, in [`PARAM_NAMES`] order.
    pub m: Vec<Tensor>,
    /// Second-moment estimates.
    pub v: Vec<Tensor>,
    /// Steps taken.
    pub step: u64,
}

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPS: f64 = 1e-8;

impl Adam {
    /// A fresh optimiser for `net`.
    pub fn new(net: &EvalNet, lr: f64) -> Adam {
        let z = |t: &Tensor| t.detach().zeros_like();
        Adam { lr, m: net.params().iter().map(|t| z(t)).collect(), v: net.params().iter().map(|t| z(t)).collect(), step: 0 }
    }

    /// One step on `b`: the loss's gradients, the Adam update and the clip; returns the loss.
    pub fn step(&mut self, net: &EvalNet, b: &Batch) -> f64 {
        for p in net.params() {
            let mut g = p.grad();
            if g.defined() {
                let _ = g.zero_();
            }
        }
        let loss = net.loss(b);
        loss.backward();
        self.step += 1;
        let t = self.step as i32;
        let (bc1, bc2) = (1.0 - BETA1.powi(t), 1.0 - BETA2.powi(t));
        tch::no_grad(|| {
            for (i, p) in net.params().into_iter().enumerate() {
                let g = p.grad();
                if !g.defined() {
                    continue;
                }
                let _ = self.m[i].lerp_(&g, 1.0 - BETA1);
                let _ = self.v[i].lerp_(&g.square(), 1.0 - BETA2);
                let denom = (&self.v[i] / bc2).sqrt() + EPS;
                let update = (&self.m[i] / bc1) / denom * self.lr;
                let mut p = p.shallow_clone();
                p -= update;
            }
        });
        net.clip();
        loss.double_value(&[])
    }
}

/// The mean loss of `enc`'s samples `ids` (no gradients), in batches of `batch`.
pub fn mean_loss(net: &EvalNet, enc: &Encoded, ids: &[usize], batch: usize, lambda: f32) -> f64 {
    if ids.is_empty() {
        return f64::NAN;
    }
    tch::no_grad(|| {
        let mut sum = 0.0;
        for chunk in ids.chunks(batch.max(1)) {
            sum += net.loss(&enc.batch(chunk, lambda)).double_value(&[]) * chunk.len() as f64;
        }
        sum / ids.len() as f64
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::nnue::Network;

    fn geometry() -> Geometry {
        Geometry::new(9, 10)
    }

    /// A few real positions: the xiangqi start with pieces removed one by one.
    fn samples() -> Vec<EvalSample> {
        let v = engine::any_game::load_variant("xiangqi").expect("xiangqi");
        let s = engine::variant::State::new_game(v);
        let all = engine::nnue::pieces_of(s.position(), s.face_down());
        (0..12)
            .map(|k| {
                let pieces: Vec<_> = all.iter().copied().enumerate().filter(|(i, _)| i % 13 != k).map(|(_, p)| p).collect();
                EvalSample::new(&pieces, engine::Color::ALL[k % 2], (k as i16 - 6) * 40, (k % 3) as i8 - 1, k as u16)
            })
            .collect()
    }

    /// The tch forward pass is the engine's float evaluation, and an exported network
    /// quantizes to it within the integer arithmetic's rounding.
    #[test]
    fn forward_matches_the_engine_float_net() {
        let net = EvalNet::new(3);
        let f = net.to_float();
        let samples = samples();
        let geom = geometry();
        let enc = Encoded::new(&geom, &samples);
        let ids: Vec<usize> = (0..samples.len()).collect();
        let out = tch::no_grad(|| net.forward(&enc.batch(&ids, 1.0)));
        let q = Network::quantize(&f, engine::nnue::NetMeta::default());
        for (i, s) in samples.iter().enumerate() {
            let torch_cp = out.double_value(&[i as i64]) as f32 * EVAL_SCALE;
            let engine_cp = f.evaluate(&geom, &s.pieces_on(), s.side_to_move());
            assert!((torch_cp - engine_cp).abs() < 0.05, "sample {i}: tch {torch_cp} engine {engine_cp}");
            let quant = q.evaluate_pieces(&geom, &s.pieces_on(), s.side_to_move());
            // The float net is on the quantized grid: only the integer divisions remain.
            assert!((quant as f32 - engine_cp).abs() < 1.5, "sample {i}: quantized {quant} float {engine_cp}");
        }
    }

    /// Every parameter stays within the quantizable range after a step with a huge rate.
    #[test]
    fn steps_clip_to_the_quantizable_range() {
        let net = EvalNet::new(4);
        let mut adam = Adam::new(&net, 50.0);
        let samples = samples();
        let enc = Encoded::new(&geometry(), &samples);
        let ids: Vec<usize> = (0..samples.len()).collect();
        let loss = adam.step(&net, &enc.batch(&ids, 0.5));
        assert!(loss.is_finite());
        for p in net.params() {
            assert!(p.abs().max().double_value(&[]) <= f64::from(WEIGHT_CLIP) + 1e-6);
        }
        assert_eq!(adam.step, 1);
    }
}
