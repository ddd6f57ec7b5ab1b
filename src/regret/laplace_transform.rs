//! The expected gap of a softmax (Gumbel report-noisy-max) choice on
//! binomial sums, as a certified integral of a Laplace transform.
//!
//! # The integral
//!
//! A choice reads `n` i.i.d. Bernoulli rounds; action `j`'s sum is
//! `S_j ~ Binomial(n, μ_j)`, independent across actions, and the softmax law
//! with unit weight `w = e^{−1/β}` picks `i` with probability
//! `U_i / Σ_j U_j`, `U_j = w^{S_j}` (a random variable with at most `n + 1`
//! atoms `w^g`). Since `1/Z = ∫₀^∞ e^{−sZ} ds` for `Z > 0` and the `U_j` are
//! independent,
//!
//! ```text
//! G := E[Σ_i Δ_i U_i / Σ_j U_j] = ∫₀^∞ g(s) ds,
//! g(s) = Σ_i Δ_i ψ_i(s) Π_{j≠i} φ_j(s),
//! φ_j(s) = E[e^{−s U_j}] = Σ_g p_j(g) e^{−s w^g},
//! ψ_i(s) = E[U_i e^{−s U_i}] = −φ_i'(s).
//! ```
//!
//! Every `φ_j` and `ψ_i` is completely monotone (CM: `(−1)^k f^{(k)} ≥ 0`),
//! and non-negative sums and products of CM functions are CM, so `g` is CM.
//! That gives a rigorous enclosure of a Taylor step with no a-priori error
//! analysis: on `[a, a + h]`, with `C_k = g^{(k)}(a) h^k / k!` (the
//! coefficients in `u = (t − a)/h ∈ [0, 1]`),
//!
//! ```text
//! ∫_a^{a+h} g = h·( Σ_{k<m} C_k/(k+1) + R ),  R between 0 and C_m/(m+1),
//! ```
//!
//! because the Lagrange remainder is `g^{(m)}(ξ)(hu)^m/m!` and `|g^{(m)}|` is
//! decreasing with the sign `(−1)^m`. The coefficient signs alternate, so the
//! code works with `|C_k| = (−1)^k C_k ≥ 0`: every series product is one of
//! non-negative intervals (one rounding per end), and the signs come back in
//! the final alternating sum.
//!
//! # The pieces
//!
//! * **`[0, 1]`**: one Taylor step at 0 with `h = 1`; the `u^k` coefficient of
//!   `φ_j` is `Σ_g p_j(g) (−w^g)^k/k!`, and `|C_k| ≤ Δ_max K^{k+1}/k!`, which
//!   fixes its number of terms `m₀`.
//! * **A geometric grid** `a_s = w^{−s·p/q}`, `h_s = c·a_s`,
//!   `c = w^{−p/q} − 1` (about 1/4: [`TARGET_STEP`]), for `s = 0..S`. In the
//!   scaled variable the atom `g` of factor `j` contributes
//!   `p_j(g) T[d][k]`, `T[d][k] = e^{−x_d}(c x_d)^k/k!`, to `|u^k|`, where
//!   `x_d = a_s w^g = w^{d/q}` depends only on `d = q·g − p·s`. So one table
//!   of `T` serves every step (one exponential per row), and since
//!   `h_s ψ_i(a_s + h_s u) = −∂_u φ_i(a_s + h_s u)`, the `ψ` series is the
//!   derivative of the `φ` series: `|ψ|_k = (k+1)|φ|_{k+1}`. A step costs a
//!   pass over the atoms and `3K − 4` truncated series products (running
//!   numerator `Σ_{i≤j} Δ_i ψ_i Π_{l≤j, l≠i} φ_l` and denominator
//!   `Π_{l≤j} φ_l`, as the enumeration's running sums), `O(K m²)`; and
//!   `|C_k| ≤ Δ_max (k+1) c^k` (as `y e^{−y}(cy)^k/k! ≤ (k+1)c^k`), so
//!   `m = ⌈t / log₂(1/c)⌉ + 1` terms put the remainder near `2^{−t}`. That
//!   is the most a step takes: each step (and the first piece) stops at the
//!   first `m` whose last term `|C_m|/(m+1)`, estimated in f64, is below
//!   `2^{−t}` — the enclosure is rigorous for every `m`, the estimate only
//!   keeps it narrow (it about halves the work).
//! * **The tail** `[A, ∞)`, `A = a_S`: `φ_j` is decreasing and
//!   `∫_A^∞ ψ_i = φ_i(A)`, so `0 ≤ ∫_A^∞ g ≤ (Σ_i Δ_i) Π_j φ_j(A)`. `S` is
//!   the first grid point where that bound is below `2^{−t}` (a binary
//!   search; it is small as soon as one action's sum is certainly far from
//!   `n`, long before `A = w^{−n}`), capped by the a-priori
//!   `S·p/q ≥ n + β ln(t ln 2 + 1) + 1` where `e^{−A w^n}` is that small.
//!
//! What is left out is enclosed, not ignored. Each factor's coefficients
//! get the one-sided slack `[0, E_j]`, `E_j = P_j + 2^{−t} + e^{−(1−c)X}`:
//! `P_j` is the binomial mass dropped from the two tails (at most `2^{−t}`;
//! every coefficient of an atom is `≤ 1`), the table rows stop where the
//! entries fall below `2^{−t}` for good (they decrease once `k + 1 ≥ c x`),
//! and the rows with `x_d > X = t ln 2/(1 − c)` are not built
//! (`e^{−x}(cx)^k/k! ≤ e^{−(1−c)x}`).
//!
//! # Accuracy and cost
//!
//! The tolerance is `2^{−t}` with `t = bits − 32` ([`Options::for_bits`]): at
//! the 192 bits the command line starts the Bernoulli setting with, the
//! enclosure of one expected gap has an absolute width of `10^{−46}` to
//! `10^{−45}` on the tests' and bench's instances (truncation, slack and the
//! rounding of the alternating sums, whose terms are at most about 1 while
//! the result is of the size of the gap), and the wu-wang Gumbel regret at
//! `K = 3`, `T = 2^{10} − 1` a relative width of about `10^{−43}`: a regret
//! of size ≥ `10^{−6}` has well over 30 correct digits. The width is
//! absolute: an expected gap far below `2^{−t}` is enclosed by a tiny
//! interval around it, not to relative accuracy (the enumeration is
//! relatively accurate there, and also much slower).
//!
//! The work is `S·(K·atoms + (3K − 4)(m+2)²/2)` interval multiply-adds plus
//! one exponential per table row, against `K·Π_j (n + 1)` for the
//! enumeration; [`cost`] estimates it and the Bernoulli engine picks the
//! cheaper one. The steps are independent and run in parallel; their sum is
//! taken in order, so the result does not depend on the number of threads.

