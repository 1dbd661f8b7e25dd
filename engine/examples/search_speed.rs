//! Alpha-beta nodes per second on fixed positions and depths (issue 19's cost check of the
//! repetition rules: they run only when a position repeats, so the speed must not change).
//!
//! `cargo run --release -p anqi-engine --example search_speed [DEPTH] [RUNS]` prints, per position,
//! the nodes and the best nodes/s over RUNS runs (default depth 8, 3 runs), then the total.

use engine::notation::fen;
use engine::search::alphabeta::{Limits, Searcher};
use std::time::Instant;

const POSITIONS: [&str; 4] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3",
    "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
    "3k5/9/9/9/4n4/9/5C3/9/4N4/4K4 w - - 0 1",
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(8);
    let runs: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3);
    let (mut nodes_all, mut secs_all) = (0u64, 0f64);
    for f in POSITIONS {
        let pos = fen::parse(f).expect("fen");
        let mut best = f64::MAX;
        let mut nodes = 0;
        for _ in 0..runs {
            let mut s = Searcher::new(16);
            let t = Instant::now();
            let r = s.search(&pos, &[], &Limits::depth(depth), &mut |_| {});
            let secs = t.elapsed().as_secs_f64();
            nodes = r.nodes;
            best = best.min(secs);
        }
        println!("{f}  depth {depth}  nodes {nodes}  nps {:.0}", nodes as f64 / best);
        nodes_all += nodes;
        secs_all += best;
    }
    println!("total nodes {nodes_all}  nps {:.0}", nodes_all as f64 / secs_all);
}
