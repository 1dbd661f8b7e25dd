//! The contract's hooks for the farm's net search (`engine::search::Scored`): the variants'
//! repetition rule inside a search (`search_repetition`, RULES.md §X6 by
//! `engine::repetition::in_search`), and their root checks (`root_win`, `root_losing`), which
//! must be the typed checks of `engine::variant::root_checks` on the mover's view.

use engine::game::{Game, Turn};
use engine::search::Scored;
use engine::variant::game_state::{decode, encode, VariantGameState};
use engine::variant::{root_checks, State, View};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn xiangqi() -> VariantGameState {
    let v = engine::any_game::load_variant("xiangqi").expect("xiangqi");
    VariantGameState::unbounded(State::start(v, None).expect("start"))
}

/// Two horse moves out and back by each side repeat the start: the search's rule ends the line
/// there at once as a draw (the game itself goes on to its third occurrence); a ply that repeats
/// nothing, and the start itself, end nothing.
#[test]
fn x6_search_repetition_ends_the_line_at_the_first_repeat() {
    let mut g = xiangqi();
    assert_eq!(g.search_repetition(), None, "no ply yet");
    let moves = ["b0c2", "b9c7", "c2b0", "c7b9"];
    for (i, m) in moves.iter().enumerate() {
        let a = engine::variant::notation::parse_action(g.state(), m).unwrap_or_else(|e| panic!("{m}: {e}"));
        g.apply(encode(a));
        let want = if i == 3 { Some(None) } else { None };
        assert_eq!(g.search_repetition(), want, "after {m}");
    }
    assert!(matches!(g.turn(), Turn::Player(_)), "the game goes on: a repetition draws only at its third occurrence");
}

/// The default is none: a RULES-more game's own `turn()` ends repeated positions.
#[test]
fn search_repetition_defaults_to_the_games_own_rule() {
    let g = engine::more::missile::MissileGame::preset("missile").expect("preset");
    assert_eq!(g.search_repetition(), None);
}

/// Along random Jieqi and Surprise games, the hooks give the typed checks' answers on the
/// mover's view, drawn from the same generator.
#[test]
fn root_hooks_are_the_variants_typed_checks() {
    for (name, seed) in [("jieqi", 1u64), ("surprise", 2), ("xiangqi", 3)] {
        let v = engine::any_game::load_variant(name).expect(name);
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut g = VariantGameState::unbounded(State::new_game(v));
        let (mut checked, mut wins, mut losing) = (0, 0, 0);
        for _ in 0..160 {
            while g.turn() == Turn::Chance {
                let outs = g.chance_outcomes();
                g.apply(outs[rng.random_range(0..outs.len())].0);
            }
            let Turn::Player(p) = g.turn() else { break };
            let acts = g.legal_actions();
            if !g.state().in_setup() {
                let view = View::new(g.state(), g.state().turn());
                let typed: Vec<_> = acts.iter().map(|&a| decode(a).expect("a player action")).collect();
                let seed = rng.random::<u64>();
                let hook = g.root_win(p, &acts, true, &mut Pcg64Mcg::seed_from_u64(seed));
                let mut r = Pcg64Mcg::seed_from_u64(seed);
                let direct = root_checks::immediate_win(&view, &typed, &mut r).or_else(|| root_checks::mate_in_two(&view, &typed, &mut r));
                assert_eq!(hook, direct, "{name}: {g:?}");
                let hook = g.root_losing(p, &acts, &mut Pcg64Mcg::seed_from_u64(seed));
                assert_eq!(hook, root_checks::losing_actions(&view, &typed, &mut Pcg64Mcg::seed_from_u64(seed)), "{name}: {g:?}");
                checked += 1;
                wins += usize::from(direct.is_some());
                losing += usize::from(!hook.is_empty());
            }
            g.apply(acts[rng.random_range(0..acts.len())]);
        }
        assert!(checked > 40, "{name}: {checked} decisions checked");
        println!("{name}: {checked} decisions, {wins} with a win, {losing} with losing moves");
    }
}
