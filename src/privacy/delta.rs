//! (ε, δ)-differential privacy from the whole law, on a finite output space.
//!
//! A randomized algorithm with finitely many outputs `a` is (ε, δ)-DP iff for
//! every ordered pair of neighbouring inputs `(x, x′)`
//!
//! ```text
//! δ_{x,x′}(ε) = Σ_a (P(a|x) − e^ε P(a|x′))₊  ≤  δ,
//! ```
//!
//! the hockey-stick divergence (Dwork & Roth 2014, §3.5; Balle & Wang 2018,
//! Theorem 5, arXiv:1805.06530): the largest `P(S|x) − e^ε P(S|x′)` over
//! output sets `S` is attained at `S = {a : P(a|x) > e^ε P(a|x′)}`. So
//! `δ(ε) = max_{x,x′} δ_{x,x′}(ε)` is computed from the whole law of both
//! inputs: a small-instance check beside the ratio check (which stays the
//! fast path: `δ(ε) = 0` iff every ratio is `≤ e^ε`).
//!
//! [`largest`] is the one search, generic over [`Real`]: given the laws of
//! the inputs over common outputs, the ordered pairs and `e^ε` in the
//! backend, it returns the pair of largest δ (the witness) and decides
//! `δ(ε) ≤ D`. Each term `P(a|x) − e^ε P(a|x′)` whose sign the backend
//! decides counts when positive; a term whose enclosure straddles 0 (an
//! interval backend) adds nothing to the lower bound and its upper end to
//! the upper bound, so `[lower, upper]` encloses δ of the pair soundly. The
//! [`Exact`](crate::num::Exact) backend (rational laws, rational `e^ε`) and
//! the exact field [`ExpRational`] (laws and `e^ε` in `Q(e^{1/q})`) decide
//! every sign, so their δ is exact.
//!
//! The checks of the command line ([`full_information`], [`one_shot`],
//! [`bandit`]) build the laws (sequences of actions; one selection; pull
//! sequences), run the certified backend at 128 bits doubling to 1024 while
//! the verdict is open, then (full information and one-shot, whose laws of a
//! rational scale lie in the field) the exact field; a verdict still open is
//! `undecided` with the enclosure.
//!
//! # Cost
//!
//! `I` laws over `O` outputs and `P` ordered pairs cost `I·O` probabilities
//! and `P·O` terms (full information: `I = N^t`, `O = K^{choices}`,
//! `P = N^t·t·(N − 1)` with `N = |V|^K`; bandits: `N^T` reward tables over the
//! candidate pull sequences). Runs of more than [`MAX_TERMS`] terms are
//! refused unless forced.
//!
//! ```
//! use dpdtol::num::{Exact, Q, Real};
//! use dpdtol::privacy::delta::largest;
//! use dpdtol::privacy::Verdict;
//! let q = |n: i64, d: i64| Exact::from_rational(&Q::new(n.into(), d.into()), &());
//! // Randomized response with P(truth) = 3/4, at e^ε = 2: δ = 3/4 − 2·1/4 = 1/4.
//! let laws = vec![vec![q(3, 4), q(1, 4)], vec![q(1, 4), q(3, 4)]];
//! let found = largest(&laws, [(0, 1), (1, 0)], &q(2, 1), &Q::new(1.into(), 4.into())).unwrap();
//! assert_eq!(found.lower, q(1, 4));
//! assert_eq!(found.verdict(), Verdict::Private);
//! ```

use super::one_shot::OneShot;
use super::{Problem, Space, Verdict};
use crate::algorithm::{OnlineAlgorithm, SequenceLaw};
use crate::bandit::law::{PullLaw, MAX_WORK, WORK_UNIT};
use crate::error::{Error, Result};
use crate::mechanism::Scale;
use crate::num::{Certified, ExpRational, Kind, Precision, Real, Q};
use num_traits::Signed;
use std::cmp::Ordering;
use std::collections::HashMap;

/// The default limit on the terms `P(a|x) − e^ε P(a|x′)` one check
/// evaluates (ordered pairs times outputs), without `--force`.
pub const MAX_TERMS: u64 = 10_000_000;

