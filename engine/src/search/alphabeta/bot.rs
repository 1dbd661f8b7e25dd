//! The oracle bot: the core searcher on a variant state's position.

use super::{HiddenValues, Limits, Searcher, MAX_DEPTH};
use crate::moves::Move;
use crate::variant::game_state::{encode, VariantGameState};
use crate::variant::{Action, State};
use std::sync::atomic::Ordering;

/// The core moves that correspond to `state`'s legal [`Action::Move`]s (plain or not), in the
/// order of [`Position::legal_moves`]; these are the root moves the oracle searches.
pub fn oracle_root_moves(state: &State) -> Vec<Move> {
    let acts = state.legal_actions();
    let legal = state.position().legal_moves();
    legal
        .iter()
        .copied()
        .filter(|m| acts.iter().any(|a| matches!(*a, Action::Move { from, to, .. } if from == m.from && to == m.to)))
        .collect()
}

/// The action of `state` that plays core move `m`: the plain one (no turning face-down, no marker
/// transfer) if legal, else the first legal action with the same points.
pub fn action_for_move(state: &State, m: Move) -> Option<Action> {
    let acts = state.legal_actions();
    let plain = Action::Move { from: m.from, to: m.to, turn_down: false, marker: false };
    if acts.contains(&plain) {
        return Some(plain);
    }
    acts.into_iter().find(|a| matches!(*a, Action::Move { from, to, .. } if from == m.from && to == m.to))
}

/// Alpha-beta as a [`crate::search::GameBot`] of the variants: the **cheating oracle** for hidden-information variants (see the
/// module documentation). It searches `state.position()` within its [`Limits`] and plays the
/// matching [`Action::Move`]. Without such a move (only flips or negotiation answers are legal)
/// it answers a demand with `refuse` and otherwise takes the first legal action. It never flips
/// and never demands. The transposition table is cleared before every decision, so its choice
/// is a function of the state and the limits (unless a time limit is set).
pub struct AlphaBetaBot {
    searcher: Searcher,
    limits: Limits,
}

impl AlphaBetaBot {
    /// A bot searching within `limits` with a table of `hash_mb` MiB.
    pub fn new(limits: Limits, hash_mb: usize) -> AlphaBetaBot {
        AlphaBetaBot { searcher: Searcher::new(hash_mb), limits }
    }

    /// Parses the parameters after `alphabeta:` — `depth=N` (plies), `nodes=N`, `ms=N`
    /// (milliseconds), `hash=N` (MiB), separated by `,` or `:`. Without parameters the bot
    /// searches to depth 4.
    ///
    /// # Errors
    /// A message naming the bad parameter.
    pub fn from_params(params: &str) -> Result<AlphaBetaBot, String> {
        let (limits, hash) = parse_limits(params, 4)?;
        Ok(AlphaBetaBot::new(limits, hash))
    }

    /// The limits of each decision.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The oracle's search of `state` after the public `record` within `limits`, from a cleared
    /// table: the core position's best move among the state's legal [`Action::Move`]s
    /// ([`oracle_root_moves`]) as the state's action, with its score (internal units), or `None`
    /// when the state has no such move; and the nodes searched.
    pub fn oracle_search(&mut self, state: &State, record: &[crate::repetition::RecordPly], limits: &Limits) -> (Option<(Action, i32)>, u64) {
        self.core_search(state, record, None, limits)
    }

