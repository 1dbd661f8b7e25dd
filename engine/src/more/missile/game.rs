//! The missile-xiangqi game state behind [`crate::game::Game`] (RULES-more.md §3.7, §3.8).
//!
//! * **End rules (§3.7):** no legal move loses (checkmate, stalemate, unavoidable facing, and
//!   the "dead general" of win 3 under the strict reading, where a palace-missile check allows
//!   only general moves); a third occurrence of a position is a draw when only permitted moves
//!   made the cycle; a move that would make a third occurrence while every move its side made in
//!   the cycle (that move included) gave check (forbidden 1) or chased (forbidden 2, not by the
//!   general or a soldier) is illegal, so that side must vary; [`MissileRules::no_capture_plies`]
//!   plies without removal draw, and a ply horizon ends the game as a draw.
//! * **Chase [ASM, §3.7]:** a move chases when the moved piece (not a general or soldier),
//!   standing on its destination, newly attacks an enemy non-general piece that is unprotected
//!   (no piece of its own side attacks its square) or is a chariot attacked by a non-chariot.
//! * **Hidden set-up (§3.8 [ASM]):** under `missile-hidden-5` / `missile-hidden-centre` the game
//!   starts with a set-up phase: Red places its free pieces one by one (action = square), then
//!   Black does, without seeing Red's placements (a simultaneous commit); both are revealed
//!   before Red's first move. Information-set keys hide the opponent's placements;
//!   [`Game::sample_determinization`] re-places them at random.
//! * **Face-down pieces (§3.8 alternative reading [ASM], [`MissileRules::face_down`], presets
//!   `missile-hidden-5-down` / `missile-hidden-centre-down`):** when the hidden set-up ends, the
//!   pieces each side placed (its free pieces: chariots, horses, cannons, fighters, and under
//!   中兵守門法 the four free soldiers) stay **face-down**: their owner knows them, the opponent
//!   sees only "a piece of that colour" on the square (and, from the set-up order and what has
//!   been revealed, the multiset of kinds still face-down). The fixed pieces (general, advisors,
//!   elephants, missiles, fixed soldiers) are face up from the start. A face-down piece turns
//!   face up for good when it first moves (the move shows it) or when it is removed (captured,
//!   destroyed with a missile); nothing turns face-down again. Movement and captures are
//!   unchanged (a face-down piece moves by its true kind).
//!   * *Hidden checks (§3.8 [R]):* a side's legal moves are decided on what it sees
//!     ([`MissilePosition::legal_moves_seen`]): an opponent's face-down piece blocks lines and
//!     legs and may be captured, but gives no check, so a move that leaves the mover's general
//!     attacked by one is legal; the opponent may then capture the general with that piece,
//!     which ends the game at once as its win ([`MissileEnd::GeneralCaptured`]). Facing generals
//!     stay illegal. For the perpetual-check and chase bans only checks and chases by face-up
//!     pieces count ([`forbidden_if_repeated_seen`]; a chased piece counts as protected only by
//!     face-up pieces, and a face-down one is not known to be a chariot), and the check status
//!     announced ([`MissileGame::check_announced`]; checkmate against stalemate in
//!     [`MissileEnd`]) counts only face-up pieces. So a side's legal actions, the forbidden
//!     flags of the repetition record, the checks announced and how the game stands never
//!     depend on kinds that side has not seen.
//!   * *Information:* after the set-up, a player's information-set key mixes its own set-up
//!     (the placement squares in order), the public start (the board with every face-down piece
//!     masked, and the face-down squares) and, per move, the move and the codes of the pieces
//!     on its origin and target before it (the kinds the move reveals). That is everything the
//!     rules reveal: every observation above is a function of it. Two states that differ only
//!     in how the opponent's still face-down pieces are arranged have the same key for the
//!     viewer and different keys for their owner.
//!   * *View FEN:* the opponent's face-down pieces are `X`/`x` (the Fan-qi / Jieqi marker of
//!     docs/notation.md §1), the viewer's own are written as they are, and ` down LIST pool
//!     POOL` follow: every face-down square (both colours), and the kinds hidden from the
//!     viewer (docs/notation.md §5.1). The full-state FEN ([`MissileGame::fen`]) has
//!     ` down LIST` only, and [`MissileGame::from_fen`] reads it (no field: nothing face-down).
//!   * *Determinization:* [`Game::sample_determinization`] deals the kinds of the opponent's
//!     face-down pieces again, uniformly among its face-down squares, keeping the set-up
//!     constraints (a face-down piece on the opponent's ranks 4-5, 1-based, was placed there
//!     as a soldier and stays one); the opponent's own path and the repetition record since the
//!     last removal are recomputed for the new deal. The deal depends on the view only (the
//!     hidden kinds are shuffled from kind order), so two states with one view give the same
//!     determinizations from the same random numbers. Under the hidden-check ruling every such
//!     deal is consistent with what the viewer has seen: its legal actions, the checks
//!     announced and how the game stood never depended on the opponent's face-down kinds, and
//!     the opponent's moves stay legal (pieces that moved are face up and keep their kinds; its
//!     legality does not depend on its own face-down kinds). One exception: with the opponent
//!     to move, a deal that leaves it no legal move would have ended the game; it is drawn
//!     again. The true state's legal move is by a face-up piece (legal in every deal) or by a
//!     face-down piece that keeps it whenever its square gets its kind back, which a draw does
//!     with probability at least 1/12, so drawing again ends; the true state is never returned
//!     for want of a consistent deal.
//!
//! # Action numbering
//! | code | meaning |
//! |---|---|
//! | `from | to << 7` | a move (squares are mailbox indices, see [`crate::more::geometry`]) |
//! | `0x0001_00ss` | set-up: place the next piece of the side's set-up order on square `ss` |

