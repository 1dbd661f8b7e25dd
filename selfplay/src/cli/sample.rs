//! `anqi sample`: determinization sampling from a player's view (RULES.md §S2, §F6), and its
//! benchmark.

use anyhow::Context;
use clap::Args as ClapArgs;
use engine::search::{Bot, Decision, RandomBot};
use engine::variant::game::VariantGame;
use engine::variant::{fen as vfen, View};
use engine::Color;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

/// Draw full states consistent with one player's view, or benchmark the sampler.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Variant preset or TOML file (RULES-more.md presets and rule files too).
    #[arg(long, default_value = "surprise")]
    pub variant: String,
    /// Full-state FEN (RULES.md §N) or the observer's view FEN (`view=w|b`, docs/notation.md §2;
    /// JieqiBox's six-field Jieqi FEN); default: a mid-game reached by random play from `--seed`.
    #[arg(long)]
    pub fen: Option<String>,
    /// The observing player.
    #[arg(long = "as", default_value = "red")]
    pub player: String,
    /// Number of determinizations to print.
    #[arg(long, default_value_t = 3)]
    pub count: usize,
    /// Seed for the mid-game and the sampler.
    #[arg(long, default_value_t = 7)]
    pub seed: u64,
    /// Plies of random play to reach the mid-game when no FEN is given.
    #[arg(long, default_value_t = 40)]
    pub plies: usize,
    /// Benchmark: samples per second on mid-game Jieqi and Surprise views (ignores other options).
    #[arg(long)]
    pub bench: bool,
}

fn midgame(variant: &str, seed: u64, plies: usize, fen: Option<&str>) -> anyhow::Result<engine::variant::State> {
    let v = super::variant_arg::load(variant)?;
    let start = super::variant_arg::start_state(v, fen, if fen.is_none() && v.caps.discs() { Some("C3,B") } else { None })?;
    if fen.is_some() {
        return Ok(start);
    }
    let mut game = VariantGame::new(start);
    let mut bot = RandomBot::new(seed);
    let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0xD1CE);
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let a = bot.choose(&Decision::new(game.state()));
        game.play(a, |outs| outs[rng.random_range(0..outs.len())].0);
    }
    Ok(game.state().clone())
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    if a.bench {
        println!("{:<10} {:>8} {:>12} {:>10} {:>14}", "variant", "player", "samples", "seconds", "samples/s");
        for variant in ["jieqi", "surprise"] {
            let s = midgame(variant, a.seed, a.plies, None)?;
            for player in Color::ALL {
                let view = View::new(&s, player);
                let mut rng = Pcg64Mcg::seed_from_u64(a.seed);
                let n = 1_000_000;
                let t = Instant::now();
                let mut sink = 0u64;
                for _ in 0..n {
                    let d = view.sample(&mut rng);
                    sink = sink.wrapping_add(d.position().hash());
                }
                let secs = t.elapsed().as_secs_f64();
                std::hint::black_box(sink);
                println!("{variant:<10} {:>8} {n:>12} {secs:>10.3} {:>14.0}", player.name(), n as f64 / secs);
            }
        }
        return Ok(());
    }
    let player = match a.player.as_str() {
        "red" | "w" => Color::Red,
        "black" | "b" => Color::Black,
        other => anyhow::bail!("--as {other:?}: expected red or black"),
    };
    if engine::more::presets::is_spec(&a.variant) {
        return sample_more(&a, player);
    }
    let view = match a.fen.as_deref() {
        Some(f) => {
            // A full state or a view FEN (docs/notation.md §2; JieqiBox's six-field Jieqi FEN).
            let given = super::variant_arg::given(super::variant_arg::load(&a.variant)?, Some(f), None)?;
            if let engine::variant::given::Given::Full(s) = &given {
                println!("full  {}", vfen::write(s));
            }
            given.view(player).map_err(anyhow::Error::msg).context("--as")?
        }
        None => {
            let s = midgame(&a.variant, a.seed, a.plies, None)?;
            println!("full  {}", vfen::write(&s));
            View::new(&s, player)
        }
    };
    println!("view  {}", view.fen());
    println!("key   {:016x}", view.infoset_key());
    let mut rng = Pcg64Mcg::seed_from_u64(a.seed);
    for i in 0..a.count {
        println!("det{i}  {}", vfen::write(&view.sample(&mut rng)));
    }
    Ok(())
}

/// `anqi sample` for the RULES-more.md games: `--plies` random actions from the start (set-up
/// included) or `--fen`, then the player's view FEN (docs/notation.md §5), infoset string and
/// determinizations (full FENs).
fn sample_more(a: &Args, player: Color) -> anyhow::Result<()> {
    use engine::game::{PlayerId, Turn};
    use engine::more::presets::{with_game, Playable, WithGame};
    struct Body<'a>(&'a Args, Color);
    impl WithGame for Body<'_> {
        type Output = ();
        fn run<G: Playable>(self, mut g: G) {
            let (a, c) = (self.0, self.1);
            let mut rng = Pcg64Mcg::seed_from_u64(a.seed);
            for _ in 0..a.plies {
                if !matches!(g.turn(), Turn::Player(_)) {
                    break;
                }
                let acts = g.legal_actions();
                if acts.is_empty() {
                    break;
                }
                g.apply(acts[rng.random_range(0..acts.len())]);
            }
            let p = if c == Color::Red { PlayerId::FIRST } else { PlayerId::SECOND };
            println!("full  {}", g.full_fen());
            println!("view  {}", g.view_fen(c));
            println!("key   {:016x}", g.infoset_key(p));
            for i in 0..a.count {
                println!("det{i}  {}", g.sample_determinization(p, &mut rng).full_fen());
            }
        }
    }
    with_game(&a.variant, a.fen.as_deref(), Body(a, player))?;
    Ok(())
}
