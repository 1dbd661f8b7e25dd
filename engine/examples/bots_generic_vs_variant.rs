//! The yardstick for replacing a variant bot (`engine::search`) by the Game-trait bot of the
//! same name (`engine::search::game_bot`, which plays the variants through
//! [`engine::variant::game_state::VariantGameState`]): time per move on the same positions, then a
//! head-to-head match, colours alternating, from random openings.
//!
//! `cargo run --release -p anqi-engine --example bots_generic_vs_variant -- [VARIANT] [GAMES] [ONLY]`
//! (default `xiangqi 6`; `ONLY`: compare only the pairs whose variant spec starts with it, e.g.
//! `alphabeta`). `random` and `greedy` are already one implementation (identical games);
//! this compares `alphabeta`, `ismcts` and `pimc`.
use engine::search::game_bot::{self as generic, GameBot};
use engine::search::{self, Decision};
use engine::variant::game::draw_outcome;
use engine::variant::game_state::{decode, VariantGameState};
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

/// The generic bot's choice at `s`, as a variant action.
fn generic_choice(bot: &mut Box<dyn GameBot<VariantGameState>>, s: &State) -> engine::variant::Action {
    let g = VariantGameState::new(s.clone());
    decode(bot.choose(&g)).expect("a player action")
}

/// Seconds per move of the variant bot and of the generic bot over `states`.
fn time_per_move(variant_spec: &str, generic_spec: &str, states: &[State]) -> (f64, f64) {
    let mut vb = search::from_spec(variant_spec, 1).expect("variant spec");
    let mut gb = generic::from_spec::<VariantGameState>(generic_spec, 1).expect("generic spec");
    let t = Instant::now();
    for s in states {
        let a = vb.choose(&Decision::new(s));
        assert!(s.legal_actions().contains(&a));
    }
    let tv = t.elapsed().as_secs_f64() / states.len() as f64;
    let t = Instant::now();
    for s in states {
        let a = generic_choice(&mut gb, s);
        assert!(s.legal_actions().contains(&a));
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
        let mut vb = search::from_spec(variant_spec, 100 + i as u64).expect("variant spec");
        let mut gb = generic::from_spec::<VariantGameState>(generic_spec, 200 + i as u64).expect("generic spec");
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
                decode(gb.choose(&VariantGameState::new(s.clone()).with_prior(g.record()))).expect("a player action")
            } else {
                vb.choose(&Decision::in_game(&g))
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
