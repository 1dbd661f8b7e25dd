//! Skill-tile move generation on the core bitboard layout ([`crate::more::bits`]) for the nodes
//! where no tile that changes attacks is active (RULES-more.md §1.3 base moves with the
//! river-row conventions, §1.8 legality), which are most nodes of a game and of perft: no T3/T26
//! restriction, T6 facing, T14 pin, T27 capture or T31 promotion applies ([`SPECIAL`]). The
//! enhanced moves of any other active tile come from the mailbox pattern code and are tested
//! here; a general stepping onto a tile activates it for the legality of that move (§1.10 #29:
//! T14 and T6 change it), and a general moving while some general stands on a tile is decided by
//! the mailbox rules. Nodes with a [`SPECIAL`] tile active keep the mailbox generator of
//! [`super::position`].
//!
//! Legality as in the core ([`crate::movegen`]): pins and danger points found once per node;
//! a move of an unpinned piece other than the general, not in check, that captures or lands
//! off the danger points is legal without being made. The mailbox generator stays the
//! reference: `engine/tests/more_bits.rs` compares both.

use super::position::{SMove, SkillPosition};
use super::rules::SkillBoard;
use super::tiles::{TileId, T14, T26, T27, T3, T31, T6};
use crate::bitboard::Bitboard;
use crate::geometry::Square;
use crate::more::bits::BitGeo;
use crate::more::geometry::{Geometry, Sq};
use crate::more::piece::Piece;
use crate::movegen::Counter;
use crate::piece::Color;
use std::sync::OnceLock;

use crate::more::bits::kind::{GENERAL, ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER};

/// Per-board tables of the skill game on top of [`BitGeo`].
#[derive(Debug)]
struct Tables {
    g: &'static BitGeo,
    /// The recess index (0..8) of each core square per side, 255 elsewhere (§1.2).
    recess: [[u8; 128]; 2],
    /// The river row (empty on board B).
    river: Bitboard,
}

fn tables(p: &SkillPosition) -> Option<&'static Tables> {
    static A: OnceLock<Option<Tables>> = OnceLock::new();
    static B: OnceLock<Option<Tables>> = OnceLock::new();
    let cell = match p.rules().board {
        SkillBoard::A => &A,
        SkillBoard::B => &B,
    };
    cell.get_or_init(|| Tables::new(p)).as_ref()
}

impl Tables {
    fn new(p: &SkillPosition) -> Option<Tables> {
        let geo: &Geometry = p.geo();
        let g = BitGeo::of(geo)?;
        let mut t = Tables { g, recess: [[u8::MAX; 128]; 2], river: Bitboard::EMPTY };
        for s in 0..geo.len() as Sq {
            if geo.is_river(s) {
                t.river |= g.bb(s);
            }
        }
        for c in Color::ALL {
            for (i, &s) in p.recesses(c).iter().enumerate() {
                t.recess[c.index()][g.bit(s).index()] = i as u8;
            }
        }
        Some(t)
    }
}

/// The pieces of a skill position by side and kind on the core layout.
#[derive(Copy, Clone)]
struct Bits {
    t: &'static Tables,
    pieces: [[Bitboard; 7]; 2],
    occ: [Bitboard; 2],
    mail: [u8; 128],
    /// Some general stands on a tile (active or neutralised).
    on_tile: bool,
    /// The side to move's active tile (0: none), one that only adds moves.
    tile: TileId,
}

/// Tiles that change attacks, pins or captures (T6 facing, T14 pins, T27 cannon captures, T3
/// and T26 general captures, §1.6.1) or promote (T31): where one is active the node keeps the
/// mailbox generator. Every other tile only adds moves and exchanges, which never attack a
/// general (§1.5 consequences).
const SPECIAL: [TileId; 6] = [T3, T6, T14, T26, T27, T31];

