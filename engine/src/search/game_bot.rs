//! Bots written against the [`crate::game::Game`] trait only ([`GameBot`]), so that every
//! [`Scored`] game (the RULES-more.md games, the RULES.md variants as
//! [`VariantGameState`], the test games) is played by the same code without special cases, and
//! their builder [`from_spec`], which reads the specs of the one registry ([`super::registry`]):
//! `random` and `greedy` ([`RandomBot`], [`GreedyBot`]: the variants' own), `alphabeta` (the one
//! alpha-beta of [`super::alphabeta`], [`Scored::alphabeta_bot`]: on the variants' core position
//! for the variants, else on the full state through its copy-make adapter; a cheating oracle
//! under hidden set-ups, as the variant `alphabeta` is), `ismcts` (the one information-set MCTS,
//! [`super::ismcts`], Cowling, Powley and Whitehouse 2012), `expectimax` and `oracle` (the one
//! expectimax, [`super::expectimax`]) and `pimc` (perfect information Monte Carlo, Long et al.
//! 2010: that expectimax by default, or the one alpha-beta, on determinizations drawn by
//! [`crate::game::Game::sample_determinization`]; [`super::pimc`]).

use crate::game::Action;
use crate::search::alphabeta::GameAlphaBetaBot;
use crate::search::expectimax::{ExpectimaxConfig, GameExpectimaxBot};
use crate::search::ismcts::{GameIsmctsBot, IsmctsConfig};
use crate::search::pimc::{GamePimcBot, Inner, PimcConfig};
use crate::search::registry::{unknown_bot, BotSpec};
use crate::search::{GameAnalysis, GreedyBot, RandomBot, Scored};

/// A move chooser over any [`Scored`] game, handed the full game state: it reads only what the
/// acting player may know (its determinizations are drawn from that player's information; the
/// `alphabeta` and `oracle` searchers are cheating oracles by name). Deterministic given its seed
/// unless given a time budget.
pub trait GameBot<G: Scored>: Send {
    /// Name for records.
    fn name(&self) -> String;
    /// One of `g.legal_actions()` (non-empty).
    fn choose(&mut self, g: &G) -> Action;
    /// Whether this bot can play the game of `g` (checked before a game starts, so that a bot
    /// built for one preset is refused for another of the same Rust type with an error rather
    /// than failing at its first move). The default accepts every game: only trained bots
    /// (`net:`, whose net has one observation encoding) refuse some.
    ///
    /// # Errors
    /// Why the bot cannot play `g`, as text naming both games.
    fn check_game(&self, _g: &G) -> Result<(), String> {
        Ok(())
    }
    /// Chooses as [`GameBot::choose`] and reports the distribution behind the choice (visit
    /// shares, scores; `anqi analyse`, the farm's teacher targets). The default reports the
    /// chosen action alone ([`crate::search::Analysis::chosen`]).
    fn analyse(&mut self, g: &G) -> GameAnalysis {
        let start = std::time::Instant::now();
        let a = self.choose(g);
        GameAnalysis::chosen(a, start)
    }
}

/// [`from_spec`] for the game of `g`: the bot is built and then checked against the game
/// ([`GameBot::check_game`]).
///
/// # Errors
/// As [`from_spec`]; a bot that cannot play this game (a `net:` checkpoint of another encoding).
pub fn from_spec_for<G: Scored>(spec: &str, seed: u64, g: &G) -> Result<Box<dyn GameBot<G>>, String> {
    let bot = from_spec::<G>(spec, seed)?;
    bot.check_game(g)?;
    Ok(bot)
}

/// The one IS-MCTS ([`crate::search::ismcts`], Cowling, Powley and Whitehouse 2012) on any
/// [`Scored`] game.
impl<G: Scored> GameBot<G> for GameIsmctsBot {
    fn name(&self) -> String {
        GameIsmctsBot::name(self)
    }
    fn choose(&mut self, g: &G) -> Action {
        GameIsmctsBot::choose(self, g)
    }
    fn analyse(&mut self, g: &G) -> GameAnalysis {
        GameIsmctsBot::analyse_game(self, g)
    }
}

/// The one expectimax ([`crate::search::expectimax`], Ballard 1983) on any [`Scored`] game.
impl<G: Scored> GameBot<G> for GameExpectimaxBot {
    fn name(&self) -> String {
        GameExpectimaxBot::name(self)
    }
    fn choose(&mut self, g: &G) -> Action {
        GameExpectimaxBot::choose(self, g)
    }
    fn analyse(&mut self, g: &G) -> GameAnalysis {
        GameExpectimaxBot::analyse(self, g)
    }
}

