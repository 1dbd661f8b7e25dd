//! `anqi solve`: equilibrium solvers on small games with known answers.
//!
//! `anqi solve cfr --game kuhn|leduc --algo cfr|cfrplus|dcfr|es-mccfr|os-mccfr --iterations N
//! [--seed S]` runs the solver, printing a progress line at every power of ten, then, as its
//! last three lines, `iterations/s R` (solver time only, evaluations excluded), `value V` (the
//! first player's expected return under the average strategy profile, in chips) and
//! `exploitability E` (NashConv / 2 of that profile, OpenSpiel's definition).

use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};
use engine::game::Game;
use engine::games::{Kuhn, Leduc};
use engine::solve::{evaluate_on_tree, new_solver, Algorithm, Evaluation, GameTree, Solver};

/// `anqi solve` subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a CFR-family solver on Kuhn poker or Leduc hold'em; last lines `value V` and
    /// `exploitability E`.
    Cfr(CfrArgs),
    /// The Surprise layout game (RULES.md §S2): a 10x10 table of playout scores between layouts,
    /// solved to a Nash mixture; prints the mixtures, `value V` and `exploitability E`.
    Layouts(super::solve_games::LayoutsArgs),
    /// The §S11 negotiation demand as a bluffing game over search values, solved by CFR+.
    Negotiation(super::solve_games::NegotiationArgs),
    /// A small hidden-piece endgame (default: Jieqi) solved by MCCFR, with exploitability.
    Endgame(super::solve_games::EndgameArgs),
}

/// Arguments of `anqi solve cfr`.
#[derive(Debug, Args)]
pub struct CfrArgs {
    /// Game to solve.
    #[arg(long, value_enum)]
    pub game: GameName,
    /// Solver algorithm.
    #[arg(long, value_enum, default_value = "cfrplus")]
    pub algo: AlgoName,
    /// Number of iterations (one iteration updates both players).
    #[arg(long)]
    pub iterations: u64,
    /// Seed of the sampling algorithms (es-mccfr, os-mccfr); ignored by the others.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Games `anqi solve` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    /// Kuhn poker (first-player value -1/18).
    Kuhn,
    /// Leduc hold'em, OpenSpiel's `leduc_poker` rules.
    Leduc,
}

/// Solver algorithms, by command-line name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AlgoName {
    /// Vanilla CFR (Zinkevich et al. 2007).
    Cfr,
    /// CFR+ (Tammelin 2014).
    #[value(name = "cfrplus")]
    CfrPlus,
    /// Discounted CFR, α = 1.5, β = 0, γ = 2 (Brown & Sandholm 2019).
    Dcfr,
    /// External-sampling Monte Carlo CFR (Lanctot et al. 2009).
    #[value(name = "es-mccfr")]
    EsMccfr,
    /// Outcome-sampling Monte Carlo CFR, ε = 0.6 (Lanctot et al. 2009).
    #[value(name = "os-mccfr")]
    OsMccfr,
}

impl From<AlgoName> for Algorithm {
    fn from(a: AlgoName) -> Algorithm {
        match a {
            AlgoName::Cfr => Algorithm::Cfr,
            AlgoName::CfrPlus => Algorithm::CfrPlus,
            AlgoName::Dcfr => Algorithm::Dcfr,
            AlgoName::EsMccfr => Algorithm::ExternalSampling,
            AlgoName::OsMccfr => Algorithm::OutcomeSampling,
        }
    }
}

/// Runs an `anqi solve` subcommand.
///
/// # Errors
/// Solver construction errors (game outside what the solvers support).
pub fn run(c: Command) -> anyhow::Result<()> {
    match c {
        Command::Cfr(args) => match args.game {
            GameName::Kuhn => solve(&Kuhn::new(), &args),
            GameName::Leduc => solve(&Leduc::new(), &args),
        },
        Command::Layouts(args) => super::solve_games::layouts(args),
        Command::Negotiation(args) => super::solve_games::negotiation(args),
        Command::Endgame(args) => super::solve_games::endgame(args),
    }
}

/// Runs the solver on `root` and prints progress and the final lines.
fn solve<G: Game + 'static>(root: &G, args: &CfrArgs) -> anyhow::Result<()> {
    let algorithm = Algorithm::from(args.algo);
    let tree = GameTree::build(root).context("building the game tree for evaluation")?;
    let mut solver = new_solver(root, algorithm, args.seed).context("creating the solver")?;
    println!(
        "solve cfr: game {} algo {algorithm} iterations {} seed {} ({} nodes, {} information sets)",
        root.info().name,
        args.iterations,
        args.seed,
        tree.nodes.len(),
        tree.infosets.len()
    );
    let mut solving = Duration::ZERO;
    let mut checkpoint = 10u64;
    while solver.iterations() < args.iterations {
        let target = checkpoint.min(args.iterations);
        let start = Instant::now();
        while solver.iterations() < target {
            solver.iterate();
        }
        solving += start.elapsed();
        if target < args.iterations {
            let e = evaluation(&tree, solver.as_ref());
            println!(
                "iteration {target} exploitability {:.6e} value {:.6} elapsed {:.3}s",
                e.exploitability,
                e.values[0],
                solving.as_secs_f64()
            );
        }
        checkpoint = checkpoint.saturating_mul(10);
    }
    let e = evaluation(&tree, solver.as_ref());
    let rate = if solving.is_zero() {
        0.0
    } else {
        solver.iterations() as f64 / solving.as_secs_f64()
    };
    println!("iterations/s {rate:.1}");
    println!("value {}", e.values[0]);
    println!("exploitability {}", e.exploitability);
    Ok(())
}

/// Evaluates the solver's average strategy on the compiled tree.
fn evaluation(tree: &GameTree, solver: &dyn Solver) -> Evaluation {
    evaluate_on_tree(tree, &solver.average_policy().to_slots(tree))
}
