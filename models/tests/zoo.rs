//! Published nets (issue #14 item 5): publish a tiny net from a run, list, resolve by name
//! (newest of a name) and by `<name>-<hash12>`, load with the checkpoint loader's checks, and
//! refusal, naming the file, of a tampered, oversized, renamed or foreign-variant net.

use models::checkpoint::{self, CheckpointError, Expect, SaveInfo};
use models::encoding::OBS_LEN;
use models::net::{Net, NetConfig};
use models::zoo::{self, PublishInfo, ZooError, MAX_BYTES};
use std::fs;
use std::path::{Path, PathBuf};
use tch::Device;

fn outputs(net: &Net) -> Vec<f32> {
    let obs: Vec<f32> = (0..OBS_LEN).map(|i| ((i * 7919) % 13) as f32 / 13.0).collect();
    let legal: Vec<u16> = (0..40).collect();
    let ev = net.evaluate(&obs, &[&legal]);
    ev.priors.iter().chain(ev.wdl.iter()).copied().collect()
}

/// A run directory `RUN` with `config.toml`, `checkpoints/step-7.*` of a 1x8 net and its
/// `eval-step-7.json`; returns the net.
fn make_run(run: &Path, seed: u64) -> Net {
    tch::set_num_threads(1);
    let net = Net::new(&NetConfig::new(1, 8), Device::Cpu, seed);
    let info = SaveInfo { step: 7, variant: "surprise", config: serde_json::json!({"k": 1}), git_revision: "test", trainer: serde_json::json!({}) };
    checkpoint::save(&run.join("checkpoints"), &net, None, info).expect("save");
    fs::write(run.join("config.toml"), "variant = \"surprise\"\n").expect("config");
    fs::write(run.join("eval-step-7.json"), "{\"vs_greedy\": 0.5}").expect("eval");
    net
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir).expect("dir").map(|e| e.expect("entry").file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

fn published(tmp: &Path) -> (PathBuf, zoo::ZooEntry, Net) {
    let run = tmp.join("run");
    let net = make_run(&run, 3);
    let z = tmp.join("zoo");
    let info = PublishInfo { results: "| vs | score |\n| greedy | 50 % |\n".into(), ..Default::default() };
    let e = zoo::publish(&run, &z, "tiny", info).expect("publish");
    (z, e, net)
}

#[test]
fn publish_list_resolve_load() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (z, e, net) = published(tmp.path());
    let weights = fs::read(&e.weights).expect("weights");
    let sha = checkpoint::sha256_hex(&weights);
    assert_eq!(e.stem, format!("tiny-{}", &sha[..12]));
    assert_eq!(names_in(&z), vec![format!("{}.json", e.stem), format!("{}.safetensors", e.stem)], "no temporary files left");
    // The weights are the checkpoint's bytes; the metadata says where they came from.
    assert_eq!(weights, fs::read(tmp.path().join("run/checkpoints/step-7.safetensors")).expect("source"));
    let m = &e.meta;
    assert_eq!(m.checkpoint.weights_sha256.as_deref(), Some(sha.as_str()));
    assert_eq!((m.checkpoint.variant.as_str(), m.checkpoint.step, m.checkpoint.encoding_version), ("surprise", 7, models::encoding::ENCODING_VERSION));
    assert_eq!(m.checkpoint.architecture, NetConfig::new(1, 8));
    assert_eq!(m.zoo.source.step, 7);
    assert!(m.zoo.source.checkpoint.ends_with("step-7.json"), "{}", m.zoo.source.checkpoint);
    let cmd = m.zoo.training_command.as_deref().unwrap_or_default();
    assert!(cmd.starts_with("anqi train --config ") && cmd.ends_with("run/config.toml"), "{cmd}");
    assert_eq!(m.zoo.eval, Some(serde_json::json!({"vs_greedy": 0.5})));
    assert!(m.zoo.results.contains("greedy"));
    assert_eq!(m.zoo.created.len(), "2025-01-31T00:00:00Z".len());
    // The JSON on disk reads back the same.
    assert_eq!(zoo::read_entry(&e.json).expect("read back"), e);

    // Load: by name and by stem, the same outputs as the net published.
    let (back, by_name) = zoo::load(&z, "tiny", Device::Cpu, Expect::default()).expect("load by name");
    assert_eq!(by_name.stem, e.stem);
    assert_eq!(outputs(&back), outputs(&net));
    assert_eq!(zoo::resolve(&z, &e.stem).expect("by stem").stem, e.stem);
    // A published net also loads through the checkpoint loader (its hash checked, below).
    let (_, meta, _) = checkpoint::load(&e.json, Device::Cpu, Expect::default()).expect("as a checkpoint");
    assert_eq!(meta.weights_sha256.as_deref(), Some(sha.as_str()));

    // The same net again under the same name is refused; under another name it is published.
    assert!(matches!(zoo::publish(&tmp.path().join("run"), &z, "tiny", PublishInfo::default()), Err(ZooError::Exists { .. })));
    let alias = zoo::publish(&tmp.path().join("run/checkpoints/step-7.json"), &z, "alias", PublishInfo::default()).expect("alias");
    assert_eq!(alias.hash12, e.hash12);

    // A newer net of the same name wins the name; the older stays reachable by its stem.
    let run2 = tmp.path().join("run2");
    let net2 = make_run(&run2, 4);
    let later = PublishInfo { created_unix: Some(e.meta.zoo.created_unix + 60), command: Some("anqi train --config x.toml".into()), ..Default::default() };
    let e2 = zoo::publish(&run2.join("checkpoints/step-7.safetensors"), &z, "tiny", later).expect("publish 2");
    assert_ne!(e2.stem, e.stem);
    assert_eq!(e2.meta.zoo.training_command.as_deref(), Some("anqi train --config x.toml"));
    let (back2, newest) = zoo::load(&z, "tiny", Device::Cpu, Expect::default()).expect("newest");
    assert_eq!(newest.stem, e2.stem);
    assert_eq!(outputs(&back2), outputs(&net2));
    assert_eq!(zoo::resolve(&z, &e.stem).expect("older by stem").stem, e.stem);
    let stems: Vec<String> = zoo::list(&z).expect("list").into_iter().map(|e| e.stem).collect();
    assert_eq!(stems, vec![alias.stem.clone(), e2.stem.clone(), e.stem.clone()]);
    assert!(zoo::verify(&z).expect("verify").iter().all(|(_, r)| r.is_ok()));

    // Unknown names list what there is.
    let msg = zoo::resolve(&z, "nope").err().map(|e| e.to_string()).unwrap_or_default();
    assert!(msg.contains("\"nope\"") && msg.contains(&e2.stem), "{msg}");
    assert!(matches!(zoo::publish(&run2, &z, "bad/name", PublishInfo::default()), Err(ZooError::BadName { .. })));
    assert!(matches!(zoo::list(&tmp.path().join("no-zoo")), Err(ZooError::NoZoo { .. })));
}

