//! Elo estimates under the logistic model `P(i scores against j) = 1 / (1 + 10^(-(r_i - r_j)/400))`,
//! draws counted as half points.
//!
//! - Two players ([`two_player`]): the maximum-likelihood difference is the closed form
//!   `-400 log10(1/s - 1)` of the score fraction `s`; its 95 % interval comes from the delta
//!   method on the empirical per-game score variance (wins, draws and losses, so draws narrow it):
//!   `se(s) = sqrt(var/N)`, `se(elo) = se(s) * 400 / (ln 10 * s (1 - s))`.
//! - More players ([`ratings`]): the maximum-likelihood ratings of the Bradley-Terry model fitted
//!   by minorization-maximization (Hunter 2004: `γ_i ← W_i / Σ_j n_ij / (γ_i + γ_j)`, `γ = 10^(r/400)`),
//!   normalised to mean 0; 95 % intervals from the inverse Fisher information (a graph Laplacian,
//!   inverted on the sum-zero subspace as `(L + J/n)^-1 - J/n`).
//!
//! A perfect (or zero) score has no finite maximum-likelihood estimate, nor has a field split into
//! groups one of which never scored against another (the "beats" graph is not strongly
//! connected); there one virtual draw is added to every pairing that was played, and the
//! estimate is flagged `prior`.

/// Wins, draws and losses from one side's point of view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Wins.
    pub w: u32,
    /// Draws.
    pub d: u32,
    /// Losses.
    pub l: u32,
}

impl Wdl {
    /// Games.
    pub fn n(&self) -> u32 {
        self.w + self.d + self.l
    }
    /// Points (draws half).
    pub fn points(&self) -> f64 {
        self.w as f64 + 0.5 * self.d as f64
    }
    /// The other side's view.
    pub fn flipped(&self) -> Wdl {
        Wdl { w: self.l, d: self.d, l: self.w }
    }
    /// Adds a result: 1.0 win, 0.5 draw, 0.0 loss.
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.w += 1;
        } else if score < 0.25 {
            self.l += 1;
        } else {
            self.d += 1;
        }
    }
}

/// An Elo difference with its 95 % interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Elo (maximum likelihood).
    pub elo: f64,
    /// Half-width of the 95 % interval (`elo ± ci95`).
    pub ci95: f64,
    /// Score fraction (draws half).
    pub score: f64,
    /// Draws / games.
    pub draw_ratio: f64,
    /// Games.
    pub games: u32,
    /// A virtual draw was added because the score was perfect (or zero).
    pub prior: bool,
}

/// 1.959964: the two-sided 95 % normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo difference for a score fraction `s` in (0, 1).
pub fn elo_from_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Score fraction expected at an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Closed-form two-player estimate with a delta-method interval (module docs). `None` without games.
pub fn two_player(r: Wdl) -> Option<Estimate> {
    if r.n() == 0 {
        return None;
    }
    let draw_ratio = r.d as f64 / r.n() as f64;
    let prior = r.w + r.d == 0 || r.l + r.d == 0;
    let r2 = if prior { Wdl { d: r.d + 1, ..r } } else { r };
    let n = r2.n() as f64;
    let s = r2.points() / n;
    let (w, d, l) = (r2.w as f64 / n, r2.d as f64 / n, r2.l as f64 / n);
    let var = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
    let se_s = (var / n).sqrt();
    let se_elo = se_s * 400.0 / (std::f64::consts::LN_10 * s * (1.0 - s));
    Some(Estimate { elo: elo_from_score(s), ci95: Z95 * se_elo, score: r.points() / r.n() as f64, draw_ratio, games: r.n(), prior })
}

/// One player's rating in a multi-player fit.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rating {
    /// Elo, the field's mean being 0.
    pub elo: f64,
    /// Half-width of the 95 % interval.
    pub ci95: f64,
}

/// Result of [`ratings`].
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// Ratings by player index.
    pub ratings: Vec<Rating>,
    /// Virtual draws were added (module docs).
    pub prior: bool,
    /// MM iterations used.
    pub iterations: usize,
    /// Covariance of the ratings in Elo² (`k × k`, sum-zero constraint; rows and columns of
    /// players who played nobody are infinite on the diagonal and 0 elsewhere).
    pub cov: Vec<Vec<f64>>,
}

