//! Cesari & Colomboni (2026): the explicit constants of the proofs — Lemma 1
//! as the probability bound it states, the steps of Lemma 2's proof, the
//! block bookkeeping of Lemma 4, eq. (4) and the steps of Lemma 5 (the
//! small-gap groups and the large-gap potential). Lines `L…` are those of
//! `papers/003_…txt`; each line carries the rendered formula and its LaTeX,
//! which agree on every display used here.

use super::explicit::{
    at, axis, binomial, binomial_mean, c, constant, dyadic_blocks, exactly, geometric_series, grid,
    halving_series, identity, indicator, ineq, int_of, next_power, q, ray, steps, Cases,
};
use crate::error::Result;
use crate::num::{Certified, Precision, Real, Q};
use crate::verify::bnb::{div, Role, Sense};
use crate::verify::search::{Adversary, Param, Probe};
use crate::verify::{Claim, Cost, Method, Outcome, Paper, Source};
use num_traits::One;
use std::sync::Arc;

fn cc(number: &'static str, context: &'static str) -> Source {
    at(Paper::CesariColomboni, number, context)
}

/// The means of Lemma 1's grid.
fn lemma1_means() -> Vec<Q> {
    vec![
        q(1, 100),
        q(1, 10),
        q(1, 4),
        q(1, 3),
        q(1, 2),
        q(2, 3),
        q(3, 4),
        q(9, 10),
        q(99, 100),
        q(1, 1),
    ]
}

/// Lemma 1 on the two extreme laws with values in `[−1, 1]` and mean `μ`:
/// `U ∈ {−1, 1}` with `P(1) = (1 + μ)/2` (`Σ U = 2k − m`) and `U ∈ {0, 1}`
/// with `P(1) = μ` (`Σ U = k`), `k ~ B(m, ·)`; `P(Σ U ≤ mμ/2)` exactly
/// against `exp(−mμ²/8)`.
fn lem1_tail() -> Result<Outcome> {
    let mut cases = Cases::default();
    let sizes: Vec<i64> = (1..=60).chain([80, 100, 150, 200]).collect();
    for mu in lemma1_means() {
        for m in &sizes {
            let m = *m;
            let threshold = q(m, 1) * &mu / q(2, 1);
            let exponent = -(q(m, 1) * &mu * &mu) / q(8, 1);
            for (family, p, sum_of) in [
                (
                    "U ∈ {−1, 1}",
                    (Q::one() + &mu) / q(2, 1),
                    (|k: i64, m: i64| q(2 * k - m, 1)) as fn(i64, i64) -> Q,
                ),
                (
                    "U ∈ {0, 1}",
                    mu.clone(),
                    (|k: i64, _m: i64| q(k, 1)) as fn(i64, i64) -> Q,
                ),
            ] {
                let law = binomial(m as u32, &p);
                let prob: Q = (0..=m)
                    .filter(|k| sum_of(*k, m) <= threshold)
                    .map(|k| law[k as usize].clone())
                    .sum();
                cases.at_most(
                    format!("{family}, m = {m}, μ = {mu}"),
                    &|pr| Ok(Certified::from_rational(&prob, pr)),
                    &|pr| Certified::from_rational(&exponent, pr).exp(),
                )?;
            }
        }
    }
    Ok(cases.outcome("m ∈ {1..60, 80, 100, 150, 200}, μ ∈ {1/100, 1/10, 1/4, 1/3, 1/2, 2/3, 3/4, 9/10, 99/100, 1}, the two-point laws U ∈ {−1, 1} and U ∈ {0, 1} with mean μ; probabilities exact"))
}

/// Eq. (4) for `K = 2` (more actions only enlarge the denominator of
/// `P_{m,j}`, so `K = 2` is the largest `P_{m,j}` for a given law of
/// `D_{m,j}`): `E[e^{−ηD}/(1 + e^{−ηD})] ≤ 2exp(−mΔ²/8)` for `D` a sum of
/// `m` i.i.d. steps with mean `Δ ≤ 4η`, steps `±1` (`P(+1) = (1 + Δ)/2`)
/// or `{0, 1}` (`P(1) = Δ`). The binomial law is carried in certified
/// arithmetic (ratio recursion), so large `m` stay cheap.
fn eq4() -> Result<Outcome> {
    let mut cases = Cases::default();
    let sizes: Vec<u32> = (1..=30)
        .chain([40, 60, 90, 135, 200, 300, 450, 700, 1000, 1500, 2300, 3500])
        .collect();
    for eta in [q(1, 8), q(1, 16), q(1, 32)] {
        for delta in [q(4, 1) * &eta, q(2, 1) * &eta, eta.clone()] {
            for &m in &sizes {
                let exponent = -(Q::from_integer(m.into()) * &delta * &delta) / q(8, 1);
                for (family, p, plus_minus) in [
                    ("steps ±1", (Q::one() + &delta) / q(2, 1), true),
                    ("steps {0, 1}", delta.clone(), false),
                ] {
                    let (eta, p) = (eta.clone(), p.clone());
                    cases.at_most(
                        format!("{family}, η = {eta}, Δ = {}, m = {m}", delta),
                        &|pr| expected_softmax(m, &p, &eta, plus_minus, pr),
                        &|pr| Ok(c(2, 1, pr) * &Certified::from_rational(&exponent, pr).exp()?),
                    )?;
                }
            }
        }
    }
    Ok(cases.outcome("K = 2, η ∈ {1/8, 1/16, 1/32}, Δ ∈ {4η, 2η, η}, m ∈ {1..30, 40, 60, 90, 135, 200, 300, 450, 700, 1000, 1500, 2300, 3500}, steps ±1 or {0, 1} with mean Δ; certified at 128 bits (512, 2048 when close)"))
}

