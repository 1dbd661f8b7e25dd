//! The one expectimax (`engine::search::expectimax`) on the RULES-more.md games, seated by
//! `engine::search::game_bot::from_spec` as `expectimax[:depth=N,...]` (issue #17 item 1): it plays
//! legal actions in every preset, it decides from its player's information only, and it is
//! stronger than `greedy` in missile xiangqi.

use engine::game::{Game, PlayerId, Turn};
use engine::search::game_bot::from_spec;
use engine::more::camel::CamelGame;
use engine::more::missile::MissileGame;
use engine::more::skill::SkillGame;
use engine::search::Scored;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Plays `g` to its end (or its ply horizon) with `spec` on both sides; every action legal.
fn plays_legally<G: Scored>(mut g: G, spec: &str) -> usize {
    let mut bot = from_spec::<G>(spec, 3).expect("spec");
    let mut plies = 0;
    loop {
        match g.turn() {
            Turn::Terminal => return plies,
            Turn::Chance => {
                let o = g.chance_outcomes()[0].0;
                g.apply(o);
            }
            Turn::Player(_) => {
                let a = bot.choose(&g);
                assert!(g.legal_actions().contains(&a), "{spec} chose an illegal action at ply {plies}");
                g.apply(a);
                plies += 1;
            }
        }
    }
}

#[test]
fn expectimax_plays_every_more_preset() {
    for name in engine::more::missile::rules::PRESETS {
        let n = plays_legally(MissileGame::preset(name).expect("preset").with_max_plies(24), "expectimax:depth=2,nodes=5000,samples=2");
        assert!(n > 0, "{name}");
    }
    for name in ["skill", "skill-points", "skill-secret"] {
        let n = plays_legally(SkillGame::preset(name).expect("preset").with_max_plies(16), "expectimax:depth=2,nodes=5000,samples=2");
        assert!(n > 0, "{name}");
    }
    for ed in 1..=7 {
        let n = plays_legally(CamelGame::preset(&format!("camel-{ed}")).expect("preset").with_max_plies(12), "expectimax:depth=1,nodes=3000");
        assert!(n > 0, "camel-{ed}");
    }
    assert!(from_spec::<MissileGame>("expectimax:depth=x", 1).is_err());
    assert!(from_spec::<MissileGame>("expectimax:foo=1", 1).is_err());
    let ms = from_spec::<MissileGame>("expectimax:depth=2,ms=50,samples=3", 1).expect("spec");
    assert_eq!(ms.name(), "expectimax:depth=2,qdepth=4,nodes=200000,ms=50,samples=3");
}

/// Full states of the same information set of the player to move (the state reached and three
/// determinizations of it): the bot, seeded alike, chooses in each, at every one of `plies`
/// random plies. Returns how many twins differed from the state as full states (a test is void
/// if none did) and for how many of those the choice differed.
fn choices_in_one_infoset<G: Scored>(start: G, spec: &str, plies: usize, seed: u64) -> (usize, usize) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut g = start;
    let (mut differed, mut disagreed) = (0, 0);
    for ply in 0..plies {
        match g.turn() {
            Turn::Terminal => break,
            Turn::Chance => {
                let outs = g.chance_outcomes();
                let o = outs[rng.random_range(0..outs.len())].0;
                g.apply(o);
            }
            Turn::Player(me) => {
                let a = from_spec::<G>(spec, 77 + ply as u64).expect("spec").choose(&g);
                for _ in 0..3 {
                    let twin = g.sample_determinization(me, &mut rng);
                    assert_eq!(twin.infoset_key(me), g.infoset_key(me), "a determinization stays in the information set");
                    if format!("{twin:?}") == format!("{g:?}") {
                        continue;
                    }
                    differed += 1;
                    let b = from_spec::<G>(spec, 77 + ply as u64).expect("spec").choose(&twin);
                    disagreed += usize::from(a != b);
                }
                let legal = g.legal_actions();
                g.apply(legal[rng.random_range(0..legal.len())]);
            }
        }
    }
    (differed, disagreed)
}

