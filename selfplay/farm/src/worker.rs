//! A stateless self-play worker (`anqi selfplay --worker K`): load the newest checkpoint, play a
//! shard of games, write it (atomically) to the output directory, repeat. Workers share nothing
//! but the directories, so any number of them on any number of machines can feed one trainer.

use super::config::RunConfig;
use super::run::{device, init_threads, load_run_game, selfplay_shard, Ui};
use models::checkpoint::{self, Expect};
use models::net::Net;
use models::shard;
use std::path::PathBuf;

/// What a worker does.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// Worker number (part of shard names and game seeds).
    pub worker: u32,
    /// Where shards go (default: the run's `shards/`).
    pub out: PathBuf,
    /// Shards to write before stopping (0: until killed).
    pub shards: u64,
    /// Net to play with (default: the run's latest checkpoint, else the untrained net).
    pub checkpoint: Option<PathBuf>,
}

/// Runs the worker.
pub fn run(cfg: &RunConfig, opts: &WorkerOptions, progress: bool) -> anyhow::Result<()> {
    let ui = Ui::new(progress);
    let threads = init_threads(cfg.threads);
    let (game, encoding) = load_run_game(cfg)?;
    let device = device(cfg)?;
    let expect = Expect { variant: Some(game.name()), architecture: Some(&cfg.net) };
    std::fs::create_dir_all(&opts.out)?;
    let mut written = 0u64;
    while opts.shards == 0 || written < opts.shards {
        let ck_dir = cfg.checkpoint_dir();
        let (net, step) = match &opts.checkpoint {
            Some(p) => {
                let (n, m, _) = checkpoint::load_for(p, device, expect, &encoding)?;
                (n, m.step)
            }
            None if checkpoint::exists(&ck_dir) => {
                let (n, m, _) = checkpoint::load_for(&ck_dir, device, expect, &encoding)?;
                (n, m.step)
            }
            None => (Net::with_encoding(&cfg.net, &encoding, device, cfg.seed), 0),
        };
        let seq = shard::next_seq(&opts.out, opts.worker)?;
        let st = selfplay_shard(&game, &net, step, cfg, opts.worker, seq, &opts.out, &ui)?;
        ui.say(format!(
            "worker {} shard {}: {} games, {} samples in {:.1}s ({:.1} samples/s, {} net evals, net step {step}, {threads} threads)",
            opts.worker,
            st.path.display(),
            st.games,
            st.samples,
            st.seconds,
            st.samples as f64 / st.seconds.max(1e-9),
            st.evals
        ));
        written += 1;
    }
    Ok(())
}
