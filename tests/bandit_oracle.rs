//! The bandit oracle (src/oracle/bandit.rs): its laws total 1 within their
//! enclosures for every algorithm, one probability derived by hand, its
//! reference samples fit the law (an independent chi-square, fixed seeds)
//! and do not depend on the thread count, and its goodness-of-fit accepts
//! the law's samples and rejects a wrong sampler's and an impossible row.

mod common;

use dpdtol::bandit::policy::ucb1::Ties;
use dpdtol::bandit::policy::BanditId;
use dpdtol::num::{Kind, Q};
use dpdtol::oracle::audit::{
    bandit_event_probability, bandit_exact_ratios, AuditReport, BanditExact, Event,
};
use dpdtol::oracle::bandit::{gof, sample, BanditSpec, BanditTarget};
use dpdtol::oracle::gof::GofOptions;
use dpdtol::oracle::Samples;
use num_traits::{One, Zero};

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

/// A T × K table from integers over a common denominator.
fn table(rows: &[&[i64]], denominator: i64) -> Vec<Vec<Q>> {
    rows.iter()
        .map(|r| r.iter().map(|&x| q(x, denominator)).collect())
        .collect()
}

/// The K = 2 table of seven rounds, in quarters, that most tests play.
fn seven_rounds() -> Vec<Vec<Q>> {
    table(
        &[
            &[1, 3],
            &[4, 0],
            &[2, 2],
            &[0, 4],
            &[3, 1],
            &[4, 4],
            &[1, 0],
        ],
        4,
    )
}

/// One target per algorithm and law the oracle has, with its name.
fn targets() -> Vec<(&'static str, BanditTarget)> {
    let k2 = seven_rounds();
    let k3 = table(
        &[&[1, 0, 2], &[2, 2, 0], &[0, 1, 2], &[2, 0, 1], &[1, 1, 1]],
        2,
    );
    let mut dp_se = BanditSpec::new(BanditId::DpSe, q(1, 1));
    dp_se.epoch_lengths = Some(vec![1]);
    let hybrid = BanditSpec::new(BanditId::HybridUcb, q(1, 1));
    let mut lazy_half = BanditSpec::new(BanditId::AnytimeLazyUcb, q(1, 1));
    lazy_half.noise_scale = Some(q(1, 2));
    vec![
        (
            "anytime-lazy-ucb K = 2",
            BanditTarget::new(
                BanditSpec::new(BanditId::AnytimeLazyUcb, q(1, 1)),
                k2.clone(),
            )
            .unwrap(),
        ),
        (
            "anytime-lazy-ucb K = 2, b = 1/2",
            BanditTarget::new(lazy_half, k2[..6].to_vec()).unwrap(),
        ),
        (
            "anytime-lazy-ucb K = 3",
            BanditTarget::new(BanditSpec::new(BanditId::AnytimeLazyUcb, q(1, 2)), k3).unwrap(),
        ),
        ("dp-se R = 1", BanditTarget::new(dp_se, k2.clone()).unwrap()),
        (
            "ucb1 ties uniform K = 2",
            ucb1_ties(Ties::Uniform, k2.clone()),
        ),
        (
            "ucb1 ties uniform K = 3",
            ucb1_ties(
                Ties::Uniform,
                table(
                    &[
                        &[1, 1, 1],
                        &[0, 0, 0],
                        &[2, 0, 2],
                        &[1, 1, 1],
                        &[2, 2, 2],
                        &[0, 1, 0],
                    ],
                    2,
                ),
            ),
        ),
        // B8 of docs/public-implementations.md: four sequences of 1/4
        // (`bandit::law::ucb1`'s `b8_with_ordered_uniform_ties_by_hand`).
        (
            "ucb1 ties ordered-uniform B8",
            ucb1_ties(
                Ties::OrderedUniform,
                table(
                    &[
                        &[1, 1],
                        &[1, 1],
                        &[1, 0],
                        &[0, 1],
                        &[1, 1],
                        &[0, 0],
                        &[1, 0],
                        &[0, 1],
                    ],
                    1,
                ),
            ),
        ),
        (
            "hybrid-ucb",
            BanditTarget::new(hybrid, k2[..5].to_vec()).unwrap(),
        ),
    ]
}

/// UCB1 with ties read as `ties` on `rewards`.
fn ucb1_ties(ties: Ties, rewards: Vec<Vec<Q>>) -> BanditTarget {
    let mut spec = BanditSpec::new(BanditId::Ucb1, q(1, 1));
    spec.ties = ties;
    BanditTarget::new(spec, rewards).unwrap()
}

#[test]
fn every_law_totals_one_within_its_enclosure() {
    for (what, target) in targets() {
        let law = target.law(false).unwrap();
        // UCB1 draws no noise: its probabilities are products of 1/|argmax|.
        let kind = if what.starts_with("ucb1") {
            Kind::Exact
        } else {
            Kind::Certified
        };
        assert_eq!(law.kind(), kind, "{what}");
        let (lo, hi) = law.total();
        assert!(lo <= Q::one() && Q::one() <= hi, "{what}: [{lo}, {hi}]");
        assert!(
            &hi - &lo < q(1, 1_000_000_000_000_000_000),
            "{what}: a wide enclosure"
        );
        // At least two sequences: the noise (or a tie) is consulted.
        assert!(law.entries().len() >= 2, "{what}");
        for (pulls, p) in law.entries() {
            assert!(p.lo <= p.hi && p.hi > Q::zero(), "{what} {pulls:?}");
            assert_eq!(&law.probability(pulls).unwrap(), p, "{what}");
        }
    }
}