/// The certified precisions tried, doubling while the verdict is open.
const PRECISIONS: [u32; 4] = [128, 256, 512, 1024];

/// The precision of the enclosure printed for a δ decided in the exact field.
const EXACT_FIELD_PRECISION: Precision = Precision(256);

/// δ of one ordered pair enclosed in the backend: `lower ≤ δ_{x,x′} ≤ upper`,
/// equal when every term's sign was decided.
#[derive(Clone, Debug)]
struct PairDelta<R> {
    lower: R,
    upper: R,
}

/// `Σ_a (p_a − c·q_a)₊`, enclosed (module documentation).
fn pair_delta<R: Real>(p: &[R], q: &[R], c: &R) -> PairDelta<R> {
    let ctx = c.context();
    let zero = R::from_int(0, &ctx);
    let mut lower = zero.clone();
    let mut upper = zero.clone();
    for (pa, qa) in p.iter().zip(q) {
        let term = pa.clone() - c.clone() * qa;
        match term.cmp_certain(&zero) {
            Some(Ordering::Greater) => {
                lower = lower + &term;
                upper = upper + &term;
            }
            Some(_) => {}
            None => {
                if let Some((_, hi)) = term.enclosure().filter(|(_, hi)| hi.is_positive()) {
                    upper = upper + R::from_rational(&hi, &ctx);
                }
            }
        }
    }
    PairDelta { lower, upper }
}

/// What [`largest`] found: the pair of largest δ (by its lower bound), an
/// enclosure of the maximum, and the decision against the target `D`.
#[derive(Clone, Debug)]
pub struct Found<R> {
    /// The witness pair `(x, x′)`, indices into the laws.
    pub pair: (usize, usize),
    /// A lower bound of the witness's δ (its value when exact), hence of
    /// `δ(ε)`.
    pub lower: R,
    /// An upper bound of the witness's δ.
    pub witness_upper: Q,
    /// An upper bound of `δ(ε)`: the largest upper bound over the pairs.
    pub upper: Q,
    /// Whether some pair's δ is certainly above `D`.
    pub above: bool,
    /// Whether every pair's δ is certainly at most `D`.
    pub within: bool,
    /// The ordered pairs compared.
    pub pairs: u64,
}

impl<R: Real> Found<R> {
    /// `violated` when some pair's δ is certainly above `D`, `private` when
    /// every pair's is certainly at most `D`, else `undecided`.
    pub fn verdict(&self) -> Verdict {
        if self.above {
            Verdict::Violated
        } else if self.within {
            Verdict::Private
        } else {
            Verdict::Undecided
        }
    }
}

/// The largest δ of the ordered `pairs` of inputs whose laws over common
/// outputs are `laws`, against `bound` = e^ε in the backend, decided
/// against the target `target` = D (module documentation). Ties go to the
/// first pair in the order of `pairs`. `None` when there is no pair.
pub fn largest<R: Real>(
    laws: &[Vec<R>],
    pairs: impl IntoIterator<Item = (usize, usize)>,
    bound: &R,
    target: &Q,
) -> Option<Found<R>> {
    let d = R::from_rational(target, &bound.context());
    let mut found: Option<Found<R>> = None;
    for (x, y) in pairs {
        let delta = pair_delta(&laws[x], &laws[y], bound);
        let above = delta.lower.cmp_certain(&d) == Some(Ordering::Greater);
        let within = matches!(
            delta.upper.cmp_certain(&d),
            Some(Ordering::Less | Ordering::Equal)
        );
        let upper = delta
            .upper
            .enclosure()
            .map(|(_, hi)| hi)
            .unwrap_or_default();
        found = Some(match found {
            None => Found {
                pair: (x, y),
                lower: delta.lower,
                witness_upper: upper.clone(),
                upper,
                above,
                within,
                pairs: 1,
            },
            Some(mut f) => {
                f.above |= above;
                f.within &= within;
                f.pairs += 1;
                if upper > f.upper {
                    f.upper = upper.clone();
                }
                if greater(&delta.lower, &f.lower) {
                    f.pair = (x, y);
                    f.lower = delta.lower;
                    f.witness_upper = upper;
                }
                f
            }
        });
    }
    found
}

