//! Canonical FEN and action strings of skill-tile xiangqi (docs/notation.md §5.2).
//!
//! FEN: `board side tiles last victory halfmove fullmove`.
//! * `board`: as [`crate::more::board`], 11 ranks on board A (the river row is rank 5), 10 on B;
//! * `tiles`: Red's 8 tile numbers (RULES-more.md §1.6 T1-T32) in recess order (palace squares
//!   in ascending square order, the general's start square left out), `/`, Black's; `0` for a
//!   recess not filled yet (set-up);
//! * `last`: the piece the side not to move moved last, as its letter and square (`P@e6`), with
//!   a trailing `~` when that move went along the river row (`R@b5~`, for the §1.10 #4 strict
//!   flag), or the letter alone when it is gone (after an exchange), or `-` (§1.7, T23);
//! * `victory`: the square of a T16 victory soldier awaiting the reply, or `-`;
//! * clocks as in xiangqi;
//! * `promo` (only under the T31 second-window option): Red's and Black's soldiers waiting on
//!   the back rank for the general to step onto T31, `e10,-`.
//!
//! Action strings: a move `b0c2`; an exchange (兑) `b0c2x`; a promotion `e9e10=R`; a
//! stagnation removal `-e5`; a set-up choice `T12@d0`.

use super::position::{geometry, SMove, SkillPosition};
use super::rules::SkillRules;
use super::tiles::COUNT;
use crate::more::board::Board;
use crate::more::piece::{Kind, Piece};
use crate::more::MoreError;
use crate::piece::Color;

/// Writes the FEN.
pub fn write(p: &SkillPosition) -> String {
    let g = p.geo();
    let tiles: Vec<String> = Color::ALL.iter().map(|&c| p.tiles(c).iter().map(|t| t.to_string()).collect::<Vec<_>>().join(",")).collect();
    let last = match (p.last_kind, p.last_sq) {
        (Some(k), Some(s)) => format!("{}@{}{}", Piece::new(p.turn.opponent(), k).char(), g.name(s), if p.last_along_river { "~" } else { "" }),
        (Some(k), None) => Piece::new(p.turn.opponent(), k).char().to_string(),
        _ => "-".into(),
    };
    let promo = if p.rules.t31_second_window {
        format!(" {},{}", p.promo_window[0].map_or("-".to_string(), |s| g.name(s)), p.promo_window[1].map_or("-".to_string(), |s| g.name(s)))
    } else {
        String::new()
    };
    format!(
        "{} {} {} {} {} {} {}{promo}",
        p.board.fen_field(),
        if p.turn == Color::Red { 'w' } else { 'b' },
        tiles.join("/"),
        last,
        p.pending_victory.map_or("-".to_string(), |s| g.name(s)),
        p.halfmove,
        p.fullmove
    )
}

