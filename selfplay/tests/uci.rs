//! Scripted UCI sessions against the built `anqi` binary (`anqi uci`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Runs `anqi uci` on `input` (stdin closed afterwards) and returns its stdout.
fn session(input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_anqi"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn anqi uci");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success(), "exit {:?}: {}", out.status, String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf8")
}

fn bestmove(out: &str) -> &str {
    out.lines().find_map(|l| l.strip_prefix("bestmove ")).map(|r| r.split_whitespace().next().unwrap_or("")).expect("a bestmove line")
}

fn is_iccs(m: &str) -> bool {
    let b = m.as_bytes();
    b.len() == 4 && (b'a'..=b'i').contains(&b[0]) && b[1].is_ascii_digit() && (b'a'..=b'i').contains(&b[2]) && b[3].is_ascii_digit()
}

/// An interactive engine: lines are read on a thread so a test can wait with a timeout.
struct Live {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Live {
    fn start() -> Live {
        let mut child = Command::new(env!("CARGO_BIN_EXE_anqi"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn anqi uci");
        let stdin = child.stdin.take().expect("stdin");
        let stdout: ChildStdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Live { child, stdin, lines }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first that starts with `prefix`, within `limit`.
    fn until(&mut self, prefix: &str, limit: Duration) -> Option<Vec<String>> {
        let deadline = Instant::now() + limit;
        let mut seen = Vec::new();
        loop {
            let left = deadline.checked_duration_since(Instant::now())?;
            let l = self.lines.recv_timeout(left).ok()?;
            let done = l.starts_with(prefix);
            seen.push(l);
            if done {
                return Some(seen);
            }
        }
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn contract_session() {
    let out = session("uci\nisready\nposition startpos moves h2e2\ngo depth 2\n");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"uciok"), "{out}");
    assert!(lines.contains(&"readyok"), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("id name anqi")), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("option name UCI_Variant type combo default auto var auto var xiangqi var jieqi")), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("option name Hash type spin")), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("option name Threads type spin")), "{out}");
    let info = lines.iter().find(|l| l.starts_with("info depth 2 ")).expect("an info line for depth 2");
    for word in ["seldepth", "score", "wdl", "nodes", "nps", "time", "pv"] {
        assert!(info.split_whitespace().any(|w| w == word), "{word} in {info}");
    }
    let m = bestmove(&out);
    assert!(is_iccs(m), "{m}");
    // Black moves after h2e2: the bestmove starts on a black piece's point (ranks 5-9 or a black piece).
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let legal = Command::new(env!("CARGO_BIN_EXE_anqi")).args(["moves", "--fen", fen]).output().expect("anqi moves");
    let legal = String::from_utf8(legal.stdout).expect("utf8");
    assert!(legal.split_whitespace().any(|w| w == m), "{m} legal for Black: {legal}");
}

#[test]
fn malformed_input_reports_errors_and_keeps_running() {
    let out = session("position fen garbage\ngo depth x\nfoo bar\nposition startpos moves h2e2 z9z9\nsetoption name NoSuch value 1\nisready\n");
    let errors = out.lines().filter(|l| l.starts_with("info string error:")).count();
    assert_eq!(errors, 5, "{out}");
    assert!(out.lines().any(|l| l == "readyok"), "{out}");
    // `go` after the refused position does not search: `bestmove (none)`.
    let best: Vec<&str> = out.lines().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best, ["bestmove (none)"], "{out}");
    // A malformed `go` is refused the same way, naming the word.
    let out = session("position startpos\ngo depth x\ngo depth -5\ngo nodes -1\ngo movetime -10\n");
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("info string error:")).collect();
    assert_eq!(errors.len(), 4, "{out}");
    assert!(errors[1].contains("depth -5 is negative"), "{out}");
    assert_eq!(out.lines().filter(|l| *l == "bestmove (none)").count(), 4, "{out}");
    assert!(!out.lines().any(|l| l.starts_with("info depth")), "nothing searched: {out}");
    // A clock that ran out (a negative wtime, as some GUIs send) is still a clock.
    let out = session("position startpos\ngo wtime -20 btime 1000\n");
    assert!(is_iccs(bestmove(&out)), "{out}");
    // The kept prefix (h2e2) is the position: Black to move.
    let out = session("position startpos moves h2e2 z9z9\nd\n");
    assert!(out.contains("info string fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"), "{out}");
}

