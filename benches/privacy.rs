//! The exhaustive privacy checker (against its time targets, whole
//! `check` runs on the default thread pool, no progress bar):
//! - prefix-softmax, K = 2, alphabet {0,1}, horizon 7, ε = 1 (344 064
//!   ordered pairs): under 2 s; horizon 15 (structural): under 10 s;
//! - wu-wang with Gumbel noise, K = 3, alphabet {0,1}, horizon 4, ε = 1
//!   (114 688 ordered pairs): under 0.5 s; K = 2, horizon 1023
//!   (structural, gaps statistic): under 10 s; K = 2, horizon 6 by the
//!   enumeration method (`--method enumeration`, every one of the 73 728
//!   ordered pairs), whose maximum must be the structural method's;
//!
//! - one-shot report-noisy-max (`privacy::one_shot`), each
//!   noise at its textbook scale 2/ε, ε = 1, `linf:1` neighbours: K = 3 on
//!   V = {0..6}, 343 inputs (6 516 ordered pairs): under 50 ms; K = 3 on
//!   V = {0..15}, 4096 inputs (97 336 ordered pairs): under 5 s; and with
//!   `any` neighbours on those 4096 inputs (16 773 120 ordered pairs); the
//!   baseline (group `one_shot_baseline`) evaluates every pair from its two
//!   inputs' laws, without the classes of equal gaps;
//!
//! and how the cost grows with the horizon t, the number of actions K and
//! the alphabet size |V| (group `privacy_scaling`); the bandit checks
//! (group `bandit_privacy`): anytime-lazy-ucb, K = 2, rewards {0,1},
//! ε = 1 at T = 4, 6 (target: T = 6 under 30 s), 8, dp-se with
//! `R_e = 1` at T = 8, and hybrid-ucb (inferred scales) at T = 4, 5.
//!
//! Each bench checks its answer before timing it.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dpdtol::algorithm::{AlgorithmId, Config};
use dpdtol::bandit::law::anytime_lazy_ucb::LazyUcbParams;
use dpdtol::bandit::law::dp_se::DpSeParams;
use dpdtol::bandit::law::hybrid_ucb::HybridLawParams;
use dpdtol::bandit::law::PullLaw;
use dpdtol::mechanism::Noise;
use dpdtol::num::{Certified, Precision, Real, Q};
use dpdtol::privacy::bandit::exact::check as bandit_check;
use dpdtol::privacy::one_shot::{self, Neighbours, OneShot, OneShotOptions};
use dpdtol::privacy::{check, Method, Options, Problem, Report, Verdict};
use std::hint::black_box;
use std::time::Duration;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

fn alphabet(size: i64) -> Vec<Q> {
    (0..size).map(|i| q(i, size - 1)).collect()
}

fn prefix_softmax() -> Config {
    Config::new(AlgorithmId::PrefixSoftmax, 2, q(1, 1))
}

fn wu_wang_gumbel(k: usize) -> Config {
    let mut config = Config::new(AlgorithmId::WuWang, k, q(1, 1));
    config.noise = Some(Noise::Gumbel);
    config
}

fn run(config: &Config, horizon: usize, size: i64) -> Report {
    run_by(config, horizon, size, Method::default())
}

fn run_by(config: &Config, horizon: usize, size: i64, method: Method) -> Report {
    let algorithm = config.build().unwrap();
    let problem = Problem::new(horizon, alphabet(size), config.epsilon.clone()).unwrap();
    let options = Options {
        method,
        ..Options::default()
    };
    check(&algorithm, &problem, &options).unwrap()
}

/// `e^x` enclosed at 128 bits.
fn exp(x: Q) -> (Q, Q) {
    Certified::from_rational(&x, &Precision(128))
        .exp()
        .unwrap()
        .enclosure()
        .unwrap()
}

