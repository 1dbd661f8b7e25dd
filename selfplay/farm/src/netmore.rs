//! The `net:` bot of every game: a trained checkpoint (or published net) playing through the
//! farm's search ([`Search`] over [`Generic`]) as an `engine::search::game_bot::GameBot`, so
//! that `anqi play`, `analyse`, tournaments, the ladder and experiments seat it wherever they
//! seat `greedy` or `expectimax` — the RULES.md variants (through
//! `engine::variant::game_state::VariantGameState`) and the RULES-more games alike.
//!
//! The spec (`net:checkpoint=PATH[,sims=N][,ms=N][,batch=N][,cpuct=X][,mix=X][,vdepth=N]
//! [,pimc=F[,prior=C][,vmix=W]][,layouts=PATH][,reuse=0|1][,device=D]`, or `zoo=NAME[,zoo_dir=DIR]`
//! in place of `checkpoint=`) is parsed by [`crate::netspec`]. `sims` counts simulations (net
//! evaluations and end positions); `ms` searches for that many milliseconds of wall clock per
//! decision (then `sims` is a cap, unlimited unless given), which is how a tournament's `ms=`
//! budget plays it at equal time against the classical bots; `batch` leaves go to the net per
//! call (virtual loss, [`SearchConfig::batch`]). `mix`/`vdepth` set the leaf value mixing
//! ([`SearchConfig::value_mix`]: the game's expectimax, `Scored::leaf_searcher`; default: the
//! checkpoint's training search). `pimc=F[,prior=C]` gives the last share `F` of each decision's
//! time (`ms`) to a PIMC root (without `ms`: eight determinizations after the `sims` simulations)
//! and plays PIMC's centipawns plus `C` (default 40) cp per nat of the net's search distribution
//! ([`crate::hybrid`]). `layouts=PATH` reads a solved Surprise layout mixture (the saved output of
//! `anqi solve layouts`, [`crate::search::LayoutMixture`]) for the secret layout choice of a
//! RULES.md variant; without it, set-up decisions are drawn from the net's policy over the
//! set-up actions (`search/setup.rs`). `reuse=0` searches every decision afresh instead of
//! keeping the subtree of the line played since the bot's last decision
//! ([`SearchConfig::reuse_tree`], on by default).
//!
//! The bot sees what the rules show its player: it searches determinizations drawn by
//! [`engine::game::Game::sample_determinization`] for the player to act, asks the net about the
//! player's [`engine::observe::Observe`] observations, keys its tree by the player's
//! information-set key, and keeps the tree between its decisions ([`Search::reuse_generic`]).
//! The end of the game, repetitions included, is the game's own (`Turn::Terminal` of the state it
//! is handed, which carries the game's record).
//!
//! The engine builds every bot but this one (it never links libtorch). The farm builds it
//! directly ([`bot_from_spec`]); `anqi`'s library, which must not call into libtorch, reaches
//! [`factory`] through the one function the `anqi-torch` helper registers with
//! `selfplay::bots::set_net_factory`. The factory, the one builder of `net:` bots for every game,
//! reads which game the checkpoint was trained for and loads its net with that game's encoding
//! ([`NetBuilt`], no game type); [`NetBuilt::into_bot`] seats it at a game of any type and
//! refuses a game of another encoding.

use crate::hybrid::{self, HybridRoot};
use crate::netspec::NetSpec;
use crate::search::{Generic, LayoutMixture, Search, SearchConfig};
use engine::game::Action;
use engine::search::game_bot::GameBot;
use engine::search::{ActionStat, GameAnalysis};
use engine::any_game::AnyGame;
use engine::more::presets::Playable;
use crate::netcounters::{NetCounted, NetCounters};
use engine::observe::Encoding;
use models::net::Net;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::time::{Duration, Instant};

