//! A training run (`anqi train`): alternate self-play (a shard per iteration, or shards from
//! external workers) and training on the replay window; checkpoint, optionally gate, report;
//! at the end, evaluate. Running the same command again resumes from the last checkpoint and the
//! shards on disk, losing at most the games in progress.

use super::config::RunConfig;
use super::eval::MatchResult;
use super::replay::Replay;
use super::search::SearchConfig;
use engine::any_game::AnyGame;
use super::{game_seed, play_spec, GameConfig, GameJob, Player};
use anyhow::Context;
use engine::observe::Encoding;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use models::checkpoint::{self, SaveInfo};
use models::device::DeviceSpec;
use models::net::Net;
use models::shard::{self, ShardHeader};
use models::train::{Losses, Trainer};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub mod phases;
#[cfg(test)]
mod tests;

use phases::RunContext;

/// The anqi git revision this binary was built from.
pub const GIT_REVISION: &str = env!("ANQI_GIT_REVISION");

/// Progress bars (indicatif, on stderr, hidden when it is not a terminal) and plain lines.
pub struct Ui {
    mp: MultiProgress,
}

impl Ui {
    /// Bars on stderr when `enabled` and stderr is a terminal.
    pub fn new(enabled: bool) -> Ui {
        let target = if enabled { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() };
        Ui { mp: MultiProgress::with_draw_target(target) }
    }

    /// Prints a line above the bars.
    pub fn say(&self, line: impl AsRef<str>) {
        self.mp.suspend(|| println!("{}", line.as_ref()));
    }

    /// A bar of `len` units named `what`.
    pub fn bar(&self, len: u64, what: &str) -> ProgressBar {
        let style = ProgressStyle::with_template(&format!(
            "{{prefix:>9}} [{{bar:30}}] {{pos}}/{{len}} {what} {{per_sec}} eta {{eta}} {{msg}}"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
        let b = self.mp.add(ProgressBar::new(len).with_style(style));
        b.set_prefix(what.to_string());
        b
    }
}

/// The game of a run's config (a variant or a RULES-more preset, [`crate::games::load_game`])
/// with its encoding. A warm start ([`crate::config::WarmStart`]) plays in either: the variant
/// bots' analyses, or the RULES-more bots' choices ([`crate::teacher::generic_targets`]).
///
/// # Errors
/// [`crate::games::GameError`]: the game does not load.
pub fn load_run_game(cfg: &RunConfig) -> Result<(AnyGame, Encoding), crate::games::GameError> {
    crate::games::load_game(&cfg.variant)
}

/// libgomp (libtorch's OpenMP) reads its spin settings once, when it is loaded: before `main`.
/// Its default, spinning up to 300,000 times at every barrier, makes multi-threaded training up
/// to ten times slower as soon as another process competes for the cores (measured on 2 cores
/// with two busy loops: 180 samples/s by default, 830 with `GOMP_SPINCOUNT=20000`, against
/// about 2,100 and 1,950 on idle cores). So `train` and `selfplay` re-execute themselves once
/// with `GOMP_SPINCOUNT=20000` unless `GOMP_SPINCOUNT` or `OMP_WAIT_POLICY` is set (an explicit
/// setting is respected). `anqi` sets the same value when it hands a command to `anqi-torch`
/// (`selfplay/src/cli/helper.rs`, `SHORT_OPENMP_SPIN`), so this re-exec happens only when
/// `anqi-torch` is started directly. Returns only if the re-exec was not needed or failed.
pub fn reexec_with_short_openmp_spin() {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        if std::env::var_os("OMP_WAIT_POLICY").is_some() || std::env::var_os("GOMP_SPINCOUNT").is_some() {
            return;
        }
        let Ok(exe) = std::env::current_exe() else { return };
        let err = std::process::Command::new(exe).args(std::env::args_os().skip(1)).env("GOMP_SPINCOUNT", "20000").exec();
        eprintln!("warning: could not re-execute with GOMP_SPINCOUNT=20000 ({err}); continuing");
    }
}

/// Keeps libtorch's large buffers in the heap instead of fresh `mmap`s. glibc serves blocks above
/// its dynamic mmap threshold (128 KiB at first) with `mmap` and trims the heap top above 128 KiB,
/// so every training step mapped, faulted in and unmapped its activations (2.9 MB per 4x32 layer
/// at batch 256) and its 25 MB policy logits. With a 32 MiB mmap threshold and a 1 GiB trim
/// threshold (`mallopt`, glibc only) a 4x32 training step at batch 256 on 2 cores measured 105 ms
/// instead of 121-139 ms (models/examples/train_profile.rs). Memory returns to the system at exit.
#[allow(unsafe_code)]
pub fn tune_malloc() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator parameters; it is called before worker threads start.
    unsafe {
        let _ = libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        let _ = libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
        let _ = libc::mallopt(libc::M_TOP_PAD, 64 << 20);
    }
}

