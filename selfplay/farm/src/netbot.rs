//! The `net:checkpoint=PATH[,sims=N][,cpuct=X][,device=D]` bot: the farm's net-guided PUCT
//! IS-MCTS playing a trained checkpoint, for `anqi play`, `analyse`, tournaments and experiments.
//! It lives here, with torch, rather than in `selfplay::bots`: the `anqi-torch` helper registers
//! [`from_params`] with `selfplay::bots::set_net_factory`, and `anqi` hands every command that
//! names a `net:` bot to that helper.

use crate::search::{Search, SearchConfig};
use engine::search::{Bot, Decision};
use engine::variant::Action;
use models::checkpoint::{self, Expect};
use models::device::DeviceSpec;
use models::net::Net;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::path::PathBuf;

/// A checkpoint's net behind the farm's search, one evaluation at a time.
pub struct NetBot {
    net: Net,
    search: SearchConfig,
    rng: Pcg64Mcg,
    name: String,
}

impl NetBot {
    /// A bot playing `net` with `search` (no root noise, most visited action).
    pub fn new(net: Net, search: SearchConfig, seed: u64, name: String) -> NetBot {
        NetBot { net, search, rng: Pcg64Mcg::seed_from_u64(seed), name }
    }

    /// Builds from `checkpoint=PATH,sims=N,cpuct=X,device=D` (a bare part is the checkpoint).
    ///
    /// # Errors
    /// An unknown or malformed parameter, a missing checkpoint, or a checkpoint that fails to
    /// load, as text.
    pub fn from_params(params: &str, seed: u64) -> Result<NetBot, String> {
        let mut path: Option<PathBuf> = None;
        let mut search = SearchConfig::with_simulations(64);
        let mut device = DeviceSpec::Cpu;
        for part in params.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').unwrap_or(("checkpoint", part));
            let num = |what: &str| format!("net: {k}={v:?} is not {what}");
            match k {
                "checkpoint" | "ckpt" => path = Some(PathBuf::from(v)),
                "sims" | "simulations" | "nodes" => search.simulations = v.parse().map_err(|_| num("a count"))?,
                "cpuct" => search.c_puct = v.parse().map_err(|_| num("a number"))?,
                "device" => device = v.parse().map_err(|e| format!("net: {e}"))?,
                _ => return Err(format!("net: unknown parameter {k:?} (known: checkpoint, sims (or nodes), cpuct, device)")),
            }
        }
        let path = path.ok_or("net: needs checkpoint=PATH (a run directory, step-N.json or step-N.safetensors)")?;
        if search.simulations == 0 {
            return Err("net: sims must be positive".into());
        }
        let dev = device.resolve().map_err(|e| format!("net: {e}"))?;
        let (net, meta, json) = checkpoint::load(&path, dev, Expect::default()).map_err(|e| e.to_string())?;
        let name = format!("net:{}@{},sims={}", meta.variant, json.display(), search.simulations);
        Ok(NetBot::new(net, search, seed, name))
    }
}

impl Bot for NetBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, d: &Decision) -> Action {
        let mut s = Search::new(d.view(), d.legal_actions(), &self.search, false, d.record());
        while s.advance(&mut self.rng) {
            let (obs, legal) = s.request();
            let ev = self.net.evaluate(obs, &[legal]);
            let priors = ev.priors(0).to_vec();
            s.deliver(&priors, ev.value(0), &mut self.rng);
        }
        s.choose(0.0, &mut self.rng)
    }
}

/// [`NetBot::from_params`] boxed as a bot: the factory for `selfplay::bots::set_net_factory`
/// (`params` is the spec after `net:`).
///
/// # Errors
/// As [`NetBot::from_params`].
pub fn from_params(params: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    Ok(Box::new(NetBot::from_params(params, seed)?))
}
