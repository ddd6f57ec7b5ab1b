//! Hybrid-UCB: Hu, Huang & Mehta (002), §4.2 (L71–L76) and Appendix E,
//! Algorithm 4 (L244–L264), **rebuilt**: 002's text lost its formulas in
//! extraction ((32)–(35) are empty at L255–L262), so the algorithm below is
//! inferred. What survives in 002, quoted (⟨…⟩ marks a formula lost in
//! extraction, restored here):
//!
//! > "two differentially private mechanisms are used simultaneously, just like
//! > the Hybrid mechanism of Chan et al. (2011), to track the differentially
//! > private empirical mean of each arm" (L249); "all arm j's observations
//! > obtained so far will be partitioned into two groups … The first group
//! > contains the first ⟨2^m⟩ observations from the very beginning, and we use
//! > the logarithmic mechanism … For the remaining observations in the second
//! > group, we use the binary mechanism" (L73); "each array is injected with
//! > noise ⟨Lap⟩" (L252); "each node in binary tree … is injected with noise"
//! > (L253); "Hybrid-UCB is the composition of our array-based learning
//! > algorithm, Algorithm 1 with the required privacy parameter set to ⟨ε/2⟩,
//! > and the tree-based aggregation mechanism … set to ⟨ε/2⟩" (L264); the arm
//! > with the highest UCB (35) is pulled, and the pulled arm's observation is
//! > inserted at the end of each round (L262).
//!
//! The inferred algorithm, per arm `j`, with `n_j` its observations so far:
//!
//! ```text
//! init (rounds 1..K): pull j once; arrays hold observation 1 with noise Lap(2/ε); m_j ← 0
//! the arrays hold observations 1..2^{m_j}: blocks {1}, {2}, {3,4}, …, {2^{m−1}+1..2^m},
//!   each block's sum with one Lap(2/ε)                 (Chan et al.'s logarithmic mechanism, ε/2)
//! the tree holds observations 2^{m_j}+1..n_j, i = n_j − 2^{m_j} ≤ 2^{m_j} leaves:
//!   binary mechanism (Chan et al. 2011, Alg. 2): each p-sum completed gets
//!   Lap((m_j+1)·2/ε) (a leaf lies in m_j + 1 p-sums), the prefix sum is the sum
//!   of the noisy p-sums of the binary digits of i                     (ε/2)
//! when the tree is full (i = 2^{m_j}) its true sum becomes a new array block
//!   with a fresh Lap(2/ε), m_j ← m_j + 1, and a new empty tree starts
//! μ̃_j = (noisy array sum + noisy tree prefix sum)/n_j                      (34)
//! index (35): μ̃_j + √(3 ln t/n_j) + 3 ln t · B_j/n_j,  B_j = Σ scales of the
//!   Laplace terms inside μ̃_j's numerator
//! pull argmax_j (ties to the lowest index); insert the observation.
//! ```
//!
//! Why: the split at powers of two and the per-level tree noise are Chan,
//! Shi & Song's Hybrid mechanism (logarithmic mechanism at `2^m`, binary
//! mechanism inside `[2^m, 2^{m+1})`); the budget split `ε/2 + ε/2` is L264;
//! the exploration terms generalise Algorithm 1's `√(3 ln t/O) + 3 ln t/(εO)`
//! (004 L144), whose second term bounds one `Lap(1/ε)` with probability
//! `1 − t^{−3}`, to a sum of Laplace terms (a union bound gives `3 ln t · Σ b`
//! up to the `ln` of their number). Everything marked above as inferred is a
//! field and can be changed.
//!
//! Per-round cost: `O(K)` (the indices), plus `O(1)` amortised for the tree;
//! it does not grow with `T` except through `log₂` of the tree's depth.

use super::{each_once_then_argmax, laplace, NoiseRng, Policy, Pull};
use crate::mechanism::counter::BinaryCounter;

/// Index (35) as inferred: `μ̃ + √(c ln t/n) + c ln t·B/n`, `c = bonus`.
pub fn index(mu: f64, n: u64, ln_t: f64, total_scale: f64, bonus: f64) -> f64 {
    let n = n as f64;
    mu + (bonus * ln_t / n).sqrt() + bonus * ln_t * total_scale / n
}