#[test]
fn infinite_search_stops_on_stop() {
    let mut e = Live::start();
    e.send("uci");
    e.until("uciok", Duration::from_secs(10)).expect("uciok");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let ready = e.until("readyok", Duration::from_secs(2)).expect("readyok while searching");
    assert!(!ready.iter().any(|l| l.starts_with("bestmove")), "no bestmove before stop: {ready:?}");
    let t = Instant::now();
    e.send("stop");
    let lines = e.until("bestmove", Duration::from_secs(2)).expect("bestmove within 2 s of stop");
    assert!(t.elapsed() < Duration::from_secs(2));
    let last = lines.last().expect("line");
    let m = last.split_whitespace().nth(1).expect("move");
    assert!(is_iccs(m), "{last}");
    // The engine answers again after the search.
    e.send("isready");
    e.until("readyok", Duration::from_secs(2)).expect("readyok after stop");
}

#[test]
fn movetime_and_clock_searches_end_on_their_own() {
    let mut e = Live::start();
    e.send("position startpos");
    let t = Instant::now();
    e.send("go movetime 200");
    e.until("bestmove", Duration::from_secs(3)).expect("bestmove after movetime");
    assert!(t.elapsed() < Duration::from_secs(2));
    e.send("go wtime 2000 btime 2000 winc 0 binc 0");
    e.until("bestmove", Duration::from_secs(3)).expect("bestmove on a clock");
    e.send("go nodes 5000");
    let lines = e.until("bestmove", Duration::from_secs(5)).expect("bestmove on a node budget");
    for l in &lines {
        if let Some(n) = l.split_whitespace().skip_while(|w| *w != "nodes").nth(1) {
            assert!(n.parse::<u64>().expect("nodes") <= 5000, "{l}");
        }
    }
}

#[test]
fn finds_mate_in_one() {
    // Red: chariots a7, b8; a7a9 and a7d7 mate (d8 covered by b8, e9 by the flying general).
    let out = session("position fen 3k5/1R7/R8/9/9/9/9/9/9/4K4 w - - 0 1\ngo depth 4\n");
    assert!(["a7a9", "a7d7"].contains(&bestmove(&out)), "{out}");
    assert!(out.lines().any(|l| l.contains(" score mate 1 ")), "{out}");
}

#[test]
fn no_legal_move_gives_bestmove_none() {
    // Black is mated (position after a7a9 above).
    let out = session("position fen R2k5/1R7/9/9/9/9/9/9/9/4K4 b - - 1 1\ngo depth 3\n");
    assert!(out.lines().any(|l| l == "bestmove (none)"), "{out}");
}

#[test]
fn jieqi_dialect() {
    let out = session(
        "setoption name UCI_Variant value jieqi\n\
         position fen xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1 moves h2e2C h9g7\n\
         position fen xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1 moves h2e2C h9g7n\n\
         d\ngo depth 3\n",
    );
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("info string error:")).collect();
    assert_eq!(errors.len(), 1, "only the reveal-less move is an error: {out}");
    assert!(errors[0].contains("reveal"), "{}", errors[0]);
    let fen = out.lines().find_map(|l| l.strip_prefix("info string fen ")).expect("d");
    assert!(fen.starts_with("xxxxkxx1x/9/1x4nx1/"), "{fen}");
    let m = bestmove(&out);
    assert!(is_iccs(m), "{m}");
    // Switching back to xiangqi works too.
    let out = session("setoption name UCI_Variant value jieqi\nsetoption name UCI_Variant value xiangqi\nposition startpos\ngo depth 1\n");
    assert!(!out.contains("error"), "{out}");
    assert!(is_iccs(bestmove(&out)));
}

