//! A player's view of a variant game, its information-set key, its FEN, and the determinization
//! sampler (RULES.md §S2, §S8, §F3, §F6; docs/architecture.md "hidden identities live only in the full state").
//!
//! A [`View`] holds what one player has seen: the public board (every piece by the type it moves
//! as, face-down pieces marked), public counters, rights and markers, the player's own secrets
//! (own Surprise layout, own arrangement in Fan-qi owner's-choice modes), identities it learned
//! (flips, captures it made, §F6 knowledge) and a hash of its whole observation stream (perfect
//! recall). What the player cannot see is kept only as the set of possibilities:
//!
//! - Surprise: the opponent's unseen back faces. Every side's six discs are two chariot|horse,
//!   two chariot|cannon and two horse|cannon (§S1); the ten layouts of §S2 are exactly the
//!   assignments of back faces consistent with that, so the sampler enumerates the assignments of
//!   every unseen back together — on the board and among captured discs whose back stayed hidden
//!   (§S8 option), each with the face it was captured by — that keep the disc multiset, and picks
//!   one uniformly. A captured disc's visible face limits its back as a board disc's does: it is
//!   an alternative of its own disc type, not "any type left over".
//! - Fan-qi: for each side, the multiset of identities the player has not seen (the start
//!   multiset minus every identity it knows). In random modes those fill the identities of
//!   captured face-down pieces it did not see, the rest stays the undetermined pool (chance); in
//!   owner's-choice modes they fill the opponent's face-down pieces. A uniform shuffle of the
//!   multiset over the slots is a uniform draw over the equally likely deals.

use super::config::{Hidden, Placement};
use super::fen as vfen;
use super::state::State;
use super::Variant;
use crate::geometry::Square;
use crate::piece::{Color, Piece, Role};
use rand::Rng;

/// A player's view: everything that player knows, and nothing else.
#[derive(Clone)]
pub struct View {
    player: Color,
    /// The full state with what `player` cannot see blanked (backs `None`, identities `None`,
    /// unseen captured identities as the general, pools as the unseen multisets).
    template: State,
    /// Surprise: the points of opponent discs whose back is unseen.
    unknown_backs: Vec<Square>,
    /// Surprise: indices into the captured discs of the opponent's discs whose back stayed hidden
    /// (§S8 option).
    unknown_gone: Vec<usize>,
    /// Surprise: every consistent assignment of backs to `unknown_backs` then `unknown_gone` (in
    /// that order), one per consistent layout of §S2.
    back_choices: Vec<Vec<Role>>,
    /// Fan-qi: unseen identities per side (multiset as a list).
    unseen: [Vec<Role>; 2],
    /// Fan-qi: indices into the captured face-down list whose identity is unseen, per side.
    unseen_captured: [Vec<usize>; 2],
    /// Fan-qi owner's-choice modes: the opponent's face-down points whose identity is unseen.
    unseen_board: [Vec<Square>; 2],
    /// The view FEN (see `docs/notation.md`).
    fen: String,
    key: u64,
}

impl PartialEq for View {
    fn eq(&self, other: &View) -> bool {
        self.player == other.player
            && self.fen == other.fen
            && self.template.observation_hash(self.player) == other.template.observation_hash(other.player)
    }
}

/// Why a view FEN could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// The base (full-state-like) part is malformed.
    #[error(transparent)]
    Fen(#[from] vfen::StateFenError),
    /// A view field is malformed or contradicts the rest (naming the clause).
    #[error("view FEN {field} field: {problem}")]
    Field {
        /// `view`, `unseen`, `gone`, `backs`, `pool`.
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
}

fn verr(field: &'static str, problem: impl Into<String>) -> ViewError {
    ViewError::Field { field, problem: problem.into() }
}

const DISC_TYPES: [(Role, Role); 3] = [(Role::Chariot, Role::Horse), (Role::Chariot, Role::Cannon), (Role::Horse, Role::Cannon)];

fn disc_index(a: Role, b: Role) -> Option<usize> {
    DISC_TYPES.iter().position(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b))
}

