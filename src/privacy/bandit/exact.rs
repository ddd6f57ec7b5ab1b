//! The exhaustive privacy check of a K-armed bandit algorithm whose pull law
//! is known in closed form ([`PullLaw`]: Anytime-Lazy-UCB,
//! [`crate::bandit::law::anytime_lazy_ucb`] at K = 2 and
//! [`crate::bandit::law::anytime_lazy_ucb_arms`] at any K; DP-SE,
//! [`crate::bandit::law::dp_se`]) on every pair of neighbouring reward tables
//! over a finite alphabet.
//!
//! Reward tables are `x ∈ (V^K)^T` (round `t`, arm `j`); a neighbour `x'`
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
//! only through `y = (x_t(a_t))_t` ([`crate::bandit::law::anytime_lazy_ucb::probability`]). For a pair
//! `(x, x')` differing in round `r` and a pull sequence `a`, the two seen
//! sequences `y, y'` differ at most in position `r`, and every triple
//! `(a, y, y')` with `y, y'` equal off `r` is attained (take `x_t(a_t) = y_t`,
//! the other arms' rewards arbitrary, and change the pulled arm's reward in
//! round `r`); a pair that changes only the other arms' rewards has ratio 1.
//! So the maximum over the `|V|^{KT} · T · (|V|^K − 1)` ordered pairs of
//! tables equals `max(1, max over a, y, r, y'_r ≠ y_r)`, which needs the
//! `n_a · |V|^T` laws `P(a | y)` (`n_a` candidate pull sequences:
//! `K^{T−K}` for Anytime-Lazy-UCB) and `n_a · |V|^T · T · (|V| − 1)`
//! quotients.
//!
//! # Cost
//!
//! The laws depend on the seen rewards only through the epoch sums, so the
//! `n_a · |V|^T` pairs (pull sequence, seen rewards) collapse to far fewer
//! distinct [`PullLaw::Event`]s, each computed once (in parallel, rayon);
//! the quotients still number `n_a · |V|^T · T(|V| − 1)`. For
//! Anytime-Lazy-UCB at K = 2 each law is a message passing over at most
//! `2 + 2⌊log₂ T⌋` noises; at K ≥ 3 a Fourier–Motzkin integration over the
//! noises ([`crate::bandit::law::anytime_lazy_ucb_arms`]).

use crate::bandit::law::{PullLaw, MAX_WORK, WORK_UNIT};
use crate::error::{Error, Result};
use crate::num::{Certified, Precision, Real, Q};
use crate::progress::{with_progress, Progress, Task};
use rayon::prelude::*;
use std::collections::HashMap;

/// A pair of neighbouring reward tables and a pull sequence attaining the
/// maximum ratio.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// `x`: `T` rows of the K arms' rewards (an arm not pulled gets the
    /// alphabet's first value).
    pub rewards: Vec<Vec<Q>>,
    /// `x'`: `x` with the cell that round `round`'s pull receives replaced
    /// ([`PullLaw::cells`]: read by round, in row `round`).
    pub neighbour: Vec<Vec<Q>>,
    /// The pulls, 0-based.
    pub pulls: Vec<usize>,
    /// The round (1-based) whose reward seen differs between `x` and `x'`.
    pub round: usize,
    /// The enclosure `[lo, hi]` of `P(pulls|x)/P(pulls|x')`, `None` if infinite.
    pub ratio: Option<(Q, Q)>,
    /// Enclosures of the two probabilities `P(pulls|x)` and `P(pulls|x')`
    /// whose quotient is `ratio` (`None` for the empty witness of
    /// [`Outcome::empty`]).
    pub probabilities: Option<[(Q, Q); 2]>,
}

/// The result of a check at one precision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// `[witness's lower end, max of upper ends]`; `None` when infinite.
    pub max_ratio: Option<(Q, Q)>,
    /// Where the largest lower end is attained.
    pub witness: Witness,
    /// The ordered pairs of reward tables the whole check covers
    /// ([`table_pairs`]; also in a part: it is the problem's).
    pub pairs: u64,
    /// Where the largest lower end is attained ([`Position`]).
    pub position: Position,
    /// The quotients `P(a|y)/P(a|y')` compared: `|laws| · T · (|V| − 1)` for
    /// the numerator laws of the part checked.
    pub quotients: u64,
    /// Per unit of the part's numerator laws ([`units_of`]), in order, its
    /// maximum as `max_ratio` is the part's (`[0, 0]` for a unit without a
    /// positive numerator law): the part's maximum is their fold.
    pub units: Vec<Option<(Q, Q)>>,
}

