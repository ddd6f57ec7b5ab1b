//! The search over neighbour pairs with the product identity (see the module
//! documentation of [`super`]): choice laws cached per (choice, window),
//! factors per (choice, window, window'), pairs scanned in parallel.

use super::{Attempt, Outcome, Problem, Ratio, Shard, Space, Span, Witness};
use crate::algorithm::{Choice, OnlineAlgorithm};
use crate::error::{Error, Result};
use crate::num::{Endpoint, Exact, ExpRational, Interval, Kind, Real, Q};
use crate::progress::Progress;
use num_traits::{One, Signed, Zero};
use rayon::prelude::*;
use std::borrow::Cow;
use std::cmp::Ordering;

/// A backend whose values can be ordered by their lower and by their upper
/// ends: what the maximum over pairs needs. Exact values are their own ends.
pub trait Enclosed: Real {
    /// The order of the lower ends of `self` and `other`.
    fn cmp_lo(&self, other: &Self) -> Ordering;
    /// The order of the upper ends.
    fn cmp_hi(&self, other: &Self) -> Ordering;
    /// Whether the value is certainly `> 0` (its lower end is positive).
    fn certainly_positive(&self) -> bool;
    /// Whether the value is certainly `0` (both ends are zero).
    fn certainly_zero(&self) -> bool;
    /// Doubles bounding the lower end, `(down, up)`, and the upper end
    /// (infinite when out of range): the cheap keys of `Keys`.
    fn f64_ends(&self) -> ((f64, f64), (f64, f64)) {
        let (lo, hi) = self.enclosure().unwrap_or_default();
        (f64_bounds(&lo), f64_bounds(&hi))
    }
}

impl Enclosed for Exact {
    fn cmp_lo(&self, other: &Self) -> Ordering {
        self.cmp(other)
    }
    fn cmp_hi(&self, other: &Self) -> Ordering {
        self.cmp(other)
    }
    fn certainly_positive(&self) -> bool {
        self.is_positive()
    }
    fn certainly_zero(&self) -> bool {
        self.is_zero()
    }
}

/// The exact field of [`ExpRational`]: its order is exact (decided by
/// transcendence and refinement), so both ends are the value.
impl Enclosed for ExpRational {
    fn cmp_lo(&self, other: &Self) -> Ordering {
        self.cmp(other)
    }
    fn cmp_hi(&self, other: &Self) -> Ordering {
        self.cmp(other)
    }
    fn certainly_positive(&self) -> bool {
        self.sign() == Ordering::Greater
    }
    fn certainly_zero(&self) -> bool {
        self.is_zero()
    }
}

impl<E: Endpoint> Enclosed for Interval<E> {
    fn cmp_lo(&self, other: &Self) -> Ordering {
        self.lo().total_cmp(other.lo())
    }
    fn cmp_hi(&self, other: &Self) -> Ordering {
        self.hi().total_cmp(other.hi())
    }
    fn certainly_positive(&self) -> bool {
        self.lo().signum() == Ordering::Greater
    }
    fn certainly_zero(&self) -> bool {
        self.lo().signum() == Ordering::Equal && self.hi().signum() == Ordering::Equal
    }
    /// The endpoints' nearest doubles widened as in `f64_bounds`, without
    /// converting the endpoints to rationals (the hot spot of the scans).
    fn f64_ends(&self) -> ((f64, f64), (f64, f64)) {
        (widen(self.lo().to_f64()), widen(self.hi().to_f64()))
    }
}

/// Why a search stopped: an error, or a probability that cannot be separated
/// from zero at this precision.
pub(super) enum Fail {
    Error(Error),
    Undetermined(String),
}

impl From<Error> for Fail {
    fn from(e: Error) -> Fail {
        Fail::Error(e)
    }
}

/// Double-precision bounds of a ratio's ends, `lo_down ≤ lower end ≤ lo_up`
/// and `hi_down ≤ upper end ≤ hi_up`: they decide most comparisons between
/// pairs without touching the big numbers (whose comparison is the hot spot of
/// the scan); only overlapping keys fall back to [`Enclosed::cmp_lo`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Keys {
    lo_down: f64,
    lo_up: f64,
    hi_down: f64,
    pub(super) hi_up: f64,
}

