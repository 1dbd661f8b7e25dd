//! The search tree kept between a player's decisions (issue #14 item 2,
//! `Search::reuse_generic`), on the one search (`Search<Generic<VariantGameState>>`) playing the
//! RULES.md variants: the node the player's information set leads to keeps its visits and gets
//! fresh noise, a line not in the tree starts afresh, a win at a reused root is played on a
//! fresh root, a reveal picks its own outcome child, a private observation in between (a Jieqi
//! capture of a face-down piece) does not mix information sets, and reuse decides alike in two
//! full states of one information set.
//!
//! The generic tree keys its nodes by the root player's `Game::infoset_key` (the view and its
//! observation stream), not by public hashes, so every line below is followed by Red's key after
//! each ply (and its chance outcome). Two checks of the deleted `VariantSearch` adapter have no
//! counterpart and are gone: "a record that does not extend the tree's starts afresh" (the
//! generic reuse reads no record: the key alone finds the root; a root of another game is
//! checked instead) and "a private observation between starts afresh" (the generic tree
//! separates the capturer's information sets below the capture, so the reuse now takes the
//! capturer's own node, which is what `a_private_observation_between_does_not_mix_information_sets`
//! checks).

use engine::game::{Action, Game, PlayerId};
use engine::variant::game_state::{decode, encode, player_of, public_hash, VariantGameState};
use engine::variant::{Action as VAction, State, Variant, View};
use engine::Color;
use farm::search::{is_setup, Generic, Search, SearchConfig};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

mod common;

type Srch = Search<Generic<VariantGameState>>;

fn variant(name: &str) -> &'static Variant {
    engine::any_game::load_variant(name).expect("preset")
}

fn red() -> PlayerId {
    player_of(Color::Red)
}

/// A deterministic function of the observation with uneven priors and values (as in
/// `search_batch.rs`), so that two searches agree only if they see the same observations.
fn hashed_eval(obs: &[f32], slots: &[u16]) -> (Vec<f32>, f32) {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, &x) in obs.iter().enumerate() {
        if x != 0.0 {
            h = (h ^ (i as u64) ^ u64::from(x.to_bits())).wrapping_mul(0x100_0000_01b3);
        }
    }
    let mut priors: Vec<f32> =
        slots.iter().map(|&s| 1.0 + ((h ^ u64::from(s)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 60) as f32).collect();
    let sum: f32 = priors.iter().sum();
    priors.iter_mut().for_each(|p| *p /= sum);
    (priors, ((h >> 11) as f64 / (1u64 << 53) as f64 * 1.6 - 0.8) as f32)
}

fn config(sims: u32, batch: u32) -> SearchConfig {
    let mut cfg = SearchConfig::with_simulations(sims);
    cfg.dirichlet_fraction = 0.0;
    cfg.batch = batch;
    cfg
}

/// The search of the side to act in `g`, taking over `prev` where it can, before any simulation.
fn reuse(prev: Option<Srch>, g: &VariantGameState, cfg: &SearchConfig, noise: bool, rng: &mut Pcg64Mcg) -> Srch {
    Search::reuse_generic(prev, g.clone(), is_setup(g), cfg, noise, rng).expect("a player's turn")
}

/// [`reuse`], run to its budget.
fn search(prev: Option<Srch>, g: &VariantGameState, cfg: &SearchConfig, noise: bool, rng: &mut Pcg64Mcg) -> Srch {
    let mut srch = reuse(prev, g, cfg, noise, rng);
    finish(&mut srch, rng);
    srch
}

fn finish(srch: &mut Srch, rng: &mut Pcg64Mcg) {
    while srch.advance(rng) {
        for i in 0..srch.requests() {
            let (obs, slots) = srch.request(i);
            let (p, v) = hashed_eval(obs, slots);
            srch.deliver(i, &p, v, rng);
        }
    }
}

/// Red's information-set key in `g` (what Red's tree keys its nodes by).
fn red_key(g: &VariantGameState) -> u64 {
    g.infoset_key(red())
}

