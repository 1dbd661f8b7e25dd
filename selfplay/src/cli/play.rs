//! `anqi play`: one game of any game (a RULES.md variant or a RULES-more.md preset or rule file)
//! between two bots; prints the game as a PGN record that `anqi view` reads (the tournament's
//! [`Record`], with `[Chinese]` and `[EndFEN]` tags added). One generic body over the game
//! contract ([`Playable`], dispatched by [`with_any_game`]).

use crate::viewer::seen::move_seen;
use crate::viewer::Viewpoint;
use anyhow::{bail, Context};
use clap::Args as ClapArgs;
use engine::any_game::{with_any_game, Start};
use engine::game::{Information, Turn};
use engine::more::presets::{Playable, WithGame};
use crate::tournament::game::{Outcome, Setup};
use crate::tournament::pgn::{self, GameKey, Record};
use engine::variant::SetupKind;
use engine::seeded::play_ply;

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
    /// Surprise layouts, e.g. `C3,A` (RULES.md §S2): start after the set-up with these. Only for
    /// a game with Surprise layouts, and not with `--fen` (whose backs field holds them).
    #[arg(long)]
    pub layouts: Option<String>,
    /// Stop after this many plies; the record then scores the game a draw by `ply limit`, as a
    /// tournament does.
    #[arg(long, default_value_t = 2000)]
    pub max_plies: usize,
}

/// Why `anqi play` refuses its arguments.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// `--layouts` with `--fen`: the FEN's backs field already holds the layouts.
    #[error("--layouts with --fen: a full-state FEN already holds the layouts (its backs field, RULES.md §N3); give one or the other")]
    LayoutsWithFen,
    /// `--layouts` for a game without Surprise layouts.
    #[error("--layouts: {0} has no Surprise layouts (RULES.md §S2); leave --layouts out")]
    NoLayouts(String),
}

/// Whether the game is a RULES.md variant whose set-up is the Surprise layouts (§S2).
struct HasLayouts;

impl WithGame for HasLayouts {
    type Output = bool;

    fn run<G: Playable>(self, g: G) -> bool {
        crate::tournament::players::as_variant(&g).is_some_and(|v| v.state().variant().caps.setup == SetupKind::Layouts)
    }
}

/// Runs the command.
///
/// Without `--fen` or `--layouts` the game includes its set-up phase: the bots choose Surprise
/// layouts, Fan-qi owner's-choice arrangements (RULES.md §S2, §F3), missile placements and tiles
/// (RULES-more.md) as actions. What no player chooses before the first move is drawn from
/// `--seed`: an open twin of a random mode starts dealt as its hidden game's tournaments deal
/// that seed, shown to both (docs/open-twins.md §O4; [`PublicDeal`]).
pub fn run(a: Args) -> anyhow::Result<()> {
    if a.layouts.is_some() {
        if a.fen.is_some() {
            return Err(PlayError::LayoutsWithFen.into());
        }
        if !with_any_game(&a.variant, Start::Setup, HasLayouts)? {
            return Err(PlayError::NoLayouts(a.variant.clone()).into());
        }
    }
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

/// The game itself: two bots of the game's own registry ([`crate::bots::game_bot_for`]:
/// the variants' own bots for a RULES.md variant, the contract's for the rest), chance from
/// `--seed` as tournaments draw it ([`Playable::seeded_chance`], so that the record's start and
/// `[ChanceSeed]` replay it in `anqi view`), each ply written as the game writes its record
/// entries ([`play_ply`]: the variants' reveal letters, RULES.md §F8) and in Chinese
/// ([`move_seen`] from the full view); printed as a PGN [`Record`] with the end FEN.
struct Body<'a>(&'a Args);

impl WithGame for Body<'_> {
    type Output = anyhow::Result<()>;

    fn run<G: Playable>(self, mut g: G) -> Self::Output {
        let a = self.0;
        if let Some(c) = g.given_view() {
            bail!("--fen is {c}'s view FEN: a game between two bots starts from a full-state FEN (what {c} cannot see would be made up)");
        }
        let bot = |spec: &str, seed: u64, side: &str| crate::bots::game_bot_for(spec, seed, &g).map_err(anyhow::Error::msg).with_context(|| format!("--{side} {spec:?}"));
        let mut bots = [bot(&a.red, a.seed.wrapping_mul(2), "red")?, bot(&a.black, a.seed.wrapping_mul(2) + 1, "black")?];
        let mut chance = g.seeded_chance(a.seed);
        // The record starts after the set-up phase, as a tournament's does: its FEN holds the
        // choices (layouts, arrangements, placements), which a FEN cannot show still to come.
        let mut start = g.full_fen();
        let mut setup = Vec::new();
        let mut moves = Vec::new();
        let mut chinese = Vec::new();
        loop {
            match g.turn() {
                Turn::Player(_) if moves.len() >= a.max_plies => break,
                Turn::Player(p) => {
                    let action = bots[p.index()].choose(&g);
                    let before = g.clone();
                    let (entry, outcome) = play_ply(&mut g, action, chance.as_mut());
                    if before.in_setup() {
                        setup.push(entry);
                        if !g.in_setup() {
                            // Chance from here on as a replay from this FEN draws it.
                            start = g.full_fen();
                            chance = g.seeded_chance(a.seed);
                        }
                        continue;
                    }
                    // The full record's Chinese: with the revealed types for the variants (§F8).
                    chinese.push(move_seen(&before, action, outcome, &entry, Viewpoint::Full).chinese);
                    moves.push(entry);
                }
                // A chance node no ply led to (none of the starts has one): drawn as any other.
                Turn::Chance => {
                    let o = chance.outcome(&g);
                    g.apply(o);
                }
                Turn::Terminal => break,
            }
        }
        let outcome = Outcome::of(&g).unwrap_or_else(|| Outcome { winner: None, reason: "ply limit".into() });
        let record = Record {
            event: "anqi play".into(),
            fingerprint: "play".into(),
            key: GameKey { pairing: 0, pair: 0, game: 0 },
            variant: g.record_name(&a.variant),
            red: bots[0].name(),
            black: bots[1].name(),
            setup: Setup {
                fen: start,
                seed: a.seed,
                label: match (&a.layouts, setup.is_empty()) {
                    (Some(l), _) => format!("layouts {l}"),
                    (None, false) => setup.join(" "),
                    (None, true) => "-".into(),
                },
            },
            moves,
            outcome,
            date: pgn::today(),
        };
        // The record's tags, the two of `anqi play` added, then its move text.
        let text = record.to_pgn();
        let (tags, movetext) = text.split_once("\n\n").unwrap_or((&text, ""));
        println!("{tags}");
        println!("[Chinese \"{}\"]", chinese.join(" "));
        println!("[EndFEN \"{}\"]", g.full_fen());
        print!("\n{movetext}");
        Ok(())
    }
}
