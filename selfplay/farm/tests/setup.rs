//! Set-up decisions of the net player and the farm (issue #14 item 2.5), on the one search
//! (`Search<Generic<VariantGameState>>`, `farm::search::is_setup`): a solved layout mixture is
//! read and followed (`Search::set_setup_weights` with `LayoutMixture::weights`), the net's
//! priors are followed otherwise, the choice depends on the chooser's information set only (two
//! games of one information set of the chooser, `Game::infoset_key`, choose alike), and
//! self-play of owner's-choice Fan-qi starts from the players' own secret arrangements rather
//! than every piece on its start point.

use engine::game::{Game, Turn};
use engine::observe::Observe;
use engine::variant::game_state::{decode, encode, VariantGameState};
use engine::variant::{fen as vfen, Action, State, Variant};
use farm::search::{LayoutMixture, Search, SearchConfig};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

fn variant(name: &str) -> &'static Variant {
    engine::any_game::load_variant(name).expect("preset")
}

/// The tail of `anqi solve layouts` output.
const SOLVED: &str = "games 1000 unfinished 3 (12.0s)
red mixture   A:0.700 B:0.300 C1:0.000 C2:0.000 C3:0.000 C4:0.000 C5:0.000 C6:0.000 C7:0.000 C8:0.000
black mixture A:0.000 B:0.000 C1:0.000 C2:0.000 C3:0.000 C4:0.000 C5:0.000 C6:0.000 C7:0.000 C8:1.000
value 0.5
";

/// Runs a set-up search of the player to act in `g` whose net answers `prior(slot)`
/// (normalised), with the set-up weights of `mixture` where it applies, and returns 2000 choices'
/// counts by action.
fn draws(g: &VariantGameState, mixture: Option<&LayoutMixture>, prior: &dyn Fn(u16) -> f32, seed: u64) -> Vec<(Action, u32)> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let cfg = SearchConfig::with_simulations(64);
    let Turn::Player(player) = g.turn() else { panic!("not a player's turn: {:?}", g.turn()) };
    assert!(farm::search::is_setup(g), "not a set-up decision");
    let mut srch = Search::generic(g.clone(), true, &cfg, false).expect("a player's turn");
    srch.set_setup_weights(mixture.and_then(|m| m.weights(g, player, &g.legal_actions())));
    assert!(srch.is_setup());
    let mut evals = 0;
    while srch.advance(&mut rng) {
        for i in 0..srch.requests() {
            let slots = srch.request(i).1.to_vec();
            let p: Vec<f32> = slots.iter().map(|&x| prior(x)).collect();
            let sum: f32 = p.iter().sum();
            srch.deliver(i, &p.iter().map(|x| x / sum).collect::<Vec<_>>(), 0.0, &mut rng);
            evals += 1;
        }
    }
    assert!(evals <= 1, "a set-up decision needs at most the root's evaluation ({evals})");
    if mixture.is_some() {
        assert_eq!(evals, 0, "a layout mixture needs no net");
    }
    let mut counts: Vec<(Action, u32)> = g.state().legal_actions().into_iter().map(|a| (a, 0)).collect();
    for _ in 0..2000 {
        let a = decode(srch.choose(0.0, &mut rng)).expect("a player action");
        counts.iter_mut().find(|c| c.0 == a).expect("a legal choice").1 += 1;
    }
    counts
}

fn count(c: &[(Action, u32)], a: Action) -> u32 {
    c.iter().find(|x| x.0 == a).map_or(0, |x| x.1)
}

#[test]
fn layout_mixture_is_read_and_followed() {
    let m = LayoutMixture::parse(SOLVED).expect("solver output");
    assert!((m.red[0] - 0.7).abs() < 1e-12 && (m.black[9] - 1.0).abs() < 1e-12);
    let e = LayoutMixture::parse("red mixture A:1 Z9:0\nblack mixture A:1").expect_err("unknown layout");
    assert!(e.to_string().contains("Z9"), "{e}");
    assert!(LayoutMixture::parse("red mixture A:1").is_err(), "a side is missing");
    assert!(LayoutMixture::parse("red mixture A:-1\nblack mixture A:1").is_err(), "a negative probability");

    let v = variant("surprise");
    let red = VariantGameState::unbounded(State::new_game(v));
    let c = draws(&red, Some(&m), &|_| 1.0, 1);
    let a = count(&c, Action::Layout { index: 0 });
    assert_eq!(a + count(&c, Action::Layout { index: 1 }), 2000, "only A and B: {c:?}");
    assert!((1300..1500).contains(&a), "A drawn {a} of 2000 at p = 0.7");
    let mut black = red.clone();
    black.play(Action::Layout { index: 4 }, |outs| outs[0].0);
    let c = draws(&black, Some(&m), &|_| 1.0, 2);
    assert_eq!(count(&c, Action::Layout { index: 9 }), 2000, "Black plays C8 only: {c:?}");
    // A mixture of layouts has nothing to say about another set-up decision (§F3 placements).
    let f = VariantGameState::unbounded(State::new_game(variant("fanqi-3")));
    assert!(farm::search::is_setup(&f));
    assert_eq!(m.weights(&f, engine::game::PlayerId::FIRST, &f.legal_actions()), None);
}

