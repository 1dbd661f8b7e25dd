//! One ply of any game as one viewer saw it ([`move_seen`]): the move list of the viewer pages
//! ([`super::frames`]) and of the play page ([`crate::serve::session`]), written by the game
//! itself ([`Playable::move_text`]).

use super::Viewpoint;
use engine::game::Action;
use engine::more::presets::Playable;

pub use engine::picture::MoveText;

/// Player action `a` played at `before` (chance outcome `chance` following it, if any), which the
/// game recorded as `entry` ([`engine::seeded::play_ply`]), as `viewpoint` saw it
/// ([`Playable::move_text`]: a RULES.md variant's side does not read a captured identity it did
/// not see, RULES.md §F6, §F8).
pub fn move_seen<G: Playable>(before: &G, a: Action, chance: Option<Action>, entry: &str, viewpoint: Viewpoint) -> MoveText {
    before.move_text(a, chance, entry, viewpoint.side())
}