/// Enumerates back assignments for `visible` faces (unknown slots) given the disc counts already
/// used by known discs; each disc type exists twice per side (§S1).
fn back_assignments(visible: &[Role], used: [u8; 3]) -> Vec<Vec<Role>> {
    let mut out = Vec::new();
    let mut cur = Vec::with_capacity(visible.len());
    fn rec(i: usize, visible: &[Role], used: &mut [u8; 3], cur: &mut Vec<Role>, out: &mut Vec<Vec<Role>>) {
        if i == visible.len() {
            out.push(cur.clone());
            return;
        }
        for b in [Role::Chariot, Role::Horse, Role::Cannon] {
            if b == visible[i] {
                continue;
            }
            let Some(d) = disc_index(visible[i], b) else { continue };
            if used[d] < 2 {
                used[d] += 1;
                cur.push(b);
                rec(i + 1, visible, used, cur, out);
                cur.pop();
                used[d] -= 1;
            }
        }
    }
    let mut used = used;
    rec(0, visible, &mut used, &mut cur, &mut out);
    out
}

impl View {
    /// The view of `player` of the full state `s`.
    pub fn new(s: &State, player: Color) -> View {
        let v = s.variant();
        let mut t = s.clone();
        let mut unknown_backs = Vec::new();
        let mut unknown_gone = Vec::new();
        let mut unseen: [Vec<Role>; 2] = [Vec::new(), Vec::new()];
        let mut unseen_captured: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        let mut unseen_board: [Vec<Square>; 2] = [Vec::new(), Vec::new()];
        let mut back_choices = vec![Vec::new()];
        let opp = player.opponent();
        // docs/open-twins.md §O2: in an open twin a player sees the whole state.
        let hidden = if v.open { Hidden::None } else { v.caps.hidden };
        match hidden {
            Hidden::BackFaces => {
                let mut used = [0u8; 3];
                let mut visible = Vec::new();
                let pos = s.position();
                for sq in pos.by_color(opp) {
                    let Some(b) = s.back(sq) else { continue };
                    let vis = pos.piece_at(sq).map(|p| p.role).unwrap_or(Role::General);
                    if s.back_seen().contains(sq) {
                        if let Some(d) = disc_index(vis, b) {
                            used[d] += 1;
                        }
                    } else {
                        unknown_backs.push(sq);
                        visible.push(vis);
                        t.blank_back(sq);
                    }
                }
                for (i, &(owner, vis, b, shown)) in s.captured_discs().iter().enumerate() {
                    if owner != opp {
                        continue;
                    }
                    if shown {
                        if let Some(d) = disc_index(vis, b) {
                            used[d] += 1;
                        }
                    } else {
                        unknown_gone.push(i);
                        visible.push(vis);
                    }
                }
                t.blank_captured_disc_backs(opp);
                // §S2, §S8 option: a captured disc whose back stayed hidden is still one of the six
                // discs, and the face it was captured by is one of its two faces. Its back is
                // enumerated with the board's unknown backs, so that every choice is a whole
                // layout: counting the board's backs alone and only asking that enough disc types
                // be left over for the captured discs admits choices no layout gives (14 instead
                // of 10 after one hidden capture of a horse: a left-over chariot|cannon disc
                // cannot have been captured showing a horse).
                back_choices = back_assignments(&visible, used);
            }
            Hidden::FaceDown => {
                let random = v.fanqi.placement() == Placement::Random;
                let pos = s.position();
                for c in Color::ALL {
                    let ci = c.index();
                    // Unseen identities: the undetermined pool (unknown to both), face-down
                    // pieces whose determined identity this player does not know, and captured
                    // face-down pieces it did not see (§F6).
                    let mut u: Vec<Role> = Vec::new();
                    for r in Role::ALL {
                        for _ in 0..s.pool(c)[r.index()] {
                            u.push(r);
                        }
                    }
                    for sq in s.face_down() & pos.by_color(c) {
                        let knows = (c == player && v.fanqi.placement() == Placement::Owner)
                            || s.public_identities().contains(sq)
                            || v.fanqi.placement() == Placement::Fixed;
                        match s.identity(sq) {
                            Some(r) if !knows => {
                                u.push(r);
                                unseen_board[ci].push(sq);
                                t.blank_identity(sq);
                            }
                            // Unplaced during the owner's-choice set-up (§F3): nobody has chosen
                            // it yet, its identity stays in the pool (placement fills the points
                            // in order, so the placed ones, blanked above, come first). After the
                            // set-up an undetermined piece (a FEN's or perft's start, §P4) is one
                            // a determinization places; but not the viewer's own: its owner would
                            // then know it, so it stays in the pool as the viewer sees it.
                            None if !random && !s.in_setup() && c != player => unseen_board[ci].push(sq),
                            _ => {}
                        }
                    }
                    for (i, (&(_, owner, r), known)) in s.captured_face_down().iter().zip(s.captured_known()).enumerate() {
                        if owner == c && !known[player.index()] {
                            u.push(r);
                            unseen_captured[ci].push(i);
                            t.blank_captured_identity(i);
                        }
                    }
                    u.sort();
                    let mut pool = [0u8; Role::COUNT];
                    for r in &u {
                        pool[r.index()] += 1;
                    }
                    t.set_pool_public(c, pool);
                    unseen[ci] = u;
                }
            }
            Hidden::None => {}
        }
        let fen = view_fen(&t, player, &unknown_backs, &unseen_captured, s);
        let key = crate::zobrist::extra_key(s.observation_hash(player), fen_hash(&fen));
        View { player, template: t, unknown_backs, unknown_gone, back_choices, unseen, unseen_captured, unseen_board, fen, key }
    }

