//! One simulated run of each bandit algorithm at the papers' scale (004 §6:
//! K = 5, T = 10⁶, means {0.75, 0.625, 0.5, 0.375, 0.25}, ε = 1/4). Each run's
//! answer is checked (pulls sum to T, regret within [0, Δ_max T]) before it is
//! timed. A baseline in the same group, `baseline-1e6-bernoulli-draws` (T
//! Bernoulli rewards drawn one by one from the same generator, what any
//! round-by-round simulation pays at least), gives each algorithm's time as a
//! ratio that a loaded machine inflates less than the times themselves.
//!
//! `dp_ucb_law_k2_t8`: the whole certified law of DP-UCB's pull sequence
//! (Mishra & Thakurta 2015; 64 pull sequences, each a polyhedron in the
//! binary mechanism's node noises) on one K = 2, T = 8 reward table, checked
//! to sum to 1 within its enclosure before it is timed.
//! `dp_ucb_bound_law_k2_t8`: the same for DP-UCB-Bound (Tossou &
//! Dimitrakakis 2016; a polyhedron in the Hybrid mechanism's noises).
//! `dp_ucb_int_law_k2_t8`: the same for DP-UCB-INT (Tossou & Dimitrakakis
//! 2016, Algorithm 3) at ε = 1 (interval 1: a product of per-round closed
//! forms with irrational noise scales `n^{v/2 − 1}`), and
//! `dp_ucb_int_law_k2_t8_interval_2` at ε = 1/2 (kept indices: a forest of
//! draws integrated by `measure::laplace_line`).
//! `thompson_law_k2_t12`: the whole exact law of Thompson sampling with
//! Beta(1, 1) priors (4096 pull sequences, rational) on the 0/1 table
//! 0xbeef, checked to sum to exactly 1 first.
//! `dp_ts_bounds_k2_t5`: certified bounds on DP-TS's whole law (8 pull
//! sequences, each a sum over the cells of its draws; the arms' cell laws
//! measured fresh in every iteration) on the table `[[1, 0], [0, 1], …]`
//! at the inferred defaults, checked to enclose a total of 1 first.

use criterion::{criterion_group, criterion_main, Criterion};
use dpdtol::bandit::law::dp_ucb::DpUcbParams;
use dpdtol::bandit::law::dp_ucb_bound::DpUcbBoundParams;
use dpdtol::bandit::law::dp_ucb_int::DpUcbIntParams;
use dpdtol::bandit::law::law;
use dpdtol::bandit::law::PullLaw;
use dpdtol::bandit::policy::sim::{checkpoints, simulate_run, RewardLaw};
use dpdtol::bandit::policy::{BanditConfig, BanditId, NoiseRng};
use dpdtol::num::{Certified, Precision, Real, Q};
use rand::{Rng, SeedableRng};
use std::hint::black_box;

fn bandit(c: &mut Criterion) {
    let horizon = 1_000_000u64;
    let law = RewardLaw::bernoulli(vec![0.75, 0.625, 0.5, 0.375, 0.25]).expect("valid means");
    let marks = checkpoints(horizon, 10);
    let mut group = c.benchmark_group("bandit_run_k5_t1e6");
    group.sample_size(10);
    let mut rng = NoiseRng::seed_from_u64(7);
    let ones = (0..horizon).filter(|_| rng.random::<f64>() < 0.75).count() as f64;
    assert!(
        (ones / horizon as f64 - 0.75).abs() < 0.01,
        "baseline: frequency {ones}"
    );
    group.bench_function("baseline-1e6-bernoulli-draws", |b| {
        b.iter(|| {
            let ones = (0..horizon).filter(|_| rng.random::<f64>() < 0.75).count();
            black_box(ones)
        })
    });
    for id in BanditId::ALL {
        let config = BanditConfig::new(id, 0.25);
        let run = simulate_run(&config, &law, horizon, &marks, 7, 0).expect("valid configuration");
        assert_eq!(
            run.pulls.iter().sum::<u64>(),
            horizon,
            "{id}: pulls must sum to T"
        );
        let last = *run.regret.last().expect("checkpoints are not empty");
        assert!(
            (0.0..=0.5 * horizon as f64).contains(&last),
            "{id}: regret {last}"
        );
        let mut index = 0u64;
        group.bench_function(id.name(), |b| {
            b.iter(|| {
                index += 1;
                black_box(simulate_run(&config, &law, horizon, &marks, 7, index))
            })
        });
    }
    group.finish();
}

