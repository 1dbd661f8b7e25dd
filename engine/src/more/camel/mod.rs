//! Camel xiangqi 神驼象棋, editions 1-7 (RULES-more.md §2): rule table and presets ([`rules`]),
//! position with stacks, plates and faces ([`position`]), move generation, redemption and
//! legality ([`movegen`]; on bitboards in the nodes that allow it, [`bits`]), FEN and action strings ([`fen`]), the game state ([`game`]) and the
//! optional secret trick layouts of §2.13 ([`secret`]).

pub mod bits;
pub mod family;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod observe;
pub mod position;
pub mod rules;
pub mod secret;

pub use game::{CamelEnd, CamelGame};
pub use movegen::CAction;
pub use position::{CamelPosition, Plate};
pub use rules::{CamelPreset, CamelRules, StackRules};
