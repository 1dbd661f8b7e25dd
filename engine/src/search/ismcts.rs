//! Information Set Monte Carlo Tree Search: single-observer (SO-ISMCTS) and multiple-observer
//! (MO-ISMCTS), after P. I. Cowling, E. J. Powley and D. Whitehouse, "Information Set Monte Carlo
//! Tree Search", IEEE Transactions on Computational Intelligence and AI in Games 4(2), 2012
//! (Algorithms 2 and 3).
//!
//! One implementation serves every game: [`search`] runs on any [`Scored`] game (the variants
//! through [`VariantGameState`], the RULES-more.md games on their own states); [`IsmctsBot`] is
//! the variants' own [`GameBot`] and [`GameIsmctsBot`] the same search for any [`Scored`] game
//! ([`crate::search::game_bot::from_spec`]).
//!
//! Each iteration draws a *determinization* — a full state consistent with the searching
//! player's information (for the variants [`crate::variant::View::sample`]: the opponent's
//! Surprise back faces §S2, unseen face-down identities §F3/§F6; for any game
//! [`crate::game::Game::sample_determinization`]) — and descends the tree using only the actions legal in that
//! determinization ([`Scored::legal_ascending`]):
//!
//! * **selection**: UCB1 with *availability counts*, `mean + c * sqrt(ln(avail) / visits)`, where
//!   `avail` counts the iterations in which the child was legal (not the parent's visits), since
//!   which actions exist depends on the determinization (an opponent's flip depends on its own
//!   back faces, §S4-S6);
//! * **expansion**: one untried action legal in the determinization, uniformly at random;
//! * **simulation**: `rollout` uniformly random plies (0 by default), then the game's value — ±1/0
//!   at the end of the game (§X4-X6, §K7, §S11; [`crate::game::Game::returns`]), else `0.9 * tanh(eval /
//!   scale)` of the static evaluation ([`Scored::eval_cp`]; for the variants
//!   [`super::eval::value`]) of the determinized state, so a mate outranks any material gain; a
//!   line `horizon` player actions below the root is evaluated statically;
//! * **backpropagation**: each edge accumulates the result from the point of view of the player
//!   who chose it (rewards in [-1, 1]).
//!
//! Chance (reveals, §P2) is sampled with its exact probabilities and enters the tree as an
//! observation ([`Scored::chance_observation`]): the drawn type of a piece that turns up is
//! public; the identity of a captured face-down piece only for those who see it (§F6 and its
//! options). In **SO** mode one tree holds
//! every node, keyed by what the *searching* player observes. In **MO** mode each player has a
//! tree keyed by its own observations; a player's decisions are selected and updated in its own
//! tree, and every tree follows every action (all actions are public in these games), so the
//! opponent's choices are not made on information it does not have — the chance observations
//! are where the trees differ.
//!
//! Limitation: player actions are keyed by their code in every tree. That is exact once the
//! set-up is over (every move is public), and the variants never search a set-up decision
//! ([`super::setup_choice`]); but a RULES-more.md game searched during its secret set-up
//! (missile-hidden placements, camel and skill secrets) lets each tree tell the opponent's
//! secret placements apart (Cowling et al.'s partially observable moves are not modelled).
//!
//! Units: iterations (one determinization, one descent, one backpropagation each); the budget is
//! `iterations` and/or `ms` (wall time, checked every 16 iterations). Deterministic given the
//! seed when no time budget is set.

use crate::repetition::RecordPly;
use super::{ActionStat, Analysis, GameBot, Rank, Scored};
use crate::game::{Action as GameAction, PlayerId, Turn};
use crate::variant::game_state::{decode, encode, player_of, public_hash, GameOptions, Leaf, VariantGameState};
use crate::variant::{Action, State, View};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

/// Which trees the search keeps.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Observers {
    /// SO-ISMCTS: one tree, keyed by the searching player's observations.
    Single,
    /// MO-ISMCTS: one tree per player, each keyed by that player's observations.
    Multiple,
}

