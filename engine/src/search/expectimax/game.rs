//! Every [`Scored`] game in the one expectimax (the RULES-more.md games of [`crate::more`], and any
//! other [`Game`] with a static evaluation): [`ExpectiGame`] through the [`Game`] trait alone.
//!
//! * Decision nodes search every [`Game::legal_actions`] in the game's order, ordered by
//!   [`Scored::gain_cp`] (highest first, stable); a player who moves again after an action
//!   ([`Next::Same`]) is searched without negation.
//! * Chance nodes ([`Turn::Chance`]) are the exact expectation over [`Game::chance_outcomes`].
//! * Quiescence searches the captures, the actions with [`Scored::gain_cp`] > 0, standing pat on
//!   [`Scored::eval_cp`]; in check ([`Scored::in_check`] of the determinization) every action.
//! * Ends: a terminal state ([`Turn::Terminal`]) scores `±(MATE - ply)` by the sign of
//!   [`Game::returns`] for the side that decided above it, 0 for a draw. Repetitions, move-count
//!   draws and adjudications are the game's own: it ends such positions through [`Game::turn`],
//!   so the search keeps no record (`Ply = ()`).
//!
//! The bot, [`GameExpectimaxBot`], searches `samples` determinizations drawn by
//! [`Game::sample_determinization`] for the deciding player (so it sees only what that player
//! sees) and plays the action with the highest mean score, as the variants' [`super::ExpectimaxBot`].

use super::{ExpectiGame, ExpectiSearch, ExpectimaxConfig, Next};
use crate::game::{Action, Game, PlayerId, Turn};
use crate::search::Scored;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

impl<G: Scored> ExpectiGame for G {
    type Act = Action;
    type Outcome = Action;
    type Side = PlayerId;
    type Ply = ();

    fn side(&self) -> PlayerId {
        self.turn().player().unwrap_or(PlayerId::FIRST)
    }

    fn play(&self, a: Action) -> G {
        Game::child(self, a)
    }

    fn next(&self, us: PlayerId) -> Next {
        match self.turn() {
            Turn::Chance => Next::Chance,
            Turn::Terminal => Next::End(self.returns(us)),
            Turn::Player(p) if p == us => Next::Same,
            Turn::Player(_) => Next::Other,
        }
    }

    fn outcomes(&self) -> Vec<(Action, f64)> {
        self.chance_outcomes()
    }

    fn apply_outcome(&mut self, o: Action) {
        self.apply(o);
    }

    fn end_value(&self, _path: &[()], _ply: u32) -> Option<f64> {
        None
    }

    fn actions(&self, _ply: u32) -> Result<Vec<Action>, f64> {
        let acts = self.legal_actions();
        if acts.is_empty() {
            // Not a decision node (the search only calls decision nodes): its static value.
            return Err(self.eval_cp(ExpectiGame::side(self)) as f64);
        }
        Ok(acts)
    }

    fn root_actions(&self) -> Vec<Action> {
        self.legal_actions()
    }

    fn in_check(&self) -> bool {
        Scored::in_check(self)
    }

    fn is_capture(&self, a: Action) -> bool {
        self.gain_cp(a) > 0
    }

    fn order(&self, acts: &mut [Action]) {
        // One `gain_cp` per action (it may weigh a hidden piece's possible kinds).
        acts.sort_by_cached_key(|a| std::cmp::Reverse(self.gain_cp(*a)));
    }

    fn eval(&self, side: PlayerId) -> f64 {
        self.eval_cp(side) as f64
    }

    fn eval_with(&self, side: PlayerId, net: Option<&crate::nnue::Network>) -> f64 {
        self.eval_cp_with(side, net) as f64
    }

    fn record_ply(&self, _a: Action, _after: &G) {}
}

