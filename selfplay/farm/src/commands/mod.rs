//! The bodies of the `anqi` commands that need libtorch: `train`, `selfplay`, `export`,
//! `shards`, `zoo` and `doctor`. Their command-line arguments are declared by `selfplay::cli` (torch-free, so `anqi`
//! can parse and list them); the `anqi-torch` helper binary maps those arguments onto the
//! `Options` here and runs the command.

pub mod doctor;
pub mod export;
pub mod selfplay;
pub mod shards;
pub mod train;
pub mod zoo;
