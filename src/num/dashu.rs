//! Interval endpoints in pure Rust: binary floats of dashu-float with directed
//! rounding.
//!
//! dashu-float's `Context<Down>` and `Context<Up>` round every operation toward
//! −∞ and +∞; its `exp` and `ln` are correctly rounded in the context's mode
//! (a Ziv loop on a proven error radius, dashu-float ≥ 0.6). What the interval
//! backend relies on is only the direction: a `Down` result is `≤` the exact
//! value and an `Up` result `≥` it. (dashu's `add`, `sub` and `fma` sometimes
//! return one bit more than the requested precision — a tighter bound, still
//! on the right side; the tests check inclusion against exact rationals and,
//! with the `mpfr` feature, that dashu and MPFR enclosures meet.)

use super::interval::{Dir, Endpoint};
use super::Q;
use crate::error::{Error, Result};
use dashu_base::Sign;
use dashu_float::round::mode::{Down, HalfEven, Up};
use dashu_float::{Context, FBig, FpError, FpResult, Repr};
use dashu_int::IBig;
use num_bigint::BigInt;
use num_traits::One;
use std::cmp::Ordering;
use std::fmt;

/// A binary float of dashu-float with its precision in bits.
#[derive(Clone)]
pub struct DashuFloat {
    repr: Repr<2>,
    bits: u32,
}

fn to_dashu(n: &BigInt) -> IBig {
    IBig::from_le_bytes(&n.to_signed_bytes_le())
}

fn from_dashu(n: &IBig) -> BigInt {
    BigInt::from_signed_bytes_le(&n.to_le_bytes())
}

impl DashuFloat {
    fn wrap<R>(value: FpResult<FBig<R, 2>>, bits: u32, what: &str) -> Result<Self>
    where
        R: dashu_float::round::Round,
    {
        match value {
            Ok(rounded) => Ok(DashuFloat {
                repr: rounded.value().into_repr(),
                bits,
            }),
            Err(FpError::OutOfDomain) => Err(Error::Domain(what.to_string())),
            // In words, not the library's variant names: the message reaches users.
            Err(FpError::Overflow(_)) => Err(Error::TooLarge(format!(
                "{what}: the result is above 2^(2^63) (about 10^(2.8·10^18)), the largest number a computation here can hold"
            ))),
            Err(FpError::Underflow(_)) => Err(Error::TooLarge(format!(
                "{what}: the result is below 2^(-2^63) (about 10^(-2.8·10^18)), the smallest positive number a computation here can hold"
            ))),
            Err(_) => Err(Error::Domain(format!(
                "{what}: an infinite or indeterminate operand"
            ))),
        }
    }

    /// Apply a dashu context operation in the requested direction.
    fn directed(
        bits: u32,
        dir: Dir,
        what: &str,
        down: impl FnOnce(&Context<Down>) -> FpResult<FBig<Down, 2>>,
        up: impl FnOnce(&Context<Up>) -> FpResult<FBig<Up, 2>>,
    ) -> Result<Self> {
        match dir {
            Dir::Down => Self::wrap(down(&Context::new(bits as usize)), bits, what),
            Dir::Up => Self::wrap(up(&Context::new(bits as usize)), bits, what),
        }
    }

    /// `value` rounded in direction `dir`; a result below dashu's exponent
    /// range (`|x| < 2^{−2^63}`: `e^{−x}` of a huge `x`, products of tiny
    /// weights) goes to 0 on the side of zero, else to `±2^{−2^62}`, which
    /// lies beyond it, so that an enclosure stays valid (wider). `what`
    /// names the operation in an error (an overflow past `2^{2^63}`).
    fn flushed<R: dashu_float::round::Round>(
        value: FpResult<FBig<R, 2>>,
        bits: u32,
        dir: Dir,
        what: &str,
    ) -> Result<Self> {
        let repr = match (value, dir) {
            (Err(FpError::Underflow(Sign::Positive)), Dir::Down)
            | (Err(FpError::Underflow(Sign::Negative)), Dir::Up) => Repr::zero(),
            (Err(FpError::Underflow(sign)), _) => {
                let unit = if sign == Sign::Positive { 1i8 } else { -1 };
                Repr::new(IBig::from(unit), -(1 << 62))
            }
            (other, _) => return Self::wrap(other, bits, what),
        };
        Ok(DashuFloat { repr, bits })
    }

    /// [`DashuFloat::flushed`] of an arithmetic operation, whose overflow
    /// is a bug: the inputs are bounded well below `2^{2^63}`.
    fn rounded<R: dashu_float::round::Round>(
        value: FpResult<FBig<R, 2>>,
        bits: u32,
        dir: Dir,
    ) -> Self {
        Self::flushed(value, bits, dir, "arithmetic")
            .expect("binary exponent out of range in interval arithmetic")
    }

    /// A binary operation rounded in direction `dir` at the larger
    /// precision of the operands ([`DashuFloat::rounded`]).
    fn arithmetic(
        &self,
        rhs: &Self,
        dir: Dir,
        down: impl FnOnce(&Context<Down>, &Repr<2>, &Repr<2>) -> FpResult<FBig<Down, 2>>,
        up: impl FnOnce(&Context<Up>, &Repr<2>, &Repr<2>) -> FpResult<FBig<Up, 2>>,
    ) -> Self {
        let bits = self.bits.max(rhs.bits);
        let context = bits as usize;
        match dir {
            Dir::Down => Self::rounded(
                down(&Context::new(context), &self.repr, &rhs.repr),
                bits,
                dir,
            ),
            Dir::Up => Self::rounded(up(&Context::new(context), &self.repr, &rhs.repr), bits, dir),
        }
    }
}

