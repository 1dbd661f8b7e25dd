//! `anqi doctor`: versions, CUDA availability and thread counts. The body is
//! `farm::commands::doctor` (it asks libtorch, so the `anqi-torch` helper runs it).

use clap::Parser;

/// Print the anqi version and git revision, the tch/libtorch versions, whether
/// CUDA is available (and how many devices), and the thread counts available.
#[derive(Parser, Debug, Clone, Default)]
pub struct Args {
    /// Also allocate a small tensor on every visible CUDA device and run an op there.
    #[arg(long)]
    pub probe: bool,
}
