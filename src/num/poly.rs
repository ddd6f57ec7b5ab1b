//! Exact arithmetic in the field of the laws: quotients of exponential
//! polynomials with rational exponents, with decidable equality and order,
//! so that a comparison the certified intervals leave open is still decided.
//!
//! # The field
//!
//! An [`ExpRational`] is `P/D` with `P = Σ_λ c_λ e^λ` and `D` of the same form,
//! finitely many rational exponents `λ` and rational coefficients `c_λ`. With
//! `q` a common denominator of the exponents and `z = e^{1/q}`, `P = z^{−m}·p(z)`
//! for a polynomial `p ∈ Q[z]`; so every such quotient is an element of `Q(z)`,
//! the field `Q(w)` with `w = e^{−ε/c}` when the exponents are
//! multiples of `ε/c`. Every law of this crate on rational losses with a
//! rational scale β lies in it: softmax and permute-and-flip laws are rational
//! functions of the weights `e^{−gap/β}`, Laplace laws of those weights and
//! `1/β` (`ARCHITECTURE.md`, "Exact, then certified"); and so does `e^ε` for
//! rational ε.
//!
//! # Why equality and order are decidable
//!
//! `z = e^{1/q}` is transcendental (Lindemann 1882: `e^a` is transcendental for
//! every algebraic `a ≠ 0`), so `p(z) = 0` only when `p` is the zero
//! polynomial. Hence `P = 0` exactly when every coefficient `c_λ` (after adding
//! equal exponents) is zero — a finite, exact test. The sign of a non-zero `P`
//! is then found by certified evaluation ([`Certified`] intervals: each `e^λ`
//! enclosed with directed rounding) at doubling precision until the enclosure
//! excludes 0, which must happen since the value is not 0 and the enclosures
//! shrink to it. `a < b` is the sign of `a − b`.
//!
//! Nothing is reduced by a polynomial gcd: quotients are kept as they come,
//! with two cheap normalisations (a one-term denominator is divided into the
//! numerator; a zero numerator gets denominator 1). The sizes stay small for the
//! privacy ratios, which are quotients of a few laws.
//!
//! ```
//! use dpdtol::num::{ExpRational, Real, Q};
//! let half = Q::new(1.into(), 2.into());
//! // e^{1/2} · e^{1/2} = e^1 exactly, and e^1 > 5/2.
//! let r = ExpRational::from_rational(&half, &()).exp().unwrap();
//! let e = ExpRational::from_rational(&Q::from_integer(1.into()), &()).exp().unwrap();
//! assert_eq!(r.clone() * &r, e);
//! assert_eq!(e.sign(), std::cmp::Ordering::Greater);
//! let five_halves = ExpRational::from_rational(&Q::new(5.into(), 2.into()), &());
//! assert!(e > five_halves);
//! ```

use super::{Certified, Kind, Precision, Real, Q};
use crate::error::{Error, Result};
use num_traits::{One, Signed, Zero};
use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::ops::{Add, Div, Mul, Neg, Sub};

/// `Σ c_λ e^λ`: the terms `(λ, c_λ)` in increasing `λ`, every `c_λ ≠ 0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
struct ExpSum(Vec<(Q, Q)>);

impl ExpSum {
    fn constant(c: Q) -> ExpSum {
        ExpSum::collect([(Q::zero(), c)])
    }

    fn monomial(exponent: Q, c: Q) -> ExpSum {
        ExpSum::collect([(exponent, c)])
    }

