//! `anqi experiment <name>`: the research experiments of [`crate::experiments`].

use crate::experiments::{draw_rates, plot};
use clap::{Args as ClapArgs, Subcommand};
use std::path::PathBuf;

/// The experiments.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Equal-strength self-play in every variant: draw rate (95 % Wilson), Red's score, length and
    /// endings; writes report.md, draw-rates.png/.svg and CSVs to --out.
    DrawRates(DrawRatesArgs),
}

/// `anqi experiment draw-rates`.
#[derive(ClapArgs, Debug)]
pub struct DrawRatesArgs {
    /// Multiplies the number of games (default size: about 30 minutes on 2 cores).
    #[arg(long, default_value_t = 1.0)]
    pub scale: f64,
    /// Output directory.
    #[arg(long, default_value = "experiments/draw-rates")]
    pub out: PathBuf,
    /// Bot specs, one strength each, weakest first (`;`-separated, since specs contain commas).
    #[arg(long, default_value = "greedy;alphabeta:depth=2;alphabeta:depth=4")]
    pub bots: String,
    /// Games per variant for each bot at scale 1 (comma-separated; the last repeats).
    #[arg(long, default_value = "800,400,300")]
    pub games: String,
    /// Variants (comma-separated; default: xiangqi, king, surprise, fanqi-1 … fanqi-10, jieqi).
    #[arg(long)]
    pub variants: Option<String>,
    /// Games in parallel.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Ply limit; a game still running is adjudicated a draw.
    #[arg(long, default_value_t = 1000)]
    pub max_plies: usize,
    /// Random opening plies (they make a deterministic bot's games differ).
    #[arg(long, default_value_t = 4)]
    pub opening_plies: usize,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Also write games.csv (one line per game).
    #[arg(long)]
    pub games_csv: bool,
}

/// Runs the command.
pub fn run(c: Command) -> anyhow::Result<()> {
    match c {
        Command::DrawRates(a) => draw_rates_cmd(a),
    }
}

fn draw_rates_cmd(a: DrawRatesArgs) -> anyhow::Result<()> {
    let command = std::iter::once("anqi".to_string()).chain(std::env::args().skip(1)).collect::<Vec<_>>().join(" ");
    let games: Vec<u32> = a
        .games
        .split(',')
        .map(|p| p.trim().parse().map_err(|_| anyhow::anyhow!("--games {p:?}: not a count")))
        .collect::<anyhow::Result<_>>()?;
    let variants = match a.variants {
        Some(v) => v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
        None => draw_rates::VARIANTS.iter().map(|s| s.to_string()).collect(),
    };
    let settings = draw_rates::Settings {
        bots: a.bots.split(';').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
        games,
        scale: a.scale,
        variants,
        threads: a.threads,
        seed: a.seed,
        max_plies: a.max_plies,
        opening_plies: a.opening_plies,
        out: a.out.clone(),
        command,
        progress: !a.quiet,
    };
    let results = draw_rates::run(settings)?;
    std::fs::create_dir_all(&a.out)?;
    let series: Vec<plot::Series> = results
        .settings
        .bots
        .iter()
        .enumerate()
        .map(|(b, bot)| plot::Series {
            name: format!("{bot} vs itself"),
            points: results
                .cells
                .iter()
                .map(|row| {
                    let c = &row[b];
                    let (lo, hi) = crate::tournament::elo::wilson95(c.draws, c.games);
                    (c.rate(), lo, hi)
                })
                .collect(),
        })
        .collect();
    let (png, svg) = (a.out.join("draw-rates.png"), a.out.join("draw-rates.svg"));
    let plots = match plot::error_bars(&png, &svg, "Draw rate in equal-strength self-play", results.variant_names(), &series) {
        Ok(()) => vec!["draw-rates.png".to_string()],
        Err(e) => {
            eprintln!("warning: no plot: {e}");
            Vec::new()
        }
    };
    std::fs::write(a.out.join("report.md"), results.report(&plots))?;
    std::fs::write(a.out.join("summary.csv"), results.summary_csv())?;
    if a.games_csv {
        std::fs::write(a.out.join("games.csv"), results.games_csv())?;
    }
    print!("{}", results.summary_csv());
    println!("wrote {}: report.md, draw-rates.png, draw-rates.svg, summary.csv{}", a.out.display(), if a.games_csv { ", games.csv" } else { "" });
    Ok(())
}
