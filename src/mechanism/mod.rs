//! One-shot private selection: report-noisy-max on a loss vector.
//!
//! Given losses `L_1..L_K` (score `−L_i`) and a noise law `Q` of scale `β`,
//! report-noisy-max returns `argmax_i (−L_i + Z_i)` with `Z_i` i.i.d. from `Q`.
//! The three noises the papers use:
//!
//! | [`Noise`] | law of the selection | module |
//! |---|---|---|
//! | `Gumbel(β)` | softmax / exponential mechanism, `P(i) ∝ e^{−L_i/β}` (η = 1/β) | [`softmax`] |
//! | `Exp(β)` | permute-and-flip, `P(r) = p_r ∫₀¹ ∏_{s≠r}(1 − p_s x) dx`, `p_s = e^{−(L_s−L_min)/β}` | [`exponential`] |
//! | `Lap(β)` | closed-form piecewise-exponential integral | [`laplace`] |
//!
//! Every law depends on the losses only through the gaps `L_i − L_min`, and
//! through them only via the weights `e^{−(L_i − L_min)/β}` (and, for Laplace,
//! `1/β`). A [`Scale`] is given either as `β` itself or, for the exact backend,
//! as the rational weight `w = e^{−1/β}` of one unit of loss; then every weight
//! is `w^{L_i − L_min}`, rational when the gaps are integers (or when `w` has
//! the needed rational roots), and the softmax and permute-and-flip laws are
//! exact rationals (`ARCHITECTURE.md`, "Exact, then certified").

pub mod counter;
pub mod exponential;
pub mod laplace;
mod noise;
pub mod sampler;
pub mod softmax;

pub use self::noise::{check_losses, gaps, weights, Noise, Scale};

use crate::error::{Error, Result};
use crate::num::{Real, Q};

/// The exact law of report-noisy-max with `noise` of scale `scale` on
/// `losses`, in backend `R`: `law[i] = P(action i is selected)`.
///
/// ```
/// use dpdtol::mechanism::{law, Noise, Scale};
/// use dpdtol::num::{Exact, Q};
/// // Unit weight 1/2: Gumbel noise gives P(i) ∝ 2^{−L_i}.
/// let scale = Scale::unit_weight(Q::new(1.into(), 2.into())).unwrap();
/// let losses = [Q::from_integer(0.into()), Q::from_integer(1.into())];
/// let p: Vec<Exact> = law(Noise::Gumbel, &losses, &scale, &()).unwrap();
/// assert_eq!(p, vec![Q::new(2.into(), 3.into()), Q::new(1.into(), 3.into())]);
/// ```
pub fn law<R: Real>(noise: Noise, losses: &[Q], scale: &Scale, ctx: &R::Context) -> Result<Vec<R>> {
    check_losses(losses)?;
    match noise {
        Noise::Gumbel => Ok(softmax::law(&weights::<R>(losses, scale, ctx)?)),
        Noise::Exponential => Ok(exponential::law(&weights::<R>(losses, scale, ctx)?)),
        Noise::Laplace => laplace::law(losses, scale, ctx),
    }
}

/// The most trustworthy law the input allows: exact when every weight is
/// rational (and the noise is not Laplace), otherwise certified.
#[derive(Clone, Debug)]
pub enum BestLaw {
    /// The law as exact rationals.
    Exact(Vec<Q>),
    /// Enclosures of the law, computed at `precision`; `accepted` says
    /// whether every entry met the requested relative width.
    Certified {
        /// The enclosures.
        law: Vec<crate::num::Certified>,
        /// The working precision of the last attempt.
        precision: crate::num::Precision,
        /// Whether the relative width target was met.
        accepted: bool,
        /// Why the exact backend could not give the law.
        why_not_exact: String,
    },
}

/// The largest `(L_max − L_min)/β` that [`best_law`] accepts without
/// `--force`: `460 000` nats, a smallest weight of about `10^{−199775}`.
/// Below it every enclosure is computed and printed (in scientific notation,
/// with its certain digits) within seconds, and every number printed reads
/// back ([`crate::num::MAX_DECIMAL_EXPONENT`] is `2·10^5`, `e^{−460517}`);
/// beyond it writing the decimal alone costs minutes. The comparison is exact: the widest gap and the scale are
/// rationals, never formed as an f64 ratio (which overflows to NaN for a
/// scale of `10^309`).
pub const MAX_NATS: u64 = 460_000;

/// The largest `(L_max − L_min)/β` that [`best_law`] accepts even with
/// `--force`: `2^24` nats (a weight of about `10^{−7286252}`, whose decimal
/// takes integers of 24 million bits to write).
pub const MAX_FORCED_NATS: u64 = 1 << 24;