use rand::Rng;

use super::facedown::{self, FaceDown, OWN_SEED};
use super::fen;
use super::position::{MMove, MissilePosition};
use super::rules::{MissilePreset, MissileRules, SetupMethod};
use crate::game::{Action, Game, GameInfo, PlayerId, Turn};
use crate::more::geometry::Sq;
use crate::more::history::{game_info, color_of, mix, player_of, seat_return, Ply, Record};
use crate::more::piece::{Kind, Piece};
use crate::more::MoreError;
use crate::piece::Color;

/// The tag of set-up action codes (`SETUP_TAG | square`).
pub(super) const SETUP_TAG: u32 = 1 << 16;

/// How a missile game ended (RULES-more.md §3.7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MissileEnd {
    /// The side to move has no legal move while in check: checkmate (`winner` won).
    Checkmate(Color),
    /// The side to move has no legal move while a missile in its palace checks it: 死將.
    DeadGeneral(Color),
    /// The side to move has no legal move and is not in check: 困斃.
    Stalemate(Color),
    /// The general was captured (`winner` took it): under the face-down reading a move may leave
    /// the mover's general attacked by a face-down piece, which may then take it (§3.8 [R]
    /// hidden checks).
    GeneralCaptured(Color),
    /// Third occurrence with permitted moves only (draw 3).
    Repetition,
    /// [`MissileRules::no_capture_plies`] plies without removal (draw 1 [ASM]).
    NoCapture,
    /// The ply horizon (a draw).
    Horizon,
}

impl MissileEnd {
    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            MissileEnd::Checkmate(c) | MissileEnd::DeadGeneral(c) | MissileEnd::Stalemate(c) | MissileEnd::GeneralCaptured(c) => Some(c),
            _ => None,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(self) -> &'static str {
        crate::more::history::result_text(self.winner())
    }

    /// Short reason.
    pub fn reason(self) -> &'static str {
        match self {
            MissileEnd::Checkmate(_) => "checkmate",
            MissileEnd::DeadGeneral(_) => "dead general",
            MissileEnd::Stalemate(_) => "stalemate",
            MissileEnd::GeneralCaptured(_) => "general captured",
            MissileEnd::Repetition => "repetition",
            MissileEnd::NoCapture => "no-capture rule",
            MissileEnd::Horizon => "ply limit",
        }
    }
}

/// The hidden set-up phase (§3.8): the order of free pieces and where each side put them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Setup {
    order: &'static [Kind],
    placed: [Vec<Sq>; 2],
}

const ORDER_FIVE: [Kind; 8] =
    [Kind::Chariot, Kind::Chariot, Kind::Horse, Kind::Horse, Kind::Cannon, Kind::Cannon, Kind::Fighter, Kind::Fighter];
const ORDER_CENTRE: [Kind; 12] = [
    Kind::Soldier,
    Kind::Soldier,
    Kind::Soldier,
    Kind::Soldier,
    Kind::Chariot,
    Kind::Chariot,
    Kind::Horse,
    Kind::Horse,
    Kind::Cannon,
    Kind::Cannon,
    Kind::Fighter,
    Kind::Fighter,
];

/// The set-up order of a hidden set-up method (`None` for the open set-up).
pub(super) fn setup_order(m: SetupMethod) -> Option<&'static [Kind]> {
    match m {
        SetupMethod::Open => None,
        SetupMethod::HiddenFiveSoldiers => Some(&ORDER_FIVE),
        SetupMethod::HiddenCentreSoldier => Some(&ORDER_CENTRE),
    }
}

/// The board at the start of a hidden set-up: the §3.6 array without the free pieces of `order`
/// (all soldiers but the centre one when `order` has soldiers).
fn hidden_start(rules: MissileRules, order: &[Kind]) -> MissilePosition {
    let mut pos = MissilePosition::start(rules);
    let g = pos.geo();
    for s in 0..g.len() as u8 {
        let Some(p) = pos.board.get(s) else { continue };
        let centre = g.file(s) == g.files / 2;
        if order.contains(&p.kind) && !(p.kind == Kind::Soldier && centre) {
            pos.board.set(s, None);
        }
    }
    pos
}

impl Setup {
    fn placing(&self) -> Option<Color> {
        if self.placed[0].len() < self.order.len() {
            Some(Color::Red)
        } else if self.placed[1].len() < self.order.len() {
            Some(Color::Black)
        } else {
            None
        }
    }
}

/// A missile-xiangqi game state; see the module documentation.
#[derive(Clone, Debug)]
pub struct MissileGame {
    preset: MissilePreset,
    pos: MissilePosition,
    setup: Option<Setup>,
    record: Record,
    own_path: [u64; 2],
    public_path: u64,
    plies: u32,
    max_plies: u32,
    legal: Vec<Action>,
    end: Option<MissileEnd>,
    /// The face-down state after a hidden set-up under [`MissileRules::face_down`].
    face: Option<FaceDown>,
}

/// The action code of a move.
pub fn encode(m: MMove) -> Action {
    Action(m.from as u32 | (m.to as u32) << 7)
}

