//! The phases of a training run ([`super::run`]), one function each so that each can be tested
//! alone: [`start`] (the untrained net, or the checkpoint a rerun resumes), [`warm_start`] (the
//! teacher's games), [`self_play`] (a shard, or the external workers' shards), [`train`] (steps
//! on the replay window), [`checkpoint`] and [`gate`], [`log_iteration`] (the summary line and
//! `metrics.jsonl`), and [`evaluate`] (the final matches and `eval-step-N.json`).

use super::{eval_games, eval_search, fmt_secs, refresh_replay, save_checkpoint, selfplay_shard, teacher_shard, trainer_json, RunReport, ShardStats, Ui};
use crate::config::{RunConfig, Source};
use crate::eval::{play_match, MatchResult, Opponent};
use engine::any_game::AnyGame;
use crate::replay::Replay;
use crate::search::SearchConfig;
use crate::game_seed;
use anyhow::Context;
use engine::observe::Encoding;
use indicatif::ProgressBar;
use models::checkpoint::{self, Expect};
use models::net::Net;
use models::shard;
use models::train::{Batch, Losses, Trainer};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What every phase reads: the run's config, its game and encoding, the device and the output.
pub struct RunContext<'a> {
    /// The run's configuration.
    pub cfg: &'a RunConfig,
    /// The game it trains ([`super::load_run_game`]).
    pub game: &'a AnyGame,
    /// The game's encoding.
    pub encoding: &'a Encoding,
    /// Where the net lives.
    pub device: tch::Device,
    /// Progress bars and lines.
    pub ui: &'a Ui,
}

/// The trainer with the counters a checkpoint carries.
pub struct Progress {
    /// The net and its optimizer; `trainer.step` is the training step.
    pub trainer: Trainer,
    /// Iterations done.
    pub iteration: u64,
    /// Samples trained on so far (steps times batch size).
    pub samples_trained: u64,
    /// The step of the checkpoint this invocation resumed from, if it resumed.
    pub resumed_from: Option<u64>,
}

/// Phase 0: resumes from the run directory's latest checkpoint (net, optimizer state, step,
/// iteration, samples trained) when there is one; otherwise builds the untrained net from the
/// config's seed and saves it as `step-0`.
///
/// # Errors
/// A checkpoint that does not load or fits another game, architecture or encoding (named), an
/// unreadable optimizer state, or a write error.
pub fn start(ctx: &RunContext<'_>) -> anyhow::Result<Progress> {
    let cfg = ctx.cfg;
    let ck_dir = cfg.checkpoint_dir();
    let total = cfg.train.steps;
    if checkpoint::exists(&ck_dir) {
        let expect = Expect { variant: Some(ctx.game.name()), architecture: Some(&cfg.net) };
        let (net, meta, json) =
            checkpoint::load_for(&ck_dir, ctx.device, expect, ctx.encoding).with_context(|| format!("resuming {}", cfg.run_dir.display()))?;
        let mut trainer = Trainer::new(net, cfg.optimizer.clone(), total);
        let opt = checkpoint::load_optimizer(&json, &meta)?;
        if !opt.is_empty() {
            trainer.load_optimizer_state(opt, &json)?;
        }
        trainer.step = meta.step;
        let iteration = meta.trainer.get("iteration").and_then(|v| v.as_u64()).unwrap_or(0);
        let samples_trained = meta.trainer.get("samples_trained").and_then(|v| v.as_u64()).unwrap_or(0);
        ctx.ui.say(format!("resuming from {} (step {}, iteration {iteration})", json.display(), meta.step));
        Ok(Progress { trainer, iteration, samples_trained, resumed_from: Some(meta.step) })
    } else {
        let net = Net::with_encoding(&cfg.net, ctx.encoding, ctx.device, cfg.seed);
        let trainer = Trainer::new(net, cfg.optimizer.clone(), total);
        let p = save_checkpoint(cfg, ctx.game, &trainer, trainer_json(0, 0, &Losses::default()))?;
        ctx.ui.say(format!("new run in {}; untrained net saved as {}", cfg.run_dir.display(), p.display()));
        Ok(Progress { trainer, iteration: 0, samples_trained: 0, resumed_from: None })
    }
}