/// The relative error allowed between a rational and its double (a few ulps).
const SLACK: f64 = 1.0 / (1u64 << 40) as f64;

/// Bounds `(down, up)` with `down ≤ q ≤ up`: the nearest double widened by
/// [`SLACK`] relatively and by 10^−300 absolutely (for subnormal doubles).
fn f64_bounds(q: &Q) -> (f64, f64) {
    widen(Real::to_f64(q))
}

/// `(f − margin, f + margin)` around a double within a few ulps of a value,
/// as in [`f64_bounds`]; everything for a non-finite double.
fn widen(f: f64) -> (f64, f64) {
    if !f.is_finite() {
        return (f64::NEG_INFINITY, f64::INFINITY);
    }
    let margin = f.abs() * SLACK + 1e-300;
    (f - margin, f + margin)
}

impl Keys {
    pub(super) const ONE: Keys = Keys {
        lo_down: 1.0,
        lo_up: 1.0,
        hi_down: 1.0,
        hi_up: 1.0,
    };

    pub(super) fn of<R: Enclosed>(lo: &R, hi: &R) -> Keys {
        let ((lo_down, lo_up), _) = lo.f64_ends();
        let (_, (hi_down, hi_up)) = hi.f64_ends();
        Keys {
            lo_down,
            lo_up,
            hi_down,
            hi_up,
        }
    }
}

/// `max_j num_j / den_j` over `j` with `num_j > 0`, for one choice.
pub(super) enum Factor<R> {
    /// Some `j` has `num_j > 0 = den_j` (the smallest such `j`).
    Infinite { argmax: u32 },
    /// Exactly 1 (for instance two point masses on the same action).
    Unit { argmax: u32 },
    /// `lo` is the ratio of `argmax`, the `j` with the largest lower end (ties:
    /// the smallest `j`); `hi` the ratio with the largest upper end when it is
    /// another `j`. The maximum lies in `[lo.lo, (hi or lo).hi]`.
    Finite {
        lo: R,
        hi: Option<R>,
        argmax: u32,
        keys: Keys,
    },
}

pub(super) fn ratio_factor<R: Enclosed>(
    num: &[R],
    den: &[R],
) -> std::result::Result<Factor<R>, Fail> {
    for (j, (n, d)) in num.iter().zip(den).enumerate() {
        if n.certainly_positive() && d.certainly_zero() {
            return Ok(Factor::Infinite { argmax: j as u32 });
        }
    }
    let mut lo: Option<(R, usize)> = None;
    let mut hi: Option<(R, usize)> = None;
    for (j, (n, d)) in num.iter().zip(den).enumerate() {
        if n.certainly_zero() {
            continue;
        }
        if !d.certainly_positive() {
            return Err(Fail::Undetermined(format!(
                "the probability {d:?} of action {} cannot be separated from 0",
                j + 1
            )));
        }
        let r = n.clone() / d;
        if lo
            .as_ref()
            .is_none_or(|(b, _)| r.cmp_lo(b) == Ordering::Greater)
        {
            lo = Some((r.clone(), j));
        }
        if hi
            .as_ref()
            .is_none_or(|(b, _)| r.cmp_hi(b) == Ordering::Greater)
        {
            hi = Some((r, j));
        }
    }
    match (lo, hi) {
        (Some((lo, argmax)), Some((hi, hj))) => {
            let argmax = argmax as u32;
            let keys = Keys::of(&lo, &hi);
            if hj == argmax as usize
                && keys.lo_down <= 1.0
                && keys.hi_up >= 1.0
                && lo
                    .enclosure()
                    .is_some_and(|(l, h)| l.is_one() && h.is_one())
            {
                return Ok(Factor::Unit { argmax });
            }
            Ok(Factor::Finite {
                lo,
                hi: (hj != argmax as usize).then_some(hi),
                argmax,
                keys,
            })
        }
        _ => Err(Fail::Error(Error::InvalidInput(
            "a choice law gives probability 0 to every action".into(),
        ))),
    }
}

