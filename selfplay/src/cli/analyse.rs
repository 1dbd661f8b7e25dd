//! `anqi analyse`: a bot's move distribution at one position, from the deciding player's view.
//!
//! `anqi analyse --variant V --fen FEN --as red|black --bot SPEC [--seed S]` prints one line per
//! analysed action (`action share score visits`: IS-MCTS visit share and mean value, PIMC share of
//! determinizations in which the action was best and mean score, expectimax score, the net bot's
//! root visit share and mean value), best first,
//! then `bestmove ACTION` and a `stats` line with the work done and its rate (used by
//! `scripts/bench-search`). The bot sees only the player's view (`view` line): determinizing
//! bots draw the hidden part from it; `alphabeta` and `oracle` read the full state. With a
//! full-state FEN the decider's view is taken from that state (what the variant's rules let it
//! see: a captured face-down piece's identity only for its capturer, §F6); with a view FEN it is
//! the given view, and the oracles are refused. Every game plays: the RULES.md variants and the
//! RULES-more.md games, resolved by the one registry ([`engine::any_game::with_any_game`]).

use super::actions::mover;
use anyhow::{bail, Context};
use clap::Args as ClapArgs;
use engine::any_game::{with_any_game, Start};
use engine::game::Turn;
use engine::more::presets::{Playable, WithGame};
use engine::Color;

/// Print a bot's move distribution from one player's view.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Game: a RULES.md variant preset or TOML file, or a RULES-more.md preset or rule file.
    #[arg(long, default_value = "xiangqi")]
    pub variant: String,
    /// Position: a full-state FEN (RULES.md §N), or the deciding player's view FEN
    /// (`docs/notation.md` §2, `view=w|b`; JieqiBox's six-field Jieqi FEN is read as one);
    /// default: the start (with --layouts for Surprise).
    #[arg(long)]
    pub fen: Option<String>,
    /// Surprise layouts of the start position, e.g. `C3,A` (RULES.md §S2); the start is the
    /// position after the set-up ([`Start::AfterSetup`]).
    #[arg(long)]
    pub layouts: Option<String>,
    /// The deciding player (must be the side to move); default: the side to move.
    #[arg(long = "as", value_parser = ["red", "black"])]
    pub as_: Option<String>,
    /// Bot spec (`ismcts:iterations=2000,c=0.7`, `pimc:k=8,search=alphabeta:depth=2`, ...).
    #[arg(long, default_value = "ismcts")]
    pub bot: String,
    /// Seed of the bot.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print at most this many actions (0: all).
    #[arg(long, default_value_t = 0)]
    pub top: usize,
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    let start = Start::fen_or(a.fen.as_deref(), Start::AfterSetup { layouts: a.layouts.as_deref() });
    with_any_game(&a.variant, start, Body { a: &a })?
}

struct Body<'a> {
    a: &'a Args,
}

impl WithGame for Body<'_> {
    type Output = anyhow::Result<()>;

    fn run<G: Playable>(self, g: G) -> Self::Output {
        let a = self.a;
        match g.turn() {
            Turn::Chance => bail!("the position is a chance node (a reveal is pending); give the position after it"),
            Turn::Terminal => bail!("no legal action: the game is over at this position"),
            Turn::Player(_) => {}
        }
        let to_move = mover(&g).context("no side to move")?;
        if let Some(side) = &a.as_ {
            let c = if side == "red" { Color::Red } else { Color::Black };
            if c != to_move {
                bail!("--as {side}: {to_move} is to move; a bot analyses the decision of the side to move");
            }
        }
        if let Some(viewer) = g.given_view() {
            if viewer != to_move {
                bail!("--fen is {viewer}'s view but {to_move} is to move");
            }
            if is_oracle(&a.bot) {
                bail!("--bot {}: an oracle reads the full state, and a view FEN gives only {viewer}'s view", a.bot);
            }
        }
        let mut bot = crate::bots::game_bot_for(&a.bot, a.seed, &g).map_err(anyhow::Error::msg).context("--bot")?;
        println!("analyse: variant {} bot {} as {}", g.info().name, bot.name(), to_move);
        println!("view {}", g.view_fen(to_move));
        let an = bot.analyse(&g);
        println!("{:<10} {:>7} {:>10} {:>8}", "action", "share", format!("score({})", an.score_unit), "visits");
        let n = if a.top == 0 { an.stats.len() } else { a.top.min(an.stats.len()) };
        for s in &an.stats[..n] {
            println!("{:<10} {:>7.4} {:>10.4} {:>8}", g.action_string(s.action), s.share, s.score, s.visits);
        }
        println!("bestmove {}", g.action_string(an.best));
        let secs = an.elapsed_ms / 1e3;
        let rate = if secs > 0.0 { an.work as f64 / secs } else { 0.0 };
        println!("stats {} {} nodes {} time_ms {:.1} {}/s {:.1}", an.work_unit, an.work, an.nodes, an.elapsed_ms, an.work_unit, rate);
        Ok(())
    }
}

/// Whether a bot spec names an oracle (a bot that reads the full state).
fn is_oracle(spec: &str) -> bool {
    let name = spec.split(':').next().unwrap_or(spec);
    matches!(name, "alphabeta" | "oracle")
}
