//! The structural maximisation: the maximum over neighbour
//! pairs as a maximum over the changed round and the contents of the windows
//! that read it, enumerated through each choice law's sufficient statistic.
//!
//! # Why it is the same maximum
//!
//! By the product identity (module documentation of [`super`]), the ratio of a
//! pair `(x, x')` differing in round `s` is `∏_{c reads s} F_c(x, x')`, and
//! `F_c` depends only on the windows `x[reads_c]`, `x'[reads_c]`. So the
//! maximum over all pairs differing in `s` is the maximum over the contents of
//! the union `U(s)` of the windows read by the readers of `s` (and over the
//! replacement vector); the rounds outside `U(s)` contribute exactly 1 and are
//! filled with the first vector of `V^K` in the witness. Rounds nobody reads
//! give the ratio 1.
//!
//! When `s` has a single reader `c` whose law depends on its window only
//! through a per-action statistic of the column multisets ([`Statistic::Sums`]:
//! per-action sums, the report-noisy-max family with `B = 0`;
//! [`Statistic::Counts`]: per-action counts of each alphabet value, `B = 1`),
//! the position of `s` in the window does not matter, and the window content
//! is `rest ⊕ u` (the other `L − 1` rounds and the changed vector `u`) against
//! `rest ⊕ v`: it is enough to enumerate, per action, the classes of the
//! multisets of `L − 1` alphabet values under the statistic, and `u ≠ v`.
//! Every candidate is a real pair of full sequences (the representative
//! multisets written out in round order).
//!
//! With [`Statistic::Gaps`] (sums up to a common shift: every
//! report-noisy-max law depends on its scores only through the gaps to the
//! best), tuples of rest classes whose sums differ by a constant give the
//! same ratios, and one tuple per class of gaps is enumerated; the laws are
//! computed once per class of gaps of the full window.
//!
//! # Cost
//!
//! With `N = |V|^K`, a symmetric choice reading `L` rounds costs
//! `T_{L−1} · N · (N − 1)` factors and `T_L` laws, where `T_m` is the number
//! of tuples of per-action classes of `m` values: `C_m^K` with `C_m` the
//! number of classes (`binom(m + |V| − 1, |V| − 1)` multisets for
//! [`Statistic::Counts`]; the distinct sums of `m` values for
//! [`Statistic::Sums`], `m + 1` for `V = {0, 1}`), and for
//! [`Statistic::Gaps`] the number of distinct gap vectors, `(2m + 1)^{K−1}`
//! at most for `V = {0, 1}` (sorting the `C_m^K` tuples into them is a
//! hash-map pass). Another round `s` costs `N^{|U(s)|} · (N − 1)` factor
//! evaluations (two laws per reader). For the dyadic schedules with the gaps
//! statistic and `V = {0, 1}` the total is about
//! `Σ_b (2^b)^{K−1} · N(N − 1)` factors: linear in the horizon for K = 2
//! (about `12 · 2t` for t = 2^B − 1), instead of `t · N^t · (N − 1)`
//! pairs.

use super::search::to_ratio;
use super::search::{
    by_units, check_schedule, ratio_factor, Acc, Best, Cand, Enclosed, Factor, Fail, Keys, Value,
};
use super::{loss_vectors, Attempt, Outcome, Problem, Ratio, Shard, Span, Witness};
use crate::algorithm::{Algorithm, Choice, OnlineAlgorithm};
use crate::error::{Error, Result};
use crate::num::{Real, Q};
use crate::progress::Progress;
use num_traits::Zero;
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::HashMap;

/// How a choice law depends on its window (what [`Structured`] declares).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Statistic {
    /// On the whole window, in order (no reduction).
    Window,
    /// On the per-action sums of the window only.
    Sums,
    /// On the per-action sums up to adding one constant to all of them: the
    /// gaps `S_j − min_i S_i` (every report-noisy-max law, module
    /// documentation of [`crate::mechanism`]).
    Gaps,
    /// On the per-action counts of each alphabet value only (the multiset of
    /// each action's column).
    Counts,
}

/// An online algorithm that declares the sufficient statistic of each
/// choice's law. The declaration is a promise about the laws: the tests check
/// it by comparing with the plain enumeration.
pub trait Structured: OnlineAlgorithm {
    /// The statistic of choice `index`'s law (default: the whole window).
    fn statistic(&self, _index: usize) -> Statistic {
        Statistic::Window
    }
}

