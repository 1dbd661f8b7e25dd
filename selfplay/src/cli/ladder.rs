//! `anqi ladder`: the strength ladder of a variant (see [`crate::ladder`]): plays the missing
//! games of a paired round-robin of reference players (and any added) at equal time per move,
//! then writes `<dir>/../<variant>.md`, `.csv` and the plot.

use crate::ladder::{self, parse_add, Roster};
use clap::Args as ClapArgs;
use std::path::PathBuf;

/// Play (or resume, or extend) a strength ladder and write its report.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Variant preset, rule file or RULES-more.md preset (a new ladder's; an existing ladder
    /// must match).
    #[arg(long)]
    pub variant: String,
    /// Milliseconds per move (a new ladder's; an existing ladder must match).
    #[arg(long, default_value_t = 50)]
    pub movetime: u64,
    /// Set-up pairs per pairing, two games each (a new ladder's; raising it on an existing ladder
    /// plays the extra pairs of every pairing).
    #[arg(long)]
    pub pairs: Option<u32>,
    /// Master seed of a new ladder.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Ply limit of a new ladder (adjudicated a draw).
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Add a player: `SPEC` or `NAME=SPEC` (a bot spec, `net:…`, or `uci:<program>`); repeatable.
    /// It plays only its own pairings.
    #[arg(long = "add")]
    pub add: Vec<String>,
    /// Make this command's `--add` players challengers: each meets only these reference players
    /// (comma-separated names, e.g. `pimc,expectimax`) and is rated alone against their fixed
    /// ratings (a longer time per move of a top bot, placed without a full round of games).
    #[arg(long, value_delimiter = ',', value_name = "NAMES", requires = "add")]
    pub against: Vec<String>,
    /// Drop a player by name, with its games (the PGNs of its pairings); repeatable. Applied
    /// before `--add`, so `--drop X --add X=SPEC` replaces a player. `random` (the anchor) stays.
    #[arg(long = "drop")]
    pub drop: Vec<String>,
    /// The ladder's directory (default: experiments/ladder/<variant>); holds ladder.toml and the
    /// games; the report is written beside it as <variant>.md/.csv/.png.
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Games in parallel (default 2).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Play the games on the Ray cluster at this address (`HOST:PORT`, or `auto`) instead of
    /// local threads: one Ray task per game, results merged into this run's store
    /// (docs/cluster.md, "Games on a cluster").
    #[arg(long, value_name = "ADDRESS")]
    pub cluster: Option<String>,
    /// Play nothing; rate the games already played and rewrite the report.
    #[arg(long)]
    pub report_only: bool,
}

/// The stem of the variant's file names (`fanqi-9`, or a rule file's stem).
fn stem(variant: &str) -> String {
    std::path::Path::new(variant).file_stem().and_then(|s| s.to_str()).unwrap_or(variant).to_string()
}

impl Args {
    /// The ladder's directory.
    pub fn ladder_dir(&self) -> PathBuf {
        self.dir.clone().unwrap_or_else(|| PathBuf::from("experiments/ladder").join(stem(&self.variant)))
    }

    /// The roster this command plays: the existing `ladder.toml` (checked against the command
    /// line) or a new one, without the `--drop` players and with the `--add` players appended.
    /// Touches no file ([`Args::plan`] also returns the games to delete).
    ///
    /// # Errors
    /// As [`Args::plan`].
    pub fn roster(&self) -> Result<Roster, ladder::LadderError> {
        Ok(self.plan()?.0)
    }

    /// The roster this command plays ([`Args::roster`]) and the PGNs of the dropped players'
    /// pairings, which [`run`] deletes after saving the roster.
    ///
    /// # Errors
    /// The file is unreadable, contradicts the command line, a dropped name is unknown or
    /// `random`, or an added name is taken.
    pub fn plan(&self) -> Result<(Roster, Vec<PathBuf>), ladder::LadderError> {
        let path = self.ladder_dir().join("ladder.toml");
        let mut roster = if path.exists() {
            let r = Roster::load(&path)?;
            let mismatch = |message: String| ladder::LadderError::Mismatch { path: path.clone(), message };
            if r.variant != self.variant {
                return Err(mismatch(format!("the ladder is of variant {:?}, not {:?}", r.variant, self.variant)));
            }
            if r.movetime_ms != self.movetime {
                return Err(mismatch(format!("the ladder plays {} ms per move, not {}", r.movetime_ms, self.movetime)));
            }
            r
        } else {
            Roster::new(&self.variant, self.movetime, self.pairs.unwrap_or(4), self.seed, self.max_plies)
        };
        if let Some(p) = self.pairs {
            if p < roster.pairs {
                return Err(ladder::LadderError::Mismatch { path, message: format!("the ladder has {} pairs; --pairs may only raise it", roster.pairs) });
            }
            roster.pairs = p;
        }
        let mut dropped = Vec::new();
        for name in &self.drop {
            dropped.extend(roster.remove(&self.ladder_dir(), name)?);
        }
        for a in &self.add {
            let mut p = parse_add(a);
            p.opponents = self.against.iter().map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).collect();
            roster.add(p).map_err(|message| ladder::LadderError::Add { arg: a.clone(), message })?;
            roster.check().map_err(|message| ladder::LadderError::Add { arg: a.clone(), message })?;
        }
        Ok((roster, dropped))
    }
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    let dir = a.ladder_dir();
    let (roster, dropped) = a.plan()?;
    roster.save(&dir.join("ladder.toml"))?;
    ladder::delete_games(&dropped)?;
    let opts = ladder::Options { concurrency: a.concurrency, progress: true, report_only: a.report_only, cluster: a.cluster.as_deref().map(crate::ray_games::Cluster::new) };
    let result = ladder::run(&roster, &dir, &opts)?;
    let command = format!("anqi ladder --variant {} --movetime {} --dir {}", roster.variant, roster.movetime_ms, dir.display());
    let out_dir = dir.parent().map(PathBuf::from).unwrap_or_else(|| PathBuf::from("."));
    let md = result.write(&dir, &out_dir, &stem(&roster.variant), &command)?;
    print!("{}", result.csv());
    println!("report: {}", md.display());
    Ok(())
}