impl Bits {
    /// The bitboards of `p`, or `None` when a tile may be in play (a general on a tile, or the
    /// T31 second window open) or the board does not fit.
    fn new(p: &SkillPosition) -> Option<Bits> {
        let t = tables(p)?;
        if p.rules().t31_second_window && p.promo_window.iter().any(Option::is_some) {
            return None;
        }
        let g = t.g;
        let mut b = Bits { t, pieces: [[Bitboard::EMPTY; 7]; 2], occ: [Bitboard::EMPTY; 2], mail: [0; 128], on_tile: false, tile: 0 };
        // Eight squares at a time, skipping empty runs (most of the board).
        for (base, chunk) in p.board.codes().chunks(8).enumerate() {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            let mut w = u64::from_le_bytes(word);
            while w != 0 {
                let byte = w.trailing_zeros() / 8;
                let code = (w >> (byte * 8)) as u8;
                w &= !(0xFFu64 << (byte * 8));
                // Piece codes: 1 + 11 * colour + kind (`Piece::code`).
                let (color, k) = (usize::from(code > 11), usize::from((code - 1) % 11));
                if k > SOLDIER {
                    // Not a piece of this game (a FEN may still place one): the mailbox path.
                    return None;
                }
                let s = (base * 8) as Sq + byte as Sq;
                let q = g.bit(s);
                let bb = Bitboard::from_square(q);
                b.pieces[color][k] |= bb;
                b.occ[color] |= bb;
                b.mail[q.index()] = code;
            }
        }
        b.settle(p)
    }

    /// Sets the tile state of `p` (§1.5 activation and neutralisation: the same tile name under
    /// both generals); `None` where a [`SPECIAL`] tile is active.
    fn settle(mut self, p: &SkillPosition) -> Option<Bits> {
        let under = Color::ALL.map(|c| self.tile_on(p, c, self.pieces[c.index()][GENERAL].first()));
        let active = |i: usize| if under[i] != 0 && under[i] != under[1 - i] { under[i] } else { 0 };
        if SPECIAL.contains(&active(0)) || SPECIAL.contains(&active(1)) {
            return None;
        }
        self.on_tile = under != [0, 0];
        self.tile = active(p.turn.index());
        Some(self)
    }

    /// The bitboards of `q`, the position after this node's move `m` (a plain move, capture or
    /// exchange; `None` for a promotion, or where `q` needs the mailbox rules).
    fn after_move(&self, q: &SkillPosition, m: SMove) -> Option<Bits> {
        if m.promote.is_some() || (q.rules().t31_second_window && q.promo_window.iter().any(Option::is_some)) {
            return None;
        }
        let mut b = *self;
        let (from, to) = (self.t.g.bit(m.from), self.t.g.bit(m.to));
        let mover = b.mail[from.index()];
        for (sq, code) in [(to, b.mail[to.index()]), (from, mover)] {
            if code != 0 {
                let (color, k) = (usize::from(code > 11), usize::from((code - 1) % 11));
                let bb = Bitboard::from_square(sq);
                b.pieces[color][k] ^= bb;
                b.occ[color] ^= bb;
                b.mail[sq.index()] = 0;
            }
        }
        if !m.exchange {
            let (color, k) = (usize::from(mover > 11), usize::from((mover - 1) % 11));
            let bb = Bitboard::from_square(to);
            b.pieces[color][k] ^= bb;
            b.occ[color] ^= bb;
            b.mail[to.index()] = mover;
        }
        b.settle(q)
    }

    /// The tile of `c` on core square `q` (0 when none or not a recess).
    fn tile_on(&self, p: &SkillPosition, c: Color, q: Option<Square>) -> TileId {
        let Some(q) = q else { return 0 };
        let i = self.t.recess[c.index()][q.index()];
        if i == u8::MAX {
            0
        } else {
            p.tiles[c.index()][i as usize]
        }
    }

    #[inline(always)]
    fn all(&self) -> Bitboard {
        self.occ[0] | self.occ[1]
    }

