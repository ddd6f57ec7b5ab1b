//! One-shot private selection as a privacy problem of its own:
//! report-noisy-max with Gumbel, exponential or Laplace noise
//! ([`crate::mechanism`]) over every input `x ∈ V^K` (one loss per action,
//! each from the alphabet `V`), and over exactly the ordered input pairs
//! `(x, x')`, `x ≠ x'`, that a neighbour relation allows:
//!
//! | [`Neighbours`] | `x'` is a neighbour of `x` when | sensitivity `Δ` |
//! |---|---|---|
//! | `any` | always (every replacement) | `max V − min V` |
//! | `linf:D` | `max_j |x_j − x'_j| ≤ D` | `D` |
//! | `one:D` | exactly one `j` has `x_j ≠ x'_j`, and `|x_j − x'_j| ≤ D` | `D` |
//!
//! The check computes `max_{(x, x'), a} P(a|x) / P(a|x')` with a witness
//! `(x, x', a)` and compares it with `e^ε`, with the verdicts of the online
//! check ([`super::Verdict`], [`super::Report`]).
//!
//! # Default scales (the textbook ones for sensitivity-Δ utilities)
//!
//! All three noises default to the scale `β = 2Δ/ε`, which makes each of them
//! ε-DP for scores of sensitivity `Δ`:
//! - Gumbel: the exponential mechanism `P(a) ∝ e^{ε u_a/(2Δ)}` (McSherry &
//!   Talwar 2007; Dwork & Roth 2014, Theorem 3.10);
//! - exponential: permute-and-flip with `e^{ε u/(2Δ)}` (McKenna & Sheldon
//!   2020, Theorem 1), which is report-noisy-max with exponential noise of
//!   scale `2Δ/ε` (Ding, Kifer, Saghafi et al. 2021);
//! - Laplace: report-noisy-max with `Lap(2Δ/ε)` (Dwork & Roth 2014, §3.3:
//!   their Claim 3.9 uses `Lap(1/ε)` for counting queries, whose scores all
//!   move in the same direction; for general sensitivity-Δ scores the
//!   winner's threshold moves by up to `2Δ`, hence `2Δ/ε`).
//!
//! # How it is fast: by structure
//!
//! Every report-noisy-max law depends on the losses only through the gaps
//! `x − min_j x_j` (module documentation of [`crate::mechanism`]), so
//! `P(·|x)/P(·|x')` depends only on the pair of *classes* `(gaps(x),
//! gaps(x'))`. The check
//! 1. sorts the `N = |V|^K` inputs into classes of equal gaps (a hash pass)
//!    and computes each class's law once (`C` laws, in parallel);
//! 2. walks every allowed ordered pair once with integer work only, keeping
//!    per class of `x` the distinct classes of `x'` with the smallest pair
//!    `(x, x')` of each (the witness);
//! 3. evaluates one factor `max_a P(a|x)/P(a|x')` per distinct class pair
//!    (`K` divisions), in parallel over the classes of `x`.
//!
//! A pair of one class (`x'` a shift of `x`) has ratio exactly 1 and is not
//! evaluated. **Cost**: `O(P)` integer steps for the `P` allowed pairs
//! (`N(N−1)` for `any`; at most `N·(3^K − 1)` for `linf:D` on a grid of step
//! `D`), `C ≤ N` laws (on an evenly spaced alphabet every class has a member
//! whose minimum is `min V`, so `C = |V|^K − (|V|−1)^K`) and `C_P` factors,
//! `C_P ≤ min(P, C²)` the distinct class pairs. For 343 inputs
//! (K = 3, `V = {0..6}`) that is 127 laws and at most 127·26 factors;
//! for 4096 (K = 3, `V = {0..15}`), 721 laws.
//!
//! # Decided exactly
//!
//! A first pass runs in the certified backend at 128 bits and keeps the class
//! pairs whose enclosure may reach `e^ε`. When the verdict is open (an
//! attained maximum, typically), the ratios of those pairs (only the actions
//! whose enclosure may reach `e^ε`) are compared with `e^ε` in the field of
//! [`ExpRational`] (laws of a rational scale are rational functions of
//! `e^{1/q}`, Laplace laws also of `1/β`, which is rational), where equality
//! is decided exactly and a non-zero difference's sign by refinement
//! ([`crate::num`]'s `poly`); the exact maximum is formed only when some
//! ratio is above `e^ε`.
//!
//! ```
//! use dpdtol::mechanism::Noise;
//! use dpdtol::num::Q;
//! use dpdtol::privacy::one_shot::{check, Neighbours, OneShot, OneShotOptions};
//! use dpdtol::privacy::Verdict;
//! let q = |n: i64| Q::from_integer(n.into());
//! // Permute-and-flip at scale 2/ε on losses {0, 1, 2}, one unit apart:
//! // (1,1) against (0,2) gives exactly e^ε for action 2.
//! let problem = OneShot::new(
//!     Noise::Exponential, 2, vec![q(0), q(1), q(2)],
//!     Neighbours::Linf(q(1)), q(1), None,
//! ).unwrap();
//! let report = check(&problem, &OneShotOptions::default()).unwrap();
//! assert_eq!(report.report.verdict, Verdict::Private);
//! assert!(report.report.attained);
//! ```

