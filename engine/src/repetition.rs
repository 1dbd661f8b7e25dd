//! The repetition rules of RULES.md §X6 in one place: third repetition, perpetual check,
//! **perpetual chase** (Asian/AXF rules) and the 60-move rule with its 10-check cap. Every game
//! record ([`crate::outcome::Game`], [`crate::variant::game_state::VariantGameState`]) and every search
//! ([`crate::search::alphabeta`], the searches on the game states) calls [`judge`] and
//! [`no_capture_count`]; nothing else decides these endings.
//!
//! # The cycle
//! When the current position (same side to move, same public hash) has occurred `needed` times
//! (3 in a game, 2 inside a search, where the first repetition already decides the line), the
//! plies from the earliest of those occurrences to now form the cycle. Plies that are not board
//! actions (Surprise negotiation, §S11) are not occurrences and neither check nor chase.
//!
//! # The verdict
//! A side *checks perpetually* when every one of its moves in the cycle gave check: if exactly one
//! side does, it loses ([`EndReason::PerpetualCheck`]); if both do, the repetition is a draw.
//! Perpetual check outranks chase. Otherwise a side *chases perpetually* when one enemy piece
//! (followed as it moves) is newly chased ([`chased`]) by every one of its moves that did not give
//! check (checks in a mixed cycle count as attacks): if exactly one side does, it loses
//! ([`EndReason::PerpetualChase`]); otherwise (both chase, or neither) the repetition is a draw.
//! Options: without [`EndRules::perpetual_check_loses`](crate::rules::EndRules) every repetition
//! draws; without [`EndRules::chase`](crate::rules::EndRules) only perpetual check is judged.
//!
//! The chase verdict needs the positions of the cycle. They are rebuilt from the current core
//! position by taking back the cycle's moves, which are all plain non-capturing moves (a capture,
//! a reveal or a flip cannot be undone, so no cycle holds one). When some board ply of the cycle
//! is not such a move (the caller passes `quiet: None`), the chase is not judged for that cycle.
//! Face-down pieces chase and are chased as the type they move as, their start point's (§F7).
//!
//! Sources: RULES.md §X6; the AXF cases of Fairy-Stockfish's `test.py`
//! (`test_is_optional_game_end`), the regression set in `engine/tests/data/repetition_cases.toml`;
//! Pikafish's `rule60` for the check cap.

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::outcome::{EndReason, Outcome};
use crate::piece::{Color, Role};
use crate::position::{Position, Undo};
use crate::rules::EndRules;

/// One ply of a game's record as the repetition rules see it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RecordPly {
    /// Hash of the position after the ply (what both sides see of it; the caller's choice of hash
    /// must be the same for every ply and for the start).
    pub hash: u64,
    /// The side that played it.
    pub mover: Color,
    /// Whether it left the opponent in check.
    pub gave_check: bool,
    /// Whether it is a board action (a move or a flip), which makes an occurrence of the position
    /// after it; negotiation plies (§S11) are not.
    pub board: bool,
    /// The move on the core position when the ply was a plain non-capturing move with nothing
    /// else changing (no reveal, flip, turning face-down, marker transfer or swap); `None`
    /// otherwise. The chase rule is judged only over cycles of such moves.
    pub quiet: Option<Move>,
}

impl RecordPly {
    /// A ply about which only the position after it is known (hash and mover): an occurrence
    /// of that position, neither a check nor a quiet move (e.g. the start of a record).
    pub fn occurrence(hash: u64, mover: Color) -> RecordPly {
        RecordPly { hash, mover, gave_check: false, board: true, quiet: None }
    }
}

/// Decides a repetition ending, if the current position ends the game by §X6.
///
/// `current` is the core position now (after the last ply of `record`), `start` the hash of the
/// position before the first ply of `record` (`None` when unknown: it then counts as no
/// occurrence), `record` the plies oldest first, with hashes of the same kind as `start`;
/// `needed` the number of occurrences of the current position, the current one included, that
/// ends the game (3 in a game; 2 in a search). Only the last `window` plies are looked at
/// (positions before a capture cannot repeat; pass `record.len()` when unknown).
///
/// Returns `None` when the position has not occurred `needed` times.
pub fn judge(end: &EndRules, current: &Position, start: Option<u64>, record: &[RecordPly], needed: usize, window: usize) -> Option<Outcome> {
    let n = record.len();
    let h = record.last()?.hash;
    let lowest = n.saturating_sub(window);
    let mut count = 0;
    let mut first = n;
    for i in (lowest..=n).rev() {
        let (hash_at, counts) = if i == 0 {
            match start {
                Some(s) => (s, true),
                None => (0, false),
            }
        } else {
            (record[i - 1].hash, record[i - 1].board)
        };
        if counts && hash_at == h {
            count += 1;
            first = i;
            if count == needed {
                break;
            }
        }
    }
    if count < needed {
        return None;
    }
    Some(verdict(end, current, &record[first..n]))
}