use super::{binomial, Enclose};
use crate::error::{Error, Result};
use crate::mechanism::Scale;
use crate::num::{Real, Q};
use num_bigint::BigInt;
use num_traits::{One, Zero};
use rayon::prelude::*;
use std::cmp::Ordering;

/// The grid step `c = w^{−p/q} − 1` the grid aims at: `c` is at most this
/// and at least about half of it for `β ≥ 1`, smaller for smaller `β` (the
/// work, steps × terms², hardly depends on `c` between 0.05 and 0.3).
pub const TARGET_STEP: f64 = 0.25;

/// How precisely to compute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The tolerance `2^{−t}`: dropped mass, table truncation, remainder and
    /// tail aim below it.
    pub tolerance_bits: u32,
    /// The number `m` of Taylor terms of every step (the first piece's and
    /// the grid's); `None` picks it from the tolerance.
    pub terms: Option<usize>,
    /// A cap on the number of grid steps `S` (the tail bound then starts
    /// earlier and is wider); `None` for no cap.
    pub max_steps: Option<u64>,
}

impl Options {
    /// The options for a working precision of `bits` bits: `t = bits − 32`
    /// (at least 60), terms and steps from the tolerance.
    pub fn for_bits(bits: u32) -> Options {
        Options {
            tolerance_bits: tolerance_bits(bits),
            terms: None,
            max_steps: None,
        }
    }
}

