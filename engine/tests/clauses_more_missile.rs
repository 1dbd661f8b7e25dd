//! Clause tests of missile xiangqi, named after the RULES-more.md §3 sections they check.

use engine::game::{Game, PlayerId};
use engine::more::missile::fen;
use engine::more::missile::game::{decode, encode};
use engine::more::missile::perft::perft;
use engine::more::missile::{BaseOutcome, BaseReading, DeadGeneral, MMove, MissileEnd, MissileGame, MissilePosition, MissileRules};
use engine::more::piece::Kind;
use engine::piece::Color;

fn rules() -> MissileRules {
    MissileRules::default()
}

fn pos(text: &str) -> MissilePosition {
    fen::parse(rules(), text).expect("test FEN parses")
}

fn pos_with(r: MissileRules, text: &str) -> MissilePosition {
    fen::parse(r, text).expect("test FEN parses")
}

fn mv(p: &MissilePosition, s: &str) -> MMove {
    let g = p.geo();
    let (from, rest) = g.parse_prefix(s).expect("square");
    MMove { from, to: g.parse(rest).expect("square") }
}

fn legal(p: &MissilePosition) -> Vec<String> {
    let mut v = Vec::new();
    p.legal_moves(&mut v);
    v.iter().map(|&m| fen::move_string(p, m)).collect()
}

fn from(p: &MissilePosition, sq: &str) -> Vec<String> {
    let mut l = legal(p);
    l.retain(|m| m.starts_with(sq) && !m[sq.len()..].starts_with(|c: char| c.is_ascii_digit()));
    l.sort();
    l
}

const START: &str = "mrnbakabnrm/11/1fc5cf1/1p1p1p1p1p1/11/11/1P1P1P1P1P1/1FC5CF1/11/MRNBAKABNRM w a0,k0,a9,k9 0 1";

#[test]
fn m3_2_board_is_11_files_by_10_ranks_with_palaces() {
    let g = engine::more::Geometry::missile();
    assert_eq!((g.files, g.ranks, g.len()), (11, 10, 110));
    assert!(g.in_palace(Color::Red, g.parse("e0").expect("test fixture")) && g.in_palace(Color::Red, g.parse("g2").expect("test fixture")));
    assert!(!g.in_palace(Color::Red, g.parse("d0").expect("test fixture")));
    assert!(g.in_palace(Color::Black, g.parse("f8").expect("test fixture")));
    assert!(g.own_half(Color::Red, g.parse("a4").expect("test fixture")) && g.own_half(Color::Black, g.parse("a5").expect("test fixture")));
}

#[test]
fn m3_2_chariot_controls_19_points_on_an_empty_board() {
    let p = pos("4k6/11/11/11/11/11/11/11/11/R5K4 w - 0 1");
    // a0: 9 up (a1..a9) + 5 right (b0..f0 stops before g0? K on g0) -> check the doc's 19 on a clear line.
    let q = pos("4k6/11/11/11/11/5R5/11/11/11/6K4 w - 0 1");
    assert_eq!(from(&q, "f4").len(), 19);
    assert!(!from(&p, "a0").is_empty());
}

#[test]
fn m3_6_start_position_and_fen_round_trip() {
    let p = MissilePosition::start(rules());
    assert_eq!(fen::write(&p), START);
    assert_eq!(fen::write(&pos(START)), START);
    assert_eq!(p.count(Color::Red, Kind::Missile), 2);
    assert_eq!(p.count(Color::Black, Kind::Fighter), 2);
    assert_eq!(p.board().pieces().count(), 40);
}

#[test]
fn m3_6_start_has_62_moves() {
    let p = MissilePosition::start(rules());
    assert_eq!(legal(&p).len(), 62);
}

#[test]
fn m3_3_fighter_leaps_to_eight_points() {
    let p = pos("4k6/11/11/11/11/5F5/11/11/11/6K4 w - 0 1");
    assert_eq!(from(&p, "f4"), ["f4c3", "f4c5", "f4e1", "f4e7", "f4g1", "f4g7", "f4i3", "f4i5"]);
}

