//! Nodes per second of the one alpha-beta on the RULES-more.md games (the copy-make adapter
//! `engine::search::alphabeta::GameNode`), on positions of random games of a preset.
//!
//! `cargo run --release -p anqi-engine --example game_search_speed -- [PRESET] [DEPTH] [POSITIONS]`
//! (default `missile 4 6`) prints, per position, the nodes, the best action and the nodes/s, then
//! the total.
use engine::game::Turn;
use engine::more::presets::{with_game, Playable, WithGame};
use engine::search::alphabeta::{GameAlphaBetaBot, Limits};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

struct Speed {
    depth: u32,
    positions: usize,
}

impl WithGame for Speed {
    type Output = ();
    fn run<G: Playable>(self, start: G) {
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let (mut nodes_all, mut secs_all, mut done) = (0u64, 0f64, 0);
        while done < self.positions {
            let mut g = start.clone();
            for _ in 0..rng.random_range(4..40) {
                match g.turn() {
                    Turn::Player(_) => {
                        let l = g.legal_actions();
                        g.apply(l[rng.random_range(0..l.len())]);
                    }
                    Turn::Chance => {
                        let o = g.chance_outcomes();
                        g.apply(o[rng.random_range(0..o.len())].0);
                    }
                    Turn::Terminal => break,
                }
            }
            if !matches!(g.turn(), Turn::Player(_)) {
                continue;
            }
            let mut bot = GameAlphaBetaBot::<G>::new(Limits::depth(self.depth), 16);
            let t = Instant::now();
            let r = bot.search(&g);
            let secs = t.elapsed().as_secs_f64();
            println!("position {done}: depth {} nodes {} best {:?} nps {:.0}", r.depth, r.nodes, r.best.map(|a| g.action_string(a)), r.nodes as f64 / secs.max(1e-9));
            nodes_all += r.nodes;
            secs_all += secs;
            done += 1;
        }
        println!("total nodes {nodes_all}  nps {:.0}", nodes_all as f64 / secs_all.max(1e-9));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let preset = args.first().map(String::as_str).unwrap_or("missile");
    let depth = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4);
    let positions = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(6);
    with_game(preset, None, Speed { depth, positions }).expect("preset");
}
