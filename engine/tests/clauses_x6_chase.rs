//! Rule-clause tests of RULES.md §X6's perpetual chase and 60-move check cap, §F7's face-down
//! chases and §K7's King-chess exception, and of the searches that must see them (issue 19). The
//! public regression battery is `repetition_cases.rs`.

use engine::game::Game as _;
use engine::notation::{fen, iccs};
use engine::outcome::{EndReason, Game, Outcome};
use engine::repetition::{self, RecordPly};
use engine::search::alphabeta::{Limits, Score, Searcher};
use engine::search::expectimax::{Expectimax, ExpectimaxConfig};
use engine::variant::game::VariantEnd;
use engine::variant::game_state::VariantGameState;
use engine::variant::{Action, Variant};
use engine::{Color, Position, Square};

fn variant(name: &str) -> &'static Variant {
    Box::leak(Box::new(Variant::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))))
}

/// A variant from TOML text written to a temporary file (each test uses its own `tag`).
fn custom(tag: &str, toml: &str) -> &'static Variant {
    let path = std::env::temp_dir().join(format!("anqi-clauses-x6-{tag}-{}.toml", std::process::id()));
    std::fs::write(&path, toml).expect("write temp variant");
    let v = Variant::load(path.to_str().expect("utf-8 path")).unwrap_or_else(|e| panic!("{tag}: {e}"));
    let _ = std::fs::remove_file(&path);
    Box::leak(Box::new(v))
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap_or_else(|| panic!("bad square {s}"))
}

fn vmove(text: &str) -> Action {
    Action::Move { from: sq(&text[..2]), to: sq(&text[2..4]), turn_down: false, marker: false }
}

/// Fairy-Stockfish's AXF case 1: the red cannon (screen: its own soldier) attacks the black
/// chariot on every move while the chariot flees a7 / b7; the third occurrence comes after Red's
/// ninth ply.
const CANNON_CHASE: &str = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1";
const CANNON_CHASE_MOVES: [&str; 9] = ["c2a2", "a7b7", "a2b2", "b7a7", "b2a2", "a7b7", "a2b2", "b7a7", "b2a2"];

fn replay(v: &'static Variant, start: &str, moves: &[&str]) -> VariantGameState {
    let mut g = VariantGameState::unbounded(engine::variant::fen::parse(v, start).expect("fen"));
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(g.outcome(), None, "over before ply {i} ({m})");
        g.play(vmove(m), |outs| outs[0].0);
    }
    g
}

#[test]
fn x6_perpetual_chase_loses() {
    let g = replay(variant("xiangqi"), CANNON_CHASE, &CANNON_CHASE_MOVES);
    assert_eq!(g.outcome(), Some(VariantEnd::Rule(Outcome::Win { winner: Color::Black, reason: EndReason::PerpetualChase })));
    assert_eq!(g.outcome().map(|e| e.reason()), Some("perpetual chase"));
    // The plain position game of the core decides it the same way.
    let mut core = Game::new(fen::parse(CANNON_CHASE).expect("fen"));
    for m in CANNON_CHASE_MOVES {
        let mv = iccs::parse_move(core.position(), m).expect("move");
        core.play(mv);
    }
    assert_eq!(core.outcome(), Some(Outcome::Win { winner: Color::Black, reason: EndReason::PerpetualChase }));
}

#[test]
fn x6_chase_off_restores_the_repetition_draw() {
    for (tag, value) in [("off", "\"off\""), ("false", "false")] {
        let v = custom(tag, &format!("inherits = \"xiangqi\"\n[end]\nchase = {value}\n"));
        assert!(!v.rules.end.chase);
        let g = replay(v, CANNON_CHASE, &CANNON_CHASE_MOVES);
        assert_eq!(g.outcome(), Some(VariantEnd::Rule(Outcome::Draw { reason: EndReason::Repetition })), "chase = {value}");
    }
    assert!(variant("xiangqi").rules.end.chase, "on by default");
}

