//! AdaP-KLUCB: Azize & Basu, "When Privacy Meets Partial Information: A Refined
//! Analysis of Differentially Private Bandits", NeurIPS 2022 (arXiv:2209.02570),
//! §4: Algorithm 1 (the framework) with the AdaP-KLUCB index below it. It is
//! the fourth curve of Hu et al.'s figures (004 §6, L341, where it is
//! attributed to "Asi et al. (2022)"; 004 L156 and footnote 9 name it Azize
//! and Basu's).
//!
//! Read in the text of the paper (its NeurIPS submission version, found through
//! the `search` tool's code corpus):
//!
//! ```text
//! Algorithm 1  A framework for ε-global DP extension of an index-based bandit algorithm
//! 1: Input: privacy budget ε, an environment ν with K arms, parameter α > 3
//! 2: Output: a sequence of T actions satisfying ε-global DP
//! 3: Initialisation: choose each arm once and assign t = K
//! 4: for ℓ = 1, 2, … do
//! 5:   let t_ℓ = t + 1
//! 6:   compute A_ℓ = argmax_a I^ε_a(t_ℓ − 1, α)
//! 7:   choose arm A_ℓ until round t such that T_i(t) = 2 T_i(t_ℓ − 1)
//! 8: end for
//!
//! μ̃^ℓ_{a,ε} = μ̂^ℓ_a + Lap(2/(ε N_a(t_ℓ − 1)))      (μ̂: mean of arm a's last episode,
//!                                                  ½ N_a(t_ℓ − 1) samples)
//! μ̆^{ℓ,α}_{a,ε} = Clip_{0,1}( μ̃^ℓ_{a,ε} + α log(t_ℓ) / (ε · ½ N_a(t_ℓ − 1)) )
//! I^ε_a(t_ℓ − 1, α) = max{ q ∈ [0, 1] : d(μ̆^{ℓ,α}_{a,ε}, q) ≤ α log(t_ℓ) / (½ N_a(t_ℓ − 1)) }
//! ```
//!
//! with `d(p, q) = p ln(p/q) + (1 − p) ln((1 − p)/(1 − q))` the Bernoulli
//! Kullback–Leibler divergence (KL-UCB of Garivier & Cappé 2011). Each
//! episode's private mean uses only that episode's rewards (Lemma 1: the mean
//! of `n` rewards plus `Lap(1/(nε))`), and playing `A_ℓ` until its count
//! doubles makes the next episode of that arm twice as long as its last one.
//!
//! Defaults, as §5 states for its experiments: `α = 3.1` ("to comply with the
//! regret upper bounds", which need `α > 3`); the noise is `Lap(1/ε)` on the
//! episode's reward **sum**, i.e. `Lap(1/(nε))` on its mean. Both are fields
//! ([`AdapKlucb::alpha`], [`AdapKlucb::noise_scale`]; `--bonus` and
//! `--noise-scale` on the command line).
//!
//! Readings, where the text leaves a choice:
//! * `n`, the number of samples behind an arm's private mean, is the length of
//!   its last episode. It equals `½ N_a` for every arm that has had an episode;
//!   after the initialisation it is `N_a = 1` (one pull, `Lap(1/ε)`, as Lemma 1
//!   prescribes), where the printed `½ N_a` would be `½`.
//! * `log` is the natural logarithm (the one of `d`).
//! * `argmax` ties go to the lowest index. They do happen: every arm whose
//!   clipped mean `μ̆` is 1 has index 1.
//! * `max{q …}` is found by bisection ([`kl_upper`]) to within `2^-60`.
//!
//! Per-round cost: one [`Pull`] per episode; an episode costs `O(K)` index
//! evaluations of 60 bisection steps each. Episodes number `O(K log T)`
//! (each arm's episodes double), so a run costs `O(K² log T)` whatever `T`.

use super::{laplace, NoiseRng, Policy, Pull};

/// The Bernoulli Kullback–Leibler divergence `d(p, q)` for `p, q ∈ [0, 1]`
/// (`0 ln 0 = 0`; `+∞` when `q ∈ {0, 1}` and `p ≠ q`).
pub fn kl_bernoulli(p: f64, q: f64) -> f64 {
    let term = |a: f64, b: f64| {
        if a == 0.0 {
            0.0
        } else if b == 0.0 {
            f64::INFINITY
        } else {
            a * (a / b).ln()
        }
    };
    term(p, q) + term(1.0 - p, 1.0 - q)
}

