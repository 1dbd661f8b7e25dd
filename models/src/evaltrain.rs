//! Training the learned evaluation (issue #36 item 2): Adam on [`EvalNet`] over labelled positions,
//! a validation split of held-out games, a learning curve (`curve.csv`: epoch, step, train and validation
//! loss, seconds, positions/s), checkpoints every epoch that a rerun resumes from, a wall-clock
//! budget, and the export of the quantized network (`eval.nnue`, `engine::nnue::Network`) with
//! its float-vs-quantized error in centipawns over the validation positions.

use crate::evalnet::{mean_loss, Adam, Encoded, EvalNet, PARAM_NAMES};
use crate::evalshard::EvalSample;
use engine::geometry::Geometry;
use engine::nnue::{NetMeta, Network, NnueError};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tch::Tensor;

/// `[evaltrain]`: the trainer's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FitConfig {
    /// Adam's learning rate.
    #[serde(default = "default_lr")]
    pub lr: f64,
    /// The learning rate of the last epoch as a fraction of `lr`: the rate decays geometrically
    /// from `lr` (first epoch) to `lr * lr_final_fraction` (last); 1 keeps it constant.
    #[serde(default = "default_lr_final")]
    pub lr_final_fraction: f64,
    /// Positions per step.
    #[serde(default = "default_batch")]
    pub batch_size: usize,
    /// Passes over the training positions.
    #[serde(default = "default_epochs")]
    pub epochs: u32,
    /// Share of the positions held out for validation (by a seeded shuffle).
    #[serde(default = "default_validation")]
    pub validation_fraction: f64,
    /// Weight of the search score in the target (the rest: the game result).
    #[serde(default = "default_lambda")]
    pub lambda: f32,
    /// Wall-clock budget of the training in minutes (0: none); checked between steps.
    #[serde(default)]
    pub max_minutes: f64,
    /// libtorch threads (0: the run's `threads`).
    #[serde(default)]
    pub threads: usize,
    /// Also train on each training position mirrored left-right (files `f -> files-1-f`): the
    /// rules of every RULES.md variant are symmetric under it, so it doubles the data for free.
    #[serde(default = "default_mirror")]
    pub mirror: bool,
}

fn default_mirror() -> bool {
    true
}

fn default_lr() -> f64 {
    1e-3
}
fn default_lr_final() -> f64 {
    0.1
}
fn default_batch() -> usize {
    1024
}
fn default_epochs() -> u32 {
    20
}
fn default_validation() -> f64 {
    0.05
}
fn default_lambda() -> f32 {
    0.75
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            lr: default_lr(),
            lr_final_fraction: default_lr_final(),
            batch_size: default_batch(),
            epochs: default_epochs(),
            validation_fraction: default_validation(),
            lambda: default_lambda(),
            max_minutes: 0.0,
            threads: 0,
            mirror: default_mirror(),
        }
    }
}

impl FitConfig {
    /// The learning rate of epoch `epoch` (0-based): geometric from `lr` to
    /// `lr * lr_final_fraction` at the last epoch.
    pub fn lr_at(&self, epoch: u32) -> f64 {
        let t = if self.epochs > 1 { f64::from(epoch.min(self.epochs - 1)) / f64::from(self.epochs - 1) } else { 0.0 };
        self.lr * self.lr_final_fraction.powf(t)
    }

    /// Checks values that types cannot; the message names the key (under `section`).
    ///
    /// # Errors
    /// A message naming the bad key.
    pub fn validate(&self, section: &str) -> Result<(), String> {
        if !(self.lr > 0.0 && self.lr.is_finite()) {
            return Err(format!("key `{section}.lr` must be a positive number"));
        }
        if !(self.lr_final_fraction > 0.0 && self.lr_final_fraction <= 1.0) {
            return Err(format!("key `{section}.lr_final_fraction` must be in (0, 1]"));
        }
        if self.batch_size == 0 {
            return Err(format!("key `{section}.batch_size` must be positive"));
        }
        if self.epochs == 0 {
            return Err(format!("key `{section}.epochs` must be positive"));
        }
        if !(0.0..1.0).contains(&self.validation_fraction) {
            return Err(format!("key `{section}.validation_fraction` must be in [0, 1)"));
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err(format!("key `{section}.lambda` must be in [0, 1]"));
        }
        if !(self.max_minutes >= 0.0 && self.max_minutes.is_finite()) {
            return Err(format!("key `{section}.max_minutes` must be a non-negative number"));
        }
        Ok(())
    }
}