/// The move of a move code (`None` for set-up codes).
pub fn decode(a: Action) -> Option<MMove> {
    (a.0 < SETUP_TAG).then_some(MMove { from: (a.0 & 0x7F) as u8, to: (a.0 >> 7 & 0x7F) as u8 })
}

/// Whether a pseudo-legal move in `before` gives check or chases (§3.7 forbidden 1 and 2 [ASM]),
/// as banned by the rules.
pub fn forbidden_if_repeated(before: &MissilePosition, m: MMove, after: &MissilePosition) -> bool {
    forbidden_if_repeated_seen(before, m, after, 0)
}

/// [`forbidden_if_repeated`] under the face-down reading, `hidden` holding the squares of
/// face-down pieces after the move: only checks and chases by face-up pieces count (§3.8 [R]
/// hidden checks), see [`chases_seen`].
pub fn forbidden_if_repeated_seen(before: &MissilePosition, m: MMove, after: &MissilePosition, hidden: u128) -> bool {
    let r = before.rules();
    let mover = before.turn();
    (r.ban_perpetual_check && after.in_check_seen(mover.opponent(), hidden)) || (r.ban_perpetual_chase && chases_seen(before, m, after, hidden))
}

/// Whether `m` chases (§3.7 forbidden 2, [ASM] definition in the module documentation).
pub fn chases(before: &MissilePosition, m: MMove, after: &MissilePosition) -> bool {
    chases_seen(before, m, after, 0)
}

/// [`chases`] under the face-down reading (`hidden`: the face-down squares after the move),
/// judged on what both sides see (§3.8 [R] hidden checks): the moved piece is face up, a target
/// counts as protected only by face-up pieces, and a face-down target is not known to be a
/// chariot.
pub fn chases_seen(before: &MissilePosition, m: MMove, after: &MissilePosition, hidden: u128) -> bool {
    let Some(p) = before.board().get(m.from) else { return false };
    if matches!(p.kind, Kind::General | Kind::Soldier) || after.board().get(m.to) != Some(p) {
        return false;
    }
    let targets = |pos: &MissilePosition, at: Sq| {
        let mut v = Vec::new();
        pos.piece_moves(at, &mut v);
        v.into_iter()
            .filter_map(|x| pos.board().get(x.to).filter(|t| t.color != p.color && t.kind != Kind::General).map(|_| x.to))
            .collect::<Vec<_>>()
    };
    let old = targets(before, m.from);
    targets(after, m.to).into_iter().any(|t| {
        let Some(tp) = after.board().get(t) else { return false };
        let seen_chariot = tp.kind == Kind::Chariot && hidden >> t & 1 == 0;
        !old.contains(&t) && ((seen_chariot && p.kind != Kind::Chariot) || !after.attacked_unless(t, tp.color, hidden))
    })
}

impl MissileGame {
    /// A new game of `preset` from its start: the §3.6 array, or the hidden set-up phase.
    pub fn new(preset: MissilePreset) -> MissileGame {
        let rules = preset.rules;
        let (pos, setup) = match setup_order(rules.setup) {
            None => (MissilePosition::start(rules), None),
            // Take the free pieces off the array: they are placed in the set-up phase.
            Some(order) => (hidden_start(rules, order), Some(Setup { order, placed: [Vec::new(), Vec::new()] })),
        };
        MissileGame::from_parts(preset, pos, setup, None)
    }

    /// Whether these rules keep placed pieces face-down after the set-up (§3.8 alternative
    /// reading; only with a hidden set-up).
    fn face_down_rules(rules: &MissileRules) -> bool {
        rules.face_down && rules.setup != SetupMethod::Open
    }

    /// A game of `preset` from a FEN (after set-up). Under [`MissileRules::face_down`] the FEN
    /// may end with ` down LIST`, the face-down squares (docs/notation.md §5.1; without it
    /// nothing is face-down).
    ///
    /// # Errors
    /// [`MoreError::Fen`] from [`fen::parse`], or a `down` field that the rules do not allow or
    /// that names a piece which cannot be face-down there.
    pub fn from_fen(preset: MissilePreset, text: &str) -> Result<MissileGame, MoreError> {
        if !MissileGame::face_down_rules(&preset.rules) {
            if text.split_whitespace().any(|t| t == "down") {
                return Err(MoreError::Fen(format!("FEN {text:?}: a `down` field needs the face_down rule and a hidden set-up ({} has not)", preset.name)));
            }
            return Ok(MissileGame::from_parts(preset, fen::parse(preset.rules, text)?, None, None));
        }
        let parsed = facedown::parse(preset.rules, text, false)?;
        let face = MissileGame::face_of(preset.rules, &parsed.pos, parsed.down).map_err(|why| MoreError::Fen(format!("FEN {text:?}: {why}")))?;
        Ok(MissileGame::from_parts(preset, parsed.pos, None, Some(face)))
    }

    /// The face-down state of a position read from a FEN: `down` checked against the set-up
    /// rules, each side's face-down pieces in square order as its arrangement.
    fn face_of(rules: MissileRules, pos: &MissilePosition, down: u128) -> Result<FaceDown, String> {
        let order = setup_order(rules.setup).unwrap_or(&[]);
        facedown::check(rules, order, &hidden_start(rules, order).board, pos, down)?;
        let mut origin = [Vec::new(), Vec::new()];
        for (s, p) in pos.board().pieces().filter(|&(s, _)| down & (1u128 << s) != 0) {
            origin[p.color.index()].push((s, p.kind));
        }
        Ok(FaceDown::new(pos, down, origin, false))
    }

