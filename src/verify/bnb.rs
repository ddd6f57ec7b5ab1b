//! Interval branch-and-bound: certify `f(x) ≥ 0` (or `f(x) > 0`) for every
//! point `x` of a box `Π [loᵢ, hiᵢ]` with rational ends.
//!
//! `f` is evaluated in [`Certified`] interval arithmetic, so its value on a
//! box *encloses* `f` over the whole box (the inclusion property of interval
//! arithmetic). The prover keeps a work-list of pieces of the box and, for
//! each piece `X`:
//!
//! 1. evaluates `f(X)`; a lower end on the right side of zero proves `X`;
//! 2. if the claim supplies the gradient, tries the *mean-value form*
//!    ```text
//!    f(X) ⊆ f(c) + Σᵢ ∂ᵢf(X) · (Xᵢ − cᵢ)
//!    ```
//!    with the corner `cᵢ = loᵢ` where `∂ᵢf(X) ≥ 0`, `cᵢ = hiᵢ` where
//!    `∂ᵢf(X) ≤ 0` (the midpoint otherwise), so every product is `≥ 0` when
//!    the partial derivatives have a sign. This proves pieces that touch a
//!    point where the inequality is tight (`f(c) = 0` exactly, as `1 − e⁻⁰`),
//!    which the plain evaluation never can;
//! 3. evaluates `f` at the piece's midpoint (a point interval): a value
//!    certainly on the wrong side is a counterexample, **refuted**, and the
//!    point is returned with its enclosure;
//! 4. otherwise bisects the piece along the coordinate that is widest relative
//!    to the domain's width in that coordinate.
//!
//! It stops **undecided**, with the piece where it stopped, when the budget of
//! pieces is spent or a piece reaches the depth limit: an inequality that is
//! an equality at an interior point (a tangency) ends there, never in a false
//! "proved". The pieces of one bisection depth are examined in parallel
//! (rayon) and merged in order, so the verdict, the witness and the counts
//! are the same whatever the thread count.
//!
//! Unbounded domains are not boxes: a claim reduces them with a *checked
//! argument* — [`beyond`] proves `g ≥ 0` on `[K₀, ∞)` from `g(K₀) ≥ 0` and
//! the sign of `g′`, itself proved by branch-and-bound in `u = 1/K ∈
//! [0, 1/K₀]`; other claims compactify a variable (`u = e^{−z}`). The parts
//! of a proof are [`Step`]s, and [`conclude`] turns them into an
//! [`Outcome`]: a refuted step of the claim itself refutes it, a failed step
//! of the argument leaves it undecided.
//!
//! ```
//! use dpdtol::num::{Certified, Real, Q};
//! use dpdtol::verify::bnb::{prove, Options, Problem, Sense, Verdict};
//! // 1 − e^{−x} ≥ x/2 on [0, 1] (Cesari & Colomboni, Lemma 2 (i)); tight at 0,
//! // so the derivative e^{−x} − 1/2 is supplied for the mean-value form.
//! let f = |x: &[Certified]| {
//!     let one = Certified::from_int(1, &x[0].context());
//!     let half = Certified::from_rational(&Q::new(1.into(), 2.into()), &x[0].context());
//!     Ok(one - (-x[0].clone()).exp()? - half * &x[0])
//! };
//! let df = |x: &[Certified]| {
//!     let half = Certified::from_rational(&Q::new(1.into(), 2.into()), &x[0].context());
//!     Ok(vec![(-x[0].clone()).exp()? - half])
//! };
//! let problem = Problem::new(&["x"], vec![(Q::from_integer(0.into()), Q::from_integer(1.into()))], Sense::NonNegative, &f)
//!     .unwrap()
//!     .with_gradient(&df);
//! assert!(matches!(prove(&problem, &Options::default()).verdict, Verdict::Proved));
//! ```

use crate::error::{Error, Result};
use crate::num::{format_sig, Certified, Endpoint, Precision, Real, Q};
use crate::verify::Outcome;
use num_traits::{One, Zero};
use rayon::prelude::*;
use serde_json::{json, Map, Value};
use std::cmp::Ordering;

/// A real function evaluated by interval arithmetic: given intervals `Xᵢ`, an
/// interval that contains `f(x)` for every `x ∈ Π Xᵢ`, or an error (a
/// logarithm of an interval that is not positive, a division by an interval
/// that contains zero — see [`div`]).
pub type Function<'a> = &'a (dyn Fn(&[Certified]) -> Result<Certified> + Sync);

/// The gradient of a [`Function`], enclosed in the same way: one interval per
/// coordinate, each containing `∂ᵢf(x)` for every `x` of the box.
pub type Gradient<'a> = &'a (dyn Fn(&[Certified]) -> Result<Vec<Certified>> + Sync);

/// Which inequality is claimed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sense {
    /// `f(x) ≥ 0` (a closed inequality): a piece is proved when the lower end
    /// of its enclosure is `≥ 0`, a point refutes when the upper end is `< 0`.
    NonNegative,
    /// `f(x) > 0` (an open inequality): proved when the lower end is `> 0`,
    /// refuted when the upper end is `≤ 0`.
    Positive,
}

