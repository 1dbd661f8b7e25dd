//! Training a RULES-more game end to end (#17 item 3) with `configs/train/smoke-missile.toml`:
//! `anqi train` on the missile game through the generic search runs, writes checkpoints whose
//! metadata records the missile encoding, resumes from them on a second invocation, exports to
//! TorchScript checked on the game's own positions, and a config naming neither a variant nor a
//! preset, or a warm start (variant-only), is refused naming the key.

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

    // A warm start needs the variant bots' analyses: refused for a RULES-more game, naming the key.
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
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("config key `warmstart`") && err.contains("missile"), "{err}");
}
