//! The adversarial searches of the instance claims: for each
//! claim of [`super`] that holds on its grid, the parameters of its stated
//! domain and its evaluation at one point, as certified comparisons
//! ([`Probe`]s) for [`crate::verify::search`].
//!
//! The domains are those the papers state, as far as the engines reach in
//! the CI budget: ε continuous on [1/100, 4] (log scale), gaps and means
//! continuous, epochs up to 2^11 rounds (the Bernoulli engine is exact over
//! the binomial sums, so n in the thousands costs only time), horizons up to
//! 2^40 in the deterministic setting (closed forms per epoch), K up to 10.
//! Each adversary's note says what of the paper's domain is left fixed.

use super::{
    bound_rows_at, boundaries, exp_neg_at, frac, hu_lap2_config, hu_rnm_ftnl, int, means_text,
    prefix_softmax, probability_at, ww_scale, Case, Configure, Rows, CC_HORIZON, CC_IDS, HU_IDS,
    WW4_IDS,
};
use crate::algorithm::{AlgorithmId, Config};
use crate::error::Result;
use crate::mechanism::{law, Noise, Scale};
use crate::num::{Certified, Precision, Real, Q};
use crate::regret::{self, Instance, Round, Setting};
use crate::verify::search::{Adversary, Param, Probe, Probes};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The rows `id` of `rows` as probes.
fn probes_of(rows: Result<Shared>, id: &str) -> Result<Vec<Probe>> {
    Ok(rows?
        .iter()
        .filter(|(i, _)| *i == id)
        .map(|(_, c)| c.probe())
        .collect())
}

/// Two actions `μ = (m, m + Δ)` with `m = s(1 − Δ)`: every pair of sorted
/// means with gap Δ as s runs over [0, 1].
fn pair(s: &Q, delta: &Q) -> Result<Instance> {
    let m = s * (int(1) - delta);
    Instance::new(vec![m.clone(), m + delta])
}

/// `2^e` as an integer.
fn two_to(e: &Q) -> u64 {
    1u64 << two_to_exponent(e)
}

/// The parameters of the two-action law claims: ε, the epoch r (n =
/// 2^{r−1} rounds, r ≤ 10: n ≤ 512, a few seconds per certified law), the
/// gap Δ and the position s.
fn law_params() -> Vec<Param> {
    vec![
        Param::real("ε", "1/100", "4"),
        Param::int("r", 1, 10),
        Param::real("Δ", "1/100", "1"),
        Param::real("s", "0", "1"),
    ]
}

const LAW_NOTE: &str = "K = 2, μ = (s(1 − Δ), s(1 − Δ) + Δ), n = 2^{r−1} ≤ 512 (the exact binomial enumeration, a few seconds per law there); the paper's domain is every K, every sorted μ and every r, of which the grid covers K ≤ 4 at n ≤ 8";

/// `P[J_r = 1], P[J_r = 2]` of Wu & Wang's choice with B = 1 and their
/// default scale of `noise`, on the pair of the point.
fn pair_law(noise: Noise, point: &[Q], ctx: Precision) -> Result<(Instance, u64, [Certified; 2])> {
    let (epsilon, n) = (&point[0], two_to(&(&point[1] - int(1))));
    let inst = pair(&point[3], &point[2])?;
    let scale = ww_scale(noise, epsilon);
    let p1 = probability_at(noise, &scale, &inst, 0, n, ctx)?;
    let p2 = probability_at(noise, &scale, &inst, 1, n, ctx)?;
    Ok((inst, n, [p1, p2]))
}

fn what(noise: Noise, point: &[Q], inst: &Instance, n: u64) -> String {
    format!("{noise}, ε = {}, {}, n = {n}", point[0], means_text(inst))
}

