//! `anqi zoo publish|list|verify`: published nets, `models/zoo/` (`<name>-<hash12>.safetensors`
//! and `.json`, named by the SHA-256 of the weights; format in `models/zoo/README.md`). A
//! published net plays as `net:zoo=NAME`. The body is `farm::commands::zoo` (it loads nets, so
//! the `anqi-torch` helper runs it).

/// `anqi zoo`'s subcommands: the library's, parsed once by clap.
pub use farm::commands::zoo::{Command, DirArgs, ListArgs, PublishArgs};