    /// The observing player.
    pub fn player(&self) -> Color {
        self.player
    }

    /// The information-set key: a hash of the view FEN and the observation stream (equal exactly
    /// when the views are equal, up to 64-bit hash collisions).
    pub fn infoset_key(&self) -> u64 {
        self.key
    }

    /// The view FEN (`docs/notation.md`).
    pub fn fen(&self) -> &str {
        &self.fen
    }

    /// Number of consistent opponent back-face assignments (Surprise; 1 elsewhere): the layouts of
    /// §S2 consistent with everything seen, the backs of captured discs that stayed hidden (§S8
    /// option) included.
    pub fn surprise_assignments(&self) -> usize {
        self.back_choices.len()
    }

    /// Unseen identities of side `c` (Fan-qi), sorted.
    pub fn unseen(&self, c: Color) -> &[Role] {
        &self.unseen[c.index()]
    }

    /// The full state with everything this player cannot see blanked: unseen backs and
    /// identities absent, pools holding the unseen multisets (what [`View::sample`] fills in).
    /// Holds no hidden identity; for encoders that read the public board and the player's own
    /// secrets.
    pub fn known(&self) -> &State {
        &self.template
    }

    /// Surprise: for each opponent disc whose back this player has not seen, the fraction of the
    /// consistent back assignments (those [`View::sample`] draws from uniformly) that give it each
    /// type, by [`Role::index`]. Empty elsewhere.
    pub fn back_beliefs(&self) -> Vec<(Square, [f32; Role::COUNT])> {
        let n = self.back_choices.len();
        if n == 0 {
            return Vec::new();
        }
        self.unknown_backs
            .iter()
            .enumerate()
            .map(|(i, &sq)| {
                let mut p = [0f32; Role::COUNT];
                for choice in &self.back_choices {
                    if let Some(r) = choice.get(i) {
                        p[r.index()] += 1.0;
                    }
                }
                p.iter_mut().for_each(|x| *x /= n as f32);
                (sq, p)
            })
            .collect()
    }