    /// Whether `t` is attacked by a piece of `by` by its base pattern (§1.8 with no tile in play).
    fn attacked(&self, t: Square, by: Color, occ: Bitboard, gone: Bitboard) -> bool {
        let g = self.t.g;
        let at = &g.at;
        let p = &self.pieces[by.index()];
        let i = t.index();
        let keep = !gone;
        if (at.chariot(t, occ) & p[CHARIOT] & keep).any() || (at.cannon_captures(t, occ) & p[CANNON] & keep).any() {
            return true;
        }
        if (at.horse_attackers(t, occ) & p[HORSE] & keep).any() || (self.t.g.soldier_from[by.index()][i] & p[SOLDIER] & keep).any() {
            return true;
        }
        let tb = Bitboard::from_square(t);
        let b = by.index();
        if (tb & g.palace_diag[b]).any() && (at.diagonal[i] & p[ADVISOR] & g.palace_diag[b] & keep).any() {
            return true;
        }
        if (tb & g.half[b]).any() && (at.elephant_targets(t, occ) & p[ELEPHANT] & keep).any() {
            return true;
        }
        (tb & g.palace[b]).any() && (at.orthogonal[i] & p[GENERAL] & keep).any()
    }

    /// Whether `c`'s general on `gs` is in check after a move of a piece other than it from
    /// `from` to `to` (`to` may hold an enemy piece, then removed).
    fn exposed_after(&self, c: Color, gs: Square, from: Square, to: Square) -> bool {
        let (fb, tb) = (Bitboard::from_square(from), Bitboard::from_square(to));
        let occ = (self.all() & !fb) | tb;
        self.attacked(gs, c.opponent(), occ, tb) || self.facing(gs, occ, tb)
    }

    /// Whether the general on `gs` sees the other general along its file through `occ`, the
    /// pieces on `gone` (just captured) left out.
    fn facing(&self, gs: Square, occ: Bitboard, gone: Bitboard) -> bool {
        (self.t.g.at.file_line(gs, occ) & occ & !gone & (self.pieces[0][GENERAL] | self.pieces[1][GENERAL])).any()
    }

    /// Base pseudo-legal targets of the piece of kind `k` of `c` on `from` (§0.3, §1.3).
    #[inline(always)]
    fn targets(&self, from: Square, c: Color, k: usize) -> Bitboard {
        let g = self.t.g;
        let at = &g.at;
        let occ = self.all();
        let i = from.index();
        let t = match k {
            GENERAL => at.orthogonal[i] & g.palace[c.index()],
            ADVISOR => {
                let d = g.palace_diag[c.index()];
                if d.contains(from) {
                    at.diagonal[i] & d
                } else {
                    Bitboard::EMPTY
                }
            }
            ELEPHANT => at.elephant_targets(from, occ) & g.half[c.index()],
            HORSE => at.horse_targets(from, occ),
            CHARIOT => at.chariot(from, occ),
            CANNON => (at.chariot(from, occ) & !occ) | (at.cannon_captures(from, occ) & self.occ[c.opponent().index()]),
            _ => g.soldier[c.index()][i],
        };
        t & !self.occ[c.index()]
    }

    /// Pins and danger points of `c`'s general on `gs` ([`BitGeo::pins_and_danger`]).
    fn pins_and_danger(&self, c: Color, gs: Square) -> (Bitboard, Bitboard) {
        let e = &self.pieces[c.opponent().index()];
        let sliders = e[CHARIOT] | self.pieces[0][GENERAL] | self.pieces[1][GENERAL];
        self.t.g.pins_and_danger(gs, self.all(), sliders, e[CANNON], e[HORSE], e[ELEPHANT])
    }

