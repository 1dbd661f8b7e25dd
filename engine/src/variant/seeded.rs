//! The seeded set-up and chance of a RULES.md variant's game ([`crate::seeded`]), so that both
//! games of a pair (colours swapped) start from the same hidden position and see the same chance:
//!
//! - Surprise: both sides' layouts (RULES.md §S2), uniformly among the 10 each;
//! - Fan-qi owner's-choice modes 3, 5, 7, 9: each side's face-down pieces are shuffled among its
//!   face-down points (the "owner's choice" made at random, §F3);
//! - random modes (Fan-qi 4, 6, 8, 10, Jieqi): a *deal* ([`Deal`]), one type from the pool for
//!   every undetermined face-down point, drawn at random. A chance node (§P2) is resolved with the
//!   dealt type of the moved piece's origin and of the captured piece's point
//!   ([`DealtChance`]). Dealing the whole pool in advance and revealing on demand draws each
//!   reveal uniformly from the pool, as the rules' chance does, but makes both games of a pair
//!   share the hidden identities;
//! - open twins (docs/open-twins.md §O4): the hidden game's set-up for the same seed, its deal
//!   made at the start and shown;
//! - other variants have nothing hidden (the seed still drives the random opening plies).

use super::game::draw_outcome;
use super::game_state::{decode, encode_chance, VariantGameState};
use super::open::Deal;
use super::{fen as vfen, SetupKind, State, Variant};
use crate::game::{Action, Game};
use crate::more::MoreError;
use crate::seeded::{ChanceSource, SeededSetup, CHANCE_SALT, DEAL_SALT, SETUP_SALT};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// §S2 layout names.
pub const LAYOUTS: [&str; 10] = ["A", "B", "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8"];

/// The set-up of variant `v` for `seed` (module docs), as a full-state FEN and a label
/// (`layouts C3,A`, `arrangement shuffled`, `random deal`, `… (open)`, `-`).
///
/// # Errors
/// [`MoreError::Variant`] when a start state cannot be built; [`MoreError::Fen`] for a twin that
/// cannot be derived or a shuffled arrangement the FEN reader refuses (a broken variant file).
pub fn generate(v: &'static Variant, seed: u64) -> Result<SeededSetup, MoreError> {
    if v.open {
        let h = crate::any_game::twin_of(v, crate::any_game::Twin::Hidden).map_err(|e| MoreError::Fen(format!("{}: hidden twin: {e}", v.name)))?;
        let hidden = generate(h, seed)?;
        let start = vfen::parse(h, &hidden.fen).map_err(|e| MoreError::Fen(format!("set-up FEN {:?}: {e}", hidden.fen)))?;
        let open = super::open::open_state(v, &start, &deal(&start, seed))?;
        return Ok(SeededSetup { fen: vfen::write(&open), label: format!("{} (open)", hidden.label) });
    }
    let mut rng = Pcg64Mcg::seed_from_u64(seed ^ SETUP_SALT);
    match v.caps.setup {
        SetupKind::Layouts => {
            let r = LAYOUTS[rng.random_range(0..LAYOUTS.len())];
            let b = LAYOUTS[rng.random_range(0..LAYOUTS.len())];
            let s = State::start(v, Some((r, b)))?;
            Ok(SeededSetup { fen: vfen::write(&s), label: format!("layouts {r},{b}") })
        }
        SetupKind::Placement => {
            let s = State::start(v, None)?;
            let fen = shuffle_arrangement(&vfen::write(&s), &mut rng);
            vfen::parse(v, &fen).map_err(|e| MoreError::Fen(format!("shuffled arrangement {fen:?}: {e}")))?;
            Ok(SeededSetup { fen, label: "arrangement shuffled".into() })
        }
        SetupKind::None if v.random_reveals() => Ok(SeededSetup { fen: vfen::write(&State::start(v, None)?), label: "random deal".into() }),
        SetupKind::None => Ok(SeededSetup { fen: vfen::write(&State::start(v, None)?), label: "-".into() }),
    }
}

/// The deal of the undetermined face-down pieces of `start` for `seed` (empty outside random
/// modes and in open twins, whose deal is in the start state), drawn with `seed ^ DEAL_SALT`.
pub fn deal(start: &State, seed: u64) -> Deal {
    Deal::draw(start, &mut Pcg64Mcg::seed_from_u64(seed ^ DEAL_SALT))
}

/// Shuffles each side's `square=Letter` entries of the sixth FEN field (§N2) among its squares.
fn shuffle_arrangement(fen: &str, rng: &mut Pcg64Mcg) -> String {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if fields.len() < 6 {
        return fen.to_string();
    }
    let entries: Vec<(String, char)> =
        fields[5].split(',').filter_map(|e| e.split_once('=').and_then(|(sq, l)| Some((sq.to_string(), l.chars().next()?)))).collect();
    let mut out = Vec::new();
    for red in [true, false] {
        let side: Vec<&(String, char)> = entries.iter().filter(|(_, l)| l.is_ascii_uppercase() == red).collect();
        let mut letters: Vec<char> = side.iter().map(|(_, l)| *l).collect();
        letters.shuffle(rng);
        out.extend(side.iter().zip(letters).map(|((sq, _), l)| format!("{sq}={l}")));
    }
    fields[5] = out.join(",");
    fields.join(" ")
}

/// A variant game's chance resolved by the deal of its start ([`Deal::resolve`]: the dealt types
/// of the moved piece's origin and of the captured piece's point), outcomes the deal does not fix
/// drawn by probability with `seed ^ CHANCE_SALT`.
pub struct DealtChance {
    deal: Deal,
    rng: Pcg64Mcg,
}

impl DealtChance {
    /// The chance of the game starting at `start` with seed `seed`.
    pub fn new(start: &State, seed: u64) -> DealtChance {
        DealtChance { deal: deal(start, seed), rng: Pcg64Mcg::seed_from_u64(seed ^ CHANCE_SALT) }
    }
}

impl ChanceSource<VariantGameState> for DealtChance {
    fn outcome(&mut self, g: &VariantGameState) -> Action {
        let outs = g.state().chance_outcomes();
        let o = match g.last_action() {
            Some(a) => self.deal.resolve(a, &outs, &mut self.rng),
            None => draw_outcome(&outs, &mut self.rng),
        };
        encode_chance(o)
    }
}

/// The record entry of player action `a` at `g`, followed by chance outcome `chance`
/// ([`super::notation::record_string`], RULES.md §F8: the revealed types as letters).
pub(crate) fn record_entry(g: &VariantGameState, a: Action, chance: Option<Action>) -> String {
    match decode(a) {
        Some(va) => super::notation::record_string(g.state(), va, chance.and_then(super::game_state::decode_chance)),
        None => g.action_string(a),
    }
}
