//! A skill-tile position (RULES-more.md §1): board, side to move, both tile layouts, the piece
//! the opponent moved last (stagnation exclusion §1.7, T23 imitation), a pending victory-soldier
//! claim (T16), clocks; tile activation and neutralisation (§1.5), the base moves with the
//! river-row conventions (§1.3), every tile of §1.6 (T9's ring road in `ring`), attacks (base
//! patterns plus T6 facing and T27, minus T14 pins, §1.8) and turn legality.

use super::super::board::Board;
use super::super::geometry::{Geometry, Sq, CAMEL, DIAG, HORSE, LONG_LEAP, ORTHO};
use super::super::piece::{Kind, Piece};
use super::rules::{SkillBoard, SkillRules};
use super::tiles::*;
use crate::piece::Color;

/// A move of one piece; with `exchange` both the mover and the enemy on `to` are removed (兑,
/// §0.3, §1.5); `promote` replaces an arriving soldier (T31).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SMove {
    /// Origin.
    pub from: Sq,
    /// Destination, or the exchanged piece's square.
    pub to: Sq,
    /// An exchange: both pieces removed.
    pub exchange: bool,
    /// T31 promotion of an arriving soldier to this kind (chariot, horse or cannon).
    pub promote: Option<Kind>,
}

/// A skill-tile position; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SkillPosition {
    pub(super) board: Board,
    pub(super) turn: Color,
    /// Tile layouts in recess order ([`SkillPosition::recesses`]); 0 = no tile yet (set-up).
    pub(super) tiles: [[TileId; 8]; 2],
    /// The square now holding the piece the side not to move moved last (`None` if it is gone or
    /// no move was made yet).
    pub(super) last_sq: Option<Sq>,
    /// The kind of the piece the side not to move moved last (T23).
    pub(super) last_kind: Option<Kind>,
    /// That last move went from a river square to a river square (§1.10 #4 strict flag).
    pub(super) last_along_river: bool,
    /// Per side: a soldier that reached the enemy back rank on that side's previous move without
    /// promoting (T31 second window, [`SkillRules::t31_second_window`]).
    pub(super) promo_window: [Option<Sq>; 2],
    /// A victory soldier of the side not to move standing on the enemy general's start square
    /// (T16), to be removed on this turn or the game is lost.
    pub(super) pending_victory: Option<Sq>,
    pub(super) halfmove: u16,
    pub(super) fullmove: u16,
    pub(super) rules: SkillRules,
}


static GEO_A: std::sync::OnceLock<Geometry> = std::sync::OnceLock::new();
static GEO_B: std::sync::OnceLock<Geometry> = std::sync::OnceLock::new();

/// The geometry of a board choice (§1.2).
pub fn geometry(b: SkillBoard) -> &'static Geometry {
    match b {
        SkillBoard::A => GEO_A.get_or_init(Geometry::skill_a),
        SkillBoard::B => GEO_B.get_or_init(|| {
            let p = [super::super::geometry::Palace { file_lo: 3, rank_lo: 0 }, super::super::geometry::Palace { file_lo: 3, rank_lo: 7 }];
            Geometry::new(9, 10, super::super::geometry::River::Between { red_last: 4 }, p).expect("board B is valid")
        }),
    }
}

/// The board field of the start (§1.4): the classic array, Black shifted up by the river row.
pub fn start_board(b: SkillBoard) -> &'static str {
    match b {
        SkillBoard::A => "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        SkillBoard::B => "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
    }
}

impl SkillPosition {
    /// The start array with the given layouts (recess order; 0 = not chosen yet).
    pub fn start(rules: SkillRules, tiles: [[TileId; 8]; 2]) -> SkillPosition {
        let board = Board::parse_field(geometry(rules.board), start_board(rules.board)).expect("start parses");
        SkillPosition { board, turn: Color::Red, tiles, last_sq: None, last_kind: None, last_along_river: false, promo_window: [None; 2], pending_victory: None, halfmove: 0, fullmove: 1, rules }
    }

    /// The board.
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

    /// The rules.
    pub fn rules(&self) -> &SkillRules {
        &self.rules
    }

    /// `c`'s tile layout in recess order.
    pub fn tiles(&self, c: Color) -> [TileId; 8] {
        self.tiles[c.index()]
    }

