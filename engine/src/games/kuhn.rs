//! Kuhn poker (H. W. Kuhn, "A simplified two-person poker", 1950), with OpenSpiel's `kuhn_poker`
//! rules and action numbering.
//!
//! Three cards J < Q < K; each player antes 1 chip and is dealt one card (chance actions 0, 1, 2
//! = J, Q, K; the first player's card is dealt first). One betting round with actions
//! [`Kuhn::PASS`] (check or fold) and [`Kuhn::BET`] (bet or call), bet size 1:
//!
//! | history | result                              |
//! |---------|-------------------------------------|
//! | pp      | showdown for 1                      |
//! | bp      | second player folds: first wins 1   |
//! | bb      | showdown for 2                      |
//! | pbp     | first player folds: second wins 1   |
//! | pbb     | showdown for 2                      |
//!
//! The first player's value at equilibrium is -1/18.
//!
//! Observation ([`Observe`], [`encoding`]): one plane of one row of [`FEATURES`] cells, as
//! OpenSpiel's information-state tensor plus the deal progress: the observing seat (one-hot, 2),
//! its card (one-hot J, Q, K, 3; zeros before it is dealt), cards dealt so far (2 flags: at least
//! one, two), then one (pass, bet) pair per betting action (3 pairs, zeros after the last
//! action). It is injective on the player's information. Action index: the action number (pass
//! 0, bet 1), no board slots.

use rand::Rng;

use crate::game::{Action, ChanceMode, Game, GameInfo, Information, PlayerId, Turn, Utility};
use crate::observe::{Encoding, Observe, PolicyShape, TensorShape};

/// Number of cards in the deck.
const DECK: u8 = 3;
/// Card names, indexed by card number.
const CARD_NAMES: [char; 3] = ['J', 'Q', 'K'];
/// Marker for "no card seen yet" in information-set keys.
const NO_CARD: u64 = 3;

/// Cells of the observation (2 seat + 3 card + 2 dealt + 3 x 2 betting).
pub const FEATURES: usize = 2 + DECK as usize + 2 + 3 * 2;

/// Kuhn poker's encoding (see the module documentation): game `"kuhn"` v1, observation 1 x 1 x
/// [`FEATURES`], policy 0 board channels + 2 extra slots (pass, bet).
pub fn encoding() -> Encoding {
    Encoding {
        game: "kuhn".to_string(),
        version: 1,
        observation: TensorShape { planes: 1, rows: 1, files: FEATURES },
        policy: PolicyShape { board_channels: 0, extra: 2 },
    }
}

/// A state of Kuhn poker.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Kuhn {
    /// Cards of the first and second player (0 = J, 1 = Q, 2 = K); valid below `dealt`.
    cards: [u8; 2],
    /// Number of cards dealt so far (0..=2).
    dealt: u8,
    /// Number of betting actions taken (0..=3).
    bets: u8,
    /// Bit `i` set when betting action `i` was [`Kuhn::BET`].
    history: u8,
}

impl Default for Kuhn {
    fn default() -> Self {
        Self::new()
    }
}

impl Kuhn {
    /// Pass: check, or fold when facing a bet.
    pub const PASS: Action = Action(0);
    /// Bet: bet 1 chip, or call a bet.
    pub const BET: Action = Action(1);

    /// The initial state (a chance node dealing the first player's card).
    pub fn new() -> Kuhn {
        Kuhn {
            cards: [0; 2],
            dealt: 0,
            bets: 0,
            history: 0,
        }
    }

    /// Whether betting is over (only meaningful once both cards are dealt).
    fn betting_over(&self) -> bool {
        // After two actions the round is over unless it went pass-bet (history 0b10).
        self.bets == 3 || (self.bets == 2 && self.history != 0b10)
    }

    /// Return of the first player at a terminal state.
    fn first_player_return(&self) -> f64 {
        let showdown = if self.cards[0] > self.cards[1] {
            1.0
        } else {
            -1.0
        };
        match (self.bets, self.history) {
            (2, 0b00) => showdown,        // pp
            (2, 0b01) => 1.0,             // bp: second player folds
            (2, 0b11) => 2.0 * showdown,  // bb
            (3, 0b010) => -1.0,           // pbp: first player folds
            (3, 0b110) => 2.0 * showdown, // pbb
            _ => 0.0,
        }
    }

    /// The card `player` holds, if dealt.
    fn card_of(&self, player: PlayerId) -> Option<u8> {
        (player.index() < self.dealt as usize).then(|| self.cards[player.index()])
    }

    /// Betting history as a string of `p` and `b`.
    fn history_string(&self) -> String {
        (0..self.bets)
            .map(|i| if self.history >> i & 1 == 1 { 'b' } else { 'p' })
            .collect()
    }
}

