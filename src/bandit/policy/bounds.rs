//! The explicit regret bound hidden in the proof of 004 Theorem 3
//! (Anytime-Lazy-UCB, Appendix B.2.1, L526–L572), evaluated in f64
//! (**approximate**: a sum of positive terms, rounding far below the
//! printed digits), and the statistical decision whether simulated regret
//! stays below it.
//!
//! The proof, with its `O(·)` unfolded. With `log` base 2 (L548:
//! `24 ln T/(Δ_j min{Δ_j, ε}) ≤ 2^{d_j}`) and `ω^{(d)} = Σ_{q=0}^{d} 2^q = 2^{d+1} − 1`:
//!
//! ```text
//! d_j = ⌈log₂(24 ln T/(Δ_j·min{Δ_j, ε}))⌉                                    (L526)
//! E[n_j(T)] ≤ ω^{(d_j+1)} + Σ_{s=d_j+1}^{⌊log₂ T⌋} P{r_j(T) = s}·ω^{(s+1)}     (24)
//! P{r_j(T) = s}·ω^{(s+1)} ≤ ω^{(s+1)} Σ_{t=ω^{(s−1)}+1}^{T} Σ_{τ=0}^{⌊log₂(t−1)⌋} (p₁(t) + p₂(t))   (26), (28)
//! ```
//!
//! where `p₁, p₂` bound the first two events of (27) by the paper's Facts
//! (L556, its equations (12) and (13): Hoeffding `P{|X − EX| ≥ a} ≤ 2e^{−2a²/n}`
//! and `P{|Lap(b)| > b ln(1/δ)} = δ`): the Laplace part at `δ = t^{−3}` gives
//! `t^{−3}` and the Hoeffding part at `a = √(n ln t³)` gives `2t^{−6}`, so
//! `p₁ + p₂ ≤ 2(t^{−3} + 2t^{−6})`; the third event of (27) cannot occur
//! (L564). Then `R(T) = Σ_{j: Δ_j > 0} Δ_j E[n_j(T)]` is at most
//!
//! ```text
//! B(T) = Σ_{j: Δ_j>0} Δ_j [ ω^{(d_j+1)} + Σ_{s=d_j+1}^{⌊log₂ T⌋} ω^{(s+1)} Σ_{t=ω^{(s−1)}+1}^{T} (⌊log₂(t−1)⌋ + 1)·2(t^{−3} + 2t^{−6}) ].
//! ```
//!
//! The algorithm is anytime, so the regret at round `t` is the regret of
//! horizon `t`, and `B(t)` is compared at every checkpoint.
//!
//! Lazy-DP-TS (Theorem 5, Appendix C.1) has no such row: its Lemma 21
//! (L625–L633) bounds `ω₂` by `O(log T/Δ_j²)` through anti-concentration with
//! constants the proof does not make explicit.

/// The rounds up to which `p` is summed term by term; beyond, by dyadic
/// blocks in closed form, so that memory and time do not grow with T.
const SUMMED: u64 = 1 << 20;

/// `p(T) = Σ_{t=2}^{T} (⌊log₂(t−1)⌋ + 1)·2(t^{−3} + 2t^{−6})`: a prefix
/// table up to `min(horizon, 2^20)`, and beyond it the blocks
/// `t ∈ [2^j + 1, 2^{j+1}]`, where `⌊log₂(t−1)⌋ = j` is constant, each
/// summed by Euler–Maclaurin (`Σ_a^b f = ∫_a^b f + (f(a) + f(b))/2 +
/// (f'(b) − f'(a))/12`, the next term below `10^{-30}` of the sum for
/// `a > 2^20`).
struct Prefix(Vec<f64>);

impl Prefix {
    fn new(horizon: u64) -> Prefix {
        let last = horizon.min(SUMMED);
        let mut out = vec![0.0; last as usize + 1];
        for t in 2..=last {
            let tf = t as f64;
            let levels = f64::from(63 - (t - 1).leading_zeros() + 1);
            let term = levels * 2.0 * (tf.powi(-3) + 2.0 * tf.powi(-6));
            out[t as usize] = out[t as usize - 1] + term;
        }
        Prefix(out)
    }

