//! The variants in the one expectimax: [`ExpectiGame`] on the full variant [`State`], by the
//! rules of the variant search (RULES.md; see [`super`]): every legal action but the demand
//! (§S11), captures and every evasion in quiescence, captures ordered by most valuable victim and
//! least valuable attacker then flips, the static evaluation of [`eval::evaluate`], resigned,
//! agreed and grinding results (§S11, §K7), repetitions along the record and the search path by
//! [`crate::repetition::in_search`] and the 60-move rule (§X6). Every variant action passes the
//! decision to the other side ([`Next::Other`]); a pending reveal is a chance node (§P2, §F2,
//! §F6). Also the variants' bot, [`ExpectimaxBot`].

use super::{ExpectiGame, Expectimax, ExpectimaxConfig, Next, MATE};
use crate::search::eval;
use crate::search::{ActionStat, Analysis, GameBot, Rank};
use crate::piece::Color;
use crate::repetition::RecordPly;
use crate::variant::game_state::{encode, public_hash, VariantGameState};
use crate::variant::{Action, ChanceOutcome, State, View};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

/// Ordering key: captures by most valuable victim, least valuable attacker; then flips.
fn order_key(s: &State, a: Action) -> i32 {
    match a {
        Action::Move { from, to, .. } => {
            let pos = s.position();
            match pos.piece_at(to) {
                Some(v) => 10 * eval::role_value(v.role) - pos.piece_at(from).map(|p| eval::role_value(p.role) / 10).unwrap_or(0),
                None => 0,
            }
        }
        Action::Flip { .. } => 1,
        _ => -1,
    }
}

fn searchable(a: &Action) -> bool {
    !matches!(a, Action::Demand)
}

impl ExpectiGame for State {
    type Act = Action;
    type Outcome = ChanceOutcome;
    type Side = Color;
    type Ply = RecordPly;

    #[inline]
    fn side(&self) -> Color {
        self.turn()
    }

    #[inline]
    fn play(&self, a: Action) -> State {
        self.child(a)
    }

    #[inline]
    fn next(&self, _us: Color) -> Next {
        if self.is_chance() {
            Next::Chance
        } else {
            Next::Other
        }
    }

    #[inline]
    fn outcomes(&self) -> Vec<(ChanceOutcome, f64)> {
        self.chance_outcomes()
    }

    #[inline]
    fn apply_outcome(&mut self, o: ChanceOutcome) {
        self.apply_chance(o);
    }

    fn end_value(&self, path: &[RecordPly], ply: u32) -> Option<f64> {
        let us = self.turn();
        match self.agreement() {
            Some(crate::variant::state::Agreement::Resigned(c)) => return Some(if c == us { -(MATE - ply as f64) } else { MATE - ply as f64 }),
            Some(crate::variant::state::Agreement::Drawn) => return Some(0.0),
            None => {}
        }
        if let Some(c) = self.grind_loss() {
            return Some(if c == us { -(MATE - ply as f64) } else { MATE - ply as f64 });
        }
        // Repetitions along the record and the path, and the 60-move rule (§X6).
        let pos = self.position();
        let end = &pos.rules().end;
        if end.repetition {
            match crate::repetition::in_search(end, pos, path, pos.halfmove() as usize) {
                Some(crate::outcome::Outcome::Win { winner, .. }) => return Some(if winner == us { MATE - ply as f64 } else { -(MATE - ply as f64) }),
                Some(crate::outcome::Outcome::Draw { .. }) => return Some(0.0),
                None => {}
            }
        }
        if crate::repetition::no_capture_draw(end, pos.halfmove(), path) {
            return Some(0.0);
        }
        None
    }

    #[inline]
    fn actions(&self, ply: u32) -> Result<Vec<Action>, f64> {
        let mut acts: Vec<Action> = self.legal_actions();
        if acts.is_empty() {
            return Err(-(MATE - ply as f64));
        }
        acts.retain(searchable);
        if acts.is_empty() {
            return Err(eval::evaluate(self, self.turn()) as f64);
        }
        Ok(acts)
    }

    fn root_actions(&self) -> Vec<Action> {
        self.legal_actions().into_iter().filter(searchable).collect()
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.position().in_check()
    }

    #[inline]
    fn is_capture(&self, a: Action) -> bool {
        matches!(a, Action::Move { to, .. } if self.position().piece_at(to).is_some())
    }

    #[inline]
    fn order(&self, acts: &mut [Action]) {
        acts.sort_by_key(|a| -order_key(self, *a));
    }

    #[inline]
    fn eval(&self, side: Color) -> f64 {
        eval::evaluate(self, side) as f64
    }

    #[inline]
    fn eval_with(&self, side: Color, net: Option<&crate::nnue::Network>) -> f64 {
        eval::evaluate_with(self, side, net) as f64
    }

    #[inline]
    fn record_ply(&self, a: Action, after: &State) -> RecordPly {
        RecordPly {
            hash: public_hash(after),
            mover: self.turn(),
            gave_check: after.position().in_check(),
            board: matches!(a, Action::Move { .. } | Action::Flip { .. }),
            quiet: self.quiet_move(a),
        }
    }
}