/// `anqi uci` plays the hidden game from its side's view (issue 13 item 4): two full states that
/// differ only in what the side to move cannot see (the opponent's Surprise layout) get the same
/// search, `info` lines and move, and that side's view FEN is searched the same way; in Jieqi a
/// search from the start answers a legal move.
#[test]
fn hidden_variants_are_searched_from_the_side_to_moves_view() {
    let run = |variant: &str, fen: &str| {
        let out = session(&format!("setoption name UCI_Variant value {variant}\nposition fen {fen}\ngo depth 2\n"));
        assert!(!out.contains("error"), "{out}");
        let infos: Vec<String> = out.lines().filter(|l| l.starts_with("info depth")).map(|l| l.split(" nps ").next().unwrap_or(l).to_string()).collect();
        (infos, bestmove(&out).to_string())
    };
    // Surprise, Red to move after 1. h2e2 h9g7: Black's layout A or C5 (Red cannot see it).
    let surprise = |black: &str| {
        let v: &'static engine::variant::Variant = engine::any_game::load_variant("surprise").expect("preset");
        let mut s = engine::variant::State::start(v, Some(("C3", black))).expect("start");
        for m in ["h2e2", "h9g7"] {
            let a = engine::variant::notation::parse_action(&s, m).expect("move");
            s.apply(a);
        }
        s
    };
    let (a, c5) = (surprise("A"), surprise("C5"));
    let (ia, ba) = run("surprise", &engine::variant::fen::write(&a));
    let (ic, bc) = run("surprise", &engine::variant::fen::write(&c5));
    assert_eq!((ia.clone(), ba.clone()), (ic, bc), "the hidden layout changed the search");
    assert!(!ia.is_empty(), "info lines");
    // The same position given as Red's view FEN.
    let view = engine::variant::View::new(&a, engine::Color::Red);
    let (iv, bv) = run("surprise", view.fen());
    assert_eq!((iv, bv), (ia, ba));
    // Jieqi: a reveal move is answered with a legal move text (the GUI adds the letters).
    let out = session("setoption name UCI_Variant value jieqi\nposition startpos moves h2e2C h9g7n\ngo movetime 300\n");
    assert!(!out.contains("error"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("info depth 1 ")), "{out}");
    assert!(is_iccs(bestmove(&out)), "{out}");
}

/// The hidden-game search sees the game's record (RULES.md §X6): in Surprise, the checking move
/// that would make Red the perpetual checker scores below even giving the chariot away, while
/// from the same position without the record it is the best move.
#[test]
fn hidden_search_sees_the_record_and_avoids_perpetual_check() {
    let fen = "3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1 a8=N 0:0/0:0";
    let with = session(&format!("setoption name UCI_Variant value surprise\nposition fen {fen} moves a8a9 d9d8 a9a8 d8d9 a8a9 d9d8\ngo depth 2 searchmoves a9a8 a9d9\n"));
    assert_eq!(bestmove(&with), "a9d9", "{with}");
    let without = session("setoption name UCI_Variant value surprise\nposition fen R8/3k5/9/9/9/9/9/9/9/5K3 w - - 6 4 a9=N 0:0/0:0\ngo depth 2 searchmoves a9a8 a9d9\n");
    assert_eq!(bestmove(&without), "a9a8", "{without}");
}

