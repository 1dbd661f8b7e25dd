//! Board geometry of the RULES-more.md games, described by data rather than hard-coded: the
//! number of files and ranks, where the river is (between two ranks, or a whole river row as on
//! the skill-tile board A of RULES-more.md §1.2), and the two 3x3 palaces (§1.2, §2.3, §3.2).
//!
//! Squares are mailbox indices `rank * files + file`, below [`MAX_SQUARES`] (9x11 = 99, 11x10 =
//! 110; camel boards up to 15 files with a river row, 15x11 = 165). Ranks are numbered from 0 at
//! Red's back rank, as everywhere in this project
//! (RULES.md coordinates; RULES-more.md numbers ranks from 1, so its "e1" is our `e0`).

use crate::piece::Color;

/// The most squares a board may have (fixed-size per-square arrays use it).
pub const MAX_SQUARES: usize = 192;

/// The four orthogonal steps `(dx, dy)` (board directions: +dy towards Black).
pub const ORTHO: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// The four diagonal steps.
pub const DIAG: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// The horse's eight (1,2) leaps (RULES-more.md §0.3).
pub const HORSE: [(i8, i8); 8] = [(1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)];
/// The eight (1,3) leaps of the 目 rectangle: missile xiangqi's fighter (§3.3), the skill tile
/// T10's mule step (§1.6).
pub const LONG_LEAP: [(i8, i8); 8] = [(1, 3), (-1, 3), (1, -3), (-1, -3), (3, 1), (3, -1), (-3, 1), (-3, -1)];
/// The camel's eight (2,3) leaps of the 用 rectangle (§2.4, §1.6 驼步马).
pub const CAMEL: [(i8, i8); 8] = [(2, 3), (-2, 3), (2, -3), (-2, -3), (3, 2), (3, -2), (-3, 2), (-3, -2)];

/// Where the river lies (RULES-more.md §0.3, §1.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum River {
    /// Between rank `red_last` (Red's bank) and rank `red_last + 1` (Black's bank): a point board.
    Between {
        /// Red's last rank.
        red_last: u8,
    },
    /// A whole rank of river squares (board A of §1.2): ranks below are Red's half, above Black's.
    Row {
        /// The river rank.
        rank: u8,
    },
}

/// A 3x3 palace, by its lower-left square (Red's view).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Palace {
    /// Leftmost file.
    pub file_lo: u8,
    /// Lowest rank.
    pub rank_lo: u8,
}

impl Palace {
    /// Whether (file, rank) is one of the palace's 9 points.
    pub fn contains(&self, file: u8, rank: u8) -> bool {
        file >= self.file_lo && file < self.file_lo + 3 && rank >= self.rank_lo && rank < self.rank_lo + 3
    }

    /// Whether (file, rank) is one of the 5 points on the palace diagonals (the advisor points).
    pub fn on_diagonal(&self, file: u8, rank: u8) -> bool {
        self.contains(file, rank) && (file - self.file_lo + rank - self.rank_lo).is_multiple_of(2)
    }

    /// The centre point.
    pub fn centre(&self) -> (u8, u8) {
        (self.file_lo + 1, self.rank_lo + 1)
    }
}

/// A board: size, river and palaces (RULES-more.md §1.2, §2.3, §3.2).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// Number of files (a, b, ...).
    pub files: u8,
    /// Number of ranks (0, 1, ...).
    pub ranks: u8,
    /// The river.
    pub river: River,
    /// Red's palace, then Black's.
    pub palaces: [Palace; 2],
    file_of: Vec<u8>,
    rank_of: Vec<u8>,
}

/// A mailbox square index (`rank * files + file`).
pub type Sq = u8;

impl Geometry {
    /// A geometry. Palaces must lie on the board and the board must have at most [`MAX_SQUARES`]
    /// squares and at most 26 files.
    ///
    /// # Errors
    /// [`super::MoreError::Geometry`] when the description is inconsistent.
    pub fn new(files: u8, ranks: u8, river: River, palaces: [Palace; 2]) -> Result<Geometry, super::MoreError> {
        let n = files as usize * ranks as usize;
        if files == 0 || ranks == 0 || files > 26 || n > MAX_SQUARES {
            return Err(super::MoreError::Geometry(format!("{files}x{ranks} board is not supported (at most {MAX_SQUARES} squares, 26 files)")));
        }
        for p in &palaces {
            if p.file_lo as usize + 3 > files as usize || p.rank_lo as usize + 3 > ranks as usize {
                return Err(super::MoreError::Geometry(format!("palace at file {} rank {} is off the board", p.file_lo, p.rank_lo)));
            }
        }
        let bank = match river {
            River::Between { red_last } => red_last,
            River::Row { rank } => rank,
        };
        if bank + 1 >= ranks {
            return Err(super::MoreError::Geometry(format!("river at rank {bank} is off the board")));
        }
        let file_of = (0..n).map(|i| (i % files as usize) as u8).collect();
        let rank_of = (0..n).map(|i| (i / files as usize) as u8).collect();
        Ok(Geometry { files, ranks, river, palaces, file_of, rank_of })
    }