/// Sets the farm's (rayon) and libtorch's thread counts; 0 means every core. Also tunes the
/// allocator for libtorch ([`tune_malloc`]).
pub fn init_threads(n: usize) -> usize {
    tune_malloc();
    let n = if n == 0 { std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1) } else { n };
    tch::set_num_threads(n as i32);
    let _ = rayon::ThreadPoolBuilder::new().num_threads(n).build_global();
    n
}

/// Puts libtorch on one intra-op thread for timed play (`net:` bots in `play`, tournaments,
/// ladders, studies, serve), as every classical bot searches on one core, unless the user set
/// `OMP_NUM_THREADS`. libtorch's default (a thread per core) made a 50 ms `net:` move take
/// several times that on a loaded 2-core machine, so matches at "equal time" gave the net more
/// (experiments/train/hybrid.md, session 12). Returns the thread count libtorch now uses.
pub fn init_play_threads() -> i32 {
    if std::env::var_os("OMP_NUM_THREADS").is_none() {
        tch::set_num_threads(1);
    }
    tch::get_num_threads()
}

/// Resolves `selfplay.lanes = 0` (automatic): one lane on CUDA, one per farm thread on the CPU
/// (`threads`, 0 meaning every core). A device that does not resolve leaves one lane; the
/// device error is reported when the run starts.
pub fn resolve_lanes(cfg: &mut RunConfig) {
    if cfg.selfplay.game.lanes != 0 {
        return;
    }
    let cuda = device(cfg).map(|d| d.is_cuda()).unwrap_or(true);
    let threads = if cfg.threads == 0 { std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1) } else { cfg.threads };
    cfg.selfplay.game.lanes = if cuda { 1 } else { threads.max(1) };
}

/// The device a config names.
pub fn device(cfg: &RunConfig) -> anyhow::Result<tch::Device> {
    let spec: DeviceSpec = cfg.device.parse()?;
    Ok(spec.resolve()?)
}

/// What one self-play shard produced.
#[derive(Clone, Debug, Default)]
pub struct ShardStats {
    /// The shard file.
    pub path: PathBuf,
    /// Games.
    pub games: u32,
    /// Samples.
    pub samples: usize,
    /// Plies.
    pub plies: u64,
    /// Decisive games.
    pub decisive: u32,
    /// Adjudicated games.
    pub adjudicated: u32,
    /// Net evaluations.
    pub evals: u64,
    /// Seconds.
    pub seconds: f64,
}

/// Plays one shard of self-play games with `net` as worker `worker`, shard `seq`, and writes it
/// to `dir` (atomically).
#[allow(clippy::too_many_arguments)]
pub fn selfplay_shard(
    game: &AnyGame,
    net: &Net,
    net_step: u64,
    cfg: &RunConfig,
    worker: u32,
    seq: u64,
    dir: &Path,
    ui: &Ui,
) -> anyhow::Result<ShardStats> {
    let player = Player::Net { net: 0, search: cfg.search.clone() };
    let games = cfg.selfplay.games_per_iteration;
    play_shard(game, net, net_step, cfg, (worker, seq), dir, ui, (player, games, cfg.selfplay.game.temperature_plies), &cfg.selfplay.game)
}

