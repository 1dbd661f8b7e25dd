//! `anqi compare`: a paired comparison of two players on the same hidden set-ups, read from the
//! PGNs of their tournaments (`crate::tournament::compare`). Typical use: credit a net only with
//! what it scores above a control, both played against the same opponent with the same seed.

use crate::tournament::{compare, pgn};
use anyhow::Context;
use clap::Args as ClapArgs;
use std::path::{Path, PathBuf};

/// Compare player A's score with player B's on the set-ups both met with the same colour
/// against the same opponent (tournaments of the same variant and seed), with a 95 % interval
/// paired by set-up.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Player A, as `NAME@PGN[,PGN…]`: its name in the games and the PGN files of its games.
    #[arg(long)]
    pub a: String,
    /// Player B (the control), as `NAME@PGN[,PGN…]`.
    #[arg(long)]
    pub b: String,
    /// Only the games against this opponent (its name in the PGNs), e.g. the `pimc` row of a
    /// gauntlet; without it every opponent both players met is paired.
    #[arg(long)]
    pub opponent: Option<String>,
}

/// The records of `files`, with the file named in any error.
fn read(files: &str) -> anyhow::Result<Vec<pgn::Record>> {
    let mut all = Vec::new();
    for f in files.split(',').filter(|f| !f.is_empty()) {
        let path = PathBuf::from(f);
        let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        let (records, torn) = pgn::parse(&text);
        if torn {
            eprintln!("warning: {}: an incomplete record was skipped", Path::new(f).display());
        }
        all.extend(records);
    }
    Ok(all)
}

/// Splits `NAME@FILES` (`--a`/`--b`).
fn side(flag: &str, text: &str) -> anyhow::Result<(String, Vec<pgn::Record>)> {
    let (name, files) = text.rsplit_once('@').filter(|(n, f)| !n.is_empty() && !f.is_empty()).with_context(|| {
        format!("{flag} {text:?}: expected NAME@PGN[,PGN…], e.g. hyb@runs/hybrid/a-s14.pgn,runs/hybrid/a-s15.pgn")
    })?;
    Ok((name.to_owned(), read(files).with_context(|| format!("{flag} {text:?}"))?))
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    let (na, ga) = side("--a", &a.a)?;
    let (nb, gb) = side("--b", &a.b)?;
    let p = compare::compare(&ga, &na, &gb, &nb, a.opponent.as_deref())?;
    let (la, lb) = if na == nb { (format!("A:{na}"), format!("B:{nb}")) } else { (na, nb) };
    println!("{}", p.render(&la, &lb));
    Ok(())
}
