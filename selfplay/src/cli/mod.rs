//! One file per `anqi` subcommand. Each exposes an `Args` (clap) and `run(args) -> anyhow::Result<()>`.

pub mod actions;
pub mod analyse;
pub mod doctor;
pub mod experiment;
pub mod export;
pub mod moves;
pub mod perft;
pub mod play;
pub mod sample;
pub mod selfplay;
pub mod solve;
pub mod solve_games;
pub mod tournament;
pub mod train;
pub mod uci;
pub mod variant_arg;
pub mod variants;