    /// Draws a full state uniformly from those consistent with this view (see module docs).
    pub fn sample(&self, rng: &mut impl Rng) -> State {
        let mut s = self.template.clone();
        // What was drawn, hashed: the other player's observation stream in the sample is made a
        // function of it (below), so the other player's information-set key varies with the
        // determinization instead of carrying the true state's (which would leak the truth).
        let mut drawn = 0u64;
        let mut sampled = false;
        let unseen = self.unknown_backs.len() + self.unknown_gone.len();
        if unseen > 0 && !self.back_choices.is_empty() {
            let pick = &self.back_choices[rng.random_range(0..self.back_choices.len())];
            for (sq, b) in self.unknown_backs.iter().zip(pick) {
                s.restore_back(*sq, *b);
                drawn = crate::zobrist::extra_key(drawn, (sq.index() as u64) << 8 | b.index() as u64);
                sampled = true;
            }
            // The backs of captured discs that stayed hidden, as the drawn layout has them.
            for (&i, b) in self.unknown_gone.iter().zip(&pick[self.unknown_backs.len().min(pick.len())..]) {
                s.restore_captured_disc_back(i, *b);
                drawn = crate::zobrist::extra_key(drawn, 3 << 20 | (i as u64) << 8 | b.index() as u64);
                sampled = true;
            }
        }
        if s.variant().caps.face_down() {
            for c in Color::ALL {
                let ci = c.index();
                if self.unseen[ci].is_empty() {
                    continue;
                }
                let mut u = self.unseen[ci].clone();
                // Fisher-Yates.
                for i in (1..u.len()).rev() {
                    let j = rng.random_range(0..=i);
                    u.swap(i, j);
                }
                let mut it = u.into_iter();
                for &idx in &self.unseen_captured[ci] {
                    if let Some(r) = it.next() {
                        s.restore_captured_identity(idx, r);
                        drawn = crate::zobrist::extra_key(drawn, 1 << 20 | (idx as u64) << 8 | r.index() as u64);
                        sampled = true;
                    }
                }
                for &sq in &self.unseen_board[ci] {
                    if let Some(r) = it.next() {
                        s.restore_identity(sq, r);
                        drawn = crate::zobrist::extra_key(drawn, 2 << 20 | (sq.index() as u64) << 8 | r.index() as u64);
                        sampled = true;
                    }
                }
                // What is left stays the undetermined pool: random modes, an unfinished
                // owner's-choice set-up (the identities not yet placed), and after the set-up the
                // viewer's own undetermined pieces of an owner's-choice start given by a FEN
                // (nothing is left where the owners have assigned every identity).
                let mut pool = [0u8; Role::COUNT];
                for r in it {
                    pool[r.index()] += 1;
                }
                s.set_pool_public(c, pool);
            }
        }
        if sampled {
            let other = self.player.opponent();
            let own = self.template.observation_hash(self.player);
            s.set_observation_hash(other, crate::zobrist::extra_key(own ^ 0x0B5E_D0E7_0000_0000, drawn));
        }
        s
    }

    /// Whether the full state `s` is consistent with this view: same public position and
    /// counters, same known identities and backs, and its hidden parts among the possibilities.
    pub fn is_consistent(&self, s: &State) -> bool {
        let other = View::new(s, self.player);
        if other.fen != self.fen {
            return false;
        }
        if self.unknown_backs.len() + self.unknown_gone.len() > 0 {
            let gone = s.captured_discs();
            let backs: Vec<Role> = self
                .unknown_backs
                .iter()
                .map(|sq| s.back(*sq).unwrap_or(Role::General))
                .chain(self.unknown_gone.iter().map(|&i| gone.get(i).map_or(Role::General, |d| d.2)))
                .collect();
            if !self.back_choices.contains(&backs) {
                return false;
            }
        }
        for c in Color::ALL {
            if other.unseen[c.index()] != self.unseen[c.index()] {
                return false;
            }
        }
        true
    }

