//! Solvers and test games: known values (Kuhn poker -1/18, uniform-policy exploitability 11/24),
//! convergence, agreement with OpenSpiel, and the generic game battery on Kuhn and Leduc.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use engine::game::{Action, Game, GameInfo, PlayerId, Turn, Utility};
use engine::games::{Kuhn, Leduc};
use engine::solve::{
    best_response, evaluate, expected_values, exploitability, new_solver, Algorithm, CfrConfig,
    CfrSolver, GameTree, MccfrSolver, Sampling, SolveError, UniformPolicy,
};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// First player's equilibrium value of Kuhn poker.
const KUHN_VALUE: f64 = -1.0 / 18.0;

/// Iterations at which each algorithm is expected to have Kuhn's value within 1e-3.
fn kuhn_iterations(algorithm: Algorithm) -> u64 {
    match algorithm {
        Algorithm::Cfr => 10_000,
        Algorithm::CfrPlus | Algorithm::Dcfr => 1_000,
        Algorithm::ExternalSampling => 300_000,
        Algorithm::OutcomeSampling => 1_000_000,
    }
}

#[test]
fn kuhn_value_for_every_algorithm() {
    for algorithm in Algorithm::ALL {
        let mut solver = new_solver(&Kuhn::new(), algorithm, 7).expect("solver");
        for _ in 0..kuhn_iterations(algorithm) {
            solver.iterate();
        }
        let eval = evaluate(&Kuhn::new(), &solver.average_policy()).expect("evaluate");
        assert!(
            (eval.values[0] - KUHN_VALUE).abs() < 1e-3,
            "{algorithm}: value {} vs -1/18 (exploitability {})",
            eval.values[0],
            eval.exploitability
        );
        assert!(
            (eval.values[0] + eval.values[1]).abs() < 1e-12,
            "{algorithm}: not zero-sum"
        );
        assert!(
            eval.exploitability < 6e-3,
            "{algorithm}: exploitability {}",
            eval.exploitability
        );
    }
}

#[test]
fn kuhn_exploitability_decreases() {
    for algorithm in Algorithm::ALL {
        let checkpoints: &[u64] = if algorithm.is_sampled() {
            &[1_000, 10_000, 100_000, 1_000_000]
        } else {
            &[10, 100, 1_000, 10_000]
        };
        let mut solver = new_solver(&Kuhn::new(), algorithm, 11).expect("solver");
        let mut previous = f64::INFINITY;
        for &n in checkpoints {
            while solver.iterations() < n {
                solver.iterate();
            }
            let e = exploitability(&Kuhn::new(), &solver.average_policy()).expect("exploitability");
            assert!(
                e < previous,
                "{algorithm}: exploitability {e} after {n} iterations, was {previous}"
            );
            previous = e;
        }
    }
}

#[test]
fn kuhn_full_width_solvers_converge_tightly() {
    for (config, iterations, bound) in [
        (CfrConfig::CFR, 10_000, 2e-4),
        (CfrConfig::CFR_PLUS, 10_000, 2e-5),
        (CfrConfig::DCFR, 10_000, 5e-5),
    ] {
        let mut solver = CfrSolver::new(&Kuhn::new(), config).expect("solver");
        solver.run(iterations);
        let eval = solver.evaluate();
        assert!(
            eval.exploitability < bound,
            "{config:?}: {}",
            eval.exploitability
        );
        assert!(
            (eval.values[0] - KUHN_VALUE).abs() < 1e-4,
            "{config:?}: {}",
            eval.values[0]
        );
    }
}

#[test]
fn leduc_cfr_plus_exploitability_below_one_hundredth() {
    let mut solver = CfrSolver::new(&Leduc::new(), CfrConfig::CFR_PLUS).expect("solver");
    solver.run(200);
    let e = solver.exploitability();
    assert!(
        e < 0.01,
        "Leduc CFR+ exploitability {e} after 200 iterations"
    );
    // The same number through the generic path (table policy, fresh tree, best response).
    let generic = exploitability(&Leduc::new(), &solver.average_policy()).expect("exploitability");
    assert!((generic - e).abs() < 1e-12);
}

#[test]
fn leduc_full_width_exploitability_decreases() {
    for config in [CfrConfig::CFR, CfrConfig::CFR_PLUS, CfrConfig::DCFR] {
        let mut solver = CfrSolver::new(&Leduc::new(), config).expect("solver");
        let mut previous = f64::INFINITY;
        for n in [10, 50, 250] {
            solver.run(n - solver.iterations());
            let e = solver.exploitability();
            assert!(e < previous, "{config:?}: {e} after {n}, was {previous}");
            previous = e;
        }
    }
}

