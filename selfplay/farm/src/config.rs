//! The training configuration (`configs/train/*.toml`): one typed table saved with every
//! checkpoint. Unknown keys are errors naming the file and the key; `--set section.key=value`
//! overrides any key from the command line.

use super::search::SearchConfig;
use super::GameConfig;
use models::net::NetConfig;
use models::train::OptimConfig;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Where the trainer's samples come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// The trainer plays its own games between training phases (worker 0).
    #[default]
    InProcess,
    /// Only `anqi selfplay --worker K` processes write shards; the trainer waits for them.
    External,
}

/// `[selfplay]`: the farm — how many games an iteration plays and who plays them, and the
/// settings of every game ([`GameConfig`], one struct: its keys sit in this table beside these).
///
/// Serialized as one flat table; read by hand ([`Deserialize`] below) so that an unknown key is
/// still an error naming it (`serde(flatten)` cannot refuse unknown keys).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SelfplayConfig {
    /// Games per iteration (one shard).
    pub games_per_iteration: u32,
    /// Who plays the games.
    pub source: Source,
    /// Every game's settings: `concurrent_games`, `max_plies`, `adjudicate_material`,
    /// `adjudicate_scale`, `temperature`, `temperature_plies`, `lanes` (0, the default here:
    /// one per farm thread on the CPU, one on CUDA, [`crate::run::resolve_lanes`]).
    #[serde(flatten)]
    pub game: GameConfig,
}

impl<'de> Deserialize<'de> for SelfplayConfig {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let mut table = toml::Table::deserialize(d)?;
        let games_per_iteration = match table.remove("games_per_iteration") {
            Some(v) => u32::deserialize(v).map_err(|e| D::Error::custom(format!("games_per_iteration: {e}")))?,
            None => return Err(D::Error::missing_field("games_per_iteration")),
        };
        let source = match table.remove("source") {
            Some(v) => Source::deserialize(v).map_err(|e| D::Error::custom(format!("source: {e}")))?,
            None => Source::default(),
        };
        if !table.contains_key("lanes") {
            table.insert("lanes".into(), toml::Value::Integer(0));
        }
        let game = GameConfig::deserialize(toml::Value::Table(table)).map_err(|e| {
            let e = e.to_string();
            // toml names the unknown key and the game settings it expected; add this table's own.
            D::Error::custom(if e.contains("unknown field") { format!("{}, or games_per_iteration, source", e.trim_end()) } else { e })
        })?;
        Ok(SelfplayConfig { games_per_iteration, source, game })
    }
}

/// `[train]`: the training loop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainSection {
    /// Optimiser steps of the whole run.
    pub steps: u64,
    /// Steps after each self-play phase.
    pub steps_per_iteration: u64,
    /// Samples per step.
    pub batch_size: usize,
    /// Replay window: the most recent samples trained on.
    pub replay_samples: usize,
    /// Samples needed before the first step.
    #[serde(default)]
    pub min_samples: usize,
    /// Checkpoint every this many steps (and at the end); 0: every iteration.
    #[serde(default)]
    pub checkpoint_every: u64,
}

/// `[eval]`: matches after training and the optional gating match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvalSection {
    /// Final match against `random` (games).
    #[serde(default)]
    pub vs_random_games: u32,
    /// Required share of wins against `random`.
    #[serde(default = "default_random_target")]
    pub vs_random_target: f64,
    /// Final match against the untrained net (step 0) with the same search (games).
    #[serde(default)]
    pub vs_initial_games: u32,
    /// Required score (wins + draws / 2) against the untrained net.
    #[serde(default = "default_initial_target")]
    pub vs_initial_target: f64,
    /// Final match against `greedy` (games; the net with the evaluation search).
    #[serde(default)]
    pub vs_greedy_games: u32,
    /// Required score (wins + draws / 2) against `greedy`.
    #[serde(default = "default_greedy_target")]
    pub vs_greedy_target: f64,
    /// Final match against `ismcts` at equal time (games): ismcts gets the net's measured cost
    /// per move in the greedy match. Reported, no target.
    #[serde(default)]
    pub vs_ismcts_games: u32,
    /// Milliseconds per move for ismcts when no greedy match measured the net's.
    #[serde(default = "default_ismcts_ms")]
    pub ismcts_movetime_ms: u64,
    /// Games of a gating match against the previous checkpoint after each iteration (0: off).
    #[serde(default)]
    pub gate_games: u32,
    /// Score the new net needs against the previous best to become `best`.
    #[serde(default = "default_gate_threshold")]
    pub gate_threshold: f64,
    /// Simulations per move in evaluation games (default: the search's).
    #[serde(default)]
    pub simulations: Option<u32>,
    /// Simulations per move of the trained net in the match against `random` (default:
    /// `simulations`). The match against the untrained net always gives both sides the same
    /// search (`simulations`).
    #[serde(default)]
    pub vs_random_simulations: Option<u32>,
    /// Opening plies played at temperature 1 so that evaluation games differ.
    #[serde(default = "default_eval_temperature_plies")]
    pub temperature_plies: u32,
    /// Plies after which an evaluation game is adjudicated (default: the self-play limit).
    #[serde(default)]
    pub max_plies: Option<u32>,
}

