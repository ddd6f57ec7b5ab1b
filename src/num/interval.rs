//! Certified interval arithmetic over a floating-point endpoint with directed
//! rounding.
//!
//! An [`Interval`] `[lo, hi]` stands for an unknown real `x` with
//! `lo ≤ x ≤ hi`. Every operation rounds its lower end toward −∞ and its upper
//! end toward +∞ ([`Dir::Down`], [`Dir::Up`]) so that the result contains the
//! exact result for every choice of operands inside the argument intervals
//! (the inclusion property of interval arithmetic, Moore 1966). The endpoint
//! type supplies correctly rounded `+ − × ÷ exp ln` in both directions:
//! [`DashuFloat`](super::DashuFloat) in pure Rust, `MpfrFloat` with the `mpfr`
//! feature.

use super::{Kind, Real, Q};
use crate::error::{Error, Result};
use std::cmp::Ordering;
use std::fmt::{self, Debug};
use std::ops::{Add, Div, Mul, Neg, Sub};

/// A rounding direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Toward −∞: the result is a lower bound of the exact value.
    Down,
    /// Toward +∞: the result is an upper bound of the exact value.
    Up,
}

/// Working precision of a floating backend, in bits of significand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Precision(pub u32);

/// A binary floating-point number with operations rounded in a chosen
/// direction. Each result has the larger precision of its operands.
///
/// Contract: for `dir = Down` the result is `≤` the exact value, for `Up` it
/// is `≥`; [`Endpoint::to_rational`] is exact.
pub trait Endpoint: Clone + Debug + Send + Sync + 'static {
    /// `q` rounded in direction `dir` to `bits` bits.
    fn from_rational(q: &Q, bits: u32, dir: Dir) -> Self;
    /// The exact value.
    fn to_rational(&self) -> Q;
    /// The precision in bits.
    fn precision(&self) -> u32;
    /// `self + rhs`, rounded.
    fn add(&self, rhs: &Self, dir: Dir) -> Self;
    /// `self − rhs`, rounded.
    fn sub(&self, rhs: &Self, dir: Dir) -> Self;
    /// `self + a × b`, rounded once.
    fn mul_add(&self, a: &Self, b: &Self, dir: Dir) -> Self;
    /// `self × rhs`, rounded.
    fn mul(&self, rhs: &Self, dir: Dir) -> Self;
    /// `self ÷ rhs`, rounded; `rhs` is non-zero.
    fn div(&self, rhs: &Self, dir: Dir) -> Self;
    /// `e^self`, rounded; an error when the result leaves the exponent range.
    fn exp(&self, dir: Dir) -> Result<Self>;
    /// `ln self`, rounded; `self > 0`.
    fn ln(&self, dir: Dir) -> Result<Self>;
    /// `−self` (exact).
    fn neg(&self) -> Self;
    /// The sign of `self` as its order against zero.
    fn signum(&self) -> Ordering;
    /// The order of two endpoints.
    fn total_cmp(&self, other: &Self) -> Ordering;
    /// The nearest double.
    fn to_f64(&self) -> f64;
}

/// A closed interval `[lo, hi]` of reals, `lo ≤ hi`.
#[derive(Clone)]
pub struct Interval<E> {
    lo: E,
    hi: E,
}

impl<E: Endpoint> Interval<E> {
    /// The interval `[lo, hi]` from two rationals, widened outward to the
    /// precision. An error when `lo > hi`.
    pub fn from_bounds(lo: &Q, hi: &Q, bits: Precision) -> Result<Self> {
        if lo > hi {
            return Err(Error::InvalidInput(format!("empty interval [{lo}, {hi}]")));
        }
        Ok(Interval {
            lo: E::from_rational(lo, bits.0, Dir::Down),
            hi: E::from_rational(hi, bits.0, Dir::Up),
        })
    }

    /// The lower end.
    pub fn lo(&self) -> &E {
        &self.lo
    }

    /// The upper end.
    pub fn hi(&self) -> &E {
        &self.hi
    }