/// Whether `a` is above `b`: certainly, or (enclosures overlapping) by its
/// lower end.
fn greater<R: Real>(a: &R, b: &R) -> bool {
    match a.cmp_certain(b) {
        Some(order) => order == Ordering::Greater,
        None => {
            let lo = |v: &R| v.enclosure().map(|(lo, _)| lo).unwrap_or_default();
            lo(a) > lo(b)
        }
    }
}

/// The (ε, δ) verdict of a check, with its value and witness pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeltaCheck {
    /// The target `D`: private iff `δ(ε) ≤ D`.
    pub target: Q,
    /// A lower bound of `δ(ε)` (the witness's).
    pub lo: Q,
    /// An upper bound of `δ(ε)`.
    pub hi: Q,
    /// `δ(ε)` as a rational, when it is one and exact.
    pub exact: Option<Q>,
    /// `δ(ε)` in closed form `Σ c·e^λ / Σ c·e^λ`, when decided in the exact
    /// field and not rational.
    pub closed_form: Option<String>,
    /// Exact (every sign decided) or certified.
    pub kind: Kind,
    /// The certified precision (`None` when exact).
    pub precision: Option<Precision>,
    /// `δ(ε)` against `D`.
    pub verdict: Verdict,
    /// The input `x` of the witness pair: one vector a round.
    pub input: Vec<Vec<Q>>,
    /// Its neighbour `x′`.
    pub neighbour: Vec<Vec<Q>>,
    /// The row (from 1) where they differ: the round, unless the table is
    /// read by pull ([`PullLaw::cells`]).
    pub round: usize,
    /// The arm (from 0) of the one entry of that row that differs, when
    /// neighbours replace an entry ([`PullLaw::neighbours_replace_an_entry`]);
    /// `None` when they replace the row.
    pub arm: Option<usize>,
    /// The witness's δ, enclosed.
    pub witness: (Q, Q),
    /// The ordered pairs compared.
    pub pairs: u64,
    /// The outputs of each law.
    pub outputs: u64,
}

/// Refuse a check of `terms` terms past [`MAX_TERMS`] unless forced.
fn guard(terms: Option<u64>, what: &str, force: bool) -> Result<()> {
    match terms {
        Some(n) if n <= MAX_TERMS || force => Ok(()),
        Some(n) => Err(Error::TooLarge(format!(
            "the (ε, δ) check needs the whole law of both inputs of every pair: {what}, {n} terms, over the limit of {MAX_TERMS}; pass --force to run it anyway"
        ))),
        None => Err(Error::TooLarge(format!(
            "the (ε, δ) check needs the whole law of both inputs of every pair: {what}, over 2^64 terms"
        ))),
    }
}

/// [`guard`] for the ordered neighbour pairs of the sequences of `space`,
/// each pair comparing laws over `outputs` outputs; `names` are what the
/// sequences and the outputs are.
fn guard_sequences(
    space: &Space,
    outputs: Option<u64>,
    names: (&str, &str),
    force: bool,
) -> Result<()> {
    let pairs = space.pairs(&(0..space.sequences()));
    guard(
        outputs.and_then(|o| pairs.checked_mul(o)),
        &format!(
            "{pairs} ordered pairs of {}, {} {} each",
            names.0,
            outputs.map_or_else(|| "over 2^64".into(), |o| o.to_string()),
            names.1
        ),
        force,
    )
}

/// A check in one backend: the laws of the inputs, and the ordered pairs
/// `(x, x′, round)` with the round (from 1) each changes.
struct Instance<R> {
    laws: Vec<Vec<R>>,
    pairs: Vec<(usize, usize, usize)>,
}

/// One backend's attempt: the laws are built, searched and decided.
fn attempt<R: Real>(instance: &Instance<R>, bound: &R, target: &Q) -> Result<(Found<R>, usize)> {
    let found = largest(
        &instance.laws,
        instance.pairs.iter().map(|&(x, y, _)| (x, y)),
        bound,
        target,
    )
    .ok_or_else(|| Error::InvalidInput("no pair of neighbouring inputs to compare".into()))?;
    let round = instance
        .pairs
        .iter()
        .find(|&&(x, y, _)| (x, y) == found.pair)
        .map_or(1, |&(_, _, r)| r);
    Ok((found, round))
}

