//! One file per `anqi` subcommand. Each exposes an `Args` (clap) and, unless it needs libtorch,
//! `run(args) -> anyhow::Result<()>`; [`app`] is the command line both binaries parse, and
//! [`helper`] hands the torch commands (`doctor`, `train`, `selfplay`, `export`, `zoo`, `net:` bots) from
//! `anqi` to `anqi-torch`, which runs their bodies from `farm::commands`.

pub mod actions;
pub mod analyse;
pub mod app;
pub mod compare;
pub mod doctor;
pub mod experiment;
pub mod export;
pub mod helper;
pub mod ladder;
pub mod moves;
pub mod perft;
pub mod play;
pub mod render;
pub mod sample;
pub mod selfplay;
pub mod serve;
pub mod shards;
pub mod solve;
pub mod solve_games;
pub mod tournament;
pub mod train;
pub mod uci;
pub mod variant_arg;
pub mod variants;
pub mod view;
pub mod zoo;
