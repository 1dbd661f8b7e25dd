//! The farm's search on the RULES-more games through `search::Generic` (#17 item 3): without a
//! net (uniform priors, value 0) it only ever picks legal actions, set-up decisions included, and
//! the game's own end (`Turn::Terminal`, `returns`) makes it find a move that wins at once.

use engine::game::{Game, PlayerId, Turn};
use engine::more::presets::{with_game, Playable, WithGame};
use farm::search::{Search, SearchConfig};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Runs a generic search of the player to act in `g` with uniform priors and value 0.
fn search<G: Playable>(g: &G, sims: u32, rng: &mut Pcg64Mcg) -> Search<farm::search::Generic<G>> {
    let mut cfg = SearchConfig::with_simulations(sims);
    cfg.dirichlet_fraction = 0.0;
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
                    assert!(s.simulations() > 1, "no simulations at a decision");
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
                    let s = search(&g, 4 * acts.len() as u32, &mut rng);
                    let chosen = s.choose(0.0, &mut rng);
                    assert!(wins.contains(&chosen), "win {wins:?} missed: chose {chosen:?} in {}", g.full_fen());
                    assert!(s.root_value() > 0.3, "root value {}", s.root_value());
                    found += 1;
                    break;
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