fn tolerance_bits(bits: u32) -> u32 {
    bits.saturating_sub(32).max(60)
}

/// The enclosure of `G` in its three parts; [`Enclosure::total`] is the
/// answer.
#[derive(Clone, Debug)]
pub struct Enclosure<R> {
    /// `Σ` over the pieces of the truncated Taylor sums.
    pub series: R,
    /// `Σ` over the pieces of the remainder enclosures `(−1)^m [0, |C_m|/(m+1)]·h`.
    pub remainder: R,
    /// The tail enclosure `[0, (Σ_i Δ_i) Π_j φ_j(A)]`.
    pub tail: R,
}

impl<R: Real> Enclosure<R> {
    /// `series + remainder + tail`: an enclosure of `G`.
    pub fn total(&self) -> R {
        self.series.clone() + &self.remainder + &self.tail
    }
}

/// The geometric grid: ratio `w^{−p/q}` per step, so `x = w^{d/q}` with
/// `d = q·g − p·s` an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Grid {
    p: u64,
    q: u64,
}

impl Grid {
    /// The grid for scale `β` (a double is enough: the choice only has to
    /// make `c` moderate).
    fn for_beta(beta: f64) -> Result<Grid> {
        if !(beta.is_finite() && beta > 0.0) {
            return Err(Error::InvalidInput(format!(
                "the softmax quadrature needs a finite positive scale, got {beta}"
            )));
        }
        let r = beta * (1.0 + TARGET_STEP).ln();
        if r < 1.0 {
            let q = (1.0 / r).ceil();
            if q > 1e9 {
                return Err(Error::TooLarge(format!(
                    "the softmax quadrature at scale {beta} needs {q:.1e} grid points per power of the unit weight"
                )));
            }
            return Ok(Grid { p: 1, q: q as u64 });
        }
        let grid = (1u64..=5)
            .map(|q| Grid {
                p: (r * q as f64).floor() as u64,
                q,
            })
            .find(|g| g.p as f64 >= 0.8 * r * g.q as f64)
            .unwrap_or(Grid {
                p: (5.0 * r).floor() as u64,
                q: 5,
            });
        Ok(grid)
    }

    /// `c = w^{−p/q} − 1` as a double.
    fn c(&self, beta: f64) -> f64 {
        (self.p as f64 / (self.q as f64 * beta)).exp_m1()
    }

    /// The a-priori number of steps after which `e^{−A w^n} ≤ 2^{−t}`.
    fn max_steps(&self, n: u64, beta: f64, t: u32) -> u64 {
        let l = beta * (f64::from(t) * std::f64::consts::LN_2 + 1.0).ln() + 1.0;
        ((n as f64 + l) * self.q as f64 / self.p as f64).ceil() as u64
    }
}

/// The number of grid terms for tolerance `2^{−t}` and step `c`.
fn grid_terms(t: u32, c: f64) -> usize {
    (f64::from(t) / (1.0 / c).log2()).ceil() as usize + 1
}

/// The number of terms of the first piece: the least `m` with
/// `K^{m+1}/(m+1)! ≤ 2^{−t}`.
fn first_terms(t: u32, k: usize) -> usize {
    let target = -f64::from(t) * std::f64::consts::LN_2;
    let ln_k = (k as f64).ln();
    let mut log_term = ln_k; // ln(K^{m+1}/(m+1)!) at m = 0
    let mut m = 0usize;
    while log_term > target {
        m += 1;
        log_term += ln_k - ((m + 1) as f64).ln();
    }
    m
}

