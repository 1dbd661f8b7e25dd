//! Playing bots against each other: one game to its end by the variant's rules
//! ([`VariantGameState::outcome`], RULES.md §X4-X6, §K7, §S11) or a ply cap, with chance (reveals,
//! §P2) drawn from a seeded generator. Used by the layout game, the strength sanity runs and
//! benchmarks.

use super::GameBot;
use crate::piece::Color;
use crate::variant::game::{draw_outcome, VariantEnd};
use crate::variant::game_state::{decode, VariantGameState};
use crate::variant::State;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// How one game went.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// The end by rule, or `None` when the ply cap stopped the game.
    pub end: Option<VariantEnd>,
    /// Plies played (set-up actions included).
    pub plies: usize,
}

impl GameResult {
    /// Red's score: 1 win, 0.5 draw or unfinished, 0 loss.
    pub fn red_score(&self) -> f64 {
        match self.end.and_then(|e| e.winner()) {
            Some(Color::Red) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        }
    }

    /// `1-0`, `0-1`, `1/2-1/2` or `*` (unfinished).
    pub fn result(&self) -> &'static str {
        self.end.map(|e| e.result()).unwrap_or("*")
    }
}

/// Plays `state` to the end between `red` and `black` (at most `max_plies` plies); chance
/// outcomes are drawn with their probabilities from a generator seeded with `chance_seed`.
pub fn play(state: State, red: &mut dyn GameBot<VariantGameState>, black: &mut dyn GameBot<VariantGameState>, chance_seed: u64, max_plies: usize) -> GameResult {
    let mut rng = Pcg64Mcg::seed_from_u64(chance_seed);
    let mut game = VariantGameState::unbounded(state);
    loop {
        if let Some(end) = game.outcome() {
            return GameResult { end: Some(end), plies: game.plies() as usize };
        }
        if game.plies() as usize >= max_plies {
            return GameResult { end: None, plies: game.plies() as usize };
        }
        let code = if game.state().turn() == Color::Red { red.choose(&game) } else { black.choose(&game) };
        let a = decode(code).expect("a bot plays a player action");
        game.play(a, |outs| draw_outcome(outs, &mut rng));
    }
}