/// Wu & Wang Lemma 1 on a pair: `P[J_r = 2] ≤ P[J_r = 1]` and `P[J_r = 2] ≤ 1/2`.
fn lem1(noise: Noise, point: &[Q], ctx: Precision) -> Result<Vec<Probe>> {
    let (inst, n, [p1, p2]) = pair_law(noise, point, ctx)?;
    let w = what(noise, point, &inst, n);
    Ok(vec![
        Probe::upper(format!("{w}: P[J_r = 2] ≤ P[J_r = 1]"), p2.clone(), p1),
        Probe::upper(
            format!("{w}: P[J_r = 2] ≤ 1/2"),
            p2,
            Certified::from_rational(&frac(1, 2), &ctx),
        ),
    ])
}

/// Wu & Wang App. D L483 on a pair: `P[J_r = 2] ≤ 2 exp(−2^r Δ min{Δ, ε}/8)`, Exp(1/ε).
fn eq_d1(point: &[Q], ctx: Precision) -> Result<Vec<Probe>> {
    let (inst, n, [_, p2]) = pair_law(Noise::Exponential, point, ctx)?;
    let (epsilon, delta) = (&point[0], &point[2]);
    let x = int(2 * n as i64) * delta * delta.clone().min(epsilon.clone()) / int(8);
    Ok(vec![Probe::upper(
        what(Noise::Exponential, point, &inst, n),
        p2,
        Certified::from_int(2, &ctx) * exp_neg_at(&x, ctx)?,
    )])
}

/// Wu & Wang App. D L507 on a pair: `P[J_r = 2] ≤ e^{−nΔε/k} + e^{−nΔ²/4}`,
/// Gumbel(2/ε): `k = 2` as printed, `k = 4` with the law's `ε/2`.
fn eq_d3(point: &[Q], ctx: Precision, k: i64) -> Result<Vec<Probe>> {
    let (inst, n, [_, p2]) = pair_law(Noise::Gumbel, point, ctx)?;
    let (epsilon, delta) = (&point[0], &point[2]);
    let n = int(n as i64);
    let a = &n * delta * epsilon / int(k);
    let b = &n * delta * delta / int(4);
    Ok(vec![Probe::upper(
        what(Noise::Gumbel, point, &inst, two_to(&(&point[1] - int(1)))),
        p2,
        exp_neg_at(&a, ctx)? + exp_neg_at(&b, ctx)?,
    )])
}

/// Wu & Wang App. D L491–494 with ε/2 (`ww-eqD2-half`) on three actions
/// `μ = (m, m + Δ, m + 2Δ)`: `P[J_r = j] ≤` the two-action law of j
/// against action 1 (K = 2 is an identity).
fn eq_d2_half(point: &[Q], ctx: Precision) -> Result<Vec<Probe>> {
    let (epsilon, n) = (&point[0], two_to(&(&point[1] - int(1))));
    let delta = &point[2];
    let m = &point[3] * (int(1) - delta * int(2));
    let means = vec![m.clone(), &m + delta, m + delta * int(2)];
    let inst = Instance::new(means.clone())?;
    let scale = ww_scale(Noise::Gumbel, epsilon);
    let mut out = Vec::new();
    for j in 1..3 {
        let p = probability_at(Noise::Gumbel, &scale, &inst, j, n, ctx)?;
        let two = Instance::new(vec![means[0].clone(), means[j].clone()])?;
        let rhs = probability_at(Noise::Gumbel, &scale, &two, 1, n, ctx)?;
        out.push(Probe::upper(
            format!("{}, j = {}", what(Noise::Gumbel, point, &inst, n), j + 1),
            p,
            rhs,
        ));
    }
    Ok(out)
}

