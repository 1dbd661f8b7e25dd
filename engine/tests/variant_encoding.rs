//! The encoder on hand-made positions (docs/encoding.md), the action index over random games of
//! every family, and the rule that the observation depends only on the acting player's view.

use engine::variant::{fen as vfen, Action, State, Variant, View};
use engine::{Color, Role, Square};
use engine::variant::encoding::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::collections::HashSet;

fn variant(name: &str) -> &'static Variant {
    engine::any_game::load_variant(name).expect("preset")
}

fn sq(s: &str) -> Square {
    Square::parse(s).expect("square")
}

fn at(obs: &[f32], plane: usize, s: &str, player: Color) -> f32 {
    obs[plane * POINTS + point(sq(s), player)]
}

fn hidden(role: Role) -> usize {
    role.index() - 1
}

#[test]
fn surprise_start_from_red() {
    // Red layout A (chariots hide cannons, horses chariots, cannons horses), Black layout B.
    let v = variant("surprise");
    let s = State::start(v, Some(("A", "B"))).expect("start");
    let obs = encode(&View::new(&s, Color::Red));
    assert_eq!(obs.len(), OBS_LEN);
    assert_eq!(at(&obs, P_OWN + Role::General.index(), "e0", Color::Red), 1.0);
    assert_eq!(at(&obs, P_OWN + Role::Chariot.index(), "a0", Color::Red), 1.0);
    assert_eq!(at(&obs, P_OPP + Role::Chariot.index(), "a9", Color::Red), 1.0);
    assert_eq!(at(&obs, P_OPP + Role::Soldier.index(), "e6", Color::Red), 1.0);
    // Own backs are known exactly (§S2 layout A).
    assert_eq!(at(&obs, P_OWN_HIDDEN + hidden(Role::Cannon), "a0", Color::Red), 1.0);
    assert_eq!(at(&obs, P_OWN_HIDDEN + hidden(Role::Chariot), "b0", Color::Red), 1.0);
    assert_eq!(at(&obs, P_OWN_HIDDEN + hidden(Role::Horse), "b2", Color::Red), 1.0);
    // The opponent's backs are beliefs: over the 10 layouts each chariot hides a horse in 5 and a
    // cannon in 5 (A: cannon, B: horse, C1..C8: 4 and 4), whatever Black really chose.
    assert_eq!(at(&obs, P_OPP_HIDDEN + hidden(Role::Horse), "a9", Color::Red), 0.5);
    assert_eq!(at(&obs, P_OPP_HIDDEN + hidden(Role::Cannon), "a9", Color::Red), 0.5);
    assert_eq!(at(&obs, P_OPP_HIDDEN + hidden(Role::Chariot), "a9", Color::Red), 0.0);
    assert_eq!(at(&obs, P_OPP_HIDDEN + hidden(Role::Chariot), "b7", Color::Red), 0.5);
    // Nothing exposed yet, nothing face-down, no markers.
    for p in [P_OWN_EXPOSED, P_OPP_EXPOSED, P_OWN_DOWN, P_OPP_DOWN, P_OWN_MARKER, P_OPP_MARKER] {
        assert!(obs[p * POINTS..(p + 1) * POINTS].iter().all(|&x| x == 0.0), "plane {p}");
    }
    // Constant planes.
    let constant = |p: usize| {
        let x = obs[p * POINTS];
        assert!(obs[p * POINTS..(p + 1) * POINTS].iter().all(|&y| y == x), "plane {p} constant");
        x
    };
    assert_eq!(constant(P_IS_RED), 1.0);
    assert_eq!(constant(P_OWN_RIGHTS), 1.0);
    assert_eq!(constant(P_OPP_RIGHTS), 1.0);
    assert_eq!(constant(P_OWN_CHARIOT_REVEALS), 0.0);
    assert_eq!(constant(P_NO_CAPTURE), 0.0);
    assert_eq!(constant(P_DEMAND), 0.0);
    assert_eq!(constant(P_ONES), 1.0);
    assert!((constant(P_MOVE_NUMBER) - 1.0 / 150.0).abs() < 1e-6);
}