fn default_random_target() -> f64 {
    0.95
}
fn default_initial_target() -> f64 {
    0.60
}
fn default_greedy_target() -> f64 {
    0.90
}
fn default_ismcts_ms() -> u64 {
    50
}
fn default_gate_threshold() -> f64 {
    0.55
}
fn default_eval_temperature_plies() -> u32 {
    4
}

impl Default for EvalSection {
    fn default() -> Self {
        EvalSection {
            vs_random_games: 0,
            vs_random_target: default_random_target(),
            vs_initial_games: 0,
            vs_initial_target: default_initial_target(),
            vs_greedy_games: 0,
            vs_greedy_target: default_greedy_target(),
            vs_ismcts_games: 0,
            ismcts_movetime_ms: default_ismcts_ms(),
            gate_games: 0,
            gate_threshold: default_gate_threshold(),
            simulations: None,
            vs_random_simulations: None,
            temperature_plies: default_eval_temperature_plies(),
            max_plies: None,
        }
    }
}

/// A training run's configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// Variant preset or file (the one key that selects what is trained).
    pub variant: String,
    /// Directory of the run: `checkpoints/`, `shards/`, `metrics.jsonl`, `config.toml`.
    pub run_dir: PathBuf,
    /// Seed of everything random (net initialisation, games, batches).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// `cpu`, `cuda`, `cuda:N` or `auto`.
    #[serde(default = "default_device")]
    pub device: String,
    /// Threads for the farm and for libtorch (0: all cores).
    #[serde(default)]
    pub threads: usize,
    /// Net sizes.
    pub net: NetConfig,
    /// Search settings.
    pub search: SearchConfig,
    /// The farm.
    pub selfplay: SelfplayConfig,
    /// The training loop.
    pub train: TrainSection,
    /// The optimiser.
    pub optimizer: OptimConfig,
    /// Evaluation.
    #[serde(default)]
    pub eval: EvalSection,
    /// A supervised warm start on a classical bot's games before self-play (none by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warmstart: Option<WarmStart>,
}

/// `[warmstart]`: before self-play, a teacher bot plays `games` games against itself (recorded as
/// shards of worker [`TEACHER_WORKER`], policy and value targets as in `teacher.rs`), and the
/// first `steps` training steps train on them alone; self-play then starts from that net and its
/// shards push the teacher's out of the replay window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WarmStart {
    /// The teacher, a classical bot spec (`expectimax:depth=2`, `pimc:k=8`, …) playing both sides.
    pub teacher: String,
    /// Teacher games in all.
    pub games: u32,
    /// Games per teacher shard.
    #[serde(default = "default_teacher_shard")]
    pub games_per_shard: u32,
    /// Training steps (of `train.steps`) on the teacher's samples before the first self-play.
    pub steps: u64,
    /// Opening plies sampled from the teacher's policy target (the rest: its best move).
    #[serde(default = "default_teacher_plies")]
    pub temperature_plies: u32,
    /// Softmax temperature of the policy target over centipawn scores
    /// ([`crate::teacher::TeacherTargets::temperature_cp`]).
    #[serde(default = "default_teacher_temperature")]
    pub temperature_cp: f32,
    /// Centipawns that map to `tanh(1)` in the value target.
    #[serde(default = "default_teacher_scale")]
    pub scale_cp: f32,
}

impl WarmStart {
    /// The target settings.
    pub fn targets(&self) -> crate::teacher::TeacherTargets {
        crate::teacher::TeacherTargets { temperature_cp: self.temperature_cp, scale_cp: self.scale_cp }
    }
}

fn default_teacher_temperature() -> f32 {
    crate::teacher::TeacherTargets::default().temperature_cp
}
fn default_teacher_scale() -> f32 {
    crate::teacher::TeacherTargets::default().scale_cp
}

/// The worker number of teacher shards (`w1000-*.shard`).
pub const TEACHER_WORKER: u32 = 1000;

fn default_teacher_shard() -> u32 {
    50
}
fn default_teacher_plies() -> u32 {
    8
}