/// The certified passes then, when `field` gives the laws in the exact
/// field, the exact decision; `print(i)` is input `i`.
fn run(
    target: &Q,
    epsilon: &Q,
    outputs: u64,
    certified: &dyn Fn(&Precision) -> Result<Instance<Certified>>,
    field: Option<&dyn Fn() -> Result<Instance<ExpRational>>>,
    print: &dyn Fn(usize) -> Vec<Vec<Q>>,
) -> Result<DeltaCheck> {
    if target.is_negative() {
        return Err(Error::InvalidInput(format!(
            "--delta must be at least 0, got {target}"
        )));
    }
    let mut last = None;
    for bits in PRECISIONS {
        let ctx = Precision(bits);
        let instance = certified(&ctx)?;
        let bound = Certified::from_rational(epsilon, &ctx).exp()?;
        let (found, round) = attempt(&instance, &bound, target)?;
        let decided = found.verdict() != Verdict::Undecided;
        last = Some((found, round, ctx));
        if decided {
            break;
        }
    }
    let (found, round, ctx) = last.ok_or_else(|| Error::Domain("no precision tried".into()))?;
    if found.verdict() == Verdict::Undecided {
        if let Some(field) = field {
            match field() {
                Ok(instance) => {
                    let bound = ExpRational::exp_of(epsilon);
                    let (exact, round) = attempt(&instance, &bound, target)?;
                    let (lo, hi) = exact
                        .lower
                        .enclose(EXACT_FIELD_PRECISION)?
                        .enclosure()
                        .ok_or_else(|| Error::Domain("δ".into()))?;
                    let rational = exact.lower.to_rational();
                    return Ok(DeltaCheck {
                        target: target.clone(),
                        lo: lo.clone(),
                        hi: hi.clone(),
                        closed_form: rational.is_none().then(|| exact.lower.closed_form()),
                        exact: rational,
                        kind: Kind::Exact,
                        precision: None,
                        verdict: exact.verdict(),
                        input: print(exact.pair.0),
                        neighbour: print(exact.pair.1),
                        round,
                        arm: None,
                        witness: (lo, hi),
                        pairs: exact.pairs,
                        outputs,
                    });
                }
                Err(Error::NotRepresentable(_)) => {}
                Err(e) => return Err(e),
            }
        }
    }
    let lo = found
        .lower
        .enclosure()
        .map(|(lo, _)| lo)
        .unwrap_or_default();
    Ok(DeltaCheck {
        target: target.clone(),
        exact: (lo == found.upper).then(|| lo.clone()),
        closed_form: None,
        lo: lo.clone(),
        hi: found.upper.clone(),
        kind: Kind::Certified,
        precision: Some(ctx),
        verdict: found.verdict(),
        input: print(found.pair.0),
        neighbour: print(found.pair.1),
        round,
        arm: None,
        witness: (lo, found.witness_upper.clone()),
        pairs: found.pairs,
        outputs,
    })
}

/// The ordered neighbour pairs of the sequences of `space` (one round's
/// vector replaced), with the round (from 1) each changes.
fn sequence_pairs(space: &Space) -> Vec<(usize, usize, usize)> {
    let (t, n) = (space.horizon, space.vector_count());
    let mut pairs = Vec::new();
    for x in 0..space.sequences() {
        for s in 0..t {
            let old = space.digit(x, s);
            let place = space.powers[t - 1 - s];
            for v in (0..n).filter(|&v| v != old) {
                pairs.push((x as usize, (x - old * place + v * place) as usize, s + 1));
            }
        }
    }
    pairs
}

