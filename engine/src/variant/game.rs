//! A variant game in progress with the end rules of RULES.md §X4-X6, §K7 and §S11: no legal
//! action loses; third repetition draws unless one side checked throughout (perpetual check
//! loses); 60 moves per side without capture draws; no attacking material draws (face-down
//! pieces count as able); grinding loses; negotiation ends by resignation or agreed draw.

use super::config::Family;
use super::state::{Action, Agreement, ChanceOutcome, State};
use crate::outcome::{EndReason, Outcome};
use crate::piece::Color;

/// One record entry.
#[derive(Clone, Debug)]
pub struct Ply {
    /// The action.
    pub action: Action,
    /// What chance decided after it, if anything.
    pub chance: Option<ChanceOutcome>,
    /// Record text (RULES.md §F8 reveal letters included).
    pub text: String,
    hash: u64,
    gave_check: bool,
    mover: Color,
}

/// How a variant game ended, extending [`EndReason`] with the variant rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VariantEnd {
    /// A §X rule.
    Rule(Outcome),
    /// §K7 grinding: the side lost.
    Grinding(Color),
    /// §S11 resignation after a demand.
    Resigned(Color),
    /// §S11 agreed draw.
    AgreedDraw,
}

impl VariantEnd {
    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        match *self {
            VariantEnd::Rule(Outcome::Win { winner, .. }) => Some(winner),
            VariantEnd::Grinding(c) | VariantEnd::Resigned(c) => Some(c.opponent()),
            _ => None,
        }
    }

    /// Short description, e.g. `checkmate`, `grinding`.
    pub fn reason(&self) -> &'static str {
        match self {
            VariantEnd::Rule(Outcome::Win { reason, .. }) | VariantEnd::Rule(Outcome::Draw { reason }) => reason.name(),
            VariantEnd::Grinding(_) => "grinding",
            VariantEnd::Resigned(_) => "resignation",
            VariantEnd::AgreedDraw => "agreed draw",
        }
    }

    /// PGN-style result: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner() {
            Some(Color::Red) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// Draws one chance outcome from `outcomes` (probabilities summing to 1) with `rng`, by
/// inverse-CDF sampling; the last outcome absorbs rounding.
pub fn draw_outcome(outcomes: &[(ChanceOutcome, f64)], rng: &mut impl rand::Rng) -> ChanceOutcome {
    let x: f64 = rng.random();
    let mut acc = 0.0;
    for (o, p) in outcomes {
        acc += p;
        if x < acc {
            return *o;
        }
    }
    outcomes.last().map(|(o, _)| *o).unwrap_or(ChanceOutcome { mover: None, captured: None })
}

/// A game of any variant: the full state and its history.
#[derive(Clone)]
pub struct VariantGame {
    state: State,
    start_hash: u64,
    plies: Vec<Ply>,
}

impl VariantGame {
    /// A game from `state`.
    pub fn new(state: State) -> VariantGame {
        VariantGame { start_hash: state.hash(), state, plies: Vec::new() }
    }

    /// The current full state.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The record so far.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// Plays a legal action; if it leaves a chance node, `chance` picks the outcome from the
    /// list of outcomes and probabilities (e.g. by sampling).
    pub fn play(&mut self, a: Action, chance: impl FnOnce(&[(ChanceOutcome, f64)]) -> ChanceOutcome) {
        let before = self.state.clone();
        let mover = self.state.turn();
        self.state.apply(a);
        let mut outcome = None;
        if self.state.is_chance() {
            let o = chance(&self.state.chance_outcomes());
            self.state.apply_chance(o);
            outcome = Some(o);
        }
        let text = super::notation::record_string(&before, a, outcome);
        let gave_check = is_board_action(a) && side_in_check(&self.state);
        self.plies.push(Ply { action: a, chance: outcome, text, hash: self.state.hash(), gave_check, mover });
    }

    /// The end of the game, if reached.
    pub fn outcome(&self) -> Option<VariantEnd> {
        let s = &self.state;
        match s.agreement() {
            Some(Agreement::Resigned(c)) => return Some(VariantEnd::Resigned(c)),
            Some(Agreement::Drawn) => return Some(VariantEnd::AgreedDraw),
            None => {}
        }
        if let Some(c) = s.grind_loss() {
            return Some(VariantEnd::Grinding(c));
        }
        let pos = s.position();
        let end = &pos.rules().end;
        if s.legal_actions().is_empty() {
            let reason = if side_in_check(s) { EndReason::Checkmate } else { EndReason::Stalemate };
            return Some(VariantEnd::Rule(Outcome::Win { winner: s.turn().opponent(), reason }));
        }
        if end.repetition {
            if let Some(o) = self.repetition() {
                return Some(VariantEnd::Rule(o));
            }
        }
        if let Some(limit) = end.no_capture_plies {
            if pos.halfmove() >= limit {
                return Some(VariantEnd::Rule(Outcome::Draw { reason: EndReason::NoCapture }));
            }
        }
        if end.no_attacker_draw && !pos.has_attacking_material() && s.face_down().is_empty() {
            return Some(VariantEnd::Rule(Outcome::Draw { reason: EndReason::NoAttackers }));
        }
        None
    }

    fn repetition(&self) -> Option<Outcome> {
        let h = self.state.hash();
        let n = self.plies.len();
        // Occurrences: the start and the position after each move or flip, the current one
        // included. A negotiation action (§S11) leaves the position as it was, so the plies of a
        // demand and its answer are not new occurrences of it.
        let mut count = 0;
        let mut first = n;
        for i in (0..=n).rev() {
            let (hash_at, counts) =
                if i == 0 { (self.start_hash, true) } else { (self.plies[i - 1].hash, is_board_action(self.plies[i - 1].action)) };
            if counts && hash_at == h {
                count += 1;
                first = i;
                if count == 3 {
                    break;
                }
            }
        }
        if count < 3 {
            return None;
        }
        if !self.state.position().rules().end.perpetual_check_loses {
            return Some(Outcome::Draw { reason: EndReason::Repetition });
        }
        let mut checks = [true, true];
        for p in &self.plies[first..n] {
            if is_board_action(p.action) && !p.gave_check {
                checks[p.mover.index()] = false;
            }
        }
        Some(match (checks[0], checks[1]) {
            (true, false) => Outcome::Win { winner: Color::Black, reason: EndReason::PerpetualCheck },
            (false, true) => Outcome::Win { winner: Color::Red, reason: EndReason::PerpetualCheck },
            _ => Outcome::Draw { reason: EndReason::Repetition },
        })
    }
}

/// A move or a flip: an action that changes the position (negotiation actions do not).
fn is_board_action(a: Action) -> bool {
    matches!(a, Action::Move { .. } | Action::Flip { .. })
}

/// Whether the side to move is in check; in King chess by §K6 (an enemy king piece gives no
/// check, the flying-general rule still holds).
fn side_in_check(s: &State) -> bool {
    if s.variant().family == Family::King {
        s.king_general_attacked(s.position().turn())
    } else {
        s.position().in_check()
    }
}