/// Expectimax as the bot of any [`Scored`] game (spec `expectimax[:depth=N,qdepth=N,nodes=N,ms=N,samples=N]`,
/// the variant bot's keys, [`ExpectimaxConfig::from_params`]): searches `samples`
/// determinizations of the deciding player's information ([`Game::sample_determinization`]) and
/// plays the action with the highest mean score (ties: the higher share of determinizations in
/// which it was best, then the first in legal order). Deterministic given its seed without a time
/// budget.
///
/// It is also the RULES-more games' PIMC with its default inner search
/// ([`GameExpectimaxBot::pimc`], `pimc:k=N,search=expectimax:...`): PIMC that averages the
/// expectimax scores of `k` determinizations is this bot with `samples = k`, as the variants'
/// `pimc` with the expectimax inner search is their [`super::ExpectimaxBot`] with `samples = k`.
pub struct GameExpectimaxBot {
    cfg: ExpectimaxConfig,
    rng: Pcg64Mcg,
    /// The decision's time budget in milliseconds: no determinization starts after it.
    decision_ms: Option<u64>,
    /// As PIMC: `k`, the PIMC `ms` and the inner search's spec, for the name.
    pimc: Option<(u32, Option<u64>, String)>,
    /// The cheating oracle: searches the full state itself.
    oracle: bool,
    /// `ties=random` (PIMC): draw among the actions level with the best mean score.
    random_ties: bool,
}

impl GameExpectimaxBot {
    /// A bot with `cfg` and `seed`.
    pub fn new(cfg: ExpectimaxConfig, seed: u64) -> GameExpectimaxBot {
        GameExpectimaxBot { decision_ms: cfg.ms, cfg, rng: Pcg64Mcg::seed_from_u64(seed), pimc: None, oracle: false, random_ties: false }
    }

    /// PIMC with the expectimax inner search `inner` (its `samples` ignored): `k`
    /// determinizations (at least 1), fewer if `ms` milliseconds run out first (no
    /// determinization starts after them, and no inner search runs longer).
    pub fn pimc(inner: ExpectimaxConfig, k: u32, ms: Option<u64>, seed: u64) -> GameExpectimaxBot {
        let k = k.max(1);
        let search_ms = match (inner.ms, ms) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let cfg = ExpectimaxConfig { samples: k, ms: search_ms, ..inner.clone() };
        GameExpectimaxBot { cfg, rng: Pcg64Mcg::seed_from_u64(seed), decision_ms: ms, pimc: Some((k, ms, inner.spec())), oracle: false, random_ties: false }
    }

    /// This bot with `ties=random` (PIMC's, [`crate::search::pimc::PimcConfig::random_ties`]):
    /// the action is drawn uniformly (from the bot's seed) among those level with the best mean
    /// score, instead of the one with the most wins among them.
    pub fn with_random_ties(mut self, random_ties: bool) -> GameExpectimaxBot {
        self.random_ties = random_ties;
        self
    }

    /// The cheating oracle with `cfg` (spec `oracle[:depth=N,...]`, as the variants'
    /// [`super::ExpectimaxBot::oracle`]): one search of the full state, hidden pieces and all, so
    /// that its results against the honest bot measure what the hidden information is worth.
    pub fn oracle(cfg: ExpectimaxConfig, seed: u64) -> GameExpectimaxBot {
        let mut bot = GameExpectimaxBot::new(ExpectimaxConfig { samples: 1, ..cfg }, seed);
        bot.oracle = true;
        bot
    }

    /// The spec (`expectimax:depth=2,...`, `oracle:depth=2,...`, or
    /// `pimc:k=N[,ms=N],search=expectimax:...`).
    pub fn name(&self) -> String {
        match &self.pimc {
            None if self.oracle => self.cfg.spec().replacen("expectimax", "oracle", 1),
            None => self.cfg.spec(),
            Some((k, ms, inner)) => format!("pimc:k={k}{}{},search={inner}", ms.map_or(String::new(), |m| format!(",ms={m}")), if self.random_ties { ",ties=random" } else { "" }),
        }
    }

    /// One of `g.legal_actions()` (`g` at a player's turn with at least one legal action; at
    /// any other state, the first legal action or `Action(0)`).
    pub fn choose<G: Scored>(&mut self, g: &G) -> Action {
        self.decide(g).0
    }

