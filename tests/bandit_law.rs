//! The exact law of Anytime-Lazy-UCB's pull sequence (src/bandit/law/anytime_lazy_ucb.rs)
//! against: its total mass (1), a value derived by hand, a second backend,
//! and the library's own policy simulated round by round (chi-square).

mod common;

use common::{hybrid_law, two_arm_table};

use dpdtol::bandit::law::anytime_lazy_ucb::{probability, LazyUcbParams};
use dpdtol::bandit::law::{law, PullLaw};
use dpdtol::bandit::policy::{NoiseRng, Policy};
use dpdtol::num::{Certified, Precision, Real, Q};
use rand::SeedableRng;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

const BITS: Precision = Precision(128);

#[test]
fn the_law_sums_to_one_within_its_enclosure() {
    for (horizon, code) in [
        (3, 0b10_01),
        (4, 0b10_11_01),
        (6, 0x9b7),
        (7, 0x1234),
        (8, 0xbeef),
    ] {
        for params in common::lazy_ucb_variants() {
            let laws = law::<Certified>(&params, &two_arm_table(code, horizon), &BITS).unwrap();
            common::assert_sums_to_one(&laws, &format!("T = {horizon}"));
        }
    }
}

/// Round 3 compares `μ̃_1 = X_1(1) + Z_1` with `μ̃_2 = X_2(2) + Z_2` (equal
/// `O = 1`, so the bonus terms cancel): arm 2 is pulled iff `Z_2 − Z_1 > d`
/// with `d = X_1(1) − X_2(2)`. The difference of two `Lap(b)` has
/// `P(Z_2 − Z_1 > d) = ¼ e^{−d/b} (2 + d/b)` for `d ≥ 0` (convolution of the
/// two densities, done by hand; the same as report-noisy-max with two
/// actions). With `d = 1`, `b = 1`: `¾ e^{−1}`.
#[test]
fn round_three_matches_the_difference_of_two_laplace_variables() {
    let params = LazyUcbParams::printed(q(1, 1));
    let seen = [q(1, 1), q(0, 1), q(0, 1)];
    let p: Certified = probability(&params, &[0, 1, 1], &seen, &BITS).unwrap();
    let expected = 0.75 * (-1.0f64).exp();
    assert!((p.to_f64() - expected).abs() < 1e-15, "{p:?} vs {expected}");
    // ε = 1/2, b = 2, d = 1: ¼ e^{−1/2} (5/2).
    let params = LazyUcbParams::printed(q(1, 2));
    let p: Certified = probability(&params, &[0, 1, 1], &seen, &BITS).unwrap();
    let expected = 0.625 * (-0.5f64).exp();
    assert!((p.to_f64() - expected).abs() < 1e-15, "{p:?} vs {expected}");
}

#[test]
fn f64_agrees_with_the_certified_backend() {
    for (horizon, code) in [(5, 0x2d5), (8, 0x6a6a)] {
        let params = LazyUcbParams::printed(q(1, 1));
        common::assert_f64_agrees(&params, &two_arm_table(code, horizon), 1e-14);
    }
}

#[cfg(feature = "mpfr")]
#[test]
fn mpfr_agrees_with_dashu() {
    common::assert_mpfr_agrees(&LazyUcbParams::printed(q(1, 2)), &two_arm_table(0x5a5, 6));
}

/// Play the library's policy round by round on the table; the pull sequence
/// as an index into [`law`]'s order (rounds 3.. as binary digits).
fn simulate(params: &LazyUcbParams, rewards: &[[Q; 2]], runs: u64, seed: u64) -> Vec<u64> {
    common::simulate_lazy_ucb(params, 2, rewards, runs, seed)
}

fn goodness_of_fit(runs: u64) {
    let cases = [
        (6, 0x9b7u32, LazyUcbParams::printed(q(1, 1))),
        (8, 0xbeef, LazyUcbParams::printed(q(1, 2))),
        (
            7,
            0x1234,
            LazyUcbParams {
                scale: q(1, 2),
                ..LazyUcbParams::printed(q(1, 1))
            },
        ),
    ];
    assert_fits(&cases, runs, 1300, simulate);
}

/// Chi-square of `simulate(params, table, runs, seed)` (counts in the order
/// of [`law`]) against the law, seeds `first_seed, first_seed + 1, …`.
fn assert_fits<L: PullLaw>(
    cases: &[(usize, u32, L)],
    runs: u64,
    first_seed: u64,
    simulate: impl Fn(&L, &[[Q; 2]], u64, u64) -> Vec<u64>,
) {
    for (i, (horizon, code, params)) in cases.iter().enumerate() {
        let seed = first_seed + i as u64;
        let rewards = two_arm_table(*code, *horizon);
        let observed = simulate(params, &rewards, runs, seed);
        let what = format!("T = {horizon}, table {code:#x}, seed {seed}, {runs} runs");
        common::assert_law_fits(params, &rewards, &observed, &what);
    }
}

#[test]
fn the_law_matches_the_simulated_policy() {
    goodness_of_fit(100_000);
}

#[test]
#[ignore = "10^6 runs on each of 3 tables: about 3 min in release"]
fn the_law_matches_the_simulated_policy_at_a_million_runs() {
    goodness_of_fit(1_000_000);
}

// ---- DP-SE (src/bandit/law/dp_se.rs) ----

use dpdtol::bandit::law::dp_se::{DpSeParams, DpSeVariant};
use dpdtol::bandit::policy::dp_se::{epoch_length, Constants, DpSe, PullOrder, Rounding};
use dpdtol::measure::piecewise::{Cut, Piecewise};

/// [`dp_se`] pulling round-robin inside each epoch.
fn dp_se_round_robin(epsilon: Q, horizon: usize, factor: Q, lengths: &[u64]) -> DpSeParams {
    DpSeParams {
        order: PullOrder::RoundRobin,
        ..dp_se(epsilon, horizon, factor, lengths)
    }
}

