//! Variants with hidden information on the position core: the rule table and presets
//! ([`config`]), the full state with hidden faces and face-down pieces ([`state`]), its canonical
//! FEN (RULES.md §N, [`fen`]) and chance-aware perft (RULES.md §P, [`perft`]); the net encoding
//! ([`encoding`], `docs/encoding.md`) and the game contract's observation of a
//! [`game_state::VariantGameState`] ([`observe`]).

pub mod config;
pub mod encoding;
pub mod fen;
pub mod game;
pub mod game_state;
pub mod given;
pub mod notation;
pub mod observe;
pub mod open;
pub mod perft;
pub mod root_checks;
pub mod picture;
pub mod playable;
pub mod seeded;
pub mod state;
pub mod view;

pub use config::{BulkCount, Caps, Family, Hidden, SetupKind, Variant, VariantError};
pub use state::{Action, ChanceOutcome, State};
pub use view::View;
