//! Face-down bookkeeping of missile xiangqi's alternative hidden-set-up reading (RULES-more.md
//! §3.8, "pieces stay face-down until first moved, as in 揭棋"; [`super::MissileRules::face_down`]).
//! The semantics are in the [`super::game`] module documentation; this module holds what they
//! need: which squares hold face-down pieces, each side's face-down arrangement as first made
//! (to recompute a re-dealt side's own set-up path), the position after the last removal with
//! the moves since (to recompute a re-dealt state's repetition record), the FEN fields
//! (`down`, `pool`, the `X`/`x` marker of docs/notation.md §5.1), their parser and the checks
//! that a face-down piece could stand where it stands.

use super::fen;
use super::position::{MMove, MissilePosition};
use super::rules::{MissileRules, SetupMethod};
use crate::more::board::Board;
use crate::more::geometry::Sq;
use crate::more::history::mix;
use crate::more::piece::{Kind, Piece};
use crate::more::MoreError;
use crate::piece::Color;

/// The view-FEN letter of a piece the viewer cannot identify (upper case Red), the face-down
/// marker of the RULES.md Fan-qi / Jieqi FENs (docs/notation.md §1).
pub const UNKNOWN: char = 'X';

/// The seeds of the two sides' own set-up paths (an empty placement sequence).
pub(super) const OWN_SEED: [u64; 2] = [0x5EED_0000_0000_0001, 0x5EED_0000_0000_0002];

/// The face-down state of a game after its hidden set-up.
#[derive(Clone, Debug)]
pub(super) struct FaceDown {
    /// Squares holding a face-down piece (both colours).
    pub down: u128,
    /// Each side's face-down pieces as first made, `(square, kind)`: in placement order after a
    /// hidden set-up, in square order from a FEN.
    pub origin: [Vec<(Sq, Kind)>; 2],
    /// Whether `origin` is a set-up placement sequence (the own path mixes its squares) or comes
    /// from a FEN (the own path mixes squares and kinds).
    pub from_setup: bool,
    /// The position after the last removal (or the start of the record).
    pub anchor: MissilePosition,
    /// The moves played since `anchor` (all of them quiet).
    pub window: Vec<MMove>,
}

#[inline]
fn bit(s: Sq) -> u128 {
    1u128 << s
}

/// Rank of `s` counted from `c`'s back rank (0-based).
pub(super) fn rel_rank(pos: &MissilePosition, s: Sq, c: Color) -> u8 {
    let g = pos.geo();
    if c == Color::Red {
        g.rank(s)
    } else {
        g.ranks - 1 - g.rank(s)
    }
}

/// How many ranks from its side's back rank a free piece of `kind` may be placed on (§3.8
/// [ASM]): 5 for soldiers (中兵守門法), 3 for the others.
pub(super) fn setup_depth(kind: Kind) -> u8 {
    if kind == Kind::Soldier {
        5
    } else {
        3
    }
}

impl FaceDown {
    /// The face-down state with `down` squares of `pos`.
    pub fn new(pos: &MissilePosition, down: u128, origin: [Vec<(Sq, Kind)>; 2], from_setup: bool) -> FaceDown {
        FaceDown { down, origin, from_setup, anchor: pos.clone(), window: Vec::new() }
    }

    /// Whether `s` holds a face-down piece.
    pub fn is_down(&self, s: Sq) -> bool {
        self.down & bit(s) != 0
    }

    /// The face-down squares of colour `c` in `pos`, in square order.
    pub fn squares(&self, pos: &MissilePosition, c: Color) -> Vec<Sq> {
        pos.board().pieces().filter(|&(s, p)| p.color == c && self.is_down(s)).map(|(s, _)| s).collect()
    }

    /// Books move `m`, whose result is `after`: the mover and anything on the target are face up
    /// from now on (the mover left its square, the target was removed or stays as a missile,
    /// which is never face-down); a removal starts a new repetition window.
    pub fn on_move(&mut self, m: MMove, after: &MissilePosition) {
        self.down &= !(bit(m.from) | bit(m.to));
        if after.halfmove() == 0 {
            self.anchor = after.clone();
            self.window.clear();
        } else {
            self.window.push(m);
        }
    }

    /// The `down` field: the face-down squares in square order, comma-separated, or `-`.
    pub fn down_field(&self, pos: &MissilePosition) -> String {
        let g = pos.geo();
        let v: Vec<String> = (0..g.len() as u8).filter(|&s| self.is_down(s)).map(|s| g.name(s)).collect();
        if v.is_empty() {
            "-".into()
        } else {
            v.join(",")
        }
    }