/// DP-SE at ε with `β = 1/horizon`, noise `factor/ε` and the epoch lengths
/// `lengths` (the printed ones when empty).
fn dp_se(epsilon: Q, horizon: usize, factor: Q, lengths: &[u64]) -> DpSeParams {
    let mut p = DpSeParams::printed(epsilon.clone(), horizon).unwrap();
    p.scale = factor / epsilon;
    if !lengths.is_empty() {
        p.lengths = lengths.to_vec();
        p.printed_lengths = false;
    }
    p
}

#[test]
fn dp_se_law_sums_to_one_within_its_enclosure() {
    for (horizon, code) in [(3, 0b10_01), (4, 0b10_11_01), (6, 0x9b7), (8, 0xbeef)] {
        for lengths in [&[1][..], &[1, 2], &[2, 1], &[]] {
            for (eps, factor) in [(q(1, 1), q(1, 1)), (q(1, 2), q(1, 1)), (q(1, 1), q(1, 2))] {
                let round_robin = dp_se_round_robin(eps.clone(), horizon, factor.clone(), lengths);
                let laws =
                    law::<Certified>(&round_robin, &two_arm_table(code, horizon), &BITS).unwrap();
                common::assert_sums_to_one(
                    &laws,
                    &format!("round-robin T = {horizon} {lengths:?}"),
                );
                let params = dp_se(eps, horizon, factor, lengths);
                let laws = law::<Certified>(&params, &two_arm_table(code, horizon), &BITS).unwrap();
                common::assert_sums_to_one(&laws, &format!("T = {horizon} {lengths:?}"));
                if lengths.is_empty() {
                    // The printed lengths end no epoch within 8 rounds: one
                    // sequence (arm 0 throughout), probability exactly 1.
                    assert_eq!(laws.len(), 1);
                    assert_eq!(laws[0].0, vec![0; horizon]);
                }
            }
        }
    }
}

/// The certified printed `R_e` against the simulator's f64 `epoch_length`.
#[test]
fn dp_se_printed_lengths_are_the_simulators() {
    for horizon in [4usize, 8, 100] {
        for eps in [q(1, 2), q(1, 1)] {
            let params = DpSeParams::printed(eps.clone(), horizon).unwrap();
            let beta = 1.0 / horizon as f64;
            for (e, &r) in params.lengths.iter().enumerate() {
                let f = epoch_length(
                    &Constants::default(),
                    e as u32 + 1,
                    2,
                    eps.to_f64(),
                    beta,
                    Rounding::default(),
                );
                assert_eq!(r, f, "T = {horizon}, ε = {eps}, e = {}", e + 1);
            }
            assert!(!params.noise_consulted(horizon.min(8)));
            // The other readings: δ = 1/2 (above 1/T); ⌈·⌉, which is ⌊·⌋ + 1
            // since the maximum is never an integer; ⌊·⌋, one less.
            for variant in [
                DpSeVariant {
                    beta: Some(q(1, 2)),
                    ..DpSeVariant::default()
                },
                DpSeVariant {
                    rounding: Rounding::Ceiling,
                    ..DpSeVariant::default()
                },
                DpSeVariant {
                    rounding: Rounding::Floor,
                    ..DpSeVariant::default()
                },
                DpSeVariant {
                    rounding: Rounding::CeilingPlusOne,
                    ..DpSeVariant::default()
                },
            ] {
                let other = DpSeParams::printed_as(eps.clone(), horizon, &variant).unwrap();
                let beta = variant.beta.as_ref().map_or(beta, Q::to_f64);
                for (e, &r) in other.lengths.iter().enumerate() {
                    let f = epoch_length(
                        &Constants::default(),
                        e as u32 + 1,
                        2,
                        eps.to_f64(),
                        beta,
                        variant.rounding,
                    );
                    assert_eq!(r, f, "{variant:?}: T = {horizon}, ε = {eps}, e = {}", e + 1);
                }
                if variant.rounding == Rounding::Ceiling {
                    assert_eq!(other.lengths, params.lengths);
                } else if variant.rounding == Rounding::Floor {
                    assert_eq!(other.lengths[0] + 1, params.lengths[0]);
                } else if variant.rounding == Rounding::CeilingPlusOne {
                    // ⌈max{…} + 1⌉ = ⌊max{…}⌋ + 2: one pull more in every epoch.
                    let one_more: Vec<u64> = params.lengths.iter().map(|r| r + 1).collect();
                    assert_eq!(other.lengths[..], one_more[..other.lengths.len()]);
                } else {
                    assert!(
                        other.lengths[0] < params.lengths[0],
                        "a larger β, shorter epochs"
                    );
                }
            }
        }
    }
}

/// Round-robin pulls on a table are blocks pulls on the table whose rows
/// follow the same arms: with `R = 2` on `T = 5`, the first epoch pulls
/// arms 0,1,0,1 (rows a,b,c,d) round-robin and 0,0,1,1 in blocks, so
/// blocks on the rows a,c,b,d sees the same rewards, and the two laws agree
/// sequence by sequence after the same permutation of rounds (round 5 is
/// the next epoch's first, arm 0 in both; its arm-1 pull would fall past
/// the horizon in both).
#[test]
fn dp_se_round_robin_is_blocks_on_the_permuted_table() {
    let perm = [0usize, 2, 1, 3, 4];
    for code in [0x2d5u32, 0x13a, 0x3ff, 0x0f0] {
        let rewards = two_arm_table(code, 5);
        let permuted: Vec<[Q; 2]> = perm.iter().map(|&t| rewards[t].clone()).collect();
        let rr = law::<Certified>(
            &dp_se_round_robin(q(1, 1), 5, q(1, 1), &[2]),
            &rewards,
            &BITS,
        )
        .unwrap();
        let blocks = law::<Certified>(&dp_se(q(1, 1), 5, q(1, 1), &[2]), &permuted, &BITS).unwrap();
        assert_eq!(rr.len(), blocks.len());
        for (pulls, p) in &rr {
            let moved: Vec<usize> = perm.iter().map(|&t| pulls[t]).collect();
            let (_, b) = blocks
                .iter()
                .find(|(s, _)| *s == moved)
                .unwrap_or_else(|| panic!("{moved:?}"));
            let (p, b) = (p.to_f64(), b.to_f64());
            assert!((p - b).abs() <= 1e-15, "{code:#x} {pulls:?}: {p} vs {b}");
        }
    }
}

