//! The Laplace measure of a polyhedron, in closed form: the probability that
//! independent Laplace noises satisfy a finite set of linear inequalities,
//! by Fourier–Motzkin integration of piecewise exponential-polynomials in
//! several variables (issue #13).
//!
//! The one-variable algebra of [`super::piecewise`] integrates a *tree* of
//! windows, one noise per node. The events of Hybrid-UCB (each arm's noisy
//! sum is a running sum of several noises) and of Anytime-Lazy-UCB with
//! `K > 2` arms (each round compares the pulled arm with every other) close
//! cycles, and after one noise is integrated out the integrand is cut by the
//! maximum and minimum of several affine functions of the others. This module
//! computes
//!
//! ```text
//! P = ∫_{ℝⁿ} ∏_i f_{b_i}(d_i·x) ∏_j 1[a_j·x + c_j ≥ 0] dx,   f_b(z) = e^{−|z|/b}/(2b),
//! ```
//!
//! with rational `d_i`, `a_j`, `b_i > 0`; when the rows `d_i` form a
//! triangular matrix with unit diagonal (a noise, or a noise's increment over
//! another), `P` is the probability that the noises satisfy the inequalities.
//!
//! # Constants are symbolic
//!
//! A constant `c_j` is `q_0 + Σ_k q_k·s_k`: rational coefficients of given
//! real *atoms* `s_k` (thresholds such as `√(3 ln t/n)`, known in the
//! backend only). Everything structural — the inequalities, their
//! comparison, their deduplication — is exact rational arithmetic on these
//! coefficients; the atoms' backend values enter only to decide the sign of
//! a constant that is not rational (certified comparison; an undecided sign
//! is [`Error::Domain`], which asks the caller for more precision) and in the
//! coefficients `e^{λ c}` of the closed form. Two constants with the same
//! coefficients are the same number, so equal thresholds never need a
//! numerical comparison. (Atoms are treated as independent symbols: two
//! different combinations that happen to be equal give an undecided sign at
//! every precision, an error — never a wrong answer.)
//!
//! # The integration
//!
//! The integrand is split into *cells*: a cell is a set of inequalities and
//! an exponential-polynomial `Σ c·x^p·e^{λ·x}` (`p` a vector of powers, `λ`
//! a vector of rational rates, `c` a backend number). Splitting each Laplace
//! factor at `d·x = 0` gives `2^{#factors}` cells with one term each.
//! Variables are eliminated one at a time (the one with the fewest pairs of
//! bounds over all cells first). In a cell, the inequalities involving `x_i`
//! are lower bounds `x_i ≥ ℓ_1, …, ℓ_p` and upper bounds `x_i ≤ u_1, …, u_q`,
//! affine in the other variables; for each pair `(ℓ_r, u_s)` the new cell has
//! the inequalities `ℓ_r ≥ ℓ_{r'}` (strict when `r' < r`, so that equal bounds
//! are counted once), `u_s ≤ u_{s'}` (likewise), `u_s ≥ ℓ_r`, and the term
//! integrated in closed form,
//!
//! ```text
//! ∫_{ℓ}^{u} x^k e^{λx} dx = F(u) − F(ℓ),
//! F(x) = e^{λx} Σ_{i=0}^{k} (−1)^i k!/(k−i)! · x^{k−i}/λ^{i+1}  (λ ≠ 0),  x^{k+1}/(k+1)  (λ = 0),
//! ```
//!
//! with `F(u(y))` expanded in the remaining variables `y` (`e^{λ·const}` a
//! coefficient, `(a·y + c)^j` multiplied out); a missing bound is `∓∞`, where
//! `F` vanishes if `λ` has the right sign and the integral diverges
//! otherwise (an error: it cannot happen for a density). An inequality whose
//! variables are all gone is decided on the spot. Cells with equal
//! inequalities are merged (their terms added), and in a cell two parallel
//! inequalities keep the tighter one, two opposite ones with an empty strip
//! between them empty the cell. When no variable is left, `P` is the sum of
//! the cells' constants.
//!
//! # Cost
//!
//! Exponential in the number of variables in the worst case (Fourier–Motzkin);
//! the events of this crate have at most about ten noises, two variables per
//! inequality, and the merging of cells keeps the count in the hundreds.

use crate::error::{Error, Result};
use crate::num::{Real, Q};
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