    /// The sum of the terms, equal exponents added, zeros dropped.
    fn collect(terms: impl IntoIterator<Item = (Q, Q)>) -> ExpSum {
        let mut map: BTreeMap<Q, Q> = BTreeMap::new();
        for (e, c) in terms {
            *map.entry(e).or_insert_with(Q::zero) += c;
        }
        ExpSum(map.into_iter().filter(|(_, c)| !c.is_zero()).collect())
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn add(&self, other: &ExpSum) -> ExpSum {
        ExpSum::collect(self.0.iter().chain(&other.0).cloned())
    }

    fn neg(&self) -> ExpSum {
        ExpSum(self.0.iter().map(|(e, c)| (e.clone(), -c)).collect())
    }

    fn mul(&self, other: &ExpSum) -> ExpSum {
        ExpSum::collect(self.0.iter().flat_map(|(e, c)| {
            other
                .0
                .iter()
                .map(move |(f, d)| (e.clone() + f, c.clone() * d))
        }))
    }

    /// A certified enclosure of the value at `bits` bits.
    fn enclose(&self, bits: Precision) -> Result<Certified> {
        let mut total = Certified::from_int(0, &bits);
        for (e, c) in &self.0 {
            let term = Certified::from_rational(c, &bits) * exp_enclosure(e, bits)?;
            total = total + term;
        }
        Ok(total)
    }

    /// The exact sign: `Equal` only for the zero sum (module documentation),
    /// otherwise found by evaluation at doubling precision.
    fn sign(&self) -> Ordering {
        if self.is_zero() {
            return Ordering::Equal;
        }
        if let [(_, c)] = self.0.as_slice() {
            return c.cmp(&Q::zero());
        }
        let mut bits = 64;
        loop {
            if let Ok(v) = self.enclose(Precision(bits)) {
                if let Some((lo, hi)) = v.enclosure() {
                    if lo.is_positive() {
                        return Ordering::Greater;
                    }
                    if hi.is_negative() {
                        return Ordering::Less;
                    }
                }
            }
            // Terminates: the value is not 0 (transcendence), and the
            // enclosures shrink to it as the precision grows.
            bits = bits.saturating_mul(2);
        }
    }
}

thread_local! {
    /// Enclosures of `e^λ` already computed, per `(λ, bits)`.
    static EXP_CACHE: RefCell<HashMap<(Q, u32), Certified>> = RefCell::new(HashMap::new());
}

/// `e^λ` enclosed at `bits` bits (cached per thread).
fn exp_enclosure(exponent: &Q, bits: Precision) -> Result<Certified> {
    if exponent.is_zero() {
        return Ok(Certified::from_int(1, &bits));
    }
    let key = (exponent.clone(), bits.0);
    if let Some(hit) = EXP_CACHE.with(|c| c.borrow().get(&key).cloned()) {
        return Ok(hit);
    }
    let value = Certified::from_rational(exponent, &bits).exp()?;
    EXP_CACHE.with(|c| {
        let mut cache = c.borrow_mut();
        if cache.len() > 1 << 16 {
            cache.clear();
        }
        cache.insert(key, value.clone());
    });
    Ok(value)
}

/// A term `(λ, c_λ)` of an exponential sum: `c_λ · e^λ`.
pub type ExpTerm = (Q, Q);

/// An exact element `P/D` of the field of exponential polynomials with
/// rational exponents (module documentation): equality is structural after
/// cross-multiplication, the order exact.
#[derive(Clone)]
pub struct ExpRational {
    num: ExpSum,
    den: ExpSum,
}

impl ExpRational {
    fn new(num: ExpSum, den: ExpSum) -> ExpRational {
        if num.is_zero() {
            return ExpRational {
                num,
                den: ExpSum::constant(Q::one()),
            };
        }
        if let [(e, c)] = den.0.as_slice() {
            let inverse = ExpSum::monomial(-e, c.recip());
            return ExpRational {
                num: num.mul(&inverse),
                den: ExpSum::constant(Q::one()),
            };
        }
        if num == den {
            return ExpRational::one();
        }
        ExpRational { num, den }
    }

    fn one() -> ExpRational {
        ExpRational {
            num: ExpSum::constant(Q::one()),
            den: ExpSum::constant(Q::one()),
        }
    }

    /// `e^x` for a rational `x`, exactly.
    pub fn exp_of(x: &Q) -> ExpRational {
        ExpRational::new(
            ExpSum::monomial(x.clone(), Q::one()),
            ExpSum::constant(Q::one()),
        )
    }

    /// The exact sign of the value.
    pub fn sign(&self) -> Ordering {
        self.num.sign().times(self.den.sign())
    }

    /// Whether the value is exactly zero.
    pub fn is_zero(&self) -> bool {
        self.num.is_zero()
    }

    /// The value as a rational, when it is one (no exponent other than 0).
    pub fn to_rational(&self) -> Option<Q> {
        let rational = |s: &ExpSum| match s.0.as_slice() {
            [] => Some(Q::zero()),
            [(e, c)] if e.is_zero() => Some(c.clone()),
            _ => None,
        };
        Some(rational(&self.num)? / rational(&self.den)?)
    }

