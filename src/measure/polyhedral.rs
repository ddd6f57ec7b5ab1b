//! The Laplace measure of a polyhedron, in closed form: the probability that
//! independent Laplace noises satisfy a finite set of linear inequalities,
//! by Fourier–Motzkin integration of piecewise exponential-polynomials in
//! several variables.
//!
//! The one-variable algebra of [`super::piecewise`] integrates a *tree* of
//! windows, one noise per node. Events whose noises close cycles (a noisy
//! sum that is a running sum of several noises, as in Hybrid-UCB; a round
//! that compares one noisy mean with several others, as in Anytime-Lazy-UCB
//! with `K > 2` arms) are not trees: after one noise is integrated out, the
//! integrand is cut by the maximum and minimum of several affine functions of
//! the others. This module computes
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
//! a vector of rational rates, `c` a backend number), times the Laplace
//! factors not yet split, which are common to all cells. A factor is split
//! at `d·x = 0` (each cell becomes two, with `d·x ≥ 0` and the term times
//! `e^{−d·x/b}/(2b)`, or `d·x ≤ 0` and `e^{d·x/b}/(2b)`) only when a variable
//! it involves is about to be integrated out, so the `2^{#factors}` sign
//! patterns are never all present at once.
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
//! # Arithmetic
//!
//! The structural rationals (coefficients, rates, atom coefficients) are
//! small: they are built from the counts, the scales and a few eliminations.
//! They are kept as 128-bit rationals with checked operations, and an
//! overflow is [`Error::TooLarge`], never a wrong answer; the public types
//! take and give arbitrary-precision rationals.
//!
//! # Cost
//!
//! Exponential in the number of variables in the worst case (Fourier–Motzkin);
//! the events of this crate have at most about ten noises, two variables per
//! inequality, and the merging of cells keeps the count in the hundreds.

use crate::error::{Error, Result};
use crate::num::{Real, Q};
use num_bigint::BigInt;
use num_traits::{CheckedAdd, CheckedDiv, CheckedMul, One, Signed, ToPrimitive, Zero};
use rustc_hash::FxHashMap as HashMap;
use std::cmp::Ordering;

/// `x·coefficients + constant ≥ 0`, the constant being
/// `constant[0] + Σ_k constant[k + 1]·atom_k` (module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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
        let neg = |v: &[Q]| v.iter().map(|a| -a).collect();
        Inequality {
            x: neg(&self.x),
            constant: neg(&self.constant),
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

/// A structural rational (module documentation, "Arithmetic").
type Rat = num_rational::Ratio<i128>;

/// The largest numerator `p` whose exponential `e^{(p/d)·s}` is taken as a
/// power of `e^{s/d}` ([`Workspace::exp_term`]): at most ten squarings and
/// ten products, and about ten bits of relative width.
const MAX_POWER: u128 = 1 << 10;

fn overflow() -> Error {
    Error::TooLarge(
        "the noise scales and the values they are compared with differ too much in size: the Laplace integration keeps its coefficients as 128-bit fractions (use a noise scale nearer the rewards' range)".into(),
    )
}

fn small(q: &Q) -> Result<Rat> {
    match (q.numer().to_i128(), q.denom().to_i128()) {
        (Some(n), Some(d)) => Ok(Rat::new(n, d)),
        _ => Err(overflow()),
    }
}

fn big(r: &Rat) -> Q {
    Q::new(BigInt::from(*r.numer()), BigInt::from(*r.denom()))
}

fn add(a: &Rat, b: &Rat) -> Result<Rat> {
    a.checked_add(b).ok_or_else(overflow)
}

fn mul(a: &Rat, b: &Rat) -> Result<Rat> {
    a.checked_mul(b).ok_or_else(overflow)
}

fn div(a: &Rat, b: &Rat) -> Result<Rat> {
    a.checked_div(b).ok_or_else(overflow)
}

/// An inequality `x·a + c ≥ 0` in structural rationals.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Lin {
    x: Vec<Rat>,
    c: Vec<Rat>,
}