/// Hu et al. Lemma 24 on a pair (Δ_(1) = Δmin = Δ): the two-action
/// Lap(1/ε) law of action 2 on 2^r rounds is at most 2 exp(−2^r Δ min{Δ, ε}/8).
fn hu_lem24(point: &[Q], ctx: Precision) -> Result<Vec<Probe>> {
    let (epsilon, n) = (&point[0], two_to(&point[1]));
    let delta = &point[2];
    let inst = pair(&point[3], delta)?;
    let p = probability_at(Noise::Laplace, &epsilon.recip(), &inst, 1, n, ctx)?;
    let x = int(n as i64) * delta * delta.clone().min(epsilon.clone()) / int(8);
    Ok(vec![Probe::upper(
        format!("ε = {epsilon}, {}, r = {}", means_text(&inst), point[1]),
        p,
        Certified::from_int(2, &ctx) * exp_neg_at(&x, ctx)?,
    )])
}

/// Wu & Wang Lemma 4: `F(k; n, p) ≥ F(k; n, p + δ)` for `k = ⌊κ n⌋ < n`.
fn lem4(point: &[Q], ctx: Precision) -> Result<Vec<Probe>> {
    let n = point[0].to_integer().try_into().unwrap_or(1u64);
    let p1 = point[1].clone();
    let p2 = (&p1 + &point[2]).min(int(1));
    let k = ((&point[3] * int(n as i64)).floor().to_integer())
        .try_into()
        .unwrap_or(0usize)
        .min(n as usize - 1);
    let cdf = |p: &Q| -> Q { regret::binomial(n, p).into_iter().take(k + 1).sum() };
    Ok(vec![Probe::lower(
        format!("n = {n}, k = {k}, p₁ = {p1}, p₂ = {p2}"),
        Certified::from_rational(&cdf(&p1), &ctx),
        Certified::from_rational(&cdf(&p2), &ctx),
    )])
}

/// K actions `(0, Δmin, Δmin + t(1 − Δmin)(j − 2)/(K − 2) for j ≥ 3)`: the
/// best action, one at the smallest gap, the others spread up to
/// `Δmin + t(1 − Δmin)` (all at Δmin when t = 0).
fn family(k: &Q, delta_min: &Q, t: &Q) -> Result<Instance> {
    let k: usize = k.to_integer().try_into().unwrap_or(2);
    let means = (0..k)
        .map(|j| match j {
            0 => int(0),
            1 => delta_min.clone(),
            _ => delta_min + t * (int(1) - delta_min) * frac(j as i64 - 1, (k as i64 - 2).max(1)),
        })
        .collect();
    Instance::new(means)
}

/// The parameters of the deterministic regret claims: ε, K, Δmin and the
/// spread t of [`family`].
fn regret_params() -> Vec<Param> {
    vec![
        Param::real("ε", "1/100", "4"),
        Param::int("K", 2, 10),
        Param::real("Δmin", "1/1000", "1"),
        Param::real("t", "0", "1"),
    ]
}

const REGRET_NOTE: &str = "deterministic setting, μ = (0, Δmin, Δmin + t(1 − Δmin)(j − 2)/(K − 2) for j ≥ 3); the paper's domain is every instance and (for the bounds that hold for every T) every horizon, of which these are the worst case of the deterministic losses";

/// The rows of one evaluation, shared by the claims that read it.
type Shared = Arc<Vec<(&'static str, Case)>>;

/// `compute()` for `(family, point, ctx)`, computed once per run: the
/// claims of one family (the five rows of Cesari & Colomboni's bounds, say)
/// start their searches from the same points and read the same regret.
fn cached(
    family: &'static str,
    point: &[Q],
    ctx: Precision,
    compute: impl FnOnce() -> Rows,
) -> Result<Shared> {
    type Key = (&'static str, Vec<Q>, u32);
    static CACHE: OnceLock<Mutex<HashMap<Key, Shared>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Mutex::default);
    let key = (family, point.to_vec(), ctx.0);
    if let Some(rows) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return Ok(rows);
    }
    let rows = Arc::new(compute()?);
    if let Ok(mut c) = cache.lock() {
        c.insert(key, rows.clone());
    }
    Ok(rows)
}

