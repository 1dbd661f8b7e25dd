//! The draw-rate study, second edition (`anqi experiment draw-rates`): how much does hidden
//! information move the draw rate, with the rules held fixed?
//!
//! **Design.** For every hidden preset (RULES.md and RULES-more.md) and every strength level,
//! each deal (the set-up seed: Surprise layouts, the owner's arrangement, the random modes'
//! deal, secret tiles or placements) is played twice by the *same* information-respecting bot on
//! both sides: once under the preset's rules and once under its **open twin** (`NAME+open`,
//! docs/open-twins.md), which has the same rules and
//! the same deal but makes everything public from the start. Both games of a pair use the same
//! bot seeds, so a pair differs only in what the players may see. The paired difference of the
//! draw indicators (hidden minus open) is averaged over deals, with a 95 % interval from the
//! spread of the per-deal differences.
//!
//! **Levels** are bot specs: with a fixed amount of work (e.g. `ismcts:iterations=300`), so that
//! the machine's load does not change their strength, or with a time per move (`pimc:ms=200`,
//! both sides slowed alike on a loaded machine); each level's Elo is read from the variant's
//! ladder (`experiments/ladder/<variant>.csv`, [`crate::ladder`]) where the ladder has a player
//! with that spec (a reference player or a challenger), or, for `…ms=M`, the spec without it
//! when the ladder itself plays at M ms a move. An **oracle** (reading the full state) may be played on the
//! hidden deals as a ceiling, reported apart.
//!
//! **External anchors** ([`anchors`]): Fairy-Stockfish self-play in standard xiangqi at several
//! node budgets (how draws rise with strength in an open game), and the draw rates implied by
//! Pikafish's WDL model, as reference lines with their source.
//!
//! **Resume**: every finished game is appended as one line to `<out>/games.tsv` (its first line
//! holds a fingerprint of the settings that decide games); a rerun reads it, keeps the games of
//! the same fingerprint and plays only the missing ones. Adding presets, levels' deals
//! (`--scale`) or anchors extends a study.

pub mod anchors;
pub mod report;
pub mod stats;
pub mod store;

use crate::tournament::config::fnv1a;
use crate::tournament::game::{PlayerKind, Rules};
use crate::tournament::GameSpec;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;
use store::{GameRow, Store};

/// The hidden presets of the study, in report order: RULES.md's (private set-up, then chance
/// reveals) and RULES-more.md's.
pub const PRESETS: [&str; 16] = [
    "surprise",
    "surprise-negotiation",
    "fanqi-3",
    "fanqi-5",
    "fanqi-7",
    "fanqi-9",
    "fanqi-4",
    "fanqi-6",
    "fanqi-8",
    "fanqi-10",
    "jieqi",
    "skill-secret",
    "camel-7-secret",
    "missile-hidden-5",
    "missile-hidden-centre",
    "missile-hidden-5-down",
];

/// What kind of hidden information a preset has (RULES.md, "Information classes"; the
/// RULES-more.md presets by their set-up option). A game not named here (a rule file) is read
/// from its game ([`game_class`]).
pub fn info_class(variant: &str) -> &'static str {
    match variant {
        "xiangqi" | "king" | "fanqi-1" | "fanqi-2" => "none",
        "surprise" | "surprise-negotiation" | "fanqi-3" | "fanqi-5" | "fanqi-7" | "fanqi-9" => "private set-up",
        "skill-secret" | "camel-7-secret" | "missile-hidden-5" | "missile-hidden-centre" | "missile-hidden-5-down" | "missile-hidden-centre-down" => {
            "private set-up (RULES-more)"
        }
        v => game_class(v),
    }
}

/// The information class of game `spec` read from the game at its rules' start: `none` when it
/// shows everything ([`engine::game::Information::Perfect`]); `private set-up` when it starts
/// with a set-up phase (marked `(RULES-more)` for the RULES-more.md games, the games UCI engines
/// do not speak); `chance reveals` otherwise, and for a spec no rule book knows.
fn game_class(spec: &str) -> &'static str {
    struct Class;
    impl engine::more::presets::WithGame for Class {
        type Output = &'static str;
        fn run<G: engine::more::presets::Playable>(self, g: G) -> &'static str {
            let variant = crate::tournament::players::as_variant(&g).is_some();
            if g.info().information == engine::game::Information::Perfect {
                "none"
            } else if g.in_setup() {
                if variant { "private set-up" } else { "private set-up (RULES-more)" }
            } else {
                "chance reveals"
            }
        }
    }
    engine::any_game::with_any_game(spec, engine::any_game::Start::Setup, Class).unwrap_or("chance reveals")
}

