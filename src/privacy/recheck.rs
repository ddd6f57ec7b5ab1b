//! Checking a report that comes from outside: a shard's `--json` output read
//! back by `privacy --merge` is untrusted input. Before a
//! report enters [`super::merge`], [`recheck`] makes sure it is one that
//! [`super::check`] could have produced for `algorithm`:
//!
//! - the dimensions: K is the algorithm's, the pair count is the one of its
//!   shard (`|range| · t · (N − 1)`, computed from the numbers as in
//!   [`super::check`]), the precision is at most [`MAX_PRECISION`] bits;
//! - the kind agrees with the data: an exact report has exact (or infinite)
//!   ratios and no precision, a certified one has a precision;
//! - every enclosure is ordered and non-negative, and the maximum starts at
//!   the witness's lower end, as the search keeps it;
//! - the witness is well formed: `t` vectors of K alphabet values, a neighbour
//!   that differs from it in exactly the stated round, `t` actions in
//!   `1..=K`, and sequence indices that are those of the two loss sequences
//!   (the sequence inside the shard);
//! - the witness's ratio `P(a|x)/P(a|x')` is **evaluated again** from the
//!   algorithm's laws ([`SequenceLaw::probability`]): exactly for an exact
//!   report (it must equal the claimed value), in the certified backend at the
//!   report's precision otherwise (its enclosure must meet the claimed one).
//!
//! - the units ([`Report::units`]): one maximum per unit of the shard's
//!   range ([`units_of`]), their fold the shard's maximum, the witness in a
//!   unit attaining it — or, for a shard whose verdict was decided exactly
//!   on its witness (violated, or attained) after a certified pass, that
//!   pass's units ([`Report::units_precision`]), whose fold and witness's
//!   unit meet the maximum; every unit an ordered enclosure (or exact value)
//!   of non-negative numbers, or `inf`, in the form of the report's kind.
//!   Only a whole run has none.
//!
//! What it cannot see: a unit that under-reports its maximum (hides a
//! violation) is caught only by searching that unit again, which a merge
//! does for a sample of them ([`crate::report::merge::spot_check`]); a
//! forged violation is always caught, since its witness is re-evaluated.

use super::exhaustive::{item_count, MAX_PRECISION};
use super::structure::{candidate_pair, candidates};
use super::{
    decide, decide_exactly, fold, units_of, Method, Ratio, Report, Shard, Space, Structured,
    Verdict,
};
use crate::algorithm::{OnlineAlgorithm, SequenceLaw};
use crate::error::{Error, Result};
use crate::num::{format_sig, Certified, Exact, Kind, Precision, Real, Q};
use num_traits::{Signed, Zero};

fn bad(what: String) -> Error {
    Error::InvalidInput(what)
}

