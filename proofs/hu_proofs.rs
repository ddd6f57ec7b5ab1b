//! Hu, Huang, Mehta & Hegde (journal version): the explicit constants of the
//! proofs — the facts of Appendix A, the epoch counts and constants of
//! Anytime-Lazy-UCB (Lemma 19, eq. (29)), Lazy-DP-TS (L611, the chain
//! (36)), RNM-FTNL (Theorem 9's D.2 chain, Lemma 24), the instance-
//! independent corollaries and the lower bound of Theorem 12 (D.3). Lines
//! `L…` are those of `papers/004_…txt`, whose every formula appears as
//! Unicode, LaTeX and an annotated form; the three agree on every display
//! used here.

use super::explicit::{
    all_of, at, axis, binomial, binomial_mean, c, ceiling_bracket, constant, critical_gaps,
    doubles, doubling_sum, dyadic_blocks, exactly, false_at, geometric_series, grid,
    halving_series, hoeffding_exponent, identity, indicator, ineq, int_of, merge_tails, q, ray,
    steps, two_pow, Cases, Rel,
};
use crate::error::Result;
use crate::num::{Certified, Precision, Real, Q};
use crate::verify::bnb::{div, Role, Sense};
use crate::verify::search::{Adversary, Param, Probe};
use crate::verify::{Claim, Cost, Method, Outcome, Paper, Source};
use num_traits::{One, Signed, Zero};
use serde_json::json;
use std::sync::Arc;

fn hu(number: &'static str, context: &'static str) -> Source {
    at(Paper::Hu, number, context)
}

/// `x/(x + y) ≥ ½ min{1, x/y}` for `x, y > 0`, scaled by `a` (L834 with
/// `a = 1`, L836 with `a = 0.9`): homogeneous of degree 0, so with
/// `s = x/y`: on `s ≤ 1` the difference is `a s/(1 + s) − (a/2)s =
/// a s(1 − s)/(2(1 + s))`, on `s ≥ 1` (`u = 1/s ∈ [0, 1]`) it is
/// `a/(1 + u) − a/2 = a(1 − u)/(2(1 + u))` (both factorings exact), which
/// interval arithmetic bounds below by 0 on the whole of `[0, 1]`.
fn half_min(a: (i64, i64)) -> Result<Outcome> {
    let (n, d) = a;
    let factored = move |x: &[Certified]| {
        let v = &x[0];
        let one = Certified::from_int(1, &v.context());
        let scale = Certified::from_rational(&q(n, d), &v.context());
        div(
            scale * v * &(one.clone() - v),
            &(q_of(2, 1, v) * &(one + v)),
        )
    };
    let large = move |x: &[Certified]| {
        let u = &x[0];
        let one = Certified::from_int(1, &u.context());
        let scale = Certified::from_rational(&q(n, d), &u.context());
        div(scale * &(one.clone() - u), &(q_of(2, 1, u) * &(one + u)))
    };
    steps(
        "Both sides are homogeneous of degree 0 in (x, y), so only s = x/y matters; min{1, s} = s on s ≤ 1 and 1 on s ≥ 1 (there u = 1/s ∈ [0, 1]). The differences factor exactly as a·s(1 − s)/(2(1 + s)) and a(1 − u)/(2(1 + u)).",
        (|| {
            Ok(vec![
                ineq("s ≤ 1: a·s(1 − s)/(2(1 + s)) ≥ 0 on s ∈ [0, 1]", Role::Claim, &["s"], vec![(q(0, 1), q(1, 1))], Sense::NonNegative, &factored, None)?,
                ineq("s ≥ 1: a(1 − u)/(2(1 + u)) ≥ 0 on u ∈ [0, 1]", Role::Claim, &["u"], vec![(q(0, 1), q(1, 1))], Sense::NonNegative, &large, None)?,
            ])
        })(),
    )
}

fn q_of(n: i64, d: i64, like: &Certified) -> Certified {
    Certified::from_rational(&q(n, d), &like.context())
}

/// `d_KL(x, y) = x ln(x/y) + (1 − x) ln((1 − x)/(1 − y))` for `x ∈ [0, 1)`,
/// `y ∈ (0, 1)` (the term `x ln(x/y)` is 0 at `x = 0`).
fn kl(x: &Q, y: &Q, p: &Precision) -> Result<Certified> {
    let one = Q::one();
    let term = |a: &Q, b: &Q| -> Result<Certified> {
        if a.is_zero() {
            Ok(Certified::from_int(0, p))
        } else {
            Ok(Certified::from_rational(a, p) * &Certified::from_rational(&(a / b), p).ln()?)
        }
    };
    Ok(term(x, y)? + &term(&(one.clone() - x), &(one - y))?)
}

/// The means of the binomial grids of the facts.
fn means() -> Vec<Q> {
    vec![
        q(1, 2),
        q(1, 3),
        q(1, 10),
        q(1, 100),
        q(9, 10),
        q(2, 3),
        q(999, 1000),
    ]
}

/// The sizes of the binomial grids: every n ≤ 40 and a few larger.
fn sizes() -> Vec<u32> {
    (1..=40).chain([64, 100]).collect()
}

/// Fact 15 (12): `P{|X − np| ≥ a} ≤ 2e^{−2a²/n}`, `X ~ B(n, p)`, at every
/// threshold `a ∈ {|k − np| > 0}` (the event only changes there and the
/// bound decreases in `a`, so these are the worst thresholds).
fn fact15() -> Result<Outcome> {
    let mut cases = Cases::default();
    for n in sizes() {
        for p in means() {
            let law = binomial(n, &p);
            let np = Q::from_integer(n.into()) * &p;
            let mut deviations: Vec<Q> = (0..=n)
                .map(|k| (Q::from_integer(k.into()) - &np).abs())
                .collect();
            deviations.sort();
            deviations.dedup();
            for a in deviations.into_iter().filter(|a| *a > Q::zero()) {
                let tail: Q = (0..=n)
                    .filter(|k| (Q::from_integer((*k).into()) - &np).abs() >= a)
                    .map(|k| law[k as usize].clone())
                    .sum();
                let exponent = -(q(2, 1) * &a * &a) / Q::from_integer(n.into());
                cases.at_most(
                    format!("n = {n}, p = {p}, a = {a}"),
                    &|pr| Ok(Certified::from_rational(&tail, pr)),
                    &|pr| Ok(c(2, 1, pr) * &Certified::from_rational(&exponent, pr).exp()?),
                )?;
            }
        }
    }
    Ok(cases.outcome("X ~ B(n, p), n ∈ {1..40, 64, 100}, p ∈ {1/2, 1/3, 1/10, 1/100, 9/10, 2/3, 999/1000}, every threshold a = |k − np| > 0; tails exact"))
}

/// Fact 17 at the worst thresholds: the events `{k ≥ k₀}` (upper, `x = k₀/n
/// ∈ (μ, 1)`) or `{k ≤ k₀}` (lower, `x = k₀/n ∈ (0, μ)`), against
/// `e^{−n d_KL(x, μ)}`; `printed` takes the event `{k ≥ k₀}` with
/// `x ∈ (0, μ)`, as (15) is printed.
fn fact17(kind: Tail) -> Result<Outcome> {
    let mut cases = Cases::default();
    for n in sizes().into_iter().filter(|n| *n <= 40) {
        for mu in means() {
            let law = binomial(n, &mu);
            for k0 in 1..n {
                let x = q(k0 as i64, n as i64);
                let (in_range, event): (bool, Box<dyn Fn(u32) -> bool>) = match kind {
                    Tail::Upper => (x > mu, Box::new(move |k| k >= k0)),
                    Tail::Lower => (x < mu, Box::new(move |k| k <= k0)),
                    Tail::LowerAsPrinted => (x < mu, Box::new(move |k| k >= k0)),
                };
                if !in_range {
                    continue;
                }
                let prob: Q = (0..=n)
                    .filter(|k| event(*k))
                    .map(|k| law[k as usize].clone())
                    .sum();
                let (nq, xq, m) = (Q::from_integer(n.into()), x.clone(), mu.clone());
                cases.at_most(
                    format!("n = {n}, μ = {mu}, x = {x}"),
                    &|pr| Ok(Certified::from_rational(&prob, pr)),
                    &|pr| (-(Certified::from_rational(&nq, pr) * &kl(&xq, &m, pr)?)).exp(),
                )?;
            }
        }
    }
    Ok(cases.outcome("X̄ = X/n, X ~ B(n, μ), n ≤ 40, μ ∈ {1/2, 1/3, 1/10, 1/100, 9/10, 2/3, 999/1000}, every threshold x = k₀/n inside the stated range of λ; probabilities exact, KL certified"))
}

/// Lemma 7's left side (L250, Agrawal & Goyal's Lemma 2.9): with
/// θ ~ Beta(S + 1, s − S + 1) given S ~ B(s, μ₁), and y = μ₁ − gap,
/// `E[P{θ ≤ y | S}/P{θ > y | S}]`. By Fact 18, `P{θ > y | S} = F^B_{s+1,y}(S)`,
/// so the ratio is `1/F^B_{s+1,y}(S) − 1`, exact; the mean over S is
/// certified at precision `pr`.
fn lem7_ratio_mean(s: u32, mu: &Q, gap: &Q, pr: &Precision) -> Result<Certified> {
    let y = mu.clone() - gap;
    let mut cdf = Q::zero();
    let odds: Vec<Q> = binomial(s + 1, &y)[..=s as usize]
        .iter()
        .map(|p| {
            cdf += p;
            Q::one() / &cdf - Q::one()
        })
        .collect();
    binomial_mean(s, mu, pr, &|k| {
        Ok(Certified::from_rational(&odds[k as usize], pr))
    })
}

/// Lemma 7's first case on a grid: every s < 8/(μ₁ − y) against 3/(μ₁ − y).
fn lem7_first() -> Result<Outcome> {
    let mut cases = Cases::default();
    for gap in [q(1, 2), q(1, 4), q(1, 10), q(1, 20)] {
        for mu in [q(1, 2), q(3, 4), q(9, 10), q(1, 1)] {
            if gap > mu {
                continue;
            }
            let bound = q(3, 1) / &gap;
            let pulls = u32::try_from(int_of(&(q(8, 1) / &gap).ceil())).unwrap_or(0);
            for s in 0..pulls {
                cases.at_most(
                    format!("μ₁ = {mu}, μ₁ − y = {gap}, s = {s}"),
                    &|pr| lem7_ratio_mean(s, &mu, &gap, pr),
                    &|pr| Ok(Certified::from_rational(&bound, pr)),
                )?;
            }
        }
    }
    Ok(cases.outcome("μ₁ − y ∈ {1/2, 1/4, 1/10, 1/20} × μ₁ ∈ {1/2, 3/4, 9/10, 1} (μ₁ − y ≤ μ₁), every integer s with 0 ≤ s < 8/(μ₁ − y); the ratio exact for each S (Fact 18), its mean over S ~ B(s, μ₁) certified"))
}

/// Which tail of Fact 17.
#[derive(Clone, Copy)]
enum Tail {
    Upper,
    Lower,
    LowerAsPrinted,
}

/// The Beta(α, β) CDF at `y` for positive integers, exactly:
/// `(1/B(α, β)) ∫_0^y x^{α−1}(1 − x)^{β−1} dx` with the integrand expanded,
/// `Σ_k C(β−1, k)(−1)^k y^{α+k}/(α + k)`, and `B(α, β) = (α−1)!(β−1)!/(α+β−1)!`.
fn beta_cdf(alpha: i64, beta: i64, y: &Q) -> Q {
    let factorial = |n: i64| -> Q { (1..=n).map(|i| q(i, 1)).product() };
    let choose = |n: i64, k: i64| factorial(n) / (factorial(k) * factorial(n - k));
    let beta_fn = factorial(alpha - 1) * factorial(beta - 1) / factorial(alpha + beta - 1);
    let integral: Q = (0..beta)
        .map(|k| {
            let sign = if k % 2 == 0 { Q::one() } else { -Q::one() };
            sign * choose(beta - 1, k) * num_traits::pow::pow(y.clone(), (alpha + k) as usize)
                / q(alpha + k, 1)
        })
        .sum();
    integral / beta_fn
}

/// Fact 18 (16): `F^Beta_{α,β}(y) = 1 − F^B_{α+β−1, y}(α − 1)`; for each
/// `(α, β)` both sides are polynomials of degree `α + β − 1` in `y`, so
/// agreement at `α + β` points proves the pair.
fn fact18() -> Result<Outcome> {
    let mut pairs = 0;
    for alpha in 1..=10i64 {
        for beta in 1..=10i64 {
            for j in 1..=(alpha + beta) {
                let y = q(j, alpha + beta + 1);
                let lhs = beta_cdf(alpha, beta, &y);
                let binomial_cdf: Q = binomial((alpha + beta - 1) as u32, &y)[..alpha as usize]
                    .iter()
                    .sum();
                let rhs = Q::one() - binomial_cdf;
                if lhs != rhs {
                    return Ok(false_at(
                        &["α", "β", "y"],
                        &[q(alpha, 1), q(beta, 1), y],
                        &|_| lhs.clone(),
                        Rel::Eq,
                        &|_| rhs.clone(),
                    ));
                }
            }
            pairs += 1;
        }
    }
    Ok(Outcome::holds(format!(
        "holds on all {pairs} pairs α, β ∈ {{1..10}}: for each pair both sides are polynomials of degree α + β − 1 in y (the Beta CDF integrated term by term, exactly), equal at the α + β points y = j/(α + β + 1), so equal for every y; pairs beyond 10 are not checked here"
    )))
}

