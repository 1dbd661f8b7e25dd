//! Evaluation-training shards (issue #36 item 2): positions of the farm's games, each labelled
//! with the searching player's score and the game's result, for the learned evaluation
//! (`engine::nnue`). Bincode 2 with a versioned header and CRC-32 checksums, written under a
//! temporary name and published by a rename, so a reader never sees half a shard and a killed run
//! loses at most the shard in progress.
//!
//! File layout (integers little-endian):
//! ```text
//! magic "ANQIEVSH" | u32 format version | u32 header length | u32 header CRC-32 | header
//! | u64 payload length | u32 payload CRC-32 | payload
//! ```
//! The header ([`EvalShardHeader`]) and the payload (`Vec<EvalSample>`) are bincode 2 (standard
//! config) of their serde forms. Shard `seq` of a run is `eval-<seq>.evshard` ([`file_name`]);
//! a run resumes at the first sequence number without a complete shard ([`complete_prefix`]).

use engine::geometry::Square;
use engine::nnue::PieceOn;
use engine::piece::{Color, Piece, Role};
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::{Path, PathBuf};

/// File magic.
pub const MAGIC: &[u8; 8] = b"ANQIEVSH";
/// Version of the file layout, [`EvalShardHeader`] and [`EvalSample`].
pub const FORMAT_VERSION: u32 = 1;
/// File name extension.
pub const EXTENSION: &str = "evshard";

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvalSample {
    /// The pieces: raw square index (`rank * 11 + file`), piece code ([`Piece::index`]:
    /// `colour * 7 + role`, the type it moves as in the core position) and whether it is face
    /// down (its identity unknown to the side to move).
    pub pieces: Vec<(u8, u8, bool)>,
    /// Side to move: 0 Red, 1 Black ([`Color::index`]).
    pub stm: u8,
    /// The search's score for the side to move, centipawns (never a mate score).
    pub score_cp: i16,
    /// The game's result for the side to move: 1 win, 0 draw, -1 loss.
    pub result: i8,
    /// Plies played before this position (set-up actions not counted).
    pub ply: u16,
}

impl EvalSample {
    /// A sample of `pieces` (as `engine::nnue::pieces_of` lists them).
    pub fn new(pieces: &[PieceOn], stm: Color, score_cp: i16, result: i8, ply: u16) -> EvalSample {
        EvalSample {
            pieces: pieces.iter().map(|p| (p.sq.raw(), p.piece.index() as u8, p.face_down)).collect(),
            stm: stm.index() as u8,
            score_cp,
            result,
            ply,
        }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        Color::ALL[usize::from(self.stm & 1)]
    }

    /// The same position mirrored left-right on a board of `files` files (file `f` becomes
    /// `files - 1 - f`), with the same labels.
    pub fn mirrored(&self, files: u8) -> EvalSample {
        let flip = |sq: u8| {
            let (file, rank) = (sq % 11, sq / 11);
            rank * 11 + files.saturating_sub(1).saturating_sub(file)
        };
        EvalSample { pieces: self.pieces.iter().map(|&(sq, code, down)| (flip(sq), code, down)).collect(), ..self.clone() }
    }

    /// The pieces as the evaluation sees them (checked by every read: [`EvalSample::check`]).
    pub fn pieces_on(&self) -> Vec<PieceOn> {
        self.pieces
            .iter()
            .filter_map(|&(sq, code, face_down)| Some(PieceOn { sq: Square::new(sq % 11, sq / 11)?, piece: piece_of(code)?, face_down }))
            .collect()
    }

    fn check(&self) -> Result<(), String> {
        if self.stm > 1 {
            return Err(format!("side to move {} (expected 0 or 1)", self.stm));
        }
        if !(-1..=1).contains(&self.result) {
            return Err(format!("result {} outside -1..=1", self.result));
        }
        for &(sq, code, _) in &self.pieces {
            if Square::new(sq % 11, sq / 11).is_none() || sq >= 121 {
                return Err(format!("square index {sq} outside the board"));
            }
            if piece_of(code).is_none() {
                return Err(format!("piece code {code} (expected below 14)"));
            }
        }
        Ok(())
    }
}

/// The piece of code `colour * 7 + role`.
fn piece_of(code: u8) -> Option<Piece> {
    let color = *Color::ALL.get(usize::from(code) / Role::COUNT)?;
    Some(Piece::new(color, Role::from_index(usize::from(code) % Role::COUNT)?))
}

