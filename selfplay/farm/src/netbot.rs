//! The `net:checkpoint=PATH[,sims=N][,ms=N][,batch=N][,cpuct=X][,mix=X][,vdepth=N][,device=D]` bot: the farm's
//! net-guided PUCT IS-MCTS playing a trained checkpoint, for `anqi play`, `analyse`, tournaments
//! and experiments. `zoo=NAME` instead of `checkpoint=` plays a published net (`models::zoo`:
//! the newest published under NAME, or an exact `NAME-HASH12`), from `zoo_dir=DIR` or else
//! [`models::zoo::default_dir`] (`$ANQI_ZOO`, else `models/zoo`). `sims` counts simulations
//! (net evaluations and end positions); `ms` searches for that many milliseconds of wall clock
//! per decision (then `sims` is a cap, unlimited unless given), which is how a tournament's
//! `ms=` budget plays it at equal time against the classical bots; `batch` leaves go to the net
//! per call (virtual loss, [`SearchConfig::batch`]).
//! `pimc=F[,prior=C]` gives the last share `F` of each decision's time (`ms`) to a PIMC root
//! (without `ms`: eight determinizations after the `sims` simulations) and plays PIMC's
//! centipawns plus `C` (default 40) cp per nat of the net's search distribution
//! ([`crate::hybrid`]).
//! `mix`/`vdepth` set the leaf value mixing ([`SearchConfig::value_mix`]; default: the
//! checkpoint's training search). `layouts=PATH` reads a solved Surprise layout mixture (the saved output of `anqi solve
//! `reuse=0` searches every decision afresh instead of keeping the subtree of the line played
//! since the bot's last decision ([`SearchConfig::reuse_tree`], on by default).
//! layouts`, [`LayoutMixture`]) for its secret layout choice; without it, set-up decisions are
//! drawn from the net's policy over the set-up actions (`search/setup.rs`).
//! It lives here, with torch, rather than in `selfplay::bots`: the `anqi-torch` helper registers
//! [`from_params`] with `selfplay::bots::set_net_factory`, and `anqi` hands every command that
//! names a `net:` bot to that helper.

use crate::hybrid::{self, HybridRoot};
use crate::search::{LayoutMixture, Search, SearchConfig};
use engine::search::{Bot, Decision};
use engine::variant::Action;
use models::checkpoint::{self, Expect};
use models::device::DeviceSpec;
use models::net::Net;
use models::zoo;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Leaves per net call of the `net:` bot unless `batch=` says otherwise.
pub const DEFAULT_BATCH: u32 = 8;

/// A checkpoint's net behind the farm's search, one evaluation at a time.
pub struct NetBot {
    net: Net,
    search: SearchConfig,
    /// Wall-clock budget per decision, if any.
    movetime: Option<Duration>,
    /// Solved layout mixture for Surprise set-up decisions, if given.
    layouts: Option<LayoutMixture>,
    rng: Pcg64Mcg,
    name: String,
    evals: u64,
    /// The last decision's search, kept for the next ([`Search::reuse`]).
    last: Option<Search>,
    /// Decisions searched, and the sum of their roots' final visits.
    decisions: u64,
    root_visits: u64,
    /// Decisions whose root was taken over from the previous tree, and the visits they kept.
    reused: u64,
    reused_visits: u64,
    /// The PIMC root, if `pimc=` was given ([`crate::hybrid`]).
    hybrid: Option<HybridRoot>,
    /// The variant the checkpoint was trained for ([`Bot::trained_for`]).
    variant: Option<String>,
}

impl NetBot {
    /// A bot playing `net` with `search` (no root noise, most visited action).
    pub fn new(net: Net, search: SearchConfig, seed: u64, name: String) -> NetBot {
        NetBot { net, search, movetime: None, layouts: None, rng: Pcg64Mcg::seed_from_u64(seed), name, evals: 0, last: None, decisions: 0, root_visits: 0, reused: 0, reused_visits: 0, hybrid: None, variant: None }
    }

    /// Searches each decision for `movetime` of wall clock (the simulation count becomes a cap).
    pub fn with_movetime(mut self, movetime: Option<Duration>) -> NetBot {
        self.movetime = movetime;
        self
    }

    /// Draws Surprise layouts from `layouts` instead of the net's policy.
    pub fn with_layouts(mut self, layouts: Option<LayoutMixture>) -> NetBot {
        self.layouts = layouts;
        self
    }

    /// Chooses each move with a PIMC root ([`crate::hybrid`]); needs a time budget
    /// ([`NetBot::with_movetime`]) to split.
    pub fn with_hybrid(mut self, hybrid: Option<HybridRoot>) -> NetBot {
        self.hybrid = hybrid;
        self
    }

    /// Records the variant the net was trained for ([`Bot::trained_for`]).
    pub fn trained_for_variant(mut self, variant: String) -> NetBot {
        self.variant = Some(variant);
        self
    }

    /// Positions evaluated by the net so far (over every decision).
    pub fn evaluations(&self) -> u64 {
        self.evals
    }