    /// The smallest interval containing `self` and `other`.
    pub fn hull(&self, other: &Self) -> Self {
        Interval {
            lo: min_end(&self.lo, &other.lo).clone(),
            hi: max_end(&self.hi, &other.hi).clone(),
        }
    }

    fn is_nonneg(&self) -> bool {
        self.lo.signum() != Ordering::Less
    }

    /// `Some(true)` when every point is `≥ 0`, `Some(false)` when every
    /// point is `≤ 0` (and not all `≥ 0`), `None` when zero is inside.
    fn sign_class(&self) -> Option<bool> {
        if self.is_nonneg() {
            Some(true)
        } else if self.hi.signum() != Ordering::Greater {
            Some(false)
        } else {
            None
        }
    }

    fn contains_zero(&self) -> bool {
        self.lo.signum() != Ordering::Greater && self.hi.signum() != Ordering::Less
    }
}

fn min_end<'a, E: Endpoint>(a: &'a E, b: &'a E) -> &'a E {
    if a.total_cmp(b) == Ordering::Greater {
        b
    } else {
        a
    }
}

fn max_end<'a, E: Endpoint>(a: &'a E, b: &'a E) -> &'a E {
    if a.total_cmp(b) == Ordering::Less {
        b
    } else {
        a
    }
}

/// The interval spanned by the four endpoint combinations of a monotone-in-
/// each-argument operation (multiplication, division), each rounded outward.
fn span_of_corners<E: Endpoint>(
    a: &Interval<E>,
    b: &Interval<E>,
    op: fn(&E, &E, Dir) -> E,
) -> Interval<E> {
    let corners = [
        (&a.lo, &b.lo),
        (&a.lo, &b.hi),
        (&a.hi, &b.lo),
        (&a.hi, &b.hi),
    ];
    let [first, rest @ ..] = corners;
    let mut lo = op(first.0, first.1, Dir::Down);
    let mut hi = op(first.0, first.1, Dir::Up);
    for (x, y) in rest {
        lo = min_end(&lo, &op(x, y, Dir::Down)).clone();
        hi = max_end(&hi, &op(x, y, Dir::Up)).clone();
    }
    Interval { lo, hi }
}

impl<E: Endpoint> Debug for Interval<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{:?}, {:?}]", self.lo, self.hi)
    }
}

impl<E: Endpoint> Add<&Interval<E>> for Interval<E> {
    type Output = Interval<E>;
    fn add(self, rhs: &Interval<E>) -> Interval<E> {
        Interval {
            lo: self.lo.add(&rhs.lo, Dir::Down),
            hi: self.hi.add(&rhs.hi, Dir::Up),
        }
    }
}

impl<E: Endpoint> Sub<&Interval<E>> for Interval<E> {
    type Output = Interval<E>;
    fn sub(self, rhs: &Interval<E>) -> Interval<E> {
        Interval {
            lo: self.lo.sub(&rhs.hi, Dir::Down),
            hi: self.hi.sub(&rhs.lo, Dir::Up),
        }
    }
}

impl<E: Endpoint> Mul<&Interval<E>> for Interval<E> {
    type Output = Interval<E>;
    fn mul(self, rhs: &Interval<E>) -> Interval<E> {
        // When neither factor straddles zero, the signs say which corners are
        // the ends (Moore's table): two products instead of eight.
        let (a, b) = (&self, rhs);
        let ((l1, l2), (h1, h2)) = match (a.sign_class(), b.sign_class()) {
            (Some(true), Some(true)) => ((&a.lo, &b.lo), (&a.hi, &b.hi)),
            (Some(true), Some(false)) => ((&a.hi, &b.lo), (&a.lo, &b.hi)),
            (Some(false), Some(true)) => ((&a.lo, &b.hi), (&a.hi, &b.lo)),
            (Some(false), Some(false)) => ((&a.hi, &b.hi), (&a.lo, &b.lo)),
            _ => return span_of_corners(a, b, E::mul),
        };
        Interval {
            lo: l1.mul(l2, Dir::Down),
            hi: h1.mul(h2, Dir::Up),
        }
    }
}

