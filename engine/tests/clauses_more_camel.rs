//! Clause tests of camel xiangqi, named after the RULES-more.md §2 sections.

use engine::game::Game;
use engine::more::camel::game::perft;
use engine::more::camel::{fen, CAction, CamelEnd, CamelGame, CamelPosition, CamelRules};
use engine::more::piece::Kind;
use engine::piece::Color;

/// An 11x10 board field from `Kf0 kf9 Jb0` style lists.
fn field(list: &str) -> String {
    let g = engine::more::camel::position::geometry(&CamelRules::edition(1));
    let mut b = engine::more::board::Board::empty(g);
    for item in list.split_whitespace() {
        let mut ch = item.chars();
        let p = engine::more::piece::Piece::from_char(ch.next().expect("test fixture")).expect("test fixture");
        b.set(g.parse(ch.as_str()).expect("test fixture"), Some(p));
    }
    b.fen_field()
}

fn pos(ed: u8, list: &str, side: &str) -> CamelPosition {
    fen::parse(CamelRules::edition(ed), &format!("{} {side}", field(list))).expect("test fixture")
}

fn legal(p: &CamelPosition) -> Vec<String> {
    let mut v = Vec::new();
    p.legal_actions(&mut v);
    v.iter().map(|&a| fen::action_string(p, a)).collect()
}

fn from(p: &CamelPosition, sq: &str) -> Vec<String> {
    let mut l = legal(p);
    l.retain(|m| m.starts_with(sq) && !m[sq.len()..].starts_with(|c: char| c.is_ascii_digit()));
    l.sort();
    l
}

#[test]
fn c2_5_start_position_and_fen_round_trip() {
    for ed in 1..=7 {
        let p = CamelPosition::start(CamelRules::edition(ed));
        let text = fen::write(&p);
        assert_eq!(fen::write(&fen::parse(CamelRules::edition(ed), &text).expect("test fixture")), text);
        assert_eq!(legal(&p).len(), 56, "edition {ed}");
        assert_eq!(p.count(Color::Red, Kind::Camel), 2);
        assert_eq!(p.count(Color::Black, Kind::Chancellor), 2);
    }
}

#[test]
fn c2_11_edition_7_start_fen_shows_numbers_up_and_tricks_beneath() {
    let p = CamelPosition::start(CamelRules::edition(7));
    assert_eq!(
        fen::write(&p),
        "rjnbakabnjr/11/1qc5cq1/1p1p1p1p1p1/11/11/1P1P1P1P1P1/1QC5CQ1/11/RJNBAKABNJR w e0:hafcegdib:187206345 e7:hafcegdib:187206345 0n0n - -,- 0 1"
    );
    let p1 = CamelPosition::start(CamelRules::edition(1));
    assert!(fen::write(&p1).contains("e0:.........:......... e7:.........:........."));
}

#[test]
fn c2_4_camel_leaps_and_is_blocked_diagonally() {
    let p = pos(1, "Kf0 kg9 Jc4", "w");
    assert_eq!(from(&p, "c4").len(), 6, "{:?}", from(&p, "c4"));
    let q = pos(1, "Kf0 kg9 Jc4 Pd5", "w");
    assert!(!from(&q, "c4").iter().any(|m| m == "c4e7" || m == "c4f6"), "d5 blocks the (+,+) leaps");
}

#[test]
fn c2_4_chancellor_moves_like_an_elephant_and_captures_by_jumping() {
    let p = pos(1, "Kf0 kg9 Qd2 pe3", "w");
    let f = from(&p, "d2");
    assert!(f.contains(&"d2f4".to_string()), "jumps e3 to f4: {f:?}");
    let q = p.clone();
    let mut v = Vec::new();
    q.legal_actions(&mut v);
    let a = v.into_iter().find(|&a| fen::action_string(&q, a) == "d2f4").expect("test fixture");
    let mut r = q.clone();
    r.play_unchecked(a);
    assert!(r.board().get(r.geo().parse("e3").expect("test fixture")).is_none());
    // No landing capture, no river crossing.
    let s = pos(1, "Kf0 kg9 Qd2 pf4", "w");
    assert!(!from(&s, "d2").contains(&"d2f4".to_string()));
    let t = pos(1, "Kf0 kg9 Qd4", "w");
    assert!(!from(&t, "d4").iter().any(|m| m.ends_with('6')));
}

