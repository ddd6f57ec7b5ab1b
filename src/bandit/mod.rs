//! The private stochastic bandit algorithms of Hu et al. and their baselines
//! (design guide, "The algorithms", second table), and their f64 simulation.
//!
//! The bandit setting is not the full-information one of [`crate::algorithm`]:
//! in round `t` the learner pulls one arm `J_t` and sees only that arm's reward
//! `X_{J_t}(t) ∈ [0, 1]`. So the algorithms share a trait of their own,
//! [`Policy`], instead of `OnlineAlgorithm`.
//!
//! # The trait, and how it separates decisions from noise
//!
//! A policy is asked for a [`Pull`]: the arm of round `t` **and** the number of
//! consecutive rounds `t, t+1, …` at which that arm is pulled whatever the
//! rewards are (its *run*). Lazy algorithms know their runs in advance: between
//! two epoch ends of Anytime-Lazy-UCB no statistic changes except `ln t`, so the
//! argmax can only move at computable rounds ([`lazy_run`]); DP-SE pulls each
//! surviving arm a fixed number of times; AdaP-KLUCB plays an episode's arm
//! until its count doubles. The simulation engine ([`sim`]) then
//! draws the run's reward **sum** at once (a Binomial for Bernoulli rewards)
//! instead of stepping round by round. Per-round algorithms (Thompson sampling,
//! UCB1, Hybrid-UCB) return runs of length 1.
//!
//! Each algorithm keeps its deterministic decision rule (given the private
//! statistics, which arm) in plain functions of those statistics —
//! [`anytime_lazy_ucb::index`], [`lazy_dp_ts::beta_parameters`],
//! [`ucb1::index`], [`dp_se::radius`], [`hybrid_ucb::index`],
//! [`adap_klucb::index`] — and its
//! schedule ([`LazySchedule`], DP-SE's epoch lengths, Hybrid-UCB's blocks) apart
//! from the noise draws, which all go through [`laplace`] and [`beta`] on one
//! [`NoiseRng`]. An exact analysis of the law of the pull sequence (issue #13)
//! can reuse the schedule and decision rules and replace the draws.
//!
//! Every number the simulation produces is an f64 estimate and is labelled
//! approximate where it is printed.

pub mod adap_klucb;
pub mod anytime_lazy_ucb;
pub mod bounds;
pub mod dp_se;
pub mod dp_se_law;
pub mod hybrid_law;
pub mod hybrid_ucb;
pub mod law;
pub mod law_arms;
pub mod lazy_dp_ts;
pub mod piecewise;
pub mod polyhedral;
pub mod privacy;
pub mod pull_law;
pub mod sim;
pub mod stat_audit;
pub mod thompson;
pub mod ucb1;

use crate::error::{Error, Result};
use crate::mechanism::{sampler, Noise};
use rand::Rng;
use rand_distr::Distribution;
use std::fmt;
use std::str::FromStr;

/// The random source of an algorithm's own draws (Laplace noise, posterior
/// samples). The rewards come from a separate stream ([`sim::Rewards`]).
pub type NoiseRng = rand_chacha::ChaCha8Rng;

/// What a policy pulls: `arm` (0-based) for `run ≥ 1` consecutive rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pull {
    /// The arm, 0-based (the papers number arms from 1).
    pub arm: usize,
    /// How many consecutive rounds, starting at the asked round, pull `arm`
    /// whatever the rewards of those rounds are.
    pub run: u64,
}

/// A bandit learner: it chooses, then observes the chosen arm's rewards only.
///
/// Protocol: for `t = 1, 2, …` the caller asks [`Policy::choose`] at round
/// `t` with a cap `max_run ≥ 1` (rounds left to the horizon), gets a
/// [`Pull`] with `1 ≤ run ≤ max_run`, and reports the sum of the `run`
/// rewards of that arm through [`Policy::observe`]; the next round asked is
/// `t + run`. Pulling the arm `run` times one by one (with `max_run = 1`) gives
/// the same choices and the same noise draws as pulling it once with `run`.
pub trait Policy: Send {
    /// The number of arms K.
    fn arms(&self) -> usize;
    /// The arm of round `t ≥ 1` and its run (at most `max_run ≥ 1`).
    fn choose(&mut self, t: u64, max_run: u64, rng: &mut NoiseRng) -> Pull;
    /// The rewards of the last [`Pull`]: `n` pulls of `arm` summing to `sum`.
    fn observe(&mut self, arm: usize, n: u64, sum: f64, rng: &mut NoiseRng);
}