/// A search's repetition test (RULES.md §X6): when the position after the last ply of `path`
/// repeats one within the last `window` plies (those since the last capture; same side to move,
/// equal hashes), the verdict on the cycle from that occurrence to now. Inside a search the first
/// repetition already decides the line (the opponent could repeat it again), so this is
/// [`judge`] with two occurrences. `current` is the core position after the path.
pub fn in_search(end: &EndRules, current: &Position, path: &[RecordPly], window: usize) -> Option<Outcome> {
    let n = path.len();
    let h = path.last()?.hash;
    let window = window.min(n - 1);
    let mut back = 2;
    while back <= window {
        if path[n - 1 - back].hash == h && path[n - 1 - back].board {
            return Some(verdict(end, current, &path[n - back..n]));
        }
        back += 2;
    }
    None
}

/// The verdict on a repetition whose cycle is `cycle` (the plies from the earliest occurrence of
/// the current position to now, oldest first), `current` the core position after them. See the
/// module documentation.
pub fn verdict(end: &EndRules, current: &Position, cycle: &[RecordPly]) -> Outcome {
    if !end.perpetual_check_loses {
        return Outcome::Draw { reason: EndReason::Repetition };
    }
    let mut checks = [true, true];
    let mut moved = [false, false];
    for p in cycle.iter().filter(|p| p.board) {
        moved[p.mover.index()] = true;
        if !p.gave_check {
            checks[p.mover.index()] = false;
        }
    }
    let checks = [checks[0] && moved[0], checks[1] && moved[1]];
    // Perpetual check is judged first and outranks chase (Fairy-Stockfish's AXF case 8).
    let (perpetual, reason) = if checks[0] || checks[1] || !end.chase {
        (checks, EndReason::PerpetualCheck)
    } else {
        match perpetual_chases(current, cycle) {
            Some(chases) => (chases, EndReason::PerpetualChase),
            None => ([false, false], EndReason::Repetition),
        }
    };
    match (perpetual[0], perpetual[1]) {
        (true, false) => Outcome::Win { winner: Color::Black, reason },
        (false, true) => Outcome::Win { winner: Color::Red, reason },
        _ => Outcome::Draw { reason: EndReason::Repetition },
    }
}

/// For each side (by [`Color::index`]), whether it chases perpetually in `cycle` (see the module
/// documentation); `None` when the cycle holds a board ply that is not a quiet move.
fn perpetual_chases(current: &Position, cycle: &[RecordPly]) -> Option<[bool; 2]> {
    let board: Vec<&RecordPly> = cycle.iter().filter(|p| p.board).collect();
    let moves: Vec<Move> = board.iter().map(|p| p.quiet).collect::<Option<_>>()?;
    // Take the cycle back to the position before its first ply.
    let mut pos = current.clone();
    for &m in moves.iter().rev() {
        if pos.piece_at(m.to).is_none() || pos.piece_at(m.from).is_some() {
            return None;
        }
        let undo = Undo { captured: None, halfmove: pos.halfmove().saturating_sub(1), hash: pos.hash() };
        pos.unplay(m, undo);
    }
    // Replay it, intersecting each side's chased pieces over its non-checking moves while the
    // chased pieces are followed through their own side's moves.
    let mut sets: [Option<Bitboard>; 2] = [None, None];
    for (p, &m) in board.iter().zip(&moves) {
        let mover = p.mover.index();
        let other = 1 - mover;
        if pos.turn() != p.mover {
            return None;
        }
        let before = pos.clone();
        pos.play(m);
        if let Some(s) = sets[other].as_mut() {
            if s.contains(m.from) {
                s.clear(m.from);
                s.set(m.to);
            }
        }
        if p.gave_check {
            continue;
        }
        let c = chased(&before, m, &pos);
        sets[mover] = Some(match sets[mover] {
            Some(s) => s & c,
            None => c,
        });
    }
    Some([sets[0].is_some_and(|s| s.any()), sets[1].is_some_and(|s| s.any())])
}