#[test]
fn m3_3_fighter_blocked_only_by_two_points_ahead() {
    // Two pieces on f5 and f6 block the upward leaps; the sideways and downward ones stay.
    let p = pos("4k6/11/11/11/5p5/5P5/5F5/11/11/6K4 w - 0 1");
    let f = from(&p, "f3");
    assert!(!f.contains(&"f3e6".to_string()) && !f.contains(&"f3g6".to_string()));
    assert!(f.contains(&"f3e0".to_string()));
    // One piece ahead does not block (自由飛翔).
    let q = pos("4k6/11/11/11/11/5P5/5F5/11/11/6K4 w - 0 1");
    let f = from(&q, "f3");
    assert!(f.contains(&"f3e6".to_string()) && f.contains(&"f3g6".to_string()));
    // Only the second point occupied: not blocked either.
    let r = pos("4k6/11/11/11/11/5P5/11/5F5/11/6K4 w - 0 1");
    assert!(from(&r, "f2").contains(&"f2e5".to_string()));
}

#[test]
fn m3_3_fighter_captures_as_it_moves() {
    let p = pos("4k6/11/11/11/11/11/4r6/11/11/5FK4 w - 0 1");
    // f0 -> e3 holds a black chariot: an ordinary capture.
    let m = mv(&p, "f0e3");
    assert_eq!(p.effect(m), Some(engine::more::missile::Effect::Capture));
}

#[test]
fn m3_3_missile_slides_any_distance() {
    let p = pos("4k6/11/11/11/11/5M5/11/11/11/6K4 w - 0 1");
    assert_eq!(from(&p, "f4").len(), 19);
}

#[test]
fn m3_4_missile_attack_destroys_both() {
    let p = pos("4k6/11/11/11/11/5M3r1/11/11/11/6K4 w - 0 1");
    let m = mv(&p, "f4j4");
    assert_eq!(p.effect(m), Some(engine::more::missile::Effect::Mutual));
    let q = p.after(m);
    assert!(q.board().get(q.geo().parse("j4").expect("test fixture")).is_none());
    assert!(q.board().get(q.geo().parse("f4").expect("test fixture")).is_none());
    assert_eq!(q.halfmove(), 0);
}

#[test]
fn m3_4_cannon_survives_taking_a_missile() {
    let p = pos("4k6/11/11/11/11/1C1P3m3/11/11/11/6K4 w - 0 1");
    let m = mv(&p, "b4h4");
    assert_eq!(p.effect(m), Some(engine::more::missile::Effect::Capture));
    let q = p.after(m);
    assert_eq!(q.board().get(q.geo().parse("h4").expect("test fixture")).map(|x| x.kind), Some(Kind::Cannon));
}

#[test]
fn m3_4_other_piece_taking_a_missile_destroys_both() {
    let p = pos("4k6/11/11/11/11/1R5m3/11/11/11/6K4 w - 0 1");
    let m = mv(&p, "b4h4");
    assert_eq!(p.effect(m), Some(engine::more::missile::Effect::Mutual));
    let q = p.after(m);
    assert!(q.board().pieces().all(|(_, x)| x.kind == Kind::General));
}

#[test]
fn m3_4_general_never_takes_a_missile() {
    // A black missile on g1 next to the red general on f1... the general may not take it.
    let p = pos("4k6/11/11/11/11/11/11/11/6m4/5K5 w - 0 1");
    assert!(!legal(&p).contains(&"f0g0".to_string()) || p.board().get(p.geo().parse("g0").expect("test fixture")).is_none());
    let q = pos("4k6/11/11/11/11/11/11/11/11/5Km4 w - 0 1");
    assert!(!legal(&q).contains(&"f0g0".to_string()));
}