/// IS-MCTS budgets and options.
#[derive(Clone, Debug, PartialEq)]
pub struct IsmctsConfig {
    /// Iterations per decision.
    pub iterations: u64,
    /// Wall-time budget in milliseconds (stops before `iterations` if reached).
    pub ms: Option<u64>,
    /// UCB exploration constant (rewards in [-1, 1]).
    pub c: f64,
    /// SO or MO.
    pub mode: Observers,
    /// Random plies played after expansion before evaluating.
    pub rollout: u32,
    /// Centipawns mapped to tanh(1) by the leaf evaluation.
    pub scale: f64,
    /// Player actions below the root after which a line is evaluated statically (the variants'
    /// searched games also end there, [`IsmctsConfig::game_options`]).
    pub horizon: u32,
    /// The learned evaluation of the leaves (`eval=zoo:NAME|PATH`, [`crate::nnue`]) instead of
    /// [`Scored::eval_cp`]; `None`: the hand-written one, or the family's network where
    /// [`IsmctsConfig::family_eval`] says so. Lines cut at the horizon keep the hand-written value.
    pub eval: Option<crate::nnue::EvalNet>,
    /// With no `eval` (`eval=auto`, the default): the variant's published network
    /// ([`crate::nnue::default_for`]) where there is one; `eval=none` clears it (the spec then
    /// says `eval=none`).
    pub family_eval: bool,
}

impl Default for IsmctsConfig {
    /// 1000 iterations, c = 0.7, SO, no rollout, scale 600 cp, horizon 60 plies, the family's
    /// learned evaluation at the leaves (`eval=auto`; +151 ± 73 Elo in Jieqi, issue #36).
    fn default() -> Self {
        IsmctsConfig { iterations: 1000, ms: None, c: 0.7, mode: Observers::Single, rollout: 0, scale: 600.0, horizon: 60, eval: None, family_eval: true }
    }
}

/// The largest `iterations` an `ismcts` spec takes.
pub const MAX_ITERATIONS: u64 = 100_000_000;

impl IsmctsConfig {
    /// Parses `iterations=N,ms=N,c=X,mode=so|mo,rollout=N,scale=X,horizon=N,eval=auto|none|zoo:NAME|PATH`
    /// (any subset).
    ///
    /// # Errors
    /// A message naming the bad parameter.
    pub fn from_params(params: &str) -> Result<IsmctsConfig, String> {
        use super::{param_f64_in, param_in, param_once, MAX_SPEC_MS};
        let mut c = IsmctsConfig::default();
        let mut seen = Vec::new();
        for (k, v) in super::parse_params(params)? {
            let n = |lo, hi| param_in("ismcts", &k, &v, lo, hi);
            let x = |lo, hi| param_f64_in("ismcts", &k, &v, lo, hi);
            // Ranges that work (issue #39): no iteration or horizon of 0, no negative exploration.
            let name = match k.as_str() {
                "iterations" | "n" => {
                    c.iterations = n(1, MAX_ITERATIONS)?;
                    "iterations"
                }
                "ms" => {
                    c.ms = Some(n(1, MAX_SPEC_MS)?);
                    "ms"
                }
                "c" => {
                    c.c = x(0.0, 100.0)?;
                    "c"
                }
                "mode" => {
                    c.mode = match v.as_str() {
                        "so" | "single" => Observers::Single,
                        "mo" | "multiple" => Observers::Multiple,
                        _ => return Err(format!("ismcts parameter mode: {v:?} (known: so, mo)")),
                    };
                    "mode"
                }
                "rollout" => {
                    c.rollout = n(0, 1000)? as u32;
                    "rollout"
                }
                "scale" => {
                    c.scale = x(1.0, 1.0e6)?;
                    "scale"
                }
                "horizon" => {
                    c.horizon = n(1, 10_000)? as u32;
                    "horizon"
                }
                "eval" => {
                    (c.eval, c.family_eval) = super::alphabeta::parse_eval("ismcts", &v)?;
                    "eval"
                }
                other => return Err(format!("ismcts parameter {other:?} unknown (known: iterations, ms, c, mode, rollout, scale, horizon, eval)")),
            };
            param_once("ismcts", &mut seen, name)?;
        }
        Ok(c)
    }

    /// The spec string.
    pub fn spec(&self, name: &str) -> String {
        let mut s = format!("{name}:iterations={},c={}", self.iterations, self.c);
        if self.mode == Observers::Multiple {
            s += ",mode=mo";
        }
        if let Some(m) = self.ms {
            s += &format!(",ms={m}");
        }
        if self.rollout > 0 {
            s += &format!(",rollout={}", self.rollout);
        }
        s += &super::alphabeta::eval_suffix(self.eval.as_ref(), self.family_eval);
        s
    }

