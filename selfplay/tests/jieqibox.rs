//! `anqi uci` as JieqiBox's engine (issue 40): whole Jieqi games played through our own port of
//! what JieqiBox (github.com/Velithia/JieqiBox, `src/composables/useUciEngine.ts`,
//! `useChessGame.ts`, `components/AnalysisSidebar.vue`) does with a UCI engine, with the engine
//! started as a new user adds it: no arguments, no options.
//!
//! The port (written here from reading that source; none of it is copied):
//! - handshake: `uci` … `uciok`, then `isready` … `readyok`, then `ucinewgame` and `isready`;
//! - the board: `X`/`x` face-down pieces, the pool of unrevealed identities (`unrevealedPieceCounts`),
//!   the identities of captured face-down pieces (`capturedUnrevealedPieceCounts`), half- and
//!   full-move counters as JieqiBox keeps them;
//! - random reveals: a moved face-down piece turns up as a draw from its side's pool weighted by
//!   the counts; a captured face-down piece gets a type drawn uniformly among its side's types
//!   left in the pool;
//! - its FEN writer in both formats: new `board side pool captured halfmove fullmove` (pool and
//!   captured in the order R N B A K C P, Red before Black per type, `-` when empty) and old
//!   `board pool side - - halfmove fullmove`; the start FEN as JieqiBox's constant writes it;
//! - Human-vs-AI mode: the pool the engine is sent adds back the engine's face-down pieces the
//!   human captured (their identities are the human's to see), the captured field keeps only the
//!   human's pieces the engine captured, the pool is written in object-key order (R N B A K C P,
//!   then r n b a k c p) and an empty pool as nothing between two spaces;
//! - the base-FEN-plus-moves rule: `position fen` with the FEN after the last move that changed
//!   the number of face-down pieces (or the start FEN), then the moves made since;
//! - its move check of the engine's `bestmove` (`playMoveFromUci` → `isMoveValid`): the piece's
//!   movement (a face-down piece as its start point's type; revealed advisors and elephants
//!   anywhere on the board; the face-down advisor's outward step forbidden), then own general not
//!   attacked afterwards by a revealed piece or the facing general.
//!
//! The true game is anqi's (`VariantGameState`, RULES.md §F9), fed the GUI's reveals. Every `bestmove`
//! must be the side to move's, legal in the true game, accepted by JieqiBox's check and preceded
//! by an `info` line with depth, seldepth, score, wdl, nodes, nps, time and a PV starting with it;
//! no line may be an error. `ANQI_JIEQIBOX_GAMES` sets the number of games (default 8: two per
//! mode and FEN format), `ANQI_JIEQIBOX_PLIES` the longest game (default 400 plies).

use engine::search::expectimax::{Expectimax, ExpectimaxConfig};
use engine::variant::game_state::VariantGameState;
use engine::variant::state::{Action, ChanceOutcome};
use engine::variant::{notation as vnot, State, Variant};
use engine::Role;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// JieqiBox's start FEN constant (its pool order is A B N R C P).
const START_FEN: &str = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 - 0 1";
/// The order of JieqiBox's FEN writer (`hiddenOrder`).
const WRITER_ORDER: &str = "RNBAKCP";
/// The key order of JieqiBox's pool object (set up by `loadFen`), used by Human-vs-AI mode.
const OBJECT_ORDER: &str = "RNBAKCPrnbakcp";

/// One piece on JieqiBox's board.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Piece {
    red: bool,
    /// Face-up.
    known: bool,
    /// Its type letter in upper case once known; for a face-down piece the type of its start
    /// point (`initialRole`), by which it moves.
    role: char,
}

/// One entry of JieqiBox's move history.
#[derive(Clone, Debug)]
struct Entry {
    /// The move as recorded (four characters, then the revealed and captured letters).
    data: String,
    /// The FEN after the move, in the GUI's format setting.
    fen: String,
    /// Red moved.
    red_moved: bool,
    /// The piece captured was face-up (or nothing was captured).
    captured_face_up: bool,
}

