//! Checkpoints: `step-N.safetensors` (the net's variables, batch-norm statistics included),
//! `step-N.optim.safetensors` (optimiser state, for resuming), `step-N.json` (metadata: variant,
//! encoding version, architecture, the run's config, git revision, checksums) and a `latest` file
//! naming the newest step. Every file is written under a temporary name and renamed; the JSON is
//! written after the tensors it describes and `latest` last, so a kill at any moment leaves the
//! previous checkpoint intact. Loading checks checksums (the CRC-32, and the SHA-256 when the
//! metadata records one, as published nets do: `crate::zoo`), the encoding and the
//! architecture, and names the file in every error.
//!
//! The metadata records the net's [`Encoding`] (game, version, shapes); metadata written before
//! it did has the variant encoding ([`crate::encoding::encoding`]), which is what every such net
//! was made for. [`load`] expects the variant encoding, [`load_for`] any given one; a checkpoint
//! of another encoding is refused with [`CheckpointError::Encoding`], naming both.

use crate::net::{Net, NetConfig};
use engine::observe::{Encoding, EncodingMismatch};
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::{Path, PathBuf};
use tch::{Device, Tensor};

/// Value of [`CheckpointMeta::format`].
pub const FORMAT: &str = "anqi-checkpoint";
/// Version of the checkpoint layout.
pub const FORMAT_VERSION: u32 = 1;
/// Name of the pointer file in a checkpoint directory.
pub const LATEST: &str = "latest";

/// The JSON metadata of a checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointMeta {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`FORMAT_VERSION`].
    pub format_version: u32,
    /// Training step.
    pub step: u64,
    /// Variant name.
    pub variant: String,
    /// Encoding version of the observations and action slots (`encoding.version`).
    pub encoding_version: u32,
    /// Input planes (`encoding.observation.planes`).
    pub planes: usize,
    /// Policy slots (`encoding.actions()`).
    pub actions: usize,
    /// The encoding the net reads and writes; the variant encoding when the file predates it.
    #[serde(default = "crate::encoding::encoding")]
    pub encoding: Encoding,
    /// Net sizes.
    pub architecture: NetConfig,
    /// Trainable parameters.
    pub parameters: i64,
    /// The run's resolved configuration.
    pub config: serde_json::Value,
    /// anqi git revision.
    pub git_revision: String,
    /// Seconds since the Unix epoch.
    pub created_unix: u64,
    /// Weights file name (same directory).
    pub weights_file: String,
    /// CRC-32 of the weights file.
    pub weights_crc32: u32,
    /// SHA-256 of the weights file (lower-case hex), when recorded: published nets
    /// (`crate::zoo`) have it, training checkpoints do not. Checked on load when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights_sha256: Option<String>,
    /// Optimiser state file name, if saved.
    pub optimizer_file: Option<String>,
    /// CRC-32 of the optimiser state file.
    pub optimizer_crc32: Option<u32>,
    /// Trainer progress (iteration, samples trained, metrics), free-form.
    pub trainer: serde_json::Value,
}