    /// A certified enclosure at `bits` bits or more (raised until the
    /// denominator's enclosure excludes 0).
    pub fn enclose(&self, bits: Precision) -> Result<Certified> {
        let mut bits = bits;
        loop {
            let den = self.den.enclose(bits)?;
            let (lo, hi) = den
                .enclosure()
                .ok_or_else(|| Error::Domain("a denominator".into()))?;
            if lo.is_positive() || hi.is_negative() {
                return Ok(self.num.enclose(bits)? / den);
            }
            bits = Precision(bits.0.saturating_mul(2));
        }
    }

    /// The terms `(λ, c_λ)` of the numerator and of the denominator of
    /// `P/D`, each in increasing `λ` with every `c_λ ≠ 0` (the representation
    /// as it is kept: not reduced by a common factor).
    pub fn terms(&self) -> (&[ExpTerm], &[ExpTerm]) {
        (&self.num.0, &self.den.0)
    }

    /// A closed form, `Σ c·e^λ` over `Σ c·e^λ`.
    pub fn closed_form(&self) -> String {
        let sum = |s: &ExpSum| {
            if s.is_zero() {
                return "0".to_string();
            }
            s.0.iter()
                .map(|(e, c)| {
                    if e.is_zero() {
                        format!("{c}")
                    } else if c.is_one() {
                        format!("e^({e})")
                    } else {
                        format!("{c}·e^({e})")
                    }
                })
                .collect::<Vec<_>>()
                .join(" + ")
        };
        if self.den == ExpSum::constant(Q::one()) {
            sum(&self.num)
        } else {
            format!("({}) / ({})", sum(&self.num), sum(&self.den))
        }
    }
}

/// The product of two signs.
trait Sign {
    fn times(self, other: Ordering) -> Ordering;
}

impl Sign for Ordering {
    fn times(self, other: Ordering) -> Ordering {
        match (self, other) {
            (Ordering::Equal, _) | (_, Ordering::Equal) => Ordering::Equal,
            (a, b) if a == b => Ordering::Greater,
            _ => Ordering::Less,
        }
    }
}

impl fmt::Debug for ExpRational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.closed_form())
    }
}

impl PartialEq for ExpRational {
    fn eq(&self, other: &Self) -> bool {
        self.num.mul(&other.den) == other.num.mul(&self.den)
    }
}

impl Eq for ExpRational {}

impl PartialOrd for ExpRational {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ExpRational {
    fn cmp(&self, other: &Self) -> Ordering {
        let difference = self
            .num
            .mul(&other.den)
            .add(&other.num.mul(&self.den).neg());
        difference
            .sign()
            .times(self.den.sign())
            .times(other.den.sign())
    }
}

impl Add<&ExpRational> for ExpRational {
    type Output = ExpRational;
    fn add(self, rhs: &ExpRational) -> ExpRational {
        if self.den == rhs.den {
            return ExpRational::new(self.num.add(&rhs.num), self.den);
        }
        ExpRational::new(
            self.num.mul(&rhs.den).add(&rhs.num.mul(&self.den)),
            self.den.mul(&rhs.den),
        )
    }
}

impl Sub<&ExpRational> for ExpRational {
    type Output = ExpRational;
    fn sub(self, rhs: &ExpRational) -> ExpRational {
        self + &(-rhs.clone())
    }
}

impl Mul<&ExpRational> for ExpRational {
    type Output = ExpRational;
    fn mul(self, rhs: &ExpRational) -> ExpRational {
        ExpRational::new(self.num.mul(&rhs.num), self.den.mul(&rhs.den))
    }
}

impl Div<&ExpRational> for ExpRational {
    type Output = ExpRational;
    /// Division by an exact zero is a precondition violation (the trait's
    /// contract); it gives the zero quotient rather than panicking.
    fn div(self, rhs: &ExpRational) -> ExpRational {
        if rhs.num.is_zero() {
            return ExpRational::new(ExpSum::default(), ExpSum::constant(Q::one()));
        }
        ExpRational::new(self.num.mul(&rhs.den), self.den.mul(&rhs.num))
    }
}

impl Neg for ExpRational {
    type Output = ExpRational;
    fn neg(self) -> ExpRational {
        ExpRational {
            num: self.num.neg(),
            den: self.den,
        }
    }
}

macro_rules! by_value {
    ($($trait:ident $method:ident),*) => {$(
        impl $trait for ExpRational {
            type Output = ExpRational;
            fn $method(self, rhs: ExpRational) -> ExpRational {
                $trait::$method(self, &rhs)
            }
        }
    )*};
}
by_value!(Add add, Sub sub, Mul mul, Div div);

impl Real for ExpRational {
    type Context = ();
    /// The values are exact, but what they print is an enclosure: the
    /// certified kind.
    const KIND: Kind = Kind::Certified;

