//! A privacy audit of a black-box sampler: from samples of its outputs on
//! two neighbouring inputs `x` and `x'`, a lower confidence bound on its ε.
//!
//! For any event `E`, an ε-DP sampler has `P(E | x) ≤ e^ε P(E | x')`, so
//! `ε ≥ ln(P(E | x) / P(E | x'))`. With one-sided Clopper–Pearson bounds
//! `p_lo ≤ P(E | x)` and `q_hi ≥ P(E | x')`, each at level `δ/2`,
//!
//! ```text
//! ε ≥ ln(p_lo / q_hi)   with probability at least 1 − δ
//! ```
//!
//! (union bound over the two intervals). That holds for a **fixed** event.
//! The event is chosen on a **held-out split**: the first half of each file
//! (rows `0..⌊n/2⌋`) selects, among the candidate events in both directions
//! (`x` over `x'` and `x'` over `x`), the one with the largest bound computed
//! the same way on that half; the bound reported is computed on the second
//! halves only, which the choice never saw, so its confidence level is
//! honest. The bound is clipped at 0 (no evidence against ε = 0 is not
//! evidence for a negative ε).
//!
//! Candidate events: "round `t` plays action `a`" for every round and every
//! action seen, and "the whole sequence is `s`" for every sequence seen in
//! the selection halves (at most [`AuditOptions::max_sequences`] of the most
//! frequent).
//!
//! Numbers: the bound is f64 (statrs's inverse regularized incomplete beta
//! function), labelled approximate. Beside it, [`exact_ratios`] gives the
//! exact (or certified) ratio of the chosen event and the largest ratio
//! over all sequences for dpdtol's own law of the same algorithm, and
//! [`bandit_exact_ratios`] the same for a bandit algorithm's pull sequences.

use super::bandit::{BanditLaw, BanditTarget};
use super::law::{check_sequence, choice_laws, sequence_probability, Enclosed};
use super::sample::Samples;
use crate::algorithm::BestSequenceLaw;
use crate::error::{Error, Result};
use crate::num::{Kind, Q};
use num_traits::{One, Zero};
use statrs::distribution::{Beta, ContinuousCDF};
use std::collections::HashMap;

/// The parameters of [`audit`].
#[derive(Clone, Debug, PartialEq)]
pub struct AuditOptions {
    /// The confidence level `1 − δ` of the bound (default 0.95).
    pub confidence: f64,
    /// At most this many whole sequences (the most frequent in the
    /// selection halves) are candidate events (default 10 000).
    pub max_sequences: usize,
}

impl Default for AuditOptions {
    fn default() -> Self {
        AuditOptions {
            confidence: 0.95,
            max_sequences: 10_000,
        }
    }
}

/// A candidate event on the action sequence (0-based actions).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// Round `round` (from 1) plays `action`.
    Round {
        /// The round, from 1.
        round: usize,
        /// The action, 0-based.
        action: usize,
    },
    /// The whole sequence is this one.
    Sequence(Vec<u32>),
}

impl Event {
    fn holds(&self, row: &[u32]) -> bool {
        match self {
            Event::Round { round, action } => row[round - 1] as usize == *action,
            Event::Sequence(s) => row == &s[..],
        }
    }
}

/// The outcome of [`audit`].
#[derive(Clone, Debug, PartialEq)]
pub struct AuditReport {
    /// The event chosen on the selection halves.
    pub event: Event,
    /// Whether the bound is on `P(E | x)/P(E | x')` (`false`: on
    /// `P(E | x')/P(E | x)`), `x` being the first file.
    pub first_over_second: bool,
    /// The number of candidate events (in each direction).
    pub candidates: usize,
    /// Rows used to select the event in each file.
    pub selection_rows: (usize, usize),
    /// Rows used for the bound in each file.
    pub test_rows: (usize, usize),
    /// The event's count in the numerator's test half.
    pub numerator_count: u64,
    /// The event's count in the denominator's test half.
    pub denominator_count: u64,
    /// The Clopper–Pearson lower bound of the numerator's probability.
    pub numerator_lower: f64,
    /// The Clopper–Pearson upper bound of the denominator's probability.
    pub denominator_upper: f64,
    /// `max(0, ln(numerator_lower / denominator_upper))`: ε is at least this
    /// with probability at least `confidence`.
    pub epsilon_lower: f64,
    /// The confidence level.
    pub confidence: f64,
}