use super::search::{ratio_factor, to_ratio, Acc, Cand, Enclosed, Factor, Fail, Keys, Value};
use super::{
    check_epsilon_and_alphabet, decide, loss_vectors, Attempt, Method, Outcome, Problem, Ratio,
    Report, Shard, Verdict, Witness, MAX_PAIRS,
};
use crate::error::{Error, Result};
use crate::mechanism::{law, Noise, Scale, MAX_FORCED_NATS, MAX_NATS};
use crate::num::{Certified, ExpRational, Kind, Precision, Real, Q};
use num_traits::{Signed, Zero};
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

/// Which ordered input pairs are neighbours (module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Neighbours {
    /// Every pair of distinct inputs.
    Any,
    /// Every coordinate moves by at most `D`.
    Linf(Q),
    /// Exactly one coordinate moves, by at most `D`.
    One(Q),
}

impl Neighbours {
    /// Whether alphabet values `a` and `b` may stand at one coordinate of a
    /// pair (always for [`Neighbours::Any`]).
    fn close(&self, a: &Q, b: &Q) -> bool {
        match self {
            Neighbours::Any => true,
            Neighbours::Linf(d) | Neighbours::One(d) => (a - b).abs() <= *d,
        }
    }

    /// Whether the distinct inputs `x` and `y` (one loss per action) are
    /// neighbours.
    pub(crate) fn allows(&self, x: &[Q], y: &[Q]) -> bool {
        let moved = x.iter().zip(y).filter(|(a, b)| a != b).count();
        let close = x.iter().zip(y).all(|(a, b)| self.close(a, b));
        match self {
            Neighbours::Any => true,
            Neighbours::Linf(_) => close,
            Neighbours::One(_) => moved == 1 && close,
        }
    }
}

impl fmt::Display for Neighbours {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Neighbours::Any => f.write_str("any"),
            Neighbours::Linf(d) => write!(f, "linf:{d}"),
            Neighbours::One(d) => write!(f, "one:{d}"),
        }
    }
}

impl std::str::FromStr for Neighbours {
    type Err = Error;
    fn from_str(s: &str) -> Result<Neighbours> {
        let bad = || {
            Error::InvalidInput(format!(
                "--neighbours expects any, linf:D or one:D with D > 0 (e.g. linf:1), got '{s}'"
            ))
        };
        if s == "any" {
            return Ok(Neighbours::Any);
        }
        let (kind, d) = s.split_once(':').ok_or_else(bad)?;
        let d = crate::num::parse_rational(d).map_err(|_| bad())?;
        if !d.is_positive() {
            return Err(bad());
        }
        match kind {
            "linf" => Ok(Neighbours::Linf(d)),
            "one" => Ok(Neighbours::One(d)),
            _ => Err(bad()),
        }
    }
}

/// A one-shot privacy problem: report-noisy-max with `noise` of scale
/// `scale` over `V^K`, pairs as `neighbours` allow, against `e^ε`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OneShot {
    /// The noise of report-noisy-max.
    pub noise: Noise,
    /// The number of actions K ≥ 2.
    pub actions: usize,
    /// At least two distinct loss values (any rationals).
    pub alphabet: Vec<Q>,
    /// The neighbour relation.
    pub neighbours: Neighbours,
    /// ε > 0.
    pub epsilon: Q,
    /// The noise scale β > 0.
    pub scale: Q,
}

impl OneShot {
    /// A validated problem; `scale: None` takes the default `2Δ/ε`
    /// ([`OneShot::default_scale`]).
    pub fn new(
        noise: Noise,
        actions: usize,
        alphabet: Vec<Q>,
        neighbours: Neighbours,
        epsilon: Q,
        scale: Option<Q>,
    ) -> Result<OneShot> {
        if actions < 2 {
            return Err(Error::InvalidInput(format!(
                "a selection needs at least 2 actions, got --actions {actions}"
            )));
        }
        check_epsilon_and_alphabet(&epsilon, &alphabet, "input")?;
        let mut problem = OneShot {
            noise,
            actions,
            alphabet,
            neighbours,
            epsilon,
            scale: Q::zero(),
        };
        problem.scale = match scale {
            Some(s) if s.is_positive() => s,
            Some(s) => {
                return Err(Error::InvalidInput(format!(
                    "the noise scale must be positive, got {s}"
                )))
            }
            None => problem.default_scale(),
        };
        Ok(problem)
    }