impl Structured for Algorithm {
    /// Report-noisy-max on epoch sums (Wu & Wang Algorithm 1 line 16, Hu et
    /// al. Algorithm 4): the sums with `B = 0`, the column multisets with
    /// Bernoulli resampling (Poisson-binomial sums); follow the leader: the
    /// sums; the randomized-prefix softmax reads prefixes in order: the window;
    /// Hedge's round is a softmax of the cumulative sums: their gaps.
    fn statistic(&self, _index: usize) -> Statistic {
        match self {
            Algorithm::Ftl(_) => Statistic::Gaps,
            Algorithm::EpochRnm(a) if a.resample() => Statistic::Counts,
            Algorithm::EpochRnm(_) => Statistic::Gaps,
            Algorithm::PrefixSoftmax(_) => Statistic::Window,
            Algorithm::Hedge(_) => Statistic::Gaps,
        }
    }
}

/// The classes of the multisets of `m` values of the alphabet under a
/// statistic, each with a representative column (alphabet indices).
struct Classes {
    /// One representative column per class.
    columns: Vec<Vec<usize>>,
    /// The sum of each representative column.
    sums: Vec<Q>,
    /// The class of each representative's statistic.
    index: HashMap<Vec<Q>, usize>,
}

impl Classes {
    fn key(statistic: Statistic, alphabet: &[Q], column: &[usize]) -> Vec<Q> {
        match statistic {
            Statistic::Sums | Statistic::Gaps => {
                vec![column.iter().map(|&i| alphabet[i].clone()).sum()]
            }
            _ => {
                let mut counts = vec![Q::zero(); alphabet.len()];
                for &i in column {
                    counts[i] += Q::from_integer(1.into());
                }
                counts
            }
        }
    }

    /// Every multiset of `m` values (as counts of each alphabet value, in
    /// lexicographic order of the counts), one representative per class.
    fn new(statistic: Statistic, alphabet: &[Q], m: usize) -> Classes {
        let mut classes = Classes {
            columns: Vec::new(),
            sums: Vec::new(),
            index: HashMap::new(),
        };
        for counts in compositions(alphabet.len(), m) {
            let column: Vec<usize> = counts
                .iter()
                .enumerate()
                .flat_map(|(i, &c)| std::iter::repeat_n(i, c))
                .collect();
            let key = Classes::key(statistic, alphabet, &column);
            let next = classes.columns.len();
            classes.index.entry(key).or_insert_with(|| {
                classes
                    .sums
                    .push(column.iter().map(|&i| alphabet[i].clone()).sum());
                classes.columns.push(column);
                next
            });
        }
        classes
    }

    fn len(&self) -> u64 {
        self.columns.len() as u64
    }

    /// The sum of class `c`'s representative column.
    fn key_sum(&self, c: usize) -> Q {
        self.sums[c].clone()
    }
}

/// The ways to write `m` as an ordered sum of `parts ≥ 1` non-negative
/// integers, in lexicographic order.
fn compositions(parts: usize, m: usize) -> Vec<Vec<usize>> {
    if parts <= 1 {
        return vec![vec![m]];
    }
    (0..=m)
        .flat_map(|first| {
            compositions(parts - 1, m - first)
                .into_iter()
                .map(move |mut rest| {
                    rest.insert(0, first);
                    rest
                })
        })
        .collect()
}

/// The largest number of class tuples [`slots_of`] sorts into gap classes
/// (before any size limit on the candidates can apply).
const MAX_GAP_TUPLES: u64 = 1 << 24;

/// The tuples of `classes` (one class per action, index in base `|classes|`,
/// action 1 most significant) sorted into slots: with `gaps`, tuples whose
/// sums differ by one constant share a slot (the first tuple in index order
/// represents it); otherwise every tuple is its own slot. Returns the slot of
/// every tuple and the representatives.
fn slots_of(classes: &Classes, k: usize, gaps: bool) -> Result<(Vec<u32>, Vec<u64>)> {
    let count = checked_pow(classes.len(), k)
        .filter(|&c| c <= MAX_GAP_TUPLES)
        .ok_or_else(|| {
            Error::TooLarge(format!(
                "{}^{k} tuples of window statistics are too many for the structural method (over 2^24); use a smaller horizon, or --method enumeration --force",
                classes.len()
            ))
        })?;
    if !gaps {
        return Ok(((0..count as u32).collect(), (0..count).collect()));
    }
    let mut seen: HashMap<Vec<Q>, u32> = HashMap::new();
    let mut slot_of = Vec::with_capacity(count as usize);
    let mut slots = Vec::new();
    for tuple in 0..count {
        let mut rest = tuple;
        let mut sums = vec![Q::zero(); k];
        for j in (0..k).rev() {
            sums[j] = classes.key_sum((rest % classes.len()) as usize);
            rest /= classes.len();
        }
        let min = sums.iter().min().cloned().unwrap_or_default();
        let gaps: Vec<Q> = sums.into_iter().map(|s| s - &min).collect();
        let next = slots.len() as u32;
        let slot = *seen.entry(gaps).or_insert_with(|| {
            slots.push(tuple);
            next
        });
        slot_of.push(slot);
    }
    Ok((slot_of, slots))
}

