//! The one search's chance keying and in-search batching (issue #14 item 2), on the RULES.md
//! variants through `Search<Generic<VariantGameState>>`: children of an edge are kept apart by
//! the root player's information-set key after it (`Game::infoset_key`; a Jieqi reveal's type
//! is part of it), a batch of leaves per net call keeps the statistics exact (every virtual loss
//! taken back), and both hold on one information set (two full states with the same view, drawn
//! by `Game::sample_determinization`, search alike given the same seed).

use engine::game::{Game, PlayerId, Turn};
use engine::variant::game_state::VariantGameState;
use engine::variant::{State, Variant};
use engine::Role;
use farm::search::{Generic, Search, SearchConfig};
use models::encoding::{OBS_LEN, P_OPP, P_OPP_DOWN, POINTS};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

type VariantSearch = Search<Generic<VariantGameState>>;

fn variant(name: &str) -> &'static Variant {
    engine::any_game::load_variant(name).expect("preset")
}

/// A made-up net: for the player to act, -0.9 when the opponent shows a face-up chariot, else 0.5;
/// uniform priors. Reads the observation only, as the net does.
fn chariot_eval(obs: &[f32], slots: &[u16]) -> (Vec<f32>, f32) {
    assert_eq!(obs.len(), OBS_LEN);
    let chariot = (P_OPP + Role::Chariot.index()) * POINTS;
    let shown = (0..POINTS).any(|p| obs[chariot + p] > 0.5 && obs[P_OPP_DOWN * POINTS + p] < 0.5);
    (vec![1.0 / slots.len() as f32; slots.len()], if shown { -0.9 } else { 0.5 })
}

/// A deterministic function of the observation with uneven priors and values, so that two
/// searches agree only if they see the same observations in the same order.
fn hashed_eval(obs: &[f32], slots: &[u16]) -> (Vec<f32>, f32) {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, &x) in obs.iter().enumerate() {
        if x != 0.0 {
            h = (h ^ (i as u64) ^ u64::from(x.to_bits())).wrapping_mul(0x100_0000_01b3);
        }
    }
    let mut priors: Vec<f32> = slots.iter().map(|&s| 1.0 + ((h ^ u64::from(s)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 60) as f32).collect();
    let sum: f32 = priors.iter().sum();
    priors.iter_mut().for_each(|p| *p /= sum);
    (priors, ((h >> 11) as f64 / (1u64 << 53) as f64 * 1.6 - 0.8) as f32)
}

fn run(g: &VariantGameState, cfg: &SearchConfig, seed: u64, eval: fn(&[f32], &[u16]) -> (Vec<f32>, f32)) -> VariantSearch {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut srch = Search::generic(g.clone(), farm::search::is_setup(g), cfg, false).expect("a player's turn");
    while srch.advance(&mut rng) {
        assert!(srch.requests() <= cfg.batch.max(1) as usize);
        assert_eq!(srch.request_obs().len(), srch.requests() * OBS_LEN);
        for i in 0..srch.requests() {
            let (obs, slots) = srch.request(i);
            let (p, v) = eval(obs, slots);
            srch.deliver(i, &p, v, &mut rng);
        }
    }
    srch
}

fn config(sims: u32, batch: u32) -> SearchConfig {
    let mut cfg = SearchConfig::with_simulations(sims);
    cfg.dirichlet_fraction = 0.0;
    cfg.batch = batch;
    cfg
}

