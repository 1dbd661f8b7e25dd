//! The negotiation decision of Surprise Xiangqi (RULES.md §S11) as a small bluffing game over a
//! search value, solved by CFR+ ([`super::cfr`]).
//!
//! At a position where the *demander* D is to move, the *responder* R does not know D's hidden
//! part (Surprise back faces §S2, or face-down identities): chance draws D's *type*, one per
//! distinct determinization of R's view ([`crate::variant::View::sample`] is uniform over them,
//! so each has equal probability). Then
//!
//! 1. D, knowing its type, either plays on or demands (`demand`);
//! 2. after a demand, R, knowing only that a demand was made, answers `resign`, `draw` or
//!    `refuse`.
//!
//! Payoffs are the match-point *difference* D minus R (zero-sum; the §S11 table, default win 3,
//! draw 1, loss 0): playing on, or refusing, is worth `(win - loss) * v` where `v` in [-1, 1] is
//! the search value of the continuation for D (expected win minus loss); an agreed draw is worth
//! 0; a resignation `win - loss`. The continuation values come from [`crate::search::expectimax`]
//! on each determinization, mapped by `tanh(cp / scale)` (±1 for a found mate): `play_on` with D
//! to move; after a refusal the rules let D move again (a refused demand costs nothing, §S11), or
//! with [`Refusal::Tempo`] the refusal costs D its move (the value with R to move instead).

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::game::{Action, ChanceMode, Game, GameInfo, Information, PlayerId, Turn, Utility};
use crate::piece::Color;
use crate::search::expectimax::{Expectimax, ExpectimaxConfig, MATE};
use crate::variant::{fen as vfen, State, View};

use super::{evaluate_on_tree, CfrConfig, CfrSolver, SolveError};

/// What a refused demand costs the demander.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Nothing: the demander moves again (§S11 default, as [`State`] implements it).
    Free,
    /// The demander's move: the responder moves next (a variant of the rule).
    Tempo,
}

/// One type of the demander: a determinization of the responder's view.
#[derive(Clone, Debug, PartialEq)]
pub struct DemanderType {
    /// The hidden part, e.g. `e5=R` (the demander's unseen back faces or identities).
    pub label: String,
    /// Probability from the responder's point of view.
    pub prob: f64,
    /// Value for D of playing on, in [-1, 1].
    pub play_on: f64,
    /// Value for D of the continuation after a refused demand, in [-1, 1].
    pub after_refusal: f64,
}

/// Actions of the game.
pub mod actions {
    use crate::game::Action;
    /// D plays on.
    pub const PLAY: Action = Action(0);
    /// D demands.
    pub const DEMAND: Action = Action(1);
    /// R resigns.
    pub const RESIGN: Action = Action(0);
    /// R agrees a draw.
    pub const DRAW: Action = Action(1);
    /// R refuses.
    pub const REFUSE: Action = Action(2);
}

/// A state of the negotiation game (see the module documentation). D is the first player.
#[derive(Clone, Debug, PartialEq)]
pub struct NegotiationGame {
    types: Arc<Vec<DemanderType>>,
    /// Points of a win, draw and loss (§S11 table).
    points: [f64; 3],
    ty: Option<usize>,
    demand: Option<bool>,
    answer: Option<u32>,
}

impl NegotiationGame {
    /// The root: chance draws one of `types` (probabilities summing to 1).
    ///
    /// # Errors
    /// [`SolveError::BadChance`] when `types` is empty or the probabilities do not sum to 1.
    pub fn new(types: Vec<DemanderType>, points: [f64; 3]) -> Result<NegotiationGame, SolveError> {
        let total: f64 = types.iter().map(|t| t.prob).sum();
        if types.is_empty() || (total - 1.0).abs() > 1e-9 || types.iter().any(|t| t.prob <= 0.0) {
            return Err(SolveError::BadChance(format!("negotiation types: probabilities sum to {total}")));
        }
        Ok(NegotiationGame { types: Arc::new(types), points, ty: None, demand: None, answer: None })
    }

    fn stake(&self) -> f64 {
        self.points[0] - self.points[2]
    }
}

