//! What every bandit policy shares: the [`Policy`] protocol, its [`Pull`],
//! the random source of its own draws ([`NoiseRng`]), the draws themselves
//! ([`laplace`], [`beta`]), the papers' `argmax` ([`argmax`]) and the
//! index policies' pull ([`each_once_then_argmax`]).

use crate::mechanism::{sampler, Noise};
use rand::Rng;
use rand_distr::Distribution;

/// The random source of an algorithm's own draws (Laplace noise, posterior
/// samples). The rewards come from a separate stream ([`super::sim::Rewards`]).
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

/// The pull of a Thompson-sampling policy over `k` arms: one
/// `Beta(a_j, b_j)` draw per arm `j = 0, 1, ..` in that order, with
/// `(a_j, b_j) = params(j)`, and the first arm of the largest draw; a run of
/// length 1.
pub fn beta_argmax(k: usize, params: impl Fn(usize) -> (f64, f64), rng: &mut NoiseRng) -> Pull {
    let mut best = (0, f64::NEG_INFINITY);
    for j in 0..k {
        let (a, b) = params(j);
        let theta = beta(a, b, rng);
        if theta > best.1 {
            best = (j, theta);
        }
    }
    Pull {
        arm: best.0,
        run: 1,
    }
}

/// The pull of an index policy in round `t` over `k` arms: each arm once in
/// rounds `1..=k` (arm `t − 1`), then the [`argmax`] of `index(j)` over the
/// arms `j` (called only then); every run has length 1.
pub fn each_once_then_argmax(t: u64, k: usize, index: impl Fn(usize) -> f64) -> Pull {
    let arm = if t <= k as u64 {
        (t - 1) as usize
    } else {
        argmax((0..k).map(index))
    };
    Pull { arm, run: 1 }
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