    /// The sensitivity `Δ` of the scores under the relation: `D` for
    /// `linf:D` and `one:D`, the alphabet's range for `any`.
    pub fn sensitivity(&self) -> Q {
        match &self.neighbours {
            Neighbours::Linf(d) | Neighbours::One(d) => d.clone(),
            Neighbours::Any => {
                let max = self.alphabet.iter().max().cloned().unwrap_or_default();
                let min = self.alphabet.iter().min().cloned().unwrap_or_default();
                max - min
            }
        }
    }

    /// The textbook scale `2Δ/ε` for every noise (module documentation).
    pub fn default_scale(&self) -> Q {
        Q::from_integer(2.into()) * self.sensitivity() / &self.epsilon
    }

    /// The number of inputs `N = |V|^K`; [`Error::TooLarge`] past 64 bits.
    pub fn inputs(&self) -> Result<u64> {
        checked_pow(self.alphabet.len() as u64, self.actions).ok_or_else(|| {
            Error::TooLarge(format!(
                "{}^{} inputs cannot be enumerated",
                self.alphabet.len(),
                self.actions
            ))
        })
    }

    /// For each alphabet index, the alphabet indices allowed beside it at
    /// one coordinate (itself included).
    fn near(&self) -> Vec<Vec<usize>> {
        let v = &self.alphabet;
        (0..v.len())
            .map(|i| {
                (0..v.len())
                    .filter(|&j| self.neighbours.close(&v[i], &v[j]))
                    .collect()
            })
            .collect()
    }

    /// The number of ordered neighbour pairs, from the numbers alone:
    /// `N(N − 1)` for `any`, `(Σ_i n_i)^K − N` for `linf` (`n_i` the values
    /// within `D` of value `i`, itself included), `K·|V|^{K−1}·Σ_i (n_i − 1)`
    /// for `one`; [`Error::TooLarge`] past 64 bits.
    pub fn pairs(&self) -> Result<u64> {
        let n = u128::from(self.inputs()?);
        let near: u128 = self.near().iter().map(|s| s.len() as u128).sum();
        let letters = self.alphabet.len() as u128;
        let pow = |b: u128, e: usize| (0..e).try_fold(1u128, |acc, _| acc.checked_mul(b));
        let pairs = match self.neighbours {
            Neighbours::Any => n.checked_mul(n - 1),
            Neighbours::Linf(_) => pow(near, self.actions).map(|p| p - n),
            Neighbours::One(_) => pow(letters, self.actions - 1)
                .and_then(|p| p.checked_mul(self.actions as u128))
                .and_then(|p| p.checked_mul(near - letters)),
        };
        pairs
            .filter(|&p| p <= u128::from(u64::MAX))
            .map(|p| p as u64)
            .ok_or_else(|| {
                Error::TooLarge(format!(
                    "the ordered pairs of {} inputs do not fit 64 bits",
                    self.alphabet.len()
                ))
            })
    }
}

fn checked_pow(base: u64, exp: usize) -> Option<u64> {
    (0..exp).try_fold(1u64, |acc, _| acc.checked_mul(base))
}

/// How a one-shot check runs.
#[derive(Clone, Debug)]
pub struct OneShotOptions {
    /// Run past `max_pairs` (and the weight limit [`MAX_NATS`]).
    pub force: bool,
    /// The limit on ordered pairs without `force`.
    pub max_pairs: u64,
    /// The size of the rayon pool (`None`: rayon's global pool).
    pub threads: Option<usize>,
}

impl Default for OneShotOptions {
    fn default() -> OneShotOptions {
        OneShotOptions {
            force: false,
            max_pairs: MAX_PAIRS,
            threads: None,
        }
    }
}

/// The outcome of [`check`]: the report of the online check's shape (horizon
/// 1, the witness's sequences of one vector each) and the sizes of the
/// structure.
#[derive(Clone, Debug)]
pub struct OneShotReport {
    /// Verdict, maximum, witness, `pairs` = the ordered input pairs allowed.
    pub report: Report,
    /// The number of inputs `N = |V|^K`.
    pub inputs: u64,
    /// The number of classes of equal gaps (laws computed).
    pub classes: u64,
    /// The number of distinct class pairs (factors evaluated).
    pub class_pairs: u64,
    /// The maximum as a closed form in `e^{rational}` when it was decided in
    /// the exact field ([`ExpRational::closed_form`]), else `None`.
    pub closed_form: Option<String>,
}

