//! `anqi-torch`: the `anqi` command line linked with libtorch. `anqi` runs it, with the same
//! arguments, for the commands that need torch (`doctor`, `train`, `selfplay`, `export`, `zoo`,
//! and any command naming a `net:` bot); it runs every other command too, like `anqi`.
//!
//! The torch commands' arguments are `selfplay::cli`'s; their bodies are `farm::commands`.

use clap::Parser;
use farm::commands::{doctor, export, selfplay as worker, shards, train, zoo};
use selfplay::cli::app::{self, Cli, Command};

fn main() {
    app::reset_sigpipe();
    // The net: bot of play, analyse, tournaments and experiments, in every game
    // (selfplay::bots::game_bot_for).
    let _ = selfplay::bots::set_net_factory(farm::netmore::factory);
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Doctor(a) => doctor::run(a),
        Command::Train(a) => train::run(a),
        Command::Selfplay(a) => worker::run(a),
        Command::Export(a) => export::run(a),
        Command::Shards(a) => shards::run(a),
        Command::Zoo(c) => zoo::run(c),
        other => {
            // A net: bot plays on one libtorch thread, as the classical bots do on one core.
            farm::run::init_play_threads();
            app::run(other)
        }
    };
    app::finish(result);
}
