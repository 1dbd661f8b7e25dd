//! `anqi zoo publish|list|verify`: published nets (`models::zoo`, `models/zoo/README.md`).
//! `publish` copies a checkpoint's weights into the zoo as `<name>-<hash12>.safetensors` with its
//! metadata; `list` prints one line per published net; `verify` loads every one (size, SHA-256,
//! checksum, encoding version, architecture) and fails if any does not.

use anyhow::Context;
use models::zoo::{self, PublishInfo, ZooEntry};
use std::path::PathBuf;

/// The zoo's subcommands.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum Command {
    /// Publish a checkpoint into the zoo as `<name>-<hash12>` (weights copied unchanged).
    Publish(PublishArgs),
    /// List the published nets.
    List(ListArgs),
    /// Load every published net (size, SHA-256, checksum, encoding, architecture); fails if any
    /// does not.
    Verify(DirArgs),
}

/// Where the zoo is.
#[derive(clap::Args, Clone, Debug)]
pub struct DirArgs {
    /// Zoo directory (default: `$ANQI_ZOO`, else `models/zoo` here, else the source tree's).
    #[arg(long)]
    pub zoo_dir: Option<PathBuf>,
}

/// `anqi zoo publish`.
#[derive(clap::Args, Clone, Debug)]
pub struct PublishArgs {
    /// Checkpoint: a run or checkpoint directory (its `latest`), `step-N.json` or
    /// `step-N.safetensors`.
    #[arg(long)]
    pub checkpoint: PathBuf,
    /// Name to publish under (letters, digits, `.`, `_`, `-`), e.g. `surprise`.
    #[arg(long)]
    pub name: String,
    /// File whose text is recorded as the net's measured results (free text or a table).
    #[arg(long)]
    pub notes: Option<PathBuf>,
    /// The command that trained it (default: `anqi train --config RUN/config.toml` when the
    /// run saved its configuration).
    #[arg(long)]
    pub command: Option<String>,
    /// Where the zoo is.
    #[command(flatten)]
    pub dir: DirArgs,
}

/// `anqi zoo list`.
#[derive(clap::Args, Clone, Debug)]
pub struct ListArgs {
    /// Print every entry's metadata as a JSON array.
    #[arg(long)]
    pub json: bool,
    /// Where the zoo is.
    #[command(flatten)]
    pub dir: DirArgs,
}

/// Characters of an entry's results that `list` shows.
pub const RESULTS_SHOWN: usize = 100;

/// One line about an entry: stem, variant, architecture, size, step, date and the start of the
/// first line of its results (at most [`RESULTS_SHOWN`] characters, then `…`).
pub fn describe(e: &ZooEntry) -> String {
    let c = &e.meta.checkpoint;
    let a = &c.architecture;
    let bytes = std::fs::metadata(&e.weights).map(|m| m.len()).unwrap_or(0);
    let line = e.meta.zoo.results.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    let mut first: String = line.chars().take(RESULTS_SHOWN).collect();
    if line.chars().count() > RESULTS_SHOWN {
        first.push('…');
    }
    format!(
        "{}  {}  {}x{} ({} parameters, {:.1} MB)  step {}  {}  {}",
        e.stem,
        c.variant,
        a.blocks,
        a.channels,
        c.parameters,
        bytes as f64 / 1e6,
        c.step,
        e.meta.zoo.created,
        first
    )
}

/// Runs the command.
///
/// # Errors
/// The zoo's (a bad name, a checkpoint that does not load, an oversized net, a bad entry), an
/// unreadable notes file, or any net failing `verify`.
pub fn run(c: Command) -> anyhow::Result<()> {
    match c {
        Command::Publish(PublishArgs { checkpoint, name, notes, command, dir: DirArgs { zoo_dir } }) => {
            let dir = zoo_dir.unwrap_or_else(zoo::default_dir);
            let results = match notes {
                Some(f) => std::fs::read_to_string(&f).with_context(|| f.display().to_string())?,
                None => String::new(),
            };
            let e = zoo::publish(&checkpoint, &dir, &name, PublishInfo { results, command, created_unix: None })?;
            println!("published {} and {}", e.weights.display(), e.json.display());
            println!("{}", describe(&e));
            println!("play it as net:zoo={name} (or net:zoo={})", e.stem);
        }
        Command::List(ListArgs { json, dir: DirArgs { zoo_dir } }) => {
            let dir = zoo_dir.unwrap_or_else(zoo::default_dir);
            let all = zoo::list(&dir)?;
            if json {
                let metas: Vec<_> = all.iter().map(|e| &e.meta).collect();
                println!("{}", serde_json::to_string_pretty(&metas)?);
            } else {
                for e in &all {
                    println!("{}", describe(e));
                }
                println!("{} published nets in {}", all.len(), dir.display());
                let evals = eval_nets(&dir);
                for (name, net) in &evals {
                    match net {
                        Ok(n) => println!("eval {name}  {}  {}  {}", n.meta().variant, n.short_hash(), n.meta().description),
                        Err(e) => println!("eval {name}  unreadable: {e}"),
                    }
                }
                println!("{} learned evaluations (eval-NAME.nnue, zoo:NAME) in {}", evals.len(), dir.display());
            }
        }
        Command::Verify(DirArgs { zoo_dir }) => {
            let dir = zoo_dir.unwrap_or_else(zoo::default_dir);
            let report = zoo::verify(&dir)?;
            let mut bad = 0;
            for (e, r) in &report {
                match r {
                    Ok(()) => println!("ok      {} (sha256 {})", e.stem, e.meta.checkpoint.weights_sha256.as_deref().unwrap_or("")),
                    Err(err) => {
                        bad += 1;
                        println!("FAILED  {}: {err}", e.stem);
                    }
                }
            }
            let evals = eval_nets(&dir);
            for (name, net) in &evals {
                match net {
                    Ok(n) => println!("ok      eval {name} (hash {})", n.short_hash()),
                    Err(err) => {
                        bad += 1;
                        println!("FAILED  eval {name}: {err}");
                    }
                }
            }
            let all = report.len() + evals.len();
            anyhow::ensure!(bad == 0, "{bad} of {all} published nets and learned evaluations in {} failed to verify", dir.display());
            println!("{} published nets and {} learned evaluations in {}: all verified", report.len(), evals.len(), dir.display());
        }
    }
    Ok(())
}

/// The learned evaluations of the zoo directory (`eval-NAME.nnue`, engine::nnue's format), by
/// name in name order, each loaded (which checks its version, shapes and hash) or the error.
fn eval_nets(dir: &std::path::Path) -> Vec<(String, Result<engine::nnue::Network, engine::nnue::NnueError>)> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().to_str().and_then(|f| f.strip_prefix("eval-")?.strip_suffix(".nnue").map(str::to_owned)))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names.into_iter().map(|n| {
        let net = engine::nnue::Network::load(&dir.join(format!("eval-{n}.nnue")));
        (n, net)
    }).collect()
}