    /// The FEN of `pos` with the face-down pieces of the colours in `hide` written as
    /// [`UNKNOWN`] (owner's case).
    pub fn masked_fen(&self, pos: &MissilePosition, hide: &[Color]) -> String {
        let board = pos.board().fen_field_with(|s, p| {
            if self.is_down(s) && hide.contains(&p.color) {
                if p.color == Color::Red {
                    UNKNOWN
                } else {
                    UNKNOWN.to_ascii_lowercase()
                }
            } else {
                p.char()
            }
        });
        let full = fen::write(pos);
        let rest = full.split_once(' ').map(|x| x.1).unwrap_or("");
        format!("{board} {rest}")
    }

    /// A hash of what both players see of `pos`: the FEN with every face-down piece masked and
    /// the `down` field.
    pub fn public_hash(&self, pos: &MissilePosition) -> u64 {
        let text = format!("{} down {}", self.masked_fen(pos, &Color::ALL), self.down_field(pos));
        text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
    }

    /// The kinds of `c`'s face-down pieces, in kind order.
    pub fn pool(&self, pos: &MissilePosition, c: Color) -> Vec<Kind> {
        let mut v: Vec<Kind> = self.squares(pos, c).into_iter().filter_map(|s| pos.board().get(s)).map(|p| p.kind).collect();
        v.sort_unstable();
        v
    }

    /// Side `c`'s own path (its set-up knowledge) from `origin[c]`.
    pub fn own_path(&self, c: Color) -> u64 {
        self.origin[c.index()].iter().fold(OWN_SEED[c.index()], |h, &(s, k)| if self.from_setup { mix(h, s as u64) } else { mix(mix(h, s as u64), k as u64) })
    }
}

/// The `pool` field: kinds with counts in kind order (`r2n1c2`, owner's case), or `-`.
pub(super) fn pool_field(kinds: &[Kind], c: Color) -> String {
    let mut out = String::new();
    for k in Kind::ALL {
        let n = kinds.iter().filter(|&&x| x == k).count();
        if n > 0 {
            out.push(Piece::new(c, k).char());
            out.push_str(&n.to_string());
        }
    }
    if out.is_empty() {
        "-".into()
    } else {
        out
    }
}

/// Reads a `pool` field: the colour of its letters (`None` for `-`) and its kinds.
fn parse_pool(text: &str) -> Result<(Option<Color>, Vec<Kind>), String> {
    if text == "-" {
        return Ok((None, Vec::new()));
    }
    let mut colour = None;
    let mut kinds = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        let p = Piece::from_char(ch).ok_or_else(|| format!("pool {text:?}: {ch:?} is not a piece letter"))?;
        if colour.is_some_and(|c| c != p.color) {
            return Err(format!("pool {text:?}: only the hidden side's pieces (one colour)"));
        }
        colour = Some(p.color);
        let mut digits = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            digits.push(*d);
            chars.next();
        }
        let n: usize = digits.parse().map_err(|_| format!("pool {text:?}: {ch:?} needs a count"))?;
        if n == 0 || n > 40 {
            return Err(format!("pool {text:?}: count {n} of {ch:?} is not 1-40"));
        }
        kinds.extend(std::iter::repeat_n(p.kind, n));
    }
    Ok((colour, kinds))
}

/// A FEN or view FEN of a face-down game, read: the position (hidden pieces as soldiers of their
/// colour), the face-down squares, and for a view the squares written [`UNKNOWN`], their
/// colour and the `pool` of their kinds.
pub(super) struct Parsed {
    pub pos: MissilePosition,
    pub down: u128,
    pub unknown: Vec<Sq>,
    pub hidden: Option<Color>,
    pub pool: Vec<Kind>,
}