#[test]
fn tampered_weights_are_a_hash_error_naming_the_file_and_both_hashes() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (z, e, _) = published(tmp.path());
    let mut bytes = fs::read(&e.weights).expect("weights");
    let k = bytes.len() - 9;
    bytes[k] ^= 0x20;
    fs::write(&e.weights, &bytes).expect("tamper");
    let found = checkpoint::sha256_hex(&bytes);
    let expected = e.meta.checkpoint.weights_sha256.clone().unwrap_or_default();
    let err = zoo::load(&z, "tiny", Device::Cpu, Expect::default()).err().expect("refused");
    let msg = err.to_string();
    match err {
        ZooError::Checkpoint(CheckpointError::Hash { path, expected: x, found: f }) => {
            assert_eq!((path, x, f), (e.weights.clone(), expected.clone(), found.clone()));
        }
        other => panic!("not a hash error: {other}"),
    }
    assert!(msg.contains(&e.weights.display().to_string()) && msg.contains(&expected) && msg.contains(&found), "{msg}");
    // Through the checkpoint loader too, and verify reports it.
    assert!(matches!(checkpoint::load(&e.json, Device::Cpu, Expect::default()), Err(CheckpointError::Hash { .. })));
    let report = zoo::verify(&z).expect("verify");
    assert!(matches!(report.as_slice(), [(_, Err(ZooError::Checkpoint(CheckpointError::Hash { .. })))]));

    // Files renamed to another hash do not pass for that hash.
    let renamed = z.join("tiny-000000000000.json");
    fs::rename(&e.json, &renamed).expect("rename");
    let msg = zoo::list(&z).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(msg.contains("tiny-000000000000.json"), "{msg}");
}