/// A checkpoint's net behind the farm's search, playing a game `G`.
pub struct GameNetBot<G: Playable> {
    net: Net,
    search: SearchConfig,
    movetime: Option<Duration>,
    /// The PIMC root, if `pimc=` was given ([`crate::hybrid`]).
    hybrid: Option<HybridRoot>,
    /// A solved Surprise layout mixture for the variants' set-up decisions, if given.
    layouts: Option<LayoutMixture>,
    rng: Pcg64Mcg,
    name: String,
    /// The game (preset) the net was trained for.
    game: String,
    /// The last decision's search, kept for the next ([`Search::reuse_generic`]).
    last: Option<Search<Generic<G>>>,
    /// What the bot counted over its decisions ([`NetCounted`]).
    counters: NetCounters,
}

impl<G: Playable> GameNetBot<G> {
    /// A bot playing `net` (trained for `game`) with `search` (no root noise, most visited
    /// action), searching each decision for `movetime` of wall clock when given (the simulation
    /// count is then a cap).
    pub fn new(net: Net, search: SearchConfig, movetime: Option<Duration>, seed: u64, name: String, game: String) -> GameNetBot<G> {
        GameNetBot { net, search, movetime, hybrid: None, layouts: None, rng: Pcg64Mcg::seed_from_u64(seed), name, game, last: None, counters: NetCounters::default() }
    }

    /// Chooses each move with a PIMC root ([`crate::hybrid`]), which takes the last share of
    /// the decision's time (`movetime`), or a fixed number of determinizations without one.
    pub fn with_hybrid(mut self, hybrid: Option<HybridRoot>) -> GameNetBot<G> {
        self.hybrid = hybrid;
        self
    }

    /// Draws the variants' secret Surprise layouts from `layouts` instead of the net's policy
    /// ([`LayoutMixture::weights`]; ignored at every other decision).
    pub fn with_layouts(mut self, layouts: Option<LayoutMixture>) -> GameNetBot<G> {
        self.layouts = layouts;
        self
    }

    /// Builds the bot of `params` (the spec after `net:`) for games like `game` (a state of the
    /// game it will play: its encoding must be the checkpoint's).
    ///
    /// # Errors
    /// The spec's error ([`NetSpec::parse`]); a variant-only parameter; a checkpoint that fails to
    /// load or was trained for another encoding (naming both), as text.
    pub fn from_params(params: &str, seed: u64, game: &G) -> Result<GameNetBot<G>, String> {
        NetBuilt::load(params, seed, game.info().name, &game.encoding())?.seat(game)
    }

    /// The game the net was trained for.
    pub fn trained_for(&self) -> &str {
        &self.game
    }

    /// The encoding of the net.
    pub fn encoding(&self) -> &Encoding {
        self.net.encoding()
    }

    /// [`GameBot::choose`] after [`GameBot::check_game`]: the net's search from the player's
    /// information set (its earlier tree where the line leads into it), set-up decisions drawn
    /// from the layout mixture or the net's priors, then the PIMC root where asked for.
    fn decide(&mut self, g: &G) -> Action {
        self.decide_reporting(g, |_| ())
    }

    /// [`GameNetBot::decide`], handing `report` the finished search before the tree is kept or
    /// dropped (for [`GameBot::analyse`]).
    fn decide_reporting(&mut self, g: &G, mut report: impl FnMut(&Search<Generic<G>>)) -> Action {
        let start = Instant::now();
        let prev = self.last.take();
        let setup = crate::search::is_setup(g);
        let mut s = match Search::reuse_generic(prev, g.clone(), setup, &self.search, false, &mut self.rng) {
            Ok(s) => s,
            // The contract hands bots player turns only.
            Err(e) => panic!("net bot asked to move where no player acts: {e}"),
        };
        if let (Some(m), Some(p)) = (&self.layouts, g.turn().player()) {
            s.set_setup_weights(m.weights(g, p, &g.legal_actions()));
        }
        // With a PIMC root the net's search gets the first `1 - share` of the time (at least the
        // root's evaluation); PIMC the rest.
        let hybrid = self.hybrid.filter(|_| !s.is_setup());
        let net_time = |t: Duration| match hybrid {
            Some(h) => t.mul_f64(1.0 - h.share),
            None => t,
        };
        s.set_deadline(self.movetime.map(|t| start + net_time(t)));
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
        report(&s);
        if self.search.reuse_tree {
            self.last = Some(s);
        }
        a
    }
}