    /// This configuration as searched in the variant named `variant`: with
    /// [`IsmctsConfig::family_eval`] and no `eval`, the family's network filled in
    /// ([`crate::nnue::default_for`]; none where none is published).
    pub fn for_variant(&self, variant: &str) -> IsmctsConfig {
        IsmctsConfig { eval: crate::search::alphabeta::eval_for_variant(self.eval.as_ref(), self.family_eval, variant), ..self.clone() }
    }

    /// Game options of the searched determinizations: the horizon, then the evaluation.
    pub fn game_options(&self) -> GameOptions {
        GameOptions { max_plies: self.horizon, leaf: Leaf::Eval { scale_cp: self.scale } }
    }
}

#[derive(Clone, Debug)]
struct Edge {
    key: u32,
    child: u32,
    visits: u32,
    reward: f64,
    avail: u32,
}

#[derive(Clone, Debug, Default)]
struct Node {
    /// Sorted by key.
    edges: Vec<Edge>,
}

struct Tree {
    nodes: Vec<Node>,
    observer: PlayerId,
}

impl Tree {
    fn new(observer: PlayerId) -> Tree {
        Tree { nodes: vec![Node::default()], observer }
    }

    /// Index of the edge `key` of `node`, created (with no statistics) if missing.
    fn edge(&mut self, node: u32, key: u32) -> usize {
        let next = self.nodes.len() as u32;
        let edges = &mut self.nodes[node as usize].edges;
        match edges.binary_search_by_key(&key, |e| e.key) {
            Ok(i) => i,
            Err(i) => {
                edges.insert(i, Edge { key, child: next, visits: 0, reward: 0.0, avail: 0 });
                self.nodes.push(Node::default());
                i
            }
        }
    }

    fn child(&mut self, node: u32, key: u32) -> u32 {
        let i = self.edge(node, key);
        self.nodes[node as usize].edges[i].child
    }
}

/// Statistics of one root action.
#[derive(Clone, Debug, PartialEq)]
pub struct RootStat {
    /// The action code (the game's numbering; for the variants [`crate::variant::game_state`]'s).
    pub action: GameAction,
    /// Times it was chosen at the root.
    pub visits: u32,
    /// Mean result for the searching player, in [-1, 1].
    pub mean: f64,
    /// Iterations in which it was legal.
    pub avail: u32,
}

/// The result of one search.
#[derive(Clone, Debug)]
pub struct SearchOutput {
    /// Root actions, in code order.
    pub stats: Vec<RootStat>,
    /// Iterations run.
    pub iterations: u64,
    /// Tree nodes created (all trees).
    pub nodes: u64,
}

fn sample_chance<G: Scored>(g: &G, rng: &mut Pcg64Mcg, outs: &mut Vec<(GameAction, f64)>) -> GameAction {
    g.chance_outcomes_into(outs);
    let mut x: f64 = rng.random();
    for &(a, p) in outs.iter() {
        if x < p {
            return a;
        }
        x -= p;
    }
    outs[outs.len() - 1].0
}

/// The value of `g` for the first player: [`crate::game::Game::returns`] at the end, else
/// `0.9 * tanh(eval / scale)` of [`Scored::eval_cp_with`] the learned evaluation `net` if any
/// (for the variants without one [`super::eval::value`]).
fn leaf_value<G: Scored>(g: &G, scale: f64, net: Option<&crate::nnue::Network>) -> f64 {
    if g.is_terminal() {
        g.returns(PlayerId::FIRST)
    } else {
        super::eval::LEAF_CAP * (g.eval_cp_with(PlayerId::FIRST, net) as f64 / scale.max(1.0)).tanh()
    }
}