/// The most units a part splits into (an exact check's numerator laws, a
/// statistical audit's tables): a merge recomputes a sample of them
/// ([`crate::report::merge::Units`]).
pub const MAX_UNITS: u64 = 64;

/// The units of the range `part` (numerator laws, tables): `U = min(`[`MAX_UNITS`]`, |part|)`
/// contiguous ranges tiling it, unit `j` holding `start + ⌊jL/U⌋ ≤ index <
/// start + ⌊(j+1)L/U⌋` (`L = |part|`).
pub fn units_of(part: &std::ops::Range<u64>) -> Vec<std::ops::Range<u64>> {
    let length = part.end.saturating_sub(part.start);
    let count = length.min(MAX_UNITS);
    let at = |j: u64| part.start + (u128::from(length) * u128::from(j) / u128::from(count)) as u64;
    (0..count).map(|j| at(j)..at(j + 1)).collect()
}

/// The maximum of a unit or a part as [`Outcome::max_ratio`] writes it:
/// `[0, 0]` when no numerator law is positive, `None` when infinite.
fn unit_max(best: &Option<Best>) -> Option<(Q, Q)> {
    match best {
        None => {
            let zero = Q::from_integer(0.into());
            Some((zero.clone(), zero))
        }
        Some((lo, _, hi)) => lo.clone().zip(hi.clone()),
    }
}

/// Where a ratio is attained: the numerator law's index `a·|V|^T + y` (pull
/// sequence `a` of [`PullLaw::sequences`], seen sequence `y` written in base
/// `|V|`, first round most significant), the round `r` replaced (0-based) and
/// the index `d` of the value replacing `y_r`. The check breaks ties by the
/// smallest position, so parts of one check merge into the whole one.
pub type Position = (u64, usize, usize);

/// The number of laws [`check`] computes: `n_a · |V|^T`, or `None` when
/// it does not fit 64 bits.
pub fn laws_needed(law: &impl PullLaw, horizon: usize, alphabet: usize) -> Option<u64> {
    let seqs = law.sequence_count(horizon)?;
    (0..horizon).try_fold(seqs, |acc, _| acc.checked_mul(alphabet as u64))
}

/// The maximum privacy-loss ratio of a bandit algorithm (`params`)
/// over all neighbouring reward tables of `horizon` rounds on `alphabet`, in
/// the backend `R` at `ctx` (module documentation).
///
/// Errors: [`Error::TooLarge`] above [`PullLaw::max_laws`] laws unless `force`;
/// [`Error::Domain`] when a cut or a probability cannot be resolved at this
/// precision (the caller raises it).
pub fn check<R: Real>(
    params: &impl PullLaw,
    horizon: usize,
    alphabet: &[Q],
    force: bool,
    ctx: &R::Context,
) -> Result<Outcome> {
    check_part::<R>(params, horizon, alphabet, None, force, ctx)
}

/// [`check`] restricted to the numerator laws of index in `part` (`None`:
/// all of them, `0..`[`laws_needed`]), each compared with all its
/// neighbours: the maximum over a partition of the laws is the maximum of
/// the parts' maxima ([`merge`]). Only the laws of the pull sequences the
/// part touches are computed; [`PullLaw::max_laws`] bounds them unless `force`.
pub fn check_part<R: Real>(
    params: &impl PullLaw,
    horizon: usize,
    alphabet: &[Q],
    part: Option<std::ops::Range<u64>>,
    force: bool,
    ctx: &R::Context,
) -> Result<Outcome> {
    let uncounted = Progress::default();
    counted_part::<R, _>(params, horizon, alphabet, part, force, ctx, &uncounted)
}

