//! `anqi tournament`: a round-robin or gauntlet from a TOML file (see
//! [`crate::tournament::config`]); prints the crosstable, Elo, draw ratio and SPRT at the end.

use crate::tournament::{self, Config};
use clap::Args as ClapArgs;
use std::path::PathBuf;

/// Run (or resume) a tournament.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Tournament file, e.g. configs/tournaments/greedy-vs-random.toml.
    #[arg(long)]
    pub config: PathBuf,
    /// PGN path (default: the file's `pgn`, else runs/tournaments/<name>.pgn). Rerunning with the
    /// same PGN resumes: finished games are kept, not replayed.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Games in parallel (default: the file's `concurrency`; 0 = one per core).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Play the games on the Ray cluster at this address (`HOST:PORT`, or `auto`) instead of
    /// local threads: one Ray task per game, results merged into this run's store
    /// (docs/cluster.md, "Games on a cluster").
    #[arg(long, value_name = "ADDRESS")]
    pub cluster: Option<String>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    let cfg = Config::load(&a.config)?;
    let opts = tournament::Options { progress: !a.quiet, pgn: a.pgn, concurrency: a.concurrency, max_new_games: None, cluster: a.cluster.as_deref().map(crate::ray_games::Cluster::new) };
    let summary = tournament::run(&cfg, &opts)?;
    print!("{}", summary.render());
    Ok(())
}
