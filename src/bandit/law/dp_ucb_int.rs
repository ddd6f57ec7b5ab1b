//! The law of DP-UCB-INT's pull sequence (Tossou & Dimitrakakis 2016,
//! arXiv:1511.08681, Algorithm 3, as read in
//! [`crate::bandit::policy::dp_ucb_int`]) with K = 2 arms on a fixed reward
//! table, certified, for the interval `f = 1` (`ε ≥ 1`).
//!
//! # A product of closed forms
//!
//! With `f = 1` every count is a multiple of `f`: from round 3 on both arms
//! draw a fresh index every round, `I_j = S_j/n_j + L_j + √(c ln t/n_j)`,
//! `L_j ~ Lap(σ(n_j))` with `σ(n) = b·n^{v/2 − 1}` (`b` the noise factor,
//! printed 1). Given the pulls and the rewards seen, the rounds' noises are
//! independent, so `P(pulls | seen)` is the product over rounds `t ≥ 3` of
//! `P(L_0 − L_1 ≥ θ_t)` (arm 0 pulled; ties, of probability 0, go to arm 0)
//! or its complement, with
//!
//! ```text
//! θ_t = S_1/n_1 − S_0/n_0 + √(c ln t/n_1) − √(c ln t/n_0).
//! ```
//!
//! `L_0 − L_1` is the sum of two independent Laplace variables of scales
//! `a = σ(n_0)`, `b = σ(n_1)`; its tail at `x ≥ 0` is
//!
//! ```text
//! P(L_0 − L_1 ≥ x) = (a² e^{−x/a} − b² e^{−x/b}) / (2(a² − b²))   (a ≠ b),
//!                  = e^{−x/a} (2 + x/a) / 4                         (a = b),
//! ```
//!
//! (integrate the density `(a e^{−|x|/a} − b e^{−|x|/b})/(2(a² − b²))`),
//! and `1 − P(L_0 − L_1 ≥ −x)` at `x < 0`. The scales are equal exactly
//! when `n_0 = n_1` or `v = 2`; otherwise `a ≠ b`.
//!
//! # What is certified, what is refused
//!
//! `σ(n) = b·exp((v/2 − 1) ln n)` is computed in the backend (exact when it
//! is rational: `v/2` an integer, or `n` a perfect power that makes it so,
//! [`Real::pow_rational`]), never through `f64`. `θ_t` involves `√(ln t)`
//! unless `n_0 = n_1`, and every factor `e^{−x/a}`: the law is certified,
//! and an exact backend declines. The sign of `θ_t` is decided by its
//! enclosure ([`crate::error::Error::Domain`] asks for more precision).
//!
//! With `f ≥ 2` (`ε < 1`) an arm whose count is not a multiple of `f` keeps
//! the index it won with, so the rounds share noises (a chain of
//! conditioned Laplace variables of irrational scales): that law is not
//! implemented and [`DpUcbIntParams::validate`] refuses it.

use super::{check_scale, PullLaw};
use crate::error::{Error, Result};
use crate::num::{Real, Q};
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;

/// Why the law is certified, not exact (the reports print it).
pub const WHY_NOT_EXACT: &str = "the noise scales b·n^{v/2 − 1} and the bonuses √(2 ln t/n) of Algorithm 3 are irrational, and every round's tail e^{−θ/σ} transcendental";

/// The parameters of DP-UCB-INT's law, exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DpUcbIntParams {
    /// ε of the algorithm (its interval `f = ⌈1/ε⌉`) and of the verdict.
    pub epsilon: Q,
    /// `f`, the pulls between two recomputations of an arm's index; the law
    /// covers `f = 1` only.
    pub interval: u64,
    /// `v` of the noise scale `b/n^{1 − v/2}` (default `11/10`).
    pub rate: Q,
    /// `b` of the noise scale `b/n^{1 − v/2}` (printed 1).
    pub noise_factor: Q,
    /// The constant 2 of `√(2 ln t/n)`.
    pub bonus: Q,
}

impl DpUcbIntParams {
    /// The defaults ([`crate::bandit::policy::dp_ucb_int::DpUcbInt::new`])
    /// at ε: `f = ⌈1/ε⌉`, `v = 11/10`, `b = 1`, bonus 2.
    pub fn printed(epsilon: Q) -> DpUcbIntParams {
        let interval = if epsilon.is_positive() {
            epsilon
                .recip()
                .ceil()
                .to_integer()
                .try_into()
                .unwrap_or(u64::MAX)
        } else {
            u64::MAX
        };
        DpUcbIntParams {
            interval: interval.max(1),
            rate: Q::new(11.into(), 10.into()),
            noise_factor: Q::one(),
            bonus: Q::from_integer(2.into()),
            epsilon,
        }
    }

    /// Check that ε, `b` and the bonus are positive, `b` not too small, `v`
    /// of bounded size, and `f = 1` (the only interval whose law is
    /// implemented).
    pub fn validate(&self) -> Result<()> {
        for (name, v) in [
            ("--epsilon", &self.epsilon),
            ("--noise-scale", &self.noise_factor),
            ("the bonus", &self.bonus),
        ] {
            if !v.is_positive() {
                return Err(Error::InvalidInput(format!(
                    "{name} must be positive, got {v}"
                )));
            }
        }
        if self.interval != 1 {
            return Err(Error::InvalidInput(format!(
                "dp-ucb-int's law is implemented for the interval f = 1 only (ε ≥ 1: a fresh index every round), got f = {} (ε = {}): with f ≥ 2 a kept index makes the rounds share their noises",
                self.interval, self.epsilon
            )));
        }
        crate::algorithm::check_parameter_bits("the rate v", &self.rate)?;
        check_scale(&self.epsilon, &self.noise_factor)
    }

