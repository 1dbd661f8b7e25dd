//! `anqi train --config configs/train/eval-<variant>.toml`: the learned evaluation's pipeline
//! (issue #36 item 2): generate labelled positions ([`crate::evaldata`]) → train
//! ([`models::evaltrain::fit`]) → export the quantized network (`<run_dir>/eval.nnue`) with its
//! float-vs-quantized error, and a JSON summary (`<run_dir>/summary.json`). A configuration with
//! an `[evaldata]` or `[evaltrain]` table selects this pipeline ([`is_eval_config`]); running the
//! same command again resumes: complete shards are kept, training continues from its checkpoint.
//!
//! ```toml
//! variant = "xiangqi"
//! run_dir = "runs/eval-xiangqi"
//! seed = 1
//! threads = 2
//! # data_dir = "..."     # default: <run_dir>/data
//! [evaldata]             # crate::evaldata::DataConfig
//! games = 2000
//! nodes = 4000
//! [evaltrain]            # models::evaltrain::FitConfig
//! epochs = 20
//! ```

use crate::config::{apply_override, one_line, ConfigError};
use crate::evaldata::{self, DataConfig, GenStats};
use crate::run::Ui;
use anyhow::Context;
use engine::nnue::NetMeta;
use engine::variant::{State, Variant};
use models::evalshard;
use models::evaltrain::{self, ExportReport, FitConfig, FitReport};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The tables that select the evaluation pipeline.
pub const SECTIONS: [&str; 2] = ["evaldata", "evaltrain"];

/// An evaluation-training configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvalRunConfig {
    /// RULES.md variant preset or file (`xiangqi`, `jieqi`, `surprise`, `fanqi-9`, …).
    pub variant: String,
    /// Directory of the run: `data/` (unless `data_dir`), `train/` (checkpoint, `curve.csv`),
    /// `eval.nnue`, `summary.json`.
    pub run_dir: PathBuf,
    /// Where the shards go (default `<run_dir>/data`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_dir: Option<PathBuf>,
    /// Seed of the games, the split, the initialisation and the shuffles.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Games played at once and libtorch threads (0: every core).
    #[serde(default)]
    pub threads: usize,
    /// Data generation.
    pub evaldata: DataConfig,
    /// Training.
    #[serde(default)]
    pub evaltrain: FitConfig,
}

fn default_seed() -> u64 {
    1
}

/// Whether the configuration text has a table that selects the evaluation pipeline (text that
/// does not parse is left to the self-play configuration's loader, whose error names the line).
pub fn is_eval_config(text: &str) -> bool {
    text.parse::<toml::Table>().is_ok_and(|t| SECTIONS.iter().any(|s| t.contains_key(*s)))
}

impl EvalRunConfig {
    /// Reads `path` with `overrides` (`section.key=value`) applied, and checks it.
    ///
    /// # Errors
    /// [`ConfigError`] naming the file and the key.
    pub fn load(path: &Path, overrides: &[String]) -> Result<EvalRunConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io { path: path.to_path_buf(), source })?;
        let invalid = |message: String| ConfigError::Invalid { path: path.to_path_buf(), message };
        let mut table: toml::Table = text.parse().map_err(|e: toml::de::Error| invalid(one_line(&e.to_string())))?;
        for o in overrides {
            apply_override(&mut table, o)?;
        }
        let cfg: EvalRunConfig = toml::Value::Table(table).try_into().map_err(|e: toml::de::Error| invalid(one_line(&e.to_string())))?;
        cfg.validate().map_err(invalid)?;
        Ok(cfg)
    }

    /// Checks values that types cannot.
    ///
    /// # Errors
    /// A message naming the key.
    pub fn validate(&self) -> Result<(), String> {
        engine::any_game::load_variant(&self.variant).map_err(|e| format!("key `variant` = {:?}: {e}", self.variant))?;
        self.evaldata.validate("evaldata")?;
        self.evaltrain.validate("evaltrain")
    }

    /// The shard directory.
    pub fn data_dir(&self) -> PathBuf {
        self.data_dir.clone().unwrap_or_else(|| self.run_dir.join("data"))
    }

    /// The trainer's directory (checkpoint, learning curve).
    pub fn train_dir(&self) -> PathBuf {
        self.run_dir.join("train")
    }
}

/// What a run did (`summary.json`).
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The configuration.
    pub config: EvalRunConfig,
    /// This call's generation.
    pub generation: GenStats,
    /// Positions trained on (all shards of the data directory).
    pub positions: usize,
    /// The training.
    pub training: FitReport,
    /// The export.
    pub export: ExportReport,
}

