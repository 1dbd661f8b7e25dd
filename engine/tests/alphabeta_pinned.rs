//! Alpha-beta pinned (issue #17 item 1): the one alpha-beta (`engine::search::alphabeta`) serves
//! the variants and every `Scored` game; making it generic must not change what it does on the
//! variants. This test fingerprints fixed-depth searches (best move, score, depth, nodes, PV; no
//! time limit) of the core searcher over random positions of five variants and over positions of
//! the repetition battery (`tests/data/repetition_cases.toml`) searched with the game's record, so
//! that perpetual checks and chases are judged inside the search; and the choices of the
//! `alphabeta` oracle bot and of `pimc:…,search=alphabeta`. It compares the fingerprint with the
//! one the searcher produced before it was made generic.
//!
//! A deliberate change of the search, the evaluation or the move generation changes the
//! fingerprint: check the new behaviour, then update `PINNED` with the printed value.

use engine::search::alphabeta::{Limits, Searcher};
use engine::search;
use engine::variant::game_state::VariantGameState;
use engine::variant::{fen as vfen, notation, State, Variant};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The fingerprint of the variant alpha-beta: before the generic rewrite `0x78ac5b12fa99dd1c`;
/// since issue #36's selective search (null move, reverse futility, futility and late-move
/// pruning, logarithmic reductions, aspiration windows, internal iterative reduction; +186 ± 63
/// Elo in xiangqi at 50 ms, experiments/strength/README.md) and PIMC's alpha-beta valuing
/// face-down pieces as the view does (and searching its own flips at the root)
/// `0x57950d427c38b5fe`; since the transposition table in quiescence, counter moves and
/// "improving" (experiments/strength/README.md §4) and `pimc`'s default of the family's learned
/// evaluation (xiangqi, Jieqi) `0xac1cc5d096247853`; since the second xiangqi network
/// (339e33e9ee5c) `0x6a6fba14fd8246fe`; since the third (models/zoo/eval-xiangqi.nnue
/// 5594d2f394a3, built in; session 24), this.
const PINNED: u64 = 0x27fcbdec8f06644f;

const SPECS: [&str; 3] = ["alphabeta:depth=3", "alphabeta:depth=2,nodes=3000", "pimc:k=3,search=alphabeta:depth=2"];

fn random_game(v: &'static Variant, plies: usize, rng: &mut Pcg64Mcg) -> Option<VariantGameState> {
    let mut game = VariantGameState::unbounded(State::new_game(v));
    for _ in 0..rng.random_range(0..=plies) {
        if game.outcome().is_some() {
            return None;
        }
        let acts = game.state().legal_actions();
        let a = acts[rng.random_range(0..acts.len())];
        game.play(a, |outs| outs[rng.random_range(0..outs.len())].0);
    }
    let s = game.state();
    (game.outcome().is_none() && !s.is_chance() && !s.in_setup() && s.legal_actions().len() >= 2).then_some(game)
}

/// Games of the repetition battery, played up to two plies before their last move.
fn repetition_games() -> Vec<VariantGameState> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/repetition_cases.toml")).expect("data file");
    let file: toml::Value = toml::from_str(&text).expect("cases parse");
    let mut out = Vec::new();
    for c in file["case"].as_array().expect("cases") {
        if c.get("variant").is_some() || out.len() >= 10 {
            continue;
        }
        let v: &'static Variant = engine::any_game::load_variant("xiangqi").expect("preset");
        let Ok(state) = vfen::parse(v, c["fen"].as_str().expect("fen")) else { continue };
        let moves: Vec<&str> = c["moves"].as_str().unwrap_or_default().split_whitespace().collect();
        if moves.len() < 4 {
            continue;
        }
        let mut game = VariantGameState::unbounded(state);
        for text in &moves[..moves.len() - 2] {
            if game.outcome().is_some() {
                break;
            }
            let Ok((a, named)) = notation::parse_record(game.state(), text) else { break };
            game.play(a, |outs| named.unwrap_or(outs[0].0));
        }
        if game.outcome().is_none() {
            out.push(game);
        }
    }
    out
}

fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x0100_0000_01b3).rotate_left(17)
}

fn absorb(h: &mut u64, text: &str) {
    if std::env::var_os("ANQI_PIN_VERBOSE").is_some() {
        println!("{text}");
    }
    for b in text.bytes() {
        *h = mix(*h, b as u64);
    }
}

