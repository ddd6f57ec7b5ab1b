//! The papers' regret bounds, each evaluated exactly or certified and
//! labelled with its source, set beside the exact regret.
//!
//! Two kinds of rows:
//!
//! * [`Bound`] — an explicit inequality with its constants, `upper` or
//!   `lower`, on the regret or (for a lemma) on another computed quantity;
//!   [`Bound::holds`] decides it from enclosures (never hidden when false).
//!   `applies` says whether the run meets the statement's hypotheses (the
//!   paper's default noise scale, an ε-DP algorithm for a lower bound, …);
//!   a row is shown and decided either way.
//! * [`Rate`] — an `O(·)` rate with no constant (Hu et al., Wu & Wang):
//!   the rate expression's value; the caller reports `regret / rate`, the
//!   constant the instance implies.
//!
//! | id | source | for |
//! |---|---|---|
//! | `cc-thm1-eq1` | CC Theorem 1, eq. (1), L165: `1 + 800 ln K/Δmin + 16 ln K/η` | prefix-softmax |
//! | `cc-thm1-eq2` | CC Theorem 1, eq. (2), L169: `1000(ln K/Δmin + ln K/ε)` | prefix-softmax |
//! | `cc-thm1-proof` | CC proof of Theorem 1, L627/L635: `802 ln K/Δmin + 32 ln K/ε` (ε ≤ ¼), `930 ln K/Δmin` (ε > ¼) | prefix-softmax |
//! | `cc-lem4` | CC Lemma 4, L362–366: `1 + 4 Σ_{m≥1} F_m` (deterministic: `F_m` summed in closed form; Bernoulli: `Σ_{m≤M} F_m` exact-certified plus an enclosed tail, see below) | prefix-softmax |
//! | `cc-lem5` | CC Lemma 5, L395–399: `Σ_{m≥1} F_m ≤ 200 ln K/Δmin + 4 ln K/η` (same `Σ F_m`) | prefix-softmax |
//! | `hu-thm9-proof` | HU App. D.2 L794: `1 + Σ_ℓ 256(1 + ln|J_ℓ|)/min{Δ_(ℓ), ε}` | hu-rnm-ftnl |
//! | `hu-thm9-proof-2` | HU App. D.2 L798–804: `1 + 512(1 + ln(K−1))/Δmin + Σ_{ℓ: Δ_(ℓ)>ε} 256(1 + ln|J_ℓ|)/ε` | hu-rnm-ftnl |
//! | `ww-thm4` | WW Theorem 4 proof, L330–337 with Lemma 3 as printed: `3 + 4(1 + ln 2)/ln 2 · ln K/ε` | wu-wang, deterministic, B = 0, Exp/Gumbel |
//! | `ww-thm4-expr` | WW §1.3 L142 / Theorem 4 proof L330, printed ε-softmax law: `3 + Σ_{r=3}^{R} 2^{r−1} Σ_j Δ_j softmax_j(−2^{r−2}εΔ)` | same |
//! | `ww-thm4-expr-law` | the same chain with the implemented law: `3 + Σ_{r=3}^{R} 2^{r−1} E[Δ_{J_{r−1}}]` | same |
//! | `ww-thm4-chain` | WW L331: `3 + (2/ε) Σ_{r≥1} f(r)`, `a_i = εΔ_i` | same |
//! | `ww-lem3` | WW Lemma 3 as printed, L320: `Σ_{r≥1} f(r) ≤ 2(1 + ln 2)/ln 2 · ln K` | same |
//! | `ww-lem3-eq6` | WW eq. (6) with the displayed antiderivative: `Σ f(r) ≤ (1 + ln 2)/ln 2 · ln(Σ_i e^{−a_i}/n₀)` | same |
//! | `ww-thm3` | WW Theorem 3 proof, L541–549 (lower): `(1/ε) ln(e^{(T+1)ε}/(e^{(T+1)ε}+K−1) · (e^ε+K−1)/e^ε)` on the average regret over the K hard instances | every algorithm, hard instances |
//! | `hu-thm12` | HU Theorem 12, L315–317, proof App. D.3 L852–864 (lower): `0.2 · 0.49 · m*·Δ = 0.0098 ln K/ε`, `m* = ln K/(10εΔ)`, on the largest regret over the K instances of Step 1 | every algorithm, Bernoulli setting, the instances of Step 1 |
//!
//! # `Σ_m F_m` in the Bernoulli setting (`cc-lem4`, `cc-lem5`)
//!
//! `F_m = E[Σ_j Δ_j P_{m,j}]` (CC L361), `P_{m,j}` the softmax law at `η` on
//! the losses summed over `m` rounds. Prefix-softmax's block `b ≥ 2` plays
//! the average of `F_m` over `m ∈ {2^{b−2}+1..2^{b−1}}` and block 1 plays
//! `F_1` (CC Lemma 4's proof, L375–390), so the regret curve of the run
//! already holds `Σ_{m≤M} F_m = gap_1 + Σ_{b=2}^{B} 2^{b−2} gap_b`,
//! `M = 2^{B−1}`, `B = ⌊log₂ T⌋` (`M = 0` at `T = 1`): no enumeration is
//! repeated. The tail: with `b` the best action and `D_{m,j} = L_{m,j} −
//! L_{m,b}` (CC L353, whose action 1 is our best action), for every
//! `λ ∈ [0, η]`, `P_{m,j} ≤ min{1, e^{−ηD_{m,j}}} ≤ e^{−λD_{m,j}}` (the
//! denominator is at least the best action's weight, CC L418), and the
//! rounds and actions are independent, so
//!
//! ```text
//! E[e^{−λ D_{m,j}}] = ρ_j(λ)^m,   ρ_j(λ) = (1 − μ_j + μ_j e^{−λ})(1 − μ_b + μ_b e^{λ}),
//! Σ_{m>M} F_m ≤ Σ_{j≠b} Δ_j Σ_{m>M} ρ_j^m = Σ_{j≠b} Δ_j ρ_j^{M+1}/(1 − ρ_j)   (every ρ_j < 1).
//! ```
//!
//! `ρ_j(λ)` is `f(e^λ)` with `f(x) = (q_j + μ_j/x)(q_b + μ_b x)`, `q = 1 − μ`,
//! convex in `x > 0` with its minimum at `x*² = μ_j q_b/(q_j μ_b)`, where
//! `f(x*) = (√(q_j q_b) + √(μ_j μ_b))²` (the squared Bhattacharyya affinity
//! of the two Bernoulli laws, `< 1` when `μ_j ≠ μ_b`). So `λ_j = ln x*` when
//! `x* < e^η`, else `λ_j = η` (the plain Chernoff bound at the softmax's own
//! rate). When some `ρ_j < 1` cannot be certified (a gap near the working
//! precision) the two rows are reported as not evaluated, with that reason.
//! Both rows then carry enclosures: `cc-lem4`'s value is
//! `[1 + 4Σ_{m≤M} F_m, 1 + 4(Σ_{m≤M} F_m + tail)]` and `cc-lem5`'s quantity
//! `[Σ_{m≤M} F_m, Σ_{m≤M} F_m + tail]`; [`Bound::holds`] decides them only
//! when the enclosures separate.
//!
//! # `hu-thm12`
//!
//! Theorem 12 (HU L315–317): for `Δmin ∈ (0, 1/4)`, `K ≥ 4`,
//! `T ≥ max{ln K/(16Δmin²), ln K/(10εΔmin)}` and every ε-DP algorithm,
//! some instance of the packing of App. D.3 Step 1 (product Bernoulli
//! rewards, all means 1/2 but one 1/2 + Δ; in losses 1/2 and 1/2 − Δ) has
//! regret `Ω(max{ln K/Δmin, ln K/ε})`. The `ln K/Δmin` part is Mourtada &
//! Gaïffas's Proposition 4, with no constant printed here; the `ln K/ε` part
//! has the explicit constant of Step 3 (L852–864): with probability ≥ 0.2 the first
//! `m* = ln K/(10εΔ)` rounds give weight ≥ 0.49·m* to suboptimal actions, so
//! `max_j Reg_T(P_j) ≥ 0.2 · 0.49 · m* · Δ = 0.0098 ln K/ε`. The row is
//! evaluated on those instances in the Bernoulli setting only; its quantity is
//! the largest regret over the K placements of the best action (one
//! placement for algorithms symmetric in the actions — uniform first action,
//! i.i.d. noise; placements 1 and 2 when round 1 plays action 1, the noise
//! making actions 2..K alike; all K for `ftl`, which breaks ties by index).
//! Note: HU's prose after the theorem (L319) says the first term "requires
//! Δmin > 1/4"; the statement says `Δmin ∈ (0, 1/4)`, which `applies` follows.
//!
//! Rates: `hu-ftl` (ln K/Δmin), `hu-naive` (max{ln K/Δmin, K ln K/ε}),
//! `hu-thm9`, `hu-cor11`, `ww-thm1`, `ww-thm2`, `ww-cor1`, `ww-cor2`,
//! `ww-cor3`, `ww-thm4-rate`. "log" is the natural logarithm throughout.

