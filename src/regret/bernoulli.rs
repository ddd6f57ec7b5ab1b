//! Exact pseudo-regret in the Bernoulli setting: `X_{t,j} ~ Bernoulli(μ_j)`,
//! independent across actions and rounds.
//!
//! Every choice reads a window of i.i.d. loss vectors, and its law depends on
//! the window only through the per-action sums, which are independent
//! `S_j ~ Binomial(n, μ_j)`. So the expected gap of a choice is
//! `E_S[Σ_j Δ_j P(j | S)]`:
//!
//! * **report-noisy-max epochs** (`naive-ftnl`, `hu-rnm-ftnl`, `wu-wang`):
//!   `n = 2^{b−1}`, the mechanism law on the sums `S`. Bernoulli resampling
//!   leaves 0/1 losses unchanged, so B = 1 is the same; and `wu-wang` with
//!   B = 1 in the *deterministic* setting resamples `Binomial(n, μ_j)` sums,
//!   which is this computation again.
//! * **prefix-softmax**: the average over the prefix lengths `m` of the
//!   softmax law on `S ~ Binomial(m, μ)`.
//! * **ftl**: round `t ≥ 2` plays the first minimiser of `S ~ Binomial(t−1, μ)`,
//!   `P(leader = i) = Σ_s P(S_i = s) Π_{k<i} P(S_k > s) Π_{k>i} P(S_k ≥ s)`,
//!   `O(K t)` per round with prefix and suffix products, `O(K T²)` in all
//!   (every round is a choice), charged as such by [`cost`] and counted
//!   round by round on the progress bar.
//!
//! # How `E_S` is computed
//!
//! Two engines ([`Engine`]), which the tests set against each other:
//!
//! * **Enumeration** of the product of the binomial supports (a point mass
//!   for `μ_j ∈ {0, 1}`): for Gumbel noise (softmax) with running numerator
//!   and denominator, four operations per outcome; for exponential and
//!   Laplace noise the law of each distinct gap pattern `S − min S` once
//!   (cached). It costs `Π_j (n + 1)` outcomes per choice, and is the only
//!   engine for exact backends (exact rationals with a rational unit weight)
//!   and for exponential and Laplace noise.
//! * **Quadrature** ([`laplace_transform`]), for Gumbel noise on certified
//!   and f64 backends: `E[Σ_i Δ_i U_i/Σ_j U_j] = ∫₀^∞ g(s) ds` with `g` a
//!   completely monotone combination of the Laplace transforms of the
//!   `U_j = w^{S_j}`, enclosed step by step on a geometric grid (Taylor
//!   series with a remainder whose sign and size complete monotonicity
//!   gives, and a tail bound). A choice takes `O(n/β)` steps (fewer when
//!   the tail bound allows), each a pass over the `O(K n)` binomial atoms
//!   and `O(K m²)` series products with `m` Taylor terms (`m` grows with the
//!   precision): polynomial in `n` and `K` instead of `n^K`. Its width is
//!   absolute, about `2^{−(bits−32)}` per choice.
//!
//! [`Engine::Auto`] (what [`regret`] uses) takes, choice by choice, the one
//! with the smaller estimated work ([`cost`]): the enumeration for small `n`,
//! the quadrature beyond. Either is refused beyond a limit on the work (the
//! caller's `--force` lifts it), with the size in the message.

use super::{
    binomial, count, dyadic_blocks, expected, laplace_transform, Enclose, Instance, Plan,
    RegretCurve, Round, Term,
};
use crate::error::{Error, Result};
use crate::mechanism::{self, exponential, Noise, Scale};
use crate::num::{Kind, Real, Q};
use crate::progress::Progress;
use num_bigint::BigInt;
use num_traits::{One, ToPrimitive, Zero};
use rayon::prelude::*;
use std::collections::HashMap;

/// The default limit on the work of an enumeration (outcomes times the cost
/// of one law), `2^28`.
pub const DEFAULT_LIMIT: u128 = 1 << 28;

