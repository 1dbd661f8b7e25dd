//! Perfect Information Monte Carlo (PIMC): draw `k` determinizations of the deciding player's
//! [`crate::variant::View`], search each as if its hidden part were known, and aggregate the
//! root actions' results (D. N. L. Levy, "The million pound bridge program", Heuristic
//! Programming in Artificial Intelligence, 1989; M. L. Ginsberg, "GIB: Imperfect information in
//! a computationally challenging game", JAIR 14, 2001; the strategy-fusion and non-locality
//! critique of I. Frank and D. Basin, "Search in games with incomplete information", Artificial
//! Intelligence 100, 1998, and J. Long et al., "Understanding the success of perfect information
//! Monte Carlo sampling in game tree search", AAAI 2010).
//!
//! Inner searches (`search=` in the spec):
//! * `expectimax:...` (default `expectimax:depth=2`): [`super::expectimax`] on the determinized
//!   full state, so flips (§S4), reveals (§P2 chance) and the determinized identities are seen;
//!   aggregation: the mean score (centipawns) of each action over the determinizations;
//! * `alphabeta:...`: the alpha-beta searcher of [`super::alphabeta`] on the determinization's
//!   position core (pieces by the type they move as, no flips, no reveals); aggregation: votes
//!   (determinizations in which the action was best), ties by summed score. In Surprise and
//!   Fan-qi the core position is the same in every determinization (hidden faces and identities
//!   are not part of it), so this is a baseline rather than a real PIMC;
//! * `mcts:...` (parameters of [`super::ismcts::IsmctsConfig`]): UCT on the fixed
//!   determinization (IS-MCTS whose sampler always returns it; chance is still sampled);
//!   aggregation: summed visit shares.
//!
//! Units: determinizations (`k` per decision, fewer if the `ms` budget runs out first).
//! Deterministic given the seed when no time budget is set.

use super::alphabeta::{GameSearch, Limits};
use super::expectimax::ExpectimaxConfig;
use super::ismcts::{self, IsmctsConfig, Observers};
use super::Scored;
use super::{ActionStat, Analysis, GameBot, Rank};
use crate::game::{Action as GameAction, Turn};
use crate::variant::game_state::{encode, player_of, VariantGameState};
use crate::variant::{Action, View};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

/// The search run on each determinization.
#[derive(Clone, Debug)]
pub enum Inner {
    /// Expectimax on the full determinized state.
    Expectimax(ExpectimaxConfig),
    /// Alpha-beta on the position core, with these limits.
    AlphaBeta(Limits),
    /// UCT on the fixed determinization.
    Mcts(IsmctsConfig),
}

/// PIMC budgets and inner search.
#[derive(Clone, Debug)]
pub struct PimcConfig {
    /// Determinizations per decision.
    pub k: u32,
    /// Wall-time budget in milliseconds for the whole decision.
    pub ms: Option<u64>,
    /// The inner search.
    pub inner: Inner,
    /// Table size of the inner alpha-beta in MiB (`hash=N`; default 4).
    pub hash_mb: usize,
    /// `ties=random`: the action played is drawn uniformly (from the bot's seed) among those
    /// level with the best on the analysis's rank — mean centipawns with the expectimax inner,
    /// votes then mean score otherwise — instead of the first of them (`ties=first`, the
    /// default: the win share, then the first legal action). With the expectimax inner about 59 %
    /// of Jieqi decisions have tied mean scores (`examples/pimc_ties`); drawing among them played
    /// level with the default (50.5 % in 200 Jieqi games at 50 ms, experiments/train/hybrid.md);
    /// with `k=64` it scored 61.5 % against `pimc` in Jieqi but 40.2 % in Surprise (200 games each).
    pub random_ties: bool,
    inner_spec: String,
    /// The alpha-beta's learned evaluation (`eval=zoo:NAME|PATH`, [`crate::nnue`]).
    eval: Option<crate::nnue::EvalNet>,
    /// `eval=auto` (the default): without `eval`, the alpha-beta uses the family's published
    /// network ([`Limits::family_eval`]); `eval=none`: the hand-written evaluation.
    family_eval: bool,
    /// Whether the spec named no inner search (`search=`, or the alpha-beta's plain parameters):
    /// the RULES.md variants then search with the alpha-beta ([`PimcConfig::for_variants`]).
    default_inner: bool,
}

