//! Self-play sample shards: bincode 2 with a versioned header and CRC-32 checksums, written under a
//! temporary name and renamed into place, so a reader never sees half a shard.
//!
//! File layout (integers little-endian):
//! ```text
//! magic "ANQISHRD" | u32 format version | u32 header length | u32 header CRC-32 | header
//! | u64 payload length | u32 payload CRC-32 | payload
//! ```
//! The header ([`ShardHeader`]) and the payload (`Vec<Sample>`) are bincode 2 (standard config)
//! of their serde forms. Readers check the magic, both versions (format, encoding), lengths,
//! checksums and every sample's indices, and name the file in every error. Format version 2
//! added the net architecture to the header, version 3 the [`Encoding`] (game, version, shapes);
//! version 1 and 2 files still read (architecture unknown in 1; the variant encoding, of the
//! version they record, in both). [`read`] and [`read_header`] expect the variant encoding
//! ([`crate::encoding::encoding`]), [`read_for`] and [`read_header_for`] any given one: a shard
//! of another encoding is refused with [`ShardError::Encoding`], naming both. [`check_header`]
//! refuses a shard of another variant or architecture than a run expects.

use crate::encoding::CompactObs;
use crate::net::NetConfig;
use engine::observe::{Encoding, EncodingMismatch};
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// File magic.
pub const MAGIC: &[u8; 8] = b"ANQISHRD";
/// Version of the file layout and of [`ShardHeader`] / [`Sample`] (2: the header records the
/// net architecture; 3: the encoding).
pub const FORMAT_VERSION: u32 = 3;
/// The oldest format version this build still reads (1: no architecture in the header).
pub const OLDEST_FORMAT_VERSION: u32 = 1;
/// File name extension of shards.
pub const EXTENSION: &str = "shard";

/// One training sample: what the acting player saw, what the search preferred, and how the
/// game ended for that player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// The observation (encoding version in the header).
    pub obs: CompactObs,
    /// The search's visit distribution over action slots (sums to 1).
    pub policy: Vec<(u16, f32)>,
    /// The legal action slots (the policy mask).
    pub legal: Vec<u16>,
    /// The game's result for the acting player in [-1, 1]: 1 win, 0 draw, -1 loss; a game
    /// adjudicated at the ply limit may carry a graded result (the run's adjudication rule).
    pub outcome: f32,
    /// The search's value of the position for the acting player (mean over the root's visits).
    pub q: f32,
    /// Ply of the game at which the sample was taken.
    pub ply: u16,
}

impl Sample {
    /// A value in [-1, 1] as a win/draw/loss distribution with that expectation: win
    /// `max(v, 0)`, loss `max(-v, 0)`, draw the rest.
    pub fn wdl(v: f32) -> [f32; 3] {
        let v = v.clamp(-1.0, 1.0);
        [v.max(0.0), 1.0 - v.abs(), (-v).max(0.0)]
    }

    fn check(&self, encoding: &Encoding) -> Result<(), String> {
        if self.legal.is_empty() {
            return Err("a sample has no legal action".into());
        }
        let actions = encoding.actions();
        if let Some(&a) = self.legal.iter().find(|&&a| usize::from(a) >= actions) {
            return Err(format!("legal action slot {a} out of range (< {actions})"));
        }
        if let Some(&(a, _)) = self.policy.iter().find(|(a, _)| !self.legal.contains(a)) {
            return Err(format!("policy slot {a} is not among the legal slots"));
        }
        if self.policy.iter().any(|(_, p)| !p.is_finite() || *p < 0.0) {
            return Err("policy probability not finite and non-negative".into());
        }
        if !(self.q.is_finite() && (-1.0..=1.0).contains(&self.q)) {
            return Err(format!("search value {} outside [-1, 1]", self.q));
        }
        if !(self.outcome.is_finite() && (-1.0..=1.0).contains(&self.outcome)) {
            return Err(format!("outcome {} outside [-1, 1]", self.outcome));
        }
        if !self.obs.fits(&encoding.observation) {
            return Err("observation index out of range".into());
        }
        Ok(())
    }
}