impl<G: Playable> NetCounted for GameNetBot<G> {
    fn counters(&self) -> &NetCounters {
        &self.counters
    }
}

impl<G: Playable> GameBot<G> for GameNetBot<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    /// Refuses a game of another observation encoding than the net's (a checkpoint of one preset
    /// handed a state of another preset of the same game type, or of another game), and a
    /// RULES.md variant other than the checkpoint's (the variants share one encoding), naming
    /// both games.
    fn check_game(&self, g: &G) -> Result<(), String> {
        self.net.encoding().check_same(&g.encoding()).map_err(|e| format!("net bot trained for {:?} cannot play {:?}: {e}", self.game, g.info().name))?;
        // The RULES.md variants share one encoding: their name decides.
        match g.as_variant().map(|v| &v.state().variant().name) {
            Some(here) if *here != self.game => Err(format!("{} was trained for variant {:?}, not {here:?}; its net cannot play this game", self.name, self.game)),
            _ => Ok(()),
        }
    }

    /// # Panics
    /// When `g` is of another encoding than the net, naming both games; callers that build the
    /// bot with the game in hand (`selfplay::bots::game_bot_for`: tournaments,
    /// `anqi play`) get that as an error before the game starts.
    fn choose(&mut self, g: &G) -> Action {
        if let Err(e) = GameBot::<G>::check_game(self, g) {
            panic!("{e}");
        }
        self.decide(g)
    }

    /// The root of the net's search: each legal action's share of the root visits, its mean
    /// value for the deciding player in [-1, 1] (0 where unvisited) and its visits, most visited
    /// first (ties by value, then prior); work = this decision's simulations. The action played
    /// is [`GameBot::choose`]'s (with a PIMC root, PIMC's pick, which may not head the list).
    ///
    /// # Panics
    /// As [`GameBot::choose`].
    fn analyse(&mut self, g: &G) -> GameAnalysis {
        if let Err(e) = GameBot::<G>::check_game(self, g) {
            panic!("{e}");
        }
        let start = Instant::now();
        let mut root = Vec::new();
        let mut sims = 0;
        let best = self.decide_reporting(g, |s| {
            root = s.root_policy();
            sims = s.simulations();
        });
        let total: u32 = root.iter().map(|r| r.2).sum();
        root.sort_by(|a, b| b.2.cmp(&a.2).then(b.3.unwrap_or(0.0).total_cmp(&a.3.unwrap_or(0.0))).then(b.1.total_cmp(&a.1)));
        let stats = root
            .into_iter()
            .map(|(action, _prior, n, q)| ActionStat { action, share: if total > 0 { f64::from(n) / f64::from(total) } else { 0.0 }, score: f64::from(q.unwrap_or(0.0)), visits: u64::from(n) })
            .collect();
        GameAnalysis { best, stats, score_unit: "value", work: u64::from(sims), work_unit: "simulations", nodes: 0, elapsed_ms: start.elapsed().as_secs_f64() * 1e3 }
    }
}

/// A `net:` bot as [`factory`] loads it, before it is seated at a game: the checkpoint's net
/// (of the encoding of the game it was trained for), its search, the spec's PIMC root and layout
/// mixture, and the bot's seed and name. It has no game type: [`NetBuilt::into_bot`] seats it at
/// a game of any type and checks that game against the net's.
pub struct NetBuilt {
    /// The game (preset name) the checkpoint was trained for.
    pub game: String,
    net: Net,
    search: SearchConfig,
    movetime: Option<Duration>,
    hybrid: Option<HybridRoot>,
    layouts: Option<LayoutMixture>,
    seed: u64,
    label: String,
}

impl NetBuilt {
    /// A bot of `net` (trained for `game`) searching with `search`, for `movetime` of wall clock
    /// per decision when given, seeded with `seed`, named `label` (no PIMC root, no layout
    /// mixture).
    pub fn new(net: Net, search: SearchConfig, movetime: Option<Duration>, seed: u64, label: String, game: String) -> NetBuilt {
        NetBuilt { game, net, search, movetime, hybrid: None, layouts: None, seed, label }
    }