/// One choice of the schedule with its laws and factors.
struct Table<R> {
    choice: Choice,
    /// The first round read, 0-based.
    start: usize,
    /// The number of rounds read.
    len: usize,
    /// `N^{t − start − len}`: the window of `x` is `(x / shift) % modulus`.
    shift: u64,
    /// `N^len`, the number of windows.
    modulus: u64,
    /// The law of the choice for each window.
    laws: Vec<Vec<R>>,
    /// The factor of `(window w, position p, replacement rank r)` at
    /// `(w·len + p)·(N − 1) + r`.
    factors: Vec<Factor<R>>,
}

/// The first failure of a vector of results, in index order (deterministic
/// whatever the thread count).
fn first_failure<T>(items: Vec<std::result::Result<T, Fail>>) -> std::result::Result<Vec<T>, Fail> {
    items.into_iter().collect()
}

/// Check the schedule's contract: `plays` partition `1..=t` in order, each
/// `reads` within the rounds before its `plays`.
pub(super) fn check_schedule(schedule: &[Choice], horizon: usize) -> Result<()> {
    let mut next = 1;
    for c in schedule {
        if c.plays.start != next || c.plays.end <= c.plays.start {
            return Err(Error::InvalidInput(format!(
                "the schedule's plays ranges do not partition rounds 1 to {horizon}: {:?}",
                c.plays
            )));
        }
        if c.reads.start < 1 || c.reads.end < c.reads.start || c.reads.end > c.plays.start {
            return Err(Error::InvalidInput(format!(
                "a choice reads rounds {:?}, not all before its plays {:?}",
                c.reads, c.plays
            )));
        }
        next = c.plays.end;
    }
    if next != horizon + 1 {
        return Err(Error::InvalidInput(format!(
            "the schedule covers rounds up to {}, not the horizon {horizon}",
            next - 1
        )));
    }
    Ok(())
}

fn tables<R: Enclosed, A: OnlineAlgorithm>(
    algorithm: &A,
    space: &Space,
    ctx: &R::Context,
) -> std::result::Result<Vec<Table<R>>, Fail> {
    let t = space.horizon;
    let n = space.vector_count();
    let schedule = algorithm.schedule(t);
    check_schedule(&schedule, t)?;
    let mut out = Vec::with_capacity(schedule.len());
    for (index, choice) in schedule.into_iter().enumerate() {
        let start = choice.reads.start - 1;
        let len = choice.reads.len();
        let modulus = space.powers[len];
        let digit = |w: u64, p: usize| (w / space.powers[len - 1 - p]) % n;
        let laws = first_failure(
            (0..modulus)
                .into_par_iter()
                .map(|w| {
                    let window: Vec<Vec<Q>> = (0..len)
                        .map(|p| space.vectors[digit(w, p) as usize].clone())
                        .collect();
                    let law = algorithm.choice_law::<R>(index, &choice, &window, ctx)?;
                    if law.len() != space.actions {
                        return Err(Fail::Error(Error::InvalidInput(format!(
                            "choice {index} has a law over {} actions, expected {}",
                            law.len(),
                            space.actions
                        ))));
                    }
                    Ok(law)
                })
                .collect(),
        )?;
        let entries = modulus * len as u64 * (n - 1);
        let factors = first_failure(
            (0..entries)
                .into_par_iter()
                .map(|i| {
                    let r = i % (n - 1);
                    let p = ((i / (n - 1)) % len as u64) as usize;
                    let w = i / ((n - 1) * len as u64);
                    let old = digit(w, p);
                    let v = if r < old { r } else { r + 1 };
                    let place = space.powers[len - 1 - p];
                    let w2 = w - old * place + v * place;
                    ratio_factor(&laws[w as usize], &laws[w2 as usize])
                })
                .collect(),
        )?;
        out.push(Table {
            choice,
            start,
            len,
            shift: space.powers[t - start - len],
            modulus,
            laws,
            factors,
        });
    }
    Ok(out)
}

/// A candidate ratio, borrowed from the tables where possible.
pub(super) enum Cand<'a, R: Clone> {
    Infinite,
    Finite {
        lo: Cow<'a, R>,
        hi: Cow<'a, R>,
        keys: Keys,
    },
}

/// An owned ratio: `lo` carries the lower end, `hi` the upper end.
#[derive(Clone)]
pub(super) enum Value<R> {
    Infinite,
    Finite { lo: R, hi: R, keys: Keys },
}

