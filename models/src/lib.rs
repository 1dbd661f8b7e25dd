//! LibTorch (tch) policy/value networks, encoding, training and checkpoints for anqi.
//!
//! For now only [`device`]: build/runtime information about the linked libtorch and
//! device selection.

pub mod device;

pub use device::{torch_info, DeviceError, TorchInfo};