/// A class of `x'` reached from a class of `x`, with the smallest pair
/// `(x, x')` (input indices) that reaches it.
#[derive(Clone, Copy, Debug)]
struct Edge {
    to: u32,
    x: u64,
    x2: u64,
}

/// The structure of a problem: classes, their gap vectors and the distinct
/// class pairs.
struct Plan<'a> {
    problem: &'a OneShot,
    vectors: Vec<Vec<Q>>,
    /// The gap vector `x − min x` of each class (its law's losses).
    gaps: Vec<Vec<Q>>,
    /// The class of each input.
    class_of: Vec<u32>,
    /// `edges[c]`: the classes of `x'` over the pairs with `x` in class `c`,
    /// ascending (`c` itself when some `x'` is a shift of `x`).
    edges: Vec<Vec<Edge>>,
    /// The ordered pairs walked.
    pairs: u64,
}

impl<'a> Plan<'a> {
    fn new(problem: &'a OneShot) -> Result<Plan<'a>> {
        let (vectors, digits) = loss_vectors(problem.actions, &problem.alphabet)?;
        let n = vectors.len();
        // Classes of equal gaps, numbered in order of their first input.
        let mut index: HashMap<Vec<Q>, u32> = HashMap::new();
        let mut gaps: Vec<Vec<Q>> = Vec::new();
        let mut members: Vec<Vec<u64>> = Vec::new();
        let mut class_of = Vec::with_capacity(n);
        for (x, v) in vectors.iter().enumerate() {
            let g = crate::mechanism::gaps(v);
            let next = gaps.len() as u32;
            let c = *index.entry(g.clone()).or_insert_with(|| {
                gaps.push(g);
                members.push(Vec::new());
                next
            });
            members[c as usize].push(x as u64);
            class_of.push(c);
        }
        let near = problem.near();
        let letters = problem.alphabet.len() as u64;
        let k = problem.actions;
        // place[j] = |V|^{K−1−j}: action 1 most significant.
        let place: Vec<u64> = (0..k)
            .map(|j| checked_pow(letters, k - 1 - j).unwrap_or(0))
            .collect();
        let neighbours = |x: u64, out: &mut Vec<u64>| {
            out.clear();
            let d = &digits[x as usize];
            match problem.neighbours {
                Neighbours::Any => out.extend((0..n as u64).filter(|&y| y != x)),
                Neighbours::One(_) => {
                    for j in 0..k {
                        for &i in near[d[j]].iter().filter(|&&i| i != d[j]) {
                            out.push(x - d[j] as u64 * place[j] + i as u64 * place[j]);
                        }
                    }
                }
                Neighbours::Linf(_) => {
                    // Odometer over the allowed values of every coordinate.
                    let mut pos = vec![0usize; k];
                    loop {
                        let y: u64 = (0..k).map(|j| near[d[j]][pos[j]] as u64 * place[j]).sum();
                        if y != x {
                            out.push(y);
                        }
                        let mut j = k;
                        loop {
                            if j == 0 {
                                return;
                            }
                            j -= 1;
                            pos[j] += 1;
                            if pos[j] < near[d[j]].len() {
                                break;
                            }
                            pos[j] = 0;
                        }
                    }
                }
            }
        };
        let walked: Vec<(Vec<Edge>, u64)> = members
            .par_iter()
            .map(|xs| {
                let mut buffer = Vec::new();
                // The smallest (x, x') of each class of x'.
                let mut first: HashMap<u32, (u64, u64)> = HashMap::new();
                let mut count = 0u64;
                for &x in xs {
                    neighbours(x, &mut buffer);
                    count += buffer.len() as u64;
                    for &x2 in &buffer {
                        first
                            .entry(class_of[x2 as usize])
                            .and_modify(|p| *p = (*p).min((x, x2)))
                            .or_insert((x, x2));
                    }
                }
                let mut edges: Vec<Edge> = first
                    .into_iter()
                    .map(|(to, (x, x2))| Edge { to, x, x2 })
                    .collect();
                edges.sort_unstable_by_key(|e| e.to);
                (edges, count)
            })
            .collect();
        let pairs = walked.iter().map(|(_, c)| c).sum();
        Ok(Plan {
            problem,
            vectors,
            gaps,
            class_of,
            edges: walked.into_iter().map(|(e, _)| e).collect(),
            pairs,
        })
    }

    fn class_pairs(&self) -> u64 {
        self.edges.iter().map(|e| e.len() as u64).sum()
    }

    /// The laws of the classes marked in `needed` (all when `None`).
    fn laws<R: Enclosed>(
        &self,
        needed: Option<&[bool]>,
        ctx: &R::Context,
    ) -> std::result::Result<Vec<Option<Vec<R>>>, Fail> {
        let scale = Scale::beta(self.problem.scale.clone())?;
        self.gaps
            .par_iter()
            .enumerate()
            .map(|(c, g)| {
                if needed.is_some_and(|n| !n[c]) {
                    return Ok(None);
                }
                Ok(Some(law::<R>(self.problem.noise, g, &scale, ctx)?))
            })
            .collect::<Vec<_>>()
            .into_iter()
            .collect()
    }
}

/// Enclosures of `P(a|x)` and `P(a|x')` for the witness of `report`, a
/// check of `p` (its action `a`, its inputs `x` and `x'`): the mechanism's
/// certified law of each input at the report's precision (at least 128
/// bits), whose quotient is the witness's ratio.
pub fn witness_probabilities(p: &OneShot, report: &Report) -> Result<[(Q, Q); 2]> {
    let scale = Scale::beta(p.scale.clone())?;
    let ctx = Precision(report.precision.map_or(128, |b| b.0.max(128)));
    let w = &report.witness;
    let unresolved = || Error::Domain("a witness probability has no enclosure".into());
    let action = *w.actions.first().ok_or_else(unresolved)?;
    let at = |inputs: &[Vec<Q>]| -> Result<(Q, Q)> {
        let losses = inputs.first().ok_or_else(unresolved)?;
        law::<Certified>(p.noise, losses, &scale, &ctx)?
            .get(action)
            .and_then(Real::enclosure)
            .ok_or_else(unresolved)
    };
    Ok([at(&w.losses)?, at(&w.neighbour)?])
}

/// A class pair: the class of `x` and the index of the edge.
type Item = (u32, u32);

/// What a scan returns: the accumulated maximum, the class pairs that may
/// reach the threshold, and the laws computed (`None` where not needed).
type Scanned<R> = (Acc<R>, Vec<Item>, Vec<Option<Vec<R>>>);

/// The candidate ratio of one class pair (its factor).
fn candidate<R: Enclosed>(num: &[R], den: &[R]) -> std::result::Result<Cand<'static, R>, Fail> {
    Ok(match ratio_factor(num, den)? {
        Factor::Infinite { .. } => Cand::Infinite,
        Factor::Unit { .. } => unit(&num[0]),
        Factor::Finite { lo, hi, keys, .. } => {
            let hi = hi.unwrap_or_else(|| lo.clone());
            Cand::Finite {
                lo: Cow::Owned(lo),
                hi: Cow::Owned(hi),
                keys,
            }
        }
    })
}