/// `g` after `a` and the chance outcome (if any) after which Red's key is `key`, else the first.
fn after(g: &VariantGameState, a: Action, key: Option<u64>) -> VariantGameState {
    let mut x = g.clone();
    x.apply(a);
    while x.turn().is_chance() {
        let outs = x.chance_outcomes();
        let pick = outs
            .iter()
            .map(|o| o.0)
            .find(|&o| {
                let mut y = x.clone();
                y.apply(o);
                Some(red_key(&y)) == key
            })
            .unwrap_or(outs[0].0);
        x.apply(pick);
    }
    x
}

/// Plays `a` in `g` as [`after`] does.
fn play(g: &mut VariantGameState, a: Action, key: Option<u64>) {
    *g = after(g, a, key);
}

/// Red's keys after `a` in `g`, one per chance outcome (one where there is none).
fn keys_after(g: &VariantGameState, a: Action) -> Vec<u64> {
    let mut x = g.clone();
    x.apply(a);
    if !x.turn().is_chance() {
        return vec![red_key(&x)];
    }
    x.chance_outcomes()
        .iter()
        .map(|o| {
            let mut y = x.clone();
            y.apply(o.0);
            red_key(&y)
        })
        .collect()
}

/// The reply in `g` (after Red's `a`, Red's key `k1`) and its outcome whose node holds the most
/// visits of `srch`, with those visits and Red's key there.
fn best_reply(srch: &Srch, g: &VariantGameState, a: Action, k1: u64) -> Option<(u32, Action, u64)> {
    g.legal_actions()
        .into_iter()
        .flat_map(|b| keys_after(g, b).into_iter().map(move |k2| (b, k2)))
        .filter_map(|(b, k2)| srch.visits_along(&[(a, k1), (b, k2)]).map(|n| (n, b, k2)))
        .max_by_key(|x| x.0)
}

fn v_action(a: Action) -> VAction {
    decode(a).expect("a player action")
}

#[test]
fn a_reused_root_keeps_the_child_s_visits() {
    let v = variant("xiangqi");
    for batch in [1, 8] {
        let cfg = config(600, batch);
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let mut g = VariantGameState::unbounded(State::start(v, None).expect("start"));
        let red = search(None, &g, &cfg, false, &mut rng);
        assert!(!red.is_reused());
        let a = red.choose(0.0, &mut rng);
        play(&mut g, a, None);
        let k1 = red_key(&g);
        let (old, b, k2) = best_reply(&red, &g, a, k1).expect("a reply in the tree");
        assert!(old >= 5, "batch {batch}: only {old} visits under the main line");
        play(&mut g, b, Some(k2));
        assert_eq!(red_key(&g), k2);
        let mut next = reuse(Some(red), &g, &cfg, false, &mut rng);
        assert!(next.is_reused(), "batch {batch}");
        assert_eq!(next.reused_visits(), old, "batch {batch}");
        assert_eq!(next.root_visits(), old, "batch {batch}");
        finish(&mut next, &mut rng);
        // Every new simulation passes a root edge; no root evaluation is needed.
        assert_eq!(next.simulations(), 600, "batch {batch}");
        assert_eq!(next.root_visits(), old + 600, "batch {batch}");
        assert!(g.legal_actions().contains(&next.choose(0.0, &mut rng)));
    }
}

#[test]
fn a_reused_root_gets_fresh_noise() {
    let v = variant("xiangqi");
    let mut cfg = config(300, 4);
    cfg.dirichlet_fraction = 0.25;
    let mut priors = Vec::new();
    for noise in [false, true, true] {
        // The same tree each time (same seed, no noise in the first search).
        let mut rng = Pcg64Mcg::seed_from_u64(8);
        let mut g = VariantGameState::unbounded(State::start(v, None).expect("start"));
        let red = search(None, &g, &cfg, false, &mut rng);
        let a = red.choose(0.0, &mut rng);
        play(&mut g, a, None);
        let k1 = red_key(&g);
        let (_, b, k2) = best_reply(&red, &g, a, k1).expect("a reply in the tree");
        play(&mut g, b, Some(k2));
        let mut next = reuse(Some(red), &g, &cfg, noise, &mut rng);
        assert!(next.is_reused());
        let p = next.root_priors();
        let sum: f32 = p.iter().map(|x| x.1).sum();
        assert!((sum - 1.0).abs() < 1e-3, "priors sum to {sum}");
        priors.push(p);
        finish(&mut next, &mut rng);
        assert_eq!(next.root_priors(), priors[priors.len() - 1], "noise is drawn once, at the reuse");
    }
    assert_ne!(priors[0], priors[1], "no noise on the reused root");
    // The same random stream draws the same noise.
    assert_eq!(priors[1], priors[2]);
}