#[test]
fn c2_6_camel_redemption_lets_the_general_stand_guarded() {
    // A black chariot on f9 attacks f0's file only if f1..f8 are empty; Red's camel on c3
    // (c3 -> f1? no). Use a red camel on d3 reaching f0 ((2,-3), block e2).
    let text = "Kf0 ke9 Jd3 rf8";
    let ed1 = pos(1, text, "w");
    assert!(ed1.in_check(Color::Red), "edition 1: an ordinary check");
    let ed2 = pos(2, text, "w");
    assert!(!ed2.in_check(Color::Red), "edition 2: the camel on c3 could redeem f0");
    // Black takes the general, Red must redeem.
    let mut g = CamelGame::from_fen(CamelRules::preset("camel-2").expect("test fixture"), &format!("{} b", field(text))).expect("test fixture");
    g.play_str("f8f0").expect("test fixture");
    assert_eq!(g.legal_actions().len(), 1);
    g.play_str("d3f0").expect("test fixture");
    let p = g.position();
    assert_eq!(p.general(Color::Red), Some(p.geo().parse("f0").expect("test fixture")));
    assert_eq!(p.count(Color::Red, Kind::Camel), 0);
    assert_eq!(p.count(Color::Black, Kind::Chariot), 0);
}

#[test]
fn c2_6_camel_capture_cannot_be_redeemed() {
    let text = "Kf0 ke9 Jc3 jh3";
    let p = pos(2, text, "w");
    // The black camel on h3 attacks f0 ((-2,-3), block g2): unredeemable, so check.
    assert!(p.in_check(Color::Red));
}

#[test]
fn c2_6_no_redemption_loses() {
    // Two black chariots threaten f0; each capture alone is redeemable, so Red's position is
    // legal. After f8xf0 the only redemption leaves the general to the chariot on a0: no legal
    // move, Black wins.
    let mut g = CamelGame::from_fen(CamelRules::preset("camel-2").expect("test fixture"), &format!("{} b", field("Kf0 ke9 Jd3 rf8 ra0"))).expect("test fixture");
    assert!(!g.position().in_check(Color::Red));
    g.play_str("f8f0").expect("test fixture");
    assert_eq!(g.end(), Some(CamelEnd::GeneralCaptured(Color::Black)));
}

#[test]
fn c2_7_plate_rotates_when_the_ring_is_empty() {
    let p = pos(3, "Kf0 ke9 Ae0", "w");
    assert!(legal(&p).contains(&"rot+".to_string()));
    let mut v = Vec::new();
    p.legal_actions(&mut v);
    let a = v.into_iter().find(|a| matches!(a, CAction::Rotate { cw: true })).expect("test fixture");
    let mut q = p.clone();
    q.play_unchecked(a);
    // Clockwise seen from above: e0 (local (0,0)) -> local (0,2) = e2.
    assert!(q.board().get(q.geo().parse("e2").expect("test fixture")).is_some_and(|x| x.kind == Kind::Advisor));
    assert!(q.board().get(q.geo().parse("f0").expect("test fixture")).is_none());
    let blocked = pos(3, "Kf0 ke9 Pd1", "w");
    assert!(!legal(&blocked).contains(&"rot+".to_string()));
    assert!(!legal(&pos(2, "Kf0 ke9", "w")).contains(&"rot+".to_string()), "edition 2 has no rotation");
}

#[test]
fn c2_8_plate_translates_without_elephants_and_soldiers_may_retreat() {
    let p = pos(4, "Kf0 ke9", "w");
    assert!(legal(&p).contains(&"shift+r".to_string()));
    let q = pos(4, "Kf0 ke9 Bd0", "w");
    assert!(!legal(&q).contains(&"shift+r".to_string()), "an elephant left: no translation");
    // After Red's translation, Black's crossed soldier may step back.
    let mut g = CamelGame::from_fen(CamelRules::preset("camel-4").expect("test fixture"), &format!("{} w", field("Kf0 ke9 pc3"))).expect("test fixture");
    g.play_str("shift+r").expect("test fixture");
    assert!(g.legal_actions().iter().any(|&a| g.action_string(a) == "c3c4"));
    // Not consecutively.
    g.play_str("e9e8").expect("test fixture");
    assert!(!g.legal_actions().iter().any(|&a| g.action_string(a).starts_with("shift") || g.action_string(a).starts_with("rot")));
}

