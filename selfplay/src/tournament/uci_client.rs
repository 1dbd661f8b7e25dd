//! The client side of UCI for xiangqi: starts an external engine as a subprocess and asks it for
//! moves (Pikafish's dialect, which `anqi uci` also speaks).
//!
//! Session: `uci` … `uciok`; `setoption name K value V` for each configured option, and
//! `setoption name UCI_Variant value <variant>` for any variant other than `xiangqi` (the engine
//! must announce that option); `isready` … `readyok`. Per game `ucinewgame`, `isready`. Per move
//! `position fen <start FEN> moves <m1> <m2> …` then the budget's `go …`, answered by
//! `bestmove <move>`. Moves are the record strings of the game (ICCS, with Pikafish's Jieqi
//! reveal letters, RULES.md §F8), and the start is the full-state FEN of RULES.md §N.
//!
//! **Information caveat**: in Surprise and the owner's-choice Fan-qi modes the full-state FEN
//! lists both sides' hidden set-ups, so an external engine plays those variants as an oracle; in
//! xiangqi, King chess, Jieqi and the random Fan-qi modes the start FEN (a pool, no identities)
//! and the reveal letters are public, except the identity of a captured face-down piece, which
//! RULES.md §F6 shows only to the capturer.
//!
//! Every wait has a timeout; an engine that dies, stalls or answers nonsense yields an error (the
//! tournament scores it as a forfeit). The process is sent `quit` and killed on drop.

use anyhow::{anyhow, bail, Context};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long the handshake (`uci`, options, `isready`) may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(20);

/// A running UCI engine.
pub struct UciClient {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<String>,
    /// `id name` as announced (or the program name).
    pub name: String,
    /// Names of the options the engine announced.
    pub options: Vec<String>,
    /// Every line received, most recent last (kept short: for error messages).
    recent: Vec<String>,
}

impl UciClient {
    /// Starts `program args…`, runs the handshake, sets `options` and the variant.
    ///
    /// # Errors
    /// The program cannot start, or does not complete the handshake in time, or lacks
    /// `UCI_Variant` for a variant other than `xiangqi`.
    pub fn start(program: &str, args: &[String], options: &BTreeMap<String, String>, variant: &str) -> anyhow::Result<UciClient> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting UCI engine {program:?}"))?;
        let stdin = child.stdin.take().ok_or_else(|| anyhow!("no stdin"))?;
        let stdout = child.stdout.take().ok_or_else(|| anyhow!("no stdout"))?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut c = UciClient { child, stdin, rx, name: program.to_string(), options: Vec::new(), recent: Vec::new() };
        c.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let line = c.recv_until(deadline, "uciok")?;
            if let Some(n) = line.strip_prefix("id name ") {
                c.name = n.trim().to_string();
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                c.options.push(name.to_string());
            } else if line.trim() == "uciok" {
                break;
            }
        }
        for (k, v) in options {
            c.send(&format!("setoption name {k} value {v}"))?;
        }
        if variant != "xiangqi" {
            if !c.options.iter().any(|o| o.eq_ignore_ascii_case("UCI_Variant")) {
                bail!("UCI engine {:?} has no UCI_Variant option, so it cannot play {variant:?}", c.name);
            }
            c.send(&format!("setoption name UCI_Variant value {variant}"))?;
        }
        c.ready(Instant::now() + HANDSHAKE_TIMEOUT)?;
        Ok(c)
    }

    fn send(&mut self, line: &str) -> anyhow::Result<()> {
        writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).with_context(|| format!("UCI engine {:?}: writing {line:?}", self.name))
    }

    /// The next line, waiting until `deadline`.
    fn recv_until(&mut self, deadline: Instant, waiting_for: &str) -> anyhow::Result<String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(left) {
            Ok(line) => {
                if self.recent.len() >= 8 {
                    self.recent.remove(0);
                }
                self.recent.push(line.clone());
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => bail!("UCI engine {:?}: no {waiting_for} in time (last lines: {:?})", self.name, self.recent),
            Err(RecvTimeoutError::Disconnected) => {
                bail!("UCI engine {:?} exited while we waited for {waiting_for} (last lines: {:?})", self.name, self.recent)
            }
        }
    }

    fn ready(&mut self, deadline: Instant) -> anyhow::Result<()> {
        self.send("isready")?;
        loop {
            if self.recv_until(deadline, "readyok")?.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    /// `ucinewgame` and `isready`.
    ///
    /// # Errors
    /// The engine died or stalled.
    pub fn new_game(&mut self) -> anyhow::Result<()> {
        self.send("ucinewgame")?;
        self.ready(Instant::now() + HANDSHAKE_TIMEOUT)
    }

    /// Sends the position and `go`, and returns the `bestmove` text (`None` for `(none)`/`0000`).
    ///
    /// # Errors
    /// The engine died, stalled past `timeout`, or sent a malformed `bestmove`.
    pub fn best_move(&mut self, start_fen: &str, moves: &[String], go: &str, timeout: Duration) -> anyhow::Result<Option<String>> {
        let mut pos = format!("position fen {start_fen}");
        if !moves.is_empty() {
            pos.push_str(" moves ");
            pos.push_str(&moves.join(" "));
        }
        self.send(&pos)?;
        self.send(go)?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.recv_until(deadline, "bestmove")?;
            let mut t = line.split_whitespace();
            if t.next() == Some("bestmove") {
                return match t.next() {
                    None => bail!("UCI engine {:?}: empty bestmove", self.name),
                    Some("(none)") | Some("0000") => Ok(None),
                    Some(m) => Ok(Some(m.to_string())),
                };
            }
        }
    }
}

impl Drop for UciClient {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_millis(500);
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

/// Splits `uci:<program> [args…]` into program and arguments (`None` for other specs).
pub fn parse_spec(spec: &str) -> Option<(String, Vec<String>)> {
    let rest = spec.strip_prefix("uci:")?;
    let mut parts = rest.split_whitespace().map(str::to_string);
    let program = parts.next()?;
    Some((program, parts.collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_parsing() {
        assert_eq!(parse_spec("uci:/bin/eng"), Some(("/bin/eng".into(), vec![])));
        assert_eq!(parse_spec("uci:target/release/anqi uci --hash 4"), Some(("target/release/anqi".into(), vec!["uci".into(), "--hash".into(), "4".into()])));
        assert_eq!(parse_spec("greedy"), None);
        assert_eq!(parse_spec("uci:"), None);
    }

    #[test]
    fn missing_program_is_an_error() {
        let e = UciClient::start("/nonexistent/engine", &[], &BTreeMap::new(), "xiangqi").err().expect("no such program");
        assert!(format!("{e:#}").contains("starting UCI engine"));
    }
}
