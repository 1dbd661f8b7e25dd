//! Two-player zero-sum matrix games as a [`Game`] (the row player moves, then the column player
//! moves without seeing the row), solved with the CFR machinery of [`super::cfr`]: on a
//! one-shot game CFR+ is regret matching+ on the payoffs, whose average strategies converge to a
//! Nash equilibrium (Hart & Mas-Colell 2000; Tammelin 2014). Exploitability is computed exactly
//! by [`mod@super::best_response`] on the compiled tree.

use rand::Rng;

use crate::game::{Action, ChanceMode, Game, GameInfo, Information, PlayerId, Turn, Utility};

use super::{evaluate_on_tree, CfrConfig, CfrSolver, SolveError};

/// A state of a matrix game: nothing chosen, the row chosen, or both chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixGame {
    /// Row player's payoffs, `payoff[row][col]` (the column player gets the negative).
    payoff: std::sync::Arc<Vec<Vec<f64>>>,
    row: Option<u32>,
    col: Option<u32>,
}

impl MatrixGame {
    /// The root of the game with `payoff[row][col]` for the row player (rectangular, non-empty).
    ///
    /// # Errors
    /// [`SolveError::Unsupported`] for an empty or ragged matrix or non-finite entries.
    pub fn new(payoff: Vec<Vec<f64>>) -> Result<MatrixGame, SolveError> {
        let cols = payoff.first().map(Vec::len).unwrap_or(0);
        if cols == 0 || payoff.iter().any(|r| r.len() != cols || r.iter().any(|x| !x.is_finite())) {
            return Err(SolveError::Unsupported("matrix game needs a non-empty rectangular finite matrix".into()));
        }
        Ok(MatrixGame { payoff: std::sync::Arc::new(payoff), row: None, col: None })
    }

    fn bound(&self) -> f64 {
        self.payoff.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()))
    }
}

impl Game for MatrixGame {
    fn info(&self) -> GameInfo {
        let b = self.bound();
        GameInfo {
            name: "matrix",
            num_players: 2,
            chance: ChanceMode::Deterministic,
            information: Information::Imperfect,
            utility: Utility::ZeroSum,
            min_utility: -b,
            max_utility: b,
        }
    }

    fn turn(&self) -> Turn {
        match (self.row, self.col) {
            (None, _) => Turn::Player(PlayerId::FIRST),
            (Some(_), None) => Turn::Player(PlayerId::SECOND),
            _ => Turn::Terminal,
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        let n = match self.turn() {
            Turn::Player(PlayerId::FIRST) => self.payoff.len(),
            Turn::Player(_) => self.payoff[0].len(),
            _ => 0,
        };
        out.extend((0..n as u32).map(Action));
    }

    fn chance_outcomes_into(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
    }

    fn apply(&mut self, action: Action) {
        match self.turn() {
            Turn::Player(PlayerId::FIRST) => self.row = Some(action.0),
            Turn::Player(_) => self.col = Some(action.0),
            _ => panic!("matrix game: action after the end"),
        }
    }

    fn returns(&self, player: PlayerId) -> f64 {
        let v = match (self.row, self.col) {
            (Some(r), Some(c)) => self.payoff[r as usize][c as usize],
            _ => 0.0,
        };
        if player == PlayerId::FIRST {
            v
        } else {
            -v
        }
    }

    fn infoset_key(&self, player: PlayerId) -> u64 {
        // The column player does not see the row; the row player has one information set.
        match player.index() {
            0 => self.row.map(|r| r as u64 + 1).unwrap_or(0),
            _ => self.col.map(|c| c as u64 + 1).unwrap_or(0),
        }
    }

    fn infoset_string(&self, player: PlayerId) -> String {
        format!("{player} {}", self.infoset_key(player))
    }

    fn sample_determinization<R: Rng + ?Sized>(&self, player: PlayerId, rng: &mut R) -> Self {
        let mut s = self.clone();
        if player == PlayerId::SECOND && self.col.is_none() && self.row.is_some() {
            s.row = Some(rng.random_range(0..self.payoff.len() as u32));
        }
        s
    }
}

/// A solved matrix game.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixSolution {
    /// The row player's mixture (average strategy).
    pub row: Vec<f64>,
    /// The column player's mixture.
    pub col: Vec<f64>,
    /// The row player's expected payoff under the two mixtures.
    pub value: f64,
    /// `(max_i (A y)_i - min_j (xᵀA)_j) / 2`: NashConv / 2 (0 at equilibrium).
    pub exploitability: f64,
    /// CFR+ iterations run.
    pub iterations: u64,
}

/// Solves `payoff` (row player's payoffs) with `iterations` of CFR+.
///
/// # Errors
/// As [`MatrixGame::new`].
pub fn solve_matrix(payoff: Vec<Vec<f64>>, iterations: u64) -> Result<MatrixSolution, SolveError> {
    let game = MatrixGame::new(payoff)?;
    let mut solver = CfrSolver::new(&game, CfrConfig::CFR_PLUS)?;
    solver.run(iterations.max(1));
    let tree = solver.tree();
    let avg = solver.average_strategy();
    let eval = evaluate_on_tree(tree, &avg);
    let mix_of = |p: usize| -> Vec<f64> {
        let info = tree.player_infosets[p].first().map(|&i| &tree.infosets[i as usize]);
        match info {
            Some(i) => avg[i.slot as usize..(i.slot + i.len) as usize].to_vec(),
            None => Vec::new(),
        }
    };
    Ok(MatrixSolution { row: mix_of(0), col: mix_of(1), value: eval.values[0], exploitability: eval.exploitability, iterations: solver.iterations() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_pennies_and_rock_paper_scissors() {
        let s = solve_matrix(vec![vec![1.0, -1.0], vec![-1.0, 1.0]], 2000).expect("solve");
        assert!((s.row[0] - 0.5).abs() < 1e-2 && (s.col[0] - 0.5).abs() < 1e-2, "{s:?}");
        assert!(s.value.abs() < 1e-2 && s.exploitability < 1e-2);
        let rps = vec![vec![0.0, -1.0, 1.0], vec![1.0, 0.0, -1.0], vec![-1.0, 1.0, 0.0]];
        let s = solve_matrix(rps, 5000).expect("solve");
        assert!(s.row.iter().all(|p| (p - 1.0 / 3.0).abs() < 1e-2), "{s:?}");
        // A dominated row gets no weight; value of [[2, 0], [1, -1]] with a saddle at (0, 1) is 0.
        let s = solve_matrix(vec![vec![2.0, 0.0], vec![1.0, -1.0]], 2000).expect("solve");
        assert!(s.row[0] > 0.99 && s.col[1] > 0.99 && s.value.abs() < 1e-2, "{s:?}");
    }
}