/// Pinsker's inequality for Bernoulli laws as used at L617:
/// `d_KL(x, y) ≥ 2(x − y)²`, on a grid of distinct `x, y ∈ (0, 1)`.
fn pinsker() -> Result<Outcome> {
    let mut points: Vec<Q> = (1..40).map(|k| q(k, 40)).collect();
    points.extend([
        q(1, 1000),
        q(999, 1000),
        q(1, 2) + q(1, 1000),
        q(1, 2) - q(1, 1000),
        q(1, 100_000),
    ]);
    let mut cases = Cases::default();
    for x in &points {
        for y in &points {
            if x == y {
                continue;
            }
            let gap = q(2, 1) * (x.clone() - y) * (x.clone() - y);
            cases.at_most(
                format!("x = {x}, y = {y}"),
                &|pr| Ok(Certified::from_rational(&gap, pr)),
                &|pr| kl(x, y, pr),
            )?;
        }
    }
    Ok(cases.outcome("x ≠ y in {k/40 : 1 ≤ k ≤ 39} ∪ {1/1000, 999/1000, 1/2 ± 1/1000, 1/100000}, ordered pairs; at x = y both sides vanish and intervals cannot separate them"))
}

/// The total variation of Theorem 12's packing (L820–L824): `P_i` and `P_j`
/// (`i ≠ j`) are products of Bernoulli laws with mean `1/2 + Δ` at their own
/// coordinate and `1/2` elsewhere, so they differ only in coordinates `i`
/// and `j`, where they are `B(½ + Δ) ⊗ B(½)` and `B(½) ⊗ B(½ + Δ)`; the other
/// coordinates are the same independent factor on both sides, so
/// `sup_A |P_i(A) − P_j(A)|` over `A ⊆ {0, 1}^K` is the supremum over the 16
/// sets `A ⊆ {0, 1}²` of the two differing coordinates. Each `P_i(A) −
/// P_j(A)` is of degree ≤ 1 in `Δ` (each atom is a product of one factor
/// with `Δ` and one without) and vanishes at `Δ = 0`, so it is `c_A·Δ`: the
/// values at `Δ = 0` and `Δ = 1/8` determine it, and a third, `Δ = 1/5`,
/// confirms it. The supremum is `max_A |c_A|·Δ`.
fn packing_distance() -> Outcome {
    let atoms = |d: &Q| -> (Vec<Q>, Vec<Q>) {
        let (hi, half) = (q(1, 2) + d, q(1, 2));
        let bern = |p: &Q, bit: u8| if bit == 1 { p.clone() } else { Q::one() - p };
        let cells = [(0u8, 0u8), (0, 1), (1, 0), (1, 1)];
        let p_i = cells
            .iter()
            .map(|(a, b)| bern(&hi, *a) * bern(&half, *b))
            .collect();
        let p_j = cells
            .iter()
            .map(|(a, b)| bern(&half, *a) * bern(&hi, *b))
            .collect();
        (p_i, p_j)
    };
    let difference = |set: u8, d: &Q| -> Q {
        let (p_i, p_j) = atoms(d);
        (0..4)
            .filter(|cell| set & (1 << cell) != 0)
            .map(|cell| p_i[cell].clone() - &p_j[cell])
            .sum()
    };
    let (d0, d1, d2) = (Q::zero(), q(1, 8), q(1, 5));
    let mut largest = Q::zero();
    for set in 0u8..16 {
        let slope = difference(set, &d1) / &d1;
        if !difference(set, &d0).is_zero() || difference(set, &d2) != slope.clone() * &d2 {
            return Outcome::undecided(
                format!("the argument fails: P_i(A) − P_j(A) is not c_A·Δ for the set {set:04b} of the cells (00, 01, 10, 11)"),
                None,
            );
        }
        largest = largest.max(slope.abs());
    }
    // The footnote's witnessing set {(1, 0)} is cell 2.
    let witness = difference(1 << 2, &d1) / &d1;
    if largest != Q::one() || witness.abs() != Q::one() {
        return Outcome::refuted(
            format!("sup_A |P_i(A) − P_j(A)| = {largest}·Δ, and {witness}·Δ on the footnote's set (1, 0)"),
            json!({"sup_over_delta": largest.to_string(), "footnote_set": witness.to_string()}),
        );
    }
    Outcome::certified(
        "Certified by exact algebra: over the 16 sets A of the two differing coordinates (the others are one common independent factor), each P_i(A) − P_j(A) is c_A·Δ (degree ≤ 1 in Δ, 0 at Δ = 0, exact at Δ = 1/8 and confirmed at Δ = 1/5); max_A |c_A| = 1, attained at the footnote's set (1, 0) × {0, 1}^{K−2}: the total variation is Δ exactly, so > Δ/2 for every Δ > 0 (Theorem 12 takes Δ ∈ (0, 1/4))",
    )
}

/// eq. (40)'s first case as printed, at the gap `Δ_j` (`x = μ₁ − y_j =
/// Δ_j/6`, L609, so `x ≤ 1/6`): the largest `r ≤ ⌊log₂(8/x)⌋` (the largest
/// `r` with `2^r ≤ 8/x`) against Lemma 7's strict condition `2^r < 8/x`;
/// refuted there when `8/x = 48/Δ_j` is a power of two (`Δ_j = 3/4`:
/// `x = 1/8`, `8/x = 64 = 2^6`, so `d₁ = 6` and `s = 2^6 = 64`).
fn eq40_printed(gap: &Q) -> Outcome {
    let x = gap.clone() / q(6, 1);
    let bound = q(8, 1) / &x;
    let mut r = 0i64;
    while two_pow(r + 1) <= bound {
        r += 1;
    }
    let s = two_pow(r);
    if s < bound {
        Outcome::undecided(
            format!("at Δ_j = {gap} (μ₁ − y_j = {x}), r = ⌊d₁⌋ = {r}: 2^r = {s} < 8/(μ₁ − y_j) = {bound} holds; one point decides nothing"),
            None,
        )
    } else {
        Outcome::refuted(
            format!("False, exactly: at Δ_j = {gap}, μ₁ − y_j = Δ_j/6 = {x} (L609), d₁ = log₂(8/(μ₁ − y_j)) = {r} is an integer, and r = ⌊d₁⌋ = {r} gives s = 2^r = {s}, which is not < 8/(μ₁ − y_j) = {bound}: Lemma 7's first case (L250) does not apply at r = d₁"),
            json!({"point": {"Δ_j": gap.to_string(), "μ₁ − y_j": x.to_string(), "r": r.to_string()}, "lhs": s.to_string(), "relation": "≥", "rhs": bound.to_string()}),
        )
    }
}

/// The two lines of eq. (24) (L534) for every law of `r_j(T)`: with `x =
/// 2^{d_j+1}`, `y_s = 2^{s+2}` and `P_s = P{r_j(T) = s}` (`s = d_j + 1, …`),
/// line 1 is `(2x − 1) + Σ_s P_s(y_s − x)` (`ω^{(d+1)} = 2x − 1`,
/// `Σ_{q=d+1}^{s+1} 2^q = y_s − x`) and line 2 is `(x − 1) + Σ_s P_s(y_s −
/// 1)`; their difference is `1 + (x − 1)(1 − p)`, `p = Σ_s P_s ≤ 1`, an
/// identity of degree ≤ 2 checked exactly with two epochs `s` on a grid of
/// 3 points per variable (a polynomial of degree ≤ 2 in each of its five
/// variables is fixed by 3 values of each). So line 1 exceeds line 2 by at
/// least 1 whatever the law, and the printed `≤` fails for every law.
fn thm3_l534() -> Result<Outcome> {
    let axis3 = || vec![q(1, 3), q(2, 3), q(1, 1)];
    let points = grid(&[
        vec![q(2, 1), q(4, 1), q(8, 1)],
        axis3(),
        axis3(),
        vec![q(8, 1), q(16, 1), q(32, 1)],
        vec![q(16, 1), q(32, 1), q(64, 1)],
    ]);
    let line = |p: &[Q], first: bool| {
        let (x, p1, p2, y1, y2) = (&p[0], &p[1], &p[2], &p[3], &p[4]);
        if first {
            q(2, 1) * x - Q::one() + p1.clone() * (y1.clone() - x) + p2.clone() * (y2.clone() - x)
        } else {
            x.clone() - Q::one()
                + p1.clone() * (y1.clone() - Q::one())
                + p2.clone() * (y2.clone() - Q::one())
        }
    };
    let gap = identity(
        "x = 2^{d_j+1}, two epochs s with P_s and y_s = 2^{s+2}: both sides are polynomials of degree ≤ 2 (≤ 1 in each variable), compared on 3 values of each of the five variables.",
        &["x = 2^{d_j+1}", "P_{d_j+1}", "P_{d_j+2}", "y_{d_j+1}", "y_{d_j+2}"],
        &points,
        &|p: &[Q]| line(p, true) - line(p, false),
        &|p: &[Q]| Q::one() + (p[0].clone() - Q::one()) * (Q::one() - p[1].clone() - &p[2]),
    )?;
    if gap.status != crate::verify::Status::Certified {
        return Ok(gap);
    }
    Ok(Outcome::refuted(
        "False for every law of r_j(T): line 1 − line 2 of (24) is exactly 2^{d_j+1}(1 − p) + p = 1 + (2^{d_j+1} − 1)(1 − p) ≥ 1 with p = P{r_j(T) ≥ d_j + 1} ∈ [0, 1] (identity exact in x = 2^{d_j+1}, the P_s and 2^{s+2}); at d_j = 5 (T = 2, Δ_j = ε = 1), p = 0, line 1 is ω^{(6)} = 127 and line 2 is ω^{(5)} = 63, and 127 ≤ 63 fails; at p = 1 line 1 still exceeds line 2 by 1.",
        json!({"point": {"d_j": "5", "p": "0"}, "lhs": "127", "relation": ">", "rhs": "63"}),
    ))
}

/// The minimax remark of L319 at `ε = 1`, `K = 100`, `T = 50`: the remark's
/// condition `T ≥ ln K/(100ε²)` holds (`ln 100 < 5000`), but the theorem's
/// hypothesis `Δmin < 1/4` for `Δmin = √(ln K/T)` is `ln K/T < 1/16`, i.e.
/// `T > 16 ln K`, and `16 ln 100 = 73.7 > 50`: the claim `1/16 − ln K/T > 0`
/// is refuted (`ln 100/50 = 0.0921`, `Δmin = 0.3035`).
fn thm12_l319_minimax() -> Result<Outcome> {
    steps(
        "At ε = 1, K = 100, T = 50 the remark's condition T ≥ ln K/(100ε²) holds (ln 100 < 5000), and the theorem's hypothesis Δmin = √(ln K/T) < 1/4 needs 1/16 − ln 100/50 > 0:",
        (|| {
            Ok(vec![
                constant("5000 − ln 100 > 0 (the remark's condition)", Role::Argument, &|p| {
                    Ok(c(5000, 1, p) - c(100, 1, p).ln()?)
                })?,
                constant("1/16 − ln 100/50 > 0 (Δmin < 1/4)", Role::Claim, &|p| {
                    Ok(c(1, 16, p) - c(100, 1, p).ln()? * &c(1, 50, p))
                })?,
            ])
        })(),
    )
}

/// `2^k ≥ k + 1` for every integer `k ≥ 0`, by induction checked exactly:
/// the base `k = 0` (`1 ≥ 1`) and the step `2^{k+1} = 2·2^k ≥ 2(k + 1) =
/// (k + 2) + k ≥ k + 2`, whose identity `2(k + 1) − (k + 2) = k` (degree 1)
/// is checked at two values of `k`. So `⌊log₂ y⌋ ≤ y − 1` for every integer
/// `y ≥ 1` (`k = ⌊log₂ y⌋` has `k + 1 ≤ 2^k ≤ y`).
fn powers_exceed_exponents() -> std::result::Result<(), String> {
    if two_pow(0) < Q::one() {
        return Err("base k = 0".to_string());
    }
    for k in [q(1, 1), q(2, 1)] {
        if q(2, 1) * (k.clone() + Q::one()) - (k.clone() + q(2, 1)) != k {
            return Err(format!("step at k = {k}"));
        }
    }
    Ok(())
}

/// Hoeffding's exponent `2a²/n` for a sum of `n` variables in `[0, 1]` at
/// the deviation `a = n·√(3L/n)` of its mean, `L = ln t`: `6L` (Lemma 22,
/// L677, and eq. (28), where `ln(t³) = 3L`). With `a² = n²·(3L/n)`, both
/// sides times `n` are polynomials of degree ≤ 2 in `n` and ≤ 1 in `L`.
fn hoeffding_at_three_log() -> Result<Outcome> {
    identity(
        "Hoeffding's exponent 2a²/n with a² = n²·(3L/n) (the square of the deviation): both sides times n are polynomials of degree ≤ 2 in n and ≤ 1 in L (grid n ∈ {1, 2, 4}, L ∈ {1/3, 2/3}).",
        &["n", "L"],
        &grid(&[vec![q(1, 1), q(2, 1), q(4, 1)], axis(2)]),
        &|p: &[Q]| q(2, 1) * (p[0].clone() * &p[0] * (q(3, 1) * &p[1] / &p[0])) / &p[0],
        &|p: &[Q]| q(6, 1) * &p[1],
    )
}

/// Fact 16's exponent `a/b` for noise `Lap(1/ε)` on a sum of `n`
/// observations (`b = 1/(εn)` on their mean) at the threshold `a =
/// 3L/(εn)`, `L = ln t`: `3L` (eq. (28) with `ln(t³) = 3L`, Lemma 23 at
/// L687). Both sides times `εn` are of degree ≤ 1 in `L`, `ε` and `n`.
fn laplace_at_three_log() -> Result<Outcome> {
    identity(
        "Fact 16's exponent a/b = (3L/(εn))/(1/(εn)) = 3L: both sides times εn are of degree ≤ 1 in L, ε, n (grid {1/3, 2/3}³); Fact 16 (hu-eq13-constants) turns it into the tail e^{−3L} = t^{−3}.",
        &["L", "ε", "n"],
        &grid(&[axis(2), axis(2), axis(2)]),
        &|p: &[Q]| (q(3, 1) * &p[0] / (p[1].clone() * &p[2])) / (Q::one() / (p[1].clone() * &p[2])),
        &|p: &[Q]| q(3, 1) * &p[0],
    )
}