/// Plays and writes teacher shard `seq` of the run's warm start ([`crate::config::WarmStart`]):
/// the teacher against itself, its decisions recorded (`teacher.rs`).
fn teacher_shard(game: &AnyGame, net: &Net, cfg: &RunConfig, seq: u64, dir: &Path, ui: &Ui) -> anyhow::Result<ShardStats> {
    let ws = cfg.warmstart.as_ref().context("no [warmstart]")?;
    let games = ws.games_per_shard.min(ws.games - (seq as u32 * ws.games_per_shard).min(ws.games)).max(1);
    let game_cfg = super::GameConfig { teacher: ws.targets(), ..cfg.selfplay.game.clone() };
    let player = Player::Bot(ws.teacher.clone());
    play_shard(game, net, 0, cfg, (crate::config::TEACHER_WORKER, seq), dir, ui, (player, games, ws.temperature_plies), &game_cfg)
}

/// Plays `games` recorded games of `player` against itself as shard `seq` of `worker` and writes
/// the shard to `dir` (atomically).
#[allow(clippy::too_many_arguments)]
fn play_shard(
    game: &AnyGame,
    net: &Net,
    net_step: u64,
    cfg: &RunConfig,
    (worker, seq): (u32, u64),
    dir: &Path,
    ui: &Ui,
    (player, games, temperature_plies): (Player, u32, u32),
    game_cfg: &GameConfig,
) -> anyhow::Result<ShardStats> {
    let start = Instant::now();
    let jobs: Vec<GameJob> = (0..u64::from(games))
        .map(|g| GameJob {
            id: g,
            seed: game_seed(&[cfg.seed, u64::from(worker), seq, g]),
            red: player.clone(),
            black: player.clone(),
            record: true,
            noise: true,
            temperature: cfg.selfplay.game.temperature,
            temperature_plies,
        })
        .collect();
    let bar = ui.bar(u64::from(games), "games");
    let mut samples_so_far = 0usize;
    let (results, stats) = play_spec(
        game,
        &[net],
        jobs,
        game_cfg,
        |r| {
            samples_so_far += r.samples.len();
            bar.inc(1);
            bar.set_message(format!("{samples_so_far} samples"));
        },
    )?;
    bar.finish_and_clear();
    let mut st = ShardStats { games, evals: stats.evals, ..Default::default() };
    let mut samples = Vec::new();
    for r in results {
        st.plies += u64::from(r.plies);
        st.decisive += u32::from(r.winner.is_some());
        st.adjudicated += u32::from(r.adjudicated);
        samples.extend(r.samples);
    }
    st.samples = samples.len();
    let header = ShardHeader {
        encoding_version: net.encoding().version,
        encoding: net.encoding().clone(),
        variant: game.name().to_string(),
        worker,
        seq,
        net_step,
        architecture: Some(net.config().clone()),
        games,
        samples: samples.len() as u64,
        plies: st.plies,
        decisive: st.decisive,
        git_revision: GIT_REVISION.into(),
        created_unix: checkpoint::now_unix(),
    };
    fs::create_dir_all(dir).with_context(|| format!("{}", dir.display()))?;
    let path = dir.join(shard::file_name(worker, seq));
    shard::write(&path, &header, &samples)?;
    st.path = path;
    st.seconds = start.elapsed().as_secs_f64();
    Ok(st)
}

/// Reads new shards into the replay window, printing its warnings and refusals; returns the
/// samples read.
fn refresh_replay(replay: &mut Replay, ui: &Ui) -> usize {
    let refresh = replay.refresh();
    for w in &refresh.warnings {
        ui.say(w);
    }
    refresh.new_samples
}

