//! Full-width counterfactual regret minimisation on a compiled tree: vanilla CFR
//! (Zinkevich, Johanson, Bowling & Piccione 2007, "Regret Minimization in Games with Incomplete
//! Information"), CFR+ (Tammelin 2014, "Solving Large Imperfect Information Games Using CFR+")
//! and discounted CFR (Brown & Sandholm 2019, "Solving Imperfect-Information Games via
//! Discounted Regret Minimization").
//!
//! All three use alternating updates as OpenSpiel's `CFRSolver`, `CFRPlusSolver` and
//! `DCFRSolver` do: iteration `t` (from 1) runs, for each player `p` in seat order,
//!
//! 1. add `w(t) · π_p(I) · σ_p(I, a)` to `p`'s average-strategy sums, where `π_p(I)` is `p`'s own
//!    reach probability of `I` and `w(t)` the averaging weight;
//! 2. one tree walk with the current profile, adding to `p`'s cumulative regrets the
//!    counterfactual regrets `π_{-p}(h) (v(h·a) - v(h))` (subtrees the opponent or chance never
//!    reaches are skipped, as they contribute nothing);
//! 3. post-process `p`'s regrets ([`RegretUpdate`]) and recompute `p`'s current strategy by
//!    regret matching (uniform where no regret is positive).
//!
//! The result matches OpenSpiel's solvers to rounding (the average sums here are weighted once
//! per information set rather than once per history, which is the same after normalisation).

use super::best_response::{evaluate_on_tree, Evaluation};
use super::policy::TabularPolicy;
use super::tree::{GameTree, Node};
use super::SolveError;
use crate::game::Game;

/// How cumulative regrets are post-processed after each player's pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RegretUpdate {
    /// Plain sums (vanilla CFR).
    Sum,
    /// Sums clipped at zero after every pass: regret matching+ (CFR+).
    Plus,
    /// After the pass of iteration `t`, positive sums are multiplied by `t^α / (t^α + 1)` and
    /// negative ones by `t^β / (t^β + 1)` (DCFR).
    Discounted {
        /// Exponent for positive regrets (1.5 in the paper).
        alpha: f64,
        /// Exponent for negative regrets (0 in the paper).
        beta: f64,
    },
}

/// Weight `w(t)` of iteration `t`'s strategy in the average strategy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Averaging {
    /// `w(t) = 1` (vanilla CFR).
    Uniform,
    /// `w(t) = t` (CFR+ as in OpenSpiel; linear CFR).
    Linear,
    /// `w(t) = t^γ` (DCFR, γ = 2 in the paper).
    Power(f64),
}

/// A full-width CFR variant: regret post-processing plus averaging weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CfrConfig {
    /// Regret post-processing.
    pub regret: RegretUpdate,
    /// Average-strategy weights.
    pub averaging: Averaging,
}

impl CfrConfig {
    /// Vanilla CFR (Zinkevich et al. 2007), alternating updates, uniform averaging.
    pub const CFR: CfrConfig = CfrConfig {
        regret: RegretUpdate::Sum,
        averaging: Averaging::Uniform,
    };
    /// CFR+ (Tammelin 2014): regret matching+, alternating updates, linear averaging.
    pub const CFR_PLUS: CfrConfig = CfrConfig {
        regret: RegretUpdate::Plus,
        averaging: Averaging::Linear,
    };
    /// Discounted CFR with the paper's recommended α = 1.5, β = 0, γ = 2.
    pub const DCFR: CfrConfig = CfrConfig::dcfr(1.5, 0.0, 2.0);

    /// Discounted CFR(α, β, γ) (Brown & Sandholm 2019).
    pub const fn dcfr(alpha: f64, beta: f64, gamma: f64) -> CfrConfig {
        CfrConfig {
            regret: RegretUpdate::Discounted { alpha, beta },
            averaging: Averaging::Power(gamma),
        }
    }
}

