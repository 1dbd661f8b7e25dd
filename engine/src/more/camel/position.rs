//! A camel-xiangqi position (RULES-more.md §2): board with stacks (§2.10), the two palace
//! plates with their faces (§2.7-§2.11), the per-side memory the editions need (flips used, the
//! kind of the last own action, the soldier-retreat window, a pending redemption, the K3 second
//! promotion window) and the clocks. Move generation is in [`super::movegen`].

use super::super::board::Board;
use super::super::geometry::{Geometry, Sq, MAX_SQUARES};
use super::super::piece::{Kind, Piece};
use super::rules::CamelRules;
use crate::piece::Color;

/// A plate cell face: plain, a trick K1-K8, the blank trick cell, or a Lo-Shu number.
pub type Cell = u8;
/// A plain cell (no effect).
pub const PLAIN: Cell = 0;
/// The blank trick cell ("无文字块").
pub const BLANK: Cell = 9;
/// A number cell: `NUMBER + n`, n = 1..9.
pub const NUMBER: Cell = 20;
/// A trick cell not placed yet (the secret set-up of §2.13 under way).
pub const UNSET: Cell = 30;
/// A trick cell the viewer cannot see (view FENs of the secret layout, §2.13).
pub const HIDDEN: Cell = 31;

/// The trick layout printed under each cell at the start (§2.9 [ASM]), `[col][row]` in the
/// owner's frame (col 0 = owner's left, row 0 = back row).
pub const TRICKS: [[Cell; 3]; 3] = [[1, 2, 3], [8, BLANK, 4], [7, 6, 5]];
/// The Lo-Shu number face (§2.11 [ASM]), `[col][row]`: back row 8 1 6, middle 3 5 7, front 4 9 2.
pub const NUMBERS: [[Cell; 3]; 3] = [[NUMBER + 8, NUMBER + 3, NUMBER + 4], [NUMBER + 1, NUMBER + 5, NUMBER + 9], [NUMBER + 6, NUMBER + 7, NUMBER + 2]];

/// A palace plate (§2.7): where it lies and both faces, in the owner's frame.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Plate {
    /// Lower-left board file and rank of the 3x3 plate (Red's view).
    pub origin: (u8, u8),
    /// The visible face, `[col][row]` in the owner's frame.
    pub up: [[Cell; 3]; 3],
    /// The face underneath.
    pub down: [[Cell; 3]; 3],
}

impl Plate {
    /// Whether the visible face is the trick face.
    pub fn trick_up(&self) -> bool {
        self.up.iter().flatten().any(|&c| (1..=BLANK).contains(&c))
    }
    /// Whether the visible face is the number face.
    pub fn number_up(&self) -> bool {
        self.up.iter().flatten().any(|&c| c > NUMBER && c < UNSET)
    }
    /// Rotates the faces by 90° (clockwise seen from above when `cw`, §2.9 representation).
    pub fn rotate_faces(&mut self, cw: bool) {
        for face in [&mut self.up, &mut self.down] {
            let old = *face;
            for c in 0..3 {
                for r in 0..3 {
                    if cw {
                        face[r][2 - c] = old[c][r];
                    } else {
                        face[2 - r][c] = old[c][r];
                    }
                }
            }
        }
    }
    /// Flips the plate left-right (`front_back` false) or front-back (§2.9).
    pub fn flip(&mut self, front_back: bool) {
        let (up, down) = (self.up, self.down);
        for c in 0..3 {
            for r in 0..3 {
                let (sc, sr) = if front_back { (c, 2 - r) } else { (2 - c, r) };
                self.up[c][r] = down[sc][sr];
                self.down[c][r] = up[sc][sr];
            }
        }
    }
}

/// What a side's previous own action was (edition 4 and 7 "not on consecutive own moves").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LastAct {
    /// A piece move (or nothing yet).
    Piece,
    /// A rotation or translation of the plate.
    Palace,
    /// A flip.
    Flip,
}

/// A camel-xiangqi position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CamelPosition {
    pub(super) board: Board,
    /// The bottom piece of each stack (edition 6), 0 where none.
    pub(super) under: [u8; MAX_SQUARES],
    pub(super) turn: Color,
    pub(super) plates: [Plate; 2],
    pub(super) flips: [u8; 2],
    pub(super) last_act: [LastAct; 2],
    /// The side to move's general was just captured on this square (§2.6 redemption pending).
    pub(super) redeem: Option<Sq>,
    /// Per side: a soldier that reached the enemy back rank on that side's previous move
    /// without promoting (K3 window ii).
    pub(super) promo_window: [Option<Sq>; 2],
    pub(super) halfmove: u16,
    pub(super) fullmove: u16,
    pub(super) rules: CamelRules,
}

