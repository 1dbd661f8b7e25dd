//! Training a RULES-more game end to end (#17 item 3) with `configs/train/smoke-missile.toml`:
//! `anqi train` on the missile game through the generic search runs, writes checkpoints whose
//! metadata records the missile encoding, resumes from them on a second invocation, exports to
//! TorchScript checked on the game's own positions, plays as a `net:` bot in `anqi play` and a
//! tournament, and a config naming neither a variant nor a preset is refused naming the key; a
//! warm start with a RULES-more teacher (`greedy`) trains.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn train(run_dir: &Path, extra: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_anqi"));
    c.current_dir(root());
    c.arg("train").arg("--config").arg(root().join("configs/train/smoke-missile.toml")).arg("--run-dir").arg(run_dir).arg("--no-progress");
    for e in extra {
        c.arg(e);
    }
    c.output().expect("run anqi train")
}

fn ok(o: &Output) -> String {
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "anqi failed ({}):\n{out}\n{err}", o.status);
    out.into_owned()
}

fn meta(run: &Path, step: u64) -> serde_json::Value {
    let text = fs::read_to_string(run.join(format!("checkpoints/step-{step}.json"))).expect("checkpoint metadata");
    serde_json::from_str(&text).expect("json")
}

#[test]
fn missile_trains_records_its_encoding_and_resumes() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let run = tmp.path().join("run");
    let out = ok(&train(&run, &[]));
    assert!(out.contains("step     6/6"), "{out}");
    assert!(out.contains("eval step 6 vs random") && out.contains("eval step 6 vs greedy"), "{out}");
    assert_eq!(fs::read_to_string(run.join("checkpoints/latest")).expect("latest").trim(), "step-6");
    let m = meta(&run, 6);
    assert_eq!(m["variant"], "missile");
    assert_eq!(m["encoding"]["game"], "missile", "{m}");
    let shards = models::shard::list(&run.join("shards")).expect("shards");
    assert_eq!(shards.len(), 2);
    // The shards are of the checkpoint's (missile) encoding, and read as such.
    let enc: engine::observe::Encoding = serde_json::from_value(m["encoding"].clone()).expect("encoding");
    let h = models::shard::read_header_for(&shards[0], &enc).expect("shard header");
    assert_eq!((h.variant.as_str(), h.encoding.game.as_str()), ("missile", "missile"));

    // A second invocation with more steps resumes from step 6 and its shards.
    let out = ok(&train(&run, &["--set", "train.steps=9"]));
    assert!(out.contains("resuming from") && out.contains("(step 6,"), "{out}");
    assert!(out.contains("step     9/9"), "{out}");
    assert_eq!(meta(&run, 9)["encoding"]["game"], "missile");

    // Export: the Rust net's outputs on missile positions, checked against the TorchScript
    // module the project's Python builds from the recorded encoding.
    let export = tmp.path().join("export");
    let o = Command::new(env!("CARGO_BIN_EXE_anqi")).current_dir(root()).arg("export").arg("--checkpoint").arg(&run).arg("--out").arg(&export).output().expect("run anqi export");
    let out = ok(&o);
    assert!(out.contains("check ok") && export.join("model.pt").is_file(), "{out}");

    // Neither a variant nor a RULES-more preset: refused, naming the key.
    let bad = train(&tmp.path().join("bad"), &["--set", "variant=no-such-game"]);
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("config key `variant`") && err.contains("no-such-game"), "{err}");

    // The trained net plays missile through the public path: `anqi play` hands a `net:` bot to
    // the torch-linked helper, whose factory `engine::search::game_bot::from_spec` calls; every game
    // is complete (a result, not `*`).
    let started = std::time::Instant::now();
    let net = format!("net:checkpoint={},sims=8,batch=4", run.display());
    for (i, other) in ["greedy", "random"].into_iter().enumerate() {
        let (red, black) = if i == 0 { (net.as_str(), other) } else { (other, net.as_str()) };
        let o = Command::new(env!("CARGO_BIN_EXE_anqi"))
            .current_dir(root())
            .args(["play", "--variant", "missile", "--red", red, "--black", black, "--seed", "3"])
            .output()
            .expect("run anqi play");
        let out = ok(&o);
        assert!(out.contains("net:missile@"), "{out}");
        let result = out.lines().find(|l| l.starts_with("[Result ")).unwrap_or_default();
        assert!(["[Result \"1-0\"]", "[Result \"0-1\"]", "[Result \"1/2-1/2\"]"].contains(&result), "{out}");
        eprintln!("net (step 9) vs {other}: {result} ({:.1} s so far)", started.elapsed().as_secs_f64());
    }
    // ... and in a tournament (the RULES-more path of the tournament builds its bots by the
    // same `from_spec`).
    let t = tmp.path().join("t.toml");
    let pgn = tmp.path().join("t.pgn");
    let toml = format!(
        "name = \"net-missile\"\nvariant = \"missile\"\npairs = 1\nconcurrency = 1\nseed = 2\nmax_plies = 300\npgn = {:?}\n[[player]]\nspec = {:?}\n[[player]]\nspec = \"greedy\"\n",
        pgn.display().to_string(),
        net
    );
    fs::write(&t, toml).expect("write tournament");
    let o = Command::new(env!("CARGO_BIN_EXE_anqi")).current_dir(root()).args(["tournament", "--quiet", "--config"]).arg(&t).output().expect("run anqi tournament");
    let out = ok(&o);
    let games = fs::read_to_string(&pgn).expect("pgn").matches("[Result ").count();
    assert_eq!(games, 2, "{out}");
    eprintln!("tournament: 2 games ({:.1} s so far)", started.elapsed().as_secs_f64());

    // Published to a zoo, the missile net verifies, exports (`--zoo`) and plays as `net:zoo=`.
    let z = tmp.path().join("zoo");
    let zd = z.display().to_string();
    let anqi = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_anqi")).current_dir(root()).args(args).output().expect("run anqi");
    ok(&anqi(&["zoo", "publish", "--checkpoint", &run.display().to_string(), "--name", "smoke-missile", "--zoo-dir", &zd]));
    assert!(ok(&anqi(&["zoo", "verify", "--zoo-dir", &zd])).contains("all verified"));
    let zexp = tmp.path().join("zoo-export");
    ok(&anqi(&["export", "--zoo", "smoke-missile", "--zoo-dir", &zd, "--out", &zexp.display().to_string(), "--no-torchscript", "--check-positions", "2"]));
    let exported: serde_json::Value = serde_json::from_str(&fs::read_to_string(zexp.join("model.json")).expect("model.json")).expect("json");
    assert_eq!(exported["encoding"]["game"], "missile", "{exported}");
    let zspec = format!("net:zoo=smoke-missile,zoo_dir={zd},sims=4");
    let out = ok(&anqi(&["play", "--variant", "missile", "--red", &zspec, "--black", "random", "--seed", "5"]));
    assert!(out.contains("zoo:smoke-missile-") && out.lines().any(|l| l.starts_with("[Result ")) && !out.contains("[Termination \"ply limit\"]"), "{out}");

    // A warm start: greedy, the teacher, plays two games against itself (its choices and the
    // game's evaluation as targets, teacher.rs), the first two steps train on them alone.
    let text = fs::read_to_string(root().join("configs/train/smoke-missile.toml")).expect("config")
        + "\n[warmstart]\nteacher = \"greedy\"\ngames = 2\nsteps = 2\n";
    let cfg = tmp.path().join("warm.toml");
    fs::write(&cfg, text).expect("write config");
    let o = Command::new(env!("CARGO_BIN_EXE_anqi"))
        .current_dir(root())
        .arg("train")
        .arg("--config")
        .arg(&cfg)
        .arg("--run-dir")
        .arg(tmp.path().join("warm"))
        .arg("--no-progress")
        .output()
        .expect("run anqi train");
    let out = ok(&o);
    assert!(out.contains("warm start: teacher shard 1/1 (greedy): 2 games"), "{out}");
    assert!(out.contains("step     6/6"), "{out}");
    // The teacher's shard (worker 1000, farm::config::TEACHER_WORKER) beside the self-play one.
    let shards = models::shard::list(&tmp.path().join("warm/shards")).expect("shards");
    let teacher = shards.iter().filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("w1000-"))).count();
    assert_eq!((teacher, shards.len()), (1, 2), "{shards:?}");
}
