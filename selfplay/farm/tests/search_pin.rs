//! Pins the one search's decisions on the RULES.md variants (issue #17 item 3):
//! `Search<Generic<VariantGameState>>` playing whole games of net-guided search on several
//! variants, with tree reuse (`Search::reuse_generic`), root noise, batches, set-up decisions
//! (`farm::search::is_setup`) and the tactical value mix, folded into one hash of every
//! decision's root visits, root value, whether the tree was reused, and chosen action.
//!
//! Re-pinned for the one search (the successor of commit f933bf09, which deleted the
//! variant-only adapter `VariantSearch` that the earlier constants were measured on). The
//! generic search decides lines and nodes differently from that adapter: children and the reused
//! root are keyed by the root player's information-set key (`Game::infoset_key`; the adapter
//! keyed them by the public hash and reused along the public record), and chance is resolved
//! through the game (`resolve_chance`), so its trees and decisions differ and the old constants
//! could not hold. A repetition ends a simulated line at once, as in the adapter, by the game's
//! search rule (`Scored::search_repetition`: `VariantGameState::repeat_in_search` over the game's
//! record and the line). Jieqi's and King's constants are the same with and without that rule
//! (their games met no repetition inside a tree).
//! Any later change to these constants is a change to the search's decisions.

use engine::game::{Game, Turn};
use engine::variant::game::draw_outcome;
use engine::variant::game_state::{color_of, decode, VariantGameState};
use engine::variant::Variant;
use farm::search::{Generic, Search, SearchConfig};
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
        let mut trees: [Option<Search<Generic<VariantGameState>>>; 2] = [None, None];
        for _ in 0..plies {
            let Turn::Player(p) = g.turn() else { break };
            let me = color_of(p);
            let prev = trees[me.index()].take();
            let setup = farm::search::is_setup(&g);
            let mut srch = Search::reuse_generic(prev, g.clone(), setup, cfg, true, &mut rng).expect("a player's turn");
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
            let a = decode(srch.choose(if g.plies() < 6 { 1.0 } else { 0.0 }, &mut rng)).expect("a player action");
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
        [("xiangqi", 0x17c2_3717_e316_ae25), ("jieqi", 0xde7d_c286_5836_ca2b), ("surprise", 0xa616_51f7_c4a9_33c9), ("fanqi-3", 0x3b81_c29d_d402_46c1), ("king", 0x0d6c_bd43_f25d_9bb2)];
    assert_eq!(got, want);
}
