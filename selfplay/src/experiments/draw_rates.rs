//! The draw-rate study (`anqi experiment draw-rates`): does hidden information lower the draw rate?
//!
//! Equal-strength self-play — the same bot spec on both sides, independently seeded — in every
//! variant of [`VARIANTS`] (or of `--variants`, RULES-more.md presets included), at each strength
//! of `--bots`. Every game has its own hidden set-up and random opening, drawn and played as in
//! tournaments ([`crate::tournament::Ruleset`]: one code path for variants and presets); the pairs with colours swapped that
//! tournaments use add nothing when one bot plays both sides (a deterministic bot would replay the
//! first game of a pair move for move), so the games are independent. Draws are the
//! rule draws (repetition, 60-move rule, no attacking material, agreed draw) plus games still
//! running at the ply limit (adjudicated, and counted separately in the endings).
//!
//! Writes to `--out`: `report.md` (per variant: games, draw rate with a 95 % Wilson interval,
//! Red's score, mean length, endings; the pooled comparison and its uncertainty; the command),
//! `draw-rates.png` and `draw-rates.svg` (draw rate per variant with error bars), `summary.csv`
//! and, with `--games-csv`, `games.csv`.

use crate::tournament::config::fnv1a;
use crate::tournament::elo::{wilson95, Z95};
use crate::tournament::game::{PlayerKind, Rules};
use crate::tournament::Ruleset;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The variants of the study, in report order.
pub const VARIANTS: [&str; 14] = [
    "xiangqi", "king", "fanqi-1", "fanqi-2", "surprise", "fanqi-3", "fanqi-5", "fanqi-7", "fanqi-9", "fanqi-4", "fanqi-6", "fanqi-8",
    "fanqi-10", "jieqi",
];

/// What kind of hidden information a variant has (RULES.md, "Information classes").
pub fn info_class(variant: &str) -> &'static str {
    match variant {
        "xiangqi" | "king" | "fanqi-1" | "fanqi-2" => "none",
        "surprise" | "fanqi-3" | "fanqi-5" | "fanqi-7" | "fanqi-9" => "private set-up",
        // RULES-more.md games (`engine::more`).
        // The face-down readings keep the set-up's kinds hidden until each piece moves: still
        // private information from the set-up, revealed by play, not by chance.
        "skill-secret" | "missile-hidden-5" | "missile-hidden-centre" | "missile-hidden-5-down" | "missile-hidden-centre-down" => "private set-up",
        // Rule files of those games: by their set-up option.
        v if engine::more::presets::is_spec(v) => match engine::more::MoreVariant::resolve(v) {
            Ok(m) if m.hidden_setup() => "private set-up",
            _ => "none",
        },
        _ => "chance reveals",
    }
}

/// Study settings.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Bot specs, one strength each.
    pub bots: Vec<String>,
    /// Games per (variant, bot) cell at scale 1, by bot (the last value repeats).
    pub games: Vec<u32>,
    /// Multiplies `games`.
    pub scale: f64,
    /// Variants.
    pub variants: Vec<String>,
    /// Parallel games.
    pub threads: usize,
    /// Master seed.
    pub seed: u64,
    /// Ply limit (adjudicated draw).
    pub max_plies: usize,
    /// Random opening plies.
    pub opening_plies: usize,
    /// Output directory.
    pub out: PathBuf,
    /// The command line, for the report.
    pub command: String,
    /// Draw a progress bar.
    pub progress: bool,
}

impl Settings {
    /// Games for bot `b` after scaling (at least 1).
    pub fn games_for(&self, b: usize) -> u32 {
        let base = self.games.get(b).or(self.games.last()).copied().unwrap_or(10);
        ((base as f64 * self.scale).round() as u32).max(1)
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// Variant index.
    pub variant: usize,
    /// Bot index.
    pub bot: usize,
    /// Game number within the cell.
    pub index: u32,
    /// Red's points.
    pub red_score: f64,
    /// Ending.
    pub reason: String,
    /// Plies.
    pub plies: usize,
}

/// Aggregates of one (variant, bot) cell.
#[derive(Clone, Debug, Default)]
pub struct Cell {
    /// Games.
    pub games: u32,
    /// Draws.
    pub draws: u32,
    /// Red's points.
    pub red_points: f64,
    /// Sum of squared Red points (for the score's standard error).
    pub red_sq: f64,
    /// Total plies.
    pub plies: u64,
    /// Endings.
    pub reasons: BTreeMap<String, u32>,
}

impl Cell {
    fn add(&mut self, g: &GameRow) {
        self.games += 1;
        if g.red_score == 0.5 {
            self.draws += 1;
        }
        self.red_points += g.red_score;
        self.red_sq += g.red_score * g.red_score;
        self.plies += g.plies as u64;
        *self.reasons.entry(g.reason.clone()).or_insert(0) += 1;
    }

