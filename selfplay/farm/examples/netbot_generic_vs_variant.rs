//! The yardstick for replacing the variants' net bot ([`farm::netbot::NetBot`], the farm's search
//! over `VariantSearch`: its in-tree repetition rule, expectimax leaf mixing, root win and loss
//! checks) by the generic one ([`farm::netmore::GameNetBot`] on
//! [`engine::variant::game_state::VariantGameState`], the search every other game plays, issue
//! #38 item 1): the same checkpoint and simulations, time per move on the same positions, then a
//! head-to-head match, colours alternating, each pair of games from the same random opening and
//! reveal seed.
//!
//! `cargo run --release -p anqi-farm --example netbot_generic_vs_variant -- [NET] [GAMES] [SIMS]
//! [VARIANT_ONLY]` (defaults: `zoo=jieqi` 20 64; `NET` is the spec after `net:`, without
//! `pimc=`, `layouts=`, `mix=` or `vdepth=`, which only the variants' search has;
//! `VARIANT_ONLY`, e.g. `mix=0`, is added to the variant bot's spec alone). The variant is the
//! checkpoint's.

use engine::search::GameBot;
use engine::variant::game::draw_outcome;
use engine::variant::game_state::{decode, VariantGameState};
use engine::variant::State;
use engine::Color;
use farm::netbot::NetBot;
use farm::netmore::GameNetBot;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

fn generic(params: &str, seed: u64, g: &VariantGameState) -> GameNetBot<VariantGameState> {
    GameNetBot::from_params(params, seed, g).expect("generic net bot")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let net = args.first().cloned().unwrap_or_else(|| "zoo=jieqi".into());
    let games: u32 = args.get(1).and_then(|g| g.parse().ok()).unwrap_or(20);
    let sims: u32 = args.get(2).and_then(|g| g.parse().ok()).unwrap_or(64);
    let params = format!("{net},sims={sims},batch=8");
    let vparams = match args.get(3) {
        Some(extra) => format!("{params},{extra}"),
        None => params.clone(),
    };
    tch::set_num_threads(1);
    let probe = NetBot::from_params(&vparams, 1).expect("net bot");
    let variant_name = probe.name();
    let meta_variant = farm::netspec::NetSpec::parse(&params).expect("spec").meta().expect("checkpoint").variant;
    let v = engine::any_game::load_variant(&meta_variant).expect("the checkpoint's variant");
    println!("{params}: the checkpoint's variant {}; variant bot {variant_name}", v.name);

    // Time per move on positions of random games (every sixth ply from ply 6).
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    let mut positions = Vec::new();
    while positions.len() < 12 {
        let mut g = VariantGameState::unbounded(State::new_game(v));
        while g.outcome().is_none() && positions.len() < 12 && g.plies() < 90 {
            let l = g.state().legal_actions();
            let a = l[rng.random_range(0..l.len())];
            g.play(a, |outs| draw_outcome(outs, &mut rng));
            if g.plies() >= 6 && g.plies().is_multiple_of(6) && g.outcome().is_none() && !g.state().in_setup() && !g.state().is_chance() {
                positions.push(g.clone());
            }
        }
    }
    let mut vb = NetBot::from_params(&format!("{vparams},reuse=0"), 1).expect("net bot");
    let mut gb = generic(&format!("{params},reuse=0"), 1, &positions[0]);
    let t = Instant::now();
    for g in &positions {
        let _ = vb.choose_variant(g);
    }
    let tv = t.elapsed().as_secs_f64() / positions.len() as f64;
    let t = Instant::now();
    for g in &positions {
        let _ = gb.choose(g);
    }
    let tg = t.elapsed().as_secs_f64() / positions.len() as f64;
    println!("time per move: variant {:.1} ms, generic {:.1} ms (ratio {:.2})", tv * 1e3, tg * 1e3, tg / tv.max(1e-9));

    // Head to head: the generic bot Red in even games; 4 random opening plies and the reveals
    // shared by each pair.
    let (mut points, mut plies) = (0.0, 0);
    let t = Instant::now();
    for i in 0..games {
        let pair = u64::from(i / 2);
        let mut g = VariantGameState::unbounded(State::new_game(v));
        let mut vb = NetBot::from_params(&vparams, 100 + u64::from(i)).expect("net bot");
        let mut gb = generic(&params, 200 + u64::from(i), &g);
        let generic_color = if i % 2 == 0 { Color::Red } else { Color::Black };
        let mut opening = Pcg64Mcg::seed_from_u64(pair);
        let mut chance = Pcg64Mcg::seed_from_u64(1000 + pair);
        let winner = loop {
            if let Some(end) = g.outcome() {
                break end.winner();
            }
            if g.plies() >= 300 {
                break None;
            }
            let s = g.state();
            let a = if g.plies() < 4 && !s.in_setup() {
                let l = s.legal_actions();
                l[opening.random_range(0..l.len())]
            } else if s.turn() == generic_color {
                decode(gb.choose(&g)).expect("a player action")
            } else {
                vb.choose_variant(&g)
            };
            g.play(a, |outs| draw_outcome(outs, &mut chance));
        };
        plies += g.plies();
        points += match winner {
            Some(c) if c == generic_color => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        println!("game {i}: generic {generic_color:?}, winner {winner:?}, {} plies", g.plies());
    }
    let n = f64::from(games.max(1));
    let score = points / n;
    let elo = |s: f64| -400.0 * (1.0 / s.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
    println!(
        "generic scored {points}/{games} ({:.1} %, {:+.0} Elo) against the variant net bot, {plies} plies, {:.0} s",
        score * 100.0,
        elo(score),
        t.elapsed().as_secs_f64()
    );
}
