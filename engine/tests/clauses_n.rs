//! Rule-clause tests for the canonical full-state FEN, RULES.md §N1-§N5: round trips, the exact
//! example strings of §N2, §N3 and §N4, the §N5 ordering, and errors that name the bad field.

use engine::variant::fen::StateFenError;
use engine::variant::{fen, Action, ChanceOutcome, State, Variant};
use engine::{Color, Role, Square};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
const JIEQI_START: &str = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1";
/// RULES.md §N3, start with Red layout A and Black layout B.
const SURPRISE_A_B: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 \
     a0=C,b0=R,h0=R,i0=C,b2=N,h2=N,b7=r,h7=r,a9=n,b9=c,h9=c,i9=n 3:0/3:0";

fn variant(name: &str) -> &'static Variant {
    Box::leak(Box::new(Variant::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))))
}

/// A variant from TOML text written to a temporary file (each test uses its own `tag`).
fn custom(tag: &str, toml: &str) -> &'static Variant {
    let path = std::env::temp_dir().join(format!("anqi-clauses-n-{tag}-{}.toml", std::process::id()));
    std::fs::write(&path, toml).expect("write temp variant");
    let v = Variant::load(path.to_str().expect("utf-8 path")).unwrap_or_else(|e| panic!("{tag}: {e}"));
    let _ = std::fs::remove_file(&path);
    Box::leak(Box::new(v))
}

