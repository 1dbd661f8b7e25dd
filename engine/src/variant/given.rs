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
    ///
    /// In Fan-qi and Jieqi JieqiBox's other forms are read too ([`jieqibox_six_fields`]): its old
    /// FEN format (`board pool side - - halfmove fullmove`) and an empty pool field written as
    /// nothing between two spaces (so `text` should be the FEN as received, not re-joined).
    pub fn parse(variant: &'static Variant, text: &str) -> Result<Given, ViewError> {
        if text.split_whitespace().any(|f| f.starts_with("view=")) {
            return Ok(Given::View(View::from_fen(variant, text)?));
        }
        let six;
        let text = match variant.caps.face_down().then(|| jieqibox_six_fields(text)).flatten() {
            Some(s) => {
                six = s;
                six.as_str()
            }
            None => text,
        };
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

/// Whether `text` is a piece list of a pool or captured field: piece letters each followed by a
/// count (`R2r2N2n2…`, JieqiBox and Pikafish always write the count).
fn is_piece_list(text: &str) -> bool {
    let mut chars = text.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        if Role::from_char(c.to_ascii_uppercase()).is_none() || !chars.peek().is_some_and(|d| d.is_ascii_digit()) {
            return false;
        }
        while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
            chars.next();
        }
        any = true;
    }
    any
}

/// JieqiBox's FEN forms other than its six-field one, rewritten to that one (`board side pool
/// captured halfmove fullmove`); `None` when `raw` is in neither form (then it is read as it is).
///
/// - The old FEN format of JieqiBox's settings: `board pool side - - halfmove fullmove` (no
///   captured field: `-`).
/// - An empty pool field, which JieqiBox's Human-vs-AI mode writes as nothing between two spaces
///   once the pool is empty (`3k5/… w  r1 0 40`, old format `3k5/…  w - - 0 40`): read as `-`.
///
/// `raw` must be the FEN as received: re-joining its words would lose the empty field.
pub fn jieqibox_six_fields(raw: &str) -> Option<String> {
    let f: Vec<&str> = raw.trim().split(' ').collect();
    let side = |s: &str| matches!(s, "w" | "b" | "r");
    let num = |s: &str| s.parse::<u32>().is_ok();
    let pool = |s: &str| s.is_empty() || s == "-" || is_piece_list(s);
    fn dash(s: &str) -> &str {
        if s.is_empty() {
            "-"
        } else {
            s
        }
    }
    match f.as_slice() {
        // Old format (an empty pool leaves an empty second field).
        [board, p, s, "-", "-", half, full] if side(s) && pool(p) && num(half) && num(full) => {
            Some(format!("{board} {s} {} - {half} {full}", dash(p)))
        }
        // New format with an empty pool field.
        [board, s, "", captured, half, full] if side(s) && pool(captured) && num(half) && num(full) => {
            Some(format!("{board} {s} - {captured} {half} {full}"))
        }
        _ => None,
    }
}

/// Whether `raw`, a FEN as received (UCI `position fen`), is a Jieqi FEN by its own fields: a
/// face-down piece (`X`/`x`) on the board, a pool or captured field holding pieces, or one of
/// JieqiBox's forms of [`jieqibox_six_fields`]. A FEN with none of these (`board w - - 0 40`: no
/// face-down piece, an empty pool, nothing captured face-down) is a xiangqi FEN as much as a Jieqi
/// one: this says `false`, and the caller reads it in the variant it plays.
pub fn looks_like_jieqi(raw: &str) -> bool {
    let words: Vec<&str> = raw.split_whitespace().collect();
    let Some(board) = words.first() else { return false };
    if board.contains(['x', 'X']) || jieqibox_six_fields(raw).is_some() {
        return true;
    }
    // `board side pool …` (Pikafish, RULES.md §N) or `board side pool captured …` (JieqiBox).
    words.len() >= 5 && words.len() <= 7 && matches!(words[1], "w" | "b" | "r") && words[2..4].iter().any(|w| is_piece_list(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jieqibox_forms_are_rewritten_to_six_fields() {
        let board = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X2P4/9/XXXXKXXXX";
        let old = format!("{board} R2r2N2n2B2b2A2a2C2c2P4p5 b - - 1 1");
        assert_eq!(jieqibox_six_fields(&old), Some(format!("{board} b R2r2N2n2B2b2A2a2C2c2P4p5 - 1 1")));
        assert_eq!(jieqibox_six_fields("3k5/9/9/9/9/9/9/9/4R4/4K4 w  r1 0 40").as_deref(), Some("3k5/9/9/9/9/9/9/9/4R4/4K4 w - r1 0 40"));
        assert_eq!(jieqibox_six_fields("3k5/9/9/9/9/9/9/9/4R4/4K4  w - - 0 40").as_deref(), Some("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 40"));
        // The new six-field form and the other families are read as they are.
        assert_eq!(jieqibox_six_fields(&format!("{board} b R2r2N2n2B2b2A2a2C2c2P4p5 - 1 1")), None);
        assert_eq!(jieqibox_six_fields("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"), None);
    }

    #[test]
    fn jieqi_is_recognised_from_the_fen_alone() {
        for fen in [
            "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1",
            "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X2P4/9/XXXXKXXXX R2r2N2n2B2b2A2a2C2c2P4p5 b - - 1 1",
            "3k5/9/9/9/9/9/9/9/4R4/4K4 w - r1 0 40",
            "3k5/9/9/9/9/9/9/9/4R4/4K4 w  - 0 40",
            "3k5/9/9/9/9/9/9/9/4R4/4K4 - w - - 0 40",
        ] {
            assert!(looks_like_jieqi(fen), "{fen}");
        }
        for fen in [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 40",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 a0=C,b0=R 3:0/3:0",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 e0,e9 -,-",
        ] {
            assert!(!looks_like_jieqi(fen), "{fen}");
        }
    }
}