/// The rounds of one choice's window that only it reads, through a
/// symmetric statistic: candidates `(rest classes, u, v)`.
struct Symmetric {
    choice: usize,
    /// The representative changed round (the last such round), 0-based.
    round: usize,
    rest: Classes,
    /// The tuples of rest classes enumerated (index in base `|rest|`,
    /// action 1 most significant): all, or one per class of gaps.
    tuples: Vec<u64>,
    /// `full_of[r][value]`: the class of `rest[r] ⊕ value` among `full`.
    full_of: Vec<Vec<usize>>,
    full: Classes,
    /// The law slot of each tuple of full classes, and a representative
    /// tuple of each slot (identity unless [`Statistic::Gaps`]).
    law_of: Vec<u32>,
    slots: Vec<u64>,
}

/// A part of the candidate space.
enum Group {
    /// Round `round` (0-based) is read by no choice: one pair, ratio 1.
    Unread { round: usize },
    /// The rounds of choice `choice`'s window that only it reads, through a
    /// symmetric statistic: candidates `(rest classes, u, v)`.
    Symmetric(Box<Symmetric>),
    /// Round `round` (0-based) with the contents of the union `union`
    /// (sorted rounds, 0-based) of its readers' windows.
    Window { round: usize, union: Vec<usize> },
}

/// The largest horizon the structural method takes (2²⁰ rounds): its plan
/// keeps, for each round, the choices that read it.
pub const MAX_HORIZON: usize = 1 << 20;

/// The structural search's plan: the schedule, the loss vectors, the groups
/// and their sizes.
struct Plan<'a, A> {
    algorithm: &'a A,
    schedule: Vec<Choice>,
    horizon: usize,
    vectors: Vec<Vec<Q>>,
    /// The alphabet index of each action's loss in each vector.
    digits: Vec<Vec<usize>>,
    /// `|V|`.
    letters: usize,
    groups: Vec<Group>,
    /// The first candidate index of each group, and the total at the end.
    offsets: Vec<u64>,
}

fn checked_pow(base: u64, exp: usize) -> Option<u64> {
    (0..exp).try_fold(1u64, |acc, _| acc.checked_mul(base))
}

