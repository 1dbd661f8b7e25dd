//! The RULES.md variants behind the CLI's game contract ([`Playable`]): a
//! [`VariantGameState`] gives its FENs (RULES.md §N, docs/notation.md §2), result (§X4-X6, §K7,
//! §S11), chance-aware perft (§P), record strings with reveal letters (§F8) and chance
//! multiplicities counted on the mover's view, so that `anqi actions`, `perft`, `play`, `sample`
//! and `render` run one body for the variants and the RULES-more.md games
//! ([`crate::any_game::with_any_game`]).

use std::sync::OnceLock;

use super::game::draw_outcome;
use super::game_state::{color_of, decode, decode_chance, encode_chance, sees_captured, GameEnd, VariantGameState};
use super::ChanceOutcome;
use super::{fen as vfen, notation, perft as vperft, Hidden, View};
use crate::game::{Action, Game, Turn};
use crate::more::geometry::{Palace, River};
use crate::more::presets::Playable;
use crate::picture::{MoveText, Picture, PictureError, PictureOptions, Viewpoint};
use crate::more::{Geometry, MoreError};
use crate::piece::Color;

/// The 9x10 board every RULES.md variant is played on (§X1): river between ranks 4 and 5,
/// palaces d0-f2 and d7-f9.
fn board() -> &'static Geometry {
    static BOARD: OnceLock<Geometry> = OnceLock::new();
    BOARD.get_or_init(|| {
        let p = [Palace { file_lo: 3, rank_lo: 0 }, Palace { file_lo: 3, rank_lo: 7 }];
        Geometry::new(9, 10, River::Between { red_last: 4 }, p).expect("the 9x10 board is valid")
    })
}

impl VariantGameState {
    /// Whether the variant hides something from a player (§S1, §F1): where nothing is hidden a
    /// player's view is the full state.
    fn hides(&self) -> bool {
        self.state().variant().caps.hidden != Hidden::None
    }

    /// Plays record entry `text`; a chance result it needs comes from its reveal letters, else
    /// from `draw` (`None`: refuse to guess).
    fn play_entry(&mut self, text: &str, draw: Option<&mut dyn rand::RngCore>) -> Result<(), MoreError> {
        if !matches!(self.turn(), Turn::Player(_)) {
            return Err(MoreError::Move(format!("{text:?}: no player is to move (the game is over)")));
        }
        let (a, named) = notation::parse_record(self.state(), text)?;
        let mut after = self.state().clone();
        after.apply(a);
        let outcome = match (after.is_chance(), named, draw) {
            (false, _, _) => None,
            (true, Some(o), _) => Some(o),
            (true, None, Some(rng)) => Some(draw_outcome(&after.chance_outcomes(), &mut &mut *rng)),
            (true, None, None) => {
                return Err(MoreError::Move(format!("{text:?} reveals a hidden identity: name it with reveal letters (RULES.md §F8)")));
            }
        };
        self.apply_variant(a);
        if let Some(o) = outcome {
            self.apply(encode_chance(o));
        }
        Ok(())
    }
}

impl Playable for VariantGameState {
    fn as_variant(&self) -> Option<&VariantGameState> {
        Some(self)
    }

    fn from_variant<F: crate::more::presets::GameFamily>(x: F::Of<VariantGameState>) -> Option<F::Of<Self>> {
        Some(x)
    }

    fn full_fen(&self) -> String {
        vfen::write(self.state())
    }