    /// A game of the named preset from its start.
    ///
    /// # Errors
    /// [`MoreError::UnknownPreset`].
    pub fn preset(name: &str) -> Result<MissileGame, MoreError> {
        Ok(MissileGame::new(MissileRules::preset(name)?))
    }

    fn from_parts(preset: MissilePreset, pos: MissilePosition, setup: Option<Setup>, face: Option<FaceDown>) -> MissileGame {
        let root = pos.hash();
        // What both players see of the start: under face-down rules, the board with the
        // face-down pieces masked; each side's own path knows its own face-down pieces.
        let public = face.as_ref().map_or(root, |f| f.public_hash(&pos));
        let own_path = match &face {
            Some(f) => [f.own_path(Color::Red), f.own_path(Color::Black)],
            None => OWN_SEED,
        };
        let mut g = MissileGame {
            preset,
            record: Record::new(root),
            pos,
            setup,
            own_path,
            public_path: 0x0A0A_1234_5678_9ABC ^ public,
            plies: 0,
            max_plies: 400,
            legal: Vec::new(),
            end: None,
            face,
        };
        g.refresh();
        g
    }

    /// This game with a ply horizon of `n` plies (default 400), after which it is a draw.
    pub fn with_max_plies(mut self, n: u32) -> MissileGame {
        self.max_plies = n;
        self.refresh();
        self
    }

    /// The preset.
    pub fn preset_info(&self) -> &MissilePreset {
        &self.preset
    }

    /// The position (during set-up: the fixed pieces and every placement so far).
    pub fn position(&self) -> &MissilePosition {
        &self.pos
    }

    /// Whether the set-up phase is under way.
    pub fn in_setup(&self) -> bool {
        self.setup.is_some()
    }

    /// How the game ended, if it did.
    pub fn end(&self) -> Option<MissileEnd> {
        self.end
    }

    /// Plies played (set-up placements included).
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The acting colour (the placing side during set-up).
    pub fn to_act(&self) -> Color {
        match &self.setup {
            Some(s) => s.placing().unwrap_or(Color::Red),
            None => self.pos.turn(),
        }
    }

    /// The squares on which `c` may put the next piece of its set-up order (§3.8 [ASM]): empty
    /// points of its ranks 1-3 (our 0-2), or 1-5 for soldiers.
    fn setup_squares(&self, c: Color, kind: Kind) -> Vec<Sq> {
        let g = self.pos.geo();
        let depth = facedown::setup_depth(kind);
        (0..g.len() as u8).filter(|&s| facedown::rel_rank(&self.pos, s, c) < depth && self.pos.board.is_empty(s)).collect()
    }

    /// The face-down squares (both colours, square order; empty unless the game has face-down
    /// rules and is past its set-up).
    pub fn face_down_squares(&self) -> Vec<Sq> {
        let Some(f) = &self.face else { return Vec::new() };
        Color::ALL.iter().flat_map(|&c| f.squares(&self.pos, c)).collect()
    }

    /// Whether the piece on `s` is face-down (§3.8 alternative reading).
    pub fn is_face_down(&self, s: Sq) -> bool {
        self.face.as_ref().is_some_and(|f| f.is_down(s))
    }

    /// Whether the game is played under the face-down reading past its set-up (§3.8): its legal
    /// moves are then those each side sees ([`MissilePosition::legal_moves_seen`]).
    pub fn face_down_play(&self) -> bool {
        self.face.is_some()
    }

    /// The hidden set-up under way (§3.8): the set-up order and each side's placement squares so
    /// far, in the order made (`None` past the set-up or without one).
    pub(super) fn setup_state(&self) -> Option<(&'static [Kind], &[Vec<Sq>; 2])> {
        self.setup.as_ref().map(|s| (s.order, &s.placed))
    }

    /// The face-down state (§3.8 alternative reading), past a hidden set-up under face-down rules.
    pub(super) fn face(&self) -> Option<&FaceDown> {
        self.face.as_ref()
    }

    /// The face-down squares as a bit set (bit `s` for square `s`; 0 without face-down rules).
    pub fn face_down_mask(&self) -> u128 {
        self.face.as_ref().map_or(0, |f| f.down)
    }

    /// Whether the side to move is in check as announced (§3.8 [R] hidden checks: under the
    /// face-down reading only checks by face-up pieces are announced; otherwise every check).
    /// False during the set-up and once the general was captured.
    pub fn check_announced(&self) -> bool {
        let me = self.pos.turn();
        self.setup.is_none() && self.pos.general(me).is_some() && self.pos.in_check_seen(me, self.face_down_mask())
    }

