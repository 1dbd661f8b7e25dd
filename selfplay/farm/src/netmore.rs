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
//! `selfplay::bots::set_net_factory`. The factory, the one builder of `net:` bots for every game,
//! reads which game the checkpoint was trained for and loads it for that game ([`NetBuilt`], no
//! game type: the variants' [`NetBot`] for a RULES.md variant's checkpoint, else the net with that
//! game's encoding); [`NetBuilt::into_bot`] seats it at a game of any type and refuses another
//! game.

use crate::netspec::NetSpec;
use crate::search::{Generic, Search, SearchConfig};
use engine::game::Action;
use engine::search::game_bot::GameBot;
use crate::netbot::NetBot;
use engine::any_game::AnyGame;
use engine::more::presets::{GameFamily, Playable};
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
        match NetBuilt::load(params, seed, game.info().name, &game.encoding())? {
            NetBuilt { game, built: Built::Generic { net, search, movetime, seed, label } } => Ok(GameNetBot::new(net, search, movetime, seed, label, game)),
            NetBuilt { game, .. } => Err(format!("net bot trained for the variant {game:?} is not a bot of the generic search")),
        }
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

/// A `net:` bot as [`factory`] loads it, before it is seated at a game: for a RULES.md variant's
/// checkpoint the variants' net bot ([`NetBot`], their search with its PIMC root and layout
/// mixtures); for any other game the checkpoint's net, its search and the bot's seed and name,
/// for any game of the checkpoint's observation encoding. It has no game type:
/// [`NetBuilt::into_bot`] seats it at a game of any type and checks that game against the net's.
pub struct NetBuilt {
    /// The game (preset name) the checkpoint was trained for.
    pub game: String,
    built: Built,
}

/// What [`NetBuilt`] holds for each kind of checkpoint.
enum Built {
    /// A RULES.md variant's net bot.
    Variant(Box<NetBot>),
    /// Any other game's net, to be seated as a [`GameNetBot`].
    Generic { net: Net, search: SearchConfig, movetime: Option<Duration>, seed: u64, label: String },
}

/// Bots for a game, as a [`GameFamily`] ([`Playable::from_variant`]).
struct Bots;
impl GameFamily for Bots {
    type Of<G: Playable> = Box<dyn GameBot<G>>;
}

impl NetBuilt {
    /// A bot of `net` (trained for `game`, not a RULES.md variant) searching with `search`, for
    /// `movetime` of wall clock per decision when given, seeded with `seed`, named `label`.
    pub fn new(net: Net, search: SearchConfig, movetime: Option<Duration>, seed: u64, label: String, game: String) -> NetBuilt {
        NetBuilt { game, built: Built::Generic { net, search, movetime, seed, label } }
    }

    /// The variants' net bot `bot`, trained for the variant `game`.
    pub fn variant(bot: NetBot, game: String) -> NetBuilt {
        NetBuilt { game, built: Built::Variant(Box::new(bot)) }
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

    /// The bot seated at games like `g`: a variant's net bot at a game of that variant (found by
    /// [`Playable::as_variant`], handed back as `G`'s bot by [`Playable::from_variant`]), any
    /// other net as a [`GameNetBot`].
    ///
    /// # Errors
    /// `g` is another game than the net's: another variant, not a variant at all, or a game of
    /// another observation encoding (a checkpoint of another game, or of another preset of the
    /// same game), naming the checkpoint's game and `g`'s.
    pub fn into_bot<G: Playable>(self, g: &G) -> Result<Box<dyn GameBot<G>>, String> {
        match self.built {
            Built::Variant(bot) => {
                let Some(v) = g.as_variant() else {
                    return Err(format!("net bot trained for the variant {:?} cannot play {:?}, which is not a RULES.md variant", self.game, g.info().name));
                };
                bot.check_game(v)?;
                G::from_variant::<Bots>(bot).ok_or_else(|| "this game's as_variant and from_variant hooks disagree".to_string())
            }
            Built::Generic { net, search, movetime, seed, label } => {
                let bot = GameNetBot::<G>::new(net, search, movetime, seed, label, self.game);
                bot.check_game(g)?;
                Ok(Box::new(bot))
            }
        }
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
/// name is, `engine::any_game::AnyGame::resolve`) and loads it for that game — a RULES.md
/// variant's as the variants' [`NetBot`] ([`NetBot::from_params`]), any other with that game's
/// encoding —, to be seated at a game by [`NetBuilt::into_bot`].
///
/// # Errors
/// The spec's or the checkpoint's error; a checkpoint trained for an unknown game, naming it.
pub fn factory(params: &str, seed: u64) -> Result<NetBuilt, String> {
    let game = NetSpec::parse(params)?.meta()?.variant;
    let any = AnyGame::resolve(&game).map_err(|e| format!("net: the checkpoint was trained for {game:?}, which is no game here ({e})"))?;
    if any.variant().is_some() {
        return Ok(NetBuilt::variant(NetBot::from_params(params, seed)?, game));
    }
    let encoding = any.encoding().map_err(|e| format!("net: the checkpoint's game {game:?}: {e}"))?;
    NetBuilt::load(params, seed, &game, &encoding)
}
