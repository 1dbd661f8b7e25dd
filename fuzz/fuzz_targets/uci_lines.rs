//! UCI input lines: the `anqi uci` engine loop (`selfplay::uci::run`) in-process, over a reader
//! holding the input's lines and a writer the harness reads back.
//!
//! The harness keeps runs short and inside the input: each `go …` line's arguments go to
//! `selfplay::uci::parse_go` (the parser fuzzed as is) and the engine is sent `go depth 1`; a
//! `Hash` value is capped at 4 MiB (the engine's own cap is half the machine's memory); an
//! `EvalFile` line is dropped (its value names a file to read). At most 32 lines.
//!
//! Invariant: every `go` the engine read before `quit` or the end of input is answered by
//! exactly one `bestmove`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use selfplay::uci::{self, Config};
use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The line the engine is sent instead of `line`, or `None` to drop it.
fn tame(line: &str, xiangqi: &engine::variant::State) -> Option<String> {
    let t: Vec<&str> = line.split_whitespace().collect();
    match t.first().copied() {
        Some("go") => {
            let _ = uci::parse_go(&t[1..], xiangqi);
            Some("go depth 1".into())
        }
        Some("setoption") => {
            let lower = line.to_ascii_lowercase();
            if lower.contains("evalfile") {
                return None;
            }
            if lower.split_whitespace().nth(2) == Some("hash") {
                if let Some(i) = t.iter().position(|w| w.eq_ignore_ascii_case("value")) {
                    if let Some(mb) = t.get(i + 1).and_then(|v| v.parse::<u64>().ok()) {
                        return Some(format!("{} {}", t[..=i].join(" "), mb.min(4)));
                    }
                }
            }
            Some(line.to_string())
        }
        _ => Some(line.to_string()),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let xiangqi = engine::variant::State::start(engine::any_game::load_variant("xiangqi").expect("xiangqi"), None).expect("start");
    let lines: Vec<String> = text.lines().take(32).filter_map(|l| tame(l, &xiangqi)).collect();
    let read: Vec<&String> = lines.iter().take_while(|l| l.split_whitespace().next() != Some("quit")).collect();
    let gos = read.iter().filter(|l| l.split_whitespace().next() == Some("go")).count();
    let out = Shared::default();
    let input = lines.join("\n");
    let config = Config { hash_mb: 1, ..Config::default() };
    uci::run(input.as_bytes(), out.clone(), &config).expect("the engine loop over an in-memory reader");
    let written = String::from_utf8(out.0.lock().unwrap_or_else(|e| e.into_inner()).clone()).expect("UTF-8 output");
    let bestmoves = written.lines().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(bestmoves, gos, "{gos} go commands, {bestmoves} bestmove answers; input {input:?}, output {written:?}");
});