/// Anytime-Lazy-UCB, K = 2, T = 3, ε = 1, noise scale b = 1/2, on the table
/// `x_1 = (0, ·)`, `x_2 = (·, 1)`, `x_3 = (·, ·)`. From Algorithm 1 of Hu,
/// Huang, Mehta & Hegde (arXiv:2102.07929) as printed: line 2 pulls arm 1
/// then arm 2 (0-based 0, 1) and draws `μ̃_1 = 0 + Z_1`, `μ̃_2 = 1 + Z_2`
/// with `O_1 = O_2 = 1`; no epoch ends before round 3 (an arm's first epoch
/// end is at its second pull after line 2). Line 4 at `t = 3` compares
/// `μ̃_j + √(3 ln 3/1) + 3 ln 3/(ε·1)`: equal bonuses, so arm 1 (0-based 0;
/// ties to the lower index, of probability 0) is pulled iff
/// `Z_1 − Z_2 ≥ 1`. `D = Z_1 − Z_2` for i.i.d. `Lap(b)` has density
/// `(1/(4b))(1 + |u|/b) e^{−|u|/b}`, so for `d ≥ 0`
/// `P(D ≥ d) = ∫_d^∞ … = ½ e^{−d/b}(1 + d/(2b))`; at `d = 1`, `b = 1/2`:
/// `½ e^{−2}·2 = e^{−2}`. So `P(0,1,0) = e^{−2}` and `P(0,1,1) = 1 − e^{−2}`;
/// `e^{−2}` is enclosed by its alternating Taylor series to 30 terms (the
/// remainder is below `2^{31}/31! < 10^{−24}`).
#[test]
fn a_probability_derived_by_hand() {
    let mut spec = BanditSpec::new(BanditId::AnytimeLazyUcb, q(1, 1));
    spec.noise_scale = Some(q(1, 2));
    let target = BanditTarget::new(spec, table(&[&[0, 1], &[1, 1], &[0, 0]], 1)).unwrap();
    let law = target.law(false).unwrap();
    let (lo, hi) = common::exp_taylor(-2, 30, "1/1000000000000000000000000");
    let p = law.probability(&[0, 1, 0]).unwrap();
    assert!(
        lo <= p.lo && p.hi <= hi,
        "[{}, {}] vs e^-2 in [{lo}, {hi}]",
        p.lo,
        p.hi
    );
    let r = law.probability(&[0, 1, 1]).unwrap();
    assert!(Q::one() - &hi <= r.lo && r.hi <= Q::one() - &lo);
    // Line 2 is deterministic: any other start has probability exactly 0.
    for pulls in [[1, 0, 0], [0, 0, 1], [1, 1, 1]] {
        let zero = law.probability(&pulls).unwrap();
        assert_eq!((zero.kind, zero.hi), (Kind::Exact, Q::zero()), "{pulls:?}");
    }
}

/// At T = K nothing is random: line 2 pulls every arm once, and the law is
/// exact, a point mass.
#[test]
fn a_table_of_k_rounds_has_an_exact_point_mass() {
    let target = BanditTarget::new(
        BanditSpec::new(BanditId::AnytimeLazyUcb, q(1, 1)),
        table(&[&[0, 1, 1], &[1, 0, 1], &[1, 1, 0]], 1),
    )
    .unwrap();
    let law = target.law(false).unwrap();
    assert_eq!(law.kind(), Kind::Exact);
    assert_eq!(law.entries().len(), 1);
    assert_eq!(
        law.probability(&[0, 1, 2]).unwrap().exact(),
        Some(&Q::one())
    );
}

/// The counts of each listed sequence in `samples` (every row must be
/// listed).
fn counts(law: &dpdtol::oracle::bandit::BanditLaw, samples: &Samples) -> Vec<u64> {
    let mut counts = vec![0u64; law.entries().len()];
    for i in 0..samples.rows() {
        let row: Vec<usize> = samples.row(i).iter().map(|&a| a as usize).collect();
        let cell = law
            .entries()
            .iter()
            .position(|(pulls, _)| *pulls == row)
            .unwrap_or_else(|| panic!("row {i} {row:?} is not in the law"));
        counts[cell] += 1;
    }
    counts
}

#[test]
fn reference_samples_fit_the_law_and_pass_gof() {
    let (n, seed) = (20_000, 20261125);
    for (what, target) in targets() {
        let law = target.law(false).unwrap();
        let samples = sample(&law, n, seed, false).unwrap();
        assert_eq!((samples.rows(), samples.cols()), (n, target.horizon()));
        let expected: Vec<f64> = law.entries().iter().map(|(_, p)| p.to_f64()).collect();
        let p = common::chi_square_p_value(&counts(&law, &samples), &expected);
        assert!(p > 1e-6, "{what}: seed {seed}, n {n}: chi-square p = {p}");
        let report = gof(&law, &samples, &GofOptions::default()).unwrap();
        assert!(!report.reject, "{what}: seed {seed}: {report:?}");
    }
}

