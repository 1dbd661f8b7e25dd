//! One ply of any game as one viewer saw it ([`move_seen`]): the move list of the viewer pages
//! ([`super::frames`]) and of the play page ([`crate::serve::session`]). Which rule book writes
//! the ply is chosen by the game's own board ([`Playable::board`]), not by its name.

use super::Viewpoint;
use engine::game::Action;
use engine::more::presets::{Board, Playable};
use engine::variant::game_state::{decode, decode_chance, sees_captured};
use engine::variant::notation::{chinese_record, record_string};
use engine::variant::ChanceOutcome;
use serde::Serialize;

/// One move as written in the move list.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveText {
    /// ICCS with the record letters this viewer saw (`b2b9Nn`, `h0h0R`).
    pub iccs: String,
    /// Chinese notation (`炮二平五`, `马二进三变车`).
    pub chinese: String,
}

/// Player action `a` played at `before` (chance outcome `chance` following it, if any), which the
/// game recorded as `entry` ([`engine::seeded::play_ply`]), as `viewpoint` saw it:
///
/// - a RULES.md variant ([`Board::Variant`]): the record string and the Chinese record with the
///   revealed types (RULES.md §F8); a side's text drops a captured face-down identity that side
///   did not see (§F6 and the variant's capture-knowledge option, [`sees_captured`]);
/// - a RULES-more.md game ([`Board::Grid`]): the record entry and [`Playable::chinese`], the same
///   for every viewer (nothing in a ply's text is hidden there: secret placements and tiles are
///   written as what the mover did, which the view FEN already shows).
pub fn move_seen<G: Playable>(before: &G, a: Action, chance: Option<Action>, entry: &str, viewpoint: Viewpoint) -> MoveText {
    match (before.board(), decode(a)) {
        (Board::Variant { state, .. }, Some(va)) => {
            let mover = state.turn();
            let outcome = chance.and_then(decode_chance);
            let seen = match (viewpoint.side(), outcome) {
                (Some(side), Some(o)) if o.captured.is_some() && !sees_captured(state, mover, side) => Some(ChanceOutcome { mover: o.mover, captured: None }),
                (_, o) => o,
            };
            MoveText { iccs: record_string(state, va, seen), chinese: chinese_record(state, va, seen) }
        }
        _ => MoveText { iccs: entry.to_string(), chinese: before.chinese(a) },
    }
}
