//! The methods behind the explicit-constant claims of the papers' proofs
//! (`ww_appendix.rs`, `hu_proofs.rs`, `cc_proofs.rs`): each turns a display
//! into a check that decides it, and says in its evidence what it decided.
//!
//! * [`identity`] — an identity of rational functions (or of the integers
//!   `2^r` written as a variable), decided exactly: the two sides, cleared of
//!   their denominators, are polynomials of a stated degree in each variable,
//!   so agreement on a grid with one more point per variable than that
//!   degree proves them equal everywhere (method `exact-algebra`);
//! * [`ray`] — a polynomial inequality `p(x) ≥ 0` on a whole ray `x ≥ a`,
//!   decided exactly: the coefficients of `p(a + y)` (the Taylor shift) are
//!   all nonnegative, so `p(a + y) ≥ 0` for every `y ≥ 0`;
//! * [`false_at`] — a printed display that is false, refuted exactly at a
//!   rational point (the witness);
//! * [`steps`] / [`ineq`] / [`constant`] — interval branch-and-bound
//!   ([`crate::verify::bnb`]) on boxes, with constants as one certified
//!   evaluation;
//! * [`ceiling_bracket`] — the property `x ≤ 2^{⌈log₂ x⌉} < 2x` (`x > 0`) on
//!   which every "take `r = ⌈log₂(…)⌉`" step of the papers rests;
//! * [`halving_series`] — `Σ_{ℓ≥1} 2^{−(ℓ−1)} = 2`, from the exact partial
//!   sums `2 − 2^{1−n}`.

use crate::error::Result;
use crate::num::{Certified, Precision, Real, Q};
use crate::verify::bnb::{conclude, Function, Gradient, Options, Problem, Role, Sense, Step};
use crate::verify::{Outcome, Paper, Source};
use num_traits::{One, Zero};
use serde_json::{json, Map, Value};

/// Where a claim is printed.
pub(super) fn at(paper: Paper, number: &'static str, context: &'static str) -> Source {
    Source {
        paper,
        number,
        context,
    }
}

/// The rational `n/d`.
pub(super) fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

/// `2^k` as a rational, for any integer `k`.
pub(super) fn two_pow(k: i64) -> Q {
    let p = Q::from_integer(num_bigint::BigInt::from(2).pow(k.unsigned_abs() as u32));
    if k >= 0 {
        p
    } else {
        p.recip()
    }
}

/// The integer part of a grid coordinate that stands for an integer (0
/// when it does not fit an `i64`, which no grid here reaches).
pub(super) fn int_of(x: &Q) -> i64 {
    x.to_integer().try_into().unwrap_or(0)
}

/// `2^{k+1}` for a grid coordinate `x = 2^k` (`k ≥ 0`), computed from the
/// exponent `k`, not from `x`, so that `2^{k+1} = 2x` is a real check.
pub(super) fn next_power(x: &Q) -> Q {
    two_pow(i64::from(int_of(x).trailing_zeros()) + 1)
}

/// A rational function of the grid point (the side of an identity).
pub(super) type Side<'a> = &'a dyn Fn(&[Q]) -> Q;

fn point_json(names: &[&str], point: &[Q]) -> Value {
    let mut map = Map::new();
    for (name, value) in names.iter().zip(point) {
        map.insert((*name).to_string(), json!(value.to_string()));
    }
    Value::Object(map)
}

/// The cartesian product of `axes`.
pub(super) fn grid(axes: &[Vec<Q>]) -> Vec<Vec<Q>> {
    axes.iter().fold(vec![Vec::new()], |points, axis| {
        points
            .iter()
            .flat_map(|p| {
                axis.iter().map(move |v| {
                    let mut p = p.clone();
                    p.push(v.clone());
                    p
                })
            })
            .collect()
    })
}

/// `k` distinct small rationals `1, 2, …, k` scaled by `1/3` (a grid axis
/// for a polynomial of degree `< k`).
pub(super) fn axis(k: i64) -> Vec<Q> {
    (1..=k).map(|i| q(i, 3)).collect()
}

