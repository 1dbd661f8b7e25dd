//! Each phase of a training run alone, on `configs/train/smoke.toml` (a 1-block net, 8-game
//! shards of Surprise Xiangqi) in a scratch directory.

use super::phases::{self, Iteration, Progress, RunContext};
use super::{load_run_game, save_config, RunReport, Ui};
use crate::config::RunConfig;
use crate::replay::Replay;
use indicatif::ProgressBar;
use std::path::Path;

fn smoke(run_dir: &Path, extra: &[&str]) -> RunConfig {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/train/smoke.toml");
    let mut sets = vec![format!("run_dir={:?}", run_dir.display().to_string())];
    sets.extend(extra.iter().map(|s| s.to_string()));
    let cfg = RunConfig::load(&path, &sets).expect("smoke config");
    std::fs::create_dir_all(cfg.shard_dir()).expect("shard dir");
    std::fs::create_dir_all(cfg.checkpoint_dir()).expect("checkpoint dir");
    save_config(&cfg).expect("config");
    cfg
}

/// Runs `f` with a context on `cfg`.
fn with_ctx<T>(cfg: &RunConfig, f: impl FnOnce(&RunContext<'_>) -> T) -> T {
    let (game, encoding) = load_run_game(cfg).expect("game");
    let ui = Ui::new(false);
    let ctx = RunContext { cfg, game: &game, encoding: &encoding, device: tch::Device::Cpu, ui: &ui };
    f(&ctx)
}

fn replay(ctx: &RunContext<'_>) -> Replay {
    let cfg = ctx.cfg;
    Replay::new(&cfg.shard_dir(), ctx.game.name(), Some(&cfg.net), ctx.encoding, cfg.train.replay_samples)
}

/// Self-play then training: one iteration's first half, for the later phases.
fn one_iteration(ctx: &RunContext<'_>, state: &mut Progress, keep_previous: bool) -> (phases::SelfPlay, phases::Trained) {
    let mut window = replay(ctx);
    let sp = phases::self_play(ctx, state, &mut window, &mut None, false, &ProgressBar::hidden()).expect("self-play");
    state.iteration += 1;
    let trained = phases::train(ctx, state, &mut window, false, keep_previous, &ProgressBar::hidden()).expect("train");
    (sp, trained)
}

#[test]
fn start_saves_the_untrained_net_and_a_rerun_resumes_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = smoke(tmp.path(), &[]);
    with_ctx(&cfg, |ctx| {
        let fresh = phases::start(ctx).expect("start");
        assert_eq!((fresh.trainer.step, fresh.iteration, fresh.resumed_from), (0, 0, None));
        assert!(cfg.checkpoint_dir().join("step-0.json").is_file());
        let again = phases::start(ctx).expect("resume");
        assert_eq!(again.resumed_from, Some(0));
    });
}

#[test]
fn warm_start_plays_only_the_teacher_shards_not_on_disk() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = smoke(tmp.path(), &["warmstart.teacher=\"greedy\"", "warmstart.games=4", "warmstart.games_per_shard=2", "warmstart.steps=4"]);
    with_ctx(&cfg, |ctx| {
        let state = phases::start(ctx).expect("start");
        let first = phases::warm_start(ctx, &state.trainer.net).expect("warm start");
        assert_eq!(first.len(), 2, "two shards of two games");
        assert!(first.iter().all(|s| s.games == 2 && s.samples > 0 && s.path.is_file()));
        assert!(phases::warm_start(ctx, &state.trainer.net).expect("rerun").is_empty(), "a rerun plays none twice");
    });
    let plain = smoke(&tmp.path().join("plain"), &[]);
    with_ctx(&plain, |ctx| {
        let state = phases::start(ctx).expect("start");
        assert!(phases::warm_start(ctx, &state.trainer.net).expect("none").is_empty(), "no [warmstart], no games");
    });
}

#[test]
fn self_play_writes_one_shard_into_the_window_and_none_while_supervised() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = smoke(tmp.path(), &[]);
    with_ctx(&cfg, |ctx| {
        let state = phases::start(ctx).expect("start");
        let mut window = replay(ctx);
        let none = phases::self_play(ctx, &state, &mut window, &mut None, true, &ProgressBar::hidden()).expect("supervised");
        assert!(none.shard.is_none() && none.new_samples == 0 && window.is_empty());
        let sp = phases::self_play(ctx, &state, &mut window, &mut None, false, &ProgressBar::hidden()).expect("self-play");
        let shard = sp.shard.as_ref().expect("a shard");
        assert_eq!(shard.games, cfg.selfplay.games_per_iteration);
        assert!(shard.path.is_file() && shard.samples > 0);
        assert_eq!((sp.new_samples, window.len()), (shard.samples, shard.samples));
        let fresh = phases::fresh_loss(ctx, &state.trainer, shard).expect("the shard reads");
        assert!(fresh.total.is_finite() && fresh.total > 0.0);
    });
}

