//! DP-UCB-Bound: Tossou & Dimitrakakis, *Algorithms for Differentially
//! Private Multi-Armed Bandits* (AAAI 2016, arXiv:1511.08681), Algorithm 1:
//! UCB on each arm's private running sum, kept by one Hybrid mechanism of
//! Chan, Shi & Song (2011) per arm, with a confidence bound widened by the
//! mechanism's error bound. Hu, Huang & Mehta (002, Appendix E.1, L246–L247)
//! discuss it and question its regret proof.
//!
//! ```text
//! input: ε; one Hybrid mechanism per arm at ε:
//!   logarithmic mechanism (ε/2): observations 1, 2, 3–4, …, 2^{m−1}+1–2^m,
//!     each block's sum with one Lap(2/ε), released at n = 2^m
//!   binary mechanism (ε/2) over observations 2^m+1 .. 2^{m+1}−1:
//!     each p-sum with Lap(m·2/ε) (Chan et al.'s log₂ T levels, T = 2^m)
//! pull each arm once
//! for t = K+1, …:
//!   μ̃_a = (noisy array sum + noisy tree prefix sum)/n_a
//!   ν_a = √8 ln(4t'^4)/ε                  if n_a is a power of two
//!       = √8 ln(4t'^4)/ε · (ln n_a + 1)   otherwise
//!   pull argmax_a μ̃_a + √(2 ln t'/n_a) + ν_a/n_a
//!   insert the reward into the pulled arm's Hybrid mechanism
//! ```
//!
//! What is printed and what is inferred: no text copy of the paper was
//! available; the algorithm above was read from a public implementation of
//! it (keirp/private-bandits, `dp_ucb_bound.py` and its Hybrid, binary and
//! logarithmic mechanisms), set against 002's account (L246–L249) and Chan
//! et al.'s Hybrid mechanism (the same structure as Hybrid-UCB's arrays and
//! tree, [`super::hybrid_ucb`], whose tree has `m + 1` levels where this one
//! has `m`). Inferred: `t' = t − 1`, the plays so far; natural logarithms
//! in `ν`; the budget split `ε/2 + ε/2`; ties to the lowest arm. Each is a
//! field: `array_scale` (`2/ε`), `tree_scale` (`2/ε` per level), `bonus`
//! (the 2), `confidence` (the 8 under the root). The claim is ε-DP: every
//! reward lies in one array block and in at most `m` p-sums of one tree.
//!
//! Per-round cost `O(K)` plus `O(1)` amortised for the insertion.

use super::hybrid_ucb::ArmState;
use super::{each_once_then_argmax, NoiseRng, Policy, Pull};

/// `ν(n, t') = √a · ln(4t'^4)/ε · (ln n + 1)`, without the `ln n + 1` when
/// `n` is a power of two (`a = confidence`).
pub fn nu(n: u64, plays: u64, confidence: f64, epsilon: f64) -> f64 {
    let base = confidence.sqrt() * (4.0 * (plays as f64).powi(4)).ln() / epsilon;
    if n.is_power_of_two() {
        base
    } else {
        base * ((n as f64).ln() + 1.0)
    }
}

/// The state of DP-UCB-Bound.
#[derive(Clone, Debug)]
pub struct DpUcbBound {
    /// ε of `ν`.
    pub epsilon: f64,
    /// Scale of an array block's noise (default `2/ε`).
    pub array_scale: f64,
    /// Scale of a tree p-sum's noise per level (default `2/ε`; times `m`).
    pub tree_scale: f64,
    /// The constant 2 of `√(2 ln t'/n)`.
    pub bonus: f64,
    /// The constant 8 of `√8` in `ν`.
    pub confidence: f64,
    /// One Hybrid mechanism per arm.
    pub state: Vec<ArmState>,
}

impl DpUcbBound {
    /// The defaults for `k` arms at ε.
    pub fn new(k: usize, epsilon: f64) -> DpUcbBound {
        DpUcbBound {
            epsilon,
            array_scale: 2.0 / epsilon,
            tree_scale: 2.0 / epsilon,
            bonus: 2.0,
            confidence: 8.0,
            state: vec![ArmState::default(); k],
        }
    }
}

impl Policy for DpUcbBound {
    fn arms(&self) -> usize {
        self.state.len()
    }

    fn choose(&mut self, t: u64, _max_run: u64, _rng: &mut NoiseRng) -> Pull {
        let plays = t.saturating_sub(1);
        let ln_plays = (plays as f64).ln();
        each_once_then_argmax(t, self.state.len(), |j| {
            let s = &self.state[j];
            let n = s.n as f64;
            (s.arrays + s.tree_noisy()) / n
                + (self.bonus * ln_plays / n).sqrt()
                + nu(s.n, plays, self.confidence, self.epsilon) / n
        })
    }

    fn observe(&mut self, arm: usize, _n: u64, sum: f64, rng: &mut NoiseRng) {
        // Runs are always 1: `sum` is one reward.
        let tree_scale = self.tree_scale;
        self.state[arm].insert(sum, self.array_scale, |m| f64::from(m) * tree_scale, rng);
    }
}