/// `P(Z_a − Z_b > u)` for i.i.d. `Lap(b)`, integrated with the piecewise
/// algebra (`∫ f(z_b)(1 − F(z_b + u)) dz_b`), not with the closed form.
fn laplace_difference_tail(b: &Q, u: Certified) -> Certified {
    let f = Piecewise::<Certified>::laplace(b, &BITS);
    let (cdf, total) = f.integral(&BITS).unwrap();
    let shifted = cdf
        .compose(
            &q(1, 1),
            &Cut {
                value: u,
                exact: None,
            },
        )
        .unwrap();
    let survival = Piecewise::constant(total).sub(&shifted).unwrap();
    f.mul(&survival).unwrap().integral(&BITS).unwrap().1
}

/// One epoch end with `R_1 = R_2 = 1` on `T = 3` and `T = 4` rounds, seen
/// rewards 0 (arm 0) and 1 (arm 1), so `x = S_1 − S_0 = 1`, against the
/// elimination rule integrated independently: `w = 2c_1R_1` written out from
/// the printed radius (`β = 1/T`, `|S| = 2`, `e = 1`), and the tails of
/// `Z_0 − Z_1` from [`laplace_difference_tail`].
#[test]
fn dp_se_one_epoch_end_matches_the_elimination_rule_integrated_directly() {
    for (eps, factor) in [(q(1, 1), q(1, 1)), (q(1, 2), q(1, 1)), (q(1, 1), q(1, 2))] {
        let b = &factor / &eps;
        for horizon in [3i64, 4] {
            let params = dp_se(eps.clone(), horizon as usize, factor.clone(), &[1]);
            let c = |x: i64| Certified::from_int(x, &BITS);
            let l1 = c(16 * horizon).ln().unwrap();
            let l2 = c(8 * horizon).ln().unwrap();
            let root = (Certified::from_rational(&q(1, 2), &BITS) * (l1 / c(2)).ln().unwrap())
                .exp()
                .unwrap();
            let w = c(2) * root + c(2) * l2 / Certified::from_rational(&eps, &BITS);
            // Only arm 1 survives: Z_1 − Z_0 > w − x.
            let only_one = laplace_difference_tail(&b, w.clone() - c(1));
            // Only arm 0 survives: Z_0 − Z_1 > x + w.
            let only_zero = laplace_difference_tail(&b, w + c(1));
            let mut seen = vec![q(0, 1), q(1, 1), q(0, 1), q(0, 1)];
            seen.truncate(horizon as usize);
            let p = |pulls: &[usize]| -> f64 {
                let e = params.event(pulls, &seen).unwrap().unwrap();
                params.probability::<Certified>(&e, &BITS).unwrap().to_f64()
            };
            let close = |a: f64, b: f64| assert!((a - b).abs() < 1e-15, "{a} vs {b}");
            let rest = horizon as usize - 2;
            close(
                p(&[&[0, 1][..], &vec![1; rest]].concat()),
                only_one.to_f64(),
            );
            if horizon == 3 {
                // Arm 0 alone, or both (the next arm-0 block reaches T).
                close(p(&[0, 1, 0]), 1.0 - only_one.to_f64());
            } else {
                close(p(&[0, 1, 0, 0]), only_zero.to_f64());
                close(
                    p(&[0, 1, 0, 1]),
                    1.0 - only_zero.to_f64() - only_one.to_f64(),
                );
            }
        }
    }
}

#[test]
fn dp_se_f64_agrees_with_the_certified_backend() {
    for (horizon, code, lengths, order) in [
        (5, 0x2d5, vec![1], PullOrder::Blocks),
        (8, 0x6a6a, vec![1, 2], PullOrder::Blocks),
        (8, 0x6a6a, vec![1, 2], PullOrder::RoundRobin),
    ] {
        let params = DpSeParams {
            order,
            ..dp_se(q(1, 1), horizon, q(1, 1), &lengths)
        };
        let rewards = two_arm_table(code, horizon);
        let exact = law::<Certified>(&params, &rewards, &BITS).unwrap();
        let float = law::<f64>(&params, &rewards, &()).unwrap();
        for ((pulls, c), (_, f)) in exact.iter().zip(&float) {
            let c = c.to_f64();
            assert!((c - f).abs() <= 1e-12, "{pulls:?}: {c} vs {f}");
        }
    }
}

#[cfg(feature = "mpfr")]
#[test]
fn dp_se_mpfr_agrees_with_dashu() {
    common::assert_mpfr_agrees(
        &dp_se(q(1, 2), 7, q(1, 1), &[1, 2]),
        &two_arm_table(0x5a5, 7),
    );
}

