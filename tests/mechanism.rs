//! The mechanism laws: exact values derived by hand, an independent oracle
//! for permute-and-flip, algebraic properties, and sampler-vs-law chi-square
//! tests.

mod common;

use dpdtol::mechanism::{self, exponential, law, sampler, softmax, Noise, Scale};
use dpdtol::num::{Certified, Exact, Precision, Real, Q};
use num_traits::{One, Zero};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

fn base(n: i64, d: i64) -> Scale {
    Scale::unit_weight(q(n, d)).unwrap()
}

#[test]
fn softmax_exact_by_hand() {
    // Base 1/4, losses 0, 1, 2, 1/2: weights 1, 1/4, 1/16, 1/2 (√(1/4) = 1/2),
    // total 29/16, so the law is (16, 4, 1, 8)/29.
    let losses = [q(0, 1), q(1, 1), q(2, 1), q(1, 2)];
    let p: Vec<Exact> = law(Noise::Gumbel, &losses, &base(1, 4), &()).unwrap();
    assert_eq!(p, vec![q(16, 29), q(4, 29), q(1, 29), q(8, 29)]);
}

#[test]
fn exponential_exact_by_hand() {
    // Weights 1, a, b. P(2) = a ∫₀¹ (1 − x)(1 − b x) dx = a (1/2 − b/6),
    // P(3) = b (1/2 − a/6), P(1) = 1 − a/2 − b/2 + ab/3.
    // Base 1/2 and losses 0, 1, 2: a = 1/2, b = 1/4, so
    // P = (32/48, 11/48, 5/48).
    let losses = [q(0, 1), q(1, 1), q(2, 1)];
    let p: Vec<Exact> = law(Noise::Exponential, &losses, &base(1, 2), &()).unwrap();
    assert_eq!(p, vec![q(32, 48), q(11, 48), q(5, 48)]);
}

#[test]
fn exponential_k2_closed_form_certified() {
    // K = 2 with gap 2 and β = 1: P(2) = e^{−2}/2, P(1) = 1 − e^{−2}/2.
    // e^{−2} is enclosed independently of the crate's exp by the alternating
    // Taylor series Σ_{n≤60} (−2)^n/n!, whose remainder is below 2^61/61! < 1e-65.
    let mut partial = Q::zero();
    let mut term = Q::one();
    for n in 0..=60i64 {
        partial += &term;
        term *= q(-2, n + 1);
    }
    let slack = q(1, 1) / Q::from_integer(num_bigint::BigInt::from(10).pow(65));
    let e2 = (partial.clone() - &slack, partial + &slack);
    let p: Vec<Certified> = law(
        Noise::Exponential,
        &[q(0, 1), q(2, 1)],
        &Scale::beta(q(1, 1)).unwrap(),
        &Precision(256),
    )
    .unwrap();
    let (lo, hi) = p[1].enclosure().unwrap();
    let tolerance = q(1, 1) / Q::from_integer(num_bigint::BigInt::from(10).pow(40));
    assert!(
        lo <= &e2.1 / q(2, 1) && hi >= &e2.0 / q(2, 1),
        "P(2) must enclose e^-2/2"
    );
    assert!(hi - lo < tolerance, "P(2) must be known to 40 digits");
    let (lo, hi) = p[0].enclosure().unwrap();
    assert!(lo <= q(1, 1) - &e2.0 / q(2, 1) && hi >= q(1, 1) - &e2.1 / q(2, 1));
}

/// Permute-and-flip by its definition (McKenna & Sheldon 2020): visit the
/// actions in a uniformly random order and accept action s with probability
/// p_s; the action with p = 1 always stops the pass. Its law, enumerated over
/// all K! orders: P(r) = (1/K!) Σ_σ p_r ∏_{s before r in σ} (1 − p_s).
fn permute_and_flip_by_enumeration(p: &[Q]) -> Vec<Q> {
    fn orders(k: usize) -> Vec<Vec<usize>> {
        if k == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for order in orders(k - 1) {
            for position in 0..=order.len() {
                let mut o = order.clone();
                o.insert(position, k - 1);
                out.push(o);
            }
        }
        out
    }
    let all = orders(p.len());
    let count = Q::from_integer(all.len().into());
    let mut law = vec![Q::zero(); p.len()];
    for order in &all {
        let mut not_yet = Q::one();
        for &s in order {
            law[s] += &not_yet * &p[s] / &count;
            not_yet *= Q::one() - &p[s];
        }
    }
    law
}

