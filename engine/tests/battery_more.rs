//! The generic battery for the RULES-more.md games: random playouts to the end through the
//! [`Game`] trait without panics, FEN round trips at every ply, the trait's invariants (legal
//! actions exactly at player turns, determinizations keep the sampling player's information-set
//! key), and the fast attack test against a slow one built from the move generator.

use engine::game::{Game, PlayerId, Turn};
use engine::more::missile::{fen, MMove, MissileGame, MissilePosition};
use engine::more::piece::Kind;
use engine::piece::Color;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// In check by the slow definition: some enemy pseudo-legal move lands on the general, or the
/// generals face each other.
fn slow_in_check(p: &MissilePosition, c: Color) -> bool {
    let Some(g) = p.general(c) else { return true };
    let mut v: Vec<MMove> = Vec::new();
    p.pseudo_moves(c.opponent(), &mut v);
    if v.iter().any(|m| m.to == g) {
        return true;
    }
    let geo = p.geo();
    let Some(o) = p.general(c.opponent()) else { return true };
    if geo.file(o) == geo.file(g) {
        let (lo, hi) = (geo.rank(o).min(geo.rank(g)), geo.rank(o).max(geo.rank(g)));
        return (lo + 1..hi).all(|r| p.board().is_empty(geo.sq(geo.file(g), r)));
    }
    false
}

fn playout<G: Game>(mut g: G, rng: &mut Pcg64Mcg, mut each: impl FnMut(&G)) -> G {
    loop {
        each(&g);
        match g.turn() {
            Turn::Terminal => return g,
            Turn::Chance => {
                let o = g.chance_outcomes();
                assert!(!o.is_empty());
                g.apply(o[0].0);
            }
            Turn::Player(_) => {
                let l = g.legal_actions();
                assert!(!l.is_empty(), "a player turn has legal actions");
                g.apply(l[rng.random_range(0..l.len())]);
            }
        }
    }
}

#[test]
fn battery_missile_random_playouts() {
    for name in engine::more::missile::rules::PRESETS {
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        let mut ends = std::collections::BTreeMap::new();
        for game in 0..20 {
            let start = MissileGame::preset(name).expect("preset");
            let mut det_rng = Pcg64Mcg::seed_from_u64(game);
            let end = playout(start, &mut rng, |g| {
                if g.is_terminal() {
                    assert!(g.legal_actions().is_empty());
                    assert_eq!(g.returns(PlayerId::FIRST), -g.returns(PlayerId::SECOND));
                    return;
                }
                for p in PlayerId::BOTH {
                    let d = g.sample_determinization(p, &mut det_rng);
                    assert_eq!(d.infoset_key(p), g.infoset_key(p), "{name}: determinization keeps the key");
                    if g.turn() == Turn::Player(p) {
                        assert_eq!(d.legal_actions(), g.legal_actions(), "{name}: legal actions depend on the actor's information only");
                    }
                }
                if g.in_setup() {
                    return;
                }
                let p = g.position();
                let text = fen::write(p);
                let back = fen::parse(*p.rules(), &text).expect("round trip parses");
                assert_eq!(&back, p, "{text}");
                for c in Color::ALL {
                    assert_eq!(p.in_check(c), slow_in_check(p, c), "{text} {c}");
                }
                // Under the face-down reading (RULES-more.md §3.8 [R] hidden checks) legality is
                // decided on what the mover sees: only face-up pieces must not attack its general.
                let hidden = g.face_down_mask();
                assert!(!p.in_check_seen(p.turn().opponent(), hidden), "the side that moved is never left in a check it could see: {text}");
                let mut seen = Vec::new();
                p.legal_moves_seen(hidden, &mut seen);
                for a in g.legal_actions() {
                    let s = g.action_string(a);
                    if g.face_down_play() {
                        assert!(fen::parse_squares(p, &s).is_ok_and(|m| seen.contains(&m)), "{s}");
                    } else {
                        assert!(fen::parse_move(p, &s).is_ok(), "{s}");
                    }
                }
            });
            let e = end.end().expect("ended");
            *ends.entry(e.reason()).or_insert(0) += 1;
            // Only a general left attacked by a face-down piece can be captured (§3.8 [R]).
            let generals = end.position().count(Color::Red, Kind::General) + end.position().count(Color::Black, Kind::General);
            let captured = matches!(e, engine::more::missile::MissileEnd::GeneralCaptured(_));
            assert_eq!(generals, if captured { 1 } else { 2 }, "{name}: {}", end.fen());
            assert!(!captured || end.preset_info().rules.face_down, "{name}");
        }
        eprintln!("{name}: {ends:?}");
    }
}

#[test]
fn battery_skill_random_playouts() {
    use engine::more::skill::{fen as sfen, SkillGame};
    for name in ["skill", "skill-points", "skill-secret"] {
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let mut ends = std::collections::BTreeMap::new();
        for game in 0..12 {
            let start = SkillGame::preset(name).expect("preset").with_max_plies(300);
            let mut det_rng = Pcg64Mcg::seed_from_u64(game);
            let end = playout(start, &mut rng, |g| {
                if g.is_terminal() {
                    assert!(g.legal_actions().is_empty());
                    return;
                }
                for p in PlayerId::BOTH {
                    let d = g.sample_determinization(p, &mut det_rng);
                    assert_eq!(d.infoset_key(p), g.infoset_key(p), "{name}: determinization keeps the key");
                    if g.turn() == Turn::Player(p) {
                        assert_eq!(d.legal_actions(), g.legal_actions());
                    }
                }
                if g.in_setup() {
                    return;
                }
                let p = g.position();
                let text = sfen::write(p);
                let back = sfen::parse(*p.rules(), &text).expect("round trip parses");
                assert_eq!(&back, p, "{text}");
                for a in g.legal_actions() {
                    assert!(!g.action_string(a).is_empty());
                }
            });
            let e = end.end().expect("ended");
            *ends.entry(e.reason()).or_insert(0) += 1;
        }
        eprintln!("{name}: {ends:?}");
    }
}

