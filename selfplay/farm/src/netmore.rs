//! The `net:` bot in the RULES-more games (#17 item 3): a trained checkpoint (or published net)
//! of a RULES-more preset playing through the farm's generic search ([`Search`] over
//! [`Generic`]) as an `engine::search::game_bot::GameBot`, so that `anqi play`, tournaments and the
//! ladder seat it wherever they seat `greedy` or `expectimax`.
//!
//! The spec is the variants' (`net:checkpoint=PATH[,sims=N][,ms=N][,batch=N][,cpuct=X]
//! [,reuse=0|1][,device=D]`, or `zoo=NAME[,zoo_dir=DIR]`; [`crate::netspec`]) less what only the
//! variants' search has: `layouts=` (Surprise layouts), `pimc=`/`prior=` (the PIMC root of
//! variant positions) and `mix=`/`vdepth=` (the expectimax leaf value of variant positions) are
//! refused.
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
//! `selfplay::bots::set_game_net_factory`. The factory reads which game the checkpoint was trained
//! for and loads it with that game's encoding ([`NetBuilt`], no game type); [`NetBuilt::into_bot`]
//! seats it at a game of any type and refuses a game of another encoding.

use crate::netspec::NetSpec;
use crate::search::{Generic, Search, SearchConfig};
use engine::game::Action;
use engine::search::game_bot::GameBot;
use engine::more::presets::{with_game, Playable, WithGame};
use crate::netcounters::{NetCounted, NetCounters};
use engine::observe::Encoding;
use models::net::Net;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::time::{Duration, Instant};

/// A checkpoint's net behind the generic search, playing a RULES-more game `G`.
pub struct GameNetBot<G: Playable> {
    net: Net,
    search: SearchConfig,
    movetime: Option<Duration>,
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
        GameNetBot { net, search, movetime, rng: Pcg64Mcg::seed_from_u64(seed), name, game, last: None, counters: NetCounters::default() }
    }

    /// Builds the bot of `params` (the spec after `net:`) for games like `game` (a state of the
    /// game it will play: its encoding must be the checkpoint's).
    ///
    /// # Errors
    /// The spec's error ([`NetSpec::parse`]); a variant-only parameter; a checkpoint that fails to
    /// load or was trained for another encoding (naming both), as text.
    pub fn from_params(params: &str, seed: u64, game: &G) -> Result<GameNetBot<G>, String> {
        let b = NetBuilt::load(params, seed, game.info().name, &game.encoding())?;
        Ok(GameNetBot::new(b.net, b.search, b.movetime, b.seed, b.label, b.game))
    }

    /// The game the net was trained for.
    pub fn trained_for(&self) -> &str {
        &self.game
    }

    /// The encoding of the net.
    pub fn encoding(&self) -> &Encoding {
        self.net.encoding()
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
    /// handed a state of another preset of the same game type; [`factory`] refuses other game
    /// types when the bot is built), naming both games.
    fn check_game(&self, g: &G) -> Result<(), String> {
        self.net.encoding().check_same(&g.encoding()).map_err(|e| format!("net bot trained for {:?} cannot play {:?}: {e}", self.game, g.info().name))
    }

    /// # Panics
    /// When `g` is of another encoding than the net, naming both games; callers that build the
    /// bot with the game in hand (`selfplay::bots::game_bot_for`: tournaments,
    /// `anqi play`) get that as an error before the game starts.
    fn choose(&mut self, g: &G) -> Action {
        if let Err(e) = GameBot::<G>::check_game(self, g) {
            panic!("{e}");
        }
        let start = Instant::now();
        let prev = self.last.take();
        let mut s = match Search::reuse_generic(prev, g.clone(), g.in_setup(), &self.search, false, &mut self.rng) {
            Ok(s) => s,
            // The contract hands bots player turns only.
            Err(e) => panic!("net bot asked to move where no player acts: {e}"),
        };
        s.set_deadline(self.movetime.map(|t| start + t));
        self.counters.search(&self.net, &mut s, &mut self.rng);
        let a = s.choose(0.0, &mut self.rng);
        self.counters.decided(&s);
        if self.search.reuse_tree {
            self.last = Some(s);
        }
        a
    }
}