#[test]
fn black_sees_the_board_from_its_own_side() {
    let v = variant("surprise");
    let s = vfen::parse(
        v,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1 a0=C,b0=R,h0=R,i0=C,b2=N,h2=N,b7=r,h7=r,a9=n,b9=c,h9=c,i9=n 3:0/2:0",
    )
    .expect("fen");
    let obs = encode(&View::new(&s, Color::Black));
    // Black's general e9 is on Black's row 0.
    assert_eq!(obs[(P_OWN + Role::General.index()) * POINTS + 4], 1.0);
    assert_eq!(obs[(P_OPP + Role::General.index()) * POINTS + 9 * FILES + 4], 1.0);
    assert_eq!(at(&obs, P_OWN_HIDDEN + hidden(Role::Horse), "a9", Color::Black), 1.0);
    assert_eq!(obs[P_IS_RED * POINTS], 0.0);
    assert!((obs[P_OWN_RIGHTS * POINTS] - 2.0 / 3.0).abs() < 1e-6);
    assert_eq!(obs[P_OPP_RIGHTS * POINTS], 1.0);
    // The same slot means the same move for either colour, seen from its own side: Red's h2e2
    // and Black's h7e7 are both "cannon from row 2 to the centre".
    let red = Action::Move { from: sq("h2"), to: sq("e2"), turn_down: false, marker: false };
    let black = Action::Move { from: sq("h7"), to: sq("e7"), turn_down: false, marker: false };
    assert_eq!(action_index(red, Color::Red), action_index(black, Color::Black));
}

#[test]
fn observation_depends_only_on_the_view() {
    // Red's hidden layout differs; Black sees the same thing, so the encodings are equal.
    let v = variant("surprise");
    for (a, b) in [("A", "C1"), ("B", "C8"), ("C3", "C6")] {
        let s1 = State::start(v, Some((a, "A"))).expect("start");
        let s2 = State::start(v, Some((b, "A"))).expect("start");
        assert_eq!(encode(&View::new(&s1, Color::Black)), encode(&View::new(&s2, Color::Black)));
        assert_ne!(encode(&View::new(&s1, Color::Red)), encode(&View::new(&s2, Color::Red)));
    }
}

#[test]
fn flip_exposes_the_back_and_spends_rights() {
    // A Red horse on b2 hides a chariot (layout A); Red lost a chariot so may reveal one (§S6).
    let v = variant("surprise");
    let s = vfen::parse(
        v,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1 b0=R,h0=R,i0=C,b2=N,h2=N,b7=r,h7=r,a9=n,b9=c,h9=c,i9=n 3:0/3:0",
    )
    .expect("fen");
    let flip = Action::Flip { at: sq("b0") };
    assert!(s.legal_actions().contains(&flip), "{:?}", s.legal_actions());
    let t = s.child(flip);
    let red = encode(&View::new(&t, Color::Red));
    let black = encode(&View::new(&t, Color::Black));
    // b0 now shows a chariot; its back (a horse) is known to both.
    assert_eq!(at(&red, P_OWN + Role::Chariot.index(), "b0", Color::Red), 1.0);
    assert_eq!(at(&red, P_OWN_HIDDEN + hidden(Role::Horse), "b0", Color::Red), 1.0);
    assert_eq!(at(&red, P_OWN_EXPOSED, "b0", Color::Red), 1.0);
    assert_eq!(at(&black, P_OPP_HIDDEN + hidden(Role::Horse), "b0", Color::Black), 1.0);
    assert_eq!(at(&black, P_OPP_EXPOSED, "b0", Color::Black), 1.0);
    // A chariot reveal costs 2 of 3 rights (§S5) and uses the one chariot reveal.
    assert!((black[P_OPP_RIGHTS * POINTS] - 1.0 / 3.0).abs() < 1e-6);
    assert_eq!(black[P_OPP_CHARIOT_REVEALS * POINTS], 1.0);
}