/// Play the library's DP-SE round by round, its epoch lengths reset to
/// `params.lengths` at each epoch's start (the fields are public); counts of
/// the pull sequences in the order of [`law`].
fn simulate_dp_se(params: &DpSeParams, rewards: &[[Q; 2]], runs: u64, seed: u64) -> Vec<u64> {
    let sequences = params.sequences(rewards.len());
    let position: std::collections::HashMap<Vec<usize>, usize> = sequences
        .iter()
        .enumerate()
        .map(|(i, s)| (s.clone(), i))
        .collect();
    let mut counts = vec![0u64; sequences.len()];
    let mut rng = NoiseRng::seed_from_u64(seed);
    for _ in 0..runs {
        let mut policy = DpSe::with_variant(
            2,
            params.epsilon.to_f64(),
            params.beta.to_f64(),
            params.order,
            params.rounding,
        );
        policy.noise_scale = params.scale.to_f64();
        policy.length = params.length(1);
        let mut pulls = Vec::with_capacity(rewards.len());
        for (t, row) in rewards.iter().enumerate() {
            let pull = policy.choose(t as u64 + 1, 1, &mut rng);
            pulls.push(pull.arm);
            let epoch = policy.epoch;
            policy.observe(pull.arm, 1, row[pull.arm].to_f64(), &mut rng);
            if policy.epoch != epoch {
                policy.length = params.length(policy.epoch);
            }
        }
        counts[position[&pulls]] += 1;
    }
    counts
}

fn dp_se_goodness_of_fit(runs: u64) {
    let cases = [
        (6, 0x9b7u32, dp_se(q(1, 1), 6, q(1, 1), &[1])),
        (8, 0xbeef, dp_se(q(1, 2), 8, q(1, 1), &[1, 2])),
        (7, 0x1234, dp_se(q(1, 1), 7, q(1, 2), &[2, 1])),
        (8, 0xbeef, dp_se_round_robin(q(1, 2), 8, q(1, 1), &[1, 2])),
        (9, 0x2b4d5, dp_se_round_robin(q(1, 1), 9, q(1, 2), &[2, 1])),
    ];
    assert_fits(&cases, runs, 1400, simulate_dp_se);
}

#[test]
fn dp_se_law_matches_the_simulated_policy() {
    dp_se_goodness_of_fit(100_000);
}

#[test]
#[ignore = "10^6 runs on each of 3 tables: 34 s in a debug build"]
fn dp_se_law_matches_the_simulated_policy_at_a_million_runs() {
    dp_se_goodness_of_fit(1_000_000);
}

// ---- Hybrid-UCB (src/bandit/law/hybrid_ucb.rs) ----

use dpdtol::bandit::law::hybrid_ucb::HybridLawParams;
use dpdtol::bandit::policy::hybrid_ucb::HybridUcb;

#[test]
fn hybrid_law_sums_to_one_within_its_enclosure() {
    for (horizon, code) in [(3, 0b10_01), (4, 0b10_11_01), (5, 0x2d5), (6, 0x9b7)] {
        for params in [
            hybrid_law(q(1, 1), q(1, 1)),
            hybrid_law(q(1, 2), q(1, 1)),
            hybrid_law(q(1, 1), q(1, 2)),
            HybridLawParams {
                tree_scale: q(1, 3),
                ..hybrid_law(q(1, 1), q(1, 1))
            },
        ] {
            let laws = law::<Certified>(&params, &two_arm_table(code, horizon), &BITS).unwrap();
            common::assert_sums_to_one(&laws, &format!("T = {horizon}, {params:?}"));
        }
    }
}

/// The law of `params` pulls arm 1 at round 3, after arm 1 saw 0 in round
/// 1 and arm 2 saw 1 in round 2, with probability `P(D ≥ u) =
/// ½e^{−u/b}(1 + u/(2b))`, `u = 1`: `D` the difference of two `Lap(b)`, the
/// density of `D` being `(1 + |x|/b) e^{−|x|/b}/(4b)` (their convolution,
/// done by hand), integrated from `u`.
fn assert_round_three_is_a_laplace_difference(params: &impl PullLaw, b: &Q) {
    let event = params
        .event(&[0, 1, 0], &[q(0, 1), q(1, 1), q(0, 1)])
        .unwrap()
        .unwrap();
    let p = params.probability::<Certified>(&event, &BITS).unwrap();
    let u = Certified::from_int(1, &BITS) / Certified::from_rational(b, &BITS);
    let half = Certified::from_rational(&q(1, 2), &BITS);
    let expected =
        half.clone() * (-u.clone()).exp().unwrap() * (Certified::from_int(1, &BITS) + half * u);
    let ((lo, hi), (elo, ehi)) = (p.enclosure().unwrap(), expected.enclosure().unwrap());
    assert!(
        lo <= ehi && elo <= hi,
        "b = {b}: [{lo}, {hi}] vs [{elo}, {ehi}]"
    );
}

/// Round 3 compares the two arms' first noisy sums, `A₁ − A₁' ≥ y_2 − y_1`
/// (equal counts: no bonus difference), so with `D` the difference of two
/// `Lap(b)`, `P(arm 1 at round 3) = P(D ≥ u) = ½e^{−u/b}(1 + u/(2b))` for
/// `u = y_2 − y_1 ≥ 0`.
#[test]
fn hybrid_round_three_is_the_difference_of_two_laplace_variables() {
    for (epsilon, factor) in [(q(1, 1), q(1, 1)), (q(1, 2), q(1, 1)), (q(1, 1), q(1, 4))] {
        let params = hybrid_law(epsilon, factor);
        assert_round_three_is_a_laplace_difference(&params, &params.array_scale);
    }
}

#[test]
fn hybrid_f64_agrees_with_the_certified_backend() {
    for (horizon, code) in [(5, 0x2d5), (6, 0x6a6)] {
        common::assert_f64_agrees(
            &hybrid_law(q(1, 1), q(1, 1)),
            &two_arm_table(code, horizon),
            1e-14,
        );
    }
}

#[cfg(feature = "mpfr")]
#[test]
fn hybrid_mpfr_agrees_with_dashu() {
    common::assert_mpfr_agrees(&hybrid_law(q(1, 2), q(1, 2)), &two_arm_table(0x5a5, 6));
}

