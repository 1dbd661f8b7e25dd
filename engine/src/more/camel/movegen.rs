//! Move generation, attacks and legality of camel xiangqi (RULES-more.md §2.4-§2.11): piece
//! rules on moving plates, the tricks K1-K8, stacks, plate rotation/translation/flip, the
//! conditional soldier retreat, K3 promotion windows, camel redemption and the legality filter
//! of §2.6 ("check" = a threat of an unredeemable capture).

use super::position::{CamelPosition, LastAct};
use super::rules::StackRules;
use crate::more::geometry::{Geometry, Sq, CAMEL, DIAG, HORSE, ORTHO};
use crate::more::piece::{Kind, Piece};
use crate::piece::Color;

/// An action of camel xiangqi.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CAction {
    /// A piece move: the top piece alone, or the whole stack (`unit`), with an optional K3
    /// promotion (of the arriving soldier, or under window ii of the waiting soldier).
    Move {
        /// Origin.
        from: Sq,
        /// Destination.
        to: Sq,
        /// The whole stack moves (edition 6).
        unit: bool,
        /// K3 promotion kind.
        promote: Option<Kind>,
    },
    /// Rotate the own plate by 90° (edition 3+, §2.7).
    Rotate {
        /// Clockwise seen from above.
        cw: bool,
    },
    /// Move the own plate one square (edition 4+, §2.8): direction index 0..4 = +x, -x, +y, -y.
    Translate {
        /// Direction index.
        dir: u8,
    },
    /// Flip the own plate (edition 5+, §2.9).
    Flip {
        /// Front-back (else left-right).
        front_back: bool,
    },
}


/// K-trick numbers (§2.9).
const K1: u8 = 1;
pub(super) const K2: u8 = 2;
const K3: u8 = 3;
const K4: u8 = 4;
const K5: u8 = 5;
const K6: u8 = 6;
const K7: u8 = 7;
const K8: u8 = 8;

fn eligible(k: Kind) -> bool {
    matches!(k, Kind::Chariot | Kind::Horse | Kind::Cannon | Kind::Camel)
}