pub(super) fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "hu-thm12-L832",
            source: hu("Theorem 12, proof (Appendix D.3)", "L830–L834: the inequality of Acharya et al. (Theorem 2), quoted and called \"not always true\" with M = 2, ε = 0"),
            statement: "As quoted (and disputed by the paper itself at L834): 0.9M(M − 1)/(M − 1 + e^{10εD}) ≥ 0.8M min{1, M/e^{10εD}} for M ≥ 2, εD ≥ 0. False: at M = 2, εD = 0 it reads 0.9 ≥ 1.6, as the paper says; the paper's fix is hu-thm12-L836.",
            math: "0.8M min{1, M/y} ≤ 0.9M(M − 1)/(M − 1 + y), y = e^{10εD} ≥ 1",
            method: Method::ExactAlgebra,
            domain: "M ≥ 2, y = e^{10εD} ≥ 1; refuted at M = 2, y = 1 (εD = 0)",
            cost: Cost::Fast,
            check: || {
                Ok(false_at(
                    &["M", "y = e^{10εD}"],
                    &[q(2, 1), q(1, 1)],
                    &|p: &[Q]| {
                        let m = &p[0];
                        let ratio = m.clone() / &p[1];
                        q(4, 5) * m * if ratio < Q::one() { ratio } else { Q::one() }
                    },
                    Rel::Le,
                    &|p: &[Q]| q(9, 10) * &p[0] * (p[0].clone() - Q::one()) / (p[0].clone() - Q::one() + &p[1]),
                ))
            },
        },
        Claim {
            id: "hu-thm12-L834",
            source: hu("Theorem 12, proof (Appendix D.3)", "L834: \"use the inequality x/(x + y) ≥ ½ min{1, x/y} for positive x and y\""),
            statement: "x/(x + y) ≥ ½ min{1, x/y} for every x, y > 0.",
            math: "x/(x + y) − ½ min{1, x/y} ≥ 0, x, y > 0",
            method: Method::BranchAndBound,
            domain: "every x, y > 0: reduced exactly (homogeneity) to s = x/y ∈ [0, 1] and u = y/x ∈ [0, 1]",
            cost: Cost::Fast,
            check: || half_min((1, 1)),
        },
        Claim {
            id: "hu-thm12-L836",
            source: hu("Theorem 12, proof (Appendix D.3)", "L836: the corrected form of Acharya et al.'s inequality"),
            statement: "0.9M(M − 1)/(M − 1 + e^{10εD}) ≥ 0.45M min{1, (M − 1)/e^{10εD}} for M ≥ 2, εD ≥ 0.",
            math: "0.9·x/(x + y) − 0.45·min{1, x/y} ≥ 0, x = M − 1 ≥ 1, y = e^{10εD} ≥ 1 (M > 0 divided out)",
            method: Method::BranchAndBound,
            domain: "every M ≥ 2, εD ≥ 0 (a superset: every x, y > 0), reduced by homogeneity to s, u ∈ [0, 1]",
            cost: Cost::Fast,
            check: || half_min((9, 10)),
        },
        Claim {
            id: "hu-thm12-L850",
            source: hu("Theorem 12, proof (Appendix D.3)", "L846–L850: for n ≤ log K/(10εΔ), (56) gives the error probability ≥ 0.45·(K − 1)/K ≥ 0.2"),
            statement: "With log read as the natural log, as Theorem 12's condition T ≥ ln K/(10εΔ) at L317 writes the same quantity (read as log₂, the base of the paper's epoch counts elsewhere, the step would fail: hu-thm12-L850-log2, a reading withdrawn as not the paper's): for n ≤ ln K/(10εΔ), 0.45 min{1, (K − 1)/e^{10εnΔ}} ≥ 0.45(K − 1)/K ≥ 0.2, for every K ≥ 2.",
            math: "0.45(K − 1)/K − 0.2 ≥ 0, K ≥ 2",
            method: Method::ExactAlgebra,
            domain: "every real K ≥ 2: e^{10εnΔ} ≤ K (n ≤ ln K/(10εΔ), exp increasing) gives the first step; the second, times K > 0, is the polynomial 0.25K − 0.45 ≥ 0",
            cost: Cost::Fast,
            check: || Ok(ray("0.45(K − 1) − 0.2K = K/4 − 9/20 ≥ 0 on K ≥ 2", &q(2, 1), &[q(-9, 20), q(1, 4)])),
        },
        Claim {
            id: "hu-thm12-L864",
            source: hu("Theorem 12, proof (Appendix D.3)", "L864: regret ≥ 0.2·0.49·m*·Δ = Ω(log K/ε), m* := log K/(10εΔ)"),
            statement: "0.2·0.49·m*·Δ = (49/5000)·log K/ε with m* = log K/(10εΔ): the explicit constant behind Ω(log K/ε) (0.49 = 1 − 0.51).",
            math: "0.2·(1 − 0.51)·(L/(10εΔ))·Δ = 49L/(5000ε), L = log K",
            method: Method::ExactAlgebra,
            domain: "every K ≥ 2, ε, Δ > 0: both sides times εΔ are polynomials of degree ≤ 1 in L, ε, Δ",
            cost: Cost::Fast,
            check: || {
                identity(
                    "both sides times εΔ are polynomials of degree ≤ 1 in L, ε and Δ (grid {1/3, 2/3}³).",
                    &["L", "ε", "Δ"],
                    &grid(&[axis(2), axis(2), axis(2)]),
                    &|p: &[Q]| q(1, 5) * (Q::one() - q(51, 100)) * (p[0].clone() / (q(10, 1) * &p[1] * &p[2])) * &p[2],
                    &|p: &[Q]| q(49, 5000) * &p[0] / &p[1],
                )
            },
        },
        Claim {
            id: "hu-thm12-L319",
            source: hu("Theorem 12, discussion", "L319: with Δmin = √(ln K/T), the condition T ≥ ln K/(10εΔmin) is T ≥ ln K/(100ε²)"),
            statement: "With Δ = √(L/T), L = ln K: T/(L/(10εΔ)) = √(T/(L/(100ε²))), so T ≥ L/(10εΔ) iff T ≥ L/(100ε²).",
            math: "(10εΔT/L)² = 100ε²T/L when Δ² = L/T",
            method: Method::ExactAlgebra,
            domain: "every T, ε > 0, K ≥ 2: both ratios are positive, so equal iff their squares are; Δ² replaced by L/T",
            cost: Cost::Fast,
            check: || {
                identity(
                    "after Δ² = L/T both sides times L are polynomials of degree ≤ 2 in ε and ≤ 1 in T, L (grid ε ∈ {1/3, 2/3, 1}, T, L ∈ {1/3, 2/3}).",
                    &["ε", "T", "L"],
                    &grid(&[axis(3), axis(2), axis(2)]),
                    &|p: &[Q]| {
                        let (e, t, l) = (&p[0], &p[1], &p[2]);
                        q(100, 1) * e * e * (l.clone() / t) * t * t / (l.clone() * l)
                    },
                    &|p: &[Q]| q(100, 1) * &p[0] * &p[0] * &p[1] / &p[2],
                )
            },
        },
        Claim {
            id: "hu-cor11-L303",
            source: hu("Corollary 11, proof", "L303: Δ* := √(log K/T), TΔ* = √(T log K), and log(K)/Δ* = √(T log K) in the final O(·)"),
            statement: "T·√(log K/T) = √(T log K) and log K/√(log K/T) = √(T log K).",
            math: "(T·√(L/T))² = TL and (L/√(L/T))² = TL, L = log K",
            method: Method::ExactAlgebra,
            domain: "every T > 0, K ≥ 2",
            cost: Cost::Fast,
            check: || critical_gaps("L = log K (Corollary 11, L303)"),
        },
        Claim {
            id: "hu-thm3-L578",
            source: hu("Theorem 3, instance-independent bound (Appendix B.2.2)", "L576–L578: Δ* := √(K ln T/T), TΔ* = √(KT ln T) and K ln T/Δ* = √(KT ln T)"),
            statement: "With Δ* = √(K ln T/T): T·Δ* = √(KT ln T) and K ln T/Δ* = √(KT ln T).",
            math: "(T·√(L/T))² = TL and (L/√(L/T))² = TL, L = K ln T",
            method: Method::ExactAlgebra,
            domain: "every T ≥ 2, K ≥ 2",
            cost: Cost::Fast,
            check: || critical_gaps("L = K ln T (Theorem 3, L578)"),
        },
        Claim {
            id: "hu-thm3-L174",
            source: hu("Theorem 3, proof sketch and Lemma 19", "L174 and L548: ω_j^{(r)} := Σ_{q=0}^{r} 2^q = 2^{r+1} − 1, the pulls needed for epoch r"),
            statement: "Σ_{q=0}^{r} 2^q = 2^{r+1} − 1 for every r ≥ 0.",
            math: "Σ_{q=0}^{r} 2^q = 2^{r+1} − 1",
            method: Method::ExactAlgebra,
            domain: "every integer r ≥ 0 (R = r + 1 ≥ 1 below), by induction",
            cost: Cost::Fast,
            check: || Ok(doubling_sum("Σ_{q=0}^{r} 2^q = 2^{r+1} − 1 (with R = r + 1, Σ_{q=0}^{r} 2^q = Σ_{r'=1}^{R} 2^{r'−1})")),
        },
        Claim {
            id: "hu-lem19-L548",
            source: hu("Lemma 19, proof", "L548: d_j = ⌈log(24 ln T/(Δ_j min(Δ_j, ε)))⌉ gives 24 ln T/(Δ_j min) ≤ 2^{d_j} ≤ 2·24 ln T/(Δ_j min)"),
            statement: "With x = 24 ln T/(Δ_j min(Δ_j, ε)) and d_j = ⌈log₂ x⌉: x ≤ 2^{d_j} ≤ 2x.",
            math: "x ≤ 2^{⌈log₂ x⌉} < 2x, x > 0",
            method: Method::BranchAndBound,
            domain: "every x > 0 (T ≥ 2): reduced exactly to x ∈ (1, 2] by x ↦ 2x",
            cost: Cost::Fast,
            check: || steps("log is log₂ here (the doubling epochs).", ceiling_bracket()),
        },
        Claim {
            id: "hu-eq29",
            source: hu("Lemma 19, proof, eq. (29)", "L564: √(ln(T³)/(24 ln T/(Δ_j min{Δ_j, ε}))) + ln(T³)/(ε·24 ln T/(Δ_j min{Δ_j, ε})) < 0.5Δ_j"),
            statement: "√(ln(T³)/(24 ln T/(Δ_j m))) + ln(T³)/(ε·24 ln T/(Δ_j m)) < 0.5Δ_j with m = min{Δ_j, ε}.",
            math: "√(a/8) + b/8 < 1/2 with a = m/Δ_j ∈ (0, 1], b = m/ε ∈ (0, 1]",
            method: Method::BranchAndBound,
            domain: "every T ≥ 2, Δ_j, ε > 0: ln(T³) = 3 ln T cancels, dividing by Δ_j leaves √(a/8) + b/8 with a, b ∈ (0, 1]; as 1/2 − b/8 ≥ 3/8 > 0, squaring is exact: (1/2 − b/8)² − a/8 > 0 on [0, 1]²",
            cost: Cost::Fast,
            check: || {
                let f = |x: &[Certified]| {
                    let r = q_of(1, 2, &x[0]) - q_of(1, 8, &x[0]) * &x[1];
                    Ok(r.clone() * &r - q_of(1, 8, &x[0]) * &x[0])
                };
                steps("", (|| Ok(vec![ineq("(1/2 − b/8)² − a/8 > 0 on a, b ∈ [0, 1]", Role::Claim, &["a", "b"], vec![(q(0, 1), q(1, 1)), (q(0, 1), q(1, 1))], Sense::Positive, &f, None)?]))())
            },
        },
        Claim {
            id: "hu-thm5-L611",
            source: hu("Theorem 5, proof (Lemma 20, Appendix C.1)", "L611: Clip(μ_j + 6 ln t/(ε·72 ln t/(εΔ_j)) + √(3 ln t/(72 ln t/Δ_j²))) ≤ μ_j + Δ_j/3"),
            statement: "6 ln t/(ε·72 ln t/(εΔ)) + √(3 ln t/(72 ln t/Δ²)) ≤ Δ/3, i.e. Δ/12 + Δ/√24 ≤ Δ/3.",
            math: "1/3 − 1/12 − √(1/24) ≥ 0",
            method: Method::BranchAndBound,
            domain: "every t ≥ 2, ε, Δ > 0: ln t and ε cancel and Δ > 0 divides out; one certified evaluation (√ as exp(½ ln))",
            cost: Cost::Fast,
            check: || {
                steps("", (|| Ok(vec![constant("1/3 − 1/12 − √(1/24) > 0", Role::Claim, &|p| {
                    Ok(c(1, 4, p) - (c(1, 2, p) * &c(1, 24, p).ln()?).exp()?)
                })?]))())
            },
        },
        Claim {
            id: "hu-thm5-L617",
            source: hu("Theorem 5, proof, step (e) of (36)", "L617: 1/2^r ≤ 1/2^{d_j} < Δ_j/12, with 2^{d_j} ≥ 72 ln T/(Δ_j min{ε, Δ_j})"),
            statement: "72 ln T/(Δ_j min{ε, Δ_j}) > 12/Δ_j for every T ≥ 2 and Δ_j ∈ (0, 1], ε > 0.",
            math: "6 ln T > min{ε, Δ_j}; it suffices 6 ln 2 − 1 > 0",
            method: Method::BranchAndBound,
            domain: "every T ≥ 2, Δ_j ∈ (0, 1], ε > 0: multiplied by Δ_j min/12 > 0 the claim is 6 ln T > min{ε, Δ_j}, and min ≤ Δ_j ≤ 1 < 6 ln 2 ≤ 6 ln T (ln increasing); one certified evaluation",
            cost: Cost::Fast,
            check: || steps("", (|| Ok(vec![constant("6 ln 2 − 1 > 0", Role::Claim, &|p| Ok(c(6, 1, p) * &c(2, 1, p).ln()? - c(1, 1, p)))?]))()),
        },
        Claim {
            id: "hu-eq36-g",
            source: hu("Theorem 5, proof, eq. (36), steps (f)–(g) and the last", "L615, L617 with y_j := μ_1 − Δ_j/6 (L609): e^{−(2^r+1) d_KL(μ_j + 5Δ_j/12, y_j)} ≤ e^{−2^{d_j}·2·25Δ_j²/144} ≤ 1/T²"),
            statement: "y_j − (μ_j + 5Δ_j/12) = 5Δ_j/12 (with μ_1 = μ_j + Δ_j), so Pinsker gives 2(5Δ_j/12)² = 2·25Δ_j²/144; and 2^{d_j} ≥ 72 ln T/Δ_j² makes the exponent ≥ 25 ln T ≥ 2 ln T.",
            math: "(μ_j + Δ − Δ/6) − (μ_j + 5Δ/12) = 5Δ/12 and (72L/Δ²)·2·25Δ²/144 = 25L, L = ln T",
            method: Method::ExactAlgebra,
            domain: "every μ_j, Δ_j > 0, T ≥ 2 (25L ≥ 2L as L ≥ 0): identities of degree ≤ 1 in μ, L and of degree ≤ 2 in Δ after clearing Δ²",
            cost: Cost::Fast,
            check: || {
                let gap = identity(
                    "the difference is a polynomial of degree 1 in μ and Δ (grid {1/3, 2/3}²).",
                    &["μ_j", "Δ"],
                    &grid(&[axis(2), axis(2)]),
                    &|p: &[Q]| (p[0].clone() + &p[1] - p[1].clone() / q(6, 1)) - (p[0].clone() + q(5, 12) * &p[1]),
                    &|p: &[Q]| q(5, 12) * &p[1],
                )?;
                if gap.status != crate::verify::Status::Certified {
                    return Ok(gap);
                }
                identity(
                    "y − (μ_j + 5Δ/12) = 5Δ/12 (checked first, exactly); then both sides times Δ² are polynomials of degree ≤ 2 in Δ and ≤ 1 in L (grid Δ ∈ {1/3, 2/3, 1}, L ∈ {1/3, 2/3}).",
                    &["Δ", "L"],
                    &grid(&[axis(3), axis(2)]),
                    &|p: &[Q]| q(72, 1) * &p[1] / (p[0].clone() * &p[0]) * q(2, 1) * q(25, 144) * &p[0] * &p[0],
                    &|p: &[Q]| q(25, 1) * &p[1],
                )
            },
        },
        Claim {
            id: "hu-eq36-kl",
            source: hu("Theorem 5, proof, eq. (36)", "L617: \"d_KL(x, y) ≥ 2(x − y)²\", used at step (g)"),
            statement: "d_KL(x, y) ≥ 2(x − y)² for Bernoulli parameters x, y ∈ (0, 1).",
            math: "x ln(x/y) + (1 − x) ln((1 − x)/(1 − y)) − 2(x − y)² ≥ 0",
            method: Method::InstanceGrid,
            domain: "a grid of ordered pairs x ≠ y (listed in the evidence): near the diagonal at 1/2 the margin is of order (x − y)⁴",
            cost: Cost::Fast,
            check: pinsker,
        },
        Claim {
            id: "hu-eq12",
            source: hu("Fact 15, eq. (12)", "L454–L458: Hoeffding's inequality for n variables in [0, 1]"),
            statement: "For X a sum of n independent variables with range [0, 1] and any a > 0, P{|X − E[X]| ≥ a} ≤ 2e^{−2a²/n}; checked for X ~ B(n, p).",
            math: "P{|X − np| ≥ a} ≤ 2e^{−2a²/n}, X ~ B(n, p)",
            method: Method::InstanceGrid,
            domain: "binomial sums (the extreme two-point case of each coordinate), n ∈ {1..40, 64, 100}, p ∈ {1/2, 1/3, 1/10, 1/100, 9/10, 2/3, 999/1000}, every threshold a = |k − np| > 0 (the worst a of each event)",
            cost: Cost::Slow,
            check: fact15,
        },
        Claim {
            id: "hu-eq14",
            source: hu("Fact 17, eq. (14)", "L464–L468: Chernoff–Hoeffding, the upper tail"),
            statement: "For X̄ the mean of n independent {0, 1} variables with mean μ and 0 < λ < 1 − μ: P{X̄ ≥ μ + λ} ≤ e^{−n d_KL(μ+λ, μ)}.",
            math: "P{X̄ ≥ x} ≤ e^{−n d_KL(x, μ)}, x = μ + λ ∈ (μ, 1)",
            method: Method::InstanceGrid,
            domain: "n ≤ 40, μ in a grid, x = k₀/n ∈ (μ, 1) (the worst λ of each event)",
            cost: Cost::Slow,
            check: || fact17(Tail::Upper),
        },
        Claim {
            id: "hu-eq15",
            source: hu("Fact 17, eq. (15)", "L470–L472 as printed: P{X ≥ μ − λ} ≤ e^{−n·d_KL(μ−λ, μ)} (the event with ≥ in the LaTeX and in the annotated form; the Unicode rendering drops the relation and minus signs on this line)"),
            statement: "As printed: for 0 < λ < μ, P{X̄ ≥ μ − λ} ≤ e^{−n d_KL(μ−λ, μ)}. False: the event X̄ ≥ μ − λ has probability near 1 while the bound decays in n; the intended lower tail P{X̄ ≤ μ − λ} is hu-eq15-le (the direction every use of a lower deviation needs).",
            math: "P{X̄ ≥ x} ≤ e^{−n d_KL(x, μ)}, x = μ − λ ∈ (0, μ)",
            method: Method::InstanceGrid,
            domain: "n ≤ 40, μ in a grid, x = k₀/n ∈ (0, μ); refuted at the first failing case",
            cost: Cost::Fast,
            check: || fact17(Tail::LowerAsPrinted),
        },
        Claim {
            id: "hu-eq15-le",
            source: hu("Fact 17, eq. (15), intended", "L472 with the event X ≤ μ − λ"),
            statement: "For 0 < λ < μ: P{X̄ ≤ μ − λ} ≤ e^{−n d_KL(μ−λ, μ)}.",
            math: "P{X̄ ≤ x} ≤ e^{−n d_KL(x, μ)}, x = μ − λ ∈ (0, μ)",
            method: Method::InstanceGrid,
            domain: "n ≤ 40, μ in a grid, x = k₀/n ∈ (0, μ) (the worst λ of each event)",
            cost: Cost::Slow,
            check: || fact17(Tail::Lower),
        },
        Claim {
            id: "hu-lem7-i",
            source: hu("Lemma 7 (Agrawal & Goyal's Lemma 2.9, restated), first case", "L246–L250: E[P{θ_{1,s} ≤ y_j | ℱ}/P{θ_{1,s} > y_j | ℱ}] ≤ 3/(μ₁ − y_j) for s < 8/(μ₁ − y_j), θ_{1,s} ~ Beta(μ̂_{1,s}s + 1, (1 − μ̂_{1,s})s + 1); the second case is a Θ(·) with no explicit constant, not checked"),
            statement: "For the optimal arm's posterior after s pulls, θ ~ Beta(S + 1, s − S + 1) with S ~ B(s, μ₁), and every y < μ₁: E[P{θ ≤ y | S}/P{θ > y | S}] ≤ 3/(μ₁ − y) whenever s < 8/(μ₁ − y).",
            math: "Σ_S b(S; s, μ₁)(1/F^B_{s+1,y}(S) − 1) ≤ 3/(μ₁ − y), 0 ≤ s < 8/(μ₁ − y)",
            method: Method::InstanceGrid,
            domain: "a grid of μ₁ and μ₁ − y, every s below 8/(μ₁ − y) (listed in the evidence), then the adversarial search over μ₁ − y ∈ [1/50, 1], μ₁ ∈ [μ₁ − y, 1] and s < 8/(μ₁ − y)",
            cost: Cost::Slow,
            check: lem7_first,
        },
        Claim {
            id: "hu-eq16",
            source: hu("Fact 18, eq. (16)", "L476–L480: F^Beta_{α,β}(y) = 1 − F^B_{α+β−1, y}(α − 1) for positive integers α, β"),
            statement: "For all positive integers α, β: the Beta(α, β) CDF at y equals 1 − F^B_{α+β−1,y}(α − 1).",
            math: "I_y(α, β) = 1 − Σ_{i<α} C(α+β−1, i) y^i (1 − y)^{α+β−1−i}",
            method: Method::InstanceGrid,
            domain: "α, β ∈ {1..10}, each pair over every y ∈ [0, 1] (polynomial identity decided exactly)",
            cost: Cost::Fast,
            check: fact18,
        },
        Claim {
            id: "hu-lem24-L735",
            source: hu("Lemma 24, proof", "L735: P{G_j^{(r)} − G_1^{(r)} + 2^rΔ_j ≥ 2^rΔ_j/2} ≤ e^{−2^rΔ_j²/8} (Hoeffding)"),
            statement: "The arithmetic of the step only (Hoeffding's exponent; the probability bound on the algorithm's sums is not evaluated here): Hoeffding's exponent for 2^r differences in [−1, 1] at the deviation 2^rΔ_j/2 is 2^rΔ_j²/8 (as printed; compare Wu & Wang's /4 at ww-cor1-L477).",
            math: "2(nΔ/2)²/Σ_{s≤n}(1 − (−1))² = nΔ²/8, n = 2^r",
            method: Method::ExactAlgebra,
            domain: "every n ≥ 1 and Δ: identity of rational functions",
            cost: Cost::Fast,
            check: || hoeffding_exponent(4, 8),
        },
        Claim {
            id: "hu-lem24-L745",
            source: hu("Lemma 24, proof", "L745: e^{−2^rΔ_(ℓ)²/8} + e^{−2^rΔ_(ℓ)ε/4} ≤ 2e^{−2^rΔ_(ℓ) min{Δ_(ℓ), ε}/8}"),
            statement: "With n = 2^r: e^{−nΔ²/8} + e^{−nΔε/4} ≤ 2e^{−nΔ min{Δ, ε}/8}.",
            math: "e^{−nΔ²/8} + e^{−nΔε/4} ≤ 2e^{−nΔ min{Δ,ε}/8}",
            method: Method::ExactAlgebra,
            domain: "every n, Δ, ε > 0: exact comparison of the exponent constants",
            cost: Cost::Fast,
            check: || Ok(merge_tails(q(1, 8), q(1, 4), q(1, 8))),
        },
        Claim {
            id: "hu-lem22-L677",
            source: hu("Lemma 22, proof", "L677: P{|μ̂_{j,2^r} − μ_j| > √(3 ln t/2^r)} ≤ 2e^{−2·2^r·3 ln t/2^r} = 2t^{−6} (Fact 15 with a = 2^r·√(3 ln t/2^r))"),
            statement: "The arithmetic of the step only (the exponent; the tail bound itself is Fact 15, checked on instances as hu-eq12): Fact 15 with n = 2^r and a = n√(3 ln t/n) gives the exponent 2a²/n = 2·2^r·(3 ln t/2^r) = 6 ln t.",
            math: "2(n√(3L/n))²/n = 6L, L = ln t",
            method: Method::ExactAlgebra,
            domain: "every n = 2^r ≥ 1 and t ≥ 2: (n√(3L/n))² = n²·3L/n, an identity of rational functions in n, L",
            cost: Cost::Fast,
            check: hoeffding_at_three_log,
        },
        Claim {
            id: "hu-thm3-L534",
            source: hu("Theorem 3, proof (Appendix B.2.1)", "L534, first to second line: ω_j^{(d_j+1)} + Σ_s P{r_j(T) = s}Σ_{q=d_j+1}^{s+1} 2^q ≤ ω_j^{(d_j)} + Σ_s P{r_j(T) = s}ω_j^{(s+1)}"),
            statement: "As printed: the second line of (24) replaces ω_j^{(d_j+1)} by ω_j^{(d_j)} and is claimed ≥ the first. False for every law of r_j(T): the first line minus the second is 2^{d_j+1}(1 − p) + p ≥ 1, p = P{r_j(T) ≥ d_j + 1}. In the paper's range d_j = ⌈log(24 ln T/(Δ_j min{Δ_j, ε}))⌉ ≥ ⌈log₂(24 ln 2)⌉ = 5 (T ≥ 2, Δ_j ≤ 1, L174); at T = 2, Δ_j = ε = 1 it is 5 and p = 0 (r_j(T) ≤ log T = 1), so 127 ≤ 63 would be needed. The first line's ω_j^{(d_j+1)} (as in the sketch at L174) is hu-thm3-L534-d1; the O(·) conclusion is unaffected.",
            math: "ω^{(d+1)} + Σ_s P_s(ω^{(s+1)} − ω^{(d)}) − (ω^{(d)} + Σ_s P_s ω^{(s+1)}) = 2^{d+1}(1 − p) + p, ω^{(r)} = 2^{r+1} − 1, p = Σ_{s>d} P_s",
            method: Method::ExactAlgebra,
            domain: "every d_j ≥ 5 (its range in the paper) and every law of r_j(T): the difference of the two lines is an identity in 2^{d_j+1}, the P_s and the 2^{s+2}; witness d_j = 5 (T = 2, Δ_j = ε = 1), p = 0 (127 > 63)",
            cost: Cost::Fast,
            check: thm3_l534,
        },
        Claim {
            id: "hu-thm3-L534-d1",
            source: hu("Theorem 3, proof (Appendix B.2.1), intended", "L534 with ω_j^{(d_j+1)} kept, and L536: Σ_{q=d_j+1}^{s+1} 2^q ≤ ω_j^{(s+1)}"),
            statement: "Σ_{q=d+1}^{s+1} 2^q = ω^{(s+1)} − ω^{(d)} ≤ ω^{(s+1)}, so E[n_j(T)] ≤ ω^{(d_j+1)} + Σ_s P{r_j(T) = s}ω^{(s+1)}.",
            math: "Σ_{q=d+1}^{s+1} 2^q = (2^{s+2} − 1) − (2^{d+1} − 1) ≤ 2^{s+2} − 1",
            method: Method::ExactAlgebra,
            domain: "every 0 ≤ d ≤ s: the difference of two doubling sums (induction, exact) and ω^{(d)} ≥ 0",
            cost: Cost::Fast,
            check: || Ok(doubling_sum("Σ_{q=d+1}^{s+1} 2^q = ω^{(s+1)} − ω^{(d)} ≤ ω^{(s+1)}, with ω^{(d)} = 2^{d+1} − 1 ≥ 1 (L536)")),
        },
        Claim {
            id: "hu-thm9-L764",
            source: hu("Theorem 9, proof (Appendix D.2)", "L763–L765: Σ_{r≥r₀+1} 2^r P{∃j: G̃_j^{(r−1)} − G̃_1^{(r−1)} ≥ 0} ≤ 2|J_ℓ| max_j Σ_{r≥r₀} 2^r P{…^{(r)}} ≤ 4|J_ℓ| max_j Σ_{r≥r₀} 2^r e^{−2^r α_ℓ}"),
            statement: "Shifting r − 1 → r doubles the weight (2^{r+1} = 2·2^r), the union bound gives |J_ℓ|, and Lemma 24's factor 2 makes 2·2 = 4.",
            math: "2^{(r+1)} = 2·2^r and 2·2 = 4",
            method: Method::ExactAlgebra,
            domain: "every r ≥ 0: an identity of degree 1 in x = 2^r",
            cost: Cost::Fast,
            check: || doubles("with x = 2^r, 2^{r+1} = 2x is of degree 1 (grid x ∈ {1, 2}); 2·2 = 4 exactly.", vec![q(1, 1), q(2, 1)]),
        },
        Claim {
            id: "hu-thm9-L771",
            source: hu("Theorem 9, proof (Appendix D.2)", "L771–L772: Σ_{s=1}^{2^r} e^{−2^rα} = 2Σ_{s=1}^{2^{r−1}} e^{−2^rα} ≤ 2Σ_{s=1}^{2^{r−1}} e^{−(2^{r−1}+s)α}"),
            statement: "2^r terms are 2·2^{r−1} terms, and 2^{r−1} + s ≤ 2^r for s ≤ 2^{r−1} (so e^{−2^rα} ≤ e^{−(2^{r−1}+s)α}).",
            math: "2^r = 2·2^{r−1}; 2^r − (2^{r−1} + s) = x − s ≥ 0 for 1 ≤ s ≤ x = 2^{r−1}",
            method: Method::ExactAlgebra,
            domain: "every r ≥ 1, 1 ≤ s ≤ 2^{r−1}: identities of degree 1 in x = 2^{r−1}",
            cost: Cost::Fast,
            check: || {
                identity(
                    "with x = 2^{r−1}, 2^r − (x + s) = x − s is of degree 1 in x and s (grid x, s ∈ {1/3, 2/3}); x − s ≥ 0 on s ≤ x, and 2^r = 2x.",
                    &["x = 2^{r−1}", "s"],
                    &grid(&[axis(2), axis(2)]),
                    &|p: &[Q]| q(2, 1) * &p[0] - (p[0].clone() + &p[1]),
                    &|p: &[Q]| p[0].clone() - &p[1],
                )
            },
        },
        Claim {
            id: "hu-thm9-L775",
            source: hu("Theorem 9, proof (Appendix D.2)", "L773–L775: 2Σ_{s≥2^{r₀−1}+1} e^{−sα} ≤ 2e^{−2^{r₀−1}α}Σ_{s≥0} e^{−sα} = 2e^{−2^{r₀−1}α}/(1 − e^{−α})"),
            statement: "Σ_{s≥N+1} z^s = z^{N+1}/(1 − z) ≤ z^N/(1 − z) = z^N Σ_{s≥0} z^s for z = e^{−α} ∈ (0, 1).",
            math: "Σ_{s=0}^{n−1} z^s = (1 − z^n)/(1 − z)",
            method: Method::ExactAlgebra,
            domain: "every n ≥ 1 and z ∈ (0, 1) (the limit n → ∞ gives the series; z^{N+1} ≤ z^N as z ≤ 1)",
            cost: Cost::Fast,
            check: || Ok(exactly("the geometric partial sums (1 − z^n)/(1 − z) by induction — the base n = 1 and the step, an identity of degree 1 in w = z^n after multiplying by 1 − z, at two w for each z ∈ {1/3, 1/2, 2/3}.", geometric_series())),
        },
        Claim {
            id: "hu-thm12-L319-c",
            source: hu("Theorem 12, discussion", "L319: the first (non-private) term of the lower bound \"requires Δmin > 1/4, K ≥ 4 and T ≥ ln K/(16Δmin²)\", against the theorem's hypothesis Δmin ∈ (0, 1/4) at L317"),
            statement: "As printed at L319: the first term of Theorem 12 requires Δmin > 1/4, so the theorem's own range Δmin ∈ (0, 1/4) (L317) meets the requirement. False at every point of that range (Δmin = 1/8 is not > 1/4): the relation is reversed, and the theorem's range is the one its proof uses.",
            math: "1/4 < Δmin for Δmin ∈ (0, 1/4)",
            method: Method::ExactAlgebra,
            domain: "Δmin ∈ (0, 1/4) (L317); refuted exactly at Δmin = 1/8 (any point of the range would do)",
            cost: Cost::Fast,
            check: || {
                Ok(false_at(
                    &["Δmin"],
                    &[q(1, 8)],
                    &|_: &[Q]| q(1, 4),
                    Rel::Lt,
                    &|p: &[Q]| p[0].clone(),
                ))
            },
        },
        Claim {
            id: "hu-thm12-L319-b",
            source: hu("Theorem 12, discussion", "L319: with Δmin = √(ln K/T) the non-private condition T ≥ ln K/(16Δmin²) always holds"),
            statement: "With Δ² = ln K/T: ln K/(16Δ²) = T/16 ≤ T.",
            math: "L/(16·(L/T)) = T/16, L = ln K",
            method: Method::ExactAlgebra,
            domain: "every T > 0, K ≥ 2: both sides times L are of degree ≤ 1 in T and L; T/16 ≤ T as T > 0",
            cost: Cost::Fast,
            check: || {
                identity(
                    "both sides times L are polynomials of degree ≤ 1 in T and L (grid T, L ∈ {1/3, 2/3}); T − T/16 = 15T/16 > 0.",
                    &["T", "L"],
                    &grid(&[axis(2), axis(2)]),
                    &|p: &[Q]| p[1].clone() / (q(16, 1) * (p[1].clone() / &p[0])),
                    &|p: &[Q]| p[0].clone() / q(16, 1),
                )
            },
        },
        Claim {
            id: "hu-thm12-L319-minimax",
            source: hu("Theorem 12, discussion", "L319: with Δmin = √(ln K/T) the minimax lower bound max{√(T log K), log K/ε} \"holds provided that T ≥ ln K/(100ε²)\", against the theorem's hypothesis Δmin ∈ (0, 1/4) at L317"),
            statement: "As printed at L319: with Δmin = √(ln K/T) and K ≥ 4, T ≥ ln K/(100ε²) suffices for Theorem 12 to give the minimax bound, so Δmin = √(ln K/T) lies in the theorem's range (0, 1/4). False: Δmin < 1/4 is T > 16 ln K, which the remark omits; at ε = 1, K = 100, T = 50 the remark's condition holds (50 ≥ ln 100/100 = 0.046) while Δmin = √(ln 100/50) = 0.30 > 1/4.",
            math: "T ≥ ln K/(100ε²) ⇒ ln K/T < 1/16, at ε = 1, K = 100, T = 50",
            method: Method::BranchAndBound,
            domain: "K ≥ 4, ε > 0, T ≥ ln K/(100ε²); refuted at ε = 1, K = 100, T = 50 (two certified constants)",
            cost: Cost::Fast,
            check: thm12_l319_minimax,
        },
        Claim {
            id: "hu-thm12-L319-horizon",
            source: hu("Theorem 12, discussion, intended", "L319 with T > 16 ln K added: Δmin = √(ln K/T) then lies in (0, 1/4), the range of L317"),
            statement: "With Δmin = √(ln K/T): 1/16 − Δmin² = (T − 16 ln K)/(16T), so Δmin < 1/4 exactly when T > 16 ln K; with that hypothesis added (and K ≥ 4, T ≥ ln K/(100ε²)) Theorem 12 applies at Δmin = √(ln K/T).",
            math: "1/16 − L/T = (T − 16L)/(16T), L = ln K",
            method: Method::ExactAlgebra,
            domain: "every T > 0, K ≥ 2: both sides times 16T are polynomials of degree ≤ 1 in T and L; Δmin ≥ 0, so Δmin < 1/4 iff Δmin² < 1/16",
            cost: Cost::Fast,
            check: || {
                identity(
                    "1/16 − Δmin² with Δmin² = L/T: both sides times 16T are polynomials of degree ≤ 1 in T and L (grid T, L ∈ {1/3, 2/3}).",
                    &["T", "L"],
                    &grid(&[axis(2), axis(2)]),
                    &|p: &[Q]| q(1, 16) - p[1].clone() / &p[0],
                    &|p: &[Q]| (p[0].clone() - q(16, 1) * &p[1]) / (q(16, 1) * &p[0]),
                )
            },
        },
        Claim {
            id: "hu-thm5-L605",
            source: hu("Theorem 5, proof (Lemma 20, Appendix C.1)", "L605: Σ_{r=0}^{d_j} 2^{r+1} = O(log T/(Δ_j min{ε, Δ_j})) with d_j = ⌈log(72 ln T/(Δ_j min{ε, Δ_j}))⌉"),
            statement: "Σ_{r=0}^{d} 2^{r+1} = 2(2^{d+1} − 1) < 4·2^d, and 2^{d_j} < 2·72 ln T/(Δ_j min{ε, Δ_j}) (ceiling bracket), so the sum is below 576 ln T/(Δ_j min{ε, Δ_j}).",
            math: "Σ_{r=0}^{d} 2^{r+1} = 2^{d+2} − 2; 4·2·72 = 576",
            method: Method::ExactAlgebra,
            domain: "every d ≥ 0: the doubling sum by induction (exact); 4·2·72 = 576",
            cost: Cost::Fast,
            check: || Ok(doubling_sum("Σ_{r=0}^{d_j} 2^{r+1} = 2^{d_j+2} − 2 < 4·2^{d_j} < 8x = 576 ln T/(Δ_j min{ε, Δ_j}), with 2^{d_j} < 2x (x = 72 ln T/(Δ_j min), the ceiling bracket of hu-lem19-L548)")),
        },
        Claim {
            id: "hu-thm9-L751",
            source: hu("Theorem 9, proof (Appendix D.2)", "L749–L751: T = 2^{R+1} − 1 and τ(r) = 2^r, Σ_{t=1}^{T} = Σ_{r=0}^{R} 2^r (epoch r plays J_{τ(r)} in 2^r rounds)"),
            statement: "The epochs r = 0..R of lengths 2^r cover exactly T = 2^{R+1} − 1 rounds (here the decomposition and T agree, unlike ww-thm2-L420).",
            math: "Σ_{r=0}^{R} 2^r = 2^{R+1} − 1",
            method: Method::ExactAlgebra,
            domain: "every integer R ≥ 0, by induction",
            cost: Cost::Fast,
            check: || Ok(doubling_sum("Σ_{r=0}^{R} 2^r = 2^{R+1} − 1 = T, the epochs up to R fill the horizon (R' = R + 1)")),
        },
        Claim {
            id: "hu-thm9-L763",
            source: hu("Theorem 9, proof (Appendix D.2)", "L762–L763: 1 + Σ_{r=1}^{r₀} 2^r·1 < 2^{r₀+1}"),
            statement: "1 + Σ_{r=1}^{r₀} 2^r = 2^{r₀+1} − 1 < 2^{r₀+1}.",
            math: "Σ_{r=0}^{r₀} 2^r = 2^{r₀+1} − 1",
            method: Method::ExactAlgebra,
            domain: "every integer r₀ ≥ 0, by induction",
            cost: Cost::Fast,
            check: || Ok(doubling_sum("1 + Σ_{r=1}^{r₀} 2^r = 2^{r₀+1} − 1 < 2^{r₀+1}, the rounds before epoch r₀ + 1 (R = r₀ + 1)")),
        },
        Claim {
            id: "hu-thm9-L773",
            source: hu("Theorem 9, proof (Appendix D.2)", "L772–L773: Σ_{r≥r₀} Σ_{s=1}^{2^{r−1}} e^{−(2^{r−1}+s)α} = Σ_{s=2^{r₀−1}+1}^{∞} e^{−sα}"),
            statement: "The blocks {2^{r−1} + 1, …, 2^r}, r ≥ r₀, tile the integers ≥ 2^{r₀−1} + 1 (each once).",
            math: "|{2^{r−1}+1..2^r}| = 2^{r−1} and (2^r) + 1 = 2^{(r+1)−1} + 1",
            method: Method::ExactAlgebra,
            domain: "every r ≥ 1: identities of degree 1 in x = 2^{r−1}",
            cost: Cost::Fast,
            check: || Ok(exactly("block r has 2^r − 2^{r−1} = 2^{r−1} elements and block r + 1 starts at 2^r + 1, one past the end of block r (identities of degree 1 in x = 2^{r−1}, checked at x ∈ {1, 2}); so the blocks r ≥ r₀ are disjoint and cover [2^{r₀−1} + 1, ∞).", dyadic_blocks())),
        },
        Claim {
            id: "hu-thm9-L782",
            source: hu("Theorem 9, proof (Appendix D.2)", "L765 and L776 into L782: 4|J_ℓ|·4e^{−2^{r₀−1}α_ℓ}/α_ℓ = 128|J_ℓ|e^{−2^{r₀−1}m/8}/m, α_ℓ = m/8, m = min{Δ_(ℓ)², Δ_(ℓ)ε}"),
            statement: "4·(4/α) = 128/m when α = m/8.",
            math: "16/(m/8) = 128/m",
            method: Method::ExactAlgebra,
            domain: "every m > 0: both sides times m are constants",
            cost: Cost::Fast,
            check: || identity("both sides times m are constants (one point determines them; three are checked).", &["m"], &grid(&[axis(3)]), &|p: &[Q]| q(4, 1) * (q(4, 1) / (p[0].clone() / q(8, 1))), &|p: &[Q]| q(128, 1) / &p[0]),
        },
        Claim {
            id: "hu-thm9-L786",
            source: hu("Theorem 9, proof (Appendix D.2)", "L784–L786: r₀ = ⌈log(8 ln|J_ℓ|/m)⌉ + 1 gives β_(ℓ) ≤ 64 ln|J_ℓ|/m + 128/m"),
            statement: "With x = 8 ln|J_ℓ|/m and r₀ = ⌈log₂ x⌉ + 1: 2^{r₀+1} = 4·2^{⌈log₂ x⌉} < 8x = 64 ln|J_ℓ|/m, and 2^{r₀−1} ≥ x gives 128|J_ℓ|e^{−2^{r₀−1}m/8}/m ≤ 128|J_ℓ|e^{−ln|J_ℓ|}/m = 128/m.",
            math: "x ≤ 2^{⌈log₂ x⌉} < 2x, x = 8 ln|J_ℓ|/m",
            method: Method::BranchAndBound,
            domain: "every x > 0 (|J_ℓ| ≥ 2; for |J_ℓ| = 1 the union bound is not needed): reduced exactly to x ∈ (1, 2] by x ↦ 2x",
            cost: Cost::Fast,
            check: || steps("4·8 = 32 and 8·8 = 64 (exact).", ceiling_bracket()),
        },
        Claim {
            id: "hu-thm9-L790",
            source: hu("Theorem 9, proof (Appendix D.2)", "L790: 2Δ_(ℓ)·β_(ℓ) = 128 ln|J_ℓ|/min{Δ_(ℓ), ε} + 256/min{Δ_(ℓ), ε} ≤ 256(1 + ln|J_ℓ|)/min{Δ_(ℓ), ε}"),
            statement: "2Δ(64L/(Δm) + 128/(Δm)) = 128L/m + 256/m with min{Δ², Δε} = Δm, m = min{Δ, ε}, L = ln|J_ℓ|; and 128L + 256 ≤ 256(1 + L) as L ≥ 0.",
            math: "2Δ(64L + 128)/(Δm) = (128L + 256)/m",
            method: Method::ExactAlgebra,
            domain: "every Δ, m > 0, L ≥ 0: both sides times Δm are polynomials of degree ≤ 1 in each of Δ, m, L; the inequality is 128L ≥ 0",
            cost: Cost::Fast,
            check: || {
                identity(
                    "both sides times Δm are polynomials of degree ≤ 1 in Δ, m and L (grid {1/3, 2/3}³); the last step is 256(1 + L) − (128L + 256) = 128L ≥ 0.",
                    &["Δ", "m", "L"],
                    &grid(&[axis(2), axis(2), axis(2)]),
                    &|p: &[Q]| q(2, 1) * &p[0] * (q(64, 1) * &p[2] + q(128, 1)) / (p[0].clone() * &p[1]),
                    &|p: &[Q]| (q(128, 1) * &p[2] + q(256, 1)) / &p[1],
                )
            },
        },
        Claim {
            id: "hu-thm9-L804",
            source: hu("Theorem 9, proof (Appendix D.2)", "L802–L804: Σ_{ℓ≥1} 256(1 + ln(K − 1))/(2^{ℓ−1}Δmin) = 512(1 + ln(K − 1))/Δmin"),
            statement: "Σ_{ℓ≥0} 1/2^ℓ = 2, so the sum is 512(1 + ln(K − 1))/Δmin (correct here; compare ww-thm2-L456).",
            math: "Σ_{ℓ≥1} 2^{−(ℓ−1)} = 2",
            method: Method::ExactAlgebra,
            domain: "the series: partial sums 2 − 2^{1−n} by induction, exactly",
            cost: Cost::Fast,
            check: || Ok(exactly("the partial sums Σ_{ℓ=1}^{n} 2^{−(ℓ−1)} = 2 − 2^{1−n} (base n = 1; step an identity of degree 1 in 2^{−n}), so the series is 2 and 256·2 = 512.", halving_series())),
        },
        Claim {
            id: "hu-eq13-constants",
            source: hu("Fact 16, eq. (13)", "L459–L463: for Y ~ Lap(b) and δ ∈ (0, 1], P{|Y| > ln(1/δ)·b} = δ (Fact 3.7 of Dwork et al.)"),
            statement: "Fact 16's constants: for Y ~ Lap(b) (density (11), L453) and δ ∈ (0, 1], P{|Y| > ln(1/δ)·b} = δ, checked as the arithmetic of its two-line proof — the two tails, the normalisation 1/(2b), the b of ∫_a^∞ e^{−x/b} dx = b·e^{−a/b} (the antiderivative −b·e^{−x/b}, not machine-checked) and the exponent a/b = ln(1/δ) leave exactly δ.",
            math: "P{|Y| > a} = 2∫_a^∞ e^{−x/b}/(2b) dx = 2·(1/(2b))·b·e^{−a/b} = e^{−a/b}; a = ln(1/δ)·b gives e^{−ln(1/δ)} = δ",
            method: Method::ExactAlgebra,
            domain: "every b > 0, δ ∈ (0, 1]: the integral ∫_a^∞ e^{−x/b} dx = b·e^{−a/b} (the antiderivative −b·e^{−x/b}); what is checked is that the constants — the two tails, the normalisation 1/(2b), the b of the integral and the exponent a/b — leave exactly δ",
            cost: Cost::Fast,
            check: || {
                let constants = identity(
                    "with E = e^{−a/b} as a variable, 2·(1/(2b))·b·E = E: both sides times b are of degree ≤ 2 in b and 1 in E (grid b ∈ {1/3, 2/3, 1}, E ∈ {1/3, 2/3}).",
                    &["b", "E"],
                    &grid(&[axis(3), axis(2)]),
                    &|p: &[Q]| q(2, 1) * (Q::one() / (q(2, 1) * &p[0])) * &p[0] * &p[1],
                    &|p: &[Q]| p[1].clone(),
                )?;
                let exponent = identity(
                    "with L = ln(1/δ) as a variable, a/b = (L·b)/b = L: both sides times b are of degree ≤ 1 in L and b (grid {1/3, 2/3}²); so the tail is e^{−L} = δ.",
                    &["b", "L"],
                    &grid(&[axis(2), axis(2)]),
                    &|p: &[Q]| (p[1].clone() * &p[0]) / &p[0],
                    &|p: &[Q]| p[1].clone(),
                )?;
                Ok(all_of(vec![constants, exponent]))
            },
        },
        Claim {
            id: "hu-eq23",
            source: hu("Theorem 3, proof (Appendix B.2.1), eq. (23)", "L528: Σ_{q=0}^{r_j(T)+1} 2^q ≤ Σ_{q=0}^{d_j+1} 2^q + Σ_{q=d_j+1}^{r_j(T)+1} 2^q = ω_j^{(d_j+1)} + Σ_{q=d_j+1}^{r_j(T)+1} 2^q"),
            statement: "For all integers r, d ≥ 0: Σ_{q=0}^{r+1} 2^q ≤ ω^{(d+1)} + Σ_{q=d+1}^{r+1} 2^q with ω^{(d+1)} = Σ_{q=0}^{d+1} 2^q (the term q = d + 1 counted twice; the second sum empty when r < d). The first step of (23), n_j(T) ≤ ω^{(r_j(T)+1)}, is the array sizes of Algorithm 1 and is not part of this claim.",
            math: "r ≥ d: (2^{d+2} − 1) + (2^{r+2} − 2^{d+1}) − (2^{r+2} − 1) = 2^{d+1} ≥ 0; r < d: (2^{d+2} − 1) − (2^{r+2} − 1) = 4(2^d − 2^r) > 0",
            method: Method::ExactAlgebra,
            domain: "every pair of integers r, d ≥ 0: the doubling sums by induction, then identities of degree 1 in x = 2^d, y = 2^r (y < x when r < d)",
            cost: Cost::Fast,
            check: || {
                let sums = doubling_sum("eq. (23): Σ_{q=0}^{n} 2^q = 2^{n+1} − 1 and Σ_{q=d+1}^{r+1} 2^q = 2^{r+2} − 2^{d+1} for r ≥ d");
                let overlap = identity(
                    "r ≥ d: with x = 2^d, y = 2^r, the right side minus the left side is (4x − 1) + (4y − 2x) − (4y − 1) = 2x, of degree 1 (grid x, y ∈ {1/3, 2/3}).",
                    &["x = 2^d", "y = 2^r"],
                    &grid(&[axis(2), axis(2)]),
                    &|p: &[Q]| (q(4, 1) * &p[0] - Q::one()) + (q(4, 1) * &p[1] - q(2, 1) * &p[0]) - (q(4, 1) * &p[1] - Q::one()),
                    &|p: &[Q]| q(2, 1) * &p[0],
                )?;
                let empty = identity(
                    "r < d (second sum empty): (4x − 1) − (4y − 1) = 4(x − y), positive as y = 2^r < 2^d = x (grid x, y ∈ {1/3, 2/3}).",
                    &["x = 2^d", "y = 2^r"],
                    &grid(&[axis(2), axis(2)]),
                    &|p: &[Q]| (q(4, 1) * &p[0] - Q::one()) - (q(4, 1) * &p[1] - Q::one()),
                    &|p: &[Q]| q(4, 1) * (p[0].clone() - &p[1]),
                )?;
                Ok(all_of(vec![sums, overlap, empty]))
            },
        },
        Claim {
            id: "hu-eq28",
            source: hu("Lemma 19, proof, eq. (28)", "L556–L560: P{μ̃_{j,2^{s−1}} ≥ μ_j + √(ln(t³)/2^{s−1}) + ln(t³)/(ε2^{s−1})} ≤ P{Laplace part} + P{Hoeffding part} = O(1/t³); the same for the optimal arm at L560"),
            statement: "The arithmetic of the step only (the probability bounds it applies are Fact 16, hu-eq13-constants, and Hoeffding's inequality, Fact 15, hu-eq12 on instances; the tails of Algorithm 1's noisy means are not evaluated here): With n = 2^{s−1} observations and noise Lap(1/ε) on their sum (Lap(1/(εn)) on the mean, Algorithm 1): the Laplace part is at most e^{−ln(t³)} = t^{−3} (Fact 16 with b = 1/(εn), a = ln(t³)/(εn)), the Hoeffding part at most 2e^{−2n·ln(t³)/n} = 2t^{−6} (Fact 15 as printed, two-sided, for the sum nμ̂ at the deviation a = n√(ln(t³)/n)), and t^{−3} + 2t^{−6} ≤ 3t^{−3} for t ≥ 1: the O(1/t³) has the constant 3.",
            math: "(ln(t³)/(εn))/(1/(εn)) = 3L; 2(n√(3L/n))²/n = 6L (L = ln t); 3t^{−3} − t^{−3} − 2t^{−6} = 2(t³ − 1)/t⁶ ≥ 0",
            method: Method::ExactAlgebra,
            domain: "every t ≥ 1, ε > 0, n = 2^{s−1} ≥ 1: the exponents are identities of rational functions in L = ln t, ε, n; the sum is t³ − 1 ≥ 0 on t ≥ 1 (Taylor shift)",
            cost: Cost::Fast,
            check: || {
                let (laplace, hoeffding) = (laplace_at_three_log()?, hoeffding_at_three_log()?);
                let sum = ray("t⁶(3t^{−3} − t^{−3} − 2t^{−6}) = 2t³ − 2 ≥ 0 on t ≥ 1", &q(1, 1), &[q(-2, 1), q(0, 1), q(0, 1), q(2, 1)]);
                Ok(all_of(vec![laplace, hoeffding, sum]))
            },
        },
        Claim {
            id: "hu-lem23-L687",
            source: hu("Lemma 23, proof, eq. (46)", "L685–L687: P{|μ̂_{j,O} − μ̃_{j,O}| > 3 ln t/(ε·O)} ≤ e^{−3 ln t} (Fact 16; the text cites it as \"Fact 13\")"),
            statement: "The arithmetic of the step only (the threshold put into Fact 16, whose tail is certified as hu-eq13-constants): With noise Lap(1/ε) on the sum of O observations (Lap(1/(εO)) on the mean, Algorithm 3), Fact 16 at the threshold 3 ln t/(εO) gives exactly e^{−3 ln t} = t^{−3}.",
            math: "(3L/(εO))/(1/(εO)) = 3L, L = ln t",
            method: Method::ExactAlgebra,
            domain: "every t ≥ 2, ε > 0, O ≥ 1: an identity of rational functions in L, ε, O",
            cost: Cost::Fast,
            check: laplace_at_three_log,
        },
        Claim {
            id: "hu-lem24-L739",
            source: hu("Lemma 24, proof", "L737–L741: P{ξ_{j,r} ≥ 2^rΔ_j/2} ≤ 2P{Z ≥ 2^{r−2}Δ_j} ≤ e^{−ε·2^{r−2}Δ_j}, Z ~ Lap(1/ε), ξ_{j,r} the difference of two such noises"),
            statement: "The arithmetic of the step only (the union bound's factor and the Laplace tail's exponent; the probability of the noise difference is not evaluated here): A difference of two Lap(1/ε) noises exceeds 2^rΔ/2 only if one of them exceeds half of it, 2^{r−2}Δ (union bound, factor 2); the one-sided tail P{Z ≥ a} = ½e^{−εa} makes 2·½e^{−εa} = e^{−εa}; and ε2^{r−2}Δ = 2^rΔε/4, the exponent merged at L745 (hu-lem24-L745).",
            math: "(2^rΔ/2)/2 = 2^{r−2}Δ; 2·½ = 1; ε·2^{r−2}Δ = 2^rΔε/4",
            method: Method::ExactAlgebra,
            domain: "every r ≥ 0, Δ, ε > 0: identities of degree ≤ 1 in x = 2^r, Δ, ε",
            cost: Cost::Fast,
            check: || {
                let half = identity(
                    "with x = 2^r (so 2^{r−2} = x/4): (xΔ/2)/2 = xΔ/4, of degree ≤ 1 in x and Δ (grid {1/3, 2/3}²).",
                    &["x = 2^r", "Δ"],
                    &grid(&[axis(2), axis(2)]),
                    &|p: &[Q]| (p[0].clone() * &p[1] / q(2, 1)) / q(2, 1),
                    &|p: &[Q]| p[0].clone() * &p[1] / q(4, 1),
                )?;
                let exponent = identity(
                    "2·½·ε·(xΔ/4) = xΔε/4, the exponent of L745: degree ≤ 1 in each of x, Δ, ε (grid {1/3, 2/3}³).",
                    &["x = 2^r", "Δ", "ε"],
                    &grid(&[axis(2), axis(2), axis(2)]),
                    &|p: &[Q]| q(2, 1) * q(1, 2) * &p[2] * (p[0].clone() / q(4, 1) * &p[1]),
                    &|p: &[Q]| p[0].clone() * &p[1] * &p[2] / q(4, 1),
                )?;
                Ok(all_of(vec![half, exponent]))
            },
        },
        Claim {
            id: "hu-eq40-L645",
            source: hu("Lemma 21, proof, eq. (40)", "L643–L645 with L250–L252: the first case of (40), 3/(μ₁ − y_j) for r ≤ ⌊d₁⌋, d₁ = log(8/(μ₁ − y_j)), taken from Lemma 7's first case, which needs s = 2^r < 8/(μ₁ − y_j)"),
            statement: "As printed: every integer r with 0 ≤ r ≤ ⌊d₁⌋ satisfies Lemma 7's condition s = 2^r < 8/(μ₁ − y_j). False when d₁ is an integer: at Δ_j = 3/4, μ₁ − y_j = Δ_j/6 = 1/8 (L609), d₁ = 6 and r = 6 give s = 64, not < 64, so Lemma 7's first case does not cover r = d₁ (its second case, s ≥ 8/(μ₁ − y_j), does). The intended split is hu-eq40-L645-ceil; the conclusion of (41) is unaffected.",
            math: "2^r < 8/x for every integer r ≤ ⌊log₂(8/x)⌋, x = μ₁ − y_j = Δ_j/6 ∈ (0, 1/6]",
            method: Method::ExactAlgebra,
            domain: "x = μ₁ − y_j = Δ_j/6 ∈ (0, 1/6] (L609, Δ_j ≤ 1), 0 ≤ r ≤ ⌊log₂(8/x)⌋; refuted at Δ_j = 3/4 (x = 1/8), r = 6",
            cost: Cost::Fast,
            check: || Ok(eq40_printed(&q(3, 4))),
        },
        Claim {
            id: "hu-eq40-L645-ceil",
            source: hu("Lemma 21, proof, eq. (40), intended", "L645 with the first case for r ≤ ⌈d₁⌉ − 1 (and the second for r ≥ ⌈d₁⌉, as printed)"),
            statement: "For every integer r ≤ ⌈d₁⌉ − 1, d₁ = log₂(8/x): 2^r < 8/x, so Lemma 7's first case applies; every r ≥ ⌈d₁⌉ has 2^r ≥ 8/x, Lemma 7's second case. The two cases then cover each r exactly once.",
            math: "2^{⌈log₂ X⌉ − 1} < X ≤ 2^{⌈log₂ X⌉}, X = 8/x > 0",
            method: Method::BranchAndBound,
            domain: "every X = 8/(μ₁ − y_j) > 0: the ceiling bracket X ≤ 2^{⌈log₂ X⌉} < 2X, reduced exactly to X ∈ (1, 2] by X ↦ 2X",
            cost: Cost::Fast,
            check: || steps("Halving the bracket's upper side gives 2^{⌈log₂ X⌉ − 1} < X; 2^r is increasing in r.", ceiling_bracket()),
        },
        Claim {
            id: "hu-eq41",
            source: hu("Lemma 21, proof, eq. (41)", "L647–L649: Σ_{r=0}^{⌊d₁⌋} 2^{r+1}·3/(μ₁ − y_j) ≤ O(1/(μ₁ − y_j)²), d₁ = log(8/(μ₁ − y_j))"),
            statement: "With x = μ₁ − y_j ∈ (0, 1]: Σ_{r=0}^{⌊d₁⌋} 2^{r+1}·3/x = (2^{⌊d₁⌋+2} − 2)·3/x < 4·2^{d₁}·3/x = 96/x², the explicit constant behind the O(1/(μ₁ − y_j)²) (with y_j = μ₁ − Δ_j/6, L609: 3456/Δ_j²).",
            math: "Σ_{r=0}^{m} 2^{r+1} = 2^{m+2} − 2; 2^{⌊d⌋} ≤ 2^d = 8/x; 4·(8/x)·(3/x) = 96/x²",
            method: Method::ExactAlgebra,
            domain: "every x ∈ (0, 1] (so d₁ ≥ 3): the doubling sum by induction, 2^{⌊d⌋} ≤ 2^d (floor and monotonicity), and an identity in x",
            cost: Cost::Fast,
            check: || {
                let sum = doubling_sum("eq. (41): Σ_{r=0}^{m} 2^{r+1} = 2^{m+2} − 2 < 4·2^m, m = ⌊d₁⌋, and 2^{⌊d₁⌋} ≤ 2^{d₁} = 8/x");
                let constant = identity(
                    "4·(8/x)·(3/x) = 96/x²: both sides times x² are constants (grid x ∈ {1/3, 2/3, 1}).",
                    &["x"],
                    &grid(&[axis(3)]),
                    &|p: &[Q]| q(4, 1) * (q(8, 1) / &p[0]) * (q(3, 1) / &p[0]),
                    &|p: &[Q]| q(96, 1) / (p[0].clone() * &p[0]),
                )?;
                let at_gap = identity(
                    "96/x² at x = Δ/6 is 3456/Δ²: both sides times Δ² are constants (grid Δ ∈ {1/3, 2/3, 1}).",
                    &["Δ"],
                    &grid(&[axis(3)]),
                    &|p: &[Q]| q(96, 1) / ((p[0].clone() / q(6, 1)) * (p[0].clone() / q(6, 1))),
                    &|p: &[Q]| q(3456, 1) / (p[0].clone() * &p[0]),
                )?;
                Ok(all_of(vec![sum, constant, at_gap]))
            },
        },
        Claim {
            id: "hu-thm12-L824",
            source: hu("Theorem 12, proof (Appendix D.3), Step 1", "L820–L824 and footnote 12: P_j has mean 1/2 + Δ at j and 1/2 elsewhere; \"the total variance [variation] distance for any pair of distributions in the packing is equal to Δ\", witnessed by A = (1, 0) × {0, 1}^{K−2}, so P is a Δ/2-packing"),
            statement: "For i ≠ j and every Δ ∈ (0, 1/2]: sup_{A ⊆ {0,1}^K} |P_i(A) − P_j(A)| = Δ > Δ/2, attained at A = {(1, 0)} × {0, 1}^{K−2} (coordinates i, j first).",
            math: "TV(B(½+Δ)⊗B(½), B(½)⊗B(½+Δ)) = Δ",
            method: Method::ExactAlgebra,
            domain: "every K ≥ 2, i ≠ j, Δ ∈ (0, 1/2] (Theorem 12 takes Δ ∈ (0, 1/4)): reduced exactly to the two differing coordinates and to the slopes c_A of the 16 sets",
            cost: Cost::Fast,
            check: || Ok(packing_distance()),
        },
        Claim {
            id: "hu-eq30",
            source: hu("Lemma 19, proof, eq. (30)", "L570: Σ_{τ=0}^{log(t−1)} O(1/t³) ≤ O(1/t²), Σ_{t>ω^{(s−1)}} O(1/t²)·ω^{(s+1)} ≤ ∫_{ω^{(s−1)}}^{T} O(1/t²) dt·ω^{(s+1)} < O(ω^{(s+1)}/ω^{(s−1)}) ≤ O(1)"),
            statement: "The counting and the last ratio of (30) with their constants: the τ-sum has ⌊log₂(t − 1)⌋ + 1 ≤ t terms (t ≥ 2), and ω^{(s+1)}/ω^{(s−1)} = (2^{s+2} − 1)/(2^s − 1) ≤ 7 for s ≥ 1 (s ≥ d_j + 1). With hu-eq28's 3/t³ for each of the two tails and Σ_{t>a} 1/t² ≤ 1/a (the integral of the decreasing 1/t², not checked here), Lemma 19's O(1) is at most 6·7 = 42.",
            math: "⌊log₂ y⌋ + 1 ≤ y + 1 (y = t − 1 ≥ 1); 7(2^s − 1) − (2^{s+2} − 1) = 3·2^s − 6 ≥ 0 for 2^s ≥ 2",
            method: Method::ExactAlgebra,
            domain: "every integer t ≥ 2 and s ≥ 1: 2^k ≥ k + 1 by induction, and the ratio as a polynomial in x = 2^s ≥ 2 (Taylor shift)",
            cost: Cost::Fast,
            check: || {
                Ok(all_of(vec![
                    exactly("2^k ≥ k + 1 by induction (base k = 0; the step's identity 2(k + 1) − (k + 2) = k of degree 1, at k ∈ {1, 2}), so ⌊log₂(t − 1)⌋ + 1 ≤ t.", powers_exceed_exponents()),
                    ray("7(x − 1) − (4x − 1) = 3x − 6 ≥ 0 on x = 2^s ≥ 2", &q(2, 1), &[q(-6, 1), q(3, 1)]),
                ]))
            },
        },
        Claim {
            id: "hu-eq36-c",
            source: hu("Theorem 5, proof, eq. (36), step (c)", "L615, L617: 1 − F^Beta_{⌈m2^r⌉+1, 2^r−⌈m2^r⌉+1}(y_j) = F^B_{2^r+1, y_j}(⌈m2^r⌉), m = μ_j + Δ_j/3, by Fact 18"),
            statement: "Fact 18 (hu-eq16) with α = ⌈m2^r⌉ + 1 and β = 2^r − ⌈m2^r⌉ + 1 has α + β − 1 = 2^r + 1 trials and argument α − 1 = ⌈m2^r⌉, as printed at (c).",
            math: "(c + 1) + (x − c + 1) − 1 = x + 1 and (c + 1) − 1 = c, c = ⌈m2^r⌉, x = 2^r",
            method: Method::ExactAlgebra,
            domain: "every r ≥ 0 and c = ⌈m2^r⌉ ∈ {0, …, 2^r} (m = μ_j + Δ_j/3 < μ₁ ≤ 1, so β ≥ 1): identities of degree 1 in c and x",
            cost: Cost::Fast,
            check: || {
                let points = grid(&[axis(2), axis(2)]);
                let trials = identity(
                    "α + β − 1 = (c + 1) + (x − c + 1) − 1 = x + 1, of degree 1 in c and x (grid {1/3, 2/3}²).",
                    &["c = ⌈m2^r⌉", "x = 2^r"],
                    &points,
                    &|p: &[Q]| (p[0].clone() + Q::one()) + (p[1].clone() - &p[0] + Q::one()) - Q::one(),
                    &|p: &[Q]| p[1].clone() + Q::one(),
                )?;
                let argument = identity(
                    "α − 1 = (c + 1) − 1 = c (same grid).",
                    &["c = ⌈m2^r⌉", "x = 2^r"],
                    &points,
                    &|p: &[Q]| p[0].clone() + Q::one() - Q::one(),
                    &|p: &[Q]| p[0].clone(),
                )?;
                Ok(all_of(vec![trials, argument]))
            },
        },
        Claim {
            id: "hu-eq36-e",
            source: hu("Theorem 5, proof, eq. (36), steps (d)–(e)", "L615, L617: F^B_{2^r+1,y_j}((μ_j + Δ_j/3 + 1/2^r)·2^r) ≤ F^B_{2^r+1,y_j}((μ_j + Δ_j/3 + Δ_j/12)·(2^r + 1)) since 1/2^r < Δ_j/12, and Δ_j/3 + Δ_j/12 = 5Δ_j/12 at (f)"),
            statement: "With x = 2^r and 1/x ≤ Δ/12 (L617, hu-thm5-L617): (μ + Δ/3 + 1/x)·x ≤ (μ + Δ/3 + Δ/12)·(x + 1) for every μ ≥ 0, Δ > 0, and μ + Δ/3 + Δ/12 = μ + 5Δ/12; the CDF is non-decreasing, so (e) holds. Step (d), ⌈a⌉ ≤ a + 1, is the ceiling's definition.",
            math: "(μ + 5Δ/12)(x + 1) − (μ + Δ/3 + 1/x)x = μ + 5Δ/12 + (xΔ/12 − 1) ≥ 0",
            method: Method::ExactAlgebra,
            domain: "every μ ∈ [0, 1], Δ ∈ (0, 1], x = 2^r with xΔ/12 ≥ 1: the difference is an identity of degree ≤ 1 in μ, Δ and x (xΔ bilinear), whose three terms are ≥ 0 there",
            cost: Cost::Fast,
            check: || {
                identity(
                    "the right side minus the left side is μ + 5Δ/12 + xΔ/12 − 1, of degree ≤ 1 in each of μ, Δ, x (grid {1/3, 2/3}³); with xΔ/12 ≥ 1 (L617), μ ≥ 0 and Δ > 0 it is positive. And 1/3 + 1/12 = 5/12 is its Δ coefficient.",
                    &["μ", "Δ", "x = 2^r"],
                    &grid(&[axis(2), axis(2), axis(2)]),
                    &|p: &[Q]| (p[0].clone() + &p[1] / q(3, 1) + &p[1] / q(12, 1)) * (p[2].clone() + Q::one()) - (p[0].clone() + &p[1] / q(3, 1) + Q::one() / &p[2]) * &p[2],
                    &|p: &[Q]| p[0].clone() + q(5, 12) * &p[1] + p[2].clone() * &p[1] / q(12, 1) - Q::one(),
                )
            },
        },
        Claim {
            id: "hu-thm5-L619",
            source: hu("Theorem 5, proof (Lemma 20)", "L607, L619: plugging γ ≤ 1/T² into (35), η ≤ 1/T, so ω₁ ≤ O(ln T/(Δ_j min{ε, Δ_j})) + 1"),
            statement: "η ≤ Σ_{t=2^r+1}^{T} 1/T² ≤ T·(1/T²) = 1/T, and the epochs r = d_j + 1, …, ⌊log₂ T⌋ (at most ⌊log₂ T⌋ ≤ T − 1 of them) add at most (T − 1)/T < 1: the \"+1\" of L619.",
            math: "T·T^{−2} = T^{−1}; ⌊log₂ T⌋ ≤ T − 1 (2^k ≥ k + 1)",
            method: Method::ExactAlgebra,
            domain: "every integer T ≥ 1: an identity in T and 2^k ≥ k + 1 by induction",
            cost: Cost::Fast,
            check: || {
                let per_epoch = identity(
                    "both sides times T² are of degree ≤ 1 in T (grid T ∈ {1/3, 2/3, 1}).",
                    &["T"],
                    &grid(&[axis(3)]),
                    &|p: &[Q]| p[0].clone() * (Q::one() / (p[0].clone() * &p[0])),
                    &|p: &[Q]| Q::one() / &p[0],
                )?;
                Ok(all_of(vec![
                    per_epoch,
                    exactly("2^k ≥ k + 1 by induction (base k = 0; the step's identity 2(k + 1) − (k + 2) = k, degree 1, at k ∈ {1, 2}), so ⌊log₂ T⌋ ≤ T − 1 and the epochs add at most (T − 1)/T < 1.", powers_exceed_exponents()),
                ]))
            },
        },
        Claim {
            id: "hu-thm12-L850-log2",
            source: hu("Theorem 12, proof (Appendix D.3), with log read as log₂", "L850 and L864: \"for n ≤ log K/(10εΔ)\" and m* := log K/(10εΔ); log is base 2 in other places of the paper (d_j = ⌈log(…)⌉ with 2^{d_j} at L548, r₀ at L784), but the same quantity is ln K/(10εΔmin) in Theorem 12's condition (L317)"),
            statement: "Not the paper's reading (a withdrawn refutation, proofs/ERRATA.md): the log of L850 read as log₂, the base the paper uses for epoch counts elsewhere, although Theorem 12's condition (L317) writes the same quantity ln K/(10εΔmin). With that reading: for n ≤ log₂ K/(10εΔ), 0.45 min{1, (K − 1)/e^{10εnΔ}} ≥ 0.2 for every K ≥ 4. False: at n = log₂ K/(10εΔ) the exponent is e^{log₂ K} = K^{1/ln 2}, and at K = 4 the bound is 0.45·3/e² ≈ 0.183 < 0.2 (and it tends to 0 as K grows). The natural log, the paper's reading there (hu-thm12-L850, certified), is what the step and L317's condition need; the Ω(log K/ε) of Theorem 12 is unaffected either way (the bases differ by a constant factor).",
            math: "0.45·(K − 1)·e^{−log₂ K} ≥ 0.2 at K = 4: 1.35e^{−2} − 0.2 ≥ 0",
            method: Method::BranchAndBound,
            domain: "K ≥ 4 (Theorem 12), n = log₂ K/(10εΔ) (the largest n allowed); refuted at K = 4 by one certified evaluation",
            cost: Cost::Fast,
            check: || {
                steps(
                    "At K = 4 and n = log₂ 4/(10εΔ), e^{10εnΔ} = e² > K − 1 = 3, so the minimum is 3/e² and the claim needs 0.45·3/e² ≥ 0.2:",
                    (|| Ok(vec![constant("1.35e^{−2} − 0.2 ≥ 0", Role::Claim, &|p| Ok(c(27, 20, p) * &(-c(2, 1, p)).exp()? - c(1, 5, p)))?]))(),
                )
            },
        },
        Claim {
            id: "hu-eq21",
            source: hu("Theorem 2, proof (Appendix B.1), eq. (21)", "L510–L512: the density of the noisy sum Ã_{σ_t} = (array sum) + Lap(1/ε) under X is at most e^ε times its density under X′, the two sums differing by at most 1 (one reward in [0, 1] changed)"),
            statement: "For the Laplace density f(x) = (ε/2)e^{−ε|x|} (eq. (11), b = 1/ε) and sums s, s′ with |s − s′| ≤ 1: f(y − s) ≤ e^ε·f(y − s′) for every y, since f(y − s)/f(y − s′) = e^{ε(|y − s′| − |y − s|)} and |y − s′| − |y − s| ≤ |s − s′| ≤ 1.",
            math: "h(y) = |y − s′| − |y − s| ≤ |s − s′|; for s ≤ s′: h = s′ − s on y ≤ s, s + s′ − 2y on [s, s′], s − s′ on y ≥ s′",
            method: Method::ExactAlgebra,
            domain: "every y, s, s′ ∈ ℝ with |s − s′| ≤ 1 (s ≤ s′ by symmetry of the roles): h is affine on the three pieces, each formula an identity of degree 1 checked exactly, and the middle piece lies between its end values s′ − s and s − s′",
            cost: Cost::Fast,
            check: || {
                let points = grid(&[axis(2), axis(2), axis(2)]);
                let h = |p: &[Q]| (p[0].clone() - &p[2]).abs() - (p[0].clone() - &p[1]).abs();
                // (y, s, s′) placed on each piece: y ≤ s ≤ s′, s ≤ y ≤ s′, s ≤ s′ ≤ y.
                let place = |order: usize| -> Vec<Vec<Q>> {
                    points
                        .iter()
                        .map(|p| {
                            let (a, b, c) = (p[0].clone(), p[0].clone() + &p[1], p[0].clone() + &p[1] + &p[2]);
                            match order {
                                0 => vec![a, b, c],
                                1 => vec![b, a, c],
                                _ => vec![c, a, b],
                            }
                        })
                        .collect()
                };
                let names = ["y", "s", "s′"];
                Ok(all_of(vec![
                    identity("y ≤ s ≤ s′: h = s′ − s, of degree 1 in y, s, s′ (points y < s < s′ from the grid {1/3, 2/3}³ of increments).", &names, &place(0), &h, &|p: &[Q]| p[2].clone() - &p[1])?,
                    identity("s ≤ y ≤ s′: h = s + s′ − 2y, between s − s′ (y = s′) and s′ − s (y = s) (same points).", &names, &place(1), &h, &|p: &[Q]| p[1].clone() + &p[2] - q(2, 1) * &p[0])?,
                    identity("s ≤ s′ ≤ y: h = s − s′ (same points); so h ≤ s′ − s = |s − s′| ≤ 1 everywhere and the ratio is at most e^ε.", &names, &place(2), &h, &|p: &[Q]| p[1].clone() - &p[2])?,
                ]))
            },
        },
    ]
}