    /// Reads a view FEN (`docs/notation.md`) of `variant`.
    ///
    /// # Errors
    /// [`ViewError`] naming the field that is malformed or contradicts the rest.
    pub fn from_fen(variant: &'static Variant, text: &str) -> Result<View, ViewError> {
        let mut base: Vec<&str> = Vec::new();
        let mut player = None;
        let mut unseen_n = [0usize; 2];
        let mut gone: Vec<(Color, Role, Option<Role>)> = Vec::new();
        for f in text.split_whitespace() {
            if let Some(p) = f.strip_prefix("view=") {
                player = Some(match p {
                    "w" => Color::Red,
                    "b" => Color::Black,
                    _ => return Err(verr("view", format!("{p:?}: expected w or b"))),
                });
            } else if let Some(p) = f.strip_prefix("unseen=") {
                let (a, b) = p.split_once(',').ok_or_else(|| verr("unseen", "expected red,black counts"))?;
                unseen_n = [a.parse().map_err(|_| verr("unseen", "bad count"))?, b.parse().map_err(|_| verr("unseen", "bad count"))?];
            } else if let Some(p) = f.strip_prefix("gone=") {
                for e in p.split(',').filter(|e| !e.is_empty() && *e != "-") {
                    let mut cs = e.chars();
                    let (Some(a), Some(b), None) = (cs.next(), cs.next(), cs.next()) else {
                        return Err(verr("gone", format!("{e:?}: expected visible and back letters, e.g. Rn or R?")));
                    };
                    let pa = Piece::from_char(a).ok_or_else(|| verr("gone", format!("unknown letter {a:?}")))?;
                    let back = if b == '?' { None } else { Some(Role::from_char(b).ok_or_else(|| verr("gone", format!("unknown letter {b:?}")))?) };
                    gone.push((pa.color, pa.role, back));
                }
            } else {
                base.push(f);
            }
        }
        let player = player.ok_or_else(|| verr("view", "missing view=w|b"))?;
        let mut unknown_sq = Vec::new();
        let mut fields: Vec<String> = base.iter().map(|s| s.to_string()).collect();
        match variant.caps.hidden {
            Hidden::BackFaces => {
                if let Some(backs) = fields.get_mut(6) {
                    let mut kept = Vec::new();
                    for e in backs.split(',') {
                        match e.strip_suffix("=?") {
                            Some(sq) => unknown_sq.push(Square::parse(sq).ok_or_else(|| verr("backs", format!("bad square in {e:?}")))?),
                            None => kept.push(e.to_string()),
                        }
                    }
                    *backs = if kept.is_empty() { "-".into() } else { kept.join(",") };
                }
            }
            Hidden::FaceDown => {
                // The pool field lists unseen identities (pool plus captured-unseen); build a
                // full-state pool by setting aside `unseen` of them (which ones does not matter:
                // the template keeps the multiset).
                if let Some(pool) = fields.get_mut(2) {
                    let mut counts = parse_pool(pool).ok_or_else(|| verr("pool", format!("{pool:?} is not a pool")))?;
                    for c in Color::ALL {
                        for _ in 0..unseen_n[c.index()] {
                            if let Some(r) = Role::ALL.into_iter().rev().find(|r| counts[c.index()][r.index()] > 0) {
                                counts[c.index()][r.index()] -= 1;
                            } else {
                                return Err(verr("unseen", format!("{c} has more unseen captures than unseen identities")));
                            }
                        }
                    }
                    *pool = write_pool(counts);
                }
            }
            Hidden::None => {}
        }
        if variant.open && !unknown_sq.is_empty() {
            // docs/open-twins.md §O2: an open twin hides nothing, so no back is unseen.
            return Err(verr("backs", format!("{}: an open twin shows every back; `=?` marks a back hidden from the viewer", variant.name)));
        }
        let mut s = vfen::parse(variant, &fields.join(" "))?;
        for sq in &unknown_sq {
            match s.position().piece_at(*sq) {
                Some(p) if p.color != player && matches!(p.role, Role::Chariot | Role::Horse | Role::Cannon) => {
                    // Give it any back consistent with its face for now; the view blanks it.
                    let b = if p.role == Role::Chariot { Role::Horse } else { Role::Chariot };
                    s.restore_back(*sq, b);
                }
                _ => return Err(verr("backs", format!("{sq}=?: only the opponent's discs can have unseen backs"))),
            }
        }
        // Every identity a view FEN lists is one its viewer knows.
        for sq in s.face_down() {
            if s.identity(sq).is_some() && s.position().piece_at(sq).is_some_and(|p| p.color != player) {
                s.mark_identity_public(sq);
            }
        }
        if variant.caps.hidden == Hidden::BackFaces {
            check_discs(&s, player, &unknown_sq, &gone)?;
        } else if !gone.is_empty() {
            return Err(verr("gone", format!("{} has no surprise discs (RULES.md §S1)", variant.name)));
        }
        for (c, vis, back) in gone {
            s.push_captured_disc(c, vis, back);
        }
        if variant.caps.face_down() {
            for c in Color::ALL {
                for _ in 0..unseen_n[c.index()] {
                    s.push_unseen_capture(c, player);
                }
            }
        }
        let mut view = View::new(&s, player);
        if variant.caps.hidden == Hidden::BackFaces && view.back_choices.is_empty() {
            return Err(verr("backs", "no §S2 layout gives the opponent's discs on the board and in gone= their visible faces"));
        }
        if variant.caps.face_down() {
            // Restore the unseen multiset as written (View::new counted the placeholders).
            let counts = parse_pool(base.get(2).copied().unwrap_or("-")).unwrap_or([[0; Role::COUNT]; 2]);
            for c in Color::ALL {
                let mut u = Vec::new();
                for r in Role::ALL {
                    for _ in 0..counts[c.index()][r.index()] {
                        u.push(r);
                    }
                }
                view.unseen[c.index()] = u;
                view.template.set_pool_public(c, counts[c.index()]);
            }
        }
        view.fen = view_fen(&view.template, player, &view.unknown_backs, &view.unseen_captured, &view.template);
        view.key = crate::zobrist::extra_key(view.template.observation_hash(player), fen_hash(&view.fen));
        Ok(view)
    }
}

