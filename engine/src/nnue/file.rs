//! The network file: versioned and hash-checked, written under a temporary name and renamed.
//!
//! Layout (integers little-endian):
//! ```text
//! magic "ANQINNUE" | u32 format version | u32 INPUTS | u32 HIDDEN | u32 meta length | meta (TOML)
//! | i16 x INPUTS*HIDDEN first-layer weights | i16 x HIDDEN first-layer bias
//! | i16 x 2*HIDDEN output weights | i32 output bias | u64 FNV-1a 64 of every byte before it
//! ```

use super::{NetMeta, Network, HIDDEN, INPUTS};
use std::path::{Path, PathBuf};

/// File magic.
pub const MAGIC: &[u8; 8] = b"ANQINNUE";
/// Version of the layout and of the feature map ([`super::feature`]); a file of another version
/// is refused.
pub const FORMAT_VERSION: u32 = 1;
/// Largest metadata block read (bytes).
const MAX_META: usize = 64 * 1024;

/// Why a network file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum NnueError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file does not start with [`MAGIC`].
    #[error("{path}: not an anqi evaluation network (no ANQINNUE magic)")]
    Magic {
        /// The file.
        path: PathBuf,
    },
    /// The file's format version is not [`FORMAT_VERSION`].
    #[error("{path}: network format version {found}, this build reads {expected}")]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
        /// [`FORMAT_VERSION`].
        expected: u32,
    },
    /// The file's shapes are not this build's.
    #[error("{path}: network shape {inputs} x {hidden}, this build uses {} x {}", INPUTS, HIDDEN)]
    Shape {
        /// The file.
        path: PathBuf,
        /// Inputs in the file.
        inputs: u32,
        /// Hidden width in the file.
        hidden: u32,
    },
    /// The file ends before its data, or has bytes after its hash.
    #[error("{path}: {what} at byte offset {offset}")]
    Length {
        /// The file.
        path: PathBuf,
        /// What was expected there.
        what: &'static str,
        /// Where.
        offset: usize,
    },
    /// The metadata block is not valid TOML of [`NetMeta`].
    #[error("{path}: metadata: {message}")]
    Meta {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// A `zoo:NAME` with no such network in the zoo.
    #[error("no evaluation network {name:?} in the zoo {dir} (expected eval-{name}.nnue there; set ANQI_ZOO or run from the repository root)")]
    NotInZoo {
        /// The name.
        name: String,
        /// The zoo directory searched.
        dir: PathBuf,
    },
    /// The stored hash is not that of the bytes (a damaged file).
    #[error("{path}: hash mismatch: stored {stored:016x}, computed {computed:016x} (damaged file)")]
    Hash {
        /// The file.
        path: PathBuf,
        /// Stored.
        stored: u64,
        /// Computed.
        computed: u64,
    },
}

/// FNV-1a 64 of `bytes`.
pub(super) fn hash_of(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl Network {
    /// The file's bytes before the hash.
    pub(super) fn body_bytes(&self) -> Vec<u8> {
        let meta = toml::to_string(&self.meta).unwrap_or_default();
        let mut b = Vec::with_capacity(32 + meta.len() + 2 * (INPUTS * HIDDEN + 3 * HIDDEN) + 12);
        b.extend_from_slice(MAGIC);
        for v in [FORMAT_VERSION, INPUTS as u32, HIDDEN as u32, meta.len() as u32] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(meta.as_bytes());
        for w in self.ft_weight.iter().chain(&self.ft_bias).chain(&self.out_weight) {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b.extend_from_slice(&self.out_bias.to_le_bytes());
        b
    }

    /// The whole file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = self.body_bytes();
        let h = hash_of(&b);
        b.extend_from_slice(&h.to_le_bytes());
        b
    }

    /// Writes the network to `path` (temporary name, then rename).
    ///
    /// # Errors
    /// [`NnueError::Io`].
    pub fn save(&self, path: &Path) -> Result<(), NnueError> {
        crate::fsio::write_atomic(path, &self.to_bytes()).map_err(|source| NnueError::Io { path: path.to_owned(), source })
    }

    /// Reads a network file.
    ///
    /// # Errors
    /// [`NnueError`] naming the file and what is wrong (magic, version, shape, length, metadata,
    /// hash).
    pub fn load(path: &Path) -> Result<Network, NnueError> {
        let bytes = std::fs::read(path).map_err(|source| NnueError::Io { path: path.to_owned(), source })?;
        Network::from_bytes(&bytes, path)
    }

    /// Reads a network from its file's bytes (`path` names it in errors).
    ///
    /// # Errors
    /// As [`Network::load`].
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Network, NnueError> {
        let p = || path.to_owned();
        let short = |what, offset| NnueError::Length { path: p(), what, offset };
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(NnueError::Magic { path: p() });
        }
        let u32_at = |o: usize| bytes.get(o..o + 4).map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]])).ok_or(short("the header ends", o));
        let version = u32_at(8)?;
        if version != FORMAT_VERSION {
            return Err(NnueError::Version { path: p(), found: version, expected: FORMAT_VERSION });
        }
        let (inputs, hidden) = (u32_at(12)?, u32_at(16)?);
        if inputs as usize != INPUTS || hidden as usize != HIDDEN {
            return Err(NnueError::Shape { path: p(), inputs, hidden });
        }
        let meta_len = u32_at(20)? as usize;
        if meta_len > MAX_META {
            return Err(NnueError::Meta { path: p(), message: format!("{meta_len} bytes (at most {MAX_META})") });
        }
        let mut o = 24;
        let meta_bytes = bytes.get(o..o + meta_len).ok_or(short("the metadata ends", o))?;
        let meta_text = std::str::from_utf8(meta_bytes).map_err(|e| NnueError::Meta { path: p(), message: e.to_string() })?;
        let meta: NetMeta = toml::from_str(meta_text).map_err(|e| NnueError::Meta { path: p(), message: e.to_string() })?;
        o += meta_len;
        let weights = INPUTS * HIDDEN + 3 * HIDDEN;
        let body_end = o + 2 * weights + 4;
        if bytes.len() < body_end + 8 {
            return Err(short("the file ends before its weights and hash", bytes.len()));
        }
        if bytes.len() > body_end + 8 {
            return Err(short("bytes after the hash", body_end + 8));
        }
        let stored = u64::from_le_bytes(bytes[body_end..body_end + 8].try_into().map_err(|_| short("the hash", body_end))?);
        let computed = hash_of(&bytes[..body_end]);
        if stored != computed {
            return Err(NnueError::Hash { path: p(), stored, computed });
        }
        let w: Vec<i16> = bytes[o..o + 2 * weights].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
        let ob = &bytes[o + 2 * weights..body_end];
        let out_bias = i32::from_le_bytes([ob[0], ob[1], ob[2], ob[3]]);
        let (ft_weight, rest) = w.split_at(INPUTS * HIDDEN);
        let (ft_bias, out_weight) = rest.split_at(HIDDEN);
        Ok(Network {
            ft_weight: ft_weight.to_vec(),
            ft_bias: ft_bias.to_vec(),
            out_weight: out_weight.to_vec(),
            out_bias,
            meta,
            hash: computed,
            simd: super::simd::available(),
        })
    }
}
