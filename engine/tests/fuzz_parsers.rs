//! Robustness and consistency properties of the position core (RULES.md §X, §N1).
//!
//! - The FEN and ICCS parsers never panic, on arbitrary Unicode and on FEN-like strings built from
//!   FEN characters; errors are fine.
//! - Over seeded random playouts (rand_pcg): the incremental hash equals the hash from scratch,
//!   `play` + `unplay` restores the position exactly, FEN write -> parse round-trips, every move of
//!   `legal_moves()` passes `is_legal` and leaves its own general safe, and every pseudo-legal move
//!   that the legality filter rejects really leaves the mover's general attacked (§X3-X4).

use engine::bitboard::Bitboard;
use engine::notation::{fen, iccs};
use engine::{Color, MoveList, Position, Role};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A few positions to parse moves against: the start and some mid- and endgames.
const POSITIONS: &[&str] = &[
    fen::START,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
];

/// Checks done on any position the parser accepts: no panic in move generation, FEN round trip.
fn check_accepted(pos: &Position) {
    let _ = pos.legal_moves();
    let _ = pos.in_check();
    let text = fen::write(pos);
    let back = fen::parse(&text).unwrap_or_else(|e| panic!("written FEN {text:?} does not parse: {e}"));
    assert_eq!(&back, pos, "FEN round trip of {text}");
    assert_eq!(back.hash(), pos.hash(), "hash after FEN round trip of {text}");
}

/// One rank of a FEN-like board: piece letters (some invalid), digits (some too large).
fn rank_strategy() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(vec!['r', 'n', 'b', 'a', 'k', 'c', 'p', 'R', 'N', 'B', 'A', 'K', 'C', 'P'])
                .prop_map(|c| c.to_string()),
            3 => (1u32..=9).prop_map(|d| d.to_string()),
            1 => prop::sample::select(vec!["0", "10", "99", "123456789012345678901234567890", "x", "X", "e", "h", "-", "+", "é"])
                .prop_map(str::to_string),
        ],
        0..8,
    )
    .prop_map(|parts| parts.concat())
}

/// A FEN-like string: 8 to 11 ranks, then fields that are mostly but not always well formed.
fn fen_like_strategy() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(rank_strategy(), 8..=11),
        prop::sample::select(vec!["w", "b", "r", "x", "", "W"]),
        prop::sample::select(vec!["- -", "-", "- - -", "a -", ""]),
        prop::sample::select(vec!["0", "1", "-1", "4294967296", "abc", ""]),
        prop::sample::select(vec!["1", "0", "77", "99999999999", ""]),
        prop::sample::select(vec![" ", "  ", "\t", "/"]),
    )
        .prop_map(|(ranks, side, mid, half, full, sep)| format!("{}{sep}{side} {mid} {half} {full}", ranks.join("/")))
}

/// Strings of FEN characters in any order.
fn fen_chars_strategy() -> impl Strategy<Value = String> {
    "[rnbakcpRNBAKCPxXwb0-9/ \\-]{0,120}"
}

/// A fixture FEN with a few random edits (replace, delete or insert a FEN character), which stays
/// near the boundary between valid and invalid FENs.
fn mutated_fen_strategy() -> impl Strategy<Value = String> {
    let chars = vec![
        'r', 'n', 'b', 'a', 'k', 'c', 'p', 'R', 'N', 'B', 'A', 'K', 'C', 'P', '1', '2', '9', '0', '/', ' ', 'w', '-',
    ];
    (
        0..POSITIONS.len(),
        prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, prop::sample::select(chars)), 1..4),
    )
        .prop_map(|(i, edits)| {
            let mut v: Vec<char> = POSITIONS[i].chars().collect();
            for (at, kind, c) in edits {
                let k = at.index(v.len() + 1);
                match kind {
                    0 if k < v.len() => v[k] = c,
                    1 if k < v.len() => {
                        v.remove(k);
                    }
                    _ => v.insert(k, c),
                }
            }
            v.into_iter().collect()
        })
}

/// Move-like strings: letters, digits and a few other characters.
fn move_like_strategy() -> impl Strategy<Value = String> {
    "[a-kA-Z0-9+\\-=.]{0,8}"
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn fen_parse_never_panics_on_unicode(s in any::<String>()) {
        if let Ok(pos) = fen::parse(&s) {
            check_accepted(&pos);
        }
    }

    #[test]
    fn fen_parse_never_panics_on_fen_chars(s in fen_chars_strategy()) {
        if let Ok(pos) = fen::parse(&s) {
            check_accepted(&pos);
        }
    }

    #[test]
    fn fen_parse_never_panics_on_fen_like(s in fen_like_strategy()) {
        if let Ok(pos) = fen::parse(&s) {
            check_accepted(&pos);
        }
    }

    #[test]
    fn fen_parse_never_panics_on_mutated_fens(s in mutated_fen_strategy()) {
        if let Ok(pos) = fen::parse(&s) {
            check_accepted(&pos);
        }
    }

    #[test]
    fn iccs_parse_never_panics(s in any::<String>(), t in move_like_strategy(), i in 0..POSITIONS.len()) {
        let pos = fen::parse(POSITIONS[i]).expect("fixture FEN");
        for text in [&s, &t] {
            if let Ok(m) = iccs::parse_move(&pos, text) {
                prop_assert!(pos.is_legal(m));
                prop_assert_eq!(m.iccs(), text.as_str());
            }
            let _ = iccs::parse_squares(text);
        }
    }
}