impl Default for PimcConfig {
    /// `k = 8`, `search=expectimax:depth=2` (the RULES-more.md games' default; the RULES.md
    /// variants' is [`PimcConfig::for_variants`]).
    fn default() -> Self {
        PimcConfig { k: 8, ms: None, inner: Inner::Expectimax(ExpectimaxConfig::default()), hash_mb: 4, random_ties: false, inner_spec: "expectimax:depth=2".into(), eval: None, family_eval: true, default_inner: true }
    }
}

/// The largest number of determinizations (`k`) a `pimc` spec takes.
pub const MAX_K: u64 = 100_000;

impl PimcConfig {
    /// The inner search's spec as the bot's name writes it (`alphabeta:depth=2`,
    /// `mcts:iterations=200`).
    pub fn inner_spec(&self) -> &str {
        &self.inner_spec
    }

    /// Parses `k=N,ms=N,ties=random|first,search=SPEC` (`search=` last: it takes the rest of the string), the one
    /// `pimc` spec of every game. `SPEC` is `expectimax[:...]` (the default),
    /// `alphabeta[:depth=N,nodes=N,ms=N]` (its limits per determinization; depth 2 when none is
    /// given) or `mcts[:...]`. The alpha-beta's limits may also be given as plain parameters,
    /// `pimc:k=N,depth=N,nodes=N,hash=N` (depth 2 by default; `hash`: the inner table in MiB,
    /// default 4), which then override those of `search=alphabeta:...`. `eval=auto` (the
    /// default), `eval=none` or `eval=zoo:NAME|PATH`: the alpha-beta's evaluation — the
    /// published network of the variant's family where there is one (xiangqi, Jieqi:
    /// [`crate::nnue::default_for`]), the hand-written one, or the named network.
    ///
    /// # Errors
    /// A message naming the bad parameter; the alpha-beta's plain parameters with another inner
    /// search.
    pub fn from_params(params: &str) -> Result<PimcConfig, String> {
        let mut c = PimcConfig::default();
        let (mut depth, mut nodes, mut hash) = (None, None, None);
        let mut eval = None;
        let mut search = None;
        let mut seen = Vec::new();
        for (k, v) in super::parse_params(params)? {
            // Ranges that work (issue #39): no k of 0, no budget that never returns, no table
            // that cannot be allocated.
            let n = |lo, hi| super::param_in("pimc", &k, &v, lo, hi);
            let name = if k == "determinizations" { "k" } else { k.as_str() };
            if let Some(name) = ["k", "ms", "depth", "nodes", "hash", "ties", "search", "eval"].into_iter().find(|x| *x == name) {
                super::param_once("pimc", &mut seen, name)?;
            }
            match k.as_str() {
                "k" | "determinizations" => c.k = n(1, MAX_K)? as u32,
                "ms" => c.ms = Some(n(1, super::MAX_SPEC_MS)?),
                "depth" => depth = Some(n(1, super::alphabeta::MAX_DEPTH as u64)? as u32),
                "nodes" => nodes = Some(n(1, super::MAX_SPEC_NODES)?),
                "hash" => hash = Some(n(1, super::MAX_SPEC_HASH_MB)? as usize),
                "ties" => {
                    c.random_ties = match v.as_str() {
                        "random" => true,
                        "first" => false,
                        _ => return Err(format!("pimc parameter \"ties\": {v:?} is neither random nor first")),
                    }
                }
                "search" => search = Some(v),
                "eval" => (eval, c.family_eval) = super::alphabeta::parse_eval("pimc", &v)?,
                other => return Err(format!("pimc parameter {other:?} unknown (known: k, ms, depth, nodes, hash, ties, eval, search)")),
            }
        }
        let plain = depth.is_some() || nodes.is_some() || hash.is_some();
        c.default_inner = search.is_none() && !plain;
        c.eval = eval.clone();
        c.hash_mb = hash.unwrap_or(4);
        match search {
            Some(v) => {
                let (name, p) = v.split_once(':').unwrap_or((v.as_str(), ""));
                c.inner = match name {
                    "expectimax" | "mcts" | "uct" if plain || eval.is_some() => {
                        return Err(format!("pimc: depth, nodes and hash are the alpha-beta's; give the {name}'s in search={name}:..."))
                    }
                    "expectimax" => Inner::Expectimax(ExpectimaxConfig::from_params(p)?),
                    "alphabeta" => {
                        let (mut limits, _) = super::alphabeta::parse_limits(if p.is_empty() { "depth=2" } else { p }, 4)?;
                        limits.depth = depth.or(limits.depth);
                        limits.nodes = nodes.or(limits.nodes);
                        if eval.is_some() {
                            limits.eval = eval.clone();
                        }
                        limits.family_eval &= c.family_eval;
                        Inner::AlphaBeta(limits)
                    }
                    "mcts" | "uct" => {
                        let mut m = IsmctsConfig::from_params(p)?;
                        m.mode = Observers::Single;
                        Inner::Mcts(m)
                    }
                    other => return Err(format!("pimc search {other:?} unknown (known: expectimax, alphabeta, mcts)")),
                };
                c.inner_spec = if plain { super::alphabeta::limits_name(c.limits().expect("alpha-beta")) } else { v.clone() };
            }
            None if plain => {
                let limits = Limits { depth: Some(depth.unwrap_or(2)), nodes, eval: eval.clone(), family_eval: c.family_eval, ..Limits::default() };
                c.inner_spec = super::alphabeta::limits_name(&limits);
                c.inner = Inner::AlphaBeta(limits);
            }
            None => {}
        }
        Ok(c)
    }

