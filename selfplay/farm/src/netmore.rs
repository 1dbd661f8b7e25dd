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
//! for and builds the bot for that game's type inside `engine::more::presets::with_game`;
//! [`NetBuilt::into_bot`] refuses it for a game of another type.

use crate::netspec::NetSpec;
use crate::search::{Generic, Search, SearchConfig};
use engine::game::Action;
use engine::search::game_bot::GameBot;
use engine::search::Scored;
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
        let spec = NetSpec::parse(params)?;
        let name = game.info().name;
        if spec.layouts.is_some() {
            return Err(format!("net: layouts= (Surprise layout mixtures) is for the variants, not {name:?}"));
        }
        if spec.hybrid.is_some() {
            return Err(format!("net: pimc=/prior= (the PIMC root of variant positions) is for the variants, not {name:?}"));
        }
        if spec.mix.is_some() || spec.vdepth.is_some() {
            return Err(format!("net: mix=/vdepth= (the expectimax leaf value of variant positions) is for the variants, not {name:?}"));
        }
        let (net, meta, source) = spec.load(&game.encoding()).map_err(|e| format!("{e} (checkpoint trained for {:?}, asked to play {name:?})", spec.meta().map(|m| m.variant).unwrap_or_default()))?;
        let search = spec.search(&meta)?;
        let label = spec.name(&meta.variant, &source, &search);
        Ok(GameNetBot::new(net, search, spec.movetime(), seed, label, meta.variant))
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

/// A `net:` bot as [`factory`] built it, its game type erased.
pub struct NetBuilt {
    /// The game (preset name) the checkpoint was trained for.
    pub game: String,
    /// A `Box<dyn GameBot<H>>` for that game's type `H`, as `Any`.
    pub bot: Box<dyn std::any::Any + Send>,
}

impl NetBuilt {
    /// The bot as a bot of game type `G`.
    ///
    /// # Errors
    /// The checkpoint was trained for a game of another type than `G`, naming the checkpoint's
    /// game and `G`.
    pub fn into_bot<G: Scored>(self) -> Result<Box<dyn GameBot<G>>, String> {
        match self.bot.downcast::<Box<dyn GameBot<G>>>() {
            Ok(b) => Ok(*b),
            Err(_) => Err(format!(
                "net: the checkpoint was trained for {:?}, a game of another kind than this one ({}); its net cannot play this game",
                self.game,
                short_type::<G>()
            )),
        }
    }
}

/// The last path segment of a type's name (`MissileGame`, `Open<…>` kept whole past its `<`).
fn short_type<G>() -> &'static str {
    let full = std::any::type_name::<G>();
    let head = full.split('<').next().unwrap_or(full);
    let cut = head.rfind("::").map_or(0, |i| i + 2);
    &full[cut..]
}

/// The farm's bot of `spec` for a game of type `G`: `net:…` through [`factory`], any other spec
/// by the engine's registry (`engine::search::game_bot::from_spec`).
///
/// # Errors
/// The spec's error; a checkpoint of a game of another type ([`NetBuilt::into_bot`]).
pub fn bot_from_spec<G: Playable>(spec: &str, seed: u64) -> Result<Box<dyn GameBot<G>>, String> {
    let trimmed = spec.trim();
    if trimmed == "net" || trimmed.starts_with("net:") {
        return factory(trimmed.strip_prefix("net:").unwrap_or(""), seed)?.into_bot::<G>();
    }
    engine::search::game_bot::from_spec::<G>(spec, seed)
}

/// The factory of the RULES-more games' `net:` bots (registered by `anqi-torch` with
/// `selfplay::bots::set_game_net_factory`; the farm calls it through [`bot_from_spec`]):
/// reads which game the checkpoint (or published net) of `params` was trained for and builds a
/// [`GameNetBot`] of that game's type (as `Box<dyn GameBot<_>>`, erased) with `seed`.
///
/// # Errors
/// The spec's or the checkpoint's error; a checkpoint trained for a variant or an unknown game
/// (not a RULES-more preset), naming it.
pub fn factory(params: &str, seed: u64) -> Result<NetBuilt, String> {
    let game = NetSpec::parse(params)?.meta()?.variant;
    struct Build<'a>(&'a str, u64);
    impl WithGame for Build<'_> {
        type Output = Result<Box<dyn std::any::Any + Send>, String>;
        fn run<G: Playable>(self, g: G) -> Self::Output {
            let bot: Box<dyn GameBot<G>> = Box::new(GameNetBot::from_params(self.0, self.1, &g)?);
            Ok(Box::new(bot))
        }
    }
    let bot = with_game(&game, None, Build(params, seed)).map_err(|e| format!("net: the checkpoint was trained for {game:?}, which is not a RULES-more game ({e})"))??;
    Ok(NetBuilt { game, bot })
}

#[cfg(test)]
mod tests {
    #[test]
    fn type_names_are_shortened() {
        assert_eq!(super::short_type::<engine::more::missile::MissileGame>(), "MissileGame");
        assert_eq!(super::short_type::<Vec<u8>>(), "Vec<u8>");
    }
}