impl AuditReport {
    /// Whether the bound refutes the claim that the sampler is
    /// `claimed`-DP: `epsilon_lower > claimed`, compared exactly (the f64
    /// bound read as the rational it is). At the report's confidence, an
    /// ε-DP sampler is refuted with probability at most `1 − confidence`.
    pub fn refutes(&self, claimed: &Q) -> bool {
        Q::from_float(self.epsilon_lower).is_some_and(|lower| &lower > claimed)
    }
}

/// One-sided Clopper–Pearson bounds for `k` successes in `n` trials, each
/// holding with probability at least `1 − a`: `(lower, upper)`.
pub fn clopper_pearson(k: u64, n: u64, a: f64) -> (f64, f64) {
    let lower = if k == 0 {
        0.0
    } else {
        Beta::new(k as f64, (n - k + 1) as f64).map_or(0.0, |b| b.inverse_cdf(a))
    };
    let upper = if k >= n {
        1.0
    } else {
        Beta::new((k + 1) as f64, (n - k) as f64).map_or(1.0, |b| b.inverse_cdf(1.0 - a))
    };
    (lower, upper)
}

fn count(samples: &Samples, event: &Event) -> u64 {
    (0..samples.rows())
        .filter(|&i| event.holds(samples.row(i)))
        .count() as u64
}

/// `ln(p_lo / q_hi)` for the counts, each bound one-sided at `a`.
fn log_ratio_bound(k_num: u64, n_num: u64, k_den: u64, n_den: u64, a: f64) -> (f64, f64, f64) {
    let (p_lo, _) = clopper_pearson(k_num, n_num, a);
    let (_, q_hi) = clopper_pearson(k_den, n_den, a);
    (p_lo, q_hi, (p_lo / q_hi).ln())
}

