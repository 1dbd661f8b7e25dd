//! Paired comparison of two players on the same hidden set-ups: how much more player A scores
//! than player B, where each played its own match (typically against the same opponent) on
//! the same deals. This is how a net is credited only with what it adds over a control (the
//! same bot with an untrained net, or a classical reference): both rows' tournaments use the
//! same seed, so every set-up is met by both, with the same colours, and the set-up's luck
//! cancels in the difference (experiments/train/hybrid.md).
//!
//! Games are matched by set-up (the `[SetUp]` FEN and `[ChanceSeed]` of
//! [`super::pgn::Record::setup`]), the player's colour and the opponent's name (a gauntlet
//! meets every opponent on the same set-ups, so a game against `greedy` never pairs with one
//! against `pimc`). An optional opponent filter keeps only the games against one opponent, so
//! one row of a gauntlet can be compared with a control that played only that opponent
//! without its other games counting as unmatched. The unit of the interval is the
//! set-up: its difference is the mean, over its matched games (both colours in a paired
//! tournament), of A's score minus B's; the 95 % interval is `1.96 sd / sqrt(n)` over the `n`
//! set-ups (normal approximation; at least 2 set-ups).

use super::pgn::Record;
use engine::Color;
use std::collections::BTreeMap;

/// Why two sets of games could not be compared.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CompareError {
    /// A player took part in none of the games of its side.
    #[error("player {player:?} plays in none of side {side}'s {games} games (players there: {found})")]
    NoGames {
        /// `A` or `B`.
        side: char,
        /// The name asked for.
        player: String,
        /// Games read on that side.
        games: usize,
        /// The player names found, comma-separated.
        found: String,
    },
    /// The opponent filter left none of a side's games with the player.
    #[error("player {player:?} meets {opponent:?} in none of side {side}'s games (its opponents there: {found})")]
    NoGamesAgainst {
        /// `A` or `B`.
        side: char,
        /// The player.
        player: String,
        /// The opponent asked for.
        opponent: String,
        /// The player's opponents found, comma-separated.
        found: String,
    },
    /// Fewer than two set-ups are met by both players with the same colour and opponent.
    #[error("only {0} set-up(s) played by both players with the same colour against the same opponent; a paired comparison needs 2 or more (were the tournaments run with the same seed and variant, and is the opponent named alike?)")]
    TooFewSetups(usize),
}

/// The comparison ([`compare`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Paired {
    /// Set-ups met by both players (the interval's `n`).
    pub setups: usize,
    /// Games matched (a game of A and one of B on the same set-up with the same colour).
    pub games: usize,
    /// A's mean score (0..1) over the matched games.
    pub score_a: f64,
    /// B's mean score over the matched games.
    pub score_b: f64,
    /// `score_a - score_b` (per set-up mean, averaged over set-ups).
    pub diff: f64,
    /// Half-width of the 95 % interval of `diff`.
    pub half_width: f64,
    /// Games of A's and B's that found no partner.
    pub unmatched: (usize, usize),
}

impl Paired {
    /// One line: `A 55.0 %  B 46.5 %  A - B +8.5 ± 7.2 points (95 %, 100 set-ups, 200 games paired)`.
    pub fn render(&self, a: &str, b: &str) -> String {
        let mut s = format!(
            "{a} {:.1} %  {b} {:.1} %  {a} - {b} {:+.1} ± {:.1} points (95 %, paired by set-up: {} set-ups, {} games)",
            100.0 * self.score_a,
            100.0 * self.score_b,
            100.0 * self.diff,
            100.0 * self.half_width,
            self.setups,
            self.games
        );
        if self.unmatched != (0, 0) {
            s.push_str(&format!("; unmatched games: {} of {a}, {} of {b}", self.unmatched.0, self.unmatched.1));
        }
        s
    }
}

/// The player's score (1, ½, 0), colour and opponent in `r`, or `None` when it did not play.
fn score_of<'r>(r: &'r Record, player: &str) -> Option<(Color, f64, &'r str)> {
    let (colour, opponent) = if r.red == player {
        (Color::Red, r.black.as_str())
    } else if r.black == player {
        (Color::Black, r.red.as_str())
    } else {
        return None;
    };
    let s = match r.outcome.winner {
        None => 0.5,
        Some(w) if w == colour => 1.0,
        Some(_) => 0.0,
    };
    Some((colour, s, opponent))
}

type SetupKey = (String, u64);

