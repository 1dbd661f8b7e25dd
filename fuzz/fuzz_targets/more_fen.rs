//! RULES-more.md games: full-state FENs (`from_fen`) and view FENs (`from_view`) of camel,
//! skill-tile and missile xiangqi, every preset, and the open twins' FENs (through
//! `with_game_at`), picked by the first byte.
//!
//! Invariants on every text a parser accepts: the written full FEN parses back to itself; the
//! legal actions can be generated; each side's written view FEN parses back (as a view) to a game
//! that writes the same view FEN.
#![no_main]

use engine::any_game::Start;
use engine::more::camel::CamelGame;
use engine::more::missile::MissileGame;
use engine::more::presets::{with_game_at, Playable, WithGame};
use engine::more::skill::SkillGame;
use engine::more::{MoreError, MoreVariant};
use engine::Color;
use libfuzzer_sys::fuzz_target;

fn check<G: Playable>(name: &str, g: &G, full: impl Fn(&str) -> Result<G, MoreError>, view: impl Fn(&str) -> Result<G, MoreError>) {
    let text = g.full_fen();
    let back = full(&text).unwrap_or_else(|e| panic!("{name}: written FEN {text:?} does not parse: {e}"));
    assert_eq!(back.full_fen(), text, "{name}: FEN round trip");
    let _ = g.legal_actions();
    for c in Color::ALL {
        let seen = g.view_fen(c);
        let again = view(&seen).unwrap_or_else(|e| panic!("{name}: {c:?}'s written view FEN {seen:?} (of {text:?}) does not parse: {e}"));
        assert_eq!(again.view_fen(c), seen, "{name}: {c:?}'s view FEN round trip (of {text:?})");
    }
}

/// An open twin's game: its full FEN parses back through `with_game_at` to itself.
struct OpenTwin<'a>(&'a str);

impl WithGame for OpenTwin<'_> {
    type Output = ();
    fn run<G: Playable>(self, g: G) {
        struct Fen;
        impl WithGame for Fen {
            type Output = String;
            fn run<G: Playable>(self, g: G) -> String {
                g.full_fen()
            }
        }
        let text = g.full_fen();
        let back = with_game_at(self.0, Start::Fen(&text), Fen).unwrap_or_else(|e| panic!("{}: written FEN {text:?} does not parse: {e}", self.0));
        assert_eq!(back, text, "{}: FEN round trip", self.0);
        let _ = g.legal_actions();
        for c in Color::ALL {
            let _ = g.view_fen(c);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((sel, text)) = anqi_fuzz::split(data) else { return };
    let name = anqi_fuzz::pick(anqi_fuzz::more_games(), sel).as_str();
    if name.ends_with(engine::more::open::SUFFIX) {
        let _ = with_game_at(name, Start::Fen(text), OpenTwin(name));
        return;
    }
    let Ok(variant) = MoreVariant::preset(name) else { panic!("preset {name} does not load") };
    match variant {
        MoreVariant::Missile(p) => {
            let (full, view) = (|t: &str| MissileGame::from_fen(p, t), |t: &str| MissileGame::from_view(p, t));
            for g in [full(text), view(text)].into_iter().flatten() {
                check(name, &g, full, view);
            }
        }
        MoreVariant::Skill(p) => {
            let (full, view) = (|t: &str| SkillGame::from_fen(p, t), |t: &str| SkillGame::from_view(p, t));
            for g in [full(text), view(text)].into_iter().flatten() {
                check(name, &g, full, view);
            }
        }
        MoreVariant::Camel(p) => {
            let (full, view) = (|t: &str| CamelGame::from_fen(p, t), |t: &str| CamelGame::from_view(p, t));
            for g in [full(text), view(text)].into_iter().flatten() {
                check(name, &g, full, view);
            }
        }
    }
});