/// The library's `HybridUcb` at `params` played on the table
/// ([`common::simulate_policy`]: counts in [`law`]'s order).
fn simulate_hybrid(params: &HybridLawParams, rewards: &[[Q; 2]], runs: u64, seed: u64) -> Vec<u64> {
    let new_policy = || {
        let mut policy = HybridUcb::new(2, params.epsilon.to_f64());
        policy.array_scale = params.array_scale.to_f64();
        policy.tree_scale = params.tree_scale.to_f64();
        policy.bonus = params.bonus.to_f64();
        policy
    };
    common::simulate_policy(new_policy, 2, rewards, runs, seed)
}

fn hybrid_goodness_of_fit(runs: u64, horizons: &[usize]) {
    let cases: Vec<(usize, u32, HybridLawParams)> = [
        (6, 0x9b7u32, hybrid_law(q(1, 1), q(1, 1))),
        (5, 0x2d5, hybrid_law(q(1, 2), q(1, 2))),
        (
            6,
            0x1234,
            HybridLawParams {
                tree_scale: q(1, 3),
                ..hybrid_law(q(1, 1), q(1, 2))
            },
        ),
        (7, 0xbeef, hybrid_law(q(1, 1), q(1, 2))),
    ]
    .into_iter()
    .filter(|c| horizons.contains(&c.0))
    .collect();
    assert_fits(&cases, runs, 1500, simulate_hybrid);
}

#[test]
fn hybrid_law_matches_the_simulated_policy() {
    hybrid_goodness_of_fit(100_000, &[5, 6]);
}

#[test]
#[ignore = "10^6 runs on each of 4 tables, T up to 7: release"]
fn hybrid_law_matches_the_simulated_policy_at_a_million_runs() {
    hybrid_goodness_of_fit(1_000_000, &[5, 6, 7]);
}

/// A law of four rounds against an independent quadrature. Seen rewards
/// (0, 1, 1, ·), pulls 1 2 1 1, ε = 1, both scales 2: with `a = A₁`,
/// `d = A₂` (arm 1's first and second array noises) and `c = A₁'` (arm 2's),
/// round 3 needs `a − c ≥ 1` and round 4 `(a + d)/2 − c ≥ θ₄ = 1/2 +
/// √(3 ln 4) − √(3 ln 4/2)` (the bonus terms `3 ln 4·B(n)/n` are equal: `B(1)/1
/// = 2 = B(2)/2`). This mpmath script (40 digits, tanh-sinh quadrature split
/// at the kinks) gives 0.28747661668738208963675682997657264, the law's
/// enclosure is 0.287476616687382089636756288968192671… (21 digits agree):
///
/// ```text
/// from mpmath import mp, mpf, sqrt, log, exp, quad, inf
/// mp.dps = 40
/// b = mpf(2)
/// f = lambda z: exp(-abs(z)/b)/(2*b)
/// S = lambda x: exp(-x/b)/2 if x >= 0 else 1 - exp(x/b)/2
/// l4 = log(4)
/// theta4 = mpf(1)/2 + sqrt(3*l4) - sqrt(3*l4/2)
/// def inner(c):   # a = c + 1 + u, u >= 0
///     pts = sorted(set([mpf(0)] + [p for p in (-1 - c, 2*theta4 + c - 1) if p > 0]))
///     return quad(lambda u: f(c + 1 + u)*S(2*theta4 + c - 1 - u), pts + [inf])
/// P = quad(lambda c: f(c)*inner(c), sorted(set([-inf, mpf(-1), mpf(0), 1 - 2*theta4, inf])))
/// ```
#[test]
fn hybrid_four_rounds_match_an_independent_quadrature() {
    let params = hybrid_law(q(1, 1), q(1, 1));
    let seen = [q(0, 1), q(1, 1), q(1, 1), q(0, 1)];
    let event = params.event(&[0, 1, 0, 0], &seen).unwrap().unwrap();
    let p = params.probability::<Certified>(&event, &BITS).unwrap();
    let quadrature: Q = "28747661668738208963675682997657264/100000000000000000000000000000000000"
        .parse()
        .unwrap();
    let (lo, hi) = p.enclosure().unwrap();
    // The quadrature's own error: it agrees with the law to 21 digits.
    let slack = q(1, 1_000_000_000) * q(1, 1_000_000_000) * q(1, 100);
    assert!(
        &lo - &slack <= quadrature && quadrature <= &hi + &slack,
        "[{lo}, {hi}] against the quadrature's {quadrature}"
    );
}

// ---- DP-UCB (src/bandit/law/dp_ucb.rs) ----

use dpdtol::bandit::law::dp_ucb::DpUcbParams;
use dpdtol::bandit::policy::dp_ucb::DpUcb;

/// The printed parameters at ε over `horizon` rounds, the node scale times
/// `factor`.
fn dp_ucb(epsilon: Q, horizon: usize, factor: Q) -> DpUcbParams {
    let p = DpUcbParams::printed(epsilon, horizon);
    DpUcbParams {
        node_scale: &p.node_scale * &factor,
        ..p
    }
}

#[test]
fn dp_ucb_law_sums_to_one_within_its_enclosure() {
    for (horizon, code) in [(3, 0b10_01), (4, 0b10_11_01), (5, 0x2d5), (6, 0x9b7)] {
        let mut depth_two = DpUcbParams::printed(q(1, 1), horizon);
        depth_two.set_depth(2).unwrap();
        for params in [
            dp_ucb(q(1, 1), horizon, q(1, 1)),
            dp_ucb(q(4, 1), horizon, q(1, 2)),
            depth_two,
        ] {
            let laws = law::<Certified>(&params, &two_arm_table(code, horizon), &BITS).unwrap();
            common::assert_sums_to_one(&laws, &format!("T = {horizon}, {params:?}"));
        }
    }
}