/// The law of a full-information algorithm's action sequence on `losses`
/// over its support: one probability per tuple of the choices' actions
/// (`K^{choices}`, the first choice most significant), the product of the
/// choices' laws.
fn sequence_law<R: Real, A: OnlineAlgorithm>(
    algorithm: &A,
    losses: &[Vec<Q>],
    ctx: &R::Context,
) -> Result<Vec<R>> {
    let law = SequenceLaw::<R>::of(algorithm, losses, ctx)?;
    Ok(law
        .choices
        .iter()
        .fold(vec![R::from_int(1, ctx)], |acc, (_, choice)| {
            acc.iter()
                .flat_map(|p| choice.iter().map(move |c| p.clone() * c))
                .collect()
        }))
}

/// `δ(ε)` of a full-information algorithm over every ordered pair of
/// neighbouring loss sequences of `problem`, against `target`.
pub fn full_information<A: OnlineAlgorithm>(
    algorithm: &A,
    problem: &Problem,
    target: &Q,
    force: bool,
) -> Result<DeltaCheck> {
    let space = Space::new(algorithm.actions(), problem)?;
    let choices = algorithm.schedule(problem.horizon).len();
    let outputs = (0..choices).try_fold(1u64, |acc, _| acc.checked_mul(space.actions as u64));
    guard_sequences(
        &space,
        outputs,
        ("loss sequences", "action sequences"),
        force,
    )?;
    let pairs = sequence_pairs(&space);
    let certified = |ctx: &Precision| -> Result<Instance<Certified>> {
        Ok(Instance {
            laws: (0..space.sequences())
                .map(|x| sequence_law::<Certified, A>(algorithm, &space.sequence(x), ctx))
                .collect::<Result<_>>()?,
            pairs: pairs.clone(),
        })
    };
    let field = || -> Result<Instance<ExpRational>> {
        Ok(Instance {
            laws: (0..space.sequences())
                .map(|x| sequence_law::<ExpRational, A>(algorithm, &space.sequence(x), &()))
                .collect::<Result<_>>()?,
            pairs: pairs.clone(),
        })
    };
    run(
        target,
        &problem.epsilon,
        outputs.unwrap_or_default(),
        &certified,
        Some(&field),
        &|x| space.sequence(x as u64),
    )
}

/// `δ(ε)` of one report-noisy-max selection over every ordered pair of
/// inputs its neighbour relation allows, against `target`.
pub fn one_shot(problem: &OneShot, target: &Q, force: bool) -> Result<DeltaCheck> {
    let pairs = problem.pairs()?;
    let k = problem.actions as u64;
    guard(
        pairs.checked_mul(k),
        &format!("{pairs} ordered input pairs, {k} actions each"),
        force,
    )?;
    let (inputs, _) = super::loss_vectors(problem.actions, &problem.alphabet)?;
    let pairs: Vec<(usize, usize, usize)> = (0..inputs.len())
        .flat_map(|x| (0..inputs.len()).map(move |y| (x, y)))
        .filter(|&(x, y)| x != y && problem.neighbours.allows(&inputs[x], &inputs[y]))
        .map(|(x, y)| (x, y, 1))
        .collect();
    let scale = Scale::beta(problem.scale.clone())?;
    let certified = |ctx: &Precision| -> Result<Instance<Certified>> {
        Ok(Instance {
            laws: inputs
                .iter()
                .map(|x| crate::mechanism::law::<Certified>(problem.noise, x, &scale, ctx))
                .collect::<Result<_>>()?,
            pairs: pairs.clone(),
        })
    };
    let field = || -> Result<Instance<ExpRational>> {
        Ok(Instance {
            laws: inputs
                .iter()
                .map(|x| crate::mechanism::law::<ExpRational>(problem.noise, x, &scale, &()))
                .collect::<Result<_>>()?,
            pairs: pairs.clone(),
        })
    };
    run(
        target,
        &problem.epsilon,
        k,
        &certified,
        Some(&field),
        &|x| vec![inputs[x].clone()],
    )
}