/// Phase 1: the warm start's teacher games ([`crate::config::WarmStart`]), only the shards not on
/// disk yet (a rerun plays none twice); returns what each new shard holds. Nothing without a
/// `[warmstart]`.
///
/// # Errors
/// A game or shard write error.
pub fn warm_start(ctx: &RunContext<'_>, net: &Net) -> anyhow::Result<Vec<ShardStats>> {
    let Some(ws) = &ctx.cfg.warmstart else { return Ok(Vec::new()) };
    let shard_dir = ctx.cfg.shard_dir();
    let shards = u64::from(ws.games.div_ceil(ws.games_per_shard.max(1)));
    let first = shard::next_seq(&shard_dir, crate::config::TEACHER_WORKER)?;
    let mut out = Vec::new();
    for seq in first..shards {
        let st = teacher_shard(ctx.game, net, ctx.cfg, seq, &shard_dir, ctx.ui)?;
        ctx.ui.say(format!(
            "warm start: teacher shard {}/{shards} ({}): {} games, {} samples, {:.1} plies/game, {:.0} s",
            seq + 1,
            ws.teacher,
            st.games,
            st.samples,
            st.plies as f64 / f64::from(st.games.max(1)),
            st.seconds
        ));
        out.push(st);
    }
    Ok(out)
}

/// What one iteration's self-play brought.
#[derive(Clone, Debug, Default)]
pub struct SelfPlay {
    /// The shard played in process (none while the warm start trains, or with external workers).
    pub shard: Option<ShardStats>,
    /// Samples new to the replay window.
    pub new_samples: usize,
    /// Seconds spent waiting for external workers' shards.
    pub wait_secs: f64,
}

/// Phase 2: one shard of self-play by the current net written and read into `replay`
/// ([`Source::InProcess`]), or a wait until external workers add a shard the run accepts
/// ([`Source::External`]; `listed` is the shard listing at the last refresh, so that headers are
/// reread only when it changes). Nothing while `supervised` (the warm start trains on the
/// teacher's games alone).
///
/// # Errors
/// A game, shard or directory error.
pub fn self_play(
    ctx: &RunContext<'_>,
    progress: &Progress,
    replay: &mut Replay,
    listed: &mut Option<Vec<PathBuf>>,
    supervised: bool,
    bar: &ProgressBar,
) -> anyhow::Result<SelfPlay> {
    if supervised {
        return Ok(SelfPlay::default());
    }
    let shard_dir = ctx.cfg.shard_dir();
    match ctx.cfg.selfplay.source {
        Source::InProcess => {
            let seq = shard::next_seq(&shard_dir, 0)?;
            let sp = selfplay_shard(ctx.game, &progress.trainer.net, progress.trainer.step, ctx.cfg, 0, seq, &shard_dir, ctx.ui)?;
            let new_samples = refresh_replay(replay, ctx.ui);
            Ok(SelfPlay { shard: Some(sp), new_samples, wait_secs: 0.0 })
        }
        Source::External => {
            bar.set_message("waiting for worker shards");
            let waiting = Instant::now();
            let new_samples = loop {
                let now = Some(shard::list(&shard_dir)?);
                if now != *listed {
                    *listed = now;
                    let n = refresh_replay(replay, ctx.ui);
                    if n > 0 {
                        break n;
                    }
                }
                std::thread::sleep(Duration::from_millis(500));
            };
            bar.set_message("");
            Ok(SelfPlay { shard: None, new_samples, wait_secs: waiting.elapsed().as_secs_f64() })
        }
    }
}

/// The net's loss on (up to 2,048 samples of) the shard it just played, before training on it:
/// a held-out measure of what it predicts about play it has not seen. `None` when the shard
/// does not read.
pub fn fresh_loss(ctx: &RunContext<'_>, trainer: &Trainer, shard: &ShardStats) -> Option<Losses> {
    let (_, samples) = shard::read_for(&shard.path, ctx.encoding).ok()?;
    let refs: Vec<&models::shard::Sample> = samples.iter().take(2048).collect();
    Some(trainer.evaluate(&Batch::new_for(&refs, ctx.encoding, ctx.device, 0.0)))
}

/// What one iteration's training did.
pub struct Trained {
    /// Steps taken (0 while the window holds fewer than `train.min_samples`).
    pub steps: u64,
    /// Mean losses over those steps (NaN without steps).
    pub losses: Losses,
    /// Seconds.
    pub seconds: f64,
    /// The net before these steps, when `keep_previous` asked for it and steps were taken (the
    /// gate's opponent).
    pub previous: Option<Net>,
}