/// A full-width CFR solver over a compiled [`GameTree`], with slot-indexed tables.
#[derive(Clone, Debug)]
pub struct CfrSolver {
    tree: GameTree,
    config: CfrConfig,
    /// Cumulative regret per slot.
    regret: Vec<f64>,
    /// Current strategy per slot (regret matching of `regret`).
    strategy: Vec<f64>,
    /// Weighted sums of past strategies per slot.
    average: Vec<f64>,
    /// Scratch: own reach probability of each slot's sequence.
    seq_reach: Vec<f64>,
    /// Scratch stack of child values for the tree walk.
    scratch: Vec<f64>,
    /// Completed iterations.
    iteration: u64,
}

impl CfrSolver {
    /// Compiles the tree below `root` and starts from uniform strategies and zero regrets.
    ///
    /// # Errors
    /// Tree construction errors, see [`GameTree::build`].
    pub fn new<G: Game>(root: &G, config: CfrConfig) -> Result<CfrSolver, SolveError> {
        Ok(CfrSolver::from_tree(GameTree::build(root)?, config))
    }

    /// Starts a solver on an already compiled tree.
    pub fn from_tree(tree: GameTree, config: CfrConfig) -> CfrSolver {
        let n = tree.num_slots();
        let strategy = tree.uniform_strategy();
        CfrSolver {
            tree,
            config,
            regret: vec![0.0; n],
            strategy,
            average: vec![0.0; n],
            seq_reach: vec![0.0; n],
            scratch: Vec::with_capacity(256),
            iteration: 0,
        }
    }

    /// The compiled tree.
    pub fn tree(&self) -> &GameTree {
        &self.tree
    }

    /// The variant being run.
    pub fn config(&self) -> CfrConfig {
        self.config
    }

    /// Number of completed iterations.
    pub fn iterations(&self) -> u64 {
        self.iteration
    }

    /// Runs one iteration (a pass for each player).
    pub fn iterate(&mut self) {
        self.iteration += 1;
        let t = self.iteration as f64;
        let weight = match self.config.averaging {
            Averaging::Uniform => 1.0,
            Averaging::Linear => t,
            Averaging::Power(gamma) => t.powf(gamma),
        };
        for seat in 0..2u8 {
            self.accumulate_average(seat, weight);
            let mut walk = Walk {
                tree: &self.tree,
                strategy: &self.strategy,
                regret: &mut self.regret,
                scratch: &mut self.scratch,
                seat,
            };
            walk.node(0, 1.0, 1.0);
            self.update_regrets_and_strategy(seat, t);
        }
    }

    /// Runs `n` iterations.
    pub fn run(&mut self, n: u64) {
        for _ in 0..n {
            self.iterate();
        }
    }

    /// Adds `weight · π_p(I) · σ(I, a)` to the average sums of player `seat`.
    fn accumulate_average(&mut self, seat: u8, weight: f64) {
        for &i in &self.tree.player_infosets[seat as usize] {
            let info = &self.tree.infosets[i as usize];
            let reach = info.parent.map_or(1.0, |s| self.seq_reach[s as usize]);
            for s in info.slot as usize..(info.slot + info.len) as usize {
                let r = reach * self.strategy[s];
                self.seq_reach[s] = r;
                self.average[s] += weight * r;
            }
        }
    }

    /// Post-processes the regrets of player `seat` and recomputes their current strategy.
    fn update_regrets_and_strategy(&mut self, seat: u8, t: f64) {
        let (pos_factor, neg_factor) = match self.config.regret {
            RegretUpdate::Discounted { alpha, beta } => {
                let (ta, tb) = (t.powf(alpha), t.powf(beta));
                (ta / (ta + 1.0), tb / (tb + 1.0))
            }
            RegretUpdate::Sum | RegretUpdate::Plus => (1.0, 1.0),
        };
        for &i in &self.tree.player_infosets[seat as usize] {
            let info = &self.tree.infosets[i as usize];
            let slots = info.slot as usize..(info.slot + info.len) as usize;
            let regret = &mut self.regret[slots.clone()];
            match self.config.regret {
                RegretUpdate::Sum => {}
                RegretUpdate::Plus => regret.iter_mut().for_each(|r| *r = r.max(0.0)),
                RegretUpdate::Discounted { .. } => {
                    regret
                        .iter_mut()
                        .for_each(|r| *r *= if *r >= 0.0 { pos_factor } else { neg_factor });
                }
            }
            regret_matching(regret, &mut self.strategy[slots]);
        }
    }