/// The variants' `random` bot, on any [`Scored`] game: the same type and code.
impl<G: Scored> GameBot<G> for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }
    fn choose(&mut self, g: &G) -> Action {
        self.pick(&g.legal_actions())
    }
}

/// The variants' `greedy` bot on any [`Scored`] game, scoring actions by [`Scored::gain_cp`].
impl<G: Scored> GameBot<G> for GreedyBot {
    fn name(&self) -> String {
        "greedy".into()
    }
    fn choose(&mut self, g: &G) -> Action {
        self.pick(&g.legal_actions(), |&a| g.gain_cp(a))
    }
}

/// The one alpha-beta ([`crate::search::alphabeta`]) on any [`Scored`] game, through the
/// copy-make adapter [`crate::search::alphabeta::GameNode`].
impl<G: Scored> GameBot<G> for GameAlphaBetaBot<G> {
    fn name(&self) -> String {
        GameAlphaBetaBot::name(self)
    }
    fn choose(&mut self, g: &G) -> Action {
        GameAlphaBetaBot::choose(self, g)
    }
}

/// The one PIMC with the alpha-beta inner search ([`crate::search::pimc`]) on any [`Scored`] game.
impl<G: Scored> GameBot<G> for GamePimcBot<G> {
    fn name(&self) -> String {
        GamePimcBot::name(self)
    }
    fn choose(&mut self, g: &G) -> Action {
        GamePimcBot::choose(self, g)
    }
    fn analyse(&mut self, g: &G) -> GameAnalysis {
        GamePimcBot::analyse(self, g)
    }
}

/// Why this crate refuses a `net:` spec ([`from_spec`]): the net bot is built above it, by the
/// torch-linked helper.
pub const NET_NEEDS_TORCH: &str = "net: bots need libtorch, which only the anqi-torch helper links (anqi runs it for commands naming a net: bot)";

/// Builds a bot of any [`Scored`] game from a spec of the one registry
/// ([`crate::search::BOTS`], parsed by [`BotSpec::parse`]; each bot's parameters by its own
/// parser, so one spec means the same bot in a variant and in a preset):
///
/// - a game may play a spec by its own implementation of the bot ([`Scored::own_bot`]: the
///   RULES.md variants' `expectimax`, `oracle`, `pimc` and `ismcts`,
///   [`crate::search::registry::variant_bot`]); it is asked first;
/// - every other bot by its builder in the registry's list ([`crate::search::build_bot`]): the
///   builders below, and each further bot's own;
/// - not `net:…`: a trained net needs libtorch, which this crate never links; the bot
///   registry of the torch-linked processes (`selfplay::bots::game_bot_for`, and the farm's
///   `farm::netmore::bot_from_spec`) builds it and hands every other spec here;
/// - a path ending in `.toml` whose `[bot]` table names the bot.
///
/// # Errors
/// The unknown bot ([`unknown_bot`]) or parameter, as text.
pub fn from_spec<G: Scored>(spec: &str, seed: u64) -> Result<Box<dyn GameBot<G>>, String> {
    let trimmed = spec.trim();
    if trimmed == "net" || trimmed.starts_with("net:") {
        return Err(NET_NEEDS_TORCH.into());
    }
    let s = BotSpec::parse(spec)?;
    if let Some(own) = G::own_bot(&s, seed) {
        return own;
    }
    crate::search::build_bot::<G>(&s, seed).unwrap_or_else(|| Err(unknown_bot(spec)))
}

/// The registry's `random` ([`RandomBot`]; no parameters).
///
/// # Errors
/// Any parameter.
pub fn build_random<G: Scored>(spec: &BotSpec, seed: u64) -> Result<Box<dyn GameBot<G>>, String> {
    spec.no_params().map(|_| Box::new(RandomBot::new(seed)) as Box<dyn GameBot<G>>)
}

/// The registry's `greedy` ([`GreedyBot`]; no parameters).
///
/// # Errors
/// Any parameter.
pub fn build_greedy<G: Scored>(spec: &BotSpec, seed: u64) -> Result<Box<dyn GameBot<G>>, String> {
    spec.no_params().map(|_| Box::new(GreedyBot::new(seed)) as Box<dyn GameBot<G>>)
}

/// The registry's `alphabeta[:depth=N,nodes=N,ms=N,hash=N]` (default depth 4 when no limit is
/// given; [`Scored::alphabeta_bot`]).
///
/// # Errors
/// A bad parameter ([`crate::search::alphabeta::parse_limits`]).
pub fn build_alphabeta<G: Scored>(spec: &BotSpec, _seed: u64) -> Result<Box<dyn GameBot<G>>, String> {
    let (limits, hash) = crate::search::alphabeta::parse_limits(&spec.params, 4)?;
    Ok(G::alphabeta_bot(limits, hash))
}