#[test]
fn x6_perpetual_check_outranks_chase() {
    // AXF case 8: the black soldier checks on every move (perpetual check) while each red general
    // move uncovers the f0 cannon onto Black's crossed soldier (a perpetual chase). The checker
    // loses; the chase is not judged.
    let start = "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1";
    let g = replay(variant("xiangqi"), start, &["f1e1", "f2e2", "e1f1", "e2f2", "f1e1", "f2e2", "e1f1", "e2f2"]);
    assert_eq!(g.outcome(), Some(VariantEnd::Rule(Outcome::Win { winner: Color::Red, reason: EndReason::PerpetualCheck })));
}

#[test]
fn x6_chased_piece_is_followed_as_it_moves() {
    // In the cannon chase the chariot flees between a7 and b7; each red move chases it on its new
    // point, and the intersection follows the piece, not the point.
    let mut pos = fen::parse(CANNON_CHASE).expect("fen");
    let mut sets = Vec::new();
    for m in CANNON_CHASE_MOVES {
        let mv = iccs::parse_move(&pos, m).expect("move");
        let before = pos.clone();
        pos.play(mv);
        sets.push(repetition::chased(&before, mv, &pos));
    }
    let expect = |s: &str| engine::Bitboard::from_square(sq(s));
    assert_eq!(sets[0], expect("a7"));
    assert_eq!(sets[2], expect("b7"));
    assert_eq!(sets[1], engine::Bitboard::EMPTY, "the fleeing chariot chases nothing");
}

#[test]
fn x6_rule60_check_cap() {
    // Ten checks by one side count as ordinary plies; its eleventh and later checks, and the
    // replies to them, do not advance the count (RULES.md §X6 [R], Pikafish's rule60).
    let ply = |mover: Color, gave_check: bool| RecordPly { hash: 0, mover, gave_check, board: true, quiet: None };
    let mut record = Vec::new();
    for _ in 0..14 {
        record.push(ply(Color::Red, true));
        record.push(ply(Color::Black, false));
    }
    assert_eq!(repetition::no_capture_count(28, &record, true), 28 - 8, "checks 11-14 and their 4 replies");
    assert_eq!(repetition::no_capture_count(28, &record, false), 28);
    // A quiet move after the cap counts again.
    record.push(ply(Color::Red, false));
    assert_eq!(repetition::no_capture_count(29, &record, true), 29 - 8);
    // Only the plies since the last capture are looked at (the halfmove count).
    assert_eq!(repetition::no_capture_count(6, &record, true), 6, "two checks since the capture: no cap");
    // The option switches it off.
    let v = custom("cap-off", "inherits = \"xiangqi\"\n[end]\nrule60_check_cap = false\n");
    assert!(!v.rules.end.rule60_check_cap && variant("xiangqi").rules.end.rule60_check_cap);
    let mut end = v.rules.end.clone();
    end.no_capture_plies = Some(22);
    assert!(repetition::no_capture_draw(&end, 29, &record), "cap off: 29 plies count");
    end.rule60_check_cap = true;
    assert!(!repetition::no_capture_draw(&end, 29, &record), "29 plies, 8 of them not counted");
}

#[test]
fn f7_face_down_pieces_chase_and_are_chased_as_their_start_type() {
    // Jieqi: the red cannon a4 (screen: the crossed soldier a5) attacks the black face-down piece
    // on a9, a chariot's start point: a cannon attacking a chariot always chases. The red chariot
    // c2 attacks the face-down piece on c6, a soldier's start point on its own side of the river:
    // an uncrossed soldier is never chased.
    let v = variant("jieqi");
    let s = engine::variant::fen::parse(v, "xx1k5/9/9/2x6/P8/C8/9/2R6/9/4K4 w r1n1p1 0 1").expect("jieqi fen");
    let chased = repetition::chase_set(s.position());
    assert!(chased.contains(sq("a9")), "face-down piece on a chariot point is chased as a chariot");
    assert!(!chased.contains(sq("c6")), "face-down piece on a soldier point is not chased");
    assert!(v.rules.end.chase);
}

