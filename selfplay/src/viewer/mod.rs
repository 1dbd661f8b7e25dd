//! Looking at games: board pictures ([`picture`], drawn by [`svg`] and rasterised by [`png`]) of
//! every game as one viewer sees it, records turned into frames for the viewer page
//! ([`frames`], [`page`]), and the files they are written to ([`write_atomic`]).

pub mod frames;
pub mod page;
pub mod picture;
pub mod png;
pub mod seen;
pub mod svg;

pub use picture::{Mark, Picture, PictureError, Token, Viewpoint};

use engine::more::presets::Playable;
use picture::PictureOptions;

/// The picture of any game's position as `viewpoint` sees it, drawn by the game itself
/// ([`Playable::picture`]), marking the move written `last`; `beliefs` draws a side's belief
/// over hidden identities (RULES.md variants).
///
/// # Errors
/// [`PictureError`] when a RULES-more.md FEN does not fit its board or `last` is no move on it.
pub fn picture_of<G: Playable>(g: &G, viewpoint: Viewpoint, last: Option<&str>, beliefs: bool) -> Result<Picture, PictureError> {
    picture_with(g, viewpoint, last, beliefs, None)
}

/// [`picture_of`], and for the full view the identities `dealt` fixes in advance but the state
/// has not revealed yet (a RULES.md variant record's deal; ignored for side views and by the
/// games that deal nothing in advance).
///
/// # Errors
/// As [`picture_of`].
pub fn picture_with<G: Playable>(
    g: &G,
    viewpoint: Viewpoint,
    last: Option<&str>,
    beliefs: bool,
    dealt: Option<&dyn Fn(engine::Square) -> Option<engine::Role>>,
) -> Result<Picture, PictureError> {
    g.picture(viewpoint, &PictureOptions { last, beliefs, dealt })
}

use std::path::Path;

/// Writes `bytes` to `path` through a temporary name in the same directory and a rename, so a
/// reader never sees a half-written file.
///
/// # Errors
/// I/O, naming the path.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    engine::fsio::write_atomic(path, bytes)
}
