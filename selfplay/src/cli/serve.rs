//! `anqi serve`: the local play page ([`crate::serve`]).

use anyhow::Context;
use clap::Args as ClapArgs;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

/// Serve a local web page to play any preset or rule file against any bot spec (`net:`
/// included: `anqi` then hands the command to anqi-torch), choosing colour, set-up and time per
/// move. The page shows only your side's view; finished games are appended to `--pgn`. The
/// server answers this machine only (a loopback address, its own `Host`/`Origin`), loads presets
/// and rule files under `--rules` only, and caps the bot's time per move at `--max-ms`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Port (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Loopback address to listen on (127.0.0.1 or ::1: the page is for this machine; any
    /// other address is refused).
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub host: IpAddr,
    /// Where finished games are appended (PGN).
    #[arg(long, default_value = "anqi-serve.pgn")]
    pub pgn: PathBuf,
    /// Bot specs offered on the page, `;`-separated (any other spec can be typed in).
    #[arg(long, default_value = "greedy; random; alphabeta:depth=3; pimc:k=8,search=alphabeta:depth=2; ismcts:iterations=2000")]
    pub bots: String,
    /// Directory of rule files (`.toml`) the page may name by their path under it; without
    /// it, the presets only.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// The most milliseconds the bot may think per move, whatever the spec or the page asks
    /// (1 to 600000).
    #[arg(long = "max-ms", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub max_ms: u64,
}

impl Args {
    /// The offered bot specs.
    pub fn bot_list(&self) -> Vec<String> {
        self.bots.split(';').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
    }
}

/// Runs the command (until the process is stopped).
pub fn run(a: Args) -> anyhow::Result<()> {
    if let Some(dir) = &a.rules {
        anyhow::ensure!(dir.is_dir(), "--rules {}: not a directory", dir.display());
    }
    let settings = crate::serve::Settings { rules: a.rules.clone(), max_movetime_ms: a.max_ms, ..crate::serve::Settings::new(a.pgn.clone(), a.bot_list()) };
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().context("starting the tokio runtime")?;
    rt.block_on(crate::serve::serve(SocketAddr::new(a.host, a.port), settings)).with_context(|| format!("serving on {}:{}", a.host, a.port))
}