/// A `net:` bot as [`factory`] loads it, before it is seated at a game: the checkpoint's net,
/// its search and the bot's seed and name, for any game of the checkpoint's observation
/// encoding. It has no game type: [`NetBuilt::into_bot`] seats it at a game of any type and
/// checks that game's encoding against the net's.
pub struct NetBuilt {
    /// The game (preset name) the checkpoint was trained for.
    pub game: String,
    net: Net,
    search: SearchConfig,
    movetime: Option<Duration>,
    seed: u64,
    label: String,
}

impl NetBuilt {
    /// A bot of `net` (trained for `game`) searching with `search`, for `movetime` of wall clock
    /// per decision when given, seeded with `seed`, named `label`.
    pub fn new(net: Net, search: SearchConfig, movetime: Option<Duration>, seed: u64, label: String, game: String) -> NetBuilt {
        NetBuilt { game, net, search, movetime, seed, label }
    }

    /// Loads the bot of `params` (the spec after `net:`) for games of `encoding` (the game
    /// named `name` in errors).
    ///
    /// # Errors
    /// The spec's error ([`NetSpec::parse`]); a variant-only parameter; a checkpoint that fails
    /// to load or was trained for another encoding (naming both), as text.
    pub fn load(params: &str, seed: u64, name: &str, encoding: &Encoding) -> Result<NetBuilt, String> {
        let spec = NetSpec::parse(params)?;
        if spec.layouts.is_some() {
            return Err(format!("net: layouts= (Surprise layout mixtures) is for the variants, not {name:?}"));
        }
        if spec.hybrid.is_some() {
            return Err(format!("net: pimc=/prior= (the PIMC root of variant positions) is for the variants, not {name:?}"));
        }
        if spec.mix.is_some() || spec.vdepth.is_some() {
            return Err(format!("net: mix=/vdepth= (the expectimax leaf value of variant positions) is for the variants, not {name:?}"));
        }
        let (net, meta, source) = spec.load(encoding).map_err(|e| format!("{e} (checkpoint trained for {:?}, asked to play {name:?})", spec.meta().map(|m| m.variant).unwrap_or_default()))?;
        let search = spec.search(&meta)?;
        let label = spec.name(&meta.variant, &source, &search);
        Ok(NetBuilt::new(net, search, spec.movetime(), seed, label, meta.variant))
    }

    /// The bot seated at games like `g`.
    ///
    /// # Errors
    /// `g`'s observation encoding is not the net's (a checkpoint of another game, or of another
    /// preset of the same game), naming the checkpoint's game and `g`'s.
    pub fn into_bot<G: Playable>(self, g: &G) -> Result<Box<dyn GameBot<G>>, String> {
        let bot = GameNetBot::<G>::new(self.net, self.search, self.movetime, self.seed, self.label, self.game);
        bot.check_game(g)?;
        Ok(Box::new(bot))
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

/// The factory of the RULES-more games' `net:` bots (registered by `anqi-torch` with
/// `selfplay::bots::set_game_net_factory`; the farm calls it through [`bot_from_spec`]):
/// reads which game the checkpoint (or published net) of `params` was trained for and loads it
/// with that game's encoding, to be seated at a game by [`NetBuilt::into_bot`].
///
/// # Errors
/// The spec's or the checkpoint's error; a checkpoint trained for a variant or an unknown game
/// (not a RULES-more preset), naming it.
pub fn factory(params: &str, seed: u64) -> Result<NetBuilt, String> {
    let game = NetSpec::parse(params)?.meta()?.variant;
    struct Enc;
    impl WithGame for Enc {
        type Output = Encoding;
        fn run<G: Playable>(self, g: G) -> Encoding {
            g.encoding()
        }
    }
    let encoding = with_game(&game, None, Enc).map_err(|e| format!("net: the checkpoint was trained for {game:?}, which is not a RULES-more game ({e})"))?;
    NetBuilt::load(params, seed, &game, &encoding)
}