#[test]
fn battery_camel_random_playouts() {
    use engine::more::camel::{fen as cfen, CamelGame};
    for ed in 1..=7 {
        let name = format!("camel-{ed}");
        let mut rng = Pcg64Mcg::seed_from_u64(ed);
        let mut ends = std::collections::BTreeMap::new();
        for _ in 0..8 {
            let start = CamelGame::preset(&name).expect("preset").with_max_plies(300);
            let end = playout(start, &mut rng, |g| {
                if g.is_terminal() {
                    assert!(g.legal_actions().is_empty());
                    return;
                }
                let p = g.position();
                let text = cfen::write(p);
                let back = cfen::parse(*p.rules(), &text).expect("round trip parses");
                assert_eq!(&back, p, "{text}");
                if p.redeem().is_none() {
                    assert!(!p.in_check(p.turn().opponent()), "{name}: the mover is never left in check: {text}");
                }
            });
            let e = end.end().expect("ended");
            *ends.entry(e.reason()).or_insert(0) += 1;
        }
        eprintln!("{name}: {ends:?}");
    }
}

/// Many random games of every RULES-more.md preset through the Game trait (no panics, every
/// game ends): `ANQI_MORE_PLAYOUTS=N` games per preset (default 3).
#[test]
fn battery_more_every_preset_random_games() {
    use engine::more::camel::CamelGame;
    use engine::more::skill::SkillGame;
    let n: u64 = std::env::var("ANQI_MORE_PLAYOUTS").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    let mut rng = Pcg64Mcg::seed_from_u64(99);
    for (name, _) in engine::more::presets::presets() {
        for _ in 0..n {
            if name.starts_with("missile") {
                let g = playout(MissileGame::preset(name).expect("test fixture").with_max_plies(600), &mut rng, |_| {});
                assert!(g.end().is_some());
            } else if name.starts_with("skill") {
                let g = playout(SkillGame::preset(name).expect("test fixture").with_max_plies(600), &mut rng, |_| {});
                assert!(g.end().is_some());
            } else {
                let g = playout(CamelGame::preset(name).expect("test fixture").with_max_plies(600), &mut rng, |_| {});
                assert!(g.end().is_some());
            }
        }
    }
}

/// Random games with every non-default rule option switched on, FEN round trips at every ply.
#[test]
fn battery_more_non_default_options() {
    use engine::more::camel::{fen as cfen, CamelGame, CamelRules, StackRules};
    use engine::more::missile::{BaseOutcome, BaseReading, DeadGeneral, FighterBlock, MissileRules};
    use engine::more::skill::{fen as sfen, RingReading, SkillGame, SkillRules};
    let mut rng = Pcg64Mcg::seed_from_u64(2024);
    let sp = SkillRules::preset("skill").expect("preset");
    let srules = SkillRules { ring: RingReading::LShape, t11_one_or_two: true, t10_fighter_block: true, stagnation_strict: true, t31_second_window: true, ..sp.rules };
    let mp = MissileRules::preset("missile").expect("preset");
    let mrules = MissileRules { base_reading: BaseReading::Broad, base_outcome: BaseOutcome::Illegal, dead_general: DeadGeneral::Lenient, fighter_block: FighterBlock::AnyTwoOfThree, ..mp.rules };
    let cp = CamelRules::preset("camel-7").expect("preset");
    let crules = CamelRules { stacking: StackRules::I, one_chancellor: true, ..cp.rules };
    for _ in 0..10 {
        playout(SkillGame::new(engine::more::skill::SkillPreset { rules: srules, ..sp }).with_max_plies(300), &mut rng, |g| {
            if !g.in_setup() {
                let p = g.position();
                assert_eq!(&sfen::parse(*p.rules(), &sfen::write(p)).expect("round trip"), p);
            }
        });
        playout(MissileGame::new(engine::more::missile::MissilePreset { rules: mrules, ..mp }).with_max_plies(300), &mut rng, |g| {
            let p = g.position();
            assert_eq!(&fen::parse(*p.rules(), &fen::write(p)).unwrap_or_else(|e| panic!("{}: {e}", fen::write(p))), p);
        });
        playout(CamelGame::new(engine::more::camel::CamelPreset { rules: crules, ..cp }).with_max_plies(300), &mut rng, |g| {
            let p = g.position();
            assert_eq!(&cfen::parse(*p.rules(), &cfen::write(p)).expect("round trip"), p);
        });
        // §2.14 #1 and #12: the widest board with the river row, every edition's machinery.
        let wide = CamelRules { files: 15, river_row: true, ..cp.rules };
        playout(CamelGame::new(engine::more::camel::CamelPreset { rules: wide, ..cp }).with_max_plies(300), &mut rng, |g| {
            let p = g.position();
            assert_eq!(&cfen::parse(*p.rules(), &cfen::write(p)).expect("round trip"), p);
        });
    }
}
