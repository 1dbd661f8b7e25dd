//! Training: batches from samples, the loss (policy cross-entropy over the legal slots plus
//! win/draw/loss cross-entropy), the optimiser (Adam with decoupled weight decay, or SGD with
//! momentum; its state is saved with checkpoints so a resumed run continues exactly) and the
//! learning-rate schedule.

use crate::checkpoint::CheckpointError;
use crate::encoding::{ACTIONS, FILES, PLANES, ROWS};
use crate::net::{obs_tensor_for, Net};
use engine::observe::Encoding;
use crate::shard::Sample;
use serde::{Deserialize, Serialize};
use std::path::Path;
use tch::{Device, Kind, Tensor};

/// Which optimiser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptimizerKind {
    /// Adam with decoupled weight decay (AdamW).
    #[default]
    Adam,
    /// SGD with momentum and L2 weight decay.
    Sgd,
}

/// Learning-rate schedule after the warm-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Schedule {
    /// Constant.
    #[default]
    Constant,
    /// Cosine decay to `lr * lr_min_fraction` at the last step.
    Cosine,
    /// Linear decay to `lr * lr_min_fraction` at the last step.
    Linear,
}

/// Optimiser settings (the `[optimizer]` table of a training config).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptimConfig {
    /// `adam` or `sgd`.
    #[serde(default)]
    pub kind: OptimizerKind,
    /// Peak learning rate.
    pub lr: f64,
    /// Momentum (SGD) or Adam's beta1.
    #[serde(default = "default_momentum")]
    pub momentum: f64,
    /// Weight decay.
    #[serde(default = "default_weight_decay")]
    pub weight_decay: f64,
    /// Schedule after the warm-up.
    #[serde(default)]
    pub schedule: Schedule,
    /// Linear warm-up steps.
    #[serde(default)]
    pub warmup_steps: u64,
    /// Final learning rate as a fraction of `lr` (cosine, linear).
    #[serde(default = "default_lr_min_fraction")]
    pub lr_min_fraction: f64,
    /// Weight of the value loss.
    #[serde(default = "default_value_weight")]
    pub value_weight: f64,
    /// Weight of the search's value in the value target: the target is
    /// `(1 - q_weight) * outcome + q_weight * search value`, each as a win/draw/loss
    /// distribution (a value q as win `max(q, 0)`, loss `max(-q, 0)`, draw the rest). Game
    /// outcomes alone are few and shared by every position of a game, which a small net
    /// memorises; the search value is per position.
    #[serde(default)]
    pub q_weight: f64,
}

fn default_momentum() -> f64 {
    0.9
}
fn default_weight_decay() -> f64 {
    1e-4
}
fn default_lr_min_fraction() -> f64 {
    0.1
}
fn default_value_weight() -> f64 {
    1.0
}

impl OptimConfig {
    /// The learning rate at `step` (0-based) of `total` steps.
    pub fn lr_at(&self, step: u64, total: u64) -> f64 {
        if step < self.warmup_steps {
            return self.lr * (step + 1) as f64 / self.warmup_steps as f64;
        }
        let span = total.saturating_sub(self.warmup_steps).max(1) as f64;
        let t = ((step - self.warmup_steps) as f64 / span).min(1.0);
        let lo = self.lr * self.lr_min_fraction;
        match self.schedule {
            Schedule::Constant => self.lr,
            Schedule::Cosine => lo + (self.lr - lo) * 0.5 * (1.0 + (std::f64::consts::PI * t).cos()),
            Schedule::Linear => self.lr + (lo - self.lr) * t,
        }
    }
}

/// A training batch as tensors.
pub struct Batch {
    /// `[n, planes, rows, files]` (`[n, PLANES, 10, 9]` for the variant encoding).
    pub obs: Tensor,
    /// Legal slots `[n, L]`, padded with each row's first legal slot.
    pub legal_idx: Tensor,
    /// `[n, L]`, true on padding.
    pub legal_pad: Tensor,
    /// Policy target slots `[n, T]`, padded with the first legal slot.
    pub target_idx: Tensor,
    /// Policy target probabilities `[n, T]`, 0 on padding.
    pub target_p: Tensor,
    /// Win/draw/loss target distribution `[n, 3]`.
    pub value: Tensor,
    /// Rows.
    pub len: usize,
}

impl Batch {
    /// Assembles a batch from samples of the variant encoding on `device`; `q_weight` as in
    /// [`OptimConfig::q_weight`].
    pub fn new(samples: &[&Sample], device: Device, q_weight: f64) -> Batch {
        Batch::new_for(samples, &crate::encoding::encoding(), device, q_weight)
    }