/// Phase 3: up to `train.steps_per_iteration` steps (never past `train.steps`) on batches drawn
/// from the replay window, once it holds `train.min_samples` (any teacher sample while
/// `supervised`); the batches' random draws are seeded by the run's seed and the step, so a
/// resumed run draws what an uninterrupted one would.
///
/// # Errors
/// `supervised` with no teacher samples in the window.
pub fn train(ctx: &RunContext<'_>, progress: &mut Progress, replay: &mut Replay, supervised: bool, keep_previous: bool, bar: &ProgressBar) -> anyhow::Result<Trained> {
    let cfg = ctx.cfg;
    let start = Instant::now();
    if supervised && replay.is_empty() {
        anyhow::bail!("warm start: no teacher samples in {} (worker {})", cfg.shard_dir().display(), crate::config::TEACHER_WORKER);
    }
    let mut sum = Losses::default();
    let mut steps = 0u64;
    let mut previous = None;
    if replay.len() >= cfg.train.min_samples.max(1) || (supervised && !replay.is_empty()) {
        if keep_previous {
            previous = Some(progress.trainer.net.duplicate());
        }
        let trainer = &mut progress.trainer;
        let mut rng = Pcg64Mcg::seed_from_u64(game_seed(&[cfg.seed, 0xBA7C4, trainer.step]));
        let n = cfg.train.steps_per_iteration.min(cfg.train.steps - trainer.step);
        for _ in 0..n {
            let samples = replay.sample(&mut rng, cfg.train.batch_size);
            let batch = Batch::new_for(&samples, ctx.encoding, ctx.device, cfg.optimizer.q_weight);
            let l = trainer.train_step(&batch);
            sum.policy += l.policy;
            sum.value += l.value;
            sum.total += l.total;
            steps += 1;
            progress.samples_trained += samples.len() as u64;
            bar.inc(1);
            bar.set_message(format!("loss {:.3}", l.total));
        }
    }
    let mean = |x: f64| if steps > 0 { x / steps as f64 } else { f64::NAN };
    let losses = Losses { policy: mean(sum.policy), value: mean(sum.value), total: mean(sum.total) };
    Ok(Trained { steps, losses, seconds: start.elapsed().as_secs_f64(), previous })
}

/// Phase 4: saves a checkpoint when this iteration trained and `train.checkpoint_every` steps
/// (default: one iteration's) have passed since `last` (the step of the last one), or training
/// is over; returns its path.
///
/// # Errors
/// A write error.
pub fn checkpoint(ctx: &RunContext<'_>, progress: &Progress, trained: &Trained, last: &mut u64) -> anyhow::Result<Option<PathBuf>> {
    let cfg = ctx.cfg;
    let every = if cfg.train.checkpoint_every == 0 { cfg.train.steps_per_iteration } else { cfg.train.checkpoint_every };
    let step = progress.trainer.step;
    if trained.steps == 0 || (step < *last + every && step < cfg.train.steps) {
        return Ok(None);
    }
    *last = step;
    let json = trainer_json(progress.iteration, progress.samples_trained, &trained.losses);
    Ok(Some(save_checkpoint(cfg, ctx.game, &progress.trainer, json)?))
}

/// Phase 5 (with `eval.gate_games > 0`): `eval.gate_games` games of the net against `previous`
/// (the net before this iteration's steps), same search; a score of at least
/// `eval.gate_threshold` names checkpoint `ck` in the checkpoint directory's `best`.
///
/// # Errors
/// A game or write error.
pub fn gate(ctx: &RunContext<'_>, net: &Net, previous: &Net, ck: &Path, step: u64) -> anyhow::Result<MatchResult> {
    let cfg = ctx.cfg;
    let bar = ctx.ui.bar(u64::from(cfg.eval.gate_games), "gate");
    let seed = game_seed(&[cfg.seed, 0x6A7E, step]);
    let m = play_match(ctx.game, net, Opponent::Net(previous), "previous", cfg.eval.gate_games, &eval_search(cfg), &eval_games(cfg), cfg.eval.temperature_plies, seed, |_| bar.inc(1))?;
    bar.finish_and_clear();
    if m.score() >= cfg.eval.gate_threshold {
        let stem = ck.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        checkpoint::write_atomic(&cfg.checkpoint_dir().join("best"), format!("{stem}\n").as_bytes())?;
    }
    Ok(m)
}

/// One iteration as [`log_iteration`] reports it.
pub struct Iteration<'a> {
    /// Self-play's outcome.
    pub self_play: &'a SelfPlay,
    /// The net's loss on the new shard before training on it.
    pub fresh: Option<Losses>,
    /// Training's outcome.
    pub trained: &'a Trained,
    /// The checkpoint saved, if one was.
    pub checkpoint: Option<&'a Path>,
    /// The gate's match, if one was played.
    pub vs_previous: Option<&'a MatchResult>,
    /// Seconds of the whole iteration.
    pub seconds: f64,
}