/// Reads a FEN with `rules`.
///
/// # Errors
/// [`MoreError::Fen`] naming the problem.
pub fn parse(rules: SkillRules, text: &str) -> Result<SkillPosition, MoreError> {
    let f: Vec<&str> = text.split_whitespace().collect();
    if f.len() < 3 || f.len() > 8 {
        return Err(MoreError::Fen(format!("expected 3-8 fields (board side tiles [last victory halfmove fullmove promo]), got {}", f.len())));
    }
    let geo = geometry(rules.board);
    let board = Board::parse_field(geo, f[0])?;
    let mut p = SkillPosition::start(rules, [[0; 8]; 2]);
    p.board = board;
    p.turn = match f[1] {
        "w" | "r" => Color::Red,
        "b" => Color::Black,
        s => return Err(MoreError::Fen(format!("side {s:?} is not w or b"))),
    };
    let sides: Vec<&str> = f[2].split('/').collect();
    if sides.len() != 2 {
        return Err(MoreError::Fen("tiles: expected RED/BLACK".into()));
    }
    for (i, side) in sides.iter().enumerate() {
        let nums: Vec<&str> = side.split(',').collect();
        if nums.len() != 8 {
            return Err(MoreError::Fen(format!("tiles: {} numbers for one side, expected 8", nums.len())));
        }
        let mut seen = 0u64;
        for (j, n) in nums.iter().enumerate() {
            let t: u8 = n.parse().map_err(|_| MoreError::Fen(format!("tile {n:?} is not a number")))?;
            if t > COUNT || (t != 0 && seen >> t & 1 == 1) {
                return Err(MoreError::Fen(format!("tile {t} out of range or repeated")));
            }
            seen |= 1 << t;
            p.tiles[i][j] = t;
        }
    }
    let field = |i: usize| f.get(i).copied().unwrap_or("-");
    let last = field(3);
    if last != "-" {
        let mut ch = last.chars();
        let letter = ch.next().ok_or_else(|| MoreError::Fen("empty last field".into()))?;
        let piece = Piece::from_char(letter).ok_or_else(|| MoreError::Fen(format!("last: unknown letter {letter:?}")))?;
        // The last move was the other side's: its letter is in that side's case (as written).
        if piece.color == p.turn {
            return Err(MoreError::Fen(format!("last: {last} is a piece of the side to move; the last move was the other side's")));
        }
        p.last_kind = Some(piece.kind);
        let rest = ch.as_str();
        let rest = match rest.strip_suffix('~') {
            Some(r) => {
                p.last_along_river = true;
                r
            }
            None => rest,
        };
        if let Some(sq) = rest.strip_prefix('@') {
            let s = geo.parse(sq)?;
            // The kind is the kind that moved (a promoted soldier now shows its new kind).
            if p.board.get(s).is_none_or(|x| x.color != piece.color) {
                return Err(MoreError::Fen(format!("last: {last} is not on the board")));
            }
            p.last_sq = Some(s);
        } else if !rest.is_empty() {
            return Err(MoreError::Fen(format!("last: {last:?}")));
        }
    }
    let v = field(4);
    if v != "-" {
        let s = geo.parse(v)?;
        if p.board.get(s).is_none_or(|x| x.kind != Kind::Soldier || x.color == p.turn) {
            return Err(MoreError::Fen(format!("victory: no soldier of the side not to move on {v}")));
        }
        p.pending_victory = Some(s);
    }
    let num = |i: usize, d: u16| -> Result<u16, MoreError> {
        f.get(i).map_or(Ok(d), |t| t.parse().map_err(|_| MoreError::Fen(format!("clock {t:?} is not a number"))))
    };
    p.halfmove = num(5, 0)?;
    p.fullmove = num(6, 1)?.max(1);
    if let Some(t) = f.get(7) {
        let (a, b) = t.split_once(',').ok_or_else(|| MoreError::Fen("promo: expected RED,BLACK".into()))?;
        let sq = |x: &str| -> Result<Option<u8>, MoreError> { if x == "-" { Ok(None) } else { geo.parse(x).map(Some) } };
        p.promo_window = [sq(a)?, sq(b)?];
    }
    for c in Color::ALL {
        if p.count(c, Kind::General) != 1 {
            return Err(MoreError::Fen(format!("{c} must have exactly one general")));
        }
    }
    // §1.3: facing is check for a side without its own T6 active (§1.6.1), and the side not to
    // move cannot be in check at the end of a turn. On board A a turn may hold stagnation
    // removals before its move (§1.7), and a removal of a piece on the river row between the
    // generals leaves them facing until the move, so there such a FEN is a turn in progress.
    let waiting = p.turn.opponent();
    let mid_turn_possible = rules.board == super::rules::SkillBoard::A;
    if !mid_turn_possible && p.board.generals_facing() && p.active(waiting) != Some(super::tiles::T6) {
        return Err(MoreError::Fen(format!("board: the generals face each other on one file with nothing between, so {} (not to move) is in check: the position cannot arise (RULES-more.md §0.3; xiangqi refuses it too)", waiting)));
    }
    Ok(p)
}

/// The string of a move.
pub fn move_string(p: &SkillPosition, m: SMove) -> String {
    let g = p.geo();
    let mut s = format!("{}{}", g.name(m.from), g.name(m.to));
    if m.exchange {
        s.push('x');
    }
    if let Some(k) = m.promote {
        s.push('=');
        s.push(k.upper_char());
    }
    s
}

/// Reads a move string and checks it is legal (after the removals made so far).
///
/// # Errors
/// [`MoreError::Move`].
pub fn parse_move(p: &SkillPosition, text: &str) -> Result<SMove, MoreError> {
    let mut legal = Vec::new();
    p.legal_moves(&mut legal);
    legal.into_iter().find(|&m| move_string(p, m) == text.trim()).ok_or_else(|| MoreError::Move(format!("{text:?} is not a legal move here")))
}
