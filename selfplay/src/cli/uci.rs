//! `anqi uci`: a UCI engine in Pikafish's dialect on stdin/stdout (see [`crate::uci`]).

use clap::Args as ClapArgs;

/// Speak UCI (Pikafish's xiangqi dialect, `UCI_Variant` for Jieqi and the other presets) on
/// stdin/stdout with the alpha-beta searcher.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Variant preset (or TOML file) at start; `setoption name UCI_Variant` changes it. `auto`
    /// (the default): xiangqi, and Jieqi as soon as a `position fen` is a Jieqi FEN (face-down
    /// pieces, a pool; JieqiBox's forms) — JieqiBox needs no option. A named variant is kept.
    #[arg(long, default_value = crate::uci::AUTO_VARIANT)]
    pub variant: String,
    /// Transposition table size in MiB (`setoption name Hash` changes it).
    #[arg(long, default_value_t = engine::search::alphabeta::DEFAULT_HASH_MB)]
    pub hash: usize,
    /// Learned evaluation: `auto` (the default: the published network of the variant's family,
    /// built in, for xiangqi and Jieqi), `none` (the hand-written evaluation), `zoo:NAME` or a
    /// network file. `setoption name EvalFile` changes it.
    #[arg(long)]
    pub eval: Option<String>,
}

/// Runs the command until `quit` or the end of input.
pub fn run(a: Args) -> anyhow::Result<()> {
    let config = crate::uci::Config { variant: a.variant, hash_mb: a.hash, eval: a.eval };
    crate::uci::run(std::io::stdin().lock(), std::io::stdout(), &config)
}