use super::deterministic::{self, Options};
use super::{
    count, negligible, negligible_bits, Enclose, Instance, Plan, RegretCurve, Round, Setting,
};
use crate::algorithm::epoch_rnm::FirstAction;
use crate::algorithm::{AlgorithmId, Config};
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{Real, Q};
use num_bigint::BigInt;
use num_traits::{One, Zero};
use std::cmp::Ordering;

/// Upper or lower bound.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum BoundKind {
    /// `quantity ≤ value`.
    Upper,
    /// `quantity ≥ value`.
    Lower,
}

impl BoundKind {
    /// `"upper"` or `"lower"`.
    pub fn name(self) -> &'static str {
        match self {
            BoundKind::Upper => "upper",
            BoundKind::Lower => "lower",
        }
    }
}

/// One explicit bound, evaluated.
#[derive(Clone, Debug)]
pub struct Bound<R> {
    /// The identifier (`cc-thm1-eq1`, …).
    pub id: &'static str,
    /// Paper, statement and line.
    pub source: &'static str,
    /// The formula.
    pub statement: String,
    /// Upper or lower.
    pub kind: BoundKind,
    /// The bound's value.
    pub value: R,
    /// The bounded quantity when it is not `Reg_T` itself: its name and value.
    pub quantity: Option<(String, R)>,
    /// Whether the run meets the statement's hypotheses.
    pub applies: bool,
    /// What the reader should know (hypotheses not met, flags).
    pub note: Option<String>,
}

impl<R: Real> Bound<R> {
    /// Whether the bound holds for the regret `regret` (or for its own
    /// quantity): `None` when the enclosures overlap.
    pub fn holds(&self, regret: &R) -> Option<bool> {
        let lhs = self.quantity.as_ref().map_or(regret, |(_, v)| v);
        let order = lhs.cmp_certain(&self.value)?;
        Some(match self.kind {
            BoundKind::Upper => order != Ordering::Greater,
            BoundKind::Lower => order != Ordering::Less,
        })
    }
}

/// A rate without a constant.
#[derive(Clone, Debug)]
pub struct Rate<R> {
    /// The identifier.
    pub id: &'static str,
    /// Paper, statement and line.
    pub source: &'static str,
    /// The rate expression inside `O(·)`.
    pub expression: &'static str,
    /// Its value on the instance.
    pub value: R,
}

/// A bound of the papers that this run does not evaluate, and why.
#[derive(Clone, Debug)]
pub struct NotEvaluated {
    /// The identifier.
    pub id: &'static str,
    /// Paper, statement and line.
    pub source: &'static str,
    /// Why.
    pub reason: String,
}

/// Everything evaluated at one horizon.
#[derive(Clone, Debug)]
pub struct Evaluation<R> {
    /// The explicit bounds.
    pub bounds: Vec<Bound<R>>,
    /// The rates without constants.
    pub rates: Vec<Rate<R>>,
    /// The bounds left out, with the reason.
    pub not_evaluated: Vec<NotEvaluated>,
}

/// The parts of the bounds that do not depend on the horizon, computed
/// once: then [`Evaluator::at`] is cheap at every epoch boundary.
pub struct Evaluator<R: Real> {
    config: Config,
    plan: Plan,
    inst: Instance,
    setting: Setting,
    ctx: R::Context,
    ln_k: R,
    epsilon: R,
    /// `Σ_m F_m` of prefix-softmax in the deterministic setting.
    sum_f_m: Option<R>,
    /// WW Lemma 3's `Σ_{r≥1} f(r)` with `a_i = εΔ_i`.
    sum_f_r: Option<R>,
    /// The terms `2^{r−1} Σ_j Δ_j softmax_j(−2^{r−2}εΔ)`, r = 3, 4, ….
    ww_printed_terms: Vec<R>,
    /// The regret curves on the hard instances with the best action first
    /// and second.
    hard: Option<(RegretCurve<R>, RegretCurve<R>)>,
    /// HU Theorem 12's packing (Bernoulli setting, an instance of App. D.3
    /// Step 1): the regret curves at the placements of the best action
    /// that can differ (see the module doc; none when the algorithm is
    /// symmetric in the actions and the run's own curve is every one).
    packing: Vec<RegretCurve<R>>,
}

