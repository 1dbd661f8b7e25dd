//! The strength ladder (`anqi ladder`): paired round-robins of reference players at equal time
//! per move, rated by maximum-likelihood Elo with `random` anchored at 0.
//!
//! A ladder lives in one directory (`experiments/ladder/<variant>/` by default):
//!
//! - `ladder.toml` ([`Roster`]): the variant, the time per move, set-up pairs per pairing, the
//!   seed, the ply limit and the players in the order they joined (a player's `note` is printed
//!   under the standings and kept when `anqi ladder` rewrites the file; TOML comments are not);
//! - `games/<a>__<b>.pgn`: one PGN per pairing, written game by game by the tournament runner
//!   ([`crate::tournament::run`]) as a two-player match, so a killed run resumes and a player
//!   added later plays only its own pairings (the others' files are complete and left alone).
//!   Every pairing meets the same hidden set-ups (the set-up seed depends only on the ladder's
//!   seed and the pair number, [`crate::tournament::runner::setup_seed`]), each twice with
//!   colours swapped. A dropped player ([`Roster::remove`], `anqi ladder --drop`) takes the
//!   PGNs of its pairings with it; the others' files keep their names and games.
//!
//! Ratings ([`standings`]): the Bradley-Terry maximum-likelihood fit of the games among
//! reference players ([`elo::ratings`]), shifted so that `random` is 0, each interval that of the
//! difference to `random` ([`elo::Fit::anchored`]). **Oracles** (players that read the full
//! state: `alphabeta`, `oracle`, and any roster entry marked `oracle = true`) play everyone but
//! never move the reference scale: each is rated alone against the fixed reference ratings
//! ([`elo::rate_against`]) and marked in the report. **Challengers** (roster entries with
//! `opponents = [...]`, `anqi ladder --add … --against A,B`) are rated the same way but play only
//! the reference players named: a bot whose rating matters near the top (the same bot at a
//! longer time per move) is placed against its neighbours without a full round of games.

pub mod report;

use crate::tournament::{self, config::Budget, config::PlayerConfig, dialect::Dialect, elo, elo::Wdl, Config, GameSpec};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Why a ladder cannot be run as asked.
#[derive(Debug, thiserror::Error)]
pub enum LadderError {
    /// `ladder.toml` does not parse or is inconsistent.
    #[error("{path}: {message}")]
    Roster {
        /// The file.
        path: PathBuf,
        /// What is wrong (names the key or player).
        message: String,
    },
    /// The command line asks for something the existing ladder contradicts.
    #[error("{path}: {message} (start a new ladder with --dir, or edit the file)")]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What differs.
        message: String,
    },
    /// An `--add` argument is not a usable player.
    #[error("--add {arg:?}: {message}")]
    Add {
        /// The argument.
        arg: String,
        /// What is wrong.
        message: String,
    },
    /// A `--drop` argument names no player of the ladder, or the anchor.
    #[error("--drop {name:?}: {message}")]
    Drop {
        /// The name asked for.
        name: String,
        /// What is wrong (lists the ladder's players when the name is unknown).
        message: String,
    },
    /// Reading or writing a file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// One ladder player (`[[player]]` in `ladder.toml`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LadderPlayer {
    /// Display name (unique in the ladder; also part of the PGN file names).
    pub name: String,
    /// Bot spec (`selfplay::bots::game_bot_for`: the engine registry, `net:…`) or `uci:<program> [args…]`.
    pub spec: String,
    /// Reads the full state: rated apart, never part of the reference scale. Default: whether
    /// the spec names a full-state bot (`alphabeta…`, `oracle…`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oracle: Option<bool>,
    /// Own budget: nodes per move (instead of the ladder's time per move; e.g. an external
    /// engine anchored by node count).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Own budget: search depth per move (instead of the ladder's time per move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// UCI engines: their coordinate and FEN dialect (default: detected).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialect: Option<Dialect>,
    /// UCI engines: `setoption` pairs.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
    /// A remark printed under the standings (e.g. which weights a `net:zoo=NAME` spec loaded
    /// when its games were played). Not part of the games' fingerprint: editing it replays nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// A challenger's opponents: when not empty, the player meets only these reference players
    /// (names of non-oracle players without opponents of their own) and is rated alone against
    /// their fixed ratings, never moving the scale (module docs). Its interval leaves out the
    /// opponents' own uncertainty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opponents: Vec<String>,
}

