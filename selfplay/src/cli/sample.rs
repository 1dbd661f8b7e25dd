//! `anqi sample`: determinization sampling from a player's view (RULES.md §S2, §F6), and its
//! benchmark.

use anyhow::Context;
use clap::Args as ClapArgs;
use engine::any_game::{with_any_game, Start};
use engine::game::{draw_weighted, PlayerId, Turn};
use engine::more::presets::{Playable, WithGame};
use engine::search::RandomBot;
use engine::variant::game_state::VariantGameState;
use engine::variant::View;
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

/// The benchmark's mid-game: Surprise layouts C3,B, then `plies` random plies.
fn midgame(variant: &str, seed: u64, plies: usize) -> anyhow::Result<engine::variant::State> {
    let v = super::variant_arg::load(variant)?;
    let start = super::variant_arg::start_state(v, None, if v.caps.discs() { Some("C3,B") } else { None })?;
    let mut game = VariantGameState::unbounded(start);
    let mut bot = RandomBot::new(seed);
    let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0xD1CE);
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let a = bot.pick(&game.state().legal_actions());
        game.play(a, |outs| outs[rng.random_range(0..outs.len())].0);
    }
    Ok(game.state().clone())
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    if a.bench {
        println!("{:<10} {:>8} {:>12} {:>10} {:>14}", "variant", "player", "samples", "seconds", "samples/s");
        for variant in ["jieqi", "surprise"] {
            let s = midgame(variant, a.seed, a.plies)?;
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
    with_any_game(&a.variant, Start::fen_or(a.fen.as_deref(), Start::Setup), Body(&a, player))?
}

/// `anqi sample` for any game: without `--fen`, `--plies` uniformly random actions from the start
/// (set-up included; chance drawn by its probabilities); then the full FEN (unless a view FEN
/// was given), the player's view FEN (docs/notation.md §2, §5), its information-set key and
/// determinizations drawn from that view (full FENs).
struct Body<'a>(&'a Args, Color);

impl WithGame for Body<'_> {
    type Output = anyhow::Result<()>;

    fn run<G: Playable>(self, mut g: G) -> Self::Output {
        let (a, c) = (self.0, self.1);
        if let Some(v) = g.given_view().filter(|&v| v != c) {
            return Err(anyhow::anyhow!("the FEN is {v}'s view; {c}'s view cannot be made from it")).context("--as");
        }
        let mut rng = Pcg64Mcg::seed_from_u64(a.seed);
        if a.fen.is_none() {
            let mut played = 0;
            loop {
                match g.turn() {
                    // A reveal a ply causes is part of that ply.
                    Turn::Chance => {
                        let o = draw_weighted(&g.chance_outcomes(), &mut rng).expect("a chance node has outcomes");
                        g.apply(o);
                    }
                    Turn::Player(_) if played < a.plies => {
                        let acts = g.legal_actions();
                        g.apply(acts[rng.random_range(0..acts.len())]);
                        played += 1;
                    }
                    _ => break,
                }
            }
        }
        let p = if c == Color::Red { PlayerId::FIRST } else { PlayerId::SECOND };
        if g.given_view().is_none() {
            println!("full  {}", g.full_fen());
        }
        println!("view  {}", g.view_fen(c));
        println!("key   {:016x}", g.infoset_key(p));
        for i in 0..a.count {
            println!("det{i}  {}", g.sample_determinization(p, &mut rng).full_fen());
        }
        Ok(())
    }
}
