//! RULES-more.md §3.8, alternative reading (flag): "pieces stay face-down until first moved, as
//! in 揭棋" — the `face_down` rule of missile xiangqi and its presets `missile-hidden-5-down` and
//! `missile-hidden-centre-down`: what each side sees, when pieces turn face up, the view FEN
//! (docs/notation.md §5.1), determinizations, and the rule-file key.

use engine::game::{Game, Information, PlayerId, Turn};
use engine::more::missile::{MissileGame, MissileRules, SetupMethod};
use engine::more::piece::Kind;
use engine::more::{MoreError, MoreVariant};
use engine::piece::Color;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

const RED_SETUP: [&str; 8] = ["b0", "j0", "c0", "i0", "c2", "i2", "b2", "j2"];
/// Black's placements of the §3.6 array (chariots b9 j9, horses c9 i9, cannons c7 i7, fighters
/// b7 j7), and the same squares with the first chariot and the first horse swapped.
const BLACK_A: [&str; 8] = ["b9", "j9", "c9", "i9", "c7", "i7", "b7", "j7"];
const BLACK_B: [&str; 8] = ["c9", "j9", "b9", "i9", "c7", "i7", "b7", "j7"];

fn set_up(name: &str, black: &[&str]) -> MissileGame {
    let mut g = MissileGame::preset(name).expect("preset");
    for s in RED_SETUP.iter().chain(black) {
        g.play_str(s).unwrap_or_else(|e| panic!("{s}: {e}"));
    }
    assert!(!g.in_setup());
    g
}

fn play(g: &mut MissileGame, moves: &[&str]) {
    for m in moves {
        g.play_str(m).unwrap_or_else(|e| panic!("{m}: {e} in {}", g.fen()));
    }
}

fn sq(g: &MissileGame, name: &str) -> u8 {
    g.position().geo().parse(name).expect("square")
}

fn kinds(g: &MissileGame, c: Color) -> Vec<Kind> {
    let mut v: Vec<Kind> = g.position().board().pieces().filter(|(_, p)| p.color == c).map(|(_, p)| p.kind).collect();
    v.sort();
    v
}

#[test]
fn m3_8_face_down_presets_are_hidden_set_ups_with_the_flag() {
    for (name, setup) in [("missile-hidden-5-down", SetupMethod::HiddenFiveSoldiers), ("missile-hidden-centre-down", SetupMethod::HiddenCentreSoldier)] {
        let p = MissileRules::preset(name).expect("preset");
        assert_eq!((p.name, p.rules.setup, p.rules.face_down), (name, setup, true));
        assert_eq!(MissileGame::new(p).info().information, Information::Imperfect);
    }
    for name in ["missile", "missile-hidden-5", "missile-hidden-centre"] {
        assert!(!MissileRules::preset(name).expect("preset").rules.face_down, "{name}: the default reading");
    }
    assert!(!MissileRules::default().face_down);
}

#[test]
fn m3_8_face_down_rule_file_needs_a_hidden_set_up() {
    let v = MoreVariant::from_toml("base = \"missile-hidden-5\"\n[rules]\nface_down = true\n", "down.toml").expect("loads");
    let MoreVariant::Missile(p) = v else { panic!("a missile variant") };
    assert_eq!(p.rules, MissileRules::preset("missile-hidden-5-down").expect("preset").rules);
    let v = MoreVariant::from_toml("base = \"missile-hidden-centre\"\n[rules]\nface_down = true\n", "down.toml").expect("loads");
    let MoreVariant::Missile(p) = v else { panic!("a missile variant") };
    assert_eq!(p.rules, MissileRules::preset("missile-hidden-centre-down").expect("preset").rules);
    assert!(v.hidden_setup());
    for text in ["base = \"missile\"\n[rules]\nface_down = true\n", "base = \"missile-hidden-5-down\"\n[rules]\nsetup = \"open\"\n"] {
        match MoreVariant::from_toml(text, "open-down.toml") {
            Err(MoreError::RulesFile { file, key, problem }) => {
                assert_eq!((file.as_str(), key.as_str()), ("open-down.toml", "rules.face_down"), "{text}");
                assert!(problem.contains("hidden set-up"), "{problem}");
            }
            other => panic!("{text}: expected a rules-file error, got {other:?}"),
        }
    }
    let e = MoreVariant::from_toml("base = \"missile-hidden-5\"\n[rules]\nface_down = \"yes\"\n", "bad.toml").expect_err("not a bool");
    assert!(e.to_string().contains("rules.face_down"), "{e}");
    // The printed table carries the key and loads back.
    let text = engine::more::presets::describe("missile-hidden-5-down").expect("describe");
    assert!(text.contains("face_down = true"), "{text}");
}

