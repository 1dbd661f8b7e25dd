//! Bots behind one [`Bot`] trait. A bot is handed a [`Decision`]: the deciding player's legal
//! actions, the public position and that player's [`View`]. The full state, with every hidden
//! identity, is reachable only through [`Decision::oracle_full_state`], which by name marks the
//! cheating oracle (DESIGN.md: "the oracle bot is the one place that is handed the full state").

pub mod alphabeta;

use crate::piece::{Color, Role};
use crate::position::Position;
use crate::variant::{Action, State, View};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// What a bot is handed at a decision.
pub struct Decision<'a> {
    state: &'a State,
}

impl<'a> Decision<'a> {
    /// A decision for the side to move in `state` (a decision node, not chance).
    pub fn new(state: &'a State) -> Decision<'a> {
        Decision { state }
    }

    /// The deciding player.
    pub fn player(&self) -> Color {
        self.state.turn()
    }

    /// The legal actions (public: they depend only on what both sides see, RULES.md §F7).
    pub fn legal_actions(&self) -> Vec<Action> {
        self.state.legal_actions()
    }

    /// The public position: every piece by the type it moves as (visible faces; face-down
    /// pieces as their point's type). Holds no hidden identity.
    pub fn public_position(&self) -> &Position {
        self.state.position()
    }

    /// The deciding player's view (its information set), from which determinizations are drawn.
    pub fn view(&self) -> View {
        View::new(self.state, self.player())
    }

    /// The full state with every hidden identity: for the cheating oracle only.
    pub fn oracle_full_state(&self) -> &'a State {
        self.state
    }
}

/// A move chooser. Deterministic given its seed.
pub trait Bot: Send {
    /// Name for records and reports.
    fn name(&self) -> String;
    /// Chooses one of `d.legal_actions()` (non-empty).
    fn choose(&mut self, d: &Decision) -> Action;
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
    fn choose(&mut self, d: &Decision) -> Action {
        let acts = d.legal_actions();
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
    fn choose(&mut self, d: &Decision) -> Action {
        let acts = d.legal_actions();
        let pos = d.public_position();
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
