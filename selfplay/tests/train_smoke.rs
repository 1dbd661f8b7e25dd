//! The training job end to end with `configs/train/smoke.toml` (each run well under a minute):
//! train, resume, kill and resume, export to TorchScript checked by the project's Python, the
//! `net:` bot, a stateless worker feeding an external trainer, and bad input (unknown config key,
//! corrupt shards, corrupt checkpoint, architecture mismatch) refused or skipped with messages
//! naming the file, never deleting anything.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn anqi() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_anqi"));
    c.current_dir(root());
    c
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn smoke() -> PathBuf {
    root().join("configs/train/smoke.toml")
}

fn train(run_dir: &Path, extra: &[&str]) -> Output {
    let mut c = anqi();
    c.arg("train").arg("--config").arg(smoke()).arg("--run-dir").arg(run_dir).arg("--no-progress");
    for e in extra {
        c.arg(e);
    }
    c.output().expect("run anqi train")
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

fn ok(o: &Output) -> String {
    let (out, err) = text(o);
    assert!(o.status.success(), "anqi failed ({}):\n{out}\n{err}", o.status);
    out
}

fn latest(run_dir: &Path) -> String {
    fs::read_to_string(run_dir.join("checkpoints/latest")).expect("latest").trim().to_string()
}

fn shards(run_dir: &Path) -> Vec<PathBuf> {
    models::shard::list(&run_dir.join("shards")).expect("list shards")
}

#[test]
fn smoke_train_resume_export_and_play() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let run = tmp.path().join("run");
    let t = Instant::now();
    let out = ok(&train(&run, &[]));
    let secs = t.elapsed().as_secs_f64();
    assert!(out.contains("step    12/12"), "{out}");
    assert!(out.contains("eval step 12 vs random"), "{out}");
    assert!(out.contains("eval step 12 vs untrained net"), "{out}");
    assert!(out.contains("eval step 12 vs greedy") && out.contains("eval step 12 vs ismcts:ms="), "{out}");
    assert_eq!(latest(&run), "step-12");
    for s in [0, 4, 8, 12] {
        assert!(run.join(format!("checkpoints/step-{s}.json")).is_file(), "step {s}");
        assert!(run.join(format!("checkpoints/step-{s}.safetensors")).is_file(), "step {s}");
    }
    assert_eq!(shards(&run).len(), 3);
    let metrics = fs::read_to_string(run.join("metrics.jsonl")).expect("metrics");
    assert_eq!(metrics.lines().count(), 3);
    for line in metrics.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("json line");
        assert!(v["loss"].as_f64().is_some_and(f64::is_finite), "{line}");
    }
    assert!(run.join("config.toml").is_file());
    assert!(run.join("eval-step-12.json").is_file());
    eprintln!("smoke run: {secs:.1}s");

    // Running again with more steps resumes from the last checkpoint and the shards.
    let out = ok(&train(&run, &["--set", "train.steps=16", "--set", "eval.vs_initial_games=0", "--set", "eval.vs_greedy_games=0", "--set", "eval.vs_ismcts_games=0"]));
    assert!(out.contains("resuming from"), "{out}");
    assert!(out.contains("(step 12, iteration 3)"), "{out}");
    assert!(out.contains("step    16/16"), "{out}");
    assert_eq!(latest(&run), "step-16");
    assert_eq!(shards(&run).len(), 4);

    // Export: safetensors + metadata + TorchScript, checked by the project's Python.
    let exp = tmp.path().join("export");
    let o = anqi().arg("export").arg("--checkpoint").arg(&run).arg("--out").arg(&exp).output().expect("export");
    let out = ok(&o);
    for f in ["model.safetensors", "model.json", "model.pt", "check.safetensors", "anqi_net.py"] {
        assert!(exp.join(f).is_file(), "{f}");
    }
    assert!(out.contains("check ok"), "{out}");

    // The checkpoint as a bot for `anqi play`.
    let spec = format!("net:checkpoint={},sims=4", run.display());
    let o = anqi()
        .args(["play", "--variant", "surprise", "--layouts", "A,B", "--black", "random", "--max-plies", "12", "--red"])
        .arg(&spec)
        .output()
        .expect("play");
    let out = ok(&o);
    assert!(out.contains("[Red \"net:surprise@"), "{out}");

    // The checkpoint as a tournament player (with the tournament's node budget as its simulations).
    let cfg = tmp.path().join("t.toml");
    let pgn = tmp.path().join("t.pgn");
    let text = format!(
        "name = \"net-vs-random\"\nvariant = \"surprise\"\npairs = 1\nconcurrency = 1\nmax_plies = 16\npgn = {:?}\n[budget]\nnodes = 4\n[[player]]\nname = \"net\"\nspec = \"net:checkpoint={}\"\n[[player]]\nspec = \"random\"\n",
        pgn.display().to_string(),
        run.display()
    );
    fs::write(&cfg, text).expect("write tournament config");
    let o = anqi().args(["tournament", "--quiet", "--config"]).arg(&cfg).output().expect("tournament");
    let out = ok(&o);
    assert!(out.contains("net"), "{out}");
    let records = fs::read_to_string(&pgn).expect("pgn");
    assert_eq!(records.matches("[Variant ").count(), 2, "{records}");
}

