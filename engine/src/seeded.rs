//! Seeded games (issue #17 item 1): what one seed decides in a game that tournaments, the ladder
//! and the studies play, whatever the game, so that both games of a pair (colours swapped) start
//! from the same hidden position, see the same chance and open alike:
//!
//! - the **set-up** ([`crate::more::presets::Playable::seeded_setup`]): the position after the
//!   set-up phase, written as a full-state FEN. The default draws every set-up action uniformly
//!   at random ([`draw_setup_actions`]: missile's hidden placements, skill's tile choices); the
//!   RULES.md variants draw their Surprise layouts, owner's-choice arrangements and open twins'
//!   deals ([`crate::variant::seeded`]);
//! - **chance** ([`crate::more::presets::Playable::seeded_chance`], a [`ChanceSource`]): the
//!   default draws each outcome by its probability ([`DrawnChance`]); the variants reveal from a
//!   deal drawn at the start ([`crate::variant::seeded::DealtChance`]);
//! - the **random opening plies** ([`crate::more::presets::Playable::opening_actions`], drawn
//!   with a generator seeded by [`OPENING_SALT`]).
//!
//! A ply is played with [`play_ply`], which resolves the chance the action leads to and returns
//! the record entry the game writes for it ([`crate::more::presets::Playable::record_entry`]);
//! [`replay_entry`] plays a record entry back the same way and checks that it is written alike.

use crate::game::{draw_weighted, Action, Game, Turn};
use crate::more::presets::Playable;
use crate::more::MoreError;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Salt of the generator that draws a set-up from its seed (`seed ^ SETUP_SALT`).
pub const SETUP_SALT: u64 = 0x5E70_5E70;
/// Salt of the generator of the random opening plies (`seed ^ OPENING_SALT`).
pub const OPENING_SALT: u64 = 0x0BE1_0BE1;
/// Salt of the generator of chance outcomes not fixed by a deal (`seed ^ CHANCE_SALT`).
pub const CHANCE_SALT: u64 = 0xC4A1_7CE5;
/// Salt of the generator of a RULES.md deal (`seed ^ DEAL_SALT`, [`crate::variant::open::Deal::draw`]).
pub const DEAL_SALT: u64 = 0xDEA1_DEA1;

/// The start of a seeded game, after its set-up phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeededSetup {
    /// Full-state FEN of the start (RULES.md §N, docs/notation.md §5): a game built from it hides
    /// what the rules still hide.
    pub fen: String,
    /// Human-readable summary for records, e.g. `layouts C3,A`, `set-up drawn (12 actions)`, `-`.
    pub label: String,
}

/// The default set-up of a seed: from `g` (at its rules' start), every set-up action drawn
/// uniformly among the legal ones with a generator seeded `seed ^ SETUP_SALT`, until the set-up
/// phase ends ([`Playable::in_setup`]); label `set-up drawn (N actions)`, or `-` when the game
/// has no set-up phase.
pub fn draw_setup_actions<G: Playable>(mut g: G, seed: u64) -> SeededSetup {
    let mut rng = Pcg64Mcg::seed_from_u64(seed ^ SETUP_SALT);
    let mut drawn = 0;
    while g.in_setup() && !g.is_terminal() {
        let l = g.legal_actions();
        g.apply(l[rng.random_range(0..l.len())]);
        drawn += 1;
    }
    let label = if drawn > 0 { format!("set-up drawn ({drawn} actions)") } else { "-".into() };
    SeededSetup { fen: g.full_fen(), label }
}

/// Where a seeded game's chance outcomes come from.
pub trait ChanceSource<G>: Send {
    /// The outcome of the chance node `g` is at (one of `g.chance_outcomes()`).
    fn outcome(&mut self, g: &G) -> Action;
}

/// Chance drawn by the outcomes' probabilities ([`draw_weighted`]: inverse CDF, the last
/// outcome absorbing rounding) with a generator seeded `seed ^ CHANCE_SALT`: the default [`ChanceSource`].
pub struct DrawnChance {
    rng: Pcg64Mcg,
}

impl DrawnChance {
    /// The source of seed `seed`.
    pub fn new(seed: u64) -> DrawnChance {
        DrawnChance { rng: Pcg64Mcg::seed_from_u64(seed ^ CHANCE_SALT) }
    }
}

impl<G: Game> ChanceSource<G> for DrawnChance {
    fn outcome(&mut self, g: &G) -> Action {
        draw_weighted(&g.chance_outcomes(), &mut self.rng).expect("a chance node has outcomes")
    }
}

