//! `anqi zoo publish|list|verify`: published nets, `models/zoo/` (`<name>-<hash12>.safetensors`
//! and `.json`, named by the SHA-256 of the weights; format in `models/zoo/README.md`). A
//! published net plays as `net:zoo=NAME`. The body is `farm::commands::zoo` (it loads nets, so
//! the `anqi-torch` helper runs it).

use clap::{Args as ClapArgs, Subcommand};
use std::path::PathBuf;

/// The zoo's subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Publish a checkpoint into the zoo as `<name>-<hash12>` (weights copied unchanged).
    Publish(PublishArgs),
    /// List the published nets.
    List(ListArgs),
    /// Load every published net (size, SHA-256, checksum, encoding, architecture); fails if any
    /// does not.
    Verify(DirArgs),
}

/// Where the zoo is.
#[derive(ClapArgs, Debug)]
pub struct DirArgs {
    /// Zoo directory (default: `$ANQI_ZOO`, else `models/zoo` here, else the source tree's).
    #[arg(long)]
    pub zoo_dir: Option<PathBuf>,
}

/// `anqi zoo publish`.
#[derive(ClapArgs, Debug)]
pub struct PublishArgs {
    /// Checkpoint: a run or checkpoint directory (its `latest`), `step-N.json` or
    /// `step-N.safetensors`.
    #[arg(long)]
    pub checkpoint: PathBuf,
    /// Name to publish under (letters, digits, `.`, `_`, `-`), e.g. `surprise`.
    #[arg(long)]
    pub name: String,
    /// File whose text is recorded as the net's measured results (free text or a table).
    #[arg(long)]
    pub notes: Option<PathBuf>,
    /// The command that trained it (default: `anqi train --config RUN/config.toml` when the
    /// run saved its configuration).
    #[arg(long)]
    pub command: Option<String>,
    /// Where the zoo is.
    #[command(flatten)]
    pub dir: DirArgs,
}

/// `anqi zoo list`.
#[derive(ClapArgs, Debug)]
pub struct ListArgs {
    /// Print every entry's metadata as a JSON array.
    #[arg(long)]
    pub json: bool,
    /// Where the zoo is.
    #[command(flatten)]
    pub dir: DirArgs,
}