    /// Assembles a batch from samples of `encoding` (e.g. [`Net::encoding`]) on `device`.
    pub fn new_for(samples: &[&Sample], encoding: &Encoding, device: Device, q_weight: f64) -> Batch {
        let n = samples.len();
        let len = encoding.obs_len();
        let mut obs = vec![0f32; n * len];
        let l = samples.iter().map(|s| s.legal.len()).max().unwrap_or(1).max(1);
        let t = samples.iter().map(|s| s.policy.len()).max().unwrap_or(1).max(1);
        let mut legal_idx = vec![0i64; n * l];
        let mut legal_pad = vec![true; n * l];
        let mut target_idx = vec![0i64; n * t];
        let mut target_p = vec![0f32; n * t];
        let mut value = vec![0f32; 3 * n];
        let lambda = q_weight.clamp(0.0, 1.0) as f32;
        for (i, s) in samples.iter().enumerate() {
            s.obs.expand_into_shape(&mut obs[i * len..(i + 1) * len], &encoding.observation);
            let first = s.legal.first().map(|&a| i64::from(a)).unwrap_or(0);
            legal_idx[i * l..(i + 1) * l].fill(first);
            target_idx[i * t..(i + 1) * t].fill(first);
            for (j, &a) in s.legal.iter().enumerate() {
                legal_idx[i * l + j] = i64::from(a);
                legal_pad[i * l + j] = false;
            }
            let total: f32 = s.policy.iter().map(|(_, p)| p).sum();
            for (j, &(a, p)) in s.policy.iter().enumerate() {
                target_idx[i * t + j] = i64::from(a);
                target_p[i * t + j] = if total > 0.0 { p / total } else { 0.0 };
            }
            let (z, q) = (Sample::wdl(s.outcome), Sample::wdl(s.q));
            for k in 0..3 {
                value[3 * i + k] = (1.0 - lambda) * z[k] + lambda * q[k];
            }
        }
        let shape = |k: usize| [n as i64, k as i64];
        Batch {
            obs: obs_tensor_for(&obs, encoding, device),
            legal_idx: Tensor::from_slice(&legal_idx).view(shape(l)).to_device(device),
            legal_pad: Tensor::from_slice(&legal_pad).view(shape(l)).to_device(device),
            target_idx: Tensor::from_slice(&target_idx).view(shape(t)).to_device(device),
            target_p: Tensor::from_slice(&target_p).view(shape(t)).to_device(device),
            value: Tensor::from_slice(&value).view(shape(3)).to_device(device),
            len: n,
        }
    }
}

/// Shapes of a synthetic batch ([`Batch::synthetic`]): what self-play batches look like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyntheticShape {
    /// Rows.
    pub batch: usize,
    /// Legal slots per row (the widest row of a batch).
    pub legal: usize,
    /// Of those, padding (the narrower rows' unused slots).
    pub padding: usize,
    /// Policy target slots per row (visited actions).
    pub targets: usize,
}

impl SyntheticShape {
    /// `batch` rows of 45 legal slots (5 of them padding) and 20 policy targets: typical of
    /// self-play batches, and what `scripts/bench_train.py` builds in PyTorch.
    pub fn typical(batch: usize) -> SyntheticShape {
        SyntheticShape { batch, legal: 45, padding: 5, targets: 20 }
    }
}

impl Batch {
    /// A batch of random data with the given shapes, for benchmarks: observations with 5 % of
    /// the planes' points set, random legal slots (the last `padding` masked), the first
    /// `targets` of them as policy targets with softmax-of-normal probabilities, and a random
    /// one-hot win/draw/loss target. Draws from libtorch's generator (`tch::manual_seed`).
    ///
    /// # Panics
    /// If `padding >= legal` or `targets > legal - padding`.
    pub fn synthetic(shape: SyntheticShape, device: Device) -> Batch {
        let SyntheticShape { batch: n, legal: l, padding, targets: t } = shape;
        assert!(padding < l && t <= l - padding, "synthetic batch shape {shape:?}");
        let (n, l, t) = (n as i64, l as i64, t as i64);
        let cpu = |k: Kind| (k, Device::Cpu);
        let obs = Tensor::rand([n, PLANES as i64, ROWS as i64, FILES as i64], cpu(Kind::Float)).lt(0.05).to_kind(Kind::Float);
        let legal_idx = Tensor::randint(ACTIONS as i64, [n, l], cpu(Kind::Int64));
        let legal_pad = Tensor::zeros([n, l], cpu(Kind::Bool));
        let _ = legal_pad.narrow(1, l - padding as i64, padding as i64).fill_(1);
        let target_idx = legal_idx.narrow(1, 0, t).copy();
        let target_p = Tensor::randn([n, t], cpu(Kind::Float)).softmax(1, Kind::Float);
        let value = Tensor::randint(3, [n], cpu(Kind::Int64)).one_hot(3).to_kind(Kind::Float);
        Batch {
            obs: obs.to_device(device),
            legal_idx: legal_idx.to_device(device),
            legal_pad: legal_pad.to_device(device),
            target_idx: target_idx.to_device(device),
            target_p: target_p.to_device(device),
            value: value.to_device(device),
            len: n as usize,
        }
    }
}

