//! Bulk leaf counts one decision ply below a decision node (perft's last ply, RULES.md §P1-P2):
//! the number of actions, each weighted by its chance outcomes, computed from the position
//! core's legal destinations piece by piece ([`Position::legal_targets`]) without building
//! actions. Every count equals the one [`State::visit_actions`] and
//! [`State::chance_multiplicity`] give (tested against them below).
//!
//! Which count applies is chosen once per variant ([`BulkCount`], in `Variant::caps`):
//!
//! - Core (xiangqi): the core's count (§P5: one action per core move).
//! - Core and flips (Surprise): the core's count plus the flips (§S4-S7), with the check found
//!   by the same pass.
//! - Face-down (Fan-qi, Jieqi): per piece, its destinations (face-down advisors and elephants
//!   bound to their standard regions, §F4), once more those where it may turn face-down (§F5),
//!   weighted by the distinct identities a reveal or a captured face-down piece may take (§P2).
//! - King pieces (King chess): legality with the enemy king piece giving no check (§K6) from
//!   the core on a copy where that piece cannot attack, no captures by the king piece (§K3), the
//!   marker transfer variants (§K4), and swaps with the enemy king piece (§K2).

use super::super::config::{BulkCount, TurnDown};
use super::{Action, State};
use crate::bitboard::Bitboard;
use crate::geometry::Square;
use crate::movegen::Counter;
use crate::moves::Move;
use crate::piece::{Color, Piece, Role};
use crate::position::Position;
use crate::rules::Rules;
use arrayvec::ArrayVec;

/// What the leaf counts need from the variant, derived once per perft (see [`LeafCtx::new`]).
#[derive(Clone, Debug)]
pub struct LeafCtx {
    /// §S10 visible faces that may flip.
    flip_types: ArrayVec<Role, { Role::COUNT }>,
    /// §S10 faces a flip may reveal.
    reveal_types: ArrayVec<Role, { Role::COUNT }>,
    /// §F5: own start points, by colour, onto which a piece may turn face-down (those of
    /// non-general types; of participating types under `turn_down = "participating"`).
    down_points: [Bitboard; 2],
    /// §F4 participating types as a mask by [`Role::index`] (`FanqiRules::participating`).
    participating: u8,
    /// §F4 types whose face-down pieces stay in their standard regions (`down_region_bound`).
    region_bound: u8,
}

fn role_mask(roles: &[Role]) -> u8 {
    roles.iter().fold(0, |m, r| m | 1 << r.index())
}

impl LeafCtx {
    /// Derives the masks for `s`'s variant.
    pub fn new(s: &State) -> LeafCtx {
        let v = s.variant;
        let participating = role_mask(&v.fanqi.participating());
        let mut down_points = [Bitboard::EMPTY; 2];
        for c in Color::ALL {
            for sq in v.rules.attacks.geometry.board {
                let Some(point) = v.start_role[c.index()][sq.index()] else { continue };
                let ok = point != Role::General
                    && (v.fanqi.turn_down != TurnDown::Participating || participating & 1 << point.index() != 0);
                if ok {
                    down_points[c.index()].set(sq);
                }
            }
        }
        LeafCtx {
            flip_types: Role::ALL.into_iter().filter(|r| v.surprise.flip_types.contains(r)).collect(),
            reveal_types: Role::ALL.into_iter().filter(|r| v.surprise.reveal_types.contains(r)).collect(),
            down_points,
            participating,
            region_bound: role_mask(&Role::ALL.into_iter().filter(|&r| s.down_region_bound(r)).collect::<Vec<_>>()),
        }
    }
}

impl State {
    /// Leaves one decision ply below this decision node (§P1-P2): every action except a
    /// negotiation demand (§P5), weighted by its [`State::chance_multiplicity`].
    pub fn count_leaves_one_ply(&self) -> u64 {
        self.count_leaves_with(&LeafCtx::new(self))
    }

    /// [`State::count_leaves_one_ply`] with the variant's masks derived once (perft).
    pub fn count_leaves_with(&self, ctx: &LeafCtx) -> u64 {
        let plain = self.pending.is_none() && self.agreement.is_none() && !self.demand_pending && self.setup.is_none();
        if plain {
            match self.variant.caps.bulk {
                // Every core move is one action (§P5): the core's bulk count applies.
                BulkCount::Core => return self.pos.count_legal() as u64,
                BulkCount::CoreAndFlips => {
                    let (moves, in_check) = self.pos.count_legal_and_check();
                    return moves as u64 + self.count_flips(ctx, in_check);
                }
                BulkCount::FaceDown => return self.count_fanqi(ctx),
                BulkCount::KingPieces => return self.count_king(),
                BulkCount::ByActions => {}
            }
        }
        self.count_leaves_by_actions()
    }