/// Round 3 compares one node noise of each arm, `Z₀(1) − Z₁(1) ≥ y₂ − y₁`
/// (equal counts: no bonus difference), so with `D` the difference of two
/// `Lap(b)`, `P(arm 1 at round 3) = P(D ≥ u) = ½e^{−u/b}(1 + u/(2b))`,
/// `u = y₂ − y₁ = 1`, `b = L/ε` (`L = ⌈log₂ T⌉`).
#[test]
fn dp_ucb_round_three_is_the_difference_of_two_laplace_variables() {
    for (epsilon, horizon, factor) in [
        (q(1, 1), 3, q(1, 1)),
        (q(1, 2), 8, q(1, 1)),
        (q(2, 1), 5, q(1, 4)),
    ] {
        let params = dp_ucb(epsilon, horizon, factor);
        assert_round_three_is_a_laplace_difference(&params, &params.node_scale);
    }
}

/// Round 4 after pulls 1 2 1 with arm 1 having seen (0, 0) and arm 2 (1):
/// arm 1's noisy sum after two rewards reads the one node (1, 1), a fresh
/// `Z₀(2)`, not `Z₀(1)` plus another (the binary mechanism's increments), so
/// rounds 3 and 4 are independent given arm 2's `Z₁(1)`:
/// `P(1 2 1 1) = E_c[P(Z₀(1) ≥ 1 + c)·P(Z₀(2)/2 ≥ 1 + c + θ)]`, with
/// `θ = g(1, 4) − g(2, 4)`, `g(n, t) = √(2 ln(t−1)/n) + Γ/n`. This mpmath
/// script (40 digits) gives 0.003486771556376102113809124137641077491073
/// at ε = 1, T = 4 (b = 2, Γ = 2 ln²4 · ln(80 ln 4)):
///
/// ```text
/// from mpmath import mp, mpf, sqrt, log, exp, quad, inf
/// mp.dps = 40
/// b = mpf(2); G = 2*log(4)**2*log(80*log(4))
/// g = lambda n: sqrt(2*log(3)/n) + G/n
/// th = g(1) - g(2)
/// S = lambda x: exp(-x/b)/2 if x >= 0 else 1 - exp(x/b)/2
/// f = lambda z: exp(-abs(z)/b)/(2*b)
/// P = quad(lambda c: f(c)*S(1 + c)*S(2*(1 + c + th)), sorted([-inf, mpf(-1), mpf(0), -1 - th, inf]))
/// ```
#[test]
fn dp_ucb_four_rounds_match_an_independent_quadrature() {
    let params = DpUcbParams::printed(q(1, 1), 4);
    assert_eq!(params.node_scale, q(2, 1));
    let seen = [q(0, 1), q(1, 1), q(0, 1), q(0, 1)];
    let event = params.event(&[0, 1, 0, 0], &seen).unwrap().unwrap();
    let p = params.probability::<Certified>(&event, &BITS).unwrap();
    let (lo, hi) = p.enclosure().unwrap();
    let quadrature = Q::new(3_486_771_556_376_102_i64.into(), 10_i64.pow(18).into());
    let slack = Q::new(1.into(), 10_i64.pow(15).into());
    assert!(lo <= hi);
    assert!(
        &lo - &slack <= quadrature && quadrature <= &hi + &slack,
        "[{lo}, {hi}]"
    );
}

#[test]
fn dp_ucb_f64_agrees_with_the_certified_backend() {
    for (horizon, code) in [(5, 0x2d5), (6, 0x6a6)] {
        common::assert_f64_agrees(
            &dp_ucb(q(1, 1), horizon, q(1, 1)),
            &two_arm_table(code, horizon),
            1e-14,
        );
    }
}

#[cfg(feature = "mpfr")]
#[test]
fn dp_ucb_mpfr_agrees_with_dashu() {
    common::assert_mpfr_agrees(&dp_ucb(q(1, 2), 6, q(1, 2)), &two_arm_table(0x5a5, 6));
}

/// The library's `DpUcb` at `params` played on the table
/// ([`common::simulate_policy`]: counts in [`law`]'s order).
fn simulate_dp_ucb(params: &DpUcbParams, rewards: &[[Q; 2]], runs: u64, seed: u64) -> Vec<u64> {
    let new_policy = || {
        let mut policy = DpUcb::with(
            2,
            params.epsilon.to_f64(),
            rewards.len() as u64,
            params.tree.depth,
            params.gamma.to_f64(),
        );
        policy.node_scale = params.node_scale.to_f64();
        policy.bonus = params.bonus.to_f64();
        policy
    };
    common::simulate_policy(new_policy, 2, rewards, runs, seed)
}

fn dp_ucb_goodness_of_fit(runs: u64, horizons: &[usize]) {
    let cases: Vec<(usize, u32, DpUcbParams)> = [
        (6, 0x9b7u32, dp_ucb(q(1, 1), 6, q(1, 1))),
        (5, 0x2d5, dp_ucb(q(4, 1), 5, q(1, 2))),
        (7, 0x1234, dp_ucb(q(8, 1), 7, q(1, 1))),
        (8, 0xbeef, dp_ucb(q(2, 1), 8, q(1, 1))),
    ]
    .into_iter()
    .filter(|c| horizons.contains(&c.0))
    .collect();
    assert_fits(&cases, runs, 1700, simulate_dp_ucb);
}

#[test]
fn dp_ucb_law_matches_the_simulated_policy() {
    dp_ucb_goodness_of_fit(100_000, &[5, 6, 7]);
}

#[test]
#[ignore = "10^6 runs on each of 4 tables, T up to 8: release"]
fn dp_ucb_law_matches_the_simulated_policy_at_a_million_runs() {
    dp_ucb_goodness_of_fit(1_000_000, &[5, 6, 7, 8]);
}

