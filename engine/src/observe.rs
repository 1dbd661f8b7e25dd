//! What a learning player sees of a game: an observation tensor whose shape the game declares and
//! a fixed action index, as OpenSpiel's `ObservationTensorShape` / `NumDistinctActions` (Lanctot
//! et al. 2019, arXiv:1908.09453). This is the part of the game contract (issue #17) that nets,
//! shards and checkpoints speak: they take every size from an [`Encoding`] and refuse data made
//! for another one ([`Encoding::check_same`]), so a net trained on one game never silently reads
//! another game's planes.
//!
//! Layout conventions, shared by every implementation so that one net architecture fits all:
//!
//! * the observation is `planes x rows x files` floats, index `plane * rows * files + row * files
//!   + file`, written from the acting player's side (its own back rank is row 0);
//! * the action index has [`PolicyShape::actions`] slots: first `board_channels x points` slots
//!   laid out channel-major (`channel * points + point`, which is exactly what a 1x1 convolution
//!   over the board produces), then `extra` slots (negotiation, set-up choices, anything not tied
//!   to a point);
//! * the observation of `player` is a function of that player's information set only: two states
//!   with equal [`Game::infoset_key`] for `player` give the same tensor (every implementation has
//!   a two-states-one-information-set test).

use crate::game::{Action, Game, PlayerId};
use serde::{Deserialize, Serialize};

/// Shape of an observation tensor: `planes x rows x files`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TensorShape {
    /// Feature planes.
    pub planes: usize,
    /// Board rows (ranks), the acting player's back rank first.
    pub rows: usize,
    /// Board files.
    pub files: usize,
}

impl TensorShape {
    /// Points of one plane (`rows * files`).
    pub const fn points(&self) -> usize {
        self.rows * self.files
    }
    /// Floats in one observation (`planes * rows * files`).
    pub const fn len(&self) -> usize {
        self.planes * self.points()
    }
    /// Whether the tensor holds no floats.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Shape of the action index: `board_channels` slots per board point (channel-major), then
/// `extra` slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PolicyShape {
    /// Slots per board point (channel-major block of `board_channels * points` slots).
    pub board_channels: usize,
    /// Slots after the board block.
    pub extra: usize,
}

/// The sizes a net, a shard and a checkpoint are made for: game, encoding version and shapes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Encoding {
    /// The game family whose encoding this is (`"variants"` for every RULES.md 9x10 game, or a
    /// RULES-more.md game, `"missile"`, `"skill"`, `"camel"`, or `"kuhn"`, `"leduc"`).
    pub game: String,
    /// Version of the game's layout; bumped on any change of planes or action slots.
    pub version: u32,
    /// The observation tensor.
    pub observation: TensorShape,
    /// The action index.
    pub policy: PolicyShape,
}

impl Encoding {
    /// Slots of the action index (`board_channels * points + extra`).
    pub const fn actions(&self) -> usize {
        self.policy.board_channels * self.observation.points() + self.policy.extra
    }
    /// Slots of the board block (`board_channels * points`).
    pub const fn board_slots(&self) -> usize {
        self.policy.board_channels * self.observation.points()
    }
    /// Floats in one observation.
    pub const fn obs_len(&self) -> usize {
        self.observation.len()
    }

    /// Checks that data made for `found` can be used where `self` is expected.
    ///
    /// # Errors
    /// [`EncodingMismatch`] naming both encodings when game, version or a shape differ.
    pub fn check_same(&self, found: &Encoding) -> Result<(), EncodingMismatch> {
        if self == found {
            Ok(())
        } else {
            Err(EncodingMismatch { expected: self.clone(), found: found.clone() })
        }
    }
}

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let o = &self.observation;
        write!(
            f,
            "{} v{} (observation {}x{}x{}, {} actions = {}x{} board + {})",
            self.game,
            self.version,
            o.planes,
            o.rows,
            o.files,
            self.actions(),
            self.policy.board_channels,
            o.points(),
            self.policy.extra
        )
    }
}

/// Data made for one encoding offered where another is expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("encoding mismatch: expected {expected}, found {found}")]
pub struct EncodingMismatch {
    /// What the reader is made for.
    pub expected: Encoding,
    /// What the data was made for.
    pub found: Encoding,
}

/// A game state a net can play: the observation tensor and the fixed action index.
///
/// Requirements (checked per implementation by its tests):
/// * [`encoding`](Observe::encoding) is the same for every state of one game (it may depend on
///   the variant's options, e.g. the board size, fixed when the game is built);
/// * [`observe_into`](Observe::observe_into) writes exactly `encoding().obs_len()` floats and
///   depends only on `player`'s information (equal [`Game::infoset_key`] ⇒ equal tensor);
/// * [`action_index`](Observe::action_index) is injective over the legal actions of a state,
///   below `encoding().actions()`, and [`index_action`](Observe::index_action) inverts it there.
pub trait Observe: Game {
    /// The game's encoding (name, version, shapes).
    fn encoding(&self) -> Encoding;

    /// Writes `player`'s observation into `out` (`encoding().obs_len()` floats, overwritten),
    /// from `player`'s side of the board.
    ///
    /// # Panics
    /// May panic when `out` has the wrong length.
    fn observe_into(&self, player: PlayerId, out: &mut [f32]);

    /// The slot of `action` (a legal action of this state) for the acting player.
    fn action_index(&self, action: Action) -> usize;

    /// The action of slot `index` for the acting player, `None` when the slot means nothing here
    /// (whether it is legal is another matter).
    fn index_action(&self, index: usize) -> Option<Action>;

    /// `player`'s observation as a new vector.
    fn observation(&self, player: PlayerId) -> Vec<f32> {
        let mut out = vec![0.0; self.encoding().obs_len()];
        self.observe_into(player, &mut out);
        out
    }
}