#[test]
fn without_a_mixture_the_net_s_priors_choose() {
    let v = variant("surprise");
    let s = VariantGameState::unbounded(State::new_game(v));
    // Slot of layout C3 (index 4) gets weight 8 against 1 for each other: p = 8/17.
    let c3 = s.action_index(encode(Action::Layout { index: 4 })) as u16;
    let c = draws(&s, None, &|x| if x == c3 { 8.0 } else { 1.0 }, 3);
    let n = count(&c, Action::Layout { index: 4 });
    assert!((850..1030).contains(&n), "C3 drawn {n} of 2000 at p = 8/17: {c:?}");
    assert!(c.iter().all(|x| x.1 > 40), "every layout keeps some weight: {c:?}");

    // Owner's-choice Fan-qi placements (§F3) go the same way.
    let f = VariantGameState::unbounded(State::new_game(variant("fanqi-3")));
    assert!(f.state().in_setup());
    let c = draws(&f, None, &|_| 1.0, 4);
    assert!(c.iter().filter(|x| x.1 > 0).count() >= 2, "placements are mixed: {c:?}");
}

#[test]
fn a_set_up_choice_depends_on_the_information_set_only() {
    // Black chooses its layout without seeing Red's (§S2): two states that differ only in Red's
    // secret layout must give the same choices from the same seed.
    let v = variant("surprise");
    let black = engine::game::PlayerId::SECOND;
    for red_layout in 0..10u8 {
        let mut s = VariantGameState::unbounded(State::new_game(v));
        s.play(Action::Layout { index: red_layout }, |outs| outs[0].0);
        let mut other = VariantGameState::unbounded(State::new_game(v));
        other.play(Action::Layout { index: (red_layout + 3) % 10 }, |outs| outs[0].0);
        assert_ne!(s.state().hash(), other.state().hash(), "two different full states");
        assert_eq!(s.turn(), Turn::Player(black));
        assert_eq!(s.infoset_key(black), other.infoset_key(black), "one information set of Black's");
        assert_eq!(s.legal_actions(), other.legal_actions());
        let prior = |x: u16| 1.0 + f32::from(x % 5);
        assert_eq!(draws(&s, None, &prior, 7), draws(&other, None, &prior, 7), "Red layout {red_layout}");
    }
}

#[test]
fn owner_s_choice_fanqi_starts_from_secret_arrangements() {
    let v = variant("fanqi-3");
    let fixed = vfen::write(&State::start(v, None).expect("start"));
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let starts: std::collections::BTreeSet<String> = (0..8).map(|_| vfen::write(&farm::start_state(v, &mut rng))).collect();
    assert!(!starts.contains(&fixed), "a start with every piece on its own point");
    assert!(starts.len() >= 7, "{} distinct arrangements of 8", starts.len());

    // The farm's games let the players arrange (random players here); set-up actions are not
    // counted as plies, so a game still plays `max_plies` moves.
    let cfg = farm::GameConfig { max_plies: 10, concurrent_games: 2, ..Default::default() };
    let jobs: Vec<farm::GameJob> = (0..2)
        .map(|g| farm::GameJob {
            id: g,
            seed: g + 1,
            red: farm::Player::Random,
            black: farm::Player::Random,
            record: false,
            noise: false,
            temperature: 0.0,
            temperature_plies: 0,
        })
        .collect();
    let (results, _) = farm::play(v, &[], jobs, &cfg, |_| {});
    assert_eq!(results.len(), 2);
    for r in &results {
        assert!(r.plies <= 10 && (r.adjudicated || r.plies > 0), "game {}: {} plies, {}", r.id, r.plies, r.reason);
    }
}
