//! The integral over the real line of a Laplace density times a product of
//! shifted Laplace distribution functions, whose scales are backend numbers
//! (irrational ones too), in closed form:
//!
//! ```text
//! P = ∫ f_a(x) ∏_j G_j(x) dx,   f_a(x) = e^{−|x|/a}/(2a),
//! G_j(x) = P(L_j ≤ x + d_j)  or  P(L_j > x + d_j),   L_j ~ Lap(b_j),
//! ```
//!
//! the probability that one Laplace variable `X ~ Lap(a)` stands on given
//! sides of independent others shifted by `d_j`. Between consecutive cuts
//! (`0` and every `−d_j`) each factor is one of `e^{y/b}/2`,
//! `1 − e^{−y/b}/2` or their complements (`y = x + d_j`), so the integrand
//! is a sum of terms `c·e^{λx}` with `λ = Σ_k m_k/s_k` over the distinct
//! scales `s_k` (`m_k` integers), integrated as
//! `c(e^{λv} − e^{λu})/λ` (`c(v − u)` when `λ = 0`).
//!
//! Rates are kept as their integer vectors `m` over the scales' keys: equal
//! keys must mean equal scales, and a zero vector is an exact zero rate.
//! A nonzero vector's rate is decided nonzero by its enclosure; a rate that
//! is zero through a rational relation between distinct scales (`√4 = 2√1`)
//! is not recognised and stays undecided ([`Error::Domain`] at every
//! precision). A shift is a rational plus an optional irrational atom with a
//! key ([`Shift`]): two cuts with the same atom (or none) are ordered by
//! their rationals exactly, others by their enclosures.
//!
//! Cost: with `m` factors, at most `2^m` terms on each of `m + 2` pieces
//! (fewer once terms of equal rate vectors merge).

use crate::error::{Error, Result};
use crate::num::{Real, Q};
use std::cmp::Ordering;

/// A shift `d = q + α`: a rational `q` and an optional atom `α`, a backend
/// number with a key that equal atoms share.
#[derive(Clone, Debug)]
pub struct Shift<R> {
    /// `q`.
    pub rational: Q,
    /// `α` and its key; `None` for `α = 0`.
    pub atom: Option<(usize, R)>,
}

impl<R: Real> Shift<R> {
    /// `q + α` in the backend.
    pub fn value(&self, ctx: &R::Context) -> R {
        let q = R::from_rational(&self.rational, ctx);
        match &self.atom {
            Some((_, a)) => q + a,
            None => q,
        }
    }

    /// The order of two shifts: exact when their atoms are the same (or
    /// both absent), else by their enclosures ([`Error::Domain`] when
    /// those overlap).
    pub fn order(&self, other: &Shift<R>, ctx: &R::Context) -> Result<Ordering> {
        let same_atom = match (&self.atom, &other.atom) {
            (None, None) => true,
            (Some((a, _)), Some((b, _))) => a == b,
            _ => false,
        };
        if same_atom {
            return Ok(self.rational.cmp(&other.rational));
        }
        self.value(ctx)
            .cmp_certain(&other.value(ctx))
            .ok_or_else(|| {
                Error::Domain(format!(
                    "cannot order the shifts {} + {:?} and {} + {:?} at this precision",
                    self.rational, self.atom, other.rational, other.atom
                ))
            })
    }

    /// `−d`.
    fn negated(&self) -> Shift<R> {
        Shift {
            rational: -self.rational.clone(),
            atom: self.atom.clone().map(|(k, a)| (k, -a)),
        }
    }
}

/// A Laplace scale: its value, and a key that equal scales share.
#[derive(Clone, Debug)]
pub struct Scale<R> {
    /// Equal keys, equal scales (the rates' exact zero test reads them).
    pub key: usize,
    /// The scale, positive.
    pub value: R,
}

/// One factor `G(x)`: `P(L ≤ x + shift)` (`below`) or `P(L > x + shift)`,
/// `L ~ Lap(scale)`.
#[derive(Clone, Debug)]
pub struct CdfFactor<R> {
    /// The scale of `L`.
    pub scale: Scale<R>,
    /// `d`.
    pub shift: Shift<R>,
    /// `P(L ≤ x + d)` when true, `P(L > x + d)` when false.
    pub below: bool,
}

/// `coef·e^{rate·x}`, `rate = Σ_k m_k/s_k` with `m = exponents` (by key).
#[derive(Clone, Debug)]
struct Term<R> {
    coef: R,
    rate: R,
    exponents: Vec<i64>,
}

