//! The numeric trait [`Real`] and its backends.
//!
//! Every law, ratio and regret in this crate is written once, generically over
//! [`Real`], and run on several backends that must agree:
//!
//! | backend | type | [`Kind`] |
//! |---|---|---|
//! | IEEE double | `f64` | [`Kind::Approximate`] — simulation and quick looks only |
//! | exact rational | [`Exact`] (`num_rational::BigRational`) | [`Kind::Exact`] |
//! | certified interval, pure Rust | [`Certified`] = [`Interval<DashuFloat>`] | [`Kind::Certified`] |
//! | MPFR interval, feature `mpfr` | `Interval<MpfrFloat>` | [`Kind::Certified`] |
//! | GMP rational, feature `mpfr` | `rug::Rational` | [`Kind::Exact`] |
//!
//! An exact backend is never asked for a transcendental it cannot represent:
//! [`Real::exp`] and [`Real::ln`] return [`Error::NotRepresentable`] there, and
//! the laws keep to the rational-base idea (weights `w^n` with `w` rational,
//! see [`Real::pow_rational`]; `ARCHITECTURE.md`, "Exact, then certified").

mod dashu;
mod decimal;
mod exact;
mod float;
pub mod given;
mod interval;
mod list_file;
#[cfg(feature = "mpfr")]
mod mpfr;
mod parse;
mod poly;
mod refine;

pub use self::dashu::DashuFloat;
pub use self::decimal::{
    certain_digits, exact_text, format_brief, format_certain, format_sig, format_sig_directed,
};
pub use self::exact::{rational_root, Exact};
pub use self::interval::{Dir, Endpoint, Interval, Precision};
pub use self::list_file::{read_bounded, read_rational_file, MAX_LIST_FILE_BYTES};
#[cfg(feature = "mpfr")]
pub use self::mpfr::{MpfrFloat, MPFR_EXP_REACH};
pub use self::parse::{
    parse_power_count, parse_rational, parse_rational_list, MAX_DECIMAL_EXPONENT,
    MAX_MANTISSA_DIGITS,
};
pub use self::poly::ExpRational;
pub use self::refine::{check_digits, refine_until, Refined, MAX_DIGITS, MAX_LAW_PRECISION};

use crate::error::{Error, Result};
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::cmp::Ordering;
use std::fmt::Debug;
use std::ops::{Add, Div, Mul, Neg, Sub};

/// A rational number: the type of every value a user gives (losses, scales, ε).
pub type Q = BigRational;

/// The largest exact power [`Real::pow_rational`] builds, in bits of
/// numerator or denominator; beyond it exact backends decline and callers
/// fall back to a certified backend.
pub const MAX_EXACT_POWER_BITS: u64 = 1 << 22;

/// The certified interval backend in pure Rust (dashu-float endpoints).
pub type Certified = Interval<DashuFloat>;

/// How much a backend's numbers can be trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Floating point with round-to-nearest: no guarantee on the error.
    Approximate,
    /// The value itself, as a rational number.
    Exact,
    /// An interval that provably contains the true value.
    Certified,
}

impl Kind {
    /// The label printed beside a number of this kind.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Approximate => "approximate",
            Kind::Exact => "exact",
            Kind::Certified => "certified",
        }
    }
}

