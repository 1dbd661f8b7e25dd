//! The variant rule table (issue #3 item 1): presets, inheritance, overrides, and rejection of
//! unknown keys and contradictory settings naming the key.

use engine::variant::config::{preset_names, CaptureKnowledge, Placement, TurnDown, VariantError};
use engine::variant::{Family, State, Variant};
use engine::Role;
use std::io::Write;

fn write_tmp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("anqi-variant-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let path = dir.join(name);
    let mut f = std::fs::File::create(&path).expect("create");
    f.write_all(text.as_bytes()).expect("write");
    path.to_string_lossy().into_owned()
}

#[test]
fn presets_are_the_fifteen_of_rules_md() {
    let names: Vec<&str> = preset_names().collect();
    let mut want = vec!["xiangqi", "surprise", "surprise-negotiation", "jieqi", "king"];
    let fanqi: Vec<String> = (1..=10).map(|i| format!("fanqi-{i}")).collect();
    want.extend(fanqi.iter().map(String::as_str));
    for w in &want {
        assert!(names.contains(w), "missing preset {w}");
    }
    assert_eq!(names.len(), 15);
}

#[test]
fn f9_jieqi_resolves_to_mode_10_without_turning_down() {
    let v = Variant::load("jieqi").expect("jieqi");
    assert_eq!(v.family, Family::Fanqi);
    assert_eq!(v.fanqi.mode, 10);
    assert_eq!(v.fanqi.turn_down, TurnDown::Off);
    assert!(v.fanqi.facedown_standard_region);
    assert_eq!(v.fanqi.placement(), Placement::Random);
    assert_eq!(v.fanqi.capture_knowledge, CaptureKnowledge::Default);
    assert!(v.random_reveals());
}

#[test]
fn user_file_inherits_and_overrides() {
    let v = Variant::load("../configs/variants/examples/surprise-two-rights.toml").expect("example loads");
    assert_eq!(v.name, "surprise-two-rights");
    assert_eq!(v.surprise.flip_rights, 2);
    assert_eq!(v.surprise.reveal_types, vec![Role::Horse, Role::Cannon]);
    assert_eq!(v.surprise.chariot_cost, 2, "inherited");
    // The start state honours the override: rights 2:0/2:0 in the §N3 FEN.
    let v: &'static Variant = Box::leak(Box::new(v));
    let s = State::start(v, Some(("A", "B"))).expect("start");
    assert!(engine::variant::fen::write(&s).ends_with(" 2:0/2:0"));
    // A file may inherit another file.
    let child = write_tmp("child.toml", "inherits = \"../configs/variants/examples/surprise-two-rights.toml\"\n[surprise]\nflip_rights = 1\n");
    let c = Variant::load(&child).expect("child loads");
    assert_eq!(c.surprise.flip_rights, 1);
    assert_eq!(c.surprise.reveal_types, vec![Role::Horse, Role::Cannon]);
}

#[test]
fn unknown_keys_are_rejected_naming_the_key() {
    let f = write_tmp("unknown.toml", "inherits = \"surprise\"\n[surprise]\nflip_rigths = 2\n");
    match Variant::load(&f) {
        Err(VariantError::UnknownKey { key, .. }) => assert_eq!(key, "surprise.flip_rigths"),
        other => panic!("expected UnknownKey, got {other:?}"),
    }
    let f = write_tmp("unknown_top.toml", "inherits = \"xiangqi\"\nboard = 11\n");
    assert!(matches!(Variant::load(&f), Err(VariantError::UnknownKey { key, .. }) if key == "board"));
}

#[test]
fn contradictions_and_bad_values_are_rejected_naming_the_key() {
    // A Fan-qi section on a Surprise variant.
    let f = write_tmp("contra.toml", "inherits = \"surprise\"\n[fanqi]\nmode = 3\n");
    assert!(matches!(Variant::load(&f), Err(VariantError::Contradiction { key, .. }) if key == "fanqi"));
    // Scores out of order.
    let f = write_tmp("scores.toml", "inherits = \"surprise-negotiation\"\n[surprise]\nscore_draw = 5\n");
    assert!(matches!(Variant::load(&f), Err(VariantError::Contradiction { key, .. }) if key == "surprise.score_draw"));
    // Mode out of range, wrong type, bad type letter.
    let f = write_tmp("mode.toml", "inherits = \"jieqi\"\n[fanqi]\nmode = 11\n");
    assert!(matches!(Variant::load(&f), Err(VariantError::BadValue { key, .. }) if key == "fanqi.mode"));
    let f = write_tmp("type.toml", "inherits = \"surprise\"\n[surprise]\nnegotiation = \"yes\"\n");
    assert!(matches!(Variant::load(&f), Err(VariantError::BadValue { key, .. }) if key == "surprise.negotiation"));
    let f = write_tmp("letter.toml", "inherits = \"surprise\"\n[surprise]\nflip_types = [\"K\"]\n");
    assert!(matches!(Variant::load(&f), Err(VariantError::BadValue { key, .. }) if key == "surprise.flip_types"));
    // Perpetual check judged without repetition.
    let f = write_tmp("rep.toml", "inherits = \"xiangqi\"\n[end]\nrepetition = false\nperpetual_check_loses = true\n");
    assert!(matches!(Variant::load(&f), Err(VariantError::Contradiction { key, .. }) if key == "end.perpetual_check_loses"));
    // Inheritance cycles and syntax errors.
    let a = write_tmp("cycle.toml", "");
    std::fs::write(&a, format!("inherits = \"{a}\"\n")).expect("write");
    assert!(matches!(Variant::load(&a), Err(VariantError::Cycle(..))));
    let f = write_tmp("syntax.toml", "inherits = \n");
    assert!(matches!(Variant::load(&f), Err(VariantError::Syntax { .. })));
    assert!(matches!(Variant::load("no-such-variant"), Err(VariantError::Unknown(..))));
}

#[test]
fn s10_rights_zero_is_standard_xiangqi_perft() {
    let f = write_tmp("zero.toml", "inherits = \"surprise\"\n[surprise]\nflip_rights = 0\n");
    let v: &'static Variant = Box::leak(Box::new(Variant::load(&f).expect("loads")));
    let s = State::start(v, Some(("C5", "A"))).expect("start");
    assert_eq!(engine::variant::perft::perft(&s, 3), 79666);
}

#[test]
fn show_prints_the_resolved_table() {
    let v = Variant::load("jieqi").expect("jieqi");
    let t = v.to_toml();
    assert!(t.contains("name = \"jieqi\""));
    assert!(t.contains("mode = 10"), "inherited from fanqi-10: {t}");
    assert!(t.contains("turn_down = \"off\""));
    assert!(t.contains("no_capture_plies = 120"), "inherited from xiangqi: {t}");
}