    /// The honest search of a hidden variant for the side to move of `state` (a determinization
    /// of its view, or the true state): the core position, the public `record`, and the
    /// face-down pieces valued as that player's view values them ([`HiddenValues::from_known`]).
    /// Every state of one information set gives the same search: the core position, the legal
    /// moves and the values are functions of the view (RULES.md §F2, §P2, §S3: a face-down piece
    /// moves as its point's type, a Surprise disc by its visible face).
    ///
    /// The core position has no flips (§S4): each legal flip of one of the player's own discs
    /// (whose back it knows) is searched at the root as a child of its own — the position after
    /// it, the opponent to move, one ply shallower or with a quarter of the budget shared among
    /// the flips (the moves get the rest) — and played when it scores above the best move.
    /// Flips deeper in the tree are not searched.
    ///
    /// With [`Limits::family_eval`] and no `eval`, the search uses the published network of the
    /// variant's family ([`crate::nnue::default_for`]; the hand-written evaluation where none is
    /// published).
    pub fn view_search(&mut self, state: &State, record: &[crate::repetition::RecordPly], limits: &Limits) -> (Option<(Action, i32)>, u64) {
        let family;
        let limits = if limits.eval.is_none() && limits.family_eval {
            family = Limits { eval: eval_for_variant(None, true, &state.variant().name), ..limits.clone() };
            &family
        } else {
            limits
        };
        let hidden = if state.face_down().any() { HiddenValues::from_known(crate::variant::View::new(state, state.turn()).known()) } else { None };
        let flips: Vec<Action> = state.legal_actions().into_iter().filter(|a| matches!(a, Action::Flip { .. })).collect();
        if flips.is_empty() {
            return self.core_search(state, record, hidden, limits);
        }
        let n = flips.len() as u64;
        let (mut main, mut child) = (limits.clone(), limits.clone());
        if let Some(t) = limits.time_ms {
            main.time_ms = Some((t * 3 / 4).max(1));
            child.time_ms = Some((t / 4 / n).max(1));
        }
        if let Some(nodes) = limits.nodes {
            main.nodes = Some((nodes * 3 / 4).max(1));
            child.nodes = Some((nodes / 4 / n).max(1));
        }
        child.depth = limits.depth.map(|d| d.saturating_sub(1).max(1));
        child.searchmoves.clear();
        let (mut best, mut nodes) = self.core_search(state, record, hidden.clone(), &main);
        for f in flips {
            let c = state.child(f);
            if c.is_chance() {
                continue;
            }
            let score = if c.legal_actions().is_empty() {
                // No reply: the flip mates (§X4).
                super::MATE - 1
            } else {
                let (reply, n) = self.core_search(&c, record, hidden.clone(), &child);
                nodes += n;
                match reply {
                    Some((_, v)) => -v,
                    None => continue,
                }
            };
            if best.is_none_or(|(_, v)| score > v) {
                best = Some((f, score));
            }
        }
        (best, nodes)
    }

    /// The core searcher on `state`'s position with `hidden` values: the best legal move and its
    /// score, and the nodes searched (see [`AlphaBetaBot::oracle_search`]).
    pub fn core_search(&mut self, state: &State, record: &[crate::repetition::RecordPly], hidden: Option<HiddenValues>, limits: &Limits) -> (Option<(Action, i32)>, u64) {
        let roots = oracle_root_moves(state);
        if roots.is_empty() {
            return (None, 0);
        }
        self.searcher.clear();
        self.searcher.stop_flag().store(false, Ordering::Relaxed);
        let mut limits = limits.clone();
        limits.searchmoves = roots;
        let game = crate::repetition::core_tail(state.position(), record);
        let r = self.searcher.search_hidden(state.position(), &game, hidden, &limits, &mut |_| {});
        (r.best.and_then(|m| action_for_move(state, m)).map(|a| (a, r.raw_score)), r.nodes)
    }
}

/// The oracle as the one alpha-beta's search of a [`VariantGameState`] (its state and public
/// record): [`crate::search::Scored::alphabeta_search`] of the variants.
impl super::GameSearch<VariantGameState> for AlphaBetaBot {
    fn limits(&self) -> &Limits {
        &self.limits
    }
    fn search_action(&mut self, g: &VariantGameState, limits: &Limits) -> (Option<(crate::game::Action, i32)>, u64) {
        // Searched for PIMC on a determinization: as the mover's view values it, never by the
        // determinization's drawn identities.
        let (best, nodes) = self.view_search(g.state(), g.record(), limits);
        (best.map(|(a, v)| (encode(a), v)), nodes)
    }
}

/// The variants' `alphabeta`, a cheating oracle by name (issue #4): it searches the full state
/// of the game it is handed, with the game's record.
impl crate::search::GameBot<VariantGameState> for AlphaBetaBot {
    fn name(&self) -> String {
        limits_name(&self.limits)
    }

    fn choose(&mut self, g: &VariantGameState) -> crate::game::Action {
        let state = g.state();
        let acts = state.legal_actions();
        let limits = self.limits.clone();
        if let (Some((a, _)), _) = self.oracle_search(state, g.record(), &limits) {
            return encode(a);
        }
        if acts.contains(&Action::Answer(crate::variant::state::Answer::Refuse)) {
            return encode(Action::Answer(crate::variant::state::Answer::Refuse));
        }
        encode(acts[0])
    }
}