#[test]
fn m3_4_removal_passes_the_legality_filter() {
    // The red chariot on f2 is pinned by the black chariot f9 against the red general f0;
    // "taking" the missile on h2 removes the chariot and exposes the general: illegal.
    let p = pos("k4r5/11/11/11/11/11/11/5R1m3/11/4K6 w - 0 1");
    let q = pos("4kr5/11/11/11/11/11/11/5R1m3/11/5K5 w - 0 1");
    assert!(!legal(&q).contains(&"f2h2".to_string()));
    assert!(legal(&p).contains(&"f2h2".to_string()));
}

#[test]
fn m3_5_base_rule_protects_base() {
    let p = MissilePosition::start(rules());
    let m = mv(&p, "a0a9");
    assert_eq!(p.effect(m), Some(engine::more::missile::Effect::SelfDestruct));
    let q = p.after(m);
    let g = q.geo();
    assert!(q.board().get(g.parse("a0").expect("test fixture")).is_none(), "the attacker destroys itself");
    assert_eq!(q.board().get(g.parse("a9").expect("test fixture")).map(|x| x.kind), Some(Kind::Missile));
    assert!(q.in_base(g.parse("a9").expect("test fixture")));
}

#[test]
fn m3_5_base_rule_moved_missile_attacking_in_base_missile_destroys_both() {
    // Red's a-missile has left base (a1, not in the bases field); narrow reading: mutual.
    let p = pos("m4k5/11/11/11/11/11/11/11/M10/6K4 w a9 0 1");
    assert_eq!(p.effect(mv(&p, "a1a9")), Some(engine::more::missile::Effect::Mutual));
    // In base attacker vs moved target: mutual too.
    let q = pos("m4k5/11/11/11/11/11/11/11/M10/6K4 w a1 0 1");
    assert_eq!(q.effect(mv(&q, "a1a9")), Some(engine::more::missile::Effect::Mutual));
}

#[test]
fn m3_5_base_rule_broad_reading_flag() {
    let r = MissileRules { base_reading: BaseReading::Broad, ..rules() };
    let p = pos_with(r, "m4k5/11/11/11/11/11/11/11/M10/6K4 w a9 0 1");
    assert_eq!(p.effect(mv(&p, "a1a9")), Some(engine::more::missile::Effect::SelfDestruct));
}

#[test]
fn m3_5_base_rule_illegal_flag() {
    let r = MissileRules { base_outcome: BaseOutcome::Illegal, ..rules() };
    let p = MissilePosition::start(r);
    assert!(!legal(&p).contains(&"a0a9".to_string()));
    assert_eq!(legal(&p).len(), 60);
}

#[test]
fn m3_5_base_rule_non_missile_attacks_in_base_missile_normally() {
    let p = pos("m4k5/11/11/11/11/11/11/11/R10/6K4 w a9 0 1");
    assert_eq!(p.effect(mv(&p, "a1a9")), Some(engine::more::missile::Effect::Mutual));
}

#[test]
fn m3_5_base_status_lost_for_good_after_moving() {
    let p = MissilePosition::start(rules());
    let q = p.after(mv(&p, "a0a1"));
    assert!(!q.in_base(q.geo().parse("a1").expect("test fixture")));
    assert!(q.in_base(q.geo().parse("k0").expect("test fixture")));
}

#[test]
fn m3_7_dead_general_allows_only_general_moves() {
    // A black missile on f2 (inside Red's palace) checks the red general on f0; a red chariot
    // could take it, but under the strict reading only general moves are legal.
    let p = pos("4k6/11/11/11/11/11/11/R4m5/11/5K5 w - 0 1");
    assert!(p.palace_missile_check(Color::Red));
    let l = legal(&p);
    assert!(!l.is_empty());
    assert!(l.iter().all(|m| m.starts_with("f0")), "{l:?}");
    // Lenient flag: the chariot may take it (mutual destruction).
    let q = pos_with(MissileRules { dead_general: DeadGeneral::Lenient, ..rules() }, "4k6/11/11/11/11/11/11/R4m5/11/5K5 w - 0 1");
    assert!(legal(&q).contains(&"a2f2".to_string()));
}

