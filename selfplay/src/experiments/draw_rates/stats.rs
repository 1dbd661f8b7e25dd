//! Paired statistics of the study: per (preset, level) cell the draw rates hidden and open and the
//! mean of the per-deal differences of the draw indicators with a 95 % interval; pooled per
//! information class and level as the unweighted mean of the presets' differences.
//!
//! For deal `i` let `h_i, o_i ∈ {0, 1}` say whether the hidden and the open game were drawn and
//! `d_i = h_i - o_i`. The paired estimate is `d̄ = Σ d_i / n` with standard error
//! `s_d / √n` (`s_d` the sample standard deviation of the `d_i`), the interval `d̄ ± 1.96 s_d/√n`
//! (normal approximation; with `n < 2` the interval is infinite). A pooled class mean of `k`
//! presets has variance `Σ se_p² / k²` (independent presets).

use super::store::GameRow;
use crate::tournament::elo::Z95;
use std::collections::BTreeMap;

/// One (preset, level) cell.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairedCell {
    /// Deals with both games played.
    pub pairs: u32,
    /// Hidden games drawn (of `pairs`).
    pub hidden_draws: u32,
    /// Open games drawn (of `pairs`).
    pub open_draws: u32,
    /// Deals whose two games differ (one drawn, one not).
    pub discordant: u32,
    /// Mean of `h_i - o_i`.
    pub diff: f64,
    /// Standard error of `diff`.
    pub se: f64,
    /// Mean plies, hidden and open.
    pub plies: (f64, f64),
    /// Endings, hidden games.
    pub hidden_endings: BTreeMap<String, u32>,
    /// Endings, open games.
    pub open_endings: BTreeMap<String, u32>,
}

impl PairedCell {
    /// Hidden draw rate.
    pub fn hidden_rate(&self) -> f64 {
        self.hidden_draws as f64 / self.pairs.max(1) as f64
    }

    /// Open draw rate.
    pub fn open_rate(&self) -> f64 {
        self.open_draws as f64 / self.pairs.max(1) as f64
    }

    /// Half-width of the 95 % interval of `diff`.
    pub fn ci95(&self) -> f64 {
        Z95 * self.se
    }

    /// A cautious half-width of the 95 % interval for sequential stopping: the interval of the
    /// mean with two virtual deals added, one of difference +1 and one of -1, so that a few
    /// concordant deals never look like certainty (`n` concordant deals give `1.96 √(2/(n+1)/n)`,
    /// not 0). Infinite with no deal.
    pub fn cautious_ci95(&self) -> f64 {
        if self.pairs == 0 {
            return f64::INFINITY;
        }
        let n = self.pairs as f64;
        // Σ d² over the real deals is the number of discordant deals, Σ d is n·diff.
        let sum = self.diff * n;
        let discordant = self.discordant as f64;
        let m = sum / (n + 2.0);
        let ss = discordant - 2.0 * m * sum + n * m * m + (1.0 - m).powi(2) + (1.0 + m).powi(2);
        Z95 * (ss / (n + 1.0) / n).sqrt()
    }

    /// Games ended by perpetual check (a loss of the checker), hidden and open together.
    pub fn perpetual_checks(&self) -> u32 {
        let f = |m: &BTreeMap<String, u32>| m.iter().filter(|(k, _)| k.contains("perpetual check")).map(|(_, v)| *v).sum::<u32>();
        f(&self.hidden_endings) + f(&self.open_endings)
    }
}