    fn refresh(&mut self) {
        self.legal.clear();
        self.end = None;
        if let Some(s) = &self.setup {
            if let Some(c) = s.placing() {
                let kind = s.order[s.placed[c.index()].len()];
                for sq in self.setup_squares(c, kind) {
                    self.legal.push(Action(SETUP_TAG | sq as u32));
                }
            }
            return;
        }
        let hidden = self.face_down_mask();
        let me = self.pos.turn();
        if self.face.is_some() && self.pos.general(me).is_none() {
            // §3.8 [R] hidden checks: the general was captured, the game is over at once.
            self.end = Some(MissileEnd::GeneralCaptured(me.opponent()));
            return;
        }
        if self.plies >= self.max_plies {
            self.end = Some(MissileEnd::Horizon);
            return;
        }
        // Third occurrence by permitted moves: a draw (§3.7 draw 3).
        // (A cycle in which one side only made forbidden moves is no draw: that side's next
        // repeating move is illegal instead, below.)
        let n = self.record.plies.len();
        if let Some(last) = self.record.plies.last() {
            let lo = n.saturating_sub(self.pos.halfmove() as usize);
            let (count, first) = self.record.occurrences(last.hash, lo, n, 3);
            if count >= 3 && !self.record.all_forbidden(first, Color::Red) && !self.record.all_forbidden(first, Color::Black) {
                self.end = Some(MissileEnd::Repetition);
                return;
            }
        }
        let mut moves = Vec::new();
        if self.face.is_some() {
            self.pos.legal_moves_seen(hidden, &mut moves);
        } else {
            self.pos.legal_moves(&mut moves);
        }
        for m in moves {
            let (h, halfmove) = self.pos.hash_after(m);
            let lo = (n + 1).saturating_sub(halfmove as usize);
            let (count, first) = if lo <= n { self.record.occurrences(h, lo, n, 2) } else { (0, 0) };
            if count >= 2 {
                // This move would make a third occurrence: banned if every move of ours in the
                // cycle, this one included, was a check or chase (§3.7 forbidden 1-2).
                let ours_forbidden = self.record.all_forbidden(first, me);
                if ours_forbidden && forbidden_if_repeated_seen(&self.pos, m, &self.pos.after(m), hidden & !(1u128 << m.from | 1u128 << m.to)) {
                    continue;
                }
            }
            self.legal.push(encode(m));
        }
        self.legal.sort_unstable();
        if self.legal.is_empty() {
            let winner = me.opponent();
            self.end = Some(if self.pos.palace_missile_check(me) {
                MissileEnd::DeadGeneral(winner)
            } else if self.pos.in_check_seen(me, hidden) {
                MissileEnd::Checkmate(winner)
            } else {
                MissileEnd::Stalemate(winner)
            });
            return;
        }
        if let Some(limit) = self.pos.rules().no_capture_plies {
            if self.pos.halfmove() >= limit {
                self.end = Some(MissileEnd::NoCapture);
                self.legal.clear();
            }
        }
    }

    /// Plays a move given as a string (`b0c2`) or, during set-up, a square (`b0`).
    ///
    /// # Errors
    /// [`MoreError::Move`] when it is not legal here.
    pub fn play_str(&mut self, text: &str) -> Result<(), MoreError> {
        let a = if self.setup.is_some() {
            let s = self.pos.geo().parse(text.trim().trim_start_matches(|c: char| c.is_ascii_uppercase() || c == '@'))?;
            Action(SETUP_TAG | s as u32)
        } else {
            // The game's legal moves, not the position's: they differ under the face-down reading.
            encode(fen::parse_squares(&self.pos, text)?)
        };
        if !self.legal.contains(&a) {
            return Err(MoreError::Move(format!("{text:?} is not legal here")));
        }
        self.apply(a);
        Ok(())
    }

    /// The full-state FEN (during set-up: the board so far). Under face-down rules after the
    /// set-up it ends with ` down LIST`, the face-down squares (docs/notation.md §5.1).
    pub fn fen(&self) -> String {
        match &self.face {
            Some(f) => format!("{} down {}", fen::write(&self.pos), f.down_field(&self.pos)),
            None => fen::write(&self.pos),
        }
    }

    /// The material balance from `c`'s point of view, in centipawns (for bots).
    pub fn material(&self, c: Color) -> i32 {
        self.pos
            .board()
            .pieces()
            .filter(|(_, p)| p.kind != Kind::General)
            .map(|(_, p)| if p.color == c { p.kind.value() } else { -p.kind.value() })
            .sum()
    }

    /// The material the mover gains with action `a` (captured value minus lost value).
    pub fn gain(&self, a: Action) -> i32 {
        let Some(m) = decode(a) else { return 0 };
        let b = self.pos.board();
        let (Some(mv), mut tv) = (b.get(m.from), b.get(m.to).map(|t| t.kind.value()).unwrap_or(0)) else { return 0 };
        if let (Some(f), Some(t)) = (&self.face, b.get(m.to)) {
            if f.is_down(m.to) {
                // The mover does not know the kind: the mean of the hidden kinds it might be.
                let pool = f.pool(&self.pos, t.color);
                tv = pool.iter().map(|k| k.value()).sum::<i32>() / pool.len().max(1) as i32;
            }
        }
        match self.pos.effect(m) {
            Some(super::Effect::Mutual) => tv - mv.kind.value(),
            Some(super::Effect::SelfDestruct) => -mv.kind.value(),
            _ => tv,
        }
    }

    /// The end of the set-up: both arrangements are revealed, or, under face-down rules, the
    /// placed pieces stay face-down and only the occupied squares become public.
    fn reveal(&mut self) {
        let setup = self.setup.take();
        match setup.filter(|_| MissileGame::face_down_rules(&self.preset.rules)) {
            Some(s) => {
                let mut down = 0u128;
                let origin = [0, 1].map(|i| s.placed[i].iter().zip(s.order).map(|(&sq, &k)| (sq, k)).collect::<Vec<_>>());
                for &(sq, _) in origin.iter().flatten() {
                    down |= 1u128 << sq;
                }
                let f = FaceDown::new(&self.pos, down, origin, true);
                self.public_path = mix(self.public_path, f.public_hash(&self.pos));
                self.face = Some(f);
            }
            None => self.public_path = mix(mix(self.public_path, self.own_path[0]), self.own_path[1]),
        }
        self.record = Record::new(self.pos.hash());
    }

