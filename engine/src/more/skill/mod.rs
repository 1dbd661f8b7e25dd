//! Skill-tile xiangqi 奇策象棋 (RULES-more.md §1): rule table and presets ([`rules`]), the tile
//! catalogue ([`tiles`]), position, activation and move generation ([`position`], with the T9
//! ring road in `ring`; on bitboards where no tile is in play, [`bits`]), FEN and action strings ([`fen`]) and the game state with tile set-up,
//! stagnation removals and the end rules ([`game`]).

pub mod bits;
pub mod family;
pub mod fen;
pub mod game;
pub mod observe;
pub mod position;
mod ring;
pub mod rules;
pub mod tiles;

pub use game::{SkillEnd, SkillGame};
pub use position::{SMove, SkillPosition};
pub use rules::{RingReading, SkillBoard, SkillPreset, SkillRules};
