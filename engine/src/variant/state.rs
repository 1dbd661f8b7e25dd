//! The full state of a variant game: the position core (pieces by the type they move as) plus
//! everything hidden or variant-specific — Surprise back faces and flip rights (RULES.md §S),
//! face-down pieces, their determined identities and the undetermined pool (§F), king-piece
//! markers and grinding runs (§K) — and a pending chance event (§P2).
//!
//! Decision nodes offer [`Action`]s; a move that turns up an undetermined face-down piece, or
//! captures one, leaves a chance node whose [`ChanceOutcome`]s carry exact probabilities from the
//! pool. States are applied by copy-make ([`State::child`]) or in place ([`State::make`] /
//! [`State::unmake`], in `undo`); perft's last ply is counted in bulk (`leaves`).

use super::config::{Hidden, Placement, SetupKind, TurnDown, Variant};
use crate::bitboard::Bitboard;
use crate::geometry::Square;
use crate::moves::{Move, MoveList};
use crate::piece::{Color, Piece, Role};
use crate::position::Position;
use crate::zobrist;
use arrayvec::ArrayVec;

mod leaf_make;
mod leaves;
mod undo;
pub use leaf_make::LeafUndo;
pub use leaves::LeafCtx;
pub use undo::Undo;

/// A decision: a move (with optional extras) or a Surprise flip or a negotiation action.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A piece moves from `from` to `to` (capturing, or swapping with an enemy king piece §K2).
    Move {
        /// Origin.
        from: Square,
        /// Destination.
        to: Square,
        /// §F5: turn the piece face-down on arrival.
        turn_down: bool,
        /// §K4: transfer the marker onto the moved piece.
        marker: bool,
    },
    /// §S4: turn the surprise disc on `at` over (its back face becomes visible).
    Flip {
        /// The disc.
        at: Square,
    },
    /// §S11: demand that the opponent resign or agree a draw.
    Demand,
    /// §S11: the answer to a demand.
    Answer(Answer),
    /// §S2 set-up: the side to set up secretly chooses its hidden layout, by index into
    /// [`LAYOUT_NAMES`] (A, B, C1..C8).
    Layout {
        /// 0..10.
        index: u8,
    },
    /// §F3 owner's-choice set-up (modes 3, 5, 7, 9): the side to set up secretly puts a piece of
    /// this type face-down on its next unfilled face-down point (ascending square order).
    Place {
        /// A type still in the side's set-up pool.
        role: Role,
    },
}

/// The §S2 layout names, in [`Action::Layout`] index order.
pub const LAYOUT_NAMES: [&str; 10] = ["A", "B", "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8"];

/// Which set-up step is pending, and whose.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum SetupStep {
    Layout(Color),
    Place(Color),
}

/// §S11 answers to a demand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// The answering side resigns.
    Resign,
    /// The game is drawn by agreement.
    Draw,
    /// Play continues.
    Refuse,
}

/// The result of a chance node (§P2): the drawn identity of the moved face-down piece and/or of
/// the captured face-down piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChanceOutcome {
    /// Identity revealed for the piece that moved.
    pub mover: Option<Role>,
    /// Identity of the captured face-down piece.
    pub captured: Option<Role>,
}

/// What a pending chance node must decide.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Pending {
    /// The moved face-down piece now on this point needs an identity (owner = its colour).
    mover: Option<Square>,
    /// A captured face-down piece of this colour needs an identity.
    captured: Option<Color>,
    /// Turn the mover face-down once its identity is known (§F5 with a chance reveal).
    turn_down_at: Option<Square>,
}

/// How a game ended by action (negotiation) rather than by position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// The side resigned.
    Resigned(Color),
    /// Drawn by agreement.
    Drawn,
}

/// The full state of a variant game (the oracle's view: every hidden identity).
#[derive(Clone)]
pub struct State {
    variant: &'static Variant,
    pos: Position,
    // §S
    back: [Option<Role>; 128],
    back_seen: Bitboard,
    flipped: Bitboard,
    rights: [u8; 2],
    chariot_reveals: [u8; 2],
    lost: [[u8; Role::COUNT]; 2],
    demand_pending: bool,
    last_demand: [Option<u32>; 2],
    agreement: Option<Agreement>,
    // §F
    down: Bitboard,
    identity: [Option<Role>; 128],
    pool: [[u8; Role::COUNT]; 2],
    /// Identities of captured face-down pieces, as (capturer, owner, role), in capture order.
    captured_down: ArrayVec<(Color, Color, Role), 32>,
    /// Who knows each entry of `captured_down` (by [`Color::index`]; §F6).
    captured_known: ArrayVec<[bool; 2], 32>,
    /// Face-down pieces whose identity both sides know (turned down under §F5).
    public_id: Bitboard,
    /// Captured Surprise discs as (owner, visible face, back face, back shown to both) (§S8).
    captured_discs: ArrayVec<(Color, Role, Role, bool), 16>,
    /// Running hash of each player's observation stream (perfect recall; the information-set key).
    obs: [u64; 2],
    // §K
    marker: [Square; 2],
    run: [Option<(Square, u8)>; 2],
    grind_loss: Option<Color>,
    pending: Option<Pending>,
    setup: Option<SetupStep>,
}

/// Why a state could not be built or an action could not be applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    /// An action that is not legal here, with the rule it breaks.
    #[error("illegal action {action}: {why}")]
    Illegal {
        /// The action as written.
        action: String,
        /// The rule clause and reason.
        why: String,
    },
    /// An inconsistent full state (e.g. from a FEN), naming the rule.
    #[error("inconsistent state: {0}")]
    Inconsistent(String),
}