/// The ratio exactly 1 (in the context of `like`).
fn unit<R: Enclosed>(like: &R) -> Cand<'static, R> {
    let one = R::from_int(1, &like.context());
    Cand::Finite {
        lo: Cow::Owned(one.clone()),
        hi: Cow::Owned(one),
        keys: Keys::ONE,
    }
}

/// Whether a candidate's ratio may reach `threshold` (its upper end is not
/// certainly below it); `t.1` is a double certainly below `t.0`.
fn reaches<R: Enclosed>(cand: &Cand<'_, R>, t: &(Q, f64)) -> bool {
    match cand {
        Cand::Infinite => true,
        Cand::Finite { hi, keys, .. } => {
            keys.hi_up >= t.1 && hi.enclosure().is_none_or(|(_, h)| h >= t.0)
        }
    }
}

/// The search over the class pairs `items` (all when `None`) in backend `R`:
/// the accumulated maximum (pairs counted per class pair) and, with a
/// `threshold`, the class pairs that may reach it.
fn scan<R: Enclosed>(
    plan: &Plan<'_>,
    items: Option<&[Item]>,
    ctx: &R::Context,
    threshold: Option<&Q>,
) -> std::result::Result<Scanned<R>, Fail> {
    let needed = items.map(|items| {
        let mut needed = vec![false; plan.gaps.len()];
        for &(c, e) in items {
            needed[c as usize] = true;
            needed[plan.edges[c as usize][e as usize].to as usize] = true;
        }
        needed
    });
    let laws = plan.laws::<R>(needed.as_deref(), ctx)?;
    let threshold = threshold.map(|t| {
        let f = Real::to_f64(t);
        (t.clone(), f - f.abs() * 1e-9 - 1e-300)
    });
    let visit = |(mut acc, mut found): (Acc<R>, Vec<Item>), (c, e): Item| {
        let edge = plan.edges[c as usize][e as usize];
        let (Some(num), Some(den)) = (&laws[c as usize], &laws[edge.to as usize]) else {
            return Err(Fail::Error(Error::InvalidInput(
                "a class law was not computed".into(),
            )));
        };
        // A shift of x: the same law, the ratio exactly 1.
        let cand = if edge.to == c {
            unit(&num[0])
        } else {
            candidate(num, den)?
        };
        if threshold.as_ref().is_some_and(|t| reaches(&cand, t)) {
            found.push((c, e));
        }
        acc.offer(cand, edge.x, edge.x2, 0);
        Ok((acc, found))
    };
    let empty = || (Acc::new(), Vec::new());
    let join = |(a, mut fa): (Acc<R>, Vec<Item>), (b, fb): (Acc<R>, Vec<Item>)| {
        fa.extend(fb);
        Ok((a.merge(b), fa))
    };
    let (acc, mut found) = match items {
        Some(items) => items
            .par_iter()
            .copied()
            .try_fold(empty, visit)
            .try_reduce(empty, join)?,
        None => (0..plan.edges.len() as u32)
            .into_par_iter()
            .flat_map_iter(|c| (0..plan.edges[c as usize].len() as u32).map(move |e| (c, e)))
            .try_fold(empty, visit)
            .try_reduce(empty, join)?,
    };
    found.sort_unstable();
    Ok((acc, found, laws))
}