    /// Missile xiangqi (RULES-more.md §3.2 [INF/ASM]): 11 files x 10 ranks, river between ranks 4
    /// and 5 (1-based 5/6), palaces e0-g2 and e7-g9.
    pub fn missile() -> Geometry {
        Self::eleven_by_ten()
    }

    /// Camel xiangqi (RULES-more.md §2.3 [ASM]): the same 11x10 board as missile xiangqi.
    pub fn camel() -> Geometry {
        Self::eleven_by_ten()
    }

    /// A camel board of `files` files (§2.14 #1: the width is a parameter; odd, so that the
    /// palaces have a centre file) and 10 ranks, or 11 with doc 002's river row (§2.3, §2.14 #12:
    /// rank 5 of our numbering is the river row, as on the skill-tile board A of §1.2). The
    /// palaces sit on the centre three files against each back edge.
    ///
    /// # Errors
    /// [`super::MoreError::Geometry`] for an even width, or a board over [`MAX_SQUARES`].
    pub fn camel_with(files: u8, river_row: bool) -> Result<Geometry, super::MoreError> {
        if files.is_multiple_of(2) || files < 3 {
            return Err(super::MoreError::Geometry(format!("a camel board needs an odd number of files (a centre file for the palaces), not {files}")));
        }
        let (ranks, river) = if river_row {
            (11, River::Row { rank: 5 })
        } else {
            (10, River::Between { red_last: 4 })
        };
        let lo = files / 2 - 1;
        Geometry::new(
            files,
            ranks,
            river,
            [
                Palace {
                    file_lo: lo,
                    rank_lo: 0,
                },
                Palace {
                    file_lo: lo,
                    rank_lo: ranks - 3,
                },
            ],
        )
    }

    fn eleven_by_ten() -> Geometry {
        let p = [Palace { file_lo: 4, rank_lo: 0 }, Palace { file_lo: 4, rank_lo: 7 }];
        Geometry::new(11, 10, River::Between { red_last: 4 }, p).expect("fixed geometry is valid")
    }

    /// Skill-tile xiangqi board A (RULES-more.md §1.2 (A)): 9 files x 11 ranks, rank 5 (1-based 6)
    /// is the river row, palaces d0-f2 and d8-f10.
    pub fn skill_a() -> Geometry {
        let p = [Palace { file_lo: 3, rank_lo: 0 }, Palace { file_lo: 3, rank_lo: 8 }];
        Geometry::new(9, 11, River::Row { rank: 5 }, p).expect("fixed geometry is valid")
    }

    /// Number of squares.
    #[inline]
    pub fn len(&self) -> usize {
        self.file_of.len()
    }

