//! Preset names of the RULES-more.md games, for `anqi variants`, `anqi play` and `anqi perft`.

use super::missile;

/// Every preset of this module, with its one-line description.
pub fn presets() -> Vec<(&'static str, &'static str)> {
    let mut v = Vec::new();
    for name in missile::rules::PRESETS {
        if let Ok(p) = missile::MissileRules::preset(name) {
            v.push((p.name, p.description));
        }
    }
    v
}

/// Whether `name` is a preset of this module.
pub fn is_preset(name: &str) -> bool {
    presets().iter().any(|(n, _)| *n == name)
}
