//! Shards: round trip, and every kind of bad file is refused with an error naming it.

use models::encoding::{CompactObs, ENCODING_VERSION};
use models::net::NetConfig;
use models::shard::{self, Expect, Sample, ShardError, ShardHeader};
use std::fs;

fn net(channels: usize) -> NetConfig {
    NetConfig { blocks: 1, channels, policy_channels: 4, value_channels: 2, value_hidden: 16 }
}

fn header(n: usize) -> ShardHeader {
    ShardHeader {
        encoding_version: ENCODING_VERSION,
        encoding: models::encoding::encoding(),
        variant: "surprise".into(),
        worker: 3,
        seq: 9,
        net_step: 40,
        architecture: Some(net(8)),
        games: 2,
        samples: n as u64,
        plies: 80,
        decisive: 1,
        git_revision: "test".into(),
        created_unix: 1,
    }
}

fn samples(n: usize) -> Vec<Sample> {
    (0..n)
        .map(|i| Sample {
            obs: CompactObs { fills: vec![(55, 1.0), (34, 1.0)], cells: vec![(i as u16 % 90, 1.0), (200, 0.5)] },
            policy: vec![(12, 0.75), (40, 0.25)],
            legal: vec![12, 40, 77],
            outcome: [1.0, 0.0, -1.0][i % 3],
            ply: i as u16,
            q: -0.5,
        })
        .collect()
}

#[test]
fn round_trip_and_atomic_write() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(shard::file_name(3, 9));
    let s = samples(25);
    shard::write(&path, &header(25), &s).expect("write");
    let (h, back) = shard::read(&path).expect("read");
    assert_eq!(h, header(25));
    assert_eq!(back, s);
    assert_eq!(shard::read_header(&path).expect("header"), header(25));
    // No temporary file is left; a second write refuses to overwrite.
    assert_eq!(fs::read_dir(dir.path()).expect("dir").count(), 1);
    assert!(matches!(shard::write(&path, &header(25), &s), Err(ShardError::Io { .. })));
    assert_eq!(shard::read(&path).expect("still readable").1, s);
    // Listing ignores temporary files; sequence numbers continue per worker.
    fs::write(dir.path().join(".w0003-00000010.shard.123.tmp"), b"partial").expect("tmp");
    assert_eq!(shard::list(dir.path()).expect("list"), vec![path.clone()]);
    assert_eq!(shard::next_seq(dir.path(), 3).expect("seq"), 10);
    assert_eq!(shard::next_seq(dir.path(), 0).expect("seq"), 0);
    assert_eq!(shard::parse_file_name(&path), Some((3, 9)));
}

fn bad(bytes: &[u8]) -> (String, ShardError) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bad.shard");
    fs::write(&path, bytes).expect("write");
    let e = shard::read(&path).expect_err("bad shard must be refused");
    let msg = e.to_string();
    assert!(msg.contains("bad.shard"), "error names the file: {msg}");
    assert!(path.exists(), "nothing is deleted");
    (msg, e)
}

#[test]
fn truncated_corrupt_and_foreign_files_are_refused() {
    let good = shard::to_bytes(&header(10), &samples(10));
    for cut in [0, 5, 12, 20, good.len() / 2, good.len() - 1] {
        let (msg, _) = bad(&good[..cut]);
        assert!(msg.contains("truncated") || msg.contains("not an anqi shard"), "cut {cut}: {msg}");
    }
    let mut flipped = good.clone();
    let last = flipped.len() - 3;
    flipped[last] ^= 0x40;
    assert!(matches!(bad(&flipped).1, ShardError::Checksum { part: "payload", .. }));
    let mut flipped = good.clone();
    flipped[22] ^= 0x01;
    assert!(matches!(bad(&flipped).1, ShardError::Checksum { part: "header", .. }));
    let mut version = good.clone();
    version[8] = 99;
    assert!(matches!(bad(&version).1, ShardError::FormatVersion { found: 99, .. }));
    assert!(matches!(bad(b"PK\x03\x04 definitely a zip").1, ShardError::NotAShard { .. }));
    let mut extra = good.clone();
    extra.extend_from_slice(b"junk");
    assert!(matches!(bad(&extra).1, ShardError::Invalid { .. }));
}

#[test]
fn other_encoding_version_is_refused() {
    let mut h = header(2);
    h.encoding_version = ENCODING_VERSION + 1;
    let (msg, e) = bad(&shard::to_bytes(&h, &samples(2)));
    assert!(matches!(e, ShardError::EncodingVersion { .. }), "{msg}");
    assert!(msg.contains("encoding version"), "{msg}");
}

#[test]
fn invalid_samples_are_refused() {
    let mut s = samples(3);
    s[1].policy.push((5000, 0.1)); // not a legal slot
    let (msg, _) = bad(&shard::to_bytes(&header(3), &s));
    assert!(msg.contains("sample 1"), "{msg}");
    let mut s = samples(3);
    s[2].legal.clear();
    s[2].policy.clear();
    let (msg, _) = bad(&shard::to_bytes(&header(3), &s));
    assert!(msg.contains("no legal action"), "{msg}");
}

#[test]
fn another_variant_or_architecture_is_refused_naming_the_field() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(shard::file_name(3, 9));
    shard::write(&path, &header(4), &samples(4)).expect("write");
    let (h, _) = shard::read(&path).expect("read");
    let ok = net(8);
    shard::check_header(&path, &h, Expect { variant: "surprise", architecture: Some(&ok) }).expect("matches");
    let other = net(16);
    let e = shard::check_header(&path, &h, Expect { variant: "surprise", architecture: Some(&other) })
        .expect_err("another architecture is refused");
    let msg = e.to_string();
    assert!(matches!(e, ShardError::Mismatch { field: "architecture", .. }), "{msg}");
    assert!(msg.contains("w0003-00000009.shard") && msg.contains("`architecture`") && msg.contains("channels: 16"), "{msg}");
    let e = shard::check_header(&path, &h, Expect { variant: "jieqi", architecture: Some(&ok) })
        .expect_err("another variant is refused");
    let msg = e.to_string();
    assert!(matches!(e, ShardError::Mismatch { field: "variant", .. }), "{msg}");
    assert!(msg.contains("w0003-00000009.shard") && msg.contains("\"surprise\"") && msg.contains("\"jieqi\""), "{msg}");
    assert!(path.exists(), "nothing is deleted");
}

#[test]
fn concurrent_writers_of_one_name_publish_exactly_one_shard() {
    // Two instances of one worker (a restarted worker whose old machine is still alive on the
    // shared directory) may pass the existence check together; exactly one publication wins,
    // the others are refused, and the published file is one writer's shard, whole.
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(shard::file_name(1, 0));
    let barrier = std::sync::Barrier::new(8);
    let won: Vec<Option<usize>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let (path, barrier) = (&path, &barrier);
                s.spawn(move || {
                    barrier.wait();
                    match shard::write(path, &header(i + 1), &samples(i + 1)) {
                        Ok(()) => Some(i),
                        Err(ShardError::Io { source, .. }) if source.kind() == std::io::ErrorKind::AlreadyExists => None,
                        Err(e) => panic!("unexpected error: {e}"),
                    }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("thread")).collect()
    });
    let winners: Vec<usize> = won.into_iter().flatten().collect();
    assert_eq!(winners.len(), 1, "exactly one writer publishes: {winners:?}");
    let (h, s) = shard::read(&path).expect("the published shard is whole");
    assert_eq!((h, s.len()), (header(winners[0] + 1), winners[0] + 1));
    assert_eq!(fs::read_dir(dir.path()).expect("dir").count(), 1, "no temporary file left");
}
