//! Perft of every preset (RULES.md §P) on the counts that RULES.md and the contract state, plus
//! hand-checked depth-1/2 counts.

use engine::variant::{perft::perft, State, Variant};

fn variant(name: &str) -> &'static Variant {
    engine::any_game::load_variant(name).expect("preset loads")
}

#[test]
fn p3_jieqi_identity_equals_standard_to_depth_3() {
    let v = variant("jieqi");
    let mut s = State::start(v, None).expect("start");
    s.make_identity();
    assert_eq!(perft(&s, 1), 44);
    assert_eq!(perft(&s, 2), 1920);
    assert_eq!(perft(&s, 3), 79666);
}

#[test]
fn p2_jieqi_chance_depth_1() {
    // 41 quiet moves x 6 reveal types + 2 cannon captures x 6 x 6 + 1 general move.
    let s = State::start(variant("jieqi"), None).expect("start");
    assert_eq!(perft(&s, 1), 41 * 6 + 2 * 36 + 1);
}

#[test]
fn p4_surprise_layouts_a_b_depth_2() {
    let s = State::start(variant("surprise"), Some(("A", "B"))).expect("start");
    assert_eq!(perft(&s, 1), 44);
    // After either cannon takes a horse, Black may flip either chariot (hiding horses in B).
    assert_eq!(perft(&s, 2), 1924);
}

#[test]
fn p5_king_depth_1() {
    let s = State::start(variant("king"), None).expect("start");
    assert_eq!(perft(&s, 1), 41 * 2 + 2 + 1);
}

#[test]
fn p5_negotiation_perft_equals_surprise() {
    let a = State::start(variant("surprise"), Some(("C3", "A"))).expect("start");
    let b = State::start(variant("surprise-negotiation"), Some(("C3", "A"))).expect("start");
    assert_eq!(perft(&a, 2), perft(&b, 2));
}

#[test]
fn every_preset_loads_and_has_moves() {
    for name in engine::variant::config::preset_names() {
        let s = State::start(variant(name), None).expect(name);
        assert!(perft(&s, 1) > 0, "{name}");
    }
}

#[test]
fn p4_setup_actions_surprise_layouts_are_secret() {
    use engine::variant::state::LAYOUT_NAMES;
    use engine::variant::Action;
    let v = variant("surprise");
    let s = State::new_game(v);
    assert!(s.in_setup());
    assert_eq!(s.turn(), engine::Color::Red);
    let acts = s.legal_actions();
    assert_eq!(acts.len(), 10);
    let s1 = s.child(Action::Layout { index: 4 }); // Red: C3
    assert_eq!(s1.turn(), engine::Color::Black);
    // Black's view cannot tell Red's choices apart: same key after any Red layout.
    let keys: std::collections::BTreeSet<u64> =
        (0..10u8).map(|i| engine::variant::View::new(&s.child(Action::Layout { index: i }), engine::Color::Black).infoset_key()).collect();
    assert_eq!(keys.len(), 1);
    let s2 = s1.child(Action::Layout { index: 1 }); // Black: B
    assert!(!s2.in_setup());
    let direct = State::start(v, Some((LAYOUT_NAMES[4], "B"))).expect("start");
    assert_eq!(engine::variant::fen::write(&s2), engine::variant::fen::write(&direct));
    assert_eq!(perft(&s2, 2), perft(&direct, 2));
}

#[test]
fn f3_owner_placement_as_actions() {
    use engine::variant::Action;
    use engine::Role;
    let v = variant("fanqi-9");
    let mut s = State::new_game(v);
    let mut placed = 0;
    while s.in_setup() {
        let acts = s.legal_actions();
        assert!(!acts.is_empty());
        // Place the last type offered (deterministic, not the identity arrangement).
        s.apply(*acts.last().expect("non-empty"));
        placed += 1;
    }
    assert_eq!(placed, 30, "15 face-down points per side");
    let f = engine::variant::fen::write(&s);
    assert!(f.contains(" - 0 1 "), "pool empty once placed: {f}");
    assert!(s.legal_actions().iter().all(|a| matches!(a, Action::Move { .. })));
    let _ = Role::Soldier;
}
