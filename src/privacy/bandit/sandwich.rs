//! The certified privacy check of the private Thompson samplings (DP-TS,
//! Lazy-DP-TS) from bounds on their laws ([`crate::bandit::law::beta_sandwich`]),
//! on every pair of neighbouring reward tables over a finite alphabet.
//!
//! The law of a pull sequence depends on the table only through the
//! rewards the pulls saw, and neighbouring tables (one row replaced) change
//! the reward seen in one round. So the largest ratio over neighbours is
//! the largest `P(a | y)/P(a | y′)` over the pull sequences `a`, the
//! vectors `y` of rewards seen in the alphabet and the `y′` that replace one
//! entry of `y`. With `lo ≤ P ≤ hi` for every law,
//!
//! ```text
//! max lo(a | y)/hi(a | y′)  ≤  max ratio  ≤  max hi(a | y)/lo(a | y′),
//! ```
//!
//! and the verdict against `e^ε` is `violated` when a pair has
//! `lo(a | y) > e^ε·hi(a | y′)` (certainly), `private` when every pair has
//! `hi(a | y) ≤ e^ε·lo(a | y′)`, else `undecided`: the bounds are too wide
//! to tell. Likewise `δ(ε) = max_{x, x′} Σ_a (P(a | x) − e^ε P(a | x′))₊`
//! over neighbouring tables lies between the same sums of `lo − e^ε·hi′`
//! and `hi − e^ε·lo′`.

use crate::bandit::law::anytime_lazy_ucb::{pull_sequence_count, pull_sequences_of};
use crate::bandit::law::dp_ts::{Sandwich, SandwichLaw};
use crate::error::{Error, Result};
use crate::num::{Real, Q};
use crate::privacy::Verdict;
use rayon::prelude::*;
use std::cmp::Ordering;
use std::collections::HashMap;

/// The most laws (pull sequences × vectors of rewards seen) a check
/// computes: about a minute of one core at K = 2, T = 6.
pub const MAX_LAWS: u64 = 1 << 14;

/// The most neighbouring table pairs the δ bound visits.
pub const MAX_TABLE_PAIRS: u64 = 1 << 24;

/// One ordered pair of laws: the pulls, the rewards seen and the round whose
/// reward the neighbour replaces (0-based), the neighbour's rewards seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The pull sequence, arms 0-based.
    pub pulls: Vec<usize>,
    /// The rewards seen in `x`.
    pub seen: Vec<Q>,
    /// The rewards seen in the neighbour.
    pub neighbour: Vec<Q>,
}

/// The outcome of [`check`].
#[derive(Clone, Debug)]
pub struct BoundsCheck<R> {
    /// The verdict against `e^ε`.
    pub verdict: Verdict,
    /// `max lo/hi′`: a certified lower bound on the largest ratio, and its
    /// pair.
    pub ratio_lower: (R, Pair),
    /// `max hi/lo′`: a certified upper bound on the largest ratio, and its
    /// pair (`None` when some `lo′` is 0: no finite bound).
    pub ratio_upper: Option<(R, Pair)>,
    /// Bounds on δ(ε) over neighbouring tables, `None` past
    /// [`MAX_TABLE_PAIRS`].
    pub delta: Option<(R, R)>,
    /// The largest `hi − lo` of a law.
    pub width: R,
    /// The laws computed.
    pub laws: u64,
}

/// Which end of an enclosure a maximum is taken by: the lower ends for a
/// certified lower bound on a maximum, the upper ends for an upper bound.
#[derive(Clone, Copy)]
enum End {
    Lower,
    Upper,
}

/// The end `end` of `x`'s enclosure.
fn end<R: Real>(x: &R, end: End) -> Q {
    let (lo, hi) = x.enclosure().unwrap_or_default();
    match end {
        End::Lower => lo,
        End::Upper => hi,
    }
}

/// Of `a` and `b`, the one whose end `which` is larger.
fn larger<R: Real>(a: R, b: R, which: End) -> R {
    if end(&b, which) > end(&a, which) {
        b
    } else {
        a
    }
}

/// Replace `best` by `(x, at)` when `x`'s end `which` is larger.
fn keep_larger<R: Real, W>(best: &mut Option<(R, W)>, x: R, at: W, which: End) {
    if best
        .as_ref()
        .is_none_or(|(m, _)| end(&x, which) > end(m, which))
    {
        *best = Some((x, at));
    }
}