/// The order of lower ends, by the double keys when they separate.
fn order_lo<R: Enclosed>(a: &R, ak: &Keys, b: &R, bk: &Keys) -> Ordering {
    if ak.lo_up < bk.lo_down {
        Ordering::Less
    } else if ak.lo_down > bk.lo_up {
        Ordering::Greater
    } else {
        a.cmp_lo(b)
    }
}

/// Whether the upper end of `a` is above that of `b`.
fn above_hi<R: Enclosed>(a: &R, ak: &Keys, b: &R, bk: &Keys) -> bool {
    if ak.hi_up < bk.hi_down {
        false
    } else if ak.hi_down > bk.hi_up {
        true
    } else {
        a.cmp_hi(b) == Ordering::Greater
    }
}

fn cmp_lo<R: Enclosed>(a: &Cand<'_, R>, b: &Value<R>) -> Ordering {
    match (a, b) {
        (Cand::Infinite, Value::Infinite) => Ordering::Equal,
        (Cand::Infinite, _) => Ordering::Greater,
        (_, Value::Infinite) => Ordering::Less,
        (
            Cand::Finite { lo, keys, .. },
            Value::Finite {
                lo: b, keys: bk, ..
            },
        ) => order_lo(lo.as_ref(), keys, b, bk),
    }
}

/// The best pair so far: the largest lower end, ties to the smallest `(x, x')`.
#[derive(Clone)]
pub(super) struct Best<R> {
    pub(super) value: Value<R>,
    pub(super) x: u64,
    pub(super) x2: u64,
    /// The round that differs, 0-based.
    pub(super) round: usize,
}

/// A partial result: the best pair, the largest upper end, the pairs seen.
#[derive(Clone)]
pub(super) struct Acc<R> {
    pub(super) best: Option<Best<R>>,
    /// `Some(None)` is an infinite upper end.
    pub(super) hi: Option<Option<(R, Keys)>>,
    pub(super) pairs: u64,
}

impl<R: Enclosed> Acc<R> {
    pub(super) fn new() -> Acc<R> {
        Acc {
            best: None,
            hi: None,
            pairs: 0,
        }
    }

    pub(super) fn offer(&mut self, cand: Cand<'_, R>, x: u64, x2: u64, round: usize) {
        self.pairs += 1;
        let better = match &self.best {
            None => true,
            Some(b) => match cmp_lo(&cand, &b.value) {
                Ordering::Greater => true,
                Ordering::Equal => (x, x2) < (b.x, b.x2),
                Ordering::Less => false,
            },
        };
        match &cand {
            Cand::Infinite => self.hi = Some(None),
            Cand::Finite { hi, keys, .. } => {
                let higher = match &self.hi {
                    None => true,
                    Some(None) => false,
                    Some(Some((h, hk))) => above_hi(hi.as_ref(), keys, h, hk),
                };
                if higher {
                    self.hi = Some(Some((hi.as_ref().clone(), *keys)));
                }
            }
        }
        if better {
            let value = match cand {
                Cand::Infinite => Value::Infinite,
                Cand::Finite { lo, hi, keys } => Value::Finite {
                    lo: lo.into_owned(),
                    hi: hi.into_owned(),
                    keys,
                },
            };
            self.best = Some(Best {
                value,
                x,
                x2,
                round,
            });
        }
    }

    /// The maximum ratio of the pairs offered: `[best lower end, largest
    /// upper end]`, infinite when either is.
    pub(super) fn max_ratio(&self) -> Ratio {
        match (&self.best, &self.hi) {
            (
                Some(Best {
                    value: Value::Finite { lo, .. },
                    ..
                }),
                Some(Some((hi, _))),
            ) => to_ratio(lo, hi),
            _ => Ratio::Infinite,
        }
    }

