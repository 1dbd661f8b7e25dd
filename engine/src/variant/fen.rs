//! The canonical full-state FEN of RULES.md §N for every variant, read and written.
//!
//! - §N1 standard and King chess base: `board side - - halfmove fullmove`;
//! - §N2 Fan-qi / Jieqi: `board side pool halfmove fullmove [determined]`, `X`/`x` face-down;
//! - §N3 Surprise: six standard fields, then `backs` and `rights`;
//! - §N4 King chess: six standard fields, then `markers` and `grind`.

use super::config::{Family, Placement, Variant};
use super::state::{start_role, State};
use crate::geometry::Square;
use crate::notation::fen::{parse_board, parse_counters, parse_side, write_board, FenError};
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, Setup};

/// A malformed or inconsistent variant FEN, naming the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StateFenError {
    /// A standard field is malformed (see [`FenError`]).
    #[error(transparent)]
    Fen(#[from] FenError),
    /// A variant field is malformed or contradicts the board.
    #[error("FEN {field} field: {problem}")]
    Field {
        /// `pool`, `determined`, `backs`, `rights`, `markers`, `grind` or `board`.
        field: &'static str,
        /// What is wrong, citing RULES.md.
        problem: String,
    },
}

fn field_err(field: &'static str, problem: impl Into<String>) -> StateFenError {
    StateFenError::Field { field, problem: problem.into() }
}

fn parse_counts(field: &str) -> Result<[[u8; Role::COUNT]; 2], StateFenError> {
    let mut pool = [[0u8; Role::COUNT]; 2];
    if field == "-" {
        return Ok(pool);
    }
    let mut chars = field.chars().peekable();
    while let Some(c) = chars.next() {
        let p = Piece::from_char(c).ok_or_else(|| field_err("pool", format!("unknown letter {c:?} (§N2)")))?;
        let mut digits = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            digits.push(*d);
            chars.next();
        }
        let n: u8 = digits.parse().map_err(|_| field_err("pool", format!("letter {c:?} needs a count (§N2)")))?;
        if p.role == Role::General {
            return Err(field_err("pool", "the general is never face-down (§F1)"));
        }
        let slot = &mut pool[p.color.index()][p.role.index()];
        *slot = slot.checked_add(n).ok_or_else(|| field_err("pool", format!("letter {c:?}: more than 255 in all (§N2)")))?;
    }
    Ok(pool)
}

fn parse_square_list(field: &'static str, text: &str) -> Result<Vec<(Square, char, bool)>, StateFenError> {
    let mut out = Vec::new();
    if text == "-" || text.is_empty() {
        return Ok(out);
    }
    for entry in text.split(',') {
        let (sq, rest) = entry.split_once('=').ok_or_else(|| field_err(field, format!("entry {entry:?} is not square=Letter (§N2-N3)")))?;
        let sq = Square::parse(sq).ok_or_else(|| field_err(field, format!("bad square in {entry:?}")))?;
        let seen = rest.ends_with('*');
        let letter = rest.trim_end_matches('*');
        let mut cs = letter.chars();
        let (Some(c), None) = (cs.next(), cs.next()) else {
            return Err(field_err(field, format!("entry {entry:?} needs one piece letter")));
        };
        out.push((sq, c, seen));
    }
    Ok(out)
}