/// `∫ f_a(x) ∏_j G_j(x) dx` (module documentation).
///
/// Errors: [`Error::Domain`] when two cuts or the sign of a rate cannot be
/// decided at this precision.
pub fn density_times_cdfs<R: Real>(
    density: &Scale<R>,
    factors: &[CdfFactor<R>],
    ctx: &R::Context,
) -> Result<R> {
    let keys = factors
        .iter()
        .map(|f| f.scale.key)
        .chain([density.key])
        .max()
        .unwrap_or(0)
        + 1;
    // The cuts: the density's 0 (owner None), factor j's −d_j (owner Some(j)).
    let zero = Shift {
        rational: Q::from_integer(0.into()),
        atom: None,
    };
    let mut cuts: Vec<(Shift<R>, Option<usize>)> = vec![(zero, None)];
    for (j, f) in factors.iter().enumerate() {
        let cut = f.shift.negated();
        // Insertion in order.
        let mut at = cuts.len();
        while at > 0 && cuts[at - 1].0.order(&cut, ctx)? == Ordering::Greater {
            at -= 1;
        }
        cuts.insert(at, (cut, Some(j)));
    }
    let values: Vec<R> = cuts.iter().map(|(c, _)| c.value(ctx)).collect();
    // The position of each owner's cut among the sorted cuts.
    let mut density_at = 0;
    let mut factor_at = vec![0; factors.len()];
    for (i, (_, owner)) in cuts.iter().enumerate() {
        match owner {
            None => density_at = i,
            Some(j) => factor_at[*j] = i,
        }
    }
    let one = R::from_int(1, ctx);
    let half = R::from_rational(&Q::new(1.into(), 2.into()), ctx);
    let unit = |key: usize, sign: i64| {
        let mut e = vec![0i64; keys];
        e[key] = sign;
        e
    };
    // e^{d/b} and e^{−d/b} of each factor.
    let mut shifted = Vec::with_capacity(factors.len());
    for f in factors {
        let ratio = f.shift.value(ctx) / &f.scale.value;
        shifted.push((ratio.exp()?, (-ratio).exp()?));
    }
    let inverse = |s: &Scale<R>| one.clone() / &s.value;
    let mut total = R::from_int(0, ctx);
    for piece in 0..=cuts.len() {
        // On piece p (between cuts p − 1 and p), x is above the cut at i iff p > i.
        let above = |i: usize| piece > i;
        let rate_a = inverse(density);
        let coef_a = half.clone() / &density.value;
        let mut terms = vec![if above(density_at) {
            Term {
                coef: coef_a,
                rate: -rate_a,
                exponents: unit(density.key, -1),
            }
        } else {
            Term {
                coef: coef_a,
                rate: rate_a,
                exponents: unit(density.key, 1),
            }
        }];
        for (j, f) in factors.iter().enumerate() {
            let rate = inverse(&f.scale);
            let (grow, decay) = &shifted[j];
            // y = x + d below 0: P(L ≤ y) = e^{y/b}/2; above: 1 − e^{−y/b}/2.
            let exponential = if above(factor_at[j]) {
                Term {
                    coef: half.clone() * decay,
                    rate: -rate,
                    exponents: unit(f.scale.key, -1),
                }
            } else {
                Term {
                    coef: half.clone() * grow,
                    rate,
                    exponents: unit(f.scale.key, 1),
                }
            };
            // The factor is `exponential` or `1 − exponential`.
            let constant_part = above(factor_at[j]) == f.below;
            let mut next = Vec::with_capacity(2 * terms.len());
            for t in &terms {
                let sign = if constant_part {
                    -one.clone()
                } else {
                    one.clone()
                };
                let product = Term {
                    coef: sign * t.coef.clone() * &exponential.coef,
                    rate: t.rate.clone() + &exponential.rate,
                    exponents: t
                        .exponents
                        .iter()
                        .zip(&exponential.exponents)
                        .map(|(a, b)| a + b)
                        .collect(),
                };
                push_term(&mut next, product);
                if constant_part {
                    push_term(&mut next, t.clone());
                }
            }
            terms = next;
        }
        let lower = piece.checked_sub(1).map(|i| &values[i]);
        let upper = values.get(piece);
        for t in &terms {
            total = total + integral(t, lower, upper, ctx)?;
        }
    }
    Ok(total)
}

/// Add `term` to `terms`, merged with a term of the same rate vector.
fn push_term<R: Real>(terms: &mut Vec<Term<R>>, term: Term<R>) {
    match terms.iter_mut().find(|t| t.exponents == term.exponents) {
        Some(t) => t.coef = t.coef.clone() + term.coef,
        None => terms.push(term),
    }
}