/// Audit a sampler from its outputs on `x` (`first`) and on a neighbour
/// `x'` (`second`): see the module documentation.
pub fn audit(first: &Samples, second: &Samples, options: &AuditOptions) -> Result<AuditReport> {
    if !(options.confidence > 0.0 && options.confidence < 1.0) {
        return Err(Error::InvalidInput(format!(
            "the confidence must lie in (0, 1), got {}",
            options.confidence
        )));
    }
    if first.cols() != second.cols() || first.cols() == 0 {
        return Err(Error::InvalidInput(format!(
            "the two sample files have {} and {} rounds; they must be equal and positive",
            first.cols(),
            second.cols()
        )));
    }
    if first.rows() < 2 || second.rows() < 2 {
        return Err(Error::InvalidInput(
            "each sample file needs at least 2 rows (half select the event, half bound it)".into(),
        ));
    }
    let a = (1.0 - options.confidence) / 2.0;
    let (s1, s2) = (first.rows() / 2, second.rows() / 2);
    let (select1, select2) = (first.slice(0..s1), second.slice(0..s2));
    let (test1, test2) = (
        first.slice(s1..first.rows()),
        second.slice(s2..second.rows()),
    );
    // The candidates are every (round, action) up to the largest action
    // seen, then the most frequent sequences. Each selection half is
    // counted in one pass; an event seen in neither half has the score
    // −∞ and is never chosen, so only the events seen are scored (memory
    // and time linear in the samples, whatever the action values).
    let max_action = first
        .data()
        .iter()
        .chain(second.data())
        .max()
        .copied()
        .unwrap_or(0);
    let round_candidates = (first.cols() as u64)
        .checked_mul(u64::from(max_action) + 1)
        .ok_or_else(|| Error::TooLarge("the number of candidate events overflows".into()))?;
    let halves = [&select1, &select2];
    let mut rounds: [HashMap<(usize, usize), u64>; 2] = Default::default();
    let mut sequence_counts: [HashMap<&[u32], u64>; 2] = Default::default();
    for (h, samples) in halves.iter().enumerate() {
        for i in 0..samples.rows() {
            let row = samples.row(i);
            *sequence_counts[h].entry(row).or_default() += 1;
            for (r, &action) in row.iter().enumerate() {
                *rounds[h].entry((r + 1, action as usize)).or_default() += 1;
            }
        }
    }
    let mut candidates: Vec<(Event, u64, u64)> = Vec::new();
    let mut round_events: Vec<(usize, usize)> =
        rounds[0].keys().chain(rounds[1].keys()).copied().collect();
    round_events.sort_unstable();
    round_events.dedup();
    let counted = |h: usize, key: &(usize, usize)| rounds[h].get(key).copied().unwrap_or(0);
    for key in &round_events {
        let event = Event::Round {
            round: key.0,
            action: key.1,
        };
        candidates.push((event, counted(0, key), counted(1, key)));
    }
    let mut seen: HashMap<&[u32], u64> = HashMap::new();
    for counts in &sequence_counts {
        for (s, n) in counts {
            *seen.entry(s).or_default() += n;
        }
    }
    let mut sequences: Vec<(&[u32], u64)> = seen.into_iter().collect();
    sequences.sort_by(|x, y| y.1.cmp(&x.1).then_with(|| x.0.cmp(y.0)));
    sequences.truncate(options.max_sequences);
    let sequence_candidates = sequences.len();
    for (s, _) in sequences {
        let counted = |h: usize| sequence_counts[h].get(s).copied().unwrap_or(0);
        candidates.push((Event::Sequence(s.to_vec()), counted(0), counted(1)));
    }
    let mut best: Option<(f64, usize, bool)> = None;
    for (index, (_, k1, k2)) in candidates.iter().enumerate() {
        let (k1, k2) = (*k1, *k2);
        for forward in [true, false] {
            let (kn, nn, kd, nd) = if forward {
                (k1, s1 as u64, k2, s2 as u64)
            } else {
                (k2, s2 as u64, k1, s1 as u64)
            };
            let (_, _, score) = log_ratio_bound(kn, nn, kd, nd, a);
            if best.is_none_or(|b| score > b.0) {
                best = Some((score, index, forward));
            }
        }
    }
    let (_, index, forward) =
        best.ok_or_else(|| Error::InvalidInput("no candidate event".into()))?;
    let event = candidates[index].0.clone();
    let (k1, k2) = (count(&test1, &event), count(&test2, &event));
    let (n1, n2) = (test1.rows() as u64, test2.rows() as u64);
    let (kn, nn, kd, nd) = if forward {
        (k1, n1, k2, n2)
    } else {
        (k2, n2, k1, n1)
    };
    let (p_lo, q_hi, log) = log_ratio_bound(kn, nn, kd, nd, a);
    Ok(AuditReport {
        event,
        first_over_second: forward,
        candidates: usize::try_from(round_candidates)
            .unwrap_or(usize::MAX)
            .saturating_add(sequence_candidates),
        selection_rows: (s1, s2),
        test_rows: (test1.rows(), test2.rows()),
        numerator_count: kn,
        denominator_count: kd,
        numerator_lower: p_lo,
        denominator_upper: q_hi,
        epsilon_lower: if log > 0.0 { log } else { 0.0 },
        confidence: options.confidence,
    })
}

/// A ratio of two enclosed probabilities: `[lo, hi]`, `hi = None` meaning
/// unbounded (the denominator may be, or is, zero).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ratio {
    /// Exact (both probabilities exact) or certified.
    pub kind: Kind,
    /// A lower bound (the value when exact and finite); `None` when the
    /// ratio is certainly infinite.
    pub lo: Option<Q>,
    /// An upper bound; `None` when unbounded.
    pub hi: Option<Q>,
}

/// `a / b` for enclosed probabilities; `None` when both are certainly zero
/// (the event is impossible on both inputs).
fn ratio(a: &Enclosed, b: &Enclosed) -> Option<Ratio> {
    let kind = if a.kind == Kind::Exact && b.kind == Kind::Exact {
        Kind::Exact
    } else {
        Kind::Certified
    };
    if a.hi.is_zero() && b.hi.is_zero() {
        return None;
    }
    if b.hi.is_zero() {
        return Some(Ratio {
            kind,
            lo: None,
            hi: None,
        });
    }
    Some(Ratio {
        kind,
        lo: Some(&a.lo / &b.hi),
        hi: (!b.lo.is_zero()).then(|| &a.hi / &b.lo),
    })
}

