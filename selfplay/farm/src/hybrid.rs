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
//! `vmix=W` adds the net's VALUE of PIMC's best root actions to PIMC's score (the net's policy
//! enters only through `C`): PIMC gets the first `1 - VALUE_RESERVE` of the time left, then the
//! net values its [`VALUE_TOP`] best actions, and the bot plays, among those,
//! `argmax pimc_cp(a) + W · value_cp(a) + C · ln π(a)`, where `value_cp(a)` ([`root_values`]) is
//! the mover's value after `a`, averaged over [`VALUE_SAMPLES`] determinizations of the mover's
//! view, in centipawns by [`value_cp`] (`600 · atanh(v)`, `v` clipped to ±0.95: ±1,099 cp at most,
//! 100 cp ≈ v = 0.165). The net is called once per decision, on a batch of at most
//! `VALUE_SAMPLES × VALUE_TOP` observations. Why only the top: one observation costs about one
//! simulation of the net's search, and valuing every action (≈ 40 in the middle game, times the
//! samples) took several times the 50 ms a move has on the loaded 2-core machine (a first try,
//! 4 samples of every action, overran the budget; so did 2 samples of the top 6 with a 20 %
//! reserve: ≈ 120 ms a ply where the control takes ≈ 57; experiments/train/hybrid.md). With `W = 0`
//! (the default) nothing of this runs and the bot plays as without `vmix`.
//!
//! It plays every game of the contract: PIMC is the game's `pimc` bot
//! (`engine::search::from_spec`; the RULES.md variants' own), the values are the game's
//! observations ([`Observe`]).
//!
//! Information: both halves see only the mover's information set (the PIMC bot samples its
//! determinizations for the mover, as [`root_values`] does) and the game's public record.

use crate::search::{end_value_for, resolve_chance};
use engine::game::{Action, PlayerId, Turn};
use engine::observe::Observe;
use engine::search::{Analysis, GameAnalysis, Scored};
use models::net::Net;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

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
    /// `vmix=W`: weight of the net's value of each root action ([`root_values`], in cp by
    /// [`value_cp`]); dimensionless, non-negative; 0 turns the value term off.
    pub value_weight: f64,
}

impl Default for HybridRoot {
    /// `share = 0.5`, `prior_cp = 40`, `k = 64`, `value_weight = 0`.
    fn default() -> Self {
        HybridRoot { share: 0.5, prior_cp: 40.0, k: 64, value_weight: 0.0 }
    }
}

/// Determinizations of the mover's view over which [`root_values`] averages each action's value.
pub const VALUE_SAMPLES: u32 = 1;

/// PIMC's best actions (by its centipawns) that the net values under `vmix`; the others are not
/// candidates.
pub const VALUE_TOP: usize = 4;

/// Share of the time left after the net's search that `vmix` keeps for the value call (PIMC
/// gets the rest).
pub const VALUE_RESERVE: f64 = 0.4;

/// Centipawns per unit of `atanh(v)` in [`value_cp`].
pub const VALUE_SCALE_CP: f64 = 600.0;

/// [`value_cp`] clips the value to `±VALUE_CLIP` before `atanh`.
pub const VALUE_CLIP: f64 = 0.95;

/// A value `v` in [-1, 1] (win minus loss probability) in centipawns:
/// `VALUE_SCALE_CP · atanh(clamp(v, ±VALUE_CLIP))` (the inverse of a `tanh` squashing of a
/// centipawn score; at most ±1,099 cp). NaN counts as 0.
pub fn value_cp(v: f64) -> f64 {
    let v = if v.is_nan() { 0.0 } else { v.clamp(-VALUE_CLIP, VALUE_CLIP) };
    VALUE_SCALE_CP * v.atanh()
}

