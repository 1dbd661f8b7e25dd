//! WXF move notation (`C2.5`, `H8+7`, `R1-1`, `R+.3`), the AXF/WXF letter form of the Chinese
//! record, as published by the World Xiangqi Federation ("Official xiangqi piece names and
//! notation", AXF 1980/82, adopted by WXF 1997).
//!
//! A move is written in four parts:
//! 1. the piece letter, `K A E H R C P` (general, advisor, elephant, horse, chariot, cannon,
//!    soldier);
//! 2. its file, numbered 1..9 from the mover's right (Red: file `i` is 1, `a` is 9; Black: file
//!    `a` is 1, `i` is 9);
//! 3. the direction: `+` forward (towards the opponent), `-` backward, `.` sideways (traverse);
//! 4. for a sideways move, or any move of a piece that moves diagonally (advisor, elephant,
//!    horse), the destination file; for a straight forward or backward move of a general,
//!    chariot, cannon or soldier, the number of ranks moved.
//!
//! Tandem pieces (two or more pieces of the same type and colour on one file): the file digit is
//! replaced by `+` for the front piece (nearer the opponent) and `-` for the rear one: `R+.3`
//! (車前平三), `C--1` (炮後退一). Soldiers have the WXF special cases:
//! - three on a file: front `P+`, middle by its file as usual (`P3.4`), rear `P-`;
//! - four on a file: `++`, `P+`, `P-`, `--` (front to rear, the letter dropped for the outermost);
//! - five on a file: `++`, `P+`, `P3` (middle, by file), `P-`, `--`;
//! - tandems on two files: the letter is replaced by the file digit, then `+`, `-`, or the file
//!   digit again for a middle soldier: `3+.4`, `33.4`, `3-.4`, `7+.6`, `7-.6`.
//!
//! Advisors and elephants on one file are never marked front/rear (the Chinese rules' convention:
//! of two advisors or elephants on a file only the rear can advance and only the front can
//! retreat, so the file already identifies the move); they are written with their file.
//!
//! The traverse sign is `.` as on the WXF page; many Chinese books and Fairy-Stockfish write `=`
//! (`C2=5`): [`wxf_with_traverse`] writes either. No check or mate suffix is added.

use crate::geometry::Square;
use crate::moves::Move;
use crate::piece::{Color, Role};
use crate::position::Position;

/// Which way a move goes, seen from the mover.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// Towards the opponent (进, `+`).
    Forward,
    /// Towards the mover's own back rank (退, `-`).
    Backward,
    /// Along the rank (平, `.`).
    Sideways,
}

/// How a record names the moving piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Designator {
    /// By type and file: the only piece of its type on its file, or an advisor or elephant.
    File,
    /// One of `count` (2..=5) pieces of its type on its file; `index` 0 is the front one.
    /// `other_tandem_file`: another file also holds two or more pieces of the type (soldiers).
    Tandem {
        /// Position from the front, 0-based.
        index: usize,
        /// Pieces of the type on the file.
        count: usize,
        /// Whether another file also has a tandem of this type.
        other_tandem_file: bool,
    },
}

/// The notation-independent description of a move that WXF and Chinese records both render.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct MoveParts {
    /// Owner of the moving piece.
    pub color: Color,
    /// Type of the moving piece.
    pub role: Role,
    /// Origin file, 1-based from the mover's right.
    pub file: u8,
    /// How the piece is named.
    pub designator: Designator,
    /// Direction of the move.
    pub direction: Direction,
    /// Destination file (1-based from the mover's right) or number of ranks moved.
    pub target: u8,
}

/// File number 1.. counted from `color`'s right-hand side.
pub(crate) fn file_number(color: Color, sq: Square, files: u8) -> u8 {
    match color {
        Color::Red => files - sq.file(),
        Color::Black => sq.file() + 1,
    }
}

/// Describes `m` in `pos` (the position before the move). `None` if `from` is empty.
pub(crate) fn parts(pos: &Position, m: Move) -> Option<MoveParts> {
    let p = pos.piece_at(m.from)?;
    let g = &pos.rules().attacks.geometry;
    let (color, role) = (p.color, p.role);
    let file = file_number(color, m.from, g.files);
    let rel = |sq: Square| g.relative_rank(color, sq);
    let direction = match rel(m.to).cmp(&rel(m.from)) {
        std::cmp::Ordering::Greater => Direction::Forward,
        std::cmp::Ordering::Less => Direction::Backward,
        std::cmp::Ordering::Equal => Direction::Sideways,
    };
    let diagonal = matches!(role, Role::Advisor | Role::Elephant | Role::Horse);
    let target = if direction == Direction::Sideways || diagonal || m.from.file() != m.to.file() {
        file_number(color, m.to, g.files)
    } else {
        rel(m.to).abs_diff(rel(m.from))
    };
    let same = pos.pieces(color, role);
    let on_file = |f: u8| same.filter(move |s| s.file() == f);
    let mut designator = Designator::File;
    if !matches!(role, Role::Advisor | Role::Elephant) {
        let mut tandem: Vec<Square> = on_file(m.from.file()).collect();
        if tandem.len() >= 2 {
            // Front first: highest relative rank.
            tandem.sort_by_key(|&s| std::cmp::Reverse(rel(s)));
            let index = tandem.iter().position(|&s| s == m.from).unwrap_or(0);
            let other_tandem_file = (0..g.files).any(|f| f != m.from.file() && on_file(f).count() >= 2);
            designator = Designator::Tandem { index, count: tandem.len(), other_tandem_file };
        }
    }
    Some(MoveParts { color, role, file, designator, direction, target })
}

