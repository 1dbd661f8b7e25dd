//! The generic game battery of `tests/solvers.rs` (random playouts, list contracts, information
//! sets against an independent reference, determinizations inside their information set) run on
//! variant games behind [`engine::game::Game`] ([`VariantGameState`]), on small trees: a Jieqi
//! ending with face-down pieces (chance reveals, capturer-only knowledge §F6), Surprise from its
//! set-up phase (secret layout choices §S2), and a Fan-qi mode-9 ending dealt at random
//! (owner's-choice identities §F3); plus CFR and MCCFR on the Jieqi ending with exploitability.

use std::collections::{HashMap, HashSet};

use engine::game::{Action, Game, PlayerId, Turn, Utility};
use engine::solve::{evaluate, CfrConfig, CfrSolver, GameTree, MccfrSolver, Sampling};
use engine::variant::game_state::{decode, decode_chance, GameOptions, Leaf, VariantGameState};
use engine::variant::{fen as vfen, Action as VAction, State, Variant};
use engine::Color;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn variant(name: &str) -> &'static Variant {
    engine::any_game::load_variant(name).expect("preset")
}

const JIEQI_ENDING: &str = "x3k4/9/9/2x6/9/9/4X4/9/9/X3K4 w R1P1r1p1 0 1";

fn opts(plies: u32) -> GameOptions {
    GameOptions { max_plies: plies, leaf: Leaf::Eval { scale_cp: 400.0 } }
}

/// What `player` knows after `history` at `state`, read without the engine's views: every
/// player action is public except set-up choices, seen only by their maker; a reveal's drawn type
/// is public, a captured face-down piece's identity is seen by the capturer only (Jieqi); a deal
/// is seen through `deal_part`; and what the rules show on the board: the public board (pieces
/// by the type they move as, face-down marked; identities of pieces turned face-down in view of
/// both, §F5), captured Surprise discs with the backs shown
/// (§S8) or owned, captured face-down identities the player knows (§F6). Player actions
/// alternate Red, Black (no negotiation here).
fn information(history: &[Action], state: &State, trace: &str, player: PlayerId, deal_part: &dyn Fn(u32, PlayerId) -> u32) -> String {
    let mut out = format!("{trace} || ");
    let mut actor = PlayerId::FIRST;
    let mut last_actor = PlayerId::FIRST;
    for (i, a) in history.iter().enumerate() {
        if let Some(va) = decode(*a) {
            let secret = matches!(va, VAction::Layout { .. } | VAction::Place { .. });
            if secret && actor != player {
                out += "secret ";
            } else {
                out += &format!("{} ", a.0);
            }
            last_actor = actor;
            actor = actor.opponent();
        } else if let Some(o) = decode_chance(*a) {
            let captured = if last_actor == player { format!("{:?}", o.captured) } else { "?".into() };
            out += &format!("reveal {:?} {captured} ", o.mover);
        } else {
            assert_eq!(i, 0, "a deal only at the root");
            out += &format!("deal {} ", deal_part(a.0 & 0xFFFF, player));
        }
    }
    let me = if player == PlayerId::FIRST { Color::Red } else { Color::Black };
    let board = vfen::write(state).split_whitespace().next().unwrap_or("").to_string();
    out += &format!("| {board} |");
    // Pieces turned face-down in view of both (§F5) keep a public identity.
    for sq in state.public_identities() {
        out += &format!(" {sq}={:?}", state.identity(sq));
    }
    out += " |";
    for &(owner, vis, back, shown) in state.captured_discs() {
        let b = if shown || owner == me { format!("{back:?}") } else { "?".into() };
        out += &format!(" {owner:?}{vis:?}/{b}");
    }
    out += " |";
    for (&(_, owner, r), known) in state.captured_face_down().iter().zip(state.captured_known()) {
        let r = if known[me.index()] { format!("{r:?}") } else { "?".into() };
        out += &format!(" {owner:?}{r}");
    }
    out
}

