//! The self-play farm: many games at once, advanced in lock-step by rayon workers, with one
//! inference batcher that gathers every game's pending leaf evaluation into one net batch per
//! step (docs/architecture.md: `selfplay::farm`; the `anqi-farm` package, apart from `anqi-selfplay` so that
//! only the `anqi-torch` helper binary links libtorch).
//!
//! A step is two phases: (1) every game, in parallel, runs its search until it needs the net (or
//! plays moves that need none: random players, forced moves, chance); (2) the batcher stacks the
//! requests by net, evaluates each batch with `no_grad` and hands the results back. Games are
//! seeded from (run seed, worker, shard, game), so a shard can be replayed from its record.
//!
//! The same farm plays evaluation matches (net vs random, net vs net) and self-play for training.
//! [`netmore`] plays a checkpoint as an `engine::search::game_bot::GameBot` of any game (the
//! `net:` bot spec), and
//! [`commands`] holds the bodies of the torch commands (`train`, `selfplay`, `export`,
//! `doctor`) whose arguments `selfplay::cli` declares.

pub mod bench;
pub mod commands;
pub mod config;
pub mod eval;
pub mod evaldata;
pub mod evalrun;
pub mod games;
pub mod hybrid;
pub mod netcounters;
pub mod netmore;
pub mod netspec;
pub mod replay;
pub mod run;
pub mod search;
pub mod teacher;
pub mod worker;

use engine::more::presets::{Playable, WithGame};
use engine::observe::Encoding;
use engine::variant::{State, Variant};
use engine::Color;
use engine::any_game::AnyGame;
use games::{GameLoop, MoreLoop};
use models::encoding::CompactObs;
use models::net::Net;
use models::shard::Sample;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use search::{Search, SearchConfig};
use serde::{Deserialize, Serialize};

/// Surprise layout names (RULES.md §S2), in the order of their set-up actions.
pub const LAYOUTS: [&str; 10] = ["A", "B", "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8"];

/// Who plays a side.
#[derive(Clone, Debug, PartialEq)]
pub enum Player {
    /// Net-guided search with net number `net` of the farm's nets.
    Net {
        /// Index into the nets handed to [`play`].
        net: usize,
        /// Search settings.
        search: SearchConfig,
    },
    /// Uniformly random legal actions.
    Random,
    /// A classical bot of `engine::search::from_spec` (`greedy`, `ismcts:ms=50`, …), built for
    /// each game with the game's seed and handed the game's history (`Decision::in_game`): the
    /// opponents of the evaluation matches. In a RULES-more game, a bot of
    /// `engine::search::game_bot::from_spec` (the same specs, on any `Scored` game).
    Bot(String),
}

/// Game settings shared by all games of a run (the game keys of the `[selfplay]` table of a
/// training config, [`config::SelfplayConfig`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameConfig {
    /// Games kept in flight (the net batch is at most this).
    #[serde(default = "default_concurrent")]
    pub concurrent_games: usize,
    /// Plies after which an unfinished game is adjudicated.
    #[serde(default = "default_max_plies")]
    pub max_plies: u32,
    /// Adjudication of unfinished games: a material lead of at least this many soldier units
    /// (chariot 9, cannon 4.5, horse 4, advisor/elephant 2, soldier 1; pieces by the type they
    /// move as; in a RULES-more game its `Scored::eval_cp` material over 100) wins, less is a
    /// draw; 0 makes every unfinished game a draw.
    #[serde(default = "default_adjudicate")]
    pub adjudicate_material: f32,
    /// If positive, the training samples of an adjudicated game carry the graded result
    /// `tanh(lead / adjudicate_scale)` (lead in soldier units, for the sample's player) instead
    /// of win/draw/loss, so that every material difference teaches the value head.
    #[serde(default)]
    pub adjudicate_scale: f32,
    /// Move-selection temperature for the first `temperature_plies` plies.
    #[serde(default = "default_temperature")]
    pub temperature: f32,
    /// Plies played at `temperature`; later plies take the most visited action.
    #[serde(default = "default_temperature_plies")]
    pub temperature_plies: u32,
    /// Independent batchers (see [`play`]): 1 for one batcher over all games (GPU), the number
    /// of cores on a CPU.
    #[serde(default = "default_lanes")]
    pub lanes: usize,
    /// How the decisions of a recorded [`Player::Bot`] (a warm-start teacher) become training
    /// targets (set by the warm start, not a key of the `[selfplay]` table).
    #[serde(skip)]
    pub teacher: teacher::TeacherTargets,
}

