//! A board picture: what one viewer sees of a position, as data that the SVG writer
//! ([`super::svg`]), the viewer page and the play page draw. It holds only what the viewer was
//! given: a picture of a side's view is built from that side's [`engine::variant::View`] (or a
//! RULES-more.md game's view FEN), never from the full state, so drawing it cannot leak.

use serde::Serialize;

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
    pub fn side(self) -> Option<engine::Color> {
        match self {
            Viewpoint::Red => Some(engine::Color::Red),
            Viewpoint::Black => Some(engine::Color::Black),
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
/// ([`engine::more::presets::BoardMark`]).
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
pub fn color_char(c: engine::Color) -> char {
    match c {
        engine::Color::Red => 'r',
        engine::Color::Black => 'b',
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
