//! Games as Ray tasks (issue #37): `anqi tournament`, `anqi ladder` and `anqi experiment
//! draw-rates` with `--cluster ADDRESS` play their missing games on a Ray cluster instead of the
//! local thread pool.
//!
//! **Division of labour.** The driver is the `anqi` process the user started: it computes the
//! games still missing from its store (the tournament's PGN, the study's `games.tsv`), hands each
//! one as a [`Task`] to `scripts/anqi_games.py` (the Ray side, run with the checkout's `.venv`
//! like `scripts/cluster`), and appends each result to its store as it arrives. The Python side
//! submits every task as a Ray task of one CPU that runs `anqi game-task` (this same binary, on
//! the node that got it; nodes share the checkout's path, docs/cluster.md) with the task on stdin;
//! the game's result comes back on stdout.
//!
//! **Faults.** A task whose node or worker process dies is retried elsewhere by Ray
//! (`max_retries`), so a killed worker node's games are played again on the nodes left. Results
//! are keyed by the game's key: a result for a key already stored is dropped ([`Outcome::Duplicate`]),
//! so no game is counted twice, and since the games are fixed by their seeds a rerun plays the same
//! game. Killing the driver loses only the games in flight: a rerun resumes from the store.
//!
//! **Protocol** (one JSON object per line). Driver → Python (stdin, all tasks, then EOF):
//! `{"key": K, "task": T}`. Python → driver (stdout): `{"key": K, "ok": true, "out": TEXT,
//! "node": ID, "seconds": S}` or `{"key": K, "ok": false, "error": TEXT}`; progress on stderr.

use crate::experiments::draw_rates;
use crate::tournament;
use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// One game to play, self-contained: everything a worker needs besides the checkout.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Task {
    /// A draw-rate study game ([`draw_rates::GameTask`]).
    DrawRates(draw_rates::GameTask),
    /// A tournament (or ladder pairing) game ([`tournament::runner::GameTask`]).
    Tournament(tournament::runner::GameTask),
}

impl Task {
    /// Plays the game here and returns its result as the store's text: a draw-rate row
    /// (`games.tsv` line) or a PGN record.
    ///
    /// # Errors
    /// The game or a player cannot be built, or the game failed.
    pub fn play(&self) -> anyhow::Result<String> {
        match self {
            Task::DrawRates(t) => Ok(t.play()?.line()),
            Task::Tournament(t) => Ok(t.play()?.to_pgn()),
        }
    }
}

/// Where the cluster is and how it is used.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// The head's address (`HOST:PORT`, or `auto` for a cluster started on this machine).
    pub address: String,
    /// Ray retries of a task whose worker or node died.
    pub retries: u32,
}

impl Cluster {
    /// A cluster at `address` with 5 retries.
    pub fn new(address: &str) -> Cluster {
        Cluster { address: address.into(), retries: 5 }
    }
}

/// What the driver did with one result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Stored; keep going.
    Stored,
    /// Its key was stored already (a retried task that had finished): dropped.
    Duplicate,
    /// Stored, and the run is complete early (an SPRT verdict): stop the cluster's tasks.
    Stop,
}

/// A run's figures.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Results stored.
    pub stored: usize,
    /// Results dropped as duplicates.
    pub duplicates: usize,
    /// Wall time of the run, seconds.
    pub seconds: f64,
    /// Distinct nodes that returned results.
    pub nodes: usize,
}

/// The checkout that holds `scripts/anqi_games.py` and `.venv`: `$ANQI_REPO`, else the first
/// ancestor of this executable that has the script (an executable in `<repo>/target/release`).
fn checkout() -> anyhow::Result<PathBuf> {
    if let Some(r) = std::env::var_os("ANQI_REPO") {
        return Ok(PathBuf::from(r));
    }
    let exe = std::env::current_exe().context("locating this executable")?;
    exe.ancestors()
        .find(|d| d.join("scripts/anqi_games.py").is_file())
        .map(Path::to_path_buf)
        .ok_or_else(|| anyhow::anyhow!("--cluster: no scripts/anqi_games.py above {} (set ANQI_REPO to the checkout)", exe.display()))
}

