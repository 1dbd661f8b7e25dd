//! Helpers shared by the farm's integration tests (`mod common;` in each test file, the cargo
//! pattern for code that is no test of its own). Each test file uses some of them.
#![allow(dead_code)]

use engine::variant::game_state::VariantGameState;
use engine::variant::{State, Variant};
use models::checkpoint::{self, SaveInfo};
use models::net::{Net, NetConfig};
use rand::Rng;
use std::path::Path;

/// An untrained net of one block and 8 channels with the weights of `seed`. `Net::new` seeds
/// libtorch's global generator, so the tests of one file (threads of one process) make their
/// nets one at a time.
pub fn untrained_net(seed: u64) -> Net {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _held = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    Net::new(&NetConfig::new(1, 8), tch::Device::Cpu, seed)
}

/// Saves `net` as a step-0 checkpoint for `variant` with training config `config` in `dir`.
pub fn save_checkpoint(dir: &Path, net: &Net, variant: &str, config: serde_json::Value) {
    let info = SaveInfo { step: 0, variant, config, git_revision: "test", trainer: serde_json::json!({}) };
    checkpoint::save(dir, net, None, info).expect("save");
}

/// Saves an untrained net ([`untrained_net`] of `seed`) for `variant` in `dir`, with an empty
/// training config ([`save_checkpoint`]).
pub fn save_untrained(dir: &Path, variant: &str, seed: u64) {
    save_checkpoint(dir, &untrained_net(seed), variant, serde_json::json!({}));
}

/// The game from `start` after `plies` uniformly random plies, or fewer where it ends first:
/// each player action drawn uniformly among the legal ones, then each chance outcome uniformly
/// among the outcomes (not by their probabilities), both with `rng`, in that order.
pub fn random_walk(start: State, plies: usize, rng: &mut impl Rng) -> VariantGameState {
    let mut g = VariantGameState::unbounded(start);
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

/// A position of a new game of `v` ([`State::new_game`]) where a player has a real decision (the
/// game goes on, no chance or set-up is pending, at least two legal actions), reached by
/// `rng.random_range(0..max_plies)` random plies ([`random_walk`]); walks again from the start
/// until one is found.
pub fn random_decision(v: &'static Variant, max_plies: usize, rng: &mut impl Rng) -> State {
    loop {
        let plies = rng.random_range(0..max_plies);
        let g = random_walk(State::new_game(v), plies, rng);
        let s = g.state();
        if g.outcome().is_none() && !s.is_chance() && !s.in_setup() && s.legal_actions().len() >= 2 {
            return s.clone();
        }
    }
}
