//! Diagnostic: plays evaluation games (trained checkpoint vs another, same search, no noise) and
//! prints, for each game drawn by repetition, the last plies: mover, action, visits of the chosen
//! root edge, whether the position after it was already in the history, and the root value.
//!
//! `cargo run --release -p anqi-farm --example repetition_probe -- RUN/checkpoints/step-600.json (RUN/checkpoints/step-0.json | random) [games] [sims]`
use farm::search::{is_setup, Search, SearchConfig};
use farm::start_state;
use engine::variant::game_state::{decode, VariantGameState};
use engine::variant::Variant;
use models::checkpoint::{self, Expect};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::path::PathBuf;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a = checkpoint::load(&PathBuf::from(&args[1]), tch::Device::Cpu, Expect::default()).expect("a").0;
    let random = args[2] == "random";
    let b = if random { None } else { Some(checkpoint::load(&PathBuf::from(&args[2]), tch::Device::Cpu, Expect::default()).expect("b").0) };
    let games: u64 = args.get(3).map(|s| s.parse().expect("games")).unwrap_or(6);
    let sims: u32 = args.get(4).map(|s| s.parse().expect("sims")).unwrap_or(32);
    let v: &'static Variant = engine::any_game::load_variant("surprise").expect("surprise");
    let mut cfg = SearchConfig::with_simulations(sims);
    cfg.draw_contempt = 0.15;
    cfg.dirichlet_fraction = 0.0;
    for g in 0..games {
        let mut rng = Pcg64Mcg::seed_from_u64(1000 + g);
        let mut game = VariantGameState::unbounded(start_state(v, &mut rng));
        let mut log: Vec<String> = Vec::new();
        let trained_red = g % 2 == 0;
        loop {
            if let Some(end) = game.outcome() {
                let r = end.reason();
                println!("game {g}: trained {} -> {} {r} after {} plies", if trained_red { "red" } else { "black" }, end.result(), game.plies());
                if r.contains("repetition") {
                    for l in log.iter().rev().take(10).rev() {
                        println!("   {l}");
                    }
                }
                break;
            }
            if game.plies() as usize >= 400 {
                println!("game {g}: ply limit");
                break;
            }
            let s = game.state().clone();
            let me = s.turn();
            let trained = (me == engine::Color::Red) == trained_red;
            if !trained && random {
                let acts = s.legal_actions();
                let act = acts[rand::Rng::random_range(&mut rng, 0..acts.len())];
                game.play(act, |outs| outs[0].0);
                let h = game.record().last().map(|p| p.hash);
                let rep = game.record().iter().rev().skip(1).any(|p| Some(p.hash) == h);
                log.push(format!("R {me:?} {act:?}, repeats {rep}"));
                continue;
            }
            let net = if trained { &a } else { b.as_ref().expect("opponent net") };
            // The one search on the game as played (its record decides repetitions, RULES.md §X6).
            let mut search = Search::generic(game.clone(), is_setup(&game), &cfg, false).expect("a player's turn");
            while search.advance(&mut rng) {
                let ev = net.evaluate(search.request_obs(), &search.request_slots());
                for i in 0..search.requests() {
                    let p = ev.priors(i).to_vec();
                    search.deliver(i, &p, ev.value(i), &mut rng);
                }
            }
            let temp = if game.plies() < 4 { 1.0 } else { 0.0 };
            let code = search.choose(temp, &mut rng);
            let act = decode(code).expect("a player action");
            let visits = search.visits();
            let n = visits.iter().find(|x| x.0 == code).map(|x| x.2).unwrap_or(0);
            let nlegal = visits.len();
            let q = search.root_value();
            game.play(act, |outs| outs[0].0);
            let h = game.record().last().map(|p| p.hash);
            let rep = game.record().iter().rev().skip(1).any(|p| Some(p.hash) == h);
            log.push(format!("{} {:?} {act:?} visits {n}/{sims} of {nlegal} legal, repeats {rep}, root q {q:.2}", if trained { "T" } else { "U" }, me));
        }
    }
}
