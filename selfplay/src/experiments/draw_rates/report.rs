//! The study's report: `report.md` (the answer per information class and strength, per-preset
//! tables, the ceiling, the strength trend with ladder Elo and the external anchors, the
//! caveats), `summary.csv`, and the plots `draw-rates.png`/`.svg` (paired difference by level and
//! class) and `anchors.png`/`.svg` (Fairy-Stockfish self-play draw rate by node budget beside
//! Pikafish's model).

use super::anchors::{pikafish_draw_rate, AnchorSettings, START_MATERIAL};
use super::stats::{self, PairedCell};
use super::store::GameRow;
use super::{info_class, Settings};
use crate::experiments::plot::{self, Series};
use crate::tournament::elo::wilson95;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// A level's Elo on a preset's ladder: `(elo, ci95)` of the ladder player whose spec is `spec`
/// (`<ladder_dir>/<preset>.csv`, written by `anqi ladder`), if there is one. A level with a time
/// budget, `NAME:…,ms=M`, is also the ladder's `NAME:…` when that ladder plays at `M` ms a move
/// (`movetime_ms` of `<ladder_dir>/<preset>/ladder.toml`).
pub fn ladder_elo(ladder_dir: &Path, preset: &str, spec: &str) -> Option<(f64, f64)> {
    let text = std::fs::read_to_string(ladder_dir.join(format!("{preset}.csv"))).ok()?;
    let at_ladder_time = ladder_movetime(ladder_dir, preset).and_then(|ms| without_ms(spec, ms));
    for line in text.lines().skip(1) {
        let f = split_csv(line);
        if f.len() >= 6 && (f[2] == spec || at_ladder_time.as_deref() == Some(f[2].as_str())) {
            return Some((f[4].parse().ok()?, f[5].parse().ok()?));
        }
    }
    None
}

/// The Elo of the ladder player named `name` on `<ladder_dir>/<variant>.csv`: `(elo, ci95)`.
pub fn ladder_elo_by_name(ladder_dir: &Path, variant: &str, name: &str) -> Option<(f64, f64)> {
    let text = std::fs::read_to_string(ladder_dir.join(format!("{variant}.csv"))).ok()?;
    text.lines().skip(1).map(split_csv).find(|f| f.len() >= 6 && f[1] == name).and_then(|f| Some((f[4].parse().ok()?, f[5].parse().ok()?)))
}

/// The xiangqi ladder's name for Fairy-Stockfish at `nodes` a move: `fairy-stockfish-100`,
/// `fairy-stockfish-1k`, `fairy-stockfish-10k`.
pub fn fsf_ladder_name(nodes: u64) -> String {
    if nodes >= 1000 && nodes % 1000 == 0 {
        format!("fairy-stockfish-{}k", nodes / 1000)
    } else {
        format!("fairy-stockfish-{nodes}")
    }
}

/// The ladder's time per move (`movetime_ms` in `<ladder_dir>/<preset>/ladder.toml`).
fn ladder_movetime(ladder_dir: &Path, preset: &str) -> Option<u64> {
    let text = std::fs::read_to_string(ladder_dir.join(preset).join("ladder.toml")).ok()?;
    let v: toml::Value = toml::from_str(&text).ok()?;
    v.get("movetime_ms")?.as_integer().and_then(|x| u64::try_from(x).ok())
}

/// `spec` without its `ms=M` parameter, if it has exactly that one (`pimc:k=8,ms=50` → `pimc:k=8`,
/// `pimc:ms=50` → `pimc`).
fn without_ms(spec: &str, ms: u64) -> Option<String> {
    let (name, params) = spec.split_once(':')?;
    let want = format!("ms={ms}");
    let parts: Vec<&str> = params.split(',').map(str::trim).collect();
    if !parts.contains(&want.as_str()) {
        return None;
    }
    let rest: Vec<&str> = parts.into_iter().filter(|p| *p != want).collect();
    Some(if rest.is_empty() { name.to_string() } else { format!("{name}:{}", rest.join(",")) })
}

