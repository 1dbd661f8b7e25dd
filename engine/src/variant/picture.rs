//! Pictures of the RULES.md variants (xiangqi, Surprise, Fan-qi, Jieqi, King chess), all on the
//! 9x10 board: their drawing of the contract's [`crate::more::presets::Playable::picture`]. A
//! side's picture is drawn from that side's [`View`] ([`View::known`]: the full state with what
//! the side cannot see blanked), so it holds nothing the side does not know; the full picture is
//! drawn from the state itself, with the identities a record's deal fixed in advance (random
//! Fan-qi modes, Jieqi) when the caller has them.

use super::{Action, State, View};
use crate::notation::chinese::piece_name;
use crate::picture::{color_char, Picture, PictureOptions, RiverLine, Token, Viewpoint, UNKNOWN_GLYPH};
use crate::{Color, Role, Square};

/// Files and ranks of every RULES.md board (§X1).
const FILES: u8 = 9;
const RANKS: u8 = 10;

/// The picture of `s` as `viewpoint` sees it, marking `last` (the last player action applied: a
/// board move or a flip); `opts.beliefs` draws a side's beliefs, `opts.dealt` the full view's
/// dealt identities (`opts.last` is not read: the state's own action is marked).
pub fn picture(s: &State, viewpoint: Viewpoint, last: Option<Action>, opts: &PictureOptions<'_>) -> Picture {
    match viewpoint.side() {
        Some(side) => picture_of_view(&View::new(s, side), last, opts.beliefs),
        None => draw(s, Viewpoint::Full, opts.dealt, &[], &[Vec::new(), Vec::new()], last),
    }
}

/// The picture of a side's view.
fn picture_of_view(view: &View, last: Option<Action>, beliefs: bool) -> Picture {
    let vp = Viewpoint::from(view.player());
    let mut surprise = Vec::new();
    let mut unseen: [Vec<(char, f32)>; 2] = [Vec::new(), Vec::new()];
    if beliefs {
        surprise = view
            .back_beliefs()
            .into_iter()
            .map(|(sq, p)| (sq, sorted(Role::ALL.iter().map(|&r| (piece_name(view.player().opponent(), r), p[r.index()])))))
            .collect();
        for c in Color::ALL {
            let pool = view.unseen(c);
            if !pool.is_empty() {
                let n = pool.len() as f32;
                unseen[c.index()] = sorted(Role::ALL.iter().map(|&r| (piece_name(c, r), pool.iter().filter(|&&x| x == r).count() as f32 / n)));
            }
        }
    }
    // `known` holds no hidden identity (View::known), so no `dealt` is consulted here.
    draw(view.known(), vp, None, &surprise, &unseen, last)
}

fn sorted(it: impl Iterator<Item = (char, f32)>) -> Vec<(char, f32)> {
    let mut v: Vec<(char, f32)> = it.filter(|(_, p)| *p > 0.0).collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1));
    v
}

fn draw(
    s: &State,
    viewpoint: Viewpoint,
    dealt: Option<&dyn Fn(Square) -> Option<Role>>,
    surprise: &[(Square, Vec<(char, f32)>)],
    unseen: &[Vec<(char, f32)>; 2],
    last: Option<Action>,
) -> Picture {
    let caps = s.variant().caps;
    let mut tokens = Vec::new();
    for rank in 0..RANKS {
        for file in 0..FILES {
            let Some(sq) = Square::new(file, rank) else { continue };
            let Some(p) = s.position().piece_at(sq) else { continue };
            let down = s.face_down().contains(sq);
            let mut beliefs = Vec::new();
            let (letter, glyph) = if down {
                let id = s.identity(sq).or_else(|| dealt.and_then(|d| d(sq)));
                if id.is_none() {
                    beliefs = unseen[p.color.index()].clone();
                }
                (if p.color == Color::Red { 'X' } else { 'x' }, id.map(|r| piece_name(p.color, r)).unwrap_or(UNKNOWN_GLYPH))
            } else {
                (p.char(), piece_name(p.color, p.role))
            };
            let back = if caps.discs() && matches!(p.role, Role::Chariot | Role::Horse | Role::Cannon) {
                match s.back(sq) {
                    Some(b) => Some(piece_name(p.color, b)),
                    None => {
                        if let Some((_, b)) = surprise.iter().find(|(q, _)| *q == sq) {
                            beliefs = b.clone();
                        }
                        Some('?')
                    }
                }
            } else {
                None
            };
            let marker = caps.king_pieces && s.marker(p.color) == sq;
            tokens.push(Token { file, rank, color: color_char(p.color), letter, glyph, down, back, beliefs, marker });
        }
    }
    let last = match last {
        Some(Action::Move { from, to, .. }) => Some([(from.file(), from.rank()), (to.file(), to.rank())]),
        Some(Action::Flip { at }) => Some([(at.file(), at.rank()), (at.file(), at.rank())]),
        _ => None,
    };
    let mut notes = Vec::new();
    if caps.flips {
        let (r, rc) = s.flip_rights(Color::Red);
        let (b, bc) = s.flip_rights(Color::Black);
        notes.push(format!("flip rights: red {r} ({rc} chariot reveals), black {b} ({bc} chariot reveals)"));
    }
    if s.in_setup() {
        notes.push("set-up phase".to_string());
    }
    Picture {
        files: FILES,
        ranks: RANKS,
        river: RiverLine::Between(RANKS / 2 - 1),
        palaces: [(3, 0), (3, RANKS - 3)],
        tokens,
        marks: Vec::new(),
        last,
        viewpoint,
        turn: color_char(s.turn()),
        notes,
    }
}