/// What a shard holds and where it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardHeader {
    /// Version of the observations and action slots (`encoding.version`, kept beside it for the
    /// readers of format 2).
    pub encoding_version: u32,
    /// The encoding of the observations and action slots.
    pub encoding: Encoding,
    /// Variant name.
    pub variant: String,
    /// Worker that played the games.
    pub worker: u32,
    /// The worker's shard sequence number.
    pub seq: u64,
    /// Training step of the net that played (0: untrained).
    pub net_step: u64,
    /// Sizes of the net that played (`None`: a format-1 shard, which did not record them).
    pub architecture: Option<NetConfig>,
    /// Games played.
    pub games: u32,
    /// Samples in the payload.
    pub samples: u64,
    /// Sum of plies of the games.
    pub plies: u64,
    /// Decisive games (not drawn, not adjudicated drawn).
    pub decisive: u32,
    /// anqi git revision that wrote it.
    pub git_revision: String,
    /// Seconds since the Unix epoch at writing.
    pub created_unix: u64,
}

/// The header of format version 2 (no encoding: the variant encoding of `encoding_version`),
/// read for compatibility.
#[derive(Deserialize)]
#[cfg_attr(test, derive(Serialize))]
struct ShardHeaderV2 {
    encoding_version: u32,
    variant: String,
    worker: u32,
    seq: u64,
    net_step: u64,
    architecture: Option<NetConfig>,
    games: u32,
    samples: u64,
    plies: u64,
    decisive: u32,
    git_revision: String,
    created_unix: u64,
}

impl From<ShardHeaderV2> for ShardHeader {
    fn from(h: ShardHeaderV2) -> ShardHeader {
        ShardHeader {
            encoding_version: h.encoding_version,
            encoding: Encoding { version: h.encoding_version, ..crate::encoding::encoding() },
            variant: h.variant,
            worker: h.worker,
            seq: h.seq,
            net_step: h.net_step,
            architecture: h.architecture,
            games: h.games,
            samples: h.samples,
            plies: h.plies,
            decisive: h.decisive,
            git_revision: h.git_revision,
            created_unix: h.created_unix,
        }
    }
}

/// The header of format version 1 (no architecture), read for compatibility.
#[derive(Deserialize)]
#[cfg_attr(test, derive(Serialize))]
struct ShardHeaderV1 {
    encoding_version: u32,
    variant: String,
    worker: u32,
    seq: u64,
    net_step: u64,
    games: u32,
    samples: u64,
    plies: u64,
    decisive: u32,
    git_revision: String,
    created_unix: u64,
}

/// Format 1 is format 2 without the architecture: read through [`ShardHeaderV2`] so the
/// conversion to the current header is written once.
impl From<ShardHeaderV1> for ShardHeaderV2 {
    fn from(h: ShardHeaderV1) -> ShardHeaderV2 {
        ShardHeaderV2 {
            encoding_version: h.encoding_version,
            variant: h.variant,
            worker: h.worker,
            seq: h.seq,
            net_step: h.net_step,
            architecture: None,
            games: h.games,
            samples: h.samples,
            plies: h.plies,
            decisive: h.decisive,
            git_revision: h.git_revision,
            created_unix: h.created_unix,
        }
    }
}

/// What a run expects of the shards it trains on ([`check_header`]).
#[derive(Clone, Copy, Debug)]
pub struct Expect<'a> {
    /// Variant name.
    pub variant: &'a str,
    /// Net sizes (a format-1 shard, which does not record them, passes).
    pub architecture: Option<&'a NetConfig>,
}

