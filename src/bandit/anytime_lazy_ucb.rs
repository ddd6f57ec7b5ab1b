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

use super::{laplace, lazy_run, LazySchedule, NoiseRng, Policy, Pull};

/// Line 4's index `μ̃ + √(c ln t / O) + c ln t/(ε O)` with `c = bonus`.
pub fn index(mu: f64, o: u64, ln_t: f64, epsilon: f64, bonus: f64) -> f64 {
    let o = o as f64;
    mu + (bonus * ln_t / o).sqrt() + bonus * ln_t / (epsilon * o)
}

/// The state of Algorithm 1.
#[derive(Clone, Debug)]
pub struct AnytimeLazyUcb {
    /// ε of line 4's bonus.
    pub epsilon: f64,
    /// Scale of each Laplace draw (lines 2 and 7); default `1/ε`.
    pub noise_scale: f64,
    /// The constant 3 of line 4.
    pub bonus: f64,
    /// `μ̃_{j,O_j}`.
    pub mu: Vec<f64>,
    /// `O_j, r_j, N_j, Φ_j`.
    pub schedule: LazySchedule,
    /// How many arms line 2 has initialised.
    pub initialised: usize,
}

impl AnytimeLazyUcb {
    /// The paper's defaults for `k` arms.
    pub fn new(k: usize, epsilon: f64) -> AnytimeLazyUcb {
        AnytimeLazyUcb {
            epsilon,
            noise_scale: 1.0 / epsilon,
            bonus: 3.0,
            mu: vec![0.0; k],
            schedule: LazySchedule::new(k),
            initialised: 0,
        }
    }

    /// Line 4's index of arm `j` at round `t`.
    pub fn index_at(&self, j: usize, t: u64) -> f64 {
        index(
            self.mu[j],
            self.schedule.o[j],
            (t as f64).ln(),
            self.epsilon,
            self.bonus,
        )
    }
}

impl Policy for AnytimeLazyUcb {
    fn arms(&self) -> usize {
        self.mu.len()
    }

    fn choose(&mut self, t: u64, max_run: u64, _rng: &mut NoiseRng) -> Pull {
        let k = self.arms();
        if t <= k as u64 {
            return Pull {
                arm: (t - 1) as usize,
                run: 1,
            };
        }
        let arm = super::argmax((0..k).map(|j| self.index_at(j, t)));
        let cap = max_run.min(self.schedule.room(arm));
        let run = lazy_run(arm, t, cap, k, |j, s| self.index_at(j, s));
        Pull { arm, run }
    }

    fn observe(&mut self, arm: usize, n: u64, sum: f64, rng: &mut NoiseRng) {
        if self.initialised < self.mu.len() {
            // Line 2: the initial pull of arm `initialised`.
            self.mu[arm] = sum + laplace(self.noise_scale, rng);
            self.initialised += 1;
            return;
        }
        if let Some((phi, o)) = self.schedule.record(arm, n, sum) {
            self.mu[arm] = (phi + laplace(self.noise_scale, rng)) / o as f64;
        }
    }
}