/// `max{q ∈ [p, 1] : d(p, q) ≤ c}` for `p ∈ [0, 1]`, `c ≥ 0`, by bisection
/// (60 halvings of `[p, 1]`): returns the left end `lo` of the last bracket,
/// which satisfies `d(p, lo) ≤ c` and lies within `2^-60` of the maximum.
/// `d(p, ·)` increases on `[p, 1]`, so the set is an interval `[p, q*]`;
/// `q* = 1` when `d(p, 1) ≤ c` (that is, when `p = 1`).
///
/// ```
/// use dpdtol::bandit::policy::adap_klucb::kl_upper;
/// // d(0, q) = −ln(1 − q), so d(0, q) ≤ ln 2 exactly when q ≤ 1/2.
/// assert!((kl_upper(0.0, 2f64.ln()) - 0.5).abs() < 1e-12);
/// assert_eq!(kl_upper(1.0, 0.1), 1.0);
/// ```
pub fn kl_upper(p: f64, c: f64) -> f64 {
    if kl_bernoulli(p, 1.0) <= c {
        return 1.0;
    }
    let (mut lo, mut hi) = (p, 1.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if kl_bernoulli(p, mid) <= c {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The AdaP-KLUCB index `I^ε_a` of an arm whose private mean `mu` rests on
/// `n` samples, at `t_ℓ` with `ln_t = ln t_ℓ`:
/// `max{q : d(Clip_{0,1}(μ̃ + α ln t_ℓ/(εn)), q) ≤ α ln t_ℓ / n}`.
pub fn index(mu: f64, n: u64, ln_t: f64, epsilon: f64, alpha: f64) -> f64 {
    let n = n as f64;
    let clipped = (mu + alpha * ln_t / (epsilon * n)).clamp(0.0, 1.0);
    kl_upper(clipped, alpha * ln_t / n)
}

/// An episode under way: its arm, its length, pulls left and reward sum.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Episode {
    arm: usize,
    length: u64,
    left: u64,
    sum: f64,
}

/// The state of AdaP-KLUCB.
#[derive(Clone, Debug)]
pub struct AdapKlucb {
    /// ε.
    pub epsilon: f64,
    /// α (default 3.1, §5).
    pub alpha: f64,
    /// The Laplace scale on an episode's reward sum (default `1/ε`).
    pub noise_scale: f64,
    /// `μ̃_a`: each arm's private mean of its last episode.
    pub mu: Vec<f64>,
    /// The length of each arm's last episode (the samples behind `μ̃_a`).
    pub last: Vec<u64>,
    /// `N_a`: each arm's pulls so far (completed episodes).
    pub pulls: Vec<u64>,
    episode: Option<Episode>,
}

impl AdapKlucb {
    /// The paper's defaults for `k` arms.
    pub fn new(k: usize, epsilon: f64) -> AdapKlucb {
        AdapKlucb {
            epsilon,
            alpha: 3.1,
            noise_scale: 1.0 / epsilon,
            mu: vec![0.0; k],
            last: vec![0; k],
            pulls: vec![0; k],
            episode: None,
        }
    }

    /// The index of arm `a` at the start `t_ℓ = t` of an episode.
    pub fn index_at(&self, a: usize, t: u64) -> f64 {
        index(
            self.mu[a],
            self.last[a],
            (t as f64).ln(),
            self.epsilon,
            self.alpha,
        )
    }
}

impl Policy for AdapKlucb {
    fn arms(&self) -> usize {
        self.mu.len()
    }

    fn choose(&mut self, t: u64, max_run: u64, _rng: &mut NoiseRng) -> Pull {
        let episode = match self.episode {
            Some(e) => e,
            None => {
                let k = self.arms();
                let (arm, length) = match self.pulls.iter().position(|&n| n == 0) {
                    // Line 3: each arm once, in order.
                    Some(arm) => (arm, 1),
                    // Lines 5–7: A_ℓ = argmax I_a(t_ℓ − 1, α), played N_a times.
                    None => {
                        let arm = super::argmax((0..k).map(|a| self.index_at(a, t)));
                        (arm, self.pulls[arm])
                    }
                };
                let e = Episode {
                    arm,
                    length,
                    left: length,
                    sum: 0.0,
                };
                self.episode = Some(e);
                e
            }
        };
        Pull {
            arm: episode.arm,
            run: episode.left.min(max_run),
        }
    }

    fn observe(&mut self, _arm: usize, n: u64, sum: f64, rng: &mut NoiseRng) {
        let Some(mut e) = self.episode else { return };
        e.left -= n;
        e.sum += sum;
        if e.left > 0 {
            self.episode = Some(e);
            return;
        }
        // The episode's private mean (Lemma 1), the only one the arm keeps.
        self.mu[e.arm] = (e.sum + laplace(self.noise_scale, rng)) / e.length as f64;
        self.last[e.arm] = e.length;
        self.pulls[e.arm] += e.length;
        self.episode = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `kl_upper` against its definition: `d(p, q) ≤ c` at the answer and
    /// `> c` just above it, on a grid of `p` and `c > 0`; `p = 1` gives 1 and
    /// `c = 0` gives `p` (to rounding: `d(p, ·)` is flat at `p`).
    #[test]
    fn kl_upper_is_the_largest_q_within_the_divergence() {
        for i in 0..=20 {
            let p = f64::from(i) / 20.0;
            for c in [1e-6, 0.01, 0.3, 2.0, 40.0] {
                let q = kl_upper(p, c);
                assert!(q >= p && q <= 1.0, "p={p} c={c}: q={q}");
                assert!(
                    kl_bernoulli(p, q) <= c,
                    "p={p} c={c}: d={}",
                    kl_bernoulli(p, q)
                );
                let above = q + 1e-12;
                if above < 1.0 {
                    assert!(kl_bernoulli(p, above) > c, "p={p} c={c}: q={q} not maximal");
                }
            }
        }
        assert_eq!(kl_upper(1.0, 0.5), 1.0);
        assert!((kl_upper(0.3, 0.0) - 0.3).abs() < 1e-6);
    }

    /// `d(p, q)` against the closed form at a point computed by hand:
    /// `d(1/2, 1/4) = ½ ln 2 + ½ ln(2/3) = ½ ln(4/3)`.
    #[test]
    fn kl_bernoulli_matches_a_hand_value() {
        let d = kl_bernoulli(0.5, 0.25);
        assert!((d - 0.5 * (4.0f64 / 3.0).ln()).abs() < 1e-15, "{d}");
        assert_eq!(kl_bernoulli(0.0, 0.0), 0.0);
        assert_eq!(kl_bernoulli(0.5, 1.0), f64::INFINITY);
    }
}