/// The deterministic rows `ids` of `configure(K, ε)` at the instance of
/// the point.
fn regret_rows(
    configure: Configure,
    point: &[Q],
    horizon: Round,
    times: &[Round],
    ids: &[&'static str],
    ctx: Precision,
) -> Rows {
    let inst = family(&point[1], &point[2], &point[3])?;
    let config = configure(inst.k(), point[0].clone())?;
    bound_rows_at(
        &config,
        &inst,
        Setting::Deterministic,
        horizon,
        times,
        ids,
        ctx,
    )
}

/// The regret adversary of `id`: the rows `row` of the configurations
/// `configure` (a family named `family`, whose claims share their starting
/// points and their evaluations) on the deterministic family of
/// instances, at the `times` of a run to `horizon`.
fn regret_adversary(
    id: &'static str,
    family: &'static str,
    configure: Configure,
    (horizon, times): (Round, Vec<Round>),
    row: &'static str,
    ids: &'static [&'static str],
) -> Adversary {
    Adversary {
        id,
        seed: family,
        params: regret_params(),
        note: REGRET_NOTE,
        starts: 4,
        budget: 12,
        probes: Arc::new(move |point, ctx| {
            probes_of(
                cached(family, point, ctx, || {
                    regret_rows(configure, point, horizon, &times, ids, ctx)
                }),
                row,
            )
        }),
    }
}

/// A two-action law adversary.
fn law_adversary(id: &'static str, budget: usize, probes: Probes) -> Adversary {
    Adversary {
        id,
        seed: id,
        params: law_params(),
        note: LAW_NOTE,
        starts: 6,
        budget,
        probes,
    }
}

