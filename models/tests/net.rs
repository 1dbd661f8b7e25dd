//! The net: shapes, masked priors, learning a fixed batch, and an exact resume of the optimiser.

use models::encoding::{CompactObs, ACTIONS, OBS_LEN};
use models::net::{Net, NetConfig};
use models::shard::Sample;
use models::train::{Batch, OptimConfig, OptimizerKind, Schedule, Trainer};
use tch::{Device, Tensor};

fn samples(n: usize) -> Vec<Sample> {
    (0..n)
        .map(|i| {
            let legal: Vec<u16> = (0..20).map(|k| ((i * 31 + k * 997) % ACTIONS) as u16).collect();
            Sample {
                obs: CompactObs { fills: vec![(55, 1.0)], cells: vec![(((i * 13) % OBS_LEN) as u16, 1.0), (((i * 7 + 90) % OBS_LEN) as u16, 0.5)] },
                policy: vec![(legal[i % 20], 0.8), (legal[(i + 3) % 20], 0.2)],
                legal,
                outcome: [1.0, 0.0, -1.0][i % 3],
                ply: 0,
                q: 0.25,
            }
        })
        .collect()
}

fn optim(kind: OptimizerKind) -> OptimConfig {
    OptimConfig { kind, lr: 3e-3, momentum: 0.9, weight_decay: 1e-4, schedule: Schedule::Constant, warmup_steps: 0, lr_min_fraction: 0.1, value_weight: 1.0, q_weight: 0.0 }
}

#[test]
fn shapes_and_masked_priors() {
    tch::set_num_threads(1);
    let net = Net::new(&NetConfig::new(2, 16), Device::Cpu, 1);
    let x = Tensor::zeros([3, models::encoding::PLANES as i64, 10, 9], (tch::Kind::Float, Device::Cpu));
    let (p, v) = net.forward_t(&x, false);
    assert_eq!(p.size(), [3, ACTIONS as i64]);
    assert_eq!(v.size(), [3, 3]);
    let obs = vec![0.25f32; 2 * OBS_LEN];
    let a: Vec<u16> = vec![5, 900, 24390, 24410];
    let b: Vec<u16> = vec![17];
    let ev = net.evaluate(&obs, &[&a, &b]);
    assert_eq!(ev.priors(0).len(), 4);
    assert!((ev.priors(0).iter().sum::<f32>() - 1.0).abs() < 1e-5);
    assert_eq!(ev.priors(1), &[1.0]);
    for i in 0..2 {
        let w = &ev.wdl[3 * i..3 * i + 3];
        assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!((-1.0..=1.0).contains(&ev.value(i)));
    }
}

#[test]
fn learns_a_fixed_batch() {
    tch::set_num_threads(1);
    for kind in [OptimizerKind::Adam, OptimizerKind::Sgd] {
        let s = samples(64);
        let refs: Vec<&Sample> = s.iter().collect();
        let batch = Batch::new(&refs, Device::Cpu, 0.0);
        let mut t = Trainer::new(Net::new(&NetConfig::new(1, 16), Device::Cpu, 2), optim(kind), 100);
        let first = t.train_step(&batch).total;
        let mut last = first;
        for _ in 0..60 {
            last = t.train_step(&batch).total;
        }
        assert!(last < 0.6 * first, "{kind:?}: loss {first} -> {last}");
    }
}

#[test]
fn optimizer_state_resumes_exactly() {
    tch::set_num_threads(1);
    let s = samples(32);
    let refs: Vec<&Sample> = s.iter().collect();
    let batch = Batch::new(&refs, Device::Cpu, 0.0);
    let cfg = NetConfig::new(1, 8);
    let mut a = Trainer::new(Net::new(&cfg, Device::Cpu, 5), optim(OptimizerKind::Adam), 100);
    for _ in 0..3 {
        a.train_step(&batch);
    }
    // "Kill" after 3 steps: rebuild from the saved weights and optimiser state.
    let dir = tempfile::tempdir().expect("tempdir");
    let info = models::checkpoint::SaveInfo { step: a.step, variant: "x", config: serde_json::json!({}), git_revision: "t", trainer: serde_json::json!({}) };
    let json = models::checkpoint::save(dir.path(), &a.net, Some(&a.optimizer_state()), info).expect("save");
    let (net, meta, _) = models::checkpoint::load(dir.path(), Device::Cpu, Default::default()).expect("load");
    let mut b = Trainer::new(net, optim(OptimizerKind::Adam), 100);
    b.load_optimizer_state(models::checkpoint::load_optimizer(&json, &meta).expect("optim"), &json).expect("state");
    assert_eq!(b.step, 3);
    let la = a.train_step(&batch);
    let lb = b.train_step(&batch);
    assert_eq!(la.total, lb.total);
    let la = a.train_step(&batch);
    let lb = b.train_step(&batch);
    assert_eq!(la.total, lb.total, "the fifth step is identical after a resume");
}
