//! The three games of `docs/rules/RULES-more.md` on a geometry described by data: skill-tile
//! xiangqi (§1), camel xiangqi (§2) and missile xiangqi (§3).
//!
//! * [`geometry`]: files, ranks, river (between ranks or a river row) and palaces;
//! * [`bits`]: the boards that fit 11x11 on the core's `u128` bitboard layout, with the leaper
//!   tables of these games (fast move generation, issue #17);
//! * [`board`]: a mailbox board on any geometry and the FEN board field;
//! * [`piece`]: piece kinds of all three games;
//! * [`missile`]: missile xiangqi (§3), its presets, FEN, perft and [`crate::game::Game`] state;
//! * [`skill`]: skill-tile xiangqi (§1), the same parts plus the 32 tiles;
//! * [`camel`]: camel xiangqi editions 1-7 (§2), the same parts plus plates and stacks;
//! * [`history`]: the repetition record, path hashing and returns shared by the game states;
//! * [`notation`]: Chinese move records on any geometry;
//! * [`picture`]: the default picture of a game from its view FEN (`Playable::picture`);
//! * [`family`]: the registry's contract ([`family::RuleFamily`]) and its one list, below: a new
//!   game is its folder and one line there;
//! * [`config`]: the rule tables as TOML rule files (`anqi variants --show`, `--variant FILE`);
//! * [`presets`]: the preset names and one entry point per preset for the CLI;
//! * [`open`]: the open twins of the hidden presets (docs/open-twins.md §O6);
//! * [`observe`]: what the games share in their observation tensors and action indices
//!   ([`crate::observe`]; each game has its own `observe` module).

pub mod bits;
pub mod board;
pub mod config;
pub mod error;
pub mod family;
pub mod geometry;
pub mod history;
pub mod notation;
pub mod observe;
pub mod open;
pub mod piece;
pub mod picture;
pub mod presets;

// The registry: one line per game (its folder's module, its arm, its preset type).
family::games! {
    camel: Camel(camel::CamelPreset),
    skill: Skill(skill::SkillPreset),
    missile: Missile(missile::MissilePreset),
}

pub use error::MoreError;
pub use geometry::{Geometry, River, Sq};