/// [`check_part`], its distinct laws counted on `progress` as they are
/// computed.
fn counted_part<R: Real, L: PullLaw>(
    params: &L,
    horizon: usize,
    alphabet: &[Q],
    part: Option<std::ops::Range<u64>>,
    force: bool,
    ctx: &R::Context,
    progress: &Progress,
) -> Result<Outcome> {
    params.validate()?;
    let v = alphabet.len();
    let limit = params.max_laws();
    let too_many = |what: String| {
        Error::TooLarge(format!(
            "horizon {horizon} on {v} reward values needs {what} pull-sequence laws, over {}'s limit of {limit}; --force runs it, --shard I/N splits it (a shard computes the laws of the pull sequences it touches)",
            params.name()
        ))
    };
    let all = laws_needed(params, horizon, v).ok_or_else(|| {
        too_many(format!(
            "{}·{v}^{horizon}",
            params
                .sequence_count(horizon)
                .map_or_else(|| "over 2^64".to_string(), |n| n.to_string())
        ))
    })?;
    let part = part.unwrap_or(0..all);
    if part.is_empty() || part.end > all {
        return Err(Error::InvalidInput(format!(
            "the laws {} to {} (from 0) to check are not a non-empty part of the {all} laws",
            part.start,
            part.end.saturating_sub(1)
        )));
    }
    let sequences = params.sequences(horizon);
    let seen_count = all / sequences.len() as u64;
    // The laws of the pull sequences the part touches: numerators and their
    // neighbours (which share the pull sequence).
    let base = part.start / seen_count * seen_count;
    let laws = ((part.end - 1) / seen_count + 1) * seen_count - base;
    if !force && laws > limit {
        return Err(too_many(laws.to_string()));
    }
    let steps = part_steps(laws, part.end - part.start, horizon, v);
    let what = format!(
        "{}'s check on T = {horizon} rounds of {v} reward values: its estimated {WORK_UNIT}",
        params.name()
    );
    crate::size::work(&what, steps, MAX_WORK, force)?;
    let law_work = params.law_work(horizon);
    let (base, laws, seen_count) = (base as usize, laws as usize, seen_count as usize);
    let seen = |index: usize| digits(index, horizon, v);
    // Each distinct event once (many seen sequences share one: only epoch
    // sums matter, and the last round's reward is never read), built a
    // chunk at a time: a law keeps the index of its event, and the work of
    // the distinct events is checked as they are found, before any is
    // integrated.
    let mut index: Vec<Option<u32>> =
        crate::size::vec_with_capacity("the laws' event indices", Some(laws as u128))?;
    let mut distinct: HashMap<_, u32> = HashMap::new();
    let event_bytes = std::mem::size_of::<L::Event>() + std::mem::size_of::<R>() + 64 * horizon;
    for chunk in (base..base + laws).step_by(EVENT_CHUNK) {
        let events: Vec<Option<L::Event>> = (chunk..(chunk + EVENT_CHUNK).min(base + laws))
            .into_par_iter()
            .map(|i| {
                let (a, y) = (i / seen_count, i % seen_count);
                let y: Vec<Q> = seen(y).into_iter().map(|d| alphabet[d].clone()).collect();
                params.event(&sequences[a], &y)
            })
            .collect::<Result<_>>()?;
        for e in events {
            let next = distinct.len() as u32;
            index.push(e.map(|e| *distinct.entry(e).or_insert(next)));
        }
        let found = distinct.len() as u128;
        crate::size::table(
            "the distinct laws' events and values, estimated bytes each",
            Some(found),
            event_bytes,
        )?;
        let integrations = law_work.and_then(|w| w.checked_mul(found));
        let total = steps.zip(integrations).and_then(|(s, i)| s.checked_add(i));
        crate::size::work(
            &format!("{what}, with {found} distinct laws found so far"),
            total,
            MAX_WORK,
            force,
        )?;
    }
    let mut order: Vec<(L::Event, u32)> = distinct.into_iter().collect();
    order.sort_unstable_by_key(|(_, i)| *i);
    progress.start(order.len() as u64);
    let values: Vec<R> = order
        .par_iter()
        .map(|(e, _)| {
            let p = params.probability::<R>(e, ctx);
            progress.add(1);
            p
        })
        .collect::<Result<_>>()?;
    drop(order);
    let zero = R::from_int(0, ctx);
    let law_at = |i: usize| index[i].map_or(&zero, |j| &values[j as usize]);
    let stride: Vec<usize> = (0..horizon)
        .map(|t| v.pow((horizon - 1 - t) as u32))
        .collect();
    let unit_best = |unit: std::ops::Range<u64>| {
        (unit.start as usize..unit.end as usize)
            .into_par_iter()
            .map(|i| -> Result<Option<Best>> {
                progress.add(1);
                let num = law_at(i - base);
                if num.is_zero_certain() {
                    return Ok(None);
                }
                let y = i % seen_count;
                let digits = seen(y);
                let mut best: Option<Best> = None;
                for r in 0..horizon {
                    for d in (0..v).filter(|&d| d != digits[r]) {
                        let den = law_at(i + d * stride[r] - digits[r] * stride[r] - base);
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
                        best = Some(better(best, (lo, (i as u64, r, d), hi)));
                    }
                }
                Ok(best)
            })
            .try_reduce(|| None, |x, y| Ok(merge_best(x, y)))
    };
    progress.start(part.end - part.start);
    let bests = units_of(&part)
        .into_iter()
        .map(unit_best)
        .collect::<Result<Vec<Option<Best>>>>()?;
    let units = bests.iter().map(unit_max).collect();
    let best = bests.into_iter().fold(None, merge_best);
    let quotients = (part.end - part.start)
        .saturating_mul(horizon as u64)
        .saturating_mul(v as u64 - 1);
    let pairs = table_pairs(
        horizon,
        v,
        params.arms(),
        params.neighbours_replace_an_entry(),
    );
    let Some((lo, position, hi)) = best else {
        if part == (0..all) {
            return Err(Error::InvalidInput(
                "no pair of neighbouring reward tables to compare".into(),
            ));
        }
        return Ok(Outcome::empty(part.start, pairs, quotients, units));
    };
    let (witness, _) = witness_at::<R>(params, horizon, alphabet, position, ctx)?;
    Ok(Outcome {
        max_ratio: lo.zip(hi),
        witness,
        pairs,
        position,
        quotients,
        units,
    })
}

