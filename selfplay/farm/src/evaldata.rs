//! Training positions for the learned evaluation (issue #36 item 2, `engine::nnue`): games of a
//! variant in which every move after a few random opening plies is chosen by the honest
//! alpha-beta ([`AlphaBetaBot::view_search`]: the core position, the public record and the
//! face-down pieces valued as the mover's view values them, never the hidden identities), each
//! searched position labelled with that search's score for the mover and, after the game, the
//! game's result for the mover ([`EvalSample`]).
//!
//! Games are played on the contract's state of the variants ([`VariantGameState`]: the
//! variant's own end rules, repetition included, chance drawn as the game's state draws it, set-up decisions — Surprise
//! layouts §S2, owner's-choice Fan-qi §F3 — uniformly at random as the search bots make them);
//! at `max_plies` a game is adjudicated by material as the farm adjudicates its games.
//!
//! Samples are filtered as Stockfish's data filters do: no mate scores (`|score| >= 20000`), no
//! position in check, no position whose chosen move captures (the score of a tactical position
//! is not its static value).
//!
//! Shards ([`models::evalshard`]) hold `games_per_shard` games each, played in parallel (rayon)
//! and seeded by (run seed, game number), so a node-limited run is reproducible and a killed run
//! resumes at its first missing shard and writes the same data it would have written.

use engine::variant::game::draw_outcome;
use engine::variant::game_state::VariantGameState;
use engine::search::alphabeta::{AlphaBetaBot, Limits};
use engine::variant::state::Answer;
use engine::repetition::RecordPly;
use engine::variant::{Action, State, Variant};
use engine::Color;
use models::evalshard::{self, EvalSample, EvalShardHeader};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;

/// Scores at or beyond this magnitude (centipawns) are mate scores and make no sample.
pub const MATE_FILTER_CP: i32 = 20_000;

/// `[evaldata]`: how the positions are made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataConfig {
    /// Games in all (the run stops when this many are in complete shards).
    pub games: u64,
    /// Games per shard (the unit of resumption).
    #[serde(default = "default_games_per_shard")]
    pub games_per_shard: u32,
    /// Uniformly random legal opening plies (board moves and flips) before the search plays.
    #[serde(default = "default_random_plies")]
    pub random_plies: u32,
    /// Plies after which a game is adjudicated.
    #[serde(default = "default_max_plies")]
    pub max_plies: u32,
    /// Material lead (soldier units, the farm's rule) that wins an adjudicated game; 0: every
    /// adjudicated game is a draw.
    #[serde(default = "default_adjudicate")]
    pub adjudicate_material: f32,
    /// Node limit of each search (at least one of `nodes` and `depth`).
    #[serde(default)]
    pub nodes: Option<u64>,
    /// Depth limit of each search, plies.
    #[serde(default)]
    pub depth: Option<u32>,
    /// The searcher's evaluation: a learned network (`zoo:NAME` or a file path, as
    /// `alphabeta:eval=` takes it) for later rounds of data; none: the hand-written evaluation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval: Option<String>,
    /// Transposition table of each search, MiB.
    #[serde(default = "default_hash")]
    pub hash_mb: usize,
    /// Wall-clock budget of the generation in minutes (0: none): no shard starts after it.
    #[serde(default)]
    pub max_minutes: f64,
}

fn default_games_per_shard() -> u32 {
    20
}
fn default_random_plies() -> u32 {
    8
}
fn default_max_plies() -> u32 {
    300
}
fn default_adjudicate() -> f32 {
    3.0
}
fn default_hash() -> usize {
    16
}