#[test]
fn samples_do_not_depend_on_the_thread_count() {
    let (_, target) = targets().remove(0);
    let law = target.law(false).unwrap();
    let on = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| sample(&law, 5000, 7, false).unwrap())
    };
    assert_eq!(on(1), on(3));
    assert_ne!(on(1), sample(&law, 5000, 8, false).unwrap());
}

/// Samples of the law at noise scale 1/2 tested against the law at the
/// printed scale 1 (same table): rejected at 20 000 samples; a row outside
/// the support is named.
#[test]
fn gof_rejects_a_wrong_law_and_names_an_impossible_row() {
    let rewards = seven_rounds()[..6].to_vec();
    let printed = BanditTarget::new(
        BanditSpec::new(BanditId::AnytimeLazyUcb, q(1, 1)),
        rewards.clone(),
    )
    .unwrap()
    .law(false)
    .unwrap();
    let mut spec = BanditSpec::new(BanditId::AnytimeLazyUcb, q(1, 1));
    spec.noise_scale = Some(q(1, 4));
    let wrong = BanditTarget::new(spec, rewards)
        .unwrap()
        .law(false)
        .unwrap();
    let samples = sample(&wrong, 20_000, 1, false).unwrap();
    let report = gof(&printed, &samples, &GofOptions::default()).unwrap();
    assert!(report.reject, "{report:?}");
    assert!(report.support_violation.is_none());
    // Row 2 starts with arm 1: line 2 pulls arm 0 first.
    let mut data: Vec<u32> = sample(&printed, 3, 1, false).unwrap().data().to_vec();
    data[12] = 1;
    let bad = Samples::new(3, 6, data).unwrap();
    let report = gof(&printed, &bad, &GofOptions::default()).unwrap();
    assert!(report.reject);
    let violation = report.support_violation.unwrap();
    assert_eq!(violation.sample, 2);
    assert!(
        violation.reason.contains("probability 0"),
        "{}",
        violation.reason
    );
}

#[test]
fn bad_targets_are_refused() {
    let spec = || BanditSpec::new(BanditId::AnytimeLazyUcb, q(1, 1));
    let refused = |spec: BanditSpec, rows: Vec<Vec<Q>>, says: &str| {
        let e = BanditTarget::new(spec, rows).unwrap_err().to_string();
        assert!(e.contains(says), "{e} (expected '{says}')");
    };
    refused(
        spec(),
        table(&[&[0, 1], &[2, 0]], 1),
        "reward 2 is outside [0, 1]",
    );
    refused(
        spec(),
        table(&[&[0, 1], &[1, 0, 1]], 1),
        "round 2 has 3 rewards",
    );
    refused(spec(), vec![], "no rounds");
    refused(spec(), table(&[&[0, 1, 1], &[1, 0, 1]], 1), "2 ≤ K ≤ T");
    let mut dp_se = BanditSpec::new(BanditId::DpSe, q(1, 1));
    dp_se.bonus = Some(q(2, 1));
    refused(
        dp_se,
        table(&[&[0, 1], &[1, 0]], 1),
        "--bonus does not apply",
    );
    refused(
        BanditSpec::new(BanditId::LazyDpTs, q(1, 1)),
        table(&[&[0, 1], &[1, 0]], 1),
        "no exact or certified law",
    );
    refused(
        BanditSpec::new(BanditId::DpSe, q(1, 1)),
        table(&[&[0, 1, 0], &[1, 0, 0], &[1, 0, 0]], 1),
        "K = 2 arms",
    );
    // A private algorithm at ε ≤ 0 is refused before its scale 1/ε is
    // formed (it used to divide by zero), and so is its simulation.
    for id in [
        BanditId::AnytimeLazyUcb,
        BanditId::DpSe,
        BanditId::HybridUcb,
    ] {
        for epsilon in [q(0, 1), q(-1, 2)] {
            refused(
                BanditSpec::new(id, epsilon),
                table(&[&[0, 1], &[1, 0]], 1),
                "--epsilon must be positive",
            );
        }
    }
    let e = dpdtol::oracle::bandit::simulate(
        &BanditSpec::new(BanditId::LazyDpTs, q(0, 1)),
        &table(&[&[0, 1], &[1, 0]], 1),
        10,
        1,
        false,
    )
    .unwrap_err();
    assert!(e.to_string().contains("--epsilon must be positive"), "{e}");
    // Over the size guard: 2^18 sequences at K = 2, T = 20.
    let long = vec![vec![q(1, 2), q(1, 2)]; 20];
    let e = BanditTarget::new(spec(), long)
        .unwrap()
        .law(false)
        .unwrap_err();
    assert!(e.to_string().contains("--force"), "{e}");
}

/// UCB1 on `x_1 = (1/2, ·)`, `x_2 = (·, 1/4)`, `x_3 = (0, ·)`, `x_4 = (·, 1)`,
/// `x_5`: rounds 1–2 pull each arm once. Round 3 (`n = 2`): both arms
/// played once, means 1/2 and 1/4: arm 0. Round 4 (`n = 3`): arm 0 has mean
/// 1/4 over 2 plays, arm 1 mean 1/4 over 1, and `√(2 ln 3/2) < √(2 ln 3)`:
/// arm 1. Round 5: both played twice, sums 1/2 and 5/4: arm 1. The law is
/// the point mass at `0,1,0,1,1`.
#[test]
fn ucb1_is_a_point_mass_derived_by_hand() {
    let rewards = table(&[&[2, 0], &[0, 1], &[0, 0], &[4, 4], &[0, 4]], 4);
    let target = BanditTarget::new(BanditSpec::new(BanditId::Ucb1, q(1, 1)), rewards).unwrap();
    let law = target.law(false).unwrap();
    assert_eq!(law.kind(), Kind::Exact);
    assert_eq!(law.entries().len(), 1);
    assert_eq!(
        law.probability(&[0, 1, 0, 1, 1]).unwrap().exact(),
        Some(&Q::one())
    );
    assert_eq!(law.probability(&[0, 1, 0, 1, 0]).unwrap().hi, Q::zero());
}

