//! Certified bounds on the law of a private Thompson sampling's pull
//! sequence: Beta draws on clipped noisy means, sandwiched between draws
//! with integer parameters.
//!
//! # The algorithms
//!
//! Lazy-DP-TS (Hu, Huang, Mehta & Hegde, arXiv:2102.07929, Algorithm 3,
//! 004 L190–L200) and DP-TS (Hu & Hegde, UAI 2022, as inferred in
//! [`crate::bandit::policy::dp_ts`]) draw, in each round after the first
//! `K`, for every arm `j` with `n` observations behind its private mean,
//!
//! ```text
//! θ_j ~ Beta(μ̄·n + 1, (1 − μ̄)·n + 1),   μ̄ = Clip_[0,1]((S + W)/n + κ·s/n),
//! ```
//!
//! and pull `argmax_j θ_j`. `S` is the rewards' sum behind the mean, `W` a
//! Laplace noise (a sum of them, for DP-TS's Hybrid mechanism), `κ` a
//! rational (the bonus constant over ε) and `s` a real *atom* read in the
//! round: `ln t` for Lazy-DP-TS (`3 ln t/(εO)`), `√(8 ln(n + 1) ln t)` for
//! DP-TS (`c·√(8 ln(n+1) ln t)/(εn)`). The parameters are real numbers that
//! move with the noise, and the comparison of two such draws is an
//! incomplete-beta integral with no closed form.
//!
//! # The sandwich
//!
//! `Beta(a, b)` grows in the usual stochastic order as `a` grows and as `b`
//! falls. Cut the values of `μ̄` into *cells*: the atom `μ̄ = 0`, the
//! intervals `μ̄·n ∈ (k, k + 1)` for `k = 0..n−1`, and the atom `μ̄ = 1`
//! (cells `0`, `1..=n`, `n + 1`). In the interval cell `k + 1` the
//! parameters lie in `(k + 1, k + 2) × (n − k, n − k + 1)`, so
//!
//! ```text
//! Beta(k + 1, n − k + 1)  ≤st  θ_j  ≤st  Beta(k + 2, n − k),
//! ```
//!
//! and on an atom `θ_j` is `Beta(1, n + 1)` or `Beta(n + 1, 1)` exactly:
//! integer parameters, Thompson sampling's records
//! ([`super::thompson::Record`]). Coupling each draw with its two integer
//! neighbours (one uniform variable, quantile transforms) shows that given
//! the cells the round pulls arm `a` with a probability between
//!
//! ```text
//! P(θ_a^lo > max_{j≠a} θ_j^hi)   and   P(θ_a^hi > max_{j≠a} θ_j^lo),
//! ```
//!
//! rationals ([`super::thompson::pull_probabilities`]). Given the noises the
//! rounds' draws are independent, so given every draw's cell the sequence's
//! probability lies between the products of these bounds over the rounds;
//! the cells are events in the noises, and
//!
//! ```text
//! Σ_cells P(cells)·Π_t lo_t(cells)  ≤  P(pulls | seen)  ≤  Σ_cells P(cells)·Π_t hi_t(cells).
//! ```
//!
//! # The cells are polyhedra
//!
//! Draw `i` reading a mean falls in cell `c` iff
//! `b_{c−1} ≤ W ≤ b_c` with `b_k = k − S − κ·s_i` (`b_{−1} = −∞`,
//! `b_{n+1} = +∞`): linear inequalities in the noise variables whose
//! constants carry the atoms, measured in closed form by
//! [`crate::measure::polyhedral`]. Arms draw independent noises, so the
//! cells of different arms are independent and each arm's cell law is
//! computed alone; the means of one arm are correlated (DP-TS's noisy sums
//! share their noises), so an arm's cells are measured jointly over its
//! noise tree. The atom grows with the round (`ln t`, `√(… ln t)`), so the
//! draws that read one mean fall in cells that never go down: only those
//! assignments are listed (the others are empty).
//!
//! # What the bounds are
//!
//! Certified: every number is an enclosure, and the true probability lies
//! in `[lo, hi]`. They are not a value to any precision: their width is the
//! probability that some draw falls inside an interval cell, times the
//! spread of a Beta over one cell. With the papers' bonuses the clip
//! catches almost every draw (for DP-TS at ε = 1, `μ̄ < 1` needs a noise
//! of about eight scales), so the width is small on small tables; with
//! bonus 0 it is not.