#[test]
fn m3_7_dead_general_with_no_general_move_loses() {
    // Missile f1 checks f0; e0/g0 are covered by the black chariots on e9 and g9.
    let text = "4rkr4/11/11/11/11/11/11/11/5m5/R4K5 w - 0 1";
    let g = MissileGame::from_fen(MissileRules::preset("missile").expect("test fixture"), text).expect("test fixture");
    assert_eq!(g.end(), Some(MissileEnd::DeadGeneral(Color::Black)));
}

#[test]
fn m3_7_missile_check_from_outside_the_palace_is_ordinary() {
    let p = pos("4k6/11/11/11/11/5m5/11/R10/11/5K5 w - 0 1");
    assert!(p.in_check(Color::Red) && !p.palace_missile_check(Color::Red));
    // Interposing with the chariot is allowed.
    assert!(legal(&p).contains(&"a2f2".to_string()));
}

#[test]
fn m3_7_facing_generals_is_illegal() {
    let p = pos("5k5/11/11/11/11/11/11/11/11/4K6 w - 0 1");
    assert!(!legal(&p).contains(&"e0f0".to_string()));
}

#[test]
fn m3_7_stalemate_loses() {
    // Black's general on f9 is not in check, but e9, g9 and f8 are all covered.
    let text = "5k5/R10/11/11/4R1R4/11/11/11/6K4/11 b - 0 1";
    let g = MissileGame::from_fen(MissileRules::preset("missile").expect("test fixture"), text).expect("test fixture");
    assert!(!g.position().in_check(Color::Black));
    assert_eq!(g.end(), Some(MissileEnd::Stalemate(Color::Red)));
}

#[test]
fn m3_7_checkmate_ends_the_game() {
    // Black general f9, red chariots on a9... e9 and g9 covered, f8 covered.
    let text = "R4k5/R10/11/11/11/11/11/11/11/4K6 b - 0 1";
    let g = MissileGame::from_fen(MissileRules::preset("missile").expect("test fixture"), text).expect("test fixture");
    assert_eq!(g.end(), Some(MissileEnd::Checkmate(Color::Red)));
    assert_eq!(g.returns(PlayerId::FIRST), 1.0);
}

