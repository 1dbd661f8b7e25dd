//! The farm's PUCT IS-MCTS without a net, on the RULES.md variants through the one search
//! (`Search<Generic<VariantGameState>>`): with uniform priors and a zero value it must still find
//! a mate in one (terminal values come from the rules) and, by the root check of
//! `Scored::root_win`, a mate in two; it never plays a move that allows a mate in one (the loss
//! check of `Scored::root_losing`); it breaks ties of visits by value; a temperature draw keeps
//! within the value cutoff; and it must only ever pick legal actions in hidden-information
//! variants, where determinizations differ.

use engine::game::{Action as Code, Game, Turn};
use engine::observe::Observe;
use engine::variant::game_state::{decode, encode, VariantGameState};
use engine::variant::{Action, State, Variant};
use farm::search::{Generic, Search, SearchConfig};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

type VariantSearch = Search<Generic<VariantGameState>>;

fn variant(name: &str) -> &'static Variant {
    engine::any_game::load_variant(name).expect("preset")
}

/// Runs a search with uniform priors and value 0 at every leaf (no root win check).
fn search(s: &State, sims: u32, rng: &mut Pcg64Mcg) -> VariantSearch {
    let mut cfg = SearchConfig::with_simulations(sims);
    cfg.dirichlet_fraction = 0.0;
    cfg.root_win_check = false;
    uniform_search(&VariantGameState::unbounded(s.clone()), &cfg, rng)
}

/// Runs a search of the player to act in `g` with `cfg`, uniform priors and value 0 at every leaf.
fn uniform_search(g: &VariantGameState, cfg: &SearchConfig, rng: &mut Pcg64Mcg) -> VariantSearch {
    let mut srch = Search::generic(g.clone(), farm::search::is_setup(g), cfg, false).expect("a player's turn");
    while srch.advance(rng) {
        for i in 0..srch.requests() {
            let n = srch.request(i).1.len();
            srch.deliver(i, &vec![1.0 / n as f32; n], 0.0, rng);
        }
    }
    srch
}

/// The search's choice at `temperature` as a variant action.
fn choose(srch: &VariantSearch, temperature: f32, rng: &mut Pcg64Mcg) -> Action {
    decode(srch.choose(temperature, rng)).expect("a player action")
}

fn mates(s: &State) -> Vec<Action> {
    s.legal_actions().into_iter().filter(|&a| s.child(a).legal_actions().is_empty()).collect()
}

#[test]
fn finds_mate_in_one_without_a_net() {
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    let positions = mate_in_one_positions(&mut rng);
    assert!(positions.len() >= 3, "only {} mate-in-one positions found", positions.len());
    for s in &positions {
        let m = mates(s);
        let srch = search(s, 4 * s.legal_actions().len() as u32, &mut rng);
        let chosen = choose(&srch, 0.0, &mut rng);
        assert!(m.contains(&chosen), "mate {m:?} missed: chose {chosen:?} in {}", engine::variant::fen::write(s));
        assert!(srch.root_value() > 0.3, "root value {}", srch.root_value());
    }
}

#[test]
fn picks_legal_actions_under_hidden_information() {
    for name in ["surprise", "jieqi", "fanqi-3", "king", "surprise-negotiation"] {
        let v = variant(name);
        let mut rng = Pcg64Mcg::seed_from_u64(9);
        let mut cfg = SearchConfig::with_simulations(24);
        cfg.dirichlet_fraction = 0.0;
        cfg.root_win_check = false;
        let mut decisions = 0;
        for game in 0..3 {
            let mut g = VariantGameState::unbounded(farm::start_state(v, &mut rng));
            for ply in 0..60 {
                farm::search::resolve_chance(&mut g, &mut rng);
                let Turn::Player(_) = g.turn() else { break };
                let acts: Vec<Code> = g.legal_actions();
                // The game itself is the root: its record judges repetitions in the tree.
                let srch = uniform_search(&g, &cfg, &mut rng);
                let visits: u32 = srch.visits().iter().map(|v| v.2).sum();
                assert!(acts.len() == 1 || visits >= 20, "{name} game {game} ply {ply}: {visits} visits");
                let a = srch.choose(1.0, &mut rng);
                assert!(acts.contains(&a), "{name}: illegal {:?}", decode(a));
                g.apply(a);
                decisions += 1;
            }
        }
        assert!(decisions >= 30, "{name}: only {decisions} decisions searched");
    }
}