fn default_concurrent() -> usize {
    64
}
fn default_max_plies() -> u32 {
    300
}
fn default_adjudicate() -> f32 {
    3.0
}
fn default_temperature() -> f32 {
    1.0
}
fn default_temperature_plies() -> u32 {
    20
}
fn default_lanes() -> usize {
    1
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            concurrent_games: default_concurrent(),
            max_plies: default_max_plies(),
            adjudicate_material: default_adjudicate(),
            adjudicate_scale: 0.0,
            temperature: default_temperature(),
            temperature_plies: default_temperature_plies(),
            lanes: default_lanes(),
            teacher: teacher::TeacherTargets::default(),
        }
    }
}

/// One game to play.
#[derive(Clone, Debug)]
pub struct GameJob {
    /// Caller's identifier.
    pub id: u64,
    /// Seed of the game's random stream (layouts, chance, determinizations, sampling).
    pub seed: u64,
    /// Red's player.
    pub red: Player,
    /// Black's player.
    pub black: Player,
    /// Keep training samples of the net players' decisions.
    pub record: bool,
    /// Dirichlet noise at the root (self-play).
    pub noise: bool,
    /// Temperature for the opening plies (0: always the most visited action).
    pub temperature: f32,
    /// Plies played at `temperature`.
    pub temperature_plies: u32,
}

/// How a game ended.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// The job's identifier.
    pub id: u64,
    /// The winner, if any.
    pub winner: Option<Color>,
    /// Why it ended (`checkmate`, …, `adjudicated`).
    pub reason: String,
    /// Plies played (set-up actions not counted).
    pub plies: u32,
    /// Ended by the ply limit (adjudicated).
    pub adjudicated: bool,
    /// Training samples (if recorded).
    pub samples: Vec<Sample>,
    /// Net evaluations used.
    pub evals: u64,
    /// Net players' decisions whose search took over the player's previous tree
    /// ([`SearchConfig::reuse_tree`]).
    pub reused_roots: u32,
}

/// Counters of a [`play`] call.
#[derive(Clone, Copy, Debug, Default)]
pub struct FarmStats {
    /// Net evaluations (positions through the net).
    pub evals: u64,
    /// Net batches.
    pub batches: u64,
    /// Seconds in the net.
    pub net_seconds: f64,
    /// Seconds in the search (tree work, encoding).
    pub search_seconds: f64,
}

struct Record {
    player: Color,
    obs: CompactObs,
    legal: Vec<u16>,
    policy: Vec<(u16, f32)>,
    ply: u16,
    q: f32,
}

struct Slot<L: GameLoop> {
    job: GameJob,
    game: L,
    rng: Pcg64Mcg,
    search: Option<Search<L::S>>,
    /// Each net player's last search, by colour index, kept for its next decision
    /// ([`SearchConfig::reuse_tree`]).
    trees: [Option<Search<L::S>>; 2],
    /// The net's answers to the search's requests, in request order.
    results: Vec<(Vec<f32>, f32)>,
    records: Vec<Record>,
    evals: u64,
    reused_roots: u32,
    /// Set-up actions played (not counted as plies of the game).
    setup_plies: u32,
    /// The classical bots of [`Player::Bot`] players, by colour index, built on first use.
    bots: [Option<L::Bot>; 2],
}

enum Status {
    NeedsEval(usize),
    /// Winner, reason, and for a game adjudicated at the ply limit Red's material lead.
    Finished(Option<Color>, String, Option<f32>),
}