impl<'a, A: Structured> Plan<'a, A> {
    fn new(algorithm: &'a A, problem: &Problem) -> Result<Plan<'a, A>> {
        let k = algorithm.actions();
        let t = problem.horizon;
        // The plan keeps, per round, the choices that read it: refused on
        // the number before anything proportional to t is built.
        if t > MAX_HORIZON {
            return Err(Error::TooLarge(format!(
                "the structural method keeps the choices reading each of the {t} rounds, over its limit of {MAX_HORIZON} rounds, which --force does not lift"
            )));
        }
        let (vectors, digits) = loss_vectors(k, &problem.alphabet)?;
        let n = vectors.len() as u64;
        let schedule = algorithm.schedule(t);
        check_schedule(&schedule, t)?;
        let readers: Vec<Vec<usize>> = (1..=t)
            .map(|s| {
                (0..schedule.len())
                    .filter(|&c| schedule[c].reads.contains(&s))
                    .collect()
            })
            .collect();
        let too_large = |what: String| {
            Error::TooLarge(format!(
                "{what}: the structural candidates do not fit 64 bits"
            ))
        };
        // Before building anything: the multisets of the symmetric windows,
        // binom(L − 1 + |V| − 1, |V| − 1) per action, bound the tuples sorted.
        let letters = problem.alphabet.len() as u128;
        let multisets = |m: u128| (1..letters).fold(1u128, |acc, i| acc.saturating_mul(m + i) / i);
        let tuples: u128 = (0..schedule.len())
            .filter(|&c| {
                algorithm.statistic(c) != Statistic::Window
                    && !schedule[c].reads.is_empty()
                    && schedule[c].reads.clone().any(|r| readers[r - 1] == [c])
            })
            .map(|c| {
                (0..k).fold(1u128, |acc, _| {
                    acc.saturating_mul(multisets(schedule[c].reads.len() as u128))
                })
            })
            .fold(0u128, u128::saturating_add);
        if tuples > u128::from(MAX_GAP_TUPLES) {
            return Err(Error::TooLarge(format!(
                "about {tuples} tuples of window statistics are too many for the structural method (over 2^24); use a smaller horizon, or --method enumeration --force"
            )));
        }
        let mut groups = Vec::new();
        let mut offsets = vec![0u64];
        let mut symmetric_done = vec![false; schedule.len()];
        for s in 0..t {
            let group = match readers[s].as_slice() {
                [] => Group::Unread { round: s },
                &[c] if algorithm.statistic(c) != Statistic::Window => {
                    if symmetric_done[c] {
                        continue;
                    }
                    symmetric_done[c] = true;
                    let statistic = algorithm.statistic(c);
                    let reads = &schedule[c].reads;
                    let round = (reads.start..reads.end)
                        .rev()
                        .find(|&r| readers[r - 1] == [c])
                        .unwrap_or(s + 1)
                        - 1;
                    let len = reads.len();
                    let rest = Classes::new(statistic, &problem.alphabet, len - 1);
                    let full = Classes::new(statistic, &problem.alphabet, len);
                    let full_of = rest
                        .columns
                        .iter()
                        .map(|column| {
                            (0..problem.alphabet.len())
                                .map(|v| {
                                    let mut c = column.clone();
                                    c.push(v);
                                    full.index[&Classes::key(statistic, &problem.alphabet, &c)]
                                })
                                .collect()
                        })
                        .collect();
                    let gaps = statistic == Statistic::Gaps;
                    let tuples = slots_of(&rest, k, gaps)?.1;
                    let (law_of, slots) = slots_of(&full, k, gaps)?;
                    Group::Symmetric(Box::new(Symmetric {
                        choice: c,
                        round,
                        rest,
                        tuples,
                        full_of,
                        full,
                        law_of,
                        slots,
                    }))
                }
                cs => {
                    let mut union: Vec<usize> = cs
                        .iter()
                        .flat_map(|&c| schedule[c].reads.clone().map(|r| r - 1))
                        .collect();
                    union.sort_unstable();
                    union.dedup();
                    Group::Window { round: s, union }
                }
            };
            let size = match &group {
                Group::Unread { .. } => Some(1),
                Group::Symmetric(sym) => (sym.tuples.len() as u64)
                    .checked_mul(n)
                    .and_then(|r| r.checked_mul(n - 1)),
                Group::Window { union, .. } => {
                    checked_pow(n, union.len()).and_then(|r| r.checked_mul(n - 1))
                }
            };
            let end = size
                .and_then(|size| offsets.last().copied().unwrap_or(0).checked_add(size))
                .ok_or_else(|| too_large(format!("round {}", s + 1)))?;
            offsets.push(end);
            groups.push(group);
        }
        Ok(Plan {
            algorithm,
            schedule,
            horizon: t,
            vectors,
            digits,
            letters: problem.alphabet.len(),
            groups,
            offsets,
        })
    }

    fn candidates(&self) -> u64 {
        self.offsets.last().copied().unwrap_or(0)
    }

    /// The group of candidate `i` and its index within the group.
    fn locate(&self, i: u64) -> (usize, u64) {
        let g = self.offsets.partition_point(|&o| o <= i) - 1;
        (g, i - self.offsets[g])
    }

    /// The pair of candidate `i`: the loss sequences `x`, `x'` as vector
    /// indices, and the changed round (0-based).
    fn pair(&self, i: u64) -> (Vec<usize>, Vec<usize>, usize) {
        let n = self.vectors.len() as u64;
        let (g, local) = self.locate(i);
        let mut x = vec![0usize; self.horizon];
        match &self.groups[g] {
            Group::Unread { round } => {
                let mut x2 = x.clone();
                x2[*round] = 1;
                (x, x2, *round)
            }
            Group::Symmetric(sym) => {
                let Symmetric {
                    choice,
                    round,
                    rest,
                    tuples,
                    ..
                } = &**sym;
                let k = self.digits[0].len();
                let rank = local % (n - 1);
                let u = (local / (n - 1)) % n;
                let mut tuple = tuples[(local / ((n - 1) * n)) as usize];
                let mut columns = vec![Vec::new(); k];
                for j in (0..k).rev() {
                    columns[j] = rest.columns[(tuple % rest.len()) as usize].clone();
                    tuple /= rest.len();
                }
                let reads = &self.schedule[*choice].reads;
                // The representative round last; the others in order.
                let others: Vec<usize> = (reads.start - 1..reads.end - 1)
                    .filter(|&r| r != *round)
                    .collect();
                for (p, &r) in others.iter().enumerate() {
                    x[r] = self.vector_of(&columns.iter().map(|c| c[p]).collect::<Vec<_>>());
                }
                x[*round] = u as usize;
                let v = if rank < u { rank } else { rank + 1 };
                let mut x2 = x.clone();
                x2[*round] = v as usize;
                (x, x2, *round)
            }
            Group::Window { round, union, .. } => {
                let rank = local % (n - 1);
                let mut content = local / (n - 1);
                for &r in union.iter().rev() {
                    x[r] = (content % n) as usize;
                    content /= n;
                }
                let old = x[*round] as u64;
                let v = if rank < old { rank } else { rank + 1 };
                let mut x2 = x.clone();
                x2[*round] = v as usize;
                (x, x2, *round)
            }
        }
    }

    /// The vector index of the losses with alphabet indices `digits` (action
    /// 1 most significant, as in [`super::Space`]).
    fn vector_of(&self, digits: &[usize]) -> usize {
        digits.iter().fold(0, |acc, &d| acc * self.letters + d)
    }

    fn window(&self, x: &[usize], c: usize) -> Vec<Vec<Q>> {
        self.schedule[c]
            .reads
            .clone()
            .map(|r| self.vectors[x[r - 1]].clone())
            .collect()
    }

    fn law<R: Enclosed>(
        &self,
        c: usize,
        window: &[Vec<Q>],
        ctx: &R::Context,
    ) -> std::result::Result<Vec<R>, Fail> {
        let law = self
            .algorithm
            .choice_law::<R>(c, &self.schedule[c], window, ctx)?;
        if law.len() != self.digits[0].len() {
            return Err(Fail::Error(Error::InvalidInput(format!(
                "choice {c} has a law over {} actions, expected {}",
                law.len(),
                self.digits[0].len()
            ))));
        }
        Ok(law)
    }
}

/// The product of the readers' factors as a candidate ratio (a single
/// finite factor is moved, keys and all).
fn combine<R: Enclosed>(factors: Vec<Factor<R>>, one: &R) -> Cand<'static, R> {
    let mut finite = Vec::with_capacity(factors.len());
    for f in factors {
        match f {
            Factor::Infinite { .. } => return Cand::Infinite,
            Factor::Unit { .. } => {}
            Factor::Finite { lo, hi, keys, .. } => finite.push((lo, hi, keys)),
        }
    }
    if finite.len() == 1 {
        if let Some((lo, hi, keys)) = finite.pop() {
            let hi = hi.unwrap_or_else(|| lo.clone());
            return Cand::Finite {
                lo: Cow::Owned(lo),
                hi: Cow::Owned(hi),
                keys,
            };
        }
    }
    let mut lo = one.clone();
    let mut hi = one.clone();
    for (l, h, _) in finite {
        hi = hi * h.as_ref().unwrap_or(&l);
        lo = lo * &l;
    }
    let keys = Keys::of(&lo, &hi);
    Cand::Finite {
        lo: Cow::Owned(lo),
        hi: Cow::Owned(hi),
        keys,
    }
}