#[test]
fn variant_alphabeta_searches_are_pinned() {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut games = Vec::new();
    for name in ["xiangqi", "jieqi", "surprise", "fanqi-9", "king"] {
        let v: &'static Variant = engine::any_game::load_variant(name).expect("preset");
        let mut rng = Pcg64Mcg::seed_from_u64(47);
        let mut n = 0;
        while n < 6 {
            let Some(g) = random_game(v, 60, &mut rng) else { continue };
            games.push((name.to_string(), g));
            n += 1;
        }
    }
    let reps = repetition_games();
    assert!(reps.len() >= 8, "{} repetition games", reps.len());
    games.extend(reps.into_iter().map(|g| ("rep".to_string(), g)));
    let mut searches = 0;
    for (i, (name, game)) in games.iter().enumerate() {
        let s = game.state();
        let pos = s.position();
        let record = engine::repetition::core_tail(pos, game.record());
        for depth in [2u32, 4] {
            let mut searcher = Searcher::new(2);
            let r = searcher.search(pos, &record, &Limits::depth(depth), &mut |_| {});
            let pv: Vec<String> = r.pv.iter().map(|m| m.iccs()).collect();
            absorb(&mut h, &format!("{name} #{i} d{depth} best={:?} score={} raw={} depth={} nodes={} pv={}", r.best.map(|m| m.iccs()), r.score, r.raw_score, r.depth, r.nodes, pv.join(" ")));
            searches += 1;
        }
        let mut searcher = Searcher::new(1);
        let r = searcher.search(pos, &record, &Limits::nodes(5_000), &mut |_| {});
        absorb(&mut h, &format!("{name} #{i} n5000 best={:?} raw={} depth={} nodes={}", r.best.map(|m| m.iccs()), r.raw_score, r.depth, r.nodes));
        for (j, spec) in SPECS.iter().enumerate() {
            let an = engine::search::game_bot::analyse_variant(search::from_spec::<VariantGameState>(spec, 5 + j as u64).expect("spec").as_mut(), game);
            let line: String = an.stats.iter().map(|st| format!("{:?}/{}/{:.6};", st.action, st.visits, st.score)).collect();
            absorb(&mut h, &format!("{name} #{i} {spec} best={:?} work={} nodes={} {line}", an.best, an.work, an.nodes));
            searches += 1;
        }
    }
    println!("fingerprint {h:#018x} over {searches} searches of {} positions", games.len());
    assert_eq!(h, PINNED, "the variant alpha-beta searches changed (fingerprint {h:#018x})");
}

/// The `alphabeta` and `pimc` specs choose the same handed the game or a game rebuilt from its
/// state and record (`VariantGameState::with_prior`), and the plain `pimc:k=3,depth=2` is
/// `search=alphabeta:depth=2`; and the generic PIMC on a `VariantGameState` (the code of every
/// other game) chooses as the variants' PIMC does.
#[test]
fn generic_specs_on_variants_are_the_variant_bots() {
    use engine::search::game_bot::{self as generic, GameBot};
    let pairs = [("alphabeta:depth=3", "alphabeta:depth=3"), ("alphabeta:depth=2,nodes=3000", "alphabeta:depth=2,nodes=3000"), ("pimc:k=3,search=alphabeta:depth=2", "pimc:k=3,depth=2")];
    let mut compared = 0;
    for name in ["xiangqi", "jieqi", "surprise"] {
        let v: &'static Variant = engine::any_game::load_variant(name).expect("preset");
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let mut n = 0;
        while n < 3 {
            let Some(game) = random_game(v, 40, &mut rng) else { continue };
            let g = VariantGameState::new(game.state().clone()).with_prior(game.record());
            for (vs, gs) in pairs {
                let a = search::from_spec::<VariantGameState>(vs, 9).expect("spec").choose(&game);
                let mut gb: Box<dyn GameBot<VariantGameState>> = generic::from_spec(gs, 9).expect("spec");
                let b = gb.choose(&g);
                assert_eq!(a, b, "{name}: {vs} vs {gs}");
                compared += 1;
            }
            // The generic PIMC itself on the variant game (determinizations by
            // `Game::sample_determinization`, the oracle search per determinization) is the
            // variant PIMC with `search=alphabeta`.
            let a = search::from_spec::<VariantGameState>("pimc:k=3,search=alphabeta:depth=2", 9).expect("spec").choose(&game);
            // `pimc` specs search with the family's learned evaluation by default (eval=auto).
            let b = engine::search::pimc::GamePimcBot::<VariantGameState>::new(3, None, Limits { family_eval: true, ..Limits::depth(2) }, 4, 9).choose(&g);
            assert_eq!(a, b, "{name}: generic PIMC");
            n += 1;
        }
    }
    assert_eq!(compared, 27);
}