impl fmt::Debug for DashuFloat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", super::format_sig(&self.to_rational(), 12))
    }
}

impl Endpoint for DashuFloat {
    fn from_rational(q: &Q, bits: u32, dir: Dir) -> Self {
        let numer = Repr::new(to_dashu(q.numer()), 0);
        let denom = Repr::new(to_dashu(q.denom()), 0);
        Self::directed(
            bits,
            dir,
            "rational",
            |c| c.div(&numer, &denom),
            |c| c.div(&numer, &denom),
        )
        .expect("a rational's quotient is in range")
    }

    fn to_rational(&self) -> Q {
        let significand = from_dashu(self.repr.significand());
        let exponent = self.repr.exponent();
        let power = BigInt::one() << exponent.unsigned_abs();
        if exponent >= 0 {
            Q::from_integer(significand * power)
        } else {
            Q::new(significand, power)
        }
    }

    fn precision(&self) -> u32 {
        self.bits
    }

    fn add(&self, rhs: &Self, dir: Dir) -> Self {
        self.arithmetic(rhs, dir, |c, a, b| c.add(a, b), |c, a, b| c.add(a, b))
    }

    fn sub(&self, rhs: &Self, dir: Dir) -> Self {
        self.arithmetic(rhs, dir, |c, a, b| c.sub(a, b), |c, a, b| c.sub(a, b))
    }

    fn mul_add(&self, a: &Self, b: &Self, dir: Dir) -> Self {
        let bits = self.bits.max(a.bits).max(b.bits);
        let context = bits as usize;
        let (x, y, z, plus) = (&a.repr, &b.repr, &self.repr, Sign::Positive);
        match dir {
            Dir::Down => Self::rounded(Context::<Down>::new(context).fma(x, y, z, plus), bits, dir),
            Dir::Up => Self::rounded(Context::<Up>::new(context).fma(x, y, z, plus), bits, dir),
        }
    }

    fn mul(&self, rhs: &Self, dir: Dir) -> Self {
        self.arithmetic(rhs, dir, |c, a, b| c.mul(a, b), |c, a, b| c.mul(a, b))
    }

    fn div(&self, rhs: &Self, dir: Dir) -> Self {
        self.arithmetic(rhs, dir, |c, a, b| c.div(a, b), |c, a, b| c.div(a, b))
    }

    fn exp(&self, dir: Dir) -> Result<Self> {
        // |x| < 2^{-(p+2)} at p bits: 1 + x ≤ e^x ≤ 1 + x + x² puts e^x
        // between 1 − 2^{-p} and 1 + 2^{-(p-1)}, bounds given directly
        // (dashu's exp of a number of 10^{-30000} takes seconds per call).
        let magnitude =
            self.repr.exponent() + dashu_base::BitTest::bit_len(self.repr.significand()) as isize;
        let p = self.bits.max(2) as isize;
        if self.signum() != Ordering::Equal && magnitude < -(p + 2) {
            let positive = self.signum() == Ordering::Greater;
            let one_bits = |n: isize, delta: i8| {
                let significand = (IBig::from(1u8) << n as usize) + IBig::from(delta);
                Repr::new(significand, -n)
            };
            let repr = match (dir, positive) {
                (Dir::Down, true) | (Dir::Up, false) => Repr::new(IBig::from(1u8), 0),
                (Dir::Down, false) => one_bits(p, -1),
                (Dir::Up, true) => one_bits(p - 1, 1),
            };
            return Ok(DashuFloat {
                repr,
                bits: self.bits,
            });
        }
        let context = self.bits as usize;
        match dir {
            Dir::Down => Self::flushed(
                Context::<Down>::new(context).exp(&self.repr, None),
                self.bits,
                dir,
                "exp",
            ),
            Dir::Up => Self::flushed(
                Context::<Up>::new(context).exp(&self.repr, None),
                self.bits,
                dir,
                "exp",
            ),
        }
    }

    fn ln(&self, dir: Dir) -> Result<Self> {
        if self.signum() != Ordering::Greater {
            return Err(Error::Domain(format!("ln({self:?})")));
        }
        Self::directed(
            self.bits,
            dir,
            "ln",
            |c| c.ln(&self.repr, None),
            |c| c.ln(&self.repr, None),
        )
    }

    fn neg(&self) -> Self {
        DashuFloat {
            repr: Repr::new(-self.repr.significand().clone(), self.repr.exponent()),
            bits: self.bits,
        }
    }

    fn signum(&self) -> Ordering {
        self.repr.significand().cmp(&IBig::ZERO)
    }

    fn total_cmp(&self, other: &Self) -> Ordering {
        self.repr.cmp(&other.repr)
    }

    fn to_f64(&self) -> f64 {
        FBig::<HalfEven, 2>::from_repr(self.repr.clone(), Context::new(self.bits as usize))
            .to_f64()
            .value()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// e^x for |x| far below the precision: the directed bounds enclose
    /// the exact 1 + x ≤ e^x ≤ 1 + x + x², on both sides of 0.
    #[test]
    fn the_exponential_of_a_tiny_number_is_enclosed() {
        for numerator in [1i64, -1] {
            let x = Q::new(numerator.into(), BigInt::from(10u8).pow(3000));
            let at = |dir| DashuFloat::from_rational(&x, 64, dir);
            let lo = at(Dir::Down).exp(Dir::Down).unwrap().to_rational();
            let hi = at(Dir::Up).exp(Dir::Up).unwrap().to_rational();
            let one = Q::one();
            assert!(lo <= &one + &x, "{numerator}: lower bound {lo}");
            assert!(hi >= &one + &x + &x * &x, "{numerator}: upper bound {hi}");
            assert!(&hi - &lo <= Q::new(1.into(), BigInt::one() << 62u32));
        }
    }
}
