//! Training targets from a classical bot's decisions: the supervised warm start of a run
//! (`[warmstart]` of a training config), as AlphaGo's policy net began from expert moves (Silver
//! et al., Nature 529, 2016) and as many small-compute AlphaZero reproductions start from a
//! search bot's games. A teacher (`expectimax`, `pimc`, … of `engine::search::from_spec`) plays
//! both sides with the game's history; at each of its decisions the farm records what the mover
//! saw (its view's observation and legal slots, as for the net's own decisions) with
//!
//! * a **policy target**: the softmax of the teacher's action scores at
//!   [`TeacherTargets::temperature_cp`] when it scores in centipawns (expectimax, PIMC), else
//!   its preference shares (IS-MCTS visit shares);
//! * a **search value** (`Sample::q`): `0.9 tanh(best / scale_cp)` of the best score (a mate as
//!   ±1), or the best score itself when the teacher scores in expected result;
//!
//! and the game's result as the outcome. The opening plies are sampled from the policy target
//! (the job's temperature plies) so that games differ. A bot that does not analyse (`greedy`,
//! `random`, the generic `alphabeta`: their analysis is their choice alone) teaches its choice
//! and the game's evaluation after it ([`generic_targets`]); `ismcts`, `pimc` and `expectimax`
//! analyse in every game.

use engine::search::Analysis;
use engine::search::expectimax::MATE;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// How a teacher's analysis becomes targets.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeacherTargets {
    /// Softmax temperature over centipawn scores (100: a move a soldier worse gets e^-1 of the
    /// best one's weight).
    #[serde(default = "default_temperature_cp")]
    pub temperature_cp: f32,
    /// Centipawns that map to `tanh(1)` in the value target.
    #[serde(default = "default_scale_cp")]
    pub scale_cp: f32,
}

fn default_temperature_cp() -> f32 {
    100.0
}
fn default_scale_cp() -> f32 {
    600.0
}

impl Default for TeacherTargets {
    fn default() -> Self {
        TeacherTargets { temperature_cp: default_temperature_cp(), scale_cp: default_scale_cp() }
    }
}

/// A teacher decision's targets: `(action, slot, probability)` over the analysed actions (sums
/// to 1; the best action alone when the analysis has no statistics), each action's policy slot
/// by `slot`, and the search value for the mover.
pub fn targets<A: Copy + PartialEq>(an: &Analysis<A>, slot: impl Fn(A) -> u16, t: &TeacherTargets) -> (Vec<(A, u16, f32)>, f32) {
    if an.stats.is_empty() {
        return (vec![(an.best, slot(an.best), 1.0)], 0.0);
    }
    let cp = an.score_unit == "cp";
    let weights: Vec<f64> = if cp {
        let best = an.stats.iter().map(|s| s.score).fold(f64::NEG_INFINITY, f64::max);
        let temp = f64::from(t.temperature_cp.max(1e-3));
        an.stats.iter().map(|s| ((s.score - best) / temp).exp()).collect()
    } else {
        an.stats.iter().map(|s| s.share.max(0.0)).collect()
    };
    let total: f64 = weights.iter().sum();
    let policy: Vec<(A, u16, f32)> = if total > 0.0 {
        an.stats.iter().zip(&weights).filter(|(_, w)| **w > 0.0).map(|(s, w)| (s.action, slot(s.action), (w / total) as f32)).collect()
    } else {
        vec![(an.best, slot(an.best), 1.0)]
    };
    let best = an.stats.iter().find(|s| s.action == an.best).or(an.stats.first()).map_or(0.0, |s| s.score);
    let q = if cp {
        if best.abs() >= MATE - 1_000.0 {
            best.signum() as f32
        } else {
            0.9 * (best as f32 / t.scale_cp.max(1.0)).tanh()
        }
    } else {
        best.clamp(-1.0, 1.0) as f32
    };
    (policy, q)
}

/// A teacher decision of a bot that reports its choice alone (`greedy`, `random`, the generic
/// `alphabeta`) as targets: the policy target is the teacher's action `best` alone, and the search value for
/// `me` (the mover) is the game's result when `best` ends it (scaled to [-1, 1] by the game's
/// utility bounds), else `0.9 tanh(eval / scale_cp)` of the game's static evaluation
/// ([`engine::search::Scored::eval_cp`], centipawns for `me`) after `best`. The evaluation reads
/// the full state: it is a training target, as the game's outcome is, never an input.
pub fn generic_targets<G: engine::search::Scored + engine::observe::Observe>(g: &G, me: engine::game::PlayerId, best: engine::game::Action, t: &TeacherTargets) -> (Vec<(engine::game::Action, u16, f32)>, f32, engine::game::Action) {
    let slot = g.action_index(best) as u16;
    let after = g.child(best);
    let q = if after.turn() == engine::game::Turn::Terminal {
        crate::search::end_value_for(&after, me)
    } else {
        0.9 * (after.eval_cp(me) as f32 / t.scale_cp.max(1.0)).tanh()
    };
    (vec![(best, slot, 1.0)], q, best)
}