/// Refuses a shard whose header does not fit `expect`: another variant or another net
/// architecture ([`ShardError::Mismatch`] names the file and the field). The encoding version is
/// checked by every read.
pub fn check_header(path: &Path, header: &ShardHeader, expect: Expect) -> Result<(), ShardError> {
    let mismatch = |field: &'static str, found: String, expected: String| ShardError::Mismatch {
        path: path.to_path_buf(),
        field,
        found,
        expected,
    };
    if header.variant != expect.variant {
        return Err(mismatch("variant", format!("{:?}", header.variant), format!("{:?}", expect.variant)));
    }
    if let (Some(found), Some(want)) = (&header.architecture, expect.architecture) {
        if found != want {
            return Err(mismatch("architecture", format!("{found:?}"), format!("{want:?}")));
        }
    }
    Ok(())
}

/// Why a shard could not be written or read; every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file does not start with the shard magic.
    #[error("{path}: not an anqi shard (bad magic)")]
    NotAShard {
        /// The file.
        path: PathBuf,
    },
    /// A format version this build does not read.
    #[error("{path}: shard format version {found}, this build reads {OLDEST_FORMAT_VERSION} to {expected}")]
    FormatVersion {
        /// The file.
        path: PathBuf,
        /// Version in the file.
        found: u32,
        /// Version this build reads.
        expected: u32,
    },
    /// The samples were encoded for another encoding (game or shapes) than expected.
    #[error("{path}: {source}")]
    Encoding {
        /// The file.
        path: PathBuf,
        /// The expected and the found encodings (boxed: errors stay small).
        source: Box<EncodingMismatch>,
    },
    /// The samples were encoded with another encoding version.
    #[error("{path}: encoding version {found}, this build uses {expected} (header field `encoding_version`)")]
    EncodingVersion {
        /// The file.
        path: PathBuf,
        /// Version in the file.
        found: u32,
        /// Version this build uses.
        expected: u32,
    },
    /// A header field does not match what the reading run expects ([`check_header`]).
    #[error("{path}: header field `{field}` is {found}, this run expects {expected}")]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// The header field: `variant` or `architecture`.
        field: &'static str,
        /// Its value in the file.
        found: String,
        /// The value the run expects.
        expected: String,
    },
    /// The file ends early.
    #[error("{path}: truncated ({detail})")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// What is missing.
        detail: String,
    },
    /// A checksum does not match.
    #[error("{path}: {part} checksum mismatch (file corrupt)")]
    Checksum {
        /// The file.
        path: PathBuf,
        /// `header` or `payload`.
        part: &'static str,
    },
    /// The bytes do not decode, or decode to invalid samples.
    #[error("{path}: {detail}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
}

fn config() -> bincode::config::Configuration {
    bincode::config::standard()
}

/// Serialises a shard to bytes.
pub fn to_bytes(header: &ShardHeader, samples: &[Sample]) -> Vec<u8> {
    let h = bincode::serde::encode_to_vec(header, config()).expect("shard header encodes");
    let p = bincode::serde::encode_to_vec(samples, config()).expect("samples encode");
    frame(MAGIC, FORMAT_VERSION, &h, &p)
}

/// The framing both shard kinds share (this module's and [`crate::evalshard`]'s):
/// `magic | u32 version | u32 header length | u32 header CRC-32 | header | u64 payload length |
/// u32 payload CRC-32 | payload`, integers little-endian.
pub(crate) fn frame(magic: &[u8; 8], version: u32, h: &[u8], p: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 + h.len() + p.len());
    out.extend_from_slice(magic);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(h.len() as u32).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(h).to_le_bytes());
    out.extend_from_slice(h);
    out.extend_from_slice(&(p.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(p).to_le_bytes());
    out.extend_from_slice(p);
    out
}

