//! DP-TS: Hu & Hegde, *Near-optimal Thompson sampling-based algorithms for
//! differentially private stochastic bandits*, UAI 2022 (PMLR 180:844–852),
//! the non-lazy algorithm beside Lazy-DP-TS, **inferred**: the paper's text
//! is not among the project's copies, only its abstract (PMLR page and
//! OpenReview `Bfzg8d8j9x5`). Printed there: DP-TS "reshape\[s\] the posterior
//! distribution in an optimistic way as compared to the non-private Thompson
//! Sampling", with regret `Σ_j O(log T/min{ε, Δ_j} · log(log T/(εΔ_j)))`;
//! Lazy-DP-TS "gets rid of the extra log factor by using the idea of dropping
//! observations", so DP-TS keeps every observation.
//!
//! The algorithm below, per arm `j` with `O_j` observations:
//!
//! ```text
//! init (rounds 1..K): pull j once
//! μ̃_j = the hybrid mechanism's private sum of j's O_j observations / O_j:
//!   Lap(array_scale) on observation 1 and on each block sum at O_j = 2^{m+1}
//!   (the logarithmic mechanism), the binary mechanism with Lap((m+1)·tree_scale)
//!   per p-sum inside the open block of 2^m observations        ([`ArmState`])
//! μ̄_j = Clip_[0,1](μ̃_j + c·√(8 ln(O_j + 1) ln t)/(ε O_j))
//! draw θ_j(t) ~ Beta(μ̄_j O_j + 1, (1 − μ̄_j) O_j + 1) for j = 1..K in order
//! pull argmax_j θ_j(t) (ties to the lowest index); insert the observation
//! ```
//!
//! Whence each part. The Beta draw on the clipped optimistic mean is Lazy-DP-TS's
//! line 4 (Hu, Huang, Mehta & Hegde, journal version, Algorithm 3, 004 L190),
//! which the abstract calls the shared idea of both algorithms. The private
//! mean from Chan, Shi & Song's Hybrid mechanism (2011) and the bonus form
//! `c·√(8 ln(O+1) ln t)/(εO)` with `c = 6` are the reading of the one public
//! implementation (littlerain51/Leaning-DP-TS, `DP_TS.py`); the bonus has the
//! shape of Chan et al.'s bound for a sum of `ln(O+1)` Laplace terms
//! (Lemma 2.8: `ν√(8 ln(2/δ))`) at `δ ≈ 1/t`. The block convention
//! (blocks `{1}, {2}, {3,4}, …`, the open block's tree of `2^m` leaves) and
//! the scales — `2/ε` for each block and `2/ε` per tree level, the budget
//! split `ε/2 + ε/2` of Chan et al.'s Hybrid mechanism, which makes the
//! per-arm stream ε-DP — are those of dpdtol's Hybrid-UCB
//! ([`super::hybrid_ucb`]). Every inferred constant is a field.
//!
//! # When the bonus reads `t` (`--bonus-round`)
//!
//! The abstract does not say in which round the optimistic shift reads
//! `ln t`. [`BonusRound::Current`] (the default) reads the round of the
//! draw, as Lazy-DP-TS's line 4 prints it (`θ_j(t)` with `3 log(t)/(εO_j)`).
//! [`BonusRound::LastUpdate`] reads the round `t_j` of arm `j`'s last
//! observation: `μ̄_j` and the Beta parameters are computed when `j` is
//! observed and drawn from, unchanged, in every later round until its next
//! observation — a posterior that moves only on observations, as
//! non-private Thompson sampling's does. This is the public
//! implementation's reading (`DP_TS.py`, `update`: `np.log(t)` at the
//! update, the parameters stored in `alpha`/`beta` and drawn from by
//! `select_arm`). Both readings post-process the same private means and the
//! past pulls (`t_j` is a function of the pulls), so the Hybrid mechanism's
//! privacy argument is the same for both; they differ in law only where an
//! arm's bonus `√(ln t)` is not clipped away. Without the paper's text
//! neither can be ruled out.
//!
//! Per-round cost: `K` Beta draws, plus `O(1)` amortised for the tree.

use super::hybrid_ucb::ArmState;
use super::lazy_dp_ts::clipped_beta;
use super::reading::named;
use super::{beta_argmax, NoiseRng, Policy, Pull};

/// The round whose `ln t` the optimistic bonus reads (`--bonus-round`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BonusRound {
    /// The round of the draw: `μ̄_j` recomputed every round.
    #[default]
    Current,
    /// The round of arm `j`'s last observation: `μ̄_j` frozen between
    /// observations.
    LastUpdate,
}

named!(BonusRound, "--bonus-round", {
    Current => "current",
    LastUpdate => "last-update",
});

/// `μ̃ + c·√(8 ln(O+1) ln t)/(εO)`, the optimistic private mean before the
/// clip, `c = bonus`.
pub fn optimistic_mean(mu: f64, o: u64, ln_t: f64, epsilon: f64, bonus: f64) -> f64 {
    let o = o as f64;
    mu + bonus * (8.0 * (o + 1.0).ln() * ln_t).sqrt() / (epsilon * o)
}