    pub(super) fn merge(mut self, other: Acc<R>) -> Acc<R> {
        self.pairs += other.pairs;
        self.hi = match (self.hi, other.hi) {
            (None, h) | (h, None) => h,
            (Some(None), _) | (_, Some(None)) => Some(None),
            (Some(Some(a)), Some(Some(b))) => Some(Some(if above_hi(&b.0, &b.1, &a.0, &a.1) {
                b
            } else {
                a
            })),
        };
        self.best = match (self.best, other.best) {
            (None, b) | (b, None) => b,
            (Some(a), Some(b)) => {
                let order = match (&b.value, &a.value) {
                    (Value::Infinite, Value::Infinite) => Ordering::Equal,
                    (Value::Infinite, _) => Ordering::Greater,
                    (_, Value::Infinite) => Ordering::Less,
                    (
                        Value::Finite {
                            lo: bl, keys: bk, ..
                        },
                        Value::Finite {
                            lo: al, keys: ak, ..
                        },
                    ) => order_lo(bl, bk, al, ak),
                };
                let take_b = match order {
                    Ordering::Greater => true,
                    Ordering::Equal => (b.x, b.x2) < (a.x, a.x2),
                    Ordering::Less => false,
                };
                Some(if take_b { b } else { a })
            }
        };
        self
    }
}

/// The ratio `[lo.lo, hi.hi]` (exact: `lo` itself).
pub(super) fn to_ratio<R: Real>(lo: &R, hi: &R) -> Ratio {
    let (l, _) = lo.enclosure().unwrap_or_default();
    if R::KIND == Kind::Exact {
        Ratio::Exact(l)
    } else {
        let (_, h) = hi.enclosure().unwrap_or_default();
        Ratio::Certified { lo: l, hi: h }
    }
}

struct Scan<'a, R> {
    space: &'a Space,
    tables: &'a [Table<R>],
    /// The choices reading each round (0-based).
    readers: Vec<Vec<usize>>,
    one: R,
}

impl<R: Enclosed> Scan<'_, R> {
    fn window(&self, c: usize, x: u64) -> u64 {
        let table = &self.tables[c];
        (x / table.shift) % table.modulus
    }

    fn factor(&self, c: usize, x: u64, s: usize, rank: u64) -> &Factor<R> {
        let table = &self.tables[c];
        let n = self.space.vector_count();
        let w = self.window(c, x);
        let p = (s - table.start) as u64;
        &table.factors[((w * table.len as u64 + p) * (n - 1) + rank) as usize]
    }

    /// Every neighbour of `x`.
    fn visit(&self, x: u64, acc: &mut Acc<R>) {
        let t = self.space.horizon;
        let n = self.space.vector_count();
        for s in 0..t {
            let old = self.space.digit(x, s);
            let place = self.space.powers[t - 1 - s];
            for v in (0..n).filter(|&v| v != old) {
                let x2 = x - old * place + v * place;
                let rank = if v < old { v } else { v - 1 };
                let cand = match self.readers[s].as_slice() {
                    [] => self.unit(),
                    &[c] => match self.factor(c, x, s, rank) {
                        Factor::Infinite { .. } => Cand::Infinite,
                        Factor::Unit { .. } => self.unit(),
                        Factor::Finite { lo, hi, keys, .. } => Cand::Finite {
                            lo: Cow::Borrowed(lo),
                            hi: Cow::Borrowed(hi.as_ref().unwrap_or(lo)),
                            keys: *keys,
                        },
                    },
                    readers => self.product(readers, x, s, rank),
                };
                acc.offer(cand, x, x2, s);
            }
        }
    }

    /// The ratio exactly 1.
    fn unit(&self) -> Cand<'_, R> {
        Cand::Finite {
            lo: Cow::Borrowed(&self.one),
            hi: Cow::Borrowed(&self.one),
            keys: Keys::ONE,
        }
    }

    /// The product of several choices' factors: an infinite one wins, unit
    /// factors are skipped, a single other factor is borrowed.
    fn product(&self, readers: &[usize], x: u64, s: usize, rank: u64) -> Cand<'_, R> {
        let mut finite = Vec::with_capacity(readers.len());
        for &c in readers {
            match self.factor(c, x, s, rank) {
                Factor::Infinite { .. } => return Cand::Infinite,
                Factor::Unit { .. } => {}
                Factor::Finite { lo, hi, keys, .. } => finite.push((lo, hi.as_ref(), *keys)),
            }
        }
        match finite.as_slice() {
            [] => self.unit(),
            &[(lo, hi, keys)] => Cand::Finite {
                lo: Cow::Borrowed(lo),
                hi: Cow::Borrowed(hi.unwrap_or(lo)),
                keys,
            },
            [(l0, h0, _), rest @ ..] => {
                let mut lo = (*l0).clone();
                let mut hi = h0.map(|h| (*h).clone());
                for (l, h, _) in rest {
                    hi = match (hi, h) {
                        (None, None) => None,
                        (hi, h) => Some(hi.unwrap_or_else(|| lo.clone()) * h.unwrap_or(l)),
                    };
                    lo = lo * *l;
                }
                let hi = hi.unwrap_or_else(|| lo.clone());
                let keys = Keys::of(&lo, &hi);
                Cand::Finite {
                    hi: Cow::Owned(hi),
                    lo: Cow::Owned(lo),
                    keys,
                }
            }
        }
    }

    fn witness(&self, best: &Best<R>) -> Witness {
        let space = self.space;
        let (x, x2, s) = (best.x, best.x2, best.round);
        let old = space.digit(x, s);
        let v = space.digit(x2, s);
        let rank = if v < old { v } else { v - 1 };
        let mut actions = Vec::with_capacity(space.horizon);
        for (c, table) in self.tables.iter().enumerate() {
            let j = if self.readers[s].contains(&c) {
                match self.factor(c, x, s, rank) {
                    Factor::Infinite { argmax }
                    | Factor::Unit { argmax }
                    | Factor::Finite { argmax, .. } => *argmax as usize,
                }
            } else {
                let law = &table.laws[self.window(c, x) as usize];
                law.iter().position(|p| !p.certainly_zero()).unwrap_or(0)
            };
            actions.extend(std::iter::repeat_n(j, table.choice.plays.len()));
        }
        Witness {
            losses: space.sequence(x),
            neighbour: space.sequence(x2),
            actions,
            round: s + 1,
            ratio: match &best.value {
                Value::Infinite => Ratio::Infinite,
                Value::Finite { lo, hi, .. } => to_ratio(lo, hi),
            },
            sequence: x,
            neighbour_sequence: x2,
        }
    }
}