/// JieqiBox's game state (unflipped board: row 0 is rank 9, Black's back rank).
#[derive(Clone)]
struct Gui {
    /// The FEN the game started from (`initialFen`, JieqiBox's new format).
    initial: String,
    grid: [[Option<Piece>; 9]; 10],
    red_to_move: bool,
    half: u32,
    full: u32,
    /// `unrevealedPieceCounts`.
    pool: Vec<(char, u32)>,
    /// `capturedUnrevealedPieceCounts`.
    captured: Vec<(char, u32)>,
    history: Vec<Entry>,
    new_format: bool,
    /// Human-vs-AI mode with the engine playing this side (`true`: Red); `None` in normal mode.
    ai_red: Option<bool>,
}

fn start_role(row: usize, col: usize) -> char {
    let back = ['R', 'N', 'B', 'A', 'K', 'A', 'B', 'N', 'R'];
    match row {
        0 | 9 => back[col],
        2 | 7 => 'C',
        3 | 6 => 'P',
        _ => '?',
    }
}

fn count(list: &[(char, u32)], c: char) -> u32 {
    list.iter().find(|(k, _)| *k == c).map_or(0, |(_, n)| *n)
}

fn add(list: &mut [(char, u32)], c: char, d: i32) {
    if let Some(e) = list.iter_mut().find(|(k, _)| *k == c) {
        e.1 = (e.1 as i32 + d).max(0) as u32;
    }
}

fn letter(red: bool, role: char) -> char {
    if red {
        role
    } else {
        role.to_ascii_lowercase()
    }
}

fn parse_square(s: &str) -> (usize, usize) {
    let b = s.as_bytes();
    ((9 - (b[1] - b'0')) as usize, (b[0] - b'a') as usize)
}

