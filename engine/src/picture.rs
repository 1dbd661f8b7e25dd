//! A board picture: what one viewer sees of a position, as data that the SVG writer, the viewer
//! page and the play page draw (`anqi render`, `anqi view`, `anqi serve`). Every game draws itself
//! through the contract ([`crate::more::presets::Playable::picture`]): the RULES.md variants from a
//! side's [`crate::variant::View`] ([`crate::variant::picture`]), the RULES-more.md games from the
//! viewer's view FEN ([`crate::more::picture`]). A picture holds only what the viewer was given,
//! never more, so drawing it cannot leak.

use serde::Serialize;

/// The glyph of a face-down piece whose identity the viewer does not know.
pub const UNKNOWN_GLYPH: char = '暗';

/// Whose eyes a picture is drawn with.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Viewpoint {
    /// Red's view (Red at the bottom).
    Red,
    /// Black's view (Black at the bottom).
    Black,
    /// The full state (Red at the bottom): every hidden identity shown.
    Full,
}

impl Viewpoint {
    /// Parses `red`, `black` or `full`.
    pub fn parse(text: &str) -> Option<Viewpoint> {
        match text {
            "red" | "w" => Some(Viewpoint::Red),
            "black" | "b" => Some(Viewpoint::Black),
            "full" => Some(Viewpoint::Full),
            _ => None,
        }
    }

    /// The side whose view this is, `None` for the full state.
    pub fn side(self) -> Option<crate::piece::Color> {
        match self {
            Viewpoint::Red => Some(crate::piece::Color::Red),
            Viewpoint::Black => Some(crate::piece::Color::Black),
            Viewpoint::Full => None,
        }
    }

    /// `red`, `black` or `full`.
    pub fn name(self) -> &'static str {
        match self {
            Viewpoint::Red => "red",
            Viewpoint::Black => "black",
            Viewpoint::Full => "full",
        }
    }
}

impl From<crate::piece::Color> for Viewpoint {
    fn from(c: crate::piece::Color) -> Viewpoint {
        match c {
            crate::piece::Color::Red => Viewpoint::Red,
            crate::piece::Color::Black => Viewpoint::Black,
        }
    }
}

/// Where the river lies.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RiverLine {
    /// Between rank `n` (Red's bank) and rank `n + 1`.
    Between(u8),
    /// A whole rank of river squares (the 9x11 board, camel's river-row option).
    Row(u8),
}

/// One piece on the board as the viewer sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Token {
    /// File, 0 = `a` (Red's left).
    pub file: u8,
    /// Rank, 0 = Red's back rank.
    pub rank: u8,
    /// `r` or `b`.
    pub color: char,
    /// The FEN letter of what the board shows: the type it moves as, `X`/`x` for face-down.
    pub letter: char,
    /// The glyph drawn: the Chinese name of the type it moves as, or of its identity when the
    /// viewer knows a face-down piece's identity; `暗` for a face-down piece of unknown identity.
    pub glyph: char,
    /// Face-down (Fan-qi, Jieqi, the missile game's face-down set-up).
    pub down: bool,
    /// Surprise: the disc's back face as the viewer knows it (`?` unseen), `None` for no disc.
    pub back: Option<char>,
    /// The belief over a hidden identity (glyph, probability), largest first; empty unless asked.
    pub beliefs: Vec<(char, f32)>,
    /// A King-chess marker (RULES.md §K) stands on this piece.
    pub marker: bool,
}

/// A mark on a point besides its piece, as the viewer sees it: a skill game's tile in its recess
/// ([`crate::more::presets::BoardMark`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mark {
    /// File, 0 = `a`.
    pub file: u8,
    /// Rank, 0 = Red's back rank.
    pub rank: u8,
    /// `r` or `b`: whose it is.
    pub color: char,
    /// Short label (`T6`; `?` for one the viewer has not seen).
    pub label: String,
    /// Its name (`将可飞`; empty when unseen).
    pub name: String,
}

/// A position as one viewer sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Picture {
    /// Number of files.
    pub files: u8,
    /// Number of ranks.
    pub ranks: u8,
    /// The river.
    pub river: RiverLine,
    /// The palaces' lower-left points (file, rank), Red's then Black's.
    pub palaces: [(u8, u8); 2],
    /// The pieces.
    pub tokens: Vec<Token>,
    /// Marks on points besides the pieces (skill tiles), drawn under them.
    pub marks: Vec<Mark>,
    /// The last move's origin and destination (file, rank), if it was a board move.
    pub last: Option<[(u8, u8); 2]>,
    /// The viewpoint (Black's view is drawn with Black at the bottom).
    pub viewpoint: Viewpoint,
    /// `r` or `b`: the side to move.
    pub turn: char,
    /// Extra lines shown under the board (tiles, plates, counters the board cannot show).
    pub notes: Vec<String>,
}

/// The colour letter of a side.
pub fn color_char(c: crate::piece::Color) -> char {
    match c {
        crate::piece::Color::Red => 'r',
        crate::piece::Color::Black => 'b',
    }
}

impl Picture {
    /// The board field of a FEN read back from the tokens (ranks from the top, `/` between,
    /// digit runs): what the tests compare with the engine's FEN.
    pub fn board_field(&self) -> String {
        let mut out = String::new();
        for r in (0..self.ranks).rev() {
            let mut run = 0;
            for f in 0..self.files {
                match self.tokens.iter().find(|t| t.file == f && t.rank == r) {
                    None => run += 1,
                    Some(t) => {
                        if run > 0 {
                            out.push_str(&run.to_string());
                            run = 0;
                        }
                        out.push(t.letter);
                    }
                }
            }
            if run > 0 {
                out.push_str(&run.to_string());
            }
            if r > 0 {
                out.push('/');
            }
        }
        out
    }
}

/// What a caller adds to a picture besides the position ([`crate::more::presets::Playable::picture`]).
#[derive(Clone, Copy, Default)]
pub struct PictureOptions<'a> {
    /// The last action's record entry, marked when it is a board move (`h2e2`, `b0c2x`); the
    /// RULES.md variants mark the last action their state recorded instead.
    pub last: Option<&'a str>,
    /// Draw a side's belief over each hidden identity (RULES.md variants; side views only).
    pub beliefs: bool,
    /// The full view only: identities a record's deal fixes in advance but the state has not
    /// revealed yet (RULES.md variants: random Fan-qi modes, Jieqi); ignored by side views and
    /// by games that deal nothing in advance.
    pub dealt: Option<&'a dyn Fn(crate::geometry::Square) -> Option<crate::piece::Role>>,
}

/// A position that cannot be drawn, naming where.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PictureError {
    /// The FEN's board field does not fit the geometry or holds an unknown letter.
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

/// One ply as one viewer saw it, as a move list writes it ([`crate::more::presets::Playable::move_text`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveText {
    /// The record entry with the letters this viewer saw (`b2b9Nn`, `h0h0R`, `e3e4`).
    pub iccs: String,
    /// Chinese notation (`炮二平五`, `马二进三变车`).
    pub chinese: String,
}
