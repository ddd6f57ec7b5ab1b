//! Kernels of the mechanism laws, against their time targets:
//! - the whole exponential-noise law for K = 1000 at 256-bit certified
//!   precision, under 1 s: from the rational losses (weights included), and
//!   the kernel alone; baseline in the same run: the same kernel in f64;
//! - the softmax law for K = 10⁶ in f64, under 50 ms;
//! - the whole certified law as `dpdtol mechanism` computes it
//!   ([`mechanism::best_law`], 42 digits), Laplace at K = 50/100/200 and
//!   permute-and-flip at K = 200/1000/5000;
//! - the Laplace kernel alone at 576 bits, K = 50/100/200: the `O(K²)`
//!   transposed recurrence ([`laplace::law`]) beside the earlier `O(K³)`
//!   quotients ([`laplace::law_reference`]) in the same run. Measured
//!   (`--warm-up-time 1 --measurement-time 3`, 2 heavily shared cores, so
//!   the absolute times are inflated; the ratios are the figure): K = 50
//!   112 ms vs 362 ms (3.2×), K = 100 420 ms vs 2.31 s (5.5×), K = 200
//!   1.35 s vs 16.5 s (12.2×) — the ratio grows linearly with K, as
//!   `K³/3 ÷ 7K²` says.
//!
//! Each bench checks its answer before timing it.

use criterion::{criterion_group, criterion_main, Criterion};
use dpdtol::mechanism::{
    self, best_law, exponential, laplace, softmax, weights, BestLaw, Budget, Noise, Scale,
};
use dpdtol::num::{relative_width, Certified, Precision, Real, Q};
use std::hint::black_box;
use std::time::Duration;

/// K = 1000 distinct losses spread over [0, 10).
fn losses(k: usize) -> Vec<Q> {
    (0..k)
        .map(|i| Q::new((((i * 7919) % k) as i64).into(), 100.into()))
        .collect()
}

fn exponential_law(c: &mut Criterion) {
    let losses = losses(1000);
    let scale = Scale::beta(Q::from_integer(1.into())).unwrap();
    let certified: Vec<Certified> = weights(&losses, &scale, &Precision(256)).unwrap();
    let approximate: Vec<f64> = weights(&losses, &scale, &()).unwrap();

    // Check: the law encloses a distribution, each entry to ≥ 60 digits, and
    // the f64 kernel agrees.
    let law = exponential::law(&certified);
    let total = law.iter().cloned().reduce(|a, b| a + b).unwrap();
    let (lo, hi) = total.enclosure().unwrap();
    assert!(lo <= Q::from_integer(1.into()) && hi >= Q::from_integer(1.into()));
    let tight = Q::new(1.into(), num_bigint::BigInt::from(10).pow(60));
    for (p, f) in law.iter().zip(exponential::law(&approximate)) {
        let (lo, hi) = p.enclosure().unwrap();
        assert!(relative_width(&lo, &hi).unwrap() < tight);
        assert!((p.to_f64() - f).abs() <= 1e-12 * f);
    }

    let mut group = c.benchmark_group("exponential_law_k1000");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("certified_256_bits_from_losses", |b| {
        b.iter(|| {
            mechanism::law::<Certified>(
                Noise::Exponential,
                black_box(&losses),
                &scale,
                &Precision(256),
            )
            .unwrap()
        })
    });
    group.bench_function("certified_256_bits_kernel", |b| {
        b.iter(|| exponential::law(black_box(&certified)))
    });
    group.bench_function("f64_baseline", |b| {
        b.iter(|| exponential::law(black_box(&approximate)))
    });
    group.finish();
}

fn softmax_law(c: &mut Criterion) {
    let losses: Vec<f64> = (0..1_000_000)
        .map(|i| ((i * 7919) % 1000) as f64 / 1000.0)
        .collect();
    let law = softmax::law(&softmax::weights_f64(&losses, 0.5));
    assert!((law.iter().sum::<f64>() - 1.0).abs() < 1e-9);

    let mut group = c.benchmark_group("softmax_law_k1e6");
    group.sample_size(20);
    group.bench_function("f64_weights_and_law", |b| {
        b.iter(|| softmax::law(&softmax::weights_f64(black_box(&losses), 0.5)))
    });
    group.finish();
}

/// The law `dpdtol mechanism` prints, 42 digits, checked to sum to 1 within
/// its enclosures with every entry accepted.
fn best_laws(c: &mut Criterion) {
    let scale = Scale::beta(Q::from_integer(1.into())).unwrap();
    let run = |noise: Noise, losses: &[Q]| {
        best_law(noise, losses, &scale, 42, Budget::default()).unwrap()
    };
    let mut group = c.benchmark_group("best_law");
    group.sample_size(10);
    for (noise, k) in [
        (Noise::Laplace, 50),
        (Noise::Laplace, 100),
        (Noise::Laplace, 200),
        (Noise::Exponential, 200),
        (Noise::Exponential, 1000),
        (Noise::Exponential, 5000),
    ] {
        let losses = losses(k);
        let BestLaw::Certified { law, accepted, .. } = run(noise, &losses) else {
            panic!("a certified law");
        };
        assert!(accepted, "{noise} K = {k}: 42 digits");
        let total = law.iter().cloned().reduce(|a, b| a + b).unwrap();
        let (lo, hi) = total.enclosure().unwrap();
        assert!(lo <= Q::from_integer(1.into()) && hi >= Q::from_integer(1.into()));
        group.bench_function(format!("{noise}_k{k}"), |b| {
            b.iter(|| run(noise, black_box(&losses)))
        });
    }
    group.finish();
}

/// The Laplace kernel by both evaluations, checked to agree (enclosures
/// meet, both narrow) before timing.
fn laplace_kernels(c: &mut Criterion) {
    let scale = Scale::beta(Q::from_integer(1.into())).unwrap();
    let bits = Precision(576);
    let mut group = c.benchmark_group("laplace_kernel_576_bits");
    group.sample_size(10);
    for k in [50, 100, 200] {
        let losses = losses(k);
        let fast: Vec<Certified> = laplace::law(&losses, &scale, &bits).unwrap();
        let reference: Vec<Certified> = laplace::law_reference(&losses, &scale, &bits).unwrap();
        let tight = Q::new(1.into(), num_bigint::BigInt::from(10).pow(42));
        for (a, r) in fast.iter().zip(&reference) {
            let ((alo, ahi), (rlo, rhi)) = (a.enclosure().unwrap(), r.enclosure().unwrap());
            assert!(
                alo <= rhi && rlo <= ahi,
                "K = {k}: the two evaluations disagree"
            );
            assert!(relative_width(&alo, &ahi).unwrap() < tight);
        }
        group.bench_function(format!("transposed_k{k}"), |b| {
            b.iter(|| laplace::law::<Certified>(black_box(&losses), &scale, &bits).unwrap())
        });
        group.bench_function(format!("quotients_k{k}"), |b| {
            b.iter(|| {
                laplace::law_reference::<Certified>(black_box(&losses), &scale, &bits).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    exponential_law,
    softmax_law,
    best_laws,
    laplace_kernels
);
criterion_main!(benches);
