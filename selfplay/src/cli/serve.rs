//! `anqi serve`: the local play page ([`crate::serve`]).

use anyhow::Context;
use clap::Args as ClapArgs;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

/// Serve a local web page to play any preset or rule file against any bot spec (`net:`
/// included: `anqi` then hands the command to anqi-torch), choosing colour, set-up and time per
/// move. The page shows only your side's view; finished games are appended to `--pgn`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Port (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on (loopback by default: the page is for this machine).
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub host: IpAddr,
    /// Where finished games are appended (PGN).
    #[arg(long, default_value = "anqi-serve.pgn")]
    pub pgn: PathBuf,
    /// Bot specs offered on the page, `;`-separated (any other spec can be typed in).
    #[arg(long, default_value = "greedy; random; alphabeta:depth=3; pimc:k=8,search=alphabeta:depth=2; ismcts:iterations=2000")]
    pub bots: String,
}

impl Args {
    /// The offered bot specs.
    pub fn bot_list(&self) -> Vec<String> {
        self.bots.split(';').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
    }
}

/// Runs the command (until the process is stopped).
pub fn run(a: Args) -> anyhow::Result<()> {
    let settings = crate::serve::Settings { pgn: a.pgn.clone(), bots: a.bot_list() };
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().context("starting the tokio runtime")?;
    rt.block_on(crate::serve::serve(SocketAddr::new(a.host, a.port), settings)).with_context(|| format!("serving on {}:{}", a.host, a.port))
}
