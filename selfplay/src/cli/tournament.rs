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
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    let cfg = Config::load(&a.config)?;
    let opts = tournament::Options { progress: !a.quiet, pgn: a.pgn, concurrency: a.concurrency, max_new_games: None };
    let summary = tournament::run(&cfg, &opts)?;
    print!("{}", summary.render());
    Ok(())
}
