//! Perft of every preset (RULES.md §P) on the counts that RULES.md and the contract state, plus
//! hand-checked depth-1/2 counts.

use engine::variant::{perft::perft, State, Variant};

fn variant(name: &str) -> &'static Variant {
    Box::leak(Box::new(Variant::load(name).expect("preset loads")))
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