/// The larger of two ratio enclosures (an enclosure of the maximum).
fn max_ratio(x: Ratio, y: Ratio) -> Ratio {
    // `None` is infinite (as a lower bound: certainly; as an upper bound:
    // unbounded), so it wins.
    let bigger = |p: Option<Q>, q: Option<Q>| p.zip(q).map(|(p, q)| p.max(q));
    let kind = if x.kind == Kind::Exact && y.kind == Kind::Exact {
        Kind::Exact
    } else {
        Kind::Certified
    };
    Ratio {
        kind,
        lo: bigger(x.lo, y.lo),
        hi: bigger(x.hi, y.hi),
    }
}

fn product(x: Ratio, y: Ratio) -> Ratio {
    let times = |p: Option<Q>, q: Option<Q>| p.zip(q).map(|(p, q)| p * q);
    Ratio {
        kind: if x.kind == Kind::Exact && y.kind == Kind::Exact {
            Kind::Exact
        } else {
            Kind::Certified
        },
        lo: times(x.lo, y.lo),
        hi: times(x.hi, y.hi),
    }
}

/// An error unless both sample files have one action a round of the
/// target's `horizon`.
pub fn check_widths(first: &Samples, second: &Samples, horizon: usize) -> Result<()> {
    for (flag, samples) in [("--first", first), ("--second", second)] {
        if samples.cols() != horizon {
            return Err(Error::InvalidInput(format!(
                "{flag} has sequences of {} actions, the target plays {horizon} rounds",
                samples.cols()
            )));
        }
    }
    Ok(())
}

/// dpdtol's own ratios for two laws of the same algorithm on `x`
/// (`first`) and `x'` (`second`), K actions: the chosen event's ratio in
/// the direction the audit chose, and the largest ratio of any sequence's
/// probabilities in either direction, `max_s P(s | x)/P(s | x')` (which, the
/// choices being independent, is `∏_c max_a P_c(a | x)/P_c(a | x')`) — the
/// `e^ε` of the algorithm on this pair.
pub fn exact_ratios(
    first: &BestSequenceLaw,
    second: &BestSequenceLaw,
    k: usize,
    report: &AuditReport,
) -> Result<(Option<Ratio>, Ratio)> {
    let (laws1, laws2) = (choice_laws(first)?, choice_laws(second)?);
    if first.schedule() != second.schedule() {
        return Err(Error::InvalidInput(
            "the two inputs have different horizons".into(),
        ));
    }
    let probability = |law: &BestSequenceLaw, laws: &[Vec<Enclosed>]| -> Result<Enclosed> {
        match &report.event {
            Event::Round { round, action } => {
                let c = law
                    .schedule()
                    .iter()
                    .position(|c| c.plays.contains(round))
                    .ok_or_else(|| Error::InvalidInput(format!("no round {round}")))?;
                laws[c].get(*action).cloned().ok_or_else(|| {
                    Error::InvalidInput(format!(
                        "action {} (counting from 1) is beyond the K = {k} actions",
                        action + 1
                    ))
                })
            }
            Event::Sequence(s) => {
                let s: Vec<usize> = s.iter().map(|&a| a as usize).collect();
                check_sequence(law, k, &s)?;
                sequence_probability(law, k, &s)
            }
        }
    };
    let (p1, p2) = (probability(first, &laws1)?, probability(second, &laws2)?);
    let event = if report.first_over_second {
        ratio(&p1, &p2)
    } else {
        ratio(&p2, &p1)
    };
    let one = || Ratio {
        kind: Kind::Exact,
        lo: Some(Q::one()),
        hi: Some(Q::one()),
    };
    let mut worst: Option<Ratio> = None;
    for (num, den) in [(&laws1, &laws2), (&laws2, &laws1)] {
        let mut total = one();
        for (a, b) in num.iter().zip(den) {
            let best = a
                .iter()
                .zip(b)
                .filter_map(|(x, y)| ratio(x, y))
                .reduce(max_ratio)
                .unwrap_or_else(one);
            total = product(total, best);
        }
        worst = Some(match worst {
            None => total,
            Some(w) => max_ratio(w, total),
        });
    }
    Ok((event, worst.unwrap_or_else(one)))
}