impl DataConfig {
    /// Checks values that types cannot; the message names the key (under `section`).
    ///
    /// # Errors
    /// A message naming the bad key.
    pub fn validate(&self, section: &str) -> Result<(), String> {
        if self.games_per_shard == 0 {
            return Err(format!("key `{section}.games_per_shard` must be positive"));
        }
        if self.max_plies == 0 {
            return Err(format!("key `{section}.max_plies` must be positive"));
        }
        if self.nodes.is_none() && self.depth.is_none() {
            return Err(format!("`{section}` needs a search limit: key `{section}.nodes` or `{section}.depth`"));
        }
        if self.nodes == Some(0) || self.depth == Some(0) {
            return Err(format!("keys `{section}.nodes` and `{section}.depth` must be positive"));
        }
        if !(self.max_minutes >= 0.0 && self.max_minutes.is_finite()) {
            return Err(format!("key `{section}.max_minutes` must be a non-negative number"));
        }
        if self.hash_mb == 0 {
            return Err(format!("key `{section}.hash_mb` must be positive"));
        }
        self.limits().map_err(|e| format!("key `{section}.eval`: {e}"))?;
        Ok(())
    }

    /// The search limits of every decision, with the learned evaluation of `eval` loaded.
    ///
    /// # Errors
    /// The network of `eval` does not load.
    pub fn limits(&self) -> Result<Limits, engine::nnue::NnueError> {
        let eval = self.eval.as_deref().map(engine::nnue::load).transpose()?;
        Ok(Limits { depth: self.depth, nodes: self.nodes, eval, ..Limits::default() })
    }

    /// The searcher's name as shard headers record it.
    pub fn searcher(&self) -> String {
        // The name without loading the network (`limits_name` would print its `eval=` too);
        // `family_eval` only keeps it from writing `eval=none` before the network's own `eval=`.
        let family_eval = self.eval.is_some();
        let mut name = engine::search::alphabeta::limits_name(&Limits { depth: self.depth, nodes: self.nodes, family_eval, ..Limits::default() });
        if let Some(e) = &self.eval {
            name = format!("{name},eval={e}");
        }
        format!("{name} (view_search), random_plies={}", self.random_plies)
    }

