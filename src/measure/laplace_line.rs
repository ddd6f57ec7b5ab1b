//! The probability that independent Laplace variables, whose scales are
//! backend numbers (irrational ones too), satisfy pairwise difference
//! constraints along the edges of a forest, in closed form:
//!
//! ```text
//! P = P(V_c ≤ V_p + d_c  or  V_c > V_p + d_c  for every variable c with a parent p),
//! V_i ~ Lap(s_i) independent,
//! ```
//!
//! the law of "which noisy index beat which" when every comparison links
//! two noises and the comparisons form no cycle (one Laplace variable on
//! given sides of shifted others is a star).
//!
//! # Leaf to root, on the line
//!
//! For a variable `c`, `h_c(y) = f_{s_c}(y) ∏_{children g} m_g(y)` with
//! `f_s(y) = e^{−|y|/s}/(2s)`, and its message to its parent is
//!
//! ```text
//! m_c(x) = Φ_c(x + d_c) = ∫_{−∞}^{x+d_c} h_c   (V_c ≤ V_p + d_c),
//! m_c(x) = Ψ_c(x + d_c) = ∫_{x+d_c}^{∞} h_c    (V_c > V_p + d_c);
//! ```
//!
//! a root's `∫ h` is its tree's probability, and `P` the product over the
//! trees. Every function met is piecewise a sum of terms `c·x^k·e^{λx}` with
//! `λ = Σ_k m_k/s_k` over the distinct scales (`m_k` integers), between cuts
//! that are sums of the shifts: the density has rates `±1/s`, a product adds
//! rates, a shift `x ↦ x + d` gives `c·e^{λd} Σ_i C(k, i) d^{k−i} x^i e^{λx}`,
//! and the primitive is
//!
//! ```text
//! ∫ x^k e^{λx} dx = e^{λx} Σ_{i=0}^{k} (−1)^i k!/(k−i)! · x^{k−i}/λ^{i+1}   (λ ≠ 0),
//! x^{k+1}/(k+1)                                                             (λ = 0),
//! ```
//!
//! continued across the cuts by its value there; `Φ` is built from `−∞`
//! (where every rate of `h` is positive) and `Ψ` from `+∞` (every rate
//! negative), so neither is a difference of two totals and the constant
//! pieces of a message are exact where the function is.
//!
//! # Exact structure, certified numbers
//!
//! Rates are kept as their integer vectors `m` over the scales' keys: equal
//! keys must mean equal scales, and a zero vector is an exact zero rate. A
//! nonzero vector's rate must be decided nonzero by its enclosure (and of
//! the right sign on an unbounded piece); a rate that is zero through a
//! rational relation between distinct scales (`√4 = 2√1`) is not recognised
//! (at every precision an [`Error::Domain`], never a wrong answer). A
//! shift, and a cut, is a rational plus rational multiples of irrational
//! atoms ([`Offset`]): two cuts with the same atom coefficients are ordered
//! by their rationals exactly, others by their enclosures.
//!
//! Cost: a variable with children multiplies their messages' terms on the
//! merged pieces; a star of `m` leaves has at most `2^m` terms on each of
//! `m + 2` pieces (fewer once terms of equal rate vectors merge).

use super::piecewise::merge_pieces;
use crate::error::{Error, Result};
use crate::num::{Real, Q};
use num_traits::Zero;
use std::cmp::Ordering;

/// A shift `d = q + Σ_k c_k·α_k`: a rational `q` and rational coefficients
/// `c_k` of the atoms `α_k` (backend numbers given beside, by index).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Offset {
    /// `q`.
    pub rational: Q,
    /// `(k, c_k)`, sorted by `k`, every `c_k ≠ 0`.
    pub atoms: Vec<(usize, Q)>,
}

impl Offset {
    /// The rational `q`.
    pub fn rational(q: Q) -> Offset {
        Offset {
            rational: q,
            atoms: vec![],
        }
    }

    /// `self + other`.
    pub fn plus(&self, other: &Offset) -> Offset {
        let mut atoms = self.atoms.clone();
        for (k, c) in &other.atoms {
            match atoms.binary_search_by_key(k, |(j, _)| *j) {
                Ok(i) => atoms[i].1 += c,
                Err(i) => atoms.insert(i, (*k, c.clone())),
            }
        }
        atoms.retain(|(_, c)| !c.is_zero());
        Offset {
            rational: &self.rational + &other.rational,
            atoms,
        }
    }

    /// `−self`.
    pub fn negated(&self) -> Offset {
        Offset {
            rational: -self.rational.clone(),
            atoms: self.atoms.iter().map(|(k, c)| (*k, -c)).collect(),
        }
    }

