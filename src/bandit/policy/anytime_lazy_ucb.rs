//! Anytime-Lazy-UCB: Hu, Huang, Mehta & Hegde (004), Algorithm 1 (L140–L149).
//!
//! ```text
//! 1: Input: arm set 𝒜 and privacy parameter ε
//! 2: Initialization: for each arm j ∈ [K], pull it once to initialize
//!    O_j ← 1, r_j ← 0, μ̃_{j,O_j} ← X_j + Lap(1/ε), N_j ← 0, Φ_j ← 0
//! 3: for t = K+1, K+2, … do
//! 4:   construct μ̄_{j,O_j}(t) = μ̃_{j,O_j} + √(3 ln(t)/O_j) + 3 ln(t)/(ε·O_j)
//!      for all j and pull arm J_t ∈ argmax_{j∈[K]} μ̄_{j,O_j}(t)
//! 5:   update N_{J_t} ← N_{J_t} + 1 and Φ_{J_t} ← Φ_{J_t} + X_{J_t}(t)
//! 6:   if N_{J_t} hits 2^{r_{J_t}+1} then
//! 7:     update O_{J_t} ← 2^{r_{J_t}+1}, μ̃_{J_t,O_{J_t}} ← (Φ_{J_t} + Lap(1/ε))/O_{J_t},
//!        and r_{J_t} ← r_{J_t} + 1; reset N_{J_t} ← 0, Φ_{J_t} ← 0
//! 8:   end if
//! 9: end for
//! ```
//!
//! Defaults (as printed): noise scale `1/ε`, confidence constant 3 in both
//! terms of line 4; both are fields and can be overridden. Rounds `1..K` pull
//! arms `1..K` in order (line 2). `argmax` ties go to the lowest index (the
//! paper leaves them open; they have probability zero).
//!
//! Lazy: between two epoch ends only `ln t` changes, so the pulled arm is
//! constant on stretches found by [`super::lazy_run`]; one [`Pull`] covers a
//! stretch, capped at the pulled arm's epoch end.
//!
//! Per-round cost: `O(1)` amortised; per stretch `O(K log T)`. Stretches number
//! `O(K² log T)` (an epoch end per arm and doubling, and between epoch ends the
//! argmax only moves to arms with fewer observations, at most `log₂ T` times).

use super::{lazy_run, LazyMeans, NoiseRng, Policy, Pull};

/// Line 4's index `μ̃ + √(c ln t / O) + c ln t/(ε O)` with `c = bonus`.
pub fn index(mu: f64, o: u64, ln_t: f64, epsilon: f64, bonus: f64) -> f64 {
    let o = o as f64;
    mu + (bonus * ln_t / o).sqrt() + bonus * ln_t / (epsilon * o)
}

/// The state of Algorithm 1: the lazy private means and line 4's index.
#[derive(Clone, Debug)]
pub struct AnytimeLazyUcb {
    /// `μ̃_j`, the schedule and the parameters (ε, noise scale, bonus).
    pub means: LazyMeans,
}

impl AnytimeLazyUcb {
    /// The paper's defaults for `k` arms.
    pub fn new(k: usize, epsilon: f64) -> AnytimeLazyUcb {
        AnytimeLazyUcb {
            means: LazyMeans::new(k, epsilon),
        }
    }

    /// Line 4's index of arm `j` at round `t`.
    pub fn index_at(&self, j: usize, t: u64) -> f64 {
        let m = &self.means;
        index(
            m.mu[j],
            m.schedule.o[j],
            (t as f64).ln(),
            m.epsilon,
            m.bonus,
        )
    }
}

impl Policy for AnytimeLazyUcb {
    fn arms(&self) -> usize {
        self.means.mu.len()
    }

    fn choose(&mut self, t: u64, max_run: u64, _rng: &mut NoiseRng) -> Pull {
        if let Some(pull) = self.means.initial_pull(t) {
            return pull;
        }
        let k = self.arms();
        let arm = super::argmax((0..k).map(|j| self.index_at(j, t)));
        let cap = max_run.min(self.means.schedule.room(arm));
        let run = lazy_run(arm, t, cap, k, |j, s| self.index_at(j, s));
        Pull { arm, run }
    }

    fn observe(&mut self, arm: usize, n: u64, sum: f64, rng: &mut NoiseRng) {
        self.means.observe(arm, n, sum, rng);
    }
}