impl Sense {
    fn proves(self, value: &Certified) -> bool {
        let sign = value.lo().signum();
        match self {
            Sense::NonNegative => sign != Ordering::Less,
            Sense::Positive => sign == Ordering::Greater,
        }
    }

    fn refutes(self, value: &Certified) -> bool {
        let sign = value.hi().signum();
        match self {
            Sense::NonNegative => sign == Ordering::Less,
            Sense::Positive => sign != Ordering::Greater,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Sense::NonNegative => "≥",
            Sense::Positive => ">",
        }
    }
}

/// A claim `f(x) ≥ 0` (or `> 0`) for every `x` in a box with rational ends.
pub struct Problem<'a> {
    names: Vec<&'static str>,
    domain: Vec<(Q, Q)>,
    sense: Sense,
    f: Function<'a>,
    gradient: Option<Gradient<'a>>,
}

impl<'a> Problem<'a> {
    /// The claim `f(x) sense 0` on `Π [loᵢ, hiᵢ]`, the coordinates named by
    /// `names` (for the witness). An error when the lengths differ or an
    /// interval is empty. A domain with no coordinate is a constant claim:
    /// one evaluation decides it.
    pub fn new(
        names: &[&'static str],
        domain: Vec<(Q, Q)>,
        sense: Sense,
        f: Function<'a>,
    ) -> Result<Self> {
        if names.len() != domain.len() {
            return Err(Error::InvalidInput(format!(
                "{} coordinate names for a box of dimension {}",
                names.len(),
                domain.len()
            )));
        }
        if let Some((lo, hi)) = domain.iter().find(|(lo, hi)| lo > hi) {
            return Err(Error::InvalidInput(format!("empty interval [{lo}, {hi}]")));
        }
        Ok(Problem {
            names: names.to_vec(),
            domain,
            sense,
            f,
            gradient: None,
        })
    }

    /// Use the gradient for the mean-value form (step 2 of the module doc).
    pub fn with_gradient(mut self, gradient: Gradient<'a>) -> Self {
        self.gradient = Some(gradient);
        self
    }
}

/// Budget and precision of a proof.
#[derive(Clone, Debug)]
pub struct Options {
    /// The largest number of pieces examined before giving up (undecided).
    pub max_pieces: usize,
    /// The deepest bisection: a piece at this depth that is not proved stops
    /// the search (undecided). Each level halves one coordinate.
    pub max_depth: usize,
    /// The working precision of the interval arithmetic.
    pub precision: Precision,
}

impl Default for Options {
    /// 200 000 pieces, depth 64, 128 bits.
    fn default() -> Self {
        Options {
            max_pieces: 200_000,
            max_depth: 64,
            precision: Precision(128),
        }
    }
}

/// How a proof ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Every piece was proved: the inequality holds on the whole box.
    Proved,
    /// A point where `f` is certainly on the wrong side of zero.
    Refuted {
        /// The point, in rationals.
        point: Vec<Q>,
        /// The enclosure `(lo, hi)` of `f` at the point.
        value: (Q, Q),
    },
    /// Neither: the budget or the depth limit was reached.
    Undecided {
        /// The piece where the search stopped.
        piece: Vec<(Q, Q)>,
        /// The enclosure of `f` on it, when it could be evaluated.
        value: Option<(Q, Q)>,
        /// Why it stopped.
        reason: String,
    },
}

/// The result of [`prove`]: the verdict and the counts for the evidence.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// How the search ended.
    pub verdict: Verdict,
    /// Pieces examined in all.
    pub examined: usize,
    /// Pieces proved (the leaves of the bisection tree when proved).
    pub proved: usize,
    /// The deepest bisection level reached.
    pub depth: usize,
    /// Of the plain evaluations and mean-value forms that proved a piece,
    /// the smallest lower end: a certified lower bound of `f` over the union
    /// of the proved pieces (the whole box when proved).
    pub lower_bound: Option<Q>,
}

/// What examining one piece gave.
enum Examined {
    Proved(Q),
    Refuted(Vec<Q>, (Q, Q)),
    Split(Vec<(Q, Q)>, Vec<(Q, Q)>),
    Stuck(Option<(Q, Q)>, String),
}

fn interval(lo: &Q, hi: &Q, precision: Precision) -> Result<Certified> {
    Certified::from_bounds(lo, hi, precision)
}

fn enclosure(value: &Certified) -> (Q, Q) {
    (value.lo().to_rational(), value.hi().to_rational())
}

