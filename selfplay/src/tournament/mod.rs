//! Tournaments between bots and UCI engines (`anqi tournament`): paired games from shared hidden
//! set-ups with colours swapped, played in parallel, recorded to PGN game by game (a killed run
//! resumes), rated by maximum-likelihood Elo with 95 % intervals, and stopped early by an SPRT.
//!
//! - [`config`]: the TOML file (`configs/tournaments/*.toml`);
//! - [`games`]: the game played ([`GameSpec`]: any RULES.md variant or RULES-more.md preset,
//!   through one generic body each), the one thing the runner plays;
//! - [`game`]: seeded set-ups and the one game loop (shared with the ladder and the
//!   experiments); [`players`]: bots and UCI engines at a game;
//! - [`uci_client`]: external engines over UCI; [`dialect`]: their coordinates and FENs on the
//!   wire (Fairy-Stockfish's ranks 1-10, Pikafish's Jieqi pool order); [`envvars`]: `${NAME}` in
//!   their specs;
//! - [`pgn`]: records, appending and resuming;
//! - [`elo`], [`sprt`]: statistics;
//! - [`runner`]: the schedule, the parallel run, the crosstable.

pub mod compare;
pub mod config;
pub mod dialect;
pub mod elo;
pub mod engine_view;
pub mod envvars;
pub mod game;
pub mod games;
pub mod pgn;
pub mod players;
pub mod runner;
pub mod sprt;
pub mod uci_client;

pub use config::Config;
pub use games::GameSpec;
pub use runner::{run, Options, Summary};