/// Every vector of `len` letters of `alphabet`, the first letter varying
/// slowest.
fn words(alphabet: &[Q], len: usize) -> Vec<Vec<Q>> {
    let mut out = vec![Vec::new()];
    for _ in 0..len {
        out = out
            .into_iter()
            .flat_map(|w: Vec<Q>| {
                alphabet.iter().map(move |v| {
                    let mut w = w.clone();
                    w.push(v.clone());
                    w
                })
            })
            .collect();
    }
    out
}

/// The certified check of `law` at ε on every table of `horizon` rounds
/// over `alphabet` (module documentation), the laws bounded at `ctx`. The
/// bounds hold for any rational rewards; the command line and the Python
/// package take them in `[0, 1]`, as every privacy check.
///
/// Errors: [`Error::TooLarge`] past [`MAX_LAWS`] laws unless `force`;
/// [`Error::Domain`] when a sign is undecided at this precision (the caller
/// retries at a higher one).
pub fn check<L: SandwichLaw, R: Real>(
    law: &L,
    alphabet: &[Q],
    horizon: usize,
    epsilon: &Q,
    force: bool,
    ctx: &R::Context,
) -> Result<BoundsCheck<R>> {
    let k = law.arms();
    let count = pull_sequence_count(k, k, horizon);
    let letters = alphabet.len() as u64;
    let laws = u32::try_from(horizon)
        .ok()
        .and_then(|h| letters.checked_pow(h))
        .zip(count)
        .and_then(|(w, c)| w.checked_mul(c));
    if horizon == 0 || alphabet.len() < 2 {
        return Err(Error::InvalidInput(
            "the check needs a horizon of at least 1 and an alphabet of two letters or more".into(),
        ));
    }
    let many = |n: Option<u64>| n.map_or("more than 2^64".to_string(), |n| n.to_string());
    match laws {
        Some(n) if n <= MAX_LAWS || force => {}
        Some(n) => {
            return Err(Error::TooLarge(format!(
                "the check bounds {n} laws ({} pull sequences × {letters}^{horizon} vectors of rewards seen), above {MAX_LAWS}: pass --force to run it",
                many(count)
            )))
        }
        None => {
            return Err(Error::TooLarge(format!(
                "the check would bound more than 2^64 laws ({} pull sequences × {letters}^{horizon} vectors of rewards seen), even with --force",
                many(count)
            )))
        }
    }
    // Each law: its pulls and rewards seen, and two enclosures.
    crate::size::table(
        "the laws' bounds, (T + 16) words each",
        laws.map(|n| u128::from(n) * (horizon as u128 + 16)),
        8,
    )?;
    let sequences = pull_sequences_of(k, k, horizon);
    let seen = words(alphabet, horizon);
    let sandwich = Sandwich::<L, R>::new(law, ctx.clone())?;
    let jobs: Vec<(usize, usize)> = (0..sequences.len())
        .flat_map(|a| (0..seen.len()).map(move |y| (a, y)))
        .collect();
    let bounds: Vec<(R, R)> = jobs
        .par_iter()
        .map(|&(a, y)| sandwich.bounds(&sequences[a], &seen[y]))
        .collect::<Result<_>>()?;
    let at = |a: usize, y: usize| &bounds[a * seen.len() + y];
    let index: HashMap<&[Q], usize> = seen
        .iter()
        .enumerate()
        .map(|(i, w)| (w.as_slice(), i))
        .collect();
    let bound = R::from_rational(epsilon, ctx).exp()?;
    let zero = R::from_int(0, ctx);
    let pair = |a: usize, y: usize, z: usize| Pair {
        pulls: sequences[a].clone(),
        seen: seen[y].clone(),
        neighbour: seen[z].clone(),
    };
    let mut lower: Option<(R, (usize, usize, usize))> = None;
    let mut upper: Option<(R, (usize, usize, usize))> = None;
    let mut unbounded = false;
    let (mut violated, mut private) = (false, true);
    let mut width = zero.clone();
    for a in 0..sequences.len() {
        for (y, word) in seen.iter().enumerate() {
            let (lo, hi) = at(a, y);
            width = larger(width, hi.clone() - lo, End::Upper);
            for t in 0..horizon {
                for v in alphabet.iter().filter(|v| **v != word[t]) {
                    let mut other = word.clone();
                    other[t] = v.clone();
                    let z = index[other.as_slice()];
                    let (lo2, hi2) = at(a, z);
                    if (lo.clone() - bound.clone() * hi2).cmp_certain(&zero)
                        == Some(Ordering::Greater)
                    {
                        violated = true;
                    }
                    if !matches!(
                        (hi.clone() - bound.clone() * lo2).cmp_certain(&zero),
                        Some(Ordering::Less | Ordering::Equal)
                    ) {
                        private = false;
                    }
                    if hi2.cmp_certain(&zero) == Some(Ordering::Greater) {
                        keep_larger(&mut lower, lo.clone() / hi2, (a, y, z), End::Lower);
                    }
                    if lo2.cmp_certain(&zero) == Some(Ordering::Greater) {
                        keep_larger(&mut upper, hi.clone() / lo2, (a, y, z), End::Upper);
                    } else if hi.cmp_certain(&zero) != Some(Ordering::Equal) {
                        unbounded = true;
                    }
                }
            }
        }
    }
    let verdict = if violated {
        Verdict::Violated
    } else if private {
        Verdict::Private
    } else {
        Verdict::Undecided
    };
    let ratio_lower = lower
        .ok_or_else(|| Error::InvalidInput("every law is certainly 0: no ratio to bound".into()))?;
    let delta = delta_bounds(
        k,
        alphabet,
        horizon,
        &sequences,
        |a, y: &[Q]| at(a, index[y]),
        &bound,
        ctx,
    )?;
    Ok(BoundsCheck {
        verdict,
        ratio_lower: (
            ratio_lower.0,
            pair(ratio_lower.1 .0, ratio_lower.1 .1, ratio_lower.1 .2),
        ),
        ratio_upper: if unbounded {
            None
        } else {
            upper.map(|(r, (a, y, z))| (r, pair(a, y, z)))
        },
        delta,
        width,
        laws: bounds.len() as u64,
    })
}

