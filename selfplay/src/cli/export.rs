//! `anqi export --checkpoint PATH --out DIR` (or `--zoo NAME` for a published net): a
//! checkpoint as `model.safetensors` +
//! `model.json`, plus a TorchScript module `model.pt` that Python's `torch.jit.load` runs, checked
//! against this binary's outputs. The body is `farm::commands::export` (it needs libtorch, so the
//! `anqi-torch` helper runs it).

use clap::Args as ClapArgs;
use std::path::PathBuf;

/// Export a checkpoint: safetensors + JSON metadata + a TorchScript module, checked against this
/// binary's outputs.
#[derive(ClapArgs, Debug)]
pub struct Args {
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
