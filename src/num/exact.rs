//! The exact rational backend: `num_rational::BigRational`.

use super::{Kind, Real, Q};
use crate::error::{Error, Result};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;

/// The exact backend: arbitrary-precision rationals.
pub type Exact = num_rational::BigRational;

impl Real for Exact {
    type Context = ();
    const KIND: Kind = Kind::Exact;

    fn from_rational(q: &Q, _: &()) -> Self {
        q.clone()
    }

    fn context(&self) -> Self::Context {}

    fn exp(&self) -> Result<Self> {
        if self.is_zero() {
            Ok(Self::one())
        } else {
            Err(Error::NotRepresentable(format!(
                "exp({self}) is transcendental (not rational)"
            )))
        }
    }

    fn ln(&self) -> Result<Self> {
        if !self.is_positive() {
            Err(Error::Domain(format!("ln({self})")))
        } else if self.is_one() {
            Ok(Self::zero())
        } else {
            Err(Error::NotRepresentable(format!(
                "ln({self}) is transcendental (not rational)"
            )))
        }
    }

    fn enclosure(&self) -> Option<(Q, Q)> {
        Some((self.clone(), self.clone()))
    }

    fn cmp_certain(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }

    fn to_f64(&self) -> f64 {
        // `BigRational::to_f64` rounds correctly where it can, and handles
        // numerators and denominators beyond the range of f64.
        ToPrimitive::to_f64(self).unwrap_or(f64::NAN)
    }
}

/// The rational `q^{1/d}` when it is rational (numerator and denominator both
/// perfect `d`-th powers, sign allowing), else `None`.
///
/// ```
/// use dpdtol::num::{rational_root, Q};
/// use num_bigint::BigInt;
/// let q = Q::new(4.into(), 9.into());
/// assert_eq!(rational_root(&q, &BigInt::from(2)), Some(Q::new(2.into(), 3.into())));
/// assert_eq!(rational_root(&Q::from_integer(2.into()), &BigInt::from(2)), None);
/// ```
pub fn rational_root(q: &Q, d: &BigInt) -> Option<Q> {
    if d.is_one() {
        return Some(q.clone());
    }
    let d: u32 = d.to_u32().filter(|&d| d >= 2)?;
    if q.is_negative() && d % 2 == 0 {
        return None;
    }
    let root_of = |n: &BigInt| {
        let r = n.nth_root(d);
        (r.pow(d) == *n).then_some(r)
    };
    Some(Q::new(root_of(q.numer())?, root_of(q.denom())?))
}
