//! The default of [`super::Scored::root_win`]: a root action that wins the game at once, for any
//! [`Game`], checked on a few determinizations of the mover's information set (the farm's net
//! search plays it without searching, `SearchConfig::root_win_check`).

use crate::game::{Action, Game, Information, PlayerId, Turn};
use rand::Rng;

/// Determinizations the generic win-in-one check draws when the game hides something (one
/// suffices under perfect information).
pub const GENERIC_WIN_SAMPLES: usize = 4;

/// A root action (index into `actions`, the legal actions of `player` in `root`) after which the
/// game ends ([`Turn::Terminal`]) with the best return the game can give `player`
/// ([`crate::game::GameInfo::max_utility`]: a won game) in every one of a few determinizations
/// drawn for `player` ([`GENERIC_WIN_SAMPLES`], one under perfect information); an action
/// leading to chance, or illegal in a determinization, is not a sure win.
///
/// Information: a function of `player`'s information set (the determinizations are drawn for
/// `player`) and `rng`.
pub fn generic_win<G: Game, R: Rng + ?Sized>(root: &G, player: PlayerId, actions: &[Action], rng: &mut R) -> Option<usize> {
    let info = root.info();
    let samples = if info.information == Information::Perfect { 1 } else { GENERIC_WIN_SAMPLES };
    let dets: Vec<G> = (0..samples).map(|_| root.sample_determinization(player, rng)).collect();
    if dets.iter().any(|d| d.turn() != Turn::Player(player)) {
        return None;
    }
    let legal: Vec<Vec<Action>> = dets.iter().map(Game::legal_actions).collect();
    actions.iter().position(|&a| {
        dets.iter().zip(&legal).all(|(d, l)| {
            if !l.contains(&a) {
                return false;
            }
            let mut c = d.clone();
            c.apply(a);
            c.turn() == Turn::Terminal && c.returns(player) >= info.max_utility
        })
    })
}
