//! Closed forms of the pseudo-regret in the deterministic setting (the loss
//! vector is `μ` in every round), per epoch, for horizons up to `2^{100}`:
//! the cost grows with the number of epochs `⌊log₂ T⌋`, not with `T`.
//!
//! Round 1 costs [`Plan::first_gap`]. Block `B_b = {2^b, …, 2^{b+1} − 1}`
//! (`b ≥ 1`, cut at `T`) plays one choice, which read the `n = 2^{b−1}` loss
//! vectors of `B_{b−1}`; on deterministic losses its law depends only on the
//! window sums `n·μ`, that is on the gaps `n·Δ_j`:
//!
//! * **Gumbel noise** (Wu & Wang's `Gumbel(2/ε)`; the softmax sums of their
//!   Theorem 4 expression, §1.3 L142): `P(j) = w_j^n / Σ_i w_i^n` with
//!   `w_j = e^{−Δ_j/β}`. One exponential per action; the weights of block
//!   `b + 1` are the squares of those of block `b`.
//! * **exponential noise** (permute-and-flip): the law of
//!   [`mechanism::exponential`] on the same weights `w^n`, `O(K²)` per block.
//! * **Laplace noise**: the closed form of [`mechanism::laplace`] on the
//!   losses `n·μ`, `O(K³)` per block.
//! * **Bernoulli resampling** (`wu-wang`, B = 1): the resampled sums are
//!   `Binomial(n, μ_j)`, exactly the Bernoulli setting, so
//!   [`super::bernoulli`] computes it.
//! * **prefix-softmax** (Cesari & Colomboni §4): block `b` averages
//!   `R(m) = Σ_j Δ_j w_j^m / Σ_i w_i^m` (`w_j = e^{−ηΔ_j}`) over the prefix
//!   lengths `m ∈ {a+1, …, 2a}`, `a = 2^{b−2}` (`m = 1` for `b = 1`, `m = 2`
//!   for `b = 2`). These are `2^{b−2}` terms; the first ones are summed
//!   exactly, and the rest enclosed by integrals (below).
//! * **ftl**: round 1 plays action 1; every later round plays the best
//!   action (the leader of `(t−1)·μ`, ties to the lowest index, has gap 0):
//!   `Reg_T = Δ_1` exactly.
//!
//! # Negligible blocks
//!
//! For every noise, `P(J = j) ≤ P(Q_j − Q_best ≥ nΔ_j)`, whose tail is
//! `≤ e^{−ℓ}` (Gumbel: a logistic difference), `½e^{−ℓ}` (exponential: a
//! Laplace difference) or `¼(2 + ℓ)e^{−ℓ}` (Laplace), `ℓ = nΔ_j/β`. So once
//! `ℓ_min = nΔ_min/β ≥ bits(K) + L` (Gumbel, prefix-softmax with `β = 1/η`)
//! or `≥ max(10, 2(bits(K) + L))` (exponential, Laplace), the block's
//! expected gap lies in `[0, 2^{−L}]` (with `ln K ≤ bits(K)`,
//! `ln(2+ℓ) ≤ ℓ/2` for `ℓ ≥ 10`), and so does every later block's: they are
//! enclosed by `[0, 2^{−L}]` with `L = 2·bits + 128` without computing
//! weights whose exponent would overflow. Likewise a squared weight below
//! `2^{−L}` is replaced by `[0, 2^{−L}]`.
//!
//! # The prefix sums, enclosed
//!
//! `R(x) = Σ_j Δ_j w_j^x / Z(x)`, `Z(x) = Σ_i e^{−ηxΔ_i}`, is non-increasing
//! in real `x` (`R'(x) = −η·Var_x(Δ) ≤ 0`, the variance under the tilted
//! law), and `∫_a^b R(x) dx = (ln Z(a) − ln Z(b))/η` (`(ln Z)' = −ηR`). So
//!
//! ```text
//! ∫_c^{d+1} R  ≤  Σ_{m=c}^{d} R(m)  ≤  ∫_{c−1}^{d} R,
//! ```
//!
//! an enclosure of width `≤ R(c − 1)`. The first terms of each block are
//! summed exactly until `R(m)` drops below `2^{−(bits+8)}·E[Δ_{I_1}]` or a
//! work budget of `max(32, 2^{18}/K)` terms per block is spent; the rest is
//! enclosed. (With `Z = n₀(1 + Y/n₀)`, `n₀` the number of best actions,
//! `ln Z(a) − ln Z(b) = ln(1 + Y_a/n₀) − ln(1 + Y_b/n₀)`, and
//! `ln(1 + y) ∈ [y − y²/2, y]` for `y < 2^{−64}`, so the difference keeps
//! its relative accuracy when both are tiny.) Instances whose `R` decays
//! slowly (`ηΔ_min` small) at large `T` get an honest, wider enclosure.

