//! `anqi render`: a picture of a position of any game as one viewer sees it, as SVG or PNG.

use crate::viewer::{picture_of, png, svg, Picture, Viewpoint};
use anyhow::{bail, Context};
use clap::Args as ClapArgs;
use engine::any_game::{with_any_game, Start};
use engine::more::presets::{Playable, WithGame};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::path::PathBuf;

/// Draw the board of a position (any preset or rule file: 9x10, the 9x11 river-row board,
/// 11x10, the wider camel boards) with Chinese glyphs, as `--as` sees it: face-down pieces,
/// Surprise backs and secret tiles shown only where that viewer knows them; the last move of
/// `--play` marked.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Variant preset or rule file.
    #[arg(long, default_value = "xiangqi")]
    pub variant: String,
    /// Full-state FEN, or a view FEN (RULES.md §N, docs/notation.md); the start position if absent.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, space separated (record strings, reveal letters honoured); the last
    /// one is marked.
    #[arg(long, default_value = "")]
    pub play: String,
    /// Seed for chance draws the moves do not name.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Point of view: red, black or full (default: the view FEN's viewer, else full).
    #[arg(long = "as")]
    pub viewpoint: Option<String>,
    /// Draw the viewer's belief over each hidden identity as small bars under the piece.
    #[arg(long)]
    pub beliefs: bool,
    /// Output file: `.svg` or `.png`.
    #[arg(long)]
    pub out: PathBuf,
    /// PNG pixels per SVG unit, above 0 and at most [`MAX_SCALE`].
    #[arg(long, default_value_t = 1.5)]
    pub scale: f32,
}

/// The largest `--scale`: a board picture is at most some 800 SVG units a side (the widest camel
/// boards), so 10 gives at most about 8,000 pixels a side (some 250 MB of RGBA); 100 would ask
/// for 25 GB and run the machine out of memory.
pub const MAX_SCALE: f32 = 10.0;

/// Why a render request is refused before it starts.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// `--scale` not in (0, [`MAX_SCALE`]].
    #[error("--scale {0}: must be above 0 and at most {MAX_SCALE} (PNG pixels per SVG unit)")]
    Scale(f32),
}

/// Runs the command.
///
/// # Errors
/// [`RenderError`] for a `--scale` out of range; a bad `--as`, `--out`, game, FEN or move.
pub fn run(a: Args) -> anyhow::Result<()> {
    if !(a.scale > 0.0 && a.scale <= MAX_SCALE) {
        return Err(RenderError::Scale(a.scale).into());
    }
    let asked = match a.viewpoint.as_deref() {
        None => None,
        Some(t) => Some(Viewpoint::parse(t).with_context(|| format!("--as {t:?}: expected red, black or full"))?),
    };
    let ext = a.out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    if ext != "svg" && ext != "png" {
        bail!("--out {}: the file name must end in .svg or .png", a.out.display());
    }
    let body = Render { play: &a.play, seed: a.seed, asked, beliefs: a.beliefs };
    let picture = with_any_game(&a.variant, Start::fen_or(a.fen.as_deref(), Start::Setup), body)??;
    let title = a.variant.clone();
    let doc = svg::document(&picture, Some(&format!("{title} · {} view · {} to move", picture.viewpoint.name(), if picture.turn == 'r' { "red" } else { "black" })));
    let text = doc.to_string();
    let bytes = if ext == "png" { png::png(&text, a.scale)? } else { text.into_bytes() };
    crate::viewer::write_atomic(&a.out, &bytes)?;
    println!("wrote {}", a.out.display());
    Ok(())
}

struct Render<'a> {
    play: &'a str,
    seed: u64,
    asked: Option<Viewpoint>,
    beliefs: bool,
}

impl WithGame for Render<'_> {
    type Output = anyhow::Result<Picture>;

    fn run<G: Playable>(self, mut g: G) -> Self::Output {
        // A view FEN can only be drawn as its viewer sees it, and only as given.
        let own = g.given_view().map(|c| (c, if c == engine::Color::Red { Viewpoint::Red } else { Viewpoint::Black }));
        let vp = self.asked.or(own.map(|o| o.1)).unwrap_or(Viewpoint::Full);
        if let Some((c, own)) = own {
            if vp != own {
                bail!("--as {}: the FEN is {c}'s view, so only that view can be drawn", vp.name());
            }
            if !self.play.trim().is_empty() {
                bail!("--play with a view FEN: give the position after the moves instead (the moves may need what {c} cannot see)");
            }
        }
        let mut rng = Pcg64Mcg::seed_from_u64(self.seed);
        let mut last = None;
        for (i, text) in self.play.split_whitespace().enumerate() {
            if let Some((result, reason)) = g.result() {
                bail!("--play move {} ({text:?}): the game is over: {result} ({reason})", i + 1);
            }
            g.play_record(text, &mut rng).with_context(|| format!("--play move {} ({text:?})", i + 1))?;
            last = Some(text);
        }
        Ok(picture_of(&g, vp, last, self.beliefs)?)
    }
}
