//! The lazy schedule of Hu et al. 004 Algorithms 1 and 3: per-arm doubling
//! epochs ([`LazySchedule`]), the private means on it ([`LazyMeans`]), and the
//! rounds over which a lazy index's argmax cannot move ([`lazy_run`]).

use super::learner::{argmax, laplace, NoiseRng, Pull};

/// How many rounds from `t` on the arm `argmax_j index(j, s)` stays `arm`
/// (at most `cap`), assuming it is `arm` at `s = t`.
///
/// Valid for indices of the form `m_j + g_j(s)` with every `g_j` increasing
/// in `s` and `g_i − g_j` monotone: then, as `s` grows, an arm that overtakes
/// `arm` stays ahead, and "`arm` is the argmax at `s`" is true on an initial
/// segment of rounds, found by bisection with `O(K log cap)` index
/// evaluations. For Anytime-Lazy-UCB, `g_j(s) = √(3 ln s/O_j) + 3 ln s/(εO_j)`:
/// the difference of two such is monotone in `s` (its sign is that of
/// `1/O_i − 1/O_j`), so the argmax only moves towards arms with fewer
/// observations (checked against
/// stepping round by round in tests/bandit.rs).
pub fn lazy_run(arm: usize, t: u64, cap: u64, k: usize, index: impl Fn(usize, u64) -> f64) -> u64 {
    let stays = |s: u64| argmax((0..k).map(|j| index(j, s))) == arm;
    let last = t + cap - 1;
    if stays(last) {
        return cap;
    }
    // Invariant: stays(lo), !stays(hi).
    let (mut lo, mut hi) = (t, last);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if stays(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo - t + 1
}

/// The lazy, forgetful per-arm epoch schedule shared by Algorithms 1 and 3 of
/// 004 (lines 5–8 of Algorithm 1, 6–9 of Algorithm 3; L145–L148, L196–L199):
/// `N_j` unprocessed observations with sum `Φ_j`; when `N_j` hits `2^{r_j+1}`
/// the epoch ends, `O_j ← 2^{r_j+1}`, the private mean becomes
/// `(Φ_j + Lap)/O_j`, `r_j ← r_j + 1` and `N_j, Φ_j ← 0`.
///
/// The noise is not drawn here: [`LazySchedule::record`] says when an epoch
/// ends and with which sum; the caller adds its noise. The sums are of type
/// `S`: `f64` in the simulation, exact rationals in the laws of the pull
/// sequence ([`crate::bandit::law::anytime_lazy_ucb`],
/// [`crate::bandit::law::anytime_lazy_ucb_arms`]), which walk the same schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct LazySchedule<S = f64> {
    /// `O_j`: the number of observations behind arm j's private mean.
    pub o: Vec<u64>,
    /// `r_j`: arm j's processed epochs.
    pub r: Vec<u32>,
    /// `N_j`: unprocessed observations.
    pub n: Vec<u64>,
    /// `Φ_j`: their sum.
    pub phi: Vec<S>,
}

impl<S: Clone + Default + std::ops::AddAssign> LazySchedule<S> {
    /// The state after line 2 (each arm pulled once: `O_j = 1, r_j = 0,
    /// N_j = 0, Φ_j = 0`).
    pub fn new(k: usize) -> LazySchedule<S> {
        LazySchedule {
            o: vec![1; k],
            r: vec![0; k],
            n: vec![0; k],
            phi: vec![S::default(); k],
        }
    }

    /// Pulls of `arm` left before its epoch ends: `2^{r+1} − N`.
    pub fn room(&self, arm: usize) -> u64 {
        (1u64 << (self.r[arm] + 1)) - self.n[arm]
    }

    /// Record `count ≤ room(arm)` observations summing to `sum`; at the epoch's
    /// end returns `Some((Φ, O))` (the epoch's sum and its new `O`) and resets.
    pub fn record(&mut self, arm: usize, count: u64, sum: S) -> Option<(S, u64)> {
        self.n[arm] += count;
        self.phi[arm] += sum;
        if self.n[arm] == 1u64 << (self.r[arm] + 1) {
            let o = self.n[arm];
            let phi = std::mem::take(&mut self.phi[arm]);
            self.o[arm] = o;
            self.r[arm] += 1;
            self.n[arm] = 0;
            Some((phi, o))
        } else {
            None
        }
    }
}

/// The private means shared by Algorithms 1 and 3 of 004: line 2's initial
/// pulls (`μ̃_j ← X_j + Lap`), then the [`LazySchedule`] with a fresh Laplace
/// draw on each epoch's sum (`μ̃ ← (Φ + Lap)/O`). Defaults as printed: noise
/// scale `1/ε`, bonus constant 3.
#[derive(Clone, Debug)]
pub struct LazyMeans {
    /// ε of the bonus term `3 ln t/(εO)`.
    pub epsilon: f64,
    /// Scale of each Laplace draw; default `1/ε`.
    pub noise_scale: f64,
    /// The constant 3 of the bonus terms.
    pub bonus: f64,
    /// `μ̃_{j,O_j}`.
    pub mu: Vec<f64>,
    /// `O_j, r_j, N_j, Φ_j`.
    pub schedule: LazySchedule,
    /// How many arms line 2 has initialised.
    pub initialised: usize,
}

impl LazyMeans {
    /// The state before line 2, for `k` arms.
    pub fn new(k: usize, epsilon: f64) -> LazyMeans {
        LazyMeans {
            epsilon,
            noise_scale: 1.0 / epsilon,
            bonus: 3.0,
            mu: vec![0.0; k],
            schedule: LazySchedule::new(k),
            initialised: 0,
        }
    }

    /// Line 2: round `t ≤ K` pulls arm `t` (0-based `t − 1`) once.
    pub fn initial_pull(&self, t: u64) -> Option<Pull> {
        (t <= self.mu.len() as u64).then(|| Pull {
            arm: (t - 1) as usize,
            run: 1,
        })
    }

    /// Lines 5–8 of Algorithm 1 (6–9 of Algorithm 3), or line 2's draw for
    /// an initial pull.
    pub fn observe(&mut self, arm: usize, n: u64, sum: f64, rng: &mut NoiseRng) {
        if self.initialised < self.mu.len() {
            self.mu[arm] = sum + laplace(self.noise_scale, rng);
            self.initialised += 1;
            return;
        }
        if let Some((phi, o)) = self.schedule.record(arm, n, sum) {
            self.mu[arm] = (phi + laplace(self.noise_scale, rng)) / o as f64;
        }
    }
}
