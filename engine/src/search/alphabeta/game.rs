//! The one alpha-beta on any [`Scored`] game: [`GameNode`], a copy-make [`SearchPosition`] over
//! the [`crate::game::Game`] trait (the RULES-more.md games, and any other), and the `alphabeta`
//! bot on it ([`GameAlphaBetaBot`]).
//!
//! Moves are the game's [`Action`]s; [`crate::game::Game::apply`] on a clone makes a move and dropping the
//! clone takes it back. Captures are the actions with a positive [`Scored::gain_cp`] (ordered by
//! it, the most valuable first); the static evaluation is [`Scored::eval_cp`] of the side to move.
//! The games end repeated positions and every other rule end themselves ([`crate::game::Game::turn`] is
//! [`Turn::Terminal`]), so the rule hook reads the end: a win or loss as a mate score at that
//! ply, a draw as 0. A check ([`Scored::in_check`]) is extended and searched out in quiescence
//! with every legal action, as on the core.
//! The transposition table is keyed by a hash of the action path from the root (exact within a
//! search; transpositions are not merged). A chance node (none occurs in the RULES-more.md games)
//! is a leaf scored by the static evaluation.

use super::position::{SearchPosition, HISTORY_PER_SIDE};
use super::{AlphaBeta, Limits, SearchResult, MATE, MATE_BOUND};
use crate::game::{Action, PlayerId, Turn};
use crate::search::Scored;

/// A [`Scored`] game as a [`SearchPosition`]: the states of the search path (copy-make), the
/// path's keys and movers, and each state's [`Scored::in_check`] once asked (the searcher asks
/// after a move and again when quiescence starts there).
#[derive(Clone)]
pub struct GameNode<G: Scored> {
    stack: Vec<G>,
    keys: Vec<u64>,
    movers: Vec<usize>,
    /// Per state: 0 not asked yet, 1 not in check, 2 in check.
    checks: Vec<Cell<u8>>,
}

use crate::more::history::mix;
use std::cell::Cell;

impl<G: Scored> GameNode<G> {
    /// The search root at `g`.
    pub fn new(g: &G) -> GameNode<G> {
        let mut stack = Vec::with_capacity(64);
        stack.push(g.clone());
        let side = match g.turn() {
            Turn::Player(p) => p.index(),
            _ => 0,
        };
        GameNode { stack, keys: vec![0x6a09_e667_f3bc_c908], movers: vec![1 - side], checks: vec![Cell::new(0)] }
    }

    #[inline]
    fn top(&self) -> &G {
        self.stack.last().expect("the root stays on the stack")
    }
}

impl<G: Scored> SearchPosition for GameNode<G> {
    type Move = Action;
    type Undo = ();
    type Packed = u32;
    const NO_PACKED: u32 = u32::MAX;
    const NULL_MOVE: Action = Action(u32::MAX);
    const ALTERNATES: bool = false;

    #[inline]
    fn hash(&self) -> u64 {
        *self.keys.last().unwrap_or(&0)
    }

    /// The player to act; at a terminal or chance node, the opponent of the last mover.
    #[inline]
    fn side(&self) -> usize {
        match self.top().turn() {
            Turn::Player(p) => p.index(),
            _ => 1 - self.movers.last().copied().unwrap_or(0),
        }
    }

    fn legal_moves(&mut self, out: &mut Vec<Action>) {
        out.clear();
        if let Turn::Player(_) = self.top().turn() {
            self.top().legal_actions_into(out);
        }
    }

    fn captures(&mut self, margin: i32, out: &mut Vec<Action>) {
        self.legal_moves(out);
        let g = self.top();
        out.retain(|&a| {
            let gain = g.gain_cp(a);
            gain > 0 && gain >= margin
        });
    }

    #[inline]
    fn is_capture(&self, m: Action) -> bool {
        self.top().gain_cp(m) > 0
    }

    #[inline]
    fn capture_order(&self, m: Action) -> Option<i32> {
        let gain = self.top().gain_cp(m);
        (gain > 0).then(|| gain.min(1 << 16) * 16)
    }

    fn make(&mut self, m: Action) {
        let mover = self.side();
        let key = mix(self.hash(), m.0 as u64);
        let child = self.top().child(m);
        self.stack.push(child);
        self.keys.push(key);
        self.movers.push(mover);
        self.checks.push(Cell::new(0));
    }

    fn unmake(&mut self, _m: Action, _undo: ()) {
        self.stack.pop();
        self.keys.pop();
        self.movers.pop();
        self.checks.pop();
    }

    #[inline]
    fn push_path(&mut self, _m: Action, _capture: bool, _gave_check: bool) {}

    #[inline]
    fn pop_path(&mut self) {}

