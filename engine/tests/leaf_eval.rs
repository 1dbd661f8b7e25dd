//! The learned evaluation at the leaves of expectimax and IS-MCTS (issue #36 item 3): it reads
//! only what every player sees (two states of one information set score alike), it is one
//! score seen from two sides, and `eval=auto|none|zoo:NAME` resolves as in `alphabeta`/`pimc`
//! (the family's network, none, a named one; never for the oracle).

use engine::search::eval::{evaluate, evaluate_learned, evaluate_with};
use engine::search::expectimax::ExpectimaxConfig;
use engine::search::ismcts::IsmctsConfig;
use engine::variant::game_state::VariantGameState;
use engine::variant::{State, Variant, View};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn variant(name: &str) -> &'static Variant {
    Box::leak(Box::new(Variant::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))))
}

/// Positions of `name` after up to 60 random actions, at decisions.
fn positions(name: &str, n: usize, seed: u64) -> Vec<State> {
    let v = variant(name);
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut game = VariantGameState::unbounded(State::new_game(v));
        for _ in 0..rng.random_range(0..=60) {
            if game.outcome().is_some() {
                break;
            }
            let acts = game.state().legal_actions();
            let a = acts[rng.random_range(0..acts.len())];
            game.play(a, |outs| outs[rng.random_range(0..outs.len())].0);
        }
        let s = game.state();
        if game.outcome().is_none() && !s.is_chance() && !s.in_setup() {
            out.push(s.clone());
        }
    }
    out
}

#[test]
fn learned_leaf_is_a_function_of_the_information_set() {
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let mut material_differs = 0;
    // Each game with its own network, and Fan-qi 9 and Surprise also with Jieqi's.
    let zoo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/zoo");
    let fanqi = engine::nnue::Network::load(&zoo.join("eval-fanqi-9.nnue")).expect("zoo file");
    for (name, net_name) in [("jieqi", "jieqi"), ("fanqi-9", "fanqi-9"), ("surprise", "surprise"), ("fanqi-9", "jieqi"), ("surprise", "jieqi")] {
        let net = match net_name {
            "fanqi-9" => engine::nnue::EvalNet { spec: "zoo:fanqi-9".into(), net: std::sync::Arc::new(fanqi.clone()) },
            _ => engine::nnue::embedded(net_name).expect("built-in network"),
        };
        for s in positions(name, 24, 21) {
            let me = s.turn();
            let view = View::new(&s, me);
            for _ in 0..3 {
                let d = view.sample(&mut rng);
                for side in [me, me.opponent()] {
                    assert_eq!(evaluate_learned(&s, side, &net.net), evaluate_learned(&d, side, &net.net), "{name}: two states of one information set");
                }
                material_differs += usize::from(evaluate(&s, me) != evaluate(&d, me));
            }
        }
    }
    // The hand-written evaluation reads a determinization's identities; the network never does.
    assert!(material_differs > 0, "the battery should meet states whose hidden identities differ");
}

/// The built-in networks are the files `models/zoo` holds (same hash) under their zoo names and
/// name the game they were trained on; the Fan-qi 9 network is in the zoo only.
#[test]
fn built_in_networks_are_the_zoo_files_of_their_games() {
    let zoo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/zoo");
    for name in ["xiangqi", "jieqi", "surprise", "fanqi-9"] {
        let file = engine::nnue::Network::load(&zoo.join(format!("eval-{name}.nnue"))).expect("zoo file");
        assert_eq!(file.meta().variant, name, "{name}: trained on its game");
        match engine::nnue::embedded(name) {
            Some(built_in) => {
                assert_eq!(built_in.net.hash(), file.hash(), "{name}: the built-in network is the zoo file");
                assert_eq!(built_in.spec, format!("zoo:{name}"));
            }
            None => assert_eq!(name, "fanqi-9", "{name} is built in"),
        }
    }
}

#[test]
fn learned_leaf_is_one_score_seen_from_two_sides() {
    let net = engine::nnue::embedded("xiangqi").expect("built-in xiangqi network");
    for s in positions("xiangqi", 30, 3).into_iter().chain(positions("jieqi", 30, 4)) {
        let red = evaluate_learned(&s, engine::piece::Color::Red, &net.net);
        assert_eq!(red, -evaluate_learned(&s, engine::piece::Color::Black, &net.net));
        assert_eq!(evaluate_with(&s, engine::piece::Color::Red, Some(&net.net)), red);
        assert_eq!(evaluate_with(&s, engine::piece::Color::Red, None), evaluate(&s, engine::piece::Color::Red));
    }
}

#[test]
fn leaf_eval_specs_resolve_like_alphabeta() {
    let auto = IsmctsConfig::from_params("eval=auto").expect("ismcts");
    assert!(auto.family_eval && auto.eval.is_none());
    assert!(auto.for_variant("jieqi").eval.is_some_and(|e| e.spec == "zoo:jieqi"));
    assert!(auto.for_variant("xiangqi").eval.is_some_and(|e| e.spec == "zoo:xiangqi"));
    assert!(auto.for_variant("surprise").eval.is_none(), "the Surprise network is published but not yet the default");
    assert!(auto.for_variant("jieqi+open").eval.is_some_and(|e| e.spec == "zoo:jieqi"), "an open twin is played by its hidden game's bot");
    let none = IsmctsConfig::from_params("eval=none").expect("ismcts");
    assert!(none.for_variant("jieqi").eval.is_none());
    let named = IsmctsConfig::from_params("iterations=40,eval=zoo:jieqi").expect("ismcts");
    assert_eq!(named.spec("ismcts"), "ismcts:iterations=40,c=0.7,eval=zoo:jieqi");
    assert!(named.for_variant("surprise").eval.is_some(), "a named network holds in every variant");
    assert!(IsmctsConfig::from_params("eval=zoo:no-such-net").is_err());
    assert!(IsmctsConfig::from_params("eval=none,eval=auto").is_err(), "repeated parameter");

    let e = ExpectimaxConfig::from_params("depth=1,eval=auto").expect("expectimax");
    assert_eq!(e.spec(), "expectimax:depth=1,qdepth=4,nodes=200000", "auto is the default");
    assert_eq!(ExpectimaxConfig { depth: 1, ..ExpectimaxConfig::default() }, e);
    assert_eq!(IsmctsConfig::default(), auto);
    assert_eq!(ExpectimaxConfig::from_params("eval=none").expect("expectimax").spec(), "expectimax:depth=2,qdepth=4,nodes=200000,eval=none");
    assert!(e.for_variant("jieqi").net().is_some());
    assert!(ExpectimaxConfig::from_params("eval=none").expect("expectimax").for_variant("jieqi").net().is_none());
    // The oracle's full-state search never takes the family's network by default.
    let oracle = engine::search::from_spec::<engine::variant::game_state::VariantGameState>("oracle:depth=1,eval=auto", 1).expect("oracle");
    assert!(!oracle.name().contains("eval"), "{}", oracle.name());
}
