//! Thompson sampling with Beta priors (Agrawal & Goyal 2017), as restated by
//! Hu et al. (004), Algorithm 2 (L180–L186). Non-private baseline.
//!
//! ```text
//! 1: Input: arm set 𝒜
//! 2: Initialization: set O_j ← 0, μ̂_{j,O_j} ← 0
//! 3: for t = 1, 2, … do
//! 4:   for each arm j ∈ [K], draw θ_j(t) ~ Beta(μ̂_{j,O_j}·O_j + 1, (1 − μ̂_{j,O_j})·O_j + 1)
//! 5:   pull J_t ∈ argmax_{j∈[K]} θ_j(t) and update O_{J_t} ← O_{J_t} + 1 and
//!      the empirical mean μ̂_{J_t,O_{J_t}}
//! 6: end for
//! ```
//!
//! `μ̂·O` is kept as the running reward sum `S_j`, so the parameters are
//! `(S_j + 1, O_j − S_j + 1)`. θ drawn for `j = 1..K` in order; ties to the
//! lowest index. Per-round cost: `K` Beta draws, no allocation.

use super::{beta_argmax, NoiseRng, Policy, Pull};

/// The state of Algorithm 2: pulls `O_j` and reward sums `S_j = μ̂_j O_j`.
#[derive(Clone, Debug)]
pub struct Thompson {
    /// `O_j`.
    pub o: Vec<u64>,
    /// `S_j`.
    pub sum: Vec<f64>,
}

impl Thompson {
    /// Line 2 for `k` arms.
    pub fn new(k: usize) -> Thompson {
        Thompson {
            o: vec![0; k],
            sum: vec![0.0; k],
        }
    }
}

impl Policy for Thompson {
    fn arms(&self) -> usize {
        self.o.len()
    }

    fn choose(&mut self, _t: u64, _max_run: u64, rng: &mut NoiseRng) -> Pull {
        beta_argmax(
            self.o.len(),
            |j| (self.sum[j] + 1.0, self.o[j] as f64 - self.sum[j] + 1.0),
            rng,
        )
    }

    fn observe(&mut self, arm: usize, n: u64, sum: f64, _rng: &mut NoiseRng) {
        self.o[arm] += n;
        self.sum[arm] += sum;
    }
}
