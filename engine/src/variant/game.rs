//! The end rules of a variant game (RULES.md §X4-X6, §K7 and §S11, [`end_by_rule`], played by
//! [`super::game_state::VariantGameState`]) and its record entries ([`Ply`]): no legal
//! action loses; third repetition draws unless one side checked or chased throughout (perpetual
//! check or chase loses, [`crate::repetition`]); 60 moves per side without capture draws; no attacking material draws (face-down
//! pieces count as able); grinding loses; negotiation ends by resignation or agreed draw.

use super::state::{Action, Agreement, ChanceOutcome, State};
use crate::outcome::{EndReason, Outcome};
use crate::piece::Color;
use crate::repetition::RecordPly;

/// One record entry: a player action, the chance outcome that followed it, and its record text
/// ([`Ply::new`]). What a caller keeps when it needs the texts of a game
/// ([`super::game_state::VariantGameState`] keeps the public record, not the texts).
#[derive(Clone, Debug)]
pub struct Ply {
    /// The action.
    pub action: Action,
    /// What chance decided after it, if anything.
    pub chance: Option<ChanceOutcome>,
    /// Record text (RULES.md §F8 reveal letters included).
    pub text: String,
}

impl Ply {
    /// The entry of `action` played at `before`, followed by `chance` (RULES.md §F8 reveal
    /// letters in the text: [`super::notation::record_string`]).
    pub fn new(before: &State, action: Action, chance: Option<ChanceOutcome>) -> Ply {
        Ply { action, chance, text: super::notation::record_string(before, action, chance) }
    }
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
/// inverse-CDF sampling, the last outcome absorbing rounding ([`crate::game::draw_weighted`]);
/// the outcome that reveals nothing when `outcomes` is empty.
pub fn draw_outcome(outcomes: &[(ChanceOutcome, f64)], rng: &mut impl rand::Rng) -> ChanceOutcome {
    crate::game::draw_weighted(outcomes, rng).unwrap_or(ChanceOutcome { mover: None, captured: None })
}

/// The end of a RULES.md game by rule, if reached, checked in this order: a §S11 agreement
/// (resignation or agreed draw), §K7 grinding, no legal action (checkmate or stalemate, §X5),
/// the repetition rules (§X6; judged on `record`, the public record of every ply, with the
/// start's public hash `start_hash` when known), the no-capture rule and no attacking material
/// with no piece face down. `has_legal` is asked only once the first two did not end the game.
/// The one rule text of the contract's [`super::game_state::VariantGameState`].
pub fn end_by_rule(s: &State, has_legal: impl FnOnce() -> bool, start_hash: Option<u64>, record: &[RecordPly]) -> Option<VariantEnd> {
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
    if !has_legal() {
        let reason = if s.side_in_check() { EndReason::Checkmate } else { EndReason::Stalemate };
        return Some(VariantEnd::Rule(Outcome::Win { winner: s.turn().opponent(), reason }));
    }
    if end.repetition {
        if let Some(o) = crate::repetition::judge(end, pos, start_hash, record, 3, record.len()) {
            return Some(VariantEnd::Rule(o));
        }
    }
    if crate::repetition::no_capture_draw(end, pos.halfmove(), record) {
        return Some(VariantEnd::Rule(Outcome::Draw { reason: EndReason::NoCapture }));
    }
    if end.no_attacker_draw && !pos.has_attacking_material() && s.face_down().is_empty() {
        return Some(VariantEnd::Rule(Outcome::Draw { reason: EndReason::NoAttackers }));
    }
    None
}