impl Gui {
    /// The board of `initial` (`loadFen`, new format), as JieqiBox loads it.
    fn new(initial: &str, new_format: bool, ai_red: Option<bool>) -> Gui {
        let mut grid = [[None; 9]; 10];
        let f: Vec<&str> = initial.split(' ').collect();
        let board = f[0];
        for (row, rank) in board.split('/').enumerate() {
            let mut col = 0;
            for ch in rank.chars() {
                if let Some(d) = ch.to_digit(10) {
                    col += d as usize;
                    continue;
                }
                let known = !matches!(ch, 'x' | 'X');
                let role = if known { ch.to_ascii_uppercase() } else { start_role(row, col) };
                grid[row][col] = Some(Piece { red: ch.is_ascii_uppercase(), known, role });
                col += 1;
            }
        }
        let list = |field: &str| {
            let mut l = OBJECT_ORDER.chars().map(|c| (c, 0)).collect::<Vec<_>>();
            let mut chars = field.chars().peekable();
            while let Some(c) = chars.next() {
                let mut n = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    n.push(*d);
                    chars.next();
                }
                if let Ok(n) = n.parse::<i32>() {
                    add(&mut l, c, n);
                }
            }
            l
        };
        Gui {
            initial: initial.to_string(),
            grid,
            red_to_move: f[1] == "w",
            half: f[4].parse().expect("halfmove"),
            full: f[5].parse().expect("fullmove"),
            pool: list(f[2]),
            captured: list(f[3]),
            history: Vec::new(),
            new_format,
            ai_red,
        }
    }

    fn face_down_count(fen: &str) -> usize {
        fen.split(' ').next().unwrap_or_default().chars().filter(|c| matches!(c, 'x' | 'X')).count()
    }

    fn board_field(&self) -> String {
        let mut rows = Vec::new();
        for (r, row) in self.grid.iter().enumerate() {
            let mut s = String::new();
            let mut empty = 0;
            for p in row {
                match p {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        // JieqiBox writes a face-down piece by the half of the board it stands on.
                        s.push(if p.known { letter(p.red, p.role) } else if r >= 5 { 'X' } else { 'x' });
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            rows.push(s);
        }
        rows.join("/")
    }

    /// `generateFen`.
    fn fen(&self) -> String {
        let list = |l: &[(char, u32)]| {
            let mut s = String::new();
            for c in WRITER_ORDER.chars() {
                for x in [c, c.to_ascii_lowercase()] {
                    let n = count(l, x);
                    if n > 0 {
                        s.push_str(&format!("{x}{n}"));
                    }
                }
            }
            if s.is_empty() {
                "-".to_string()
            } else {
                s
            }
        };
        let side = if self.red_to_move { "w" } else { "b" };
        if self.new_format {
            format!("{} {side} {} {} {} {}", self.board_field(), list(&self.pool), list(&self.captured), self.half, self.full)
        } else {
            format!("{} {} {side} - - {} {}", self.board_field(), list(&self.pool), self.half, self.full)
        }
    }

    /// `calculateDualPools` for the engine in Human-vs-AI mode: the pool and captured lists the
    /// engine is sent.
    fn engine_view_pools(&self, ai_red: bool) -> (Vec<(char, u32)>, Vec<(char, u32)>) {
        let mut pool = self.pool.clone();
        let mut captured = self.captured.clone();
        // The engine's pieces the human captured are not the engine's to see.
        for e in captured.iter_mut() {
            if e.0.is_ascii_uppercase() == ai_red {
                e.1 = 0;
            }
        }
        for e in &self.history {
            if e.red_moved == ai_red || e.data.len() <= 4 {
                continue;
            }
            let ext: Vec<char> = e.data[4..].chars().collect();
            let capture = match ext.as_slice() {
                [c] if c.is_ascii_uppercase() != e.red_moved => Some(*c),
                [_, c] => Some(*c),
                _ => None,
            };
            if let Some(c) = capture {
                if !e.captured_face_up {
                    add(&mut pool, c, 1);
                }
            }
        }
        (pool, captured)
    }

    /// `generateFenForEngine(baseFen)`: the Human-vs-AI pools put into the base FEN, then the FEN
    /// converted to the format setting.
    fn fen_for_engine(&self, base: &str) -> String {
        let mut fen = base.to_string();
        if let Some(ai_red) = self.ai_red {
            let (pool, captured) = self.engine_view_pools(ai_red);
            let list = |l: &[(char, u32)]| OBJECT_ORDER.chars().filter_map(|c| (count(l, c) > 0).then(|| format!("{c}{}", count(l, c)))).collect::<String>();
            let p: Vec<&str> = base.split(' ').collect();
            let new = p.len() >= 2 && matches!(p[1], "w" | "b");
            let cap = list(&captured);
            fen = if new {
                format!("{} {} {} {} {} {}", p[0], p[1], list(&pool), if cap.is_empty() { "-" } else { &cap }, p[4], p[5])
            } else {
                format!("{} {} {} {} {} {} {}", p[0], list(&pool), p[2], p[3], p[4], p[5], p[6])
            };
        }
        // convertFenFormat.
        let p: Vec<&str> = fen.split(' ').collect();
        let is_new = p.len() >= 2 && matches!(p[1], "w" | "b");
        match (is_new, self.new_format) {
            (true, false) => format!("{} {} {} - - {} {}", p[0], p[2], p[1], p[4], p[5]),
            (false, true) => format!("{} {} {} - {} {}", p[0], p[2], p[1], p[5], p[6]),
            _ => fen,
        }
    }

    /// The base FEN and the moves since (`baseFenForEngine`, `engineMovesSinceLastReveal`).
    fn base_and_moves(&self) -> (String, Vec<String>) {
        let mut last = None;
        for i in (0..self.history.len()).rev() {
            let prev = if i == 0 { self.initial.as_str() } else { self.history[i - 1].fen.as_str() };
            if Gui::face_down_count(prev) != Gui::face_down_count(&self.history[i].fen) {
                last = Some(i);
                break;
            }
        }
        match last {
            Some(i) => (self.history[i].fen.clone(), self.history[i + 1..].iter().map(|e| e.data.clone()).collect()),
            None => (self.initial.clone(), self.history.iter().map(|e| e.data.clone()).collect()),
        }
    }

    fn at(&self, r: i32, c: i32) -> Option<Piece> {
        if (0..10).contains(&r) && (0..9).contains(&c) {
            self.grid[r as usize][c as usize]
        } else {
            None
        }
    }

    fn between(&self, (r1, c1): (i32, i32), (r2, c2): (i32, i32)) -> usize {
        let mut n = 0;
        if r1 == r2 {
            for c in c1.min(c2) + 1..c1.max(c2) {
                n += usize::from(self.at(r1, c).is_some());
            }
        } else if c1 == c2 {
            for r in r1.min(r2) + 1..r1.max(r2) {
                n += usize::from(self.at(r, c1).is_some());
            }
        }
        n
    }

    /// `isMoveMechanicallyValid`.
    fn mechanically_valid(&self, from: (i32, i32), to: (i32, i32)) -> bool {
        let Some(p) = self.at(from.0, from.1) else { return false };
        let target = self.at(to.0, to.1);
        if target.is_some_and(|t| t.red == p.red) {
            return false;
        }
        let (dr, dc) = ((to.0 - from.0).abs(), (to.1 - from.1).abs());
        match p.role {
            'K' => {
                let rows = if p.red { 7..=9 } else { 0..=2 };
                dr + dc == 1 && (3..=5).contains(&to.1) && rows.contains(&to.0)
            }
            'A' => {
                let outward = !p.known && matches!((from, to), ((0, 3), (1, 2)) | ((0, 5), (1, 6)) | ((9, 3), (8, 2)) | ((9, 5), (8, 6)));
                !outward && dr == 1 && dc == 1
            }
            'B' => dr == 2 && dc == 2 && self.at((from.0 + to.0) / 2, (from.1 + to.1) / 2).is_none(),
            'N' => {
                if !((dr == 2 && dc == 1) || (dr == 1 && dc == 2)) {
                    return false;
                }
                let leg = if dr == 2 { ((from.0 + to.0) / 2, from.1) } else { (from.0, (from.1 + to.1) / 2) };
                self.at(leg.0, leg.1).is_none()
            }
            'R' => (dr == 0 || dc == 0) && self.between(from, to) == 0,
            'C' => (dr == 0 || dc == 0) && self.between(from, to) == usize::from(target.is_some()),
            'P' => {
                let crossed = if p.red { from.0 <= 4 } else { from.0 >= 5 };
                let forward = if p.red { from.0 - to.0 == 1 } else { to.0 - from.0 == 1 };
                (forward && dc == 0) || (crossed && dr == 0 && dc == 1)
            }
            _ => false,
        }
    }

    /// `isInCheck`: face-down pieces never give check in JieqiBox.
    fn in_check(&self, red: bool) -> bool {
        let mut king = None;
        for r in 0..10 {
            for c in 0..9 {
                if let Some(p) = self.at(r, c) {
                    if p.known && p.role == 'K' && p.red == red {
                        king = Some((r, c));
                    }
                }
            }
        }
        let Some(k) = king else { return false };
        for r in 0..10 {
            for c in 0..9 {
                let Some(p) = self.at(r, c) else { continue };
                if p.red == red || !p.known {
                    continue;
                }
                if p.role == 'K' {
                    if c == k.1 && self.between((r, c), k) == 0 {
                        return true;
                    }
                    continue;
                }
                if self.mechanically_valid((r, c), k) {
                    return true;
                }
            }
        }
        false
    }

    /// `isMoveValid`: movement, then no check on the mover's own general.
    fn move_valid(&self, from: (i32, i32), to: (i32, i32)) -> bool {
        if !self.mechanically_valid(from, to) {
            return false;
        }
        let Some(p) = self.at(from.0, from.1) else { return false };
        let mut after = self.clone();
        after.grid[to.0 as usize][to.1 as usize] = Some(p);
        after.grid[from.0 as usize][from.1 as usize] = None;
        !after.in_check(p.red)
    }

    /// `movePiece` in random flip mode: plays `uci` (checked), draws the reveals with `rng`;
    /// the revealed types (mover, captured).
    fn play(&mut self, uci: &str, rng: &mut Pcg64Mcg) -> (Option<char>, Option<char>) {
        let (fr, fc) = parse_square(&uci[0..2]);
        let (tr, tc) = parse_square(&uci[2..4]);
        let mut p = self.grid[fr][fc].expect("a piece to move");
        let target = self.grid[tr][tc];
        let red_moved = self.red_to_move;
        if target.is_some() {
            self.half = 0;
        } else {
            self.half += 1;
        }
        if !self.red_to_move {
            self.full += 1;
        }
        let mut captured_letter = None;
        if let Some(t) = target {
            if !t.known {
                // A type drawn uniformly among the captured side's types left in the pool.
                let types: Vec<char> = self.pool.iter().filter(|(c, n)| *n > 0 && c.is_ascii_uppercase() == t.red).map(|(c, _)| *c).collect();
                let c = types[rng.random_range(0..types.len())];
                add(&mut self.pool, c, -1);
                add(&mut self.captured, c, 1);
                captured_letter = Some(c);
            }
        }
        let mut revealed = None;
        if !p.known {
            // A draw from the mover's pool, weighted by the counts.
            let bag: Vec<char> = self.pool.iter().filter(|(c, _)| c.is_ascii_uppercase() == p.red).flat_map(|(c, n)| std::iter::repeat_n(*c, *n as usize)).collect();
            let c = bag[rng.random_range(0..bag.len())];
            add(&mut self.pool, c, -1);
            p.known = true;
            p.role = c.to_ascii_uppercase();
            revealed = Some(c);
        }
        self.grid[tr][tc] = Some(p);
        self.grid[fr][fc] = None;
        self.red_to_move = !self.red_to_move;
        let mut data = uci[..4].to_string();
        data.extend(revealed);
        data.extend(captured_letter);
        let fen = self.fen();
        self.history.push(Entry { data, fen, red_moved, captured_face_up: target.is_some_and(|t| t.known) });
        (revealed, captured_letter)
    }
}

/// `anqi uci` started with no arguments, read on a thread.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    log: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_anqi")).arg("uci").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("spawn anqi uci");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines, log: Vec::new() }
    }

    fn send(&mut self, line: &str) {
        self.log.push(format!("> {line}"));
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first starting with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let l = self.lines.recv_timeout(Duration::from_secs(60)).unwrap_or_else(|_| panic!("no {prefix:?} within 60 s; last lines:\n{}", self.tail()));
            self.log.push(format!("< {l}"));
            assert!(!l.contains("error"), "engine error: {l}\n{}", self.tail());
            let done = l.starts_with(prefix);
            seen.push(l);
            if done {
                return seen;
            }
        }
    }

    fn tail(&self) -> String {
        self.log[self.log.len().saturating_sub(30)..].join("\n")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

/// Checks an `info` line as JieqiBox and other GUIs read it; the PV.
fn check_info(line: &str) -> Vec<String> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let value = |k: &str| w.iter().position(|x| *x == k).and_then(|i| w.get(i + 1)).unwrap_or_else(|| panic!("{k} in {line}"));
    for k in ["depth", "seldepth", "nodes", "nps", "time"] {
        value(k).parse::<u64>().unwrap_or_else(|_| panic!("{k} in {line}"));
    }
    let i = w.iter().position(|x| *x == "score").expect("score");
    assert!(matches!(w[i + 1], "cp" | "mate") && w[i + 2].parse::<i64>().is_ok(), "{line}");
    let i = w.iter().position(|x| *x == "wdl").expect("wdl");
    let sum: u32 = w[i + 1..i + 4].iter().map(|x| x.parse::<u32>().expect("wdl number")).sum();
    assert_eq!(sum, 1000, "{line}");
    // JieqiBox reads each field with the first match of `<key> (\d+)` in the line: the first
    // `depth ` must be the depth, not `seldepth`.
    for k in ["depth", "time", "nodes"] {
        let first = line.split(&format!("{k} ")).nth(1).and_then(|r| r.split_whitespace().next()).expect("field");
        assert_eq!(first, *value(k), "JieqiBox's regex for {k} in {line}");
    }
    let pv = line.split(" pv ").nth(1).expect("pv").split_whitespace().map(String::from).collect::<Vec<_>>();
    assert!(!pv.is_empty(), "{line}");
    pv
}