#[test]
fn m3_8_face_down_until_first_moved_hides_kinds() {
    let (mut a, mut b) = (set_up("missile-hidden-5-down", &BLACK_A), set_up("missile-hidden-5-down", &BLACK_B));
    assert_ne!(a.fen(), b.fen(), "a chariot and a horse swapped");
    // The placed pieces are face-down, the fixed ones face up.
    assert_eq!(a.face_down_squares().len(), 16);
    for s in RED_SETUP.iter().chain(&BLACK_A) {
        assert!(a.is_face_down(sq(&a, s)), "{s}");
    }
    for s in ["f0", "e0", "d0", "a0", "b3", "f9", "a9", "b6"] {
        assert!(!a.is_face_down(sq(&a, s)), "{s} holds a fixed piece");
    }
    for step in 0..3 {
        // Red sees a black piece on each placed square, not which.
        let red = a.view_fen(Color::Red);
        assert_eq!(red, b.view_fen(Color::Red), "step {step}");
        assert!(red.starts_with("mxxbakabxxm/11/1xx5xx1/"), "{red}");
        assert!(red.contains(" down b0,c0,i0,j0,b2,c2,i2,j2,b7,c7,i7,j7,b9,c9,i9,j9 pool n2r2c2f2"), "{red}");
        assert_eq!(a.infoset_key(PlayerId::FIRST), b.infoset_key(PlayerId::FIRST), "step {step}");
        assert_eq!(a.infoset_string(PlayerId::FIRST), b.infoset_string(PlayerId::FIRST));
        // Black knows its own arrangement.
        assert_ne!(a.infoset_key(PlayerId::SECOND), b.infoset_key(PlayerId::SECOND), "step {step}");
        assert_ne!(a.view_fen(Color::Black), b.view_fen(Color::Black));
        assert!(a.view_fen(Color::Black).starts_with("mrnbakabnrm/11/1fc5cf1/"), "own pieces as they are");
        assert!(a.view_fen(Color::Black).ends_with(" pool N2R2C2F2"), "{}", a.view_fen(Color::Black));
        // Moves of fixed pieces reveal nothing.
        let m = [["b3b4", "b6b5"], ["d3d4", "d6d5"], ["h3h4", "h6h5"]][step];
        play(&mut a, &m);
        play(&mut b, &m);
    }
    // The full FEN lists the face-down squares and reads back to the same state.
    let full = a.fen();
    assert!(full.ends_with(" down b0,c0,i0,j0,b2,c2,i2,j2,b7,c7,i7,j7,b9,c9,i9,j9"), "{full}");
    let back = MissileGame::from_fen(*a.preset_info(), &full).expect("full FEN parses");
    assert_eq!(back.fen(), full);
    assert_eq!(back.view_fen(Color::Red), a.view_fen(Color::Red));
}