/// Every state below `root` with its action history and the trace of public boards along the
/// way (pieces by the type they move as; a revealed identity shows there, perfect recall).
fn enumerate(root: &VariantGameState) -> Vec<(Vec<Action>, VariantGameState, String)> {
    fn board(g: &VariantGameState) -> String {
        vfen::write(g.state()).split_whitespace().next().unwrap_or("").to_string()
    }
    fn walk(state: &VariantGameState, history: &mut Vec<Action>, trace: &str, out: &mut Vec<(Vec<Action>, VariantGameState, String)>) {
        out.push((history.clone(), state.clone(), trace.to_string()));
        let actions: Vec<Action> = match state.turn() {
            Turn::Terminal => return,
            Turn::Chance => state.chance_outcomes().into_iter().map(|o| o.0).collect(),
            Turn::Player(_) => state.legal_actions(),
        };
        for a in actions {
            history.push(a);
            let child = state.child(a);
            // The deal's board is the start board for everyone.
            let t = if history.len() == 1 && state.turn() == Turn::Chance && decode_chance(a).is_none() { trace.to_string() } else { format!("{trace} {}", board(&child)) };
            walk(&child, history, &t, out);
            history.pop();
        }
    }
    let mut out = Vec::new();
    walk(root, &mut Vec::new(), &board(root), &mut out);
    out
}

fn check_lists<G: Game>(state: &G) {
    let info = state.info();
    let actions = state.legal_actions();
    let outcomes = state.chance_outcomes();
    match state.turn() {
        Turn::Player(_) => {
            assert!(!actions.is_empty() && outcomes.is_empty());
            assert_eq!(actions.iter().collect::<HashSet<_>>().len(), actions.len(), "duplicate actions");
            assert!(actions.windows(2).all(|w| w[0] < w[1]), "actions not in ascending code order");
        }
        Turn::Chance => {
            assert!(actions.is_empty() && !outcomes.is_empty());
            let total: f64 = outcomes.iter().map(|o| o.1).sum();
            assert!((total - 1.0).abs() < 1e-12, "chance probabilities sum to {total}");
            assert!(outcomes.iter().all(|o| o.1 > 0.0 && o.1 <= 1.0));
        }
        Turn::Terminal => {
            assert!(actions.is_empty() && outcomes.is_empty());
            let r = [state.returns(PlayerId::FIRST), state.returns(PlayerId::SECOND)];
            assert!(r.iter().all(|&x| x >= info.min_utility && x <= info.max_utility), "{r:?}");
            assert_eq!(info.utility, Utility::ZeroSum);
            assert!((r[0] + r[1]).abs() < 1e-12);
        }
    }
}

fn random_playouts<G: Game>(root: &G, games: usize) {
    let mut rng = Pcg64Mcg::seed_from_u64(2024);
    for _ in 0..games {
        let mut state = root.clone();
        let mut steps = 0;
        loop {
            steps += 1;
            assert!(steps < 10_000, "playout does not end");
            check_lists(&state);
            match state.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let outs = state.chance_outcomes();
                    let a = outs[rng.random_range(0..outs.len())].0;
                    state.apply(a);
                }
                Turn::Player(_) => {
                    let acts = state.legal_actions();
                    let a = acts[rng.random_range(0..acts.len())];
                    let child = state.child(a);
                    state.apply(a);
                    assert_eq!(format!("{child:?}"), format!("{state:?}"), "child() differs from apply()");
                }
            }
        }
    }
}

/// Keys and strings partition the states as the reference does; an information set's states
/// agree on the acting player's legal actions.
fn infoset_partitions(states: &[(Vec<Action>, VariantGameState, String)], deal_part: &dyn Fn(u32, PlayerId) -> u32) {
    for player in PlayerId::BOTH {
        let mut by_key: HashMap<u64, String> = HashMap::new();
        let mut by_info: HashMap<String, u64> = HashMap::new();
        let mut acting: HashMap<u64, Vec<Action>> = HashMap::new();
        for (history, state, trace) in states {
            if state.turn() == Turn::Chance && history.is_empty() {
                continue; // the deal root: before any information
            }
            let key = state.infoset_key(player);
            let info = information(history, state.state(), trace, player, deal_part);
            let entry = by_key.entry(key).or_insert_with(|| info.clone());
            assert_eq!(entry, &info, "{player}: key {key:#x} shared by different information ({history:?})");
            assert_eq!(*by_info.entry(info).or_insert(key), key, "{player}: one information, two keys ({history:?})");
            if state.turn() == Turn::Player(player) {
                let actions = state.legal_actions();
                assert_eq!(acting.entry(key).or_insert_with(|| actions.clone()), &actions, "{}", state.infoset_string(player));
            }
        }
    }
}

