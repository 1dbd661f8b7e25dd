//! Tournaments between bots and UCI engines (`anqi tournament`): paired games from shared hidden
//! set-ups with colours swapped, played in parallel, recorded to PGN game by game (a killed run
//! resumes), rated by maximum-likelihood Elo with 95 % intervals, and stopped early by an SPRT.
//!
//! - [`config`]: the TOML file (`configs/tournaments/*.toml`);
//! - [`game`]: hidden set-ups, players and the game loop (shared with the experiments);
//! - [`uci_client`]: external engines over UCI; [`dialect`]: their coordinates and FENs on the
//!   wire (Fairy-Stockfish's ranks 1-10, Pikafish's Jieqi pool order); [`envvars`]: `${NAME}` in
//!   their specs;
//! - [`pgn`]: records, appending and resuming;
//! - [`elo`], [`sprt`]: statistics;
//! - [`ruleset`]: a RULES.md variant or a RULES-more.md preset (missile, skill, camel), the one
//!   thing the runner plays;
//! - [`runner`]: the schedule, the parallel run, the crosstable.

pub mod config;
pub mod dialect;
pub mod elo;
pub mod engine_view;
pub mod envvars;
pub mod game;
pub mod pgn;
pub mod ruleset;
pub mod runner;
pub mod sprt;
pub mod uci_client;

pub use config::Config;
pub use ruleset::Ruleset;
pub use runner::{run, Options, Summary};