#[test]
fn c2_9_flip_shows_the_trick_face_once() {
    // From f0 no square outside the plate is adjacent: no flip.
    assert!(!legal(&pos(5, "Kf0 kg9", "w")).iter().any(|m| m.starts_with("flip")));
    let p = pos(5, "Ke1 kg9", "w");
    let l = legal(&p);
    assert!(l.contains(&"flip-lr".to_string()) && l.contains(&"flip-fb".to_string()), "{l:?}");
    let mut g = CamelGame::from_fen(CamelRules::preset("camel-5").expect("test fixture"), &format!("{} w", field("Ke1 kg9"))).expect("test fixture");
    g.play_str("flip-fb").expect("test fixture");
    assert!(g.position().plate(Color::Red).trick_up());
    // e1 is local (0,1); a front-back flip shows down[0][1] = K2 可飞将 there.
    assert_eq!(g.position().trick(Color::Red), Some(2));
    g.play_str("g9g8").expect("test fixture");
    assert!(!g.legal_actions().iter().any(|&a| g.action_string(a).starts_with("flip")), "once per game");
}

#[test]
fn c2_9_trick_k6_unhobbled_horse() {
    // A left-right flip with the general on e1 (local (0,1)) shows down[2][1] = K6 马无蹩.
    let mut g = CamelGame::from_fen(CamelRules::preset("camel-5").expect("test fixture"), &format!("{} w", field("Ke1 kg9 Nb0 Pb1"))).expect("test fixture");
    assert!(!g.legal_actions().iter().any(|&a| g.action_string(a) == "b0c2"), "hobbled by b1");
    g.play_str("flip-lr").expect("test fixture");
    assert_eq!(g.position().trick(Color::Red), Some(6));
    g.play_str("g9g8").expect("test fixture");
    assert!(g.legal_actions().iter().any(|&a| g.action_string(a) == "b0c2"), "K6: the leg no longer blocks");
}

#[test]
fn c2_10_stacking_rule_set_two() {
    // One chariot and one horse left: the horse may join the chariot; the stack moves as a
    // unit by the top's rule and not across the river.
    let p = pos(6, "Kf0 ke9 Ra0 Nb2", "w");
    let f = from(&p, "b2");
    assert!(f.contains(&"b2a0".to_string()), "{f:?}");
    let mut v = Vec::new();
    p.legal_actions(&mut v);
    let a = v.into_iter().find(|&a| fen::action_string(&p, a) == "b2a0").expect("test fixture");
    let mut q = p.clone();
    q.play_unchecked(a);
    assert_eq!(q.under(q.geo().parse("a0").expect("test fixture")).map(|x| x.kind), Some(Kind::Chariot));
    assert!(fen::write(&q).starts_with("5") || fen::write(&q).contains("(NR)"));
    // Edition 5 has no stacking.
    let r = pos(5, "Kf0 ke9 Ra0 Nb2", "w");
    assert!(!from(&r, "b2").contains(&"b2a0".to_string()));
}

#[test]
fn c2_11_number_face_freezes_soldiers() {
    // Edition 7: the number face is up. Two black pieces on Red's plate with a larger sum than
    // Red's own pieces there freeze Red's soldiers.
    let p = pos(7, "Kf0 ke9 ne2 ng2 Pa3", "w");
    // f0 = 1; e2 = 4, g2 = 2 (Red's frame): enemy 6 > own 1.
    assert!(p.frozen(Color::Red));
    assert!(from(&p, "a3").is_empty());
    let q = pos(7, "Kf1 ke9 ne2 Pa3", "w");
    // f1 = 5 vs e2 = 4: not frozen.
    assert!(!q.frozen(Color::Red));
}