/// The paired cell of `preset` at level `spec` from the study's games.
pub fn paired(rows: &[GameRow], preset: &str, spec: &str) -> PairedCell {
    let mut hidden: BTreeMap<u32, &GameRow> = BTreeMap::new();
    let mut open: BTreeMap<u32, &GameRow> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.key.preset == preset && r.key.spec == spec) {
        if r.key.open {
            open.insert(r.key.deal, r);
        } else {
            hidden.insert(r.key.deal, r);
        }
    }
    let mut c = PairedCell::default();
    let mut diffs = Vec::new();
    let (mut ph, mut po) = (0usize, 0usize);
    for (deal, h) in &hidden {
        let Some(o) = open.get(deal) else { continue };
        c.pairs += 1;
        c.hidden_draws += u32::from(h.drawn());
        c.open_draws += u32::from(o.drawn());
        c.discordant += u32::from(h.drawn() != o.drawn());
        diffs.push(f64::from(u8::from(h.drawn())) - f64::from(u8::from(o.drawn())));
        ph += h.plies;
        po += o.plies;
        *c.hidden_endings.entry(h.reason.clone()).or_insert(0) += 1;
        *c.open_endings.entry(o.reason.clone()).or_insert(0) += 1;
    }
    let n = diffs.len() as f64;
    if n > 0.0 {
        c.diff = diffs.iter().sum::<f64>() / n;
        c.plies = (ph as f64 / n, po as f64 / n);
    }
    c.se = if n >= 2.0 {
        let var = diffs.iter().map(|d| (d - c.diff).powi(2)).sum::<f64>() / (n - 1.0);
        (var / n).sqrt()
    } else {
        f64::INFINITY
    };
    c
}

/// The kind of ending of a game by its reason, for the endings table: `mate` (checkmate,
/// stalemate, a captured or dead general), `repetition` (repetition, perpetual check or chase),
/// `move count` (the 60-move and no-capture rules), `material` (no attacking material), `ply
/// limit` (adjudicated), or `other` (forfeits, resignations, agreed draws).
pub fn ending_kind(reason: &str) -> &'static str {
    let r = reason.to_ascii_lowercase();
    if ["checkmate", "stalemate", "general captured", "dead general"].iter().any(|k| r.contains(k)) {
        "mate"
    } else if r.contains("repetition") || r.contains("perpetual") {
        "repetition"
    } else if r.contains("60-move") || r.contains("no-capture") {
        "move count"
    } else if r.contains("material") {
        "material"
    } else if r.contains("ply limit") {
        "ply limit"
    } else {
        "other"
    }
}

/// The ending kinds in table order.
pub const ENDING_KINDS: [&str; 6] = ["mate", "repetition", "move count", "material", "ply limit", "other"];

/// Pooled over cells: `(mean hidden rate, mean open rate, mean difference, its 95 % half-width)`,
/// unweighted means over the cells with at least one pair.
pub fn pooled(cells: &[&PairedCell]) -> Option<(f64, f64, f64, f64)> {
    let cs: Vec<&&PairedCell> = cells.iter().filter(|c| c.pairs > 0).collect();
    if cs.is_empty() {
        return None;
    }
    let k = cs.len() as f64;
    let h = cs.iter().map(|c| c.hidden_rate()).sum::<f64>() / k;
    let o = cs.iter().map(|c| c.open_rate()).sum::<f64>() / k;
    let d = cs.iter().map(|c| c.diff).sum::<f64>() / k;
    let var = cs.iter().map(|c| c.se * c.se).sum::<f64>() / (k * k);
    Some((h, o, d, Z95 * var.sqrt()))
}

/// The draw rate of a set of games (the ceiling's): `(draws, games)`.
pub fn draws(rows: &[GameRow], preset: &str, spec: &str) -> (u32, u32) {
    let g: Vec<&GameRow> = rows.iter().filter(|r| r.key.preset == preset && r.key.spec == spec && !r.key.open).collect();
    (g.iter().filter(|r| r.drawn()).count() as u32, g.len() as u32)
}

#[cfg(test)]
mod tests {
    use super::super::store::Key;
    use super::*;

    fn g(deal: u32, open: bool, drawn: bool, reason: &str) -> GameRow {
        GameRow { key: Key::new("p", "s", deal, open), red_score: if drawn { 0.5 } else { 1.0 }, reason: reason.into(), plies: 10 + deal as usize, seconds: None }
    }

