//! LibTorch (tch) policy/value networks, encoding, training and checkpoints for anqi.
//!
//! - [`encoding`]: the versioned observation planes and the fixed action index (`docs/encoding.md`).
//! - [`net`]: the residual policy/value net and batched `no_grad` inference.
//! - [`train`]: batches, losses, optimiser and learning-rate schedule.
//! - [`checkpoint`]: `step-N.safetensors` + JSON metadata + `latest`, checked on load.
//! - [`evalshard`], [`evalnet`], [`evaltrain`]: labelled positions and the trainer of the learned evaluation (`engine::nnue`).
//! - [`shard`]: self-play sample shards (bincode 2, versioned header, checksums, atomic writes).
//! - [`device`]: build/runtime information about the linked libtorch and device selection.
//! - [`zoo`]: published nets (`models/zoo/`), named by content hash and checked on load.

pub mod checkpoint;
pub mod device;
pub mod encoding;
pub mod net;
pub mod evalshard;
pub mod evalnet;
pub mod evaltrain;
pub mod shard;
pub mod train;
pub mod zoo;

pub use device::{torch_info, DeviceError, TorchInfo};
