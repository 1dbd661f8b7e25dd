//! A mailbox board on any [`Geometry`] (RULES-more.md §1.2, §2.3, §3.2), with the board field of
//! the canonical FEN (`docs/notation.md` §5): ranks from the top (Black's back rank) down,
//! separated by `/`, runs of empty squares as decimal numbers (`11` on an 11-file board).

use super::geometry::{Geometry, Sq, MAX_SQUARES};
use super::piece::Piece;
use super::MoreError;
use crate::piece::Color;

/// Squares of a board: one byte per square, 0 = empty, else [`Piece::code`]; with the Zobrist
/// sum of the occupied squares ([`Board::zobrist`]), kept by [`Board::set`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    geo: &'static Geometry,
    cells: [u8; MAX_SQUARES],
    zobrist: u64,
}

/// Piece codes a square can hold: 0 (empty) and [`Piece::code`] 1..=22.
const CODES: usize = 23;

/// The Zobrist keys, one per square and piece code (0 for an empty square): splitmix64 of the
/// index, so that a board's hash can be updated by a move without rescanning the board.
static KEYS: [[u64; CODES]; MAX_SQUARES] = {
    let mut k = [[0u64; CODES]; MAX_SQUARES];
    let mut s = 0;
    while s < MAX_SQUARES {
        let mut c = 1;
        while c < CODES {
            let mut z = ((s * CODES + c) as u64).wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            k[s][c] = z ^ (z >> 31);
            c += 1;
        }
        s += 1;
    }
    k
};

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.fen_field())
    }
}

impl Board {
    /// An empty board.
    pub fn empty(geo: &'static Geometry) -> Board {
        Board { geo, cells: [0; MAX_SQUARES], zobrist: 0 }
    }

    /// The geometry.
    #[inline]
    pub fn geo(&self) -> &'static Geometry {
        self.geo
    }

    /// The piece on `s`.
    #[inline]
    pub fn get(&self, s: Sq) -> Option<Piece> {
        Piece::from_code(self.cells[s as usize])
    }

    /// The raw code on `s` (0 = empty).
    #[inline]
    pub fn code(&self, s: Sq) -> u8 {
        self.cells[s as usize]
    }

    /// The raw codes of every square, in square order (0 = empty, else [`Piece::code`]): for
    /// scans that build other representations (the bitboards of [`super::bits`]).
    #[inline]
    pub fn codes(&self) -> &[u8] {
        &self.cells[..self.geo.len()]
    }

    /// Whether `s` is empty.
    #[inline]
    pub fn is_empty(&self, s: Sq) -> bool {
        self.cells[s as usize] == 0
    }

    /// Puts `p` (or nothing) on `s`.
    #[inline]
    pub fn set(&mut self, s: Sq, p: Option<Piece>) {
        let code = p.map(Piece::code).unwrap_or(0);
        self.zobrist ^= Board::key(s, self.cells[s as usize]) ^ Board::key(s, code);
        self.cells[s as usize] = code;
    }

    /// The Zobrist key of code `code` (0 = empty, key 0) on square `s`: the XOR of the keys of
    /// the occupied squares is [`Board::zobrist`].
    #[inline]
    pub fn key(s: Sq, code: u8) -> u64 {
        KEYS[s as usize][code as usize]
    }

    /// The Zobrist sum of the board: the XOR of [`Board::key`] over its squares, so that the sum
    /// after a change of some squares is this one XOR their old and new keys.
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.zobrist
    }

    /// Whether `s` holds `p`.
    #[inline]
    pub fn is(&self, s: Sq, p: Piece) -> bool {
        self.cells[s as usize] == p.code()
    }

    /// Whether `s` holds a piece of `c`.
    #[inline]
    pub fn is_color(&self, s: Sq, c: Color) -> bool {
        self.get(s).is_some_and(|p| p.color == c)
    }

    /// Every occupied square with its piece, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Sq, Piece)> + '_ {
        (0..self.geo.len() as u8).filter_map(move |s| self.get(s).map(|p| (s, p)))
    }

    /// The first square holding `p`.
    pub fn find(&self, p: Piece) -> Option<Sq> {
        let c = p.code();
        (0..self.geo.len() as u8).find(|&s| self.cells[s as usize] == c)
    }

    /// Whether the two generals stand on one file with nothing between them (the facing rule,
    /// RULES-more.md §0.3); false when a general is missing.
    pub fn generals_facing(&self) -> bool {
        use super::piece::Kind;
        let (Some(a), Some(b)) = (self.find(Piece::new(Color::Red, Kind::General)), self.find(Piece::new(Color::Black, Kind::General))) else {
            return false;
        };
        let g = self.geo;
        if g.file(a) != g.file(b) {
            return false;
        }
        let (lo, hi) = (g.rank(a).min(g.rank(b)), g.rank(a).max(g.rank(b)));
        (lo + 1..hi).all(|r| self.is_empty(g.sq(g.file(a), r)))
    }

    /// A 64-bit hash of the squares ([`Board::zobrist`] then a finaliser).
    #[inline]
    pub fn hash(&self) -> u64 {
        let h = self.zobrist;
        h ^ (h >> 29)
    }

    /// The board field of the FEN.
    pub fn fen_field(&self) -> String {
        self.fen_field_with(|_, p| p.char())
    }

    /// The board field with each piece written as `letter(square, piece)` (a view FEN writes
    /// hidden pieces with a marker letter, docs/notation.md §5.1).
    pub fn fen_field_with(&self, letter: impl Fn(Sq, Piece) -> char) -> String {
        let g = self.geo;
        let mut out = String::new();
        for r in (0..g.ranks).rev() {
            let mut run = 0;
            for f in 0..g.files {
                let s = g.sq(f, r);
                match self.get(s) {
                    None => run += 1,
                    Some(p) => {
                        if run > 0 {
                            out.push_str(&run.to_string());
                            run = 0;
                        }
                        out.push(letter(s, p));
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

    /// Parses a board field.
    ///
    /// # Errors
    /// [`MoreError::Fen`] naming the problem.
    pub fn parse_field(geo: &'static Geometry, text: &str) -> Result<Board, MoreError> {
        let mut b = Board::empty(geo);
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != geo.ranks as usize {
            return Err(MoreError::Fen(format!("board has {} ranks, expected {}", rows.len(), geo.ranks)));
        }
        for (i, row) in rows.iter().enumerate() {
            let r = geo.ranks - 1 - i as u8;
            let mut f: u32 = 0;
            let mut num: u32 = 0;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10) {
                    num = num * 10 + d;
                    if num > geo.files as u32 {
                        return Err(MoreError::Fen(format!("rank {r}: run of {num} empty squares is too long")));
                    }
                    continue;
                }
                f += num;
                num = 0;
                let p = Piece::from_char(ch).ok_or_else(|| MoreError::Fen(format!("unknown piece letter {ch:?}")))?;
                if f >= geo.files as u32 {
                    return Err(MoreError::Fen(format!("rank {r} has more than {} files", geo.files)));
                }
                b.set(geo.sq(f as u8, r), Some(p));
                f += 1;
            }
            f += num;
            if f != geo.files as u32 {
                return Err(MoreError::Fen(format!("rank {r} has {f} files, expected {}", geo.files)));
            }
        }
        Ok(b)
    }
}
