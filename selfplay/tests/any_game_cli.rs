//! One dispatch for every game in the CLI (issue #17 item 1): `anqi actions`, `perft`, `sample`
//! and `variants --show` run one body for the RULES.md variants and the RULES-more.md presets
//! (`engine::any_game::with_any_game`), so the same options mean the same thing in both.

use std::process::Command;

fn anqi(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_anqi")).args(args).output().expect("run anqi");
    (o.status.success(), String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

fn line<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines().find_map(|l| l.strip_prefix(key)).unwrap_or_else(|| panic!("no {key:?} line in {out}"))
}

#[test]
fn actions_start_every_game_at_its_setup_phase() {
    // Surprise's layouts (RULES.md §S2) are actions, as skill-secret's tiles (RULES-more.md §1.9).
    let (ok, out, err) = anqi(&["actions", "--variant", "surprise"]);
    assert!(ok, "{err}");
    assert_eq!(line(&out, "count "), "10", "{out}");
    assert!(line(&out, "actions ").split(' ').all(|a| a.starts_with("layout=")), "{out}");
    let (ok, out, err) = anqi(&["actions", "--variant", "skill-secret"]);
    assert!(ok, "{err}");
    assert!(line(&out, "actions ").split(' ').all(|a| a.contains('@')), "{out}");
    // --layouts starts after the set-up: the 44 board moves of the start (RULES.md §P).
    let (ok, out, err) = anqi(&["actions", "--variant", "surprise", "--layouts", "A,A"]);
    assert!(ok, "{err}");
    assert_eq!(line(&out, "count "), "44", "{out}");
}

#[test]
fn perft_divide_sums_to_perft_in_both_rule_books() {
    for args in [["--variant", "surprise", "--layouts", "C3,B"], ["--variant", "camel-1", "--layouts", "C3,B"]] {
        let (ok, plain, err) = anqi(&[&["perft", "--depth", "2"][..], &args[..]].concat());
        assert!(ok, "{args:?}: {err}");
        let (ok, divided, err) = anqi(&[&["perft", "--depth", "2", "--divide"][..], &args[..]].concat());
        assert!(ok, "{args:?}: {err}");
        let total: u64 = divided.lines().filter_map(|l| l.rsplit_once(": ")).map(|(_, n)| n.parse::<u64>().expect("count")).sum();
        assert_eq!(line(&plain, "nodes ").parse::<u64>().expect("nodes"), total, "{args:?}");
        assert_eq!(line(&divided, "nodes "), line(&plain, "nodes "), "{args:?}");
    }
}

#[test]
fn an_unknown_game_is_named_by_every_command() {
    for cmd in [&["actions", "--variant"][..], &["perft", "--variant"], &["sample", "--variant"], &["play", "--variant"], &["variants", "--show"]] {
        let (ok, _, err) = anqi(&[cmd, &["no-such-game"][..]].concat());
        assert!(!ok, "{cmd:?}");
        assert!(err.contains("unknown game \"no-such-game\""), "{cmd:?}: {err}");
    }
}

#[test]
fn a_view_fen_is_sampled_only_for_its_viewer() {
    let view = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/P8/1XXXKXXXX b A2B2N2R2C2P4a2b2n2r2c2p5 1 1 view=b";
    let (ok, out, err) = anqi(&["sample", "--variant", "jieqi", "--fen", view, "--as", "black", "--count", "2"]);
    assert!(ok, "{err}");
    assert_eq!(line(&out, "view  "), view);
    assert!(!out.contains("full "), "a view FEN has no full state to show: {out}");
    let (ok, _, err) = anqi(&["sample", "--variant", "jieqi", "--fen", view, "--as", "red"]);
    assert!(!ok);
    assert!(err.contains("--as") && err.contains("view"), "{err}");
}
