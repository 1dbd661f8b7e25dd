//! `anqi zoo publish|list|verify`, `anqi export --zoo` and `anqi play` with a `net:zoo=` bot, end
//! to end through `anqi` (which hands them to `anqi-torch`), on a tiny net published into a
//! temporary zoo; and the default zoo, `models/zoo` from the repository root.

use models::checkpoint::{self, SaveInfo};
use models::net::{Net, NetConfig};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn anqi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_anqi")).args(args).current_dir(root()).env_remove("ANQI_ZOO").output().expect("run anqi")
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

fn ok(args: &[&str]) -> String {
    let o = anqi(args);
    let (out, err) = text(&o);
    assert!(o.status.success(), "anqi {args:?} failed ({}):\n{out}\n{err}", o.status);
    out
}

/// A run directory with a 1x8 xiangqi net at step 4 (`RUN/checkpoints/step-4.*`).
fn tiny_run(run: &Path) {
    let cpu = models::device::DeviceSpec::Cpu.resolve().expect("cpu");
    let net = Net::new(&NetConfig::new(1, 8), cpu, 9);
    let info = SaveInfo { step: 4, variant: "xiangqi", config: serde_json::json!({}), git_revision: "test", trainer: serde_json::json!({}) };
    checkpoint::save(&run.join("checkpoints"), &net, None, info).expect("save");
}

#[test]
fn publish_list_and_verify() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let run = tmp.path().join("run");
    tiny_run(&run);
    let notes = tmp.path().join("notes.md");
    fs::write(&notes, format!("vs random: 3/4 {}\nsecond line\n", "x".repeat(200))).expect("notes");
    let (z, r, n) = (tmp.path().join("zoo"), run.display().to_string(), notes.display().to_string());
    let zd = z.display().to_string();

    let out = ok(&["zoo", "publish", "--checkpoint", &r, "--name", "tiny", "--notes", &n, "--zoo-dir", &zd, "--command", "anqi train --config c.toml"]);
    let stem = fs::read_dir(&z)
        .expect("zoo")
        .filter_map(|e| e.expect("entry").file_name().to_str()?.strip_suffix(".json").map(str::to_owned))
        .next()
        .expect("a published json");
    assert!(stem.starts_with("tiny-") && out.contains(&stem) && out.contains("net:zoo=tiny"), "{out}");
    let json = fs::read_to_string(z.join(format!("{stem}.json"))).expect("json");
    assert!(json.contains("\"training_command\": \"anqi train --config c.toml\"") && json.contains("vs random: 3/4"), "{json}");
    let list = ok(&["zoo", "list", "--zoo-dir", &zd]);
    assert!(list.contains(&stem) && list.contains("xiangqi") && list.contains("1x8") && list.contains("vs random: 3/4"), "{list}");
    // Only the start of the results' first line.
    assert!(list.contains(&format!("vs random: 3/4 {}…", "x".repeat(85))) && !list.contains("second line"), "{list}");
    assert!(ok(&["zoo", "verify", "--zoo-dir", &zd]).contains("all verified"));

    // A tampered net fails verify, naming it.
    let w = z.join(format!("{stem}.safetensors"));
    let mut bytes = fs::read(&w).expect("weights");
    let k = bytes.len() - 3;
    bytes[k] ^= 4;
    fs::write(&w, &bytes).expect("tamper");
    let o = anqi(&["zoo", "verify", "--zoo-dir", &zd]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(out.contains(&format!("FAILED  {stem}")) && out.contains("SHA-256 mismatch"), "{out}");

    // Learned evaluations are listed and verified beside the policy nets; a damaged one fails.
    let good = fs::read(root().join("models/zoo/eval-jieqi.nnue")).expect("zoo's Jieqi evaluation");
    fs::write(z.join("eval-mine.nnue"), &good).expect("copy");
    let mut bad = good.clone();
    bad[good.len() / 2] ^= 1;
    fs::write(z.join("eval-broken.nnue"), &bad).expect("damaged copy");
    let list = text(&anqi(&["zoo", "list", "--zoo-dir", &zd])).0;
    assert!(list.contains("eval mine  jieqi  baa6fd1ddedb") && list.contains("eval broken  unreadable") && list.contains("2 learned evaluations"), "{list}");
    let o = anqi(&["zoo", "verify", "--zoo-dir", &zd]);
    let out = text(&o).0;
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("ok      eval mine (hash baa6fd1ddedb)") && out.contains("FAILED  eval broken"), "{out}");
}

#[test]
fn a_published_net_plays_and_exports() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let run = tmp.path().join("run");
    tiny_run(&run);
    let z = tmp.path().join("zoo");
    let e = models::zoo::publish(&run, &z, "tiny", models::zoo::PublishInfo::default()).expect("publish");
    let zd = z.display().to_string();
    let spec = format!("net:zoo=tiny,zoo_dir={zd},sims=2");
    let game = ok(&["play", "--variant", "xiangqi", "--red", &spec, "--black", "random", "--max-plies", "2"]);
    assert!(game.contains(&format!("zoo:{}", e.stem)), "{game}");
    let exp = tmp.path().join("export");
    let out = exp.display().to_string();
    ok(&["export", "--zoo", "tiny", "--zoo-dir", &zd, "--out", &out, "--no-torchscript", "--check-positions", "2"]);
    assert_eq!(fs::read(exp.join("model.safetensors")).expect("exported"), fs::read(&e.weights).expect("published"));
}

#[test]
fn the_default_zoo_is_models_zoo_from_the_repository_root() {
    let out = ok(&["zoo", "list"]);
    assert!(out.contains("published nets in models/zoo") && out.trim_end().ends_with("learned evaluations (eval-NAME.nnue, zoo:NAME) in models/zoo"), "{out}");
    // Every committed net and learned evaluation loads and matches its hash.
    let out = ok(&["zoo", "verify"]);
    assert!(out.trim_end().ends_with("learned evaluations in models/zoo: all verified"), "{out}");
}

#[test]
fn analyse_shows_a_published_nets_root_visits() {
    // The net bot's `analyse` reports its search's root (visit share, mean value, visits), not
    // only its choice: 64 simulations over the Jieqi start's legal actions, most visited first.
    let out = ok(&["analyse", "--variant", "jieqi", "--bot", "net:zoo=jieqi,sims=64"]);
    let rows: Vec<(String, f64, u64)> = out
        .lines()
        .skip_while(|l| !l.starts_with("action "))
        .skip(1)
        .take_while(|l| !l.starts_with("bestmove "))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].to_string(), f[1].parse().expect("share"), f[3].parse().expect("visits"))
        })
        .collect();
    assert!(rows.len() >= 2, "{out}");
    assert!(out.contains("score(value)") && out.contains("stats simulations 64 "), "{out}");
    let visits: u64 = rows.iter().map(|r| r.2).sum();
    assert!((60..=64).contains(&visits), "the root's visits are this search's simulations: {visits}\n{out}");
    assert!((rows.iter().map(|r| r.1).sum::<f64>() - 1.0).abs() < 1e-3, "{out}");
    assert!(rows.windows(2).all(|w| w[0].2 >= w[1].2), "most visited first: {out}");
}