/// The mean-value form of the module doc on `piece`, whose intervals are `x`.
fn mean_value(
    problem: &Problem<'_>,
    gradient: Gradient<'_>,
    piece: &[(Q, Q)],
    x: &[Certified],
    precision: Precision,
) -> Result<Certified> {
    let slopes = gradient(x)?;
    if slopes.len() != piece.len() {
        return Err(Error::InvalidInput(format!(
            "a gradient of {} components for a box of dimension {}",
            slopes.len(),
            piece.len()
        )));
    }
    let corner: Vec<Q> = piece
        .iter()
        .zip(&slopes)
        .map(|((lo, hi), slope)| {
            if slope.lo().signum() != Ordering::Less {
                lo.clone()
            } else if slope.hi().signum() != Ordering::Greater {
                hi.clone()
            } else {
                (lo + hi) / Q::from_integer(2.into())
            }
        })
        .collect();
    let at_corner: Vec<Certified> = corner
        .iter()
        .map(|c| interval(c, c, precision))
        .collect::<Result<_>>()?;
    let mut value = (problem.f)(&at_corner)?;
    for ((xi, ci), slope) in x.iter().zip(&at_corner).zip(slopes) {
        value = value + slope * (xi.clone() - ci);
    }
    Ok(value)
}

fn examine(
    problem: &Problem<'_>,
    piece: &[(Q, Q)],
    depth: usize,
    options: &Options,
) -> Result<Examined> {
    let precision = options.precision;
    let x: Vec<Certified> = piece
        .iter()
        .map(|(lo, hi)| interval(lo, hi, precision))
        .collect::<Result<_>>()?;
    let mut last = None;
    let mut failure = String::new();
    match (problem.f)(&x) {
        Ok(value) if problem.sense.proves(&value) => {
            return Ok(Examined::Proved(value.lo().to_rational()))
        }
        Ok(value) => last = Some(enclosure(&value)),
        Err(e) => failure = format!("the evaluation on the piece failed: {e}"),
    }
    if let Some(gradient) = problem.gradient {
        match mean_value(problem, gradient, piece, &x, precision) {
            Ok(value) if problem.sense.proves(&value) => {
                return Ok(Examined::Proved(value.lo().to_rational()))
            }
            Ok(_) => {}
            Err(e) => failure = format!("the mean-value form failed: {e}"),
        }
    }
    let two = Q::from_integer(2.into());
    let mid: Vec<Q> = piece.iter().map(|(lo, hi)| (lo + hi) / &two).collect();
    let at_mid: Vec<Certified> = mid
        .iter()
        .map(|m| interval(m, m, precision))
        .collect::<Result<_>>()?;
    if let Ok(value) = (problem.f)(&at_mid) {
        if problem.sense.refutes(&value) {
            return Ok(Examined::Refuted(mid, enclosure(&value)));
        }
    }
    // Bisect the coordinate widest relative to the domain's width there.
    let widest = piece
        .iter()
        .zip(&problem.domain)
        .enumerate()
        .filter(|(_, ((lo, hi), (dlo, dhi)))| hi > lo && dhi > dlo)
        .map(|(i, ((lo, hi), (dlo, dhi)))| (i, (hi - lo) / (dhi - dlo)))
        .fold(None::<(usize, Q)>, |best, (i, w)| match best {
            Some((_, ref bw)) if *bw >= w => best,
            _ => Some((i, w)),
        });
    let reason = |why: &str| {
        if failure.is_empty() {
            why.to_string()
        } else {
            format!("{why}; {failure}")
        }
    };
    match widest {
        None => Ok(Examined::Stuck(
            last,
            reason("a single point whose enclosure straddles zero"),
        )),
        Some(_) if depth >= options.max_depth => Ok(Examined::Stuck(
            last,
            reason(&format!(
                "the depth limit {} was reached without a sign",
                options.max_depth
            )),
        )),
        Some((i, _)) => {
            let mut left = piece.to_vec();
            let mut right = piece.to_vec();
            left[i].1 = mid[i].clone();
            right[i].0 = mid[i].clone();
            Ok(Examined::Split(left, right))
        }
    }
}

/// Run the branch-and-bound of the module doc on `problem`.
///
/// Deterministic: the pieces of each depth are examined in parallel and
/// merged in their order, and the first refuting piece in that order wins.
pub fn prove(problem: &Problem<'_>, options: &Options) -> Report {
    let mut level = vec![problem.domain.clone()];
    let mut examined = 0usize;
    let mut proved = 0usize;
    let mut lower_bound: Option<Q> = None;
    let mut depth = 0usize;
    loop {
        if examined + level.len() > options.max_pieces {
            let piece = level.swap_remove(0);
            return Report {
                verdict: Verdict::Undecided {
                    piece,
                    value: None,
                    reason: format!(
                        "the budget of {} pieces was spent with {} pieces open at depth {depth}",
                        options.max_pieces,
                        level.len() + 1
                    ),
                },
                examined,
                proved,
                depth,
                lower_bound,
            };
        }
        let results: Vec<Result<Examined>> = level
            .par_iter()
            .map(|piece| examine(problem, piece, depth, options))
            .collect();
        examined += level.len();
        let mut next = Vec::new();
        for (piece, result) in level.iter().zip(results) {
            let stop = |verdict| Report {
                verdict,
                examined,
                proved,
                depth,
                lower_bound: lower_bound.clone(),
            };
            match result {
                Ok(Examined::Proved(lo)) => {
                    proved += 1;
                    if lower_bound.as_ref().is_none_or(|b| lo < *b) {
                        lower_bound = Some(lo);
                    }
                }
                Ok(Examined::Refuted(point, value)) => {
                    return stop(Verdict::Refuted { point, value })
                }
                Ok(Examined::Split(left, right)) => {
                    next.push(left);
                    next.push(right);
                }
                Ok(Examined::Stuck(value, reason)) => {
                    return stop(Verdict::Undecided {
                        piece: piece.clone(),
                        value,
                        reason,
                    })
                }
                Err(e) => {
                    return stop(Verdict::Undecided {
                        piece: piece.clone(),
                        value: None,
                        reason: format!("the piece could not be built: {e}"),
                    })
                }
            }
        }
        if next.is_empty() {
            return Report {
                verdict: Verdict::Proved,
                examined,
                proved,
                depth,
                lower_bound,
            };
        }
        level = next;
        depth += 1;
    }
}

