//! Xiangqi FEN, Pikafish-compatible (RULES.md §N1): `board side - - halfmove fullmove`.
//!
//! The board lists ranks from 9 (Black's back rank) down to 0, files `a` to `i` within a rank,
//! digits for runs of empty points; upper case is Red. Side is `w` (Red) or `b` (Black; `r` is
//! accepted for Red as some GUIs write it). Missing counters default to `0 1`.

use crate::geometry::Square;
use crate::piece::{Color, Piece};
use crate::position::{Position, PositionError, Setup};
use crate::rules::Rules;

/// The standard start position.
pub const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// What is wrong with a FEN, naming the field (1 = board, 2 = side, 3-4 = `-`, 5 = halfmove,
/// 6 = fullmove) and, for the board, the FEN rank (1 = the first, Black's back rank).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is empty.
    #[error("FEN is empty")]
    Empty,
    /// Too few or too many space-separated fields.
    #[error("FEN has {found} fields; expected 2 to 6 (board side - - halfmove fullmove)")]
    FieldCount {
        /// Fields found.
        found: usize,
    },
    /// The board field has the wrong number of ranks.
    #[error("FEN board field: {found} ranks, expected {expected}")]
    RankCount {
        /// Ranks found.
        found: usize,
        /// Ranks of the board.
        expected: usize,
    },
    /// A rank describes more or fewer points than the board's width.
    #[error("FEN board field, rank {rank} (from the top): {found} points, expected {expected}")]
    RankWidth {
        /// FEN rank, 1 = top.
        rank: usize,
        /// Points described.
        found: usize,
        /// Files of the board.
        expected: usize,
    },
    /// A character that is neither a piece letter nor a digit.
    #[error("FEN board field, rank {rank} (from the top): unknown piece letter {letter:?}")]
    UnknownLetter {
        /// FEN rank, 1 = top.
        rank: usize,
        /// The character.
        letter: char,
    },
    /// The side field is not `w`, `r` or `b`.
    #[error("FEN side field: {found:?}, expected 'w' or 'b'")]
    Side {
        /// The field as found.
        found: String,
    },
    /// Field 3 or 4 is not `-`.
    #[error("FEN field {field}: {found:?}, expected '-' in standard xiangqi")]
    Unused {
        /// 3 or 4.
        field: usize,
        /// The field as found.
        found: String,
    },
    /// The halfmove clock is not a number.
    #[error("FEN halfmove field: {found:?} is not a non-negative number")]
    Halfmove {
        /// The field as found.
        found: String,
    },
    /// The fullmove number is not a positive number.
    #[error("FEN fullmove field: {found:?} is not a positive number")]
    Fullmove {
        /// The field as found.
        found: String,
    },
    /// The placement parses but is not a legal position.
    #[error("FEN board field: {0}")]
    Position(PositionError),
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

/// Parses the board field into `setup` for a board of `files` x `ranks`. Letters are passed to
/// `letter`, which returns the piece (or `None` for an unknown letter); variants reuse this with
/// their own letters (e.g. `X`/`x` for face-down pieces).
pub fn parse_board(
    field: &str,
    files: u8,
    ranks: u8,
    mut letter: impl FnMut(char, Square) -> Option<Option<Piece>>,
    board: &mut [Option<Piece>; 128],
) -> Result<(), FenError> {
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != ranks as usize {
        return Err(FenError::RankCount { found: rows.len(), expected: ranks as usize });
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = ranks - 1 - i as u8;
        let mut file: usize = 0;
        let mut digits = String::new();
        let flush = |digits: &mut String, file: &mut usize| {
            if !digits.is_empty() {
                // Saturating: a run of digits as long as the rank is wide only has to be too wide.
                *file = file.saturating_add(digits.parse::<usize>().unwrap_or(usize::MAX / 4));
                digits.clear();
            }
        };
        for ch in row.chars() {
            if ch.is_ascii_digit() {
                digits.push(ch);
                continue;
            }
            flush(&mut digits, &mut file);
            if file >= files as usize {
                return Err(FenError::RankWidth { rank: i + 1, found: file.saturating_add(1), expected: files as usize });
            }
            let sq = Square::new(file as u8, rank).expect("inside board");
            match letter(ch, sq) {
                Some(p) => board[sq.index()] = p,
                None => return Err(FenError::UnknownLetter { rank: i + 1, letter: ch }),
            }
            file += 1;
        }
        flush(&mut digits, &mut file);
        if file != files as usize {
            return Err(FenError::RankWidth { rank: i + 1, found: file, expected: files as usize });
        }
    }
    Ok(())
}