/// One arm's arrays and tree.
#[derive(Clone, Debug, Default)]
pub struct ArmState {
    /// `n_j`.
    pub n: u64,
    /// `m_j`: the arrays hold the first `2^{m_j}` observations.
    pub m: u32,
    /// The noisy sum of the arrays.
    pub arrays: f64,
    /// The binary mechanism over the current tree's leaves.
    pub tree: BinaryCounter,
    /// True sum of the current tree.
    pub tree_sum: f64,
}

impl ArmState {
    /// The noisy prefix sum of the tree: `Σ_{k : bit k of leaves} α̂_k`.
    pub fn tree_noisy(&self) -> f64 {
        self.tree.noisy_sum()
    }

    /// Count the observation `x` (Chan, Shi & Song's Hybrid mechanism): the
    /// first one, and each tree that fills up (`2^m` leaves), becomes an
    /// array block with `Lap(array_scale)`; otherwise the binary mechanism's
    /// p-sum the leaf completes gets `Lap(node_scale(m))`.
    pub fn insert(
        &mut self,
        x: f64,
        array_scale: f64,
        node_scale: impl Fn(u32) -> f64,
        rng: &mut NoiseRng,
    ) {
        self.n += 1;
        if self.n == 1 {
            self.arrays = x + laplace(array_scale, rng);
            return;
        }
        self.tree_sum += x;
        if self.tree.items + 1 == 1u64 << self.m {
            // The tree is full: its true sum becomes an array block (the
            // logarithmic mechanism's release at n = 2^{m+1}).
            self.arrays += self.tree_sum + laplace(array_scale, rng);
            self.m += 1;
            self.tree = BinaryCounter::new();
            self.tree_sum = 0.0;
            return;
        }
        self.tree.insert(x, node_scale(self.m), rng);
    }
}

/// The state of Hybrid-UCB.
#[derive(Clone, Debug)]
pub struct HybridUcb {
    /// Scale of each array block's Laplace noise (default `2/ε`).
    pub array_scale: f64,
    /// Scale of a tree p-sum's noise per level (default `2/ε`; times
    /// `m_j + 1` levels).
    pub tree_scale: f64,
    /// The constant 3 of the index.
    pub bonus: f64,
    /// Per arm.
    pub state: Vec<ArmState>,
    /// `(μ̃_j, B_j)` of [`HybridUcb::private_mean`], kept up to date on insertion
    /// (only the pulled arm's changes in a round).
    pub cache: Vec<(f64, f64)>,
}

impl HybridUcb {
    /// The inferred defaults for `k` arms at ε.
    pub fn new(k: usize, epsilon: f64) -> HybridUcb {
        HybridUcb {
            array_scale: 2.0 / epsilon,
            tree_scale: 2.0 / epsilon,
            bonus: 3.0,
            state: vec![ArmState::default(); k],
            cache: vec![(0.0, 0.0); k],
        }
    }

    /// `μ̃_j` and the total scale `B_j` of its noise.
    pub fn private_mean(&self, j: usize) -> (f64, f64) {
        let s = &self.state[j];
        let total = s.arrays + s.tree_noisy();
        let scale = f64::from(s.m + 1) * self.array_scale
            + f64::from(s.tree.items.count_ones()) * f64::from(s.m + 1) * self.tree_scale;
        (total / s.n as f64, scale)
    }
}

impl Policy for HybridUcb {
    fn arms(&self) -> usize {
        self.state.len()
    }

    fn choose(&mut self, t: u64, _max_run: u64, _rng: &mut NoiseRng) -> Pull {
        let ln_t = (t as f64).ln();
        each_once_then_argmax(t, self.state.len(), |j| {
            let (mu, scale) = self.cache[j];
            index(mu, self.state[j].n, ln_t, scale, self.bonus)
        })
    }

    fn observe(&mut self, arm: usize, _n: u64, sum: f64, rng: &mut NoiseRng) {
        // Runs are always 1: `sum` is one observation.
        let tree_scale = self.tree_scale;
        self.state[arm].insert(
            sum,
            self.array_scale,
            |m| f64::from(m + 1) * tree_scale,
            rng,
        );
        self.cache[arm] = self.private_mean(arm);
    }
}