/// `E[e^{−ηD}/(1 + e^{−ηD})]` for `D = 2k − m` (`plus_minus`) or `D = k`,
/// `k ~ B(m, p)`, in certified arithmetic.
fn expected_softmax(m: u32, p: &Q, eta: &Q, plus_minus: bool, pr: &Precision) -> Result<Certified> {
    binomial_mean(m, p, pr, &|k| {
        let d = if plus_minus {
            2 * i64::from(k) - i64::from(m)
        } else {
            i64::from(k)
        };
        let w = (-(Certified::from_rational(&(eta.clone() * q(d, 1)), pr))).exp()?;
        div(w.clone(), &(Certified::from_int(1, pr) + &w))
    })
}

/// Hoeffding's lemma at L553 on the two-point law `Y ∈ {−1, 1}` with mean
/// `Δ` (the largest `E[e^{−ηY}]` among laws on `[−1, 1]` with mean `Δ`, by
/// convexity of `y ↦ e^{−ηy}`): `((1 + Δ)/2)e^{−η} + ((1 − Δ)/2)e^{η} ≤
/// exp(−ηΔ + η²/2)`.
fn lem5_l553() -> Result<Outcome> {
    let mut cases = Cases::default();
    for eta in [q(1, 8), q(1, 10), q(1, 16), q(1, 100), q(1, 1000)] {
        for delta in [
            q(0, 1),
            q(1, 100),
            q(1, 10),
            q(1, 4),
            q(1, 2),
            q(3, 4),
            q(9, 10),
            q(1, 1),
        ] {
            let (e, d) = (eta.clone(), delta.clone());
            cases.at_most(
                format!("η = {eta}, Δ = {delta}"),
                &|pr| {
                    let (en, ep) = (
                        (-Certified::from_rational(&e, pr)).exp()?,
                        Certified::from_rational(&e, pr).exp()?,
                    );
                    let up = Certified::from_rational(&((Q::one() + &d) / q(2, 1)), pr);
                    let down = Certified::from_rational(&((Q::one() - &d) / q(2, 1)), pr);
                    Ok(up * &en + &(down * &ep))
                },
                &|pr| {
                    Certified::from_rational(&(-(e.clone() * &d) + e.clone() * &e / q(2, 1)), pr)
                        .exp()
                },
            )?;
        }
    }
    Ok(cases.outcome("η ∈ {1/8, 1/10, 1/16, 1/100, 1/1000}, Δ ∈ {0, 1/100, 1/10, 1/4, 1/2, 3/4, 9/10, 1}; the two-point law, to which every law on [−1, 1] with mean Δ reduces (e^{−ηy} lies below its chord on [−1, 1])"))
}

/// §4, L139–L149: with `x = 2^r`, the block `B_r = {x, …, 2x − 1}` has `x`
/// rounds, `X^{(r,s)} = X_{x−1+s}` runs over them as `s = 1..x`, and `M_r`'s
/// range `{x/2 + 1, …, x}` (`r ≥ 1`) has `x/2` values inside `1..x`:
/// identities of degree 1 in `x`, checked exactly at two values.
fn blocks_l141() -> std::result::Result<(), String> {
    for x in [q(2, 1), q(4, 1)] {
        let (first, last) = (x.clone(), q(2, 1) * &x - Q::one());
        let checks = [
            ("|B_r| = 2^r", last.clone() - &first + Q::one(), x.clone()),
            (
                "X^{(r,1)} is the first round",
                x.clone() - Q::one() + Q::one(),
                first,
            ),
            (
                "X^{(r,2^r)} is the last round",
                x.clone() - Q::one() + &x,
                last,
            ),
            (
                "|{2^{r−1}+1, …, 2^r}| = 2^{r−1}",
                x.clone() - (x.clone() / q(2, 1) + Q::one()) + Q::one(),
                x.clone() / q(2, 1),
            ),
        ];
        for (what, lhs, rhs) in checks {
            if lhs != rhs {
                return Err(format!("{what} at 2^r = {x}: {lhs} ≠ {rhs}"));
            }
        }
        if x.clone() / q(2, 1) + Q::one() < Q::one() {
            return Err(format!("M_r's range leaves 1..2^r at 2^r = {x}"));
        }
    }
    Ok(())
}

/// L542: with `w_j = e^{−ηD_{m,j}}` and `y_j = e^{−ηY_{m+1,j}}`
/// (`e^{−ηD_{m+1,j}} = w_j y_j`), `Z_{m+1}/Z_m = Q_{m,1} + Σ_j Q_{m,j} y_j`,
/// for `n` large-gap actions.
fn ratio_l542(n: usize) -> Result<Outcome> {
    let names: Vec<&str> = ["w₂", "w₃", "w₄", "y₂", "y₃", "y₄"]
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 3 < n)
        .map(|(_, s)| *s)
        .collect();
    let axes: Vec<Vec<Q>> = (0..2 * n).map(|_| axis(3)).collect();
    let z = |w: &[Q]| Q::one() + w.iter().sum::<Q>();
    identity(
        &format!("with n = {n} large-gap actions both sides times Z_m = 1 + Σ w_j are polynomials of degree ≤ 1 in each of the 2n variables (w_j = e^{{−ηD_{{m,j}}}} > 0, y_j = e^{{−ηY_{{m+1,j}}}} > 0, and e^{{−ηD_{{m+1,j}}}} = w_j y_j because D_{{m+1,j}} = D_{{m,j}} + Y_{{m+1,j}}, L536), so 3 values per variable decide."),
        &names,
        &grid(&axes),
        &|p: &[Q]| {
            let (w, y) = p.split_at(n);
            let next: Q = Q::one() + w.iter().zip(y).map(|(a, b)| a.clone() * b).sum::<Q>();
            next / z(w)
        },
        &|p: &[Q]| {
            let (w, y) = p.split_at(n);
            let zm = z(w);
            Q::one() / &zm + w.iter().zip(y).map(|(a, b)| a.clone() / &zm * b).sum::<Q>()
        },
    )
}

