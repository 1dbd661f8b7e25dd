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
            // Four coordinate characters, then what [`record_string`] may add: at most two piece
            // letters (a move's reveals, §F8, or a flip's new face, §S4), then `~` and/or `^`.
            // The letters are ignored here (chance decides them); anything else is refused.
            let coords = text.get(..4).filter(|c| c.is_ascii()).unwrap_or(text);
            let (from, to) = iccs::parse_squares(coords).map_err(|e| illegal(e.to_string()))?;
            let tail = text.get(4..).unwrap_or("");
            let marker = tail.ends_with('^');
            let tail = tail.strip_suffix('^').unwrap_or(tail);
            let turn_down = tail.ends_with('~');
            let letters = tail.strip_suffix('~').unwrap_or(tail);
            let most = if from == to { 1 } else { 2 };
            if letters.chars().count() > most || !letters.chars().all(|c| Piece::from_char(c).is_some()) {
                return Err(illegal(format!(
                    "{tail:?} after the move's squares: expected at most {most} piece letter{} (§F8 reveals{}), then ~ or ^",
                    if most == 1 { "" } else { "s" },
                    if from == to { ", §S4 a flip's face" } else { "" }
                )));
            }
            if from == to {
                if turn_down || marker {
                    return Err(illegal("a flip (the same square twice, §S4) takes no ~ or ^".into()));
                }
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

/// Parses a record entry as [`record_string`] writes it: the action, and the chance result named
/// by its reveal letters (§F8: the moved face-down piece's type first, then the captured one's).
/// A move that causes a chance event but names no letters gets `None` (chance still to draw).
///
/// # Errors
/// [`StateError::Illegal`] for malformed or illegal text, or a revealed type the pool cannot give.
pub fn parse_record(s: &State, text: &str) -> Result<(Action, Option<ChanceOutcome>), StateError> {
    let a = parse_action(s, text)?;
    let Action::Move { from, to, .. } = a else { return Ok((a, None)) };
    let letters: Vec<char> = text.chars().skip(4).filter(|c| c.is_ascii_alphabetic()).collect();
    if letters.is_empty() {
        return Ok((a, None));
    }
    let mut child = s.clone();
    child.apply(a);
    if !child.is_chance() {
        return Err(StateError::Illegal { action: text.into(), why: "§F8: reveal letters on a move that reveals nothing".into() });
    }
    let outs = child.chance_outcomes();
    let mover_pending = outs.iter().any(|(o, _)| o.mover.is_some());
    let captured_pending = outs.iter().any(|(o, _)| o.captured.is_some());
    let mut it = letters.iter();
    let role = |c: Option<&char>| c.and_then(|c| crate::piece::Role::from_char(*c));
    let mover = if mover_pending { role(it.next()) } else { None };
    let captured = if captured_pending { role(it.next()) } else { None };
    let o = ChanceOutcome { mover, captured };
    if !outs.iter().any(|(x, _)| *x == o) {
        let _ = (from, to);
        return Err(StateError::Illegal { action: text.into(), why: "§P2: the named reveal is not in the pool".into() });
    }
    Ok((a, Some(o)))
}

/// The Chinese record of an action (RULES.md §F8, §S4): the move as the core writes it for the
/// type the piece moves as, then `变` and the revealed type when a face-down piece turns up
/// (`马二进三变车`), or `变` and the fake's type when the piece turns face-down (`炮一平三变相`);
/// a Surprise flip is `<piece><file>翻<new face>` (`马六翻车`). Set-up and negotiation actions
/// use the move-string form.
pub fn chinese_record(s: &State, a: Action, outcome: Option<ChanceOutcome>) -> String {
    use crate::notation::chinese::{chinese, numeral, piece_name};
    let pos = s.position();
    match a {
        Action::Move { from, to, turn_down, .. } => {
            let Some(p) = pos.piece_at(from) else { return action_string(s, a) };
            let mut t = chinese(pos, crate::moves::Move::new(from, to));
            let revealed = if s.face_down().contains(from) { outcome.and_then(|o| o.mover).or(s.identity(from)) } else { None };
            if let Some(r) = revealed {
                t.push('变');
                t.push(piece_name(p.color, r));
            }
            if turn_down {
                if let Some(point) = s.variant().start_role[p.color.index()][to.index()] {
                    t.push('变');
                    t.push(piece_name(p.color, point));
                }
            }
            t
        }
        Action::Flip { at } => {
            let (Some(p), Some(b)) = (pos.piece_at(at), s.back(at)) else { return action_string(s, a) };
            let files = pos.rules().attacks.geometry.files;
            let file = crate::notation::wxf::file_number(p.color, at, files);
            format!("{}{}翻{}", piece_name(p.color, p.role), numeral(p.color, file), piece_name(p.color, b))
        }
        _ => action_string(s, a),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{fen, Variant};

    fn variant(name: &str) -> &'static Variant {
        crate::any_game::load_variant(name).expect("preset")
    }

    #[test]
    fn f8_record_reveal_in_chinese() {
        // Jieqi start: the face-down piece on b0 moves as a horse to c2 and turns up a chariot.
        let s = crate::variant::State::start(variant("jieqi"), None).expect("start");
        let b0 = crate::Square::parse("b0").expect("sq");
        let c2 = crate::Square::parse("c2").expect("sq");
        let a = Action::Move { from: b0, to: c2, turn_down: false, marker: false };
        let o = ChanceOutcome { mover: Some(crate::Role::Chariot), captured: None };
        assert_eq!(chinese_record(&s, a, Some(o)), "马八进七变车");
        assert_eq!(record_string(&s, a, Some(o)), "b0c2R");
    }

    #[test]
    fn f8_record_turn_down_in_chinese() {
        // Fan-qi mode 1: a face-up Red cannon on a2 goes along rank... we build: cannon on i2
        // moving to c... simpler: a Red cannon on a0's file? Use a cannon on c2 moving to c0,
        // Red's elephant start point, turning face-down as an elephant: 炮七退二变相.
        let v = variant("fanqi-1");
        let s = fen::parse(v, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/2C4C1/9/RN1AKABNR w - 0 1").expect("fen");
        let c2 = crate::Square::parse("c2").expect("sq");
        let c0 = crate::Square::parse("c0").expect("sq");
        let a = Action::Move { from: c2, to: c0, turn_down: true, marker: false };
        assert!(s.legal_actions().contains(&a));
        assert_eq!(chinese_record(&s, a, None), "炮七退二变相");
        assert_eq!(record_string(&s, a, None), "c2c0~");
    }

    #[test]
    fn s4_flip_in_chinese() {
        // Layout A for Red: the horse on h0 hides a chariot; after Red loses a chariot it may flip.
        let v = variant("surprise");
        let s = fen::parse(
            v,
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1 b0=R,h0=R,i0=C,b2=N,h2=N 3:0/3:0",
        )
        .expect("fen");
        let h0 = crate::Square::parse("h0").expect("sq");
        assert!(s.legal_actions().contains(&Action::Flip { at: h0 }));
        assert_eq!(chinese_record(&s, Action::Flip { at: h0 }, None), "马二翻车");
        assert_eq!(action_string(&s, Action::Flip { at: h0 }), "h0h0R");
    }
}
