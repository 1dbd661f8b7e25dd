//! Canonical FEN and move strings of missile xiangqi (docs/notation.md §5.1).
//!
//! FEN: `board side bases halfmove fullmove`. `board` as in [`crate::more::board`] with letters
//! K A B N R C P F M (upper case Red); `side` is `w` (Red) or `b`; `bases` lists the squares of
//! the missiles still in base (never moved, RULES-more.md §3.5) joined by commas in square order,
//! or `-`. Start: `mrnbakabnrm/11/1fc5cf1/1p1p1p1p1p1/11/11/1P1P1P1P1P1/1FC5CF1/11/MRNBAKABNRM w a0,k0,a9,k9 0 1`.
//!
//! Move strings: origin and destination square names, `b0c2` (ICCS style, 0-based ranks).

use super::position::{MMove, MissilePosition};
use super::rules::MissileRules;
use crate::more::board::Board;
use crate::more::piece::Kind;
use crate::more::MoreError;
use crate::piece::Color;

/// Writes the FEN of `p`.
pub fn write(p: &MissilePosition) -> String {
    let g = p.geo();
    let bases: Vec<String> = (0..g.len() as u8).filter(|&s| p.in_base(s)).map(|s| g.name(s)).collect();
    format!(
        "{} {} {} {} {}",
        p.board.fen_field(),
        if p.turn == Color::Red { 'w' } else { 'b' },
        if bases.is_empty() { "-".to_string() } else { bases.join(",") },
        p.halfmove,
        p.fullmove
    )
}

/// Reads a FEN with `rules`. The `bases` field may only name squares holding missiles; a missing
/// clock field defaults (`0 1`).
///
/// # Errors
/// [`MoreError::Fen`] naming the problem (field count, board, side, bases, clocks, generals).
pub fn parse(rules: MissileRules, text: &str) -> Result<MissilePosition, MoreError> {
    let f: Vec<&str> = text.split_whitespace().collect();
    if f.len() < 3 || f.len() > 5 {
        return Err(MoreError::Fen(format!("expected 3-5 fields (board side bases [halfmove fullmove]), got {}", f.len())));
    }
    let board = Board::parse_field(super::position::geometry(), f[0])?;
    let turn = match f[1] {
        "w" | "r" => Color::Red,
        "b" => Color::Black,
        s => return Err(MoreError::Fen(format!("side {s:?} is not w or b"))),
    };
    let mut p = MissilePosition::empty(rules);
    p.board = board;
    p.turn = turn;
    let g = p.geo();
    if f[2] != "-" {
        for name in f[2].split(',') {
            let s = g.parse(name)?;
            if p.board.get(s).is_none_or(|x| x.kind != Kind::Missile) {
                return Err(MoreError::Fen(format!("bases: no missile on {name}")));
            }
            p.in_base |= 1 << s;
        }
    }
    let num = |i: usize, d: u16| -> Result<u16, MoreError> {
        f.get(i).map_or(Ok(d), |t| t.parse().map_err(|_| MoreError::Fen(format!("clock {t:?} is not a number"))))
    };
    p.halfmove = num(3, 0)?;
    p.fullmove = num(4, 1)?.max(1);
    for c in Color::ALL {
        if p.count(c, Kind::General) != 1 {
            return Err(MoreError::Fen(format!("{c} must have exactly one general")));
        }
    }
    // §3.3: facing generals are check as ever, so the side not to move cannot be left facing.
    if p.board.generals_facing() {
        return Err(MoreError::Fen(format!("board: the generals face each other on one file with nothing between, so {} (not to move) is in check: the position cannot arise (RULES-more.md §0.3; xiangqi refuses it too)", p.turn.opponent())));
    }
    Ok(p)
}

/// The move string of `m` (`b0c2`).
pub fn move_string(p: &MissilePosition, m: MMove) -> String {
    format!("{}{}", p.geo().name(m.from), p.geo().name(m.to))
}

/// Reads a move string and checks that it is legal in `p`.
///
/// # Errors
/// [`MoreError::Move`] when the text is not two squares or the move is not legal.
pub fn parse_move(p: &MissilePosition, text: &str) -> Result<MMove, MoreError> {
    let bad = || MoreError::Move(format!("{text:?} is not a legal move here"));
    let m = parse_squares(p, text)?;
    let mut legal = Vec::new();
    p.legal_moves(&mut legal);
    if legal.contains(&m) {
        Ok(m)
    } else {
        Err(bad())
    }
}

/// Reads a move string as two squares of `p`'s board, without asking whether the move is legal
/// (for a game whose legal moves are not the position's, as under the face-down reading of
/// RULES-more.md §3.8).
///
/// # Errors
/// [`MoreError::Move`] when the text is not two squares.
pub fn parse_squares(p: &MissilePosition, text: &str) -> Result<MMove, MoreError> {
    let g = p.geo();
    let bad = || MoreError::Move(format!("{text:?} is not a legal move here"));
    let (from, rest) = g.parse_prefix(text.trim()).map_err(|_| bad())?;
    let to = g.parse(rest).map_err(|_| bad())?;
    Ok(MMove { from, to })
}
