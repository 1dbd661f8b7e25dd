//! The picture types, which every game fills through the contract
//! ([`engine::more::presets::Playable::picture`], defined in [`engine::picture`]): re-exported
//! here for the SVG writer, the viewer pages and the play page.

pub use engine::picture::{color_char, Mark, MoveText, Picture, PictureError, PictureOptions, RiverLine, Token, Viewpoint, UNKNOWN_GLYPH};