/// Checks the discs a Surprise view FEN gives (RULES.md §S1, §S8) before its captured discs
/// are added to `s`: each `gone=` entry is a disc (visible face and back two different of
/// chariot, horse and cannon), a back left `?` only on the opponent's discs and only where
/// captured backs stay hidden; per side at most six discs on the board and captured, at most
/// two of each kind among those whose back is known.
///
/// # Errors
/// [`ViewError::Field`] naming `gone` or `backs`.
fn check_discs(s: &State, player: Color, unknown: &[Square], gone: &[(Color, Role, Option<Role>)]) -> Result<(), ViewError> {
    let disc = |r: Role| matches!(r, Role::Chariot | Role::Horse | Role::Cannon);
    let revealed = s.variant().surprise.captured_back_revealed;
    let mut count = [0usize; 2];
    let mut used = [[0u8; 3]; 2];
    let pos = s.position();
    for c in Color::ALL {
        for sq in pos.by_color(c) {
            let (Some(b), Some(p)) = (s.back(sq), pos.piece_at(sq)) else { continue };
            count[c.index()] += 1;
            if !unknown.contains(&sq) {
                if let Some(d) = disc_index(p.role, b) {
                    used[c.index()][d] += 1;
                }
            }
        }
    }
    for &(c, vis, back) in gone {
        let letter = Piece::new(c, vis).char();
        if !disc(vis) {
            return Err(verr("gone", format!("{letter:?}: a captured disc shows a chariot, horse or cannon (§S1)")));
        }
        match back {
            Some(b) => match disc_index(vis, b).filter(|_| b != vis) {
                Some(d) => used[c.index()][d] += 1,
                None => return Err(verr("gone", format!("{letter}{}: a disc's back is another of chariot, horse and cannon (§S1)", Piece::new(c, b).char()))),
            },
            None if c == player => return Err(verr("gone", format!("{letter}?: {player} knows the backs of its own discs"))),
            None if revealed || s.variant().open => return Err(verr("gone", format!("{letter}?: a captured disc's back is shown to both sides here (§S8)"))),
            None => {}
        }
        count[c.index()] += 1;
    }
    for c in Color::ALL {
        if count[c.index()] > 6 {
            return Err(verr("gone", format!("{c} has {} discs on the board and captured, but a side has six (§S1)", count[c.index()])));
        }
        if let Some(d) = (0..3).find(|&d| used[c.index()][d] > 2) {
            let (a, b) = DISC_TYPES[d];
            return Err(verr("gone", format!("{c} has more than two {a}|{b} discs (§S1: two of each kind)")));
        }
    }
    Ok(())
}