/// Runs IS-MCTS (Cowling, Powley and Whitehouse 2012, SO or MO by `cfg.mode`) for `root_player`
/// on any [`Scored`] game; `sample` draws a determinization of the root (a state at the root
/// player's decision, in its information set) from the generator it is given.
pub fn search<G: Scored>(
    root_player: PlayerId,
    cfg: &IsmctsConfig,
    rng: &mut Pcg64Mcg,
    mut sample: impl FnMut(&mut Pcg64Mcg) -> G,
) -> SearchOutput {
    let start = Instant::now();
    let mut trees: Vec<Tree> = match cfg.mode {
        Observers::Single => vec![Tree::new(root_player)],
        Observers::Multiple => vec![Tree::new(PlayerId::FIRST), Tree::new(PlayerId::SECOND)],
    };
    let root_tree = if cfg.mode == Observers::Single { 0 } else { root_player.index() };
    let mut path: Vec<(usize, u32, usize, PlayerId)> = Vec::with_capacity(64);
    let mut untried: Vec<GameAction> = Vec::with_capacity(64);
    let mut legal: Vec<GameAction> = Vec::with_capacity(64);
    let mut outs: Vec<(GameAction, f64)> = Vec::with_capacity(64);
    let mut iterations = 0;
    while iterations < cfg.iterations {
        if iterations % 16 == 0 && cfg.ms.is_some_and(|ms| start.elapsed().as_millis() as u64 >= ms) {
            break;
        }
        iterations += 1;
        let mut g = sample(rng);
        let mut cur = [0u32; 2];
        // Player actions below the root.
        let mut depth = 0;
        path.clear();
        loop {
            match g.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let a = sample_chance(&g, rng, &mut outs);
                    for (t, tree) in trees.iter_mut().enumerate() {
                        cur[t] = tree.child(cur[t], g.chance_observation(a, tree.observer));
                    }
                    g.apply(a);
                }
                Turn::Player(_) if depth >= cfg.horizon => break,
                Turn::Player(actor) => {
                    let st = if cfg.mode == Observers::Single { 0 } else { actor.index() };
                    let (chosen, expanded) = select(&mut trees[st], cur[st], g.legal_ascending(&mut legal), cfg.c, rng, &mut untried);
                    let node = cur[st];
                    path.push((st, node, chosen, actor));
                    let edge = &trees[st].nodes[node as usize].edges[chosen];
                    let (key, child) = (edge.key, edge.child);
                    cur[st] = child;
                    for (t, tree) in trees.iter_mut().enumerate() {
                        if t != st {
                            cur[t] = tree.child(cur[t], key);
                        }
                    }
                    g.apply(GameAction(key));
                    depth += 1;
                    if expanded {
                        break;
                    }
                }
            }
        }
        // Simulation.
        let mut steps = 0;
        while steps < cfg.rollout {
            let a = match g.turn() {
                Turn::Terminal => break,
                Turn::Chance => sample_chance(&g, rng, &mut outs),
                Turn::Player(_) if depth >= cfg.horizon => break,
                Turn::Player(_) => {
                    depth += 1;
                    let l = g.legal_ascending(&mut legal);
                    l[rng.random_range(0..l.len())]
                }
            };
            g.apply(a);
            steps += 1;
        }
        let first = leaf_value(&g, cfg.scale, cfg.eval.as_ref().map(|e| &*e.net));
        for &(t, node, e, actor) in &path {
            let edge = &mut trees[t].nodes[node as usize].edges[e];
            edge.visits += 1;
            edge.reward += if actor == PlayerId::FIRST { first } else { -first };
        }
    }
    let stats = trees[root_tree].nodes[0]
        .edges
        .iter()
        .filter(|e| e.visits > 0)
        .map(|e| RootStat { action: GameAction(e.key), visits: e.visits, mean: e.reward / e.visits as f64, avail: e.avail })
        .collect();
    let nodes = trees.iter().map(|t| t.nodes.len() as u64).sum();
    SearchOutput { stats, iterations, nodes }
}

/// Selection at `node` among the `legal` actions (ascending codes): bumps availability counts,
/// expands an untried action if any (returns `true`), else picks the UCB maximum. Returns the
/// edge index.
fn select(tree: &mut Tree, node: u32, legal: &[GameAction], c: f64, rng: &mut Pcg64Mcg, untried: &mut Vec<GameAction>) -> (usize, bool) {
    untried.clear();
    {
        let edges = &mut tree.nodes[node as usize].edges;
        let mut i = 0;
        for &a in legal {
            while i < edges.len() && edges[i].key < a.0 {
                i += 1;
            }
            if i < edges.len() && edges[i].key == a.0 && edges[i].visits > 0 {
                edges[i].avail += 1;
            } else {
                untried.push(a);
            }
        }
    }
    if !untried.is_empty() {
        let a = untried[rng.random_range(0..untried.len())];
        let e = tree.edge(node, a.0);
        tree.nodes[node as usize].edges[e].avail += 1;
        return (e, true);
    }
    let edges = &tree.nodes[node as usize].edges;
    let mut best = (usize::MAX, f64::NEG_INFINITY);
    let mut i = 0;
    for &a in legal {
        while edges[i].key < a.0 {
            i += 1;
        }
        let e = &edges[i];
        let n = e.visits as f64;
        let u = e.reward / n + c * ((e.avail.max(1) as f64).ln() / n).sqrt();
        if u > best.1 {
            best = (i, u);
        }
    }
    (best.0, false)
}

