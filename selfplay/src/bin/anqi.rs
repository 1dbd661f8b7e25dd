//! The `anqi` command-line tool. Each subcommand lives in `selfplay::cli::<name>`.

use clap::{Parser, Subcommand};
use selfplay::cli;

/// anqi: a research engine for xiangqi variants with hidden information.
#[derive(Parser)]
#[command(name = "anqi", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf nodes of the move tree (RULES.md §P); last line `nodes N`.
    Perft(cli::perft::Args),
    /// Legal moves and check status of FENs (--fen or one per stdin line): `<moves> ; <status>`.
    Moves(cli::moves::Args),
    /// List the variant presets, or show one resolved rule table.
    Variants(cli::variants::Args),
    /// Play moves in any variant and list the legal actions after them.
    Actions(cli::actions::Args),
    /// Determinizations from a player's view (and `--bench` for samples/s).
    Sample(cli::sample::Args),
    /// A bot's move distribution at a position, from the deciding player's view.
    Analyse(cli::analyse::Args),
    /// Play one game between two bots; prints the record and the result.
    Play(cli::play::Args),
    /// Print versions (anqi, tch, libtorch), CUDA availability and thread count.
    Doctor(cli::doctor::Args),
    /// Solvers: counterfactual regret minimisation on small games.
    #[command(subcommand)]
    Solve(cli::solve::Command),
    /// UCI engine (Pikafish's xiangqi dialect; UCI_Variant jieqi and the other presets) on stdin/stdout.
    Uci(cli::uci::Args),
    /// Round-robin or gauntlet between bots and UCI engines from a TOML file: crosstable, Elo, SPRT, PGN.
    Tournament(cli::tournament::Args),
    /// Research experiments (draw-rates: equal-strength self-play in every variant, report and plot).
    #[command(subcommand)]
    Experiment(cli::experiment::Command),
    /// Train a policy/value net by self-play from a config (resumes after a kill); `--bench` measures.
    Train(cli::train::Args),
    /// A stateless self-play worker writing shards for a trainer (`--worker K`).
    Selfplay(cli::selfplay::Args),
    /// Export a checkpoint: safetensors + JSON + a TorchScript module checked against this net.
    Export(cli::export::Args),
}

/// Restores the default SIGPIPE action so `anqi … | head` ends quietly instead of panicking on a
/// closed pipe (Rust ignores SIGPIPE by default).
#[cfg(unix)]
#[allow(unsafe_code)]
fn reset_sigpipe() {
    // SAFETY: setting a signal disposition to SIG_DFL at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn reset_sigpipe() {}

fn main() {
    reset_sigpipe();
    // The net: bot of play, analyse, tournaments and experiments.
    let _ = selfplay::bots::set_net_factory(farm::netbot::from_params);
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(a) => cli::perft::run(a),
        Command::Moves(a) => cli::moves::run(a),
        Command::Variants(a) => cli::variants::run(a),
        Command::Play(a) => cli::play::run(a),
        Command::Analyse(a) => cli::analyse::run(a),
        Command::Sample(a) => cli::sample::run(a),
        Command::Actions(a) => cli::actions::run(a),
        Command::Doctor(a) => farm::commands::doctor::run(farm::commands::doctor::Options {
            probe: a.probe,
            anqi: format!("{} (git {})", env!("CARGO_PKG_VERSION"), farm::run::GIT_REVISION),
        }),
        Command::Solve(c) => cli::solve::run(c),
        Command::Uci(a) => cli::uci::run(a),
        Command::Tournament(a) => cli::tournament::run(a),
        Command::Experiment(c) => cli::experiment::run(c),
        Command::Train(a) => farm::commands::train::run(farm::commands::train::Options {
            config: a.config,
            set: a.set,
            run_dir: a.run_dir,
            no_progress: a.no_progress,
            bench: a.bench,
            bench_seconds: a.bench_seconds,
        }),
        Command::Selfplay(a) => farm::commands::selfplay::run(farm::commands::selfplay::Options {
            config: a.config,
            out: a.out,
            worker: a.worker,
            shards: a.shards,
            checkpoint: a.checkpoint,
            set: a.set,
            run_dir: a.run_dir,
            no_progress: a.no_progress,
        }),
        Command::Export(a) => farm::commands::export::run(farm::commands::export::Options {
            checkpoint: a.checkpoint,
            out: a.out,
            python: a.python,
            no_torchscript: a.no_torchscript,
            check_positions: a.check_positions,
        }),
    };
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