/// Study settings.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Hidden presets (or rule files).
    pub presets: Vec<String>,
    /// Strength levels: bot specs with a fixed budget, weakest first.
    pub levels: Vec<String>,
    /// Deals per (preset, level) at scale 1, by level (the last value repeats).
    pub deals: Vec<u32>,
    /// Oracle ceiling: a full-state bot played on the hidden deals (none if empty).
    pub ceiling: Option<String>,
    /// Deals per preset for the ceiling at scale 1.
    pub ceiling_deals: u32,
    /// Multiplies the deal counts.
    pub scale: f64,
    /// Parallel games (local play).
    pub threads: usize,
    /// Play the games on this Ray cluster instead ([`crate::ray_games`]).
    pub cluster: Option<crate::ray_games::Cluster>,
    /// Sequential stopping: a (preset, level) cell stops once the cautious 95 % half-width of
    /// its hidden − open difference ([`stats::PairedCell::cautious_ci95`], a fraction: 0.05 = 5
    /// points) is at most this and it has `min_deals` deals; the deal counts are then maxima.
    /// `None`: every cell plays all its deals.
    pub halfwidth: Option<f64>,
    /// Deals a cell plays before it may stop.
    pub min_deals: u32,
    /// Deals per wave between stopping checks.
    pub wave: u32,
    /// Play nothing: report the games in the store.
    pub report_only: bool,
    /// Master seed.
    pub seed: u64,
    /// Ply limit (adjudicated draw).
    pub max_plies: usize,
    /// Output directory.
    pub out: PathBuf,
    /// The command line, for the report.
    pub command: String,
    /// Draw a progress bar.
    pub progress: bool,
    /// External anchors (Fairy-Stockfish self-play); `None` skips them.
    pub anchors: Option<anchors::AnchorSettings>,
    /// Ladder directory (`<dir>/<variant>.csv` gives the levels' Elo).
    pub ladder_dir: PathBuf,
}

impl Settings {
    /// Deals for level `l` after scaling (at least 1).
    pub fn deals_for(&self, l: usize) -> u32 {
        let base = self.deals.get(l).or(self.deals.last()).copied().unwrap_or(10);
        ((base as f64 * self.scale).round() as u32).max(1)
    }

    /// The ceiling's deals after scaling.
    pub fn ceiling_deals_scaled(&self) -> u32 {
        ((self.ceiling_deals as f64 * self.scale).round() as u32).max(1)
    }

    /// A fingerprint of what decides a game (not the presets, levels or counts, which only
    /// select games): the seed and the ply limit.
    pub fn fingerprint(&self) -> String {
        format!("{:016x}", fnv1a(format!("draw-rates-v2|{}|{}", self.seed, self.max_plies).as_bytes()))
    }
}

/// The seed of deal `deal` of `preset`: the same for every level, so levels meet the same deals.
pub fn deal_seed(master: u64, preset: &str, deal: u32) -> u64 {
    fnv1a(format!("draw-rates|{master}|{preset}|{deal}").as_bytes())
}

/// The bots' seeds of a deal at a level: the same in the hidden and the open game.
fn bot_seeds(deal_seed: u64, spec: &str) -> (u64, u64) {
    (fnv1a(format!("{deal_seed}|{spec}|red").as_bytes()), fnv1a(format!("{deal_seed}|{spec}|black").as_bytes()))
}

/// One game of the study, self-contained (a cluster worker plays it from this alone,
/// [`crate::ray_games`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameTask {
    /// Hidden preset (or rule file) as named in the study.
    pub preset: String,
    /// Bot spec (the level, or the ceiling), the same on both sides.
    pub spec: String,
    /// Deal number.
    pub deal: u32,
    /// Played under the open twin.
    pub open: bool,
    /// The study's master seed.
    pub seed: u64,
    /// Ply limit.
    pub max_plies: usize,
}

impl GameTask {
    /// The game's key in the store.
    pub fn key(&self) -> store::Key {
        store::Key::new(&self.preset, &self.spec, self.deal, self.open)
    }

    /// Loads the preset (or its open twin) and plays the game.
    ///
    /// # Errors
    /// Unknown preset or twin, bad bot spec, or the game failed.
    pub fn play(&self) -> anyhow::Result<GameRow> {
        let name = if self.open { format!("{}{}", self.preset, engine::variant::config::OPEN_SUFFIX) } else { self.preset.clone() };
        self.play_on(&GameSpec::load(&name)?)
    }

