//! The `net:` registry of the RULES-more games (`engine::more::net`) as the bot builders use it:
//! a bot built with the game in hand (`game_bot::from_spec_for`, as tournaments and `anqi play`
//! build them) is checked against that game before the game starts, so a trained bot that
//! cannot play it is refused with an error, not at its first move. The factory here stands in
//! for the torch-linked farm's (which this crate never links): its bot refuses games whose
//! name differs from the one it was "trained" for, as the farm's refuses another encoding.

use engine::game::Action;
use engine::more::missile::MissileGame;
use engine::more::net::{set_net_factory, NetBuilt};
use engine::more::presets::{with_game, Playable, WithGame};
use engine::search::game_bot::{from_spec, from_spec_for, GameBot};

/// A bot that plays the first legal action of games of one name only.
struct Trained(&'static str);

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
    let name: &'static str = match params.strip_prefix("for=") {
        Some("missile") => "missile",
        Some(other) => Box::leak(other.to_string().into_boxed_str()),
        None => return Err(format!("test factory: {params:?} is not for=NAME")),
    };
    let bot: Box<dyn GameBot<MissileGame>> = Box::new(Trained(name));
    Ok(NetBuilt { game: name.to_string(), bot: Box::new(bot) })
}

struct Build(&'static str);

impl WithGame for Build {
    type Output = (Result<(), String>, Result<(), String>);
    fn run<G: Playable>(self, g: G) -> Self::Output {
        (from_spec::<G>(self.0, 1).map(|_| ()), from_spec_for::<G>(self.0, 1, &g).map(|_| ()))
    }
}

#[test]
fn a_net_bot_that_cannot_play_the_game_is_refused_before_it_starts() {
    let _ = set_net_factory(factory);
    struct Name;
    impl WithGame for Name {
        type Output = &'static str;
        fn run<G: Playable>(self, g: G) -> &'static str {
            g.info().name
        }
    }
    let name = with_game("missile", None, Name).expect("preset");
    // The bot accepts its own game, with or without the game in hand.
    let (plain, checked) = with_game("missile", None, Build(Box::leak(format!("net:for={name}").into_boxed_str()))).expect("preset");
    assert_eq!((plain, checked), (Ok(()), Ok(())));
    // A bot of the same Rust type that refuses this game: built blind it is accepted (it would
    // fail at its first move), built with the game in hand it is refused, naming both games.
    let (plain, checked) = with_game("missile", None, Build("net:for=another-board")).expect("preset");
    assert!(plain.is_ok());
    let e = checked.expect_err("refused");
    assert!(e.contains("another-board") && e.contains(name), "{e}");
    // A bot of another game type is refused by the registry itself, naming both.
    let e = with_game("skill", None, Build("net:for=missile")).expect("preset").1.expect_err("refused");
    assert!(e.contains("missile") && e.contains("SkillGame"), "{e}");
}
