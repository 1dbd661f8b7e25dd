//! What the three RULES-more.md game states share: their [`GameInfo`], the hash combiner of
//! their information-set keys, the colour of a seat, the return of a seat given the winner, and the repetition record
//! with the threefold test (RULES.md §X6 style, as RULES-more.md §1.8, §2.12 and §3.7 use it).

use crate::game::{ChanceMode, GameInfo, Information, PlayerId, Utility};
use crate::piece::Color;

/// The properties of a RULES-more.md game: two players, no chance, zero-sum win/draw/loss
/// utilities in [-1, 1]; imperfect information when `hidden` (a secret set-up or face).
pub fn game_info(name: &'static str, hidden: bool) -> GameInfo {
    GameInfo {
        name,
        num_players: 2,
        chance: ChanceMode::Deterministic,
        information: if hidden { Information::Imperfect } else { Information::Perfect },
        utility: Utility::ZeroSum,
        min_utility: -1.0,
        max_utility: 1.0,
    }
}

/// splitmix64-style combiner for path hashes.
#[inline]
pub fn mix(h: u64, x: u64) -> u64 {
    let mut z = h.rotate_left(23) ^ x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The colour in seat `p` (first = Red).
#[inline]
pub fn color_of(p: PlayerId) -> Color {
    if p == PlayerId::FIRST {
        Color::Red
    } else {
        Color::Black
    }
}

/// The seat of colour `c`.
#[inline]
pub fn player_of(c: Color) -> PlayerId {
    match c {
        Color::Red => PlayerId::FIRST,
        Color::Black => PlayerId::SECOND,
    }
}

/// +1 / -1 / 0 for `player` when `winner` won (or nobody did).
pub fn seat_return(winner: Option<Color>, player: PlayerId) -> f64 {
    match winner {
        None => 0.0,
        Some(w) if w == color_of(player) => 1.0,
        Some(_) => -1.0,
    }
}

/// `1-0`, `0-1` or `1/2-1/2` for a game `winner` won (or nobody did).
pub fn result_text(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::Red) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    }
}

/// One ply of the repetition record: the position hash after it, who played it, and whether it
/// was a forbidden-if-repeated move (a check, or under missile rules also a chase).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ply {
    /// Hash of the position after the ply.
    pub hash: u64,
    /// The side that played it.
    pub mover: Color,
    /// A check (or a banned chase) by the mover.
    pub forbidden: bool,
}

/// The position record of a game: the start hash and every ply since.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Record {
    /// Hash of the start position.
    pub start: u64,
    /// Plies played.
    pub plies: Vec<Ply>,
}

impl Record {
    /// A record starting at `start`.
    pub fn new(start: u64) -> Record {
        Record { start, plies: Vec::new() }
    }

    fn hash_at(&self, i: usize) -> u64 {
        if i == 0 {
            self.start
        } else {
            self.plies[i - 1].hash
        }
    }

    /// Counts occurrences of `h` among positions `lo..=hi` (position 0 is the start, position i
    /// follows ply i), newest first, stopping at `need`; returns the count and the index of the
    /// oldest occurrence counted.
    pub fn occurrences(&self, h: u64, lo: usize, hi: usize, need: usize) -> (usize, usize) {
        let mut count = 0;
        let mut first = hi + 1;
        for i in (lo..=hi).rev() {
            if self.hash_at(i) == h {
                count += 1;
                first = i;
                if count == need {
                    break;
                }
            }
        }
        (count, first)
    }

    /// Whether every move of `c` from ply `first` on was forbidden-if-repeated.
    pub fn all_forbidden(&self, first: usize, c: Color) -> bool {
        self.plies[first..].iter().filter(|p| p.mover == c).all(|p| p.forbidden)
    }

    /// The threefold test at the current position (only positions since the last irreversible
    /// ply, `halfmove` plies back, can repeat): `None` without a third occurrence, else
    /// `Some(loser)` where `loser` is the side whose every move of the cycle was forbidden
    /// (`None` inside: a plain draw, also when both sides' were).
    pub fn threefold(&self, halfmove: u16) -> Option<Option<Color>> {
        let n = self.plies.len();
        let h = self.plies.last()?.hash;
        let lo = n.saturating_sub(halfmove as usize);
        let (count, first) = self.occurrences(h, lo, n, 3);
        if count < 3 {
            return None;
        }
        Some(match (self.all_forbidden(first, Color::Red), self.all_forbidden(first, Color::Black)) {
            (true, false) => Some(Color::Red),
            (false, true) => Some(Color::Black),
            _ => None,
        })
    }
}