/// Runs `anqi uci <args>` under `ulimit -v <kib>` (a machine with that much memory) on `input`;
/// the exit status and stdout.
fn session_limited(kib: u64, args: &str, input: &str) -> (std::process::ExitStatus, String) {
    let script = format!("ulimit -v {kib} && exec \"$0\" uci {args}");
    let mut child = Command::new("sh")
        .args(["-c", &script, env!("CARGO_BIN_EXE_anqi")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn sh");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("wait");
    (out.status, String::from_utf8(out.stdout).expect("utf8"))
}

/// The legal moves (ICCS) of the side to move in the Jieqi position `fen` (any form `anqi uci`
/// reads), and whether Red is to move.
fn jieqi_legal(fen: &str) -> (Vec<String>, bool) {
    let v: &'static engine::variant::Variant = engine::any_game::load_variant("jieqi").expect("preset");
    let s = engine::variant::given::Given::parse(v, fen).expect("a Jieqi FEN").state();
    let moves = s.legal_actions().into_iter().map(|a| engine::variant::notation::action_string(&s, a)).collect();
    (moves, s.turn() == engine::Color::Red)
}

/// Issue 40: JieqiBox sends no `UCI_Variant`; every form of FEN it writes is recognised as Jieqi
/// and answered with a legal move of the side to move.
#[test]
fn jieqibox_fens_need_no_option() {
    let fens = [
        // New six-field form after 1. h2e2 (a soldier turned up), Black to move (the issue's).
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X2P4/9/XXXXKXXXX b R2r2N2n2B2b2A2a2C2c2P4p5 - 1 1",
        // Its start FEN constant (pool order A B N R C P).
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 - 0 1",
        // The old FEN format.
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X2P4/9/XXXXKXXXX R2r2N2n2B2b2A2a2C2c2P4p5 b - - 1 1",
        // Human-vs-AI mode: pool in object-key order, larger than the face-down count (a face-down
        // piece of the engine's was captured unseen), a captured field.
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXX1 w R2N2B2A2C2P5r2n2b2a2c2p5 - 0 1",
        // An empty pool field (two spaces), new and old format.
        "3k5/9/9/9/9/9/9/9/4R4/4K4 w  r1 0 40",
        "3k5/9/9/9/9/9/9/9/4R4/4K4  w - - 0 40",
        // Pikafish's Jieqi FEN (RULES.md §N).
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1",
    ];
    for fen in fens {
        let out = session(&format!("uci\nisready\nucinewgame\nisready\nposition fen {fen}\ngo depth 1\n"));
        assert!(!out.contains("error"), "{fen}: {out}");
        assert!(out.contains("info string UCI_Variant auto: playing jieqi"), "{fen}: {out}");
        let m = bestmove(&out);
        let (legal, _) = jieqi_legal(fen);
        assert!(legal.iter().any(|l| l == m), "{fen}: {m} is not a legal move of the side to move ({legal:?})");
        // With moves after the FEN (JieqiBox's base FEN plus the moves since the last reveal).
        assert!(out.lines().any(|l| l.starts_with("info depth 1 seldepth ") && l.contains(" wdl ")), "{out}");
    }
    let out = session("position fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w  r1 0 40 moves e1e2 d9d8\ngo depth 1\n");
    assert!(!out.contains("error"), "{out}");
    assert!(jieqi_legal("3k5/9/9/9/9/9/9/4R4/9/4K4 w - - 2 41").0.iter().any(|l| l == bestmove(&out)), "{out}");
}

/// An explicit `UCI_Variant` (or `--variant`) wins over the FEN; a FEN that is no more Jieqi
/// than xiangqi is read in the variant being played (Jieqi once a Jieqi FEN was read).
#[test]
fn explicit_variant_wins_and_ambiguous_fens_keep_the_variant() {
    let jieqi_fen = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X2P4/9/XXXXKXXXX b R2r2N2n2B2b2A2a2C2c2P4p5 - 1 1";
    let out = session(&format!("setoption name UCI_Variant value xiangqi\nposition fen {jieqi_fen}\ngo depth 1\n"));
    let err = out.lines().find(|l| l.starts_with("info string error: position:")).unwrap_or_else(|| panic!("refused: {out}"));
    assert!(err.contains("set it to auto or jieqi"), "{err}");
    assert!(out.lines().any(|l| l == "bestmove (none)"), "{out}");
    // A revealed advisor may leave the palace in Jieqi (RULES.md §F4), not in xiangqi.
    let plain = "3k5/9/9/9/9/9/9/9/9/3AK4 w - - 0 1 moves d0c1";
    let out = session(&format!("position fen {plain}\nd\n"));
    assert!(out.contains("info string error: position: move 1 (d0c1)"), "read as xiangqi at first: {out}");
    let out = session(&format!("position fen {jieqi_fen}\nposition fen {plain}\nd\ngo depth 1\n"));
    assert!(!out.contains("error"), "read as Jieqi after a Jieqi FEN: {out}");
    assert!(out.contains("info string fen 3k5/9/9/9/9/9/9/9/2A6/4K4 b"), "{out}");
    let out = session(&format!("setoption name UCI_Variant value jieqi\nposition fen {plain}\ngo depth 1\n"));
    assert!(!out.contains("error"), "{out}");
}

/// Issue 40: a refused `position` is never followed by a search of another position, in every
/// variant: `go` answers `bestmove (none)` with an `info string` naming the error.
#[test]
fn refused_positions_are_never_searched() {
    for variant in ["xiangqi", "jieqi", "surprise", "fanqi-4", "king"] {
        for bad in ["position fen garbage", "position startpos moves a0a9", "position fen"] {
            let out = session(&format!("setoption name UCI_Variant value {variant}\nposition startpos\n{bad}\ngo depth 1\nposition startpos\ngo depth 1\n"));
            let lines: Vec<&str> = out.lines().collect();
            let refused = lines.iter().position(|l| l.starts_with("info string error: go: not searching, the last position was refused")).unwrap_or_else(|| panic!("{variant} {bad}: {out}"));
            assert_eq!(lines[refused + 1], "bestmove (none)", "{variant} {bad}: {out}");
            assert!(!lines[..refused].iter().any(|l| l.starts_with("info depth")), "{variant} {bad}: searched: {out}");
            // The next accepted position is searched again.
            assert!(lines[refused + 2..].iter().any(|l| l.starts_with("bestmove ") && *l != "bestmove (none)"), "{variant} {bad}: {out}");
        }
    }
}

/// One legal move still gets an `info` line (score, wdl, PV), in xiangqi and in Jieqi.
#[test]
fn a_forced_move_gets_an_info_line() {
    for variant in ["xiangqi", "jieqi"] {
        let out = session(&format!("setoption name UCI_Variant value {variant}\nposition fen 4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 40\ngo movetime 200\n"));
        assert_eq!(bestmove(&out), "e9f9", "{variant}: {out}");
        let info = out.lines().filter(|l| l.starts_with("info depth")).last().unwrap_or_else(|| panic!("{variant}: no info line: {out}"));
        for word in ["seldepth", "score", "wdl", "nodes", "nps", "time", "pv"] {
            assert!(info.split_whitespace().any(|w| w == word), "{variant}: {word} in {info}");
        }
        // Black is lost: the score and the wdl say so; the PV goes on past the forced move.
        assert!(info.contains(" score mate -") || info.contains(" score cp -"), "{info}");
        assert!(info.contains(" pv e9f9 e1e8"), "{variant}: {info}");
        assert!(out.contains("bestmove e9f9 ponder e1e8"), "{variant}: {out}");
    }
}

/// Issue 39: the advertised `Hash` range works: the maximum fits the machine's memory, and a size
/// that cannot be had (here under a 2 GiB address-space limit) is refused with an `info string`,
/// the engine going on with its table, instead of aborting.
#[test]
fn hash_sizes_that_cannot_be_had_are_refused_not_fatal() {
    let out = session("uci\n");
    let max: usize = out
        .lines()
        .find_map(|l| l.strip_prefix("option name Hash type spin default 16 min 1 max "))
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("Hash option: {out}"));
    let mem_mib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| m.lines().find_map(|l| l.strip_prefix("MemTotal:").and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())))
        .map(|k| k / 1024);
    if let Some(mem) = mem_mib {
        assert!(max <= (mem / 2).max(16), "max {max} MiB with {mem} MiB of memory");
    }
    let (status, out) = session_limited(2 << 20, "", "setoption name Hash value 65536\nsetoption name Hash value 4096\nposition startpos\ngo depth 2\n");
    assert!(status.success(), "{status:?}: {out}");
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("info string error: setoption Hash:")).collect();
    assert_eq!(errors.len(), 2, "{out}");
    assert!(errors[0].contains("could not be allocated"), "{out}");
    assert!(is_iccs(bestmove(&out)), "{out}");
    let (status, out) = session_limited(2 << 20, "--hash 65536", "uci\nposition startpos\ngo depth 2\n");
    assert!(status.success(), "{status:?}: {out}");
    assert!(out.lines().any(|l| l.starts_with("info string") && l.contains("Hash")), "{out}");
    assert!(is_iccs(bestmove(&out)), "{out}");
}

