//! The exhaustive privacy check of a K = 2 bandit algorithm whose pull law is
//! known in closed form ([`PullLaw`]: Anytime-Lazy-UCB, [`super::law`]; DP-SE,
//! [`super::dp_se_law`]) on every pair of neighbouring reward tables over a
//! finite alphabet (issue #13).
//!
//! Reward tables are `x ∈ (V²)^T` (round `t`, arm `j`); a neighbour `x'`
//! replaces one round's reward vector by another. The check computes
//!
//! ```text
//! max_{x, x', a : P(a|x) > 0}  P(a|x) / P(a|x')
//! ```
//!
//! with the certified laws of a [`PullLaw`], and a witness.
//!
//! # Why it suffices to enumerate what the learner sees
//!
//! The learner sees the pulled arm's reward only, so `P(a|x)` depends on `x`
//! only through `y = (x_t(a_t))_t` ([`super::law::probability`]). For a pair
//! `(x, x')` differing in round `r` and a pull sequence `a`, the two seen
//! sequences `y, y'` differ at most in position `r`, and every triple
//! `(a, y, y')` with `y, y'` equal off `r` is attained (take `x_t(a_t) = y_t`,
//! the other arm's rewards arbitrary, and change the pulled arm's reward in
//! round `r`); a pair that changes only the other arm's reward has ratio 1.
//! So the maximum over the `|V|^{2T} · T · (|V|² − 1)` ordered pairs of
//! tables equals `max(1, max over a, y, r, y'_r ≠ y_r)`, which needs the
//! `n_a · |V|^T` laws `P(a | y)` (`n_a` candidate pull sequences:
//! `2^{T−2}` for Anytime-Lazy-UCB) and `n_a · |V|^T · T · (|V| − 1)`
//! quotients.
//!
//! # Cost
//!
//! The laws depend on the seen rewards only through the epoch sums, so the
//! `n_a · |V|^T` pairs (pull sequence, seen rewards) collapse to far fewer
//! distinct [`PullLaw::Event`]s, each computed once (in parallel, rayon);
//! the quotients still number `n_a · |V|^T · T(|V| − 1)`. For
//! Anytime-Lazy-UCB each law is a message passing over at most
//! `2 + 2⌊log₂ T⌋` noises.

pub use super::pull_law::PullLaw;
use crate::error::{Error, Result};
use crate::num::{Certified, Precision, Real, Q};
use rayon::prelude::*;
use std::collections::HashMap;

/// The default limit on the laws one check computes (without `force`).
pub const MAX_LAWS: u64 = 1 << 22;

/// A pair of neighbouring reward tables and a pull sequence attaining the
/// maximum ratio.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// `x`: `T` rows `[arm 0's reward, arm 1's reward]` (the arm not pulled
    /// gets the alphabet's first value).
    pub rewards: Vec<Vec<Q>>,
    /// `x'`: `x` with round `round`'s vector replaced.
    pub neighbour: Vec<Vec<Q>>,
    /// The pulls, 0-based.
    pub pulls: Vec<usize>,
    /// The round (1-based) where `x` and `x'` differ.
    pub round: usize,
    /// The enclosure `[lo, hi]` of `P(pulls|x)/P(pulls|x')`, `None` if infinite.
    pub ratio: Option<(Q, Q)>,
}

/// The result of a check at one precision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// `[witness's lower end, max of upper ends]`; `None` when infinite.
    pub max_ratio: Option<(Q, Q)>,
    /// Where the largest lower end is attained.
    pub witness: Witness,
    /// The ordered pairs of reward tables covered, `|V|^{2T} · T · (|V|² − 1)`.
    pub pairs: u64,
}

/// The number of laws [`check`] computes: `n_a · |V|^T`, or `None` when
/// it does not fit 64 bits.
pub fn laws_needed(law: &impl PullLaw, horizon: usize, alphabet: usize) -> Option<u64> {
    let seqs = law.sequence_count(horizon)?;
    (0..horizon).try_fold(seqs, |acc, _| acc.checked_mul(alphabet as u64))
}

