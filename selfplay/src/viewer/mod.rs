//! Looking at games: board pictures ([`picture`], drawn by [`svg`] and rasterised by [`png`]) of
//! every game as one viewer sees it, records turned into frames for the viewer page
//! ([`frames`], [`page`]), and the files they are written to ([`write_atomic`]).

pub mod frames;
pub mod more_picture;
pub mod page;
pub mod picture;
pub mod png;
pub mod svg;
pub mod variant_picture;

pub use picture::{Picture, Token, Viewpoint};

use std::path::Path;

/// Writes `bytes` to `path` through a temporary name in the same directory and a rename, so a
/// reader never sees a half-written file.
///
/// # Errors
/// I/O, naming the path.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    engine::fsio::write_atomic(path, bytes)
}