/// `x·coefficients + constant ≥ 0`, the constant being
/// `constant[0] + Σ_k constant[k + 1]·atom_k` (module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Inequality {
    /// The coefficient of each variable.
    pub x: Vec<Q>,
    /// The rational part, then the coefficient of each atom.
    pub constant: Vec<Q>,
}

impl Inequality {
    /// `x·coefficients + q ≥ 0` with a rational constant `q` and `atoms`
    /// atoms (their coefficients 0).
    pub fn rational(x: Vec<Q>, q: Q, atoms: usize) -> Inequality {
        let mut constant = vec![Q::zero(); atoms + 1];
        constant[0] = q;
        Inequality { x, constant }
    }

    /// The opposite inequality `−(a·x + c) ≥ 0` (the complement, up to the
    /// hyperplane).
    pub fn negated(&self) -> Inequality {
        self.scaled(&-Q::one())
    }

    /// `self + k·other`.
    fn add_scaled(&self, other: &Inequality, k: &Q) -> Inequality {
        let add = |a: &[Q], b: &[Q]| a.iter().zip(b).map(|(a, b)| a + b * k).collect();
        Inequality {
            x: add(&self.x, &other.x),
            constant: add(&self.constant, &other.constant),
        }
    }

    /// `k · self`.
    fn scaled(&self, k: &Q) -> Inequality {
        Inequality {
            x: self.x.iter().map(|a| a * k).collect(),
            constant: self.constant.iter().map(|a| a * k).collect(),
        }
    }

    /// Whether no variable is left.
    fn is_constant(&self) -> bool {
        self.x.iter().all(Zero::is_zero)
    }

    /// The same inequality with the first nonzero coefficient of ±1.
    fn normalized(&self) -> Inequality {
        match self.x.iter().find(|a| !a.is_zero()) {
            Some(a) => self.scaled(&a.abs().recip()),
            None => self.clone(),
        }
    }
}

/// A Laplace factor `f_b(d·x)` of the integrand.
#[derive(Clone, Debug)]
pub struct LaplaceFactor {
    /// The linear form `d`.
    pub form: Vec<Q>,
    /// The scale `b > 0`.
    pub scale: Q,
}

/// `x^powers · e^{rates·x}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Monomial {
    powers: Vec<u32>,
    rates: Vec<Q>,
}

/// The terms of a cell. Ordered maps, here and for the cells: the sums of
/// backend numbers are then taken in an order fixed by the event, so an
/// interval backend gives the same enclosure on every run (a sharded check's
/// merge evaluates a witness again and compares the enclosures exactly).
type Terms<R> = BTreeMap<Monomial, R>;

/// The cells: their inequalities and terms.
type Cells<R> = BTreeMap<Vec<Inequality>, Terms<R>>;

/// What the integration needs besides the cells: the atoms and a cache of
/// the exponentials of constants.
struct Workspace<'a, R: Real> {
    atoms: &'a [R],
    ctx: &'a R::Context,
    exp_cache: HashMap<Vec<Q>, R>,
}