fn targets(c: &mut Criterion) {
    // Check: prefix-softmax is private within e^{2η} = e^{1/4}, over every pair.
    let report = run(&prefix_softmax(), 7, 2);
    assert_eq!(report.verdict, Verdict::Private);
    assert_eq!(report.method, dpdtol::privacy::Method::Structural);
    assert!(*report.max_ratio.hi().unwrap() <= exp(q(1, 4)).0);
    assert!(*report.max_ratio.lo().unwrap() > q(1, 1));
    // Check: wu-wang with Gumbel(2/ε) is private, and its worst pair is an
    // epoch of two rounds (the gap of two actions moves by 2).
    let report = run(&wu_wang_gumbel(3), 4, 2);
    assert_eq!(report.verdict, Verdict::Private);
    assert_eq!(report.method, dpdtol::privacy::Method::Structural);
    assert!([2, 3].contains(&report.witness.round));

    let mut group = c.benchmark_group("privacy");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("prefix_softmax_k2_binary_t7", |b| {
        b.iter(|| run(black_box(&prefix_softmax()), 7, 2))
    });
    group.bench_function("wu_wang_gumbel_k3_binary_t4", |b| {
        b.iter(|| run(black_box(&wu_wang_gumbel(3)), 4, 2))
    });
    // Far past enumeration. Check: private, within e^ε.
    let report = run(&prefix_softmax(), 15, 2);
    assert_eq!(report.verdict, Verdict::Private);
    assert!(*report.max_ratio.hi().unwrap() <= exp(q(1, 4)).0);
    group.bench_function("prefix_softmax_k2_binary_t15", |b| {
        b.iter(|| run(black_box(&prefix_softmax()), 15, 2))
    });
    let report = run(&wu_wang_gumbel(2), 1023, 2);
    assert_eq!(report.verdict, Verdict::Private);
    assert!(!report.attained);
    group.bench_function("wu_wang_gumbel_k2_binary_t1023", |b| {
        b.iter(|| run(black_box(&wu_wang_gumbel(2)), 1023, 2))
    });
    // The enumeration method, every ordered pair (4^6 sequences × 6 rounds
    // × 3 replacement vectors). Check: its maximum is the structural one.
    let report = run_by(&wu_wang_gumbel(2), 6, 2, Method::Enumeration);
    assert_eq!(report.verdict, Verdict::Private);
    assert_eq!(report.pairs, 73_728);
    assert_eq!(report.max_ratio, run(&wu_wang_gumbel(2), 6, 2).max_ratio);
    group.bench_function("enumeration_wu_wang_gumbel_k2_binary_t6", |b| {
        b.iter(|| run_by(black_box(&wu_wang_gumbel(2)), 6, 2, Method::Enumeration))
    });
    group.finish();
}

fn scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("privacy_scaling");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    for t in [4, 6, 8, 10] {
        let report = run(&prefix_softmax(), t, 2);
        assert_eq!(report.verdict, Verdict::Private);
        group.bench_with_input(
            BenchmarkId::new("prefix_softmax_k2_binary_horizon", t),
            &t,
            |b, &t| b.iter(|| run(&prefix_softmax(), t, 2)),
        );
    }
    for k in [2, 3, 4] {
        let report = run(&wu_wang_gumbel(k), 3, 2);
        assert_eq!(report.verdict, Verdict::Private);
        group.bench_with_input(
            BenchmarkId::new("wu_wang_gumbel_binary_t3_actions", k),
            &k,
            |b, &k| b.iter(|| run(&wu_wang_gumbel(k), 3, 2)),
        );
    }
    for size in [2, 3, 4, 5] {
        let report = run(&prefix_softmax(), 4, size);
        assert_eq!(report.verdict, Verdict::Private);
        group.bench_with_input(
            BenchmarkId::new("prefix_softmax_k2_t4_alphabet", size),
            &size,
            |b, &size| b.iter(|| run(&prefix_softmax(), 4, size)),
        );
    }
    group.finish();
}

/// The certified bandit check at 128 bits; its outcome's upper end.
fn bandit(law: &impl PullLaw, horizon: usize) -> Q {
    let outcome =
        bandit_check::<Certified>(law, horizon, &alphabet(2), false, &Precision(128)).unwrap();
    outcome.max_ratio.unwrap().1
}

fn bandit_privacy(c: &mut Criterion) {
    let mut group = c.benchmark_group("bandit_privacy");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    let lazy = LazyUcbParams::printed(q(1, 1));
    for t in [4, 6, 8] {
        // Check: Theorem 2 holds here (README table), the ratio below e.
        assert!(bandit(&lazy, t) < exp(q(1, 1)).0);
        group.bench_with_input(
            BenchmarkId::new("anytime_lazy_ucb_k2_binary_eps1_horizon", t),
            &t,
            |b, &t| b.iter(|| bandit(black_box(&lazy), t)),
        );
    }
    let mut dp_se = DpSeParams::printed(q(1, 1), 8).unwrap();
    dp_se.lengths = vec![1];
    dp_se.printed_lengths = false;
    assert!(bandit(&dp_se, 8) < exp(q(1, 1)).0);
    group.bench_function("dp_se_k2_binary_eps1_epoch_length1_horizon8", |b| {
        b.iter(|| bandit(black_box(&dp_se), 8))
    });
    // Hybrid-UCB's certified laws (measure::polyhedral): the inferred scales
    // are private at T = 4, 5 (README table), the ratio below e.
    let hybrid = HybridLawParams::inferred(q(1, 1));
    for t in [4, 5] {
        assert!(bandit(&hybrid, t) < exp(q(1, 1)).0);
        group.bench_with_input(
            BenchmarkId::new("hybrid_ucb_k2_binary_eps1_horizon", t),
            &t,
            |b, &t| b.iter(|| bandit(black_box(&hybrid), t)),
        );
    }
    group.finish();
}

