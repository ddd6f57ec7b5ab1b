//! Thompson sampling's exact law on rewards 0 and 1
//! (`dpdtol::bandit::law::thompson`): it sums to 1 exactly, the library's
//! own policy (f64 Beta draws, simulated round by round) fits it, and the
//! command line computes it, samples it, tests samples against it and
//! refuses what it cannot compute.

mod common;

use dpdtol::bandit::law::thompson;
use dpdtol::bandit::policy::BanditId;
use dpdtol::num::Q;
use dpdtol::oracle::bandit::{gof, simulate, BanditSpec, BanditTarget};
use num_traits::{One, Zero};

/// A K-arm table of 0/1 rewards from the bits of `code`, `horizon` rows.
fn bits(code: u64, arms: usize, horizon: usize) -> Vec<Vec<Q>> {
    (0..horizon)
        .map(|t| {
            (0..arms)
                .map(|j| Q::from_integer(((code >> (t * arms + j)) & 1).into()))
                .collect()
        })
        .collect()
}

fn target(rewards: Vec<Vec<Q>>) -> BanditTarget {
    BanditTarget::new(BanditSpec::new(BanditId::Thompson, Q::one()), rewards).unwrap()
}

#[test]
fn the_law_sums_to_one_exactly() {
    for (code, arms, horizon) in [(0x5a5a, 2, 8), (0x3c1, 3, 5), (0xffff, 2, 8), (0, 4, 4)] {
        let rewards = bits(code, arms, horizon);
        let law = thompson::law(&rewards, 1 << 16, false).unwrap();
        assert_eq!(law.len(), arms.pow(horizon as u32));
        let total = law.iter().fold(Q::zero(), |s, (_, p)| s + p);
        assert_eq!(total, Q::one(), "{code:#x}");
        assert!(law.iter().all(|(_, p)| *p > Q::zero()));
    }
}

/// On a table where every reward is 1 the arms are symmetric: a sequence
/// and its image under swapping the arms have the same probability; and
/// the probability of pulling arm 0 `T` times is `Π_{t<T} (t + 1)/(t + 2)
/// · 1/2 = 1/(T + 1)` (the draw of `Beta(t + 1, 1)` against `Beta(1, 1)`
/// wins with probability `(t + 1)/(t + 2)`), by hand.
#[test]
fn all_ones_is_symmetric_and_its_greedy_run_has_probability_one_over_t_plus_one() {
    let horizon = 7;
    let rewards = vec![vec![Q::one(), Q::one()]; horizon];
    let law = thompson::law(&rewards, 1 << 16, false).unwrap();
    let p = |pulls: &[usize]| law.iter().find(|(a, _)| a == pulls).unwrap().1.clone();
    for (pulls, probability) in &law {
        let swapped: Vec<usize> = pulls.iter().map(|a| 1 - a).collect();
        assert_eq!(&p(&swapped), probability);
    }
    assert_eq!(p(&[0; 7]), Q::new(1.into(), (horizon as i64 + 1).into()));
}

/// The library's policy, simulated with f64 Beta draws at fixed seeds, is
/// consistent with the exact law (Pearson chi-square at α = 10⁻³).
#[test]
fn the_simulated_policy_fits_the_law() {
    for (i, (code, arms, horizon)) in [(0x5a5a, 2, 8), (0x3c1, 3, 5), (0xa5, 2, 6)]
        .into_iter()
        .enumerate()
    {
        let seed = 4100 + i as u64;
        let rewards = bits(code, arms, horizon);
        let t = target(rewards.clone());
        let law = t.law(false).unwrap();
        let samples = simulate(t.spec(), &rewards, 40_000, seed, false).unwrap();
        let fit = gof(&law, &samples, &Default::default()).unwrap();
        assert!(
            !fit.reject,
            "table {code:#x}, K = {arms}, T = {horizon}, seed {seed}: {fit:?}"
        );
    }
}

/// A policy whose posterior swaps its parameters (`Beta(f + 1, s + 1)`:
/// it favours the arm that failed) is rejected at 2000 runs.
#[test]
fn a_swapped_posterior_is_rejected() {
    use dpdtol::bandit::policy::NoiseRng;
    use rand::SeedableRng;
    use rand_distr::{Beta, Distribution};
    let rewards = bits(0x5a5a, 2, 8);
    let law = target(rewards.clone()).law(false).unwrap();
    let mut rng = NoiseRng::seed_from_u64(17);
    let runs = 2000;
    let mut data = Vec::with_capacity(runs * rewards.len());
    for _ in 0..runs {
        let mut record = [(0.0f64, 0.0f64); 2];
        for row in &rewards {
            let draws: Vec<f64> = record
                .iter()
                .map(|&(s, f)| Beta::new(f + 1.0, s + 1.0).unwrap().sample(&mut rng))
                .collect();
            let arm = usize::from(draws[1] > draws[0]);
            let r = if row[arm].is_one() { 1.0 } else { 0.0 };
            record[arm].0 += r;
            record[arm].1 += 1.0 - r;
            data.push(arm as u32);
        }
    }
    let samples = dpdtol::oracle::sample::Samples::new(runs, rewards.len(), data).unwrap();
    let fit = gof(&law, &samples, &Default::default()).unwrap();
    assert!(fit.reject, "{fit:?}");
}

#[test]
fn the_command_line_computes_samples_and_tests_the_law() {
    let dir = common::scratch("thompson");
    let table = dir.join("b8.csv");
    std::fs::write(&table, "1,1\n1,1\n1,0\n0,1\n1,1\n0,0\n1,0\n0,1\n").unwrap();
    let table = table.to_str().unwrap();
    let law = common::json(&[
        "law",
        "--algorithm",
        "thompson",
        "--rewards-file",
        table,
        "--json",
    ]);
    assert_eq!(law["kind"], "exact");
    // Round 1 is a fair coin; the first row pays 1 to both arms, so round 2
    // repeats the first pull with probability 2/3: P(1,1,…) sums to 1/3.
    let sequences = law["law"].as_array().unwrap();
    assert_eq!(sequences.len(), 256);
    let starting_1_1 = sequences
        .iter()
        .filter(|e| e["pulls"][0] == 1 && e["pulls"][1] == 1)
        .map(|e| {
            e["probability_exact"]
                .as_str()
                .unwrap()
                .parse::<Q>()
                .unwrap()
        })
        .fold(Q::zero(), |s, p| s + p);
    assert_eq!(starting_1_1, Q::new(1.into(), 3.into()));
    let samples = dir.join("s.csv");
    let out = common::dpdtol(&[
        "sample",
        "--algorithm",
        "thompson",
        "--rewards-file",
        table,
        "--n",
        "5000",
        "--seed",
        "9",
        "--out",
        samples.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = common::dpdtol(&[
        "gof",
        "--algorithm",
        "thompson",
        "--rewards-file",
        table,
        "--samples",
        samples.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_command_line_refuses_fractional_rewards_and_noise_flags() {
    let dir = common::scratch("thompson-refusals");
    let table = dir.join("t.csv");
    std::fs::write(&table, "1,0\n0,1/2\n").unwrap();
    let table = table.to_str().unwrap();
    for (extra, message) in [
        (&[][..], "round 2, arm 2 has 1/2"),
        (
            &["--noise-scale", "1"][..],
            "--noise-scale does not apply to thompson",
        ),
    ] {
        let mut args = vec!["law", "--algorithm", "thompson", "--rewards-file", table];
        args.extend_from_slice(extra);
        let out = common::dpdtol(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