#[test]
fn a_reveal_s_outcomes_get_children_of_their_own() {
    let v = variant("jieqi");
    let g = VariantGameState::unbounded(State::start(v, None).expect("start"));
    let srch = run(&g, &config(3000, 8), 1, chariot_eval);
    let mut split = 0;
    for (a, _, n) in srch.visits() {
        let kids = srch.outcome_children(a);
        if n == 0 {
            continue;
        }
        // A root move turns up a face-down piece (all but the general's): at most the six types
        // of Red's pool, each one information set of Red's.
        assert!(!kids.is_empty() && kids.len() <= 6, "{a:?}: {} children", kids.len());
        let mut keys: Vec<u64> = kids.iter().map(|k| k.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), kids.len(), "{a:?}: two children with one key");
        // The key is Red's information set after the move and its reveal: every child's key is
        // the one `Game::infoset_key` gives there for one of the outcomes (the only one where
        // the move reveals nothing, as the general's).
        let mut after = g.clone();
        after.apply(a);
        let outcomes = if after.turn().is_chance() { after.chance_outcomes().into_iter().map(|o| Some(o.0)).collect() } else { vec![None] };
        let mut seen: Vec<u64> = outcomes
            .into_iter()
            .map(|o| {
                let mut after = after.clone();
                if let Some(o) = o {
                    after.apply(o);
                }
                assert_eq!(after.turn(), Turn::Player(PlayerId::SECOND));
                after.infoset_key(PlayerId::FIRST)
            })
            .collect();
        seen.sort_unstable();
        seen.dedup();
        assert!(keys.iter().all(|k| seen.binary_search(k).is_ok()), "{a:?}: a child key that is no information set of Red's after it");
        let chariot: Vec<_> = kids.iter().filter(|k| k.value < 0.0).collect();
        let other: Vec<_> = kids.iter().filter(|k| k.value > 0.0).collect();
        for k in &chariot {
            assert_eq!(k.value, -0.9);
            // Below a chariot reveal every leaf is bad for Black: nothing from the other reveals
            // is mixed in.
            assert!(k.visits == 0 || k.q < 0.0, "{a:?}: chariot child q {} over {} visits", k.q, k.visits);
        }
        if !chariot.is_empty() && !other.is_empty() {
            split += 1;
        }
        assert_eq!(kids.iter().map(|k| k.visits + 1).sum::<u32>(), n, "{a:?}: children's visits (each child's own evaluation counts one)");
    }
    assert!(split >= 5, "only {split} root moves hold a chariot reveal apart from the others");
}

#[test]
fn batched_statistics_are_exact() {
    let v = variant("xiangqi");
    let g = VariantGameState::unbounded(State::start(v, None).expect("start"));
    for batch in [1, 4, 16] {
        let srch = run(&g, &config(300, batch), 2, hashed_eval);
        let visits: u32 = srch.visits().iter().map(|x| x.2).sum();
        // The root's own evaluation is a simulation without an edge.
        assert_eq!(visits + 1, srch.simulations(), "batch {batch}");
        assert_eq!(srch.simulations(), 300, "batch {batch}");
        assert!(srch.root_value().abs() <= 1.0, "batch {batch}: root value {}", srch.root_value());
    }
}

#[test]
fn one_information_set_one_search_with_batches_and_reveals() {
    for name in ["jieqi", "surprise", "fanqi-3"] {
        let v = variant(name);
        let mut rng = Pcg64Mcg::seed_from_u64(21);
        let (mut checked, mut differ) = (0, 0usize);
        while checked < 6 {
            let mut g = VariantGameState::unbounded(farm::start_state(v, &mut rng));
            for _ in 0..rng.random_range(0..30) {
                farm::search::resolve_chance(&mut g, &mut rng);
                let acts = g.legal_actions();
                if acts.is_empty() {
                    break;
                }
                g.apply(acts[rng.random_range(0..acts.len())]);
            }
            let Turn::Player(me) = g.turn() else { continue };
            if g.legal_actions().len() < 2 {
                continue;
            }
            // Another full state of the same information set, with the same public record.
            let d = g.sample_determinization(me, &mut rng);
            assert_eq!(d.infoset_key(me), g.infoset_key(me), "{name}: a determinization of another information set");
            assert_eq!(d.legal_actions(), g.legal_actions(), "{name}: legal actions are public");
            differ += usize::from(d.state().hash() != g.state().hash());
            let a = run(&g, &config(200, 8), 9, hashed_eval);
            let b = run(&d, &config(200, 8), 9, hashed_eval);
            assert_eq!(a.visits(), b.visits(), "{name}: visits differ in one information set");
            for (act, _, _) in a.visits() {
                let keys = |x: &VariantSearch| x.outcome_children(act).iter().map(|k| (k.key, k.visits)).collect::<Vec<_>>();
                assert_eq!(keys(&a), keys(&b), "{name}: children differ in one information set");
            }
            checked += 1;
        }
        // Jieqi draws a face-down piece's type at its reveal (§P2): its full state hides nothing
        // until a face-down piece is captured unseen, so its determinizations are mostly the
        // true state; the layouts of Surprise and the arrangements of Fan-qi are hidden in it.
        eprintln!("{name}: {differ} of {checked} determinizations differ from the true state");
        if name != "jieqi" {
            assert!(differ > 0, "{name}: every determinization was the true state: the test shows nothing");
        }
    }
}