impl LadderPlayer {
    /// A player from a spec with the default name (the spec itself).
    pub fn new(name: &str, spec: &str) -> LadderPlayer {
        LadderPlayer { name: name.into(), spec: spec.into(), oracle: None, nodes: None, depth: None, dialect: None, options: BTreeMap::new(), note: None, opponents: Vec::new() }
    }

    /// Whether the player is a challenger (plays only its [`LadderPlayer::opponents`]).
    pub fn is_challenger(&self) -> bool {
        !self.opponents.is_empty()
    }

    /// Whether the player is rated alone against the fixed reference ratings: an oracle or a
    /// challenger.
    pub fn is_rated_apart(&self) -> bool {
        self.is_oracle() || self.is_challenger()
    }

    /// Whether the player reads the full state (see [`LadderPlayer::oracle`]).
    pub fn is_oracle(&self) -> bool {
        self.oracle.unwrap_or_else(|| {
            let kind = self.spec.split(':').next().unwrap_or("");
            kind == "alphabeta" || kind == "oracle"
        })
    }

    /// The player's file-name form: the name with every character outside `[A-Za-z0-9.-]`
    /// replaced by `-`, and an 8-hex-digit hash of the name when anything was replaced (so two
    /// names never share a file).
    pub fn file_stem(&self) -> String {
        let clean: String = self.name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c } else { '-' }).collect();
        if clean == self.name {
            clean
        } else {
            format!("{clean}-{:08x}", tournament::config::fnv1a(self.name.as_bytes()) as u32)
        }
    }
}

/// `ladder.toml`: what every game of the ladder is played under, and who plays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Roster {
    /// Variant preset, rule file or RULES-more.md preset.
    pub variant: String,
    /// Milliseconds per move for every player without its own `nodes`/`depth`.
    pub movetime_ms: u64,
    /// Set-up pairs per pairing (two games each, colours swapped).
    pub pairs: u32,
    /// Master seed (set-ups, chance and bot seeds derive from it).
    pub seed: u64,
    /// Ply limit (a game still running then is adjudicated a draw).
    pub max_plies: usize,
    /// The players, in the order they joined.
    #[serde(rename = "player", default)]
    pub players: Vec<LadderPlayer>,
}

/// The reference players every ladder starts with: `random` (the anchor), `greedy`,
/// `expectimax`, `pimc`, `ismcts` in its single-observer and multiple-observer forms, and the two
/// oracles (`alphabeta` and the full-state expectimax `oracle`).
pub fn reference_players() -> Vec<LadderPlayer> {
    [
        ("random", "random"),
        ("greedy", "greedy"),
        ("expectimax", "expectimax"),
        ("pimc", "pimc"),
        ("ismcts-so", "ismcts:mode=so"),
        ("ismcts-mo", "ismcts:mode=mo"),
        ("oracle-alphabeta", "alphabeta"),
        ("oracle-expectimax", "oracle"),
    ]
    .into_iter()
    .map(|(n, s)| LadderPlayer::new(n, s))
    .collect()
}

/// Parses an `--add` argument: `SPEC` (named by the spec) or `NAME=SPEC`, where `NAME` is the
/// text before the first `=` if it holds no `:` or `,` (so `net:checkpoint=runs/x` is a spec).
pub fn parse_add(arg: &str) -> LadderPlayer {
    match arg.split_once('=') {
        Some((name, spec)) if !name.contains([':', ',']) && !name.trim().is_empty() && !spec.trim().is_empty() => {
            LadderPlayer::new(name.trim(), spec.trim())
        }
        _ => LadderPlayer::new(arg.trim(), arg.trim()),
    }
}

