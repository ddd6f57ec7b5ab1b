//! `prefix-softmax`: the randomized-prefix softmax of Cesari & Colomboni §4
//! (003, lines 133–159), as printed:
//!
//! > Fix ε > 0 and set η = min{ε/2, 1/8}. […] B_r = {2^r, …, 2^{r+1} − 1}.
//! > The algorithm plays one action throughout each block. […] A_0 uniform on
//! > [K]. After block B_r has been observed, the algorithm samples the action
//! > A_{r+1} used in the next block. For r = 0, set M_0 = 1. For r ≥ 1, the
//! > learner samples M_r ~ Unif{2^{r−1}+1, …, 2^r} […]
//! > P(A_{r+1} = j | M_r, X^{(r,1)}, …, X^{(r,M_r)}) ∝ exp(−η L_{r,j}(M_r)),
//! > L_{r,j}(m) = Σ_{s=1}^{m} X^{(r,s)}_j.
//!
//! So `A_{r+1}` reads the first `M_r` rounds of block `B_r`, and its law is
//! the average over `M_r` of the softmax at inverse temperature η — exactly,
//! as a finite mixture. `--noise-scale` overrides the temperature `1/η`
//! (the scale of the equivalent Gumbel noise). Cesari & Colomboni prove the
//! one-block map is 2η-DP (Lemma 3), hence ε-DP (Proposition 1).

use super::{dyadic_schedule, play_schedule, uniform_law, window_sums, Choice, OnlineAlgorithm};
use crate::error::Result;
use crate::mechanism::{self, sampler, Noise, Scale};
use crate::num::{Real, Q};
use rand::Rng;

/// The randomized-prefix softmax on K actions.
#[derive(Clone, Debug)]
pub struct PrefixSoftmax {
    k: usize,
    /// The temperature 1/η (the Gumbel scale).
    temperature: Q,
}

impl PrefixSoftmax {
    /// The algorithm with `η = min{ε/2, 1/8}`, or with temperature
    /// `noise_scale` when given.
    pub fn new(k: usize, epsilon: &Q, noise_scale: Option<Q>) -> Result<PrefixSoftmax> {
        let eta = (epsilon / Q::from_integer(2.into())).min(Q::new(1.into(), 8.into()));
        let temperature = noise_scale.unwrap_or_else(|| eta.recip());
        Scale::beta(temperature.clone())?;
        Ok(PrefixSoftmax { k, temperature })
    }

    /// The inverse temperature η in use.
    pub fn eta(&self) -> Q {
        self.temperature.recip()
    }

    /// The prefix lengths `M_r` can take after block `r`: `{1}` for `r = 0`,
    /// `{2^{r−1}+1, …, 2^r}` for `r ≥ 1`, each equally likely.
    pub fn prefix_lengths(block: usize) -> std::ops::RangeInclusive<usize> {
        if block == 0 {
            1..=1
        } else {
            (1 << (block - 1)) + 1..=1 << block
        }
    }
}

impl OnlineAlgorithm for PrefixSoftmax {
    fn actions(&self) -> usize {
        self.k
    }

    fn schedule(&self, horizon: usize) -> Vec<Choice> {
        dyadic_schedule(horizon)
    }

    /// Choice 0 is `A_0`, uniform; choice `b ≥ 1` is `A_b`, the average over
    /// `M_{b−1}` of the softmax of the prefix sums of block `B_{b−1}`.
    fn choice_law<R: Real>(
        &self,
        index: usize,
        _: &Choice,
        window: &[Vec<Q>],
        ctx: &R::Context,
    ) -> Result<Vec<R>> {
        if index == 0 {
            return Ok(uniform_law(self.k, ctx));
        }
        let lengths = Self::prefix_lengths(index - 1);
        let share = R::from_rational(&Q::new(1.into(), lengths.clone().count().into()), ctx);
        let scale = Scale::Beta(self.temperature.clone());
        let mut mixture = vec![R::from_int(0, ctx); self.k];
        for m in lengths {
            let prefix_law = mechanism::law::<R>(
                Noise::Gumbel,
                &window_sums(&window[..m], self.k),
                &scale,
                ctx,
            )?;
            for (total, p) in mixture.iter_mut().zip(prefix_law) {
                *total = total.clone().mul_add(&share, &p);
            }
        }
        Ok(mixture)
    }

    /// The mixture over `M_{b−1}` evaluates one softmax per prefix length.
    fn choice_cost(&self, index: usize, _: &Choice, _: &[Vec<Q>]) -> u128 {
        match index {
            0 => 1,
            b => Self::prefix_lengths(b - 1).count() as u128,
        }
    }

    fn sample<G: Rng + ?Sized>(&self, losses: &[Vec<f64>], rng: &mut G) -> Vec<usize> {
        let temperature = Real::to_f64(&self.temperature);
        play_schedule(dyadic_schedule(losses.len()), |index, choice| {
            if index == 0 {
                return rng.random_range(0..self.k);
            }
            let m = rng.random_range(Self::prefix_lengths(index - 1));
            let start = choice.reads.start - 1;
            let mut sums = vec![0.0; self.k];
            for vector in &losses[start..start + m] {
                for (s, l) in sums.iter_mut().zip(vector) {
                    *s += l;
                }
            }
            sampler::report_noisy_max(Noise::Gumbel, &sums, temperature, rng)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::Zero;

    #[test]
    fn prefix_lengths_as_printed() {
        assert_eq!(PrefixSoftmax::prefix_lengths(0), 1..=1);
        assert_eq!(PrefixSoftmax::prefix_lengths(1), 2..=2);
        assert_eq!(PrefixSoftmax::prefix_lengths(2), 3..=4);
        assert_eq!(PrefixSoftmax::prefix_lengths(3), 5..=8);
    }

    #[test]
    fn eta_default_is_min_of_half_epsilon_and_one_eighth() {
        let q = |n: i64, d: i64| Q::new(n.into(), d.into());
        assert_eq!(
            PrefixSoftmax::new(2, &q(1, 1), None).unwrap().eta(),
            q(1, 8)
        );
        assert_eq!(
            PrefixSoftmax::new(2, &q(1, 10), None).unwrap().eta(),
            q(1, 20)
        );
        assert!(
            Q::zero()
                < PrefixSoftmax::new(2, &q(1, 10), Some(q(3, 1)))
                    .unwrap()
                    .eta()
        );
    }
}
