//! The Game-trait bots of `engine::search::game_bot` on the RULES-more.md games.

use engine::game::Game;
use engine::search::game_bot::from_spec;
use engine::more::missile::{MissileGame, MissileRules};

#[test]
fn every_bot_plays_every_missile_preset() {
    for name in engine::more::missile::rules::PRESETS {
        for spec in ["random", "greedy", "alphabeta:depth=2", "pimc:k=2,depth=1", "ismcts:iterations=60"] {
            let mut g = MissileGame::preset(name).expect("test fixture").with_max_plies(40);
            let mut bot = from_spec::<MissileGame>(spec, 3).expect("test fixture");
            while !g.is_terminal() {
                let a = bot.choose(&g);
                assert!(g.legal_actions().contains(&a), "{spec} chose a legal action");
                g.apply(a);
            }
        }
    }
}

#[test]
fn alphabeta_finds_mate_in_one_and_greedy_takes_material() {
    let preset = MissileRules::preset("missile").expect("test fixture");
    // Red chariot a1 to a9 mates (black general f9, red chariot b8 covers rank 8).
    let g = MissileGame::from_fen(preset, "5k5/1R9/11/11/11/11/11/11/R10/4K6 w - 0 1").expect("test fixture");
    let mut ab = from_spec::<MissileGame>("alphabeta:depth=2", 1).expect("test fixture");
    let a = ab.choose(&g);
    assert!(g.child(a).is_terminal(), "{}", g.action_string(a));
    let g = MissileGame::from_fen(preset, "5k5/11/11/11/11/r10/11/11/R10/4K6 w - 0 1").expect("test fixture");
    let mut gr = from_spec::<MissileGame>("greedy", 1).expect("test fixture");
    assert_eq!(g.action_string(gr.choose(&g)), "a1a4");
}

/// `Scored::in_check` in the searches (issue #17): Red's horse d5-e7 checks the general on f9
/// and forks the chariot on c6, which it takes after any evasion (+900; g9 faces Red's general
/// on g0, so the general goes to e9 or f8); the alternative is the
/// chariot taking the horse on a5 (+400). At depth 1 only a search that knows the check sees the
/// fork: the alpha-beta extends the check, the expectimax searches the evasions in quiescence
/// instead of standing pat; with no check both saw the quiet d5e7 as worth nothing and took a5.
#[test]
fn searches_see_a_forking_check_through_the_check_hook() {
    use engine::search::Scored;
    let preset = MissileRules::preset("missile").expect("test fixture");
    let g = MissileGame::from_fen(preset, "5k5/11/11/2r8/n2N7/11/11/11/11/R5K4 w - 0 1").expect("test fixture");
    assert!(!g.in_check());
    let fork = *g.legal_actions().iter().find(|&&a| g.action_string(a) == "d5e7").expect("d5e7 is legal");
    let after = g.child(fork);
    assert!(after.in_check(), "d5e7 checks f9");
    assert!(after.legal_actions().iter().all(|&a| after.action_string(a).starts_with("f9")), "only the general evades");
    for spec in ["alphabeta:depth=1", "expectimax:depth=1,samples=1"] {
        let mut bot = from_spec::<MissileGame>(spec, 1).expect("test fixture");
        assert_eq!(g.action_string(bot.choose(&g)), "d5e7", "{spec}");
    }
    // Without the fork the same searches take the horse: the choice above is the check's.
    let quiet = MissileGame::from_fen(preset, "5k5/11/11/11/n2N7/11/11/11/11/R5K4 w - 0 1").expect("test fixture");
    for spec in ["alphabeta:depth=1", "expectimax:depth=1,samples=1"] {
        let mut bot = from_spec::<MissileGame>(spec, 1).expect("test fixture");
        assert_eq!(quiet.action_string(bot.choose(&quiet)), "a0a5", "{spec}");
    }
}