impl Game for Kuhn {
    fn info(&self) -> GameInfo {
        GameInfo {
            name: "kuhn",
            num_players: 2,
            chance: ChanceMode::ExplicitStochastic,
            information: Information::Imperfect,
            utility: Utility::ZeroSum,
            min_utility: -2.0,
            max_utility: 2.0,
        }
    }

    fn turn(&self) -> Turn {
        if self.dealt < 2 {
            Turn::Chance
        } else if self.betting_over() {
            Turn::Terminal
        } else {
            Turn::Player(PlayerId::new(self.bets % 2))
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        if matches!(self.turn(), Turn::Player(_)) {
            out.extend([Kuhn::PASS, Kuhn::BET]);
        }
    }

    fn chance_outcomes_into(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
        if self.dealt < 2 {
            let remaining = DECK - self.dealt;
            let p = 1.0 / f64::from(remaining);
            for card in 0..DECK {
                if self.dealt == 0 || self.cards[0] != card {
                    out.push((Action(u32::from(card)), p));
                }
            }
        }
    }

    fn apply(&mut self, action: Action) {
        if self.dealt < 2 {
            let card = u8::try_from(action.0).ok().filter(|&c| c < DECK);
            let card = card.unwrap_or_else(|| panic!("Kuhn: chance action {action} is not a card"));
            assert!(
                self.dealt == 0 || self.cards[0] != card,
                "Kuhn: card {card} already dealt"
            );
            self.cards[self.dealt as usize] = card;
            self.dealt += 1;
        } else {
            assert!(
                !self.betting_over(),
                "Kuhn: action {action} after the end of the game"
            );
            match action {
                Kuhn::PASS => {}
                Kuhn::BET => self.history |= 1 << self.bets,
                _ => panic!("Kuhn: illegal action {action}"),
            }
            self.bets += 1;
        }
    }

    fn returns(&self, player: PlayerId) -> f64 {
        if self.turn() != Turn::Terminal {
            return 0.0;
        }
        let r = self.first_player_return();
        if player == PlayerId::FIRST {
            r
        } else {
            -r
        }
    }

    fn infoset_key(&self, player: PlayerId) -> u64 {
        // bits 0-1: own card (3 = not dealt); bits 2-3: cards dealt (the player sees that a
        // card was dealt, not which); bits 4-5: number of bets; bits 6-8: bet history.
        let card = self.card_of(player).map_or(NO_CARD, u64::from);
        card | u64::from(self.dealt) << 2 | u64::from(self.bets) << 4 | u64::from(self.history) << 6
    }

    fn infoset_string(&self, player: PlayerId) -> String {
        let card = self.card_of(player).map_or('?', |c| CARD_NAMES[c as usize]);
        format!(
            "{player} card={card} dealt={} bets={}",
            self.dealt,
            self.history_string()
        )
    }

    fn sample_determinization<R: Rng + ?Sized>(&self, player: PlayerId, rng: &mut R) -> Self {
        let mut state = self.clone();
        let hidden = player.opponent().index();
        if hidden < self.dealt as usize {
            // The hidden card is uniform over the cards the player cannot see.
            let own = self.card_of(player);
            let candidates: Vec<u8> = (0..DECK).filter(|&c| Some(c) != own).collect();
            state.cards[hidden] = candidates[rng.random_range(0..candidates.len())];
        }
        state
    }

    fn action_string(&self, action: Action) -> String {
        if self.dealt < 2 {
            CARD_NAMES
                .get(action.0 as usize)
                .map_or_else(|| action.to_string(), char::to_string)
        } else {
            match action {
                Kuhn::PASS => "pass".to_owned(),
                Kuhn::BET => "bet".to_owned(),
                _ => action.to_string(),
            }
        }
    }
}

impl Observe for Kuhn {
    fn encoding(&self) -> Encoding {
        encoding()
    }

    /// # Panics
    /// When `out` is not [`FEATURES`] floats long.
    fn observe_into(&self, player: PlayerId, out: &mut [f32]) {
        assert_eq!(out.len(), FEATURES, "Kuhn observation buffer");
        out.fill(0.0);
        out[player.index()] = 1.0;
        if let Some(card) = self.card_of(player) {
            out[2 + card as usize] = 1.0;
        }
        let dealt = 2 + DECK as usize;
        out[dealt..dealt + self.dealt as usize].fill(1.0);
        for i in 0..self.bets as usize {
            out[dealt + 2 + 2 * i + (self.history >> i & 1) as usize] = 1.0;
        }
    }

    fn action_index(&self, action: Action) -> usize {
        action.0 as usize
    }

    fn index_action(&self, index: usize) -> Option<Action> {
        (index < 2).then_some(Action(index as u32))
    }
}