    /// Whether the board has no squares (never, for a valid geometry).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.file_of.is_empty()
    }

    /// The square at (file, rank), which must be on the board.
    #[inline]
    pub fn sq(&self, file: u8, rank: u8) -> Sq {
        rank * self.files + file
    }

    /// File of a square.
    #[inline]
    pub fn file(&self, s: Sq) -> u8 {
        self.file_of[s as usize]
    }

    /// Rank of a square.
    #[inline]
    pub fn rank(&self, s: Sq) -> u8 {
        self.rank_of[s as usize]
    }

    /// The square `(dx, dy)` away from `s` (board directions: +dy towards Black), if on the board.
    #[inline]
    pub fn offset(&self, s: Sq, dx: i8, dy: i8) -> Option<Sq> {
        let f = self.file(s) as i16 + dx as i16;
        let r = self.rank(s) as i16 + dy as i16;
        if f < 0 || r < 0 || f >= self.files as i16 || r >= self.ranks as i16 {
            None
        } else {
            Some(self.sq(f as u8, r as u8))
        }
    }

    /// Forward direction of a side on the board: +1 for Red, -1 for Black (§0.2).
    #[inline]
    pub fn forward(c: Color) -> i8 {
        match c {
            Color::Red => 1,
            Color::Black => -1,
        }
    }

    /// The half a square belongs to: `Some(Red)` for Red's half, `Some(Black)`, or `None` for a
    /// river-row square (§1.2 board A).
    #[inline]
    pub fn half(&self, s: Sq) -> Option<Color> {
        let r = self.rank(s);
        match self.river {
            River::Between { red_last } => Some(if r <= red_last { Color::Red } else { Color::Black }),
            River::Row { rank } => {
                if r < rank {
                    Some(Color::Red)
                } else if r > rank {
                    Some(Color::Black)
                } else {
                    None
                }
            }
        }
    }

    /// Whether `s` is on `c`'s own half (river squares are on neither half).
    #[inline]
    pub fn own_half(&self, c: Color, s: Sq) -> bool {
        self.half(s) == Some(c)
    }

    /// Whether `s` is on the half of `c`'s opponent: a soldier of `c` there has crossed.
    #[inline]
    pub fn crossed(&self, c: Color, s: Sq) -> bool {
        self.half(s) == Some(c.opponent())
    }

    /// Whether the board has a river row (§1.2 board A) rather than a river between two ranks.
    #[inline]
    pub fn is_river_row_board(&self) -> bool {
        matches!(self.river, River::Row { .. })
    }

    /// Whether `s` is a river-row square.
    #[inline]
    pub fn is_river(&self, s: Sq) -> bool {
        self.half(s).is_none()
    }

    /// `c`'s palace.
    #[inline]
    pub fn palace(&self, c: Color) -> &Palace {
        &self.palaces[c.index()]
    }

    /// Whether `s` is in `c`'s palace.
    #[inline]
    pub fn in_palace(&self, c: Color, s: Sq) -> bool {
        self.palace(c).contains(self.file(s), self.rank(s))
    }

    /// Whether `s` is on `c`'s palace diagonals (an advisor point).
    #[inline]
    pub fn on_palace_diagonal(&self, c: Color, s: Sq) -> bool {
        self.palace(c).on_diagonal(self.file(s), self.rank(s))
    }

    /// `c`'s back rank.
    #[inline]
    pub fn back_rank(&self, c: Color) -> u8 {
        match c {
            Color::Red => 0,
            Color::Black => self.ranks - 1,
        }
    }

    /// The name of a square: file letter then 0-based rank, `a0`, `k9`, `i10`.
    pub fn name(&self, s: Sq) -> String {
        format!("{}{}", (b'a' + self.file(s)) as char, self.rank(s))
    }

    /// Parses a square name (`a0`, `i10`).
    ///
    /// # Errors
    /// [`super::MoreError::Square`] when the text is not a square of this board.
    pub fn parse(&self, text: &str) -> Result<Sq, super::MoreError> {
        let bad = || super::MoreError::Square(text.to_string());
        let mut chars = text.chars();
        let f = chars.next().ok_or_else(bad)?;
        if !f.is_ascii_lowercase() {
            return Err(bad());
        }
        let file = f as u8 - b'a';
        let rest = chars.as_str();
        if rest.is_empty() || rest.len() > 2 || !rest.bytes().all(|b| b.is_ascii_digit()) || (rest.len() == 2 && rest.starts_with('0')) {
            return Err(bad());
        }
        let rank: u8 = rest.parse().map_err(|_| bad())?;
        if file >= self.files || rank >= self.ranks {
            return Err(bad());
        }
        Ok(self.sq(file, rank))
    }

    /// Parses the square name at the start of `text`, returning it and the rest.
    ///
    /// # Errors
    /// [`super::MoreError::Square`] when no square name starts `text`.
    pub fn parse_prefix<'a>(&self, text: &'a str) -> Result<(Sq, &'a str), super::MoreError> {
        let b = text.as_bytes();
        let mut n = 1;
        while n < b.len() && n < 3 && b[n].is_ascii_digit() {
            n += 1;
        }
        // Prefer the longest valid square name (`a10` over `a1` followed by `0`).
        for len in (2..=n).rev() {
            if let Ok(s) = self.parse(&text[..len]) {
                return Ok((s, &text[len..]));
            }
        }
        Err(super::MoreError::Square(text.to_string()))
    }
}