/// What one game showed.
#[derive(Default, Debug)]
struct Counts {
    plies: usize,
    engine_moves: usize,
    with_moves: usize,
    with_captured: usize,
    /// Pool field `-`.
    empty_pool: usize,
    /// Pool field empty (two spaces: Human-vs-AI mode).
    blank_pool: usize,
    pool_beyond_face_down: usize,
    ponder: usize,
    longest_pv: usize,
    ended: Option<String>,
}

/// A loaded position with four face-down pieces (JieqiBox's FEN input), and the same position
/// as anqi's full-state FEN (RULES.md §N): the pool empties within the game.
const LATE: (&str, &str) = (
    "x2aka2x/9/9/2x1p1x2/9/9/2X1P1X2/9/9/X2AKA2X w R1r1N1n1C1c1P1p1 - 0 30",
    "x2aka2x/9/9/2x1p1x2/9/9/2X1P1X2/9/9/X2AKA2X w R1N1C1P1r1n1c1p1 0 30",
);

fn play_game(seed: u64, late: bool, new_format: bool, ai_red: Option<bool>, max_plies: usize, engine: &mut Engine) -> Counts {
    let jieqi: &'static Variant = engine::any_game::load_variant("jieqi").expect("jieqi preset");
    let start = if late { engine::variant::fen::parse(jieqi, LATE.1).expect("late FEN") } else { State::start(jieqi, None).expect("start") };
    let mut game = VariantGameState::unbounded(start);
    let mut gui = Gui::new(if late { LATE.0 } else { START_FEN }, new_format, ai_red);
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut counts = Counts::default();
    // setupNewGame.
    engine.send("ucinewgame");
    engine.send("isready");
    engine.until("readyok");
    let go = ["go depth 1", "go nodes 3000", "go movetime 40", "go wtime 80 btime 80 movestogo 1"];
    while counts.plies < max_plies {
        if let Some(end) = game.outcome() {
            counts.ended = Some(format!("{} {}", end.result(), end.reason()));
            break;
        }
        let state = game.state().clone();
        assert_eq!(state.turn() == engine::Color::Red, gui.red_to_move);
        let engine_turn = ai_red.is_none_or(|r| r == gui.red_to_move);
        let mv = if engine_turn {
            let (base, moves) = gui.base_and_moves();
            let fen = gui.fen_for_engine(&base);
            counts.with_moves += usize::from(!moves.is_empty());
            let f: Vec<&str> = fen.split(' ').collect();
            let (pool, captured) = if new_format { (f[2], Some(f[3])) } else { (f[1], None) };
            counts.empty_pool += usize::from(pool == "-");
            counts.blank_pool += usize::from(pool.is_empty());
            counts.with_captured += usize::from(captured.is_some_and(|c| c != "-"));
            let pool_n: u32 = pool.split(|c: char| c.is_ascii_alphabetic()).filter_map(|n| n.parse::<u32>().ok()).sum();
            counts.pool_beyond_face_down += usize::from(pool_n as usize > Gui::face_down_count(&fen));
            let pos = format!("position fen {fen}{}", if moves.is_empty() { String::new() } else { format!(" moves {}", moves.join(" ")) });
            engine.send(&pos);
            engine.send(go[counts.engine_moves % go.len()]);
            let lines = engine.until("bestmove");
            let last = lines.last().expect("bestmove line");
            let words: Vec<&str> = last.split_whitespace().collect();
            let best = words[1].to_string();
            let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info ") && l.contains(" score ")).collect();
            let info = infos.last().unwrap_or_else(|| panic!("an info line before {last}\n{}", engine.tail()));
            for l in &infos {
                counts.longest_pv = counts.longest_pv.max(check_info(l).len());
            }
            let pv = check_info(info);
            assert_eq!(pv[0], best, "the PV starts with the bestmove: {info} / {last}");
            if let Some(i) = words.iter().position(|w| *w == "ponder") {
                assert_eq!(pv.get(1).map(String::as_str), words.get(i + 1).copied(), "ponder is the PV's second move");
                counts.ponder += 1;
            }
            // The mover's piece, legal in the true game, accepted by JieqiBox.
            assert!(best.len() == 4, "{last}");
            let (fr, fc) = parse_square(&best[..2]);
            let piece = gui.grid[fr][fc].unwrap_or_else(|| panic!("{best}: no piece on its origin\n{}", engine.tail()));
            assert_eq!(piece.red, gui.red_to_move, "{best} moves the other side's piece\n{}", engine.tail());
            let a = vnot::parse_action(&state, &best).unwrap_or_else(|e| panic!("{best}: {e}\n{}", engine.tail()));
            assert!(state.legal_actions().contains(&a), "{best} illegal in the true game {}\n{}", engine::variant::fen::write(&state), engine.tail());
            let (tr, tc) = parse_square(&best[2..4]);
            assert!(gui.move_valid((fr as i32, fc as i32), (tr as i32, tc as i32)), "JieqiBox refuses {best}");
            counts.engine_moves += 1;
            best
        } else {
            // The human: a random move JieqiBox lets them make, legal in the true game.
            let legal: Vec<Action> = state.legal_actions().into_iter().filter(|a| matches!(a, Action::Move { turn_down: false, .. })).collect();
            let ok: Vec<String> = legal
                .iter()
                .map(|a| vnot::action_string(&state, *a)[..4].to_string())
                .filter(|m| {
                    let (f, t) = (parse_square(&m[..2]), parse_square(&m[2..4]));
                    gui.move_valid((f.0 as i32, f.1 as i32), (t.0 as i32, t.1 as i32))
                })
                .collect();
            // A human of some strength (so that games last): a one-ply search of the true game
            // three times in four, else a random move.
            let cfg = ExpectimaxConfig { depth: 1, qdepth: 2, nodes: Some(20_000), ms: None, samples: 1, ..ExpectimaxConfig::default() };
            let best = Expectimax::new(cfg).search_in_game(&state, game.record()).best().map(|(a, _)| vnot::action_string(&state, a));
            match best.filter(|b| rng.random_range(0..4) > 0 && ok.contains(b)) {
                Some(b) => b,
                None => ok[rng.random_range(0..ok.len())].clone(),
            }
        };
        let a = vnot::parse_action(&state, &mv).expect("move");
        let (revealed, captured) = gui.play(&mv, &mut rng);
        let role = |c: Option<char>| c.map(|c| Role::from_char(c.to_ascii_uppercase()).expect("type letter"));
        let want = ChanceOutcome { mover: role(revealed), captured: role(captured) };
        game.play(a, |outs| {
            outs.iter().map(|(o, _)| *o).find(|o| *o == want).unwrap_or_else(|| panic!("{mv}: JieqiBox's reveal {want:?} is not among {outs:?}"))
        });
        let true_board = engine::variant::fen::write(game.state());
        assert_eq!(true_board.split(' ').next(), Some(gui.board_field().as_str()), "the boards agree after {mv}");
        counts.plies += 1;
    }
    counts
}

