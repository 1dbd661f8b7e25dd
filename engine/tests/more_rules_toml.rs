//! Rule files of the RULES-more.md games (`engine::more::config`): every preset's printed table
//! loads back to the same rules, options change the game, and bad files name the bad key.

use engine::more::presets::{self, perft, presets as all_presets};
use engine::more::{MoreError, MoreVariant};

fn write_tmp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("anqi-more-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write temp file");
    path.to_string_lossy().into_owned()
}

/// Same family and same rules: the full rule tables agree past their name and description
/// lines (a test of every game of the registry, with no arm per game).
fn rules_eq(a: &MoreVariant, b: &MoreVariant) -> bool {
    let table = |v: &MoreVariant| v.to_toml().split_once("[rules]").map(|(_, r)| r.to_string());
    a.family() == b.family() && table(a).is_some() && table(a) == table(b)
}

#[test]
fn every_preset_round_trips_through_its_printed_table() {
    let names: Vec<&str> = all_presets().into_iter().map(|(n, _)| n).collect();
    // Every preset of every game in the registry, each once.
    assert_eq!(names.len(), engine::more::FAMILIES.iter().map(|f| f.presets.len()).sum::<usize>());
    assert_eq!(names.iter().collect::<std::collections::HashSet<_>>().len(), names.len());
    for name in names {
        let preset = MoreVariant::preset(name).expect("preset");
        let text = presets::describe(name).expect("describe");
        assert!(text.contains("[rules]"), "{name}: {text}");
        let back = MoreVariant::from_toml(&text, "printed.toml").unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert!(rules_eq(&preset, &back), "{name}: {preset:?} vs {back:?}\n{text}");
        assert_eq!(back.name(), name);
        assert_eq!(back.description(), preset.description());
        // The printed file also resolves as a path and routes like the preset.
        let path = write_tmp(&format!("{name}.toml"), &text);
        assert!(presets::is_spec(&path));
        assert!(rules_eq(&preset, &MoreVariant::resolve(&path).expect("resolve")));
    }
}

#[test]
fn fighter_block_option_changes_legal_moves() {
    // From the §3.6 array, two plies deep: the flag reading of §3.9 #4 (any two of the three
    // long-side points block) blocks fighter moves the default (both points ahead) allows.
    let default = write_tmp("fb-default.toml", "base = \"missile\"\n");
    let flag = write_tmp("fb-flag.toml", "base = \"missile\"\n[rules]\nfighter_block = \"any-two-of-three\"\n");
    let (_, a) = perft(&default, None, 2, false).expect("perft");
    let (_, b) = perft(&flag, None, 2, false).expect("perft");
    let (_, preset) = perft("missile", None, 2, false).expect("perft");
    assert_eq!(a, preset, "a file with no overrides plays the preset");
    assert_ne!(a, b, "the flag reading of §3.9 #4 blocks more fighter moves");
    assert!(b < a);
}

#[test]
fn unknown_keys_are_errors_naming_file_and_key() {
    let path = write_tmp("bad-key.toml", "base = \"missile\"\n[rules]\nfighter_blok = \"two-ahead\"\n");
    match MoreVariant::resolve(&path) {
        Err(MoreError::RulesFile { file, key, problem }) => {
            assert_eq!(file, path);
            assert_eq!(key, "rules.fighter_blok");
            assert!(problem.contains("fighter_block"), "{problem}");
        }
        other => panic!("expected a rules-file error, got {other:?}"),
    }
    let msg = presets::perft(&path, None, 1, false).expect_err("bad file").to_string();
    assert!(msg.contains("fighter_blok") && msg.contains(&path), "{msg}");
    let top = MoreVariant::from_toml("base = \"skill\"\nboard = \"a\"\n", "top.toml").expect_err("top-level unknown");
    assert!(top.to_string().contains("top.toml: board"), "{top}");
}

