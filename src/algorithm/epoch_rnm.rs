//! Report-noisy-max follow-the-noisy-leader on doubling epochs: three
//! algorithms of the papers that differ only in their first action, noise,
//! scale and resampling.
//!
//! **`wu-wang`** — Wu & Wang, Algorithm 1, RNM-FTNL(B, Q_ε) (000, lines 53–70), as printed:
//!
//! ```text
//! 3:  Draw J_0 from a uniform distribution over [K].
//! 4:  for r = 1, …, ⌈log₂(T−1)⌉+1 do
//! 5:    Set G_r = (0, …, 0)
//! 6:    for t = 2^{r−1}, …, 2^r − 1 do
//! 7:      Play the action I_t ← J_{r−1}.
//! 9–13:   ℓ̃^{(t)} ← ℓ^{(t)} if B = 0, else ℓ̃_j^{(t)} ~ Bernoulli(ℓ_j^{(t)}) independently
//! 14:     G_r ← G_r + ℓ̃^{(t)}
//! 16:   J_r ← argmax_j −G_{r,j} + Q_{r,j},  Q_{r,j} ~ Q_ε
//! ```
//!
//! with `Q_ε ∈ {Lap(2/ε), Exp(1/ε), Gumbel(2/ε)}` (scales as printed; the
//! default is Laplace). The printed loop bound is undefined at T = 1 and
//! skips round 2 at T = 2; the algorithm is anytime (their line 221: "independent
//! of T"), so epochs simply run until the horizon.
//!
//! **`hu-rnm-ftnl`** — Hu et al., Algorithm 4 RNM-FTNL (004, lines 260–266):
//! play action 1 once, `J ← argmax_j (X_j + Lap(1/ε))`; then in epoch `s ≥ 1`
//! play `J` for `2^s` rounds and set `J ← argmax_j (Φ_j + Lap(1/ε))` with `Φ_j`
//! the rewards `1 − ℓ` summed over the epoch. On rewards `Φ_j = n − L_j`, so
//! `argmax_j (Φ_j + Z_j) = argmax_j (−L_j + Z_j)`: the same law on losses.
//!
//! **`naive-ftnl`** — Hu et al. §5 prose (004 line 256; 002 line 80): each
//! action's epoch statistic is made (ε/K)-DP, so Laplace noise of scale
//! `K/ε` per action; the papers leave the schedule open, so it is that of
//! Algorithm 4 (first action 1, doubling epochs): `naive-ftnl` is
//! `hu-rnm-ftnl` with scale `K/ε`.
//!
//! All three use the dyadic blocks of [`super::dyadic_schedule`]: the choice
//! played on `B_b` reads block `B_{b−1}` only, with fresh noise (and fresh
//! resampling): see the module documentation of [`super`].

use super::{
    dyadic_schedule, play_schedule, point_mass, uniform_law, window_sums, AlgorithmId, Choice,
    Config, OnlineAlgorithm,
};
use crate::error::Result;
use crate::mechanism::{self, sampler, Noise, Scale};
use crate::num::{Real, Q};
use num_traits::{One, Zero};
use rand::Rng;

/// How round 1 is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstAction {
    /// Action 1 (Hu et al. Algorithm 4, line 2).
    One,
    /// Uniform over [K] (Wu & Wang Algorithm 1, line 3).
    Uniform,
}

/// A report-noisy-max epoch algorithm.
#[derive(Clone, Debug)]
pub struct EpochRnm {
    k: usize,
    first: FirstAction,
    noise: Noise,
    /// The noise scale β in use.
    scale: Q,
    /// Bernoulli resampling of every loss (Wu & Wang's B = 1).
    resample: bool,
}

impl EpochRnm {
    /// The algorithm of `config` (`naive-ftnl`, `hu-rnm-ftnl` or `wu-wang`)
    /// with its paper's default scale unless `noise_scale` overrides it.
    pub fn from_config(config: &Config) -> Result<EpochRnm> {
        let eps = &config.epsilon;
        let over = |c: i64| Q::from_integer(c.into()) / eps;
        let (first, noise, default_scale) = match config.id {
            AlgorithmId::NaiveFtnl => (
                FirstAction::One,
                Noise::Laplace,
                over(config.actions as i64),
            ),
            AlgorithmId::HuRnmFtnl => (FirstAction::One, Noise::Laplace, over(1)),
            _ => {
                let noise = config.noise.unwrap_or(Noise::Laplace);
                let scale = match noise {
                    Noise::Laplace | Noise::Gumbel => over(2),
                    Noise::Exponential => over(1),
                };
                (FirstAction::Uniform, noise, scale)
            }
        };
        let scale = config.noise_scale.clone().unwrap_or(default_scale);
        Scale::beta(scale.clone())?;
        Ok(EpochRnm {
            k: config.actions,
            first,
            noise,
            scale,
            resample: config.resample,
        })
    }

    /// The noise scale β in use.
    pub fn scale(&self) -> &Q {
        &self.scale
    }

    /// How round 1 is played.
    pub fn first(&self) -> FirstAction {
        self.first
    }

    /// The noise added to the scores.
    pub fn noise(&self) -> Noise {
        self.noise
    }

    /// Whether the losses are Bernoulli-resampled (Wu & Wang's B = 1).
    pub fn resample(&self) -> bool {
        self.resample
    }

