//! The one game interface that search and solvers see.
//!
//! The vocabulary is OpenSpiel's (Lanctot et al. 2019, "OpenSpiel: A Framework for Reinforcement
//! Learning in Games", arXiv:1908.09453), written as Rust types:
//!
//! * a value implementing [`Game`] is one *state* (a history) of the game; the initial state is
//!   built by each game's own constructor, and the rest of the tree is reached with
//!   [`Game::apply`] / [`Game::child`];
//! * whose turn it is is a [`Turn`] (a player, chance, or the end), never an integer sentinel;
//! * actions are compact [`Action`] numbers whose meaning is the game's (see
//!   [`Game::action_string`]);
//! * chance nodes list their outcomes with exact probabilities;
//! * each player's *information state* (everything that player has seen, with perfect recall) is
//!   named by a 64-bit key and a human-readable string;
//! * a determinization hook resamples the hidden part of the state consistently with one player's
//!   information, for determinization-based search (IS-MCTS, PIMC);
//! * the game's properties (chance, information, utility, players) are data, [`GameInfo`].
//!
//! The solvers in [`crate::solve`] (CFR, Zinkevich et al. 2007; CFR+, Tammelin 2014; discounted
//! CFR, Brown & Sandholm 2019; Monte Carlo CFR, Lanctot et al. 2009) and the test games in
//! [`crate::games`] (Kuhn poker, Leduc hold'em) are written against this trait only.

use std::fmt;

use rand::Rng;

/// One of `outcomes` drawn by its weight with `rng`, by inverse-CDF sampling: one
/// `rng.random::<f64>()` draw `x` in [0, 1) (also when `outcomes` is empty), then the first
/// outcome at which the running sum of the weights, added in list order, exceeds `x`; the last
/// outcome when rounding leaves the whole sum at or below `x`. The weights are probabilities
/// summing to 1, as [`Game::chance_outcomes`] lists them.
///
/// This is the one draw of a chance outcome by its probability (the default chance of seeded
/// games, [`crate::seeded::DrawnChance`]; the variants' [`crate::variant::game::draw_outcome`];
/// the farm's searches): records and pinned searches depend on its exact use of `rng` and its
/// float comparisons, so neither may change.
///
/// `None` only when `outcomes` is empty.
pub fn draw_weighted<T: Copy, R: Rng + ?Sized>(outcomes: &[(T, f64)], rng: &mut R) -> Option<T> {
    let x: f64 = rng.random();
    let mut acc = 0.0;
    for &(o, p) in outcomes {
        acc += p;
        if x < acc {
            return Some(o);
        }
    }
    outcomes.last().map(|&(o, _)| o)
}

/// A seat at the table, numbered from 0 in turn order.
///
/// Two-player games use [`PlayerId::FIRST`] and [`PlayerId::SECOND`]. A player is never encoded
/// as a negative or out-of-range integer: chance and the end of the game are [`Turn`] variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(u8);

impl PlayerId {
    /// The first player to act (OpenSpiel player 0).
    pub const FIRST: PlayerId = PlayerId(0);
    /// The second player (OpenSpiel player 1).
    pub const SECOND: PlayerId = PlayerId(1);
    /// Both players of a two-player game, in seat order.
    pub const BOTH: [PlayerId; 2] = [PlayerId::FIRST, PlayerId::SECOND];

    /// The player in seat `index` (0-based).
    pub const fn new(index: u8) -> PlayerId {
        PlayerId(index)
    }

    /// The seat number, 0-based, usable as an array index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The other player of a two-player game.
    pub const fn opponent(self) -> PlayerId {
        PlayerId(1 - self.0)
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p{}", self.0)
    }
}

/// Who moves next in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// A player chooses one of [`Game::legal_actions`].
    Player(PlayerId),
    /// Nature draws one of [`Game::chance_outcomes`] with its listed probability.
    Chance,
    /// The game is over; [`Game::returns`] holds the final utilities.
    Terminal,
}

impl Turn {
    /// The acting player, if a player acts.
    pub const fn player(self) -> Option<PlayerId> {
        match self {
            Turn::Player(p) => Some(p),
            Turn::Chance | Turn::Terminal => None,
        }
    }

    /// Whether the game is over.
    pub const fn is_terminal(self) -> bool {
        matches!(self, Turn::Terminal)
    }

    /// Whether nature moves.
    pub const fn is_chance(self) -> bool {
        matches!(self, Turn::Chance)
    }
}

/// One action, player or chance, as a small number whose meaning belongs to the game
/// (OpenSpiel's `Action`). For example Kuhn poker uses 0 = pass, 1 = bet, and its chance actions
/// are card numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Action(pub u32);

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// How chance enters the game (OpenSpiel `GameType::ChanceMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChanceMode {
    /// No chance nodes.
    Deterministic,
    /// Chance nodes list every outcome with its exact probability.
    ExplicitStochastic,
    /// Chance nodes can only be sampled (outcome lists are not available).
    SampledStochastic,
}

/// Whether players see the whole state (OpenSpiel `GameType::Information`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Information {
    /// Every player sees the full state.
    Perfect,
    /// Some of the state is hidden from some player.
    Imperfect,
}

/// How the players' utilities relate (OpenSpiel `GameType::Utility`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Utility {
    /// Returns sum to zero at every terminal state.
    ZeroSum,
    /// Returns sum to the same constant at every terminal state.
    ConstantSum,
    /// No constraint.
    GeneralSum,
}

