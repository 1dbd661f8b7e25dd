//! Move text: the record entries and action strings of every game of both rule books
//! (`Playable::parse_entry`, `Playable::play_text`), and for the RULES.md variants also
//! `engine::variant::notation::{parse_action, parse_record}` and the core's ICCS
//! (`engine::notation::iccs::parse_move`).
//!
//! The first byte picks the game, the second its start (set-up phase or after it); the rest is
//! lines of move text tried one after another. A text that plays must be a legal action whose
//! action string reads back to it; a refused text must leave the game unchanged (then a legal
//! action picked by the text's length is played, so the game goes on). Every legal action's
//! string must read back to that action.
#![no_main]

use engine::any_game::{with_any_game, Start};
use engine::game::Turn;
use engine::more::presets::{Playable, WithGame};
use libfuzzer_sys::fuzz_target;

struct Moves<'a> {
    name: &'a str,
    texts: Vec<&'a str>,
}

impl WithGame for Moves<'_> {
    type Output = ();
    fn run<G: Playable>(self, mut g: G) {
        let name = self.name;
        for text in self.texts {
            match g.turn() {
                Turn::Terminal => return,
                Turn::Chance => {
                    let outcomes = g.chance_outcomes();
                    let (a, _) = outcomes[text.len() % outcomes.len()];
                    g.apply(a);
                    continue;
                }
                Turn::Player(_) => {}
            }
            let legal = g.legal_actions();
            assert!(!legal.is_empty(), "{name}: a player's turn without a legal action at {}", g.full_fen());
            for &a in &legal {
                let s = g.action_string(a);
                assert_eq!(g.parse_entry(&s).ok(), Some(a), "{name}: action string {s:?} does not read back at {}", g.full_fen());
            }
            if let Some(v) = g.as_variant() {
                let state = v.state();
                if let Ok(a) = engine::variant::notation::parse_action(state, text) {
                    assert!(state.legal_actions().contains(&a), "{name}: parse_action accepted {text:?}, not legal at {}", g.full_fen());
                }
                let _ = engine::variant::notation::parse_record(state, text);
                let _ = engine::notation::iccs::parse_move(state.position(), text);
            }
            if let Ok(a) = g.parse_entry(text) {
                assert!(legal.contains(&a), "{name}: parse_entry accepted {text:?}, not legal at {}", g.full_fen());
            }
            let before = g.full_fen();
            if g.play_text(text).is_err() {
                assert_eq!(g.full_fen(), before, "{name}: the refused text {text:?} changed the game");
                let a = legal[text.len() % legal.len()];
                g.apply(a);
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((sel, rest)) = anqi_fuzz::split(data) else { return };
    let Some((start, body)) = rest.split_at_checked(1) else { return };
    let name = anqi_fuzz::pick(anqi_fuzz::all_games(), sel).as_str();
    let start = if start.as_bytes()[0] & 1 == 0 { Start::Setup } else { Start::AfterSetup { layouts: None } };
    let texts: Vec<&str> = body.split('\n').take(64).collect();
    let _ = with_any_game(name, start, Moves { name, texts });
});
