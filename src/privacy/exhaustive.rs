//! The exhaustive check of a full-information algorithm ([`check`]): the
//! size guard, the thread pool, and the passes of the module documentation
//! of [`super`] — exact first, then certified at rising precision, then the
//! exact field for a comparison the intervals leave open.

use super::search::{self, Enclosed};
use super::structure::{self, candidates, Structured};
use super::{
    decide, decide_exactly, Attempt, Method, Options, Outcome, Problem, Ratio, Report, Shard,
    Space, Span, Verdict, Witness, EXACT_FIELD_PRECISION, MAX_THREADS,
};
use crate::error::{Error, Result};
use crate::num::{refine_until, Certified, Exact, ExpRational, Kind, Precision, Real, Q};
use crate::progress::{with_progress, Progress, Task};

/// The largest precision a check raises its certified laws to (and the cap on
/// `precision_bits` in a report read back).
pub const MAX_PRECISION: u32 = 4096;

/// Check ε-DP of `algorithm` on every pair of neighbouring loss sequences of
/// `problem` (of the shard in `options`), by the method of `options`: exact
/// if the laws allow it, else certified at [`Options::start_precision`]; a
/// comparison with `e^ε` the intervals leave open is then decided exactly in
/// the field of [`ExpRational`] (see [`decide_exactly`]), and only if that
/// field cannot hold the laws is the precision raised instead.
///
/// Errors: [`Error::TooLarge`] when the shard has more than
/// [`Options::max_pairs`] pairs (or structural candidates) and `force` is off
/// (the message names the size, `--force` and `--shard`); errors of the
/// algorithm's laws.
pub fn check<A: Structured>(algorithm: &A, problem: &Problem, options: &Options) -> Result<Report> {
    // The size guard runs on numbers: nothing proportional to the size is
    // built before it, so a refused run costs no memory.
    let range = options
        .shard
        .range(item_count(algorithm, problem, options.method)?)?;
    let size = work(algorithm, problem, options.method, &range)?;
    if size > options.max_pairs && !options.force {
        let what = match options.method {
            Method::Structural => "structural candidates (classes of ordered neighbour pairs: changed round, window statistic, old and new vector)".to_string(),
            Method::Enumeration => format!(
                "ordered neighbour pairs ({} loss sequences × {} rounds × {} replacement vectors)",
                range.end - range.start,
                problem.horizon,
                Space::powers(algorithm.actions(), problem)?[1] - 1
            ),
        };
        return Err(Error::TooLarge(format!(
            "the {} check has {size} {what}{}, over the limit of {}; pass --force to run it anyway, or split it with --shard I/N",
            options.method.name(),
            if options.shard == Shard::WHOLE { String::new() } else { format!(" in shard {}", options.shard) },
            options.max_pairs
        )));
    }

    if options.threads == Some(0) {
        return Err(Error::InvalidInput("--threads must be at least 1".into()));
    }
    if let Some(n) = options.threads.filter(|&n| n > MAX_THREADS) {
        return Err(Error::InvalidInput(format!(
            "--threads {n} is over the limit of {MAX_THREADS} (each thread reserves a stack; the work never needs more threads than cores)"
        )));
    }
    let run = || {
        let task = Task {
            name: "privacy",
            unit: match options.method {
                Method::Structural => "candidates",
                Method::Enumeration => "pairs",
            },
        };
        with_progress(options.progress, task, size, |bar| {
            run_check(algorithm, problem, options, bar)
        })
    };
    match options.threads {
        None => run(),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| Error::InvalidInput(format!("cannot start {n} threads: {e}")))?
            .install(run),
    }
}

/// The items a search by `method` splits into shards and units: the loss
/// sequences of the enumeration, or the structural candidates.
pub(super) fn item_count<A: Structured>(
    algorithm: &A,
    problem: &Problem,
    method: Method,
) -> Result<u64> {
    match method {
        Method::Structural => candidates(algorithm, problem),
        Method::Enumeration => Ok(Space::powers(algorithm.actions(), problem)?[problem.horizon]),
    }
}

