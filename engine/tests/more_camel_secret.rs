//! Camel xiangqi's secret trick layouts (RULES-more.md §2.13 option, preset `camel-7-secret`):
//! the set-up as a simultaneous commit, secrecy until the first flip, view FENs
//! (docs/notation.md §5.3) and determinizations that keep the viewer's information.

use engine::game::{Game, PlayerId, Turn};
use engine::more::camel::{fen, CamelGame, CamelRules};
use engine::piece::Color;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn preset() -> engine::more::camel::CamelPreset {
    CamelRules::preset("camel-7-secret").expect("preset")
}

fn color(p: PlayerId) -> Color {
    if p == PlayerId::FIRST {
        Color::Red
    } else {
        Color::Black
    }
}

fn names(g: &CamelGame) -> Vec<String> {
    g.legal_actions()
        .into_iter()
        .map(|a| g.action_string(a))
        .collect()
}

/// Red's plate alone with its general on e1 (an edge cell), Black's general off its plate
/// centre: Red may flip at once. Red's layout: `layout` (9 cells, back row first as in FENs).
fn flip_ready(layout: &str) -> String {
    format!("5k5/11/11/11/11/11/11/11/4K6/11 w e0:hafcegdib:{layout} e7:hafcegdib:187206345 0n0n - -,- 0 1")
}

#[test]
fn c2_13_secret_setup_is_a_simultaneous_commit() {
    let p = preset();
    assert!(p.rules.secret_tricks && p.rules.edition == 7);
    let mut g = CamelGame::new(p);
    assert!(g.in_setup());
    assert_eq!(g.info().information, engine::game::Information::Imperfect);
    // Red places nine tiles (eight choices; the ninth cell fills itself), cell by cell.
    assert_eq!(names(&g).len(), 9);
    assert_eq!(names(&g)[0], "K1@e0");
    g.play_str("K6@e0").expect("legal");
    assert!(
        !names(&g).contains(&"K6@e1".to_string()),
        "a tile is placed once"
    );
    let mut other = CamelGame::new(p);
    other.play_str("K2@e0").expect("legal");
    // Black's information does not depend on Red's tiles; Red's does.
    assert_eq!(
        g.infoset_key(PlayerId::SECOND),
        other.infoset_key(PlayerId::SECOND)
    );
    assert_ne!(
        g.infoset_key(PlayerId::FIRST),
        other.infoset_key(PlayerId::FIRST)
    );
    assert!(
        g.view_fen(Color::Black).contains(" e0:hafcegdib:?--------"),
        "{}",
        g.view_fen(Color::Black)
    );
    assert!(g
        .view_fen(Color::Red)
        .starts_with(&fen::write(g.position())));
    for t in ["K1", "K2", "K3", "K4", "K5", "K7", "K8"] {
        let a = names(&g)
            .into_iter()
            .find(|n| n.starts_with(t))
            .expect("free tile");
        g.play_str(&a).expect("legal");
    }
    // Red is done after eight choices: the blank went to the last cell; Black places now.
    assert_eq!(g.turn(), Turn::Player(PlayerId::SECOND));
    // The FEN writes the face by rows; cells were placed by columns (e0 e1 e2, then f0 ...).
    assert!(
        fen::write(g.position()).contains(" e0:hafcegdib:637148250 "),
        "{}",
        fen::write(g.position())
    );
    for _ in 0..8 {
        let a = g.legal_actions()[0];
        g.apply(a);
    }
    assert!(!g.in_setup());
    assert_eq!(g.turn(), Turn::Player(PlayerId::FIRST));
    // After the set-up both layouts stay secret from the opponent.
    assert!(
        g.view_fen(Color::Black).contains(":?????????"),
        "{}",
        g.view_fen(Color::Black)
    );
    assert!(g.view_fen(Color::Red).ends_with(" view w"));
}