/// What a shard holds and how it was made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvalShardHeader {
    /// Variant name.
    pub variant: String,
    /// The shard's sequence number in its run.
    pub seq: u64,
    /// The player that chose every move and scored the positions (a bot spec, e.g.
    /// `alphabeta:nodes=4000` searched by `view_search`).
    pub searcher: String,
    /// Games played.
    pub games: u32,
    /// Samples in the payload.
    pub samples: u64,
    /// Plies of the games, summed.
    pub plies: u64,
    /// Games won by either side (the rest drawn or adjudicated drawn).
    pub decisive: u32,
    /// anqi git revision that wrote it.
    pub git_revision: String,
    /// Seconds since the Unix epoch at writing.
    pub created_unix: u64,
}

/// Why a shard could not be written or read; every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum EvalShardError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file does not start with [`MAGIC`].
    #[error("{path}: not an anqi evaluation shard (bad magic)")]
    NotAShard {
        /// The file.
        path: PathBuf,
    },
    /// A format version this build does not read.
    #[error("{path}: evaluation shard format version {found}, this build reads {FORMAT_VERSION}")]
    FormatVersion {
        /// The file.
        path: PathBuf,
        /// Version in the file.
        found: u32,
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
pub fn to_bytes(header: &EvalShardHeader, samples: &[EvalSample]) -> Vec<u8> {
    let h = bincode::serde::encode_to_vec(header, config()).expect("evaluation shard header encodes");
    let p = bincode::serde::encode_to_vec(samples, config()).expect("evaluation samples encode");
    crate::shard::frame(MAGIC, FORMAT_VERSION, &h, &p)
}

/// Writes a shard atomically (temporary name, `fsync`, rename: `engine::fsio::write_atomic`).
///
/// # Errors
/// [`EvalShardError::Io`] naming `path`.
pub fn write(path: &Path, header: &EvalShardHeader, samples: &[EvalSample]) -> Result<(), EvalShardError> {
    engine::fsio::write_atomic(path, &to_bytes(header, samples)).map_err(|source| EvalShardError::Io { path: path.to_path_buf(), source })
}

/// Reads and checks a whole shard.
///
/// # Errors
/// An [`EvalShardError`] naming `path` for a missing, foreign, truncated or corrupt file.
pub fn read(path: &Path) -> Result<(EvalShardHeader, Vec<EvalSample>), EvalShardError> {
    let bytes = fs::read(path).map_err(|source| EvalShardError::Io { path: path.to_path_buf(), source })?;
    parse(path, &bytes)
}

/// Parses shard bytes (`path` only names the source in errors).
///
/// # Errors
/// As [`read`].
pub fn parse(path: &Path, bytes: &[u8]) -> Result<(EvalShardHeader, Vec<EvalSample>), EvalShardError> {
    let invalid = |detail: String| EvalShardError::Invalid { path: path.to_path_buf(), detail };
    let mut at = 0usize;
    let mut take = |n: usize, what: &str| -> Result<&[u8], EvalShardError> {
        let end = at.checked_add(n).filter(|&e| e <= bytes.len()).ok_or_else(|| EvalShardError::Truncated {
            path: path.to_path_buf(),
            detail: format!("{what}: needs {n} bytes at offset {at}, file has {}", bytes.len()),
        })?;
        let s = &bytes[at..end];
        at = end;
        Ok(s)
    };
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(EvalShardError::NotAShard { path: path.to_path_buf() });
    }
    take(MAGIC.len(), "magic")?;
    let u32_of = |s: &[u8]| u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
    let version = u32_of(take(4, "format version")?);
    if version != FORMAT_VERSION {
        return Err(EvalShardError::FormatVersion { path: path.to_path_buf(), found: version });
    }
    let hlen = u32_of(take(4, "header length")?) as usize;
    let hcrc = u32_of(take(4, "header checksum")?);
    let h = take(hlen, "header")?;
    if crc32fast::hash(h) != hcrc {
        return Err(EvalShardError::Checksum { path: path.to_path_buf(), part: "header" });
    }
    let header: EvalShardHeader =
        bincode::serde::decode_from_slice(h, config()).map_err(|e| invalid(format!("header does not decode: {e}")))?.0;
    let plen = take(8, "payload length")?;
    let plen = u64::from_le_bytes(plen.try_into().expect("8 bytes"));
    let pcrc = u32_of(take(4, "payload checksum")?);
    let plen = usize::try_from(plen).map_err(|_| invalid(format!("payload length {plen} too large")))?;
    let p = take(plen, "payload")?;
    if crc32fast::hash(p) != pcrc {
        return Err(EvalShardError::Checksum { path: path.to_path_buf(), part: "payload" });
    }
    if at != bytes.len() {
        return Err(invalid(format!("{} bytes after the payload", bytes.len() - at)));
    }
    let (samples, _): (Vec<EvalSample>, usize) =
        bincode::serde::decode_from_slice(p, config()).map_err(|e| invalid(format!("payload does not decode: {e}")))?;
    if samples.len() as u64 != header.samples {
        return Err(invalid(format!("header says {} samples, payload has {}", header.samples, samples.len())));
    }
    for (i, s) in samples.iter().enumerate() {
        s.check().map_err(|e| invalid(format!("sample {i}: {e}")))?;
    }
    Ok((header, samples))
}