/// The enemy pieces that the move `m` newly chases (RULES.md §X6, AXF rules), as the squares they
/// stand on after it. `before` is the position with the mover to move, `after` the position after
/// `m`.
///
/// A chase ([`chases`]) is new when its attack is new: the attacking piece (the moved piece from
/// its old square) had no legal capture of that victim before the move (direct attacks,
/// discovered attacks, cannons given a screen, attackers unpinned). An attack that was already
/// there makes a new chase only when the move made the victim's protection fake: a piece that
/// could recapture before still reaches the point but may no longer legally recapture (its
/// protector was pinned, or the capture would now give a discovered check). A protector merely
/// blocked off, or an attack that only changes square along its line, is not new (Fairy-Stockfish's
/// AXF cases D39 and D106).
pub fn chased(before: &Position, m: Move, after: &Position) -> Bitboard {
    let mut again = after.clone();
    again.pass_turn(false);
    let old: Vec<Move> = before.legal_moves().iter().copied().filter(|c| before.piece_at(c.to).is_some()).collect();
    let mut out = Bitboard::EMPTY;
    for c in chases(&again) {
        if out.contains(c.to) {
            continue;
        }
        let origin = Move::new(if c.from == m.to { m.from } else { c.from }, c.to);
        if !old.contains(&origin) || protection_made_fake(before, origin, &again, c) {
            out.set(c.to);
        }
    }
    out
}

/// The enemy pieces that the side to move in `pos` chases, as squares (the targets of
/// [`chases`]).
pub fn chase_set(pos: &Position) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for c in chases(pos) {
        out.set(c.to);
    }
    out
}

/// The captures of the side to move in `pos` that count as chases (RULES.md §X6, AXF rules).
///
/// An attack is a legal capture of the side to move. It counts as a chase unless: the attacker is
/// a general or soldier; the victim is a general or a soldier on its own side of the river; or,
/// except for a horse or cannon attacking a chariot and an advisor or elephant attacking a
/// chariot, horse or cannon (which always count), the victim is of the attacker's type and can
/// legally capture it back, or the victim is truly protected (after the capture its side has a
/// legal recapture on that point: a pinned protector, a general that would face the other
/// general, or a cannon whose screen was the attacker does not protect). A pinned attacker chases
/// only along its pin, as its legal captures are only there.
pub fn chases(pos: &Position) -> Vec<Move> {
    let us = pos.turn();
    let them = us.opponent();
    let geometry = &pos.rules().attacks.geometry;
    let targets = pos.by_color(them);
    let mut out = Vec::new();
    let mut strike_back: Option<crate::moves::MoveList> = None;
    for m in pos.legal_moves().iter().filter(|m| targets.contains(m.to)) {
        let (Some(attacker), Some(victim)) = (pos.piece_at(m.from), pos.piece_at(m.to)) else { continue };
        if matches!(attacker.role, Role::General | Role::Soldier) || victim.role == Role::General {
            continue;
        }
        if victim.role == Role::Soldier && geometry.in_own_half(them, m.to) {
            continue;
        }
        let always = match attacker.role {
            Role::Horse | Role::Cannon => victim.role == Role::Chariot,
            Role::Advisor | Role::Elephant => matches!(victim.role, Role::Chariot | Role::Horse | Role::Cannon),
            _ => false,
        };
        if !always {
            if victim.role == attacker.role {
                let replies = strike_back.get_or_insert_with(|| {
                    let mut p = pos.clone();
                    p.pass_turn(false);
                    p.legal_moves()
                });
                if replies.contains(&Move::new(m.to, m.from)) {
                    continue;
                }
            }
            if !recaptures(pos, *m, true).is_empty() {
                continue;
            }
        }
        out.push(*m);
    }
    out
}

/// The origins of the other side's recaptures on `m.to` after the capture `m` by the side to move
/// in `pos`: legal ones, or pseudo-legal ones (the point reached, legality not tested).
fn recaptures(pos: &Position, m: Move, legal: bool) -> Bitboard {
    let mut p = pos.clone();
    p.play(m);
    let list = if legal {
        p.legal_moves()
    } else {
        let mut l = crate::moves::MoveList::new();
        p.pseudo_legal_moves(&mut l);
        l
    };
    let mut from = Bitboard::EMPTY;
    for r in list.iter().filter(|r| r.to == m.to) {
        from.set(r.from);
    }
    from
}

