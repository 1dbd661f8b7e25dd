//! IS-MCTS pinned (issue #17 item 1): the one IS-MCTS (`engine::search::ismcts`, after Cowling,
//! Powley and Whitehouse 2012) serves the variants and every `Scored` game; making it generic
//! must not change what it does on the variants. This test fingerprints, for fixed seeds over
//! random positions of four variants, the analyses (actions, visits, mean scores, nodes) of SO
//! and MO IS-MCTS with and without rollouts, and of PIMC with the `mcts` inner search (which calls
//! the same search), and compares the fingerprint with the one the search produced before it was
//! made generic.
//!
//! A deliberate change of the search, the evaluation or the move generation changes the
//! fingerprint: check the new behaviour, then update `PINNED` with the printed value.

use engine::search;
use engine::variant::game_state::VariantGameState;
use engine::variant::{State, Variant};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The fingerprint of the variant searches before the generic rewrite.
const PINNED: u64 = 0x20dcd0a0144cfa8c;

/// The searches pinned, with the hand-written evaluation (`eval=none`: since issue #36 IS-MCTS
/// takes the family's learned evaluation at its leaves by default in xiangqi and Jieqi).
const SPECS: [&str; 4] = ["ismcts:iterations=150,eval=none", "ismcts:iterations=150,mode=mo,rollout=6,eval=none", "ismcts:iterations=120,c=1.2,mode=so,rollout=3,horizon=8,eval=none", "pimc:k=2,search=mcts:iterations=60,eval=none"];

fn random_position(v: &'static Variant, plies: usize, rng: &mut Pcg64Mcg) -> Option<State> {
    let mut game = VariantGameState::unbounded(State::new_game(v));
    for _ in 0..rng.random_range(0..=plies) {
        if game.outcome().is_some() {
            return None;
        }
        let acts = game.state().legal_actions();
        let a = acts[rng.random_range(0..acts.len())];
        game.play(a, |outs| outs[rng.random_range(0..outs.len())].0);
    }
    let s = game.state();
    (game.outcome().is_none() && !s.is_chance() && !s.in_setup() && s.legal_actions().len() >= 2).then(|| s.clone())
}

fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x0100_0000_01b3).rotate_left(17)
}

#[test]
fn variant_ismcts_analyses_are_pinned() {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut decisions = 0;
    for name in ["surprise", "jieqi", "fanqi-9", "xiangqi"] {
        let v: &'static Variant = engine::any_game::load_variant(name).expect("preset");
        let mut rng = Pcg64Mcg::seed_from_u64(31);
        let mut positions = 0;
        while positions < 5 {
            let Some(s) = random_position(v, 50, &mut rng) else { continue };
            for (i, spec) in SPECS.iter().enumerate() {
                let an = engine::search::game_bot::analyse_variant(search::from_spec::<VariantGameState>(spec, 11 + i as u64).expect("spec").as_mut(), &VariantGameState::new(s.clone()));
                let line: String = an.stats.iter().map(|st| format!("{:?}/{}/{:.9};", st.action, st.visits, st.score)).collect();
                // Fed under the spec text of the time the fingerprint was pinned (no `eval=none`).
                let label = spec.trim_end_matches(",eval=none");
                let text = format!("{name} {label} best={:?} work={} nodes={} {line}", an.best, an.work, an.nodes);
                if std::env::var_os("ANQI_PIN_VERBOSE").is_some() {
                    println!("{text}");
                }
                for b in text.bytes() {
                    h = mix(h, b as u64);
                }
                decisions += 1;
            }
            positions += 1;
        }
    }
    println!("fingerprint {h:#018x} over {decisions} analyses");
    assert_eq!(h, PINNED, "the variant IS-MCTS analyses changed (fingerprint {h:#018x})");
}