    /// The value in the backend, with `atoms[k]` the value of `α_k`.
    pub fn value<R: Real>(&self, atoms: &[R], ctx: &R::Context) -> R {
        self.atoms
            .iter()
            .fold(R::from_rational(&self.rational, ctx), |v, (k, c)| {
                v + R::from_rational(c, ctx) * &atoms[*k]
            })
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

/// The constraint of a variable `V_c` on its parent `V_p`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    /// The index of the parent, smaller than the child's.
    pub parent: usize,
    /// `d`.
    pub shift: Offset,
    /// `V_c ≤ V_p + d` when true, `V_c > V_p + d` when false.
    pub below: bool,
}

/// A variable `V ~ Lap(scale)` and its constraint on its parent (none for
/// a root).
#[derive(Clone, Debug)]
pub struct Variable<R> {
    /// Its scale.
    pub scale: Scale<R>,
    /// Its constraint on its parent.
    pub edge: Option<Edge>,
}

/// `coef·x^power·e^{rate·x}`, `rate = Σ_k m_k/s_k` with `m = exponents`
/// (by key).
#[derive(Clone, Debug)]
struct Term<R> {
    coef: R,
    power: u32,
    rate: R,
    exponents: Vec<i64>,
}

/// A cut point: its offset and its value.
#[derive(Clone, Debug)]
struct Cut<R> {
    offset: Offset,
    value: R,
}

impl<R: Real> Cut<R> {
    /// Exact when the atoms agree, else by the enclosures.
    fn order(&self, other: &Cut<R>) -> Result<Ordering> {
        if self.offset.atoms == other.offset.atoms {
            return Ok(self.offset.rational.cmp(&other.offset.rational));
        }
        self.value.cmp_certain(&other.value).ok_or_else(|| {
            Error::Domain(format!(
                "cannot order the cuts {:?} and {:?} at this precision",
                self.offset, other.offset
            ))
        })
    }
}

/// A piecewise sum of terms: `cuts.len() + 1` pieces.
#[derive(Clone, Debug)]
struct Function<R> {
    cuts: Vec<Cut<R>>,
    pieces: Vec<Vec<Term<R>>>,
}

/// The atoms' values, the number of scale keys and the backend's context.
struct Forest<'a, R: Real> {
    atoms: &'a [R],
    keys: usize,
    ctx: &'a R::Context,
}

/// `P` of the module documentation: the probability that the variables
/// satisfy their edges' constraints. `atoms[k]` is the value of the atom
/// `α_k` of the shifts.
///
/// Errors: [`Error::InvalidInput`] when a parent does not come before its
/// child, [`Error::Domain`] when two cuts or the sign of a rate cannot be
/// decided at this precision.
pub fn forest_probability<R: Real>(
    variables: &[Variable<R>],
    atoms: &[R],
    ctx: &R::Context,
) -> Result<R> {
    let mut children = vec![vec![]; variables.len()];
    for (c, v) in variables.iter().enumerate() {
        if let Some(edge) = &v.edge {
            if edge.parent >= c {
                return Err(Error::InvalidInput(format!(
                    "variable {c}'s parent {} does not come before it",
                    edge.parent
                )));
            }
            children[edge.parent].push(c);
        }
    }
    let forest = Forest {
        atoms,
        keys: variables.iter().map(|v| v.scale.key + 1).max().unwrap_or(0),
        ctx,
    };
    // Leaves first: a child's index exceeds its parent's.
    let mut messages: Vec<Option<Function<R>>> = vec![None; variables.len()];
    let mut total = R::from_int(1, ctx);
    for c in (0..variables.len()).rev() {
        let mut h = forest.density(&variables[c].scale);
        for &g in &children[c] {
            let message = messages[g]
                .take()
                .ok_or_else(|| Error::Domain(format!("variable {g}'s message was used twice")))?;
            h = forest.product(&h, &message)?;
        }
        match &variables[c].edge {
            None => total = total * forest.mass(&h)?,
            Some(edge) => messages[c] = Some(forest.message(&h, edge)?),
        }
    }
    Ok(total)
}

