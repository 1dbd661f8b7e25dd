//! Game end by rule (RULES.md §X4-X6): mate and stalemate lose, third repetition draws unless one
//! side checked throughout the cycle (perpetual check loses; both: draw), 60 moves per side without
//! capture draws, no attacking material draws. Each rule is switchable in [`crate::rules::EndRules`].

use crate::moves::Move;
use crate::piece::Color;
use crate::position::{Position, Undo};

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: EndReason,
    },
    /// Drawn.
    Draw {
        /// Why.
        reason: EndReason,
    },
}

/// The rule that ended a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// §X4: the side to move is in check and has no legal move.
    Checkmate,
    /// §X4: the side to move is not in check and has no legal move (it loses).
    Stalemate,
    /// §X6: third repetition.
    Repetition,
    /// §X6: the side that checked on every move of the repetition cycle loses.
    PerpetualCheck,
    /// §X6 [R]: 120 plies without capture.
    NoCapture,
    /// §X6: neither side can reach the other half.
    NoAttackers,
}

impl EndReason {
    /// Short name used in reports and records.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "repetition",
            EndReason::PerpetualCheck => "perpetual check",
            EndReason::NoCapture => "60-move rule",
            EndReason::NoAttackers => "no attacking material",
        }
    }
}

/// One ply of history: the hash after it and whether it gave check.
#[derive(Copy, Clone, Debug)]
struct Ply {
    hash: u64,
    gave_check: bool,
    mv: Move,
    undo: Undo,
}

/// A game in progress: the position plus the history that the end rules need.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    start_hash: u64,
    plies: Vec<Ply>,
}

impl Game {
    /// A game starting from `position`.
    pub fn new(position: Position) -> Game {
        Game { start_hash: position.hash(), position, plies: Vec::new() }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Moves played so far.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.plies.iter().map(|p| p.mv)
    }

    /// Number of plies played.
    pub fn ply_count(&self) -> usize {
        self.plies.len()
    }

    /// Plays a legal move.
    pub fn play(&mut self, m: Move) {
        let undo = self.position.play(m);
        let gave_check = self.position.in_check();
        self.plies.push(Ply { hash: self.position.hash(), gave_check, mv: m, undo });
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let p = self.plies.pop()?;
        self.position.unplay(p.mv, p.undo);
        Some(p.mv)
    }

    /// The outcome if the game has ended by rule, else `None`.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = &self.position;
        let end = &pos.rules().end;
        let to_move = pos.turn();
        if pos.legal_moves().is_empty() {
            let reason = if pos.in_check() { EndReason::Checkmate } else { EndReason::Stalemate };
            return Some(Outcome::Win { winner: to_move.opponent(), reason });
        }
        if end.repetition {
            if let Some(o) = self.repetition_outcome() {
                return Some(o);
            }
        }
        if let Some(limit) = end.no_capture_plies {
            if pos.halfmove() >= limit {
                return Some(Outcome::Draw { reason: EndReason::NoCapture });
            }
        }
        if end.no_attacker_draw && !pos.has_attacking_material() {
            return Some(Outcome::Draw { reason: EndReason::NoAttackers });
        }
        None
    }

    /// §X6: if the current position occurs for the third time (same side to move), a draw, or a
    /// loss for the side that checked on every one of its moves since the first occurrence.
    fn repetition_outcome(&self) -> Option<Outcome> {
        let n = self.plies.len();
        let h = self.position.hash();
        // Occurrences of the current position, scanning back over plies with the same side to move.
        let mut occurrences = 1;
        let mut first = n;
        let mut i = n;
        while i >= 2 {
            i -= 2;
            let hash_at = if i == 0 { self.start_hash } else { self.plies[i - 1].hash };
            if hash_at == h {
                occurrences += 1;
                first = i;
                if occurrences == 3 {
                    break;
                }
            }
        }
        if occurrences < 3 {
            return None;
        }
        if !self.position.rules().end.perpetual_check_loses {
            return Some(Outcome::Draw { reason: EndReason::Repetition });
        }
        // Plies first..n were played in the cycle; ply k was made by the side to move at k.
        let mover_now = self.position.turn(); // side to move now also moved at plies first, first+2, ...
        let mut checks = [true, true];
        for (k, p) in self.plies[first..n].iter().enumerate() {
            let mover = if k % 2 == 0 { mover_now } else { mover_now.opponent() };
            if !p.gave_check {
                checks[mover.index()] = false;
            }
        }
        match (checks[0], checks[1]) {
            (true, false) => Some(Outcome::Win { winner: Color::Black, reason: EndReason::PerpetualCheck }),
            (false, true) => Some(Outcome::Win { winner: Color::Red, reason: EndReason::PerpetualCheck }),
            _ => Some(Outcome::Draw { reason: EndReason::Repetition }),
        }
    }
}