use super::{
    bernoulli, count, expected, negligible, negligible_bits, Enclose, Instance, Plan, RegretCurve,
};
use super::{dyadic_blocks, Round, Term};
use crate::error::Result;
use crate::mechanism::{self, exponential, Noise, Scale};
use crate::num::{Real, Q};
use crate::progress::Progress;
use num_bigint::BigInt;
use num_traits::One;
use std::cmp::Ordering;

/// Tuning of the closed forms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The most prefix lengths summed exactly per block of `prefix-softmax`
    /// (the rest is enclosed by integrals); `None` for `max(32, 2^{18}/K)`.
    pub prefix_terms: Option<u64>,
}

impl Options {
    /// The default budget of exact prefix terms per block for K actions.
    pub fn prefix_budget(&self, k: usize) -> u64 {
        self.prefix_terms
            .unwrap_or_else(|| ((1u64 << 18) / k.max(1) as u64).max(32))
    }
}

/// The deterministic-setting regret curve of `plan` (see the module
/// documentation); `limit` bounds the Bernoulli enumeration that
/// resampling needs.
pub fn regret<R: Enclose>(
    plan: &Plan,
    inst: &Instance,
    horizon: Round,
    ctx: &R::Context,
    limit: Option<u128>,
) -> Result<RegretCurve<R>> {
    regret_with(plan, inst, horizon, ctx, limit, &Options::default())
}

/// [`regret`] with explicit [`Options`].
pub fn regret_with<R: Enclose>(
    plan: &Plan,
    inst: &Instance,
    horizon: Round,
    ctx: &R::Context,
    limit: Option<u128>,
    options: &Options,
) -> Result<RegretCurve<R>> {
    regret_counted(
        plan,
        inst,
        horizon,
        ctx,
        limit,
        options,
        &Progress::default(),
    )
}

/// [`regret_with`], counting each dyadic block of a Laplace-noise epoch
/// algorithm (the one slow closed form) on `progress`.
pub(crate) fn regret_counted<R: Enclose>(
    plan: &Plan,
    inst: &Instance,
    horizon: Round,
    ctx: &R::Context,
    limit: Option<u128>,
    options: &Options,
    progress: &Progress,
) -> Result<RegretCurve<R>> {
    super::check_horizon(horizon)?;
    let first = Term {
        first: 1,
        last: 1,
        gap: plan.first_gap::<R>(inst, ctx),
    };
    let mut terms = vec![first];
    match plan {
        Plan::Ftl => {
            if horizon >= 2 {
                terms.push(Term {
                    first: 2,
                    last: horizon,
                    gap: R::from_int(0, ctx),
                });
            }
        }
        Plan::Epoch { resample: true, .. } => {
            return bernoulli::regret_counted(
                plan,
                inst,
                horizon,
                ctx,
                limit,
                bernoulli::Engine::Auto,
                progress,
            );
        }
        Plan::Epoch { noise, scale, .. } => {
            if *noise == Noise::Laplace && limit.is_some() {
                check_laplace_cost(inst, horizon)?;
            }
            let gaps = epoch_gaps::<R>(*noise, scale, inst, horizon, ctx, progress)?;
            terms.extend(block_terms(horizon, gaps));
        }
        Plan::Prefix { eta } => {
            let budget = options.prefix_budget(inst.k());
            let gaps = prefix_gaps::<R>(eta, inst, horizon, ctx, budget, &terms[0].gap)?;
            terms.extend(block_terms(horizon, gaps));
        }
    }
    Ok(RegretCurve { terms })
}

/// Refuse, before any work, a Laplace-noise epoch regret whose closed-form
/// laws cost more than [`mechanism::MAX_LAPLACE_WORK`] multiply-adds in all:
/// one law of the `K` scaled means per dyadic block
/// ([`mechanism::laplace::cost`], `≈ 7K²` for distinct means).
fn check_laplace_cost(inst: &Instance, horizon: Round) -> Result<()> {
    let blocks = dyadic_blocks(horizon).count() as f64;
    let work = blocks * mechanism::laplace::cost(inst.means());
    if work > mechanism::MAX_LAPLACE_WORK {
        return Err(crate::error::Error::TooLarge(format!(
            "the Laplace laws of the {blocks} epochs at K = {} cost about {work:.1e} multiply-adds, over the limit of {:.1e}; pass --force to compute them anyway",
            inst.k(),
            mechanism::MAX_LAPLACE_WORK
        )));
    }
    Ok(())
}