/// How the expected gap of a softmax (Gumbel) choice is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The cheaper of the two by the estimates of [`cost`]: the quadrature
    /// only for Gumbel noise on a non-exact backend.
    Auto,
    /// Enumerate the binomial outcomes (every noise, every backend).
    Enumeration,
    /// The Laplace-transform quadrature of [`laplace_transform`] (Gumbel
    /// noise on certified or f64 backends; an error otherwise).
    Quadrature,
}

/// What [`Engine`] resolves to for one choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    Enumeration,
    Quadrature,
}

/// The Bernoulli-setting regret curve of `plan` at horizon `T`, each choice
/// by the cheaper engine; an error when the work exceeds `limit` (see
/// [`cost`]).
pub fn regret<R: Enclose>(
    plan: &Plan,
    inst: &Instance,
    horizon: Round,
    ctx: &R::Context,
    limit: Option<u128>,
) -> Result<RegretCurve<R>> {
    regret_with(plan, inst, horizon, ctx, limit, Engine::Auto)
}

/// [`regret`] with the engine of the softmax choices chosen by the caller
/// (the tests and benches set the two against each other).
pub fn regret_with<R: Enclose>(
    plan: &Plan,
    inst: &Instance,
    horizon: Round,
    ctx: &R::Context,
    limit: Option<u128>,
    engine: Engine,
) -> Result<RegretCurve<R>> {
    regret_counted(
        plan,
        inst,
        horizon,
        ctx,
        limit,
        engine,
        &Progress::default(),
    )
}

/// [`regret_with`], counting each dyadic block done on `progress`.
pub(crate) fn regret_counted<R: Enclose>(
    plan: &Plan,
    inst: &Instance,
    horizon: Round,
    ctx: &R::Context,
    limit: Option<u128>,
    engine: Engine,
    progress: &Progress,
) -> Result<RegretCurve<R>> {
    super::check_horizon(horizon)?;
    if let Some(limit) = limit {
        let work = cost::<R>(plan, inst, horizon, ctx, engine);
        if work > limit {
            return Err(Error::TooLarge(format!(
                "the exact Bernoulli-setting regret of this instance costs about {} operations (binomial outcomes × law cost, or quadrature steps; limit {limit:.1e}); use a smaller horizon or fewer actions, or pass --force",
                format_work(work)
            )));
        }
    }
    let mut terms = vec![Term {
        first: 1,
        last: 1,
        gap: plan.first_gap::<R>(inst, ctx),
    }];
    let deltas = inst.gaps_in::<R>(ctx);
    match plan {
        Plan::Ftl => terms.extend(ftl_terms::<R>(inst, horizon, ctx, progress)?),
        Plan::Epoch { noise, scale, .. } => {
            let scale = Scale::Beta(scale.clone());
            for (b, first, last) in dyadic_blocks(horizon) {
                let n = 1u64 << (b - 1);
                let gap = expected_gap(*noise, &scale, inst, &deltas, n, ctx, engine)?;
                terms.push(Term { first, last, gap });
                progress.add(1);
            }
        }
        Plan::Prefix { eta } => {
            let scale = Scale::Beta(eta.recip());
            for (b, first, last) in dyadic_blocks(horizon) {
                let lengths: Vec<u64> = if b == 1 {
                    vec![1]
                } else {
                    let a = 1u64 << (b - 2);
                    (a + 1..=2 * a).collect()
                };
                let mut total = R::from_int(0, ctx);
                for &m in &lengths {
                    total =
                        total + expected_gap(Noise::Gumbel, &scale, inst, &deltas, m, ctx, engine)?;
                }
                let gap = total / count::<R>(lengths.len() as Round, ctx);
                terms.push(Term { first, last, gap });
                progress.add(1);
            }
        }
    }
    Ok(RegretCurve { terms })
}

fn format_work(work: u128) -> String {
    format!("{:.2e}", work as f64)
}

