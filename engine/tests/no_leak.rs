//! The no-leak battery (issue 13 item 8, DEVELOPERS.md "information security"): for every preset
//! with hidden information, RULES.md and RULES-more.md alike, over 50 random positions each, two
//! full states in one information set of the player to move (the true state and a determinization
//! of its view) give that player identical view FENs, information-set keys, legal actions,
//! determinization streams and choices of every non-oracle bot with the same seed. Only the
//! oracles may differ, and the battery shows that they do. (The `net:` bot and the bytes sent to a
//! UCI engine are checked in `selfplay/tests/no_leak.rs`.)

use engine::game::{PlayerId, Turn};
use engine::more::presets::{with_game, Playable, WithGame};
use engine::search;
use engine::variant::game_state::VariantGameState;
use engine::variant::{fen as vfen, Family, State, Variant, View};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

const POSITIONS: usize = 50;

/// The view-playing bots of the variants, with small budgets; each search also with the learned
/// evaluation (issue #36: `eval=zoo:jieqi` in every hidden preset, not only Jieqi's own).
const VARIANT_BOTS: [&str; 10] = [
    "random",
    "greedy",
    "expectimax:depth=1,qdepth=1",
    "pimc:k=2,search=expectimax:depth=1,qdepth=1",
    "ismcts:iterations=40",
    "pimc:search=alphabeta:depth=3",
    "expectimax:depth=1,qdepth=1,eval=zoo:jieqi",
    "ismcts:iterations=40,eval=zoo:jieqi",
    "pimc:search=alphabeta:depth=3,eval=zoo:jieqi",
    "noisy:p=0.5,search=ismcts:iterations=40",
];
/// The view-playing bots of the RULES-more.md games (IS-MCTS in both its single- and
/// multiple-observer forms: the one search of `engine::search::ismcts`).
const MORE_BOTS: [&str; 8] = [
    "random",
    "greedy",
    "pimc:k=2,depth=1",
    "ismcts:iterations=40",
    "ismcts:iterations=40,mode=mo,rollout=4",
    "pimc:k=2,search=mcts:iterations=30",
    "pimc:k=2,ties=random,depth=1",
    "noisy:p=0.5,search=pimc:k=2,depth=1",
];

fn variant(name: &str) -> &'static Variant {
    Box::leak(Box::new(Variant::load(name).unwrap_or_else(|e| panic!("{name}: {e}"))))
}

/// A position after a random number (up to `plies`) of random actions from the set-up, at a
/// decision with at least two legal actions.
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
    // Set-up decisions (a secret layout, an owner's placement) are made from the legal list alone
    // (engine::search::setup_choice); the battery looks at the play after them.
    (game.outcome().is_none() && !s.is_chance() && !s.in_setup() && s.legal_actions().len() >= 2).then(|| s.clone())
}

#[test]
fn no_leak_rules_md_presets() {
    let hidden: Vec<&str> = engine::variant::config::preset_names().filter(|n| matches!(variant(n).family, Family::Surprise | Family::Fanqi)).collect();
    assert!(hidden.len() >= 12, "{hidden:?}");
    for name in hidden {
        let v = variant(name);
        let mut rng = Pcg64Mcg::seed_from_u64(13);
        let (mut positions, mut oracle_differs, mut truth_differs) = (0, 0, 0);
        while positions < POSITIONS {
            let Some(s) = random_position(v, 60, &mut rng) else { continue };
            let me = s.turn();
            let view = View::new(&s, me);
            let d = view.sample(&mut rng);
            truth_differs += usize::from(vfen::write(&d) != vfen::write(&s));
            let dv = View::new(&d, me);
            let at = vfen::write(&s);
            assert_eq!(dv.fen(), view.fen(), "{name}: view FEN of {at}");
            assert_eq!(dv.infoset_key(), view.infoset_key(), "{name}: key of {at}");
            assert_eq!(d.legal_actions(), s.legal_actions(), "{name}: legal actions of {at}");
            for k in 0..3 {
                let a = vfen::write(&view.sample(&mut Pcg64Mcg::seed_from_u64(k)));
                let b = vfen::write(&dv.sample(&mut Pcg64Mcg::seed_from_u64(k)));
                assert_eq!(a, b, "{name}: determinization stream {k} of {at}");
            }
            for spec in VARIANT_BOTS {
                let a1 = search::from_spec::<VariantGameState>(spec, 5).expect("spec").choose(&VariantGameState::new(s.clone()));
                let a2 = search::from_spec::<VariantGameState>(spec, 5).expect("spec").choose(&VariantGameState::new(d.clone()));
                assert_eq!(a1, a2, "{name}: {spec} chose differently in two states of one information set: {at}");
            }
            let o1 = search::from_spec::<VariantGameState>("oracle:depth=1,qdepth=1", 5).expect("spec").choose(&VariantGameState::new(s.clone()));
            let o2 = search::from_spec::<VariantGameState>("oracle:depth=1,qdepth=1", 5).expect("spec").choose(&VariantGameState::new(d.clone()));
            oracle_differs += usize::from(o1 != o2);
            positions += 1;
        }
        eprintln!("{name}: {positions} positions, hidden part differed in {truth_differs}, the oracle's choice in {oracle_differs}");
    }
}