/// Losses of one step (batch means).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Losses {
    /// Policy cross-entropy against the visit distribution.
    pub policy: f64,
    /// Win/draw/loss cross-entropy.
    pub value: f64,
    /// `policy + value_weight * value`.
    pub total: f64,
}

/// Policy and value losses of `net` on `b` (`train` selects batch-norm mode), as graph tensors.
pub fn losses(net: &Net, b: &Batch, train: bool) -> (Tensor, Tensor) {
    let (logits, v) = net.forward_t(&b.obs, train);
    let legal = logits.gather(1, &b.legal_idx, false).masked_fill(&b.legal_pad, f64::NEG_INFINITY);
    let lse = legal.logsumexp([1i64], true);
    let logp = logits.gather(1, &b.target_idx, false) - lse;
    let policy = -(logp * &b.target_p).sum_dim_intlist(&[1i64][..], false, Kind::Float).mean(Kind::Float);
    let value = -(v.log_softmax(1, Kind::Float) * &b.value).sum_dim_intlist(&[1i64][..], false, Kind::Float).mean(Kind::Float);
    (policy, value)
}

/// The net being trained and the optimiser state.
pub struct Trainer {
    /// The net.
    pub net: Net,
    params: Vec<(String, Tensor)>,
    m: Vec<Tensor>,
    v: Vec<Tensor>,
    /// Optimiser steps taken.
    pub step: u64,
    /// Settings.
    pub config: OptimConfig,
    /// Steps of the whole run (for the schedule).
    pub total_steps: u64,
}

const BETA2: f64 = 0.999;
const EPS: f64 = 1e-8;

impl Trainer {
    /// A trainer for `net` starting at step 0.
    pub fn new(net: Net, config: OptimConfig, total_steps: u64) -> Trainer {
        let mut params: Vec<(String, Tensor)> =
            net.var_store().variables().into_iter().filter(|(_, t)| t.requires_grad()).collect();
        params.sort_by(|a, b| a.0.cmp(&b.0));
        let zeros = |ps: &[(String, Tensor)]| ps.iter().map(|(_, t)| t.zeros_like()).collect();
        let m = zeros(&params);
        let v = if config.kind == OptimizerKind::Adam { zeros(&params) } else { Vec::new() };
        Trainer { net, params, m, v, step: 0, config, total_steps }
    }

    /// The learning rate of the next step.
    pub fn lr(&self) -> f64 {
        self.config.lr_at(self.step, self.total_steps)
    }

    /// One optimiser step on `b`.
    pub fn train_step(&mut self, b: &Batch) -> Losses {
        let (policy, value) = losses(&self.net, b, true);
        let total = &policy + &value * self.config.value_weight;
        for (_, p) in &self.params {
            let mut g = p.grad();
            if g.defined() {
                let _ = g.zero_();
            }
        }
        total.backward();
        let lr = self.lr();
        self.step += 1;
        let t = self.step as i32;
        let c = &self.config;
        tch::no_grad(|| {
            for (i, (_, p)) in self.params.iter().enumerate() {
                let g = p.grad();
                if !g.defined() {
                    continue;
                }
                let mut p = p.shallow_clone();
                match c.kind {
                    OptimizerKind::Adam => {
                        // PyTorch's AdamW: decoupled decay, bias corrections folded into the step.
                        if c.weight_decay > 0.0 {
                            p *= 1.0 - lr * c.weight_decay;
                        }
                        let _ = self.m[i].lerp_(&g, 1.0 - c.momentum);
                        let _ = self.v[i].lerp_(&g.square(), 1.0 - BETA2);
                        let bc1 = 1.0 - c.momentum.powi(t);
                        let bc2 = (1.0 - BETA2.powi(t)).sqrt();
                        let mut denom = self.v[i].sqrt();
                        denom += EPS * bc2;
                        let mut update = &self.m[i] / &denom;
                        update *= lr * bc2 / bc1;
                        p -= &update;
                    }
                    OptimizerKind::Sgd => {
                        let g = if c.weight_decay > 0.0 { &g + &p * c.weight_decay } else { g };
                        self.m[i] *= c.momentum;
                        self.m[i] += &g;
                        p -= &self.m[i] * lr;
                    }
                }
            }
        });
        let pv = policy.double_value(&[]);
        let vv = value.double_value(&[]);
        Losses { policy: pv, value: vv, total: pv + c.value_weight * vv }
    }