/// A real-number backend.
///
/// The arithmetic operators are those of the backend: exact for [`Kind::Exact`],
/// outward-rounded (the result interval contains every exact result of operands
/// drawn from the argument intervals) for [`Kind::Certified`], and IEEE
/// round-to-nearest for [`Kind::Approximate`]. Division by a value that is, or
/// may be, zero is a precondition violation, as for the integers: the laws of
/// this crate only divide by sums of weights bounded away from zero.
pub trait Real:
    Clone
    + Debug
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + for<'a> Add<&'a Self, Output = Self>
    + for<'a> Sub<&'a Self, Output = Self>
    + for<'a> Mul<&'a Self, Output = Self>
    + for<'a> Div<&'a Self, Output = Self>
{
    /// What the backend needs to build a number from a rational: the working
    /// precision for floating backends, nothing for exact ones.
    type Context: Clone + Debug + Send + Sync;

    /// How far the backend's numbers can be trusted.
    const KIND: Kind;

    /// The rational `q`: exactly for exact backends, as the tightest enclosure
    /// at the context's precision for certified ones, rounded to nearest for f64.
    fn from_rational(q: &Q, ctx: &Self::Context) -> Self;

    /// The integer `n`, as [`Real::from_rational`] would give it.
    fn from_int(n: i64, ctx: &Self::Context) -> Self {
        Self::from_rational(&Q::from_integer(n.into()), ctx)
    }

    /// The context `self` was built with (for intervals: its precision), so
    /// that constants can be made to match an operand.
    fn context(&self) -> Self::Context;

    /// `e^self`. Certified backends return an enclosure of the exponential of
    /// every point of the interval; exact backends return
    /// [`Error::NotRepresentable`] unless `self` is zero.
    fn exp(&self) -> Result<Self>;

    /// The natural logarithm. [`Error::Domain`] when `self` is not (certainly)
    /// positive; exact backends return [`Error::NotRepresentable`] unless `self`
    /// is one.
    fn ln(&self) -> Result<Self>;

    /// Rational bounds `(lo, hi)` with `lo ≤ value ≤ hi`: equal for exact
    /// backends, the interval's ends for certified ones, and for f64 the value
    /// itself twice (the [`Kind`] says it is approximate). `None` for a
    /// non-finite f64.
    fn enclosure(&self) -> Option<(Q, Q)>;

    /// The order of `self` and `other` when the backend can prove it; `None`
    /// when two intervals overlap (and are not the same single point).
    fn cmp_certain(&self, other: &Self) -> Option<Ordering>;

    /// The nearest double to the value (the midpoint for intervals).
    fn to_f64(&self) -> f64;

    /// `self + a·b`. Certified backends may round once instead of twice; the
    /// result is the same enclosure guarantee as the two operations.
    fn mul_add(self, a: &Self, b: &Self) -> Self {
        self + a.clone() * b
    }

    /// `self^n` by repeated squaring.
    fn pow_u64(&self, n: u64) -> Self {
        let mut result: Option<Self> = None;
        let mut base = self.clone();
        let mut n = n;
        while n > 0 {
            if n & 1 == 1 {
                result = Some(match result {
                    None => base.clone(),
                    Some(r) => r * &base,
                });
            }
            n >>= 1;
            if n > 0 {
                base = base.clone() * &base;
            }
        }
        result.unwrap_or_else(|| Self::from_int(1, &self.context()))
    }

    /// `base^exponent` for a positive rational base and a rational exponent.
    ///
    /// Exact when the result is rational — an integer exponent, or a base whose
    /// numerator and denominator are perfect powers (`(4/9)^{1/2} = 2/3`);
    /// otherwise `exp(exponent · ln base)` in the backend, which an exact
    /// backend refuses with [`Error::NotRepresentable`].
    fn pow_rational(base: &Q, exponent: &Q, ctx: &Self::Context) -> Result<Self> {
        if !base.is_positive() {
            return Err(Error::Domain(format!(
                "{base}^{exponent} needs a positive base"
            )));
        }
        if let Some(root) = rational_root(base, exponent.denom()) {
            let n = exponent.numer();
            let magnitude: u64 = n.abs().try_into().map_err(|_| {
                Error::TooLarge(format!("exponent {exponent} of {base} is too large"))
            })?;
            let bits = root.numer().bits().max(root.denom().bits());
            if Self::KIND == Kind::Exact && magnitude.saturating_mul(bits) > MAX_EXACT_POWER_BITS {
                return Err(Error::NotRepresentable(format!(
                    "({base})^({exponent}) has about {} bits, over the exact limit of {MAX_EXACT_POWER_BITS}",
                    magnitude.saturating_mul(bits)
                )));
            }
            let power = Self::from_rational(&root, ctx).pow_u64(magnitude);
            return Ok(if n.is_negative() {
                Self::from_int(1, ctx) / power
            } else {
                power
            });
        }
        if Self::KIND == Kind::Exact {
            return Err(Error::NotRepresentable(format!(
                "({base})^({exponent}) is irrational; give losses whose gaps are integers, or a base with rational roots"
            )));
        }
        let log = Self::from_rational(base, ctx).ln()?;
        (Self::from_rational(exponent, ctx) * log).exp()
    }

    /// Whether the value is certainly zero.
    fn is_zero_certain(&self) -> bool {
        matches!(self.enclosure(), Some((lo, hi)) if lo.is_zero() && hi.is_zero())
    }
}

/// The sum of an iterator of backend values (`None` when it is empty).
pub fn sum<R: Real>(values: impl IntoIterator<Item = R>) -> Option<R> {
    values.into_iter().reduce(|a, b| a + b)
}

/// The relative width `(hi − lo) / min(|lo|, |hi|)` of an enclosure, or `None`
/// when it straddles zero with a non-zero width (zero width counts as zero).
pub fn relative_width(lo: &Q, hi: &Q) -> Option<Q> {
    let width = hi - lo;
    if width.is_zero() {
        return Some(Q::zero());
    }
    if lo.is_positive() {
        Some(width / lo)
    } else if hi.is_negative() {
        Some(width / -hi)
    } else {
        None
    }
}