    /// The current strategy profile (slot-indexed).
    pub fn current_strategy(&self) -> &[f64] {
        &self.strategy
    }

    /// The average strategy profile (slot-indexed, normalised; uniform where nothing was
    /// accumulated). This is the profile that converges to a Nash equilibrium.
    pub fn average_strategy(&self) -> Vec<f64> {
        normalised_average(&self.tree, &self.average)
    }

    /// The average strategy as a table keyed by information set.
    pub fn average_policy(&self) -> TabularPolicy {
        TabularPolicy::from_slots(&self.tree, &self.average_strategy())
    }

    /// Expected values, best responses and exploitability of the average strategy.
    pub fn evaluate(&self) -> Evaluation {
        evaluate_on_tree(&self.tree, &self.average_strategy())
    }

    /// Exploitability (`NashConv / 2`) of the average strategy.
    pub fn exploitability(&self) -> f64 {
        self.evaluate().exploitability
    }
}

/// Regret matching: `σ(a) ∝ max(R(a), 0)`, uniform if no regret is positive.
pub fn regret_matching(regret: &[f64], out: &mut [f64]) {
    let total: f64 = regret.iter().map(|r| r.max(0.0)).sum();
    if total > 0.0 {
        for (o, r) in out.iter_mut().zip(regret) {
            *o = r.max(0.0) / total;
        }
    } else {
        out.fill(1.0 / out.len() as f64);
    }
}

/// Normalises slot-indexed average sums per information set (uniform where the sum is 0).
pub fn normalised_average(tree: &GameTree, sums: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; sums.len()];
    for info in &tree.infosets {
        let slots = info.slot as usize..(info.slot + info.len) as usize;
        let total: f64 = sums[slots.clone()].iter().sum();
        for s in slots {
            out[s] = if total > 0.0 {
                sums[s] / total
            } else {
                1.0 / f64::from(info.len)
            };
        }
    }
    out
}

/// One regret-update walk of the tree for one player.
struct Walk<'a> {
    tree: &'a GameTree,
    strategy: &'a [f64],
    regret: &'a mut [f64],
    scratch: &'a mut Vec<f64>,
    seat: u8,
}

impl Walk<'_> {
    /// Value of `node` for the updating player under the current profile; adds counterfactual
    /// regrets below. `opponent` and `chance` are the opponent's and chance's reach
    /// probabilities of `node` (kept apart and multiplied last, in OpenSpiel's order, so that
    /// results agree with OpenSpiel's to the last bit; CFR+ amplifies rounding differences).
    fn node(&mut self, node: u32, opponent: f64, chance: f64) -> f64 {
        match self.tree.nodes[node as usize] {
            Node::Terminal { returns } => returns[self.seat as usize],
            Node::Chance { first, len } => {
                let mut v = 0.0;
                for c in first..first + len {
                    let p = self.tree.chance_prob[c as usize];
                    v += p * self.node(c, opponent, chance * p);
                }
                v
            }
            Node::Decision {
                player,
                slot,
                first,
                len,
                ..
            } => {
                let slot = slot as usize;
                if player != self.seat {
                    let mut v = 0.0;
                    for a in 0..len {
                        let p = self.strategy[slot + a as usize];
                        if p > 0.0 {
                            v += p * self.node(first + a, opponent * p, chance);
                        }
                    }
                    return v;
                }
                let base = self.scratch.len();
                let mut v = 0.0;
                for a in 0..len {
                    let child = self.node(first + a, opponent, chance);
                    self.scratch.push(child);
                    v += self.strategy[slot + a as usize] * child;
                }
                let reach = opponent * chance;
                for a in 0..len as usize {
                    self.regret[slot + a] += reach * (self.scratch[base + a] - v);
                }
                self.scratch.truncate(base);
                v
            }
        }
    }
}
