//! Game records in PGN, appended game by game, and read back to resume a killed tournament.
//!
//! Each record has the seven-tag roster (`Red`/`Black` for White/Black, as xiangqi PGN does) and:
//! `[Variant "…"]`; `[SetUp "<start full-state FEN, RULES.md §N>"]` and `[ChanceSeed "<n>"]`,
//! which fix the hidden set-up (Surprise layouts and owner's-choice arrangements are in the FEN;
//! the deal of the random modes derives from the seed, see [`super::game`]), so the record
//! replays exactly ([`super::games::GameSpec::replay`]); `[SetUpLabel "…"]`; `[GameKey "pairing=P pair=K
//! game=G"]`, the game's place in the schedule; `[Tournament "<fingerprint>"]` (see
//! [`super::config::Config::fingerprint`]); `[Termination "…"]` and `[PlyCount "…"]`. Moves are the
//! record strings of `engine::variant::notation::record_string` (reveal letters included); for a
//! RULES-more.md preset, the game's action strings (docs/notation.md §5) from the full-state FEN
//! after its set-up ([`engine::more::presets::Playable::record_entry`]).
//!
//! A record is written with one `write_all` and flushed; a record is complete when its move
//! text ends with its `Result`. [`Log::open`] keeps the complete records of a file, drops a
//! torn tail (rewriting the file without it), and refuses a file of another tournament.

use super::game::{Outcome, Setup};
use engine::Color;
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A game's place in the schedule.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct GameKey {
    /// Index of the pairing in [`super::config::Config::pairings`].
    pub pairing: usize,
    /// Set-up pair.
    pub pair: u32,
    /// 0: the pairing's first player has Red; 1: colours swapped.
    pub game: u8,
}

impl GameKey {
    /// The key as the PGN's tag value: `pairing=P pair=N game=G`.
    pub fn tag(&self) -> String {
        format!("pairing={} pair={} game={}", self.pairing, self.pair, self.game)
    }

    fn parse(t: &str) -> Option<GameKey> {
        let mut k = GameKey { pairing: usize::MAX, pair: u32::MAX, game: u8::MAX };
        for part in t.split_whitespace() {
            let (name, v) = part.split_once('=')?;
            match name {
                "pairing" => k.pairing = v.parse().ok()?,
                "pair" => k.pair = v.parse().ok()?,
                "game" => k.game = v.parse().ok()?,
                _ => return None,
            }
        }
        (k.pairing != usize::MAX && k.pair != u32::MAX && k.game <= 1).then_some(k)
    }
}

/// One game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Event (tournament name).
    pub event: String,
    /// Tournament fingerprint.
    pub fingerprint: String,
    /// Schedule key.
    pub key: GameKey,
    /// Variant name.
    pub variant: String,
    /// Red player's name.
    pub red: String,
    /// Black player's name.
    pub black: String,
    /// The hidden set-up.
    pub setup: Setup,
    /// Record strings.
    pub moves: Vec<String>,
    /// The end.
    pub outcome: Outcome,
    /// `YYYY.MM.DD`.
    pub date: String,
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', " ")
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            if let Some(n) = it.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

impl Record {
    /// The PGN text, ending with a blank line.
    pub fn to_pgn(&self) -> String {
        let mut t = String::new();
        let mut tag = |k: &str, v: &str| t.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
        tag("Event", &self.event);
        tag("Site", "anqi");
        tag("Date", &self.date);
        tag("Round", &format!("{}.{}", self.key.pair + 1, self.key.game + 1));
        tag("Red", &self.red);
        tag("Black", &self.black);
        tag("Result", self.outcome.result());
        tag("Variant", &self.variant);
        tag("SetUp", &self.setup.fen);
        tag("ChanceSeed", &self.setup.seed.to_string());
        tag("SetUpLabel", &self.setup.label);
        tag("GameKey", &self.key.tag());
        tag("Tournament", &self.fingerprint);
        tag("Termination", &self.outcome.reason);
        tag("PlyCount", &self.moves.len().to_string());
        t.push('\n');
        let mut line = String::new();
        let mut tokens: Vec<String> = Vec::new();
        for (i, m) in self.moves.iter().enumerate() {
            if i % 2 == 0 {
                tokens.push(format!("{}.", i / 2 + 1));
            }
            tokens.push(m.clone());
        }
        tokens.push(self.outcome.result().to_string());
        for tok in tokens {
            if !line.is_empty() && line.len() + 1 + tok.len() > 79 {
                t.push_str(&line);
                t.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&tok);
        }
        t.push_str(&line);
        t.push_str("\n\n");
        t
    }
}

/// Parses every complete record of `text`; also returns whether anything else (a torn record)
/// was found.
pub fn parse(text: &str) -> (Vec<Record>, bool) {
    let mut records = Vec::new();
    let mut torn = false;
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    let mut in_moves = false;
    let mut finish = |tags: &mut Vec<(String, String)>, moves: &mut Vec<String>, records: &mut Vec<Record>| {
        if tags.is_empty() && moves.is_empty() {
            return;
        }
        match build(tags, moves) {
            Some(r) => records.push(r),
            None => torn = true,
        }
        tags.clear();
        moves.clear();
    };
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            if in_moves {
                finish(&mut tags, &mut moves, &mut records);
                in_moves = false;
            }
            match parse_tag(l) {
                Some(kv) => tags.push(kv),
                None => tags.push(("?".into(), l.to_string())),
            }
        } else if l.is_empty() {
            if in_moves {
                finish(&mut tags, &mut moves, &mut records);
                in_moves = false;
            }
        } else {
            in_moves = true;
            moves.extend(l.split_whitespace().map(str::to_string));
        }
    }
    finish(&mut tags, &mut moves, &mut records);
    (records, torn)
}

