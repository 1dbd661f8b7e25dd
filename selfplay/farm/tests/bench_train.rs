//! `anqi train --bench-train N` (`farm::bench::train_only`): the training step alone on a
//! synthetic batch, as `scripts/bench-train` runs it, reports a rate and the settings it ran.

use farm::config::RunConfig;
use std::path::Path;

#[test]
fn train_only_reports_samples_per_second() {
    let smoke = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/train/smoke.toml");
    let set = ["threads=1".to_owned(), "train.batch_size=8".to_owned()];
    let cfg = RunConfig::load(&smoke, &set).expect("smoke config");
    let json = farm::bench::train_only(&cfg, 3).expect("bench");
    assert!(json["rust_train_samples_per_s"].as_f64().is_some_and(|r| r > 0.0), "{json}");
    assert_eq!((json["steps"].as_u64(), json["train_batch"].as_u64(), json["threads"].as_u64()), (Some(3), Some(8), Some(1)), "{json}");
    assert_eq!((json["blocks"].as_u64(), json["channels"].as_u64()), (Some(1), Some(8)));
    assert!(json["final_loss"].as_f64().is_some_and(f64::is_finite), "{json}");
    assert_eq!(json["device"], "Cpu");
}