/// Expectimax as the variants' own [`GameBot`]: searches `samples` determinizations of its view and plays the
/// action with the highest mean score. Deterministic given its seed (without a time budget).
///
/// As the **oracle** ([`ExpectimaxBot::oracle`], spec `oracle:...`) it searches the full state
/// itself (the full state of the game it is handed: true back faces and identities; reveals still chance
/// where the pool is undetermined) — the same search as the honest bot with the hidden
/// information given away, so the difference between the two measures what the information is
/// worth.
pub struct ExpectimaxBot {
    cfg: ExpectimaxConfig,
    rng: Pcg64Mcg,
    oracle: bool,
}

impl ExpectimaxBot {
    /// A bot with `cfg` and `seed`.
    pub fn new(cfg: ExpectimaxConfig, seed: u64) -> ExpectimaxBot {
        ExpectimaxBot { cfg, rng: Pcg64Mcg::seed_from_u64(seed), oracle: false }
    }

    /// The cheating oracle with `cfg`: searches the full state (one search, no sampling); the
    /// seed serves the set-up choices.
    pub fn oracle(cfg: ExpectimaxConfig, seed: u64) -> ExpectimaxBot {
        ExpectimaxBot { cfg: ExpectimaxConfig { samples: 1, ..cfg }, rng: Pcg64Mcg::seed_from_u64(seed), oracle: true }
    }
}

/// The variants' expectimax, handed the game: `samples` determinizations of the mover's view
/// (the full state for the `oracle`), each searched with the game's record.
impl GameBot<VariantGameState> for ExpectimaxBot {
    fn name(&self) -> String {
        if self.oracle {
            self.cfg.spec().replacen("expectimax", "oracle", 1)
        } else {
            self.cfg.spec()
        }
    }

    fn choose(&mut self, g: &VariantGameState) -> crate::game::Action {
        encode(self.analyse_variant(g).best)
    }

    fn analyse(&mut self, g: &VariantGameState) -> crate::search::GameAnalysis {
        self.analyse_variant(g).map(encode)
    }
}

impl ExpectimaxBot {
    /// [`GameBot::analyse`] in the variants' typed actions.
    pub fn analyse_variant(&mut self, g: &VariantGameState) -> Analysis {
        let legal = g.state().legal_actions();
        if let Some(a) = crate::search::setup_choice(&legal, &mut self.rng) {
            return a;
        }
        analyse_determinizations(&self.cfg, self.cfg.samples, self.cfg.ms, self.oracle, &mut self.rng, g)
    }
}

/// The variants' expectimax on `k` determinizations of the deciding player's view (the full state
/// itself, once per `k`, for the `oracle`), each searched with the game's record: every legal
/// action's mean score (centipawns) and the share of determinizations in which it was best,
/// ranked by score. No determinization starts after `ms` milliseconds. The one implementation
/// behind [`ExpectimaxBot`] (`k` = `samples`) and PIMC with its default expectimax inner search
/// ([`crate::search::pimc`]), which are the same bot.
pub(crate) fn analyse_determinizations(cfg: &ExpectimaxConfig, k: u32, ms: Option<u64>, oracle: bool, rng: &mut Pcg64Mcg, g: &VariantGameState) -> Analysis {
    let start = Instant::now();
    let legal = g.state().legal_actions();
    let view = View::new(g.state(), g.state().turn());
    let mut sum = vec![0.0; legal.len()];
    let mut seen = vec![0u32; legal.len()];
    let mut wins = vec![0u32; legal.len()];
    let mut nodes = 0;
    let mut done = 0u64;
    let cfg = if oracle { cfg.clone() } else { cfg.for_variant(&view.known().variant().name) };
    let mut e = Expectimax::new(cfg);
    for _ in 0..k {
        let det = if oracle { g.state().clone() } else { view.sample(rng) };
        let r = e.search_in_game(&det, g.record());
        nodes += r.nodes;
        done += 1;
        for &(a, v) in &r.values {
            if let Some(i) = legal.iter().position(|x| *x == a) {
                sum[i] += v;
                seen[i] += 1;
            }
        }
        if let Some((a, _)) = r.best() {
            if let Some(i) = legal.iter().position(|x| *x == a) {
                wins[i] += 1;
            }
        }
        if ms.is_some_and(|ms| start.elapsed().as_millis() as u64 >= ms) {
            break;
        }
    }
    let stats: Vec<ActionStat> = legal
        .iter()
        .enumerate()
        .filter(|(i, _)| seen[*i] > 0)
        .map(|(i, &a)| ActionStat { action: a, share: wins[i] as f64 / done as f64, score: sum[i] / seen[i] as f64, visits: seen[i] as u64 })
        .collect();
    Analysis::from_stats(&legal, stats, Rank::Score, "cp", done, "determinizations", nodes, start)
}