impl Outcome {
    /// The outcome of a part whose numerator laws are all 0 (their pulls
    /// are impossible on their rewards), starting at law `first`: no
    /// quotient to compare, the maximum and the witness's ratio written
    /// `0`, the witness empty with round 0 ([`Outcome::is_empty`]); `units`
    /// the units' maxima (each `[0, 0]`).
    pub fn empty(first: u64, pairs: u64, quotients: u64, units: Vec<Option<(Q, Q)>>) -> Outcome {
        let zero = Q::from_integer(0.into());
        Outcome {
            max_ratio: Some((zero.clone(), zero.clone())),
            witness: Witness {
                rewards: Vec::new(),
                neighbour: Vec::new(),
                pulls: Vec::new(),
                round: 0,
                ratio: Some((zero.clone(), zero)),
                probabilities: None,
            },
            pairs,
            position: (first, 0, 0),
            quotients,
            units,
        }
    }

    /// Whether this is the outcome of a part without a positive numerator
    /// law ([`Outcome::empty`]).
    pub fn is_empty(&self) -> bool {
        self.witness.round == 0
    }
}

/// The laws whose events one pass builds at a time: the work and the memory
/// of the distinct events are checked after each chunk.
const EVENT_CHUNK: usize = 1 << 16;

/// The steps of a part other than its integrations, one [`WORK_UNIT`] per
/// [`STEPS_PER_UNIT`]: the `laws` events built (a seen sequence decoded, its
/// event formed and hashed) and the `numerators · T · (|V| − 1)` quotients
/// `P(a|y)/P(a|y')` of certified values compared; `None` when a count
/// overflows.
fn part_steps(laws: u64, numerators: u64, horizon: usize, v: usize) -> Option<u128> {
    let quotients = u128::from(numerators)
        .checked_mul(horizon as u128)?
        .checked_mul(v.saturating_sub(1) as u128)?;
    Some(
        quotients
            .checked_add(u128::from(laws))?
            .div_ceil(STEPS_PER_UNIT),
    )
}