/// The laws of a symmetric group, one per tuple of full classes.
fn symmetric_laws<R: Enclosed, A: Structured>(
    plan: &Plan<'_, A>,
    choice: usize,
    full: &Classes,
    slots: &[u64],
    ctx: &R::Context,
) -> std::result::Result<Vec<Vec<R>>, Fail> {
    let k = plan.digits[0].len();
    let reads = plan.schedule[choice].reads.clone();
    slots
        .par_iter()
        .map(|&tuple| {
            let mut tuple = tuple;
            let mut columns = vec![Vec::new(); k];
            for j in (0..k).rev() {
                columns[j] = full.columns[(tuple % full.len()) as usize].clone();
                tuple /= full.len();
            }
            let window: Vec<Vec<Q>> = (0..reads.len())
                .map(|p| {
                    plan.vectors[plan.vector_of(&columns.iter().map(|c| c[p]).collect::<Vec<_>>())]
                        .clone()
                })
                .collect();
            plan.law::<R>(choice, &window, ctx)
        })
        .collect::<Vec<_>>()
        .into_iter()
        .collect()
}

/// The structural search with backend `R` over the candidates of `shard`:
/// the maximum ratio, its witness (a real pair of full sequences) and the
/// number of candidates (classes of pairs) examined.
pub fn structural<R: Enclosed, A: Structured>(
    algorithm: &A,
    problem: &Problem,
    shard: Shard,
    ctx: &R::Context,
) -> Result<Attempt> {
    let span = Span::Shard(shard);
    Ok(run::<R, A>(algorithm, problem, &span, ctx, None, &Progress::default())?.0)
}

/// The number of structural candidates of a problem (what shards split).
pub fn candidates<A: Structured>(algorithm: &A, problem: &Problem) -> Result<u64> {
    Ok(Plan::new(algorithm, problem)?.candidates())
}

/// The pair candidate `index` stands for, decoded as the search numbers the
/// candidates: the loss sequence, its neighbour and the changed round
/// (1-based); `None` when the problem has no such candidate. A merge input
/// names its witness by this index ([`Witness::sequence`]); the checker
/// decodes it and compares.
pub(crate) fn candidate_pair<A: Structured>(
    algorithm: &A,
    problem: &Problem,
    index: u64,
) -> Result<Option<CandidatePair>> {
    let plan = Plan::new(algorithm, problem)?;
    if index >= plan.candidates() {
        return Ok(None);
    }
    let (x, x2, round) = plan.pair(index);
    let sequence = |s: &[usize]| s.iter().map(|&v| plan.vectors[v].clone()).collect();
    Ok(Some((sequence(&x), sequence(&x2), round + 1)))
}