/// Check that `report` is one [`super::check`] could have produced for
/// `algorithm`, re-evaluating its witness; the error names the first field
/// that is not.
pub fn recheck<A: Structured>(algorithm: &A, report: &Report) -> Result<()> {
    let k = algorithm.actions();
    if report.actions != k {
        return Err(bad(format!(
            "actions is {}, the algorithm has K = {k}",
            report.actions
        )));
    }
    let problem = &report.problem;
    let t = problem.horizon;
    // The enumeration's shard is a range of sequences (their count must fit
    // 64 bits); the structural method's a range of candidates.
    let (pairs, unit, part) = match report.method {
        Method::Enumeration => {
            let powers = Space::powers(k, problem)?;
            let range = report.shard.range(powers[t])?;
            let pairs = Space::count_pairs(powers[1], t, &range);
            (pairs, "ordered pairs", Part::Sequences { powers, range })
        }
        Method::Structural => {
            let classes = report.shard.range(candidates(algorithm, problem)?)?;
            let pairs = classes.end - classes.start;
            (pairs, "structural candidates", Part::Candidates(classes))
        }
    };
    if report.pairs != pairs {
        return Err(bad(format!(
            "pairs is {}, but shard {} of this problem has {pairs} {unit}",
            report.pairs, report.shard
        )));
    }
    check_kind(report)?;
    for (name, ratio) in [
        ("max_ratio", &report.max_ratio),
        ("witness ratio", &report.witness.ratio),
    ] {
        check_enclosure(name, ratio)?;
    }
    let w = &report.witness;
    if report.max_ratio.cmp_lo(&w.ratio) != std::cmp::Ordering::Equal
        || super::cmp_extended(report.max_ratio.hi(), w.ratio.hi()) == std::cmp::Ordering::Less
    {
        return Err(bad(
            "max_ratio does not start at the witness's ratio (the search keeps the maximum at its witness)"
                .into(),
        ));
    }
    match part {
        Part::Sequences { powers, range } => {
            if let Some((x, x2)) = witness_indices(report, Some(&powers))? {
                if x != w.sequence || x2 != w.neighbour_sequence {
                    return Err(bad(format!(
                        "the witness's sequence indices are {}/{}, its loss sequences are {x}/{x2}",
                        w.sequence, w.neighbour_sequence
                    )));
                }
                if !range.contains(&x) {
                    return Err(bad(format!(
                        "the witness's sequence {x} is not in shard {}",
                        report.shard
                    )));
                }
            }
        }
        Part::Candidates(classes) => {
            // The structural method's witness carries its candidate's index
            // (inside the shard's range of candidates) and no neighbour
            // index; the index is decoded into the pair it names, which must
            // be the witness's.
            witness_indices(report, None)?;
            if !classes.contains(&w.sequence) || w.neighbour_sequence != 0 {
                return Err(bad(format!(
                    "the witness's candidate index {}/{} is not one of shard {} (candidates {} to {} from 0, neighbour index 0)",
                    w.sequence,
                    w.neighbour_sequence,
                    report.shard,
                    classes.start,
                    classes.end.saturating_sub(1)
                )));
            }
            let named = candidate_pair(algorithm, problem, w.sequence)?;
            if named.as_ref().is_none_or(|(x, x2, round)| {
                *x != w.losses || *x2 != w.neighbour || *round != w.round
            }) {
                return Err(bad(format!(
                    "the witness is not the pair its candidate index {} names (its loss sequences, neighbour or round differ)",
                    w.sequence
                )));
            }
        }
    }
    check_units(algorithm, report)?;
    check_exact_decision(algorithm, report)?;
    match report.kind {
        Kind::Exact => {
            let (p, p2) =
                probabilities::<Exact, A>(algorithm, report, &()).map_err(|e| match e {
                    Error::NotRepresentable(_) => bad(
                        "kind is exact, but this algorithm's laws are not rational on the witness"
                            .into(),
                    ),
                    other => other,
                })?;
            compare(&w.ratio, p, p2)
        }
        _ => {
            let bits = Precision(report.precision.map_or(0, |p| p.0));
            let (p, p2) = probabilities::<Certified, A>(algorithm, report, &bits)?;
            compare(&w.ratio, p, p2)
        }
    }
}

/// The units of the shard of `report` ([`units_of`]): sub-ranges of its loss
/// sequences (enumeration) or of its candidates (structural).
pub fn unit_ranges<A: Structured>(
    algorithm: &A,
    report: &Report,
) -> Result<Vec<std::ops::Range<u64>>> {
    let items = item_count(algorithm, &report.problem, report.method)?;
    Ok(units_of(&report.shard.range(items)?))
}