/// A threshold index `k₀ ∈ {lo, …, hi}` at the position `s ∈ [0, 1]` (the
/// searches move `s`), or `None` when the range is empty.
fn threshold(lo: i64, hi: i64, s: &Q) -> Option<u32> {
    (lo <= hi).then(|| {
        let k = Q::from_integer(lo.into()) + Q::from_integer((hi - lo).into()) * s;
        u32::try_from(k.round().to_integer()).unwrap_or(0)
    })
}

/// Fact 17 at one point: `n`, `μ`, the threshold position `s`; the upper
/// tail (`x = k₀/n ∈ (μ, 1)`) or the lower one (`x ∈ (0, μ)`).
fn fact17_probe(point: &[Q], ctx: Precision, upper: bool) -> Result<Vec<Probe>> {
    let (n, mu) = (
        u32::try_from(super::explicit::int_of(&point[0])).unwrap_or(1),
        point[1].clone(),
    );
    let nmu = Q::from_integer(n.into()) * &mu;
    let (lo, hi) = if upper {
        (
            nmu.floor().to_integer().try_into().unwrap_or(0i64) + 1,
            i64::from(n) - 1,
        )
    } else {
        (1, nmu.ceil().to_integer().try_into().unwrap_or(0i64) - 1)
    };
    let Some(k0) = threshold(lo, hi, &point[2]) else {
        return Ok(vec![]);
    };
    let x = q(i64::from(k0), i64::from(n));
    let prob = binomial_mean(n, &mu, &ctx, &|k| {
        Ok(indicator(if upper { k >= k0 } else { k <= k0 }, &ctx))
    })?;
    let bound = (-(Certified::from_int(i64::from(n), &ctx) * &kl(&x, &mu, &ctx)?)).exp()?;
    Ok(vec![Probe::upper(
        format!("n = {n}, μ = {mu}, x = {x}"),
        prob,
        bound,
    )])
}

