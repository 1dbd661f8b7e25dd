//! The ladder's report files: `<variant>.md` (standings, crosstable, endings, how it was made),
//! `<variant>.csv` (one row per player) and `<variant>.png`/`.svg` (Elo with 95 % intervals),
//! each written through a temporary name and a rename.

use super::{write_atomic, Ladder, LadderError};
use crate::experiments::plot::{self, Series};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The standing's mark in tables and plots: † an oracle, ‡ a challenger, none a reference player.
fn mark(s: &super::Standing) -> &'static str {
    if s.oracle {
        " †"
    } else if s.challenger {
        " ‡"
    } else {
        ""
    }
}

impl Ladder {
    /// The standings as CSV: `rank,player,spec,oracle,elo,ci95,games,points,score,draws`.
    pub fn csv(&self) -> String {
        let mut t = String::from("rank,player,spec,oracle,elo,ci95,games,points,score,draws\n");
        for (r, s) in self.standings.iter().enumerate() {
            let p = &self.roster.players[s.index];
            let q = |x: &str| format!("\"{}\"", x.replace('"', "\"\""));
            let score = if s.games > 0 { s.points / s.games as f64 } else { f64::NAN };
            t.push_str(&format!(
                "{},{},{},{},{:.1},{:.1},{},{},{:.4},{}\n",
                r + 1,
                q(&p.name),
                q(&p.spec),
                s.oracle,
                s.elo,
                s.ci95,
                s.games,
                s.points,
                score,
                s.draws
            ));
        }
        t
    }

    /// The report as Markdown; `command` is the command line that reproduces it.
    pub fn markdown(&self, command: &str, plot_name: &str) -> String {
        let r = &self.roster;
        let games: u32 = self.pairings.iter().map(|p| p.wdl.n()).sum();
        let plies: usize = self.pairings.iter().map(|p| p.plies).sum();
        let mut t = format!("# Strength ladder: {}\n\n", r.variant);
        t.push_str(&format!(
            "Paired round-robin at **{} ms per move** (players with their own node or depth budget say so), {} set-up pairs per \
             pairing, each set-up played twice with colours swapped; every pairing meets the same hidden set-ups (seed {}); ply \
             limit {} (adjudicated a draw). {} games, mean length {:.1} plies.\n\n",
            r.movetime_ms,
            r.pairs,
            r.seed,
            r.max_plies,
            games,
            if games > 0 { plies as f64 / games as f64 } else { 0.0 }
        ));
        t.push_str(&format!("Reproduce (resumes; plays only missing games): `{command}`\n\n"));
        t.push_str(&format!("![Elo ladder]({plot_name})\n\n"));
        t.push_str(
            "Elo is the maximum-likelihood Bradley-Terry fit of the reference players' games, `random` anchored at 0; the 95 % \
             interval is that of the difference to `random`. **Oracles** (marked †) read the full state: each is rated alone \
             against the fixed reference ratings and never moves the scale.\n\n",
        );
        if self.standings.iter().any(|s| s.challenger) {
            t.push_str(
                "**Challengers** (marked ‡) play only the reference players named under the standings and are rated alone \
                 against their fixed ratings, like oracles; their intervals leave out those opponents' own uncertainty.\n\n",
            );
        }
        t.push_str("| # | player | spec | Elo | ±95 % | games | score | draws |\n|---:|---|---|---:|---:|---:|---:|---:|\n");
        for (k, s) in self.standings.iter().enumerate() {
            let p = &r.players[s.index];
            let budget = match (p.nodes, p.depth) {
                (Some(n), _) => format!(" (nodes {n})"),
                (None, Some(d)) => format!(" (depth {d})"),
                _ => String::new(),
            };
            t.push_str(&format!(
                "| {} | {}{} | `{}`{} | {:+.0} | {} | {} | {:.1} % | {:.0} % |\n",
                k + 1,
                p.name,
                mark(s),
                p.spec,
                budget,
                s.elo,
                if s.ci95.is_finite() { format!("{:.0}", s.ci95) } else { "∞".into() },
                s.games,
                if s.games > 0 { 100.0 * s.points / s.games as f64 } else { 0.0 },
                if s.games > 0 { 100.0 * s.draws as f64 / s.games as f64 } else { 0.0 },
            ));
        }
        if self.prior {
            t.push_str("\n(a perfect or zero score somewhere: one virtual draw per pairing was added to keep the ratings finite)\n");
        }
        let notes: Vec<String> = self
            .standings
            .iter()
            .filter_map(|s| {
                let p = &r.players[s.index];
                let against = p.is_challenger().then(|| format!("challenger, meets only {}", p.opponents.join(", ")));
                let text: Vec<&str> = against.as_deref().into_iter().chain(p.note.as_deref()).collect();
                (!text.is_empty()).then(|| format!("- **{}**: {}\n", p.name, text.join("; ")))
            })
            .collect();
        if !notes.is_empty() {
            t.push_str("\nNotes:\n\n");
            t.extend(notes);
        }
        t.push_str("\n## Pairings\n\nRow player's wins-draws-losses against the column player.\n\n");
        let order: Vec<usize> = self.standings.iter().map(|s| s.index).collect();
        t.push_str("| |");
        for &j in &order {
            t.push_str(&format!(" {} |", r.players[j].name));
        }
        t.push_str("\n|---|");
        t.push_str(&"---:|".repeat(order.len()));
        t.push('\n');
        for &i in &order {
            t.push_str(&format!("| {} |", r.players[i].name));
            for &j in &order {
                let cell = if i == j {
                    "·".to_string()
                } else {
                    self.pairings
                        .iter()
                        .find_map(|p| match p.players {
                            (a, b) if (a, b) == (i, j) => Some(p.wdl),
                            (a, b) if (a, b) == (j, i) => Some(p.wdl.flipped()),
                            _ => None,
                        })
                        .filter(|w| w.n() > 0)
                        .map(|w| format!("{}-{}-{}", w.w, w.d, w.l))
                        .unwrap_or_else(|| "-".into())
                };
                t.push_str(&format!(" {cell} |"));
            }
            t.push('\n');
        }
        let mut reasons: BTreeMap<&str, u32> = BTreeMap::new();
        for p in &self.pairings {
            for (k, v) in &p.reasons {
                *reasons.entry(k.as_str()).or_insert(0) += v;
            }
        }
        let ends: Vec<String> = reasons.iter().map(|(k, v)| format!("{k} {v}")).collect();
        t.push_str(&format!("\nEndings: {}.\n", ends.join(", ")));
        t.push_str("\nGames: `games/<a>__<b>.pgn`, one file per pairing (the tournament runner's PGN).\n");
        t
    }

