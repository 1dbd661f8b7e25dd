//! The `anqi` command-line tool. Each subcommand lives in `selfplay::cli::<name>`; the command
//! line is `selfplay::cli::app::Cli`.
//!
//! This binary does not link libtorch, so engine commands (`perft`, `moves`, `uci`, `variants`,
//! `play` with built-in bots, …) start in milliseconds. The commands that need libtorch (`doctor`,
//! `train`, `selfplay`, `export`, and any command naming a `net:` bot) are handed, with the same
//! arguments, to the torch-linked `anqi-torch` beside this executable
//! (`selfplay::cli::helper`).

use clap::Parser;
use selfplay::cli::app::{self, Cli};
use selfplay::cli::helper;

fn main() {
    app::reset_sigpipe();
    let cli = Cli::parse();
    if cli.command.needs_torch() {
        let e = helper::hand_over();
        eprintln!("error: {e}");
        std::process::exit(1);
    }
    app::finish(app::run(cli.command));
}