/// The units against the shard: one maximum per unit of its range, each of
/// the report's kind, ordered and non-negative, whose fold is its maximum,
/// the witness in a unit attaining it — or none, for the whole run as
/// written (its units are not; a merge refuses a whole run). A shard
/// decided on its witness keeps the units of a certified pass
/// ([`Report::units_precision`]): their fold and the witness's unit then
/// enclose the maximum (both enclosures hold the same true value, so they
/// meet).
fn check_units<A: Structured>(algorithm: &A, report: &Report) -> Result<()> {
    let units = &report.units;
    let decided_on_witness = report.verdict == Verdict::Violated || report.attained;
    if report.units_precision.is_some() && (units.is_empty() || !decided_on_witness) {
        return Err(bad(
            "field 'merge.units_precision_bits' is given, but not with the units of a shard decided exactly on its witness".into(),
        ));
    }
    if units.is_empty() {
        if report.shard != Shard::WHOLE {
            return Err(bad(format!(
                "field 'merge.units' is missing: shard {} carries no units to recompute (re-run it with this version of dpdtol, whose shards carry them)",
                report.shard
            )));
        }
        return Ok(());
    }
    for (j, unit) in units.iter().enumerate() {
        let name = format!("field 'merge.units[{j}]'");
        check_enclosure(&name, unit)?;
        let exact_form = matches!(unit, Ratio::Exact(_) | Ratio::Infinite);
        let certified_form = matches!(unit, Ratio::Certified { .. } | Ratio::Infinite);
        if (report.kind == Kind::Exact && !exact_form)
            || (report.kind != Kind::Exact && !certified_form)
        {
            return Err(bad(format!(
                "{name} is not a ratio of the report's kind ({}: {})",
                report.kind.label(),
                if report.kind == Kind::Exact {
                    "an exact value or inf"
                } else {
                    "an enclosure or inf"
                }
            )));
        }
    }
    let ranges = unit_ranges(algorithm, report)?;
    if units.len() != ranges.len() {
        return Err(bad(format!(
            "field 'merge.units' is not one maximum per unit of shard {}'s range ({} units)",
            report.shard,
            ranges.len()
        )));
    }
    let folded = fold(units);
    let at = report.witness.sequence;
    let enclosing = report.units_precision.is_some();
    let (fits, holds) = if enclosing {
        (
            folded.as_ref().is_some_and(|f| meet(f, &report.max_ratio)),
            "enclose",
        )
    } else {
        (folded.as_ref() == Some(&report.max_ratio), "fold to")
    };
    if !fits {
        return Err(bad(format!(
            "field 'merge.max_ratio' is not what the units of 'merge.units' {holds} (the largest lower and upper ends)"
        )));
    }
    let attains = |(range, unit): (&std::ops::Range<u64>, &Ratio)| {
        range.contains(&at)
            && if enclosing {
                meet(unit, &report.max_ratio)
            } else {
                unit.lo() == report.max_ratio.lo()
            }
    };
    if !ranges.iter().zip(units).any(attains) {
        return Err(bad(format!(
            "the witness's index {at} is not in a unit of 'merge.units' attaining the maximum"
        )));
    }
    Ok(())
}

/// Whether two enclosures have a point in common (an infinite ratio meets
/// only an infinite one).
fn meet(a: &Ratio, b: &Ratio) -> bool {
    match (a.lo().zip(a.hi()), b.lo().zip(b.hi())) {
        (Some((a_lo, a_hi)), Some((b_lo, b_hi))) => a_lo <= b_hi && b_lo <= a_hi,
        (None, None) => true,
        _ => false,
    }
}

/// The part of the problem a shard covers: sequences (the enumeration, with
/// the powers `N^i` its indices are read in) or candidates (structural).
enum Part {
    Sequences {
        powers: Vec<u64>,
        range: std::ops::Range<u64>,
    },
    Candidates(std::ops::Range<u64>),
}

/// A verdict the enclosure of the maximum leaves open, or an attained
/// maximum, was decided exactly in the field `Q(w)`: decide the witness again
/// there ([`decide_exactly`]) and require the same verdict and `attained`.
fn check_exact_decision<A: Structured>(algorithm: &A, report: &Report) -> Result<()> {
    let bits = report.precision.map_or(0, |p| p.0);
    let (enclosed, _) = decide(&report.max_ratio, &report.problem.epsilon, bits)?;
    if enclosed != Verdict::Undecided && !report.attained {
        return Ok(());
    }
    let (verdict, attained, _) =
        decide_exactly(algorithm, &report.witness, &report.problem.epsilon).map_err(|e| {
            bad(format!(
                "the verdict '{}' is not decided by its enclosure, and the witness cannot be decided exactly ({e})",
                report.verdict.name()
            ))
        })?;
    if verdict != report.verdict || attained != report.attained {
        return Err(bad(format!(
            "verdict '{}' (attained: {}), but the witness decided exactly gives '{}' (attained: {attained})",
            report.verdict.name(),
            report.attained,
            verdict.name()
        )));
    }
    Ok(())
}

