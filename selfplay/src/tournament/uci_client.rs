//! The client side of UCI for xiangqi: starts an external engine as a subprocess and asks it for
//! moves, in the engine's [`Dialect`] (anqi's and Pikafish's ICCS ranks 0-9, or
//! Fairy-Stockfish's ranks 1-10).
//!
//! Session: `uci` … `uciok` (the `id name` picks the dialect unless the player's configuration
//! names one); `setoption name K value V` for each configured option, and
//! `setoption name UCI_Variant value <variant>` for any variant other than `xiangqi`, and for
//! xiangqi too in the Fairy-Stockfish dialect (the engine must announce that option, and when it
//! lists its values, the variant must be one); `isready` … `readyok`. Per game `ucinewgame`,
//! `isready`. Per move a `position …` line then the budget's `go …`, answered by
//! `bestmove <move>`. What the position line holds is decided by [`super::engine_view`]: only
//! what the engine's side may know (the start FEN and the record in open games; a view FEN and
//! the quiet tail for an anqi-dialect engine in the hidden ones; the public start FEN and the
//! record with unseen capture letters dropped for a Pikafish-dialect engine in Jieqi);
//! [`position_command`] writes the plain `position fen <start FEN> moves <m1> <m2> …` form, moves
//! and FEN as the dialect writes them ([`Dialect::move_out`], [`Dialect::fen`]); the `bestmove`
//! is read back with [`Dialect::move_in`].
//!
//! Every wait has a timeout; an engine that dies, stalls or answers nonsense yields an error (the
//! tournament scores it as a forfeit). An engine that dies or stays silent is an
//! [`EngineFailure`] in the error's chain, during the handshake as during a game, so that a
//! tournament forfeits the game instead of stopping (issue #39). Writing to an engine that has
//! exited gives `EPIPE`, not a SIGPIPE that would kill the whole process: starting an engine
//! sets SIGPIPE to ignored ([`ignore_sigpipe`]). The process is sent `quit` and killed on drop.

use super::dialect::Dialect;
use anyhow::{anyhow, bail, Context};
use engine::variant::State;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long the handshake (`uci`, options, `isready`) may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(20);

/// An external engine that died or stayed silent: what a tournament scores as a forfeit of the
/// engine's game rather than a reason to stop ([`super::game::PlayerKind::start`]).
#[derive(Debug, thiserror::Error)]
pub enum EngineFailure {
    /// The engine's process ended (its output closed, or writing to it failed).
    #[error("UCI engine {engine:?} exited while we {doing} (last lines: {recent:?})")]
    Exited {
        /// The engine's `id name`, else its program.
        engine: String,
        /// What we were doing: `waited for uciok`, `wrote "isready"`.
        doing: String,
        /// Its last lines.
        recent: Vec<String>,
    },
    /// The engine sent nothing we waited for in time.
    #[error("UCI engine {engine:?}: no {waiting_for} in time (last lines: {recent:?})")]
    Silent {
        /// The engine's `id name`, else its program.
        engine: String,
        /// The line we waited for: `uciok`, `readyok`, `bestmove`.
        waiting_for: String,
        /// Its last lines.
        recent: Vec<String>,
    },
}

/// Sets SIGPIPE to ignored, once per process: a write to an engine that has exited then fails
/// with `EPIPE` (an [`EngineFailure`]) instead of killing the process with status 141, which
/// `anqi`'s `main` would otherwise allow (it restores SIGPIPE's default so that `anqi … | head`
/// ends quietly; a command that starts engines gives that up).
#[cfg(unix)]
#[allow(unsafe_code)]
pub fn ignore_sigpipe() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: `signal` with SIG_IGN changes only the process's disposition of SIGPIPE; it
        // has no memory effects and is safe to call from any thread.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        }
    });
}

/// Nothing to do off unix (no SIGPIPE).
#[cfg(not(unix))]
pub fn ignore_sigpipe() {}

/// A running UCI engine.
pub struct UciClient {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<String>,
    /// `id name` as announced (or the program name).
    pub name: String,
    /// Names of the options the engine announced.
    pub options: Vec<String>,
    /// The `var` values of a `UCI_Variant` combo option, if the engine announced them.
    pub variants: Vec<String>,
    /// How the engine writes moves and FENs: as configured, else detected from `name`.
    pub dialect: Dialect,
    /// Every line received, most recent last (kept short: for error messages).
    recent: Vec<String>,
}

