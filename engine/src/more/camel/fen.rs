//! Canonical FEN and action strings of camel xiangqi (docs/notation.md §5.3).
//!
//! FEN: `board side redplate blackplate flags redeem promo halfmove fullmove`.
//! * `board`: as [`crate::more::board`] with J = camel, Q = chancellor; a stack (edition 6) is
//!   `(TB)`, top then bottom, and counts as one file;
//! * a plate: its lower-left square, `:`, the 9 visible cells, `:`, the 9 cells beneath, each in
//!   the owner's frame, row 0 (back row) first, columns from the owner's left: `.` plain, `1`-`8`
//!   the tricks K1-K8, `0` the blank trick cell, `a`-`i` the numbers 1-9; under the secret
//!   layout option (§2.13) `-` is a trick cell not placed yet and, in a view FEN only, `?` one
//!   the viewer cannot see;
//! * `flags`: for Red then Black, flips made (a decimal count, `12f3n`: edition 7 flips without
//!   limit) and the kind of the last own action (`n` piece move, `p` plate rotation/translation,
//!   `f` flip): `0n0n` at the start;
//! * `redeem`: the square where the side to move's general was just captured, or `-`;
//! * `promo`: Red's and Black's K3 second-window soldier squares, `-,-` when none.
//!
//! Actions: `b0c2` (a move), `b0c2*` (a whole stack), `e8e9=R` (K3 promotion), `rot+` / `rot-`
//! (rotate clockwise / anticlockwise), `shift+f`, `shift-f`, `shift+r`, `shift-r` (translate
//! the plate one file or rank), `flip-lr` / `flip-fb`.

use super::movegen::CAction;
use super::position::{geometry, CamelPosition, Cell, LastAct, Plate, BLANK, HIDDEN, NUMBER, PLAIN, UNSET};
use super::rules::CamelRules;
use crate::more::board::Board;
use crate::more::piece::{Kind, Piece};
use crate::more::MoreError;
use crate::piece::Color;

/// Whether a piece of kind `k` may be part of a stack (§2.10).
fn eligible(k: Kind) -> bool {
    matches!(k, Kind::Chariot | Kind::Horse | Kind::Cannon | Kind::Camel)
}

fn cell_char(c: Cell) -> char {
    match c {
        PLAIN => '.',
        BLANK => '0',
        1..=8 => (b'0' + c) as char,
        UNSET => '-',
        HIDDEN => '?',
        n if n > NUMBER && n < UNSET => (b'a' + (n - NUMBER - 1)) as char,
        _ => '?',
    }
}

fn char_cell(ch: char) -> Option<Cell> {
    match ch {
        '.' => Some(PLAIN),
        '0' => Some(BLANK),
        '1'..='8' => Some(ch as u8 - b'0'),
        'a'..='i' => Some(NUMBER + 1 + (ch as u8 - b'a')),
        '-' => Some(UNSET),
        '?' => Some(HIDDEN),
        _ => None,
    }
}

fn face(f: &[[Cell; 3]; 3]) -> String {
    (0..3).flat_map(|r| (0..3).map(move |c| cell_char(f[c][r]))).collect()
}

fn parse_face(t: &str) -> Result<[[Cell; 3]; 3], MoreError> {
    let chars: Vec<char> = t.chars().collect();
    if chars.len() != 9 {
        return Err(MoreError::Fen(format!("plate face {t:?} needs 9 cells")));
    }
    let mut f = [[PLAIN; 3]; 3];
    for r in 0..3 {
        for c in 0..3 {
            f[c][r] = char_cell(chars[r * 3 + c]).ok_or_else(|| MoreError::Fen(format!("plate cell {:?}", chars[r * 3 + c])))?;
        }
    }
    Ok(f)
}

fn last_char(a: LastAct) -> char {
    match a {
        LastAct::Piece => 'n',
        LastAct::Palace => 'p',
        LastAct::Flip => 'f',
    }
}

/// Writes the FEN.
pub fn write(p: &CamelPosition) -> String {
    let g = p.geo();
    let mut board = String::new();
    for r in (0..g.ranks).rev() {
        let mut run = 0;
        for f in 0..g.files {
            let s = g.sq(f, r);
            match p.board.get(s) {
                None => run += 1,
                Some(top) => {
                    if run > 0 {
                        board.push_str(&run.to_string());
                        run = 0;
                    }
                    match p.under(s) {
                        Some(b) => board.push_str(&format!("({}{})", top.char(), b.char())),
                        None => board.push(top.char()),
                    }
                }
            }
        }
        if run > 0 {
            board.push_str(&run.to_string());
        }
        if r > 0 {
            board.push('/');
        }
    }
    let plate = |pl: &Plate| format!("{}:{}:{}", g.name(g.sq(pl.origin.0, pl.origin.1)), face(&pl.up), face(&pl.down));
    let opt = |s: Option<u8>| s.map_or("-".to_string(), |s| g.name(s));
    format!(
        "{} {} {} {} {}{}{}{} {} {},{} {} {}",
        board,
        if p.turn == Color::Red { 'w' } else { 'b' },
        plate(&p.plates[0]),
        plate(&p.plates[1]),
        p.flips[0],
        last_char(p.last_act[0]),
        p.flips[1],
        last_char(p.last_act[1]),
        opt(p.redeem),
        opt(p.promo_window[0]),
        opt(p.promo_window[1]),
        p.halfmove,
        p.fullmove
    )
}

