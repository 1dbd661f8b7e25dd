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

use super::alphabeta::{AlphaBetaBot, GameSearch, Limits};
use super::Scored;
use crate::game::{Action as GameAction, Turn};
use super::expectimax::ExpectimaxConfig;
use super::ismcts::{self, IsmctsConfig, Observers};
use super::{ActionStat, Analysis, Bot, Decision, Rank};
use crate::variant::game_state::VariantGameState;
use crate::variant::{Action, State};
use rand::SeedableRng;
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
    inner_spec: String,
}

impl Default for PimcConfig {
    /// `k = 8`, `search=expectimax:depth=2`.
    fn default() -> Self {
        PimcConfig { k: 8, ms: None, inner: Inner::Expectimax(ExpectimaxConfig::default()), inner_spec: "expectimax:depth=2".into() }
    }
}

impl PimcConfig {
    /// Parses `k=N,ms=N,search=SPEC` (`search=` last: it takes the rest of the string).
    ///
    /// # Errors
    /// A message naming the bad parameter.
    pub fn from_params(params: &str) -> Result<PimcConfig, String> {
        let mut c = PimcConfig::default();
        for (k, v) in super::parse_params(params)? {
            match k.as_str() {
                "k" | "determinizations" => c.k = (super::param_u64("pimc", &k, &v)? as u32).max(1),
                "ms" => c.ms = Some(super::param_u64("pimc", &k, &v)?.max(1)),
                "search" => {
                    let (name, p) = v.split_once(':').unwrap_or((v.as_str(), ""));
                    c.inner = match name {
                        "expectimax" => Inner::Expectimax(ExpectimaxConfig::from_params(p)?),
                        "alphabeta" => {
                            let mut params = p.to_string();
                            if params.is_empty() {
                                params = "depth=2".into();
                            }
                            Inner::AlphaBeta(AlphaBetaBot::from_params(&params)?.limits().clone())
                        }
                        "mcts" | "uct" => {
                            let mut m = IsmctsConfig::from_params(p)?;
                            m.mode = Observers::Single;
                            Inner::Mcts(m)
                        }
                        other => return Err(format!("pimc search {other:?} unknown (known: expectimax, alphabeta, mcts)")),
                    };
                    c.inner_spec = v.clone();
                }
                other => return Err(format!("pimc parameter {other:?} unknown (known: k, ms, search)")),
            }
        }
        Ok(c)
    }
}

/// PIMC as a [`Bot`].
pub struct PimcBot {
    cfg: PimcConfig,
    rng: Pcg64Mcg,
    /// The inner alpha-beta (`search=alphabeta`), made at the first determinization.
    searcher: Option<Box<dyn GameSearch<VariantGameState>>>,
}

impl PimcBot {
    /// A bot with `cfg` and `seed`.
    pub fn new(cfg: PimcConfig, seed: u64) -> PimcBot {
        PimcBot { cfg, rng: Pcg64Mcg::seed_from_u64(seed), searcher: None }
    }

    /// Searches one determinization; adds to the per-action (votes, score sum, scored count).
    /// `record` is the game's public record ([`Decision::record`]), seen by every inner search.
    fn one(&mut self, det: &State, record: &[crate::repetition::RecordPly], legal: &[Action], acc: &mut [(f64, f64, u64)], nodes: &mut u64) {
        let idx = |a: Action| legal.iter().position(|x| *x == a);
        match &self.cfg.inner {
            // Analysed as a whole by the expectimax bot's code (`analyse`).
            Inner::Expectimax(_) => {}
            Inner::AlphaBeta(limits) => {
                let g = VariantGameState::new(det.clone()).with_prior(record);
                let search = self.searcher.get_or_insert_with(|| VariantGameState::alphabeta_search(limits.clone(), 4));
                alphabeta_vote(search.as_mut(), &g, limits, |a| crate::variant::game_state::decode(a).and_then(idx), acc, nodes);
            }
            Inner::Mcts(cfg) => {
                let g = VariantGameState::with_options(det.clone(), cfg.game_options()).with_prior(record);
                let out = ismcts::search(crate::variant::game_state::player_of(det.turn()), cfg, &mut self.rng, |_| g.clone());
                *nodes += out.nodes;
                let total: u32 = out.stats.iter().map(|s| s.visits).sum();
                for s in ismcts::root_stats(&out, legal) {
                    if let Some(i) = idx(s.action) {
                        acc[i].0 += s.visits as f64 / total.max(1) as f64;
                        acc[i].1 += s.score;
                        acc[i].2 += 1;
                    }
                }
            }
        }
    }
}

impl Bot for PimcBot {
    fn name(&self) -> String {
        let mut s = format!("pimc:k={}", self.cfg.k);
        if let Some(m) = self.cfg.ms {
            s += &format!(",ms={m}");
        }
        format!("{s},search={}", self.cfg.inner_spec)
    }

    fn choose(&mut self, d: &Decision) -> Action {
        self.analyse(d).best
    }