/// The file name of shard `seq`: `eval-<seq>.evshard`, zero-padded so names sort by number.
pub fn file_name(seq: u64) -> String {
    format!("eval-{seq:06}.{EXTENSION}")
}

/// The shard files of `dir` (`*.evshard`, not temporary files), sorted by name; none when `dir`
/// does not exist.
///
/// # Errors
/// [`EvalShardError::Io`] when `dir` cannot be listed.
pub fn list(dir: &Path) -> Result<Vec<PathBuf>, EvalShardError> {
    let rd = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(EvalShardError::Io { path: dir.to_path_buf(), source }),
    };
    let mut out: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == EXTENSION) && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
        .collect();
    out.sort();
    Ok(out)
}

/// How many shards `0, 1, …` are present in `dir` without a gap: the sequence number a resumed
/// run starts at (shards are published atomically, so a present shard is complete).
pub fn complete_prefix(dir: &Path) -> u64 {
    let mut n = 0u64;
    while dir.join(file_name(n)).is_file() {
        n += 1;
    }
    n
}

/// Every sample of every shard of `dir`, with the headers.
///
/// # Errors
/// The first shard that does not read.
pub fn read_all(dir: &Path) -> Result<(Vec<EvalShardHeader>, Vec<EvalSample>), EvalShardError> {
    let mut headers = Vec::new();
    let mut samples = Vec::new();
    for p in list(dir)? {
        let (h, mut s) = read(&p)?;
        headers.push(h);
        samples.append(&mut s);
    }
    Ok((headers, samples))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(samples: u64) -> EvalShardHeader {
        EvalShardHeader {
            variant: "xiangqi".into(),
            seq: 0,
            searcher: "alphabeta:nodes=100".into(),
            games: 1,
            samples,
            plies: 10,
            decisive: 0,
            git_revision: "test".into(),
            created_unix: 1,
        }
    }

    #[test]
    fn round_trip_and_damage_is_named() {
        let s = EvalSample { pieces: vec![(4, 0, false), (103, 7, false), (12, 12, true)], stm: 1, score_cp: -35, result: 1, ply: 9 };
        let bytes = to_bytes(&header(1), std::slice::from_ref(&s));
        let path = Path::new("x.evshard");
        let (h, got) = parse(path, &bytes).expect("reads back");
        assert_eq!((h, got), (header(1), vec![s.clone()]));
        let pieces = s.pieces_on();
        assert_eq!(pieces.len(), 3);
        assert_eq!(pieces[2].piece, Piece::new(Color::Black, Role::ALL[5]));
        assert!(pieces[2].face_down);
        assert_eq!(s.side_to_move(), Color::Black);
        let mut bad = bytes.clone();
        let last = bad.len() - 1;
        bad[last] ^= 0xFF;
        assert!(matches!(parse(path, &bad), Err(EvalShardError::Checksum { part: "payload", .. })));
        assert!(matches!(parse(path, &bytes[..bytes.len() - 3]), Err(EvalShardError::Truncated { .. })));
        assert!(matches!(parse(path, b"ANQISHRD...."), Err(EvalShardError::NotAShard { .. })));
        let wrong = EvalSample { pieces: vec![(4, 14, false)], ..s };
        let err = parse(path, &to_bytes(&header(1), &[wrong])).expect_err("piece code 14");
        assert!(err.to_string().contains("x.evshard") && err.to_string().contains("piece code 14"), "{err}");
    }
}