#[test]
fn c2_perft_start() {
    let p = CamelPosition::start(CamelRules::edition(1));
    assert_eq!(perft(&p, 1), 56);
    for ed in [1, 2, 3, 5, 7] {
        let q = CamelPosition::start(CamelRules::edition(ed));
        // The plates are blocked and no general can be reached in three plies: all editions agree.
        assert_eq!((perft(&q, 2), perft(&q, 3)), (3032, 164426), "edition {ed}");
    }
}

/// A position of edition `ed` whose Red plate shows only trick `k` on its centre cell (f1).
fn trick_pos(ed: u8, list: &str, k: char) -> CamelPosition {
    let text = format!("{} w e0:....{k}....:......... e7:.........:......... 0n0n - -,- 0 1", field(list));
    fen::parse(CamelRules::edition(ed), &text).expect("test fixture")
}

#[test]
fn c2_9_k1_river_screen_cannon() {
    let p = trick_pos(5, "Kf1 kg9 Cd1 nd8", '1');
    assert_eq!(p.trick(Color::Red), Some(1));
    assert!(from(&p, "d1").contains(&"d1d8".to_string()), "{:?}", from(&p, "d1"));
    let q = trick_pos(5, "Kf1 kg9 Cd1 nd8 Ra0", '1');
    assert!(!from(&q, "d1").contains(&"d1d8".to_string()), "a chariot could screen");
}

#[test]
fn c2_9_k2_flying_general_checks_by_facing() {
    // Black to move: Red's K2 lets its general face Black's, which is check for Black only. (With
    // Red to move the same board is refused: Black, not to move, would be in check, §2.6.)
    let text = format!("{} b e0:....2....:......... e7:.........:......... 0n0n - -,- 0 1", field("Kf1 kf8 Pa3"));
    let p = fen::parse(CamelRules::edition(5), &text).expect("Black to move, in check by facing");
    assert!(p.in_check(Color::Black) && !p.in_check(Color::Red));
    let red_to_move = text.replace(" b e0", " w e0");
    assert!(fen::parse(CamelRules::edition(5), &red_to_move).is_err(), "the side not to move cannot be in check");
}

#[test]
fn c2_9_k3_promotion_on_arrival() {
    let p = trick_pos(5, "Kf1 kg9 Pc8", '3');
    let f = from(&p, "c8");
    assert!(f.contains(&"c8c9=J".to_string()) && f.contains(&"c8c9".to_string()), "{f:?}");
}

#[test]
fn c2_9_k4_soldier_retreats_in_the_enemy_half() {
    let p = trick_pos(5, "Kf1 kg9 Pc7 pc6", '4');
    assert!(from(&p, "c7").contains(&"c7c6".to_string()), "retreat may capture");
    let q = trick_pos(5, "Kf1 kg9 Pc5", '4');
    assert!(!from(&q, "c5").contains(&"c5c4".to_string()), "not back onto its own bank");
}

#[test]
fn c2_9_k5_chancellor_and_elephant_share_captures() {
    let p = trick_pos(5, "Kf1 kg9 Qb2 pd4", '5');
    assert!(from(&p, "b2").contains(&"b2d4".to_string()), "丞 lands on an enemy");
    let q = trick_pos(5, "Kf1 kg9 Bb2 pc3", '5');
    assert!(from(&q, "b2").contains(&"b2d4".to_string()), "elephant jumps like a 丞");
}

#[test]
fn c2_9_k7_vaulting_chariot_moves_only() {
    let p = trick_pos(5, "Kf1 kg9 Ra0 Pa3 pa6", '7');
    let f = from(&p, "a0");
    assert!(f.contains(&"a0a4".to_string()) && f.contains(&"a0a5".to_string()), "{f:?}");
    assert!(!f.contains(&"a0a6".to_string()), "no capture over a piece");
}

#[test]
fn c2_9_k8_unblocked_camel() {
    let p = trick_pos(5, "Kf1 kg9 Jb0 Pc1", '8');
    assert!(from(&p, "b0").contains(&"b0d3".to_string()));
    let q = trick_pos(5, "Kf1 kg9 Jb0 Pc1", '6');
    assert!(!from(&q, "b0").contains(&"b0d3".to_string()));
}