impl Fit {
    /// The ratings shifted so that player `anchor` is 0, each interval that of the difference
    /// to the anchor (`var(r_i - r_a) = C_ii + C_aa - 2 C_ia`; the anchor's own is 0).
    pub fn anchored(&self, anchor: usize) -> Vec<Rating> {
        let a = self.ratings[anchor].elo;
        (0..self.ratings.len())
            .map(|i| {
                let var = self.cov[i][i] + self.cov[anchor][anchor] - 2.0 * self.cov[i][anchor];
                let ci95 = if i == anchor { 0.0 } else if var.is_finite() { Z95 * var.max(0.0).sqrt() } else { f64::INFINITY };
                Rating { elo: self.ratings[i].elo - a, ci95 }
            })
            .collect()
    }
}

/// The maximum-likelihood rating of one more player against opponents whose ratings are held
/// fixed (`fixed[j]`, Elo), from its records `record[j]` against each (draws half): Newton's
/// method on the score equation `Σ_j n_j E_j(r) = Σ_j points_j`; the 95 % interval from the
/// Fisher information `Σ_j n_j p_j (1 - p_j) (ln 10 / 400)²`, which ignores the opponents' own
/// uncertainty. A perfect (or zero) score adds one virtual draw per opponent met (`prior`).
/// Used for players that must not move the reference scale (the ladder's oracles). `None`
/// without games.
pub fn rate_against(fixed: &[f64], record: &[Wdl]) -> Option<(Rating, bool)> {
    let mut n: Vec<f64> = record.iter().map(|r| r.n() as f64).collect();
    let mut pts: f64 = record.iter().map(Wdl::points).sum();
    let total: f64 = n.iter().sum();
    if total == 0.0 {
        return None;
    }
    let prior = pts <= 0.0 || pts >= total;
    if prior {
        for x in n.iter_mut().filter(|x| **x > 0.0) {
            *x += 1.0;
            pts += 0.5;
        }
    }
    let k = std::f64::consts::LN_10 / 400.0;
    let mut r = fixed.iter().zip(&n).map(|(f, m)| f * m).sum::<f64>() / n.iter().sum::<f64>();
    let mut info = 0.0;
    for _ in 0..200 {
        let (mut f, mut d) = (-pts, 0.0);
        for (j, &m) in n.iter().enumerate() {
            if m > 0.0 {
                let p = score_from_elo(r - fixed[j]);
                f += m * p;
                d += m * p * (1.0 - p) * k;
            }
        }
        info = d * k;
        let step = (f / d).clamp(-400.0, 400.0);
        r -= step;
        if step.abs() < 1e-9 {
            break;
        }
    }
    Some((Rating { elo: r, ci95: Z95 / info.sqrt() }, prior))
}