    /// Viewer pages (`anqi view`) of the first two decisive games between the two best reference
    /// players, written to `<dir>/<stem>-games/`; returns Markdown links relative to `dir`, or a
    /// line saying why there are none.
    fn game_links(&self, ladder_dir: &Path, dir: &Path, stem: &str) -> String {
        let refs: Vec<usize> = self.standings.iter().filter(|s| !s.oracle && !s.challenger).map(|s| s.index).take(2).collect();
        let [a, b] = refs[..] else { return String::new() };
        let (i, j) = if a < b { (a, b) } else { (b, a) };
        let pgn = self.roster.pgn_path(ladder_dir, i, j);
        let Ok(text) = std::fs::read_to_string(&pgn) else { return String::new() };
        let (records, _) = crate::tournament::pgn::parse(&text);
        let chosen: Vec<usize> = records.iter().enumerate().filter(|(_, r)| r.outcome.winner.is_some()).map(|(k, _)| k).take(2).collect();
        if chosen.is_empty() {
            return format!("\nNo decisive game between {} and {} to show.\n", self.roster.players[i].name, self.roster.players[j].name);
        }
        let sub = format!("{stem}-games");
        match crate::viewer::page::write_games(&records, &chosen, &dir.join(&sub), "", None) {
            Ok(pages) => {
                let mut t = String::from(
                    "\n## Games to look at\n\nDecisive games between the two best reference players (viewer pages: step with the arrow keys; \
                     `r`/`b`/`f` switch between Red's, Black's and the full view):\n\n",
                );
                for (title, file) in pages {
                    t.push_str(&format!("- [{title}]({sub}/{file})\n"));
                }
                t
            }
            Err(e) => format!("\n(viewer pages not written: {e})\n"),
        }
    }

    /// Writes `<dir>/<stem>.md`, `.csv`, `.png` and `.svg`, and viewer pages of two decisive games
    /// of the top pairing (`<dir>/<stem>-games/`, from the PGNs under `ladder_dir`); returns the
    /// Markdown path. A plot that cannot be drawn (no font) is reported in the Markdown instead of
    /// failing the run.
    ///
    /// # Errors
    /// I/O.
    pub fn write(&self, ladder_dir: &Path, dir: &Path, stem: &str, command: &str) -> Result<PathBuf, LadderError> {
        let png = dir.join(format!("{stem}.png"));
        let svg = dir.join(format!("{stem}.svg"));
        let names: Vec<String> = self
            .standings
            .iter()
            .map(|s| format!("{}{}", self.roster.players[s.index].name, mark(s)))
            .collect();
        let series = [
            Series {
                name: "reference players".into(),
                points: self.standings.iter().map(|s| if s.oracle || s.challenger { (f64::NAN, f64::NAN, f64::NAN) } else { (s.elo, s.elo - s.ci95, s.elo + s.ci95) }).collect(),
            },
            Series {
                name: "oracles † and challengers ‡ (rated apart)".into(),
                points: self.standings.iter().map(|s| if s.oracle || s.challenger { (s.elo, s.elo - s.ci95, s.elo + s.ci95) } else { (f64::NAN, f64::NAN, f64::NAN) }).collect(),
            },
        ];
        let title = format!("{}: Elo at {} ms/move (random = 0, 95 % intervals)", self.roster.variant, self.roster.movetime_ms);
        let mut md = self.markdown(command, &format!("{stem}.png"));
        if let Err(e) = plot::value_bars(&png, &svg, &title, "Elo", &names, &series) {
            md.push_str(&format!("\n(plot not drawn: {e})\n"));
        }
        md.push_str(&self.game_links(ladder_dir, dir, stem));
        write_atomic(&dir.join(format!("{stem}.csv")), self.csv().as_bytes())?;
        let path = dir.join(format!("{stem}.md"));
        write_atomic(&path, md.as_bytes())?;
        Ok(path)
    }
}