/// The net's value of each of `actions` (legal for `player`, to act in `g`) for `player`, in
/// [-1, 1]: the mean over `samples` determinizations drawn for `player` (with a generator seeded
/// by `seed`; the same determinizations for every action) of the value after the action and its
/// chance outcome (drawn likewise): the game's end value when the line ends there
/// ([`end_value_for`]), else the net's value of the observation of the player then to act,
/// negated when that player is the opponent. This is how the farm's search values a leaf. An
/// action not legal in a determinization counts 0 there. One batched net call; values in the
/// order of `actions`.
///
/// Information: a function of `player`'s information set, `actions` and `seed` only.
///
/// # Panics
/// When `net` is not of `g`'s encoding ([`Observe::encoding`]); callers load it for it.
pub fn root_values<G: Scored + Observe>(net: &Net, g: &G, player: PlayerId, actions: &[Action], samples: u32, seed: u64) -> Vec<(Action, f64)> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let len = net.encoding().obs_len();
    let mut obs: Vec<f32> = Vec::new();
    // Per (sample, action): Ok(end value for the player) or Err((batch row, sign)).
    let mut slots: Vec<Result<f64, (usize, f64)>> = Vec::with_capacity(samples as usize * actions.len());
    let mut rows = 0;
    for _ in 0..samples.max(1) {
        let mut det = g.sample_determinization(player, &mut rng);
        resolve_chance(&mut det, &mut rng);
        let legal = det.legal_actions();
        for &a in actions {
            if !legal.contains(&a) {
                slots.push(Ok(0.0));
                continue;
            }
            let mut s = det.clone();
            s.apply(a);
            resolve_chance(&mut s, &mut rng);
            let to_act = match s.turn() {
                Turn::Player(p) => p,
                _ => {
                    slots.push(Ok(f64::from(end_value_for(&s, player))));
                    continue;
                }
            };
            obs.resize((rows + 1) * len, 0.0);
            s.observe_into(to_act, &mut obs[rows * len..]);
            slots.push(Err((rows, if to_act == player { 1.0 } else { -1.0 })));
            rows += 1;
        }
    }
    let none: Vec<&[u16]> = vec![&[]; rows];
    let ev = net.evaluate(&obs, &none);
    let mut sum = vec![0.0; actions.len()];
    for (i, slot) in slots.iter().enumerate() {
        sum[i % actions.len().max(1)] += match *slot {
            Ok(v) => v,
            Err((row, sign)) => sign * f64::from(ev.value(row)),
        };
    }
    let n = f64::from(samples.max(1));
    actions.iter().zip(sum).map(|(&a, s)| (a, s / n)).collect()
}

impl HybridRoot {
    /// Determinizations when the decision has no time budget (PIMC's own default).
    pub const UNTIMED_K: u32 = 8;
}

/// Runs the PIMC half on `g` (the game's `pimc:search=expectimax:depth=2`: determinizations of
/// the mover's information set, searched with the game's record): `k` determinizations,
/// stopping early after `ms` milliseconds (at least one determinization) when a budget is given.
pub fn pimc_scores<G: Scored>(g: &G, ms: Option<u64>, k: u32, seed: u64) -> GameAnalysis {
    // The expectimax inner search by name: the root's mean scores over determinizations are what
    // `combine` ranks (the published hybrids were measured with it; `pimc`'s default on the
    // variants became the alpha-beta in issue 36).
    let ms = ms.map_or(String::new(), |m| format!(",ms={}", m.max(1)));
    let spec = format!("pimc:k={k}{ms},search=expectimax:depth=2");
    let mut bot = engine::search::from_spec::<G>(&spec, seed).unwrap_or_else(|e| panic!("{spec}: {e}"));
    bot.analyse(g)
}

/// The PIMC root's choice in `g` (the player to act's decision) after the net's search
/// (`policy`, as in [`combine`]): PIMC ([`pimc_scores`] with `seed`) until `deadline` (at most
/// `h.k` determinizations; [`HybridRoot::UNTIMED_K`] without a deadline); when
/// `h.value_weight > 0`, PIMC stops [`VALUE_RESERVE`] of the time left earlier and the net values
/// PIMC's [`VALUE_TOP`] best actions ([`root_values`], [`VALUE_SAMPLES`] determinizations drawn
/// from `seed`); combined by [`combine`]. With `h.value_weight = 0` the net is not called and the
/// choice is [`combine`] of PIMC's scores alone. `None` where no player is to act.
pub fn choose<G: Scored + Observe>(net: &Net, g: &G, policy: &[(Action, f32, u32, Option<f32>)], h: &HybridRoot, deadline: Option<Instant>, seed: u64) -> Option<Action> {
    let player = g.turn().player()?;
    let on = h.value_weight > 0.0;
    let left = deadline.map(|t| t.saturating_duration_since(Instant::now()));
    let left = left.map(|l| if on { l.mul_f64(1.0 - VALUE_RESERVE) } else { l }.as_millis() as u64);
    let k = if left.is_some() { h.k } else { HybridRoot::UNTIMED_K };
    let pimc = pimc_scores(g, left, k, seed);
    let values = on.then(|| {
        let mut ranked: Vec<(Action, f64)> = pimc.stats.iter().map(|s| (s.action, s.score)).collect();
        ranked.sort_by(|x, y| y.1.total_cmp(&x.1));
        let top: Vec<Action> = ranked.into_iter().take(VALUE_TOP).map(|x| x.0).collect();
        root_values(net, g, player, &top, VALUE_SAMPLES, seed ^ 0x76_6d69_78)
    });
    combine(policy, &pimc, h.prior_cp, values.as_deref().map(|v| (v, h.value_weight)))
}