/// The estimated work of [`softmax_gap`] (interval multiply-adds, an
/// exponential counted as 100), for `K` actions, `n` rounds, scale `β` and
/// working precision `bits`; `u128::MAX` when the grid is unusable.
pub fn cost(k: usize, n: u64, beta: f64, bits: u32) -> u128 {
    let Ok(grid) = Grid::for_beta(beta) else {
        return u128::MAX;
    };
    let t = tolerance_bits(bits);
    let c = grid.c(beta);
    let m = grid_terms(t, c) as u128 + 2;
    let k = k as u128;
    let steps = u128::from(grid.max_steps(n, beta, t));
    let rows = u128::from(grid.q) * (u128::from(n) + steps);
    let per_step = (3 * k).saturating_sub(4) * m * m / 2 + k * (u128::from(n) + 1);
    steps
        .saturating_mul(per_step)
        .saturating_add(rows.saturating_mul(100 + m))
}

/// One action's sum: the atoms `(g, P(S = g))` kept and the slack `[0, E]`
/// that encloses everything left out of its coefficients.
struct Column<R> {
    atoms: Vec<(i64, R)>,
    slack: R,
}

impl<R: Enclose> Column<R> {
    /// Drop up to `tolerance/2` of mass from each tail of `Binomial(n, μ)`;
    /// `extra` is the rest of the slack (table truncation and unbuilt rows).
    fn new(n: u64, mean: &Q, tolerance: &Q, extra: &R, ctx: &R::Context) -> Result<Column<R>> {
        let pmf = binomial(n, mean);
        let half = tolerance / Q::from_integer(2.into());
        let (mut lo, mut hi) = (0usize, pmf.len() - 1);
        let mut dropped = Q::zero();
        let mut left = Q::zero();
        while lo < hi && &left + &pmf[lo] <= half {
            left += &pmf[lo];
            lo += 1;
        }
        dropped += left;
        let mut right = Q::zero();
        while hi > lo && &right + &pmf[hi] <= half {
            right += &pmf[hi];
            hi -= 1;
        }
        dropped += right;
        let atoms = (lo..=hi)
            .filter(|&g| !pmf[g].is_zero())
            .map(|g| (g as i64, R::from_rational(&pmf[g], ctx)))
            .collect();
        let bound = R::from_rational(&dropped, ctx) + extra;
        let slack = R::from_int(0, ctx).hull_with(&bound)?;
        Ok(Column { atoms, slack })
    }
}

/// `first·rate^k/k!` for `k = 0..len`, stopped once an entry is certainly
/// below `tolerance` and `rate ≤ k` (every later entry is then smaller
/// still). `inverses[k] = 1/k`.
fn row<R: Real>(first: R, rate: &R, tolerance: &R, len: usize, inverses: &[R]) -> Vec<R> {
    let mut out = Vec::with_capacity(len);
    out.push(first);
    while out.len() < len {
        let k = out.len();
        let last = &out[k - 1];
        if last.cmp_certain(tolerance) == Some(Ordering::Less)
            && rate.cmp_certain(&R::from_int(k as i64, &rate.context())) != Some(Ordering::Greater)
        {
            break;
        }
        let next = last.clone() * rate * &inverses[k];
        out.push(next);
    }
    out
}

/// The truncated product of two series of `m + 1` coefficients.
fn product<R: Real>(a: &[R], b: &[R], zero: &R) -> Vec<R> {
    (0..a.len())
        .map(|k| (0..=k).fold(zero.clone(), |acc, i| acc.mul_add(&a[i], &b[k - i])))
        .collect()
}

/// The `|·|` coefficients `0..=m` of `Σ_i Δ_i ψ_i Π_{j≠i} φ_j` from those of
/// the `φ_j` (`factors[j][0..=m+1]`, so that `|ψ_j|_k = (k+1)|φ_j|_{k+1}`),
/// with running products over the factors in `order`; `None` when every
/// gap is zero.
fn numerator<T: Real>(
    factors: &[Vec<T>],
    deltas: &[T],
    order: &[usize],
    m: usize,
    zero: &T,
) -> Option<Vec<T>> {
    let mut numer: Option<Vec<T>> = None;
    let mut denom: Option<Vec<T>> = None;
    for (position, &j) in order.iter().enumerate() {
        let phi = &factors[j][..=m];
        let mut next = numer.map(|nu| product(&nu, phi, zero));
        if !deltas[j].is_zero_certain() {
            let psi: Vec<T> = (0..=m)
                .map(|k| {
                    factors[j][k + 1].clone()
                        * &T::from_int(k as i64 + 1, &zero.context())
                        * &deltas[j]
                })
                .collect();
            let term = match &denom {
                None => psi,
                Some(d) => product(&psi, d, zero),
            };
            next = Some(match next {
                None => term,
                Some(nu) => nu.into_iter().zip(term).map(|(a, b)| a + b).collect(),
            });
        }
        numer = next;
        if position + 1 < order.len() {
            denom = Some(match denom {
                None => phi.to_vec(),
                Some(d) => product(&d, phi, zero),
            });
        }
    }
    numer
}