#[test]
fn k7_king_chess_judges_no_chase() {
    // §K7 names King chess's repetition endings: third repetition draws, perpetual check loses.
    let v = variant("king");
    assert!(!v.rules.end.chase && v.rules.end.perpetual_check_loses);
    let g = replay(v, CANNON_CHASE, &CANNON_CHASE_MOVES);
    assert_eq!(g.outcome(), Some(VariantEnd::Rule(Outcome::Draw { reason: EndReason::Repetition })));
}

#[test]
fn x6_game_state_of_the_searches_ends_by_perpetual_chase() {
    // The game interface that IS-MCTS, PIMC and the solvers search applies the same rule.
    let mut g = VariantGameState::new(engine::variant::fen::parse(variant("xiangqi"), CANNON_CHASE).expect("fen"));
    for m in CANNON_CHASE_MOVES {
        g.apply_variant(vmove(m));
    }
    assert_eq!(g.red_return(), -1.0);
    assert_eq!(g.returns(engine::game::PlayerId::SECOND), 1.0);
}

/// The game of the cannon chase after its first eight plies: Red to move, and `b2a2` completes
/// the third occurrence.
fn chase_game_before_the_last_move() -> VariantGameState {
    replay(variant("xiangqi"), CANNON_CHASE, &CANNON_CHASE_MOVES[..8])
}

#[test]
fn x6_alphabeta_scores_a_move_into_a_losing_chase_cycle_as_a_loss() {
    let g = chase_game_before_the_last_move();
    let pos: &Position = g.state().position();
    let record = repetition::core_tail(pos, g.record());
    let last = iccs::parse_move(pos, "b2a2").expect("move");
    let mut s = Searcher::new(1);
    let limits = Limits { depth: Some(2), searchmoves: vec![last], ..Limits::default() };
    let r = s.search(pos, &record, &limits, &mut |_| {});
    assert!(r.raw_score <= -engine::search::alphabeta::MATE_BOUND && matches!(r.score, Score::Mate(n) if n <= 0), "chasing on scores as a loss: {:?}", r.score);
    // Without the game's record the same move is an ordinary move.
    s.clear();
    let fresh = s.search(pos, &[], &limits, &mut |_| {});
    assert!(!matches!(fresh.score, Score::Mate(_)), "{:?}", fresh.score);
    // With every move allowed, the search does not walk into the loss.
    s.clear();
    let free = s.search(pos, &record, &Limits::depth(2), &mut |_| {});
    assert_ne!(free.best, Some(last));
}

#[test]
fn x6_expectimax_scores_a_move_into_a_losing_chase_cycle_as_a_loss() {
    let g = chase_game_before_the_last_move();
    let cfg = ExpectimaxConfig { depth: 1, qdepth: 0, ..ExpectimaxConfig::default() };
    let r = Expectimax::new(cfg.clone()).search_in_game(g.state(), g.record());
    let last = vmove("b2a2");
    let v = r.values.iter().find(|(a, _)| *a == last).map(|x| x.1).expect("scored");
    assert!(v < -50_000.0, "chasing on scores as a loss: {v}");
    assert_ne!(r.best().map(|x| x.0), Some(last));
    let fresh = Expectimax::new(cfg).search(g.state());
    let v0 = fresh.values.iter().find(|(a, _)| *a == last).map(|x| x.1).expect("scored");
    assert!(v0.abs() < 50_000.0, "without the record it is an ordinary move: {v0}");
}

#[test]
fn x6_bots_given_the_game_avoid_the_losing_chase() {
    // Every searching bot handed the game (with its record) avoids completing the
    // perpetual chase that loses; the chariot is not worth a loss.
    let g = chase_game_before_the_last_move();
    let last = vmove("b2a2");
    for spec in ["alphabeta:depth=2", "expectimax:depth=1,qdepth=0", "pimc:k=2,search=alphabeta:depth=2", "ismcts:iterations=400"] {
        let mut bot = engine::search::from_spec::<engine::variant::game_state::VariantGameState>(spec, 3).expect("spec");
        let a = engine::search::game_bot::choose_variant(bot.as_mut(), &g);
        assert_ne!(a, last, "{spec} walks into the perpetual chase");
    }
}