/// Why a checkpoint could not be saved or loaded; every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The metadata is not a checkpoint's JSON.
    #[error("{path}: not anqi checkpoint metadata: {detail}")]
    Metadata {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// A file's checksum differs from the one in the metadata.
    #[error("{path}: checksum mismatch (file corrupt or replaced)")]
    Checksum {
        /// The file.
        path: PathBuf,
    },
    /// The weights file's SHA-256 differs from the one in the metadata.
    #[error("{path}: SHA-256 mismatch (file corrupt or replaced): the metadata records {expected}, the file hashes to {found}")]
    Hash {
        /// The weights file.
        path: PathBuf,
        /// The hash in the metadata.
        expected: String,
        /// The file's hash.
        found: String,
    },
    /// The weights do not read, or do not fit the architecture.
    #[error("{path}: {detail}")]
    Weights {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// Another encoding version.
    #[error("{path}: encoding version {found}, this build uses {expected}")]
    EncodingVersion {
        /// The file.
        path: PathBuf,
        /// Version in the checkpoint.
        found: u32,
        /// Version this build uses.
        expected: u32,
    },
    /// A net made for another encoding (game, version or shapes) than expected.
    #[error("{path}: {source}")]
    Encoding {
        /// The file.
        path: PathBuf,
        /// The expected and the found encodings (boxed: errors stay small).
        source: Box<EncodingMismatch>,
    },
    /// Another net architecture than expected.
    #[error("{path}: architecture {found} does not match the expected {expected}")]
    Architecture {
        /// The file.
        path: PathBuf,
        /// In the checkpoint.
        found: String,
        /// Expected.
        expected: String,
    },
    /// Another variant than expected.
    #[error("{path}: trained for variant {found:?}, expected {expected:?}")]
    Variant {
        /// The file.
        path: PathBuf,
        /// In the checkpoint.
        found: String,
        /// Expected.
        expected: String,
    },
    /// No checkpoint where one was looked for.
    #[error("{path}: no checkpoint here (no `latest`, no step-N.json)")]
    NotFound {
        /// The path looked at.
        path: PathBuf,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> CheckpointError + '_ {
    move |source| CheckpointError::Io { path: path.to_path_buf(), source }
}

/// Writes `bytes` to `path` through a temporary file and a rename ([`engine::fsio::write_atomic`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), CheckpointError> {
    engine::fsio::write_atomic(path, bytes).map_err(io(path))
}

fn write_tensors(path: &Path, tensors: &[(String, Tensor)]) -> Result<u32, CheckpointError> {
    let tmp = crate::shard::temp_name(path);
    let refs: Vec<(&str, &Tensor)> = tensors.iter().map(|(n, t)| (n.as_str(), t)).collect();
    Tensor::write_safetensors(&refs, &tmp)
        .map_err(|e| CheckpointError::Weights { path: path.to_path_buf(), detail: e.to_string() })?;
    let bytes = fs::read(&tmp).map_err(io(path))?;
    fs::File::open(&tmp).and_then(|f| f.sync_all()).map_err(io(path))?;
    fs::rename(&tmp, path).map_err(io(path))?;
    Ok(crc32fast::hash(&bytes))
}

/// The net's variables by name, sorted (CPU copies).
pub fn named_variables(net: &Net) -> Vec<(String, Tensor)> {
    let mut v: Vec<(String, Tensor)> =
        net.var_store().variables().into_iter().map(|(n, t)| (n, t.detach().to_device(Device::Cpu))).collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

/// What a checkpoint records besides the tensors.
pub struct SaveInfo<'a> {
    /// Training step.
    pub step: u64,
    /// Variant name.
    pub variant: &'a str,
    /// The run's configuration.
    pub config: serde_json::Value,
    /// anqi git revision.
    pub git_revision: &'a str,
    /// Trainer progress.
    pub trainer: serde_json::Value,
}

/// Saves a checkpoint of `net` (and optimiser tensors, if any) as `dir/step-N.*` and points
/// `dir/latest` at it. Returns the metadata path.
pub fn save(
    dir: &Path,
    net: &Net,
    optimizer: Option<&[(String, Tensor)]>,
    info: SaveInfo,
) -> Result<PathBuf, CheckpointError> {
    fs::create_dir_all(dir).map_err(io(dir))?;
    let stem = format!("step-{}", info.step);
    let weights_file = format!("{stem}.safetensors");
    let weights_crc32 = write_tensors(&dir.join(&weights_file), &named_variables(net))?;
    let (optimizer_file, optimizer_crc32) = match optimizer {
        Some(t) => {
            let f = format!("{stem}.optim.safetensors");
            let crc = write_tensors(&dir.join(&f), t)?;
            (Some(f), Some(crc))
        }
        None => (None, None),
    };
    let encoding = net.encoding().clone();
    let meta = CheckpointMeta {
        format: FORMAT.into(),
        format_version: FORMAT_VERSION,
        step: info.step,
        variant: info.variant.into(),
        encoding_version: encoding.version,
        planes: encoding.observation.planes,
        actions: encoding.actions(),
        encoding,
        architecture: net.config().clone(),
        parameters: net.parameter_count(),
        config: info.config,
        git_revision: info.git_revision.into(),
        created_unix: now_unix(),
        weights_file,
        weights_crc32,
        weights_sha256: None,
        optimizer_file,
        optimizer_crc32,
        trainer: info.trainer,
    };
    let json_path = dir.join(format!("{stem}.json"));
    let json = serde_json::to_vec_pretty(&meta).expect("metadata serialises");
    write_atomic(&json_path, &json)?;
    write_atomic(&dir.join(LATEST), format!("{stem}\n").as_bytes())?;
    Ok(json_path)
}

/// Seconds since the Unix epoch.
pub fn now_unix() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// The metadata path a user's path names: a checkpoint directory (through `latest`), a
/// `step-N.json`, or a `step-N.safetensors` (its JSON beside it).
pub fn resolve(path: &Path) -> Result<PathBuf, CheckpointError> {
    if path.is_dir() {
        let latest = path.join(LATEST);
        let sub = path.join("checkpoints");
        if !latest.exists() && sub.join(LATEST).exists() {
            return resolve(&sub);
        }
        let text = fs::read_to_string(&latest).map_err(|_| CheckpointError::NotFound { path: path.to_path_buf() })?;
        let stem = text.trim();
        if stem.is_empty() || stem.contains('/') {
            return Err(CheckpointError::Metadata { path: latest, detail: format!("`latest` holds {stem:?}, not step-N") });
        }
        return Ok(path.join(format!("{stem}.json")));
    }
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if let Some(stem) = name.strip_suffix(".optim.safetensors").or_else(|| name.strip_suffix(".safetensors")) {
        return Ok(path.with_file_name(format!("{stem}.json")));
    }
    if path.exists() {
        Ok(path.to_path_buf())
    } else {
        Err(CheckpointError::NotFound { path: path.to_path_buf() })
    }
}

/// Whether `dir` holds a checkpoint (`latest`).
pub fn exists(dir: &Path) -> bool {
    dir.join(LATEST).is_file()
}

/// Reads and checks a checkpoint's metadata: the format, and that the encoding version, planes
/// and actions agree with the recorded encoding (whose match with what a loader expects is
/// [`load_for`]'s check).
///
/// # Errors
/// [`CheckpointError::Io`], [`CheckpointError::Metadata`], [`CheckpointError::EncodingVersion`].
pub fn read_meta(json_path: &Path) -> Result<CheckpointMeta, CheckpointError> {
    let text = fs::read(json_path).map_err(io(json_path))?;
    let bad = |detail: String| CheckpointError::Metadata { path: json_path.to_path_buf(), detail };
    let meta: CheckpointMeta = serde_json::from_slice(&text).map_err(|e| bad(e.to_string()))?;
    if meta.format != FORMAT {
        return Err(bad(format!("format {:?}", meta.format)));
    }
    if meta.format_version != FORMAT_VERSION {
        return Err(bad(format!("format version {}, this build reads {FORMAT_VERSION}", meta.format_version)));
    }
    let e = &meta.encoding;
    if meta.encoding_version != e.version || meta.planes != e.observation.planes || meta.actions != e.actions() {
        return Err(CheckpointError::EncodingVersion {
            path: json_path.to_path_buf(),
            found: meta.encoding_version,
            expected: e.version,
        });
    }
    Ok(meta)
}

/// The SHA-256 of `bytes` as 64 lower-case hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads a tensor file named by the metadata, checking its SHA-256 (when given) and CRC.
fn read_tensors(dir: &Path, file: &str, crc: u32, sha256: Option<&str>) -> Result<Vec<(String, Tensor)>, CheckpointError> {
    let path = dir.join(file);
    let bytes = fs::read(&path).map_err(io(&path))?;
    if let Some(expected) = sha256 {
        let found = sha256_hex(&bytes);
        if !found.eq_ignore_ascii_case(expected) {
            return Err(CheckpointError::Hash { path, expected: expected.to_owned(), found });
        }
    }
    if crc32fast::hash(&bytes) != crc {
        return Err(CheckpointError::Checksum { path });
    }
    Tensor::read_safetensors(&path).map_err(|e| CheckpointError::Weights { path, detail: e.to_string() })
}

/// Copies named tensors into `net`, requiring exactly its variables with their shapes.
pub fn load_into(net: &mut Net, tensors: Vec<(String, Tensor)>, path: &Path) -> Result<(), CheckpointError> {
    let bad = |detail: String| CheckpointError::Weights { path: path.to_path_buf(), detail };
    let mut vars = net.var_store().variables();
    if tensors.len() != vars.len() {
        return Err(bad(format!("{} tensors, the net has {} variables", tensors.len(), vars.len())));
    }
    tch::no_grad(|| {
        for (name, src) in tensors {
            let dst = vars.get_mut(&name).ok_or_else(|| bad(format!("unexpected tensor {name:?}")))?;
            if dst.size() != src.size() {
                return Err(bad(format!("tensor {name}: shape {:?}, the net has {:?}", src.size(), dst.size())));
            }
            dst.f_copy_(&src.to_kind(dst.kind())).map_err(|e| bad(format!("tensor {name}: {e}")))?;
        }
        Ok(())
    })
}

/// What a loader expects of a checkpoint (each `None` accepts anything).
#[derive(Default, Clone, Copy)]
pub struct Expect<'a> {
    /// Variant name.
    pub variant: Option<&'a str>,
    /// Net sizes.
    pub architecture: Option<&'a NetConfig>,
}

