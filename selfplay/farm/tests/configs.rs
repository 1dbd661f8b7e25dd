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