fn parse_tag(l: &str) -> Option<(String, String)> {
    let inner = l.strip_prefix('[')?.strip_suffix(']')?;
    let (k, v) = inner.split_once(' ')?;
    let v = v.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((k.to_string(), unescape(v)))
}

fn build(tags: &[(String, String)], tokens: &[String]) -> Option<Record> {
    let get = |k: &str| tags.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let result = get("Result")?;
    if tokens.last()? != &result {
        return None;
    }
    let winner = match result.as_str() {
        "1-0" => Some(Color::Red),
        "0-1" => Some(Color::Black),
        "1/2-1/2" => None,
        _ => return None,
    };
    // A move token starting with `[` would read back as a tag line wherever the writer's line
    // wrap puts it first: no record has one, so the record is torn.
    if tokens.iter().any(|t| t.starts_with('[')) {
        return None;
    }
    let moves: Vec<String> = tokens[..tokens.len() - 1].iter().filter(|t| !t.ends_with('.')).cloned().collect();
    if let Some(n) = get("PlyCount") {
        if n.parse::<usize>().ok()? != moves.len() {
            return None;
        }
    }
    Some(Record {
        event: get("Event")?,
        fingerprint: get("Tournament")?,
        key: GameKey::parse(&get("GameKey")?)?,
        variant: get("Variant")?,
        red: get("Red")?,
        black: get("Black")?,
        setup: Setup { fen: get("SetUp")?, seed: get("ChanceSeed")?.parse().ok()?, label: get("SetUpLabel").unwrap_or_default() },
        moves,
        outcome: Outcome { winner, reason: get("Termination").unwrap_or_default() },
        date: get("Date").unwrap_or_default(),
    })
}

/// An append-only PGN file.
pub struct Log {
    file: File,
    path: PathBuf,
}

/// What [`Log::open`] found.
pub struct Opened {
    /// The log, positioned at the end.
    pub log: Log,
    /// The finished games of this tournament, one per key.
    pub records: Vec<Record>,
    /// A torn tail was dropped.
    pub repaired: bool,
}

impl Log {
    /// Opens (creating directories and the file) for appending. Keeps the complete records,
    /// rewrites the file without a torn tail or duplicate keys, and checks every record's
    /// fingerprint.
    ///
    /// # Errors
    /// I/O, or a record of another tournament.
    pub fn open(path: &Path, fingerprint: &str) -> anyhow::Result<Opened> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let text = if path.exists() { std::fs::read_to_string(path)? } else { String::new() };
        let (all, torn) = parse(&text);
        if let Some(r) = all.iter().find(|r| r.fingerprint != fingerprint) {
            anyhow::bail!(
                "{} holds games of another tournament or configuration (fingerprint {} at {:?}, this one is {fingerprint}); \
                 use another `pgn` path or remove the file",
                path.display(),
                r.fingerprint,
                r.key
            );
        }
        let mut seen = BTreeSet::new();
        let records: Vec<Record> = all.into_iter().filter(|r| seen.insert(r.key)).collect();
        let rewritten: String = records.iter().map(Record::to_pgn).collect();
        let repaired = torn || rewritten.len() != text.len();
        if repaired {
            engine::fsio::write_atomic(path, rewritten.as_bytes())?;
        }
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Opened { log: Log { file, path: path.to_path_buf() }, records, repaired })
    }

    /// Appends one record and flushes it to disk.
    ///
    /// # Errors
    /// I/O.
    pub fn append(&mut self, r: &Record) -> anyhow::Result<()> {
        self.file.write_all(r.to_pgn().as_bytes())?;
        self.file.flush()?;
        self.file.sync_data()?;
        Ok(())
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Today's date as `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let days = (secs / 86_400) as i64;
    // Civil-from-days (Howard Hinnant).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(pair: u32, reason: &str) -> Record {
        Record {
            event: "t".into(),
            fingerprint: "abc".into(),
            key: GameKey { pairing: 0, pair, game: 1 },
            variant: "jieqi".into(),
            red: "greedy".into(),
            black: "random \"r\"".into(),
            setup: Setup { fen: "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1".into(), seed: 42, label: "random deal".into() },
            moves: vec!["h2e2".into(), "b7b0Nr".into(), "a0a1".into()],
            outcome: Outcome { winner: Some(Color::Black), reason: reason.into() },
            date: "2026.01.02".into(),
        }
    }

    #[test]
    fn round_trip_and_torn_tail() {
        let a = sample(0, "checkmate");
        let b = sample(1, "forfeit: \"bad\" move");
        let text = format!("{}{}", a.to_pgn(), b.to_pgn());
        let (rs, torn) = parse(&text);
        assert!(!torn);
        assert_eq!(rs, vec![a.clone(), b.clone()]);
        for cut in 1..b.to_pgn().len() - 2 {
            let t = &text[..a.to_pgn().len() + cut];
            let (rs, _) = parse(t);
            assert_eq!(rs, vec![a.clone()], "cut {cut}");
        }
    }

    #[test]
    fn date_format() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
