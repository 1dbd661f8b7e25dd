//! Pins the variant search's decisions (issue #17 item 3): whole games of net-guided search on
//! several variants, with tree reuse, root noise, batches and the tactical value mix, folded into
//! one hash of every decision's root visits, root value and chosen action. The constants were
//! measured on the search before it was made generic over `SearchGame`; the variant adapter
//! must reproduce them exactly (same random stream, same trees, same moves).

use engine::variant::game::draw_outcome;
use engine::variant::game_state::VariantGameState;
use engine::variant::{Variant, View};
use farm::search::{Search, SearchConfig};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

fn variant(name: &str) -> &'static Variant {
    engine::any_game::load_variant(name).expect("preset")
}

/// A deterministic function of the observation with uneven priors and values (as in `reuse.rs`).
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

fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x100_0000_01b3).rotate_left(17)
}

/// Plays `games` games of `name` with both sides searching under `cfg` and hashes every decision.
fn play(name: &str, cfg: &SearchConfig, games: u64, plies: usize) -> u64 {
    let v = variant(name);
    let mut h = 0x5151_u64;
    for game in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(1000 + game);
        let mut g = VariantGameState::unbounded(engine::variant::State::new_game(v));
        let mut trees: [Option<Search>; 2] = [None, None];
        for _ in 0..plies {
            if g.outcome().is_some() {
                break;
            }
            let s = g.state().clone();
            let me = s.turn();
            let prev = trees[me.index()].take();
            let mut srch = Search::reuse(prev, View::new(&s, me), s.legal_actions(), cfg, true, g.record(), &mut rng);
            while srch.advance(&mut rng) {
                for i in 0..srch.requests() {
                    let (obs, slots) = srch.request(i);
                    let (p, val) = hashed_eval(obs, slots);
                    srch.deliver(i, &p, val, &mut rng);
                }
            }
            for (_, slot, n) in srch.visits() {
                h = mix(h, (u64::from(slot) << 32) | u64::from(n));
            }
            h = mix(h, u64::from(srch.root_value().to_bits()));
            h = mix(h, u64::from(srch.is_reused()));
            let a = srch.choose(if g.plies() < 6 { 1.0 } else { 0.0 }, &mut rng);
            for b in format!("{a:?}").bytes() {
                h = mix(h, u64::from(b));
            }
            trees[me.index()] = Some(srch);
            g.play(a, |outs| draw_outcome(outs, &mut rng));
        }
    }
    h
}

fn config(sims: u32, batch: u32, value_mix: f32) -> SearchConfig {
    let mut cfg = SearchConfig::with_simulations(sims);
    cfg.batch = batch;
    cfg.value_mix = value_mix;
    cfg
}

#[test]
fn variant_search_decisions_are_pinned() {
    let mut got = Vec::new();
    for (name, cfg) in [
        ("xiangqi", config(24, 1, 0.0)),
        ("jieqi", config(24, 4, 0.0)),
        ("surprise", config(16, 2, 0.0)),
        ("fanqi-3", config(16, 1, 0.3)),
        ("king", config(16, 4, 0.0)),
    ] {
        got.push((name, play(name, &cfg, 3, 60)));
    }
    println!("{got:x?}");
    let want: [(&str, u64); 5] =
        [("xiangqi", 0x17c2_3717_e316_ae25), ("jieqi", 0x4016_6cd3_ec26_4105), ("surprise", 0xb048_36bc_1a09_23f6), ("fanqi-3", 0x9dec_462c_931e_ad5e), ("king", 0x0d6c_bd43_f25d_9bb2)];
    assert_eq!(got, want);
}