/// What every piece shares: the gaps, the order in which the factors enter
/// the running products (gap-zero actions first), `1/k`, and the number of
/// terms (fixed, or the most and a tolerance to pick fewer by).
struct Kernel<'a, R> {
    deltas: &'a [R],
    order: Vec<usize>,
    inverses: Vec<R>,
    zero: R,
    fixed_terms: bool,
    tolerance: f64,
}

impl<R: Enclose> Kernel<'_, R> {
    /// The number of terms for these factors: `most` when fixed; otherwise
    /// the least `m ≥ 1` whose last term `|C_m|/(m+1)`, estimated in f64
    /// from the midpoints, is below the tolerance (`most` when none is).
    /// Any `m` gives a rigorous enclosure; this one keeps it narrow.
    fn terms(&self, factors: &[Vec<R>], most: usize) -> usize {
        if self.fixed_terms {
            return most;
        }
        let estimates: Vec<Vec<f64>> = factors
            .iter()
            .map(|series| series.iter().map(Real::to_f64).collect())
            .collect();
        let deltas: Vec<f64> = self.deltas.iter().map(Real::to_f64).collect();
        let Some(numer) = numerator(&estimates, &deltas, &self.order, most, &0.0) else {
            return most;
        };
        (1..=most)
            .find(|&m| numer[m] / (m + 1) as f64 <= self.tolerance)
            .unwrap_or(most)
    }

    /// `Σ_{k<m} (−1)^k N_k/(k+1)` and the remainder `(−1)^m [0, N_m/(m+1)]`
    /// of the integral over `u ∈ [0, 1]` of `N(u) = Σ_i Δ_i ψ_i Π_{j≠i} φ_j`
    /// (the `|·|` coefficients `N_k` by [`numerator`]), with at most `most`
    /// terms.
    fn integrate(&self, factors: &[Vec<R>], most: usize) -> Result<(R, R)> {
        let m = self.terms(factors, most);
        let Some(numer) = numerator(factors, self.deltas, &self.order, m, &self.zero) else {
            return Ok((self.zero.clone(), self.zero.clone()));
        };
        let (mut even, mut odd) = (self.zero.clone(), self.zero.clone());
        for (k, coefficient) in numer.iter().enumerate().take(m) {
            if k % 2 == 0 {
                even = even.mul_add(coefficient, &self.inverses[k + 1]);
            } else {
                odd = odd.mul_add(coefficient, &self.inverses[k + 1]);
            }
        }
        let last = numer[m].clone() * &self.inverses[m + 1];
        let remainder = self.zero.hull_with(&last)?;
        let remainder = if m % 2 == 0 { remainder } else { -remainder };
        Ok((even - odd, remainder))
    }
}

