//! Board geometry: squares, board sizes, palaces and river (RULES.md §X1; RULES-more.md boards).
//!
//! Every board uses the same square indexing, `rank * 11 + file`, inside a `u128`, so boards up to
//! 11 files x 11 ranks share one code path; a [`Geometry`] names which points exist and where the
//! palaces and the river lie. The standard board is [`Geometry::standard`].

use crate::bitboard::Bitboard;
use crate::piece::Color;
use std::sync::OnceLock;

/// Stride between ranks in the square index.
pub const STRIDE: u8 = 11;
/// Largest supported number of files.
pub const MAX_FILES: u8 = 11;
/// Largest supported number of ranks.
pub const MAX_RANKS: u8 = 11;

/// A point on the board: index `rank * 11 + file` (file 0 = `a`, rank 0 = Red's back rank).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at `file`, `rank`, or `None` outside the 11x11 index space.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < MAX_FILES && rank < MAX_RANKS {
            Some(Square(rank * STRIDE + file))
        } else {
            None
        }
    }

    /// Square from a raw index (callers guarantee `index < 121`).
    #[inline(always)]
    pub const fn new_unchecked(index: u8) -> Square {
        Square(index)
    }

    /// Raw index `rank * 11 + file`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Raw index as `u8`.
    #[inline(always)]
    pub const fn raw(self) -> u8 {
        self.0
    }

    /// File, 0 = `a`.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 % STRIDE
    }

    /// Rank, 0 = Red's back rank.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 / STRIDE
    }

    /// The square offset by `(df, dr)` if it stays inside `geom`.
    pub fn offset(self, df: i8, dr: i8, geom: &Geometry) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || r < 0 || f >= geom.files as i8 || r >= geom.ranks as i8 {
            None
        } else {
            Square::new(f as u8, r as u8)
        }
    }

    /// Parses a coordinate such as `e0` or `h9` (file letter, rank digits; ranks 10 written `10`).
    pub fn parse(s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let f = chars.next()?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let file = f as u8 - b'a';
        let rest = chars.as_str();
        if rest.is_empty() || rest.len() > 2 || !rest.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let rank: u8 = rest.parse().ok()?;
        Square::new(file, rank)
    }
}

impl std::fmt::Display for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl std::fmt::Debug for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self}")
    }
}

/// A rectangular board with palaces and a river.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Number of files (9 for standard xiangqi).
    pub files: u8,
    /// Number of ranks (10 for standard xiangqi).
    pub ranks: u8,
    /// Every point of the board.
    pub board: Bitboard,
    /// Each side's palace (standard: d0-f2 and d7-f9), indexed by [`Color::index`].
    pub palace: [Bitboard; 2],
    /// Each side's own half (standard: ranks 0-4 for Red, 5-9 for Black).
    pub half: [Bitboard; 2],
}

impl Geometry {
    /// A board of `files` x `ranks` with 3x3 palaces centred on the middle file at each back edge and
    /// the river across the middle. `files` must be odd, both at most 11 and at least 3.
    pub fn new(files: u8, ranks: u8) -> Geometry {
        assert!((3..=MAX_FILES).contains(&files) && (3..=MAX_RANKS).contains(&ranks));
        let mut board = Bitboard::EMPTY;
        let mut palace = [Bitboard::EMPTY; 2];
        let mut half = [Bitboard::EMPTY; 2];
        let mid = files / 2;
        for r in 0..ranks {
            for f in 0..files {
                let sq = Square::new(f, r).expect("inside 11x11");
                board.set(sq);
                if r < ranks / 2 {
                    half[0].set(sq);
                } else if r >= ranks - ranks / 2 {
                    half[1].set(sq);
                }
                if f + 1 >= mid && f <= mid + 1 {
                    if r < 3 {
                        palace[0].set(sq);
                    }
                    if r + 3 >= ranks {
                        palace[1].set(sq);
                    }
                }
            }
        }
        Geometry { files, ranks, board, palace, half }
    }

    /// The standard 9x10 board (RULES.md §X1), built once.
    pub fn standard() -> &'static Geometry {
        static G: OnceLock<Geometry> = OnceLock::new();
        G.get_or_init(|| Geometry::new(9, 10))
    }

    /// Whether `sq` is on this board.
    #[inline(always)]
    pub fn contains(&self, sq: Square) -> bool {
        self.board.contains(sq)
    }

    /// The square at `file`, `rank` if on this board.
    pub fn square(&self, file: u8, rank: u8) -> Option<Square> {
        if file < self.files && rank < self.ranks {
            Square::new(file, rank)
        } else {
            None
        }
    }

    /// All squares of the board in ascending index order (a0, b0, …, i0, a1, …).
    pub fn squares(&self) -> impl Iterator<Item = Square> {
        self.board
    }

    /// Whether `sq` lies in the half of the board belonging to `c`.
    #[inline(always)]
    pub fn in_own_half(&self, c: Color, sq: Square) -> bool {
        self.half[c.index()].contains(sq)
    }

    /// The rank as seen by `c` (0 = that side's back rank).
    #[inline(always)]
    pub fn relative_rank(&self, c: Color, sq: Square) -> u8 {
        match c {
            Color::Red => sq.rank(),
            Color::Black => self.ranks - 1 - sq.rank(),
        }
    }
}
