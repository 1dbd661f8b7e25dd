//! `anqi train --config configs/train/<name>.toml`: self-play training with checkpoints, resume
//! and a final evaluation; `--bench` measures the farm, the net and the trainer instead, and
//! `--bench-train N` the training step alone. The body is `farm::commands::train` (it needs
//! libtorch, so the `anqi-torch` helper runs it).

use clap::Args as ClapArgs;
use std::path::PathBuf;

/// Train a policy/value net by self-play (resumes when the run directory has a checkpoint).
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Training configuration (TOML), e.g. `configs/train/quick.toml`.
    #[arg(long)]
    pub config: PathBuf,
    /// Override a configuration key, e.g. `--set train.steps=200` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Run directory (overrides the config's `run_dir`).
    #[arg(long)]
    pub run_dir: Option<PathBuf>,
    /// No progress bars (they are also off when stderr is not a terminal).
    #[arg(long)]
    pub no_progress: bool,
    /// Benchmark instead of training: self-play samples/s, net positions/s (batched) and
    /// training samples/s with this configuration's net; last line is JSON.
    #[arg(long)]
    pub bench: bool,
    /// Seconds per measurement of `--bench`.
    #[arg(long, default_value_t = 10.0)]
    pub bench_seconds: f64,
    /// Benchmark only the training step: this many timed optimiser steps of the configured net,
    /// optimiser, batch size, threads and device on a synthetic batch (the shapes
    /// `scripts/bench_train.py` uses); last line is JSON. `scripts/bench-train` runs it.
    #[arg(long, value_name = "STEPS", conflicts_with = "bench")]
    pub bench_train: Option<usize>,
}