    /// [`crate::search::GameBot::analyse`] for any game: [`GameExpectimaxBot::choose`]'s
    /// searches as one stat per action some search valued (share of the searches in which it
    /// was best, mean value in centipawns, searches that valued it), best mean first (ties: more
    /// wins); work = searches (determinizations, or 1 for the oracle); the only legal action
    /// alone, unsearched.
    pub fn analyse<G: Scored>(&mut self, g: &G) -> crate::search::GameAnalysis {
        let start = Instant::now();
        let (best, tally) = self.decide(g);
        let Some(t) = tally else { return crate::search::Analysis::chosen(best, start) };
        let total: u32 = t.wins.iter().sum();
        let mut stats: Vec<crate::search::ActionStat<Action>> = (0..t.legal.len())
            .filter(|&i| t.seen[i] > 0)
            .map(|i| crate::search::ActionStat { action: t.legal[i], share: f64::from(t.wins[i]) / f64::from(total.max(1)), score: t.sum[i] / f64::from(t.seen[i]), visits: u64::from(t.seen[i]) })
            .collect();
        stats.sort_by(|a, b| b.score.total_cmp(&a.score).then(b.share.total_cmp(&a.share)));
        crate::search::Analysis { best, stats, score_unit: "cp", work: t.searches, work_unit: "searches", nodes: t.nodes, elapsed_ms: start.elapsed().as_secs_f64() * 1e3 }
    }

    /// The action at `g` and the tally behind it (none when not searched).
    fn decide<G: Scored>(&mut self, g: &G) -> (Action, Option<Tally>) {
        let legal = g.legal_actions();
        let Turn::Player(me) = g.turn() else { return (legal.first().copied().unwrap_or(Action(0)), None) };
        if legal.len() <= 1 {
            return (legal.first().copied().unwrap_or(Action(0)), None);
        }
        let start = Instant::now();
        let (mut searches, mut nodes) = (0u64, 0u64);
        let mut sum = vec![0.0; legal.len()];
        let mut seen = vec![0u32; legal.len()];
        let mut wins = vec![0u32; legal.len()];
        let mut e = ExpectiSearch::<G>::new(self.cfg.clone());
        // The oracle searches the full state; the others draw determinizations of their view.
        let mut draw = (!self.oracle).then(|| g.determinizer(me));
        for _ in 0..self.cfg.samples {
            let r = match &mut draw {
                Some(draw) => e.search(&draw(&mut self.rng)),
                None => e.search(g),
            };
            for &(a, v) in &r.values {
                if let Some(i) = legal.iter().position(|x| *x == a) {
                    sum[i] += v;
                    seen[i] += 1;
                }
            }
            if let Some(i) = r.best().and_then(|(a, _)| legal.iter().position(|x| *x == a)) {
                wins[i] += 1;
            }
            searches += 1;
            nodes += e.nodes();
            if self.decision_ms.is_some_and(|ms| start.elapsed().as_millis() as u64 >= ms) {
                break;
            }
        }
        let mut best: Option<(usize, (f64, u32))> = None;
        for i in (0..legal.len()).filter(|&i| seen[i] > 0) {
            let key = (sum[i] / seen[i] as f64, wins[i]);
            if best.is_none_or(|(_, b)| key.0 > b.0 || (key.0 == b.0 && key.1 > b.1)) {
                best = Some((i, key));
            }
        }
        let chosen = match best {
            None => legal[0],
            Some((best, _)) if !self.random_ties => legal[best],
            Some((_, (top, _))) => {
                let level: Vec<usize> = (0..legal.len()).filter(|&i| seen[i] > 0 && sum[i] / seen[i] as f64 == top).collect();
                legal[level[rand::Rng::random_range(&mut self.rng, 0..level.len())]]
            }
        };
        (chosen, Some(Tally { nodes, legal, sum, seen, wins, searches }))
    }
}

/// What [`GameExpectimaxBot`]'s searches at one decision gathered, per legal action (in
/// `legal`'s order): summed values (centipawns), searches that valued it, searches in which it
/// was best; and the searches run and their nodes.
struct Tally {
    legal: Vec<Action>,
    sum: Vec<f64>,
    seen: Vec<u32>,
    wins: Vec<u32>,
    searches: u64,
    nodes: u64,
}
