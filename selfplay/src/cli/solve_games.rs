//! `anqi solve layouts|negotiation|endgame`: the CFR machinery applied to our games (issue #4
//! item 4). Each prints its result and, as its last two lines, `value V` and
//! `exploitability E`, as `anqi solve cfr` does.
//!
//! - `layouts`: the Surprise layout game (RULES.md §S2) — a 10x10 table of Red's expected score
//!   between the hidden layouts, from playouts of a fixed bot, with 95% confidence intervals,
//!   solved to a Nash mixture per side ([`engine::solve::layouts`]); `value` is Red's expected
//!   score in [0, 1], `exploitability` is that of the mixtures on the estimated table, in
//!   score units;
//! - `negotiation`: the §S11 demand as a bluffing game over search values
//!   ([`engine::solve::negotiation`]); `value` in match points (demander minus responder);
//! - `endgame`: a small hidden-piece ending solved by MCCFR ([`engine::solve::endgame`]); `value`
//!   is Red's expected result in [-1, 1].

use anyhow::Context;
use clap::{Args, ValueEnum};
use engine::search::expectimax::ExpectimaxConfig;
use engine::solve::endgame::{self, EndgameOptions};
use engine::solve::layouts::{self, LayoutOptions};
use engine::solve::negotiation::{self, Refusal};
use engine::variant::state::LAYOUT_NAMES;

use super::solve::AlgoName;

/// Default position of `solve negotiation`: Red (to move) has one Surprise disc, a horse on d4
/// whose back is a chariot or a cannon as far as Black knows. With a chariot, flipping it mates
/// at once (§S7: the d-file check, the soldier on e8 covering e9 and d8); with a cannon, Black's
/// two chariots mate Red next move. The full state says chariot; Black's view allows both.
pub const NEGOTIATION_FEN: &str = "3k5/4P4/9/9/9/3N5/9/8r/r8/4K4 w - - 0 1 d4=R,a1=n,i2=c 3:0/3:0";

/// Default position of `solve endgame`: a Jieqi ending, Red general e0 and face-down pieces on a0
/// (moves as a chariot) and e3 (as a soldier); Black general e9 and face-down pieces on a9 and
/// c6. Each side's two face-down pieces are a chariot and a soldier, in unknown places. The two
/// chariot points face each other on the a-file, so the first move can capture a face-down
/// piece, whose identity only the capturer learns (§F6).
pub const ENDGAME_FEN: &str = "x3k4/9/9/2x6/9/9/4X4/9/9/X3K4 w R1P1r1p1 0 1";

/// Arguments of `anqi solve layouts`.
#[derive(Debug, Args)]
pub struct LayoutsArgs {
    /// A Surprise variant (preset or TOML file).
    #[arg(long, default_value = "surprise")]
    pub variant: String,
    /// Games per pair of layouts (100 pairs).
    #[arg(long, default_value_t = 20)]
    pub games: u32,
    /// The bot playing both sides in every game.
    #[arg(long, default_value = "greedy")]
    pub bot: String,
    /// Seed of bots and chance.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Ply cap per game (then scored as a draw).
    #[arg(long, default_value_t = 300)]
    pub max_plies: usize,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// CFR+ iterations on the matrix game.
    #[arg(long, default_value_t = 20_000)]
    pub iterations: u64,
}

/// Runs `anqi solve layouts`.
///
/// # Errors
/// Variant, bot or solver errors.
pub fn layouts(a: LayoutsArgs) -> anyhow::Result<()> {
    let v = super::variant_arg::load(&a.variant)?;
    let opts = LayoutOptions { bot: a.bot.clone(), games: a.games, seed: a.seed, max_plies: a.max_plies, threads: a.threads };
    println!("solve layouts: variant {} bot {} games/pair {} seed {} max-plies {}", v.name, a.bot, a.games, a.seed, a.max_plies);
    let start = std::time::Instant::now();
    let table = layouts::estimate(v, &opts, &|done| {
        if done % 10 == 0 {
            eprintln!("  {done}/100 pairs ({:.0}s)", start.elapsed().as_secs_f64());
        }
    })
    .map_err(anyhow::Error::msg)?;
    println!("Red's mean score (rows: Red layout, columns: Black layout), ± 95% CI half-width:");
    print!("{:>4}", "");
    for n in LAYOUT_NAMES {
        print!(" {n:>11}");
    }
    println!();
    for (i, row) in table.mean.iter().enumerate() {
        print!("{:>4}", LAYOUT_NAMES[i]);
        for (j, m) in row.iter().enumerate() {
            print!(" {:>5.3}±{:<5.3}", m, table.half_width[i][j]);
        }
        println!();
    }
    let games = table.games as u64 * 100;
    println!("games {games} unfinished {} ({:.1}s)", table.unfinished, start.elapsed().as_secs_f64());
    let sol = layouts::solve(&table, a.iterations).context("solving the layout game")?;
    let show = |mix: &[f64]| -> String {
        LAYOUT_NAMES.iter().zip(mix).map(|(n, p)| format!("{n}:{p:.3}")).collect::<Vec<_>>().join(" ")
    };
    println!("red mixture   {}", show(&sol.solution.row));
    println!("black mixture {}", show(&sol.solution.col));
    println!("zero-sum value (2*score-1) {:.6} after {} CFR+ iterations", sol.solution.value, sol.solution.iterations);
    println!("value {}", sol.red_score);
    // Exploitability in score units (the zero-sum payoff is 2 * score - 1).
    println!("exploitability {}", sol.solution.exploitability / 2.0);
    Ok(())
}