/// Reads a full-state FEN of `variant`.
///
/// # Errors
/// [`StateFenError`] naming the field that is malformed or inconsistent with the board.
pub fn parse(variant: &'static Variant, fen: &str) -> Result<State, StateFenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty.into());
    }
    if fields.len() < 2 {
        return Err(FenError::FieldCount { found: fields.len() }.into());
    }
    let rules = variant.rules;
    let g = &rules.attacks.geometry;
    let mut setup = Setup::default();
    let mut down: Vec<(Square, Color)> = Vec::new();
    // §F1: `X`/`x` is a face-down piece, where the rules have them.
    let fanqi = variant.caps.face_down();
    parse_board(
        fields[0],
        g.files,
        g.ranks,
        |c, sq| {
            if fanqi && (c == 'X' || c == 'x') {
                let color = if c == 'X' { Color::Red } else { Color::Black };
                let role = start_role(rules, color, sq)?;
                if role == Role::General {
                    return None;
                }
                down.push((sq, color));
                Some(Some(Piece::new(color, role)))
            } else {
                Piece::from_char(c).map(Some)
            }
        },
        &mut setup.board,
    )
    .map_err(|e| match e {
        FenError::UnknownLetter { rank, letter } if fanqi && (letter == 'X' || letter == 'x') => field_err(
            "board",
            format!("rank {rank} (from the top): a face-down piece must stand on one of its side's start points other than the general's (§F1-F2)"),
        ),
        e => e.into(),
    })?;
    setup.turn = parse_side(fields[1])?;
    let mut extra_start = 6;
    if fanqi {
        let (h, f) = parse_counters(fields.get(3).copied(), fields.get(4).copied())?;
        setup.halfmove = h;
        setup.fullmove = f;
        extra_start = 5;
    } else {
        for (i, f) in fields.iter().enumerate().skip(2).take(2) {
            if *f != "-" {
                return Err(FenError::Unused { field: i + 1, found: f.to_string() }.into());
            }
        }
        let (h, f) = parse_counters(fields.get(4).copied(), fields.get(5).copied())?;
        setup.halfmove = h;
        setup.fullmove = f;
    }
    // §K6: a king piece gives no check, so the core's test that the side not to move is not in
    // check gives way to the king-chess one below.
    let pos = if variant.caps.king_pieces {
        Position::from_setup_unchecked_check(&setup, rules)
    } else {
        Position::from_setup(&setup, rules)
    }
    .map_err(FenError::from)?;
    let mut s = State::from_parts(variant, pos);
    let extra: Vec<&str> = fields.iter().skip(extra_start).copied().collect();
    match variant.family {
        Family::Xiangqi => {
            if !extra.is_empty() {
                return Err(FenError::FieldCount { found: fields.len() }.into());
            }
        }
        Family::Fanqi => read_fanqi(&mut s, &down, fields.get(2).copied().unwrap_or("-"), extra.first().copied())?,
        Family::Surprise => read_surprise(&mut s, &extra)?,
        Family::King => {
            read_king(&mut s, &extra)?;
            let them = s.position().turn().opponent();
            if s.king_general_attacked(them) {
                return Err(FenError::from(crate::position::PositionError::OpponentInCheck(them)).into());
            }
        }
    }
    Ok(s)
}

fn read_fanqi(s: &mut State, down: &[(Square, Color)], pool: &str, determined: Option<&str>) -> Result<(), StateFenError> {
    let pool = parse_counts(pool)?;
    let mut known = std::collections::HashMap::new();
    for (sq, c, _) in parse_square_list("determined", determined.unwrap_or("-"))? {
        let p = Piece::from_char(c).ok_or_else(|| field_err("determined", format!("unknown letter {c:?}")))?;
        match down.iter().find(|(d, _)| *d == sq) {
            Some((_, color)) if *color == p.color => {}
            _ => return Err(field_err("determined", format!("{sq}={c}: no face-down piece of that colour on {sq} (§N2)"))),
        }
        if p.role == Role::General {
            return Err(field_err("determined", "the general is never face-down (§F1)"));
        }
        known.insert(sq, p.role);
    }
    let mut undetermined = [0u32; 2];
    for &(sq, c) in down {
        let id = known.get(&sq).copied();
        if id.is_none() {
            undetermined[c.index()] += 1;
        }
        s.set_face_down(sq, id);
    }
    for c in Color::ALL {
        let total: u32 = pool[c.index()].iter().map(|&n| n as u32).sum();
        if s.variant().open && undetermined[c.index()] > 0 {
            // docs/open-twins.md §O3: an open twin's deal is known, so nothing is undetermined.
            return Err(field_err(
                "determined",
                format!("{}: an open twin's deal is known from the start, but {c} has {} face-down pieces with no identity in the sixth field (docs/open-twins.md §O3)", s.variant().name, undetermined[c.index()]),
            ));
        }
        if matches!(s.variant().fanqi.placement(), Placement::None | Placement::Fixed) && undetermined[c.index()] > 0 {
            // §F3 modes 1 and 2: a face-down piece stood on its own start point from the start
            // (mode 2) or was turned down by §F5; either way its identity is fixed and public.
            return Err(field_err(
                "determined",
                format!("{}: every face-down piece's identity is fixed and known (§F3: its start point's type, or the piece §F5 turned down), but {c} has {} face-down pieces with no identity in the sixth field", s.variant().name, undetermined[c.index()]),
            ));
        }
        if total != undetermined[c.index()] {
            return Err(field_err(
                "pool",
                format!("{c} pool holds {total} pieces but {c} has {} undetermined face-down pieces (§N2)", undetermined[c.index()]),
            ));
        }
        // Identity totals may not exceed the start array (§F3).
        let pos = s.position();
        for role in Role::ALL {
            let max = pos.rules().start_points(c, role).count();
            let faceup = (pos.pieces(c, role) & !s.face_down()).count();
            let det = s.face_down().filter(|&sq| s.identity(sq) == Some(role) && pos.piece_at(sq).map(|p| p.color) == Some(c)).count() as u32;
            let n = faceup + det + pool[c.index()][role.index()] as u32;
            if n > max {
                return Err(field_err("pool", format!("{c} would have {n} {role}s (at most {max})")));
            }
        }
        s.set_pool(c, pool[c.index()]);
    }
    Ok(())
}

