//! DP-UCB-INT: Tossou & Dimitrakakis, *Algorithms for Differentially
//! Private Multi-Armed Bandits* (AAAI 2016, arXiv:1511.08681), Algorithm 3:
//! UCB whose private means are recomputed only at the end of intervals of
//! `f` pulls of an arm, each time with a fresh Laplace noise on the mean.
//!
//! ```text
//! input: ε, v (the "privacy rate"); f = ⌈1/ε⌉
//! for t = 1..K·f: pull arm (t − 1) mod K
//! for t > K·f:
//!   for each arm a with n_a a multiple of f:
//!     I_a ← S_a/n_a + Lap(1/n_a^{1 − v/2}) + √(2 ln t/n_a)
//!   (the other arms keep their index)
//!   pull argmax_a I_a
//! ```
//!
//! What is printed and what is inferred: no text copy of the paper was
//! available (a search of stored public pages found its abstract only); the
//! algorithm above was read from a public MATLAB implementation that cites
//! the paper's Algorithm 3 (`IndexDPUCBINT`), set against the paper's
//! abstract (an interval mechanism, (ε, δ)-DP claimed; the δ of the claim
//! could not be read and is not recorded here).
//! Inferred: the interval `f = ⌈1/ε⌉`; the noise scale `1/n^{1 − v/2}` on the
//! mean; that an arm whose count is a multiple of `f` draws a fresh index at
//! every round (also when it was not pulled), with `t` the current round;
//! ties to the lowest arm; `v = 1.1` by default (the value of a public
//! experiment script, not the paper). Each is a field: `interval`,
//! `rate` (v), `bonus` (the 2), `noise_factor` (the 1 of `1/n^{1 − v/2}`).
//!
//! The certified law of its pulls is
//! [`crate::bandit::law::dp_ucb_int`].
//!
//! Per-round cost `O(K)`.

use super::{argmax, laplace, NoiseRng, Policy, Pull};

/// The state of DP-UCB-INT.
#[derive(Clone, Debug)]
pub struct DpUcbInt {
    /// `f`, the pulls between two recomputations of an arm's index
    /// (default `⌈1/ε⌉`).
    pub interval: u64,
    /// `v` of the noise scale `1/n^{1 − v/2}`.
    pub rate: f64,
    /// The constant 1 of the noise scale `noise_factor/n^{1 − v/2}`.
    pub noise_factor: f64,
    /// The constant 2 of `√(2 ln t/n)`.
    pub bonus: f64,
    /// Per arm: pulls, reward sum and current index.
    pub arms: Vec<(u64, f64, f64)>,
}

impl DpUcbInt {
    /// The defaults for `k` arms at ε: `f = ⌈1/ε⌉`, `v = 1.1`.
    pub fn new(k: usize, epsilon: f64) -> DpUcbInt {
        DpUcbInt {
            interval: (1.0 / epsilon).ceil().max(1.0) as u64,
            rate: 1.1,
            noise_factor: 1.0,
            bonus: 2.0,
            arms: vec![(0, 0.0, 0.0); k],
        }
    }
}

impl Policy for DpUcbInt {
    fn arms(&self) -> usize {
        self.arms.len()
    }

    fn choose(&mut self, t: u64, _max_run: u64, rng: &mut NoiseRng) -> Pull {
        let k = self.arms.len() as u64;
        if t <= k * self.interval {
            return Pull {
                arm: ((t - 1) % k) as usize,
                run: 1,
            };
        }
        let ln_t = (t as f64).ln();
        for (n, sum, index) in &mut self.arms {
            if *n % self.interval == 0 {
                let nf = *n as f64;
                let scale = self.noise_factor / nf.powf(1.0 - self.rate / 2.0);
                *index = *sum / nf + laplace(scale, rng) + (self.bonus * ln_t / nf).sqrt();
            }
        }
        let arm = argmax(self.arms.iter().map(|a| a.2));
        Pull { arm, run: 1 }
    }

    fn observe(&mut self, arm: usize, _n: u64, sum: f64, _rng: &mut NoiseRng) {
        // Runs are always 1: `sum` is one reward.
        self.arms[arm].0 += 1;
        self.arms[arm].1 += sum;
    }
}
