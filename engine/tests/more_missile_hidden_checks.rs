//! RULES-more.md §3.8 [R] hidden checks (the face-down reading, rule key `face_down`, presets
//! `missile-hidden-5-down` and `missile-hidden-centre-down`): a player's legal moves are decided
//! on what that player sees. An opponent's face-down piece blocks lines and legs and may be
//! captured, but gives no check; a move that leaves the mover's general attacked by one is legal,
//! and the opponent may then capture the general with it, which wins at once; the flying-general
//! rule is unchanged; only checks and chases by face-up pieces count for the bans and are
//! announced. So the legal actions, the determinizations and the bots' choices are the same in
//! two states that differ only in kinds the mover has not seen.

use engine::game::{Game, PlayerId, Turn};
use engine::search::game_bot::from_spec;
use engine::more::missile::game::{chases, chases_seen, forbidden_if_repeated, forbidden_if_repeated_seen};
use engine::more::missile::{fen, MMove, MissileEnd, MissileGame, MissilePosition, MissileRules};
use engine::more::piece::Kind;
use engine::piece::Color;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Black's face-down horse b8 and chariot f7; the chariot sees Red's general f0 down the open f
/// file. Red sees two black pieces, not which is which.
const CHARIOT_ON_F7: &str = "m2bakab2m/1n9/5r5/1p1p3p1p1/11/11/1P1P3P1P1/2R8/11/M2BAKAB2M w a0,k0,a9,k9 0 20 down b8,f7";
/// The same with the two kinds swapped: the horse on f7 attacks nothing of Red's.
const HORSE_ON_F7: &str = "m2bakab2m/1r9/5n5/1p1p3p1p1/11/11/1P1P3P1P1/2R8/11/M2BAKAB2M w a0,k0,a9,k9 0 20 down b8,f7";

fn preset() -> engine::more::missile::MissilePreset {
    MissileRules::preset("missile-hidden-5-down").expect("preset")
}

