//! Lazy-DP-TS: Hu, Huang, Mehta & Hegde (004), Algorithm 3 (L190–L200).
//!
//! ```text
//!  1: Input: arm set 𝒜 and privacy parameter ε
//!  2: Initialization: for each arm j, pull it once to initialize O_j ← 1,
//!     r_j ← 0, μ̃_{j,O_j} ← X_j + Lap(1/ε), N_j ← 0, Φ_j ← 0
//!  3: for t = K+1, K+2, … do
//!  4:   draw θ_j(t) ~ Beta(μ̄_{j,O_j}·O_j + 1, (1 − μ̄_{j,O_j})·O_j + 1), where
//!       μ̄_{j,O_j} = Clip_[0,1](μ̃_{j,O_j} + 3 log(t)/(ε·O_j))
//!  5:   pull arm J_t ∈ argmax_{j∈[K]} θ_j(t)
//!  6:   update N_{J_t} ← N_{J_t} + 1 and Φ_{J_t} ← Φ_{J_t} + X_{J_t}(t)
//!  7:   if N_{J_t} hits 2^{r_{J_t}+1} then
//!  8:     update O_{J_t} ← 2^{r_{J_t}+1}, μ̃_{J_t,O_{J_t}} ← (Φ_{J_t} + Lap(1/ε))/O_{J_t},
//!         r_{J_t} ← r_{J_t} + 1; reset N_{J_t} ← 0, Φ_{J_t} ← 0
//!  9:   end if
//! 10: end for
//! ```
//!
//! `Clip_[0,1](x) = 1{x ∈ [0,1]}·x + 1{x > 1}` (L188); `log` is the natural
//! logarithm (the proofs use `ln` and `log` interchangeably, e.g. L214).
//! Defaults: noise scale `1/ε`, bonus constant 3; both overridable. The θ
//! are drawn for `j = 1..K` in order each round (one [`super::beta`] draw
//! each); ties of the argmax go to the lowest index.
//!
//! Per-round cost: `K` Beta draws, no allocation; it does not grow with `T`.

use super::{beta_argmax, LazyMeans, NoiseRng, Policy, Pull};

/// Line 4's Beta parameters `(μ̄O + 1, (1 − μ̄)O + 1)` with
/// `μ̄ = Clip_[0,1](μ̃ + c ln t/(εO))`, `c = bonus`.
pub fn beta_parameters(mu: f64, o: u64, ln_t: f64, epsilon: f64, bonus: f64) -> (f64, f64) {
    clipped_beta(mu + bonus * ln_t / (epsilon * o as f64), o)
}

/// `(μ̄O + 1, (1 − μ̄)O + 1)` with `μ̄ = Clip_[0,1](x)`, `x` the optimistic
/// mean before the clip.
pub fn clipped_beta(x: f64, o: u64) -> (f64, f64) {
    let o = o as f64;
    let clipped = if x > 1.0 {
        1.0
    } else if x >= 0.0 {
        x
    } else {
        0.0
    };
    (clipped * o + 1.0, (1.0 - clipped) * o + 1.0)
}

/// The state of Algorithm 3: the lazy private means of Algorithm 1.
#[derive(Clone, Debug)]
pub struct LazyDpTs {
    /// `μ̃_j`, the schedule and the parameters (ε, noise scale, bonus).
    pub means: LazyMeans,
}

impl LazyDpTs {
    /// The paper's defaults for `k` arms.
    pub fn new(k: usize, epsilon: f64) -> LazyDpTs {
        LazyDpTs {
            means: LazyMeans::new(k, epsilon),
        }
    }
}

impl Policy for LazyDpTs {
    fn arms(&self) -> usize {
        self.means.mu.len()
    }

    fn choose(&mut self, t: u64, _max_run: u64, rng: &mut NoiseRng) -> Pull {
        let m = &self.means;
        if let Some(pull) = m.initial_pull(t) {
            return pull;
        }
        let ln_t = (t as f64).ln();
        beta_argmax(
            m.mu.len(),
            |j| beta_parameters(m.mu[j], m.schedule.o[j], ln_t, m.epsilon, m.bonus),
            rng,
        )
    }

    fn observe(&mut self, arm: usize, n: u64, sum: f64, rng: &mut NoiseRng) {
        self.means.observe(arm, n, sum, rng);
    }
}