    /// `p(big_t)`, for `big_t` up to the horizon it was made for.
    fn at(&self, big_t: u64) -> f64 {
        let last = (self.0.len() - 1) as u64;
        if big_t <= last {
            return self.0[big_t as usize];
        }
        // Σ_{t=a}^{b} t^{-n} by Euler–Maclaurin.
        let power_sum = |a: f64, b: f64, n: i32| {
            let f = |x: f64| x.powi(-n);
            let integral = (a.powi(1 - n) - b.powi(1 - n)) / f64::from(n - 1);
            let derivative = |x: f64| -f64::from(n) * x.powi(-n - 1);
            integral + (f(a) + f(b)) / 2.0 + (derivative(b) - derivative(a)) / 12.0
        };
        let (mut sum, mut a) = (self.0[last as usize], last + 1);
        while a <= big_t {
            let j = 63 - (a - 1).leading_zeros();
            let b = if j >= 63 {
                big_t
            } else {
                (1u64 << (j + 1)).min(big_t)
            };
            let (af, bf) = (a as f64, b as f64);
            sum += f64::from(j + 1) * 2.0 * (power_sum(af, bf, 3) + 2.0 * power_sum(af, bf, 6));
            match b.checked_add(1) {
                Some(next) => a = next,
                None => break,
            }
        }
        sum
    }
}

fn omega(d: u32) -> f64 {
    2f64.powi(d as i32 + 1) - 1.0
}

/// The explicit bound `B(T)` of 004 Theorem 3's proof at every horizon in
/// `horizons` (increasing, each ≥ 2), for means `means` and ε. Arms with a
/// zero gap contribute nothing.
pub fn anytime_lazy_ucb_bound(means: &[f64], epsilon: f64, horizons: &[u64]) -> Vec<f64> {
    let best = means.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let last = horizons.last().copied().unwrap_or(2).max(2);
    let p = Prefix::new(last);
    horizons
        .iter()
        .map(|&big_t| {
            let big_t = big_t.max(2);
            let ln_t = (big_t as f64).ln();
            let log2_t = 63 - big_t.leading_zeros();
            means
                .iter()
                .map(|m| best - m)
                .filter(|gap| *gap > 0.0)
                .map(|gap| {
                    let d = (24.0 * ln_t / (gap * gap.min(epsilon)))
                        .log2()
                        .ceil()
                        .max(0.0) as u32;
                    let mut pulls = omega(d + 1);
                    for s in d + 1..=log2_t {
                        let from = omega(s - 1) as u64;
                        if from < big_t {
                            pulls += omega(s + 1) * (p.at(big_t) - p.at(from));
                        }
                    }
                    gap * pulls
                })
                .sum()
        })
        .collect()
}

/// A statistical verdict on "mean regret ≤ bound" from a two-sided
/// confidence interval `[lo, hi]` on the mean regret at level `1 − α`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `hi < bound`: the bound holds, at the interval's confidence.
    Holds,
    /// `lo > bound`: the bound is violated, at the interval's confidence.
    Violated,
    /// The interval straddles the bound.
    Inconclusive,
}

impl Verdict {
    /// Decide from the interval.
    pub fn decide(interval: (f64, f64), bound: f64) -> Verdict {
        if interval.1 < bound {
            Verdict::Holds
        } else if interval.0 > bound {
            Verdict::Violated
        } else {
            Verdict::Inconclusive
        }
    }

    /// `"holds"`, `"violated"` or `"inconclusive"`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Violated => "violated",
            Verdict::Inconclusive => "inconclusive",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closed-form blocks beyond 2^20 agree with the plain sum of their
    /// terms (summed apart: added to p(2^20) ≈ 0.7 term by term, terms
    /// below 10^-17 would be lost to rounding).
    #[test]
    fn the_prefix_beyond_its_table_agrees_with_the_plain_sum() {
        let big_t = (1u64 << 22) + 12_345;
        let mut tail = 0.0f64;
        for t in SUMMED + 1..=big_t {
            let tf = t as f64;
            let levels = f64::from(63 - (t - 1).leading_zeros() + 1);
            tail += levels * 2.0 * (tf.powi(-3) + 2.0 * tf.powi(-6));
        }
        let p = Prefix::new(big_t);
        assert_eq!(p.0.len() as u64, SUMMED + 1);
        let streamed = p.at(big_t);
        let blocks = streamed - p.at(SUMMED);
        assert!(((blocks - tail) / tail).abs() < 1e-6, "{blocks} vs {tail}");
        // p does not decrease (its terms are positive; beyond 2^20 they are
        // below the rounding of p itself).
        assert!(p.at(big_t) >= p.at(big_t - 1) && p.at(big_t - 1) >= p.at(SUMMED));
        // A horizon near 2^64 costs no memory and gives a finite value.
        let huge = Prefix::new(u64::MAX);
        assert!(huge.at(u64::MAX).is_finite() && huge.at(u64::MAX) >= streamed);
    }
}
