//! A game record (PGN from `anqi tournament`, the ladder, the draw-rate study or `anqi serve`)
//! of any game turned into what the viewer page steps through: for each point of view (red,
//! black, full) a picture per ply and the move list in ICCS and Chinese notation. The record is
//! replayed through the game contract ([`Playable`], [`with_any_game`]) from its set-up with the
//! seed's chance, each entry checked to be written alike; a side's pictures and move list are
//! drawn from what that side saw at that ply ([`picture_with`], [`move_seen`]: capture letters it
//! did not see are dropped, §F6); the full frames show the whole state, the deal of the random
//! modes included.

use super::picture::{Picture, Viewpoint};
use super::picture_with;
use super::seen::move_seen;
use crate::tournament::pgn::Record;
use engine::any_game::{with_any_game, Start};
use engine::game::Turn;
use engine::more::presets::{Playable, WithGame};
use engine::seeded::play_ply;
use serde::Serialize;

pub use super::seen::MoveText;

/// The points of view a page offers, in the order the page lists them.
pub const VIEWPOINTS: [Viewpoint; 3] = [Viewpoint::Red, Viewpoint::Black, Viewpoint::Full];

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
    let verr = |problem: String| FramesError::Variant { game: game_name(r), variant: r.variant.clone(), problem };
    let views = with_any_game(&r.variant, Start::Fen(&r.setup.fen), Views(r)).map_err(|e| verr(e.to_string()))??;
    let title = format!("{} – {}, {}, {} ({})", r.red, r.black, r.variant, r.outcome.result(), r.outcome.reason);
    let tags = vec![
        ("Event".to_string(), r.event.clone()),
        ("Round".to_string(), format!("{}.{}", r.key.pair + 1, r.key.game + 1)),
        ("Set-up".to_string(), r.setup.label.clone()),
        ("Result".to_string(), format!("{} ({})", r.outcome.result(), r.outcome.reason)),
    ];
    Ok(GameFrames { title, tags, views })
}

/// The frames of every viewpoint of record `.0`, replayed in the game at its set-up.
struct Views<'a>(&'a Record);

impl WithGame for Views<'_> {
    type Output = Result<Vec<ViewFrames>, FramesError>;

    fn run<G: Playable>(self, mut g: G) -> Self::Output {
        let r = self.0;
        let rerr = |problem: String| FramesError::Replay { game: game_name(r), problem };
        // The full view of a RULES.md variant shows the identities its record's deal fixes before
        // they are revealed; the other games deal nothing in advance.
        let deal = g.as_variant().map(|v| r.setup.deal(v.state()));
        let dealt = deal.as_ref().map(|d| move |sq: engine::Square| d.role(sq));
        let mut chance = g.seeded_chance(r.setup.seed);
        let mut views: Vec<ViewFrames> = VIEWPOINTS.iter().map(|&viewpoint| ViewFrames { viewpoint, pictures: Vec::new(), moves: Vec::new() }).collect();
        let mut last: Option<&str> = None;
        for i in 0..=r.moves.len() {
            if i > 0 {
                let text = &r.moves[i - 1];
                if !matches!(g.turn(), Turn::Player(_)) {
                    return Err(rerr(format!("ply {i}: {text:?} after the end of the game")));
                }
                let before = g.clone();
                let a = g.parse_entry(text).map_err(|e| rerr(format!("ply {i}: {e}")))?;
                let (got, outcome) = play_ply(&mut g, a, chance.as_mut());
                if got != *text {
                    return Err(rerr(format!("ply {i}: record says {text:?}, replay gives {got:?}")));
                }
                for vf in views.iter_mut() {
                    vf.moves.push(move_seen(&before, a, outcome, text, vf.viewpoint));
                }
                last = Some(text);
            }
            for vf in views.iter_mut() {
                let dealt = dealt.as_ref().filter(|_| vf.viewpoint == Viewpoint::Full).map(|f| f as &dyn Fn(engine::Square) -> Option<engine::Role>);
                let pic = picture_with(&g, vf.viewpoint, last, false, dealt).map_err(|e| rerr(format!("ply {i}: {e}")))?;
                vf.pictures.push(pic);
            }
        }
        Ok(views)
    }
}