fn block_terms<R>(horizon: Round, gaps: Vec<R>) -> impl Iterator<Item = Term<R>> {
    dyadic_blocks(horizon)
        .zip(gaps)
        .map(|((_, first, last), gap)| Term { first, last, gap })
}

/// The number of bits of K (`ln K ≤ bits(K)`).
fn bits_of(k: usize) -> u64 {
    u64::from(usize::BITS - k.leading_zeros())
}

/// Whether `ℓ = n·Δ_min/β ≥ threshold`, exactly.
fn at_least(n: Round, delta_min: &Q, beta: &Q, threshold: u64) -> bool {
    Q::from_integer(BigInt::from(n)) * delta_min / beta >= Q::from_integer(threshold.into())
}

/// The threshold on `ℓ_min` beyond which a block's expected gap is in
/// `[0, 2^{−L}]` (module documentation).
fn negligible_threshold(noise: Noise, k: usize, l: u64) -> u64 {
    match noise {
        Noise::Gumbel => bits_of(k) + l,
        Noise::Exponential | Noise::Laplace => (2 * (bits_of(k) + l)).max(10),
    }
}

/// Square the weights, replacing those certainly below `2^{−L}` by
/// `[0, 2^{−L}]` (whose square is again enclosed by it).
fn square_weights<R: Enclose>(weights: &mut [R], floor: &R, tiny: &R) {
    for w in weights.iter_mut() {
        if w.cmp_certain(floor) == Some(Ordering::Less) {
            *w = tiny.clone();
        } else {
            *w = w.clone() * &*w;
        }
    }
}

/// `Σ_j Δ_j w_j / (n₀ + Σ_j w_j)` over the positive-gap actions.
fn softmax_gap<R: Real>(deltas: &[R], weights: &[R], best: usize, ctx: &R::Context) -> R {
    let mut numerator = R::from_int(0, ctx);
    let mut denominator = R::from_int(best as i64, ctx);
    for (d, w) in deltas.iter().zip(weights) {
        numerator = numerator.mul_add(d, w);
        denominator = denominator + w;
    }
    numerator / denominator
}

/// The expected gap of each block's choice of a report-noisy-max epoch
/// algorithm without resampling.
fn epoch_gaps<R: Enclose>(
    noise: Noise,
    beta: &Q,
    inst: &Instance,
    horizon: Round,
    ctx: &R::Context,
    progress: &Progress,
) -> Result<Vec<R>> {
    let l = negligible_bits(R::working_bits(ctx));
    let tiny: R = negligible(l, ctx)?;
    let floor = R::from_rational(&Q::new(BigInt::one(), BigInt::one() << l), ctx);
    let Some(delta_min) = inst.delta_min() else {
        // All means equal: every gap is zero.
        return Ok(dyadic_blocks(horizon)
            .map(|_| R::from_int(0, ctx))
            .collect());
    };
    let threshold = negligible_threshold(noise, inst.k(), l);
    let positive = inst.suboptimal();
    let best = inst.k() - positive.len();
    let deltas: Vec<R> = positive
        .iter()
        .map(|&j| R::from_rational(&inst.gaps()[j], ctx))
        .collect();
    let all_deltas = inst.gaps_in::<R>(ctx);
    let scale = Scale::Beta(beta.clone());
    let mut weights: Option<Vec<R>> = None;
    let mut live: Option<Live<R>> = None;
    let mut out = Vec::new();
    for (b, _, _) in dyadic_blocks(horizon) {
        let n: Round = 1 << (b - 1);
        if at_least(n, &delta_min, beta, threshold) {
            out.push(tiny.clone());
            continue;
        }
        let gap = match noise {
            Noise::Laplace => {
                let losses: Vec<Q> = inst
                    .means()
                    .iter()
                    .map(|m| m * Q::from_integer(BigInt::from(n)))
                    .collect();
                let law = mechanism::laplace::law::<R>(&losses, &scale, ctx)?;
                progress.add(1);
                expected(&all_deltas, &law, ctx)
            }
            Noise::Gumbel => {
                let live = match live.as_mut() {
                    None => live.insert(Live {
                        w: super::exp_weights::<R>(
                            &positive
                                .iter()
                                .map(|&j| &inst.gaps()[j] / beta)
                                .collect::<Vec<Q>>(),
                            ctx,
                        )?,
                        deltas: deltas.clone(),
                        dead_count: 0,
                        dead_delta: R::from_int(0, ctx),
                    }),
                    Some(live) => {
                        live.square(&floor);
                        live
                    }
                };
                live.gap(best, &tiny, ctx)
            }
            Noise::Exponential => {
                let w = match weights.as_mut() {
                    None => weights.insert(super::exp_weights::<R>(
                        &positive
                            .iter()
                            .map(|&j| &inst.gaps()[j] / beta)
                            .collect::<Vec<Q>>(),
                        ctx,
                    )?),
                    Some(w) => {
                        square_weights(w, &floor, &tiny);
                        w
                    }
                };
                let mut full = vec![R::from_int(1, ctx); inst.k()];
                for (&j, wj) in positive.iter().zip(w.iter()) {
                    full[j] = wj.clone();
                }
                expected(&all_deltas, &exponential::law(&full), ctx)
            }
        };
        out.push(gap);
    }
    Ok(out)
}

