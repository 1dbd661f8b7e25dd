//! ICCS / UCI-xiangqi move coordinates (`h2e2`: from-file, from-rank, to-file, to-rank; ranks
//! 0-9 from Red's side, as Pikafish writes them).

use crate::geometry::Square;
use crate::moves::Move;
use crate::position::Position;

/// What is wrong with a move string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not of the form `<file><rank><file><rank>`.
    #[error("move {text:?}: not a coordinate move like 'h2e2' ({why})")]
    Syntax {
        /// The text.
        text: String,
        /// What part is malformed.
        why: &'static str,
    },
    /// Well formed but not legal in the position.
    #[error("move {text:?} is not legal here{why}")]
    Illegal {
        /// The text.
        text: String,
        /// Extra detail, e.g. "(no piece of the side to move on h2)".
        why: String,
    },
}

/// Parses `h2e2` into its two points without checking legality.
///
/// # Errors
/// [`MoveError::Syntax`] when a point is malformed or off the 11x11 index space.
pub fn parse_squares(text: &str) -> Result<(Square, Square), MoveError> {
    let syntax = |why| MoveError::Syntax { text: text.to_string(), why };
    if !text.is_ascii() {
        return Err(syntax("non-ASCII character"));
    }
    // Split at the second letter: "h2e2", "a10b10" (boards with 11 ranks).
    let b = text.as_bytes();
    let second = (1..b.len()).find(|&i| b[i].is_ascii_alphabetic()).ok_or_else(|| syntax("missing destination"))?;
    let from = Square::parse(&text[..second]).ok_or_else(|| syntax("bad origin point"))?;
    let to = Square::parse(&text[second..]).ok_or_else(|| syntax("bad destination point"))?;
    Ok((from, to))
}

/// Parses an ICCS move and checks it is legal in `pos`.
///
/// # Errors
/// [`MoveError::Syntax`] for malformed text, [`MoveError::Illegal`] for a move not legal in `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let (from, to) = parse_squares(text)?;
    let g = &pos.rules().attacks.geometry;
    let illegal = |why: String| MoveError::Illegal { text: text.to_string(), why };
    if !g.contains(from) || !g.contains(to) {
        return Err(illegal(" (point off the board)".into()));
    }
    match pos.piece_at(from) {
        Some(p) if p.color == pos.turn() => {}
        _ => return Err(illegal(format!(" (no piece of the side to move on {from})"))),
    }
    let m = Move::new(from, to);
    if pos.is_legal(m) {
        Ok(m)
    } else {
        Err(illegal(String::new()))
    }
}