/// UCB1's point mass is the library's f64 policy played round by round, on
/// tables of quarters (K = 2, 3; ties included).
#[test]
fn ucb1_agrees_with_the_policy() {
    use dpdtol::bandit::policy::ucb1::Ucb1;
    use dpdtol::bandit::policy::{NoiseRng, Policy};
    use rand::SeedableRng;
    let mut rng = NoiseRng::seed_from_u64(1);
    for (k, code) in [
        (2usize, 0x5a3c_u64),
        (2, 0x0f0f),
        (3, 0x1234_5678),
        (3, 0xfedc_ba98),
    ] {
        let rewards: Vec<Vec<Q>> = (0..10)
            .map(|t| {
                (0..k)
                    .map(|j| q(((code >> ((2 * (t * k + j)) % 62)) & 3) as i64, 4))
                    .collect()
            })
            .collect();
        let law = BanditTarget::new(BanditSpec::new(BanditId::Ucb1, q(1, 1)), rewards.clone())
            .unwrap()
            .law(false)
            .unwrap();
        let mut policy = Ucb1::new(k);
        let pulls: Vec<usize> = rewards
            .iter()
            .enumerate()
            .map(|(t, row)| {
                let arm = policy.choose(t as u64 + 1, 1, &mut rng).arm;
                let x = dpdtol::num::Real::to_f64(&row[arm]);
                policy.observe(arm, 1, x, &mut rng);
                arm
            })
            .collect();
        assert_eq!(law.entries()[0].0, pulls, "K = {k}, code {code:x}");
    }
}

/// UCB1 with uniform ties on `T8` of docs/public-implementations.md,
/// `(1/2, 1/4), (0, 1), (1, 0), (1/4, 3/4), (1/2, 1/2), (1, 0), (0, 1),
/// (1/2, 1/4)`, derived by hand. Round 1 draws the first arm (1/2 each).
/// Order 0,1: arm 0 saw 1/2, arm 1 saw 1; round 3 (n = 2, counts equal):
/// arm 1 alone, which sees 0 (row 3): sums 1/2, 1 at counts 1, 2; round 4
/// (n = 3): `1/2 + √(2 ln 3) ≈ 1.982` against `1/2 + √(ln 3) ≈ 1.548`: arm
/// 0, sees 1/4: sums 3/4, 1 at counts 2, 2: round 5 arm 1 alone (mean 1/2
/// against 3/8), sees 1/2: sums 3/4, 3/2 at 2, 3; round 6 (n = 5):
/// `3/8 + √(ln 5) ≈ 1.644` against `1/2 + √(2 ln 5/3) ≈ 1.536`: arm 0,
/// sees 1: sums 7/4, 3/2 at 3, 3: round 7 arm 0 (7/12 > 1/2), sees 0: sums
/// 7/4, 3/2 at 4, 3; round 8 (n = 7): `7/16 + √(ln 7/2) ≈ 1.424` against
/// `1/2 + √(2 ln 7/3) ≈ 1.640`: arm 1. Order 1,0: arm 1 saw 1/4, arm 0 saw
/// 0; round 3: arm 1 (1/4 > 0), sees 0: sums 0, 1/4 at 1, 2; round 4:
/// `√(2 ln 3) ≈ 1.482` against `1/8 + √(ln 3) ≈ 1.173`: arm 0, sees 1/4:
/// sums 1/4, 1/4 at 2, 2, means 1/8 each: round 5 a tie, 1/2 each. Those
/// branches meet no other tie (checked by the law's entries: 3 sequences,
/// 1/2, 1/4, 1/4).
#[test]
fn ucb1_uniform_ties_on_t8_derived_by_hand() {
    let t8 = table(
        &[
            &[2, 1],
            &[0, 4],
            &[4, 0],
            &[1, 3],
            &[2, 2],
            &[4, 0],
            &[0, 4],
            &[2, 1],
        ],
        4,
    );
    let law = ucb1_ties(Ties::Uniform, t8.clone()).law(false).unwrap();
    assert_eq!(law.kind(), Kind::Exact);
    assert_eq!(law.entries().len(), 3, "{:?}", law.entries());
    assert_eq!(
        law.probability(&[0, 1, 1, 0, 1, 0, 0, 1]).unwrap().exact(),
        Some(&q(1, 2))
    );
    let total: Q = law
        .entries()
        .iter()
        .map(|(_, p)| p.exact().cloned().unwrap())
        .sum();
    assert_eq!(total, Q::one());
    let second: Vec<&Vec<usize>> = law
        .entries()
        .iter()
        .filter(|(s, _)| s[..5] == [1, 0, 1, 0, 0] || s[..5] == [1, 0, 1, 0, 1])
        .map(|(s, p)| {
            assert_eq!(p.exact(), Some(&q(1, 4)), "{s:?}");
            s
        })
        .collect();
    assert_eq!(second.len(), 2, "{:?}", law.entries());
    // Ties to the lowest arm: the order 0,1, the first sequence above.
    let lowest = BanditTarget::new(BanditSpec::new(BanditId::Ucb1, q(1, 1)), t8)
        .unwrap()
        .law(false)
        .unwrap();
    assert_eq!(lowest.entries().len(), 1);
    assert_eq!(lowest.entries()[0].0, vec![0, 1, 1, 0, 1, 0, 0, 1]);
}