impl<R: Enclose> Evaluator<R> {
    /// Prepare the bounds of `config` on `inst` in `setting` for horizons up
    /// to `horizon`. An error (a clear line for the command line) when the
    /// instance has a tie for the best action and a bound needs `Δmin > 0`.
    pub fn new(
        config: &Config,
        inst: &Instance,
        setting: Setting,
        horizon: Round,
        ctx: &R::Context,
        limit: Option<u128>,
    ) -> Result<Evaluator<R>> {
        let plan = Plan::of(config)?;
        let ww_deterministic =
            config.id == AlgorithmId::WuWang && setting == Setting::Deterministic;
        if !ww_deterministic {
            inst.require_unique_best(&format!("the regret bounds of {}", config.id))?;
        }
        let ln_k = R::from_int(inst.k() as i64, ctx).ln()?;
        let epsilon = R::from_rational(&config.epsilon, ctx);
        let mut evaluator = Evaluator {
            config: config.clone(),
            plan: plan.clone(),
            inst: inst.clone(),
            setting,
            ctx: ctx.clone(),
            ln_k,
            epsilon,
            sum_f_m: None,
            sum_f_r: None,
            ww_printed_terms: Vec::new(),
            hard: None,
            packing: Vec::new(),
        };
        if let Plan::Prefix { eta } = &plan {
            if setting == Setting::Deterministic {
                evaluator.sum_f_m = Some(deterministic::softmax_error_sum(
                    eta,
                    inst,
                    ctx,
                    &Options::default(),
                )?);
            }
        }
        if evaluator.ww_thm4_family() {
            evaluator.sum_f_r = Some(evaluator.lemma3_sum()?);
            evaluator.ww_printed_terms = evaluator.printed_terms(horizon)?;
        }
        if inst.is_hard() {
            let k = inst.k();
            let hard = |best: usize| -> Result<RegretCurve<R>> {
                let means = (0..k)
                    .map(|j| if j == best { Q::zero() } else { Q::one() })
                    .collect();
                super::regret(
                    &plan,
                    &Instance::new(means)?,
                    Setting::Deterministic,
                    horizon,
                    ctx,
                    limit,
                )
            };
            evaluator.hard = Some((hard(0)?, hard(1)?));
        }
        if setting == Setting::Bernoulli {
            if let Some(delta) = packing_delta(inst) {
                let placements: Vec<usize> = match &plan {
                    Plan::Ftl => (0..inst.k()).collect(),
                    Plan::Epoch {
                        first: FirstAction::One,
                        ..
                    } => vec![0, 1],
                    _ => Vec::new(),
                };
                for best in placements {
                    evaluator.packing.push(super::regret(
                        &plan,
                        &packing_instance(inst.k(), best, &delta)?,
                        Setting::Bernoulli,
                        horizon,
                        ctx,
                        limit,
                    )?);
                }
            }
        }
        Ok(evaluator)
    }

    /// Whether WW Theorem 4's rows belong to this run's algorithm (they are
    /// shown in the deterministic setting for B = 0 and any noise, and
    /// `applies` says whether the noise is Exp or Gumbel at the default scale).
    fn ww_thm4_family(&self) -> bool {
        self.config.id == AlgorithmId::WuWang
            && self.setting == Setting::Deterministic
            && !self.config.resample
    }

    fn q(&self, q: Q) -> R {
        R::from_rational(&q, &self.ctx)
    }

    fn int(&self, n: i64) -> R {
        R::from_int(n, &self.ctx)
    }

    /// `ln K / Δmin` (Δmin > 0 checked by the caller).
    fn ln_k_over_delta(&self) -> Option<R> {
        self.inst.delta_min().map(|d| self.ln_k.clone() / self.q(d))
    }

    /// `Σ_{r ≥ 1} f(r)`, `f(x) = Σ_i 2^x a_i e^{−2^x a_i} / Σ_i e^{−2^x a_i}`,
    /// `a_i = εΔ_i` (WW Lemma 3): the terms until `2^{R+1} a_min ≥
    /// 2(bits(K) + L + 1)`, whose tail is `≤ 2K·X e^{−X} ≤ 2^{−L}`
    /// (ratio of successive terms `2e^{−x} ≤ ½` for `x ≥ 2`).
    fn lemma3_sum(&self) -> Result<R> {
        let ctx = &self.ctx;
        let Some(delta_min) = self.inst.delta_min() else {
            return Ok(self.int(0));
        };
        let l = negligible_bits(R::working_bits(ctx));
        let eps = &self.config.epsilon;
        let positive = self.inst.suboptimal();
        let best = self.inst.k() - positive.len();
        let a: Vec<R> = positive
            .iter()
            .map(|&j| self.q(eps * &self.inst.gaps()[j]))
            .collect();
        // v_i = e^{−2 a_i} (r = 1), then squared.
        let mut v: Vec<R> = super::exp_weights(
            &positive
                .iter()
                .map(|&j| eps * &self.inst.gaps()[j] * Q::from_integer(2.into()))
                .collect::<Vec<Q>>(),
            ctx,
        )?;
        let bits_k = u64::from(usize::BITS - self.inst.k().leading_zeros());
        let stop = Q::from_integer((2 * (bits_k + l + 1)).into());
        let a_min = eps * delta_min;
        let floor = self.q(Q::new(BigInt::one(), BigInt::one() << l));
        let tiny: R = negligible(l, ctx)?;
        let mut total = self.int(0);
        let mut power = Q::from_integer(2.into());
        for _ in 0..256 {
            let mut numerator = self.int(0);
            let mut denominator = self.int(best as i64);
            for (ai, vi) in a.iter().zip(&v) {
                numerator = numerator.mul_add(ai, vi);
                denominator = denominator + vi;
            }
            total = total + self.q(power.clone()) * numerator / denominator;
            if &power * Q::from_integer(2.into()) * &a_min >= stop {
                return Ok(total + tiny);
            }
            power *= Q::from_integer(2.into());
            for vi in v.iter_mut() {
                if vi.cmp_certain(&floor) == Some(Ordering::Less) {
                    *vi = tiny.clone();
                } else {
                    *vi = vi.clone() * &*vi;
                }
            }
        }
        Ok(total + tiny)
    }

