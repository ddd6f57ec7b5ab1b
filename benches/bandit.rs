//! One simulated run of each bandit algorithm at the papers' scale (004 §6:
//! K = 5, T = 10⁶, means {0.75, 0.625, 0.5, 0.375, 0.25}, ε = 1/4). Each run's
//! answer is checked (pulls sum to T, regret within [0, Δ_max T]) before it is
//! timed. A baseline in the same group, `baseline-1e6-bernoulli-draws` (T
//! Bernoulli rewards drawn one by one from the same generator, what any
//! round-by-round simulation pays at least), gives each algorithm's time as a
//! ratio that a loaded machine inflates less than the times themselves.

use criterion::{criterion_group, criterion_main, Criterion};
use dpdtol::bandit::policy::sim::{checkpoints, simulate_run, RewardLaw};
use dpdtol::bandit::policy::{BanditConfig, BanditId, NoiseRng};
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

criterion_group!(benches, bandit);
criterion_main!(benches);
