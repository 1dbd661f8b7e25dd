//! The farm's search on the RULES-more games through `search::Generic` (#17 item 3): without a
//! net (uniform priors, value 0) it only ever picks legal actions, set-up decisions included, and
//! the game's own end (`Turn::Terminal`, `returns`) makes it find a move that wins at once, which
//! the root's win check (the contract's `Scored::root_win`, by default the generic win in one,
//! `engine::search::root_win::generic_win`) plays without simulations.

use engine::game::{Game, PlayerId, Turn};
use engine::more::presets::{with_game, Playable, WithGame};
use farm::search::{Search, SearchConfig};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Runs a generic search of the player to act in `g` with uniform priors and value 0.
fn search<G: Playable>(g: &G, sims: u32, rng: &mut Pcg64Mcg) -> Search<farm::search::Generic<G>> {
    search_with(g, sims, true, rng)
}

/// [`search`] with the root's win-in-one check on or off.
fn search_with<G: Playable>(g: &G, sims: u32, win_check: bool, rng: &mut Pcg64Mcg) -> Search<farm::search::Generic<G>> {
    let mut cfg = SearchConfig::with_simulations(sims);
    cfg.dirichlet_fraction = 0.0;
    cfg.root_win_check = win_check;
    let mut s = Search::generic(g.clone(), g.in_setup(), &cfg, false).expect("a player's turn");
    while s.advance(rng) {
        for i in 0..s.requests() {
            let n = s.request(i).1.len();
            s.deliver(i, &vec![1.0 / n as f32; n], 0.0, rng);
        }
    }
    s
}

fn random_step<G: Game>(g: &mut G, rng: &mut Pcg64Mcg) {
    farm::search::resolve_chance(g, rng);
    let acts = g.legal_actions();
    if !acts.is_empty() {
        g.apply(acts[rng.random_range(0..acts.len())]);
    }
}

struct LegalOnly;
impl WithGame for LegalOnly {
    type Output = (u32, u32);
    fn run<G: Playable>(self, start: G) -> (u32, u32) {
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let (mut decisions, mut setups) = (0, 0);
        for _ in 0..2 {
            let mut g = start.clone();
            for _ in 0..40 {
                farm::search::resolve_chance(&mut g, &mut rng);
                let Turn::Player(_) = g.turn() else { break };
                let legal = g.legal_actions();
                let s = search(&g, 12, &mut rng);
                let a = s.choose(0.0, &mut rng);
                assert!(legal.contains(&a), "illegal {a:?}");
                assert_eq!(s.request_obs().len() % g.encoding().obs_len(), 0);
                if g.in_setup() {
                    setups += 1;
                } else if legal.len() > 1 {
                    // Only a win in one, played at once by the root check, needs no simulation.
                    let won = s.root_visits() == 1 && s.root_value() == 1.0;
                    assert!(s.simulations() > 1 || won, "no simulations at a decision");
                }
                decisions += 1;
                g.apply(a);
            }
        }
        (decisions, setups)
    }
}

#[test]
fn picks_legal_actions_in_every_more_game() {
    for name in ["missile", "skill", "camel-5", "missile-hidden-5-down", "skill-secret"] {
        let (decisions, setups) = with_game(name, None, LegalOnly).expect("preset");
        assert!(decisions >= 20, "{name}: {decisions} decisions");
        eprintln!("{name}: {decisions} decisions, {setups} set-up");
    }
}