#[test]
fn c2_10_stack_moves_as_a_unit_and_is_captured_whole() {
    // (NR) on a0: horse on top of a chariot. Rule set II: the unit moves as a horse.
    let text = format!("{} w", field("Kf0 kg9").replacen("11", "(NR)10", 1).chars().collect::<String>());
    let _ = text;
    let base = field("Kf0 kg9 Ra0");
    let board = base.replace("R4K", "(NR)4K");
    let p = fen::parse(CamelRules::edition(6), &format!("{board} w")).expect("test fixture");
    let l = legal(&p);
    assert!(l.contains(&"a0b2*".to_string()), "unit by the top's rule: {l:?}");
    assert!(l.contains(&"a0b2".to_string()), "the top alone");
    assert!(!l.contains(&"a0a5*".to_string()), "not by the bottom's rule under set II");
    let mut r1 = CamelRules::edition(6);
    r1.stacking = engine::more::camel::StackRules::I;
    let q = fen::parse(r1, &format!("{board} w")).expect("test fixture");
    assert!(legal(&q).contains(&"a0a5*".to_string()), "set I: either piece's rule");
    // A black chariot takes the whole stack.
    let board2 = field("Kf0 kg9 Ra0 ra8").replace("R4K", "(NR)4K");
    let mut g = CamelGame::from_fen(CamelRules::preset("camel-6").expect("test fixture"), &format!("{board2} b")).expect("test fixture");
    g.play_str("a8a0").expect("test fixture");
    assert_eq!(g.position().count(Color::Red, Kind::Chariot), 0);
    assert_eq!(g.position().count(Color::Red, Kind::Horse), 0);
}

#[test]
fn c2_14_one_chancellor_alternative_start() {
    let r = CamelRules { one_chancellor: true, ..CamelRules::edition(1) };
    let p = CamelPosition::start(r);
    assert_eq!(p.count(Color::Red, Kind::Chancellor), 1);
    assert_eq!(p.board().get(p.geo().parse("f7").expect("test fixture")).map(|x| x.kind), Some(Kind::Chancellor));
    assert!(!legal(&p).is_empty());
}

/// Rules of edition `ed` on a board `files` wide, with or without the river row.
fn shaped(ed: u8, files: u8, river_row: bool) -> CamelRules {
    CamelRules {
        files,
        river_row,
        ..CamelRules::edition(ed)
    }
}

/// A position of `rules` from `Kf0 kf9` style lists on its own board.
fn shaped_pos(rules: CamelRules, list: &str, side: &str) -> CamelPosition {
    let g = engine::more::camel::position::geometry(&rules);
    let mut b = engine::more::board::Board::empty(g);
    for item in list.split_whitespace() {
        let mut ch = item.chars();
        let p = engine::more::piece::Piece::from_char(ch.next().expect("test fixture"))
            .expect("test fixture");
        b.set(g.parse(ch.as_str()).expect("test fixture"), Some(p));
    }
    fen::parse(rules, &format!("{} {side}", b.fen_field())).expect("test fixture")
}

#[test]
fn c2_14_1_board_width_is_a_parameter() {
    // 13 files: the §2.5 array on the centre 11 files (files a and m empty), palaces f-h.
    let r = shaped(7, 13, false);
    let p = CamelPosition::start(r);
    assert_eq!(
        fen::write(&p),
        "1rjnbakabnjr1/13/2qc5cq2/2p1p1p1p1p2/13/13/2P1P1P1P1P2/2QC5CQ2/13/1RJNBAKABNJR1 w f0:hafcegdib:187206345 f7:hafcegdib:187206345 0n0n - -,- 0 1"
    );
    assert_eq!(
        fen::write(&fen::parse(r, &fen::write(&p)).expect("round trip")),
        fen::write(&p)
    );
    // Against the 56 moves of 11 files, by hand: each chariot gains the step to the empty edge
    // file (+2), each camel the leap to a3/m3 (+2), each chancellor a4/k4-side and a0/m0 (+4).
    assert_eq!(perft(&CamelPosition::start(shaped(1, 13, false)), 1), 64);
    // Every width plays: the general's files follow the centre.
    for files in CamelRules::WIDTHS {
        let p = CamelPosition::start(shaped(4, files, false));
        let g = p.geo();
        assert_eq!(g.files, files);
        assert_eq!(p.general(Color::Red).map(|s| g.file(s)), Some(files / 2));
        assert_eq!(p.plate(Color::Black).origin, (files / 2 - 1, 7));
    }
    // A plate rotates on a wide board too (edition 3; ring d0-d3.. empty).
    let q = shaped_pos(shaped(3, 13, false), "Kg0 Ag1 kg9", "w");
    assert!(legal(&q).iter().any(|m| m == "rot+"), "{:?}", legal(&q));
}

