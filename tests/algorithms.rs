//! The online algorithms (`dpdtol::algorithm`): exact laws of whole action
//! sequences against an independent oracle written from the specification
//! (`/tmp/specs/algorithms.md`, derived from the papers), hand-derived closed
//! forms, an independent brute force of Wu & Wang's Bernoulli resampling,
//! sampler-vs-law chi-square tests, and configuration validation.
//!
//! Conventions: rounds are 1-based in comments and 0-based in vectors;
//! actions are 1-based in comments ("action 1") and 0-based in code.

mod common;

use dpdtol::algorithm::{
    dyadic_schedule, epoch_rnm, Algorithm, AlgorithmId, Choice, Config, OnlineAlgorithm,
    SequenceLaw,
};
use dpdtol::mechanism::{self, Noise, Scale};
use dpdtol::num::{format_sig, Certified, Exact, Precision, Real, Q};
use dpdtol::Error;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The working precision of the certified laws compared in property tests.
const PREC: Precision = Precision(128);
/// The precision of the 30-digit hand checks.
const PREC_HIGH: Precision = Precision(256);

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

/// `10^{−digits}`.
fn tenth_power(digits: u32) -> Q {
    Q::one() / Q::from_integer(num_bigint::BigInt::from(10).pow(digits))
}

fn bounds(x: &Certified) -> (Q, Q) {
    x.enclosure().expect("a certified value has an enclosure")
}

fn show(x: &Certified) -> String {
    let (lo, hi) = bounds(x);
    format!("[{}, {}]", format_sig(&lo, 35), format_sig(&hi, 35))
}

fn width(x: &Certified) -> Q {
    let (lo, hi) = bounds(x);
    hi - lo
}

fn overlap(a: &Certified, b: &Certified) -> bool {
    let ((alo, ahi), (blo, bhi)) = (bounds(a), bounds(b));
    alo <= bhi && blo <= ahi
}

fn contains(x: &Certified, value: &Q) -> bool {
    let (lo, hi) = bounds(x);
    lo <= *value && *value <= hi
}

/// `x` and the rational enclosure `[lo, hi]` intersect and both are narrower
/// than `10^{−digits}`: the two values agree to `digits` decimals.
fn agrees_with(x: &Certified, lo: &Q, hi: &Q, digits: u32) -> bool {
    let (xlo, xhi) = bounds(x);
    let tol = tenth_power(digits);
    xlo <= *hi && *lo <= xhi && &xhi - &xlo < tol && hi - lo < tol
}

// ---------------------------------------------------------------------------
// Configurations
// ---------------------------------------------------------------------------

/// Every algorithm variant: ftl, naive-ftnl, hu-rnm-ftnl, wu-wang with each
/// noise and B ∈ {0, 1}, prefix-softmax — with the papers' default scales.
fn variants(k: usize, eps: &Q) -> Vec<Config> {
    let mut out = vec![
        Config::new(AlgorithmId::Ftl, k, eps.clone()),
        Config::new(AlgorithmId::NaiveFtnl, k, eps.clone()),
        Config::new(AlgorithmId::HuRnmFtnl, k, eps.clone()),
    ];
    for noise in Noise::ALL {
        for resample in [false, true] {
            out.push(wu_wang(k, eps, noise, resample));
        }
    }
    out.push(Config::new(AlgorithmId::PrefixSoftmax, k, eps.clone()));
    out
}

/// [`variants`] plus overridden scales (`noise_scale` = β, or the
/// temperature 1/η for prefix-softmax), which law and sampler must honour.
fn variants_with_overrides(k: usize, eps: &Q) -> Vec<Config> {
    let mut out = variants(k, eps);
    let mut overridden = vec![
        Config::new(AlgorithmId::NaiveFtnl, k, eps.clone()),
        Config::new(AlgorithmId::HuRnmFtnl, k, eps.clone()),
        wu_wang(k, eps, Noise::Exponential, false),
        wu_wang(k, eps, Noise::Gumbel, true),
        Config::new(AlgorithmId::PrefixSoftmax, k, eps.clone()),
    ];
    for c in &mut overridden {
        c.noise_scale = Some(q(3, 2));
    }
    out.extend(overridden);
    out
}

fn wu_wang(k: usize, eps: &Q, noise: Noise, resample: bool) -> Config {
    let mut c = Config::new(AlgorithmId::WuWang, k, eps.clone());
    c.noise = Some(noise);
    c.resample = resample;
    c
}

fn label(c: &Config) -> String {
    let mut s = format!("{} (K = {}, ε = {}", c.id, c.actions, c.epsilon);
    if let Some(n) = c.noise {
        s += &format!(", noise {n}");
    }
    if c.id == AlgorithmId::WuWang {
        s += &format!(", B = {}", u8::from(c.resample));
    }
    if let Some(b) = &c.noise_scale {
        s += &format!(", scale {b}");
    }
    s + ")"
}

fn build(c: &Config) -> Algorithm {
    c.build()
        .unwrap_or_else(|e| panic!("{}: build failed: {e}", label(c)))
}

// ---------------------------------------------------------------------------
// The independent oracle, written from the specification
// ---------------------------------------------------------------------------

/// Every action sequence in `[K]^t`, in lexicographic order (round 1 most
/// significant), so that sequence `a` has index `Σ_i a_i K^{t−1−i}`.
fn all_sequences(k: usize, t: usize) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for _ in 0..t {
        out = out
            .into_iter()
            .flat_map(|s: Vec<usize>| {
                (0..k).map(move |a| {
                    let mut s = s.clone();
                    s.push(a);
                    s
                })
            })
            .collect();
    }
    out
}

fn sequence_index(actions: &[usize], k: usize) -> usize {
    actions.iter().fold(0, |acc, &a| acc * k + a)
}

/// Per-action sums of some loss vectors (written here, not `window_sums`).
fn sums(rows: &[Vec<Q>], k: usize) -> Vec<Q> {
    (0..k)
        .map(|j| rows.iter().map(|r| r[j].clone()).sum())
        .collect()
}

/// The spec's default scale β of each algorithm's selection (§2–§5 of the
/// spec): naive-ftnl Lap(K/ε); hu-rnm-ftnl Lap(1/ε); wu-wang Lap(2/ε),
/// Exp(1/ε), Gumbel(2/ε); prefix-softmax temperature 1/η with
/// η = min{ε/2, 1/8}. An override replaces it.
fn spec_scale(c: &Config) -> Q {
    if let Some(s) = &c.noise_scale {
        return s.clone();
    }
    let eps = &c.epsilon;
    let k = Q::from_integer(c.actions.into());
    match c.id {
        AlgorithmId::NaiveFtnl => k / eps,
        AlgorithmId::HuRnmFtnl => eps.recip(),
        AlgorithmId::WuWang => match c.noise.unwrap_or(Noise::Laplace) {
            Noise::Laplace | Noise::Gumbel => q(2, 1) / eps,
            Noise::Exponential => eps.recip(),
        },
        AlgorithmId::PrefixSoftmax => (eps / q(2, 1)).min(q(1, 8)).recip(),
        AlgorithmId::Ftl => unreachable!("ftl has no scale"),
        AlgorithmId::Hedge | AlgorithmId::DecreasingHedge => {
            unreachable!("hedge's laws are checked in tests/hedge.rs")
        }
    }
}