fn default_seed() -> u64 {
    1
}
fn default_device() -> String {
    "cpu".into()
}

/// A configuration problem, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// OS error.
        source: std::io::Error,
    },
    /// Syntax, an unknown key, a wrong type.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong (with the key and, where known, the line).
        message: String,
    },
    /// A `--set` override that is not `key=value` or names no known key.
    #[error("--set {arg:?}: {message}")]
    Override {
        /// The argument.
        arg: String,
        /// What is wrong.
        message: String,
    },
}

impl RunConfig {
    /// Reads `path` and applies `overrides` (`section.key=value`, TOML values; a bare word is
    /// taken as a string).
    pub fn load(path: &Path, overrides: &[String]) -> Result<RunConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io { path: path.to_path_buf(), source })?;
        let invalid = |message: String| ConfigError::Invalid { path: path.to_path_buf(), message };
        let cfg: RunConfig = if overrides.is_empty() {
            toml::from_str(&text).map_err(|e| invalid(one_line(&e.to_string())))?
        } else {
            let mut table: toml::Table = text.parse().map_err(|e: toml::de::Error| invalid(one_line(&e.to_string())))?;
            for o in overrides {
                apply_override(&mut table, o)?;
            }
            let merged = toml::to_string(&table).map_err(|e| invalid(e.to_string()))?;
            toml::from_str(&merged).map_err(|e: toml::de::Error| invalid(format!("after --set: {}", one_line(&e.to_string()))))?
        };
        cfg.validate().map_err(invalid)?;
        Ok(cfg)
    }

    /// Checks values that types cannot.
    pub fn validate(&self) -> Result<(), String> {
        let positive = [
            ("net.blocks", self.net.blocks as u64),
            ("net.channels", self.net.channels as u64),
            ("search.simulations", u64::from(self.search.simulations)),
            ("selfplay.games_per_iteration", u64::from(self.selfplay.games_per_iteration)),
            ("selfplay.concurrent_games", self.selfplay.game.concurrent_games as u64),
            ("selfplay.max_plies", u64::from(self.selfplay.game.max_plies)),
            ("train.steps_per_iteration", self.train.steps_per_iteration),
            ("train.batch_size", self.train.batch_size as u64),
            ("train.replay_samples", self.train.replay_samples as u64),
        ];
        let optional = [("eval.simulations", self.eval.simulations), ("eval.vs_random_simulations", self.eval.vs_random_simulations)];
        let positive = positive.into_iter().chain(optional.into_iter().filter_map(|(k, v)| v.map(|v| (k, u64::from(v)))));
        for (k, v) in positive {
            if v == 0 {
                return Err(format!("key `{k}` must be positive"));
            }
        }
        if !(self.optimizer.lr > 0.0 && self.optimizer.lr.is_finite()) {
            return Err("key `optimizer.lr` must be a positive number".into());
        }
        if self.search.temperature_value_cutoff.is_some_and(|c| !(0.0..=2.0).contains(&c)) {
            return Err("key `search.temperature_value_cutoff` must lie in [0, 2] (value units: -1 loss .. +1 win)".into());
        }
        self.device.parse::<models::device::DeviceSpec>().map_err(|e| format!("key `device`: {e}"))?;
        Ok(())
    }

    /// Checkpoint directory.
    pub fn checkpoint_dir(&self) -> PathBuf {
        self.run_dir.join("checkpoints")
    }

    /// Shard directory.
    pub fn shard_dir(&self) -> PathBuf {
        self.run_dir.join("shards")
    }

    /// The configuration as JSON (saved in checkpoint metadata).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }

    /// The configuration as TOML text.
    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).unwrap_or_default()
    }
}

pub(crate) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(crate) fn apply_override(table: &mut toml::Table, arg: &str) -> Result<(), ConfigError> {
    let bad = |message: &str| ConfigError::Override { arg: arg.into(), message: message.into() };
    let (key, value) = arg.split_once('=').ok_or_else(|| bad("expected section.key=value"))?;
    let value: toml::Value = match format!("v = {value}").parse::<toml::Table>() {
        Ok(mut t) => t.remove("v").ok_or_else(|| bad("no value"))?,
        Err(_) => toml::Value::String(value.to_string()),
    };
    let parts: Vec<&str> = key.trim().split('.').collect();
    let mut t = table;
    for p in &parts[..parts.len() - 1] {
        let entry = t.entry(p.to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
        t = entry.as_table_mut().ok_or_else(|| bad(&format!("`{p}` is not a table")))?;
    }
    t.insert(parts[parts.len() - 1].to_string(), value);
    Ok(())
}