/// The outcome of a scan: the maximum, its witness `(x, x', a)` and the
/// number of ordered input pairs.
fn outcome<R: Enclosed>(
    plan: &Plan<'_>,
    acc: &Acc<R>,
    laws: &[Option<Vec<R>>],
) -> std::result::Result<Outcome, Fail> {
    let class_of = |x: u64| plan.class_of[x as usize] as usize;
    let best = acc
        .best
        .as_ref()
        .ok_or_else(|| Fail::Error(Error::InvalidInput("no two inputs are neighbours".into())))?;
    let max_ratio = match (&best.value, &acc.hi) {
        (Value::Finite { lo, .. }, Some(Some((hi, _)))) => to_ratio(lo, hi),
        _ => Ratio::Infinite,
    };
    let (x, x2) = (best.x, best.x2);
    let (Some(num), Some(den)) = (&laws[class_of(x)], &laws[class_of(x2)]) else {
        return Err(Fail::Error(Error::InvalidInput(
            "the witness's laws were not computed".into(),
        )));
    };
    let action = match ratio_factor(num, den)? {
        Factor::Infinite { argmax } | Factor::Unit { argmax } | Factor::Finite { argmax, .. } => {
            argmax as usize
        }
    };
    Ok(Outcome {
        max_ratio: max_ratio.clone(),
        witness: Witness {
            losses: vec![plan.vectors[x as usize].clone()],
            neighbour: vec![plan.vectors[x2 as usize].clone()],
            actions: vec![action],
            round: 1,
            ratio: max_ratio,
            sequence: x,
            neighbour_sequence: x2,
        },
        pairs: plan.pairs,
        units: Vec::new(),
    })
}

fn attempt_of(r: std::result::Result<Outcome, Fail>) -> Result<Attempt> {
    match r {
        Ok(o) => Ok(Attempt::Done(Box::new(o))),
        Err(Fail::Error(e)) => Err(e),
        Err(Fail::Undetermined(why)) => Ok(Attempt::Undetermined(why)),
    }
}

/// The whole search in backend `R` (every class pair), without a decision:
/// the maximum ratio, its witness and the number of ordered input pairs.
/// The tests run it on several backends; [`check`] decides.
pub fn search<R: Enclosed>(problem: &OneShot, ctx: &R::Context) -> Result<Attempt> {
    let plan = Plan::new(problem)?;
    let result =
        scan::<R>(&plan, None, ctx, None).and_then(|(acc, _, laws)| outcome(&plan, &acc, &laws));
    attempt_of(result)
}

/// The precisions of the certified pass: 128 bits, doubled while a
/// probability cannot be separated from zero.
const PRECISIONS: [u32; 4] = [128, 256, 512, 1024];

/// The precision of the enclosure printed for a maximum decided in the exact
/// field.
const EXACT_FIELD_PRECISION: Precision = Precision(256);