    /// The configuration the RULES.md variants play: a spec that names no inner search searches
    /// with the alpha-beta on the core position with the view's values of face-down pieces
    /// ([`crate::search::alphabeta::AlphaBetaBot::view_search`]; one search for all
    /// determinizations, which it cannot tell apart: `k` becomes 1), to the end of the `ms` budget when there
    /// is one and to depth 4 otherwise. Measured in 100 paired games at 50 ms a move against
    /// `pimc:search=expectimax:depth=2` (the default before it): experiments/strength/README.md.
    pub fn for_variants(mut self) -> PimcConfig {
        if self.default_inner {
            let limits = Limits { depth: if self.ms.is_some() { None } else { Some(4) }, eval: self.eval.clone(), family_eval: self.family_eval, ..Limits::default() };
            self.inner_spec = super::alphabeta::limits_name(&limits);
            self.inner = Inner::AlphaBeta(limits);
            self.default_inner = false;
            self.k = 1;
        }
        self
    }

    /// The inner alpha-beta's limits, when the inner search is the alpha-beta.
    pub fn limits(&self) -> Option<&Limits> {
        match &self.inner {
            Inner::AlphaBeta(l) => Some(l),
            _ => None,
        }
    }
}

/// PIMC as the variants' own [`GameBot`]: the one PIMC ([`alphabeta_votes`], [`determinizations`])
/// handed the deciding player's view and the game's record.
pub struct PimcBot {
    cfg: PimcConfig,
    rng: Pcg64Mcg,
    /// The inner alpha-beta (`search=alphabeta`).
    searcher: Option<Box<dyn GameSearch<VariantGameState>>>,
}

