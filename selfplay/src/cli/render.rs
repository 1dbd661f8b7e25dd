//! `anqi render`: a picture of a position of any game as one viewer sees it, as SVG or PNG.

use crate::viewer::{more_picture, png, svg, variant_picture, Picture, Viewpoint};
use anyhow::{bail, Context};
use clap::Args as ClapArgs;
use engine::more::presets::{with_game, Playable, WithGame};
use engine::variant::game::VariantGame;
use engine::variant::given::Given;
use engine::variant::{notation, View};
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
    /// PNG pixels per SVG unit.
    #[arg(long, default_value_t = 1.5)]
    pub scale: f32,
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    let asked = match a.viewpoint.as_deref() {
        None => None,
        Some(t) => Some(Viewpoint::parse(t).with_context(|| format!("--as {t:?}: expected red, black or full"))?),
    };
    let ext = a.out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    if ext != "svg" && ext != "png" {
        bail!("--out {}: the file name must end in .svg or .png", a.out.display());
    }
    let (picture, title) = if engine::more::presets::is_spec(&a.variant) {
        let vp = asked.unwrap_or(Viewpoint::Full);
        let body = MoreRender { play: &a.play, viewpoint: vp };
        (with_game(&a.variant, a.fen.as_deref(), body).with_context(|| format!("--variant {}", a.variant))??, a.variant.clone())
    } else {
        (variant_picture_of(&a, asked)?, a.variant.clone())
    };
    let doc = svg::document(&picture, Some(&format!("{title} · {} view · {} to move", picture.viewpoint.name(), if picture.turn == 'r' { "red" } else { "black" })));
    let text = doc.to_string();
    let bytes = if ext == "png" { png::png(&text, a.scale)? } else { text.into_bytes() };
    crate::viewer::write_atomic(&a.out, &bytes)?;
    println!("wrote {}", a.out.display());
    Ok(())
}

fn variant_picture_of(a: &Args, asked: Option<Viewpoint>) -> anyhow::Result<Picture> {
    let v = super::variant_arg::load(&a.variant)?;
    let given = super::variant_arg::given(v, a.fen.as_deref(), None)?;
    let opts = |last| variant_picture::Options { last, beliefs: a.beliefs, dealt: None };
    if let Given::View(view) = &given {
        let own = if view.player() == engine::Color::Red { Viewpoint::Red } else { Viewpoint::Black };
        let vp = asked.unwrap_or(own);
        if vp != own {
            bail!("--as {}: the FEN is {}'s view, so only that view can be drawn", vp.name(), view.player());
        }
        if !a.play.trim().is_empty() {
            bail!("--play with a view FEN: give the position after the moves instead (the moves may need what {} cannot see)", view.player());
        }
        return Ok(variant_picture::picture_of_view(view, opts(None)));
    }
    let vp = asked.unwrap_or(Viewpoint::Full);
    let mut game = VariantGame::new(given.state());
    let mut rng = Pcg64Mcg::seed_from_u64(a.seed);
    let mut last = None;
    for (i, text) in a.play.split_whitespace().enumerate() {
        if let Some(e) = game.outcome() {
            bail!("--play move {} ({text:?}): the game is over: {} ({})", i + 1, e.result(), e.reason());
        }
        let (act, named) = notation::parse_record(game.state(), text).with_context(|| format!("--play move {} ({text:?})", i + 1))?;
        game.play(act, |outs| named.unwrap_or_else(|| engine::variant::game::draw_outcome(outs, &mut rng)));
        last = Some(act);
    }
    let s = game.state();
    Ok(match vp.side() {
        Some(c) => variant_picture::picture_of_view(&View::new(s, c), opts(last)),
        None => variant_picture::picture(s, vp, opts(last)),
    })
}

struct MoreRender<'a> {
    play: &'a str,
    viewpoint: Viewpoint,
}

impl WithGame for MoreRender<'_> {
    type Output = anyhow::Result<Picture>;

    fn run<G: Playable>(self, mut g: G) -> Self::Output {
        let mut last = None;
        for (i, text) in self.play.split_whitespace().enumerate() {
            g.play_text(text).with_context(|| format!("--play move {} ({text:?})", i + 1))?;
            last = Some(text);
        }
        let fen = match self.viewpoint.side() {
            Some(c) => g.view_fen(c),
            None => g.full_fen(),
        };
        let turn = if fen.split_whitespace().nth(1) == Some("b") { engine::Color::Black } else { engine::Color::Red };
        Ok(more_picture::picture(g.geometry(), &fen, turn, self.viewpoint, last)?)
    }
}