#[test]
fn kill_and_resume() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let run = tmp.path().join("run");
    let args = ["--set", "train.steps=20", "--set", "eval.vs_random_games=0", "--set", "eval.vs_initial_games=0", "--set", "eval.vs_greedy_games=0", "--set", "eval.vs_ismcts_games=0"];
    let mut child = anqi()
        .arg("train")
        .arg("--config")
        .arg(smoke())
        .arg("--run-dir")
        .arg(&run)
        .arg("--no-progress")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let t = Instant::now();
    let at_least_8 = |run: &Path| {
        fs::read_to_string(run.join("checkpoints/latest"))
            .ok()
            .and_then(|t| t.trim().trim_start_matches("step-").parse::<u64>().ok())
            .is_some_and(|s| s >= 8)
    };
    while !at_least_8(&run) {
        assert!(t.elapsed() < Duration::from_secs(300), "no checkpoint after 300s");
        assert!(child.try_wait().expect("wait").is_none(), "finished before the kill");
        std::thread::sleep(Duration::from_millis(50));
    }
    // Kill in the middle of the next iteration's self-play.
    std::thread::sleep(Duration::from_millis(700));
    child.kill().expect("kill");
    let _ = child.wait();
    let before = latest(&run);
    let step: u64 = before.trim_start_matches("step-").parse().expect("step");
    assert!(step >= 8, "{before}");
    let out = ok(&train(&run, &args));
    assert!(out.contains(&format!("(step {step}, ")), "{out}");
    assert!(out.contains("step    20/20"), "{out}");
    assert_eq!(latest(&run), "step-20");
    // Every shard on disk is whole (written under a temporary name, then renamed).
    for s in shards(&run) {
        models::shard::read(&s).expect("shard readable");
    }
}

#[test]
fn bad_input_is_refused_or_skipped_naming_the_file() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // Unknown key.
    let cfg = tmp.path().join("bad.toml");
    let text = fs::read_to_string(smoke()).expect("smoke config").replace("[train]\n", "[train]\nbogus_key = 3\n");
    fs::write(&cfg, text).expect("write");
    let o = anqi().arg("train").arg("--config").arg(&cfg).output().expect("run");
    let (_, err) = text_of(&o);
    assert!(!o.status.success());
    assert!(err.contains("bad.toml") && err.contains("bogus_key"), "{err}");
    let o = anqi().arg("train").arg("--config").arg(smoke()).args(["--set", "train.nope=1"]).output().expect("run");
    assert!(!o.status.success());
    assert!(text_of(&o).1.contains("nope"), "{}", text_of(&o).1);

    // A short run, then corrupt shards beside the good ones: skipped with a warning, kept.
    let run = tmp.path().join("run");
    let quick = ["--set", "train.steps=4", "--set", "eval.vs_random_games=0", "--set", "eval.vs_initial_games=0", "--set", "eval.vs_greedy_games=0", "--set", "eval.vs_ismcts_games=0"];
    ok(&train(&run, &quick));
    let good = shards(&run)[0].clone();
    let bytes = fs::read(&good).expect("shard");
    let truncated = run.join("shards/w0007-00000000.shard");
    fs::write(&truncated, &bytes[..bytes.len() / 2]).expect("write");
    let garbage = run.join("shards/w0008-00000000.shard");
    fs::write(&garbage, b"not a shard at all").expect("write");
    let mut flipped = bytes.clone();
    let k = flipped.len() - 5;
    flipped[k] ^= 1;
    let corrupt = run.join("shards/w0009-00000000.shard");
    fs::write(&corrupt, &flipped).expect("write");
    let out = ok(&train(&run, &["--set", "train.steps=8", "--set", "eval.vs_random_games=0", "--set", "eval.vs_initial_games=0", "--set", "eval.vs_greedy_games=0", "--set", "eval.vs_ismcts_games=0"]));
    for (f, why) in [(&truncated, "truncated"), (&garbage, "not an anqi shard"), (&corrupt, "checksum")] {
        let name = f.file_name().expect("name").to_string_lossy().into_owned();
        assert!(out.lines().any(|l| l.contains("warning: skipping shard") && l.contains(&name) && l.contains(why)), "{name}: {out}");
        assert!(f.exists(), "kept");
    }
    assert_eq!(latest(&run), "step-8");

    // Architecture mismatch with the run's checkpoint.
    let o = train(&run, &["--set", "net.channels=16", "--set", "train.steps=12"]);
    assert!(!o.status.success());
    let err = text_of(&o).1;
    assert!(err.contains("step-8.json") && err.contains("architecture"), "{err}");

    // A corrupt checkpoint: an error naming the file, nothing deleted.
    let w = run.join("checkpoints/step-8.safetensors");
    let mut b = fs::read(&w).expect("weights");
    let k = b.len() / 2;
    b[k] ^= 0x55;
    fs::write(&w, &b).expect("write");
    let o = train(&run, &["--set", "train.steps=12"]);
    assert!(!o.status.success());
    let err = text_of(&o).1;
    assert!(err.contains("step-8.safetensors") && err.contains("checksum"), "{err}");
    assert!(w.exists() && truncated.exists() && garbage.exists() && corrupt.exists());
}

