//! Exact pseudo-regret, against its time targets:
//! - deterministic setting, T = 2⁴⁰, 256-bit certified: wu-wang with Gumbel
//!   noise at K = 10⁴ (closed form by repeated squaring; target < 1 s) and
//!   prefix-softmax at K = 10³ (exact prefix terms + integral enclosure);
//!   f64 baselines;
//! - Bernoulli setting, wu-wang Gumbel, K = 3, 192-bit certified: the
//!   default engine (Laplace-transform quadrature for all but small
//!   choices) at T = 2⁸ − 1 and T = 2¹⁰ − 1 (target < 60 s)
//!   under criterion, the enumeration alone at T = 2⁸ − 1; with
//!   `DPDTOL_BENCH_LONG=1`, one timing each of every engine as K and T grow
//!   (K = 3 at T = 2⁸, 2¹⁰, 2¹² − 1; K = 2, 5 at T = 2¹⁰ − 1; the
//!   enumeration only where it takes minutes, not hours).
//!
//! Each bench checks its answer before timing it.

use criterion::{criterion_group, criterion_main, Criterion};
use dpdtol::algorithm::epoch_rnm::FirstAction;
use dpdtol::mechanism::Noise;
use dpdtol::num::{relative_width, Certified, Precision, Real, Q};
use dpdtol::regret::bernoulli::{regret_with, Engine};
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
    let bits = Precision(192);
    let instance = |k: usize| {
        Instance::new(if k == 3 {
            vec![
                Q::new(1.into(), 10.into()),
                Q::new(1.into(), 5.into()),
                Q::new(1.into(), 2.into()),
            ]
        } else {
            means(k)
        })
        .unwrap()
    };
    let plan = gumbel(1);
    let run = |inst: &Instance, t: u128, engine: Engine| -> RegretCurve<Certified> {
        regret_with(&plan, inst, t, &bits, None, engine).unwrap()
    };
    // Check first: at T = 2^8 − 1 the quadrature and the enumeration agree
    // to 30 digits, each is 30 digits wide at most, and f64 agrees.
    let inst = instance(3);
    let quadrature = run(&inst, 255, Engine::Quadrature).total(&bits);
    let enumeration = run(&inst, 255, Engine::Enumeration).total(&bits);
    let tight = Q::new(1.into(), BigInt::from(10).pow(30));
    for total in [&quadrature, &enumeration] {
        let (lo, hi) = total.enclosure().unwrap();
        assert!(relative_width(&lo, &hi).unwrap() < tight, "not 30 digits");
    }
    let (q_lo, q_hi) = quadrature.enclosure().unwrap();
    let (e_lo, e_hi) = enumeration.enclosure().unwrap();
    assert!(q_lo <= e_hi && e_lo <= q_hi, "the engines disagree");
    let spread = q_hi.max(e_hi) - q_lo.clone().min(e_lo);
    assert!(spread < tight * q_lo, "the engines differ beyond 30 digits");
    let float: RegretCurve<f64> =
        regret::regret(&plan, &inst, Setting::Bernoulli, 255, &(), None).unwrap();
    assert!((quadrature.to_f64() - float.total(&())).abs() < 1e-9);
    if std::env::var("DPDTOL_BENCH_LONG").is_ok_and(|v| v == "1") {
        // One timing each: K = 3 at T = 2^8, 2^10, 2^12 − 1 and K = 2, 5 at
        // T = 2^10 − 1, the default engine (quadrature beyond small n) and,
        // where it takes a few minutes at most, the enumeration alone.
        for (k, t, enumerate) in [
            (3, 255u128, true),
            (3, 1023, true),
            (3, 4095, false),
            (2, 1023, true),
            (5, 1023, false),
        ] {
            let inst = instance(k);
            let engines: &[Engine] = if enumerate {
                &[Engine::Auto, Engine::Quadrature, Engine::Enumeration]
            } else {
                &[Engine::Auto, Engine::Quadrature]
            };
            for &engine in engines {
                let start = Instant::now();
                let total = run(&inst, t, engine).total(&bits);
                let (lo, hi) = total.enclosure().unwrap();
                eprintln!(
                    "bernoulli wu-wang gumbel K = {k}, T = {t}, 192-bit certified, {engine:?}: {:.2} s, regret {} (relative width {:.1e})",
                    start.elapsed().as_secs_f64(),
                    total.to_f64(),
                    relative_width(&lo, &hi).unwrap().to_f64()
                );
            }
        }
    }
    let mut group = c.benchmark_group("bernoulli_wu_wang_gumbel_k3");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("t255_certified_192_bits_auto", |b| {
        b.iter(|| run(black_box(&inst), 255, Engine::Auto))
    });
    group.bench_function("t255_certified_192_bits_enumeration", |b| {
        b.iter(|| run(black_box(&inst), 255, Engine::Enumeration))
    });
    group.bench_function("t1023_certified_192_bits_auto", |b| {
        b.iter(|| run(black_box(&inst), 1023, Engine::Auto))
    });
    group.finish();
}

criterion_group!(benches, deterministic, bernoulli);
criterion_main!(benches);
