//! The GMP/MPFR backends (cargo feature `mpfr`, through the `rug` crate):
//!
//! - [`MpfrFloat`], an interval [`Endpoint`] of MPFR binary floats, so that
//!   [`Interval<MpfrFloat>`](super::Interval) is a certified interval backend
//!   that cross-checks the pure-Rust [`Certified`](super::Certified) one;
//! - `impl Real for rug::Rational`, an exact backend that cross-checks
//!   [`Exact`](super::Exact) (`num_rational::BigRational`).
//!
//! MPFR computes every operation it offers — `+ − × ÷`, the fused
//! multiply-add, `exp` and `ln` included — *correctly rounded* in the
//! requested direction: the result is the representable number next to the
//! exact real result on the requested side (MPFR manual, §4.2 "Rounding";
//! Fousse, Hanrot, Lefèvre, Pélissier & Zimmermann, *ACM TOMS* 33(2), 2007).
//! That is the [`Endpoint`] contract, with [`Dir::Down`] as MPFR's `RNDD`
//! (toward −∞) and [`Dir::Up`] as `RNDU` (toward +∞).
//!
//! The conversions between [`Q`] (`num_rational::BigRational`) and
//! `rug::Rational` ([`to_rug`], [`from_rug`]) are exact: they copy the limbs
//! of the numerator and the denominator.

use super::interval::{Dir, Endpoint};
use super::{Kind, Real, Q};
use crate::error::{Error, Result};
use num_bigint::{BigInt, BigUint, Sign};
use rug::float::Round;
use rug::integer::Order;
use rug::{Float, Integer, Rational};
use std::cmp::Ordering;
use std::fmt;

/// `n` as a GMP integer, exactly.
fn int_to_rug(n: &BigInt) -> Integer {
    let (sign, digits) = n.to_u32_digits();
    let magnitude = Integer::from_digits(&digits, Order::Lsf);
    if sign == Sign::Minus {
        -magnitude
    } else {
        magnitude
    }
}

/// `n` as a num-bigint integer, exactly.
fn int_from_rug(n: &Integer) -> BigInt {
    let magnitude = BigUint::new(n.to_digits::<u32>(Order::Lsf));
    let sign = if n.is_negative() {
        Sign::Minus
    } else {
        Sign::Plus
    };
    BigInt::from_biguint(sign, magnitude)
}

/// The rational `q` as a `rug::Rational`, exactly.
///
/// ```
/// use dpdtol::num::{Real, Q};
/// // The `Real` constructor of `rug::Rational` is this conversion.
/// let q = Q::new((-22).into(), 7.into());
/// let r = <rug::Rational as Real>::from_rational(&q, &());
/// assert_eq!(r, rug::Rational::from((-22, 7)));
/// ```
pub fn to_rug(q: &Q) -> Rational {
    // `Q` is canonical (positive denominator, no common factor) and so the
    // pair is too; `Rational::from` checks it again.
    Rational::from((int_to_rug(q.numer()), int_to_rug(q.denom())))
}

/// The `rug::Rational` `r` as a [`Q`], exactly.
pub fn from_rug(r: &Rational) -> Q {
    // GMP keeps rationals canonical, as `Q::new_raw` requires.
    Q::new_raw(int_from_rug(r.numer()), int_from_rug(r.denom()))
}

fn round(dir: Dir) -> Round {
    match dir {
        Dir::Down => Round::Down,
        Dir::Up => Round::Up,
    }
}

/// A precision MPFR accepts: at least `prec_min()` (1 bit), at most `prec_max()`.
fn clamp_precision(bits: u32) -> u32 {
    bits.clamp(rug::float::prec_min(), rug::float::prec_max())
}

/// An MPFR binary float with its own precision, used as an interval end.
///
/// Every operation of the [`Endpoint`] trait is one MPFR call, correctly
/// rounded toward −∞ ([`Dir::Down`]) or +∞ ([`Dir::Up`]) to the larger
/// precision of its operands: `add`, `sub`, `mul`, `div`, `mul_add` (MPFR's
/// `fma`, a single rounding of the exact `self + a·b`), `exp` and `ln`.
/// [`Endpoint::to_rational`] is the exact value.
///
/// ```
/// use dpdtol::num::{Interval, MpfrFloat, Precision, Real, Q};
/// let one = Interval::<MpfrFloat>::from_int(1, &Precision(128));
/// let (lo, hi) = one.exp().unwrap().enclosure().unwrap();
/// // e = 2.71828182845904523536…
/// let e_lo = Q::new(271828182845904523536u128.into(), 100000000000000000000u128.into());
/// let e_hi = Q::new(271828182845904523537u128.into(), 100000000000000000000u128.into());
/// assert!(e_lo <= lo && lo < hi && hi <= e_hi);
/// ```
#[derive(Clone)]
pub struct MpfrFloat(Float);