    /// The selection law on one vector of (resampled) epoch sums.
    fn select<R: Real>(&self, sums: &[Q], ctx: &R::Context) -> Result<Vec<R>> {
        mechanism::law::<R>(self.noise, sums, &Scale::Beta(self.scale.clone()), ctx)
    }

    /// The law of `J` averaged exactly over the Bernoulli resampling: the
    /// resampled sums `G_j` are independent Poisson-binomial variables, so
    /// `P(J = i) = Σ_g ∏_j P(G_j = g_j) · P_RNM(i | g)` over their supports.
    /// `G_j` is at least the number of losses equal to 1 and at most the
    /// number of non-zero ones, so the sum runs over `∏_j (n_j + 1)`
    /// outcomes, `n_j` the number of losses of action `j` strictly inside
    /// (0, 1) ([`OnlineAlgorithm::choice_cost`]).
    fn select_resampled<R: Real>(&self, window: &[Vec<Q>], ctx: &R::Context) -> Result<Vec<R>> {
        // Each column's law restricted to its support: (lowest value, masses).
        let columns: Vec<(usize, Vec<Q>)> = (0..self.k)
            .map(|j| {
                let law = poisson_binomial(window.iter().map(|v| &v[j]));
                let low = law.iter().position(|m| !m.is_zero()).unwrap_or(0);
                let high = law.iter().rposition(|m| !m.is_zero()).unwrap_or(0);
                (low, law[low..=high].to_vec())
            })
            .collect();
        let mut law = vec![R::from_int(0, ctx); self.k];
        let mut g = vec![0usize; self.k];
        loop {
            let weight: Q = g
                .iter()
                .zip(&columns)
                .map(|(&x, c)| c.1[x].clone())
                .product();
            let sums: Vec<Q> = g
                .iter()
                .zip(&columns)
                .map(|(&x, c)| Q::from_integer((c.0 + x).into()))
                .collect();
            let weight = R::from_rational(&weight, ctx);
            for (total, p) in law.iter_mut().zip(self.select::<R>(&sums, ctx)?) {
                *total = total.clone().mul_add(&weight, &p);
            }
            // Next outcome, odometer order.
            let mut j = 0;
            loop {
                if j == self.k {
                    return Ok(law);
                }
                g[j] += 1;
                if g[j] < columns[j].1.len() {
                    break;
                }
                g[j] = 0;
                j += 1;
            }
        }
    }
}

/// The law of a sum of independent Bernoulli(p_i) variables:
/// `law[n] = P(Σ = n)`, exact.
pub fn poisson_binomial<'a>(ps: impl Iterator<Item = &'a Q>) -> Vec<Q> {
    let mut law = vec![Q::one()];
    for p in ps {
        let q = Q::one() - p;
        let mut next = vec![Q::zero(); law.len() + 1];
        for (n, mass) in law.iter().enumerate() {
            next[n] += mass * &q;
            next[n + 1] += mass * p;
        }
        law = next;
    }
    law
}

impl OnlineAlgorithm for EpochRnm {
    fn actions(&self) -> usize {
        self.k
    }

    fn schedule(&self, horizon: usize) -> Vec<Choice> {
        dyadic_schedule(horizon)
    }

    fn choice_law<R: Real>(
        &self,
        index: usize,
        _: &Choice,
        window: &[Vec<Q>],
        ctx: &R::Context,
    ) -> Result<Vec<R>> {
        if index == 0 {
            return Ok(match self.first {
                FirstAction::One => point_mass(self.k, 0, ctx),
                FirstAction::Uniform => uniform_law(self.k, ctx),
            });
        }
        if self.resample {
            self.select_resampled(window, ctx)
        } else {
            self.select(&window_sums(window, self.k), ctx)
        }
    }

    /// One selection law, or with resampling one per outcome of the
    /// resampled sums: `∏_j (n_j + 1)`, `n_j` the losses of action `j` in the
    /// window strictly between 0 and 1 (saturating).
    fn choice_cost(&self, index: usize, _: &Choice, window: &[Vec<Q>]) -> u128 {
        if index == 0 || !self.resample {
            return 1;
        }
        (0..self.k)
            .map(|j| {
                let fractional = window
                    .iter()
                    .filter(|v| !v[j].is_zero() && !v[j].is_one())
                    .count();
                fractional as u128 + 1
            })
            .fold(1u128, u128::saturating_mul)
    }

    fn sample<G: Rng + ?Sized>(&self, losses: &[Vec<f64>], rng: &mut G) -> Vec<usize> {
        let beta = Real::to_f64(&self.scale);
        play_schedule(dyadic_schedule(losses.len()), |index, choice| {
            if index == 0 {
                return match self.first {
                    FirstAction::One => 0,
                    FirstAction::Uniform => rng.random_range(0..self.k),
                };
            }
            let mut sums = vec![0.0; self.k];
            for vector in &losses[choice.reads.start - 1..choice.reads.end - 1] {
                for (s, &l) in sums.iter_mut().zip(vector) {
                    *s += if self.resample {
                        f64::from(u8::from(rng.random_bool(l.clamp(0.0, 1.0))))
                    } else {
                        l
                    };
                }
            }
            sampler::report_noisy_max(self.noise, &sums, beta, rng)
        })
    }
}
