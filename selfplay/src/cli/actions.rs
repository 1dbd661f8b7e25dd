//! `anqi actions`: play a sequence of moves in any variant and list the legal actions after it.

use anyhow::Context;
use clap::Args as ClapArgs;
use engine::variant::game::VariantGame;
use engine::variant::{fen as vfen, notation};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Apply moves (record strings, RULES.md §F8 reveal letters honoured) to a variant position and
/// print the resulting FEN (the side to move's view FEN where something is hidden from it), its
/// legal actions and their chance multiplicity, and
/// `result R (reason)` when the moves ended the game (RULES.md §X4-X6; moves after the end are
/// refused).
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Variant preset or TOML file.
    #[arg(long, default_value = "xiangqi")]
    pub variant: String,
    /// Start from this full-state FEN (RULES.md §N), or from the mover's view FEN (`view=w|b`,
    /// docs/notation.md §2; JieqiBox's six-field Jieqi FEN): its legal actions are a function of
    /// that view.
    #[arg(long)]
    pub fen: Option<String>,
    /// Surprise layouts RED,BLACK (RULES.md §S2).
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
    if engine::more::presets::is_spec(&a.variant) {
        // RULES-more.md games: action strings of docs/notation.md §5, no chance.
        let r = engine::more::presets::actions(&a.variant, a.fen.as_deref(), &a.play)?;
        // Where something is hidden from the side to move, it is shown its view, not the truth:
        // the legal actions are a function of that view (RULES-more.md §3.8 [R]).
        match &r.view {
            Some(v) => println!("view {v}"),
            None => println!("fen {}", r.fen),
        }
        println!("actions {}", r.actions.join(" "));
        println!("count {}", r.actions.len());
        if let Some((result, reason)) = r.end {
            println!("result {result} ({reason})");
        }
        return Ok(());
    }
    let v = super::variant_arg::load(&a.variant)?;
    let given = super::variant_arg::given(v, a.fen.as_deref(), a.layouts.as_deref())?;
    let viewer = given.viewer();
    let s = given.state();
    let mut rng = Pcg64Mcg::seed_from_u64(a.seed);
    // The moves are played as a game, so that the end rules of RULES.md §X6 (repetition,
    // perpetual check and chase, the 60-move rule) see them; a move after the end is refused.
    let mut game = VariantGame::new(s);
    let mut end = game.outcome();
    for (i, text) in a.play.split_whitespace().enumerate() {
        if let Some(e) = end {
            anyhow::bail!("--play move {} ({text:?}): the game is over after move {i}: result {} ({})", i + 1, e.result(), e.reason());
        }
        let (act, named) = notation::parse_record(game.state(), text).with_context(|| format!("--play move {} ({text:?})", i + 1))?;
        game.play(act, |outs| named.unwrap_or_else(|| engine::variant::game::draw_outcome(outs, &mut rng)));
        end = game.outcome();
    }
    let s = game.state().clone();
    let hidden = s.variant().caps.hidden != engine::variant::Hidden::None && !s.is_chance();
    // Where something is hidden, the side to move is shown its view and nothing that depends on
    // what it cannot see: its actions and their chance multiplicities (counted on the view's
    // unseen pools, not the true ones) are functions of that view. `anqi sample` prints the full
    // state of a full FEN if wanted.
    let shown: Option<engine::variant::View> = match viewer {
        Some(c) => {
            if !a.play.trim().is_empty() {
                anyhow::bail!("--play with a view FEN: give the position after the moves instead (the moves may need what {c} cannot see)");
            }
            if s.turn() != c {
                anyhow::bail!("--fen is {c}'s view but {} is to move: the legal actions are the mover's", s.turn());
            }
            Some(engine::variant::View::new(&s, c))
        }
        None if hidden => Some(engine::variant::View::new(&s, s.turn())),
        None => None,
    };
    match &shown {
        Some(v) => println!("view {}", v.fen()),
        None => println!("fen {}", vfen::write(&s)),
    }
    let counted = shown.as_ref().map(|v| v.known()).unwrap_or(&s);
    let acts = s.legal_actions();
    let mut list: Vec<String> = acts
        .iter()
        .map(|&x| {
            let m = counted.chance_multiplicity(x);
            let t = notation::action_string(&s, x);
            if m > 1 { format!("{t}x{m}") } else { t }
        })
        .collect();
    list.sort();
    println!("actions {}", list.join(" "));
    println!("count {}", acts.len());
    if let Some(e) = end {
        println!("result {} ({})", e.result(), e.reason());
    }
    Ok(())
}