/// What a search by `method` over the items `range` visits: its structural
/// candidates, or the ordered neighbour pairs of its loss sequences.
fn work<A: Structured>(
    algorithm: &A,
    problem: &Problem,
    method: Method,
    range: &std::ops::Range<u64>,
) -> Result<u64> {
    match method {
        Method::Structural => Ok(range.end - range.start),
        Method::Enumeration => {
            let vectors = Space::powers(algorithm.actions(), problem)?[1];
            Ok(Space::count_pairs(vectors, problem.horizon, range))
        }
    }
}

/// The lower end of `e^ε` enclosed at `bits`: a structural candidate whose
/// upper end reaches it may reach `e^ε` (it survives to the exact field).
fn threshold(epsilon: &Q, bits: &Precision) -> Result<Option<Q>> {
    Ok(Certified::from_rational(epsilon, bits)
        .exp()?
        .enclosure()
        .map(|(lo, _)| lo))
}

/// One search by `method` in backend `R` over the items of `span`; with a
/// `threshold` (the structural method only), also the candidates whose
/// ratio may reach it.
fn attempt<R: Enclosed, A: Structured>(
    algorithm: &A,
    problem: &Problem,
    method: Method,
    span: &Span,
    ctx: &R::Context,
    threshold: Option<&Q>,
    bar: &Progress,
) -> Result<(Attempt, Vec<u64>)> {
    match method {
        Method::Structural => structure::run::<R, A>(algorithm, problem, span, ctx, threshold, bar),
        Method::Enumeration => Ok((
            search::run::<R, A>(algorithm, problem, span, ctx, bar)?,
            Vec::new(),
        )),
    }
}

/// The maximum ratio of the unit `range` of a check's items (the loss
/// sequences of the enumeration, the candidates of the structural method),
/// searched again as its shard's search searched it: in the exact backend
/// when `precision` is `None`, else in the certified backend at `precision`.
/// Deterministic: the largest lower and upper ends do not depend on the
/// order of the pairs. An error when the laws cannot be enclosed there, and
/// [`Error::TooLarge`] for a unit of more than [`super::MAX_PAIRS`] ordered
/// pairs (or candidates): what a shard's report names is not searched
/// beyond the size a check runs without `--force`.
pub fn unit_max<A: Structured>(
    algorithm: &A,
    problem: &Problem,
    method: Method,
    range: std::ops::Range<u64>,
    precision: Option<Precision>,
) -> Result<Ratio> {
    let span = Span::Unit(range);
    let size = work(
        algorithm,
        problem,
        method,
        &span.range(item_count(algorithm, problem, method)?)?,
    )?;
    if size > super::MAX_PAIRS {
        return Err(Error::TooLarge(format!(
            "the unit has {size} {} to search again, over the limit of {}; --spot-check 0 takes the shards' units on trust",
            match method {
                Method::Structural => "structural candidates",
                Method::Enumeration => "ordered pairs",
            },
            super::MAX_PAIRS
        )));
    }
    let bar = Progress::default();
    let searched = match &precision {
        None => attempt::<Exact, A>(algorithm, problem, method, &span, &(), None, &bar),
        Some(bits) => attempt::<Certified, A>(algorithm, problem, method, &span, bits, None, &bar),
    };
    match searched {
        Ok((Attempt::Done(outcome), _)) => Ok(outcome.max_ratio),
        Ok((Attempt::Undetermined(why), _)) | Err(Error::NotRepresentable(why)) => {
            Err(Error::InvalidInput(format!(
                "the unit's laws cannot be enclosed in the report's backend ({why})"
            )))
        }
        Err(e) => Err(e),
    }
}