/// Check ε-DP of report-noisy-max on every allowed pair of `problem`: the
/// size guard on the numbers first (more than [`OneShotOptions::max_pairs`]
/// ordered pairs, or a widest weight below `e^{−460000}` ([`MAX_NATS`]), is refused without
/// `force`), then the certified pass, then, when the verdict is open, the
/// exact decision in the field of [`ExpRational`] over the class pairs that
/// may reach `e^ε` (module documentation).
pub fn check(problem: &OneShot, options: &OneShotOptions) -> Result<OneShotReport> {
    let pairs = problem.pairs()?;
    if pairs == 0 {
        return Err(Error::InvalidInput(format!(
            "no two inputs are neighbours under {}: no alphabet value has another within D (take D at least the alphabet's smallest step)",
            problem.neighbours
        )));
    }
    if pairs > options.max_pairs && !options.force {
        return Err(Error::TooLarge(format!(
            "the one-shot check has {pairs} ordered input pairs ({} inputs, neighbours {}), over the limit of {}; pass --force to run it anyway",
            problem.inputs()?,
            problem.neighbours,
            options.max_pairs
        )));
    }
    let widest = problem.alphabet.iter().max().cloned().unwrap_or_default()
        - problem.alphabet.iter().min().cloned().unwrap_or_default();
    let nats = widest / &problem.scale;
    let forced = Q::from_integer(MAX_FORCED_NATS.into());
    if nats > forced || (!options.force && nats > Q::from_integer(MAX_NATS.into())) {
        return Err(Error::TooLarge(format!(
            "the widest loss gap is {nats} scales: its weight e^(-{nats}) is below e^(-{MAX_NATS}){}; use a larger scale or closer losses",
            if nats > forced { " and past what --force allows" } else { "; pass --force to compute it anyway" }
        )));
    }
    match options.threads {
        None => run(problem),
        Some(n) => crate::size::thread_pool(Some(n))?.install(|| run(problem)),
    }
}

/// A value of the exact field as a ratio: its enclosure at
/// [`EXACT_FIELD_PRECISION`] (exact when it is a point).
fn enclosed(value: &ExpRational) -> Result<Ratio> {
    let (lo, hi) = value
        .enclose(EXACT_FIELD_PRECISION)?
        .enclosure()
        .ok_or_else(|| Error::Domain("the maximum ratio".into()))?;
    Ok(if lo == hi {
        Ratio::Exact(lo)
    } else {
        Ratio::Certified { lo, hi }
    })
}

/// A failure of the exact field as an error (it has no undetermined signs).
fn exact_err(f: Fail) -> Error {
    match f {
        Fail::Error(e) => e,
        Fail::Undetermined(why) => Error::NotRepresentable(why),
    }
}

/// Why the laws are not exact rationals.
const WHY_NOT_EXACT: &str = "the weights e^(-gap/scale) of a rational scale are transcendental; certified laws, and an open comparison with e^epsilon decided exactly in Q(e^(1/q))";

