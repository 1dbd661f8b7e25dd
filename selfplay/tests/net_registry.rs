//! The one `net:` registry of every game (`selfplay::bots::set_net_factory`, `game_bot_for`) as
//! the bot builders use it: a `net:` bot is loaded without a game type
//! (`farm::netmore::NetBuilt`) and seated at the game in hand, which is checked against the net's
//! game (a variant's name, another game's observation encoding) before the game starts, so a
//! trained bot that cannot play it is refused with an error naming both games, not at its first
//! move (and not by a downcast). The factory here stands in for the torch-linked farm's
//! (`farm::netmore::factory`, which the `anqi-torch` helper registers): for `net:for=NAME` it
//! builds an untrained net for game NAME (of its encoding, as the farm's factory does). The
//! engine itself refuses `net:` (it never links libtorch).

use engine::any_game::{with_any_game, Start};
use engine::more::presets::{with_game, Playable, WithGame};
use farm::netmore::NetBuilt;
use farm::search::SearchConfig;
use models::net::{Net, NetConfig};
use selfplay::bots::{game_bot_for, set_net_factory};

/// An untrained two-simulation net bot of game `for=NAME` (its encoding).
fn factory(params: &str, seed: u64) -> Result<NetBuilt, String> {
    let name = params.strip_prefix("for=").ok_or_else(|| format!("test factory: {params:?} is not for=NAME"))?;
    let enc = engine::any_game::AnyGame::resolve(name).and_then(|g| g.encoding()).map_err(|e| e.to_string())?;
    let net = Net::with_encoding(&NetConfig::new(1, 8), &enc, tch::Device::Cpu, 7);
    Ok(NetBuilt::new(net, SearchConfig::with_simulations(2), None, seed, format!("net:{name}"), name.to_string()))
}

struct Build(String);

impl WithGame for Build {
    type Output = Result<String, String>;
    fn run<G: Playable>(self, g: G) -> Self::Output {
        game_bot_for::<G>(&self.0, 1, &g).map(|mut b| {
            let a = b.choose(&g);
            g.action_string(a)
        })
    }
}

#[test]
fn a_net_bot_that_cannot_play_the_game_is_refused_before_it_starts() {
    tch::set_num_threads(1);
    // Before a factory is registered, the registry names the helper that has one.
    let e = with_game("missile", None, Build("net:for=missile".into())).expect("preset").expect_err("no factory");
    assert!(e.contains("anqi-torch"), "{e}");
    let _ = set_net_factory(factory);
    // The bot plays its own game: a legal first action.
    let played = with_game("missile", None, Build("net:for=missile".into())).expect("preset").expect("seated");
    assert!(!played.is_empty());
    // A net of another game (here of another Rust type too) is refused before the game starts,
    // naming both: the encodings decide, no downcast (`netbot_more` covers another preset of the
    // same type).
    let e = with_game("skill", None, Build("net:for=missile".into())).expect("preset").expect_err("refused");
    assert!(e.contains("\"missile\"") && e.contains("skill"), "{e}");
    // Every other spec is the engine's.
    assert!(with_game("skill", None, Build("greedy".into())).expect("preset").is_ok());
    // The same factory builds the variants' net bots: one plays its variant, and is refused in
    // another variant and in a game that is no variant; another game's net is refused in a
    // variant.
    let at = |game: &str, spec: &str| with_any_game(game, Start::AfterSetup { layouts: None }, Build(spec.into())).expect("game");
    assert!(!at("jieqi", "net:for=jieqi").expect("seated").is_empty());
    let e = at("xiangqi", "net:for=jieqi").expect_err("refused");
    assert!(e.contains("\"jieqi\"") && e.contains("\"xiangqi\""), "{e}");
    let e = at("missile", "net:for=jieqi").expect_err("refused");
    assert!(e.contains("\"jieqi\"") && e.contains("missile"), "{e}");
    let e = at("jieqi", "net:for=missile").expect_err("refused");
    assert!(e.contains("\"missile\"") && e.contains("jieqi"), "{e}");
}