    /// WW's printed Theorem 4 expression, term by term:
    /// `2^{r−1} Σ_j Δ_j e^{−2^{r−2}Δ_jε} / Σ_i e^{−2^{r−2}Δ_iε}` for
    /// `r = 3..=R(horizon)`.
    fn printed_terms(&self, horizon: Round) -> Result<Vec<R>> {
        let ctx = &self.ctx;
        let epochs = 128 - horizon.leading_zeros();
        let mut out = Vec::new();
        if epochs < 3 {
            return Ok(out);
        }
        let positive = self.inst.suboptimal();
        let best = self.inst.k() - positive.len();
        let deltas: Vec<R> = positive
            .iter()
            .map(|&j| self.q(self.inst.gaps()[j].clone()))
            .collect();
        let l = negligible_bits(R::working_bits(ctx));
        let floor = self.q(Q::new(BigInt::one(), BigInt::one() << l));
        let tiny: R = negligible(l, ctx)?;
        // r = 3: weights e^{−2Δε}.
        let mut w: Vec<R> = super::exp_weights(
            &positive
                .iter()
                .map(|&j| &self.inst.gaps()[j] * &self.config.epsilon * Q::from_integer(2.into()))
                .collect::<Vec<Q>>(),
            ctx,
        )?;
        for r in 3..=epochs {
            if r > 3 {
                for wi in w.iter_mut() {
                    if wi.cmp_certain(&floor) == Some(Ordering::Less) {
                        *wi = tiny.clone();
                    } else {
                        *wi = wi.clone() * &*wi;
                    }
                }
            }
            let mut numerator = self.int(0);
            let mut denominator = self.int(best as i64);
            for (d, wi) in deltas.iter().zip(&w) {
                numerator = numerator.mul_add(d, wi);
                denominator = denominator + wi;
            }
            out.push(count::<R>(1 << (r - 1), ctx) * numerator / denominator);
        }
        Ok(out)
    }

    /// The bounds and rates at horizon `t ≤` the horizon given to
    /// [`Evaluator::new`]; `curve` is the run's regret curve (its block gaps
    /// feed `ww-thm4-expr-law`).
    pub fn at(&self, t: Round, curve: &RegretCurve<R>) -> Result<Evaluation<R>> {
        let mut bounds = Vec::new();
        let mut rates = Vec::new();
        let mut not_evaluated = Vec::new();
        let ctx = &self.ctx;
        let ln_k = self.ln_k.clone();
        let eps = self.epsilon.clone();
        let default_scale = self.config.noise_scale.is_none();
        let t_r = count::<R>(t, ctx);
        let ln_t = t_r.ln()?;
        let sqrt_t_ln_k = ((t_r.clone() * &ln_k).ln()? / self.int(2)).exp()?;
        let tie_reason = || "the instance has a tie for the best action (Δmin = 0)".to_string();
        match self.config.id {
            AlgorithmId::Ftl => match self.ln_k_over_delta() {
                Some(v) => rates.push(Rate {
                    id: "hu-ftl",
                    source: "Hu, Huang, Mehta & Hegde (journal version) §1 L118, citing Van Erven et al. (2014)",
                    expression: "ln K/Δmin",
                    value: v,
                }),
                None => not_evaluated.push(NotEvaluated {
                    id: "hu-ftl",
                    source: "Hu, Huang, Mehta & Hegde (journal version) §1 L118",
                    reason: tie_reason(),
                }),
            },
            AlgorithmId::NaiveFtnl => {
                if let Some(v) = self.ln_k_over_delta() {
                    let other = self.int(self.inst.k() as i64) * &ln_k / &eps;
                    let value = match v.cmp_certain(&other) {
                        Some(Ordering::Less) => other,
                        Some(_) => v,
                        None => v.hull_with(&other)?,
                    };
                    rates.push(Rate {
                        id: "hu-naive",
                        source: "Hu, Huang, Mehta & Hegde (journal version) §5 L256 (\"is expected\"; no theorem)",
                        expression: "max{ln K/Δmin, K ln K/ε}",
                        value,
                    });
                }
            }
            AlgorithmId::HuRnmFtnl => {
                let (form1, form2) = self.hu_thm9(t)?;
                let note = (!default_scale)
                    .then(|| "the noise scale is not Algorithm 4's 1/ε".to_string());
                bounds.push(Bound {
                    id: "hu-thm9-proof",
                    source: "Hu, Huang, Mehta & Hegde (journal version) Theorem 9, proof App. D.2 L794 (+1 for the gaps ≤ 1/T discarded at L749)",
                    statement: "1 + Σ_ℓ 256(1 + ln|J_ℓ|)/min{Δ_(ℓ), ε}".into(),
                    kind: BoundKind::Upper,
                    value: form1,
                    quantity: None,
                    applies: default_scale,
                    note: note.clone(),
                });
                bounds.push(Bound {
                    id: "hu-thm9-proof-2",
                    source: "Hu, Huang, Mehta & Hegde (journal version) Theorem 9, proof App. D.2 L798–804 (+1 as above)",
                    statement: "1 + 512(1 + ln(K−1))/Δmin + Σ_{ℓ: Δ_(ℓ) > ε} 256(1 + ln|J_ℓ|)/ε"
                        .into(),
                    kind: BoundKind::Upper,
                    value: form2,
                    quantity: None,
                    applies: default_scale,
                    note,
                });
                if let Some(v) = self.ln_k_over_delta() {
                    let floor = [
                        self.q(self.inst.delta_min().unwrap_or_default()),
                        eps.clone(),
                        self.int(1) / &t_r,
                    ];
                    let ratio = self.q(self.inst.delta_max()) / max_of(&floor)?;
                    let log = ratio.ln()?;
                    let log = match log.cmp_certain(&self.int(0)) {
                        Some(Ordering::Less) => self.int(0),
                        _ => log,
                    };
                    rates.push(Rate {
                        id: "hu-thm9",
                        source: "Hu, Huang, Mehta & Hegde (journal version) Theorem 9, L283–287",
                        expression: "ln K/Δmin + ln K·max{0, ln(Δmax/max{Δmin, ε, 1/T})}/ε",
                        value: v + ln_k.clone() * log / &eps,
                    });
                }
                rates.push(Rate {
                    id: "hu-cor11",
                    source: "Hu, Huang, Mehta & Hegde (journal version) Corollary 11, L301",
                    expression: "√(T ln K) + ln K ln T/ε",
                    value: sqrt_t_ln_k.clone() + ln_k.clone() * &ln_t / &eps,
                });
            }
            AlgorithmId::WuWang => {
                self.wu_wang(
                    t,
                    curve,
                    &mut bounds,
                    &mut rates,
                    &mut not_evaluated,
                    &ln_t,
                    &sqrt_t_ln_k,
                )?;
            }
            AlgorithmId::PrefixSoftmax => {
                self.cesari_colomboni(curve, &mut bounds, &mut not_evaluated)?
            }
            // `regret::Plan::of` refuses them: no curve reaches here.
            AlgorithmId::Hedge | AlgorithmId::DecreasingHedge => {}
        }
        self.lower_bound(t, &mut bounds, &mut not_evaluated)?;
        self.hu_thm12(t, curve, &mut bounds, &mut not_evaluated)?;
        Ok(Evaluation {
            bounds,
            rates,
            not_evaluated,
        })
    }