impl CamelPosition {
    /// Targets of a piece of kind `k` and colour `c` on `from` by its rule (with `c`'s active
    /// trick): `(to, captured square)` pairs, where the captured square is `to` for a landing
    /// capture, the jumped square for a 丞 jump, and `None` for a move to an empty square (or
    /// onto a friendly piece, returned for stacking with `None`).
    pub(super) fn rule_targets(&self, from: Sq, k: Kind, c: Color, out: &mut Vec<(Sq, Option<Sq>)>) {
        let g = self.geo();
        let b = &self.board;
        let trick = self.trick(c);
        let land = |to: Sq, out: &mut Vec<(Sq, Option<Sq>)>| match b.get(to) {
            None => out.push((to, None)),
            Some(x) if x.color != c => out.push((to, Some(to))),
            Some(_) => out.push((to, None)),
        };
        match k {
            Kind::General => {
                for (dx, dy) in ORTHO {
                    if let Some(to) = g.offset(from, dx, dy) {
                        if self.in_plate(c, to) {
                            land(to, out);
                        }
                    }
                }
            }
            Kind::Advisor => {
                for (dx, dy) in DIAG {
                    if let Some(to) = g.offset(from, dx, dy) {
                        if self.on_plate_diagonal(c, to) && self.on_plate_diagonal(c, from) {
                            land(to, out);
                        }
                    }
                }
            }
            Kind::Elephant | Kind::Chancellor => {
                for (dx, dy) in DIAG {
                    let (Some(eye), Some(to)) = (g.offset(from, dx, dy), g.offset(from, 2 * dx, 2 * dy)) else { continue };
                    if !g.own_half(c, to) {
                        continue;
                    }
                    let eye_piece = b.get(eye);
                    let target = b.get(to);
                    let jump = k == Kind::Chancellor || trick == Some(K5);
                    let landing_capture = k == Kind::Elephant || trick == Some(K5);
                    match (eye_piece, target) {
                        (None, None) => out.push((to, None)),
                        (None, Some(t)) if t.color != c && landing_capture => out.push((to, Some(to))),
                        (None, Some(t)) if t.color == c => out.push((to, None)),
                        (Some(e), None) if e.color != c && jump && e.kind != Kind::General => out.push((to, Some(eye))),
                        _ => {}
                    }
                }
            }
            Kind::Horse => {
                for (dx, dy) in HORSE {
                    let (lx, ly) = if dx.abs() == 2 { (dx.signum(), 0) } else { (0, dy.signum()) };
                    if let (Some(l), Some(to)) = (g.offset(from, lx, ly), g.offset(from, dx, dy)) {
                        if b.is_empty(l) || trick == Some(K6) {
                            land(to, out);
                        }
                    }
                }
            }
            Kind::Camel => {
                for (dx, dy) in CAMEL {
                    if let (Some(l), Some(to)) = (g.offset(from, dx.signum(), dy.signum()), g.offset(from, dx, dy)) {
                        if b.is_empty(l) || trick == Some(K8) {
                            land(to, out);
                        }
                    }
                }
            }
            Kind::Chariot => {
                for (dx, dy) in ORTHO {
                    let mut s = from;
                    let mut jumped = false;
                    while let Some(to) = g.offset(s, dx, dy) {
                        if b.is_empty(to) {
                            out.push((to, None));
                        } else if jumped {
                            break;
                        } else {
                            land(to, out);
                            if trick != Some(K7) {
                                break;
                            }
                            jumped = true;
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
                                out.push((to, None));
                            } else {
                                if b.is_color(to, c) {
                                    out.push((to, None));
                                }
                                screen = true;
                            }
                        } else if !empty {
                            if !b.is_color(to, c) {
                                out.push((to, Some(to)));
                            }
                            break;
                        }
                        s = to;
                    }
                }
                if trick == Some(K1) {
                    for dy in [1i8, -1] {
                        let mut s = from;
                        while let Some(to) = g.offset(s, 0, dy) {
                            if !b.is_empty(to) {
                                if !b.is_color(to, c) && self.k1(from, to) {
                                    out.push((to, Some(to)));
                                }
                                break;
                            }
                            s = to;
                        }
                    }
                }
            }
            Kind::Soldier => {
                if self.frozen(c) {
                    return;
                }
                let fwd = Geometry::forward(c);
                if let Some(to) = g.offset(from, 0, fwd) {
                    land(to, out);
                    // §1.3 (doc 002's river row, §2.14 #12): from its own bank a soldier may also
                    // cross the river row in one step; a piece on the river square does not block.
                    if g.is_river(to) && g.own_half(c, from) {
                        if let Some(far) = g.offset(from, 0, 2 * fwd) {
                            land(far, out);
                        }
                    }
                }
                if g.crossed(c, from) {
                    for dx in [-1, 1] {
                        if let Some(to) = g.offset(from, dx, 0) {
                            land(to, out);
                        }
                    }
                    let window = self.rules.translation() && self.last_act[c.opponent().index()] == LastAct::Palace;
                    if window || trick == Some(K4) {
                        if let Some(to) = g.offset(from, 0, -Geometry::forward(c)) {
                            if g.crossed(c, to) {
                                land(to, out);
                            }
                        }
                    }
                }
            }
            Kind::Fighter | Kind::Missile => {}
        }
    }

    /// K1 (§2.9, as RULES-more.md §1.6.1 T27 without the river row).
    fn k1(&self, cs: Sq, ts: Sq) -> bool {
        let g = self.geo();
        // Opposite halves; on a river-row board neither end may be on the river row.
        if g.file(cs) != g.file(ts) || g.is_river(cs) || g.is_river(ts) || g.half(cs) == g.half(ts) {
            return false;
        }
        let (lo, hi) = (g.rank(cs).min(g.rank(ts)), g.rank(cs).max(g.rank(ts)));
        let between: Vec<Sq> = (lo + 1..hi).map(|r| g.sq(g.file(cs), r)).collect();
        for (s, p) in self.board.pieces() {
            if s == cs || s == ts {
                continue;
            }
            let reach = |q: Sq| match p.kind {
                Kind::General => self.in_plate(p.color, q),
                Kind::Advisor => self.on_plate_diagonal(p.color, q),
                Kind::Elephant | Kind::Chancellor => g.own_half(p.color, q) && (g.file(q) + g.rank(q)) % 2 == (g.file(s) + g.rank(s)) % 2,
                Kind::Soldier => {
                    let fwd = Geometry::forward(p.color) as i16;
                    let ahead = (g.rank(q) as i16 - g.rank(s) as i16) * fwd >= 0;
                    if g.crossed(p.color, s) {
                        g.crossed(p.color, q) && ahead
                    } else {
                        g.crossed(p.color, q) || (g.file(q) == g.file(s) && ahead)
                    }
                }
                _ => true,
            };
            if between.iter().any(|&q| reach(q)) {
                return false;
            }
        }
        true
    }

    /// Whether the generals face each other on an open file.
    pub fn facing(&self) -> bool {
        self.board.generals_facing()
    }

    /// The kinds by whose rule the unit on `s` (a stack) moves (§2.10).
    fn unit_kinds(&self, s: Sq) -> Vec<Kind> {
        let (Some(top), Some(bottom)) = (self.board.get(s), self.under(s)) else { return Vec::new() };
        match self.rules.stacking {
            StackRules::I => vec![top.kind, bottom.kind],
            StackRules::II => vec![top.kind],
        }
    }

    /// Whether a piece of `by` could capture on `t` by any rule (tops alone and units).
    pub fn attacked(&self, t: Sq, by: Color) -> bool {
        self.capturers(t, by).next().is_some()
    }

    /// The (square, kind of rule) of every `by` piece or unit that can capture on `t`.
    fn capturers(&self, t: Sq, by: Color) -> impl Iterator<Item = (Sq, Kind)> + '_ {
        let mut found = Vec::new();
        let mut v = Vec::new();
        for (s, p) in self.board.pieces() {
            if p.color != by {
                continue;
            }
            let mut kinds = vec![p.kind];
            for k in self.unit_kinds(s) {
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
            }
            for k in kinds {
                v.clear();
                self.rule_targets(s, k, by, &mut v);
                if v.iter().any(|&(to, cap)| cap == Some(t) && to == t) {
                    found.push((s, k));
                }
            }
        }
        found.into_iter()
    }

    /// Whether `c` is in check (§2.6 point 3): facing (unless `c`'s K2 is active), or an enemy
    /// piece can capture `c`'s general unredeemably (edition 1: any attack).
    pub fn in_check(&self, c: Color) -> bool {
        let Some(gs) = self.general(c) else { return true };
        if self.facing() && self.trick(c) != Some(K2) {
            return true;
        }
        for (xs, k) in self.capturers(gs, c.opponent()) {
            if !self.rules.redemption() || k == Kind::Camel || self.board.get(xs).is_some_and(|x| x.kind == Kind::Camel) {
                return true;
            }
            // After X's capture, could a camel of `c` reach g?
            let mut q = self.clone();
            q.board.set(gs, q.board.get(xs));
            q.board.set(xs, None);
            q.under[xs as usize] = 0;
            if !q.can_redeem(c, gs) {
                return true;
            }
        }
        false
    }

    /// Whether a camel of `c` (unstacked, or a stack's top moving alone) reaches `g` by its
    /// move rule (§2.6 point 2, block checked now).
    pub fn can_redeem(&self, c: Color, g: Sq) -> bool {
        !self.redeemers(c, g).is_empty()
    }

    fn redeemers(&self, c: Color, g: Sq) -> Vec<Sq> {
        let mut out = Vec::new();
        let mut v = Vec::new();
        for (s, p) in self.board.pieces() {
            if p.color == c && p.kind == Kind::Camel {
                v.clear();
                self.rule_targets(s, Kind::Camel, c, &mut v);
                if v.iter().any(|&(to, _)| to == g) {
                    out.push(s);
                }
            }
        }
        out
    }

    /// The pseudo-legal actions of the side to move.
    pub fn pseudo_actions(&self, out: &mut Vec<CAction>) {
        let c = self.turn;
        let g = self.geo();
        if let Some(gs) = self.redeem {
            // §2.6: redemption is the only move; never against a camel.
            if self.board.get(gs).is_some_and(|x| x.kind != Kind::Camel) {
                for s in self.redeemers(c, gs) {
                    out.push(CAction::Move { from: s, to: gs, unit: false, promote: None });
                }
            }
            return;
        }
        let trick = self.trick(c);
        let mut v = Vec::new();
        for (from, p) in self.board.pieces() {
            if p.color != c {
                continue;
            }
            let stacked = self.under(from).is_some();
            // The top piece alone (or the single piece).
            v.clear();
            self.rule_targets(from, p.kind, c, &mut v);
            for &(to, cap) in &v {
                if cap.is_none() && self.board.get(to).is_some_and(|x| x.color == c) {
                    if !self.may_stack(from, to) {
                        continue;
                    }
                } else if cap.is_none() && self.board.get(to).is_some() {
                    continue;
                }
                out.push(CAction::Move { from, to, unit: false, promote: None });
                // K3 window (i): a soldier arriving on the enemy back rank.
                let back = g.back_rank(c.opponent());
                if p.kind == Kind::Soldier && trick == Some(K3) && g.rank(to) == back && g.rank(from) != back {
                    for k in [Kind::Chariot, Kind::Horse, Kind::Cannon, Kind::Camel] {
                        if self.count(c, k) < 2 {
                            out.push(CAction::Move { from, to, unit: false, promote: Some(k) });
                        }
                    }
                }
                // K3 window (ii): the general steps onto K3 while a soldier waits on the back rank.
                if p.kind == Kind::General {
                    if let Some(ws) = self.promo_window[c.index()].filter(|&ws| self.board.is(ws, Piece::new(c, Kind::Soldier))) {
                        let mut q = self.clone();
                        q.board.set(to, Some(p));
                        q.board.set(from, None);
                        if q.trick(c) == Some(K3) && ws != to {
                            for k in [Kind::Chariot, Kind::Horse, Kind::Cannon, Kind::Camel] {
                                if self.count(c, k) < 2 {
                                    out.push(CAction::Move { from, to, unit: false, promote: Some(k) });
                                }
                            }
                        }
                    }
                }
            }
            // The whole stack.
            if stacked {
                for k in self.unit_kinds(from) {
                    v.clear();
                    self.rule_targets(from, k, c, &mut v);
                    for &(to, cap) in &v {
                        if cap.is_none() && self.board.get(to).is_some() {
                            continue;
                        }
                        if self.rules.stacking == StackRules::II && g.half(to) != g.half(from) {
                            continue;
                        }
                        let a = CAction::Move { from, to, unit: true, promote: None };
                        if !out.contains(&a) {
                            out.push(a);
                        }
                    }
                }
            }
        }
        self.plate_actions(out);
    }

    /// Whether the piece moving from `from` may form a stack on `to` (§2.10).
    pub(super) fn may_stack(&self, from: Sq, to: Sq) -> bool {
        if !self.rules.stacking() {
            return false;
        }
        let (Some(m), Some(t)) = (self.board.get(from), self.board.get(to)) else { return false };
        if !eligible(m.kind) || !eligible(t.kind) || self.under(to).is_some() {
            return false;
        }
        match self.rules.stacking {
            StackRules::I => true,
            StackRules::II => {
                let c = m.color;
                self.count(c, m.kind) == 1
                    && self.count(c, t.kind) == 1
                    && m.kind != t.kind
                    && !self.attacked(from, c.opponent())
                    && !self.attacked(to, c.opponent())
            }
        }
    }

    /// Rotation, translation and flip actions of the side to move (§2.7-§2.9, §2.11).
    pub(super) fn plate_actions(&self, out: &mut Vec<CAction>) {
        let c = self.turn;
        let r = &self.rules;
        let consecutive_banned = r.translation() || r.no_consecutive_rotation_ed3;
        let palace_ok = !(consecutive_banned && self.last_act[c.index()] == LastAct::Palace);
        let enemy_on_plate = self.plate_squares(c).iter().any(|&s| self.board.is_color(s, c.opponent()));
        if r.rotation() && palace_ok && !(r.translation() && enemy_on_plate) && self.ring_empty(c) {
            out.push(CAction::Rotate { cw: true });
            out.push(CAction::Rotate { cw: false });
        }
        if r.translation() && palace_ok && !enemy_on_plate && self.count(c, Kind::Elephant) == 0 {
            for dir in 0..4 {
                if self.translated(c, dir).is_some() {
                    out.push(CAction::Translate { dir });
                }
            }
        }
        if r.tricks() && self.flip_ok(c) {
            out.push(CAction::Flip { front_back: false });
            out.push(CAction::Flip { front_back: true });
        }
    }

    /// The 9 squares of `c`'s plate, in owner-local order (col-major).
    pub fn plate_squares(&self, c: Color) -> [Sq; 9] {
        let mut out = [0; 9];
        for col in 0..3 {
            for row in 0..3 {
                out[(col * 3 + row) as usize] = self.cell_square(c, col, row);
            }
        }
        out
    }

    /// Whether every on-board square touching `c`'s plate is empty (§2.7 blocked rotation; the
    /// 11-square ring against the back edge, §2.14 #15).
    fn ring_empty(&self, c: Color) -> bool {
        let g = self.geo();
        let (f0, r0) = self.plates[c.index()].origin;
        for f in f0 as i16 - 1..=f0 as i16 + 3 {
            for r in r0 as i16 - 1..=r0 as i16 + 3 {
                let inside = f >= f0 as i16 && f < f0 as i16 + 3 && r >= r0 as i16 && r < r0 as i16 + 3;
                if inside || f < 0 || r < 0 || f >= g.files as i16 || r >= g.ranks as i16 {
                    continue;
                }
                if !self.board.is_empty(g.sq(f as u8, r as u8)) {
                    return false;
                }
            }
        }
        true
    }

    /// The plate origin after translating `c`'s plate in direction `dir`, if allowed (§2.8):
    /// on the board, in the owner's half, newly covered squares empty.
    fn translated(&self, c: Color, dir: u8) -> Option<(u8, u8)> {
        let g = self.geo();
        let (dx, dy) = ORTHO[dir as usize];
        let (f0, r0) = self.plates[c.index()].origin;
        let (nf, nr) = (f0 as i16 + dx as i16, r0 as i16 + dy as i16);
        if nf < 0 || nr < 0 || nf + 3 > g.files as i16 || nr + 3 > g.ranks as i16 {
            return None;
        }
        for f in nf..nf + 3 {
            for r in nr..nr + 3 {
                let s = g.sq(f as u8, r as u8);
                if !g.own_half(c, s) {
                    return None;
                }
                let old = f >= f0 as i16 && f < f0 as i16 + 3 && r >= r0 as i16 && r < r0 as i16 + 3;
                if !old && !self.board.is_empty(s) {
                    return None;
                }
            }
        }
        Some((nf as u8, nr as u8))
    }

    /// Flip preconditions (§2.9) before the result's legality.
    fn flip_ok(&self, c: Color) -> bool {
        let p = &self.plates[c.index()];
        if self.rules.numbers() {
            if self.last_act[c.index()] == LastAct::Flip {
                return false;
            }
        } else if self.flips[c.index()] > 0 || p.trick_up() {
            return false;
        }
        let Some(gs) = self.general(c) else { return false };
        let squares = self.plate_squares(c);
        if squares.iter().any(|&s| s != gs && !self.board.is_empty(s)) || self.under(gs).is_some() {
            return false;
        }
        if self.cell_of(c, gs) == Some((1, 1)) || self.in_check(c) {
            return false;
        }
        let g = self.geo();
        ORTHO.iter().any(|&(dx, dy)| {
            g.offset(gs, dx, dy).is_some_and(|o| {
                if self.in_plate(c, o) || !self.board.is_empty(o) {
                    return false;
                }
                let mut q = self.clone();
                q.board.set(o, q.board.get(gs));
                q.board.set(gs, None);
                !q.in_check(c)
            })
        })
    }

    /// Applies an action without legality checks.
    pub fn play_unchecked(&mut self, a: CAction) {
        let c = self.turn;
        let ci = c.index();
        let g = self.geo();
        let mut captured = false;
        let mut arrived: Option<Sq> = None;
        match a {
            CAction::Move { from, to, unit, promote } => {
                let mover = self.board.get(from);
                let bottom = self.under(from);
                if let Some(gs) = self.redeem.filter(|&gs| gs == to) {
                    // §2.6 redemption: X and the camel removed, the general back on g.
                    self.board.set(from, bottom);
                    self.under[from as usize] = 0;
                    self.board.set(gs, Some(Piece::new(c, Kind::General)));
                    self.under[gs as usize] = 0;
                    self.redeem = None;
                    captured = true;
                } else {
                    // A 丞 (or K5 elephant) jump removes the jumped piece.
                    let kind = if unit { None } else { mover.map(|m| m.kind) };
                    let jump = matches!(kind, Some(Kind::Chancellor) | Some(Kind::Elephant))
                        && (g.file(to) as i16 - g.file(from) as i16).abs() == 2
                        && self.board.is_empty(to)
                        && {
                            let eye = g.sq((g.file(from) + g.file(to)) / 2, (g.rank(from) + g.rank(to)) / 2);
                            self.board.get(eye).is_some_and(|e| Some(e.color) != mover.map(|m| m.color))
                        };
                    if jump {
                        let eye = g.sq((g.file(from) + g.file(to)) / 2, (g.rank(from) + g.rank(to)) / 2);
                        self.board.set(eye, None);
                        self.under[eye as usize] = 0;
                        captured = true;
                    }
                    let target = self.board.get(to);
                    let forms_stack = target.is_some_and(|t| Some(t.color) == mover.map(|m| m.color));
                    if target.is_some() && !forms_stack {
                        captured = true;
                        if target.is_some_and(|t| t.kind == Kind::General) {
                            self.redeem = Some(to);
                        }
                        self.under[to as usize] = 0;
                    }
                    if forms_stack {
                        self.under[to as usize] = target.map_or(0, |t| t.code());
                    }
                    let mut landed = mover;
                    if let (Some(k), Some(m)) = (promote, mover) {
                        if m.kind == Kind::Soldier {
                            landed = Some(Piece::new(c, k));
                        } else if let Some(ws) = self.promo_window[ci] {
                            self.board.set(ws, Some(Piece::new(c, k)));
                        }
                    }
                    self.board.set(to, landed);
                    if unit {
                        if !forms_stack {
                            self.under[to as usize] = bottom.map_or(0, |b| b.code());
                        }
                        self.board.set(from, None);
                        self.under[from as usize] = 0;
                    } else {
                        self.board.set(from, bottom);
                        self.under[from as usize] = 0;
                    }
                    if mover.is_some_and(|m| m.kind == Kind::Soldier) && promote.is_none() && g.rank(to) == g.back_rank(c.opponent()) && g.rank(from) != g.rank(to) {
                        arrived = Some(to);
                    }
                }
                self.last_act[ci] = LastAct::Piece;
            }
            CAction::Rotate { cw } => {
                let squares = self.plate_squares(c);
                let (tops, bots): (Vec<u8>, Vec<u8>) = squares.iter().map(|&s| (self.board.code(s), self.under[s as usize])).unzip();
                for col in 0..3u8 {
                    for row in 0..3u8 {
                        let (nc, nr) = if cw { (row, 2 - col) } else { (2 - row, col) };
                        let src = (col * 3 + row) as usize;
                        let dst = self.cell_square(c, nc, nr);
                        self.board.set(dst, Piece::from_code(tops[src]));
                        self.under[dst as usize] = bots[src];
                    }
                }
                self.plates[ci].rotate_faces(cw);
                self.last_act[ci] = LastAct::Palace;
            }
            CAction::Translate { dir } => {
                if let Some(origin) = self.translated(c, dir) {
                    let squares = self.plate_squares(c);
                    let saved: Vec<(u8, u8)> = squares.iter().map(|&s| (self.board.code(s), self.under[s as usize])).collect();
                    for &s in &squares {
                        self.board.set(s, None);
                        self.under[s as usize] = 0;
                    }
                    self.plates[ci].origin = origin;
                    let new = self.plate_squares(c);
                    for (i, &s) in new.iter().enumerate() {
                        self.board.set(s, Piece::from_code(saved[i].0));
                        self.under[s as usize] = saved[i].1;
                    }
                }
                self.last_act[ci] = LastAct::Palace;
            }
            CAction::Flip { front_back } => {
                self.plates[ci].flip(front_back);
                self.flips[ci] = self.flips[ci].saturating_add(1);
                self.last_act[ci] = LastAct::Flip;
            }
        }
        self.promo_window[ci] = arrived;
        self.halfmove = if captured { 0 } else { self.halfmove.saturating_add(1) };
        if c == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = c.opponent();
    }

    /// The legal actions of the side to move by the mailbox rules (§2.6 point 3 filter after
    /// every action, each action made on a copy), sorted: the reference of
    /// [`CamelPosition::legal_actions`], which uses it where the bitboards do not apply.
    pub fn legal_actions_mailbox(&self, out: &mut Vec<CAction>) {
        out.clear();
        let mut pseudo = Vec::with_capacity(128);
        self.pseudo_actions(&mut pseudo);
        let c = self.turn;
        for a in pseudo {
            let mut q = self.clone();
            q.play_unchecked(a);
            if !q.in_check(c) {
                out.push(a);
            }
        }
        out.sort_unstable();
        out.dedup();
    }
}