/// The softmax weights `w_j^n` of the positive-gap actions still above
/// `2^{−L}`; the others are counted, each enclosed by `[0, 2^{−L}]`, and
/// skipped from then on (their squares stay below `2^{−L}`).
struct Live<R> {
    deltas: Vec<R>,
    w: Vec<R>,
    dead_count: i64,
    dead_delta: R,
}

impl<R: Enclose> Live<R> {
    fn square(&mut self, floor: &R) {
        let mut i = 0;
        while i < self.w.len() {
            if self.w[i].cmp_certain(floor) == Some(Ordering::Less) {
                self.dead_count += 1;
                self.dead_delta = self.dead_delta.clone() + &self.deltas[i];
                self.w.swap_remove(i);
                self.deltas.swap_remove(i);
            } else {
                self.w[i] = self.w[i].clone() * &self.w[i];
                i += 1;
            }
        }
    }

    /// `(Σ Δ_j w_j + D·[0, 2^{−L}]) / (n₀ + Σ w_j + c·[0, 2^{−L}])`.
    fn gap(&self, best: usize, tiny: &R, ctx: &R::Context) -> R {
        let mut numerator = self.dead_delta.clone() * tiny;
        let mut denominator =
            R::from_int(best as i64, ctx) + R::from_int(self.dead_count, ctx) * tiny;
        for (d, w) in self.deltas.iter().zip(&self.w) {
            numerator = numerator.mul_add(d, w);
            denominator = denominator + w;
        }
        numerator / denominator
    }
}

/// The softmax error `R(m) = Σ_j Δ_j e^{−ηmΔ_j} / Σ_i e^{−ηmΔ_i}` of the
/// randomized-prefix softmax at the integers, with the integral enclosures
/// of its sums (module documentation).
pub(crate) struct SoftmaxError<R> {
    /// `Δ_j` of the positive-gap actions.
    deltas: Vec<R>,
    /// `w_j = e^{−ηΔ_j}` of the positive-gap actions.
    w: Vec<R>,
    /// The number of best actions n₀.
    best: usize,
    eta: R,
    floor: R,
    tiny: R,
    ctx_one: R,
}

impl<R: Enclose> SoftmaxError<R> {
    pub(crate) fn new(eta: &Q, inst: &Instance, ctx: &R::Context) -> Result<Self> {
        let l = negligible_bits(R::working_bits(ctx));
        let positive = inst.suboptimal();
        Ok(SoftmaxError {
            deltas: positive
                .iter()
                .map(|&j| R::from_rational(&inst.gaps()[j], ctx))
                .collect(),
            w: super::exp_weights::<R>(
                &positive
                    .iter()
                    .map(|&j| &inst.gaps()[j] * eta)
                    .collect::<Vec<Q>>(),
                ctx,
            )?,
            best: inst.k() - positive.len(),
            eta: R::from_rational(eta, ctx),
            floor: R::from_rational(&Q::new(BigInt::one(), BigInt::one() << l), ctx),
            tiny: negligible(l, ctx)?,
            ctx_one: R::from_int(1, ctx),
        })
    }

    fn ctx(&self) -> R::Context {
        self.ctx_one.context()
    }

    /// The base weights `w`.
    pub(crate) fn base(&self) -> &[R] {
        &self.w
    }

    /// `v ↦ v²` elementwise, with the negligible floor.
    pub(crate) fn square(&self, v: &mut [R]) {
        square_weights(v, &self.floor, &self.tiny);
    }

