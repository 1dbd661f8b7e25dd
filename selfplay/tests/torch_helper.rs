//! `anqi` does not load libtorch; the commands that need it go through `anqi-torch`, the same
//! command line linked with torch, found beside `anqi` (`selfplay::cli::helper`).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

const ANQI: &str = env!("CARGO_BIN_EXE_anqi");
const ANQI_TORCH: &str = env!("CARGO_BIN_EXE_anqi-torch");

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

/// The shared objects mapped by `exe uci` once it has answered `uciok` (from /proc/PID/maps).
#[cfg(target_os = "linux")]
fn maps_of_running_uci(exe: &str) -> String {
    let mut child = Command::new(exe)
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn uci");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"uci\n").expect("write uci");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    loop {
        let line = lines.next().expect("uciok before end of output").expect("read line");
        if line.trim() == "uciok" {
            break;
        }
    }
    let maps = std::fs::read_to_string(format!("/proc/{}/maps", child.id())).expect("read /proc/PID/maps");
    stdin.write_all(b"quit\n").expect("write quit");
    drop(stdin);
    assert!(child.wait().expect("wait").success());
    maps
}

#[cfg(target_os = "linux")]
#[test]
fn anqi_uci_maps_no_libtorch_but_the_helper_does() {
    let anqi = maps_of_running_uci(ANQI);
    assert!(anqi.contains("libc"), "maps read too early?\n{anqi}");
    for lib in ["libtorch", "libc10", "libgomp"] {
        assert!(!anqi.contains(lib), "anqi uci maps {lib}:\n{anqi}");
    }
    // The same check sees libtorch in the torch-linked binary, so it is not vacuous.
    let helper = maps_of_running_uci(ANQI_TORCH);
    assert!(helper.contains("libtorch"), "anqi-torch uci maps no libtorch:\n{helper}");
}

#[test]
fn doctor_and_net_bots_go_through_the_helper() {
    // Only libtorch can answer doctor.
    let o = Command::new(ANQI).arg("doctor").output().expect("run anqi doctor");
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.lines().any(|l| l.starts_with("libtorch ")), "{out}");
    // A net: bot is built by the helper: the error is the checkpoint loader's, not a refusal.
    let o = Command::new(ANQI).args(["play", "--red", "net:checkpoint=/no/such/run", "--black", "random"]).output().expect("run anqi play");
    let (_, err) = text(&o);
    assert!(!o.status.success());
    assert!(err.contains("/no/such/run") && !err.contains("only the"), "{err}");
}

#[test]
fn a_tournament_with_a_net_player_goes_through_the_helper() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("t.toml");
    let text_of = "name = \"t\"\npairs = 1\n[[player]]\nspec = \"net:checkpoint=/no/such/run,sims=4\"\n[[player]]\nspec = \"random\"\n";
    std::fs::write(&file, text_of).expect("write");
    let o = Command::new(ANQI).arg("tournament").arg("--config").arg(&file).arg("--quiet").output().expect("run");
    let (_, err) = text(&o);
    assert!(!o.status.success());
    assert!(err.contains("/no/such/run") && !err.contains("only the"), "{err}");
}

#[test]
fn anqi_alone_runs_engine_commands_and_names_the_missing_helper() {
    let dir = tempfile::tempdir().expect("temp dir");
    let lone = dir.path().join(Path::new(ANQI).file_name().expect("file name"));
    std::fs::copy(ANQI, &lone).expect("copy anqi");
    let helper = dir.path().join(format!("anqi-torch{}", std::env::consts::EXE_SUFFIX));
    let run = |args: &[&str]| Command::new(&lone).args(args).env_remove("CARGO").output().expect("run the copy");

    let o = run(&["variants"]);
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(text(&o).0.contains("xiangqi"));
    let o = run(&["perft", "--depth", "2"]);
    assert!(text(&o).0.lines().last().is_some_and(|l| l == "nodes 1920"), "{}", text(&o).0);

    for args in [&["doctor"][..], &["train", "--config", "configs/train/quick.toml"], &["play", "--red", "net:checkpoint=x"]] {
        let o = run(args);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(&helper.display().to_string()), "{args:?}: {err}");
        assert!(err.contains("cargo build --release -p anqi-selfplay --bin anqi-torch"), "{args:?}: {err}");
    }
}

#[test]
fn both_binaries_share_the_command_line() {
    let help = |exe: &str| text(&Command::new(exe).arg("--help").output().expect("help")).0;
    let (a, t) = (help(ANQI), help(ANQI_TORCH));
    assert!(a.contains("train") && a.contains("perft"), "{a}");
    assert_eq!(a.replace("anqi-torch", "anqi"), t.replace("anqi-torch", "anqi"));
}
