//! The generic battery run on every preset (issue #3 item 7): random playouts to the end without
//! panic; full-state FEN and view FEN round-trips; chance probabilities summing to 1; every
//! sampled determinization consistent with the observer's view; information-set keys equal
//! exactly when views are equal.
//!
//! Default: `ANQI_BATTERY_PLAYOUTS` (default 12) playouts per preset. The full battery of
//! issue #3 is `ANQI_BATTERY_PLAYOUTS=10000 cargo test --release -p anqi-engine --test battery`.

use engine::variant::config::preset_names;
use engine::variant::fen as vfen;
use engine::variant::game_state::VariantGameState;
use engine::variant::{State, Variant, View};
use engine::Color;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::collections::HashMap;

fn playouts() -> usize {
    std::env::var("ANQI_BATTERY_PLAYOUTS").ok().and_then(|s| s.parse().ok()).unwrap_or(12)
}

fn check_views(s: &State, rng: &mut Pcg64Mcg, keys: &mut HashMap<u64, String>) {
    let v = s.variant();
    for player in Color::ALL {
        let view = View::new(s, player);
        // Key <-> view: a key seen before must belong to the same view.
        let id = format!("{player:?} {} {}", view.fen(), s.observation_hash(player));
        if let Some(prev) = keys.insert(view.infoset_key(), id.clone()) {
            assert_eq!(prev, id, "two different views share an information-set key");
        }
        // View FEN round-trip.
        let back = View::from_fen(v, view.fen()).unwrap_or_else(|e| panic!("view FEN {:?} does not parse: {e}", view.fen()));
        assert_eq!(back.fen(), view.fen(), "view FEN round-trip of full state {}", vfen::write(s));
        // Determinizations are consistent and give the same view (hence the same key).
        for _ in 0..3 {
            let d = view.sample(rng);
            assert!(view.is_consistent(&d), "sample inconsistent with view {}", view.fen());
            let dv = View::new(&d, player);
            assert!(dv == view, "sample's view differs: {} vs {}", dv.fen(), view.fen());
            assert_eq!(dv.infoset_key(), view.infoset_key());
            // The sample is a playable full state whose FEN parses.
            let f = vfen::write(&d);
            vfen::parse(v, &f).unwrap_or_else(|e| panic!("sampled FEN {f:?} does not parse: {e}"));
        }
    }
}

#[test]
fn battery_every_preset() {
    let n = playouts();
    for name in preset_names() {
        let v: &'static Variant = engine::any_game::load_variant(name).expect("preset");
        let mut rng = Pcg64Mcg::seed_from_u64(0xBA77 ^ name.len() as u64);
        let mut ended = 0;
        for g in 0..n {
            let layouts = ["A", "B", "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8"];
            let pair = (layouts[g % 10], layouts[(g * 7 + 3) % 10]);
            let start = State::start(v, Some(pair)).expect("start");
            let mut game = VariantGameState::unbounded(start);
            let mut keys = HashMap::new();
            for ply in 0..400 {
                let s = game.state().clone();
                // Full-state FEN round-trip.
                let f = vfen::write(&s);
                let parsed = vfen::parse(v, &f).unwrap_or_else(|e| panic!("{name}: FEN {f:?} does not parse: {e}"));
                assert_eq!(vfen::write(&parsed), f, "{name}: FEN round-trip");
                if ply % 7 == 0 {
                    check_views(&s, &mut rng, &mut keys);
                }
                if game.outcome().is_some() {
                    ended += 1;
                    break;
                }
                let acts = s.legal_actions();
                assert!(!acts.is_empty());
                let a = acts[rng.random_range(0..acts.len())];
                let mut chance_seen = false;
                game.play(a, |outs| {
                    chance_seen = true;
                    let total: f64 = outs.iter().map(|(_, p)| p).sum();
                    assert!((total - 1.0).abs() < 1e-9, "{name}: chance probabilities sum to {total}");
                    outs[rng.random_range(0..outs.len())].0
                });
                let _ = chance_seen;
            }
        }
        assert!(ended > 0 || n < 3, "{name}: no playout ended within 400 plies");
    }
}