fn fen_hash(s: &str) -> u64 {
    // FNV-1a, stable across builds.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn parse_pool(s: &str) -> Option<[[u8; Role::COUNT]; 2]> {
    let mut out = [[0u8; Role::COUNT]; 2];
    if s == "-" {
        return Some(out);
    }
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let p = Piece::from_char(c)?;
        let mut d = String::new();
        while let Some(x) = chars.peek().filter(|x| x.is_ascii_digit()) {
            d.push(*x);
            chars.next();
        }
        let slot = &mut out[p.color.index()][p.role.index()];
        *slot = slot.checked_add(d.parse::<u8>().ok()?)?;
    }
    Some(out)
}

fn write_pool(pool: [[u8; Role::COUNT]; 2]) -> String {
    let mut out = String::new();
    for c in Color::ALL {
        for r in [Role::Advisor, Role::Elephant, Role::Horse, Role::Chariot, Role::Cannon, Role::Soldier] {
            let n = pool[c.index()][r.index()];
            if n > 0 {
                out.push(Piece::new(c, r).char());
                out.push_str(&n.to_string());
            }
        }
    }
    if out.is_empty() {
        "-".into()
    } else {
        out
    }
}

/// The view FEN: the full-state FEN of the blanked template with unseen backs written `sq=?`,
/// the Fan-qi pool field holding the unseen identities, then `view=w|b`, and where needed
/// `unseen=R,B` (Fan-qi: captured face-down pieces whose identity the viewer did not see) and
/// `gone=..` (Surprise: captured discs, visible face then back or `?`).
fn view_fen(t: &State, player: Color, unknown_backs: &[Square], unseen_captured: &[Vec<usize>; 2], _s: &State) -> String {
    let v = t.variant();
    let mut fields: Vec<String> = vfen::write(t).split_whitespace().map(str::to_string).collect();
    match v.caps.hidden {
        Hidden::BackFaces => {
            if let Some(backs) = fields.get_mut(6) {
                let mut entries: Vec<(Color, Square, String)> = Vec::new();
                for e in backs.split(',').filter(|e| *e != "-") {
                    if let Some((sq, l)) = e.split_once('=') {
                        if let Some(sq) = Square::parse(sq) {
                            let c = if l.chars().next().is_some_and(|c| c.is_ascii_uppercase()) { Color::Red } else { Color::Black };
                            entries.push((c, sq, l.to_string()));
                        }
                    }
                }
                for &sq in unknown_backs {
                    entries.push((player.opponent(), sq, "?".into()));
                }
                entries.sort_by_key(|(c, sq, _)| (c.index(), sq.index()));
                let list: Vec<String> = entries.iter().map(|(_, sq, l)| format!("{sq}={l}")).collect();
                *backs = if list.is_empty() { "-".into() } else { list.join(",") };
            }
        }
        Hidden::FaceDown => {
            if let Some(pool) = fields.get_mut(2) {
                let mut counts = [[0u8; Role::COUNT]; 2];
                for c in Color::ALL {
                    counts[c.index()] = t.pool(c);
                }
                *pool = write_pool(counts);
            }
        }
        Hidden::None => {}
    }
    fields.push(format!("view={}", if player == Color::Red { 'w' } else { 'b' }));
    if v.caps.face_down() && (unseen_captured[0].len() + unseen_captured[1].len()) > 0 {
        fields.push(format!("unseen={},{}", unseen_captured[0].len(), unseen_captured[1].len()));
    }
    if v.caps.discs() && !t.captured_discs().is_empty() {
        let g: Vec<String> = t
            .captured_discs()
            .iter()
            .map(|&(c, vis, b, shown)| {
                let b = if shown || c == player || v.open { Piece::new(c, b).char() } else { '?' };
                format!("{}{}", Piece::new(c, vis).char(), b)
            })
            .collect();
        fields.push(format!("gone={}", g.join(",")));
    }
    fields.join(" ")
}