/// Loads the checkpoint `path` names (see [`resolve`]) into a new net on `device`, for the
/// variant encoding ([`load_for`] with [`crate::encoding::encoding`]).
pub fn load(path: &Path, device: Device, expect: Expect) -> Result<(Net, CheckpointMeta, PathBuf), CheckpointError> {
    load_for(path, device, expect, &crate::encoding::encoding())
}

/// Loads the checkpoint `path` names (see [`resolve`]) into a new net for `encoding` on
/// `device`.
///
/// # Errors
/// [`CheckpointError::Encoding`] (naming both encodings) when the checkpoint was made for
/// another encoding; every other [`CheckpointError`] as the files and `expect` give.
pub fn load_for(path: &Path, device: Device, expect: Expect, encoding: &Encoding) -> Result<(Net, CheckpointMeta, PathBuf), CheckpointError> {
    let json = resolve(path)?;
    let meta = read_meta(&json)?;
    if let Err(e) = encoding.check_same(&meta.encoding) {
        return Err(CheckpointError::Encoding { path: json, source: Box::new(e) });
    }
    if let Some(v) = expect.variant {
        if meta.variant != v {
            return Err(CheckpointError::Variant { path: json, found: meta.variant, expected: v.into() });
        }
    }
    if let Some(a) = expect.architecture {
        if &meta.architecture != a {
            return Err(CheckpointError::Architecture {
                path: json,
                found: format!("{:?}", meta.architecture),
                expected: format!("{a:?}"),
            });
        }
    }
    let dir = json.parent().unwrap_or(Path::new(".")).to_path_buf();
    let tensors = read_tensors(&dir, &meta.weights_file, meta.weights_crc32, meta.weights_sha256.as_deref())?;
    let mut net = Net::with_encoding(&meta.architecture, &meta.encoding, device, 0);
    load_into(&mut net, tensors, &dir.join(&meta.weights_file))?;
    Ok((net, meta, json))
}

/// Reads the optimiser tensors a checkpoint saved (empty if it saved none).
pub fn load_optimizer(json: &Path, meta: &CheckpointMeta) -> Result<Vec<(String, Tensor)>, CheckpointError> {
    let dir = json.parent().unwrap_or(Path::new("."));
    match (&meta.optimizer_file, meta.optimizer_crc32) {
        (Some(f), Some(crc)) => read_tensors(dir, f, crc, None),
        _ => Ok(Vec::new()),
    }
}
