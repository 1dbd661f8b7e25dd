//! `anqi variants`: list the presets, or print one resolved rule table.

use clap::Args as ClapArgs;
use engine::variant::config::{preset_names, Variant};

/// List the variant presets (one line each), or show one resolved rule table.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Print the resolved table (inheritance applied) of this preset or rule file (either rule book).
    #[arg(long)]
    pub show: Option<String>,
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    if let Some(spec) = a.show {
        // Any game's resolved rule table (RULES-more.md presets: options with resolved values).
        print!("{}", engine::any_game::describe(&spec)?);
        return Ok(());
    }
    for name in preset_names() {
        let v = Variant::load(name)?;
        println!("{name:<26} {}", v.description);
    }
    for (name, description) in engine::more::presets::presets() {
        println!("{name:<26} {description}");
    }
    // docs/open-twins.md §O1: every preset with hidden information has an open twin.
    for name in engine::variant::config::open_twin_names() {
        let v = Variant::load(&name)?;
        println!("{name:<26} {}", v.description);
    }
    for (name, description) in engine::more::open::twin_names() {
        println!("{name:<26} {description}");
    }
    Ok(())
}
