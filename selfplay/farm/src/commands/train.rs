//! `anqi train --config configs/train/<name>.toml`: self-play training with checkpoints, resume
//! and a final evaluation (see [`crate::run`]); `--bench` measures the farm, the net and the
//! trainer instead, `--bench-train N` the training step alone. A configuration with an
//! `[evaldata]` or `[evaltrain]` table runs the learned evaluation's pipeline instead
//! ([`crate::evalrun`]).

use crate::config::RunConfig;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Train a policy/value net by self-play (resumes when the run directory has a checkpoint).
#[derive(clap::Args, Clone, Debug)]
pub struct Options {
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

/// Loads the configuration with `--set` and `--run-dir` applied.
///
/// # Errors
/// The configuration cannot be read, parsed or overridden.
pub fn load_config(config: &Path, set: &[String], run_dir: Option<&PathBuf>) -> anyhow::Result<RunConfig> {
    let mut cfg = RunConfig::load(config, set)?;
    if let Some(d) = run_dir {
        cfg.run_dir = d.clone();
    }
    crate::run::resolve_lanes(&mut cfg);
    Ok(cfg)
}

/// Runs the command.
///
/// # Errors
/// The configuration, the run directory, a checkpoint or libtorch fails.
pub fn run(o: Options) -> anyhow::Result<()> {
    crate::run::reexec_with_short_openmp_spin();
    // A configuration with an `[evaldata]`/`[evaltrain]` table trains the learned evaluation.
    let text = std::fs::read_to_string(&o.config).map_err(|source| crate::config::ConfigError::Io { path: o.config.clone(), source })?;
    if crate::evalrun::is_eval_config(&text) {
        if o.bench || o.bench_train.is_some() {
            anyhow::bail!("{}: --bench and --bench-train measure the self-play trainer, not the evaluation pipeline", o.config.display());
        }
        let mut cfg = crate::evalrun::EvalRunConfig::load(&o.config, &o.set)?;
        if let Some(d) = o.run_dir {
            cfg.run_dir = d;
        }
        let progress = !o.no_progress && std::io::stderr().is_terminal();
        crate::evalrun::run(&cfg, progress)?;
        return Ok(());
    }
    let cfg = load_config(&o.config, &o.set, o.run_dir.as_ref())?;
    let progress = !o.no_progress && std::io::stderr().is_terminal();
    if let Some(steps) = o.bench_train {
        crate::bench::train_only(&cfg, steps)?;
        return Ok(());
    }
    if o.bench {
        crate::bench::run(&cfg, o.bench_seconds)?;
        return Ok(());
    }
    crate::run::run(&cfg, progress)?;
    Ok(())
}
