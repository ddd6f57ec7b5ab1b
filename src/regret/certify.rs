//! The pseudo-regret of one algorithm on one instance to a requested number
//! of certain digits, with the papers' bounds beside it.
//!
//! FTL's regret is exact (the Bernoulli engine only while its growing
//! rationals are affordable, [`bernoulli::exact_ftl_cost`]); every other
//! regret is certified: the precision is raised from 256 bits (192 for an
//! enumeration, redone at each precision) until the enclosure of `Reg_T` has
//! the requested digits and every bound's comparison with it is decided, or
//! until more bits cannot help — and then the report says why.

use super::bounds::{Evaluation, Evaluator};
use super::{bernoulli, Instance, Plan, RegretCurve, Round, Setting, Term};
use crate::algorithm::Config;
use crate::error::Result;
use crate::num::{relative_width, Certified, Exact, Precision, Real, Q};
use num_bigint::BigInt;
use num_traits::One;

/// The starting precision of a certified regret that does not enumerate,
/// and of the curve of an exact one.
const START_BITS: u32 = 256;
/// The precision cap of a certified regret that does not enumerate.
const MAX_BITS: u32 = 2048;
/// The starting precision of an enumeration (its rounding errors add up to
/// far below 1e-32 of the regret) and its cap.
const ENUMERATION_BITS: (u32, u32) = (192, 384);

/// The regret of one algorithm: its curve (exact or certified), a certified
/// copy of the total, and the bounds evaluated at the horizon.
pub struct CertifiedRegret {
    /// The algorithm.
    pub config: Config,
    /// The exact curve, when the regret is exact.
    pub exact: Option<RegretCurve<Exact>>,
    /// The curve at the precision reached (the exact one converted).
    pub curve: RegretCurve<Certified>,
    /// `Reg_T`, certified.
    pub total: Certified,
    /// The precision reached; `None` for an exact regret.
    pub precision: Option<Precision>,
    /// Whether every requested digit is certain and every bound decided.
    pub accepted: bool,
    /// Why the requested digits are not all certain (`None` when they are).
    pub why_uncertain: Option<String>,
    /// The bounds at the horizon (`None` when they were not asked for).
    pub evaluation: Option<Evaluation<Certified>>,
    /// The evaluator of the bounds, for other horizons.
    pub evaluator: Option<Evaluator<Certified>>,
}

/// The most significant digits of a regret [`certify`] is asked for: the
/// precision stops at 2048 bits (about 616 digits), and 300 leave room for
/// the guard digits and the bounds' comparisons.
pub const MAX_DIGITS: u32 = 300;

/// Whether an enclosure is tight enough for `digits` certain digits:
/// relative width ≤ 10^−(digits+2), or an absolute width ≤ 1e-60 (for a
/// regret of 0).
fn tight(x: &Certified, digits: u32) -> bool {
    let Some((lo, hi)) = x.enclosure() else {
        return false;
    };
    if &hi - &lo <= Q::new(BigInt::one(), BigInt::from(10u32).pow(60)) {
        return true;
    }
    relative_width(&lo, &hi)
        .is_some_and(|w| w <= Q::new(BigInt::one(), BigInt::from(10u32).pow(digits + 2)))
}