use super::thompson::{pull_probabilities, Record};
use crate::error::{Error, Result};
use crate::measure::polyhedral::{laplace_measure, Inequality, LaplaceFactor};
use crate::num::{Real, Q};
use num_traits::{One, Zero};
use std::cmp::Ordering;
use std::collections::HashMap;

/// The real number a draw's bonus reads (module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// `ln t` (Lazy-DP-TS).
    Log {
        /// The round.
        t: u64,
    },
    /// `√(8 ln(n + 1) ln t)` (DP-TS).
    SqrtLogs {
        /// The observations behind the mean.
        n: u64,
        /// The round.
        t: u64,
    },
}

impl Atom {
    /// Whether the atom is 0 (`t = 1`: `ln 1 = 0`), a rational that the
    /// polyhedra must not carry as a symbol.
    fn is_zero(self) -> bool {
        match self {
            Atom::Log { t } | Atom::SqrtLogs { t, .. } => t == 1,
        }
    }

    /// Its value in the backend (positive: `t ≥ 2`).
    fn value<R: Real>(self, ctx: &R::Context) -> Result<R> {
        let ln = |x: u64| R::from_int(i64::try_from(x).map_err(|_| too_large())?, ctx).ln();
        match self {
            Atom::Log { t } => ln(t),
            Atom::SqrtLogs { n, t } => {
                let square = R::from_int(8, ctx) * ln(n + 1)? * ln(t)?;
                let half = R::from_rational(&Q::new(1.into(), 2.into()), ctx);
                (half * square.ln()?).exp()
            }
        }
    }
}

fn too_large() -> Error {
    Error::TooLarge("a round or a count does not fit 63 bits".into())
}

/// A private mean `(S + W)/n` and the atoms of the draws that read it, in
/// increasing order (each draw's `μ̄ = Clip((S + W)/n + κ·s/n)`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mean {
    /// The noise variable `W` (an index into [`ArmEvent::noises`]).
    pub noise: usize,
    /// `n`, the observations behind the mean.
    pub n: u64,
    /// `S`, their sum.
    pub sum: Q,
    /// The atoms its draws read, each once, in increasing order.
    pub reads: Vec<Atom>,
}

/// One arm's part of an event: its noise variables, a tree of increments
/// (`W_i = W_{parent} + Z_i`, `Z_i ~ Lap(scale)`, or `W_i = Z_i` without a
/// parent, the parent listed first), `κ`, and its means.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArmEvent {
    /// Per noise variable: its parent and its increment's scale.
    pub noises: Vec<(Option<usize>, Q)>,
    /// `κ`, the bonus constant over ε.
    pub kappa: Q,
    /// The means its draws read.
    pub means: Vec<Mean>,
}

/// The event "these pulls": each arm's part, and per round after the first
/// `K` the read of every arm's draw (`(mean, read)` indices into its
/// [`ArmEvent::means`]) and the arm pulled.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Event {
    /// Per arm.
    pub arms: Vec<ArmEvent>,
    /// Per round: each arm's read, and the arm pulled.
    pub rounds: Vec<(Vec<(usize, usize)>, usize)>,
}

/// An assignment of a cell to each read of an arm (in [`ArmEvent::means`]
/// order, then read order) and its probability.
pub type Cells<R> = Vec<(Vec<u64>, R)>;

/// The most cell assignments of one event the bounds list (the product
/// over the arms), about a minute of one core.
pub const MAX_ASSIGNMENTS: u64 = 1 << 22;

