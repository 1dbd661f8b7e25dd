//! Helpers shared by the fuzz targets (issue #39 item 5): the games every target picks from
//! with its input's first byte, and the split of an input into that byte and UTF-8 text.
//! The targets themselves are in `fuzz_targets/`; README.md lists them.

use std::sync::OnceLock;

use engine::variant::Variant;

/// The RULES.md variants: every preset, then every open twin (docs/open-twins.md §O1), loaded
/// once (they live as long as the process, as [`engine::any_game::load_variant`] keeps them).
pub fn variants() -> &'static [&'static Variant] {
    static ALL: OnceLock<Vec<&'static Variant>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut names: Vec<String> = engine::variant::config::preset_names().map(str::to_string).collect();
        names.extend(engine::variant::config::open_twin_names());
        names.iter().map(|n| engine::any_game::load_variant(n).unwrap_or_else(|e| panic!("preset {n}: {e}"))).collect()
    })
}

/// The RULES-more.md presets (camel, skill-tile and missile xiangqi), then the open twins of the
/// ones that have one.
pub fn more_games() -> &'static [String] {
    static ALL: OnceLock<Vec<String>> = OnceLock::new();
    ALL.get_or_init(|| {
        let base: Vec<String> = engine::more::presets::presets().into_iter().map(|(n, _)| n.to_string()).collect();
        let twins: Vec<String> = base
            .iter()
            .map(|n| format!("{n}{}", engine::more::open::SUFFIX))
            .filter(|t| engine::more::presets::describe(t).is_ok())
            .collect();
        base.into_iter().chain(twins).collect()
    })
}

/// Every game of both rule books by name: the RULES.md variants' names, then [`more_games`].
pub fn all_games() -> &'static [String] {
    static ALL: OnceLock<Vec<String>> = OnceLock::new();
    ALL.get_or_init(|| variants().iter().map(|v| v.name.clone()).chain(more_games().iter().cloned()).collect())
}

/// `list[byte % len]`.
pub fn pick<T>(list: &[T], byte: u8) -> &T {
    &list[byte as usize % list.len()]
}

/// The input's first byte and the rest as text; `None` when empty or not UTF-8.
pub fn split(data: &[u8]) -> Option<(u8, &str)> {
    let (&first, rest) = data.split_first()?;
    Some((first, std::str::from_utf8(rest).ok()?))
}
