//! The search tree kept between a player's decisions (issue #14 item 2, `Search::reuse`): the
//! node the public record leads to keeps its visits, a line not in the tree starts afresh, a
//! reveal picks its own outcome child, a private observation in between (a Jieqi capture of a
//! face-down piece) starts afresh, and reuse decides alike in two full states of one
//! information set.

use engine::repetition::RecordPly;
use engine::variant::game_state::VariantGameState;
use engine::variant::game_state::public_hash;
use engine::variant::{Action, State, Variant, View};
use engine::Color;
use farm::search::{Search, SearchConfig};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

mod common;

fn variant(name: &str) -> &'static Variant {
    engine::any_game::load_variant(name).expect("preset")
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

/// The search of the side to act in `g`, taking over `prev` where it can, run to its budget.
fn search(prev: Option<Search>, g: &VariantGameState, cfg: &SearchConfig, noise: bool, rng: &mut Pcg64Mcg) -> Search {
    let s = g.state();
    let mut srch = Search::reuse(prev, View::new(s, s.turn()), s.legal_actions(), cfg, noise, g.record(), rng);
    finish(&mut srch, rng);
    srch
}

fn finish(srch: &mut Search, rng: &mut Pcg64Mcg) {
    while srch.advance(rng) {
        for i in 0..srch.requests() {
            let (obs, slots) = srch.request(i);
            let (p, v) = hashed_eval(obs, slots);
            srch.deliver(i, &p, v, rng);
        }
    }
}

/// Plays `a` in `g` with the chance outcome (if any) whose public observation is `key`, else the
/// first.
fn play(g: &mut VariantGameState, a: Action, key: Option<u64>) {
    let after = g.state().child(a);
    g.play(a, |outs| {
        outs.iter()
            .find(|(o, _)| {
                let mut x = after.clone();
                x.apply_chance(*o);
                Some(public_hash(&x)) == key
            })
            .unwrap_or(&outs[0])
            .0
    });
}

fn last_hash(g: &VariantGameState) -> u64 {
    g.record().last().expect("a ply").hash
}