impl ArmEvent {
    /// The nondecreasing cell sequences of each mean's reads, combined over
    /// the means: every assignment of cells that may have positive
    /// probability.
    fn assignments(&self) -> Result<Vec<Vec<u64>>> {
        let mut out = vec![Vec::new()];
        for mean in &self.means {
            let sequences = nondecreasing(mean.reads.len(), mean.n + 1);
            let count = out
                .len()
                .checked_mul(sequences.len())
                .ok_or_else(too_large)?;
            if count as u64 > MAX_ASSIGNMENTS {
                return Err(assignments_too_many(count as u64));
            }
            out = out
                .iter()
                .flat_map(|prefix| {
                    sequences.iter().map(move |s| {
                        let mut v = prefix.clone();
                        v.extend_from_slice(s);
                        v
                    })
                })
                .collect();
        }
        Ok(out)
    }

    /// The law of this arm's cells: each assignment with positive
    /// probability, and its probability (the Laplace measure of its
    /// polyhedron).
    pub fn cells<R: Real>(&self, ctx: &R::Context) -> Result<Cells<R>> {
        let vars = self.noises.len();
        let factors: Vec<LaplaceFactor> = self
            .noises
            .iter()
            .enumerate()
            .map(|(i, (parent, scale))| {
                let mut form = vec![Q::zero(); vars];
                form[i] = Q::one();
                if let Some(p) = parent {
                    form[*p] = -Q::one();
                }
                LaplaceFactor {
                    form,
                    scale: scale.clone(),
                }
            })
            .collect();
        // The atoms, each once, and their values.
        let mut atoms: Vec<Atom> = Vec::new();
        for atom in self.means.iter().flat_map(|m| &m.reads) {
            if !atom.is_zero() && !atoms.contains(atom) {
                atoms.push(*atom);
            }
        }
        let values = atoms
            .iter()
            .map(|a| a.value::<R>(ctx))
            .collect::<Result<Vec<R>>>()?;
        let zero = R::from_int(0, ctx);
        let mut out = Vec::new();
        for cells in self.assignments()? {
            let mut inequalities = Vec::new();
            let mut cell = cells.iter();
            for mean in &self.means {
                for atom in &mean.reads {
                    let c = *cell.next().expect("one cell a read");
                    // b_k = k − S − κ·s: the constant of `W − b_k ≥ 0` is
                    // `S − k + κ·s`.
                    let bound = |k: u64, sign: i64| {
                        let sign = Q::from_integer(sign.into());
                        let mut x = vec![Q::zero(); vars];
                        x[mean.noise] = sign.clone();
                        let mut constant = vec![Q::zero(); atoms.len() + 1];
                        constant[0] = &sign * (&mean.sum - Q::from_integer(k.into()));
                        if let Some(i) = atoms.iter().position(|a| a == atom) {
                            constant[i + 1] = &sign * &self.kappa;
                        }
                        Inequality { x, constant }
                    };
                    if c >= 1 {
                        inequalities.push(bound(c - 1, 1));
                    }
                    if c <= mean.n {
                        inequalities.push(bound(c, -1));
                    }
                }
            }
            let p: R = laplace_measure(vars, &factors, &inequalities, &values, ctx)?;
            if p.cmp_certain(&zero) != Some(Ordering::Equal) {
                out.push((cells, p));
            }
        }
        Ok(out)
    }

    /// The flat index of read `read` of mean `mean` in an assignment.
    fn flat(&self, mean: usize, read: usize) -> usize {
        self.means[..mean]
            .iter()
            .map(|m| m.reads.len())
            .sum::<usize>()
            + read
    }
}

/// The nondecreasing sequences of `len` values in `0..=top`.
fn nondecreasing(len: usize, top: u64) -> Vec<Vec<u64>> {
    let mut out = vec![Vec::new()];
    for _ in 0..len {
        out = out
            .into_iter()
            .flat_map(|s: Vec<u64>| {
                let from = s.last().copied().unwrap_or(0);
                (from..=top).map(move |c| {
                    let mut v = s.clone();
                    v.push(c);
                    v
                })
            })
            .collect();
    }
    out
}