/// The algorithms, by command-line id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BanditId {
    /// Hu et al. 004 Algorithm 1.
    AnytimeLazyUcb,
    /// Hu et al. 004 Algorithm 3.
    LazyDpTs,
    /// Hu et al. 002 Appendix E, Algorithm 4 (rebuilt: see [`hybrid_ucb`]).
    HybridUcb,
    /// Sajed & Sheffet (2019), DP-SE.
    DpSe,
    /// Azize & Basu (2022), AdaP-KLUCB.
    AdapKlucb,
    /// UCB1 of Auer, Cesa-Bianchi & Fischer (2002), non-private.
    Ucb1,
    /// Thompson sampling with Beta priors, 004 Algorithm 2, non-private.
    Thompson,
}

impl BanditId {
    /// Every id, in the order of the design guide.
    pub const ALL: [BanditId; 7] = [
        BanditId::AnytimeLazyUcb,
        BanditId::LazyDpTs,
        BanditId::HybridUcb,
        BanditId::DpSe,
        BanditId::AdapKlucb,
        BanditId::Ucb1,
        BanditId::Thompson,
    ];

    /// The command-line id.
    pub fn name(self) -> &'static str {
        match self {
            BanditId::AnytimeLazyUcb => "anytime-lazy-ucb",
            BanditId::LazyDpTs => "lazy-dp-ts",
            BanditId::HybridUcb => "hybrid-ucb",
            BanditId::DpSe => "dp-se",
            BanditId::AdapKlucb => "adap-klucb",
            BanditId::Ucb1 => "ucb1",
            BanditId::Thompson => "thompson",
        }
    }

    /// Whether the algorithm takes a privacy parameter ε.
    pub fn is_private(self) -> bool {
        !matches!(self, BanditId::Ucb1 | BanditId::Thompson)
    }

    /// Whether it needs the horizon T in advance (DP-SE's default β = 1/T).
    pub fn needs_horizon(self) -> bool {
        self == BanditId::DpSe
    }
}

impl fmt::Display for BanditId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BanditId {
    type Err = Error;
    fn from_str(s: &str) -> Result<BanditId> {
        let s = s.trim();
        BanditId::ALL
            .into_iter()
            .find(|id| id.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = BanditId::ALL.iter().map(|i| i.name()).collect();
                Error::InvalidInput(format!(
                    "unknown bandit algorithm '{s}' (known: {})",
                    names.join(", ")
                ))
            })
    }
}

/// One algorithm with its parameters: the papers' defaults, each overridable.
#[derive(Clone, Debug, PartialEq)]
pub struct BanditConfig {
    /// Which algorithm.
    pub id: BanditId,
    /// The privacy parameter ε (ignored by the non-private baselines).
    pub epsilon: f64,
    /// Overrides the Laplace scale of each noise variable (default: the
    /// paper's, e.g. `1/ε` for Algorithms 1 and 3).
    pub noise_scale: Option<f64>,
    /// Overrides the constant of the confidence terms (default: the paper's,
    /// 3 in 004's `√(3 ln t/O) + 3 ln t/(εO)`, 2 in UCB1's `√(2 ln n/n_j)`,
    /// α = 3.1 in AdaP-KLUCB's `α log t_ℓ/n`).
    pub bonus: Option<f64>,
    /// DP-SE only: the failure probability β (default `1/T`).
    pub beta: Option<f64>,
}

impl BanditConfig {
    /// The paper's defaults for `id` at `epsilon`.
    pub fn new(id: BanditId, epsilon: f64) -> BanditConfig {
        BanditConfig {
            id,
            epsilon,
            noise_scale: None,
            bonus: None,
            beta: None,
        }
    }

    /// Check the parameters (ε > 0 for the private ones, positive overrides).
    pub fn validate(&self) -> Result<()> {
        let positive = |name: &str, x: f64| {
            if x.is_finite() && x > 0.0 {
                Ok(())
            } else {
                Err(Error::InvalidInput(format!(
                    "{name} must be a positive number, got {x}"
                )))
            }
        };
        if self.id.is_private() {
            positive("--epsilon", self.epsilon)?;
        }
        if let Some(b) = self.noise_scale {
            positive("--noise-scale", b)?;
        }
        if let Some(c) = self.bonus {
            positive("--bonus", c)?;
        }
        if let Some(beta) = self.beta {
            if !(beta > 0.0 && beta < 1.0) {
                return Err(Error::InvalidInput(format!(
                    "--beta must lie in (0, 1), got {beta}"
                )));
            }
        }
        Ok(())
    }