#[test]
fn m3_8_face_down_revealed_on_move_and_capture() {
    let (mut a, mut b) = (set_up("missile-hidden-5-down", &BLACK_A), set_up("missile-hidden-5-down", &BLACK_B));
    // Red's face-down chariot moves: it is face up for good, Black sees it.
    play(&mut a, &["b0b1", "b6b5"]);
    play(&mut b, &["b0b1", "b6b5"]);
    assert!(!a.is_face_down(sq(&a, "b1")) && !a.is_face_down(sq(&a, "b0")));
    let black = a.view_fen(Color::Black);
    assert!(black.ends_with("/1R9/M1XBAKABXXM w a0,k0,a9,k9 2 2 down c0,i0,j0,b2,c2,i2,j2,b7,c7,i7,j7,b9,c9,i9,j9 pool N2R1C2F2"), "{black}");
    assert_eq!(a.infoset_key(PlayerId::FIRST), b.infoset_key(PlayerId::FIRST));
    // Red's face-down cannon takes the piece on c9 over the screen c7: a horse in one game, a
    // chariot in the other. Both are revealed; Red's information now differs.
    play(&mut a, &["c2c9"]);
    play(&mut b, &["c2c9"]);
    for g in [&a, &b] {
        assert!(!g.is_face_down(sq(g, "c2")) && !g.is_face_down(sq(g, "c9")));
        assert_eq!(g.view_fen(Color::Black).chars().nth(2), Some('C'), "the cannon is face up: {}", g.view_fen(Color::Black));
        assert!(g.view_fen(Color::Red).starts_with("mxCb"), "{}", g.view_fen(Color::Red));
    }
    assert!(a.view_fen(Color::Red).ends_with(" pool n1r2c2f2"), "a horse was taken: {}", a.view_fen(Color::Red));
    assert!(b.view_fen(Color::Red).ends_with(" pool n2r1c2f2"), "a chariot was taken: {}", b.view_fen(Color::Red));
    assert_ne!(a.infoset_key(PlayerId::FIRST), b.infoset_key(PlayerId::FIRST), "the removal revealed the kind");
    // Once every placed piece of a side has turned up, nothing of it is hidden.
    let mut g = set_up("missile-hidden-5-down", &BLACK_A);
    play(&mut g, &["b0b1", "b9b8", "j0j1", "j9j8", "c0d2", "c9d7", "i0h2", "i9h7", "c2c1", "c7c8", "i2i1", "i7i8", "b2a5", "b7a4", "j2k5", "j7k4"]);
    assert!(g.face_down_squares().is_empty(), "{}", g.fen());
    assert!(g.view_fen(Color::Red).ends_with(" down - pool -"), "{}", g.view_fen(Color::Red));
    assert_eq!(g.view_fen(Color::Red), g.view_fen(Color::Black));
}

#[test]
fn m3_8_face_down_is_never_more_than_the_set_up_placed() {
    // Under 中兵守門法 the four free soldiers are face-down too; the centre soldier is not.
    let mut g = MissileGame::preset("missile-hidden-centre-down").expect("preset");
    for s in ["b3", "d3", "h3", "j3", "b0", "j0", "c0", "i0", "c2", "i2", "b2", "j2", "b6", "d6", "h6", "j6", "b9", "j9", "c9", "i9", "c7", "i7", "b7", "j7"] {
        g.play_str(s).unwrap_or_else(|e| panic!("{s}: {e}"));
    }
    assert_eq!(g.face_down_squares().len(), 24);
    assert!(!g.is_face_down(sq(&g, "f3")) && !g.is_face_down(sq(&g, "f6")));
    let red = g.view_fen(Color::Red);
    assert!(red.contains("/1x1x1p1x1x1/") && red.ends_with(" pool n2r2c2p4f2"), "{red}");
    let back = MissileGame::from_view(*g.preset_info(), &red).expect("view parses");
    assert_eq!(back.view_fen(Color::Red), red);
    // The hidden pieces on Black's ranks 4-5 (1-based) are soldiers in any reading of the view.
    for s in ["b6", "d6", "h6", "j6"] {
        assert_eq!(back.position().board().get(sq(&back, s)).map(|p| p.kind), Some(Kind::Soldier), "{s}");
    }
}

