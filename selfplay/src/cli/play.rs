//! `anqi play`: one game between two bots; prints the record and the result.

use clap::Args as ClapArgs;
use engine::search;
use engine::variant::game::VariantGame;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Play one game between two bots and print the record and result.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Variant preset or TOML file.
    #[arg(long, default_value = "xiangqi")]
    pub variant: String,
    /// Red's bot (`random`, `greedy`).
    #[arg(long, default_value = "random")]
    pub red: String,
    /// Black's bot.
    #[arg(long, default_value = "random")]
    pub black: String,
    /// Seed for bots and chance (reveals).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Start position (RULES.md §N full-state FEN).
    #[arg(long)]
    pub fen: Option<String>,
    /// Surprise layouts, e.g. `C3,A` (RULES.md §S2).
    #[arg(long)]
    pub layouts: Option<String>,
    /// Stop (unfinished) after this many plies.
    #[arg(long, default_value_t = 2000)]
    pub max_plies: usize,
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    if engine::more::presets::is_spec(&a.variant) {
        return run_more(a);
    }
    let v = super::variant_arg::load(&a.variant)?;
    // Without --fen or --layouts the game includes its set-up phase: the bots choose Surprise
    // layouts and Fan-qi owner's-choice arrangements as actions (RULES.md §S2, §F3).
    // An open twin starts dealt from --seed (docs/open-twins.md §O4): the set-up the hidden
    // game's tournaments draw for that seed, shown to both.
    let state = if a.fen.is_none() && a.layouts.is_none() && v.open {
        crate::tournament::game::Setup::generate(v, a.seed)?.state(v)?
    } else if a.fen.is_none() && a.layouts.is_none() {
        engine::variant::State::new_game(v)
    } else {
        super::variant_arg::start_state(v, a.fen.as_deref(), a.layouts.as_deref())?
    };
    let mut red = crate::bots::for_variant(&a.red, a.seed.wrapping_mul(2), &v.name).map_err(anyhow::Error::msg)?;
    let mut black = crate::bots::for_variant(&a.black, a.seed.wrapping_mul(2) + 1, &v.name).map_err(anyhow::Error::msg)?;
    let mut chance_rng = Pcg64Mcg::seed_from_u64(a.seed ^ 0xC4A1_7CE5);
    println!("[Variant \"{}\"]", v.name);
    println!("[Red \"{}\"]", red.name());
    println!("[Black \"{}\"]", black.name());
    println!("[FEN \"{}\"]", engine::variant::fen::write(&state));
    let mut game = VariantGame::new(state);
    let end = loop {
        if let Some(end) = game.outcome() {
            break Some(end);
        }
        if game.plies().len() >= a.max_plies {
            break None;
        }
        let s = game.state();
        let d = search::Decision::in_game(&game);
        let action = if s.turn() == engine::Color::Red { red.choose(&d) } else { black.choose(&d) };
        game.play(action, |outs| engine::variant::game::draw_outcome(outs, &mut chance_rng));
    };
    let mut line = String::new();
    for (i, p) in game.plies().iter().enumerate() {
        if i % 2 == 0 {
            line.push_str(&format!("{}. ", i / 2 + 1));
        }
        line.push_str(&p.text);
        line.push(' ');
    }
    println!("{}", line.trim_end());
    match end {
        Some(e) => println!("result {} ({}) after {} plies", e.result(), e.reason(), game.plies().len()),
        None => println!("result * (unfinished after {} plies)", game.plies().len()),
    }
    Ok(())
}

/// A RULES-more.md preset (skill-tile, camel, missile): the Game-trait bots of
/// `engine::search::game_bot` play it; the record is printed the same way.
fn run_more(a: Args) -> anyhow::Result<()> {
    let opts = engine::more::presets::PlayOptions { red: &a.red, black: &a.black, seed: a.seed, max_plies: a.max_plies, opening_plies: 0 };
    let r = engine::more::presets::play(&a.variant, a.fen.as_deref(), opts)?;
    println!("[Variant \"{}\"]", r.variant);
    println!("[Red \"{}\"]", r.red);
    println!("[Black \"{}\"]", r.black);
    println!("[FEN \"{}\"]", r.start_fen);
    let mut line = String::new();
    for (i, m) in r.moves.iter().enumerate() {
        if i % 2 == 0 {
            line.push_str(&format!("{}. ", i / 2 + 1));
        }
        line.push_str(m);
        line.push(' ');
    }
    println!("{}", line.trim_end());
    println!("[Chinese \"{}\"]", r.chinese.join(" "));
    println!("[EndFEN \"{}\"]", r.end_fen);
    if r.result == "*" {
        println!("result * ({})", r.reason);
    } else {
        println!("result {} ({}) after {} plies", r.result, r.reason, r.moves.len());
    }
    Ok(())
}
