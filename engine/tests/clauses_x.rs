//! Rule-clause tests for standard xiangqi, RULES.md §X1-§X6: one test (at least) per clause, each
//! named after it. Positions are built from FENs; every expected count is reasoned by hand in the
//! comment next to it.

use engine::notation::{fen, iccs};
use engine::outcome::{EndReason, Game, Outcome};
use engine::variant::game::VariantEnd;
use engine::variant::game_state::VariantGameState;
use engine::variant::{Action, State, Variant};
use engine::{Color, Geometry, Position, Role, Square};

fn variant(name: &str) -> &'static Variant {
    Box::leak(Box::new(Variant::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))))
}

/// A variant from TOML text written to a temporary file (each test uses its own `tag`).
fn custom(tag: &str, toml: &str) -> &'static Variant {
    let path = std::env::temp_dir().join(format!("anqi-clauses-x-{tag}-{}.toml", std::process::id()));
    std::fs::write(&path, toml).expect("write temp variant");
    let v = Variant::load(path.to_str().expect("utf-8 path")).unwrap_or_else(|e| panic!("{tag}: {e}"));
    let _ = std::fs::remove_file(&path);
    Box::leak(Box::new(v))
}

fn pos(text: &str) -> Position {
    fen::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn pos_with(v: &'static Variant, text: &str) -> Position {
    let setup = fen::parse_setup(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    Position::from_setup(&setup, v.rules).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap_or_else(|| panic!("bad square {s}"))
}

/// The legal moves as sorted ICCS strings.
fn moves(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().as_slice().iter().map(|m| m.iccs()).collect();
    v.sort();
    v
}

fn moves_from(p: &Position, from: &str) -> Vec<String> {
    moves(p).into_iter().filter(|m| m.starts_with(from)).collect()
}

fn play(g: &mut Game, text: &str) {
    let m = iccs::parse_move(g.position(), text).unwrap_or_else(|e| panic!("{text}: {e}"));
    g.play(m);
}

fn vmove(text: &str) -> Action {
    Action::Move { from: sq(&text[..2]), to: sq(&text[2..4]), turn_down: false, marker: false }
}

#[test]
fn x1_board_river_and_palaces() {
    let g = Geometry::standard();
    assert_eq!((g.files, g.ranks), (9, 10));
    assert_eq!(g.board.count(), 90);
    // Palaces d0-f2 and d7-f9.
    let palace = |c: Color| -> Vec<String> {
        let mut v: Vec<String> = g.palace[c.index()].into_iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    };
    assert_eq!(palace(Color::Red), ["d0", "d1", "d2", "e0", "e1", "e2", "f0", "f1", "f2"]);
    assert_eq!(palace(Color::Black), ["d7", "d8", "d9", "e7", "e8", "e9", "f7", "f8", "f9"]);
    // River between ranks 4 and 5.
    assert!(g.in_own_half(Color::Red, sq("e4")) && !g.in_own_half(Color::Red, sq("e5")));
    assert!(g.in_own_half(Color::Black, sq("e5")) && !g.in_own_half(Color::Black, sq("e4")));
    // Red K f0, A e1, B c4; black k d9 and a soldier on e6 (across the river from the elephant).
    // K f0: e0, f1 (g0 is outside the palace) = 2; A e1: d0, d2, f2 (f0 own) = 3;
    // B c4: a2, e2 (a6 and e6 are across the river, even e6 with a capture) = 2. Total 7.
    let p = pos("3k5/9/9/4p4/9/2B6/9/9/4A4/5K3 w - - 0 1");
    assert_eq!(moves_from(&p, "f0"), ["f0e0", "f0f1"]);
    assert_eq!(moves_from(&p, "e1"), ["e1d0", "e1d2", "e1f2"]);
    assert_eq!(moves_from(&p, "c4"), ["c4a2", "c4e2"]);
    assert_eq!(p.legal_moves().len(), 7);
}

#[test]
fn x2_move_shapes() {
    // Red K e0, horse c2 with its upward leg c3 blocked by a Red soldier, a crossed soldier g5;
    // black k d9.
    // Horse c2: a1, a3 (leg b2), b0, d0 (leg c1), e1, e3 (leg d2); b4, d4 blocked by c3 = 6.
    // Soldier c3 (not crossed): c4 only = 1. Soldier g5 (crossed): g6, f5, h5 = 3, never g4.
    // K e0: e1, f0; d0 would face the black general on the open d-file = 2. Total 12.
    let p = pos("3k5/9/9/9/6P2/9/2P6/2N6/9/4K4 w - - 0 1");
    assert_eq!(moves_from(&p, "c2"), ["c2a1", "c2a3", "c2b0", "c2d0", "c2e1", "c2e3"]);
    assert_eq!(moves_from(&p, "c3"), ["c3c4"]);
    assert_eq!(moves_from(&p, "g5"), ["g5f5", "g5g6", "g5h5"]);
    assert_eq!(moves_from(&p, "e0"), ["e0e1", "e0f0"]);
    assert_eq!(p.legal_moves().len(), 12);

    // Cannon a4 with a black soldier a6 (screen) and a black horse a8: quiet a5, a3..a0 (5),
    // b4..i4 (8); captures only a8, over the screen (not a6, not a5) = 14. K e0: d0, e1 (f0
    // faces the black general on f9) = 2. Total 16.
    let p = pos("5k3/n8/9/p8/9/C8/9/9/9/4K4 w - - 0 1");
    let c = moves_from(&p, "a4");
    assert_eq!(c.len(), 14);
    assert!(c.contains(&"a4a8".to_string()) && !c.contains(&"a4a6".to_string()) && !c.contains(&"a4a7".to_string()));
    assert_eq!(p.legal_moves().len(), 16);

    // Elephant eye: elephant c0 with its eye d1 occupied (by a horse) reaches a2 only.
    let p = pos("3k5/9/9/9/9/9/9/9/3N5/2B1K4 w - - 0 1");
    assert_eq!(moves_from(&p, "c0"), ["c0a2"]);
}

#[test]
fn x3_flying_general_forbids_exposing() {
    // Red K e0, a Red horse e4 the only piece between the generals on the e-file, black k e9.
    // Every horse move leaves the file (horse moves always change file), so the horse has no
    // legal move; K e0: d0, f0, e1 = 3.
    let text = "4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1";
    let p = pos(text);
    assert!(moves_from(&p, "e4").is_empty());
    assert_eq!(moves(&p), ["e0d0", "e0e1", "e0f0"]);
    // Depth 2: after K d0 Black has f9, e8 (d9 faces d0) = 2; after K f0: d9, e8 = 2; after
    // K e1 (the horse still between): d9, f9, e8 = 3. Total 7.
    let s = engine::variant::fen::parse(variant("xiangqi"), text).expect("fen");
    assert_eq!(engine::variant::perft::perft(&s, 2), 7);
    // A general may not step onto an open file facing the other: K e0 with black k d9:
    // d0 is illegal, e1 and f0 legal.
    let p = pos("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(moves(&p), ["e0e1", "e0f0"]);
    // Facing generals cannot be set up at all.
    assert!(fen::parse("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1").is_err());
}

#[test]
fn x4_checkmate_loses() {
    // Black k d9; Red chariots a9 (check along rank 9) and a8 (covers d8); e9 is on the a9
    // chariot's rank and faces the Red general on e0. Black has no legal move: checkmate.
    let p = pos("R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert!(p.in_check());
    assert!(p.legal_moves().is_empty());
    let g = Game::new(p);
    assert_eq!(g.outcome(), Some(Outcome::Win { winner: Color::Red, reason: EndReason::Checkmate }));
}

#[test]
fn x4_stalemate_loses() {
    // Black k d9 alone, not in check: d8 is covered by the chariot a8, e9 would face the Red
    // general on the open e-file. No legal move and no check: stalemate, and the stalemated side
    // loses (not a draw).
    let p = pos("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert!(!p.in_check());
    assert!(p.legal_moves().is_empty());
    let g = Game::new(p.clone());
    assert_eq!(g.outcome(), Some(Outcome::Win { winner: Color::Red, reason: EndReason::Stalemate }));
    // The same through the variant layer (VariantGameState, preset xiangqi).
    let s = engine::variant::fen::parse(variant("xiangqi"), &fen::write(&p)).expect("fen");
    let vg = VariantGameState::unbounded(s);
    assert_eq!(vg.outcome(), Some(VariantEnd::Rule(Outcome::Win { winner: Color::Red, reason: EndReason::Stalemate })));
}

#[test]
fn x4_move_may_not_leave_general_attacked() {
    // A black chariot e5 pins the Red horse e2 to the Red general e0: every horse move leaves
    // the e-file, so none is legal. K e0: e1 (still shielded by the horse), f0; d0 would face the
    // black general d9 (§X3) = 2.
    let p = pos("3k5/9/9/9/4r4/9/9/4N4/9/4K4 w - - 0 1");
    assert!(moves_from(&p, "e2").is_empty());
    assert_eq!(moves(&p), ["e0e1", "e0f0"]);
}

#[test]
fn x5_red_moves_first() {
    assert_eq!(Position::start().turn(), Color::Red);
    assert!(fen::START.contains(" w "));
    for name in engine::variant::config::preset_names() {
        let s = State::start(variant(name), None).expect(name);
        assert_eq!(s.turn(), Color::Red, "{name}");
        assert_eq!(s.position().turn(), Color::Red, "{name}");
    }
}

#[test]
fn x6_third_repetition_draws() {
    // Both horses go out and back twice: the start position (Red to move) occurs for the third
    // time after 8 plies. No move is a check, so it is a draw.
    let mut g = Game::new(Position::start());
    for (i, m) in ["h0g2", "h9g7", "g2h0", "g7h9", "h0g2", "h9g7", "g2h0", "g7h9"].iter().enumerate() {
        assert_eq!(g.outcome(), None, "before ply {i}");
        play(&mut g, m);
    }
    assert_eq!(g.outcome(), Some(Outcome::Draw { reason: EndReason::Repetition }));

    // The same through VariantGameState.
    let mut vg = VariantGameState::unbounded(State::start(variant("xiangqi"), None).expect("start"));
    for (i, m) in ["h0g2", "h9g7", "g2h0", "g7h9", "h0g2", "h9g7", "g2h0", "g7h9"].iter().enumerate() {
        assert_eq!(vg.outcome(), None, "before ply {i}");
        vg.play(vmove(m), |_| unreachable!("no chance in xiangqi"));
    }
    assert_eq!(vg.outcome(), Some(VariantEnd::Rule(Outcome::Draw { reason: EndReason::Repetition })));
}

/// S0 of a one-sided perpetual: Red chariot a8 / a9 checks the black general, which shuttles
/// d9 / d8 and never checks.
const PERPETUAL: &str = "3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1";
const PERPETUAL_CYCLE: [&str; 8] = ["a8a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8", "d8d9"];

#[test]
fn x6_perpetual_check_loses() {
    // S0 (Red to move) recurs after plies 4 and 8; every Red move was a check, no Black move
    // was: Red, the perpetual checker, loses.
    let mut g = Game::new(pos(PERPETUAL));
    for (i, m) in PERPETUAL_CYCLE.iter().enumerate() {
        assert_eq!(g.outcome(), None, "before ply {i}");
        play(&mut g, m);
        assert_eq!(g.position().in_check(), i % 2 == 0, "ply {i} {m}");
    }
    assert_eq!(g.outcome(), Some(Outcome::Win { winner: Color::Black, reason: EndReason::PerpetualCheck }));

    let mut vg = VariantGameState::unbounded(engine::variant::fen::parse(variant("xiangqi"), PERPETUAL).expect("fen"));
    for m in PERPETUAL_CYCLE {
        vg.play(vmove(m), |_| unreachable!());
    }
    assert_eq!(vg.outcome(), Some(VariantEnd::Rule(Outcome::Win { winner: Color::Black, reason: EndReason::PerpetualCheck })));
}

#[test]
fn x6_both_perpetual_check_draws() {
    // S0: Red K d1, cannon f1, chariot f3; black k f7, chariot d7, cannon f5. Red is in check
    // from the d7 chariot.
    //  f3d3: blocks the d-file and uncovers the f1 cannon (screen f5) on f7: check.
    //  f5d5: removes the screen, and the d5 cannon (screen d3) hits d1: check.
    //  d3f3: removes that screen; chariot f3 (and cannon f1 over it) check f7.
    //  d5f5: blocks the f-file; the d7 chariot hits d1 again: check. Back to S0.
    // Both sides checked on every move of the cycle: draw (RULES.md §X6 [R]).
    let start = "9/9/3r1k3/9/5c3/9/5R3/9/3K1C3/9 w - - 0 1";
    let cycle = ["f3d3", "f5d5", "d3f3", "d5f5", "f3d3", "f5d5", "d3f3", "d5f5"];
    let mut g = Game::new(pos(start));
    assert!(g.position().in_check());
    for (i, m) in cycle.iter().enumerate() {
        assert_eq!(g.outcome(), None, "before ply {i}");
        play(&mut g, m);
        assert!(g.position().in_check(), "ply {i} {m} checks");
    }
    assert_eq!(g.outcome(), Some(Outcome::Draw { reason: EndReason::Repetition }));

    let mut vg = VariantGameState::unbounded(engine::variant::fen::parse(variant("xiangqi"), start).expect("fen"));
    for m in cycle {
        vg.play(vmove(m), |_| unreachable!());
    }
    assert_eq!(vg.outcome(), Some(VariantEnd::Rule(Outcome::Draw { reason: EndReason::Repetition })));
}

#[test]
fn x6_repetition_rules_are_switchable() {
    // end.perpetual_check_loses = false: the one-sided perpetual is a plain repetition draw.
    let v = custom("noperp", "inherits = \"xiangqi\"\n[end]\nperpetual_check_loses = false\n");
    let mut g = Game::new(pos_with(v, PERPETUAL));
    for m in PERPETUAL_CYCLE {
        play(&mut g, m);
    }
    assert_eq!(g.outcome(), Some(Outcome::Draw { reason: EndReason::Repetition }));
    // end.repetition = false (and no perpetual rule): the game goes on.
    let v = custom("norep", "inherits = \"xiangqi\"\n[end]\nrepetition = false\nperpetual_check_loses = false\n");
    let mut g = Game::new(pos_with(v, PERPETUAL));
    for m in PERPETUAL_CYCLE {
        play(&mut g, m);
    }
    assert_eq!(g.outcome(), None);
    // Perpetual check without repetition is a contradiction, named by key.
    let path = std::env::temp_dir().join(format!("anqi-clauses-x-contra-{}.toml", std::process::id()));
    std::fs::write(&path, "inherits = \"xiangqi\"\n[end]\nrepetition = false\nperpetual_check_loses = true\n").expect("write");
    let err = Variant::load(path.to_str().expect("utf-8")).expect_err("contradiction");
    let _ = std::fs::remove_file(&path);
    assert!(err.to_string().contains("end.perpetual_check_loses"), "{err}");
}

#[test]
fn x6_sixty_move_rule() {
    // 119 plies without capture, Red to move: not yet a draw; any quiet move makes 120 plies
    // (60 moves by each side): draw.
    let fen119 = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 80";
    let mut g = Game::new(pos(fen119));
    assert_eq!(g.outcome(), None);
    play(&mut g, "a0a1");
    assert_eq!(g.position().halfmove(), 120);
    assert_eq!(g.outcome(), Some(Outcome::Draw { reason: EndReason::NoCapture }));
    // A capture on the 120th ply resets the count instead.
    let mut g = Game::new(pos("3k5/9/9/9/9/9/9/9/p8/R3K4 w - - 119 80"));
    play(&mut g, "a0a1");
    assert_eq!(g.position().halfmove(), 0);
    assert_eq!(g.outcome(), None);
    // Checkmate on the 120th ply is a win, not a draw (no legal move is judged first).
    // (Chariot b0 to b9 checks d9; d8 is covered by a8, e9 by b9 and the Red general.)
    let mut g = Game::new(pos("3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 119 80"));
    play(&mut g, "b0b9");
    assert_eq!(g.outcome(), Some(Outcome::Win { winner: Color::Red, reason: EndReason::Checkmate }));
    // end.no_capture_plies = 0 switches the rule off; another number moves it.
    let off = custom("r60off", "inherits = \"xiangqi\"\n[end]\nno_capture_plies = 0\n");
    let mut g = Game::new(pos_with(off, fen119));
    play(&mut g, "a0a1");
    assert_eq!(g.outcome(), None);
    let ten = custom("r60ten", "inherits = \"xiangqi\"\n[end]\nno_capture_plies = 10\n");
    let mut g = Game::new(pos_with(ten, "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 9 80"));
    assert_eq!(g.outcome(), None);
    play(&mut g, "a0a1");
    assert_eq!(g.outcome(), Some(Outcome::Draw { reason: EndReason::NoCapture }));
    // VariantGameState applies it too.
    let mut vg = VariantGameState::unbounded(engine::variant::fen::parse(variant("xiangqi"), fen119).expect("fen"));
    assert_eq!(vg.outcome(), None);
    vg.play(vmove("a0a1"), |_| unreachable!());
    assert_eq!(vg.outcome(), Some(VariantEnd::Rule(Outcome::Draw { reason: EndReason::NoCapture })));
}

#[test]
fn x6_no_attacker_draw() {
    // Only generals, advisors and elephants: nobody can reach the other half. Draw.
    let dead = "2bak4/9/9/9/9/9/9/9/4A4/2B1K4 w - - 0 1";
    assert_eq!(Game::new(pos(dead)).outcome(), Some(Outcome::Draw { reason: EndReason::NoAttackers }));
    // One soldier (even Black's, even uncrossed) is attacking material.
    let live = "2bak4/9/9/p8/9/9/9/9/4A4/2B1K4 w - - 0 1";
    assert_eq!(Game::new(pos(live)).outcome(), None);
    // Switchable.
    let off = custom("deadoff", "inherits = \"xiangqi\"\n[end]\nno_attacker_draw = false\n");
    assert_eq!(Game::new(pos_with(off, dead)).outcome(), None);
    // Fan-qi mode 7: a participating advisor may cross the river, so it counts as able.
    let fq7 = engine::variant::fen::parse(variant("fanqi-7"), "2bak4/9/9/9/9/9/9/9/4A4/2B1K4 w - 0 1").expect("fen");
    assert_eq!(VariantGameState::unbounded(fq7).outcome(), None);
    // Fan-qi mode 1 (advisors and elephants do not participate): dead.
    let fq1 = engine::variant::fen::parse(variant("fanqi-1"), "2bak4/9/9/9/9/9/9/9/4A4/2B1K4 w - 0 1").expect("fen");
    assert_eq!(VariantGameState::unbounded(fq1).outcome(), Some(VariantEnd::Rule(Outcome::Draw { reason: EndReason::NoAttackers })));
    // A face-down piece remains (Fan-qi mode 3, a face-down piece on the elephant point g0 whose
    // identity is an elephant): it counts as able.
    let fq3 = engine::variant::fen::parse(variant("fanqi-3"), "2bak4/9/9/9/9/9/9/9/4A4/2B1K1X2 w - 0 1 g0=B").expect("fen");
    assert_eq!(fq3.position().piece_at(sq("g0")).map(|p| p.role), Some(Role::Elephant));
    assert_eq!(VariantGameState::unbounded(fq3).outcome(), None);
}
