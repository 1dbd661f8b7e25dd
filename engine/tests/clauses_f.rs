//! Rule-clause tests for Fan-qi and Jieqi, RULES.md §F1-§F9: one test (at least) per clause, each
//! named after it. Positions are §N2 FENs; expected counts are reasoned by hand in comments.

use engine::variant::config::{Placement, TurnDown};
use engine::variant::fen::StateFenError;
use engine::variant::game_state::VariantGameState;
use engine::variant::perft::perft;
use engine::variant::view::View;
use engine::variant::{fen, notation, Action, ChanceOutcome, State, Variant};
use engine::{Color, Role, Square};

const JIEQI_START: &str = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1";

fn variant(name: &str) -> &'static Variant {
    Box::leak(Box::new(Variant::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))))
}

/// A variant from TOML text written to a temporary file (each test uses its own `tag`).
fn custom(tag: &str, toml: &str) -> &'static Variant {
    let path = std::env::temp_dir().join(format!("anqi-clauses-f-{tag}-{}.toml", std::process::id()));
    std::fs::write(&path, toml).expect("write temp variant");
    let v = Variant::load(path.to_str().expect("utf-8 path")).unwrap_or_else(|e| panic!("{tag}: {e}"));
    let _ = std::fs::remove_file(&path);
    Box::leak(Box::new(v))
}