/// The number of values a `Binomial(n, μ)` sum can take: 1 for `μ ∈ {0, 1}`.
fn support(n: u64, mean: &Q) -> u128 {
    if mean.is_zero() || mean.is_one() {
        1
    } else {
        u128::from(n) + 1
    }
}

/// The work of enumerating one choice reading `n` rounds: outcomes × cost
/// per outcome (`K` for softmax, `K²` for permute-and-flip, `K³` for
/// Laplace), saturating.
fn enumeration_cost(noise: Noise, inst: &Instance, n: u64) -> u128 {
    let k = inst.k() as u128;
    let per = match noise {
        Noise::Gumbel => k,
        Noise::Exponential => k * k,
        Noise::Laplace => k * k * k,
    };
    inst.means()
        .iter()
        .fold(per, |acc, m| acc.saturating_mul(support(n, m)))
}

/// The engine one choice reading `n` rounds runs on, and its work.
fn method<R: Enclose>(
    engine: Engine,
    noise: Noise,
    beta: &Q,
    inst: &Instance,
    n: u64,
    ctx: &R::Context,
) -> (Method, u128) {
    let enumeration = enumeration_cost(noise, inst, n);
    let quadrature =
        || laplace_transform::cost(inst.k(), n, Real::to_f64(beta), R::working_bits(ctx));
    match engine {
        Engine::Enumeration => (Method::Enumeration, enumeration),
        Engine::Quadrature => (Method::Quadrature, quadrature()),
        Engine::Auto => {
            if noise != Noise::Gumbel || R::KIND == Kind::Exact {
                return (Method::Enumeration, enumeration);
            }
            let quadrature = quadrature();
            if quadrature < enumeration {
                (Method::Quadrature, quadrature)
            } else {
                (Method::Enumeration, enumeration)
            }
        }
    }
}

/// The work [`regret_with`] would do with `engine` (its unit: one
/// multiply-add of the backend, roughly; an estimate for the quadrature).
pub fn cost<R: Enclose>(
    plan: &Plan,
    inst: &Instance,
    horizon: Round,
    ctx: &R::Context,
    engine: Engine,
) -> u128 {
    let k = inst.k() as u128;
    match plan {
        Plan::Ftl => {
            // Σ_{t ≤ T} FTL_STEP·K·t, saturating.
            let t = horizon.min(1 << 60);
            k.saturating_mul(t.saturating_mul(t) / 2)
                .saturating_mul(FTL_STEP)
                .max(1)
        }
        Plan::Epoch { noise, scale, .. } => dyadic_blocks(horizon.min(1 << 100))
            .map(|(b, _, _)| {
                let n = 1u64.checked_shl(b - 1).unwrap_or(0);
                method::<R>(engine, *noise, scale, inst, n, ctx).1
            })
            .fold(0u128, u128::saturating_add),
        Plan::Prefix { eta } => {
            let beta = eta.recip();
            dyadic_blocks(horizon)
                .map(|(b, _, _)| {
                    if b == 1 {
                        return method::<R>(engine, Noise::Gumbel, &beta, inst, 1, ctx).1;
                    }
                    if b > 62 {
                        return u128::MAX;
                    }
                    let a = 1u64 << (b - 2);
                    // Σ over a prefix lengths of at most the work at 2a each.
                    method::<R>(engine, Noise::Gumbel, &beta, inst, 2 * a, ctx)
                        .1
                        .saturating_mul(u128::from(a))
                })
                .fold(0u128, u128::saturating_add)
        }
    }
}

/// The multiply-adds of ftl's Bernoulli regret per action and binomial
/// value `s` of a round: the binomial update (2), the tail (1), the suffix
/// and prefix products (2), the leader's term (3). Measured: `K = 200`,
/// `T = 100` (`1.6·10^7` of them) takes 6 s on one core at 192 bits, about
/// 0.4 µs each, so the default limit of `2^28` is about 2 minutes (with a
/// progress bar counting the rounds); it took over a minute with no
/// estimate when the leader's product was formed anew for each action
/// (`K² t` per round, charged as `K t`).
const FTL_STEP: u128 = 8;

