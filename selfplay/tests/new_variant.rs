//! Issue #38's cost of a new variant, done once: **one TOML file, no code**. A rule file written
//! here, outside the repository (a RULES.md family's variant that `inherits` a preset, and a
//! RULES-more.md one on a `base`), is read by every command as a preset is: `anqi variants
//! --show`, `perft`, `play` (two registry bots to the end of a game), `render` (a side's picture,
//! which hides what that side cannot see), `uci` (a `bestmove` for the RULES.md family; a
//! RULES-more.md game refused by name, as the UCI engine speaks the RULES.md variants), and the trainer's game loader
//! (`farm::games::load_game`: the observation encoding a net trains on).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn anqi(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_anqi")).args(args).output().expect("anqi runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "anqi {args:?}: {}\n{text}", String::from_utf8_lossy(&out.stderr));
    text
}

/// Every command reads the rule file `path` of a game named `name`.
fn every_command_reads(path: &Path, name: &str, dir: &Path, uci_plays: bool) {
    let file = path.to_str().expect("utf-8 path");
    let shown = anqi(&["variants", "--show", file]);
    assert!(shown.contains(name), "variants --show names it: {shown}");
    let perft = anqi(&["perft", "--variant", file, "--depth", "2"]);
    let nodes: u64 = perft.lines().last().and_then(|l| l.strip_prefix("nodes ")).and_then(|n| n.trim().parse().ok()).expect("nodes N last");
    assert!(nodes > 0, "{perft}");
    let game = anqi(&["play", "--variant", file, "--red", "pimc:k=2,ms=5", "--black", "greedy", "--seed", "3", "--max-plies", "60"]);
    assert!(["1-0", "0-1", "1/2-1/2"].iter().any(|r| game.contains(r)), "a result: {game}");
    for side in ["red", "black", "full"] {
        let svg = dir.join(format!("{side}.svg"));
        anqi(&["render", "--variant", file, "--as", side, "--out", svg.to_str().expect("utf-8")]);
        let text = std::fs::read_to_string(&svg).expect("svg written");
        assert!(text.contains("class=\"piece\""), "{side}: pieces drawn");
    }
    let mut uci = Command::new(env!("CARGO_BIN_EXE_anqi"))
        .args(["uci", "--variant", file])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("anqi uci");
    uci.stdin.take().expect("stdin").write_all(b"uci\nisready\nposition startpos\ngo movetime 100\n").expect("write");
    let out = uci.wait_with_output().expect("uci ends at end of input");
    let text = String::from_utf8_lossy(&out.stdout);
    if uci_plays {
        assert!(text.lines().any(|l| l.starts_with("bestmove ")), "uci answers: {text}");
    } else {
        // The UCI engine speaks the RULES.md variants (Pikafish's dialect): a RULES-more.md
        // game is refused by name, not misread as a variant file.
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains("RULES-more.md game") && err.contains(file), "uci refuses it: {err}");
    }
    let (spec, encoding) = farm::games::load_game(file).expect("the trainer loads it");
    assert_eq!(spec.name(), if spec.variant().is_some() { name } else { file });
    assert!(encoding.actions() > 0);
}

#[test]
fn a_new_variant_is_one_rule_file_and_no_code() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A RULES.md family: Jieqi whose revealed pieces may turn back face-down (RULES.md §F5).
    let jieqi = dir.path().join("jieqi-turn-down.toml");
    std::fs::write(&jieqi, "name = \"jieqi-turn-down\"\ninherits = \"jieqi\"\ndescription = \"Jieqi with turning back face-down\"\n\n[fanqi]\nturn_down = \"all\"\n").expect("write");
    every_command_reads(&jieqi, "jieqi-turn-down", dir.path(), true);
    // A side's picture of it hides the face-down identities from that side.
    let red = std::fs::read_to_string(dir.path().join("red.svg")).expect("red.svg");
    assert!(red.contains("暗"), "face-down pieces drawn unknown to Red");
    // A RULES-more.md game: missile under the broad base rule (RULES-more.md §3.9 #4).
    let missile = dir.path().join("missile-wide.toml");
    std::fs::write(&missile, "name = \"missile-wide\"\nbase = \"missile\"\n\n[rules]\nbase_reading = \"broad\"\n").expect("write");
    every_command_reads(&missile, "missile-wide", dir.path(), false);
}