    #[test]
    fn paired_difference_hand_computed() {
        // Deals: (h, o) = (1,0), (1,1), (0,0), (1,0); deal 4 has no open game and is left out.
        let rows = vec![
            g(0, false, true, "60-move rule"),
            g(0, true, false, "checkmate"),
            g(1, false, true, "repetition"),
            g(1, true, true, "repetition"),
            g(2, false, false, "checkmate"),
            g(2, true, false, "perpetual check"),
            g(3, false, true, "ply limit"),
            g(3, true, false, "checkmate"),
            g(4, false, true, "ply limit"),
        ];
        let c = paired(&rows, "p", "s");
        assert_eq!((c.pairs, c.hidden_draws, c.open_draws), (4, 3, 1));
        // d = 1, 0, 0, 1: mean 0.5, s² = (0.25 * 4) / 3 = 1/3, se = sqrt(1/12) = 0.288675.
        assert!((c.diff - 0.5).abs() < 1e-12);
        assert!((c.se - (1.0f64 / 12.0).sqrt()).abs() < 1e-12, "{}", c.se);
        assert!((c.ci95() - Z95 * 0.288_675_134_594_812_9).abs() < 1e-9);
        assert_eq!(c.perpetual_checks(), 1);
        assert_eq!(c.plies, (11.5, 11.5));
        // Pooling two equal cells halves the variance.
        let (h, o, d, hw) = pooled(&[&c, &c]).expect("cells");
        assert!((h - 0.75).abs() < 1e-12 && (o - 0.25).abs() < 1e-12 && (d - 0.5).abs() < 1e-12);
        assert!((hw - Z95 * (2.0 * c.se * c.se / 4.0).sqrt()).abs() < 1e-12);
        assert_eq!(draws(&rows, "p", "s"), (4, 5));
        assert!(pooled(&[&PairedCell::default()]).is_none());
        assert_eq!(c.discordant, 2);
    }

    #[test]
    fn cautious_interval_never_collapses_and_matches_the_virtual_deals() {
        // 30 concordant deals: the plain interval is 0, the cautious one is that of 32 deals
        // with d = +1, -1 and 30 zeros over n = 30.
        let rows: Vec<GameRow> = (0..30).flat_map(|d| [g(d, false, false, "checkmate"), g(d, true, false, "checkmate")]).collect();
        let c = paired(&rows, "p", "s");
        assert_eq!(c.ci95(), 0.0);
        let want = Z95 * (2.0f64 / 31.0 / 30.0).sqrt();
        assert!((c.cautious_ci95() - want).abs() < 1e-12, "{} vs {want}", c.cautious_ci95());
        // With discordant deals it is close to the plain one for large n.
        let mut rows = Vec::new();
        for d in 0..400u32 {
            rows.push(g(d, false, d % 4 == 0, "x"));
            rows.push(g(d, true, d % 8 == 0, "x"));
        }
        let c = paired(&rows, "p", "s");
        assert!(c.cautious_ci95() > c.ci95() && c.cautious_ci95() < 1.05 * c.ci95(), "{} {}", c.cautious_ci95(), c.ci95());
        assert_eq!(PairedCell::default().cautious_ci95(), f64::INFINITY);
    }

    #[test]
    fn ending_kinds_cover_the_reasons_in_the_store() {
        for (r, k) in [
            ("checkmate", "mate"),
            ("stalemate", "mate"),
            ("dead general", "mate"),
            ("general captured", "mate"),
            ("repetition", "repetition"),
            ("perpetual chase", "repetition"),
            ("perpetual check", "repetition"),
            ("60-move rule", "move count"),
            ("no-capture rule", "move count"),
            ("no attacking material", "material"),
            ("ply limit", "ply limit"),
            ("forfeit: timeout", "other"),
        ] {
            assert_eq!(ending_kind(r), k, "{r}");
        }
    }
}