impl Roster {
    /// A new ladder of [`reference_players`].
    pub fn new(variant: &str, movetime_ms: u64, pairs: u32, seed: u64, max_plies: usize) -> Roster {
        Roster { variant: variant.into(), movetime_ms, pairs, seed, max_plies, players: reference_players() }
    }

    /// Reads and checks `path`.
    ///
    /// # Errors
    /// I/O, TOML syntax or an unknown key (named), a duplicate player name, zero pairs or time.
    pub fn load(path: &Path) -> Result<Roster, LadderError> {
        let text = std::fs::read_to_string(path).map_err(|source| LadderError::Io { path: path.into(), source })?;
        let r: Roster = toml::from_str(&text).map_err(|e| LadderError::Roster { path: path.into(), message: e.to_string().trim_end().to_string() })?;
        r.check().map_err(|message| LadderError::Roster { path: path.into(), message })?;
        Ok(r)
    }

    /// Checks the roster: pairs and time at least 1, names non-empty, without quotes and unique
    /// (also as file stems), a `random` player, challengers' opponents reference players.
    ///
    /// # Errors
    /// What is wrong, naming the key or player.
    pub fn check(&self) -> Result<(), String> {
        if self.pairs == 0 {
            return Err("key `pairs`: must be at least 1".into());
        }
        if self.movetime_ms == 0 {
            return Err("key `movetime_ms`: must be at least 1".into());
        }
        for (i, p) in self.players.iter().enumerate() {
            if p.name.is_empty() || p.name.contains('"') {
                return Err(format!("player {:?}: a name must be non-empty and without quotes", p.name));
            }
            if self.players[..i].iter().any(|q| q.name == p.name || q.file_stem() == p.file_stem()) {
                return Err(format!("player name {:?} is used twice", p.name));
            }
            for o in &p.opponents {
                match self.players.iter().find(|q| &q.name == o) {
                    None => return Err(format!("player {:?}: opponent {o:?} is not a player of the ladder", p.name)),
                    Some(q) if q.is_rated_apart() => {
                        return Err(format!("player {:?}: opponent {o:?} is rated apart (an oracle or a challenger); a challenger meets reference players only", p.name))
                    }
                    Some(_) => {}
                }
            }
        }
        if !self.players.iter().any(|p| p.name == "random") {
            return Err("the ladder needs a player named \"random\" (the anchor at 0 Elo)".into());
        }
        Ok(())
    }

    /// Writes `path` through a temporary file and a rename.
    ///
    /// # Errors
    /// I/O.
    pub fn save(&self, path: &Path) -> Result<(), LadderError> {
        let text = toml::to_string_pretty(self).map_err(|e| LadderError::Roster { path: path.into(), message: e.to_string() })?;
        let text = format!("# anqi ladder: `anqi ladder --dir {}` plays what is missing; see selfplay/src/ladder/mod.rs.\n{text}", path.parent().unwrap_or(Path::new(".")).display());
        write_atomic(path, text.as_bytes())
    }

    /// Adds a player; the same name with the same spec is already there and is skipped.
    ///
    /// # Errors
    /// The name is taken by another spec.
    pub fn add(&mut self, p: LadderPlayer) -> Result<bool, String> {
        match self.players.iter().find(|q| q.name == p.name || q.file_stem() == p.file_stem()) {
            Some(q) if q.spec == p.spec => Ok(false),
            Some(q) => Err(format!("the name {:?} is already the player {:?}; give a name: NAME={}", q.name, q.spec, p.spec)),
            None => {
                self.players.push(p);
                Ok(true)
            }
        }
    }

