//! Bot specs for `anqi play`, `analyse`, tournaments and experiments: everything
//! `engine::search::from_spec` knows, plus
//! `net:checkpoint=PATH[,sims=N][,ms=N][,batch=N][,cpuct=X][,device=D][,layouts=PATH]`,
//! the net-guided PUCT IS-MCTS of the self-play farm playing a trained checkpoint.
//!
//! The `net:` bot needs libtorch, which this library does not link (so that `anqi` starts
//! without it): a process that can build one registers a factory with [`set_net_factory`] (the
//! `anqi-torch` helper registers `farm::netbot::from_params`), and `anqi` hands every command
//! naming a `net:` bot ([`is_net_spec`]) to that helper.

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
