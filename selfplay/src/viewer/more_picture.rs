//! Pictures of the RULES-more.md games (skill-tile, camel, missile) from a FEN or a view FEN
//! (docs/notation.md §5): the board field on the game's geometry (11x10, the 9x11 river-row
//! board, the wider camel boards), face-down pieces (`X`/`x` in a view), camel stacks `(TB)`
//! drawn by their top piece, and the rest of the FEN (tiles, plates, bases) as notes. A side's
//! picture is drawn from that side's view FEN, which holds only what the side sees.

use super::picture::{color_char, Mark, Picture, RiverLine, Token, Viewpoint};
use engine::more::presets::BoardMarks;
use super::variant_picture::UNKNOWN_GLYPH;
use engine::more::notation::piece_char;
use engine::more::piece::Piece;
use engine::more::{Geometry, River};
use engine::Color;

/// A FEN that cannot be drawn, naming where.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MorePictureError {
    /// The board field does not fit the geometry or holds an unknown letter.
    #[error("FEN board field, rank {rank} (from the top): {problem}")]
    Board {
        /// 1-based rank from the top.
        rank: usize,
        /// What is wrong.
        problem: String,
    },
    /// The last move is not a move between two squares of this board.
    #[error("last move {text:?}: {problem}")]
    Last {
        /// The action string.
        text: String,
        /// What is wrong.
        problem: String,
    },
}

/// The picture of `fen` (a full FEN, or the view FEN of `viewpoint`'s side) on `geo`;
/// `last` is the last action string (marked when it is a move `from`+`to`); `marks` are drawn on
/// their points, and the FEN field they show (`marks.fen_field`) is left out of the notes.
///
/// # Errors
/// [`MorePictureError`] naming the rank or the move.
pub fn picture(geo: &Geometry, fen: &str, turn: Color, viewpoint: Viewpoint, last: Option<&str>, marks: BoardMarks) -> Result<Picture, MorePictureError> {
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap_or("");
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != geo.ranks as usize {
        return Err(MorePictureError::Board { rank: rows.len(), problem: format!("{} ranks, the board has {}", rows.len(), geo.ranks) });
    }
    let mut tokens = Vec::new();
    let mut notes = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = geo.ranks - 1 - i as u8;
        let bad = |problem: String| MorePictureError::Board { rank: i + 1, problem };
        let mut file: u32 = 0;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                let mut n = d;
                while let Some(e) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n * 10 + e;
                    chars.next();
                }
                file += n;
                continue;
            }
            if file >= geo.files as u32 {
                return Err(bad(format!("more than {} files", geo.files)));
            }
            let f = file as u8;
            let token = if c == '(' {
                let inner: String = chars.by_ref().take_while(|&c| c != ')').collect();
                let mut letters = inner.chars();
                let top = letters.next().ok_or_else(|| bad("empty stack ()".into()))?;
                let p = Piece::from_char(top).ok_or_else(|| bad(format!("unknown piece letter {top:?} in a stack")))?;
                notes.push(format!("stack on {}: {inner} (top first)", geo.name(geo.sq(f, rank))));
                piece_token(f, rank, p)
            } else if c == 'x' || c == 'X' {
                let color = if c == 'X' { Color::Red } else { Color::Black };
                Token { file: f, rank, color: color_char(color), letter: c, glyph: UNKNOWN_GLYPH, down: true, back: None, beliefs: Vec::new(), marker: false }
            } else {
                let p = Piece::from_char(c).ok_or_else(|| bad(format!("unknown piece letter {c:?}")))?;
                piece_token(f, rank, p)
            };
            tokens.push(token);
            file += 1;
        }
        if file != geo.files as u32 {
            return Err(bad(format!("{file} files, the board has {}", geo.files)));
        }
    }
    // Fields after the board, numbered as in the whole FEN (the board is field 0).
    let rest: Vec<&str> = fields.enumerate().filter(|(i, _)| marks.fen_field != Some(i + 1)).map(|(_, f)| f).collect();
    if !rest.is_empty() {
        notes.push(rest.join(" "));
    }
    let last = match last {
        None => None,
        Some(text) => move_squares(geo, text).map_err(|problem| MorePictureError::Last { text: text.to_string(), problem })?,
    };
    let river = match geo.river {
        River::Between { red_last } => RiverLine::Between(red_last),
        River::Row { rank } => RiverLine::Row(rank),
    };
    let pal = |c: Color| {
        let p = geo.palace(c);
        (p.file_lo, p.rank_lo)
    };
    Ok(Picture {
        files: geo.files,
        ranks: geo.ranks,
        river,
        palaces: [pal(Color::Red), pal(Color::Black)],
        tokens,
        marks: marks
            .marks
            .into_iter()
            .map(|m| Mark { file: m.file, rank: m.rank, color: color_char(m.color), label: m.label, name: m.name })
            .collect(),
        last,
        viewpoint,
        turn: color_char(turn),
        notes,
    })
}

fn piece_token(file: u8, rank: u8, p: Piece) -> Token {
    Token { file, rank, color: color_char(p.color), letter: p.char(), glyph: piece_char(p), down: false, back: None, beliefs: Vec::new(), marker: false }
}

/// The two squares of a board move `from`+`to` (with any suffix: `x`, `=R`, `*`); `None` for an
/// action that is not a board move (set-up choices, plate turns, removals).
fn move_squares(geo: &Geometry, text: &str) -> Result<Option<[(u8, u8); 2]>, String> {
    if text.contains('@') || !text.starts_with(|c: char| c.is_ascii_lowercase()) || text.starts_with("rot") || text.starts_with("shift") || text.starts_with("flip") {
        return Ok(None);
    }
    let (a, rest) = geo.parse_prefix(text).map_err(|e| e.to_string())?;
    let (b, _) = geo.parse_prefix(rest).map_err(|e| e.to_string())?;
    Ok(Some([(geo.file(a), geo.rank(a)), (geo.file(b), geo.rank(b))]))
}