    /// Binomial variance of the draw rate (the games are independent).
    pub fn rate_variance(&self) -> f64 {
        let p = self.rate();
        p * (1.0 - p) / self.games.max(1) as f64
    }

    /// Draw rate.
    pub fn rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.draws as f64 / self.games as f64
        }
    }

    /// Red's mean score and its 95 % half-width.
    pub fn red(&self) -> (f64, f64) {
        let n = self.games.max(1) as f64;
        let m = self.red_points / n;
        let var = (self.red_sq / n - m * m).max(0.0);
        (m, Z95 * (var / n).sqrt())
    }
}

/// The study's results.
pub struct Results {
    /// Settings used.
    pub settings: Settings,
    /// `cells[variant][bot]`.
    pub cells: Vec<Vec<Cell>>,
    /// Every game.
    pub rows: Vec<GameRow>,
    /// Wall time, seconds.
    pub seconds: f64,
}

fn game_seed(master: u64, variant: &str, index: u32) -> u64 {
    fnv1a(format!("draw-rates|{master}|{variant}|{index}").as_bytes())
}

/// Plays the study.
///
/// # Errors
/// An unknown variant or bot spec, or a failed game.
pub fn run(settings: Settings) -> anyhow::Result<Results> {
    // RULES.md variants and RULES-more.md presets alike: a Ruleset, played by the tournaments'
    // set-up and game loop.
    let variants: Vec<Ruleset> = settings.variants.iter().map(|v| Ruleset::load(v)).collect::<anyhow::Result<_>>()?;
    for b in &settings.bots {
        for r in &variants {
            r.check_bot(b).map_err(|e| anyhow::anyhow!("--bots {b:?} ({}): {e}", r.name()))?;
        }
    }
    // Jobs interleaved so that a partial run covers every cell.
    let max_games = (0..settings.bots.len()).map(|b| settings.games_for(b)).max().unwrap_or(0);
    let mut jobs = Vec::new();
    for index in 0..max_games {
        for b in 0..settings.bots.len() {
            if index < settings.games_for(b) {
                for v in 0..variants.len() {
                    jobs.push((v, b, index));
                }
            }
        }
    }
    let rules = Rules { max_plies: settings.max_plies, opening_plies: settings.opening_plies };
    let bar = if settings.progress { ProgressBar::new(jobs.len() as u64) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games [{elapsed_precise} < {eta_precise}] {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let rows = Mutex::new(Vec::with_capacity(jobs.len()));
    let error: Mutex<Option<String>> = Mutex::new(None);
    let next = AtomicUsize::new(0);
    let threads = settings.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let t0 = Instant::now();
    pool.scope(|s| {
        for _ in 0..threads {
            s.spawn(|_| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&(v, b, index)) = jobs.get(i) else { break };
                if error.lock().map(|e| e.is_some()).unwrap_or(true) {
                    break;
                }
                let spec = &settings.bots[b];
                let ruleset = &variants[v];
                let play = || -> anyhow::Result<GameRow> {
                    let setup = ruleset.setup(game_seed(settings.seed, ruleset.name(), index))?;
                    let sr = fnv1a(format!("{}|{spec}|red", setup.seed).as_bytes());
                    let sb = fnv1a(format!("{}|{spec}|black", setup.seed).as_bytes());
                    let bot = PlayerKind::Bot(spec.clone());
                    let p = ruleset.play(&setup, rules, &bot, &bot, (sr, sb))?;
                    Ok(GameRow { variant: v, bot: b, index, red_score: p.outcome.red_score(), reason: p.outcome.reason, plies: p.moves.len() })
                };
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(play)) {
                    Ok(Ok(row)) => {
                        if let Ok(mut r) = rows.lock() {
                            r.push(row);
                        }
                        bar.inc(1);
                    }
                    Ok(Err(e)) => {
                        if let Ok(mut x) = error.lock() {
                            x.get_or_insert(format!("{} / {spec} game {index}: {e:#}", ruleset.name()));
                        }
                    }
                    Err(_) => {
                        if let Ok(mut x) = error.lock() {
                            x.get_or_insert(format!("{} / {spec} game {index}: the bot panicked", ruleset.name()));
                        }
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        anyhow::bail!("draw-rate study stopped: {e}");
    }
    let mut rows = rows.into_inner().unwrap_or_else(|p| p.into_inner());
    rows.sort_by_key(|r| (r.variant, r.bot, r.index));
    let mut cells = vec![vec![Cell::default(); settings.bots.len()]; variants.len()];
    for r in &rows {
        cells[r.variant][r.bot].add(r);
    }
    Ok(Results { settings, cells, rows, seconds: t0.elapsed().as_secs_f64() })
}

/// A pooled draw rate over a set of cells (the mean of their rates) with a 95 % half-width.
fn pooled(cells: &[&Cell]) -> (f64, f64) {
    let k = cells.len().max(1) as f64;
    let mean = cells.iter().map(|c| c.rate()).sum::<f64>() / k;
    let var = cells.iter().map(|c| c.rate_variance()).sum::<f64>() / (k * k);
    (mean, Z95 * var.sqrt())
}

impl Results {
    /// Variant names.
    pub fn variant_names(&self) -> &[String] {
        &self.settings.variants
    }

    /// `(class, pooled rate, half-width)` for each information class present, then the
    /// differences `("hidden - none", diff, half-width)` and `("hidden - xiangqi", …)`.
    pub fn comparison(&self, bot: usize) -> Vec<(String, f64, f64)> {
        let mut out = Vec::new();
        let mut by_class: BTreeMap<&str, Vec<&Cell>> = BTreeMap::new();
        for (v, name) in self.settings.variants.iter().enumerate() {
            by_class.entry(info_class(name)).or_default().push(&self.cells[v][bot]);
        }
        for class in ["none", "private set-up", "chance reveals"] {
            if let Some(cs) = by_class.get(class) {
                let (m, h) = pooled(cs);
                out.push((class.to_string(), m, h));
            }
        }
        let hidden: Vec<&Cell> = by_class.iter().filter(|(c, _)| **c != "none").flat_map(|(_, v)| v.iter().copied()).collect();
        if !hidden.is_empty() {
            let (m, h) = pooled(&hidden);
            out.push(("hidden".into(), m, h));
        }
        if let (Some(none), false) = (by_class.get("none"), hidden.is_empty()) {
            let (a, ha) = pooled(none);
            let (b, hb) = pooled(&hidden);
            out.push(("hidden - none".into(), b - a, (ha * ha + hb * hb).sqrt()));
        }
        if let (Some(x), false) = (self.settings.variants.iter().position(|v| v == "xiangqi"), hidden.is_empty()) {
            let (a, ha) = pooled(&[&self.cells[x][bot]]);
            let (b, hb) = pooled(&hidden);
            out.push(("hidden - xiangqi".into(), b - a, (ha * ha + hb * hb).sqrt()));
        }
        out
    }

    /// The answer in a few sentences: the strongest bot's (the last of `--bots`) comparison and how
    /// the difference moves with strength.
    pub fn headline(&self) -> String {
        let s = &self.settings;
        let per_bot: Vec<Vec<(String, f64, f64)>> = (0..s.bots.len()).map(|b| self.comparison(b)).collect();
        let get = |b: usize, k: &str| per_bot[b].iter().find(|(c, _, _)| c == k).map(|(_, m, h)| (*m, *h));
        let Some(last) = s.bots.len().checked_sub(1) else { return String::new() };
        let (Some((d, h)), Some((hm, hh)), Some((nm, nh))) = (get(last, "hidden - none"), get(last, "hidden"), get(last, "none")) else {
            return "The variants run do not include both perfect- and hidden-information ones, so there is no comparison.".into();
        };
        let pct = |x: f64| format!("{:.1}", 100.0 * x);
        let direction = if d + h < 0.0 {
            format!("hidden information **lowers** the draw rate, by {} percentage points (95 % CI {} to {})", pct(-d), pct(-(d + h)), pct(-(d - h)))
        } else if d - h > 0.0 {
            format!("hidden information **raises** the draw rate, by {} percentage points (95 % CI {} to {})", pct(d), pct(d - h), pct(d + h))
        } else {
            format!("no difference is resolved: {:+.1} percentage points (95 % CI {:+.1} to {:+.1})", 100.0 * d, 100.0 * (d - h), 100.0 * (d + h))
        };
        let mut t = format!(
            "**Finding.** With the strongest bot here (`{}` against itself), the hidden-information variants draw {} % ± {} \
             of their games and the perfect-information ones {} % ± {}: {direction}.",
            s.bots[last],
            pct(hm),
            pct(hh),
            pct(nm),
            pct(nh)
        );
        let diffs: Vec<(usize, f64, f64)> = (0..s.bots.len()).filter_map(|b| get(b, "hidden - none").map(|(d, h)| (b, d, h))).collect();
        if diffs.len() > 1 {
            let list: Vec<String> = diffs.iter().map(|(b, d, h)| format!("`{}` {:+.1} ± {:.1}", s.bots[*b], 100.0 * d, 100.0 * h)).collect();
            let falling = diffs.windows(2).all(|w| w[1].1 < w[0].1);
            let rising = diffs.windows(2).all(|w| w[1].1 > w[0].1);
            let trend = if falling {
                "the effect grows (more negative) as the bots get stronger"
            } else if rising {
                "the difference rises as the bots get stronger"
            } else {
                "the difference does not move monotonically with strength"
            };
            t.push_str(&format!(
                " Hidden minus perfect information, in percentage points, by strength (weakest first): {}; {trend}.",
                list.join(", ")
            ));
        }
        t.push_str(" These are draw rates of these bots, not of expert play (see the caveats at the end).");
        t
    }

    /// `summary.csv`.
    pub fn summary_csv(&self) -> String {
        let mut t = String::from("variant,info,bot,games,draws,draw_rate,wilson_lo,wilson_hi,red_score,mean_plies\n");
        for (v, name) in self.settings.variants.iter().enumerate() {
            for (b, bot) in self.settings.bots.iter().enumerate() {
                let c = &self.cells[v][b];
                let (lo, hi) = wilson95(c.draws, c.games);
                let _ = writeln!(
                    t,
                    "{name},{},{bot},{},{},{:.4},{lo:.4},{hi:.4},{:.4},{:.1}",
                    info_class(name),
                    c.games,
                    c.draws,
                    c.rate(),
                    c.red().0,
                    c.plies as f64 / c.games.max(1) as f64
                );
            }
        }
        t
    }

    /// `games.csv`.
    pub fn games_csv(&self) -> String {
        let mut t = String::from("variant,bot,game,red_score,plies,ending\n");
        for r in &self.rows {
            let _ = writeln!(
                t,
                "{},{},{},{},{},{}",
                self.settings.variants[r.variant],
                self.settings.bots[r.bot],
                r.index,
                r.red_score,
                r.plies,
                r.reason
            );
        }
        t
    }

    /// `report.md`.
    pub fn report(&self, plots: &[String]) -> String {
        let s = &self.settings;
        let mut t = String::new();
        let total: usize = self.rows.len();
        let _ = writeln!(t, "# Draw rates: does hidden information lower them?\n");
        let _ = writeln!(t, "Made by:\n\n```\n{}\n```\n", s.command);
        let _ = writeln!(
            t,
            "{total} games in {:.0} s on {} threads (seed {}, ply limit {}, {} random opening plies).\n",
            self.seconds, s.threads, s.seed, s.max_plies, s.opening_plies
        );
        let _ = writeln!(t, "## Answer\n");
        let _ = writeln!(t, "{}\n", self.headline());
        for (b, bot) in s.bots.iter().enumerate() {
            let cmp = self.comparison(b);
            let find = |k: &str| cmp.iter().find(|(c, _, _)| c == k).map(|(_, m, h)| (*m, *h));
            let mut line = format!("- **{bot}**: ");
            let parts: Vec<String> = cmp
                .iter()
                .filter(|(c, _, _)| !c.starts_with("hidden - "))
                .map(|(c, m, h)| format!("{c} {:.1} % ± {:.1}", 100.0 * m, 100.0 * h))
                .collect();
            line.push_str(&format!("mean draw rate by information class: {}. ", parts.join("; ")));
            if let Some((d, h)) = find("hidden - none") {
                let verdict = if d + h < 0.0 {
                    "hidden information **lowers** the draw rate"
                } else if d - h > 0.0 {
                    "hidden information **raises** the draw rate"
                } else {
                    "no difference is resolved at this size"
                };
                line.push_str(&format!(
                    "Hidden minus perfect-information: {:+.1} percentage points (95 % CI {:+.1} to {:+.1}): {verdict}.",
                    100.0 * d,
                    100.0 * (d - h),
                    100.0 * (d + h)
                ));
            }
            if let Some(x) = s.variants.iter().position(|v| v == "xiangqi") {
                let c = &self.cells[x][b];
                let (lo, hi) = wilson95(c.draws, c.games);
                line.push_str(&format!(" Standard xiangqi alone: {:.1} % [{:.1}, {:.1}]", 100.0 * c.rate(), 100.0 * lo, 100.0 * hi));
                if let Some((d, h)) = find("hidden - xiangqi") {
                    line.push_str(&format!("; hidden minus xiangqi {:+.1} points ({:+.1} to {:+.1})", 100.0 * d, 100.0 * (d - h), 100.0 * (d + h)));
                }
                line.push('.');
            }
            let _ = writeln!(t, "{line}");
        }
        let _ = writeln!(
            t,
            "\nInformation classes (RULES.md): *none* = xiangqi, king, fanqi-1, fanqi-2; *private set-up* = \
             surprise, fanqi-3/5/7/9; *chance reveals* = fanqi-4/6/8/10, jieqi; *hidden* = both of the latter. \
             Class means are unweighted means of the variants' draw rates; the ± of a mean or a difference \
             is 1.96 standard errors from the binomial variances of the variants' rates (independent games). \
             The per-variant intervals in the tables are 95 % Wilson intervals.\n"
        );
        for p in plots {
            let _ = writeln!(t, "![draw rate per variant]({p})\n");
        }
        for (b, bot) in s.bots.iter().enumerate() {
            let _ = writeln!(t, "## {bot} against itself ({} games per variant)\n", s.games_for(b));
            let _ = writeln!(t, "| variant | hidden information | games | draw rate (95 % Wilson) | Red's score | mean plies | endings |");
            let _ = writeln!(t, "|---|---|---:|---|---|---:|---|");
            for (v, name) in s.variants.iter().enumerate() {
                let c = &self.cells[v][b];
                let (lo, hi) = wilson95(c.draws, c.games);
                let (rm, rh) = c.red();
                let mut ends: Vec<(&String, &u32)> = c.reasons.iter().collect();
                ends.sort_by(|a, b| b.1.cmp(a.1));
                let ends: Vec<String> = ends.iter().map(|(r, n)| format!("{r} {n}")).collect();
                let _ = writeln!(
                    t,
                    "| {name} | {} | {} | {:.1} % [{:.1}, {:.1}] | {:.1} % ± {:.1} | {:.1} | {} |",
                    info_class(name),
                    c.games,
                    100.0 * c.rate(),
                    100.0 * lo,
                    100.0 * hi,
                    100.0 * rm,
                    100.0 * rh,
                    c.plies as f64 / c.games.max(1) as f64,
                    ends.join(", ")
                );
            }
            let _ = writeln!(t);
        }
        t.push_str(METHOD);
        t
    }
}

const METHOD: &str = "## Method and caveats\n
- Same bot spec on both sides, seeded independently. Every game has its own hidden set-up \
(Surprise layouts drawn uniformly, a shuffled owner's-choice arrangement, or the deal of the random \
modes) and its own random opening plies; Red's score is the first-move advantage.
- A draw is a rule draw (repetition, 60-move rule, no attacking material, agreed draw) or a game \
still running at the ply limit (`ply limit` in the endings, adjudicated a draw).
- The bots are weak, so these are draw rates *of these bots*, not of expert play. `greedy` takes \
the most valuable capture and otherwise plays a random legal action (flips included). `alphabeta` \
searches the position core (every piece as the type it moves as): it never flips a Surprise disc, \
values a face-down piece as its start point's type, ignores reveals and chance, and does not score \
perpetual check as a loss (RULES.md §X6), so it plays the hidden variants as if they were open and \
loses some games by perpetual check. Under `alphabeta` a Surprise game is a xiangqi game in which \
nobody flips.
- Deterministic bots (`alphabeta`) vary only through the random opening plies and the hidden \
set-up, so the opening plies are what makes the perfect-information games differ.
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_files_are_classed_by_their_set_up_option() {
        // Tests run in selfplay/: the example rule files of RULES-more.md games.
        assert_eq!(info_class("../configs/variants/examples/skill-secret-lshape.toml"), "private set-up");
        assert_eq!(info_class("../configs/variants/examples/missile-broad-base.toml"), "none");
        assert_eq!(info_class("missile-hidden-5"), "private set-up");
        assert_eq!(info_class("missile-hidden-5-down"), "private set-up");
    }

    fn settings() -> Settings {
        Settings {
            bots: vec!["greedy".into(), "random".into()],
            games: vec![6, 4],
            scale: 1.0,
            variants: vec!["xiangqi".into(), "jieqi".into(), "surprise".into()],
            threads: 2,
            seed: 5,
            max_plies: 150,
            opening_plies: 2,
            out: PathBuf::from("unused"),
            command: "anqi experiment draw-rates --test".into(),
            progress: false,
        }
    }

    #[test]
    fn small_study_reports_every_cell() {
        let r = run(settings()).expect("runs");
        assert_eq!(r.rows.len(), 3 * (6 + 4));
        assert_eq!(r.cells[1][0].games, 6);
        assert_eq!(r.cells[2][1].games, 4);
        let md = r.report(&["draw-rates.png".into()]);
        for needle in ["## Answer", "anqi experiment draw-rates --test", "| jieqi | chance reveals | 6 |", "## random against itself", "hidden minus xiangqi"] {
            assert!(md.contains(needle), "missing {needle:?} in\n{md}");
        }
        assert_eq!(r.summary_csv().lines().count(), 1 + 3 * 2);
        // Deterministic given the seed.
        let again = run(settings()).expect("runs");
        let key = |r: &Results| r.rows.iter().map(|g| (g.variant, g.bot, g.index, g.plies, g.reason.clone())).collect::<Vec<_>>();
        assert_eq!(key(&r), key(&again));
    }

    #[test]
    fn presets_play_in_the_study_like_the_variants() {
        let st = Settings {
            bots: vec!["greedy".into()],
            games: vec![3],
            variants: vec!["xiangqi".into(), "missile".into(), "skill-secret".into(), "camel-2".into()],
            max_plies: 60,
            ..settings()
        };
        let r = run(st.clone()).expect("runs");
        assert_eq!(r.rows.len(), 4 * 3);
        for v in 0..4 {
            assert_eq!(r.cells[v][0].games, 3, "{}", st.variants[v]);
            assert!(r.rows.iter().filter(|g| g.variant == v).all(|g| g.plies > 0 && g.plies <= 60));
        }
        let md = r.report(&[]);
        assert!(md.contains("| skill-secret | private set-up | 3 |"), "{md}");
        let again = run(st).expect("runs");
        let key = |r: &Results| r.rows.iter().map(|g| (g.variant, g.index, g.plies, g.reason.clone())).collect::<Vec<_>>();
        assert_eq!(key(&r), key(&again));
        // A spec the presets' bots do not know is refused before any game, naming the preset.
        let bad = Settings { bots: vec!["expectimax".into()], variants: vec!["missile".into()], ..settings() };
        let e = run(bad).err().expect("refused");
        assert!(format!("{e:#}").contains("missile"), "{e:#}");
    }

    #[test]
    fn binomial_variance_and_class_pooling() {
        let mut c = Cell::default();
        for i in 0..8u32 {
            c.add(&GameRow { variant: 0, bot: 0, index: i, red_score: if i % 2 == 0 { 0.5 } else { 1.0 }, reason: "x".into(), plies: 10 });
        }
        assert_eq!((c.games, c.draws), (8, 4));
        assert!((c.rate_variance() - 0.25 / 8.0).abs() < 1e-12);
        // Two cells at 0.5 with 8 games: mean 0.5, var = (0.03125 + 0.03125) / 4, half-width
        // 1.96 * sqrt(0.015625) = 0.245.
        let (m, h) = pooled(&[&c, &c]);
        assert!((m - 0.5).abs() < 1e-12 && (h - Z95 * 0.125).abs() < 1e-12);
    }
}