/// The state of DP-TS.
#[derive(Clone, Debug)]
pub struct DpTs {
    /// ε of the bonus.
    pub epsilon: f64,
    /// Scale of each block's Laplace noise (default `2/ε`).
    pub array_scale: f64,
    /// Scale of a tree p-sum's noise per level (default `2/ε`; times
    /// `m_j + 1` levels).
    pub tree_scale: f64,
    /// The constant `c = 6` of the bonus.
    pub bonus: f64,
    /// The round whose `ln t` the bonus reads.
    pub bonus_round: BonusRound,
    /// The round of the latest pull.
    pub round: u64,
    /// Per arm: the round of its last observation.
    pub updated: Vec<u64>,
    /// Per arm: the hybrid mechanism.
    pub state: Vec<ArmState>,
    /// `μ̃_j`, updated when arm `j` is observed.
    pub mean: Vec<f64>,
}

impl DpTs {
    /// The inferred defaults for `k` arms at ε.
    pub fn new(k: usize, epsilon: f64) -> DpTs {
        DpTs {
            epsilon,
            array_scale: 2.0 / epsilon,
            tree_scale: 2.0 / epsilon,
            bonus: 6.0,
            bonus_round: BonusRound::default(),
            round: 0,
            updated: vec![0; k],
            state: vec![ArmState::default(); k],
            mean: vec![0.0; k],
        }
    }

    /// Arm `j`'s Beta parameters in round `t`: the clipped optimistic mean
    /// with `ln t` of the round [`BonusRound`] names.
    pub fn beta_parameters(&self, j: usize, t: u64) -> (f64, f64) {
        let round = match self.bonus_round {
            BonusRound::Current => t,
            BonusRound::LastUpdate => self.updated[j],
        };
        let o = self.state[j].n;
        clipped_beta(
            optimistic_mean(
                self.mean[j],
                o,
                (round as f64).ln(),
                self.epsilon,
                self.bonus,
            ),
            o,
        )
    }
}

impl Policy for DpTs {
    fn arms(&self) -> usize {
        self.state.len()
    }

    fn choose(&mut self, t: u64, _max_run: u64, rng: &mut NoiseRng) -> Pull {
        self.round = t;
        let k = self.state.len();
        if t <= k as u64 {
            return Pull {
                arm: (t - 1) as usize,
                run: 1,
            };
        }
        beta_argmax(k, |j| self.beta_parameters(j, t), rng)
    }

    fn observe(&mut self, arm: usize, _n: u64, sum: f64, rng: &mut NoiseRng) {
        // Runs are always 1: `sum` is one observation.
        let tree_scale = self.tree_scale;
        let s = &mut self.state[arm];
        s.insert(
            sum,
            self.array_scale,
            |m| f64::from(m + 1) * tree_scale,
            rng,
        );
        self.mean[arm] = (s.arrays + s.tree_noisy()) / s.n as f64;
        self.updated[arm] = self.round;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arm 0 with `O = 1`, `μ̃ = 1/4`, last observed in round 2; arm 1 with
    /// `O = 3`, `μ̃ = 1/2`, last observed in round 5; ε = 100, `c = 6`; the
    /// parameters of round 9. Values from
    ///
    /// ```text
    /// from math import log, sqrt
    /// def p(mu, o, t, eps=100.0, c=6.0):
    ///     x = min(max(mu + c*sqrt(8*log(o+1)*log(t))/(eps*o), 0.0), 1.0)
    ///     return (x*o + 1, (1 - x)*o + 1)
    /// p(0.25, 1, 9), p(0.5, 3, 9)   # current: ln 9 for both
    /// p(0.25, 1, 2), p(0.5, 3, 5)   # last-update: ln 2 and ln 5
    /// ```
    #[test]
    fn the_frozen_reading_reads_ln_t_of_the_arm_s_last_observation() {
        let mut p = DpTs::new(2, 100.0);
        p.state[0].n = 1;
        p.state[1].n = 3;
        p.mean = vec![0.25, 0.5];
        p.updated = vec![2, 5];
        let close = |(a, b): (f64, f64), (x, y): (f64, f64)| {
            assert!((a - x).abs() < 1e-12 && (b - y).abs() < 1e-12, "{a}, {b}");
        };
        close(
            p.beta_parameters(0, 9),
            (1.4594335231048827, 1.5405664768951173),
        );
        close(
            p.beta_parameters(1, 9),
            (2.796183728790504, 2.203816271209496),
        );
        p.bonus_round = BonusRound::LastUpdate;
        close(
            p.beta_parameters(0, 9),
            (1.3676309772162256, 1.6323690227837744),
        );
        close(
            p.beta_parameters(1, 9),
            (2.753490148594187, 2.246509851405813),
        );
        // The same in any later round until the next observation.
        close(
            p.beta_parameters(1, 1000),
            (2.753490148594187, 2.246509851405813),
        );
    }

    #[test]
    fn an_observation_records_its_round() {
        let mut p = DpTs::new(2, 1.0);
        let mut rng = <NoiseRng as rand::SeedableRng>::seed_from_u64(1);
        for t in 1..=6 {
            let arm = p.choose(t, 1, &mut rng).arm;
            p.observe(arm, 1, 1.0, &mut rng);
            assert_eq!(p.updated[arm], t);
        }
    }
}