/// The product search with backend `R` over the sequences of `shard`: the
/// maximum ratio, its witness and the pair count. Errors of the laws are
/// returned (an exact backend's [`Error::NotRepresentable`] among them);
/// a probability that an interval cannot separate from zero gives
/// [`Attempt::Undetermined`]. No size limit is applied here.
pub fn product<R: Enclosed, A: OnlineAlgorithm>(
    algorithm: &A,
    problem: &Problem,
    shard: Shard,
    ctx: &R::Context,
) -> Result<Attempt> {
    run::<R, A>(
        algorithm,
        problem,
        &Span::Shard(shard),
        ctx,
        &Progress::default(),
    )
}

pub(super) fn run<R: Enclosed, A: OnlineAlgorithm>(
    algorithm: &A,
    problem: &Problem,
    span: &Span,
    ctx: &R::Context,
    progress: &Progress,
) -> Result<Attempt> {
    let space = Space::new(algorithm.actions(), problem)?;
    let range = span.range(space.sequences())?;
    let tables = match tables::<R, A>(algorithm, &space, ctx) {
        Ok(tables) => tables,
        Err(Fail::Error(e)) => return Err(e),
        Err(Fail::Undetermined(why)) => return Ok(Attempt::Undetermined(why)),
    };
    let readers = (0..space.horizon)
        .map(|s| {
            (0..tables.len())
                .filter(|&c| (tables[c].start..tables[c].start + tables[c].len).contains(&s))
                .collect()
        })
        .collect();
    let scan = Scan {
        space: &space,
        tables: &tables,
        readers,
        one: R::from_int(1, ctx),
    };
    let per_sequence = space.horizon as u64 * (space.vector_count() - 1);
    progress.start(space.pairs(&range));
    let units = by_units(range, span.keeps_units(), |mut acc, x| {
        scan.visit(x, &mut acc);
        progress.add(per_sequence);
        Ok::<_, std::convert::Infallible>(acc)
    });
    let (acc, units) = units.unwrap_or_else(|never| match never {});
    let best = acc
        .best
        .as_ref()
        .ok_or_else(|| Error::InvalidInput("the shard has no neighbour pairs".into()))?;
    Ok(Attempt::Done(Box::new(Outcome {
        max_ratio: acc.max_ratio(),
        witness: scan.witness(best),
        pairs: acc.pairs,
        units,
    })))
}

