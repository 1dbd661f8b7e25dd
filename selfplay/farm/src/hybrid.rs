//! The `net:` bot's PIMC root (`pimc=F,prior=C`): the net's search runs for the first `1 - F`
//! of the decision's time, then [`engine::search::pimc`] (the classical PIMC bot, determinizations
//! of the mover's view searched by expectimax) scores every root action in centipawns for the
//! rest, and the bot plays
//!
//! `argmax_a  pimc_cp(a) + C · ln π(a)`,  `π(a) = (visits(a) + prior(a)) / (visits + 1)`,
//!
//! the net's search distribution (visit shares smoothed by the net's prior; the prior alone when
//! `F = 1`, where the net is called once, at the root). The net thus ranks what full-width
//! search leaves tied (quiet moves of equal material) and vetoes moves it finds bad by `C` cp
//! per nat; PIMC sees the tactics a few dozen simulations miss. This is the combination of a
//! learned prior with a shallow full-width search of AlphaGo's mixed evaluation and of "policy
//! as a move-ordering/bonus" in engines such as Leela's and Stockfish's hybrids; here it is
//! measured, not assumed (experiments/train/hybrid.md).
//!
//! Information: both halves see only the mover's [`engine::variant::View`] (the PIMC bot samples
//! its determinizations from it) and the public record.

use engine::search::pimc::{PimcBot, PimcConfig};
use engine::search::{Analysis, Bot, Decision};
use engine::variant::Action;

/// Parameters of the PIMC root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HybridRoot {
    /// Share of the decision's time given to PIMC, in (0, 1].
    pub share: f64,
    /// Centipawns per nat of the net's search distribution.
    pub prior_cp: f64,
    /// Most determinizations PIMC draws (it stops earlier when its time is spent; without a
    /// time budget it draws exactly this many, deterministic given the seed).
    pub k: u32,
}

impl Default for HybridRoot {
    /// `share = 0.5`, `prior_cp = 40`, `k = 64`.
    fn default() -> Self {
        HybridRoot { share: 0.5, prior_cp: 40.0, k: 64 }
    }
}

impl HybridRoot {
    /// Determinizations when the decision has no time budget (PIMC's own default).
    pub const UNTIMED_K: u32 = 8;
}

/// Runs the PIMC half on `d`: `k` determinizations, stopping early after `ms` milliseconds (at
/// least one determinization) when a budget is given.
pub fn pimc_scores(d: &Decision, ms: Option<u64>, k: u32, seed: u64) -> Analysis {
    let mut cfg = PimcConfig::default();
    cfg.k = k;
    cfg.ms = ms.map(|m| m.max(1));
    PimcBot::new(cfg, seed).analyse(d)
}

/// The action maximising `pimc_cp(a) + prior_cp · ln π(a)` (see the module docs). `policy` is
/// [`crate::search::Search::root_policy`]; actions PIMC did not score rank below every scored
/// one. Ties go to the higher `π`. `None` when `policy` is empty.
pub fn combine(policy: &[(Action, f32, u32, Option<f32>)], pimc: &Analysis, prior_cp: f64) -> Option<Action> {
    let visits: u32 = policy.iter().map(|p| p.2).sum();
    let pi = |prior: f32, n: u32| (f64::from(n) + f64::from(prior)) / (f64::from(visits) + 1.0);
    let score = |a: Action| pimc.stats.iter().find(|s| s.action == a).map(|s| s.score);
    policy
        .iter()
        .map(|&(a, prior, n, _)| {
            let p = pi(prior, n).max(1e-6);
            let total = score(a).map_or(f64::NEG_INFINITY, |cp| cp + prior_cp * p.ln());
            (a, total, p)
        })
        .max_by(|x, y| x.1.total_cmp(&y.1).then(x.2.total_cmp(&y.2)))
        .map(|(a, _, _)| a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::search::{ActionStat, Analysis, Rank};

    fn analysis(legal: &[Action], scores: &[f64]) -> Analysis {
        let stats = legal.iter().zip(scores).map(|(&a, &s)| ActionStat { action: a, share: 0.0, score: s, visits: 1 }).collect();
        Analysis::from_stats(legal, stats, Rank::Score, "cp", 1, "determinizations", 0, std::time::Instant::now())
    }

    fn moves() -> Vec<Action> {
        let v: &'static engine::variant::Variant = Box::leak(Box::new(engine::variant::Variant::load("xiangqi").expect("xiangqi")));
        let s = engine::variant::State::start(v, None).expect("start");
        s.legal_actions().into_iter().take(3).collect()
    }

    #[test]
    fn the_prior_breaks_a_pimc_tie() {
        let m = moves();
        let pol = vec![(m[0], 0.1, 0, None), (m[1], 0.8, 0, None), (m[2], 0.1, 0, None)];
        assert_eq!(combine(&pol, &analysis(&m, &[0.0, 0.0, 0.0]), 40.0), Some(m[1]));
    }

    #[test]
    fn a_tactical_gain_beats_the_prior() {
        let m = moves();
        let pol = vec![(m[0], 0.05, 0, None), (m[1], 0.9, 0, None), (m[2], 0.05, 0, None)];
        // ln(0.9/0.05) * 40 = 116 cp < 300 cp.
        assert_eq!(combine(&pol, &analysis(&m, &[300.0, 0.0, 0.0]), 40.0), Some(m[0]));
        // ... and a small one does not.
        assert_eq!(combine(&pol, &analysis(&m, &[50.0, 0.0, 0.0]), 40.0), Some(m[1]));
    }

    #[test]
    fn visits_count_with_the_prior() {
        let m = moves();
        // Prior favours m[0]; the search's 20 visits went to m[2].
        let pol = vec![(m[0], 0.6, 0, None), (m[1], 0.2, 0, None), (m[2], 0.2, 20, Some(0.3))];
        assert_eq!(combine(&pol, &analysis(&m, &[0.0, 0.0, 0.0]), 40.0), Some(m[2]));
    }

    #[test]
    fn unscored_actions_rank_last() {
        let m = moves();
        let pol = vec![(m[0], 0.9, 0, None), (m[1], 0.1, 0, None)];
        assert_eq!(combine(&pol, &analysis(&m[1..2], &[-500.0]), 40.0), Some(m[1]));
        assert_eq!(combine(&[], &analysis(&m, &[0.0, 0.0, 0.0]), 40.0), None);
    }
}
