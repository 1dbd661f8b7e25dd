//! Helpers shared by the farm's integration tests (`mod common;` in each test file, the cargo
//! pattern for code that is no test of its own).

use engine::variant::game::VariantGame;
use engine::variant::State;
use rand::Rng;

/// The game from `start` after `plies` uniformly random plies, or fewer where it ends first:
/// each player action drawn uniformly among the legal ones, then each chance outcome uniformly
/// among the outcomes (not by their probabilities), both with `rng`, in that order.
pub fn random_walk(start: State, plies: usize, rng: &mut impl Rng) -> VariantGame {
    let mut g = VariantGame::new(start);
    for _ in 0..plies {
        if g.outcome().is_some() {
            break;
        }
        let acts = g.state().legal_actions();
        let a = acts[rng.random_range(0..acts.len())];
        g.play(a, |outs| outs[rng.random_range(0..outs.len())].0);
    }
    g
}