impl<R: Real> Workspace<'_, R> {
    /// The value of a constant `q_0 + Σ q_k s_k`.
    fn value(&self, constant: &[Q]) -> R {
        constant[1..].iter().zip(self.atoms).fold(
            R::from_rational(&constant[0], self.ctx),
            |acc, (q, s)| {
                if q.is_zero() {
                    acc
                } else {
                    acc + R::from_rational(q, self.ctx) * s
                }
            },
        )
    }

    /// `e^{constant}`, cached.
    fn exp(&mut self, constant: Vec<Q>) -> Result<R> {
        if constant.iter().all(Zero::is_zero) {
            return Ok(R::from_int(1, self.ctx));
        }
        if let Some(v) = self.exp_cache.get(&constant) {
            return Ok(v.clone());
        }
        let v = self.value(&constant).exp()?;
        self.exp_cache.insert(constant, v.clone());
        Ok(v)
    }

    /// The sign of a constant: exact when it is rational, certified
    /// otherwise.
    fn sign(&self, constant: &[Q]) -> Result<Ordering> {
        if constant[1..].iter().all(Zero::is_zero) {
            return Ok(constant[0].cmp(&Q::zero()));
        }
        let zero = R::from_int(0, self.ctx);
        self.value(constant).cmp_certain(&zero).ok_or_else(|| {
            Error::Domain(
                "cannot decide the sign of a threshold combination at this precision".into(),
            )
        })
    }

    /// Whether the constant inequality `c ≥ 0` (`c > 0` when `strict`) holds.
    fn holds(&self, constant: &[Q], strict: bool) -> Result<bool> {
        Ok(match self.sign(constant)? {
            Ordering::Greater => true,
            Ordering::Equal => !strict,
            Ordering::Less => false,
        })
    }

    /// Normalize a cell's inequalities: parallel ones keep the tighter, an
    /// empty strip between opposite ones empties the cell (`None`).
    fn simplify(&self, inequalities: Vec<Inequality>) -> Result<Option<Vec<Inequality>>> {
        let mut by_direction: HashMap<Vec<Q>, Vec<Q>> = HashMap::new();
        for ineq in inequalities {
            let n = ineq.normalized();
            match by_direction.get_mut(&n.x) {
                None => {
                    by_direction.insert(n.x, n.constant);
                }
                Some(c) => {
                    let diff: Vec<Q> = n
                        .constant
                        .iter()
                        .zip(c.iter())
                        .map(|(a, b)| a - b)
                        .collect();
                    // Keep the smaller constant (an order the backend
                    // cannot decide asks for more precision).
                    if self.sign(&diff)? == Ordering::Less {
                        *c = n.constant;
                    }
                }
            }
        }
        let mut out: Vec<Inequality> = Vec::with_capacity(by_direction.len());
        for (x, constant) in &by_direction {
            let opposite: Vec<Q> = x.iter().map(|a| -a).collect();
            if let Some(c2) = by_direction.get(&opposite) {
                // −c ≤ a·x ≤ c2: a strip of positive width iff c + c2 > 0.
                let width: Vec<Q> = constant.iter().zip(c2).map(|(a, b)| a + b).collect();
                if !self.holds(&width, true)? {
                    return Ok(None);
                }
            }
            out.push(Inequality {
                x: x.clone(),
                constant: constant.clone(),
            });
        }
        out.sort();
        Ok(Some(out))
    }
}

/// `P` of the module documentation for `vars` variables: the Laplace factors,
/// the inequalities, and the values of the atoms their constants use.
///
/// Errors: [`Error::InvalidInput`] for inconsistent dimensions or a scale
/// that is not positive; [`Error::Domain`] when a sign cannot be decided at
/// the backend's precision or an integral diverges (a factor set that is not
/// a density).
pub fn laplace_measure<R: Real>(
    vars: usize,
    factors: &[LaplaceFactor],
    inequalities: &[Inequality],
    atoms: &[R],
    ctx: &R::Context,
) -> Result<R> {
    let width = atoms.len() + 1;
    if factors
        .iter()
        .any(|f| f.form.len() != vars || !f.scale.is_positive())
        || inequalities
            .iter()
            .any(|i| i.x.len() != vars || i.constant.len() != width)
    {
        return Err(Error::InvalidInput(
            "a Laplace factor or an inequality does not match the variables and atoms".into(),
        ));
    }
    let mut ws = Workspace {
        atoms,
        ctx,
        exp_cache: HashMap::new(),
    };
    // The inequalities without variables are decided now.
    let mut common = Vec::with_capacity(inequalities.len());
    for ineq in inequalities {
        if ineq.is_constant() {
            if !ws.holds(&ineq.constant, false)? {
                return Ok(R::from_int(0, ctx));
            }
        } else {
            common.push(ineq.clone());
        }
    }
    // Split every Laplace factor at d·x = 0: 2^{#factors} cells.
    let mut cells: Cells<R> = BTreeMap::new();
    for signs in 0..1u64 << factors.len() {
        let mut ineqs = common.clone();
        let mut rates = vec![Q::zero(); vars];
        let mut coef = R::from_int(1, ctx);
        for (i, f) in factors.iter().enumerate() {
            // Bit set: d·x ≥ 0, density e^{−d·x/b}/(2b); else d·x ≤ 0, e^{d·x/b}/(2b).
            let sign = if signs >> i & 1 == 1 {
                -Q::one()
            } else {
                Q::one()
            };
            let form = Inequality::rational(f.form.clone(), Q::zero(), atoms.len());
            ineqs.push(form.scaled(&-&sign));
            for (r, d) in rates.iter_mut().zip(&f.form) {
                *r += &sign * d / &f.scale;
            }
            coef =
                coef * R::from_rational(&(Q::one() / (&f.scale * Q::from_integer(2.into()))), ctx);
        }
        if let Some(ineqs) = ws.simplify(ineqs)? {
            let monomial = Monomial {
                powers: vec![0; vars],
                rates,
            };
            add_term(cells.entry(ineqs).or_default(), monomial, coef);
        }
    }
    let mut left: Vec<usize> = (0..vars).collect();
    while !left.is_empty() {
        let (pos, &var) = left
            .iter()
            .enumerate()
            .min_by_key(|&(_, &v)| cost(&cells, v))
            .expect("a variable is left");
        left.remove(pos);
        let mut next: Cells<R> = BTreeMap::new();
        for (ineqs, terms) in cells {
            eliminate(&mut ws, var, ineqs, &terms, &mut next)?;
        }
        cells = next;
        if std::env::var_os("DPDTOL_TRACE").is_some() {
            let terms: usize = cells.values().map(|t| t.len()).sum();
            let ineqs: usize = cells.keys().map(|k| k.len()).sum();
            eprintln!(
                "var {var}: {} cells, {terms} terms, {ineqs} ineqs",
                cells.len()
            );
        }
    }
    let mut total = R::from_int(0, ctx);
    for terms in cells.values() {
        for c in terms.values() {
            total = total + c;
        }
    }
    Ok(total)
}

