//! `anqi export --checkpoint PATH --out DIR` (or `--zoo NAME`, a published net, its hash
//! checked): a checkpoint as `model.safetensors` + `model.json`, plus a TorchScript module `model.pt` that Python's `torch.jit.load` runs. The
//! TorchScript is written by `anqi_net.py` (a copy of `scripts/export_torchscript.py`, which
//! rebuilds the same architecture in PyTorch, loads the safetensors and scripts it), run with the
//! project's `.venv` Python; it then reloads `model.pt` and checks that its outputs equal this
//! binary's on fixed inputs (`check.safetensors`: positions from seeded random games).

use crate::games::load_game;
use engine::any_game::Start;
use crate::search::resolve_chance;
use anyhow::{bail, Context};
use engine::game::Turn;
use engine::more::presets::{Playable, WithGame};
use models::checkpoint::{self, Expect};
use models::net::obs_tensor_for;
use models::zoo;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::path::{Path, PathBuf};
use std::process::Command;
use tch::{Device, Tensor};

/// The exporter script, embedded so the binary works from any directory.
pub const SCRIPT: &str = include_str!("../../../../scripts/export_torchscript.py");

/// Export a checkpoint: safetensors + JSON metadata + a TorchScript module, checked against this
/// binary's outputs.
#[derive(clap::Args, Clone, Debug)]
pub struct Options {
    /// Checkpoint: a run or checkpoint directory (its `latest`), `step-N.json` or
    /// `step-N.safetensors`.
    #[arg(long, required_unless_present = "zoo", conflicts_with = "zoo")]
    pub checkpoint: Option<PathBuf>,
    /// A published net instead (`anqi zoo list`): its name (the newest of that name) or
    /// `NAME-HASH12`.
    #[arg(long)]
    pub zoo: Option<String>,
    /// Zoo directory for `--zoo` (default: `$ANQI_ZOO`, else `models/zoo` here, else the source
    /// tree's).
    #[arg(long, requires = "zoo")]
    pub zoo_dir: Option<PathBuf>,
    /// Output directory.
    #[arg(long)]
    pub out: PathBuf,
    /// Python with torch (default: `.venv/bin/python` here or in the source tree, else `python3`).
    #[arg(long)]
    pub python: Option<PathBuf>,
    /// Write only the safetensors, metadata and check inputs (no Python).
    #[arg(long)]
    pub no_torchscript: bool,
    /// Positions in the check batch.
    #[arg(long, default_value_t = 16)]
    pub check_positions: usize,
}

/// The Python to run: `--python`, else `.venv/bin/python` in the working directory or the
/// source tree this binary was built from, else `python3`.
pub fn python(explicit: Option<&Path>) -> PathBuf {
    if let Some(p) = explicit {
        return p.to_path_buf();
    }
    let here = PathBuf::from(".venv/bin/python");
    if here.exists() {
        return here;
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python");
    if built.exists() {
        return built;
    }
    PathBuf::from("python3")
}

/// Runs the command.
///
/// # Errors
/// The checkpoint or published net fails to load, a file cannot be written, or the TorchScript
/// export or its check fails.
pub fn run(a: Options) -> anyhow::Result<()> {
    let (net, meta, json) = match (&a.zoo, &a.checkpoint) {
        (Some(q), None) => {
            // The published net's own game decides the encoding, as for a checkpoint.
            let dir = a.zoo_dir.clone().unwrap_or_else(zoo::default_dir);
            let (_, enc) = load_game(&zoo::resolve(&dir, q)?.meta.checkpoint.variant)?;
            let (net, e) = zoo::load_for(&dir, q, Device::Cpu, Expect::default(), &enc)?;
            (net, e.meta.checkpoint, e.json)
        }
        (None, Some(path)) => {
            // The checkpoint's own game decides the encoding (a variant, or a RULES-more preset).
            let meta = checkpoint::read_meta(&checkpoint::resolve(path)?)?;
            let (_, enc) = load_game(&meta.variant)?;
            checkpoint::load_for(path, Device::Cpu, Expect::default(), &enc)?
        }
        _ => bail!("export needs either --checkpoint or --zoo"),
    };
    std::fs::create_dir_all(&a.out).with_context(|| a.out.display().to_string())?;
    let src_dir = json.parent().unwrap_or(Path::new("."));
    let weights = std::fs::read(src_dir.join(&meta.weights_file)).with_context(|| meta.weights_file.clone())?;
    checkpoint::write_atomic(&a.out.join("model.safetensors"), &weights)?;
    let mut out_meta = meta.clone();
    out_meta.weights_file = "model.safetensors".into();
    out_meta.optimizer_file = None;
    out_meta.optimizer_crc32 = None;
    checkpoint::write_atomic(&a.out.join("model.json"), serde_json::to_string_pretty(&out_meta)?.as_bytes())?;

    // Fixed inputs: views along seeded random games of the checkpoint's game.
    let (game, enc) = load_game(&meta.variant)?;
    enc.check_same(net.encoding()).with_context(|| format!("{}: variant {:?}", json.display(), meta.variant))?;
    // Every game's observation goes through its `Observe` (the variants' as a game from their
    // set-up, layouts and deals drawn like any chance).
    let obs = game.with_game(Start::Setup, CheckObs { positions: a.check_positions })?;
    let input = obs_tensor_for(&obs, &enc, Device::Cpu);
    let (policy, value) = tch::no_grad(|| net.forward_t(&input, false));
    Tensor::write_safetensors(&[("input", &input), ("policy", &policy), ("value", &value)], a.out.join("check.safetensors"))
        .context("check.safetensors")?;
    let script = a.out.join("anqi_net.py");
    checkpoint::write_atomic(&script, SCRIPT.as_bytes())?;
    println!("wrote {} and {} (step {}, {})", a.out.join("model.safetensors").display(), a.out.join("model.json").display(), meta.step, meta.variant);
    if a.no_torchscript {
        return Ok(());
    }
    let py = python(a.python.as_deref());
    let out = Command::new(&py)
        .arg(&script)
        .arg("--dir")
        .arg(&a.out)
        .output()
        .with_context(|| format!("running {} {}", py.display(), script.display()))?;
    print!("{}", String::from_utf8_lossy(&out.stdout));
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    if !out.status.success() {
        bail!("{} {} failed ({})", py.display(), script.display(), out.status);
    }
    Ok(())
}

/// The check positions of any game: the observation (`Observe::observe_into`) of the
/// player to act every 7th ply along seeded random games from the start (set-up included).
struct CheckObs {
    positions: usize,
}

impl WithGame for CheckObs {
    type Output = Vec<f32>;
    fn run<G: Playable>(self, start: G) -> Vec<f32> {
        let mut rng = Pcg64Mcg::seed_from_u64(0xE4_0127);
        let len = start.encoding().obs_len();
        let mut obs = Vec::with_capacity(self.positions * len);
        let mut n = 0;
        let mut games = 0;
        while n < self.positions && games < 10 * self.positions.max(1) {
            games += 1;
            let mut s = start.clone();
            for ply in 0..60 {
                resolve_chance(&mut s, &mut rng);
                let Turn::Player(p) = s.turn() else { break };
                let acts = s.legal_actions();
                if acts.is_empty() || n >= self.positions {
                    break;
                }
                if ply % 7 == 0 {
                    let at = obs.len();
                    obs.resize(at + len, 0.0);
                    s.observe_into(p, &mut obs[at..]);
                    n += 1;
                }
                s.apply(acts[rng.random_range(0..acts.len())]);
            }
        }
        obs
    }
}