/// The reply in `g` (after `a`, public observation `h1`) whose node holds the most visits of
/// `srch`, with those visits and its public observation; the hash is taken after the first
/// chance outcome, as [`play`] plays it without a key.
fn best_reply(srch: &Search, g: &VariantGameState, a: Action, h1: u64) -> Option<(u32, Action, u64)> {
    g.state()
        .legal_actions()
        .into_iter()
        .filter_map(|b| {
            let mut c = g.state().child(b);
            if c.is_chance() {
                c.apply_chance(c.chance_outcomes()[0].0);
            }
            let h2 = public_hash(&c);
            srch.visits_along(&[(a, h1), (b, h2)]).map(|n| (n, b, h2))
        })
        .max_by_key(|x| x.0)
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
        let h1 = last_hash(&g);
        let (old, b, _) = best_reply(&red, &g, a, h1).expect("a reply in the tree");
        assert!(old >= 5, "batch {batch}: only {old} visits under the main line");
        play(&mut g, b, None);
        let s = g.state();
        let mut next = Search::reuse(Some(red), View::new(s, Color::Red), s.legal_actions(), &cfg, false, g.record(), &mut rng);
        assert!(next.is_reused(), "batch {batch}");
        assert_eq!(next.reused_visits(), old, "batch {batch}");
        assert_eq!(next.root_visits(), old, "batch {batch}");
        finish(&mut next, &mut rng);
        // Every new simulation passes a root edge; no root evaluation is needed.
        assert_eq!(next.simulations(), 600, "batch {batch}");
        assert_eq!(next.root_visits(), old + 600, "batch {batch}");
        assert!(s.legal_actions().contains(&next.choose(0.0, &mut rng)));
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
        let h1 = last_hash(&g);
        let (_, b, _) = best_reply(&red, &g, a, h1).expect("a reply in the tree");
        play(&mut g, b, None);
        let s = g.state();
        let mut next = Search::reuse(Some(red), View::new(s, Color::Red), s.legal_actions(), &cfg, noise, g.record(), &mut rng);
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
    let reuse = |prev: Search, g: &VariantGameState, cfg: &SearchConfig, history: &[RecordPly], rng: &mut Pcg64Mcg| {
        let s = g.state();
        let mut next = Search::reuse(Some(prev), View::new(s, s.turn()), s.legal_actions(), cfg, false, history, rng);
        let reused = next.is_reused();
        finish(&mut next, rng);
        (reused, next.root_visits())
    };

    // A reply the tree never followed.
    let mut rng = Pcg64Mcg::seed_from_u64(2);
    let (mut g, red, a) = run_red(&mut rng, &cfg);
    play(&mut g, a, None);
    let h1 = last_hash(&g);
    let b = g
        .state()
        .legal_actions()
        .into_iter()
        .find(|&b| red.visits_along(&[(a, h1), (b, public_hash(&g.state().child(b)))]).is_none())
        .expect("an unexplored reply");
    play(&mut g, b, None);
    assert_eq!(reuse(red, &g, &cfg, g.record(), &mut rng), (false, fresh_visits), "unexplored reply");

    // A root move the tree never tried (a small search leaves most untried).
    let (mut g, red, _) = run_red(&mut rng, &config(12, 1));
    let a = red.visits().into_iter().find(|v| v.2 == 0).map(|v| v.0).expect("an unvisited root move");
    play(&mut g, a, None);
    let b = g.state().legal_actions()[0];
    play(&mut g, b, None);
    assert_eq!(reuse(red, &g, &cfg, g.record(), &mut rng), (false, fresh_visits), "untried root move");

    // A search abandoned with requests undelivered (their virtual losses still on its edges).
    let g0 = start();
    let s0 = g0.state();
    let mut red = Search::reuse(None, View::new(s0, Color::Red), s0.legal_actions(), &cfg, false, g0.record(), &mut rng);
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
    let h1 = last_hash(&g);
    let (_, b, _) = best_reply(&red, &g, a, h1).expect("a reply in the tree");
    play(&mut g, b, None);
    assert_eq!(reuse(red, &g, &cfg, g.record(), &mut rng), (false, fresh_visits), "abandoned search");

    // The main line, but reuse switched off, or a record that does not extend the tree's (another
    // game, an undone move), or no new ply.
    for case in ["off", "other record", "no new ply"] {
        let (mut g, red, a) = run_red(&mut rng, &cfg);
        play(&mut g, a, None);
        let h1 = last_hash(&g);
        let (_, b, _) = best_reply(&red, &g, a, h1).expect("a reply in the tree");
        play(&mut g, b, None);
        let mut cfg = cfg.clone();
        let mut history = g.record().to_vec();
        match case {
            "off" => cfg.reuse_tree = false,
            "other record" => history[0].hash ^= 1,
            _ => history.clear(),
        }
        assert_eq!(reuse(red, &g, &cfg, &history, &mut rng), (false, fresh_visits), "{case}");
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
    let a = engine::variant::notation::parse_action(g.state(), "a0a8").expect("a0a8");
    play(&mut g, a, None);
    let h1 = last_hash(&g);
    let (old, b, _) = best_reply(&red, &g, a, h1).expect("a reply in the tree");
    assert!(old > 0);
    play(&mut g, b, None);
    let st = g.state();
    let mut next = Search::reuse(Some(red), View::new(st, Color::Red), st.legal_actions(), &cfg, false, g.record(), &mut rng);
    assert!(next.is_reused() && next.reused_visits() == old);
    finish(&mut next, &mut rng);
    let m = next.choose(0.0, &mut rng);
    assert!(st.child(m).legal_actions().is_empty(), "not a mate: {m:?}");
    assert!(!next.is_reused() && next.reused_visits() == 0 && next.root_visits() == 1);
}

/// The two most visited outcome children of `srch`'s most visited root move with several.
fn split_move(srch: &Search) -> Option<(Action, u64, u64)> {
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
        assert_eq!(last_hash(&g), key, "the reveal played");
        let (old, b, h2) = best_reply(&red, &g, a, key).expect("a reply under this reveal");
        play(&mut g, b, None);
        assert_eq!(last_hash(&g), h2);
        // The other reveal's child holds no node with this record.
        let other = [k1, k0][k];
        assert_eq!(red.visits_along(&[(a, other), (b, h2)]), None);
        let s = g.state();
        let next = Search::reuse(Some(red), View::new(s, Color::Red), s.legal_actions(), &cfg, false, g.record(), &mut rng);
        assert!(next.is_reused(), "reveal {k}");
        assert_eq!(next.reused_visits(), old, "reveal {k}: the root is the node under its own reveal");
        picked += 1;
    }
    assert_eq!(picked, 2);
}

#[test]
fn a_private_observation_between_starts_afresh() {
    // Jieqi §F6: the identity of a captured face-down piece is shown to the capturer alone, so
    // below a capture one public node gathers several of Red's information sets.
    let v = variant("jieqi");
    let cfg = config(600, 8);
    let mut rng = Pcg64Mcg::seed_from_u64(4);
    let mut found = 0;
    let mut public_reused = 0;
    for _ in 0..200 {
        if found >= 2 {
            break;
        }
        let plies = rng.random_range(4..24);
        let mut g = common::random_walk(State::start(v, None).expect("start"), plies, &mut rng);
        if g.outcome().is_some() || g.state().turn() != Color::Red {
            continue;
        }
        let s = g.state().clone();
        // A capture of a face-down piece by Red.
        let captures: Vec<Action> = s
            .legal_actions()
            .into_iter()
            .filter(|&a| matches!(a, Action::Move { to, .. } if s.face_down().contains(to) && s.position().piece_at(to).is_some_and(|p| p.color == Color::Black)))
            .collect();
        if captures.is_empty() {
            continue;
        }
        let red = search(None, &g, &cfg, false, &mut rng);
        let Some(&a) = captures.iter().max_by_key(|&&a| red.visits().iter().find(|v| v.0 == a).map_or(0, |v| v.2)) else { continue };
        play(&mut g, a, None);
        let h1 = last_hash(&g);
        let Some((old, b, _)) = best_reply(&red, &g, a, h1) else { continue };
        if old == 0 || g.outcome().is_some() {
            continue;
        }
        play(&mut g, b, None);
        if g.outcome().is_some() {
            continue;
        }
        let st = g.state();
        let next = Search::reuse(Some(red), View::new(st, Color::Red), st.legal_actions(), &cfg, false, g.record(), &mut rng);
        assert!(!next.is_reused(), "reused across a private capture: {}", engine::variant::fen::write(st));
        found += 1;
        // The same line without the capture's privacy (a non-capturing move) is reused; checked
        // once for contrast.
        if public_reused == 0 {
            let mut g2 = VariantGameState::unbounded(s.clone());
            let red = search(None, &g2, &cfg, false, &mut rng);
            let a = red.choose(0.0, &mut rng);
            if captures.contains(&a) {
                continue;
            }
            play(&mut g2, a, None);
            let h1 = last_hash(&g2);
            let Some((old, b, h2)) = best_reply(&red, &g2, a, h1) else { continue };
            play(&mut g2, b, None);
            if old == 0 || last_hash(&g2) != h2 || g2.outcome().is_some() {
                continue;
            }
            let st = g2.state();
            let next = Search::reuse(Some(red), View::new(st, Color::Red), st.legal_actions(), &cfg, false, g2.record(), &mut rng);
            if next.is_reused() {
                public_reused += 1;
            }
        }
    }
    assert!(found >= 2, "only {found} private captures met");
    assert_eq!(public_reused, 1, "a public line was not reused");
}