/// The regret of `config` on `inst` over `horizon` rounds to `digits`
/// certain digits, with the bounds when `with_bounds`; `limit` caps a
/// Bernoulli enumeration ([`bernoulli::DEFAULT_LIMIT`], `None` to force it).
/// `digits` lies in `1..=`[`MAX_DIGITS`].
pub fn certify(
    config: &Config,
    inst: &Instance,
    setting: Setting,
    horizon: Round,
    limit: Option<u128>,
    with_bounds: bool,
    digits: u32,
) -> Result<CertifiedRegret> {
    if !(1..=MAX_DIGITS).contains(&digits) {
        return Err(crate::error::Error::InvalidInput(format!(
            "--digits expects an integer in 1..={MAX_DIGITS}, got {digits}"
        )));
    }
    let plan = Plan::of(config)?;
    let exact = if plan == Plan::Ftl
        && (setting == Setting::Deterministic
            || bernoulli::exact_ftl_cost(inst, horizon) <= bernoulli::MAX_EXACT_FTL_WORK)
    {
        Some(super::regret::<Exact>(
            &plan,
            inst,
            setting,
            horizon,
            &(),
            limit,
        )?)
    } else {
        None
    };
    let enumerates = setting == Setting::Bernoulli || config.resample;
    let (mut bits, cap) = if enumerates {
        ENUMERATION_BITS
    } else {
        (START_BITS, MAX_BITS)
    };
    let mut previous_width: Option<Q> = None;
    let task = crate::progress::Task {
        name: "regret",
        unit: "blocks",
    };
    crate::progress::with_progress(true, task, 1, |bar| loop {
        bar.stage(&format!("{} bits", bits));
        let ctx = Precision(bits);
        let curve: RegretCurve<Certified> = match &exact {
            Some(e) => RegretCurve {
                terms: e
                    .terms
                    .iter()
                    .map(|t| Term {
                        first: t.first,
                        last: t.last,
                        gap: Certified::from_rational(&t.gap, &ctx),
                    })
                    .collect(),
            },
            None => {
                super::regret_counted::<Certified>(&plan, inst, setting, horizon, &ctx, limit, bar)?
            }
        };
        let total = match &exact {
            Some(e) => Certified::from_rational(&e.total(&()), &ctx),
            None => curve.total(&ctx),
        };
        let (evaluator, evaluation) = if with_bounds {
            let evaluator =
                Evaluator::<Certified>::new(config, inst, setting, horizon, &ctx, limit)?;
            let evaluation = evaluator.at(horizon, &curve)?;
            (Some(evaluator), Some(evaluation))
        } else {
            (None, None)
        };
        // A row left undecided by an enclosure wider than rounding (the
        // enclosed tail of CC Lemma 4–5's Σ F_m in the Bernoulli setting)
        // stays undecided at any precision: it does not ask for more bits.
        let decided = evaluation.as_ref().is_none_or(|e| {
            e.bounds.iter().all(|b| {
                b.holds(&total).is_some()
                    || !tight(&b.value, digits)
                    || b.quantity.as_ref().is_some_and(|(_, v)| !tight(v, digits))
            })
        });
        let accepted = (exact.is_some() || tight(&total, digits)) && decided;
        // More precision only helps when rounding limits the width: stop when
        // doubling it did not shrink the enclosure (the prefix-softmax
        // integral enclosure, an undecided bound at the limit of its own
        // accuracy).
        let width = total.enclosure().map(|(lo, hi)| hi - lo);
        let stalled = match (&previous_width, &width) {
            (Some(before), Some(now)) => now * Q::from_integer(1024.into()) > *before,
            _ => false,
        };
        previous_width = width;
        if accepted || stalled || bits >= cap {
            let why_uncertain = (!accepted).then(|| {
                if !decided {
                    "a bound's comparison with the regret is not decided at the precision reached".to_string()
                } else if stalled {
                    format!("the enclosure stopped shrinking when the precision was doubled to {bits} bits: its width comes from an integral bound of the closed form, not from rounding, and more bits do not shrink it")
                } else {
                    format!("the precision cap of {cap} bits was reached")
                }
            });
            return Ok(CertifiedRegret {
                why_uncertain,
                config: config.clone(),
                precision: exact.is_none().then_some(ctx),
                exact,
                curve,
                total,
                accepted,
                evaluation,
                evaluator,
            });
        }
        bits *= 2;
    })
}

impl CertifiedRegret {
    /// `Reg_t` at every epoch boundary `2^b − 1 < T` and at `T`, at the
    /// precision reached ([`RegretCurve::boundaries`]).
    pub fn boundaries(&self) -> Vec<(Round, Certified)> {
        let ctx = self.precision.unwrap_or(Precision(START_BITS));
        self.curve.boundaries(&ctx)
    }
}