/// Add `coef · monomial` to `terms`.
fn add_term<R: Real>(terms: &mut Terms<R>, monomial: Monomial, coef: R) {
    match terms.get_mut(&monomial) {
        Some(c) => *c = c.clone() + coef,
        None => {
            terms.insert(monomial, coef);
        }
    }
}

/// The number of (lower, upper) bound pairs eliminating `var` creates.
fn cost<R>(cells: &Cells<R>, var: usize) -> usize {
    cells
        .keys()
        .map(|ineqs| {
            let lower = ineqs.iter().filter(|i| i.x[var].is_positive()).count();
            let upper = ineqs.iter().filter(|i| i.x[var].is_negative()).count();
            lower.max(1) * upper.max(1)
        })
        .sum()
}

/// A bound `x_var ≥ ℓ(y)` or `≤ u(y)`, as the inequality `x_var − ℓ ≥ 0`
/// solved for `x_var`: `bound.x[var] = 0`.
fn solve(ineq: &Inequality, var: usize) -> Inequality {
    let a = &ineq.x[var];
    let mut bound = ineq.scaled(&-a.recip());
    bound.x[var] = Q::zero();
    bound
}

/// Integrate `var` out of one cell into `next` (module documentation).
fn eliminate<R: Real>(
    ws: &mut Workspace<'_, R>,
    var: usize,
    ineqs: Vec<Inequality>,
    terms: &Terms<R>,
    next: &mut Cells<R>,
) -> Result<()> {
    let mut keep = Vec::new();
    let (mut lower, mut upper) = (Vec::new(), Vec::new());
    for ineq in ineqs {
        match ineq.x[var].cmp(&Q::zero()) {
            Ordering::Greater => lower.push(solve(&ineq, var)),
            Ordering::Less => upper.push(solve(&ineq, var)),
            Ordering::Equal => keep.push(ineq),
        }
    }
    lower.sort();
    lower.dedup();
    upper.sort();
    upper.dedup();
    let lowers: Vec<Option<&Inequality>> = if lower.is_empty() {
        vec![None]
    } else {
        lower.iter().map(Some).collect()
    };
    let uppers: Vec<Option<&Inequality>> = if upper.is_empty() {
        vec![None]
    } else {
        upper.iter().map(Some).collect()
    };
    let minus_one = -Q::one();
    for (r, lo) in lowers.iter().enumerate() {
        'upper: for (s, hi) in uppers.iter().enumerate() {
            let mut new = keep.clone();
            // ℓ_r − ℓ_{r'} ≥ 0 (> 0 for r' < r), u_{s'} − u_s ≥ 0 (> 0 for s' < s), u − ℓ ≥ 0.
            let mut conditions: Vec<(Inequality, bool)> = Vec::new();
            if let Some(lo) = lo {
                for (r2, other) in lower.iter().enumerate().filter(|&(r2, _)| r2 != r) {
                    conditions.push((lo.add_scaled(other, &minus_one), r2 < r));
                }
            }
            if let Some(hi) = hi {
                for (s2, other) in upper.iter().enumerate().filter(|&(s2, _)| s2 != s) {
                    conditions.push((other.add_scaled(hi, &minus_one), s2 < s));
                }
                if let Some(lo) = lo {
                    conditions.push((hi.add_scaled(lo, &minus_one), false));
                }
            }
            for (c, strict) in conditions {
                if c.is_constant() {
                    if !ws.holds(&c.constant, strict)? {
                        continue 'upper;
                    }
                } else {
                    new.push(c);
                }
            }
            let Some(new) = ws.simplify(new)? else {
                continue;
            };
            let mut integrated: Terms<R> = BTreeMap::new();
            for (monomial, coef) in terms {
                if let Some(hi) = hi {
                    antiderivative_at(ws, var, monomial, coef, hi, false, &mut integrated)?;
                } else {
                    check_decay(monomial, var, Ordering::Less)?;
                }
                if let Some(lo) = lo {
                    antiderivative_at(ws, var, monomial, coef, lo, true, &mut integrated)?;
                } else {
                    check_decay(monomial, var, Ordering::Greater)?;
                }
            }
            let cell = next.entry(new).or_default();
            for (m, c) in integrated {
                add_term(cell, m, c);
            }
        }
    }
    Ok(())
}