/// The search in the exact field `Q(e^{1/q})` of the items of `span` that
/// may reach `e^ε`: the structural method's `survivors` of a certified
/// pass (the candidates whose upper end reaches that pass's lower end of
/// `e^ε`; all candidates when no pass completed), or every pair of the
/// enumeration.
fn exact_field_search<A: Structured>(
    algorithm: &A,
    problem: &Problem,
    method: Method,
    span: &Span,
    survivors: Option<&[u64]>,
    bar: &Progress,
) -> Result<Attempt> {
    match (survivors, method) {
        (Some(survivors), Method::Structural) => {
            let size = span.range(candidates(algorithm, problem)?)?;
            structure::run_on::<ExpRational, A>(
                algorithm,
                problem,
                survivors,
                size.end - size.start,
                &(),
            )
        }
        _ => attempt::<ExpRational, A>(algorithm, problem, method, span, &(), None, bar)
            .map(|(a, _)| a),
    }
}

/// The verdict on the unit `range` of a check's items as the check decides
/// a shard whose certified passes leave the comparison with `e^ε` open: a
/// certified pass at `bits` finds the items that may reach `e^ε` (none: the
/// unit is private), then their maximum is searched and compared in the
/// exact field ([`decide_exactly`]). A merge asks it of a unit of a shard
/// that says it is private after such a decision (an attained maximum),
/// where the unit's enclosure does not exclude a ratio above `e^ε`.
pub fn unit_decided_exactly<A: Structured>(
    algorithm: &A,
    problem: &Problem,
    method: Method,
    range: std::ops::Range<u64>,
    bits: Precision,
) -> Result<Verdict> {
    let span = Span::Unit(range);
    let bar = Progress::default();
    // The survivors of a certified pass that completed (one that did not
    // names only some of them: every candidate is searched then).
    let survivors = match method {
        Method::Structural => match attempt::<Certified, A>(
            algorithm,
            problem,
            method,
            &span,
            &bits,
            threshold(&problem.epsilon, &bits)?.as_ref(),
            &bar,
        )? {
            (Attempt::Done(_), survivors) if survivors.is_empty() => return Ok(Verdict::Private),
            (Attempt::Done(_), survivors) => Some(survivors),
            (Attempt::Undetermined(_), _) => None,
        },
        Method::Enumeration => None,
    };
    match exact_field_search(
        algorithm,
        problem,
        method,
        &span,
        survivors.as_deref(),
        &bar,
    ) {
        Ok(Attempt::Done(outcome)) => {
            Ok(decide_exactly(algorithm, &outcome.witness, &problem.epsilon)?.0)
        }
        Ok(Attempt::Undetermined(why)) | Err(Error::NotRepresentable(why)) => {
            Err(Error::InvalidInput(format!(
                "the unit cannot be decided in the exact field ({why})"
            )))
        }
        Err(e) => Err(e),
    }
}

/// The certified pass of a shard decided in the exact field that no
/// certified pass up to `from` completed on: the first to complete at `from`
/// doubled up to [`MAX_PRECISION`], whose units (each enclosing its
/// unit's maximum) the shard carries for a merge to recompute.
/// [`Error::NotRepresentable`] when none completes.
fn units_pass<A: Structured>(
    algorithm: &A,
    problem: &Problem,
    options: &Options,
    span: &Span,
    from: Precision,
    bar: &Progress,
) -> Result<(Box<Outcome>, Vec<u64>, Precision)> {
    let mut bits = from;
    while bits.0 <= MAX_PRECISION {
        bar.stage(&format!("certified units, {} bits", bits.0));
        if let (Attempt::Done(outcome), _) =
            attempt::<Certified, A>(algorithm, problem, options.method, span, &bits, None, bar)?
        {
            return Ok((outcome, Vec::new(), bits));
        }
        bits = Precision(bits.0 * 2);
    }
    Err(Error::NotRepresentable(format!(
        "shard {}: no certified pass up to {} bits encloses every ratio of the shard, so it cannot carry the units a merge recomputes; check it whole (without --shard) or in other shards",
        options.shard,
        MAX_PRECISION
    )))
}

/// The precision up to which certified passes are tried before the
/// comparison with `e^ε` is decided in the exact field.
const FAST_PRECISION: Precision = Precision(512);