/// The camel board of `rules` (§2.3 [ASM], §2.14 #1 and #12): 11x10 with the river between
/// ranks 4 and 5 (our numbering) by default; [`CamelRules::files`] wide, and with a river row on
/// rank 5 (11 ranks) under [`CamelRules::river_row`]. One shared instance per shape.
///
/// An unsupported width (even, or over the square limit) falls back to 11 files: rule files
/// are checked when loaded ([`crate::more::MoreVariant`]), so only hand-built rules can hit it.
pub fn geometry(rules: &CamelRules) -> &'static Geometry {
    type Shapes = std::collections::HashMap<(u8, bool), &'static Geometry>;
    static SHAPES: std::sync::OnceLock<std::sync::Mutex<Shapes>> = std::sync::OnceLock::new();
    let key = (rules.files, rules.river_row);
    let mut shapes = SHAPES.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(g) = shapes.get(&key) {
        return g;
    }
    let g = Geometry::camel_with(key.0, key.1).or_else(|_| Geometry::camel_with(11, key.1)).unwrap_or_else(|_| Geometry::camel());
    let g: &'static Geometry = Box::leak(Box::new(g));
    shapes.insert(key, g);
    g
}

/// The board field of the §2.5 start array [ASM] on the default 11x10 board (J camel, Q
/// chancellor); [`CamelPosition::start`] moves it onto wider boards and the river-row board.
pub const START_BOARD: &str = "rjnbakabnjr/11/1qc5cq1/1p1p1p1p1p1/11/11/1P1P1P1P1P1/1QC5CQ1/11/RJNBAKABNJR";

/// The §2.5 array on board `g`: on its centre 11 files, Black's half one rank up when the
/// board has a river row.
fn start_board(g: &'static Geometry) -> Board {
    let base = Geometry::camel();
    let mut board = Board::empty(g);
    let shift = (g.files - base.files) / 2;
    let Ok(start) = Board::parse_field(geometry(&CamelRules::edition(1)), START_BOARD) else { return board };
    for (s, p) in start.pieces() {
        let (f, r) = (base.file(s), base.rank(s));
        let r = if g.is_river_row_board() && r >= 5 { r + 1 } else { r };
        board.set(g.sq(f + shift, r), Some(p));
    }
    board
}

impl CamelPosition {
    /// The start position of `rules`' edition.
    pub fn start(rules: CamelRules) -> CamelPosition {
        let g = geometry(&rules);
        let mut board = start_board(g);
        if rules.one_chancellor {
            // §2.14 #3 alternative: one 丞 on the palace front-centre (f2 / f7 on 11x10).
            let (pr, pb) = (g.palace(Color::Red), g.palace(Color::Black));
            let mid = pr.file_lo + 1;
            for (c, back, front) in [(Color::Red, 2u8, g.sq(mid, pr.rank_lo + 2)), (Color::Black, g.ranks - 3, g.sq(mid, pb.rank_lo))] {
                for s in 0..g.len() as u8 {
                    if g.rank(s) == back && board.get(s) == Some(Piece::new(c, Kind::Chancellor)) {
                        board.set(s, None);
                    }
                }
                board.set(front, Some(Piece::new(c, Kind::Chancellor)));
            }
        }
        let tricks = if rules.secret_tricks { [[UNSET; 3]; 3] } else { TRICKS };
        let (up, down) = if rules.numbers() {
            (NUMBERS, tricks)
        } else if rules.tricks() {
            ([[PLAIN; 3]; 3], tricks)
        } else {
            ([[PLAIN; 3]; 3], [[PLAIN; 3]; 3])
        };
        let (pr, pb) = (g.palace(Color::Red), g.palace(Color::Black));
        let plates = [Plate { origin: (pr.file_lo, pr.rank_lo), up, down }, Plate { origin: (pb.file_lo, pb.rank_lo), up, down }];
        CamelPosition {
            board,
            under: [0; MAX_SQUARES],
            turn: Color::Red,
            plates,
            flips: [0; 2],
            last_act: [LastAct::Piece; 2],
            redeem: None,
            promo_window: [None; 2],
            halfmove: 0,
            fullmove: 1,
            rules,
        }
    }

