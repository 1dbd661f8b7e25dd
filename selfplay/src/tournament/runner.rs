//! Runs a tournament: the schedule of paired games, parallel play on a rayon pool (workers take
//! games in schedule order), the PGN log with resume, SPRT stopping, the progress bar and the
//! final crosstable.

use super::config::{fnv1a, Config};
use super::elo::{self, Wdl};
use super::game::{self, PlayerKind, Rules, Setup};
use super::games::GameSpec;
use super::pgn::{self, GameKey, Log, Record};
use super::sprt::Verdict;
use anyhow::Context;
use engine::Color;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Run options that are not part of the tournament's identity.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Draw a progress bar (on stderr).
    pub progress: bool,
    /// PGN path overriding the config's.
    pub pgn: Option<PathBuf>,
    /// Parallel games overriding the config's `concurrency`.
    pub concurrency: Option<usize>,
    /// Stop after this many new games (for tests that simulate a kill).
    pub max_new_games: Option<usize>,
    /// Play the games on this Ray cluster instead of local threads ([`crate::ray_games`]; each
    /// game is then a fresh process, so `engine_restart = "never"` acts as `"game"`).
    pub cluster: Option<crate::ray_games::Cluster>,
}

/// One tournament game, self-contained (a cluster worker plays it from this alone,
/// [`crate::ray_games`]).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct GameTask {
    /// The tournament.
    pub config: Config,
    /// The game's place in its schedule.
    pub key: GameKey,
}

impl GameTask {
    /// Builds the game and its two players and plays it.
    ///
    /// # Errors
    /// The variant or a player cannot be built, the key is not in the schedule, or the game
    /// failed.
    pub fn play(&self) -> anyhow::Result<Record> {
        let cfg = &self.config;
        let game = GameSpec::load(&cfg.variant)?;
        let names = cfg.player_names();
        let &(a, b) = cfg.pairings().get(self.key.pairing).ok_or_else(|| anyhow::anyhow!("game {:?}: no such pairing", self.key))?;
        let (red, black) = if self.key.game == 0 { (a, b) } else { (b, a) };
        let kind = |i: usize| PlayerKind::from_config(&cfg.players[i], &cfg.budget, &game).map(|k| k.with_restart(cfg.engine_restart));
        let kinds = [kind(red)?, kind(black)?];
        let job = Job { key: self.key, red: 0, black: 1 };
        let rules = Rules { max_plies: cfg.max_plies, opening_plies: cfg.opening_plies };
        let (setup, played) = play_job(cfg, &game, &kinds, &job, rules)?;
        Ok(record(cfg, &cfg.fingerprint(), &game, self.key, (&names[red], &names[black]), setup, played, &pgn::today()))
    }
}

/// The PGN record of a finished game of `cfg` between `players` (Red's name, Black's).
#[allow(clippy::too_many_arguments)]
fn record(cfg: &Config, fingerprint: &str, game: &GameSpec, key: GameKey, players: (&str, &str), setup: Setup, played: game::Played, date: &str) -> Record {
    Record {
        event: cfg.name.clone(),
        fingerprint: fingerprint.to_string(),
        key,
        variant: game.name().to_string(),
        red: players.0.to_string(),
        black: players.1.to_string(),
        setup,
        moves: played.moves,
        outcome: played.outcome,
        date: date.to_string(),
    }
}

/// One scheduled game.
#[derive(Clone, Debug)]
struct Job {
    key: GameKey,
    red: usize,
    black: usize,
}

/// The outcome of a run (resumed games included).
#[derive(Clone, Debug)]
pub struct Summary {
    /// Event name.
    pub name: String,
    /// Variant name.
    pub variant: String,
    /// Player names.
    pub names: Vec<String>,
    /// `table[i][j]`: `i`'s record against `j`.
    pub table: Vec<Vec<Wdl>>,
    /// Games in the PGN after the run.
    pub games: usize,
    /// Games played by this run.
    pub played_now: usize,
    /// Games found in the PGN at start.
    pub resumed: usize,
    /// Games scheduled.
    pub scheduled: usize,
    /// Counts by termination reason (forfeit details cut to `forfeit`).
    pub reasons: BTreeMap<String, u32>,
    /// Red's points.
    pub red_points: f64,
    /// Total plies.
    pub plies: usize,
    /// SPRT: (LLR, lower, upper, verdict), two-player matches with `[sprt]` only.
    pub sprt: Option<(f64, f64, f64, Verdict)>,
    /// PGN path.
    pub pgn: PathBuf,
}

struct Shared {
    log: Log,
    table: Vec<Vec<Wdl>>,
    reasons: BTreeMap<String, u32>,
    red_points: f64,
    plies: usize,
    games: usize,
    played_now: usize,
    error: Option<String>,
    sprt: Option<super::sprt::Sprt>,
}