/// Splits one line of the ladder's CSV (fields optionally in double quotes, `""` an escaped quote).
fn split_csv(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut it = line.chars().peekable();
    while let Some(c) = it.next() {
        match (c, quoted) {
            ('"', true) if it.peek() == Some(&'"') => {
                cur.push('"');
                it.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// Everything the report shows, computed once.
pub struct Study<'a> {
    /// Settings.
    pub settings: &'a Settings,
    /// The games of the settings' cells (and the anchors').
    pub rows: &'a [GameRow],
    /// `cells[preset][level]`.
    pub cells: Vec<Vec<PairedCell>>,
    /// Wall time of this run, seconds.
    pub seconds: f64,
}

const CLASSES: [&str; 3] = ["private set-up", "chance reveals", "private set-up (RULES-more)"];

fn pct(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

impl<'a> Study<'a> {
    /// The study of `rows`.
    pub fn new(settings: &'a Settings, rows: &'a [GameRow], seconds: f64) -> Study<'a> {
        let cells = settings.presets.iter().map(|p| settings.levels.iter().map(|l| stats::paired(rows, p, l)).collect()).collect();
        Study { settings, rows, cells, seconds }
    }

    fn class_cells(&self, class: &str, level: usize) -> Vec<&PairedCell> {
        self.settings.presets.iter().enumerate().filter(|(_, p)| info_class(p) == class).map(|(i, _)| &self.cells[i][level]).collect()
    }

    fn all_cells(&self, level: usize) -> Vec<&PairedCell> {
        self.cells.iter().map(|row| &row[level]).collect()
    }

    /// The mean ladder Elo of level `l` over the presets whose ladder has it, with how many.
    pub fn level_elo(&self, l: usize) -> Option<(f64, usize)> {
        let e: Vec<f64> = self.settings.presets.iter().filter_map(|p| ladder_elo(&self.settings.ladder_dir, p, &self.settings.levels[l]).map(|x| x.0)).collect();
        (!e.is_empty()).then(|| (e.iter().sum::<f64>() / e.len() as f64, e.len()))
    }

    /// The mean ladder Elo of level `l` over the presets of information class `class` whose
    /// ladder rates it.
    fn class_level_elo(&self, class: &str, l: usize) -> Option<f64> {
        let e: Vec<f64> = self
            .settings
            .presets
            .iter()
            .filter(|p| info_class(p) == class)
            .filter_map(|p| ladder_elo(&self.settings.ladder_dir, p, &self.settings.levels[l]).map(|x| x.0))
            .collect();
        (!e.is_empty()).then(|| e.iter().sum::<f64>() / e.len() as f64)
    }

    /// Draw rate against ladder Elo: per information class a hidden and an open series (each
    /// level with a ladder Elo a point: the class's draws over its games, 95 % Wilson), and
    /// Fairy-Stockfish's self-play in xiangqi at the node budgets the xiangqi ladder rates.
    fn elo_series(&self) -> Vec<plot::XySeries> {
        let s = self.settings;
        let mut out = Vec::new();
        for class in CLASSES {
            for open in [false, true] {
                let points: Vec<(f64, f64, f64, f64)> = (0..s.levels.len())
                    .filter_map(|l| {
                        let elo = self.class_level_elo(class, l)?;
                        let cells = self.class_cells(class, l);
                        let n: u32 = cells.iter().map(|c| c.pairs).sum();
                        let d: u32 = cells.iter().map(|c| if open { c.open_draws } else { c.hidden_draws }).sum();
                        (n > 0).then(|| {
                            let (lo, hi) = wilson95(d, n);
                            (elo, d as f64 / n as f64, lo, hi)
                        })
                    })
                    .collect();
                if !points.is_empty() {
                    out.push(plot::XySeries { name: format!("{class}: {}", if open { "open twins" } else { "hidden" }), points, reference: open });
                }
            }
        }
        if let Some(a) = &s.anchors {
            let mut points: Vec<(f64, f64, f64, f64)> = a
                .nodes
                .iter()
                .filter_map(|&n| {
                    let elo = ladder_elo_by_name(&s.ladder_dir, "xiangqi", &fsf_ladder_name(n))?.0;
                    let spec = a.spec(n);
                    let g: Vec<&GameRow> = self.rows.iter().filter(|r| r.key.preset == "xiangqi" && r.key.spec == spec).collect();
                    let d = g.iter().filter(|r| r.drawn()).count() as u32;
                    (!g.is_empty()).then(|| {
                        let (lo, hi) = wilson95(d, g.len() as u32);
                        (elo, d as f64 / g.len() as f64, lo, hi)
                    })
                })
                .collect();
            points.sort_by(|x, y| x.0.total_cmp(&y.0));
            if !points.is_empty() {
                out.push(plot::XySeries { name: "Fairy-Stockfish self-play, xiangqi (xiangqi ladder Elo)".into(), points, reference: false });
            }
        }
        out
    }

    /// Perpetual-check endings over all study games of searching levels, and games.
    pub fn perpetual_share(&self) -> (u32, u32) {
        let searching = |s: &str| !matches!(s.split(':').next(), Some("random" | "greedy"));
        let mut pc = 0;
        let mut n = 0;
        for (i, _) in self.settings.presets.iter().enumerate() {
            for (l, spec) in self.settings.levels.iter().enumerate() {
                if searching(spec) {
                    pc += self.cells[i][l].perpetual_checks();
                    n += 2 * self.cells[i][l].pairs;
                }
            }
        }
        (pc, n)
    }

    /// `summary.csv`: one row per (preset, level).
    pub fn summary_csv(&self) -> String {
        let mut t = String::from("preset,class,level,ladder_elo,pairs,hidden_draw_rate,open_draw_rate,diff,diff_ci95,hidden_plies,open_plies\n");
        for (i, p) in self.settings.presets.iter().enumerate() {
            for (l, spec) in self.settings.levels.iter().enumerate() {
                let c = &self.cells[i][l];
                let elo = ladder_elo(&self.settings.ladder_dir, p, spec).map(|e| format!("{:.0}", e.0)).unwrap_or_default();
                let _ = writeln!(
                    t,
                    "{p},{},\"{spec}\",{elo},{},{:.4},{:.4},{:.4},{:.4},{:.1},{:.1}",
                    info_class(p),
                    c.pairs,
                    c.hidden_rate(),
                    c.open_rate(),
                    c.diff,
                    c.ci95(),
                    c.plies.0,
                    c.plies.1
                );
            }
        }
        t
    }

    fn answer(&self) -> String {
        let s = self.settings;
        let mut t = String::new();
        let top = s.levels.len().saturating_sub(1);
        if let Some((h, o, d, hw)) = stats::pooled(&self.all_cells(top)) {
            let verdict = if d + hw < 0.0 {
                format!("hidden information **lowers** the draw rate by {} points (95 % CI {} to {})", pct(-d), pct(-(d + hw)), pct(-(d - hw)))
            } else if d - hw > 0.0 {
                format!("hidden information **raises** the draw rate by {} points (95 % CI {} to {})", pct(d), pct(d - hw), pct(d + hw))
            } else {
                format!("no difference is resolved: {:+.1} points (95 % CI {:+.1} to {:+.1})", 100.0 * d, 100.0 * (d - hw), 100.0 * (d + hw))
            };
            let _ = write!(
                t,
                "**Answer.** With the rules and the deal held fixed and only information changed, at the strongest level \
                 (`{}` on both sides), the hidden presets draw {} % of their games and their open twins {} % (unweighted \
                 means over {} presets): {verdict}.",
                s.levels[top],
                pct(h),
                pct(o),
                self.all_cells(top).iter().filter(|c| c.pairs > 0).count()
            );
            if h < 0.1 && o < 0.1 {
                t.push_str(
                    " At this strength both the hidden presets and their open twins almost never draw (the Fairy-Stockfish \
                     anchor below shows how draws rise with strength in an open game), so this run cannot show whether hidden \
                     information lowers the draw rate of *strong* play; it shows that information alone does not move the draw \
                     rate of these bots by more than the interval.",
                );
            }
            if let Some(g) = s.levels.iter().position(|l| l == "greedy") {
                if stats::pooled(&self.all_cells(g)).is_some_and(|(_, _, d, hw)| d == 0.0 && hw == 0.0) {
                    t.push_str(
                        " (`greedy` uses no hidden information: with the same seeds it plays the same moves hidden and open, so its \
                         difference is 0 by construction — a check of the pairing.)",
                    );
                }
            }
        }
        t.push_str("\n\n| level | ladder Elo | class | presets | hidden | open | hidden − open (95 % CI) |\n|---|---:|---|---:|---:|---:|---|\n");
        for (l, spec) in s.levels.iter().enumerate() {
            let elo = self.level_elo(l).map(|(e, n)| format!("{e:+.0} ({n})")).unwrap_or_else(|| "–".into());
            let mut classes: Vec<(&str, Vec<&PairedCell>)> = CLASSES.iter().map(|c| (*c, self.class_cells(c, l))).collect();
            classes.push(("all hidden presets", self.all_cells(l)));
            for (class, cells) in classes {
                if let Some((h, o, d, hw)) = stats::pooled(&cells) {
                    let _ = writeln!(
                        t,
                        "| `{spec}` | {elo} | {class} | {} | {} % | {} % | {:+.1} ({:+.1} to {:+.1}) |",
                        cells.iter().filter(|c| c.pairs > 0).count(),
                        pct(h),
                        pct(o),
                        100.0 * d,
                        100.0 * (d - hw),
                        100.0 * (d + hw)
                    );
                }
            }
        }
        t.push_str(
            "\nLadder Elo: the mean over the presets whose ladder (`experiments/ladder/<preset>.csv`) rates that spec, with how many \
             in brackets (`random` = 0 on each ladder).\n",
        );
        t
    }

    fn trend(&self) -> String {
        let s = self.settings;
        let mut t = String::from("## Strength trend and external anchors\n\n");
        let diffs: Vec<(usize, f64, f64)> = (0..s.levels.len()).filter_map(|l| stats::pooled(&self.all_cells(l)).map(|(_, _, d, h)| (l, d, h))).collect();
        if diffs.len() >= 2 {
            let list: Vec<String> = diffs
                .iter()
                .map(|(l, d, h)| {
                    let elo = self.level_elo(*l).map(|(e, _)| format!(", Elo {e:+.0}")).unwrap_or_default();
                    format!("`{}`{elo}: {:+.1} ± {:.1}", s.levels[*l], 100.0 * d, 100.0 * h)
                })
                .collect();
            let _ = writeln!(t, "Hidden minus open, all hidden presets pooled, weakest level first: {}.\n", list.join("; "));
        }
        let fsf: Vec<(String, u32, u32)> = match &s.anchors {
            Some(a) => a
                .nodes
                .iter()
                .map(|&n| {
                    let spec = a.spec(n);
                    let g: Vec<&GameRow> = self.rows.iter().filter(|r| r.key.preset == "xiangqi" && r.key.spec == spec).collect();
                    (format!("{n} nodes"), g.iter().filter(|r| r.drawn()).count() as u32, g.len() as u32)
                })
                .collect(),
            None => Vec::new(),
        };
        if fsf.iter().any(|x| x.2 > 0) {
            t.push_str("Fairy-Stockfish self-play in standard xiangqi (an open game), by node budget per move:\n\n| budget | games | draw rate (95 % Wilson) |\n|---|---:|---|\n");
            for (name, d, n) in &fsf {
                let (lo, hi) = wilson95(*d, *n);
                let _ = writeln!(t, "| {name} | {n} | {} % [{}, {}] |", pct(*d as f64 / (*n).max(1) as f64), pct(lo), pct(hi));
            }
            t.push('\n');
        } else {
            t.push_str("Fairy-Stockfish anchor: not run (no engine: set `FAIRY_STOCKFISH` or `--fsf`; experiments/perf/PEERS.md builds it).\n\n");
        }
        let _ = writeln!(
            t,
            "Reference lines: Pikafish's WDL model (src/uci.cpp `win_rate_params`, official-pikafish/Pikafish 04865243) gives a draw \
             rate of **{} %** at an even evaluation with the full start material ({START_MATERIAL} units) — long-time-control \
             self-play of a very strong engine. For Jieqi, the issue that asked for this study quotes Pikafish's Jieqi branch's model \
             at about 3 % in the first plies and 72 % after ply 120 (not re-derived here).\n",
            pct(pikafish_draw_rate(0.0, START_MATERIAL))
        );
        t
    }

    /// `report.md`; `plots` are the image names to embed.
    pub fn report(&self, plots: &[String]) -> String {
        let s = self.settings;
        let mut t = String::from("# Draw rates: how much does hidden information move them? (second edition: paired hidden/open deals)\n\n");
        let _ = writeln!(t, "Made by (resumable; `--scale N` multiplies the deals):\n\n```\n{}\n```\n", s.command);
        let games = self.rows.len();
        let _ = writeln!(t, "{games} games in the store for these settings ({:.0} s in this run, {} threads, seed {}, ply limit {}).\n", self.seconds, s.threads, s.seed, s.max_plies);
        t.push_str(&self.answer());
        let (pc, n) = self.perpetual_share();
        let _ = writeln!(
            t,
            "\nPerpetual-check endings among the searching levels' games: {pc} of {n} ({:.2} %).\n",
            if n > 0 { 100.0 * pc as f64 / n as f64 } else { 0.0 }
        );
        if let Some(h) = s.halfwidth {
            let _ = writeln!(
                t,
                "Sequential: a (preset, level) stopped once its cautious 95 % half-width on hidden − open was at most {:.1} points \
                 after at least {} deals (checked every {} deals); the deal counts were maxima.\n",
                100.0 * h,
                s.min_deals,
                s.wave
            );
        }
        t.push_str(&self.endings_by_level());
        t.push_str(&self.cost());
        for p in plots {
            let _ = writeln!(t, "![plot]({p})\n");
        }
        t.push_str(&self.trend());
        t.push_str("## Per preset\n\n| preset | class | level | pairs | hidden | open | hidden − open (95 % CI) | plies h/o | endings hidden | endings open |\n|---|---|---|---:|---:|---:|---|---|---|---|\n");
        let ends = |m: &BTreeMap<String, u32>| {
            let mut v: Vec<(&String, &u32)> = m.iter().collect();
            v.sort_by(|a, b| b.1.cmp(a.1));
            v.iter().map(|(r, n)| format!("{r} {n}")).collect::<Vec<_>>().join(", ")
        };
        for (i, p) in s.presets.iter().enumerate() {
            for (l, spec) in s.levels.iter().enumerate() {
                let c = &self.cells[i][l];
                if c.pairs == 0 {
                    continue;
                }
                let _ = writeln!(
                    t,
                    "| {p} | {} | `{spec}` | {} | {} % | {} % | {:+.1} ({:+.1} to {:+.1}) | {:.0}/{:.0} | {} | {} |",
                    info_class(p),
                    c.pairs,
                    pct(c.hidden_rate()),
                    pct(c.open_rate()),
                    100.0 * c.diff,
                    100.0 * (c.diff - c.ci95()),
                    100.0 * (c.diff + c.ci95()),
                    c.plies.0,
                    c.plies.1,
                    ends(&c.hidden_endings),
                    ends(&c.open_endings)
                );
            }
        }
        if let Some(c) = &s.ceiling {
            let _ = writeln!(t, "\n## Ceiling: `{c}` (reads the full state) on the hidden deals\n\n| preset | games | draw rate (95 % Wilson) |\n|---|---:|---|");
            for p in &s.presets {
                let (d, n) = stats::draws(self.rows, p, c);
                if n > 0 {
                    let (lo, hi) = wilson95(d, n);
                    let _ = writeln!(t, "| {p} | {n} | {} % [{}, {}] |", pct(d as f64 / n as f64), pct(lo), pct(hi));
                }
            }
        }
        t.push_str(METHOD);
        t
    }

    /// What the study cost and what resolving it would: per level the games timed, their mean
    /// wall time on one core and the CPU-hours in the store; per (preset, level) the deals a 95 %
    /// half-width of the target (`halfwidth`, else 5 points) needs at the spread seen so far
    /// (the cautious variance of [`PairedCell::cautious_ci95`]), and the CPU-hours still to
    /// play, also as hours on 32 cores at perfect scaling.
    fn cost(&self) -> String {
        let s = self.settings;
        let target = s.halfwidth.unwrap_or(0.05);
        let timed = |p: Option<&str>, spec: &str| -> (usize, f64) {
            let xs: Vec<f64> = self.rows.iter().filter(|r| r.key.spec == spec && p.is_none_or(|p| r.key.preset == p)).filter_map(|r| r.seconds).collect();
            (xs.len(), xs.iter().sum())
        };
        let mut t = String::from("## Cost

Wall time of a game on one core (each game is one thread), by level:

| level | games timed | mean s/game | CPU-hours in the store |
|---|---:|---:|---:|
");
        for spec in s.levels.iter().chain(s.ceiling.iter()) {
            let (n, sum) = timed(None, spec);
            if n > 0 {
                let _ = writeln!(t, "| `{spec}` | {n} | {:.1} | {:.2} |", sum / n as f64, sum / 3600.0);
            }
        }
        let _ = writeln!(
            t,
            "
To resolve hidden − open to ±{:.1} points (95 %): deals needed at the spread seen so far (cautious), and the CPU-hours still to play:

\
             | preset | level | deals | hidden − open | deals for ±{:.1} | CPU-hours to go | hours on 32 cores |
|---|---|---:|---|---:|---:|---:|",
            100.0 * target,
            100.0 * target
        );
        for (i, p) in s.presets.iter().enumerate() {
            for (l, spec) in s.levels.iter().enumerate() {
                let c = &self.cells[i][l];
                if c.pairs < 2 {
                    continue;
                }
                let (n, sum) = timed(Some(p), spec);
                let var = (c.cautious_ci95() / crate::tournament::elo::Z95).powi(2) * c.pairs as f64;
                let need = ((crate::tournament::elo::Z95 / target).powi(2) * var).ceil().max(c.pairs as f64);
                let hours = if n > 0 { (need - c.pairs as f64) * 2.0 * (sum / n as f64) / 3600.0 } else { f64::NAN };
                let _ = writeln!(
                    t,
                    "| {p} | `{spec}` | {} | {:+.1} ± {:.1} | {need:.0} | {} | {} |",
                    c.pairs,
                    100.0 * c.diff,
                    100.0 * c.ci95(),
                    if hours.is_finite() { format!("{hours:.1}") } else { "–".into() },
                    if hours.is_finite() { format!("{:.2}", hours / 32.0) } else { "–".into() }
                );
            }
        }
        t.push('\n');
        t
    }

    /// How the games of each level ended (hidden and open together, every preset), as shares of
    /// the ending kinds of [`stats::ending_kind`]; a markdown table.
    fn endings_by_level(&self) -> String {
        let mut t = String::from("How the games ended, by level (hidden and open games of every preset together):\n\n| level | games |");
        for k in stats::ENDING_KINDS {
            let _ = write!(t, " {k} |");
        }
        t.push_str("\n|---|---:|");
        t.push_str(&"---:|".repeat(stats::ENDING_KINDS.len()));
        t.push('\n');
        for spec in self.settings.levels.iter().chain(self.settings.ceiling.iter()) {
            let games: Vec<&GameRow> = self.rows.iter().filter(|r| &r.key.spec == spec && self.settings.presets.contains(&r.key.preset)).collect();
            if games.is_empty() {
                continue;
            }
            let _ = write!(t, "| `{spec}` | {} |", games.len());
            for k in stats::ENDING_KINDS {
                let n = games.iter().filter(|r| stats::ending_kind(&r.reason) == k).count();
                let _ = write!(t, " {} % |", pct(n as f64 / games.len() as f64));
            }
            t.push('\n');
        }
        t.push_str("\nmate: checkmate, stalemate, a captured or dead general; repetition: repetition, perpetual check or chase; move count: the 60-move and no-capture rules; material: no attacking material; ply limit: adjudicated a draw at the study's limit.\n\n");
        t
    }

    /// Writes `report.md`, `summary.csv` and the plots into the settings' `out`.
    ///
    /// # Errors
    /// I/O.
    pub fn write(&self) -> std::io::Result<()> {
        let s = self.settings;
        let out = &s.out;
        let mut plots = Vec::new();
        let cats: Vec<String> = (0..s.levels.len())
            .map(|l| match self.level_elo(l) {
                Some((e, _)) => format!("{} (Elo {e:+.0})", s.levels[l]),
                None => s.levels[l].clone(),
            })
            .collect();
        let mut series: Vec<Series> = CLASSES
            .iter()
            .map(|c| Series {
                name: (*c).to_string(),
                points: (0..s.levels.len())
                    .map(|l| stats::pooled(&self.class_cells(c, l)).map(|(_, _, d, h)| (100.0 * d, 100.0 * (d - h), 100.0 * (d + h))).unwrap_or((f64::NAN, f64::NAN, f64::NAN)))
                    .collect(),
            })
            .filter(|x| x.points.iter().any(|p| p.0.is_finite()))
            .collect();
        series.push(Series {
            name: "all hidden presets".into(),
            points: (0..s.levels.len())
                .map(|l| stats::pooled(&self.all_cells(l)).map(|(_, _, d, h)| (100.0 * d, 100.0 * (d - h), 100.0 * (d + h))).unwrap_or((f64::NAN, f64::NAN, f64::NAN)))
                .collect(),
        });
        match plot::value_bars(&out.join("draw-rates.png"), &out.join("draw-rates.svg"), "Hidden minus open draw rate, paired by deal (95 % CI)", "percentage points", &cats, &series) {
            Ok(()) => plots.push("draw-rates.png".to_string()),
            Err(e) => eprintln!("warning: no plot: {e}"),
        }
        let xy = self.elo_series();
        if !xy.is_empty() {
            match plot::xy_lines(&out.join("draw-elo.png"), &out.join("draw-elo.svg"), "Draw rate against strength (ladder Elo)", "ladder Elo (random = 0 on each ladder)", "draw rate (95 % Wilson interval)", &xy) {
                Ok(()) => plots.push("draw-elo.png".to_string()),
                Err(e) => eprintln!("warning: no plot: {e}"),
            }
        }
        if let Some(a) = &s.anchors {
            if let Some(p) = self.anchor_plot(a) {
                plots.push(p);
            }
        }
        write_atomic(&out.join("report.md"), &self.report(&plots))?;
        write_atomic(&out.join("summary.csv"), &self.summary_csv())
    }

    fn anchor_plot(&self, a: &AnchorSettings) -> Option<String> {
        let cats: Vec<String> = a.nodes.iter().map(|n| format!("{n} nodes/move")).collect();
        let fsf: Vec<(f64, f64, f64)> = a
            .nodes
            .iter()
            .map(|&n| {
                let spec = a.spec(n);
                let g: Vec<&GameRow> = self.rows.iter().filter(|r| r.key.preset == "xiangqi" && r.key.spec == spec).collect();
                let d = g.iter().filter(|r| r.drawn()).count() as u32;
                if g.is_empty() {
                    return (f64::NAN, f64::NAN, f64::NAN);
                }
                let (lo, hi) = wilson95(d, g.len() as u32);
                (d as f64 / g.len() as f64, lo, hi)
            })
            .collect();
        if fsf.iter().all(|p| !p.0.is_finite()) {
            return None;
        }
        let pk = pikafish_draw_rate(0.0, START_MATERIAL);
        let series = [
            Series { name: "Fairy-Stockfish self-play, xiangqi".into(), points: fsf },
            Series { name: "Pikafish WDL model, even start position".into(), points: a.nodes.iter().map(|_| (pk, pk, pk)).collect() },
        ];
        let out = &self.settings.out;
        match plot::error_bars(&out.join("anchors.png"), &out.join("anchors.svg"), "External anchors: draw rate in open xiangqi by engine strength", &cats, &series) {
            Ok(()) => Some("anchors.png".into()),
            Err(e) => {
                eprintln!("warning: no anchor plot: {e}");
                None
            }
        }
    }
}

fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    engine::fsio::write_atomic(path, text.as_bytes())
}

const METHOD: &str = "\n## Method and what this does not show\n
- **Paired design.** Each deal (set-up seed) of a hidden preset is played twice by the same bot spec on both sides with the \
same bot seeds: under the preset's rules and under its open twin (docs/open-twins.md: the same rules and deal, everything \
public from the start; in the random modes the deal is fixed at the start and known). Only information differs within a pair. \
The paired difference of the draw indicators is averaged over deals; its interval is 1.96 standard errors of the per-deal \
differences. A class (or all-presets) figure is the unweighted mean of its presets' figures, its variance the sum of theirs \
over k².
- **Levels** are fixed-work specs (the machine's load does not change them) or a time per move (`ms=M`: on a loaded \
machine both sides search less alike); their Elo comes from the ladders (`anqi ladder`) where a ladder has them (the spec \
itself, a challenger placed against the reference players, or a `ms=M` level at the ladder's own time per move). Bots that search see the game's history (repetition, perpetual check and chase, the \
60-move rule); the perpetual-check line above counts how many games still ended that way.
- **Draws** are rule draws (repetition, 60-move rule, no attacking material, agreed draw) or games at the ply limit \
(adjudicated; listed as `ply limit` in the endings).
- **Zero-width intervals.** A cell whose pairs all agree (every difference 0) gets a zero-width interval from the normal \
approximation; read it as “no pair differed in this many deals”, not as certainty.
- **RULES-more.md presets whose set-up is revealed when complete** (skill-secret §1.9, missile-hidden-5 and \
missile-hidden-centre §3.8): the study draws their set-ups uniformly from the deal's seed (as tournaments do), and after \
the reveal the hidden game and its twin are the same game, so their pairs are identical move for move. Information \
differs only in play for camel-7-secret (secret tricks stay hidden until used) and missile-hidden-5-down (placed pieces \
stay face-down until they move).
- **What it does not show.** These are draw rates of these bots at these budgets, not of expert play; an open twin is a \
different game for a player who *could* use the information, and a bot that cannot exploit it (the weak levels) shows little \
difference. The trend with strength is over three or four levels of one family of bots. The Fairy-Stockfish and Pikafish \
anchors are open xiangqi only.
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timed_level_is_the_ladder_player_at_the_ladders_time() {
        assert_eq!(without_ms("pimc:ms=50", 50).as_deref(), Some("pimc"));
        assert_eq!(without_ms("pimc:k=8,ms=50", 50).as_deref(), Some("pimc:k=8"));
        assert_eq!(without_ms("pimc:ms=200", 50), None);
        assert_eq!(without_ms("pimc", 50), None);
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("jieqi")).expect("dir");
        std::fs::write(dir.path().join("jieqi/ladder.toml"), "variant = \"jieqi\"\nmovetime_ms = 50\n").expect("toml");
        std::fs::write(dir.path().join("jieqi.csv"), "rank,player,spec,oracle,elo,ci95,games,points,score,draws\n1,\"pimc\",\"pimc\",false,1646.3,242.5,204,188,0.9216,2\n").expect("csv");
        assert_eq!(ladder_elo(dir.path(), "jieqi", "pimc:ms=50"), Some((1646.3, 242.5)));
        assert_eq!(ladder_elo(dir.path(), "jieqi", "pimc"), Some((1646.3, 242.5)));
        assert_eq!(ladder_elo(dir.path(), "jieqi", "pimc:ms=200"), None);
        assert_eq!(ladder_elo_by_name(dir.path(), "jieqi", "pimc"), Some((1646.3, 242.5)));
        assert_eq!((fsf_ladder_name(100), fsf_ladder_name(10_000)), ("fairy-stockfish-100".to_string(), "fairy-stockfish-10k".to_string()));
    }

    #[test]
    fn ladder_csv_fields_split_with_quotes() {
        assert_eq!(split_csv(r#"1,"ismcts-30","ismcts:mode=so,iterations=30",false,12.5,3.0"#)[2], "ismcts:mode=so,iterations=30");
        assert_eq!(split_csv(r#"a,"b ""c""",d"#), vec!["a", "b \"c\"", "d"]);
    }
}