/// Search `range` by folding its items with `visit` in parallel: the whole
/// accumulator, and with `keep_units` each unit's maximum ratio, in order
/// (the units of [`super::units_of`] folded one by one, then merged; a
/// whole run, which writes no units, spares their accumulators). The first
/// error stops the search.
pub(super) fn by_units<R: Enclosed, E: Send>(
    range: std::ops::Range<u64>,
    keep_units: bool,
    visit: impl Fn(Acc<R>, u64) -> std::result::Result<Acc<R>, E> + Sync + Send,
) -> std::result::Result<(Acc<R>, Vec<Ratio>), E> {
    let fold = |items: std::ops::Range<u64>| {
        items
            .into_par_iter()
            .try_fold(Acc::new, &visit)
            .try_reduce(Acc::new, |a, b| Ok(a.merge(b)))
    };
    if !keep_units {
        return Ok((fold(range)?, Vec::new()));
    }
    let accs = super::units_of(&range)
        .into_par_iter()
        .map(fold)
        .collect::<std::result::Result<Vec<Acc<R>>, E>>()?;
    let units = accs.iter().map(Acc::max_ratio).collect();
    let whole = accs.into_iter().fold(Acc::new(), Acc::merge);
    Ok((whole, units))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::{Certified, Precision};

    fn q(n: i64, d: i64) -> Q {
        Q::new(n.into(), d.into())
    }

    #[test]
    fn factor_of_identical_exact_laws_is_unit_and_argmax_lowest() {
        let law = vec![q(1, 3), q(2, 3)];
        assert!(matches!(
            ratio_factor::<Exact>(&law, &law),
            Ok(Factor::Unit { argmax: 0 })
        ));
        let other = vec![q(1, 2), q(1, 2)];
        match ratio_factor::<Exact>(&law, &other) {
            Ok(Factor::Finite { lo, hi, argmax, .. }) => {
                assert_eq!(lo, q(4, 3));
                assert!(hi.is_none());
                assert_eq!(argmax, 1);
            }
            _ => panic!("finite factor expected"),
        }
    }

    #[test]
    fn factor_with_a_zero_denominator_is_infinite() {
        let num = vec![q(0, 1), q(1, 2), q(1, 2)];
        let den = vec![q(1, 2), q(1, 2), q(0, 1)];
        assert!(matches!(
            ratio_factor::<Exact>(&num, &den),
            Ok(Factor::Infinite { argmax: 2 })
        ));
        // 0/0 is skipped: only action 2 counts.
        let num = vec![q(0, 1), q(1, 1)];
        let den = vec![q(0, 1), q(1, 1)];
        assert!(matches!(
            ratio_factor::<Exact>(&num, &den),
            Ok(Factor::Unit { argmax: 1 })
        ));
    }

    #[test]
    fn certified_factor_keeps_largest_lower_and_upper_ends() {
        let bits = Precision(64);
        let c = |n, d| Certified::from_rational(&q(n, d), &bits);
        let num = vec![c(1, 4), c(3, 4)];
        let den = vec![c(1, 2), c(1, 2)];
        match ratio_factor::<Certified>(&num, &den) {
            Ok(Factor::Finite { lo, argmax, .. }) => {
                assert_eq!(argmax, 1);
                let (l, h) = lo.enclosure().unwrap();
                assert!(l <= q(3, 2) && q(3, 2) <= h);
            }
            _ => panic!("finite factor expected"),
        }
    }

    #[test]
    fn schedules_that_break_the_contract_are_refused() {
        let ok = vec![
            Choice {
                plays: 1..2,
                reads: 1..1,
            },
            Choice {
                plays: 2..4,
                reads: 1..2,
            },
        ];
        assert!(check_schedule(&ok, 3).is_ok());
        assert!(check_schedule(&ok, 4).is_err());
        let reads_ahead = vec![
            Choice {
                plays: 1..2,
                reads: 1..1,
            },
            Choice {
                plays: 2..3,
                reads: 1..3,
            },
        ];
        assert!(check_schedule(&reads_ahead, 2).is_err());
    }
}