/// The result of a run.
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    /// Final training step.
    pub step: u64,
    /// Whether it resumed from a checkpoint.
    pub resumed_from: Option<u64>,
    /// Final match against random.
    pub vs_random: Option<MatchResult>,
    /// Final match against the untrained net.
    pub vs_initial: Option<MatchResult>,
    /// Final match against `greedy`.
    pub vs_greedy: Option<MatchResult>,
    /// Final match against `ismcts` at the net's time per move.
    pub vs_ismcts: Option<MatchResult>,
    /// Wall-clock seconds of this invocation.
    pub seconds: f64,
}

fn trainer_json(iteration: u64, samples_trained: u64, last: &Losses) -> serde_json::Value {
    serde_json::json!({ "iteration": iteration, "samples_trained": samples_trained, "loss": last })
}

fn save_checkpoint(cfg: &RunConfig, game: &AnyGame, trainer: &Trainer, trainer_state: serde_json::Value) -> anyhow::Result<PathBuf> {
    let opt = trainer.optimizer_state();
    let path = checkpoint::save(
        &cfg.checkpoint_dir(),
        &trainer.net,
        Some(&opt),
        SaveInfo {
            step: trainer.step,
            variant: game.name(),
            config: cfg.to_json(),
            git_revision: GIT_REVISION,
            trainer: trainer_state,
        },
    )?;
    Ok(path)
}

/// Saves the run's configuration once (`config.toml`); a resumed run with a different
/// configuration keeps the old file and writes the new one beside it.
fn save_config(cfg: &RunConfig) -> anyhow::Result<()> {
    let path = cfg.run_dir.join("config.toml");
    let text = cfg.to_toml();
    match fs::read_to_string(&path) {
        Ok(old) if old == text => Ok(()),
        Ok(_) => {
            let alt = cfg.run_dir.join(format!("config.{}.toml", checkpoint::now_unix()));
            checkpoint::write_atomic(&alt, text.as_bytes())?;
            Ok(())
        }
        Err(_) => Ok(checkpoint::write_atomic(&path, text.as_bytes())?),
    }
}