/// Events built or quotients compared per [`WORK_UNIT`] (about 3 ms of one
/// core): measured, DP-SE at T = 2 on 256 reward values (65 536 laws,
/// 33 423 360 quotients) takes 47 s on two loaded cores (debug build, its
/// dependencies optimised), about 1.4 µs a quotient.
const STEPS_PER_UNIT: u128 = 1000;

/// The ordered pairs of neighbouring reward tables of `arms` = K arms
/// (saturating): `|V|^{KT} · T · (|V|^K − 1)` when a neighbour replaces a
/// row, `|V|^{KT} · T · K(|V| − 1)` when it replaces an `entry`
/// ([`PullLaw::neighbours_replace_an_entry`]).
pub fn table_pairs(horizon: usize, v: usize, arms: usize, entry: bool) -> u64 {
    let n = u32::try_from(arms)
        .ok()
        .and_then(|k| (v as u64).checked_pow(k))
        .unwrap_or(u64::MAX);
    if n <= 1 || horizon == 0 {
        return 0;
    }
    let replacements = if entry {
        (arms as u64).saturating_mul(v as u64 - 1)
    } else {
        n - 1
    };
    // In O(log T) steps: a horizon read from a merge input may be huge.
    u32::try_from(horizon)
        .ok()
        .and_then(|t| n.checked_pow(t))
        .and_then(|p| p.checked_mul(horizon as u64))
        .and_then(|p| p.checked_mul(replacements))
        .unwrap_or(u64::MAX)
}

/// The base-`v` digits of `index`, `horizon` of them, first most significant.
fn digits(index: usize, horizon: usize, v: usize) -> Vec<usize> {
    let mut digits = vec![0; horizon];
    let mut rest = index;
    for d in digits.iter_mut().rev() {
        *d = rest % v;
        rest /= v;
    }
    digits
}

/// The witness at `position` and whether its numerator `P(a|x)` can be
/// certified positive, with the ratio `P(a|x)/P(a|x')` evaluated (in `R` at
/// `ctx`) from the two laws: the check builds its witness with it, and a
/// merge re-evaluates a part's witness with it. Errors when the position is
/// not one of this problem's (a law index past the end, a round past `T`, a
/// value that is not a replacement) or a probability cannot be resolved.
pub fn witness_at<R: Real>(
    params: &impl PullLaw,
    horizon: usize,
    alphabet: &[Q],
    (law, r, d): Position,
    ctx: &R::Context,
) -> Result<(Witness, bool)> {
    let v = alphabet.len();
    let bad = |what: &str| Error::InvalidInput(format!("the witness position is {what}"));
    let all = laws_needed(params, horizon, v).ok_or_else(|| bad("of a problem too large"))?;
    if law >= all || r >= horizon || d >= v {
        return Err(bad("outside the problem"));
    }
    let sequences = params
        .sequence_count(horizon)
        .ok_or_else(|| bad("of a problem too large"))?;
    let seen_count = all / sequences;
    let pulls = params
        .sequence(horizon, law / seen_count)
        .ok_or_else(|| bad("outside the problem"))?;
    let mut seen = digits((law % seen_count) as usize, horizon, v);
    if seen[r] == d {
        return Err(bad("not a replacement (the value is the one replaced)"));
    }
    let probability = |seen: &[usize]| -> Result<R> {
        let y: Vec<Q> = seen.iter().map(|&i| alphabet[i].clone()).collect();
        match params.event(&pulls, &y)? {
            Some(e) => params.probability::<R>(&e, ctx),
            None => Ok(R::from_int(0, ctx)),
        }
    };
    let num = probability(&seen)?;
    let rewards = table(params, &pulls, &seen, alphabet);
    seen[r] = d;
    let den = probability(&seen)?;
    let neighbour = table(params, &pulls, &seen, alphabet);
    let ratio = if den.is_zero_certain() {
        None
    } else {
        (num.clone() / &den).enclosure()
    };
    Ok((
        Witness {
            rewards,
            neighbour,
            pulls,
            round: r + 1,
            ratio,
            probabilities: num.enclosure().zip(den.enclosure()).map(|(n, d)| [n, d]),
        },
        !num.is_zero_certain(),
    ))
}

