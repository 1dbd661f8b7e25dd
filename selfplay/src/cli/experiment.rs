//! `anqi experiment <name>`: the research experiments of [`crate::experiments`].

use crate::experiments::draw_rates::{self, anchors::AnchorSettings, report::Study};
use clap::{Args as ClapArgs, Subcommand};
use std::path::PathBuf;

/// The experiments.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// How much hidden information moves the draw rate: each deal of every hidden preset played
    /// twice, hidden and open (the preset's open twin), by the same bot at several strength levels;
    /// paired differences per preset, class and level, ladder Elo, Fairy-Stockfish and Pikafish
    /// anchors. Resumable. Writes report.md, summary.csv, games.tsv and plots to --out.
    DrawRates(DrawRatesArgs),
    /// A training run's learning curve: its checkpoints join the variant's ladder as `net:`
    /// players at the ladder's time per move; writes their Elo against training hours to
    /// experiments/train/<variant>.md/.csv/.png. Resumable (the ladder's PGNs).
    LearningCurve(LearningCurveArgs),
}

/// `anqi experiment learning-curve`.
#[derive(ClapArgs, Debug)]
pub struct LearningCurveArgs {
    /// The training run's directory (runs/<name>).
    #[arg(long)]
    pub run: PathBuf,
    /// Checkpoint steps (comma-separated; default: the first, the end of the warm start, the last).
    #[arg(long)]
    pub steps: Option<String>,
    /// The ladder's directory (default: experiments/ladder/<the run's variant>).
    #[arg(long)]
    pub ladder: Option<PathBuf>,
    /// Appended to every net spec, e.g. ",mix=1,vdepth=2" (default: the checkpoint's own search).
    #[arg(long, default_value = "")]
    pub params: String,
    /// Output directory of the curve.
    #[arg(long, default_value = "experiments/train")]
    pub out: PathBuf,
    /// Games in parallel (default 2).
    #[arg(long)]
    pub concurrency: Option<usize>,
}

/// `anqi experiment draw-rates`.
#[derive(ClapArgs, Debug)]
pub struct DrawRatesArgs {
    /// Multiplies the numbers of deals and anchor games (default size: about 30 minutes on 2 cores).
    #[arg(long, default_value_t = 1.0)]
    pub scale: f64,
    /// Output directory (holds games.tsv, from which a rerun resumes).
    #[arg(long, default_value = "experiments/draw-rates")]
    pub out: PathBuf,
    /// Strength levels: bot specs with a fixed budget, weakest first (`;`-separated, since specs
    /// contain commas). Every one must be an information-respecting bot of every preset.
    #[arg(long, default_value = "greedy;ismcts:iterations=30;ismcts:iterations=300;ismcts:iterations=3000")]
    pub levels: String,
    /// Deals per preset for each level at scale 1 (comma-separated; the last repeats). The
    /// default fits about 30 minutes on 2 cores: the strongest level costs about 7 minutes a deal
    /// over the 15 presets.
    #[arg(long, default_value = "16,16,6,3")]
    pub deals: String,
    /// Hidden presets or rule files (comma-separated; default: every hidden preset of RULES.md
    /// and RULES-more.md but missile-hidden-centre-down).
    #[arg(long)]
    pub presets: Option<String>,
    /// Oracle played on the hidden deals as a ceiling (reads the full state; presets whose bots
    /// lack it are skipped); "" for none.
    #[arg(long, default_value = "oracle:depth=2")]
    pub ceiling: String,
    /// Deals per preset for the ceiling at scale 1.
    #[arg(long, default_value_t = 2)]
    pub ceiling_deals: u32,
    /// Fairy-Stockfish binary for the xiangqi anchor (default: $FAIRY_STOCKFISH; none: skipped).
    #[arg(long)]
    pub fsf: Option<String>,
    /// Fairy-Stockfish node budgets per move (comma-separated). The default is the budgets the
    /// xiangqi ladder rates (`fairy-stockfish-100`, `-1k`, `-10k`), so each anchor has an Elo.
    #[arg(long, default_value = "100,1000,10000")]
    pub fsf_nodes: String,
    /// Fairy-Stockfish games per budget at scale 1.
    #[arg(long, default_value_t = 40)]
    pub fsf_games: u32,
    /// Ladder directory (`<dir>/<preset>.csv` gives the levels' Elo).
    #[arg(long, default_value = "experiments/ladder")]
    pub ladder_dir: PathBuf,
    /// Games in parallel on this machine.
    #[arg(long, alias = "concurrency", default_value_t = 2)]
    pub threads: usize,
    /// Play the games on the Ray cluster at this address (`HOST:PORT`, or `auto`) instead of
    /// local threads: one Ray task per game, results merged into this run's store
    /// (docs/cluster.md, "Games on a cluster").
    #[arg(long, value_name = "ADDRESS")]
    pub cluster: Option<String>,
    /// Sequential stopping: a (preset, level) stops once the 95 % interval of its hidden − open
    /// difference is at most this many points either side (cautiously estimated, with two
    /// virtual discordant deals) after at least --min-deals deals; --deals are then maxima.
    #[arg(long, value_name = "POINTS", value_parser = halfwidth_points)]
    pub halfwidth: Option<f64>,
    /// Deals a (preset, level) plays before --halfwidth may stop it.
    #[arg(long, default_value_t = 30)]
    pub min_deals: u32,
    /// Deals played between --halfwidth checks (each check sees whole waves).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub wave: u32,
    /// Play nothing: write the report from the games in the store (a study stopped early).
    #[arg(long)]
    pub report_only: bool,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Ply limit; a game still running is adjudicated a draw.
    #[arg(long, default_value_t = 600)]
    pub max_plies: usize,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs the command.
pub fn run(c: Command) -> anyhow::Result<()> {
    match c {
        Command::DrawRates(a) => draw_rates_cmd(a),
        Command::LearningCurve(a) => learning_curve_cmd(a),
    }
}

fn learning_curve_cmd(a: LearningCurveArgs) -> anyhow::Result<()> {
    use crate::experiments::learning_curve;
    let steps = match &a.steps {
        Some(t) => counts(t, "--steps")?,
        None => Vec::new(),
    };
    let ladder = match &a.ladder {
        Some(l) => l.clone(),
        None => {
            let all = learning_curve::checkpoint_steps(&a.run)?;
            let last = all.last().ok_or_else(|| anyhow::anyhow!("{}: no checkpoints", a.run.display()))?;
            let p = a.run.join(format!("checkpoints/step-{last}.json"));
            let meta: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&p)?)?;
            let variant = meta["variant"].as_str().ok_or_else(|| anyhow::anyhow!("{}: no variant", p.display()))?;
            PathBuf::from("experiments/ladder").join(variant)
        }
    };
    let command = std::iter::once("anqi".to_string()).chain(std::env::args().skip(1)).collect::<Vec<_>>().join(" ");
    let settings = learning_curve::Settings { run: a.run.clone(), steps, ladder, params: a.params.clone(), out: a.out.clone(), concurrency: a.concurrency, command };
    let (points, md) = learning_curve::run(&settings)?;
    for p in &points {
        println!("step {} ({:.2} h): {} Elo {:+.0} ± {:.0} over {} games", p.step, p.hours, p.name, p.elo, p.ci95, p.games);
    }
    println!("report: {}", md.display());
    Ok(())
}