#[test]
fn jieqibox_plays_whole_games_in_both_modes() {
    let games: u64 = std::env::var("ANQI_JIEQIBOX_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(8);
    let max_plies: usize = std::env::var("ANQI_JIEQIBOX_PLIES").ok().and_then(|v| v.parse().ok()).unwrap_or(400);
    let mut engine = Engine::start();
    // The handshake: `uci`, and `isready` on `uciok`.
    engine.send("uci");
    let lines = engine.until("uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name anqi")));
    engine.send("isready");
    engine.until("readyok");
    let mut total = Counts::default();
    let mut ended = 0;
    for g in 0..games {
        // Normal and Human-vs-AI mode (the engine Red or Black), new and old FEN format.
        let ai_red = match g % 4 {
            0 | 1 => None,
            2 => Some(g % 8 < 4),
            _ => Some(g % 8 >= 4),
        };
        let new_format = g % 2 == 0;
        // Every other four games from a loaded late position (the pool empties).
        let late = (g / 4) % 2 == 1;
        let c = play_game(0x1ea0_0000 + g, late, new_format, ai_red, max_plies, &mut engine);
        eprintln!("game {g}: {} mode {} format {}: {c:?}", if late { "late start," } else { "start," }, ai_red.map_or("normal".to_string(), |r| format!("human-vs-ai (engine {})", if r { "red" } else { "black" })), if new_format { "new" } else { "old" });
        ended += usize::from(c.ended.is_some());
        total.plies += c.plies;
        total.engine_moves += c.engine_moves;
        total.with_moves += c.with_moves;
        total.with_captured += c.with_captured;
        total.empty_pool += c.empty_pool;
        total.blank_pool += c.blank_pool;
        total.pool_beyond_face_down += c.pool_beyond_face_down;
        total.ponder += c.ponder;
        total.longest_pv = total.longest_pv.max(c.longest_pv);
    }
    eprintln!("{games} games ({ended} ended by the rules), {} plies, {} bestmoves checked: {total:?}", total.plies, total.engine_moves);
    assert!(total.engine_moves > 0);
}