fn run(problem: &OneShot) -> Result<OneShotReport> {
    let plan = Plan::new(problem)?;
    let mut certified = None;
    for bits in PRECISIONS.map(Precision) {
        let threshold = Certified::from_rational(&problem.epsilon, &bits)
            .exp()?
            .enclosure()
            .map(|(lo, _)| lo);
        let result = scan::<Certified>(&plan, None, &bits, threshold.as_ref())
            .and_then(|(acc, found, laws)| Ok((outcome(&plan, &acc, &laws)?, found, laws)));
        match result {
            Ok(done) => {
                certified = Some((done, bits, threshold));
                break;
            }
            Err(Fail::Error(e)) => return Err(e),
            Err(Fail::Undetermined(_)) => {}
        }
    }
    let ((outcome_c, survivors, laws_c), bits, threshold) = certified.ok_or_else(|| {
        Error::NotRepresentable(format!(
            "at {} bits a probability cannot be separated from 0",
            PRECISIONS[PRECISIONS.len() - 1]
        ))
    })?;
    let report = |outcome: Outcome, precision, verdict, attained, bound| Report {
        problem: Problem {
            horizon: 1,
            alphabet: problem.alphabet.clone(),
            epsilon: problem.epsilon.clone(),
        },
        actions: problem.actions,
        max_ratio: outcome.max_ratio,
        witness: outcome.witness,
        verdict,
        attained,
        method: Method::Structural,
        bound,
        pairs: outcome.pairs,
        kind: Kind::Certified,
        precision: Some(precision),
        shard: Shard::WHOLE,
        why_not_exact: Some(WHY_NOT_EXACT.to_string()),
        units: Vec::new(),
        units_precision: None,
    };
    let sizes = |report, closed_form| OneShotReport {
        report,
        inputs: plan.vectors.len() as u64,
        classes: plan.gaps.len() as u64,
        class_pairs: plan.class_pairs(),
        closed_form,
    };
    let (verdict, bound) = decide(&outcome_c.max_ratio, &problem.epsilon, bits.0)?;
    if verdict != Verdict::Undecided {
        return Ok(sizes(report(outcome_c, bits, verdict, false, bound), None));
    }
    // Open: compare exactly with e^ε every ratio (class pair and action)
    // whose enclosure may reach it; a ratio above e^ε sends the decision to
    // the exact maximum below.
    let bound_exact = ExpRational::exp_of(&problem.epsilon);
    let mut needed = vec![false; plan.gaps.len()];
    for &(c, e) in &survivors {
        needed[c as usize] = true;
        needed[plan.edges[c as usize][e as usize].to as usize] = true;
    }
    let laws_x = plan
        .laws::<ExpRational>(Some(&needed), &())
        .map_err(exact_err)?;
    let hits: Vec<(std::cmp::Ordering, u64, u64, usize)> = survivors
        .par_iter()
        .filter_map(|&(c, e)| {
            let edge = plan.edges[c as usize][e as usize];
            if edge.to == c {
                return None;
            }
            let (cn, cd) = (
                laws_c[c as usize].as_ref()?,
                laws_c[edge.to as usize].as_ref()?,
            );
            let (xn, xd) = (
                laws_x[c as usize].as_ref()?,
                laws_x[edge.to as usize].as_ref()?,
            );
            let mut best: Option<(std::cmp::Ordering, usize)> = None;
            for (a, ((n, d), (en, ed))) in cn.iter().zip(cd).zip(xn.iter().zip(xd)).enumerate() {
                let reaches = (n.clone() / d)
                    .enclosure()
                    .is_none_or(|(_, h)| threshold.as_ref().is_none_or(|t| h >= *t));
                if !reaches {
                    continue;
                }
                let order = (en.clone() / ed).cmp(&bound_exact);
                if order != std::cmp::Ordering::Less && best.is_none_or(|(o, _)| order > o) {
                    best = Some((order, a));
                }
            }
            best.map(|(order, a)| (order, edge.x, edge.x2, a))
        })
        .collect();
    if !hits.iter().any(|h| h.0 == std::cmp::Ordering::Greater) {
        let attained = hits
            .iter()
            .filter(|h| h.0 == std::cmp::Ordering::Equal)
            .min_by_key(|h| (h.1, h.2));
        let Some(&(_, x, x2, a)) = attained else {
            // Strictly below e^ε: the certified enclosure over every pair stands.
            return Ok(sizes(
                report(outcome_c, bits, Verdict::Private, false, bound),
                None,
            ));
        };
        let (n, d) = (
            &laws_x[plan.class_of[x as usize] as usize],
            &laws_x[plan.class_of[x2 as usize] as usize],
        );
        let closed_form = match (n, d) {
            (Some(n), Some(d)) => (n[a].clone() / &d[a]).closed_form(),
            _ => bound_exact.closed_form(),
        };
        let ratio = enclosed(&bound_exact)?;
        let exact = Outcome {
            max_ratio: ratio.clone(),
            witness: Witness {
                losses: vec![plan.vectors[x as usize].clone()],
                neighbour: vec![plan.vectors[x2 as usize].clone()],
                actions: vec![a],
                round: 1,
                ratio,
                sequence: x,
                neighbour_sequence: x2,
            },
            pairs: plan.pairs,
            units: Vec::new(),
        };
        return Ok(sizes(
            report(exact, EXACT_FIELD_PRECISION, Verdict::Private, true, bound),
            Some(closed_form),
        ));
    }
    // Some ratio is above e^ε: the exact maximum over those class pairs.
    let (acc, _, laws) =
        scan::<ExpRational>(&plan, Some(&survivors), &(), None).map_err(exact_err)?;
    let exact = outcome(&plan, &acc, &laws).map_err(exact_err)?;
    let Some(Value::Finite { lo: max, .. }) = acc.best.as_ref().map(|b| &b.value) else {
        return Err(Error::InvalidInput(
            "the exact decision found no finite maximum".into(),
        ));
    };
    let order = max.cmp(&ExpRational::exp_of(&problem.epsilon));
    let (verdict, attained) = match order {
        std::cmp::Ordering::Greater => (Verdict::Violated, false),
        std::cmp::Ordering::Equal => (Verdict::Private, true),
        std::cmp::Ordering::Less => (Verdict::Private, false),
    };
    if verdict == Verdict::Private && !attained {
        // Strictly below e^ε: the certified enclosure over every pair stands.
        return Ok(sizes(report(outcome_c, bits, verdict, false, bound), None));
    }
    let ratio = enclosed(max)?;
    let closed_form = max.closed_form();
    let exact = Outcome {
        max_ratio: ratio.clone(),
        witness: Witness {
            ratio,
            ..exact.witness
        },
        pairs: plan.pairs,
        units: Vec::new(),
    };
    Ok(sizes(
        report(exact, EXACT_FIELD_PRECISION, verdict, attained, bound),
        Some(closed_form),
    ))
}
