//! `anqi actions`: play a sequence of moves in any game and list the legal actions after it.

use anyhow::{bail, Context};
use clap::Args as ClapArgs;
use engine::any_game::{with_any_game, Start};
use engine::game::Turn;
use engine::more::presets::{Playable, WithGame};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Apply moves (record strings, RULES.md §F8 reveal letters honoured; the action strings of
/// docs/notation.md §5 in the RULES-more.md games) to a position of any game and print the
/// resulting FEN (the side to move's view FEN where something is hidden from it), its legal
/// actions with their chance multiplicity, and `result R (reason)` when the moves ended the game
/// (RULES.md §X4-X6; moves after the end are refused).
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Game: a RULES.md variant preset or TOML file, or a RULES-more.md preset or rule file.
    #[arg(long, default_value = "xiangqi")]
    pub variant: String,
    /// Start from this full-state FEN (RULES.md §N), or from the mover's view FEN (`view=w|b`,
    /// docs/notation.md §2; JieqiBox's six-field Jieqi FEN): its legal actions are a function of
    /// that view. Without it (and without `--layouts`) the game starts with its set-up phase.
    #[arg(long)]
    pub fen: Option<String>,
    /// Surprise layouts RED,BLACK (RULES.md §S2): start after the set-up with these layouts.
    #[arg(long)]
    pub layouts: Option<String>,
    /// Moves to play, space separated (e.g. `"b0c2R h9g7"`); a move without reveal letters that
    /// needs a chance draw takes it from `--seed`.
    #[arg(long, default_value = "")]
    pub play: String,
    /// Seed for chance draws not named in the moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    let start = match (&a.fen, &a.layouts) {
        (Some(f), _) => Start::Fen(f),
        (None, Some(l)) => Start::AfterSetup { layouts: Some(l) },
        (None, None) => Start::Setup,
    };
    with_any_game(&a.variant, start, Body { play: &a.play, seed: a.seed })?
}

struct Body<'a> {
    play: &'a str,
    seed: u64,
}

impl WithGame for Body<'_> {
    type Output = anyhow::Result<()>;

    fn run<G: Playable>(self, mut g: G) -> Self::Output {
        if let Some(c) = g.given_view() {
            if !self.play.trim().is_empty() {
                bail!("--play with a view FEN: give the position after the moves instead (the moves may need what {c} cannot see)");
            }
            if let Some(mover) = mover(&g).filter(|&m| m != c) {
                bail!("--fen is {c}'s view but {mover} is to move: the legal actions are the mover's");
            }
        }
        // The moves are played as a game, so that the end rules (RULES.md §X6: repetition,
        // perpetual check and chase, the 60-move rule) see them; a move after the end is refused.
        let mut rng = Pcg64Mcg::seed_from_u64(self.seed);
        for (i, text) in self.play.split_whitespace().enumerate() {
            if let Some((result, reason)) = g.result() {
                bail!("--play move {} ({text:?}): the game is over after move {i}: result {result} ({reason})", i + 1);
            }
            g.play_record(text, &mut rng).with_context(|| format!("--play move {} ({text:?})", i + 1))?;
        }
        // Where something is hidden, the side to move is shown its view and nothing that depends
        // on what it cannot see: its actions and their chance multiplicities (counted on the
        // view's unseen pools) are functions of that view (RULES-more.md §3.8 [R]). `anqi sample`
        // prints the full state of a full FEN if wanted.
        let fen = g.full_fen();
        match mover(&g).map(|c| g.view_fen(c)).filter(|v| *v != fen) {
            Some(v) => println!("view {v}"),
            None => println!("fen {fen}"),
        }
        let mut list: Vec<String> = g
            .legal_actions()
            .into_iter()
            .map(|x| {
                let (t, m) = (g.action_string(x), g.chance_multiplicity(x));
                if m > 1 { format!("{t}x{m}") } else { t }
            })
            .collect();
        list.sort();
        println!("actions {}", list.join(" "));
        println!("count {}", list.len());
        if let Some((result, reason)) = g.result() {
            println!("result {result} ({reason})");
        }
        Ok(())
    }
}

/// The side to move: the acting player, or at the end the side the FEN names (RULES.md §N,
/// docs/notation.md §5: both rule books write it as the second field, `w` or `b`).
pub(crate) fn mover<G: Playable>(g: &G) -> Option<engine::Color> {
    match g.turn() {
        Turn::Player(p) => Some(engine::variant::game_state::color_of(p)),
        Turn::Terminal => match g.full_fen().split_whitespace().nth(1) {
            Some("b") => Some(engine::Color::Black),
            Some("w") | Some("r") => Some(engine::Color::Red),
            _ => None,
        },
        Turn::Chance => None,
    }
}