/// Hash combiner for observation streams (splitmix64 finaliser).
#[inline]
fn mix(h: u64, token: u64) -> u64 {
    let mut z = h.rotate_left(17) ^ token.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A public token for an action.
fn action_token(a: Action) -> u64 {
    match a {
        Action::Move { from, to, turn_down, marker } => {
            (from.index() as u64) | (to.index() as u64) << 8 | (turn_down as u64) << 16 | (marker as u64) << 17 | 1 << 20
        }
        Action::Flip { at } => at.index() as u64 | 2 << 20,
        Action::Demand => 3 << 20,
        Action::Answer(x) => (4 << 20) | x as u64,
        Action::Layout { index } => (5 << 20) | index as u64,
        Action::Place { role } => (6 << 20) | role as u64,
    }
}

/// The standard type of each start point of `c` (RULES.md §X1), or `None`.
pub fn start_role(rules: &crate::rules::Rules, c: Color, sq: Square) -> Option<Role> {
    Role::ALL.into_iter().find(|&r| rules.start_points(c, r).contains(sq))
}

impl State {
    /// Builds a state from its parts; used by the FEN reader and the start constructors. Checks
    /// the face-down bookkeeping (each face-down piece on one of its own start points, pool
    /// totals) and Surprise disc counts.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_parts(variant: &'static Variant, pos: Position) -> State {
        let g = pos.general(Color::Red);
        let b = pos.general(Color::Black);
        State {
            variant,
            pos,
            back: [None; 128],
            back_seen: Bitboard::EMPTY,
            flipped: Bitboard::EMPTY,
            rights: [variant.surprise.flip_rights; 2],
            chariot_reveals: [0; 2],
            lost: [[0; Role::COUNT]; 2],
            demand_pending: false,
            last_demand: [None; 2],
            agreement: None,
            down: Bitboard::EMPTY,
            identity: [None; 128],
            pool: [[0; Role::COUNT]; 2],
            captured_down: ArrayVec::new(),
            captured_known: ArrayVec::new(),
            public_id: Bitboard::EMPTY,
            captured_discs: ArrayVec::new(),
            obs: [0x5EED_0B5E_0000_0001, 0x5EED_0B5E_0000_0002],
            marker: [g, b],
            run: [None; 2],
            grind_loss: None,
            pending: None,
            setup: None,
        }
    }

    /// The variant's start state. Surprise uses `layouts` (RULES.md §S2 names, default `A,A`);
    /// Fan-qi owner's-choice modes use the identity arrangement (each piece on its own start
    /// point) unless a FEN gives another; random modes leave identities in the pool.
    pub fn start(variant: &'static Variant, layouts: Option<(&str, &str)>) -> Result<State, StateError> {
        let mut s = State::from_parts(variant, Position::start_with(variant.rules));
        match variant.caps.hidden {
            Hidden::BackFaces => {
                let (r, b) = layouts.unwrap_or(("A", "A"));
                s.set_layout(Color::Red, r)?;
                s.set_layout(Color::Black, b)?;
            }
            Hidden::FaceDown => {
                let types = variant.fanqi.facedown_types();
                let placement = variant.fanqi.placement();
                for c in Color::ALL {
                    for &t in &types {
                        for sq in variant.rules.start_points(c, t) {
                            s.down.set(sq);
                            match placement {
                                // docs/open-twins.md §O3: an open twin's deal is made at the
                                // start; without one given, each piece is its point's type.
                                Placement::Random if !variant.open => s.pool[c.index()][t.index()] += 1,
                                _ => s.identity[sq.index()] = Some(t),
                            }
                            if variant.open {
                                s.public_id.set(sq);
                            }
                        }
                    }
                }
            }
            Hidden::None => {}
        }
        Ok(s)
    }

    /// A new game including its set-up phase (RULES.md §P4 set-up actions): Surprise starts with
    /// Red, then Black, secretly choosing a layout (§S2); Fan-qi owner's-choice modes start with
    /// Red, then Black, secretly filling their face-down points one by one (§F3). Random modes
    /// need no set-up actions: their placement is drawn lazily, as chance, when a face-down
    /// piece is turned up or captured (§P2), which is the same distribution as shuffling first.
    pub fn new_game(variant: &'static Variant) -> State {
        let mut s = State::from_parts(variant, Position::start_with(variant.rules));
        if variant.caps.face_down() {
            for c in Color::ALL {
                for t in variant.fanqi.facedown_types() {
                    for sq in variant.rules.start_points(c, t) {
                        s.down.set(sq);
                        match variant.fanqi.placement() {
                            Placement::Random if variant.open => {
                                // docs/open-twins.md §O3: dealt at the start (the identity
                                // deal; `open::Deal` gives others).
                                s.identity[sq.index()] = Some(t);
                                s.public_id.set(sq);
                            }
                            Placement::Random | Placement::Owner => s.pool[c.index()][t.index()] += 1,
                            _ => s.identity[sq.index()] = Some(t),
                        }
                    }
                }
            }
        }
        s.setup = match variant.caps.setup {
            SetupKind::None => None,
            SetupKind::Layouts => Some(SetupStep::Layout(Color::Red)),
            SetupKind::Placement => Some(SetupStep::Place(Color::Red)),
        };
        s
    }

    /// Whether the set-up phase is still going on.
    pub fn in_setup(&self) -> bool {
        self.setup.is_some()
    }

    /// Sets the hidden faces of `c`'s discs from a §S2 layout name (`A`, `B`, `C1`..`C8`).
    pub fn set_layout(&mut self, c: Color, name: &str) -> Result<(), StateError> {
        use Role::*;
        let bad = || StateError::Inconsistent(format!("unknown Surprise layout {name:?} (RULES.md §S2: A, B, C1..C8)"));
        // (file, visible) -> hidden, for files a/i (chariot), b/h (horse, cannon).
        let (ra, ri, nb, nh, cb, ch) = match name {
            "A" => (Cannon, Cannon, Chariot, Chariot, Horse, Horse),
            "B" => (Horse, Horse, Cannon, Cannon, Chariot, Chariot),
            _ => {
                let k: u8 = name.strip_prefix('C').and_then(|d| d.parse().ok()).filter(|k| (1..=8).contains(k)).ok_or_else(bad)?;
                let v = k - 1;
                let (x, y, z) = (v >> 2 & 1, v >> 1 & 1, v & 1);
                let (ra, ri) = if x == 0 { (Horse, Cannon) } else { (Cannon, Horse) };
                let (nb, nh) = if y == 0 { (Chariot, Cannon) } else { (Cannon, Chariot) };
                let (cb, ch) = if z == 0 { (Chariot, Horse) } else { (Horse, Chariot) };
                (ra, ri, nb, nh, cb, ch)
            }
        };
        let rules = self.variant.rules;
        let pick = |role: Role, file: u8| rules.start_points(c, role).find(|s| s.file() == file);
        for (role, file, hidden) in
            [(Chariot, 0, ra), (Chariot, 8, ri), (Horse, 1, nb), (Horse, 7, nh), (Cannon, 1, cb), (Cannon, 7, ch)]
        {
            let sq = pick(role, file).ok_or_else(bad)?;
            if self.pos.piece_at(sq) != Some(Piece::new(c, role)) {
                return Err(StateError::Inconsistent(format!("layout {name}: no {c} {role} on {sq}")));
            }
            self.back[sq.index()] = Some(hidden);
        }
        Ok(())
    }

    /// The variant.
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// The position core (pieces by the type they move as; face-down pieces move as their point's type).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Side to move (the side whose decision it is, also while a chance event is pending).
    pub fn turn(&self) -> Color {
        if let Some(SetupStep::Layout(c) | SetupStep::Place(c)) = self.setup {
            return c;
        }
        if self.pending.is_some() || self.demand_pending {
            self.pos.turn().opponent()
        } else {
            self.pos.turn()
        }
    }

    /// Whether a chance event is pending (§P2).
    pub fn is_chance(&self) -> bool {
        self.pending.is_some()
    }

    /// Face-down pieces (§F).
    pub fn face_down(&self) -> Bitboard {
        self.down
    }

    /// The determined identity of a face-down piece, if determined.
    pub fn identity(&self, sq: Square) -> Option<Role> {
        self.identity[sq.index()]
    }

    /// Undetermined face-down types of `c`, counts by [`Role::index`].
    pub fn pool(&self, c: Color) -> [u8; Role::COUNT] {
        self.pool[c.index()]
    }

    /// Hidden face of the Surprise disc on `sq`.
    pub fn back(&self, sq: Square) -> Option<Role> {
        self.back[sq.index()]
    }

    /// Discs whose current back face the opponent has seen (after a flip).
    pub fn back_seen(&self) -> Bitboard {
        self.back_seen
    }

    /// Flip rights left and chariot reveals made by `c` (§S5, §S9: public).
    pub fn flip_rights(&self, c: Color) -> (u8, u8) {
        (self.rights[c.index()], self.chariot_reveals[c.index()])
    }

    /// Under `flip_right_by_history`: types whose capture created a right not yet used.
    pub fn lost_types(&self, c: Color) -> [u8; Role::COUNT] {
        self.lost[c.index()]
    }

    /// King-piece square of `c` (§K1).
    pub fn marker(&self, c: Color) -> Square {
        self.marker[c.index()]
    }

    /// Grinding run of `c`: the piece's square and the run length (§K7).
    pub fn run(&self, c: Color) -> Option<(Square, u8)> {
        self.run[c.index()]
    }

    /// Captured face-down pieces as (capturer, owner, identity), oldest first (§F6 knowledge).
    pub fn captured_face_down(&self) -> &[(Color, Color, Role)] {
        &self.captured_down
    }

    /// The side that lost by grinding (§K7), if any.
    pub fn grind_loss(&self) -> Option<Color> {
        self.grind_loss
    }

    /// A game ended by negotiation (§S11), if any.
    pub fn agreement(&self) -> Option<Agreement> {
        self.agreement
    }

    /// Hash of the full state: pieces, side, hidden faces, face-down layer, rights, markers.
    pub fn hash(&self) -> u64 {
        let mut h = self.pos.hash();
        for sq in self.down {
            h ^= zobrist::extra_key(1, sq.index() as u64);
            if let Some(r) = self.identity[sq.index()] {
                h ^= zobrist::extra_key(2, (sq.index() * 8 + r.index()) as u64);
            }
        }
        for (i, b) in self.back.iter().enumerate() {
            if let Some(r) = b {
                h ^= zobrist::extra_key(3, (i * 8 + r.index()) as u64);
            }
        }
        for c in 0..2 {
            h ^= zobrist::extra_key(4, (c * 1000 + self.rights[c] as usize * 10 + self.chariot_reveals[c] as usize) as u64);
            if self.variant.caps.king_pieces {
                h ^= zobrist::extra_key(5 + c as u64, self.marker[c].index() as u64);
            }
        }
        h
    }

    /// Whether face-down piece movement on `from` is bound to its standard region (§F4).
    fn down_region_bound(&self, role: Role) -> bool {
        matches!(role, Role::Advisor | Role::Elephant)
            && (self.variant.fanqi.facedown_standard_region || !self.variant.participates[role.index()])
    }

    /// All legal actions at a decision node (empty at a chance node or when the game is decided
    /// by agreement). Generation follows RULES.md §X for moves, §S4-S7 for flips, §F2/§F5 for
    /// face-down pieces and §K2-K4 for king chess.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::with_capacity(64);
        self.visit_actions(&mut |a| out.push(a));
        out
    }

    /// Calls `f` on every legal action (see [`State::legal_actions`]) without allocating.
    pub fn visit_actions(&self, f: &mut impl FnMut(Action)) {
        if self.pending.is_some() || self.agreement.is_some() {
            return;
        }
        match self.setup {
            Some(SetupStep::Layout(_)) => {
                for index in 0..LAYOUT_NAMES.len() as u8 {
                    f(Action::Layout { index });
                }
                return;
            }
            Some(SetupStep::Place(c)) => {
                for role in Role::ALL {
                    if self.pool[c.index()][role.index()] > 0 {
                        f(Action::Place { role });
                    }
                }
                return;
            }
            None => {}
        }
        if self.demand_pending {
            for a in [Answer::Resign, Answer::Draw, Answer::Refuse] {
                f(Action::Answer(a));
            }
            return;
        }
        let mut any = false;
        let mut out = |a: Action| {
            any = true;
            f(a)
        };
        let caps = &self.variant.caps;
        if caps.king_pieces {
            self.king_actions(&mut out);
        } else {
            let moves = self.pos.legal_moves();
            for &m in &moves {
                self.push_move(m, &mut out);
            }
            if caps.flips {
                self.flip_actions(&mut out);
            }
        }
        if any && caps.demands {
            let us = self.pos.turn();
            let own_moves = self.pos.fullmove();
            let ok = match self.last_demand[us.index()] {
                None => true,
                Some(last) => own_moves >= last + self.variant.surprise.demand_interval,
            };
            if ok {
                f(Action::Demand);
            }
        }
    }

    /// Whether this state's action tree is exactly the position core's move tree from here on:
    /// rules with no layer over the core ([`super::config::Caps::core_only`]) outside any set-up,
    /// pending or agreement step. Perft uses the core's make/unmake then.
    pub fn is_core_only(&self) -> bool {
        self.variant.caps.core_only
            && self.pending.is_none()
            && self.agreement.is_none()
            && !self.demand_pending
            && self.setup.is_none()
    }

    fn push_move(&self, m: Move, out: &mut impl FnMut(Action)) {
        let plain = Action::Move { from: m.from, to: m.to, turn_down: false, marker: false };
        if !self.variant.caps.face_down() {
            out(plain);
            return;
        }
        let from_down = self.down.contains(m.from);
        if from_down {
            let role = self.pos.piece_at(m.from).map(|p| p.role).unwrap_or(Role::General);
            if self.down_region_bound(role) {
                let std = crate::rules::Rules::standard();
                if !std.region[self.pos.turn().index()][role.index()].contains(m.to) {
                    return;
                }
            }
        }
        out(plain);
        if self.can_turn_down(m, from_down) {
            out(Action::Move { from: m.from, to: m.to, turn_down: true, marker: false });
        }
    }

    /// §F5: may the piece moved by `m` be turned face-down on arrival?
    fn can_turn_down(&self, m: Move, from_down: bool) -> bool {
        let f = &self.variant.fanqi;
        if f.turn_down == TurnDown::Off {
            return false;
        }
        let us = self.pos.turn();
        let mover = match self.pos.piece_at(m.from) {
            Some(p) => p,
            None => return false,
        };
        if mover.role == Role::General && !from_down {
            return false;
        }
        let point = match self.variant.start_role[us.index()][m.to.index()] {
            Some(r) if r != Role::General => r,
            _ => return false,
        };
        let capture = self.pos.piece_at(m.to).is_some();
        if (f.turn_down_quiet_only && capture) || (f.turn_down_not_just_revealed && from_down) {
            return false;
        }
        if f.turn_down == TurnDown::Participating {
            // §F4 participating types, derived once with the variant.
            let part = |r: Role| self.variant.participates[r.index()];
            // The true type must participate: known unless the mover is undetermined (then only
            // identities that participate can be drawn; we require every pool type to qualify).
            let true_type_participates = match (from_down, self.identity[m.from.index()]) {
                (false, _) => part(mover.role),
                (true, Some(r)) => part(r),
                (true, None) => Role::ALL.into_iter().all(|r| self.pool[us.index()][r.index()] == 0 || part(r)),
            };
            if !part(point) || !true_type_participates {
                return false;
            }
        }
        true
    }

    /// §S4-S7 flips of the side to move.
    fn flip_actions(&self, out: &mut impl FnMut(Action)) {
        let s = &self.variant.surprise;
        let us = self.pos.turn();
        let ui = us.index();
        if s.flip_rights == 0 || self.rights[ui] == 0 || self.pos.in_check() {
            // §S7: a flip changes no occupancy, so it never resolves a check.
            return;
        }
        // Only discs showing a flip type can flip (§S10): at most six squares, not sixteen.
        let mut candidates = Bitboard::EMPTY;
        for &r in &s.flip_types {
            candidates |= self.pos.pieces(us, r);
        }
        if s.flip_once_per_disc {
            candidates &= !self.flipped;
        }
        for sq in candidates {
            if let Some(a) = self.flip_allowed(sq) {
                out(a);
            }
        }
    }

    /// Whether the disc on `sq` may flip now (rights, types, the two-of-a-type limit of §S6).
    fn flip_allowed(&self, sq: Square) -> Option<Action> {
        let s = &self.variant.surprise;
        let us = self.pos.turn();
        let ui = us.index();
        let visible = self.pos.piece_at(sq)?;
        let hidden = self.back[sq.index()]?;
        if visible.color != us || !s.flip_types.contains(&visible.role) || !s.reveal_types.contains(&hidden) {
            return None;
        }
        if s.flip_once_per_disc && self.flipped.contains(sq) {
            return None;
        }
        let cost = if hidden == Role::Chariot { s.chariot_cost } else { 1 };
        if self.rights[ui] < cost {
            return None;
        }
        if hidden == Role::Chariot && self.chariot_reveals[ui] >= s.chariot_reveal_limit {
            return None;
        }
        if s.flip_right_by_history && self.lost[ui][hidden.index()] == 0 {
            return None;
        }
        if self.pos.pieces(us, hidden).count() >= 2 {
            return None; // §S6: never more than two of a type on the board
        }
        Some(Action::Flip { at: sq })
    }

    /// §K2-K4 moves.
    fn king_actions(&self, out: &mut impl FnMut(Action)) {
        let us = self.pos.turn();
        let them = us.opponent();
        let mut list = MoveList::new();
        self.pos.pseudo_legal_moves(&mut list);
        let king_sq = self.marker[us.index()];
        let their_king = self.marker[them.index()];
        // A move that is legal by the standard rules and is not a swap is legal here too: King
        // chess only removes attackers (the enemy king piece, §K6). Others are tested in full.
        let mut standard_ok = [Bitboard::EMPTY; 128];
        for m in &self.pos.legal_moves() {
            standard_ok[m.from.index()].set(m.to);
        }
        let king_piece_matters = their_king != self.pos.general(them);
        for &m in &list {
            let target = self.pos.piece_at(m.to);
            let is_king = m.from == king_sq;
            if is_king && target.is_some() {
                continue; // §K3: a king piece never captures
            }
            let swap = !is_king
                && m.to == their_king
                && matches!(target, Some(p) if matches!(p.role, Role::Chariot | Role::Horse | Role::Cannon));
            let legal = if swap {
                !self.king_move_exposes_general(m, target)
            } else if standard_ok[m.from.index()].contains(m.to) {
                true
            } else {
                king_piece_matters && !self.pos.leaves_general_attacked_excluding(m, Bitboard::from_square(their_king))
            };
            if !legal {
                continue;
            }
            out(Action::Move { from: m.from, to: m.to, turn_down: false, marker: false });
            if !is_king && (target.is_none() || swap) {
                out(Action::Move { from: m.from, to: m.to, turn_down: false, marker: true });
            }
        }
    }

    /// Whether the king-chess move `m` (to a point holding `target`) would leave the mover's
    /// general attacked (§K2-K6), simulated on the position core only.
    fn king_move_exposes_general(&self, m: Move, target: Option<Piece>) -> bool {
        let us = self.pos.turn();
        let them = us.opponent();
        let mut p = self.pos.clone();
        let their_king = self.marker[them.index()];
        let is_king = m.from == self.marker[us.index()];
        let swap = !is_king
            && m.to == their_king
            && matches!(target, Some(t) if matches!(t.role, Role::Chariot | Role::Horse | Role::Cannon));
        let their_king_after = if swap {
            let mover = p.piece_at(m.from);
            p.set_piece(m.to, mover);
            p.set_piece(m.from, target);
            m.from
        } else {
            p.play(m);
            if m.to == their_king { p.general(them) } else { their_king }
        };
        let g = p.general(us);
        let occ = p.occupied();
        if p.is_attacked_by(g, occ, them, !Bitboard::from_square(their_king_after)) {
            return true;
        }
        (self.variant.rules.attacks.file_line(g, occ) & p.pieces(them, Role::General)).any()
    }

    /// §K6: is `c`'s general attacked, counting that the enemy king piece cannot capture but the
    /// flying-general rule holds unchanged.
    pub(crate) fn king_general_attacked(&self, c: Color) -> bool {
        let them = c.opponent();
        let g = self.pos.general(c);
        let occ = self.pos.occupied();
        let not_king = !Bitboard::from_square(self.marker[them.index()]);
        if self.pos.is_attacked_by(g, occ, them, not_king) {
            return true;
        }
        let a = self.variant.rules.attacks;
        (a.file_line(g, occ) & self.pos.pieces(them, Role::General)).any()
    }

    /// Whether the side to move is in check: in King chess by §K6 (an enemy king piece gives no
    /// check, the flying-general rule still holds), else as the core says (§X4).
    pub fn side_in_check(&self) -> bool {
        if self.variant.caps.king_pieces {
            self.king_general_attacked(self.pos.turn())
        } else {
            self.pos.in_check()
        }
    }

    /// The core move of `a` when it is a plain non-capturing move that changes nothing else (no
    /// reveal of a face-down piece, no turning face-down, no marker transfer, no swap): the plies
    /// the perpetual-chase rule can take back ([`crate::repetition::RecordPly::quiet`]). `None`
    /// for every other action.
    pub fn quiet_move(&self, a: Action) -> Option<crate::moves::Move> {
        match a {
            Action::Move { from, to, turn_down: false, marker: false }
                if self.position().piece_at(to).is_none() && !self.face_down().contains(from) =>
            {
                Some(crate::moves::Move::new(from, to))
            }
            _ => None,
        }
    }

    /// Applies a legal action and returns the new state (copy-make).
    pub fn child(&self, a: Action) -> State {
        let mut s = self.clone();
        s.apply(a);
        s
    }

    /// Applies `a`, which must be legal (see [`State::try_apply`] for checked input).
    pub fn apply(&mut self, a: Action) {
        let token = action_token(a);
        if matches!(a, Action::Layout { .. } | Action::Place { .. }) && !self.variant.open {
            // Set-up choices are secret: the chooser sees its choice, the opponent only that a
            // choice was made (§S2, §F3).
            let c = self.turn();
            self.obs[c.index()] = mix(self.obs[c.index()], token);
            self.obs[c.opponent().index()] = mix(self.obs[c.opponent().index()], 7 << 20);
        } else {
            // Every other decision is public (§S9 flips and rights, §F moves, §S11 demands), and
            // in an open twin set-up choices too (docs/open-twins.md §O2).
            self.observe_public(token);
        }
        match a {
            Action::Layout { index } => {
                if let Some(SetupStep::Layout(c)) = self.setup {
                    let _ = self.set_layout(c, LAYOUT_NAMES[(index as usize).min(9)]);
                    self.setup = if c == Color::Red { Some(SetupStep::Layout(Color::Black)) } else { None };
                }
            }
            Action::Place { role } => {
                if let Some(SetupStep::Place(c)) = self.setup {
                    let next = (self.down & self.pos.by_color(c)).find(|sq| self.identity[sq.index()].is_none());
                    if let Some(sq) = next {
                        self.identity[sq.index()] = Some(role);
                        let n = &mut self.pool[c.index()][role.index()];
                        *n = n.saturating_sub(1);
                    }
                    let more = Iterator::any(&mut (self.down & self.pos.by_color(c)), |sq| self.identity[sq.index()].is_none());
                    self.setup = match (more, c) {
                        (true, _) => Some(SetupStep::Place(c)),
                        (false, Color::Red) => Some(SetupStep::Place(Color::Black)),
                        (false, Color::Black) => None,
                    };
                }
            }
            Action::Move { from, to, turn_down, marker } => self.apply_move_unchecked(from, to, turn_down, marker),
            Action::Flip { at } => self.apply_flip(at),
            Action::Demand => {
                let us = self.pos.turn();
                self.last_demand[us.index()] = Some(self.pos.fullmove());
                self.demand_pending = true;
            }
            Action::Answer(ans) => {
                self.demand_pending = false;
                let answering = self.pos.turn().opponent();
                match ans {
                    Answer::Resign => self.agreement = Some(Agreement::Resigned(answering)),
                    Answer::Draw => self.agreement = Some(Agreement::Drawn),
                    Answer::Refuse => {}
                }
            }
        }
    }

    /// Applies `a` if it is legal here.
    ///
    /// # Errors
    /// [`StateError::Illegal`] naming the action and, where it can be told, the rule broken.
    pub fn try_apply(&mut self, a: Action) -> Result<(), StateError> {
        if self.legal_actions().contains(&a) {
            self.apply(a);
            return Ok(());
        }
        Err(StateError::Illegal { action: format!("{a:?}"), why: self.why_illegal(a) })
    }

    /// The clause an illegal action breaks, as far as can be told.
    pub fn why_illegal(&self, a: Action) -> String {
        let us = self.pos.turn();
        match a {
            Action::Flip { at } => {
                let s = &self.variant.surprise;
                let Some(hidden) = self.back[at.index()] else {
                    return format!("§S1: no surprise disc of the side to move on {at}");
                };
                let cost = if hidden == Role::Chariot { s.chariot_cost } else { 1 };
                if self.rights[us.index()] < cost {
                    return format!("§S5: {cost} flip right(s) needed, {} left", self.rights[us.index()]);
                }
                if hidden == Role::Chariot && self.chariot_reveals[us.index()] >= s.chariot_reveal_limit {
                    return "§S5: the chariot may be revealed only once per game".into();
                }
                if self.pos.pieces(us, hidden).count() >= 2 || (s.flip_right_by_history && self.lost[us.index()][hidden.index()] == 0) {
                    return format!("§S6: a {hidden} may be revealed only after one was lost");
                }
                if self.pos.in_check() {
                    return "§S7: a flip cannot answer a check".into();
                }
                "§S4-S10: flip not allowed by this variant's options".into()
            }
            Action::Move { from, to, turn_down, .. } => {
                if self.down.contains(from) {
                    if let Some(p) = self.pos.piece_at(from) {
                        if !self.pos.legal_moves().contains(&Move::new(from, to)) {
                            return format!("§F2: a face-down piece on {from} moves only as a {}", p.role);
                        }
                    }
                }
                if turn_down {
                    return "§F5: the piece may not turn face-down here".into();
                }
                "§X2-X4: not a legal move".into()
            }
            Action::Demand => "§S11: no demand allowed now".into(),
            Action::Answer(_) => "§S11: no demand to answer".into(),
            Action::Layout { .. } => "§S2: a layout is chosen once per side, before the first move".into(),
            Action::Place { role } => {
                format!("§F3: no {role} left to place, or placement happens only before the first move in owner's-choice modes")
            }
        }
    }

    fn apply_flip(&mut self, at: Square) {
        let s = &self.variant.surprise;
        let us = self.pos.turn();
        let ui = us.index();
        let Some(visible) = self.pos.piece_at(at) else { return };
        let Some(hidden) = self.back[at.index()] else { return };
        let cost = if hidden == Role::Chariot { s.chariot_cost } else { 1 };
        self.rights[ui] = self.rights[ui].saturating_sub(cost);
        if hidden == Role::Chariot {
            self.chariot_reveals[ui] += 1;
        }
        if s.flip_right_by_history {
            self.lost[ui][hidden.index()] = self.lost[ui][hidden.index()].saturating_sub(1);
        }
        self.back[at.index()] = Some(visible.role);
        self.back_seen.set(at);
        self.flipped.set(at);
        self.pos.set_piece(at, Some(Piece::new(us, hidden)));
        self.pos.pass_turn(false);
    }

    fn move_layers(&mut self, from: Square, to: Square) {
        let (f, t) = (from.index(), to.index());
        self.back[t] = self.back[f].take();
        for bb in [&mut self.back_seen, &mut self.flipped] {
            let had = bb.contains(from);
            bb.clear(from);
            bb.clear(to);
            if had {
                bb.set(to);
            }
        }
    }

    fn apply_move_unchecked(&mut self, from: Square, to: Square, turn_down: bool, marker: bool) {
        let us = self.pos.turn();
        let them = us.opponent();
        let Some(mover) = self.pos.piece_at(from) else { return };
        let target = self.pos.piece_at(to);
        let mut pending = Pending { mover: None, captured: None, turn_down_at: None };
        // §K2 swap with an enemy king-piece chariot, horse or cannon.
        if self.variant.caps.king_pieces {
            let king_sq = self.marker[us.index()];
            let is_king = from == king_sq;
            let swap = matches!(target, Some(p) if to == self.marker[them.index()] && matches!(p.role, Role::Chariot | Role::Horse | Role::Cannon));
            if swap && !is_king {
                let enemy = target.expect("swap target");
                self.pos.set_piece(to, Some(mover));
                self.pos.set_piece(from, Some(enemy));
                self.marker[them.index()] = from;
                if let Some((sq, n)) = self.run[them.index()] {
                    if sq == to {
                        self.run[them.index()] = Some((from, n));
                    }
                }
                self.pos.pass_turn(false);
                self.extend_run(us, from, to, false, marker);
                return;
            }
            if target.is_some() {
                let general = self.pos.general(them);
                let returns = to == self.marker[them.index()];
                if returns {
                    self.marker[them.index()] = general; // §K5
                }
                // §K7: a run ends when its piece is captured or becomes the king piece (the
                // general, when the marker returns by §K5).
                if matches!(self.run[them.index()], Some((sq, _)) if sq == to || (returns && sq == general)) {
                    self.run[them.index()] = None;
                }
            }
            let m = Move::new(from, to);
            self.pos.play(m);
            if is_king {
                self.marker[us.index()] = to;
                self.run[us.index()] = None; // §K7: a king-piece move ends the run
            } else {
                self.extend_run(us, from, to, target.is_some(), marker);
            }
            return;
        }
        // §F6: capturing a face-down piece.
        if target.is_some() && self.down.contains(to) {
            self.down.clear(to);
            let public = self.public_id.contains(to);
            self.public_id.clear(to);
            match self.identity[to.index()].take() {
                Some(r) => self.record_captured_down(us, them, r, public),
                None => pending.captured = Some(them),
            }
        }
        // §S8 captured discs leave the board with their back face.
        if let (Some(t), Some(b)) = (target, self.back[to.index()]) {
            let shown = self.variant.surprise.captured_back_revealed || self.back_seen.contains(to);
            let _ = self.captured_discs.try_push((them, t.role, b, shown));
            if shown {
                self.observe_public(0xD15C ^ ((b.index() as u64) << 8) ^ to.index() as u64);
            }
        }
        if target.is_some() {
            self.back[to.index()] = None;
            self.back_seen.clear(to);
            self.flipped.clear(to);
            if let (Some(t), true) = (target, self.variant.caps.lost_types) {
                if matches!(t.role, Role::Chariot | Role::Horse | Role::Cannon) {
                    self.lost[them.index()][t.role.index()] += 1;
                }
            }
        }
        let was_down = self.down.contains(from);
        self.pos.play(Move::new(from, to));
        self.move_layers(from, to);
        if was_down {
            // §F2: a face-down piece that moves turns face-up as its true type.
            self.down.clear(from);
            self.public_id.clear(from);
            if let Some(r) = self.identity[from.index()] {
                self.observe_public(0x4EE1 ^ ((r.index() as u64) << 8));
            }
            match self.identity[from.index()].take() {
                Some(r) => self.pos.set_piece(to, Some(Piece::new(us, r))),
                None => pending.mover = Some(to),
            }
        }
        let _ = mover;
        if turn_down {
            if pending.mover.is_some() {
                pending.turn_down_at = Some(to);
            } else {
                self.turn_down(to, us);
            }
        }
        if pending.mover.is_some() || pending.captured.is_some() {
            self.pending = Some(pending);
        }
    }

    /// §F5: the piece on `sq` (of `owner`, identity known) turns face-down as that point's type.
    fn turn_down(&mut self, sq: Square, owner: Color) {
        let Some(p) = self.pos.piece_at(sq) else { return };
        let Some(point) = self.variant.start_role[owner.index()][sq.index()] else { return };
        self.identity[sq.index()] = Some(p.role);
        self.down.set(sq);
        self.public_id.set(sq);
        self.pos.set_piece(sq, Some(Piece::new(owner, point)));
    }

    /// §K7 grinding bookkeeping for an ordinary piece's move from `from` to `to`.
    fn extend_run(&mut self, us: Color, from: Square, to: Square, capture: bool, marker: bool) {
        let ui = us.index();
        if capture {
            self.run[ui] = None;
        } else {
            let n = match self.run[ui] {
                Some((sq, n)) if sq == from => n + 1,
                _ => 1,
            };
            self.run[ui] = Some((to, n));
            let limit = self.variant.king.grind_limit;
            if limit > 0 && n >= limit && self.grind_loss.is_none() {
                self.grind_loss = Some(us);
            }
        }
        if marker {
            self.marker[ui] = to; // §K4 (a run ends when its piece becomes the king piece)
            self.run[ui] = None;
        }
    }

    /// How many chance outcomes (§P2) playing `a` leads to: the distinct types left in the
    /// mover's pool when an undetermined face-down piece moves, times those in the opponent's
    /// pool when an undetermined face-down piece is captured; 1 for every other action. Lets
    /// perft count the last ply without playing it.
    pub fn chance_multiplicity(&self, a: Action) -> u64 {
        let Action::Move { from, to, .. } = a else { return 1 };
        if self.down.is_empty() || !self.variant.caps.face_down() {
            return 1;
        }
        let us = self.pos.turn();
        let distinct = |c: Color| self.pool[c.index()].iter().filter(|&&n| n > 0).count() as u64;
        let mut n = 1;
        if self.down.contains(from) && self.identity[from.index()].is_none() {
            n *= distinct(us).max(1);
        }
        if self.down.contains(to) && self.identity[to.index()].is_none() {
            n *= distinct(us.opponent()).max(1);
        }
        n
    }

    /// The outcomes of the pending chance node with their probabilities (§P2; they sum to 1).
    /// Empty at a decision node.
    pub fn chance_outcomes(&self) -> Vec<(ChanceOutcome, f64)> {
        let Some(p) = self.pending else { return Vec::new() };
        let dist = |c: Color| -> Vec<(Role, f64)> {
            let pool = &self.pool[c.index()];
            let total: u32 = pool.iter().map(|&n| n as u32).sum();
            Role::ALL
                .into_iter()
                .filter(|r| pool[r.index()] > 0)
                .map(|r| (r, pool[r.index()] as f64 / total as f64))
                .collect()
        };
        let movers: Vec<(Option<Role>, f64)> = match p.mover {
            Some(sq) => {
                let c = self.pos.piece_at(sq).map(|x| x.color).unwrap_or(Color::Red);
                dist(c).into_iter().map(|(r, q)| (Some(r), q)).collect()
            }
            None => vec![(None, 1.0)],
        };
        let mut out = Vec::new();
        for (mr, mq) in movers {
            match p.captured {
                Some(c) => {
                    // The mover's draw comes from its own side's pool; captures take from the other.
                    for (cr, cq) in dist(c) {
                        out.push((ChanceOutcome { mover: mr, captured: Some(cr) }, mq * cq));
                    }
                }
                None => out.push((ChanceOutcome { mover: mr, captured: None }, mq)),
            }
        }
        out
    }

    /// Resolves the pending chance node with `o` (one of [`State::chance_outcomes`]).
    pub fn apply_chance(&mut self, o: ChanceOutcome) {
        let Some(p) = self.pending.take() else { return };
        if let (Some(sq), Some(r)) = (p.mover, o.mover) {
            if let Some(piece) = self.pos.piece_at(sq) {
                let pool = &mut self.pool[piece.color.index()][r.index()];
                *pool = pool.saturating_sub(1);
                self.pos.set_piece(sq, Some(Piece::new(piece.color, r)));
                self.observe_public(0x4EE1 ^ ((r.index() as u64) << 8));
            }
        }
        if let (Some(c), Some(r)) = (p.captured, o.captured) {
            let pool = &mut self.pool[c.index()][r.index()];
            *pool = pool.saturating_sub(1);
            self.record_captured_down(c.opponent(), c, r, false);
        }
        if let Some(sq) = p.turn_down_at {
            let owner = self.pos.piece_at(sq).map(|x| x.color).unwrap_or(Color::Red);
            self.turn_down(sq, owner);
        }
    }

    /// §P3: every undetermined face-down piece becomes its start point's type (no chance nodes).
    pub fn make_identity(&mut self) {
        for sq in self.down {
            if self.identity[sq.index()].is_none() {
                self.identity[sq.index()] = self.pos.piece_at(sq).map(|p| p.role);
            }
        }
        self.pool = [[0; Role::COUNT]; 2];
    }

    /// Mixes a public observation into both players' streams.
    fn observe_public(&mut self, token: u64) {
        for o in &mut self.obs {
            *o = mix(*o, token);
        }
    }

    /// Records a captured face-down piece and who learns its identity (§F6 and its options).
    fn record_captured_down(&mut self, capturer: Color, owner: Color, role: Role, public: bool) {
        use super::config::CaptureKnowledge as K;
        let f = &self.variant.fanqi;
        let mut known = [false; 2];
        if public || f.placement() == Placement::Fixed || self.variant.open {
            known = [true, true];
        } else {
            if f.placement() == Placement::Owner {
                known[owner.index()] = true; // the owner arranged it
            }
            match (f.capture_knowledge, f.placement()) {
                (K::Both, _) => known = [true, true],
                (K::Nobody, _) => {}
                (K::Default, Placement::Random) => known[capturer.index()] = true,
                (K::Default, _) => known = [true, true],
            }
        }
        for c in Color::ALL {
            let t = if known[c.index()] { 0xCA97 ^ ((role.index() as u64) << 8) } else { 0xCA97_FFFF };
            self.obs[c.index()] = mix(self.obs[c.index()], t);
        }
        let _ = self.captured_down.try_push((capturer, owner, role));
        let _ = self.captured_known.try_push(known);
    }

    /// Who knows each captured face-down piece's identity, parallel to
    /// [`State::captured_face_down`] (indexed by [`Color::index`]).
    pub fn captured_known(&self) -> &[[bool; 2]] {
        &self.captured_known
    }

    /// Face-down pieces whose identity is public (turned down under §F5).
    pub fn public_identities(&self) -> Bitboard {
        self.public_id
    }

    /// Captured Surprise discs: (owner, visible face, back face, back shown to both).
    pub fn captured_discs(&self) -> &[(Color, Role, Role, bool)] {
        &self.captured_discs
    }

    /// Hash of `c`'s observation stream since the state was built (perfect recall).
    pub fn observation_hash(&self, c: Color) -> u64 {
        self.obs[c.index()]
    }

    // ---- blanking and restoring hidden parts, used by views (crate-internal) ----

    /// Replaces `c`'s observation-stream hash (determinizations: see `View::sample`).
    pub(crate) fn set_observation_hash(&mut self, c: Color, h: u64) {
        self.obs[c.index()] = h;
    }

    pub(crate) fn blank_back(&mut self, sq: Square) {
        self.back[sq.index()] = None;
    }
    pub(crate) fn restore_back(&mut self, sq: Square, r: Role) {
        self.back[sq.index()] = Some(r);
    }
    pub(crate) fn blank_captured_disc_backs(&mut self, owner: Color) {
        for d in &mut self.captured_discs {
            if d.0 == owner && !d.3 {
                d.2 = Role::General;
            }
        }
    }
    pub(crate) fn restore_captured_disc_back(&mut self, i: usize, r: Role) {
        if let Some(d) = self.captured_discs.get_mut(i) {
            d.2 = r;
        }
    }
    pub(crate) fn push_captured_disc(&mut self, owner: Color, visible: Role, back: Option<Role>) {
        let _ = self.captured_discs.try_push((owner, visible, back.unwrap_or(Role::General), back.is_some()));
    }
    pub(crate) fn blank_identity(&mut self, sq: Square) {
        self.identity[sq.index()] = None;
    }
    pub(crate) fn restore_identity(&mut self, sq: Square, r: Role) {
        self.identity[sq.index()] = Some(r);
    }
    pub(crate) fn blank_captured_identity(&mut self, i: usize) {
        if let Some(e) = self.captured_down.get_mut(i) {
            e.2 = Role::General;
        }
    }
    pub(crate) fn restore_captured_identity(&mut self, i: usize, r: Role) {
        if let Some(e) = self.captured_down.get_mut(i) {
            e.2 = r;
        }
    }
    pub(crate) fn push_unseen_capture(&mut self, owner: Color, viewer: Color) {
        let mut known = [true; 2];
        known[viewer.index()] = false;
        let _ = self.captured_down.try_push((owner.opponent(), owner, Role::General));
        let _ = self.captured_known.try_push(known);
    }
    pub(crate) fn mark_identity_public(&mut self, sq: Square) {
        self.public_id.set(sq);
    }
    pub(crate) fn set_pool_public(&mut self, c: Color, pool: [u8; Role::COUNT]) {
        self.pool[c.index()] = pool;
    }

    // ---- setters used by the FEN reader (crate-internal) ----

    /// The same state under another variant (the open twin of this state's variant: see
    /// `super::open`, which checks that only information differs).
    pub(crate) fn rebind(&mut self, v: &'static Variant) {
        self.variant = v;
    }

    pub(crate) fn set_face_down(&mut self, sq: Square, identity: Option<Role>) {
        self.down.set(sq);
        self.identity[sq.index()] = identity;
        // In random and fixed modes a determined face-down piece was turned down in view of both
        // (§F5) or fixed by the mode; in owner's-choice modes only its owner knows it.
        // In an open twin every identity is public (docs/open-twins.md §O2).
        if identity.is_some() && (self.variant.fanqi.placement() != Placement::Owner || self.variant.open) {
            self.public_id.set(sq);
        }
    }
    pub(crate) fn set_pool(&mut self, c: Color, pool: [u8; Role::COUNT]) {
        self.pool[c.index()] = pool;
    }
    pub(crate) fn set_back(&mut self, sq: Square, r: Role, seen: bool) {
        self.back[sq.index()] = Some(r);
        if seen {
            // A back face is seen only after its disc flipped (§S4), so a `*` in the FEN also
            // records the flip for `flip_once_per_disc` (§S6a).
            self.back_seen.set(sq);
            self.flipped.set(sq);
        }
    }
    pub(crate) fn set_rights(&mut self, c: Color, rights: u8, chariot_reveals: u8, lost: [u8; Role::COUNT]) {
        self.rights[c.index()] = rights;
        self.chariot_reveals[c.index()] = chariot_reveals;
        self.lost[c.index()] = lost;
    }
    pub(crate) fn set_marker(&mut self, c: Color, sq: Square) {
        self.marker[c.index()] = sq;
    }
    pub(crate) fn set_run(&mut self, c: Color, run: Option<(Square, u8)>) {
        self.run[c.index()] = run;
    }
}
