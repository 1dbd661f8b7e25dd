//! `anqi view`: self-contained HTML viewer pages of every game of PGN records.

use anyhow::Context;
use clap::Args as ClapArgs;
use std::path::PathBuf;

/// Write one viewer page per game of the PGN files (from `anqi tournament`, the ladder, the
/// draw-rate study or `anqi serve`) and `index.html` listing them into `--out`: each page opens
/// from the file (no server, no network) and steps through its game with the keyboard or the
/// buttons, from Red's, Black's or the full point of view, with the move list in ICCS and Chinese
/// notation.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// PGN files.
    #[arg(required = true)]
    pub records: Vec<PathBuf>,
    /// Output directory.
    #[arg(long)]
    pub out: PathBuf,
    /// Only the first N decisive games (for a report): writes `{prefix}game-NNN.html` beside it
    /// and prints a Markdown link to each, relative to `--out`, instead of writing an index.
    #[arg(long)]
    pub decisive: Option<usize>,
    /// File-name prefix of the pages written with `--decisive`.
    #[arg(long, default_value = "")]
    pub prefix: String,
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    let mut records = Vec::new();
    for path in &a.records {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let (rs, torn) = crate::tournament::pgn::parse(&text);
        if torn {
            eprintln!("warning: {}: an incomplete record was skipped", path.display());
        }
        if rs.is_empty() {
            anyhow::bail!("{}: no complete game record", path.display());
        }
        records.extend(rs);
    }
    if let Some(n) = a.decisive {
        let chosen: Vec<usize> = records.iter().enumerate().filter(|(_, r)| r.outcome.winner.is_some()).map(|(i, _)| i).take(n).collect();
        if chosen.is_empty() {
            eprintln!("no decisive game in the records: no page written");
            return Ok(());
        }
        let pages = crate::viewer::page::write_games(&records, &chosen, &a.out, &a.prefix, None)?;
        for (title, file) in pages {
            println!("- [{title}]({file})");
        }
        return Ok(());
    }
    let heading = a.records.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
    let index = crate::viewer::page::write_all(&records, &a.out, &heading)?;
    println!("wrote {} game pages and {}", records.len(), index.display());
    Ok(())
}
