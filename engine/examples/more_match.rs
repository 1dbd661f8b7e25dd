//! Head-to-head of two bot specs ([`engine::search::game_bot::from_spec`]) on a RULES-more.md preset:
//! colours alternating, the first two plies random (shared by each pair of games), 300 plies then
//! a draw; A's score and each side's thinking time. Used to check that the one IS-MCTS
//! (`engine::search::ismcts`, Cowling, Powley and Whitehouse 2012) plays these games as well as
//! the simpler IS-MCTS it replaced (issue #17 item 1).
//!
//! `cargo run --release -p anqi-engine --example more_match -- PRESET SPEC_A SPEC_B [GAMES]`
//! (default 10 games).
use engine::game::Turn;
use engine::search::game_bot::from_spec;
use engine::more::presets::{with_game, Playable, WithGame};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

struct Match {
    a: String,
    b: String,
    games: u32,
}

impl WithGame for Match {
    type Output = ();
    fn run<G: Playable>(self, start: G) {
        let (mut pts, mut plies, mut ta, mut tb) = (0.0, 0, 0.0, 0.0);
        let (mut w, mut d, mut l) = (0, 0, 0);
        for i in 0..self.games {
            let mut ba = from_spec::<G>(&self.a, 100 + i as u64).expect("spec a");
            let mut bb = from_spec::<G>(&self.b, 200 + i as u64).expect("spec b");
            let a_first = i % 2 == 0;
            let mut opening = Pcg64Mcg::seed_from_u64((i / 2) as u64);
            let mut g = start.clone();
            let mut n = 0;
            while let Turn::Player(p) = g.turn() {
                if n >= 300 {
                    break;
                }
                let legal = g.legal_actions();
                let a_moves = (p == engine::game::PlayerId::FIRST) == a_first;
                let act = if n < 2 {
                    legal[opening.random_range(0..legal.len())]
                } else if a_moves {
                    let t = Instant::now();
                    let x = ba.choose(&g);
                    ta += t.elapsed().as_secs_f64();
                    x
                } else {
                    let t = Instant::now();
                    let x = bb.choose(&g);
                    tb += t.elapsed().as_secs_f64();
                    x
                };
                g.apply(act);
                n += 1;
            }
            plies += n;
            let a_seat = if a_first { engine::game::PlayerId::FIRST } else { engine::game::PlayerId::SECOND };
            let r = if g.is_terminal() { g.returns(a_seat) } else { 0.0 };
            if r > 0.0 {
                w += 1;
                pts += 1.0
            } else if r < 0.0 {
                l += 1
            } else {
                d += 1;
                pts += 0.5
            }
            eprintln!("game {i}: a {} plies {n} result for a {r}", if a_first { "first" } else { "second" });
        }
        println!("{} vs {}: A scores {pts}/{} (+{w} ={d} -{l}), {plies} plies; time A {ta:.1}s B {tb:.1}s", self.a, self.b, self.games);
    }
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let games = a.get(3).and_then(|g| g.parse().ok()).unwrap_or(10);
    with_game(&a[0], None, Match { a: a[1].clone(), b: a[2].clone(), games }).expect("preset");
}
