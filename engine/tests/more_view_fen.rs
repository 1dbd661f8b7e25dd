//! View FENs of the hidden RULES-more.md presets (docs/notation.md §5.1, §5.2): what the acting
//! player of `skill-secret`, `missile-hidden-5`, `missile-hidden-centre` and their face-down
//! readings `missile-hidden-5-down`, `missile-hidden-centre-down` sees, written and read back.
//! During the hidden set-up the parsed state has the viewer's infoset string; after it the view
//! is the full FEN (nothing is hidden) or, face-down, the FEN with the opponent's face-down
//! pieces masked, and parses back to the same view. A determinization sampled from a parsed view
//! keeps the viewer's information (after the set-up: its view) and plays on legally.

use engine::game::{Game, PlayerId, Turn};
use engine::more::missile::{MissileGame, MissileRules};
use engine::more::skill::{SkillGame, SkillRules};
use engine::piece::Color;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn color(p: PlayerId) -> Color {
    if p == PlayerId::FIRST {
        Color::Red
    } else {
        Color::Black
    }
}

/// Plays `g` (a determinization) on with random legal actions for up to `plies`: every action the
/// game lists must apply (a legal state keeps listing legal actions until it ends).
fn plays_on<G: Game>(mut g: G, rng: &mut Pcg64Mcg, plies: usize) {
    for _ in 0..plies {
        let Turn::Player(_) = g.turn() else { return };
        let acts = g.legal_actions();
        assert!(!acts.is_empty(), "a non-terminal state without legal actions");
        g.apply(acts[rng.random_range(0..acts.len())]);
    }
}

/// Random playouts of a hidden preset, checking every state from both seats.
fn check<G: Game>(view: impl Fn(&G, Color) -> String, parse: impl Fn(&str) -> Result<G, engine::more::MoreError>, in_setup: impl Fn(&G) -> bool, start: impl Fn() -> G) {
    let mut hidden_checked = 0;
    for seed in 0..12u64 {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut g = start();
        for _ in 0..40 {
            let Turn::Player(_) = g.turn() else { break };
            for p in [PlayerId::FIRST, PlayerId::SECOND] {
                let v = view(&g, color(p));
                let back = parse(&v).unwrap_or_else(|e| panic!("{v}: {e}"));
                assert_eq!(view(&back, color(p)), v);
                if in_setup(&g) {
                    assert_eq!(back.infoset_string(p), g.infoset_string(p), "{v}");
                    if g.turn() == Turn::Player(p) {
                        // The acting player's legal actions follow from its view alone.
                        let names = |x: &G| x.legal_actions().into_iter().map(|a| x.action_string(a)).collect::<Vec<_>>();
                        assert_eq!(names(&back), names(&g), "{v}");
                    }
                    hidden_checked += 1;
                    let d = back.sample_determinization(p, &mut rng);
                    assert_eq!(d.infoset_string(p), g.infoset_string(p), "{v}");
                    plays_on(d, &mut rng, 30);
                } else {
                    let d = back.sample_determinization(p, &mut rng);
                    assert_eq!(view(&d, color(p)), v);
                    plays_on(d, &mut rng, 10);
                }
            }
            let acts = g.legal_actions();
            g.apply(acts[rng.random_range(0..acts.len())]);
        }
    }
    assert!(hidden_checked > 100, "only {hidden_checked} hidden-set-up views checked");
}

#[test]
fn skill_secret_view_fen_round_trips_and_determinizes() {
    let preset = SkillRules::preset("skill-secret").expect("preset");
    check(|g: &SkillGame, c| g.view_fen(c), |t| SkillGame::from_view(preset, t), SkillGame::in_setup, || SkillGame::new(preset));
    // The opponent's chosen tiles are `?`: after Red's two choices, Black's view.
    let mut g = SkillGame::new(preset);
    g.play_str("T5@d0").expect("legal");
    g.play_str("T9@f0").expect("legal");
    let v = g.view_fen(Color::Black);
    assert!(v.contains(" ?,?,0,0,0,0,0,0/0,0,0,0,0,0,0,0 "), "{v}");
    assert!(g.view_fen(Color::Red).contains(" 5,9,0,"));
}

#[test]
fn missile_hidden_view_fens_round_trip_and_determinize() {
    for name in ["missile-hidden-5", "missile-hidden-centre", "missile-hidden-5-down", "missile-hidden-centre-down"] {
        let preset = MissileRules::preset(name).expect("preset");
        check(|g: &MissileGame, c| g.view_fen(c), |t| MissileGame::from_view(preset, t), MissileGame::in_setup, || MissileGame::new(preset));
    }
}

#[test]
fn bad_views_are_errors_not_panics() {
    let missile = MissileRules::preset("missile-hidden-5").expect("preset");
    let g = MissileGame::new(missile);
    let v = g.view_fen(Color::Red);
    assert!(v.ends_with(" setup 0/0 w -"), "{v}");
    for bad in [
        v.replace("0/0 w -", "1/0 w -"),
        v.replace("0/0 w -", "0/0 x -"),
        v.replace("0/0 w -", "1/0 w z9"),
        v.replace("0/0 w -", "1/0 w a0"),
        v.replace("0/0 w -", "0/1 b -"),
        v.replace(" setup 0/0 w -", " setup"),
        v.replace("0/0 w -", "9/9 w -"),
    ] {
        assert!(MissileGame::from_view(missile, &bad).is_err(), "{bad}");
    }
    let open = MissileRules::preset("missile").expect("preset");
    assert!(MissileGame::from_view(open, &v).is_err(), "the open preset has no hidden set-up");
    let skill = SkillRules::preset("skill-secret").expect("preset");
    let v = SkillGame::new(skill).view_fen(Color::Red);
    for bad in [v.replace("0,0,0,0,0,0,0,0/", "0,?,0,0,0,0,0,0/"), v.replace(" 0,0,0,0,0,0,0,0/0,", " ?,0,0,0,0,0,0,0/?,"), v.replace("0/0,0", "0/7,0"), v.replace("0,0,0,0,0,0,0,0/", "40,0,0,0,0,0,0,0/"), "x".to_string()] {
        assert!(SkillGame::from_view(skill, &bad).is_err(), "{bad}");
    }
}