impl PimcBot {
    /// A bot with `cfg` (resolved by [`PimcConfig::for_variants`]) and `seed`.
    pub fn new(cfg: PimcConfig, seed: u64) -> PimcBot {
        let cfg = cfg.for_variants();
        let searcher = match &cfg.inner {
            Inner::AlphaBeta(limits) => Some(VariantGameState::alphabeta_search(limits.clone(), cfg.hash_mb)),
            _ => None,
        };
        PimcBot { cfg, rng: Pcg64Mcg::seed_from_u64(seed), searcher }
    }
}

/// The variants' PIMC, handed the game: determinizations of the mover's view, searched with the
/// game's record.
impl GameBot<VariantGameState> for PimcBot {
    fn name(&self) -> String {
        let mut s = format!("pimc:k={}", self.cfg.k);
        if let Some(m) = self.cfg.ms {
            s += &format!(",ms={m}");
        }
        if self.cfg.random_ties {
            s += ",ties=random";
        }
        format!("{s},search={}", self.cfg.inner_spec)
    }

    fn choose(&mut self, g: &VariantGameState) -> GameAction {
        encode(self.analyse_variant(g).best)
    }

    fn analyse(&mut self, g: &VariantGameState) -> crate::search::GameAnalysis {
        self.analyse_variant(g).map(encode)
    }
}

impl PimcBot {
    /// [`GameBot::analyse`] in the variants' typed actions (`ties=random` drawn here).
    pub fn analyse_variant(&mut self, g: &VariantGameState) -> Analysis {
        let mut an = self.analyse_first(g);
        if self.cfg.random_ties {
            let by_score = matches!(self.cfg.inner, Inner::Expectimax(_));
            if let Some(top) = an.stats.first().cloned() {
                let level: Vec<Action> = an
                    .stats
                    .iter()
                    .filter(|s| s.score == top.score && (by_score || s.share == top.share))
                    .map(|s| s.action)
                    .collect();
                an.best = level[self.rng.random_range(0..level.len())];
            }
        }
        an
    }
}

impl PimcBot {
    /// The analysis with the first of the level best actions as `best` (`ties=first`).
    fn analyse_first(&mut self, g: &VariantGameState) -> Analysis {
        let start = Instant::now();
        let legal = g.state().legal_actions();
        if let Some(a) = super::setup_choice(&legal, &mut self.rng) {
            return a;
        }
        let (k, ms) = (self.cfg.k, self.cfg.ms);
        let view = View::new(g.state(), g.state().turn());
        let record = g.record();
        let sample = |rng: &mut Pcg64Mcg| VariantGameState::new(view.sample(rng)).with_prior(record);
        let (votes, rank, unit) = match &self.cfg.inner {
            // PIMC averaging the expectimax is the expectimax bot with `k` samples: one code.
            Inner::Expectimax(cfg) => return super::expectimax::variant::analyse_determinizations(cfg, k, ms, false, &mut self.rng, g),
            Inner::AlphaBeta(_) => {
                // The inner alpha-beta reads only what every determinization shares: the core
                // position (face-down pieces move as their point's type, discs by their visible
                // face), the public record and the view's values of the face-down pieces
                // (`AlphaBetaBot::view_search`). The k searches would be one search k times:
                // one search gets the whole budget.
                let codes: Vec<GameAction> = legal.iter().map(|&a| encode(a)).collect();
                let search = self.searcher.as_deref_mut().expect("made with the alpha-beta inner search");
                (alphabeta_votes(search, 1, ms, &mut self.rng, &codes, sample), Rank::Share, "cp")
            }
            Inner::Mcts(cfg) => {
                let mut votes = Votes::new(legal.len());
                let rng = &mut self.rng;
                let cfg = &cfg.for_variant(&view.known().variant().name);
                let opts = cfg.game_options();
                votes.done = determinizations(k, ms, start, |_| {
                    let g = VariantGameState::with_options(view.sample(&mut *rng), opts.clone()).with_prior(record);
                    let out = ismcts::search(player_of(g.state().turn()), cfg, &mut *rng, |_| g.clone());
                    votes.nodes += out.nodes;
                    let total: u32 = out.stats.iter().map(|s| s.visits).sum();
                    for s in ismcts::root_stats(&out, &legal) {
                        if let Some(i) = legal.iter().position(|x| *x == s.action) {
                            votes.acc[i].0 += s.visits as f64 / total.max(1) as f64;
                            votes.acc[i].1 += s.score;
                            votes.acc[i].2 += 1;
                        }
                    }
                });
                (votes, Rank::Share, "value")
            }
        };
        let stats = legal
            .iter()
            .zip(&votes.acc)
            .filter(|(_, x)| x.2 > 0)
            .map(|(&a, &(share, sum, n))| ActionStat { action: a, share: share / votes.done.max(1) as f64, score: sum / n as f64, visits: n })
            .collect();
        Analysis::from_stats(&legal, stats, rank, unit, votes.done, "determinizations", votes.nodes, start)
    }
}

