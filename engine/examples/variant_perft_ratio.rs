//! The `anqi perft --bench --variant` ratio without the CLI (no libtorch link), to iterate on
//! variant perft speed: `cargo run --release -p anqi-engine --example variant_perft_ratio --
//! [preset ...]` (default: every preset). Each preset's start-position perft (Surprise layouts
//! C3,B, as the CLI bench) is timed right after a core perft of the standard start position at
//! depth 5, and the ratio of their nodes/s is printed, so load on the machine affects both alike.
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

fn core_rate() -> f64 {
    let mut pos = fen::parse(fen::START).expect("start");
    let t = Instant::now();
    let n = perft(&mut pos, 5);
    n as f64 / t.elapsed().as_secs_f64()
}

fn main() {
    let mut names: Vec<String> = std::env::args().skip(1).collect();
    if names.is_empty() {
        names = config::preset_names().map(str::to_string).collect();
    }
    println!("{:<22} {:>5} {:>14} {:>9} {:>10} {:>10} {:>7}", "variant", "depth", "nodes", "seconds", "Mnps", "core Mnps", "ratio");
    for name in names {
        let v: &'static Variant = Box::leak(Box::new(Variant::load(&name).expect("variant")));
        let s = State::start(v, Some(("C3", "B"))).expect("start");
        let d = depth(&name);
        let core = core_rate();
        let t = Instant::now();
        let n = vperft::perft(&s, d);
        let secs = t.elapsed().as_secs_f64();
        let rate = n as f64 / secs;
        println!(
            "{name:<22} {d:>5} {n:>14} {secs:>9.3} {:>10.1} {:>10.1} {:>7.2}",
            rate / 1e6,
            core / 1e6,
            rate / core
        );
    }
}