/// The largest [`exact_ftl_cost`] for which ftl's Bernoulli regret is
/// computed in exact rationals; beyond it the certified engine (whose numbers
/// do not grow) runs instead.
pub const MAX_EXACT_FTL_WORK: f64 = 5e7;

/// The cost of ftl's exact Bernoulli regret in word operations, from the
/// sizes alone. Round `t` updates `K` binomial laws of `t` entries and
/// multiplies their tails across the `K` actions; in exact rationals those
/// entries carry `b·t` bits (`b` = the bits of a mean's numerator and
/// denominator, so the products carry `K·b·t`), and each operation costs the
/// square of its size in words (schoolbook products and the gcd of every
/// reduction). Summed over `t ≤ T`: `≈ K³ b² T⁴ / (4·64²)`. The count of
/// operations alone (`K·T²/2`, what [`cost`] charges) misses the growth:
/// that is why `T = 512` once took 97 s exactly while the certified
/// `T = 600` took 8 s.
pub fn exact_ftl_cost(inst: &Instance, horizon: Round) -> f64 {
    let k = inst.k() as f64;
    let b = inst
        .means()
        .iter()
        .map(|m| (m.numer().bits() + m.denom().bits()) as f64)
        .fold(1.0, f64::max);
    let t = horizon as f64;
    k.powi(3) * b * b * t.powi(4) / (4.0 * 4096.0)
}

/// The non-zero atoms `(s, P(S = s))` of `Binomial(n, μ)` in the backend.
fn atoms<R: Real>(n: u64, mean: &Q, ctx: &R::Context) -> Vec<(usize, R)> {
    binomial(n, mean)
        .into_iter()
        .enumerate()
        .filter(|(_, p)| !p.is_zero())
        .map(|(s, p)| (s, R::from_rational(&p, ctx)))
        .collect()
}

/// `E_S[Σ_j Δ_j P_noise(j | S)]` with `S_j ~ Binomial(n, μ_j)` independent,
/// report-noisy-max with `noise` of scale `scale` on the losses `S`, by the
/// enumeration or (Gumbel noise only) the quadrature, as `engine` says.
pub fn expected_gap<R: Enclose>(
    noise: Noise,
    scale: &Scale,
    inst: &Instance,
    deltas: &[R],
    n: u64,
    ctx: &R::Context,
    engine: Engine,
) -> Result<R> {
    let beta = match scale {
        Scale::Beta(beta) => beta.clone(),
        // Only the costs and the grid's spacing read β: a double's worth.
        Scale::UnitWeight(_) => Q::from_float(scale.to_f64()).ok_or_else(|| {
            Error::InvalidInput(format!("the unit weight of {scale:?} has no finite scale"))
        })?,
    };
    if method::<R>(engine, noise, &beta, inst, n, ctx).0 == Method::Quadrature {
        if noise != Noise::Gumbel {
            return Err(Error::InvalidInput(format!(
                "the quadrature computes softmax (Gumbel) choices only, not {noise:?} noise"
            )));
        }
        if R::KIND == Kind::Exact {
            return Err(Error::NotRepresentable(
                "the quadrature encloses the expected gap; an exact backend needs the enumeration"
                    .into(),
            ));
        }
        let options = laplace_transform::Options::for_bits(R::working_bits(ctx));
        let enclosure =
            laplace_transform::softmax_gap(scale, inst.means(), deltas, n, ctx, &options)?;
        return Ok(enclosure.total());
    }
    let columns: Vec<Vec<(usize, R)>> =
        inst.means().iter().map(|m| atoms::<R>(n, m, ctx)).collect();
    // u_s = w^s, s = 0..=n.
    let unit: R = scale.weight(&Q::one(), ctx)?;
    let mut powers = Vec::with_capacity(n as usize + 1);
    let mut u = R::from_int(1, ctx);
    for _ in 0..=n {
        powers.push(u.clone());
        u = u * &unit;
    }
    match noise {
        Noise::Gumbel => Ok(softmax_enumeration(deltas, &columns, &powers, ctx)),
        Noise::Exponential | Noise::Laplace => {
            pattern_enumeration(noise, scale, deltas, &columns, &powers, ctx)
        }
    }
}

