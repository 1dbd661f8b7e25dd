//! The one alpha-beta on a [`Game`] through the copy-make adapter
//! (`engine::search::alphabeta::GameNode`): on a small take-away game in which taking exactly two
//! stones lets the same player move again (the same-side chains of the set-up phases of the
//! RULES-more.md games) and taking the last stone wins, a search deep enough to reach every end
//! must find the game-theoretic result that plain minimax finds, as a mate score of the right
//! sign and distance, and a winning first move.

use engine::game::{Action, ChanceMode, Game, GameInfo, Information, PlayerId, Turn, Utility};
use engine::search::alphabeta::{GameAlphaBetaBot, Limits, Score};
use engine::search::Scored;
use rand::Rng;

#[derive(Clone, Debug)]
struct TakeAway {
    stones: u32,
    to_move: u8,
    /// The player who took the last stone.
    winner: Option<u8>,
}

impl Game for TakeAway {
    fn info(&self) -> GameInfo {
        GameInfo { name: "take-away", num_players: 2, chance: ChanceMode::Deterministic, information: Information::Perfect, utility: Utility::ZeroSum, min_utility: -1.0, max_utility: 1.0 }
    }
    fn turn(&self) -> Turn {
        if self.winner.is_some() {
            Turn::Terminal
        } else {
            Turn::Player(PlayerId::new(self.to_move))
        }
    }
    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.winner.is_none() {
            out.extend((1..=3.min(self.stones)).map(Action));
        }
    }
    fn chance_outcomes_into(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
    }
    fn apply(&mut self, action: Action) {
        self.stones -= action.0;
        if self.stones == 0 {
            self.winner = Some(self.to_move);
        } else if action.0 != 2 {
            self.to_move = 1 - self.to_move;
        }
    }
    fn returns(&self, player: PlayerId) -> f64 {
        match self.winner {
            Some(w) if w as usize == player.index() => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        }
    }
    fn infoset_key(&self, _player: PlayerId) -> u64 {
        (self.stones as u64) << 2 | self.to_move as u64
    }
    fn infoset_string(&self, _player: PlayerId) -> String {
        format!("{} {}", self.stones, self.to_move)
    }
    fn sample_determinization<R: Rng + ?Sized>(&self, _player: PlayerId, _rng: &mut R) -> Self {
        self.clone()
    }
}

impl Scored for TakeAway {
    fn eval_cp(&self, _player: PlayerId) -> i32 {
        0
    }
    fn gain_cp(&self, _action: Action) -> i32 {
        0
    }
}

/// Minimax: (whether the player to move wins, plies to the end with best play: shortest win,
/// longest loss).
fn solve(g: &TakeAway) -> (bool, u32) {
    let me = g.to_move;
    let mut best: Option<(bool, u32)> = None;
    for a in g.legal_actions() {
        let c = g.child(a);
        let (win, plies) = match c.winner {
            Some(w) => (w == me, 1),
            None => {
                let (w, p) = solve(&c);
                (if c.to_move == me { w } else { !w }, p + 1)
            }
        };
        let better = match best {
            None => true,
            // A win beats a loss; the shorter win, the longer loss.
            Some((bw, bp)) => match (win, bw) {
                (true, false) => true,
                (true, true) => plies < bp,
                (false, false) => plies > bp,
                (false, true) => false,
            },
        };
        if better {
            best = Some((win, plies));
        }
    }
    best.expect("a move")
}

#[test]
fn adapter_search_matches_minimax_with_same_side_chains() {
    for stones in 1..=14u32 {
        for to_move in 0..2u8 {
            let g = TakeAway { stones, to_move, winner: None };
            let (win, plies) = solve(&g);
            let mut bot = GameAlphaBetaBot::<TakeAway>::new(Limits::depth(stones + 2), 1);
            let r = bot.search(&g);
            let raw = r.raw_score;
            assert_eq!(raw > 0, win, "{stones} stones: score {:?}, minimax {win} in {plies}", r.score);
            assert_eq!(raw.abs(), engine::search::alphabeta::MATE - plies as i32, "{stones} stones: {:?}, minimax {} in {plies} plies", r.score, if win { "win" } else { "loss" });
            assert!(matches!(r.score, Score::Mate(_)));
            if win {
                let best = r.best.expect("a move");
                let c = g.child(best);
                let still = match c.winner {
                    Some(w) => w == to_move,
                    None => (c.to_move == to_move) == solve(&c).0,
                };
                assert!(still, "{stones} stones: {best:?} does not keep the win");
            }
        }
    }
}