impl Game for NegotiationGame {
    fn info(&self) -> GameInfo {
        GameInfo {
            name: "negotiation",
            num_players: 2,
            chance: ChanceMode::ExplicitStochastic,
            information: Information::Imperfect,
            utility: Utility::ZeroSum,
            min_utility: -self.stake().abs(),
            max_utility: self.stake().abs(),
        }
    }

    fn turn(&self) -> Turn {
        match (self.ty, self.demand, self.answer) {
            (None, _, _) => Turn::Chance,
            (Some(_), None, _) => Turn::Player(PlayerId::FIRST),
            (Some(_), Some(true), None) => Turn::Player(PlayerId::SECOND),
            _ => Turn::Terminal,
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.turn() {
            Turn::Player(PlayerId::FIRST) => out.extend([actions::PLAY, actions::DEMAND]),
            Turn::Player(_) => out.extend([actions::RESIGN, actions::DRAW, actions::REFUSE]),
            _ => {}
        }
    }

    fn chance_outcomes_into(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
        if self.ty.is_none() {
            out.extend(self.types.iter().enumerate().map(|(i, t)| (Action(i as u32), t.prob)));
        }
    }

    fn apply(&mut self, action: Action) {
        match self.turn() {
            Turn::Chance => self.ty = Some(action.0 as usize),
            Turn::Player(PlayerId::FIRST) => self.demand = Some(action == actions::DEMAND),
            Turn::Player(_) => self.answer = Some(action.0),
            Turn::Terminal => panic!("negotiation: action after the end"),
        }
    }

    fn returns(&self, player: PlayerId) -> f64 {
        let Some(t) = self.ty.map(|i| &self.types[i]) else { return 0.0 };
        let d = match (self.demand, self.answer) {
            (Some(false), _) => self.stake() * t.play_on,
            (Some(true), Some(0)) => self.stake(),
            // An agreed draw gives both sides the draw score: a difference of 0.
            (Some(true), Some(1)) => 0.0,
            (Some(true), Some(_)) => self.stake() * t.after_refusal,
            _ => 0.0,
        };
        if player == PlayerId::FIRST {
            d
        } else {
            -d
        }
    }

    fn infoset_key(&self, player: PlayerId) -> u64 {
        match player.index() {
            // D knows its type and its own action.
            0 => self.ty.map(|t| t as u64 + 1).unwrap_or(0) | (self.demand.map(|d| d as u64 + 1).unwrap_or(0) << 32),
            // R sees only whether a demand was made (and its answer).
            _ => self.demand.map(|d| d as u64 + 1).unwrap_or(0) | (self.answer.map(|a| a as u64 + 1).unwrap_or(0) << 8),
        }
    }

    fn infoset_string(&self, player: PlayerId) -> String {
        format!("{player} {:x}", self.infoset_key(player))
    }

    fn sample_determinization<R: Rng + ?Sized>(&self, player: PlayerId, rng: &mut R) -> Self {
        let mut s = self.clone();
        if player == PlayerId::SECOND && self.ty.is_some() {
            let mut x: f64 = rng.random();
            let mut pick = self.types.len() - 1;
            for (i, t) in self.types.iter().enumerate() {
                if x < t.prob {
                    pick = i;
                    break;
                }
                x -= t.prob;
            }
            s.ty = Some(pick);
        }
        s
    }
}

/// The demander's types at `s` (D = the side to move), from the responder's view, with search
/// values from expectimax (`cfg`) mapped by `tanh(cp / scale)`.
///
/// # Errors
/// A message when `s` is not a decision of D with at least one legal move.
pub fn types_from_state(s: &State, cfg: &ExpectimaxConfig, scale: f64, refusal: Refusal, seed: u64) -> Result<Vec<DemanderType>, String> {
    if s.is_chance() || s.in_setup() || s.legal_actions().is_empty() {
        return Err("the negotiation game needs a position with the demander to move".into());
    }
    let demander = s.turn();
    let view = View::new(s, demander.opponent());
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut dets: Vec<(u64, State)> = Vec::new();
    for _ in 0..(64 * view.surprise_assignments().max(8)).min(4096) {
        let d = view.sample(&mut rng);
        let h = d.hash();
        if !dets.iter().any(|(x, _)| *x == h) {
            dets.push((h, d));
        }
    }
    let n = dets.len() as f64;
    let value = |st: &State, for_side: Color| -> f64 {
        let mut e = Expectimax::new(cfg.clone());
        let r = e.search(st);
        let cp = r.best().map(|(_, v)| v).unwrap_or(-MATE);
        let v = if cp.abs() >= MATE / 2.0 { cp.signum() } else { (cp / scale.max(1.0)).tanh() };
        if st.turn() == for_side {
            v
        } else {
            -v
        }
    };
    let mut out = Vec::new();
    for (_, d) in &dets {
        let play_on = value(d, demander);
        let after_refusal = match refusal {
            Refusal::Free => play_on,
            Refusal::Tempo => match pass_move(d) {
                Some(p) if !p.legal_actions().is_empty() => value(&p, demander),
                Some(_) => 1.0,
                None => -1.0,
            },
        };
        out.push(DemanderType { label: hidden_label(d, demander), prob: 1.0 / n, play_on, after_refusal });
    }
    out.sort_by(|a, b| a.label.cmp(&b.label));
    Ok(out)
}

/// `s` with the other side to move (a null move through the FEN), if that is a legal state.
fn pass_move(s: &State) -> Option<State> {
    let text = vfen::write(s);
    let mut fields: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    let side = fields.get_mut(1)?;
    *side = if side == "w" { "b".into() } else { "w".into() };
    vfen::parse(s.variant(), &fields.join(" ")).ok()
}

/// The demander's hidden part as `square=Letter` entries: back faces of its discs that the
/// opponent has not seen, identities of its face-down pieces.
fn hidden_label(s: &State, c: Color) -> String {
    let pos = s.position();
    let mut parts = Vec::new();
    for sq in pos.by_color(c) {
        if let Some(b) = s.back(sq) {
            if !s.back_seen().contains(sq) {
                parts.push(format!("{sq}={}", crate::piece::Piece::new(c, b).char()));
            }
        }
        if s.face_down().contains(sq) {
            if let Some(r) = s.identity(sq) {
                parts.push(format!("{sq}={}", crate::piece::Piece::new(c, r).char()));
            }
        }
    }
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(",")
    }
}