impl<E: Endpoint> Div<&Interval<E>> for Interval<E> {
    type Output = Interval<E>;
    /// # Panics
    /// When the divisor contains zero (a precondition of [`Real`]).
    fn div(self, rhs: &Interval<E>) -> Interval<E> {
        assert!(
            !rhs.contains_zero(),
            "interval division by an interval containing zero: {rhs:?}"
        );
        if self.is_nonneg() && rhs.is_nonneg() {
            Interval {
                lo: self.lo.div(&rhs.hi, Dir::Down),
                hi: self.hi.div(&rhs.lo, Dir::Up),
            }
        } else {
            span_of_corners(&self, rhs, E::div)
        }
    }
}

impl<E: Endpoint> Neg for Interval<E> {
    type Output = Interval<E>;
    fn neg(self) -> Interval<E> {
        Interval {
            lo: self.hi.neg(),
            hi: self.lo.neg(),
        }
    }
}

/// The by-value operators forward to the by-reference ones.
macro_rules! forward_by_value {
    ($($tr:ident $method:ident),*) => {$(
        impl<E: Endpoint> $tr<Interval<E>> for Interval<E> {
            type Output = Interval<E>;
            fn $method(self, rhs: Interval<E>) -> Interval<E> {
                $tr::$method(self, &rhs)
            }
        }
    )*};
}
forward_by_value!(Add add, Sub sub, Mul mul, Div div);

impl<E: Endpoint> Real for Interval<E> {
    type Context = Precision;
    const KIND: Kind = Kind::Certified;

    fn from_rational(q: &Q, ctx: &Precision) -> Self {
        Interval {
            lo: E::from_rational(q, ctx.0, Dir::Down),
            hi: E::from_rational(q, ctx.0, Dir::Up),
        }
    }

    fn context(&self) -> Precision {
        Precision(self.lo.precision().max(self.hi.precision()))
    }

    /// `[exp↓(lo), exp↑(hi)]`: exp is increasing.
    fn exp(&self) -> Result<Self> {
        Ok(Interval {
            lo: self.lo.exp(Dir::Down)?,
            hi: self.hi.exp(Dir::Up)?,
        })
    }

    /// `[ln↓(lo), ln↑(hi)]`: ln is increasing; the interval must be positive.
    fn ln(&self) -> Result<Self> {
        if self.lo.signum() != Ordering::Greater {
            return Err(Error::Domain(format!(
                "ln of {self:?}, which is not certainly positive"
            )));
        }
        Ok(Interval {
            lo: self.lo.ln(Dir::Down)?,
            hi: self.hi.ln(Dir::Up)?,
        })
    }

    /// One rounding per end when all three operands are non-negative (the
    /// probability computations); two otherwise.
    fn mul_add(self, a: &Self, b: &Self) -> Self {
        if self.is_nonneg() && a.is_nonneg() && b.is_nonneg() {
            Interval {
                lo: self.lo.mul_add(&a.lo, &b.lo, Dir::Down),
                hi: self.hi.mul_add(&a.hi, &b.hi, Dir::Up),
            }
        } else {
            self + a.clone() * b
        }
    }

    fn enclosure(&self) -> Option<(Q, Q)> {
        Some((self.lo.to_rational(), self.hi.to_rational()))
    }

    fn cmp_certain(&self, other: &Self) -> Option<Ordering> {
        if self.hi.total_cmp(&other.lo) == Ordering::Less {
            Some(Ordering::Less)
        } else if self.lo.total_cmp(&other.hi) == Ordering::Greater {
            Some(Ordering::Greater)
        } else if [&self.hi, &other.lo, &other.hi]
            .iter()
            .all(|e| self.lo.total_cmp(e) == Ordering::Equal)
        {
            Some(Ordering::Equal)
        } else {
            None
        }
    }

    fn to_f64(&self) -> f64 {
        (self.lo.to_f64() + self.hi.to_f64()) / 2.0
    }
}