fn spec_noise(c: &Config) -> Noise {
    match c.id {
        AlgorithmId::WuWang => c.noise.unwrap_or(Noise::Laplace),
        AlgorithmId::PrefixSoftmax => Noise::Gumbel,
        _ => Noise::Laplace,
    }
}

/// The softmax `P(j) ∝ e^{−L_j/T}` in certified arithmetic, straight from
/// its definition (independent of `mechanism::softmax`).
fn softmax(losses: &[Q], temperature: &Q, bits: Precision) -> Vec<Certified> {
    let min = losses.iter().min().unwrap().clone();
    let w: Vec<Certified> = losses
        .iter()
        .map(|l| {
            Certified::from_rational(&(-(l - &min) / temperature), &bits)
                .exp()
                .unwrap()
        })
        .collect();
    let total = w.iter().cloned().reduce(|a, b| a + b).unwrap();
    w.into_iter().map(|x| x / &total).collect()
}

/// Report-noisy-max on loss sums: Gumbel by the softmax above; Laplace and
/// exponential noise by the mechanism module (whose laws `tests/mechanism.rs`
/// and `tests/laplace.rs` check against closed forms and brute force).
fn rnm_law(noise: Noise, losses: &[Q], beta: &Q, bits: Precision) -> Vec<Certified> {
    match noise {
        Noise::Gumbel => softmax(losses, beta, bits),
        _ => mechanism::law::<Certified>(noise, losses, &Scale::beta(beta.clone()).unwrap(), &bits)
            .unwrap(),
    }
}

/// Every resampled 0/1 window `x` (each entry Bernoulli(ℓ) independently)
/// with its exact probability `∏ ℓ^x (1−ℓ)^{1−x}`. Of the `2^{K·n}` 0/1
/// windows, those of probability zero (an entry ≠ its loss where the loss is
/// 0 or 1) are left out: `2^f` outcomes remain, `f` the number of
/// fractional losses.
fn resamplings(window: &[Vec<Q>]) -> Vec<(Q, Vec<Vec<Q>>)> {
    let k = window.first().map_or(0, Vec::len);
    let mut partial: Vec<(Q, Vec<Q>)> = vec![(Q::one(), Vec::new())];
    for l in window.iter().flatten() {
        let mut next = Vec::with_capacity(2 * partial.len());
        for (w, flat) in partial {
            for (value, p) in [(Q::zero(), Q::one() - l), (Q::one(), l.clone())] {
                if !p.is_zero() {
                    let mut f = flat.clone();
                    f.push(value);
                    next.push((&w * &p, f));
                }
            }
        }
        partial = next;
    }
    partial
        .into_iter()
        .map(|(w, flat)| (w, flat.chunks(k).map(<[Q]>::to_vec).collect()))
        .collect()
}

/// `Σ_i w_i · law_i`, skipping zero weights.
fn mixture(
    parts: impl IntoIterator<Item = (Q, Vec<Certified>)>,
    k: usize,
    bits: Precision,
) -> Vec<Certified> {
    let mut total = vec![Certified::from_int(0, &bits); k];
    for (w, law) in parts {
        if w.is_zero() {
            continue;
        }
        let w = Certified::from_rational(&w, &bits);
        for (t, p) in total.iter_mut().zip(law) {
            *t = t.clone() + w.clone() * p;
        }
    }
    total
}

/// The law of the action played on block `B_b = {2^b, …, 2^{b+1} − 1}`,
/// `b ≥ 1`, per the spec: it reads the previous block `B_{b−1}` = rounds
/// `2^{b−1} .. 2^b − 1` only.
/// * report-noisy-max algorithms: RNM on that block's loss sums (B = 1: the
///   average over every resampled 0/1 window);
/// * prefix-softmax: `A_b` averages over `M_{b−1}` (M_0 = 1; M_r uniform on
///   `{2^{r−1}+1, …, 2^r}`) the softmax of the first `M_{b−1}` rounds of
///   `B_{b−1}`.
fn spec_block_law(c: &Config, losses: &[Vec<Q>], b: usize, bits: Precision) -> Vec<Certified> {
    let k = c.actions;
    let window = &losses[(1 << (b - 1)) - 1..(1 << b) - 1];
    let beta = spec_scale(c);
    let noise = spec_noise(c);
    if c.id == AlgorithmId::PrefixSoftmax {
        let prefixes: Vec<usize> = if b == 1 {
            vec![1]
        } else {
            ((1 << (b - 2)) + 1..=1 << (b - 1)).collect()
        };
        let share = q(1, prefixes.len() as i64);
        let parts = prefixes
            .into_iter()
            .map(|m| (share.clone(), softmax(&sums(&window[..m], k), &beta, bits)));
        return mixture(parts, k, bits);
    }
    if c.resample {
        let parts = resamplings(window)
            .into_iter()
            .map(|(w, x)| (w, rnm_law(noise, &sums(&x, k), &beta, bits)));
        return mixture(parts, k, bits);
    }
    rnm_law(noise, &sums(window, k), &beta, bits)
}

/// The law of the whole sequence `I_1..I_t` per the spec, over
/// [`all_sequences`]:
/// * ftl: a point mass on `I_t = min argmin_j Σ_{s<t} ℓ_j^{(s)}`;
/// * the others: `P(I_1) · ∏_{b ≥ 1, 2^b ≤ t} 1[σ constant on B_b ∩ [1,t]] ·
///   P_b(σ_{2^b})` with `P(I_1)` = δ_{action 1} (hu-rnm-ftnl, naive-ftnl) or
///   uniform (wu-wang, prefix-softmax).
fn spec_law(c: &Config, losses: &[Vec<Q>], bits: Precision) -> Vec<Certified> {
    let (k, t) = (c.actions, losses.len());
    let zero = Certified::from_int(0, &bits);
    let one = Certified::from_int(1, &bits);
    if c.id == AlgorithmId::Ftl {
        let mut leader_path = Vec::new();
        let mut cumulative = vec![Q::zero(); k];
        for round in losses {
            let min = cumulative.iter().min().unwrap();
            leader_path.push(cumulative.iter().position(|x| x == min).unwrap());
            for (c, l) in cumulative.iter_mut().zip(round) {
                *c += l;
            }
        }
        return all_sequences(k, t)
            .iter()
            .map(|s| {
                if *s == leader_path {
                    one.clone()
                } else {
                    zero.clone()
                }
            })
            .collect();
    }
    let first: Vec<Certified> = match c.id {
        AlgorithmId::HuRnmFtnl | AlgorithmId::NaiveFtnl => (0..k)
            .map(|j| if j == 0 { one.clone() } else { zero.clone() })
            .collect(),
        _ => vec![Certified::from_rational(&q(1, k as i64), &bits); k],
    };
    let blocks: Vec<Vec<Certified>> = (1..)
        .take_while(|b| 1usize << b <= t)
        .map(|b| spec_block_law(c, losses, b, bits))
        .collect();
    all_sequences(k, t)
        .iter()
        .map(|s| {
            let mut p = first[s[0]].clone();
            for (i, law) in blocks.iter().enumerate() {
                let b = i + 1;
                let start = (1 << b) - 1; // 0-based first round of B_b
                let end = ((1 << (b + 1)) - 1).min(t);
                if s[start..end].iter().any(|&a| a != s[start]) {
                    return zero.clone();
                }
                p = p * &law[s[start]];
            }
            p
        })
        .collect()
}