/// `G = E[Σ_i Δ_i U_i / Σ_j U_j]`, `U_j = w^{S_j}`, `S_j ~ Binomial(n, μ_j)`
/// independent, enclosed by the Laplace-transform quadrature (module doc).
///
/// Certified backends return a rigorous enclosure; f64 an approximation
/// (each one-sided slack becomes its midpoint); exact backends an
/// [`Error::NotRepresentable`] (the quadrature encloses, it cannot be exact).
///
/// ```
/// use dpdtol::mechanism::Scale;
/// use dpdtol::num::{Certified, Precision, Real, Q};
/// use dpdtol::regret::laplace_transform::{softmax_gap, Options};
/// // K = 2, n = 1, μ = (0, 1), Δ = (0, 1), w = 1/2: S = (0, 1) surely, so
/// // G = Δ_2 w/(1 + w) = 1/3.
/// let bits = Precision(128);
/// let scale = Scale::unit_weight(Q::new(1.into(), 2.into())).unwrap();
/// let means = [Q::from_integer(0.into()), Q::from_integer(1.into())];
/// let deltas = [Certified::from_int(0, &bits), Certified::from_int(1, &bits)];
/// let g = softmax_gap(&scale, &means, &deltas, 1, &bits, &Options::for_bits(128)).unwrap();
/// let third = Certified::from_rational(&Q::new(1.into(), 3.into()), &bits);
/// let (lo, hi) = g.total().enclosure().unwrap();
/// let (t_lo, t_hi) = third.enclosure().unwrap();
/// assert!(lo <= t_lo && t_hi <= hi && &hi - &lo < Q::new(1.into(), BigInt::from(10).pow(25)));
/// # use num_bigint::BigInt;
/// ```
pub fn softmax_gap<R: Enclose>(
    scale: &Scale,
    means: &[Q],
    deltas: &[R],
    n: u64,
    ctx: &R::Context,
    options: &Options,
) -> Result<Enclosure<R>> {
    let k = means.len();
    let t = options.tolerance_bits;
    let beta = scale.to_f64();
    let grid = Grid::for_beta(beta)?;
    let (p, q) = (grid.p as i64, grid.q as i64);
    let m = options.terms.unwrap_or_else(|| grid_terms(t, grid.c(beta)));
    let m0 = options.terms.unwrap_or_else(|| first_terms(t, k));
    let len = m.max(m0) + 2;

    let one = R::from_int(1, ctx);
    let zero = R::from_int(0, ctx);
    let tolerance_q = Q::new(BigInt::one(), BigInt::one() << t);
    let tolerance = R::from_rational(&tolerance_q, ctx);
    let c = scale.weight::<R>(&Q::new((-p).into(), q.into()), ctx)? - &one;
    let inverses: Vec<R> = (0..=len)
        .map(|j| R::from_rational(&Q::new(1.into(), j.max(1).into()), ctx))
        .collect();

    // x_d = w^{d/q} for d = d_x..=q·n: downward from x_0 = 1 until x > X.
    let limit_x = (f64::from(t) * std::f64::consts::LN_2 / (1.0 - grid.c(beta))).ceil() + 1.0;
    let limit = R::from_int(limit_x as i64, ctx);
    let up = scale.weight::<R>(&Q::new((-1).into(), q.into()), ctx)?;
    let down = scale.weight::<R>(&Q::new(1.into(), q.into()), ctx)?;
    let mut xs = Vec::new();
    let mut x = one.clone();
    loop {
        x = x * &up;
        if x.cmp_certain(&limit) == Some(Ordering::Greater) {
            break;
        }
        xs.push(x.clone());
    }
    let d_x = -(xs.len() as i64);
    xs.reverse();
    let mut x = one.clone();
    for _ in 0..=(q * n as i64) {
        xs.push(x.clone());
        x = x * &down;
    }
    // e^{−(1−c)X} bounds every entry of an unbuilt row.
    let unbuilt = (-((one.clone() - &c) * &limit)).exp()?;
    let extra = tolerance.clone() + &unbuilt;
    let columns: Vec<Column<R>> = means
        .iter()
        .map(|mean| Column::new(n, mean, &tolerance_q, &extra, ctx))
        .collect::<Result<_>>()?;

    // The grid table T[d][k] = e^{−x_d}(c x_d)^k/k!.
    let rows: Vec<Vec<R>> = xs
        .par_iter()
        .map(|x| {
            let rate = c.clone() * x;
            Ok(row(
                (-x.clone()).exp()?,
                &rate,
                &tolerance,
                m + 2,
                &inverses,
            ))
        })
        .collect::<Result<_>>()?;
    let row_of = |g: i64, s: i64| -> Option<&Vec<R>> {
        let d = q * g - p * s;
        (d >= d_x).then(|| &rows[(d - d_x) as usize])
    };

    let mut order: Vec<usize> = (0..k).filter(|&j| deltas[j].is_zero_certain()).collect();
    order.extend((0..k).filter(|&j| !deltas[j].is_zero_certain()));
    let kernel = Kernel {
        deltas,
        order,
        inverses,
        zero: zero.clone(),
        fixed_terms: options.terms.is_some(),
        tolerance: 0.5f64.powi(t.min(1100) as i32),
    };

    // [0, 1]: the |u^k| coefficient of φ_j is Σ_g p_j(g) (w^g)^k/k!.
    let first: Vec<Vec<R>> = columns
        .iter()
        .map(|column| {
            let mut series = vec![zero.clone(); m0 + 2];
            for (g, prob) in &column.atoms {
                let lambda = &xs[(q * g - d_x) as usize];
                let entries = row(one.clone(), lambda, &tolerance, m0 + 2, &kernel.inverses);
                for (coefficient, entry) in series.iter_mut().zip(&entries) {
                    *coefficient = coefficient.clone().mul_add(prob, entry);
                }
            }
            series.into_iter().map(|v| v + &column.slack).collect()
        })
        .collect();
    let (first_series, first_remainder) = kernel.integrate(&first, m0)?;

    // Step s of the grid: the |u^k| coefficients of φ_j(a_s + h_s u).
    let factor = |column: &Column<R>, s: i64| -> Vec<R> {
        let mut series = vec![zero.clone(); m + 2];
        for (g, prob) in &column.atoms {
            if let Some(entries) = row_of(*g, s) {
                for (coefficient, entry) in series.iter_mut().zip(entries) {
                    *coefficient = coefficient.clone().mul_add(prob, entry);
                }
            }
        }
        series.into_iter().map(|v| v + &column.slack).collect()
    };
    let delta_sum = deltas.iter().fold(zero.clone(), |acc, d| acc + d);
    // (Σ Δ) Π_j φ_j(a_s), φ_j(a_s) ≤ Σ_g p_j(g) T[d][0] + E_j.
    let tail_bound = |s: i64| -> R {
        columns.iter().fold(delta_sum.clone(), |acc, column| {
            let phi = column
                .atoms
                .iter()
                .fold(column.slack.clone(), |v, (g, prob)| match row_of(*g, s) {
                    Some(entries) => v.mul_add(prob, &entries[0]),
                    None => v,
                });
            acc * &phi
        })
    };
    let small = |s: i64| tail_bound(s).cmp_certain(&tolerance) == Some(Ordering::Less);
    let s_max = grid.max_steps(n, beta, t) as i64;
    let mut steps = s_max;
    if small(s_max) {
        let (mut lo, mut hi) = (0i64, s_max);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if small(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        steps = lo;
    }
    if let Some(cap) = options.max_steps {
        steps = steps.min(cap as i64);
    }
    let parts: Vec<(R, R)> = (0..steps)
        .into_par_iter()
        .map(|s| {
            let factors: Vec<Vec<R>> = columns.iter().map(|column| factor(column, s)).collect();
            kernel.integrate(&factors, m)
        })
        .collect::<Result<_>>()?;
    let (grid_series, grid_remainder) = parts.into_iter().fold(
        (zero.clone(), zero.clone()),
        |(series, remainder), (a, b)| (series + a, remainder + b),
    );
    Ok(Enclosure {
        series: first_series + grid_series,
        remainder: first_remainder + grid_remainder,
        tail: zero.hull_with(&tail_bound(steps))?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::{Certified, Precision};

    #[test]
    fn the_grid_step_is_moderate_at_every_scale() {
        for beta in [1e-3, 0.05, 0.5, 1.0, 2.0, 4.48, 8.0, 20.0, 1e3] {
            let grid = Grid::for_beta(beta).unwrap();
            let c = grid.c(beta);
            assert!(grid.p >= 1 && grid.q >= 1, "β = {beta}: {grid:?}");
            assert!(c > 0.0 && c <= TARGET_STEP + 1e-12, "β = {beta}: c = {c}");
            if beta >= 1.0 {
                assert!(
                    c >= 0.45 * TARGET_STEP,
                    "β = {beta}: c = {c} is needlessly small"
                );
            }
        }
        assert!(Grid::for_beta(0.0).is_err());
        assert!(Grid::for_beta(f64::NAN).is_err());
    }

    #[test]
    fn the_first_piece_takes_the_fewest_terms_meeting_the_tolerance() {
        for (t, k) in [(60u32, 2usize), (160, 3), (160, 5), (300, 10)] {
            let m = first_terms(t, k);
            let log_term = |m: usize| {
                (m as f64 + 1.0) * (k as f64).ln()
                    - (1..=m + 1).map(|i| (i as f64).ln()).sum::<f64>()
            };
            let target = -f64::from(t) * std::f64::consts::LN_2;
            assert!(
                log_term(m) <= target && log_term(m - 1) > target,
                "t = {t}, K = {k}: m = {m}"
            );
        }
    }

    /// Point masses (μ ∈ {0, 1}) make `G` the softmax law's expected gap on
    /// fixed sums: `Σ_i Δ_i w^{s_i} / Σ_j w^{s_j}`.
    #[test]
    fn point_masses_give_the_softmax_gap_on_fixed_sums() {
        let bits = Precision(128);
        let w = Q::new(2.into(), 3.into());
        let scale = Scale::unit_weight(w.clone()).unwrap();
        let n = 3u64;
        let means = [Q::one(), Q::zero(), Q::one(), Q::zero()];
        let deltas: Vec<Q> = means.clone().into();
        let weights: Vec<Q> = means
            .iter()
            .map(|m| num_traits::pow::pow(w.clone(), if m.is_one() { n as usize } else { 0 }))
            .collect();
        let total: Q = weights.iter().sum();
        let exact: Q = deltas.iter().zip(&weights).map(|(d, u)| d * u).sum::<Q>() / total;
        let deltas_in: Vec<Certified> = deltas
            .iter()
            .map(|d| Certified::from_rational(d, &bits))
            .collect();
        let g = softmax_gap(
            &scale,
            &means,
            &deltas_in,
            n,
            &bits,
            &Options::for_bits(128),
        )
        .unwrap()
        .total();
        let (lo, hi) = g.enclosure().unwrap();
        assert!(lo <= exact && exact <= hi, "{g:?} misses {exact}");
        assert!(
            &hi - &lo < Q::new(1.into(), BigInt::one() << 80u32),
            "{g:?} is wide"
        );
    }

    #[test]
    fn every_gap_zero_gives_zero() {
        let bits = Precision(96);
        let scale = Scale::beta(Q::from_integer(2.into())).unwrap();
        let means = [Q::new(1.into(), 4.into()), Q::new(1.into(), 4.into())];
        let deltas = [Certified::from_int(0, &bits), Certified::from_int(0, &bits)];
        let g = softmax_gap(&scale, &means, &deltas, 4, &bits, &Options::for_bits(96)).unwrap();
        assert!(g.series.is_zero_certain() && g.remainder.is_zero_certain());
        assert!(g.tail.is_zero_certain());
    }

    #[test]
    fn the_result_does_not_depend_on_the_number_of_threads() {
        let bits = Precision(96);
        let scale = Scale::beta(Q::from_integer(2.into())).unwrap();
        let means = [
            Q::new(1.into(), 10.into()),
            Q::new(1.into(), 2.into()),
            Q::new(3.into(), 10.into()),
        ];
        let deltas: Vec<Certified> = [0, 4, 2]
            .iter()
            .map(|&d| Certified::from_rational(&Q::new(d.into(), 10.into()), &bits))
            .collect();
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                softmax_gap(&scale, &means, &deltas, 12, &bits, &Options::for_bits(96))
                    .unwrap()
                    .total()
                    .enclosure()
            })
        };
        assert_eq!(run(1), run(3));
    }
}