    /// Plies since the last removal.
    pub fn halfmove(&self) -> u16 {
        self.halfmove
    }

    /// The pending T16 claim: the soldier's square.
    pub fn pending_victory(&self) -> Option<Sq> {
        self.pending_victory
    }

    /// A hash of the position.
    pub fn hash(&self) -> u64 {
        let mut h = self.board.hash() ^ (self.turn as u64) << 63;
        for c in 0..2 {
            for &t in &self.tiles[c] {
                h = h.rotate_left(7) ^ (t as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            }
        }
        h ^= (self.last_sq.map_or(255, |s| s as u64)) << 8 ^ self.last_kind.map_or(15, |k| k as u64) << 20;
        h ^= self.pending_victory.map_or(255, |s| s as u64) << 32 ^ (self.last_along_river as u64) << 44;
        for (i, w) in self.promo_window.iter().enumerate() {
            h ^= w.map_or(0, |s| s as u64 + 1) << (48 + 8 * i);
        }
        h ^ (h >> 29)
    }

    /// The 8 tile recesses of `c`: its palace squares except the general's start square, in
    /// ascending square order (§1.2).
    pub fn recesses(&self, c: Color) -> [Sq; 8] {
        let g = self.geo();
        let p = g.palace(c);
        let start = g.sq(p.file_lo + 1, g.back_rank(c));
        let mut out = [0; 8];
        let mut i = 0;
        for r in p.rank_lo..p.rank_lo + 3 {
            for f in p.file_lo..p.file_lo + 3 {
                let s = g.sq(f, r);
                if s != start {
                    out[i] = s;
                    i += 1;
                }
            }
        }
        out
    }

    /// The general start square of `c` (e0 / e10 on board A).
    pub fn general_start(&self, c: Color) -> Sq {
        let g = self.geo();
        g.sq(g.palace(c).file_lo + 1, g.back_rank(c))
    }

    /// The general of `c`.
    pub fn general(&self, c: Color) -> Option<Sq> {
        self.board.find(Piece::new(c, Kind::General))
    }

    /// The tile under `c`'s general, neutralisation ignored.
    pub fn tile_under(&self, c: Color) -> Option<TileId> {
        let gs = self.general(c)?;
        let i = self.recesses(c).iter().position(|&s| s == gs)?;
        Some(self.tiles[c.index()][i]).filter(|&t| t != 0)
    }

    /// `c`'s active tile (§1.5 activation): the tile under its general, unless the other general
    /// stands on a tile of the same name (neutralisation).
    pub fn active(&self, c: Color) -> Option<TileId> {
        let t = self.tile_under(c)?;
        if self.tile_under(c.opponent()) == Some(t) {
            None
        } else {
            Some(t)
        }
    }

    /// The piece of `c` pinned by the enemy general's T14 (§1.6.1): the single piece of `c` on
    /// the 4 squares diagonally adjacent to that general.
    pub fn pinned(&self, c: Color) -> Option<Sq> {
        let o = c.opponent();
        if self.active(o) != Some(T14) {
            return None;
        }
        let gs = self.general(o)?;
        let g = self.geo();
        let mut found = None;
        for (dx, dy) in DIAG {
            if let Some(s) = g.offset(gs, dx, dy) {
                if self.board.is_color(s, c) {
                    if found.is_some() {
                        return None;
                    }
                    found = Some(s);
                }
            }
        }
        found
    }

    /// `c`'s own bank: the own-half rank next to the river.
    fn bank(&self, c: Color) -> u8 {
        let g = self.geo();
        match (g.river, c) {
            (super::super::geometry::River::Row { rank }, Color::Red) => rank - 1,
            (super::super::geometry::River::Row { rank }, Color::Black) => rank + 1,
            (super::super::geometry::River::Between { red_last }, Color::Red) => red_last,
            (super::super::geometry::River::Between { red_last }, Color::Black) => red_last + 1,
        }
    }

    /// The squares the piece `p` on `from` reaches by its **base** pattern (§0.3, §1.3), as
    /// targets that are empty or hold an enemy; `regions` false ignores palace and river limits
    /// (T23 imitation).
    fn base_targets(&self, from: Sq, p: Piece, regions: bool, out: &mut Vec<Sq>) {
        let g = self.geo();
        let b = &self.board;
        let c = p.color;
        let ok = |to: Sq| !b.is_color(to, c);
        match p.kind {
            Kind::General => {
                for (dx, dy) in ORTHO {
                    if let Some(to) = g.offset(from, dx, dy) {
                        if (!regions || g.in_palace(c, to)) && ok(to) {
                            out.push(to);
                        }
                    }
                }
            }
            Kind::Advisor => {
                for (dx, dy) in DIAG {
                    if let Some(to) = g.offset(from, dx, dy) {
                        if (!regions || (g.on_palace_diagonal(c, to) && g.on_palace_diagonal(c, from))) && ok(to) {
                            out.push(to);
                        }
                    }
                }
            }
            Kind::Elephant => {
                for (dx, dy) in DIAG {
                    if let (Some(eye), Some(to)) = (g.offset(from, dx, dy), g.offset(from, 2 * dx, 2 * dy)) {
                        if b.is_empty(eye) && (!regions || g.own_half(c, to)) && ok(to) {
                            out.push(to);
                        }
                    }
                }
            }
            Kind::Horse => {
                for (dx, dy) in HORSE {
                    let (lx, ly) = if dx.abs() == 2 { (dx.signum(), 0) } else { (0, dy.signum()) };
                    if let (Some(l), Some(to)) = (g.offset(from, lx, ly), g.offset(from, dx, dy)) {
                        if b.is_empty(l) && ok(to) {
                            out.push(to);
                        }
                    }
                }
            }
            Kind::Chariot => {
                for (dx, dy) in ORTHO {
                    let mut s = from;
                    while let Some(to) = g.offset(s, dx, dy) {
                        if ok(to) {
                            out.push(to);
                        }
                        if !b.is_empty(to) {
                            break;
                        }
                        s = to;
                    }
                }
            }
            Kind::Cannon => {
                for (dx, dy) in ORTHO {
                    let mut s = from;
                    let mut screen = false;
                    while let Some(to) = g.offset(s, dx, dy) {
                        let empty = b.is_empty(to);
                        if !screen {
                            if empty {
                                out.push(to);
                            } else {
                                screen = true;
                            }
                        } else if !empty {
                            if ok(to) {
                                out.push(to);
                            }
                            break;
                        }
                        s = to;
                    }
                }
            }
            Kind::Soldier => {
                let fwd = Geometry::forward(c);
                if let Some(to) = g.offset(from, 0, fwd) {
                    if ok(to) {
                        out.push(to);
                    }
                }
                // §1.3: from its own bank a soldier may cross the river row in one step.
                if regions && g.rank(from) == self.bank(c) && g.is_river(g.offset(from, 0, fwd).unwrap_or(from)) {
                    if let Some(to) = g.offset(from, 0, 2 * fwd) {
                        if ok(to) {
                            out.push(to);
                        }
                    }
                }
                if g.crossed(c, from) {
                    for dx in [-1, 1] {
                        if let Some(to) = g.offset(from, dx, 0) {
                            if ok(to) {
                                out.push(to);
                            }
                        }
                    }
                }
            }
            Kind::Fighter | Kind::Missile | Kind::Camel | Kind::Chancellor => {}
        }
    }

    /// Whether the piece `p` on `s` could ever stand on `q` by static region reach (§1.6.1 T27
    /// condition 3).
    fn could_reach(&self, s: Sq, p: Piece, q: Sq) -> bool {
        let g = self.geo();
        let c = p.color;
        match p.kind {
            Kind::General => g.in_palace(c, q),
            Kind::Advisor => g.on_palace_diagonal(c, q),
            Kind::Elephant => self.elephant_point(c, q),
            Kind::Soldier => {
                let fwd = Geometry::forward(c) as i16;
                let ahead = |a: Sq, b: Sq| (g.rank(b) as i16 - g.rank(a) as i16) * fwd >= 0;
                if g.crossed(c, s) {
                    g.crossed(c, q) && ahead(s, q)
                } else {
                    g.crossed(c, q) || (g.file(q) == g.file(s) && ahead(s, q) && (g.own_half(c, q) || g.is_river(q)))
                }
            }
            _ => true,
        }
    }

    /// Whether `q` is one of `c`'s 7 elephant points: own half, reachable by (2,2) steps from
    /// the elephants' start squares.
    pub fn elephant_point(&self, c: Color, q: Sq) -> bool {
        let g = self.geo();
        if !g.own_half(c, q) {
            return false;
        }
        let br = g.back_rank(c) as i16;
        let (f, r) = (g.file(q) as i16, g.rank(q) as i16);
        let dr = (r - br).abs();
        // Start files 2 and 6 on the back rank; the lattice has file-2 ≡ rank-offset (mod 4)
        // pattern with both even.
        dr % 2 == 0 && f % 2 == 0 && ((f - 2).rem_euclid(4) == 0) == (dr % 4 == 0)
    }

    /// Whether the T27 capture (§1.6.1) from `cs` to `ts` holds: same file across the river,
    /// empty between, no potential screen.
    fn t27(&self, cs: Sq, ts: Sq) -> bool {
        let g = self.geo();
        if g.file(cs) != g.file(ts) {
            return false;
        }
        let (hc, ht) = (g.half(cs), g.half(ts));
        if hc.is_none() || ht.is_none() || hc == ht {
            return false;
        }
        let (lo, hi) = (g.rank(cs).min(g.rank(ts)), g.rank(cs).max(g.rank(ts)));
        let between: Vec<Sq> = (lo + 1..hi).map(|r| g.sq(g.file(cs), r)).collect();
        if between.iter().any(|&q| !self.board.is_empty(q)) {
            return false;
        }
        for (s, p) in self.board.pieces() {
            if s == cs || s == ts {
                continue;
            }
            if between.iter().any(|&q| self.could_reach(s, p, q)) {
                return false;
            }
        }
        true
    }

    /// Whether a piece of `by` attacks `t` (§1.8): base capture patterns of unpinned pieces and
    /// the T27 capture of `by`'s cannons.
    pub fn attacked(&self, t: Sq, by: Color) -> bool {
        let pinned = self.pinned(by);
        let t27 = self.active(by) == Some(T27);
        let mut v = Vec::with_capacity(20);
        for (s, p) in self.board.pieces() {
            if p.color != by || Some(s) == pinned {
                continue;
            }
            v.clear();
            self.base_targets(s, p, true, &mut v);
            if v.contains(&t) {
                return true;
            }
            if t27 && p.kind == Kind::Cannon && self.t27(s, t) {
                return true;
            }
        }
        false
    }

    fn facing(&self) -> bool {
        self.board.generals_facing()
    }

    /// Whether `c` is in check: its general attacked, or facing the other general while `c`'s
    /// own T6 is not active (T6 lifts the facing ban for its owner only, §1.6.1).
    pub fn in_check(&self, c: Color) -> bool {
        let Some(gs) = self.general(c) else { return true };
        self.attacked(gs, c.opponent()) || (self.facing() && self.active(c) != Some(T6))
    }

    /// The pseudo-legal moves of the side to move: base and tile patterns of every unpinned
    /// piece (§1.3, §1.6), with T31 promotion variants.
    pub fn pseudo_moves(&self, out: &mut Vec<SMove>) {
        let c = self.turn;
        let o = c.opponent();
        let tile = self.active(c);
        let opp_tile = self.active(o);
        let pinned = self.pinned(c);
        let b = &self.board;
        let mut v = Vec::with_capacity(24);
        for (from, p) in self.board.pieces() {
            if p.color != c || Some(from) == pinned {
                continue;
            }
            v.clear();
            self.base_targets(from, p, true, &mut v);
            for &to in &v {
                let target = b.get(to);
                if p.kind == Kind::General {
                    // T3 / T26: the enemy general cannot capture the owner's cannons / horses.
                    match (opp_tile, target.map(|t| t.kind)) {
                        (Some(T3), Some(Kind::Cannon)) | (Some(T26), Some(Kind::Horse)) => continue,
                        _ => {}
                    }
                }
                self.push_with_promotion(from, to, p, tile, out);
            }
            if let Some(t) = tile {
                self.tile_moves(from, p, t, out);
            }
        }
    }

    fn push_with_promotion(&self, from: Sq, to: Sq, p: Piece, tile: Option<TileId>, out: &mut Vec<SMove>) {
        out.push(SMove { from, to, exchange: false, promote: None });
        let g = self.geo();
        // T31 second window: the general steps onto T31 while a soldier waits on the back rank.
        if p.kind == Kind::General && self.rules.t31_second_window {
            if let Some(ws) = self.promo_window[p.color.index()].filter(|&ws| self.board.is(ws, Piece::new(p.color, Kind::Soldier)) && ws != to) {
                let mut q = self.clone();
                q.board.set(to, Some(p));
                q.board.set(from, None);
                if q.active(p.color) == Some(T31) && ws != from {
                    for k in [Kind::Chariot, Kind::Horse, Kind::Cannon] {
                        if self.count(p.color, k) < 2 {
                            out.push(SMove { from, to, exchange: false, promote: Some(k) });
                        }
                    }
                }
            }
        }
        let back = g.back_rank(p.color.opponent());
        if p.kind == Kind::Soldier && tile == Some(T31) && g.rank(to) == back && g.rank(from) != back {
            for k in [Kind::Chariot, Kind::Horse, Kind::Cannon] {
                if self.count(p.color, k) < 2 {
                    out.push(SMove { from, to, exchange: false, promote: Some(k) });
                }
            }
        }
    }

    /// Pieces of `c` of kind `k` on the board.
    pub fn count(&self, c: Color, k: Kind) -> usize {
        self.board.pieces().filter(|(_, p)| p.color == c && p.kind == k).count()
    }

    /// The enhanced moves of tile `t` for the piece `p` on `from` (§1.6).
    pub(super) fn tile_moves(&self, from: Sq, p: Piece, t: TileId, out: &mut Vec<SMove>) {
        let g = self.geo();
        let b = &self.board;
        let c = p.color;
        // E+: empty -> move, enemy non-general -> exchange.
        let enh = |to: Sq, out: &mut Vec<SMove>| match b.get(to) {
            None => out.push(SMove { from, to, exchange: false, promote: None }),
            Some(x) if x.color != c && x.kind != Kind::General => out.push(SMove { from, to, exchange: true, promote: None }),
            _ => {}
        };
        let xch = |to: Sq, out: &mut Vec<SMove>| {
            if b.get(to).is_some_and(|x| x.color != c && x.kind != Kind::General) {
                out.push(SMove { from, to, exchange: true, promote: None });
            }
        };
        let empty_only = |to: Sq, out: &mut Vec<SMove>| {
            if b.is_empty(to) {
                out.push(SMove { from, to, exchange: false, promote: None });
            }
        };
        // Slide from `s` in (dx, dy) through empty squares: moves, then an exchange with the
        // first piece if it is an enemy (and `exchange`).
        let slide = |s0: Sq, dx: i8, dy: i8, exchange: bool, keep: &dyn Fn(Sq) -> bool, out: &mut Vec<SMove>| {
            let mut s = s0;
            while let Some(to) = g.offset(s, dx, dy) {
                if !keep(to) {
                    break;
                }
                if b.is_empty(to) {
                    out.push(SMove { from, to, exchange: false, promote: None });
                } else {
                    if exchange {
                        xch(to, out);
                    }
                    break;
                }
                s = to;
            }
        };
        match (p.kind, t) {
            (Kind::Chariot, T1) | (Kind::Cannon, T11) => {
                let screens = if t == T1 { 1 } else { 2 };
                for (dx, dy) in ORTHO {
                    let mut s = from;
                    let mut jumped = 0;
                    while let Some(to) = g.offset(s, dx, dy) {
                        if b.is_empty(to) {
                            if jumped == screens || (t == T11 && self.rules.t11_one_or_two && jumped == 1) {
                                out.push(SMove { from, to, exchange: false, promote: None });
                            }
                        } else if jumped == screens {
                            xch(to, out);
                            break;
                        } else {
                            jumped += 1;
                        }
                        s = to;
                    }
                }
            }
            (Kind::Horse, T2) => {
                for (dx, dy) in HORSE {
                    let (lx, ly) = if dx.abs() == 2 { (dx.signum(), 0) } else { (0, dy.signum()) };
                    if let (Some(l), Some(to)) = (g.offset(from, lx, ly), g.offset(from, dx, dy)) {
                        if !b.is_empty(l) {
                            enh(to, out);
                        }
                    }
                }
            }
            (Kind::Elephant, T4) => {
                for (dx, dy) in DIAG {
                    if let (Some(eye), Some(to)) = (g.offset(from, dx, dy), g.offset(from, 2 * dx, 2 * dy)) {
                        if g.own_half(c, to) {
                            xch(eye, out);
                        }
                    }
                }
            }
            (Kind::Advisor, T5) | (Kind::Advisor, T13) => {
                let (cf, cr) = g.palace(c).centre();
                let centre = g.sq(cf, cr);
                if g.in_palace(c, from) && from != centre && g.on_palace_diagonal(c, from) {
                    let (dx, dy) = (cf as i8 - g.file(from) as i8, cr as i8 - g.rank(from) as i8);
                    if let Some(to) = g.offset(from, 2 * dx, 2 * dy) {
                        let occupied = !b.is_empty(centre);
                        if occupied == (t == T5) {
                            enh(to, out);
                        }
                    }
                }
            }
            (Kind::Soldier, T7)
                if g.rank(from) == g.back_rank(c.opponent()) => {
                    let mut v = Vec::new();
                    for k in [Kind::Chariot, Kind::Horse, Kind::Cannon] {
                        if self.count(c, k) == 0 {
                            continue;
                        }
                        v.clear();
                        self.base_targets(from, Piece::new(c, k), false, &mut v);
                        for &to in &v {
                            if g.crossed(c, to) && !out.iter().any(|m| m.from == from && m.to == to && m.exchange) {
                                xch(to, out);
                            }
                        }
                    }
                }
            (Kind::Soldier, T8)
                if g.crossed(c, from) => {
                    if let Some(to) = g.offset(from, 0, -Geometry::forward(c)) {
                        if g.crossed(c, to) {
                            enh(to, out);
                        }
                    }
                }
            (Kind::Chariot, T9) => self.ring_moves(from, c, out),
            (Kind::Horse, T10) => {
                for (dx, dy) in LONG_LEAP {
                    let (lx, ly) = if dx.abs() == 3 { (dx.signum(), 0) } else { (0, dy.signum()) };
                    let occ = |k: i8| g.offset(from, k * lx, k * ly).is_some_and(|s| !b.is_empty(s));
                    let blocked = if self.rules.t10_fighter_block { occ(1) && occ(2) } else { occ(1) };
                    if let Some(to) = g.offset(from, dx, dy) {
                        if !blocked {
                            enh(to, out);
                        }
                    }
                }
            }
            (Kind::Elephant, T12) => {
                for (dx, dy) in DIAG {
                    if let Some(to) = g.offset(from, 4 * dx, 4 * dy) {
                        let clear = (1..4).all(|k| g.offset(from, k * dx, k * dy).is_some_and(|s| b.is_empty(s)));
                        if clear && g.own_half(c, to) {
                            enh(to, out);
                        }
                    }
                }
            }
            (Kind::Soldier, T15)
                if !g.crossed(c, from) => {
                    for dx in [-1, 1] {
                        if let Some(to) = g.offset(from, dx, 0) {
                            enh(to, out);
                        }
                    }
                }
            (Kind::Chariot, T17) | (Kind::Cannon, T19) => {
                for side in Color::ALL {
                    if !g.on_palace_diagonal(side, from) {
                        continue;
                    }
                    let keep = |s: Sq| g.on_palace_diagonal(side, s);
                    for (dx, dy) in DIAG {
                        slide(from, dx, dy, t == T17, &keep, out);
                    }
                    if t == T19 {
                        let (cf, cr) = g.palace(side).centre();
                        let centre = g.sq(cf, cr);
                        if from != centre && !b.is_empty(centre) {
                            let (dx, dy) = (cf as i8 - g.file(from) as i8, cr as i8 - g.rank(from) as i8);
                            if let Some(to) = g.offset(from, 2 * dx, 2 * dy) {
                                xch(to, out);
                            }
                        }
                    }
                }
            }
            (Kind::Horse, T18) => {
                for (dx, dy) in CAMEL {
                    if let (Some(l), Some(to)) = (g.offset(from, dx.signum(), dy.signum()), g.offset(from, dx, dy)) {
                        if b.is_empty(l) {
                            enh(to, out);
                        }
                    }
                }
            }
            (Kind::Elephant, T20) => {
                for (dx, dy) in ORTHO {
                    if let Some(to) = g.offset(from, 4 * dx, 4 * dy) {
                        let clear = (1..4).all(|k| g.offset(from, k * dx, k * dy).is_some_and(|s| b.is_empty(s)));
                        if clear && g.own_half(c, to) {
                            enh(to, out);
                        }
                    }
                }
            }
            (Kind::Advisor, T21) => {
                let pal = g.palace(c);
                let corner = |s: Sq| g.in_palace(c, s) && (g.file(s) - pal.file_lo).is_multiple_of(2) && (g.rank(s) - pal.rank_lo).is_multiple_of(2) && g.file(s) != pal.file_lo + 1;
                if corner(from) {
                    for (dx, dy) in ORTHO {
                        if let (Some(mid), Some(to)) = (g.offset(from, dx, dy), g.offset(from, 2 * dx, 2 * dy)) {
                            if corner(to) && b.is_empty(mid) {
                                enh(to, out);
                            }
                        }
                    }
                }
            }
            (Kind::General, T22) => {
                for (dx, dy) in DIAG {
                    if let Some(to) = g.offset(from, dx, dy) {
                        if g.on_palace_diagonal(c, from) && g.on_palace_diagonal(c, to) {
                            empty_only(to, out);
                        }
                    }
                }
            }
            (Kind::Soldier, T23) => {
                if let (true, Some(k)) = (g.crossed(c, from), self.last_kind) {
                    if k == Kind::Cannon {
                        for (dx, dy) in ORTHO {
                            let mut s = from;
                            let mut jumped = 0;
                            while let Some(to) = g.offset(s, dx, dy) {
                                if b.is_empty(to) {
                                    if jumped == 1 && g.crossed(c, to) {
                                        out.push(SMove { from, to, exchange: false, promote: None });
                                    }
                                } else if jumped == 1 {
                                    if g.crossed(c, to) && Some(to) != self.last_sq {
                                        xch(to, out);
                                    }
                                    break;
                                } else {
                                    jumped += 1;
                                }
                                s = to;
                            }
                        }
                    } else {
                        let mut v = Vec::new();
                        self.base_targets(from, Piece::new(c, k), false, &mut v);
                        for to in v {
                            if g.crossed(c, to) && Some(to) != self.last_sq {
                                // §1.10 #22 [R]: imitating a soldier still moves or exchanges;
                                // its moves there are its own, so only the exchanges are new.
                                if k == Kind::Soldier {
                                    xch(to, out);
                                } else {
                                    enh(to, out);
                                }
                            }
                        }
                    }
                }
            }
            (Kind::Soldier, T24)
                if g.crossed(c, from) => {
                    for dx in [-1, 1] {
                        if let Some(to) = g.offset(from, dx, Geometry::forward(c)) {
                            enh(to, out);
                        }
                    }
                }
            (Kind::Chariot, T25) => {
                for (dx, dy) in DIAG {
                    if let Some(to) = g.offset(from, dx, dy) {
                        enh(to, out);
                    }
                }
            }
            (Kind::Cannon, T27) => {
                for dy in [1i8, -1] {
                    let mut s = from;
                    while let Some(to) = g.offset(s, 0, dy) {
                        if !b.is_empty(to) {
                            if b.get(to).is_some_and(|x| x.color != c && x.kind != Kind::General) && self.t27(from, to) {
                                out.push(SMove { from, to, exchange: false, promote: None });
                            }
                            break;
                        }
                        s = to;
                    }
                }
            }
            (Kind::Elephant, T28)
                if g.rank(from) == self.bank(c) => {
                    for dx in [-2i8, 2] {
                        let fwd = Geometry::forward(c);
                        if let (Some(eye), Some(to)) = (g.offset(from, dx / 2, fwd), g.offset(from, dx, 2 * fwd)) {
                            if b.is_empty(eye) && g.crossed(c, to) {
                                xch(to, out);
                            }
                        }
                    }
                }
            (Kind::Advisor, T29) => {
                for (dx, dy) in DIAG {
                    if let Some(to) = g.offset(from, dx, dy) {
                        if !g.in_palace(c, to) {
                            xch(to, out);
                        }
                    }
                }
            }
            (Kind::General, T30) => {
                for (dx, dy) in ORTHO {
                    if let (Some(mid), Some(to)) = (g.offset(from, dx, dy), g.offset(from, 2 * dx, 2 * dy)) {
                        if g.in_palace(c, to) && b.is_empty(mid) {
                            empty_only(to, out);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Applies a move without legality checks (the removals of a turn are applied before it
    /// with [`SkillPosition::remove`]); switches the side to move and updates the T16 claim.
    pub fn play_unchecked(&mut self, m: SMove) {
        let c = self.turn;
        let mover = self.board.get(m.from);
        let captured = self.board.get(m.to).is_some();
        if m.exchange {
            self.board.set(m.from, None);
            self.board.set(m.to, None);
            self.last_sq = None;
        } else {
            let landed = match (mover, m.promote) {
                (Some(p), Some(k)) if p.kind == Kind::Soldier => Some(Piece::new(p.color, k)),
                (Some(p), Some(k)) => {
                    // T31 second window: the waiting soldier promotes as the general arrives.
                    if let Some(ws) = self.promo_window[c.index()] {
                        self.board.set(ws, Some(Piece::new(c, k)));
                    }
                    Some(p)
                }
                (p, None) => p,
                (None, Some(_)) => None,
            };
            self.board.set(m.to, landed);
            self.board.set(m.from, None);
            self.last_sq = Some(m.to);
        }
        self.last_kind = mover.map(|p| p.kind);
        let g = self.geo();
        let back = g.back_rank(c.opponent());
        let arrived = !m.exchange && m.promote.is_none() && mover.is_some_and(|p| p.kind == Kind::Soldier) && g.rank(m.to) == back && g.rank(m.from) != back;
        self.promo_window[c.index()] = (arrived && self.rules.t31_second_window).then_some(m.to);
        self.last_along_river = !m.exchange && g.is_river(m.from) && g.is_river(m.to);
        self.halfmove = if captured { 0 } else { self.halfmove.saturating_add(1) };
        if c == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        // T16: a soldier arriving on the enemy general's start square while T16 is active.
        let target = self.general_start(c.opponent());
        self.pending_victory = None;
        if !m.exchange && m.to == target && mover.is_some_and(|p| p.kind == Kind::Soldier) && m.promote.is_none() && self.active(c) == Some(T16) {
            self.pending_victory = Some(target);
        }
        self.turn = c.opponent();
    }

    /// Removes a stagnating enemy piece (§1.7) as part of the current turn.
    pub fn remove(&mut self, s: Sq) {
        self.board.set(s, None);
        self.halfmove = 0;
        if self.last_sq == Some(s) {
            self.last_sq = None;
            self.last_along_river = false;
        }
    }

    /// The stagnating opponent pieces the side to move may remove (§1.7): opponent pieces on
    /// river squares other than the one it moved last, and not its soldiers under its T32.
    pub fn removable(&self) -> Vec<Sq> {
        let g = self.geo();
        if self.rules.board == SkillBoard::B {
            return Vec::new();
        }
        let o = self.turn.opponent();
        let t32 = self.active(o) == Some(T32);
        self.board
            .pieces()
            .filter(|&(s, p)| {
                let exempt = Some(s) == self.last_sq && !(self.rules.stagnation_strict && self.last_along_river);
                p.color == o && g.is_river(s) && !exempt && !(t32 && p.kind == Kind::Soldier)
            })
            .map(|(s, _)| s)
            .collect()
    }

    /// The legal moves after the removals already made this turn by the mailbox rules: every
    /// pseudo-legal move made on a copy, kept when the mover is not in check afterwards (§1.8).
    /// The reference of [`SkillPosition::legal_moves`], which uses it where a tile is in play.
    pub fn legal_moves_mailbox(&self, out: &mut Vec<SMove>) {
        out.clear();
        let mut pseudo = Vec::with_capacity(96);
        self.pseudo_moves(&mut pseudo);
        pseudo.sort_unstable();
        pseudo.dedup();
        let c = self.turn;
        for m in pseudo {
            let mut q = self.clone();
            q.play_unchecked(m);
            if !q.in_check(c) {
                out.push(m);
            }
        }
    }

    /// Whether some turn exists from here (removals of squares above `after` in ascending order,
    /// then a legal move).
    pub fn has_turn(&self, after: Option<Sq>) -> bool {
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        if !v.is_empty() {
            return true;
        }
        for s in self.removable() {
            if after.is_some_and(|a| s <= a) {
                continue;
            }
            let mut q = self.clone();
            q.remove(s);
            if q.has_turn(Some(s)) {
                return true;
            }
        }
        false
    }
}