    /// Removes the player named `name` (`anqi ladder --drop`) and returns the PGNs of its
    /// pairings under `dir` (existing or not), which the caller deletes once the roster is saved.
    /// The other players keep their order and their PGN file names, so none of their games is
    /// touched or replayed.
    ///
    /// # Errors
    /// No player has that name (the message lists the players), or it is `random`, the anchor.
    pub fn remove(&mut self, dir: &Path, name: &str) -> Result<Vec<PathBuf>, LadderError> {
        let err = |message: String| LadderError::Drop { name: name.into(), message };
        let Some(i) = self.players.iter().position(|p| p.name == name) else {
            let names: Vec<&str> = self.players.iter().map(|p| p.name.as_str()).collect();
            return Err(err(format!("no such player; the ladder's players are {}", names.join(", "))));
        };
        if name == "random" {
            return Err(err("`random` is the anchor at 0 Elo and cannot be dropped".into()));
        }
        let pgns = (0..self.players.len()).filter(|&j| j != i).map(|j| self.pgn_path(dir, i.min(j), i.max(j))).collect();
        self.players.remove(i);
        Ok(pgns)
    }

    /// The indices of the pairings, in schedule order: every pair `(i, j)`, `i < j`, except
    /// that a challenger meets only its opponents.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let k = self.players.len();
        let meets = |a: &LadderPlayer, b: &LadderPlayer| !a.is_challenger() || a.opponents.contains(&b.name);
        (0..k).flat_map(|i| (i + 1..k).map(move |j| (i, j))).filter(|&(i, j)| meets(&self.players[i], &self.players[j]) && meets(&self.players[j], &self.players[i])).collect()
    }

    /// The PGN of pairing `(i, j)` under `dir`.
    pub fn pgn_path(&self, dir: &Path, i: usize, j: usize) -> PathBuf {
        dir.join("games").join(format!("{}__{}.pgn", self.players[i].file_stem(), self.players[j].file_stem()))
    }

    /// The two-player tournament of pairing `(i, j)`: the ladder's seed, pairs and ply limit; each
    /// player's own `nodes`/`depth` (or a budget in its spec, [`spec_has_budget`]) if it has one, else the ladder's time per move (for built-in
    /// bots that take `ms=`; `random` and `greedy` take none).
    ///
    /// # Errors
    /// The variant or a spec does not build.
    pub fn pairing_config(&self, game: &GameSpec, dir: &Path, i: usize, j: usize) -> anyhow::Result<Config> {
        let player = |p: &LadderPlayer| -> anyhow::Result<PlayerConfig> {
            let own = p.nodes.is_some() || p.depth.is_some() || spec_has_budget(&p.spec);
            let uci = p.spec.starts_with("uci:");
            let takes_ms = uci || {
                let with = format!("{}{}ms=1", p.spec, if p.spec.contains(':') { "," } else { ":" });
                crate::bots::is_net_spec(&p.spec) || game.check_bot(&with).is_ok()
            };
            Ok(PlayerConfig {
                name: Some(p.name.clone()),
                spec: p.spec.clone(),
                nodes: p.nodes,
                movetime_ms: (!own && takes_ms).then_some(self.movetime_ms),
                depth: p.depth,
                options: p.options.clone(),
                timeout_ms: None,
                dialect: p.dialect,
            })
        };
        let cfg = Config {
            name: format!("ladder {} {} vs {}", self.variant, self.players[i].name, self.players[j].name),
            variant: self.variant.clone(),
            format: tournament::config::Format::RoundRobin,
            pairs: self.pairs,
            concurrency: 2,
            seed: self.seed,
            max_plies: self.max_plies,
            opening_plies: 0,
            engine_restart: tournament::config::EngineRestart::Game,
            pgn: Some(self.pgn_path(dir, i, j)),
            budget: Budget::default(),
            players: vec![player(&self.players[i])?, player(&self.players[j])?],
            sprt: None,
        };
        Ok(cfg)
    }
}