/// Parses the side field.
pub fn parse_side(field: &str) -> Result<Color, FenError> {
    match field {
        "w" | "r" => Ok(Color::Red),
        "b" => Ok(Color::Black),
        _ => Err(FenError::Side { found: field.to_string() }),
    }
}

/// Parses the halfmove and fullmove fields (either may be absent).
pub fn parse_counters(half: Option<&str>, full: Option<&str>) -> Result<(u32, u32), FenError> {
    let h = match half {
        None => 0,
        Some(s) => s.parse::<u32>().map_err(|_| FenError::Halfmove { found: s.to_string() })?,
    };
    let f = match full {
        None => 1,
        Some(s) => match s.parse::<u32>() {
            Ok(n) if n >= 1 => n,
            _ => return Err(FenError::Fullmove { found: s.to_string() }),
        },
    };
    Ok((h, f))
}

/// Parses a standard-xiangqi FEN into an unvalidated [`Setup`].
///
/// # Errors
/// [`FenError`] naming the field that is malformed.
pub fn parse_setup(fen: &str) -> Result<Setup, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    if fields.len() < 2 || fields.len() > 6 {
        return Err(FenError::FieldCount { found: fields.len() });
    }
    let g = &Rules::standard().attacks.geometry;
    let mut setup = Setup::default();
    parse_board(fields[0], g.files, g.ranks, |c, _| Piece::from_char(c).map(Some), &mut setup.board)?;
    setup.turn = parse_side(fields[1])?;
    for (i, f) in fields.iter().enumerate().skip(2).take(2) {
        if *f != "-" {
            return Err(FenError::Unused { field: i + 1, found: f.to_string() });
        }
    }
    let (h, f) = parse_counters(fields.get(4).copied(), fields.get(5).copied())?;
    setup.halfmove = h;
    setup.fullmove = f;
    Ok(setup)
}

/// Parses and validates a standard-xiangqi FEN.
///
/// # Errors
/// [`FenError`] naming the malformed field, or [`FenError::Position`] for an illegal placement.
pub fn parse(fen: &str) -> Result<Position, FenError> {
    let setup = parse_setup(fen)?;
    Ok(Position::from_setup(&setup, Rules::standard())?)
}

/// Writes the board field for a board of `files` x `ranks`, with `letter` giving each point's
/// character (or `None` for empty).
pub fn write_board(files: u8, ranks: u8, mut letter: impl FnMut(Square) -> Option<char>) -> String {
    let mut s = String::new();
    for r in (0..ranks).rev() {
        let mut empty = 0;
        for f in 0..files {
            let sq = Square::new(f, r).expect("inside board");
            match letter(sq) {
                Some(c) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if r > 0 {
            s.push('/');
        }
    }
    s
}

/// Writes `pos` as a Pikafish FEN.
pub fn write(pos: &Position) -> String {
    let g = &pos.rules().attacks.geometry;
    let board = write_board(g.files, g.ranks, |sq| pos.piece_at(sq).map(|p| p.char()));
    let side = if pos.turn() == Color::Red { 'w' } else { 'b' };
    format!("{board} {side} - - {} {}", pos.halfmove(), pos.fullmove())
}
