//! `anqi-torch`: the `anqi` command line linked with libtorch. `anqi` runs it, with the same
//! arguments, for the commands that need torch (`doctor`, `train`, `selfplay`, `export`, `zoo`,
//! and any command naming a `net:` bot); it runs every other command too, like `anqi`.
//!
//! The torch commands' arguments are `selfplay::cli`'s; their bodies are `farm::commands`.

use clap::Parser;
use farm::commands::{doctor, export, selfplay as worker, shards, train, zoo};
use selfplay::cli::zoo::Command as Zoo;
use selfplay::cli::app::{self, Cli, Command};

fn main() {
    app::reset_sigpipe();
    // The net: bot of play, analyse, tournaments and experiments.
    let _ = selfplay::bots::set_net_factory(farm::netbot::from_params);
    // The same in the RULES-more games (engine::search::game_bot::from_spec).
    let _ = engine::more::net::set_net_factory(farm::netmore::factory);
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Doctor(a) => doctor::run(doctor::Options {
            probe: a.probe,
            anqi: format!("{} (git {})", env!("CARGO_PKG_VERSION"), farm::run::GIT_REVISION),
        }),
        Command::Train(a) => train::run(train::Options {
            config: a.config,
            set: a.set,
            run_dir: a.run_dir,
            no_progress: a.no_progress,
            bench: a.bench,
            bench_seconds: a.bench_seconds,
            bench_train: a.bench_train,
        }),
        Command::Selfplay(a) => worker::run(worker::Options {
            config: a.config,
            out: a.out,
            worker: a.worker,
            shards: a.shards,
            checkpoint: a.checkpoint,
            set: a.set,
            run_dir: a.run_dir,
            no_progress: a.no_progress,
        }),
        Command::Export(a) => export::run(export::Options {
            checkpoint: a.checkpoint,
            zoo: a.zoo,
            zoo_dir: a.zoo_dir,
            out: a.out,
            python: a.python,
            no_torchscript: a.no_torchscript,
            check_positions: a.check_positions,
        }),
        Command::Shards(a) => shards::run(shards::Options {
            dir: a.dir,
            config: a.config,
            set: a.set,
            run_dir: a.run_dir,
            json: a.json,
        }),
        Command::Zoo(c) => zoo::run(match c {
            Zoo::Publish(a) => zoo::Options::Publish {
                checkpoint: a.checkpoint,
                name: a.name,
                notes: a.notes,
                command: a.command,
                zoo_dir: a.dir.zoo_dir,
            },
            Zoo::List(a) => zoo::Options::List { zoo_dir: a.dir.zoo_dir, json: a.json },
            Zoo::Verify(a) => zoo::Options::Verify { zoo_dir: a.zoo_dir },
        }),
        other => {
            // A net: bot plays on one libtorch thread, as the classical bots do on one core.
            farm::run::init_play_threads();
            app::run(other)
        }
    };
    app::finish(result);
}
