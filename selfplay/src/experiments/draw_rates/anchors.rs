//! External anchors of the draw-rate study: Fairy-Stockfish self-play in standard xiangqi at
//! several node budgets (how often a strong open-game engine draws as it gets stronger), and the
//! draw rates implied by Pikafish's WDL model.
//!
//! Fairy-Stockfish games are played by the tournaments' UCI client (Fairy-Stockfish's dialect:
//! ranks 1-10 on the wire, [`crate::tournament::dialect`]) from the standard start after a few
//! random opening plies (the engine is deterministic at a fixed node count, so the openings are
//! what makes its games differ), and stored in the study's store as preset `xiangqi`, spec
//! `fairy-stockfish:nodes=N,opening=K`.

use super::store::{GameRow, Key, Store};
use crate::tournament::config::{fnv1a, Budget, PlayerConfig};
use crate::tournament::dialect::Dialect;
use crate::tournament::game::{PlayerKind, Rules};
use crate::tournament::GameSpec;
use std::collections::BTreeMap;

/// Settings of the Fairy-Stockfish anchor.
#[derive(Clone, Debug)]
pub struct AnchorSettings {
    /// The engine's program (a Fairy-Stockfish binary built with large-board support).
    pub program: String,
    /// Node budgets per move, weakest first.
    pub nodes: Vec<u64>,
    /// Games per budget.
    pub games: u32,
    /// Random opening plies.
    pub opening_plies: usize,
}

impl AnchorSettings {
    /// The store's spec of budget `nodes`.
    pub fn spec(&self, nodes: u64) -> String {
        format!("fairy-stockfish:nodes={nodes},opening={}", self.opening_plies)
    }
}

/// Plays the missing anchor games into `store` (sequentially: one engine process per side and
/// game), printing a line per budget when `progress`.
///
/// # Errors
/// The engine cannot be started, or a game failed.
pub fn run(a: &AnchorSettings, seed: u64, max_plies: usize, store: &mut Store, progress: bool) -> anyhow::Result<()> {
    let game = GameSpec::load("xiangqi")?;
    for &nodes in &a.nodes {
        let spec = a.spec(nodes);
        let cfg = PlayerConfig {
            name: Some("fairy-stockfish".into()),
            spec: format!("uci:{}", a.program),
            nodes: Some(nodes),
            movetime_ms: None,
            depth: None,
            options: BTreeMap::new(),
            timeout_ms: Some(120_000),
            dialect: Some(Dialect::FairyStockfish),
        };
        let kind = PlayerKind::from_config(&cfg, &Budget::default(), &game)?;
        let rules = Rules { max_plies, opening_plies: a.opening_plies };
        let t0 = std::time::Instant::now();
        let mut played = 0;
        for i in 0..a.games {
            let key = Key::new("xiangqi", &spec, i, true);
            if store.has(&key) {
                continue;
            }
            let setup = game.setup(fnv1a(format!("anchor|{seed}|{i}").as_bytes()))?;
            let t1 = std::time::Instant::now();
            let p = game.play(&setup, rules, &kind, &kind, (1, 2))?;
            let seconds = super::store::stored_seconds(t1.elapsed());
            store.append(GameRow { key, red_score: p.outcome.red_score(), reason: p.outcome.reason, plies: p.moves.len(), seconds })?;
            played += 1;
        }
        if progress && played > 0 {
            eprintln!("anchor: Fairy-Stockfish self-play at {nodes} nodes/move: {played} games in {:.0} s", t0.elapsed().as_secs_f64());
        }
    }
    Ok(())
}

/// Pikafish's win-rate model (`src/uci.cpp`, `win_rate_params`, official-pikafish/Pikafish at
/// commit 04865243d93aa617dddca0795551423ab50dc061): the win probability, per unit, of the side
/// with evaluation `v` (internal units) in a position of `material` (10 per chariot, 5 per horse
/// and cannon, 3 per elephant, 2 per advisor, 1 per soldier, both sides) is
/// `1 / (1 + exp((a - v) / b))` with `a`, `b` cubic polynomials in `clamp(material, 17, 110) / 65`
/// fitted to Pikafish's long-time-control self-play. The draw rate is `1 - W(v) - W(-v)`.
pub fn pikafish_draw_rate(v: f64, material: u32) -> f64 {
    const AS: [f64; 4] = [220.598_913_65, -810.357_304_30, 928.681_851_98, 79.839_554_23];
    const BS: [f64; 4] = [61.992_874_16, -233.726_741_82, 325.855_083_22, -68.727_208_54];
    let m = f64::from(material.clamp(17, 110)) / 65.0;
    let poly = |c: &[f64; 4]| ((c[0] * m + c[1]) * m + c[2]) * m + c[3];
    let (a, b) = (poly(&AS), poly(&BS));
    let w = |x: f64| 1.0 / (1.0 + ((a - x) / b).exp());
    1.0 - w(v) - w(-v)
}

/// The material count of the standard start in Pikafish's units: 4 chariots (40), 4 horses and
/// 4 cannons (40), 4 elephants (12), 4 advisors (8), 10 soldiers (10).
pub const START_MATERIAL: u32 = 110;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pikafish_model_at_the_start_draws_94_percent() {
        // a(110/65) = 399.83, b = 113.80: W(0) = 1/(1 + e^(399.83/113.80)) = 0.02894.
        let d = pikafish_draw_rate(0.0, START_MATERIAL);
        assert!((d - 0.9421).abs() < 1e-3, "{d}");
        // An advantage lowers the draw rate; material is clamped to the fitted range.
        assert!(pikafish_draw_rate(200.0, START_MATERIAL) < d);
        assert_eq!(pikafish_draw_rate(0.0, 500), d);
    }
}