/// Why training or the export failed; each names the file where there is one.
#[derive(Debug, thiserror::Error)]
pub enum FitError {
    /// No positions to train on.
    #[error("no training positions (the data directory has no samples)")]
    NoData,
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// A checkpoint that does not load.
    #[error("{path}: checkpoint: {detail}")]
    Checkpoint {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// The network file could not be written.
    #[error(transparent)]
    Nnue(#[from] NnueError),
}

/// One line of the learning curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpochLog {
    /// Epochs completed (1-based).
    pub epoch: u32,
    /// Optimiser steps so far.
    pub step: u64,
    /// Mean training loss over the epoch's steps.
    pub train_loss: f64,
    /// Validation loss after the epoch (NaN without a validation split).
    pub val_loss: f64,
    /// Seconds of the epoch.
    pub seconds: f64,
    /// Training positions per second in the epoch.
    pub positions_per_s: f64,
    /// Whether the wall-clock budget cut the epoch short.
    pub cut: bool,
}

/// What [`fit`] did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitReport {
    /// Training positions.
    pub train_positions: usize,
    /// Validation positions.
    pub val_positions: usize,
    /// Validation loss of the network before this call's first step.
    pub initial_val_loss: f64,
    /// The epochs of this call.
    pub epochs: Vec<EpochLog>,
    /// Epochs completed in all (resumed ones included).
    pub epochs_done: u32,
    /// Whether training resumed from a checkpoint.
    pub resumed: bool,
    /// The epoch (0: the start) whose network had the lowest validation loss: the one returned
    /// and exported (early stopping; the last one without a validation split).
    pub best_epoch: u32,
    /// Its validation loss.
    pub best_val_loss: f64,
}

/// The split of `samples` into (training, validation) indices by whole games, so that no game
/// has positions on both sides (positions of one game are correlated): a game is a run of
/// samples with rising plies (as the generator writes them; two short games may merge, which
/// only coarsens the split). Games are shuffled with `seed` and taken for validation until
/// `fraction` of the positions is reached.
pub fn split(samples: &[EvalSample], fraction: f64, seed: u64) -> (Vec<usize>, Vec<usize>) {
    let mut games: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    for i in 1..=samples.len() {
        if i == samples.len() || samples[i].ply <= samples[i - 1].ply {
            games.push(start..i);
            start = i;
        }
    }
    games.shuffle(&mut Pcg64Mcg::seed_from_u64(seed ^ 0x5B11_7000));
    let want = ((samples.len() as f64) * fraction).round() as usize;
    let (mut train, mut val) = (Vec::new(), Vec::new());
    for g in games {
        if val.len() < want {
            val.extend(g);
        } else {
            train.extend(g);
        }
    }
    train.sort_unstable();
    val.sort_unstable();
    (train, val)
}

/// The checkpoint of a training directory.
pub fn checkpoint_path(dir: &Path) -> PathBuf {
    dir.join("evalnet.safetensors")
}

/// The network of the epoch with the lowest validation loss so far.
struct Best {
    val: f64,
    epoch: u32,
    params: Vec<Tensor>,
}

impl Best {
    fn of(net: &EvalNet, val: f64, epoch: u32) -> Best {
        Best { val, epoch, params: net.params().iter().map(|p| p.detach().copy()).collect() }
    }
}

fn save_checkpoint(dir: &Path, net: &EvalNet, adam: &Adam, epochs_done: u32, best: &Best) -> Result<(), FitError> {
    let path = checkpoint_path(dir);
    let mut named: Vec<(String, Tensor)> = Vec::new();
    for (i, (name, p)) in PARAM_NAMES.iter().zip(net.params()).enumerate() {
        named.push((name.to_string(), p.detach().copy()));
        named.push((format!("adam.m.{name}"), adam.m[i].copy()));
        named.push((format!("adam.v.{name}"), adam.v[i].copy()));
    }
    named.push(("adam.step".into(), Tensor::from_slice(&[adam.step as i64])));
    named.push(("epochs_done".into(), Tensor::from_slice(&[i64::from(epochs_done)])));
    for (name, p) in PARAM_NAMES.iter().zip(&best.params) {
        named.push((format!("best.{name}"), p.copy()));
    }
    named.push(("best.val".into(), Tensor::from_slice(&[best.val])));
    named.push(("best.epoch".into(), Tensor::from_slice(&[i64::from(best.epoch)])));
    let tmp = engine::fsio::temp_name(&path);
    let io = |source| FitError::Io { path: path.clone(), source };
    Tensor::write_safetensors(&named, &tmp).map_err(|e| FitError::Checkpoint { path: tmp.clone(), detail: e.to_string() })?;
    std::fs::rename(&tmp, &path).map_err(io)
}

/// A loaded checkpoint: the network, the optimiser, the epochs done and the best network kept.
type Loaded = (EvalNet, Adam, u32, Option<Best>);