struct WinsAtOnce;
impl WithGame for WinsAtOnce {
    type Output = usize;
    fn run<G: Playable>(self, start: G) -> usize {
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let mut found = 0;
        for _ in 0..300 {
            let mut g = start.clone();
            for _ in 0..300 {
                farm::search::resolve_chance(&mut g, &mut rng);
                let Turn::Player(me) = g.turn() else { break };
                let acts = g.legal_actions();
                let wins: Vec<_> = acts.iter().copied().filter(|&a| wins(&g.child(a), me)).collect();
                if !g.in_setup() && !wins.is_empty() && wins.len() * 4 <= acts.len() {
                    // The tree alone finds it (the root check off) ...
                    let s = search_with(&g, 4 * acts.len() as u32, false, &mut rng);
                    let chosen = s.choose(0.0, &mut rng);
                    assert!(wins.contains(&chosen), "win {wins:?} missed: chose {chosen:?} in {}", g.full_fen());
                    assert!(s.root_value() > 0.3, "root value {}", s.root_value());
                    // ... and the generic win-in-one check plays it at once, without simulations.
                    let s = search_with(&g, 4 * acts.len() as u32, true, &mut rng);
                    let chosen = s.choose(0.0, &mut rng);
                    assert!(wins.contains(&chosen), "root check missed {wins:?}: chose {chosen:?} in {}", g.full_fen());
                    assert_eq!((s.simulations(), s.root_visits(), s.root_value()), (0, 1, 1.0));
                    let i = engine::search::root_win::generic_win(&g, me, &acts, &mut rng).expect("a win in one");
                    assert!(wins.contains(&acts[i]));
                    found += 1;
                    break;
                }
                // No win in one here: the check finds none.
                if !g.in_setup() && wins.is_empty() {
                    assert_eq!(engine::search::root_win::generic_win(&g, me, &acts, &mut rng), None, "{}", g.full_fen());
                }
                random_step(&mut g, &mut rng);
            }
            if found >= 3 {
                break;
            }
        }
        found
    }
}

fn wins<G: Game>(g: &G, me: PlayerId) -> bool {
    g.turn() == Turn::Terminal && g.returns(me) > 0.0
}

#[test]
fn finds_a_win_in_one_without_a_net() {
    for name in ["missile", "skill"] {
        let found = with_game(name, None, WinsAtOnce).expect("preset");
        assert!(found >= 2, "{name}: only {found} positions with a win in one");
    }
}

/// Searches with value 0 and priors that favour the first legal action (0.9; so that the tree
/// grows deep along a line) for the player to act in `g`, taking over `prev`.
fn search_reusing<G: Playable>(prev: Option<Search<farm::search::Generic<G>>>, g: &G, sims: u32, rng: &mut Pcg64Mcg) -> Search<farm::search::Generic<G>> {
    let mut cfg = SearchConfig::with_simulations(sims);
    cfg.dirichlet_fraction = 0.0;
    let mut s = Search::reuse_generic(prev, g.clone(), g.in_setup(), &cfg, false, rng).expect("a player's turn");
    while s.advance(rng) {
        for i in 0..s.requests() {
            let n = s.request(i).1.len();
            let mut p = vec![0.1 / n as f32; n];
            p[0] += 0.9;
            s.deliver(i, &p, 0.0, rng);
        }
    }
    s
}

/// Tree reuse by information-set key: the first player searches, plays its choice, and the
/// opponent answers with the reply the first player's tree visited most (so that the line is in
/// the tree); the first player's next search then starts from that node with exactly the visits
/// the old tree had there, and still chooses a legal action. Returns (decisions, reused).
struct Reuses;
impl WithGame for Reuses {
    type Output = (u32, u32);
    fn run<G: Playable>(self, start: G) -> (u32, u32) {
        let mut rng = Pcg64Mcg::seed_from_u64(8);
        let (mut decisions, mut reused) = (0, 0);
        let mut g = start.clone();
        let mut prev: Option<Search<farm::search::Generic<G>>> = None;
        let mut expect: Option<u32> = None;
        for _ in 0..40 {
            let Turn::Player(me) = g.turn() else { break };
            let s = search_reusing(prev.take(), &g, 64, &mut rng);
            if let Some(v) = expect.take() {
                assert!(s.is_reused(), "the line was in the tree ({v} visits) but not reused");
                assert_eq!(s.reused_visits(), v);
                reused += 1;
            }
            let a = s.choose(0.0, &mut rng);
            assert!(g.legal_actions().contains(&a), "illegal {a:?}");
            decisions += 1;
            let setup = g.in_setup();
            g.apply(a);
            let Turn::Player(opp) = g.turn() else { break };
            if opp == me || setup || g.in_setup() {
                // Set-up decisions are drawn without a tree: nothing to keep.
                let replies = g.legal_actions();
                g.apply(replies[rng.random_range(0..replies.len())]);
                continue;
            }
            // The reply the tree visited most, and the visits of the node it leads to.
            let k1 = g.infoset_key(me);
            let best = g
                .legal_actions()
                .into_iter()
                .filter_map(|r| {
                    let c = g.child(r);
                    let v = s.visits_along(&[(a, k1), (r, c.infoset_key(me))])?;
                    Some((v, r))
                })
                .max_by_key(|&(v, _)| v);
            let Some((v, r)) = best else {
                let replies = g.legal_actions();
                g.apply(replies[rng.random_range(0..replies.len())]);
                continue;
            };
            g.apply(r);
            if g.turn() == Turn::Player(me) && v > 0 {
                expect = Some(v);
            }
            prev = Some(s);
        }
        (decisions, reused)
    }
}

