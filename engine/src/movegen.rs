//! Legal move generation for the position core (RULES.md §X2-X4).
//!
//! Pseudo-legal moves come from the attack tables masked by each type's region; a move is then
//! kept if it does not leave the mover's general attacked (§X4) or facing the other general
//! (§X3). Most moves are proven safe without making them: when the side to move is not in check,
//! a move of a piece other than the general can only expose the general by leaving a point on
//! the general's rank or file or a horse-leg point next to it, or by landing on the general's rank
//! or file (a new cannon screen). Only those moves are tested in full.

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::piece::Role;
use crate::position::Position;

impl Position {
    /// Appends every pseudo-legal move of the side to move (moves by §X2 shapes and regions,
    /// captures of enemy pieces only; the general's safety is not checked).
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        let us = self.turn();
        let ui = us.index();
        let rules = self.rules();
        let a = rules.attacks;
        let occ = self.occupied();
        let own = self.by_color(us);
        let enemy = self.by_color(us.opponent());
        let not_own = !own;
        let mut add = |from, targets: Bitboard| {
            for to in targets {
                list.push(Move::new(from, to));
            }
        };
        for from in self.pieces(us, Role::Chariot) {
            add(from, a.chariot(from, occ) & not_own);
        }
        for from in self.pieces(us, Role::Horse) {
            add(from, a.horse_targets(from, occ) & not_own & rules.region[ui][Role::Horse.index()]);
        }
        for from in self.pieces(us, Role::Cannon) {
            add(from, (a.chariot(from, occ) & !occ) | (a.cannon_captures(from, occ) & enemy));
        }
        for from in self.pieces(us, Role::Soldier) {
            add(from, a.soldier[ui][from.index()] & not_own & rules.region[ui][Role::Soldier.index()]);
        }
        for from in self.pieces(us, Role::Advisor) {
            add(from, a.diagonal[from.index()] & not_own & rules.region[ui][Role::Advisor.index()]);
        }
        for from in self.pieces(us, Role::Elephant) {
            add(from, a.elephant_targets(from, occ) & not_own & rules.region[ui][Role::Elephant.index()]);
        }
        let g = self.general(us);
        add(g, a.orthogonal[g.index()] & not_own & rules.region[ui][Role::General.index()]);
    }

    /// All legal moves of the side to move (§X2-X4).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.pseudo_legal_moves(&mut list);
        self.retain_legal(&mut list);
        list
    }

    /// Removes from `list` the pseudo-legal moves that leave the mover's general attacked.
    #[inline]
    pub fn retain_legal(&self, list: &mut MoveList) {
        let us = self.turn();
        let a = self.rules().attacks;
        let g = self.general(us);
        if self.in_check() {
            list.retain(|m| !self.leaves_general_attacked(*m));
            return;
        }
        let lines = a.lines(g);
        let risky_from = lines | a.diagonal[g.index()] | Bitboard::from_square(g);
        list.retain(|m| {
            if !risky_from.contains(m.from) && !lines.contains(m.to) {
                return true;
            }
            !self.leaves_general_attacked(*m)
        });
    }

    /// Number of legal moves (for bulk-counted perft).
    #[inline]
    pub fn count_legal(&self) -> usize {
        self.legal_moves().len()
    }

    /// Whether `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }
}