/// Plays legal player action `a` in `g`, then the chance outcome it leads to, if any, from
/// `chance`; returns the record entry the game writes for the ply
/// ([`Playable::record_entry`]: the action string, with the revealed types for the variants)
/// and the chance outcome played.
pub fn play_ply<G: Playable>(g: &mut G, a: Action, chance: &mut dyn ChanceSource<G>) -> (String, Option<Action>) {
    let before = g.clone();
    g.apply(a);
    let mut drawn = None;
    if g.turn() == Turn::Chance {
        let o = chance.outcome(g);
        g.apply(o);
        drawn = Some(o);
    }
    (before.record_entry(a, drawn), drawn)
}

/// Plays record entry `text` in `g` as [`play_ply`] plays its action
/// ([`Playable::parse_entry`]), chance from `chance`, and checks that the game writes the entry
/// the same way (for the variants: the same revealed types).
///
/// # Errors
/// [`MoreError::Move`] when no player is to move, when the text is no legal action
/// (or the game's own parse error), or when the entry is written differently.
pub fn replay_entry<G: Playable>(g: &mut G, text: &str, chance: &mut dyn ChanceSource<G>) -> Result<(), MoreError> {
    if !matches!(g.turn(), Turn::Player(_)) {
        return Err(MoreError::Move(format!("{text:?}: no player is to move (the game is over)")));
    }
    let a = g.parse_entry(text)?;
    let (got, _) = play_ply(g, a, chance);
    if got != text {
        return Err(MoreError::Move(format!("record says {text:?}, replay gives {got:?}")));
    }
    Ok(())
}