#[test]
fn leduc_mccfr_makes_progress() {
    let uniform = exploitability(&Leduc::new(), &UniformPolicy).expect("exploitability");
    // After 20k iterations (seed 3): external sampling 0.19, outcome sampling 0.87.
    for (sampling, bound) in [
        (Sampling::External, 0.3),
        (Sampling::Outcome { epsilon: 0.6 }, uniform / 2.0),
    ] {
        let mut solver = MccfrSolver::new(Leduc::new(), sampling, 3).expect("solver");
        solver.run(20_000);
        let e = exploitability(&Leduc::new(), &solver.average_policy()).expect("exploitability");
        assert!(e < bound, "{sampling:?}: {e} (uniform {uniform})");
        assert!(solver.num_infosets() <= 936);
    }
}

/// OpenSpiel 2.0.2 (`pyspiel.CFRSolver`, `CFRPlusSolver`, Python `DCFRSolver`), 28 iterations,
/// `exploitability(game, solver.average_policy())`.
#[test]
fn matches_openspiel_after_28_iterations() {
    let cases: [(&str, CfrConfig, f64); 6] = [
        ("kuhn", CfrConfig::CFR, 0.027934570199622366),
        ("kuhn", CfrConfig::CFR_PLUS, 0.0065874982854277064),
        ("kuhn", CfrConfig::DCFR, 0.009560780132885166),
        ("leduc", CfrConfig::CFR, 0.3480947065687731),
        ("leduc", CfrConfig::CFR_PLUS, 0.09603788534783855),
        ("leduc", CfrConfig::DCFR, 0.07028622747080093),
    ];
    for (game, config, expected) in cases {
        let mut solver = match game {
            "kuhn" => CfrSolver::new(&Kuhn::new(), config),
            _ => CfrSolver::new(&Leduc::new(), config),
        }
        .expect("solver");
        solver.run(28);
        let e = solver.exploitability();
        assert!(
            (e - expected).abs() < 1e-12,
            "{game} {config:?}: {e} vs OpenSpiel {expected}"
        );
    }
}

/// Uniform random Kuhn, by hand. Against a uniform second player the first player's best
/// response bets with J and Q: J: -1/2 (checking loses 1 either way), Q: +1/2, K: +3/2, so
/// 1/2 on average. Against a uniform first player the second player's best response is
/// J: fold to a bet, bet after a check (-3/4); Q: call a bet, bet after a check (+1/4);
/// K: call, bet (+7/4): 5/12 on average. NashConv = 1/2 + 5/12 = 11/12 (the uniform profile's
/// values sum to 0), exploitability 11/24 = 0.458333..., which is what OpenSpiel reports
/// (0.45833333333333326). The uniform profile's own value is 1/8 for the first player
/// (bp pays +1 with probability 1/4, pbp -1 with probability 1/8, showdowns cancel).
#[test]
fn uniform_kuhn_best_response_by_hand() {
    let root = Kuhn::new();
    let br0 = best_response(&root, &UniformPolicy, PlayerId::FIRST).expect("br");
    let br1 = best_response(&root, &UniformPolicy, PlayerId::SECOND).expect("br");
    assert!((br0.value - 0.5).abs() < 1e-12, "{}", br0.value);
    assert!((br1.value - 5.0 / 12.0).abs() < 1e-12, "{}", br1.value);
    let values = expected_values(&root, &UniformPolicy).expect("values");
    assert!(
        (values[0] - 0.125).abs() < 1e-12 && (values[1] + 0.125).abs() < 1e-12,
        "{values:?}"
    );
    let e = exploitability(&root, &UniformPolicy).expect("exploitability");
    assert!((e - 11.0 / 24.0).abs() < 1e-12, "{e}");
    assert!((e - 0.4583333).abs() < 1e-7);
    // The first player's best response bets with J and Q (with K betting and checking tie).
    for card in 0..2u32 {
        let state = root.child(Action(card)).child(Action((card + 1) % 3));
        assert_eq!(
            br0.actions.get(&state.infoset_key(PlayerId::FIRST)),
            Some(&Kuhn::BET)
        );
    }
}

/// OpenSpiel reports 2.373611111111111 for the uniform policy on leduc_poker.
#[test]
fn uniform_leduc_exploitability_matches_openspiel() {
    let e = exploitability(&Leduc::new(), &UniformPolicy).expect("exploitability");
    assert!((e - 2.373611111111111).abs() < 1e-12, "{e}");
}

#[test]
fn tree_sizes_match_openspiel() {
    let kuhn = GameTree::build(&Kuhn::new()).expect("tree");
    assert_eq!((kuhn.nodes.len(), kuhn.infosets.len()), (58, 12));
    let leduc = GameTree::build(&Leduc::new()).expect("tree");
    assert_eq!((leduc.nodes.len(), leduc.infosets.len()), (9457, 936));
}