    /// Decisions made so far.
    pub fn decisions(&self) -> u64 {
        self.decisions
    }

    /// Decisions whose search took over the previous decision's tree ([`Search::reuse`]).
    pub fn reused_decisions(&self) -> u64 {
        self.reused
    }

    /// The sum over the decisions so far of the visits their roots kept from the previous tree
    /// (included in [`NetBot::root_visits`]).
    pub fn reused_visits(&self) -> u64 {
        self.reused_visits
    }

    /// The sum over the decisions so far of the root's visits when the move was chosen (with
    /// tree reuse, visits kept from the previous decision included).
    pub fn root_visits(&self) -> u64 {
        self.root_visits
    }

    /// Builds from `checkpoint=PATH,sims=N,ms=N,batch=N,cpuct=X,mix=X,vdepth=N,device=D,layouts=PATH`
    /// (a bare part is the checkpoint), or `zoo=NAME[,zoo_dir=DIR]` (a published net) in place of
    /// `checkpoint=`. The exploration constant, draw contempt and leaf value
    /// mixing ([`SearchConfig::value_mix`], `mix`/`vdepth`) default to the checkpoint's training
    /// search. Without `ms`, `sims` defaults to 64; with `ms` it is a cap, unlimited unless
    /// given. `batch` defaults to [`DEFAULT_BATCH`], `reuse` to 1 (keep the tree between decisions).
    ///
    /// # Errors
    /// An unknown or malformed parameter (named in the text), a missing checkpoint, or a
    /// checkpoint or published net that fails to load, as text.
    pub fn from_params(params: &str, seed: u64) -> Result<NetBot, String> {
        let mut path: Option<PathBuf> = None;
        let mut zoo_name: Option<String> = None;
        let mut zoo_dir: Option<PathBuf> = None;
        let mut search = SearchConfig::with_simulations(64);
        search.batch = DEFAULT_BATCH;
        let mut sims: Option<u32> = None;
        let mut ms: Option<u64> = None;
        let mut device = DeviceSpec::Cpu;
        let mut layouts = None;
        let (mut mix, mut vdepth, mut cpuct): (Option<f32>, Option<u32>, Option<f32>) = (None, None, None);
        let (mut pimc_share, mut prior_cp): (Option<f64>, Option<f64>) = (None, None);
        for part in params.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').unwrap_or(("checkpoint", part));
            let num = |what: &str| format!("net: {k}={v:?} is not {what}");
            match k {
                "checkpoint" | "ckpt" => path = Some(PathBuf::from(v)),
                "zoo" => zoo_name = Some(v.to_owned()),
                "zoo_dir" => zoo_dir = Some(PathBuf::from(v)),
                "sims" | "simulations" | "nodes" => sims = Some(v.parse().map_err(|_| num("a count"))?),
                "ms" | "movetime" => ms = Some(v.parse().map_err(|_| num("a count of milliseconds"))?),
                "batch" => search.batch = v.parse().map_err(|_| num("a count"))?,
                "cpuct" => cpuct = Some(v.parse().map_err(|_| num("a number"))?),
                "mix" => mix = Some(v.parse().map_err(|_| num("a number"))?),
                "vdepth" => vdepth = Some(v.parse().map_err(|_| num("a count of plies"))?),
                "pimc" => pimc_share = Some(v.parse().map_err(|_| num("a share of the time"))?),
                "prior" => prior_cp = Some(v.parse().map_err(|_| num("a number of centipawns"))?),
                "device" => device = v.parse().map_err(|e| format!("net: {e}"))?,
                "reuse" => {
                    search.reuse_tree = match v {
                        "1" | "true" | "on" => true,
                        "0" | "false" | "off" => false,
                        _ => return Err(num("0 or 1")),
                    }
                }
                "layouts" => layouts = Some(LayoutMixture::load(std::path::Path::new(v)).map_err(|e| format!("net: layouts={v:?}: {e}"))?),
                _ => {
                    return Err(format!(
                        "net: unknown parameter {k:?} (known: checkpoint, zoo, zoo_dir, sims (or nodes), ms, batch, cpuct, mix, vdepth, pimc, prior, device, layouts, reuse)"
                    ))
                }
            }
        }
        if path.is_none() && zoo_name.is_none() {
            return Err("net: needs checkpoint=PATH (a run directory, step-N.json or step-N.safetensors) or zoo=NAME (a published net)".into());
        }
        if path.is_some() && zoo_name.is_some() {
            return Err("net: checkpoint= and zoo= exclude each other".into());
        }
        if zoo_dir.is_some() && zoo_name.is_none() {
            return Err("net: zoo_dir= goes with zoo=NAME".into());
        }
        if sims == Some(0) {
            return Err("net: sims must be positive".into());
        }
        if ms == Some(0) {
            return Err("net: ms must be positive".into());
        }
        if search.batch == 0 {
            return Err("net: batch must be positive".into());
        }
        let hybrid = match (pimc_share, prior_cp) {
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
                Some(HybridRoot { share: f, prior_cp, ..d })
            }
        };
        search.simulations = sims.unwrap_or(if ms.is_some() { u32::MAX } else { 64 });
        let dev = device.resolve().map_err(|e| format!("net: {e}"))?;
        // The net plays through the search, so it must be of the search's encoding.
        let encoding = crate::search::encoding();
        let (net, meta, source) = match (path, zoo_name) {
            (_, Some(q)) => {
                let dir = zoo_dir.unwrap_or_else(zoo::default_dir);
                let (net, e) = zoo::load(&dir, &q, dev, Expect::default()).map_err(|e| format!("net: zoo={q}: {e}"))?;
                encoding.check_same(net.encoding()).map_err(|m| format!("net: zoo={q}: {m}"))?;
                (net, e.meta.checkpoint, format!("zoo:{}", e.stem))
            }
            (path, None) => {
                let path = path.unwrap_or_default();
                let (net, meta, json) = checkpoint::load_for(&path, dev, Expect::default(), &encoding).map_err(|e| e.to_string())?;
                (net, meta, json.display().to_string())
            }
        };
        // The search the net was trained with: its leaf mixing, exploration and contempt, unless
        // the spec says otherwise.
        if let Some(trained) = meta.config.get("search").and_then(|v| serde_json::from_value::<SearchConfig>(v.clone()).ok()) {
            search.c_puct = trained.c_puct;
            search.draw_contempt = trained.draw_contempt;
            search.value_mix = trained.value_mix;
            search.value_depth = trained.value_depth;
            search.value_scale_cp = trained.value_scale_cp;
        }
        if let Some(c) = cpuct {
            search.c_puct = c;
        }
        if let Some(m) = mix {
            if !(0.0..=1.0).contains(&m) {
                return Err(format!("net: mix={m} is not in [0, 1]"));
            }
            search.value_mix = m;
        }
        if let Some(d) = vdepth {
            search.value_depth = d;
        }
        let mut name = format!("net:{}@{source}", meta.variant);
        if let Some(n) = sims.or(ms.is_none().then_some(search.simulations)) {
            name += &format!(",sims={n}");
        }
        if let Some(t) = ms {
            name += &format!(",ms={t}");
        }
        name += &format!(",batch={}", search.batch);
        if search.value_mix > 0.0 {
            name += &format!(",mix={},vdepth={}", search.value_mix, search.value_depth);
        }
        if let Some(h) = hybrid {
            name += &format!(",pimc={},prior={}", h.share, h.prior_cp);
        }
        if layouts.is_some() {
            name += ",layouts";
        }
        if !search.reuse_tree {
            name += ",reuse=0";
        }
        Ok(NetBot::new(net, search, seed, name).with_movetime(ms.map(Duration::from_millis)).with_layouts(layouts).with_hybrid(hybrid).trained_for_variant(meta.variant.clone()))
    }
}

