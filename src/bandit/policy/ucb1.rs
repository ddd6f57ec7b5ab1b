//! UCB1 of Auer, Cesa-Bianchi & Fischer (2002, Fig. 1), non-private baseline
//! (004 footnote 9, L138, builds Algorithm 1's index on it).
//!
//! ```text
//! Initialization: play each machine once.
//! Loop: play machine j that maximizes x̄_j + √(2 ln n / n_j), where x̄_j is the
//!       average reward obtained from machine j, n_j the number of times j has
//!       been played so far, and n the overall number of plays done so far.
//! ```
//!
//! At round `t > K`, `n = t − 1`. Default constant 2 (overridable as
//! `bonus`); ties to the lowest index. Per-round cost `O(K)` (`K` square roots
//! and one logarithm), independent of `T`.

use super::{each_once_then_argmax, NoiseRng, Policy, Pull};

/// The UCB1 index `x̄ + √(c ln n / n_j)`, `c = bonus`.
pub fn index(mean: f64, n_j: u64, ln_n: f64, bonus: f64) -> f64 {
    mean + (bonus * ln_n / n_j as f64).sqrt()
}

/// The state of UCB1.
#[derive(Clone, Debug)]
pub struct Ucb1 {
    /// The constant 2 of the index.
    pub bonus: f64,
    /// `n_j`.
    pub n: Vec<u64>,
    /// Reward sums.
    pub sum: Vec<f64>,
}

impl Ucb1 {
    /// Auer et al.'s UCB1 for `k` arms.
    pub fn new(k: usize) -> Ucb1 {
        Ucb1 {
            bonus: 2.0,
            n: vec![0; k],
            sum: vec![0.0; k],
        }
    }
}

impl Policy for Ucb1 {
    fn arms(&self) -> usize {
        self.n.len()
    }

    fn choose(&mut self, t: u64, _max_run: u64, _rng: &mut NoiseRng) -> Pull {
        let ln_n = (t.saturating_sub(1) as f64).ln();
        each_once_then_argmax(t, self.n.len(), |j| {
            index(self.sum[j] / self.n[j] as f64, self.n[j], ln_n, self.bonus)
        })
    }

    fn observe(&mut self, arm: usize, n: u64, sum: f64, _rng: &mut NoiseRng) {
        self.n[arm] += n;
        self.sum[arm] += sum;
    }
}