/// Samples of UCB1 with uniform ties (the library's policy) are rejected
/// against the law of ties to the lowest arm, at their first round, and
/// samples of the lowest reading against the uniform law (half of the
/// uniform law's first pulls are arm 1, none of the lowest's).
#[test]
fn ucb1_tie_readings_tell_each_other_apart() {
    use dpdtol::oracle::bandit::simulate;
    let rewards = table(&[&[2, 1], &[0, 4], &[4, 0], &[1, 3], &[2, 2]], 4);
    let uniform = ucb1_ties(Ties::Uniform, rewards.clone());
    let lowest =
        BanditTarget::new(BanditSpec::new(BanditId::Ucb1, q(1, 1)), rewards.clone()).unwrap();
    let drawn = simulate(uniform.spec(), &rewards, 2000, 3, false).unwrap();
    let report = gof(&lowest.law(false).unwrap(), &drawn, &GofOptions::default()).unwrap();
    assert!(report.support_violation.is_some(), "{report:?}");
    assert_eq!(
        report.departure.as_ref().map(|d| d.round),
        Some(1),
        "{report:?}"
    );
    assert!(
        !gof(&uniform.law(false).unwrap(), &drawn, &GofOptions::default())
            .unwrap()
            .reject
    );
    let ordered = simulate(lowest.spec(), &rewards, 2000, 3, false).unwrap();
    let report = gof(
        &uniform.law(false).unwrap(),
        &ordered,
        &GofOptions::default(),
    )
    .unwrap();
    assert!(report.reject, "{report:?}");
}

/// The library's f64 policies played round by round on the table
/// ([`simulate`]) fit the exact laws: the contract of the oracle is the
/// policies' (fixed seed).
#[test]
fn the_simulated_policies_fit_the_laws() {
    use dpdtol::oracle::bandit::simulate;
    let (n, seed) = (20_000, 11);
    for (what, target) in targets() {
        if what.starts_with("dp-se") {
            // The policy takes the printed epoch lengths only.
            continue;
        }
        let law = target.law(false).unwrap();
        let samples = simulate(target.spec(), target.rewards(), n, seed, false).unwrap();
        let report = gof(&law, &samples, &GofOptions::default()).unwrap();
        assert!(!report.reject, "{what}: seed {seed}, n {n}: {report:?}");
    }
}

/// 20 000 runs of `spec` simulated on [`seven_rounds`] from `seed`.
fn simulated(spec: &BanditSpec, seed: u64) -> Samples {
    dpdtol::oracle::bandit::simulate(spec, &seven_rounds(), 20_000, seed, false).unwrap()
}

/// Lazy-DP-TS has no law: its two-sample test accepts two seeds of its
/// own simulation, rejects one with the noise scale and the bonus 1/100
/// (at T = 7 the printed bonus `3 ln t/(εO)` clips every `μ̄` to 1, so the
/// noise scale alone hardly moves the law), and the simulation does not
/// depend on the thread count.
#[test]
fn lazy_dp_ts_two_sample_test() {
    use dpdtol::oracle::two_sample::homogeneity;
    let printed = BanditSpec::new(BanditId::LazyDpTs, q(1, 1));
    let reference = simulated(&printed, 1);
    let same = simulated(&printed, 2);
    let options = GofOptions {
        tv: Some(0.05),
        ..GofOptions::default()
    };
    let outcome = homogeneity(&reference, &same, &options).unwrap();
    assert!(!outcome.reject, "seeds 1, 2: {outcome:?}");
    // n for D = 0.05 at power 0.9: λ*/(2 D²), λ* ≥ 1 for any df.
    let n_for_tv = outcome.test.n_for_tv.unwrap();
    assert!(n_for_tv >= 1.0 / (2.0 * 0.05 * 0.05), "{n_for_tv}");
    let mut wrong = printed.clone();
    wrong.noise_scale = Some(q(1, 100));
    wrong.bonus = Some(q(1, 100));
    let other = simulated(&wrong, 2);
    let outcome = homogeneity(&reference, &other, &options).unwrap();
    assert!(outcome.reject, "{outcome:?}");
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| {
            dpdtol::oracle::bandit::simulate(&printed, &seven_rounds(), 3000, 1, false).unwrap()
        });
    assert_eq!(one_thread, reference.slice(0..3000));
}

