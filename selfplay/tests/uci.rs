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
    assert!(lines.iter().any(|l| l.starts_with("option name UCI_Variant type combo default xiangqi var xiangqi var jieqi")), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("option name Hash type spin")), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("option name Threads type spin")), "{out}");
    let info = lines.iter().find(|l| l.starts_with("info depth 2 ")).expect("an info line for depth 2");
    for word in ["score", "nodes", "nps", "time", "pv"] {
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
    assert!(!out.contains("bestmove"), "a malformed go does not search: {out}");
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
        let v: &'static engine::variant::Variant = Box::leak(Box::new(engine::variant::Variant::load("surprise").expect("preset")));
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
