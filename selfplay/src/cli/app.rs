//! The `anqi` command line, shared by its two binaries: `anqi` (torch-free, starts in
//! milliseconds) and `anqi-torch` (links libtorch). Both parse this [`Cli`]; `anqi` runs the
//! commands that need no torch itself and hands the others ([`Command::needs_torch`]) to
//! `anqi-torch` through [`super::helper`], which runs them with the same arguments.

use super::{
    actions, analyse, compare, doctor, experiment, export, ladder, moves, perft, play, render, sample, selfplay, serve, shards, solve, tournament, train, uci,
    variants, view, zoo,
};
use crate::bots::is_net_spec;
use clap::{Parser, Subcommand};

/// anqi: a research engine for xiangqi variants with hidden information.
#[derive(Parser)]
#[command(name = "anqi", version, about, long_about = None)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands. `Doctor`, `Train`, `Selfplay`, `Export`, `Shards` and `Zoo` need libtorch, and
/// so does any command whose bot specs name a `net:` bot.
#[derive(Subcommand)]
pub enum Command {
    /// Count leaf nodes of the move tree (RULES.md §P); last line `nodes N`.
    Perft(perft::Args),
    /// Legal moves and check status of FENs (--fen or one per stdin line): `<moves> ; <status>`.
    Moves(moves::Args),
    /// List the variant presets, or show one resolved rule table.
    Variants(variants::Args),
    /// Play moves in any variant and list the legal actions after them.
    Actions(actions::Args),
    /// Determinizations from a player's view (and `--bench` for samples/s).
    Sample(sample::Args),
    /// A bot's move distribution at a position, from the deciding player's view.
    Analyse(analyse::Args),
    /// Play one game between two bots; prints the record and the result.
    Play(play::Args),
    /// Print versions (anqi, tch, libtorch), CUDA availability and thread count.
    Doctor(doctor::Args),
    /// Solvers: counterfactual regret minimisation on small games.
    #[command(subcommand)]
    Solve(solve::Command),
    /// UCI engine (Pikafish's xiangqi dialect; UCI_Variant jieqi and the other presets) on stdin/stdout.
    Uci(uci::Args),
    /// Round-robin or gauntlet between bots and UCI engines from a TOML file: crosstable, Elo, SPRT, PGN.
    Tournament(tournament::Args),
    /// Strength ladder: paired round-robin of the reference bots (and added players) at equal
    /// time per move, Elo with random at 0; resumable and incremental.
    Ladder(ladder::Args),
    /// Paired comparison of two players' scores on the same set-ups, from their tournaments' PGNs.
    Compare(compare::Args),
    /// Research experiments (draw-rates: equal-strength self-play in every variant, report and plot).
    #[command(subcommand)]
    Experiment(experiment::Command),
    /// Train a policy/value net by self-play from a config (resumes after a kill); `--bench` measures.
    Train(train::Args),
    /// A stateless self-play worker writing shards for a trainer (`--worker K`).
    Selfplay(selfplay::Args),
    /// Export a checkpoint: safetensors + JSON + a TorchScript module checked against this net.
    Export(export::Args),
    /// Draw a position as one viewer sees it (SVG or PNG, Chinese glyphs).
    Render(render::Args),
    /// Self-contained HTML pages stepping through the games of PGN records.
    View(view::Args),
    /// A local web page to play any variant against any bot, from your side's view.
    Serve(serve::Args),
    /// Check a run's shards: each whole, no duplicated games, no gaps, the run's variant and net.
    Shards(shards::Args),
    /// Published nets (models/zoo): publish a checkpoint, list, verify every hash.
    #[command(subcommand)]
    Zoo(zoo::Command),
    /// A cluster worker's command: play the one game described by the JSON task on stdin and
    /// print its result (a `games.tsv` row or a PGN record); `--cluster` runs send it.
    #[command(hide = true)]
    GameTask,
}

impl Command {
    /// Whether the command needs libtorch: `doctor`, `train`, `selfplay`, `export`, `shards` and
    /// `zoo`, and `play`, `analyse`, `tournament` and `experiment draw-rates` when one of their
    /// bots is a `net:` bot. A tournament file that cannot be read counts as torch-free (the command then
    /// reports the problem itself).
    pub fn needs_torch(&self) -> bool {
        match self {
            Command::Doctor(_) | Command::Train(_) | Command::Selfplay(_) | Command::Export(_) | Command::Shards(_) | Command::Zoo(_) => {
                true
            }
            Command::Play(a) => is_net_spec(&a.red) || is_net_spec(&a.black),
            Command::Analyse(a) => is_net_spec(&a.bot),
            Command::Serve(a) => a.bot_list().iter().any(|s| is_net_spec(s)),
            Command::Tournament(a) => crate::tournament::Config::load(&a.config)
                .map(|c| c.players.iter().any(|p| is_net_spec(&p.spec)))
                .unwrap_or(false),
            Command::Ladder(a) => {
                a.add.iter().any(|s| is_net_spec(&crate::ladder::parse_add(s).spec))
                    || a.roster().map(|r| r.players.iter().any(|p| is_net_spec(&p.spec))).unwrap_or(false)
            }
            Command::Experiment(experiment::Command::LearningCurve(_)) => true,
            Command::Experiment(experiment::Command::DrawRates(a)) => a.levels.split(';').chain([a.ceiling.as_str()]).any(|s| is_net_spec(s.trim())),
            Command::Perft(_)
            | Command::Moves(_)
            | Command::Variants(_)
            | Command::Actions(_)
            | Command::Sample(_)
            | Command::Solve(_)
            | Command::Uci(_)
            | Command::Render(_)
            | Command::Compare(_)
            | Command::GameTask
            | Command::View(_) => false,
        }
    }
}