// ---- DP-UCB-Bound (src/bandit/law/dp_ucb_bound.rs) ----

use dpdtol::bandit::law::dp_ucb_bound::DpUcbBoundParams;
use dpdtol::bandit::policy::dp_ucb_bound::DpUcbBound;

/// The printed parameters at ε, both scales times `factor`, `√confidence`
/// in `ν` (printed: 8; small values let the noise, not `ν`, decide).
fn dp_ucb_bound(epsilon: Q, factor: Q, confidence: Q) -> DpUcbBoundParams {
    DpUcbBoundParams {
        confidence,
        ..DpUcbBoundParams::printed(epsilon).scaled(&factor)
    }
}

#[test]
fn dp_ucb_bound_law_sums_to_one_within_its_enclosure() {
    for (horizon, code) in [(3, 0b10_01), (4, 0b10_11_01), (5, 0x2d5), (6, 0x9b7)] {
        for params in [
            DpUcbBoundParams::printed(q(1, 1)),
            dp_ucb_bound(q(8, 1), q(1, 1), q(1, 100)),
            dp_ucb_bound(q(4, 1), q(1, 2), q(1, 10)),
        ] {
            let laws = law::<Certified>(&params, &two_arm_table(code, horizon), &BITS).unwrap();
            common::assert_sums_to_one(&laws, &format!("T = {horizon}, {params:?}"));
        }
    }
}

/// Round 3 compares the two arms' first array noises, `A₀ − A₁ ≥ y₂ − y₁`
/// (equal counts: no bonus difference): with `D` the difference of two
/// `Lap(b)`, `P(arm 1 at round 3) = P(D ≥ u) = ½e^{−u/b}(1 + u/(2b))`,
/// `u = 1`, `b = 2/ε` times the factor.
#[test]
fn dp_ucb_bound_round_three_is_the_difference_of_two_laplace_variables() {
    for (epsilon, factor) in [(q(1, 1), q(1, 1)), (q(1, 2), q(1, 1)), (q(2, 1), q(1, 4))] {
        let params = dp_ucb_bound(epsilon, factor, q(8, 1));
        assert_round_three_is_a_laplace_difference(&params, &params.array_scale);
    }
}

/// Five rounds, pulls 1 2 1 1 1, arm 1 seeing (0, 1, 0) and arm 2 (1), at
/// ε = 1: arm 1's noisy sums are `A₁`, `A₁ + A₂` (array blocks, `Lap(2)`)
/// and `A₁ + A₂ + T₁` (a p-sum of the tree over observation 3: one level,
/// `Lap(1·2)` — Hybrid-UCB's reading would draw `Lap(2·2)`), arm 2's is
/// `C ~ Lap(2)`. Round 3 needs `A₁ − C ≥ 1`, round 4
/// `(A₁ + A₂)/2 − C ≥ θ₄ = 1/2 + g(1, 4) − g(2, 4)`, round 5
/// `(A₁ + A₂ + T₁)/3 − C ≥ θ₅ = 2/3 + g(1, 5) − g(3, 5)`, with
/// `g(n, t) = √(2 ln(t − 1)/n) + ν/n`, `ν = √8 ln(4(t − 1)^4)·(ln n + 1)`
/// (no `ln n + 1` at n = 1, 2). This mpmath script (the integral over `A₂`
/// and `T₁` in closed form, checked against quadrature at one point; the
/// other two by tanh-sinh quadrature split at every kink) gives
/// 0.00865588349020348; without the kinks of the outer integral it is wrong
/// in the 8th digit:
///
/// ```text
/// from mpmath import mp, mpf, sqrt, log, exp, quad, inf
/// mp.dps = 15
/// b = mpf(2)
/// f = lambda z: exp(-abs(z)/b)/(2*b)
/// def g(n, t):
///     p = t - 1
///     nu = sqrt(8)*log(4*p**4)
///     if n & (n - 1):
///         nu *= log(n) + 1
///     return sqrt(2*log(p)/n) + nu/n
/// th3 = mpf(1); th4 = 1 - mpf(1)/2 + g(1, 4) - g(2, 4); th5 = 1 - mpf(1)/3 + g(1, 5) - g(3, 5)
/// def integral(terms, u, v):   # ∫_u^v Σ c·e^{r x} dx
///     return sum(c*(v - u) if r == 0 else (-c*exp(r*u)/r if v == inf else c*(exp(r*v) - exp(r*u))/r)
///                for c, r in terms)
/// def inner(c, a):   # ∫_{lo}^∞ f(x) P(T₁ ≥ k − x) dx
///     lo = 2*(c + th4) - a; k = 3*(c + th5) - a
///     cuts = sorted(set([lo] + [p for p in (mpf(0), k) if p > lo])) + [inf]
///     tot = mpf(0)
///     for u, v in zip(cuts, cuts[1:]):
///         m = u + 1 if v == inf else (u + v)/2
///         fs = (1/(2*b), -1/b) if m >= 0 else (1/(2*b), 1/b)
///         if k - m >= 0:
///             terms = [(fs[0]*exp(-k/b)/2, fs[1] + 1/b)]
///         else:
///             terms = [(fs[0], fs[1]), (-fs[0]*exp(k/b)/2, fs[1] - 1/b)]
///         tot += integral(terms, u, v)
///     return tot
/// def middle(c):
///     lo = c + th3
///     pts = sorted(set([lo] + [p for p in (mpf(0), 2*(c+th4), 3*(c+th5)) if p > lo]))
///     return quad(lambda a: f(a)*inner(c, a), pts + [inf])
/// cuts = sorted(set([mpf(0), -th3, th3 - 2*th4, (th3 - 3*th5)/2, -th4, -th5, 2*th4 - 3*th5]))
/// P = quad(lambda c: f(c)*middle(c), [-inf] + cuts + [inf])
/// ```
#[test]
fn dp_ucb_bound_five_rounds_match_an_independent_quadrature() {
    let params = DpUcbBoundParams::printed(q(1, 1));
    let seen = [q(0, 1), q(1, 1), q(1, 1), q(0, 1), q(0, 1)];
    let event = params.event(&[0, 1, 0, 0, 0], &seen).unwrap().unwrap();
    let p = params.probability::<Certified>(&event, &BITS).unwrap();
    let (lo, hi) = p.enclosure().unwrap();
    // The script prints 0.00865588349020348 (15 digits); the law's enclosure
    // is 0.008655883490203476353460667882… (30 digits agree at both ends).
    let quadrature: Q = "865588349020348/100000000000000000".parse().unwrap();
    let slack = &quadrature * q(1, 100_000_000_000);
    assert!(
        &lo - &slack <= quadrature && quadrature <= &hi + &slack,
        "[{lo}, {hi}] against the quadrature's {quadrature}"
    );
}