fn read_surprise(s: &mut State, extra: &[&str]) -> Result<(), StateFenError> {
    let (Some(backs), Some(rights)) = (extra.first(), extra.get(1)) else {
        return Err(field_err("backs", "a Surprise FEN needs the backs and rights fields after the six standard ones (§N3)"));
    };
    // §S1: each side has two chariot|horse, two chariot|cannon and two horse|cannon discs.
    let mut discs = [[0u8; 3]; 2];
    let mut listed = Vec::new();
    for (sq, c, seen) in parse_square_list("backs", backs)? {
        if listed.contains(&sq) {
            return Err(field_err("backs", format!("{sq} is listed twice (§N3)")));
        }
        listed.push(sq);
        let p = Piece::from_char(c).ok_or_else(|| field_err("backs", format!("unknown letter {c:?}")))?;
        match s.position().piece_at(sq) {
            Some(v) if v.color == p.color && matches!(v.role, Role::Chariot | Role::Horse | Role::Cannon) && v.role != p.role => {}
            _ => {
                return Err(field_err("backs", format!("{sq}={c}: needs a {} chariot, horse or cannon of another type on {sq} (§S1)", p.color)))
            }
        }
        if !matches!(p.role, Role::Chariot | Role::Horse | Role::Cannon) {
            return Err(field_err("backs", format!("{sq}={c}: a back face is a chariot, horse or cannon (§S1)")));
        }
        if let Some(vis) = s.position().piece_at(sq) {
            let d = disc_kind(vis.role, p.role);
            discs[p.color.index()][d] += 1;
            if discs[p.color.index()][d] > 2 {
                let (a, b) = DISC_NAMES[d];
                return Err(field_err("backs", format!("{} has more than two {a}|{b} discs (§S1: two of each of the three kinds)", p.color)));
            }
        }
        s.set_back(sq, p.role, seen);
    }
    let sr = &s.variant().surprise;
    let (max_rights, max_reveals) = (sr.flip_rights, sr.chariot_reveal_limit);
    let sides: Vec<&str> = rights.split('/').collect();
    if sides.len() != 2 {
        return Err(field_err("rights", "expected red/black like 3:0/3:0 (§N3)"));
    }
    for (c, part) in Color::ALL.into_iter().zip(sides) {
        let comps: Vec<&str> = part.split(':').collect();
        let num = |i: usize| -> Result<u8, StateFenError> {
            comps.get(i).and_then(|x| x.parse().ok()).ok_or_else(|| field_err("rights", format!("{part:?}: expected rights:chariot_reveals (§N3)")))
        };
        let (r, cr) = (num(0)?, num(1)?);
        // §S5: rights start at the variant's number and only go down, and at most
        // `chariot_reveal_limit` chariot reveals are made. (How many rights those reveals spent
        // is not checked: the §S5 tests isolate the once-per-game limit with `3:1`.)
        if r > max_rights {
            return Err(field_err("rights", format!("{part:?}: {c} has {r} flip rights left, but a side starts with {max_rights} (§S5)")));
        }
        if cr > max_reveals {
            return Err(field_err("rights", format!("{part:?}: {c} made {cr} chariot reveals, at most {max_reveals} are allowed (§S5)")));
        }
        let mut lost = [0u8; Role::COUNT];
        if let Some(l) = comps.get(2) {
            if *l != "-" {
                for ch in l.chars() {
                    let role = Role::from_char(ch).ok_or_else(|| field_err("rights", format!("unknown type {ch:?}")))?;
                    if !matches!(role, Role::Chariot | Role::Horse | Role::Cannon) {
                        return Err(field_err("rights", format!("{part:?}: {ch:?} is no disc face (chariot, horse or cannon, §S6)")));
                    }
                    lost[role.index()] += 1;
                    if lost[role.index()] > 2 {
                        return Err(field_err("rights", format!("{part:?}: more than two {role}s lost (§S6)")));
                    }
                }
            }
        }
        if comps.len() > 3 {
            return Err(field_err("rights", format!("{part:?}: too many ':' parts")));
        }
        s.set_rights(c, r, cr, lost);
    }
    Ok(())
}