/// A game's properties, as data (OpenSpiel's `GameType` plus the utility bounds of `Game`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameInfo {
    /// Short name, e.g. `"kuhn"`, `"leduc"`.
    pub name: &'static str,
    /// Number of players (chance is not a player). The solvers require 2.
    pub num_players: usize,
    /// How chance enters the game.
    pub chance: ChanceMode,
    /// Perfect or imperfect information.
    pub information: Information,
    /// Relation between the players' returns.
    pub utility: Utility,
    /// Smallest return any player can get at a terminal state (in the game's units, e.g. chips).
    pub min_utility: f64,
    /// Largest return any player can get at a terminal state.
    pub max_utility: f64,
}

/// A state of a game with chance and hidden information, as search and solvers see it.
///
/// Requirements every implementation must meet (checked for the test games by the generic
/// battery in `tests/solvers.rs`):
///
/// * [`legal_actions_into`](Game::legal_actions_into) is non-empty exactly at player turns, and
///   is the same list, in the same order, at all states in one information set;
/// * [`chance_outcomes_into`](Game::chance_outcomes_into) is non-empty exactly at chance turns,
///   has distinct actions and strictly positive probabilities summing to 1;
/// * [`infoset_key`](Game::infoset_key) and [`infoset_string`](Game::infoset_string) are equal
///   for two states exactly when the player's information (with perfect recall: their own
///   private observations and every action they saw, in order) is equal. Keys only need to be
///   distinct among one player's information sets; solvers keep one table per player;
/// * for [`Utility::ZeroSum`] games the [`returns`](Game::returns) of all players sum to zero.
pub trait Game: Clone + fmt::Debug {
    /// The game's properties.
    fn info(&self) -> GameInfo;

    /// Who moves next.
    fn turn(&self) -> Turn;

    /// Clears `out` and fills it with the acting player's legal actions, in a fixed order
    /// (solvers index strategies by position in this list). Empty at chance and terminal states.
    fn legal_actions_into(&self, out: &mut Vec<Action>);

    /// Clears `out` and fills it with the chance outcomes and their probabilities (each in
    /// (0, 1], summing to 1). Empty unless [`turn`](Game::turn) is [`Turn::Chance`].
    fn chance_outcomes_into(&self, out: &mut Vec<(Action, f64)>);

    /// Plays `action` (a legal action or chance outcome of this state) in place.
    ///
    /// # Panics
    /// May panic if `action` is not legal here; callers take actions from the lists above.
    fn apply(&mut self, action: Action);

    /// Return of `player` at this state: the final utility at a terminal state, in the game's
    /// units (chips for poker); the utility accrued so far elsewhere (0 for games that pay only
    /// at the end).
    fn returns(&self, player: PlayerId) -> f64;

    /// 64-bit key of `player`'s information state here (perfect recall). Equal keys mean equal
    /// information for that player; see the trait documentation.
    fn infoset_key(&self, player: PlayerId) -> u64;

    /// Human-readable form of `player`'s information state; equal exactly when the keys are.
    fn infoset_string(&self, player: PlayerId) -> String;

    /// A full state drawn from the states `player` cannot tell apart from this one, weighted by
    /// chance probability only (opponents' strategies are not modelled), as OpenSpiel's
    /// `ResampleFromInfostate`. The result has the same `infoset_key(player)` as `self`.
    fn sample_determinization<R: Rng + ?Sized>(&self, player: PlayerId, rng: &mut R) -> Self;

    /// Human-readable name of `action` at this state (a player action or a chance outcome).
    fn action_string(&self, action: Action) -> String {
        action.to_string()
    }

    /// The legal actions as a new vector; see [`legal_actions_into`](Game::legal_actions_into).
    fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(&mut out);
        out
    }

    /// The chance outcomes as a new vector; see
    /// [`chance_outcomes_into`](Game::chance_outcomes_into).
    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        let mut out = Vec::new();
        self.chance_outcomes_into(&mut out);
        out
    }

    /// The state after `action`, leaving `self` unchanged.
    fn child(&self, action: Action) -> Self {
        let mut next = self.clone();
        next.apply(action);
        next
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.turn().is_terminal()
    }
}

#[cfg(test)]
mod tests {
    use super::draw_weighted;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    /// The records of seeded games depend on this: one `random::<f64>()` per call (also for an
    /// empty list), then the first outcome whose running sum exceeds it, the last absorbing
    /// rounding.
    #[test]
    fn draw_weighted_takes_one_draw_and_the_first_running_sum_above_it() {
        let outs = [('a', 0.25), ('b', 0.5), ('c', 0.25)];
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let mut seen = [0usize; 3];
        for _ in 0..200 {
            let mut twin = rng.clone();
            let x: f64 = twin.random();
            let want = if x < 0.25 { 'a' } else if x < 0.25 + 0.5 { 'b' } else { 'c' };
            let got = draw_weighted(&outs, &mut rng).expect("outcomes");
            assert_eq!(got, want, "x = {x}");
            seen[usize::from(got as u8 - b'a')] += 1;
            // Exactly one draw: both generators are at the same point again.
            assert_eq!(rng.random::<u64>(), twin.random::<u64>());
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
        // Weights that sum below every draw: the last outcome absorbs the remainder.
        assert_eq!(draw_weighted(&[(1, 0.0), (2, 0.0)], &mut rng), Some(2));
        // An empty list: `None`, after its one draw.
        let mut twin = rng.clone();
        let _: f64 = twin.random();
        assert_eq!(draw_weighted::<u8, _>(&[], &mut rng), None);
        assert_eq!(rng.random::<u64>(), twin.random::<u64>());
    }
}