#[test]
fn oversized_nets_are_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let run = tmp.path().join("run");
    make_run(&run, 3);
    let z = tmp.path().join("zoo");
    // A sparse file over the limit: cheap to make, and refused before it is read.
    let big = run.join("checkpoints/step-7.safetensors");
    let f = fs::OpenOptions::new().write(true).open(&big).expect("open");
    let len = f.metadata().expect("meta").len();
    f.set_len(MAX_BYTES + 1).expect("grow");
    match zoo::publish(&run, &z, "big", PublishInfo::default()) {
        Err(ZooError::TooLarge { path, bytes, max }) => assert_eq!((path, bytes, max), (big.clone(), MAX_BYTES + 1, MAX_BYTES)),
        other => panic!("not refused as too large: {:?}", other.map(|e| e.stem)),
    }
    assert!(!z.exists() || names_in(&z).is_empty(), "nothing published");
    f.set_len(len).expect("shrink");
    drop(f);
    let e = zoo::publish(&run, &z, "big", PublishInfo::default()).expect("publish at its size");
    let f = fs::OpenOptions::new().write(true).open(&e.weights).expect("open");
    f.set_len(MAX_BYTES + 1).expect("grow");
    let msg = zoo::load(&z, "big", Device::Cpu, Expect::default()).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(msg.contains("over the zoo's limit") && msg.contains(&e.stem), "{msg}");
}

#[test]
fn a_net_of_another_variant_or_architecture_is_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (z, e, _) = published(tmp.path());
    let msg = zoo::load(&z, "tiny", Device::Cpu, Expect { variant: Some("jieqi"), architecture: None }).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(msg.contains(&e.stem) && msg.contains("surprise") && msg.contains("jieqi"), "{msg}");
    let other = NetConfig::new(2, 8);
    let err = zoo::load(&z, "tiny", Device::Cpu, Expect { variant: Some("surprise"), architecture: Some(&other) }).err();
    assert!(matches!(err, Some(ZooError::Checkpoint(CheckpointError::Architecture { .. }))), "{err:?}");
    // Another encoding version in the metadata.
    let text = fs::read_to_string(&e.json).expect("json");
    let v = models::encoding::ENCODING_VERSION;
    fs::write(&e.json, text.replace(&format!("\"encoding_version\": {v}"), &format!("\"encoding_version\": {}", v + 1))).expect("edit");
    let err = zoo::load(&z, "tiny", Device::Cpu, Expect::default()).err();
    assert!(matches!(err, Some(ZooError::Checkpoint(CheckpointError::EncodingVersion { .. }))), "{err:?}");
}

#[test]
fn metadata_that_disagrees_with_its_files_is_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (z, e, _) = published(tmp.path());
    let text = fs::read_to_string(&e.json).expect("json");
    let sha = e.meta.checkpoint.weights_sha256.clone().unwrap_or_default();
    for (edited, says) in [
        (text.replace("\"name\": \"tiny\"", "\"name\": \"other\""), "published as \"other\""),
        (text.replace(&format!("\"weights_file\": \"{}.safetensors\"", e.stem), "\"weights_file\": \"x.safetensors\""), "weights file \"x.safetensors\""),
        (text.replace(&format!("\"weights_sha256\": \"{sha}\","), ""), "no weights_sha256"),
        (text.replace("\"format\": \"anqi-checkpoint\"", "\"format\": \"other\""), "format \"other\""),
        ("{\"format\": \"anqi-checkpoint\"".to_owned(), "not a published net"),
    ] {
        assert_ne!(edited, text, "{says}: the edit applies");
        fs::write(&e.json, &edited).expect("edit");
        let msg = zoo::resolve(&z, "tiny").err().map(|e| e.to_string()).unwrap_or_default();
        assert!(msg.contains(&e.json.display().to_string()) && msg.contains(says), "{says}: {msg}");
    }
}