    /// Losses on `b` without training (batch-norm running statistics). With `q_weight` above 0
    /// the value loss is against the blended target.
    pub fn evaluate(&self, b: &Batch) -> Losses {
        tch::no_grad(|| {
            let (p, v) = losses(&self.net, b, false);
            let (p, v) = (p.double_value(&[]), v.double_value(&[]));
            Losses { policy: p, value: v, total: p + self.config.value_weight * v }
        })
    }

    /// The optimiser state as named CPU tensors (`m.<var>`, `v.<var>`, `step`).
    pub fn optimizer_state(&self) -> Vec<(String, Tensor)> {
        let mut out = Vec::new();
        for (i, (n, _)) in self.params.iter().enumerate() {
            out.push((format!("m.{n}"), self.m[i].to_device(Device::Cpu)));
            if let Some(v) = self.v.get(i) {
                out.push((format!("v.{n}"), v.to_device(Device::Cpu)));
            }
        }
        out.push(("step".into(), Tensor::from_slice(&[self.step as i64])));
        out
    }

    /// Restores the optimiser state saved by [`Trainer::optimizer_state`] (`path` names the
    /// file in errors).
    pub fn load_optimizer_state(&mut self, tensors: Vec<(String, Tensor)>, path: &Path) -> Result<(), CheckpointError> {
        let bad = |detail: String| CheckpointError::Weights { path: path.to_path_buf(), detail };
        let map: std::collections::HashMap<String, Tensor> = tensors.into_iter().collect();
        let dev = self.net.device();
        for (i, (n, p)) in self.params.iter().enumerate() {
            let get = |k: String| -> Result<Tensor, CheckpointError> {
                let t = map.get(&k).ok_or_else(|| bad(format!("optimiser state lacks {k}")))?;
                if t.size() != p.size() {
                    return Err(bad(format!("optimiser tensor {k}: shape {:?}, expected {:?}", t.size(), p.size())));
                }
                Ok(t.to_device(dev))
            };
            self.m[i] = get(format!("m.{n}"))?;
            if self.config.kind == OptimizerKind::Adam {
                self.v[i] = get(format!("v.{n}"))?;
            }
        }
        let step = map.get("step").ok_or_else(|| bad("optimiser state lacks step".into()))?;
        self.step = u64::try_from(step.int64_value(&[0])).map_err(|_| bad("negative step".into()))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules() {
        let mut c = OptimConfig {
            kind: OptimizerKind::Adam,
            lr: 1.0,
            momentum: 0.9,
            weight_decay: 0.0,
            schedule: Schedule::Cosine,
            warmup_steps: 10,
            lr_min_fraction: 0.1,
            value_weight: 1.0,
            q_weight: 0.0,
        };
        assert!((c.lr_at(0, 110) - 0.1).abs() < 1e-12);
        assert!((c.lr_at(9, 110) - 1.0).abs() < 1e-12);
        assert!((c.lr_at(10, 110) - 1.0).abs() < 1e-12);
        assert!((c.lr_at(110, 110) - 0.1).abs() < 1e-9);
        c.schedule = Schedule::Linear;
        assert!((c.lr_at(60, 110) - 0.55).abs() < 1e-9);
        c.schedule = Schedule::Constant;
        assert_eq!(c.lr_at(100, 110), 1.0);
    }

    #[test]
    fn synthetic_batches_have_the_asked_shapes_and_train() {
        tch::manual_seed(1);
        let b = Batch::synthetic(SyntheticShape::typical(6), Device::Cpu);
        assert_eq!(b.obs.size(), [6, PLANES as i64, ROWS as i64, FILES as i64]);
        assert_eq!((b.legal_idx.size(), b.target_idx.size(), b.value.size()), (vec![6, 45], vec![6, 20], vec![6, 3]));
        assert_eq!(b.legal_pad.sum(Kind::Int64).int64_value(&[]), 6 * 5);
        assert!((b.target_p.sum(Kind::Float).double_value(&[]) - 6.0).abs() < 1e-4);
        assert_eq!(b.value.sum(Kind::Float).double_value(&[]), 6.0);
        let net = Net::new(&crate::net::NetConfig::new(1, 8), Device::Cpu, 0);
        let config = OptimConfig {
            kind: OptimizerKind::Adam,
            lr: 1e-3,
            momentum: 0.9,
            weight_decay: 1e-4,
            schedule: Schedule::Constant,
            warmup_steps: 0,
            lr_min_fraction: 0.1,
            value_weight: 1.0,
            q_weight: 0.0,
        };
        let mut t = Trainer::new(net, config, 10);
        let first = t.train_step(&b);
        assert!(first.total.is_finite() && first.policy > 0.0 && first.value > 0.0, "{first:?}");
        for _ in 0..5 {
            t.train_step(&b);
        }
        assert!(t.evaluate(&b).total.is_finite());
    }
}