/// A candidate's loss sequence, neighbour and changed round (1-based).
pub(crate) type CandidatePair = (Vec<Vec<Q>>, Vec<Vec<Q>>, usize);

fn attempt_of(result: std::result::Result<Outcome, Fail>) -> Result<Attempt> {
    match result {
        Ok(outcome) => Ok(Attempt::Done(Box::new(outcome))),
        Err(Fail::Error(e)) => Err(e),
        Err(Fail::Undetermined(why)) => Ok(Attempt::Undetermined(why)),
    }
}

/// The search over the candidates of `shard`; with a `threshold`, also the
/// candidates whose ratio may reach it (upper end `≥ threshold`, or infinite),
/// in increasing order: the only ones an exact decision against a bound
/// `≥ threshold` needs to look at again.
pub(super) fn run<R: Enclosed, A: Structured>(
    algorithm: &A,
    problem: &Problem,
    span: &Span,
    ctx: &R::Context,
    threshold: Option<&Q>,
    progress: &Progress,
) -> Result<(Attempt, Vec<u64>)> {
    let plan = Plan::new(algorithm, problem)?;
    let range = span.range(plan.candidates())?;
    let mut survivors = Vec::new();
    let result = search::<R, A>(
        &plan,
        range,
        span.keeps_units(),
        ctx,
        threshold.map(|t| (t, &mut survivors)),
        progress,
    );
    Ok((attempt_of(result)?, survivors))
}

/// The search over the given candidates only (each evaluated from its pair,
/// no law tables), with `shard_size` as the number of candidates reported.
pub(super) fn run_on<R: Enclosed, A: Structured>(
    algorithm: &A,
    problem: &Problem,
    indices: &[u64],
    shard_size: u64,
    ctx: &R::Context,
) -> Result<Attempt> {
    let plan = Plan::new(algorithm, problem)?;
    let one = R::from_int(1, ctx);
    let result = indices
        .par_iter()
        .try_fold(Acc::new, |mut acc, &i| {
            let (cand, round) = plan.evaluate(i, None, &one, ctx)?;
            acc.offer(cand, i, 0, round);
            Ok::<_, Fail>(acc)
        })
        .try_reduce(Acc::new, |a, b| Ok(a.merge(b)))
        .and_then(|mut acc| {
            acc.pairs = shard_size;
            finish(&plan, acc, ctx)
        });
    attempt_of(result)
}

/// The laws of the choices that read a candidate's changed round: one
/// `(law under x, law under x')` per reader, in schedule order.
pub(super) struct LawPairs<R> {
    /// The candidate (its index, as [`pairs_of`] takes it).
    pub(super) candidate: u64,
    /// Each reader's pair of laws.
    pub(super) readers: Vec<(Vec<R>, Vec<R>)>,
}

/// The readers' laws of every structural candidate, in backend `R`, with
/// repeats left out where they are cheap to see: in a symmetric group one
/// candidate per distinct pair of law slots (the same two laws give the same
/// ratios); rounds nobody reads (ratio 1) give nothing. Each group's count
/// of candidates is added to `progress`.
pub(super) fn law_pairs<R: Enclosed, A: Structured>(
    algorithm: &A,
    problem: &Problem,
    ctx: &R::Context,
    progress: &Progress,
) -> Result<Vec<LawPairs<R>>> {
    let plan = Plan::new(algorithm, problem)?;
    progress.start(plan.candidates());
    let fail = |f: Fail| match f {
        Fail::Error(e) => e,
        Fail::Undetermined(why) => Error::NotRepresentable(why),
    };
    let mut out = Vec::new();
    for (g, group) in plan.groups.iter().enumerate() {
        let range = plan.offsets[g]..plan.offsets[g + 1];
        match group {
            Group::Unread { .. } => {}
            Group::Symmetric(sym) => {
                let laws = symmetric_laws::<R, A>(&plan, sym.choice, &sym.full, &sym.slots, ctx)
                    .map_err(fail)?;
                let mut seen = std::collections::HashSet::new();
                for i in range.clone() {
                    let (sx, sx2) = plan.law_slots(sym, i - range.start);
                    if seen.insert((sx, sx2)) {
                        out.push(LawPairs {
                            candidate: i,
                            readers: vec![(laws[sx as usize].clone(), laws[sx2 as usize].clone())],
                        });
                    }
                }
            }
            Group::Window { .. } => {
                for i in range.clone() {
                    let (x, x2, round) = plan.pair(i);
                    let readers = (0..plan.schedule.len())
                        .filter(|&c| plan.schedule[c].reads.contains(&(round + 1)))
                        .map(|c| {
                            Ok((
                                plan.law::<R>(c, &plan.window(&x, c), ctx).map_err(fail)?,
                                plan.law::<R>(c, &plan.window(&x2, c), ctx).map_err(fail)?,
                            ))
                        })
                        .collect::<Result<Vec<_>>>()?;
                    out.push(LawPairs {
                        candidate: i,
                        readers,
                    });
                }
            }
        }
        progress.add(range.end - range.start);
    }
    Ok(out)
}