/// A start state with the set-up decided uniformly at random: the variant's new game
/// ([`State::new_game`]) with every set-up action (Surprise layouts §S2, owner's-choice Fan-qi
/// placements §F3) drawn uniformly from the legal ones, one at a time. For tests, examples and
/// exports; the farm's games leave the set-up to their players ([`play`]).
pub fn start_state(variant: &'static Variant, rng: &mut impl Rng) -> State {
    let mut s = State::new_game(variant);
    while s.in_setup() {
        let acts = s.legal_actions();
        if acts.is_empty() {
            break;
        }
        s.apply(acts[rng.random_range(0..acts.len())]);
    }
    s
}

impl<L: GameLoop> Slot<L> {
    fn new(game: L, job: GameJob) -> Slot<L> {
        let rng = Pcg64Mcg::seed_from_u64(job.seed);
        // The players make the set-up decisions (secret layouts, owner's-choice arrangements).
        Slot { job, game, rng, search: None, trees: [None, None], results: Vec::new(), records: Vec::new(), evals: 0, reused_roots: 0, setup_plies: 0, bots: [None, None] }
    }

    fn player(&self, c: Color) -> &Player {
        match c {
            Color::Red => &self.job.red,
            Color::Black => &self.job.black,
        }
    }

    fn play(&mut self, action: <L::S as search::SearchGame>::Action) {
        if self.game.in_setup() {
            self.setup_plies += 1;
        }
        self.game.play(action, &mut self.rng);
    }

    fn advance(&mut self, cfg: &GameConfig) -> Status {
        loop {
            if let Some((winner, reason)) = self.game.outcome() {
                return Status::Finished(winner, reason, None);
            }
            let plies = self.game.plies() - self.setup_plies;
            if plies >= cfg.max_plies {
                let diff = self.game.material_lead();
                let t = cfg.adjudicate_material;
                let winner = if t > 0.0 && diff >= t {
                    Some(Color::Red)
                } else if t > 0.0 && -diff >= t {
                    Some(Color::Black)
                } else {
                    None
                };
                return Status::Finished(winner, "adjudicated".into(), Some(diff));
            }
            if self.game.resolve_chance(&mut self.rng) {
                continue;
            }
            let me = self.game.to_act();
            match self.player(me).clone() {
                Player::Random => {
                    let acts = self.game.legal();
                    let a = acts[self.rng.random_range(0..acts.len())];
                    self.play(a);
                }
                Player::Bot(spec) => {
                    if self.bots[me.index()].is_none() {
                        let seed = game_seed(&[self.job.seed, 0xB07, me.index() as u64]);
                        // A spec that does not build forfeits the game, naming the error.
                        match self.game.bot(&spec, seed) {
                            Ok(b) => self.bots[me.index()] = Some(b),
                            Err(e) => return Status::Finished(Some(me.opponent()), format!("forfeit: {e}"), None),
                        }
                    }
                    let Some(bot) = self.bots[me.index()].as_mut() else {
                        return Status::Finished(Some(me.opponent()), "forfeit: no bot".into(), None);
                    };
                    // A teacher's decision (warm start): record what the mover saw and the
                    // teacher's preferences (teacher.rs), where the game's bots analyse.
                    let taught = if self.job.record && !self.game.in_setup() { self.game.teach(bot, me, &cfg.teacher) } else { None };
                    let a = match taught {
                        Some((policy, q, best)) => {
                            let a = if plies < self.job.temperature_plies && self.job.temperature > 0.0 {
                                teacher::sample(&policy, &mut self.rng).unwrap_or(best)
                            } else {
                                best
                            };
                            let legal = self.game.legal();
                            let enc = self.game.encoding();
                            self.records.push(Record {
                                player: me,
                                obs: CompactObs::from_dense_shape(&self.game.observe(me), &enc.observation),
                                legal: self.game.slots(&legal, me),
                                policy: policy.iter().map(|p| (p.1, p.2)).collect(),
                                ply: plies.min(u32::from(u16::MAX)) as u16,
                                q,
                            });
                            a
                        }
                        None => self.game.bot_choose(bot),
                    };
                    self.play(a);
                }
                Player::Net { net, search } => {
                    if self.search.is_none() {
                        // The player's tree from its last decision, if the line since is in it.
                        let prev = self.trees[me.index()].take();
                        let s = match self.game.search(prev, me, &search, self.job.noise, &mut self.rng) {
                            Ok(s) => s,
                            Err(e) => return Status::Finished(None, format!("error: {e}"), None),
                        };
                        self.reused_roots += u32::from(s.is_reused());
                        self.search = Some(s);
                    }
                    let s = self.search.as_mut().expect("search");
                    for (i, (priors, value)) in self.results.drain(..).enumerate() {
                        s.deliver(i, &priors, value, &mut self.rng);
                    }
                    if s.advance(&mut self.rng) {
                        return Status::NeedsEval(net);
                    }
                    let temp = if plies < self.job.temperature_plies { self.job.temperature } else { 0.0 };
                    let action = s.choose(temp, &mut self.rng);
                    // A set-up choice is drawn from the net's own priors (search/setup.rs): no
                    // search improves on them, so it is no training target. With a reused tree
                    // the policy target is the reused root's visit distribution, earlier visits
                    // included.
                    if self.job.record && !s.is_setup() {
                        let visits = s.visits();
                        let total: u32 = visits.iter().map(|v| v.2).sum::<u32>().max(1);
                        self.records.push(Record {
                            player: me,
                            obs: CompactObs::from_dense_shape(s.root_obs(), &s.encoding().observation),
                            legal: s.root_slots().to_vec(),
                            policy: visits.iter().filter(|v| v.2 > 0).map(|v| (v.1, v.2 as f32 / total as f32)).collect(),
                            ply: plies.min(u32::from(u16::MAX)) as u16,
                            q: s.root_value().clamp(-1.0, 1.0),
                        });
                    }
                    let done = self.search.take();
                    if search.reuse_tree {
                        self.trees[me.index()] = done;
                    }
                    self.play(action);
                }
            }
        }
    }