    /// The view FEN of `c` (docs/notation.md §5.1): after set-up the full FEN (nothing is
    /// hidden), or under face-down rules the FEN with the opponent's face-down pieces written
    /// `X`/`x`, then ` down LIST pool POOL` (every face-down square; the kinds hidden from `c`,
    /// in their owner's case with counts, or `-`); during the hidden set-up the FEN without the
    /// opponent's placements (their squares are secret, so they are not marked on the board),
    /// then ` setup R/B V LIST`: the placements made by Red and by Black, the viewer `w`/`b`, and
    /// the viewer's own placement squares in the order made (`-` for none).
    /// [`MissileGame::from_view`] reads it back.
    pub fn view_fen(&self, c: Color) -> String {
        match &self.setup {
            None => match &self.face {
                None => self.fen(),
                Some(f) => {
                    let o = c.opponent();
                    format!("{} down {} pool {}", f.masked_fen(&self.pos, &[o]), f.down_field(&self.pos), facedown::pool_field(&f.pool(&self.pos, o), o))
                }
            },
            Some(s) => {
                let mut p = self.pos.clone();
                for &sq in &s.placed[c.opponent().index()] {
                    p.board.set(sq, None);
                }
                let own: Vec<String> = s.placed[c.index()].iter().map(|&q| self.pos.geo().name(q)).collect();
                let own = if own.is_empty() { "-".to_string() } else { own.join(",") };
                let side = if c == Color::Red { 'w' } else { 'b' };
                format!("{} setup {}/{} {side} {own}", fen::write(&p), s.placed[0].len(), s.placed[1].len())
            }
        }
    }

    /// A game state that a view FEN ([`MissileGame::view_fen`]) describes: the viewer's
    /// placements replayed in their order, the opponent's hidden placements put on its first legal
    /// squares (one state of the information set; [`Game::sample_determinization`] draws others).
    /// Its infoset string for the viewer is the viewed state's. A view after set-up is a FEN
    /// ([`MissileGame::from_fen`], without the move history). A face-down view (with `X`/`x`
    /// and a `pool` field) gets one assignment of the pool's kinds to the hidden squares: soldiers
    /// first on the hidden squares of the owner's ranks 4-5 (1-based, where only soldiers were
    /// placed), then the rest in kind order over the other hidden squares in square order. What
    /// it keeps is the view itself (`from_view(v).view_fen(viewer) == v`: the board, the
    /// face-down squares and the hidden kinds); a FEN carries no history, so the repetition
    /// record starts here and the infoset key is that of a game started from this position.
    ///
    /// # Errors
    /// [`MoreError::Fen`]: a malformed view, a preset without hidden set-up, illegal or too many
    /// placements, or a board that does not match the placements; for a face-down view also
    /// markers of both colours, a marker off the `down` squares, a pool that does not name the
    /// hidden pieces, or kinds that cannot stand on those squares.
    pub fn from_view(preset: MissilePreset, text: &str) -> Result<MissileGame, MoreError> {
        if !text.contains(" setup ") && text.split_whitespace().any(|t| t == "pool") {
            return MissileGame::from_face_down_view(preset, text);
        }
        let Some((_, rest)) = text.split_once(" setup ") else { return MissileGame::from_fen(preset, text) };
        let bad = |why: String| MoreError::Fen(format!("view {text:?}: {why}"));
        let mut fields = rest.split(' ');
        let (r, b) = fields.next().and_then(|c| c.split_once('/')).ok_or_else(|| bad("set-up counts are R/B".into()))?;
        let count = |t: &str| t.parse::<usize>().map_err(|_| bad(format!("{t:?} is not a count")));
        let counts = [count(r)?, count(b)?];
        let viewer = match fields.next() {
            Some("w") => Color::Red,
            Some("b") => Color::Black,
            other => return Err(bad(format!("viewer {other:?} is not w or b"))),
        };
        let mut g = MissileGame::new(preset);
        let own: Vec<Sq> = match fields.next() {
            Some("-") => Vec::new(),
            Some(list) => list.split(',').map(|q| g.pos.geo().parse(q)).collect::<Result<_, _>>()?,
            None => return Err(bad("no placement list".into())),
        };
        if fields.next().is_some() {
            return Err(bad("text after the placement list".into()));
        }
        if g.setup.is_none() {
            return Err(bad(format!("{} has no hidden set-up", preset.name)));
        }
        if own.len() != counts[viewer.index()] {
            return Err(bad(format!("{} own placements listed, {} counted", own.len(), counts[viewer.index()])));
        }
        let mut own = own.into_iter();
        for c in Color::ALL {
            for _ in 0..counts[c.index()] {
                if g.setup.as_ref().and_then(Setup::placing) != Some(c) {
                    return Err(bad("more placements than the set-up order allows".into()));
                }
                let a = match if c == viewer { own.next() } else { None } {
                    Some(sq) => Action(SETUP_TAG | sq as u32),
                    None => g.legal.first().copied().ok_or_else(|| bad("no legal placement".into()))?,
                };
                if !g.legal.contains(&a) {
                    return Err(bad(format!("placement {} is not legal", g.pos.geo().name((a.0 & 0x7F) as Sq))));
                }
                g.apply(a);
            }
        }
        if g.view_fen(viewer) != text {
            return Err(bad(format!("the board does not match the placements (expected {:?})", g.view_fen(viewer))));
        }
        Ok(g)
    }