/// Reads a FEN (the plate and memory fields may be left out: start plates of the edition).
/// Besides the syntax it checks what every state of the game has: stacks only from edition 6
/// and of chariots, horses, cannons and camels (§2.10); each plate within its owner's half
/// (§2.8) with its general on it (§2.7); a `redeem` square only in edition 2+, with the side to
/// move's general gone and an enemy piece there (§2.6); `promo` squares on the enemy back rank
/// (§2.9 K3). The plate faces are checked by
/// [`super::secret::check_faces`] ([`super::CamelGame::from_fen`]), so that tests may build
/// positions with single trick cells.
///
/// # Errors
/// [`MoreError::Fen`].
pub fn parse(rules: CamelRules, text: &str) -> Result<CamelPosition, MoreError> {
    let f: Vec<&str> = text.split_whitespace().collect();
    if f.len() < 2 || f.len() > 9 {
        return Err(MoreError::Fen(format!("expected 2-9 fields, got {}", f.len())));
    }
    let g = geometry(&rules);
    let mut p = CamelPosition::start(rules);
    p.board = Board::empty(g);
    let rows: Vec<&str> = f[0].split('/').collect();
    if rows.len() != g.ranks as usize {
        return Err(MoreError::Fen(format!("board has {} ranks, expected {}", rows.len(), g.ranks)));
    }
    for (i, row) in rows.iter().enumerate() {
        let r = g.ranks - 1 - i as u8;
        let mut file: u32 = 0;
        let mut num: u32 = 0;
        let mut chars = row.chars().peekable();
        while let Some(ch) = chars.next() {
            if let Some(d) = ch.to_digit(10) {
                num = num * 10 + d;
                // Checked per digit, so that a long run cannot wrap round to a valid width.
                if num > g.files as u32 {
                    return Err(MoreError::Fen(format!("rank {r}: run of {num} empty squares is too long")));
                }
                continue;
            }
            file += num;
            num = 0;
            if file >= g.files as u32 {
                return Err(MoreError::Fen(format!("rank {r} is too long")));
            }
            let s = g.sq(file as u8, r);
            if ch == '(' {
                let top = chars.next().and_then(Piece::from_char).ok_or_else(|| MoreError::Fen("bad stack".into()))?;
                let bottom = chars.next().and_then(Piece::from_char).ok_or_else(|| MoreError::Fen("bad stack".into()))?;
                if chars.next() != Some(')') || top.color != bottom.color {
                    return Err(MoreError::Fen("a stack is (TB) of one colour".into()));
                }
                // §2.10: stacks exist from edition 6 and hold chariots, horses, cannons and camels only.
                if !rules.stacking() || !eligible(top.kind) || !eligible(bottom.kind) {
                    return Err(MoreError::Fen(format!("stack ({}{}): edition {} {}", top.char(), bottom.char(), rules.edition, if rules.stacking() { "stacks only chariots, horses, cannons and camels" } else { "has no stacks (edition 6+)" })));
                }
                p.board.set(s, Some(top));
                p.under[s as usize] = bottom.code();
            } else {
                let pc = Piece::from_char(ch).ok_or_else(|| MoreError::Fen(format!("unknown piece letter {ch:?}")))?;
                if matches!(pc.kind, Kind::Fighter | Kind::Missile) {
                    return Err(MoreError::Fen(format!("{ch:?} is not a camel-xiangqi piece")));
                }
                p.board.set(s, Some(pc));
            }
            file += 1;
        }
        file += num;
        if file != g.files as u32 {
            return Err(MoreError::Fen(format!("rank {r} has {file} files, expected {}", g.files)));
        }
    }
    p.turn = match f[1] {
        "w" | "r" => Color::Red,
        "b" => Color::Black,
        s => return Err(MoreError::Fen(format!("side {s:?} is not w or b"))),
    };
    for (i, field) in f.iter().enumerate().skip(2).take(2) {
        let parts: Vec<&str> = field.split(':').collect();
        if parts.len() != 3 {
            return Err(MoreError::Fen(format!("plate {field:?}: expected SQ:UP:DOWN")));
        }
        let o = g.parse(parts[0])?;
        if g.file(o) + 3 > g.files || g.rank(o) + 3 > g.ranks {
            return Err(MoreError::Fen(format!("plate at {} is off the board", parts[0])));
        }
        // §2.8: a plate never leaves its owner's half (so the two plates never overlap).
        let owner = if i == 2 { Color::Red } else { Color::Black };
        if !g.own_half(owner, o) || !g.own_half(owner, g.sq(g.file(o), g.rank(o) + 2)) {
            return Err(MoreError::Fen(format!("{owner} plate at {}: a plate stays within its owner's half", parts[0])));
        }
        p.plates[i - 2] = Plate { origin: (g.file(o), g.rank(o)), up: parse_face(parts[1])?, down: parse_face(parts[2])? };
    }
    if let Some(flags) = f.get(4) {
        // Per side a decimal flip count (edition 7's reversible flips pass 9) and a letter.
        let bad = || MoreError::Fen(format!("flags {flags:?}: expected a flip count and n, p or f for Red then Black, like 0n0n or 12f3n"));
        let mut rest = *flags;
        for side in 0..2 {
            let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            p.flips[side] = rest[..digits].parse().map_err(|_| bad())?;
            p.last_act[side] = match rest[digits..].chars().next() {
                Some('n') => LastAct::Piece,
                Some('p') => LastAct::Palace,
                Some('f') => LastAct::Flip,
                _ => return Err(bad()),
            };
            rest = &rest[digits + 1..];
        }
        if !rest.is_empty() {
            return Err(bad());
        }
    }
    let sq = |t: &str| -> Result<Option<u8>, MoreError> { if t == "-" { Ok(None) } else { g.parse(t).map(Some) } };
    if let Some(t) = f.get(5) {
        p.redeem = sq(t)?;
    }
    if let Some(t) = f.get(6) {
        let (a, b) = t.split_once(',').ok_or_else(|| MoreError::Fen("promo: expected RED,BLACK".into()))?;
        p.promo_window = [sq(a)?, sq(b)?];
        // K3 window (ii) (§2.9): a soldier that has just reached the enemy back rank.
        for c in Color::ALL {
            if let Some(s) = p.promo_window[c.index()].filter(|&s| g.rank(s) != g.back_rank(c.opponent())) {
                return Err(MoreError::Fen(format!("promo: {}'s square {} is not on {}'s back rank", c, g.name(s), c.opponent())));
            }
        }
    }
    let num = |i: usize, d: u16| -> Result<u16, MoreError> { f.get(i).map_or(Ok(d), |t| t.parse().map_err(|_| MoreError::Fen(format!("clock {t:?}")))) };
    p.halfmove = num(7, 0)?;
    p.fullmove = num(8, 1)?.max(1);
    for c in Color::ALL {
        let n = p.count(c, Kind::General);
        let pending = p.redeem.is_some() && c == p.turn;
        if n != 1 && !(pending && n == 0) {
            return Err(MoreError::Fen(format!("{c} must have exactly one general")));
        }
        // The general never leaves its plate (§2.7, §2.8: it is confined to the plate's squares
        // and moves with it).
        if p.general(c).is_some_and(|s| !p.in_plate(c, s)) {
            return Err(MoreError::Fen(format!("{c}'s general is off its plate")));
        }
    }
    // §2.6: a pending redemption means the side to move has just lost its general to the enemy
    // piece now on that square (edition 2+).
    if let Some(s) = p.redeem {
        if !rules.redemption() || p.count(p.turn, Kind::General) != 0 || p.board.get(s).is_none_or(|x| x.color == p.turn) {
            return Err(MoreError::Fen(format!("redeem {}: needs edition 2+, the side to move without its general and an enemy piece on that square", g.name(s))));
        }
    }
    // §2.6 point 3: facing is check for a side without its K2 trick active, and the side not
    // to move cannot be in check.
    let waiting = p.turn.opponent();
    if p.facing() && p.trick(waiting) != Some(super::movegen::K2) {
        return Err(MoreError::Fen(format!("board: the generals face each other on one file with nothing between, so {} (not to move) is in check: the position cannot arise (RULES-more.md §0.3; xiangqi refuses it too)", waiting)));
    }
    Ok(p)
}

/// The string of an action.
pub fn action_string(p: &CamelPosition, a: CAction) -> String {
    let g = p.geo();
    match a {
        CAction::Move { from, to, unit, promote } => {
            let mut s = format!("{}{}", g.name(from), g.name(to));
            if unit {
                s.push('*');
            }
            if let Some(k) = promote {
                s.push('=');
                s.push(k.upper_char());
            }
            s
        }
        CAction::Rotate { cw } => if cw { "rot+" } else { "rot-" }.to_string(),
        CAction::Translate { dir } => ["shift+f", "shift-f", "shift+r", "shift-r"][dir as usize & 3].to_string(),
        CAction::Flip { front_back } => if front_back { "flip-fb" } else { "flip-lr" }.to_string(),
    }
}
