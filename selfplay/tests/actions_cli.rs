//! `anqi actions` reports the end of the game the replayed moves reach (RULES.md §X6: perpetual
//! chase, perpetual check, repetition, the 60-move rule) and refuses moves after it (issue 19).

use std::process::Command;

fn anqi(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_anqi")).args(args).output().expect("run anqi");
    (o.status.success(), String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

const CANNON_CHASE: &str = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1";
const MOVES: &str = "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2";

#[test]
fn actions_prints_the_result_of_a_perpetual_chase() {
    let (ok, out, err) = anqi(&["actions", "--fen", CANNON_CHASE, "--play", MOVES]);
    assert!(ok, "{out}\n{err}");
    assert_eq!(out.lines().last(), Some("result 0-1 (perpetual chase)"), "{out}");
    // One move fewer: the game goes on and no result is printed.
    let short: Vec<&str> = MOVES.split(' ').take(8).collect();
    let (ok, out, _) = anqi(&["actions", "--fen", CANNON_CHASE, "--play", &short.join(" ")]);
    assert!(ok && !out.contains("result "), "{out}");
}

#[test]
fn actions_refuses_moves_after_the_end() {
    let more = format!("{MOVES} a7b7");
    let (ok, out, err) = anqi(&["actions", "--fen", CANNON_CHASE, "--play", &more]);
    assert!(!ok, "accepted a move after the end:\n{out}");
    assert!(err.contains("move 10") && err.contains("game is over after move 9") && err.contains("perpetual chase"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn actions_prints_the_sixty_move_draw() {
    let (ok, out, err) = anqi(&["actions", "--fen", "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 80", "--play", "a0a1"]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().last(), Some("result 1/2-1/2 (60-move rule)"), "{out}");
}

/// In a hidden game `actions` shows the side to move only what it may know: after Red's
/// face-down h2 piece took a face-down piece whose identity only Red saw (a horse or a chariot),
/// Black is shown one view, one list and one set of chance multiplicities (counted on its unseen
/// pools, not the true pool).
#[test]
fn actions_output_is_a_function_of_the_movers_view() {
    let out = |captured: &str| {
        let (ok, out, err) = anqi(&["actions", "--variant", "jieqi", "--play", &format!("h2h9R{captured} a9a8r b2b9Cc")]);
        assert!(ok, "{err}");
        out
    };
    let (n, r) = (out("n"), out("r"));
    assert_eq!(n, r);
    assert!(n.starts_with("view ") && n.contains("view=b"), "{n}");
}