/// The default of [`Playable::parse_entry`]: the legal action whose action string is `text`.
///
/// # Errors
/// [`MoreError::Move`] when no legal action has that string.
pub fn legal_action_named<G: Game>(g: &G, text: &str) -> Result<Action, MoreError> {
    g.legal_actions().into_iter().find(|&a| g.action_string(a) == text).ok_or_else(|| MoreError::Move(format!("{text:?} is no legal action here")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::any_game::{with_any_game, Start};
    use crate::more::presets::WithGame;

    /// The seeded set-up of a game from its rules' start.
    struct SetupOf(u64);
    impl WithGame for SetupOf {
        type Output = Result<SeededSetup, MoreError>;
        fn run<G: Playable>(self, g: G) -> Self::Output {
            g.seeded_setup(self.0)
        }
    }

    fn setup(spec: &str, seed: u64) -> SeededSetup {
        with_any_game(spec, Start::Setup, SetupOf(seed)).expect(spec).expect(spec)
    }

    /// From a start FEN: whether the game is past its set-up, and a seeded game of `plies`
    /// plies (a fixed spread of the opening actions, chance from the seed) with its record, then
    /// that record replayed.
    struct Walk {
        seed: u64,
        plies: usize,
    }
    impl WithGame for Walk {
        type Output = (bool, Vec<String>, Result<(), MoreError>);
        fn run<G: Playable>(self, g: G) -> Self::Output {
            let past_setup = !g.in_setup();
            let mut game = g.clone();
            let mut chance = game.seeded_chance(self.seed);
            let mut record = Vec::new();
            while record.len() < self.plies && matches!(game.turn(), Turn::Player(_)) {
                // A spread of the opening order, the same every time.
                let acts = game.opening_actions();
                let a = acts[(record.len() * 7 + 3) % acts.len()];
                record.push(play_ply(&mut game, a, chance.as_mut()).0);
            }
            let mut again = g.clone();
            let mut chance = again.seeded_chance(self.seed);
            let replayed = record.iter().try_for_each(|m| replay_entry(&mut again, m, chance.as_mut()));
            if replayed.is_ok() {
                assert_eq!(again.full_fen(), game.full_fen());
            }
            (past_setup, record, replayed)
        }
    }

    fn walk(spec: &str, fen: &str, seed: u64, plies: usize) -> (bool, Vec<String>, Result<(), MoreError>) {
        with_any_game(spec, Start::Fen(fen), Walk { seed, plies }).expect(spec)
    }

    #[test]
    fn a_variant_draws_its_hidden_set_up_from_the_seed() {
        let s = setup("surprise", 3);
        assert!(s.label.starts_with("layouts "), "{s:?}");
        assert_eq!(s, setup("surprise", 3));
        assert!((0..20).any(|seed| setup("surprise", seed).fen != s.fen), "layouts never differ");
        assert_eq!(setup("jieqi", 3).label, "random deal");
        assert_eq!(setup("xiangqi", 3).label, "-");
        assert_eq!(setup("xiangqi", 3).fen, crate::notation::fen::START);
        let open = setup("jieqi+open", 3);
        assert_eq!(open.label, "random deal (open)");
        // The open twin shows the deal the hidden game reveals: no face-down type is left open.
        assert_ne!(open.fen, setup("jieqi", 3).fen);
    }

    #[test]
    fn a_preset_draws_its_set_up_actions_from_the_seed() {
        let s = setup("missile-hidden-5", 9);
        assert!(s.label.starts_with("set-up drawn ("), "{s:?}");
        assert_eq!(s, setup("missile-hidden-5", 9));
        let (past_setup, _, _) = walk("missile-hidden-5", &s.fen, 9, 0);
        assert!(past_setup, "the drawn set-up is complete");
        assert_eq!(setup("camel-1", 9).label, "-");
    }

    #[test]
    fn a_variant_reveals_the_deal_and_writes_its_letters() {
        let s = setup("jieqi", 5);
        let (_, record, replayed) = walk("jieqi", &s.fen, 5, 10);
        replayed.expect("the record replays");
        assert_eq!(record.len(), 10);
        // Every jieqi move of a face-down piece names the type it turns up (§F8).
        assert!(record.iter().any(|m| m.len() > 4), "{record:?}");
        // Same seed, same reveals; the open twin plays the same deal.
        assert_eq!(walk("jieqi", &s.fen, 5, 10).1, record);
        // A changed reveal letter is caught by the replay.
        let i = record.iter().position(|m| m.len() > 4).expect("a reveal");
        let mut bad = record.clone();
        let last = bad[i].pop().expect("letter");
        bad[i].push(if last == 'R' || last == 'r' { 'c' } else { 'r' });
        struct Replay(Vec<String>);
        impl WithGame for Replay {
            type Output = Result<(), MoreError>;
            fn run<G: Playable>(self, mut g: G) -> Self::Output {
                let mut chance = g.seeded_chance(5);
                self.0.iter().try_for_each(|m| replay_entry(&mut g, m, chance.as_mut()))
            }
        }
        assert!(with_any_game("jieqi", Start::Fen(&s.fen), Replay(bad)).expect("jieqi").is_err());
    }

    #[test]
    fn a_preset_records_its_action_strings_and_refuses_others() {
        let s = setup("missile", 1);
        let (_, record, replayed) = walk("missile", &s.fen, 1, 20);
        replayed.expect("the record replays");
        struct Strings;
        impl WithGame for Strings {
            type Output = Vec<(String, String, Action)>;
            fn run<G: Playable>(self, g: G) -> Self::Output {
                g.legal_actions().into_iter().map(|a| (g.record_entry(a, None), g.action_string(a), g.parse_entry(&g.action_string(a)).expect("parses"))).collect()
            }
        }
        for (entry, string, _) in with_any_game("missile", Start::Fen(&s.fen), Strings).expect("missile") {
            assert_eq!(entry, string);
        }
        assert_eq!(record.len(), 20);
        struct Bad;
        impl WithGame for Bad {
            type Output = Result<Action, MoreError>;
            fn run<G: Playable>(self, g: G) -> Self::Output {
                g.parse_entry("z9z9")
            }
        }
        assert!(matches!(with_any_game("missile", Start::Fen(&s.fen), Bad).expect("missile"), Err(MoreError::Move(_))));
    }

    #[test]
    fn opening_order_is_the_move_generators_for_variants_and_legal_order_for_presets() {
        struct Orders;
        impl WithGame for Orders {
            type Output = (Vec<Action>, Vec<Action>);
            fn run<G: Playable>(self, g: G) -> Self::Output {
                (g.opening_actions(), g.legal_actions())
            }
        }
        let (opening, legal) = with_any_game("xiangqi", Start::AfterSetup { layouts: None }, Orders).expect("xiangqi");
        let start = crate::variant::State::start(crate::any_game::load_variant("xiangqi").expect("xiangqi"), None).expect("start");
        let generated: Vec<Action> = start.legal_actions().into_iter().map(crate::variant::game_state::encode).collect();
        assert_eq!(opening, generated);
        let mut sorted = opening.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, legal);
        let (opening, legal) = with_any_game("camel-1", Start::Setup, Orders).expect("camel-1");
        assert_eq!(opening, legal);
    }
}
