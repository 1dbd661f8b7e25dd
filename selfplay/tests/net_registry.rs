//! The `net:` registry of the RULES-more games (`selfplay::bots::set_game_net_factory`,
//! `game_bot_for`) as the bot builders use it: a bot built with the game in hand (as tournaments
//! and `anqi play` build them) is checked against that game before the game starts, so a trained
//! bot that cannot play it is refused with an error, not at its first move. The factory here
//! stands in for the torch-linked farm's (`farm::netmore::factory`, which the `anqi-torch` helper
//! registers): its bot refuses games whose name differs from the one it was "trained" for, as the
//! farm's refuses another encoding. The engine itself refuses `net:` (it never links libtorch).

use engine::game::Action;
use engine::more::missile::MissileGame;
use engine::more::presets::{with_game, Playable, WithGame};
use engine::search::game_bot::GameBot;
use farm::netmore::NetBuilt;
use selfplay::bots::{game_bot_for, set_game_net_factory};

/// A bot that plays the first legal action of games of one name only.
struct Trained(String);

impl<G: engine::search::Scored> GameBot<G> for Trained {
    fn name(&self) -> String {
        format!("trained-for-{}", self.0)
    }
    fn choose(&mut self, g: &G) -> Action {
        g.legal_actions()[0]
    }
    fn check_game(&self, g: &G) -> Result<(), String> {
        if g.info().name == self.0 {
            Ok(())
        } else {
            Err(format!("trained for {:?}, cannot play {:?}", self.0, g.info().name))
        }
    }
}

/// Builds a `Trained` missile bot for `net:for=NAME` (the name it accepts).
fn factory(params: &str, _seed: u64) -> Result<NetBuilt, String> {
    let name = params.strip_prefix("for=").ok_or_else(|| format!("test factory: {params:?} is not for=NAME"))?;
    let bot: Box<dyn GameBot<MissileGame>> = Box::new(Trained(name.to_string()));
    Ok(NetBuilt { game: name.to_string(), bot: Box::new(bot) })
}

struct Build(String);

impl WithGame for Build {
    type Output = (Result<(), String>, Result<(), String>);
    fn run<G: Playable>(self, g: G) -> Self::Output {
        let blind = factory(self.0.strip_prefix("net:").unwrap_or(""), 1).and_then(NetBuilt::into_bot::<G>).map(|_| ());
        (blind, game_bot_for::<G>(&self.0, 1, &g).map(|_| ()))
    }
}

#[test]
fn a_net_bot_that_cannot_play_the_game_is_refused_before_it_starts() {
    // Before a factory is registered, the registry names the helper that has one.
    let e = with_game("missile", None, Build("net:for=missile".into())).expect("preset").1.expect_err("no factory");
    assert!(e.contains("anqi-torch"), "{e}");
    let _ = set_game_net_factory(factory);
    struct Name;
    impl WithGame for Name {
        type Output = &'static str;
        fn run<G: Playable>(self, g: G) -> &'static str {
            g.info().name
        }
    }
    let name = with_game("missile", None, Name).expect("preset");
    // The bot accepts its own game, built blind or with the game in hand.
    let (plain, checked) = with_game("missile", None, Build(format!("net:for={name}"))).expect("preset");
    assert_eq!((plain, checked), (Ok(()), Ok(())));
    // A bot of the same Rust type that refuses this game: built blind it is accepted (it would
    // fail at its first move), built with the game in hand it is refused, naming both games.
    let (plain, checked) = with_game("missile", None, Build("net:for=another-board".into())).expect("preset");
    assert!(plain.is_ok());
    let e = checked.expect_err("refused");
    assert!(e.contains("another-board") && e.contains(name), "{e}");
    // A bot of another game type is refused by the registry itself, naming both.
    let e = with_game("skill", None, Build("net:for=missile".into())).expect("preset").1.expect_err("refused");
    assert!(e.contains("missile") && e.contains("SkillGame"), "{e}");
    // Every other spec is the engine's.
    assert_eq!(with_game("skill", None, Build("greedy".into())).expect("preset").1, Ok(()));
}
