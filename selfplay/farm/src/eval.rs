//! Evaluation matches on the farm: a net's search against `random`, a classical bot
//! (`greedy`, `ismcts` at the net's own time per move) or another net with the same search,
//! colours alternating, no root noise, a few opening plies at temperature 1 so that games differ.

use super::search::SearchConfig;
use engine::any_game::AnyGame;
use super::{game_seed, play_spec, GameConfig, GameJob, GameResult, Player};
use engine::Color;
use models::net::Net;
use serde::{Deserialize, Serialize};

/// A match's result from the first player's side.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    /// Opponent's name.
    pub opponent: String,
    /// Games played.
    pub games: u32,
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
    /// Games ended by adjudication at the ply limit.
    pub adjudicated: u32,
    /// Mean game length in plies.
    pub mean_plies: f64,
    /// Games by result and reason from the first player's side, e.g. `won checkmate: 40`.
    pub reasons: std::collections::BTreeMap<String, u32>,
    /// Seconds.
    pub seconds: f64,
    /// Milliseconds of net and search work per move of the first player (the farm's net and
    /// search time over its moves; the batched cost of a move when several games share the net).
    #[serde(default)]
    pub ms_per_move: f64,
}

/// The other side of an evaluation match.
#[derive(Clone, Copy)]
pub enum Opponent<'a> {
    /// Uniformly random legal actions.
    Random,
    /// A classical bot spec (`engine::search::from_spec`).
    Bot(&'a str),
    /// Another net with the same search.
    Net(&'a Net),
}

impl MatchResult {
    /// Share of games won.
    pub fn win_rate(&self) -> f64 {
        f64::from(self.wins) / f64::from(self.games.max(1))
    }
    /// Score: (wins + draws / 2) / games.
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games.max(1))
    }
    /// One line: `12 won, 3 drawn, 1 lost of 16 (won 75.0%, score 84.4%; …)`.
    pub fn summary(&self) -> String {
        let reasons: Vec<String> = self.reasons.iter().map(|(k, v)| format!("{k} {v}")).collect();
        format!(
            "{} won, {} drawn, {} lost of {} (won {:.1}%, score {:.1}%; {}; {} adjudicated, {:.0} plies/game, {:.0}s)",
            self.wins,
            self.draws,
            self.losses,
            self.games,
            100.0 * self.win_rate(),
            100.0 * self.score(),
            reasons.join(", "),
            self.adjudicated,
            self.mean_plies,
            self.seconds
        )
    }
}

/// Plays `games` games of `net` (with `search`) against `opponent`, alternating colours;
/// `on_game` sees each finished game.
#[allow(clippy::too_many_arguments)]
pub fn play_match(
    game: &AnyGame,
    net: &Net,
    opponent: Opponent<'_>,
    opponent_name: &str,
    games: u32,
    search: &SearchConfig,
    game_cfg: &GameConfig,
    temperature_plies: u32,
    seed: u64,
    mut on_game: impl FnMut(&GameResult),
) -> Result<MatchResult, engine::more::MoreError> {
    let start = std::time::Instant::now();
    let me = Player::Net { net: 0, search: search.clone() };
    let them = match opponent {
        Opponent::Net(_) => Player::Net { net: 1, search: search.clone() },
        Opponent::Random => Player::Random,
        Opponent::Bot(spec) => Player::Bot(spec.to_string()),
    };
    let jobs: Vec<GameJob> = (0..u64::from(games))
        .map(|g| {
            let (red, black) = if g % 2 == 0 { (me.clone(), them.clone()) } else { (them.clone(), me.clone()) };
            GameJob {
                id: g,
                seed: game_seed(&[seed, 0xE7A1, g]),
                red,
                black,
                record: false,
                noise: false,
                temperature: 1.0,
                temperature_plies,
            }
        })
        .collect();
    let mut nets: Vec<&Net> = vec![net];
    if let Opponent::Net(o) = opponent {
        nets.push(o);
    }
    let (results, stats) = play_spec(game, &nets, jobs, game_cfg, &mut on_game)?;
    let mut m = MatchResult { opponent: opponent_name.into(), games, ..Default::default() };
    let mut plies = 0u64;
    for r in &results {
        let my_color = if r.id % 2 == 0 { Color::Red } else { Color::Black };
        let result = match r.winner {
            Some(w) if w == my_color => {
                m.wins += 1;
                "won"
            }
            Some(_) => {
                m.losses += 1;
                "lost"
            }
            None => {
                m.draws += 1;
                "drawn"
            }
        };
        *m.reasons.entry(format!("{result} {}", r.reason)).or_default() += 1;
        if r.adjudicated {
            m.adjudicated += 1;
        }
        plies += u64::from(r.plies);
    }
    m.mean_plies = plies as f64 / f64::from(games.max(1));
    // The net moves on about half the plies; against another net both share the counters.
    let net_moves = if matches!(opponent, Opponent::Net(_)) { plies as f64 } else { plies as f64 / 2.0 };
    m.ms_per_move = 1000.0 * (stats.net_seconds + stats.search_seconds) / net_moves.max(1.0);
    m.seconds = start.elapsed().as_secs_f64();
    Ok(m)
}