impl<R: Real> Forest<'_, R> {
    /// The exponent vector `±e_key`.
    fn unit(&self, key: usize, sign: i64) -> Vec<i64> {
        let mut e = vec![0; self.keys];
        e[key] = sign;
        e
    }

    /// The density `e^{−|x|/s}/(2s)`.
    fn density(&self, scale: &Scale<R>) -> Function<R> {
        let coef = R::from_int(1, self.ctx) / (R::from_int(2, self.ctx) * &scale.value);
        let rate = R::from_int(1, self.ctx) / &scale.value;
        let side = |sign: i64, rate: R| Term {
            coef: coef.clone(),
            power: 0,
            rate,
            exponents: self.unit(scale.key, sign),
        };
        Function {
            cuts: vec![Cut {
                offset: Offset::rational(Q::zero()),
                value: R::from_int(0, self.ctx),
            }],
            pieces: vec![vec![side(1, rate.clone())], vec![side(-1, -rate)]],
        }
    }

    /// `a·b`, on the merged cuts.
    fn product(&self, a: &Function<R>, b: &Function<R>) -> Result<Function<R>> {
        let multiply = |x: &[Term<R>], y: &[Term<R>]| {
            let mut out = Vec::with_capacity(x.len() * y.len());
            for s in x {
                for t in y {
                    push_term(
                        &mut out,
                        Term {
                            coef: s.coef.clone() * &t.coef,
                            power: s.power + t.power,
                            rate: s.rate.clone() + &t.rate,
                            exponents: s
                                .exponents
                                .iter()
                                .zip(&t.exponents)
                                .map(|(m, n)| m + n)
                                .collect(),
                        },
                    );
                }
            }
            out
        };
        let (cuts, pieces) = merge_pieces(
            (&a.cuts, &a.pieces),
            (&b.cuts, &b.pieces),
            Cut::order,
            |x, y| multiply(x, y),
        )?;
        Ok(Function { cuts, pieces })
    }

    /// `∫ h` over the line.
    fn mass(&self, h: &Function<R>) -> Result<R> {
        let below = self.integral(h, true)?;
        let last = below.pieces.len() - 1;
        Ok(below.pieces[last]
            .iter()
            .filter(|t| t.power == 0 && t.exponents.iter().all(|&m| m == 0))
            .fold(R::from_int(0, self.ctx), |acc, t| acc + &t.coef))
    }

    /// The message `Φ(x + d)` or `Ψ(x + d)` of `h` across `edge`.
    fn message(&self, h: &Function<R>, edge: &Edge) -> Result<Function<R>> {
        let f = self.integral(h, edge.below)?;
        let d = edge.shift.value(self.atoms, self.ctx);
        let mut pieces = Vec::with_capacity(f.pieces.len());
        for terms in &f.pieces {
            let mut out = Vec::new();
            for t in terms {
                let base = t.coef.clone() * self.exponential(t, &d)?;
                let mut binomial = 1i64;
                for i in 0..=t.power {
                    push_term(
                        &mut out,
                        Term {
                            coef: base.clone()
                                * R::from_int(binomial, self.ctx)
                                * d.pow_u64(u64::from(t.power - i)),
                            power: i,
                            rate: t.rate.clone(),
                            exponents: t.exponents.clone(),
                        },
                    );
                    binomial = binomial * i64::from(t.power - i) / i64::from(i + 1);
                }
            }
            pieces.push(out);
        }
        let negated = edge.shift.negated();
        Ok(Function {
            cuts: f
                .cuts
                .iter()
                .map(|p| Cut {
                    offset: p.offset.plus(&negated),
                    value: p.value.clone() - &d,
                })
                .collect(),
            pieces,
        })
    }

    /// `e^{rate·x}` of a term, exactly 1 for a zero rate vector.
    fn exponential(&self, t: &Term<R>, x: &R) -> Result<R> {
        if t.exponents.iter().all(|&m| m == 0) {
            Ok(R::from_int(1, self.ctx))
        } else {
            (t.rate.clone() * x).exp()
        }
    }

    /// The value of a sum of terms at `x`.
    fn evaluate(&self, terms: &[Term<R>], x: &R) -> Result<R> {
        let mut total = R::from_int(0, self.ctx);
        for t in terms {
            total =
                total + t.coef.clone() * x.pow_u64(u64::from(t.power)) * self.exponential(t, x)?;
        }
        Ok(total)
    }

    /// `Φ(z) = ∫_{−∞}^z h` (`below`) or `Ψ(z) = ∫_z^∞ h` on the cuts of
    /// `h`: on each piece the primitive `F` (`−F` for `Ψ`), plus the
    /// constant that continues it across the cut from the end where it
    /// vanishes; an error when an end piece does not decay.
    fn integral(&self, h: &Function<R>, below: bool) -> Result<Function<R>> {
        let zero = R::from_int(0, self.ctx);
        let decays = |terms: &[Term<R>], sign: Ordering| -> Result<()> {
            for t in terms {
                let decided =
                    t.exponents.iter().any(|&m| m != 0) && t.rate.cmp_certain(&zero) == Some(sign);
                if !decided {
                    return Err(Error::Domain(format!(
                        "a term of rate {:?} on an unbounded piece: its decay is not decided",
                        t.exponents
                    )));
                }
            }
            Ok(())
        };
        let n = h.pieces.len();
        decays(&h.pieces[0], Ordering::Greater)?;
        decays(&h.pieces[n - 1], Ordering::Less)?;
        let order: Vec<usize> = if below {
            (0..n).collect()
        } else {
            (0..n).rev().collect()
        };
        let mut pieces: Vec<Vec<Term<R>>> = vec![vec![]; n];
        let mut previous: Option<usize> = None;
        for i in order {
            let mut terms = self.primitive(&h.pieces[i])?;
            if !below {
                for t in &mut terms {
                    t.coef = -t.coef.clone();
                }
            }
            if let Some(p) = previous {
                // Pieces i and i + 1 meet at cut i.
                let at = &h.cuts[i.min(p)].value;
                let constant = Term {
                    coef: self.evaluate(&pieces[p], at)? - self.evaluate(&terms, at)?,
                    power: 0,
                    rate: zero.clone(),
                    exponents: vec![0; self.keys],
                };
                push_term(&mut terms, constant);
            }
            pieces[i] = terms;
            previous = Some(i);
        }
        Ok(Function {
            cuts: h.cuts.clone(),
            pieces,
        })
    }

    /// The primitive of a sum of terms, without constant.
    fn primitive(&self, terms: &[Term<R>]) -> Result<Vec<Term<R>>> {
        let mut out = Vec::new();
        for t in terms {
            if t.exponents.iter().all(|&m| m == 0) {
                let next = t.power + 1;
                push_term(
                    &mut out,
                    Term {
                        coef: t.coef.clone() / R::from_int(i64::from(next), self.ctx),
                        power: next,
                        ..t.clone()
                    },
                );
                continue;
            }
            let zero = R::from_int(0, self.ctx);
            if !matches!(
                t.rate.cmp_certain(&zero),
                Some(Ordering::Less | Ordering::Greater)
            ) {
                return Err(Error::Domain(format!(
                    "the rate of exponents {:?} is not decided nonzero at this precision",
                    t.exponents
                )));
            }
            // (−1)^i k!/(k−i)! / λ^{i+1} for the power k − i.
            let mut factor = R::from_int(1, self.ctx) / &t.rate;
            for i in 0..=t.power {
                push_term(
                    &mut out,
                    Term {
                        coef: t.coef.clone() * &factor,
                        power: t.power - i,
                        ..t.clone()
                    },
                );
                factor = -factor * R::from_int(i64::from(t.power - i), self.ctx) / &t.rate;
            }
        }
        Ok(out)
    }
}