#[test]
fn a_line_not_in_the_tree_starts_afresh() {
    let v = variant("xiangqi");
    let cfg = config(200, 4);
    let fresh_visits = cfg.simulations - 1; // the root's own evaluation has no edge
    let start = || VariantGameState::unbounded(State::start(v, None).expect("start"));
    let run_red = |rng: &mut Pcg64Mcg, cfg: &SearchConfig| {
        let g = start();
        let red = search(None, &g, cfg, false, rng);
        let a = red.choose(0.0, rng);
        (g, red, a)
    };
    let reused = |prev: Srch, g: &VariantGameState, cfg: &SearchConfig, rng: &mut Pcg64Mcg| {
        let mut next = reuse(Some(prev), g, cfg, false, rng);
        let reused = next.is_reused();
        finish(&mut next, rng);
        (reused, next.root_visits())
    };

    // A reply the tree never followed.
    let mut rng = Pcg64Mcg::seed_from_u64(2);
    let (mut g, red, a) = run_red(&mut rng, &cfg);
    play(&mut g, a, None);
    let k1 = red_key(&g);
    let b = g
        .legal_actions()
        .into_iter()
        .find(|&b| red.visits_along(&[(a, k1), (b, red_key(&after(&g, b, None)))]).is_none())
        .expect("an unexplored reply");
    play(&mut g, b, None);
    assert_eq!(reused(red, &g, &cfg, &mut rng), (false, fresh_visits), "unexplored reply");

    // A root move the tree never tried (a small search leaves most untried).
    let (mut g, red, _) = run_red(&mut rng, &config(12, 1));
    let a = red.visits().into_iter().find(|v| v.2 == 0).map(|v| v.0).expect("an unvisited root move");
    play(&mut g, a, None);
    let b = g.legal_actions()[0];
    play(&mut g, b, None);
    assert_eq!(reused(red, &g, &cfg, &mut rng), (false, fresh_visits), "untried root move");

    // A search abandoned with requests undelivered (their virtual losses still on its edges).
    let g0 = start();
    let mut red = reuse(None, &g0, &cfg, false, &mut rng);
    while red.advance(&mut rng) && red.simulations() < 150 {
        for i in 0..red.requests() {
            let (obs, slots) = red.request(i);
            let (p, v) = hashed_eval(obs, slots);
            red.deliver(i, &p, v, &mut rng);
        }
    }
    assert!(red.requests() > 0, "abandoned with requests");
    let a = red.choose(0.0, &mut rng);
    let mut g = g0;
    play(&mut g, a, None);
    let k1 = red_key(&g);
    let (_, b, k2) = best_reply(&red, &g, a, k1).expect("a reply in the tree");
    play(&mut g, b, Some(k2));
    assert_eq!(reused(red, &g, &cfg, &mut rng), (false, fresh_visits), "abandoned search");

    // The main line, but reuse switched off, or the tree handed a root it does not hold below its
    // own: its own root again (no new ply), a position of another game (an information set the
    // tree never met), or the main line's position for Black (another player's tree).
    for case in ["off", "no new ply", "another game", "other player"] {
        let (mut g, red, a) = run_red(&mut rng, &cfg);
        let g0 = g.clone();
        play(&mut g, a, None);
        let k1 = red_key(&g);
        let (old, b, k2) = best_reply(&red, &g, a, k1).expect("a reply in the tree");
        assert!(old > 0, "{case}");
        let black_to_move = g.clone();
        play(&mut g, b, Some(k2));
        let mut cfg = cfg.clone();
        let root = match case {
            "off" => {
                cfg.reuse_tree = false;
                g
            }
            "no new ply" => g0,
            "another game" => {
                let mut other = Pcg64Mcg::seed_from_u64(77);
                let mut x = common::random_walk(State::start(v, None).expect("start"), 6, &mut other);
                while x.outcome().is_some() || x.state().turn() != Color::Red {
                    x = common::random_walk(State::start(v, None).expect("start"), 6, &mut other);
                }
                assert_ne!(red_key(&x), k2);
                x
            }
            _ => black_to_move,
        };
        assert_eq!(reused(red, &root, &cfg, &mut rng), (false, fresh_visits), "{case}");
    }
}