/// The largest binary exponent, in magnitude, of a result of
/// [`MpfrFloat::exp`]: `2^27`, an eighth of MPFR's exponent range
/// (`±(2^30 − 1)`; the pure-Rust [`DashuFloat`](super::DashuFloat) reaches
/// `±2^62`). Past it `exp` is refused with an error, so that a product or
/// quotient of up to eight of its results stays inside MPFR's range, where
/// every operation rounds in the requested direction (an underflow to 0 or
/// to the least positive float: outward).
pub const MPFR_EXP_REACH: i32 = 1 << 27;

impl MpfrFloat {
    /// The value of an MPFR result. An underflow is already rounded
    /// outward by MPFR (to 0 on the side of zero, else to the least float
    /// of that sign); an overflow cannot be: the magnitudes that enter
    /// arithmetic are rationals of bounded size and results of `exp`,
    /// bounded by [`MPFR_EXP_REACH`], so a non-finite result is a bug, not an
    /// input error.
    fn finite(value: Float) -> Self {
        assert!(
            value.is_finite(),
            "binary exponent out of range in interval arithmetic"
        );
        MpfrFloat(value)
    }

    /// The MPFR float inside.
    pub fn as_float(&self) -> &Float {
        &self.0
    }
}

impl fmt::Debug for MpfrFloat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", super::format_sig(&self.to_rational(), 12))
    }
}

impl Endpoint for MpfrFloat {
    /// `q` correctly rounded in direction `dir` to `bits` bits (at least 1).
    fn from_rational(q: &Q, bits: u32, dir: Dir) -> Self {
        let (value, _) = Float::with_val_round(clamp_precision(bits), &to_rug(q), round(dir));
        Self::finite(value)
    }

    /// The exact value: MPFR's integer significand times a power of two.
    fn to_rational(&self) -> Q {
        let Some((significand, exponent)) = self.0.to_integer_exp() else {
            unreachable!("an MpfrFloat is always finite");
        };
        let significand = int_from_rug(&significand);
        let power = BigInt::from(1) << exponent.unsigned_abs();
        if exponent >= 0 {
            Q::from_integer(significand * power)
        } else {
            Q::new(significand, power)
        }
    }

    fn precision(&self) -> u32 {
        self.0.prec()
    }

    /// `self + rhs`, correctly rounded in direction `dir`.
    fn add(&self, rhs: &Self, dir: Dir) -> Self {
        let prec = self.0.prec().max(rhs.0.prec());
        Self::finite(Float::with_val_round(prec, &self.0 + &rhs.0, round(dir)).0)
    }

    /// `self − rhs`, correctly rounded in direction `dir`.
    fn sub(&self, rhs: &Self, dir: Dir) -> Self {
        let prec = self.0.prec().max(rhs.0.prec());
        Self::finite(Float::with_val_round(prec, &self.0 - &rhs.0, round(dir)).0)
    }

    /// `self + a·b` with a single correct rounding in direction `dir`
    /// (`mpfr_fma`), at the largest of the three precisions.
    fn mul_add(&self, a: &Self, b: &Self, dir: Dir) -> Self {
        let prec = self.0.prec().max(a.0.prec()).max(b.0.prec());
        Self::finite(Float::with_val_round(prec, a.0.mul_add_ref(&b.0, &self.0), round(dir)).0)
    }

    /// `self × rhs`, correctly rounded in direction `dir`.
    fn mul(&self, rhs: &Self, dir: Dir) -> Self {
        let prec = self.0.prec().max(rhs.0.prec());
        Self::finite(Float::with_val_round(prec, &self.0 * &rhs.0, round(dir)).0)
    }

    /// `self ÷ rhs`, correctly rounded in direction `dir`; `rhs ≠ 0`.
    fn div(&self, rhs: &Self, dir: Dir) -> Self {
        let prec = self.0.prec().max(rhs.0.prec());
        Self::finite(Float::with_val_round(prec, &self.0 / &rhs.0, round(dir)).0)
    }