/// Actions after which the opponent has a mating reply.
fn allows_mate(s: &State) -> Vec<Action> {
    s.legal_actions()
        .into_iter()
        .filter(|&a| {
            let c = s.child(a);
            c.legal_actions().into_iter().any(|b| c.child(b).legal_actions().is_empty())
        })
        .collect()
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
                    let chosen = choose(&srch, 0.0, &mut rng);
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

/// With as many simulations as legal actions every root action gets about one visit, so the move
/// played is decided by the tie-break: it must be the better value, not the higher prior. Here the
/// highest-prior action repeats the start position a third time (a draw by RULES.md §X6: at once
/// by the search's repetition rule over the game's record, `Scored::search_repetition`, and by the
/// game's own rule; worth `-draw_contempt` to the searcher) and every other action is worth 0: the
/// search must not repeat.
#[test]
fn equal_visits_break_ties_by_value_not_prior() {
    let v = variant("xiangqi");
    let s0 = State::start(v, None).expect("start");
    let h0 = s0.position().hash();
    // s0 -a-> s1 -b-> s2 -r-> s3, where Black's move k at s3 returns to s0's position.
    let mut found = None;
    'search: for a in s0.legal_actions() {
        let s1 = s0.child(a);
        for b in s1.legal_actions() {
            let s2 = s1.child(b);
            for r in s2.legal_actions() {
                let s3 = s2.child(r);
                for k in s3.legal_actions() {
                    if s3.child(k).position().hash() == h0 {
                        found = Some(((a, b, r), k));
                        break 'search;
                    }
                }
            }
        }
    }
    let ((a, b, r), back) = found.expect("a reversible pair of moves from the start");
    // The start has occurred twice when the game reaches s3 the second time: `back` repeats it a
    // third time, which the rules draw (checked on a copy).
    let mut game = VariantGameState::unbounded(s0.clone());
    for x in [a, b, r, back, a, b, r] {
        game.play(x, |outs| outs[0].0);
    }
    let mut repeated = game.clone();
    repeated.play(back, |outs| outs[0].0);
    assert!(repeated.outcome().is_some_and(|e| e.winner().is_none()), "the third occurrence is a draw: {:?}", repeated.outcome());
    let mut cfg = SearchConfig::with_simulations(0);
    cfg.dirichlet_fraction = 0.0;
    cfg.draw_contempt = 0.15;
    let acts = game.legal_actions();
    cfg.simulations = acts.len() as u32 + 1;
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let mut srch = Search::generic(game.clone(), false, &cfg, false).expect("a player's turn");
    let back_code = encode(back);
    assert!(acts.contains(&back_code));
    let back_slot = game.action_index(back_code) as u16;
    while srch.advance(&mut rng) {
        for i in 0..srch.requests() {
            let slots = srch.request(i).1.to_vec();
            let n = slots.len() as f32;
            let priors: Vec<f32> = slots.iter().map(|&x| if x == back_slot { 3.0 / (n + 2.0) } else { 1.0 / (n + 2.0) }).collect();
            srch.deliver(i, &priors, 0.0, &mut rng);
        }
    }
    let visits = srch.visits();
    let back_visits = visits.iter().find(|x| x.0 == back_code).map(|x| x.2).expect("the repeating move is a root edge");
    let max = visits.iter().map(|x| x.2).max().unwrap_or(0);
    assert_eq!(back_visits, max, "the repeating move is among the most visited (visits {visits:?})");
    let chosen = srch.choose(0.0, &mut rng);
    assert_ne!(chosen, back_code, "played the repetition: {visits:?}");
    assert!(srch.root_value() > -0.15);
}

/// Whether `s`'s side to move can win at once.
fn wins_in_one(s: &State) -> bool {
    s.legal_actions().into_iter().any(|a| {
        let c = s.child(a);
        c.turn() != s.turn() && c.legal_actions().is_empty()
    })
}

/// Moves of `s` after which every reply allows a win in one (brute force, every move tried).
fn mates_in_two(s: &State) -> Vec<Action> {
    s.legal_actions()
        .into_iter()
        .filter(|&a| {
            let c = s.child(a);
            let replies = c.legal_actions();
            !replies.is_empty() && replies.into_iter().all(|b| wins_in_one(&c.child(b)))
        })
        .collect()
}