/// Phase 6: the iteration's summary line and its JSON line appended to `metrics`
/// (`metrics.jsonl`; `elapsed`: seconds since the invocation started).
///
/// # Errors
/// A write error, naming `metrics_path`.
pub fn log_iteration(ctx: &RunContext<'_>, progress: &Progress, replay: &Replay, it: &Iteration<'_>, metrics: &mut fs::File, metrics_path: &Path, elapsed: f64) -> anyhow::Result<()> {
    let cfg = ctx.cfg;
    let trainer = &progress.trainer;
    let iteration = progress.iteration;
    let total = cfg.train.steps;
    let (games, samples, sp_secs, evals, plies, decisive, adjudicated) =
        it.self_play.shard.as_ref().map(|s| (s.games, s.samples, s.seconds, s.evals, s.plies, s.decisive, s.adjudicated)).unwrap_or_default();
    let (new_samples, wait_secs) = (it.self_play.new_samples, it.self_play.wait_secs);
    let losses = &it.trained.losses;
    let train_rate = if it.trained.seconds > 0.0 && it.trained.steps > 0 {
        (it.trained.steps * cfg.train.batch_size as u64) as f64 / it.trained.seconds
    } else {
        0.0
    };
    let vs_prev_text = it.vs_previous.map(|m| format!("{:.1}%", 100.0 * m.score())).unwrap_or_else(|| "-".into());
    let fresh_text = it.fresh.map(|l| format!(" | new games: policy {:.3} value {:.3}", l.policy, l.value)).unwrap_or_default();
    let selfplay_text = match cfg.selfplay.source {
        Source::External => format!("{new_samples} new samples from workers, waited {wait_secs:.1}s"),
        Source::InProcess => format!(
            "{games} games {:.2}/s, {samples} samples {:.0}/s, {:.0} plies/game, {decisive} decisive ({adjudicated} adjudicated)",
            f64::from(games) / sp_secs.max(1e-9),
            samples as f64 / sp_secs.max(1e-9),
            plies as f64 / f64::from(games.max(1)),
        ),
    };
    ctx.ui.say(format!(
        "iter {iteration:>3} step {:>5}/{total} | {selfplay_text} | loss {:.3} (policy {:.3}, value {:.3}) lr {:.2e} | train {:.0} samples/s{fresh_text} | replay {} | vs prev {vs_prev_text} | {}",
        trainer.step,
        losses.total,
        losses.policy,
        losses.value,
        trainer.lr(),
        train_rate,
        replay.len(),
        fmt_secs(elapsed)
    ));
    let line = serde_json::json!({
        "iteration": iteration,
        "step": trainer.step,
        "unix": checkpoint::now_unix(),
        "games": games,
        "samples": samples,
        "plies": plies,
        "decisive": decisive,
        "adjudicated": adjudicated,
        "net_evals": evals,
        "selfplay_seconds": sp_secs,
        "train_seconds": it.trained.seconds,
        "wait_seconds": wait_secs,
        "new_samples": new_samples,
        "iteration_seconds": it.seconds,
        "games_per_second": f64::from(games) / sp_secs.max(1e-9),
        "samples_per_second": samples as f64 / sp_secs.max(1e-9),
        "train_samples_per_second": train_rate,
        "loss": losses.total,
        "loss_policy": losses.policy,
        "loss_value": losses.value,
        "new_games_loss_policy": it.fresh.map(|l| l.policy),
        "new_games_loss_value": it.fresh.map(|l| l.value),
        "lr": trainer.lr(),
        "replay_samples": replay.len(),
        "replay_shards": replay.shards(),
        "vs_previous": it.vs_previous,
        "checkpoint": it.checkpoint,
    });
    writeln!(metrics, "{line}").with_context(|| metrics_path.display().to_string())?;
    Ok(())
}