/// Plays the same public game in two full states of one information set of Red: Red by the
/// search with reuse (and root noise), Black by actions legal in both (the one whose line holds
/// most visits in Red's tree, else at random), chance outcomes matched by public observation
/// (game 0's drawn, game 1 the same one or the game stops). Red's decisions must agree, visit
/// for visit. Returns how many of Red's roots were reused.
fn one_information_set_game(s1: State, s2: State, seed: u64, cfg: &SearchConfig, plies: usize) -> usize {
    let mut g = [VariantGameState::unbounded(s1), VariantGameState::unbounded(s2)];
    let mut rngs = [Pcg64Mcg::seed_from_u64(seed), Pcg64Mcg::seed_from_u64(seed)];
    let mut pick = Pcg64Mcg::seed_from_u64(seed ^ 0xB1AC);
    let mut trees: [Option<Search>; 2] = [None, None];
    let mut reused = 0;
    let mut red_move: Option<(Action, u64)> = None;
    for _ in 0..plies {
        if g[0].outcome().is_some() || g[1].outcome().is_some() {
            break;
        }
        let (a0, a1) = (g[0].state(), g[1].state());
        let (action, key) = if a0.turn() == Color::Red {
            let view = View::new(a0, Color::Red);
            if view != View::new(a1, Color::Red) {
                break; // Red saw something private that differs: two information sets now
            }
            let mut out = Vec::new();
            for i in 0..2 {
                let srch = search(trees[i].take(), &g[i], cfg, true, &mut rngs[i]);
                let a = srch.choose(0.0, &mut rngs[i]);
                out.push((a, srch.visits(), srch.is_reused(), srch.reused_visits()));
                trees[i] = Some(srch);
            }
            assert_eq!(out[0], out[1], "one information set, two decisions: {}", view.fen());
            reused += usize::from(out[0].2);
            let key = outcome(a0, out[0].0, &mut pick);
            red_move = Some((out[0].0, key));
            (out[0].0, key)
        } else {
            let l1 = a1.legal_actions();
            let both: Vec<Action> = a0.legal_actions().into_iter().filter(|a| l1.contains(a)).collect();
            if both.is_empty() {
                break;
            }
            let mut best = None;
            if let (Some(tree), Some(first)) = (&trees[0], red_move) {
                for &b in &both {
                    for key in outcomes(a0, b) {
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
                    (b, outcome(a0, b, &mut pick))
                }
            }
        };
        // Game 1 takes the outcome with game 0's public observation.
        for gi in &mut g {
            play(gi, action, Some(key));
        }
        if last_hash(&g[0]) != last_hash(&g[1]) || last_hash(&g[0]) != key {
            break; // no outcome of game 1 shows the same (the hidden parts decide what is shown)
        }
    }
    reused
}

/// The public observations after `a` in `s` (one per chance outcome).
fn outcomes(s: &State, a: Action) -> Vec<u64> {
    let c = s.child(a);
    if !c.is_chance() {
        return vec![public_hash(&c)];
    }
    c.chance_outcomes()
        .iter()
        .map(|(o, _)| {
            let mut x = c.clone();
            x.apply_chance(*o);
            public_hash(&x)
        })
        .collect()
}

/// One public observation after `a` in `s`, drawn by `rng`.
fn outcome(s: &State, a: Action, rng: &mut Pcg64Mcg) -> u64 {
    let keys = outcomes(s, a);
    keys[rng.random_range(0..keys.len())]
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
                    farm::search::sample_chance(&mut s, &mut rng);
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
        assert!(reused > 0, "{name}: no root was reused");
        total += reused;
    }
    assert!(total >= 10, "only {total} reused roots");
}