    /// The board (top pieces).
    pub fn board(&self) -> &Board {
        &self.board
    }
    /// The geometry.
    pub fn geo(&self) -> &'static Geometry {
        self.board.geo()
    }
    /// Side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }
    /// Rules.
    pub fn rules(&self) -> &CamelRules {
        &self.rules
    }
    /// `c`'s plate.
    pub fn plate(&self, c: Color) -> &Plate {
        &self.plates[c.index()]
    }
    /// The bottom piece of a stack on `s`.
    pub fn under(&self, s: Sq) -> Option<Piece> {
        Piece::from_code(self.under[s as usize])
    }
    /// Plies since the last capture.
    pub fn halfmove(&self) -> u16 {
        self.halfmove
    }
    /// The pending redemption square (the side to move's general was captured there).
    pub fn redeem(&self) -> Option<Sq> {
        self.redeem
    }

    /// A hash of the position.
    pub fn hash(&self) -> u64 {
        self.hash_hiding([None, None])
    }

    /// [`CamelPosition::hash`] with the face beneath side `c`'s plate hashed by where its cells
    /// came from rather than by what they show, for each `c` with `Some(layout)`: a cell holding
    /// trick `t` counts as the index of `t` in `layout` (the owner-local cells, column-major, at
    /// the end of the set-up). Positions that differ only in a still-secret trick layout (§2.13)
    /// then hash alike, while rotations and flips of that plate still count.
    pub fn hash_hiding(&self, layouts: [Option<&[Cell; 9]>; 2]) -> u64 {
        let mut h = self.board.hash() ^ (self.turn as u64) << 63;
        for (i, &u) in self.under.iter().enumerate() {
            if u != 0 {
                h = h.rotate_left(5) ^ (i as u64 * 31 + u as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            }
        }
        for (p, layout) in self.plates.iter().zip(layouts) {
            h = h.rotate_left(11) ^ (p.origin.0 as u64 * 16 + p.origin.1 as u64);
            for &c in p.up.iter().flatten() {
                h = h.rotate_left(3) ^ c as u64;
            }
            for &c in p.down.iter().flatten() {
                let c = match layout {
                    Some(l) => 40 + l.iter().position(|&x| x == c).unwrap_or(9) as u64,
                    None => c as u64,
                };
                h = h.rotate_left(3) ^ c;
            }
        }
        h ^= (self.flips[0] as u64) << 40 ^ (self.flips[1] as u64) << 44 ^ (self.last_act[0] as u64) << 48 ^ (self.last_act[1] as u64) << 50;
        h ^= self.redeem.map_or(0, |s| s as u64 + 1) << 24 ^ self.promo_window[0].map_or(0, |s| s as u64 + 1) << 32 ^ self.promo_window[1].map_or(0, |s| s as u64 + 1) << 56;
        h ^ (h >> 29)
    }

    /// The board square of owner-local cell (col, row) of `c`'s plate.
    pub fn cell_square(&self, c: Color, col: u8, row: u8) -> Sq {
        let (f, r) = self.plates[c.index()].origin;
        match c {
            Color::Red => self.geo().sq(f + col, r + row),
            Color::Black => self.geo().sq(f + 2 - col, r + 2 - row),
        }
    }

    /// The owner-local cell of `s` on `c`'s plate, if `s` is on it.
    pub fn cell_of(&self, c: Color, s: Sq) -> Option<(u8, u8)> {
        let g = self.geo();
        let (f, r) = self.plates[c.index()].origin;
        let (sf, sr) = (g.file(s), g.rank(s));
        if sf < f || sf >= f + 3 || sr < r || sr >= r + 3 {
            return None;
        }
        Some(match c {
            Color::Red => (sf - f, sr - r),
            Color::Black => (2 - (sf - f), 2 - (sr - r)),
        })
    }

    /// Whether `s` is on `c`'s plate (its palace, wherever it is).
    pub fn in_plate(&self, c: Color, s: Sq) -> bool {
        self.cell_of(c, s).is_some()
    }

    /// Whether `s` is on `c`'s plate diagonals (corners and centre).
    pub fn on_plate_diagonal(&self, c: Color, s: Sq) -> bool {
        self.cell_of(c, s).is_some_and(|(a, b)| (a + b) % 2 == 0)
    }

    /// The general of `c`.
    pub fn general(&self, c: Color) -> Option<Sq> {
        self.board.find(Piece::new(c, Kind::General))
    }

    /// `c`'s active trick (§2.9): its plate shows the trick face and its general stands on a
    /// trick cell; K2 is neutralised when both generals stand on it.
    pub fn trick(&self, c: Color) -> Option<Cell> {
        let raw = |c: Color| -> Option<Cell> {
            let p = &self.plates[c.index()];
            if !p.trick_up() {
                return None;
            }
            let gs = self.general(c)?;
            let (col, row) = self.cell_of(c, gs)?;
            let t = p.up[col as usize][row as usize];
            (1..=8).contains(&t).then_some(t)
        };
        let t = raw(c)?;
        if t == 2 && raw(c.opponent()) == Some(2) {
            return None;
        }
        Some(t)
    }

    /// Whether `c`'s soldiers are frozen (§2.11): its plate shows the number face and the numbers
    /// under enemy pieces on it sum to more than those under its own pieces.
    pub fn frozen(&self, c: Color) -> bool {
        let p = &self.plates[c.index()];
        if !p.number_up() {
            return false;
        }
        let (mut own, mut enemy) = (0u32, 0u32);
        for col in 0..3 {
            for row in 0..3 {
                let s = self.cell_square(c, col, row);
                if let Some(x) = self.board.get(s) {
                    let n = (p.up[col as usize][row as usize] - NUMBER) as u32;
                    if x.color == c {
                        own += n;
                    } else {
                        enemy += n;
                    }
                }
            }
        }
        enemy > own
    }

    /// Pieces of `c` of kind `k` on the board, stacked ones included.
    pub fn count(&self, c: Color, k: Kind) -> usize {
        let p = Piece::new(c, k).code();
        (0..self.geo().len()).filter(|&s| self.board.code(s as u8) == p).count() + self.under.iter().filter(|&&u| u == p).count()
    }
}
