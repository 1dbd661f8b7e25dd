//! `anqi moves`: the legal moves and check status of positions, one line per position, for
//! differential tests against other move generators (`scripts/diff-fsf`).

use anyhow::bail;
use clap::Args as ClapArgs;
use engine::notation::fen;
use engine::Position;
use std::io::{BufRead, Write};

/// Print the legal moves of a position (RULES.md §X2-X4) and whether the side to move is in
/// check, mated or stalemated.
///
/// Each position gives one line: its legal moves in ICCS, sorted and space-separated, then
/// ` ; ` and the status: `mate` (no legal move, in check), `stalemate` (no legal move, not in
/// check), `check` or `none`. With no legal move the line is `; mate` or `; stalemate`. A FEN
/// that does not parse gives `error: <message>` on its line; the command then goes on and exits
/// non-zero at the end.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Position as FEN (RULES.md §N1); without it, one FEN per non-empty line of stdin.
    #[arg(long)]
    pub fen: Option<String>,
}

/// The status word of `pos`: `mate`, `stalemate`, `check` or `none`.
pub fn status(pos: &Position, has_moves: bool) -> &'static str {
    match (has_moves, pos.in_check()) {
        (false, true) => "mate",
        (false, false) => "stalemate",
        (true, true) => "check",
        (true, false) => "none",
    }
}

/// The output line for one FEN: `<moves> ; <status>`, or `Err` with the parse error.
pub fn line(text: &str) -> Result<String, fen::FenError> {
    let pos = fen::parse(text)?;
    let legal = pos.legal_moves();
    let mut moves: Vec<String> = legal.iter().map(|m| m.iccs()).collect();
    moves.sort_unstable();
    let st = status(&pos, !moves.is_empty());
    Ok(if moves.is_empty() { format!("; {st}") } else { format!("{} ; {st}", moves.join(" ")) })
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut errors = 0usize;
    let mut total = 0usize;
    let mut one = |text: &str, out: &mut dyn Write| -> std::io::Result<()> {
        total += 1;
        match line(text) {
            Ok(l) => writeln!(out, "{l}"),
            Err(e) => {
                errors += 1;
                writeln!(out, "error: {e}")
            }
        }
    };
    match a.fen.as_deref() {
        Some(text) => one(text, &mut out)?,
        None => {
            for l in std::io::stdin().lock().lines() {
                let l = l?;
                let t = l.trim();
                if !t.is_empty() {
                    one(t, &mut out)?;
                }
            }
        }
    }
    out.flush()?;
    if errors > 0 {
        bail!("{errors} of {total} positions could not be read");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_has_44_sorted_moves() {
        let l = line(fen::START).expect("start FEN");
        let (moves, status) = l.split_once(" ; ").expect("separator");
        let v: Vec<&str> = moves.split(' ').collect();
        assert_eq!(v.len(), 44);
        assert!(v.windows(2).all(|w| w[0] < w[1]));
        assert!(v.contains(&"h2e2"));
        assert_eq!(status, "none");
    }

    #[test]
    fn check_mate_and_errors() {
        // Black general on d9 checked by the chariot on d0; e8 is open, e9 is shielded from the
        // Red general by the advisor on e1.
        assert_eq!(line("3k5/9/9/9/9/9/9/9/4A4/3RK4 b - - 0 1").expect("fen"), "d9e9 ; check");
        // Chariots on e8 and e7 against the general on e9; d9 faces the Red general on d0.
        assert_eq!(line("4k4/4R4/4R4/9/9/9/9/9/9/3K5 b - - 0 1").expect("fen"), "e9f9 ; check");
        // Mate: as above with a horse on h8 covering f9.
        assert_eq!(line("4k4/4R2N1/4R4/9/9/9/9/9/9/3K5 b - - 0 1").expect("fen"), "; mate");
        // Stalemate: the general on d9 is not in check, d8 is covered by the chariot on a8 and e9
        // by the Red general on the open e-file.
        assert_eq!(line("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1").expect("fen"), "; stalemate");
        assert!(line("not a fen").is_err());
    }
}