fn load_checkpoint(dir: &Path, lr: f64) -> Result<Option<Loaded>, FitError> {
    let path = checkpoint_path(dir);
    if !path.is_file() {
        return Ok(None);
    }
    let bad = |detail: String| FitError::Checkpoint { path: path.clone(), detail };
    let tensors = Tensor::read_safetensors(&path).map_err(|e| bad(e.to_string()))?;
    let get = |name: &str| -> Result<Tensor, FitError> {
        tensors.iter().find(|(n, _)| n == name).map(|(_, t)| t.shallow_clone()).ok_or_else(|| bad(format!("tensor `{name}` missing")))
    };
    let fresh = EvalNet::new(0);
    let mut params = Vec::new();
    let (mut m, mut v) = (Vec::new(), Vec::new());
    for (name, want) in PARAM_NAMES.iter().zip(fresh.params()) {
        let p = get(name)?;
        if p.size() != want.size() {
            return Err(bad(format!("tensor `{name}` has shape {:?}, expected {:?}", p.size(), want.size())));
        }
        params.push(p.set_requires_grad(true));
        m.push(get(&format!("adam.m.{name}"))?);
        v.push(get(&format!("adam.v.{name}"))?);
    }
    let scalar = |name: &str| -> Result<i64, FitError> { Ok(get(name)?.int64_value(&[0])) };
    let step = scalar("adam.step")? as u64;
    let epochs = scalar("epochs_done")? as u32;
    let mut it = params.into_iter();
    let mut next = || it.next().expect("four parameters");
    let net = EvalNet { ft_weight: next(), ft_bias: next(), out_weight: next(), out_bias: next() };
    // A checkpoint written before the best network was kept has none: the current one stands in.
    let best = if tensors.iter().any(|(n, _)| n == "best.val") {
        let params = PARAM_NAMES.iter().map(|name| get(&format!("best.{name}"))).collect::<Result<Vec<_>, _>>()?;
        Some(Best { val: get("best.val")?.double_value(&[0]), epoch: scalar("best.epoch")? as u32, params })
    } else {
        None
    };
    Ok(Some((net, Adam { lr, m, v, step }, epochs, best)))
}