/// Maximum-likelihood ratings from a results matrix: `m[i][j]` is `i`'s record against `j`
/// (`m[j][i]` must be its mirror). Players who played nobody get rating 0 and interval ∞.
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
pub fn ratings(m: &[Vec<Wdl>]) -> Fit {
    let k = m.len();
    // n[i][j] games and points w[i] (draws half).
    let mut n = vec![vec![0.0f64; k]; k];
    let mut w = vec![0.0f64; k];
    for i in 0..k {
        for j in 0..k {
            if i != j {
                n[i][j] = m[i][j].n() as f64;
                w[i] += m[i][j].points();
            }
        }
    }
    let played: Vec<bool> = (0..k).map(|i| n[i].iter().sum::<f64>() > 0.0).collect();
    let degenerate = !has_finite_mle(m, &played);
    if degenerate {
        for i in 0..k {
            for j in 0..k {
                if i != j && n[i][j] > 0.0 {
                    n[i][j] += 1.0;
                    w[i] += 0.5;
                }
            }
        }
    }
    let mut gamma = vec![1.0f64; k];
    let mut iterations = 0;
    for it in 0..10_000 {
        iterations = it + 1;
        let mut next = gamma.clone();
        for i in 0..k {
            if !played[i] {
                continue;
            }
            let denom: f64 = (0..k).filter(|&j| j != i && n[i][j] > 0.0).map(|j| n[i][j] / (gamma[i] + gamma[j])).sum();
            next[i] = w[i] / denom;
        }
        // Normalise: geometric mean 1 over the players who played.
        let cnt = played.iter().filter(|&&p| p).count().max(1) as f64;
        let mean_log: f64 = (0..k).filter(|&i| played[i]).map(|i| next[i].ln()).sum::<f64>() / cnt;
        for i in 0..k {
            if played[i] {
                next[i] = (next[i].ln() - mean_log).exp();
            }
        }
        let delta = (0..k).map(|i| (next[i].ln() - gamma[i].ln()).abs()).fold(0.0, f64::max);
        gamma = next;
        if delta < 1e-12 {
            break;
        }
    }
    let scale = 400.0 / std::f64::consts::LN_10; // Elo per natural log-odds unit
    // Fisher information in natural units: Laplacian with weights n_ij p_ij (1 - p_ij).
    let idx: Vec<usize> = (0..k).filter(|&i| played[i]).collect();
    let kk = idx.len();
    let mut lap = vec![vec![0.0f64; kk]; kk];
    for (a, &i) in idx.iter().enumerate() {
        for (b, &j) in idx.iter().enumerate() {
            if a != b && n[i][j] > 0.0 {
                let p = gamma[i] / (gamma[i] + gamma[j]);
                let x = n[i][j] * p * (1.0 - p);
                lap[a][b] -= x;
                lap[a][a] += x;
            }
        }
    }
    let cov = pseudo_inverse_laplacian(&lap);
    let mut out = vec![Rating { elo: 0.0, ci95: f64::INFINITY }; k];
    let mut full = vec![vec![0.0f64; k]; k];
    for i in 0..k {
        full[i][i] = f64::INFINITY;
    }
    for (a, &i) in idx.iter().enumerate() {
        let var = cov.as_ref().map(|c| c[a][a]).unwrap_or(f64::INFINITY);
        out[i] = Rating { elo: gamma[i].ln() * scale, ci95: Z95 * var.max(0.0).sqrt() * scale };
        for (b, &j) in idx.iter().enumerate() {
            full[i][j] = cov.as_ref().map(|c| c[a][b] * scale * scale).unwrap_or(if a == b { f64::INFINITY } else { 0.0 });
        }
    }
    Fit { ratings: out, prior: degenerate, iterations, cov: full }
}