/// The one determinization loop of PIMC, for every game and inner search: up to `k` (at least 1)
/// determinizations, none started once `ms` milliseconds have passed since `start` (the first
/// always runs). `one` searches one determinization and is handed the milliseconds left of the
/// budget (at least 1; `None` without a budget). Returns how many ran.
fn determinizations(k: u32, ms: Option<u64>, start: Instant, mut one: impl FnMut(Option<u64>)) -> u64 {
    let mut done = 0;
    for i in 0..k.max(1) {
        let elapsed = start.elapsed().as_millis() as u64;
        if i > 0 && ms.is_some_and(|ms| elapsed >= ms) {
            break;
        }
        one(ms.map(|ms| ms.saturating_sub(elapsed).max(1)));
        done += 1;
    }
    done
}

/// What PIMC gathered over its determinizations: per legal action (in the caller's order)
/// (votes or visit shares, score sum, searches that scored it), the determinizations searched and
/// the search nodes.
struct Votes {
    acc: Vec<(f64, f64, u64)>,
    done: u64,
    nodes: u64,
}

impl Votes {
    fn new(n: usize) -> Votes {
        Votes { acc: vec![(0.0, 0.0, 0); n], done: 0, nodes: 0 }
    }

    /// Adds one determinization's UCT visit shares and mean values (`out`, over the caller's
    /// `legal` order).
    fn add_visits(&mut self, out: &ismcts::SearchOutput, legal: &[GameAction]) {
        self.nodes += out.nodes;
        let total: u32 = out.stats.iter().map(|s| s.visits).sum();
        for s in &out.stats {
            if let Some(i) = legal.iter().position(|x| *x == s.action) {
                self.acc[i].0 += s.visits as f64 / total.max(1) as f64;
                self.acc[i].1 += s.mean;
                self.acc[i].2 += 1;
            }
        }
    }

    /// The actions level with action `best` in votes and mean score (`ties=random` draws among
    /// them), `best` included, in the caller's order.
    fn level_with(&self, best: usize) -> Vec<usize> {
        let key = |(votes, sum, n): (f64, f64, u64)| (votes, sum / n.max(1) as f64);
        let top = key(self.acc[best]);
        (0..self.acc.len()).filter(|&i| self.acc[i].2 > 0 && key(self.acc[i]) == top).collect()
    }

    /// The action PIMC with `search=alphabeta` plays: the most votes, ties by the mean score of the
    /// searches that chose it, then the first legal (the order of [`Analysis::from_stats`] with
    /// [`Rank::Share`]); `None` when no search chose any.
    fn most_voted(&self) -> Option<usize> {
        let mut best: Option<(usize, (f64, f64))> = None;
        for (i, &(votes, sum, n)) in self.acc.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let key = (votes, sum / n as f64);
            if best.is_none_or(|(_, b)| key.partial_cmp(&b) == Some(std::cmp::Ordering::Greater)) {
                best = Some((i, key));
            }
        }
        best.map(|(i, _)| i)
    }
}