#[test]
fn dp_ucb_bound_f64_agrees_with_the_certified_backend() {
    for (horizon, code, params) in [
        (5, 0x2d5, DpUcbBoundParams::printed(q(1, 1))),
        (6, 0x6a6, dp_ucb_bound(q(8, 1), q(1, 1), q(1, 100))),
    ] {
        common::assert_f64_agrees(&params, &two_arm_table(code, horizon), 1e-13);
    }
}

#[cfg(feature = "mpfr")]
#[test]
fn dp_ucb_bound_mpfr_agrees_with_dashu() {
    common::assert_mpfr_agrees(
        &dp_ucb_bound(q(4, 1), q(1, 2), q(1, 10)),
        &two_arm_table(0x5a5, 6),
    );
}

/// The library's `DpUcbBound` at `params` played on the table
/// ([`common::simulate_policy`]: counts in [`law`]'s order).
fn simulate_dp_ucb_bound(
    params: &DpUcbBoundParams,
    rewards: &[[Q; 2]],
    runs: u64,
    seed: u64,
) -> Vec<u64> {
    let new_policy = || {
        let mut policy = DpUcbBound::new(2, params.epsilon.to_f64());
        policy.array_scale = params.array_scale.to_f64();
        policy.tree_scale = params.tree_scale.to_f64();
        policy.bonus = params.bonus.to_f64();
        policy.confidence = params.confidence.to_f64();
        policy
    };
    common::simulate_policy(new_policy, 2, rewards, runs, seed)
}

fn dp_ucb_bound_goodness_of_fit(runs: u64, horizons: &[usize]) {
    let cases: Vec<(usize, u32, DpUcbBoundParams)> = [
        (6, 0x9b7u32, DpUcbBoundParams::printed(q(1, 1))),
        (5, 0x2d5, dp_ucb_bound(q(4, 1), q(1, 2), q(1, 10))),
        (7, 0x1234, dp_ucb_bound(q(8, 1), q(1, 1), q(1, 100))),
        (8, 0xbeef, dp_ucb_bound(q(2, 1), q(1, 1), q(1, 50))),
    ]
    .into_iter()
    .filter(|c| horizons.contains(&c.0))
    .collect();
    assert_fits(&cases, runs, 1900, simulate_dp_ucb_bound);
}

#[test]
fn dp_ucb_bound_law_matches_the_simulated_policy() {
    dp_ucb_bound_goodness_of_fit(100_000, &[5, 6, 7]);
}

#[test]
#[ignore = "10^6 runs on each of 4 tables, T up to 8: release"]
fn dp_ucb_bound_law_matches_the_simulated_policy_at_a_million_runs() {
    dp_ucb_bound_goodness_of_fit(1_000_000, &[5, 6, 7, 8]);
}

/// `law`, `sample` and `gof` take DP-UCB-Bound's two scales as `privacy`
/// does: at ε = 1 (printed scales `2/ε` each) `--scale-factor 2` is the law
/// of `--noise-scale 4 --tree-scale 4`, digit for digit, and differs from
/// the printed law and from either scale doubled alone (on this T = 6
/// table the tree's p-sums reach round 5); samples drawn with the factor
/// fit the law with it.
#[test]
fn dp_ucb_bound_law_sample_and_gof_take_both_scales() {
    let name = "dp-ucb-bound-scales";
    let table = common::scratch_file(name, "rewards.csv", b"1,0\n0,1\n1,1\n0,0\n1,0\n0,1\n");
    let head = [
        "--algorithm",
        "dp-ucb-bound",
        "--epsilon",
        "1",
        "--rewards-file",
        &table,
    ];
    let law = |extra: &[&str]| {
        let report = common::json(&[&["law"], &head[..], extra, &["--json"]].concat());
        report["law"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row["probability"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let factor = law(&["--scale-factor", "2"]);
    assert_eq!(factor, law(&["--noise-scale", "4", "--tree-scale", "4"]));
    for other in [
        law(&[]),
        law(&["--noise-scale", "4"]),
        law(&["--tree-scale", "4"]),
    ] {
        assert_ne!(factor, other);
    }
    let samples = common::scratch(name)
        .join("samples.csv")
        .display()
        .to_string();
    let sample = common::dpdtol(
        &[
            &["sample"],
            &head[..],
            &[
                "--scale-factor",
                "2",
                "--n",
                "2000",
                "--seed",
                "3",
                "--out",
                &samples,
            ],
        ]
        .concat(),
    );
    assert!(sample.status.success(), "{sample:?}");
    let gof = common::json(
        &[
            &["gof"],
            &head[..],
            &[
                "--tree-scale",
                "4",
                "--noise-scale",
                "4",
                "--samples",
                &samples,
                "--json",
            ],
        ]
        .concat(),
    );
    assert_eq!(gof["reject"], false, "{gof}");
}