#[test]
fn bad_specs_are_errors() {
    assert!(from_spec::<MissileGame>("nosuch", 1).is_err());
    assert!(from_spec::<MissileGame>("alphabeta:depth=x", 1).is_err());
    assert!(from_spec::<MissileGame>("alphabeta:foo=1", 1).is_err());
    assert!(from_spec::<MissileGame>("random:depth=1", 1).is_err());
    // (`pimc:search=mcts` and `ties=random` play every game since session 30.)
    assert!(from_spec::<MissileGame>("pimc:k=2,search=mcts:iterations=10", 1).is_ok());
    assert!(from_spec::<MissileGame>("pimc:k=2,ties=maybe", 1).is_err());
    assert!(from_spec::<MissileGame>("pimc:k=2,depth=1,search=expectimax:depth=1", 1).is_err());
}

#[test]
fn specs_read_as_the_variant_bots_do() {
    // The variants' PIMC spelling (`search=alphabeta:…`) and a `[bot]` TOML file build the same bot
    // as the plain parameters: the same choices from the same seed.
    let path = std::env::temp_dir().join(format!("anqi-bots-more-{}.toml", std::process::id()));
    std::fs::write(&path, "[bot]\nkind = \"pimc\"\nk = 3\n[bot.search]\nkind = \"alphabeta\"\ndepth = 1\n").expect("temp file");
    let specs = ["pimc:k=3,depth=1".to_string(), "pimc:k=3,search=alphabeta:depth=1".to_string(), path.display().to_string()];
    let mut runs = Vec::new();
    for spec in &specs {
        let mut g = MissileGame::preset("missile-hidden-5").expect("test fixture").with_max_plies(30);
        let mut bot = from_spec::<MissileGame>(spec, 9).unwrap_or_else(|e| panic!("{spec}: {e}"));
        let mut moves = Vec::new();
        while !g.is_terminal() {
            let a = bot.choose(&g);
            moves.push(g.action_string(a));
            g.apply(a);
        }
        runs.push(moves);
    }
    let _ = std::fs::remove_file(&path);
    assert_eq!(runs[0].len(), 30);
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[0], runs[2]);
}

#[test]
fn every_bot_plays_every_skill_preset() {
    use engine::more::skill::SkillGame;
    for name in ["skill", "skill-points", "skill-secret"] {
        for spec in ["random", "greedy", "alphabeta:depth=1", "pimc:k=2,depth=1", "ismcts:iterations=30"] {
            let mut g = SkillGame::preset(name).expect("test fixture").with_max_plies(24);
            let mut bot = from_spec::<SkillGame>(spec, 3).expect("test fixture");
            while !g.is_terminal() {
                let a = bot.choose(&g);
                assert!(g.legal_actions().contains(&a), "{spec} chose a legal action");
                g.apply(a);
            }
        }
    }
}

#[test]
fn every_bot_plays_every_camel_preset() {
    use engine::more::camel::CamelGame;
    for ed in 1..=7 {
        for spec in ["random", "greedy", "alphabeta:depth=1", "pimc:k=1,depth=1", "ismcts:iterations=20"] {
            let mut g = CamelGame::preset(&format!("camel-{ed}")).expect("test fixture").with_max_plies(16);
            let mut bot = from_spec::<CamelGame>(spec, 3).expect("test fixture");
            while !g.is_terminal() {
                let a = bot.choose(&g);
                assert!(g.legal_actions().contains(&a), "{spec} chose a legal action");
                g.apply(a);
            }
        }
    }
}

#[test]
fn ms_budgets_bound_the_search_time() {
    // Budgets far beyond 60 ms without `ms`: depth 9, 10^6 iterations, 10^4 determinizations.
    let g = MissileGame::preset("missile").expect("test fixture");
    for spec in ["alphabeta:depth=9,nodes=1000000000,ms=60", "ismcts:iterations=1000000,ms=60", "pimc:k=10000,depth=3,ms=60"] {
        let mut bot = from_spec::<MissileGame>(spec, 1).expect("test fixture");
        let t = std::time::Instant::now();
        let a = bot.choose(&g);
        let took = t.elapsed();
        assert!(g.legal_actions().contains(&a), "{spec}");
        assert!(took.as_millis() < 2_000, "{spec} took {took:?}");
    }
    assert!(from_spec::<MissileGame>("alphabeta:ms=x", 1).is_err());
}