/// The maximum privacy-loss ratio of a K = 2 bandit algorithm (`params`)
/// over all neighbouring reward tables of `horizon` rounds on `alphabet`, in
/// the backend `R` at `ctx` (module documentation).
///
/// Errors: [`Error::TooLarge`] above [`MAX_LAWS`] laws unless `force`;
/// [`Error::Domain`] when a cut or a probability cannot be resolved at this
/// precision (the caller raises it).
pub fn check<R: Real>(
    params: &impl PullLaw,
    horizon: usize,
    alphabet: &[Q],
    force: bool,
    ctx: &R::Context,
) -> Result<Outcome> {
    params.validate()?;
    let v = alphabet.len();
    let laws = laws_needed(params, horizon, v).filter(|&n| force || n <= MAX_LAWS);
    let laws = laws.ok_or_else(|| {
        let seqs = params
            .sequence_count(horizon)
            .map_or_else(|| "over 2^64".to_string(), |n| n.to_string());
        Error::TooLarge(format!(
            "horizon {horizon} on {v} reward values needs {seqs}·{v}^{horizon} pull-sequence laws, over the limit of {MAX_LAWS}; --force runs it"
        ))
    })?;
    let sequences = params.sequences(horizon);
    let seen_count = (laws / sequences.len() as u64) as usize;
    let seen = |index: usize| -> Vec<usize> {
        let mut digits = vec![0; horizon];
        let mut rest = index;
        for d in digits.iter_mut().rev() {
            *d = rest % v;
            rest /= v;
        }
        digits
    };
    // Each distinct event once (many seen sequences share one: only epoch
    // sums matter, and the last round's reward is never read).
    let events: Vec<Option<_>> = (0..laws as usize)
        .into_par_iter()
        .map(|i| {
            let (a, y) = (i / seen_count, i % seen_count);
            let y: Vec<Q> = seen(y).into_iter().map(|d| alphabet[d].clone()).collect();
            params.event(&sequences[a], &y)
        })
        .collect::<Result<_>>()?;
    let mut distinct: HashMap<_, usize> = HashMap::new();
    let mut order = Vec::new();
    for e in events.iter().flatten() {
        distinct.entry(e).or_insert_with(|| {
            order.push(e);
            order.len() - 1
        });
    }
    let values: Vec<R> = order
        .par_iter()
        .map(|e| params.probability::<R>(e, ctx))
        .collect::<Result<_>>()?;
    let table: Vec<R> = events
        .iter()
        .map(|e| match e {
            Some(e) => values[distinct[e]].clone(),
            None => R::from_int(0, ctx),
        })
        .collect();
    let stride: Vec<usize> = (0..horizon)
        .map(|t| v.pow((horizon - 1 - t) as u32))
        .collect();
    let best = (0..laws as usize)
        .into_par_iter()
        .map(|i| -> Result<Option<Best>> {
            let num = &table[i];
            if num.is_zero_certain() {
                return Ok(None);
            }
            let (a, y) = (i / seen_count, i % seen_count);
            let digits = seen(y);
            let mut best: Option<Best> = None;
            for r in 0..horizon {
                for d in (0..v).filter(|&d| d != digits[r]) {
                    let y2 = y + d * stride[r] - digits[r] * stride[r];
                    let den = &table[a * seen_count + y2];
                    let ratio = if den.is_zero_certain() {
                        None
                    } else {
                        match den.enclosure() {
                            Some((lo, _)) if lo > Q::from_integer(0.into()) => {
                                (num.clone() / den).enclosure()
                            }
                            _ => {
                                return Err(Error::Domain(format!(
                                    "cannot separate P(a|x') from 0 at this precision ({den:?})"
                                )))
                            }
                        }
                    };
                    let (lo, hi) = match ratio {
                        Some((lo, hi)) => (Some(lo), Some(hi)),
                        None => (None, None),
                    };
                    best = Some(better(best, (lo, (a, y, r, d), hi)));
                }
            }
            Ok(best)
        })
        .try_reduce(|| None, |x, y| Ok(merge_best(x, y)))?;
    let n = (v * v) as u64;
    let pairs = (0..horizon).fold((horizon as u64) * (n - 1), |acc, _| acc.saturating_mul(n));
    let (lo, (a, y, r, d), hi) = best.ok_or_else(|| {
        Error::InvalidInput("no pair of neighbouring reward tables to compare".into())
    })?;
    let digits = seen(y);
    let first = &alphabet[0];
    let row = |t: usize, value: &Q| -> Vec<Q> {
        let mut row = vec![first.clone(), first.clone()];
        row[sequences[a][t]] = value.clone();
        row
    };
    let rewards: Vec<Vec<Q>> = (0..horizon).map(|t| row(t, &alphabet[digits[t]])).collect();
    let mut neighbour = rewards.clone();
    neighbour[r] = row(r, &alphabet[d]);
    let witness_ratio = match lo {
        Some(_) => (table[a * seen_count + y].clone()
            / &table[a * seen_count + y + d * stride[r] - digits[r] * stride[r]])
            .enclosure(),
        None => None,
    };
    Ok(Outcome {
        max_ratio: lo.zip(hi),
        witness: Witness {
            rewards,
            neighbour,
            pulls: sequences[a].clone(),
            round: r + 1,
            ratio: witness_ratio,
        },
        pairs,
    })
}

