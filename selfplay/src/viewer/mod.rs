//! Looking at games: board pictures ([`picture`], drawn by [`svg`] and rasterised by [`png`]) of
//! every game as one viewer sees it, records turned into frames for the viewer page
//! ([`frames`], [`page`]), and the files they are written to ([`write_atomic`]).

pub mod frames;
pub mod more_picture;
pub mod page;
pub mod picture;
pub mod png;
pub mod seen;
pub mod svg;
pub mod variant_picture;

pub use picture::{Mark, Picture, Token, Viewpoint};

use engine::more::presets::{Board, Playable};

/// The picture of any game's position as `viewpoint` sees it ([`Playable::board`]): a RULES.md
/// variant from its state (a side's picture from that side's view, [`variant_picture`]), a
/// RULES-more.md game from the viewer's view FEN or the full FEN ([`more_picture`], marking the
/// move written `last`); `beliefs` draws a side's belief over hidden identities (variants).
///
/// # Errors
/// [`more_picture::MorePictureError`] when a RULES-more.md FEN does not fit its board.
pub fn picture_of<G: Playable>(g: &G, viewpoint: Viewpoint, last: Option<&str>, beliefs: bool) -> Result<Picture, more_picture::MorePictureError> {
    picture_with(g, viewpoint, last, beliefs, None)
}

/// [`picture_of`], and for a RULES.md variant's full view the identities `dealt` fixes in
/// advance but the state has not revealed yet (a record's deal; ignored for side views and for
/// the RULES-more.md games, which deal nothing in advance).
///
/// # Errors
/// As [`picture_of`].
pub fn picture_with<G: Playable>(
    g: &G,
    viewpoint: Viewpoint,
    last: Option<&str>,
    beliefs: bool,
    dealt: Option<&dyn Fn(engine::Square) -> Option<engine::Role>>,
) -> Result<Picture, more_picture::MorePictureError> {
    match g.board() {
        Board::Variant { state, last } => {
            let dealt = dealt.filter(|_| viewpoint == Viewpoint::Full);
            Ok(variant_picture::picture(state, viewpoint, variant_picture::Options { last, beliefs, dealt }))
        }
        Board::Grid(geo) => {
            let fen = match viewpoint.side() {
                Some(c) => g.view_fen(c),
                None => g.full_fen(),
            };
            let turn = if fen.split_whitespace().nth(1) == Some("b") { engine::Color::Black } else { engine::Color::Red };
            more_picture::picture(geo, &fen, turn, viewpoint, last, g.board_marks(viewpoint.side()))
        }
    }
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
