//! Sequential probability ratio test on the trinomial (win/draw/loss) results of a two-player match,
//! as fishtest's `sprt` does it (the generalised SPRT of Michel Van den Bergh, `stat_util.LLR`):
//!
//! - H0: the Elo difference is `elo0`; H1: it is `elo1` (logistic Elo, score `s = 1/(1+10^(-elo/400))`);
//! - under each hypothesis the trinomial `(L, D, W)` with values `(0, ½, 1)` is replaced by its
//!   maximum-likelihood distribution whose mean score is `s_i`: `q_j = p_j / (1 + θ (a_j - s_i))`,
//!   `θ` solving `Σ p_j (a_j - s_i) / (1 + θ (a_j - s_i)) = 0`;
//! - `LLR = N Σ p_j ln(q1_j / q0_j)`; bounds `ln(β / (1 - α))` (accept H0) and `ln((1 - β) / α)`
//!   (accept H1).
//!
//! [`llr_normal`] is the quadratic approximation `N (s1 - s0)(2 s̄ - s0 - s1) / (2 σ²)` for reference.

use super::elo::{score_from_elo, Wdl};

/// SPRT parameters.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Type I error.
    pub alpha: f64,
    /// Type II error.
    pub beta: f64,
}

/// The test's state.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Keep playing.
    Continue,
    /// LLR fell below the lower bound.
    AcceptH0,
    /// LLR rose above the upper bound.
    AcceptH1,
}

impl Verdict {
    /// Short text.
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Continue => "continue",
            Verdict::AcceptH0 => "H0 accepted",
            Verdict::AcceptH1 => "H1 accepted",
        }
    }
}

impl Sprt {
    /// `(lower, upper)` bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// Log-likelihood ratio of `r` (the first player's record).
    pub fn llr(&self, r: Wdl) -> f64 {
        llr_trinomial(r, self.elo0, self.elo1)
    }

    /// The verdict at `r`.
    pub fn verdict(&self, r: Wdl) -> Verdict {
        let llr = self.llr(r);
        let (lo, hi) = self.bounds();
        if llr <= lo {
            Verdict::AcceptH0
        } else if llr >= hi {
            Verdict::AcceptH1
        } else {
            Verdict::Continue
        }
    }
}

/// The GSPRT log-likelihood ratio (module docs); 0 without games. Outcomes never seen get a
/// mass of 1e-3 games (as in fishtest) so that the constrained maximum exists.
pub fn llr_trinomial(r: Wdl, elo0: f64, elo1: f64) -> f64 {
    let n = r.n() as f64;
    if n == 0.0 {
        return 0.0;
    }
    // Regularise as fishtest does: an outcome never seen gets a tiny mass so that the
    // constrained maximum exists (fishtest adds 1e-3 to each count).
    let counts = [r.l as f64, r.d as f64, r.w as f64];
    let eps = 1e-3;
    let total: f64 = counts.iter().map(|c| c + eps).sum();
    let p: Vec<f64> = counts.iter().map(|c| (c + eps) / total).collect();
    let a = [0.0, 0.5, 1.0];
    let s0 = score_from_elo(elo0);
    let s1 = score_from_elo(elo1);
    let q0 = mle_with_mean(&p, &a, s0);
    let q1 = mle_with_mean(&p, &a, s1);
    n * (0..3).map(|j| p[j] * (q1[j] / q0[j]).ln()).sum::<f64>()
}

/// The distribution closest to `p` (maximum likelihood) with mean `s` over values `a`.
fn mle_with_mean(p: &[f64], a: &[f64], s: f64) -> Vec<f64> {
    // θ must keep every 1 + θ (a_j - s) > 0: θ in (-1/max(a-s), -1/min(a-s)).
    let hi_d = a.iter().map(|x| x - s).fold(f64::MIN, f64::max);
    let lo_d = a.iter().map(|x| x - s).fold(f64::MAX, f64::min);
    let (mut lo, mut hi) = (-1.0 / hi_d, -1.0 / lo_d);
    let f = |t: f64| -> f64 { p.iter().zip(a).map(|(pj, aj)| pj * (aj - s) / (1.0 + t * (aj - s))).sum() };
    // f is decreasing in θ; bisection.
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t = 0.5 * (lo + hi);
    p.iter().zip(a).map(|(pj, aj)| pj / (1.0 + t * (aj - s))).collect()
}

/// Normal (quadratic) approximation of the LLR.
pub fn llr_normal(r: Wdl, elo0: f64, elo1: f64) -> f64 {
    let n = r.n() as f64;
    if n == 0.0 {
        return 0.0;
    }
    let s = r.points() / n;
    let (w, d, l) = (r.w as f64 / n, r.d as f64 / n, r.l as f64 / n);
    let var = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
    if var <= 0.0 {
        return 0.0;
    }
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_hand_computed() {
        // alpha = beta = 0.05: ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439.
        let t = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        let (lo, hi) = t.bounds();
        assert!((lo + 2.944439).abs() < 1e-6 && (hi - 2.944439).abs() < 1e-6);
    }

    #[test]
    fn no_draws_is_binomial() {
        // With no draws the constrained MLE is Bernoulli(s_i), so
        // LLR = W ln(s1/s0) + L ln((1-s1)/(1-s0)).
        // elo0 = 0 → s0 = 0.5; elo1 = 100 → s1 = 1/(1+10^-0.25) = 1/(1+0.562341) = 0.640065.
        // W = 60, L = 40: 60 ln(1.280130) + 40 ln(0.719870) = 60*0.246962 + 40*(-0.328684)
        // = 14.81772 - 13.14736 = 1.67036.
        let llr = llr_trinomial(Wdl { w: 60, d: 0, l: 40 }, 0.0, 100.0);
        // The 1e-3 regularisation of the empty draw cell moves it by less than 0.01.
        assert!((llr - 1.67036).abs() < 0.01, "{llr}");
    }

    #[test]
    fn trinomial_close_to_normal_approximation() {
        // W 300, D 400, L 250, elo0 = 0, elo1 = 10: s̄ = 500/950 = 0.526316;
        // var = (300*0.224377 + 400*0.000693 + 250*0.277008)/950 = (67.313 + 0.277 + 69.252)/950
        // = 0.144044; s0 = 0.5, s1 = 0.514387;
        // normal LLR = 950 * 0.014387 * (1.052632 - 1.014387) / (2 * 0.144044) = 1.8145.
        let r = Wdl { w: 300, d: 400, l: 250 };
        let approx = llr_normal(r, 0.0, 10.0);
        assert!((approx - 1.8145).abs() < 0.002, "{approx}");
        let exact = llr_trinomial(r, 0.0, 10.0);
        assert!((exact - approx).abs() < 0.02, "{exact} {approx}");
        let t = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        assert_eq!(t.verdict(r), Verdict::Continue);
    }

    #[test]
    fn verdicts() {
        let t = Sprt { elo0: 0.0, elo1: 50.0, alpha: 0.05, beta: 0.05 };
        assert_eq!(t.verdict(Wdl { w: 80, d: 10, l: 10 }), Verdict::AcceptH1);
        assert_eq!(t.verdict(Wdl { w: 10, d: 10, l: 80 }), Verdict::AcceptH0);
        assert_eq!(t.verdict(Wdl { w: 1, d: 0, l: 1 }), Verdict::Continue);
    }
}
