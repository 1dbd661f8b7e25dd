//! The Surprise layout game (RULES.md §S2): before the first move each side secretly picks one
//! of the 10 hidden layouts (A, B, C1..C8). The game between layouts is a 10x10 matrix of Red's
//! expected scores, estimated here by playouts of a fixed bot from each pair of layouts (95%
//! normal-approximation confidence intervals), then solved as a zero-sum matrix game
//! ([`super::matrix`], CFR+) to a Nash mixture for each side, with the game value and the
//! exploitability of the solved mixtures *on the estimated table* (sampling error is reported by
//! the intervals, not folded into the exploitability).
//!
//! Scores: 1 for a Red win, 1/2 for a draw or a game stopped at the ply cap, 0 for a loss. The
//! matrix game is played on the zero-sum payoff `2 * score - 1`; values are reported in both.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::search::{arena, from_spec};
use crate::variant::state::LAYOUT_NAMES;
use crate::variant::{SetupKind, State, Variant};

use super::matrix::{solve_matrix, MatrixSolution};

/// Red's scores between layouts.
#[derive(Clone, Debug)]
pub struct LayoutTable {
    /// Mean Red score, `mean[red][black]` in [0, 1], layouts in [`LAYOUT_NAMES`] order.
    pub mean: Vec<Vec<f64>>,
    /// Half-width of the 95% confidence interval of each mean (1.96 standard errors).
    pub half_width: Vec<Vec<f64>>,
    /// Games per cell.
    pub games: u32,
    /// Games that hit the ply cap (scored 1/2).
    pub unfinished: u64,
    /// The bot spec that played both sides.
    pub bot: String,
}

/// Options of an estimate.
#[derive(Clone, Debug)]
pub struct LayoutOptions {
    /// Bot spec playing both sides ([`crate::search::from_spec`] for the variants).
    pub bot: String,
    /// Games per pair of layouts.
    pub games: u32,
    /// Seed of bots and chance.
    pub seed: u64,
    /// Ply cap per game (then scored as a draw).
    pub max_plies: usize,
    /// Worker threads.
    pub threads: usize,
}

fn mix(a: u64, b: u64) -> u64 {
    let mut z = a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Estimates the 10x10 table by playouts. `progress(done_cells)` is called after each cell.
///
/// # Errors
/// A variant that is not Surprise, or a bad bot spec.
pub fn estimate(variant: &'static Variant, opts: &LayoutOptions, progress: &(dyn Fn(usize) + Sync)) -> Result<LayoutTable, String> {
    // §S2: the game of choosing layouts.
    if variant.caps.setup != SetupKind::Layouts {
        return Err(format!("the layout game needs a Surprise variant, not {}", variant.name));
    }
    from_spec::<crate::variant::game_state::VariantGameState>(&opts.bot, 0)?;
    let n = LAYOUT_NAMES.len();
    let next = AtomicUsize::new(0);
    let cells: Mutex<Vec<(usize, f64, f64, u64)>> = Mutex::new(Vec::new());
    let error: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..opts.threads.max(1) {
            scope.spawn(|| loop {
                let cell = next.fetch_add(1, Ordering::Relaxed);
                if cell >= n * n {
                    break;
                }
                let (i, j) = (cell / n, cell % n);
                match play_cell(variant, opts, i, j) {
                    Ok((m, hw, unfinished)) => {
                        let mut c = cells.lock().unwrap_or_else(|e| e.into_inner());
                        c.push((cell, m, hw, unfinished));
                        progress(c.len());
                    }
                    Err(e) => {
                        *error.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                        break;
                    }
                }
            });
        }
    });
    if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let mut mean = vec![vec![0.0; n]; n];
    let mut half_width = vec![vec![0.0; n]; n];
    let mut unfinished = 0;
    for (cell, m, hw, u) in cells.into_inner().unwrap_or_else(|e| e.into_inner()) {
        mean[cell / n][cell % n] = m;
        half_width[cell / n][cell % n] = hw;
        unfinished += u;
    }
    Ok(LayoutTable { mean, half_width, games: opts.games, unfinished, bot: opts.bot.clone() })
}

/// Plays the games of one cell: (mean, CI half-width, unfinished games).
fn play_cell(variant: &'static Variant, opts: &LayoutOptions, i: usize, j: usize) -> Result<(f64, f64, u64), String> {
    let mut scores = Vec::with_capacity(opts.games as usize);
    let mut unfinished = 0;
    for g in 0..opts.games {
        let base = mix(opts.seed, ((i * 16 + j) as u64) << 32 | g as u64);
        let start = State::start(variant, Some((LAYOUT_NAMES[i], LAYOUT_NAMES[j]))).map_err(|e| e.to_string())?;
        let mut red = from_spec(&opts.bot, mix(base, 1))?;
        let mut black = from_spec(&opts.bot, mix(base, 2))?;
        let r = arena::play(start, red.as_mut(), black.as_mut(), mix(base, 3), opts.max_plies);
        if r.end.is_none() {
            unfinished += 1;
        }
        scores.push(r.red_score());
    }
    let k = scores.len().max(1) as f64;
    let m = scores.iter().sum::<f64>() / k;
    let var = if scores.len() > 1 { scores.iter().map(|s| (s - m).powi(2)).sum::<f64>() / (k - 1.0) } else { 0.0 };
    Ok((m, 1.96 * (var / k).sqrt(), unfinished))
}

/// The solved layout game.
#[derive(Clone, Debug)]
pub struct LayoutSolution {
    /// The matrix-game solution on payoffs `2 * score - 1` (Red = row player).
    pub solution: MatrixSolution,
    /// Red's expected score under the mixtures, in [0, 1].
    pub red_score: f64,
}

/// Solves the estimated table with `iterations` of CFR+.
///
/// # Errors
/// As [`solve_matrix`].
pub fn solve(table: &LayoutTable, iterations: u64) -> Result<LayoutSolution, super::SolveError> {
    let payoff = table.mean.iter().map(|r| r.iter().map(|s| 2.0 * s - 1.0).collect()).collect();
    let solution = solve_matrix(payoff, iterations)?;
    let red_score = (solution.value + 1.0) / 2.0;
    Ok(LayoutSolution { solution, red_score })
}