/// IS-MCTS for any [`Scored`] game (Cowling, Powley and Whitehouse 2012): at a player's decision
/// it searches determinizations drawn by [`crate::game::Game::sample_determinization`] for that player, and
/// plays the most visited root action (ties: the higher mean, then the lower code). The RULES-more.md
/// games' `ismcts` ([`crate::search::game_bot::from_spec`]); the variants' is [`IsmctsBot`], which also
/// hands the search the game's public record.
pub struct GameIsmctsBot {
    cfg: IsmctsConfig,
    rng: Pcg64Mcg,
}

impl GameIsmctsBot {
    /// A bot with `cfg` and `seed`.
    pub fn new(cfg: IsmctsConfig, seed: u64) -> GameIsmctsBot {
        GameIsmctsBot { cfg, rng: Pcg64Mcg::seed_from_u64(seed) }
    }

    /// The spec that builds this bot.
    pub fn name(&self) -> String {
        self.cfg.spec("ismcts")
    }

    /// The search at `g` for the player to act: `None` unless a player acts with two or more
    /// legal actions.
    pub fn analyse<G: Scored>(&mut self, g: &G) -> Option<SearchOutput> {
        let Turn::Player(me) = g.turn() else { return None };
        let mut legal = Vec::new();
        g.legal_actions_into(&mut legal);
        if legal.len() < 2 {
            return None;
        }
        let mut draw = g.determinizer(me);
        Some(search(me, &self.cfg, &mut self.rng, |r| draw(r)))
    }

    /// The most visited root action at `g` (ties: higher mean, then lower code); the only legal
    /// action without searching; the first legal action if no player acts.
    pub fn choose<G: Scored>(&mut self, g: &G) -> GameAction {
        let legal = g.legal_actions();
        let Some(out) = self.analyse(g) else { return legal[0] };
        most_visited(&out, &legal).unwrap_or(legal[0])
    }

    /// [`crate::search::GameBot::analyse`] for any game: [`GameIsmctsBot::choose`]'s search
    /// as root statistics (visit share, mean value in [-1, 1], visits), most visited first (ties:
    /// higher mean, then lower code); the only legal action alone, unsearched.
    pub fn analyse_game<G: Scored>(&mut self, g: &G) -> crate::search::GameAnalysis {
        let start = Instant::now();
        let legal = g.legal_actions();
        let Some(out) = self.analyse(g) else { return Analysis::chosen(legal[0], start) };
        let best = most_visited(&out, &legal).unwrap_or(legal[0]);
        let total: u32 = out.stats.iter().filter(|s| legal.contains(&s.action)).map(|s| s.visits).sum();
        let mut stats: Vec<ActionStat<GameAction>> = out
            .stats
            .iter()
            .filter(|s| legal.contains(&s.action))
            .map(|s| ActionStat { action: s.action, share: f64::from(s.visits) / f64::from(total.max(1)), score: s.mean, visits: u64::from(s.visits) })
            .collect();
        stats.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.score.total_cmp(&a.score)).then(a.action.0.cmp(&b.action.0)));
        Analysis { best, stats, score_unit: "value", work: out.iterations, work_unit: "iterations", nodes: out.nodes, elapsed_ms: start.elapsed().as_secs_f64() * 1e3 }
    }
}

/// The most visited of `legal` among `out`'s root actions (ties: the higher mean, then the lower
/// code, `out` being in code order); `None` when none is legal.
fn most_visited(out: &SearchOutput, legal: &[GameAction]) -> Option<GameAction> {
    let mut best: Option<&RootStat> = None;
    for s in out.stats.iter().filter(|s| legal.contains(&s.action)) {
        if best.is_none_or(|b| (s.visits, s.mean) > (b.visits, b.mean)) {
            best = Some(s);
        }
    }
    best.map(|s| s.action)
}

/// IS-MCTS as the variants' [`GameBot`]: determinizes from its view every iteration and plays the most visited
/// root action (ties: higher mean).
///
/// Its searched games start with the game's public record ([`VariantGameState::record`]), so third
/// repetitions, perpetual checks and chases (RULES.md §X6) that reach back before the search root
/// are seen. A decision without a record falls back on the bot's memory of the public positions
/// of the game it is playing (each position it is asked to decide in and the one its own move
/// produced, with checks and quiet moves), which restarts when the move number goes back.
pub struct IsmctsBot {
    cfg: IsmctsConfig,
    rng: Pcg64Mcg,
    memory: Vec<RecordPly>,
    last_fullmove: u32,
    /// The public core position after the last remembered ply (to recover the opponent's quiet
    /// move for the chase rule).
    last_position: Option<crate::position::Position>,
}