#[test]
fn a_win_at_a_reused_root_is_played_on_a_fresh_root() {
    // Two chariots against a bare general: after Ra0-a8 (quiet) and the general's step along
    // the back rank, Ri0-i9 mates. The first search holds that line; at the next decision the
    // root's win check plays the mate on a root of its own (the kept visits would outvote it).
    let v = variant("xiangqi");
    let s = engine::variant::fen::parse(v, "4k4/9/9/9/9/9/9/9/9/R2K4R w - - 0 1").expect("fen");
    let mut g = VariantGameState::unbounded(s);
    let cfg = config(2000, 8);
    let mut rng = Pcg64Mcg::seed_from_u64(6);
    let red = search(None, &g, &cfg, false, &mut rng);
    let a = encode(engine::variant::notation::parse_action(g.state(), "a0a8").expect("a0a8"));
    play(&mut g, a, None);
    let k1 = red_key(&g);
    let (old, b, k2) = best_reply(&red, &g, a, k1).expect("a reply in the tree");
    assert!(old > 0);
    play(&mut g, b, Some(k2));
    let mut next = reuse(Some(red), &g, &cfg, false, &mut rng);
    assert!(next.is_reused() && next.reused_visits() == old);
    finish(&mut next, &mut rng);
    let m = next.choose(0.0, &mut rng);
    assert!(g.state().child(v_action(m)).legal_actions().is_empty(), "not a mate: {m:?}");
    assert!(!next.is_reused() && next.reused_visits() == 0 && next.root_visits() == 1);
}

/// The two most visited outcome children of `srch`'s most visited root move with several.
fn split_move(srch: &Srch) -> Option<(Action, u64, u64)> {
    let mut moves = srch.visits();
    moves.sort_by_key(|v| std::cmp::Reverse(v.2));
    moves.into_iter().find_map(|(a, _, _)| {
        let mut kids = srch.outcome_children(a);
        kids.sort_by_key(|k| std::cmp::Reverse(k.visits));
        (kids.len() >= 2 && kids[1].visits > 2).then(|| (a, kids[0].key, kids[1].key))
    })
}

#[test]
fn a_reveal_picks_its_own_outcome_child() {
    // Jieqi: every opening move turns a face-down piece up, one child per revealed type.
    let v = variant("jieqi");
    let cfg = config(1500, 8);
    let mut picked = 0;
    for k in 0..2 {
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let mut g = VariantGameState::unbounded(State::start(v, None).expect("start"));
        let red = search(None, &g, &cfg, false, &mut rng);
        let (a, k0, k1) = split_move(&red).expect("a root move with two visited reveals");
        let key = [k0, k1][k];
        play(&mut g, a, Some(key));
        assert_eq!(red_key(&g), key, "the reveal played");
        let (old, b, k2) = best_reply(&red, &g, a, key).expect("a reply under this reveal");
        play(&mut g, b, Some(k2));
        assert_eq!(red_key(&g), k2);
        // The other reveal's child holds no node with this key.
        let other = [k1, k0][k];
        assert_eq!(red.visits_along(&[(a, other), (b, k2)]), None);
        let next = reuse(Some(red), &g, &cfg, false, &mut rng);
        assert!(next.is_reused(), "reveal {k}");
        assert_eq!(next.reused_visits(), old, "reveal {k}: the root is the node under its own reveal");
        picked += 1;
    }
    assert_eq!(picked, 2);
}

