//! Rule-clause tests for King chess, RULES.md §K1-§K7: one test (at least) per clause, each named
//! after it. Positions are §N4 FENs (`markers` = Red's king piece, Black's; `grind` = runs);
//! expected counts are reasoned by hand in comments.

use engine::outcome::{EndReason, Outcome};
use engine::variant::game::VariantEnd;
use engine::variant::game_state::VariantGameState;
use engine::variant::perft::perft;
use engine::variant::{fen, notation, Action, State, Variant};
use engine::{Color, Square};

fn variant(name: &str) -> &'static Variant {
    Box::leak(Box::new(Variant::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))))
}

/// A variant from TOML text written to a temporary file (each test uses its own `tag`).
fn custom(tag: &str, toml: &str) -> &'static Variant {
    let path = std::env::temp_dir().join(format!("anqi-clauses-k-{tag}-{}.toml", std::process::id()));
    std::fs::write(&path, toml).expect("write temp variant");
    let v = Variant::load(path.to_str().expect("utf-8 path")).unwrap_or_else(|e| panic!("{tag}: {e}"));
    let _ = std::fs::remove_file(&path);
    Box::leak(Box::new(v))
}

fn king() -> &'static Variant {
    variant("king")
}

fn state(v: &'static Variant, text: &str) -> State {
    fen::parse(v, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap_or_else(|| panic!("bad square {s}"))
}

/// `a0a1`, `a0a1^` (transfer the marker onto the moved piece).
fn mv(text: &str) -> Action {
    Action::Move { from: sq(&text[..2]), to: sq(&text[2..4]), turn_down: false, marker: text.ends_with('^') }
}

/// Every legal action as its move string, sorted.
fn actions(s: &State) -> Vec<String> {
    let mut v: Vec<String> = s.legal_actions().into_iter().map(|a| notation::action_string(s, a)).collect();
    v.sort();
    v
}

fn actions_from(s: &State, from: &str) -> Vec<String> {
    actions(s).into_iter().filter(|a| a.starts_with(from)).collect()
}

/// Writes `s` and checks that the FEN reads back to the same text.
fn round_trip(s: &State) -> String {
    let text = fen::write(s);
    let back = fen::parse(s.variant(), &text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(fen::write(&back), text);
    text
}

#[test]
fn k1_markers_start_on_generals() {
    let s = State::start(king(), None).expect("start");
    assert_eq!((s.marker(Color::Red), s.marker(Color::Black)), (sq("e0"), sq("e9")));
    assert_eq!(round_trip(&s), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 e0,e9 -,-");
    // Without the markers field the markers are on the generals.
    let s = state(king(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    assert_eq!((s.marker(Color::Red), s.marker(Color::Black)), (sq("e0"), sq("e9")));
    // Start: the 44 standard moves; the 41 non-capturing moves of ordinary pieces come with and
    // without a marker transfer, the two cannon captures and the (king-piece) general's e0-e1
    // without: 41 x 2 + 2 + 1 = 85. Perfect information: no chance node anywhere.
    assert_eq!(perft(&s, 1), 85);
    assert!(!king().random_reveals());
    assert!(s.legal_actions().iter().all(|&a| !s.child(a).is_chance()));
}

#[test]
fn k2_ordinary_swaps_with_king_chariot() {
    // Red K d0 (king piece), Red chariot a5; Black k f9, black chariot e5 carrying Black's marker.
    // Chariot a5: b5, c5, d5, e5 (the swap), a0..a4, a6..a9 = 13, each with and without a
    // marker transfer = 26; K d0: d1, e0 (the king chariot gives no check) = 2. Total 28.
    let s = state(king(), "5k3/9/9/9/R3r4/9/9/9/9/3K5 w - - 0 1 d0,e5 -,-");
    assert_eq!(s.legal_actions().len(), 28);
    // The swap: Red's chariot to e5, Black's king chariot to a5 (still carrying the marker). It
    // counts as non-capturing: Red's run starts.
    let t = s.child(mv("a5e5"));
    assert_eq!(round_trip(&t), "5k3/9/9/9/r3R4/9/9/9/9/3K5 b - - 1 1 d0,a5 e5:1,-");
    // With a marker transfer onto the swapping chariot.
    let t = s.child(mv("a5e5^"));
    assert_eq!(round_trip(&t), "5k3/9/9/9/r3R4/9/9/9/9/3K5 b - - 1 1 e5,a5 -,-");
    // A cannon still needs its screen: without one, a5 stops at d5 ...
    let s = state(king(), "5k3/9/9/9/C3r4/9/9/9/9/3K5 w - - 0 1 d0,e5 -,-");
    assert!(!actions_from(&s, "a5").contains(&"a5e5".to_string()));
    // ... with a screen (a Red soldier c5) it swaps.
    let s = state(king(), "5k3/9/9/9/C1P1r4/9/9/9/9/3K5 w - - 0 1 d0,e5 -,-");
    let rank5: Vec<String> = actions_from(&s, "a5").into_iter().filter(|a| &a[3..4] == "5").collect();
    assert_eq!(rank5, ["a5b5", "a5b5^", "a5e5", "a5e5^"]);
    assert_eq!(round_trip(&s.child(mv("a5e5"))), "5k3/9/9/9/r1P1C4/9/9/9/9/3K5 b - - 1 1 d0,a5 e5:1,-");
}

#[test]
fn k2_king_advisor_is_captured() {
    // Black's king piece is the advisor e8: it is captured normally, no swap, no marker transfer
    // with a capture; the marker returns to Black's general (§K5).
    // Chariot e2: e3..e7 (5), e8 capture, e1, e0, a2..d2 (4), f2..i2 (4) = 16, 15 of them quiet
    // with a marker variant = 31; K d0 (king piece): d1, e0 = 2. Total 33.
    let s = state(king(), "5k3/4a4/9/9/9/9/9/4R4/9/3K5 w - - 0 1 d0,e8 -,-");
    assert_eq!(s.legal_actions().len(), 33);
    assert!(!actions(&s).contains(&"e2e8^".to_string()));
    let t = s.child(mv("e2e8"));
    assert_eq!(round_trip(&t), "5k3/4R4/9/9/9/9/9/9/9/3K5 b - - 0 1 d0,f9 -,-");
}

#[test]
fn k3_king_piece_never_captures() {
    // Red K e0 carries the marker; an unprotected black chariot e1 checks it. A king piece never
    // captures: only e0-f0 (d0 faces the black general). In standard xiangqi e0xe1 is legal too.
    let text = "3k5/9/9/9/9/9/9/9/4r4/4K4 w - - 0 1";
    assert_eq!(actions(&state(king(), &format!("{text} e0,d9 -,-"))), ["e0f0"]);
    assert_eq!(actions(&state(variant("xiangqi"), text)), ["e0e1", "e0f0"]);
    // A king-piece chariot a5 does not take the black horse a7: a6, a0..a4 (5), b5..i5 (8) = 14
    // moves, none with a marker transfer; K e0 (ordinary): e1, f0 with and without = 4. Total 18.
    let s = state(king(), "3k5/9/n8/9/R8/9/9/9/9/4K4 w - - 0 1 a5,d9 -,-");
    assert!(!actions(&s).contains(&"a5a7".to_string()));
    assert_eq!(s.legal_actions().len(), 18);
    // A general without the marker is ordinary: it takes the unprotected checking chariot.
    // Actions: e0e1 (a capture, no transfer), e0f0, e0f0^; the king-piece chariot a0 cannot
    // capture and nothing can block an adjacent check = 3.
    let s = state(king(), "3k5/9/9/9/9/9/9/9/4r4/R3K4 w - - 0 1 a0,d9 -,-");
    assert_eq!(actions(&s), ["e0e1", "e0f0", "e0f0^"]);
}

#[test]
fn k4_marker_transfer_after_quiet_move() {
    let s = State::start(king(), None).expect("start");
    assert!(actions(&s).contains(&"h2e2^".to_string()));
    let t = s.child(mv("h2e2^"));
    // The run ends when its piece becomes the king piece.
    assert_eq!(round_trip(&t), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1 e2,e9 -,-");
    // Without the transfer the run starts.
    assert!(round_trip(&s.child(mv("h2e2"))).ends_with(" e0,e9 e2:1,-"));
    // No transfer after a capture.
    assert!(actions(&s).contains(&"h2h9".to_string()));
    assert!(!actions(&s).contains(&"h2h9^".to_string()));
    // The record writes the transfer with `^`.
    let mut g = VariantGameState::unbounded(s);
    assert_eq!(g.play_recorded(mv("h2e2^"), |_| unreachable!("no chance in king chess")).text, "h2e2^");
}

#[test]
fn k4_general_retakes_marker() {
    // Red's marker on the chariot a0; the Red general is ordinary. K e0: e1, f0 with and without
    // taking the marker back (d0 faces the black general) = 4; king-piece chariot a0: a1..a9,
    // b0, c0, d0 = 12, no transfers. Total 16.
    let s = state(king(), "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1 a0,d9 -,-");
    assert_eq!(s.legal_actions().len(), 16);
    assert_eq!(actions_from(&s, "e0"), ["e0e1", "e0e1^", "e0f0", "e0f0^"]);
    assert_eq!(round_trip(&s.child(mv("e0e1^"))), "3k5/9/9/9/9/9/9/9/4K4/R8 b - - 1 1 e1,d9 -,-");
    // An ordinary general swaps with an enemy king-piece chariot inside its palace: black's king
    // chariot e1 (no check: it cannot capture). Same 16 actions, e0e1 now the swap.
    let s = state(king(), "3k5/9/9/9/9/9/9/9/4r4/R3K4 w - - 0 1 a0,e1 -,-");
    assert_eq!(s.legal_actions().len(), 16);
    assert_eq!(actions_from(&s, "e0"), ["e0e1", "e0e1^", "e0f0", "e0f0^"]);
    // After the swap the black king chariot stands on e0 (next to the Red general, harmlessly).
    assert_eq!(round_trip(&s.child(mv("e0e1"))), "3k5/9/9/9/9/9/9/9/4K4/R3r4 b - - 1 1 a0,e0 e1:1,-");
}

#[test]
fn k5_captured_king_piece_marker_returns() {
    // Black's king piece is the soldier e4; Black's general (ordinary) has a run of 2. The Red
    // chariot e2 takes e4: the marker returns to the black general, whose run thereby ends (§K7:
    // a run ends when its piece becomes the king piece).
    let s = state(king(), "5k3/9/9/9/9/4p4/9/4R4/9/3K5 w - - 0 1 d0,e4 -,f9:2");
    let t = s.child(mv("e2e4"));
    assert_eq!(t.marker(Color::Black), sq("f9"));
    assert_eq!(t.run(Color::Black), None);
    assert_eq!(round_trip(&t), "5k3/9/9/9/9/4R4/9/9/9/3K5 b - - 0 1 d0,f9 -,-");
    // The returned marker makes the general a king piece: it may no longer capture.
    // Black k f9 next to a Red chariot f8 protected by nothing: as a king piece it cannot take
    // it, so it must step to e9 (the chariot attacks the f-file and rank 8).
    let s = state(king(), "5k3/5R3/9/9/9/9/9/9/9/3K5 b - - 0 1 d0,f9 -,-");
    assert_eq!(actions(&s), ["f9e9"]);
}

#[test]
fn k6_king_piece_gives_no_check() {
    // Red's king piece is the chariot f5 on the black general's file; Black is not in check:
    // k f9 (king piece): e9, f8 (still on the file); the ordinary soldier a6 may move, with or
    // without the marker = 4. In standard xiangqi Black is in check and only f9-e9 is legal.
    let text = "5k3/9/9/p8/5R3/9/9/9/9/3K5 b - - 0 1";
    assert_eq!(actions(&state(king(), &format!("{text} f5,f9 -,-"))), ["a6a5", "a6a5^", "f9e9", "f9f8"]);
    assert_eq!(actions(&state(variant("xiangqi"), text)), ["f9e9"]);
    // And Black may leave it so: after a6a5 Red is to move with the black general on the king
    // chariot's file; the FEN reads back (the side not to move is not in check by §K6).
    let t = state(king(), &format!("{text} f5,f9 -,-")).child(mv("a6a5"));
    assert_eq!(round_trip(&t), "5k3/9/9/9/p4R3/9/9/9/9/3K5 w - - 1 2 f5,f9 -,a5:1");
    // Perpetual "checks" by a king piece are no checks: the chariot a8/a9 shuttle of §X6 is a
    // plain repetition draw when the chariot is Red's king piece ...
    let cycle = ["a8a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8", "d8d9"];
    let mut g = VariantGameState::unbounded(state(king(), "3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1 a8,d9 -,-"));
    for m in cycle {
        g.play(mv(m), |_| unreachable!());
    }
    assert_eq!(g.outcome(), Some(VariantEnd::Rule(Outcome::Draw { reason: EndReason::Repetition })));
    // ... and perpetual check, which loses (§K7), when it is ordinary.
    let mut g = VariantGameState::unbounded(state(king(), "3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1 f0,d9 -,-"));
    for m in cycle {
        g.play(mv(m), |_| unreachable!());
    }
    assert_eq!(g.outcome(), Some(VariantEnd::Rule(Outcome::Win { winner: Color::Black, reason: EndReason::PerpetualCheck })));
    // Mate by ordinary pieces: black k d9, Red chariots a9 (check along rank 9, covering e9) and
    // a8 (covering d8), Red general f0 the king piece: checkmate as in §X4.
    let g = VariantGameState::unbounded(state(king(), "R2k5/R8/9/9/9/9/9/9/9/5K3 b - - 0 1 f0,d9 -,-"));
    assert_eq!(g.outcome(), Some(VariantEnd::Rule(Outcome::Win { winner: Color::Red, reason: EndReason::Checkmate })));
    // With the a9 chariot as Red's king piece it neither checks nor covers e9: Black plays d9-e9.
    let g = VariantGameState::unbounded(state(king(), "R2k5/R8/9/9/9/9/9/9/9/5K3 b - - 0 1 a9,d9 -,-"));
    assert_eq!(g.outcome(), None);
    assert_eq!(actions(g.state()), ["d9e9"]);
}

#[test]
fn k6_king_piece_screens_for_ordinary_cannon() {
    // A king piece never checks, but it still stands in lines: Red's king-piece horse e5 is the
    // screen of Red's ordinary cannon e1, which checks e9. Black: f9 only (d9 faces the Red
    // general, e8 is hit over the screen). With the cannon as the king piece there is no check:
    // e8 and f9.
    let text = "4k4/9/9/9/4N4/9/9/9/4C4/3K5 b - - 0 1";
    assert_eq!(actions(&state(king(), &format!("{text} e5,e9 -,-"))), ["e9f9"]);
    assert_eq!(actions(&state(king(), &format!("{text} e1,e9 -,-"))), ["e9e8", "e9f9"]);
}

#[test]
fn k6_flying_general_unchanged() {
    // Black k d9 (king piece) next to the open e-file of the Red general: e9 is barred, whether
    // Red's general carries the marker or not.
    assert_eq!(actions(&state(king(), "3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1 e0,d9 -,-")), ["d9d8"]);
    let s = state(king(), "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1 a0,d9 -,-");
    assert_eq!(actions_from(&s, "d9"), ["d9d8"]);
    // Nor when Black's general is ordinary (Black's marker on the chariot i9).
    let s = state(king(), "3k4r/9/9/9/9/9/9/9/9/4K4 b - - 0 1 e0,i9 -,-");
    assert_eq!(actions_from(&s, "d9"), ["d9d8", "d9d8^"]);
    // Facing generals cannot be written, king pieces or not.
    assert!(fen::parse(king(), "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 e0,e9 -,-").is_err());
}

#[test]
fn k7_grinding_six_moves_loses() {
    // Red's ordinary chariot a0 climbs six times (no capture, no other Red piece moving); Black's
    // king-piece general shuttles (a king-piece move has no run).
    let start = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1 e0,d9 -,-";
    let red = ["a0a1", "a1a2", "a2a3", "a3a4", "a4a5"];
    let black = ["d9d8", "d8d9", "d9d8", "d8d9", "d9d8"];
    let mut g = VariantGameState::unbounded(state(king(), start));
    for k in 0..5 {
        g.play(mv(red[k]), |_| unreachable!());
        assert_eq!(g.outcome(), None, "after Red move {}", k + 1);
        g.play(mv(black[k]), |_| unreachable!());
    }
    assert_eq!(g.state().run(Color::Red), Some((sq("a5"), 5)));
    // (Black's general, its king piece, last went to d8.)
    assert!(fen::write(g.state()).ends_with(" e0,d8 a5:5,-"), "{}", fen::write(g.state()));
    let before = g.state().clone();
    g.play(mv("a5a6"), |_| unreachable!());
    assert_eq!(g.outcome(), Some(VariantEnd::Grinding(Color::Red)));
    assert_eq!(g.outcome().and_then(|o| o.winner()), Some(Color::Black));
    // A marker transfer onto the mover does not undo the sixth move's count.
    assert_eq!(before.child(mv("a5a6^")).grind_loss(), Some(Color::Red));
    // A capture ends the run (and does not lose); so does a king-piece move; another piece's
    // quiet move starts a new run of 1.
    let s = state(king(), "3k5/9/9/9/9/9/9/9/p8/R3K4 w - - 0 1 e0,d9 a0:5,-");
    let t = s.child(mv("a0a1"));
    assert_eq!((t.run(Color::Red), t.grind_loss()), (None, None));
    let t = s.child(mv("e0e1"));
    assert_eq!((t.run(Color::Red), t.grind_loss()), (None, None));
    let s = state(king(), "3k5/9/9/9/9/9/9/9/9/R3K3R w - - 0 1 e0,d9 a0:5,-");
    let t = s.child(mv("i0i1"));
    assert_eq!((t.run(Color::Red), t.grind_loss()), (Some((sq("i1"), 1)), None));
    // Perft does not stop at grinding (§P6): from a run of 5 every action is still counted.
    // Chariot a0: a1..a9 (9), b0, c0, d0 (3) = 12, x2 with transfers = 24; K e0 (king): e1, f0 = 2.
    let s = state(king(), "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1 e0,d9 a0:5,-");
    assert_eq!(perft(&s, 1), 26);
    // grind_limit is an option: 0 switches grinding off, 3 makes the third move lose.
    let off = custom("grindoff", "inherits = \"king\"\n[king]\ngrind_limit = 0\n");
    assert_eq!(state(off, "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1 e0,d9 a0:5,-").child(mv("a0a1")).grind_loss(), None);
    let three = custom("grind3", "inherits = \"king\"\n[king]\ngrind_limit = 3\n");
    let s = state(three, "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1 e0,d9 a0:2,-");
    assert_eq!(s.child(mv("a0a1")).grind_loss(), Some(Color::Red));
}

#[test]
fn k7_run_follows_swapped_piece() {
    // The swapping side's run follows its piece through a swap (a swap is non-capturing): Red's
    // chariot a5 with a run of 2 swaps with Black's king chariot e5: run e5:3.
    let s = state(king(), "5k3/9/9/9/R3r4/9/9/9/9/3K5 w - - 0 1 d0,e5 a5:2,-");
    let t = s.child(mv("a5e5"));
    assert_eq!(t.run(Color::Red), Some((sq("e5"), 3)));
    // The other side's run on another piece is untouched by the swap.
    let s = state(king(), "5k3/9/9/p8/R3r4/9/9/9/9/3K5 w - - 0 1 d0,e5 -,a6:2");
    let t = s.child(mv("a5e5"));
    assert_eq!(round_trip(&t), "5k3/9/9/p8/r3R4/9/9/9/9/3K5 b - - 1 1 d0,a5 e5:1,a6:2");
    // The one piece of theirs a swap moves is their king piece, whose run has ended in any state
    // reached by play; in a written state that records a run on it, the run follows it.
    let s = state(king(), "5k3/9/9/9/R3r4/9/9/9/9/3K5 w - - 0 1 d0,e5 -,e5:2");
    let t = s.child(mv("a5e5"));
    assert_eq!(t.run(Color::Black), Some((sq("a5"), 2)));
}
