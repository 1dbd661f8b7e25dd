//! What a UCI engine in a tournament is sent: exactly what its side may know (issue 13 item 3;
//! DEVELOPERS.md "information security": a player receives only what its rules show it).
//!
//! - Perfect-information games (xiangqi, King chess, Fan-qi with nothing hidden): the start FEN
//!   and the record, in the engine's dialect.
//! - Jieqi and the random Fan-qi modes: a captured face-down piece's identity is seen only by the
//!   capturer (RULES.md §F6). A Pikafish-dialect engine gets the public start FEN and the record
//!   with the capture letters its side did not see dropped (as JieqiBox sends it; the moved
//!   piece's reveal letter is public and stays); an anqi-dialect engine gets its side's view FEN
//!   (below).
//! - Surprise and owner's-choice Fan-qi: the opponent's set-up is secret (§S2, §F3), and every
//!   full-state FEN holds it. An anqi-dialect engine is sent its side's view FEN (`view=w|b`,
//!   docs/notation.md §2) of the position where the record's reversible tail begins, then the
//!   tail's quiet moves (no hidden letters), so it sees every repetition the game can still make;
//!   an engine of another dialect cannot read a view and is refused for these presets, with an
//!   error naming why.
//!
//! In every case the text is a function of the engine side's information set, so two games that
//! differ only in what that side cannot see send it the same bytes (`selfplay/tests/no_leak.rs`).

use super::dialect::Dialect;
use super::uci_client::position_command;
use engine::variant::config::{Placement, SetupKind};
use engine::variant::game::Ply;
use engine::variant::game_state::{sees_captured, VariantGameState};
use engine::variant::state::ChanceOutcome;
use engine::variant::{notation, State, Variant, View};
use engine::Color;

/// How much of a variant's hidden information reaches a UCI engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Secrecy {
    /// Nothing is hidden: start FEN and record as they are.
    Open,
    /// Captured face-down identities are private to the capturer: drop the letters not seen.
    CapturerOnly,
    /// A secret set-up: only a view FEN of the current position (anqi dialect only).
    SecretSetup,
}

/// The secrecy class of the game that `start` begins.
pub fn secrecy(start: &State) -> Secrecy {
    variant_secrecy(start.variant())
}

/// The secrecy class of a variant's games.
pub fn variant_secrecy(v: &Variant) -> Secrecy {
    if v.caps.setup != SetupKind::None {
        // §S2 layouts, §F3 owner's arrangements.
        Secrecy::SecretSetup
    } else if v.caps.face_down() && v.fanqi.placement() == Placement::Random {
        // §F3 random deals, §F6 captures seen by the capturer.
        Secrecy::CapturerOnly
    } else {
        Secrecy::Open
    }
}

/// Whether an engine of `dialect` can play the game that `start` begins without being given
/// what its side may not know.
///
/// # Errors
/// Why not, naming the dialect and the hidden set-up.
pub fn check_dialect(dialect: Dialect, start: &State) -> Result<(), String> {
    check_variant_dialect(dialect, start.variant())
}

/// [`check_dialect`] for a variant, before any game starts.
///
/// # Errors
/// Why an engine of `dialect` cannot play `v`.
pub fn check_variant_dialect(dialect: Dialect, v: &Variant) -> Result<(), String> {
    if variant_secrecy(v) == Secrecy::SecretSetup && dialect != Dialect::Anqi {
        return Err(format!(
            "{} hides each side's set-up ({}); every full-state FEN holds the opponent's, and a {dialect} engine reads no view FEN, so it cannot be sent the position without being told what it may not know (use an engine that speaks anqi's view dialect)",
            v.name,
            if v.caps.setup == SetupKind::Layouts { "RULES.md §S2 layouts" } else { "RULES.md §F3 arrangement" },
        ));
    }
    Ok(())
}

/// The `position …` line for the engine playing `side` in `game` (which began at `start`), whose
/// record entries are `plies` (one per ply of `game`, [`VariantGameState::play_recorded`]).
///
/// # Errors
/// [`check_dialect`]'s refusal, or a record that does not replay from `start`.
pub fn position_for(dialect: Dialect, start: &State, game: &VariantGameState, plies: &[Ply], side: Color) -> Result<String, String> {
    check_dialect(dialect, start)?;
    match secrecy(start) {
        Secrecy::Open => Ok(position_command(dialect, start, &plies.iter().map(|p| p.text.clone()).collect::<Vec<_>>())),
        // anqi reads views; a record with a capture letter dropped could not be replayed by it
        // (the capture's identity is needed to go on), so it gets its side's view FEN.
        Secrecy::SecretSetup | Secrecy::CapturerOnly if dialect == Dialect::Anqi => view_and_tail(start, game.record(), plies, side),
        Secrecy::SecretSetup => Err(check_dialect(dialect, start).err().unwrap_or_default()),
        Secrecy::CapturerOnly => Ok(position_command(dialect, start, &record_as_seen(start, plies, side)?)),
    }
}

/// `position fen <view> moves <tail>` for an anqi-dialect engine: `side`'s view FEN of the
/// position where the record's reversible tail begins (after its last capture, reveal, flip or
/// set-up action), then the tail's quiet moves, which carry no hidden letter. The engine replays
/// them on its view and so sees every repetition the game can still make (RULES.md §X6).
fn view_and_tail(start: &State, record: &[engine::repetition::RecordPly], plies: &[Ply], side: Color) -> Result<String, String> {
    if record.len() != plies.len() {
        return Err(format!("record of {} plies with {} record entries", record.len(), plies.len()));
    }
    let mut k = record.len();
    while k > 0 && record[k - 1].board && record[k - 1].quiet.is_some() {
        k -= 1;
    }
    let mut s = start.clone();
    for p in &plies[..k] {
        s.try_apply(p.action).map_err(|e| format!("record replay: {e}"))?;
        if s.is_chance() {
            s.apply_chance(p.chance.ok_or("record replay: a chance node without its outcome")?);
        }
    }
    let mut line = format!("position fen {}", View::new(&s, side).fen());
    if k < record.len() {
        line.push_str(" moves");
        for p in &plies[k..] {
            line.push(' ');
            line.push_str(&p.text);
        }
    }
    Ok(line)
}

/// The record strings of `plies` (a game from `start`) as `side` saw them: a captured face-down piece's letter is kept
/// only where `side` saw its identity (§F6 and the variant's capture-knowledge option).
///
/// # Errors
/// A record that does not replay from `start`.
pub fn record_as_seen(start: &State, plies: &[Ply], side: Color) -> Result<Vec<String>, String> {
    let mut s = start.clone();
    let mut out = Vec::with_capacity(plies.len());
    for p in plies {
        let mover = s.turn();
        let seen = match p.chance {
            Some(o) if o.captured.is_some() && !sees_captured(&s, mover, side) => Some(ChanceOutcome { mover: o.mover, captured: None }),
            other => other,
        };
        out.push(notation::record_string(&s, p.action, seen));
        s.try_apply(p.action).map_err(|e| format!("record replay: {e}"))?;
        if s.is_chance() {
            let o = p.chance.ok_or("record replay: a chance node without its outcome")?;
            s.apply_chance(o);
        }
    }
    Ok(out)
}
