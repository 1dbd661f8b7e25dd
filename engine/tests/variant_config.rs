//! The variant rule table (issue #3 item 1): presets, inheritance, overrides, and rejection of
//! unknown keys and contradictory settings naming the key.

use engine::variant::config::{preset_names, CaptureKnowledge, Placement, TurnDown, VariantError};
use engine::variant::{BulkCount, Family, Hidden, SetupKind, State, Variant};
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
    let v: &'static Variant = engine::any_game::load_variant(&f).expect("loads");
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

/// Issue #17 item 4: what the rules do is decided once per variant (`Variant::caps`); each preset's
/// table says what RULES.md gives its section and options.
#[test]
fn caps_say_what_each_preset_does() {
    let caps = |n: &str| Variant::load(n).expect(n).caps;
    let x = caps("xiangqi");
    assert_eq!((x.hidden, x.setup, x.bulk), (Hidden::None, SetupKind::None, BulkCount::Core));
    assert!(x.core_only && !x.flips && !x.demands && !x.king_pieces && !x.hidden_information && !x.chance_reveals);
    let s = caps("surprise");
    assert_eq!((s.hidden, s.setup, s.bulk), (Hidden::BackFaces, SetupKind::Layouts, BulkCount::CoreAndFlips));
    assert!(s.flips && s.discs() && !s.demands && s.hidden_information && !s.core_only && !s.chance_reveals);
    assert!(caps("surprise-negotiation").demands, "§S11");
    for mode in 1..=10 {
        let f = caps(&format!("fanqi-{mode}"));
        assert_eq!((f.hidden, f.bulk), (Hidden::FaceDown, BulkCount::FaceDown), "mode {mode}");
        assert!(f.face_down() && !f.flips && !f.demands && !f.king_pieces && !f.core_only, "mode {mode}");
        // §F3: owner's choice in 3, 5, 7, 9; random in 4, 6, 8, 10; nothing hidden in 1 and 2.
        let owner = [3, 5, 7, 9].contains(&mode);
        let random = mode >= 4 && mode % 2 == 0;
        assert_eq!(f.setup == SetupKind::Placement, owner, "mode {mode}");
        assert_eq!(f.chance_reveals, random, "mode {mode}");
        assert_eq!(f.hidden_information, owner || random, "mode {mode}");
    }
    assert!(caps("jieqi").chance_reveals, "§F9");
    // docs/open-twins.md §O3: an open twin's deal is made at the start, so no chance reveals;
    // it still answers for the hidden game it is the twin of.
    let open = caps("jieqi+open");
    assert!(!open.chance_reveals && open.hidden_information);
    let k = caps("king");
    assert_eq!((k.hidden, k.setup, k.bulk), (Hidden::None, SetupKind::None, BulkCount::KingPieces));
    assert!(k.king_pieces && !k.core_only && !k.flips && !k.hidden_information);
}