/// [`choices_in_one_infoset`] summed over the hidden RULES-more presets.
fn choices_in_hidden_presets(spec: &str, camel_spec: &str) -> (usize, usize) {
    let mut runs = Vec::new();
    for name in ["missile-hidden-5", "missile-hidden-centre-down"] {
        runs.push(choices_in_one_infoset(MissileGame::preset(name).expect("preset").with_max_plies(80), spec, 40, 5));
    }
    runs.push(choices_in_one_infoset(SkillGame::preset("skill-secret").expect("preset").with_max_plies(60), spec, 12, 6));
    for ed in [1, 7] {
        runs.push(choices_in_one_infoset(CamelGame::preset(&format!("camel-{ed}")).expect("preset").with_max_plies(60), camel_spec, 20, 7));
    }
    runs.iter().fold((0, 0), |(d, x), &(a, b)| (d + a, x + b))
}

#[test]
fn expectimax_reads_only_its_players_information() {
    let (differed, disagreed) = choices_in_hidden_presets("expectimax:depth=2,nodes=4000,samples=2", "expectimax:depth=1,nodes=2000,samples=2");
    println!("{differed} twins that differed from their state as full states, {disagreed} different choices");
    assert!(differed >= 20, "too few twins with a hidden part that differed ({differed})");
    assert_eq!(disagreed, 0, "the choice depends on what the player cannot see");
    // The test tells: the oracle, which searches the full state, chooses differently in some.
    let (_, oracle) = choices_in_hidden_presets("oracle:depth=2,nodes=4000", "oracle:depth=1,nodes=2000");
    println!("the oracle chose differently in {oracle} of them");
    assert!(oracle > 0, "the oracle chose alike in every pair: the test cannot see a leak");
}

/// Points of `a` against `b` over `games` games of `start` (colours alternating, two random
/// opening plies shared by each pair, at most `max` plies then a draw).
fn score<G: Scored>(start: &G, a: &str, b: &str, games: u32, max: usize) -> f64 {
    let mut pts = 0.0;
    for i in 0..games {
        let mut ba = from_spec::<G>(a, 100 + i as u64).expect("spec a");
        let mut bb = from_spec::<G>(b, 200 + i as u64).expect("spec b");
        let a_seat = if i % 2 == 0 { PlayerId::FIRST } else { PlayerId::SECOND };
        let mut opening = Pcg64Mcg::seed_from_u64((i / 2) as u64);
        let mut g = start.clone();
        let mut n = 0;
        while let Turn::Player(p) = g.turn() {
            if n >= max {
                break;
            }
            let legal = g.legal_actions();
            let act = if n < 2 { legal[opening.random_range(0..legal.len())] } else if p == a_seat { ba.choose(&g) } else { bb.choose(&g) };
            g.apply(act);
            n += 1;
        }
        let r = if g.is_terminal() { g.returns(a_seat) } else { 0.0 };
        pts += if r > 0.0 { 1.0 } else if r < 0.0 { 0.0 } else { 0.5 };
    }
    pts
}

#[test]
fn expectimax_beats_greedy_in_missile() {
    let start = MissileGame::preset("missile").expect("preset");
    let pts = score(&start, "expectimax:depth=2,nodes=20000", "greedy", 6, 160);
    println!("expectimax:depth=2,nodes=20000 vs greedy in missile: {pts}/6");
    assert!(pts >= 4.5, "expectimax scored {pts}/6 against greedy");
}