    /// The reference count: every generated action but a demand, times its chance outcomes.
    fn count_leaves_by_actions(&self) -> u64 {
        let mut n = 0;
        self.visit_actions(&mut |a| {
            if !matches!(a, Action::Demand) {
                n += self.chance_multiplicity(a);
            }
        });
        n
    }

    /// The number of §S4-S7 flips of the side to move (as [`State::flip_actions`] generates).
    fn count_flips(&self, ctx: &LeafCtx, in_check: bool) -> u64 {
        let s = &self.variant.surprise;
        let us = self.pos.turn();
        let ui = us.index();
        let rights = self.rights[ui];
        if s.flip_rights == 0 || rights == 0 || in_check {
            return 0; // §S7: a flip never resolves a check
        }
        // Faces a flip may reveal now: §S10 types, §S5 rights and chariot limit, §S6 history
        // and the two-of-a-type limit.
        let mut reveal = 0u8;
        for &r in &ctx.reveal_types {
            let bit = 1 << r.index();
            let chariot = r == Role::Chariot;
            let cost = if chariot { s.chariot_cost } else { 1 };
            let on_board = self.pos.pieces(us, r).0;
            let ok = rights >= cost
                && !(chariot && self.chariot_reveals[ui] >= s.chariot_reveal_limit)
                && !(s.flip_right_by_history && self.lost[ui][r.index()] == 0)
                && on_board & on_board.wrapping_sub(1) == 0; // fewer than two
            if ok {
                reveal |= bit;
            }
        }
        if reveal == 0 {
            return 0;
        }
        let mut candidates = Bitboard::EMPTY;
        for &r in &ctx.flip_types {
            candidates |= self.pos.pieces(us, r);
        }
        if s.flip_once_per_disc {
            candidates &= !self.flipped;
        }
        let mut n = 0;
        for sq in candidates {
            if let Some(hidden) = self.back[sq.index()] {
                n += u64::from(reveal >> hidden.index() & 1);
            }
        }
        n
    }

    /// Fan-qi (§F2-F5, chance weights §P2); see the module comment.
    fn count_fanqi(&self, ctx: &LeafCtx) -> u64 {
        let f = &self.variant.fanqi;
        if self.down.is_empty() && f.turn_down == TurnDown::Off {
            return self.pos.count_legal() as u64; // Jieqi with every piece face-up
        }
        let us = self.pos.turn();
        let them = us.opponent();
        let distinct = |c: Color| (self.pool[c.index()].iter().filter(|&&n| n > 0).count() as u64).max(1);
        let (dm, dt) = if self.pool == [[0; Role::COUNT]; 2] { (1, 1) } else { (distinct(us), distinct(them)) };
        let enemy = self.pos.by_color(them);
        let mut down_points = if f.turn_down == TurnDown::Off { Bitboard::EMPTY } else { ctx.down_points[us.index()] };
        if f.turn_down_quiet_only {
            down_points &= !enemy;
        }
        let own = self.pos.by_color(us);
        // Every action weighs 1 and every face-down piece moves as the core says: one pass of
        // the core's counter, moves of the pieces that may turn face-down counted twice onto
        // the points where they may.
        let mut region_bound = Bitboard::EMPTY;
        for r in [Role::Advisor, Role::Elephant] {
            if ctx.region_bound & 1 << r.index() != 0 {
                region_bound |= self.pos.pieces(us, r);
            }
        }
        if dm == 1 && dt == 1 && (region_bound & self.down).is_empty() && f.turn_down != TurnDown::Participating {
            let mut movers = own & !(self.pos.pieces(us, Role::General) & !self.down);
            if f.turn_down_not_just_revealed {
                movers &= !self.down;
            }
            return self.pos.count_legal_plus(movers, down_points).0 as u64;
        }
        let std_regions = &Rules::standard().region[us.index()];
        // Capturing one of these needs its identity drawn (dt outcomes).
        let mut undetermined = Bitboard::EMPTY;
        if dt > 1 {
            for sq in self.down & enemy {
                if self.identity[sq.index()].is_none() {
                    undetermined.set(sq);
                }
            }
        }
        let participating = |r: Role| ctx.participating & 1 << r.index() != 0;
        // Under "participating", an undetermined mover may turn face-down only if every type it
        // may turn out to be participates.
        let pool_participates =
            Role::ALL.into_iter().all(|r| self.pool[us.index()][r.index()] == 0 || participating(r));
        let mut counter = Counter::new();
        let mut weighted = 0u64;
        self.pos.legal_targets(|from, targets| {
            let Some(p) = self.pos.piece_at(from) else { return };
            let from_down = self.down.contains(from);
            let mut t = targets;
            let mut undetermined_mover = false;
            if from_down {
                if self.down_region_bound(p.role) {
                    t &= std_regions[p.role.index()];
                }
                undetermined_mover = self.identity[from.index()].is_none();
            }
            // §F5 (as `State::can_turn_down`).
            let may_turn_down = (p.role != Role::General || from_down)
                && !(f.turn_down_not_just_revealed && from_down)
                && (f.turn_down != TurnDown::Participating
                    || match (from_down, self.identity[from.index()]) {
                        (false, _) => participating(p.role),
                        (true, Some(r)) => participating(r),
                        (true, None) => pool_participates,
                    });
            let td = if may_turn_down { t & down_points } else { Bitboard::EMPTY };
            if !undetermined_mover && (t & undetermined).is_empty() {
                counter.add(t);
                counter.add(td);
            } else {
                let m = if undetermined_mover { dm } else { 1 };
                let extra = dt - 1;
                let plain = u64::from(t.count()) + extra * u64::from((t & undetermined).count());
                let down = u64::from(td.count()) + extra * u64::from((td & undetermined).count());
                weighted += m * (plain + down);
            }
        });
        counter.finish() as u64 + weighted
    }