    /// [`MissileGame::from_view`] of a face-down view (after the set-up).
    fn from_face_down_view(preset: MissilePreset, text: &str) -> Result<MissileGame, MoreError> {
        let bad = |why: String| MoreError::Fen(format!("view {text:?}: {why}"));
        if !MissileGame::face_down_rules(&preset.rules) {
            return Err(bad(format!("a face-down view needs the face_down rule and a hidden set-up ({} has not)", preset.name)));
        }
        let facedown::Parsed { mut pos, down, unknown, hidden, mut pool } = facedown::parse(preset.rules, text, true)?;
        if let Some(c) = hidden {
            let (front, back): (Vec<Sq>, Vec<Sq>) = unknown.iter().partition(|&&s| facedown::rel_rank(&pos, s, c) >= facedown::setup_depth(Kind::Chariot));
            for s in front {
                let i = pool.iter().position(|&k| k == Kind::Soldier).ok_or_else(|| bad(format!("the hidden piece on {} stands where only soldiers were placed, and the pool has no soldier left", pos.geo().name(s))))?;
                pool.remove(i);
                pos.board.set(s, Some(Piece::new(c, Kind::Soldier)));
            }
            pool.sort_unstable();
            for (s, k) in back.into_iter().zip(pool) {
                pos.board.set(s, Some(Piece::new(c, k)));
            }
        }
        let face = MissileGame::face_of(preset.rules, &pos, down).map_err(bad)?;
        let g = MissileGame::from_parts(preset, pos, None, Some(face));
        if g.view_fen(Color::Red) != text && g.view_fen(Color::Black) != text {
            return Err(bad(format!("not a view of the state it describes (Red's view would be {:?})", g.view_fen(Color::Red))));
        }
        Ok(g)
    }

    /// The repetition record since the last removal, recomputed from the face-down anchor (after
    /// a re-deal changed the kinds of face-down pieces, which stood still all that time). The
    /// forbidden flags stay: they count face-up pieces only (§3.8 [R] hidden checks), which no
    /// deal changes.
    fn replay_window(&mut self) {
        let Some(f) = &self.face else { return };
        let n = self.record.plies.len();
        let Some(first) = n.checked_sub(f.window.len()) else { return };
        let mut p = f.anchor.clone();
        if first == 0 {
            self.record.start = p.hash();
        } else {
            self.record.plies[first - 1].hash = p.hash();
        }
        for (j, &m) in f.window.iter().enumerate() {
            p.play_unchecked(m);
            self.record.plies[first + j].hash = p.hash();
        }
    }

    /// This state with the kinds of `o`'s face-down pieces dealt again uniformly (soldiers kept
    /// on the squares only soldiers could be placed on), `o`'s own path and the repetition record
    /// recomputed; `None` when there is nothing to deal.
    fn redeal<R: Rng + ?Sized>(&self, o: Color, rng: &mut R) -> Option<MissileGame> {
        use rand::seq::SliceRandom;
        let f = self.face.as_ref()?;
        let squares = f.squares(&self.pos, o);
        if squares.len() < 2 {
            return None;
        }
        let (front, back): (Vec<Sq>, Vec<Sq>) = squares.iter().partition(|&&s| facedown::rel_rank(&self.pos, s, o) >= facedown::setup_depth(Kind::Chariot));
        let mut rest: Vec<Kind> = back.iter().filter_map(|&s| self.pos.board.get(s)).map(|p| p.kind).collect();
        // From kind order, so that the deal depends on the view only, not on the true arrangement.
        rest.sort_unstable();
        rest.shuffle(rng);
        let deal: Vec<(Sq, Kind)> = front.iter().map(|&s| (s, Kind::Soldier)).chain(back.iter().copied().zip(rest)).collect();
        let mut g = self.clone();
        let gf = g.face.as_mut()?;
        for &(s, k) in &deal {
            g.pos.board.set(s, Some(Piece::new(o, k)));
            gf.anchor.board.set(s, Some(Piece::new(o, k)));
            if let Some(e) = gf.origin[o.index()].iter_mut().find(|e| e.0 == s) {
                e.1 = k;
            }
        }
        if gf.from_setup {
            // The placement sequence of this deal: the set-up order's kinds in turn, each on the
            // next square (in the original placement order) now holding that kind.
            if let Some(order) = setup_order(self.preset.rules.setup) {
                let mut left = gf.origin[o.index()].clone();
                let mut seq = Vec::with_capacity(order.len());
                for &k in order {
                    if let Some(i) = left.iter().position(|e| e.1 == k) {
                        seq.push(left.remove(i));
                    }
                }
                seq.extend(left);
                gf.origin[o.index()] = seq;
            }
        }
        g.own_path[o.index()] = gf.own_path(o);
        g.replay_window();
        g.refresh();
        Some(g)
    }
}

impl Game for MissileGame {
    fn info(&self) -> GameInfo {
        game_info(self.preset.name, self.preset.rules.setup != SetupMethod::Open)
    }

