//! Shared handling of `--variant` (a preset name or a TOML file) and of variant start states.

use anyhow::Context;
use engine::variant::{fen as vfen, State, Variant};

/// Loads a preset or file once for the life of the process
/// ([`engine::any_game::load_variant`]).
pub fn load(spec: &str) -> anyhow::Result<&'static Variant> {
    engine::any_game::load_variant(spec).with_context(|| format!("--variant {spec:?}"))
}

/// The state from `--fen` or the variant's start (with `--layouts RED,BLACK` for Surprise).
pub fn start_state(v: &'static Variant, fen: Option<&str>, layouts: Option<&str>) -> anyhow::Result<State> {
    match fen {
        Some(f) => vfen::parse(v, f).with_context(|| format!("--fen {f:?}")),
        None => {
            let pair = match layouts {
                Some(l) => {
                    let (r, b) = l.split_once(',').with_context(|| format!("--layouts {l:?}: expected RED,BLACK like C3,A"))?;
                    Some((r.trim(), b.trim()))
                }
                None => None,
            };
            State::start(v, pair).with_context(|| format!("--layouts {}", layouts.unwrap_or("A,A")))
        }
    }
}