impl Shared {
    /// Appends a finished game to the PGN, reports a forfeit, counts it; returns whether the
    /// SPRT has reached a verdict.
    fn store(&mut self, job: &Job, record: &Record, bar: &ProgressBar) -> anyhow::Result<bool> {
        self.log.append(record)?;
        if record.outcome.reason.starts_with("forfeit") {
            let loser = if record.outcome.winner == Some(Color::Red) { &record.black } else { &record.red };
            let why = record.outcome.reason.trim_start_matches("forfeit: ");
            let k = job.key;
            bar.suspend(|| eprintln!("pairing {} pair {} game {}: {loser} forfeits: {why}", k.pairing, k.pair + 1, k.game + 1));
        }
        self.add(job.red, job.black, record);
        self.played_now += 1;
        Ok(self.sprt.map(|s| s.verdict(self.table[0][1]) != Verdict::Continue).unwrap_or(false))
    }

    fn add(&mut self, red: usize, black: usize, r: &Record) {
        let s = r.outcome.red_score();
        self.table[red][black].add(s);
        self.table[black][red].add(1.0 - s);
        let reason = if r.outcome.reason.starts_with("forfeit") { "forfeit".to_string() } else { r.outcome.reason.clone() };
        *self.reasons.entry(reason).or_insert(0) += 1;
        self.red_points += s;
        self.plies += r.moves.len();
        self.games += 1;
    }

    fn short_standings(&self, names: &[String]) -> String {
        let mut v: Vec<(f64, u32, &str)> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (self.table[i].iter().map(Wdl::points).sum(), self.table[i].iter().map(Wdl::n).sum(), n.as_str()))
            .collect();
        v.sort_by(|a, b| b.0.total_cmp(&a.0));
        v.iter().take(4).map(|(p, n, name)| format!("{name} {p}/{n}")).collect::<Vec<_>>().join(", ")
    }
}

/// The seed of pair `k`'s set-up: the same for every pairing, so all pairings meet the same
/// hidden set-ups.
pub fn setup_seed(master: u64, pair: u32) -> u64 {
    fnv1a(format!("setup|{master}|{pair}").as_bytes())
}

fn bot_seed(master: u64, key: GameKey, color: Color) -> u64 {
    fnv1a(format!("bot|{master}|{}|{}|{}|{}", key.pairing, key.pair, key.game, color.index()).as_bytes())
}

