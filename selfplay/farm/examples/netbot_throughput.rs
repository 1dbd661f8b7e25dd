//! Net evaluations per second of the `net:` bot (the one net bot, [`farm::netmore::GameNetBot`],
//! on a RULES.md variant's `VariantGameState`) in one game, by leaves per net call
//! ([`farm::search::SearchConfig::batch`]), against the net's own throughput at those batch
//! sizes (the batched limit: `no_grad` inference of real observations, nothing else).
//!
//! `cargo run --release -p anqi-farm --example netbot_throughput -- [variant] [blocks] [channels]
//! [sims] [plies] [threads]` (defaults: surprise 4 32 128 30 1, the quick run's net). The net is
//! untrained: throughput does not depend on the weights.

use engine::search::GameBot;
use engine::variant::game_state::{decode, VariantGameState};
use engine::variant::{Variant, View};
use farm::netcounters::NetCounted;
use farm::netmore::GameNetBot;
use farm::search::SearchConfig;
use models::encoding;
use models::net::{Net, NetConfig};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let variant: &'static Variant = Box::leak(Box::new(Variant::load(&arg(0, "surprise")).expect("variant")));
    let blocks: usize = arg(1, "4").parse().expect("blocks");
    let channels: usize = arg(2, "32").parse().expect("channels");
    let sims: u32 = arg(3, "128").parse().expect("sims");
    let plies: usize = arg(4, "30").parse().expect("plies");
    let threads: i32 = arg(5, "1").parse().expect("threads");
    tch::set_num_threads(threads);
    let cfg = NetConfig::new(blocks, channels);
    println!("variant {} net {blocks}x{channels} sims {sims} plies {plies} torch threads {threads}", variant.name);

    // The batched limit: the net alone on real observations.
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    let s = farm::start_state(variant, &mut rng);
    let view = View::new(&s, s.turn());
    let one = encoding::encode(&view);
    let slots = encoding::indices(&s.legal_actions(), s.turn());
    let net = Net::new(&cfg, tch::Device::Cpu, 1);
    for b in [1usize, 8, 16, 64] {
        let obs: Vec<f32> = one.iter().copied().cycle().take(b * one.len()).collect();
        let legal: Vec<&[u16]> = vec![&slots; b];
        let _ = net.evaluate(&obs, &legal);
        let t = Instant::now();
        let mut n = 0usize;
        while t.elapsed().as_secs_f64() < 2.0 {
            let _ = net.evaluate(&obs, &legal);
            n += b;
        }
        println!("net alone   batch {b:>3}: {:>8.0} positions/s", n as f64 / t.elapsed().as_secs_f64());
    }

    // Games of the bot against itself, by leaves per net call.
    for batch in [1u32, 8, 16] {
        let mut search = SearchConfig::with_simulations(sims);
        search.batch = batch;
        let trained_for = variant.name.clone();
        let mut bots: [GameNetBot<VariantGameState>; 2] = [
            GameNetBot::new(Net::new(&cfg, tch::Device::Cpu, 1), search.clone(), None, 3, "red".into(), trained_for.clone()),
            GameNetBot::new(Net::new(&cfg, tch::Device::Cpu, 1), search, None, 4, "black".into(), trained_for),
        ];
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let mut game = VariantGameState::unbounded(farm::start_state(variant, &mut rng));
        let t = Instant::now();
        let mut played = 0;
        while played < plies {
            if game.outcome().is_some() {
                game = VariantGameState::unbounded(farm::start_state(variant, &mut rng));
            }
            let side = game.state().turn().index();
            let a = decode(bots[side].choose(&game)).expect("a variant player action");
            game.play(a, |outs| engine::variant::game::draw_outcome(outs, &mut rng));
            played += 1;
        }
        let secs = t.elapsed().as_secs_f64();
        let evals = bots[0].evaluations() + bots[1].evaluations();
        println!(
            "net: bot   batch {batch:>3}: {:>8.0} net evaluations/s ({evals} evaluations, {played} plies, {secs:.1}s)",
            evals as f64 / secs
        );
    }
}