impl UciClient {
    /// Starts `program args…`, runs the handshake, settles the dialect (`dialect`, else
    /// [`Dialect::detect`] on the `id name`), sets `options` and the variant.
    ///
    /// # Errors
    /// The program cannot start, or does not complete the handshake in time, or lacks
    /// `UCI_Variant` (or that option's value) for a variant it must be told.
    pub fn start(
        program: &str,
        args: &[String],
        options: &BTreeMap<String, String>,
        variant: &str,
        dialect: Option<Dialect>,
    ) -> anyhow::Result<UciClient> {
        ignore_sigpipe();
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
        let mut c = UciClient {
            child,
            stdin,
            rx,
            name: program.to_string(),
            options: Vec::new(),
            variants: Vec::new(),
            dialect: Dialect::Anqi,
            recent: Vec::new(),
        };
        c.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let line = c.recv_until(deadline, "uciok")?;
            if let Some(n) = line.strip_prefix("id name ") {
                c.name = n.trim().to_string();
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                if name.eq_ignore_ascii_case("UCI_Variant") {
                    c.variants = combo_values(rest);
                }
                c.options.push(name.to_string());
            } else if line.trim() == "uciok" {
                break;
            }
        }
        c.dialect = dialect.unwrap_or_else(|| Dialect::detect(&c.name));
        for (k, v) in options {
            c.send(&format!("setoption name {k} value {v}"))?;
        }
        if variant != "xiangqi" || c.dialect.always_sets_variant() {
            if !c.options.iter().any(|o| o.eq_ignore_ascii_case("UCI_Variant")) {
                bail!("UCI engine {:?} ({} dialect) has no UCI_Variant option, so it cannot be told to play {variant:?}", c.name, c.dialect);
            }
            if !c.variants.is_empty() && !c.variants.iter().any(|v| v == variant) {
                bail!("UCI engine {:?}: its UCI_Variant does not offer {variant:?} (it offers {})", c.name, c.variants.join(", "));
            }
            c.send(&format!("setoption name UCI_Variant value {variant}"))?;
        }
        c.ready(Instant::now() + HANDSHAKE_TIMEOUT)?;
        Ok(c)
    }

    fn send(&mut self, line: &str) -> anyhow::Result<()> {
        match writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()) {
            Ok(()) => Ok(()),
            // EPIPE (SIGPIPE is ignored, [`ignore_sigpipe`]) or any other failure to write: the
            // engine's input is gone.
            Err(e) => Err(anyhow::Error::new(EngineFailure::Exited {
                engine: self.name.clone(),
                doing: format!("wrote {line:?} ({e})"),
                recent: self.recent.clone(),
            })),
        }
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
            Err(RecvTimeoutError::Timeout) => Err(anyhow::Error::new(EngineFailure::Silent {
                engine: self.name.clone(),
                waiting_for: waiting_for.to_string(),
                recent: self.recent.clone(),
            })),
            Err(RecvTimeoutError::Disconnected) => Err(anyhow::Error::new(EngineFailure::Exited {
                engine: self.name.clone(),
                doing: format!("waited for {waiting_for}"),
                recent: self.recent.clone(),
            })),
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

    /// Sends the position (the FEN of `start` and the record strings `moves`, both in the
    /// engine's dialect) and `go`, and returns the `bestmove` text in anqi's coordinates (`None`
    /// for `(none)`/`0000`).
    ///
    /// # Errors
    /// The engine died, stalled past `timeout`, or sent a malformed `bestmove` (or one off the
    /// board in its dialect).
    pub fn best_move(&mut self, start: &State, moves: &[String], go: &str, timeout: Duration) -> anyhow::Result<Option<String>> {
        let pos = position_command(self.dialect, start, moves);
        self.best_move_at(&pos, go, timeout)
    }

    /// The engine's dialect (configured or detected).
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Sends the `position …` line `pos` (see [`super::engine_view::position_for`]) and `go`;
    /// the engine's best move in anqi's coordinates, `None` for `(none)` / `0000`.
    ///
    /// # Errors
    /// The engine died, timed out or answered malformed text.
    pub fn best_move_at(&mut self, pos: &str, go: &str, timeout: Duration) -> anyhow::Result<Option<String>> {
        self.send(pos)?;
        self.send(go)?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.recv_until(deadline, "bestmove")?;
            let mut t = line.split_whitespace();
            if t.next() == Some("bestmove") {
                return match t.next() {
                    None => bail!("UCI engine {:?}: empty bestmove", self.name),
                    Some("(none)") | Some("0000") => Ok(None),
                    Some(m) => Ok(Some(self.dialect.move_in(m).with_context(|| format!("UCI engine {:?}", self.name))?)),
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

/// The `position fen … moves …` line for `start` and `moves` in `dialect`.
pub fn position_command(dialect: Dialect, start: &State, moves: &[String]) -> String {
    let mut pos = format!("position fen {}", dialect.fen(start));
    if !moves.is_empty() {
        pos.push_str(" moves");
        for m in moves {
            pos.push(' ');
            pos.push_str(&dialect.move_out(m));
        }
    }
    pos
}

/// The `var` values of an `option name … type combo … var A var B` line (after `option name `).
fn combo_values(rest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut words = rest.split_whitespace();
    while let Some(w) = words.next() {
        if w == "var" {
            if let Some(v) = words.next() {
                out.push(v.to_string());
            }
        }
    }
    out
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
        let e = UciClient::start("/nonexistent/engine", &[], &BTreeMap::new(), "xiangqi", None).err().expect("no such program");
        assert!(format!("{e:#}").contains("starting UCI engine"));
    }

    #[test]
    fn combo_values_are_read() {
        assert_eq!(combo_values("UCI_Variant type combo default chess var xiangqi var janggi"), vec!["xiangqi", "janggi"]);
        assert!(combo_values("Hash type spin default 16 min 1 max 33554432").is_empty());
    }

    #[test]
    fn position_commands_per_dialect() {
        let v: &'static engine::variant::Variant = engine::any_game::load_variant("jieqi").expect("jieqi");
        let s = State::start(v, None).expect("start");
        let moves = vec!["h2e2C".to_string(), "h9g7n".to_string()];
        let board = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w";
        assert_eq!(
            position_command(Dialect::Anqi, &s, &moves),
            format!("position fen {board} A2B2N2R2C2P5a2b2n2r2c2p5 0 1 moves h2e2C h9g7n")
        );
        assert_eq!(
            position_command(Dialect::Pikafish, &s, &moves),
            format!("position fen {board} R2A2C2P5N2B2r2a2c2p5n2b2 0 1 moves h2e2C h9g7n")
        );
        assert_eq!(position_command(Dialect::FairyStockfish, &s, &moves[..1]), format!("position fen {board} A2B2N2R2C2P5a2b2n2r2c2p5 0 1 moves h3e3C"));
        assert_eq!(position_command(Dialect::FairyStockfish, &s, &[]), format!("position fen {board} A2B2N2R2C2P5a2b2n2r2c2p5 0 1"));
    }
}
