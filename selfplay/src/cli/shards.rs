//! `anqi shards [--dir DIR | --config C]`: checks the shards of a run directory (each reads whole,
//! names match headers, no duplicated games, no gap in any worker's sequence, and with
//! `--config` the run's variant and architecture). The body is `farm::commands::shards` (shards
//! are read by the torch-linked models crate, so the `anqi-torch` helper runs it).

use clap::Args as ClapArgs;
use std::path::PathBuf;

/// Check every shard of a directory: whole, named by its header, no duplicates, no gaps.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Shard directory (default: the run's `shards/`, from --config).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Training configuration whose variant and net architecture every shard must fit.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Override a configuration key (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Run directory (overrides the config's `run_dir`).
    #[arg(long)]
    pub run_dir: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}
