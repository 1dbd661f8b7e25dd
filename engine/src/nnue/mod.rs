//! A learned evaluation in pure Rust (issue #36): an efficiently updatable neural network in the
//! manner of Stockfish's and Pikafish's NNUE (Y. Nasu, "Efficiently updatable neural-network-based
//! evaluation functions for computer shogi", 2018), sized for this project's 2-core machines.
//!
//! **Inputs** ([`feature`]): per perspective (the side whose point of view the half-accumulator
//! takes), one sparse feature per piece on the board: its kind — own or the opponent's, face up or
//! face down, and the type it moves as in the core position (7 roles) — times its square seen from
//! the perspective (ranks mirrored for Black): 2 x 2 x 7 x 90 = [`INPUTS`] features. A face-down
//! piece is one whose identity the searching player does not know (RULES.md §F2, §P2: the Jieqi
//! pieces on their start points, Surprise discs by their visible face); in xiangqi none is.
//!
//! **Network**: `(INPUTS -> HIDDEN) x 2 -> 1`. The first layer's output for each perspective (the
//! *accumulator*) is a sum of weight rows of the active features plus a bias, updated
//! incrementally when a move changes a few pieces ([`Accumulator`]). The output is
//! `out_bias + w_stm . screlu(acc_stm) + w_other . screlu(acc_other)` with the squared clipped
//! ReLU `screlu(x) = clamp(x, 0, 1)^2`, in units of [`EVAL_SCALE`] centipawns.
//!
//! **Quantized inference** ([`Network`]): first-layer weights and biases as `i16` scaled by
//! [`QA`], output weights as `i16` scaled by [`QB`], integer arithmetic throughout, so the SIMD
//! path (AVX2 where the CPU has it) and the portable path give bit-identical scores (tested).
//! The file format ([`Network::save`], [`Network::load`]) is versioned and hash-checked.
//!
//! Trained by the project's own pipeline (`anqi train --config configs/train/eval-<variant>.toml`,
//! the `models` crate) on positions of the farm's games labelled with the search's score and the
//! game's result; the float weights it exports are a [`FloatNet`].

mod accumulator;
mod choice;
mod file;
mod float;
mod network;
mod simd;
#[cfg(test)]
pub(crate) mod tests;

pub use accumulator::Accumulator;
pub use choice::{default_for, embedded, load, resolve, zoo_dir, EvalNet, ZOO_ENV, ZOO_REPO_DIR};
pub use file::{NnueError, FORMAT_VERSION, MAGIC};
pub use float::FloatNet;
pub use network::{NetMeta, Network};

use crate::bitboard::Bitboard;
use crate::geometry::{Geometry, Square};
use crate::piece::{Color, Piece, Role};
use crate::position::Position;

/// Files of the largest board the features cover.
pub const FILES: usize = 9;
/// Ranks of the largest board the features cover.
pub const RANKS: usize = 10;
/// Piece kinds per perspective: own/opponent x face up/face down x 7 roles.
pub const KINDS: usize = 2 * 2 * Role::COUNT;
/// Sparse input features per perspective: [`KINDS`] x 90 squares.
pub const INPUTS: usize = KINDS * FILES * RANKS;
/// Width of each perspective's accumulator (the first layer's outputs).
pub const HIDDEN: usize = 128;
/// Centipawns per unit of the float network's output.
pub const EVAL_SCALE: f32 = 400.0;
/// Scale of the quantized first layer (weights, biases, accumulator): `i16 = round(w * QA)`;
/// the clipped ReLU clips the accumulator to `[0, QA]`.
pub const QA: i32 = 255;
/// Scale of the quantized output weights: `i16 = round(w * QB)`.
pub const QB: i32 = 64;
/// Largest magnitude of a float weight or bias the quantized file can hold (the trainer clips
/// to it after each step): the output weights multiply `screlu` values up to `QA` in `i16`.
pub const WEIGHT_CLIP: f32 = 1.98;

/// One piece as the evaluation sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PieceOn {
    /// Its square.
    pub sq: Square,
    /// Its colour and the type it moves as in the core position.
    pub piece: Piece,
    /// Whether its identity is hidden from the searching player (face down).
    pub face_down: bool,
}

/// The feature index (below [`INPUTS`]) of `p` from `perspective`'s point of view on a board of
/// geometry `geom` (at most 9 files and 10 ranks): `kind * 90 + relative_rank * 9 + file`, with
/// kind = `(opponent's ? 14 : 0) + (face down ? 7 : 0) + role` and the rank counted from
/// `perspective`'s back rank ([`Geometry::relative_rank`]).
#[inline]
pub fn feature(geom: &Geometry, perspective: Color, p: PieceOn) -> usize {
    let theirs = usize::from(p.piece.color != perspective);
    let kind = theirs * 2 * Role::COUNT + usize::from(p.face_down) * Role::COUNT + p.piece.role.index();
    let rank = (geom.relative_rank(perspective, p.sq) as usize).min(RANKS - 1);
    let file = (p.sq.file() as usize).min(FILES - 1);
    kind * FILES * RANKS + rank * FILES + file
}

/// The pieces of the core position `pos`, those on `face_down` marked face down.
pub fn pieces_of(pos: &Position, face_down: Bitboard) -> Vec<PieceOn> {
    pos.occupied()
        .into_iter()
        .filter_map(|sq| pos.piece_at(sq).map(|piece| PieceOn { sq, piece, face_down: face_down.contains(sq) }))
        .collect()
}