    /// `e^self`, correctly rounded in direction `dir` at the precision of
    /// `self`. [`Error::TooLarge`] when `e^self` lies beyond `2^(±`
    /// [`MPFR_EXP_REACH`]`)`, that is `|self|` above about `9.3·10^7`: further
    /// (an overflow of MPFR's range, `+∞`; or a weight so small that a
    /// product of a few underflows to 0 and a quotient by it overflows) the
    /// backend could not enclose what is computed from it.
    fn exp(&self, dir: Dir) -> Result<Self> {
        let (value, _) = Float::with_val_round(self.0.prec(), self.0.exp_ref(), round(dir));
        // `get_exp` is `None` for 0 (an underflow: e^x is never 0) and ±∞
        // (an overflow).
        match value.get_exp() {
            Some(exponent) if exponent.unsigned_abs() <= MPFR_EXP_REACH.unsigned_abs() => {
                Ok(MpfrFloat(value))
            }
            _ => Err(Error::TooLarge(format!(
                "e^({self:?}) lies beyond 2^(±2^27), the reach of the MPFR backend's exp (the pure-Rust certified backend reaches 2^(±2^62))"
            ))),
        }
    }

    /// `ln self`, correctly rounded in direction `dir` at the precision of
    /// `self`; [`Error::Domain`] unless `self > 0`.
    fn ln(&self, dir: Dir) -> Result<Self> {
        if self.signum() != Ordering::Greater {
            return Err(Error::Domain(format!("ln({self:?})")));
        }
        let (value, _) = Float::with_val_round(self.0.prec(), self.0.ln_ref(), round(dir));
        Ok(Self::finite(value))
    }

    /// `−self`, exact (same precision).
    fn neg(&self) -> Self {
        MpfrFloat(-self.0.clone())
    }

    /// The sign; `−0` and `+0` are both [`Ordering::Equal`].
    fn signum(&self) -> Ordering {
        self.0.cmp0().unwrap_or(Ordering::Equal)
    }

    /// The numerical order (`−0 = +0`, unlike `Float::total_cmp`).
    fn total_cmp(&self, other: &Self) -> Ordering {
        self.0.partial_cmp(&other.0).unwrap_or(Ordering::Equal)
    }

    /// The nearest double.
    fn to_f64(&self) -> f64 {
        self.0.to_f64()
    }
}

/// The exact backend of GMP: `rug::Rational`, [`Kind::Exact`].
///
/// Every operation is exact; conversions from and to [`Q`] are exact; `exp`
/// and `ln` are refused with [`Error::NotRepresentable`] except for the
/// trivially rational `exp(0) = 1` and `ln(1) = 0`, as for
/// [`Exact`](super::Exact).
///
/// ```
/// use dpdtol::num::{Real, Q};
/// use rug::Rational;
/// let third = Rational::from((1, 3));
/// assert_eq!(third.clone() + &third * Rational::from(2), 1);
/// assert!(third.exp().is_err());
/// ```
impl Real for Rational {
    type Context = ();
    const KIND: Kind = Kind::Exact;

    fn from_rational(q: &Q, _: &()) -> Self {
        to_rug(q)
    }

    fn context(&self) -> Self::Context {}

    fn exp(&self) -> Result<Self> {
        if self.cmp0() == Ordering::Equal {
            Ok(Rational::from(1))
        } else {
            Err(Error::NotRepresentable(format!(
                "exp({self}) is transcendental (not rational)"
            )))
        }
    }

    fn ln(&self) -> Result<Self> {
        if self.cmp0() != Ordering::Greater {
            Err(Error::Domain(format!("ln({self})")))
        } else if *self == 1 {
            Ok(Rational::new())
        } else {
            Err(Error::NotRepresentable(format!(
                "ln({self}) is transcendental (not rational)"
            )))
        }
    }

    fn enclosure(&self) -> Option<(Q, Q)> {
        let q = from_rug(self);
        Some((q.clone(), q))
    }

    fn cmp_certain(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }

    /// The nearest double (`Rational::to_f64` truncates, so the value goes
    /// through a 53-bit float rounded to nearest; below the normal range,
    /// through [`Q`]'s correctly rounded conversion).
    fn to_f64(&self) -> f64 {
        let rounded = Float::with_val(53, self).to_f64();
        if rounded.is_normal() || self.cmp0() == Ordering::Equal {
            rounded
        } else {
            Real::to_f64(&from_rug(self))
        }
    }

