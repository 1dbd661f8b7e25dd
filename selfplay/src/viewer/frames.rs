//! A game record (PGN from `anqi tournament`, the ladder, the draw-rate study or `anqi serve`)
//! turned into what the viewer page steps through: for each point of view (red, black, full) a
//! picture per ply and the move list in ICCS and Chinese notation. Red's and Black's frames are
//! made by the engine's view code from the replayed game (so a side's frames and move list hold
//! only what that side saw at that ply: capture letters it did not see are dropped, §F6); the
//! full frames show the whole state, the deal of the random modes included.

use super::picture::{Picture, Viewpoint};
use super::{more_picture, variant_picture};
use crate::tournament::engine_view::record_as_seen;
use crate::tournament::pgn::Record;
use engine::more::presets::{with_game, Playable, WithGame};
use engine::variant::game_state::sees_captured;
use engine::variant::notation::chinese_record;
use engine::variant::game::VariantGame;
use engine::variant::{ChanceOutcome, State};
use engine::Color;
use serde::Serialize;

/// The points of view a page offers, in the order the page lists them.
pub const VIEWPOINTS: [Viewpoint; 3] = [Viewpoint::Red, Viewpoint::Black, Viewpoint::Full];

/// One move as written in the move list.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveText {
    /// ICCS with the record letters this viewer saw (`b2b9Nn`, `h0h0R`).
    pub iccs: String,
    /// Chinese notation (`炮二平五`, `马二进三变车`).
    pub chinese: String,
}

/// One point of view of a game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ViewFrames {
    /// Whose view.
    pub viewpoint: Viewpoint,
    /// The position before the first move, then after each move.
    pub pictures: Vec<Picture>,
    /// The moves as this viewer saw them.
    pub moves: Vec<MoveText>,
}

/// A game ready for the viewer page.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameFrames {
    /// `Red – Black, variant, result (termination)`.
    pub title: String,
    /// The record's tags worth showing (event, round, set-up label, result).
    pub tags: Vec<(String, String)>,
    /// Red's, Black's and the full view, in [`VIEWPOINTS`] order.
    pub views: Vec<ViewFrames>,
}

/// Why a record could not be turned into frames.
#[derive(Debug, thiserror::Error)]
pub enum FramesError {
    /// The record's variant is unknown or its file is broken.
    #[error("record {game}: variant {variant:?}: {problem}")]
    Variant {
        /// The record (`Red – Black, round`).
        game: String,
        /// The variant tag.
        variant: String,
        /// What is wrong.
        problem: String,
    },
    /// The moves do not replay from the set-up.
    #[error("record {game}: {problem}")]
    Replay {
        /// The record.
        game: String,
        /// What is wrong (naming the ply).
        problem: String,
    },
}

fn game_name(r: &Record) -> String {
    format!("{} – {} (round {}.{})", r.red, r.black, r.key.pair + 1, r.key.game + 1)
}

/// The frames of record `r`.
///
/// # Errors
/// [`FramesError`] naming the record and the ply.
pub fn of_record(r: &Record) -> Result<GameFrames, FramesError> {
    let views = if engine::more::presets::is_spec(&r.variant) { more_views(r)? } else { variant_views(r)? };
    let title = format!("{} – {}, {}, {} ({})", r.red, r.black, r.variant, r.outcome.result(), r.outcome.reason);
    let tags = vec![
        ("Event".to_string(), r.event.clone()),
        ("Round".to_string(), format!("{}.{}", r.key.pair + 1, r.key.game + 1)),
        ("Set-up".to_string(), r.setup.label.clone()),
        ("Result".to_string(), format!("{} ({})", r.outcome.result(), r.outcome.reason)),
    ];
    Ok(GameFrames { title, tags, views })
}

fn variant_views(r: &Record) -> Result<Vec<ViewFrames>, FramesError> {
    let verr = |problem: String| FramesError::Variant { game: game_name(r), variant: r.variant.clone(), problem };
    let rerr = |problem: String| FramesError::Replay { game: game_name(r), problem };
    let v = variant(&r.variant).map_err(|e| verr(format!("{e:#}")))?;
    let game = crate::tournament::game::replay(v, &r.setup, &r.moves).map_err(|e| rerr(format!("{e:#}")))?;
    let start = r.setup.state(v).map_err(|e| rerr(format!("{e:#}")))?;
    let deal = r.setup.deal(&start);
    let dealt = |sq: engine::Square| deal.role(sq);
    let mut views = Vec::new();
    for viewpoint in VIEWPOINTS {
        let moves = moves_seen(&start, &game, viewpoint).map_err(rerr)?;
        views.push(ViewFrames { viewpoint, pictures: Vec::new(), moves });
    }
    let mut s = start.clone();
    let mut last = None;
    for (i, ply) in std::iter::once(None).chain(game.plies().iter().map(Some)).enumerate() {
        if let Some(p) = ply {
            s.try_apply(p.action).map_err(|e| rerr(format!("ply {i}: {e}")))?;
            if s.is_chance() {
                let o = p.chance.ok_or_else(|| rerr(format!("ply {i}: a chance node without its outcome")))?;
                s.apply_chance(o);
            }
            last = Some(p.action);
        }
        for vf in views.iter_mut() {
            let full = vf.viewpoint == Viewpoint::Full;
            let opts = variant_picture::Options { last, beliefs: false, dealt: if full { Some(&dealt) } else { None } };
            vf.pictures.push(variant_picture::picture(&s, vf.viewpoint, opts));
        }
    }
    Ok(views)
}

