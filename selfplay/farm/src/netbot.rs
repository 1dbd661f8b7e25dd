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
//! It lives here, with torch, rather than in `selfplay::bots`: the farm's one net factory
//! (`crate::netmore::factory`, which the `anqi-torch` helper registers with
//! `selfplay::bots::set_net_factory`) builds it for a variant's checkpoint, and `anqi` hands
//! every command that names a `net:` bot to that helper.

use crate::hybrid::{self, HybridRoot};
use crate::netcounters::{NetCounted, NetCounters};
use crate::netspec::NetSpec;
use crate::search::{LayoutMixture, Search, SearchConfig};
use engine::search::GameBot;
use engine::variant::game_state::{encode, VariantGameState};
use engine::variant::{Action, View};
use models::net::Net;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::time::{Duration, Instant};

pub use crate::netspec::DEFAULT_BATCH;

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
    /// The last decision's search, kept for the next ([`Search::reuse`]).
    last: Option<Search>,
    /// What the bot counted over its decisions ([`NetCounted`]).
    counters: NetCounters,
    /// The PIMC root, if `pimc=` was given ([`crate::hybrid`]).
    hybrid: Option<HybridRoot>,
    /// The variant the checkpoint was trained for ([`GameBot::check_game`]).
    variant: Option<String>,
}

impl NetBot {
    /// A bot playing `net` with `search` (no root noise, most visited action).
    pub fn new(net: Net, search: SearchConfig, seed: u64, name: String) -> NetBot {
        NetBot { net, search, movetime: None, layouts: None, rng: Pcg64Mcg::seed_from_u64(seed), name, last: None, counters: NetCounters::default(), hybrid: None, variant: None }
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

    /// Records the variant the net was trained for ([`GameBot::check_game`] refuses others).
    pub fn trained_for_variant(mut self, variant: String) -> NetBot {
        self.variant = Some(variant);
        self
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
        let spec = NetSpec::parse(params)?;
        // The net plays through the search, so it must be of the search's encoding.
        let (net, meta, source) = spec.load(&crate::search::encoding())?;
        let search = spec.search(&meta)?;
        let name = spec.name(&meta.variant, &source, &search);
        let movetime = spec.movetime();
        let (layouts, hybrid) = (spec.layouts, spec.hybrid);
        Ok(NetBot::new(net, search, seed, name).with_movetime(movetime).with_layouts(layouts).with_hybrid(hybrid).trained_for_variant(meta.variant.clone()))
    }
}

impl NetCounted for NetBot {
    fn counters(&self) -> &NetCounters {
        &self.counters
    }
}

/// The net bot at a game of the RULES.md variants: it searches from the mover's view with the
/// game's record, and refuses a game of another variant than its checkpoint's before the game
/// starts ([`GameBot::check_game`]).
impl GameBot<VariantGameState> for NetBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn check_game(&self, g: &VariantGameState) -> Result<(), String> {
        let here = &g.state().variant().name;
        match &self.variant {
            Some(t) if t != here => Err(format!("{} was trained for variant {t:?}, not {here:?}; its net cannot play this game", self.name)),
            _ => Ok(()),
        }
    }

    fn choose(&mut self, g: &VariantGameState) -> engine::game::Action {
        encode(self.choose_variant(g))
    }
}

impl NetBot {
    /// [`GameBot::choose`] in the variants' typed actions.
    pub fn choose_variant(&mut self, g: &VariantGameState) -> Action {
        // The tree of the last decision, if the record since leads into it (Search::reuse).
        let prev = self.last.take();
        let start = Instant::now();
        let state = g.state();
        let view = View::new(state, state.turn());
        let mut s = Search::reuse(prev, view, state.legal_actions(), &self.search, false, g.record(), &mut self.rng);
        // With a PIMC root the net's search gets the first `1 - share` of the time (at least the
        // root's evaluation); PIMC the rest.
        let hybrid = self.hybrid.filter(|_| !s.is_setup());
        let net_time = |t: Duration| match hybrid {
            Some(h) => t.mul_f64(1.0 - h.share),
            None => t,
        };
        s.set_deadline(self.movetime.map(|t| start + net_time(t)));
        s.set_layout_mixture(self.layouts.as_ref());
        self.counters.search(&self.net, &mut s, &mut self.rng);
        let mut a = s.choose(0.0, &mut self.rng);
        if let Some(h) = hybrid {
            // With a time budget, PIMC draws determinizations until it is spent; without one, a
            // fixed number after the net's `sims` simulations (`vmix=`: the net's root values first).
            let deadline = self.movetime.map(|t| start + t);
            if let Some(b) = hybrid::choose(&self.net, g, &s.root_policy(), &h, deadline, rand::Rng::random(&mut self.rng)) {
                a = b;
            }
        }
        self.counters.decided(&s);
        if self.search.reuse_tree {
            self.last = Some(s);
        }
        a
    }
}