#[test]
fn reuse_keeps_the_visits_of_the_line_played_in_every_more_game() {
    for name in ["missile", "skill", "camel-5", "missile-hidden-5-down", "skill-secret"] {
        let (decisions, reused) = with_game(name, None, Reuses).expect("preset");
        eprintln!("{name}: {decisions} decisions, {reused} reused with the old tree's visits");
        assert!(decisions >= 5 && reused >= 3, "{name}: {decisions} decisions, {reused} reused");
    }
}

/// The leaf value the net search mixes in (`SearchConfig::value_mix`) is every game's, not the
/// variants' alone: off at `value_mix = 0`; on a RULES.md variant the generic search's value is
/// the variants' expectimax's (`Expectimax::leaf_value` on the typed `State`, as the deleted
/// `VariantSearch` mixed it: a mate ±1, else `0.9 tanh(cp / value_scale_cp)`), position for
/// position (the game's `Scored::leaf_searcher` is the variants' expectimax); on a RULES-more game
/// a value in [-1, 1] that sees material.
#[test]
fn generic_leaf_value_is_every_games_and_the_variants_own() {
    use engine::search::expectimax::{Expectimax, ExpectimaxConfig, MATE};
    use engine::variant::game_state::VariantGameState;
    use engine::variant::State;
    use farm::search::{Generic, SearchGame};
    let mut cfg = SearchConfig::with_simulations(8);
    let v = engine::any_game::load_variant("jieqi").expect("jieqi");
    let mut rng = Pcg64Mcg::seed_from_u64(4);
    let mut g = VariantGameState::unbounded(State::start(v, None).expect("start"));
    let mut compared = 0;
    while compared < 12 && g.outcome().is_none() {
        let acts = g.state().legal_actions();
        g.play(acts[rng.random_range(0..acts.len())], |outs| engine::variant::game::draw_outcome(outs, &mut rng));
        if g.state().is_chance() || g.outcome().is_some() {
            continue;
        }
        let mut generic = Generic::new(g.clone(), false).expect("a player's turn");
        cfg.value_mix = 0.0;
        assert_eq!(generic.leaf_tactics(&g, &cfg), None, "off at value_mix 0");
        cfg.value_mix = 0.75;
        cfg.value_depth = (compared % 2) as u32;
        let a = generic.leaf_tactics(&g, &cfg).expect("on");
        // The variants' own leaf search, configured as the net search configures its leaf searcher.
        let mut x = Expectimax::new(ExpectimaxConfig { depth: cfg.value_depth, qdepth: 4, nodes: Some(20_000), ms: None, samples: 1, ..ExpectimaxConfig::default() });
        let cp = x.leaf_value(g.state());
        let own = if cp.abs() >= MATE - 1_000.0 { cp.signum() as f32 } else { 0.9 * (cp as f32 / cfg.value_scale_cp.max(1.0)).tanh() };
        assert_eq!(a, own, "the variants' leaf value at ply {}", g.plies());
        assert!((-1.0..=1.0).contains(&a));
        compared += 1;
    }
    assert_eq!(compared, 12);
    struct Leaf;
    impl WithGame for Leaf {
        type Output = f32;
        fn run<G: Playable>(self, g: G) -> f32 {
            let mut cfg = SearchConfig::with_simulations(8);
            cfg.value_mix = 1.0;
            Generic::new(g.clone(), false).expect("a player's turn").leaf_tactics(&g, &cfg).expect("on")
        }
    }
    // Missile xiangqi after its set-up: level material, a value near 0 and within bounds.
    let at_start = engine::any_game::with_any_game("missile", engine::any_game::Start::AfterSetup { layouts: None }, Leaf).expect("missile");
    assert!(at_start.abs() < 0.5, "{at_start}");
}