#[test]
fn c2_14_1_even_or_unknown_width_is_a_rules_file_error() {
    for bad in ["files = 12", "files = 17"] {
        let text = format!("base = \"camel-3\"\n[rules]\n{bad}\n");
        let e = engine::more::MoreVariant::from_toml(&text, "w.toml").expect_err("bad width");
        assert!(e.to_string().contains("rules.files"), "{e}");
    }
    let ok = engine::more::MoreVariant::from_toml(
        "base = \"camel-3\"\n[rules]\nfiles = 15\nriver_row = true\n",
        "w.toml",
    )
    .expect("15 files");
    assert!(
        ok.to_toml().contains("files = 15") && ok.to_toml().contains("river_row = true"),
        "{}",
        ok.to_toml()
    );
}

#[test]
fn c2_14_12_river_row_board_shifts_black_and_adds_distance() {
    let r = shaped(1, 11, true);
    let p = CamelPosition::start(r);
    assert_eq!(p.geo().ranks, 11);
    assert!(fen::write(&p).starts_with(
        "rjnbakabnjr/11/1qc5cq1/1p1p1p1p1p1/11/11/11/1P1P1P1P1P1/1QC5CQ1/11/RJNBAKABNJR w"
    ));
    assert_eq!(p.plate(Color::Black).origin, (4, 8));
    // By hand against the 56 of the point board: each chariot's file and each cannon's file is
    // one square longer before the first enemy piece (+2, +2).
    assert_eq!(perft(&p, 1), 60);
}

#[test]
fn c2_14_12_river_row_soldier_crosses_in_one_step() {
    let r = shaped(1, 11, true);
    // §1.3: from its own bank (rank 4) a soldier steps into the river or jumps to rank 6, over a
    // piece standing in the river.
    let p = shaped_pos(r, "Kf0 ke10 Pc4 Nc5", "w");
    assert_eq!(from(&p, "c4"), vec!["c4c6"]);
    let p = shaped_pos(r, "Kf0 ke10 Pc4", "w");
    assert_eq!(from(&p, "c4"), vec!["c4c5", "c4c6"]);
    // In the river it moves forward only, and it is not crossed yet.
    let p = shaped_pos(r, "Kf0 ke10 Pc5", "w");
    assert_eq!(from(&p, "c5"), vec!["c5c6"]);
    // Over the river it steps sideways, and the jump captures.
    let p = shaped_pos(r, "Kf0 ke10 Pc6", "w");
    assert_eq!(from(&p, "c6"), vec!["c6b6", "c6c7", "c6d6"]);
    let p = shaped_pos(r, "Kf0 ke10 pc6 Pc4", "w");
    assert!(from(&p, "c4").iter().any(|m| m == "c4c6"));
    // Black's jump, mirrored: rank 6 -> 4.
    let p = shaped_pos(r, "Kf0 ke10 pd6", "b");
    assert_eq!(from(&p, "d6"), vec!["d6d4", "d6d5"]);
    // Elephants and chancellors stay out of the river row (their (2,2) from the bank lands
    // beyond it, on the enemy half); chariots and camels may stop in it.
    let p = shaped_pos(r, "Kf0 ke10 Bc4 Qg4 Ra4 Ji2", "w");
    assert!(
        from(&p, "c4").iter().all(|m| m == "c4a2" || m == "c4e2"),
        "{:?}",
        from(&p, "c4")
    );
    assert!(
        from(&p, "g4").iter().all(|m| m == "g4e2" || m == "g4i2"),
        "{:?}",
        from(&p, "g4")
    );
    assert!(from(&p, "a4").iter().any(|m| m == "a4a5"));
    assert!(from(&p, "i2")
        .iter()
        .any(|m| m == "i2k5" || m == "i2g5" || m == "i2f4"));
}