/// The forms of one JieqiBox position (new and old format, pool in either order, an empty pool
/// as `-` or as two spaces) are one information set: the same search, `info` lines and move.
#[test]
fn jieqibox_forms_of_one_position_search_alike() {
    let run = |fen: &str| {
        let out = session(&format!("position fen {fen}\ngo depth 2\n"));
        assert!(!out.contains("error"), "{fen}: {out}");
        let infos: Vec<String> = out.lines().filter(|l| l.starts_with("info depth")).map(|l| l.split(" nps ").next().unwrap_or(l).to_string()).collect();
        assert!(!infos.is_empty(), "{out}");
        (infos, bestmove(&out).to_string())
    };
    let board = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X2P4/9/XXXXKXXXX";
    let a = run(&format!("{board} b R2r2N2n2B2b2A2a2C2c2P4p5 - 1 1"));
    assert_eq!(run(&format!("{board} R2r2N2n2B2b2A2a2C2c2P4p5 b - - 1 1")), a, "old format");
    assert_eq!(run(&format!("{board} b R2N2B2A2C2P4r2n2b2a2c2p5 - 1 1")), a, "object-key pool order");
    let late = "3k5/9/9/9/9/9/9/9/4R4/4K4";
    let b = run(&format!("{late} w - r1 0 40"));
    assert_eq!(run(&format!("{late} w  r1 0 40")), b, "empty pool as two spaces");
    assert_eq!(run(&format!("{late}  w - - 0 40")), b, "old format, empty pool");
}