/// Determinizations keep the player's key and are states of the enumerated game in the same
/// information set; small information sets are covered.
fn determinizations(states: &[(Vec<Action>, VariantGameState, String)], step: usize, samples: usize) {
    let all: HashSet<&VariantGameState> = states.iter().map(|(_, s, _)| s).collect();
    let mut rng = Pcg64Mcg::seed_from_u64(99);
    for player in PlayerId::BOTH {
        let mut members: HashMap<u64, HashSet<&VariantGameState>> = HashMap::new();
        for (h, s, _) in states {
            if !h.is_empty() {
                members.entry(s.infoset_key(player)).or_default().insert(s);
            }
        }
        for (h, state, _) in states.iter().step_by(step) {
            if h.is_empty() || state.turn() == Turn::Chance {
                continue;
            }
            let key = state.infoset_key(player);
            let set = &members[&key];
            let mut seen = HashSet::new();
            for _ in 0..samples {
                let d = state.sample_determinization(player, &mut rng);
                assert_eq!(d.infoset_key(player), key, "{player}: determinization changed the information");
                assert!(all.contains(&d), "{player}: determinization is not a state of the game: {d:?}");
                assert!(set.contains(&d), "{player}: determinization outside the information set");
                seen.insert(d);
            }
            if set.len() <= 4 && samples >= 100 {
                assert_eq!(seen.len(), set.len(), "{player}: determinizations miss states of {}", state.infoset_string(player));
            }
            // The searches' determinizer (the view built once, `Scored::determinizer`) draws what
            // `sample_determinization` draws, and the same from every state of the information
            // set: two states of one information set, one stream of determinizations.
            let draws = |s: &VariantGameState| {
                let mut r = Pcg64Mcg::seed_from_u64(7);
                let mut draw = engine::search::Scored::determinizer(s, player);
                (0..4).map(|_| draw(&mut r)).collect::<Vec<_>>()
            };
            let mut r = Pcg64Mcg::seed_from_u64(7);
            let one = (0..4).map(|_| state.sample_determinization(player, &mut r)).collect::<Vec<_>>();
            assert_eq!(draws(state), one, "{player}: the determinizer draws other states");
            for other in set {
                assert_eq!(draws(other), one, "{player}: two states of one information set draw differently");
            }
        }
    }
}

fn no_deal(_: u32, _: PlayerId) -> u32 {
    0
}

#[test]
fn battery_jieqi_ending() {
    let s = vfen::parse(variant("jieqi"), JIEQI_ENDING).expect("fen");
    let root = VariantGameState::with_options(s, opts(2));
    random_playouts(&root, 300);
    let states = enumerate(&root);
    assert!(states.len() > 100, "{} states", states.len());
    infoset_partitions(&states, &no_deal);
    determinizations(&states, 3, 100);
    // Some information set of Black holds states that differ in a captured identity only Red saw.
    let hidden = states.iter().any(|(h, st, _)| {
        st.turn() != Turn::Chance && h.len() >= 2 && st.state().captured_known().iter().any(|k| k[0] && !k[1])
    });
    assert!(hidden, "no capturer-only knowledge in the tree");
}

#[test]
fn battery_surprise_setup() {
    let root = VariantGameState::with_options(State::new_game(variant("surprise")), opts(3));
    random_playouts(&root, 200);
    let states = enumerate(&root);
    assert_eq!(states.iter().filter(|(h, _, _)| h.len() == 2).count(), 100, "10 x 10 layout pairs");
    infoset_partitions(&states, &no_deal);
    determinizations(&states, 37, 40);
}