    /// King chess (§K2-K6); see the module comment.
    fn count_king(&self) -> u64 {
        let us = self.pos.turn();
        let them = us.opponent();
        let king_sq = self.marker[us.index()];
        let their_king = self.marker[them.index()];
        let occ = self.pos.occupied();
        // While the enemy king piece is not its general it gives no check (§K6): the core
        // decides legality on a copy where that piece cannot attack (an advisor, which never
        // attacks the general when minor pieces cannot reach it).
        let scratch;
        let pos = if their_king != self.pos.general(them) {
            let mut p = self.pos.clone();
            p.set_piece(their_king, Some(Piece::new(them, Role::Advisor)));
            scratch = p;
            &scratch
        } else {
            &self.pos
        };
        let target = self.pos.piece_at(their_king);
        let swappable = matches!(target, Some(p) if matches!(p.role, Role::Chariot | Role::Horse | Role::Cannon));
        let swap_point = if swappable { Bitboard::from_square(their_king) } else { Bitboard::EMPTY };
        let mut counter = Counter::new();
        let in_check = pos.legal_targets(|from, t| {
            if from == king_sq {
                counter.add(t & !occ); // §K3: the king piece never captures
            } else {
                // Moves onto the enemy king piece are swaps, counted below; every other move
                // may also carry the marker when quiet (§K4).
                let t = t & !swap_point;
                counter.add(t);
                counter.add(t & !occ);
            }
        });
        let mut n = counter.finish() as u64;
        if swappable {
            // §K2: a swap leaves every point occupied as before, and the enemy king piece
            // still gives no check, so it is legal unless the general is attacked already;
            // a swap by the general itself is tested in full.
            let general = self.pos.general(us);
            for from in pseudo_movers_to(&self.pos, their_king) & !Bitboard::from_square(king_sq) {
                let legal = if from == general {
                    !self.king_move_exposes_general(Move::new(from, their_king), target)
                } else {
                    !in_check
                };
                if legal {
                    n += 2; // with and without the marker (§K4)
                }
            }
        }
        n
    }
}

