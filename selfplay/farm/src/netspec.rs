//! The parameters of a `net:` bot spec ([`crate::netmore`]): parsing and checking the spec, reading which game a
//! checkpoint or published net was trained for, loading its net for an encoding, the search
//! settings (the checkpoint's training search unless the spec overrides them) and the bot's
//! name. The keys are documented in [`crate::netmore`].

use crate::hybrid::HybridRoot;
use crate::search::{LayoutMixture, SearchConfig};
use engine::observe::Encoding;
use models::checkpoint::{self, CheckpointMeta, Expect};
use models::device::DeviceSpec;
use models::net::Net;
use models::zoo;
use std::path::PathBuf;
use std::time::Duration;

/// Leaves per net call of the `net:` bot unless `batch=` says otherwise.
pub const DEFAULT_BATCH: u32 = 8;

/// Where the net comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum NetSource {
    /// A checkpoint: a run directory, `step-N.json` or `step-N.safetensors`.
    Checkpoint(PathBuf),
    /// A published net (`models::zoo`): a name or `NAME-HASH12`, in `dir` or else
    /// [`zoo::default_dir`].
    Zoo {
        /// The query.
        name: String,
        /// `zoo_dir=`, if given.
        dir: Option<PathBuf>,
    },
}

/// A parsed and checked `net:` spec (the text after `net:`).
pub struct NetSpec {
    /// The net.
    pub source: NetSource,
    /// `sims=`: simulations per decision, if given.
    pub sims: Option<u32>,
    /// `ms=`: wall clock per decision, if given.
    pub ms: Option<u64>,
    /// `batch=` (default [`DEFAULT_BATCH`]).
    pub batch: u32,
    /// `cpuct=`, if given.
    pub cpuct: Option<f32>,
    /// `mix=`, if given (checked to lie in [0, 1] by [`NetSpec::search`]).
    pub mix: Option<f32>,
    /// `vdepth=`, if given.
    pub vdepth: Option<u32>,
    /// `pimc=`/`prior=`/`vmix=`: the PIMC root, if asked for.
    pub hybrid: Option<HybridRoot>,
    /// `device=` (default the CPU).
    pub device: DeviceSpec,
    /// `layouts=`: a solved Surprise layout mixture, if given.
    pub layouts: Option<LayoutMixture>,
    /// `reuse=` (default on).
    pub reuse: bool,
}