/// Every adversary of the instance claims.
pub(in crate::proofs) fn adversaries() -> Vec<Adversary> {
    let mut out = Vec::new();
    for (id, noise) in [
        ("ww-lem1-laplace", Noise::Laplace),
        ("ww-lem1-exponential", Noise::Exponential),
        ("ww-lem1-gumbel", Noise::Gumbel),
    ] {
        out.push(law_adversary(
            id,
            40,
            Arc::new(move |p, ctx| lem1(noise, p, ctx)),
        ));
    }
    out.push(law_adversary("ww-eqD1", 60, Arc::new(eq_d1)));
    out.push(law_adversary(
        "ww-eqD3",
        240,
        Arc::new(|p, ctx| eq_d3(p, ctx, 2)),
    ));
    out.push(law_adversary(
        "ww-eqD3-half",
        40,
        Arc::new(|p, ctx| eq_d3(p, ctx, 4)),
    ));
    let mut d2 = law_adversary("ww-eqD2-half", 24, Arc::new(eq_d2_half));
    d2.params[1] = Param::int("r", 1, 7);
    d2.params[2] = Param::real("Δ", "1/100", "1/2");
    d2.note = "K = 3, μ = (m, m + Δ, m + 2Δ), m = s(1 − 2Δ), n = 2^{r−1} ≤ 64 (the three-action enumeration is cubic in n); the paper's domain is every K ≥ 3 (K = 2 is an identity), every sorted μ and every r";
    out.push(d2);
    let mut lem24 = law_adversary("hu-lem24", 80, Arc::new(hu_lem24));
    lem24.params[1] = Param::int("r", 0, 9);
    lem24.note = "K = 2 (one bracket, Δ_(1) = Δmin = Δ), μ = (s(1 − Δ), s(1 − Δ) + Δ), 2^r ≤ 512 rounds; the paper's domain is every K, every instance and every r ≥ 0";
    out.push(lem24);
    out.push(Adversary {
        id: "ww-lem4",
        seed: "ww-lem4",
        params: vec![
            Param::int("n", 1, 256),
            Param::real("p₁", "0", "1"),
            Param::real("δ", "1/1000", "1"),
            Param::real("κ", "0", "1"),
        ],
        note: "p₂ = min{p₁ + δ, 1}, k = min{⌊κn⌋, n − 1} (k = n is the equality F = 1 = F); exact rationals",
        starts: 8,
        budget: 40,
        probes: Arc::new(lem4),
    });
    for (id, row) in [
        ("cc-lem4", "cc-lem4"),
        ("cc-lem5", "cc-lem5"),
        ("cc-thm1-eq1", "cc-thm1-eq1"),
        ("cc-thm1-eq2", "cc-thm1-eq2"),
        ("cc-thm1-proof", "cc-thm1-proof"),
    ] {
        out.push(regret_adversary(
            id,
            CC_IDS[0],
            prefix_softmax,
            (CC_HORIZON, vec![CC_HORIZON]),
            row,
            &CC_IDS,
        ));
    }
    for (id, family, configure, row) in [
        (
            "hu-thm9-proof",
            HU_IDS[0],
            hu_rnm_ftnl as Configure,
            "hu-thm9-proof",
        ),
        ("hu-thm9-proof-2", HU_IDS[0], hu_rnm_ftnl, "hu-thm9-proof-2"),
        (
            "hu-thm9-lap2",
            "hu-thm9-lap2",
            hu_lap2_config,
            "hu-thm9-proof",
        ),
    ] {
        out.push(regret_adversary(
            id,
            family,
            configure,
            (1 << 40, boundaries(1 << 40)),
            row,
            &HU_IDS,
        ));
    }
    for (id, row, half) in [
        ("ww-thm4-const", "ww-thm4", false),
        ("ww-thm4-expr-law", "ww-thm4-expr-law", false),
        ("ww-thm4-chain-half", "ww-thm4-chain", true),
        ("ww-lem3", "ww-lem3", false),
        ("ww-eq6", "ww-lem3-eq6", false),
    ] {
        out.push(Adversary {
            id,
            seed: "ww-thm4",
            params: regret_params(),
            note: WW4_NOTE,
            starts: 4,
            budget: 12,
            probes: Arc::new(move |point, ctx| {
                let family = if half { "ww-thm4-half" } else { "ww-thm4" };
                probes_of(cached(family, point, ctx, || ww4(point, ctx, half)), row)
            }),
        });
    }
    out.push(Adversary {
        id: "ww-thm4-reduction",
        seed: "ww-thm4-reduction",
        params: vec![
            Param::real("ε", "1/100", "4"),
            Param::int("K", 2, 10),
            Param::real("Δmin", "1/1000", "1"),
            Param::real("t", "0", "1"),
            Param::int("b", 0, 20),
        ],
        note: "the epoch sums n·μ, n = 2^b, μ = (0, Δmin, Δmin + t(1 − Δmin)(j − 2)/(K − 2) for j ≥ 3); the paper's domain is every loss vector",
        starts: 6,
        budget: 120,
        probes: Arc::new(reduction),
    });
    out.push(Adversary {
        id: "ww-thm3",
        seed: "ww-thm3",
        params: vec![
            Param::real("ε", "1/100", "4"),
            Param::int("K", 2, 10),
            Param::int("b", 1, 40),
        ],
        note: "the hard instance (0, 1, …, 1) (the average over the K hard instances is, by symmetry, the regret on one), deterministic setting, T = 2^b − 1, against wu-wang with Gumbel(2/ε) and Lap(2/ε) (algorithms the grid's privacy checker finds ε-DP at every ε it tries; prefix-softmax, also private, is left to the grid: its regret at large T and small ε costs seconds per point; the theorem covers every ε-DP algorithm)",
        starts: 6,
        budget: 30,
        probes: Arc::new(ww3),
    });
    out
}

