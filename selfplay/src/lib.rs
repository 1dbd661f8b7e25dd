//! anqi tournaments, experiments, the UCI engine and the command-line front end. Torch-free: the
//! self-play farm, the `net:` bot and the torch commands' bodies are the `anqi-farm` package.

pub mod bots;
pub mod cli;
pub mod experiments;
pub mod ladder;
pub mod ray_games;
pub mod tournament;
pub mod uci;
pub mod serve;
pub mod uci_hidden;
pub mod viewer;
