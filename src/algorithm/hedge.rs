//! `hedge` and `decreasing-hedge`: the exponential-weights forecaster of
//! Freund & Schapire (1997), played one fresh draw per round.
//!
//! Round `t` plays action `j` with probability
//!
//! ```text
//! P(I_t = j) = e^{−η_t L_j(t−1)} / Σ_i e^{−η_t L_i(t−1)},   L_j(t−1) = Σ_{s<t} ℓ_j^{(s)},
//! ```
//!
//! (round 1 uniform), independently of the other rounds. Hu, Huang, Mehta &
//! Hegde (arXiv:2102.07929, journal version, 004 L118) name it the baseline of
//! the non-private full-information setting:
//!
//! * **`hedge`** — a constant learning rate η. No paper of the four prints a
//!   value for it; the default here is `η = ε`, so that each round is the
//!   softmax (report-noisy-max with Gumbel noise) of temperature `1/ε` on the
//!   cumulative losses. `--noise-scale b` sets the temperature: `η = 1/b`.
//! * **`decreasing-hedge`** — Decreasing Hedge of Mourtada & Gaïffas ("On the
//!   optimality of the Hedge algorithm in the stochastic regime", JMLR 20,
//!   2019, arXiv:1809.01382), cited by 004 L118 as a learning rate "of order
//!   `√(log(K)/t)`": `η_t = c·√(ln K / t)` with `t` the round being played,
//!   and `c = 2` by default: the anytime worst-case tuning
//!   `η_t = 2√(log M / t)` (regret `≤ √(T log M)`) their analysis starts
//!   from. The papers folder holds no copy of their text: this constant is
//!   not checked against it, and `--noise-scale` changes it.
//!   `--noise-scale b` sets `c = 1/b`: the temperature of round `t` is
//!   `b·√(t / ln K)`. Independent of ε.
//!
//! Each round is one choice of the schedule reading every round before it, so
//! the law of the action sequence is the product of the rounds' softmax laws
//! ([`super`]). With rational η and losses every weight lies in the exact
//! field of [`crate::num::ExpRational`]; `η_t` of `decreasing-hedge` is
//! irrational (`√(ln K)`), and its law is certified only.

use super::{every_round_schedule, uniform_law, window_sums, Choice, OnlineAlgorithm};
use crate::error::Result;
use crate::mechanism::{self, sampler, Noise, Scale};
use crate::num::{Real, Q};
use num_traits::Zero;
use rand::Rng;

/// How the learning rate of round `t` is set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LearningRate {
    /// `η_t = η` for every round; holds the temperature `1/η`.
    Constant(Q),
    /// `η_t = √(ln K / t) / b`; holds `b = 1/c`.
    Decreasing(Q),
}

/// Hedge on K actions.
#[derive(Clone, Debug)]
pub struct Hedge {
    k: usize,
    rate: LearningRate,
}

impl Hedge {
    /// Hedge on `k` actions at learning rate `rate`; an error unless its
    /// parameter is positive.
    pub fn new(k: usize, rate: LearningRate) -> Result<Hedge> {
        match &rate {
            LearningRate::Constant(b) | LearningRate::Decreasing(b) => {
                Scale::beta(b.clone())?;
            }
        }
        Ok(Hedge { k, rate })
    }

    /// The learning rate in use.
    pub fn rate(&self) -> &LearningRate {
        &self.rate
    }

    /// The parameter `--noise-scale` names: the temperature `1/η` of
    /// `hedge`, the factor `b = 1/c` of `decreasing-hedge`.
    pub fn noise_scale(&self) -> &Q {
        match &self.rate {
            LearningRate::Constant(b) | LearningRate::Decreasing(b) => b,
        }
    }

    /// `η_t` of round `round ≥ 1`, in the backend `R`.
    pub fn eta<R: Real>(&self, round: usize, ctx: &R::Context) -> Result<R> {
        match &self.rate {
            LearningRate::Constant(b) => Ok(R::from_rational(&b.recip(), ctx)),
            LearningRate::Decreasing(b) => {
                let k = R::from_int(self.k as i64, ctx);
                let t = R::from_int(round as i64, ctx);
                let half = R::from_rational(&Q::new(1.into(), 2.into()), ctx);
                // √x = e^{(ln x)/2}, x = ln K / t > 0 for K ≥ 2.
                let root = ((k.ln()? / &t).ln()? * &half).exp()?;
                Ok(root / &R::from_rational(b, ctx))
            }
        }
    }

    /// The temperature `1/η_t` of round `round ≥ 1` as a double, for the
    /// sampler.
    fn temperature_f64(&self, round: usize) -> f64 {
        match &self.rate {
            LearningRate::Constant(b) => Real::to_f64(b),
            LearningRate::Decreasing(b) => {
                Real::to_f64(b) * (round as f64 / (self.k as f64).ln()).sqrt()
            }
        }
    }
}

impl OnlineAlgorithm for Hedge {
    fn actions(&self) -> usize {
        self.k
    }

    /// One choice per round `t`, reading rounds `1..t`.
    fn schedule(&self, horizon: usize) -> Vec<Choice> {
        every_round_schedule(horizon)
    }

    /// The softmax of `−η_t L(t−1)`, `t = index + 1`. A constant rate is the
    /// mechanism's Gumbel law at scale `1/η` (exact in any field holding
    /// `e^{−η}`); a decreasing one weighs each gap `g` by `e^{−η_t g}`.
    fn choice_law<R: Real>(
        &self,
        index: usize,
        _: &Choice,
        window: &[Vec<Q>],
        ctx: &R::Context,
    ) -> Result<Vec<R>> {
        let sums = window_sums(window, self.k);
        match &self.rate {
            LearningRate::Constant(b) => {
                mechanism::law::<R>(Noise::Gumbel, &sums, &Scale::Beta(b.clone()), ctx)
            }
            LearningRate::Decreasing(_) => {
                let gaps = mechanism::gaps(&sums);
                if gaps.iter().all(Zero::is_zero) {
                    return Ok(uniform_law(self.k, ctx));
                }
                let eta = self.eta::<R>(index + 1, ctx)?;
                let weights = gaps
                    .iter()
                    .map(|g| {
                        if g.is_zero() {
                            Ok(R::from_int(1, ctx))
                        } else {
                            (R::from_rational(&-g, ctx) * &eta).exp()
                        }
                    })
                    .collect::<Result<Vec<R>>>()?;
                Ok(mechanism::softmax::law(&weights))
            }
        }
    }

    /// Online: the cumulative losses so far, and the Gumbel-max draw at the
    /// round's temperature (the softmax law, McSherry & Talwar 2007).
    fn sample<G: Rng + ?Sized>(&self, losses: &[Vec<f64>], rng: &mut G) -> Vec<usize> {
        let mut cumulative = vec![0.0; self.k];
        losses
            .iter()
            .enumerate()
            .map(|(i, vector)| {
                let action = sampler::report_noisy_max(
                    Noise::Gumbel,
                    &cumulative,
                    self.temperature_f64(i + 1),
                    rng,
                );
                for (c, l) in cumulative.iter_mut().zip(vector) {
                    *c += l;
                }
                action
            })
            .collect()
    }
}
