//! Published nets ("the zoo", `models/zoo/`): trained nets kept in the repository, each as
//! `<name>-<hash12>.safetensors` (the weights, byte for byte those of the checkpoint it came
//! from) and `<name>-<hash12>.json`, where `hash12` is the first 12 hex digits of the weights
//! file's SHA-256. The JSON is a checkpoint's metadata ([`CheckpointMeta`], so a published net
//! loads through [`checkpoint::load`] like any checkpoint, with its `weights_sha256` set and
//! checked) plus a `zoo` object ([`ZooInfo`]: name, source run and step, training command,
//! measured results, publication date). Files are written under a temporary name and renamed,
//! the weights first; a net over [`MAX_BYTES`] is refused. `models/zoo/README.md` describes the
//! format and the commands (`anqi zoo publish|list|verify`, the `net:zoo=NAME` bot).

use crate::checkpoint::{self, CheckpointError, CheckpointMeta, Expect};
use crate::net::Net;
use engine::observe::Encoding;
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::{Path, PathBuf};
use tch::Device;

/// The largest weights file the zoo takes: 20 MB (20,000,000 bytes).
pub const MAX_BYTES: u64 = 20_000_000;
/// Hex digits of the SHA-256 in a published file's name.
pub const HASH_DIGITS: usize = 12;
/// Environment variable naming the zoo directory (see [`default_dir`]).
pub const ENV_DIR: &str = engine::nnue::ZOO_ENV;
/// The zoo directory relative to the repository root.
pub const REPO_DIR: &str = engine::nnue::ZOO_REPO_DIR;

/// What the zoo records about a published net besides its checkpoint metadata.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ZooInfo {
    /// The name it was published under (`surprise`, `jieqi-6x64`, …).
    pub name: String,
    /// Where it came from.
    pub source: Source,
    /// The command that trained it, as given at publication (or derived from the run's saved
    /// configuration, see [`PublishInfo::command`]).
    pub training_command: Option<String>,
    /// Measured results, free text (a Markdown table, say).
    pub results: String,
    /// The run's final evaluation (`eval-step-N.json` of the same step), when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval: Option<serde_json::Value>,
    /// Publication date, UTC (`2025-01-31T12:00:00Z`).
    pub created: String,
    /// Publication time, seconds since the Unix epoch (orders entries of one name).
    pub created_unix: u64,
}

/// The checkpoint a published net was copied from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Source {
    /// The checkpoint's metadata file, as the publisher named it.
    pub checkpoint: String,
    /// The run directory, when the checkpoint lies in one (`RUN/checkpoints/step-N.json`).
    pub run_dir: Option<String>,
    /// Training step.
    pub step: u64,
}

/// The JSON of a published net: checkpoint metadata and the `zoo` object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ZooMeta {
    /// The checkpoint metadata (weights file, variant, encoding, architecture, hashes).
    #[serde(flatten)]
    pub checkpoint: CheckpointMeta,
    /// The zoo's own fields.
    pub zoo: ZooInfo,
}

/// One published net.
#[derive(Clone, Debug, PartialEq)]
pub struct ZooEntry {
    /// `<name>-<hash12>`.
    pub stem: String,
    /// The first [`HASH_DIGITS`] hex digits of the weights' SHA-256.
    pub hash12: String,
    /// Its JSON file.
    pub json: PathBuf,
    /// Its weights file.
    pub weights: PathBuf,
    /// The metadata.
    pub meta: ZooMeta,
}

impl ZooEntry {
    /// The name it was published under.
    pub fn name(&self) -> &str {
        &self.meta.zoo.name
    }
}