/// Phase 7: the final matches of `[eval]` with the trained net — against `random` (target
/// `vs_random_target` of games won), the untrained net `step-0` (same search), `greedy` (target
/// `vs_greedy_target` of the score) and `ismcts` at the net's own measured time per move in the
/// greedy match (reported) — each printed with PASS/FAIL where it has a target, stored in
/// `report`, and written together to `eval-step-N.json`.
///
/// # Errors
/// A game or write error.
pub fn evaluate(ctx: &RunContext<'_>, trainer: &Trainer, report: &mut RunReport) -> anyhow::Result<()> {
    let (cfg, game, ui) = (ctx.cfg, ctx.game, ctx.ui);
    let search = eval_search(cfg);
    let games = eval_games(cfg);
    let step = trainer.step;
    let final_match = |opponent: Opponent<'_>, name: &str, n: u32, search: &SearchConfig, salt: u64| {
        let bar = ui.bar(u64::from(n), &format!("vs {name}"));
        let m = play_match(game, &trainer.net, opponent, name, n, search, &games, cfg.eval.temperature_plies, game_seed(&[cfg.seed, salt, step]), |_| bar.inc(1));
        bar.finish_and_clear();
        m
    };
    let verdict = |ok: bool| if ok { "PASS" } else { "FAIL" };
    if cfg.eval.vs_random_games > 0 {
        let search = SearchConfig { simulations: cfg.eval.vs_random_simulations.unwrap_or(search.simulations), ..search.clone() };
        let m = final_match(Opponent::Random, "random", cfg.eval.vs_random_games, &search, 0x7A4D)?;
        let ok = m.win_rate() >= cfg.eval.vs_random_target;
        ui.say(format!(
            "eval step {step} vs random ({} simulations): {} -> won {:.1}% (target >= {:.0}%): {}",
            search.simulations,
            m.summary(),
            100.0 * m.win_rate(),
            100.0 * cfg.eval.vs_random_target,
            verdict(ok)
        ));
        report.vs_random = Some(m);
    }
    if cfg.eval.vs_initial_games > 0 {
        let expect = Expect { variant: Some(game.name()), architecture: Some(&cfg.net) };
        let initial = match checkpoint::load_for(&cfg.checkpoint_dir().join("step-0.json"), ctx.device, expect, trainer.net.encoding()) {
            Ok((n, _, _)) => n,
            Err(e) => {
                ui.say(format!("warning: {e}; rebuilding the untrained net from seed {}", cfg.seed));
                Net::with_encoding(&cfg.net, trainer.net.encoding(), ctx.device, cfg.seed)
            }
        };
        let m = final_match(Opponent::Net(&initial), "untrained (step 0)", cfg.eval.vs_initial_games, &search, 0x1417)?;
        let ok = m.score() >= cfg.eval.vs_initial_target;
        ui.say(format!(
            "eval step {step} vs untrained net, same search ({} simulations): {} -> score {:.1}% (target >= {:.0}%): {}",
            search.simulations,
            m.summary(),
            100.0 * m.score(),
            100.0 * cfg.eval.vs_initial_target,
            verdict(ok)
        ));
        report.vs_initial = Some(m);
    }
    if cfg.eval.vs_greedy_games > 0 {
        let m = final_match(Opponent::Bot("greedy"), "greedy", cfg.eval.vs_greedy_games, &search, 0x6EED)?;
        let ok = m.score() >= cfg.eval.vs_greedy_target;
        ui.say(format!(
            "eval step {step} vs greedy ({} simulations, {:.1} ms of net and search per move): {} -> score {:.1}% (target >= {:.0}%): {}",
            search.simulations,
            m.ms_per_move,
            m.summary(),
            100.0 * m.score(),
            100.0 * cfg.eval.vs_greedy_target,
            verdict(ok)
        ));
        report.vs_greedy = Some(m);
    }
    if cfg.eval.vs_ismcts_games > 0 {
        // Equal time: ismcts gets the net's own cost per move, measured in the greedy match (or
        // `ismcts_movetime_ms` when there was none).
        let ms = report.vs_greedy.as_ref().map(|m| m.ms_per_move.ceil() as u64).unwrap_or(cfg.eval.ismcts_movetime_ms).max(1);
        let spec = format!("ismcts:ms={ms}");
        let m = final_match(Opponent::Bot(&spec), &spec, cfg.eval.vs_ismcts_games, &search, 0x15C7)?;
        ui.say(format!(
            "eval step {step} vs {spec} (equal time as measured against greedy; the net took {:.1} ms per move here, so ismcts had {:.0}% of its time): {} -> score {:.1}% (reported)",
            m.ms_per_move,
            100.0 * ms as f64 / m.ms_per_move.max(1e-3),
            m.summary(),
            100.0 * m.score()
        ));
        report.vs_ismcts = Some(m);
    }
    if report.vs_random.is_some() || report.vs_initial.is_some() || report.vs_greedy.is_some() || report.vs_ismcts.is_some() {
        let path = cfg.run_dir.join(format!("eval-step-{step}.json"));
        let json = serde_json::json!({
            "step": step,
            "vs_random": report.vs_random,
            "vs_initial": report.vs_initial,
            "vs_greedy": report.vs_greedy,
            "vs_ismcts": report.vs_ismcts,
        });
        checkpoint::write_atomic(&path, serde_json::to_string_pretty(&json)?.as_bytes())?;
    }
    Ok(())
}