/// The registry's `pimc[:k=N,ms=N,search=SPEC]` ([`PimcConfig::from_params`]): the expectimax
/// averaged over `k` determinizations ([`GameExpectimaxBot::pimc`], the default of the
/// RULES-more.md games), or the alpha-beta on each ([`GamePimcBot`]; `search=alphabeta:...` or
/// the plain `depth=N,nodes=N,hash=N`; the default of the RULES.md variants,
/// [`Scored::pimc_config`]), or UCT on each (`search=mcts:...`, [`GamePimcBot::mcts`]);
/// `ties=random` draws among the level best ([`PimcConfig::random_ties`]). (The RULES.md
/// variants play their own PIMC, [`crate::search::pimc::PimcBot`], through [`Scored::own_bot`].)
///
/// # Errors
/// A bad parameter.
pub fn build_pimc<G: Scored>(spec: &BotSpec, seed: u64) -> Result<Box<dyn GameBot<G>>, String> {
    let c = G::pimc_config(PimcConfig::from_params(&spec.params)?);
    let ties = c.random_ties;
    match c.inner {
        Inner::Expectimax(ref e) => Ok(Box::new(GameExpectimaxBot::pimc(e.clone(), c.k, c.ms, seed).with_random_ties(ties))),
        Inner::AlphaBeta(ref limits) => Ok(Box::new(GamePimcBot::<G>::new(c.k, c.ms, limits.clone(), c.hash_mb, seed).with_random_ties(ties))),
        Inner::Mcts(ref m) => Ok(Box::new(GamePimcBot::<G>::mcts(c.k, c.ms, m.clone(), c.inner_spec().to_string(), seed).with_random_ties(ties))),
    }
}

/// The registry's `ismcts[:iterations=N,ms=N,c=X,mode=so|mo,rollout=N,scale=X,horizon=N]`
/// ([`IsmctsConfig::from_params`]; `ms`: milliseconds per move).
///
/// # Errors
/// A bad parameter.
pub fn build_ismcts<G: Scored>(spec: &BotSpec, seed: u64) -> Result<Box<dyn GameBot<G>>, String> {
    Ok(Box::new(GameIsmctsBot::new(IsmctsConfig::from_params(&spec.params)?, seed)))
}

/// The registry's `expectimax[:depth=N,qdepth=N,nodes=N,ms=N,samples=N]`
/// ([`ExpectimaxConfig::from_params`]: the one expectimax on `samples` determinizations).
///
/// # Errors
/// A bad parameter.
pub fn build_expectimax<G: Scored>(spec: &BotSpec, seed: u64) -> Result<Box<dyn GameBot<G>>, String> {
    Ok(Box::new(GameExpectimaxBot::new(ExpectimaxConfig::from_params(&spec.params)?, seed)))
}

/// The registry's `oracle[:depth=N,...]`: the expectimax on the full state, a cheating oracle.
///
/// # Errors
/// A bad parameter.
pub fn build_oracle<G: Scored>(spec: &BotSpec, seed: u64) -> Result<Box<dyn GameBot<G>>, String> {
    Ok(Box::new(GameExpectimaxBot::oracle(ExpectimaxConfig::from_params(&spec.params)?, seed)))
}

/// The variants' typed action that `bot` chooses in `g` ([`GameBot::choose`], decoded by
/// [`crate::variant::game_state::decode`]): for callers that play the variants by their typed
/// actions (the arena, tools, tests).
///
/// # Panics
/// If the bot answers with a chance outcome, which no bot of the contract does (it chooses one
/// of `g.legal_actions()`, at a decision).
pub fn choose_variant(bot: &mut dyn GameBot<crate::variant::game_state::VariantGameState>, g: &crate::variant::game_state::VariantGameState) -> crate::variant::Action {
    crate::variant::game_state::decode(bot.choose(g)).expect("a bot chooses a player action at a decision")
}

/// [`GameBot::analyse`] in the variants' typed actions (decoded as in [`choose_variant`]).
///
/// # Panics
/// As [`choose_variant`].
pub fn analyse_variant(bot: &mut dyn GameBot<crate::variant::game_state::VariantGameState>, g: &crate::variant::game_state::VariantGameState) -> crate::search::Analysis {
    bot.analyse(g).map(|a| crate::variant::game_state::decode(a).expect("a bot analyses player actions at a decision"))
}