#[test]
fn c2_13_layout_is_revealed_by_the_first_flip() {
    let p = preset();
    let g = CamelGame::from_fen(p, &flip_ready("012345678")).expect("fen");
    assert!(g.hidden(Color::Red) && !g.in_setup());
    let v = g.view_fen(Color::Black);
    assert!(
        v.contains("e0:hafcegdib:????????? ") && v.ends_with(" view b"),
        "{v}"
    );
    let mut h = g.clone();
    let flip = names(&h)
        .into_iter()
        .find(|n| n == "flip-lr")
        .expect("Red can flip");
    h.play_str(&flip).expect("legal");
    assert!(!h.hidden(Color::Red));
    // The flip shows Red's layout: Black's view is the FEN again, with the tricks on top.
    assert_eq!(h.view_fen(Color::Black), h.fen());
    assert!(!h.view_fen(Color::Black).contains('?'));
    // Two secret layouts look alike to Black before the flip and differ after it.
    let other = CamelGame::from_fen(p, &flip_ready("876543210")).expect("fen");
    assert_eq!(other.view_fen(Color::Black), g.view_fen(Color::Black));
    let mut o2 = other.clone();
    o2.play_str(&flip).expect("legal");
    assert_ne!(o2.view_fen(Color::Black), h.view_fen(Color::Black));
    assert_ne!(
        o2.infoset_key(PlayerId::SECOND),
        h.infoset_key(PlayerId::SECOND)
    );
}

#[test]
fn c2_13_views_round_trip_and_determinizations_keep_the_viewers_information() {
    let p = preset();
    let mut checked = 0;
    for seed in 0..8u64 {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut g = CamelGame::new(p).with_max_plies(200);
        for _ in 0..60 {
            let Turn::Player(_) = g.turn() else { break };
            for pl in PlayerId::BOTH {
                let c = color(pl);
                let v = g.view_fen(c);
                let back = CamelGame::from_view(p, &v).unwrap_or_else(|e| panic!("{v}: {e}"));
                assert_eq!(back.view_fen(c), v);
                if g.in_setup() {
                    assert_eq!(back.infoset_string(pl), g.infoset_string(pl), "{v}");
                }
                let d = g.sample_determinization(pl, &mut rng);
                assert_eq!(d.infoset_key(pl), g.infoset_key(pl), "{v}");
                assert_eq!(d.view_fen(c), v);
                if !g.in_setup() || g.turn() == Turn::Player(pl) {
                    assert_eq!(
                        d.legal_actions(),
                        g.legal_actions(),
                        "the secret never changes what is legal"
                    );
                }
                // The opponent's re-dealt face is a layout of the nine tiles.
                let o = c.opponent();
                if !g.in_setup() && g.hidden(o) {
                    let mut cells: Vec<u8> = d
                        .position()
                        .plate(o)
                        .down
                        .iter()
                        .flatten()
                        .copied()
                        .collect();
                    cells.sort_unstable();
                    assert_eq!(cells, vec![1, 2, 3, 4, 5, 6, 7, 8, 9]);
                    checked += 1;
                }
                // A determinization plays on: every action it lists applies.
                let mut d = d;
                for _ in 0..10 {
                    let Turn::Player(_) = d.turn() else { break };
                    let acts = d.legal_actions();
                    d.apply(acts[rng.random_range(0..acts.len())]);
                }
            }
            let acts = g.legal_actions();
            g.apply(acts[rng.random_range(0..acts.len())]);
        }
    }
    assert!(checked > 100, "only {checked} hidden layouts re-dealt");
}

#[test]
fn c2_13_bad_secret_faces_are_errors() {
    let p = preset();
    let open = CamelRules::preset("camel-7").expect("preset");
    let ok = flip_ready("012345678");
    assert!(CamelGame::from_fen(p, &ok).is_ok());
    for bad in [
        flip_ready("0123?5678"), // a view marker in a full FEN
        flip_ready("01-345678"), // an unplaced cell before a placed one
        flip_ready("112345678").replace(":112345678", ":11-------"), // a tile twice
    ] {
        assert!(CamelGame::from_fen(p, &bad).is_err(), "{bad}");
    }
    // '-' needs the option; Black cannot place before Red has finished.
    assert!(CamelGame::from_fen(open, &flip_ready("0123-----")).is_err());
    let early = flip_ready("0123-----").replace("e7:hafcegdib:187206345", "e7:hafcegdib:1--------");
    assert!(CamelGame::from_fen(p, &early).is_err());
    // A view of another game, or with a bad viewer, is an error, not a panic.
    let v = CamelGame::new(p).view_fen(Color::Black);
    assert!(CamelGame::from_view(open, &v).is_err());
    assert!(CamelGame::from_view(p, &v.replace(" view b", " view x")).is_err());
    // A rules file asking for secret layouts before edition 5 names the key.
    let e = engine::more::MoreVariant::from_toml(
        "base = \"camel-3\"\n[rules]\nsecret_tricks = true\n",
        "s.toml",
    )
    .expect_err("edition 3");
    assert!(e.to_string().contains("rules.secret_tricks"), "{e}");
}