/// The pieces of the side to move with a pseudo-legal move to the enemy-occupied point `to`
/// (as [`Position::pseudo_legal_moves`]: move shapes, legs and eyes, screens, regions).
fn pseudo_movers_to(pos: &Position, to: Square) -> Bitboard {
    let us = pos.turn();
    let ui = us.index();
    let rules = pos.rules();
    let a = rules.attacks;
    let occ = pos.occupied();
    let ti = to.index();
    let region = |r: Role| rules.region[ui][r.index()].contains(to);
    let mut from = (a.chariot(to, occ) & pos.pieces(us, Role::Chariot))
        | (a.cannon_captures(to, occ) & pos.pieces(us, Role::Cannon));
    if region(Role::Horse) {
        from |= a.horse_attackers(to, occ) & pos.pieces(us, Role::Horse);
    }
    if region(Role::Soldier) {
        from |= a.soldier_from[ui][ti] & pos.pieces(us, Role::Soldier);
    }
    if region(Role::Advisor) {
        from |= a.diagonal[ti] & pos.pieces(us, Role::Advisor);
    }
    if region(Role::Elephant) {
        from |= a.elephant_targets(to, occ) & pos.pieces(us, Role::Elephant);
    }
    if region(Role::General) {
        from |= a.orthogonal[ti] & pos.pieces(us, Role::General);
    }
    from
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::config::{preset_names, Variant};
    use rand::{Rng, SeedableRng};

    /// At every node of random games of every preset (set-up choices drawn at random too), the
    /// bulk count equals the count by actions; the games reach the cases the bulk counts treat
    /// apart (checks, flips, turning face-down, chance weights, swaps, a moved marker).
    #[test]
    fn bulk_counts_match_actions() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
        for name in preset_names() {
            let v: &'static Variant = crate::any_game::load_variant(name).expect("preset");
            bulk_counts_match_actions_in(name, v, &mut rng);
        }
    }

    /// The same under §F5 [R] `turn_down = "participating"`, which no preset uses: only
    /// participating types turn face-down, onto participating types' points (with
    /// seed_class_one's R N C set in mode 2, and with face-down pieces drawn by chance).
    #[test]
    fn bulk_counts_match_actions_turning_down_participating_types() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(12);
        let dir = std::env::temp_dir().join(format!("anqi-leaves-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("tmp dir");
        for (base, extra) in [("fanqi-1", ""), ("fanqi-2", "seed_class_one = true\n"), ("fanqi-4", ""), ("fanqi-8", "")] {
            let path = dir.join(format!("{base}-participating.toml"));
            let text = format!("inherits = \"{base}\"\n[fanqi]\nturn_down = \"participating\"\n{extra}");
            std::fs::write(&path, text).expect("write");
            let v = Variant::load(&path.to_string_lossy()).expect("loads");
            assert_eq!(v.fanqi.turn_down, TurnDown::Participating);
            let v: &'static Variant = Box::leak(Box::new(v));
            bulk_counts_match_actions_in(base, v, &mut rng);
        }
    }

    /// [`bulk_counts_match_actions`] for one variant.
    fn bulk_counts_match_actions_in(name: &str, v: &'static Variant, rng: &mut rand_pcg::Pcg64) {
        let ctx = LeafCtx::new(&State::new_game(v));
        let mut nodes = 0;
        // Nodes in check, with a flip, a turn-down, a chance-weighted action, a swap, and
        // with the enemy marker off its general.
        let mut seen = [0u32; 6];
        for _ in 0..60 {
            let mut s = State::new_game(v);
            for _ in 0..200 {
                if s.is_chance() {
                    let o = s.chance_outcomes();
                    let i = rng.random_range(0..o.len());
                    s.apply_chance(o[i].0);
                    continue;
                }
                assert_eq!(s.count_leaves_with(&ctx), s.count_leaves_by_actions(), "{name}");
                nodes += 1;
                let acts: Vec<Action> = s.legal_actions().into_iter().filter(|a| !matches!(a, Action::Demand)).collect();
                if acts.is_empty() {
                    break;
                }
                if !s.in_setup() {
                    let them = s.position().turn().opponent();
                    let their_king = s.marker(them);
                    seen[0] += u32::from(s.position().in_check());
                    seen[1] += u32::from(acts.iter().any(|a| matches!(a, Action::Flip { .. })));
                    seen[2] += u32::from(acts.iter().any(|a| matches!(a, Action::Move { turn_down: true, .. })));
                    seen[3] += u32::from(acts.iter().any(|&a| s.chance_multiplicity(a) > 1));
                    seen[4] += u32::from(acts.iter().any(|a| {
                        matches!(a, Action::Move { to, .. } if *to == their_king)
                            && matches!(s.position().piece_at(their_king), Some(p) if matches!(p.role, Role::Chariot | Role::Horse | Role::Cannon))
                    }));
                    seen[5] += u32::from(their_king != s.position().general(them));
                }
                s.apply(acts[rng.random_range(0..acts.len())]);
            }
        }
        assert!(nodes > 1000, "{name}: {nodes}");
        assert!(seen[0] > 0, "{name}: no check");
        if v.caps.flips {
            assert!(seen[1] > 0, "{name}: no flip");
        }
        if v.caps.face_down() && v.fanqi.turn_down != TurnDown::Off {
            assert!(seen[2] > 0, "{name}: no turn-down");
        }
        if v.caps.king_pieces {
            assert!(seen[4] > 0 && seen[5] > 0, "{name}: no swap or moved marker: {seen:?}");
        }
        if v.random_reveals() {
            assert!(seen[3] > 0, "{name}: no chance weights");
        }
    }
}