#[test]
fn mccfr_is_deterministic_given_seed() {
    for sampling in [Sampling::External, Sampling::Outcome { epsilon: 0.6 }] {
        let run = |seed| {
            let mut s = MccfrSolver::new(Kuhn::new(), sampling, seed).expect("solver");
            s.run(2_000);
            s.average_policy()
        };
        assert_eq!(run(5), run(5), "{sampling:?}");
        assert_ne!(run(5), run(6), "{sampling:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Generic battery, run on every game.

/// Runs every battery check on a game. `information(history, player)` is an independent
/// reference for what `player` knows after the action history (for the poker games: their own
/// card, then every action after the private deals).
fn battery<G: Game + Eq + Hash>(root: &G, information: impl Fn(&[Action], PlayerId) -> Vec<u32>) {
    random_playouts(root, 2_000);
    let states = enumerate(root);
    infoset_partitions(&states, &information);
    determinizations(&states);
}

/// The first two actions deal the private cards (the first player's, then the second's); each
/// player sees their own card and that the other was dealt; everything after is public.
fn kuhn_and_leduc_information(history: &[Action], player: PlayerId) -> Vec<u32> {
    let seen = |(i, a): (usize, &Action)| {
        if i < 2 && i != player.index() {
            u32::MAX
        } else {
            a.0
        }
    };
    history.iter().enumerate().map(seen).collect()
}

#[test]
fn battery_kuhn() {
    battery(&Kuhn::new(), kuhn_and_leduc_information);
}

#[test]
fn battery_leduc() {
    battery(&Leduc::new(), kuhn_and_leduc_information);
}

/// Checks one state's lists against its turn; returns the turn.
fn check_state<G: Game>(state: &G, info: &GameInfo) -> Turn {
    let turn = state.turn();
    let actions = state.legal_actions();
    let outcomes = state.chance_outcomes();
    match turn {
        Turn::Player(p) => {
            assert!(p.index() < info.num_players);
            assert!(!actions.is_empty() && outcomes.is_empty());
            assert_eq!(
                actions.iter().collect::<HashSet<_>>().len(),
                actions.len(),
                "duplicate actions"
            );
        }
        Turn::Chance => {
            assert!(actions.is_empty() && !outcomes.is_empty());
            let total: f64 = outcomes.iter().map(|o| o.1).sum();
            assert!(
                (total - 1.0).abs() < 1e-12,
                "chance probabilities sum to {total}"
            );
            assert!(outcomes.iter().all(|o| o.1 > 0.0 && o.1 <= 1.0));
            assert_eq!(
                outcomes.iter().map(|o| o.0).collect::<HashSet<_>>().len(),
                outcomes.len()
            );
        }
        Turn::Terminal => {
            assert!(actions.is_empty() && outcomes.is_empty());
            let r = [
                state.returns(PlayerId::FIRST),
                state.returns(PlayerId::SECOND),
            ];
            assert!(
                r.iter()
                    .all(|&x| x >= info.min_utility && x <= info.max_utility),
                "{r:?}"
            );
            if info.utility == Utility::ZeroSum {
                assert!((r[0] + r[1]).abs() < 1e-12, "not zero-sum: {r:?}");
            }
        }
    }
    turn
}

fn random_playouts<G: Game + Eq>(root: &G, games: usize) {
    let info = root.info();
    let mut rng = Pcg64Mcg::seed_from_u64(2024);
    let mut terminal_returns = HashSet::new();
    for _ in 0..games {
        let mut state = root.clone();
        let mut steps = 0;
        loop {
            steps += 1;
            assert!(steps < 10_000, "playout does not end");
            match check_state(&state, &info) {
                Turn::Terminal => break,
                Turn::Chance => {
                    let outcomes = state.chance_outcomes();
                    let mut u: f64 = rng.random();
                    let mut pick = outcomes[outcomes.len() - 1].0;
                    for &(a, p) in &outcomes {
                        if u < p {
                            pick = a;
                            break;
                        }
                        u -= p;
                    }
                    state.apply(pick);
                }
                Turn::Player(_) => {
                    let actions = state.legal_actions();
                    let a = actions[rng.random_range(0..actions.len())];
                    let child = state.child(a);
                    state.apply(a);
                    assert!(child == state, "child() differs from apply()");
                }
            }
        }
        terminal_returns.insert(state.returns(PlayerId::FIRST).to_bits());
    }
    assert!(
        terminal_returns.len() > 2,
        "random playouts reach too few distinct outcomes"
    );
}

/// Every state of the game with its action history.
fn enumerate<G: Game>(root: &G) -> Vec<(Vec<Action>, G)> {
    fn walk<G: Game>(state: &G, history: &mut Vec<Action>, out: &mut Vec<(Vec<Action>, G)>) {
        out.push((history.clone(), state.clone()));
        let actions: Vec<Action> = match state.turn() {
            Turn::Terminal => return,
            Turn::Chance => state.chance_outcomes().into_iter().map(|o| o.0).collect(),
            Turn::Player(_) => state.legal_actions(),
        };
        for a in actions {
            history.push(a);
            walk(&state.child(a), history, out);
            history.pop();
        }
    }
    let mut out = Vec::new();
    walk(root, &mut Vec::new(), &mut out);
    out
}

/// Keys and strings partition the states exactly as the reference information does, and
/// states in one information set agree on the turn and legal actions when the player acts.
fn infoset_partitions<G: Game>(
    states: &[(Vec<Action>, G)],
    information: &impl Fn(&[Action], PlayerId) -> Vec<u32>,
) {
    for player in PlayerId::BOTH {
        let mut by_key: HashMap<u64, (Vec<u32>, String)> = HashMap::new();
        let mut by_info: HashMap<Vec<u32>, u64> = HashMap::new();
        let mut by_string: HashMap<String, u64> = HashMap::new();
        let mut acting: HashMap<u64, Vec<Action>> = HashMap::new();
        for (history, state) in states {
            let key = state.infoset_key(player);
            let string = state.infoset_string(player);
            let info = information(history, player);
            let entry = by_key
                .entry(key)
                .or_insert_with(|| (info.clone(), string.clone()));
            assert_eq!(
                entry.0, info,
                "{player}: key {key:#x} shared by different information"
            );
            assert_eq!(entry.1, string, "{player}: key {key:#x} has two strings");
            assert_eq!(
                *by_info.entry(info).or_insert(key),
                key,
                "{player}: one information, two keys ({string})"
            );
            assert_eq!(
                *by_string.entry(string.clone()).or_insert(key),
                key,
                "{player}: string {string} has two keys"
            );
            if state.turn() == Turn::Player(player) {
                let actions = state.legal_actions();
                assert_eq!(
                    acting.entry(key).or_insert_with(|| actions.clone()),
                    &actions,
                    "{string}"
                );
            }
        }
    }
}

/// Determinizations keep the player's information, are real states of the game, and cover
/// the information set.
fn determinizations<G: Game + Eq + Hash>(states: &[(Vec<Action>, G)]) {
    let all: HashSet<&G> = states.iter().map(|(_, s)| s).collect();
    let mut rng = Pcg64Mcg::seed_from_u64(99);
    for player in PlayerId::BOTH {
        let mut members: HashMap<u64, HashSet<&G>> = HashMap::new();
        for (_, s) in states {
            members.entry(s.infoset_key(player)).or_default().insert(s);
        }
        for (_, state) in states.iter().step_by(3) {
            let key = state.infoset_key(player);
            let set = &members[&key];
            let mut seen = HashSet::new();
            for _ in 0..200 {
                let d = state.sample_determinization(player, &mut rng);
                assert_eq!(
                    d.infoset_key(player),
                    key,
                    "{player}: determinization changed the information"
                );
                assert!(
                    all.contains(&d),
                    "{player}: determinization is not a state of the game: {d:?}"
                );
                assert!(set.contains(&d));
                seen.insert(d);
            }
            if set.len() <= 6 {
                assert_eq!(
                    seen.len(),
                    set.len(),
                    "{player}: determinizations miss states of {}",
                    state.infoset_string(player)
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Tree construction rejects games that break the contract.

/// Kuhn poker whose information-set key forgets the betting: violates perfect recall.
#[derive(Clone, Debug)]
struct ForgetfulKuhn(Kuhn);

impl Game for ForgetfulKuhn {
    fn info(&self) -> GameInfo {
        self.0.info()
    }
    fn turn(&self) -> Turn {
        self.0.turn()
    }
    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        self.0.legal_actions_into(out);
    }
    fn chance_outcomes_into(&self, out: &mut Vec<(Action, f64)>) {
        self.0.chance_outcomes_into(out);
    }
    fn apply(&mut self, action: Action) {
        self.0.apply(action);
    }
    fn returns(&self, player: PlayerId) -> f64 {
        self.0.returns(player)
    }
    fn infoset_key(&self, player: PlayerId) -> u64 {
        self.0.infoset_key(player) & 3
    }
    fn infoset_string(&self, player: PlayerId) -> String {
        self.0.infoset_string(player)
    }
    fn sample_determinization<R: Rng + ?Sized>(&self, player: PlayerId, rng: &mut R) -> Self {
        ForgetfulKuhn(self.0.sample_determinization(player, rng))
    }
}

#[test]
fn tree_rejects_imperfect_recall() {
    assert!(matches!(
        GameTree::build(&ForgetfulKuhn(Kuhn::new())),
        Err(SolveError::ImperfectRecall(_))
    ));
    assert!(matches!(
        GameTree::build_with_limit(&Leduc::new(), 1000),
        Err(SolveError::TreeTooLarge { .. })
    ));
}