/// `EvalFile` switches the alpha-beta to a learned evaluation (issue 36): a network file is
/// loaded and named, the search still answers a legal move (xiangqi and Jieqi); a missing or
/// damaged file is refused with its path and the search keeps the evaluation it had.
#[test]
fn evalfile_loads_a_network_and_refuses_bad_files() {
    let dir = std::env::temp_dir().join(format!("anqi-uci-eval-{}", std::process::id()));
    let path = dir.join("net.nnue");
    let mut f = engine::nnue::FloatNet::zeros();
    // A net that values only where pieces stand (some weight rows non-zero).
    for (i, w) in f.ft_weight.iter_mut().enumerate() {
        *w = ((i * 7919) % 101) as f32 / 1000.0 - 0.05;
    }
    f.out_weight.iter_mut().enumerate().for_each(|(i, w)| *w = if i < engine::nnue::HIDDEN { 0.5 } else { -0.5 });
    let net = engine::nnue::Network::quantize(&f, engine::nnue::NetMeta { variant: "xiangqi".into(), description: "test".into() });
    net.save(&path).expect("save");
    let out = session(&format!("uci\nsetoption name EvalFile value {}\nposition startpos\ngo depth 4\n", path.display()));
    assert!(out.contains("option name EvalFile type string default auto"), "{out}");
    assert!(out.contains(&format!("network {}", net.short_hash())), "{out}");
    assert!(is_iccs(bestmove(&out)), "{out}");
    let out = session(&format!("setoption name EvalFile value {}\nsetoption name UCI_Variant value jieqi\nposition startpos\ngo depth 3\n", path.display()));
    assert!(is_iccs(bestmove(&out)), "{out}");
    let missing = dir.join("missing.nnue");
    let out = session(&format!("setoption name EvalFile value {}\nposition startpos\ngo depth 2\n", missing.display()));
    assert!(out.contains("info string error: setoption EvalFile") && out.contains("missing.nnue"), "{out}");
    assert!(is_iccs(bestmove(&out)), "{out}");
    let mut bytes = std::fs::read(&path).expect("read");
    // `auto` (the default) and `none` search too; zoo names fall back to the built-in networks.
    for v in ["none", "auto", "zoo:xiangqi", "zoo:jieqi"] {
        let out = session(&format!("setoption name EvalFile value {v}\nposition startpos\ngo depth 3\n"));
        assert!(is_iccs(bestmove(&out)) && !out.contains("error"), "{v}: {out}");
    }
    bytes[500] ^= 0xff;
    std::fs::write(dir.join("bad.nnue"), bytes).expect("write");
    let out = session(&format!("setoption name EvalFile value {}\n", dir.join("bad.nnue").display()));
    assert!(out.contains("hash mismatch"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
