//! `anqi play`: one game of any game (a RULES.md variant or a RULES-more.md preset or rule file)
//! between two bots; prints the record and the result. One generic body over the game contract
//! ([`Playable`], dispatched by [`with_any_game`]).

use crate::viewer::seen::move_seen;
use crate::viewer::Viewpoint;
use anyhow::{bail, Context};
use clap::Args as ClapArgs;
use engine::any_game::{with_any_game, Start};
use engine::game::{Information, Turn};
use engine::more::presets::{Playable, WithGame};
use engine::seeded::{play_ply, ChanceSource, DrawnChance};

/// Play one game between two bots and print the record and result.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Variant preset or TOML file (RULES-more.md presets and rule files too).
    #[arg(long, default_value = "xiangqi")]
    pub variant: String,
    /// Red's bot (`random`, `greedy`, `alphabeta:depth=N`, `pimc:k=N`, `net:…`).
    #[arg(long, default_value = "random")]
    pub red: String,
    /// Black's bot.
    #[arg(long, default_value = "random")]
    pub black: String,
    /// Seed for bots and chance (reveals).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Start position: a full-state FEN (RULES.md §N, docs/notation.md §5), after the set-up.
    #[arg(long)]
    pub fen: Option<String>,
    /// Surprise layouts, e.g. `C3,A` (RULES.md §S2): start after the set-up with these.
    #[arg(long)]
    pub layouts: Option<String>,
    /// Stop (unfinished) after this many plies.
    #[arg(long, default_value_t = 2000)]
    pub max_plies: usize,
}

/// Runs the command.
///
/// Without `--fen` or `--layouts` the game includes its set-up phase: the bots choose Surprise
/// layouts, Fan-qi owner's-choice arrangements (RULES.md §S2, §F3), missile placements and tiles
/// (RULES-more.md) as actions. What no player chooses before the first move is drawn from
/// `--seed`: an open twin of a random mode starts dealt as its hidden game's tournaments deal
/// that seed, shown to both (docs/open-twins.md §O4; [`PublicDeal`]).
pub fn run(a: Args) -> anyhow::Result<()> {
    let start = match (&a.fen, &a.layouts) {
        (Some(f), _) => Start::Fen(f),
        (None, Some(l)) => Start::AfterSetup { layouts: Some(l) },
        (None, None) => Start::Setup,
    };
    let dealt = match start {
        Start::Setup => with_any_game(&a.variant, Start::Setup, PublicDeal(a.seed))??,
        _ => None,
    };
    let start = dealt.as_deref().map_or(start, Start::Fen);
    with_any_game(&a.variant, start, Body(&a))?
}

/// The start of a game that hides nothing and has no set-up phase, as its seeded set-up
/// ([`Playable::seeded_setup`]) writes it: for the open twins of the random modes (Jieqi, Fan-qi
/// 4, 6, 8, 10) the deal of the seed, made at the start and shown to both; for any other such
/// game its own start. `None` (play from the rules' start) where a player chooses the set-up or
/// something is hidden: there the set-up is the players' and chance comes as the game goes.
struct PublicDeal(u64);

impl WithGame for PublicDeal {
    type Output = anyhow::Result<Option<String>>;

    fn run<G: Playable>(self, g: G) -> Self::Output {
        if g.info().information != Information::Perfect || g.in_setup() {
            return Ok(None);
        }
        let start = g.full_fen();
        let seeded = g.seeded_setup(self.0).context("the seeded start")?;
        Ok(Some(seeded.fen).filter(|f| *f != start))
    }
}

/// The game itself: two bots of the game's own registry ([`crate::tournament::players::bot_for`]:
/// the variants' own bots for a RULES.md variant, the contract's for the rest), chance drawn by
/// its probabilities from `--seed` ([`DrawnChance`]), each ply written as the game writes its
/// record entries ([`play_ply`]: the variants' reveal letters, RULES.md §F8) and in Chinese
/// ([`move_seen`] from the full view); then the end FEN and the result.
struct Body<'a>(&'a Args);

impl WithGame for Body<'_> {
    type Output = anyhow::Result<()>;

    fn run<G: Playable>(self, mut g: G) -> Self::Output {
        let a = self.0;
        if let Some(c) = g.given_view() {
            bail!("--fen is {c}'s view FEN: a game between two bots starts from a full-state FEN (what {c} cannot see would be made up)");
        }
        let bot = |spec: &str, seed: u64, side: &str| crate::tournament::players::bot_for(spec, seed, &g).map_err(anyhow::Error::msg).with_context(|| format!("--{side} {spec:?}"));
        let mut bots = [bot(&a.red, a.seed.wrapping_mul(2), "red")?, bot(&a.black, a.seed.wrapping_mul(2) + 1, "black")?];
        let mut chance = DrawnChance::new(a.seed);
        println!("[Variant \"{}\"]", g.record_name(&a.variant));
        println!("[Red \"{}\"]", bots[0].name());
        println!("[Black \"{}\"]", bots[1].name());
        println!("[FEN \"{}\"]", g.full_fen());
        let mut moves = Vec::new();
        let mut chinese = Vec::new();
        loop {
            match g.turn() {
                Turn::Player(_) if moves.len() >= a.max_plies => break,
                Turn::Player(p) => {
                    let action = bots[p.index()].choose(&g);
                    let before = g.clone();
                    let (entry, outcome) = play_ply(&mut g, action, &mut chance);
                    // The full record's Chinese: with the revealed types for the variants (§F8).
                    chinese.push(move_seen(&before, action, outcome, &entry, Viewpoint::Full).chinese);
                    moves.push(entry);
                }
                // A chance node no ply led to (none of the starts has one): drawn as any other.
                Turn::Chance => {
                    let o = ChanceSource::<G>::outcome(&mut chance, &g);
                    g.apply(o);
                }
                Turn::Terminal => break,
            }
        }
        let mut line = String::new();
        for (i, m) in moves.iter().enumerate() {
            if i % 2 == 0 {
                line.push_str(&format!("{}. ", i / 2 + 1));
            }
            line.push_str(m);
            line.push(' ');
        }
        println!("{}", line.trim_end());
        println!("[Chinese \"{}\"]", chinese.join(" "));
        println!("[EndFEN \"{}\"]", g.full_fen());
        match g.result() {
            Some((result, reason)) => println!("result {result} ({reason}) after {} plies", moves.len()),
            None => println!("result * (unfinished after {} plies)", moves.len()),
        }
        Ok(())
    }
}