/// `E[Σ_j Δ_j u_{S_j} / Σ_k u_{S_k}]` by enumeration, with running sums.
fn softmax_enumeration<R: Real>(
    deltas: &[R],
    columns: &[Vec<(usize, R)>],
    powers: &[R],
    ctx: &R::Context,
) -> R {
    fn level<R: Real>(
        k: usize,
        numerator: &R,
        denominator: &R,
        deltas: &[R],
        columns: &[Vec<(usize, R)>],
        powers: &[R],
        ctx: &R::Context,
    ) -> R {
        let mut acc = R::from_int(0, ctx);
        let last = k + 1 == columns.len();
        for (s, p) in &columns[k] {
            let u = &powers[*s];
            let num = numerator.clone().mul_add(&deltas[k], u);
            let den = denominator.clone() + u;
            let inner = if last {
                num / den
            } else {
                level(k + 1, &num, &den, deltas, columns, powers, ctx)
            };
            acc = acc.mul_add(p, &inner);
        }
        acc
    }
    let zero = R::from_int(0, ctx);
    // The outer level runs in parallel when the enumeration is large; the
    // partial sums are added in order, so the result does not depend on the
    // number of threads.
    let rest: usize = columns[1..].iter().map(Vec::len).product();
    if columns.len() < 2 || rest < 4096 {
        return level(0, &zero, &zero, deltas, columns, powers, ctx);
    }
    let parts: Vec<R> = columns[0]
        .par_iter()
        .map(|(s, p)| {
            let u = &powers[*s];
            let num = zero.clone().mul_add(&deltas[0], u);
            let den = zero.clone() + u;
            level(1, &num, &den, deltas, columns, powers, ctx) * p
        })
        .collect();
    parts.into_iter().fold(zero.clone(), |acc, x| acc + x)
}

/// `E[Σ_j Δ_j P(j | S)]` for permute-and-flip or Laplace report-noisy-max,
/// enumerating the outcomes and computing the law once per gap pattern.
fn pattern_enumeration<R: Enclose>(
    noise: Noise,
    scale: &Scale,
    deltas: &[R],
    columns: &[Vec<(usize, R)>],
    powers: &[R],
    ctx: &R::Context,
) -> Result<R> {
    let k = columns.len();
    let mut cache: HashMap<Vec<usize>, R> = HashMap::new();
    let mut index = vec![0usize; k];
    let mut total = R::from_int(0, ctx);
    loop {
        let sums: Vec<usize> = (0..k).map(|j| columns[j][index[j]].0).collect();
        let min = sums.iter().copied().min().unwrap_or(0);
        let pattern: Vec<usize> = sums.iter().map(|s| s - min).collect();
        let gap = match cache.get(&pattern) {
            Some(g) => g.clone(),
            None => {
                let law = match noise {
                    Noise::Exponential => {
                        let weights: Vec<R> = pattern.iter().map(|&g| powers[g].clone()).collect();
                        exponential::law(&weights)
                    }
                    _ => {
                        let losses: Vec<Q> = pattern
                            .iter()
                            .map(|&g| Q::from_integer(BigInt::from(g)))
                            .collect();
                        mechanism::laplace::law::<R>(&losses, scale, ctx)?
                    }
                };
                let g = expected(deltas, &law, ctx);
                cache.insert(pattern, g.clone());
                g
            }
        };
        let p = (1..k).fold(columns[0][index[0]].1.clone(), |acc, j| {
            acc * &columns[j][index[j]].1
        });
        total = total.mul_add(&p, &gap);
        // Next outcome (odometer).
        let mut j = 0;
        loop {
            if j == k {
                return Ok(total);
            }
            index[j] += 1;
            if index[j] < columns[j].len() {
                break;
            }
            index[j] = 0;
            j += 1;
        }
    }
}

