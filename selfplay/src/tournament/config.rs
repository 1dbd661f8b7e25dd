//! Tournament configuration (`configs/tournaments/*.toml`). Unknown keys are rejected, naming the
//! key (serde `deny_unknown_fields`).
//!
//! ```toml
//! name = "greedy-vs-random"      # event name; default PGN runs/tournaments/<name>.pgn
//! variant = "xiangqi"            # preset or variant TOML file, or a RULES-more.md preset (missile, skill, camel-N)
//! format = "round-robin"         # or "gauntlet": the first player meets every other
//! pairs = 20                     # set-up pairs per pairing; each is played twice, colours swapped
//! concurrency = 2                # games in parallel (0: one per core)
//! seed = 1                       # set-ups, chance and bot seeds derive from it
//! max_plies = 600                # a game still running then is adjudicated a draw
//! opening_plies = 0              # plies played at random (same in both games of a pair);
//!                                # less than max_plies
//! engine_restart = "game"        # UCI engines: a fresh process per game ("game", the default),
//!                                # or one kept per player and worker for the whole run ("never")
//! pgn = "runs/x.pgn"             # optional
//!
//! [budget]                       # default per-move budget: nodes, movetime_ms, depth
//! nodes = 20000
//!
//! [[player]]
//! spec = "greedy"                # any bot spec (selfplay::bots::game_bot_for: the engine registry, or net:checkpoint=RUN_DIR,sims=N), or "uci:/path/to/engine [args]"
//! [[player]]
//! name = "ab"                    # optional display name (default: the spec)
//! spec = "alphabeta"
//! depth = 3                      # per-player budget overrides [budget]
//! [[player]]
//! spec = "uci:target/release/anqi uci"
//! options = { Hash = "16" }      # UCI setoption name/value pairs
//! timeout_ms = 60000             # UCI: wait this long for bestmove, then score a forfeit
//! [[player]]
//! name = "fairy-stockfish"
//! spec = "uci:${FAIRY_STOCKFISH}" # UCI specs expand ${NAME} / $NAME from the environment
//! dialect = "fairy-stockfish"    # UCI: "anqi", "pikafish" or "fairy-stockfish" (coordinates and
//!                                # FEN on the wire, tournament::dialect); default: from `id name`
//!
//! [sprt]                         # optional, two players only: stops the match at a bound
//! elo0 = 0.0
//! elo1 = 50.0
//! alpha = 0.05
//! beta = 0.05
//! ```

use super::dialect::Dialect;
use super::sprt::Sprt;
use anyhow::{bail, Context};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// Pairing scheme.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every player meets every other.
    #[default]
    RoundRobin,
    /// The first player meets every other; the others do not meet each other.
    Gauntlet,
}

/// When a tournament starts a UCI engine's process (`engine_restart`).
///
/// With [`EngineRestart::Game`] every game gets a fresh process, so an engine can carry nothing
/// from one game to the next (in particular not the hidden set-up of a pair's first game, which
/// the second game plays again with colours swapped) except what it writes to files of its own.
/// With [`EngineRestart::Never`] a process is kept for the whole run by each worker thread and
/// player and is sent `ucinewgame` between games: its hash table, learning or any other memory
/// may carry over.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EngineRestart {
    /// A fresh engine process per game (the default).
    #[default]
    Game,
    /// One process per player and worker thread for the whole run, `ucinewgame` between games.
    Never,
}

/// A per-move budget. For built-in bots it is appended to the spec's parameters (`nodes=N`,
/// `ms=N`, `depth=N`; bots without parameters, like `random` and `greedy`, ignore it); for UCI
/// engines it is the `go` command (`go nodes N movetime M depth D`).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Budget {
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// Milliseconds per move.
    pub movetime_ms: Option<u64>,
    /// Search depth per move.
    pub depth: Option<u32>,
}

impl Budget {
    /// Fields of `self`, else of `default`.
    pub fn or(&self, default: &Budget) -> Budget {
        Budget {
            nodes: self.nodes.or(default.nodes),
            movetime_ms: self.movetime_ms.or(default.movetime_ms),
            depth: self.depth.or(default.depth),
        }
    }