    fn finish(self, winner: Option<Color>, reason: String, lead: Option<f32>, cfg: &GameConfig) -> GameResult {
        let adjudicated = lead.is_some();
        let samples = self
            .records
            .into_iter()
            .map(|r| Sample {
                obs: r.obs,
                policy: r.policy,
                legal: r.legal,
                outcome: match (lead, winner) {
                    (Some(d), _) if cfg.adjudicate_scale > 0.0 => {
                        let d = if r.player == Color::Red { d } else { -d };
                        (d / cfg.adjudicate_scale).tanh()
                    }
                    (_, Some(w)) if w == r.player => 1.0,
                    (_, Some(_)) => -1.0,
                    (_, None) => 0.0,
                },
                ply: r.ply,
                q: r.q,
            })
            .collect();
        GameResult {
            id: self.job.id,
            winner,
            reason,
            plies: self.game.plies() - self.setup_plies,
            adjudicated,
            samples,
            evals: self.evals,
            reused_roots: self.reused_roots,
        }
    }
}

/// [`play_more`] on a RULES.md variant: every game from `variant`'s start
/// (`engine::variant::game_state::VariantGameState` without a horizon, set-up decisions left to
/// the players).
///
/// # Panics
/// As [`play_more`].
pub fn play(
    variant: &'static Variant,
    nets: &[&Net],
    jobs: Vec<GameJob>,
    cfg: &GameConfig,
    on_result: impl FnMut(&GameResult),
) -> (Vec<GameResult>, FarmStats) {
    play_more(&engine::variant::game_state::VariantGameState::unbounded(State::new_game(variant)), nets, jobs, cfg, on_result)
}

