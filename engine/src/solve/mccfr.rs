//! Monte Carlo CFR (Lanctot, Waugh, Zinkevich & Bowling 2009, "Monte Carlo Sampling for Regret
//! Minimization in Extensive Games"): external sampling and outcome sampling, on the game
//! itself (no compiled tree), with tables keyed by information-set key.
//!
//! Both follow OpenSpiel's `ExternalSamplingSolver` (simple averaging) and
//! `OutcomeSamplingSolver` (no baseline): one iteration is one sampled walk per player, in seat
//! order. Runs are deterministic given the seed (PCG-64 MCG, `rand_pcg::Pcg64Mcg`).
//!
//! * External sampling: chance and the opponent sample one action (the opponent from its current
//!   strategy); the updating player explores every action and adds the sampled counterfactual
//!   regrets `v(I·a) - v(I)`. The opponent's average strategy gets its current strategy added at
//!   every visited opponent node (stochastically weighted averaging).
//! * Outcome sampling: one trajectory; the updating player samples from an ε-greedy mix of its
//!   current strategy and uniform (ε = 0.6 by default, as OpenSpiel), and regrets and averages
//!   are importance-weighted by `1 / q(z)`, the sampling probability of the trajectory.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::cfr::regret_matching;
use super::policy::{InfosetPolicy, TabularPolicy};
use super::SolveError;
use crate::game::{Action, Game, PlayerId, Turn, Utility};

/// Default exploration ε of outcome sampling (OpenSpiel's default).
pub const DEFAULT_EXPLORATION: f64 = 0.6;

/// Which Monte Carlo CFR variant to run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sampling {
    /// External sampling: sample chance and the opponent, explore all own actions.
    External,
    /// Outcome sampling: sample one trajectory; the updating player mixes in uniform
    /// exploration with weight `epsilon` (in (0, 1]).
    Outcome {
        /// Exploration weight ε.
        epsilon: f64,
    },
}

/// A Monte Carlo CFR solver over any two-player zero-sum [`Game`].
#[derive(Clone, Debug)]
pub struct MccfrSolver<G: Game> {
    root: G,
    sampling: Sampling,
    table: InfosetTable,
    rng: Pcg64Mcg,
    /// Per-depth scratch lists, reused across walks to avoid allocation.
    frames: Vec<Frame>,
    iteration: u64,
}

impl<G: Game> MccfrSolver<G> {
    /// A solver starting from `root` with zero regrets, seeded with `seed`.
    ///
    /// # Errors
    /// [`SolveError::Unsupported`] unless the game is two-player zero-sum or constant-sum, or
    /// if an outcome-sampling ε is outside (0, 1].
    pub fn new(root: G, sampling: Sampling, seed: u64) -> Result<MccfrSolver<G>, SolveError> {
        let info = root.info();
        if info.num_players != 2 || info.utility == Utility::GeneralSum {
            return Err(SolveError::Unsupported(format!(
                "{}: MCCFR needs a two-player zero-sum game",
                info.name
            )));
        }
        if let Sampling::Outcome { epsilon } = sampling {
            if !(epsilon > 0.0 && epsilon <= 1.0) {
                return Err(SolveError::Unsupported(format!(
                    "outcome sampling needs 0 < epsilon <= 1, got {epsilon}"
                )));
            }
        }
        Ok(MccfrSolver {
            root,
            sampling,
            table: InfosetTable::default(),
            rng: Pcg64Mcg::seed_from_u64(seed),
            frames: Vec::new(),
            iteration: 0,
        })
    }

    /// Number of completed iterations.
    pub fn iterations(&self) -> u64 {
        self.iteration
    }

    /// Number of information sets seen so far.
    pub fn num_infosets(&self) -> usize {
        self.table.entries.len()
    }

    /// Runs one iteration: one sampled walk for each player.
    pub fn iterate(&mut self) {
        self.iteration += 1;
        let root = self.root.clone();
        for player in PlayerId::BOTH {
            match self.sampling {
                Sampling::External => {
                    self.external(&root, player, 0);
                }
                Sampling::Outcome { epsilon } => {
                    self.outcome(
                        &root,
                        player,
                        0,
                        epsilon,
                        Reach {
                            own: 1.0,
                            opponent: 1.0,
                            sample: 1.0,
                        },
                    );
                }
            }
        }
    }

