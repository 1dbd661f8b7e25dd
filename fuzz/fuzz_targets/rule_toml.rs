//! Rule files of both rule books: a RULES.md variant's TOML (`Variant::load` of a file holding
//! the input) and a RULES-more.md rule file (`MoreVariant::from_toml`).
//!
//! Invariants: a table that loads writes (`to_toml`) a table that loads to the same rules (the
//! same written table); the loaded game builds its start and generates its legal actions.
//! A RULES.md table whose `inherits` names anything but a preset is not loaded: it would have
//! the harness read files (`/dev/zero`) outside the input.
#![no_main]

use engine::game::Game;
use engine::more::camel::CamelGame;
use engine::more::missile::MissileGame;
use engine::more::skill::SkillGame;
use engine::more::MoreVariant;
use engine::variant::{State, Variant};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

static LEAKED: AtomicUsize = AtomicUsize::new(0);

fn scratch(tag: &str) -> PathBuf {
    std::env::temp_dir().join(format!("anqi-fuzz-{tag}-{}.toml", std::process::id()))
}

fn load_text(tag: &str, text: &str) -> Result<Variant, engine::variant::VariantError> {
    let path = scratch(tag);
    std::fs::write(&path, text).expect("write the scratch rule file");
    Variant::load(path.to_str().expect("a UTF-8 temporary directory"))
}

fn inherits_only_presets(text: &str) -> bool {
    let Ok(table) = text.parse::<toml::Table>() else { return true };
    match table.get("inherits").and_then(toml::Value::as_str) {
        Some(parent) => {
            let base = parent.strip_suffix(engine::more::open::SUFFIX).unwrap_or(parent);
            engine::variant::config::preset_names().any(|n| n == base)
        }
        None => true,
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if inherits_only_presets(text) {
        if let Ok(v) = load_text("a", text) {
            let written = v.to_toml();
            let back = load_text("b", &written).unwrap_or_else(|e| panic!("written table does not load: {e}\n{written}"));
            assert_eq!(back.to_toml(), written, "rule table round trip");
            // A state needs a variant that lives as long as the process (as `load_variant`
            // keeps them): leaked, so at most LEAKED times per run.
            if LEAKED.fetch_add(1, Ordering::Relaxed) < 20_000 {
                let v: &'static Variant = Box::leak(Box::new(v));
                let _ = State::new_game(v).legal_actions();
                if let Ok(s) = State::start(v, None) {
                    let _ = s.legal_actions();
                }
            }
        }
    }
    if let Ok(m) = MoreVariant::from_toml(text, "fuzz.toml") {
        let written = m.to_toml();
        let back = MoreVariant::from_toml(&written, "fuzz.toml").unwrap_or_else(|e| panic!("written rule file does not load: {e}\n{written}"));
        assert_eq!(back.to_toml(), written, "rule file round trip");
        match m {
            MoreVariant::Missile(p) => drop(MissileGame::new(p).legal_actions()),
            MoreVariant::Skill(p) => drop(SkillGame::new(p).legal_actions()),
            MoreVariant::Camel(p) => drop(CamelGame::new(p).legal_actions()),
        }
    }
});