    /// The end by rule; `None` at the horizon (a cut, not a decision).
    fn result(&self) -> Option<(&'static str, &'static str)> {
        match self.end() {
            Some(GameEnd::Rule(e)) => Some((e.result(), e.reason())),
            Some(GameEnd::Horizon) | None => None,
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        vperft::perft(self.state(), depth)
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        let s = self.state();
        vperft::divide(s, depth).0.into_iter().map(|(a, n)| (notation::action_string(s, a), n)).collect()
    }

    /// The Chinese record without the reveal (the chance result is not drawn yet).
    fn chinese(&self, a: Action) -> String {
        match decode(a) {
            Some(va) => notation::chinese_record(self.state(), va, None),
            None => self.action_string(a),
        }
    }

    /// # Errors
    /// [`MoreError::Variant`] for text that is no legal action here; [`MoreError::Move`] after
    /// the end or for a move that reveals an identity its text does not name.
    fn play_text(&mut self, text: &str) -> Result<(), MoreError> {
        self.play_entry(text, None)
    }

    fn play_record(&mut self, text: &str, rng: &mut dyn rand::RngCore) -> Result<(), MoreError> {
        self.play_entry(text, Some(rng))
    }

    /// Counted on the mover's view where something is hidden (the identities it has not seen),
    /// on the state where nothing is.
    fn chance_multiplicity(&self, a: Action) -> u64 {
        let (Some(va), Turn::Player(p)) = (decode(a), self.turn()) else { return 1 };
        if self.hides() {
            View::new(self.state(), color_of(p)).known().chance_multiplicity(va)
        } else {
            self.state().chance_multiplicity(va)
        }
    }

    fn given_view(&self) -> Option<Color> {
        self.viewer()
    }

    /// Every variant has one (a no-op where nothing stands face-down).
    fn identity(&self) -> Option<Self> {
        let mut s = self.state().clone();
        s.make_identity();
        Some(self.with_state(s))
    }

    fn in_setup(&self) -> bool {
        self.state().in_setup()
    }

    fn view_fen(&self, c: Color) -> String {
        if self.hides() {
            View::new(self.state(), c).fen().to_string()
        } else {
            self.full_fen()
        }
    }

    fn geometry(&self) -> &'static Geometry {
        board()
    }

    /// Drawn from the side's [`View`] ([`super::picture`]), marking the state's last action.
    fn picture(&self, viewpoint: Viewpoint, opts: &PictureOptions<'_>) -> Result<Picture, PictureError> {
        Ok(super::picture::picture(self.state(), viewpoint, self.last_action(), opts))
    }

    /// The record string and the Chinese record with the revealed types (§F8); a side's text
    /// drops a captured face-down identity that side did not see (§F6 and the variant's
    /// capture-knowledge option, [`sees_captured`]).
    fn move_text(&self, a: Action, chance: Option<Action>, entry: &str, viewer: Option<Color>) -> MoveText {
        let Some(va) = decode(a) else {
            return MoveText { iccs: entry.to_string(), chinese: self.chinese(a) };
        };
        let state = self.state();
        let outcome = chance.and_then(decode_chance);
        let seen = match (viewer, outcome) {
            (Some(side), Some(o)) if o.captured.is_some() && !sees_captured(state, state.turn(), side) => Some(ChanceOutcome { mover: o.mover, captured: None }),
            (_, o) => o,
        };
        MoveText { iccs: notation::record_string(state, va, seen), chinese: notation::chinese_record(state, va, seen) }
    }

    /// Surprise layouts, owner's arrangements, deals, open twins ([`super::seeded::generate`]).
    fn seeded_setup(self, seed: u64) -> Result<crate::seeded::SeededSetup, MoreError> {
        super::seeded::generate(self.state().variant(), seed)
    }

    /// The deal of this start ([`super::seeded::DealtChance`]).
    fn seeded_chance(&self, seed: u64) -> Box<dyn crate::seeded::ChanceSource<Self>> {
        Box::new(super::seeded::DealtChance::new(self.state(), seed))
    }

    /// The action string with the revealed types (RULES.md §F8, [`notation::record_string`]).
    fn record_entry(&self, a: Action, chance: Option<Action>) -> String {
        super::seeded::record_entry(self, a, chance)
    }

    /// The move of the entry, its reveal letters skipped ([`notation::parse_action`]).
    fn parse_entry(&self, text: &str) -> Result<Action, MoreError> {
        Ok(super::game_state::encode(notation::parse_action(self.state(), text)?))
    }

    /// The variant's name ([`super::Variant::name`]).
    fn record_name(&self, _spec: &str) -> String {
        self.state().variant().name.clone()
    }

    /// [`super::State::legal_actions`]'s order (the move generator's, not sorted by code).
    fn opening_actions(&self) -> Vec<Action> {
        self.state().legal_actions().into_iter().map(super::game_state::encode).collect()
    }
}