    fn analyse(&mut self, d: &Decision) -> Analysis {
        let start = Instant::now();
        let legal = d.legal_actions();
        if let Some(a) = super::setup_choice(&legal, &mut self.rng) {
            return a;
        }
        if let Inner::Expectimax(cfg) = &self.cfg.inner {
            // PIMC averaging the expectimax is the expectimax bot with `k` samples: one code.
            return super::expectimax::variant::analyse_determinizations(cfg, self.cfg.k, self.cfg.ms, false, &mut self.rng, d);
        }
        let view = d.view();
        let mut acc = vec![(0.0, 0.0, 0u64); legal.len()];
        let mut nodes = 0;
        let mut done = 0u64;
        for _ in 0..self.cfg.k {
            let det = view.sample(&mut self.rng);
            self.one(&det, d.record(), &legal, &mut acc, &mut nodes);
            done += 1;
            if self.cfg.ms.is_some_and(|ms| start.elapsed().as_millis() as u64 >= ms) {
                break;
            }
        }
        let (rank, unit) = match self.cfg.inner {
            Inner::Expectimax(_) => (Rank::Score, "cp"),
            Inner::AlphaBeta(_) => (Rank::Share, "cp"),
            Inner::Mcts(_) => (Rank::Share, "value"),
        };
        let stats = legal
            .iter()
            .zip(&acc)
            .filter(|(_, x)| x.2 > 0)
            .map(|(&a, &(votes, sum, n))| ActionStat { action: a, share: votes / done.max(1) as f64, score: sum / n as f64, visits: n })
            .collect();
        Analysis::from_stats(&legal, stats, rank, unit, done, "determinizations", nodes, start)
    }
}

/// How PIMC with `search=alphabeta` counts one determinization (the variants' [`PimcBot`] and
/// [`GamePimcBot`] alike): a vote for the action the search chose, its score added. `acc` holds,
/// per legal action, (votes, score sum, searches that chose it).
fn vote(acc: &mut [(f64, f64, u64)], i: usize, score: f64) {
    acc[i].0 += 1.0;
    acc[i].1 += score;
    acc[i].2 += 1;
}

/// One determinization `det` of PIMC with `search=alphabeta`, for the variants' [`PimcBot`] and
/// [`GamePimcBot`] alike: the one alpha-beta's search within `limits`, counted by [`vote`] at the
/// legal action `index` gives (none when the search chose none); its nodes added to `nodes`.
fn alphabeta_vote<G>(search: &mut dyn GameSearch<G>, det: &G, limits: &Limits, index: impl Fn(GameAction) -> Option<usize>, acc: &mut [(f64, f64, u64)], nodes: &mut u64) {
    let (best, n) = search.search_action(det, limits);
    *nodes += n;
    if let Some((i, v)) = best.and_then(|(a, v)| index(a).map(|i| (i, v))) {
        vote(acc, i, v as f64);
    }
}

/// The action PIMC with `search=alphabeta` plays: the most votes, ties by the mean score of the
/// searches that chose it, then the first legal ([`Analysis::from_stats`] with [`Rank::Share`]);
/// `None` when no search chose any.
fn most_voted(acc: &[(f64, f64, u64)]) -> Option<usize> {
    let mut best: Option<(usize, (f64, f64))> = None;
    for (i, &(votes, sum, n)) in acc.iter().enumerate() {
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

/// PIMC with `search=alphabeta` on any [`Scored`] game (the `pimc` of
/// [`crate::more::bots::from_spec`]): `k` determinizations drawn by
/// [`crate::game::Game::sample_determinization`] from the acting player's information, the one
/// alpha-beta on each within the inner limits ([`Scored::alphabeta_search`]: the copy-make
/// adapter, or the core position on the variants), counted by the variants' [`PimcBot`]'s code
/// for its alpha-beta searches ([`Analysis::from_stats`] with [`Rank::Share`]: the
/// most votes, ties by mean score, then the first legal). With `ms`, no determinization starts
/// after `ms` milliseconds (the first always runs) and the searches stop at that deadline.
pub struct GamePimcBot<G: Scored> {
    k: u32,
    ms: Option<u64>,
    inner: Box<dyn GameSearch<G>>,
    rng: Pcg64Mcg,
}

impl<G: Scored> GamePimcBot<G> {
    /// `k` determinizations (at least 1), an optional time budget in milliseconds for the whole
    /// decision, the inner search's `limits` and table size in MiB, `seed`.
    pub fn new(k: u32, ms: Option<u64>, limits: Limits, hash_mb: usize, seed: u64) -> GamePimcBot<G> {
        GamePimcBot { k: k.max(1), ms, inner: G::alphabeta_search(limits, hash_mb), rng: Pcg64Mcg::seed_from_u64(seed) }
    }

    /// The spec of this bot, `pimc:k=4,search=alphabeta:depth=2`.
    pub fn name(&self) -> String {
        let mut s = format!("pimc:k={}", self.k);
        if let Some(m) = self.ms {
            s += &format!(",ms={m}");
        }
        format!("{s},search={}", super::alphabeta::limits_name(self.inner.limits()))
    }

    /// The action at `g` (a player's turn with legal actions).
    pub fn choose(&mut self, g: &G) -> GameAction {
        let legal = g.legal_actions();
        let Turn::Player(me) = g.turn() else { return legal[0] };
        let start = Instant::now();
        let mut acc = vec![(0.0, 0.0, 0u64); legal.len()];
        let mut nodes = 0;
        for i in 0..self.k {
            if i > 0 && self.ms.is_some_and(|ms| start.elapsed().as_millis() as u64 >= ms) {
                break;
            }
            let d = g.sample_determinization(me, &mut self.rng);
            let mut l = self.inner.limits().clone();
            if let Some(ms) = self.ms {
                let left = ms.saturating_sub(start.elapsed().as_millis() as u64).max(1);
                l.time_ms = Some(l.time_ms.map_or(left, |t| t.min(left)));
            }
            alphabeta_vote(self.inner.as_mut(), &d, &l, |a| legal.iter().position(|&x| x == a), &mut acc, &mut nodes);
        }
        legal[most_voted(&acc).unwrap_or(0)]
    }
}