#[test]
fn pimc_defaults_to_the_expectimax() {
    // PIMC averaging the expectimax over k determinizations is the expectimax bot with k samples:
    // the same choices from the same seed, whichever way the spec says it.
    let specs = ["pimc:k=3", "pimc:k=3,search=expectimax:depth=2", "expectimax:depth=2,samples=3"];
    let mut runs = Vec::new();
    for spec in specs {
        let mut g = MissileGame::preset("missile-hidden-5").expect("preset").with_max_plies(16);
        let mut bot = from_spec::<MissileGame>(spec, 9).unwrap_or_else(|e| panic!("{spec}: {e}"));
        let mut moves = Vec::new();
        while let Turn::Player(_) = g.turn() {
            let a = bot.choose(&g);
            moves.push(g.action_string(a));
            g.apply(a);
        }
        runs.push(moves);
    }
    assert_eq!(runs[0].len(), 16);
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[0], runs[2]);
    assert_eq!(from_spec::<MissileGame>("pimc:k=3,ms=40", 1).expect("spec").name(), "pimc:k=3,ms=40,search=expectimax:depth=2,qdepth=4,nodes=200000");
    // The alpha-beta inner search stays reachable, by name or by its plain keys.
    assert_eq!(from_spec::<MissileGame>("pimc:k=3,depth=1", 1).expect("spec").name(), "pimc:k=3,search=alphabeta:depth=1");
    assert_eq!(from_spec::<MissileGame>("pimc:k=3,search=alphabeta", 1).expect("spec").name(), "pimc:k=3,search=alphabeta:depth=2");
    // A decision budget bounds the time of a search far beyond it.
    let g = MissileGame::preset("missile").expect("preset");
    let mut bot = from_spec::<MissileGame>("pimc:k=10000,ms=60,search=expectimax:depth=8,nodes=0", 1).expect("spec");
    let t = std::time::Instant::now();
    let a = bot.choose(&g);
    assert!(g.legal_actions().contains(&a));
    assert!(t.elapsed().as_millis() < 2_000, "took {:?}", t.elapsed());
}

#[test]
fn the_game_path_agrees_with_the_variant_path_on_the_variants() {
    // The variants are also a `Scored` game (`VariantGameState`): the one search through the Game
    // trait (chance by `Turn::Chance`, mates by `Turn::Terminal`) gives every root action the value
    // the variant path gives it, at depth 2 without quiescence (the variant path also searches
    // evasions in quiescence; the Game path has no checks) and without a record.
    use engine::search::expectimax::{ExpectiSearch, Expectimax, ExpectimaxConfig};
    use engine::variant::game_state::{decode, VariantGameState};
    use engine::variant::{State, Variant};
    let cfg = ExpectimaxConfig { depth: 2, qdepth: 0, nodes: None, ms: None, samples: 1, ..ExpectimaxConfig::default() };
    let (mut compared, mut chance) = (0, 0);
    for name in ["jieqi", "fanqi-9", "xiangqi"] {
        let v: &'static Variant = engine::any_game::load_variant(name).expect("preset");
        let mut rng = Pcg64Mcg::seed_from_u64(13);
        let mut positions = 0;
        while positions < 6 {
            let mut game = VariantGameState::unbounded(State::new_game(v));
            for _ in 0..rng.random_range(0..=50) {
                if game.outcome().is_some() {
                    break;
                }
                let acts = game.state().legal_actions();
                let a = acts[rng.random_range(0..acts.len())];
                game.play(a, |outs| outs[rng.random_range(0..outs.len())].0);
            }
            let s = game.state();
            if game.outcome().is_some() || s.is_chance() || s.in_setup() {
                continue;
            }
            let rv = Expectimax::new(cfg.clone()).search(s);
            let rg = ExpectiSearch::<VariantGameState>::new(cfg.clone()).search(&VariantGameState::new(s.clone()));
            assert_eq!(rv.values.len(), rg.values.len(), "{name}: the same root actions");
            for (a, v) in &rg.values {
                let va = decode(*a).expect("a player action");
                let (_, w) = rv.values.iter().find(|(x, _)| *x == va).expect("the variant path scores it");
                assert!((v - w).abs() < 1e-6, "{name} {va:?}: Game path {v}, variant path {w}");
                chance += usize::from(s.child(va).is_chance());
                compared += 1;
            }
            positions += 1;
        }
    }
    println!("{compared} root actions compared, {chance} of them leading to chance");
    assert!(chance >= 20, "too few reveals compared ({chance})");
}
