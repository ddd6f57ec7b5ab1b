//! DP-UCB: Mishra & Thakurta, *(Nearly) Optimal Differentially Private
//! Stochastic Multi-Arm Bandits* (UAI 2015), Algorithm 1 ("Private UCB"):
//! UCB on each arm's private running sum, kept by one binary mechanism per
//! arm ([`crate::mechanism::counter`]). Hu, Huang, Mehta & Hegde (004, §3.1,
//! L112) name its binary mechanism as the reason its regret is suboptimal.
//!
//! ```text
//! input: T, ε, γ; for each arm a a binary mechanism over T leaves at ε
//!   (each node Lap(L/ε), L = ⌈log₂ T⌉ levels)                    (lines 1, 4)
//! pull each arm once, inserting its reward into its tree
//! for t = K+1..T:
//!   μ̂_a = Ŝ_a(n_a)/n_a                    (the tree's noisy prefix sum)
//!   pull argmax_a μ̂_a + √(2 ln t' / n_a) + Γ/n_a,                   (line 7)
//!     Γ = K ln²T · ln(K T ln T/γ)/ε,  t' = t − 1 the plays so far
//!   insert the reward into the pulled arm's tree                    (line 12)
//! ```
//!
//! What is inferred (the paper's formulas were read from the public
//! implementations of the algorithm, not from a text copy): the
//! confidence relaxation `Γ/n_a` with `Γ` as above and natural logarithms
//! (the `K` from the per-tree budget `ε/K` of the privacy proof); `γ = 1/10`
//! by default; `t' = t − 1` as in UCB1 ([`super::ucb1`]); ties to the lowest
//! arm. Each is a field: `bonus` (the 2), `gamma`, `node_scale`, and the
//! tree's depth `L`, whose `L/ε` is the node scale; the tree itself counts
//! any number of items (a leaf past `2^L − 1` lies in more than `L` nodes,
//! which the privacy check sees).
//!
//! Per-round cost `O(K)` plus `O(log n)` for the insertion.

use super::{each_once_then_argmax, NoiseRng, Policy, Pull};
use crate::mechanism::counter::BinaryCounter;

/// The index `μ̂ + √(c ln t'/n) + Γ/n`.
pub fn index(mean: f64, n: u64, ln_plays: f64, bonus: f64, gamma_relaxation: f64) -> f64 {
    let n = n as f64;
    mean + (bonus * ln_plays / n).sqrt() + gamma_relaxation / n
}

/// `Γ = K ln²T · ln(K T ln T/γ)/ε` (line 7, as inferred), `T ≥ 2`.
pub fn relaxation(k: usize, horizon: u64, gamma: f64, epsilon: f64) -> f64 {
    let (k, t) = (k as f64, horizon.max(2) as f64);
    k * t.ln().powi(2) * (k * t * t.ln() / gamma).ln() / epsilon
}

/// The default depth `⌈log₂ T⌉` (Chan et al.'s `log T`).
pub fn printed_depth(horizon: u64) -> u32 {
    crate::mechanism::counter::BinaryTree::for_items(horizon.saturating_sub(1)).depth
}

/// The state of DP-UCB.
#[derive(Clone, Debug)]
pub struct DpUcb {
    /// The Laplace scale of a tree node (default `L/ε`).
    pub node_scale: f64,
    /// The constant 2 of `√(2 ln t'/n)`.
    pub bonus: f64,
    /// `Γ` of the confidence relaxation `Γ/n`.
    pub relaxation: f64,
    /// One binary mechanism per arm.
    pub counters: Vec<BinaryCounter>,
}

impl DpUcb {
    /// The defaults for `k` arms over `horizon` rounds at ε: depth
    /// `⌈log₂ T⌉`, failure probability `γ = 1/10`.
    pub fn new(k: usize, epsilon: f64, horizon: u64) -> DpUcb {
        DpUcb::with(k, epsilon, horizon, printed_depth(horizon), 0.1)
    }

    /// For `k` arms over `horizon` rounds at ε with a tree of `depth`
    /// levels (node scale `depth/ε`) and failure probability `gamma`.
    pub fn with(k: usize, epsilon: f64, horizon: u64, depth: u32, gamma: f64) -> DpUcb {
        DpUcb {
            node_scale: f64::from(depth) / epsilon,
            bonus: 2.0,
            relaxation: relaxation(k, horizon, gamma, epsilon),
            counters: vec![BinaryCounter::new(); k],
        }
    }
}

impl Policy for DpUcb {
    fn arms(&self) -> usize {
        self.counters.len()
    }

    fn choose(&mut self, t: u64, _max_run: u64, _rng: &mut NoiseRng) -> Pull {
        let ln_plays = (t.saturating_sub(1) as f64).ln();
        each_once_then_argmax(t, self.counters.len(), |j| {
            let c = &self.counters[j];
            index(
                c.noisy_sum() / c.items as f64,
                c.items,
                ln_plays,
                self.bonus,
                self.relaxation,
            )
        })
    }

    fn observe(&mut self, arm: usize, _n: u64, sum: f64, rng: &mut NoiseRng) {
        // Runs are always 1: `sum` is one reward.
        self.counters[arm].insert(sum, self.node_scale, rng);
    }
}