/// Plays `jobs` with `nets`, every game from a copy of `start` (set-up phase included), for any
/// [`Playable`] game (a RULES.md variant's `VariantGameState`, a RULES-more preset): the one
/// search ([`search::Generic`]) for net players, the `engine::search::game_bot` bots for
/// [`Player::Bot`], the game's own end rules, and its `Scored::eval_cp` material for the
/// adjudication. `on_result` sees each game as it ends (on the calling thread). Results come back
/// in the order the games ended.
///
/// With `cfg.lanes == 1` one batcher serves every game in flight (`cfg.concurrent_games`), with
/// libtorch using its configured threads and rayon advancing the games: the layout for a GPU,
/// where one large batch is best. With `lanes > 1` the games are split into that many lanes,
/// each on its own thread with its own copy of the nets, its own batcher and single-threaded
/// libtorch: on CPUs this keeps every core busy in both phases (no core idles while the net
/// runs, and no OpenMP barrier stalls on a shared core).
///
/// # Panics
/// When a net is of another encoding than `start`'s ([`engine::observe::Observe::encoding`]):
/// the callers load nets with that encoding (`checkpoint::load_for`), so this is a caller's bug,
/// reported here rather than as a shape error inside torch.
pub fn play_more<G: Playable>(
    start: &G,
    nets: &[&Net],
    jobs: Vec<GameJob>,
    cfg: &GameConfig,
    mut on_result: impl FnMut(&GameResult),
) -> (Vec<GameResult>, FarmStats) {
    let encoding = start.encoding();
    // Lanes start games on their own threads; a `Playable` game is `Send`, not necessarily `Sync`.
    let start = std::sync::Mutex::new(start.clone());
    let new = || MoreLoop::new(start.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone());
    play_loops(&new, &encoding, nets, jobs, cfg, &mut on_result)
}

/// [`play`] or [`play_more`], by the run's game.
///
/// # Errors
/// A RULES-more preset that does not build ([`engine::more::MoreError`]).
pub fn play_spec(
    game: &AnyGame,
    nets: &[&Net],
    jobs: Vec<GameJob>,
    cfg: &GameConfig,
    mut on_result: impl FnMut(&GameResult),
) -> Result<(Vec<GameResult>, FarmStats), engine::more::MoreError> {
    match game {
        AnyGame::Variant(v) => Ok(play(v, nets, jobs, cfg, on_result)),
        AnyGame::More(name) => {
            struct Body<'a> {
                nets: &'a [&'a Net],
                jobs: Vec<GameJob>,
                cfg: &'a GameConfig,
                on_result: &'a mut dyn FnMut(&GameResult),
            }
            impl WithGame for Body<'_> {
                type Output = (Vec<GameResult>, FarmStats);
                fn run<G: Playable>(self, g: G) -> Self::Output {
                    play_more(&g, self.nets, self.jobs, self.cfg, self.on_result)
                }
            }
            engine::more::presets::with_game(name, None, Body { nets, jobs, cfg, on_result: &mut on_result })
        }
    }
}

/// The body of [`play`] for any [`GameLoop`]: every game starts as `new()`.
fn play_loops<L: GameLoop>(
    new: &(dyn Fn() -> L + Sync),
    encoding: &Encoding,
    nets: &[&Net],
    jobs: Vec<GameJob>,
    cfg: &GameConfig,
    on_result: &mut dyn FnMut(&GameResult),
) -> (Vec<GameResult>, FarmStats) {
    for n in nets {
        if let Err(e) = encoding.check_same(n.encoding()) {
            panic!("play: a net of another encoding than the search's: {e}");
        }
    }
    let lanes = cfg.lanes.max(1).min(jobs.len().max(1));
    if lanes == 1 {
        let mut results = Vec::new();
        let stats = play_lane(new, nets, jobs, cfg.concurrent_games, true, cfg, &mut |r| {
            on_result(&r);
            results.push(r);
        });
        return (results, stats);
    }
    let mut split: Vec<Vec<GameJob>> = vec![Vec::new(); lanes];
    for (i, j) in jobs.into_iter().enumerate() {
        split[i % lanes].push(j);
    }
    let width = cfg.concurrent_games.div_ceil(lanes).max(1);
    let lane_nets: Vec<Vec<Net>> = (0..lanes).map(|_| nets.iter().map(|n| n.duplicate()).collect()).collect();
    let threads = tch::get_num_threads();
    tch::set_num_threads(1);
    let (tx, rx) = std::sync::mpsc::channel::<GameResult>();
    let mut results = Vec::new();
    let stats = std::thread::scope(|scope| {
        let handles: Vec<_> = split
            .into_iter()
            .zip(lane_nets)
            .map(|(jobs, own)| {
                let tx = tx.clone();
                scope.spawn(move || {
                    let refs: Vec<&Net> = own.iter().collect();
                    play_lane(new, &refs, jobs, width, false, cfg, &mut |r| {
                        let _ = tx.send(r);
                    })
                })
            })
            .collect();
        drop(tx);
        for r in rx {
            on_result(&r);
            results.push(r);
        }
        let mut total = FarmStats::default();
        for h in handles {
            let s = h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            total.evals += s.evals;
            total.batches += s.batches;
            total.net_seconds += s.net_seconds;
            total.search_seconds += s.search_seconds;
        }
        total
    });
    tch::set_num_threads(threads);
    (results, stats)
}

