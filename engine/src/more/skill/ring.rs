//! T9 外环车 Ring-road Chariot (RULES-more.md §1.6 T9, §1.10 #14): the ring run of a chariot
//! along the board's outer ring turning once at a corner (reading A, the default), or any L path
//! with one turn at an empty square (reading B, [`RingReading::LShape`]).

use super::super::geometry::{Sq, ORTHO};
use super::super::piece::Kind;
use super::position::{SMove, SkillPosition};
use super::rules::RingReading;
use crate::piece::Color;

impl SkillPosition {
    /// T9 (RULES-more.md §1.6 T9, §1.10 #14): the ring road (reading A: from an edge square,
    /// a corner included, along the edge to a corner through empty squares, then along the
    /// adjacent edge, move or exchange) or any L path (reading B).
    pub(super) fn ring_moves(&self, from: Sq, c: Color, out: &mut Vec<SMove>) {
        let g = self.geo();
        let b = &self.board;
        let push_leg = |start: Sq, dx: i8, dy: i8, out: &mut Vec<SMove>| {
            let mut s = start;
            while let Some(to) = g.offset(s, dx, dy) {
                match b.get(to) {
                    None => out.push(SMove { from, to, exchange: false, promote: None }),
                    Some(x) => {
                        if x.color != c && x.kind != Kind::General {
                            out.push(SMove { from, to, exchange: true, promote: None });
                        }
                        break;
                    }
                }
                s = to;
            }
        };
        match self.rules.ring {
            RingReading::Perimeter => {
                let (f, r) = (g.file(from), g.rank(from));
                let (lf, lr) = (g.files - 1, g.ranks - 1);
                let on_v = f == 0 || f == lf; // on a side file
                let on_h = r == 0 || r == lr; // on an end rank
                let (ix, iy) = (if f == 0 { 1 } else { -1 }, if r == 0 { 1 } else { -1 });
                // (run dx, dy to a corner, then turn tx, ty): along a side file to either corner
                // and inward along the end rank there, along an end rank to either corner and
                // inward along the side file there. A corner square is on both edges ([R] corner
                // start): it runs along either edge to the next corner and turns there; a run
                // that passes no square (turning on the start corner) is a straight move, skipped.
                let mut legs: Vec<(i8, i8, i8, i8)> = Vec::with_capacity(4);
                if on_v {
                    legs.extend([(0, -1, ix, 0), (0, 1, ix, 0)]);
                }
                if on_h {
                    legs.extend([(-1, 0, 0, iy), (1, 0, 0, iy)]);
                }
                for (dx, dy, tx, ty) in legs {
                    // Walk to the corner: every square passed, corner included, empty.
                    let mut s = from;
                    let mut ok = true;
                    while let Some(n) = g.offset(s, dx, dy) {
                        if !b.is_empty(n) {
                            ok = false;
                            break;
                        }
                        s = n;
                    }
                    if ok && s != from {
                        push_leg(s, tx, ty, out);
                    }
                }
            }
            RingReading::LShape => {
                for (dx, dy) in ORTHO {
                    let mut s = from;
                    while let Some(n) = g.offset(s, dx, dy) {
                        if !b.is_empty(n) {
                            break;
                        }
                        for (tx, ty) in [(dy, dx), (-dy, -dx)] {
                            push_leg(n, tx, ty, out);
                        }
                        s = n;
                    }
                }
            }
        }
    }
}