/// The three disc kinds of §S1 (chariot|horse, chariot|cannon, horse|cannon), for messages.
const DISC_NAMES: [(&str, &str); 3] = [("chariot", "horse"), ("chariot", "cannon"), ("horse", "cannon")];

/// The §S1 kind of the disc with faces `a` and `b` (two of chariot, horse, cannon, different;
/// the caller has checked them): an index into [`DISC_NAMES`].
fn disc_kind(a: Role, b: Role) -> usize {
    match (a, b) {
        (Role::Chariot, Role::Horse) | (Role::Horse, Role::Chariot) => 0,
        (Role::Chariot, Role::Cannon) | (Role::Cannon, Role::Chariot) => 1,
        _ => 2,
    }
}

fn read_king(s: &mut State, extra: &[&str]) -> Result<(), StateFenError> {
    if let Some(markers) = extra.first() {
        let parts: Vec<&str> = markers.split(',').collect();
        if parts.len() != 2 {
            return Err(field_err("markers", "expected red,black squares like e0,e9 (§N4)"));
        }
        for (c, p) in Color::ALL.into_iter().zip(parts) {
            let sq = Square::parse(p).ok_or_else(|| field_err("markers", format!("bad square {p:?}")))?;
            match s.position().piece_at(sq) {
                Some(pc) if pc.color == c => s.set_marker(c, sq),
                _ => return Err(field_err("markers", format!("no {c} piece on {sq} to carry the marker (§K1)"))),
            }
        }
    }
    if let Some(grind) = extra.get(1) {
        let parts: Vec<&str> = grind.split(',').collect();
        if parts.len() != 2 {
            return Err(field_err("grind", "expected red,black like h2:3,- (§N4)"));
        }
        for (c, p) in Color::ALL.into_iter().zip(parts) {
            if p == "-" {
                continue;
            }
            let (sq, n) = p.split_once(':').ok_or_else(|| field_err("grind", format!("{p:?}: expected square:length")))?;
            let sq = Square::parse(sq).ok_or_else(|| field_err("grind", format!("bad square in {p:?}")))?;
            let n: u8 = n.parse().map_err(|_| field_err("grind", format!("bad length in {p:?}")))?;
            // §K7: a run has length 1 or more, and the move that makes it `grind_limit` long
            // ends the game, so no run is longer.
            let limit = s.variant().king.grind_limit;
            if n == 0 || (limit > 0 && n > limit) {
                let most = if limit > 0 { format!("{limit}") } else { "255".into() };
                return Err(field_err("grind", format!("{p:?}: a run is 1 to {most} moves long (§K7)")));
            }
            match s.position().piece_at(sq) {
                Some(pc) if pc.color == c => s.set_run(c, Some((sq, n))),
                _ => return Err(field_err("grind", format!("no {c} piece on {sq} (§K7)"))),
            }
        }
    }
    if extra.len() > 2 {
        return Err(field_err("grind", "extra fields after grind"));
    }
    Ok(())
}

/// The order in which the §N2 `pool` field lists each side's letters when written. The reader
/// takes the letters in any order ([`parse`]), so both orders name the same state.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum PoolOrder {
    /// anqi's canonical order, the one of RULES.md §N2's example: A B N R C P
    /// (`A2B2N2R2C2P5a2b2n2r2c2p5`). Game records and [`write`] use it.
    #[default]
    Canonical,
    /// The order Pikafish's `jieqi` branch writes (its piece-letter order): R A C P N B
    /// (`R2A2C2P5N2B2r2a2c2p5n2b2`). For speaking to a Pikafish-dialect engine.
    Pikafish,
}

