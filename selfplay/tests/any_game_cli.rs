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
    for cmd in [&["actions", "--variant"][..], &["perft", "--variant"], &["sample", "--variant"], &["play", "--variant"], &["analyse", "--variant"], &["variants", "--show"]] {
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

/// The analysed rows of `anqi analyse` (`action share score visits`), between the header and
/// `bestmove`.
fn analysed(out: &str) -> Vec<(String, f64, u64)> {
    out.lines()
        .skip_while(|l| !l.starts_with("action "))
        .skip(1)
        .take_while(|l| !l.starts_with("bestmove "))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 4, "row {l:?}");
            (f[0].to_string(), f[1].parse().expect("share"), f[3].parse().expect("visits"))
        })
        .collect()
}

#[test]
fn analyse_plays_every_game_and_reports_the_search_behind_the_move() {
    // The one registry: RULES.md variants and RULES-more.md games alike, each searching bot
    // reporting its distribution (not only its choice), every row a legal action of the start
    // after the set-up (what `actions --layouts` lists).
    let cases = [
        ("xiangqi", "ismcts:iterations=200", "iterations 200"),
        // The variants' alpha-beta searches the view once for all determinizations (k = 1).
        ("jieqi", "pimc:k=2,search=alphabeta:depth=1", "determinizations 1"),
        ("missile", "ismcts:iterations=200", "iterations 200"),
        ("missile-hidden-5", "expectimax:depth=1,samples=2", "searches 2"),
        ("skill", "pimc:k=3,search=alphabeta:depth=1", "determinizations 3"),
        ("camel-7-secret", "pimc:k=2,search=mcts:iterations=50", "determinizations 2"),
    ];
    for (game, bot, work) in cases {
        let (ok, out, err) = anqi(&["analyse", "--variant", game, "--bot", bot]);
        assert!(ok, "{game} {bot}: {err}");
        let (ok, listed, err) = anqi(&["actions", "--variant", game, "--layouts", "A,A"]);
        assert!(ok, "{game}: {err}");
        let legal: Vec<&str> = line(&listed, "actions ").split(' ').map(|a| a.split_once('x').filter(|(_, m)| m.parse::<u32>().is_ok()).map_or(a, |(t, _)| t)).collect();
        let rows = analysed(&out);
        assert!(!rows.is_empty(), "{game} {bot}: {out}");
        for (a, _, _) in &rows {
            assert!(legal.contains(&a.as_str()), "{game} {bot}: {a} is not legal: {legal:?}");
        }
        let best = line(&out, "bestmove ");
        assert!(rows.iter().any(|(a, _, _)| a == best), "{game} {bot}: bestmove {best} not analysed: {out}");
        assert!(line(&out, "stats ").starts_with(work), "{game} {bot}: {out}");
        if bot.starts_with("ismcts") {
            // Visit shares of the root: a distribution over several actions, most visited first.
            assert!(rows.len() >= 2, "{game} {bot}: {out}");
            let sum: f64 = rows.iter().map(|r| r.1).sum();
            assert!((sum - 1.0).abs() < 1e-3, "{game} {bot}: shares sum to {sum}");
            assert!(rows.windows(2).all(|w| w[0].2 >= w[1].2), "{game} {bot}: not most visited first: {out}");
            assert_eq!(best, rows[0].0, "{game} {bot}");
        }
    }
}

#[test]
fn analyse_reads_only_the_movers_information_set_in_a_rules_more_game() {
    // camel-7-secret (RULES-more.md §2.13): two full states that differ only in Black's secret
    // trick layout are one information set for Red: the same view, rows and move.
    let fen = |black: &str| format!("rjnbakabnjr/11/1qc5cq1/1p1p1p1p1p1/11/11/1P1P1P1P1P1/1QC5CQ1/11/RJNBAKABNJR w e0:hafcegdib:187206345 e7:hafcegdib:{black} 0n0n - -,- 0 1");
    for bot in ["ismcts:iterations=300", "pimc:k=3,search=alphabeta:depth=2", "expectimax:depth=1,samples=3"] {
        let outs: Vec<String> = ["187206345", "817206345"]
            .iter()
            .map(|b| {
                let (ok, out, err) = anqi(&["analyse", "--variant", "camel-7-secret", "--fen", &fen(b), "--bot", bot]);
                assert!(ok, "{bot}: {err}");
                out.lines().filter(|l| !l.starts_with("stats ")).collect::<Vec<_>>().join("\n")
            })
            .collect();
        assert_eq!(outs[0], outs[1], "{bot}");
        assert!(outs[0].contains("e7:hafcegdib:?????????"), "Black's layout hidden from Red: {}", outs[0]);
    }
}

#[test]
fn a_bad_fen_is_named_with_its_game_in_both_rule_books() {
    for (game, cmd) in [("missile", "analyse"), ("camel-1", "actions"), ("xiangqi", "analyse")] {
        let (ok, _, err) = anqi(&[cmd, "--variant", game, "--fen", "garbage"]);
        assert!(!ok, "{game} {cmd}");
        assert!(err.contains(&format!("{game}: FEN \"garbage\": ")), "{game} {cmd}: {err}");
    }
}