/// The player's scores by set-up, colour (`true`: Red) and opponent (a set-up played twice with
/// one colour against one opponent keeps each game, in order), only against `opponent` when
/// given.
fn scores(
    records: &[Record],
    player: &str,
    opponent: Option<&str>,
    side: char,
) -> Result<BTreeMap<(SetupKey, bool, String), Vec<f64>>, CompareError> {
    let mut out: BTreeMap<(SetupKey, bool, String), Vec<f64>> = BTreeMap::new();
    let mut met: Vec<&str> = Vec::new();
    for r in records {
        if let Some((c, s, opp)) = score_of(r, player) {
            met.push(opp);
            if opponent.is_none_or(|o| o == opp) {
                out.entry(((r.setup.fen.clone(), r.setup.seed), c == Color::Red, opp.to_owned())).or_default().push(s);
            }
        }
    }
    if met.is_empty() {
        let mut names: Vec<&str> = records.iter().flat_map(|r| [r.red.as_str(), r.black.as_str()]).collect();
        names.sort_unstable();
        names.dedup();
        return Err(CompareError::NoGames { side, player: player.to_owned(), games: records.len(), found: names.join(", ") });
    }
    if out.is_empty() {
        met.sort_unstable();
        met.dedup();
        return Err(CompareError::NoGamesAgainst {
            side,
            player: player.to_owned(),
            opponent: opponent.unwrap_or_default().to_owned(),
            found: met.join(", "),
        });
    }
    Ok(out)
}

