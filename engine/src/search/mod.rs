//! Bots behind one [`Bot`] trait. Bots see a full [`State`] here only through what they are
//! handed; the hidden-information bots of issue #4 will take a player's view instead.

pub mod alphabeta;

use crate::piece::Role;
use crate::variant::{Action, State};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A move chooser. Deterministic given its seed.
pub trait Bot: Send {
    /// Name for records and reports.
    fn name(&self) -> String;
    /// Chooses one of `state.legal_actions()` (non-empty).
    fn choose(&mut self, state: &State) -> Action;
}

/// Uniformly random legal actions.
pub struct RandomBot {
    rng: Pcg64Mcg,
}

impl RandomBot {
    /// A random bot with `seed`.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { rng: Pcg64Mcg::seed_from_u64(seed) }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }
    fn choose(&mut self, state: &State) -> Action {
        let acts = state.legal_actions();
        acts[self.rng.random_range(0..acts.len())]
    }
}

/// Material value of a type in points (chariot 9, cannon 4.5, horse 4, advisor/elephant 2,
/// soldier 1, general 1000): the usual xiangqi scale, used by `greedy`.
pub fn material(role: Role) -> i32 {
    match role {
        Role::General => 100_000,
        Role::Chariot => 900,
        Role::Cannon => 450,
        Role::Horse => 400,
        Role::Advisor | Role::Elephant => 200,
        Role::Soldier => 100,
    }
}

/// One-ply material greedy: takes the capture of highest value (face-down pieces count as the
/// type they move as), random among equals; otherwise a random action.
pub struct GreedyBot {
    rng: Pcg64Mcg,
}

impl GreedyBot {
    /// A greedy bot with `seed`.
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot { rng: Pcg64Mcg::seed_from_u64(seed) }
    }
}

impl Bot for GreedyBot {
    fn name(&self) -> String {
        "greedy".into()
    }
    fn choose(&mut self, state: &State) -> Action {
        let acts = state.legal_actions();
        let pos = state.position();
        let score = |a: &Action| match *a {
            Action::Move { to, .. } => pos.piece_at(to).map(|p| material(p.role)).unwrap_or(0),
            _ => 0,
        };
        let best = acts.iter().map(score).max().unwrap_or(0);
        let top: Vec<Action> = acts.iter().copied().filter(|a| score(a) == best).collect();
        top[self.rng.random_range(0..top.len())]
    }
}

/// Builds a bot from a spec (`random`, `greedy`, `alphabeta`, `alphabeta:depth=4`,
/// `alphabeta:nodes=N`), seeded (`alphabeta` is deterministic and ignores the seed).
///
/// # Errors
/// The unknown spec, as text.
pub fn from_spec(spec: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    match spec {
        "random" => Ok(Box::new(RandomBot::new(seed))),
        "greedy" => Ok(Box::new(GreedyBot::new(seed))),
        s if s == "alphabeta" || s.starts_with("alphabeta:") => {
            Ok(Box::new(alphabeta::AlphaBetaBot::from_params(s.trim_start_matches("alphabeta").trim_start_matches(':'))?))
        }
        other => Err(format!("unknown bot {other:?} (known: random, greedy, alphabeta[:depth=N,nodes=N,ms=N])")),
    }
}