/// `a / b`, or [`Error::Domain`] when `b` may be zero (interval division by
/// an interval that contains zero is a precondition violation of [`Real`]).
pub fn div(a: Certified, b: &Certified) -> Result<Certified> {
    if b.lo().signum() == Ordering::Greater || b.hi().signum() == Ordering::Less {
        Ok(a / b)
    } else {
        Err(Error::Domain(format!(
            "division by {b:?}, which may be zero"
        )))
    }
}

/// The rational `n/d` at the precision of `like` (constants inside a
/// [`Function`]).
pub fn ratio(n: i64, d: i64, like: &Certified) -> Certified {
    Certified::from_rational(&Q::new(n.into(), d.into()), &like.context())
}

/// The role of a [`Step`] in a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The claim itself on part of its domain: a refutation refutes the claim.
    Claim,
    /// A step of the argument that extends the claim (a derivative's sign, a
    /// tail bound): if it fails, the claim is only undecided.
    Argument,
}

/// One part of a proof: what it shows, its role, and its report.
#[derive(Clone, Debug)]
pub struct Step {
    /// What the step proves, with its domain (`"f ≥ 0 on x ∈ [0, 1]"`).
    pub label: String,
    /// Whether a refutation of the step refutes the claim.
    pub role: Role,
    /// The branch-and-bound report.
    pub report: Report,
    names: Vec<&'static str>,
    sense: Sense,
}

impl Step {
    /// Prove `problem` and label the step.
    pub fn run(
        label: impl Into<String>,
        role: Role,
        problem: &Problem<'_>,
        options: &Options,
    ) -> Step {
        Step {
            label: label.into(),
            role,
            report: prove(problem, options),
            names: problem.names.clone(),
            sense: problem.sense,
        }
    }

    fn point_json(&self, point: &[Q]) -> Value {
        let mut map = Map::new();
        for (name, q) in self.names.iter().zip(point) {
            map.insert((*name).to_string(), json!(q.to_string()));
        }
        Value::Object(map)
    }

    fn witness(&self) -> Option<Value> {
        let pair = |(lo, hi): &(Q, Q)| json!([format_sig(lo, 30), format_sig(hi, 30)]);
        match &self.report.verdict {
            Verdict::Proved => None,
            Verdict::Refuted { point, value } => {
                let mut witness = json!({ "step": self.label, "value": pair(value) });
                // A closed expression (no variable) has no point to name.
                if !point.is_empty() {
                    witness["point"] = self.point_json(point);
                    witness["point_decimal"] =
                        json!(point.iter().map(|q| format_sig(q, 30)).collect::<Vec<_>>());
                }
                Some(witness)
            }
            Verdict::Undecided { piece, value, .. } => {
                let mut map = Map::new();
                for (name, (lo, hi)) in self.names.iter().zip(piece) {
                    map.insert((*name).to_string(), json!([lo.to_string(), hi.to_string()]));
                }
                Some(json!({
                    "step": self.label,
                    "piece": Value::Object(map),
                    "value": value.as_ref().map_or(Value::Null, pair),
                }))
            }
        }
    }

