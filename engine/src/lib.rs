//! anqi engine: the bitboard position core for xiangqi and its hidden-information variants,
//! notation, views, search and solvers. Never depends on torch.
//!
//! Rules are those of `docs/rules/RULES.md`; every module cites the clause it implements.

pub mod attacks;
pub mod bitboard;
pub mod fsio;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod nnue;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod picture;
pub mod piece;
pub mod position;
pub mod repetition;
pub mod rules;
pub mod search;
pub mod zobrist;

// The game interface seen by search and solvers (OpenSpiel-like), test games, solvers.
pub mod game;
pub mod games;
pub mod any_game;
pub mod observe;
pub mod seeded;
pub mod solve;
pub mod variant;

// The games of docs/rules/RULES-more.md (skill-tile, camel, missile xiangqi) on geometries described
// by data, behind the same Game interface.
pub mod more;

pub use bitboard::Bitboard;
pub use geometry::{Geometry, Square};
pub use moves::{Move, MoveList};
pub use piece::{ByColor, Color, Piece, Role};
pub use position::{Position, PositionError};
