//! Where a training step's time goes: the full step (forward, loss, backward, AdamW), the forward
//! pass with the loss, and the forward pass without gradients, for the quick config's net (4x32)
//! at batch 256 on 2 threads, on a synthetic batch shaped like self-play's (45 legal slots, 20
//! visited). Compare with the same phases in Python PyTorch (scripts/bench_train.py) and try
//! allocator settings from the environment, e.g. `MALLOC_MMAP_THRESHOLD_=33554432
//! MALLOC_TRIM_THRESHOLD_=1073741824` (what `anqi train` sets itself with `mallopt`).
//!
//! `cargo run --release -p anqi-models --example train_profile`

use models::encoding::{ACTIONS, PLANES};
use models::net::{Net, NetConfig};
use models::train::{losses, Batch, OptimConfig, Trainer};
use std::time::Instant;
use tch::{Device, Kind, Tensor};

fn per_step(k: usize, f: impl FnMut()) -> f64 {
    let mut f = f;
    let t = Instant::now();
    for _ in 0..k {
        f();
    }
    t.elapsed().as_secs_f64() * 1000.0 / k as f64
}

fn main() {
    tch::set_num_threads(2);
    tch::manual_seed(0);
    let n = 256i64;
    let cpu = Device::Cpu;
    let net = Net::new(&NetConfig::new(4, 32), cpu, 1);
    let cfg: OptimConfig = serde_json::from_str(r#"{"lr":0.002,"weight_decay":0.0001}"#).expect("optimiser config");
    let mut tr = Trainer::new(net, cfg, 1_000_000);
    let obs = Tensor::rand([n, PLANES as i64, 10, 9], (Kind::Float, cpu)).lt(0.05).to_kind(Kind::Float);
    let legal_idx = Tensor::randint(ACTIONS as i64, [n, 45], (Kind::Int64, cpu));
    let legal_pad = Tensor::zeros([n, 45], (Kind::Bool, cpu));
    let _ = legal_pad.narrow(1, 40, 5).fill_(1);
    let target_idx = legal_idx.narrow(1, 0, 20).contiguous();
    let target_p = Tensor::randn([n, 20], (Kind::Float, cpu)).softmax(1, Kind::Float);
    let value = Tensor::randn([n, 3], (Kind::Float, cpu)).softmax(1, Kind::Float);
    let b = Batch { obs, legal_idx, legal_pad, target_idx, target_p, value, len: n as usize };
    for _ in 0..4 {
        let _ = tr.train_step(&b);
    }
    let k = 40;
    let full = per_step(k, || {
        let _ = tr.train_step(&b);
    });
    let fwd = per_step(k, || {
        let (p, v) = losses(&tr.net, &b, true);
        let _ = (p + v).double_value(&[]);
    });
    let nograd = per_step(k, || {
        let _ = tch::no_grad(|| tr.net.forward_t(&b.obs, true));
    });
    println!("batch {n}: full step {full:.1} ms ({:.0} samples/s), forward+loss {fwd:.1} ms, forward without gradients {nograd:.1} ms", n as f64 * 1000.0 / full);
}