/// `P(E | x)` under a bandit algorithm's law of the pull sequence on `x`:
/// the sum of the probabilities of the sequences in the event (a round's
/// arm, or one whole sequence), exact or enclosed.
pub fn bandit_event_probability(law: &BanditLaw, event: &Event) -> Result<Enclosed> {
    match event {
        Event::Round { round, action } => {
            if *round == 0 || *round > law.horizon() {
                return Err(Error::InvalidInput(format!(
                    "no round {round}: the target plays {} rounds",
                    law.horizon()
                )));
            }
            if *action >= law.arms() {
                return Err(Error::InvalidInput(format!(
                    "arm {} (counting from 1) is beyond the K = {} arms",
                    action + 1,
                    law.arms()
                )));
            }
            let sum = Enclosed {
                kind: law.kind(),
                lo: Q::zero(),
                hi: Q::zero(),
            };
            Ok(law
                .entries()
                .iter()
                .filter(|(pulls, _)| pulls[round - 1] == *action)
                .fold(sum, |sum, (_, p)| Enclosed {
                    kind: sum.kind,
                    lo: sum.lo + &p.lo,
                    hi: sum.hi + &p.hi,
                }))
        }
        Event::Sequence(s) => {
            let s: Vec<usize> = s.iter().map(|&a| a as usize).collect();
            law.probability(&s)
        }
    }
}

/// dpdtol's own numbers for one bandit algorithm beside an audit of it.
pub struct BanditExact {
    /// The chosen event's probability on `x` and on `x'`.
    pub probabilities: [Enclosed; 2],
    /// The chosen event's ratio in the direction the audit chose.
    pub event: Option<Ratio>,
    /// The largest ratio of any pull sequence's probabilities.
    pub max: Ratio,
}

/// dpdtol's own numbers for the bandit algorithm `x` (on the input's
/// reward table) and `y` (the same on the neighbour's) beside the audit
/// `report` of the samples `first` and `second`: the pair checked to be
/// neighbours and the samples to be sequences of their horizon, then
/// [`bandit_exact_ratios`] of their laws (over the size limit only when
/// `force`).
pub fn bandit_exact(
    x: &BanditTarget,
    y: &BanditTarget,
    [first, second]: [&Samples; 2],
    report: &AuditReport,
    force: bool,
) -> Result<BanditExact> {
    x.check_neighbour(y)?;
    check_widths(first, second, x.horizon())?;
    bandit_exact_ratios(&x.law(force)?, &y.law(force)?, report)
}

/// dpdtol's own numbers for the laws of one bandit algorithm on the reward
/// tables `x` (`first`) and `x'` (`second`): the chosen event's
/// probabilities ([`bandit_event_probability`]) and its ratio in the
/// direction the audit chose, and the largest ratio of any pull sequence's
/// probabilities in either direction,
/// `max_s max(P(s | x)/P(s | x'), P(s | x')/P(s | x))` over the sequences of
/// either law (infinite when one is 0 and the other is not) — the `e^ε` of
/// the algorithm on this pair.
pub fn bandit_exact_ratios(
    first: &BanditLaw,
    second: &BanditLaw,
    report: &AuditReport,
) -> Result<BanditExact> {
    if (first.arms(), first.horizon()) != (second.arms(), second.horizon()) {
        return Err(Error::InvalidInput(
            "the two reward tables have different shapes".into(),
        ));
    }
    let (p1, p2) = (
        bandit_event_probability(first, &report.event)?,
        bandit_event_probability(second, &report.event)?,
    );
    let event = if report.first_over_second {
        ratio(&p1, &p2)
    } else {
        ratio(&p2, &p1)
    };
    let mut worst = Ratio {
        kind: Kind::Exact,
        lo: Some(Q::one()),
        hi: Some(Q::one()),
    };
    for (pulls, _) in first.entries().iter().chain(second.entries()) {
        let (a, b) = (first.probability(pulls)?, second.probability(pulls)?);
        for r in [ratio(&a, &b), ratio(&b, &a)].into_iter().flatten() {
            worst = max_ratio(worst, r);
        }
    }
    Ok(BanditExact {
        probabilities: [p1, p2],
        event,
        max: worst,
    })
}