impl IsmctsBot {
    /// A bot with `cfg` and `seed`.
    pub fn new(cfg: IsmctsConfig, seed: u64) -> IsmctsBot {
        IsmctsBot { cfg, rng: Pcg64Mcg::seed_from_u64(seed), memory: Vec::new(), last_fullmove: 0, last_position: None }
    }

    /// Records the position at a decision (the result of the opponent's last ply).
    fn remember_decision(&mut self, known: &State) {
        let fullmove = known.position().fullmove();
        if fullmove < self.last_fullmove || known.in_setup() {
            self.memory.clear();
            self.last_position = None;
        }
        self.last_fullmove = fullmove;
        let hash = public_hash(known);
        if self.memory.last().is_some_and(|p| p.hash == hash) {
            return; // asked twice in the same position (analysis, or a negotiation answer)
        }
        let mover = known.position().turn().opponent();
        let quiet = self.last_position.as_ref().and_then(|b| crate::repetition::quiet_between(b, known.position()));
        self.memory.push(RecordPly { hash, gave_check: known.position().in_check(), mover, board: true, quiet });
        self.last_position = Some(known.position().clone());
    }

    /// Records the position after our own action `a` (nothing when chance follows it).
    fn remember_move(&mut self, known: &State, a: Action) {
        if !matches!(a, Action::Move { .. } | Action::Flip { .. }) {
            return;
        }
        let child = known.child(a);
        if child.is_chance() {
            return;
        }
        let mover = known.position().turn();
        let quiet = known.quiet_move(a);
        self.memory.push(RecordPly { hash: public_hash(&child), gave_check: child.position().in_check(), mover, board: true, quiet });
        self.last_position = Some(child.position().clone());
    }
}

/// Turns root statistics into action statistics (shares of visits), keeping legal actions only.
pub fn root_stats(out: &SearchOutput, legal: &[Action]) -> Vec<ActionStat> {
    let total: u32 = out.stats.iter().map(|s| s.visits).sum();
    out.stats
        .iter()
        .filter_map(|s| {
            let a = decode(s.action)?;
            legal.contains(&a).then(|| ActionStat { action: a, share: s.visits as f64 / total.max(1) as f64, score: s.mean, visits: s.visits as u64 })
        })
        .collect()
}

/// The variants' IS-MCTS, handed the game: it searches determinizations of the mover's view
/// with the game's record (or, with none, the record it remembers of its own decisions).
impl GameBot<VariantGameState> for IsmctsBot {
    fn name(&self) -> String {
        self.cfg.spec("ismcts")
    }

    fn choose(&mut self, g: &VariantGameState) -> crate::game::Action {
        encode(self.analyse_variant(g).best)
    }

    fn analyse(&mut self, g: &VariantGameState) -> crate::search::GameAnalysis {
        self.analyse_variant(g).map(encode)
    }
}

impl IsmctsBot {
    /// [`GameBot::analyse`] in the variants' typed actions.
    pub fn analyse_variant(&mut self, g: &VariantGameState) -> Analysis {
        let start = Instant::now();
        let legal = g.state().legal_actions();
        if let Some(a) = super::setup_choice(&legal, &mut self.rng) {
            return a;
        }
        let view = View::new(g.state(), g.state().turn());
        let known = view.known().clone();
        self.remember_decision(&known);
        if legal.len() == 1 {
            let stat = ActionStat { action: legal[0], share: 1.0, score: 0.0, visits: 0 };
            self.remember_move(&known, legal[0]);
            return Analysis::from_stats(&legal, vec![stat], Rank::Share, "value", 0, "iterations", 0, start);
        }
        let cfg = self.cfg.for_variant(&known.variant().name);
        let opts = cfg.game_options();
        // The game's public record when the decision carries it, else what the bot remembers.
        let prior = if g.record().is_empty() { self.memory.clone() } else { g.record().to_vec() };
        let out = search(player_of(g.state().turn()), &cfg, &mut self.rng, |r| VariantGameState::with_options(view.sample(r), opts).with_prior(&prior));
        let stats = root_stats(&out, &legal);
        let an = Analysis::from_stats(&legal, stats, Rank::Share, "value", out.iterations, "iterations", out.nodes, start);
        self.remember_move(&known, an.best);
        an
    }
}
