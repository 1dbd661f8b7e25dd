//! Make/unmake for the full state: [`State::make`] applies an action or a chance outcome in
//! place and returns an [`Undo`]; [`State::unmake`] puts everything back. Perft uses it instead
//! of copying the whole state (about 1 KB) at every node.
//!
//! An action or chance outcome changes the board and the per-point layers (hidden faces,
//! identities) on at most two points — the move's origin and destination, the flipped disc,
//! the revealed piece — and otherwise only the small fields and the ends of the capture
//! records. The undo record keeps those two points, the small fields, and the record lengths.

use super::{Agreement, Pending, SetupStep, State};
use crate::bitboard::Bitboard;
use crate::geometry::Square;
use crate::piece::{Color, Piece, Role};
use crate::position::Counters;

use super::{Action, ChanceOutcome};

/// What [`State::make`] overwrote; [`State::unmake`] restores it. Only valid for the state it
/// came from, in last-made-first-unmade order.
#[derive(Clone)]
pub struct Undo {
    points: [Square; 2],
    pieces: [Option<Piece>; 2],
    back: [Option<Role>; 2],
    identity: [Option<Role>; 2],
    counters: Counters,
    lens: [u8; 3],
    small: Small,
}

/// Every field of [`State`] that is not per point or a record (copied whole).
#[derive(Copy, Clone)]
struct Small {
    back_seen: Bitboard,
    flipped: Bitboard,
    rights: [u8; 2],
    chariot_reveals: [u8; 2],
    lost: [[u8; Role::COUNT]; 2],
    demand_pending: bool,
    last_demand: [Option<u32>; 2],
    agreement: Option<Agreement>,
    down: Bitboard,
    pool: [[u8; Role::COUNT]; 2],
    public_id: Bitboard,
    obs: [u64; 2],
    marker: [Square; 2],
    run: [Option<(Square, u8)>; 2],
    grind_loss: Option<Color>,
    pending: Option<Pending>,
    setup: Option<SetupStep>,
}

impl State {
    /// Saves the points `a` and `b` and every small field (see the module comment).
    fn save(&self, a: Square, b: Square) -> Undo {
        // Exhaustive on purpose: a new field of `State` must be added here (and to `Small`, or
        // be shown to change only on the saved points or at the end of a record).
        let State {
            variant: _,
            pos,
            back,
            back_seen,
            flipped,
            rights,
            chariot_reveals,
            lost,
            demand_pending,
            last_demand,
            agreement,
            down,
            identity,
            pool,
            captured_down,
            captured_known,
            public_id,
            captured_discs,
            obs,
            marker,
            run,
            grind_loss,
            pending,
            setup,
        } = self;
        let (ai, bi) = (a.index(), b.index());
        Undo {
            points: [a, b],
            pieces: [pos.piece_at(a), pos.piece_at(b)],
            back: [back[ai], back[bi]],
            identity: [identity[ai], identity[bi]],
            counters: pos.counters(),
            lens: [captured_down.len() as u8, captured_known.len() as u8, captured_discs.len() as u8],
            small: Small {
                back_seen: *back_seen,
                flipped: *flipped,
                rights: *rights,
                chariot_reveals: *chariot_reveals,
                lost: *lost,
                demand_pending: *demand_pending,
                last_demand: *last_demand,
                agreement: *agreement,
                down: *down,
                pool: *pool,
                public_id: *public_id,
                obs: *obs,
                marker: *marker,
                run: *run,
                grind_loss: *grind_loss,
                pending: *pending,
                setup: *setup,
            },
        }
    }

    /// Applies `a` (legal, as for [`State::apply`]) in place and returns what
    /// [`State::unmake`] needs; `None`, with the state unchanged, for set-up choices
    /// ([`Action::Layout`], [`Action::Place`]), which rewrite more than two points.
    pub fn make(&mut self, a: Action) -> Option<Undo> {
        let (p, q) = match a {
            Action::Move { from, to, .. } => (from, to),
            Action::Flip { at } => (at, at),
            Action::Demand | Action::Answer(_) => {
                let g = self.pos.general(Color::Red);
                (g, g)
            }
            Action::Layout { .. } | Action::Place { .. } => return None,
        };
        let u = self.save(p, q);
        self.apply(a);
        Some(u)
    }

    /// Resolves the pending chance node with `o` (as [`State::apply_chance`]) in place and
    /// returns what [`State::unmake`] needs.
    pub fn make_chance(&mut self, o: ChanceOutcome) -> Undo {
        let p = self.pending.and_then(|p| p.mover.or(p.turn_down_at)).unwrap_or_else(|| self.pos.general(Color::Red));
        let u = self.save(p, p);
        self.apply_chance(o);
        u
    }