    /// `v/2 − 1`, the exponent of `n` in the noise scale.
    pub fn scale_exponent(&self) -> Q {
        &self.rate / Q::from_integer(2.into()) - Q::one()
    }

    /// `σ(n) = b·n^{v/2 − 1}`, the Laplace scale of the mean's noise after
    /// `n` rewards.
    pub fn scale<R: Real>(&self, n: u64, ctx: &R::Context) -> Result<R> {
        let power = R::pow_rational(&Q::from_integer(n.into()), &self.scale_exponent(), ctx)?;
        Ok(R::from_rational(&self.noise_factor, ctx) * power)
    }

    /// `√(c ln t/n)`.
    fn bonus_at<R: Real>(&self, n: u64, t: u64, ctx: &R::Context) -> Result<R> {
        let c_ln = R::from_rational(&self.bonus, ctx) * R::from_int(t as i64, ctx).ln()?;
        let half = R::from_rational(&Q::new(1.into(), 2.into()), ctx);
        (half * (c_ln / R::from_int(n as i64, ctx)).ln()?).exp()
    }

    /// `P(arm | round)` (module documentation).
    fn round_probability<R: Real>(&self, round: &Round, ctx: &R::Context) -> Result<R> {
        let [n0, n1] = round.counts;
        let a = self.scale::<R>(n0, ctx)?;
        let equal_scales = n0 == n1 || self.rate == Q::from_integer(2.into());
        let b = if equal_scales {
            a.clone()
        } else {
            self.scale::<R>(n1, ctx)?
        };
        let offset = R::from_rational(&round.offset, ctx);
        let theta = if n0 == n1 {
            offset
        } else {
            offset + self.bonus_at::<R>(n1, round.t, ctx)? - self.bonus_at::<R>(n0, round.t, ctx)?
        };
        let tail = |x: R| -> Result<R> {
            if equal_scales {
                let z = x / &a;
                Ok((-z.clone()).exp()? * (R::from_int(2, ctx) + z) / R::from_int(4, ctx))
            } else {
                let (a2, b2) = (a.clone() * &a, b.clone() * &b);
                let ea = (-(x.clone() / &a)).exp()?;
                let eb = (-(x / &b)).exp()?;
                Ok((a2.clone() * ea - b2.clone() * eb) / (R::from_int(2, ctx) * (a2 - b2)))
            }
        };
        let zero = R::from_int(0, ctx);
        let upper = match theta.cmp_certain(&zero) {
            Some(Ordering::Less) => R::from_int(1, ctx) - tail(-theta)?,
            Some(_) => tail(theta)?,
            None => {
                return Err(Error::Domain(format!(
                    "round {}: the sign of the index gap θ is not decided at this precision",
                    round.t
                )))
            }
        };
        Ok(if round.arm == 0 {
            upper
        } else {
            R::from_int(1, ctx) - upper
        })
    }
}

/// One round `t ≥ 3`: the counts before it, `S_1/n_1 − S_0/n_0` and the arm
/// pulled.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Round {
    t: u64,
    counts: [u64; 2],
    offset: Q,
    arm: usize,
}

/// The event "these pulls" given the rewards seen: its rounds from 3 on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Event {
    rounds: Vec<Round>,
}

impl Event {
    /// The event of `pulls` (arms 0 or 1) with `seen[t]` the reward of round
    /// `t + 1`; `None` when rounds 1 and 2 (arms 0 then 1) rule them out.
    pub fn new(pulls: &[usize], seen: &[Q]) -> Result<Option<Event>> {
        if pulls.len() != seen.len() || pulls.iter().any(|&a| a > 1) {
            return Err(Error::InvalidInput(
                "the pulls must be arms 0 or 1, one per reward seen".into(),
            ));
        }
        if pulls.first().is_some_and(|&a| a != 0) || pulls.get(1).is_some_and(|&a| a != 1) {
            return Ok(None);
        }
        let mut counts = [0u64; 2];
        let mut sums = [Q::zero(), Q::zero()];
        let mut rounds = Vec::with_capacity(pulls.len().saturating_sub(2));
        for (i, (&arm, y)) in pulls.iter().zip(seen).enumerate() {
            if i >= 2 {
                let mean = |j: usize| &sums[j] / Q::from_integer(counts[j].into());
                rounds.push(Round {
                    t: i as u64 + 1,
                    counts,
                    offset: mean(1) - mean(0),
                    arm,
                });
            }
            counts[arm] += 1;
            sums[arm] += y;
        }
        Ok(Some(Event { rounds }))
    }
}

impl PullLaw for DpUcbIntParams {
    type Event = Event;
    fn validate(&self) -> Result<()> {
        DpUcbIntParams::validate(self)
    }
    fn sequence_count(&self, horizon: usize) -> Option<u64> {
        1u64.checked_shl(horizon.saturating_sub(2) as u32)
    }
    fn sequences(&self, horizon: usize) -> Vec<Vec<usize>> {
        super::anytime_lazy_ucb::pull_sequences(horizon)
    }
    fn sequence(&self, horizon: usize, index: u64) -> Option<Vec<usize>> {
        super::anytime_lazy_ucb::pull_sequence(horizon, index)
    }
    fn event(&self, pulls: &[usize], seen: &[Q]) -> Result<Option<Event>> {
        Event::new(pulls, seen)
    }
    /// The product over the rounds of their closed forms.
    fn probability<R: Real>(&self, event: &Event, ctx: &R::Context) -> Result<R> {
        event
            .rounds
            .iter()
            .try_fold(R::from_int(1, ctx), |p, round| {
                Ok(p * self.round_probability::<R>(round, ctx)?)
            })
    }
    fn name(&self) -> &'static str {
        "dp-ucb-int"
    }
}
