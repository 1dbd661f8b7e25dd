//! Move strings for variant actions (documented in `docs/notation.md`):
//!
//! - a move in ICCS, `h2e2`; in a record, followed by the revealed type of the moved face-down
//!   piece and/or of the captured face-down piece (Pikafish's Jieqi convention, RULES.md §F8),
//!   upper case for Red's pieces, lower case for Black's: `b2b9Nn`;
//! - `~` after a move that turns the piece face-down (§F5 [R]): `a3a0~`;
//! - `^` after a move that transfers the marker onto the moved piece (§K4): `h2e2^`;
//! - a Surprise flip as the disc's point twice and the new face (§S4): `b0b0N`;
//! - negotiation (§S11): `demand`, `resign`, `draw`, `refuse`;
//! - set-up actions: `layout=C3` (§S2), `place=R` (§F3 owner's choice).

use super::state::{Action, Answer, ChanceOutcome, State, StateError};
use crate::notation::iccs;
use crate::piece::{Color, Piece};

/// Writes `a`, to be played in `s`, as a move string (without chance results).
pub fn action_string(s: &State, a: Action) -> String {
    match a {
        Action::Move { from, to, turn_down, marker } => {
            let mut t = format!("{from}{to}");
            if turn_down {
                t.push('~');
            }
            if marker {
                t.push('^');
            }
            t
        }
        Action::Flip { at } => {
            let c = s.position().piece_at(at).map(|p| p.color).unwrap_or(Color::Red);
            let r = s.back(at).map(|r| Piece::new(c, r).char()).unwrap_or('?');
            format!("{at}{at}{r}")
        }
        Action::Demand => "demand".into(),
        Action::Layout { index } => format!("layout={}", super::state::LAYOUT_NAMES[(index as usize).min(9)]),
        Action::Place { role } => {
            let c = s.turn();
            format!("place={}", Piece::new(c, role).char())
        }
        Action::Answer(Answer::Resign) => "resign".into(),
        Action::Answer(Answer::Draw) => "draw".into(),
        Action::Answer(Answer::Refuse) => "refuse".into(),
    }
}

/// Writes a record entry: the action and, for a move of a face-down piece or a capture of one,
/// the revealed types (RULES.md §F8): drawn by chance in the random modes, or the identity the
/// full state already fixes (owner's-choice and fixed modes, pieces turned down under §F5).
pub fn record_string(s: &State, a: Action, outcome: Option<ChanceOutcome>) -> String {
    let mut t = action_string(s, a);
    if let Action::Move { from, to, .. } = a {
        let us = s.position().piece_at(from).map(|p| p.color).unwrap_or(Color::Red);
        let down = s.face_down();
        let known = |sq| if down.contains(sq) { s.identity(sq) } else { None };
        let mover = outcome.and_then(|o| o.mover).or_else(|| known(from));
        let captured = outcome.and_then(|o| o.captured).or_else(|| known(to));
        let mut suffix = String::new();
        if let Some(r) = mover {
            suffix.push(Piece::new(us, r).char());
        }
        if let Some(r) = captured {
            suffix.push(Piece::new(us.opponent(), r).char());
        }
        let cut = t.find(['~', '^']).unwrap_or(t.len());
        t.insert_str(cut, &suffix);
    }
    t
}

/// Parses a move string (as [`action_string`] writes it; reveal letters are ignored, since chance
/// decides them) and checks it is legal in `s`.
///
/// # Errors
/// [`StateError::Illegal`] for malformed or illegal text, naming the rule where possible.
pub fn parse_action(s: &State, text: &str) -> Result<Action, StateError> {
    let illegal = |why: String| StateError::Illegal { action: text.to_string(), why };
    let a = if let Some(name) = text.strip_prefix("layout=") {
        let i = super::state::LAYOUT_NAMES.iter().position(|n| *n == name).ok_or_else(|| illegal(format!("§S2: unknown layout {name:?}")))?;
        Action::Layout { index: i as u8 }
    } else if let Some(l) = text.strip_prefix("place=") {
        let role = l.chars().next().and_then(crate::piece::Role::from_char).ok_or_else(|| illegal(format!("§F3: unknown type {l:?}")))?;
        Action::Place { role }
    } else {
        match text {
        "demand" => Action::Demand,
        "resign" => Action::Answer(Answer::Resign),
        "draw" => Action::Answer(Answer::Draw),
        "refuse" => Action::Answer(Answer::Refuse),
        _ => {
            let turn_down = text.contains('~');
            let marker = text.contains('^');
            let core: String = text.chars().filter(|c| *c != '~' && *c != '^').collect();
            // Four coordinate characters; letters after them (reveals, a flip's face) are ignored.
            let coords = core.get(..4).filter(|c| c.is_ascii()).unwrap_or(&core);
            let (from, to) = iccs::parse_squares(coords).map_err(|e| illegal(e.to_string()))?;
            if from == to {
                Action::Flip { at: from }
            } else {
                Action::Move { from, to, turn_down, marker }
            }
        }
        }
    };
    if s.legal_actions().contains(&a) {
        Ok(a)
    } else {
        Err(illegal(s.why_illegal(a)))
    }
}
