//! Equilibrium solvers for small two-player zero-sum games with hidden information, written
//! against [`crate::game::Game`] only and proven on Kuhn poker and Leduc hold'em.
//!
//! * [`cfr`]: full-width CFR (Zinkevich et al. 2007), CFR+ (Tammelin 2014) and discounted CFR
//!   (Brown & Sandholm 2019) on a compiled [`tree::GameTree`];
//! * [`mccfr`]: external- and outcome-sampling Monte Carlo CFR (Lanctot et al. 2009), seeded;
//! * [`mod@best_response`]: exact expected values, best responses, NashConv and exploitability by
//!   full tree enumeration (OpenSpiel's definitions);
//! * [`policy`]: the [`policy::Policy`] trait, uniform and tabular policies;
//! * applied to our games: [`matrix`] (matrix games), [`layouts`] (the Surprise layout game,
//!   §S2), [`negotiation`] (the §S11 demand as a bluffing game), [`endgame`] (small hidden-piece
//!   endgames by MCCFR with exploitability).
//!
//! Strategies are tables keyed by (player, information-set key). The full-width solvers index
//! them by *slot* (one per action of each information set) in flat arrays, so an iteration
//! allocates nothing.

pub mod best_response;
pub mod cfr;
pub mod endgame;
pub mod layouts;
pub mod matrix;
pub mod mccfr;
pub mod negotiation;
pub mod policy;
pub mod tree;

use std::fmt;

pub use best_response::{
    best_response, evaluate, evaluate_on_tree, expected_values, exploitability, nash_conv,
    BestResponse, Evaluation,
};
pub use cfr::{Averaging, CfrConfig, CfrSolver, RegretUpdate};
pub use mccfr::{MccfrSolver, Sampling};
pub use policy::{InfosetPolicy, Policy, TabularPolicy, UniformPolicy};
pub use tree::GameTree;

use crate::game::Game;

/// Errors from building trees, evaluating policies or configuring solvers.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SolveError {
    /// The game or option is outside what the solvers handle.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The full tree has more nodes than allowed.
    #[error("game tree exceeds {max_nodes} nodes")]
    TreeTooLarge {
        /// The limit that was hit.
        max_nodes: usize,
    },
    /// Two states of one information set have different legal actions, or a player turn has
    /// none. Holds the information-set string.
    #[error("inconsistent legal actions in information set {0}")]
    InconsistentActions(String),
    /// One information set is reached after different own decisions. Holds its string.
    #[error("imperfect recall at information set {0}")]
    ImperfectRecall(String),
    /// A chance node whose outcome list is empty, has non-positive probabilities or does not
    /// sum to 1. Holds the first player's information-set string there.
    #[error("invalid chance outcomes at {0}")]
    BadChance(String),
    /// A policy returned probabilities that are negative or do not sum to 1. Holds the
    /// information-set string.
    #[error("invalid policy probabilities at information set {0}")]
    BadPolicy(String),
}

/// The solver algorithms, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Vanilla CFR ([`CfrConfig::CFR`]).
    Cfr,
    /// CFR+ ([`CfrConfig::CFR_PLUS`]).
    CfrPlus,
    /// Discounted CFR with α = 1.5, β = 0, γ = 2 ([`CfrConfig::DCFR`]).
    Dcfr,
    /// External-sampling MCCFR ([`Sampling::External`]).
    ExternalSampling,
    /// Outcome-sampling MCCFR with ε = 0.6 ([`Sampling::Outcome`]).
    OutcomeSampling,
}

impl Algorithm {
    /// All algorithms.
    pub const ALL: [Algorithm; 5] = [
        Algorithm::Cfr,
        Algorithm::CfrPlus,
        Algorithm::Dcfr,
        Algorithm::ExternalSampling,
        Algorithm::OutcomeSampling,
    ];

    /// Short name as used on the command line (`cfr`, `cfrplus`, `dcfr`, `es-mccfr`, `os-mccfr`).
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Cfr => "cfr",
            Algorithm::CfrPlus => "cfrplus",
            Algorithm::Dcfr => "dcfr",
            Algorithm::ExternalSampling => "es-mccfr",
            Algorithm::OutcomeSampling => "os-mccfr",
        }
    }

    /// Whether runs depend on the random seed.
    pub const fn is_sampled(self) -> bool {
        matches!(
            self,
            Algorithm::ExternalSampling | Algorithm::OutcomeSampling
        )
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What every solver offers: iterate, count, and produce its average strategy.
pub trait Solver {
    /// Runs one iteration.
    fn iterate(&mut self);
    /// Completed iterations.
    fn iterations(&self) -> u64;
    /// The average strategy, the profile that converges to equilibrium.
    fn average_policy(&self) -> TabularPolicy;
}

impl Solver for CfrSolver {
    fn iterate(&mut self) {
        CfrSolver::iterate(self);
    }
    fn iterations(&self) -> u64 {
        CfrSolver::iterations(self)
    }
    fn average_policy(&self) -> TabularPolicy {
        CfrSolver::average_policy(self)
    }
}

impl<G: Game> Solver for MccfrSolver<G> {
    fn iterate(&mut self) {
        MccfrSolver::iterate(self);
    }
    fn iterations(&self) -> u64 {
        MccfrSolver::iterations(self)
    }
    fn average_policy(&self) -> TabularPolicy {
        MccfrSolver::average_policy(self)
    }
}

/// A solver of kind `algorithm` for the game starting at `root`. `seed` seeds the sampling
/// algorithms and is ignored by the deterministic ones.
///
/// # Errors
/// As [`CfrSolver::new`] and [`MccfrSolver::new`].
pub fn new_solver<G: Game + 'static>(
    root: &G,
    algorithm: Algorithm,
    seed: u64,
) -> Result<Box<dyn Solver>, SolveError> {
    Ok(match algorithm {
        Algorithm::Cfr => Box::new(CfrSolver::new(root, CfrConfig::CFR)?),
        Algorithm::CfrPlus => Box::new(CfrSolver::new(root, CfrConfig::CFR_PLUS)?),
        Algorithm::Dcfr => Box::new(CfrSolver::new(root, CfrConfig::DCFR)?),
        Algorithm::ExternalSampling => {
            Box::new(MccfrSolver::new(root.clone(), Sampling::External, seed)?)
        }
        Algorithm::OutcomeSampling => Box::new(MccfrSolver::new(
            root.clone(),
            Sampling::Outcome {
                epsilon: mccfr::DEFAULT_EXPLORATION,
            },
            seed,
        )?),
    })
}
