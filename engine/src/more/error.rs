//! Typed errors of the RULES-more.md games.

/// What went wrong reading or applying input for a RULES-more.md game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoreError {
    /// A geometry description that cannot be built (§1.2, §2.3, §3.2).
    #[error("geometry: {0}")]
    Geometry(String),
    /// Not a square of this board.
    #[error("not a square of this board: {0:?}")]
    Square(String),
    /// A FEN that cannot be read (docs/notation.md §5).
    #[error("FEN: {0}")]
    Fen(String),
    /// A move string that cannot be read, or a move that is not legal here.
    #[error("move: {0}")]
    Move(String),
    /// A bot spec that cannot be built.
    #[error("bot: {0}")]
    Bot(String),
    /// A RULES.md variant's action or state error (a variant played through
    /// [`super::presets::Playable`]: `crate::variant::playable`).
    #[error(transparent)]
    Variant(#[from] crate::variant::state::StateError),
    /// A preset name this module does not know.
    #[error("unknown preset {0:?}")]
    UnknownPreset(String),
    /// A rule file ([`super::config`]) that cannot be read: the file, the key, what is wrong.
    #[error("{file}: {key}: {problem}")]
    RulesFile {
        /// The file (or source name).
        file: String,
        /// The key (`rules.fighter_block`), `-` for the whole file.
        key: String,
        /// What is wrong, with the allowed keys or values.
        problem: String,
    },
}