    /// [`Scored::in_check`] of the state on top (the search's own state: the full state for the
    /// oracle, a determinization under PIMC).
    #[inline]
    fn in_check(&self) -> bool {
        let known = self.checks.last().expect("the root stays on the stack");
        match known.get() {
            0 => {
                let check = self.top().in_check();
                known.set(1 + u8::from(check));
                check
            }
            k => k == 2,
        }
    }

    fn evaluate(&self) -> i32 {
        let bound = MATE_BOUND - 1;
        self.top().eval_cp(PlayerId::new(self.side() as u8)).clamp(-bound, bound)
    }

    #[inline]
    fn history_index(m: Action) -> usize {
        m.0 as usize % HISTORY_PER_SIDE
    }

    #[inline]
    fn pack(m: Action) -> u32 {
        m.0
    }

    #[inline]
    fn unpack(p: u32) -> Action {
        Action(p)
    }

    /// The game's own end ([`SearchPosition::terminal_score`]): the games judge repetitions
    /// themselves.
    fn rule_score(&self, ply: usize) -> Option<i32> {
        self.terminal_score(ply)
    }

    fn terminal_score(&self, ply: usize) -> Option<i32> {
        match self.top().turn() {
            Turn::Player(_) => None,
            Turn::Terminal => {
                let r = self.top().returns(PlayerId::new(self.side() as u8));
                Some(if r > 0.0 {
                    MATE - ply as i32
                } else if r < 0.0 {
                    -MATE + ply as i32
                } else {
                    0
                })
            }
            Turn::Chance => Some(self.evaluate()),
        }
    }
}

/// One search of the one alpha-beta at a game state, as PIMC runs it on each determinization
/// ([`crate::search::pimc`]): [`GameAlphaBetaBot`] on any [`Scored`] game; on the variants the
/// oracle [`super::AlphaBetaBot`] (the core position), [`Scored::alphabeta_search`].
pub trait GameSearch<G>: Send {
    /// The limits the search was made with.
    fn limits(&self) -> &Limits;
    /// Searches `g` (a player's turn) within `limits` from a cleared table: the action the search
    /// prefers with its score (internal units, [`super::MATE`] scale, for the side to move), or
    /// `None` when it searched no action; and the nodes searched.
    fn search_action(&mut self, g: &G, limits: &Limits) -> (Option<(Action, i32)>, u64);
}

impl<G: Scored> GameSearch<G> for GameAlphaBetaBot<G> {
    fn limits(&self) -> &Limits {
        &self.limits
    }
    fn search_action(&mut self, g: &G, limits: &Limits) -> (Option<(Action, i32)>, u64) {
        let r = self.search_with(g, limits);
        (r.best.map(|a| (a, r.raw_score)), r.nodes)
    }
}

/// The `alphabeta` bot of any [`Scored`] game: the one [`AlphaBeta`] on [`GameNode`], within its
/// [`Limits`], with a table of `hash_mb` MiB cleared before every decision (its choice is a
/// function of the state and the limits, unless a time limit is set). On the full state: a
/// cheating oracle in a game with hidden information, as the variants' `alphabeta` is.
pub struct GameAlphaBetaBot<G: Scored> {
    searcher: AlphaBeta<GameNode<G>>,
    limits: Limits,
}

impl<G: Scored> GameAlphaBetaBot<G> {
    /// A bot searching within `limits` with a table of `hash_mb` MiB.
    pub fn new(limits: Limits, hash_mb: usize) -> GameAlphaBetaBot<G> {
        GameAlphaBetaBot { searcher: AlphaBeta::new(hash_mb), limits }
    }

    /// The limits of each decision.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Searches `g` (a player's turn) from a cleared table (`best` is `None` when `g` has no
    /// legal action).
    pub fn search(&mut self, g: &G) -> SearchResult<Action> {
        let limits = self.limits.clone();
        self.search_with(g, &limits)
    }

    /// [`GameAlphaBetaBot::search`] within `limits` instead of the bot's.
    pub fn search_with(&mut self, g: &G, limits: &Limits) -> SearchResult<Action> {
        self.searcher.clear();
        self.searcher.stop_flag().store(false, std::sync::atomic::Ordering::Relaxed);
        self.searcher.search_position(GameNode::new(g), &[], limits, &mut |_| {})
    }

    /// The action the search prefers at `g` (a player's turn with legal actions); the first legal
    /// action if the search returned none.
    pub fn choose(&mut self, g: &G) -> Action {
        match self.search(g).best {
            Some(a) => a,
            None => g.legal_actions()[0],
        }
    }

    /// The spec of this bot, `alphabeta:depth=3`.
    pub fn name(&self) -> String {
        super::bot::limits_name(&self.limits)
    }
}