/// Whether a bot spec sets its own budget (`nodes=`, `iterations=`, `depth=`, `ms=`, `sims=`
/// among its top-level parameters, before any nested `search=`): such a player keeps it and is
/// not given the ladder's time per move (a fixed-work player's strength does not depend on the
/// machine's load).
pub fn spec_has_budget(spec: &str) -> bool {
    let params = spec.split_once(':').map(|(_, p)| p).unwrap_or("");
    let top = params.split("search=").next().unwrap_or("");
    top.split([',', ':']).any(|kv| matches!(kv.split('=').next().map(str::trim), Some("nodes" | "iterations" | "depth" | "ms" | "sims")))
}

/// Writes `bytes` to `path` through `path.tmp` and a rename, creating the parent directory.
///
/// # Errors
/// I/O, naming the file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), LadderError> {
    engine::fsio::write_atomic(path, bytes).map_err(|source| LadderError::Io { path: path.into(), source })
}

/// Deletes the PGNs `paths` of a dropped player's pairings ([`Roster::remove`]); a missing file
/// is not an error (a pairing not yet played has none).
///
/// # Errors
/// I/O other than a missing file, naming the file.
pub fn delete_games(paths: &[PathBuf]) -> Result<(), LadderError> {
    for path in paths {
        match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(LadderError::Io { path: path.clone(), source: e }),
            _ => {}
        }
    }
    Ok(())
}

/// One pairing's results.
#[derive(Clone, Debug)]
pub struct PairingResult {
    /// Player indices `(i, j)`.
    pub players: (usize, usize),
    /// `i`'s record against `j`.
    pub wdl: Wdl,
    /// Endings by reason.
    pub reasons: BTreeMap<String, u32>,
    /// Total plies.
    pub plies: usize,
    /// Games played by this run.
    pub played_now: usize,
}

/// One player's place on the ladder.
#[derive(Clone, Debug)]
pub struct Standing {
    /// Player index in the roster.
    pub index: usize,
    /// Elo, `random` = 0.
    pub elo: f64,
    /// Half-width of the 95 % interval of the difference to `random` (oracles: against the fixed
    /// reference ratings).
    pub ci95: f64,
    /// Games.
    pub games: u32,
    /// Points (draws half).
    pub points: f64,
    /// Draws.
    pub draws: u32,
    /// Rated apart because it reads the full state.
    pub oracle: bool,
    /// Rated apart because it is a challenger ([`LadderPlayer::opponents`]).
    pub challenger: bool,
}

/// The ladder after a run.
#[derive(Clone, Debug)]
pub struct Ladder {
    /// The roster.
    pub roster: Roster,
    /// Every pairing, in schedule order.
    pub pairings: Vec<PairingResult>,
    /// Standings, best first.
    pub standings: Vec<Standing>,
    /// A perfect or zero score made the fit add virtual draws.
    pub prior: bool,
}

/// Run options.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Games in parallel within a pairing (default 2).
    pub concurrency: Option<usize>,
    /// Progress lines on stderr.
    pub progress: bool,
    /// Play nothing: rate the games already in the PGNs.
    pub report_only: bool,
    /// Play the games on a Ray cluster ([`crate::ray_games`]).
    pub cluster: Option<crate::ray_games::Cluster>,
}

