//! A lighter make/unmake for perft's next-to-last ply ([`State::make_leaf`]): before a bulk
//! count ([`State::count_leaves_with`]) only what that count reads needs to follow the move —
//! the position, and as the rules have them the face-down layer and identities (§F), the lost-type counts
//! that give flip rights (§S6), the king-piece markers (§K). Observation hashes, capture
//! records, grinding runs and the like are left alone; the state between `make_leaf` and
//! [`State::unmake_leaf`] is fit for that count only.

use super::super::config::{BulkCount, Hidden};
use super::{Action, State};
use crate::bitboard::Bitboard;
use crate::geometry::Square;
use crate::moves::Move;
use crate::piece::{Piece, Role};
use crate::position::{Counters, Undo};

/// What [`State::make_leaf`] changed.
pub struct LeafUndo {
    points: [Square; 2],
    pieces: [Option<Piece>; 2],
    /// The core's undo when the move was played on it (all but §K2 swaps).
    played: Option<Undo>,
    counters: Counters,
    down: Bitboard,
    identity: [Option<Role>; 2],
    marker: [Square; 2],
    lost: [[u8; Role::COUNT]; 2],
}

impl State {
    /// Applies the move `a` as far as the next ply's bulk count needs (see the module comment),
    /// or returns `None`, with the state unchanged, where the full [`State::make`] is needed:
    /// actions other than moves, moves that leave a chance node (§P2), and states whose next
    /// ply is not counted in bulk.
    pub fn make_leaf(&mut self, a: Action) -> Option<LeafUndo> {
        let Action::Move { from, to, turn_down, .. } = a else { return None };
        if self.pending.is_some() || self.agreement.is_some() || self.demand_pending || self.setup.is_some() {
            return None;
        }
        let us = self.pos.turn();
        let them = us.opponent();
        let mover = self.pos.piece_at(from)?;
        let target = self.pos.piece_at(to);
        let caps = self.variant.caps;
        let from_down = self.down.contains(from);
        let to_down = target.is_some() && self.down.contains(to);
        // An undetermined face-down piece revealed or captured is a chance node.
        if caps.face_down()
            && ((from_down && self.identity[from.index()].is_none()) || (to_down && self.identity[to.index()].is_none()))
        {
            return None;
        }
        // Its next ply is counted by actions (`count_leaves_with`).
        if caps.bulk == BulkCount::ByActions {
            return None;
        }
        let mut u = LeafUndo {
            points: [from, to],
            pieces: [Some(mover), target],
            played: None,
            counters: self.pos.counters(),
            down: self.down,
            identity: [self.identity[from.index()], self.identity[to.index()]],
            marker: self.marker,
            lost: self.lost,
        };
        let m = Move::new(from, to);
        if caps.king_pieces {
            self.make_leaf_king(a, &mut u);
            return Some(u);
        }
        match caps.hidden {
            Hidden::None => {
                u.played = Some(self.pos.play(m));
            }
            Hidden::BackFaces => {
                if let Some(t) = target {
                    if caps.lost_types && matches!(t.role, Role::Chariot | Role::Horse | Role::Cannon) {
                        self.lost[them.index()][t.role.index()] += 1;
                    }
                }
                u.played = Some(self.pos.play(m));
            }
            Hidden::FaceDown => {
                if to_down {
                    self.down.clear(to); // §F6: its identity is determined (checked above)
                    self.identity[to.index()] = None;
                }
                u.played = Some(self.pos.play(m));
                if from_down {
                    // §F2: it turns face-up as its true type.
                    self.down.clear(from);
                    let r = self.identity[from.index()].take();
                    self.pos.set_piece(to, r.map(|r| Piece::new(us, r)));
                }
                if turn_down {
                    // §F5 (as `State::turn_down`).
                    if let (Some(p), Some(point)) =
                        (self.pos.piece_at(to), self.variant.start_role[us.index()][to.index()])
                    {
                        self.identity[to.index()] = Some(p.role);
                        self.down.set(to);
                        self.pos.set_piece(to, Some(Piece::new(us, point)));
                    }
                }
            }
        }
        Some(u)
    }