    /// Hu et al.'s Theorem 9 bounds with the constants of their proof, at `t`.
    fn hu_thm9(&self, t: Round) -> Result<(R, R)> {
        let cutoff = Q::new(BigInt::one(), BigInt::from(t));
        let kept: Vec<&Q> = self.inst.gaps().iter().filter(|g| **g > cutoff).collect();
        let one = self.int(1);
        let Some(dmin) = kept.iter().min().map(|d| (*d).clone()) else {
            return Ok((one.clone(), one));
        };
        // Brackets J_ℓ = {j : 2^{ℓ−1}Δ ≤ Δ_j < 2^ℓ Δ}, ℓ ≥ 1.
        let mut sizes: Vec<(u32, i64)> = Vec::new();
        for g in kept {
            let mut l = 1u32;
            let mut upper = &dmin * Q::from_integer(2.into());
            while *g >= upper {
                upper *= Q::from_integer(2.into());
                l += 1;
            }
            match sizes.iter_mut().find(|(ll, _)| *ll == l) {
                Some((_, n)) => *n += 1,
                None => sizes.push((l, 1)),
            }
        }
        let c256 = self.int(256);
        let eps_q = &self.config.epsilon;
        let mut form1 = one.clone();
        let mut form2 = one.clone()
            + self.int(512) * (one.clone() + self.int(self.inst.k() as i64 - 1).ln()?)
                / self.q(dmin.clone());
        for (l, n) in sizes {
            let d_l = &dmin * Q::from_integer(BigInt::one() << (l - 1));
            let term = c256.clone() * (one.clone() + self.int(n).ln()?);
            form1 = form1 + term.clone() / self.q(d_l.clone().min(eps_q.clone()));
            if d_l > *eps_q {
                form2 = form2 + term / self.q(eps_q.clone());
            }
        }
        Ok((form1, form2))
    }

    #[allow(clippy::too_many_arguments)]
    fn wu_wang(
        &self,
        t: Round,
        curve: &RegretCurve<R>,
        bounds: &mut Vec<Bound<R>>,
        rates: &mut Vec<Rate<R>>,
        not_evaluated: &mut Vec<NotEvaluated>,
        ln_t: &R,
        sqrt_t_ln_k: &R,
    ) -> Result<()> {
        let Plan::Epoch {
            noise, resample, ..
        } = &self.plan
        else {
            return Ok(());
        };
        let ln_k = &self.ln_k;
        let eps = &self.epsilon;
        let ln2_k_over_eps = ln_k.clone() * ln_k / eps;
        match self.ln_k_over_delta() {
            Some(v) => {
                if *resample {
                    let (id, source) = if *noise == Noise::Laplace {
                        (
                            "ww-thm2",
                            "Wu & Wang (ALT 2026) Theorem 2, L160–162 (B = 1, Lap(2/ε))",
                        )
                    } else {
                        ("ww-cor1", "Wu & Wang (ALT 2026) Corollary 1, L170–172 (B = 1, Exp(1/ε) or Gumbel(2/ε))")
                    };
                    rates.push(Rate {
                        id,
                        source,
                        expression: "ln K/Δmin + ln²K/ε",
                        value: v + ln2_k_over_eps.clone(),
                    });
                } else if *noise == Noise::Laplace {
                    rates.push(Rate {
                        id: "ww-thm1",
                        source: "Wu & Wang (ALT 2026) Theorem 1, L126–128 (B = 0, Lap(2/ε); Hu et al.'s rate)",
                        expression: "ln K/Δmin + ln K ln T/ε",
                        value: v + ln_k.clone() * ln_t / eps,
                    });
                }
            }
            None => not_evaluated.push(NotEvaluated {
                id: if *resample { "ww-thm2" } else { "ww-thm1" },
                source: "Wu & Wang (ALT 2026) Theorems 1–2, Corollary 1",
                reason: "the instance has a tie for the best action (Δmin = 0)".into(),
            }),
        }
        if *resample {
            rates.push(Rate {
                id: "ww-cor2",
                source: "Wu & Wang (ALT 2026) Corollary 2, L178–180 (B = 1)",
                expression: "√(T ln K) + ln²K/ε",
                value: sqrt_t_ln_k.clone() + ln2_k_over_eps.clone(),
            });
        }
        if self.setting == Setting::Deterministic {
            rates.push(Rate {
                id: "ww-cor3",
                source: "Wu & Wang (ALT 2026) Corollary 3, L265–267 (deterministic setting)",
                expression: "ln²K/ε",
                value: ln2_k_over_eps,
            });
        }
        if !self.ww_thm4_family() {
            return Ok(());
        }
        let applies = matches!(noise, Noise::Gumbel | Noise::Exponential)
            && self.config.noise_scale.is_none();
        let note = (!applies).then(|| {
            "Theorem 4 is stated for B = 0 with Exp(1/ε) or Gumbel(2/ε) at the default scale"
                .to_string()
        });
        rates.push(Rate {
            id: "ww-thm4-rate",
            source: "Wu & Wang (ALT 2026) Theorem 4, L273–279 (deterministic, B = 0, Exp/Gumbel)",
            expression: "ln K/ε",
            value: ln_k.clone() / eps,
        });
        let ln2 = self.int(2).ln()?;
        let one = self.int(1);
        let three = self.int(3);
        let printed_lemma3 = self.int(2) * (one.clone() + &ln2) / &ln2 * ln_k;
        bounds.push(Bound {
            id: "ww-thm4",
            source:
                "Wu & Wang (ALT 2026) Theorem 4, proof L330–337 with Lemma 3's printed constant",
            statement: "3 + 4(1 + ln 2)/ln 2 · ln K/ε".into(),
            kind: BoundKind::Upper,
            value: three.clone() + self.int(2) * printed_lemma3.clone() / eps,
            quantity: None,
            applies,
            note: note.clone(),
        });
        let epochs = 128 - t.leading_zeros();
        let printed = self
            .ww_printed_terms
            .iter()
            .take(epochs.saturating_sub(2) as usize)
            .fold(three.clone(), |acc, x| acc + x);
        bounds.push(Bound {
            id: "ww-thm4-expr",
            source: "Wu & Wang (ALT 2026) §1.3 L142 and Theorem 4 proof L330, with the printed law P[J_r = j] ∝ e^{−2^{r−1}Δ_j ε}",
            statement: "3 + Σ_{r=3}^{R} 2^{r−1} Σ_j Δ_j e^{−2^{r−2}Δ_j ε}/Σ_i e^{−2^{r−2}Δ_i ε}, R = ⌊log₂T⌋ + 1".into(),
            kind: BoundKind::Upper,
            value: printed,
            quantity: None,
            applies,
            note: Some(match &note {
                Some(n) => format!("{n}; the printed law has ε where Gumbel(2/ε) gives ε/2 (spec FLAG 3)"),
                None => "the printed law has ε where Gumbel(2/ε) gives ε/2 (spec FLAG 3)".into(),
            }),
        });
        // The same chain with the implemented law: epoch r = block r − 1,
        // full length 2^{r−1}, for r ≥ 3 (blocks b ≥ 2).
        let with_law = curve
            .terms
            .iter()
            .filter(|term| term.first >= 4 && term.first <= t)
            .fold(three.clone(), |acc, term| {
                acc + count::<R>(term.first, &self.ctx) * &term.gap
            });
        bounds.push(Bound {
            id: "ww-thm4-expr-law",
            source:
                "Wu & Wang (ALT 2026) Theorem 4 proof L330, first inequality, with the implemented law",
            statement: "3 + Σ_{r=3}^{R} 2^{r−1} Σ_j Δ_j P[J_{r−1} = j]".into(),
            kind: BoundKind::Upper,
            value: with_law,
            quantity: None,
            applies,
            note: note.clone(),
        });
        if let Some(sum_f) = &self.sum_f_r {
            bounds.push(Bound {
                id: "ww-thm4-chain",
                source: "Wu & Wang (ALT 2026) Theorem 4 proof L331, a_i = εΔ_i",
                statement: "3 + (2/ε) Σ_{r≥1} f(r)".into(),
                kind: BoundKind::Upper,
                value: three + self.int(2) * sum_f / eps,
                quantity: None,
                applies,
                note,
            });
            let quantity = Some(("Σ_{r≥1} f(r), a_i = εΔ_i".to_string(), sum_f.clone()));
            bounds.push(Bound {
                id: "ww-lem3",
                source:
                    "Wu & Wang (ALT 2026) Lemma 3 with the constant of its proof as printed (L320)",
                statement: "Σ_{r≥1} f(r) ≤ 2(1 + ln 2)/ln 2 · ln K".into(),
                kind: BoundKind::Upper,
                value: printed_lemma3,
                quantity: quantity.clone(),
                applies: true,
                note: None,
            });
            let exponents: Vec<Q> = self
                .inst
                .gaps()
                .iter()
                .map(|g| &self.config.epsilon * g)
                .collect();
            let mass = super::exp_weights::<R>(&exponents, &self.ctx)?
                .into_iter()
                .fold(self.int(0), |acc, w| acc + w);
            let best = self.inst.best().len() as i64;
            bounds.push(Bound {
                id: "ww-lem3-eq6",
                source: "Wu & Wang (ALT 2026) Lemma 3 proof, eq. (6) with the displayed antiderivative (L316–320)",
                statement: "Σ_{r≥1} f(r) ≤ (1 + ln 2)/ln 2 · ln(Σ_i e^{−a_i}/n₀)".into(),
                kind: BoundKind::Upper,
                value: (one.clone() + &ln2) / &ln2 * (mass / self.int(best)).ln()?,
                quantity,
                applies: true,
                note: None,
            });
        }
        Ok(())
    }