/// Without `--force`, [`best_law`] refuses a Laplace law whose closed form
/// costs more than this many multiply-adds ([`laplace::cost`], `≈ 7K²`):
/// about 40 s on one core at the precision it needs, `K ≈ 1190` distinct
/// losses. Measured (release, one core, 42 digits): `K = 200` 0.6 s at 576
/// bits, `K = 500` 3.8 s at 1024 bits, `K = 1000` 27 s at 1856 bits and
/// 660 MB (the precision grows with `K`, so the time grows faster than the
/// count).
pub const MAX_LAPLACE_WORK: f64 = 1e7;

/// The highest precision [`best_law`] raises a certified law to, `2^16`
/// bits.
pub const MAX_PRECISION: u32 = crate::num::MAX_LAW_PRECISION;

/// Without `--force`, [`best_law`] refuses a permute-and-flip law of more
/// than this many actions (its cost is `K²` multiply-adds, about 25 s at
/// `K = 10^4`; an exact law's rationals grow with `K` as well).
pub const MAX_EXPONENTIAL_ACTIONS: usize = 10_000;

/// Without `--force`, [`best_law`] gives the certified permute-and-flip law
/// instead of the exact one when `exact_cost` is above this (the exact
/// rationals' sizes grow with every gap: `K = 300` losses `0..299` at base
/// `1/2` have denominators of 45 000 bits, and the `K²` products took
/// minutes).
pub const MAX_EXACT_WORK: f64 = 2e8;

/// An estimate of the exact permute-and-flip law's cost in bit-operations,
/// from the sizes alone: `K²` products of rationals whose size is the sum
/// over actions of `gap · (bits of the base's numerator and denominator)`.
/// Zero for a [`Scale::Beta`] (its weights are not rational: no exact work).
fn exact_cost(losses: &[Q], scale: &Scale) -> f64 {
    let Scale::UnitWeight(w) = scale else {
        return 0.0;
    };
    let base_bits = (w.numer().bits() + w.denom().bits()) as f64;
    let size: f64 = gaps(losses)
        .iter()
        .map(|g| Real::to_f64(g) * base_bits)
        .sum();
    let k = losses.len() as f64;
    k * k * size
}

/// Whether the widest weight `e^{−(L_max − L_min)/β}` is below `e^{−nats}`,
/// decided exactly (a unit weight `w` through a certified enclosure of
/// `−ln w`).
fn exceeds_nats(widest: &Q, scale: &Scale, nats: u64) -> Result<bool> {
    use crate::num::{Certified, Precision};
    let nats = Q::from_integer(nats.into());
    match scale {
        Scale::Beta(beta) => Ok(widest > &(nats * beta)),
        Scale::UnitWeight(w) => {
            // ln w < 0: the smallest −ln w is minus the upper end of ln w.
            let (_, hi) = Certified::from_rational(w, &Precision(64))
                .ln()?
                .enclosure()
                .ok_or_else(|| Error::Domain("ln of the unit weight".into()))?;
            Ok(widest * (-hi) > nats)
        }
    }
}

/// What a long mechanism run may do: exceed the size limits ([`MAX_NATS`] up
/// to [`MAX_FORCED_NATS`],
/// [`MAX_LAPLACE_WORK`], [`MAX_EXPONENTIAL_ACTIONS`]), show a progress bar.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    /// Run past the limits (`--force`).
    pub force: bool,
    /// Show a progress bar on stderr after 1 s (on a terminal only).
    pub progress: bool,
}