/// PIMC with `search=alphabeta`, the one implementation behind the variants' [`PimcBot`] and
/// [`GamePimcBot`]: [`determinizations`] drawn by `sample` from the acting player's information,
/// each searched by the one alpha-beta `search` within its limits (capped by the time left of
/// `ms`), a vote for the action it chose with its score. `legal` (the actions in the caller's
/// order) indexes the votes.
fn alphabeta_votes<G>(search: &mut dyn GameSearch<G>, k: u32, ms: Option<u64>, rng: &mut Pcg64Mcg, legal: &[GameAction], mut sample: impl FnMut(&mut Pcg64Mcg) -> G) -> Votes {
    let start = Instant::now();
    let mut votes = Votes::new(legal.len());
    let limits = search.limits().clone();
    votes.done = determinizations(k, ms, start, |left| {
        let det = sample(&mut *rng);
        let mut l = limits.clone();
        if let Some(left) = left {
            l.time_ms = Some(l.time_ms.map_or(left, |t| t.min(left)));
        }
        let (best, n) = search.search_action(&det, &l);
        votes.nodes += n;
        if let Some((i, v)) = best.and_then(|(a, v)| legal.iter().position(|&x| x == a).map(|i| (i, v))) {
            votes.acc[i].0 += 1.0;
            votes.acc[i].1 += v as f64;
            votes.acc[i].2 += 1;
        }
    });
    votes
}

/// PIMC with `search=alphabeta` on any [`Scored`] game (the `pimc` of the bot registry):
/// [`alphabeta_votes`] over determinizations drawn by [`crate::game::Game::sample_determinization`]
/// from the acting player's information, on the one alpha-beta's search of the game
/// ([`Scored::alphabeta_search`]: the copy-make adapter, or the core position on the variants).
/// At a set-up decision ([`Scored::is_setup_decision`]) it chooses uniformly at random, as the
/// variants' [`super::setup_choice`]; when no search chose an action it plays
/// [`Scored::fallback_action`]. With `ms`, no determinization starts after `ms` milliseconds (the
/// first always runs) and the searches stop at that deadline.
pub struct GamePimcBot<G: Scored> {
    k: u32,
    ms: Option<u64>,
    inner: GameInner<G>,
    rng: Pcg64Mcg,
    /// `ties=random` ([`PimcConfig::random_ties`]).
    random_ties: bool,
}

/// The inner search of [`GamePimcBot`].
enum GameInner<G: Scored> {
    /// The one alpha-beta (votes).
    AlphaBeta(Box<dyn GameSearch<G>>),
    /// UCT on each fixed determinization (the one IS-MCTS whose sampler returns it; visit
    /// shares), with its spec for the name.
    Mcts(IsmctsConfig, String),
}

impl<G: Scored> GamePimcBot<G> {
    /// `k` determinizations (at least 1), an optional time budget in milliseconds for the whole
    /// decision, the inner search's `limits` and table size in MiB, `seed`.
    pub fn new(k: u32, ms: Option<u64>, limits: Limits, hash_mb: usize, seed: u64) -> GamePimcBot<G> {
        GamePimcBot { k: k.max(1), ms, inner: GameInner::AlphaBeta(G::alphabeta_search(limits, hash_mb)), rng: Pcg64Mcg::seed_from_u64(seed), random_ties: false }
    }

    /// PIMC with `search=mcts:...` on any game: `k` determinizations (at least 1), each searched
    /// by UCT within `cfg` (the one IS-MCTS with a sampler that always returns the
    /// determinization; chance is still sampled), visit shares summed; `ms` as in
    /// [`GamePimcBot::new`]. `spec` names the inner search (`mcts:iterations=200`).
    pub fn mcts(k: u32, ms: Option<u64>, cfg: IsmctsConfig, spec: String, seed: u64) -> GamePimcBot<G> {
        GamePimcBot { k: k.max(1), ms, inner: GameInner::Mcts(cfg, spec), rng: Pcg64Mcg::seed_from_u64(seed), random_ties: false }
    }

