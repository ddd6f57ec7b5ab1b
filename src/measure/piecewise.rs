//! Piecewise exponential-polynomial functions of one real variable, closed
//! under product, difference, composition with `z ↦ s·z + c` (`s > 0`) and
//! integration from `−∞`: the algebra in which a probability over independent
//! Laplace noises whose events form a tree of one-dimensional windows is
//! integrated in closed form (the law of a Laplace-noise bandit's pull
//! sequence, [`crate::bandit::law::anytime_lazy_ucb`], is one).
//!
//! A function is given by cuts `p_1 ≤ … ≤ p_m` and, on each of the `m + 1`
//! pieces, a finite sum of terms `c · z^k · e^{λz}` with `λ` rational and `c`
//! a backend number. The Laplace density `e^{−|z|/b}/(2b)` is one such
//! function (one cut at 0, rates `±1/b`), and the class is closed under the
//! operations above:
//!
//! * product and difference: merge the cuts, multiply (subtract) the terms;
//! * `f(s z + c)`: cuts `(p − c)/s`, terms
//!   `c·e^{λc} Σ_i C(k,i) s^i c^{k−i} z^i e^{λ s z}` (binomial expansion);
//! * `H(z) = ∫_{−∞}^z f`: on each piece the primitive
//!   `∫ z^k e^{λz} = e^{λz} Σ_{i=0}^{k} (−1)^i k!/(k−i)! · z^{k−i}/λ^{i+1}`
//!   (`λ ≠ 0`), `z^{k+1}/(k+1)` (`λ = 0`), plus the constant that makes `H`
//!   continuous at the cut; on the first piece every rate must be positive
//!   (the integral from `−∞` converges) and on the last negative (for `H(+∞)`).
//!
//! # Cuts, exactly ordered
//!
//! Merging two lists of cuts needs their order. A cut carries its value in the
//! backend and, when it is rational, the rational itself ([`Cut::exact`]):
//! two rational cuts are compared exactly (they are often equal, e.g. a
//! threshold `(S_1 − S_0)/O` that is 0), others by the backend's certain
//! comparison, and an undecided comparison is an [`Error::Domain`] that asks
//! the caller for more precision. Equal cuts leave a piece of length zero,
//! which every formula integrates to zero, so either order is then right.

use crate::error::{Error, Result};
use crate::num::{Real, Q};
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;

/// A cut point: its value, and the value as a rational when it is one.
#[derive(Clone, Debug)]
pub struct Cut<R> {
    /// The value in the backend.
    pub value: R,
    /// The same value as a rational, when it is known to be rational.
    pub exact: Option<Q>,
}

impl<R: Real> Cut<R> {
    /// The rational `q`, exactly.
    pub fn rational(q: Q, ctx: &R::Context) -> Cut<R> {
        Cut {
            value: R::from_rational(&q, ctx),
            exact: Some(q),
        }
    }

    /// The order of two cuts; an error when the backend cannot decide it.
    pub fn order(&self, other: &Cut<R>) -> Result<Ordering> {
        if let (Some(a), Some(b)) = (&self.exact, &other.exact) {
            return Ok(a.cmp(b));
        }
        self.value.cmp_certain(&other.value).ok_or_else(|| {
            Error::Domain(format!(
                "cannot order the cut points {:?} and {:?} at this precision",
                self.value, other.value
            ))
        })
    }

    /// `(self − c)/s`.
    fn pull_back(&self, s: &Q, c: &Cut<R>) -> Cut<R> {
        let ctx = self.value.context();
        Cut {
            value: (self.value.clone() - &c.value) / R::from_rational(s, &ctx),
            exact: match (&self.exact, &c.exact) {
                (Some(p), Some(c)) => Some((p - c) / s),
                _ => None,
            },
        }
    }

    /// `k · self` for a rational `k`.
    pub fn scale(&self, k: &Q) -> Cut<R> {
        let ctx = self.value.context();
        Cut {
            value: self.value.clone() * R::from_rational(k, &ctx),
            exact: self.exact.as_ref().map(|q| q * k),
        }
    }
}

/// `coef · z^power · e^{rate·z}`.
#[derive(Clone, Debug)]
pub struct Term<R> {
    /// The coefficient.
    pub coef: R,
    /// The power of `z`.
    pub power: u32,
    /// The rate of the exponential.
    pub rate: Q,
}

