//! The replay window: the most recent samples of the shards in a directory, written by any
//! number of workers. Shards are read once and kept in memory while inside the window; a shard
//! that cannot be read (corrupt, truncated, another file format) is skipped with a warning, and
//! one written for another variant, net architecture or encoding (a misconfigured worker)
//! is refused with an error line naming the file and the field; either is never touched again:
//! nothing is deleted. Teacher shards (worker [`crate::config::TEACHER_WORKER`], a bot's games
//! against itself, `teacher.rs`) do not depend on the net, so a net of any architecture takes
//! them: a net-size ablation can train on one run's teacher games copied into its shard folder.

use engine::observe::Encoding;
use models::net::NetConfig;
use models::shard::{self, Sample, ShardError, ShardHeader};
use rand::Rng;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

struct Loaded {
    header: ShardHeader,
    samples: Arc<Vec<Sample>>,
}

/// Samples of the most recent shards.
pub struct Replay {
    dir: PathBuf,
    variant: String,
    architecture: Option<NetConfig>,
    /// The run's encoding: shards of another are refused.
    encoding: Encoding,
    window: usize,
    loaded: HashMap<PathBuf, Loaded>,
    skipped: HashSet<PathBuf>,
    /// Shards in the window, newest first, with their sample counts.
    order: Vec<(PathBuf, usize)>,
    len: usize,
}

/// What a refresh found.
#[derive(Debug, Default)]
pub struct Refresh {
    /// Shards read this time.
    pub new_shards: usize,
    /// Samples in them.
    pub new_samples: usize,
    /// Warnings for skipped shards and errors for refused ones (each names the file and the
    /// problem).
    pub warnings: Vec<String>,
    /// Shards refused this time for another variant, architecture or encoding.
    pub refused: usize,
}

impl Replay {
    /// A window of `window` samples over the shards in `dir` for `variant` in `encoding` (and,
    /// when given, played by a net of `architecture`).
    pub fn new(dir: &Path, variant: &str, architecture: Option<&NetConfig>, encoding: &Encoding, window: usize) -> Replay {
        Replay {
            dir: dir.to_path_buf(),
            variant: variant.to_string(),
            architecture: architecture.cloned(),
            encoding: encoding.clone(),
            window,
            loaded: HashMap::new(),
            skipped: HashSet::new(),
            order: Vec::new(),
            len: 0,
        }
    }

    /// Reads shards not seen before and recomputes the window.
    pub fn refresh(&mut self) -> Refresh {
        let mut r = Refresh::default();
        let files = match shard::list(&self.dir) {
            Ok(f) => f,
            Err(e) => {
                r.warnings.push(format!("warning: cannot list shards: {e}"));
                return r;
            }
        };
        // Headers first (cheap) to order by recency, then payloads of the newest only.
        let mut headers: Vec<(PathBuf, ShardHeader)> = Vec::new();
        for f in files {
            if self.skipped.contains(&f) {
                continue;
            }
            if let Some(l) = self.loaded.get(&f) {
                headers.push((f, l.header.clone()));
                continue;
            }
            let expect = |h: &ShardHeader| shard::Expect {
                variant: &self.variant,
                // A teacher's games are the same whatever net is trained on them.
                architecture: self.architecture.as_ref().filter(|_| h.worker != crate::config::TEACHER_WORKER),
            };
            match shard::read_header_for(&f, &self.encoding).and_then(|h| shard::check_header(&f, &h, expect(&h)).map(|()| h)) {
                Ok(h) => headers.push((f, h)),
                Err(e @ (ShardError::Mismatch { .. } | ShardError::EncodingVersion { .. } | ShardError::Encoding { .. })) => {
                    r.warnings.push(format!("error: refusing shard {e}"));
                    r.refused += 1;
                    self.skipped.insert(f);
                }
                Err(e) => {
                    r.warnings.push(format!("warning: skipping shard: {e}"));
                    self.skipped.insert(f);
                }
            }
        }
        headers.sort_by(|a, b| (b.1.created_unix, b.1.seq, &b.0).cmp(&(a.1.created_unix, a.1.seq, &a.0)));
        let mut order = Vec::new();
        let mut total = 0usize;
        for (f, h) in headers {
            if total >= self.window {
                break;
            }
            if !self.loaded.contains_key(&f) {
                match shard::read_for(&f, &self.encoding) {
                    Ok((header, samples)) => {
                        r.new_shards += 1;
                        r.new_samples += samples.len();
                        self.loaded.insert(f.clone(), Loaded { header, samples: Arc::new(samples) });
                    }
                    Err(e) => {
                        r.warnings.push(format!("warning: skipping shard: {e}"));
                        self.skipped.insert(f);
                        continue;
                    }
                }
            }
            let n = self.loaded[&f].samples.len();
            let _ = h;
            total += n;
            order.push((f, n));
        }
        // Forget (in memory only) shards that fell out of the window.
        let keep: HashSet<&PathBuf> = order.iter().map(|(f, _)| f).collect();
        self.loaded.retain(|f, _| keep.contains(f));
        self.order = order;
        self.len = total.min(self.window);
        r
    }

    /// Samples in the window.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the window is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Shards in the window.
    pub fn shards(&self) -> usize {
        self.order.len()
    }

