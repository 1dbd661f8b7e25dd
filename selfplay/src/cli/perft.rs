//! `anqi perft`: move-tree leaf counts (RULES.md §P) and the perft benchmark.

use anyhow::Context;
use clap::Args as ClapArgs;
use engine::any_game::{with_any_game, Start};
use engine::more::presets::{perft_rows, Playable, WithGame};
use engine::notation::fen;
use engine::perft;
use std::time::Instant;

/// Count leaf nodes of the legal move tree. The last printed line is `nodes <count>`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Position as FEN (RULES.md §N); default: the variant's start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Depth in plies, 0 to [`MAX_DEPTH`].
    #[arg(long, default_value_t = 1)]
    pub depth: u32,
    /// Variant preset name (see `anqi variants`).
    #[arg(long, default_value = "xiangqi")]
    pub variant: String,
    /// Print the count below each root move (ICCS), then the total.
    #[arg(long)]
    pub divide: bool,
    /// Surprise layouts RED,BLACK by RULES.md §S2 names (A, B, C1..C8), e.g. `C3,A`.
    #[arg(long)]
    pub layouts: Option<String>,
    /// Identity perft (RULES.md §P3): every undetermined face-down piece is its start point's type.
    #[arg(long)]
    pub identity: bool,
    /// Run the fixed benchmark set single-threaded and print nodes/s. With `--variant all` (or a
    /// preset name), run each preset's start position instead and print its ratio to standard
    /// xiangqi's nodes/s measured in the same run.
    #[arg(long)]
    pub bench: bool,
}

/// The fixed benchmark set: (name, FEN, depth). Counts are in `engine/tests/data/xiangqi.perft`
/// (depth 5 of the four middle/end positions cross-checked against Pikafish).
pub const BENCH_SET: &[(&str, &str, u32)] = &[
    ("start", fen::START, 5),
    ("midgame-1", "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", 5),
    ("midgame-2", "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1", 5),
    ("endgame-1", "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", 5),
    ("endgame-2", "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1", 5),
];

/// The deepest perft `--depth` takes: far past any count that finishes (xiangqi's depth 8 is
/// about 3·10^12 leaves), and shallow enough that the recursion cannot overflow the stack.
pub const MAX_DEPTH: u32 = 20;

/// Why a perft request is refused before it starts.
#[derive(Debug, thiserror::Error)]
pub enum PerftError {
    /// `--depth` past [`MAX_DEPTH`].
    #[error("--depth {0}: at most {MAX_DEPTH} plies (deeper counts never finish, and the recursion would overflow the stack)")]
    Depth(u32),
}

/// Runs the command.
///
/// # Errors
/// [`PerftError`] for a `--depth` out of range; the game's, FEN's or layouts' error.
pub fn run(a: Args) -> anyhow::Result<()> {
    if a.depth > MAX_DEPTH {
        return Err(PerftError::Depth(a.depth).into());
    }
    if a.bench {
        return if a.variant == "xiangqi" { bench() } else { bench_variants(&a.variant) };
    }
    // §P4: perft starts after the set-up (Surprise layouts from --layouts, default A,A).
    let start = Start::fen_or(a.fen.as_deref(), Start::AfterSetup { layouts: a.layouts.as_deref() });
    with_any_game(&a.variant, start, Body { depth: a.depth, divide: a.divide, identity: a.identity })?
}

struct Body {
    depth: u32,
    divide: bool,
    identity: bool,
}

impl WithGame for Body {
    type Output = anyhow::Result<()>;

    /// Any game's perft (RULES.md §P; the variants count chance nodes per §P2 and standard
    /// xiangqi runs the core's perft inside, [`engine::variant::perft`]).
    fn run<G: Playable>(self, g: G) -> Self::Output {
        let g = match self.identity {
            true => g.identity().with_context(|| format!("--identity: {} has no face-down pieces (RULES.md §P3)", g.info().name))?,
            false => g,
        };
        let t = Instant::now();
        let (rows, nodes) = perft_rows(&g, self.depth, self.divide);
        for (m, n) in rows {
            println!("{m}: {n}");
        }
        let secs = t.elapsed().as_secs_f64();
        eprintln!("time {secs:.3} s, {:.0} nodes/s", nodes as f64 / secs.max(1e-9));
        println!("nodes {nodes}");
        Ok(())
    }
}

/// Start-position depth per preset for `--bench --variant`, chosen to run about a second.
fn bench_depth(name: &str) -> u32 {
    match name {
        "xiangqi" | "surprise" | "surprise-negotiation" | "fanqi-1" | "fanqi-2" | "fanqi-3" | "fanqi-5" | "fanqi-7"
        | "fanqi-9" => 5,
        // King chess and the RULES-more.md presets ([`engine::more::presets::bench_depth`]).
        _ => 4,
    }
}

fn bench_variants(which: &str) -> anyhow::Result<()> {
    let names: Vec<String> = if which == "all" {
        let more = engine::more::presets::presets().into_iter().map(|(n, _)| n.to_string());
        engine::variant::config::preset_names().map(str::to_string).chain(more).collect()
    } else {
        vec![which.to_string()]
    };
    let std_rate = {
        let mut pos = fen::parse(fen::START)?;
        let t = Instant::now();
        let n = perft::perft(&mut pos, 5);
        n as f64 / t.elapsed().as_secs_f64()
    };
    println!("{:<26} {:>5} {:>14} {:>9} {:>14} {:>7}", "variant", "depth", "nodes", "seconds", "nodes/s", "ratio");
    println!("{:<26} {:>5} {:>14} {:>9} {:>14.0} {:>7.2}", "xiangqi (core)", 5, 133312995u64, "", std_rate, 1.0);
    let mut total = 0u64;
    for name in names {
        let d = bench_depth(&name);
        let n = with_any_game(&name, Start::AfterSetup { layouts: Some("C3,B") }, Count(d))?;
        let t = Instant::now();
        let n = n();
        let s = t.elapsed().as_secs_f64();
        total += n;
        let rate = n as f64 / s.max(1e-9);
        println!("{name:<26} {d:>5} {n:>14} {s:>9.3} {rate:>14.0} {:>7.2}", rate / std_rate);
    }
    println!("nodes {total}");
    Ok(())
}

/// Perft to a depth, deferred so that the timing leaves out building the game.
struct Count(u32);

impl WithGame for Count {
    type Output = Box<dyn FnOnce() -> u64>;
    fn run<G: Playable>(self, g: G) -> Self::Output {
        Box::new(move || g.perft(self.0))
    }
}

fn bench() -> anyhow::Result<()> {
    let mut total_nodes = 0u64;
    let mut total_secs = 0f64;
    println!("{:<12} {:>5} {:>12} {:>9} {:>14}", "position", "depth", "nodes", "seconds", "nodes/s");
    for &(name, f, d) in BENCH_SET {
        let mut pos = fen::parse(f).with_context(|| format!("bench position {name}"))?;
        let t = Instant::now();
        let n = perft::perft(&mut pos, d);
        let s = t.elapsed().as_secs_f64();
        total_nodes += n;
        total_secs += s;
        println!("{name:<12} {d:>5} {n:>12} {s:>9.3} {:>14.0}", n as f64 / s.max(1e-9));
    }
    println!("{:<12} {:>5} {:>12} {:>9.3} {:>14.0}", "total", "", total_nodes, total_secs, total_nodes as f64 / total_secs);
    println!("nodes {total_nodes}");
    Ok(())
}