fn run_check<A: Structured>(
    algorithm: &A,
    problem: &Problem,
    options: &Options,
    bar: &Progress,
) -> Result<Report> {
    let report = |outcome: Outcome,
                  kind,
                  precision: Option<Precision>,
                  why_not_exact,
                  decided: Option<(Verdict, bool)>|
     -> Result<Report> {
        let hint = precision.map_or(0, |p| p.0);
        let (verdict, bound) = decide(&outcome.max_ratio, &problem.epsilon, hint)?;
        let (verdict, attained) = decided.unwrap_or((verdict, false));
        Ok(Report {
            problem: problem.clone(),
            actions: algorithm.actions(),
            max_ratio: outcome.max_ratio,
            witness: outcome.witness,
            verdict,
            attained,
            bound,
            pairs: outcome.pairs,
            kind,
            precision,
            shard: options.shard,
            why_not_exact,
            method: options.method,
            units: outcome.units,
            units_precision: None,
        })
    };
    let span = Span::Shard(options.shard);
    bar.stage("exact");
    let why_not_exact =
        match attempt::<Exact, A>(algorithm, problem, options.method, &span, &(), None, bar) {
            Ok((Attempt::Done(outcome), _)) => {
                return report(*outcome, Kind::Exact, None, None, None)
            }
            Ok((Attempt::Undetermined(why), _)) | Err(Error::NotRepresentable(why)) => why,
            Err(e) => return Err(e),
        };
    // Certified passes, doubling the precision up to FAST_PRECISION.
    let cap = options.max_precision.max(options.start_precision);
    let mut bits = options.start_precision;
    let mut open: Option<(Box<Outcome>, Vec<u64>, Precision)> = None;
    loop {
        bar.stage(&format!("certified, {} bits", bits.0));
        let threshold = threshold(&problem.epsilon, &bits)?;
        if let (Attempt::Done(outcome), survivors) = attempt::<Certified, A>(
            algorithm,
            problem,
            options.method,
            &span,
            &bits,
            threshold.as_ref(),
            bar,
        )? {
            let (verdict, _) = decide(&outcome.max_ratio, &problem.epsilon, bits.0)?;
            if verdict != Verdict::Undecided {
                return report(
                    *outcome,
                    Kind::Certified,
                    Some(bits),
                    Some(why_not_exact),
                    None,
                );
            }
            open = Some((outcome, survivors, bits));
        }
        if bits >= FAST_PRECISION.min(cap) {
            break;
        }
        bits = Precision((bits.0 * 2).min(FAST_PRECISION.min(cap).0));
    }
    bar.stage("exact in Q(e^(1/q))");
    let survivors = open.as_ref().map(|(_, survivors, _)| survivors.as_slice());
    let exact_field = exact_field_search(algorithm, problem, options.method, &span, survivors, bar);
    // The units of the last certified pass, kept by a shard decided on its
    // witness: they enclose the maximum, at that pass's precision.
    match exact_field {
        Ok(Attempt::Done(outcome)) => {
            let (verdict, attained, max_ratio) =
                decide_exactly(algorithm, &outcome.witness, &problem.epsilon)?;
            let decided = Some((verdict, attained));
            // A shard carries units whatever decided it: when no certified
            // pass completed before the exact decision, one above them
            // encloses the units.
            let open = match open {
                None if span.keeps_units() => Some(units_pass(
                    algorithm,
                    problem,
                    options,
                    &span,
                    Precision(bits.0 * 2),
                    bar,
                )?),
                open => open,
            };
            let certified_units = open
                .as_ref()
                .map(|(outcome, _, bits)| (outcome.units.clone(), *bits));
            // Strictly below e^ε: the certified pass's enclosure of the
            // maximum (over every candidate) stands, with its witness.
            if let (Verdict::Private, false, Some((certified, _, bits))) = (verdict, attained, open)
            {
                return report(
                    *certified,
                    Kind::Certified,
                    Some(bits),
                    Some(why_not_exact),
                    decided,
                );
            }
            let (units, units_precision) = match certified_units {
                Some((units, bits)) if !units.is_empty() => (units, Some(bits)),
                _ => (Vec::new(), None),
            };
            let outcome = Outcome {
                max_ratio: max_ratio.clone(),
                witness: Witness {
                    ratio: max_ratio,
                    ..outcome.witness
                },
                pairs: outcome.pairs,
                units,
            };
            return report(
                outcome,
                Kind::Certified,
                Some(EXACT_FIELD_PRECISION),
                Some(why_not_exact),
                decided,
            )
            .map(|r| Report {
                units_precision,
                ..r
            });
        }
        Ok(Attempt::Undetermined(_)) | Err(Error::NotRepresentable(_)) => {}
        Err(e) => return Err(e),
    }
    let refined = refine_until(
        Precision((bits.0 * 2).min(cap.0)),
        cap,
        |bits| {
            bar.stage(&format!("certified, {} bits", bits.0));
            match attempt::<Certified, A>(
                algorithm,
                problem,
                options.method,
                &span,
                &bits,
                None,
                bar,
            )?
            .0
            {
                Attempt::Done(outcome) => {
                    let (verdict, _) = decide(&outcome.max_ratio, &problem.epsilon, bits.0)?;
                    Ok(Ok((outcome, verdict)))
                }
                Attempt::Undetermined(why) => Ok(Err(why)),
            }
        },
        |attempt| matches!(attempt, Ok((_, verdict)) if *verdict != Verdict::Undecided),
    )?;
    match refined.value {
        Ok((outcome, _)) => report(
            *outcome,
            Kind::Certified,
            Some(refined.precision),
            Some(why_not_exact),
            None,
        ),
        Err(why) => Err(Error::NotRepresentable(format!(
            "at {} bits, {why}; the privacy ratio cannot be enclosed",
            refined.precision.0
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::{AlgorithmId, Config};
    use crate::mechanism::Noise;

    /// The units of a shard decided in the exact field with no certified
    /// pass before: Wu & Wang's algorithm with exponential noise of scale
    /// 4, K = 2, t = 5, ε = 1/2 (its maximum e^ε attained), shard 2 of 3 of
    /// its structural candidates, units from 1024 bits. The pass completes
    /// at 1024 bits, one unit per sub-range of the shard, each unit what a
    /// merge's recomputation at that precision gives, and their fold meets
    /// the exact maximum e^(1/2) (so a merge's check of the units holds).
    #[test]
    fn a_units_pass_gives_the_units_a_merge_recomputes() {
        let half = Q::new(1.into(), 2.into());
        let mut config = Config::new(AlgorithmId::WuWang, 2, half.clone());
        config.noise = Some(Noise::Exponential);
        config.noise_scale = Some(Q::from_integer(4.into()));
        let algorithm = config.build().unwrap();
        let alphabet = vec![Q::from_integer(0.into()), Q::from_integer(1.into())];
        let problem = Problem::new(5, alphabet, half.clone()).unwrap();
        let options = Options {
            shard: Shard::new(2, 3).unwrap(),
            ..Options::default()
        };
        let span = Span::Shard(options.shard);
        let (outcome, _, bits) = units_pass(
            &algorithm,
            &problem,
            &options,
            &span,
            Precision(1024),
            &Progress::default(),
        )
        .unwrap();
        assert_eq!(bits, Precision(1024));
        let range = options
            .shard
            .range(item_count(&algorithm, &problem, Method::Structural).unwrap())
            .unwrap();
        let ranges = super::super::units_of(&range);
        assert_eq!(outcome.units.len(), ranges.len());
        for (unit, r) in outcome.units.iter().zip(ranges) {
            let again = unit_max(&algorithm, &problem, Method::Structural, r, Some(bits)).unwrap();
            assert_eq!(*unit, again);
        }
        let folded = super::super::fold(&outcome.units).unwrap();
        let bound = Certified::from_rational(&half, &Precision(256))
            .exp()
            .unwrap();
        let (lo, hi) = bound.enclosure().unwrap();
        assert!(folded.lo().unwrap() <= &hi && &lo <= folded.hi().unwrap());
    }
}
