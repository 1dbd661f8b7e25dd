//! The learning curve of a training run (issue #14 item 4): chosen checkpoints join the variant's
//! strength ladder as `net:` players at the ladder's time per move (each plays only its own
//! pairings, paired set-ups, colours swapped), and their ladder Elo is reported against the
//! training time at which each was saved (hours since the run's untrained `step-0` checkpoint,
//! from the checkpoints' `created_unix`): `experiments/train/<variant>.md`, `.csv`, `.png`/`.svg`;
//! `<variant>.notes.md` beside them (written by hand: what was tried) is appended to the report.

use super::plot::{self, Series};
use crate::ladder::{self, LadderPlayer, Roster};
use std::path::{Path, PathBuf};

/// What to measure.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The run directory (`<run>/checkpoints/step-N.json`).
    pub run: PathBuf,
    /// Checkpoint steps to rate (empty: the first, the last and every `[warmstart]` end).
    pub steps: Vec<u64>,
    /// The ladder's directory (holds `ladder.toml`; the ladder fixes variant and time per move).
    pub ladder: PathBuf,
    /// Text appended to every net spec (`,mix=1,vdepth=2`), "" for the checkpoint's own search.
    pub params: String,
    /// Where the curve is written: `<out>/<stem>.md`, `.csv`, `.png`, `.svg`.
    pub out: PathBuf,
    /// Games in parallel.
    pub concurrency: Option<usize>,
    /// The command line, for the report.
    pub command: String,
}

/// One rated checkpoint.
#[derive(Clone, Debug)]
pub struct Point {
    /// Training step.
    pub step: u64,
    /// Hours of training when it was saved (since `step-0`).
    pub hours: f64,
    /// Ladder name.
    pub name: String,
    /// Elo (`random` = 0) and the half-width of its 95 % interval.
    pub elo: f64,
    /// Half-width of the 95 % interval.
    pub ci95: f64,
    /// Games and points.
    pub games: u32,
    /// Points (draws half).
    pub points: f64,
}

/// Steps of the checkpoints in `run`, ascending.
///
/// # Errors
/// The checkpoint directory cannot be read.
pub fn checkpoint_steps(run: &Path) -> anyhow::Result<Vec<u64>> {
    let dir = run.join("checkpoints");
    let mut steps: Vec<u64> = std::fs::read_dir(&dir)
        .map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_prefix("step-")?.strip_suffix(".json")?.parse().ok()))
        .collect();
    steps.sort_unstable();
    Ok(steps)
}

fn meta(run: &Path, step: u64) -> anyhow::Result<serde_json::Value> {
    let p = run.join(format!("checkpoints/step-{step}.json"));
    let text = std::fs::read_to_string(&p).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?;
    serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))
}