/// The law of a bandit's pull sequences (in the order of
/// [`PullLaw::sequences`]) on every reward table of `space`, read as the
/// law reads it ([`PullLaw::seen`]), each distinct event computed once.
fn table_laws<R: Real, L: PullLaw>(
    law: &L,
    space: &Space,
    sequences: &[Vec<usize>],
    events: &[L::Event],
    ctx: &R::Context,
) -> Result<Vec<Vec<R>>> {
    use rayon::prelude::*;
    // Each distinct event integrated once, in parallel.
    let values: Vec<R> = events
        .par_iter()
        .map(|e| law.probability::<R>(e, ctx))
        .collect::<Result<_>>()?;
    let value: HashMap<&L::Event, &R> = events.iter().zip(&values).collect();
    (0..space.sequences())
        .map(|x| {
            let table = space.sequence(x);
            sequences
                .iter()
                .map(|pulls| {
                    Ok(match law.event(pulls, &law.seen(pulls, &table))? {
                        None => R::from_int(0, ctx),
                        Some(event) => value
                            .get(&event)
                            .map(|&p| p.clone())
                            .ok_or_else(|| Error::Domain("an event that was not listed".into()))?,
                    })
                })
                .collect()
        })
        .collect()
}

/// The events of every pull sequence on every reward table of `space`,
/// without their probabilities: what [`table_laws`] integrates, once each.
fn seen_events<L: PullLaw>(
    law: &L,
    space: &Space,
    sequences: &[Vec<usize>],
) -> Result<std::collections::HashSet<L::Event>> {
    let mut events = std::collections::HashSet::new();
    for x in 0..space.sequences() {
        let table = space.sequence(x);
        for pulls in sequences {
            if let Some(event) = law.event(pulls, &law.seen(pulls, &table))? {
                events.insert(event);
            }
        }
    }
    Ok(events)
}

/// `δ(ε)` of a bandit algorithm with a closed-form pull law over every
/// ordered pair of neighbouring reward tables of `problem`, against
/// `target`: one row replaced, or one entry when the law says so
/// ([`PullLaw::neighbours_replace_an_entry`]); the learner sees the rewards
/// the law's reading gives ([`PullLaw::seen`]). Certified only (the laws
/// involve `ln t`).
pub fn bandit<L: PullLaw>(
    law: &L,
    problem: &Problem,
    target: &Q,
    force: bool,
) -> Result<DeltaCheck> {
    law.validate()?;
    let space = Space::new(law.arms(), problem)?;
    let outputs = law.sequence_count(problem.horizon);
    guard_sequences(&space, outputs, ("reward tables", "pull sequences"), force)?;
    let sequences = law.sequences(problem.horizon);
    // The integrations' work, estimated on the distinct events before any
    // is integrated (the terms counted above are cheap beside a polyhedral
    // law: Hybrid-UCB's at T = 6 on {0, 1} ran for minutes).
    let events: Vec<L::Event> = seen_events(law, &space, &sequences)?.into_iter().collect();
    let distinct = events.len() as u128;
    let what = format!(
        "the (ε, δ) check of {} on T = {} rounds: the integrations of its {distinct} distinct laws, in {WORK_UNIT}",
        law.name(),
        problem.horizon
    );
    let work = law
        .law_work(problem.horizon)
        .and_then(|w| w.checked_mul(distinct));
    crate::size::work(&what, work, MAX_WORK, force)?;
    let mut pairs = sequence_pairs(&space);
    if law.neighbours_replace_an_entry() {
        pairs.retain(|&(x, y, round)| {
            let vector = |z: usize| &space.vectors[space.digit(z as u64, round - 1) as usize];
            vector(x)
                .iter()
                .zip(vector(y))
                .filter(|(a, b)| a != b)
                .count()
                == 1
        });
    }
    let certified = |ctx: &Precision| -> Result<Instance<Certified>> {
        Ok(Instance {
            laws: table_laws::<Certified, L>(law, &space, &sequences, &events, ctx)?,
            pairs: pairs.clone(),
        })
    };
    let mut check = run(
        target,
        &problem.epsilon,
        sequences.len() as u64,
        &certified,
        None,
        &|x| space.sequence(x as u64),
    )?;
    if law.neighbours_replace_an_entry() {
        let row = check.round - 1;
        check.arm = check.input[row]
            .iter()
            .zip(&check.neighbour[row])
            .position(|(a, b)| a != b);
    }
    Ok(check)
}