    /// `v ↦ v·w` elementwise (the next integer power).
    fn step(&self, v: &mut [R]) {
        for (x, w) in v.iter_mut().zip(&self.w) {
            *x = x.clone() * w;
        }
    }

    /// `R(m)` from the powers `w^m`.
    pub(crate) fn value(&self, powers: &[R]) -> R {
        softmax_gap(&self.deltas, powers, self.best, &self.ctx())
    }

    /// `ln(1 + Y/n₀)` for the powers `w^x`, `Y = Σ_j w_j^x`: with the bound
    /// `[y − y²/2, y]` for `y < 2^{−64}`.
    fn log_mass(&self, powers: &[R]) -> Result<R> {
        let ctx = self.ctx();
        let y = powers.iter().fold(R::from_int(0, &ctx), |acc, p| acc + p)
            / R::from_int(self.best as i64, &ctx);
        let small = R::from_rational(&Q::new(BigInt::one(), BigInt::one() << 64), &ctx);
        if y.cmp_certain(&small) == Some(Ordering::Less) {
            let half = R::from_rational(&Q::new(1.into(), 2.into()), &ctx);
            let lower = y.clone() - y.clone() * &y * &half;
            lower.hull_with(&y)
        } else {
            (self.ctx_one.clone() + &y).ln()
        }
    }

    /// `∫_a^b R = (ln Z(a) − ln Z(b))/η` from the powers at `a` and `b`.
    fn integral(&self, at_a: &[R], at_b: &[R]) -> Result<R> {
        Ok((self.log_mass(at_a)? - self.log_mass(at_b)?) / &self.eta)
    }

    /// `∫_a^∞ R = ln(1 + Y_a/n₀)/η`.
    fn integral_to_infinity(&self, at_a: &[R]) -> Result<R> {
        Ok(self.log_mass(at_a)? / &self.eta)
    }

    /// An enclosure of `Σ_{m=c}^{d} R(m)` given the powers `w^c` (consumed)
    /// and `w^d`: the first terms exactly (at most `budget`, stopping once
    /// `R(m) < tolerance`), the rest between the integrals.
    pub(crate) fn sum(
        &self,
        c: Round,
        d: Round,
        mut powers: Vec<R>,
        at_d: &[R],
        budget: u64,
        tolerance: &R,
    ) -> Result<R> {
        let ctx = self.ctx();
        let mut total = R::from_int(0, &ctx);
        let mut m = c;
        let mut previous: Option<Vec<R>> = None;
        let mut used = 0u64;
        while m <= d {
            if used >= budget && previous.is_some() {
                break;
            }
            let r = self.value(&powers);
            let small = r.cmp_certain(tolerance) == Some(Ordering::Less);
            total = total + r;
            used += 1;
            m += 1;
            let mut next = powers.clone();
            self.step(&mut next);
            previous = Some(std::mem::replace(&mut powers, next));
            if small && previous.is_some() {
                break;
            }
        }
        if m > d {
            return Ok(total);
        }
        // Terms m..=d remain: between ∫_m^{d+1} R and ∫_{m−1}^{d} R.
        let before = previous.expect("at least one exact term");
        let mut after_d = at_d.to_vec();
        self.step(&mut after_d);
        let lower = self.integral(&powers, &after_d)?;
        let upper = self.integral(&before, at_d)?;
        Ok(total + lower.hull_with(&upper)?)
    }

    /// An enclosure of `Σ_{m≥1} R(m)` (Cesari & Colomboni's `Σ F_m` in the
    /// deterministic setting): exact terms, then `[∫_{N+1}^∞ R, ∫_N^∞ R]`.
    pub(crate) fn sum_to_infinity(&self, budget: u64, tolerance: &R) -> Result<R> {
        let ctx = self.ctx();
        let mut total = R::from_int(0, &ctx);
        let mut powers = self.w.clone();
        let mut previous = powers.clone();
        for used in 0..budget.max(1) {
            let r = self.value(&powers);
            let small = r.cmp_certain(tolerance) == Some(Ordering::Less);
            total = total + r;
            let mut next = powers.clone();
            self.step(&mut next);
            previous = std::mem::replace(&mut powers, next);
            if small || used + 1 == budget.max(1) {
                break;
            }
        }
        let lower = self.integral_to_infinity(&powers)?;
        let upper = self.integral_to_infinity(&previous)?;
        Ok(total + lower.hull_with(&upper)?)
    }
}

