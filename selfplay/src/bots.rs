//! Bot specs for `anqi play`, `analyse`, tournaments and experiments: everything
//! `engine::search::from_spec` knows, plus
//! `net:checkpoint=PATH[,sims=N][,ms=N][,batch=N][,cpuct=X][,device=D][,layouts=PATH]`,
//! the net-guided PUCT IS-MCTS of the self-play farm playing a trained checkpoint.
//!
//! The `net:` bot needs libtorch, which `anqi` must not call into (so that it starts without
//! it): the torch-linked `anqi-torch` helper, the one binary above this library, registers the
//! farm's builders here — [`set_net_factory`] (`farm::netbot::from_params`, the RULES.md
//! variants) and [`set_game_net_factory`] (`farm::netmore::factory`, the RULES-more games,
//! [`game_bot_for`]) — and `anqi` hands every command naming a `net:` bot ([`is_net_spec`]) to
//! that helper. The engine's registry knows every other bot and refuses `net:`; dependencies
//! point one way (engine ← models ← farm ← selfplay).

use engine::search::game_bot::GameBot;
use engine::more::presets::Playable;
use engine::search::Bot;
use std::sync::OnceLock;

/// Builds a `net:` bot from the spec's parameters (the text after `net:`) and a seed.
pub type NetFactory = fn(&str, u64) -> Result<Box<dyn Bot>, String>;

static NET_FACTORY: OnceLock<NetFactory> = OnceLock::new();

/// Registers the builder of `net:` bots for this process (once; torch-linked binaries only).
///
/// # Errors
/// A factory was already registered (it is kept; the one given is returned).
pub fn set_net_factory(factory: NetFactory) -> Result<(), NetFactory> {
    NET_FACTORY.set(factory)
}

/// Loads a RULES-more game's `net:` bot (`farm::netmore::factory`), to be seated at a game by
/// `farm::netmore::NetBuilt::into_bot`.
///
/// # Errors
/// The problem with the parameters or the checkpoint, as text.
pub type GameNetFactory = fn(&str, u64) -> Result<farm::netmore::NetBuilt, String>;

static GAME_NET_FACTORY: OnceLock<GameNetFactory> = OnceLock::new();

/// Registers the builder of the RULES-more games' `net:` bots for this process (once;
/// torch-linked binaries only).
///
/// # Errors
/// A factory was already registered (it is kept; the one given is returned).
pub fn set_game_net_factory(factory: GameNetFactory) -> Result<(), GameNetFactory> {
    GAME_NET_FACTORY.set(factory)
}

/// The bot of `spec` for the game of `g` (any game of the contract, [`Playable`]), checked
/// against that game before it plays ([`GameBot::check_game`]): `net:…` by the registered
/// [`GameNetFactory`], anything else by `engine::search::game_bot::from_spec_for`.
///
/// # Errors
/// The spec's error; for a `net:` spec in a process without a factory, that the net bot runs
/// only in the torch-linked `anqi-torch`; a checkpoint trained for a game of another
/// observation encoding (`farm::netmore::NetBuilt::into_bot`), naming both games.
pub fn game_bot_for<G: Playable>(spec: &str, seed: u64, g: &G) -> Result<Box<dyn GameBot<G>>, String> {
    let trimmed = spec.trim();
    if !is_net_spec(trimmed) {
        return engine::search::game_bot::from_spec_for::<G>(spec, seed, g);
    }
    let build = GAME_NET_FACTORY.get().ok_or_else(|| engine::search::game_bot::NET_NEEDS_TORCH.to_string())?;
    build(trimmed.strip_prefix("net:").unwrap_or(""), seed)?.into_bot(g)
}

/// Whether `spec` names the net bot (`net` or `net:…`), which only a torch-linked process builds.
pub fn is_net_spec(spec: &str) -> bool {
    spec == "net" || spec.starts_with("net:")
}

/// Builds a bot from a spec: `net:…` by the registered [`NetFactory`], anything else by
/// `engine::search::from_spec`.
///
/// # Errors
/// The problem with the spec, as text; for a `net:` spec in a process without a factory, that
/// the net bot runs only in the torch-linked `anqi-torch`.
pub fn from_spec(spec: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    match spec.strip_prefix("net:") {
        Some(params) => match NET_FACTORY.get() {
            Some(build) => build(params, seed),
            None => Err("net: bots need libtorch, which only the anqi-torch helper links (anqi runs it for commands naming a net: bot)".into()),
        },
        None if spec == "net" => Err("net: needs checkpoint=PATH".into()),
        None => engine::search::from_spec(spec, seed).map_err(|e| format!("{e}; or net:checkpoint=PATH[,sims=N]")),
    }
}

/// [`from_spec`] for a game of `variant` (its preset name): a bot trained for another variant
/// ([`Bot::trained_for`], a `net:` checkpoint of another game) is refused.
///
/// # Errors
/// As [`from_spec`]; a trained bot of another variant, naming both.
pub fn for_variant(spec: &str, seed: u64, variant: &str) -> Result<Box<dyn Bot>, String> {
    let bot = from_spec(spec, seed)?;
    check_variant(bot.as_ref(), variant)?;
    Ok(bot)
}

/// Refuses `bot` for a game of `variant` when it was trained for another ([`Bot::trained_for`]).
///
/// # Errors
/// Text naming the bot, the variant it was trained for and `variant`.
pub fn check_variant(bot: &dyn Bot, variant: &str) -> Result<(), String> {
    match bot.trained_for() {
        Some(t) if t != variant => Err(format!("{} was trained for variant {t:?}, not {variant:?}; its net cannot play this game", bot.name())),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn net_specs_are_recognised() {
        assert!(is_net_spec("net"));
        assert!(is_net_spec("net:checkpoint=runs/quick,sims=8"));
        assert!(!is_net_spec("network"));
        assert!(!is_net_spec("greedy"));
        assert!(!is_net_spec("pimc:k=8,search=alphabeta:depth=2"));
    }

    #[test]
    fn a_net_spec_without_a_factory_names_the_helper() {
        // No test in this crate registers a factory.
        let e = from_spec("net:checkpoint=nowhere", 1).err().unwrap_or_default();
        assert!(e.contains("anqi-torch"), "{e}");
        assert!(from_spec("greedy", 1).is_ok());
    }

    struct Trained;
    impl Bot for Trained {
        fn name(&self) -> String {
            "trained".into()
        }
        fn choose(&mut self, d: &engine::search::Decision) -> engine::variant::Action {
            d.legal_actions()[0]
        }
        fn trained_for(&self) -> Option<String> {
            Some("surprise".into())
        }
    }

    #[test]
    fn a_trained_bot_is_refused_in_another_variant() {
        assert!(check_variant(&Trained, "surprise").is_ok());
        let e = check_variant(&Trained, "jieqi").err().unwrap_or_default();
        assert!(e.contains("\"surprise\"") && e.contains("\"jieqi\""), "{e}");
        assert!(for_variant("greedy", 1, "jieqi").is_ok());
    }
}