/// Writes a shard atomically: to a temporary file in the same directory, synced, then published
/// under `path` by a hard link (which, unlike a rename, fails if `path` exists, even when another
/// process on another machine of a shared directory created it a moment ago) and the temporary
/// name removed. Refuses to replace an existing file (no data is ever overwritten): the error is
/// [`ShardError::Io`] of kind `AlreadyExists`. On a file system without hard links the shard is
/// renamed into place after an existence check.
pub fn write(path: &Path, header: &ShardHeader, samples: &[Sample]) -> Result<(), ShardError> {
    let io = |source| ShardError::Io { path: path.to_path_buf(), source };
    let exists = || io(std::io::Error::new(std::io::ErrorKind::AlreadyExists, "shard exists; not overwriting"));
    if path.exists() {
        return Err(exists());
    }
    let bytes = to_bytes(header, samples);
    let tmp = temp_name(path);
    {
        let mut f = fs::File::create(&tmp).map_err(io)?;
        f.write_all(&bytes).map_err(io)?;
        f.sync_all().map_err(io)?;
    }
    match fs::hard_link(&tmp, path) {
        Ok(()) => fs::remove_file(&tmp).map_err(io),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let _ = fs::remove_file(&tmp);
            Err(exists())
        }
        // No hard links here (some network or FUSE file systems): the checked rename.
        Err(_) if !path.exists() => fs::rename(&tmp, path).map_err(io),
        Err(_) => {
            let _ = fs::remove_file(&tmp);
            Err(exists())
        }
    }
}

/// A 64-bit digest of a shard's samples (SipHash of their serialised payload, the bytes the
/// payload checksum covers): two shards with the same digest hold the same games.
pub fn payload_digest(samples: &[Sample]) -> u64 {
    use std::hash::{Hash, Hasher};
    let p = bincode::serde::encode_to_vec(samples, config()).expect("samples encode");
    let mut h = std::collections::hash_map::DefaultHasher::new();
    p.hash(&mut h);
    h.finish()
}

/// `.<name>.<pid>.<n>.tmp` next to `path`, `n` counting this process's temporary names, so two
/// threads writing the same name never share a temporary file.
pub fn temp_name(path: &Path) -> PathBuf {
    engine::fsio::temp_name(path)
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    path: &'a Path,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], ShardError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or_else(|| ShardError::Truncated {
            path: self.path.to_path_buf(),
            detail: format!("{what}: needs {n} bytes at offset {}, file has {}", self.at, self.bytes.len()),
        })?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u32(&mut self, what: &str) -> Result<u32, ShardError> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into().expect("4 bytes")))
    }
    fn u64(&mut self, what: &str) -> Result<u64, ShardError> {
        Ok(u64::from_le_bytes(self.take(8, what)?.try_into().expect("8 bytes")))
    }
}

/// Reads only the header of a shard of the variant encoding (checks magic, format version,
/// header checksum and encoding).
pub fn read_header(path: &Path) -> Result<ShardHeader, ShardError> {
    read_header_for(path, &crate::encoding::encoding())
}

/// Reads only the header of a shard of `encoding` (checks magic, format version, header
/// checksum and encoding).
pub fn read_header_for(path: &Path, encoding: &Encoding) -> Result<ShardHeader, ShardError> {
    let bytes = fs::read(path).map_err(|source| ShardError::Io { path: path.to_path_buf(), source })?;
    Ok(parse_for(path, &bytes, false, encoding)?.0)
}

/// Reads and checks a whole shard of the variant encoding.
pub fn read(path: &Path) -> Result<(ShardHeader, Vec<Sample>), ShardError> {
    read_for(path, &crate::encoding::encoding())
}

/// Reads and checks a whole shard of `encoding`.
pub fn read_for(path: &Path, encoding: &Encoding) -> Result<(ShardHeader, Vec<Sample>), ShardError> {
    let bytes = fs::read(path).map_err(|source| ShardError::Io { path: path.to_path_buf(), source })?;
    parse_for(path, &bytes, true, encoding)
}

/// Parses shard bytes of the variant encoding (`path` only names the source in errors).
pub fn parse(path: &Path, bytes: &[u8], payload: bool) -> Result<(ShardHeader, Vec<Sample>), ShardError> {
    parse_for(path, bytes, payload, &crate::encoding::encoding())
}