/// WXF piece letter: `K A E H R C P`.
pub fn letter(role: Role) -> char {
    match role {
        Role::General => 'K',
        Role::Advisor => 'A',
        Role::Elephant => 'E',
        Role::Horse => 'H',
        Role::Chariot => 'R',
        Role::Cannon => 'C',
        Role::Soldier => 'P',
    }
}

/// WXF notation of `m` in `pos` (the position before the move), e.g. `C2.5`, `H8+7`, `R+.3`.
///
/// `m` should be a move of a piece standing on `m.from` (normally a legal move); the piece's own
/// colour decides the file numbering. If `m.from` is empty the ICCS form is returned instead.
pub fn wxf(pos: &Position, m: Move) -> String {
    wxf_with_traverse(pos, m, '.')
}

/// [`wxf`] with `traverse` as the sideways sign (`'.'` WXF, `'='` many books and Fairy-Stockfish).
pub fn wxf_with_traverse(pos: &Position, m: Move, traverse: char) -> String {
    let Some(p) = parts(pos, m) else {
        return m.iccs();
    };
    let l = letter(p.role);
    let f = p.file;
    let mut s = match p.designator {
        Designator::File => format!("{l}{f}"),
        Designator::Tandem { index, count, other_tandem_file: true } => {
            // Tandems on two files: file digit replaces the letter (`3+`, `33`, `3-`).
            let tail = if index == 0 {
                "+".to_string()
            } else if index + 1 == count {
                "-".to_string()
            } else {
                f.to_string()
            };
            format!("{f}{tail}")
        }
        Designator::Tandem { index, count, other_tandem_file: false } => match (count, index) {
            (2 | 3, 0) => format!("{l}+"),
            (2 | 3, i) if i + 1 == count => format!("{l}-"),
            (3, _) => format!("{l}{f}"),
            // Four or five on one file: `++`, `P+`, (`P<file>`), `P-`, `--`.
            (_, 0) => "++".to_string(),
            (_, 1) => format!("{l}+"),
            (c, i) if i + 1 == c => "--".to_string(),
            (c, i) if i + 2 == c => format!("{l}-"),
            _ => format!("{l}{f}"),
        },
    };
    s.push(match p.direction {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => traverse,
    });
    s.push_str(&p.target.to_string());
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;

    fn mv(s: &str) -> Move {
        let (a, b) = crate::notation::iccs::parse_squares(s).expect("squares");
        Move::new(a, b)
    }

    fn w(f: &str, m: &str) -> String {
        let pos = fen::parse(f).expect("fen");
        assert!(pos.is_legal(mv(m)), "{m} legal in {f}");
        wxf(&pos, mv(m))
    }

    #[test]
    fn opening_moves() {
        let s = fen::START;
        assert_eq!(w(s, "h2e2"), "C2.5");
        assert_eq!(w(s, "b0c2"), "H8+7");
        assert_eq!(w(s, "h0g2"), "H2+3");
        assert_eq!(w(s, "i0i1"), "R1+1");
        assert_eq!(w(s, "c0e2"), "E7+5");
        assert_eq!(w(s, "f0e1"), "A4+5");
        assert_eq!(w(s, "e0e1"), "K5+1");
        assert_eq!(w(s, "g3g4"), "P3+1");
        assert_eq!(w(s, "h2h9"), "C2+7");
        let pos = fen::parse(s).expect("start");
        assert_eq!(wxf_with_traverse(&pos, mv("h2e2"), '='), "C2=5");
    }

    #[test]
    fn black_moves_count_from_blacks_right() {
        // After 1. C2.5, Black: h7e7 is C8.5 (file h is Black's 8th), b9c7 is H2+3.
        let f = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        assert_eq!(w(f, "h7e7"), "C8.5");
        assert_eq!(w(f, "b7e7"), "C2.5");
        assert_eq!(w(f, "b9c7"), "H2+3");
        assert_eq!(w(f, "h9g7"), "H8+7");
        assert_eq!(w(f, "a9a8"), "R1+1");
        assert_eq!(w(f, "e6e5"), "P5+1");
    }

    #[test]
    fn backward_and_sideways() {
        // Red chariot on a5 (file 9) retreats to a1; Red general steps sideways.
        let f = "3k5/9/9/9/R8/9/9/9/4K4/9 w - - 0 1";
        assert_eq!(w(f, "a5a1"), "R9-4");
        assert_eq!(w(f, "a5i5"), "R9.1");
        assert_eq!(w(f, "e1f1"), "K5.4");
        assert_eq!(w(f, "e1e0"), "K5-1");
        // Black chariot retreating (towards rank 9) and a horse retreating.
        let f = "4k4/9/9/2n6/9/r8/9/9/9/3K5 b - - 0 1";
        assert_eq!(w(f, "a4a8"), "R1-4");
        assert_eq!(w(f, "c6b8"), "H3-2");
        assert_eq!(w(f, "c6d4"), "H3+4");
    }

    #[test]
    fn tandem_pieces() {
        // Two Red chariots on file c (Red's 7th): c7 front, c3 rear.
        let f = "3k5/9/2R6/9/9/9/2R6/9/9/4K4 w - - 0 1";
        assert_eq!(w(f, "c7f7"), "R+.4");
        assert_eq!(w(f, "c3c1"), "R--2");
        assert_eq!(w(f, "c3c5"), "R-+2");
        // Two Black cannons on file c (Black's 3rd): c3 is Black's front (nearer Red).
        let f = "3k5/9/2c6/9/9/9/2c6/9/9/4K4 b - - 0 1";
        assert_eq!(w(f, "c3c2"), "C++1");
        assert_eq!(w(f, "c7c9"), "C--2");
        assert_eq!(w(f, "c7e7"), "C-.5");
        // Two Red horses on one file.
        let f = "3k5/9/9/9/9/6N2/9/6N2/9/4K4 w - - 0 1";
        assert_eq!(w(f, "g4h6"), "H++2");
        assert_eq!(w(f, "g2f0"), "H--4");
    }

    #[test]
    fn advisors_and_elephants_keep_their_file() {
        // Red advisors d0 and d2 on file 4: named by file, not front/rear.
        let f = "5k3/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1";
        assert_eq!(w(f, "d0e1"), "A6+5");
        assert_eq!(w(f, "d2e1"), "A6-5");
        // Red elephants c0 and c4 on file 7.
        let f = "5k3/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1";
        assert_eq!(w(f, "c0a2"), "E7+9");
        assert_eq!(w(f, "c4e2"), "E7-5");
    }

    #[test]
    fn tandem_soldiers_one_file() {
        // Two Red soldiers on file e (5).
        let f = "3k5/9/4P4/4P4/9/9/9/9/9/5K3 w - - 0 1";
        assert_eq!(w(f, "e7d7"), "P+.6");
        assert_eq!(w(f, "e6f6"), "P-.4");
        // Three on file c (Red's 7th): front, middle by file, rear.
        let f = "3k5/2P6/2P6/2P6/9/9/9/9/9/5K3 w - - 0 1";
        assert_eq!(w(f, "c8d8"), "P+.6");
        assert_eq!(w(f, "c7d7"), "P7.6");
        assert_eq!(w(f, "c6d6"), "P-.6");
        // Four on file c: ++, P+, P-, --.
        let f = "3k5/2P6/2P6/2P6/2P6/9/9/9/9/5K3 w - - 0 1";
        assert_eq!(w(f, "c8b8"), "++.8");
        assert_eq!(w(f, "c7b7"), "P+.8");
        assert_eq!(w(f, "c6b6"), "P-.8");
        assert_eq!(w(f, "c5b5"), "--.8");
        // Five on file g (Red's 3rd) traversing to file 4 (f): the WXF page's example.
        let f = "3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1";
        assert_eq!(w(f, "g9f9"), "++.4");
        assert_eq!(w(f, "g8f8"), "P+.4");
        assert_eq!(w(f, "g7f7"), "P3.4");
        assert_eq!(w(f, "g6f6"), "P-.4");
        assert_eq!(w(f, "g5f5"), "--.4");
    }

    #[test]
    fn tandem_soldiers_two_files() {
        // The WXF page's example: three soldiers on Red's file 3 (g), two on file 7 (c).
        let f = "4k4/6P2/2P3P2/2P3P2/9/9/9/9/9/3K5 w - - 0 1";
        assert_eq!(w(f, "g8f8"), "3+.4");
        assert_eq!(w(f, "g7f7"), "33.4");
        assert_eq!(w(f, "g6f6"), "3-.4");
        assert_eq!(w(f, "c7d7"), "7+.6");
        assert_eq!(w(f, "c6d6"), "7-.6");
        assert_eq!(w(f, "c7c8"), "7++1");
        // Black: two soldiers on Black's file 2 (b) and two on file 8 (h); Black's front is lower.
        let f = "4k4/9/9/9/9/1p5p1/1p5p1/9/9/3K5 b - - 0 1";
        assert_eq!(w(f, "b3a3"), "2+.1");
        assert_eq!(w(f, "b4a4"), "2-.1");
        assert_eq!(w(f, "h4i4"), "8-.9");
        assert_eq!(w(f, "h3h2"), "8++1");
    }
}