/// Whether `color`'s general is attacked in `pos` (flying general included).
fn general_attacked(pos: &Position, color: Color) -> bool {
    pos.is_attacked_by(pos.general(color), pos.occupied(), color.opponent(), Bitboard(!0))
}

/// Every invariant checked at one position of a playout.
fn check_position(pos: &Position) {
    let text = fen::write(pos);
    assert_eq!(pos.hash(), pos.hash_from_scratch(), "incremental hash at {text}");

    let back = fen::parse(&text).unwrap_or_else(|e| panic!("FEN {text:?} does not parse back: {e}"));
    assert_eq!(&back, pos, "FEN round trip");
    assert_eq!(back.hash(), pos.hash(), "hash after FEN round trip at {text}");
    assert_eq!(fen::write(&back), text);

    let legal = pos.legal_moves();
    let mut pseudo = MoveList::new();
    pos.pseudo_legal_moves(&mut pseudo);
    let us = pos.turn();
    for &m in legal.iter() {
        assert!(pseudo.contains(&m), "legal {m} is pseudo-legal at {text}");
        assert!(pos.is_legal(m), "legal_moves() move {m} fails is_legal at {text}");
        let mut after = pos.clone();
        after.play(m);
        assert!(!general_attacked(&after, us), "legal {m} leaves the general attacked at {text}");
    }
    for &m in pseudo.iter() {
        if legal.contains(&m) {
            continue;
        }
        assert!(!pos.is_legal(m), "rejected {m} passes is_legal at {text}");
        let mut after = pos.clone();
        after.play(m);
        assert!(general_attacked(&after, us), "rejected {m} does not leave the general attacked at {text}");
    }
    assert_eq!(legal.is_empty(), pos.legal_moves().is_empty());
}

/// `play` then `unplay` of every legal move restores the position exactly.
fn check_play_unplay(pos: &mut Position) {
    let before = pos.clone();
    let legal = pos.legal_moves();
    for &m in legal.iter() {
        let undo = pos.play(m);
        assert_eq!(pos.hash(), pos.hash_from_scratch(), "hash after {m} from {}", fen::write(&before));
        assert_ne!(pos.turn(), before.turn());
        pos.unplay(m, undo);
        assert_eq!(*pos, before, "unplay {m}");
        assert_eq!(pos.hash(), before.hash(), "hash after unplay {m}");
        assert_eq!(pos.occupied(), before.occupied(), "occupancy after unplay {m}");
        for c in Color::ALL {
            assert_eq!(pos.by_color(c), before.by_color(c));
            assert_eq!(pos.general(c), before.general(c));
            for r in Role::ALL {
                assert_eq!(pos.pieces(c, r), before.pieces(c, r), "{c} {r} after unplay {m}");
            }
        }
    }
}

#[test]
fn random_playouts_keep_invariants() {
    const GAMES: u64 = 300;
    const MAX_PLIES: usize = 150;
    let mut positions = 0usize;
    let mut ended = 0usize;
    for game in 0..GAMES {
        let mut rng = Pcg64Mcg::seed_from_u64(0xA2C1_0000 + game);
        let mut pos = Position::start();
        // Every third game prefers captures, which reaches endgames, mates and stalemates.
        let greedy = game % 3 == 0;
        for _ply in 0..MAX_PLIES {
            check_position(&pos);
            check_play_unplay(&mut pos);
            positions += 1;
            let legal = pos.legal_moves();
            if legal.is_empty() {
                ended += 1;
                break;
            }
            let captures: Vec<_> = legal.iter().copied().filter(|m| pos.piece_at(m.to).is_some()).collect();
            let m = if greedy && !captures.is_empty() && rng.random_bool(0.8) {
                captures[rng.random_range(0..captures.len())]
            } else {
                legal[rng.random_range(0..legal.len())]
            };
            let hash_before = pos.hash();
            let undo = pos.play(m);
            assert_eq!(undo.hash, hash_before);
        }
    }
    eprintln!("{positions} playout positions checked, {ended} playouts ended in mate or stalemate");
    assert!(positions > 10_000, "{positions} positions checked");
    assert!(ended > 0, "some playouts end in mate or stalemate");
}