/// The largest lower end, where it is attained (pull sequence, seen
/// sequence, round, replacing value), the largest upper end; `None` = `+∞`.
type Best = (Option<Q>, (usize, usize, usize, usize), Option<Q>);

/// The first and the largest precision [`check_certified`] tries.
pub const PRECISIONS: (u32, u32) = (128, 4096);

/// [`check`] in the certified backend at 128 bits, doubling the precision
/// (up to 4096) while a cut point or probability is unresolved
/// ([`Error::Domain`]) or `accept` (given the outcome and its precision)
/// says no; the last outcome and its precision.
pub fn check_certified(
    params: &impl PullLaw,
    horizon: usize,
    alphabet: &[Q],
    force: bool,
    mut accept: impl FnMut(&Outcome, Precision) -> Result<bool>,
) -> Result<(Outcome, Precision)> {
    let mut bits = PRECISIONS.0;
    loop {
        let last = bits >= PRECISIONS.1;
        match check::<Certified>(params, horizon, alphabet, force, &Precision(bits)) {
            Err(Error::Domain(_)) if !last => {}
            Err(e) => return Err(e),
            Ok(outcome) => {
                if last || accept(&outcome, Precision(bits))? {
                    return Ok((outcome, Precision(bits)));
                }
            }
        }
        bits *= 2;
    }
}

/// `None` stands for `+∞`.
fn cmp_extended(a: &Option<Q>, b: &Option<Q>) -> std::cmp::Ordering {
    match (a, b) {
        (None, None) => std::cmp::Ordering::Equal,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (Some(_), None) => std::cmp::Ordering::Less,
        (Some(x), Some(y)) => x.cmp(y),
    }
}

/// Keep the larger lower end (ties: the earlier position, so the result does
/// not depend on the threads) and the larger upper end.
fn better(old: Option<Best>, new: Best) -> Best {
    match old {
        None => new,
        Some(old) => {
            let hi = if cmp_extended(&old.2, &new.2).is_ge() {
                old.2.clone()
            } else {
                new.2.clone()
            };
            let keep_old = match cmp_extended(&old.0, &new.0) {
                std::cmp::Ordering::Equal => old.1 <= new.1,
                o => o.is_gt(),
            };
            let (lo, at) = if keep_old {
                (old.0, old.1)
            } else {
                (new.0, new.1)
            };
            (lo, at, hi)
        }
    }
}

fn merge_best(x: Option<Best>, y: Option<Best>) -> Option<Best> {
    match (x, y) {
        (None, y) => y,
        (x, None) => x,
        (x, Some(y)) => Some(better(x, y)),
    }
}
