//! A run takes every size from its game's encoding: a run directory whose checkpoint was made for
//! another encoding (here a Leduc hold'em net) is refused when resuming, and by a worker, with an
//! error that names the file and both encodings, before any net is built from it.

use farm::config::RunConfig;
use farm::worker::WorkerOptions;
use engine::games::leduc;
use models::checkpoint::{self, SaveInfo};
use models::net::Net;
use std::path::Path;

fn smoke(run_dir: &Path) -> RunConfig {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/train/smoke.toml");
    let run_dir = format!("run_dir={:?}", run_dir.display().to_string());
    RunConfig::load(&path, &[run_dir, "train.steps=4".into()]).expect("smoke config")
}

#[test]
fn a_checkpoint_of_another_encoding_is_refused_naming_both() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = smoke(tmp.path());
    let leduc_net = Net::with_encoding(&cfg.net, &leduc::encoding(), tch::Device::Cpu, 1);
    let info = SaveInfo { step: 0, variant: &cfg.variant, config: cfg.to_json(), git_revision: "test", trainer: serde_json::json!({}) };
    checkpoint::save(&cfg.checkpoint_dir(), &leduc_net, None, info).expect("save");

    let err = format!("{:#}", farm::run::run(&cfg, false).err().expect("resume refused"));
    let variants = models::encoding::encoding().to_string();
    let leduc = leduc::encoding().to_string();
    assert!(err.contains("step-0.json") && err.contains(&variants) && err.contains(&leduc), "{err}");
    assert!(!cfg.checkpoint_dir().join("step-4.json").exists(), "nothing trained");

    let opts = WorkerOptions { worker: 3, out: tmp.path().join("out"), shards: 1, checkpoint: None };
    let err = format!("{:#}", farm::worker::run(&cfg, &opts, false).err().expect("worker refused"));
    assert!(err.contains("step-0.json") && err.contains(&variants) && err.contains(&leduc), "{err}");
}