impl Lin {
    fn new(ineq: &Inequality) -> Result<Lin> {
        let conv = |v: &[Q]| v.iter().map(small).collect::<Result<Vec<_>>>();
        Ok(Lin {
            x: conv(&ineq.x)?,
            c: conv(&ineq.constant)?,
        })
    }

    /// `self + k·other`.
    fn add_scaled(&self, other: &Lin, k: &Rat) -> Result<Lin> {
        let f = |a: &[Rat], b: &[Rat]| {
            a.iter()
                .zip(b)
                .map(|(a, b)| add(a, &mul(b, k)?))
                .collect::<Result<Vec<_>>>()
        };
        Ok(Lin {
            x: f(&self.x, &other.x)?,
            c: f(&self.c, &other.c)?,
        })
    }

    /// `k · self`.
    fn scaled(&self, k: &Rat) -> Result<Lin> {
        let f = |a: &[Rat]| a.iter().map(|a| mul(a, k)).collect::<Result<Vec<_>>>();
        Ok(Lin {
            x: f(&self.x)?,
            c: f(&self.c)?,
        })
    }

    /// Whether no variable is left.
    fn is_constant(&self) -> bool {
        self.x.iter().all(Zero::is_zero)
    }

    /// The same inequality with the first nonzero coefficient of ±1.
    fn normalized(&self) -> Result<Lin> {
        match self.x.iter().find(|a| !a.is_zero()) {
            Some(a) if !a.abs().is_one() => self.scaled(&a.abs().recip()),
            _ => Ok(self.clone()),
        }
    }
}

/// `x^powers · e^{rates·x}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Monomial {
    powers: Vec<u32>,
    rates: Vec<Rat>,
}

/// The terms of a cell.
type Terms<R> = HashMap<Monomial, R>;

/// The cells: inequalities (sorted) and terms.
type Cells<R> = HashMap<Vec<Lin>, Terms<R>>;

/// A Laplace factor not yet split: `d` and `1/b`.
struct Pending {
    form: Vec<Rat>,
    rate: Rat,
    half_rate: Q,
}

/// What the integration needs besides the cells: the atoms and caches of the
/// values of constants and of the exponentials of their parts.
struct Workspace<'a, R: Real> {
    atoms: &'a [R],
    ctx: &'a R::Context,
    values: HashMap<Vec<Rat>, R>,
    exps: HashMap<(usize, Rat), R>,
    rationals: HashMap<Rat, R>,
}