/// The algorithm's law of every sequence of [`all_sequences`].
fn algorithm_law<R: Real>(
    alg: &Algorithm,
    losses: &[Vec<Q>],
    ctx: &R::Context,
) -> dpdtol::Result<Vec<R>> {
    let law = SequenceLaw::<R>::of(alg, losses, ctx)?;
    Ok(all_sequences(alg.actions(), losses.len())
        .iter()
        .map(|s| law.probability(s, ctx))
        .collect())
}

fn certified_sum(values: &[Certified]) -> Certified {
    values.iter().cloned().reduce(|a, b| a + b).unwrap()
}

// ---------------------------------------------------------------------------
// 1. Whole-sequence laws on generated instances
// ---------------------------------------------------------------------------

/// K ∈ {2, 3}, horizon 1..=5, losses from {0, 1/2, 1} or {0, 1}, ε from
/// {1/10, 1/2, 1, 3} (η = 1/20 or 1/8 for prefix-softmax).
fn instance() -> impl Strategy<Value = (usize, Vec<Vec<Q>>, Vec<Vec<Q>>, Q)> {
    (
        2usize..=3,
        1usize..=5,
        any::<bool>(),
        prop::sample::select(vec![(1i64, 10i64), (1, 2), (1, 1), (3, 1)]),
    )
        .prop_flat_map(|(k, t, binary, (en, ed))| {
            let alphabet: Vec<(i64, i64)> = if binary {
                vec![(0, 1), (1, 1)]
            } else {
                vec![(0, 1), (1, 2), (1, 1)]
            };
            let rows =
                prop::collection::vec(prop::collection::vec(prop::sample::select(alphabet), k), t);
            (Just(k), rows.clone(), rows, Just(q(en, ed)))
        })
        .prop_map(|(k, a, b, eps)| {
            let to_q = |rows: Vec<Vec<(i64, i64)>>| -> Vec<Vec<Q>> {
                rows.into_iter()
                    .map(|r| r.into_iter().map(|(n, d)| q(n, d)).collect())
                    .collect()
            };
            (k, to_q(a), to_q(b), eps)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// For every algorithm: the certified law of every action sequence
    /// encloses the spec oracle's value, the enclosures sum to an interval
    /// containing 1, f64 agrees within 1e-12, and Exact — whenever it can
    /// represent the law (always for ftl) — sums to exactly 1 and lies in the
    /// certified enclosures. Losses of the last (partial) block never matter.
    #[test]
    fn sequence_laws_match_the_spec((k, losses, other, eps) in instance()) {
        let t = losses.len();
        let sequences = all_sequences(k, t);
        let tol = tenth_power(25);
        for c in variants_with_overrides(k, &eps) {
            let name = label(&c);
            let alg = build(&c);
            let cert = algorithm_law::<Certified>(&alg, &losses, &PREC).unwrap();
            let spec = spec_law(&c, &losses, PREC);
            for (i, s) in sequences.iter().enumerate() {
                prop_assert!(
                    overlap(&cert[i], &spec[i]) && width(&cert[i]) < tol,
                    "{name}, losses {losses:?}, sequence {s:?}: algorithm {} vs spec {}",
                    show(&cert[i]), show(&spec[i])
                );
            }
            let total = certified_sum(&cert);
            prop_assert!(
                contains(&total, &Q::one()) && width(&total) < tol,
                "{name}, losses {losses:?}: the law sums to {}", show(&total)
            );

            let approx = algorithm_law::<f64>(&alg, &losses, &()).unwrap();
            for (i, s) in sequences.iter().enumerate() {
                let diff = (approx[i] - cert[i].to_f64()).abs();
                prop_assert!(
                    diff <= 1e-12,
                    "{name}, losses {losses:?}, sequence {s:?}: f64 {} vs certified {}",
                    approx[i], show(&cert[i])
                );
            }
            prop_assert!((approx.iter().sum::<f64>() - 1.0).abs() <= 1e-12);

            match algorithm_law::<Exact>(&alg, &losses, &()) {
                Ok(exact) => {
                    prop_assert_eq!(exact.iter().sum::<Q>(), Q::one(), "{}", name);
                    for (i, x) in exact.iter().enumerate() {
                        prop_assert!(
                            contains(&cert[i], x),
                            "{name}, losses {losses:?}: exact {x} outside {}", show(&cert[i])
                        );
                    }
                }
                Err(Error::NotRepresentable(_)) => {
                    prop_assert!(c.id != AlgorithmId::Ftl, "ftl's law is always rational");
                }
                Err(e) => prop_assert!(false, "{name}: exact backend failed: {e}"),
            }

            // The losses of the block holding round t (for ftl: round t
            // itself) have no influence on I_1..I_t.
            let cut = if c.id == AlgorithmId::Ftl { t - 1 } else { (1 << t.ilog2()) - 1 };
            let spliced: Vec<Vec<Q>> =
                losses[..cut].iter().chain(&other[cut..]).cloned().collect();
            let again = algorithm_law::<Certified>(&alg, &spliced, &PREC).unwrap();
            for (i, s) in sequences.iter().enumerate() {
                prop_assert!(
                    bounds(&again[i]) == bounds(&cert[i]),
                    "{name}: rounds {}..={t} changed the law of {s:?} ({losses:?} vs {spliced:?})",
                    cut + 1
                );
            }
        }
    }

    /// Losses in {0, 1} are their own Bernoulli resampling: wu-wang's B = 1
    /// has the law of B = 0 for every noise.
    #[test]
    fn resampling_binary_losses_changes_nothing((k, losses, _other, eps) in instance()) {
        let binary: Vec<Vec<Q>> = losses
            .iter()
            .map(|r| r.iter().map(|l| if *l == Q::one() { Q::one() } else { Q::zero() }).collect())
            .collect();
        for noise in Noise::ALL {
            let law_of = |resample| {
                algorithm_law::<Certified>(&build(&wu_wang(k, &eps, noise, resample)), &binary, &PREC)
                    .unwrap()
            };
            let (b0, b1) = (law_of(false), law_of(true));
            for (x, y) in b0.iter().zip(&b1) {
                prop_assert!(
                    overlap(x, y) && width(y) < tenth_power(25),
                    "{noise}, losses {binary:?}: B=0 {} vs B=1 {}", show(x), show(y)
                );
            }
        }
    }
}

/// Tied losses give rational laws, which the exact backend must produce:
/// every round's loss vector is constant, so every window's sums tie and
/// every report-noisy-max or softmax choice is uniform (by symmetry of i.i.d.
/// noise). K = 3, t = 5: blocks B_1 = {2,3} and B_2 ∩ [1,5] = {4,5}, so
/// P(σ) = P(I_1 = σ_1) · (1/3)² when σ is constant on {2,3} and on {4,5},
/// with P(I_1) = δ_{action 1} (hu, naive) or 1/3 (wu-wang, prefix-softmax).
#[test]
fn exact_laws_on_tied_losses() {
    let k = 3;
    let tie = |x: Q| vec![x; 3];
    // Binary ties: B = 1 resampling keeps them tied.
    let losses = vec![
        tie(q(1, 1)),
        tie(q(0, 1)),
        tie(q(1, 1)),
        tie(q(1, 1)),
        tie(q(0, 1)),
    ];
    let sequences = all_sequences(k, 5);
    for c in variants(k, &q(1, 2)) {
        if c.id == AlgorithmId::Ftl {
            continue;
        }
        let name = label(&c);
        // Every gap is zero, so every weight e^{−gap/β} is 1 and the law is
        // rational for every noise (Laplace included).
        let exact = algorithm_law::<Exact>(&build(&c), &losses, &())
            .unwrap_or_else(|e| panic!("{name}: the law on ties is rational, got {e}"));
        for (s, p) in sequences.iter().zip(&exact) {
            let blocks_ok = s[1] == s[2] && s[3] == s[4];
            let first = match c.id {
                AlgorithmId::HuRnmFtnl | AlgorithmId::NaiveFtnl => {
                    if s[0] == 0 {
                        Q::one()
                    } else {
                        Q::zero()
                    }
                }
                _ => q(1, 3),
            };
            let expected = if blocks_ok {
                first * q(1, 9)
            } else {
                Q::zero()
            };
            assert_eq!(*p, expected, "{name}, sequence {s:?}");
        }
    }
    // Fractional ties stay rational without resampling.
    let losses = vec![tie(q(1, 2)), tie(q(1, 3)), tie(q(1, 2)), tie(q(0, 1))];
    for noise in Noise::ALL {
        let law = algorithm_law::<Exact>(&build(&wu_wang(k, &q(1, 1), noise, false)), &losses, &())
            .unwrap();
        assert_eq!(law.iter().sum::<Q>(), Q::one());
        // σ = (1, 2, 2, 3): (1/3)·(1/3)·(1/3).
        assert_eq!(law[sequence_index(&[0, 1, 1, 2], k)], q(1, 27), "{noise}");
    }
}

/// The first choice reads nothing and is rational in every backend: action 1
/// surely (hu-rnm-ftnl, naive-ftnl, ftl) or uniform (wu-wang, prefix-softmax).
#[test]
fn first_choice_is_exact() {
    for k in 2..=4 {
        for c in variants_with_overrides(k, &q(1, 3)) {
            let alg = build(&c);
            let first = &alg.schedule(1)[0];
            assert_eq!(
                *first,
                Choice {
                    plays: 1..2,
                    reads: 1..1
                }
            );
            let law: Vec<Exact> = alg.choice_law(0, first, &[], &()).unwrap();
            let expected: Vec<Q> = match c.id {
                AlgorithmId::WuWang | AlgorithmId::PrefixSoftmax => vec![q(1, k as i64); k],
                _ => (0..k)
                    .map(|j| if j == 0 { Q::one() } else { Q::zero() })
                    .collect(),
            };
            assert_eq!(law, expected, "{}", label(&c));
        }
    }
}

// ---------------------------------------------------------------------------
// 2. Hand-derived schedules and laws
// ---------------------------------------------------------------------------

fn choice(plays: std::ops::Range<usize>, reads: std::ops::Range<usize>) -> Choice {
    Choice { plays, reads }
}

#[test]
fn dyadic_schedule_by_hand() {
    // B_0 = {1} reads nothing; B_b = [2^b, 2^{b+1}) reads B_{b−1}.
    assert_eq!(dyadic_schedule(1), vec![choice(1..2, 1..1)]);
    assert_eq!(
        dyadic_schedule(2),
        vec![choice(1..2, 1..1), choice(2..3, 1..2)]
    );
    assert_eq!(
        dyadic_schedule(7),
        vec![choice(1..2, 1..1), choice(2..4, 1..2), choice(4..8, 2..4)]
    );
    // Horizon 5 cuts B_2 = {4..7} to {4, 5}; it still reads all of B_1.
    assert_eq!(
        dyadic_schedule(5),
        vec![choice(1..2, 1..1), choice(2..4, 1..2), choice(4..6, 2..4)]
    );
    // Horizon 8 opens B_3 with one round, reading all of B_2 = {4..7}.
    assert_eq!(
        dyadic_schedule(8),
        vec![
            choice(1..2, 1..1),
            choice(2..4, 1..2),
            choice(4..8, 2..4),
            choice(8..9, 4..8)
        ]
    );
    for t in 1..=70 {
        let s = dyadic_schedule(t);
        assert_eq!(s.len(), t.ilog2() as usize + 1, "t = {t}");
        let mut next = 1;
        for (b, c) in s.iter().enumerate() {
            assert_eq!(c.plays.start, next, "t = {t}: plays must partition 1..=t");
            assert_eq!(c.plays.start, 1 << b);
            assert_eq!(c.plays.end, ((1 << (b + 1)) as usize).min(t + 1));
            if b > 0 {
                assert_eq!(c.reads, (1 << (b - 1))..(1 << b), "t = {t}, b = {b}");
            }
            next = c.plays.end;
        }
        assert_eq!(next, t + 1);
    }
}

#[test]
fn every_algorithm_uses_its_schedule() {
    for c in variants(3, &q(1, 1)) {
        let alg = build(&c);
        for t in 1..=20 {
            let expected = if c.id == AlgorithmId::Ftl {
                (1..=t).map(|r| choice(r..r + 1, 1..r)).collect()
            } else {
                dyadic_schedule(t)
            };
            assert_eq!(alg.schedule(t), expected, "{}, t = {t}", label(&c));
        }
    }
}

#[test]
fn ftl_leader_sequence_by_hand() {
    // Cumulative losses before each round, and the leader (lowest index on ties):
    //   round 1: (0, 0, 0)      → action 1
    //   round 2: (1, 0, 1)      → action 2
    //   round 3: (1, 1, 1)      → action 1 (three-way tie)
    //   round 4: (3/2, 2, 1)    → action 3
    //   round 5: (3/2, 2, 2)    → action 1
    let losses = vec![
        vec![q(1, 1), q(0, 1), q(1, 1)],
        vec![q(0, 1), q(1, 1), q(0, 1)],
        vec![q(1, 2), q(1, 1), q(0, 1)],
        vec![q(0, 1), q(0, 1), q(1, 1)],
        vec![q(1, 1), q(1, 1), q(1, 1)],
    ];
    let leader = [0, 1, 0, 2, 0];
    let alg = build(&Config::new(AlgorithmId::Ftl, 3, q(1, 1)));
    let law = algorithm_law::<Exact>(&alg, &losses, &()).unwrap();
    for (s, p) in all_sequences(3, 5).iter().zip(&law) {
        let expected = if s[..] == leader { Q::one() } else { Q::zero() };
        assert_eq!(*p, expected, "sequence {s:?}");
    }
    let f64_losses: Vec<Vec<f64>> = losses
        .iter()
        .map(|r| r.iter().map(Real::to_f64).collect())
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    assert_eq!(alg.sample(&f64_losses, &mut rng), leader);
}

/// Rational enclosure of `e^x` for `|x| ≤ 8`, independent of the crate's
/// `exp`: the Taylor polynomial of degree 119. For `x ≤ 0` the series
/// alternates with terms decreasing after `n > |x|`, so the remainder is at
/// most the first omitted term `|x|^{120}/120! < 10^{−90}`; for `x > 0`,
/// `e^x = 1/e^{−x}`.
fn exp_enclosure(x: &Q) -> (Q, Q) {
    if x.is_positive() {
        let (lo, hi) = exp_enclosure(&-x);
        return (hi.recip(), lo.recip());
    }
    let mut partial = Q::zero();
    let mut term = Q::one();
    for n in 0..120i64 {
        partial += &term;
        term = term * x / Q::from_integer((n + 1).into());
    }
    let slack = term.abs();
    (&partial - &slack, partial + slack)
}

/// The marginal `P(I_round = action)` (1-based round, 0-based action) of
/// the certified law.
fn marginal(alg: &Algorithm, losses: &[Vec<Q>], round: usize, action: usize) -> Certified {
    let law = algorithm_law::<Certified>(alg, losses, &PREC_HIGH).unwrap();
    let picked: Vec<Certified> = all_sequences(alg.actions(), losses.len())
        .iter()
        .zip(law)
        .filter(|(s, _)| s[round - 1] == action)
        .map(|(_, p)| p)
        .collect();
    certified_sum(&picked)
}

#[test]
fn hu_rnm_ftnl_witness_closed_form() {
    // K = 2, t = 4; rounds 2, 3 have losses (1,0), (1,0): the epoch-1 reward
    // sums are Φ = (0, 2), and I_4 = J^(1) = argmax_j(Φ_j + Z_j), Z_j ~ Lap(β)
    // i.i.d., β = 1/ε. So P(I_4 = 1) = P(Z_1 − Z_2 > 2). The difference D of
    // two Lap(β) has tail P(D > x) = ¼(2 + x/β)e^{−x/β} for x ≥ 0 (convolve
    // the densities: f_D(x) = (1/(4β))(1 + |x|/β)e^{−|x|/β}). With x = 2:
    // P(I_4 = 1) = ¼(2 + 2ε)e^{−2ε}; at ε = 1 it is e^{−2}, at ε = 1/2 it is
    // (3/4)e^{−1}. Round 1 only moves I_2 = I_3, which is summed out.
    for (eps, round1) in [
        (q(1, 1), vec![q(1, 2), q(0, 1)]),
        (q(1, 2), vec![q(0, 1), q(1, 1)]),
    ] {
        let alg = build(&Config::new(AlgorithmId::HuRnmFtnl, 2, eps.clone()));
        let losses = vec![
            round1,
            vec![q(1, 1), q(0, 1)],
            vec![q(1, 1), q(0, 1)],
            vec![q(0, 1), q(1, 1)],
        ];
        let p = marginal(&alg, &losses, 4, 0);
        let (elo, ehi) = exp_enclosure(&(-q(2, 1) * &eps));
        let factor = (q(2, 1) + q(2, 1) * &eps) / q(4, 1);
        assert!(
            agrees_with(&p, &(&factor * elo), &(&factor * ehi), 30),
            "hu-rnm-ftnl, ε = {eps}: P(I_4 = 1) = {} should be ¼(2+2ε)e^(-2ε)",
            show(&p)
        );
        // The neighbour (round 2 → (0,1)) ties Φ = (1,1): P(I_4 = 1) = 1/2.
        let mut neighbour = losses.clone();
        neighbour[1] = vec![q(0, 1), q(1, 1)];
        let p = marginal(&alg, &neighbour, 4, 0);
        assert!(
            contains(&p, &q(1, 2)) && width(&p) < tenth_power(30),
            "{}",
            show(&p)
        );
        // I_1 is action 1 with probability 1.
        assert!(contains(&marginal(&alg, &losses, 1, 0), &Q::one()));
    }
}

#[test]
fn wu_wang_t2_closed_forms() {
    // K = 2, t = 2, ℓ^(1) = (1, 0): I_2 = J_1 = argmax(−G + Q), −G = (−1, 0).
    // * Exp(1/ε): action 1 wins iff E_1 − E_2 > 1, and E_1 − E_2 ~ Lap(1/ε):
    //   P(I_2 = 2) = 1 − ½e^{−ε}.
    // * Gumbel(2/ε): softmax at ε/2: P(I_2 = 2) = 1/(1 + e^{−ε/2}).
    // * Lap(2/ε): P(I_2 = 1) = ¼(2 + x/β)e^{−x/β} with x = 1, β = 2/ε:
    //   P(I_2 = 2) = 1 − ¼(2 + ε/2)e^{−ε/2}.
    // B = 1 changes nothing on losses in {0, 1}. I_1 is uniform, summed out.
    let losses = vec![vec![q(1, 1), q(0, 1)], vec![q(0, 1), q(0, 1)]];
    for eps in [q(1, 1), q(1, 2), q(3, 1)] {
        let (e1lo, e1hi) = exp_enclosure(&-eps.clone());
        let (e2lo, e2hi) = exp_enclosure(&(-eps.clone() / q(2, 1)));
        let half = q(1, 2);
        let lap = (q(2, 1) + &eps / q(2, 1)) / q(4, 1);
        let expected = [
            (
                Noise::Exponential,
                Q::one() - &half * &e1hi,
                Q::one() - &half * &e1lo,
            ),
            (
                Noise::Gumbel,
                (Q::one() + &e2hi).recip(),
                (Q::one() + &e2lo).recip(),
            ),
            (
                Noise::Laplace,
                Q::one() - &lap * &e2hi,
                Q::one() - &lap * &e2lo,
            ),
        ];
        for (noise, lo, hi) in expected {
            for resample in [false, true] {
                let c = wu_wang(2, &eps, noise, resample);
                let p = marginal(&build(&c), &losses, 2, 1);
                assert!(
                    agrees_with(&p, &lo, &hi, 30),
                    "{}: P(I_2 = 2) = {}, expected [{}, {}]",
                    label(&c),
                    show(&p),
                    format_sig(&lo, 35),
                    format_sig(&hi, 35)
                );
                let p1 = marginal(&build(&c), &losses, 1, 1);
                assert!(contains(&p1, &half), "{}: I_1 must be uniform", label(&c));
            }
        }
    }
}

/// `[1/(1 + e^{d})]` for K = 2 softmax: the first action's probability when
/// its loss exceeds the other's by `d/η`; decreasing in `e^d`.
fn logistic(d: &Q) -> (Q, Q) {
    let (lo, hi) = exp_enclosure(d);
    ((Q::one() + hi).recip(), (Q::one() + lo).recip())
}

#[test]
fn prefix_softmax_reads_the_random_prefix() {
    // ε = 1: η = min{1/2, 1/8} = 1/8, K = 2, horizon 8.
    //   choice 0 plays round 1: A_0 uniform.
    //   choice 1 plays rounds 2..3: A_1 reads B_0 = {1} with M_0 = 1:
    //     L = ℓ^(1) = (1, 0): P(A_1 = 1) = 1/(1 + e^{η}).
    //   choice 2 plays rounds 4..7: A_2 reads B_1 = {2,3} with M_1 = 2 (the
    //     set {2^0+1..2^1} = {2}): L = (1,0)+(1/2,0) = (3/2, 0):
    //     P(A_2 = 1) = 1/(1 + e^{3η/2}).
    //   choice 3 plays round 8: A_3 reads B_2 = {4..7} with M_2 ∈ {3, 4}
    //     uniform: rounds 4..6 give L = (0, 3), rounds 4..7 give L = (1, 3):
    //     P(A_3 = 1) = ½/(1 + e^{−3η}) + ½/(1 + e^{−2η}).
    // (The whole block alone would give 1/(1 + e^{−2η}); rounds 5..7 or
    // 4..8 would differ too, since rounds 7 and 8 differ from 4..6.)
    let eta = q(1, 8);
    let losses = vec![
        vec![q(1, 1), q(0, 1)],
        vec![q(1, 1), q(0, 1)],
        vec![q(1, 2), q(0, 1)],
        vec![q(0, 1), q(1, 1)],
        vec![q(0, 1), q(1, 1)],
        vec![q(0, 1), q(1, 1)],
        vec![q(1, 1), q(0, 1)],
        vec![q(0, 1), q(1, 1)],
    ];
    let alg = build(&Config::new(AlgorithmId::PrefixSoftmax, 2, q(1, 1)));
    let law = SequenceLaw::<Certified>::of(&alg, &losses, &PREC_HIGH).unwrap();
    let reads: Vec<_> = law.choices.iter().map(|(c, _)| c.reads.clone()).collect();
    assert_eq!(reads, vec![1..1, 1..2, 2..4, 4..8]);
    let (a3lo, a3hi) = logistic(&(-q(3, 1) * &eta));
    let (b3lo, b3hi) = logistic(&(-q(2, 1) * &eta));
    let expected = [
        (q(1, 2), q(1, 2)),
        logistic(&eta),
        logistic(&(q(3, 2) * &eta)),
        ((a3lo + b3lo) / q(2, 1), (a3hi + b3hi) / q(2, 1)),
    ];
    for (i, ((lo, hi), (_, choice_law))) in expected.iter().zip(&law.choices).enumerate() {
        assert!(
            agrees_with(&choice_law[0], lo, hi, 30),
            "prefix-softmax choice {i}: P(action 1) = {}, expected [{}, {}]",
            show(&choice_law[0]),
            format_sig(lo, 35),
            format_sig(hi, 35)
        );
    }
    // One whole sequence: (1 | 2 2 | 1 1 1 1 | 1) has probability
    // ½ · P(A_1 = 2) · P(A_2 = 1) · P(A_3 = 1).
    let s = [0, 1, 1, 0, 0, 0, 0, 0];
    let p = law.probability(&s, &PREC_HIGH);
    let (p1lo, p1hi) = logistic(&eta);
    let (lo, hi) = (
        q(1, 2) * (Q::one() - p1hi) * &expected[2].0 * &expected[3].0,
        q(1, 2) * (Q::one() - p1lo) * &expected[2].1 * &expected[3].1,
    );
    assert!(agrees_with(&p, &lo, &hi, 30), "P({s:?}) = {}", show(&p));
}

/// Longer horizons than the property test reaches: the choice laws of every
/// algorithm at t = 16 (wu-wang's B = 1 window of 8 rounds; prefix-softmax's
/// M_3 ∈ {5..8}) against the spec oracle, block by block.
#[test]
fn choice_laws_at_horizon_16_match_the_spec() {
    let pattern = [
        (0, 1),
        (1, 2),
        (1, 1),
        (1, 4),
        (0, 1),
        (3, 4),
        (1, 1),
        (0, 1),
    ];
    let losses: Vec<Vec<Q>> = (0..16)
        .map(|t| {
            let (a, b) = (pattern[t % 8], pattern[(3 * t + 1) % 8]);
            // Few fractional entries in rounds 8..15 keep B = 1 small.
            if (8..16).contains(&(t + 1)) && t % 3 != 0 {
                vec![q(i64::from(a.0 > 0), 1), q(b.0, b.1)]
            } else {
                vec![q(a.0, a.1), q(b.0, b.1)]
            }
        })
        .collect();
    for c in variants_with_overrides(2, &q(1, 1)) {
        if c.id == AlgorithmId::Ftl {
            continue;
        }
        let law = SequenceLaw::<Certified>::of(&build(&c), &losses, &PREC).unwrap();
        assert_eq!(law.choices.len(), 5);
        for (b, (_, choice_law)) in law.choices.iter().enumerate().skip(1) {
            let spec = spec_block_law(&c, &losses, b, PREC);
            for j in 0..2 {
                assert!(
                    overlap(&choice_law[j], &spec[j]) && width(&choice_law[j]) < tenth_power(25),
                    "{}, block {b}, action {}: algorithm {} vs spec {}",
                    label(&c),
                    j + 1,
                    show(&choice_law[j]),
                    show(&spec[j])
                );
            }
        }
    }
}

/// Spec cross-checks (§2, §3): naive-ftnl at K = 2 is hu-rnm-ftnl with
/// scale 2/ε; wu-wang (B = 0, Lap(2/ε)) is hu-rnm-ftnl with scale 2/ε except
/// for round 1 (uniform instead of action 1).
#[test]
fn epoch_algorithms_differ_only_as_specified() {
    let eps = q(1, 2);
    let losses = vec![
        vec![q(1, 2), q(0, 1)],
        vec![q(1, 1), q(1, 2)],
        vec![q(0, 1), q(1, 2)],
        vec![q(1, 1), q(0, 1)],
        vec![q(1, 2), q(1, 2)],
    ];
    let mut hu = Config::new(AlgorithmId::HuRnmFtnl, 2, eps.clone());
    hu.noise_scale = Some(q(2, 1) / &eps);
    let hu = SequenceLaw::<Certified>::of(&build(&hu), &losses, &PREC).unwrap();
    let naive = SequenceLaw::<Certified>::of(
        &build(&Config::new(AlgorithmId::NaiveFtnl, 2, eps.clone())),
        &losses,
        &PREC,
    )
    .unwrap();
    let ww = SequenceLaw::<Certified>::of(
        &build(&wu_wang(2, &eps, Noise::Laplace, false)),
        &losses,
        &PREC,
    )
    .unwrap();
    for b in 0..hu.choices.len() {
        for j in 0..2 {
            assert!(
                overlap(&hu.choices[b].1[j], &naive.choices[b].1[j]),
                "naive vs hu, choice {b}"
            );
            if b > 0 {
                assert!(
                    overlap(&hu.choices[b].1[j], &ww.choices[b].1[j]),
                    "wu-wang vs hu, choice {b}"
                );
            }
        }
    }
    assert!(contains(&ww.choices[0].1[0], &q(1, 2)));
    assert!(contains(&hu.choices[0].1[0], &Q::one()));
}

// ---------------------------------------------------------------------------
// 3. Bernoulli resampling by brute force; the Poisson-binomial law
// ---------------------------------------------------------------------------

/// A window of `n ∈ {1, 2, 4}` rounds of K ∈ {2, 3} losses from
/// {0, 1/4, 1/3, 1/2, 1}, with K·n ≤ 8 (at most 256 resampled windows).
fn resample_window() -> impl Strategy<Value = (usize, Vec<Vec<Q>>)> {
    prop::sample::select(vec![(2usize, 1usize), (2, 2), (2, 4), (3, 1), (3, 2)]).prop_flat_map(
        |(k, n)| {
            let entry = prop::sample::select(vec![(0i64, 1i64), (1, 4), (1, 3), (1, 2), (1, 1)])
                .prop_map(|(a, b)| q(a, b));
            (
                Just(k),
                prop::collection::vec(prop::collection::vec(entry, k), n),
            )
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// wu-wang B = 1: the choice law equals the average, over all 2^{K·n}
    /// resampled 0/1 windows (exact rational weights; those of weight zero
    /// left out), of the B = 0 choice law on the resampled window.
    #[test]
    fn wu_wang_resampling_matches_brute_force(
        (k, window) in resample_window(),
        eps in prop::sample::select(vec![(1i64, 2i64), (1, 1), (2, 1)]).prop_map(|(a, b)| q(a, b)),
    ) {
        let n = window.len();
        let b = n.ilog2() as usize + 1; // the choice playing B_b reads B_{b−1}, n = 2^{b−1} rounds
        let schedule = dyadic_schedule(2 * n);
        let choice = &schedule[b];
        prop_assert_eq!(choice.reads.len(), n);
        let outcomes = resamplings(&window);
        let fractional = window.iter().flatten().filter(|l| !l.is_zero() && !l.is_one()).count();
        prop_assert_eq!(outcomes.len(), 1 << fractional);
        prop_assert_eq!(outcomes.iter().map(|(w, _)| w.clone()).sum::<Q>(), Q::one());
        for noise in Noise::ALL {
            let with = build(&wu_wang(k, &eps, noise, true));
            let without = build(&wu_wang(k, &eps, noise, false));
            let law: Vec<Certified> = with.choice_law(b, choice, &window, &PREC).unwrap();
            let brute = mixture(
                outcomes.iter().map(|(w, x)| {
                    (w.clone(), without.choice_law::<Certified>(b, choice, x, &PREC).unwrap())
                }),
                k,
                PREC,
            );
            for j in 0..k {
                prop_assert!(
                    overlap(&law[j], &brute[j]) && width(&law[j]) < tenth_power(25),
                    "{noise}, ε = {eps}, window {window:?}, action {}: algorithm {} vs brute force {}",
                    j + 1, show(&law[j]), show(&brute[j])
                );
            }
        }
    }
}

#[test]
fn poisson_binomial_by_hand() {
    // No trials: P(0) = 1.
    assert_eq!(epoch_rnm::poisson_binomial([].iter()), vec![Q::one()]);
    // p = (1/2, 1/3): P(0) = ½·⅔ = 1/3, P(2) = ½·⅓ = 1/6, P(1) = 1/2.
    let ps = [q(1, 2), q(1, 3)];
    assert_eq!(
        epoch_rnm::poisson_binomial(ps.iter()),
        vec![q(1, 3), q(1, 2), q(1, 6)]
    );
    // p = (1/2, 1/3, 1/4): P(0) = ½·⅔·¾ = 1/4;
    // P(1) = ½·⅔·¾ + ½·⅓·¾ + ½·⅔·¼ = 6/24 + 3/24 + 2/24 = 11/24;
    // P(2) = ½·⅓·¾ + ½·⅔·¼ + ½·⅓·¼ = 3/24 + 2/24 + 1/24 = 1/4;
    // P(3) = ½·⅓·¼ = 1/24.
    let ps = [q(1, 2), q(1, 3), q(1, 4)];
    assert_eq!(
        epoch_rnm::poisson_binomial(ps.iter()),
        vec![q(1, 4), q(11, 24), q(1, 4), q(1, 24)]
    );
    // Deterministic trials: (1, 0, 1) sums to 2 surely.
    let ps = [q(1, 1), q(0, 1), q(1, 1)];
    assert_eq!(
        epoch_rnm::poisson_binomial(ps.iter()),
        vec![Q::zero(), Q::zero(), Q::one(), Q::zero()]
    );
}

// ---------------------------------------------------------------------------
// 4. Samplers against the exact laws
// ---------------------------------------------------------------------------

/// K = 3, horizon 7: three choices (round 1; rounds 2–3 reading round 1;
/// rounds 4–7 reading rounds 2–3).
fn sampler_instance_k3() -> Vec<Vec<Q>> {
    vec![
        vec![q(0, 1), q(1, 2), q(1, 1)],
        vec![q(1, 1), q(0, 1), q(1, 2)],
        vec![q(1, 2), q(1, 2), q(0, 1)],
        vec![q(0, 1), q(1, 1), q(1, 2)],
        vec![q(1, 1), q(0, 1), q(0, 1)],
        vec![q(1, 2), q(1, 1), q(0, 1)],
        vec![q(0, 1), q(0, 1), q(1, 1)],
    ]
}

/// K = 2, horizon 8: the last choice reads rounds 4–7 (prefix-softmax:
/// M_2 ∈ {3, 4}; wu-wang B = 1: 8 resampled entries).
fn sampler_instance_k2() -> Vec<Vec<Q>> {
    vec![
        vec![q(1, 1), q(0, 1)],
        vec![q(1, 2), q(0, 1)],
        vec![q(1, 1), q(1, 2)],
        vec![q(0, 1), q(1, 1)],
        vec![q(1, 2), q(1, 1)],
        vec![q(1, 4), q(1, 1)],
        vec![q(1, 1), q(0, 1)],
        vec![q(0, 1), q(1, 2)],
    ]
}

/// Draw `draws` action sequences from `sampler` (seeded ChaCha8) and test
/// them against `law`'s exact law of whole sequences: sequences of law
/// exactly zero must never be drawn (returned as the count of such draws),
/// the rest by chi-square (cells merged to ≥ 5 expected by the helper).
fn sampler_p_value(
    sampler: &Algorithm,
    law: &Algorithm,
    losses: &[Vec<Q>],
    draws: usize,
    seed: u64,
) -> (f64, u64) {
    let k = law.actions();
    let exact = algorithm_law::<Certified>(law, losses, &PREC).unwrap();
    let f64_losses: Vec<Vec<f64>> = losses
        .iter()
        .map(|r| r.iter().map(Real::to_f64).collect())
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut counts = vec![0u64; exact.len()];
    for _ in 0..draws {
        let actions = sampler.sample(&f64_losses, &mut rng);
        assert_eq!(actions.len(), losses.len());
        counts[sequence_index(&actions, k)] += 1;
    }
    let mut off_support = 0;
    let (mut observed, mut expected) = (Vec::new(), Vec::new());
    for (count, p) in counts.iter().zip(&exact) {
        if p.is_zero_certain() {
            off_support += count;
        } else {
            observed.push(*count);
            expected.push(p.to_f64());
        }
    }
    (
        common::chi_square_p_value(&observed, &expected),
        off_support,
    )
}

const DRAWS: usize = 20_000;

#[test]
fn samplers_pass_chi_square_against_exact_laws() {
    for (k, losses) in [(3, sampler_instance_k3()), (2, sampler_instance_k2())] {
        for (i, c) in variants_with_overrides(k, &q(1, 1)).into_iter().enumerate() {
            let seed = 20_260_000 + 100 * k as u64 + i as u64;
            let alg = build(&c);
            let (p, off) = sampler_p_value(&alg, &alg, &losses, DRAWS, seed);
            assert_eq!(
                off,
                0,
                "{}: the sampler drew {off} sequences of probability 0 (seed {seed}, horizon {}, losses {losses:?})",
                label(&c),
                losses.len()
            );
            assert!(
                p > 1e-6,
                "{}: sampler vs law p = {p} ({DRAWS} draws, seed {seed}, horizon {}, losses {losses:?})",
                label(&c),
                losses.len()
            );
        }
    }
}

#[test]
fn chi_square_detects_wrong_samplers() {
    // Negative controls: a sampler whose noise scale (or algorithm) differs
    // from the law's must be rejected, so the test above has power.
    let eps = q(1, 1);
    let k3 = sampler_instance_k3();
    let k2 = sampler_instance_k2();
    let with_scale = |mut c: Config, s: Q| {
        c.noise_scale = Some(s);
        c
    };
    let cases: Vec<(&str, Config, Config, &Vec<Vec<Q>>)> = vec![
        (
            "wu-wang Laplace at scale 1/2 vs the default 2/ε",
            with_scale(wu_wang(3, &eps, Noise::Laplace, false), q(1, 2)),
            wu_wang(3, &eps, Noise::Laplace, false),
            &k3,
        ),
        (
            "wu-wang exponential at scale 1/4 vs the default 1/ε",
            with_scale(wu_wang(3, &eps, Noise::Exponential, true), q(1, 4)),
            wu_wang(3, &eps, Noise::Exponential, true),
            &k3,
        ),
        (
            "prefix-softmax at temperature 1 vs the default 8",
            with_scale(
                Config::new(AlgorithmId::PrefixSoftmax, 2, eps.clone()),
                q(1, 1),
            ),
            Config::new(AlgorithmId::PrefixSoftmax, 2, eps.clone()),
            &k2,
        ),
        (
            "hu-rnm-ftnl (scale 1/ε) vs naive-ftnl (scale K/ε)",
            Config::new(AlgorithmId::HuRnmFtnl, 3, eps.clone()),
            Config::new(AlgorithmId::NaiveFtnl, 3, eps.clone()),
            &k3,
        ),
    ];
    for (what, sampler, law, losses) in cases {
        let (p, off) = sampler_p_value(&build(&sampler), &build(&law), losses, DRAWS, 99);
        assert!(
            p < 1e-6 || off > 0,
            "{what}: a wrong sampler went unnoticed (p = {p})"
        );
    }
}

// ---------------------------------------------------------------------------
// 5. Configuration validation
// ---------------------------------------------------------------------------

#[test]
fn config_validation_rejects_bad_input() {
    let eps = q(1, 1);
    let rejects = |c: Config, why: &str| {
        assert!(
            matches!(c.validate(), Err(Error::InvalidInput(_))),
            "{why}: validate() accepted {c:?}"
        );
        assert!(c.build().is_err(), "{why}: build() accepted {c:?}");
    };
    for id in AlgorithmId::ALL {
        rejects(Config::new(id, 1, eps.clone()), "K = 1");
        rejects(Config::new(id, 0, eps.clone()), "K = 0");
        rejects(Config::new(id, 2, Q::zero()), "ε = 0");
        rejects(Config::new(id, 2, q(-1, 2)), "ε < 0");
        for s in [q(-1, 1), Q::zero()] {
            let mut c = Config::new(id, 2, eps.clone());
            c.noise_scale = Some(s);
            rejects(c, "noise scale ≤ 0");
        }
        if id != AlgorithmId::WuWang {
            for noise in Noise::ALL {
                let mut c = Config::new(id, 2, eps.clone());
                c.noise = Some(noise);
                rejects(c, "--noise with a non-wu-wang algorithm");
            }
            let mut c = Config::new(id, 2, eps.clone());
            c.resample = true;
            rejects(c, "--resample with a non-wu-wang algorithm");
        }
    }
    let mut c = Config::new(AlgorithmId::Ftl, 2, eps.clone());
    c.noise_scale = Some(q(1, 1));
    rejects(c, "ftl has no noise scale");

    // And the valid ones build.
    for c in variants(2, &eps) {
        assert!(c.build().is_ok(), "{} must build", label(&c));
    }
    for id in [
        AlgorithmId::NaiveFtnl,
        AlgorithmId::HuRnmFtnl,
        AlgorithmId::PrefixSoftmax,
    ] {
        let mut c = Config::new(id, 2, eps.clone());
        c.noise_scale = Some(q(3, 2));
        assert!(
            c.build().is_ok(),
            "{} with a positive scale must build",
            label(&c)
        );
    }
}

#[test]
fn loss_sequences_are_validated() {
    let alg = build(&Config::new(AlgorithmId::HuRnmFtnl, 2, q(1, 1)));
    let bad: [(&str, Vec<Vec<Q>>); 4] = [
        ("no rounds", vec![]),
        ("a vector of length 3 for K = 2", vec![vec![q(0, 1); 3]]),
        (
            "a loss above 1",
            vec![vec![q(0, 1), q(1, 1)], vec![q(3, 2), q(0, 1)]],
        ),
        ("a negative loss", vec![vec![q(-1, 2), q(0, 1)]]),
    ];
    for (why, losses) in bad {
        assert!(
            matches!(
                SequenceLaw::<f64>::of(&alg, &losses, &()),
                Err(Error::InvalidInput(_))
            ),
            "{why} must be rejected"
        );
    }
}

#[test]
fn algorithm_ids_round_trip() {
    for id in AlgorithmId::ALL {
        assert_eq!(id.name().parse::<AlgorithmId>().unwrap(), id);
        assert_eq!(id.to_string(), id.name());
    }
    assert!(matches!(
        "rnm-ftnl".parse::<AlgorithmId>(),
        Err(Error::InvalidInput(_))
    ));
}