    /// Shards of the whole run.
    pub fn shards(&self) -> u64 {
        self.games.div_ceil(u64::from(self.games_per_shard))
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameData {
    /// Its samples, in play order.
    pub samples: Vec<EvalSample>,
    /// Plies played (set-up not counted).
    pub plies: u32,
    /// The winner (`None`: drawn, or adjudicated drawn).
    pub winner: Option<Color>,
    /// Decisions searched.
    pub searched: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// The searched decision of the side to move of `state` after the public `record`: the honest
/// alpha-beta's action ([`AlphaBetaBot::view_search`], `None` when no board move or flip is
/// legal), the sample it labels (`None` when filtered: a mate score, the mover in check, a
/// capture), with result 0 until the game ends, and the nodes searched. A function of the mover's
/// information only: two states of one information set give the same decision and sample.
pub fn decide(bot: &mut AlphaBetaBot, state: &State, record: &[RecordPly], limits: &Limits, ply: u32) -> (Option<Action>, Option<EvalSample>, u64) {
    let me = state.turn();
    let (best, nodes) = bot.view_search(state, record, limits);
    let Some((a, score)) = best else { return (None, None, nodes) };
    let capture = match a {
        Action::Move { to, .. } => state.position().piece_at(to).is_some_and(|p| p.color != me),
        _ => false,
    };
    let sample = (score.abs() < MATE_FILTER_CP && !capture && !state.side_in_check()).then(|| {
        let pieces = engine::nnue::pieces_of(state.position(), state.face_down());
        EvalSample::new(&pieces, me, score as i16, 0, ply.min(u32::from(u16::MAX)) as u16)
    });
    (Some(a), sample, nodes)
}

/// Plays one game of `variant` seeded with `seed` as the module documentation says, every
/// search within `limits` ([`DataConfig::limits`]).
pub fn play_game(variant: &'static Variant, cfg: &DataConfig, limits: &Limits, seed: u64) -> GameData {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut game = VariantGameState::unbounded(State::new_game(variant));
    let mut bot = AlphaBetaBot::new(limits.clone(), cfg.hash_mb);
    let mut setup = 0u32;
    // (sample without its result, mover)
    let mut pending: Vec<(EvalSample, Color)> = Vec::new();
    let (mut searched, mut nodes) = (0u32, 0u64);
    let winner = loop {
        if let Some(end) = game.outcome() {
            break end.winner();
        }
        let ply = game.plies() - setup;
        if ply >= cfg.max_plies {
            let lead = material_lead(game.state());
            let t = cfg.adjudicate_material;
            break if t > 0.0 && lead >= t {
                Some(Color::Red)
            } else if t > 0.0 && -lead >= t {
                Some(Color::Black)
            } else {
                None
            };
        }
        if game.state().is_chance() {
            // `play` resolves chance; a chance state here only arises from a start FEN.
            let mut s = game.state().clone();
            let o = draw_outcome(&s.chance_outcomes(), &mut rng);
            s.apply_chance(o);
            game = VariantGameState::unbounded(s);
            continue;
        }
        let legal = game.state().legal_actions();
        if legal.is_empty() {
            // No decision and no end: cannot happen by the rules; stop as a draw.
            break None;
        }
        if game.state().in_setup() {
            setup += 1;
            let a = legal[rng.random_range(0..legal.len())];
            game.play(a, |outs| draw_outcome(outs, &mut rng));
            continue;
        }
        // Random opening plies: board actions only (a random demand or answer could end the
        // game, §S11; an answer is left to the searcher's rule below).
        let board: Vec<Action> = legal.iter().copied().filter(|a| matches!(a, Action::Move { .. } | Action::Flip { .. })).collect();
        if ply < cfg.random_plies && !board.is_empty() {
            let a = board[rng.random_range(0..board.len())];
            game.play(a, |outs| draw_outcome(outs, &mut rng));
            continue;
        }
        let (best, sample, n) = decide(&mut bot, game.state(), game.record(), limits, ply);
        searched += 1;
        nodes += n;
        if let Some(s) = sample {
            pending.push((s, game.state().turn()));
        }
        let a = match best {
            Some(a) => a,
            // No board move (only answers or a forced pass): refuse a demand as the alpha-beta
            // bot does, else the first legal action.
            None if legal.contains(&Action::Answer(Answer::Refuse)) => Action::Answer(Answer::Refuse),
            None => legal[0],
        };
        game.play(a, |outs| draw_outcome(outs, &mut rng));
    };
    let samples = pending
        .into_iter()
        .map(|(mut s, mover)| {
            s.result = match winner {
                Some(w) if w == mover => 1,
                Some(_) => -1,
                None => 0,
            };
            s
        })
        .collect();
    GameData { samples, plies: game.plies() - setup, winner, searched, nodes }
}

/// Red's material lead in soldier units (chariot 9, cannon 4.5, horse 4, …;
/// `models::encoding::material`), for the adjudication at `max_plies`.
fn material_lead(s: &State) -> f32 {
    models::encoding::material(s.position(), Color::Red) - models::encoding::material(s.position(), Color::Black)
}

/// Totals of a generation ([`generate`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GenStats {
    /// Shards present before this call (resumed from).
    pub resumed_shards: u64,
    /// Shards written by this call.
    pub written_shards: u64,
    /// Games played by this call.
    pub games: u64,
    /// Samples written by this call.
    pub samples: u64,
    /// Decisions searched by this call.
    pub searched: u64,
    /// Nodes searched by this call.
    pub nodes: u64,
    /// Wall-clock seconds of this call.
    pub seconds: f64,
    /// Whether every shard of the configuration is now present.
    pub complete: bool,
}

impl GenStats {
    /// Samples written per second.
    pub fn samples_per_s(&self) -> f64 {
        self.samples as f64 / self.seconds.max(1e-9)
    }
}

/// Why the generation stopped early.
#[derive(Debug, thiserror::Error)]
pub enum GenError {
    /// A shard could not be written.
    #[error(transparent)]
    Shard(#[from] evalshard::EvalShardError),
    /// The directory's shards were written with another `evaldata.games_per_shard`.
    #[error("{}: {found} games, but key `evaldata.games_per_shard` is {expected}: resuming would play some games twice (keep the shard size of the run, or use a new directory)", path.display())]
    ShardSize {
        /// The first shard.
        path: std::path::PathBuf,
        /// Its games.
        found: u32,
        /// The configured shard size.
        expected: u64,
    },
    /// The searcher's learned evaluation (`evaldata.eval`) does not load.
    #[error("evaldata.eval: {0}")]
    Eval(#[from] engine::nnue::NnueError),
}

/// Plays the games of shards `complete_prefix(dir)..cfg.shards()` of `variant` into `dir`
/// (created if needed), `threads` games at a time (the global rayon pool), reporting each shard
/// through `progress(shards done, shards in all, stats so far)`. Stops early (with
/// [`GenStats::complete`] false) when `cfg.max_minutes` has passed.
///
/// # Errors
/// [`GenError`] when a shard cannot be written (the shards before it stay valid).
pub fn generate(
    variant: &'static Variant,
    dir: &Path,
    cfg: &DataConfig,
    seed: u64,
    git_revision: &str,
    mut progress: impl FnMut(u64, u64, &GenStats),
) -> Result<GenStats, GenError> {
    std::fs::create_dir_all(dir).map_err(|source| evalshard::EvalShardError::Io { path: dir.to_path_buf(), source })?;
    let start = Instant::now();
    let total = cfg.shards();
    let first = evalshard::complete_prefix(dir);
    if first > 0 && first < total {
        // Games are numbered across shards: another shard size would play some games again.
        let shard0 = dir.join(evalshard::file_name(0));
        let (h, _) = evalshard::read(&shard0)?;
        let want = u64::from(cfg.games_per_shard).min(cfg.games);
        if u64::from(h.games) != want {
            return Err(GenError::ShardSize { path: shard0, found: h.games, expected: want });
        }
    }
    let mut stats = GenStats { resumed_shards: first.min(total), ..GenStats::default() };
    let searcher = cfg.searcher();
    let limits = cfg.limits()?;
    for seq in first..total {
        if cfg.max_minutes > 0.0 && start.elapsed().as_secs_f64() >= cfg.max_minutes * 60.0 {
            break;
        }
        let lo = seq * u64::from(cfg.games_per_shard);
        let hi = (lo + u64::from(cfg.games_per_shard)).min(cfg.games);
        let games: Vec<GameData> =
            (lo..hi).into_par_iter().map(|g| play_game(variant, cfg, &limits, crate::game_seed(&[seed, 0xE7A1_DA7A, g]))).collect();
        let samples: Vec<EvalSample> = games.iter().flat_map(|g| g.samples.iter().cloned()).collect();
        let header = EvalShardHeader {
            variant: variant.name.to_string(),
            seq,
            searcher: searcher.clone(),
            games: games.len() as u32,
            samples: samples.len() as u64,
            plies: games.iter().map(|g| u64::from(g.plies)).sum(),
            decisive: games.iter().filter(|g| g.winner.is_some()).count() as u32,
            git_revision: git_revision.to_string(),
            created_unix: std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0),
        };
        evalshard::write(&dir.join(evalshard::file_name(seq)), &header, &samples)?;
        stats.written_shards += 1;
        stats.games += games.len() as u64;
        stats.samples += samples.len() as u64;
        stats.searched += games.iter().map(|g| u64::from(g.searched)).sum::<u64>();
        stats.nodes += games.iter().map(|g| g.nodes).sum::<u64>();
        stats.seconds = start.elapsed().as_secs_f64();
        progress(seq + 1, total, &stats);
    }
    stats.seconds = start.elapsed().as_secs_f64();
    stats.complete = evalshard::complete_prefix(dir) >= total;
    Ok(stats)
}
