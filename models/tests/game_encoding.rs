//! Nets, checkpoints and shards take their sizes from the game's encoding
//! ([`engine::observe::Encoding`]) and refuse data made for another one with an error that names
//! both encodings and the file: a net for Leduc hold'em or a made-up 3x11x10 board runs with the
//! right output sizes, a checkpoint or shard of one encoding is refused where another is expected,
//! and files that predate the recorded encoding read as the variant encoding.

use engine::game::{Game, PlayerId};
use engine::games::{leduc, Leduc};
use engine::observe::{Encoding, Observe, PolicyShape, TensorShape};
use models::checkpoint::{self, CheckpointError, Expect, SaveInfo};
use models::encoding::CompactObs;
use models::net::{obs_tensor_for, Net, NetConfig};
use models::shard::{self, Sample, ShardError, ShardHeader};
use models::train::Batch;
use std::fs;
use tch::Device;

/// A made-up board game: 3 planes of 11 rows x 10 files, 2 slots per point and 5 extra.
fn wide() -> Encoding {
    Encoding {
        game: "wide".into(),
        version: 4,
        observation: TensorShape { planes: 3, rows: 11, files: 10 },
        policy: PolicyShape { board_channels: 2, extra: 5 },
    }
}

fn info(variant: &str) -> SaveInfo<'_> {
    SaveInfo { step: 2, variant, config: serde_json::json!({}), git_revision: "test", trainer: serde_json::json!({}) }
}

#[test]
fn nets_for_other_encodings_have_their_sizes() {
    for (e, n) in [(leduc::encoding(), 3i64), (wide(), 2)] {
        let net = Net::with_encoding(&NetConfig::new(1, 8), &e, Device::Cpu, 1);
        assert_eq!(net.encoding(), &e);
        let obs: Vec<f32> = (0..n as usize * e.obs_len()).map(|i| (i % 5) as f32 / 5.0).collect();
        let x = obs_tensor_for(&obs, &e, Device::Cpu);
        let o = &e.observation;
        assert_eq!(x.size(), [n, o.planes as i64, o.rows as i64, o.files as i64]);
        let (policy, wdl) = tch::no_grad(|| net.forward_t(&x, false));
        assert_eq!(policy.size(), [n, e.actions() as i64], "{e}");
        assert_eq!(wdl.size(), [n, 3]);
        // Priors over the last slots (the extra block) are a distribution.
        let legal: Vec<u16> = (e.actions() as u16 - 3..e.actions() as u16).collect();
        let ev = net.evaluate(&obs, &vec![legal.as_slice(); n as usize]);
        for i in 0..n as usize {
            let total: f32 = ev.priors(i).iter().sum();
            assert!((total - 1.0).abs() < 1e-5, "{total}");
        }
    }
    assert_eq!(wide().actions(), 2 * 110 + 5);
}

#[test]
fn a_leduc_net_reads_leduc_observations_and_trains_on_leduc_samples() {
    let e = leduc::encoding();
    let mut g = Leduc::new();
    g.apply(engine::game::Action(0));
    g.apply(engine::game::Action(3));
    let dense = g.observation(PlayerId::FIRST);
    let legal: Vec<u16> = g.legal_actions().iter().map(|&a| g.action_index(a) as u16).collect();
    let sample = Sample {
        obs: CompactObs::from_dense_shape(&dense, &e.observation),
        policy: vec![(legal[0], 1.0)],
        legal: legal.clone(),
        outcome: 1.0,
        q: 0.0,
        ply: 0,
    };
    let batch = Batch::new_for(&[&sample, &sample], &e, Device::Cpu, 0.0);
    assert_eq!(batch.obs.size(), [2, 1, 1, leduc::FEATURES as i64]);
    let back: Vec<f32> = models::net::tensor_to_vec(&batch.obs.get(0).view([-1]));
    assert_eq!(back, dense);
    let net = Net::with_encoding(&NetConfig::new(1, 4), &e, Device::Cpu, 2);
    let (policy, _) = tch::no_grad(|| net.forward_t(&batch.obs, false));
    assert_eq!(policy.size(), [2, 3]);
}

