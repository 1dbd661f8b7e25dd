//! `anqi shards [--dir DIR | --config C]`: checks the shards of a run directory (each reads whole,
//! names match headers, no duplicated games, no gap in any worker's sequence, and with
//! `--config` the run's variant and architecture). The body is `farm::commands::shards` (shards
//! are read by the torch-linked models crate, so the `anqi-torch` helper runs it).

/// `anqi shards`'s arguments: the options the library's command takes, parsed once by clap.
pub use farm::commands::shards::Options as Args;