/// Plays `tasks` (key, task) on the cluster, calling `on_result` with each result's key and text
/// (or the game's error) as it arrives; `on_result` stores it and says how to go on. Returns when
/// every task has a result or `on_result` said [`Outcome::Stop`] (the tasks left are cancelled).
///
/// # Errors
/// The Python side cannot be started (no checkout, no `.venv`, no cluster at the address), it
/// failed, or `on_result` failed (the run stops; stored results stay).
pub fn run(
    cluster: &Cluster,
    tasks: &[(String, Task)],
    mut on_result: impl FnMut(&str, Result<String, String>) -> anyhow::Result<Outcome>,
) -> anyhow::Result<Stats> {
    let t0 = Instant::now();
    let mut stats = Stats::default();
    if tasks.is_empty() {
        return Ok(stats);
    }
    let repo = checkout()?;
    let python = std::env::var_os("ANQI_PYTHON").map(PathBuf::from).unwrap_or_else(|| repo.join(".venv/bin/python"));
    let exe = std::env::current_exe().context("locating this executable")?;
    let cwd = std::env::current_dir().context("the working directory")?;
    let mut child = Command::new(&python)
        .arg(repo.join("scripts/anqi_games.py"))
        .arg("--address")
        .arg(&cluster.address)
        .arg("--anqi")
        .arg(&exe)
        .arg("--cwd")
        .arg(&cwd)
        .arg("--retries")
        .arg(cluster.retries.to_string())
        .env("RAY_USAGE_STATS_ENABLED", std::env::var("RAY_USAGE_STATS_ENABLED").unwrap_or_else(|_| "0".into()))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .with_context(|| format!("starting {} (scripts/setup installs ray into .venv; ANQI_PYTHON overrides)", python.display()))?;
    // The Python side reads every task before it writes a result, so writing them all first
    // cannot deadlock on the pipes.
    {
        let mut stdin = child.stdin.take().context("the driver's stdin")?;
        for (key, task) in tasks {
            let line = serde_json::to_string(&serde_json::json!({ "key": key, "task": task }))?;
            if writeln!(stdin, "{line}").is_err() {
                break; // it died: its status says why
            }
        }
    }
    let stdout = child.stdout.take().context("the driver's stdout")?;
    let mut nodes = std::collections::BTreeSet::new();
    let mut failure: Option<anyhow::Error> = None;
    let mut stopped = false;
    for line in BufReader::new(stdout).lines() {
        let line = line.context("reading the Ray driver's results")?;
        if !line.starts_with('{') {
            eprintln!("{line}"); // a message of Ray's, not a result
            continue;
        }
        #[derive(Deserialize)]
        struct Reply {
            key: String,
            ok: bool,
            #[serde(default)]
            out: String,
            #[serde(default)]
            error: String,
            #[serde(default)]
            node: String,
        }
        let r: Reply = match serde_json::from_str(&line) {
            Ok(r) => r,
            Err(e) => {
                failure = Some(anyhow::anyhow!("the Ray driver wrote {line:?}: {e}"));
                break;
            }
        };
        if !r.node.is_empty() {
            nodes.insert(r.node.clone());
        }
        match on_result(&r.key, if r.ok { Ok(r.out) } else { Err(r.error) }) {
            Ok(Outcome::Stored) => stats.stored += 1,
            Ok(Outcome::Duplicate) => stats.duplicates += 1,
            Ok(Outcome::Stop) => {
                stats.stored += 1;
                stopped = true;
                break;
            }
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    // Done early (a verdict, an error): the driver's exit cancels its tasks on the cluster.
    let _ = child.kill();
    let status = child.wait().context("waiting for the Ray driver")?;
    stats.seconds = t0.elapsed().as_secs_f64();
    stats.nodes = nodes.len();
    if let Some(e) = failure {
        return Err(e);
    }
    // Every result was read (EOF came before the kill), or some are missing: the driver failed.
    if !stopped && stats.stored + stats.duplicates < tasks.len() {
        anyhow::bail!("the Ray driver (scripts/anqi_games.py) ended with {status} after {} of {} games", stats.stored, tasks.len());
    }
    Ok(stats)
}

/// `anqi game-task`: reads one [`Task`] (JSON) from `input`, plays it, writes the result text.
///
/// # Errors
/// The task does not parse, or the game failed.
pub fn serve_one(input: &str, out: &mut impl Write) -> anyhow::Result<()> {
    let task: Task = serde_json::from_str(input.trim()).context("game-task: the task (JSON on stdin)")?;
    let text = task.play()?;
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_rate_task_through_json_plays_the_same_game_as_locally() {
        let t = draw_rates::GameTask { preset: "jieqi".into(), spec: "greedy".into(), deal: 3, open: false, seed: 1, max_plies: 120 };
        let json = serde_json::to_string(&Task::DrawRates(t.clone())).expect("json");
        assert!(json.contains("\"kind\":\"draw-rates\""), "{json}");
        let mut out = Vec::new();
        serve_one(&json, &mut out).expect("played");
        let text = String::from_utf8(out).expect("utf-8");
        let row = draw_rates::store::GameRow::parse(text.trim_end()).expect("a store row");
        let local = t.play().expect("local");
        assert!(row.seconds.is_some());
        assert_eq!(draw_rates::store::GameRow { seconds: None, ..row.clone() }, draw_rates::store::GameRow { seconds: None, ..local });
        assert_eq!(row.key, t.key());
    }

    #[test]
    fn a_tournament_task_through_json_gives_its_pgn_record() {
        let cfg = tournament::Config::parse(
            "name = \"t\"\nvariant = \"surprise\"\npairs = 2\nmax_plies = 80\n[[player]]\nspec = \"greedy\"\n[[player]]\nspec = \"random\"\n",
            "t.toml",
        )
        .expect("config");
        let key = tournament::pgn::GameKey { pairing: 0, pair: 1, game: 1 };
        let task = Task::Tournament(tournament::runner::GameTask { config: cfg.clone(), key });
        let json = serde_json::to_string(&task).expect("json");
        let mut out = Vec::new();
        serve_one(&json, &mut out).expect("played");
        let (records, torn) = tournament::pgn::parse(&String::from_utf8(out).expect("utf-8"));
        assert!(!torn);
        assert_eq!(records.len(), 1);
        let r = &records[0];
        assert_eq!((r.key, r.fingerprint.as_str(), r.red.as_str(), r.black.as_str()), (key, cfg.fingerprint().as_str(), "random", "greedy"));
    }

    #[test]
    fn a_task_that_is_not_one_is_refused_naming_it() {
        let e = serve_one("{\"kind\": \"draw-rates\", \"preset\": 3}", &mut Vec::new()).expect_err("refused");
        assert!(format!("{e:#}").contains("game-task"), "{e:#}");
        let e = serve_one("{\"kind\": \"draw-rates\", \"preset\": \"nope\", \"spec\": \"greedy\", \"deal\": 0, \"open\": false, \"seed\": 1, \"max_plies\": 10}", &mut Vec::new())
            .expect_err("unknown preset");
        assert!(format!("{e:#}").contains("nope"), "{e:#}");
    }
}