/// What a refused demand costs, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RefusalName {
    /// Nothing (§S11 default).
    Free,
    /// The demander's move.
    Tempo,
}

/// Arguments of `anqi solve negotiation`.
#[derive(Debug, Args)]
pub struct NegotiationArgs {
    /// Variant (preset or TOML file); the §S11 points table is read from it.
    #[arg(long, default_value = "surprise-negotiation")]
    pub variant: String,
    /// Position with the demander to move (default: a flip-mate bluff, see the source).
    #[arg(long, default_value = NEGOTIATION_FEN)]
    pub fen: String,
    /// Expectimax depth for the continuation values.
    #[arg(long, default_value_t = 2)]
    pub depth: u32,
    /// Centipawns mapped to tanh(1).
    #[arg(long, default_value_t = 400.0)]
    pub scale: f64,
    /// What a refused demand costs the demander.
    #[arg(long, value_enum, default_value = "free")]
    pub refusal: RefusalName,
    /// CFR+ iterations.
    #[arg(long, default_value_t = 10_000)]
    pub iterations: u64,
    /// Seed of the determinization sampler.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs `anqi solve negotiation`.
///
/// # Errors
/// Variant, position or solver errors.
pub fn negotiation(a: NegotiationArgs) -> anyhow::Result<()> {
    let v = super::variant_arg::load(&a.variant)?;
    let state = super::variant_arg::start_state(v, Some(&a.fen), None)?;
    let cfg = ExpectimaxConfig { depth: a.depth, ..ExpectimaxConfig::default() };
    let refusal = match a.refusal {
        RefusalName::Free => Refusal::Free,
        RefusalName::Tempo => Refusal::Tempo,
    };
    let types = negotiation::types_from_state(&state, &cfg, a.scale, refusal, a.seed).map_err(anyhow::Error::msg)?;
    let s = &v.surprise.scores;
    let points = [s[0] as f64, s[1] as f64, s[2] as f64];
    println!(
        "solve negotiation: variant {} demander {} points {}/{}/{} refusal {:?} search {}",
        v.name,
        state.turn(),
        points[0],
        points[1],
        points[2],
        a.refusal,
        cfg.spec()
    );
    let sol = negotiation::solve(types, points, a.iterations).context("solving the negotiation game")?;
    println!("{:<24} {:>6} {:>8} {:>14} {:>9}", "demander type", "prob", "play-on", "after-refusal", "P(demand)");
    for (t, d) in sol.types.iter().zip(&sol.demand) {
        println!("{:<24} {:>6.3} {:>8.3} {:>14.3} {:>9.4}", t.label, t.prob, t.play_on, t.after_refusal, d);
    }
    println!("responder after a demand: resign {:.4} draw {:.4} refuse {:.4}", sol.answer[0], sol.answer[1], sol.answer[2]);
    println!("value without negotiation {:.6}", sol.value_without);
    println!("value {}", sol.value);
    println!("exploitability {}", sol.exploitability);
    Ok(())
}

/// Arguments of `anqi solve endgame`.
#[derive(Debug, Args)]
pub struct EndgameArgs {
    /// Variant (preset or TOML file).
    #[arg(long, default_value = "jieqi")]
    pub variant: String,
    /// Position (default: a Jieqi ending with four face-down pieces, see the source).
    #[arg(long, default_value = ENDGAME_FEN)]
    pub fen: String,
    /// Horizon in plies; the static evaluation scores the positions there.
    #[arg(long, default_value_t = 3)]
    pub plies: u32,
    /// Centipawns mapped to tanh(1) at the horizon.
    #[arg(long, default_value_t = 400.0)]
    pub scale: f64,
    /// Solver algorithm.
    #[arg(long, value_enum, default_value = "es-mccfr")]
    pub algo: AlgoName,
    /// Iterations.
    #[arg(long, default_value_t = 20_000)]
    pub iterations: u64,
    /// Seed of the sampling solvers.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs `anqi solve endgame`.
///
/// # Errors
/// Variant, position or solver errors.
pub fn endgame(a: EndgameArgs) -> anyhow::Result<()> {
    let v = super::variant_arg::load(&a.variant)?;
    let state = super::variant_arg::start_state(v, Some(&a.fen), None)?;
    let opts = EndgameOptions { plies: a.plies, scale: a.scale, algorithm: a.algo.into(), iterations: a.iterations, seed: a.seed };
    println!("solve endgame: variant {} plies {} algo {} iterations {} seed {}", v.name, a.plies, opts.algorithm, a.iterations, a.seed);
    println!("fen {}", a.fen);
    let r = endgame::solve(state, &opts).context("solving the endgame")?;
    println!("tree: {} nodes, {} chance nodes, {} information sets", r.nodes, r.chance_nodes, r.infosets);
    println!("uniform strategy exploitability {:.6}", r.uniform_exploitability);
    println!("solve time {:.2}s ({:.0} iterations/s)", r.solve_time.as_secs_f64(), r.iterations as f64 / r.solve_time.as_secs_f64().max(1e-9));
    println!("root strategy:");
    for (a, p) in r.root_strategy.iter().filter(|x| x.1 >= 0.001) {
        println!("  {a:<8} {p:.4}");
    }
    println!("value {}", r.value);
    println!("exploitability {}", r.exploitability);
    Ok(())
}