    /// Runs `n` iterations.
    pub fn run(&mut self, n: u64) {
        for _ in 0..n {
            self.iterate();
        }
    }

    /// The average strategy (normalised average sums; uniform where nothing was accumulated).
    pub fn average_policy(&self) -> TabularPolicy {
        let mut policy = TabularPolicy::new();
        for e in &self.table.entries {
            let slots = e.offset as usize..(e.offset + e.len) as usize;
            let mut probs = self.table.average[slots.clone()].to_vec();
            let total: f64 = probs.iter().sum();
            if total > 0.0 {
                probs.iter_mut().for_each(|p| *p /= total);
            } else {
                probs.fill(1.0 / f64::from(e.len));
            }
            policy.insert(
                e.player,
                e.key,
                InfosetPolicy {
                    actions: self.table.actions[slots].to_vec(),
                    probs,
                },
            );
        }
        policy
    }

    /// Takes the scratch frame for `depth` (returned with [`MccfrSolver::put_frame`]).
    fn take_frame(&mut self, depth: usize) -> Frame {
        if self.frames.len() <= depth {
            self.frames.resize_with(depth + 1, Frame::default);
        }
        std::mem::take(&mut self.frames[depth])
    }

    /// Returns a scratch frame taken with [`MccfrSolver::take_frame`].
    fn put_frame(&mut self, depth: usize, frame: Frame) {
        self.frames[depth] = frame;
    }

    /// External-sampling walk; returns the sampled value of `state` for `player`.
    fn external(&mut self, state: &G, player: PlayerId, depth: usize) -> f64 {
        let mut f = self.take_frame(depth);
        let value = match state.turn() {
            Turn::Terminal => state.returns(player),
            Turn::Chance => {
                state.chance_outcomes_into(&mut f.outcomes);
                let i = sample_index(f.outcomes.iter().map(|o| o.1), &mut self.rng);
                let action = f.outcomes[i].0;
                self.external(&state.child(action), player, depth + 1)
            }
            Turn::Player(cur) => {
                state.legal_actions_into(&mut f.actions);
                let n = f.actions.len();
                let off = self.table.lookup(cur, state.infoset_key(cur), &f.actions);
                f.policy.resize(n, 0.0);
                regret_matching(&self.table.regret[off..off + n], &mut f.policy);
                if cur != player {
                    let i = sample_index(f.policy.iter().copied(), &mut self.rng);
                    let v = self.external(&state.child(f.actions[i]), player, depth + 1);
                    for (avg, p) in self.table.average[off..off + n].iter_mut().zip(&f.policy) {
                        *avg += p;
                    }
                    v
                } else {
                    f.values.clear();
                    let mut v = 0.0;
                    for i in 0..n {
                        let child = self.external(&state.child(f.actions[i]), player, depth + 1);
                        f.values.push(child);
                        v += f.policy[i] * child;
                    }
                    for (r, child) in self.table.regret[off..off + n].iter_mut().zip(&f.values) {
                        *r += child - v;
                    }
                    v
                }
            }
        };
        self.put_frame(depth, f);
        value
    }

