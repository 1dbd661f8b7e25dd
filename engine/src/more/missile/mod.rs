//! Missile xiangqi 飛彈象棋 (RULES-more.md §3): rule table and presets ([`rules`]), position and
//! move generation ([`position`]), FEN and move strings ([`fen`]), perft ([`perft`]) and the game
//! state behind [`crate::game::Game`] with the end rules of §3.7 and the hidden set-up of §3.8
//! ([`game`], with the face-down reading's bookkeeping in [`facedown`]).

pub mod bits;
pub mod facedown;
pub mod family;
pub mod fen;
pub mod observe;
pub mod game;
pub mod perft;
pub mod position;
pub mod rules;

pub use game::{MissileEnd, MissileGame};
pub use position::{Effect, MMove, MissilePosition};
pub use rules::{BaseOutcome, BaseReading, DeadGeneral, FighterBlock, MissilePreset, MissileRules, SetupMethod};
