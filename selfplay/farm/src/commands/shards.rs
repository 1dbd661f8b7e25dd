//! `anqi shards [--dir DIR | --config C]`: checks every shard of a directory, as after a run on a
//! cluster: each file reads whole (magic, versions, checksums, samples), its header's worker and
//! sequence number are its name's, no two shards hold the same games, each worker's sequence
//! numbers run without a gap, and (with `--config`) each fits the run's variant and net
//! architecture, the check the trainer makes ([`models::shard::check_header`]). Reads only;
//! nothing is deleted. Exits with an error listing every problem.

use models::shard::{self, ShardHeader};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

/// Check every shard of a directory: whole, named by its header, no duplicates, no gaps.
#[derive(clap::Args, Clone, Debug)]
pub struct Options {
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

/// One worker's shards.
#[derive(Clone, Debug, Default, Serialize)]
pub struct WorkerReport {
    /// Valid shards.
    pub shards: u64,
    /// Their sequence numbers, lowest and highest.
    pub first_seq: u64,
    /// Highest sequence number.
    pub last_seq: u64,
    /// Games.
    pub games: u64,
    /// Samples.
    pub samples: u64,
    /// Sequence numbers missing between the lowest and the highest.
    pub missing: Vec<u64>,
}

/// What the check found.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    /// The directory.
    pub dir: PathBuf,
    /// Shard files.
    pub files: u64,
    /// Files that read whole and fit.
    pub valid: u64,
    /// Samples in them.
    pub samples: u64,
    /// Per worker.
    pub workers: BTreeMap<u32, WorkerReport>,
    /// Every problem, one line each, naming the file.
    pub problems: Vec<String>,
}

fn check_name(path: &std::path::Path, h: &ShardHeader) -> Option<String> {
    match shard::parse_file_name(path) {
        Some((w, s)) if (w, s) == (h.worker, h.seq) => None,
        Some((w, s)) => Some(format!(
            "{}: header says worker {} shard {}, the name says worker {w} shard {s}",
            path.display(),
            h.worker,
            h.seq
        )),
        None => Some(format!("{}: not a worker shard name (w<worker>-<seq>.shard)", path.display())),
    }
}

/// Checks the directory.
///
/// # Errors
/// The configuration or the directory cannot be read.
pub fn check(o: &Options) -> anyhow::Result<Report> {
    let cfg = match &o.config {
        Some(c) => Some(super::train::load_config(c, &o.set, o.run_dir.as_ref())?),
        None => None,
    };
    let dir = match (&o.dir, &cfg) {
        (Some(d), _) => d.clone(),
        (None, Some(c)) => c.shard_dir(),
        (None, None) => anyhow::bail!("give the shard directory (--dir) or the run's configuration (--config)"),
    };
    // With a configuration, its variant's encoding; without, the variants' (what every shard
    // written so far is of).
    let (variant, encoding) = match &cfg {
        Some(c) => {
            let (g, e) = crate::games::load_game(&c.variant)?;
            (Some(g.name().to_string()), e)
        }
        None => (None, models::encoding::encoding()),
    };
    let mut report = Report { dir: dir.clone(), ..Report::default() };
    let mut seen: HashMap<u64, PathBuf> = HashMap::new();
    let mut seqs: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
    for path in shard::list(&dir)? {
        report.files += 1;
        let (h, samples) = match shard::read_for(&path, &encoding) {
            Ok(x) => x,
            Err(e) => {
                report.problems.push(e.to_string());
                continue;
            }
        };
        if let (Some(c), Some(v)) = (&cfg, &variant) {
            if let Err(e) = shard::check_header(&path, &h, shard::Expect { variant: v, architecture: Some(&c.net) }) {
                report.problems.push(e.to_string());
                continue;
            }
        }
        if let Some(p) = check_name(&path, &h) {
            report.problems.push(p);
            continue;
        }
        if let Some(first) = seen.insert(shard::payload_digest(&samples), path.clone()) {
            report.problems.push(format!("{}: the same games as {} (duplicated)", path.display(), first.display()));
            continue;
        }
        report.valid += 1;
        report.samples += h.samples;
        let w = report.workers.entry(h.worker).or_default();
        w.shards += 1;
        w.games += u64::from(h.games);
        w.samples += h.samples;
        seqs.entry(h.worker).or_default().push(h.seq);
    }
    for (worker, mut s) in seqs {
        s.sort_unstable();
        let w = report.workers.entry(worker).or_default();
        w.first_seq = s[0];
        w.last_seq = s[s.len() - 1];
        let mut next = s[0];
        for &q in &s {
            w.missing.extend(next..q);
            next = q + 1;
        }
        if !w.missing.is_empty() {
            report.problems.push(format!(
                "{}: worker {worker} is missing shard(s) {:?} between {} and {}",
                dir.display(),
                w.missing,
                w.first_seq,
                w.last_seq
            ));
        }
    }
    Ok(report)
}

/// Runs the command: prints the report; fails if it found a problem.
///
/// # Errors
/// [`check`]'s, or the problems found.
pub fn run(o: Options) -> anyhow::Result<()> {
    let r = check(&o)?;
    if o.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        for (k, w) in &r.workers {
            println!(
                "worker {k}: {} shards (seq {}..={}), {} games, {} samples",
                w.shards, w.first_seq, w.last_seq, w.games, w.samples
            );
        }
        println!(
            "{}: {} shard files, {} valid, {} samples, {} problems",
            r.dir.display(),
            r.files,
            r.valid,
            r.samples,
            r.problems.len()
        );
    }
    if !r.problems.is_empty() {
        anyhow::bail!("{} problem(s) in {}:\n  {}", r.problems.len(), r.dir.display(), r.problems.join("\n  "));
    }
    Ok(())
}