    /// Loads the bot of `params` (the spec after `net:`) for games of `encoding` (the game
    /// named `name` in errors).
    ///
    /// # Errors
    /// The spec's error ([`NetSpec::parse`], [`NetSpec::search`]); a checkpoint that fails to
    /// load or was trained for another encoding (naming both), as text.
    pub fn load(params: &str, seed: u64, name: &str, encoding: &Encoding) -> Result<NetBuilt, String> {
        let spec = NetSpec::parse(params)?;
        let (net, meta, source) = spec.load(encoding).map_err(|e| format!("{e} (checkpoint trained for {:?}, asked to play {name:?})", spec.meta().map(|m| m.variant).unwrap_or_default()))?;
        let search = spec.search(&meta)?;
        let label = spec.name(&meta.variant, &source, &search);
        let movetime = spec.movetime();
        Ok(NetBuilt { game: meta.variant, net, search, movetime, hybrid: spec.hybrid, layouts: spec.layouts, seed, label })
    }

    /// The bot seated at games like `g`, as its own type.
    ///
    /// # Errors
    /// `g` is of another observation encoding than the net's (a checkpoint of another game, or of
    /// another preset of the same game), naming the checkpoint's game and `g`'s; a layout mixture
    /// (`layouts=`) for a game that is no RULES.md variant.
    pub fn seat<G: Playable>(self, g: &G) -> Result<GameNetBot<G>, String> {
        if self.layouts.is_some() && g.as_variant().is_none() {
            return Err(format!("net: layouts= (Surprise layout mixtures) is for the RULES.md variants, not {:?}", g.info().name));
        }
        let bot = GameNetBot::<G>::new(self.net, self.search, self.movetime, self.seed, self.label, self.game).with_hybrid(self.hybrid).with_layouts(self.layouts);
        bot.check_game(g)?;
        Ok(bot)
    }

    /// [`NetBuilt::seat`], boxed as any bot of `G`.
    ///
    /// # Errors
    /// As [`NetBuilt::seat`].
    pub fn into_bot<G: Playable>(self, g: &G) -> Result<Box<dyn GameBot<G>>, String> {
        Ok(Box::new(self.seat(g)?))
    }
}

/// The farm's bot of `spec` seated at games like `g`: `net:…` through [`factory`], any other spec
/// by the engine's registry (`engine::search::game_bot::from_spec_for`).
///
/// # Errors
/// The spec's error; a checkpoint of another game ([`NetBuilt::into_bot`]).
pub fn bot_from_spec<G: Playable>(spec: &str, seed: u64, g: &G) -> Result<Box<dyn GameBot<G>>, String> {
    let trimmed = spec.trim();
    if trimmed == "net" || trimmed.starts_with("net:") {
        return factory(trimmed.strip_prefix("net:").unwrap_or(""), seed)?.into_bot(g);
    }
    engine::search::game_bot::from_spec_for::<G>(spec, seed, g)
}

/// The one factory of `net:` bots (registered by `anqi-torch` with
/// `selfplay::bots::set_net_factory`; the farm calls it through [`bot_from_spec`]): reads which
/// game the checkpoint (or published net) of `params` was trained for (resolved as every game
/// name is, `engine::any_game::AnyGame::resolve`) and loads its net with that game's encoding
/// (`AnyGame::encoding`), to be seated at a game by [`NetBuilt::into_bot`].
///
/// # Errors
/// The spec's or the checkpoint's error; a checkpoint trained for an unknown game, naming it.
pub fn factory(params: &str, seed: u64) -> Result<NetBuilt, String> {
    let game = NetSpec::parse(params)?.meta()?.variant;
    let any = AnyGame::resolve(&game).map_err(|e| format!("net: the checkpoint was trained for {game:?}, which is no game here ({e})"))?;
    let encoding = any.encoding().map_err(|e| format!("net: the checkpoint's game {game:?}: {e}"))?;
    NetBuilt::load(params, seed, &game, &encoding)
}