/// Whether the capture `old` (legal in `before`, where the victim was protected or not) became,
/// as `now` in `after`, a capture whose victim some former protector still reaches but may no
/// longer legally recapture (a fake protection made by the move: a pin, a discovered check).
fn protection_made_fake(before: &Position, old: Move, after: &Position, now: Move) -> bool {
    let protectors = recaptures(before, old, true);
    protectors.any() && (protectors & recaptures(after, now, false) & !recaptures(after, now, true)).any()
}

/// The 60-move count (RULES.md §X6 [R], Pikafish's `rule60`): the plies since the last capture
/// that advance the count. `halfmove` is the position's count of plies since the last capture
/// ([`Position::halfmove`]); `record` the game's plies, oldest first (the last `halfmove` of them
/// are the plies since the capture; fewer when the record starts later). With `check_cap`, once a
/// side has given 10 checks in the count, each further check of that side and the reply to it do
/// not advance the count.
pub fn no_capture_count(halfmove: u32, record: &[RecordPly], check_cap: bool) -> u32 {
    if !check_cap {
        return halfmove;
    }
    let window = (halfmove as usize).min(record.len());
    let plies = &record[record.len() - window..];
    let mut checks = [0u32; 2];
    let mut excluded = 0u32;
    let mut in_check = false;
    for p in plies.iter().filter(|p| p.board) {
        let us = p.mover.index();
        let replied_to_excess = in_check && checks[1 - us] > 10;
        in_check = p.gave_check;
        if p.gave_check {
            checks[us] += 1;
            if checks[us] > 10 {
                excluded += 1;
                continue;
            }
        }
        if replied_to_excess {
            excluded += 1;
        }
    }
    halfmove.saturating_sub(excluded)
}

/// Whether the 60-move rule ends the game now: [`no_capture_count`] has reached `limit`.
pub fn no_capture_draw(end: &EndRules, halfmove: u32, record: &[RecordPly]) -> bool {
    match end.no_capture_plies {
        Some(limit) => halfmove >= limit && no_capture_count(halfmove, record, end.rule60_check_cap) >= limit,
        None => false,
    }
}

/// The quiet move that leads from `before` to `after`, when `after` is `before` with one piece
/// moved to an empty point and the other side to move; `None` otherwise. Lets a player that
/// remembers only the positions of its game (not the opponent's moves) rebuild the record that
/// the chase rule needs.
pub fn quiet_between(before: &Position, after: &Position) -> Option<Move> {
    if after.turn() != before.turn().opponent() {
        return None;
    }
    let diff = before.occupied() ^ after.occupied();
    if diff.count() != 2 {
        return None;
    }
    let from = (diff & before.occupied()).first()?;
    let to = (diff & after.occupied()).first()?;
    let piece = before.piece_at(from)?;
    if after.piece_at(to) != Some(piece) || piece.color != before.turn() {
        return None;
    }
    for c in [Color::Red, Color::Black] {
        for r in Role::ALL {
            let moved = Bitboard::from_square(from) | Bitboard::from_square(to);
            if before.pieces(c, r) & !moved != after.pieces(c, r) & !moved {
                return None;
            }
        }
    }
    Some(Move::new(from, to))
}

/// The reversible tail of a public record re-hashed for the core position: the plies since the
/// last one that cannot be taken back (a capture, a reveal, a flip, …: `quiet` is `None`), each
/// with [`Position::hash`] of the core position after it, oldest first, after one
/// [`RecordPly::occurrence`] for the position before the tail. Positions before the tail cannot
/// recur on the core (it lost material or a face-down piece since), so a search on the core
/// ([`crate::search::alphabeta`]) sees every repetition of the game it can reach. `current` is
/// the core position after the last ply of `record`.
pub fn core_tail(current: &Position, record: &[RecordPly]) -> Vec<RecordPly> {
    let mut pos = current.clone();
    let mut out = Vec::new();
    for p in record.iter().rev() {
        if !p.board {
            continue;
        }
        let Some(m) = p.quiet else { break };
        if pos.piece_at(m.to).is_none() || pos.piece_at(m.from).is_some() || pos.halfmove() == 0 {
            break;
        }
        out.push(RecordPly { hash: pos.hash(), ..*p });
        let mut undo = Undo { captured: None, halfmove: pos.halfmove().saturating_sub(1), hash: 0 };
        let mut probe = pos.clone();
        probe.unplay(m, undo);
        undo.hash = probe.hash_from_scratch();
        pos.unplay(m, undo);
    }
    out.push(RecordPly::occurrence(pos.hash(), pos.turn().opponent()));
    out.reverse();
    out
}