/// Runs a command in this process. The torch commands (`doctor`, `train`, `selfplay`,
/// `export`) are the torch-linked binary's to run: here they are an error.
///
/// # Errors
/// The command's error; for a torch command, that this binary cannot run it.
pub fn run(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Perft(a) => perft::run(a),
        Command::Moves(a) => moves::run(a),
        Command::Variants(a) => variants::run(a),
        Command::Play(a) => play::run(a),
        Command::Analyse(a) => analyse::run(a),
        Command::Sample(a) => sample::run(a),
        Command::Actions(a) => actions::run(a),
        Command::Solve(c) => solve::run(c),
        Command::Uci(a) => uci::run(a),
        Command::Tournament(a) => tournament::run(a),
        Command::Ladder(a) => ladder::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Experiment(c) => experiment::run(c),
        Command::Render(a) => render::run(a),
        Command::View(a) => view::run(a),
        Command::Serve(a) => serve::run(a),
        Command::GameTask => {
            let mut input = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut input)?;
            crate::ray_games::serve_one(&input, &mut std::io::stdout().lock())
        }
        Command::Doctor(_) | Command::Train(_) | Command::Selfplay(_) | Command::Export(_) | Command::Shards(_) | Command::Zoo(_) => {
            anyhow::bail!("this command needs libtorch, which only the {} helper links", super::helper::HELPER)
        }
    }
}

/// Ends the process after a command: on an error, prints it (`error: …`, with its causes) and
/// exits with status 1.
pub fn finish(result: anyhow::Result<()>) {
    if let Err(e) = result {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

/// Restores the default SIGPIPE action so `anqi … | head` ends quietly instead of panicking on a
/// closed pipe (Rust ignores SIGPIPE by default).
#[cfg(unix)]
#[allow(unsafe_code)]
pub fn reset_sigpipe() {
    // SAFETY: setting a signal disposition to SIG_DFL at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Restores the default SIGPIPE action (nothing to do off unix).
#[cfg(not(unix))]
pub fn reset_sigpipe() {}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Command {
        match Cli::try_parse_from(std::iter::once("anqi").chain(args.iter().copied())) {
            Ok(cli) => cli.command,
            Err(e) => panic!("{args:?}: {e}"),
        }
    }

    #[test]
    fn torch_commands_and_net_bots_need_torch() {
        for args in [
            &["doctor"][..],
            &["train", "--config", "configs/train/quick.toml"],
            &["selfplay", "--config", "c.toml", "--worker", "1"],
            &["export", "--checkpoint", "runs/x", "--out", "o"],
            &["export", "--zoo", "surprise", "--out", "o"],
            &["zoo", "list"],
            &["zoo", "verify", "--zoo-dir", "z"],
            &["zoo", "publish", "--checkpoint", "runs/x", "--name", "surprise", "--notes", "n.md"],
            &["play", "--red", "net:zoo=surprise,ms=100"],
            &["play", "--red", "net:checkpoint=runs/x"],
            &["play", "--black", "net:runs/x,sims=8"],
            &["analyse", "--bot", "net:checkpoint=runs/x"],
            &["experiment", "draw-rates", "--levels", "greedy; net:checkpoint=runs/x"],
            &["experiment", "draw-rates", "--ceiling", "net:checkpoint=runs/x"],
            &["ladder", "--variant", "jieqi", "--dir", "no/such/ladder", "--add", "n=net:checkpoint=runs/x,ms=50"],
            &["serve", "--bots", "greedy; net:checkpoint=runs/x"],
        ] {
            assert!(parse(args).needs_torch(), "{args:?}");
        }
    }

    #[test]
    fn engine_commands_do_not_need_torch() {
        for args in [
            &["variants"][..],
            &["perft", "--depth", "3"],
            &["moves"],
            &["uci"],
            &["play", "--red", "greedy", "--black", "alphabeta:depth=2"],
            &["analyse", "--bot", "pimc:k=8,search=alphabeta:depth=2"],
            &["experiment", "draw-rates"],
            &["ladder", "--variant", "jieqi", "--dir", "no/such/ladder", "--add", "ismcts:iterations=30"],
            &["tournament", "--config", concat!(env!("CARGO_MANIFEST_DIR"), "/../configs/tournaments/greedy-vs-random.toml")],
            &["tournament", "--config", "no/such/file.toml"],
            &["solve", "cfr", "--game", "kuhn", "--iterations", "10"],
            &["serve"],
            &["render", "--out", "x.svg"],
            &["view", "games.pgn", "--out", "pages"],
        ] {
            assert!(!parse(args).needs_torch(), "{args:?}");
        }
    }

    #[test]
    fn a_tournament_with_a_net_player_needs_torch() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("t.toml");
        let text = "name = \"t\"\n[[player]]\nspec = \"net:checkpoint=runs/x,sims=8\"\n[[player]]\nspec = \"random\"\n";
        std::fs::write(&file, text).expect("write");
        let file_arg = file.display().to_string();
        assert!(parse(&["tournament", "--config", &file_arg]).needs_torch());
    }
}