    /// A fresh learner for `k` arms and horizon `horizon`.
    pub fn build(&self, k: usize, horizon: u64) -> Result<Box<dyn Policy>> {
        self.validate()?;
        if k < 2 {
            return Err(Error::InvalidInput(format!(
                "a bandit needs K ≥ 2 arms, got {k}"
            )));
        }
        let eps = self.epsilon;
        Ok(match self.id {
            BanditId::AnytimeLazyUcb => {
                let mut p = anytime_lazy_ucb::AnytimeLazyUcb::new(k, eps);
                override_opt(&mut p.means.noise_scale, self.noise_scale);
                override_opt(&mut p.means.bonus, self.bonus);
                Box::new(p)
            }
            BanditId::LazyDpTs => {
                let mut p = lazy_dp_ts::LazyDpTs::new(k, eps);
                override_opt(&mut p.means.noise_scale, self.noise_scale);
                override_opt(&mut p.means.bonus, self.bonus);
                Box::new(p)
            }
            BanditId::HybridUcb => {
                let mut p = hybrid_ucb::HybridUcb::new(k, eps);
                override_opt(&mut p.array_scale, self.noise_scale);
                override_opt(&mut p.bonus, self.bonus);
                Box::new(p)
            }
            BanditId::DpSe => {
                let beta = self.beta.unwrap_or(1.0 / horizon.max(2) as f64);
                let mut p = dp_se::DpSe::new(k, eps, beta);
                override_opt(&mut p.noise_scale, self.noise_scale);
                Box::new(p)
            }
            BanditId::AdapKlucb => {
                let mut p = adap_klucb::AdapKlucb::new(k, eps);
                override_opt(&mut p.noise_scale, self.noise_scale);
                override_opt(&mut p.alpha, self.bonus);
                Box::new(p)
            }
            BanditId::Ucb1 => {
                let mut p = ucb1::Ucb1::new(k);
                override_opt(&mut p.bonus, self.bonus);
                Box::new(p)
            }
            BanditId::Thompson => Box::new(thompson::Thompson::new(k)),
        })
    }

    /// A short label: `anytime-lazy-ucb ε=1/4` (or the id alone).
    pub fn label(&self) -> String {
        if self.id.is_private() {
            format!("{} ε={}", self.id, self.epsilon)
        } else {
            self.id.to_string()
        }
    }
}

fn override_opt(slot: &mut f64, value: Option<f64>) {
    if let Some(v) = value {
        *slot = v;
    }
}

/// One draw of `Lap(scale)` (the crate's sampler, [`sampler::noise`]).
pub fn laplace(scale: f64, rng: &mut NoiseRng) -> f64 {
    sampler::noise(Noise::Laplace, scale, rng)
}

/// One draw of `Beta(a, b)`, `a, b > 0`.
///
/// `Beta(a, 1)` is drawn as `U^{1/a}` (the inverse of its distribution
/// function `x^a`); otherwise as `G_a/(G_a + G_b)` with independent
/// `G_a ~ Gamma(a, 1)`, `G_b ~ Gamma(b, 1)` (rand_distr's Marsaglia–Tsang
/// sampler), which is cheaper than a Beta sampler whose set-up changes every
/// round. Tested against the Beta distribution function by a chi-square test
/// (tests/bandit.rs).
pub fn beta(a: f64, b: f64, rng: &mut NoiseRng) -> f64 {
    if b == 1.0 {
        let u: f64 = rng.random();
        return u.powf(1.0 / a);
    }
    let gamma = |shape: f64, rng: &mut NoiseRng| -> f64 {
        rand_distr::Gamma::new(shape, 1.0)
            .map(|d| d.sample(rng))
            .unwrap_or(f64::NAN)
    };
    let x = gamma(a, rng);
    let y = gamma(b, rng);
    x / (x + y)
}

/// The first index of the largest value (ties to the lowest index, as the
/// papers' `argmax` is read here); `values` must not be empty.
pub fn argmax(values: impl IntoIterator<Item = f64>) -> usize {
    let mut best = (0, f64::NEG_INFINITY);
    for (i, v) in values.into_iter().enumerate() {
        if v > best.1 {
            best = (i, v);
        }
    }
    best.0
}

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
/// sequence ([`law`], [`law_arms`]), which walk the same schedule.
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