/// DP-TS has no law either: its two-sample test accepts two seeds of its
/// own simulation and rejects the planted variant with half of both
/// Hybrid-mechanism scales (`1/ε`: the reading of the public
/// implementation), at the bonus 1/100 for both (the inferred bonus
/// `6√(8 ln(O+1) ln t)/(εO)` clips every `μ̄` to 1 at T = 7, so no noise
/// moves the law).
#[test]
fn dp_ts_two_sample_test() {
    use dpdtol::oracle::two_sample::homogeneity;
    let mut inferred = BanditSpec::new(BanditId::DpTs, q(4, 1));
    inferred.bonus = Some(q(1, 100));
    let reference = simulated(&inferred, 5);
    let same = simulated(&inferred, 6);
    let options = GofOptions::default();
    let outcome = homogeneity(&reference, &same, &options).unwrap();
    assert!(!outcome.reject, "seeds 5, 6: {outcome:?}");
    let mut half = inferred.clone();
    half.noise_scale = Some(q(1, 4));
    let other = simulated(&half, 6);
    let outcome = homogeneity(&reference, &other, &options).unwrap();
    assert!(outcome.reject, "half the noise: {outcome:?}");
}

/// DP-TS's two readings of the round its bonus reads: the two-sample test
/// accepts the frozen reading (`--bonus-round last-update`) against itself
/// at another seed and rejects it against the current one. The table is
/// chosen so that they differ at once: every reward 0 and ε = 100 (means
/// within a few hundredths of 0), bonus constant 12, so that with one
/// observation the bonus is `12·√(8 ln 2 · ln t)/100`, unclipped. In round
/// 3 the current reading gives both arms `μ̄ = 0.12·√(8 ln 2 ln 3) ≈ 0.296`
/// (P(arm 1) = 1/2); the frozen one gives arm 1, observed in round 1,
/// `ln 1 = 0` (`μ̄ ≈ 0`, Beta(1, 2)) and arm 2, observed in round 2,
/// `μ̄ ≈ 0.12·√8·ln 2 ≈ 0.235` (Beta(1.235, 1.765)): P(arm 1) ≈ 0.41
/// (numpy, 10⁶ draws), a departure of 0.09 that n = 20 000 sees at z ≈ 25.
#[test]
fn dp_ts_bonus_round_two_sample_test() {
    use dpdtol::bandit::policy::dp_ts::BonusRound;
    use dpdtol::oracle::bandit::simulate;
    use dpdtol::oracle::two_sample::homogeneity;
    let zero: &[i64] = &[0, 0];
    let rewards = table(&[zero; 7], 1);
    let mut frozen = BanditSpec::new(BanditId::DpTs, q(100, 1));
    frozen.bonus = Some(q(12, 1));
    frozen.bonus_round = BonusRound::LastUpdate;
    let current = BanditSpec {
        bonus_round: BonusRound::Current,
        ..frozen.clone()
    };
    let n = 20_000;
    let options = GofOptions::default();
    let reference = simulate(&frozen, &rewards, n, 5, false).unwrap();
    let same = simulate(&frozen, &rewards, n, 6, false).unwrap();
    let outcome = homogeneity(&reference, &same, &options).unwrap();
    assert!(!outcome.reject, "frozen, seeds 5, 6: {outcome:?}");
    let other = simulate(&current, &rewards, n, 6, false).unwrap();
    let outcome = homogeneity(&reference, &other, &options).unwrap();
    assert!(outcome.reject, "frozen against current: {outcome:?}");
    assert!(outcome.test.p_value < 1e-12, "{outcome:?}");
    // Round 3's share of arm 1 (0-based arm 0) in each sample.
    let share = |s: &dpdtol::oracle::Samples| {
        (0..s.rows()).filter(|&i| s.row(i)[2] == 0).count() as f64 / s.rows() as f64
    };
    assert!(
        (share(&reference) - 0.41).abs() < 0.02,
        "{}",
        share(&reference)
    );
    assert!((share(&other) - 0.5).abs() < 0.02, "{}", share(&other));
}

/// An audit report whose chosen event is `event`, `first_over_second`.
fn audited(event: Event, first_over_second: bool) -> AuditReport {
    AuditReport {
        event,
        first_over_second,
        candidates: 1,
        selection_rows: (1, 1),
        test_rows: (1, 1),
        numerator_count: 0,
        denominator_count: 0,
        numerator_lower: 0.0,
        denominator_upper: 1.0,
        epsilon_lower: 0.0,
        confidence: 0.95,
    }
}

