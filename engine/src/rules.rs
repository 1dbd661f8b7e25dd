//! The rule table of a variant: board, where each piece type may stand, and the game-end rules
//! (RULES.md §X1-X6). Decided once when the table is built; the move generator reads masks, never
//! per-node flags.

use crate::attacks::Attacks;
use crate::bitboard::Bitboard;
use crate::piece::{Color, Role};
use std::sync::OnceLock;

/// Game-end rules of RULES.md §X4-X6, each switchable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndRules {
    /// §X6: the third occurrence of a position (same side to move) ends the game.
    pub repetition: bool,
    /// §X6: in a repetition, a side that gave check on every one of its moves of the cycle loses
    /// (both sides: draw). Without it every repetition is a draw.
    pub perpetual_check_loses: bool,
    /// §X6 [R]: in a repetition, perpetual chase (Asian/AXF rules) loses as perpetual check does
    /// ([`crate::repetition`]); judged only with `perpetual_check_loses`. Option `chase = off`.
    pub chase: bool,
    /// §X6 [R]: plies without a capture after which the game is drawn (Pikafish `rule60`: 120);
    /// `None` switches the rule off.
    pub no_capture_plies: Option<u32>,
    /// §X6 [R]: once a side has given 10 checks in the no-capture count, its further checks and
    /// the replies to them do not advance it (Pikafish, AXF). Option `rule60_check_cap = off`.
    pub rule60_check_cap: bool,
    /// §X6: a position where neither side has a piece that can reach the other half is drawn.
    pub no_attacker_draw: bool,
}

impl Default for EndRules {
    fn default() -> Self {
        EndRules { repetition: true, perpetual_check_loses: true, chase: true, no_capture_plies: Some(120), rule60_check_cap: true, no_attacker_draw: true }
    }
}

/// A variant's position rules: geometry and attack tables, piece regions, end rules.
#[derive(Clone, Debug)]
pub struct Rules {
    /// Attack tables, which also carry the geometry.
    pub attacks: &'static Attacks,
    /// `region[color][role]`: points where a piece of that colour and type may stand and move to
    /// (§X2: general and advisor in the palace, elephant in its own half, others anywhere).
    pub region: [[Bitboard; Role::COUNT]; 2],
    /// `reachable[color][role]`: points a piece can ever occupy, from its start points, by its
    /// moves on an empty board (used to reject impossible FEN placements).
    pub reachable: [[Bitboard; Role::COUNT]; 2],
    /// Whether advisors or elephants of one side can ever reach the other side's general, so that
    /// check detection must test them (false in standard xiangqi).
    pub minor_attacks_general: bool,
    /// Whether a side may have at most the start array's number of pieces of each type on the
    /// board by the type it moves as (false in Fan-qi, where face-down pieces move as their start
    /// point's type whatever they are).
    pub limit_counts: bool,
    /// Game-end rules.
    pub end: EndRules,
}

impl Rules {
    /// Standard xiangqi on the 9x10 board (RULES.md §X).
    pub fn standard() -> &'static Rules {
        static R: OnceLock<Rules> = OnceLock::new();
        R.get_or_init(|| Rules::standard_with(EndRules::default()))
    }

    /// Standard xiangqi with the given end rules.
    pub fn standard_with(end: EndRules) -> Rules {
        let attacks = Attacks::standard();
        let g = &attacks.geometry;
        let mut region = [[g.board; Role::COUNT]; 2];
        for c in Color::ALL {
            region[c.index()][Role::General.index()] = g.palace[c.index()];
            region[c.index()][Role::Advisor.index()] = g.palace[c.index()];
            region[c.index()][Role::Elephant.index()] = g.half[c.index()];
        }
        let mut rules =
            Rules {
            attacks,
            region,
            reachable: [[g.board; Role::COUNT]; 2],
            minor_attacks_general: false,
            limit_counts: true,
            end,
        };
        rules.reachable = rules.compute_reachable();
        rules
    }

    /// The start points of each type in the standard array (RULES.md §X1), by colour.
    pub fn start_points(&self, color: Color, role: Role) -> Bitboard {
        let g = &self.attacks.geometry;
        let files: &[u8] = match role {
            Role::General => &[4],
            Role::Advisor => &[3, 5],
            Role::Elephant => &[2, 6],
            Role::Horse => &[1, 7],
            Role::Chariot => &[0, 8],
            Role::Cannon => &[1, 7],
            Role::Soldier => &[0, 2, 4, 6, 8],
        };
        let rank = match role {
            Role::Cannon => 2,
            Role::Soldier => 3,
            _ => 0,
        };
        let rank = match color {
            Color::Red => rank,
            Color::Black => g.ranks - 1 - rank,
        };
        let mut bb = Bitboard::EMPTY;
        for &f in files {
            if let Some(sq) = g.square(f, rank) {
                bb.set(sq);
            }
        }
        bb
    }

    /// Flood fill from the start points with empty-board moves inside each region.
    fn compute_reachable(&self) -> [[Bitboard; Role::COUNT]; 2] {
        let a = self.attacks;
        let mut out = [[Bitboard::EMPTY; Role::COUNT]; 2];
        for c in Color::ALL {
            for role in Role::ALL {
                let region = self.region[c.index()][role.index()];
                let mut seen = self.start_points(c, role);
                let mut frontier = seen;
                while frontier.any() {
                    let mut next = Bitboard::EMPTY;
                    for sq in frontier {
                        let steps = match role {
                            Role::General => a.orthogonal[sq.index()],
                            Role::Advisor => a.diagonal[sq.index()],
                            Role::Elephant => a.elephant_targets(sq, Bitboard::EMPTY),
                            Role::Horse => a.horse_targets(sq, Bitboard::EMPTY),
                            Role::Chariot | Role::Cannon => a.chariot(sq, Bitboard::EMPTY),
                            Role::Soldier => a.soldier[c.index()][sq.index()],
                        };
                        next |= steps & region & !seen;
                    }
                    seen |= next;
                    frontier = next;
                }
                out[c.index()][role.index()] = seen;
            }
        }
        out
    }
}
