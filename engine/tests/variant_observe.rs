//! The game contract's observation and action index on the RULES.md variants
//! ([`engine::observe::Observe`] for [`VariantGameState`], `engine/src/variant/observe.rs`):
//! two states of one information set give one tensor, the action index is injective over the
//! legal actions and inverted by `index_action`, and a board that is not 9x10 is refused.

use std::collections::HashSet;

use engine::attacks::Attacks;
use engine::game::{Game, PlayerId, Turn};
use engine::geometry::Geometry;
use engine::observe::Observe;
use engine::variant::encoding::{self, EncodingError, ACTIONS, OBS_LEN};
use engine::variant::game_state::{GameOptions, Leaf, VariantGameState};
use engine::variant::{config, State, Variant};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn variant(name: &str) -> &'static Variant {
    engine::any_game::load_variant(name).expect("preset")
}

fn game(name: &str, plies: u32) -> VariantGameState {
    VariantGameState::with_options(State::new_game(variant(name)), GameOptions { max_plies: plies, leaf: Leaf::Draw })
}

/// Plays `games` random games of at most `plies` plies from the start of `name` (set-up phase
/// included), calling `visit` on every state before its move or chance outcome.
fn playouts(name: &str, games: usize, plies: u32, seed: u64, visit: &mut dyn FnMut(&VariantGameState, &mut Pcg64Mcg)) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    for _ in 0..games {
        let mut g = game(name, plies);
        loop {
            visit(&g, &mut rng);
            match g.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let outs = g.chance_outcomes();
                    let a = outs[rng.random_range(0..outs.len())].0;
                    g.apply(a);
                }
                Turn::Player(_) => {
                    let acts = g.legal_actions();
                    let a = acts[rng.random_range(0..acts.len())];
                    g.apply(a);
                }
            }
        }
    }
}

/// For `player` at every state of random games: each determinization drawn for `player` (a
/// state of `player`'s information set) has `player`'s key, `player`'s tensor and, where
/// `player` acts, `player`'s legal actions; returns how
/// many determinizations differed from the true state (so the check is not vacuous).
fn one_information_set_one_tensor(name: &str) -> usize {
    let mut differing = 0;
    playouts(name, 3, 60, 17, &mut |g, rng| {
        assert_eq!(g.encoding(), encoding::encoding());
        for player in PlayerId::BOTH {
            let obs = g.observation(player);
            assert_eq!(obs.len(), OBS_LEN);
            let key = g.infoset_key(player);
            for _ in 0..2 {
                let d = g.sample_determinization(player, rng);
                assert_eq!(d.infoset_key(player), key, "{name} {player}: determinization outside the information set at {g:?} ply {} / {d:?}\n{}\n{}", g.plies(), g.infoset_string(player), d.infoset_string(player));
                if g.turn() == Turn::Player(player) {
                    assert_eq!(d.legal_actions(), g.legal_actions(), "{name} {player}: the acting player's actions changed at {g:?} / {d:?}");
                }
                assert!(d.observation(player) == obs, "{name} {player}: one information set, two tensors at {g:?} / {d:?}");
                if d != *g {
                    differing += 1;
                }
            }
        }
    });
    differing
}

#[test]
fn surprise_one_information_set_one_tensor() {
    assert!(one_information_set_one_tensor("surprise") > 0, "no hidden back was ever drawn differently");
}

#[test]
fn jieqi_one_information_set_one_tensor() {
    assert!(one_information_set_one_tensor("jieqi") > 0, "no hidden identity was ever drawn differently");
}

#[test]
fn fanqi_owners_choice_one_information_set_one_tensor() {
    // Mode 9: identities placed by their owners in a secret set-up phase (§F3).
    assert!(one_information_set_one_tensor("fanqi-9") > 0, "no arrangement was ever drawn differently");
}

#[test]
fn action_index_is_injective_and_inverted_over_playouts() {
    for name in ["xiangqi", "surprise", "surprise-negotiation", "jieqi", "fanqi-4", "fanqi-9", "king"] {
        let mut decisions = 0;
        playouts(name, 3, 80, 5, &mut |g, _| {
            let Turn::Player(_) = g.turn() else { return };
            decisions += 1;
            let mut seen = HashSet::new();
            for a in g.legal_actions() {
                let i = g.action_index(a);
                assert!(i < g.encoding().actions() && i < ACTIONS, "{name}: slot {i} of {a} out of range");
                assert!(seen.insert(i), "{name}: two legal actions share slot {i} at {g:?}");
                assert_eq!(g.index_action(i), Some(a), "{name}: slot {i} does not give back {a} at {g:?}");
            }
            assert_eq!(g.index_action(ACTIONS), None);
        });
        assert!(decisions > 30, "{name}: only {decisions} decisions visited");
    }
}

#[test]
fn every_preset_is_encodable_and_another_board_is_refused() {
    for name in config::preset_names() {
        let v = variant(name);
        assert_eq!(encoding::encoding_for(v), Ok(encoding::encoding()), "{name}");
    }
    // No RULES.md variant has another board; make one with an 11x10 geometry to see the refusal.
    let mut v = Variant::load("xiangqi").expect("preset");
    let mut rules = v.rules.clone();
    rules.attacks = Box::leak(Box::new(Attacks::new(&Geometry::new(11, 10))));
    v.rules = Box::leak(Box::new(rules));
    v.name = "wide".into();
    let err = encoding::encoding_for(&v).expect_err("an 11x10 board is not encodable");
    assert_eq!(err, EncodingError::Board { variant: "wide".into(), files: 11, ranks: 10 });
    assert!(err.to_string().contains("wide") && err.to_string().contains("11x10"), "{err}");
}