/// Trains on `samples` (board geometry `geom`) in `dir` (created if needed): resumes from
/// `dir`'s checkpoint, appends to `dir/curve.csv`, checkpoints after every epoch and when the
/// budget stops it. `say` receives one line per epoch. Returns the report, the network of the
/// epoch with the lowest validation loss (early stopping: positions of a few thousand games are
/// memorised within a few epochs) and the validation indices.
///
/// # Errors
/// [`FitError`]: no samples, a file that cannot be written, a damaged checkpoint.
pub fn fit(cfg: &FitConfig, geom: &Geometry, samples: &[EvalSample], dir: &Path, seed: u64, mut say: impl FnMut(&str)) -> Result<(FitReport, EvalNet, Vec<usize>), FitError> {
    if samples.is_empty() {
        return Err(FitError::NoData);
    }
    std::fs::create_dir_all(dir).map_err(|source| FitError::Io { path: dir.to_path_buf(), source })?;
    let start = Instant::now();
    let budget = (cfg.max_minutes > 0.0).then_some(cfg.max_minutes * 60.0);
    let (mut train, val) = split(samples, cfg.validation_fraction, seed);
    let enc = if cfg.mirror {
        // The mirrored training positions follow the originals; validation stays as played.
        let mut all = samples.to_vec();
        all.extend(train.iter().map(|&i| samples[i].mirrored(geom.files)));
        train.extend(samples.len()..all.len());
        Encoded::new(geom, &all)
    } else {
        Encoded::new(geom, samples)
    };
    let (net, mut adam, mut done, loaded_best) = match load_checkpoint(dir, cfg.lr)? {
        Some((n, a, e, b)) => (n, a, e, Some(b)),
        None => {
            let n = EvalNet::new(seed);
            let a = Adam::new(&n, cfg.lr);
            (n, a, 0, None)
        }
    };
    let resumed = loaded_best.is_some();
    let loaded_best = loaded_best.flatten();
    let eval_batch = 8192;
    let initial_val_loss = mean_loss(&net, &enc, &val, eval_batch, cfg.lambda);
    let mut best = loaded_best.unwrap_or_else(|| Best::of(&net, initial_val_loss, done));
    say(&format!(
        "evaltrain: {} training and {} validation positions, {} epochs of batch {} at lr {}{}; validation loss {initial_val_loss:.6}",
        train.len(),
        val.len(),
        cfg.epochs,
        cfg.batch_size,
        cfg.lr,
        if resumed { format!(" (resumed after epoch {done})") } else { String::new() }
    ));
    let curve = dir.join("curve.csv");
    let new_curve = !curve.is_file();
    let mut csv = std::fs::OpenOptions::new().create(true).append(true).open(&curve).map_err(|source| FitError::Io { path: curve.clone(), source })?;
    let io = |source| FitError::Io { path: curve.clone(), source };
    if new_curve {
        writeln!(csv, "epoch,step,train_loss,val_loss,seconds,positions_per_s,cut").map_err(io)?;
    }
    let mut report = FitReport {
        train_positions: train.len(),
        val_positions: val.len(),
        initial_val_loss,
        epochs: Vec::new(),
        epochs_done: done,
        resumed,
        best_epoch: best.epoch,
        best_val_loss: best.val,
    };
    while done < cfg.epochs {
        if budget.is_some_and(|b| start.elapsed().as_secs_f64() >= b) {
            break;
        }
        let t0 = Instant::now();
        adam.lr = cfg.lr_at(done);
        let mut order = train.clone();
        order.shuffle(&mut Pcg64Mcg::seed_from_u64(epoch_seed(seed, done)));
        let (mut sum, mut seen, mut cut) = (0.0, 0usize, false);
        for chunk in order.chunks(cfg.batch_size) {
            if budget.is_some_and(|b| start.elapsed().as_secs_f64() >= b) {
                cut = true;
                break;
            }
            sum += adam.step(&net, &enc.batch(chunk, cfg.lambda)) * chunk.len() as f64;
            seen += chunk.len();
        }
        let seconds = t0.elapsed().as_secs_f64();
        if !cut {
            done += 1;
        }
        let log = EpochLog {
            epoch: done,
            step: adam.step,
            train_loss: sum / seen.max(1) as f64,
            val_loss: mean_loss(&net, &enc, &val, eval_batch, cfg.lambda),
            seconds,
            positions_per_s: seen as f64 / seconds.max(1e-9),
            cut,
        };
        writeln!(csv, "{},{},{:.6},{:.6},{:.2},{:.0},{}", log.epoch, log.step, log.train_loss, log.val_loss, log.seconds, log.positions_per_s, log.cut).map_err(io)?;
        say(&format!(
            "evaltrain: epoch {}/{} step {} lr {:.2e} train loss {:.6} validation loss {:.6} ({:.0} positions/s{})",
            log.epoch,
            cfg.epochs,
            log.step,
            adam.lr,
            log.train_loss,
            log.val_loss,
            log.positions_per_s,
            if cut { ", cut by max_minutes" } else { "" }
        ));
        // Without a validation split every epoch is "best" (the last one is returned).
        if val.is_empty() || log.val_loss < best.val {
            best = Best::of(&net, log.val_loss, log.epoch);
        }
        save_checkpoint(dir, &net, &adam, done, &best)?;
        report.epochs.push(log);
        if cut {
            break;
        }
    }
    report.epochs_done = done;
    report.best_epoch = best.epoch;
    report.best_val_loss = best.val;
    if best.epoch != done {
        say(&format!("evaltrain: the network of epoch {} has the lowest validation loss ({:.6}): returned for the export", best.epoch, best.val));
    }
    let mut it = best.params.into_iter();
    let mut next = || it.next().expect("four parameters");
    let net = EvalNet { ft_weight: next(), ft_bias: next(), out_weight: next(), out_bias: next() };
    Ok((report, net, val))
}

/// The shuffle seed of epoch `epoch` (so a resumed run shuffles as an uninterrupted one).
pub fn epoch_seed(seed: u64, epoch: u32) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(epoch).wrapping_add(0xE90C)
}

/// What [`export`] measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportReport {
    /// The file written.
    pub path: PathBuf,
    /// The network's short hash.
    pub hash: String,
    /// Positions compared.
    pub positions: usize,
    /// Mean |float - quantized| evaluation, centipawns.
    pub mae_cp: f64,
    /// Largest |float - quantized|, centipawns.
    pub max_abs_cp: f64,
}

/// Quantizes `net` (`Network::quantize` with `meta`), saves it to `path` and measures the mean
/// absolute difference in centipawns between the float and the quantized evaluation
/// (`FloatNet::evaluate` against `Network::evaluate_pieces`) over `samples[ids]`.
///
/// # Errors
/// [`FitError::Nnue`] when the file cannot be written.
pub fn export(net: &EvalNet, meta: NetMeta, geom: &Geometry, samples: &[EvalSample], ids: &[usize], path: &Path) -> Result<ExportReport, FitError> {
    let float = net.to_float();
    let q = Network::quantize(&float, meta);
    q.save(path)?;
    let (mut sum, mut max) = (0.0f64, 0.0f64);
    for &i in ids {
        let s = &samples[i];
        let pieces = s.pieces_on();
        let f = float.evaluate(geom, &pieces, s.side_to_move());
        let d = (f64::from(f) - f64::from(q.evaluate_pieces(geom, &pieces, s.side_to_move()))).abs();
        sum += d;
        max = max.max(d);
    }
    Ok(ExportReport { path: path.to_path_buf(), hash: q.short_hash(), positions: ids.len(), mae_cp: sum / ids.len().max(1) as f64, max_abs_cp: max })
}
