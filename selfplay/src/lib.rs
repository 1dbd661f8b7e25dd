//! anqi self-play farm, tournaments, experiments and the command-line front end.

pub mod bots;
pub mod cli;
pub mod experiments;
pub mod farm;
pub mod tournament;
pub mod uci;
pub mod uci_hidden;