/// The expected gap of each block's choice of the randomized-prefix softmax.
fn prefix_gaps<R: Enclose>(
    eta: &Q,
    inst: &Instance,
    horizon: Round,
    ctx: &R::Context,
    budget: u64,
    first_gap: &R,
) -> Result<Vec<R>> {
    let bits = R::working_bits(ctx);
    let l = negligible_bits(bits);
    let tiny: R = negligible(l, ctx)?;
    let Some(delta_min) = inst.delta_min() else {
        return Ok(dyadic_blocks(horizon)
            .map(|_| R::from_int(0, ctx))
            .collect());
    };
    let threshold = negligible_threshold(Noise::Gumbel, inst.k(), l);
    let beta = eta.recip();
    let tolerance = first_gap.clone()
        * R::from_rational(
            &Q::new(BigInt::one(), BigInt::one() << (u64::from(bits) + 8)),
            ctx,
        );
    let error = SoftmaxError::<R>::new(eta, inst, ctx)?;
    // `power` holds w^a for a = 2^{b−2} (b ≥ 2).
    let mut power: Option<Vec<R>> = None;
    let mut out = Vec::new();
    for (b, _, _) in dyadic_blocks(horizon) {
        if b == 1 {
            // M_0 = 1: the softmax on the single round of B_0.
            out.push(error.value(error.base()));
            continue;
        }
        let a: Round = 1 << (b - 2);
        let current = match power.as_mut() {
            None => power.insert(error.base().to_vec()),
            Some(p) => {
                error.square(p);
                p
            }
        };
        if at_least(a + 1, &delta_min, &beta, threshold) {
            out.push(tiny.clone());
            continue;
        }
        let mut start = current.clone();
        error.step(&mut start);
        let mut at_d = current.clone();
        error.square(&mut at_d);
        let sum = error.sum(a + 1, 2 * a, start, &at_d, budget, &tolerance)?;
        out.push(sum / count::<R>(a, ctx));
    }
    Ok(out)
}

/// `Σ_{m ≥ 1} R(m)` for the randomized-prefix softmax at `η` in the
/// deterministic setting (Cesari & Colomboni's `Σ_m F_m`, Lemma 4), enclosed.
pub fn softmax_error_sum<R: Enclose>(
    eta: &Q,
    inst: &Instance,
    ctx: &R::Context,
    options: &Options,
) -> Result<R> {
    if inst.delta_min().is_none() {
        return Ok(R::from_int(0, ctx));
    }
    let bits = R::working_bits(ctx);
    let error = SoftmaxError::<R>::new(eta, inst, ctx)?;
    let first: R = Plan::Prefix { eta: eta.clone() }.first_gap(inst, ctx);
    let tolerance = first
        * R::from_rational(
            &Q::new(BigInt::one(), BigInt::one() << (u64::from(bits) + 8)),
            ctx,
        );
    // Summing to infinity needs more exact terms than one block: a budget
    // 8 times the per-block one.
    error.sum_to_infinity(
        options.prefix_budget(inst.k()).saturating_mul(8),
        &tolerance,
    )
}

/// The exact deterministic regret of `ftl`: `Δ_1` (round 1 plays action 1;
/// every later round plays the best action).
pub fn ftl_regret(inst: &Instance) -> Q {
    inst.gaps()[0].clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::{Certified, Precision};
    use num_traits::Zero;

    #[test]
    fn ftl_pays_the_first_round_only() {
        let inst = Instance::new(vec![Q::new(1.into(), 2.into()), Q::zero()]).unwrap();
        let curve: RegretCurve<Q> = regret(&Plan::Ftl, &inst, 1 << 60, &(), None).unwrap();
        assert_eq!(curve.total(&()), Q::new(1.into(), 2.into()));
        assert_eq!(ftl_regret(&inst), Q::new(1.into(), 2.into()));
    }

    #[test]
    fn negligible_blocks_are_tiny_enclosures() {
        let inst = Instance::new(vec![Q::zero(), Q::one()]).unwrap();
        let plan = Plan::Epoch {
            first: crate::algorithm::epoch_rnm::FirstAction::Uniform,
            noise: Noise::Gumbel,
            scale: Q::from_integer(2.into()),
            resample: false,
        };
        let curve: RegretCurve<Certified> =
            regret(&plan, &inst, 1 << 100, &Precision(128), None).unwrap();
        let (lo, hi) = curve.total(&Precision(128)).enclosure().unwrap();
        assert!(hi - lo < Q::new(1.into(), BigInt::from(10).pow(30)));
    }
}