/// `∫_u^v coef·e^{rate·x} dx`, `None` for `−∞` (`lower`) or `+∞` (`upper`).
fn integral<R: Real>(
    term: &Term<R>,
    lower: Option<&R>,
    upper: Option<&R>,
    ctx: &R::Context,
) -> Result<R> {
    if term.exponents.iter().all(|&m| m == 0) {
        return match (lower, upper) {
            (Some(u), Some(v)) => Ok(term.coef.clone() * (v.clone() - u)),
            _ => Err(Error::Domain(
                "a constant term on an unbounded piece: the integral diverges".into(),
            )),
        };
    }
    let zero = R::from_int(0, ctx);
    let sign = term.rate.cmp_certain(&zero).ok_or_else(|| {
        Error::Domain(format!(
            "the sign of the rate {:?} is not decided at this precision",
            term.rate
        ))
    })?;
    let at = |x: &R| -> Result<R> { (term.rate.clone() * x).exp() };
    let primitive = match (lower, upper, sign) {
        (Some(u), Some(v), _) => at(v)? - at(u)?,
        (None, Some(v), Ordering::Greater) => at(v)?,
        (Some(u), None, Ordering::Less) => -at(u)?,
        _ => {
            return Err(Error::Domain(
                "a rate of the wrong sign on an unbounded piece: the integral diverges".into(),
            ))
        }
    };
    Ok(term.coef.clone() * primitive / &term.rate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::{Certified, Precision, Q};

    const BITS: Precision = Precision(128);

    fn certified(n: i64, d: i64) -> Certified {
        Certified::from_rational(&Q::new(n.into(), d.into()), &BITS)
    }

    fn shift(n: i64, d: i64) -> Shift<Certified> {
        Shift {
            rational: Q::new(n.into(), d.into()),
            atom: None,
        }
    }

    fn assert_meets(x: &Certified, y: &Certified) {
        let ((a, b), (c, d)) = (x.enclosure().unwrap(), y.enclosure().unwrap());
        assert!(a <= d && c <= b, "[{a}, {b}] vs [{c}, {d}]");
    }

    /// One factor: `P(L ≤ X + d) = P(X − L ≥ −d)`, the tail of the difference
    /// of two Laplace variables (the density of `X − L` integrated by hand):
    /// at `θ = −d = 1/2`, `a = b = 1`: `e^{−1/2}(5/2)/4`; `a = 1`, `b = 1/2`:
    /// `(e^{−1/2} − e^{−1}/4)/(2·3/4)`. With `P(L > X + d)` the complements.
    #[test]
    fn one_factor_is_the_tail_of_a_difference_of_two_laplace_variables() {
        let e = |n: i64, d: i64| certified(n, d).exp().unwrap();
        for (b, key, expected) in [
            (certified(1, 1), 0, e(-1, 2) * certified(5, 8)),
            (
                certified(1, 2),
                1,
                (e(-1, 2) - e(-1, 1) * certified(1, 4)) / certified(3, 2),
            ),
        ] {
            let density = Scale {
                key: 0,
                value: certified(1, 1),
            };
            for below in [true, false] {
                let factor = CdfFactor {
                    scale: Scale {
                        key,
                        value: b.clone(),
                    },
                    shift: shift(-1, 2),
                    below,
                };
                let p = density_times_cdfs(&density, &[factor], &BITS).unwrap();
                let want = if below {
                    expected.clone()
                } else {
                    certified(1, 1) - expected.clone()
                };
                assert_meets(&p, &want);
            }
        }
    }

    /// The two sides of a factor add to the integral without it, at any
    /// shifts: with `G` and `1 − G` for the last of three factors.
    #[test]
    fn the_two_sides_of_a_factor_sum_to_the_integral_without_it() {
        let density = Scale {
            key: 2,
            value: certified(3, 2),
        };
        let factor = |key: usize, b: Certified, d: Shift<Certified>, below: bool| CdfFactor {
            scale: Scale { key, value: b },
            shift: d,
            below,
        };
        let irrational = Shift {
            rational: Q::new(1.into(), 5.into()),
            atom: Some((0, certified(2, 1).ln().unwrap())),
        };
        let first = [
            factor(0, certified(1, 1), shift(1, 3), true),
            factor(1, certified(1, 3), irrational, false),
        ];
        let without = density_times_cdfs(&density, &first, &BITS).unwrap();
        let sides: Vec<Certified> = [true, false]
            .into_iter()
            .map(|below| {
                let mut all = first.to_vec();
                all.push(factor(2, certified(3, 2), shift(-1, 1), below));
                density_times_cdfs(&density, &all, &BITS).unwrap()
            })
            .collect();
        assert_meets(&(sides[0].clone() + &sides[1]), &without);
        assert!(sides
            .iter()
            .all(|p| p.enclosure().unwrap().0 > Q::from_integer(0.into())));
    }
}