impl PoolOrder {
    /// The roles in writing order.
    pub fn roles(self) -> [Role; 6] {
        match self {
            PoolOrder::Canonical => [Role::Advisor, Role::Elephant, Role::Horse, Role::Chariot, Role::Cannon, Role::Soldier],
            PoolOrder::Pikafish => [Role::Chariot, Role::Advisor, Role::Cannon, Role::Soldier, Role::Horse, Role::Elephant],
        }
    }
}

fn write_counts(pool: [[u8; Role::COUNT]; 2], order: PoolOrder) -> String {
    let mut out = String::new();
    for c in Color::ALL {
        for role in order.roles() {
            let n = pool[c.index()][role.index()];
            if n > 0 {
                out.push(Piece::new(c, role).char());
                out.push_str(&n.to_string());
            }
        }
    }
    if out.is_empty() {
        "-".into()
    } else {
        out
    }
}

/// Lists `square=Letter` entries Red first, then Black, each in ascending square order (§N5).
fn write_list(entries: &mut [(Color, Square, String)]) -> String {
    entries.sort_by_key(|(c, sq, _)| (c.index(), sq.index()));
    let v: Vec<String> = entries.iter().map(|(_, sq, t)| format!("{sq}={t}")).collect();
    if v.is_empty() {
        "-".into()
    } else {
        v.join(",")
    }
}

/// Writes the canonical full-state FEN (RULES.md §N) of `s`.
pub fn write(s: &State) -> String {
    write_with(s, PoolOrder::Canonical)
}

/// Writes the full-state FEN (RULES.md §N) of `s` with the §N2 pool letters in `order`; with
/// [`PoolOrder::Canonical`] this is [`write`]. Only Fan-qi and Jieqi FENs have a pool.
pub fn write_with(s: &State, order: PoolOrder) -> String {
    let pos = s.position();
    let g = &pos.rules().attacks.geometry;
    let down = s.face_down();
    let board = write_board(g.files, g.ranks, |sq| {
        pos.piece_at(sq).map(|p| if down.contains(sq) { if p.color == Color::Red { 'X' } else { 'x' } } else { p.char() })
    });
    let side = if pos.turn() == Color::Red { 'w' } else { 'b' };
    let (h, f) = (pos.halfmove(), pos.fullmove());
    let v = s.variant();
    match v.family {
        Family::Xiangqi => format!("{board} {side} - - {h} {f}"),
        Family::Fanqi => {
            let pool = write_counts([s.pool(Color::Red), s.pool(Color::Black)], order);
            let mut det: Vec<(Color, Square, String)> = down
                .filter_map(|sq| {
                    let c = pos.piece_at(sq)?.color;
                    s.identity(sq).map(|r| (c, sq, Piece::new(c, r).char().to_string()))
                })
                .collect();
            if det.is_empty() {
                format!("{board} {side} {pool} {h} {f}")
            } else {
                format!("{board} {side} {pool} {h} {f} {}", write_list(&mut det))
            }
        }
        Family::Surprise => {
            let mut backs: Vec<(Color, Square, String)> = g
                .squares()
                .filter_map(|sq| {
                    let c = pos.piece_at(sq)?.color;
                    let r = s.back(sq)?;
                    let star = if s.back_seen().contains(sq) { "*" } else { "" };
                    Some((c, sq, format!("{}{star}", Piece::new(c, r).char())))
                })
                .collect();
            let rights: Vec<String> = Color::ALL
                .into_iter()
                .map(|c| {
                    let (r, cr) = s.flip_rights(c);
                    if v.surprise.flip_right_by_history {
                        let lost = s.lost_types(c);
                        let mut l = String::new();
                        for role in Role::ALL {
                            for _ in 0..lost[role.index()] {
                                l.push(role.upper_char());
                            }
                        }
                        format!("{r}:{cr}:{}", if l.is_empty() { "-".into() } else { l })
                    } else {
                        format!("{r}:{cr}")
                    }
                })
                .collect();
            format!("{board} {side} - - {h} {f} {} {}", write_list(&mut backs), rights.join("/"))
        }
        Family::King => {
            let run = |c: Color| match s.run(c) {
                Some((sq, n)) => format!("{sq}:{n}"),
                None => "-".into(),
            };
            format!(
                "{board} {side} - - {h} {f} {},{} {},{}",
                s.marker(Color::Red),
                s.marker(Color::Black),
                run(Color::Red),
                run(Color::Black)
            )
        }
    }
}