/// Two loss sequences `x`, `x'` and the round (1-based) where they differ.
pub(super) type SequencePair = (Vec<Vec<Q>>, Vec<Vec<Q>>, usize);

/// The pairs of the given candidates.
pub(super) fn pairs_of<A: Structured>(
    algorithm: &A,
    problem: &Problem,
    indices: &[u64],
) -> Result<Vec<SequencePair>> {
    let plan = Plan::new(algorithm, problem)?;
    let sequence = |s: &[usize]| s.iter().map(|&v| plan.vectors[v].clone()).collect();
    Ok(indices
        .iter()
        .map(|&i| {
            let (x, x2, round) = plan.pair(i);
            (sequence(&x), sequence(&x2), round + 1)
        })
        .collect())
}

impl<A: Structured> Plan<'_, A> {
    /// The law slots (of `sym.law_of`) of the two windows of the symmetric
    /// group's candidate with index `local` within the group.
    fn law_slots(&self, sym: &Symmetric, local: u64) -> (u32, u32) {
        let n = self.vectors.len() as u64;
        let k = self.digits[0].len();
        let Symmetric {
            rest,
            tuples,
            full_of,
            full,
            law_of,
            ..
        } = sym;
        let rank = local % (n - 1);
        let u = (local / (n - 1)) % n;
        let v = if rank < u { rank } else { rank + 1 };
        let mut tuple = tuples[(local / ((n - 1) * n)) as usize];
        let (mut lx, mut lx2) = (0u64, 0u64);
        let mut place = 1u64;
        for j in (0..k).rev() {
            let r = (tuple % rest.len()) as usize;
            tuple /= rest.len();
            lx += full_of[r][self.digits[u as usize][j]] as u64 * place;
            lx2 += full_of[r][self.digits[v as usize][j]] as u64 * place;
            place *= full.len();
        }
        (law_of[lx as usize], law_of[lx2 as usize])
    }

    /// The ratio of candidate `i` and its changed round: from the law table of
    /// its symmetric group when given, else from the laws of its pair.
    fn evaluate<R: Enclosed>(
        &self,
        i: u64,
        tables: Option<&[Option<Vec<Vec<R>>>]>,
        one: &R,
        ctx: &R::Context,
    ) -> std::result::Result<(Cand<'static, R>, usize), Fail> {
        let (g, local) = self.locate(i);
        match (&self.groups[g], tables.and_then(|t| t[g].as_ref())) {
            (Group::Unread { round }, _) => Ok((combine(Vec::new(), one), *round)),
            (Group::Symmetric(sym), Some(laws)) => {
                let (sx, sx2) = self.law_slots(sym, local);
                let factor = ratio_factor(&laws[sx as usize], &laws[sx2 as usize])?;
                Ok((combine(vec![factor], one), sym.round))
            }
            _ => {
                let (x, x2, round) = self.pair(i);
                let mut factors = Vec::new();
                for c in (0..self.schedule.len())
                    .filter(|&c| self.schedule[c].reads.contains(&(round + 1)))
                {
                    let a = self.law::<R>(c, &self.window(&x, c), ctx)?;
                    let b = self.law::<R>(c, &self.window(&x2, c), ctx)?;
                    factors.push(ratio_factor(&a, &b)?);
                }
                Ok((combine(factors, one), round))
            }
        }
    }
}