impl NetSpec {
    /// Parses `params` (`key=value` parts separated by commas; a bare part is the checkpoint).
    ///
    /// # Errors
    /// An unknown or malformed parameter (named in the text), a missing or doubly given source,
    /// a zero count, a PIMC share outside (0, 1], a negative prior or value weight, or `prior=` or
    /// `vmix=` without `pimc=`, as text.
    pub fn parse(params: &str) -> Result<NetSpec, String> {
        let mut path: Option<PathBuf> = None;
        let mut zoo_name: Option<String> = None;
        let mut zoo_dir: Option<PathBuf> = None;
        let mut batch = DEFAULT_BATCH;
        let mut reuse = true;
        let mut sims: Option<u32> = None;
        let mut ms: Option<u64> = None;
        let mut device = DeviceSpec::Cpu;
        let mut layouts = None;
        let (mut mix, mut vdepth, mut cpuct): (Option<f32>, Option<u32>, Option<f32>) = (None, None, None);
        let (mut pimc_share, mut prior_cp, mut vmix): (Option<f64>, Option<f64>, Option<f64>) = (None, None, None);
        for part in params.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').unwrap_or(("checkpoint", part));
            let num = |what: &str| format!("net: {k}={v:?} is not {what}");
            match k {
                "checkpoint" | "ckpt" => path = Some(PathBuf::from(v)),
                "zoo" => zoo_name = Some(v.to_owned()),
                "zoo_dir" => zoo_dir = Some(PathBuf::from(v)),
                "sims" | "simulations" | "nodes" => sims = Some(v.parse().map_err(|_| num("a count"))?),
                "ms" | "movetime" => ms = Some(v.parse().map_err(|_| num("a count of milliseconds"))?),
                "batch" => batch = v.parse().map_err(|_| num("a count"))?,
                "cpuct" => cpuct = Some(v.parse().map_err(|_| num("a number"))?),
                "mix" => mix = Some(v.parse().map_err(|_| num("a number"))?),
                "vdepth" => vdepth = Some(v.parse().map_err(|_| num("a count of plies"))?),
                "pimc" => pimc_share = Some(v.parse().map_err(|_| num("a share of the time"))?),
                "prior" => prior_cp = Some(v.parse().map_err(|_| num("a number of centipawns"))?),
                "vmix" => vmix = Some(v.parse().map_err(|_| num("a weight"))?),
                "device" => device = v.parse().map_err(|e| format!("net: {e}"))?,
                "reuse" => {
                    reuse = match v {
                        "1" | "true" | "on" => true,
                        "0" | "false" | "off" => false,
                        _ => return Err(num("0 or 1")),
                    }
                }
                "layouts" => layouts = Some(LayoutMixture::load(std::path::Path::new(v)).map_err(|e| format!("net: layouts={v:?}: {e}"))?),
                _ => {
                    return Err(format!(
                        "net: unknown parameter {k:?} (known: checkpoint, zoo, zoo_dir, sims (or nodes), ms, batch, cpuct, mix, vdepth, pimc, prior, vmix, device, layouts, reuse)"
                    ))
                }
            }
        }
        let source = match (path, zoo_name) {
            (None, None) => return Err("net: needs checkpoint=PATH (a run directory, step-N.json or step-N.safetensors) or zoo=NAME (a published net)".into()),
            (Some(_), Some(_)) => return Err("net: checkpoint= and zoo= exclude each other".into()),
            (Some(p), None) => {
                if zoo_dir.is_some() {
                    return Err("net: zoo_dir= goes with zoo=NAME".into());
                }
                NetSource::Checkpoint(p)
            }
            (None, Some(name)) => NetSource::Zoo { name, dir: zoo_dir },
        };
        if sims == Some(0) {
            return Err("net: sims must be positive".into());
        }
        if ms == Some(0) {
            return Err("net: ms must be positive".into());
        }
        if batch == 0 {
            return Err("net: batch must be positive".into());
        }
        let hybrid = match (pimc_share, prior_cp) {
            (None, None) if vmix.is_some() => return Err("net: vmix= goes with pimc=SHARE".into()),
            (None, None) => None,
            (None, Some(_)) => return Err("net: prior= goes with pimc=SHARE".into()),
            (Some(f), p) => {
                if !(f > 0.0 && f <= 1.0) {
                    return Err(format!("net: pimc={f} is not a share of the time in (0, 1]"));
                }
                let d = HybridRoot::default();
                let prior_cp = p.unwrap_or(d.prior_cp);
                if !(prior_cp >= 0.0 && prior_cp.is_finite()) {
                    return Err(format!("net: prior={prior_cp} is not a non-negative number of centipawns"));
                }
                let value_weight = vmix.unwrap_or(d.value_weight);
                if !(value_weight >= 0.0 && value_weight.is_finite()) {
                    return Err(format!("net: vmix={value_weight} is not a non-negative weight"));
                }
                Some(HybridRoot { share: f, prior_cp, value_weight, ..d })
            }
        };
        Ok(NetSpec { source, sims, ms, batch, cpuct, mix, vdepth, hybrid, device, layouts, reuse })
    }

    /// The wall clock per decision (`ms=`), if given.
    pub fn movetime(&self) -> Option<Duration> {
        self.ms.map(Duration::from_millis)
    }

    /// The metadata of the checkpoint or published net, without its weights: the game it was
    /// trained for (`variant`) and its encoding.
    ///
    /// # Errors
    /// A missing or unreadable checkpoint or published net, as text.
    pub fn meta(&self) -> Result<CheckpointMeta, String> {
        match &self.source {
            NetSource::Checkpoint(p) => checkpoint::resolve(p).and_then(|json| checkpoint::read_meta(&json)).map_err(|e| e.to_string()),
            NetSource::Zoo { name, dir } => {
                let dir = dir.clone().unwrap_or_else(zoo::default_dir);
                zoo::resolve(&dir, name).map(|e| e.meta.checkpoint).map_err(|e| format!("net: zoo={name}: {e}"))
            }
        }
    }

    /// Loads the net for `encoding` (a net of another encoding is refused, naming both) on the
    /// spec's device: the net, its metadata, and where it came from (the checkpoint's JSON, or
    /// `zoo:NAME-HASH12`).
    ///
    /// # Errors
    /// The device, or a checkpoint or published net that fails to load or is of another
    /// encoding, as text.
    pub fn load(&self, encoding: &Encoding) -> Result<(Net, CheckpointMeta, String), String> {
        let dev = self.device.resolve().map_err(|e| format!("net: {e}"))?;
        match &self.source {
            NetSource::Zoo { name: q, dir } => {
                let dir = dir.clone().unwrap_or_else(zoo::default_dir);
                let (net, e) = zoo::load_for(&dir, q, dev, Expect::default(), encoding).map_err(|e| format!("net: zoo={q}: {e}"))?;
                encoding.check_same(net.encoding()).map_err(|m| format!("net: zoo={q}: {m}"))?;
                Ok((net, e.meta.checkpoint, format!("zoo:{}", e.stem)))
            }
            NetSource::Checkpoint(path) => {
                let (net, meta, json) = checkpoint::load_for(path, dev, Expect::default(), encoding).map_err(|e| e.to_string())?;
                Ok((net, meta, json.display().to_string()))
            }
        }
    }

    /// The search the bot plays with: the checkpoint's training search (its leaf mixing,
    /// exploration and contempt) unless the spec says otherwise, the spec's batch, simulations
    /// (64 without `ms`, else the cap given or none) and tree reuse, no root noise.
    ///
    /// # Errors
    /// A `mix=` outside [0, 1], as text.
    pub fn search(&self, meta: &CheckpointMeta) -> Result<SearchConfig, String> {
        let mut search = SearchConfig::with_simulations(64);
        search.batch = self.batch;
        search.reuse_tree = self.reuse;
        search.simulations = self.sims.unwrap_or(if self.ms.is_some() { u32::MAX } else { 64 });
        if let Some(trained) = meta.config.get("search").and_then(|v| serde_json::from_value::<SearchConfig>(v.clone()).ok()) {
            search.c_puct = trained.c_puct;
            search.draw_contempt = trained.draw_contempt;
            search.value_mix = trained.value_mix;
            search.value_depth = trained.value_depth;
            search.value_scale_cp = trained.value_scale_cp;
        }
        if let Some(c) = self.cpuct {
            search.c_puct = c;
        }
        if let Some(m) = self.mix {
            if !(0.0..=1.0).contains(&m) {
                return Err(format!("net: mix={m} is not in [0, 1]"));
            }
            search.value_mix = m;
        }
        if let Some(d) = self.vdepth {
            search.value_depth = d;
        }
        Ok(search)
    }

    /// The bot's name: `net:GAME@SOURCE` and the settings that differ from a plain spec.
    pub fn name(&self, game: &str, source: &str, search: &SearchConfig) -> String {
        let mut name = format!("net:{game}@{source}");
        if let Some(n) = self.sims.or(self.ms.is_none().then_some(search.simulations)) {
            name += &format!(",sims={n}");
        }
        if let Some(t) = self.ms {
            name += &format!(",ms={t}");
        }
        name += &format!(",batch={}", search.batch);
        if search.value_mix > 0.0 {
            name += &format!(",mix={},vdepth={}", search.value_mix, search.value_depth);
        }
        if let Some(h) = self.hybrid {
            name += &format!(",pimc={},prior={}", h.share, h.prior_cp);
            if h.value_weight > 0.0 {
                name += &format!(",vmix={}", h.value_weight);
            }
        }
        if self.layouts.is_some() {
            name += ",layouts";
        }
        if !search.reuse_tree {
            name += ",reuse=0";
        }
        name
    }
}
