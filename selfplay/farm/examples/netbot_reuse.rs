//! The `net:` bot's tree kept between decisions (issue #14 item 2, `reuse`): at equal wall clock
//! per move, how many positions the net evaluates a decision and how many visits the root holds
//! when the move is chosen, with the tree kept (`reuse=1`, the default) and searched afresh
//! (`reuse=0`). Both play the same games against themselves (same start states and chance seeds).
//!
//! `cargo run --release -p anqi-farm --example netbot_reuse -- CHECKPOINT|untrained [variant] [ms]
//! [games] [max_plies] [sims]` (defaults: surprise, 100 ms, 4 games, 120 plies, no cap); `untrained`
//! uses a fresh net of the quick run's size (4 blocks, 32 channels). `sims` caps each search
//! instead of (or with) the clock; `ms=0` searches by `sims` alone.

use engine::search::arena;
use engine::variant::game_state::VariantGameState;
use engine::variant::{State, Variant};
use farm::netcounters::NetCounted;
use farm::netmore::GameNetBot;
use farm::search::SearchConfig;
use models::net::{Net, NetConfig};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::time::{Duration, Instant};

/// The `net:` bot (the one of every game, seated at `variant`'s games).
type NetBot = GameNetBot<VariantGameState>;

fn bot(ck: &str, variant: &'static Variant, reuse: bool, ms: u64, sims: Option<u32>, seed: u64) -> NetBot {
    if ck == "untrained" {
        let mut cfg = SearchConfig::with_simulations(sims.unwrap_or(u32::MAX));
        cfg.batch = farm::netspec::DEFAULT_BATCH;
        cfg.reuse_tree = reuse;
        let net = Net::new(&NetConfig::new(4, 32), tch::Device::Cpu, 1);
        let time = (ms > 0).then(|| Duration::from_millis(ms));
        return NetBot::new(net, cfg, time, seed, "untrained".into(), variant.name.clone());
    }
    let mut spec = format!("checkpoint={ck},reuse={}", u8::from(reuse));
    if ms > 0 {
        spec += &format!(",ms={ms}");
    }
    if let Some(n) = sims {
        spec += &format!(",sims={n}");
    }
    NetBot::from_params(&spec, seed, &VariantGameState::unbounded(State::new_game(variant))).expect("net bot")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let ck = arg(0, "untrained");
    let variant: &'static Variant = Box::leak(Box::new(Variant::load(&arg(1, "surprise")).expect("variant")));
    let ms: u64 = arg(2, "100").parse().expect("ms");
    let games: u64 = arg(3, "4").parse().expect("games");
    let max_plies: usize = arg(4, "120").parse().expect("max plies");
    let sims: Option<u32> = args.get(5).map(|s| s.parse().expect("sims"));
    println!("checkpoint {ck} variant {} ms {ms} sims {sims:?} games {games} max plies {max_plies}", variant.name);
    // Per setting: decisions, evaluations, root visits, reused roots, plies, seconds. The two
    // settings alternate game by game, so that a change in the machine's load falls on both.
    let mut tot = [[0f64; 7]; 2];
    for g in 0..games {
        for (k, reuse) in [true, false].into_iter().enumerate() {
            let t = Instant::now();
            let mut rng = Pcg64Mcg::seed_from_u64(1000 + g);
            let start = farm::start_state(variant, &mut rng);
            let mut red = bot(&ck, variant, reuse, ms, sims, 2 * g);
            let mut black = bot(&ck, variant, reuse, ms, sims, 2 * g + 1);
            let plies = arena::play(start, &mut red, &mut black, 77 + g, max_plies).plies;
            for b in [&red, &black] {
                tot[k][0] += b.decisions() as f64;
                tot[k][1] += b.evaluations() as f64;
                tot[k][2] += b.root_visits() as f64;
                tot[k][3] += b.reused_decisions() as f64;
                tot[k][6] += b.reused_visits() as f64;
            }
            tot[k][4] += plies as f64;
            tot[k][5] += t.elapsed().as_secs_f64();
        }
    }
    for (k, t) in tot.iter().enumerate() {
        let per = |x: f64| x / t[0].max(1.0);
        println!(
            "reuse={} decisions {:>5} plies {:>5} | evaluations/decision {:>6.1} | root visits/decision {:>6.1} (kept {:>5.1}) | reused roots {:>5.1}%, {:>5.1} visits kept each | {:.0} ms/decision",
            1 - k,
            t[0],
            t[4],
            per(t[1]),
            per(t[2]),
            per(t[6]),
            100.0 * per(t[3]),
            t[6] / t[3].max(1.0),
            1000.0 * per(t[5])
        );
    }
}