/// Add `term` to `terms`, merged with a term of the same power and rate
/// vector.
fn push_term<R: Real>(terms: &mut Vec<Term<R>>, term: Term<R>) {
    match terms
        .iter_mut()
        .find(|t| t.power == term.power && t.exponents == term.exponents)
    {
        Some(t) => t.coef = t.coef.clone() + term.coef,
        None => terms.push(term),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::{Certified, Exact, Precision, Q};

    const BITS: Precision = Precision(128);

    fn q(n: i64, d: i64) -> Q {
        Q::new(n.into(), d.into())
    }

    fn certified(n: i64, d: i64) -> Certified {
        Certified::from_rational(&q(n, d), &BITS)
    }

    fn assert_meets(x: &Certified, y: &Certified) {
        let ((a, b), (c, d)) = (x.enclosure().unwrap(), y.enclosure().unwrap());
        assert!(a <= d && c <= b, "[{a}, {b}] vs [{c}, {d}]");
    }

    fn variable<R>(key: usize, value: R, edge: Option<(usize, Offset, bool)>) -> Variable<R> {
        Variable {
            scale: Scale { key, value },
            edge: edge.map(|(parent, shift, below)| Edge {
                parent,
                shift,
                below,
            }),
        }
    }

    /// One edge: `P(L ≤ X + d) = P(X − L ≥ −d)`, the tail of the difference
    /// of two Laplace variables (the density of `X − L` integrated by hand):
    /// at `θ = −d = 1/2`, `a = b = 1`: `e^{−1/2}(5/2)/4`; `a = 1`, `b = 1/2`:
    /// `(e^{−1/2} − e^{−1}/4)/(2·3/4)`. With `P(L > X + d)` the complements.
    #[test]
    fn one_edge_is_the_tail_of_a_difference_of_two_laplace_variables() {
        let e = |n: i64, d: i64| certified(n, d).exp().unwrap();
        for (b, key, expected) in [
            (certified(1, 1), 0, e(-1, 2) * certified(5, 8)),
            (
                certified(1, 2),
                1,
                (e(-1, 2) - e(-1, 1) * certified(1, 4)) / certified(3, 2),
            ),
        ] {
            for below in [true, false] {
                let forest = [
                    variable(0, certified(1, 1), None),
                    variable(key, b.clone(), Some((0, Offset::rational(q(-1, 2)), below))),
                ];
                let p = forest_probability(&forest, &[], &BITS).unwrap();
                let want = if below {
                    expected.clone()
                } else {
                    certified(1, 1) - expected.clone()
                };
                assert_meets(&p, &want);
            }
        }
    }

    /// The two sides of an edge add to the probability without it, at any
    /// shifts and on any shape: a leaf under a chain whose shifts carry two
    /// irrational atoms, the last leaf taken on both sides.
    #[test]
    fn the_two_sides_of_an_edge_sum_to_the_probability_without_it() {
        let atoms = [certified(2, 1).ln().unwrap(), certified(3, 1).ln().unwrap()];
        let irrational = Offset {
            rational: q(1, 5),
            atoms: vec![(0, q(1, 1)), (1, q(-1, 2))],
        };
        let first = vec![
            variable(2, certified(3, 2), None),
            variable(
                0,
                certified(1, 1),
                Some((0, Offset::rational(q(1, 3)), false)),
            ),
            variable(1, certified(1, 3), Some((1, irrational, true))),
        ];
        let without = forest_probability(&first, &atoms, &BITS).unwrap();
        let sides: Vec<Certified> = [true, false]
            .into_iter()
            .map(|below| {
                let mut all = first.clone();
                let shift = Offset {
                    rational: q(-1, 1),
                    atoms: vec![(1, q(1, 1))],
                };
                all.push(variable(2, certified(3, 2), Some((1, shift, below))));
                forest_probability(&all, &atoms, &BITS).unwrap()
            })
            .collect();
        assert_meets(&(sides[0].clone() + &sides[1]), &without);
        assert!(sides
            .iter()
            .all(|p| p.enclosure().unwrap().0 > Q::from_integer(0.into())));
    }

    /// I.i.d. variables, zero shifts: every order is as likely, so a forest's
    /// probability is the fraction of the orders that satisfy it, counted
    /// by hand (`n!` orders): `V_0 < V_1 ≥ V_2` is `V_1` the largest of
    /// three, 1/3; the chain `V_0 < V_1 < V_2`, 1/6; `V_0 < V_1`,
    /// `V_0 < V_2 ≥ V_3` holds in 5 of the 24 orders of four (`V_0` first
    /// and `V_3` before `V_2`: 3 orders; `V_3` first, then `V_0`, then
    /// `V_1`, `V_2` either way: 2). Exactly: the exponentials of zero shifts
    /// are 1, the exact backend computes them, at any common scale.
    #[test]
    fn iid_orders_are_equally_likely_exactly() {
        let zero = || Offset::rational(Q::zero());
        for s in [q(1, 1), q(2, 3)] {
            for (edges, expected) in [
                (vec![(0, false), (1, true)], q(1, 3)),
                (vec![(0, false), (1, false)], q(1, 6)),
                (vec![(0, false), (0, false), (2, true)], q(5, 24)),
            ] {
                let forest: Vec<Variable<Exact>> = std::iter::once(variable(0, s.clone(), None))
                    .chain(edges.iter().map(|&(parent, below)| {
                        variable(0, s.clone(), Some((parent, zero(), below)))
                    }))
                    .collect();
                let p = forest_probability::<Exact>(&forest, &[], &()).unwrap();
                assert_eq!(p, expected, "{edges:?}");
            }
        }
    }

    /// A rate zero through a rational relation between distinct scales is
    /// not recognised: a root of scale 1/2 under two leaves of scale 1 cut
    /// left of 0 has the term `e^{2x}·e^{−x}·e^{−x}`, rate exactly 0 but
    /// exponents `(−2, 1)`, an [`Error::Domain`] (not a division by zero).
    #[test]
    fn a_hidden_zero_rate_is_an_error() {
        let leaf = || {
            variable(
                0,
                certified(1, 1),
                Some((0, Offset::rational(q(1, 1)), true)),
            )
        };
        let forest = [variable(1, certified(1, 2), None), leaf(), leaf()];
        assert!(matches!(
            forest_probability(&forest, &[], &BITS),
            Err(Error::Domain(_))
        ));
    }
}