#[test]
fn m3_8_face_down_view_fen_round_trips_and_bad_views_are_errors() {
    let g = set_up("missile-hidden-5-down", &BLACK_B);
    let preset = *g.preset_info();
    for c in Color::ALL {
        let v = g.view_fen(c);
        let back = MissileGame::from_view(preset, &v).unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!(back.view_fen(c), v);
        assert_eq!(kinds(&back, c.opponent()), kinds(&g, c.opponent()), "the pool's kinds");
        assert_eq!(back.face_down_squares(), g.face_down_squares());
    }
    let v = g.view_fen(Color::Red);
    let full = g.fen();
    let open = MissileRules::preset("missile-hidden-5").expect("preset");
    for bad in [
        v.replace(" pool n2r2c2f2", " pool n2r2c2f1"),
        v.replace(" pool n2r2c2f2", " pool n2r2c2F2"),
        v.replace(" pool n2r2c2f2", " pool n2r2c2f"),
        v.replace(" pool n2r2c2f2", " pool n2r2c2k2"),
        v.replace(" pool n2r2c2f2", ""),
        v.replace(",b9,", ","),
        v.replace("down b0,", "down b0,b0,"),
        v.replace("down b0,", "down f0,b0,"),
        v.replace("down b0,", "down a5,b0,"),
        v.replace("mxxb", "mxXb"),
        v.replace("mxxb", "mxqb"),
        full.replace(" down b0,", " down b3,b0,"),
        full.replace(" down b0,", " down z9,"),
        full.replace("mnrb", "mxrb"),
        format!("{full} extra"),
    ] {
        assert_ne!(bad, v);
        assert!(MissileGame::from_view(preset, &bad).is_err(), "{bad}");
    }
    assert!(MissileGame::from_fen(open, &full).is_err(), "a down field without the face_down rule");
    assert!(MissileGame::from_view(open, &v).is_err(), "a face-down view without the face_down rule");
    // A face-down piece the set-up cannot have placed there: a chariot on the soldiers' ranks.
    let centre = MissileRules::preset("missile-hidden-centre-down").expect("preset");
    let e = MissileGame::from_fen(centre, "5k5/11/11/11/11/11/1R9/11/11/4K6 w - 0 1 down b3").expect_err("a chariot on rank 4");
    assert!(e.to_string().contains("b3"), "{e}");
    assert!(MissileGame::from_fen(centre, "5k5/11/11/11/11/11/1P9/11/11/4K6 w - 0 1 down b3").is_ok());
}

#[test]
fn m3_8_face_down_determinization_keeps_infoset() {
    let mut changed = 0;
    let mut checked = 0;
    for name in ["missile-hidden-5-down", "missile-hidden-centre-down"] {
        for seed in 0..6u64 {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let mut g = MissileGame::preset(name).expect("preset").with_max_plies(160);
            while let Turn::Player(_) = g.turn() {
                if !g.in_setup() {
                    for p in PlayerId::BOTH {
                        let c = if p == PlayerId::FIRST { Color::Red } else { Color::Black };
                        let d = g.sample_determinization(p, &mut rng);
                        assert_eq!(d.infoset_key(p), g.infoset_key(p), "{name}: {}", g.fen());
                        assert_eq!(d.view_fen(c), g.view_fen(c));
                        assert_eq!(d.infoset_string(p), g.infoset_string(p));
                        assert_eq!(kinds(&d, c.opponent()), kinds(&g, c.opponent()), "the kinds multiset");
                        assert_eq!(d.face_down_squares(), g.face_down_squares());
                                        // Only the opponent's face-down pieces change.
                        for (s, piece) in g.position().board().pieces() {
                            if piece.color == c || !g.is_face_down(s) {
                                assert_eq!(d.position().board().get(s), Some(piece), "{name}");
                            }
                        }
                        // Soldiers stay on the squares only soldiers could be placed on.
                        for s in d.face_down_squares() {
                            let piece = d.position().board().get(s).expect("a piece");
                            let rank = d.position().geo().rank(s);
                            let rel = if piece.color == Color::Red { rank } else { 9 - rank };
                            assert!(rel < 3 || piece.kind == Kind::Soldier, "{name}: {} on {s}", piece.kind.name());
                        }
                        let text = d.position().board().fen_field();
                        // §3.8 [R] hidden checks: a face-down piece may attack the general of
                        // the side that moved, never a face-up one.
                        assert!(!d.position().in_check_seen(d.position().turn().opponent(), d.face_down_mask()), "{text}");
                        if g.turn() == Turn::Player(p) {
                            assert_eq!(d.legal_actions(), g.legal_actions(), "{name}: the acting player's legal actions");
                        }
                        if d.fen() != g.fen() {
                            changed += 1;
                        }
                        checked += 1;
                        // The determinization plays on.
                        let mut e = d.clone();
                        for _ in 0..6 {
                            let Turn::Player(_) = e.turn() else { break };
                            let l = e.legal_actions();
                            e.apply(l[rng.random_range(0..l.len())]);
                        }
                    }
                }
                let l = g.legal_actions();
                g.apply(l[rng.random_range(0..l.len())]);
            }
        }
    }
    eprintln!("determinizations: {changed} of {checked} changed");
    assert!(checked > 500, "{checked}");
    assert!(changed * 4 > checked, "determinizations re-deal: {changed} of {checked} changed");
}