/// The board geometry of `variant`'s positions.
pub fn geometry(variant: &'static Variant) -> engine::geometry::Geometry {
    State::new_game(variant).position().rules().attacks.geometry.clone()
}

/// Runs the pipeline of `cfg` (see the module documentation); `progress` shows bars on a terminal.
///
/// # Errors
/// The variant, a shard, the trainer or the export fails (each error names its file or key).
pub fn run(cfg: &EvalRunConfig, progress: bool) -> anyhow::Result<Summary> {
    let variant = engine::any_game::load_variant(&cfg.variant).with_context(|| format!("key `variant` = {:?}", cfg.variant))?;
    let threads = crate::run::init_threads(cfg.threads);
    if cfg.evaltrain.threads > 0 {
        tch::set_num_threads(cfg.evaltrain.threads as i32);
    }
    std::fs::create_dir_all(&cfg.run_dir).with_context(|| format!("{}", cfg.run_dir.display()))?;
    engine::fsio::write_atomic(&cfg.run_dir.join("config.toml"), toml::to_string_pretty(cfg).unwrap_or_default().as_bytes())?;
    let ui = Ui::new(progress);
    let data_dir = cfg.data_dir();
    let total = cfg.evaldata.shards();
    let have = evalshard::complete_prefix(&data_dir);
    ui.say(format!(
        "evaldata: {} into {}: {} of {} shards present, {} threads, {}",
        cfg.variant,
        data_dir.display(),
        have.min(total),
        total,
        threads,
        cfg.evaldata.searcher()
    ));
    let bar = ui.bar(total, "shards");
    bar.set_position(have.min(total));
    let generation = evaldata::generate(variant, &data_dir, &cfg.evaldata, cfg.seed, crate::run::GIT_REVISION, |done, total, s| {
        bar.set_position(done);
        bar.set_message(format!("{:.1} positions/s", s.samples_per_s()));
        if !progress {
            ui.say(format!(
                "evaldata: shard {done}/{total}: {} games, {} positions in {:.0} s ({:.1} positions/s, {:.0} nodes/s)",
                s.games,
                s.samples,
                s.seconds,
                s.samples_per_s(),
                s.nodes as f64 / s.seconds.max(1e-9)
            ));
        }
    })?;
    bar.finish_and_clear();
    ui.say(format!(
        "evaldata: {} games, {} positions in {:.0} s this call ({:.1} positions/s){}",
        generation.games,
        generation.samples,
        generation.seconds,
        generation.samples_per_s(),
        if generation.complete { "" } else { "; stopped by evaldata.max_minutes before the last shard" }
    ));
    let (headers, samples) = evalshard::read_all(&data_dir)?;
    if let Some(h) = headers.iter().find(|h| h.variant != variant.name) {
        anyhow::bail!("{}: shard {} holds {} positions, this run trains {}", data_dir.display(), h.seq, h.variant, variant.name);
    }
    let geom = geometry(variant);
    let (training, net, val) = evaltrain::fit(&cfg.evaltrain, &geom, &samples, &cfg.train_dir(), cfg.seed, |l| ui.say(l))?;
    let meta = NetMeta {
        variant: variant.name.to_string(),
        description: format!(
            "{} positions of {} games ({}), {} epochs, the network of epoch {} (validation loss {:.6}), lambda {}; anqi {}",
            samples.len(),
            headers.iter().map(|h| u64::from(h.games)).sum::<u64>(),
            cfg.evaldata.searcher(),
            training.epochs_done,
            training.best_epoch,
            training.best_val_loss,
            cfg.evaltrain.lambda,
            crate::run::GIT_REVISION
        ),
    };
    let export = evaltrain::export(&net, meta, &geom, &samples, &val, &cfg.run_dir.join("eval.nnue"))?;
    ui.say(format!(
        "export: {} ({}): float vs quantized over {} validation positions: mean |error| {:.2} cp, max {:.1} cp",
        export.path.display(),
        export.hash,
        export.positions,
        export.mae_cp,
        export.max_abs_cp
    ));
    let summary = Summary { config: cfg.clone(), generation, positions: samples.len(), training, export };
    let json = serde_json::to_string_pretty(&summary)?;
    engine::fsio::write_atomic(&cfg.run_dir.join("summary.json"), json.as_bytes())?;
    println!("{}", serde_json::to_string(&summary)?);
    Ok(summary)
}
