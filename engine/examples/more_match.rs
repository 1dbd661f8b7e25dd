//! Head-to-head of two bot specs ([`engine::search::game_bot::from_spec`]) on a RULES-more.md preset:
//! colours alternating, the first two plies random (shared by each pair of games), 300 plies then
//! a draw; A's score and each side's thinking time. Used to check that the one IS-MCTS
//! (`engine::search::ismcts`, Cowling, Powley and Whitehouse 2012) plays these games as well as
//! the simpler IS-MCTS it replaced (issue #17 item 1).
//!
//! `cargo run --release -p anqi-engine --example more_match -- PRESET SPEC_A SPEC_B [GAMES]`
//! (default 10 games).
#[path = "common/head_to_head.rs"]
mod head_to_head;
use head_to_head::head_to_head;
use engine::search::game_bot::from_spec;
use engine::more::presets::{with_game, Playable, WithGame};

struct Match {
    a: String,
    b: String,
    games: u32,
}

impl WithGame for Match {
    type Output = ();
    fn run<G: Playable>(self, start: G) {
        head_to_head(&start, self.games, &self.a, &self.b, |s: &str, seed: u64| from_spec::<G>(s, seed).expect("spec"));
    }
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let games = a.get(3).and_then(|g| g.parse().ok()).unwrap_or(10);
    with_game(&a[0], None, Match { a: a[1].clone(), b: a[2].clone(), games }).expect("preset");
}