/// Parses shard bytes of `encoding` (`path` only names the source in errors).
///
/// # Errors
/// [`ShardError::EncodingVersion`] when the header's version disagrees with its encoding or is
/// another version of the expected game's encoding; [`ShardError::Encoding`] (naming both) when
/// it was made for another encoding; the other [`ShardError`]s for a damaged file.
pub fn parse_for(path: &Path, bytes: &[u8], payload: bool, encoding: &Encoding) -> Result<(ShardHeader, Vec<Sample>), ShardError> {
    let mut c = Cursor { bytes, at: 0, path };
    let invalid = |detail: String| ShardError::Invalid { path: path.to_path_buf(), detail };
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(ShardError::NotAShard { path: path.to_path_buf() });
    }
    c.take(MAGIC.len(), "magic")?;
    let version = c.u32("format version")?;
    if !(OLDEST_FORMAT_VERSION..=FORMAT_VERSION).contains(&version) {
        return Err(ShardError::FormatVersion { path: path.to_path_buf(), found: version, expected: FORMAT_VERSION });
    }
    let hlen = c.u32("header length")? as usize;
    let hcrc = c.u32("header checksum")?;
    let h = c.take(hlen, "header")?;
    if crc32fast::hash(h) != hcrc {
        return Err(ShardError::Checksum { path: path.to_path_buf(), part: "header" });
    }
    let undecodable = |e: bincode::error::DecodeError| invalid(format!("header does not decode: {e}"));
    let header: ShardHeader = match version {
        1 => ShardHeaderV2::from(bincode::serde::decode_from_slice::<ShardHeaderV1, _>(h, config()).map_err(undecodable)?.0).into(),
        2 => bincode::serde::decode_from_slice::<ShardHeaderV2, _>(h, config()).map_err(undecodable)?.0.into(),
        _ => bincode::serde::decode_from_slice(h, config()).map_err(undecodable)?.0,
    };
    let found = &header.encoding;
    if header.encoding_version != found.version || (found.game == encoding.game && found.version != encoding.version) {
        return Err(ShardError::EncodingVersion {
            path: path.to_path_buf(),
            found: header.encoding_version,
            expected: encoding.version,
        });
    }
    if let Err(e) = encoding.check_same(found) {
        return Err(ShardError::Encoding { path: path.to_path_buf(), source: Box::new(e) });
    }
    if !payload {
        return Ok((header, Vec::new()));
    }
    let plen = c.u64("payload length")?;
    let pcrc = c.u32("payload checksum")?;
    let plen = usize::try_from(plen).map_err(|_| invalid(format!("payload length {plen} too large")))?;
    let p = c.take(plen, "payload")?;
    if crc32fast::hash(p) != pcrc {
        return Err(ShardError::Checksum { path: path.to_path_buf(), part: "payload" });
    }
    if c.at != bytes.len() {
        return Err(invalid(format!("{} bytes after the payload", bytes.len() - c.at)));
    }
    let (samples, _): (Vec<Sample>, usize) =
        bincode::serde::decode_from_slice(p, config()).map_err(|e| invalid(format!("payload does not decode: {e}")))?;
    if samples.len() as u64 != header.samples {
        return Err(invalid(format!("header says {} samples, payload has {}", header.samples, samples.len())));
    }
    for (i, s) in samples.iter().enumerate() {
        s.check(encoding).map_err(|e| invalid(format!("sample {i}: {e}")))?;
    }
    Ok((header, samples))
}

/// The shard files (`*.shard`, not temporary files) in `dir`, sorted by name.
pub fn list(dir: &Path) -> Result<Vec<PathBuf>, ShardError> {
    let rd = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(ShardError::Io { path: dir.to_path_buf(), source }),
    };
    let mut out: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|e| e == EXTENSION)
                && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    out.sort();
    Ok(out)
}

/// The file name of worker `worker`'s shard number `seq`: `w<worker>-<seq>.shard`, zero-padded
/// so names sort by worker then sequence.
pub fn file_name(worker: u32, seq: u64) -> String {
    format!("w{worker:04}-{seq:08}.{EXTENSION}")
}

/// Worker and sequence number from a shard file name written by [`file_name`].
pub fn parse_file_name(path: &Path) -> Option<(u32, u64)> {
    let stem = path.file_stem()?.to_str()?;
    let (w, s) = stem.strip_prefix('w')?.split_once('-')?;
    Some((w.parse().ok()?, s.parse().ok()?))
}