#[test]
fn bad_values_name_the_key_and_the_allowed_values() {
    let e = MoreVariant::from_toml("base = \"missile\"\n[rules]\nbase_reading = \"wide\"\n", "v.toml").expect_err("bad enum");
    let msg = e.to_string();
    assert!(msg.contains("rules.base_reading") && msg.contains("narrow") && msg.contains("broad"), "{msg}");
    let e = MoreVariant::from_toml("game = \"camel\"\n[rules]\nedition = 9\n", "c.toml").expect_err("bad edition");
    assert!(e.to_string().contains("rules.edition") && e.to_string().contains("1 to 7"), "{e}");
    let e = MoreVariant::from_toml("game = \"chess\"\n", "g.toml").expect_err("bad family");
    // The families are named in the registry's order (`engine::more::FAMILIES`).
    assert!(e.to_string().contains("camel, skill, missile"), "{e}");
    let e = MoreVariant::from_toml("[rules]\nedition = 2\n", "n.toml").expect_err("no base");
    assert!(e.to_string().contains("n.toml: base"), "{e}");
    let e = MoreVariant::from_toml("base = \"skill\"\n[rules]\nno_capture_plies = \"never\"\n", "p.toml").expect_err("bad plies");
    assert!(e.to_string().contains("rules.no_capture_plies"), "{e}");
    let e = MoreVariant::from_toml("base = \"skill\"\ngame = \"missile\"\n", "m.toml").expect_err("mismatch");
    assert!(e.to_string().contains("m.toml: game"), "{e}");
}

#[test]
fn zero_plies_means_no_capture_draw_never() {
    let v = MoreVariant::from_toml("base = \"skill\"\n[rules]\nno_capture_plies = 0\n", "z.toml").expect("loads");
    let MoreVariant::Skill(p) = v else { panic!("skill expected") };
    assert_eq!(p.rules.no_capture_plies, None);
    assert!(v.to_toml().contains("no_capture_plies = 0"));
}

#[test]
fn example_rule_files_load_and_change_their_base() {
    for (file, base) in [
        ("../configs/variants/examples/missile-broad-base.toml", "missile"),
        ("../configs/variants/examples/camel-5-one-chancellor.toml", "camel-5"),
        ("../configs/variants/examples/camel-7-wide-river.toml", "camel-7"),
        ("../configs/variants/examples/skill-secret-lshape.toml", "skill-secret"),
    ] {
        assert!(presets::is_spec(file), "{file}");
        let v = MoreVariant::resolve(file).unwrap_or_else(|e| panic!("{e}"));
        let b = MoreVariant::preset(base).expect("base");
        assert_eq!(v.family(), b.family());
        assert!(!rules_eq(&v, &b), "{file} overrides something");
        // The game builds and lists its first actions.
        let r = presets::actions(file, None, "").unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(!r.actions.is_empty(), "{file}");
    }
    assert!(MoreVariant::resolve("../configs/variants/examples/skill-secret-lshape.toml").expect("loads").hidden_setup());
    // RULES.md variant files are not these games'.
    assert!(!presets::is_spec("../configs/variants/jieqi.toml"));
    assert!(!presets::is_spec("../configs/variants/examples/surprise-two-rights.toml"));
}

#[test]
fn c2_14_27_stacking_rule_set_reads_as_documented() {
    use engine::more::camel::StackRules;
    // The module documentation writes rule set II as "ii"; "i-i" (serde's kebab case) still reads.
    for (value, want) in [("\"ii\"", StackRules::II), ("\"i-i\"", StackRules::II), ("\"i\"", StackRules::I)] {
        let v = MoreVariant::from_toml(&format!("base = \"camel-6\"\n[rules]\nstacking = {value}\n"), "s.toml").expect(value);
        assert!(matches!(v, MoreVariant::Camel(p) if p.rules.stacking == want), "{value}");
        assert!(v.to_toml().contains(if want == StackRules::II { "stacking = \"ii\"" } else { "stacking = \"i\"" }), "{}", v.to_toml());
    }
    assert!(MoreVariant::from_toml("base = \"camel-6\"\n[rules]\nstacking = \"iii\"\n", "s.toml").is_err());
}