fn text_of(o: &Output) -> (String, String) {
    text(o)
}

#[test]
fn stateless_worker_feeds_an_external_trainer() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let run = tmp.path().join("run");
    let o = anqi()
        .arg("selfplay")
        .arg("--config")
        .arg(smoke())
        .arg("--run-dir")
        .arg(&run)
        .args(["--worker", "3", "--shards", "1", "--no-progress"])
        .output()
        .expect("selfplay");
    let out = ok(&o);
    assert!(out.contains("worker 3 shard"), "{out}");
    let s = shards(&run);
    assert_eq!(s.len(), 1);
    assert!(s[0].ends_with("w0003-00000000.shard"), "{s:?}");
    let (h, samples) = models::shard::read(&s[0]).expect("readable");
    assert_eq!((h.worker, h.games, h.samples as usize), (3, 8, samples.len()));
    let out = ok(&train(
        &run,
        &[
            "--set",
            "selfplay.source=external",
            "--set",
            "train.steps=4",
            "--set",
            "eval.vs_random_games=0",
            "--set",
            "eval.vs_initial_games=0",
        ],
    ));
    assert!(out.contains("step     4/4"), "{out}");
    assert_eq!(shards(&run).len(), 1, "the external trainer plays no games itself");
}

/// `[warmstart]`: the teacher's games are written once as worker-1000 shards, the first steps
/// train on them alone (no self-play shard until then), and a resumed run does not replay them.
#[test]
fn smoke_warm_start_trains_on_the_teacher_first() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = tmp.path().join("warm.toml");
    let text = fs::read_to_string(smoke()).expect("smoke config")
        + "\n[warmstart]\nteacher = \"expectimax:depth=1\"\ngames = 6\ngames_per_shard = 4\nsteps = 8\n";
    fs::write(&cfg, text).expect("write config");
    let run = tmp.path().join("run");
    let go = |steps: &str| {
        let mut c = anqi();
        c.arg("train").arg("--config").arg(&cfg).arg("--run-dir").arg(&run).arg("--no-progress");
        c.args(["--set", &format!("train.steps={steps}"), "--set", "eval.vs_random_games=0", "--set", "eval.vs_initial_games=0"]);
        c.args(["--set", "eval.vs_greedy_games=0", "--set", "eval.vs_ismcts_games=0", "--set", "eval.gate_games=0"]);
        c.output().expect("run anqi train")
    };
    let out = ok(&go("8"));
    assert!(out.contains("warm start: teacher shard 1/2") && out.contains("warm start: teacher shard 2/2"), "{out}");
    let names = |run: &Path| -> Vec<String> { shards(run).iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect() };
    let first = names(&run);
    assert_eq!(first.len(), 2, "only the teacher's shards while the warm start trains: {first:?}");
    assert!(first.iter().all(|n| n.starts_with("w1000-")), "{first:?}");
    let (h, samples) = models::shard::read(&shards(&run)[0]).expect("teacher shard");
    assert_eq!(h.games, 4);
    assert!(!samples.is_empty());
    for s in &samples {
        let sum: f32 = s.policy.iter().map(|p| p.1).sum();
        assert!((sum - 1.0).abs() < 1e-4, "policy sums to {sum}");
        assert!(s.policy.iter().all(|p| s.legal.contains(&p.0)), "a policy slot outside the legal slots");
        assert!((-1.0..=1.0).contains(&s.q) && (-1.0..=1.0).contains(&s.outcome));
    }
    assert_eq!(latest(&run), "step-8");
    // Resuming past the warm start plays self-play, not the teacher again.
    let out = ok(&go("12"));
    assert!(!out.contains("warm start: teacher shard"), "{out}");
    let after = names(&run);
    assert_eq!(after.iter().filter(|n| n.starts_with("w1000-")).count(), 2, "{after:?}");
    assert!(after.iter().any(|n| n.starts_with("w0000-")), "self-play after the warm start: {after:?}");
}