#[test]
fn jieqi_start_face_down_beliefs() {
    let v = variant("jieqi");
    let s = State::start(v, None).expect("start");
    let obs = encode(&View::new(&s, Color::Red));
    let down: f32 = obs[P_OWN_DOWN * POINTS..(P_OWN_DOWN + 1) * POINTS].iter().sum();
    assert_eq!(down, 15.0, "every Red piece but the general starts face-down (§F3 mode 10)");
    // A face-down piece on a soldier point moves as a soldier; its identity is the pool's
    // distribution: 5 soldiers of 15, 2 chariots of 15.
    assert_eq!(at(&obs, P_OWN + Role::Soldier.index(), "a3", Color::Red), 1.0);
    assert!((at(&obs, P_OWN_HIDDEN + hidden(Role::Soldier), "a3", Color::Red) - 5.0 / 15.0).abs() < 1e-6);
    assert!((at(&obs, P_OWN_HIDDEN + hidden(Role::Chariot), "a3", Color::Red) - 2.0 / 15.0).abs() < 1e-6);
    assert!((at(&obs, P_OPP_HIDDEN + hidden(Role::Advisor), "d9", Color::Red) - 2.0 / 15.0).abs() < 1e-6);
    assert_eq!(obs[(P_OWN_UNSEEN + hidden(Role::Soldier)) * POINTS], 1.0);
    assert_eq!(obs[(P_OPP_UNSEEN + hidden(Role::Chariot)) * POINTS], 1.0);
}

#[test]
fn king_markers_and_runs() {
    let v = variant("king");
    let s = State::start(v, None).expect("start");
    let mv = Action::Move { from: sq("h2"), to: sq("h4"), turn_down: false, marker: false };
    let t = s.child(mv);
    let obs = encode(&View::new(&t, Color::Black));
    assert_eq!(at(&obs, P_OWN_MARKER, "e9", Color::Black), 1.0);
    assert_eq!(at(&obs, P_OPP_MARKER, "e0", Color::Black), 1.0);
    assert!((at(&obs, P_OPP_RUN, "h4", Color::Black) - 1.0 / 6.0).abs() < 1e-6, "a run of 1 of 6 (§K7)");
}

fn playouts(name: &str, games: usize, plies: usize, mut f: impl FnMut(&State)) {
    let v = variant(name);
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    for _ in 0..games {
        let mut s = State::start(v, if name.starts_with("surprise") { Some(("C2", "B")) } else { None }).expect("start");
        for _ in 0..plies {
            if s.is_chance() {
                let outs = s.chance_outcomes();
                s.apply_chance(outs[rng.random_range(0..outs.len())].0);
            }
            let acts = s.legal_actions();
            if acts.is_empty() {
                break;
            }
            f(&s);
            s.apply(acts[rng.random_range(0..acts.len())]);
        }
    }
}

#[test]
fn action_index_is_a_bijection_on_legal_actions() {
    for name in ["xiangqi", "surprise", "surprise-negotiation", "jieqi", "fanqi-2", "fanqi-3", "king"] {
        let mut positions = 0;
        playouts(name, 6, 120, |s| {
            let me = s.turn();
            let acts = s.legal_actions();
            let slots: HashSet<usize> = acts.iter().map(|&a| action_index(a, me)).collect();
            assert_eq!(slots.len(), acts.len(), "{name}: distinct slots");
            for &a in &acts {
                let i = action_index(a, me);
                assert!(i < ACTIONS);
                assert_eq!(index_action(i, me), Some(a), "{name}");
            }
            let mask = legal_mask(s);
            assert_eq!(mask.iter().filter(|&&x| x == 1.0).count(), acts.len());
            positions += 1;
        });
        assert!(positions > 100, "{name}: {positions}");
    }
}

#[test]
fn compact_observation_round_trips() {
    for name in ["surprise", "jieqi", "king"] {
        playouts(name, 3, 80, |s| {
            let dense = encode(&View::new(s, s.turn()));
            let c = CompactObs::from_dense(&dense);
            assert!(c.in_range());
            assert!(c.cells.len() + c.fills.len() < 400, "{name}: compact ({} cells)", c.cells.len());
            let mut back = vec![7.0; OBS_LEN];
            c.expand_into(&mut back);
            assert_eq!(back, dense);
        });
    }
}
