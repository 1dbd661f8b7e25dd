//! The study's game store: one tab-separated line per finished game, appended and flushed as each
//! game ends, so a killed run loses at most the games in flight. The first line is
//! `# draw-rates fingerprint <hex>`; a rerun with other game-deciding settings is refused rather
//! than mixed. A torn last line (no newline, or not parseable) is dropped with a note and the file
//! rewritten without it (through a temporary file and a rename).
//!
//! Columns: `preset  spec  deal  hidden|open  red_score  plies  reason  [seconds]`; the last, the
//! game's wall time on one core, is absent in stores written before it was kept.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Which game: preset, level spec, deal number, hidden or open.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    /// Preset (or rule file) name as given.
    pub preset: String,
    /// Bot spec (the level, or the ceiling).
    pub spec: String,
    /// Deal number.
    pub deal: u32,
    /// Played under the open twin.
    pub open: bool,
}

impl Key {
    /// A key.
    pub fn new(preset: &str, spec: &str, deal: u32, open: bool) -> Key {
        Key { preset: preset.into(), spec: spec.into(), deal, open }
    }

    /// The key as one line of text (the store's first four columns), for cluster task keys.
    pub fn text(&self) -> String {
        let clean = |s: &str| s.replace(['\t', '\n'], " ");
        format!("{}\t{}\t{}\t{}", clean(&self.preset), clean(&self.spec), self.deal, if self.open { "open" } else { "hidden" })
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// Which game.
    pub key: Key,
    /// Red's points (1, 0.5, 0).
    pub red_score: f64,
    /// The ending's reason.
    pub reason: String,
    /// Plies.
    pub plies: usize,
    /// Wall time of the game on one core, seconds (`None` in older stores).
    pub seconds: Option<f64>,
}

/// A game's wall time as the store keeps it: seconds to the millisecond, so that a row read
/// back equals the row written.
pub fn stored_seconds(d: std::time::Duration) -> Option<f64> {
    Some((d.as_secs_f64() * 1000.0).round() / 1000.0)
}

impl GameRow {
    /// Whether the game was drawn.
    pub fn drawn(&self) -> bool {
        self.red_score == 0.5
    }

    /// The store's line for the game (tab-separated, ending in a newline; module docs).
    pub fn line(&self) -> String {
        let secs = self.seconds.map(|s| format!("\t{s:.3}")).unwrap_or_default();
        format!("{}\t{}\t{}\t{}{secs}\n", self.key.text(), self.red_score, self.plies, self.reason.replace(['\t', '\n'], " "))
    }

    /// Parses a store line (without its newline); `None` if it is not one.
    pub fn parse(line: &str) -> Option<GameRow> {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 7 && f.len() != 8 {
            return None;
        }
        let seconds = match f.get(7) {
            Some(s) => Some(s.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0)?),
            None => None,
        };
        let open = match f[3] {
            "open" => true,
            "hidden" => false,
            _ => return None,
        };
        let red_score: f64 = f[4].parse().ok()?;
        if ![0.0, 0.5, 1.0].contains(&red_score) {
            return None;
        }
        Some(GameRow { key: Key { preset: f[0].into(), spec: f[1].into(), deal: f[2].parse().ok()?, open }, red_score, plies: f[5].parse().ok()?, reason: f[6].into(), seconds })
    }
}

/// Why the store cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// I/O on the file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file belongs to a study with other game-deciding settings.
    #[error("{path}: written by a study with fingerprint {found}, these settings have {want} (seed or ply limit differ); use another --out")]
    Fingerprint {
        /// The file.
        path: PathBuf,
        /// Its fingerprint.
        found: String,
        /// The settings'.
        want: String,
    },
    /// A line in the middle of the file does not parse.
    #[error("{path}: line {line}: not a game record ({text:?})")]
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// The text.
        text: String,
    },
}

/// The open store.
pub struct Store {
    path: PathBuf,
    file: File,
    games: HashMap<Key, GameRow>,
}