impl Bot for NetBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn trained_for(&self) -> Option<String> {
        self.variant.clone()
    }

    fn choose(&mut self, d: &Decision) -> Action {
        // The tree of the last decision, if the record since leads into it (Search::reuse).
        let prev = self.last.take();
        let start = Instant::now();
        let mut s = Search::reuse(prev, d.view(), d.legal_actions(), &self.search, false, d.record(), &mut self.rng);
        // With a PIMC root the net's search gets the first `1 - share` of the time (at least the
        // root's evaluation); PIMC the rest.
        let hybrid = self.hybrid.filter(|_| !s.is_setup());
        let net_time = |t: Duration| match hybrid {
            Some(h) => t.mul_f64(1.0 - h.share),
            None => t,
        };
        s.set_deadline(self.movetime.map(|t| start + net_time(t)));
        s.set_layout_mixture(self.layouts.as_ref());
        while s.advance(&mut self.rng) {
            self.evals += s.requests() as u64;
            let ev = self.net.evaluate(s.request_obs(), &s.request_slots());
            for i in 0..s.requests() {
                let priors = ev.priors(i).to_vec();
                s.deliver(i, &priors, ev.value(i), &mut self.rng);
            }
        }
        let mut a = s.choose(0.0, &mut self.rng);
        if let Some(h) = hybrid {
            // With a time budget, PIMC draws determinizations until it is spent; without one, a
            // fixed number after the net's `sims` simulations.
            let left = self.movetime.map(|t| t.saturating_sub(start.elapsed()).as_millis() as u64);
            let k = if left.is_some() { h.k } else { HybridRoot::UNTIMED_K };
            let pimc = hybrid::pimc_scores(d, left, k, rand::Rng::random(&mut self.rng));
            if let Some(b) = hybrid::combine(&s.root_policy(), &pimc, h.prior_cp) {
                a = b;
            }
        }
        self.decisions += 1;
        self.root_visits += u64::from(s.root_visits());
        self.reused += u64::from(s.is_reused());
        self.reused_visits += u64::from(s.reused_visits());
        if self.search.reuse_tree {
            self.last = Some(s);
        }
        a
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