/// dpdtol's own event probabilities and ratios for Anytime-Lazy-UCB
/// (ε = 1, K = 2, T = 3) on x = [[1/2, 0], [1, 1/2], [0, 1]] and two
/// neighbours, derived by hand. Rounds 1 and 2 pull arms 1 and 2 (line 2);
/// round 3 pulls the arm of larger noisy mean, each arm seen once (equal
/// bonuses), with independent Laplace(1/ε = 1) noises L₁, L₂. On x the
/// means are 1/2 and 1/2: P(round 3 pulls arm 1) = 1/2 by symmetry. The
/// round-3 rewards are never seen before round 3 ends, so the neighbour
/// x₃ that changes only them has the same law: every ratio is exactly 1.
/// The neighbour x₁ with round 1 = [0, 0] has means 0 and 1/2:
/// P(round 3 pulls arm 1) = P(L₁ − L₂ > 1/2) = (1/2)e^{−1/2}(1 + 1/4) =
/// (5/8)e^{−1/2} (the difference of two Laplace(1) variables has
/// P(D > d) = (1/2)e^{−d}(1 + d/2)), so the largest ratio is
/// (1/2)/((5/8)e^{−1/2}) = (4/5)e^{1/2}.
#[test]
fn audit_ratios_derived_by_hand() {
    let spec = BanditSpec::new(BanditId::AnytimeLazyUcb, q(1, 1));
    let target = |rows: &[&[i64]]| BanditTarget::new(spec.clone(), table(rows, 2)).unwrap();
    let x = target(&[&[1, 0], &[2, 1], &[0, 2]]);
    let x3 = target(&[&[1, 0], &[2, 1], &[2, 2]]);
    let x1 = target(&[&[0, 0], &[2, 1], &[0, 2]]);
    let (lx, l3, l1) = (
        x.law(false).unwrap(),
        x3.law(false).unwrap(),
        x1.law(false).unwrap(),
    );
    let exact = |p: &dpdtol::oracle::Enclosed, v: Q| {
        assert_eq!((p.kind, &p.lo, &p.hi), (Kind::Exact, &v, &v));
    };
    let round3_arm1 = Event::Round {
        round: 3,
        action: 0,
    };
    exact(
        &bandit_event_probability(&lx, &round3_arm1).unwrap(),
        q(1, 2),
    );
    exact(
        &bandit_event_probability(&l3, &round3_arm1).unwrap(),
        q(1, 2),
    );
    let round2_arm2 = Event::Round {
        round: 2,
        action: 1,
    };
    exact(
        &bandit_event_probability(&lx, &round2_arm2).unwrap(),
        Q::one(),
    );
    exact(
        &bandit_event_probability(&lx, &Event::Sequence(vec![0, 0, 0])).unwrap(),
        Q::zero(),
    );
    let one = Some(Q::one());
    let BanditExact { event, max, .. } =
        bandit_exact_ratios(&lx, &l3, &audited(round3_arm1.clone(), true)).unwrap();
    let event = event.unwrap();
    assert_eq!(
        (event.kind, &event.lo, &event.hi),
        (Kind::Exact, &one, &one)
    );
    assert_eq!((max.kind, &max.lo, &max.hi), (Kind::Exact, &one, &one));
    // An event impossible on both inputs has no ratio.
    let round1_arm2 = Event::Round {
        round: 1,
        action: 1,
    };
    let BanditExact { event: none, .. } =
        bandit_exact_ratios(&lx, &l3, &audited(round1_arm2, true)).unwrap();
    assert!(none.is_none());
    // x₁: P = (5/8)e^{−1/2}, so (8P/5)² = e^{−1}; the ratios square to
    // (16/25)e and (25/16)e^{−1}.
    let (e_lo, e_hi) = common::exp_taylor(1, 40, "1/1000000000000000000000000000000");
    let (inv_lo, inv_hi) = (Q::one() / &e_hi, Q::one() / &e_lo);
    let p = bandit_event_probability(&l1, &round3_arm1).unwrap();
    let scaled = |v: &Q| {
        let s = v * q(8, 5);
        &s * &s
    };
    assert!(scaled(&p.lo) <= inv_hi && inv_lo <= scaled(&p.hi), "{p:?}");
    assert!(&p.hi - &p.lo < q(1, 1_000_000_000_000_000_000));
    let squares_to = |r: &dpdtol::oracle::audit::Ratio, lo: Q, hi: Q| {
        let (a, b) = (r.lo.clone().unwrap(), r.hi.clone().unwrap());
        assert_eq!(r.kind, Kind::Certified);
        assert!(&a * &a <= hi && lo <= &b * &b, "{r:?}");
        assert!(&b - &a < q(1, 1_000_000_000_000_000_000));
    };
    let BanditExact {
        event: forward,
        max,
        ..
    } = bandit_exact_ratios(&lx, &l1, &audited(round3_arm1.clone(), true)).unwrap();
    squares_to(&forward.unwrap(), &e_lo * q(16, 25), &e_hi * q(16, 25));
    squares_to(&max, &e_lo * q(16, 25), &e_hi * q(16, 25));
    let BanditExact {
        event: backward, ..
    } = bandit_exact_ratios(&lx, &l1, &audited(round3_arm1, false)).unwrap();
    squares_to(&backward.unwrap(), &inv_lo * q(25, 16), &inv_hi * q(25, 16));
}

/// The audit refuses a neighbour that differs in two rounds, one of
/// another shape, and an event beyond the table.
#[test]
fn audit_refusals() {
    let spec = BanditSpec::new(BanditId::AnytimeLazyUcb, q(1, 1));
    let target = |rows: &[&[i64]]| BanditTarget::new(spec.clone(), table(rows, 2)).unwrap();
    let x = target(&[&[1, 0], &[2, 1], &[0, 2]]);
    let two = target(&[&[0, 0], &[2, 1], &[2, 2]]);
    let shorter = target(&[&[1, 0], &[2, 1]]);
    for (y, why) in [
        (&two, "differs from the input in 2 rounds"),
        (&shorter, "has 2 rounds, the input 3"),
    ] {
        let e = x.check_neighbour(y).unwrap_err().to_string();
        assert!(e.contains(why), "{e}");
    }
    x.check_neighbour(&target(&[&[1, 0], &[2, 1], &[2, 2]]))
        .unwrap();
    let law = x.law(false).unwrap();
    for event in [
        Event::Round {
            round: 4,
            action: 0,
        },
        Event::Round {
            round: 1,
            action: 2,
        },
        Event::Sequence(vec![0, 1]),
    ] {
        assert!(bandit_event_probability(&law, &event).is_err(), "{event:?}");
    }
}

