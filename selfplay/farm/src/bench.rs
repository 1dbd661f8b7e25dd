//! `anqi train --config … --bench`: throughput of this configuration on this machine: self-play
//! samples/s (the farm with the untrained net), net positions/s batched (`no_grad` inference at
//! several batch sizes) and training samples/s (optimiser steps at the configured batch size,
//! batches prebuilt, and with batch assembly). The last line is JSON for `scripts/bench-train`.
//! `--bench-train N` ([`train_only`]) measures only the training step, on a synthetic batch of
//! the shapes `scripts/bench_train.py` gives the same net in PyTorch.

use super::config::RunConfig;
use super::run::{device, init_threads, load_run_game};
use super::{game_seed, play_spec, GameJob, Player};
use models::net::Net;
use models::shard::Sample;
use models::train::{Batch, SyntheticShape, Trainer};
use std::time::Instant;

/// Runs the benchmark, `seconds` per measurement.
pub fn run(cfg: &RunConfig, seconds: f64) -> anyhow::Result<()> {
    let threads = init_threads(cfg.threads);
    let (game, encoding) = load_run_game(cfg)?;
    let device = device(cfg)?;
    let net = Net::with_encoding(&cfg.net, &encoding, device, cfg.seed);
    let obs_len = encoding.obs_len();
    println!(
        "bench: variant {}, net {}x{} ({} parameters), {} simulations, {} concurrent games, {threads} threads, {device:?}",
        game.name(),
        cfg.net.blocks,
        cfg.net.channels,
        net.parameter_count(),
        cfg.search.simulations,
        cfg.selfplay.game.concurrent_games
    );

    // 1. Self-play.
    let games = cfg.selfplay.games_per_iteration;
    let player = Player::Net { net: 0, search: cfg.search.clone() };
    let jobs: Vec<GameJob> = (0..u64::from(games))
        .map(|g| GameJob {
            id: g,
            seed: game_seed(&[cfg.seed, 0xBE7C, g]),
            red: player.clone(),
            black: player.clone(),
            record: true,
            noise: true,
            temperature: cfg.selfplay.game.temperature,
            temperature_plies: cfg.selfplay.game.temperature_plies,
        })
        .collect();
    let t = Instant::now();
    let (results, st) = play_spec(&game, &[&net], jobs, &cfg.selfplay.game, |_| {})?;
    let sp_secs = t.elapsed().as_secs_f64();
    let samples: Vec<Sample> = results.into_iter().flat_map(|r| r.samples).collect();
    let sp_rate = samples.len() as f64 / sp_secs;
    println!(
        "selfplay: {games} games, {} samples in {sp_secs:.1}s: {sp_rate:.1} samples/s, {:.0} net evals/s, mean batch {:.1} (net {:.1}s, search {:.1}s)",
        samples.len(),
        st.evals as f64 / sp_secs,
        st.evals as f64 / st.batches.max(1) as f64,
        st.net_seconds,
        st.search_seconds
    );
    anyhow::ensure!(!samples.is_empty(), "self-play produced no samples");

    // 2. Batched inference.
    let mut infer = Vec::new();
    for &b in &[1usize, 16, 64, 128, 256] {
        let mut obs = vec![0f32; b * obs_len];
        let legal: Vec<&[u16]> = (0..b).map(|i| samples[i % samples.len()].legal.as_slice()).collect();
        for i in 0..b {
            samples[i % samples.len()].obs.expand_into_shape(&mut obs[i * obs_len..(i + 1) * obs_len], &encoding.observation);
        }
        let _ = net.evaluate(&obs, &legal);
        let t = Instant::now();
        let mut n = 0usize;
        while t.elapsed().as_secs_f64() < seconds / 5.0 {
            let _ = net.evaluate(&obs, &legal);
            n += b;
        }
        let rate = n as f64 / t.elapsed().as_secs_f64();
        println!("net: batch {b:>3}: {rate:.0} positions/s");
        infer.push((b, rate));
    }

    // 3. Training.
    let bs = cfg.train.batch_size;
    let mut trainer = Trainer::new(net, cfg.optimizer.clone(), 1_000_000);
    let batches: Vec<Batch> = (0..4)
        .map(|k| {
            let refs: Vec<&Sample> = (0..bs).map(|i| &samples[(k * bs + i * 7) % samples.len()]).collect();
            Batch::new_for(&refs, &encoding, device, cfg.optimizer.q_weight)
        })
        .collect();
    for b in &batches {
        let _ = trainer.train_step(b);
    }
    let t = Instant::now();
    let mut steps = 0usize;
    while t.elapsed().as_secs_f64() < seconds {
        let _ = trainer.train_step(&batches[steps % batches.len()]);
        steps += 1;
    }
    let train_rate = (steps * bs) as f64 / t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut steps2 = 0usize;
    while t.elapsed().as_secs_f64() < seconds / 2.0 {
        let refs: Vec<&Sample> = (0..bs).map(|i| &samples[(steps2 * bs + i * 13) % samples.len()]).collect();
        let b = Batch::new_for(&refs, &encoding, device, cfg.optimizer.q_weight);
        let _ = trainer.train_step(&b);
        steps2 += 1;
    }
    let train_rate_assembly = (steps2 * bs) as f64 / t.elapsed().as_secs_f64();
    println!(
        "train: batch {bs}: {train_rate:.0} samples/s ({:.1} ms/step), {train_rate_assembly:.0} samples/s with batch assembly",
        1000.0 * bs as f64 / train_rate
    );
    let json = serde_json::json!({
        "variant": game.name(),
        "blocks": cfg.net.blocks,
        "channels": cfg.net.channels,
        "threads": threads,
        "simulations": cfg.search.simulations,
        "selfplay_samples_per_s": sp_rate,
        "selfplay_evals_per_s": st.evals as f64 / sp_secs,
        "net_positions_per_s": infer.iter().map(|(b, r)| serde_json::json!({"batch": b, "positions_per_s": r})).collect::<Vec<_>>(),
        "train_batch": bs,
        "train_samples_per_s": train_rate,
        "train_samples_per_s_with_assembly": train_rate_assembly,
    });
    println!("{json}");
    Ok(())
}