    /// Plays the game under `game` (the preset, or its open twin when `open`).
    fn play_on(&self, game: &GameSpec) -> anyhow::Result<GameRow> {
        let seed = deal_seed(self.seed, &self.preset, self.deal);
        // The open twin's set-up of a seed is the hidden one's with everything shown
        // (docs/open-twins.md §O4), so the two games of a pair play one deal.
        let setup = game.setup(seed)?;
        let bot = PlayerKind::Bot(self.spec.clone());
        let rules = Rules { max_plies: self.max_plies, opening_plies: 0 };
        let t0 = Instant::now();
        let p = game.play(&setup, rules, &bot, &bot, bot_seeds(seed, &self.spec))?;
        let seconds = store::stored_seconds(t0.elapsed());
        Ok(GameRow { key: self.key(), red_score: p.outcome.red_score(), reason: p.outcome.reason, plies: p.moves.len(), seconds })
    }

    /// The task's place in messages: `preset / spec deal N (open)`.
    fn label(&self) -> String {
        format!("{} / {} deal {}{}", self.preset, self.spec, self.deal, if self.open { " (open)" } else { "" })
    }
}

/// One game to play.
#[derive(Clone, Debug)]
struct Job {
    preset: usize,
    spec: String,
    deal: u32,
    open: bool,
}

/// Plays the anchors' missing games, then the study's (resuming from `<out>/games.tsv`; none with
/// `report_only`), and
/// returns every game in the store (sorted by key) with this run's wall time in seconds.
///
/// # Errors
/// An unknown preset or bot spec, a preset without an open twin, the store cannot be read or
/// written, or a game failed (finished games stay in the store).
pub fn run(settings: &Settings) -> anyhow::Result<(Vec<GameRow>, f64)> {
    let hidden: Vec<GameSpec> = settings.presets.iter().map(|v| GameSpec::load(v)).collect::<Result<_, _>>()?;
    let open: Vec<GameSpec> = settings.presets.iter().map(|v| GameSpec::load(&format!("{v}{}", engine::variant::config::OPEN_SUFFIX))).collect::<Result<_, _>>()?;
    for spec in &settings.levels {
        for r in &hidden {
            r.check_bot(spec).map_err(|e| anyhow::anyhow!("--levels {spec:?} ({}): {e}", r.name()))?;
        }
    }
    // The ceiling is played where the preset's bots have it.
    let ceiling_ok: Vec<bool> = hidden.iter().map(|r| settings.ceiling.as_ref().is_some_and(|c| r.check_bot(c).is_ok())).collect();
    std::fs::create_dir_all(&settings.out)?;
    let mut store = Store::open(&settings.out.join("games.tsv"), &settings.fingerprint())?;
    let t0 = Instant::now();
    if settings.report_only {
        let mut rows: Vec<GameRow> = store.rows().cloned().collect();
        rows.sort_by(|a, b| a.key.cmp(&b.key));
        return Ok((rows, 0.0));
    }
    // The anchors first: they are few, and a sequential study may be stopped before its end.
    if let Some(a) = &settings.anchors {
        anchors::run(a, settings.seed, settings.max_plies, &mut store, settings.progress)?;
    }
    // Jobs interleaved by deal so that a partial run covers every cell; with a target
    // half-width, played in waves of `wave` deals, after each of which the cells whose
    // cautious interval is narrow enough (and that have `min_deals`) stop.
    let max_deals = (0..settings.levels.len()).map(|l| settings.deals_for(l)).max().unwrap_or(0).max(settings.ceiling_deals_scaled());
    let wave = if settings.halfwidth.is_some() { settings.wave.max(1) } else { max_deals.max(1) };
    let mut resolved: std::collections::HashSet<(usize, usize)> = std::collections::HashSet::new();
    let mut first = 0;
    while first < max_deals {
        let last = (first + wave).min(max_deals);
        let mut jobs = Vec::new();
        for deal in first..last {
            for (l, spec) in settings.levels.iter().enumerate() {
                if deal < settings.deals_for(l) {
                    for p in (0..hidden.len()).filter(|&p| !resolved.contains(&(p, l))) {
                        for open in [false, true] {
                            jobs.push(Job { preset: p, spec: spec.clone(), deal, open });
                        }
                    }
                }
            }
            if let Some(c) = settings.ceiling.as_ref().filter(|_| deal < settings.ceiling_deals_scaled()) {
                for p in (0..hidden.len()).filter(|&p| ceiling_ok[p]) {
                    jobs.push(Job { preset: p, spec: c.clone(), deal, open: false });
                }
            }
        }
        let todo: Vec<Job> = jobs.into_iter().filter(|j| !store.has(&store::Key::new(&settings.presets[j.preset], &j.spec, j.deal, j.open))).collect();
        play_jobs(settings, &todo, &hidden, &open, &mut store)?;
        first = last;
        if let Some(target) = settings.halfwidth {
            let rows: Vec<GameRow> = store.rows().cloned().collect();
            for (l, spec) in settings.levels.iter().enumerate() {
                for (p, name) in settings.presets.iter().enumerate() {
                    let cell = stats::paired(&rows, name, spec);
                    if !resolved.contains(&(p, l)) && cell.pairs >= settings.min_deals && cell.cautious_ci95() <= target {
                        resolved.insert((p, l));
                        if settings.progress {
                            eprintln!(
                                "{name} / {spec}: resolved at {} deals (hidden - open {:+.1} points, cautious 95 % half-width {:.1} <= {:.1})",
                                cell.pairs,
                                100.0 * cell.diff,
                                100.0 * cell.cautious_ci95(),
                                100.0 * target
                            );
                        }
                    }
                }
            }
        }
    }
    let mut rows: Vec<GameRow> = store.rows().cloned().collect();
    rows.sort_by(|a, b| a.key.cmp(&b.key));
    Ok((rows, t0.elapsed().as_secs_f64()))
}

