//! The `anqi perft --bench --variant` ratio without the CLI (no libtorch link), to iterate on
//! variant perft speed: `cargo run --release -p anqi-engine --example variant_perft_ratio --
//! [preset ...]` (default: every preset). Each preset's start-position perft (Surprise layouts
//! C3,B, as the CLI bench) is timed right after a core perft of the standard start position at
//! depth 5, and the ratio of their nodes/s is printed, so load on the machine affects both alike.
//!
//! On a loaded machine, `ROUNDS=n` runs n short alternating pairs instead (core depth 4, the
//! preset one ply less than the CLI bench) and compares the best time of each: load only ever
//! slows a run down, so the minima are the least disturbed.
use engine::notation::fen;
use engine::perft::perft;
use engine::variant::{config, perft as vperft, State, Variant};
use std::time::Instant;

/// The CLI bench's depth per preset (`selfplay/src/cli/perft.rs`).
fn depth(name: &str) -> u32 {
    match name {
        "xiangqi" | "surprise" | "surprise-negotiation" | "fanqi-1" | "fanqi-2" | "fanqi-3" | "fanqi-5" | "fanqi-7"
        | "fanqi-9" => 5,
        _ => 4,
    }
}

/// Seconds and nodes of one timed run.
fn timed(f: impl FnOnce() -> u64) -> (f64, u64) {
    let t = Instant::now();
    let n = f();
    (t.elapsed().as_secs_f64(), n)
}

fn main() {
    let mut names: Vec<String> = std::env::args().skip(1).collect();
    if names.is_empty() {
        names = config::preset_names().map(str::to_string).collect();
    }
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(0);
    let core_depth = if rounds > 0 { 4 } else { 5 };
    println!("{:<22} {:>5} {:>14} {:>9} {:>10} {:>10} {:>7}", "variant", "depth", "nodes", "seconds", "Mnps", "core Mnps", "ratio");
    for name in names {
        let v: &'static Variant = engine::any_game::load_variant(&name).expect("variant");
        let s = State::start(v, Some(("C3", "B"))).expect("start");
        let d = if rounds > 0 { depth(&name) - 1 } else { depth(&name) };
        let (mut core_secs, mut secs) = (f64::MAX, f64::MAX);
        let (mut core_n, mut n) = (0, 0);
        for _ in 0..rounds.max(1) {
            let mut pos = fen::parse(fen::START).expect("start");
            let (t, c) = timed(|| perft(&mut pos, core_depth));
            core_secs = core_secs.min(t);
            core_n = c;
            let (t, c) = timed(|| vperft::perft(&s, d));
            secs = secs.min(t);
            n = c;
        }
        let (rate, core) = (n as f64 / secs, core_n as f64 / core_secs);
        println!(
            "{name:<22} {d:>5} {n:>14} {secs:>9.3} {:>10.1} {:>10.1} {:>7.2}",
            rate / 1e6,
            core / 1e6,
            rate / core
        );
    }
}