/// The kind against the precision and the form of the ratios.
fn check_kind(report: &Report) -> Result<()> {
    let exact_form = |r: &Ratio| matches!(r, Ratio::Exact(_) | Ratio::Infinite);
    match (report.kind, report.precision) {
        (Kind::Exact, None) => {
            if exact_form(&report.max_ratio) && exact_form(&report.witness.ratio) {
                Ok(())
            } else {
                Err(bad(
                    "kind is exact, but the ratios are enclosures, not exact values".into(),
                ))
            }
        }
        (Kind::Exact, Some(p)) => Err(bad(format!(
            "kind is exact, but precision_bits is {} (an exact report has none)",
            p.0
        ))),
        (Kind::Certified, Some(p)) if (1..=MAX_PRECISION).contains(&p.0) => Ok(()),
        (Kind::Certified, Some(p)) => Err(bad(format!(
            "precision_bits is {}, outside 1 to {MAX_PRECISION} (the checker's largest precision)",
            p.0
        ))),
        (Kind::Certified, None) => Err(bad(
            "kind is certified, but precision_bits is missing".into()
        )),
        (other, _) => Err(bad(format!(
            "kind is {}, expected exact or certified",
            other.label()
        ))),
    }
}

/// A ratio is non-negative and its enclosure ordered.
fn check_enclosure(name: &str, ratio: &Ratio) -> Result<()> {
    match ratio {
        Ratio::Infinite => Ok(()),
        Ratio::Exact(q) if !q.is_negative() => Ok(()),
        Ratio::Certified { lo, hi } if !lo.is_negative() && lo <= hi => Ok(()),
        Ratio::Exact(q) => Err(bad(format!("{name} {q} is negative"))),
        Ratio::Certified { lo, hi } => Err(bad(format!(
            "{name} [{lo}, {hi}] is not an ordered interval of non-negative numbers"
        ))),
    }
}

/// The enumeration indices of the witness's two loss sequences (when the
/// powers `N^i` of the enumeration are given), after checking their shape:
/// `t` vectors of K alphabet values, differing in exactly the stated round,
/// and `t` actions below K.
fn witness_indices(report: &Report, powers: Option<&[u64]>) -> Result<Option<(u64, u64)>> {
    let (w, problem, k) = (&report.witness, &report.problem, report.actions);
    let t = problem.horizon;
    if w.losses.len() != t || w.neighbour.len() != t || w.actions.len() != t {
        return Err(bad(format!(
            "the witness has {} loss vectors, {} neighbour vectors and {} actions; the horizon is {t}",
            w.losses.len(),
            w.neighbour.len(),
            w.actions.len()
        )));
    }
    if let Some(a) = w.actions.iter().find(|&&a| a >= k) {
        return Err(bad(format!(
            "the witness plays action {}, outside 1 to {k}",
            a + 1
        )));
    }
    if w.round == 0 || w.round > t {
        return Err(bad(format!(
            "the witness's round {} is outside rounds 1 to {t}",
            w.round
        )));
    }
    let differing: Vec<usize> = (0..t)
        .filter(|&s| w.losses[s] != w.neighbour[s])
        .map(|s| s + 1)
        .collect();
    if differing != [w.round] {
        return Err(bad(format!(
            "the witness's neighbour differs in rounds {differing:?}, not in exactly round {}",
            w.round
        )));
    }
    let index = |sequence: &[Vec<Q>]| -> Result<u64> {
        let base = problem.alphabet.len() as u64;
        let mut x = 0u64;
        for (s, vector) in sequence.iter().enumerate() {
            if vector.len() != k {
                return Err(bad(format!(
                    "a witness vector of round {} has {} losses, K = {k}",
                    s + 1,
                    vector.len()
                )));
            }
            let mut u = 0u64;
            for v in vector {
                let digit = problem
                    .alphabet
                    .iter()
                    .position(|a| a == v)
                    .ok_or_else(|| bad(format!("the witness's loss {v} is not in the alphabet")))?;
                // u < N = |V|^K and x < N^t, both checked to fit 64 bits
                // when the indices are asked for (the enumeration).
                u = u.saturating_mul(base).saturating_add(digit as u64);
            }
            if let Some(powers) = powers {
                x += u * powers[t - 1 - s];
            }
        }
        Ok(x)
    };
    let (x, x2) = (index(&w.losses)?, index(&w.neighbour)?);
    Ok(powers.map(|_| (x, x2)))
}

