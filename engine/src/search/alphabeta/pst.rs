//! The evaluation of the core searcher: material and piece-square tables (see the module
//! documentation of [`super`]).

use super::INF;
use crate::piece::{Color, Role};
use crate::position::Position;


/// Material value of a piece type in centipawns (a soldier that has crossed the river counts
/// [`SOLDIER_CROSSED`] instead). The general's value only orders captures.
pub const fn piece_value(role: Role) -> i32 {
    match role {
        Role::General => 10_000,
        Role::Chariot => 900,
        Role::Cannon => 450,
        Role::Horse => 400,
        Role::Advisor | Role::Elephant => 200,
        Role::Soldier => 100,
    }
}

/// Value of a soldier across the river, in centipawns.
pub const SOLDIER_CROSSED: i32 = 200;

/// Piece-square bonuses in centipawns, indexed `[role][relative rank][file]`: rank 0 is the
/// owner's back rank; the tables are symmetric in the files, so they serve both colours.
#[rustfmt::skip]
const PST: [[[i16; 9]; 10]; Role::COUNT] = [
    // General: stay home.
    [
        [  0,   0,   0,  -5,   0,  -5,   0,   0,   0],
        [  0,   0,   0, -15, -10, -15,   0,   0,   0],
        [  0,   0,   0, -25, -20, -25,   0,   0,   0],
        [0; 9], [0; 9], [0; 9], [0; 9], [0; 9], [0; 9], [0; 9],
    ],
    // Advisor: the palace centre.
    [
        [  0,   0,   0,   0,   0,   0,   0,   0,   0],
        [  0,   0,   0,   0,  10,   0,   0,   0,   0],
        [  0,   0,   0,  -5,   0,  -5,   0,   0,   0],
        [0; 9], [0; 9], [0; 9], [0; 9], [0; 9], [0; 9], [0; 9],
    ],
    // Elephant: the centre point e2.
    [
        [  0,   0,   0,   0,   0,   0,   0,   0,   0],
        [0; 9],
        [ -5,   0,   0,   0,  10,   0,   0,   0,  -5],
        [0; 9],
        [  0,   0,  -5,   0,   0,   0,  -5,   0,   0],
        [0; 9], [0; 9], [0; 9], [0; 9], [0; 9],
    ],
    // Horse: centre and the points near the enemy palace; edges and home are poor.
    [
        [-20, -10, -10, -10, -30, -10, -10, -10, -20],
        [-10,   0,   0,   0, -10,   0,   0,   0, -10],
        [-10,   5,  10,   5,   5,   5,  10,   5, -10],
        [ -5,   5,  10,  15,  10,  15,  10,   5,  -5],
        [  0,  10,  15,  20,  15,  20,  15,  10,   0],
        [  0,  15,  20,  25,  20,  25,  20,  15,   0],
        [  5,  20,  25,  30,  25,  30,  25,  20,   5],
        [  5,  25,  30,  35,  30,  35,  30,  25,   5],
        [  0,  20,  35,  25,  10,  25,  35,  20,   0],
        [ -5,   5,  10,  10,   0,  10,  10,   5,  -5],
    ],
    // Chariot: open, advanced, central files.
    [
        [-10,   0,  -5,   5,   0,   5,  -5,   0, -10],
        [ -5,   5,   0,   5,   0,   5,   0,   5,  -5],
        [  0,   5,   5,  10,   5,  10,   5,   5,   0],
        [  0,  10,  10,  15,  15,  15,  10,  10,   0],
        [  5,  15,  15,  20,  20,  20,  15,  15,   5],
        [ 10,  20,  20,  25,  25,  25,  20,  20,  10],
        [ 10,  20,  20,  25,  25,  25,  20,  20,  10],
        [ 10,  20,  20,  30,  30,  30,  20,  20,  10],
        [ 10,  25,  25,  35,  35,  35,  25,  25,  10],
        [  5,  15,  15,  20,  20,  20,  15,  15,   5],
    ],
    // Cannon: the central file and the enemy back rank.
    [
        [  0,   0,   5,  10,  10,  10,   5,   0,   0],
        [  0,   5,   5,   5,   5,   5,   5,   5,   0],
        [  0,   5,   5,  10,  20,  10,   5,   5,   0],
        [  0,   0,   0,   5,  10,   5,   0,   0,   0],
        [  0,   5,   5,   5,  10,   5,   5,   5,   0],
        [  0,   5,   5,   5,  10,   5,   5,   5,   0],
        [  0,   5,   5,   5,  10,   5,   5,   5,   0],
        [  5,   5,   5,  10,  15,  10,   5,   5,   5],
        [  5,   5,   5,   5,  10,   5,   5,   5,   5],
        [ 10,  10,   5,   0,   5,   0,   5,  10,  10],
    ],
    // Soldier: before the river the centre soldier is worth pushing; across it, near the palace.
    [
        [0; 9], [0; 9], [0; 9],
        [  0,   0,   0,   0,   5,   0,   0,   0,   0],
        [  0,   0,   5,   0,  10,   0,   5,   0,   0],
        [-10,   0,  10,  20,  25,  20,  10,   0, -10],
        [  0,  10,  30,  45,  50,  45,  30,  10,   0],
        [  0,  10,  35,  55,  60,  55,  35,  10,   0],
        [  0,  10,  30,  50,  55,  50,  30,  10,   0],
        [-20, -10,   0,   0,   0,   0,   0, -10, -20],
    ],
];

/// Value of `color`'s piece of type `role` on `sq`: material plus the piece-square bonus.
#[inline]
fn piece_square_value(pos: &Position, color: Color, role: Role, sq: crate::geometry::Square) -> i32 {
    let g = &pos.rules().attacks.geometry;
    let rank = (g.relative_rank(color, sq) as usize).min(9);
    let file = (sq.file() as usize).min(8);
    let base = if role == Role::Soldier && !g.in_own_half(color, sq) { SOLDIER_CROSSED } else { piece_value(role) };
    let base = if role == Role::General { 0 } else { base };
    base + PST[role.index()][rank][file] as i32
}

/// [`piece_square_value`] of `color`'s `role` on `sq`, the value a hidden-identity piece's
/// value replaces ([`super::HiddenValues`]): its material with the square's bonus, so that the
/// replaced piece keeps no bonus of the type it only appears to be.
pub(super) fn material_value(pos: &Position, color: Color, role: Role, sq: crate::geometry::Square) -> i32 {
    piece_square_value(pos, color, role, sq)
}

/// Static evaluation of `pos` in centipawns from the side to move's point of view: material
/// (soldiers 100, 200 across the river) plus piece-square bonuses.
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = [0i32; 2];
    for color in Color::ALL {
        let mut total = 0;
        for role in Role::ALL {
            for sq in pos.pieces(color, role) {
                total += piece_square_value(pos, color, role, sq);
            }
        }
        score[color.index()] = total;
    }
    let us = pos.turn().index();
    score[us] - score[1 - us]
}

/// Material (and placement) the side to move gains by capturing `color`'s `role` on `sq`.
pub(super) fn capture_gain(pos: &Position, color: Color, role: Role, sq: crate::geometry::Square) -> i32 {
    if role == Role::General {
        return INF;
    }
    piece_square_value(pos, color, role, sq)
}