    fn summary(&self) -> String {
        let r = &self.report;
        let bound = r
            .lower_bound
            .as_ref()
            .map(|b| format!(", f ≥ {}", format_sig(b, 6)))
            .unwrap_or_default();
        match &r.verdict {
            Verdict::Proved => format!(
                "{}: proved on {} piece{} (depth {}{bound})",
                self.label,
                r.proved,
                if r.proved == 1 { "" } else { "s" },
                r.depth
            ),
            Verdict::Refuted { point, value } => {
                // A closed expression (no variable) has no point to name.
                let at = if point.is_empty() {
                    "false: its value".to_string()
                } else {
                    format!(
                        "false at {} where f",
                        self.names
                            .iter()
                            .zip(point)
                            .map(|(n, q)| format!("{n} = {}", format_sig(q, 12)))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                format!(
                    "{}: {at} ∈ [{}, {}], certainly not {} 0 (found at piece {})",
                    self.label,
                    format_sig(&value.0, 8),
                    format_sig(&value.1, 8),
                    self.sense.symbol(),
                    r.examined
                )
            }
            Verdict::Undecided { reason, .. } => format!(
                "{}: undecided after {} pieces ({} proved, depth {}): {reason}",
                self.label, r.examined, r.proved, r.depth
            ),
        }
    }
}

/// The outcome of a proof made of `steps`, with `argument` (the exact
/// reductions the steps rely on, in words) at the head of the evidence:
/// refuted by the first refuted [`Role::Claim`] step, certified when every
/// step is proved, undecided otherwise (the first open step's piece as the
/// witness).
pub fn conclude(argument: &str, steps: &[Step]) -> Outcome {
    let lines: Vec<String> = steps.iter().map(Step::summary).collect();
    let detail = if argument.is_empty() {
        lines.join("; ")
    } else {
        format!("{argument} {}", lines.join("; "))
    };
    if let Some(step) = steps
        .iter()
        .find(|s| s.role == Role::Claim && matches!(s.report.verdict, Verdict::Refuted { .. }))
    {
        let witness = step.witness().unwrap_or(Value::Null);
        return Outcome::refuted(format!("Refuted: {detail}"), witness);
    }
    match steps
        .iter()
        .find(|s| !matches!(s.report.verdict, Verdict::Proved))
    {
        None => Outcome::certified(format!("Certified: {detail}")),
        Some(open) => Outcome::undecided(format!("Undecided: {detail}"), open.witness()),
    }
}

/// A checked argument for a one-variable claim tight at the left end `a`
/// to second order (where the mean-value form of [`prove`] cannot decide):
/// `g ≥ 0` (or `> 0`) on `[a, b]` follows from
///
/// * `g(a) sense 0` — a one-point branch-and-bound, role [`Role::Claim`];
/// * `g′ ≥ 0` on `[a, b]` — branch-and-bound of the derivative the claim
///   supplies, with `g″` for its mean-value form when given, role
///   [`Role::Argument`]. Then `g(x) ≥ g(a)` (mean value theorem).
#[allow(clippy::too_many_arguments)]
pub fn nondecreasing_from(
    name: &'static str,
    a: &Q,
    b: &Q,
    sense: Sense,
    g: Function<'_>,
    derivative: Function<'_>,
    second: Option<Gradient<'_>>,
    options: &Options,
) -> Result<[Step; 2]> {
    let at_a = Problem::new(&[name], vec![(a.clone(), a.clone())], sense, g)?;
    let mut slope = Problem::new(
        &[name],
        vec![(a.clone(), b.clone())],
        Sense::NonNegative,
        derivative,
    )?;
    if let Some(second) = second {
        slope = slope.with_gradient(second);
    }
    Ok([
        Step::run(
            format!("g({name} = {a}) {} 0", sense.symbol()),
            Role::Claim,
            &at_a,
            options,
        ),
        Step::run(
            format!("g′ ≥ 0 on {name} ∈ [{a}, {b}]"),
            Role::Argument,
            &slope,
            options,
        ),
    ])
}

/// A checked argument for the unbounded part of a one-variable domain:
/// `g(K) ≥ 0` (or `> 0`) for every `K ≥ K₀` follows from
///
/// * `g(K₀) ≥ 0` — a one-point branch-and-bound, role [`Role::Claim`]; and
/// * `g′(K) ≥ 0` for every `K ≥ K₀`, shown through `s(u)`, a function the
///   claim derives with the sign of `g′(1/u)` that stays finite at `u = 0`
///   (typically `K·g′(K)` written in `u = 1/K`): `s ≥ 0` is proved by
///   branch-and-bound on the closed `u ∈ [0, 1/K₀]`, role
///   [`Role::Argument`]. Then `g` is nondecreasing on `[K₀, ∞)` (mean value
///   theorem), so `g(K) ≥ g(K₀)`.
///
/// `k0` must be positive. The two steps are returned for [`conclude`].
pub fn beyond(
    name: &'static str,
    k0: &Q,
    sense: Sense,
    g: Function<'_>,
    sign_of_derivative: Function<'_>,
    options: &Options,
) -> Result<[Step; 2]> {
    if *k0 <= Q::zero() {
        return Err(Error::InvalidInput(format!(
            "the tail argument needs K₀ > 0, not {k0}"
        )));
    }
    let at_k0 = Problem::new(&[name], vec![(k0.clone(), k0.clone())], sense, g)?;
    let derivative = Problem::new(
        &["u"],
        vec![(Q::zero(), Q::one() / k0)],
        Sense::NonNegative,
        sign_of_derivative,
    )?;
    Ok([
        Step::run(
            format!("g({name} = {k0}) {} 0", sense.symbol()),
            Role::Claim,
            &at_k0,
            options,
        ),
        Step::run(
            format!("g′ ≥ 0 for {name} ≥ {k0} (its sign function on u = 1/{name} ∈ [0, 1/{k0}])"),
            Role::Argument,
            &derivative,
            options,
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Status;

    fn q(n: i64, d: i64) -> Q {
        Q::new(n.into(), d.into())
    }

    fn unit() -> (Q, Q) {
        (q(0, 1), q(1, 1))
    }

    /// `f` at a rational point, evaluated afresh at 512 bits: the
    /// independent check of a witness.
    fn at_point(f: Function<'_>, point: &[Q]) -> Certified {
        let x: Vec<Certified> = point
            .iter()
            .map(|p| Certified::from_rational(p, &Precision(512)))
            .collect();
        f(&x).expect("the witness point is in the domain")
    }

    fn assert_refuted(report: &Report, f: Function<'_>) -> Vec<Q> {
        let Verdict::Refuted { point, value } = &report.verdict else {
            panic!("not refuted: {report:?}");
        };
        assert!(
            value.1 < Q::zero(),
            "the enclosure {value:?} is not certainly negative"
        );
        let again = at_point(f, point);
        assert_eq!(
            again.hi().signum(),
            Ordering::Less,
            "the witness {point:?} does not check: {again:?}"
        );
        point.clone()
    }

    // ln(1 + x) ≥ c · x/(1 + x) on [0, 1]; tight at 0 for c = 1.
    fn log_bound(c: Q) -> impl Fn(&[Certified]) -> Result<Certified> + Sync {
        move |x: &[Certified]| {
            let one = ratio(1, 1, &x[0]);
            let c = Certified::from_rational(&c, &x[0].context());
            let t = x[0].clone();
            Ok((one.clone() + &t).ln()? - c * div(t.clone(), &(one + &t))?)
        }
    }

    fn log_slope(c: Q) -> impl Fn(&[Certified]) -> Result<Vec<Certified>> + Sync {
        // d/dx [ln(1+x) − c·x/(1+x)] = (1 + x − c)/(1 + x)².
        move |x: &[Certified]| {
            let one = ratio(1, 1, &x[0]);
            let c = Certified::from_rational(&c, &x[0].context());
            let s = one + &x[0];
            Ok(vec![div(s.clone() - c, &(s.clone() * &s))?])
        }
    }

    #[test]
    fn a_tight_logarithmic_bound_is_certified_and_a_slightly_stronger_one_refuted() {
        let (f, df) = (log_bound(q(1, 1)), log_slope(q(1, 1)));
        let p = Problem::new(&["x"], vec![unit()], Sense::NonNegative, &f)
            .unwrap()
            .with_gradient(&df);
        let report = prove(&p, &Options::default());
        assert_eq!(report.verdict, Verdict::Proved, "{report:?}");
        assert!(report.proved >= 1 && report.lower_bound == Some(q(0, 1)));
        // Without the derivative the tight end at 0 is never proved.
        let plain = Problem::new(&["x"], vec![unit()], Sense::NonNegative, &f).unwrap();
        let small = Options {
            max_pieces: 2_000,
            ..Options::default()
        };
        assert!(matches!(
            prove(&plain, &small).verdict,
            Verdict::Undecided { .. }
        ));
        // ×(1 + 10⁻³) on the right: false for x < about 0.002.
        let (g, dg) = (log_bound(q(1001, 1000)), log_slope(q(1001, 1000)));
        let p = Problem::new(&["x"], vec![unit()], Sense::NonNegative, &g)
            .unwrap()
            .with_gradient(&dg);
        let x = assert_refuted(&prove(&p, &Options::default()), &g);
        assert!(x[0] < q(1, 500));
    }

    // e^{−x} ≤ (1 − x + x²/2)·c − d on [0, 1], as g = rhs − e^{−x} ≥ 0.
    fn taylor(c: Q, d: Q) -> impl Fn(&[Certified]) -> Result<Certified> + Sync {
        move |x: &[Certified]| {
            let t = &x[0];
            let c = Certified::from_rational(&c, &t.context());
            let d = Certified::from_rational(&d, &t.context());
            let poly = ratio(1, 1, t) - t + ratio(1, 2, t) * t * t;
            Ok(poly * c - d - (-t.clone()).exp()?)
        }
    }

    #[test]
    fn a_second_order_tight_bound_is_certified_through_its_derivative() {
        let g = taylor(q(1, 1), q(0, 1));
        // g′ = −1 + x + e^{−x}, g″ = 1 − e^{−x}.
        let dg = |x: &[Certified]| Ok(ratio(-1, 1, &x[0]) + &x[0] + (-x[0].clone()).exp()?);
        let ddg = |x: &[Certified]| Ok(vec![ratio(1, 1, &x[0]) - (-x[0].clone()).exp()?]);
        let steps = nondecreasing_from(
            "x",
            &q(0, 1),
            &q(1, 1),
            Sense::NonNegative,
            &g,
            &dg,
            Some(&ddg),
            &Options::default(),
        )
        .unwrap();
        let outcome = conclude("", &steps);
        assert_eq!(outcome.status, Status::Certified, "{}", outcome.detail);
        // Off by ×(1 − 10⁻³) and by −10⁻⁴: refuted, by the argument's first
        // step and by plain branch-and-bound alike.
        for (c, d) in [(q(999, 1000), q(0, 1)), (q(1, 1), q(1, 10_000))] {
            let bad = taylor(c.clone(), d.clone());
            let steps = nondecreasing_from(
                "x",
                &q(0, 1),
                &q(1, 1),
                Sense::NonNegative,
                &bad,
                &dg,
                Some(&ddg),
                &Options::default(),
            )
            .unwrap();
            assert_refuted(&steps[0].report, &bad);
            let outcome = conclude("", &steps);
            assert_eq!(
                outcome.status,
                Status::Refuted,
                "{c} {d}: {}",
                outcome.detail
            );
            let plain = Problem::new(&["x"], vec![unit()], Sense::NonNegative, &bad).unwrap();
            assert_refuted(&prove(&plain, &Options::default()), &bad);
        }
    }

    // e^{x − t} ≥ 1 + (x − t) on [0, 1] (or > with `strict`): equality at x = t.
    fn tangent(t: Q) -> impl Fn(&[Certified]) -> Result<Certified> + Sync {
        move |x: &[Certified]| {
            let s = x[0].clone() - Certified::from_rational(&t, &x[0].context());
            Ok(s.exp()? - ratio(1, 1, &x[0]) - s)
        }
    }

    fn tangent_slope(t: Q) -> impl Fn(&[Certified]) -> Result<Vec<Certified>> + Sync {
        move |x: &[Certified]| {
            let s = x[0].clone() - Certified::from_rational(&t, &x[0].context());
            Ok(vec![s.exp()? - ratio(1, 1, &x[0])])
        }
    }

    #[test]
    fn an_inequality_tight_at_an_interior_point_is_never_certified_falsely() {
        let small = Options {
            max_pieces: 5_000,
            max_depth: 40,
            ..Options::default()
        };
        // Tight at 1/3, which no bisection point reaches: undecided, with the
        // open piece containing 1/3.
        let (f, df) = (tangent(q(1, 3)), tangent_slope(q(1, 3)));
        let p = Problem::new(&["x"], vec![unit()], Sense::NonNegative, &f)
            .unwrap()
            .with_gradient(&df);
        let Verdict::Undecided { piece, .. } = prove(&p, &small).verdict else {
            panic!("a tangency was decided");
        };
        assert!(piece[0].0 <= q(1, 3) && q(1, 3) <= piece[0].1, "{piece:?}");
        // (x − 1/3)² ≥ 0 by plain evaluation: undecided too.
        let square = |x: &[Certified]| {
            let s = x[0].clone() - ratio(1, 3, &x[0]);
            Ok(s.clone() * s)
        };
        let p = Problem::new(&["x"], vec![unit()], Sense::NonNegative, &square).unwrap();
        assert!(matches!(
            prove(&p, &small).verdict,
            Verdict::Undecided { .. }
        ));
        // Tight at 1/2, a bisection point where f is exactly 0: the closed
        // claim is true and certified by the mean-value form; the strict one
        // is false and refuted at 1/2 itself.
        let (f, df) = (tangent(q(1, 2)), tangent_slope(q(1, 2)));
        let closed = Problem::new(&["x"], vec![unit()], Sense::NonNegative, &f)
            .unwrap()
            .with_gradient(&df);
        assert_eq!(prove(&closed, &small).verdict, Verdict::Proved);
        let strict = Problem::new(&["x"], vec![unit()], Sense::Positive, &f)
            .unwrap()
            .with_gradient(&df);
        let Verdict::Refuted { point, value } = prove(&strict, &small).verdict else {
            panic!("a strict claim false at 1/2 was not refuted");
        };
        assert_eq!((point, value), (vec![q(1, 2)], (q(0, 1), q(0, 1))));
    }

    // ln(1 + xy)·c ≥ xy/(1 + xy) + d on [0, 1]²; tight on the edges for c = 1, d = 0.
    fn product_bound(c: Q, d: Q) -> impl Fn(&[Certified]) -> Result<Certified> + Sync {
        move |x: &[Certified]| {
            let one = ratio(1, 1, &x[0]);
            let t = x[0].clone() * &x[1];
            let c = Certified::from_rational(&c, &x[0].context());
            let d = Certified::from_rational(&d, &x[0].context());
            Ok((one.clone() + &t).ln()? * c - div(t.clone(), &(one + &t))? - d)
        }
    }

    fn product_gradient(c: Q) -> impl Fn(&[Certified]) -> Result<Vec<Certified>> + Sync {
        // ∂/∂x = y·(c(1 + t) − 1)/(1 + t)², t = xy; symmetric in y.
        move |x: &[Certified]| {
            let one = ratio(1, 1, &x[0]);
            let s = one.clone() + &(x[0].clone() * &x[1]);
            let c = Certified::from_rational(&c, &x[0].context());
            let common = div(c * &s - one, &(s.clone() * &s))?;
            Ok(vec![x[1].clone() * &common, x[0].clone() * &common])
        }
    }

    #[test]
    fn two_dimensional_boxes() {
        let (f, df) = (product_bound(q(1, 1), q(0, 1)), product_gradient(q(1, 1)));
        let p = Problem::new(&["x", "y"], vec![unit(), unit()], Sense::NonNegative, &f)
            .unwrap()
            .with_gradient(&df);
        let report = prove(&p, &Options::default());
        assert_eq!(report.verdict, Verdict::Proved, "{report:?}");
        for (c, d) in [(q(999, 1000), q(0, 1)), (q(1, 1), q(1, 10_000))] {
            let (g, dg) = (product_bound(c.clone(), d.clone()), product_gradient(c));
            let p = Problem::new(&["x", "y"], vec![unit(), unit()], Sense::NonNegative, &g)
                .unwrap()
                .with_gradient(&dg);
            let point = assert_refuted(&prove(&p, &Options::default()), &g);
            assert_eq!(point.len(), 2);
        }
    }

    #[test]
    fn an_unbounded_domain_by_a_checked_tail_argument() {
        // c·ln K ≥ ln(K + 1) for K ≥ 2 holds iff c ≥ ln 3/ln 2 ≈ 1.58496:
        // branch-and-bound on [2, 64], then the tail: K·g′(K) = c − K/(K + 1)
        // = c − 1/(1 + u) with u = 1/K.
        let run = |c: Q| {
            let cc = c.clone();
            let g = move |x: &[Certified]| {
                let one = ratio(1, 1, &x[0]);
                let c = Certified::from_rational(&cc, &x[0].context());
                Ok(c * x[0].ln()? - (x[0].clone() + one).ln()?)
            };
            let sign = move |u: &[Certified]| {
                let one = ratio(1, 1, &u[0]);
                let c = Certified::from_rational(&c, &u[0].context());
                Ok(c - div(one.clone(), &(one + &u[0]))?)
            };
            let options = Options::default();
            let body =
                Problem::new(&["K"], vec![(q(2, 1), q(64, 1))], Sense::NonNegative, &g).unwrap();
            let mut steps = vec![Step::run("g ≥ 0 on [2, 64]", Role::Claim, &body, &options)];
            steps.extend(beyond("K", &q(64, 1), Sense::NonNegative, &g, &sign, &options).unwrap());
            let witness = match &steps[0].report.verdict {
                Verdict::Refuted { point, .. } => Some(at_point(&g, point)),
                _ => None,
            };
            (conclude("", &steps), witness)
        };
        let (outcome, _) = run(q(1585, 1000));
        assert_eq!(outcome.status, Status::Certified, "{}", outcome.detail);
        let (outcome, witness) = run(q(1585, 1000) * q(999, 1000));
        assert_eq!(outcome.status, Status::Refuted, "{}", outcome.detail);
        assert_eq!(witness.unwrap().hi().signum(), Ordering::Less);
        // A claim true at K₀ whose derivative has the wrong sign is not
        // certified by the tail argument: 5 − ln K ≥ 0 fails beyond e⁵.
        let g = |x: &[Certified]| Ok(ratio(5, 1, &x[0]) - x[0].ln()?);
        let sign = |u: &[Certified]| Ok(ratio(-1, 1, &u[0]));
        let steps = beyond(
            "K",
            &q(2, 1),
            Sense::NonNegative,
            &g,
            &sign,
            &Options::default(),
        )
        .unwrap();
        let outcome = conclude("", &steps);
        assert_eq!(outcome.status, Status::Undecided, "{}", outcome.detail);
    }

    #[test]
    fn constants_and_guards() {
        // A constant claim: 2 − 1/ln 2 > 0 is one evaluation.
        let f = |_: &[Certified]| {
            let two = Certified::from_int(2, &Precision(128));
            Ok(two.clone() - div(Certified::from_int(1, &Precision(128)), &two.ln()?)?)
        };
        let p = Problem::new(&[], vec![], Sense::Positive, &f).unwrap();
        let report = prove(&p, &Options::default());
        assert_eq!((report.verdict, report.examined), (Verdict::Proved, 1));
        let zero = Certified::from_bounds(&q(-1, 1), &q(1, 1), Precision(64)).unwrap();
        assert!(div(zero.clone(), &zero).is_err());
        assert!(Problem::new(&["x"], vec![(q(1, 1), q(0, 1))], Sense::Positive, &f).is_err());
        assert!(Problem::new(&["x", "y"], vec![unit()], Sense::Positive, &f).is_err());
    }

    #[test]
    fn the_verdict_does_not_depend_on_the_thread_count() {
        let (f, df) = (
            product_bound(q(999, 1000), q(0, 1)),
            product_gradient(q(999, 1000)),
        );
        let p = Problem::new(&["x", "y"], vec![unit(), unit()], Sense::NonNegative, &f)
            .unwrap()
            .with_gradient(&df);
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| prove(&p, &Options::default()))
        };
        assert_eq!(run(1), run(2));
    }
}