/// At `−∞` (`sign` Greater) or `+∞` (Less) the primitive of the term in
/// `x_var` vanishes iff its rate has that sign.
fn check_decay(monomial: &Monomial, var: usize, sign: Ordering) -> Result<()> {
    if monomial.rates[var].cmp(&Q::zero()) == sign {
        Ok(())
    } else {
        Err(Error::Domain(
            "the integrand does not decay along an unbounded direction (not a density)".into(),
        ))
    }
}

/// Add `± coef · F(bound)` to `out`: `F` the primitive in `x_var` of
/// `monomial` (module documentation), `bound` affine in the other variables,
/// subtracted when `negate`.
fn antiderivative_at<R: Real>(
    ws: &mut Workspace<'_, R>,
    var: usize,
    monomial: &Monomial,
    coef: &R,
    bound: &Inequality,
    negate: bool,
    out: &mut Terms<R>,
) -> Result<()> {
    let ctx = ws.ctx;
    let k = monomial.powers[var];
    let lambda = &monomial.rates[var];
    // F = e^{λx} Σ_j d_j x^j.
    let mut primitive: Vec<(u32, Q)> = Vec::new();
    if lambda.is_zero() {
        primitive.push((k + 1, Q::from_integer((i64::from(k) + 1).into()).recip()));
    } else {
        let mut factor = lambda.recip();
        for i in 0..=k {
            primitive.push((k - i, factor.clone()));
            factor = -factor * Q::from_integer(i64::from(k - i).into()) / lambda;
        }
    }
    // e^{λ·bound} = e^{λ·constant} · e^{λ·bound.x·y}.
    let shift = ws.exp(bound.constant.iter().map(|c| c * lambda).collect())?;
    let base = if negate {
        -(coef.clone() * shift)
    } else {
        coef.clone() * shift
    };
    let mut rest = monomial.clone();
    rest.powers[var] = 0;
    rest.rates[var] = Q::zero();
    for (r, b) in rest.rates.iter_mut().zip(&bound.x) {
        *r += lambda * b;
    }
    let value = ws.value(&bound.constant);
    let max_power = primitive.iter().map(|p| p.0).max().unwrap_or(0);
    // The powers bound^j = (bound.x·y + value)^j, j ≤ max_power, as
    // polynomials in y.
    let mut power: Vec<(Vec<u32>, R)> = vec![(vec![0; bound.x.len()], R::from_int(1, ctx))];
    let mut powers = vec![power.clone()];
    for _ in 0..max_power {
        let mut product: BTreeMap<Vec<u32>, R> = BTreeMap::new();
        for (p, c) in &power {
            let mut push = |p: Vec<u32>, c: R| match product.get_mut(&p) {
                Some(x) => *x = x.clone() + c,
                None => {
                    product.insert(p, c);
                }
            };
            push(p.clone(), c.clone() * &value);
            for (v, a) in bound.x.iter().enumerate().filter(|(_, a)| !a.is_zero()) {
                let mut q = p.clone();
                q[v] += 1;
                push(q, c.clone() * R::from_rational(a, ctx));
            }
        }
        power = product.into_iter().collect();
        powers.push(power.clone());
    }
    for (j, d) in primitive {
        let d = R::from_rational(&d, ctx);
        for (p, c) in &powers[j as usize] {
            let mut m = rest.clone();
            for (a, b) in m.powers.iter_mut().zip(p) {
                *a += b;
            }
            add_term(out, m, base.clone() * &d * c);
        }
    }
    Ok(())
}