/// Enclosures of the two probabilities `P(a|x)` and `P(a|x')` whose
/// quotient is the witness's ratio, in the report's numbers: exact (a point)
/// when its kind is exact, certified at its precision otherwise.
pub fn witness_probabilities<A: OnlineAlgorithm>(
    algorithm: &A,
    report: &Report,
) -> Result<[(Q, Q); 2]> {
    fn both<R: Real>((p, p2): (R, R)) -> Result<[(Q, Q); 2]> {
        let unresolved = || Error::Domain("a witness probability has no enclosure".into());
        Ok([
            p.enclosure().ok_or_else(unresolved)?,
            p2.enclosure().ok_or_else(unresolved)?,
        ])
    }
    match report.kind {
        Kind::Exact => both(probabilities::<Exact, A>(algorithm, report, &())?),
        _ => {
            let bits = Precision(report.precision.map_or(0, |p| p.0));
            both(probabilities::<Certified, A>(algorithm, report, &bits)?)
        }
    }
}

/// `P(a|x)` and `P(a|x')` of the witness in backend `R`.
fn probabilities<R: Real, A: OnlineAlgorithm>(
    algorithm: &A,
    report: &Report,
    ctx: &R::Context,
) -> Result<(R, R)> {
    let w = &report.witness;
    let p = SequenceLaw::<R>::of(algorithm, &w.losses, ctx)?.probability(&w.actions, ctx);
    let p2 = SequenceLaw::<R>::of(algorithm, &w.neighbour, ctx)?.probability(&w.actions, ctx);
    Ok((p, p2))
}

/// The claimed witness ratio against the re-evaluated `p / p2`: equal when
/// both are exact, overlapping enclosures otherwise.
fn compare<R: Real>(claimed: &Ratio, p: R, p2: R) -> Result<()> {
    let mismatch = |computed: String| {
        Err(bad(format!(
            "the witness's ratio is claimed {}, but its actions' probabilities give {computed}",
            describe(claimed)
        )))
    };
    let (Some((pl, ph)), Some((ql, qh))) = (p.enclosure(), p2.enclosure()) else {
        return mismatch("no enclosure".into());
    };
    if ph.is_zero() {
        return mismatch("P(actions | losses) = 0".into());
    }
    if qh.is_zero() {
        return match claimed {
            Ratio::Infinite if pl.is_positive() => Ok(()),
            _ => mismatch("inf".into()),
        };
    }
    if !ql.is_positive() {
        return mismatch(format!(
            "a neighbour probability in [{}, {}] not separated from 0",
            short(&ql),
            short(&qh)
        ));
    }
    let (lo, hi) = (&pl / &qh, &ph / &ql);
    let agrees = match claimed {
        Ratio::Infinite => false,
        Ratio::Exact(q) if lo == hi => *q == lo,
        Ratio::Exact(q) => lo <= *q && *q <= hi,
        Ratio::Certified { lo: a, hi: b } => lo <= *b && *a <= hi,
    };
    if agrees {
        Ok(())
    } else if lo == hi {
        mismatch(short(&lo))
    } else {
        mismatch(format!("[{}, {}]", short(&lo), short(&hi)))
    }
}

/// A ratio for the error message, to 12 significant digits.
fn describe(ratio: &Ratio) -> String {
    match ratio {
        Ratio::Infinite => "inf".into(),
        Ratio::Exact(q) => short(q),
        Ratio::Certified { lo, hi } => format!("[{}, {}]", short(lo), short(hi)),
    }
}

fn short(q: &Q) -> String {
    format_sig(q, 12)
}
