//! Leduc hold'em (Southey et al. 2005, "Bayes' Bluff: Opponent Modelling in Poker"), with the
//! rules, card numbering and action numbering of OpenSpiel's `leduc_poker` (two players).
//!
//! * Deck of 6 cards, numbered 0..=5; card `c` has rank `c / 2` (0 = J, 1 = Q, 2 = K) and suit
//!   `c % 2`. Chance deals the first player's card, then the second player's, each uniform over
//!   the cards left; after the first betting round it deals one public card the same way.
//! * Each player antes 1 chip. Two betting rounds; the first player acts first in both. Actions:
//!   [`Leduc::FOLD`] (only when facing a raise), [`Leduc::CALL`] (check or call) and
//!   [`Leduc::RAISE`] (bet or raise: 2 chips in round 1, 4 in round 2; at most 2 raises a round).
//!   A round ends on a call that is not its first action.
//! * A fold loses the chips the folder put in. At showdown a pair with the public card beats any
//!   unpaired card, otherwise the higher rank wins; equal hands split the pot.
//!
//! Returns lie in [-13, 13] chips.
//!
//! Observation ([`Observe`], [`encoding`]): one plane of one row of [`FEATURES`] cells, as
//! OpenSpiel's information-state tensor plus the deal progress: the observing seat (one-hot, 2),
//! its private card (one-hot over the 6 cards), the public card (one-hot, 6), cards dealt so far
//! (3 flags: at least one, two, three), then for each round one (fold, call, raise) triple per
//! betting action (4 triples a round, zeros after the last action). It is injective on the
//! player's information. Action index: the action number (fold 0, call 1, raise 2), no board
//! slots.

use rand::Rng;

use crate::game::{Action, ChanceMode, Game, GameInfo, Information, PlayerId, Turn, Utility};
use crate::observe::{Encoding, Observe, PolicyShape, TensorShape};

/// Number of cards in the deck.
const DECK: u8 = 6;
/// Rank names, indexed by `card / 2`.
const RANK_NAMES: [char; 3] = ['J', 'Q', 'K'];
/// Raise size in chips, by round.
const RAISE_SIZE: [u8; 2] = [2, 4];
/// Maximum number of raises in one round.
const MAX_RAISES: u8 = 2;
/// Marker for "no card seen" in information-set keys.
const NO_CARD: u64 = 7;

/// Betting actions a round holds at most (call, raise, raise, call).
const ROUND_ACTIONS: usize = 4;
/// Cells of the observation (2 seat + 6 private + 6 public + 3 dealt + 2 x 4 x 3 betting).
pub const FEATURES: usize = 2 + 2 * DECK as usize + 3 + 2 * ROUND_ACTIONS * 3;

/// Leduc hold'em's encoding (see the module documentation): game `"leduc"` v1, observation
/// 1 x 1 x [`FEATURES`], policy 0 board channels + 3 extra slots (fold, call, raise).
pub fn encoding() -> Encoding {
    Encoding {
        game: "leduc".to_string(),
        version: 1,
        observation: TensorShape { planes: 1, rows: 1, files: FEATURES },
        policy: PolicyShape { board_channels: 0, extra: 3 },
    }
}

/// A state of Leduc hold'em.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Leduc {
    /// Private cards of the first and second player; valid below `dealt`.
    private: [u8; 2],
    /// The public card; valid when `dealt == 3`.
    public: u8,
    /// Cards dealt so far: 0..=2 private cards, 3 once the public card is out.
    dealt: u8,
    /// Betting round, 0 or 1.
    round: u8,
    /// Chips each player has put in the pot, ante included.
    contrib: [u8; 2],
    /// Raises so far in the current round.
    raises: u8,
    /// Seat of the player to act (meaningful at player turns).
    to_act: u8,
    /// Set when a player folded.
    folded: Option<PlayerId>,
    /// Set when the second round closed with a call (showdown).
    showdown: bool,
    /// Number of betting actions in each round (at most 4: call, raise, raise, call).
    len: [u8; 2],
    /// Betting actions of each round, 2 bits per action (action number), first action lowest.
    history: [u8; 2],
}

impl Default for Leduc {
    fn default() -> Self {
        Self::new()
    }
}

impl Leduc {
    /// Fold (only legal when facing a raise).
    pub const FOLD: Action = Action(0);
    /// Call, or check when not facing a raise.
    pub const CALL: Action = Action(1);
    /// Bet or raise by the round's raise size.
    pub const RAISE: Action = Action(2);