#[test]
fn m3_8_face_down_owner_key_after_a_redeal_is_a_set_up_path() {
    // A re-deal recomputes the owner's own set-up path: the determinization's key for the owner
    // is that of a game whose set-up placed the dealt kinds, pieces of one kind in the order the
    // true set-up used their squares. The deal of arrangement B from A: chariots j9, c9.
    let g = set_up("missile-hidden-5-down", &BLACK_A);
    let b = set_up("missile-hidden-5-down", &BLACK_B);
    let b_path = set_up("missile-hidden-5-down", &["j9", "c9", "b9", "i9", "c7", "i7", "b7", "j7"]);
    assert_eq!(b_path.fen(), b.fen());
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    let mut keys = std::collections::HashMap::new();
    let mut seen_b = false;
    for _ in 0..30_000 {
        let d = g.sample_determinization(PlayerId::FIRST, &mut rng);
        assert_eq!(*keys.entry(d.fen()).or_insert(d.infoset_key(PlayerId::SECOND)), d.infoset_key(PlayerId::SECOND), "one owner key per arrangement");
        if d.fen() == b.fen() {
            assert_eq!(d.infoset_key(PlayerId::SECOND), b_path.infoset_key(PlayerId::SECOND));
            seen_b = true;
            break;
        }
    }
    assert_eq!(keys.get(&g.fen()).copied().unwrap_or(g.infoset_key(PlayerId::SECOND)), g.infoset_key(PlayerId::SECOND));
    assert!(seen_b, "the swapped arrangement is one of the 2520 deals");
}

#[test]
fn m3_8_face_down_greedy_does_not_see_hidden_kinds() {
    // A capture of a face-down piece is worth the mean of the kinds it may be, for whatever it is.
    let (a, b) = (set_up("missile-hidden-5-down", &BLACK_A), set_up("missile-hidden-5-down", &BLACK_B));
    let (mut a, mut b) = (a, b);
    play(&mut a, &["b3b4", "b6b5"]);
    play(&mut b, &["b3b4", "b6b5"]);
    let take = a.legal_actions().into_iter().find(|&x| a.action_string(x) == "c2c9").expect("the cannon takes c9");
    assert_eq!(a.gain(take), b.gain(take));
    assert_eq!(a.gain(take), (900 * 2 + 400 * 2 + 450 * 2 + 500 * 2) / 8);
}

#[test]
fn m3_8_face_down_determinization_keeps_the_repetition_record() {
    // Advisors shuttle: the third occurrence of the position after the set-up is a draw (§3.7
    // draw 3). A determinization drawn just before it has re-dealt pieces that stood still all
    // along, so it must reach the same draw with the same move.
    use engine::more::missile::MissileEnd;
    let mut g = set_up("missile-hidden-5-down", &BLACK_A);
    play(&mut g, &["e0f1", "e9f8", "f1e0", "f8e9", "e0f1", "e9f8", "f1e0"]);
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    let mut d = g.sample_determinization(PlayerId::SECOND, &mut rng);
    while d.fen() == g.fen() {
        d = g.sample_determinization(PlayerId::SECOND, &mut rng);
    }
    play(&mut g, &["f8e9"]);
    play(&mut d, &["f8e9"]);
    assert_eq!(g.end(), Some(MissileEnd::Repetition));
    assert_eq!(d.end(), Some(MissileEnd::Repetition), "the re-dealt record repeats too: {}", d.fen());
}

#[test]
fn m3_8_face_down_notation_example() {
    // docs/notation.md §5.1: Red's view after the RULES-more.md §3.6 arrangement was placed face-down and
    // Red's chariot moved b0b1.
    let mut g = set_up("missile-hidden-5-down", &BLACK_A);
    play(&mut g, &["b0b1"]);
    let v = "mxxbakabxxm/11/1xx5xx1/1p1p1p1p1p1/11/11/1P1P1P1P1P1/1FC5CF1/1R9/M1NBAKABNRM b a0,k0,a9,k9 1 1 down c0,i0,j0,b2,c2,i2,j2,b7,c7,i7,j7,b9,c9,i9,j9 pool n2r2c2f2";
    assert_eq!(g.view_fen(Color::Red), v);
    assert_eq!(MissileGame::from_view(*g.preset_info(), v).expect("parses").view_fen(Color::Red), v);
}