fn state(v: &'static Variant, text: &str) -> State {
    fen::parse(v, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Parses and writes back.
fn rewrite(v: &'static Variant, text: &str) -> String {
    fen::write(&state(v, text))
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap_or_else(|| panic!("bad square {s}"))
}

fn mv(text: &str) -> Action {
    Action::Move { from: sq(&text[..2]), to: sq(&text[2..4]), turn_down: false, marker: false }
}

/// The variant field an error names (`pool`, `backs`, ...), for a FEN that must be refused.
fn bad_field(v: &'static Variant, text: &str) -> &'static str {
    match fen::parse(v, text) {
        Ok(_) => panic!("{text} accepted"),
        Err(StateFenError::Field { field, .. }) => field,
        Err(e) => panic!("{text}: not a variant-field error: {e}"),
    }
}

/// The message of a refused FEN.
fn bad_message(v: &'static Variant, text: &str) -> String {
    match fen::parse(v, text) {
        Ok(_) => panic!("{text} accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn n1_standard_fen() {
    let v = variant("xiangqi");
    let start = format!("{START} w - - 0 1");
    assert_eq!(fen::write(&State::start(v, None).expect("start")), start);
    assert_eq!(rewrite(v, &start), start);
    let mid = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    assert_eq!(rewrite(v, mid), mid);
    // halfmove = plies since the last capture; fullmove counts after Black's move.
    let s = State::start(v, None).expect("start");
    let s = s.child(mv("h2e2"));
    assert!(fen::write(&s).ends_with(" b - - 1 1"));
    let s = s.child(mv("h9g7"));
    assert!(fen::write(&s).ends_with(" w - - 2 2"));
    let s = s.child(mv("e2e6"));
    assert!(fen::write(&s).ends_with(" b - - 0 2"), "a capture resets: {}", fen::write(&s));
    // Missing counters default to 0 1.
    assert_eq!(rewrite(v, &format!("{START} b")), format!("{START} b - - 0 1"));
    // Errors name the field.
    assert!(bad_message(v, &format!("{START} x - - 0 1")).contains("side field"));
    assert!(bad_message(v, &format!("{START} w a - 0 1")).contains("field 3"));
    assert!(bad_message(v, &format!("{START} w - - z 1")).contains("halfmove field"));
    assert!(bad_message(v, &format!("{START} w - - 0 0")).contains("fullmove field"));
    assert!(bad_message(v, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w - - 0 1").contains("board field"));
    assert!(bad_message(v, &format!("{START} w - - 0 1 extra")).contains("fields"));
}

#[test]
fn n2_fanqi_jieqi_fen() {
    let v = variant("jieqi");
    // The example string, read and written as is (five fields, Pikafish's layout).
    assert_eq!(fen::write(&State::start(v, None).expect("start")), JIEQI_START);
    assert_eq!(rewrite(v, JIEQI_START), JIEQI_START);
    let s = state(v, JIEQI_START);
    assert_eq!(s.face_down().count(), 30);
    assert_eq!(s.pool(Color::Red)[Role::Soldier.index()], 5);
    assert_eq!(s.pool(Color::Black)[Role::Advisor.index()], 2);
    // The pool is written in anqi's canonical order A B N R C P (§N2's example), Red first,
    // whatever order it was read in.
    let scrambled = JIEQI_START.replace("A2B2N2R2C2P5a2b2n2r2c2p5", "p5c2P5C2r2R2n2N2b2B2a2A2");
    assert_eq!(rewrite(v, &scrambled), JIEQI_START);
    // Counts of 0 are left out; `-` when empty: one Red face-down piece left.
    let one = "3k5/9/9/9/9/9/X8/9/9/4K4 w R1 3 9";
    assert_eq!(rewrite(v, one), one);
    let none = "3k5/9/9/9/9/9/R8/9/9/4K4 b - 0 9";
    assert_eq!(rewrite(v, none), none);
    // The sixth field lists determined face-down pieces (§N2's example b0=R,c6=p: a Red chariot
    // face-down on b0, a Black soldier face-down on c6); they are not in the pool.
    let f4 = variant("fanqi-4");
    let det = "xxbakabxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXBAKABXX w N2R1C2P5n2r2c2p4 0 1 b0=R,c6=p";
    let s = state(f4, det);
    assert_eq!(fen::write(&s), det);
    assert_eq!((s.identity(sq("b0")), s.identity(sq("c6")), s.identity(sq("a0"))), (Some(Role::Chariot), Some(Role::Soldier), None));
    // `-` in the sixth field reads as empty, and the field is then left out.
    assert_eq!(rewrite(v, &format!("{JIEQI_START} -")), JIEQI_START);
    // Owner's-choice and fixed modes: the pool is `-` and every identity is in the sixth field.
    let s = State::start(variant("fanqi-2"), None).expect("start");
    let text = fen::write(&s);
    assert!(text.contains(" w - 0 1 a0=R,b0=N,h0=N,i0=R,b2=C,h2=C,a3=P,"), "{text}");
    assert_eq!(rewrite(variant("fanqi-2"), &text), text);
    // A move turning a pool piece up removes its type from the pool.
    let mut t = state(v, JIEQI_START).child(mv("h2h9"));
    t.apply_chance(ChanceOutcome { mover: Some(Role::Cannon), captured: Some(Role::Horse) });
    assert_eq!(
        fen::write(&t),
        "xxxxkxxCx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X7/9/XXXXKXXXX b A2B2N2R2C1P5a2b2n1r2c2p5 0 1"
    );
}

/// Pikafish's `jieqi` branch lists each side's pool letters R A C P N B.
const JIEQI_START_PIKAFISH: &str =
    "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1";

#[test]
fn n2_pool_letters_in_any_order_and_pikafish_order_written_on_request() {
    let v = variant("jieqi");
    // Both orders, and Black before Red, read to the same state.
    let canonical = state(v, JIEQI_START);
    let pikafish = state(v, JIEQI_START_PIKAFISH);
    let black_first = state(v, &JIEQI_START.replace("A2B2N2R2C2P5a2b2n2r2c2p5", "b2a2c2p5n2r2P5N2B2R2C2A2"));
    for other in [&pikafish, &black_first] {
        assert_eq!(fen::write(other), JIEQI_START);
        assert_eq!(other.pool(Color::Red), canonical.pool(Color::Red));
        assert_eq!(other.pool(Color::Black), canonical.pool(Color::Black));
        assert_eq!(other.hash(), canonical.hash());
    }
    // The default writer is the canonical one; the Pikafish writer gives R A C P N B per side.
    assert_eq!(fen::write_with(&canonical, fen::PoolOrder::Canonical), JIEQI_START);
    assert_eq!(fen::write_with(&canonical, fen::PoolOrder::Pikafish), JIEQI_START_PIKAFISH);
    // After a reveal (counts of 0 still left out) and with the sixth field.
    let mut t = canonical.child(mv("h2h9"));
    t.apply_chance(ChanceOutcome { mover: Some(Role::Cannon), captured: Some(Role::Horse) });
    let written = fen::write_with(&t, fen::PoolOrder::Pikafish);
    assert_eq!(written, "xxxxkxxCx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X7/9/XXXXKXXXX b R2A2C1P5N2B2r2a2c2p5n1b2 0 1");
    assert_eq!(fen::write(&state(v, &written)), fen::write(&t));
    let f4 = variant("fanqi-4");
    let det = "xxbakabxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXBAKABXX w N2R1C2P5n2r2c2p4 0 1 b0=R,c6=p";
    let pika = "xxbakabxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXBAKABXX w R1C2P5N2r2c2p4n2 0 1 b0=R,c6=p";
    assert_eq!(fen::write_with(&state(f4, det), fen::PoolOrder::Pikafish), pika);
    assert_eq!(fen::write(&state(f4, pika)), det);
    // Without a pool the order changes nothing.
    let x = State::start(variant("xiangqi"), None).expect("start");
    assert_eq!(fen::write_with(&x, fen::PoolOrder::Pikafish), fen::write(&x));
}

#[test]
fn n2_fanqi_fen_errors_name_the_field() {
    let v = variant("jieqi");
    // Pool total differs from the undetermined face-down pieces.
    assert_eq!(bad_field(v, &JIEQI_START.replace("P5a2", "P4a2")), "pool");
    // More of a type than the start array has.
    assert_eq!(bad_field(v, &JIEQI_START.replace("A2B2N2R2C2P5a2", "A3B2N2R2C2P4a2")), "pool");
    // A letter without count, an unknown letter.
    assert_eq!(bad_field(v, &JIEQI_START.replace("A2B2", "AB2B2")), "pool");
    assert_eq!(bad_field(v, &JIEQI_START.replace("A2B2", "Z2B2")), "pool");
    // A determined entry where there is no face-down piece of that colour.
    let f4 = variant("fanqi-4");
    let det = "xxbakabxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXBAKABXX w N2R1C2P5n2r2c2p4 0 1";
    assert_eq!(bad_field(f4, &format!("{det} c0=R,c6=p")), "determined");
    assert_eq!(bad_field(f4, &format!("{det} b0=r,c6=p")), "determined");
    assert_eq!(bad_field(f4, &format!("{det} b0R,c6=p")), "determined");
    assert_eq!(bad_field(f4, &format!("{det} b0=RR,c6=p")), "determined");
    // A face-down piece off its side's start points.
    assert_eq!(bad_field(v, "3k5/9/9/9/9/X8/9/9/9/4K4 w R1 0 1"), "board");
    assert!(bad_message(v, "3k5/9/9/9/9/X8/9/9/9/4K4 w R1 0 1").contains("FEN board field"));
}

#[test]
fn n3_surprise_fen() {
    let v = variant("surprise");
    // The example string of §N3.
    let s = State::start(v, Some(("A", "B"))).expect("start");
    assert_eq!(fen::write(&s), SURPRISE_A_B);
    assert_eq!(rewrite(v, SURPRISE_A_B), SURPRISE_A_B);
    let back = state(v, SURPRISE_A_B);
    assert_eq!(back.back(sq("a0")), Some(Role::Cannon));
    assert_eq!(back.back(sq("b7")), Some(Role::Chariot));
    assert_eq!(back.flip_rights(Color::Red), (3, 0));
    // `*`: the opponent has seen that face; rights after a flip.
    let seen = SURPRISE_A_B.replace("a0=C,", "a0=C*,").replace("3:0/3:0", "2:0/1:1");
    assert_eq!(rewrite(v, &seen), seen);
    assert!(state(v, &seen).back_seen().contains(sq("a0")));
    assert_eq!(state(v, &seen).flip_rights(Color::Black), (1, 1));
    // flip_right_by_history: a third component per side, the types whose capture created a right.
    let h = custom("hist", "inherits = \"surprise\"\n[surprise]\nflip_right_by_history = true\n");
    let hist = SURPRISE_A_B.replace("3:0/3:0", "1:1:N/3:0:-");
    assert_eq!(rewrite(h, &hist), hist);
    assert_eq!(state(h, &hist).lost_types(Color::Red)[Role::Horse.index()], 1);
    // Without the option the third component is not written.
    assert_eq!(rewrite(v, &hist), SURPRISE_A_B.replace("3:0/3:0", "1:1/3:0"));
}

#[test]
fn n3_surprise_fen_errors_name_the_field() {
    let v = variant("surprise");
    let std6 = format!("{START} w - - 0 1");
    assert_eq!(bad_field(v, &std6), "backs");
    let with = |backs: &str, rights: &str| format!("{std6} {backs} {rights}");
    assert_eq!(bad_field(v, &with("a0=X", "3:0/3:0")), "backs");
    assert_eq!(bad_field(v, &with("a0=R", "3:0/3:0")), "backs"); // a chariot cannot hide a chariot
    assert_eq!(bad_field(v, &with("a0=c", "3:0/3:0")), "backs"); // a Black face on a Red disc
    assert_eq!(bad_field(v, &with("e0=R", "3:0/3:0")), "backs"); // the general is no disc
    assert_eq!(bad_field(v, &with("a0=A", "3:0/3:0")), "backs");
    assert_eq!(bad_field(v, &with("a0C", "3:0/3:0")), "backs");
    assert_eq!(bad_field(v, &with("a0=C", "3:0")), "rights");
    assert_eq!(bad_field(v, &with("a0=C", "3:x/3:0")), "rights");
    assert_eq!(bad_field(v, &with("a0=C", "3:0:N:N/3:0")), "rights");
    assert!(bad_message(v, &with("a0=C", "3")).contains("FEN rights field"));
}

#[test]
fn n4_king_fen() {
    let v = variant("king");
    let start = format!("{START} w - - 0 1 e0,e9 -,-");
    assert_eq!(fen::write(&State::start(v, None).expect("start")), start);
    assert_eq!(rewrite(v, &start), start);
    // The example `h2:3`: Red's cannon h2 has made three consecutive non-capturing moves.
    let run = format!("{START} w - - 6 4 e0,e9 h2:3,-");
    let s = state(v, &run);
    assert_eq!(s.run(Color::Red), Some((sq("h2"), 3)));
    assert_eq!(fen::write(&s), run);
    // It extends with h2's next quiet move and follows the piece.
    assert!(fen::write(&s.child(mv("h2h5"))).ends_with(" e0,e9 h5:4,-"));
    // Markers on other pieces.
    let m = format!("{START} b - - 0 1 h2,b7 -,b9:1");
    assert_eq!(rewrite(v, &m), m);
}

#[test]
fn n4_king_fen_errors_name_the_field() {
    let v = variant("king");
    let base = format!("{START} w - - 0 1");
    assert_eq!(bad_field(v, &format!("{base} e0 -,-")), "markers");
    assert_eq!(bad_field(v, &format!("{base} e0,z9 -,-")), "markers");
    assert_eq!(bad_field(v, &format!("{base} e5,e9 -,-")), "markers"); // no piece on e5
    assert_eq!(bad_field(v, &format!("{base} e9,e0 -,-")), "markers"); // the other side's pieces
    assert_eq!(bad_field(v, &format!("{base} e0,e9 -")), "grind");
    assert_eq!(bad_field(v, &format!("{base} e0,e9 h2,-")), "grind");
    assert_eq!(bad_field(v, &format!("{base} e0,e9 h2:x,-")), "grind");
    assert_eq!(bad_field(v, &format!("{base} e0,e9 h7:2,-")), "grind"); // a Black piece in Red's run
    assert_eq!(bad_field(v, &format!("{base} e0,e9 -,- extra")), "grind");
    assert!(bad_message(v, &format!("{base} e0 -,-")).contains("FEN markers field"));
}

#[test]
fn n5_square_lists_ordered_red_first_then_ascending() {
    // Backs read in any order are written Red's entries first, each side in ascending square
    // order (a0, b0, ..., i0, a1, ...), whatever the side to move.
    let v = variant("surprise");
    let scrambled = SURPRISE_A_B.replace(
        "a0=C,b0=R,h0=R,i0=C,b2=N,h2=N,b7=r,h7=r,a9=n,b9=c,h9=c,i9=n",
        "i9=n,h2=N,b7=r,a0=C,h9=c,b2=N,i0=C,a9=n,h7=r,b0=R,b9=c,h0=R",
    );
    assert_eq!(rewrite(v, &scrambled), SURPRISE_A_B);
    let black = SURPRISE_A_B.replace(" w - - 0 1 ", " b - - 0 1 ");
    let black_scrambled = scrambled.replace(" w - - 0 1 ", " b - - 0 1 ");
    assert_eq!(rewrite(v, &black_scrambled), black);
    // The same for the determined list of Fan-qi.
    let f3 = variant("fanqi-3");
    let s = State::start(f3, None).expect("start");
    let text = fen::write(&s);
    let (head, list) = text.rsplit_once(' ').expect("six fields");
    let mut entries: Vec<&str> = list.split(',').collect();
    entries.reverse();
    assert_eq!(rewrite(f3, &format!("{head} {}", entries.join(","))), text);
    // Red before Black even where a Black square sorts first (b0 is a Black cannon's disc here).
    let s = state(v, "rnbakabnr/9/7c1/p1p1p1p1p/9/9/P1P1P1P1P/1N5C1/9/RcBAKAB1R w - - 0 2 b0=n,h2=N,a0=C,b2=C*,i0=C,h7=n,a9=c,b9=r,h9=r,i9=c 2:0/3:0");
    assert!(fen::write(&s).ends_with(" a0=C,i0=C,b2=C*,h2=N,b0=n,h7=n,a9=c,b9=r,h9=r,i9=c 2:0/3:0"), "{}", fen::write(&s));
}