    /// [`State::make_leaf`]'s king-chess move `a` (§K2-K5), with `u` filled in before.
    fn make_leaf_king(&mut self, a: Action, u: &mut LeafUndo) {
        let Action::Move { from, to, marker, .. } = a else { return };
        let us = self.pos.turn();
        let them = us.opponent();
        let [mover, target] = u.pieces;
        let is_king = from == self.marker[us.index()];
        let swap = !is_king
            && to == self.marker[them.index()]
            && matches!(target, Some(p) if matches!(p.role, Role::Chariot | Role::Horse | Role::Cannon));
        if swap {
            // §K2: the pieces change places; the enemy marker moves with its piece.
            self.pos.set_piece(to, mover);
            self.pos.set_piece(from, target);
            self.marker[them.index()] = from;
            self.pos.pass_turn(false);
        } else {
            if target.is_some() && to == self.marker[them.index()] {
                self.marker[them.index()] = self.pos.general(them); // §K5
            }
            u.played = Some(self.pos.play(Move::new(from, to)));
            if is_king {
                self.marker[us.index()] = to;
            }
        }
        if marker {
            self.marker[us.index()] = to; // §K4
        }
    }

    /// Takes back the last [`State::make_leaf`] that returned `u`.
    pub fn unmake_leaf(&mut self, u: &LeafUndo) {
        let [from, to] = u.points;
        match u.played {
            Some(played) => {
                // The moved piece back on `to` as it left `from` (a reveal or a turn-down
                // changed it), then the core's unmake.
                if self.pos.piece_at(to) != u.pieces[0] {
                    self.pos.set_piece(to, u.pieces[0]);
                }
                self.pos.unplay(Move::new(from, to), played);
            }
            None => {
                self.pos.set_piece(to, u.pieces[1]);
                self.pos.set_piece(from, u.pieces[0]);
                self.pos.restore_counters(u.counters);
            }
        }
        self.identity[from.index()] = u.identity[0];
        self.identity[to.index()] = u.identity[1];
        self.down = u.down;
        self.marker = u.marker;
        self.lost = u.lost;
    }
}

#[cfg(test)]
mod tests {
    use super::super::LeafCtx;
    use super::*;
    use crate::variant::config::{preset_names, Variant};
    use rand::{Rng, SeedableRng};

    /// Along random games of every preset, the bulk count after `make_leaf` equals the one
    /// after the full make, and `unmake_leaf` gives the state back (its position and layers).
    #[test]
    fn leaf_make_counts_as_full_make() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(9);
        for name in preset_names() {
            let v: &'static Variant = crate::any_game::load_variant(name).expect("preset");
            let ctx = LeafCtx::new(&State::new_game(v));
            let mut light = 0;
            for _ in 0..25 {
                let mut s = State::new_game(v);
                for _ in 0..150 {
                    if s.is_chance() {
                        let o = s.chance_outcomes();
                        s.apply_chance(o[rng.random_range(0..o.len())].0);
                        continue;
                    }
                    let actions = s.legal_actions();
                    if actions.is_empty() {
                        break;
                    }
                    for &a in &actions {
                        let mut c = s.clone();
                        if let Some(u) = c.make_leaf(a) {
                            let full = s.child(a);
                            assert!(!full.is_chance(), "{name}: {a:?} leaves a chance node");
                            assert_eq!(c.count_leaves_with(&ctx), full.count_leaves_with(&ctx), "{name}: {a:?}");
                            assert_eq!(c.marker, full.marker, "{name}: {a:?}");
                            c.unmake_leaf(&u);
                            assert!(c.pos == s.pos && c.pos.hash() == s.pos.hash(), "{name}: {a:?}");
                            assert_eq!(c.down, s.down, "{name}: {a:?}");
                            assert_eq!(c.identity, s.identity, "{name}: {a:?}");
                            assert_eq!(c.lost, s.lost, "{name}: {a:?}");
                            light += 1;
                        }
                    }
                    let pick = actions.iter().copied().filter(|a| !matches!(a, Action::Demand)).collect::<Vec<_>>();
                    if pick.is_empty() {
                        break;
                    }
                    s.apply(pick[rng.random_range(0..pick.len())]);
                }
            }
            assert!(light > 10_000, "{name}: {light}");
        }
    }
}