    fn from_rational(q: &Q, _: &()) -> Self {
        ExpRational::new(ExpSum::constant(q.clone()), ExpSum::constant(Q::one()))
    }

    fn context(&self) {}

    /// `e^c` for a rational constant `c`; [`Error::NotRepresentable`] for
    /// anything else (the field is not closed under `exp`).
    fn exp(&self) -> Result<Self> {
        match self.to_rational() {
            Some(c) => Ok(ExpRational::exp_of(&c)),
            None => Err(Error::NotRepresentable(format!(
                "exp({}) of a non-rational value leaves the field of exponential polynomials",
                self.closed_form()
            ))),
        }
    }

    /// `ln(e^λ) = λ`; [`Error::NotRepresentable`] for anything else but 1.
    fn ln(&self) -> Result<Self> {
        if self.sign() != Ordering::Greater {
            return Err(Error::Domain(format!("ln({})", self.closed_form())));
        }
        match (self.num.0.as_slice(), &self.den) {
            ([(e, c)], den) if c.is_one() && *den == ExpSum::constant(Q::one()) => {
                Ok(Self::from_rational(e, &()))
            }
            _ => Err(Error::NotRepresentable(format!(
                "ln({}) is not an exponential polynomial",
                self.closed_form()
            ))),
        }
    }

    /// A certified enclosure at 128 bits (exact ends for a rational value).
    fn enclosure(&self) -> Option<(Q, Q)> {
        if let Some(q) = self.to_rational() {
            return Some((q.clone(), q));
        }
        self.enclose(Precision(128)).ok()?.enclosure()
    }

    fn cmp_certain(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }

    fn to_f64(&self) -> f64 {
        self.enclose(Precision(64))
            .map_or(f64::NAN, |v| Real::to_f64(&v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Q {
        Q::new(n.into(), d.into())
    }

    fn e(x: Q) -> ExpRational {
        ExpRational::exp_of(&x)
    }

    #[test]
    fn a_softmax_ratio_equals_its_closed_form() {
        // Softmax of losses (0, 1) at η: P(1) = 1/(1 + e^{−η}); its ratio
        // against losses (1, 0) is (1 + e^{η})/(1 + e^{−η}) = e^{η}
        // (multiply through by e^{η}).
        let one = ExpRational::from_rational(&Q::one(), &());
        let eta = q(1, 3);
        let p = one.clone() / (one.clone() + e(-eta.clone()));
        let p2 = e(-eta.clone()) / (one.clone() + e(-eta.clone()));
        assert_eq!(p / p2, e(eta));
    }

    #[test]
    fn order_agrees_with_certified_evaluation() {
        // e^{1/2} − 1.6487 > 0 and e^{1/2} − 1.6488 < 0 (e^{1/2} = 1.64872…).
        let x = e(q(1, 2));
        assert!(x > ExpRational::from_rational(&q(16487, 10000), &()));
        assert!(x < ExpRational::from_rational(&q(16488, 10000), &()));
        // 2·e^{1/2} − e^{1/2} − e^{1/2} is exactly zero.
        let two = ExpRational::from_rational(&q(2, 1), &());
        let zero = two * &x - &x - &x;
        assert!(zero.is_zero());
        assert_eq!(zero.sign(), Ordering::Equal);
    }

    #[test]
    fn a_tiny_non_zero_difference_is_signed_by_refinement() {
        // e^{1/1000} − (1 + 1/1000 + 1/2000000) ≈ 1.7e−10 > 0: needs more than
        // a few bits, and terminates.
        let lhs = e(q(1, 1000));
        let rhs = ExpRational::from_rational(&q(2002001, 2000000), &());
        assert_eq!((lhs - &rhs).sign(), Ordering::Greater);
    }

    #[test]
    fn exp_and_ln_of_non_constants_are_refused() {
        let x = e(q(1, 2)) + &ExpRational::from_rational(&Q::one(), &());
        assert!(matches!(x.exp(), Err(Error::NotRepresentable(_))));
        assert!(matches!(x.ln(), Err(Error::NotRepresentable(_))));
        assert_eq!(e(q(3, 7)).ln().unwrap().to_rational(), Some(q(3, 7)));
    }
}
