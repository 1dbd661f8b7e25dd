//! The head-to-head loop shared by the `more_match` and `alphabeta_old_vs_new` examples: `games`
//! games of two bots on a RULES-more.md preset, colours alternating, the first two plies random
//! (shared by each pair of games: seeded by the pair's index), 300 plies then a draw. Prints one
//! line per game to stderr and A's score, wins/draws/losses, plies and each side's thinking time
//! (seconds) to stdout.

use engine::game::{PlayerId, Turn};
use engine::more::presets::Playable;
use engine::search::game_bot::GameBot;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

/// Plays the match; `bot(spec, seed)` builds a player (A's seeds are `100 + game`, B's `200 + game`).
pub fn head_to_head<G: Playable>(start: &G, games: u32, a: &str, b: &str, bot: impl Fn(&str, u64) -> Box<dyn GameBot<G>>) {
    let (mut pts, mut plies, mut ta, mut tb) = (0.0, 0, 0.0, 0.0);
    let (mut w, mut d, mut l) = (0, 0, 0);
    for i in 0..games {
        let mut ba = bot(a, 100 + i as u64);
        let mut bb = bot(b, 200 + i as u64);
        let a_first = i % 2 == 0;
        let mut opening = Pcg64Mcg::seed_from_u64((i / 2) as u64);
        let mut g = start.clone();
        let mut n = 0;
        while let Turn::Player(p) = g.turn() {
            if n >= 300 {
                break;
            }
            let legal = g.legal_actions();
            let a_moves = (p == PlayerId::FIRST) == a_first;
            let act = if n < 2 {
                legal[opening.random_range(0..legal.len())]
            } else {
                let t = Instant::now();
                let x = if a_moves { ba.choose(&g) } else { bb.choose(&g) };
                *(if a_moves { &mut ta } else { &mut tb }) += t.elapsed().as_secs_f64();
                x
            };
            g.apply(act);
            n += 1;
        }
        plies += n;
        let a_seat = if a_first { PlayerId::FIRST } else { PlayerId::SECOND };
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
    println!("{a} vs {b}: A scores {pts}/{games} (+{w} ={d} -{l}), {plies} plies; time A {ta:.1}s B {tb:.1}s");
}
