//! The `anqi` commands refuse nonsense cleanly (issue #39): a typed error naming the option, an
//! exit status of 1, no abort, no hang, no silently ignored option; and `anqi play` prints a
//! record `anqi view` reads.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// Runs `anqi args`: (success, stdout, stderr, exit code).
fn anqi(args: &[&str]) -> (bool, String, String, Option<i32>) {
    let o = Command::new(env!("CARGO_BIN_EXE_anqi")).args(args).output().expect("run anqi");
    (o.status.success(), String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned(), o.status.code())
}

/// `args` must fail quickly with status 1 (not an abort or a signal) and an `error:` naming
/// every one of `words`.
fn refused(args: &[&str], words: &[&str]) {
    let t = Instant::now();
    let (ok, _, err, code) = anqi(args);
    assert!(!ok && code == Some(1), "{args:?}: status {code:?}\n{err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    for w in words {
        assert!(err.contains(w), "{args:?}: {err:?} should name {w:?}");
    }
    assert!(t.elapsed() < Duration::from_secs(20), "{args:?} took {:?}", t.elapsed());
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("anqi-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn perft_refuses_a_depth_that_would_overflow_the_stack() {
    refused(&["perft", "--depth", "4294967295"], &["--depth 4294967295", "at most 20"]);
    refused(&["perft", "--variant", "missile", "--depth", "21"], &["--depth 21"]);
    let (ok, out, err, _) = anqi(&["perft", "--depth", "2"]);
    assert!(ok && out.lines().last() == Some("nodes 1920"), "{out}{err}");
}

#[test]
fn render_refuses_a_scale_that_runs_out_of_memory() {
    let out = tmp("x.png");
    let out = out.to_str().expect("utf-8");
    refused(&["render", "--scale", "100", "--out", out], &["--scale 100", "at most 10"]);
    refused(&["render", "--scale", "0", "--out", out], &["--scale 0"]);
    refused(&["render", "--scale=-1", "--out", out], &["--scale -1"]);
    refused(&["render", "--scale=NaN", "--out", out], &["--scale NaN"]);
    let svg = tmp("x.svg");
    let (ok, _, err, _) = anqi(&["render", "--scale", "10", "--out", svg.to_str().expect("utf-8")]);
    assert!(ok, "{err}");
}

#[test]
fn play_refuses_layouts_with_a_fen() {
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 \
               a0=C,b0=R,h0=R,i0=C,b2=N,h2=N,b7=r,h7=r,a9=n,b9=c,h9=c,i9=n 3:0/3:0";
    refused(&["play", "--variant", "surprise", "--fen", fen, "--layouts", "C3,A"], &["--layouts with --fen"]);
    let (ok, _, err, _) = anqi(&["play", "--variant", "surprise", "--fen", fen, "--max-plies", "2"]);
    assert!(ok, "{err}");
}

#[test]
fn play_refuses_layouts_in_a_game_without_them() {
    for v in ["xiangqi", "jieqi", "king", "fanqi-2", "missile", "camel-1"] {
        refused(&["play", "--variant", v, "--layouts", "A,B", "--max-plies", "2"], &["--layouts", v, "no Surprise layouts"]);
    }
    let (ok, _, err, _) = anqi(&["play", "--variant", "surprise", "--layouts", "C3,A", "--max-plies", "2"]);
    assert!(ok, "{err}");
}

#[test]
fn play_refuses_bad_bot_specs_naming_the_parameter() {
    for (spec, param) in [("pimc:k=0", "k"), ("pimc:k=999999999999", "k"), ("ismcts:iterations=0", "iterations"), ("ismcts:c=-1", "c"), ("alphabeta:depth=2,depth=3", "depth")] {
        refused(&["play", "--variant", "jieqi", "--red", spec], &["--red", param]);
    }
}

/// `anqi play` prints a complete PGN record ([Result], the result as the move text's last
/// token), and `anqi view` writes its page: for a finished game and one stopped by
/// `--max-plies`, in games with hidden set-ups, chance and none.
#[test]
fn play_prints_a_record_that_view_reads() {
    for (variant, extra) in [
        ("xiangqi", &["--max-plies", "30"][..]),
        ("jieqi", &[][..]),
        ("surprise", &[][..]),
        ("surprise", &["--layouts", "C3,A", "--max-plies", "40"][..]),
        ("fanqi-2", &["--max-plies", "60"][..]),
        ("jieqi+open", &["--max-plies", "60"][..]),
        ("missile-hidden-5", &["--max-plies", "60"][..]),
        ("camel-7-secret", &["--max-plies", "40"][..]),
    ] {
        let args = [&["play", "--variant", variant, "--red", "greedy", "--black", "random", "--seed", "3"][..], extra].concat();
        let (ok, out, err, _) = anqi(&args);
        assert!(ok, "{args:?}: {err}");
        assert!(out.contains("[Result \"") && out.contains("[EndFEN \"") && out.contains("[Chinese \""), "{variant}: {out}");
        let pgn = tmp(&format!("play-{variant}-{}.pgn", extra.len()));
        std::fs::write(&pgn, &out).expect("pgn");
        let dir = tmp(&format!("view-{variant}-{}", extra.len()));
        let (ok, vout, err, _) = anqi(&["view", pgn.to_str().expect("utf-8"), "--out", dir.to_str().expect("utf-8")]);
        assert!(ok, "{variant} {extra:?}: anqi view refused the record: {err}\n{out}");
        assert!(!err.contains("incomplete"), "{variant}: {err}");
        assert!(vout.contains("wrote 1 game pages"), "{variant}: {vout}");
    }
}

/// Found by fuzzing (fuzz/fuzz_targets/pgn.rs): a record whose move text holds a token starting
/// with `[` was read, but written back its line wrap could put that token first on a line, which
/// reads as a tag: the record came back torn. No record has such a move; it is torn when read.
#[test]
fn pgn_move_token_starting_with_a_bracket_makes_the_record_torn() {
    use selfplay::tournament::pgn;
    let tags = "[Event \"e\"]\n[Site \"anqi\"]\n[Date \"2026.12.05\"]\n[Round \"1.1\"]\n[Red \"a\"]\n[Black \"b\"]\n[Result \"1/2-1/2\"]\n\
                [Variant \"xiangqi\"]\n[SetUp \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n[ChanceSeed \"1\"]\n\
                [GameKey \"pairing=0 pair=0 game=0\"]\n[Tournament \"t\"]\n";
    let (records, torn) = pgn::parse(&format!("{tags}\n1. h2e2 [0e1P 1/2-1/2\n\n"));
    assert!(records.is_empty() && torn, "{records:?}");
    let (records, torn) = pgn::parse(&format!("{tags}\n1. h2e2 h9g7 1/2-1/2\n\n"));
    assert!(!torn && records.len() == 1, "the record without the bracket");
    let written = records[0].to_pgn();
    assert_eq!(pgn::parse(&written), (records, false), "round trip");
}
