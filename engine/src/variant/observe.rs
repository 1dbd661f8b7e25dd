//! [`VariantGameState`] as a learning player sees it ([`Observe`]): the variant encoding of
//! [`super::encoding`] (`docs/encoding.md`) behind the game contract of [`crate::observe`].
//!
//! * Observation of `player`: [`super::encoding::encode_into`] of `player`'s [`View`] of the
//!   state as it stands, from `player`'s side of the board. It is a function of the view only, so
//!   two states of one information set give one tensor. At a chance node (a pending reveal, or a
//!   deal root) it is the same: the view of the state as it stands, as [`Game::infoset_key`] does.
//!   At a deal root that is the view of the first dealt state — no player decides there, so no
//!   net reads it; callers that need "nothing known yet" must not ask at a deal root.
//! * Action index: the variant action of a code ([`decode`]) at its slot for the side to act
//!   ([`super::encoding::action_index`]); [`Observe::index_action`] is the inverse through
//!   [`encode`]. Chance codes (reveals, deals) have no slot.
//!
//! The encoding needs the 9x10 board ([`super::encoding::check_variant`]); every RULES.md variant
//! has it (they all use the standard geometry), and [`super::encoding::encoding_for`] refuses a
//! variant that does not.

use super::encoding;
use super::game_state::{color_of, decode, encode, VariantGameState};
use super::View;
use crate::game::{Action, PlayerId};
use crate::observe::{Encoding, Observe};

impl Observe for VariantGameState {
    /// [`encoding::encoding`]: `"variants"` v1, 58 x 10 x 9, 271 board channels + 21 extra slots.
    fn encoding(&self) -> Encoding {
        encoding::encoding()
    }

    /// # Panics
    /// When `out` is not [`encoding::OBS_LEN`] floats long.
    fn observe_into(&self, player: PlayerId, out: &mut [f32]) {
        encoding::encode_into(&View::new(self.state(), color_of(player)), out);
    }

    /// # Panics
    /// When `action` is not a player-action code (a reveal or a deal outcome).
    fn action_index(&self, action: Action) -> usize {
        let a = decode(action).unwrap_or_else(|| panic!("action {action:#x?} is not a player action"));
        encoding::action_index(a, self.state().turn())
    }

    fn index_action(&self, index: usize) -> Option<Action> {
        encoding::index_action(index, self.state().turn()).map(encode)
    }
}