/// A piecewise exponential-polynomial function (module documentation).
#[derive(Clone, Debug)]
pub struct Piecewise<R> {
    /// The cuts, in increasing order.
    cuts: Vec<Cut<R>>,
    /// `cuts.len() + 1` pieces, each a sum of terms.
    pieces: Vec<Vec<Term<R>>>,
}

/// Add `term` to `terms`, merging it with a term of the same power and rate.
fn push_term<R: Real>(terms: &mut Vec<Term<R>>, term: Term<R>) {
    match terms
        .iter_mut()
        .find(|t| t.power == term.power && t.rate == term.rate)
    {
        Some(t) => t.coef = t.coef.clone() + term.coef,
        None => terms.push(term),
    }
}

/// The value of a sum of terms at `z`.
fn evaluate<R: Real>(terms: &[Term<R>], z: &R) -> Result<R> {
    let ctx = z.context();
    let mut total = R::from_int(0, &ctx);
    for t in terms {
        let e = if t.rate.is_zero() {
            R::from_int(1, &ctx)
        } else {
            (R::from_rational(&t.rate, &ctx) * z).exp()?
        };
        total = total + t.coef.clone() * z.pow_u64(u64::from(t.power)) * e;
    }
    Ok(total)
}

impl<R: Real> Piecewise<R> {
    /// The constant `c` on the whole line.
    pub fn constant(c: R) -> Piecewise<R> {
        Piecewise {
            cuts: vec![],
            pieces: vec![vec![Term {
                coef: c,
                power: 0,
                rate: Q::zero(),
            }]],
        }
    }

    /// The density `e^{−|z|/b}/(2b)` of `Lap(b)`, `b > 0`.
    pub fn laplace(b: &Q, ctx: &R::Context) -> Piecewise<R> {
        let half = R::from_rational(&(Q::one() / (b * Q::from_integer(2.into()))), ctx);
        let rate = b.recip();
        Piecewise {
            cuts: vec![Cut::rational(Q::zero(), ctx)],
            pieces: vec![
                vec![Term {
                    coef: half.clone(),
                    power: 0,
                    rate: rate.clone(),
                }],
                vec![Term {
                    coef: half,
                    power: 0,
                    rate: -rate,
                }],
            ],
        }
    }

    /// Merge the cuts of `self` and `other` and combine their pieces.
    fn merge(
        &self,
        other: &Piecewise<R>,
        combine: impl Fn(&[Term<R>], &[Term<R>]) -> Vec<Term<R>>,
    ) -> Result<Piecewise<R>> {
        let (cuts, pieces) = merge_pieces(
            (&self.cuts, &self.pieces),
            (&other.cuts, &other.pieces),
            Cut::order,
            |a, b| combine(a, b),
        )?;
        Ok(Piecewise { cuts, pieces })
    }

    /// The product `self · other`.
    pub fn mul(&self, other: &Piecewise<R>) -> Result<Piecewise<R>> {
        self.merge(other, |a, b| {
            let mut out = Vec::with_capacity(a.len() * b.len());
            for x in a {
                for y in b {
                    push_term(
                        &mut out,
                        Term {
                            coef: x.coef.clone() * &y.coef,
                            power: x.power + y.power,
                            rate: &x.rate + &y.rate,
                        },
                    );
                }
            }
            out
        })
    }

    /// The difference `self − other`.
    pub fn sub(&self, other: &Piecewise<R>) -> Result<Piecewise<R>> {
        self.merge(other, |a, b| {
            let mut out = a.to_vec();
            for y in b {
                push_term(
                    &mut out,
                    Term {
                        coef: -y.coef.clone(),
                        power: y.power,
                        rate: y.rate.clone(),
                    },
                );
            }
            out
        })
    }

    /// `z ↦ self(s·z + c)` for a rational `s > 0`.
    pub fn compose(&self, s: &Q, c: &Cut<R>) -> Result<Piecewise<R>> {
        if !s.is_positive() {
            return Err(Error::InvalidInput(format!(
                "composition with a non-increasing map (slope {s})"
            )));
        }
        let ctx = c.value.context();
        let s_r = R::from_rational(s, &ctx);
        let mut pieces = Vec::with_capacity(self.pieces.len());
        for terms in &self.pieces {
            let mut out = Vec::new();
            for t in terms {
                let shift = if t.rate.is_zero() {
                    R::from_int(1, &ctx)
                } else {
                    (R::from_rational(&t.rate, &ctx) * &c.value).exp()?
                };
                let base = t.coef.clone() * shift;
                let mut binom = 1i64;
                for i in 0..=t.power {
                    let coef = base.clone()
                        * R::from_int(binom, &ctx)
                        * s_r.pow_u64(u64::from(i))
                        * c.value.pow_u64(u64::from(t.power - i));
                    push_term(
                        &mut out,
                        Term {
                            coef,
                            power: i,
                            rate: &t.rate * s,
                        },
                    );
                    binom = binom * i64::from(t.power - i) / i64::from(i + 1);
                }
            }
            pieces.push(out);
        }
        Ok(Piecewise {
            cuts: self.cuts.iter().map(|p| p.pull_back(s, c)).collect(),
            pieces,
        })
    }