/// Why the zoo could not publish, find or load a net; every variant names the file or name.
#[derive(Debug, thiserror::Error)]
pub enum ZooError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The zoo directory does not exist.
    #[error("{path}: no zoo here (set {ENV_DIR} or run from the repository root, where {REPO_DIR} is)")]
    NoZoo {
        /// The directory.
        path: PathBuf,
    },
    /// A name the zoo does not take.
    #[error("zoo name {name:?}: {reason}")]
    BadName {
        /// The name.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// No published net answers to a name.
    #[error("{dir}: no published net named {name:?} (published: {})", if known.is_empty() { "none".to_owned() } else { known.join(", ") })]
    NotFound {
        /// The zoo directory.
        dir: PathBuf,
        /// The name asked for.
        name: String,
        /// The names and stems there are.
        known: Vec<String>,
    },
    /// A weights file over [`MAX_BYTES`].
    #[error("{path}: {bytes} bytes, over the zoo's limit of {max} bytes")]
    TooLarge {
        /// The weights file.
        path: PathBuf,
        /// Its size.
        bytes: u64,
        /// [`MAX_BYTES`].
        max: u64,
    },
    /// The same net is already published under that name.
    #[error("{path}: already published")]
    Exists {
        /// The existing JSON file.
        path: PathBuf,
    },
    /// A JSON file that is not a published net's metadata, or disagrees with its file name.
    #[error("{path}: not a published net: {detail}")]
    Metadata {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// The checkpoint part failed: hash, checksum, encoding version, architecture, variant.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ZooError + '_ {
    move |source| ZooError::Io { path: path.to_path_buf(), source }
}

/// The zoo directory when none is given: `$ANQI_ZOO` if set; else `models/zoo` under the
/// working directory if it is a directory (running from the repository root); else the
/// `models/zoo` of the source tree this binary was built from, if it is still there; else
/// `models/zoo` (which then reports [`ZooError::NoZoo`]).
pub fn default_dir() -> PathBuf {
    // One lookup for the policy nets and the learned evaluations (`engine::nnue`).
    engine::nnue::zoo_dir()
}

/// Checks a name to publish under: 1 to 64 ASCII letters, digits, `.`, `_` and `-`, starting
/// with a letter or digit.
///
/// # Errors
/// [`ZooError::BadName`] saying why.
pub fn check_name(name: &str) -> Result<(), ZooError> {
    let bad = |reason: &str| Err(ZooError::BadName { name: name.to_owned(), reason: reason.to_owned() });
    if name.is_empty() || name.len() > 64 {
        return bad("must have 1 to 64 characters");
    }
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')) {
        return bad("only ASCII letters, digits, '.', '_' and '-'");
    }
    if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return bad("must start with a letter or digit");
    }
    if split_stem(name).is_some() {
        return bad("ends like a content hash (-<12 hex digits>), which would make `<name>-<hash>` ambiguous");
    }
    Ok(())
}

/// `(name, hash12)` of a file stem `<name>-<hash12>`.
pub fn split_stem(stem: &str) -> Option<(&str, &str)> {
    let (name, hash) = stem.rsplit_once('-')?;
    let hex = hash.len() == HASH_DIGITS && hash.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase());
    (hex && !name.is_empty()).then_some((name, hash))
}

/// What a publisher records besides the checkpoint.
#[derive(Clone, Debug, Default)]
pub struct PublishInfo {
    /// Measured results (free text).
    pub results: String,
    /// The training command; `None` derives `anqi train --config RUN/config.toml` when the run
    /// directory holds the configuration the run saved, and records nothing otherwise.
    pub command: Option<String>,
    /// Publication time (seconds since the Unix epoch); `None` is now.
    pub created_unix: Option<u64>,
}

/// The run directory of a checkpoint's metadata file: `RUN` for `RUN/checkpoints/step-N.json`,
/// else the file's directory when it holds a run's `config.toml`.
fn run_dir_of(json: &Path) -> Option<PathBuf> {
    let dir = json.parent()?;
    if dir.file_name().is_some_and(|n| n == "checkpoints") {
        return dir.parent().map(Path::to_path_buf);
    }
    dir.join("config.toml").is_file().then(|| dir.to_path_buf())
}

fn file_size(path: &Path) -> Result<u64, ZooError> {
    Ok(fs::metadata(path).map_err(io(path))?.len())
}

fn check_size(path: &Path) -> Result<(), ZooError> {
    let bytes = file_size(path)?;
    if bytes > MAX_BYTES {
        return Err(ZooError::TooLarge { path: path.to_path_buf(), bytes, max: MAX_BYTES });
    }
    Ok(())
}