    /// Whether no field is set.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_none() && self.movetime_ms.is_none() && self.depth.is_none()
    }

    /// As bot-spec parameters: `nodes=N,ms=M,depth=D`.
    pub fn as_params(&self) -> String {
        let mut p = Vec::new();
        if let Some(n) = self.nodes {
            p.push(format!("nodes={n}"));
        }
        if let Some(m) = self.movetime_ms {
            p.push(format!("ms={m}"));
        }
        if let Some(d) = self.depth {
            p.push(format!("depth={d}"));
        }
        p.join(",")
    }

    /// Checks each key against the range that works for every player (issue #39: a depth of
    /// 4294967295 made an alpha-beta search that never returns): `depth` 1 to
    /// [`engine::search::alphabeta::MAX_DEPTH`], `nodes` 1 to [`engine::search::MAX_SPEC_NODES`],
    /// `movetime_ms` 1 to [`engine::search::MAX_SPEC_MS`]; `prefix` is the table's (`budget.`).
    ///
    /// # Errors
    /// The first key out of range, named.
    pub fn check(&self, prefix: &str) -> anyhow::Result<()> {
        use engine::search::{alphabeta::MAX_DEPTH, MAX_SPEC_MS, MAX_SPEC_NODES};
        let keys = [("depth", self.depth.map(u64::from), MAX_DEPTH as u64), ("nodes", self.nodes, MAX_SPEC_NODES), ("movetime_ms", self.movetime_ms, MAX_SPEC_MS)];
        for (key, value, most) in keys {
            if let Some(v) = value.filter(|&v| v == 0 || v > most) {
                bail!("key `{prefix}{key}`: {v} is out of range (1 to {most})");
            }
        }
        Ok(())
    }

    /// As a UCI `go` command.
    pub fn as_go(&self) -> String {
        let mut g = String::from("go");
        if let Some(n) = self.nodes {
            g.push_str(&format!(" nodes {n}"));
        }
        if let Some(m) = self.movetime_ms {
            g.push_str(&format!(" movetime {m}"));
        }
        if let Some(d) = self.depth {
            g.push_str(&format!(" depth {d}"));
        }
        g
    }
}

/// One `[[player]]`.
#[derive(Clone, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerConfig {
    /// Display name (default: the spec).
    pub name: Option<String>,
    /// Bot spec or `uci:<program> [args…]`.
    pub spec: String,
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// Milliseconds per move.
    pub movetime_ms: Option<u64>,
    /// Depth per move.
    pub depth: Option<u32>,
    /// UCI options (`setoption name K value V`), UCI engines only.
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    /// UCI engines only: how long to wait for `bestmove` before scoring a forfeit (default
    /// 30 s plus three times `movetime_ms`).
    pub timeout_ms: Option<u64>,
    /// UCI engines only: the engine's coordinate and FEN dialect (default: detected from its
    /// `id name`, [`Dialect::detect`]).
    pub dialect: Option<Dialect>,
}

/// As derived, except that an unset `dialect` is left out: [`Config::fingerprint`] hashes this
/// text, and a configuration written before the key existed keeps its fingerprint (and so can
/// resume its PGN).
impl fmt::Debug for PlayerConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("PlayerConfig");
        d.field("name", &self.name)
            .field("spec", &self.spec)
            .field("nodes", &self.nodes)
            .field("movetime_ms", &self.movetime_ms)
            .field("depth", &self.depth)
            .field("options", &self.options)
            .field("timeout_ms", &self.timeout_ms);
        if let Some(dialect) = &self.dialect {
            d.field("dialect", dialect);
        }
        d.finish()
    }
}

/// The `[sprt]` table.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtConfig {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Type I error (default 0.05).
    #[serde(default = "default_error")]
    pub alpha: f64,
    /// Type II error (default 0.05).
    #[serde(default = "default_error")]
    pub beta: f64,
}

fn default_error() -> f64 {
    0.05
}

impl SprtConfig {
    /// The test.
    pub fn sprt(&self) -> Sprt {
        Sprt { elo0: self.elo0, elo1: self.elo1, alpha: self.alpha, beta: self.beta }
    }
}

/// A tournament file.
#[derive(Clone, Debug, PartialEq, serde::Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Event name.
    pub name: String,
    /// Variant preset or file.
    #[serde(default = "default_variant")]
    pub variant: String,
    /// Pairing scheme.
    #[serde(default)]
    pub format: Format,
    /// Set-up pairs per pairing (two games each).
    #[serde(default = "default_pairs")]
    pub pairs: u32,
    /// Games in parallel (0: one per core).
    #[serde(default = "default_concurrency")]
    pub concurrency: usize,
    /// Master seed.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Ply limit (adjudicated draw).
    #[serde(default = "default_max_plies")]
    pub max_plies: usize,
    /// Random opening plies (less than `max_plies`).
    #[serde(default)]
    pub opening_plies: usize,
    /// When UCI engines get a fresh process ([`EngineRestart`]; default: every game).
    #[serde(default)]
    pub engine_restart: EngineRestart,
    /// PGN path.
    pub pgn: Option<PathBuf>,
    /// Default per-move budget.
    #[serde(default)]
    pub budget: Budget,
    /// Players.
    #[serde(rename = "player", default)]
    pub players: Vec<PlayerConfig>,
    /// Optional SPRT.
    pub sprt: Option<SprtConfig>,
}