/// The default steps: the first and last checkpoints and the end of the warm start, if any.
fn default_steps(run: &Path, all: &[u64]) -> Vec<u64> {
    let mut out: Vec<u64> = all.first().into_iter().chain(all.last()).copied().collect();
    if let Some(ws) = all.last().and_then(|&s| meta(run, s).ok()).and_then(|m| m["config"]["warmstart"]["steps"].as_u64()) {
        if all.contains(&ws) {
            out.push(ws);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Adds the checkpoints to the ladder, plays their missing games, rewrites the ladder's report
/// and writes the curve. Returns the points, in step order, and the curve's markdown path.
///
/// # Errors
/// A checkpoint or the ladder cannot be read, a game fails (finished games are kept: rerun to
/// resume), a report cannot be written.
pub fn run(s: &Settings) -> anyhow::Result<(Vec<Point>, PathBuf)> {
    let all = checkpoint_steps(&s.run)?;
    anyhow::ensure!(!all.is_empty(), "{}: no checkpoints", s.run.join("checkpoints").display());
    let steps = if s.steps.is_empty() { default_steps(&s.run, &all) } else { s.steps.clone() };
    for st in &steps {
        anyhow::ensure!(all.contains(st), "{}: no checkpoint step-{st} (have {all:?})", s.run.display());
    }
    let roster_path = s.ladder.join("ladder.toml");
    let mut roster = Roster::load(&roster_path)?;
    let start = meta(&s.run, all[0])?["created_unix"].as_u64().unwrap_or(0);
    let run_name = s.run.file_name().and_then(|n| n.to_str()).unwrap_or("run").to_string();
    let mut names = Vec::new();
    for &st in &steps {
        let name = format!("{run_name}-step-{st}");
        let spec = format!("net:checkpoint={},ms={}{}", s.run.join(format!("checkpoints/step-{st}.json")).display(), roster.movetime_ms, s.params);
        roster.add(LadderPlayer::new(&name, &spec)).map_err(|m| anyhow::anyhow!("{}: {m}", roster_path.display()))?;
        names.push((st, name));
    }
    roster.save(&roster_path)?;
    let opts = ladder::Options { concurrency: s.concurrency, progress: true, report_only: false, cluster: None };
    let result = ladder::run(&roster, &s.ladder, &opts)?;
    let stem = stem(&roster.variant);
    let out_dir = s.ladder.parent().map(PathBuf::from).unwrap_or_else(|| PathBuf::from("."));
    let command = format!("anqi ladder --variant {} --movetime {} --dir {}", roster.variant, roster.movetime_ms, s.ladder.display());
    result.write(&s.ladder, &out_dir, &stem, &command)?;
    let mut points = Vec::new();
    for (st, name) in names {
        let idx = roster.players.iter().position(|p| p.name == name).expect("added");
        let Some(row) = result.standings.iter().find(|r| r.index == idx) else { continue };
        let created = meta(&s.run, st)?["created_unix"].as_u64().unwrap_or(start);
        points.push(Point {
            step: st,
            hours: created.saturating_sub(start) as f64 / 3600.0,
            name,
            elo: row.elo,
            ci95: row.ci95,
            games: row.games,
            points: row.points,
        });
    }
    let refs: Vec<(String, f64, f64)> = result
        .standings
        .iter()
        .filter(|r| !r.oracle && !r.challenger && !roster.players[r.index].spec.starts_with("net:"))
        .map(|r| (roster.players[r.index].name.clone(), r.elo, r.ci95))
        .collect();
    let md = write(s, &roster, &stem, &points, &refs)?;
    Ok((points, md))
}

fn stem(variant: &str) -> String {
    Path::new(variant).file_stem().and_then(|s| s.to_str()).unwrap_or(variant).to_string()
}

fn write(s: &Settings, roster: &Roster, stem: &str, points: &[Point], refs: &[(String, f64, f64)]) -> anyhow::Result<PathBuf> {
    let png = s.out.join(format!("{stem}.png"));
    let svg = s.out.join(format!("{stem}.svg"));
    std::fs::create_dir_all(&s.out)?;
    let mut csv = String::from("step,hours,player,elo,ci95,games,points,score\n");
    for p in points {
        csv.push_str(&format!("{},{:.3},{:?},{:.1},{:.1},{},{},{:.4}\n", p.step, p.hours, p.name, p.elo, p.ci95, p.games, p.points, p.points / f64::from(p.games.max(1))));
    }
    let mut md = format!(
        "# Learning curve: {stem}\n\nLadder Elo (`random` = 0, 95 % intervals) of the checkpoints of `{}` at **{} ms per move** \
         against the reference players of `{}` ({} set-up pairs per pairing, colours swapped).\n\n\
         Reproduce (resumes): `{}`\n\n![learning curve]({stem}.png)\n\n\
         | step | training hours | player | Elo | ±95 % | games | score |\n|---:|---:|---|---:|---:|---:|---:|\n",
        s.run.display(),
        roster.movetime_ms,
        s.ladder.display(),
        roster.pairs,
        s.command
    );
    for p in points {
        md.push_str(&format!(
            "| {} | {:.2} | {} | {:+.0} | {:.0} | {} | {:.1} % |\n",
            p.step,
            p.hours,
            p.name,
            p.elo,
            p.ci95,
            p.games,
            100.0 * p.points / f64::from(p.games.max(1))
        ));
    }
    md.push_str("\nReference players on the same ladder:\n\n| player | Elo | ±95 % |\n|---|---:|---:|\n");
    for (n, e, c) in refs {
        md.push_str(&format!("| {n} | {e:+.0} | {c:.0} |\n"));
    }
    // What was tried and measured around the run (kept by hand beside the generated report).
    let notes = s.out.join(format!("{stem}.notes.md"));
    if let Ok(text) = std::fs::read_to_string(&notes) {
        md.push('\n');
        md.push_str(&text);
    }
    let categories: Vec<String> = points.iter().map(|p| format!("step {} ({:.2} h)", p.step, p.hours)).collect();
    let series = [Series { name: "net checkpoints".into(), points: points.iter().map(|p| (p.elo, p.elo - p.ci95, p.elo + p.ci95)).collect() }];
    let title = format!("{stem}: ladder Elo of the checkpoints at {} ms/move (random = 0)", roster.movetime_ms);
    if let Err(e) = plot::value_bars(&png, &svg, &title, "Elo", &categories, &series) {
        md.push_str(&format!("\n(plot not drawn: {e})\n"));
    }
    ladder::write_atomic(&s.out.join(format!("{stem}.csv")), csv.as_bytes())?;
    let path = s.out.join(format!("{stem}.md"));
    ladder::write_atomic(&path, md.as_bytes())?;
    Ok(path)
}
