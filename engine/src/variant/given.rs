//! A position as a user or a GUI gives it (`--fen` of the CLI, UCI `position fen`): a full state
//! (RULES.md §N), one player's view (`docs/notation.md` §2, marked `view=w|b`), or JieqiBox's
//! six-field Jieqi FEN, which is the side to move's view (`board side pool captured halfmove
//! fullmove`: `pool` the identities that side has not seen, `captured` the captured face-down
//! pieces whose identity it saw). A view says what only one player knows, so a position can be
//! given as that player knows it (issue 13): capturer-only knowledge (§F6) has a text form.

use super::fen as vfen;
use super::state::State;
use super::view::{View, ViewError};
use super::Variant;
use crate::piece::{Color, Role};
use rand::SeedableRng;

/// A position given as text.
#[derive(Clone)]
#[allow(clippy::large_enum_variant)] // made once per command or `position`, never in a search
pub enum Given {
    /// A full-state FEN: every hidden part is given, so the position is the whole state.
    Full(State),
    /// A view FEN (or a JieqiBox FEN): what one player knows.
    View(View),
}

impl Given {
    /// Reads `text` as a view FEN when it holds a `view=` field, as JieqiBox's six-field FEN in
    /// Fan-qi and Jieqi when its fourth field is not a number, else as a full-state FEN.
    ///
    /// # Errors
    /// [`ViewError`] naming the field that is malformed.
    pub fn parse(variant: &'static Variant, text: &str) -> Result<Given, ViewError> {
        if text.split_whitespace().any(|f| f.starts_with("view=")) {
            return Ok(Given::View(View::from_fen(variant, text)?));
        }
        if let Some(view_fen) = jieqibox_view_fen(variant, text)? {
            return Ok(Given::View(View::from_fen(variant, &view_fen)?));
        }
        Ok(Given::Full(vfen::parse(variant, text)?))
    }

    /// The player whose view was given, `None` for a full state.
    pub fn viewer(&self) -> Option<Color> {
        match self {
            Given::Full(_) => None,
            Given::View(v) => Some(v.player()),
        }
    }

    /// A full state to act on: the state itself, or one determinization of the view (always the
    /// same one). Everything a non-oracle player is handed from it (its view, its legal actions)
    /// is the given view's, whichever determinization it is.
    pub fn state(&self) -> State {
        match self {
            Given::Full(s) => s.clone(),
            Given::View(v) => v.sample(&mut rand_pcg::Pcg64Mcg::seed_from_u64(0)),
        }
    }

    /// The view of `player`: of the full state, or the given view (which must be `player`'s).
    ///
    /// # Errors
    /// A description when a view of the other player was given.
    pub fn view(&self, player: Color) -> Result<View, String> {
        match self {
            Given::Full(s) => Ok(View::new(s, player)),
            Given::View(v) if v.player() == player => Ok(v.clone()),
            Given::View(v) => Err(format!("the FEN is {}'s view; {player}'s view cannot be made from it", v.player())),
        }
    }
}

/// Converts JieqiBox's six-field Jieqi FEN (`board side pool captured halfmove fullmove`) to the
/// side to move's view FEN (the `captured` field, the captured face-down pieces the viewer saw,
/// adds nothing the view needs: they are out of the game and out of the unseen pool; it is checked
/// against the 16 pieces of each side); `None` when `text` is not in that form (another family, or a fourth
/// field that is a number, as in RULES.md §N2's five- and six-field forms).
///
/// # Errors
/// [`ViewError`] naming the `pool` or `captured` field when it does not fit the board.
pub fn jieqibox_view_fen(variant: &'static Variant, text: &str) -> Result<Option<String>, ViewError> {
    let f: Vec<&str> = text.split_whitespace().collect();
    if !variant.caps.face_down() || f.len() != 6 || f[3].parse::<u32>().is_ok() || f[4].parse::<u32>().is_err() || f[5].parse::<u32>().is_err() {
        return Ok(None);
    }
    let bad = |field: &'static str, problem: String| ViewError::Field { field, problem };
    let count = |pool: &str, field: &'static str| -> Result<[u32; 2], ViewError> {
        let mut n = [0u32; 2];
        let mut chars = pool.chars().peekable();
        while let Some(c) = chars.next() {
            if pool == "-" {
                break;
            }
            if Role::from_char(c.to_ascii_uppercase()).is_none() {
                return Err(bad(field, format!("{pool:?}: {c:?} is not a piece letter")));
            }
            let mut digits = String::new();
            while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                digits.push(*d);
                chars.next();
            }
            let k: u32 = if digits.is_empty() { 1 } else { digits.parse().map_err(|_| bad(field, format!("{pool:?}: bad count")))? };
            n[usize::from(c.is_ascii_lowercase())] += k;
        }
        Ok(n)
    };
    let unseen_pool = count(f[2], "pool")?;
    let captured = count(f[3], "captured")?;
    let mut down = [0u32; 2];
    for ch in f[0].chars() {
        match ch {
            'X' => down[0] += 1,
            'x' => down[1] += 1,
            _ => {}
        }
    }
    let mut unseen = [0u32; 2];
    for c in 0..2 {
        unseen[c] = unseen_pool[c].checked_sub(down[c]).ok_or_else(|| {
            bad("pool", format!("{:?}: {} identities for {} face-down pieces of {}", f[2], unseen_pool[c], down[c], if c == 0 { "Red" } else { "Black" }))
        })?;
    }
    // Each side has 16 pieces: those on the board, the captured face-down pieces the viewer saw
    // (`captured`) and those it did not (the pool beyond the face-down pieces) cannot exceed them.
    let mut on_board = [0u32; 2];
    for ch in f[0].split('/').flat_map(|r| r.chars()).filter(|c| c.is_ascii_alphabetic()) {
        on_board[usize::from(ch.is_ascii_lowercase())] += 1;
    }
    for c in 0..2 {
        if on_board[c] + captured[c] + unseen[c] > 16 {
            return Err(bad("captured", format!("{:?}: {} pieces on the board, {} captured face-down and seen, {} captured unseen: more than the 16 of {}", f[3], on_board[c], captured[c], unseen[c], if c == 0 { "Red" } else { "Black" })));
        }
    }
    let viewer = match f[1] {
        "w" | "r" => 'w',
        "b" => 'b',
        s => return Err(bad("side", format!("{s:?}: expected w or b"))),
    };
    Ok(Some(format!("{} {} {} {} {} view={viewer} unseen={},{}", f[0], if viewer == 'w' { "w" } else { "b" }, f[2], f[4], f[5], unseen[0], unseen[1])))
}