fn game(text: &str) -> MissileGame {
    MissileGame::from_fen(preset(), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn strings(g: &MissileGame) -> Vec<String> {
    g.legal_actions().into_iter().map(|a| g.action_string(a)).collect()
}

fn sq(p: &MissilePosition, name: &str) -> u8 {
    p.geo().parse(name).expect("square")
}

#[test]
fn m3_8_r_hidden_checks_legal_moves_depend_only_on_the_view() {
    let (a, b) = (game(CHARIOT_ON_F7), game(HORSE_ON_F7));
    assert_eq!(a.view_fen(Color::Red), b.view_fen(Color::Red));
    assert_eq!(a.infoset_key(PlayerId::FIRST), b.infoset_key(PlayerId::FIRST));
    // In truth the chariot attacks Red's general in one state only; Red is offered the same 52
    // moves in both (before the ruling: 5 against 52), and no check is announced.
    assert!(a.position().in_check(Color::Red) && !b.position().in_check(Color::Red));
    assert_eq!(a.legal_actions(), b.legal_actions());
    assert_eq!(a.legal_actions().len(), 52);
    assert!(!a.check_announced() && !b.check_announced());
    // Moves that leave the general on the open f file are legal: the soldier's h3h4, and the
    // general's one move f0f1, in reach of the chariot as well.
    assert!(strings(&a).contains(&"h3h4".to_string()), "{:?}", strings(&a));
    let general: Vec<String> = strings(&a).into_iter().filter(|s| s.starts_with("f0")).collect();
    assert_eq!(general, ["f0f1"]);
    // Perft follows the same legality (depth 1 is Red's moves; deeper, Black's own kinds count).
    assert_eq!(engine::more::missile::perft::perft_seen(a.position(), a.face_down_mask(), 1), 52);
    // A face-up chariot on f7 is an ordinary check, to be answered as ever (before the ruling
    // Red got these five answers in state A too).
    let open = game(&CHARIOT_ON_F7.replace("down b8,f7", "down b8"));
    assert!(open.check_announced());
    assert_eq!(open.legal_actions().len(), 5, "{:?}", strings(&open));
    // The flying-general rule is unchanged: the general never steps onto an open file facing the
    // other.
    let facing = game("5k5/11/11/11/11/11/11/11/11/4K6 w - 0 1 down -");
    assert_eq!(strings(&facing).iter().filter(|s| s.as_str() == "e0f0").count(), 0);
}

#[test]
fn m3_8_r_hidden_checks_general_captured_by_face_down_piece_wins() {
    let (mut a, mut b) = (game(CHARIOT_ON_F7), game(HORSE_ON_F7));
    a.play_str("h3h4").expect("legal: Red does not see the chariot");
    b.play_str("h3h4").expect("legal");
    // The face-down chariot may take the general; the horse cannot.
    assert!(strings(&a).contains(&"f7f0".to_string()), "{:?}", strings(&a));
    assert!(!strings(&b).contains(&"f7f0".to_string()));
    assert!(!a.check_announced(), "Black is not in check");
    a.play_str("f7f0").expect("the capture of the general is legal");
    assert_eq!(a.end(), Some(MissileEnd::GeneralCaptured(Color::Black)));
    assert_eq!((a.end().map(MissileEnd::winner), a.end().map(MissileEnd::result)), (Some(Some(Color::Black)), Some("0-1")));
    assert_eq!(a.turn(), Turn::Terminal);
    assert!(!a.check_announced(), "no general, no check");
    assert!(a.legal_actions().is_empty());
    assert_eq!((a.returns(PlayerId::FIRST), a.returns(PlayerId::SECOND)), (-1.0, 1.0));
    // The chariot turned face up by moving; the general is gone.
    let p = a.position();
    assert!(!a.is_face_down(sq(p, "f0")) && !a.is_face_down(sq(p, "f7")));
    assert_eq!(p.count(Color::Red, Kind::General), 0);
    assert!(a.view_fen(Color::Red).contains("/M2BArAB2M w "), "{}", a.view_fen(Color::Red));
    // Greedy takes the general when it can.
    let mut g = game(CHARIOT_ON_F7);
    g.play_str("h3h4").expect("legal");
    let choice = from_spec::<MissileGame>("greedy", 1).expect("bot").choose(&g);
    assert_eq!(g.action_string(choice), "f7f0");
    // The capture is legal even while the capturer's own general is in check by a face-up piece
    // (Black's e9, by the red horse d7): the game ends at once.
    let mut g = game("4k6/11/3N1r5/11/11/11/11/11/11/5K5 b - 0 1 down f7");
    assert!(g.check_announced());
    assert!(strings(&g).contains(&"f7f0".to_string()), "{:?}", strings(&g));
    g.play_str("f7f0").expect("legal");
    assert_eq!(g.end(), Some(MissileEnd::GeneralCaptured(Color::Black)));
}

#[test]
fn m3_8_r_hidden_checks_determinizations_never_return_the_truth() {
    // Red's determinizations of the two states are the same deals, drawn from the same random
    // numbers: the truth plays no part, and each of the two arrangements comes about half the
    // time from either.
    let (a, b) = (game(CHARIOT_ON_F7), game(HORSE_ON_F7));
    for mover_first in [false, true] {
        let (mut a, mut b) = (a.clone(), b.clone());
        if mover_first {
            // Black to move now, and in state A it could take Red's general: still every deal.
            a.play_str("h3h4").expect("legal");
            b.play_str("h3h4").expect("legal");
        }
        let (mut ra, mut rb) = (Pcg64Mcg::seed_from_u64(4), Pcg64Mcg::seed_from_u64(4));
        let mut counts = [0u32; 2];
        for _ in 0..400 {
            let (da, db) = (a.sample_determinization(PlayerId::FIRST, &mut ra), b.sample_determinization(PlayerId::FIRST, &mut rb));
            assert_eq!(da.fen(), db.fen(), "a function of Red's view and the random numbers only");
            assert_eq!(da.infoset_key(PlayerId::FIRST), a.infoset_key(PlayerId::FIRST));
            assert_eq!(da.infoset_key(PlayerId::SECOND), db.infoset_key(PlayerId::SECOND));
            if !mover_first {
                assert_eq!(da.legal_actions(), a.legal_actions(), "the viewer's legal actions");
            }
            counts[usize::from(da.fen() == b.fen())] += 1;
            assert!(da.fen() == a.fen() || da.fen() == b.fen(), "{}", da.fen());
        }
        assert!(counts.iter().all(|&n| (150..=250).contains(&n)), "{counts:?}");
    }
}

#[test]
fn m3_8_r_hidden_checks_determinizations_keep_the_game_going() {
    // Black to move, checked by the red horse e7 (face up); its only answer is the face-down
    // chariot b7 taking it (the horse c9 cannot reach e8: the elephant d9 blocks its leg).
    // Swapping the two face-down kinds would leave Black mated, which Red knows did not
    // happen (the game goes on), so that deal is never drawn.
    let text = "2nbaka4/5p5/1r2N6/11/11/11/11/11/11/4K6 b - 0 30 down b7,c9";
    let g = game(text);
    assert!(g.check_announced());
    assert_eq!(strings(&g), ["b7e7"]);
    let swapped = game(&text.replace("2nbaka4/5p5/1r2N6", "2rbaka4/5p5/1n2N6"));
    assert_eq!(swapped.end(), Some(MissileEnd::Checkmate(Color::Red)));
    assert_eq!(swapped.view_fen(Color::Red), g.view_fen(Color::Red));
    let mut rng = Pcg64Mcg::seed_from_u64(2);
    for _ in 0..100 {
        let d = g.sample_determinization(PlayerId::FIRST, &mut rng);
        assert_eq!(d.end(), None);
        assert_eq!(d.fen(), g.fen(), "the only deal consistent with the game going on");
    }
}

#[test]
fn m3_8_r_hidden_checks_bots_choose_alike_in_both_states() {
    let (a, b) = (game(CHARIOT_ON_F7), game(HORSE_ON_F7));
    for seed in [1u64, 2, 3] {
        for spec in ["greedy", "pimc", "ismcts:iterations=300"] {
            let ca = from_spec::<MissileGame>(spec, seed).expect("bot").choose(&a);
            let cb = from_spec::<MissileGame>(spec, seed).expect("bot").choose(&b);
            assert_eq!(a.action_string(ca), b.action_string(cb), "{spec} seed {seed}");
        }
    }
}

#[test]
fn m3_8_r_hidden_checks_bans_count_face_up_pieces_only() {
    // Red's face-down chariot f2 attacks Black's general f9 all along; Red's advisor and Black's
    // elephant shuttle. Only face-up checks count for the perpetual-check ban, so Red's moves
    // are not checks and the third occurrence is a draw (read on the true position, every red
    // move would be a check and Red's repeating move would be banned instead).
    let text = "3b1k5/11/11/11/11/11/11/5R5/11/4AK5 w - 0 1 down f2";
    let mut g = game(text);
    assert!(g.position().in_check(Color::Black) && !game(&text.replace(" w ", " b ")).check_announced());
    assert!(strings(&g).contains(&"f2f9".to_string()), "Red may take the general");
    let before = g.position().clone();
    let m = MMove { from: sq(&before, "e0"), to: sq(&before, "f1") };
    let after = before.after(m);
    assert!(forbidden_if_repeated(&before, m, &after), "a check on the true position");
    assert!(!forbidden_if_repeated_seen(&before, m, &after, g.face_down_mask()), "no check by a face-up piece");
    for (i, mv) in ["e0f1", "d9b7", "f1e0", "b7d9", "e0f1", "d9b7", "f1e0", "b7d9"].iter().enumerate() {
        assert_eq!(g.end(), None, "ply {i}");
        g.play_str(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    assert_eq!(g.end(), Some(MissileEnd::Repetition));

    // Chases: the red chariot a4c4 attacks the black horse c5, which only Black's face-down
    // chariot c7 protects: unprotected as both sides see it, so a chase.
    let p = fen::parse(preset().rules, "5k5/11/2r8/11/2n8/R10/11/11/11/4K6 w - 0 1").expect("FEN");
    let m = MMove { from: sq(&p, "a4"), to: sq(&p, "c4") };
    let hidden = 1u128 << sq(&p, "c7");
    assert!(!chases(&p, m, &p.after(m)), "protected on the true position");
    assert!(chases_seen(&p, m, &p.after(m), hidden));
    // The red horse e5g6 attacks Black's face-down chariot h8, protected by the soldier h9: a
    // chariot attacked by a horse on the true position, but nobody knows it is a chariot.
    let p = fen::parse(preset().rules, "5k1p3/7r3/11/11/4N6/11/11/11/11/4K6 w - 0 1").expect("FEN");
    let m = MMove { from: sq(&p, "e5"), to: sq(&p, "g6") };
    let hidden = 1u128 << sq(&p, "h8");
    assert!(chases(&p, m, &p.after(m)));
    assert!(!chases_seen(&p, m, &p.after(m), hidden));
}
