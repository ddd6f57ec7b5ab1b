//! The oracle's time targets, on `wu-wang` with Gumbel noise, B = 1,
//! K = 3, T = 31, ε = 1, losses `(t/32, 1/2, 1 − t/32)` in round `t`:
//! - `gof` on 10⁶ sequences, from the NPY file to the verdict (reading the
//!   file, the certified law, the tests), under 2 s;
//! - `sample` under 1 µs per round per core: the same sampler on a
//!   one-thread pool, throughput in rounds;
//! - the bandit oracle on Anytime-Lazy-UCB, K = 2, T = 8, ε = 1, on one
//!   reward table: the whole law under 1 s, and `gof` of 10⁵ pull sequences
//!   from an NPY file (reading it, the law, the test) under 5 s.
//!
//! Each bench checks its answer before timing it.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dpdtol::algorithm::{AlgorithmId, BestOptions, Config};
use dpdtol::bandit::policy::BanditId;
use dpdtol::mechanism::Noise;
use dpdtol::num::Q;
use dpdtol::oracle::bandit::{self, BanditSpec, BanditTarget};
use dpdtol::oracle::gof::{gof, GofOptions};
use dpdtol::oracle::{io, sample, Target};
use std::hint::black_box;
use std::time::Duration;

const T: i64 = 31;

fn target() -> Target {
    let mut config = Config::new(AlgorithmId::WuWang, 3, Q::from_integer(1.into()));
    config.noise = Some(Noise::Gumbel);
    config.resample = true;
    let q = |n: i64, d: i64| Q::new(n.into(), d.into());
    let losses = (1..=T)
        .map(|t| vec![q(t, 32), q(1, 2), q(32 - t, 32)])
        .collect();
    Target::algorithm(config.build().unwrap(), losses).unwrap()
}

fn gof_million(c: &mut Criterion) {
    let target = target();
    let path = std::env::temp_dir().join(format!("dpdtol-bench-gof-{}.npy", std::process::id()));
    let law = target.law(BestOptions::default()).unwrap();
    io::write_samples(&path, &sample::sample(&law, 1_000_000, 1).unwrap(), 0).unwrap();
    let run = || {
        let samples = io::read_samples(&path, 0).unwrap();
        // As `dpdtol gof` does: the law to 20 certain digits.
        let law = target
            .law(BestOptions {
                digits: 20,
                ..BestOptions::default()
            })
            .unwrap();
        gof(&law, &samples, &GofOptions::default()).unwrap()
    };
    // Check: the crate's own samples pass, all 10⁶ of them read.
    let report = run();
    assert!(!report.reject && report.n == 1_000_000, "{report:?}");
    let mut group = c.benchmark_group("oracle");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("gof wu-wang K=3 T=31, 10^6 sequences from NPY", |b| {
        b.iter(|| black_box(run()))
    });
    group.finish();
    let _ = std::fs::remove_file(&path);
}

fn sample_per_round(c: &mut Criterion) {
    let target = target();
    let n = 20_000;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let law = target.law(BestOptions::default()).unwrap();
    // Check: one thread draws what the default pool draws.
    assert_eq!(
        pool.install(|| sample::sample(&law, 1000, 2).unwrap()),
        sample::sample(&law, 1000, 2).unwrap()
    );
    let mut group = c.benchmark_group("oracle");
    group.throughput(Throughput::Elements(n as u64 * T as u64));
    // The reference samples (exact draws from the certified law, the law
    // computed once) beside the f64 simulation of the algorithm.
    group.bench_function("sample wu-wang K=3 T=31, one core, per round", |b| {
        b.iter(|| pool.install(|| black_box(sample::sample(&law, n, 3).unwrap())))
    });
    group.bench_function("simulate wu-wang K=3 T=31, one core, per round", |b| {
        b.iter(|| pool.install(|| black_box(sample::simulate(&target, n, 3))))
    });
    group.finish();
}

/// Anytime-Lazy-UCB, K = 2, T = 8, ε = 1 on a fixed reward table.
fn bandit_target() -> BanditTarget {
    let q = |n: i64, d: i64| Q::new(n.into(), d.into());
    let rewards = [
        (1, 3),
        (4, 0),
        (2, 2),
        (0, 4),
        (3, 1),
        (4, 4),
        (0, 2),
        (3, 1),
    ]
    .iter()
    .map(|&(a, b)| vec![q(a, 4), q(b, 4)])
    .collect();
    BanditTarget::new(BanditSpec::new(BanditId::AnytimeLazyUcb, q(1, 1)), rewards).unwrap()
}

fn bandit_law_and_gof(c: &mut Criterion) {
    let target = bandit_target();
    // Check: the law totals 1 within its enclosure.
    let law = target.law(false).unwrap();
    let (lo, hi) = law.total();
    let one = Q::from_integer(1.into());
    assert!(lo <= one && one <= hi && law.entries().len() > 1);
    let path = std::env::temp_dir().join(format!("dpdtol-bench-bandit-{}.npy", std::process::id()));
    io::write_samples(&path, &bandit::sample(&law, 100_000, 1, false).unwrap(), 0).unwrap();
    let run = || {
        let samples = io::read_samples(&path, 0).unwrap();
        let law = target.law(false).unwrap();
        bandit::gof(&law, &samples, &GofOptions::default()).unwrap()
    };
    // Check: the oracle's own samples pass, all 10⁵ of them read.
    let report = run();
    assert!(!report.reject && report.n == 100_000, "{report:?}");
    let mut group = c.benchmark_group("oracle");
    group.sample_size(10);
    group.bench_function("law anytime-lazy-ucb K=2 T=8", |b| {
        b.iter(|| black_box(target.law(false).unwrap()))
    });
    group.bench_function(
        "gof anytime-lazy-ucb K=2 T=8, 10^5 sequences from NPY",
        |b| b.iter(|| black_box(run())),
    );
    group.finish();
    let _ = std::fs::remove_file(&path);
}

criterion_group!(benches, gof_million, sample_per_round, bandit_law_and_gof);
criterion_main!(benches);