fn default_variant() -> String {
    "xiangqi".into()
}
fn default_pairs() -> u32 {
    10
}
fn default_concurrency() -> usize {
    2
}
fn default_seed() -> u64 {
    1
}
fn default_max_plies() -> usize {
    600
}

impl Config {
    /// Parses and validates TOML text; `source` names it in errors.
    ///
    /// # Errors
    /// Syntax, unknown keys (named), and inconsistent settings.
    pub fn parse(text: &str, source: &str) -> anyhow::Result<Config> {
        let c: Config = toml::from_str(text).map_err(|e| anyhow::anyhow!("{source}: {}", e.to_string().trim_end()))?;
        c.validate().with_context(|| source.to_string())?;
        Ok(c)
    }

    /// Reads and validates a file.
    ///
    /// # Errors
    /// As [`Config::parse`], and I/O.
    pub fn load(path: &Path) -> anyhow::Result<Config> {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        Config::parse(&text, &path.display().to_string())
    }

    fn validate(&self) -> anyhow::Result<()> {
        if self.players.len() < 2 {
            bail!("at least two [[player]] tables are needed (found {})", self.players.len());
        }
        if self.pairs == 0 {
            bail!("key `pairs`: must be at least 1");
        }
        if self.max_plies == 0 {
            bail!("key `max_plies`: must be at least 1 (0 would end every game at once as a draw)");
        }
        if self.opening_plies >= self.max_plies {
            bail!("key `opening_plies`: {} must be less than max_plies ({}), or the players never move", self.opening_plies, self.max_plies);
        }
        self.budget.check("budget.")?;
        for p in &self.players {
            let own = Budget { nodes: p.nodes, movetime_ms: p.movetime_ms, depth: p.depth };
            own.check("").with_context(|| format!("player {:?}", p.name.as_deref().unwrap_or(&p.spec)))?;
        }
        let names = self.player_names();
        for (i, n) in names.iter().enumerate() {
            if names[..i].contains(n) {
                bail!("player name {n:?} is used twice; give one of them a `name`");
            }
            if n.is_empty() || n.contains('"') {
                bail!("player name {n:?}: must be non-empty and without quotes");
            }
        }
        for p in &self.players {
            if !p.spec.starts_with("uci:") {
                if !p.options.is_empty() {
                    bail!("player {:?}: key `options` is for UCI engines (spec \"uci:…\") only", p.spec);
                }
                if p.timeout_ms.is_some() {
                    bail!("player {:?}: key `timeout_ms` is for UCI engines (spec \"uci:…\") only", p.spec);
                }
                if p.dialect.is_some() {
                    bail!("player {:?}: key `dialect` is for UCI engines (spec \"uci:…\") only", p.spec);
                }
            }
        }
        if let Some(s) = &self.sprt {
            if self.players.len() != 2 {
                bail!("key `sprt`: an SPRT needs exactly two players (found {})", self.players.len());
            }
            if s.elo0.is_nan() || s.elo1.is_nan() || s.elo0 >= s.elo1 {
                bail!("key `sprt.elo1`: must be greater than elo0");
            }
            for (k, v) in [("alpha", s.alpha), ("beta", s.beta)] {
                if !(v > 0.0 && v < 0.5) {
                    bail!("key `sprt.{k}`: must be in (0, 0.5), got {v}");
                }
            }
        }
        Ok(())
    }

    /// Display names, in order.
    pub fn player_names(&self) -> Vec<String> {
        self.players.iter().map(|p| p.name.clone().unwrap_or_else(|| p.spec.clone())).collect()
    }