    fn cesari_colomboni(
        &self,
        curve: &RegretCurve<R>,
        bounds: &mut Vec<Bound<R>>,
        not_evaluated: &mut Vec<NotEvaluated>,
    ) -> Result<()> {
        let Plan::Prefix { eta } = &self.plan else {
            return Ok(());
        };
        let eps_q = &self.config.epsilon;
        let eta_default = (eps_q / Q::from_integer(2.into())).min(Q::new(1.into(), 8.into()));
        let applies = *eta == eta_default;
        let note = (!applies).then(|| "η is not the theorem's min{ε/2, 1/8}".to_string());
        let ln_k = &self.ln_k;
        let eps = &self.epsilon;
        let Some(by_gap) = self.ln_k_over_delta() else {
            return Ok(());
        };
        let theorem_eta = self.q(eta_default);
        let one = self.int(1);
        bounds.push(Bound {
            id: "cc-thm1-eq1",
            source: "Cesari & Colomboni (2026) Theorem 1, eq. (1), L165",
            statement: "1 + 800 ln K/Δmin + 16 ln K/η, η = min{ε/2, 1/8}".into(),
            kind: BoundKind::Upper,
            value: one.clone() + self.int(800) * &by_gap + self.int(16) * ln_k / &theorem_eta,
            quantity: None,
            applies,
            note: note.clone(),
        });
        bounds.push(Bound {
            id: "cc-thm1-eq2",
            source: "Cesari & Colomboni (2026) Theorem 1, eq. (2), L169",
            statement: "1000(ln K/Δmin + ln K/ε)".into(),
            kind: BoundKind::Upper,
            value: self.int(1000) * (by_gap.clone() + ln_k.clone() / eps),
            quantity: None,
            applies,
            note: note.clone(),
        });
        let quarter = Q::new(1.into(), 4.into());
        let (statement, value) = if *eps_q <= quarter {
            (
                "802 ln K/Δmin + 32 ln K/ε (ε ≤ 1/4)",
                self.int(802) * &by_gap + self.int(32) * ln_k / eps,
            )
        } else {
            ("930 ln K/Δmin (ε > 1/4)", self.int(930) * &by_gap)
        };
        bounds.push(Bound {
            id: "cc-thm1-proof",
            source: "Cesari & Colomboni (2026) proof of Theorem 1, L627/L635",
            statement: statement.into(),
            kind: BoundKind::Upper,
            value,
            quantity: None,
            applies,
            note,
        });
        let lem4_source = "Cesari & Colomboni (2026) Lemma 4, L362–366";
        let lem5_source = "Cesari & Colomboni (2026) Lemma 5, L395–399";
        // Σ_{m≥1} F_m: (lower end, upper end, how it was obtained).
        let (sum_lo, sum_hi, how) = match (&self.sum_f_m, self.setting) {
            (Some(sum), _) => (
                sum.clone(),
                sum.clone(),
                "F_m exact: deterministic losses".to_string(),
            ),
            (None, Setting::Bernoulli) => {
                let (head, m) = prefix_sum_from_curve(curve, &self.ctx)?;
                match self.prefix_tail(eta, m)? {
                    Ok(tail) => {
                        let how = format!(
                            "Bernoulli: Σ_{{m≤{m}}} F_m from the regret's block averages, the tail Σ_{{m>{m}}} F_m ∈ [0, {}] by the Chernoff bound of the module doc",
                            crate::num::format_sig_directed(
                                &tail.enclosure().map_or_else(Q::zero, |(_, hi)| hi),
                                6,
                                crate::num::Dir::Up
                            )
                        );
                        (head.clone(), head + &tail, how)
                    }
                    Err(reason) => {
                        for (id, source) in [("cc-lem4", lem4_source), ("cc-lem5", lem5_source)] {
                            not_evaluated.push(NotEvaluated {
                                id,
                                source,
                                reason: reason.clone(),
                            });
                        }
                        return Ok(());
                    }
                }
            }
            (None, Setting::Deterministic) => return Ok(()),
        };
        let four = self.int(4);
        let lem4 = one.clone() + four.clone() * &sum_lo;
        let lem4 = lem4.hull_with(&(one + four * &sum_hi))?;
        bounds.push(Bound {
            id: "cc-lem4",
            source: lem4_source,
            statement: "1 + 4 Σ_{m≥1} F_m".into(),
            kind: BoundKind::Upper,
            value: lem4,
            quantity: None,
            applies: true,
            note: Some(how.clone()),
        });
        let eta_r = self.q(eta.clone());
        bounds.push(Bound {
            id: "cc-lem5",
            source: lem5_source,
            statement: "Σ_{m≥1} F_m ≤ 200 ln K/Δmin + 4 ln K/η (η ≤ 1/8)".into(),
            kind: BoundKind::Upper,
            value: self.int(200) * &by_gap + self.int(4) * ln_k / &eta_r,
            quantity: Some(("Σ_{m≥1} F_m".into(), sum_lo.hull_with(&sum_hi)?)),
            applies: *eta <= Q::new(1.into(), 8.into()),
            note: Some(how),
        });
        Ok(())
    }