#[test]
fn battery_fanqi9_dealt_ending() {
    // Mode 9 (owner's choice): each side has two face-down pieces, a chariot and a soldier, whose
    // places only the owner knows; the deal is uniform over the 2 x 2 arrangements.
    let v = variant("fanqi-9");
    let base = "x3k4/9/9/2x6/9/9/4X4/9/9/X3K4 w - 0 1";
    let red = [("a0=R", "e3=P"), ("a0=P", "e3=R")];
    let black = [("a9=r", "c6=p"), ("a9=p", "c6=r")];
    let mut deals = Vec::new();
    for r in red {
        for b in black {
            let fen = format!("{base} {},{},{},{}", r.0, r.1, b.0, b.1);
            deals.push((vfen::parse(v, &fen).unwrap_or_else(|e| panic!("{fen}: {e}")), 0.25));
        }
    }
    let root = VariantGameState::dealt(deals, opts(2));
    random_playouts(&root, 200);
    let states = enumerate(&root);
    // Deal index = 2 * red arrangement + black arrangement.
    let part = |i: u32, p: PlayerId| if p == PlayerId::FIRST { i / 2 } else { i % 2 };
    infoset_partitions(&states, &part);
    determinizations(&states, 5, 100);
}

#[test]
fn cfr_and_mccfr_on_the_jieqi_ending() {
    let s = vfen::parse(variant("jieqi"), JIEQI_ENDING).expect("fen");
    let root = VariantGameState::with_options(s, opts(2));
    let tree = GameTree::build(&root).expect("tree");
    assert!(tree.infosets.len() > 10);
    let mut cfr = CfrSolver::new(&root, CfrConfig::CFR_PLUS).expect("cfr+");
    cfr.run(300);
    let e = cfr.exploitability();
    assert!(e < 1e-3, "CFR+ exploitability {e}");
    let mut mc = MccfrSolver::new(root.clone(), Sampling::External, 1).expect("mccfr");
    mc.run(3000);
    let eval = evaluate(&root, &mc.average_policy()).expect("evaluate");
    assert!(eval.exploitability < 0.05, "ES-MCCFR exploitability {}", eval.exploitability);
    assert!((eval.values[0] - cfr.evaluate().values[0]).abs() < 0.05);
}

#[test]
fn prior_plies_count_for_repetition() {
    use engine::repetition::RecordPly as PriorPly;
    use engine::variant::game_state::public_hash;
    let v = variant("xiangqi");
    let s = State::start(v, None).expect("start");
    let h = public_hash(&s);
    let other = |x: u64| PriorPly { hash: x, gave_check: false, mover: Color::Red, board: true, quiet: None };
    let at = |gave_check| PriorPly { hash: h, gave_check, mover: Color::Black, board: true, quiet: None };
    // The start position twice before, now a third time: a draw by repetition (§X6).
    let g = VariantGameState::new(s.clone()).with_prior(&[at(false), other(1), at(false), other(2), at(false)]);
    assert!(g.is_terminal() && g.returns(PlayerId::FIRST) == 0.0, "{:?}", g.end());
    // Black checked on every one of its moves in the cycle, Red did not: Black loses.
    let checks = |x: u64| PriorPly { hash: x, gave_check: false, mover: Color::Red, board: true, quiet: None };
    let g = VariantGameState::new(s.clone()).with_prior(&[at(true), checks(1), at(true), checks(2), at(true)]);
    assert_eq!(g.returns(PlayerId::FIRST), 1.0, "{:?}", g.end());
    // Twice is not enough.
    let g = VariantGameState::new(s).with_prior(&[at(false), other(1), at(false)]);
    assert!(!g.is_terminal());
}

/// A determinization carries no trace of the true state beyond the observer's view: the other
/// player's information-set key in a sample is a function of what was drawn (so it differs
/// between samples that differ in the hidden layout), while the observer's key never changes.
#[test]
fn determinization_keys_follow_the_draw_not_the_truth() {
    use engine::variant::View;
    let v = variant("surprise");
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let mut s = State::start(v, Some(("C3", "C5"))).expect("layouts");
    for _ in 0..6 {
        let acts = s.legal_actions();
        s.apply(acts[rng.random_range(0..acts.len())]);
    }
    let me = s.turn();
    let view = View::new(&s, me);
    let mut other_keys = HashSet::new();
    for _ in 0..64 {
        let d = view.sample(&mut rng);
        assert_eq!(View::new(&d, me).infoset_key(), view.infoset_key());
        assert_eq!(d.observation_hash(me), s.observation_hash(me));
        // The other player's observation stream in a sample is not the truth's.
        other_keys.insert(d.observation_hash(me.opponent()));
    }
    assert!(other_keys.len() > 1, "the other player's observations did not vary over 64 determinizations");
    assert!(!other_keys.contains(&s.observation_hash(me.opponent())), "a sample carries the true observation stream");
}