    /// Outcome-sampling walk; returns the importance-weighted value estimate of `state` for
    /// `player` (OpenSpiel's `value_estimate`).
    fn outcome(
        &mut self,
        state: &G,
        player: PlayerId,
        depth: usize,
        epsilon: f64,
        reach: Reach,
    ) -> f64 {
        let mut f = self.take_frame(depth);
        let value = match state.turn() {
            Turn::Terminal => state.returns(player),
            Turn::Chance => {
                state.chance_outcomes_into(&mut f.outcomes);
                let i = sample_index(f.outcomes.iter().map(|o| o.1), &mut self.rng);
                let (action, q) = f.outcomes[i];
                let next = Reach {
                    opponent: reach.opponent * q,
                    sample: reach.sample * q,
                    ..reach
                };
                self.outcome(&state.child(action), player, depth + 1, epsilon, next)
            }
            Turn::Player(cur) => {
                state.legal_actions_into(&mut f.actions);
                let n = f.actions.len();
                let off = self.table.lookup(cur, state.infoset_key(cur), &f.actions);
                f.policy.resize(n, 0.0);
                regret_matching(&self.table.regret[off..off + n], &mut f.policy);
                // f.values holds the sampling policy.
                f.values.clear();
                if cur == player {
                    let u = epsilon / n as f64;
                    f.values
                        .extend(f.policy.iter().map(|p| u + (1.0 - epsilon) * p));
                } else {
                    f.values.extend_from_slice(&f.policy);
                }
                let i = sample_index(f.values.iter().copied(), &mut self.rng);
                let (p, q) = (f.policy[i], f.values[i]);
                let next = if cur == player {
                    Reach {
                        own: reach.own * p,
                        sample: reach.sample * q,
                        ..reach
                    }
                } else {
                    Reach {
                        opponent: reach.opponent * p,
                        sample: reach.sample * q,
                        ..reach
                    }
                };
                let child_value =
                    self.outcome(&state.child(f.actions[i]), player, depth + 1, epsilon, next);
                // Estimated child values: child_value / q for the sampled action, 0 otherwise.
                let sampled_estimate = child_value / q;
                let value_estimate = p * sampled_estimate;
                if cur == player {
                    let w = reach.opponent / reach.sample;
                    let cf_value = value_estimate * w;
                    let regret = &mut self.table.regret[off..off + n];
                    for (b, r) in regret.iter_mut().enumerate() {
                        let action_value = if b == i { sampled_estimate * w } else { 0.0 };
                        *r += action_value - cf_value;
                    }
                    let scale = reach.own / reach.sample;
                    for (avg, p) in self.table.average[off..off + n].iter_mut().zip(&f.policy) {
                        *avg += scale * p;
                    }
                }
                value_estimate
            }
        };
        self.put_frame(depth, f);
        value
    }
}

/// Reach probabilities carried by an outcome-sampling walk.
#[derive(Clone, Copy, Debug)]
struct Reach {
    /// The updating player's own reach under the current strategy.
    own: f64,
    /// Reach due to chance and the opponent.
    opponent: f64,
    /// Probability that the sampling policy produced this history.
    sample: f64,
}

/// Scratch lists for one depth of a walk.
#[derive(Clone, Debug, Default)]
struct Frame {
    actions: Vec<Action>,
    outcomes: Vec<(Action, f64)>,
    policy: Vec<f64>,
    values: Vec<f64>,
}

/// Draws an index with probability proportional to `weights` (which sum to 1).
fn sample_index<R: Rng + ?Sized>(weights: impl Iterator<Item = f64>, rng: &mut R) -> usize {
    let u: f64 = rng.random();
    let mut acc = 0.0;
    let mut last = 0;
    for (i, w) in weights.enumerate() {
        if w > 0.0 {
            acc += w;
            last = i;
            if u < acc {
                return i;
            }
        }
    }
    // Rounding left `u` above the total: take the last action with positive weight.
    last
}

/// One information set's place in the tables.
#[derive(Clone, Debug)]
struct TableEntry {
    player: PlayerId,
    key: u64,
    offset: u32,
    len: u32,
}

/// Regret and average-strategy tables keyed by (player, information-set key).
#[derive(Clone, Debug, Default)]
struct InfosetTable {
    index: HashMap<(PlayerId, u64), u32, BuildHasherDefault<KeyHasher>>,
    entries: Vec<TableEntry>,
    regret: Vec<f64>,
    average: Vec<f64>,
    actions: Vec<Action>,
}

impl InfosetTable {
    /// Offset of the information set's slots, creating zeroed slots on first sight.
    fn lookup(&mut self, player: PlayerId, key: u64, actions: &[Action]) -> usize {
        if let Some(&e) = self.index.get(&(player, key)) {
            return self.entries[e as usize].offset as usize;
        }
        let offset = self.regret.len();
        let len = actions.len();
        self.index.insert((player, key), self.entries.len() as u32);
        self.entries.push(TableEntry {
            player,
            key,
            offset: offset as u32,
            len: len as u32,
        });
        self.regret.resize(offset + len, 0.0);
        self.average.resize(offset + len, 0.0);
        self.actions.extend_from_slice(actions);
        offset
    }
}

/// A fast hasher for keys that are already (or nearly) hashes: multiply-rotate, then a
/// SplitMix64 finaliser so that structured keys (bit-packed histories) spread well.
#[derive(Clone, Copy, Debug, Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn finish(&self) -> u64 {
        let mut z = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}