/// The reward table on which `pulls` see `seen` (indices into `alphabet`),
/// each placed in the cell its pull receives ([`PullLaw::cells`]), the
/// other cells the alphabet's first value.
fn table(params: &impl PullLaw, pulls: &[usize], seen: &[usize], alphabet: &[Q]) -> Vec<Vec<Q>> {
    let mut rows = vec![vec![alphabet[0].clone(); params.arms()]; pulls.len()];
    for ((t, a), &i) in params.cells(pulls).into_iter().zip(seen) {
        rows[t][a] = alphabet[i].clone();
    }
    rows
}

/// The outcome of the whole check from those of a partition of its laws
/// ([`check_part`] on each part, at one precision): the largest lower end
/// with its position (ties: the smallest, as in [`check`]), the largest
/// upper end, the quotients summed, the units in order. The caller makes sure the parts cover
/// the laws exactly once and are of one problem.
pub fn merge(parts: &[Outcome]) -> Result<Outcome> {
    let first = parts
        .first()
        .ok_or_else(|| Error::InvalidInput("nothing to merge".into()))?;
    let mut best: Option<(Best, &Outcome)> = None;
    for o in parts.iter().filter(|o| !o.is_empty()) {
        let (lo, hi) = match &o.max_ratio {
            Some((lo, hi)) => (Some(lo.clone()), Some(hi.clone())),
            None => (None, None),
        };
        let merged = better(best.as_ref().map(|b| b.0.clone()), (lo, o.position, hi));
        let from = match best {
            Some((_, from)) if merged.1 == from.position => from,
            _ => o,
        };
        best = Some((merged, from));
    }
    let ((lo, position, hi), from) = best.ok_or_else(|| {
        Error::InvalidInput("no pair of neighbouring reward tables to compare".into())
    })?;
    Ok(Outcome {
        max_ratio: lo.zip(hi),
        witness: from.witness.clone(),
        pairs: first.pairs,
        position,
        quotients: parts
            .iter()
            .fold(0u64, |acc, o| acc.saturating_add(o.quotients)),
        units: parts.iter().flat_map(|o| o.units.clone()).collect(),
    })
}

/// The largest lower end, where it is attained ([`Position`]), the largest
/// upper end; `None` = `+∞`.
type Best = (Option<Q>, Position, Option<Q>);

/// The fold of units' maxima ([`Outcome::units`]): the largest lower end
/// and the largest upper end (`None` = `+∞`); `[0, 0]` for no unit.
pub fn fold_units(units: &[Option<(Q, Q)>]) -> Option<(Q, Q)> {
    let ends = |u: &Option<(Q, Q)>| match u {
        Some((lo, hi)) => (Some(lo.clone()), Some(hi.clone())),
        None => (None, None),
    };
    let mut all = units.iter().map(ends);
    let Some(first) = all.next() else {
        return unit_max(&None);
    };
    let (lo, hi) = all.fold(first, |(lo, hi), (l, h)| {
        let lo = if cmp_extended(&l, &lo).is_gt() { l } else { lo };
        let hi = if cmp_extended(&h, &hi).is_gt() { h } else { hi };
        (lo, hi)
    });
    lo.zip(hi)
}

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
    accept: impl FnMut(&Outcome, Precision) -> Result<bool>,
) -> Result<(Outcome, Precision)> {
    check_certified_part(params, horizon, alphabet, None, force, accept)
}

/// [`check_certified`] of the part `part` of the laws ([`check_part`]).
pub fn check_certified_part(
    params: &impl PullLaw,
    horizon: usize,
    alphabet: &[Q],
    part: Option<std::ops::Range<u64>>,
    force: bool,
    mut accept: impl FnMut(&Outcome, Precision) -> Result<bool>,
) -> Result<(Outcome, Precision)> {
    let task = Task {
        name: "privacy",
        unit: "laws (the distinct ones integrated, then each numerator's quotients)",
    };
    // A bar on stderr when the run lasts (each precision a pass).
    with_progress(true, task, 0, |progress| {
        let mut bits = PRECISIONS.0;
        loop {
            let last = bits >= PRECISIONS.1;
            progress.stage(&format!("{bits} bits"));
            match counted_part::<Certified, _>(
                params,
                horizon,
                alphabet,
                part.clone(),
                force,
                &Precision(bits),
                progress,
            ) {
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
    })
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