#[test]
fn a_checkpoint_of_another_encoding_is_refused_naming_both() {
    let dir = tempfile::tempdir().expect("tempdir");
    let net = Net::with_encoding(&NetConfig::new(1, 8), &leduc::encoding(), Device::Cpu, 3);
    let json = checkpoint::save(dir.path(), &net, None, info("leduc")).expect("save");
    let meta = checkpoint::read_meta(&json).expect("meta");
    assert_eq!((meta.encoding.clone(), meta.planes, meta.actions), (leduc::encoding(), 1, 3));
    // Loads where Leduc is expected, with the same outputs.
    let (back, _, _) = checkpoint::load_for(dir.path(), Device::Cpu, Expect::default(), &leduc::encoding()).expect("load");
    let obs = vec![0.5f32; leduc::FEATURES];
    let legal: Vec<u16> = vec![1, 2];
    assert_eq!(back.evaluate(&obs, &[&legal]).priors, net.evaluate(&obs, &[&legal]).priors);
    // Refused where the variant encoding (plain `load`) or another one is expected.
    for (expected, err) in [
        (models::encoding::encoding(), checkpoint::load(dir.path(), Device::Cpu, Expect::default()).err()),
        (wide(), checkpoint::load_for(dir.path(), Device::Cpu, Expect::default(), &wide()).err()),
    ] {
        let err = err.expect("refused");
        let msg = err.to_string();
        let CheckpointError::Encoding { path, source } = &err else { panic!("not an encoding error: {msg}") };
        assert_eq!((path, &source.expected, &source.found), (&json, &expected, &leduc::encoding()));
        assert!(msg.contains("step-2.json") && msg.contains("leduc v1") && msg.contains(&format!("{} v", expected.game)), "{msg}");
    }
}

#[test]
fn checkpoint_metadata_without_an_encoding_is_the_variant_encoding() {
    let dir = tempfile::tempdir().expect("tempdir");
    let net = Net::new(&NetConfig::new(1, 8), Device::Cpu, 3);
    let json = checkpoint::save(dir.path(), &net, None, info("surprise")).expect("save");
    let mut v: serde_json::Value = serde_json::from_slice(&fs::read(&json).expect("read")).expect("json");
    assert!(v.as_object_mut().expect("object").remove("encoding").is_some(), "the metadata records the encoding");
    fs::write(&json, serde_json::to_vec_pretty(&v).expect("json")).expect("write");
    let (_, meta, _) = checkpoint::load(dir.path(), Device::Cpu, Expect::default()).expect("an old checkpoint loads");
    assert_eq!(meta.encoding, models::encoding::encoding());
    let err = checkpoint::load_for(dir.path(), Device::Cpu, Expect::default(), &leduc::encoding()).err().expect("refused");
    assert!(matches!(err, CheckpointError::Encoding { .. }), "{err}");
}

#[test]
fn a_shard_of_another_encoding_is_refused_naming_both() {
    let dir = tempfile::tempdir().expect("tempdir");
    let e = leduc::encoding();
    let header = ShardHeader {
        encoding_version: e.version,
        encoding: e.clone(),
        variant: "leduc".into(),
        worker: 1,
        seq: 0,
        net_step: 0,
        architecture: Some(NetConfig::new(1, 4)),
        games: 1,
        samples: 1,
        plies: 3,
        decisive: 1,
        git_revision: "test".into(),
        created_unix: 1,
    };
    let dense: Vec<f32> = (0..e.obs_len()).map(|i| (i % 3 == 0) as u8 as f32).collect();
    let sample = Sample { obs: CompactObs::from_dense_shape(&dense, &e.observation), policy: vec![(2, 1.0)], legal: vec![1, 2], outcome: -1.0, q: 0.0, ply: 2 };
    let path = dir.path().join(shard::file_name(1, 0));
    shard::write(&path, &header, std::slice::from_ref(&sample)).expect("write");
    let (h, s) = shard::read_for(&path, &e).expect("reads as Leduc");
    assert_eq!((h, s), (header, vec![sample]));
    for (expected, err) in [
        (models::encoding::encoding(), shard::read(&path).err()),
        (models::encoding::encoding(), shard::read_header(&path).err()),
        (wide(), shard::read_header_for(&path, &wide()).err()),
    ] {
        let err = err.expect("refused");
        let msg = err.to_string();
        let ShardError::Encoding { path: p, source } = &err else { panic!("not an encoding error: {msg}") };
        assert_eq!((p, &source.expected, &source.found), (&path, &expected, &e));
        assert!(msg.contains("w0001-00000000.shard") && msg.contains("leduc v1") && msg.contains(&format!("{} v", expected.game)), "{msg}");
    }
}

#[test]
fn a_sample_outside_its_encoding_is_refused() {
    // A Leduc shard whose sample names slot 3 (Leduc has 3 slots) is invalid.
    let dir = tempfile::tempdir().expect("tempdir");
    let e = leduc::encoding();
    let header = ShardHeader {
        encoding_version: 1,
        encoding: e.clone(),
        variant: "leduc".into(),
        worker: 2,
        seq: 0,
        net_step: 0,
        architecture: None,
        games: 1,
        samples: 1,
        plies: 1,
        decisive: 0,
        git_revision: "test".into(),
        created_unix: 1,
    };
    let sample = Sample { obs: CompactObs::default(), policy: vec![(3, 1.0)], legal: vec![3], outcome: 0.0, q: 0.0, ply: 0 };
    let path = dir.path().join(shard::file_name(2, 0));
    shard::write(&path, &header, &[sample]).expect("write");
    let err = shard::read_for(&path, &e).expect_err("refused");
    assert!(matches!(err, ShardError::Invalid { .. }) && err.to_string().contains("out of range (< 3)"), "{err}");
}