/// The identity `lhs = rhs` checked exactly at every point of `points`.
///
/// `degree` is the argument, in words, that agreement on these points
/// proves the identity everywhere (the degrees of the two sides after
/// clearing denominators); it heads the evidence. A point where the sides
/// differ refutes, with the point and both values as the witness.
pub(super) fn identity(
    degree: &str,
    names: &[&str],
    points: &[Vec<Q>],
    lhs: Side<'_>,
    rhs: Side<'_>,
) -> Result<Outcome> {
    for p in points {
        let (l, r) = (lhs(p), rhs(p));
        if l != r {
            return Ok(Outcome::refuted(
                format!("the two sides differ: {l} against {r}"),
                json!({"point": point_json(names, p), "lhs": l.to_string(), "relation": "≠", "rhs": r.to_string()}),
            ));
        }
    }
    Ok(Outcome::certified(format!(
        "Certified by exact algebra: {degree} The two sides agree exactly (rational arithmetic) at all {} points of the grid, so they are the same function.",
        points.len()
    )))
}

/// How a printed display compares its two sides.
#[derive(Clone, Copy, Debug)]
pub(super) enum Rel {
    /// `lhs = rhs`.
    Eq,
    /// `lhs ≤ rhs`.
    Le,
    /// `lhs < rhs`.
    Lt,
}

impl Rel {
    fn holds(self, l: &Q, r: &Q) -> bool {
        match self {
            Rel::Eq => l == r,
            Rel::Le => l <= r,
            Rel::Lt => l < r,
        }
    }

    /// The relation that holds when `self` fails.
    fn negation(self) -> &'static str {
        match self {
            Rel::Eq => "≠",
            Rel::Le => ">",
            Rel::Lt => "≥",
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Rel::Eq => "=",
            Rel::Le => "≤",
            Rel::Lt => "<",
        }
    }
}

/// A printed display `lhs rel rhs` evaluated exactly at the rational
/// `point`: refuted there when the relation fails (the witness), otherwise
/// undecided (one point proves nothing).
pub(super) fn false_at(
    names: &[&str],
    point: &[Q],
    lhs: Side<'_>,
    rel: Rel,
    rhs: Side<'_>,
) -> Outcome {
    let (l, r) = (lhs(point), rhs(point));
    let at: Vec<String> = names
        .iter()
        .zip(point)
        .map(|(n, v)| format!("{n} = {v}"))
        .collect();
    if rel.holds(&l, &r) {
        Outcome::undecided(
            format!(
                "at {} the display holds ({l} {} {r}); one point decides nothing",
                at.join(", "),
                rel.symbol()
            ),
            None,
        )
    } else {
        Outcome::refuted(
            format!(
                "False, exactly: at {} the left side is {l} and the right side {r}, so `{l} {} {r}` fails.",
                at.join(", "),
                rel.symbol()
            ),
            json!({"point": point_json(names, point), "lhs": l.to_string(), "relation": rel.negation(), "rhs": r.to_string()}),
        )
    }
}

/// The outcomes of the parts of one argument: the first part that is not
/// certified decides, otherwise the argument is certified with every part's
/// evidence in order.
pub(super) fn all_of(parts: Vec<Outcome>) -> Outcome {
    if let Some(failed) = parts
        .iter()
        .find(|o| o.status != crate::verify::Status::Certified)
    {
        return failed.clone();
    }
    let details: Vec<&str> = parts.iter().map(|o| o.detail.as_str()).collect();
    Outcome::certified(details.join(" — "))
}

/// `p(x) = Σ cᵢ xⁱ ≥ 0` for every real `x ≥ a`, by the Taylor shift: the
/// coefficients of `p(a + y)` are computed exactly and are all `≥ 0`.
/// Undecided (not refuted) when one is negative, with `p(a)` in the detail.
pub(super) fn ray(what: &str, a: &Q, coefficients: &[Q]) -> Outcome {
    // Horner's scheme on polynomials: p(a + y) = (…(c_n (a + y) + c_{n−1})(a + y) …).
    let mut shifted: Vec<Q> = Vec::new();
    for c in coefficients.iter().rev() {
        // shifted ← shifted · (a + y) + c
        let mut next = vec![Q::zero(); shifted.len() + 1];
        for (i, s) in shifted.iter().enumerate() {
            next[i] += s * a;
            next[i + 1] += s;
        }
        next[0] += c;
        shifted = next;
    }
    let text: Vec<String> = shifted.iter().map(ToString::to_string).collect();
    if shifted.iter().all(|c| *c >= Q::zero()) {
        Outcome::certified(format!(
            "Certified by exact algebra: {what}; with x = {a} + y the polynomial has the coefficients ({}) in y = x − {a} ≥ 0 (Taylor shift, exact), all nonnegative.",
            text.join(", ")
        ))
    } else {
        Outcome::undecided(
            format!(
                "{what}: the shifted coefficients ({}) are not all nonnegative; the method cannot decide",
                text.join(", ")
            ),
            None,
        )
    }
}

