//! IS-MCTS iterations per second on the variants (issue #17 item 1's speed gate for the one
//! IS-MCTS, after Cowling, Powley and Whitehouse 2012): the `ismcts` bot, SO and MO, on fixed
//! random positions, best of RUNS runs per position.
//!
//! `cargo run --release -p anqi-engine --example ismcts_speed -- [VARIANT] [ITERATIONS] [RUNS]`
//! (default `surprise 2000 3`).
use engine::search;
use engine::variant::game::draw_outcome;
use engine::variant::game_state::VariantGameState;
use engine::variant::{State, Variant};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

/// 12 decision positions from random games (every sixth ply from ply 6).
fn positions(v: &'static Variant, seed: u64) -> Vec<State> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < 12 {
        let mut g = VariantGameState::unbounded(State::start(v, Some(("A", "A"))).or_else(|_| State::start(v, None)).expect("start"));
        while g.outcome().is_none() && out.len() < 12 && g.plies() < 120 {
            let l = g.state().legal_actions();
            let a = l[rng.random_range(0..l.len())];
            g.play(a, |outs| draw_outcome(outs, &mut rng));
            if g.plies().is_multiple_of(6) && g.outcome().is_none() && g.state().legal_actions().len() > 1 {
                out.push(g.state().clone());
            }
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map(String::as_str).unwrap_or("surprise");
    let iterations: u64 = args.get(1).and_then(|g| g.parse().ok()).unwrap_or(2000);
    let runs: u32 = args.get(2).and_then(|g| g.parse().ok()).unwrap_or(3);
    let v: &'static Variant = engine::any_game::load_variant(name).expect("variant");
    let states = positions(v, 7);
    for mode in ["so", "mo"] {
        let spec = format!("ismcts:iterations={iterations},mode={mode}");
        let (mut work, mut secs) = (0u64, 0f64);
        for s in &states {
            let mut best = f64::MAX;
            for _ in 0..runs {
                let mut bot = search::from_spec::<VariantGameState>(&spec, 1).expect("spec");
                let g = VariantGameState::new(s.clone());
                let t = Instant::now();
                let an = bot.analyse(&g);
                best = best.min(t.elapsed().as_secs_f64());
                assert_eq!(an.work, iterations);
            }
            work += iterations;
            secs += best;
        }
        println!("{name} {spec}: {work} iterations in {secs:.3} s (best of {runs} per position): {:.0} iterations/s", work as f64 / secs);
    }
}