    /// An upper bound on `Σ_{m>M} F_m` of prefix-softmax at `η` in the
    /// Bernoulli setting: `Σ_{j≠b} Δ_j ρ_j^{M+1}/(1 − ρ_j)` with `ρ_j` at the
    /// best `λ_j ∈ (0, η]` (the derivation is in the module doc). `Err` with
    /// the reason when some `ρ_j < 1` cannot be certified.
    fn prefix_tail(&self, eta: &Q, m: Round) -> Result<std::result::Result<R, String>> {
        let ctx = &self.ctx;
        let power = u64::try_from(m + 1)
            .map_err(|_| Error::TooLarge(format!("a prefix length M = {m} above 2^64 − 1")))?;
        let one = self.int(1);
        let means = self.inst.means();
        let best = self.inst.best()[0];
        let (mu_b, q_b) = (&means[best], Q::one() - &means[best]);
        let e_eta = self.q(eta.clone()).exp()?;
        let e_two_eta = e_eta.clone() * &e_eta;
        let half = Q::new(1.into(), 2.into());
        let mut tail = self.int(0);
        for j in (0..self.inst.k()).filter(|&j| j != best) {
            let (mu_j, q_j) = (&means[j], Q::one() - &means[j]);
            // The minimiser x*² = μ_j q_b/(q_j μ_b) of f, when it is < e^{2η}.
            let interior = (!mu_b.is_zero() && !q_j.is_zero())
                .then(|| mu_j * &q_b / (&q_j * mu_b))
                .filter(|r| self.q(r.clone()).cmp_certain(&e_two_eta) == Some(Ordering::Less));
            let rho = match interior {
                Some(_) => {
                    let a = R::pow_rational(&(&q_j * &q_b), &half, ctx)?;
                    let c = R::pow_rational(&(mu_j * mu_b), &half, ctx)?;
                    let s = a + c;
                    s.clone() * &s
                }
                None => {
                    (self.q(q_j.clone()) + self.q(mu_j.clone()) / &e_eta)
                        * (self.q(q_b.clone()) + self.q(mu_b.clone()) * &e_eta)
                }
            };
            if rho.cmp_certain(&one) != Some(Ordering::Less) {
                return Ok(Err(format!(
                    "the tail Σ_{{m>{m}}} F_m is bounded by Σ_j Δ_j ρ_j^{{M+1}}/(1 − ρ_j) only when every ρ_j < 1, and ρ_{} < 1 is not certified at this precision (μ_{} = {mu_j} against the best μ = {mu_b})",
                    j + 1,
                    j + 1
                )));
            }
            tail = tail
                + self.q(self.inst.gaps()[j].clone()) * rho.pow_u64(power) / (one.clone() - &rho);
        }
        Ok(Ok(tail))
    }

    /// Whether the run's algorithm at its scale is ε-DP (the hypothesis of
    /// the lower bounds): not `ftl`, not Hu et al.'s Lap(1/ε) per epoch, not
    /// Wu & Wang's Exp(1/ε) (spec §7 flags 1–2), and at the proven scale.
    fn is_private(&self) -> bool {
        match &self.plan {
            Plan::Ftl => false,
            Plan::Epoch { noise, .. } => match self.config.id {
                AlgorithmId::HuRnmFtnl => false,
                AlgorithmId::NaiveFtnl => self.config.noise_scale.is_none(),
                _ => *noise != Noise::Exponential && self.config.noise_scale.is_none(),
            },
            Plan::Prefix { .. } => self.config.noise_scale.is_none(),
        }
    }

    /// Hu et al.'s Theorem 12 lower bound with the constant of its proof
    /// (module doc), on the instances of App. D.3 Step 1 in the Bernoulli
    /// setting.
    fn hu_thm12(
        &self,
        t: Round,
        curve: &RegretCurve<R>,
        bounds: &mut Vec<Bound<R>>,
        not_evaluated: &mut Vec<NotEvaluated>,
    ) -> Result<()> {
        let source = "Hu, Huang, Mehta & Hegde (journal version) Theorem 12, L315–317, proof App. D.3 L852–864";
        let delta = match (self.setting, packing_delta(&self.inst)) {
            (Setting::Bernoulli, Some(delta)) => delta,
            _ => {
                not_evaluated.push(NotEvaluated {
                    id: "hu-thm12",
                    source,
                    reason: "a lower bound on the instances of App. D.3 Step 1 only: Bernoulli setting, loss means 1/2 but one 1/2 − Δ (rewards 1/2 and 1/2 + Δ)".into(),
                });
                return Ok(());
            }
        };
        let ctx = &self.ctx;
        let k = self.inst.k();
        let ln_k = &self.ln_k;
        let eps = &self.epsilon;
        let d = self.q(delta.clone());
        let t_r = count::<R>(t, ctx);
        let mut unmet = Vec::new();
        if delta >= Q::new(1.into(), 4.into()) {
            unmet.push("Δmin < 1/4".to_string());
        }
        if k < 4 {
            unmet.push("K ≥ 4".to_string());
        }
        for (name, need) in [
            (
                "T ≥ ln K/(16Δmin²)",
                ln_k.clone() / (self.int(16) * &d * &d),
            ),
            (
                "T ≥ ln K/(10εΔmin)",
                ln_k.clone() / (self.int(10) * eps * &d),
            ),
        ] {
            match t_r.cmp_certain(&need) {
                Some(Ordering::Less) => unmet.push(name.to_string()),
                Some(_) => {}
                None => unmet.push(format!("{name} (undecided)")),
            }
        }
        if !self.is_private() {
            unmet.push("an ε-DP algorithm at its proven scale".to_string());
        }
        let regrets: Vec<R> = if self.packing.is_empty() {
            vec![curve.at(t, ctx)]
        } else {
            self.packing.iter().map(|c| c.at(t, ctx)).collect()
        };
        let quantity = max_of(&regrets)?;
        bounds.push(Bound {
            id: "hu-thm12",
            source,
            statement: "0.2 · 0.49 · m* · Δmin = 0.0098 ln K/ε ≤ max_j Reg_T(P_j), m* = ln K/(10εΔmin) (the ln K/Δmin term has no printed constant)".into(),
            kind: BoundKind::Lower,
            value: self.q(Q::new(49.into(), 5000.into())) * ln_k / eps,
            quantity: Some((
                "largest regret over the K instances of App. D.3 Step 1".into(),
                quantity,
            )),
            applies: unmet.is_empty(),
            note: (!unmet.is_empty()).then(|| format!("hypotheses not met: {}", unmet.join(", "))),
        });
        Ok(())
    }