/// Publishes the checkpoint `checkpoint` names (a run or checkpoint directory, `step-N.json`
/// or `step-N.safetensors`, as [`checkpoint::resolve`]) into `zoo_dir` under `name`. The
/// checkpoint is loaded first (checksum, encoding version, architecture); its weights file is
/// copied unchanged, then the metadata written, each under a temporary name and renamed.
///
/// # Errors
/// A bad name, a checkpoint that does not load, weights over [`MAX_BYTES`], the same net
/// already published under `name`, or a failed write.
pub fn publish(checkpoint_path: &Path, zoo_dir: &Path, name: &str, info: PublishInfo) -> Result<ZooEntry, ZooError> {
    check_name(name)?;
    let json = checkpoint::resolve(checkpoint_path)?;
    let meta = checkpoint::read_meta(&json)?;
    let src_dir = json.parent().unwrap_or(Path::new(".")).to_path_buf();
    let src_weights = src_dir.join(&meta.weights_file);
    check_size(&src_weights)?;
    // The whole checkpoint loads (checksums, architecture) for the encoding it records (a
    // variant's or a RULES-more game's) before anything is written.
    drop(checkpoint::load_for(&json, Device::Cpu, Expect::default(), &meta.encoding)?);
    let bytes = fs::read(&src_weights).map_err(io(&src_weights))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(ZooError::TooLarge { path: src_weights, bytes: bytes.len() as u64, max: MAX_BYTES });
    }
    let sha = checkpoint::sha256_hex(&bytes);
    let hash12 = sha[..HASH_DIGITS].to_owned();
    let stem = format!("{name}-{hash12}");
    let zoo_json = zoo_dir.join(format!("{stem}.json"));
    let zoo_weights = zoo_dir.join(format!("{stem}.safetensors"));
    if zoo_json.exists() {
        return Err(ZooError::Exists { path: zoo_json });
    }
    fs::create_dir_all(zoo_dir).map_err(io(zoo_dir))?;

    let run_dir = run_dir_of(&json);
    let command = info.command.or_else(|| {
        let cfg = run_dir.as_ref()?.join("config.toml");
        cfg.is_file().then(|| format!("anqi train --config {}", cfg.display()))
    });
    let eval = run_dir
        .as_ref()
        .and_then(|r| fs::read(r.join(format!("eval-step-{}.json", meta.step))).ok())
        .and_then(|b| serde_json::from_slice(&b).ok());
    let created_unix = info.created_unix.unwrap_or_else(checkpoint::now_unix);
    let mut ck = meta;
    ck.weights_file = format!("{stem}.safetensors");
    ck.weights_sha256 = Some(sha);
    ck.optimizer_file = None;
    ck.optimizer_crc32 = None;
    let zoo = ZooInfo {
        name: name.to_owned(),
        source: Source {
            checkpoint: json.display().to_string(),
            run_dir: run_dir.map(|r| r.display().to_string()),
            step: ck.step,
        },
        training_command: command,
        results: info.results,
        eval,
        created: utc_date(created_unix),
        created_unix,
    };
    let meta = ZooMeta { checkpoint: ck, zoo };
    checkpoint::write_atomic(&zoo_weights, &bytes)?;
    let text = serde_json::to_vec_pretty(&meta).expect("metadata serialises");
    checkpoint::write_atomic(&zoo_json, &text)?;
    Ok(ZooEntry { stem, hash12, json: zoo_json, weights: zoo_weights, meta })
}

/// Reads one published net's JSON, checking that it names its weights `<stem>.safetensors`
/// and records a SHA-256 that begins with the file name's hash.
///
/// # Errors
/// [`ZooError::Metadata`] naming the file, or an I/O error.
pub fn read_entry(json: &Path) -> Result<ZooEntry, ZooError> {
    let bad = |detail: String| ZooError::Metadata { path: json.to_path_buf(), detail };
    let stem = json
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".json"))
        .ok_or_else(|| bad("not a .json file".into()))?
        .to_owned();
    let (name, hash12) = split_stem(&stem).ok_or_else(|| bad("the file name is not <name>-<12 hex digits>.json".into()))?;
    let (name, hash12) = (name.to_owned(), hash12.to_owned());
    let bytes = fs::read(json).map_err(io(json))?;
    let meta: ZooMeta = serde_json::from_slice(&bytes).map_err(|e| bad(e.to_string()))?;
    if meta.checkpoint.format != checkpoint::FORMAT {
        return Err(bad(format!("format {:?}", meta.checkpoint.format)));
    }
    if meta.zoo.name != name {
        return Err(bad(format!("published as {:?}, the file name says {name:?}", meta.zoo.name)));
    }
    let weights_file = format!("{stem}.safetensors");
    if meta.checkpoint.weights_file != weights_file {
        return Err(bad(format!("weights file {:?}, expected {weights_file:?}", meta.checkpoint.weights_file)));
    }
    let sha = meta.checkpoint.weights_sha256.as_deref().ok_or_else(|| bad("no weights_sha256".into()))?;
    if !sha.starts_with(&hash12) {
        return Err(bad(format!("the file name's hash {hash12} is not the start of the recorded SHA-256 {sha}")));
    }
    let weights = json.with_file_name(weights_file);
    Ok(ZooEntry { stem, hash12, json: json.to_path_buf(), weights, meta })
}

/// Every published net in `dir` (files `<name>-<hash12>.json`), by name, then newest first.
///
/// # Errors
/// The directory is missing or unreadable, or one of its entries' JSON is bad (named).
pub fn list(dir: &Path) -> Result<Vec<ZooEntry>, ZooError> {
    if !dir.is_dir() {
        return Err(ZooError::NoZoo { path: dir.to_path_buf() });
    }
    let mut out = Vec::new();
    for e in fs::read_dir(dir).map_err(io(dir))? {
        let path = e.map_err(io(dir))?.path();
        let stem = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".json"));
        if stem.is_some_and(|s| split_stem(s).is_some()) {
            out.push(read_entry(&path)?);
        }
    }
    out.sort_by(|a, b| {
        (a.name(), std::cmp::Reverse(a.meta.zoo.created_unix), &a.stem).cmp(&(b.name(), std::cmp::Reverse(b.meta.zoo.created_unix), &b.stem))
    });
    Ok(out)
}