/// Runs (or resumes) the tournament of `cfg`.
///
/// # Errors
/// The variant or a player cannot be built, the PGN cannot be opened, or a game failed.
pub fn run(cfg: &Config, opts: &Options) -> anyhow::Result<Summary> {
    let game = GameSpec::load(&cfg.variant)?;
    let names = cfg.player_names();
    let kinds: Vec<PlayerKind> = cfg
        .players
        .iter()
        .map(|p| PlayerKind::from_config(p, &cfg.budget, &game).map(|k| k.with_restart(cfg.engine_restart)))
        .collect::<anyhow::Result<_>>()?;
    let pairings = cfg.pairings();
    let fingerprint = cfg.fingerprint();
    let pgn_path = opts.pgn.clone().unwrap_or_else(|| cfg.pgn_path());
    let opened = Log::open(&pgn_path, &fingerprint).with_context(|| format!("PGN {}", pgn_path.display()))?;
    if opened.repaired {
        eprintln!("note: {}: dropped a torn or duplicate record left by an interrupted run", pgn_path.display());
    }
    let k = names.len();
    let mut shared = Shared {
        log: opened.log,
        table: vec![vec![Wdl::default(); k]; k],
        reasons: BTreeMap::new(),
        red_points: 0.0,
        plies: 0,
        games: 0,
        played_now: 0,
        error: None,
        sprt: None,
    };
    let mut done = BTreeSet::new();
    for r in &opened.records {
        let Some(&(a, b)) = pairings.get(r.key.pairing) else {
            anyhow::bail!("{}: record {:?} has a pairing this configuration does not have", pgn_path.display(), r.key);
        };
        let (red, black) = if r.key.game == 0 { (a, b) } else { (b, a) };
        if r.red != names[red] || r.black != names[black] {
            anyhow::bail!("{}: record {:?} is {} vs {}, the schedule says {} vs {}", pgn_path.display(), r.key, r.red, r.black, names[red], names[black]);
        }
        shared.add(red, black, r);
        done.insert(r.key);
    }
    let resumed = done.len();
    let mut schedule = Vec::new();
    for pair in 0..cfg.pairs {
        for (pi, &(a, b)) in pairings.iter().enumerate() {
            for g in 0..2u8 {
                let (red, black) = if g == 0 { (a, b) } else { (b, a) };
                schedule.push(Job { key: GameKey { pairing: pi, pair, game: g }, red, black });
            }
        }
    }
    let scheduled = schedule.len();
    let mut jobs: Vec<Job> = schedule.into_iter().filter(|j| !done.contains(&j.key)).collect();
    if let Some(m) = opts.max_new_games {
        jobs.truncate(m);
    }
    let sprt = cfg.sprt.map(|s| s.sprt());
    let verdict_of = |t: &Vec<Vec<Wdl>>| sprt.map(|s| s.verdict(t[0][1])).unwrap_or(Verdict::Continue);
    let stop = AtomicBool::new(verdict_of(&shared.table) != Verdict::Continue);

    let bar = if opts.progress { ProgressBar::new(jobs.len() as u64) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games [{elapsed_precise} < {eta_precise}] {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(shared.short_standings(&names));
    shared.sprt = sprt;
    if let Some(cluster) = opts.cluster.as_ref().filter(|_| !stop.load(Ordering::SeqCst)) {
        let by_key: BTreeMap<String, &Job> = jobs.iter().map(|j| (j.key.tag(), j)).collect();
        let tasks: Vec<(String, crate::ray_games::Task)> = jobs
            .iter()
            .map(|j| (j.key.tag(), crate::ray_games::Task::Tournament(GameTask { config: cfg.clone(), key: j.key })))
            .collect();
        crate::ray_games::run(cluster, &tasks, |key, result| {
            let job = by_key.get(key).ok_or_else(|| anyhow::anyhow!("the Ray driver returned a game {key:?} that was not asked for"))?;
            let text = result.map_err(|e| anyhow::anyhow!("tournament stopped: game {key}: {e} (finished games are in {}; rerun to resume)", pgn_path.display()))?;
            let (records, torn) = pgn::parse(&text);
            let record = match records.as_slice() {
                [r] if !torn && r.key == job.key && r.fingerprint == fingerprint => r,
                _ => anyhow::bail!("a cluster worker returned for game {key} something that is not its PGN record: {text:?}"),
            };
            if !done.insert(job.key) {
                return Ok(crate::ray_games::Outcome::Duplicate);
            }
            let verdict = shared.store(job, record, &bar).with_context(|| format!("writing {}", pgn_path.display()))?;
            bar.set_message(shared.short_standings(&names));
            bar.inc(1);
            Ok(if verdict { crate::ray_games::Outcome::Stop } else { crate::ray_games::Outcome::Stored })
        })?;
        jobs.clear();
    }
    let shared = Mutex::new(shared);
    let next = AtomicUsize::new(0);
    let threads = opts.concurrency.unwrap_or(cfg.concurrency);
    let threads = if threads == 0 { std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1) } else { threads };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build()?;
    let rules = Rules { max_plies: cfg.max_plies, opening_plies: cfg.opening_plies };
    let date = pgn::today();
    pool.scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|_| loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(job) = jobs.get(i) else { break };
                let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| play_job(cfg, &game, &kinds, job, rules)));
                let mut sh = match shared.lock() {
                    Ok(g) => g,
                    Err(p) => p.into_inner(),
                };
                let record = match played {
                    Ok(Ok((setup, played))) => record(cfg, &fingerprint, &game, job.key, (&names[job.red], &names[job.black]), setup, played, &date),
                    Ok(Err(e)) => {
                        sh.error.get_or_insert_with(|| format!("game {:?}: {e:#}", job.key));
                        stop.store(true, Ordering::SeqCst);
                        break;
                    }
                    Err(_) => {
                        sh.error.get_or_insert_with(|| format!("game {:?}: a player panicked", job.key));
                        stop.store(true, Ordering::SeqCst);
                        break;
                    }
                };
                match sh.store(job, &record, &bar) {
                    Ok(true) => stop.store(true, Ordering::SeqCst),
                    Ok(false) => {}
                    Err(e) => {
                        sh.error.get_or_insert_with(|| format!("writing {}: {e:#}", pgn_path.display()));
                        stop.store(true, Ordering::SeqCst);
                        break;
                    }
                }
                bar.set_message(sh.short_standings(&names));
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    let sh = shared.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some(e) = sh.error {
        anyhow::bail!("tournament stopped: {e} (finished games are in {}; rerun to resume)", pgn_path.display());
    }
    let sprt_line = sprt.map(|s| {
        let (lo, hi) = s.bounds();
        (s.llr(sh.table[0][1]), lo, hi, s.verdict(sh.table[0][1]))
    });
    Ok(Summary {
        name: cfg.name.clone(),
        variant: game.name().to_string(),
        names,
        table: sh.table,
        games: sh.games,
        played_now: sh.played_now,
        resumed,
        scheduled,
        reasons: sh.reasons,
        red_points: sh.red_points,
        plies: sh.plies,
        sprt: sprt_line,
        pgn: pgn_path,
    })
}