/// Theorem 3's lower bound at the point, for the private algorithms of
/// the note.
fn ww3(point: &[Q], ctx: Precision) -> Result<Vec<Probe>> {
    let k: usize = point[1].to_integer().try_into().unwrap_or(2);
    let horizon: Round = (1u128 << two_to_exponent(&point[2])) - 1;
    let inst = Instance::new((0..k).map(|j| int(i64::from(j > 0))).collect())?;
    let mut configs = Vec::new();
    for noise in [Noise::Gumbel, Noise::Laplace] {
        let mut config = Config::new(AlgorithmId::WuWang, k, point[0].clone());
        config.noise = Some(noise);
        configs.push(config);
    }
    let mut out = Vec::new();
    for config in &configs {
        out.extend(probes_of(
            bound_rows_at(
                config,
                &inst,
                Setting::Deterministic,
                horizon,
                &[horizon],
                &["ww-thm3"],
                ctx,
            )
            .map(Arc::new),
            "ww-thm3",
        )?);
    }
    Ok(out)
}

/// An integer parameter as a shift (`b` of `2^b`).
fn two_to_exponent(b: &Q) -> u32 {
    b.to_integer().try_into().unwrap_or(0)
}

const WW4_NOTE: &str = "wu-wang with B = 0, both noises of Theorem 4 (Gumbel(2/ε), Exp(1/ε)) at each point, deterministic setting, μ = (0, Δmin, Δmin + t(1 − Δmin)(j − 2)/(K − 2) for j ≥ 3), T = 2^b − 1 and 2^b for b ≤ 40 (Lemma 3's rows at T = 2^40: they do not depend on T); the paper's domain is every instance and every T";

/// The Theorem 4 rows of wu-wang with both noises at the point (with
/// `half`, the chain's row at ε/2 for the algorithm at ε, as
/// [`super::ww4_grid`]); Lemma 3's rows at T = 2^40 only (they do not
/// depend on T).
fn ww4(point: &[Q], ctx: Precision, half: bool) -> Rows {
    let inst = family(&point[1], &point[2], &point[3])?;
    let epsilon = &point[0];
    let times: Vec<Round> = (1..=40u32)
        .flat_map(|b| [(1u128 << b) - 1, 1u128 << b])
        .collect();
    let ids: &[&'static str] = if half { &["ww-thm4-chain"] } else { &WW4_IDS };
    let mut out = Vec::new();
    for noise in [Noise::Gumbel, Noise::Exponential] {
        let mut config = Config::new(AlgorithmId::WuWang, inst.k(), epsilon.clone());
        config.noise = Some(noise);
        if half {
            config.noise_scale = Some(ww_scale(noise, epsilon));
            config.epsilon = epsilon / int(2);
        }
        let rows = bound_rows_at(
            &config,
            &inst,
            Setting::Deterministic,
            1 << 40,
            &times,
            ids,
            ctx,
        )?;
        out.extend(
            rows.into_iter()
                .filter(|(id, c)| !id.starts_with("ww-lem3") || c.what.ends_with("T = 2^40")),
        );
    }
    Ok(out)
}

/// Wu & Wang's reduction (L339–343) at the point: the expected gap of
/// report-noisy-max with Exp(1/ε) at most that with Gumbel(2/ε) on `n·μ`.
fn reduction(point: &[Q], ctx: Precision) -> Result<Vec<Probe>> {
    let inst = family(&point[1], &point[2], &point[3])?;
    let n = int(1i64 << two_to_exponent(&point[4]));
    let losses: Vec<Q> = inst.means().iter().map(|m| &n * m).collect();
    let deltas = inst.gaps_in::<Certified>(&ctx);
    let gap = |noise: Noise| -> Result<Certified> {
        let p = law::<Certified>(
            noise,
            &losses,
            &Scale::beta(ww_scale(noise, &point[0]))?,
            &ctx,
        )?;
        Ok(p.iter()
            .zip(&deltas)
            .fold(Certified::from_int(0, &ctx), |acc, (p, d)| {
                acc + p.clone() * d
            }))
    };
    Ok(vec![Probe::upper(
        format!("ε = {}, {}, n = {n}", point[0], means_text(&inst)),
        gap(Noise::Exponential)?,
        gap(Noise::Gumbel)?,
    )])
}