fn assignments_too_many(count: u64) -> Error {
    Error::TooLarge(format!(
        "the bounds would list {count} cell assignments for one pull sequence, above {MAX_ASSIGNMENTS}: use a shorter horizon"
    ))
}

/// The integer records that sandwich a draw with `n` observations in cell
/// `c` (module documentation): `(lower, upper)`.
pub fn sandwich(n: u64, c: u64) -> Result<(Record, Record)> {
    let n32 = u32::try_from(n).map_err(|_| too_large())?;
    let c32 = u32::try_from(c).map_err(|_| too_large())?;
    let record = |successes, failures| Record {
        successes,
        failures,
    };
    Ok(if c == 0 {
        (record(0, n32), record(0, n32))
    } else if c > n {
        (record(n32, 0), record(n32, 0))
    } else {
        (record(c32 - 1, n32 - c32 + 1), record(c32, n32 - c32))
    })
}

/// The bounds `(lo, hi)` of one round's pull of `pulled` when each arm's
/// draw is sandwiched by `records[j] = (lower, upper)`, memoised in
/// `memo`.
fn round_bounds(
    records: &[(Record, Record)],
    pulled: usize,
    memo: &mut HashMap<Vec<Record>, Vec<Q>>,
) -> (Q, Q) {
    let mut bound = |pulled_upper: bool| {
        let key: Vec<Record> = records
            .iter()
            .enumerate()
            .map(|(j, &(lo, hi))| {
                if (j == pulled) == pulled_upper {
                    hi
                } else {
                    lo
                }
            })
            .collect();
        memo.entry(key.clone())
            .or_insert_with(|| pull_probabilities(&key))[pulled]
            .clone()
    };
    (bound(false), bound(true))
}

/// `(lo, hi)` with `lo ≤ P(pulls | seen) ≤ hi` for `event` (module
/// documentation), the arms' cell laws taken from `cells` (one per arm, as
/// [`ArmEvent::cells`] gives them).
pub fn bounds<R: Real>(event: &Event, cells: &[&Cells<R>], ctx: &R::Context) -> Result<(R, R)> {
    let total = cells
        .iter()
        .try_fold(1u64, |acc, c| acc.checked_mul(c.len() as u64))
        .ok_or_else(too_large)?;
    if total > MAX_ASSIGNMENTS {
        return Err(assignments_too_many(total));
    }
    let k = event.arms.len();
    let mut lo = R::from_int(0, ctx);
    let mut hi = R::from_int(0, ctx);
    let mut memo = HashMap::new();
    let mut index = vec![0usize; k];
    if cells.iter().any(|c| c.is_empty()) {
        return Ok((lo, hi));
    }
    loop {
        let mut weight = R::from_int(1, ctx);
        for (j, c) in cells.iter().enumerate() {
            weight = weight * &c[index[j]].1;
        }
        let (mut l, mut h) = (Q::one(), Q::one());
        for (reads, pulled) in &event.rounds {
            let records = reads
                .iter()
                .enumerate()
                .map(|(j, &(mean, read))| {
                    let arm = &event.arms[j];
                    let c = cells[j][index[j]].0[arm.flat(mean, read)];
                    sandwich(arm.means[mean].n, c)
                })
                .collect::<Result<Vec<_>>>()?;
            let (rl, rh) = round_bounds(&records, *pulled, &mut memo);
            l *= rl;
            h *= rh;
        }
        lo = lo + R::from_rational(&l, ctx) * &weight;
        hi = hi + R::from_rational(&h, ctx) * &weight;
        // The next assignment, odometer-wise.
        let mut j = 0;
        loop {
            if j == k {
                return Ok((lo, hi));
            }
            index[j] += 1;
            if index[j] < cells[j].len() {
                break;
            }
            index[j] = 0;
            j += 1;
        }
    }
}