/// Small instances: K in 2..=6, integer losses 0..4, base in {1/2, 1/3, 2/3, 3/4}.
fn small_instance() -> impl Strategy<Value = (Vec<Q>, Scale)> {
    (
        prop::collection::vec(0i64..5, 2..=6),
        prop::sample::select(vec![(1, 2), (1, 3), (2, 3), (3, 4)]),
    )
        .prop_map(|(l, (n, d))| (l.into_iter().map(|x| q(x, 1)).collect(), base(n, d)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn exponential_law_matches_permute_and_flip((losses, scale) in small_instance()) {
        let weights: Vec<Exact> = mechanism::weights(&losses, &scale, &()).unwrap();
        let tree = exponential::law(&weights);
        prop_assert_eq!(tree, permute_and_flip_by_enumeration(&weights));
    }

    #[test]
    fn exact_laws_sum_to_one_and_are_monotone((losses, scale) in small_instance()) {
        for noise in [Noise::Gumbel, Noise::Exponential] {
            let p: Vec<Exact> = law(noise, &losses, &scale, &()).unwrap();
            prop_assert_eq!(p.iter().sum::<Q>(), Q::one());
            for i in 0..losses.len() {
                for j in 0..losses.len() {
                    if losses[i] < losses[j] {
                        prop_assert!(p[i] > p[j], "{noise}: smaller loss must be likelier");
                    } else if losses[i] == losses[j] {
                        prop_assert_eq!(&p[i], &p[j]);
                    }
                }
            }
        }
    }

    #[test]
    fn exact_laws_are_shift_invariant((losses, scale) in small_instance(), shift in -3i64..4) {
        let shifted: Vec<Q> = losses.iter().map(|l| l + q(shift, 1)).collect();
        for noise in [Noise::Gumbel, Noise::Exponential] {
            let a: Vec<Exact> = law(noise, &losses, &scale, &()).unwrap();
            let b: Vec<Exact> = law(noise, &shifted, &scale, &()).unwrap();
            prop_assert_eq!(a, b);
        }
    }
}

#[test]
fn softmax_law_for_a_million_actions_in_f64() {
    let losses: Vec<f64> = (0..1_000_000).map(|i| (i % 1000) as f64 / 1000.0).collect();
    let p = softmax::law(&softmax::weights_f64(&losses, 0.1));
    let total: f64 = p.iter().sum();
    assert!((total - 1.0).abs() < 1e-9, "sum {total}");
    // Within one block of 1000 the law is proportional to e^{-10 l}.
    assert!((p[0] / p[1] - (0.01f64).exp()).abs() < 1e-12);
}

/// Draw `draws` selections with the sampler and test them against the law.
fn sampler_p_value(
    noise: Noise,
    losses: &[Q],
    beta: &Q,
    draws: usize,
    law_beta: &Q,
    seed: u64,
) -> f64 {
    let exact_law: Vec<Certified> = law(
        noise,
        losses,
        &Scale::beta(law_beta.clone()).unwrap(),
        &Precision(128),
    )
    .unwrap();
    let expected: Vec<f64> = exact_law.iter().map(Real::to_f64).collect();
    let losses_f64: Vec<f64> = losses.iter().map(Real::to_f64).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut counts = vec![0u64; losses.len()];
    for _ in 0..draws {
        counts[sampler::report_noisy_max(noise, &losses_f64, Real::to_f64(beta), &mut rng)] += 1;
    }
    common::chi_square_p_value(&counts, &expected)
}

fn chi_square_instance(k: usize) -> Vec<Q> {
    (0..k).map(|i| q((i * 3 % 7) as i64, 4)).collect()
}

#[test]
fn samplers_pass_chi_square_against_exact_laws() {
    for noise in Noise::ALL {
        for k in [2usize, 5, 20] {
            let seed = 20261122 + k as u64;
            let beta = q(1, 2);
            let losses = chi_square_instance(k);
            let p = sampler_p_value(noise, &losses, &beta, 20_000, &beta, seed);
            assert!(
                p > 1e-6,
                "sampler {noise}, K = {k}, beta = {beta}, losses {losses:?}, seed {seed}: p = {p}"
            );
        }
    }
}

#[test]
fn chi_square_detects_a_wrong_scale() {
    // The same sampler tested against the law at twice its scale must fail:
    // the chi-square test has the power to see a factor-2 error.
    for noise in Noise::ALL {
        let losses = chi_square_instance(5);
        let p = sampler_p_value(noise, &losses, &q(1, 2), 20_000, &q(1, 1), 7);
        assert!(p < 1e-6, "{noise}: a wrong scale went unnoticed (p = {p})");
    }
}
