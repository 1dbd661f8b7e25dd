//! Game end by rule (RULES.md §X4-X6): mate and stalemate lose, third repetition draws unless one
//! side checked or chased throughout the cycle (perpetual check or chase loses; both: draw; the
//! rules are those of [`crate::repetition`]), 60 moves per side without capture draws (with the
//! 10-check cap), no attacking material draws. Each rule is switchable in [`crate::rules::EndRules`].

use crate::moves::Move;
use crate::piece::Color;
use crate::position::{Position, Undo};
use crate::repetition::RecordPly;

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

impl Outcome {
    /// The winner, `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match *self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }
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
    /// §X6 [R]: the side that chased an enemy piece on every move of the cycle (Asian rules) loses.
    PerpetualChase,
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
            EndReason::PerpetualChase => "perpetual chase",
            EndReason::NoCapture => "60-move rule",
            EndReason::NoAttackers => "no attacking material",
        }
    }
}

/// One ply of history: what the repetition rules need, and what takes the move back.
#[derive(Copy, Clone, Debug)]
struct Ply {
    record: RecordPly,
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
        let mover = self.position.turn();
        let undo = self.position.play(m);
        let gave_check = self.position.in_check();
        let quiet = undo.captured.is_none().then_some(m);
        let record = RecordPly { hash: self.position.hash(), mover, gave_check, board: true, quiet };
        self.plies.push(Ply { record, mv: m, undo });
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
        let record: Vec<RecordPly> = self.plies.iter().map(|p| p.record).collect();
        if end.repetition {
            if let Some(o) = crate::repetition::judge(end, pos, Some(self.start_hash), &record, 3, record.len()) {
                return Some(o);
            }
        }
        if crate::repetition::no_capture_draw(end, pos.halfmove(), &record) {
            return Some(Outcome::Draw { reason: EndReason::NoCapture });
        }
        if end.no_attacker_draw && !pos.has_attacking_material() {
            return Some(Outcome::Draw { reason: EndReason::NoAttackers });
        }
        None
    }
}