#[test]
fn a_private_observation_between_does_not_mix_information_sets() {
    // Jieqi §F6: the identity of a captured face-down piece is shown to the capturer alone. Below
    // Red's capture the tree holds one child per identity Red saw (Red's information sets, which
    // one public node would gather); the next root is the node under the identity Red saw, with
    // that node's visits alone, and Red's key there is met under no other identity.
    let v = variant("jieqi");
    let cfg = config(600, 8);
    let mut rng = Pcg64Mcg::seed_from_u64(4);
    let mut found = 0;
    let mut split = 0;
    for _ in 0..200 {
        if found >= 6 {
            break;
        }
        let plies = rng.random_range(4..24);
        let mut g = common::random_walk(State::start(v, None).expect("start"), plies, &mut rng);
        if g.outcome().is_some() || g.state().turn() != Color::Red {
            continue;
        }
        let s = g.state().clone();
        let g0 = g.clone();
        // A capture of a face-down piece by Red.
        let captures: Vec<Action> = s
            .legal_actions()
            .into_iter()
            .filter(|&a| matches!(a, VAction::Move { to, .. } if s.face_down().contains(to) && s.position().piece_at(to).is_some_and(|p| p.color == Color::Black)))
            .map(encode)
            .collect();
        if captures.is_empty() {
            continue;
        }
        let red = search(None, &g, &cfg, false, &mut rng);
        let Some(&a) = captures.iter().max_by_key(|&&a| red.visits().iter().find(|v| v.0 == a).map_or(0, |v| v.2)) else { continue };
        let mut kids = red.outcome_children(a);
        kids.sort_by_key(|k| std::cmp::Reverse(k.visits));
        let Some(k1) = kids.first().map(|k| k.key) else { continue };
        // What both players see after each of Red's keys (the public position, §F6 hiding the
        // captured identity from Black): the keys of one public position are Red's private
        // observations of the captured piece.
        let public = |key: u64| public_hash(after(&g, a, Some(key)).state());
        let twins: Vec<u64> = kids.iter().skip(1).map(|k| k.key).filter(|&k| public(k) == public(k1)).collect();
        play(&mut g, a, Some(k1));
        assert_eq!(red_key(&g), k1, "the capture's outcome played");
        let Some((old, b, k2)) = best_reply(&red, &g, a, k1) else { continue };
        if old == 0 || g.outcome().is_some() {
            continue;
        }
        play(&mut g, b, Some(k2));
        if g.outcome().is_some() {
            continue;
        }
        // Red's key after the reply is met under no other outcome of the capture.
        for other in kids.iter().skip(1) {
            assert_eq!(red.visits_along(&[(a, other.key), (b, k2)]), None, "one key under two outcomes");
        }
        // The same reply searched under another identity of one public position: another of
        // Red's information sets, whose visits the new root must not gather.
        split += usize::from(twins.iter().any(|&k| red.visits_along(&[(a, k), (b, keys_after(&after(&g0, a, Some(k)), b)[0])]).is_some_and(|n| n > 0)));
        let next = reuse(Some(red), &g, &cfg, false, &mut rng);
        assert!(next.is_reused(), "the capturer's own node not reused: {}", engine::variant::fen::write(g.state()));
        assert_eq!(next.reused_visits(), old, "the visits of the node under the identity Red saw alone");
        found += 1;
    }
    eprintln!("{found} private captures, {split} with the reply searched under another identity");
    assert!(found >= 6, "only {found} private captures met");
    assert!(split >= 2, "only {split} captures whose reply was searched under two identities of one public position");
}

