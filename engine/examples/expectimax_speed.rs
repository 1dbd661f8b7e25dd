//! Expectimax nodes per second on fixed random positions of four variants (issue #17 item 1's
//! cost check of the generic expectimax: the variants' search must not slow down).
//!
//! `cargo run --release -p anqi-engine --example expectimax_speed [DEPTH] [RUNS]` prints, per
//! variant, the nodes and the best nodes/s over RUNS runs (default depth 3, 3 runs) of
//! [`Expectimax::search`] (quiescence 4, 200 000 nodes per search) over 8 positions, then the
//! total.

use engine::search::expectimax::{Expectimax, ExpectimaxConfig};
use engine::variant::game_state::VariantGameState;
use engine::variant::{State, Variant};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

fn positions(v: &'static Variant, n: usize) -> Vec<State> {
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let mut out = Vec::new();
    while out.len() < n {
        let mut game = VariantGameState::unbounded(State::new_game(v));
        for _ in 0..rng.random_range(4..=40) {
            if game.outcome().is_some() {
                break;
            }
            let acts = game.state().legal_actions();
            let a = acts[rng.random_range(0..acts.len())];
            game.play(a, |outs| outs[rng.random_range(0..outs.len())].0);
        }
        let s = game.state();
        if game.outcome().is_none() && !s.is_chance() && !s.in_setup() && s.legal_actions().len() >= 2 {
            out.push(s.clone());
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    let runs: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3);
    let cfg = ExpectimaxConfig { depth, qdepth: 4, nodes: Some(200_000), ms: None, samples: 1, ..ExpectimaxConfig::default() };
    let (mut nodes_all, mut secs_all) = (0u64, 0f64);
    for name in ["surprise", "jieqi", "fanqi-9", "xiangqi"] {
        let v: &'static Variant = engine::any_game::load_variant(name).expect("preset");
        let ps = positions(v, 8);
        let mut best = f64::MAX;
        let mut nodes = 0;
        for _ in 0..runs {
            let t = Instant::now();
            nodes = ps.iter().map(|s| Expectimax::new(cfg.clone()).search(s).nodes).sum();
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!("{name:10} depth {depth}  nodes {nodes:9}  nps {:.0}", nodes as f64 / best);
        nodes_all += nodes;
        secs_all += best;
    }
    println!("total nodes {nodes_all}  nps {:.0}", nodes_all as f64 / secs_all);
}
