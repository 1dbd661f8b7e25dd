//! `anqi selfplay --config … --out DIR --worker K`: a stateless self-play worker writing shards
//! for a trainer (`selfplay.source = "external"`, or alongside an in-process trainer, which is
//! worker 0). The body is `farm::commands::selfplay` (it needs libtorch, so the `anqi-torch`
//! helper runs it).

use clap::Args as ClapArgs;
use std::path::PathBuf;

/// Run the self-play farm alone, writing shards to a directory (a stateless worker).
#[derive(ClapArgs, Debug)]
pub struct Args {
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
