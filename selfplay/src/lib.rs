//! anqi self-play farm, tournaments, experiments and the command-line front end.

pub mod cli;
pub mod uci;