    /// The initial state: antes posted, a chance node dealing the first player's card.
    pub fn new() -> Leduc {
        Leduc {
            private: [0; 2],
            public: 0,
            dealt: 0,
            round: 0,
            contrib: [1, 1],
            raises: 0,
            to_act: 0,
            folded: None,
            showdown: false,
            len: [0; 2],
            history: [0; 2],
        }
    }

    /// Whether chance deals next.
    fn chance_to_deal(&self) -> bool {
        self.dealt < 2 || (self.round == 1 && self.dealt < 3)
    }

    /// Whether `card` is already out.
    fn is_dealt(&self, card: u8) -> bool {
        (0..self.dealt.min(2) as usize).any(|i| self.private[i] == card)
            || (self.dealt == 3 && self.public == card)
    }

    /// The private card `player` holds, if dealt.
    fn private_of(&self, player: PlayerId) -> Option<u8> {
        (player.index() < self.dealt.min(2) as usize).then(|| self.private[player.index()])
    }

    /// The public card, if dealt.
    fn public_card(&self) -> Option<u8> {
        (self.dealt == 3).then_some(self.public)
    }

    /// Hand strength at showdown: pairs above all unpaired ranks.
    fn hand_strength(&self, player: PlayerId) -> u8 {
        let rank = self.private[player.index()] / 2;
        if rank == self.public / 2 {
            10 + rank
        } else {
            rank
        }
    }

    /// Return of the first player at a terminal state.
    fn first_player_return(&self) -> f64 {
        let [c0, c1] = self.contrib.map(f64::from);
        match self.folded {
            Some(PlayerId::FIRST) => -c0,
            Some(_) => c1,
            None => {
                let (s0, s1) = (
                    self.hand_strength(PlayerId::FIRST),
                    self.hand_strength(PlayerId::SECOND),
                );
                match s0.cmp(&s1) {
                    std::cmp::Ordering::Greater => c1,
                    std::cmp::Ordering::Less => -c0,
                    std::cmp::Ordering::Equal => 0.0,
                }
            }
        }
    }

    /// Betting of round `round` as a string of `f`, `c`, `r`.
    fn round_string(&self, round: usize) -> String {
        (0..self.len[round])
            .map(|i| match self.history[round] >> (2 * i) & 3 {
                0 => 'f',
                1 => 'c',
                _ => 'r',
            })
            .collect()
    }

    /// Name of a card, e.g. `Q1` (rank, suit).
    fn card_name(card: u8) -> String {
        format!("{}{}", RANK_NAMES[(card / 2) as usize], card % 2)
    }
}

impl Game for Leduc {
    fn info(&self) -> GameInfo {
        GameInfo {
            name: "leduc",
            num_players: 2,
            chance: ChanceMode::ExplicitStochastic,
            information: Information::Imperfect,
            utility: Utility::ZeroSum,
            min_utility: -13.0,
            max_utility: 13.0,
        }
    }

