//! The `net:` bot of the RULES-more games: a registry the bot specs of
//! [`crate::search::game_bot::from_spec`] call for `net:…` (#17 item 3).
//!
//! The net bot needs libtorch, which this crate never links: a process that can build one (the
//! `anqi-torch` helper, or a test of the torch-linked farm) registers a [`NetFactory`] with
//! [`set_net_factory`]. The factory reads the checkpoint, builds the bot for the game the
//! checkpoint was trained for (its concrete [`Scored`] type `H`), and hands it back erased
//! ([`NetBuilt`]); [`net_bot`] takes it back as a `Box<dyn GameBot<G>>` when `H` is the `G` asked
//! for, and refuses it, naming both games, when it is not. Two presets of one game type with
//! different observation encodings are told apart by the bot itself at its first decision (the
//! factory's documentation says how).

use crate::search::game_bot::GameBot;
use crate::search::Scored;
use std::any::Any;
use std::sync::OnceLock;

/// A `net:` bot as the factory built it, its game type erased.
pub struct NetBuilt {
    /// The game (preset name) the checkpoint was trained for.
    pub game: String,
    /// A `Box<dyn GameBot<H>>` for that game's type `H`, as `Any`.
    pub bot: Box<dyn Any + Send>,
}

/// Builds a `net:` bot from the spec's parameters (the text after `net:`) and a seed.
///
/// # Errors
/// The problem with the parameters or the checkpoint, as text.
pub type NetFactory = fn(&str, u64) -> Result<NetBuilt, String>;

static NET_FACTORY: OnceLock<NetFactory> = OnceLock::new();

/// Registers the builder of the RULES-more games' `net:` bots for this process (once;
/// torch-linked processes only).
///
/// # Errors
/// A factory was already registered (it is kept; the one given is returned).
pub fn set_net_factory(factory: NetFactory) -> Result<(), NetFactory> {
    NET_FACTORY.set(factory)
}

/// The last path segment of a type's name (`MissileGame`, `Open<…>` kept whole past its `<`).
fn short_type<G>() -> &'static str {
    let full = std::any::type_name::<G>();
    let head = full.split('<').next().unwrap_or(full);
    let cut = head.rfind("::").map_or(0, |i| i + 2);
    &full[cut..]
}

/// The `net:` bot of `params` for a game of type `G`, built by the registered [`NetFactory`].
///
/// # Errors
/// Without a registered factory, that the net bot runs only in the torch-linked `anqi-torch`;
/// the factory's error; and a checkpoint trained for a game of another type than `G`, naming
/// the checkpoint's game and `G`.
pub fn net_bot<G: Scored>(params: &str, seed: u64) -> Result<Box<dyn GameBot<G>>, String> {
    let Some(build) = NET_FACTORY.get() else {
        return Err("net: bots need libtorch, which only the anqi-torch helper links (anqi runs it for commands naming a net: bot)".into());
    };
    let NetBuilt { game, bot } = build(params, seed)?;
    match bot.downcast::<Box<dyn GameBot<G>>>() {
        Ok(b) => Ok(*b),
        Err(_) => Err(format!("net: the checkpoint was trained for {game:?}, a game of another kind than this one ({}); its net cannot play this game", short_type::<G>())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_are_shortened() {
        assert_eq!(short_type::<crate::more::missile::MissileGame>(), "MissileGame");
        assert_eq!(short_type::<Vec<u8>>(), "Vec<u8>");
    }

    #[test]
    fn a_net_spec_without_a_factory_names_the_helper() {
        // No test of this crate registers a factory.
        for spec in ["net:checkpoint=nowhere,sims=4", "net"] {
            let e = crate::search::game_bot::from_spec::<crate::more::missile::MissileGame>(spec, 1).err().unwrap_or_default();
            assert!(e.contains("anqi-torch"), "{spec}: {e}");
        }
    }
}
