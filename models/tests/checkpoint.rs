//! Checkpoints: round trip, `latest`, and refusal (naming the file) of corrupt, truncated,
//! foreign-version and foreign-architecture checkpoints. Nothing is ever deleted.

use models::checkpoint::{self, CheckpointError, Expect, SaveInfo};
use models::encoding::OBS_LEN;
use models::net::{Net, NetConfig};
use std::fs;
use std::path::Path;
use tch::Device;

fn info(step: u64) -> SaveInfo<'static> {
    SaveInfo { step, variant: "surprise", config: serde_json::json!({"k": 1}), git_revision: "test", trainer: serde_json::json!({}) }
}

fn obs() -> Vec<f32> {
    (0..2 * OBS_LEN).map(|i| ((i * 7919) % 13) as f32 / 13.0).collect()
}

fn outputs(net: &Net) -> Vec<f32> {
    let legal: Vec<u16> = (0..50).collect();
    let ev = net.evaluate(&obs(), &[&legal, &legal[..7]]);
    ev.priors.iter().chain(ev.wdl.iter()).copied().collect()
}

fn save_one(dir: &Path) -> Net {
    let net = Net::new(&NetConfig::new(1, 8), Device::Cpu, 3);
    checkpoint::save(dir, &net, None, info(0)).expect("save 0");
    let net2 = Net::new(&NetConfig::new(1, 8), Device::Cpu, 4);
    checkpoint::save(dir, &net2, None, info(5)).expect("save 5");
    net2
}

#[test]
fn round_trip_through_latest() {
    let dir = tempfile::tempdir().expect("tempdir");
    let net = save_one(dir.path());
    assert_eq!(fs::read_to_string(dir.path().join("latest")).expect("latest").trim(), "step-5");
    let (back, meta, json) = checkpoint::load(dir.path(), Device::Cpu, Expect::default()).expect("load");
    assert_eq!(meta.step, 5);
    assert_eq!(json, dir.path().join("step-5.json"));
    assert_eq!(outputs(&back), outputs(&net));
    // Also by file name, either the JSON or the weights.
    let (b0, m0, _) = checkpoint::load(&dir.path().join("step-0.safetensors"), Device::Cpu, Expect::default()).expect("step 0");
    assert_eq!(m0.step, 0);
    assert_ne!(outputs(&b0), outputs(&net));
}

fn refused(dir: &Path, expect: Expect) -> String {
    let before: Vec<_> = fs::read_dir(dir).expect("dir").map(|e| e.expect("entry").path()).collect();
    let e = match checkpoint::load(dir, Device::Cpu, expect) {
        Ok(_) => panic!("checkpoint should be refused"),
        Err(e) => e,
    };
    let after: Vec<_> = fs::read_dir(dir).expect("dir").map(|e| e.expect("entry").path()).collect();
    assert_eq!(before.len(), after.len(), "nothing deleted");
    let msg = e.to_string();
    assert!(msg.contains("step-5"), "error names the file: {msg}");
    msg
}

#[test]
fn corrupt_or_truncated_weights_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    save_one(dir.path());
    let w = dir.path().join("step-5.safetensors");
    let bytes = fs::read(&w).expect("weights");
    let mut flipped = bytes.clone();
    let k = flipped.len() - 10;
    flipped[k] ^= 0x10;
    fs::write(&w, &flipped).expect("write");
    let msg = refused(dir.path(), Expect::default());
    assert!(msg.contains("checksum"), "{msg}");
    fs::write(&w, &bytes[..bytes.len() / 2]).expect("write");
    let msg = refused(dir.path(), Expect::default());
    assert!(msg.contains("checksum"), "{msg}");
    fs::write(&w, &bytes).expect("restore");
    fs::write(dir.path().join("step-5.json"), "{\"format\": \"anqi-check").expect("truncate json");
    let msg = refused(dir.path(), Expect::default());
    assert!(msg.contains("not anqi checkpoint metadata"), "{msg}");
}

#[test]
fn version_architecture_and_variant_mismatch_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    save_one(dir.path());
    let arch = NetConfig::new(2, 8);
    let msg = refused(dir.path(), Expect { architecture: Some(&arch), ..Default::default() });
    assert!(matches!(checkpoint::load(dir.path(), Device::Cpu, Expect { architecture: Some(&arch), ..Default::default() }), Err(CheckpointError::Architecture { .. })), "{msg}");
    let msg = refused(dir.path(), Expect { variant: Some("jieqi"), ..Default::default() });
    assert!(msg.contains("jieqi"), "{msg}");
    let json = dir.path().join("step-5.json");
    let text = fs::read_to_string(&json).expect("json");
    fs::write(&json, text.replace("\"encoding_version\": 1", "\"encoding_version\": 7")).expect("write");
    let msg = refused(dir.path(), Expect::default());
    assert!(msg.contains("encoding version 7"), "{msg}");
    // Weights that do not fit the architecture the metadata claims.
    fs::write(&json, text.replace("\"channels\": 8", "\"channels\": 16")).expect("write");
    let msg = refused(dir.path(), Expect::default());
    assert!(msg.contains("shape"), "{msg}");
}

#[test]
fn missing_checkpoint_names_the_path() {
    let dir = tempfile::tempdir().expect("tempdir");
    let e = checkpoint::load(dir.path(), Device::Cpu, Expect::default()).err().expect("refused");
    assert!(matches!(e, CheckpointError::NotFound { .. }), "{e}");
}