impl<R: Real> Workspace<'_, R> {
    /// A structural rational in the backend, cached (the same few
    /// rationals recur in every cell, and a conversion costs a division).
    fn rational(&mut self, q: &Rat) -> R {
        if let Some(v) = self.rationals.get(q) {
            return v.clone();
        }
        let v = R::from_rational(&big(q), self.ctx);
        self.rationals.insert(*q, v.clone());
        v
    }

    /// The value of a constant `q_0 + Σ q_k s_k`, cached.
    fn value(&mut self, constant: &[Rat]) -> R {
        if let Some(v) = self.values.get(constant) {
            return v.clone();
        }
        let mut v = self.rational(&constant[0]);
        for (q, s) in constant[1..].iter().zip(self.atoms) {
            if !q.is_zero() {
                v = v + self.rational(q) * s;
            }
        }
        self.values.insert(constant.to_vec(), v.clone());
        v
    }

    /// `e^{constant} = e^{q_0} ∏_k e^{q_k s_k}`, the factors cached (far
    /// fewer distinct `(k, q_k)` than distinct constants).
    fn exp(&mut self, constant: &[Rat]) -> Result<R> {
        let mut product: Option<R> = None;
        for (k, q) in constant.iter().enumerate().filter(|(_, q)| !q.is_zero()) {
            let factor = self.exp_term(k, q)?;
            product = Some(match product {
                None => factor,
                Some(p) => p * &factor,
            });
        }
        Ok(product.unwrap_or_else(|| R::from_int(1, self.ctx)))
    }

    /// `e^{q·s_k}` (`s_0 = 1`), cached. With `q = ±p/d`, `p ≤`
    /// [`MAX_POWER`], it is the power `(e^{±s_k/d})^p` of a cached root: the
    /// rates and constants of one integration share a few denominators
    /// (about 70 roots for some 14 000 exponentials in DP-UCB's law at
    /// `T = 8`), and `p` multiplications cost far less than a series. A
    /// certified power encloses the exponential as the series does; its
    /// relative width is at most about `p` times the root's.
    fn exp_term(&mut self, k: usize, q: &Rat) -> Result<R> {
        if let Some(v) = self.exps.get(&(k, *q)) {
            return Ok(v.clone());
        }
        let p = q.numer().unsigned_abs();
        let v = if p > 1 && p <= MAX_POWER {
            let root = Rat::new(q.numer().signum(), *q.denom());
            self.exp_term(k, &root)?.pow_u64(p as u64)
        } else {
            let x = self.rational(q);
            if k == 0 { x } else { x * &self.atoms[k - 1] }.exp()?
        };
        self.exps.insert((k, *q), v.clone());
        Ok(v)
    }

    /// The sign of a constant: exact when it is rational, certified
    /// otherwise.
    fn sign(&mut self, constant: &[Rat]) -> Result<Ordering> {
        if constant[1..].iter().all(Zero::is_zero) {
            return Ok(constant[0].cmp(&Rat::zero()));
        }
        let zero = R::from_int(0, self.ctx);
        self.value(constant).cmp_certain(&zero).ok_or_else(|| {
            Error::Domain(
                "cannot decide the sign of a threshold combination at this precision".into(),
            )
        })
    }

    /// Whether the constant inequality `c ≥ 0` (`c > 0` when `strict`) holds.
    fn holds(&mut self, constant: &[Rat], strict: bool) -> Result<bool> {
        Ok(match self.sign(constant)? {
            Ordering::Greater => true,
            Ordering::Equal => !strict,
            Ordering::Less => false,
        })
    }

    /// Normalize a cell's inequalities: parallel ones keep the tighter, an
    /// empty strip between opposite ones empties the cell (`None`).
    fn simplify(&mut self, inequalities: Vec<Lin>) -> Result<Option<Vec<Lin>>> {
        let mut by_direction: HashMap<Vec<Rat>, Vec<Rat>> = HashMap::default();
        for ineq in inequalities {
            let n = ineq.normalized()?;
            match by_direction.get_mut(&n.x) {
                None => {
                    by_direction.insert(n.x, n.c);
                }
                Some(c) => {
                    // Keep the smaller constant (an order the backend
                    // cannot decide asks for more precision).
                    let diff: Vec<Rat> = n.c.iter().zip(c.iter()).map(|(a, b)| a - b).collect();
                    if self.sign(&diff)? == Ordering::Less {
                        *c = n.c;
                    }
                }
            }
        }
        let mut out: Vec<Lin> = Vec::with_capacity(by_direction.len());
        for (x, c) in &by_direction {
            let opposite: Vec<Rat> = x.iter().map(|a| -a).collect();
            if let Some(c2) = by_direction.get(&opposite) {
                // −c ≤ a·x ≤ c2: a strip of positive width iff c + c2 > 0.
                let width: Vec<Rat> = c.iter().zip(c2).map(|(a, b)| a + b).collect();
                if !self.holds(&width, true)? {
                    return Ok(None);
                }
            }
            out.push(Lin {
                x: x.clone(),
                c: c.clone(),
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
/// a density); [`Error::TooLarge`] when a structural rational leaves 128 bits.
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
        values: HashMap::default(),
        exps: HashMap::default(),
        rationals: HashMap::default(),
    };
    // The inequalities without variables are decided now.
    let mut common = Vec::with_capacity(inequalities.len());
    for ineq in inequalities {
        let lin = Lin::new(ineq)?;
        if lin.is_constant() {
            if !ws.holds(&lin.c, false)? {
                return Ok(R::from_int(0, ctx));
            }
        } else {
            common.push(lin);
        }
    }
    let mut pending = factors
        .iter()
        .map(|f| {
            Ok(Pending {
                form: f.form.iter().map(small).collect::<Result<_>>()?,
                rate: small(&f.scale)?.recip(),
                half_rate: (&f.scale * Q::from_integer(2.into())).recip(),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let mut cells: Cells<R> = HashMap::default();
    if let Some(ineqs) = ws.simplify(common)? {
        let one = Monomial {
            powers: vec![0; vars],
            rates: vec![Rat::zero(); vars],
        };
        cells.insert(ineqs, HashMap::from_iter([(one, R::from_int(1, ctx))]));
    }
    let mut left: Vec<usize> = (0..vars).collect();
    while !left.is_empty() {
        let (pos, &var) = left
            .iter()
            .enumerate()
            .min_by_key(|&(_, &v)| cost(&cells, &pending, v))
            .expect("a variable is left");
        left.remove(pos);
        let (now, later): (Vec<Pending>, Vec<Pending>) =
            pending.into_iter().partition(|p| !p.form[var].is_zero());
        pending = later;
        for factor in &now {
            cells = split(&mut ws, cells, factor)?;
        }
        let mut next: Cells<R> = HashMap::default();
        for (ineqs, terms) in cells {
            eliminate(&mut ws, var, ineqs, &terms, &mut next)?;
        }
        cells = next;
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

/// An estimate of the work of eliminating `var`: the (lower, upper) bound
/// pairs over all cells, the factors it splits counted as one bound each and
/// doubling the cells.
fn cost<R>(cells: &Cells<R>, pending: &[Pending], var: usize) -> usize {
    let splits = pending.iter().filter(|p| !p.form[var].is_zero()).count();
    cells
        .keys()
        .map(|ineqs| {
            let lower = ineqs.iter().filter(|i| i.x[var].is_positive()).count();
            let upper = ineqs.iter().filter(|i| i.x[var].is_negative()).count();
            ((lower + splits).max(1) * (upper + splits).max(1)) << splits
        })
        .sum()
}

/// Split a Laplace factor in every cell (module documentation).
fn split<R: Real>(
    ws: &mut Workspace<'_, R>,
    cells: Cells<R>,
    factor: &Pending,
) -> Result<Cells<R>> {
    let mut next: Cells<R> = HashMap::default();
    let half = R::from_rational(&factor.half_rate, ws.ctx);
    let atoms = ws.atoms.len();
    for (ineqs, terms) in cells {
        for sign in [Rat::one(), -Rat::one()] {
            // sign = 1: d·x ≥ 0 and e^{−d·x/b}; −1: d·x ≤ 0 and e^{d·x/b}.
            let side = Lin {
                x: factor.form.iter().map(|d| d * sign).collect(),
                c: vec![Rat::zero(); atoms + 1],
            };
            let mut with = ineqs.clone();
            with.push(side);
            let Some(with) = ws.simplify(with)? else {
                continue;
            };
            let shift = mul(&-sign, &factor.rate)?;
            let cell = next.entry(with).or_default();
            for (m, c) in &terms {
                let mut m = m.clone();
                for (r, d) in m.rates.iter_mut().zip(&factor.form) {
                    *r = add(r, &mul(d, &shift)?)?;
                }
                add_term(cell, m, c.clone() * &half);
            }
        }
    }
    Ok(next)
}

/// A bound `x_var ≥ ℓ(y)` or `≤ u(y)`, as the inequality `x_var − ℓ ≥ 0`
/// solved for `x_var`: `bound.x[var] = 0`.
fn solve(ineq: &Lin, var: usize) -> Result<Lin> {
    let mut bound = ineq.scaled(&-ineq.x[var].recip())?;
    bound.x[var] = Rat::zero();
    Ok(bound)
}

/// Integrate `var` out of one cell into `next` (module documentation).
fn eliminate<R: Real>(
    ws: &mut Workspace<'_, R>,
    var: usize,
    ineqs: Vec<Lin>,
    terms: &Terms<R>,
    next: &mut Cells<R>,
) -> Result<()> {
    let mut keep = Vec::new();
    let (mut lower, mut upper) = (Vec::new(), Vec::new());
    for ineq in ineqs {
        match ineq.x[var].cmp(&Rat::zero()) {
            Ordering::Greater => lower.push(solve(&ineq, var)?),
            Ordering::Less => upper.push(solve(&ineq, var)?),
            Ordering::Equal => keep.push(ineq),
        }
    }
    lower.sort();
    lower.dedup();
    upper.sort();
    upper.dedup();
    let max_power = terms.keys().map(|m| m.powers[var]).max().unwrap_or(0) + 1;
    let lower_x = expand(ws, &lower, max_power)?;
    let upper_x = expand(ws, &upper, max_power)?;
    let (mut lower_f, mut upper_f) = (vec![None; lower.len()], vec![None; upper.len()]);
    let minus_one = -Rat::one();
    let lowers: Vec<Option<usize>> = match lower.len() {
        0 => vec![None],
        n => (0..n).map(Some).collect(),
    };
    let uppers: Vec<Option<usize>> = match upper.len() {
        0 => vec![None],
        n => (0..n).map(Some).collect(),
    };
    for &lo in &lowers {
        'upper: for &hi in &uppers {
            let mut new = keep.clone();
            // ℓ_r − ℓ_{r'} ≥ 0 (> 0 for r' < r), u_{s'} − u_s ≥ 0 (> 0 for s' < s), u − ℓ ≥ 0.
            let mut conditions: Vec<(Lin, bool)> = Vec::new();
            if let Some(r) = lo {
                for (r2, other) in lower.iter().enumerate().filter(|&(r2, _)| r2 != r) {
                    conditions.push((lower[r].add_scaled(other, &minus_one)?, r2 < r));
                }
            }
            if let Some(s) = hi {
                for (s2, other) in upper.iter().enumerate().filter(|&(s2, _)| s2 != s) {
                    conditions.push((other.add_scaled(&upper[s], &minus_one)?, s2 < s));
                }
                if let Some(r) = lo {
                    conditions.push((upper[s].add_scaled(&lower[r], &minus_one)?, false));
                }
            }
            for (c, strict) in conditions {
                if c.is_constant() {
                    if !ws.holds(&c.c, strict)? {
                        continue 'upper;
                    }
                } else {
                    new.push(c);
                }
            }
            let Some(new) = ws.simplify(new)? else {
                continue;
            };
            let cell = next.entry(new).or_default();
            match hi {
                Some(s) => {
                    let f = primitives(&mut upper_f[s], || {
                        upper_x[s].primitive(ws, var, terms, false)
                    })?;
                    add_terms(cell, f);
                }
                None => check_decay(terms, var, Ordering::Less)?,
            }
            match lo {
                Some(r) => {
                    let f = primitives(&mut lower_f[r], || {
                        lower_x[r].primitive(ws, var, terms, true)
                    })?;
                    add_terms(cell, f);
                }
                None => check_decay(terms, var, Ordering::Greater)?,
            }
        }
    }
    Ok(())
}

/// The terms `cache` holds, computed by `compute` on first use (a bound's
/// primitive is the same for every bound it is paired with).
fn primitives<R>(
    cache: &mut Option<Terms<R>>,
    compute: impl FnOnce() -> Result<Terms<R>>,
) -> Result<&Terms<R>> {
    if cache.is_none() {
        *cache = Some(compute()?);
    }
    Ok(cache.get_or_insert_with(HashMap::default))
}

/// Add every term of `terms` to `cell`.
fn add_terms<R: Real>(cell: &mut Terms<R>, terms: &Terms<R>) {
    for (m, c) in terms {
        add_term(cell, m.clone(), c.clone());
    }
}

/// The expansions of `bounds`.
fn expand<'b, R: Real>(
    ws: &mut Workspace<'_, R>,
    bounds: &'b [Lin],
    max_power: u32,
) -> Result<Vec<Expansion<'b, R>>> {
    bounds
        .iter()
        .map(|b| Expansion::new(ws, b, max_power))
        .collect()
}

/// At `−∞` (`sign` Greater) or `+∞` (Less) the primitive of each term in
/// `x_var` vanishes iff its rate has that sign.
fn check_decay<R>(terms: &Terms<R>, var: usize, sign: Ordering) -> Result<()> {
    if terms.keys().all(|m| m.rates[var].cmp(&Rat::zero()) == sign) {
        Ok(())
    } else {
        Err(Error::Domain(
            "the integrand does not decay along an unbounded direction (not a density)".into(),
        ))
    }
}

/// A bound `β(y) = a·y + c` with the powers `β^j` expanded as polynomials in
/// `y` (coefficients in the backend), `j` up to the largest a primitive needs.
struct Expansion<'b, R> {
    bound: &'b Lin,
    powers: Vec<Vec<(Vec<u32>, R)>>,
}

impl<'b, R: Real> Expansion<'b, R> {
    fn new(ws: &mut Workspace<'_, R>, bound: &'b Lin, max_power: u32) -> Result<Self> {
        let ctx = ws.ctx;
        let value = ws.value(&bound.c);
        let slopes: Vec<(usize, R)> = bound
            .x
            .iter()
            .enumerate()
            .filter(|(_, a)| !a.is_zero())
            .map(|(v, a)| (v, ws.rational(a)))
            .collect();
        let mut power: Vec<(Vec<u32>, R)> = vec![(vec![0; bound.x.len()], R::from_int(1, ctx))];
        let mut powers = vec![power.clone()];
        for _ in 0..max_power {
            let mut product: HashMap<Vec<u32>, R> = HashMap::default();
            let mut push = |p: Vec<u32>, c: R| match product.get_mut(&p) {
                Some(x) => *x = x.clone() + c,
                None => {
                    product.insert(p, c);
                }
            };
            for (p, c) in &power {
                push(p.clone(), c.clone() * &value);
                for (v, a) in &slopes {
                    let mut q = p.clone();
                    q[*v] += 1;
                    push(q, c.clone() * a);
                }
            }
            power = product.into_iter().collect();
            powers.push(power.clone());
        }
        Ok(Expansion { bound, powers })
    }

    /// `± Σ coef · F(β)` over `terms`: `F` the primitive in `x_var` of each
    /// monomial (module documentation), negated when `negate`.
    fn primitive(
        &self,
        ws: &mut Workspace<'_, R>,
        var: usize,
        terms: &Terms<R>,
        negate: bool,
    ) -> Result<Terms<R>> {
        let mut out = Terms::default();
        // Per rate λ: e^{λ·c} and the rates λ·a that e^{λ a·y} adds.
        let mut shifts: HashMap<Rat, (R, Vec<Rat>)> = HashMap::default();
        for (monomial, coef) in terms {
            let k = monomial.powers[var];
            let lambda = monomial.rates[var];
            // F = e^{λx} Σ_j d_j x^j.
            let mut primitive: Vec<(u32, Rat)> = Vec::new();
            if lambda.is_zero() {
                primitive.push((k + 1, Rat::from_integer(i128::from(k) + 1).recip()));
            } else {
                let mut factor = lambda.recip();
                for i in 0..=k {
                    primitive.push((k - i, factor));
                    factor = div(
                        &mul(&-factor, &Rat::from_integer(i128::from(k - i)))?,
                        &lambda,
                    )?;
                }
            }
            // e^{λ·β} = e^{λ·c} · e^{λ a·y}.
            let (shift, added) = match shifts.get(&lambda) {
                Some(s) => s,
                None => {
                    let c = self.bound.c.iter().map(|c| mul(c, &lambda));
                    let shift = ws.exp(&c.collect::<Result<Vec<_>>>()?)?;
                    let added = self.bound.x.iter().map(|a| mul(&lambda, a));
                    let added = added.collect::<Result<Vec<_>>>()?;
                    shifts.entry(lambda).or_insert((shift, added))
                }
            };
            let base = coef.clone() * shift;
            let base = if negate { -base } else { base };
            let mut rest = monomial.clone();
            rest.powers[var] = 0;
            rest.rates[var] = Rat::zero();
            for (r, a) in rest.rates.iter_mut().zip(added) {
                *r = add(r, a)?;
            }
            for (j, d) in primitive {
                let d = base.clone() * ws.rational(&d);
                if j == 0 {
                    // β^0 = 1: no product.
                    add_term(&mut out, rest.clone(), d);
                    continue;
                }
                for (p, c) in &self.powers[j as usize] {
                    let mut m = rest.clone();
                    for (a, b) in m.powers.iter_mut().zip(p) {
                        *a += b;
                    }
                    add_term(&mut out, m, d.clone() * c);
                }
            }
        }
        Ok(out)
    }
}
