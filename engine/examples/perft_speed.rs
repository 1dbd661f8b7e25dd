//! Quick single-thread perft timing without the CLI (no libtorch link):
//! `cargo run --release -p anqi-engine --example perft_speed -- [depth] [variant]`.
use engine::notation::fen;
use engine::perft::{perft, perft_copy};
use engine::variant::{perft as vperft, State, Variant};
use std::time::Instant;

fn main() {
    let d: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    if let Some(name) = std::env::args().nth(2) {
        let v: &'static Variant = engine::any_game::load_variant(&name).expect("variant");
        let s = State::start(v, Some(("C3", "B"))).expect("start");
        let t = Instant::now();
        let n = vperft::perft(&s, d);
        let secs = t.elapsed().as_secs_f64();
        println!("{name}: nodes {n} in {secs:.3}s = {:.1} Mnps", n as f64 / secs / 1e6);
        return;
    }
    let mut pos = fen::parse(fen::START).expect("start");
    let t = Instant::now();
    let n = perft(&mut pos, d);
    let s = t.elapsed().as_secs_f64();
    println!("make/unmake: nodes {n} in {s:.3}s = {:.1} Mnps", n as f64 / s / 1e6);
    let t = Instant::now();
    let n = perft_copy(&pos, d);
    let s = t.elapsed().as_secs_f64();
    println!("copy-make:   nodes {n} in {s:.3}s = {:.1} Mnps", n as f64 / s / 1e6);
}
