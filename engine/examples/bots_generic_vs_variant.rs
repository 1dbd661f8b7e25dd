//! The yardstick for replacing a variant bot (the variants' own implementation of a registry
//! bot, [`engine::search::registry::variant_bot`], which the registry builds for
//! [`engine::variant::game_state::VariantGameState`]) by the generic bot of the same name (the
//! code every other game plays, built here directly): time per move on the same positions, then
//! a head-to-head match, colours alternating, from random openings.
//!
//! `cargo run --release -p anqi-engine --example bots_generic_vs_variant -- [VARIANT] [GAMES] [ONLY]`
//! (default `xiangqi 6`; `ONLY`: compare only the pairs whose variant spec starts with it, e.g.
//! `alphabeta`). `random` and `greedy` are already one implementation (identical games);
//! this compares `alphabeta`, `ismcts` and `pimc`.
use engine::search::alphabeta::{parse_limits, GameAlphaBetaBot};
use engine::search::game_bot::{choose_variant, GameBot};
use engine::search::ismcts::{GameIsmctsBot, IsmctsConfig};
use engine::search::pimc::{GamePimcBot, Inner, PimcConfig};
use engine::search::registry::BotSpec;
use engine::search;
use engine::variant::game::draw_outcome;
use engine::variant::game_state::VariantGameState;
use engine::variant::{State, Variant};
use engine::Color;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

/// The (variant spec, generic spec) pairs compared: the same search at the same budget, and
/// IS-MCTS once more with the variant bot given about the generic one's time.
const PAIRS: [(&str, &str); 4] = [
    ("alphabeta:depth=3", "alphabeta:depth=3"),
    ("ismcts:iterations=300", "ismcts:iterations=300"),
    ("ismcts:iterations=1500", "ismcts:iterations=300"),
    ("pimc:k=4,search=alphabeta:depth=2", "pimc:k=4,depth=2"),
];

/// The generic implementation of `spec` on the variants (the copy-make alpha-beta, the generic
/// IS-MCTS, the generic PIMC with the alpha-beta inner search), bypassing the variants' own.
fn generic_bot(spec: &str, seed: u64) -> Box<dyn GameBot<VariantGameState>> {
    let s = BotSpec::parse(spec).expect("spec");
    match s.name.as_str() {
        "alphabeta" => {
            let (limits, hash) = parse_limits(&s.params, 4).expect("alphabeta spec");
            Box::new(GameAlphaBetaBot::<VariantGameState>::new(limits, hash))
        }
        "ismcts" => Box::new(GameIsmctsBot::new(IsmctsConfig::from_params(&s.params).expect("ismcts spec"), seed)),
        "pimc" => {
            let c = PimcConfig::from_params(&s.params).expect("pimc spec").for_variants();
            let Inner::AlphaBeta(limits) = c.inner else { panic!("the generic PIMC compared here searches by alpha-beta") };
            Box::new(GamePimcBot::<VariantGameState>::new(c.k, c.ms, limits, c.hash_mb, seed))
        }
        other => panic!("no generic bot {other} compared here"),
    }
}

/// `n` positions from random games (every sixth ply from ply 6).
fn positions(v: &'static Variant, n: usize, seed: u64) -> Vec<State> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut g = VariantGameState::unbounded(State::start(v, Some(("A", "A"))).or_else(|_| State::start(v, None)).expect("start"));
        while g.outcome().is_none() && out.len() < n && g.plies() < 120 {
            let l = g.state().legal_actions();
            let a = l[rng.random_range(0..l.len())];
            g.play(a, |outs| draw_outcome(outs, &mut rng));
            if g.plies().is_multiple_of(6) && g.outcome().is_none() {
                out.push(g.state().clone());
            }
        }
    }
    out
}

/// Seconds per move of the variant bot and of the generic bot over `states`.
fn time_per_move(variant_spec: &str, generic_spec: &str, states: &[State]) -> (f64, f64) {
    let mut vb = search::from_spec::<VariantGameState>(variant_spec, 1).expect("variant spec");
    let mut gb = generic_bot(generic_spec, 1);
    let games: Vec<VariantGameState> = states.iter().map(|s| VariantGameState::new(s.clone())).collect();
    let t = Instant::now();
    for g in &games {
        let a = choose_variant(vb.as_mut(), g);
        assert!(g.state().legal_actions().contains(&a));
    }
    let tv = t.elapsed().as_secs_f64() / states.len() as f64;
    let t = Instant::now();
    for g in &games {
        let a = choose_variant(gb.as_mut(), g);
        assert!(g.state().legal_actions().contains(&a));
    }
    (tv, t.elapsed().as_secs_f64() / states.len() as f64)
}

/// The generic bot's points against the variant bot over `games` games (generic Red in even
/// games), 4 random opening plies shared by each pair of games, 200 plies then a draw. Both bots
/// are handed the game's public record (RULES.md §X6 repetitions), as a tournament hands it.
fn head_to_head(v: &'static Variant, variant_spec: &str, generic_spec: &str, games: u32) -> (f64, u32) {
    let mut points = 0.0;
    let mut plies = 0;
    for i in 0..games {
        let pair = (i / 2) as u64;
        let mut vb = search::from_spec::<VariantGameState>(variant_spec, 100 + i as u64).expect("variant spec");
        let mut gb = generic_bot(generic_spec, 200 + i as u64);
        let generic_color = if i % 2 == 0 { Color::Red } else { Color::Black };
        let mut opening = Pcg64Mcg::seed_from_u64(pair);
        let mut chance = Pcg64Mcg::seed_from_u64(1000 + pair);
        let mut g = VariantGameState::unbounded(State::start(v, Some(("A", "A"))).or_else(|_| State::start(v, None)).expect("start"));
        let winner = loop {
            if let Some(end) = g.outcome() {
                break end.winner();
            }
            if g.plies() >= 200 {
                break None;
            }
            let s = g.state().clone();
            let a = if g.plies() < 4 {
                let l = s.legal_actions();
                l[opening.random_range(0..l.len())]
            } else if s.turn() == generic_color {
                choose_variant(gb.as_mut(), &g)
            } else {
                choose_variant(vb.as_mut(), &g)
            };
            g.play(a, |outs| draw_outcome(outs, &mut chance));
        };
        plies += g.plies();
        points += match winner {
            Some(c) if c == generic_color => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    (points, plies)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map(String::as_str).unwrap_or("xiangqi");
    let games: u32 = args.get(1).and_then(|g| g.parse().ok()).unwrap_or(6);
    let only = args.get(2).map(String::as_str).unwrap_or("");
    let v: &'static Variant = engine::any_game::load_variant(name).expect("variant");
    let states = positions(v, 12, 7);
    println!("{name}: {} positions; {games} games per pair", states.len());
    println!("{:<40} {:>12} {:>12} {:>8} {:>22}", "variant spec | generic spec", "variant ms", "generic ms", "ratio", "generic score (plies)");
    for (vs, gs) in PAIRS.into_iter().filter(|(vs, _)| vs.starts_with(only)) {
        let (tv, tg) = time_per_move(vs, gs, &states);
        let (p, plies) = if games > 0 { head_to_head(v, vs, gs, games) } else { (0.0, 0) };
        println!(
            "{:<40} {:>12.2} {:>12.2} {:>8.2} {:>14}/{games} ({plies})",
            format!("{vs} | {gs}"),
            tv * 1e3,
            tg * 1e3,
            tg / tv.max(1e-9),
            p
        );
    }
}