/// The edition 7 start FEN with `flags`, Red's plate `red` and the side `w`.
fn start_with(red: &str, flags: &str) -> String {
    CamelGame::new(CamelRules::preset("camel-7").expect("test fixture")).fen().replacen("e0:hafcegdib:187206345", red, 1).replacen(" 0n0n ", &format!(" {flags} "), 1)
}

#[test]
fn c2_11_flip_counts_past_nine_round_trip() {
    // Edition 7 flips are reversible and unlimited: after a tenth flip the FEN must still read.
    let p = CamelRules::preset("camel-7").expect("test fixture");
    let nine = "5k5/11/11/11/11/11/11/11/4K6/11 w e0:187206345:hafcegdib e7:hafcegdib:187206345 9n0n - -,- 0 1";
    let mut g = CamelGame::from_fen(p, nine).expect("test fixture");
    g.play_str("flip-lr").expect("Red may flip");
    let f = g.fen();
    assert!(f.contains(" 10f0n "), "{f}");
    assert_eq!(CamelGame::from_fen(p, &f).map(|h| h.fen()).as_deref(), Ok(f.as_str()));
    assert_eq!(CamelGame::from_fen(p, &start_with("e0:hafcegdib:187206345", "12n0n")).map(|h| h.fen().contains(" 12n0n ")), Ok(true));
    for bad in ["n0n", "0n0", "0n0nn", "0x0n", "256n0n", "+1n0n"] {
        assert!(CamelGame::from_fen(p, &start_with("e0:hafcegdib:187206345", bad)).is_err(), "{bad}");
    }
}

#[test]
fn c2_5_fen_empty_runs_cannot_wrap_round() {
    // 4294967307 = 2^32 + 11: a run counted in 32 bits would wrap to a full rank.
    let p = CamelRules::preset("camel-7").expect("test fixture");
    let start = CamelGame::new(p).fen();
    for run in ["4294967307", "12", "99999999999999999999"] {
        let bad = start.replacen("rjnbakabnjr/11/", &format!("rjnbakabnjr/{run}/"), 1);
        assert!(CamelGame::from_fen(p, &bad).is_err(), "{bad}");
    }
}

#[test]
fn c2_6_redeem_field_needs_a_captured_general() {
    let p = CamelRules::preset("camel-2").expect("test fixture");
    let start = CamelGame::new(p).fen();
    // The side to move still has its general: no redemption can be pending.
    for sq in ["f0", "f1", "a5"] {
        let bad = start.replacen(" - -,- ", &format!(" {sq} -,- "), 1);
        assert!(CamelGame::from_fen(p, &bad).is_err(), "{bad}");
    }
    // Red's general was just taken on f0 by the black chariot standing there.
    let taken = start.replacen("RJNBAKABNJR", "RJNBArABNJR", 1).replacen("rjnbakabnjr", "1jnbakabnjr", 1);
    let ok = taken.replacen(" - -,- ", " f0 -,- ", 1);
    let g = CamelGame::from_fen(p, &ok).expect("a pending redemption");
    assert_eq!(g.end(), Some(CamelEnd::GeneralCaptured(Color::Black)));
    // Not on an empty square or an own piece, and not in edition 1 (no redemption).
    assert!(CamelGame::from_fen(p, &taken.replacen(" - -,- ", " f1 -,- ", 1)).is_err());
    assert!(CamelGame::from_fen(p, &taken.replacen(" - -,- ", " e0 -,- ", 1)).is_err());
    assert!(CamelGame::from_fen(CamelRules::preset("camel-1").expect("test fixture"), &ok).is_err());
}