    /// This bot with `ties=random`: the action is drawn uniformly (from the bot's seed) among
    /// those level with the best in votes (visit shares) and mean score.
    pub fn with_random_ties(mut self, random_ties: bool) -> GamePimcBot<G> {
        self.random_ties = random_ties;
        self
    }

    /// The spec of this bot, `pimc:k=4,search=alphabeta:depth=2`.
    pub fn name(&self) -> String {
        let mut s = format!("pimc:k={}", self.k);
        if let Some(m) = self.ms {
            s += &format!(",ms={m}");
        }
        if self.random_ties {
            s += ",ties=random";
        }
        match &self.inner {
            GameInner::AlphaBeta(search) => format!("{s},search={}", super::alphabeta::limits_name(search.limits())),
            GameInner::Mcts(_, spec) => format!("{s},search={spec}"),
        }
    }

    /// The action at `g` (a player's turn with legal actions).
    pub fn choose(&mut self, g: &G) -> GameAction {
        self.decide(g).0
    }

    /// [`GameBot::analyse`] for any game: the votes of [`GamePimcBot::choose`]'s search, one
    /// stat per action some determinization scored (share of the votes or summed visit shares,
    /// mean score: centipawns with `search=alphabeta`, value in [-1, 1] with `search=mcts`,
    /// determinizations that scored it), most voted first; the chosen action alone at a set-up
    /// decision.
    pub fn analyse(&mut self, g: &G) -> crate::search::GameAnalysis {
        let start = Instant::now();
        let (best, votes) = self.decide(g);
        let Some(votes) = votes else { return Analysis::chosen(best, start) };
        let legal = g.legal_actions();
        let total: f64 = votes.acc.iter().map(|a| a.0).sum();
        let mut stats: Vec<ActionStat<GameAction>> = (votes.acc.iter().zip(&legal))
            .filter(|(a, _)| a.2 > 0)
            .map(|(&(v, sum, n), &action)| ActionStat { action, share: if total > 0.0 { v / total } else { 0.0 }, score: sum / n as f64, visits: n })
            .collect();
        stats.sort_by(|a, b| b.share.total_cmp(&a.share).then(b.score.total_cmp(&a.score)));
        let unit = match self.inner {
            GameInner::AlphaBeta(_) => "cp",
            GameInner::Mcts(..) => "value",
        };
        Analysis { best, stats, score_unit: unit, work: votes.done, work_unit: "determinizations", nodes: votes.nodes, elapsed_ms: start.elapsed().as_secs_f64() * 1e3 }
    }

    /// The action at `g` and the votes behind it (none at a set-up decision or where no player
    /// acts).
    fn decide(&mut self, g: &G) -> (GameAction, Option<Votes>) {
        let legal = g.legal_actions();
        let Turn::Player(me) = g.turn() else { return (legal[0], None) };
        if g.is_setup_decision() {
            return (legal[self.rng.random_range(0..legal.len())], None);
        }
        let mut draw = g.determinizer(me);
        let votes = match &mut self.inner {
            GameInner::AlphaBeta(search) => alphabeta_votes(search.as_mut(), self.k, self.ms, &mut self.rng, &legal, |rng| draw(rng)),
            GameInner::Mcts(cfg, _) => {
                let mut votes = Votes::new(legal.len());
                let rng = &mut self.rng;
                votes.done = determinizations(self.k, self.ms, Instant::now(), |_| {
                    let det = draw(&mut *rng);
                    let out = ismcts::search(me, cfg, &mut *rng, |_| det.clone());
                    votes.add_visits(&out, &legal);
                });
                votes
            }
        };
        let Some(best) = votes.most_voted() else { return (g.fallback_action(&legal), Some(votes)) };
        if !self.random_ties {
            return (legal[best], Some(votes));
        }
        let level = votes.level_with(best);
        (legal[level[self.rng.random_range(0..level.len())]], Some(votes))
    }
}

