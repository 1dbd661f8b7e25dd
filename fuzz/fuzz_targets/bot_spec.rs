//! Bot specs: `engine::search::game_bot::from_spec_for` and `selfplay::bots::game_bot_for` (what
//! the CLI, tournaments and the play page call) on a game of either rule book picked by the first
//! byte (the RULES.md variants' own bots among them), and the `[bot]` table of a bot file
//! (`engine::search::spec_from_toml`) with the spec it gives.
//!
//! A spec that parses is built, never run. The builders must refuse nonsense with a message and
//! build anything else without panicking or allocating without bound (the validation layer caps
//! tables). Specs naming a file (`.toml`, `eval=`, `checkpoint=`, `layouts=`) are skipped: they
//! would have the harness read files outside the input.
#![no_main]

use engine::any_game::{with_any_game, Start};
use engine::more::presets::{Playable, WithGame};
use engine::search::game_bot;
use libfuzzer_sys::fuzz_target;

fn names_a_file(spec: &str) -> bool {
    let lower = spec.to_ascii_lowercase();
    ["toml", "eval=", "checkpoint", "layouts="].iter().any(|w| lower.contains(w))
}

struct Build<'a>(&'a str);

impl WithGame for Build<'_> {
    type Output = ();
    fn run<G: Playable>(self, g: G) {
        if let Ok(bot) = game_bot::from_spec_for(self.0, 1, &g) {
            drop(bot);
        }
        drop(selfplay::bots::game_bot_for(self.0, 1, &g));
    }
}

fn build(sel: u8, spec: &str) {
    if names_a_file(spec) {
        return;
    }
    if let Ok(parsed) = engine::search::registry::BotSpec::parse(spec) {
        let _ = engine::search::parse_params(&parsed.params);
    }
    let name = anqi_fuzz::pick(anqi_fuzz::all_games(), sel);
    let _ = with_any_game(name, Start::AfterSetup { layouts: None }, Build(spec));
}

fuzz_target!(|data: &[u8]| {
    let Some((sel, text)) = anqi_fuzz::split(data) else { return };
    build(sel, text);
    if let Ok(spec) = engine::search::spec_from_toml(text) {
        build(sel, &spec);
    }
});