/// Draws an action (of any game) from a policy target (probabilities summing to 1).
pub fn sample<A: Copy>(policy: &[(A, u16, f32)], rng: &mut impl Rng) -> Option<A> {
    let mut x: f32 = rng.random();
    for (a, _, p) in policy {
        if x < *p {
            return Some(*a);
        }
        x -= p;
    }
    policy.last().map(|p| p.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::search::{ActionStat, Rank};
    use engine::variant::{Action, State};
    use engine::Color;
    use models::encoding;

    fn slot(a: Action) -> u16 {
        encoding::action_index(a, Color::Red) as u16
    }

    fn analysis(scores: &[f64], unit: &'static str) -> (Analysis, Vec<Action>) {
        let v = engine::any_game::load_variant("xiangqi").unwrap();
        let s = State::new_game(v);
        let legal = s.legal_actions();
        let stats = legal
            .iter()
            .zip(scores)
            .map(|(&a, &sc)| ActionStat { action: a, share: if unit == "cp" { 0.0 } else { sc }, score: sc, visits: 1 })
            .collect();
        (Analysis::from_stats(&legal, stats, if unit == "cp" { Rank::Score } else { Rank::Share }, unit, 1, "x", 0, std::time::Instant::now()), legal)
    }

    #[test]
    fn centipawn_scores_become_a_softmax_and_a_tanh_value() {
        let (an, legal) = analysis(&[100.0, 0.0, -900.0], "cp");
        let (p, q) = targets(&an, slot, &TeacherTargets::default());
        let sum: f32 = p.iter().map(|x| x.2).sum();
        assert!((sum - 1.0).abs() < 1e-5);
        let of = |a: Action| p.iter().find(|x| x.0 == a).map_or(0.0, |x| x.2);
        assert!((of(legal[0]) / of(legal[1]) - std::f32::consts::E).abs() < 1e-3, "one soldier = a factor e at 100 cp");
        assert!(of(legal[2]) < 1e-4);
        assert!((q - 0.9 * (100.0f32 / 600.0).tanh()).abs() < 1e-6);
        assert_eq!(p[0].1 as usize, encoding::action_index(p[0].0, Color::Red));
    }

    #[test]
    fn a_mate_score_is_a_full_win() {
        let (an, _) = analysis(&[MATE - 3.0, 0.0], "cp");
        assert_eq!(targets(&an, slot, &TeacherTargets::default()).1, 1.0);
        let (an, _) = analysis(&[-(MATE - 2.0), -(MATE - 4.0)], "cp");
        assert_eq!(targets(&an, slot, &TeacherTargets::default()).1, -1.0);
    }

    /// Along random missile games: the target is the teacher's action alone, at its slot; the
    /// value is the result where the action ends the game, else a squashed evaluation.
    #[test]
    fn a_more_games_teacher_gives_its_choice_and_the_evaluation_after_it() {
        use engine::game::{Game, Turn};
        use engine::search::game_bot::GameBot;
        use engine::observe::Observe;
        use engine::search::Scored;
        use rand::SeedableRng;
        let mut g = engine::more::missile::MissileGame::preset("missile").expect("preset");
        let mut greedy = engine::search::GreedyBot::new(1);
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(2);
        let (mut ended, mut plies) = (0, 0);
        while let Turn::Player(me) = g.turn() {
            let best = GameBot::choose(&mut greedy, &g);
            let (policy, q, chosen) = generic_targets(&g, me, best, &TeacherTargets::default());
            assert_eq!((policy.len(), policy[0].0, policy[0].1 as usize, policy[0].2, chosen), (1, best, g.action_index(best), 1.0, best));
            let after = g.child(best);
            if after.turn() == Turn::Terminal {
                assert_eq!(q, after.returns(me) as f32);
                ended += 1;
            } else {
                assert!(q.abs() < 0.9 && (q == 0.0) == (after.eval_cp(me) == 0), "{q}");
            }
            // Half the moves random, so that the game ends in a few hundred plies.
            let acts = g.legal_actions();
            let a = if plies % 2 == 0 { best } else { acts[rand::Rng::random_range(&mut rng, 0..acts.len())] };
            g.apply(a);
            plies += 1;
            assert!(plies < 3_000);
        }
        assert!(plies > 0 && ended <= 1);
    }

    /// An analysing teacher in a RULES-more game (the generic IS-MCTS) teaches its visit shares
    /// over several actions at their slots, and its root value.
    #[test]
    fn a_more_games_analysing_teacher_gives_its_distribution() {
        use engine::observe::Observe;
        use engine::search::game_bot::GameBot;
        let g = engine::more::missile::MissileGame::preset("missile").expect("preset");
        let cfg = engine::search::ismcts::IsmctsConfig::from_params("iterations=300").expect("cfg");
        let mut bot = engine::search::ismcts::GameIsmctsBot::new(cfg, 3);
        let an = GameBot::analyse(&mut bot, &g);
        let (p, q) = targets(&an, |a| g.action_index(a) as u16, &TeacherTargets::default());
        assert!(p.len() >= 2, "{p:?}");
        assert!((p.iter().map(|x| x.2).sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(p.iter().all(|x| x.1 as usize == g.action_index(x.0)));
        assert!(q.abs() <= 1.0 && q == an.stats[0].score as f32, "{q}");
    }

    #[test]
    fn visit_shares_are_taken_as_they_are() {
        let (an, legal) = analysis(&[0.75, 0.25], "value");
        let (p, q) = targets(&an, slot, &TeacherTargets::default());
        assert_eq!(p.iter().find(|x| x.0 == legal[0]).unwrap().2, 0.75);
        assert_eq!(q, 0.75);
    }
}