    /// Hands each piece's legal destinations to `sink`, origins in ascending order.
    fn legal(&self, p: &SkillPosition, sink: &mut impl FnMut(Square, Bitboard)) {
        let c = p.turn;
        let Some(gs) = self.pieces[c.index()][GENERAL].first() else { return };
        let occ = self.all();
        let in_check = self.attacked(gs, c.opponent(), occ, Bitboard::EMPTY) || self.facing(gs, occ, Bitboard::EMPTY);
        let (pins, danger) = if in_check { (Bitboard::EMPTY, Bitboard::EMPTY) } else { self.pins_and_danger(c, gs) };
        let mut movers = self.occ[c.index()];
        while let Some(from) = movers.first() {
            movers.clear(from);
            let k = ((self.mail[from.index()] - 1) % 11) as usize;
            let t = self.targets(from, c, k);
            if t.is_empty() {
                continue;
            }
            if k == GENERAL && self.on_tile {
                // A general leaving or entering a tile may change which tiles are active on both
                // sides: the mailbox rules decide.
                let mut ok = Bitboard::EMPTY;
                for to in t {
                    if slow_legal(p, SMove { from: self.t.g.sq(from), to: self.t.g.sq(to), exchange: false, promote: None }) {
                        ok.set(to);
                    }
                }
                if ok.any() {
                    sink(from, ok);
                }
                continue;
            }
            if k == GENERAL {
                let mut ok = Bitboard::EMPTY;
                for to in t {
                    // Stepping onto tile `tile` activates it at once (§1.10 #29; the other
                    // general stands on no tile, so nothing neutralises it): under T14 the single
                    // enemy piece diagonally next to the general is pinned and attacks nothing,
                    // under T6 facing the other general is no check for this side (§1.6.1).
                    let tile = self.tile_on(p, c, Some(to));
                    let (fb, tb) = (Bitboard::from_square(from), Bitboard::from_square(to));
                    let occ2 = (occ & !fb) | tb;
                    let mut gone = tb;
                    if tile == T14 {
                        let near = self.t.g.at.diagonal[to.index()] & self.occ[c.opponent().index()];
                        if near.any() && !near.more_than_one() {
                            gone |= near;
                        }
                    }
                    let legal = !(self.attacked(to, c.opponent(), occ2, gone) || (tile != T6 && self.facing(to, occ2, tb)));
                    if legal {
                        ok.set(to);
                    }
                }
                if ok.any() {
                    sink(from, ok);
                }
                continue;
            }
            // Taking the enemy general (only in a position where it stood in check) may wake a
            // neutralised tile: the mailbox rules decide.
            let slow = if self.on_tile { t & self.pieces[c.opponent().index()][GENERAL] } else { Bitboard::EMPTY };
            let tested = if in_check || pins.contains(from) { t } else { t & danger };
            let mut ok = t & !tested & !slow;
            for to in tested & !slow {
                if !self.exposed_after(c, gs, from, to) {
                    ok.set(to);
                }
            }
            for to in slow {
                if slow_legal(p, SMove { from: self.t.g.sq(from), to: self.t.g.sq(to), exchange: false, promote: None }) {
                    ok.set(to);
                }
            }
            if ok.any() {
                sink(from, ok);
            }
        }
    }
}

impl Bits {
    /// The legal enhanced moves of the active tile (§1.6; one that only adds moves, see
    /// [`SPECIAL`]), by the mailbox pattern code of [`super::position`]: each is tested on the
    /// bitboards (an exchange empties both points), a general's by the mailbox rules.
    fn tile_moves(&self, p: &SkillPosition, out: &mut Vec<SMove>) {
        let c = p.turn;
        let Some(gs) = self.pieces[c.index()][GENERAL].first() else { return };
        let mut v = Vec::new();
        for (s, pc) in p.board.pieces() {
            if pc.color == c {
                p.tile_moves(s, pc, self.tile, &mut v);
            }
        }
        for m in v {
            let (from, to) = (self.t.g.bit(m.from), self.t.g.bit(m.to));
            let legal = if from == gs {
                slow_legal(p, m)
            } else if m.exchange {
                let tb = Bitboard::from_square(to);
                let occ = self.all() & !Bitboard::from_square(from) & !tb;
                !(self.attacked(gs, c.opponent(), occ, tb) || self.facing(gs, occ, tb))
            } else {
                !self.exposed_after(c, gs, from, to)
            };
            if legal {
                out.push(m);
            }
        }
    }