#[cfg(test)]
mod ties_tests {
    use super::*;
    use crate::variant::{State, Variant};

    fn decision() -> VariantGameState {
        let v: &'static Variant = crate::any_game::load_variant("jieqi").expect("jieqi");
        VariantGameState::new(State::start(v, None).expect("start"))
    }

    /// `ties=random` draws among the actions level with the best mean score (and only among
    /// them); `ties=first` keeps the analysis's first. With the hand-written evaluation
    /// (`eval=none`), under which the start moves tie; the learned one tells them apart.
    #[test]
    fn random_ties_draw_among_the_level_best_only() {
        let d = decision();
        let mut seen = std::collections::HashSet::new();
        for seed in 0..6 {
            let mut first = PimcBot::new(PimcConfig::from_params("k=1,search=expectimax:depth=2,eval=none").expect("spec"), seed);
            let an = first.analyse_variant(&d);
            assert_eq!(an.best, an.stats[0].action, "ties=first plays the first of the ranking");
            let mut random = PimcBot::new(PimcConfig::from_params("k=1,ties=random,search=expectimax:depth=2,eval=none").expect("spec"), seed);
            let r = random.analyse_variant(&d);
            let top = r.stats[0].score;
            let best = r.stats.iter().find(|s| s.action == r.best).expect("best is analysed");
            assert_eq!(best.score, top, "the drawn action is level with the best");
            seen.insert(r.best);
        }
        assert!(seen.len() > 1, "the level start moves are drawn, not always the first: {seen:?}");
        assert!(PimcConfig::from_params("ties=maybe").unwrap_err().contains("ties"));
        let one = crate::search::game_bot::from_spec::<VariantGameState>("pimc:ties=random", 1).expect("the registry builds the variants' PIMC");
        assert!(one.name().contains("ties=random"), "{}", one.name());
    }

    /// `ties=random` and `search=mcts` are PIMC's in every game (here missile xiangqi after its
    /// set-up): seeded, legal, and `ties=random` draws among level actions where `ties=first`
    /// keeps one.
    #[test]
    fn pimc_ties_random_and_mcts_play_every_game() {
        use crate::game::Game;
        use crate::more::missile::{fen, MissileGame, MissilePosition, MissileRules, SetupMethod};
        let preset = MissileRules::preset("missile").expect("missile");
        let open = MissileRules { setup: SetupMethod::Open, ..preset.rules };
        let g = MissileGame::from_fen(preset, &fen::write(&MissilePosition::start(open))).expect("start");
        let legal = g.legal_actions();
        for spec in ["pimc:k=2,ties=random,search=expectimax:depth=1,eval=none", "pimc:k=2,ties=random,depth=1", "pimc:k=2,search=mcts:iterations=40", "pimc:k=2,ties=random,search=mcts:iterations=40"] {
            let mut a = crate::search::from_spec::<MissileGame>(spec, 3).unwrap_or_else(|e| panic!("{spec}: {e}"));
            let mut b = crate::search::from_spec::<MissileGame>(spec, 3).unwrap_or_else(|e| panic!("{spec}: {e}"));
            for part in ["ties=random", "search=mcts"] {
                assert_eq!(a.name().contains(part), spec.contains(part), "{spec}: {}", a.name());
            }
            let x = a.choose(&g);
            assert!(legal.contains(&x), "{spec}: legal");
            assert_eq!(x, b.choose(&g), "{spec}: seeded");
        }
        let picks = |spec: &str| -> std::collections::HashSet<crate::game::Action> {
            (0..8).map(|seed| crate::search::from_spec::<MissileGame>(spec, seed).expect("spec").choose(&g)).collect()
        };
        assert_eq!(picks("pimc:k=1,search=expectimax:depth=1,eval=none").len(), 1, "ties=first keeps one action");
        assert!(picks("pimc:k=1,ties=random,search=expectimax:depth=1,eval=none").len() > 1, "ties=random draws among the level ones");
    }
}
