//! The generic regret computation from the algorithms' own choice laws, for
//! small horizons: the reference the closed forms and the Bernoulli engine
//! are tested against.
//!
//! For a loss sequence `x`, the choices of [`OnlineAlgorithm::schedule`] are
//! independent, so
//! `Reg_T(x) = Σ_c |plays_c| · Σ_j Δ_j P_c(j | x_{reads_c})`
//! with `P_c` from [`OnlineAlgorithm::choice_law`].
//!
//! * Deterministic setting: `x` is `μ` repeated `T` times.
//! * Bernoulli setting, by brute force: by linearity of expectation each
//!   choice's expected gap is the average of `Σ_j Δ_j P_c(j | w)` over every
//!   0/1 window `w` of its `reads` rounds, weighted by
//!   `Π μ_j^{w} (1 − μ_j)^{1−w}`: `2^{K·|reads|}` windows per choice.

use super::{Instance, RegretCurve, Term};
use crate::algorithm::{OnlineAlgorithm, SequenceLaw};
use crate::error::{Error, Result};
use crate::num::{Real, Q};
use num_traits::{One, Zero};

/// The regret curve of `algorithm` on the loss sequence `losses` (rounds
/// `1..=losses.len()`), the gaps taken from `inst`.
pub fn on_losses<R: Real, A: OnlineAlgorithm>(
    algorithm: &A,
    inst: &Instance,
    losses: &[Vec<Q>],
    ctx: &R::Context,
) -> Result<RegretCurve<R>> {
    crate::algorithm::check_loss_sequence(losses, inst.k())?;
    let deltas = inst.gaps_in::<R>(ctx);
    let terms = SequenceLaw::<R>::of(algorithm, losses, ctx)?
        .choices
        .iter()
        .map(|(choice, law)| Term {
            first: choice.plays.start as u128,
            last: choice.plays.end as u128 - 1,
            gap: gap_of(&deltas, law, ctx),
        })
        .collect();
    Ok(RegretCurve { terms })
}

fn gap_of<R: Real>(deltas: &[R], law: &[R], ctx: &R::Context) -> R {
    deltas
        .iter()
        .zip(law)
        .fold(R::from_int(0, ctx), |acc, (d, p)| acc.mul_add(d, p))
}

/// An error unless the horizon `T ≥ 1`.
fn check_horizon(horizon: usize) -> Result<()> {
    if horizon == 0 {
        return Err(Error::InvalidInput(
            "the horizon T must be at least 1".into(),
        ));
    }
    Ok(())
}

/// The deterministic-setting regret curve of `algorithm` at horizon `T`,
/// from its choice laws on `μ` repeated `T` times.
pub fn deterministic<R: Real, A: OnlineAlgorithm>(
    algorithm: &A,
    inst: &Instance,
    horizon: usize,
    ctx: &R::Context,
) -> Result<RegretCurve<R>> {
    check_horizon(horizon)?;
    let losses = vec![inst.means().to_vec(); horizon];
    on_losses(algorithm, inst, &losses, ctx)
}

/// The largest number of 0/1 windows [`bernoulli_brute_force`] enumerates
/// for one choice.
pub const MAX_WINDOWS: u32 = 22;

/// The Bernoulli-setting regret curve of `algorithm` at horizon `T`, by
/// brute force over every 0/1 window of every choice (an error when a
/// choice reads more than 22 bits of losses, `K·|reads| > 22`).
pub fn bernoulli_brute_force<R: Real, A: OnlineAlgorithm>(
    algorithm: &A,
    inst: &Instance,
    horizon: usize,
    ctx: &R::Context,
) -> Result<RegretCurve<R>> {
    check_horizon(horizon)?;
    let k = inst.k();
    let deltas = inst.gaps_in::<R>(ctx);
    let terms = algorithm
        .schedule(horizon)
        .into_iter()
        .enumerate()
        .map(|(i, choice)| {
            let rounds = choice.reads.len();
            let bits = (rounds * k) as u32;
            if bits > MAX_WINDOWS {
                return Err(Error::TooLarge(format!(
                    "brute force over 2^{bits} windows for the choice of rounds {} to {}",
                    choice.plays.start,
                    choice.plays.end.saturating_sub(1)
                )));
            }
            let mut gap = R::from_int(0, ctx);
            for code in 0u64..1 << bits {
                let mut weight = Q::one();
                let window: Vec<Vec<Q>> = (0..rounds)
                    .map(|t| {
                        (0..k)
                            .map(|j| {
                                let bit = (code >> (t * k + j)) & 1 == 1;
                                let mu = &inst.means()[j];
                                if bit {
                                    weight *= mu;
                                    Q::one()
                                } else {
                                    weight *= Q::one() - mu;
                                    Q::zero()
                                }
                            })
                            .collect()
                    })
                    .collect();
                if weight.is_zero() {
                    continue;
                }
                let law = algorithm.choice_law::<R>(i, &choice, &window, ctx)?;
                gap = gap.mul_add(&R::from_rational(&weight, ctx), &gap_of(&deltas, &law, ctx));
            }
            Ok(Term {
                first: choice.plays.start as u128,
                last: choice.plays.end as u128 - 1,
                gap,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(RegretCurve { terms })
}