/// Compares `player_a` in the games `a` with `player_b` in the games `b` (module docs), only
/// in their games against `opponent` when given (a name as written in the PGNs).
///
/// # Errors
/// A player in none of its side's games (or none against `opponent`), or fewer than two
/// set-ups in common.
pub fn compare(
    a: &[Record],
    player_a: &str,
    b: &[Record],
    player_b: &str,
    opponent: Option<&str>,
) -> Result<Paired, CompareError> {
    let sa = scores(a, player_a, opponent, 'A')?;
    let sb = scores(b, player_b, opponent, 'B')?;
    let mut by_setup: BTreeMap<SetupKey, Vec<(f64, f64)>> = BTreeMap::new();
    let (mut left_a, mut left_b) = (0, 0);
    for (key, xs) in &sa {
        let ys = sb.get(key).map_or(&[][..], Vec::as_slice);
        let n = xs.len().min(ys.len());
        left_a += xs.len() - n;
        by_setup.entry(key.0.clone()).or_default().extend(xs.iter().zip(ys).map(|(&x, &y)| (x, y)));
    }
    for (key, ys) in &sb {
        left_b += ys.len() - sa.get(key).map_or(0, |xs| xs.len().min(ys.len()));
    }
    by_setup.retain(|_, v| !v.is_empty());
    let n = by_setup.len();
    if n < 2 {
        return Err(CompareError::TooFewSetups(n));
    }
    let games: usize = by_setup.values().map(Vec::len).sum();
    let mean = |f: &dyn Fn(&(f64, f64)) -> f64| by_setup.values().flatten().map(f).sum::<f64>() / games as f64;
    let diffs: Vec<f64> = by_setup.values().map(|v| v.iter().map(|(x, y)| x - y).sum::<f64>() / v.len() as f64).collect();
    let d = diffs.iter().sum::<f64>() / n as f64;
    let var = diffs.iter().map(|x| (x - d).powi(2)).sum::<f64>() / (n - 1) as f64;
    Ok(Paired {
        setups: n,
        games,
        score_a: mean(&|p| p.0),
        score_b: mean(&|p| p.1),
        diff: d,
        half_width: 1.96 * (var / n as f64).sqrt(),
        unmatched: (left_a, left_b),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::game::{Outcome, Setup};
    use crate::tournament::pgn::GameKey;

    fn game(red: &str, black: &str, setup: u64, winner: Option<Color>) -> Record {
        Record {
            event: "t".into(),
            fingerprint: "f".into(),
            key: GameKey { pairing: 0, pair: 0, game: 0 },
            variant: "surprise".into(),
            red: red.into(),
            black: black.into(),
            setup: Setup { fen: format!("fen{setup}"), seed: setup, label: String::new() },
            moves: vec![],
            outcome: Outcome { winner, reason: "checkmate".into() },
            date: "2026.12.03".into(),
        }
    }

    /// A wins both colours of set-ups 1 and 2 and draws set-up 3's; B (the control) splits set-up
    /// 1, loses set-up 2 and wins set-up 3. Per set-up A - B: 0.5, 1, -0.5; mean 1/3, sd 0.764.
    #[test]
    fn paired_difference_by_setup_hand_computed() {
        let (r, b) = (Some(Color::Red), Some(Color::Black));
        let a = vec![
            game("net", "pimc", 1, r),
            game("pimc", "net", 1, b),
            game("net", "pimc", 2, r),
            game("pimc", "net", 2, b),
            game("net", "pimc", 3, None),
            game("pimc", "net", 3, None),
        ];
        let c = vec![
            game("ctl", "pimc", 1, r),
            game("pimc", "ctl", 1, r),
            game("ctl", "pimc", 2, b),
            game("pimc", "ctl", 2, r),
            game("ctl", "pimc", 3, r),
            game("pimc", "ctl", 3, b),
            game("ctl", "pimc", 9, r), // no partner
        ];
        let p = compare(&a, "net", &c, "ctl", None).expect("comparable");
        assert_eq!((p.setups, p.games, p.unmatched), (3, 6, (0, 1)));
        assert!((p.score_a - 5.0 / 6.0).abs() < 1e-12 && (p.score_b - 0.5).abs() < 1e-12, "{p:?}");
        assert!((p.diff - 1.0 / 3.0).abs() < 1e-12);
        let sd = ((1.0f64 / 6.0).powi(2) + (2.0f64 / 3.0).powi(2) + (5.0f64 / 6.0).powi(2)) / 2.0;
        assert!((p.half_width - 1.96 * (sd / 3.0).sqrt()).abs() < 1e-12, "{p:?}");
        assert!(p.render("net", "ctl").contains("net - ctl +33.3 ±"), "{}", p.render("net", "ctl"));
    }

    #[test]
    fn games_with_other_colours_or_set_ups_do_not_pair() {
        let a = vec![game("net", "pimc", 1, None), game("net", "pimc", 2, None)];
        let b = vec![game("pimc", "ctl", 1, None), game("ctl", "pimc", 3, None)];
        assert_eq!(compare(&a, "net", &b, "ctl", None), Err(CompareError::TooFewSetups(0)));
    }

    /// A gauntlet's games against `greedy` on the same set-ups do not pair with the control's
    /// games against `pimc`.
    #[test]
    fn games_against_another_opponent_do_not_pair() {
        let (r, b) = (Some(Color::Red), Some(Color::Black));
        let mut a = Vec::new();
        let mut c = Vec::new();
        for s in 1..=3 {
            a.extend([game("net", "greedy", s, r), game("greedy", "net", s, b)]);
            a.extend([game("net", "pimc", s, None), game("pimc", "net", s, None)]);
            c.extend([game("ctl", "pimc", s, b), game("pimc", "ctl", s, r)]);
        }
        let p = compare(&a, "net", &c, "ctl", None).expect("comparable");
        assert_eq!((p.setups, p.games, p.unmatched), (3, 6, (6, 0)));
        assert!((p.score_a - 0.5).abs() < 1e-12 && p.score_b.abs() < 1e-12, "{p:?}");
        let only_greedy: Vec<Record> = a.into_iter().filter(|g| g.red == "greedy" || g.black == "greedy").collect();
        assert_eq!(compare(&only_greedy, "net", &c, "ctl", None), Err(CompareError::TooFewSetups(0)));
    }

    /// With the opponent filter, a gauntlet's games against `greedy` are left out rather than
    /// counted unmatched; the pairs against `pimc` are the same as without it.
    #[test]
    fn opponent_filter_keeps_only_that_opponents_games() {
        let (r, b) = (Some(Color::Red), Some(Color::Black));
        let mut a = Vec::new();
        let mut c = Vec::new();
        for s in 1..=3 {
            a.extend([game("net", "greedy", s, r), game("greedy", "net", s, b)]);
            a.extend([game("net", "pimc", s, r), game("pimc", "net", s, None)]);
            c.extend([game("ctl", "pimc", s, b), game("pimc", "ctl", s, r)]);
        }
        let p = compare(&a, "net", &c, "ctl", Some("pimc")).expect("comparable");
        assert_eq!((p.setups, p.games, p.unmatched), (3, 6, (0, 0)));
        assert!((p.score_a - 0.75).abs() < 1e-12 && p.score_b.abs() < 1e-12, "{p:?}");
        let e = compare(&a, "net", &c, "ctl", Some("ismcts")).unwrap_err();
        assert_eq!(
            e,
            CompareError::NoGamesAgainst { side: 'A', player: "net".into(), opponent: "ismcts".into(), found: "greedy, pimc".into() }
        );
    }

    #[test]
    fn a_player_missing_from_its_games_is_named() {
        let a = vec![game("net", "pimc", 1, None)];
        let e = compare(&a, "nett", &a, "net", None).unwrap_err();
        assert_eq!(e, CompareError::NoGames { side: 'A', player: "nett".into(), games: 1, found: "net, pimc".into() });
        assert!(e.to_string().contains("\"nett\""));
    }
}
