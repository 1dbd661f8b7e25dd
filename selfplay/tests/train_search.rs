//! The farm's PUCT IS-MCTS without a net: with uniform priors and a zero value it must still find
//! a mate in one (terminal values come from the rules), and it must only ever pick legal actions
//! in hidden-information variants, where determinizations differ.

use engine::variant::{State, Variant, View};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use selfplay::farm::search::{Search, SearchConfig};

fn variant(name: &str) -> &'static Variant {
    Box::leak(Box::new(Variant::load(name).expect("preset")))
}

/// Runs a search with uniform priors and value 0 at every leaf.
fn search(s: &State, sims: u32, rng: &mut Pcg64Mcg) -> Search {
    let mut cfg = SearchConfig::with_simulations(sims);
    cfg.dirichlet_fraction = 0.0;
    cfg.root_win_check = false;
    let mut srch = Search::new(View::new(s, s.turn()), s.legal_actions(), &cfg, false, &[s.position().hash()]);
    while srch.advance(rng) {
        let n = srch.request().1.len();
        srch.deliver(&vec![1.0 / n as f32; n], 0.0, rng);
    }
    srch
}

fn mates(s: &State) -> Vec<engine::variant::Action> {
    s.legal_actions().into_iter().filter(|&a| s.child(a).legal_actions().is_empty()).collect()
}

#[test]
fn finds_mate_in_one_without_a_net() {
    let v = variant("xiangqi");
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    let mut found = 0;
    for _ in 0..400 {
        let mut s = State::start(v, None).expect("start");
        for _ in 0..300 {
            let acts = s.legal_actions();
            if acts.is_empty() {
                break;
            }
            let m = mates(&s);
            if !m.is_empty() && m.len() * 4 <= acts.len() {
                let srch = search(&s, 4 * acts.len() as u32, &mut rng);
                let chosen = srch.choose(0.0, &mut rng);
                assert!(m.contains(&chosen), "mate {m:?} missed: chose {chosen:?} in {}", engine::variant::fen::write(&s));
                assert!(srch.root_value() > 0.3, "root value {}", srch.root_value());
                found += 1;
                break;
            }
            s.apply(acts[rng.random_range(0..acts.len())]);
        }
        if found >= 5 {
            break;
        }
    }
    assert!(found >= 3, "only {found} mate-in-one positions found");
}

#[test]
fn picks_legal_actions_under_hidden_information() {
    for name in ["surprise", "jieqi", "fanqi-3", "king", "surprise-negotiation"] {
        let v = variant(name);
        let mut rng = Pcg64Mcg::seed_from_u64(9);
        for game in 0..3 {
            let mut s = selfplay::farm::start_state(v, &mut rng);
            for ply in 0..60 {
                if s.is_chance() {
                    selfplay::farm::search::sample_chance(&mut s, &mut rng);
                }
                let acts = s.legal_actions();
                if acts.is_empty() {
                    break;
                }
                let srch = search(&s, 24, &mut rng);
                let visits: u32 = srch.visits().iter().map(|v| v.2).sum();
                assert!(acts.len() == 1 || visits >= 20, "{name} game {game} ply {ply}: {visits} visits");
                let a = srch.choose(1.0, &mut rng);
                assert!(acts.contains(&a), "{name}: illegal {a:?}");
                s.apply(a);
            }
        }
    }
}

/// Actions after which the opponent has a mating reply.
fn allows_mate(s: &State) -> Vec<engine::variant::Action> {
    s.legal_actions().into_iter().filter(|&a| {
        let c = s.child(a);
        c.legal_actions().into_iter().any(|b| c.child(b).legal_actions().is_empty())
    }).collect()
}

#[test]
fn never_allows_a_mate_in_one_without_a_net() {
    let v = variant("xiangqi");
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let mut found = 0;
    for _ in 0..400 {
        let mut s = State::start(v, None).expect("start");
        for _ in 0..300 {
            let acts = s.legal_actions();
            if acts.is_empty() {
                break;
            }
            let bad = allows_mate(&s);
            if !bad.is_empty() && bad.len() * 2 >= acts.len() && bad.len() < acts.len() && mates(&s).is_empty() {
                // Half the moves or more lose at once; a small uniform search must avoid them all.
                for _ in 0..4 {
                    let srch = search(&s, 8, &mut rng);
                    let chosen = srch.choose(0.0, &mut rng);
                    assert!(!bad.contains(&chosen), "chose {chosen:?}, which allows mate, in {}", engine::variant::fen::write(&s));
                }
                found += 1;
                break;
            }
            s.apply(acts[rng.random_range(0..acts.len())]);
        }
        if found >= 5 {
            break;
        }
    }
    assert!(found >= 3, "only {found} positions found");
}
