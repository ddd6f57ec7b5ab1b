//! Exact pseudo-regret (issue 4's targets):
//! - deterministic setting, T = 2⁴⁰, 256-bit certified: wu-wang with Gumbel
//!   noise at K = 10⁴ (closed form by repeated squaring; target < 1 s) and
//!   prefix-softmax at K = 10³ (exact prefix terms + integral enclosure);
//!   f64 baselines;
//! - Bernoulli setting, wu-wang Gumbel, K = 3: T = 2⁸ − 1 under criterion,
//!   and the T = 2¹⁰ − 1 (target < 60 s) timed once when
//!   `DPDTOL_BENCH_LONG=1` (it takes about a minute).
//!
//! Each bench checks its answer before timing it.

use criterion::{criterion_group, criterion_main, Criterion};
use dpdtol::algorithm::epoch_rnm::FirstAction;
use dpdtol::mechanism::Noise;
use dpdtol::num::{relative_width, Certified, Precision, Real, Q};
use dpdtol::regret::{self, Instance, Plan, RegretCurve, Setting};
use num_bigint::BigInt;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// K means: action 1 best at 0, the others spread over [0.1, 1) (a
/// deterministic pseudo-random pattern), so Δmin ≥ 0.1.
fn means(k: usize) -> Vec<Q> {
    (0..k)
        .map(|i| {
            if i == 0 {
                Q::from_integer(0.into())
            } else {
                Q::new(1.into(), 10.into())
                    + Q::new((((i * 7919) % 100_003) as i64 * 9).into(), 1_000_030.into())
            }
        })
        .collect()
}

fn gumbel(epsilon: i64) -> Plan {
    Plan::Epoch {
        first: FirstAction::Uniform,
        noise: Noise::Gumbel,
        scale: Q::new(2.into(), epsilon.into()),
        resample: false,
    }
}

fn prefix() -> Plan {
    Plan::Prefix {
        eta: Q::new(1.into(), 8.into()),
    }
}

fn check(certified: &RegretCurve<Certified>, float: &RegretCurve<f64>, digits: u32) {
    let bits = Precision(256);
    let total = certified.total(&bits);
    let (lo, hi) = total.enclosure().unwrap();
    let tight = Q::new(1.into(), BigInt::from(10).pow(digits));
    assert!(
        relative_width(&lo, &hi).unwrap() < tight,
        "not {digits} digits"
    );
    let f = float.total(&());
    assert!((total.to_f64() - f).abs() <= 1e-9 * f, "f64 disagrees");
}

fn deterministic(c: &mut Criterion) {
    let horizon = 1u128 << 40;
    let bits = Precision(256);
    // prefix-softmax sums max(32, 2^18/K) prefix terms per block exactly (its
    // work budget) and encloses the rest: at ηΔmin = 1/80 that leaves a few
    // certain digits only, so it is checked to 3 digits, at K = 10³.
    for (name, plan, digits, k) in [
        ("wu_wang_gumbel", gumbel(1), 30, 10_000),
        ("prefix_softmax_k1e3", prefix(), 3, 1_000),
    ] {
        let inst = Instance::new(means(k)).unwrap();
        let certified: RegretCurve<Certified> =
            regret::regret(&plan, &inst, Setting::Deterministic, horizon, &bits, None).unwrap();
        let float: RegretCurve<f64> =
            regret::regret(&plan, &inst, Setting::Deterministic, horizon, &(), None).unwrap();
        check(&certified, &float, digits);
        let mut group = c.benchmark_group(format!("deterministic_t2e40_{name}"));
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(15));
        group.bench_function("certified_256_bits", |b| {
            b.iter(|| {
                regret::regret::<Certified>(
                    &plan,
                    black_box(&inst),
                    Setting::Deterministic,
                    horizon,
                    &bits,
                    None,
                )
                .unwrap()
            })
        });
        group.bench_function("f64_baseline", |b| {
            b.iter(|| {
                regret::regret::<f64>(
                    &plan,
                    black_box(&inst),
                    Setting::Deterministic,
                    horizon,
                    &(),
                    None,
                )
                .unwrap()
            })
        });
        group.finish();
    }
}

fn bernoulli(c: &mut Criterion) {
    let inst = Instance::new(vec![
        Q::new(1.into(), 10.into()),
        Q::new(1.into(), 5.into()),
        Q::new(1.into(), 2.into()),
    ])
    .unwrap();
    let plan = gumbel(1);
    let bits = Precision(192);
    let run = |t: u128| -> RegretCurve<Certified> {
        regret::regret(&plan, &inst, Setting::Bernoulli, t, &bits, None).unwrap()
    };
    let small = run(255);
    let float: RegretCurve<f64> =
        regret::regret(&plan, &inst, Setting::Bernoulli, 255, &(), None).unwrap();
    let (lo, hi) = small.total(&bits).enclosure().unwrap();
    assert!(relative_width(&lo, &hi).unwrap() < Q::new(1.into(), BigInt::from(10).pow(30)));
    assert!((small.total(&bits).to_f64() - float.total(&())).abs() < 1e-9);
    if std::env::var("DPDTOL_BENCH_LONG").is_ok_and(|v| v == "1") {
        let start = Instant::now();
        let full = run(1023);
        eprintln!(
            "bernoulli wu-wang gumbel K = 3, T = 2^10 - 1, 192-bit certified: {:.1} s, regret {}",
            start.elapsed().as_secs_f64(),
            full.total(&bits).to_f64()
        );
    }
    let mut group = c.benchmark_group("bernoulli_wu_wang_gumbel_k3");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("t255_certified_192_bits", |b| {
        b.iter(|| run(black_box(255)))
    });
    group.finish();
}

criterion_group!(benches, deterministic, bernoulli);
criterion_main!(benches);
