//! The maximum privacy-loss ratio by brute force, without the product
//! identity: for every loss sequence `x`, every neighbour `x'` and every action
//! sequence `a ∈ [K]^t`, the ratio of [`SequenceLaw::probability`]. A test
//! oracle for [`super::product`] on tiny instances (its cost is
//! `N^t · t · (N − 1) · K^t` sequence probabilities).

use super::search::{to_ratio, Enclosed};
use super::{Attempt, Outcome, Problem, Ratio, Space, Witness};
use crate::algorithm::{OnlineAlgorithm, SequenceLaw};
use crate::error::Result;
use std::cmp::Ordering;

/// The best triple so far, ordered by lower end, ties to the smallest
/// `(x, x', a)` indices.
struct Best<R> {
    /// `None`: infinite.
    value: Option<R>,
    key: (u64, u64, u64),
    round: usize,
}

/// The maximum of `P(a|x)/P(a|x')` over every ordered neighbour pair and every
/// action sequence, in backend `R` (no size limit: keep it to tiny instances).
pub fn brute_force<R: Enclosed, A: OnlineAlgorithm>(
    algorithm: &A,
    problem: &Problem,
    ctx: &R::Context,
) -> Result<Attempt> {
    let space = Space::new(algorithm.actions(), problem)?;
    let (t, n, k) = (space.horizon, space.vector_count(), space.actions);
    let laws = (0..space.sequences())
        .map(|x| SequenceLaw::<R>::of(algorithm, &space.sequence(x), ctx))
        .collect::<Result<Vec<_>>>()?;
    let action_sequences: Vec<Vec<usize>> = (0..k.pow(t as u32))
        .map(|i| {
            (0..t)
                .map(|s| (i / k.pow((t - 1 - s) as u32)) % k)
                .collect()
        })
        .collect();
    let mut best: Option<Best<R>> = None;
    let mut hi: Option<Option<R>> = None;
    let mut pairs = 0;
    for x in 0..space.sequences() {
        for s in 0..t {
            let old = space.digit(x, s);
            let place = space.powers[t - 1 - s];
            for v in (0..n).filter(|&v| v != old) {
                let x2 = x - old * place + v * place;
                pairs += 1;
                for (ai, a) in action_sequences.iter().enumerate() {
                    let p = laws[x as usize].probability(a, ctx);
                    if p.certainly_zero() {
                        continue;
                    }
                    let p2 = laws[x2 as usize].probability(a, ctx);
                    let value = if p2.certainly_zero() && p.certainly_positive() {
                        None
                    } else if p2.certainly_positive() {
                        Some(p / &p2)
                    } else {
                        return Ok(Attempt::Undetermined(format!(
                            "P(a|x') = {p2:?} cannot be separated from 0"
                        )));
                    };
                    let key = (x, x2, ai as u64);
                    let better = match &best {
                        None => true,
                        Some(b) => {
                            let order = match (&value, &b.value) {
                                (None, None) => Ordering::Equal,
                                (None, Some(_)) => Ordering::Greater,
                                (Some(_), None) => Ordering::Less,
                                (Some(r), Some(b)) => r.cmp_lo(b),
                            };
                            order == Ordering::Greater || (order == Ordering::Equal && key < b.key)
                        }
                    };
                    hi = match (hi, &value) {
                        (Some(None), _) | (_, None) => Some(None),
                        (Some(Some(h)), Some(r)) => {
                            Some(Some(if r.cmp_hi(&h) == Ordering::Greater {
                                r.clone()
                            } else {
                                h
                            }))
                        }
                        (None, Some(r)) => Some(Some(r.clone())),
                    };
                    if better {
                        best = Some(Best {
                            value,
                            key,
                            round: s,
                        });
                    }
                }
            }
        }
    }
    let Some(best) = best else {
        return Ok(Attempt::Undetermined(
            "no action sequence has positive probability".into(),
        ));
    };
    let (x, x2, ai) = best.key;
    let max_ratio = match (&best.value, &hi) {
        (Some(lo), Some(Some(hi))) => to_ratio(lo, hi),
        _ => Ratio::Infinite,
    };
    Ok(Attempt::Done(Box::new(Outcome {
        witness: Witness {
            losses: space.sequence(x),
            neighbour: space.sequence(x2),
            actions: action_sequences[ai as usize].clone(),
            round: best.round + 1,
            ratio: match &best.value {
                Some(r) => to_ratio(r, r),
                None => Ratio::Infinite,
            },
            sequence: x,
            neighbour_sequence: x2,
        },
        max_ratio,
        pairs,
        units: Vec::new(),
    })))
}