/// The adversarial searches of this file's instance claims.
pub(super) fn adversaries() -> Vec<Adversary> {
    vec![
        Adversary {
            id: "hu-eq36-kl",
            seed: "hu-eq36-kl",
            params: vec![Param::real("y", "1/1000", "999/1000"), Param::real("t", "1/1000", "1"), Param::int("side", 0, 1)],
            note: "x = y + t(1 − y) (side 1) or x = y − t·y (side 0): every x ≠ y with |x − y| at least a thousandth of the room on its side; at x = y both sides vanish",
            starts: 4,
            budget: 80,
            probes: Arc::new(|point, ctx| {
                let (y, t) = (&point[0], &point[1]);
                let x = if super::explicit::int_of(&point[2]) == 1 { y.clone() + t.clone() * (Q::one() - y) } else { y.clone() - t.clone() * y };
                if x <= Q::from_integer(0.into()) || x >= Q::one() {
                    return Ok(vec![]);
                }
                let gap = q(2, 1) * (x.clone() - y) * (x.clone() - y);
                Ok(vec![Probe::upper(format!("x = {x}, y = {y}: 2(x − y)² ≤ d_KL(x, y)"), Certified::from_rational(&gap, &ctx), kl(&x, y, &ctx)?)])
            }),
        },
        Adversary {
            id: "hu-eq12",
            seed: "hu-eq12",
            params: vec![Param::int("n", 1, 4000), Param::real("p", "1/1000", "999/1000"), Param::real("s", "0", "1")],
            note: "X ~ B(n, p), the threshold a = |k − np| with k = round(s·n) (the worst thresholds); the fact's domain is every sum of n variables in [0, 1]",
            starts: 4,
            budget: 60,
            probes: Arc::new(|point, ctx| {
                let (n, p) = (u32::try_from(super::explicit::int_of(&point[0])).unwrap_or(1), point[1].clone());
                let np = Q::from_integer(n.into()) * &p;
                let k = (Q::from_integer(n.into()) * &point[2]).round();
                let a = (k - &np).abs();
                if a.is_zero() {
                    return Ok(vec![]);
                }
                let tail = binomial_mean(n, &p, &ctx, &|j| Ok(indicator((Q::from_integer(j.into()) - &np).abs() >= a, &ctx)))?;
                let bound = c(2, 1, &ctx) * &Certified::from_rational(&(-(q(2, 1) * &a * &a) / Q::from_integer(n.into())), &ctx).exp()?;
                Ok(vec![Probe::upper(format!("n = {n}, p = {p}, a = {a}"), tail, bound)])
            }),
        },
        Adversary {
            id: "hu-eq14",
            seed: "hu-eq14",
            params: vec![Param::int("n", 1, 4000), Param::real("μ", "1/1000", "999/1000"), Param::real("s", "0", "1")],
            note: "X̄ the mean of n Bernoulli(μ), the threshold x = k₀/n ∈ (μ, 1) at position s (the worst λ of each event)",
            starts: 4,
            budget: 60,
            probes: Arc::new(|point, ctx| fact17_probe(point, ctx, true)),
        },
        Adversary {
            id: "hu-eq15-le",
            seed: "hu-eq15-le",
            params: vec![Param::int("n", 1, 4000), Param::real("μ", "1/1000", "999/1000"), Param::real("s", "0", "1")],
            note: "X̄ the mean of n Bernoulli(μ), the threshold x = k₀/n ∈ (0, μ) at position s (the worst λ of each event)",
            starts: 4,
            budget: 60,
            probes: Arc::new(|point, ctx| fact17_probe(point, ctx, false)),
        },
        Adversary {
            id: "hu-lem7-i",
            seed: "hu-lem7-i",
            params: vec![Param::real("μ₁ − y", "1/50", "1"), Param::real("v", "0", "1"), Param::real("u", "0", "1")],
            note: "g = μ₁ − y and μ₁ = g + v(1 − g), both rounded to thousandths, and s = ⌊u·(⌈8/g⌉ − 1)⌋ < 8/g: every pair y < μ₁ ≤ 1 with μ₁ − y ≥ 1/50 (on the thousandths) and every s of the case; smaller gaps (s ≥ 400) are left out",
            starts: 3,
            budget: 40,
            probes: Arc::new(|point, ctx| {
                // On the grid of thousandths, so that the exact binomial
                // laws keep small denominators.
                let thousandths = |x: Q| (x * q(1000, 1)).round() / q(1000, 1);
                let gap = thousandths(point[0].clone()).max(q(1, 50));
                let mu = thousandths(gap.clone() + point[1].clone() * (Q::one() - &gap)).max(gap.clone());
                let top = int_of(&(q(8, 1) / &gap).ceil()) - 1;
                let s = u32::try_from(int_of(&(point[2].clone() * Q::from_integer(top.into())).floor())).unwrap_or(0);
                Ok(vec![Probe::upper(
                    format!("μ₁ = {mu}, μ₁ − y = {gap}, s = {s}"),
                    lem7_ratio_mean(s, &mu, &gap, &ctx)?,
                    Certified::from_rational(&(q(3, 1) / &gap), &ctx),
                )])
            }),
        },
        Adversary {
            id: "hu-eq16",
            seed: "hu-eq16",
            params: vec![Param::int("α", 1, 40), Param::int("β", 1, 40), Param::real("y", "1/1000", "999/1000")],
            note: "an identity: both sides are computed exactly and compared by their difference, whose margin is 0 everywhere; the search looks for a pair α, β ≤ 40 and a y where they differ",
            starts: 3,
            budget: 30,
            probes: Arc::new(|point, ctx| {
                let (alpha, beta) = (super::explicit::int_of(&point[0]), super::explicit::int_of(&point[1]));
                let difference = beta_cdf(alpha, beta, &point[2]) - (Q::one() - binomial((alpha + beta - 1) as u32, &point[2])[..alpha as usize].iter().sum::<Q>());
                Ok(vec![Probe::upper(
                    format!("α = {alpha}, β = {beta}, y = {}: F^Beta − (1 − F^B) = {difference}", point[2]),
                    Certified::from_rational(&difference.abs(), &ctx),
                    Certified::from_int(0, &ctx),
                )])
            }),
        },
    ]
}