    /// `n` samples drawn uniformly (with replacement) from the window.
    pub fn sample(&self, rng: &mut impl Rng, n: usize) -> Vec<&Sample> {
        let mut out = Vec::with_capacity(n);
        if self.len == 0 {
            return out;
        }
        for _ in 0..n {
            let mut k = rng.random_range(0..self.len);
            for (f, cnt) in &self.order {
                if k < *cnt {
                    out.push(&self.loaded[f].samples[k]);
                    break;
                }
                k -= cnt;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use models::encoding::{CompactObs, ENCODING_VERSION};

    fn net(channels: usize) -> NetConfig {
        NetConfig { blocks: 1, channels, policy_channels: 4, value_channels: 2, value_hidden: 16 }
    }

    fn write(dir: &Path, worker: u32, variant: &str, architecture: NetConfig, encoding: u32, n: usize) -> PathBuf {
        write_in(dir, worker, variant, architecture, (encoding, models::encoding::encoding()), n)
    }

    fn write_in(dir: &Path, worker: u32, variant: &str, architecture: NetConfig, (version, encoding): (u32, Encoding), n: usize) -> PathBuf {
        let samples: Vec<Sample> = (0..n)
            .map(|i| Sample {
                obs: CompactObs { fills: vec![(1, 1.0)], cells: vec![(i as u16, 1.0)] },
                policy: vec![(4, 1.0)],
                legal: vec![4, 9],
                outcome: 0.0,
                q: 0.0,
                ply: i as u16,
            })
            .collect();
        let header = ShardHeader {
            encoding_version: version,
            encoding,
            variant: variant.into(),
            worker,
            seq: 0,
            net_step: 0,
            architecture: Some(architecture),
            games: 1,
            samples: n as u64,
            plies: n as u64,
            decisive: 0,
            git_revision: "test".into(),
            created_unix: u64::from(worker),
        };
        let path = dir.join(shard::file_name(worker, 0));
        shard::write(&path, &header, &samples).expect("write");
        path
    }

    /// Shards of a misconfigured worker (another architecture, variant or encoding) are refused with
    /// an error naming the file and the field, stay on disk, and are not read again; the run's
    /// own shards are trained on.
    #[test]
    fn shards_of_another_architecture_or_variant_are_refused_by_name_and_field() {
        let dir = tempfile::tempdir().expect("tempdir");
        let good = write(dir.path(), 1, "surprise", net(8), ENCODING_VERSION, 5);
        let wide = write(dir.path(), 2, "surprise", net(16), ENCODING_VERSION, 7);
        let jieqi = write(dir.path(), 3, "jieqi", net(8), ENCODING_VERSION, 11);
        let future = write(dir.path(), 4, "surprise", net(8), ENCODING_VERSION + 1, 13);
        let leduc = engine::games::leduc::encoding();
        let other = write_in(dir.path(), 5, "surprise", net(8), (leduc.version, leduc.clone()), 3);
        let mut replay = Replay::new(dir.path(), "surprise", Some(&net(8)), &models::encoding::encoding(), 1000);
        let r = replay.refresh();
        assert_eq!((r.new_shards, r.new_samples, r.refused), (1, 5, 4), "{:?}", r.warnings);
        let name = other.file_name().expect("name").to_string_lossy().into_owned();
        assert!(
            r.warnings.iter().any(|w| w.starts_with("error: refusing shard") && w.contains(&name) && w.contains(&leduc.to_string())),
            "another game's encoding: {:?}",
            r.warnings
        );
        assert!(other.exists());
        assert_eq!(replay.len(), 5);
        for (path, field) in [(&wide, "architecture"), (&jieqi, "variant"), (&future, "encoding_version")] {
            let name = path.file_name().expect("name").to_string_lossy().into_owned();
            assert!(
                r.warnings.iter().any(|w| w.starts_with("error: refusing shard") && w.contains(&name) && w.contains(&format!("`{field}`"))),
                "{field}: {:?}",
                r.warnings
            );
            assert!(path.exists(), "nothing is deleted");
        }
        assert!(good.exists());
        let again = replay.refresh();
        assert_eq!((again.new_shards, again.refused, again.warnings.len()), (0, 0, 0), "refused once, not again");
    }

    /// Teacher shards (a bot's games, not the net's) are taken by a net of another size; a
    /// self-play shard of that size is still refused, and a teacher shard of another variant too.
    #[test]
    fn teacher_shards_serve_any_architecture_self_play_shards_do_not() {
        let dir = tempfile::tempdir().expect("tempdir");
        let teacher = crate::config::TEACHER_WORKER;
        write(dir.path(), teacher, "jieqi", net(8), ENCODING_VERSION, 5);
        let selfplay = write(dir.path(), 0, "jieqi", net(8), ENCODING_VERSION, 7);
        let mut replay = Replay::new(dir.path(), "jieqi", Some(&net(16)), &models::encoding::encoding(), 1000);
        let r = replay.refresh();
        assert_eq!((r.new_shards, r.new_samples, r.refused), (1, 5, 1), "{:?}", r.warnings);
        let name = selfplay.file_name().expect("name").to_string_lossy().into_owned();
        assert!(r.warnings.iter().any(|w| w.contains(&name) && w.contains("`architecture`")), "{:?}", r.warnings);
        let other = tempfile::tempdir().expect("tempdir");
        write(other.path(), teacher, "surprise", net(8), ENCODING_VERSION, 5);
        let mut replay = Replay::new(other.path(), "jieqi", Some(&net(16)), &models::encoding::encoding(), 1000);
        assert_eq!(replay.refresh().refused, 1, "another variant's teacher shard");
    }
}