/// Reads `board side bases [halfmove fullmove] [down LIST]` (a full FEN) or, with `view`,
/// `board side bases halfmove fullmove down LIST pool POOL` with [`UNKNOWN`] letters.
pub(super) fn parse(rules: MissileRules, text: &str, view: bool) -> Result<Parsed, MoreError> {
    let bad = |why: String| MoreError::Fen(format!("{} {text:?}: {why}", if view { "view" } else { "FEN" }));
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let di = tokens.iter().position(|t| *t == "down");
    let (fen_tokens, down_text, pool_text) = match (di, view) {
        (None, false) => (&tokens[..], "-", None),
        (Some(i), false) if tokens.len() == i + 2 => (&tokens[..i], tokens[i + 1], None),
        (Some(i), true) if tokens.len() == i + 4 && tokens[i + 2] == "pool" => (&tokens[..i], tokens[i + 1], Some(tokens[i + 3])),
        (None, true) => return Err(bad("no `down` field".into())),
        _ => return Err(bad(format!("expected `down LIST`{} at the end", if view { " pool POOL" } else { "" }))),
    };
    let Some(board_text) = fen_tokens.first() else { return Err(bad("no board field".into())) };
    let marker = |ch: char| ch.eq_ignore_ascii_case(&UNKNOWN);
    if !view && board_text.chars().any(marker) {
        return Err(bad(format!("{UNKNOWN:?} (a hidden piece) belongs in a view FEN only")));
    }
    let placeholder: String = board_text.chars().map(|ch| if ch == UNKNOWN { 'P' } else if ch == UNKNOWN.to_ascii_lowercase() { 'p' } else { ch }).collect();
    let joined = std::iter::once(placeholder.as_str()).chain(fen_tokens[1..].iter().copied()).collect::<Vec<_>>().join(" ");
    let pos = fen::parse(rules, &joined)?;
    let g = pos.geo();
    // The board field parsed, so its ranks and runs are well formed: find the markers.
    let mut unknown = Vec::new();
    let mut hidden = None;
    for (i, row) in board_text.split('/').enumerate() {
        let r = g.ranks - 1 - i as u8;
        let (mut f, mut num) = (0u32, 0u32);
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                num = num * 10 + d;
                continue;
            }
            f += num;
            num = 0;
            if marker(ch) {
                let c = if ch.is_ascii_uppercase() { Color::Red } else { Color::Black };
                if hidden.is_some_and(|h| h != c) {
                    return Err(bad("hidden pieces of both colours: a view hides only the opponent's".into()));
                }
                hidden = Some(c);
                unknown.push(g.sq(f as u8, r));
            }
            f += 1;
        }
    }
    let mut down = 0u128;
    if down_text != "-" {
        for name in down_text.split(',') {
            let s = g.parse(name).map_err(|_| bad(format!("down: {name:?} is not a square")))?;
            if down & bit(s) != 0 {
                return Err(bad(format!("down: {name} twice")));
            }
            if pos.board().is_empty(s) {
                return Err(bad(format!("down: no piece on {name}")));
            }
            down |= bit(s);
        }
    }
    if let Some(&s) = unknown.iter().find(|&&s| down & bit(s) == 0) {
        return Err(bad(format!("{UNKNOWN:?} on {} is not in the down field", g.name(s))));
    }
    let (pool_colour, pool) = match pool_text {
        Some(t) => parse_pool(t).map_err(bad)?,
        None => (None, Vec::new()),
    };
    if pool.len() != unknown.len() || (pool_colour.is_some() && pool_colour != hidden) {
        return Err(bad(format!("the pool must name the {} hidden pieces, in their owner's case", unknown.len())));
    }
    Ok(Parsed { pos, down, unknown, hidden, pool })
}

/// Checks that every face-down piece of `pos` could stand where it stands under `rules`: a free
/// piece of the set-up order (`order`), on a square its side's set-up allowed for its kind and no
/// fixed piece held, and no more of a kind than the order has.
pub(super) fn check(rules: MissileRules, order: &[Kind], fixed: &Board, pos: &MissilePosition, down: u128) -> Result<(), String> {
    if rules.setup == SetupMethod::Open || !rules.face_down {
        return if down == 0 { Ok(()) } else { Err("face-down pieces need the face_down rule and a hidden set-up".into()) };
    }
    let g = pos.geo();
    for (s, p) in pos.board().pieces().filter(|&(s, _)| down & bit(s) != 0) {
        let name = g.name(s);
        if !order.contains(&p.kind) {
            return Err(format!("down: the {} on {name} is not a piece of the set-up (only {} are placed face-down)", p.kind.name(), names(order)));
        }
        if rel_rank(pos, s, p.color) >= setup_depth(p.kind) {
            return Err(format!("down: a face-down {} cannot stand on {name}: it was placed within {} ranks of its side", p.kind.name(), setup_depth(p.kind)));
        }
        if !fixed.is_empty(s) {
            return Err(format!("down: {name} holds a fixed piece at the set-up, so no face-down piece was placed there"));
        }
    }
    for c in Color::ALL {
        for &k in order {
            let have = pos.board().pieces().filter(|&(s, p)| down & bit(s) != 0 && p == Piece::new(c, k)).count();
            let max = order.iter().filter(|&&x| x == k).count();
            if have > max {
                return Err(format!("down: {have} face-down {}s of {c}, the set-up places {max}", k.name()));
            }
        }
    }
    Ok(())
}

fn names(order: &[Kind]) -> String {
    let mut v: Vec<&str> = order.iter().map(|k| k.name()).collect();
    v.dedup();
    v.join(", ")
}