/// Report-noisy-max with `noise` at scale 2/ε (ε = 1) over `V = {0..size−1}`
/// on K = 3 actions.
fn one_shot_problem(noise: Noise, size: i64, neighbours: Neighbours) -> OneShot {
    let values = (0..size).map(|v| q(v, 1)).collect();
    OneShot::new(noise, 3, values, neighbours, q(1, 1), None).unwrap()
}

fn linf1() -> Neighbours {
    Neighbours::Linf(q(1, 1))
}

/// The baseline: every allowed ordered pair evaluated from its inputs' laws
/// (each input's law computed once, no classes of equal gaps), at 128 bits;
/// the largest lower end of `max_a P(a|x)/P(a|x')`.
fn every_pair(problem: &OneShot) -> f64 {
    use dpdtol::mechanism::{law, Scale};
    use num_traits::Signed;
    use rayon::prelude::*;
    let bits = Precision(128);
    let scale = Scale::beta(problem.scale.clone()).unwrap();
    let size = problem.alphabet.len();
    let input = |i: usize| -> Vec<Q> {
        (0..3)
            .map(|j| problem.alphabet[(i / size.pow(2 - j)) % size].clone())
            .collect()
    };
    let n = size.pow(3);
    let laws: Vec<Vec<Certified>> = (0..n)
        .into_par_iter()
        .map(|i| law::<Certified>(problem.noise, &input(i), &scale, &bits).unwrap())
        .collect();
    (0..n)
        .into_par_iter()
        .map(|i| {
            let x = input(i);
            let mut best = 0.0f64;
            for (k, y) in (0..n).map(|k| (k, input(k))) {
                let near = x.iter().zip(&y).all(|(a, b)| match &problem.neighbours {
                    Neighbours::Linf(d) => (a - b).abs() <= *d,
                    _ => true,
                });
                if k == i || !near {
                    continue;
                }
                for (num, den) in laws[i].iter().zip(&laws[k]) {
                    let r = (num.clone() / den).enclosure().unwrap().0;
                    best = best.max(Real::to_f64(&r));
                }
            }
            best
        })
        .reduce(|| 0.0, f64::max)
}

fn one_shot_targets(c: &mut Criterion) {
    let mut group = c.benchmark_group("one_shot");
    group.sample_size(10);
    let options = OneShotOptions::default();
    for noise in Noise::ALL {
        for (size, neighbours, label) in [
            (7, linf1(), "k3_7values_linf1"),
            (16, linf1(), "k3_16values_linf1"),
            (16, Neighbours::Any, "k3_16values_any"),
        ] {
            let problem = one_shot_problem(noise, size, neighbours);
            // Check: private at the textbook scale; exponential noise
            // attains e^ε under linf:1 (tests/one_shot.rs).
            let out = one_shot::check(&problem, &options).unwrap();
            assert_eq!(out.report.verdict, Verdict::Private);
            assert_eq!(
                out.report.attained,
                noise == Noise::Exponential && label.ends_with("linf1")
            );
            assert_eq!(out.inputs, (size as u64).pow(3));
            group.bench_function(format!("{noise}_{label}"), |b| {
                b.iter(|| one_shot::check(black_box(&problem), &options).unwrap())
            });
        }
    }
    group.finish();
}

fn one_shot_baseline(c: &mut Criterion) {
    let mut group = c.benchmark_group("one_shot_baseline");
    group.sample_size(10);
    for noise in Noise::ALL {
        let problem = one_shot_problem(noise, 7, linf1());
        // Check: the baseline finds the structural maximum (lower ends).
        let out = one_shot::check(&problem, &OneShotOptions::default()).unwrap();
        let lo = Real::to_f64(out.report.max_ratio.lo().unwrap());
        assert!((every_pair(&problem) - lo).abs() <= 1e-12 * lo);
        group.bench_function(format!("{noise}_k3_7values_linf1_every_pair"), |b| {
            b.iter(|| every_pair(black_box(&problem)))
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    targets,
    scaling,
    one_shot_targets,
    one_shot_baseline,
    bandit_privacy
);
criterion_main!(benches);