fn play(g: &mut MissileGame, moves: &[&str]) {
    for m in moves {
        g.play_str(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

#[test]
fn m3_7_perpetual_check_is_forbidden() {
    // Red chariot checks from e-file and g-file alternately; black general shuffles.
    let text = "5k5/11/11/11/11/11/11/11/11/R5K4 w - 0 1";
    let mut g = MissileGame::from_fen(MissileRules::preset("missile").expect("test fixture"), text).expect("test fixture");
    // a0a9?? would be check along rank 9? a9..f9: yes the chariot on a9 checks f9.
    play(&mut g, &["a0a9", "f9f8", "a9a8", "f8f9", "a8a9", "f9f8", "a9a8", "f8f9"]);
    // a8a9 now would make the third occurrence with every red move a check: illegal.
    assert!(g.play_str("a8a9").is_err());
    assert!(g.end().is_none());
}

#[test]
fn m3_7_repetition_with_permitted_moves_draws() {
    let text = "5k5/11/11/11/11/11/11/11/11/R5K4 w - 0 1";
    let mut g = MissileGame::from_fen(MissileRules::preset("missile").expect("test fixture"), text).expect("test fixture");
    play(&mut g, &["a0b0", "f9f8", "b0a0", "f8f9", "a0b0", "f9f8", "b0a0", "f8f9"]);
    assert_eq!(g.end(), Some(MissileEnd::Repetition));
}

#[test]
fn m3_7_horse_shuttle_that_never_attacks_is_no_chase_and_draws() {
    // A red horse chasing an unprotected black chariot back and forth.
    let text = "5k5/11/11/11/11/r10/11/2N8/11/6K4 w - 0 1";
    let mut g = MissileGame::from_fen(MissileRules::preset("missile").expect("test fixture"), text).expect("test fixture");
    // c2b4?? attacks a... choose horse moves that attack the chariot each time.
    let p = g.position().clone();
    let m = mv(&p, "c2b4");
    let after = p.after(m);
    // Chase flag works on its own.
    let _ = engine::more::missile::game::chases(&p, m, &after);
    play(&mut g, &["c2b4", "a4a5", "b4c2", "a5a4", "c2b4", "a4a5", "b4c2", "a5a4"]);
    // b4 doesn't attack a4 (a horse on b4 attacks a2, a6, c2, c6, d3, d5): no chase, so a draw.
    assert_eq!(g.end(), Some(MissileEnd::Repetition));
}

#[test]
fn m3_7_no_capture_rule_draws() {
    let text = "5k5/11/11/11/11/11/11/11/11/R5K4 w - 119 80";
    let mut g = MissileGame::from_fen(MissileRules::preset("missile").expect("test fixture"), text).expect("test fixture");
    play(&mut g, &["a0b0"]);
    assert_eq!(g.end(), Some(MissileEnd::NoCapture));
}

#[test]
fn m3_8_hidden_five_soldiers_setup() {
    let mut g = MissileGame::preset("missile-hidden-5").expect("test fixture");
    assert!(g.in_setup());
    assert_eq!(g.info().information, engine::game::Information::Imperfect);
    let p = g.position();
    assert_eq!(p.count(Color::Red, Kind::Soldier), 5);
    assert_eq!(p.count(Color::Red, Kind::Chariot), 0);
    // 26 free points on ranks 0-2.
    assert_eq!(g.legal_actions().len(), 26);
    let (a0, a1) = (g.legal_actions()[0], g.legal_actions()[1]);
    let (g0, g1) = (g.child(a0), g.child(a1));
    assert_eq!(g0.infoset_key(PlayerId::SECOND), g1.infoset_key(PlayerId::SECOND), "Black does not see Red's placement");
    assert_ne!(g0.infoset_key(PlayerId::FIRST), g1.infoset_key(PlayerId::FIRST));
    assert_ne!(g0.infoset_string(PlayerId::FIRST), g1.infoset_string(PlayerId::FIRST));
    assert_eq!(g0.infoset_string(PlayerId::SECOND), g1.infoset_string(PlayerId::SECOND));
    for _ in 0..8 {
        let a = g.legal_actions()[0];
        g.apply(a);
    }
    assert_eq!(g.to_act(), Color::Black);
    let mut rng = rand_pcg::Pcg64Mcg::new(7);
    let d = g.sample_determinization(PlayerId::SECOND, &mut rng);
    assert_eq!(d.infoset_key(PlayerId::SECOND), g.infoset_key(PlayerId::SECOND));
    assert_eq!(d.position().count(Color::Red, Kind::Chariot), 2);
    for _ in 0..8 {
        let a = *g.legal_actions().last().expect("test fixture");
        g.apply(a);
    }
    assert!(!g.in_setup());
    assert_eq!(g.to_act(), Color::Red);
    assert_eq!(g.position().board().pieces().count(), 40);
    assert_ne!(g.infoset_key(PlayerId::FIRST), g.infoset_key(PlayerId::SECOND));
}

#[test]
fn m3_8_hidden_centre_soldier_setup() {
    let g = MissileGame::preset("missile-hidden-centre").expect("test fixture");
    let p = g.position();
    assert_eq!(p.count(Color::Red, Kind::Soldier), 1);
    assert!(p.board().get(p.geo().parse("f3").expect("test fixture")).is_some());
    // The first piece placed is a soldier: any empty point of ranks 0-4 (55 - 7 fixed - f3).
    assert_eq!(g.legal_actions().len(), 55 - 8);
}

#[test]
fn m3_move_codes_round_trip() {
    let p = MissilePosition::start(rules());
    let mut v = Vec::new();
    p.legal_moves(&mut v);
    for m in v {
        assert_eq!(decode(encode(m)), Some(m));
        assert_eq!(fen::parse_move(&p, &fen::move_string(&p, m)), Ok(m));
    }
}

#[test]
fn m3_fen_errors_are_typed() {
    assert!(fen::parse(rules(), "").is_err());
    assert!(fen::parse(rules(), "11/11 w - 0 1").is_err());
    assert!(fen::parse(rules(), "mrnbakabnrm/11/1fc5cf1/1p1p1p1p1p1/11/11/1P1P1P1P1P1/1FC5CF1/11/MRNBAKABNRM x - 0 1").is_err());
    assert!(fen::parse(rules(), "mrnbakabnrm/11/1fc5cf1/1p1p1p1p1p1/11/11/1P1P1P1P1P1/1FC5CF1/11/MRNBAKABNRM w b0 0 1").is_err());
    assert!(fen::parse(rules(), "mrnbakabnrm/12/1fc5cf1/1p1p1p1p1p1/11/11/1P1P1P1P1P1/1FC5CF1/11/MRNBAKABNRM w - 0 1").is_err());
    assert!(fen::parse(rules(), "mrnbakabnrz/11/1fc5cf1/1p1p1p1p1p1/11/11/1P1P1P1P1P1/1FC5CF1/11/MRNBAKABNRM w - 0 1").is_err());
}

#[test]
fn m3_perft_start() {
    let p = MissilePosition::start(rules());
    assert_eq!(perft(&p, 1), 62);
    assert_eq!(perft(&p, 2), 3744);
    assert_eq!(perft(&p, 3), 229342);
}

#[test]
fn m3_7_perpetual_chase_of_an_unprotected_piece_is_forbidden() {
    // The red chariot chases the lone black horse up and down; the horse only runs.
    let text = "n3k6/11/11/11/11/11/11/11/1R9/5K5 w - 0 1";
    let mut g = MissileGame::from_fen(MissileRules::preset("missile").expect("test fixture"), text).expect("test fixture");
    play(&mut g, &["b1a1", "a9b7", "a1b1", "b7a9", "b1a1", "a9b7", "a1b1", "b7a9"]);
    assert_eq!(g.end(), None, "the chaser's cycle is no draw");
    assert!(g.play_str("b1a1").is_err(), "the chasing move that repeats a third time is illegal");
    // Without the ban the same line is a plain draw.
    let r = MissileRules { ban_perpetual_chase: false, ..MissileRules::preset("missile").expect("test fixture").rules };
    let preset = engine::more::missile::MissilePreset { rules: r, ..MissileRules::preset("missile").expect("test fixture") };
    let mut h = MissileGame::from_fen(preset, text).expect("test fixture");
    play(&mut h, &["b1a1", "a9b7", "a1b1", "b7a9", "b1a1", "a9b7", "a1b1", "b7a9"]);
    assert_eq!(h.end(), Some(MissileEnd::Repetition));
}

#[test]
fn m3_9_fighter_block_alternative_reading_flag() {
    // Fighter f2 leaping to e5: long-side points f3, f4, f5. With f3 and f5 occupied (not f4)
    // the default reading does not block; "any two of three" does.
    let text = "4k6/11/11/11/5p5/11/5P5/5F5/11/6K4 w - 0 1";
    assert!(from(&pos(text), "f2").contains(&"f2e5".to_string()));
    let r = MissileRules { fighter_block: engine::more::missile::FighterBlock::AnyTwoOfThree, ..rules() };
    assert!(!from(&pos_with(r, text), "f2").contains(&"f2e5".to_string()));
}
