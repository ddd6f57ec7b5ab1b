//! The oracle's time targets, on `wu-wang` with Gumbel noise, B = 1,
//! K = 3, T = 31, ε = 1, losses `(t/32, 1/2, 1 − t/32)` in round `t`:
//! - `gof` on 10⁶ sequences, from the NPY file to the verdict (reading the
//!   file, the certified law, the tests), under 2 s;
//! - `sample` under 1 µs per round per core: the same sampler on a
//!   one-thread pool, throughput in rounds.
//!
//! Each bench checks its answer before timing it.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dpdtol::algorithm::{AlgorithmId, BestOptions, Config};
use dpdtol::mechanism::Noise;
use dpdtol::num::Q;
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

criterion_group!(benches, gof_million, sample_per_round);
criterion_main!(benches);