/// With 8 simulations, uniform priors and a zero value the tree cannot see three plies ahead;
/// the root mate-in-two check must still play a forced mate in two when one starts with a check
/// (and without it the search misses most of them: checked by switching it off below).
#[test]
fn finds_mate_in_two_without_a_net() {
    let v = variant("xiangqi");
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let mut found = 0;
    let mut missed_without = 0;
    for _ in 0..3000 {
        let mut s = State::start(v, None).expect("start");
        for _ in 0..200 {
            let acts = s.legal_actions();
            if acts.is_empty() {
                break;
            }
            if mates(&s).is_empty() && s.legal_actions().len() > 8 {
                let m2 = mates_in_two(&s);
                let checking: Vec<_> = m2.iter().copied().filter(|&a| s.child(a).position().in_check()).collect();
                if !checking.is_empty() && m2.len() * 4 <= acts.len() {
                    let g = VariantGameState::unbounded(s.clone());
                    let mut cfg = SearchConfig::with_simulations(8);
                    cfg.dirichlet_fraction = 0.0;
                    let srch = uniform_search(&g, &cfg, &mut rng);
                    let chosen = choose(&srch, 0.0, &mut rng);
                    assert!(m2.contains(&chosen), "mate in two {m2:?} missed: chose {chosen:?} in {}", engine::variant::fen::write(&s));
                    found += 1;
                    cfg.root_mate_in_two = false;
                    let srch = uniform_search(&g, &cfg, &mut rng);
                    if !m2.contains(&choose(&srch, 0.0, &mut rng)) {
                        missed_without += 1;
                    }
                    break;
                }
            }
            s.apply(acts[rng.random_range(0..acts.len())]);
        }
        if found >= 4 {
            break;
        }
    }
    assert!(found >= 2, "only {found} mate-in-two positions found");
    assert!(missed_without > 0, "the search alone found all {found}: the test does not exercise the check");
}

/// Up to `want` positions of xiangqi games played at random from the start (one per game, at most
/// 400 games of 300 plies) where `pick` says yes.
fn random_positions(rng: &mut Pcg64Mcg, want: usize, pick: impl Fn(&State) -> bool) -> Vec<State> {
    let v = variant("xiangqi");
    let mut out = Vec::new();
    for _ in 0..400 {
        let mut s = State::start(v, None).expect("start");
        for _ in 0..300 {
            let acts = s.legal_actions();
            if acts.is_empty() {
                break;
            }
            if pick(&s) {
                out.push(s);
                break;
            }
            s.apply(acts[rng.random_range(0..acts.len())]);
        }
        if out.len() >= want {
            break;
        }
    }
    out
}

/// Positions with a mate in one among at most a quarter of the legal moves (up to 5).
fn mate_in_one_positions(rng: &mut Pcg64Mcg) -> Vec<State> {
    random_positions(rng, 5, |s| {
        let m = mates(s);
        !m.is_empty() && m.len() * 4 <= s.legal_actions().len()
    })
}

/// `temperature_value_cutoff`: at temperature 1 a move is drawn only among the root actions whose
/// value lies within the cutoff of the move played at temperature 0. Where a mate in one exists
/// (value +1; every other action is worth 0 to a net that knows nothing), draws with a cutoff of
/// 0.5 are mates every time, while plain visit-count sampling also draws the other visited moves.
#[test]
fn temperature_draws_only_near_best_moves_under_a_value_cutoff() {
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let positions = mate_in_one_positions(&mut rng);
    assert!(positions.len() >= 3, "only {} mate-in-one positions found", positions.len());
    let mut plain_misses = 0;
    for s in &positions {
        let m = mates(s);
        let g = VariantGameState::unbounded(s.clone());
        let mut cfg = SearchConfig::with_simulations(4 * s.legal_actions().len() as u32);
        cfg.dirichlet_fraction = 0.0;
        cfg.root_win_check = false;
        cfg.root_mate_in_two = false;
        let plain = uniform_search(&g, &cfg, &mut rng);
        assert!(m.contains(&choose(&plain, 0.0, &mut rng)), "the search at temperature 0 must mate");
        plain_misses += (0..50).filter(|_| !m.contains(&choose(&plain, 1.0, &mut rng))).count();
        cfg.temperature_value_cutoff = Some(0.5);
        let cut = uniform_search(&g, &cfg, &mut rng);
        for _ in 0..50 {
            let a = choose(&cut, 1.0, &mut rng);
            assert!(m.contains(&a), "drew {a:?}, not a mate, in {}", engine::variant::fen::write(s));
        }
    }
    assert!(plain_misses > 0, "visit-count sampling never drew a non-mate: the test shows nothing");
}
