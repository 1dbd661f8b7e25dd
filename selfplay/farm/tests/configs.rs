//! Every committed training configuration loads as what it is: a self-play run
//! (`farm::config::RunConfig`) or a learned-evaluation run (`farm::evalrun::EvalRunConfig`), and
//! names a game that exists, so that `anqi train --config configs/train/NAME.toml` starts.

use farm::config::RunConfig;
use farm::evalrun::{is_eval_config, EvalRunConfig};
use std::path::Path;

#[test]
fn every_training_config_loads_and_names_a_game() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/train");
    let mut seen = (0, 0);
    for entry in std::fs::read_dir(&dir).expect("configs/train") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read");
        if is_eval_config(&text) {
            let cfg = EvalRunConfig::load(&path, &[]).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            engine::variant::Variant::load(&cfg.variant).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            seen.1 += 1;
        } else {
            let cfg = RunConfig::load(&path, &[]).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            farm::games::load_game(&cfg.variant).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            seen.0 += 1;
        }
    }
    assert!(seen.0 >= 5 && seen.1 >= 4, "self-play and evaluation configs read: {seen:?}");
}

/// `search.temperature_value_cutoff` outside [0, 2] (negative, NaN, past the value range) is
/// refused naming the key.
#[test]
fn a_temperature_value_cutoff_out_of_range_is_refused_naming_it() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/train/quick.toml");
    assert!(RunConfig::load(&path, &["search.temperature_value_cutoff=0.5".into()]).is_ok());
    for bad in ["-0.1", "nan", "3.0"] {
        let err = RunConfig::load(&path, &[format!("search.temperature_value_cutoff={bad}")]).expect_err(bad).to_string();
        assert!(err.contains("search.temperature_value_cutoff"), "{bad}: {err}");
    }
}

/// `[selfplay]` is one table of two structs (`SelfplayConfig`'s own keys and the games'
/// `GameConfig`): every key of either is read, an unknown one is refused naming it, the game
/// defaults are `GameConfig`'s but `lanes` (0: automatic), and the saved table reads back equal.
#[test]
fn the_selfplay_table_reads_both_structs_and_refuses_unknown_keys_naming_them() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/train/quick.toml");
    let set = |kv: &[&str]| RunConfig::load(&path, &kv.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    let cfg = set(&["selfplay.max_plies=77", "selfplay.games_per_iteration=5", "selfplay.temperature=0.5"]).expect("keys of both structs");
    assert_eq!((cfg.selfplay.game.max_plies, cfg.selfplay.games_per_iteration, cfg.selfplay.game.temperature), (77, 5, 0.5));
    let err = set(&["selfplay.max_pliez=77"]).expect_err("unknown key").to_string();
    assert!(err.contains("max_pliez") && err.contains("games_per_iteration") && err.contains("max_plies"), "{err}");
    let err = set(&["selfplay.teacher=1"]).expect_err("teacher is set by the warm start").to_string();
    assert!(err.contains("teacher"), "{err}");
    let err = set(&["selfplay.max_plies=\"many\""]).expect_err("wrong type").to_string();
    assert!(err.contains("max_plies") || err.contains("u32") || err.contains("integer"), "{err}");
    // A table with only the required key: GameConfig's defaults, lanes automatic.
    let only: farm::config::SelfplayConfig = toml::from_str("games_per_iteration = 3").expect("minimal table");
    let defaults = farm::GameConfig::default();
    assert_eq!(only.game, farm::GameConfig { lanes: 0, ..defaults });
    assert!(toml::from_str::<farm::config::SelfplayConfig>("max_plies = 3").is_err_and(|e| e.to_string().contains("games_per_iteration")));
    // Saved (as every checkpoint saves its configuration) and read back: equal.
    let text = toml::to_string(&cfg).expect("serialize");
    assert!(text.contains("max_plies = 77") && !text.contains("[selfplay.game]"), "{text}");
    let back: RunConfig = toml::from_str(&text).expect("read back");
    assert_eq!(back.selfplay, cfg.selfplay);
}
