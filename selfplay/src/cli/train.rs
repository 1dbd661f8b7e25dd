//! `anqi train --config configs/train/<name>.toml`: self-play training with checkpoints, resume
//! and a final evaluation; `--bench` measures the farm, the net and the trainer instead, and
//! `--bench-train N` the training step alone. The body is `farm::commands::train` (it needs
//! libtorch, so the `anqi-torch` helper runs it).

/// `anqi train`'s arguments: the options the library's command takes, parsed once by clap.
pub use farm::commands::train::Options as Args;