    /// `H(z) = ∫_{−∞}^z self` and `H(+∞)`; an error when an end piece does not
    /// decay (a rate `≤ 0` on the first piece, `≥ 0` on the last).
    pub fn integral(&self, ctx: &R::Context) -> Result<(Piecewise<R>, R)> {
        let last = self.pieces.len() - 1;
        let decays = |terms: &[Term<R>], sign: Ordering| {
            terms.iter().all(|t| t.rate.cmp(&Q::zero()) == sign)
        };
        if !decays(&self.pieces[0], Ordering::Greater)
            || !decays(&self.pieces[last], Ordering::Less)
        {
            return Err(Error::Domain(
                "integral of a piecewise function that does not decay at ±∞".into(),
            ));
        }
        let mut pieces: Vec<Vec<Term<R>>> = Vec::with_capacity(self.pieces.len());
        for (i, terms) in self.pieces.iter().enumerate() {
            let mut prim = primitive(terms);
            if i > 0 {
                let at = &self.cuts[i - 1].value;
                let constant = evaluate(&pieces[i - 1], at)? - evaluate(&prim, at)?;
                push_term(
                    &mut prim,
                    Term {
                        coef: constant,
                        power: 0,
                        rate: Q::zero(),
                    },
                );
            }
            pieces.push(prim);
        }
        let total = pieces[last]
            .iter()
            .filter(|t| t.rate.is_zero())
            .fold(R::from_int(0, ctx), |acc, t| acc + &t.coef);
        Ok((
            Piecewise {
                cuts: self.cuts.clone(),
                pieces,
            },
            total,
        ))
    }
}

/// The cuts of two piecewise functions merged in order, and on each piece
/// of the merge `combine` of the two pieces it lies in (each side has one
/// piece more than cuts; `order` compares two cuts, equal ones either way).
pub(crate) fn merge_pieces<C: Clone, T>(
    (a_cuts, a_pieces): (&[C], &[T]),
    (b_cuts, b_pieces): (&[C], &[T]),
    order: impl Fn(&C, &C) -> Result<Ordering>,
    combine: impl Fn(&T, &T) -> T,
) -> Result<(Vec<C>, Vec<T>)> {
    let (mut i, mut j) = (0, 0);
    let mut cuts = Vec::with_capacity(a_cuts.len() + b_cuts.len());
    let mut pieces = vec![combine(&a_pieces[0], &b_pieces[0])];
    while i < a_cuts.len() || j < b_cuts.len() {
        let take_a = match (a_cuts.get(i), b_cuts.get(j)) {
            (Some(a), Some(b)) => order(a, b)? != Ordering::Greater,
            (Some(_), None) => true,
            _ => false,
        };
        if take_a {
            cuts.push(a_cuts[i].clone());
            i += 1;
        } else {
            cuts.push(b_cuts[j].clone());
            j += 1;
        }
        pieces.push(combine(&a_pieces[i], &b_pieces[j]));
    }
    Ok((cuts, pieces))
}

/// The primitive of a sum of terms, without constant.
fn primitive<R: Real>(terms: &[Term<R>]) -> Vec<Term<R>> {
    let mut out = Vec::new();
    for t in terms {
        let ctx = t.coef.context();
        if t.rate.is_zero() {
            push_term(
                &mut out,
                Term {
                    coef: t.coef.clone() / R::from_int(i64::from(t.power) + 1, &ctx),
                    power: t.power + 1,
                    rate: Q::zero(),
                },
            );
            continue;
        }
        // (−1)^i k!/(k−i)! / λ^{i+1} for the power k − i.
        let mut factor = t.rate.recip();
        for i in 0..=t.power {
            push_term(
                &mut out,
                Term {
                    coef: t.coef.clone() * R::from_rational(&factor, &ctx),
                    power: t.power - i,
                    rate: t.rate.clone(),
                },
            );
            factor = -factor * Q::from_integer(i64::from(t.power - i).into()) / &t.rate;
        }
    }
    out
}