    /// `self^n` in one GMP call when `n` fits in 32 bits.
    fn pow_u64(&self, n: u64) -> Self {
        match u32::try_from(n) {
            Ok(n) => Rational::from(rug::ops::Pow::pow(self, n)),
            Err(_) => {
                let half = self.pow_u64(n / 2);
                let square = half.clone() * &half;
                if n % 2 == 1 {
                    square * self
                } else {
                    square
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::{Signed, Zero};

    #[test]
    fn conversions_round_trip() {
        let big = -BigInt::from(3).pow(200);
        for q in [
            Q::zero(),
            Q::new(1.into(), 3.into()),
            Q::new((-7).into(), 2.into()),
            Q::new(big.clone(), BigInt::from(2).pow(97)),
            Q::from_integer(big),
        ] {
            assert_eq!(from_rug(&to_rug(&q)), q);
        }
    }

    /// The least binary exponent of a positive MPFR float.
    fn binary_exponent(x: &MpfrFloat) -> Option<i32> {
        x.as_float().get_exp()
    }

    /// `e^x` for `|x|` past about `9.3·10^7` is refused (as an interval:
    /// its `exp` is an error), so that the square of `e^(7·10^8)`, or the
    /// quotient `1/e^(−7·10^8)²`, which would leave MPFR's exponent range,
    /// is never formed; at the reach's edge the square is
    /// computed and encloses `e^(2x)` (binary exponents checked: the values
    /// have 10^8 binary digits).
    #[test]
    fn exp_past_its_reach_is_refused_instead_of_overflowing_later() {
        use crate::num::{Interval, Precision, Real};
        let q = |n: i64| Q::from_integer(n.into());
        let square = |x: i64| -> Result<Interval<MpfrFloat>> {
            let e = Interval::<MpfrFloat>::from_rational(&q(x), &Precision(64)).exp()?;
            Ok(e.clone() * &e)
        };
        let one = Interval::<MpfrFloat>::from_rational(&q(1), &Precision(64));
        let inverse_square = |x: i64| square(x).map(|s| one.clone() / &s);
        for x in [
            700_000_000i64,
            -700_000_000,
            10i64.pow(12),
            -(10i64.pow(12)),
        ] {
            let e = square(x).unwrap_err();
            assert!(matches!(e, Error::TooLarge(_)), "{e}");
            assert!(e.to_string().contains("2^(±2^27)"), "{e}");
            assert!(inverse_square(x).is_err());
        }
        // 9·10^7 / ln 2 ≈ 1.2984·10^8 ≤ 2^27: e^(±2·9·10^7) lies at binary
        // exponent ±2.5968·10^8 (ln 2 ≈ 0.6931471805599453).
        let x = 90_000_000i64;
        let expected = (2.0 * x as f64 / std::f64::consts::LN_2).ceil() as i32;
        let big = square(x).unwrap();
        assert!((binary_exponent(big.lo()).unwrap() - expected).abs() <= 1);
        assert!((binary_exponent(big.hi()).unwrap() - expected).abs() <= 1);
        let small = inverse_square(-x).unwrap();
        assert!((binary_exponent(small.lo()).unwrap() - expected).abs() <= 1);
        for dir in [Dir::Down, Dir::Up] {
            let edge = MpfrFloat::from_rational(&q(i64::from(MPFR_EXP_REACH) * 6 / 10), 64, dir);
            assert!(edge.exp(dir).is_ok());
        }
    }

    /// A product of tiny weights that falls below MPFR's range is rounded
    /// outward: the lower end to 0, the upper one to the least positive
    /// float (2^(−2^30)): nine weights e^(−9·10^7) (binary exponent about
    /// −1.17·10^9 < −2^30), like a law's product over nine rounds.
    #[test]
    fn products_of_tiny_weights_round_outward() {
        use crate::num::{Interval, Precision, Real};
        let w = Interval::<MpfrFloat>::from_rational(
            &Q::from_integer((-90_000_000).into()),
            &Precision(64),
        )
        .exp()
        .unwrap();
        let product = (1..9).fold(w.clone(), |p, _| p * &w);
        assert_eq!(product.lo().signum(), Ordering::Equal);
        assert_eq!(product.hi().signum(), Ordering::Greater);
        assert_eq!(binary_exponent(product.hi()), Some(rug::float::exp_min()));
        // Four of them stay in range, both ends positive.
        let four = (1..4).fold(w.clone(), |p, _| p * &w);
        assert_eq!(four.lo().signum(), Ordering::Greater);
    }

    #[test]
    fn to_rational_is_exact() {
        let x = MpfrFloat::from_rational(&Q::new(1.into(), 3.into()), 8, Dir::Down);
        // 1/3 rounded down to 8 bits: 0.01010101010101… → 85/256.
        assert_eq!(x.to_rational(), Q::new(85.into(), 256.into()));
        let y = MpfrFloat::from_rational(&Q::new(1.into(), 3.into()), 8, Dir::Up);
        assert_eq!(y.to_rational(), Q::new(171.into(), 512.into()));
        assert!(x.neg().to_rational().is_negative());
    }
}