/// L34–L36: `max(x, y) ≤ x + y ≤ 2max(x, y)` for `x, y > 0`, compared
/// exactly on a grid (the argument for every point is in the claim).
fn cor1_l36() -> std::result::Result<(), String> {
    let axis = [
        q(1, 100),
        q(1, 3),
        q(1, 2),
        q(1, 1),
        q(2, 1),
        q(3, 1),
        q(100, 1),
    ];
    for x in &axis {
        for y in &axis {
            let (m, s) = (x.clone().max(y.clone()), x.clone() + y);
            if m > s || s > q(2, 1) * &m {
                return Err(format!("x = {x}, y = {y}: max {m}, sum {s}"));
            }
        }
    }
    Ok(())
}

/// `η = min{ε/2, 1/8}` (L135).
fn eta_of(eps: &Q) -> Q {
    (eps.clone() / q(2, 1)).min(q(1, 8))
}

pub(super) fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "cc-cor1-L36",
            source: cc("Corollary 1, the equivalence it rests on", "L34–L36 (and L74–L76): log K/min{Δmin, ε} \"is equivalent up to universal constants to log K/Δmin + log K/ε\"; Corollary 1 (L173–L177) matches Theorem 1 to that lower bound"),
            statement: "log K/min{Δmin, ε} ≤ log K/Δmin + log K/ε ≤ 2 log K/min{Δmin, ε}: the two rates agree within the constants 1 and 2.",
            math: "max(x, y) ≤ x + y ≤ 2 max(x, y), x = 1/Δmin, y = 1/ε > 0",
            method: Method::ExactAlgebra,
            domain: "every Δmin, ε > 0 (and log K > 0): with x ≤ y by symmetry the two gaps are x ≥ 0 and y − x ≥ 0; also evaluated exactly on a grid of 49 points",
            cost: Cost::Fast,
            check: || Ok(exactly("by symmetry take x ≤ y (x = 1/Δmin, y = 1/ε): then x + y − max(x, y) = x ≥ 0 and 2max(x, y) − (x + y) = y − x ≥ 0. Both sides are also compared exactly at the 49 points x, y ∈ {1/100, 1/3, 1/2, 1, 2, 3, 100}.", cor1_l36())),
        },
        Claim {
            id: "cc-prop1-L343",
            source: cc("Proposition 1, proof", "L343: \"Since 2η ≤ ε, the algorithm is ε-differentially private\", η = min{ε/2, 1/8} (L135)"),
            statement: "2·min{ε/2, 1/8} ≤ ε for every ε > 0 (equality for ε ≤ 1/4).",
            math: "ε − 2 min{ε/2, 1/8} = 0 on (0, 1/4], = ε − 1/4 ≥ 0 on [1/4, ∞)",
            method: Method::ExactAlgebra,
            domain: "every ε > 0: the two linear pieces, the first identically 0 (checked exactly at ε ∈ {1/12, 1/4}), the second a polynomial on the ray ε ≥ 1/4",
            cost: Cost::Fast,
            check: || {
                for eps in [q(1, 12), q(1, 4)] {
                    let gap = eps.clone() - q(2, 1) * eta_of(&eps);
                    if gap != Q::from_integer(0.into()) {
                        return Ok(Outcome::refuted(
                            format!("at ε = {eps}, ε − 2η = {gap}"),
                            serde_json::json!({"ε": eps.to_string()}),
                        ));
                    }
                }
                Ok(ray(
                    "ε − 2η = 0 exactly at ε ∈ {1/12, 1/4} (a linear function of ε on (0, 1/4], so identically 0 there); on ε ≥ 1/4, η = 1/8 and ε − 2η = ε − 1/4",
                    &q(1, 4),
                    &[q(-1, 4), q(1, 1)],
                ))
            },
        },
        Claim {
            id: "cc-lem4-L141",
            source: cc("Lemma 4, the blocks it charges", "§4, L139–L149: B_r = {2^r, …, 2^{r+1} − 1}, |B_r| = 2^r, M_r ∼ Unif{2^{r−1} + 1, …, 2^r}, X^{(r,s)} = X_{2^r−1+s}; used at L371 (A_{r+1} is played |B_{r+1}| = 2^{r+1} times)"),
            statement: "|B_r| = 2^r; s ↦ 2^r − 1 + s maps {1, …, 2^r} onto B_r (s = 1 to its first round, s = 2^r to its last); M_r's range {2^{r−1} + 1, …, 2^r} has 2^{r−1} values, all within the block's prefix lengths 1..2^r.",
            math: "(2^{r+1} − 1) − 2^r + 1 = 2^r;  2^r − 1 + 1 = 2^r;  2^r − 1 + 2^r = 2^{r+1} − 1;  2^r − 2^{r−1} = 2^{r−1}",
            method: Method::ExactAlgebra,
            domain: "every r ≥ 1 (r = 0: B₀ = {1}, M₀ = 1): identities of degree 1 in x = 2^r, checked exactly at x ∈ {2, 4}",
            cost: Cost::Fast,
            check: || Ok(exactly("identities of degree 1 in x = 2^r (block size, first and last prefix index, the size of M_r's range), checked exactly at x ∈ {2, 4}.", blocks_l141())),
        },
        Claim {
            id: "cc-lem5-L542",
            source: cc("Lemma 5, proof (large gaps)", "L540–L542: Z_{m+1}/Z_m = Q_{m,1} + Σ_{j: Δ_j>4η} Q_{m,j} exp(−ηY_{m+1,j})"),
            statement: "With Z_m = 1 + Σ_j e^{−ηD_{m,j}}, Q_{m,1} = 1/Z_m, Q_{m,j} = e^{−ηD_{m,j}}/Z_m and D_{m+1,j} = D_{m,j} + Y_{m+1,j}: Z_{m+1}/Z_m = Q_{m,1} + Σ_j Q_{m,j}e^{−ηY_{m+1,j}}.",
            math: "(1 + Σ_j w_j y_j)/(1 + Σ_j w_j) = 1/(1 + Σ w) + Σ_j (w_j/(1 + Σ w)) y_j",
            method: Method::ExactAlgebra,
            domain: "1, 2 and 3 large-gap actions, every w_j, y_j > 0 (degree 1 in each variable after clearing Z_m; 3 values each); more actions add terms of the same form",
            cost: Cost::Fast,
            check: || {
                for n in 1..3 {
                    let o = ratio_l542(n)?;
                    if o.status != crate::verify::Status::Certified {
                        return Ok(o);
                    }
                }
                let o = ratio_l542(3)?;
                Ok(Outcome {
                    detail: format!("n = 1 and n = 2 are certified the same way (grids of 9 and 81 points). {}", o.detail),
                    ..o
                })
            },
        },
        Claim {
            id: "cc-thm1-L619",
            source: cc("Theorem 1, proof", "L617–L619: if ε ≤ 1/4 then η = ε/2, and 16 log K/η = 32 log K/ε"),
            statement: "For ε ≤ 1/4, η = min{ε/2, 1/8} = ε/2 and 16/η = 32/ε.",
            math: "ε ≤ 1/4 ⇒ min{ε/2, 1/8} = ε/2, 16/(ε/2) = 32/ε",
            method: Method::ExactAlgebra,
            domain: "every ε ∈ (0, 1/4]: 16/η·ε is constant once η = ε/2 (degree 0 in ε), and ε/2 ≤ 1/8 there; checked exactly at ε ∈ {1/12, 1/8, 1/4} with η from its definition (L135)",
            cost: Cost::Fast,
            check: || {
                identity(
                    "once min{ε/2, 1/8} = ε/2 (ε ≤ 1/4) both sides times ε are constants, so agreement at the three points (where η is computed as the minimum, L135) proves it for every ε ∈ (0, 1/4].",
                    &["ε"],
                    &[vec![q(1, 12)], vec![q(1, 8)], vec![q(1, 4)]],
                    &|p: &[Q]| q(16, 1) / eta_of(&p[0]),
                    &|p: &[Q]| q(32, 1) / &p[0],
                )
            },
        },
        Claim {
            id: "cc-thm1-L631",
            source: cc("Theorem 1, proof", "L629–L631: if ε > 1/4 then η = 1/8, and 16 log K/η = 128 log K ≤ 128 log K/Δmin"),
            statement: "For ε > 1/4, η = 1/8 and 16/η = 128; and 128 log K ≤ 128 log K/Δmin because 0 < Δmin ≤ 1 and log K > 0.",
            math: "ε > 1/4 ⇒ 16/min{ε/2, 1/8} = 128;  128x − 128 ≥ 0 for x = 1/Δmin ≥ 1",
            method: Method::ExactAlgebra,
            domain: "every ε > 1/4 (η = 1/8 is constant there; checked exactly at ε ∈ {1/4 + 1/1000, 1/2, 1, 7}) and every Δmin ∈ (0, 1] (a polynomial on the ray x = 1/Δmin ≥ 1)",
            cost: Cost::Fast,
            check: || {
                for eps in [q(251, 1000), q(1, 2), q(1, 1), q(7, 1)] {
                    let value = q(16, 1) / eta_of(&eps);
                    if value != q(128, 1) {
                        return Ok(Outcome::refuted(
                            format!("at ε = {eps}, 16/η = {value}, not 128"),
                            serde_json::json!({"ε": eps.to_string(), "16/η": value.to_string()}),
                        ));
                    }
                }
                Ok(ray(
                    "16/η = 128 exactly at ε ∈ {251/1000, 1/2, 1, 7} (η = min{ε/2, 1/8} = 1/8 for every ε ≥ 1/4); 128 log K/Δmin − 128 log K = 128 log K·(x − 1), x = 1/Δmin, and x − 1 ≥ 0 on the ray x ≥ 1",
                    &q(1, 1),
                    &[q(-128, 1), q(128, 1)],
                ))
            },
        },
        Claim {
            id: "cc-lem1-tail",
            source: cc("Lemma 1", "L190–L194: P(Σ_{s=1}^{m} U_s ≤ mμ/2) ≤ exp(−mμ²/8) for independent U_s ∈ [−1, 1] with mean μ > 0"),
            statement: "For independent U_1, …, U_m with values in [−1, 1] and common mean μ > 0: P(Σ_s U_s ≤ mμ/2) ≤ exp(−mμ²/8) — the probability bound itself (cc-lem1-exponent checks only the exponent arithmetic of its proof).",
            math: "P(Σ_{s≤m} U_s ≤ mμ/2) ≤ exp(−mμ²/8)",
            method: Method::InstanceGrid,
            domain: "the i.i.d. two-point laws U ∈ {−1, 1} (the largest variance) and U ∈ {0, 1} with mean μ, m ≤ 200 and μ ∈ (0, 1] on the grid in the evidence",
            cost: Cost::Slow,
            check: lem1_tail,
        },
        Claim {
            id: "cc-lem2-L233",
            source: cc("Lemma 2, proof of (i)", "L233: g(1) = 1 − e^{−1} − 1/2 > 0"),
            statement: "g(1) = 1 − e^{−1} − 1/2 > 0.",
            math: "1 − e^{−1} − 1/2 > 0",
            method: Method::BranchAndBound,
            domain: "a constant: one certified evaluation",
            cost: Cost::Fast,
            check: || steps("", (|| Ok(vec![constant("1/2 − e^{−1} > 0", Role::Claim, &|p| Ok(c(1, 2, p) - (-c(1, 1, p)).exp()?))?]))()),
        },
        Claim {
            id: "cc-lem2-L235",
            source: cc("Lemma 2, proof of (iv)", "L235: Σ_{m>n} e^{−mx} = e^{−(n+1)x}/(1 − e^{−x})"),
            statement: "Σ_{m>n} e^{−mx} = e^{−(n+1)x}/(1 − e^{−x}) for x > 0, n ≥ 0.",
            math: "Σ_{s=0}^{N−1} z^s = (1 − z^N)/(1 − z), z = e^{−x} ∈ (0, 1)",
            method: Method::ExactAlgebra,
            domain: "every x > 0, n ≥ 0: the geometric partial sums by induction (exact), then N → ∞ and the factor z^{n+1}",
            cost: Cost::Fast,
            check: || Ok(exactly("the geometric partial sums (1 − z^N)/(1 − z) by induction (base and step exact at z ∈ {1/3, 1/2, 2/3}); with z = e^{−x} < 1 the tail Σ_{m>n} z^m = z^{n+1}/(1 − z).", geometric_series())),
        },
        Claim {
            id: "cc-lem2-L237",
            source: cc("Lemma 2, proof of (v)", "L237: K + 1 ≤ K² for K ≥ 2"),
            statement: "K + 1 ≤ K² for every K ≥ 2.",
            math: "K² − K − 1 ≥ 0, K ≥ 2",
            method: Method::ExactAlgebra,
            domain: "every real K ≥ 2",
            cost: Cost::Fast,
            check: || Ok(ray("K² − K − 1 ≥ 0 on K ≥ 2", &q(2, 1), &[q(-1, 1), q(-1, 1), q(1, 1)])),
        },
        Claim {
            id: "cc-lem4-L387",
            source: cc("Lemma 4, proof", "L385–L387: M_r uniform on {2^{r−1} + 1, …, 2^r} (2^{r−1} values), so 2^{r+1}E[F_{M_r}] = 2^{r+1}(1/2^{r−1})Σ F_m = 4Σ F_m"),
            statement: "2^{r+1}/2^{r−1} = 4 for every r ≥ 1.",
            math: "2^{r+1}/2^{r−1} = 4",
            method: Method::ExactAlgebra,
            domain: "every r ≥ 1, with x = 2^{r−1} and 2^{r+1} computed from the exponent",
            cost: Cost::Fast,
            check: || {
                identity(
                    "with x = 2^{r−1}, 2^{r+1} is computed from the exponent r − 1 + 2 and the ratio is a constant (grid x ∈ {1, 2, 4}).",
                    &["x = 2^{r−1}"],
                    &grid(&[vec![q(1, 1), q(2, 1), q(4, 1)]]),
                    &|p: &[Q]| next_power(&next_power(&p[0])) / &p[0],
                    &|_| q(4, 1),
                )
            },
        },
        Claim {
            id: "cc-lem4-L389",
            source: cc("Lemma 4, proof", "L389: the intervals {2^{r−1} + 1, …, 2^r}, r ≥ 1, are disjoint and cover all integers m ≥ 2"),
            statement: "The blocks {2^{r−1} + 1, …, 2^r}, r ≥ 1, tile {2, 3, …}.",
            math: "|{2^{r−1}+1..2^r}| = 2^{r−1}, block r + 1 starts at 2^r + 1, block 1 = {2}",
            method: Method::ExactAlgebra,
            domain: "every r ≥ 1: identities of degree 1 in x = 2^{r−1}; the first block starts at 2^0 + 1 = 2",
            cost: Cost::Fast,
            check: || Ok(exactly("block r has 2^{r−1} elements and block r + 1 starts one past block r (degree-1 identities in x = 2^{r−1}, checked at x ∈ {1, 2}); block 1 is {2}.", dyadic_blocks())),
        },
        Claim {
            id: "cc-eq4",
            source: cc("Lemma 5, eq. (4)", "L414–L436: for Δ_j ≤ 4η, E[P_{m,j}] ≤ 2exp(−mΔ_j²/8)"),
            statement: "For a small-gap action (Δ_j ≤ 4η) and every m ≥ 1: E[P_{m,j}] ≤ 2exp(−mΔ_j²/8).",
            math: "E[e^{−ηD}/(1 + Σ_i e^{−ηD_i})] ≤ 2exp(−mΔ²/8), D = D_{m,j}",
            method: Method::InstanceGrid,
            domain: "K = 2 (the largest P_{m,j} for a given law of D_{m,j}), the two-point step laws with mean Δ, and the grid of (η, Δ, m) in the evidence, m up to 3500 so that mΔ²/8 reaches 6.8 for the smallest Δ",
            cost: Cost::Slow,
            check: eq4,
        },
        Claim {
            id: "cc-lem5-L432",
            source: cc("Lemma 5, proof", "L430–L432: Δ_j ≤ 4η gives η ≥ Δ_j/4, so exp(−ηmΔ_j/2) ≤ exp(−mΔ_j²/8)"),
            statement: "For 0 ≤ Δ ≤ 4η: ηΔ/2 ≥ Δ²/8 (so the exponentials compare for every m ≥ 0).",
            math: "ηΔ/2 − Δ²/8 = 2η²s(1 − s) ≥ 0 with Δ = 4ηs, s ∈ [0, 1]",
            method: Method::BranchAndBound,
            domain: "every η ∈ (0, 1/8], Δ ∈ [0, 4η]: with Δ = 4ηs the difference factors exactly as 2η²s(1 − s), bounded below by 0 on the box η ∈ [0, 1/8], s ∈ [0, 1]",
            cost: Cost::Fast,
            check: || {
                let f = |x: &[Certified]| {
                    let (eta, s) = (&x[0], &x[1]);
                    Ok(Certified::from_int(2, &eta.context()) * eta * eta * s * &(Certified::from_int(1, &s.context()) - s))
                };
                steps("ηΔ/2 − Δ²/8 at Δ = 4ηs is 2η²s − 2η²s² = 2η²s(1 − s) (exact).", (|| Ok(vec![ineq("2η²s(1 − s) ≥ 0 on η ∈ [0, 1/8], s ∈ [0, 1]", Role::Claim, &["η", "s"], vec![(q(0, 1), q(1, 8)), (q(0, 1), q(1, 1))], Sense::NonNegative, &f, None)?]))())
            },
        },
        Claim {
            id: "cc-lem5-L453",
            source: cc("Lemma 5, proof", "L444, L452–L453: τ_ℓ ≤ 16 log(|H_ℓ| + 1)/(2^{ℓ−1}Δmin)² + 1 gives 2^ℓΔmin τ_ℓ ≤ 32 log(|H_ℓ| + 1)/(2^{ℓ−1}Δmin) + 2^ℓΔmin"),
            statement: "With δ = 2^{ℓ−1}Δmin and L = log(|H_ℓ| + 1): 2δ·(16L/δ² + 1) = 32L/δ + 2δ.",
            math: "2δ(16L/δ² + 1) = 32L/δ + 2δ",
            method: Method::ExactAlgebra,
            domain: "every δ > 0, L ≥ 0 (⌈y⌉ ≤ y + 1 for the ceiling): both sides times δ are polynomials of degree ≤ 2 in δ and ≤ 1 in L",
            cost: Cost::Fast,
            check: || {
                identity(
                    "both sides times δ are polynomials of degree ≤ 2 in δ and ≤ 1 in L (grid δ ∈ {1/3, 2/3, 1}, L ∈ {1/3, 2/3}).",
                    &["δ", "L"],
                    &grid(&[axis(3), axis(2)]),
                    &|p: &[Q]| q(2, 1) * &p[0] * (q(16, 1) * &p[1] / (p[0].clone() * &p[0]) + Q::one()),
                    &|p: &[Q]| q(32, 1) * &p[1] / &p[0] + q(2, 1) * &p[0],
                )
            },
        },
        Claim {
            id: "cc-lem5-L454",
            source: cc("Lemma 5, proof", "L453–L456: 32L/δ + 2δ ≤ (32L + 2)/δ because δ = 2^{ℓ−1}Δmin ≤ 1"),
            statement: "For δ ∈ (0, 1]: 2δ ≤ 2/δ, i.e. (multiplied by δ > 0) 2 − 2δ² ≥ 0.",
            math: "2 − 2δ² ≥ 0, δ ∈ [0, 1]",
            method: Method::BranchAndBound,
            domain: "δ ∈ [0, 1]; tight at δ = 1, decided by the mean-value form with the derivative −4δ",
            cost: Cost::Fast,
            check: || {
                let f = |x: &[Certified]| Ok(Certified::from_int(2, &x[0].context()) - Certified::from_int(2, &x[0].context()) * &x[0] * &x[0]);
                let df = |x: &[Certified]| Ok(vec![Certified::from_int(-4, &x[0].context()) * &x[0]]);
                steps("", (|| Ok(vec![ineq("2 − 2δ² ≥ 0 on δ ∈ [0, 1]", Role::Claim, &["δ"], vec![(q(0, 1), q(1, 1))], Sense::NonNegative, &f, Some(&df))?]))())
            },
        },
        Claim {
            id: "cc-lem5-L472",
            source: cc("Lemma 5, proof", "L460–L472: with x = δ²/8, 2/x = 16/δ² (L464), τ_ℓδ²/8 ≥ 2 log(|H_ℓ| + 1) (L468), and |H_ℓ|·4δ·(16/δ²)/(|H_ℓ| + 1)² = 64|H_ℓ|/(δ(|H_ℓ| + 1)²)"),
            statement: "2/(δ²/8) = 16/δ², (16L/δ²)·δ²/8 = 2L, and a·4δ·(16/δ²)·1/(a + 1)² = 64a/(δ(a + 1)²) with a = |H_ℓ|.",
            math: "a·4δ·(16/δ²)/(a + 1)² = 64a/(δ(a + 1)²)",
            method: Method::ExactAlgebra,
            domain: "every δ > 0, a ≥ 1, L ≥ 0: rational functions (grid δ ∈ {1/3, 2/3, 1}, a ∈ {1, 2, 3}); the two constants 2·8 = 16 and 16/8 = 2 are exact",
            cost: Cost::Fast,
            check: || {
                if q(2, 1) / q(1, 8) != q(16, 1) || q(16, 1) / q(8, 1) != q(2, 1) {
                    return Ok(Outcome::refuted("2/(1/8) ≠ 16 or 16/8 ≠ 2", serde_json::json!({})));
                }
                identity(
                    "2/(1/8) = 16 and 16/8 = 2 (exact); both sides times δ(a + 1)² are polynomials of degree ≤ 1 in a and δ after cancelling δ (grid δ ∈ {1/3, 2/3, 1}, a ∈ {1, 2, 3}).",
                    &["δ", "a"],
                    &grid(&[axis(3), vec![q(1, 1), q(2, 1), q(3, 1)]]),
                    &|p: &[Q]| p[1].clone() * q(4, 1) * &p[0] * (q(16, 1) / (p[0].clone() * &p[0])) / ((p[1].clone() + Q::one()) * (p[1].clone() + Q::one())),
                    &|p: &[Q]| q(64, 1) * &p[1] / (p[0].clone() * (p[1].clone() + Q::one()) * (p[1].clone() + Q::one())),
                )
            },
        },
        Claim {
            id: "cc-lem5-L476",
            source: cc("Lemma 5, proof", "L474–L476: (32 log(|H_ℓ| + 1) + 2)/δ + 16/δ = (32 log(|H_ℓ| + 1) + 18)/δ"),
            statement: "(32L + 2)/δ + 16/δ = (32L + 18)/δ.",
            math: "(32L + 2)/δ + 16/δ = (32L + 18)/δ",
            method: Method::ExactAlgebra,
            domain: "every δ > 0, L ≥ 0: both sides times δ are of degree ≤ 1 in L",
            cost: Cost::Fast,
            check: || {
                identity(
                    "both sides times δ are polynomials of degree ≤ 1 in L and 0 in δ (grid L, δ ∈ {1/3, 2/3}).",
                    &["L", "δ"],
                    &grid(&[axis(2), axis(2)]),
                    &|p: &[Q]| (q(32, 1) * &p[0] + q(2, 1)) / &p[1] + q(16, 1) / &p[1],
                    &|p: &[Q]| (q(32, 1) * &p[0] + q(18, 1)) / &p[1],
                )
            },
        },
        Claim {
            id: "cc-lem5-L483",
            source: cc("Lemma 5, proof", "L482–L483: (1/Δmin) Σ_{ℓ≥1} (32 log(K + 1) + 18)/2^{ℓ−1} ≤ (64 log(K + 1) + 36)/Δmin"),
            statement: "Σ_{ℓ≥1} 1/2^{ℓ−1} = 2, so Σ_ℓ (32 log(K + 1) + 18)/2^{ℓ−1} = 64 log(K + 1) + 36.",
            math: "Σ_{ℓ≥1} 2^{−(ℓ−1)} = 2; 2·32 = 64, 2·18 = 36",
            method: Method::ExactAlgebra,
            domain: "the series: partial sums 2 − 2^{1−n} by induction, exactly",
            cost: Cost::Fast,
            check: || Ok(exactly("the partial sums Σ_{ℓ=1}^{n} 2^{−(ℓ−1)} = 2 − 2^{1−n} (base and degree-1 step, exact), so the series is 2; 2·32 = 64 and 2·18 = 36.", halving_series())),
        },
        Claim {
            id: "cc-lem5-L557",
            source: cc("Lemma 5, proof", "L553–L557: Δ_j > 4η gives η²/2 ≤ ηΔ_j/8, so exp(−ηΔ_j + η²/2) ≤ exp(−7ηΔ_j/8)"),
            statement: "ηΔ/8 − η²/2 = η(Δ − 4η)/8, which is ≥ 0 when Δ ≥ 4η; hence −ηΔ + η²/2 ≤ −7ηΔ/8.",
            math: "ηΔ/8 − η²/2 = η(Δ − 4η)/8 and (−ηΔ + ηΔ/8) = −7ηΔ/8",
            method: Method::ExactAlgebra,
            domain: "every η > 0, Δ ≥ 4η: polynomial identities of degree ≤ 2 (grid η, Δ ∈ {1/3, 2/3, 1}); the sign is that of a product of nonnegatives",
            cost: Cost::Fast,
            check: || {
                identity(
                    "ηΔ/8 − η²/2 and η(Δ − 4η)/8 are polynomials of degree ≤ 2 in η and ≤ 1 in Δ (grid η, Δ ∈ {1/3, 2/3, 1}).",
                    &["η", "Δ"],
                    &grid(&[axis(3), axis(3)]),
                    &|p: &[Q]| p[0].clone() * &p[1] / q(8, 1) - p[0].clone() * &p[0] / q(2, 1),
                    &|p: &[Q]| p[0].clone() * (p[1].clone() - q(4, 1) * &p[0]) / q(8, 1),
                )
            },
        },
        Claim {
            id: "cc-lem5-L553",
            source: cc("Lemma 5, proof", "L551–L553: E[e^{−ηY_{m+1,j}}] ≤ exp(−ηΔ_j + η²/2) for Y ∈ [−1, 1] with mean Δ_j (Hoeffding's lemma)"),
            statement: "For Y with values in [−1, 1] and mean Δ: E[e^{−ηY}] ≤ exp(−ηΔ + η²/2).",
            math: "((1 + Δ)/2)e^{−η} + ((1 − Δ)/2)e^{η} ≤ exp(−ηΔ + η²/2)",
            method: Method::InstanceGrid,
            domain: "the two-point law Y ∈ {−1, 1} (every law on [−1, 1] with mean Δ has E[e^{−ηY}] at most this, by convexity) on a grid of η ≤ 1/8 and Δ ∈ [0, 1] (both sides equal 1 to second order at η = 0, so no interval method certifies the neighbourhood of η = 0)",
            cost: Cost::Fast,
            check: lem5_l553,
        },
        Claim {
            id: "cc-lem5-L565",
            source: cc("Lemma 5, proof", "L565 with L569: Q_{m,1} + Σ_j Q_{m,j}(1 − ηΔ_j/4) = 1 − ηV_m/4 since Q_{m,1} + Σ_j Q_{m,j} = 1"),
            statement: "With Q_1 = 1 − Σ_j Q_j and V = Σ_j Δ_jQ_j: Q_1 + Σ_j Q_j(1 − ηΔ_j/4) = 1 − ηV/4.",
            math: "Q_1 + Σ_j Q_j(1 − ηΔ_j/4) = 1 − (η/4)Σ_j Δ_jQ_j",
            method: Method::ExactAlgebra,
            domain: "every η, Q_j, Δ_j: the identity holds term by term, so two large-gap terms represent any number; both sides are of degree ≤ 1 in each variable (grid {1/3, 2/3}⁵)",
            cost: Cost::Fast,
            check: || {
                identity(
                    "both sides are polynomials of degree ≤ 1 in each of η, Q_2, Q_3, Δ_2, Δ_3 (grid {1/3, 2/3}⁵), and the identity is a sum of the same identity per term.",
                    &["η", "Q_2", "Q_3", "Δ_2", "Δ_3"],
                    &grid(&[axis(2), axis(2), axis(2), axis(2), axis(2)]),
                    &|p: &[Q]| {
                        let q1 = Q::one() - &p[1] - &p[2];
                        q1 + p[1].clone() * (Q::one() - p[0].clone() * &p[3] / q(4, 1)) + p[2].clone() * (Q::one() - p[0].clone() * &p[4] / q(4, 1))
                    },
                    &|p: &[Q]| Q::one() - p[0].clone() / q(4, 1) * (p[3].clone() * &p[1] + p[4].clone() * &p[2]),
                )
            },
        },
        Claim {
            id: "cc-lem5-L593",
            source: cc("Lemma 5, proof", "L589–L593: summing E[log Z_{m+1}] − E[log Z_m] ≤ −(η/4)E[V_m] over m = 0..N telescopes to E[log Z_{N+1}] − E[log Z_0]"),
            statement: "Σ_{m=0}^{N}(a_{m+1} − a_m) = a_{N+1} − a_0 for every N ≥ 0.",
            math: "Σ_{m=0}^{N}(a_{m+1} − a_m) = a_{N+1} − a_0",
            method: Method::ExactAlgebra,
            domain: "every N ≥ 0, by induction: the base N = 0 and the step (b − a_0) + (c − b) = c − a_0, of degree 1 in each of a_0, b, c",
            cost: Cost::Fast,
            check: || {
                identity(
                    "by induction — the base N = 0 is a_1 − a_0 itself; the step adds a_{N+2} − a_{N+1} to a_{N+1} − a_0, both sides of degree 1 in each of a_0, b = a_{N+1}, c = a_{N+2} (grid {1/3, 2/3}³).",
                    &["a_0", "b", "c"],
                    &grid(&[axis(2), axis(2), axis(2)]),
                    &|p: &[Q]| (p[1].clone() - &p[0]) + (p[2].clone() - &p[1]),
                    &|p: &[Q]| p[2].clone() - &p[0],
                )
            },
        },
    ]
}