/// Training throughput alone: `steps` timed optimiser steps (after 4 untimed ones) of the
/// configured net, optimiser and batch size on a synthetic batch ([`Batch::synthetic`], the
/// shapes of [`SyntheticShape::typical`]), on the configured device and threads. Every step
/// reads its losses back (a device sync). Prints a line and then JSON (`rust_train_samples_per_s`,
/// …), and returns the JSON.
///
/// # Errors
/// The device does not resolve.
pub fn train_only(cfg: &RunConfig, steps: usize) -> anyhow::Result<serde_json::Value> {
    let threads = init_threads(cfg.threads);
    let device = device(cfg)?;
    let net = Net::new(&cfg.net, device, cfg.seed);
    let parameters = net.parameter_count();
    let shape = SyntheticShape::typical(cfg.train.batch_size);
    tch::manual_seed(cfg.seed as i64);
    let batch = Batch::synthetic(shape, device);
    let mut trainer = Trainer::new(net, cfg.optimizer.clone(), 1_000_000);
    for _ in 0..4 {
        let _ = trainer.train_step(&batch);
    }
    let t = Instant::now();
    let mut last = 0.0;
    for _ in 0..steps {
        last = trainer.train_step(&batch).total;
    }
    let secs = t.elapsed().as_secs_f64();
    let rate = (steps * shape.batch) as f64 / secs.max(1e-9);
    println!(
        "rust tch: net {}x{} ({parameters} parameters), batch {} ({} legal slots, {} targets), {steps} steps in {secs:.2}s: \
         {rate:.0} samples/s ({:.1} ms/step), {threads} threads, {device:?}, final loss {last:.3}",
        cfg.net.blocks,
        cfg.net.channels,
        shape.batch,
        shape.legal,
        shape.targets,
        1000.0 * secs / steps.max(1) as f64
    );
    let json = serde_json::json!({
        "rust_train_samples_per_s": rate,
        "steps": steps,
        "seconds": secs,
        "train_batch": shape.batch,
        "blocks": cfg.net.blocks,
        "channels": cfg.net.channels,
        "parameters": parameters,
        "threads": threads,
        "device": format!("{device:?}"),
        "optimizer": format!("{:?}", cfg.optimizer.kind).to_lowercase(),
        "libtorch": models::torch_info().libtorch_version,
        "final_loss": last,
    });
    println!("{json}");
    Ok(json)
}