    fn turn(&self) -> Turn {
        if self.folded.is_some() || self.showdown {
            Turn::Terminal
        } else if self.chance_to_deal() {
            Turn::Chance
        } else {
            Turn::Player(PlayerId::new(self.to_act))
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        if let Turn::Player(p) = self.turn() {
            let me = p.index();
            if self.contrib[me] < self.contrib[1 - me] {
                out.push(Leduc::FOLD);
            }
            out.push(Leduc::CALL);
            if self.raises < MAX_RAISES {
                out.push(Leduc::RAISE);
            }
        }
    }

    fn chance_outcomes_into(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
        if self.turn() == Turn::Chance {
            let p = 1.0 / f64::from(DECK - self.dealt);
            out.extend(
                (0..DECK)
                    .filter(|&c| !self.is_dealt(c))
                    .map(|c| (Action(u32::from(c)), p)),
            );
        }
    }

    fn apply(&mut self, action: Action) {
        match self.turn() {
            Turn::Chance => {
                let card = u8::try_from(action.0)
                    .ok()
                    .filter(|&c| c < DECK && !self.is_dealt(c));
                let card = card.unwrap_or_else(|| {
                    panic!("Leduc: chance action {action} is not an undealt card")
                });
                if self.dealt < 2 {
                    self.private[self.dealt as usize] = card;
                } else {
                    self.public = card;
                }
                self.dealt += 1;
            }
            Turn::Player(p) => {
                let me = p.index();
                let round = self.round as usize;
                assert!(self.len[round] < 4, "Leduc: betting round {round} overflow");
                match action {
                    Leduc::FOLD => {
                        assert!(
                            self.contrib[me] < self.contrib[1 - me],
                            "Leduc: fold without a raise to face"
                        );
                        self.folded = Some(p);
                    }
                    Leduc::CALL => self.contrib[me] = self.contrib[1 - me],
                    Leduc::RAISE => {
                        assert!(
                            self.raises < MAX_RAISES,
                            "Leduc: more than {MAX_RAISES} raises"
                        );
                        self.contrib[me] = self.contrib[1 - me] + RAISE_SIZE[round];
                        self.raises += 1;
                    }
                    _ => panic!("Leduc: illegal action {action}"),
                }
                self.history[round] |= (action.0 as u8) << (2 * self.len[round]);
                self.len[round] += 1;
                self.to_act = 1 - self.to_act;
                if action == Leduc::CALL && self.len[round] >= 2 {
                    if round == 0 {
                        self.round = 1;
                        self.raises = 0;
                        self.to_act = 0;
                    } else {
                        self.showdown = true;
                    }
                }
            }
            Turn::Terminal => panic!("Leduc: action {action} after the end of the game"),
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
        // bits 0-2 own card, 3-5 public card (7 = none), 6-8 / 9-11 round lengths,
        // 12-19 / 20-27 round histories, 28-29 cards dealt (the player sees that a card was
        // dealt, not which). Injective on the player's information.
        let own = self.private_of(player).map_or(NO_CARD, u64::from);
        let public = self.public_card().map_or(NO_CARD, u64::from);
        own | public << 3
            | u64::from(self.dealt) << 28
            | u64::from(self.len[0]) << 6
            | u64::from(self.len[1]) << 9
            | u64::from(self.history[0]) << 12
            | u64::from(self.history[1]) << 20
    }

    fn infoset_string(&self, player: PlayerId) -> String {
        let own = self
            .private_of(player)
            .map_or_else(|| "?".to_owned(), Leduc::card_name);
        let public = self
            .public_card()
            .map_or_else(|| "?".to_owned(), Leduc::card_name);
        format!(
            "{player} card={own} dealt={} public={public} round1={} round2={}",
            self.dealt,
            self.round_string(0),
            self.round_string(1)
        )
    }

    fn sample_determinization<R: Rng + ?Sized>(&self, player: PlayerId, rng: &mut R) -> Self {
        let mut state = self.clone();
        let hidden = player.opponent().index();
        if hidden < self.dealt.min(2) as usize {
            // Uniform over the cards the player cannot see (chance deals without replacement).
            let own = self.private_of(player);
            let public = self.public_card();
            let candidates: Vec<u8> = (0..DECK)
                .filter(|&c| Some(c) != own && Some(c) != public)
                .collect();
            state.private[hidden] = candidates[rng.random_range(0..candidates.len())];
        }
        state
    }

    fn action_string(&self, action: Action) -> String {
        if self.turn() == Turn::Chance {
            return match u8::try_from(action.0) {
                Ok(card) if card < DECK => Leduc::card_name(card),
                _ => action.to_string(),
            };
        }
        match action {
            Leduc::FOLD => "fold".to_owned(),
            Leduc::CALL => "call".to_owned(),
            Leduc::RAISE => "raise".to_owned(),
            _ => action.to_string(),
        }
    }
}

impl Observe for Leduc {
    fn encoding(&self) -> Encoding {
        encoding()
    }

    /// # Panics
    /// When `out` is not [`FEATURES`] floats long.
    fn observe_into(&self, player: PlayerId, out: &mut [f32]) {
        assert_eq!(out.len(), FEATURES, "Leduc observation buffer");
        out.fill(0.0);
        out[player.index()] = 1.0;
        let deck = DECK as usize;
        if let Some(card) = self.private_of(player) {
            out[2 + card as usize] = 1.0;
        }
        if let Some(card) = self.public_card() {
            out[2 + deck + card as usize] = 1.0;
        }
        let dealt = 2 + 2 * deck;
        out[dealt..dealt + self.dealt as usize].fill(1.0);
        for round in 0..2 {
            let base = dealt + 3 + round * ROUND_ACTIONS * 3;
            for i in 0..self.len[round] as usize {
                let action = (self.history[round] >> (2 * i) & 3) as usize;
                out[base + 3 * i + action] = 1.0;
            }
        }
    }

    fn action_index(&self, action: Action) -> usize {
        action.0 as usize
    }

    fn index_action(&self, index: usize) -> Option<Action> {
        (index < 3).then_some(Action(index as u32))
    }
}