fn state(v: &'static Variant, text: &str) -> State {
    fen::parse(v, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap_or_else(|| panic!("bad square {s}"))
}

/// `a0a1`, `a0a1~` (turn face-down).
fn mv(text: &str) -> Action {
    Action::Move { from: sq(&text[..2]), to: sq(&text[2..4]), turn_down: text.ends_with('~'), marker: false }
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

fn outcome(mover: Option<Role>, captured: Option<Role>) -> ChanceOutcome {
    ChanceOutcome { mover, captured }
}

/// The field named by the error of a FEN that must be refused.
fn fen_error_field(v: &'static Variant, text: &str) -> String {
    let Err(e) = fen::parse(v, text) else { panic!("{text} accepted") };
    match e {
        StateFenError::Field { field, .. } => field.to_string(),
        other => format!("not a field error: {other}"),
    }
}

#[test]
fn f1_general_always_face_up() {
    for name in ["fanqi-1", "fanqi-2", "fanqi-3", "fanqi-4", "fanqi-5", "fanqi-6", "fanqi-7", "fanqi-8", "fanqi-9", "fanqi-10", "jieqi"] {
        let s = State::start(variant(name), None).expect(name);
        for g in ["e0", "e9"] {
            assert!(!s.face_down().contains(sq(g)), "{name}: general on {g} face-down");
            assert_eq!(s.position().piece_at(sq(g)).map(|p| p.role), Some(Role::General), "{name}");
        }
    }
    let v = variant("jieqi");
    // A face-down piece on the general's point, a general in the pool or the determined list.
    assert_eq!(fen_error_field(v, "xxxxxxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1"), "board");
    assert_eq!(fen_error_field(v, "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w K1A2B2N2R2C2P4a2b2n2r2c2p5 0 1"), "pool");
}

#[test]
fn f2_facedown_moves_as_start_point_type() {
    // Mode 3 (owner's choice): a Red face-down piece on the chariot point a0 whose identity is a
    // cannon; Red K e0, black k d9.
    // X a0 moves as a chariot: a1..a9 (9) and b0, c0, d0 (3) = 12, plus turning face-down
    // (§F5, default `all`) on the own start points a3, b0, c0, d0 = 4. K e0: e1, f0 (d0 faces the
    // black general) = 2, never turned down. Total 18.
    let v = variant("fanqi-3");
    let s = state(v, "3k5/9/9/9/9/9/9/9/9/X3K4 w - 0 1 a0=C");
    assert_eq!(s.legal_actions().len(), 18);
    assert_eq!(actions_from(&s, "a0").len(), 16);
    assert!(actions(&s).contains(&"a0a9".to_string()));
    // After moving it is face-up as its true type: a cannon on a5, no longer listed as determined.
    let t = s.child(mv("a0a5"));
    assert_eq!(fen::write(&t), "3k5/9/9/9/C8/9/9/9/9/4K4 b - 1 1");
    // It now moves as a cannon: a6..a9 (4), a4..a0 (5), b5..i5 (8) = 17, and may turn down on
    // a3 and a0 (own start points) = 19.
    let u = t.child(mv("d9d8"));
    assert_eq!(actions_from(&u, "a5").len(), 19);
    // Fixed mode 2 start: the face-down horse point b0 moves as a horse (a2, c2), the chariot
    // point a0 as a chariot (a1, a2), the soldier point a3 as a soldier (a4); 44 actions in all,
    // none of them onto an own start point (so no turning face-down yet).
    let s = State::start(variant("fanqi-2"), None).expect("start");
    assert_eq!(actions_from(&s, "b0"), ["b0a2", "b0c2"]);
    assert_eq!(actions_from(&s, "a0"), ["a0a1", "a0a2"]);
    assert_eq!(actions_from(&s, "a3"), ["a3a4"]);
    assert_eq!(s.legal_actions().len(), 44);
}

#[test]
fn f2_move_reveals_chance_pool() {
    let v = variant("jieqi");
    let s = state(v, JIEQI_START);
    // "Every move reveals": a3-a4 leaves a chance node with one outcome per distinct pool type,
    // weighted by the pool counts (2 of A, B, N, R, C and 5 of P among 15).
    let t = s.child(mv("a3a4"));
    assert!(t.is_chance());
    assert!(t.legal_actions().is_empty());
    let outs = t.chance_outcomes();
    assert_eq!(outs.len(), 6);
    for (o, p) in &outs {
        let want = if o.mover == Some(Role::Soldier) { 5.0 / 15.0 } else { 2.0 / 15.0 };
        assert!((p - want).abs() < 1e-12, "{o:?} {p}");
        assert_eq!(o.captured, None);
    }
    let mut u = t.clone();
    u.apply_chance(outcome(Some(Role::Chariot), None));
    assert_eq!(
        fen::write(&u),
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/R8/2X1X1X1X/1X5X1/9/XXXXKXXXX b A2B2N2R1C2P5a2b2n2r2c2p5 1 1"
    );
    // "Not moved, not turned": the other 29 stay face-down.
    assert_eq!(u.face_down().count(), 29);
    // Owner's-choice mode 3: the identity is fixed, no chance; the soldier turns up on a4.
    let s = State::start(variant("fanqi-3"), None).expect("start");
    let t = s.child(mv("a3a4"));
    assert!(!t.is_chance());
    assert_eq!(
        fen::write(&t),
        "xxbakabxx/9/1x5x1/x1x1x1x1x/9/P8/2X1X1X1X/1X5X1/9/XXBAKABXX b - 1 1 \
         a0=R,b0=N,h0=N,i0=R,b2=C,h2=C,c3=P,e3=P,g3=P,i3=P,a6=p,c6=p,e6=p,g6=p,i6=p,b7=c,h7=c,a9=r,b9=n,h9=n,i9=r"
    );
}

#[test]
fn f3_mode_facedown_sets() {
    use Role::*;
    let mid = "/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/";
    let rcnp = "b2=C,h2=C,a3=P,c3=P,e3=P,g3=P,i3=P,a6=p,c6=p,e6=p,g6=p,i6=p,b7=c,h7=c";
    // (preset, start FEN, face-down types, participating types, placement, identities hidden
    // from the opponent)
    type Mode = (&'static str, String, Vec<Role>, Vec<Role>, Placement, usize);
    let modes: [Mode; 10] = [
        (
            "fanqi-1",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - 0 1".into(),
            vec![],
            vec![Chariot, Horse, Cannon],
            Placement::None,
            0,
        ),
        (
            "fanqi-2",
            format!("xxbakabxx{mid}XXBAKABXX w - 0 1 a0=R,b0=N,h0=N,i0=R,{rcnp},a9=r,b9=n,h9=n,i9=r"),
            vec![Chariot, Horse, Cannon, Soldier],
            vec![Chariot, Horse, Cannon, Soldier],
            Placement::Fixed,
            0,
        ),
        (
            "fanqi-3",
            format!("xxbakabxx{mid}XXBAKABXX w - 0 1 a0=R,b0=N,h0=N,i0=R,{rcnp},a9=r,b9=n,h9=n,i9=r"),
            vec![Chariot, Horse, Cannon, Soldier],
            vec![Chariot, Horse, Cannon, Soldier],
            Placement::Owner,
            11,
        ),
        (
            "fanqi-4",
            format!("xxbakabxx{mid}XXBAKABXX w N2R2C2P5n2r2c2p5 0 1"),
            vec![Chariot, Horse, Cannon, Soldier],
            vec![Chariot, Horse, Cannon, Soldier],
            Placement::Random,
            11,
        ),
        (
            "fanqi-5",
            format!("xxxakaxxx{mid}XXXAKAXXX w - 0 1 a0=R,b0=N,c0=B,g0=B,h0=N,i0=R,{rcnp},a9=r,b9=n,c9=b,g9=b,h9=n,i9=r"),
            vec![Elephant, Chariot, Horse, Cannon, Soldier],
            vec![Elephant, Chariot, Horse, Cannon, Soldier],
            Placement::Owner,
            13,
        ),
        (
            "fanqi-6",
            format!("xxxakaxxx{mid}XXXAKAXXX w B2N2R2C2P5b2n2r2c2p5 0 1"),
            vec![Elephant, Chariot, Horse, Cannon, Soldier],
            vec![Elephant, Chariot, Horse, Cannon, Soldier],
            Placement::Random,
            13,
        ),
        (
            "fanqi-7",
            format!("xxbxkxbxx{mid}XXBXKXBXX w - 0 1 a0=R,b0=N,d0=A,f0=A,h0=N,i0=R,{rcnp},a9=r,b9=n,d9=a,f9=a,h9=n,i9=r"),
            vec![Advisor, Chariot, Horse, Cannon, Soldier],
            vec![Advisor, Chariot, Horse, Cannon, Soldier],
            Placement::Owner,
            13,
        ),
        (
            "fanqi-8",
            format!("xxbxkxbxx{mid}XXBXKXBXX w A2N2R2C2P5a2n2r2c2p5 0 1"),
            vec![Advisor, Chariot, Horse, Cannon, Soldier],
            vec![Advisor, Chariot, Horse, Cannon, Soldier],
            Placement::Random,
            13,
        ),
        (
            "fanqi-9",
            format!(
                "xxxxkxxxx{mid}XXXXKXXXX w - 0 1 a0=R,b0=N,c0=B,d0=A,f0=A,g0=B,h0=N,i0=R,{rcnp},a9=r,b9=n,c9=b,d9=a,f9=a,g9=b,h9=n,i9=r"
            ),
            vec![Advisor, Elephant, Chariot, Horse, Cannon, Soldier],
            vec![Advisor, Elephant, Chariot, Horse, Cannon, Soldier],
            Placement::Owner,
            15,
        ),
        (
            "fanqi-10",
            JIEQI_START.into(),
            vec![Advisor, Elephant, Chariot, Horse, Cannon, Soldier],
            vec![Advisor, Elephant, Chariot, Horse, Cannon, Soldier],
            Placement::Random,
            15,
        ),
    ];
    for (name, start, down, part, placement, hidden) in modes {
        let v = variant(name);
        let s = State::start(v, None).expect(name);
        assert_eq!(fen::write(&s), start, "{name} start");
        assert_eq!(fen::write(&state(v, &start)), start, "{name} round trip");
        assert_eq!(v.fanqi.facedown_types(), down, "{name} face-down types");
        assert_eq!(v.fanqi.participating(), part, "{name} participating (§F4)");
        assert_eq!(v.fanqi.placement(), placement, "{name}");
        assert_eq!(v.random_reveals(), placement == Placement::Random, "{name}");
        // Hidden information: the identities Black has not seen of Red's pieces (the owner's
        // arrangement in modes 3/5/7/9, the undetermined pool in the random modes), and what Red
        // has not seen of its own (only the random modes hide a side's pieces from itself).
        assert_eq!(View::new(&s, Color::Black).unseen(Color::Red).len(), hidden, "{name} hidden from the opponent");
        let own = if placement == Placement::Random { hidden } else { 0 };
        assert_eq!(View::new(&s, Color::Red).unseen(Color::Red).len(), own, "{name} hidden from the owner");
    }
    // seed_class_one: modes 1-2 with only R, N, C participating.
    let v = custom("classone", "inherits = \"fanqi-2\"\n[fanqi]\nseed_class_one = true\n");
    assert_eq!(v.fanqi.participating(), vec![Chariot, Horse, Cannon]);
}

#[test]
fn f4_participating_advisor_leaves_palace() {
    // Red advisor f2, Red K d0, black k e9. Mode 7 (advisors participate): e1, g1, e3, g3.
    // Mode 1: only e1 (the palace).
    let fen_a = "4k4/9/9/9/9/9/9/5A3/9/3K5 w - 0 1";
    let dests = |s: &State| -> Vec<String> {
        let mut v: Vec<String> = actions_from(s, "f2").into_iter().map(|a| a[2..4].to_string()).collect();
        v.dedup();
        v
    };
    assert_eq!(dests(&state(variant("fanqi-7"), fen_a)), ["e1", "e3", "g1", "g3"]);
    assert_eq!(dests(&state(variant("fanqi-1"), fen_a)), ["e1"]);
    // Mode 5 (elephants participate): the elephant c4 crosses the river: a2, a6, e2, e6.
    let fen_b = "4k4/9/9/9/9/2B6/9/9/9/3K5 w - 0 1";
    assert_eq!(
        actions_from(&state(variant("fanqi-5"), fen_b), "c4"),
        ["c4a2", "c4a6", "c4e2", "c4e6"]
    );
    assert_eq!(actions_from(&state(variant("fanqi-1"), fen_b), "c4"), ["c4a2", "c4e2"]);
    // A participating advisor gives check: Red advisor d8 attacks e9. Black: d9 (the advisor
    // blocks the d-file), f9, e8 = 3.
    let s = state(variant("fanqi-7"), "4k4/3A5/9/9/9/9/9/9/9/3K5 b - 0 1");
    assert!(s.position().in_check());
    assert_eq!(actions(&s), ["e9d9", "e9e8", "e9f9"]);
    // In mode 1 an advisor can never stand there.
    assert!(fen::parse(variant("fanqi-1"), "4k4/3A5/9/9/9/9/9/9/9/3K5 b - 0 1").is_err());
}

#[test]
fn f4_facedown_standard_region_option() {
    // A Red face-down piece on the advisor point d0 (pool A1), Red K e0, black k f9.
    // Mode 10: it moves as a participating advisor: c1 (outside the palace), e1; K e0: e1 (f0
    // faces the black general) = 3. Jieqi / facedown_standard_region: c1 is barred = 2.
    let text = "5k3/9/9/9/9/9/9/9/9/3XK4 w A1 0 1";
    assert_eq!(actions(&state(variant("fanqi-10"), text)), ["d0c1", "d0e1", "e0e1"]);
    assert_eq!(actions(&state(variant("jieqi"), text)), ["d0e1", "e0e1"]);
    // Depth 2 (each reveal has one outcome, pool A1): black k f9 alone answers d0c1 with f8 (e9
    // faces e0), d0e1 with e9, f8, and e0e1 with f8: 1 + 2 + 1 = 4 in mode 10, 2 + 1 = 3 in Jieqi.
    assert_eq!(perft(&state(variant("fanqi-10"), text), 2), 4);
    assert_eq!(perft(&state(variant("jieqi"), text), 2), 3);
    let v = custom("stdregion", "inherits = \"fanqi-10\"\n[fanqi]\nfacedown_standard_region = true\n");
    assert_eq!(actions(&state(v, text)), ["d0e1", "e0e1"]);
    // Once revealed (as an advisor on e1) it is face-up and participates: it may leave the palace.
    let mut t = state(variant("jieqi"), text).child(mv("d0e1"));
    t.apply_chance(outcome(Some(Role::Advisor), None));
    let t = t.child(mv("f9f8"));
    assert_eq!(actions_from(&t, "e1"), ["e1d0", "e1d2", "e1f0", "e1f2"]);
    let t = t.child(mv("e1f2")).child(mv("f8f9"));
    assert_eq!(actions_from(&t, "f2"), ["f2e1", "f2e3", "f2g1", "f2g3"]);
}

#[test]
fn f5_turn_face_down_on_start_point() {
    // Mode 1: Red cannon i0, Red K e0, black k d9 (the seed's 炮一平三变相: cannon on file 1 to
    // file 3, turned face-down as a fake elephant).
    // Cannon: i1..i9 (9), h0, g0, f0 (3) = 12; turned face-down on i3, h0, g0, f0 = 4;
    // K e0: e1, f0 = 2 (the general never turns). Total 18.
    let v = variant("fanqi-1");
    let s = state(v, "3k5/9/9/9/9/9/9/9/9/4K3C w - 0 1");
    assert_eq!(s.legal_actions().len(), 18);
    let downs: Vec<String> = actions(&s).into_iter().filter(|a| a.ends_with('~')).collect();
    assert_eq!(downs, ["i0f0~", "i0g0~", "i0h0~", "i0i3~"]);
    let mut g = VariantGameState::unbounded(s);
    assert_eq!(g.play_recorded(mv("i0g0~"), |_| unreachable!("mode 1 has no chance")).text, "i0g0~");
    // Face-down on g0 as the elephant point's type; its identity (a cannon) is public.
    assert_eq!(fen::write(g.state()), "3k5/9/9/9/9/9/9/9/9/4K1X2 b - 1 1 g0=C");
    assert!(g.state().public_identities().contains(sq("g0")));
    g.play(mv("d9d8"), |_| unreachable!());
    // It moves as an elephant (e2, i2) and turns up again as the cannon.
    assert_eq!(actions_from(g.state(), "g0"), ["g0e2", "g0i2"]);
    g.play(mv("g0e2"), |_| unreachable!());
    assert_eq!(fen::write(g.state()), "9/3k5/9/9/9/9/9/4C4/9/4K4 b - 3 2");
    // Captures may turn down too, and a piece that was face-down when the move began: mode 3,
    // face-down a0 (a cannon) moving as a chariot may turn down on a3, b0, c0, d0.
    let s = state(variant("fanqi-3"), "3k5/9/9/9/9/9/9/9/9/X3K4 w - 0 1 a0=C");
    let downs: Vec<String> = actions(&s).into_iter().filter(|a| a.ends_with('~')).collect();
    assert_eq!(downs, ["a0a3~", "a0b0~", "a0c0~", "a0d0~"]);
    let t = s.child(mv("a0b0~"));
    assert_eq!(fen::write(&t), "3k5/9/9/9/9/9/9/9/9/1X2K4 b - 1 1 b0=C");
}

#[test]
fn f5_turn_down_options() {
    let cannon = "3k5/9/9/9/9/9/9/9/9/4K3C w - 0 1";
    // off (Jieqi's rule): 12 cannon moves + 2 general moves, nothing turned down.
    let off = custom("tdoff", "inherits = \"fanqi-1\"\n[fanqi]\nturn_down = \"off\"\n");
    assert_eq!(off.fanqi.turn_down, TurnDown::Off);
    assert_eq!(state(off, cannon).legal_actions().len(), 14);
    // participating (mode 1: R, N, C): the cannon may turn down only on h0 (a horse point), not
    // on the elephant, advisor or soldier points: 12 + 1 + 2 = 15.
    let part = custom("tdpart", "inherits = \"fanqi-1\"\n[fanqi]\nturn_down = \"participating\"\n");
    let s = state(part, cannon);
    assert_eq!(s.legal_actions().len(), 15);
    assert!(actions(&s).contains(&"i0h0~".to_string()));
    // quiet_only: Red chariot i0 and a black horse on g0. Chariot: i1..i9 (9), h0, g0 capture
    // = 11; turned down on i3, h0, g0 = 3; K e0: f0 only (e1 is covered by the horse, d0 faces
    // d9) = 1. Default 15; quiet only 14 (no i0g0~).
    let chariot = "3k5/9/9/9/9/9/9/9/9/4K1n1R w - 0 1";
    let s = state(variant("fanqi-1"), chariot);
    assert_eq!(s.legal_actions().len(), 15);
    assert!(actions(&s).contains(&"i0g0~".to_string()));
    let quiet = custom("tdquiet", "inherits = \"fanqi-1\"\n[fanqi]\nturn_down_quiet_only = true\n");
    let s = state(quiet, chariot);
    assert_eq!(s.legal_actions().len(), 14);
    assert!(!actions(&s).contains(&"i0g0~".to_string()));
    // not_just_revealed (mode 3): face-down a0 (a cannon) and face-up cannon i0. Default:
    // X a0: 12 + 4 turned down; cannon i0: 12 + 4; K e0: e1, f0 = 34. Option: the face-down
    // piece's 4 are gone = 30.
    let both = "3k5/9/9/9/9/9/9/9/9/X3K3C w - 0 1 a0=C";
    assert_eq!(state(variant("fanqi-3"), both).legal_actions().len(), 34);
    let njr = custom("tdnjr", "inherits = \"fanqi-3\"\n[fanqi]\nturn_down_not_just_revealed = true\n");
    let s = state(njr, both);
    assert_eq!(s.legal_actions().len(), 30);
    let downs: Vec<String> = actions(&s).into_iter().filter(|a| a.ends_with('~')).collect();
    assert_eq!(downs, ["i0f0~", "i0g0~", "i0h0~", "i0i3~"]);
}

#[test]
fn f6_capture_of_facedown_is_chance() {
    // Mode 10: Red chariot e0 takes the black face-down piece e6 (pool r1p1: two undetermined).
    let text = "4k4/9/9/x3x4/9/9/9/9/9/3KR4 w r1p1 0 1";
    let s = state(variant("fanqi-10"), text);
    let t = s.child(mv("e0e6"));
    assert!(t.is_chance());
    let outs = t.chance_outcomes();
    assert_eq!(outs.len(), 2);
    for (o, p) in &outs {
        assert_eq!(o.mover, None);
        assert!(matches!(o.captured, Some(Role::Chariot | Role::Soldier)));
        assert!((p - 0.5).abs() < 1e-12);
    }
    let mut u = t.clone();
    u.apply_chance(outcome(None, Some(Role::Chariot)));
    assert_eq!(u.captured_face_down(), &[(Color::Red, Color::Black, Role::Chariot)]);
    // [R] random modes: known to the capturer only.
    assert_eq!(u.captured_known(), &[[true, false]]);
    assert_eq!(u.pool(Color::Black)[Role::Soldier.index()], 1);
    assert_eq!(u.pool(Color::Black)[Role::Chariot.index()], 0);
    assert!(fen::write(&u).contains(" p1 "), "{}", fen::write(&u));
    // Options: both / nobody.
    for (opt, want) in [("both", [true, true]), ("nobody", [false, false])] {
        let v = custom(&format!("ck{opt}"), &format!("inherits = \"fanqi-10\"\n[fanqi]\ncapture_knowledge = \"{opt}\"\n"));
        let mut u = state(v, text).child(mv("e0e6"));
        u.apply_chance(outcome(None, Some(Role::Soldier)));
        assert_eq!(u.captured_known(), &[want], "{opt}");
    }
    // Owner's-choice mode 3: no chance; the owner knew it, so after the capture both know.
    let s = state(variant("fanqi-3"), "4k4/9/9/x3x4/9/9/9/9/9/3KR4 w - 0 1 a6=r,e6=p");
    let t = s.child(mv("e0e6"));
    assert!(!t.is_chance());
    assert_eq!(t.captured_face_down(), &[(Color::Red, Color::Black, Role::Soldier)]);
    assert_eq!(t.captured_known(), &[[true, true]]);
    // A face-down mover capturing a face-down piece branches over the product (§P2): Jieqi
    // start, cannon point b2 takes b9 over b7: 6 x 6 = 36 outcomes, P(P, p) = 5/15 * 5/15.
    let t = state(variant("jieqi"), JIEQI_START).child(mv("b2b9"));
    let outs = t.chance_outcomes();
    assert_eq!(outs.len(), 36);
    let total: f64 = outs.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-12);
    let pp = outs.iter().find(|(o, _)| *o == outcome(Some(Role::Soldier), Some(Role::Soldier))).expect("P,p").1;
    assert!((pp - 1.0 / 9.0).abs() < 1e-12);
}

#[test]
fn f7_checks_by_current_movement() {
    // Mode 10, Black to move: the Red cannon e1 checks e9 over the black face-down piece e6,
    // which moves as a soldier (its point's type) whatever it is. Black: e9-f9 only (d9 faces the
    // Red general, e8 is still hit by the cannon, e6-e5 keeps the single screen). The same for
    // every identity the pool could hold: legality does not depend on hidden identities.
    for pool in ["a1", "b1", "n1", "r1", "c1", "p1"] {
        let s = state(variant("fanqi-10"), &format!("4k4/9/9/4x4/9/9/9/9/4C4/3K5 b {pool} 0 1"));
        assert!(s.position().in_check(), "{pool}");
        assert_eq!(actions(&s), ["e9f9"], "{pool}");
    }
    // Only the result of a reveal depends on the identity: Red face-down e3 (and a3), pool R1P1.
    // Actions: a3a4, e3e4, K d1, e0 = 4. e3-e4 turned up as a chariot checks e9; as a soldier not.
    let s = state(variant("fanqi-10"), "4k4/9/9/9/9/9/X3X4/9/9/3K5 w R1P1 0 1");
    assert_eq!(actions(&s), ["a3a4", "d0d1", "d0e0", "e3e4"]);
    let t = s.child(mv("e3e4"));
    let mut r = t.clone();
    r.apply_chance(outcome(Some(Role::Chariot), None));
    assert!(r.position().in_check());
    let mut p = t.clone();
    p.apply_chance(outcome(Some(Role::Soldier), None));
    assert!(!p.position().in_check());
}

#[test]
fn f8_record_reveal_letters() {
    // Random mode: the drawn type(s) follow the move; mover's then captured's.
    let mut g = VariantGameState::unbounded(state(variant("jieqi"), JIEQI_START));
    assert_eq!(g.play_recorded(mv("b2b9"), |_| outcome(Some(Role::Soldier), Some(Role::Soldier))).text, "b2b9Pp");
    assert_eq!(g.play_recorded(mv("a6a5"), |_| outcome(Some(Role::Horse), None)).text, "a6a5n");
    // A reveal drawn before turning face-down again: the letter, then `~`. Mode 10, X b2 (pool
    // R1) moves as a cannon to b0 and turns down on the horse point.
    // Actions: X b2: b3..b9 (7), b1, b0 (2), a2, c2..i2 (8) = 17, turned down on b0, h2 = 2;
    // K d0: d1 (e0 faces e9) = 1. Total 20.
    let s = state(variant("fanqi-10"), "4k4/9/9/9/9/9/9/1X7/9/3K5 w R1 0 1");
    assert_eq!(s.legal_actions().len(), 20);
    let mut g = VariantGameState::unbounded(s);
    let ply = g.play_recorded(mv("b2b0~"), |outs| {
        assert_eq!(outs.len(), 1);
        outs[0].0
    });
    assert_eq!(ply.text, "b2b0R~");
    assert_eq!(fen::write(g.state()), "4k4/9/9/9/9/9/9/9/9/1X1K5 b - 1 1 b0=R");
    // Owner's-choice and fixed modes: the revealed identity is known, and recorded all the same.
    let mut g = VariantGameState::unbounded(State::start(variant("fanqi-3"), None).expect("start"));
    assert_eq!(g.play_recorded(mv("a3a4"), |_| unreachable!("no chance in mode 3")).text, "a3a4P");
    let mut g = VariantGameState::unbounded(state(variant("fanqi-3"), "4k4/9/9/x3x4/9/9/9/9/9/3KR4 w - 0 1 a6=r,e6=p"));
    assert_eq!(g.play_recorded(mv("e0e6"), |_| unreachable!()).text, "e0e6p");
    // A turned-down piece moving again shows its (public) identity: 炮一平三变相, then 相...进...
    let mut g = VariantGameState::unbounded(state(variant("fanqi-1"), "3k5/9/9/9/9/9/9/9/9/4K3C w - 0 1"));
    let texts: Vec<String> = ["i0g0~", "d9d8", "g0e2"].iter().map(|m| g.play_recorded(mv(m), |_| unreachable!()).text).collect();
    assert_eq!(texts, ["i0g0~", "d9d8", "g0e2C"]);
    // The record strings parse back to the actions (letters are ignored when reading).
    let s = state(variant("fanqi-1"), "3k5/9/9/9/9/9/9/9/9/4K3C w - 0 1");
    assert_eq!(notation::parse_action(&s, "i0g0~").expect("parses"), mv("i0g0~"));
}

#[test]
fn f9_jieqi_preset() {
    let v = variant("jieqi");
    assert_eq!(v.fanqi.mode, 10);
    assert_eq!(v.fanqi.turn_down, TurnDown::Off);
    assert!(v.fanqi.facedown_standard_region);
    assert!(v.random_reveals());
    let s = State::start(v, None).expect("start");
    assert_eq!(fen::write(&s), JIEQI_START);
    // Pikafish's five-field Jieqi FEN is read as is.
    assert_eq!(fen::write(&state(v, JIEQI_START)), JIEQI_START);
    // No turning face-down: the X b2 position of f8 has 20 actions in mode 10, 18 in Jieqi.
    let s = state(v, "4k4/9/9/9/9/9/9/1X7/9/3K5 w R1 0 1");
    assert_eq!(s.legal_actions().len(), 18);
    assert!(actions(&s).iter().all(|a| !a.contains('~')));
    // Depth 1 from the start: 41 quiet moves x 6 types + 2 cannon captures x 36 + 1 general move;
    // identity perft equals standard xiangqi (§P3).
    let start = State::start(v, None).expect("start");
    assert_eq!(perft(&start, 1), 41 * 6 + 2 * 36 + 1);
    let mut id = start.clone();
    id.make_identity();
    assert_eq!(perft(&id, 2), 1920);
    // The game is not decided at the start.
    assert_eq!(VariantGameState::unbounded(start).outcome(), None);
}
