//! `anqi selfplay --config … --out DIR --worker K`: a stateless self-play worker writing shards
//! for a trainer (`selfplay.source = "external"`, or alongside an in-process trainer, which is
//! worker 0).

use crate::worker::{self, WorkerOptions};
use std::io::IsTerminal;
use std::path::PathBuf;

/// Run the self-play farm alone, writing shards to a directory (a stateless worker).
#[derive(clap::Args, Clone, Debug)]
pub struct Options {
    /// Training configuration (TOML): variant, net, search and `[selfplay]` settings.
    #[arg(long)]
    pub config: PathBuf,
    /// Shard directory (default: the run's `shards/`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker number: part of shard names and game seeds (the in-process trainer is 0).
    #[arg(long)]
    pub worker: u32,
    /// Shards to write, then stop (0: until killed).
    #[arg(long, default_value_t = 0)]
    pub shards: u64,
    /// Checkpoint to play (default: the run's latest, else the untrained net).
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Override a configuration key (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Run directory (overrides the config's `run_dir`).
    #[arg(long)]
    pub run_dir: Option<PathBuf>,
    /// No progress bars.
    #[arg(long)]
    pub no_progress: bool,
}

/// Runs the command.
///
/// # Errors
/// The configuration, a checkpoint, the shard directory or libtorch fails.
pub fn run(o: Options) -> anyhow::Result<()> {
    crate::run::reexec_with_short_openmp_spin();
    let cfg = super::train::load_config(&o.config, &o.set, o.run_dir.as_ref())?;
    let opts = WorkerOptions {
        worker: o.worker,
        out: o.out.clone().unwrap_or_else(|| cfg.shard_dir()),
        shards: o.shards,
        checkpoint: o.checkpoint.clone(),
    };
    worker::run(&cfg, &opts, !o.no_progress && std::io::stderr().is_terminal())
}