fn counts(text: &str, what: &str) -> anyhow::Result<Vec<u64>> {
    text.split(',').map(|p| p.trim().parse().map_err(|_| anyhow::anyhow!("{what} {p:?}: not a count"))).collect()
}

/// The study's settings from the command line.
///
/// # Errors
/// A count that does not parse.
pub fn settings(a: &DrawRatesArgs) -> anyhow::Result<draw_rates::Settings> {
    let command = std::iter::once("anqi".to_string()).chain(std::env::args().skip(1)).collect::<Vec<_>>().join(" ");
    let presets = match &a.presets {
        Some(v) => v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
        None => draw_rates::PRESETS.iter().map(|s| s.to_string()).collect(),
    };
    let program = a.fsf.clone().or_else(|| std::env::var("FAIRY_STOCKFISH").ok()).filter(|p| !p.is_empty());
    let scaled = |n: u32| ((n as f64 * a.scale).round() as u32).max(1);
    Ok(draw_rates::Settings {
        presets,
        levels: a.levels.split(';').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
        deals: counts(&a.deals, "--deals")?.into_iter().map(|x| x as u32).collect(),
        ceiling: Some(a.ceiling.trim().to_string()).filter(|c| !c.is_empty()),
        ceiling_deals: a.ceiling_deals,
        scale: a.scale,
        threads: a.threads,
        cluster: a.cluster.as_deref().map(crate::ray_games::Cluster::new),
        halfwidth: a.halfwidth.map(|h| h / 100.0),
        min_deals: a.min_deals,
        wave: a.wave,
        report_only: a.report_only,
        seed: a.seed,
        max_plies: a.max_plies,
        out: a.out.clone(),
        command,
        progress: !a.quiet,
        anchors: program.map(|program| AnchorSettings { program, nodes: counts(&a.fsf_nodes, "--fsf-nodes").unwrap_or_default(), games: scaled(a.fsf_games), opening_plies: 6 }),
        ladder_dir: a.ladder_dir.clone(),
    })
}

/// `--halfwidth`: points in (0, 100].
fn halfwidth_points(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 100.0 => Ok(x),
        _ => Err(format!("{s:?} is not a number of points in (0, 100]")),
    }
}

fn draw_rates_cmd(a: DrawRatesArgs) -> anyhow::Result<()> {
    let settings = settings(&a)?;
    let (rows, seconds) = draw_rates::run(&settings)?;
    let study = Study::new(&settings, &rows, seconds);
    study.write()?;
    print!("{}", study.summary_csv());
    println!("wrote {}: report.md, summary.csv, games.tsv, draw-rates.png/.svg{}", a.out.display(), if settings.anchors.is_some() { ", anchors.png/.svg" } else { "" });
    Ok(())
}