impl Store {
    /// Opens (or creates) the store at `path` for settings with fingerprint `fingerprint`.
    ///
    /// # Errors
    /// I/O, another fingerprint, or a bad line before the last.
    pub fn open(path: &Path, fingerprint: &str) -> Result<Store, StoreError> {
        let io = |source| StoreError::Io { path: path.into(), source };
        let header = format!("# draw-rates fingerprint {fingerprint}");
        let mut games = HashMap::new();
        if path.exists() {
            let text = std::fs::read_to_string(path).map_err(io)?;
            let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
            let first = lines.first().map(|l| l.trim_end()).unwrap_or("");
            if let Some(found) = first.strip_prefix("# draw-rates fingerprint ") {
                if found != fingerprint {
                    return Err(StoreError::Fingerprint { path: path.into(), found: found.into(), want: fingerprint.into() });
                }
            }
            let mut torn = false;
            if let Some(last) = lines.last() {
                if lines.len() > 1 && (!last.ends_with('\n') || GameRow::parse(last.trim_end_matches('\n')).is_none()) {
                    lines.pop();
                    torn = true;
                }
            }
            for (i, l) in lines.iter().enumerate().skip(1) {
                let row = GameRow::parse(l.trim_end_matches('\n')).ok_or_else(|| StoreError::Line { path: path.into(), line: i + 1, text: l.trim_end().into() })?;
                games.insert(row.key.clone(), row);
            }
            if torn || lines.is_empty() {
                eprintln!("note: {}: dropped a torn last line left by an interrupted run", path.display());
                let mut body = format!("{header}\n");
                for l in lines.iter().skip(1) {
                    body.push_str(l);
                }
                engine::fsio::write_atomic(path, body.as_bytes()).map_err(io)?;
            }
        } else {
            engine::fsio::write_atomic(path, format!("{header}\n").as_bytes()).map_err(io)?;
        }
        let file = OpenOptions::new().append(true).open(path).map_err(io)?;
        Ok(Store { path: path.into(), file, games })
    }

    /// Whether the game is stored.
    pub fn has(&self, k: &Key) -> bool {
        self.games.contains_key(k)
    }

    /// The stored game.
    pub fn get(&self, k: &Key) -> Option<&GameRow> {
        self.games.get(k)
    }

    /// Every stored game (in no particular order).
    pub fn rows(&self) -> impl Iterator<Item = &GameRow> {
        self.games.values()
    }

    /// Games stored.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Appends a game (one write of one line, then a flush).
    ///
    /// # Errors
    /// I/O.
    pub fn append(&mut self, row: GameRow) -> Result<(), StoreError> {
        self.file
            .write_all(row.line().as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|source| StoreError::Io { path: self.path.clone(), source })?;
        self.games.insert(row.key.clone(), row);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(deal: u32, open: bool, s: f64) -> GameRow {
        GameRow { key: Key::new("jieqi", "ismcts:iterations=30", deal, open), red_score: s, reason: "checkmate".into(), plies: 40, seconds: (deal == 0).then_some(1.25) }
    }

    #[test]
    fn appends_resume_and_torn_lines_are_dropped() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("games.tsv");
        {
            let mut s = Store::open(&path, "abc").expect("new");
            s.append(row(0, false, 1.0)).expect("append");
            s.append(row(0, true, 0.5)).expect("append");
        }
        // A kill mid-write leaves a torn line.
        let mut f = OpenOptions::new().append(true).open(&path).expect("open");
        f.write_all(b"jieqi\tismcts:iterations=30\t1\thid").expect("write");
        drop(f);
        let s = Store::open(&path, "abc").expect("resume");
        assert_eq!(s.len(), 2);
        // The game's time survives the store; rows without it (older stores) read as None.
        assert_eq!(s.get(&Key::new("jieqi", "ismcts:iterations=30", 0, false)).and_then(|r| r.seconds), Some(1.25));
        assert_eq!(GameRow::parse("jieqi\tgreedy\t1\topen\t0.5\t12\trepetition").map(|r| r.seconds), Some(None));
        assert_eq!(GameRow::parse("jieqi\tgreedy\t1\topen\t0.5\t12\trepetition\t-3"), None);
        assert_eq!(s.get(&Key::new("jieqi", "ismcts:iterations=30", 0, true)), Some(&row(0, true, 0.5)));
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.ends_with('\n') && text.lines().count() == 3 && !text.contains("\t1\thid"), "{text}");
        // Other game-deciding settings are refused, naming both fingerprints.
        let e = Store::open(&path, "xyz").err().expect("refused").to_string();
        assert!(e.contains("abc") && e.contains("xyz"), "{e}");
        // A bad line in the middle is an error naming its line.
        std::fs::write(&path, "# draw-rates fingerprint abc\nbad line\njieqi\tx\t0\topen\t1\t3\tcheckmate\n").expect("write");
        let e = Store::open(&path, "abc").err().expect("bad line").to_string();
        assert!(e.contains("line 2"), "{e}");
    }
}