/// Bounds on `δ(ε) = max_{x, x′} Σ_a (P(a | x) − e^ε P(a | x′))₊` over the
/// tables of `horizon` rows of `k` letters and their neighbours (one row
/// replaced), the laws' bounds read by `at(a, rewards seen)`; `None` past
/// [`MAX_TABLE_PAIRS`].
fn delta_bounds<'b, R: Real>(
    k: usize,
    alphabet: &[Q],
    horizon: usize,
    sequences: &[Vec<usize>],
    at: impl Fn(usize, &[Q]) -> &'b (R, R) + Sync,
    bound: &R,
    ctx: &R::Context,
) -> Result<Option<(R, R)>> {
    let rows = words(alphabet, k);
    let tables = u32::try_from(horizon)
        .ok()
        .and_then(|h| (rows.len() as u64).checked_pow(h));
    let pairs = tables
        .and_then(|n| n.checked_mul(horizon as u64 * (rows.len() as u64 - 1)))
        .and_then(|n| n.checked_mul(sequences.len() as u64));
    if pairs.is_none_or(|n| n > MAX_TABLE_PAIRS) {
        return Ok(None);
    }
    let zero = R::from_int(0, ctx);
    let positive = |x: R| {
        if x.cmp_certain(&zero) == Some(Ordering::Less) {
            zero.clone()
        } else {
            x
        }
    };
    let table_count = tables.expect("counted") as usize;
    let table = |mut i: usize| -> Vec<usize> {
        (0..horizon)
            .map(|_| {
                let r = i % rows.len();
                i /= rows.len();
                r
            })
            .collect()
    };
    let seen = |rows_of: &[usize], pulls: &[usize]| -> Vec<Q> {
        pulls
            .iter()
            .enumerate()
            .map(|(t, &a)| rows[rows_of[t]][a].clone())
            .collect()
    };
    let best = (0..table_count)
        .into_par_iter()
        .map(|i| {
            let x = table(i);
            let mut best: Option<(R, R)> = None;
            for t in 0..horizon {
                for r in (0..rows.len()).filter(|&r| r != x[t]) {
                    let mut x2 = x.clone();
                    x2[t] = r;
                    let (mut lo, mut hi) = (zero.clone(), zero.clone());
                    for (a, pulls) in sequences.iter().enumerate() {
                        let (l1, h1) = at(a, &seen(&x, pulls));
                        let (l2, h2) = at(a, &seen(&x2, pulls));
                        lo = lo + positive(l1.clone() - bound.clone() * h2);
                        hi = hi + positive(h1.clone() - bound.clone() * l2);
                    }
                    best = Some(match best {
                        None => (lo, hi),
                        Some((bl, bh)) => (larger(bl, lo, End::Lower), larger(bh, hi, End::Upper)),
                    });
                }
            }
            best
        })
        .reduce(
            || None,
            |p, q| match (p, q) {
                (None, x) | (x, None) => x,
                (Some((l1, h1)), Some((l2, h2))) => {
                    Some((larger(l1, l2, End::Lower), larger(h1, h2, End::Upper)))
                }
            },
        );
    Ok(best)
}
