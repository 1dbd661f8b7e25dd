//! Clause tests of skill-tile xiangqi, named after the RULES-more.md §1 sections and tiles.

use engine::game::{Game, PlayerId};
use engine::more::skill::game::{perft, DEFAULT_TILES};
use engine::more::skill::tiles::*;
use engine::more::skill::{fen, RingReading, SkillBoard, SkillEnd, SkillGame, SkillPosition, SkillRules};
use engine::piece::Color;

fn rules() -> SkillRules {
    SkillRules::default()
}

fn pos(text: &str) -> SkillPosition {
    fen::parse(rules(), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn legal(p: &SkillPosition) -> Vec<String> {
    let mut v = Vec::new();
    p.legal_moves(&mut v);
    v.iter().map(|&m| fen::move_string(p, m)).collect()
}

fn from(p: &SkillPosition, sq: &str) -> Vec<String> {
    let mut l = legal(p);
    l.retain(|m| m.starts_with(sq) && !m[sq.len()..].starts_with(|c: char| c.is_ascii_digit()));
    l.sort();
    l
}


/// A board-A field from a list like `Ke1 kd10 Pc7` (upper case Red).
fn field(list: &str) -> String {
    let g = engine::more::skill::position::geometry(SkillBoard::A);
    let mut b = engine::more::board::Board::empty(g);
    for item in list.split_whitespace() {
        let mut ch = item.chars();
        let p = engine::more::piece::Piece::from_char(ch.next().expect("test fixture")).expect("test fixture");
        b.set(g.parse(ch.as_str()).expect("test fixture"), Some(p));
    }
    b.fen_field()
}

/// Tiles string with `t` in Red's recess `i` (recess order d0 f0 d1 e1 f1 d2 e2 f2) and filler
/// tiles elsewhere; Black gets fillers that avoid `t`.
fn tiles_with(i: usize, t: TileId) -> String {
    let filler: Vec<TileId> = (1..=32).filter(|&x| x != t).take(8).collect();
    let mut red = filler.clone();
    red[i] = t;
    let black = filler;
    let s = |v: &[TileId]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
    format!("{}/{}", s(&red), s(&black))
}

#[test]
fn s1_2_board_a_is_9_by_11_with_river_row() {
    let g = engine::more::Geometry::skill_a();
    assert_eq!((g.files, g.ranks), (9, 11));
    assert!(g.is_river(g.parse("e5").expect("test fixture")));
    assert!(g.in_palace(Color::Black, g.parse("e10").expect("test fixture")) && g.in_palace(Color::Black, g.parse("d8").expect("test fixture")));
    let p = SkillPosition::start(rules(), DEFAULT_TILES);
    let names: Vec<String> = p.recesses(Color::Red).iter().map(|&s| g.name(s)).collect();
    assert_eq!(names, ["d0", "f0", "d1", "e1", "f1", "d2", "e2", "f2"]);
    let names: Vec<String> = p.recesses(Color::Black).iter().map(|&s| g.name(s)).collect();
    assert_eq!(names, ["d8", "e8", "f8", "d9", "e9", "f9", "d10", "f10"]);
    // Elephant points (§1.2): c0 g0 a2 e2 i2 c4 g4.
    let pts: Vec<String> = (0..g.len() as u8).filter(|&s| p.elephant_point(Color::Red, s)).map(|s| g.name(s)).collect();
    assert_eq!(pts, ["c0", "g0", "a2", "e2", "i2", "c4", "g4"]);
}

#[test]
fn s1_4_start_position_and_fen_round_trip() {
    let p = SkillPosition::start(rules(), DEFAULT_TILES);
    let text = fen::write(&p);
    assert_eq!(text, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 1,2,3,4,5,6,7,8/1,2,3,4,5,6,7,8 - - 0 1");
    assert_eq!(fen::write(&pos(&text)), text);
    // Cannons gain one step up the extra row: 44 + 2.
    assert_eq!(legal(&p).len(), 46);
    let b = SkillPosition::start(SkillRules { board: SkillBoard::B, ..rules() }, DEFAULT_TILES);
    assert_eq!(legal(&b).len(), 44);
}


/// Red's general on e1 holding tile `t` (recess 3), the black general on d10 unless listed.
fn tp(list: &str, t: TileId, side: &str) -> SkillPosition {
    let list = if list.contains('k') { list.to_string() } else { format!("{list} kd10") };
    pos(&format!("{} {side} {}", field(&format!("Ke1 {list}")), tiles_with(3, t)))
}

#[test]
fn s1_3_soldier_on_its_bank_steps_into_or_over_the_river() {
    let p = tp("Pe4", T1, "w");
    assert_eq!(from(&p, "e4"), ["e4e5", "e4e6"]);
    // A piece on the river square does not block the direct crossing.
    let q = tp("Pe4 pe5", T1, "w");
    assert_eq!(from(&q, "e4"), ["e4e5", "e4e6"]);
    // On the river: forward only; crossed on the enemy half: forward and sideways.
    let r = tp("Pd5", T1, "w");
    assert_eq!(from(&r, "d5"), ["d5d6"]);
    let s = tp("Pd6", T1, "w");
    assert_eq!(from(&s, "d6"), ["d6c6", "d6d7", "d6e6"]);
}

#[test]
fn s1_3_general_advisor_elephant_never_enter_the_river() {
    let p = tp("Bc4", T1, "w");
    assert_eq!(from(&p, "c4"), ["c4a2", "c4e2"]);
}

#[test]
fn s1_3_pieces_that_cross_may_stop_on_the_river() {
    let p = tp("Ra0", T1, "w");
    assert!(from(&p, "a0").contains(&"a0a5".to_string()));
}

#[test]
fn s1_7_stagnating_piece_may_be_removed_next_turn() {
    let text = format!("{} w {}", field("Ke0 kd10 Ra1"), tiles_with(3, T1));
    let mut g = SkillGame::from_fen(SkillRules::preset("skill").expect("test fixture"), &text).expect("test fixture");
    g.play_str("a1a5").expect("test fixture");
    assert!(!g.legal_actions().iter().any(|&a| g.action_string(a) == "-a5"), "the piece just moved is exempt");
    g.play_str("d10d9").expect("test fixture");
    g.play_str("e0f0").expect("test fixture");
    assert!(g.legal_actions().iter().any(|&a| g.action_string(a) == "-a5"));
    g.play_str("-a5").expect("test fixture");
    assert_eq!(g.to_act(), Color::Black, "removal costs no tempo");
    g.play_str("d9d10").expect("test fixture");
    assert!(g.position().board().get(g.position().geo().parse("a5").expect("test fixture")).is_none());
}

#[test]
fn s1_10_4_strict_flag_moving_along_the_river_is_not_moving_it() {
    let rules_strict = SkillRules { stagnation_strict: true, ..rules() };
    let text = format!("{} b {} R@b5~ -", field("Ke1 kd10 Rb5"), tiles_with(3, T1));
    let default = fen::parse(rules(), &text).expect("test fixture");
    assert!(default.removable().is_empty(), "default: the piece just moved (along the river) is exempt");
    let strict = fen::parse(rules_strict, &text).expect("test fixture");
    assert_eq!(strict.removable().len(), 1, "strict: it has to leave the river");
    assert_eq!(fen::write(&strict), format!("{text} 0 1"));
}

#[test]
fn t32_water_ghost_soldier_cannot_be_removed() {
    let p = pos(&format!("{} b {} K@e1 -", field("Ke1 kd10 Pe5"), tiles_with(3, T32)));
    assert!(p.removable().is_empty());
    let q = pos(&format!("{} b {} K@e1 -", field("Ke1 kd10 Pe5"), tiles_with(3, T1)));
    assert_eq!(q.removable().len(), 1);
}

#[test]
fn t1_unobstructed_chariot_jumps_one_piece() {
    let p = tp("Ra0 Pa3 pa8", T1, "w");
    let f = from(&p, "a0");
    assert!(f.contains(&"a0a4".to_string()) && f.contains(&"a0a7".to_string()), "{f:?}");
    assert!(f.contains(&"a0a8x".to_string()), "{f:?}");
    assert!(!f.contains(&"a0a9".to_string()));
}

#[test]
fn t2_soaring_horse_ignores_the_leg_for_moves_and_exchanges() {
    let p = tp("Nb0 Pb1 pc2", T2, "w");
    let f = from(&p, "b0");
    assert!(f.contains(&"b0c2x".to_string()) && f.contains(&"b0a2".to_string()), "{f:?}");
}

#[test]
fn t3_invincible_cannon_cannot_be_taken_by_the_enemy_general() {
    let p = tp("kd10 Cd9", T3, "b");
    assert!(!legal(&p).contains(&"d10d9".to_string()));
    let q = tp("kd10 Cd9", T1, "b");
    assert!(legal(&q).contains(&"d10d9".to_string()));
}

#[test]
fn t4_self_sacrificing_elephant_exchanges_the_eye_blocker() {
    let p = tp("Bc0 pd1", T4, "w");
    assert!(from(&p, "c0").contains(&"c0d1x".to_string()));
}

#[test]
fn t5_vaulting_advisor_jumps_the_palace_centre() {
    let p = tp("Ad0", T5, "w");
    assert!(from(&p, "d0").contains(&"d0f2".to_string()));
}

#[test]
fn t6_flying_general_may_face_and_that_is_check() {
    let p = tp("ke10", T6, "b");
    assert!(p.in_check(Color::Black));
    assert!(!p.in_check(Color::Red));
    let q = tp("ke10", T1, "b");
    assert!(q.in_check(Color::Black) && q.in_check(Color::Red), "without T6 facing is illegal for both");
}

#[test]
fn t6_neutralised_when_both_generals_on_the_same_tile() {
    // Black general on e9 (its recess 4) holding T6 too; Red on e1 (recess 3) with T6.
    let text = format!("{} w 1,2,3,6,5,4,7,8/1,2,3,4,6,5,7,8", field("Ke1 ke9"));
    let p = pos(&text);
    assert_eq!(p.active(Color::Red), None);
    assert_eq!(p.active(Color::Black), None);
}

#[test]
fn t7_back_rank_soldier_exchanges_by_chariot_pattern() {
    let p = tp("Pa10 na7 Ri0", T7, "w");
    assert!(from(&p, "a10").contains(&"a10a7x".to_string()), "{:?}", from(&p, "a10"));
    let q = tp("Pa10 na7", T7, "w");
    assert!(!from(&q, "a10").iter().any(|m| m.ends_with('x')));
}

#[test]
fn t8_retreating_soldier_steps_back_in_the_enemy_half() {
    let p = tp("Pc7", T8, "w");
    assert!(from(&p, "c7").contains(&"c7c6".to_string()));
    let q = tp("Pc6", T8, "w");
    assert!(!from(&q, "c6").contains(&"c6c5".to_string()), "not into the river row");
}

#[test]
fn t9_ring_chariot_turns_once_at_a_corner() {
    let p = tp("Ra1", T9, "w");
    let f = from(&p, "a1");
    assert!(f.contains(&"a1b0".to_string()) && f.contains(&"a1d0".to_string()), "{f:?}");
    assert!(!f.contains(&"a1b4".to_string()));
    let lr = fen::parse(SkillRules { ring: RingReading::LShape, ..rules() }, &fen::write(&p)).expect("test fixture");
    assert!(from(&lr, "a1").contains(&"a1b4".to_string()));
}

/// A board-B position (the `skill-points` preset, §1.2 B).
fn pos_b(text: &str) -> SkillPosition {
    fen::parse(SkillRules { board: SkillBoard::B, ..rules() }, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn t1_6_t9_ring_chariot_runs_from_a_corner() {
    // §1.6 T9 [R] corner start: Red's general on d1 holds T9 (recess 2); the chariot on the a0
    // corner runs up the a-file to a9 and turns along rank 9 (b9, then the exchange with the
    // elephant on c9), or along rank 0 to i0 and turns up the i-file (i1-i4, its own chariot on
    // i5 stops it). It turns once only and the straight edge moves remain.
    let text = "2b1k3r/9/9/9/6p1R/9/9/9/3K5/R8 w 1,2,9,3,4,5,6,7/1,2,3,4,5,6,7,8 - - 0 30";
    let p = pos_b(text);
    assert_eq!(p.active(Color::Red), Some(T9));
    let f = from(&p, "a0");
    for m in ["a0b9", "a0c9x", "a0i1", "a0i2", "a0i3", "a0i4", "a0a9", "a0i0"] {
        assert!(f.contains(&m.to_string()), "{m} missing from {f:?}");
    }
    for m in ["a0c9", "a0d9", "a0i5", "a0i5x", "a0h1", "a0b8"] {
        assert!(!f.contains(&m.to_string()), "{m} in {f:?}");
    }
    assert_eq!(f.len(), 23, "{f:?}");
    assert_eq!(legal(&p).len(), 43);
    assert_eq!(perft(&p, 1), 43);
    assert_eq!(perft(&p, 2), 523);
    // T9 only while Red's general stands on it: from f1 (tile 4) the corner has no ring run.
    let q = pos_b("2b1k3r/9/9/9/6p1R/9/9/9/5K3/R8 w 1,2,9,3,4,5,6,7/1,2,3,4,5,6,7,8 - - 0 30");
    assert_eq!(q.active(Color::Red), Some(T4));
    let f = from(&q, "a0");
    assert!(!f.iter().any(|m| ["a0b9", "a0c9x", "a0i1"].contains(&m.as_str())), "{f:?}");
    assert_eq!(f.len(), 17, "{f:?}");
}

#[test]
fn t10_mule_horse_leaps_one_by_three() {
    let p = tp("Nb0", T10, "w");
    assert!(from(&p, "b0").contains(&"b0c3".to_string()));
}

#[test]
fn t10_mule_horse_leg_and_the_fighter_like_flag() {
    let p = tp("Nb0 Pb1", T10, "w");
    assert!(!from(&p, "b0").contains(&"b0c3".to_string()), "the first square blocks");
    let q = fen::parse(SkillRules { t10_fighter_block: true, ..rules() }, &fen::write(&p)).expect("test fixture");
    assert!(from(&q, "b0").contains(&"b0c3".to_string()), "one piece does not block under the flag");
}

#[test]
fn t11_power_cannon_passes_two_pieces() {
    let p = tp("Ca0 Pa3 pa7", T11, "w");
    let f = from(&p, "a0");
    assert!(f.contains(&"a0a8".to_string()) && f.contains(&"a0a10".to_string()), "{f:?}");
    assert!(!f.contains(&"a0a5".to_string()), "exactly two screens");
}

#[test]
fn t12_striding_elephant_double_field() {
    let p = tp("Bc0", T12, "w");
    assert!(from(&p, "c0").contains(&"c0g4".to_string()));
}

#[test]
fn t13_striding_advisor_crosses_an_empty_centre() {
    let p = pos(&format!("{} w {}", field("Ke2 kd10 Ad0"), tiles_with(6, T13)));
    assert!(from(&p, "d0").contains(&"d0f2".to_string()), "{:?}", from(&p, "d0"));
}

#[test]
fn t14_pinning_general_freezes_a_lone_diagonal_neighbour() {
    let p = tp("nd2", T14, "b");
    assert!(from(&p, "d2").is_empty());
    let q = tp("nd2 nf2", T14, "b");
    assert!(!from(&q, "d2").is_empty(), "two neighbours: nothing pinned");
}

#[test]
fn t15_river_forgetting_soldier_steps_sideways_before_crossing() {
    let p = tp("Pc3", T15, "w");
    assert!(from(&p, "c3").contains(&"c3b3".to_string()));
}

#[test]
fn t16_victory_soldier_wins_if_not_removed() {
    let text = format!("{} w {}", field("Ke1 kd10 Pe9 ne6"), tiles_with(3, T16));
    let mut g = SkillGame::from_fen(SkillRules::preset("skill").expect("test fixture"), &text).expect("test fixture");
    g.play_str("e9e10").expect("test fixture");
    let mut h = g.clone();
    h.play_str("d10e10").expect("test fixture");
    assert_eq!(h.end(), None);
    g.play_str("d10d9").expect("test fixture");
    assert_eq!(g.end(), Some(SkillEnd::VictorySoldier(Color::Red)));
}

#[test]
fn t17_all_lines_chariot_slides_palace_diagonals() {
    let q = tp("Rd8", T17, "w");
    assert!(from(&q, "d8").contains(&"d8e9".to_string()));
}

#[test]
fn t18_camel_step_horse() {
    let p = tp("Nb0", T18, "w");
    assert!(from(&p, "b0").contains(&"b0d3".to_string()));
}

#[test]
fn t19_all_lines_cannon_exchanges_over_the_centre() {
    let q = tp("kd10 rf10 ae9 Cd8", T19, "w");
    assert!(from(&q, "d8").contains(&"d8f10x".to_string()), "{:?}", from(&q, "d8"));
}

#[test]
fn t20_value_added_elephant_four_orthogonal() {
    let p = tp("Bc0", T20, "w");
    assert!(from(&p, "c0").contains(&"c0c4".to_string()) && from(&p, "c0").contains(&"c0g0".to_string()));
}

#[test]
fn t21_right_angle_advisor() {
    let p = pos(&format!("{} w {}", field("Ke2 kd10 Ad0"), tiles_with(6, T21)));
    assert!(from(&p, "d0").contains(&"d0d2".to_string()));
}

#[test]
fn t22_general_as_advisor_diagonal_step_empty_only() {
    let p = tp("", T22, "w");
    assert!(from(&p, "e1").contains(&"e1d2".to_string()));
}

#[test]
fn t23_undercover_soldier_imitates_the_last_enemy_piece() {
    let p = pos(&format!("{} w {} n -", field("Ke1 kd10 Pc7"), tiles_with(3, T23)));
    assert!(from(&p, "c7").contains(&"c7d9".to_string()), "{:?}", from(&p, "c7"));
}

#[test]
fn t1_10_22_undercover_soldier_exchanges_like_a_soldier() {
    // §1.10 #22 [R]: Black's soldier moved last (to d7); Red's crossed soldier on d6 under T23
    // (e1, recess 3) imitates a soldier: besides its captures it may exchange on c6 and e6, but
    // not the soldier that moved (d7).
    let text = "5k3/9/3p5/2nPp4/9/9/9/9/4K4/R8 w 1,2,3,23,4,5,6,7/1,2,3,4,5,6,7,8 p@d7 - 0 30";
    let p = pos_b(text);
    assert_eq!(p.active(Color::Red), Some(T23));
    assert_eq!(from(&p, "d6"), ["d6c6", "d6c6x", "d6d7", "d6e6", "d6e6x"]);
    assert_eq!(legal(&p).len(), 25);
    assert_eq!(perft(&p, 1), 25);
    assert_eq!(perft(&p, 2), 221);
    // The same on board A (the river row shifts Black up one rank).
    let a = pos(&format!("{} w {} p@d8 - 0 30", field("Ke1 kf10 pd8 nc7 Pd7 pe7 Ra0"), tiles_with(3, T23)));
    assert_eq!(from(&a, "d7"), ["d7c7", "d7c7x", "d7d8", "d7e7", "d7e7x"]);
}

#[test]
fn t24_side_charging_soldier() {
    let p = tp("Pc7", T24, "w");
    assert!(from(&p, "c7").contains(&"c7d8".to_string()));
}

#[test]
fn t25_royal_chariot_steps_diagonally() {
    let p = tp("Ra0", T25, "w");
    assert!(from(&p, "a0").contains(&"a0b1".to_string()));
}

#[test]
fn t26_palace_raiding_horse_not_taken_by_the_general() {
    let p = tp("kd10 Nd9", T26, "b");
    assert!(!legal(&p).contains(&"d10d9".to_string()));
}

#[test]
fn t27_river_screen_cannon_captures_across_the_river() {
    let p = tp("kd10 Cd2", T27, "b");
    assert!(p.in_check(Color::Black), "T27 gives check with no possible screen");
    let q = tp("kd10 Cd2", T1, "b");
    assert!(!q.in_check(Color::Black));
    let r = tp("kd10 Cd2 nh9", T27, "b");
    assert!(!r.in_check(Color::Black), "a horse could stand between");
}

#[test]
fn t28_river_crossing_elephant_exchanges_across() {
    let p = tp("Ba4 pc6", T28, "w");
    assert!(from(&p, "a4").contains(&"a4c6x".to_string()));
}

#[test]
fn t29_palace_leaving_advisor_exchanges_outside() {
    let p = pos(&format!("{} w {}", field("Ke2 kd10 Ad0 pc1"), tiles_with(6, T29)));
    assert!(from(&p, "d0").contains(&"d0c1x".to_string()));
}

#[test]
fn t30_striding_general_two_steps() {
    let p = pos(&format!("{} w {}", field("Kd0 kf10"), tiles_with(0, T30)));
    assert!(from(&p, "d0").contains(&"d0d2".to_string()));
}

#[test]
fn t31_promoting_soldier_on_arrival() {
    let p = tp("Pc9", T31, "w");
    let f = from(&p, "c9");
    assert!(f.contains(&"c9c10=R".to_string()) && f.contains(&"c9c10".to_string()), "{f:?}");
}

#[test]
fn t31_second_window_option() {
    // Red's soldier reached c10 without promoting (T31 not under the general then). With the
    // DOC-003 option, Red's general stepping onto T31 (e1) next move promotes it.
    let r = SkillRules { t31_second_window: true, ..rules() };
    let text = format!("{} w {} - - 0 1 c10,-", field("Ke0 kd10 Pc10"), tiles_with(3, T31));
    let p = fen::parse(r, &text).expect("test fixture");
    let f = from(&p, "e0");
    assert!(f.contains(&"e0e1=R".to_string()), "{f:?}");
    assert_eq!(fen::write(&p), text);
    let q = fen::parse(rules(), &text).expect("test fixture");
    assert!(!from(&q, "e0").iter().any(|m| m.contains('=')), "off by default");
}

#[test]
fn s1_5_exchange_never_takes_the_general() {
    let p = tp("Rc9 kd10", T25, "w");
    assert!(!legal(&p).iter().any(|m| m.ends_with('x') && m.contains("d10")));
}

#[test]
fn s1_9_secret_setup_hides_the_opponents_tiles() {
    let g = SkillGame::preset("skill-secret").expect("test fixture");
    assert_eq!(g.legal_actions().len(), 32);
    let (a, b) = (g.child(g.legal_actions()[0]), g.child(g.legal_actions()[1]));
    assert_eq!(a.infoset_key(PlayerId::SECOND), b.infoset_key(PlayerId::SECOND));
    assert_ne!(a.infoset_key(PlayerId::FIRST), b.infoset_key(PlayerId::FIRST));
    let open = SkillGame::preset("skill").expect("test fixture");
    let (a, b) = (open.child(open.legal_actions()[0]), open.child(open.legal_actions()[1]));
    assert_ne!(a.infoset_key(PlayerId::SECOND), b.infoset_key(PlayerId::SECOND));
}

#[test]
fn s1_perft_start() {
    let p = SkillPosition::start(rules(), DEFAULT_TILES);
    assert_eq!(perft(&p, 1), 46);
    assert_eq!(perft(&p, 2), 2090);
    assert_eq!(perft(&p, 3), 90886);
}

/// §1.8 [ASM] standard repetition rules with the perpetual-check ban, as the generic search sees
/// them at the root: after two rounds of Red's chariot checking on a10 and a9, a9a10 would make
/// the third occurrence by checks alone, which loses (`SkillEnd::PerpetualCheck`). Red is an
/// elephant down (chariot against chariot and elephant), so without the ban the repetition (a
/// draw) is its best line and the one alpha-beta (alone or under PIMC) plays it; with the ban it
/// plays something else.
#[test]
fn s1_8_perpetual_check_loses_and_the_search_avoids_the_losing_repetition() {
    let text = format!("{} w {}", field("Ke0 Ra8 kd10 ri10 bi8"), tiles_with(3, T1));
    let cycle = ["a8a10", "d10d9", "a10a9", "d9d10", "a9a10", "d10d9", "a10a9", "d9d10"];
    for ban in [true, false] {
        let mut preset = SkillRules::preset("skill").expect("test fixture");
        preset.rules.ban_perpetual_check = ban;
        let mut g = SkillGame::from_fen(preset, &text).expect("test fixture");
        for m in cycle {
            g.play_str(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        let repeat = *g.legal_actions().iter().find(|&&a| g.action_string(a) == "a9a10").expect("a9a10 is legal");
        let end = g.child(repeat).end();
        assert_eq!(end, Some(if ban { SkillEnd::PerpetualCheck(Color::Black) } else { SkillEnd::Repetition }));
        for spec in ["alphabeta:depth=2", "pimc:k=2,depth=2"] {
            let mut bot = engine::search::game_bot::from_spec::<SkillGame>(spec, 1).expect("test fixture");
            let choice = g.action_string(bot.choose(&g));
            if ban {
                assert_ne!(choice, "a9a10", "{spec} plays the losing repetition");
            } else {
                assert_eq!(choice, "a9a10", "{spec} misses the drawing repetition");
            }
        }
    }
}