#[test]
fn c2_10_stacks_only_from_edition_6_and_of_eligible_pieces() {
    let board = |stack: &str| format!("{} w", field("Kf0 kg9").replacen("11", &format!("{stack}10"), 1));
    assert!(fen::parse(CamelRules::edition(6), &board("(RJ)")).is_ok());
    assert!(fen::parse(CamelRules::edition(5), &board("(RJ)")).is_err(), "no stacks before edition 6");
    for bad in ["(RA)", "(PN)", "(QJ)", "(ab)"] {
        assert!(fen::parse(CamelRules::edition(6), &board(bad)).is_err(), "{bad}");
    }
}

#[test]
fn c2_8_plates_stay_in_their_owners_half_with_their_general() {
    let p = CamelRules::preset("camel-4").expect("test fixture");
    let start = CamelGame::new(p).fen();
    // A translated plate (d0) still carries the general on f0.
    assert!(CamelGame::from_fen(p, &start.replacen(" e0:", " d0:", 1)).is_ok());
    for (plate, to) in [(" e0:", " a5:"), (" e0:", " e3:"), (" e0:", " e7:"), (" e7:", " e0:"), (" e7:", " e4:")] {
        let bad = start.replacen(plate, to, 1);
        assert!(CamelGame::from_fen(p, &bad).is_err(), "{bad}");
    }
    // A plate in its own half without its general on it.
    assert!(CamelGame::from_fen(p, &start.replacen(" e0:", " a0:", 1)).is_err());
}

#[test]
fn c2_9_faces_follow_the_edition_and_the_flips() {
    let p7 = CamelRules::preset("camel-7").expect("test fixture");
    // Edition 7: the number face is up after an even number of flips, the trick face after an odd one.
    assert!(CamelGame::from_fen(p7, &start_with("e0:187206345:hafcegdib", "1n0n")).is_ok());
    for (red, flags) in [("e0:187206345:hafcegdib", "0n0n"), ("e0:hafcegdib:187206345", "1n0n"), ("e0:111111111:hafcegdib", "1n0n"), ("e0:hafcegdib:112345678", "0n0n"), ("e0:hafcegdia:187206345", "0n0n"), ("e0:.........:187206345", "0n0n")] {
        assert!(CamelGame::from_fen(p7, &start_with(red, flags)).is_err(), "{red} {flags}");
    }
    // Edition 5: one flip at most, plain face up before it; editions 1-4 have plain faces only.
    let p5 = CamelRules::preset("camel-5").expect("test fixture");
    let s5 = CamelGame::new(p5).fen();
    assert!(CamelGame::from_fen(p5, &s5.replacen("e0:.........:187206345", "e0:187206345:.........", 1).replacen(" 0n0n ", " 1f0n ", 1)).is_ok());
    assert!(CamelGame::from_fen(p5, &s5.replacen(" 0n0n ", " 2n0n ", 1)).is_err());
    assert!(CamelGame::from_fen(p5, &s5.replacen("e0:.........:187206345", "e0:187206345:.........", 1)).is_err());
    let p1 = CamelRules::preset("camel-1").expect("test fixture");
    assert!(CamelGame::from_fen(p1, &s5).is_err(), "a trick face in edition 1");
    assert!(CamelGame::from_fen(p1, &CamelGame::new(p1).fen().replacen(" 0n0n ", " 1n0n ", 1)).is_err());
}

#[test]
fn c2_9_k3_promotion_window_is_on_the_enemy_back_rank() {
    // Window (ii) promotes a soldier waiting on the enemy back rank; the FEN may not name a
    // soldier elsewhere (it would promote from mid-board once the general stepped onto K3).
    let text = |promo: &str| format!("{} w e0:....3....:......... e7:.........:......... 0n0n - {promo} 0 1", field("Ke0 kg9 Pc3 Pd9 pd0"));
    assert!(fen::parse(CamelRules::edition(5), &text("d9,d0")).is_ok());
    for bad in ["c3,-", "-,d9", "d0,-", "-,c3"] {
        assert!(fen::parse(CamelRules::edition(5), &text(bad)).is_err(), "{bad}");
    }
}