    /// Wu & Wang's Theorem 3 lower bound, on hard instances only.
    fn lower_bound(
        &self,
        t: Round,
        bounds: &mut Vec<Bound<R>>,
        not_evaluated: &mut Vec<NotEvaluated>,
    ) -> Result<()> {
        let Some((first, other)) = &self.hard else {
            not_evaluated.push(NotEvaluated {
                id: "ww-thm3",
                source: "Wu & Wang (ALT 2026) Theorem 3, L253–259",
                reason: "a lower bound on the hard instances (one mean 0, all others 1) only"
                    .into(),
            });
            return Ok(());
        };
        let ctx = &self.ctx;
        let k = self.inst.k() as i64;
        let average = (first.at(t, ctx) + self.int(k - 1) * other.at(t, ctx)) / self.int(k);
        // (1/ε) ln( 1/(1 + (K−1)e^{−(t+1)ε}) · (e^ε + K − 1)/e^ε ).
        let eps = &self.epsilon;
        let x = Q::from_integer(BigInt::from(t) + 1) * &self.config.epsilon;
        let l = negligible_bits(R::working_bits(ctx));
        let first_factor = if x > Q::from_integer((l + 64).into()) {
            // (K−1)e^{−x} < 2^{−L}: ln(1/(1+y)) ∈ [−y, 0].
            -negligible::<R>(l, ctx)?
        } else {
            let y = self.int(k - 1) * (-self.q(x)).exp()?;
            -(self.int(1) + y).ln()?
        };
        let e_eps = eps.exp()?;
        let second = ((e_eps.clone() + self.int(k - 1)) / e_eps).ln()?;
        let value = (first_factor + second) / eps;
        let private = self.is_private();
        bounds.push(Bound {
            id: "ww-thm3",
            source: "Wu & Wang (ALT 2026) Theorem 3, proof App. E L541–549 (finite-T form)",
            statement: "(1/ε) ln(e^{(T+1)ε}/(e^{(T+1)ε}+K−1) · (e^ε+K−1)/e^ε) ≤ average regret over the K hard instances".into(),
            kind: BoundKind::Lower,
            value,
            quantity: Some(("average regret over the K hard instances".into(), average)),
            applies: private,
            note: (!private).then(|| "the theorem is for ε-DP algorithms; this one, at this scale, is not (ftl; Hu et al.'s Lap(1/ε) and Wu & Wang's Exp(1/ε), spec §7 flags 1–2) or is not at its proven scale".to_string()),
        });
        Ok(())
    }
}

/// The largest of certified values (their hull when undecided).
fn max_of<R: Enclose>(values: &[R]) -> Result<R> {
    let mut best = values[0].clone();
    for v in &values[1..] {
        best = match v.cmp_certain(&best) {
            Some(Ordering::Greater) => v.clone(),
            Some(_) => best,
            None => best.hull_with(v)?,
        };
    }
    Ok(best)
}

/// `(Σ_{m≤M} F_m, M)` from prefix-softmax's Bernoulli regret curve: block 1
/// plays `F_1` and block `b ≥ 2` the average of `F_m` over
/// `m ∈ {2^{b−2}+1..2^{b−1}}` (CC Lemma 4's proof, L375–390; `M_r` uniform
/// on that set, CC §4), so `Σ_{m≤2^{B−1}} F_m = gap_1 + Σ_{b=2}^{B}
/// 2^{b−2} gap_b` over the blocks `b ≤ B` that the curve reaches.
fn prefix_sum_from_curve<R: Real>(curve: &RegretCurve<R>, ctx: &R::Context) -> Result<(R, Round)> {
    let mut sum = R::from_int(0, ctx);
    let mut m: Round = 0;
    for (b, first, _) in super::dyadic_blocks(curve.horizon()) {
        let term = curve
            .terms
            .iter()
            .find(|term| term.first <= first && first <= term.last)
            .ok_or_else(|| {
                Error::InvalidInput(format!("the regret curve does not cover round {first}"))
            })?;
        let lengths: Round = if b == 1 { 1 } else { 1 << (b - 2) };
        sum = sum + count::<R>(lengths, ctx) * &term.gap;
        m = 1 << (b - 1);
    }
    Ok((sum, m))
}

/// Δ when `inst` is an instance of Hu et al.'s App. D.3 Step 1 (L818–830)
/// in losses: every mean 1/2 but one, `1/2 − Δ` with `Δ > 0`.
fn packing_delta(inst: &Instance) -> Option<Q> {
    let half = Q::new(1.into(), 2.into());
    let best = inst.best();
    let [b] = best[..] else {
        return None;
    };
    inst.means()
        .iter()
        .enumerate()
        .all(|(j, m)| j == b || *m == half)
        .then(|| &half - &inst.means()[b])
}

/// The instance of App. D.3 Step 1 with `k` actions, the best (loss mean
/// `1/2 − Δ`) at index `best`.
fn packing_instance(k: usize, best: usize, delta: &Q) -> Result<Instance> {
    let half = Q::new(1.into(), 2.into());
    Instance::new(
        (0..k)
            .map(|j| {
                if j == best {
                    &half - delta
                } else {
                    half.clone()
                }
            })
            .collect(),
    )
}