/// The next free sequence number of `worker` in `dir` (one past the largest present).
pub fn next_seq(dir: &Path, worker: u32) -> Result<u64, ShardError> {
    Ok(list(dir)?
        .iter()
        .filter_map(|p| parse_file_name(p))
        .filter(|&(w, _)| w == worker)
        .map(|(_, s)| s + 1)
        .max()
        .unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::ENCODING_VERSION;

    /// A format-1 file (as written before the header recorded the architecture) still reads,
    /// with the architecture unknown, and passes any architecture check.
    #[test]
    fn format_1_shards_still_read() {
        let v1 = ShardHeaderV1 {
            encoding_version: ENCODING_VERSION,
            variant: "surprise".into(),
            worker: 2,
            seq: 5,
            net_step: 7,
            games: 1,
            samples: 1,
            plies: 30,
            decisive: 0,
            git_revision: "old".into(),
            created_unix: 9,
        };
        let sample = sample();
        let bytes = old_file(1, &bincode::serde::encode_to_vec(&v1, config()).expect("encodes"), &sample);
        let path = Path::new("old.shard");
        let (header, samples) = parse(path, &bytes, true).expect("a format-1 shard reads");
        assert_eq!((header.worker, header.seq, header.net_step, &header.architecture), (2, 5, 7, &None));
        assert_eq!(samples, vec![sample]);
        let net = NetConfig { blocks: 1, channels: 8, policy_channels: 4, value_channels: 2, value_hidden: 16 };
        check_header(path, &header, Expect { variant: "surprise", architecture: Some(&net) }).expect("unknown passes");
    }

    fn sample() -> Sample {
        Sample {
            obs: CompactObs { fills: vec![(1, 1.0)], cells: vec![(3, 1.0)] },
            policy: vec![(4, 1.0)],
            legal: vec![4, 8],
            outcome: 0.0,
            q: 0.25,
            ply: 3,
        }
    }

    /// A shard file of an older format `version` with the given header bytes and one sample.
    fn old_file(version: u32, h: &[u8], sample: &Sample) -> Vec<u8> {
        let p = bincode::serde::encode_to_vec(vec![sample.clone()], config()).expect("encodes");
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&version.to_le_bytes());
        bytes.extend_from_slice(&(h.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&crc32fast::hash(h).to_le_bytes());
        bytes.extend_from_slice(h);
        bytes.extend_from_slice(&(p.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&crc32fast::hash(&p).to_le_bytes());
        bytes.extend_from_slice(&p);
        bytes
    }

    /// A format-2 file (as written before the header recorded the encoding) reads as the variant
    /// encoding, and is refused where another encoding is expected.
    #[test]
    fn format_2_shards_read_as_the_variant_encoding() {
        let net = NetConfig { blocks: 1, channels: 8, policy_channels: 4, value_channels: 2, value_hidden: 16 };
        let v2 = ShardHeaderV2 {
            encoding_version: ENCODING_VERSION,
            variant: "jieqi".into(),
            worker: 1,
            seq: 2,
            net_step: 3,
            architecture: Some(net.clone()),
            games: 1,
            samples: 1,
            plies: 40,
            decisive: 1,
            git_revision: "older".into(),
            created_unix: 10,
        };
        let bytes = old_file(2, &bincode::serde::encode_to_vec(&v2, config()).expect("encodes"), &sample());
        let path = Path::new("v2.shard");
        let (header, samples) = parse(path, &bytes, true).expect("a format-2 shard reads");
        assert_eq!(header.encoding, crate::encoding::encoding());
        assert_eq!((header.variant.as_str(), header.architecture), ("jieqi", Some(net)));
        assert_eq!(samples, vec![sample()]);
        let leduc = engine::games::leduc::encoding();
        let err = parse_for(path, &bytes, false, &leduc).expect_err("not a Leduc shard");
        assert!(matches!(err, ShardError::Encoding { .. }), "{err}");
    }
}