/// Plays every pairing's missing games (in schedule order, each pairing resumed from its PGN)
/// and rates the ladder.
///
/// # Errors
/// The variant or a player cannot be built, a PGN cannot be read or written, or a game failed
/// (finished games stay in the PGNs; rerun to resume).
pub fn run(roster: &Roster, dir: &Path, opts: &Options) -> anyhow::Result<Ladder> {
    let game = GameSpec::load(&roster.variant)?;
    let mut results = Vec::new();
    let pairings = roster.pairings();
    for (n, &(i, j)) in pairings.iter().enumerate() {
        let cfg = roster.pairing_config(&game, dir, i, j)?;
        let topts = tournament::Options {
            progress: false,
            pgn: None,
            concurrency: Some(opts.concurrency.unwrap_or(2)),
            max_new_games: opts.report_only.then_some(0),
            cluster: opts.cluster.clone(),
        };
        let t0 = std::time::Instant::now();
        let s = tournament::run(&cfg, &topts)?;
        if opts.progress && s.played_now > 0 {
            let x = s.table[0][1];
            eprintln!(
                "ladder {}: pairing {}/{} {} vs {}: +{} ={} -{} ({} games now, {:.0} s)",
                roster.variant,
                n + 1,
                pairings.len(),
                roster.players[i].name,
                roster.players[j].name,
                x.w,
                x.d,
                x.l,
                s.played_now,
                t0.elapsed().as_secs_f64()
            );
        }
        results.push(PairingResult { players: (i, j), wdl: s.table[0][1], reasons: s.reasons, plies: s.plies, played_now: s.played_now });
    }
    let (standings, prior) = standings(roster, &results);
    Ok(Ladder { roster: roster.clone(), pairings: results, standings, prior })
}