/// One batcher over `width` games in flight, each started as `new()`; `parallel` advances them
/// with rayon.
fn play_lane<L: GameLoop>(
    new: &(dyn Fn() -> L + Sync),
    nets: &[&Net],
    jobs: Vec<GameJob>,
    width: usize,
    parallel: bool,
    cfg: &GameConfig,
    on_result: &mut dyn FnMut(GameResult),
) -> FarmStats {
    let mut queue = jobs.into_iter();
    let mut slots: Vec<Option<Slot<L>>> = Vec::new();
    let mut stats = FarmStats::default();
    let width = width.max(1);
    let mut obs: Vec<f32> = Vec::new();
    loop {
        for s in slots.iter_mut().filter(|s| s.is_none()) {
            *s = queue.next().map(|j| Slot::new(new(), j));
        }
        while slots.len() < width {
            match queue.next() {
                Some(j) => slots.push(Some(Slot::new(new(), j))),
                None => break,
            }
        }
        if slots.iter().all(Option::is_none) {
            break;
        }
        let t0 = std::time::Instant::now();
        let status: Vec<Option<Status>> = if parallel {
            slots.par_iter_mut().map(|s| s.as_mut().map(|s| s.advance(cfg))).collect()
        } else {
            slots.iter_mut().map(|s| s.as_mut().map(|s| s.advance(cfg))).collect()
        };
        stats.search_seconds += t0.elapsed().as_secs_f64();
        for (i, st) in status.iter().enumerate() {
            if let Some(Status::Finished(w, reason, lead)) = st {
                if let Some(slot) = slots[i].take() {
                    on_result(slot.finish(*w, reason.clone(), *lead, cfg));
                }
            }
        }
        for (n, net) in nets.iter().enumerate() {
            let who: Vec<usize> =
                status.iter().enumerate().filter(|(_, s)| matches!(s, Some(Status::NeedsEval(k)) if *k == n)).map(|(i, _)| i).collect();
            if who.is_empty() {
                continue;
            }
            let t1 = std::time::Instant::now();
            obs.clear();
            obs.reserve(who.len() * net.encoding().obs_len());
            let mut legal: Vec<&[u16]> = Vec::with_capacity(who.len());
            let mut counts = Vec::with_capacity(who.len());
            for &i in &who {
                let s = slots[i].as_ref().and_then(|s| s.search.as_ref()).expect("pending search");
                obs.extend_from_slice(s.request_obs());
                legal.extend(s.request_slots());
                counts.push(s.requests());
            }
            let ev = net.evaluate(&obs, &legal);
            let rows = legal.len();
            drop(legal);
            let mut k = 0;
            for (&i, &c) in who.iter().zip(&counts) {
                if let Some(s) = slots[i].as_mut() {
                    s.results = (k..k + c).map(|r| (ev.priors(r).to_vec(), ev.value(r))).collect();
                    s.evals += c as u64;
                }
                k += c;
            }
            stats.evals += rows as u64;
            stats.batches += 1;
            stats.net_seconds += t1.elapsed().as_secs_f64();
        }
    }
    stats
}

/// A game seed from the run seed and the game's coordinates (splitmix64 of each part in turn).
pub fn game_seed(parts: &[u64]) -> u64 {
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15;
    for &p in parts {
        h ^= p;
        h = h.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = h;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        h = z ^ (z >> 31);
    }
    h
}