fn fmt_secs(s: f64) -> String {
    let s = s.max(0.0) as u64;
    if s >= 3600 {
        format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

/// The evaluation search: the training search (or `eval.simulations`), no noise.
pub fn eval_search(cfg: &RunConfig) -> SearchConfig {
    SearchConfig { simulations: cfg.eval.simulations.unwrap_or(cfg.search.simulations), ..cfg.search.clone() }
}

/// Game settings of evaluation matches: unfinished games at the ply limit are draws.
pub fn eval_games(cfg: &RunConfig) -> GameConfig {
    GameConfig {
        concurrent_games: cfg.selfplay.game.concurrent_games,
        max_plies: cfg.eval.max_plies.unwrap_or(cfg.selfplay.game.max_plies),
        adjudicate_material: 0.0,
        adjudicate_scale: 0.0,
        temperature: 1.0,
        temperature_plies: cfg.eval.temperature_plies,
        lanes: cfg.selfplay.game.lanes,
        teacher: Default::default(),
    }
}

/// Runs (or resumes) the training run `cfg`. `progress` shows bars on a terminal.
///
/// The phases ([`phases`]): [`phases::start`] (the untrained net or the resumed checkpoint),
/// [`phases::warm_start`], then per iteration [`phases::self_play`], [`phases::train`],
/// [`phases::checkpoint`], [`phases::gate`] (with `eval.gate_games > 0`) and
/// [`phases::log_iteration`], until `train.steps`; at the end [`phases::evaluate`].
///
/// # Errors
/// The game does not load, the device is unavailable, a checkpoint or shard cannot be read or
/// written (named), or a warm start finds no teacher samples.
pub fn run(cfg: &RunConfig, progress: bool) -> anyhow::Result<RunReport> {
    let started = Instant::now();
    let ui = Ui::new(progress);
    let threads = init_threads(cfg.threads);
    let (game, encoding) = load_run_game(cfg)?;
    let ctx = RunContext { cfg, game: &game, encoding: &encoding, device: device(cfg)?, ui: &ui };
    let (ck_dir, shard_dir) = (cfg.checkpoint_dir(), cfg.shard_dir());
    fs::create_dir_all(&shard_dir).with_context(|| shard_dir.display().to_string())?;
    fs::create_dir_all(&ck_dir).with_context(|| ck_dir.display().to_string())?;
    save_config(cfg)?;
    let total = cfg.train.steps;

    let mut state = phases::start(&ctx)?;
    let mut report = RunReport { resumed_from: state.resumed_from, ..RunReport::default() };
    ui.say(format!(
        "train {}: variant {}, net {}x{} ({} parameters), {} simulations, {} games/iteration, {} steps of {} ({} per iteration), {threads} threads, {:?}",
        cfg.run_dir.display(),
        game.name(),
        cfg.net.blocks,
        cfg.net.channels,
        state.trainer.net.parameter_count(),
        cfg.search.simulations,
        cfg.selfplay.games_per_iteration,
        total,
        cfg.train.batch_size,
        cfg.train.steps_per_iteration,
        ctx.device
    ));

    let mut replay = Replay::new(&shard_dir, game.name(), Some(&cfg.net), &encoding, cfg.train.replay_samples);
    let metrics_path = cfg.run_dir.join("metrics.jsonl");
    let mut metrics = fs::OpenOptions::new().create(true).append(true).open(&metrics_path).with_context(|| metrics_path.display().to_string())?;
    let steps_bar = ui.bar(total, "steps");
    steps_bar.set_position(state.trainer.step.min(total));
    let gate = cfg.eval.gate_games > 0;
    let mut last_checkpoint = state.trainer.step;
    let mut listed_shards: Option<Vec<PathBuf>> = None; // shard files at the last refresh (external workers)

    phases::warm_start(&ctx, &state.trainer.net)?;
    let supervised_until = cfg.warmstart.as_ref().map_or(0, |w| w.steps);
    if supervised_until > 0 {
        refresh_replay(&mut replay, &ui);
    }

    while state.trainer.step < total {
        let it_start = Instant::now();
        state.iteration += 1;
        let supervised = state.trainer.step < supervised_until;
        let sp = phases::self_play(&ctx, &state, &mut replay, &mut listed_shards, supervised, &steps_bar)?;
        let fresh = sp.shard.as_ref().and_then(|s| phases::fresh_loss(&ctx, &state.trainer, s));
        let trained = phases::train(&ctx, &mut state, &mut replay, supervised, gate, &steps_bar)?;
        let ck = phases::checkpoint(&ctx, &state, &trained, &mut last_checkpoint)?;
        let vs_prev = match (gate, trained.previous.as_ref(), ck.as_ref()) {
            (true, Some(prev), Some(ck)) => Some(phases::gate(&ctx, &state.trainer.net, prev, ck, state.trainer.step)?),
            _ => None,
        };
        let it = phases::Iteration {
            self_play: &sp,
            fresh,
            trained: &trained,
            checkpoint: ck.as_deref(),
            vs_previous: vs_prev.as_ref(),
            seconds: it_start.elapsed().as_secs_f64(),
        };
        phases::log_iteration(&ctx, &state, &replay, &it, &mut metrics, &metrics_path, started.elapsed().as_secs_f64())?;
    }
    steps_bar.finish_and_clear();
    report.step = state.trainer.step;

    phases::evaluate(&ctx, &state.trainer, &mut report)?;
    report.seconds = started.elapsed().as_secs_f64();
    ui.say(format!("done: step {} in {} ({})", state.trainer.step, fmt_secs(report.seconds), cfg.run_dir.display()));
    Ok(report)
}