/// Plays the same game as Red sees it in two full states of one information set of Red: Red by
/// the search with reuse (and root noise), Black by actions legal in both (the one whose line
/// holds most visits in Red's tree, else at random), chance outcomes matched by Red's key after
/// them (game 0's drawn, game 1 the same one or the game stops). Red's decisions must agree,
/// visit for visit. Returns how many of Red's roots were reused.
fn one_information_set_game(s1: State, s2: State, seed: u64, cfg: &SearchConfig, plies: usize) -> usize {
    let mut g = [VariantGameState::unbounded(s1), VariantGameState::unbounded(s2)];
    let mut rngs = [Pcg64Mcg::seed_from_u64(seed), Pcg64Mcg::seed_from_u64(seed)];
    let mut pick = Pcg64Mcg::seed_from_u64(seed ^ 0xB1AC);
    let mut trees: [Option<Srch>; 2] = [None, None];
    let mut reused = 0;
    let mut red_move: Option<(Action, u64)> = None;
    for _ in 0..plies {
        if g[0].outcome().is_some() || g[1].outcome().is_some() {
            break;
        }
        let (action, key) = if g[0].state().turn() == Color::Red {
            let view = View::new(g[0].state(), Color::Red);
            if view != View::new(g[1].state(), Color::Red) {
                break; // Red saw something private that differs: two information sets now
            }
            assert_eq!(red_key(&g[0]), red_key(&g[1]), "one view, two keys: {}", view.fen());
            let mut out = Vec::new();
            for i in 0..2 {
                let srch = search(trees[i].take(), &g[i], cfg, true, &mut rngs[i]);
                let a = srch.choose(0.0, &mut rngs[i]);
                out.push((a, srch.visits(), srch.is_reused(), srch.reused_visits()));
                trees[i] = Some(srch);
            }
            assert_eq!(out[0], out[1], "one information set, two decisions: {}", view.fen());
            reused += usize::from(out[0].2);
            let key = outcome(&g[0], out[0].0, &mut pick);
            red_move = Some((out[0].0, key));
            (out[0].0, key)
        } else {
            let l1 = g[1].legal_actions();
            let both: Vec<Action> = g[0].legal_actions().into_iter().filter(|a| l1.contains(a)).collect();
            if both.is_empty() {
                break;
            }
            let mut best = None;
            if let (Some(tree), Some(first)) = (&trees[0], red_move) {
                for &b in &both {
                    for key in keys_after(&g[0], b) {
                        let n = tree.visits_along(&[first, (b, key)]).unwrap_or(0);
                        if n > 0 && best.is_none_or(|(m, _, _)| n > m) {
                            best = Some((n, b, key));
                        }
                    }
                }
            }
            match best {
                Some((_, b, key)) => (b, key),
                None => {
                    let b = both[pick.random_range(0..both.len())];
                    (b, outcome(&g[0], b, &mut pick))
                }
            }
        };
        // Game 1 takes the outcome that shows Red what game 0's shows.
        for gi in &mut g {
            play(gi, action, Some(key));
        }
        if red_key(&g[0]) != red_key(&g[1]) || red_key(&g[0]) != key {
            break; // no outcome of game 1 shows the same (the hidden parts decide what is shown)
        }
    }
    reused
}

/// One of Red's keys after `a` in `g` (one per chance outcome), drawn by `rng`.
fn outcome(g: &VariantGameState, a: Action, rng: &mut Pcg64Mcg) -> u64 {
    let keys = keys_after(g, a);
    keys[rng.random_range(0..keys.len())]
}

/// Resolves a chance node of `s` by its outcomes' probabilities.
fn draw_chance(s: &mut State, rng: &mut Pcg64Mcg) {
    let outs = s.chance_outcomes();
    let mut x = rng.random::<f64>() * outs.iter().map(|o| o.1).sum::<f64>();
    for &(o, p) in &outs {
        if x < p {
            s.apply_chance(o);
            return;
        }
        x -= p;
    }
    s.apply_chance(outs[outs.len() - 1].0);
}

#[test]
fn reuse_decides_alike_in_one_information_set() {
    let mut cfg = config(64, 4);
    cfg.dirichlet_fraction = 0.25;
    let mut total = 0;
    for name in ["surprise", "jieqi", "fanqi-3"] {
        let v = variant(name);
        let mut rng = Pcg64Mcg::seed_from_u64(31);
        let mut reused = 0;
        for game in 0..3u64 {
            let mut s = farm::start_state(v, &mut rng);
            for _ in 0..rng.random_range(0..12) {
                if s.is_chance() {
                    draw_chance(&mut s, &mut rng);
                }
                let acts = s.legal_actions();
                if acts.is_empty() {
                    break;
                }
                s.apply(acts[rng.random_range(0..acts.len())]);
            }
            if s.is_chance() || s.legal_actions().is_empty() || s.turn() != Color::Red {
                continue;
            }
            // The opponent's hidden parts drawn again: the same view of Red, another full state.
            let d = View::new(&s, Color::Red).sample(&mut rng);
            assert!(View::new(&d, Color::Red) == View::new(&s, Color::Red));
            reused += one_information_set_game(s, d, 100 + game, &cfg, 24);
        }
        eprintln!("{name}: {reused} reused roots");
        assert!(reused > 0, "{name}: no root was reused");
        total += reused;
    }
    assert!(total >= 10, "only {total} reused roots");
}
