//! `anqi train --config configs/train/<name>.toml`: self-play training with checkpoints, resume
//! and a final evaluation (see `selfplay::farm::run`); `--bench` measures the farm, the net and
//! the trainer instead.

use crate::farm::config::RunConfig;
use clap::Args as ClapArgs;
use std::io::IsTerminal;
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
}

/// Loads the configuration with `--set` and `--run-dir` applied.
pub fn load_config(config: &std::path::Path, set: &[String], run_dir: Option<&PathBuf>) -> anyhow::Result<RunConfig> {
    let mut cfg = RunConfig::load(config, set)?;
    if let Some(d) = run_dir {
        cfg.run_dir = d.clone();
    }
    crate::farm::run::resolve_lanes(&mut cfg);
    Ok(cfg)
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    crate::farm::run::reexec_with_short_openmp_spin();
    let cfg = load_config(&a.config, &a.set, a.run_dir.as_ref())?;
    let progress = !a.no_progress && std::io::stderr().is_terminal();
    if a.bench {
        crate::farm::bench::run(&cfg, a.bench_seconds)?;
        return Ok(());
    }
    crate::farm::run::run(&cfg, progress)?;
    Ok(())
}