#[test]
fn c2_13_redealt_layout_keeps_the_repetition_record() {
    let p = preset();
    let cycle = ["e1e0", "f9f8", "e0e1", "f8f9"];
    let mut g = CamelGame::from_fen(p, &flip_ready("012345678")).expect("fen");
    for m in cycle {
        g.play_str(m).expect("legal");
    }
    // Black's determinization re-deals Red's secret layout; the earlier positions must still
    // count as the same positions, or the third occurrence would be missed.
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    let mut d = g.sample_determinization(PlayerId::SECOND, &mut rng);
    assert_ne!(
        fen::write(d.position()),
        fen::write(g.position()),
        "the layout was re-dealt"
    );
    for (i, m) in cycle.iter().enumerate() {
        for x in [&mut g, &mut d] {
            assert!(x.turn() != Turn::Terminal, "ply {i}");
            x.play_str(m).expect("legal");
        }
    }
    assert_eq!(g.end().map(|e| e.reason()), Some("repetition"));
    assert_eq!(d.end(), g.end());
}

#[test]
fn c2_13_secret_faces_are_whole_and_the_trick_face_is_beneath_until_flipped() {
    let p = preset();
    // A never-flipped plate showing its trick face (or a layout with a tile twice) is no state
    // of the game: its view would hide the number face and could not be read back.
    let shown = "5k5/11/11/11/11/11/11/11/4K6/11 w e0:012345678:hafcegdib e7:hafcegdib:187206345 0n0n - -,- 0 1";
    assert!(CamelGame::from_fen(p, shown).is_err(), "{shown}");
    assert!(CamelGame::from_fen(p, &flip_ready("111111111")).is_err());
    // Once flipped, the trick face is up and nothing of Red's is hidden.
    let flipped = shown.replace(" 0n0n ", " 1f0n ");
    let g = CamelGame::from_fen(p, &flipped).expect("flipped once");
    let v = g.view_fen(Color::Black);
    assert_eq!(CamelGame::from_view(p, &v).map(|h| h.view_fen(Color::Black)).as_deref(), Ok(v.as_str()));
}

/// Issue #39 leak 4: two full FENs that differ only in Black's secret layout are one
/// information set of Red: the same view FEN and the same information-set key for Red (the
/// public path of a game read from a FEN started from the position's full hash, secret layouts
/// included); Black, who knows its layout, tells them apart. The same after a ply.
#[test]
fn c2_13_full_fens_of_one_view_share_the_viewers_infoset_key() {
    let fen = |black: &str| format!("rjnbakabnjr/11/1qc5cq1/1p1p1p1p1p1/11/11/1P1P1P1P1P1/1QC5CQ1/11/RJNBAKABNJR w e0:hafcegdib:147258360 e7:hafcegdib:{black} 0n0n - -,- 0 1");
    let a = CamelGame::from_fen(preset(), &fen("038651427")).expect("a");
    let b = CamelGame::from_fen(preset(), &fen("132456807")).expect("b");
    assert_eq!(a.view_fen(Color::Red), b.view_fen(Color::Red));
    assert_eq!(a.infoset_key(PlayerId::FIRST), b.infoset_key(PlayerId::FIRST), "Red's key shows Black's layout");
    assert_eq!(a.infoset_string(PlayerId::FIRST), b.infoset_string(PlayerId::FIRST));
    assert_ne!(a.infoset_key(PlayerId::SECOND), b.infoset_key(PlayerId::SECOND), "Black knows its own layout");
    let m = a.legal_actions()[0];
    assert_eq!(a.action_string(m), b.action_string(m));
    let (a, b) = (a.child(m), b.child(m));
    assert_eq!(a.infoset_key(PlayerId::FIRST), b.infoset_key(PlayerId::FIRST), "after a ply");
    // A determinization of Red's view keeps Red's key.
    let d = a.sample_determinization(PlayerId::FIRST, &mut Pcg64Mcg::seed_from_u64(3));
    assert_eq!(d.infoset_key(PlayerId::FIRST), a.infoset_key(PlayerId::FIRST));
}