    /// Takes back the last [`State::make`] or [`State::make_chance`] that returned `u`.
    pub fn unmake(&mut self, u: &Undo) {
        for i in [1, 0] {
            let sq = u.points[i];
            self.pos.set_piece(sq, u.pieces[i]);
            self.back[sq.index()] = u.back[i];
            self.identity[sq.index()] = u.identity[i];
        }
        self.pos.restore_counters(u.counters);
        self.captured_down.truncate(u.lens[0] as usize);
        self.captured_known.truncate(u.lens[1] as usize);
        self.captured_discs.truncate(u.lens[2] as usize);
        let s = u.small;
        self.back_seen = s.back_seen;
        self.flipped = s.flipped;
        self.rights = s.rights;
        self.chariot_reveals = s.chariot_reveals;
        self.lost = s.lost;
        self.demand_pending = s.demand_pending;
        self.last_demand = s.last_demand;
        self.agreement = s.agreement;
        self.down = s.down;
        self.pool = s.pool;
        self.public_id = s.public_id;
        self.obs = s.obs;
        self.marker = s.marker;
        self.run = s.run;
        self.grind_loss = s.grind_loss;
        self.pending = s.pending;
        self.setup = s.setup;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::config::{preset_names, Variant};
    use rand::{Rng, SeedableRng};

    /// Field-by-field equality (exhaustive, like `State::save`).
    fn assert_same(a: &State, b: &State, what: &str) {
        let State {
            variant,
            pos,
            back,
            back_seen,
            flipped,
            rights,
            chariot_reveals,
            lost,
            demand_pending,
            last_demand,
            agreement,
            down,
            identity,
            pool,
            captured_down,
            captured_known,
            public_id,
            captured_discs,
            obs,
            marker,
            run,
            grind_loss,
            pending,
            setup,
        } = a;
        assert!(std::ptr::eq(*variant, b.variant), "{what}: variant");
        assert!(*pos == b.pos && pos.hash() == b.pos.hash(), "{what}: position {pos:?} vs {:?}", b.pos);
        for c in Color::ALL {
            assert_eq!(pos.general(c), b.pos.general(c), "{what}: general");
            assert_eq!(pos.by_color(c), b.pos.by_color(c), "{what}: colour bitboards");
        }
        for r in Role::ALL {
            assert_eq!(pos.by_role(r), b.pos.by_role(r), "{what}: type bitboards");
        }
        assert_eq!(pos.hash(), pos.hash_from_scratch(), "{what}: hash");
        assert_eq!(back, &b.back, "{what}: back");
        assert_eq!(*back_seen, b.back_seen, "{what}: back_seen");
        assert_eq!(*flipped, b.flipped, "{what}: flipped");
        assert_eq!(*rights, b.rights, "{what}: rights");
        assert_eq!(*chariot_reveals, b.chariot_reveals, "{what}: chariot_reveals");
        assert_eq!(*lost, b.lost, "{what}: lost");
        assert_eq!(*demand_pending, b.demand_pending, "{what}: demand_pending");
        assert_eq!(*last_demand, b.last_demand, "{what}: last_demand");
        assert_eq!(*agreement, b.agreement, "{what}: agreement");
        assert_eq!(*down, b.down, "{what}: down");
        assert_eq!(identity, &b.identity, "{what}: identity");
        assert_eq!(*pool, b.pool, "{what}: pool");
        assert_eq!(captured_down, &b.captured_down, "{what}: captured_down");
        assert_eq!(captured_known, &b.captured_known, "{what}: captured_known");
        assert_eq!(*public_id, b.public_id, "{what}: public_id");
        assert_eq!(captured_discs, &b.captured_discs, "{what}: captured_discs");
        assert_eq!(*obs, b.obs, "{what}: obs");
        assert_eq!(*marker, b.marker, "{what}: marker");
        assert_eq!(*run, b.run, "{what}: run");
        assert_eq!(*grind_loss, b.grind_loss, "{what}: grind_loss");
        assert_eq!(*pending, b.pending, "{what}: pending");
        assert_eq!(*setup, b.setup, "{what}: setup");
    }

    /// Along random games of every preset, making each action (or chance outcome) in place
    /// gives the copy-made child, and unmaking gives the state back exactly.
    #[test]
    fn make_unmake_matches_copy_make() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
        for name in preset_names() {
            let v: &'static Variant = crate::any_game::load_variant(name).expect("preset");
            let mut made = 0;
            for _ in 0..12 {
                let mut s = State::new_game(v);
                for _ in 0..150 {
                    if s.is_chance() {
                        let outcomes = s.chance_outcomes();
                        for &(o, _) in &outcomes {
                            let mut c = s.clone();
                            let mut want = s.clone();
                            want.apply_chance(o);
                            let u = c.make_chance(o);
                            assert_same(&c, &want, name);
                            c.unmake(&u);
                            assert_same(&c, &s, name);
                            made += 1;
                        }
                        s.apply_chance(outcomes[rng.random_range(0..outcomes.len())].0);
                        continue;
                    }
                    let actions = s.legal_actions();
                    if actions.is_empty() {
                        break;
                    }
                    for &a in &actions {
                        let mut c = s.clone();
                        match c.make(a) {
                            Some(u) => {
                                assert_same(&c, &s.child(a), name);
                                c.unmake(&u);
                                assert_same(&c, &s, name);
                                made += 1;
                            }
                            None => assert!(matches!(a, Action::Layout { .. } | Action::Place { .. })),
                        }
                    }
                    // Any action, demands included (their answers are made in place too).
                    let pick = actions[rng.random_range(0..actions.len())];
                    s.apply(pick);
                }
            }
            assert!(made > 10_000, "{name}: {made}");
        }
    }
}