/// The moves of `game` (which began at `start`) as `viewpoint` saw them, in ICCS with record
/// letters and in Chinese: a side's list drops the captured face-down identities that side did
/// not see (§F6; [`record_as_seen`]).
///
/// # Errors
/// A record that does not replay from `start`, naming the ply.
pub fn moves_seen(start: &State, game: &VariantGame, viewpoint: Viewpoint) -> Result<Vec<MoveText>, String> {
    let iccs: Vec<String> = match viewpoint.side() {
        Some(side) => record_as_seen(start, game, side)?,
        None => game.plies().iter().map(|p| p.text.clone()).collect(),
    };
    let mut s = start.clone();
    let mut out = Vec::with_capacity(iccs.len());
    for (i, (p, text)) in game.plies().iter().zip(iccs).enumerate() {
        let mover = s.turn();
        let outcome = match (viewpoint.side(), p.chance) {
            (Some(side), Some(o)) if o.captured.is_some() && !sees_captured(&s, mover, side) => Some(ChanceOutcome { mover: o.mover, captured: None }),
            (_, o) => o,
        };
        out.push(MoveText { iccs: text, chinese: chinese_record(&s, p.action, outcome) });
        s.try_apply(p.action).map_err(|e| format!("ply {}: {e}", i + 1))?;
        if s.is_chance() {
            s.apply_chance(p.chance.ok_or_else(|| format!("ply {}: a chance node without its outcome", i + 1))?);
        }
    }
    Ok(out)
}

/// The variant of a record, loaded once per name (a loaded variant lives for the process).
fn variant(name: &str) -> anyhow::Result<&'static engine::variant::Variant> {
    use std::collections::HashMap;
    use std::sync::Mutex;
    static LOADED: Mutex<Option<HashMap<String, &'static engine::variant::Variant>>> = Mutex::new(None);
    let mut guard = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    let map = guard.get_or_insert_with(HashMap::new);
    if let Some(v) = map.get(name) {
        return Ok(v);
    }
    let v = crate::cli::variant_arg::load(name)?;
    map.insert(name.to_string(), v);
    Ok(v)
}

struct MoreFrames<'a>(&'a Record);

impl WithGame for MoreFrames<'_> {
    type Output = Result<Vec<ViewFrames>, FramesError>;

    fn run<G: Playable>(self, mut g: G) -> Self::Output {
        let r = self.0;
        let rerr = |problem: String| FramesError::Replay { game: game_name(r), problem };
        let geo = g.geometry();
        let mut views: Vec<ViewFrames> = VIEWPOINTS.iter().map(|&viewpoint| ViewFrames { viewpoint, pictures: Vec::new(), moves: Vec::new() }).collect();
        let mut last: Option<&str> = None;
        for i in 0..=r.moves.len() {
            if i > 0 {
                let text = &r.moves[i - 1];
                let act = g.legal_actions().into_iter().find(|&a| g.action_string(a) == *text);
                let Some(act) = act else { return Err(rerr(format!("ply {i}: {text:?} is not a legal action"))) };
                let chinese = g.chinese(act);
                for vf in views.iter_mut() {
                    vf.moves.push(MoveText { iccs: text.clone(), chinese: chinese.clone() });
                }
                g.play_text(text).map_err(|e| rerr(format!("ply {i}: {e}")))?;
                last = Some(text);
            }
            for vf in views.iter_mut() {
                let fen = match vf.viewpoint.side() {
                    Some(c) => g.view_fen(c),
                    None => g.full_fen(),
                };
                let turn = if fen.split_whitespace().nth(1) == Some("b") { Color::Black } else { Color::Red };
                let pic = more_picture::picture(geo, &fen, turn, vf.viewpoint, last).map_err(|e| rerr(format!("ply {i}: {e}")))?;
                vf.pictures.push(pic);
            }
        }
        Ok(views)
    }
}

fn more_views(r: &Record) -> Result<Vec<ViewFrames>, FramesError> {
    let verr = |problem: String| FramesError::Variant { game: game_name(r), variant: r.variant.clone(), problem };
    with_game(&r.variant, Some(&r.setup.fen), MoreFrames(r)).map_err(|e| verr(e.to_string()))?
}