/// The solved negotiation game.
#[derive(Clone, Debug)]
pub struct NegotiationSolution {
    /// The types, in chance order.
    pub types: Vec<DemanderType>,
    /// Probability that each type demands.
    pub demand: Vec<f64>,
    /// The responder's answer mixture after a demand: resign, draw, refuse.
    pub answer: [f64; 3],
    /// D's expected match-point difference under the solved strategies.
    pub value: f64,
    /// D's expected match-point difference without negotiation (always playing on).
    pub value_without: f64,
    /// Exploitability (NashConv / 2) in match points.
    pub exploitability: f64,
}

/// Solves the game with `iterations` of CFR+.
///
/// # Errors
/// As [`NegotiationGame::new`] and [`CfrSolver::new`].
pub fn solve(types: Vec<DemanderType>, points: [f64; 3], iterations: u64) -> Result<NegotiationSolution, SolveError> {
    let game = NegotiationGame::new(types.clone(), points)?;
    let mut solver = CfrSolver::new(&game, CfrConfig::CFR_PLUS)?;
    solver.run(iterations.max(1));
    let tree = solver.tree();
    let avg = solver.average_strategy();
    let eval = evaluate_on_tree(tree, &avg);
    let mut demand = vec![0.0; types.len()];
    let mut answer = [0.0, 0.0, 1.0];
    for (t, d) in demand.iter_mut().enumerate() {
        let key = game.child(Action(t as u32)).infoset_key(PlayerId::FIRST);
        if let Some(i) = tree.infoset_of(PlayerId::FIRST, key) {
            *d = avg[tree.infosets[i as usize].slot as usize + 1];
        }
    }
    let r = game.child(Action(0)).child(actions::DEMAND);
    if let Some(i) = tree.infoset_of(PlayerId::SECOND, r.infoset_key(PlayerId::SECOND)) {
        let slot = tree.infosets[i as usize].slot as usize;
        answer = [avg[slot], avg[slot + 1], avg[slot + 2]];
    }
    let stake = points[0] - points[2];
    let value_without = types.iter().map(|t| t.prob * stake * t.play_on).sum();
    Ok(NegotiationSolution { types, demand, answer, value: eval.values[0], value_without, exploitability: eval.exploitability })
}