fn play_job(cfg: &Config, game: &GameSpec, kinds: &[PlayerKind], job: &Job, rules: Rules) -> anyhow::Result<(Setup, game::Played)> {
    let setup = game.setup(setup_seed(cfg.seed, job.key.pair))?;
    let seeds = (bot_seed(cfg.seed, job.key, Color::Red), bot_seed(cfg.seed, job.key, Color::Black));
    let played = game.play(&setup, rules, &kinds[job.red], &kinds[job.black], seeds)?;
    Ok((setup, played))
}

impl Summary {
    /// The crosstable, ratings, head-to-head lines, draw ratio, endings and SPRT, as text.
    pub fn render(&self) -> String {
        let k = self.names.len();
        let fit = elo::ratings(&self.table);
        let mut order: Vec<usize> = (0..k).collect();
        order.sort_by(|&a, &b| fit.ratings[b].elo.total_cmp(&fit.ratings[a].elo));
        let w = self.names.iter().map(String::len).max().unwrap_or(6).max(6);
        let mut t = String::new();
        let draws: u32 = (0..k).flat_map(|i| (i + 1..k).map(move |j| (i, j))).map(|(i, j)| self.table[i][j].d).sum();
        t.push_str(&format!(
            "Tournament {} ({}): {} games ({} resumed from the PGN, {} played now, {} scheduled)\n\n",
            self.name, self.variant, self.games, self.resumed, self.played_now, self.scheduled
        ));
        t.push_str(&format!("{:>2}  {:<w$}  {:>7}  {:>6}  {:>11}  {:>5}", "#", "player", "Elo", "±95%", "score", "draws"));
        for (c, _) in order.iter().enumerate() {
            t.push_str(&format!("  {:>11}", c + 1));
        }
        t.push('\n');
        for (r, &i) in order.iter().enumerate() {
            let n: u32 = self.table[i].iter().map(Wdl::n).sum();
            let p: f64 = self.table[i].iter().map(Wdl::points).sum();
            let d: u32 = self.table[i].iter().map(|x| x.d).sum();
            let rt = fit.ratings[i];
            t.push_str(&format!(
                "{:>2}  {:<w$}  {:>+7.1}  {:>6.1}  {:>11}  {:>4.0}%",
                r + 1,
                self.names[i],
                rt.elo,
                rt.ci95,
                format!("{p}/{n}"),
                if n > 0 { 100.0 * d as f64 / n as f64 } else { 0.0 }
            ));
            for &j in &order {
                let cell = if i == j {
                    "·".to_string()
                } else if self.table[i][j].n() == 0 {
                    "-".to_string()
                } else {
                    let x = self.table[i][j];
                    format!("+{}={}-{}", x.w, x.d, x.l)
                };
                t.push_str(&format!("  {cell:>11}"));
            }
            t.push('\n');
        }
        if fit.prior {
            t.push_str("(a perfect or zero score: one virtual draw per pairing was added to make the ratings finite)\n");
        }
        t.push_str("\nhead to head (closed-form Elo, 95 % delta-method interval):\n");
        for i in 0..k {
            for j in i + 1..k {
                if let Some(e) = elo::two_player(self.table[i][j]) {
                    let x = self.table[i][j];
                    t.push_str(&format!(
                        "  {} vs {}: +{} ={} -{}  score {:.1}%  Elo {:+.1} ± {:.1}{}  draws {:.1}%\n",
                        self.names[i],
                        self.names[j],
                        x.w,
                        x.d,
                        x.l,
                        100.0 * e.score,
                        e.elo,
                        e.ci95,
                        if e.prior { " (virtual draw added)" } else { "" },
                        100.0 * e.draw_ratio
                    ));
                }
            }
        }
        if self.games > 0 {
            let n = self.games as f64;
            t.push_str(&format!(
                "\ndraw ratio {:.1}%, Red scores {:.1}%, mean length {:.1} plies\n",
                100.0 * draws as f64 / n,
                100.0 * self.red_points / n,
                self.plies as f64 / n
            ));
            let ends: Vec<String> = self.reasons.iter().map(|(r, c)| format!("{r} {c}")).collect();
            t.push_str(&format!("endings: {}\n", ends.join(", ")));
        }
        if let Some((llr, lo, hi, v)) = self.sprt {
            t.push_str(&format!("SPRT: LLR {llr:.3} in [{lo:.3}, {hi:.3}]: {}\n", v.text()));
        }
        t.push_str(&format!("PGN: {}\n", self.pgn.display()));
        t
    }
}
