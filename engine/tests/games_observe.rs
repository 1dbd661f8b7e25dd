//! The game contract's observation and action index on Kuhn poker and Leduc hold'em
//! ([`engine::observe::Observe`]): over every state of the game tree, equal information-set keys
//! give equal tensors and different keys different ones (the encodings are injective on the
//! player's information, e.g. a different private card at the same decision), and the action
//! index is injective over the legal actions and inverted by `index_action`.

use std::collections::HashMap;

use engine::game::{Game, PlayerId, Turn};
use engine::games::{kuhn, leduc, Kuhn, Leduc};
use engine::observe::Observe;

/// Every state of the tree below `root` (chance and terminal states included).
fn all_states<G: Game>(root: &G) -> Vec<G> {
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(s) = stack.pop() {
        match s.turn() {
            Turn::Terminal => {}
            Turn::Chance => stack.extend(s.chance_outcomes().into_iter().map(|(a, _)| s.child(a))),
            Turn::Player(_) => stack.extend(s.legal_actions().into_iter().map(|a| s.child(a))),
        }
        out.push(s);
    }
    out
}

/// The contract on every state: sizes, key <-> tensor, action index. Returns the number of
/// distinct information sets (both players) in all and at the player's own decisions.
fn check<G: Observe>(root: &G) -> (usize, usize) {
    let e = root.encoding();
    let (mut sets, mut decisions) = (0, 0);
    for player in PlayerId::BOTH {
        let mut by_key: HashMap<u64, Vec<f32>> = HashMap::new();
        let mut by_tensor: HashMap<Vec<u32>, u64> = HashMap::new();
        let mut acting = std::collections::HashSet::new();
        for s in all_states(root) {
            assert_eq!(s.encoding(), e);
            let obs = s.observation(player);
            assert_eq!(obs.len(), e.obs_len());
            let key = s.infoset_key(player);
            let seen = by_key.entry(key).or_insert_with(|| obs.clone());
            assert_eq!(seen, &obs, "{player}: one information set ({}), two tensors", s.infoset_string(player));
            let bits: Vec<u32> = obs.iter().map(|x| x.to_bits()).collect();
            let other = *by_tensor.entry(bits).or_insert(key);
            assert_eq!(other, key, "{player}: two information sets, one tensor ({})", s.infoset_string(player));
            if s.turn() == Turn::Player(player) {
                acting.insert(key);
                let legal = s.legal_actions();
                let mut slots: Vec<usize> = legal.iter().map(|&a| s.action_index(a)).collect();
                for (&a, &i) in legal.iter().zip(&slots) {
                    assert!(i < e.actions(), "slot {i} of {a} out of range");
                    assert_eq!(s.index_action(i), Some(a));
                }
                slots.sort_unstable();
                slots.dedup();
                assert_eq!(slots.len(), legal.len(), "two legal actions share a slot");
                assert_eq!(s.index_action(e.actions()), None);
            }
        }
        sets += by_key.len();
        decisions += acting.len();
    }
    (sets, decisions)
}

#[test]
fn kuhn_information_sets_are_tensors() {
    let e = kuhn::encoding();
    assert_eq!((e.game.as_str(), e.obs_len(), e.actions(), e.board_slots()), ("kuhn", kuhn::FEATURES, 2, 0));
    // 12 decision information sets (3 cards x 2 per player); in all, per player, 3 cards x 9
    // betting histories ("", p, b, pp, pb, bp, bb, pbp, pbb) after the deal, plus before it: the
    // first player 1 + 3 (its card dealt), the second 1 + 1 (a card dealt, not its own).
    assert_eq!(check(&Kuhn::new()), (2 * 27 + 4 + 2, 12));
}

#[test]
fn leduc_information_sets_are_tensors() {
    let e = leduc::encoding();
    assert_eq!((e.game.as_str(), e.obs_len(), e.actions(), e.board_slots()), ("leduc", leduc::FEATURES, 3, 0));
    // Leduc hold'em has 936 decision information sets (OpenSpiel's `leduc_poker`).
    let (all, decisions) = check(&Leduc::new());
    assert_eq!(decisions, 936);
    assert!(all > decisions);
}

#[test]
fn a_different_private_card_is_a_different_tensor() {
    // First player to act, same (empty) betting: J against K.
    let jack = Kuhn::new().child(card(0)).child(card(1));
    let king = Kuhn::new().child(card(2)).child(card(1));
    assert_eq!(jack.turn(), Turn::Player(PlayerId::FIRST));
    assert_ne!(jack.observation(PlayerId::FIRST), king.observation(PlayerId::FIRST));
    // The second player holds Q in both and sees the same.
    assert_eq!(jack.observation(PlayerId::SECOND), king.observation(PlayerId::SECOND));
    let a = Leduc::new().child(card(0)).child(card(2));
    let b = Leduc::new().child(card(1)).child(card(2));
    assert_ne!(a.observation(PlayerId::FIRST), b.observation(PlayerId::FIRST));
    assert_eq!(a.observation(PlayerId::SECOND), b.observation(PlayerId::SECOND));
}

/// The chance action dealing card `c`.
fn card(c: u32) -> engine::game::Action {
    engine::game::Action(c)
}
