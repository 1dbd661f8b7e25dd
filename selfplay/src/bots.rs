//! The one bot builder of the commands that seat bots (`anqi play`, `analyse`, tournaments,
//! experiments, the play page): [`game_bot_for`] builds every bot of the engine's registry
//! (`engine::search::game_bot::from_spec`) for any game of the contract, plus
//! `net:checkpoint=PATH[,sims=N][,ms=N][,batch=N][,cpuct=X][,device=D][,layouts=PATH]`,
//! the net-guided PUCT IS-MCTS of the self-play farm playing a trained checkpoint.
//!
//! The `net:` bot needs libtorch, which `anqi` must not call into (so that it starts without
//! it): the torch-linked `anqi-torch` helper, the one binary above this library, registers the
//! farm's one builder of net bots here ([`set_net_factory`]: `farm::netmore::factory`, which
//! loads a checkpoint of any game for that game), and `anqi` hands every command naming a `net:`
//! bot ([`is_net_spec`]) to that helper. The engine's registry knows every other bot and refuses
//! `net:`; dependencies point one way (engine ← models ← farm ← selfplay).

use engine::more::presets::Playable;
use engine::search::game_bot::GameBot;
use std::sync::OnceLock;

/// Loads a `net:` bot from the spec's parameters (the text after `net:`) and a seed
/// (`farm::netmore::factory`), to be seated at a game by `farm::netmore::NetBuilt::into_bot`.
///
/// # Errors
/// The problem with the parameters or the checkpoint, as text.
pub type NetFactory = fn(&str, u64) -> Result<farm::netmore::NetBuilt, String>;

static NET_FACTORY: OnceLock<NetFactory> = OnceLock::new();

/// Registers the builder of `net:` bots for this process (once; torch-linked binaries only).
///
/// # Errors
/// A factory was already registered (it is kept; the one given is returned).
pub fn set_net_factory(factory: NetFactory) -> Result<(), NetFactory> {
    NET_FACTORY.set(factory)
}

/// The bot of `spec` for the game of `g` (any game of the contract, [`Playable`]), checked
/// against that game before it plays ([`GameBot::check_game`]): `net:…` by the registered
/// [`NetFactory`], anything else by `engine::search::game_bot::from_spec_for` (the variants'
/// own `expectimax`, `pimc`, `ismcts` and `oracle` included, `engine::search::Scored::own_bot`).
///
/// # Errors
/// The spec's error; for a `net:` spec in a process without a factory, that the net bot runs
/// only in the torch-linked `anqi-torch`; a checkpoint trained for another game (another
/// variant, or a game of another observation encoding), naming both games.
pub fn game_bot_for<G: Playable>(spec: &str, seed: u64, g: &G) -> Result<Box<dyn GameBot<G>>, String> {
    let trimmed = spec.trim();
    if !is_net_spec(trimmed) {
        // An unknown name lists the engine's bots; this builder also knows `net:`.
        return engine::search::game_bot::from_spec_for::<G>(spec, seed, g).map_err(|e| if e.starts_with("unknown bot") { format!("{e}; or net:checkpoint=PATH[,sims=N]") } else { e });
    }
    let build = NET_FACTORY.get().ok_or_else(|| engine::search::game_bot::NET_NEEDS_TORCH.to_string())?;
    build(trimmed.strip_prefix("net:").unwrap_or(""), seed)?.into_bot(g)
}

/// Whether `spec` names the net bot (`net` or `net:…`), which only a torch-linked process builds.
pub fn is_net_spec(spec: &str) -> bool {
    spec == "net" || spec.starts_with("net:")
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::variant::game_state::VariantGameState;

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
        let v: &'static engine::variant::Variant = engine::any_game::load_variant("xiangqi").expect("xiangqi");
        let g = VariantGameState::new(engine::variant::State::start(v, None).expect("start"));
        let e = game_bot_for("net:checkpoint=nowhere", 1, &g).err().unwrap_or_default();
        assert!(e.contains("anqi-torch"), "{e}");
        let missile = engine::more::missile::MissileGame::new(engine::more::missile::MissileRules::preset("missile").expect("missile"));
        let e = game_bot_for("net:checkpoint=nowhere", 1, &missile).err().unwrap_or_default();
        assert!(e.contains("anqi-torch"), "{e}");
        assert!(game_bot_for("greedy", 1, &g).is_ok());
        assert!(game_bot_for("greedy", 1, &missile).is_ok());
        let e = game_bot_for("minimax", 1, &g).err().unwrap_or_default();
        assert!(e.contains("unknown bot") && e.contains("net:checkpoint=PATH"), "{e}");
    }

    #[test]
    fn the_variants_play_their_own_bots_through_the_one_builder() {
        let v: &'static engine::variant::Variant = engine::any_game::load_variant("jieqi").expect("jieqi");
        let g = VariantGameState::new(engine::variant::State::start(v, None).expect("start"));
        for (spec, name) in [("pimc:k=2,ties=random", "ties=random"), ("pimc:k=1,search=mcts:iterations=20", "search=mcts"), ("ismcts:iterations=20", "ismcts")] {
            let bot = game_bot_for(spec, 1, &g).unwrap_or_else(|e| panic!("{spec}: {e}"));
            assert!(bot.name().contains(name), "{spec}: {}", bot.name());
        }
    }
}
