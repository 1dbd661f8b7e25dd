//! Tournaments between bots and UCI engines (`anqi tournament`): paired games from shared hidden
//! set-ups with colours swapped, played in parallel, recorded to PGN game by game (a killed run
//! resumes), rated by maximum-likelihood Elo with 95 % intervals, and stopped early by an SPRT.
//!
//! - [`config`]: the TOML file (`configs/tournaments/*.toml`);
//! - [`game`]: hidden set-ups, players and the game loop (shared with the experiments);
//! - [`uci_client`]: external engines over UCI;
//! - [`pgn`]: records, appending and resuming;
//! - [`elo`], [`sprt`]: statistics;
//! - [`runner`]: the schedule, the parallel run, the crosstable.

pub mod config;
pub mod elo;
pub mod game;
pub mod pgn;
pub mod runner;
pub mod sprt;
pub mod uci_client;

pub use config::Config;
pub use runner::{run, Options, Summary};