    /// The pairings as (first, second) player indices, in schedule order.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let k = self.players.len();
        match self.format {
            Format::RoundRobin => (0..k).flat_map(|i| (i + 1..k).map(move |j| (i, j))).collect(),
            Format::Gauntlet => (1..k).map(|j| (0, j)).collect(),
        }
    }

    /// The PGN path: `pgn`, else `runs/tournaments/<name>.pgn`.
    pub fn pgn_path(&self) -> PathBuf {
        self.pgn.clone().unwrap_or_else(|| PathBuf::from(format!("runs/tournaments/{}.pgn", self.name)))
    }

    /// A fingerprint of everything that decides a game (not `pairs`, `concurrency`, `pgn` or
    /// `sprt`), written to every PGN record so that a resumed run never mixes tournaments.
    pub fn fingerprint(&self) -> String {
        let mut text = format!(
            "{}|{}|{:?}|{}|{}|{}|{:?}",
            self.name, self.variant, self.format, self.seed, self.max_plies, self.opening_plies, self.budget
        );
        for p in &self.players {
            text.push_str(&format!("|{:?}", p));
        }
        // Left out at its default, so that files written before the key keep their fingerprint.
        if self.engine_restart != EngineRestart::Game {
            text.push_str(&format!("|engine_restart={:?}", self.engine_restart));
        }
        format!("{:016x}", fnv1a(text.as_bytes()))
    }
}