/// Parses the parameters after `alphabeta:` — `depth=N` (plies), `nodes=N`, `ms=N`
/// (milliseconds), `hash=N` (MiB), `off=TECH+TECH`, `eval=zoo:NAME|PATH` (a learned evaluation,
/// [`crate::nnue::load`]; `eval=auto`, the default: the family's network in an honest search,
/// [`Limits::family_eval`]; `eval=none`: the hand-written evaluation everywhere), separated by
/// `,` — into the limits and the table size
/// (default 8 MiB). Without a depth, node or time limit the search goes to `default_depth`.
///
/// # Errors
/// A message naming the bad parameter.
pub fn parse_limits(params: &str, default_depth: u32) -> Result<(Limits, usize), String> {
    use crate::search::{param_in, param_once, MAX_SPEC_HASH_MB, MAX_SPEC_MS, MAX_SPEC_NODES};
    let mut limits = Limits { family_eval: true, ..Limits::default() };
    let mut hash = 8usize;
    let mut seen = Vec::new();
    for part in crate::search::spec_parts(params) {
        let (k, v) = part.split_once('=').ok_or_else(|| format!("alphabeta parameter {part:?}: expected key=value (depth, nodes, ms, hash, off, eval)"))?;
        let (k, v) = (k.trim(), v.trim());
        // Each value in a range that works: a depth past MAX_DEPTH never returns, a table past
        // MAX_SPEC_HASH_MB may not be allocatable (issue #39).
        let n = |lo, hi| param_in("alphabeta", k, v, lo, hi);
        match k {
            "off" => {
                param_once("alphabeta", &mut seen, "off")?;
                limits.off = super::Techniques::parse(v)?;
            }
            "depth" => {
                param_once("alphabeta", &mut seen, "depth")?;
                limits.depth = Some(n(1, MAX_DEPTH as u64)? as u32);
            }
            "nodes" => {
                param_once("alphabeta", &mut seen, "nodes")?;
                limits.nodes = Some(n(1, MAX_SPEC_NODES)?);
            }
            "ms" | "movetime" => {
                param_once("alphabeta", &mut seen, "ms")?;
                limits.time_ms = Some(n(1, MAX_SPEC_MS)?);
            }
            "hash" => {
                param_once("alphabeta", &mut seen, "hash")?;
                hash = n(1, MAX_SPEC_HASH_MB)? as usize;
            }
            "eval" => {
                param_once("alphabeta", &mut seen, "eval")?;
                (limits.eval, limits.family_eval) = parse_eval("alphabeta", v)?;
            }
            other => return Err(format!("alphabeta parameter {other:?} unknown (known: depth, nodes, ms, hash, off, eval)")),
        }
    }
    if limits.depth.is_none() && limits.nodes.is_none() && limits.time_ms.is_none() {
        limits.depth = Some(default_depth.clamp(1, MAX_DEPTH));
    }
    Ok((limits, hash))
}

/// The `,eval=…` a spec prints for the pair of [`parse_eval`]: nothing for `auto` (the default
/// of `expectimax` and `ismcts`), `,eval=none`, or `,eval=NAME` of the chosen network.
pub fn eval_suffix(eval: Option<&crate::nnue::EvalNet>, family: bool) -> String {
    match (eval, family) {
        (Some(e), _) => format!(",eval={}", e.spec),
        (None, true) => String::new(),
        (None, false) => ",eval=none".into(),
    }
}

/// The network a search chosen by the pair of [`parse_eval`] uses in the variant named
/// `variant`: the named one, else with `family` the family's published one
/// ([`crate::nnue::default_for`]), else none (the hand-written evaluation).
pub fn eval_for_variant(eval: Option<&crate::nnue::EvalNet>, family: bool, variant: &str) -> Option<crate::nnue::EvalNet> {
    match eval {
        Some(e) => Some(e.clone()),
        None if family => crate::nnue::default_for(variant),
        None => None,
    }
}

/// The `eval=` value of `bot`'s spec as ([`Limits::eval`], [`Limits::family_eval`]): `auto`
/// (the family's network in an honest search), `none` (the hand-written evaluation) or a
/// network `zoo:NAME|PATH` ([`crate::nnue::load`]).
///
/// # Errors
/// The network cannot be loaded, named with the parameter.
pub fn parse_eval(bot: &str, v: &str) -> Result<(Option<crate::nnue::EvalNet>, bool), String> {
    match v {
        "auto" => Ok((None, true)),
        "none" => Ok((None, false)),
        _ => Ok((Some(crate::nnue::load(v).map_err(|e| format!("{bot} parameter eval={v}: {e}"))?), true)),
    }
}

/// The spec of an `alphabeta` bot with `limits`: `alphabeta:depth=3,nodes=500,ms=100`, or
/// `alphabeta` without limits.
pub fn limits_name(limits: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(d) = limits.depth {
        parts.push(format!("depth={d}"));
    }
    if let Some(n) = limits.nodes {
        parts.push(format!("nodes={n}"));
    }
    if let Some(t) = limits.time_ms {
        parts.push(format!("ms={t}"));
    }
    if limits.off != super::Techniques::default() {
        parts.push(format!("off={}", limits.off.names()));
    }
    if let Some(e) = &limits.eval {
        parts.push(format!("eval={}", e.spec));
    } else if !limits.family_eval {
        parts.push("eval=none".into());
    }
    if parts.is_empty() {
        "alphabeta".into()
    } else {
        format!("alphabeta:{}", parts.join(","))
    }
}
