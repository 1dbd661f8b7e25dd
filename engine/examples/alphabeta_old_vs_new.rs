//! The yardstick of the one alpha-beta on the RULES-more.md games (issue #17 item 1): the
//! `alphabeta` of [`engine::search::game_bot::from_spec`] (the searcher of `engine::search::alphabeta`
//! on the copy-make adapter) against the fixed-depth negamax it replaced (`negamax:depth=N`,
//! reproduced below; and the PIMC on it, `oldpimc:k=N,depth=N`), or any two specs, as `more_match` plays them: colours alternating, the
//! first two plies random (shared by each pair of games), 300 plies then a draw.
//!
//! `cargo run --release -p anqi-engine --example alphabeta_old_vs_new -- PRESET SPEC_A SPEC_B [GAMES]`
//! (e.g. `missile alphabeta:depth=3 negamax:depth=3 10`).
#[path = "common/head_to_head.rs"]
mod head_to_head;
use head_to_head::head_to_head;
use engine::game::Turn;
use engine::game::Action;
use engine::search::game_bot::{from_spec, GameBot};
use engine::search::Scored;
use engine::more::presets::{with_game, Playable, WithGame};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The replaced `more::bots` alpha-beta (fixed-depth negamax on copies, captures first, random
/// among equal best; removed in issue #17 item 1), kept here only as the yardstick of its
/// replacement, spec `negamax:depth=N`.
struct OldNegamax {
    depth: u32,
    rng: Pcg64Mcg,
}

const MATE: i32 = 1_000_000;

fn negamax<G: Scored>(g: &G, depth: u32, mut alpha: i32, beta: i32, nodes: &mut u64, ply: i32) -> i32 {
    *nodes += 1;
    let me = match g.turn() {
        Turn::Player(p) => p,
        Turn::Terminal | Turn::Chance => return 0,
    };
    if depth == 0 || *nodes >= 2_000_000 {
        return g.eval_cp(me);
    }
    let mut l = g.legal_actions();
    l.sort_by_key(|&a| -g.gain_cp(a));
    let mut best = -MATE - 1;
    for a in l {
        let c = g.child(a);
        let v = match c.turn() {
            Turn::Terminal => {
                let r = c.returns(me);
                if r == 0.0 {
                    0
                } else {
                    (MATE - ply - 1) * r.signum() as i32
                }
            }
            Turn::Player(p) if p == me => negamax(&c, depth - 1, alpha, beta, nodes, ply + 1),
            _ => -negamax(&c, depth - 1, -beta, -alpha, nodes, ply + 1),
        };
        if v > best {
            best = v;
        }
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Every legal action of `g` scored by the old negamax at `depth` within `budget` nodes.
fn score_actions<G: Scored>(g: &G, depth: u32, budget: u64) -> Vec<(Action, i32)> {
    let Turn::Player(me) = g.turn() else { return Vec::new() };
    let mut nodes = 2_000_000 - budget;
    g.legal_actions()
        .into_iter()
        .map(|a| {
            let c = g.child(a);
            let v = match c.turn() {
                Turn::Terminal => (c.returns(me) * MATE as f64) as i32,
                Turn::Player(p) if p == me => negamax(&c, depth.saturating_sub(1), -MATE - 1, MATE + 1, &mut nodes, 1),
                _ => -negamax(&c, depth.saturating_sub(1), -MATE - 1, MATE + 1, &mut nodes, 1),
            };
            (a, v)
        })
        .collect()
}

/// The replaced `more::bots` PIMC (summed negamax scores of every action over `k`
/// determinizations, 200 000 nodes per search), spec `oldpimc:k=N,depth=N`.
struct OldPimc {
    k: u32,
    depth: u32,
    rng: Pcg64Mcg,
}

impl<G: Scored> GameBot<G> for OldPimc {
    fn name(&self) -> String {
        format!("oldpimc:k={},depth={}", self.k, self.depth)
    }
    fn choose(&mut self, g: &G) -> Action {
        let Turn::Player(me) = g.turn() else { return g.legal_actions()[0] };
        let legal = g.legal_actions();
        let mut sum: std::collections::HashMap<Action, i64> = std::collections::HashMap::new();
        for _ in 0..self.k.max(1) {
            let d = g.sample_determinization(me, &mut self.rng);
            for (a, v) in score_actions(&d, self.depth, 200_000) {
                *sum.entry(a).or_insert(0) += v as i64;
            }
        }
        let best = legal.iter().map(|a| sum.get(a).copied().unwrap_or(i64::MIN)).max().unwrap_or(0);
        let top: Vec<Action> = legal.iter().copied().filter(|a| sum.get(a).copied().unwrap_or(i64::MIN) == best).collect();
        top[self.rng.random_range(0..top.len())]
    }
}

impl<G: Scored> GameBot<G> for OldNegamax {
    fn name(&self) -> String {
        format!("negamax:depth={}", self.depth)
    }
    fn choose(&mut self, g: &G) -> Action {
        let s = score_actions(g, self.depth, 2_000_000);
        let best = s.iter().map(|x| x.1).max().unwrap_or(0);
        let top: Vec<Action> = s.iter().filter(|x| x.1 == best).map(|x| x.0).collect();
        top[self.rng.random_range(0..top.len())]
    }
}

fn bot<G: Scored>(spec: &str, seed: u64) -> Box<dyn GameBot<G>> {
    if let Some(d) = spec.strip_prefix("negamax:depth=") {
        return Box::new(OldNegamax { depth: d.parse().expect("depth"), rng: Pcg64Mcg::seed_from_u64(seed) });
    }
    if let Some(p) = spec.strip_prefix("oldpimc:") {
        let (k, d) = p.split_once(",depth=").expect("oldpimc:k=N,depth=N");
        let k = k.trim_start_matches("k=").parse().expect("k");
        return Box::new(OldPimc { k, depth: d.parse().expect("depth"), rng: Pcg64Mcg::seed_from_u64(seed) });
    }
    from_spec::<G>(spec, seed).expect("spec")
}

struct Match {
    a: String,
    b: String,
    games: u32,
}

impl WithGame for Match {
    type Output = ();
    fn run<G: Playable>(self, start: G) {
        head_to_head(&start, self.games, &self.a, &self.b, bot::<G>);
    }
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let games = a.get(3).and_then(|g| g.parse().ok()).unwrap_or(10);
    with_game(&a[0], None, Match { a: a[1].clone(), b: a[2].clone(), games }).expect("preset");
}