/// The adversarial searches of this file's instance claims
/// (`verify::search`): each claim's stated domain, pushed as far as the
/// certified binomial recursion allows (m, n in the thousands).
pub(super) fn adversaries() -> Vec<Adversary> {
    vec![
        Adversary {
            id: "cc-lem1-tail",
            seed: "cc-lem1-tail",
            params: vec![
                Param::int("m", 1, 4000),
                Param::real("μ", "1/1000", "1"),
                Param::int("law", 0, 1),
            ],
            note: "the two-point laws with mean μ (law 0: U ∈ {−1, 1}, law 1: U ∈ {0, 1}); the lemma's domain is every law on [−1, 1], of which these are the extreme ones",
            starts: 4,
            budget: 60,
            probes: Arc::new(|point, ctx| {
                let (m, mu, law) = (int_of(&point[0]) as u32, point[1].clone(), int_of(&point[2]));
                let threshold = Q::from_integer(m.into()) * &mu / q(2, 1);
                let (p, plus_minus) = if law == 0 { ((Q::one() + &mu) / q(2, 1), true) } else { (mu.clone(), false) };
                let prob = binomial_mean(m, &p, &ctx, &|k| {
                    let sum = if plus_minus { q(2 * i64::from(k) - i64::from(m), 1) } else { q(i64::from(k), 1) };
                    Ok(indicator(sum <= threshold, &ctx))
                })?;
                let bound = Certified::from_rational(&(-(Q::from_integer(m.into()) * &mu * &mu) / q(8, 1)), &ctx).exp()?;
                Ok(vec![Probe::upper(format!("law {law}, m = {m}, μ = {mu}: P(Σ U ≤ mμ/2) ≤ exp(−mμ²/8)"), prob, bound)])
            }),
        },
        Adversary {
            id: "cc-eq4",
            seed: "cc-eq4",
            params: vec![
                Param::real("η", "1/1000", "1/8"),
                Param::real("Δ/η", "1/100", "4"),
                Param::int("m", 1, 4000),
                Param::int("law", 0, 1),
            ],
            note: "K = 2 (the largest P_{m,j} for a law of D_{m,j}), steps ±1 (law 0) or {0, 1} (law 1) with mean Δ = (Δ/η)·η ≤ 4η; the paper's domain is every K and every step law on [−1, 1]",
            starts: 4,
            budget: 50,
            probes: Arc::new(|point, ctx| {
                let (eta, delta, m, law) = (point[0].clone(), point[0].clone() * &point[1], int_of(&point[2]) as u32, int_of(&point[3]));
                let (p, plus_minus) = if law == 0 { ((Q::one() + &delta) / q(2, 1), true) } else { (delta.clone(), false) };
                let value = expected_softmax(m, &p, &eta, plus_minus, &ctx)?;
                let bound = c(2, 1, &ctx) * &Certified::from_rational(&(-(Q::from_integer(m.into()) * &delta * &delta) / q(8, 1)), &ctx).exp()?;
                Ok(vec![Probe::upper(format!("law {law}, η = {eta}, Δ = {delta}, m = {m}: E[P_{{m,j}}] ≤ 2exp(−mΔ²/8)"), value, bound)])
            }),
        },
        Adversary {
            id: "cc-lem5-L553",
            seed: "cc-lem5-L553",
            params: vec![Param::real("η", "1/10000", "1/8"), Param::real("Δ", "0", "1")],
            note: "the two-point law Y ∈ {−1, 1} with mean Δ, the extreme one by convexity; η over the whole range the proof uses (η ≤ 1/8)",
            starts: 4,
            budget: 80,
            probes: Arc::new(|point, ctx| {
                let (e, d) = (&point[0], &point[1]);
                let (en, ep) = ((-Certified::from_rational(e, &ctx)).exp()?, Certified::from_rational(e, &ctx).exp()?);
                let lhs = Certified::from_rational(&((Q::one() + d) / q(2, 1)), &ctx) * &en
                    + &(Certified::from_rational(&((Q::one() - d) / q(2, 1)), &ctx) * &ep);
                let rhs = Certified::from_rational(&(-(e.clone() * d) + e.clone() * e / q(2, 1)), &ctx).exp()?;
                Ok(vec![Probe::upper(format!("η = {e}, Δ = {d}: E[e^{{−ηY}}] ≤ exp(−ηΔ + η²/2)"), lhs, rhs)])
            }),
        },
    ]
}
