//! Pictures of the RULES-more.md games (skill-tile, camel, missile) and their open twins: the
//! contract's default drawing ([`Playable::picture`]). The pieces come from the viewer's view FEN
//! (docs/notation.md §5) or the full FEN, on the game's geometry (11x10, the 9x11 river-row
//! board, the wider camel boards): face-down pieces (`X`/`x` in a view), camel stacks `(TB)` drawn
//! by their top piece, the game's marks ([`Playable::board_marks`]: skill tiles) on their points,
//! and the rest of the FEN (plates, bases) as notes. A side's picture holds only what its view
//! FEN holds.

use super::notation::piece_char;
use super::piece::Piece;
use super::presets::{BoardMarks, Playable};
use super::{Geometry, River};
use crate::picture::{color_char, Mark, Picture, PictureError, PictureOptions, RiverLine, Token, Viewpoint, UNKNOWN_GLYPH};
use crate::piece::Color;

/// The picture of `g` as `viewpoint` sees it, drawn from that side's view FEN (the full FEN for
/// [`Viewpoint::Full`]), marking the board move `opts.last`.
///
/// # Errors
/// [`PictureError`] when the FEN does not fit the game's board or `last` is no move on it.
pub fn draw<G: Playable + ?Sized>(g: &G, viewpoint: Viewpoint, opts: &PictureOptions<'_>) -> Result<Picture, PictureError> {
    let fen = match viewpoint.side() {
        Some(c) => g.view_fen(c),
        None => g.full_fen(),
    };
    let turn = if fen.split_whitespace().nth(1) == Some("b") { Color::Black } else { Color::Red };
    from_fen(g.geometry(), &fen, turn, viewpoint, opts.last, g.board_marks(viewpoint.side()))
}
/// The picture of `fen` (a full FEN, or the view FEN of `viewpoint`'s side) on `geo`;
/// `last` is the last action string (marked when it is a move `from`+`to`); `marks` are drawn on
/// their points, and the FEN field they show (`marks.fen_field`) is left out of the notes.
///
/// # Errors
/// [`PictureError`] naming the rank or the move.
pub fn from_fen(geo: &Geometry, fen: &str, turn: Color, viewpoint: Viewpoint, last: Option<&str>, marks: BoardMarks) -> Result<Picture, PictureError> {
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap_or("");
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != geo.ranks as usize {
        return Err(PictureError::Board { rank: rows.len(), problem: format!("{} ranks, the board has {}", rows.len(), geo.ranks) });
    }
    let mut tokens = Vec::new();
    let mut notes = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = geo.ranks - 1 - i as u8;
        let bad = |problem: String| PictureError::Board { rank: i + 1, problem };
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
        Some(text) => move_squares(geo, text).map_err(|problem| PictureError::Last { text: text.to_string(), problem })?,
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