/// The law of `noise` on `losses`, exact if possible, else certified with
/// every entry's relative width below `10^−digits` (precision raised up to
/// 2¹⁶ bits until it is). The cost is estimated from the sizes first, and a
/// run over the limits of `budget` is refused before any work, with its
/// size and the flag that forces it.
pub fn best_law(
    noise: Noise,
    losses: &[Q],
    scale: &Scale,
    digits: u32,
    budget: Budget,
) -> Result<BestLaw> {
    use crate::num::{refine_until, relative_width, Certified, Exact, Precision};
    use crate::progress::{with_progress, Task};
    check_losses(losses)?;
    crate::num::check_digits(digits)?;
    let widest = gaps(losses).into_iter().max().unwrap_or_default();
    // Six significant digits: a gap given as 1e100000 is not printed in full.
    let shown = crate::num::format_sig(&widest, 6);
    if exceeds_nats(&widest, scale, MAX_FORCED_NATS)? {
        return Err(Error::TooLarge(format!(
            "a loss gap of {shown} at this scale gives a weight below e^(-{MAX_FORCED_NATS}) (about 10^-7286252), whose decimal cannot be written in reasonable time or memory even with --force; use a larger scale or closer losses"
        )));
    }
    if !budget.force && exceeds_nats(&widest, scale, MAX_NATS)? {
        return Err(Error::TooLarge(format!(
            "a loss gap of {shown} at this scale gives a weight below e^(-{MAX_NATS}) (about 10^-199775); pass --force to compute it anyway, or use a larger scale or closer losses"
        )));
    }
    let k = losses.len();
    let start_bits = match noise {
        Noise::Laplace => {
            let work = laplace::cost(losses);
            if !budget.force && work > MAX_LAPLACE_WORK {
                return Err(Error::TooLarge(format!(
                    "the Laplace law of K = {k} losses ({} distinct) costs about {work:.1e} multiply-adds, over the limit of {MAX_LAPLACE_WORK:.1e}; pass --force to compute it anyway",
                    laplace::distinct(losses)
                )));
            }
            // A piece shorter than 2^−N scale units cancels N bits: start
            // there, and refuse at once past the precision cap (the passes
            // up to it would each divide rationals of that size, for
            // nothing).
            let short = laplace::short_piece_bits(losses, scale);
            let bits = u64::from(laplace::start_bits(losses, digits)) + short;
            if bits > u64::from(MAX_PRECISION) {
                return Err(Error::TooLarge(format!(
                    "the Laplace law of these losses has a piece of about 2^-{short} scale units (two losses that close), whose integral cancels {short} bits: about {bits} bits are needed, over the precision cap of {MAX_PRECISION}; use a smaller scale or losses further apart"
                )));
            }
            (bits as u32).div_ceil(64) * 64
        }
        Noise::Exponential | Noise::Gumbel => {
            if !budget.force && noise == Noise::Exponential && k > MAX_EXPONENTIAL_ACTIONS {
                return Err(Error::TooLarge(format!(
                    "the permute-and-flip law of K = {k} actions costs about {:.1e} multiply-adds (K²), over the limit of K = {MAX_EXPONENTIAL_ACTIONS}; pass --force to compute it anyway",
                    (k as f64) * (k as f64)
                )));
            }
            // Non-negative terms: the rounding error grows like log₂ of the
            // K² operations, so the digits plus 2·log₂ K + 32 guard bits
            // suffice from the start (no pass at a precision bound to fail).
            let guard = 2.0 * (k as f64).log2() + 32.0;
            let bits = (f64::from(digits) * std::f64::consts::LOG2_10 + guard).ceil() as u32;
            bits.div_ceil(64) * 64
        }
    };
    let exact_work = exact_cost(losses, scale);
    let why_not_exact = if noise == Noise::Laplace {
        "the Laplace law involves 1/scale beside exponentials of the losses".to_string()
    } else if !budget.force && noise == Noise::Exponential && exact_work > MAX_EXACT_WORK {
        format!(
            "the exact permute-and-flip law would cost about {exact_work:.1e} bit-operations (K² products of rationals of up to Σ gap·bits(base) bits), over the limit of {MAX_EXACT_WORK:.1e}; pass --force for the exact law"
        )
    } else {
        match law::<Exact>(noise, losses, scale, &()) {
            Ok(exact) => return Ok(BestLaw::Exact(exact)),
            Err(Error::NotRepresentable(why)) => why,
            Err(e) => return Err(e),
        }
    };
    let target = Q::new(1.into(), num_bigint::BigInt::from(10u32).pow(digits));
    let task = Task {
        name: "mechanism",
        unit: "pieces",
    };
    let pieces = laplace::distinct(losses) as u64;
    let refined = with_progress(budget.progress, task, pieces, |bar| {
        refine_until(
            Precision(start_bits),
            Precision(start_bits.max(MAX_PRECISION)),
            |bits| {
                bar.stage(&format!("{noise} noise, {} bits", bits.0));
                match noise {
                    Noise::Laplace => laplace::law_counted::<Certified>(losses, scale, &bits, bar),
                    _ => law::<Certified>(noise, losses, scale, &bits),
                }
            },
            |law| {
                law.iter().all(|p| {
                    p.enclosure()
                        .and_then(|(lo, hi)| relative_width(&lo, &hi))
                        .is_some_and(|w| w <= target)
                })
            },
        )
    })?;
    Ok(BestLaw::Certified {
        law: refined.value,
        precision: refined.precision,
        accepted: refined.accepted,
        why_not_exact,
    })
}