/// The published net `query` names: the entry whose file stem is `query` (`surprise-0123456789ab`),
/// else the newest (by publication date) of those published under the name `query`.
///
/// # Errors
/// [`list`]'s, or [`ZooError::NotFound`] listing what there is.
pub fn resolve(dir: &Path, query: &str) -> Result<ZooEntry, ZooError> {
    let all = list(dir)?;
    if let Some(e) = all.iter().find(|e| e.stem == query) {
        return Ok(e.clone());
    }
    // `list` puts the newest of a name first.
    match all.iter().find(|e| e.name() == query) {
        Some(e) => Ok(e.clone()),
        None => {
            let known: Vec<String> = all.iter().map(|e| e.stem.clone()).collect();
            Err(ZooError::NotFound { dir: dir.to_path_buf(), name: query.to_owned(), known })
        }
    }
}

/// Loads a resolved entry into a new net on `device` for the encoding it records (a variant's,
/// or a RULES-more game's): the size limit, then [`checkpoint::load_for`] (SHA-256, checksum,
/// encoding version, architecture and what `expect` asks). [`load_for`] insists on an encoding.
///
/// # Errors
/// [`ZooError::TooLarge`], or the checkpoint loader's error (e.g. [`CheckpointError::Hash`]).
pub fn load_entry(entry: &ZooEntry, device: Device, expect: Expect) -> Result<Net, ZooError> {
    check_size(&entry.weights)?;
    let (net, _, _) = checkpoint::load_for(&entry.json, device, expect, &entry.meta.checkpoint.encoding)?;
    Ok(net)
}

/// Resolves `query` in `dir` ([`resolve`]) and loads it ([`load_entry`]).
///
/// # Errors
/// As [`resolve`] and [`load_entry`].
pub fn load(dir: &Path, query: &str, device: Device, expect: Expect) -> Result<(Net, ZooEntry), ZooError> {
    let entry = resolve(dir, query)?;
    let net = load_entry(&entry, device, expect)?;
    Ok((net, entry))
}

/// Resolves `query` in `dir` ([`resolve`]) and loads it for `encoding`: the size limit, then
/// [`checkpoint::load_for`] (a net of another game's encoding is refused naming both). The nets
/// of the RULES-more games load this way; [`load`] is this with the variants' encoding.
///
/// # Errors
/// As [`resolve`] and [`load_entry`]; [`checkpoint::CheckpointError::Encoding`] inside
/// [`ZooError`] for a net of another encoding.
pub fn load_for(dir: &Path, query: &str, device: Device, expect: Expect, encoding: &Encoding) -> Result<(Net, ZooEntry), ZooError> {
    let entry = resolve(dir, query)?;
    check_size(&entry.weights)?;
    let (net, _, _) = checkpoint::load_for(&entry.json, device, expect, encoding)?;
    Ok((net, entry))
}

/// A published net and whether it loaded ([`verify`]).
pub type Verified = (ZooEntry, Result<(), ZooError>);

/// Checks every published net in `dir` by loading it on the CPU: each entry with the outcome.
///
/// # Errors
/// [`list`]'s (a missing directory, a bad JSON).
pub fn verify(dir: &Path) -> Result<Vec<Verified>, ZooError> {
    Ok(list(dir)?
        .into_iter()
        .map(|e| {
            let r = load_entry(&e, Device::Cpu, Expect::default()).map(drop);
            (e, r)
        })
        .collect())
}

/// `2025-01-31T12:00:00Z` for a time in seconds since the Unix epoch.
pub fn utc_date(unix: u64) -> String {
    let (days, secs) = ((unix / 86_400) as i64, unix % 86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", secs / 3600, secs / 60 % 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(utc_date(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_date(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_date(1_738_281_600 + 3_723), "2025-01-31T01:02:03Z");
    }

    #[test]
    fn names_and_stems() {
        assert_eq!(split_stem("surprise-0123456789ab"), Some(("surprise", "0123456789ab")));
        assert_eq!(split_stem("jieqi-6x64-0123456789ab"), Some(("jieqi-6x64", "0123456789ab")));
        assert_eq!(split_stem("surprise-0123456789AB"), None);
        assert_eq!(split_stem("surprise"), None);
        assert_eq!(split_stem("-0123456789ab"), None);
        for ok in ["surprise", "jieqi-6x64", "a.b_c"] {
            assert!(check_name(ok).is_ok(), "{ok}");
        }
        for bad in ["", "-x", ".x", "a/b", "a b", "x-0123456789ab", &"x".repeat(65)] {
            assert!(matches!(check_name(bad), Err(ZooError::BadName { .. })), "{bad:?}");
        }
    }
}