// ---- Diagnosis: where the samples depart, and which reading they follow ----

use dpdtol::bandit::law::dp_se::DpSeVariant;
use dpdtol::bandit::policy::dp_se::{PullOrder, Rounding};
use dpdtol::oracle::bandit::explain;

/// DP-SE at ε = 1 on `rewards` in the reading `variant`, with the noise
/// scale and epoch lengths given (none: the printed ones).
fn dp_se_spec(variant: DpSeVariant, scale: Option<Q>, lengths: Option<Vec<u64>>) -> BanditSpec {
    BanditSpec {
        noise_scale: scale,
        epoch_lengths: lengths,
        dp_se: variant,
        ..BanditSpec::new(BanditId::DpSe, q(1, 1))
    }
}

/// Samples of the reading `planted` tested against `tested` (seed fixed):
/// the test rejects, departs at `round`, and `--explain` names the planted
/// reading among those that fit and not the tested one.
fn assert_explained(
    planted: DpSeVariant,
    tested: DpSeVariant,
    scale: Option<Q>,
    lengths: Option<Vec<u64>>,
    rewards: Vec<Vec<Q>>,
    (n, seed): (usize, u64),
    round: usize,
) {
    let what = format!("planted {planted:?}, tested {tested:?}, seed {seed}, n = {n}");
    let source = BanditTarget::new(
        dp_se_spec(planted.clone(), scale.clone(), lengths.clone()),
        rewards.clone(),
    )
    .unwrap();
    let samples = sample(&source.law(false).unwrap(), n, seed, false).unwrap();
    let spec = dp_se_spec(tested.clone(), scale, lengths);
    let target = BanditTarget::new(spec.clone(), rewards.clone()).unwrap();
    let options = GofOptions::default();
    let outcome = gof(&target.law(false).unwrap(), &samples, &options).unwrap();
    assert!(outcome.reject, "{what}");
    let departure = outcome.departure.unwrap();
    assert!(departure.significant, "{what}: {departure:?}");
    assert_eq!(departure.round, round, "{what}: {departure:?}");
    let fits = explain(&spec, &rewards, &samples, &options, false)
        .unwrap()
        .fits;
    let name = |v: &DpSeVariant| {
        (
            v.beta
                .as_ref()
                .map_or("1/T".to_string(), ToString::to_string),
            format!("{}", v.order),
            format!("{}", v.rounding),
        )
    };
    let fit = |v: &DpSeVariant| {
        let (beta, order, rounding) = name(v);
        fits.iter()
            .find(|f| {
                f.beta == Some(beta.clone())
                    && f.pull_order == Some(order.clone())
                    && f.rounding == Some(rounding.clone())
            })
            .unwrap_or_else(|| panic!("{what}: {v:?} not tried"))
    };
    assert!(!fit(&planted).reject, "{what}: {:?}", fit(&planted));
    assert!(fit(&tested).reject, "{what}: {:?}", fit(&tested));
}

/// A T-round table of K = 2 rewards on {0, 1/2, 1}, from a fixed pattern.
fn pattern(horizon: usize) -> Vec<Vec<Q>> {
    (0..horizon)
        .map(|t| vec![q((t % 3) as i64, 2), q(((t * 7 + 1) % 3) as i64, 2)])
        .collect()
}

#[test]
fn explain_names_a_round_robin_implementation() {
    // R = 1, 2: round-robin pulls 1,2 | 1,2,1,2 | …, blocks 1,2 | 1,1,2,2:
    // the first round-robin sample leaves the blocks law's support at
    // round 4 (arm 2 where blocks pulls arm 1 again).
    assert_explained(
        DpSeVariant {
            order: PullOrder::RoundRobin,
            ..DpSeVariant::default()
        },
        DpSeVariant::default(),
        Some(q(4, 1)),
        Some(vec![1, 2]),
        pattern(8),
        (2000, 11),
        4,
    );
}

#[test]
fn explain_names_the_beta_an_implementation_runs_at() {
    // R = 2, noise scale 10: δ = 1/100 widens the elimination margin
    // against the default 1/T = 1/8, so eliminations at the first epoch end
    // (round 4; the pulls show it at round 5) are rarer.
    assert_explained(
        DpSeVariant {
            beta: Some(q(1, 100)),
            ..DpSeVariant::default()
        },
        DpSeVariant::default(),
        Some(q(10, 1)),
        Some(vec![2]),
        pattern(8),
        (4000, 12),
        5,
    );
}

#[test]
fn explain_names_an_epoch_length_without_its_plus_one() {
    // The printed lengths at δ = 1/2, ε = 1: R_1 = ⌊128 ln 32⌋ + 1 = 444
    // (128 ln 32 = 443.6…, the second term 16 ln 16 = 44.4 is smaller), so
    // blocks of 444; without the + 1, 443: the first sample pulls arm 2 at
    // round 444, where the default still pulls arm 1.
    let beta = DpSeVariant {
        beta: Some(q(1, 2)),
        ..DpSeVariant::default()
    };
    assert_explained(
        DpSeVariant {
            rounding: Rounding::Floor,
            ..beta.clone()
        },
        beta,
        None,
        None,
        pattern(900),
        (200, 13),
        444,
    );
}