    fn turn(&self) -> Turn {
        if self.end.is_some() {
            Turn::Terminal
        } else {
            Turn::Player(player_of(self.to_act()))
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        out.extend_from_slice(&self.legal);
    }

    fn chance_outcomes_into(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
    }

    fn apply(&mut self, action: Action) {
        assert!(self.legal.contains(&action), "illegal action {action} in {}", self.fen());
        if let Some(s) = &mut self.setup {
            let c = s.placing().unwrap_or(Color::Red);
            let sq = (action.0 & 0x7F) as u8;
            let kind = s.order[s.placed[c.index()].len()];
            s.placed[c.index()].push(sq);
            self.pos.board.set(sq, Some(Piece::new(c, kind)));
            self.own_path[c.index()] = mix(self.own_path[c.index()], sq as u64);
            self.plies += 1;
            if s.placing().is_none() {
                self.reveal();
            }
            self.refresh();
            return;
        }
        let Some(m) = decode(action) else { return };
        let before = self.pos.clone();
        self.pos.play_unchecked(m);
        let hidden = self.face_down_mask() & !(1u128 << m.from | 1u128 << m.to);
        let forbidden = forbidden_if_repeated_seen(&before, m, &self.pos, hidden);
        self.record.plies.push(Ply { hash: self.pos.hash(), mover: before.turn(), forbidden });
        self.public_path = mix(self.public_path, action.0 as u64);
        if let Some(f) = &mut self.face {
            // The move shows the mover and whatever stood on the target.
            self.public_path = mix(mix(self.public_path, before.board.code(m.from) as u64), before.board.code(m.to) as u64);
            f.on_move(m, &self.pos);
        }
        self.plies += 1;
        self.refresh();
    }

    fn returns(&self, player: PlayerId) -> f64 {
        seat_return(self.end.and_then(MissileEnd::winner), player)
    }

    fn infoset_key(&self, player: PlayerId) -> u64 {
        let c = color_of(player);
        match &self.setup {
            Some(s) => mix(mix(self.own_path[c.index()], s.placed[c.opponent().index()].len() as u64), 1 + c as u64),
            None => mix(mix(self.public_path, self.own_path[c.index()]), 3 + c as u64),
        }
    }

    fn infoset_string(&self, player: PlayerId) -> String {
        let c = color_of(player);
        format!("{} #{:016x}", self.view_fen(c), self.infoset_key(player))
    }

    fn sample_determinization<R: Rng + ?Sized>(&self, player: PlayerId, rng: &mut R) -> Self {
        let c = color_of(player);
        let o = c.opponent();
        if self.face.is_some() {
            if self.end.is_some() {
                return self.clone();
            }
            // Deal the opponent's face-down kinds again; every deal is consistent with what the
            // viewer has seen but one that leaves the opponent, to move, no legal move (module
            // documentation: some deal keeps the true state's legal move, with probability at
            // least 1/12 per draw, so this ends).
            loop {
                let Some(g) = self.redeal(o, rng) else { return self.clone() };
                if g.end == self.end {
                    debug_assert!(self.to_act() != c || g.legal == self.legal, "the viewer's legal actions depend on its view only");
                    return g;
                }
            }
        }
        let Some(s) = &self.setup else { return self.clone() };
        if s.placed[o.index()].is_empty() {
            return self.clone();
        }
        // Re-place the opponent's hidden pieces uniformly among its set-up squares.
        let mut g = self.clone();
        let Some(gs) = g.setup.as_mut() else { return self.clone() };
        let placed = std::mem::take(&mut gs.placed[o.index()]);
        let order = gs.order;
        for &sq in &placed {
            g.pos.board.set(sq, None);
        }
        g.own_path[o.index()] = if o == Color::Red { 0x5EED_0000_0000_0001 } else { 0x5EED_0000_0000_0002 };
        for &kind in order.iter().take(placed.len()) {
            let squares = g.setup_squares(o, kind);
            let sq = squares[rng.random_range(0..squares.len())];
            g.pos.board.set(sq, Some(Piece::new(o, kind)));
            g.own_path[o.index()] = mix(g.own_path[o.index()], sq as u64);
            if let Some(gs) = g.setup.as_mut() {
                gs.placed[o.index()].push(sq);
            }
        }
        g.refresh();
        g
    }

    fn action_string(&self, action: Action) -> String {
        match decode(action) {
            Some(m) => fen::move_string(&self.pos, m),
            None => {
                let sq = (action.0 & 0x7F) as u8;
                let kind = self
                    .setup
                    .as_ref()
                    .and_then(|s| s.placing().map(|c| s.order[s.placed[c.index()].len()]))
                    .map(|k| k.upper_char())
                    .unwrap_or('?');
                format!("{kind}@{}", self.pos.geo().name(sq))
            }
        }
    }
}

impl crate::search::Scored for MissileGame {
    fn eval_cp(&self, player: PlayerId) -> i32 {
        self.material(color_of(player))
    }

    fn gain_cp(&self, action: Action) -> i32 {
        self.gain(action)
    }

    /// The side to move's general attacked or facing (§0.3, §3.3), by any piece of the state as
    /// given: under the face-down reading (§3.8 [R]) also by face-down pieces, whose checks the
    /// game does not announce but whose capture of the general ends it.
    fn in_check(&self) -> bool {
        let me = self.pos.turn();
        self.setup.is_none() && self.end.is_none() && self.pos.general(me).is_some() && self.pos.in_check(me)
    }
}