/// The per-round terms of `ftl` for rounds `2..=T`.
fn ftl_terms<R: Real>(
    inst: &Instance,
    horizon: Round,
    ctx: &R::Context,
    progress: &Progress,
) -> Result<Vec<Term<R>>> {
    let k = inst.k();
    let horizon_rounds = horizon.to_u64().filter(|&t| t < 1 << 32).ok_or_else(|| {
        Error::TooLarge(format!(
            "ftl's Bernoulli regret takes one step per round; T = {horizon} is too many"
        ))
    })?;
    let means: Vec<R> = inst
        .means()
        .iter()
        .map(|m| R::from_rational(m, ctx))
        .collect();
    let one = R::from_int(1, ctx);
    let zero = R::from_int(0, ctx);
    let mut positive = vec![false; k];
    for i in inst.suboptimal() {
        positive[i] = true;
    }
    let deltas = inst.gaps_in::<R>(ctx);
    progress.start(horizon_rounds.saturating_sub(1));
    // pmf[k][s] = P(S_k = s), S_k ~ Binomial(t − 1, μ_k); start at t = 1.
    let mut pmf: Vec<Vec<R>> = vec![vec![one.clone()]; k];
    let mut out = Vec::new();
    for t in 2..=horizon_rounds {
        for (column, mu) in pmf.iter_mut().zip(&means) {
            let stay = one.clone() - mu;
            let mut next = Vec::with_capacity(column.len() + 1);
            for s in 0..=column.len() {
                let mut v = zero.clone();
                if s < column.len() {
                    v = v.mul_add(&column[s], &stay);
                }
                if s > 0 {
                    v = v.mul_add(&column[s - 1], mu);
                }
                next.push(v);
            }
            *column = next;
        }
        let n = t as usize - 1;
        // at_least[k][s] = P(S_k ≥ s) for s = 0..=n+1.
        let at_least: Vec<Vec<R>> = pmf
            .iter()
            .map(|column| {
                let mut tail = vec![zero.clone(); n + 2];
                for s in (0..=n).rev() {
                    tail[s] = tail[s + 1].clone() + &column[s];
                }
                tail
            })
            .collect();
        // P(leader = i) = Σ_s P(S_i = s) · before_i(s) · after_i(s) with
        // before_i(s) = Π_{j<i} P(S_j > s) (a running prefix product) and
        // after_i(s) = Π_{j>i} P(S_j ≥ s) (suffix products, built once per
        // s): `O(K)` products per value `s`, `O(K t)` per round. All factors
        // are non-negative: no cancellation in any backend.
        let mut p_lead = vec![zero.clone(); k];
        let mut after = vec![one.clone(); k];
        for s in 0..=n {
            for j in (0..k.saturating_sub(1)).rev() {
                after[j] = after[j + 1].clone() * &at_least[j + 1][s];
            }
            let mut before = one.clone();
            for i in 0..k {
                if positive[i] {
                    let prob = pmf[i][s].clone() * &before * &after[i];
                    p_lead[i] = p_lead[i].clone() + prob;
                }
                before = before * &at_least[i][s + 1];
            }
        }
        let gap = (0..k)
            .filter(|&i| positive[i])
            .fold(zero.clone(), |acc, i| acc.mul_add(&deltas[i], &p_lead[i]));
        progress.add(1);
        out.push(Term {
            first: Round::from(t),
            last: Round::from(t),
            gap,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_law_sums_to_one() {
        let p = Q::new(1.into(), 3.into());
        let law = binomial(5, &p);
        assert_eq!(law.iter().sum::<Q>(), Q::one());
        assert_eq!(law[0], Q::new(32.into(), 243.into()));
    }
}