/// Plays `todo` (locally on `settings.threads`, or on the cluster) and stores each game as it
/// ends.
///
/// # Errors
/// A game failed, or the store cannot be written (finished games stay stored).
fn play_jobs(settings: &Settings, todo: &[Job], hidden: &[GameSpec], open: &[GameSpec], store: &mut Store) -> anyhow::Result<()> {
    let task = |j: &Job| GameTask {
        preset: settings.presets[j.preset].clone(),
        spec: j.spec.clone(),
        deal: j.deal,
        open: j.open,
        seed: settings.seed,
        max_plies: settings.max_plies,
    };
    let bar = if settings.progress { ProgressBar::new(todo.len() as u64) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games [{elapsed_precise} < {eta_precise}] {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    if let Some(cluster) = &settings.cluster {
        let tasks: Vec<(String, crate::ray_games::Task)> = todo.iter().map(|j| (task(j).key().text(), crate::ray_games::Task::DrawRates(task(j)))).collect();
        let stats = crate::ray_games::run(cluster, &tasks, |key, result| {
            let text = result.map_err(|e| anyhow::anyhow!("draw-rate study stopped at {key:?} (finished games are in {}; rerun to resume): {e}", settings.out.join("games.tsv").display()))?;
            let row = GameRow::parse(text.trim_end()).ok_or_else(|| anyhow::anyhow!("a cluster worker returned {text:?} for {key:?}, not a game row"))?;
            anyhow::ensure!(row.key.text() == key, "a cluster worker returned the game {:?} for {key:?}", row.key.text());
            bar.inc(1);
            if store.has(&row.key) {
                return Ok(crate::ray_games::Outcome::Duplicate);
            }
            store.append(row)?;
            Ok(crate::ray_games::Outcome::Stored)
        })?;
        bar.finish_and_clear();
        if settings.progress {
            eprintln!("cluster: {} games from {} nodes in {:.1} s ({} duplicate results dropped)", stats.stored, stats.nodes, stats.seconds, stats.duplicates);
        }
    }
    let todo: &[Job] = if settings.cluster.is_some() { &[] } else { todo };
    let error: Mutex<Option<String>> = Mutex::new(None);
    let next = AtomicUsize::new(0);
    let threads = settings.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let shared = Mutex::new(store);
    pool.scope(|s| {
        for _ in 0..threads {
            s.spawn(|_| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(job) = todo.get(i) else { break };
                if error.lock().map(|e| e.is_some()).unwrap_or(true) {
                    break;
                }
                let t = task(job);
                let game = if job.open { &open[job.preset] } else { &hidden[job.preset] };
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| t.play_on(game))) {
                    Ok(Ok(row)) => {
                        let mut st = match shared.lock() {
                            Ok(g) => g,
                            Err(p) => p.into_inner(),
                        };
                        if let Err(e) = st.append(row) {
                            if let Ok(mut x) = error.lock() {
                                x.get_or_insert(format!("{e:#}"));
                            }
                        }
                        bar.inc(1);
                    }
                    Ok(Err(e)) => {
                        if let Ok(mut x) = error.lock() {
                            x.get_or_insert(format!("{}: {e:#}", t.label()));
                        }
                    }
                    Err(_) => {
                        if let Ok(mut x) = error.lock() {
                            x.get_or_insert(format!("{}: the bot panicked", t.label()));
                        }
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        anyhow::bail!("draw-rate study stopped (finished games are in {}; rerun to resume): {e}", settings.out.join("games.tsv").display());
    }
    Ok(())
}

#[cfg(test)]
mod tests;