/// Time the whole certified law of `params` on the K = 2, T = 8 table
/// 0xbeef (round t, arm j: reward bit 2t + j), checked to sum to 1 within
/// a narrow enclosure and to have its `sequences` pull sequences first.
fn whole_law_k2_t8<L: PullLaw>(c: &mut Criterion, group: &str, params: &L, sequences: usize) {
    let horizon = 8;
    let rewards: Vec<[Q; 2]> = (0..horizon)
        .map(|t| [0, 1].map(|j| Q::from_integer(((0xbeefu32 >> (2 * t + j)) & 1).into())))
        .collect();
    let bits = Precision(128);
    let whole = law::<Certified>(params, &rewards, &bits).expect("the law");
    assert_eq!(whole.len(), sequences, "{sequences} pull sequences");
    let total = whole
        .iter()
        .fold(Certified::from_int(0, &bits), |acc, (_, p)| acc + p);
    let (lo, hi) = total.enclosure().expect("an enclosure");
    let one = Q::from_integer(1.into());
    assert!(lo <= one && one <= hi, "the law sums to [{lo}, {hi}]");
    assert!(
        &hi - &lo < Q::new(1.into(), (1u64 << 40).into()),
        "a wide enclosure"
    );
    let mut group = c.benchmark_group(group);
    group.sample_size(10);
    group.bench_function("whole-law", |b| {
        b.iter(|| black_box(law::<Certified>(params, &rewards, &bits).expect("the law")))
    });
    group.finish();
}

fn dp_ucb_law(c: &mut Criterion) {
    let params = DpUcbParams::printed(Q::from_integer(1.into()), 8);
    whole_law_k2_t8(c, "dp_ucb_law_k2_t8", &params, 64);
}

fn dp_ucb_bound_law(c: &mut Criterion) {
    let params = DpUcbBoundParams::printed(Q::from_integer(1.into()));
    whole_law_k2_t8(c, "dp_ucb_bound_law_k2_t8", &params, 64);
}

fn dp_ucb_int_law(c: &mut Criterion) {
    let params = DpUcbIntParams::printed(Q::from_integer(1.into()));
    whole_law_k2_t8(c, "dp_ucb_int_law_k2_t8", &params, 64);
    let params = DpUcbIntParams::printed(Q::new(1.into(), 2.into()));
    // 2·2 rounds of round-robin, then 2^4 sequences.
    whole_law_k2_t8(c, "dp_ucb_int_law_k2_t8_interval_2", &params, 16);
}

fn thompson_law(c: &mut Criterion) {
    let rewards: Vec<Vec<Q>> = (0..12)
        .map(|t| {
            (0..2)
                .map(|j| Q::from_integer(((0xbeefu32 >> ((2 * t + j) % 16)) & 1).into()))
                .collect()
        })
        .collect();
    let whole = dpdtol::bandit::law::thompson::law(&rewards, 1 << 16, false).expect("the law");
    assert_eq!(whole.len(), 4096, "4096 pull sequences");
    let total = whole
        .iter()
        .fold(Q::from_integer(0.into()), |acc, (_, p)| acc + p);
    assert_eq!(total, Q::from_integer(1.into()), "the law sums to {total}");
    let mut group = c.benchmark_group("thompson_law_k2_t12");
    group.sample_size(10);
    group.bench_function("whole-law", |b| {
        b.iter(|| black_box(dpdtol::bandit::law::thompson::law(&rewards, 1 << 16, false)))
    });
    group.finish();
}

fn dp_ts_bounds(c: &mut Criterion) {
    use dpdtol::bandit::law::dp_ts::{law_bounds, DpTsLawParams};
    let q = |n: i64| Q::from_integer(n.into());
    let rewards: Vec<Vec<Q>> = (0..5).map(|t| vec![q(1 - t % 2), q(t % 2)]).collect();
    let params = DpTsLawParams::inferred(2, q(1));
    let bits = Precision(192);
    let run = || law_bounds::<_, Certified>(&params, &rewards, &bits).expect("the bounds");
    let whole = run();
    assert_eq!(whole.len(), 8, "8 pull sequences");
    let (lo, hi) = whole.iter().fold((0.0, 0.0), |(l, h), (_, a, b)| {
        (
            l + a.enclosure().unwrap().0.to_f64(),
            h + b.enclosure().unwrap().1.to_f64(),
        )
    });
    assert!(lo <= 1.0 && 1.0 <= hi, "the bounds enclose {lo} .. {hi}");
    let mut group = c.benchmark_group("dp_ts_bounds_k2_t5");
    group.sample_size(10);
    group.bench_function("whole-law", |b| b.iter(|| black_box(run())));
    group.finish();
}

criterion_group!(
    benches,
    bandit,
    dp_ucb_law,
    dp_ucb_bound_law,
    dp_ucb_int_law,
    thompson_law,
    dp_ts_bounds
);
criterion_main!(benches);