fn search<R: Enclosed, A: Structured>(
    plan: &Plan<'_, A>,
    range: std::ops::Range<u64>,
    keep_units: bool,
    ctx: &R::Context,
    survivors: Option<(&Q, &mut Vec<u64>)>,
    progress: &Progress,
) -> std::result::Result<Outcome, Fail> {
    let one = R::from_int(1, ctx);
    // The laws of the symmetric groups this shard touches.
    let mut tables: Vec<Option<Vec<Vec<R>>>> = Vec::with_capacity(plan.groups.len());
    for (g, group) in plan.groups.iter().enumerate() {
        let touched = plan.offsets[g] < range.end && plan.offsets[g + 1] > range.start;
        tables.push(match group {
            Group::Symmetric(sym) if touched => Some(symmetric_laws::<R, A>(
                plan, sym.choice, &sym.full, &sym.slots, ctx,
            )?),
            _ => None,
        });
    }
    progress.start(range.end - range.start);
    // The threshold, and a double below it (candidates whose upper end is
    // certainly below the double are certainly below the threshold).
    let threshold = survivors.as_ref().map(|(t, _)| {
        let f = Real::to_f64(*t);
        ((*t).clone(), f - f.abs() * 1e-9 - 1e-300)
    });
    // The candidates that may reach the threshold, gathered beside the
    // search (their order is restored below).
    let found = std::sync::Mutex::new(Vec::new());
    let (acc, units) = by_units(range, keep_units, |mut acc, i| {
        let (cand, round) = plan.evaluate(i, Some(&tables), &one, ctx)?;
        if let Some(t) = &threshold {
            let reaches = match &cand {
                Cand::Infinite => true,
                Cand::Finite { hi, keys, .. } => {
                    keys.hi_up >= t.1 && hi.enclosure().is_none_or(|(_, h)| h >= t.0)
                }
            };
            if reaches {
                found.lock().unwrap_or_else(|e| e.into_inner()).push(i);
            }
        }
        acc.offer(cand, i, 0, round);
        progress.add(1);
        Ok::<_, Fail>(acc)
    })?;
    if let Some((_, out)) = survivors {
        *out = found.into_inner().unwrap_or_else(|e| e.into_inner());
        out.sort_unstable();
    }
    let mut outcome = finish(plan, acc, ctx)?;
    outcome.units = units;
    Ok(outcome)
}

/// The outcome of an accumulated search: the maximum, its witness, the count.
fn finish<R: Enclosed, A: Structured>(
    plan: &Plan<'_, A>,
    acc: Acc<R>,
    ctx: &R::Context,
) -> std::result::Result<Outcome, Fail> {
    let best = acc
        .best
        .as_ref()
        .ok_or_else(|| Fail::Error(Error::InvalidInput("the shard has no candidates".into())))?;
    Ok(Outcome {
        max_ratio: acc.max_ratio(),
        witness: witness(plan, best, ctx)?,
        pairs: acc.pairs,
        units: Vec::new(),
    })
}

/// The witness of the best candidate: the full sequences, and the actions
/// (each reader's maximising action, elsewhere the first action of positive
/// probability).
fn witness<R: Enclosed, A: Structured>(
    plan: &Plan<'_, A>,
    best: &Best<R>,
    ctx: &R::Context,
) -> std::result::Result<Witness, Fail> {
    let (x, x2, round) = plan.pair(best.x);
    let mut actions = Vec::with_capacity(plan.horizon);
    for (c, choice) in plan.schedule.iter().enumerate() {
        let law = plan.law::<R>(c, &plan.window(&x, c), ctx)?;
        let j = if choice.reads.contains(&(round + 1)) {
            let law2 = plan.law::<R>(c, &plan.window(&x2, c), ctx)?;
            match ratio_factor(&law, &law2)? {
                Factor::Infinite { argmax }
                | Factor::Unit { argmax }
                | Factor::Finite { argmax, .. } => argmax as usize,
            }
        } else {
            law.iter().position(|p| !p.certainly_zero()).unwrap_or(0)
        };
        actions.extend(std::iter::repeat_n(j, choice.plays.len()));
    }
    let sequence = |s: &[usize]| s.iter().map(|&v| plan.vectors[v].clone()).collect();
    Ok(Witness {
        losses: sequence(&x),
        neighbour: sequence(&x2),
        actions,
        round: round + 1,
        ratio: match &best.value {
            Value::Infinite => Ratio::Infinite,
            Value::Finite { lo, hi, .. } => to_ratio(lo, hi),
        },
        sequence: best.x,
        neighbour_sequence: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64) -> Q {
        Q::from_integer(n.into())
    }

    #[test]
    fn classes_of_binary_columns_are_the_sums() {
        let alphabet = [q(0), q(1)];
        for statistic in [Statistic::Sums, Statistic::Counts] {
            let c = Classes::new(statistic, &alphabet, 5);
            assert_eq!(c.len(), 6);
        }
    }

    #[test]
    fn classes_of_three_letters_count_multisets_or_sums() {
        // Multisets of 4 values of 3 letters: binom(6, 2) = 15; sums of 4
        // values of {0, 1/2, 1}, in halves: 0..=8, 9 values.
        let alphabet = [q(0), Q::new(1.into(), 2.into()), q(1)];
        assert_eq!(Classes::new(Statistic::Counts, &alphabet, 4).len(), 15);
        assert_eq!(Classes::new(Statistic::Sums, &alphabet, 4).len(), 9);
        assert_eq!(Classes::new(Statistic::Counts, &alphabet, 0).len(), 1);
    }
}