/// The oracles read the full state: over hidden presets their choice follows the truth in some
/// positions (so the battery above would catch a bot that did).
#[test]
fn no_leak_oracles_do_see_the_hidden_truth() {
    let mut differs = 0;
    for name in ["surprise", "jieqi", "fanqi-9"] {
        let v = variant(name);
        let mut rng = Pcg64Mcg::seed_from_u64(21);
        let mut here = 0;
        for _ in 0..2 * POSITIONS {
            let Some(s) = random_position(v, 60, &mut rng) else { continue };
            let d = View::new(&s, s.turn()).sample(&mut rng);
            for spec in ["alphabeta:depth=2", "oracle:depth=2"] {
                let o1 = search::from_spec::<VariantGameState>(spec, 5).expect("spec").choose(&VariantGameState::new(s.clone()));
                let o2 = search::from_spec::<VariantGameState>(spec, 5).expect("spec").choose(&VariantGameState::new(d.clone()));
                here += usize::from(o1 != o2);
            }
        }
        eprintln!("{name}: the oracles' choices followed the hidden part {here} times");
        differs += here;
    }
    assert!(differs > 0, "the oracles never used the hidden information");
}

/// The RULES-more.md presets with a hidden set-up or face-down pieces.
struct MoreBattery(&'static str);

impl WithGame for MoreBattery {
    type Output = (usize, usize);
    fn run<G: Playable>(self, start: G) -> (usize, usize) {
        let name = self.0;
        let mut rng = Pcg64Mcg::seed_from_u64(17);
        let (mut positions, mut truth_differs) = (0, 0);
        let mut tries = 0;
        while positions < POSITIONS && tries < 20 * POSITIONS {
            tries += 1;
            let mut g = start.clone();
            for _ in 0..rng.random_range(0..=60) {
                if !matches!(g.turn(), Turn::Player(_)) {
                    break;
                }
                let acts = g.legal_actions();
                g.apply(acts[rng.random_range(0..acts.len())]);
            }
            let Turn::Player(p) = g.turn() else { continue };
            if g.legal_actions().len() < 2 {
                continue;
            }
            let d = g.sample_determinization(p, &mut rng);
            truth_differs += usize::from(d.full_fen() != g.full_fen());
            let at = g.full_fen();
            assert_eq!(d.infoset_key(p), g.infoset_key(p), "{name}: key of {at}");
            let c = if p == PlayerId::FIRST { engine::Color::Red } else { engine::Color::Black };
            assert_eq!(d.view_fen(c), g.view_fen(c), "{name}: view FEN of {at}");
            assert_eq!(d.legal_actions(), g.legal_actions(), "{name}: legal actions of {at}");
            for k in 0..3 {
                let a = g.sample_determinization(p, &mut Pcg64Mcg::seed_from_u64(k)).full_fen();
                let b = d.sample_determinization(p, &mut Pcg64Mcg::seed_from_u64(k)).full_fen();
                assert_eq!(a, b, "{name}: determinization stream {k} of {at}");
            }
            for spec in MORE_BOTS {
                let a1 = engine::search::game_bot::from_spec::<G>(spec, 5).expect("spec").choose(&g);
                let a2 = engine::search::game_bot::from_spec::<G>(spec, 5).expect("spec").choose(&d);
                assert_eq!(a1, a2, "{name}: {spec} chose differently in two states of one information set: {at}");
            }
            positions += 1;
        }
        (positions, truth_differs)
    }
}

#[test]
fn no_leak_rules_more_md_presets() {
    let hidden = ["skill-secret", "camel-7-secret", "missile-hidden-5", "missile-hidden-centre", "missile-hidden-5-down", "missile-hidden-centre-down"];
    for name in hidden {
        let (positions, differs) = with_game(name, None, MoreBattery(name)).expect("preset");
        eprintln!("{name}: {positions} positions, hidden part differed in {differs}");
        assert_eq!(positions, POSITIONS, "{name}: too few decision positions");
        assert!(differs > 0, "{name}: no position had a hidden part");
    }
}