    /// The legal moves into `out`, sorted as the mailbox generator sorts them.
    fn moves(&self, p: &SkillPosition, out: &mut Vec<SMove>) {
        out.clear();
        let g = self.t.g;
        self.legal(p, &mut |from, t| {
            let f = g.sq(from);
            out.extend(t.map(|to| SMove { from: f, to: g.sq(to), exchange: false, promote: None }));
        });
        if self.tile != 0 {
            self.tile_moves(p, out);
            out.sort_unstable();
            out.dedup();
        }
    }
}

/// Whether `m` leaves the mover's general safe, by the mailbox rules (§1.8, tiles included).
fn slow_legal(p: &SkillPosition, m: SMove) -> bool {
    let mut q = p.clone();
    q.play_unchecked(m);
    !q.in_check(p.turn)
}

impl SkillPosition {
    /// The legal moves after the removals already made this turn: the mover is not in check
    /// afterwards (§1.8), in (from, to, exchange, promotion) order. On the bitboards unless a
    /// tile that changes attacks is active (see the module comment), else
    /// [`SkillPosition::legal_moves_mailbox`].
    pub fn legal_moves(&self, out: &mut Vec<SMove>) {
        match Bits::new(self) {
            Some(b) => b.moves(self, out),
            None => self.legal_moves_mailbox(out),
        }
    }

    /// The number of [`SkillPosition::legal_moves`] (perft's bulk count at the last ply).
    pub fn count_legal(&self) -> u64 {
        match Bits::new(self) {
            Some(b) if b.tile == 0 => {
                let mut n = Counter::new();
                b.legal(self, &mut |_, t| n.add(t));
                u64::from(n.finish())
            }
            Some(b) => {
                let mut v = Vec::new();
                b.moves(self, &mut v);
                v.len() as u64
            }
            None => {
                let mut v = Vec::new();
                self.legal_moves_mailbox(&mut v);
                v.len() as u64
            }
        }
    }

    /// Whether an opponent piece stands on the river row (a stagnation removal may be open,
    /// §1.7), by a scan of that rank only.
    pub(super) fn river_occupied_by_opponent(&self) -> bool {
        let g = self.geo();
        let super::super::geometry::River::Row { rank } = g.river else { return false };
        let o = self.turn.opponent();
        (0..g.files).any(|f| self.board.get(g.sq(f, rank)).is_some_and(|x: Piece| x.color == o))
    }
}

/// Perft of whole turns (removal set, move) from `p` (RULES.md §P with RULES-more.md §1.7's turn structure),
/// on the bitboards where the nodes allow, a child's bitboards updated from its parent's.
pub(super) fn perft(p: &SkillPosition, depth: u32) -> u64 {
    turns_perft(p, Bits::new(p), None, depth)
}

/// The leaves below every turn from `p` whose removals are above `after`.
fn turns_perft(p: &SkillPosition, b: Option<Bits>, after: Option<Sq>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    match b {
        Some(b) if depth == 1 && b.tile == 0 => {
            let mut c = Counter::new();
            b.legal(p, &mut |_, t| c.add(t));
            n += u64::from(c.finish());
        }
        _ => {
            let mut moves = Vec::with_capacity(64);
            match b {
                Some(b) => b.moves(p, &mut moves),
                None => p.legal_moves_mailbox(&mut moves),
            }
            if depth == 1 {
                n += moves.len() as u64;
            } else {
                for m in moves {
                    let mut q = p.clone();
                    q.play_unchecked(m);
                    let child = match b {
                        Some(b) => b.after_move(&q, m),
                        None => Bits::new(&q),
                    };
                    n += turns_perft(&q, child, None, depth - 1);
                }
            }
        }
    }
    if p.river_occupied_by_opponent() {
        for s in p.removable() {
            if after.is_some_and(|a| s <= a) {
                continue;
            }
            let mut q = p.clone();
            q.remove(s);
            n += turns_perft(&q, Bits::new(&q), Some(s), depth);
        }
    }
    n
}