/// `f sense 0` on the box `domain` by branch-and-bound, as a step of a
/// proof with the given role.
pub(super) fn ineq(
    label: &str,
    role: Role,
    names: &[&'static str],
    domain: Vec<(Q, Q)>,
    sense: Sense,
    f: Function<'_>,
    gradient: Option<Gradient<'_>>,
) -> Result<Step> {
    let mut problem = Problem::new(names, domain, sense, f)?;
    if let Some(g) = gradient {
        problem = problem.with_gradient(g);
    }
    Ok(Step::run(label, role, &problem, &Options::default()))
}

/// A constant `value > 0`, one certified evaluation.
pub(super) fn constant(
    label: &str,
    role: Role,
    value: &(dyn Fn(&Precision) -> Result<Certified> + Sync),
) -> Result<Step> {
    let precision = Options::default().precision;
    let f = |_: &[Certified]| value(&precision);
    let problem = Problem::new(&[], vec![], Sense::Positive, &f)?;
    Ok(Step::run(label, role, &problem, &Options::default()))
}

/// The certified `n/d` at `precision`.
pub(super) fn c(n: i64, d: i64, precision: &Precision) -> Certified {
    Certified::from_rational(&q(n, d), precision)
}

/// The outcome of `steps` with the exact reductions they rest on.
pub(super) fn steps(argument: &str, steps: Result<Vec<Step>>) -> Result<Outcome> {
    Ok(conclude(argument, &steps?))
}

/// `x ≤ 2^{⌈log₂ x⌉} < 2x` for every real `x > 0`.
///
/// Both `x` and `2^{⌈log₂ x⌉}` double when `x` doubles, so it suffices to
/// take `x ∈ (1, 2]`, where `⌈log₂ x⌉ = 1`: the claim is `x ≤ 2 < 2x`,
/// i.e. `2 − x ≥ 0` on `[1, 2]` and `2x − 2 > 0` on `(1, 2]` — the second
/// is proved as `2x − 2 ≥ 0` on `[1, 2]`, with equality only at `x = 1`,
/// which is not in `(1, 2]`. The two steps are branch-and-bound steps of
/// the argument (their failure would leave a claim undecided).
pub(super) fn ceiling_bracket() -> Result<Vec<Step>> {
    let upper = |x: &[Certified]| Ok(Certified::from_int(2, &x[0].context()) - x[0].clone());
    let lower = |x: &[Certified]| {
        Ok(Certified::from_int(2, &x[0].context()) * &x[0]
            - Certified::from_int(2, &x[0].context()))
    };
    Ok(vec![
        ineq(
            "x ≤ 2^{⌈log₂ x⌉}: 2 − x ≥ 0 on x ∈ [1, 2] (x ↦ 2x reduces every x > 0 to (1, 2])",
            Role::Argument,
            &["x"],
            vec![(q(1, 1), q(2, 1))],
            Sense::NonNegative,
            &upper,
            None,
        )?,
        ineq(
            "2^{⌈log₂ x⌉} < 2x: 2x − 2 ≥ 0 on x ∈ [1, 2], zero only at x = 1 ∉ (1, 2]",
            Role::Argument,
            &["x"],
            vec![(q(1, 1), q(2, 1))],
            Sense::NonNegative,
            &lower,
            None,
        )?,
    ])
}

/// `Σ_{ℓ=1}^{n} 2^{−(ℓ−1)} = 2 − 2^{1−n}` for every `n ≥ 1` (so the series
/// is 2), by induction checked exactly: the base `n = 1` and the step
/// `S(n) + 2^{−n} = S(n + 1)`, an identity of degree 1 in `y = 2^{−n}`
/// (`2 − 2y + y = 2 − y`), checked at two values of `y`.
pub(super) fn halving_series() -> std::result::Result<(), String> {
    let base_lhs = Q::one();
    let base_rhs = q(2, 1) - two_pow(0);
    if base_lhs != base_rhs {
        return Err(format!("base: {base_lhs} ≠ {base_rhs}"));
    }
    for y in [q(1, 2), q(1, 4)] {
        let (s_n, s_next) = (q(2, 1) - q(2, 1) * &y, q(2, 1) - &y);
        if s_n.clone() + &y != s_next {
            return Err(format!("step at y = {y}: {s_n} + {y} ≠ {s_next}"));
        }
    }
    Ok(())
}

/// The dyadic blocks `{2^{r−1} + 1, …, 2^r}` (`r ≥ 1`): block `r` has
/// `2^{r−1}` elements and block `r + 1` starts right after block `r` ends,
/// so the blocks `r ≥ r₀` tile the integers `≥ 2^{r₀−1} + 1`. Identities in
/// `x = 2^{r−1}` of degree 1, checked exactly at two values of `x`.
pub(super) fn dyadic_blocks() -> std::result::Result<(), String> {
    for x in [q(1, 1), q(2, 1)] {
        let (first, last) = (x.clone() + Q::one(), q(2, 1) * &x);
        if last.clone() - &first + Q::one() != x {
            return Err(format!(
                "block of x = {x} has {} elements",
                last - first + Q::one()
            ));
        }
        let next_first = q(2, 1) * &x + Q::one();
        if next_first != last.clone() + Q::one() {
            return Err(format!(
                "block after x = {x} starts at {next_first}, not {}",
                last + Q::one()
            ));
        }
    }
    Ok(())
}

/// An exact argument (a closure returning `Err` with the failing case) as
/// the whole check: certified with `what`, or refuted with the failure.
pub(super) fn exactly(what: &str, check: std::result::Result<(), String>) -> Outcome {
    match check {
        Ok(()) => Outcome::certified(format!("Certified by exact algebra: {what}")),
        Err(e) => Outcome::refuted(
            format!("the exact check failed: {e}"),
            json!({"failure": e}),
        ),
    }
}

/// The claim's own step `what` (one sentence, named first so that the
/// evidence line says which step it is), by `Σ_{r=1}^{R} 2^{r−1} = 2^R − 1`
/// for every `R ≥ 1`, by induction: the base `R = 1` and the step `(x − 1)
/// + x = 2x − 1` in `x = 2^R` (degree 1, two points).
pub(super) fn doubling_sum(what: &str) -> Outcome {
    let check = (|| {
        if Q::one() != two_pow(1) - Q::one() {
            return Err("base R = 1".to_string());
        }
        for x in [q(2, 1), q(4, 1)] {
            if (x.clone() - Q::one()) + &x != q(2, 1) * &x - Q::one() {
                return Err(format!("step at 2^R = {x}"));
            }
        }
        Ok(())
    })();
    exactly(
        &format!("{what} — by the doubling sum Σ_{{r=1}}^{{R}} 2^{{r−1}} = 2^R − 1, by induction: the base R = 1 (1 = 2 − 1) and the step (2^R − 1) + 2^R = 2^{{R+1}} − 1, an identity of degree 1 in x = 2^R, checked exactly at x ∈ {{2, 4}}."),
        check,
    )
}

/// Hoeffding's exponent `2u²/Σ(b_s − a_s)²` at the deviation `u = nΔ/2`
/// against `nΔ²/k`, for a sum over `n` indices each contributing
/// `per_index` to `Σ(b_s − a_s)²`: `4` for `n` independent differences in
/// `[−1, 1]` (Hu et al. L735 print `k = 8`), `2` for the `2n` independent
/// summands `X_{s,j} ∈ [0, 1]` and `−X_{s,1} ∈ [−1, 0]` when the actions are
/// independent (Wu & Wang L477 print `k = 4`).
pub(super) fn hoeffding_exponent(per_index: i64, k: i64) -> Result<Outcome> {
    let points = grid(&[axis(3), axis(3)]);
    identity(
        &format!("both sides times 8n are polynomials of degree ≤ 2 in n and in Δ, and Σ(b_s − a_s)² = {per_index}n is summed term by term at each integer n of the grid (n = 1, 2, 3 with Δ ∈ {{1/3, 2/3, 1}})."),
        &["n", "Δ"],
        &points
            .iter()
            .map(|p| vec![p[0].clone() * q(3, 1), p[1].clone()])
            .collect::<Vec<_>>(),
        &|p: &[Q]| {
            let n = int_of(&p[0]);
            let u = p[0].clone() * &p[1] / q(2, 1);
            let sum: Q = (0..n).map(|_| q(per_index, 1)).sum();
            q(2, 1) * &u * &u / sum
        },
        &|p: &[Q]| p[0].clone() * &p[1] * &p[1] / q(k, 1),
    )
}

/// `(T·√(L/T))² = T·L` and `(L/√(L/T))² = T·L`: both sides are positive, so
/// the squares decide (the critical gap of Wu & Wang L557–L559 and Hu et
/// al. L303, L578).
pub(super) fn critical_gap(what: &str, square: fn(&[Q]) -> Q) -> Result<Outcome> {
    identity(
        &format!("{what}: both sides are positive, so equal iff their squares are; the squares are T²(L/T) (or L²/(L/T)) and TL, rational functions whose numerators after clearing T have degree ≤ 2 in T and in L (grid T, L ∈ {{1/3, 2/3, 1}})."),
        &["T", "L = log K"],
        &grid(&[axis(3), axis(3)]),
        &square,
        &|p: &[Q]| p[0].clone() * &p[1],
    )
}

/// The law of a binomial `B(n, p)`: `P(X = k)` for `k = 0..n`, exactly, by
/// the ratio `P(k + 1)/P(k) = (n − k)p/((k + 1)(1 − p))` (from `P(0) =
/// (1 − p)^n`; for `p = 1` the point mass at `n`).
pub(super) fn binomial(n: u32, p: &Q) -> Vec<Q> {
    let one = Q::one();
    if *p == one {
        let mut law = vec![Q::zero(); n as usize + 1];
        law[n as usize] = one;
        return law;
    }
    let mut law = Vec::with_capacity(n as usize + 1);
    let mut term = num_traits::pow::pow(one.clone() - p, n as usize);
    for k in 0..=n {
        law.push(term.clone());
        term = term * Q::from_integer((n - k).into()) * p
            / (Q::from_integer((k + 1).into()) * (one.clone() - p));
    }
    law
}

/// A certified value at a precision (one side of an instance comparison).
pub(super) type Certain<'a> = &'a dyn Fn(&Precision) -> Result<Certified>;

/// The cases of an instance-grid claim `value ≤ bound`, each decided on
/// certified enclosures at 128 bits, then 512 and 2048 when they overlap.
/// The smallest relative margin `1 − value/bound` (f64, only to name the
/// tightest case) is reported.
#[derive(Default)]
pub(super) struct Cases {
    checked: usize,
    tightest: Option<(f64, String)>,
    failure: Option<(String, Value)>,
    open: Option<String>,
}

impl Cases {
    /// Decide `value ≤ bound` on `case`.
    pub(super) fn at_most(
        &mut self,
        case: String,
        value: Certain<'_>,
        bound: Certain<'_>,
    ) -> Result<()> {
        if self.failure.is_some() {
            return Ok(());
        }
        self.checked += 1;
        for bits in [128, 512, 2048] {
            let precision = Precision(bits);
            let (v, b) = (value(&precision)?, bound(&precision)?);
            match v.cmp_certain(&b) {
                Some(std::cmp::Ordering::Greater) => {
                    self.failure = Some((
                        format!(
                            "{case}: the value {} exceeds the bound {}",
                            show(&v),
                            show(&b)
                        ),
                        json!({"case": case, "lhs": show(&v), "relation": ">", "rhs": show(&b)}),
                    ));
                    return Ok(());
                }
                Some(_) => {
                    let margin = 1.0 - v.to_f64() / b.to_f64();
                    if self.tightest.as_ref().is_none_or(|(m, _)| margin < *m) {
                        self.tightest =
                            Some((margin, format!("{case}: {} ≤ {}", show(&v), show(&b))));
                    }
                    return Ok(());
                }
                _ => {}
            }
        }
        self.open.get_or_insert(case);
        Ok(())
    }

    /// The outcome: refuted by the first failing case, undecided by an open
    /// one, otherwise holds on the `grid`.
    pub(super) fn outcome(self, grid: &str) -> Outcome {
        if let Some((detail, witness)) = self.failure {
            return Outcome::refuted(format!("Refuted on the grid ({grid}): {detail}."), witness);
        }
        if let Some(case) = self.open {
            return Outcome::undecided(
                format!("{case}: the enclosures still overlap at 2048 bits"),
                None,
            );
        }
        let tight = self.tightest.map_or(String::new(), |(m, text)| {
            format!("; the tightest case (smallest relative margin {m:.3e}): {text}")
        });
        Outcome::holds(format!(
            "holds on all {} cases of the grid ({grid}), each decided on separated certified enclosures{tight}",
            self.checked
        ))
    }
}

/// A certified value as text: its enclosure to 12 significant digits.
fn show(x: &Certified) -> String {
    match x.enclosure() {
        Some((lo, hi)) => {
            let (lo, hi) = (
                crate::num::format_sig(&lo, 12),
                crate::num::format_sig(&hi, 12),
            );
            if lo == hi {
                lo
            } else {
                format!("[{lo}, {hi}]")
            }
        }
        None => "?".into(),
    }
}

/// `Σ_{s=0}^{n−1} z^s = (1 − z^n)/(1 − z)` for every `n ≥ 1`, `z ≠ 1`
/// (so `Σ_{s≥N} z^s = z^N/(1 − z)` for `0 ≤ z < 1`), by induction checked
/// exactly: the base `n = 1` and the step `(1 − w)/(1 − z) + w =
/// (1 − zw)/(1 − z)` with `w = z^n`, an identity of degree 1 in `w` after
/// multiplying by `1 − z`, at two values of `w` for each of three `z`.
pub(super) fn geometric_series() -> std::result::Result<(), String> {
    for z in [q(1, 3), q(1, 2), q(2, 3)] {
        let one = Q::one();
        if (one.clone() - &z) / (one.clone() - &z) != one {
            return Err(format!("base at z = {z}"));
        }
        for w in [q(1, 5), q(1, 7)] {
            let (lhs, rhs) = (
                (one.clone() - &w) / (one.clone() - &z) + &w,
                (one.clone() - z.clone() * &w) / (one.clone() - &z),
            );
            if lhs != rhs {
                return Err(format!("step at z = {z}, z^n = {w}: {lhs} ≠ {rhs}"));
            }
        }
    }
    Ok(())
}

/// Two tails `e^{−a·nΔ²} + e^{−b·nΔε}` merged into `2e^{−c·nΔ min{Δ, ε}}`:
/// since `min{Δ, ε} ≤ Δ` and `≤ ε`, each exponent is at least the target
/// when `a ≥ c` and `b ≥ c` (exact comparisons of the constants); a
/// constant below the target is reported with the case where the merge
/// fails (`Δ ≤ ε` for `a`, `ε < Δ` for `b`).
pub(super) fn merge_tails(a: Q, b: Q, target: Q) -> Outcome {
    let what = format!("e^{{−{a}·nΔ²}} + e^{{−{b}·nΔε}} ≤ 2e^{{−{target}·nΔ·min{{Δ, ε}}}}");
    if a >= target && b >= target {
        Outcome::certified(format!(
            "Certified by exact algebra: {what}, because {a} ≥ {target} and {b} ≥ {target} (exact) and min{{Δ, ε}} ≤ Δ, min{{Δ, ε}} ≤ ε, so each term is at most e^{{−{target}·nΔ·min{{Δ, ε}}}} (exp is increasing)."
        ))
    } else {
        let (case, constant) = if a < target {
            ("Δ ≤ ε (min = Δ)", &a)
        } else {
            ("ε < Δ (min = ε)", &b)
        };
        Outcome::refuted(
            format!("{what} fails: in the case {case} the exponent constant {constant} is below {target}, so for nΔ·min{{Δ, ε}} large the one term alone exceeds twice the bound"),
            json!({"constant": constant.to_string(), "target": target.to_string(), "case": case, "where": format!("nΔ·min{{Δ, ε}} > ln 2/({target} − {constant})")}),
        )
    }
}

/// Both critical-gap identities `T·√(L/T) = √(TL)` and `L/√(L/T) = √(TL)`
/// ([`critical_gap`] for each), `L` named by `what` (`"L = log K"`).
pub(super) fn critical_gaps(what: &str) -> Result<Outcome> {
    let first = critical_gap(
        &format!("T·√(L/T) = √(TL) with {what}, the regret of the gaps below the critical one"),
        |p| p[0].clone() * &p[0] * (p[1].clone() / &p[0]),
    )?;
    if first.status != crate::verify::Status::Certified {
        return Ok(first);
    }
    let second = critical_gap(
        &format!("L/√(L/T) = √(TL) with {what}, the gap-dependent term at the critical gap"),
        |p| p[1].clone() * &p[1] / (p[1].clone() / &p[0]),
    )?;
    Ok(all_of(vec![first, second]))
}

/// `2^{k+1} = 2·2^k`, with `2^{k+1}` computed from the exponent of each
/// grid value `x = 2^k` ([`next_power`]): the reindexing step of an epoch
/// sum, an identity of degree 1 in `x`.
pub(super) fn doubles(what: &str, xs: Vec<Q>) -> Result<Outcome> {
    identity(
        what,
        &["x = 2^k"],
        &grid(&[xs]),
        &|p: &[Q]| next_power(&p[0]),
        &|p: &[Q]| q(2, 1) * &p[0],
    )
}

/// `E[f(k)]` for `k ~ B(n, p)`, `0 ≤ p ≤ 1`, in certified arithmetic at
/// `ctx`: the weights by the ratio recursion `P(k + 1) = P(k)·(n − k)p/((k +
/// 1)(1 − p))` from `P(0) = (1 − p)^n`, so that `n` in the thousands stays
/// cheap (the adversarial searches push `n` there).
pub(super) fn binomial_mean(
    n: u32,
    p: &Q,
    ctx: &Precision,
    f: &dyn Fn(u32) -> Result<Certified>,
) -> Result<Certified> {
    let one = Q::one();
    if *p == one {
        return f(n);
    }
    let odds = p.clone() / (one.clone() - p);
    let mut weight = Certified::from_rational(&(one - p), ctx).pow_u64(u64::from(n));
    let mut total = Certified::from_int(0, ctx);
    for k in 0..=n {
        total = total + &(weight.clone() * &f(k)?);
        let ratio = Q::from_integer((n - k).into()) * &odds / Q::from_integer((k + 1).into());
        weight = weight * &Certified::from_rational(&ratio, ctx);
    }
    Ok(total)
}

/// The indicator of `event` as a certified 0 or 1 (for [`binomial_mean`]).
pub(super) fn indicator(event: bool, ctx: &Precision) -> Certified {
    Certified::from_int(i64::from(event), ctx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Status;

    /// The Taylor shift: x² − x − 1 at a = 2 is y² + 3y + 1 (expanded by
    /// hand), certified; x² − 3x + 2 = (x − 1)(x − 2) at a = 1 is y² − y,
    /// negative between the roots, so not certified.
    #[test]
    fn the_taylor_shift_decides_a_ray() {
        let good = ray("x² − x − 1 ≥ 0", &q(2, 1), &[q(-1, 1), q(-1, 1), q(1, 1)]);
        assert_eq!(good.status, Status::Certified);
        assert!(good.detail.contains("(1, 3, 1)"), "{}", good.detail);
        let bad = ray("x² − 3x + 2 ≥ 0", &q(1, 1), &[q(2, 1), q(-3, 1), q(1, 1)]);
        assert_eq!(bad.status, Status::Undecided);
    }

    /// An identity off by a constant is refuted at the first grid point.
    #[test]
    fn an_identity_off_by_a_constant_is_refuted() {
        let points = grid(&[axis(2)]);
        let right = identity("degree 1.", &["x"], &points, &|p| &p[0] * q(2, 1), &|p| {
            p[0].clone() + &p[0]
        })
        .unwrap();
        assert_eq!(right.status, Status::Certified);
        let off = identity("degree 1.", &["x"], &points, &|p| &p[0] * q(2, 1), &|p| {
            p[0].clone() + &p[0] + q(1, 1000)
        })
        .unwrap();
        assert_eq!(off.status, Status::Refuted);
        assert_eq!(off.witness.unwrap()["point"]["x"], "1/3");
    }

    /// The instance tally: a grid whose one case is a thousandth over its
    /// bound is refuted at that case; without it, it holds and names the
    /// tightest case.
    #[test]
    fn a_case_a_thousandth_over_its_bound_refutes_the_grid() {
        let bound = |pr: &Precision| Certified::from_int(2, pr).ln();
        let tally = |values: [Q; 2]| {
            let mut cases = Cases::default();
            for (i, value) in values.iter().enumerate() {
                let exact = |pr: &Precision| Ok(Certified::from_rational(value, pr));
                cases.at_most(format!("case {i}"), &exact, &bound).unwrap();
            }
            cases.outcome("two cases")
        };
        let holds = tally([q(1, 2), q(693, 1000)]);
        assert_eq!(holds.status, Status::HoldsOnInstances, "{}", holds.detail);
        assert!(holds.detail.contains("case 1"), "{}", holds.detail);
        // ln 2 = 0.693147…: 0.694 is over it by about a thousandth.
        let refuted = tally([q(1, 2), q(694, 1000)]);
        assert_eq!(refuted.status, Status::Refuted, "{}", refuted.detail);
        assert_eq!(refuted.witness.unwrap()["case"], "case 1");
        // A printed display refuted exactly at a point, and one that holds there.
        let no = false_at(
            &["x"],
            &[q(9, 1)],
            &|p| p[0].clone() * &p[0],
            Rel::Le,
            &|p| q(8, 1) * &p[0],
        );
        assert_eq!(no.status, Status::Refuted);
        let yes = false_at(
            &["x"],
            &[q(2, 1)],
            &|p| p[0].clone() * &p[0],
            Rel::Le,
            &|p| q(8, 1) * &p[0],
        );
        assert_eq!(yes.status, Status::Undecided);
    }

    #[test]
    fn the_exact_helpers_hold() {
        assert_eq!(two_pow(-3), q(1, 8));
        // B(3, 1/3): (8, 12, 6, 1)/27, expanded by hand.
        assert_eq!(
            binomial(3, &q(1, 3)),
            vec![q(8, 27), q(12, 27), q(6, 27), q(1, 27)]
        );
        assert_eq!(grid(&[axis(2), axis(3)]).len(), 6);
        assert!(halving_series().is_ok());
        assert!(dyadic_blocks().is_ok());
        assert!(geometric_series().is_ok());
        // E[k] = np and P(k = 0) = (1 − p)^n for B(5, 1/3), against the exact law.
        let ctx = Precision(128);
        let mean = binomial_mean(5, &q(1, 3), &ctx, &|k| {
            Ok(Certified::from_int(i64::from(k), &ctx))
        })
        .unwrap();
        let expected = Certified::from_rational(&q(5, 3), &ctx);
        assert!(
            mean.cmp_certain(&expected).is_none(),
            "E[k] must enclose 5/3"
        );
        let (lo, hi) = mean.enclosure().unwrap();
        assert!(lo <= q(5, 3) && q(5, 3) <= hi);
        let zero = binomial_mean(5, &q(1, 3), &ctx, &|k| Ok(indicator(k == 0, &ctx))).unwrap();
        let (lo, hi) = zero.enclosure().unwrap();
        assert!(lo <= binomial(5, &q(1, 3))[0] && binomial(5, &q(1, 3))[0] <= hi);
        assert_eq!(
            merge_tails(q(1, 8), q(1, 4), q(1, 8)).status,
            Status::Certified
        );
        assert_eq!(
            merge_tails(q(1, 16), q(1, 4), q(1, 8)).status,
            Status::Refuted
        );
        let steps = ceiling_bracket().unwrap();
        assert_eq!(conclude("", &steps).status, Status::Certified);
    }
}