/// FNV-1a, 64 bits: a stable hash for fingerprints and seed derivation.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    const OK: &str = r#"
name = "t"
[[player]]
spec = "greedy"
[[player]]
spec = "random"
"#;

    #[test]
    fn defaults() {
        let c = Config::parse(OK, "t.toml").expect("valid");
        assert_eq!(c.variant, "xiangqi");
        assert_eq!(c.format, Format::RoundRobin);
        assert_eq!(c.pairings(), vec![(0, 1)]);
        assert_eq!(c.pgn_path(), PathBuf::from("runs/tournaments/t.pgn"));
    }

    #[test]
    fn unknown_key_is_named() {
        let e = Config::parse(&format!("{OK}\n[budget]\nnodez = 3\n"), "t.toml").expect_err("unknown key");
        assert!(format!("{e:#}").contains("nodez"), "{e:#}");
        let e = Config::parse(&format!("colour = 1\n{OK}"), "t.toml").expect_err("unknown key");
        assert!(format!("{e:#}").contains("colour"), "{e:#}");
        let e = Config::parse(&OK.replace("spec = \"random\"", "spec = \"random\"\nspeed = 2"), "t.toml").expect_err("unknown key");
        assert!(format!("{e:#}").contains("speed"), "{e:#}");
    }

    #[test]
    fn inconsistent_settings() {
        let three = format!("{OK}\n[[player]]\nspec = \"alphabeta\"\n[sprt]\nelo0 = 0\nelo1 = 10\n");
        assert!(format!("{:#}", Config::parse(&three, "t").expect_err("sprt")).contains("exactly two"));
        let dup = OK.replace("\"random\"", "\"greedy\"");
        assert!(format!("{:#}", Config::parse(&dup, "t").expect_err("dup")).contains("twice"));
    }

    #[test]
    fn zero_max_plies_is_refused() {
        let e = Config::parse(&format!("max_plies = 0\n{OK}"), "t.toml").expect_err("max_plies 0");
        assert!(format!("{e:#}").contains("key `max_plies`"), "{e:#}");
        Config::parse(&format!("max_plies = 1\n{OK}"), "t.toml").expect("one ply");
    }

    #[test]
    fn opening_plies_past_max_plies_is_refused() {
        let e = Config::parse(&format!("max_plies = 10\nopening_plies = 20\n{OK}"), "t.toml").expect_err("opening past the end");
        assert!(format!("{e:#}").contains("key `opening_plies`"), "{e:#}");
        let e = Config::parse(&format!("max_plies = 10\nopening_plies = 10\n{OK}"), "t.toml").expect_err("no player move");
        assert!(format!("{e:#}").contains("key `opening_plies`"), "{e:#}");
        Config::parse(&format!("max_plies = 10\nopening_plies = 9\n{OK}"), "t.toml").expect("one player move");
    }

    #[test]
    fn budget_out_of_range_is_refused() {
        let e = Config::parse(&format!("{OK}\n[budget]\ndepth = 4294967295\n"), "t.toml").expect_err("depth");
        assert!(format!("{e:#}").contains("key `budget.depth`: 4294967295"), "{e:#}");
        let e = Config::parse(&OK.replace("spec = \"greedy\"", "spec = \"alphabeta\"\ndepth = 4294967295"), "t.toml").expect_err("depth");
        assert!(format!("{e:#}").contains("key `depth`: 4294967295") && format!("{e:#}").contains("alphabeta"), "{e:#}");
        let e = Config::parse(&format!("{OK}\n[budget]\nmovetime_ms = 0\n"), "t.toml").expect_err("no time");
        assert!(format!("{e:#}").contains("key `budget.movetime_ms`"), "{e:#}");
        Config::parse(&format!("{OK}\n[budget]\ndepth = 100\nnodes = 20000\nmovetime_ms = 50\n"), "t.toml").expect("in range");
    }

    #[test]
    fn engine_restart_key() {
        let c = Config::parse(OK, "t.toml").expect("valid");
        assert_eq!(c.engine_restart, EngineRestart::Game);
        let never = Config::parse(&format!("engine_restart = \"never\"\n{OK}"), "t.toml").expect("valid");
        assert_eq!(never.engine_restart, EngineRestart::Never);
        // It may decide games (an engine's memory), so it is in the fingerprint; the default is
        // left out, so that files written before the key resume their PGNs.
        assert_ne!(c.fingerprint(), never.fingerprint());
        let game = Config::parse(&format!("engine_restart = \"game\"\n{OK}"), "t.toml").expect("valid");
        assert_eq!(c.fingerprint(), game.fingerprint());
        let e = Config::parse(&format!("engine_restart = \"match\"\n{OK}"), "t.toml").expect_err("unknown value");
        assert!(format!("{e:#}").contains("engine_restart"), "{e:#}");
    }

    #[test]
    fn dialect_key() {
        let uci = "name = \"t\"\n[[player]]\nspec = \"uci:${FAIRY_STOCKFISH}\"\nmovetime_ms = 100\ndialect = \"fairy-stockfish\"\n[[player]]\nspec = \"greedy\"\n";
        let c = Config::parse(uci, "t.toml").expect("valid");
        assert_eq!(c.players[0].dialect, Some(Dialect::FairyStockfish));
        assert_eq!(c.players[1].dialect, None);
        let e = Config::parse(&uci.replace("fairy-stockfish", "fsf"), "t.toml").expect_err("unknown dialect");
        assert!(format!("{e:#}").contains("fairy-stockfish"), "{e:#}");
        let e = Config::parse(&format!("{OK}dialect = \"pikafish\"\n"), "t.toml").expect_err("not a UCI player");
        assert!(format!("{e:#}").contains("key `dialect` is for UCI engines"), "{e:#}");
        // The dialect decides games, so it is part of the fingerprint.
        let unset = Config::parse(&uci.replace("dialect = \"fairy-stockfish\"\n", ""), "t.toml").expect("valid");
        assert_ne!(c.fingerprint(), unset.fingerprint());
    }

    #[test]
    fn fingerprint_without_dialect_is_unchanged() {
        // Written by the code before the `dialect` key (a tournament of this file's PGN tag).
        let text = "name = \"fp\"\npairs = 1\nmax_plies = 10\n[[player]]\nspec = \"uci:target/release/anqi uci\"\ndepth = 1\n\
                    options = { Hash = \"4\" }\n[[player]]\nspec = \"greedy\"\n";
        assert_eq!(Config::parse(text, "fp.toml").expect("valid").fingerprint(), "426933a33de4a575");
    }

    #[test]
    fn committed_tournament_files_parse() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/tournaments");
        let mut n = 0;
        for entry in std::fs::read_dir(&dir).expect("configs/tournaments") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "toml") {
                Config::load(&path).unwrap_or_else(|e| panic!("{e:#}"));
                n += 1;
            }
        }
        assert!(n >= 6, "{n} files");
        let fsf = Config::load(&dir.join("xiangqi-vs-fairy-stockfish.toml")).expect("valid");
        assert_eq!((fsf.format, fsf.budget.movetime_ms, fsf.players.len()), (Format::Gauntlet, Some(100), 3));
        assert_eq!(fsf.players[0].spec, "uci:${FAIRY_STOCKFISH}");
        assert_eq!(fsf.players[0].dialect, Some(Dialect::FairyStockfish));
    }

    #[test]
    fn gauntlet_pairings_and_budget_text() {
        let c = Config::parse(&format!("format = \"gauntlet\"\n{OK}\n[[player]]\nspec = \"alphabeta\"\n"), "t").expect("valid");
        assert_eq!(c.pairings(), vec![(0, 1), (0, 2)]);
        let b = Budget { nodes: Some(5), movetime_ms: None, depth: Some(2) };
        assert_eq!(b.as_params(), "nodes=5,depth=2");
        assert_eq!(b.as_go(), "go nodes 5 depth 2");
    }
}