/// The action maximising `pimc_cp(a) + W · value_cp(v(a)) + prior_cp · ln π(a)` (see the module
/// docs), `values = Some((v, W))` the mover's values of the candidate actions ([`root_values`];
/// with `W > 0` an action without one ranks below every valued one) and the weight, `None` for no
/// value term. `policy` is
/// [`crate::search::Search::root_policy`]; actions PIMC did not score rank below every scored
/// one. Ties go to the higher `π`. `None` when `policy` is empty.
pub fn combine<A: Copy + PartialEq>(policy: &[(A, f32, u32, Option<f32>)], pimc: &Analysis<A>, prior_cp: f64, values: Option<(&[(A, f64)], f64)>) -> Option<A> {
    let visits: u32 = policy.iter().map(|p| p.2).sum();
    let pi = |prior: f32, n: u32| (f64::from(n) + f64::from(prior)) / (f64::from(visits) + 1.0);
    let score = |a: A| pimc.stats.iter().find(|s| s.action == a).map(|s| s.score);
    let bonus = |a: A| match values {
        Some((v, w)) if w != 0.0 => v.iter().find(|x| x.0 == a).map_or(f64::NEG_INFINITY, |x| w * value_cp(x.1)),
        _ => 0.0,
    };
    policy
        .iter()
        .map(|&(a, prior, n, _)| {
            let p = pi(prior, n).max(1e-6);
            let total = score(a).map_or(f64::NEG_INFINITY, |cp| cp + bonus(a) + prior_cp * p.ln());
            (a, total, p)
        })
        .max_by(|x, y| x.1.total_cmp(&y.1).then(x.2.total_cmp(&y.2)))
        .map(|(a, _, _)| a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::search::{ActionStat, Analysis, Rank};
    use engine::game::Game;
    use engine::variant::Action;

    fn analysis(legal: &[Action], scores: &[f64]) -> Analysis {
        let stats = legal.iter().zip(scores).map(|(&a, &s)| ActionStat { action: a, share: 0.0, score: s, visits: 1 }).collect();
        Analysis::from_stats(legal, stats, Rank::Score, "cp", 1, "determinizations", 0, std::time::Instant::now())
    }

    fn moves() -> Vec<Action> {
        let v: &'static engine::variant::Variant = engine::any_game::load_variant("xiangqi").expect("xiangqi");
        let s = engine::variant::State::start(v, None).expect("start");
        s.legal_actions().into_iter().take(3).collect()
    }

    #[test]
    fn the_prior_breaks_a_pimc_tie() {
        let m = moves();
        let pol = vec![(m[0], 0.1, 0, None), (m[1], 0.8, 0, None), (m[2], 0.1, 0, None)];
        assert_eq!(combine(&pol, &analysis(&m, &[0.0, 0.0, 0.0]), 40.0, None), Some(m[1]));
    }

    #[test]
    fn a_tactical_gain_beats_the_prior() {
        let m = moves();
        let pol = vec![(m[0], 0.05, 0, None), (m[1], 0.9, 0, None), (m[2], 0.05, 0, None)];
        // ln(0.9/0.05) * 40 = 116 cp < 300 cp.
        assert_eq!(combine(&pol, &analysis(&m, &[300.0, 0.0, 0.0]), 40.0, None), Some(m[0]));
        // ... and a small one does not.
        assert_eq!(combine(&pol, &analysis(&m, &[50.0, 0.0, 0.0]), 40.0, None), Some(m[1]));
    }

    #[test]
    fn visits_count_with_the_prior() {
        let m = moves();
        // Prior favours m[0]; the search's 20 visits went to m[2].
        let pol = vec![(m[0], 0.6, 0, None), (m[1], 0.2, 0, None), (m[2], 0.2, 20, Some(0.3))];
        assert_eq!(combine(&pol, &analysis(&m, &[0.0, 0.0, 0.0]), 40.0, None), Some(m[2]));
    }

    #[test]
    fn value_cp_is_odd_monotone_and_clipped() {
        assert_eq!(value_cp(0.0), 0.0);
        assert_eq!(value_cp(f64::NAN), 0.0);
        assert!((value_cp(0.5) + value_cp(-0.5)).abs() < 1e-9);
        assert!(value_cp(0.2) < value_cp(0.5));
        // 600 · atanh(0.95) = 1,099 cp, and no more for a certain win.
        assert!((value_cp(1.0) - 1099.0).abs() < 1.0, "{}", value_cp(1.0));
        assert_eq!(value_cp(1.0), value_cp(0.99));
    }

    #[test]
    fn the_value_term_weighs_in_and_weight_zero_is_none() {
        let m = moves();
        let pol = vec![(m[0], 0.34, 0, None), (m[1], 0.33, 0, None), (m[2], 0.33, 0, None)];
        let pimc = analysis(&m, &[50.0, 0.0, 0.0]);
        // m[1] is worth 0.5 (330 cp) more to the net than m[0]: W = 1 follows the net, W = 0.1
        // (33 cp < 50 cp) and W = 0 follow PIMC, as does no value term at all.
        let v = vec![(m[0], 0.0), (m[1], 0.5), (m[2], -0.5)];
        assert_eq!(combine(&pol, &pimc, 0.0, Some((&v, 1.0))), Some(m[1]));
        assert_eq!(combine(&pol, &pimc, 0.0, Some((&v, 0.1))), Some(m[0]));
        assert_eq!(combine(&pol, &pimc, 0.0, Some((&v, 0.0))), Some(m[0]));
        assert_eq!(combine(&pol, &pimc, 0.0, None), Some(m[0]));
        // An action the values do not name is no candidate.
        assert_eq!(combine(&pol, &pimc, 0.0, Some((&v[2..], 1.0))), Some(m[2]));
    }

    #[test]
    fn root_values_cover_the_actions_and_are_seeded() {
        let v: &'static engine::variant::Variant = engine::any_game::load_variant("surprise").expect("surprise");
        let net = Net::new(&models::net::NetConfig::new(1, 8), tch::Device::Cpu, 3);
        let mut g = engine::variant::game_state::VariantGameState::unbounded(engine::variant::State::new_game(v));
        let mut rng = Pcg64Mcg::seed_from_u64(2);
        while g.state().in_setup() || g.state().is_chance() {
            let acts = g.state().legal_actions();
            let a = acts[rand::Rng::random_range(&mut rng, 0..acts.len())];
            g.play(a, |outs| outs[0].0);
        }
        let me = g.turn().player().expect("a player to act");
        let legal = g.legal_actions();
        let vals = root_values(&net, &g, me, &legal, 3, 9);
        assert_eq!(vals.iter().map(|x| x.0).collect::<Vec<_>>(), legal);
        assert!(vals.iter().all(|x| (-1.0..=1.0).contains(&x.1)), "{vals:?}");
        assert_eq!(vals, root_values(&net, &g, me, &legal, 3, 9));
        // A subset of the actions: one value each, in its order.
        let sub = [legal[2], legal[0]];
        assert_eq!(root_values(&net, &g, me, &sub, 3, 9).iter().map(|x| x.0).collect::<Vec<_>>(), sub);
    }

    #[test]
    fn unscored_actions_rank_last() {
        let m = moves();
        let pol = vec![(m[0], 0.9, 0, None), (m[1], 0.1, 0, None)];
        assert_eq!(combine(&pol, &analysis(&m[1..2], &[-500.0]), 40.0, None), Some(m[1]));
        assert_eq!(combine(&[], &analysis(&m, &[0.0, 0.0, 0.0]), 40.0, None), None);
    }

    /// The PIMC half scores the root of a RULES-more game (the generic `pimc` with the
    /// expectimax inner search analyses, session 33), so that [`combine`] weighs several actions
    /// rather than PIMC's choice alone.
    #[test]
    fn pimc_scores_several_actions_of_a_rules_more_game() {
        let g = engine::more::missile::MissileGame::preset("missile").expect("preset");
        let an = pimc_scores(&g, None, 2, 7);
        let legal = g.legal_actions();
        assert!(an.stats.len() >= 2, "{} scored", an.stats.len());
        assert!(an.stats.iter().all(|s| legal.contains(&s.action) && s.visits >= 1));
        assert_eq!((an.score_unit, an.work), ("cp", 2));
        assert!(an.stats.windows(2).all(|w| w[0].score >= w[1].score), "best score first");
    }
}