/// Rates the ladder (module docs): the reference players by one maximum-likelihood fit anchored
/// at `random`, each oracle and challenger alone against the fixed reference ratings. Returns the standings,
/// best first, and whether a virtual draw was added anywhere.
pub fn standings(roster: &Roster, results: &[PairingResult]) -> (Vec<Standing>, bool) {
    let k = roster.players.len();
    let oracle: Vec<bool> = roster.players.iter().map(LadderPlayer::is_oracle).collect();
    let apart: Vec<bool> = roster.players.iter().map(LadderPlayer::is_rated_apart).collect();
    let mut table = vec![vec![Wdl::default(); k]; k];
    for r in results {
        let (i, j) = r.players;
        table[i][j] = r.wdl;
        table[j][i] = r.wdl.flipped();
    }
    let refs: Vec<usize> = (0..k).filter(|&i| !apart[i]).collect();
    let sub: Vec<Vec<Wdl>> = refs.iter().map(|&i| refs.iter().map(|&j| table[i][j]).collect()).collect();
    let fit = elo::ratings(&sub);
    let anchor = refs.iter().position(|&i| roster.players[i].name == "random").unwrap_or(0);
    let anchored = fit.anchored(anchor);
    let mut prior = fit.prior;
    let mut elo_of = vec![f64::NAN; k];
    let mut ci_of = vec![f64::INFINITY; k];
    for (a, &i) in refs.iter().enumerate() {
        elo_of[i] = anchored[a].elo;
        ci_of[i] = anchored[a].ci95;
    }
    let fixed: Vec<f64> = refs.iter().map(|&i| elo_of[i]).collect();
    for i in (0..k).filter(|&i| apart[i]) {
        let rec: Vec<Wdl> = refs.iter().map(|&j| table[i][j]).collect();
        if let Some((r, p)) = elo::rate_against(&fixed, &rec) {
            elo_of[i] = r.elo;
            ci_of[i] = r.ci95;
            prior |= p;
        }
    }
    let mut out: Vec<Standing> = (0..k)
        .map(|i| Standing {
            index: i,
            elo: elo_of[i],
            ci95: ci_of[i],
            games: table[i].iter().map(Wdl::n).sum(),
            points: table[i].iter().map(Wdl::points).sum(),
            draws: table[i].iter().map(|x| x.d).sum(),
            oracle: oracle[i],
            challenger: !oracle[i] && apart[i],
        })
        .collect();
    out.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    (out, prior)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_parses_names_and_specs() {
        assert_eq!(parse_add("greedy"), LadderPlayer::new("greedy", "greedy"));
        assert_eq!(parse_add("ab3=alphabeta:depth=3"), LadderPlayer::new("ab3", "alphabeta:depth=3"));
        assert_eq!(parse_add("net:checkpoint=runs/quick"), LadderPlayer::new("net:checkpoint=runs/quick", "net:checkpoint=runs/quick"));
        assert_eq!(parse_add("pimc:k=8,search=alphabeta:depth=2").spec, "pimc:k=8,search=alphabeta:depth=2");
    }

    #[test]
    fn budgets_in_specs_are_seen() {
        assert!(spec_has_budget("ismcts:mode=so,iterations=300"));
        assert!(spec_has_budget("alphabeta:depth=2"));
        assert!(spec_has_budget("net:checkpoint=x,sims=8"));
        assert!(!spec_has_budget("pimc:k=8,search=alphabeta:depth=2"));
        assert!(!spec_has_budget("ismcts:mode=mo"));
        assert!(!spec_has_budget("greedy"));
    }

    #[test]
    fn oracles_are_recognised_and_file_stems_are_safe() {
        let r = reference_players();
        let oracles: Vec<&str> = r.iter().filter(|p| p.is_oracle()).map(|p| p.name.as_str()).collect();
        assert_eq!(oracles, ["oracle-alphabeta", "oracle-expectimax"]);
        let p = LadderPlayer::new("net:checkpoint=runs/quick", "x");
        let stem = p.file_stem();
        assert!(stem.starts_with("net-checkpoint-runs-quick-") && stem.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.'), "{stem}");
        assert_eq!(LadderPlayer::new("ismcts-so", "x").file_stem(), "ismcts-so");
    }

    #[test]
    fn roster_round_trips_and_refuses_duplicates() {
        let mut r = Roster::new("surprise", 50, 4, 1, 400);
        assert_eq!(r.add(LadderPlayer::new("greedy", "greedy")), Ok(false));
        assert!(r.add(LadderPlayer::new("greedy", "random")).is_err());
        let mut fsf = LadderPlayer::new("fsf-1k", "uci:${FAIRY_STOCKFISH}");
        fsf.nodes = Some(1000);
        fsf.dialect = Some(Dialect::FairyStockfish);
        assert_eq!(r.add(fsf), Ok(true));
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("ladder.toml");
        r.save(&path).expect("save");
        assert_eq!(Roster::load(&path).expect("load"), r);
        std::fs::write(&path, std::fs::read_to_string(&path).expect("read").replace("pairs = 4", "pairs = 4\nspeed = 2")).expect("write");
        let e = Roster::load(&path).expect_err("unknown key").to_string();
        assert!(e.contains("speed") && e.contains("ladder.toml"), "{e}");
    }

    #[test]
    fn a_note_round_trips_is_reported_and_replays_nothing() {
        let mut r = Roster::new("surprise", 50, 1, 1, 40);
        r.players.truncate(2); // random, greedy
        let game = GameSpec::load("surprise").expect("surprise");
        let dir = tempfile::tempdir().expect("tempdir");
        let before = format!("{:?}", r.pairing_config(&game, dir.path(), 0, 1).expect("config"));
        r.players[1].note = Some("played with weights abc".into());
        assert_eq!(format!("{:?}", r.pairing_config(&game, dir.path(), 0, 1).expect("config")), before);
        let path = dir.path().join("ladder.toml");
        r.save(&path).expect("save");
        assert_eq!(Roster::load(&path).expect("load"), r);
        let (standings, prior) = standings(&r, &[]);
        let md = Ladder { roster: r, pairings: vec![], standings, prior }.markdown("anqi ladder", "x.png");
        assert!(md.contains("- **greedy**: played with weights abc"), "{md}");
    }

    #[test]
    fn oracles_do_not_move_the_reference_scale() {
        let mut roster = Roster::new("xiangqi", 10, 1, 1, 10);
        roster.players.truncate(2); // random, greedy
        roster.players.push(LadderPlayer::new("oracle-alphabeta", "alphabeta"));
        let g = |w, d, l| Wdl { w, d, l };
        let pr = |i, j, wdl| PairingResult { players: (i, j), wdl, reasons: BTreeMap::new(), plies: 0, played_now: 0 };
        let base = vec![pr(0, 1, g(2, 2, 6))];
        let (a, _) = standings(&roster, &[base.clone(), vec![pr(0, 2, g(0, 0, 10)), pr(1, 2, g(0, 1, 9))]].concat());
        let (b, _) = standings(&roster, &[base, vec![pr(0, 2, g(0, 5, 5)), pr(1, 2, g(5, 5, 0))]].concat());
        let greedy = |s: &[Standing]| s.iter().find(|x| x.index == 1).map(|x| (x.elo, x.ci95)).expect("greedy");
        assert_eq!(greedy(&a), greedy(&b));
        // random 3/10 against greedy: greedy = -elo_from_score(0.3) above random = 147.19.
        assert!((greedy(&a).0 - 147.19).abs() < 0.01, "{:?}", greedy(&a));
        let random = a.iter().find(|x| x.index == 0).expect("random");
        assert_eq!((random.elo, random.ci95), (0.0, 0.0));
        assert!(a.iter().find(|x| x.index == 2).is_some_and(|x| x.oracle && x.elo > greedy(&a).0));
    }

    #[test]
    fn challengers_meet_only_their_opponents_and_do_not_move_the_reference_scale() {
        let mut roster = Roster::new("xiangqi", 10, 1, 1, 10);
        roster.players.truncate(3); // random, greedy, expectimax
        let mut c = LadderPlayer::new("expectimax-200ms", "expectimax:ms=200");
        c.opponents = vec!["expectimax".into()];
        roster.players.push(c.clone());
        roster.check().expect("a challenger of reference players");
        assert_eq!(roster.pairings(), [(0, 1), (0, 2), (1, 2), (2, 3)]);
        let g = |w, d, l| Wdl { w, d, l };
        let pr = |i, j, wdl| PairingResult { players: (i, j), wdl, reasons: BTreeMap::new(), plies: 0, played_now: 0 };
        let base = vec![pr(0, 1, g(2, 2, 6)), pr(0, 2, g(1, 0, 9)), pr(1, 2, g(3, 0, 7))];
        let (a, _) = standings(&roster, &[base.clone(), vec![pr(2, 3, g(1, 2, 7))]].concat());
        let (b, _) = standings(&roster, &[base, vec![pr(2, 3, g(7, 2, 1))]].concat());
        let at = |s: &[Standing], i: usize| s.iter().find(|x| x.index == i).map(|x| (x.elo, x.ci95, x.challenger, x.oracle)).expect("player");
        for i in 0..3 {
            assert_eq!(at(&a, i), at(&b, i), "reference player {i} moved");
        }
        // 8/10 against expectimax: elo_from_score(0.8) = 240.82 above it.
        let (ea, _, challenger, oracle) = at(&a, 3);
        assert!(challenger && !oracle);
        assert!((ea - at(&a, 2).0 - 240.82).abs() < 0.01, "{ea} vs {}", at(&a, 2).0);
        assert!(at(&b, 3).0 < at(&b, 2).0);
        let md = Ladder { roster: roster.clone(), pairings: vec![], standings: a, prior: false }.markdown("anqi ladder", "x.png");
        assert!(md.contains("expectimax-200ms ‡") && md.contains("challenger, meets only expectimax"), "{md}");
        // Opponents must be reference players of the ladder.
        roster.players[3].opponents = vec!["nobody".into()];
        assert!(roster.check().is_err_and(|e| e.contains("nobody") && e.contains("expectimax-200ms")));
        roster.players.push(LadderPlayer::new("oracle-alphabeta", "alphabeta"));
        roster.players[3].opponents = vec!["oracle-alphabeta".into()];
        assert!(roster.check().is_err_and(|e| e.contains("rated apart")));
        roster.players[3].opponents = vec!["expectimax".into()];
        c.name = "c2".into();
        c.opponents = vec!["expectimax-200ms".into()];
        roster.players.push(c);
        assert!(roster.check().is_err_and(|e| e.contains("c2") && e.contains("rated apart")));
    }
}