#[test]
fn train_takes_one_iterations_steps_once_the_window_holds_enough() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = smoke(tmp.path(), &[]);
    with_ctx(&cfg, |ctx| {
        let mut state = phases::start(ctx).expect("start");
        let mut empty = replay(ctx);
        let idle = phases::train(ctx, &mut state, &mut empty, false, true, &ProgressBar::hidden()).expect("idle");
        assert!(idle.steps == 0 && idle.previous.is_none() && idle.losses.total.is_nan() && state.trainer.step == 0);
        let err = phases::train(ctx, &mut state, &mut empty, true, false, &ProgressBar::hidden()).err().expect("no teacher samples");
        assert!(err.to_string().contains("no teacher samples"), "{err}");
        let (_, trained) = one_iteration(ctx, &mut state, true);
        assert_eq!(trained.steps, cfg.train.steps_per_iteration);
        assert_eq!(state.trainer.step, cfg.train.steps_per_iteration);
        assert_eq!(state.samples_trained, cfg.train.steps_per_iteration * cfg.train.batch_size as u64);
        assert!(trained.losses.total.is_finite() && trained.previous.is_some());
    });
}

#[test]
fn checkpoint_gate_and_log_write_their_files() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = smoke(tmp.path(), &["eval.gate_threshold=0.0"]);
    with_ctx(&cfg, |ctx| {
        let mut state = phases::start(ctx).expect("start");
        let (sp, trained) = one_iteration(ctx, &mut state, true);
        let mut last = 0;
        let ck = phases::checkpoint(ctx, &state, &trained, &mut last).expect("checkpoint").expect("saved");
        assert!(ck.ends_with("step-4.json") && ck.is_file() && last == 4, "{}", ck.display());
        assert!(phases::checkpoint(ctx, &state, &trained, &mut last).expect("again").is_none(), "not twice at one step");
        let prev = trained.previous.as_ref().expect("previous");
        let m = phases::gate(ctx, &state.trainer.net, prev, &ck, state.trainer.step).expect("gate");
        assert_eq!(m.games, cfg.eval.gate_games);
        let best = std::fs::read_to_string(cfg.checkpoint_dir().join("best")).expect("best");
        assert_eq!(best.trim(), "step-4", "threshold 0: the new net is named best");

        let path = cfg.run_dir.join("metrics.jsonl");
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(&path).expect("metrics");
        let it = Iteration { self_play: &sp, fresh: None, trained: &trained, checkpoint: Some(&ck), vs_previous: Some(&m), seconds: 1.0 };
        phases::log_iteration(ctx, &state, &replay(ctx), &it, &mut file, &path, 2.0).expect("log");
        let text = std::fs::read_to_string(&path).expect("read");
        let line: serde_json::Value = serde_json::from_str(text.lines().last().expect("a line")).expect("json");
        assert_eq!(line["step"], 4);
        assert_eq!(line["games"], cfg.selfplay.games_per_iteration);
        assert_eq!(line["vs_previous"]["games"], cfg.eval.gate_games);
    });
}

#[test]
fn evaluate_plays_each_configured_match_and_writes_them() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = smoke(tmp.path(), &["eval.vs_ismcts_games=0"]);
    with_ctx(&cfg, |ctx| {
        let state = phases::start(ctx).expect("start");
        let mut report = RunReport::default();
        phases::evaluate(ctx, &state.trainer, &mut report).expect("evaluate");
        assert_eq!(report.vs_random.as_ref().map(|m| m.games), Some(cfg.eval.vs_random_games));
        assert_eq!(report.vs_initial.as_ref().map(|m| m.games), Some(cfg.eval.vs_initial_games));
        assert_eq!(report.vs_greedy.as_ref().map(|m| m.games), Some(cfg.eval.vs_greedy_games));
        assert!(report.vs_ismcts.is_none(), "vs_ismcts_games = 0 plays nothing");
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(cfg.run_dir.join("eval-step-0.json")).expect("eval file")).expect("json");
        assert_eq!(json["vs_greedy"]["games"], cfg.eval.vs_greedy_games);
        assert!(json["vs_ismcts"].is_null());
    });
}
