//! SVG to PNG through resvg (usvg parses, tiny-skia rasterises and encodes). The glyphs need a
//! CJK font among the system fonts (Debian's `fonts-wqy-zenhei` or `fonts-noto-cjk`, installed by
//! `scripts/setup`); without one the picture would show empty boxes, so that is an error naming
//! the packages.

use resvg::{tiny_skia, usvg};

/// The CJK families looked for, in order of preference (as [`super::svg::FONT_FAMILY`] names them).
pub const CJK_FAMILIES: [&str; 3] = ["WenQuanYi Zen Hei", "Noto Sans CJK SC", "Noto Serif CJK SC"];

/// Why a PNG could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    /// No CJK font is installed.
    #[error("no CJK font for the piece glyphs among the system fonts (looked for {families}); install Debian's fonts-wqy-zenhei or fonts-noto-cjk (scripts/setup does), or write .svg instead")]
    NoCjkFont {
        /// The families looked for.
        families: String,
    },
    /// resvg could not read the SVG.
    #[error("reading the SVG: {0}")]
    Parse(#[from] usvg::Error),
    /// The picture has no area.
    #[error("the picture is {0}x{1} pixels")]
    Size(u32, u32),
    /// PNG encoding failed.
    #[error("encoding the PNG: {0}")]
    Encode(String),
}

/// The PNG bytes of `svg_text`, at `scale` pixels per SVG unit.
///
/// # Errors
/// [`PngError`].
pub fn png(svg_text: &str, scale: f32) -> Result<Vec<u8>, PngError> {
    let mut opt = usvg::Options::default();
    let db = opt.fontdb_mut();
    db.load_system_fonts();
    let found = CJK_FAMILIES.iter().find(|name| {
        let families = [usvg::fontdb::Family::Name(name)];
        db.query(&usvg::fontdb::Query { families: &families, ..Default::default() }).is_some()
    });
    let Some(family) = found else {
        return Err(PngError::NoCjkFont { families: CJK_FAMILIES.join(", ") });
    };
    db.set_sans_serif_family(*family);
    let tree = usvg::Tree::from_str(svg_text, &opt)?;
    let size = tree.size().to_int_size().scale_by(scale).ok_or(PngError::Size(0, 0))?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or(PngError::Size(size.width(), size.height()))?;
    resvg::render(&tree, tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| PngError::Encode(e.to_string()))
}