/// Whether the maximum-likelihood ratings are finite (Zermelo 1929, Ford 1957): among the
/// players who played, the directed graph with an edge `i → j` whenever `i` took points from `j`
/// (a win or a draw) must be strongly connected; otherwise some group of players never scored
/// against the rest and the fit would push the gap to infinity.
#[allow(clippy::needless_range_loop)]
fn has_finite_mle(m: &[Vec<Wdl>], played: &[bool]) -> bool {
    let k = m.len();
    let Some(start) = (0..k).find(|&i| played[i]) else { return true };
    let reach = |forward: bool| {
        let mut seen = vec![false; k];
        let mut stack = vec![start];
        seen[start] = true;
        while let Some(i) = stack.pop() {
            for j in 0..k {
                let scored = if forward { m[i][j].points() > 0.0 } else { m[j][i].points() > 0.0 };
                if i != j && played[j] && !seen[j] && scored {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen
    };
    let (f, b) = (reach(true), reach(false));
    (0..k).all(|i| !played[i] || (f[i] && b[i]))
}

/// `(L + J/n)^-1 - J/n` for a connected graph Laplacian; `None` if singular (disconnected).
fn pseudo_inverse_laplacian(l: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = l.len();
    if n == 0 {
        return Some(Vec::new());
    }
    let j = 1.0 / n as f64;
    let a: Vec<Vec<f64>> = l.iter().map(|row| row.iter().map(|x| x + j).collect()).collect();
    let inv = invert(a)?;
    Some(inv.into_iter().map(|row| row.into_iter().map(|x| x - j).collect()).collect())
}

/// Gauss-Jordan inversion with partial pivoting.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> = (0..n).map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect()).collect();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))?;
        if a[p][c].abs() < 1e-12 {
            return None;
        }
        a.swap(c, p);
        inv.swap(c, p);
        let d = a[c][c];
        for x in 0..n {
            a[c][x] /= d;
            inv[c][x] /= d;
        }
        for r in 0..n {
            if r != c {
                let f = a[r][c];
                if f != 0.0 {
                    for x in 0..n {
                        a[r][x] -= f * a[c][x];
                        inv[r][x] -= f * inv[c][x];
                    }
                }
            }
        }
    }
    Some(inv)
}

/// Wilson score interval (95 %) for `k` successes in `n` trials: `(low, high)`.
pub fn wilson95(k: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n, z) = (k as f64, n as f64, Z95);
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_player_hand_computed() {
        // 6 wins, 2 draws, 2 losses: s = 7/10 = 0.7, elo = -400 log10(1/0.7 - 1) = 400 log10(7/3)
        // = 147.19. var = 0.6*0.09 + 0.2*0.04 + 0.2*0.49 = 0.054 + 0.008 + 0.098 = 0.16,
        // se(s) = sqrt(0.016) = 0.126491, se(elo) = 0.126491 * 400 / (2.302585 * 0.21) = 104.637,
        // ci95 = 1.959964 * 104.637 = 205.08.
        let e = two_player(Wdl { w: 6, d: 2, l: 2 }).expect("games");
        assert!((e.elo - 147.19).abs() < 0.01, "{}", e.elo);
        assert!((e.ci95 - 205.08).abs() < 0.05, "{}", e.ci95);
        assert!((e.draw_ratio - 0.2).abs() < 1e-12);
        assert!(!e.prior);
    }

    #[test]
    fn even_score_is_zero() {
        let e = two_player(Wdl { w: 3, d: 4, l: 3 }).expect("games");
        assert!(e.elo.abs() < 1e-9);
        // var = 0.3*0.25 + 0.4*0 + 0.3*0.25 = 0.15; se(s) = sqrt(0.015) = 0.122474;
        // se(elo) = 0.122474 * 400 / (2.302585 * 0.25) = 85.105; ci95 = 166.80.
        assert!((e.ci95 - 166.80).abs() < 0.05, "{}", e.ci95);
    }

    #[test]
    fn perfect_score_uses_prior() {
        let e = two_player(Wdl { w: 10, d: 0, l: 0 }).expect("games");
        assert!(e.prior);
        // one virtual draw: s = 10.5/11.
        assert!((e.elo - elo_from_score(10.5 / 11.0)).abs() < 1e-9);
        assert_eq!(e.score, 1.0);
    }

    #[test]
    fn mle_two_players_matches_closed_form() {
        let r = Wdl { w: 6, d: 2, l: 2 };
        let m = vec![vec![Wdl::default(), r], vec![r.flipped(), Wdl::default()]];
        let f = ratings(&m);
        let diff = f.ratings[0].elo - f.ratings[1].elo;
        assert!((diff - 147.19).abs() < 0.01, "{diff}");
        assert!((f.ratings[0].elo + f.ratings[1].elo).abs() < 1e-6);
        // Fisher: n p (1-p) = 10 * 0.21 = 2.1 per log-odds unit²; var(r0 - r1) = 1/2.1 and each
        // rating carries a quarter of it under the sum-zero constraint: var(r0) = 1/8.4.
        // ci95(r0) = 1.959964 * sqrt(1/8.4) * 173.7178 = 117.48.
        assert!((f.ratings[0].ci95 - 117.48).abs() < 0.05, "{}", f.ratings[0].ci95);
    }

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn mle_three_players_is_transitive() {
        // A beats B 60 %, B beats C 60 %, A beats C 69.2 %: consistent with equal gaps.
        let g = |w, l| Wdl { w, d: 0, l };
        let mut m = vec![vec![Wdl::default(); 3]; 3];
        let set = |m: &mut Vec<Vec<Wdl>>, i: usize, j: usize, r: Wdl| {
            m[i][j] = r;
            m[j][i] = r.flipped();
        };
        set(&mut m, 0, 1, g(60, 40));
        set(&mut m, 1, 2, g(60, 40));
        let s = score_from_elo(2.0 * elo_from_score(0.6));
        let wins = (s * 1000.0).round() as u32;
        set(&mut m, 0, 2, g(wins, 1000 - wins));
        let f = ratings(&m);
        let gap = elo_from_score(0.6);
        assert!((f.ratings[0].elo - gap).abs() < 3.0, "{:?}", f.ratings);
        assert!(f.ratings[1].elo.abs() < 3.0);
        assert!((f.ratings[2].elo + gap).abs() < 3.0);
        // Score equations hold at the optimum: expected points equal actual points.
        for i in 0..3 {
            let mut exp = 0.0;
            let mut act = 0.0;
            for j in 0..3 {
                if i != j {
                    exp += m[i][j].n() as f64 * score_from_elo(f.ratings[i].elo - f.ratings[j].elo);
                    act += m[i][j].points();
                }
            }
            assert!((exp - act).abs() < 1e-6, "{exp} {act}");
        }
    }

    #[test]
    fn anchored_interval_is_that_of_the_difference() {
        // Two players: the anchored interval of player 0 is the two-player MLE's interval of the
        // difference, var = 1/2.1 log-odds² (see mle_two_players_matches_closed_form).
        let r = Wdl { w: 6, d: 2, l: 2 };
        let m = vec![vec![Wdl::default(), r], vec![r.flipped(), Wdl::default()]];
        let a = ratings(&m).anchored(1);
        assert_eq!(a[1], Rating { elo: 0.0, ci95: 0.0 });
        assert!((a[0].elo - 147.19).abs() < 0.01, "{:?}", a);
        let want = Z95 * (1.0f64 / 2.1).sqrt() * 400.0 / std::f64::consts::LN_10;
        assert!((a[0].ci95 - want).abs() < 1e-6, "{} {want}", a[0].ci95);
    }

    #[test]
    fn rate_against_solves_the_score_equation() {
        // 7/10 against a player fixed at 100: r - 100 = elo_from_score(0.7) = 147.19.
        let (r, prior) = rate_against(&[100.0, 0.0], &[Wdl { w: 6, d: 2, l: 2 }, Wdl::default()]).expect("games");
        assert!(!prior);
        assert!((r.elo - 247.19).abs() < 0.01, "{r:?}");
        // Fisher: 10 * 0.21 log-odds² → the same interval as the two-player MLE's difference.
        let want = Z95 * (1.0f64 / 2.1).sqrt() * 400.0 / std::f64::consts::LN_10;
        assert!((r.ci95 - want).abs() < 0.01, "{} {want}", r.ci95);
        // Two opponents: expected points equal actual points at the estimate.
        let rec = [Wdl { w: 3, d: 1, l: 0 }, Wdl { w: 1, d: 2, l: 3 }];
        let (r, _) = rate_against(&[-50.0, 200.0], &rec).expect("games");
        let exp = 4.0 * score_from_elo(r.elo + 50.0) + 6.0 * score_from_elo(r.elo - 200.0);
        assert!((exp - 5.5).abs() < 1e-6, "{exp}");
        // A perfect score gets a virtual draw and a finite estimate.
        let (r, prior) = rate_against(&[0.0], &[Wdl { w: 4, d: 0, l: 0 }]).expect("games");
        assert!(prior && r.elo.is_finite() && (r.elo - elo_from_score(4.5 / 5.0)).abs() < 1e-6);
        assert!(rate_against(&[0.0], &[Wdl::default()]).is_none());
    }

    #[test]
    fn a_field_in_tiers_gets_the_prior() {
        // A beats B and C 10-0, B and C split 5-5: no player is perfect, yet {A} never lost,
        // so without the prior A's rating would diverge.
        let g = |w, l| Wdl { w, d: 0, l };
        let mut m = vec![vec![Wdl::default(); 3]; 3];
        for (i, j, r) in [(0, 1, g(10, 0)), (0, 2, g(10, 0)), (1, 2, g(5, 5))] {
            m[i][j] = r;
            m[j][i] = r.flipped();
        }
        let f = ratings(&m);
        assert!(f.prior);
        assert!(f.ratings.iter().all(|r| r.elo.is_finite() && r.ci95.is_finite() && r.ci95 < 1000.0), "{:?}", f.ratings);
        // A strongly connected field is fitted as it is.
        m[1][0] = g(1, 9);
        m[0][1] = m[1][0].flipped();
        assert!(!ratings(&m).prior);
    }

    #[test]
    fn wilson_hand_computed() {
        // k = 5, n = 10: centre = (0.5 + 3.8415/20) / (1 + 3.8415/10) = 0.5;
        // half = 1.96 * sqrt(0.025 + 3.8415/400) / 1.38415 = 1.96 * 0.18600 / 1.38415 = 0.26338.
        let (lo, hi) = wilson95(5, 10);
        assert!((lo - 0.2366).abs() < 1e-3 && (hi - 0.7634).abs() < 1e-3, "{lo} {hi}");
        let (lo, hi) = wilson95(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-3, "{hi}");
    }
}
