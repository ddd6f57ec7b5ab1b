//! The exact law of Anytime-Lazy-UCB's pull sequence (src/bandit/law.rs)
//! against: its total mass (1), a value derived by hand, a second backend,
//! and the library's own policy simulated round by round (chi-square).

mod common;

use common::chi_square_p_value;
use dpdtol::bandit::anytime_lazy_ucb::AnytimeLazyUcb;
use dpdtol::bandit::law::{law, probability, LazyUcbParams};
use dpdtol::bandit::{NoiseRng, Policy};
use dpdtol::num::{Certified, Precision, Real, Q};
use rand::SeedableRng;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

/// A reward table on {0, 1} from the bits of `code` (round t, arm j: bit 2t + j).
fn table(code: u32, horizon: usize) -> Vec<[Q; 2]> {
    (0..horizon)
        .map(|t| [0, 1].map(|j| q(i64::from((code >> (2 * t + j)) & 1), 1)))
        .collect()
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
        for params in [
            LazyUcbParams::printed(q(1, 1)),
            LazyUcbParams::printed(q(1, 2)),
            LazyUcbParams {
                scale: q(1, 2),
                ..LazyUcbParams::printed(q(1, 1))
            },
        ] {
            let laws = law::<Certified>(&params, &table(code, horizon), &BITS).unwrap();
            let total = laws
                .iter()
                .fold(Certified::from_int(0, &BITS), |acc, (_, p)| {
                    acc + &p.clone()
                });
            let (lo, hi) = total.enclosure().unwrap();
            assert!(
                lo <= q(1, 1) && q(1, 1) <= hi,
                "T = {horizon}: [{lo}, {hi}]"
            );
            assert!(
                &hi - &lo < q(1, 1 << 40),
                "T = {horizon}: width {}",
                hi - lo
            );
            for (pulls, p) in &laws {
                assert!(p.enclosure().unwrap().1 >= q(0, 1), "{pulls:?}");
            }
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
        let rewards = table(code, horizon);
        let exact = law::<Certified>(&params, &rewards, &BITS).unwrap();
        let float = law::<f64>(&params, &rewards, &()).unwrap();
        for ((pulls, c), (_, f)) in exact.iter().zip(&float) {
            let c = c.to_f64();
            assert!(
                (c - f).abs() <= 1e-9 * c.max(1e-300) + 1e-14,
                "{pulls:?}: {c} vs {f}"
            );
        }
    }
}

#[cfg(feature = "mpfr")]
#[test]
fn mpfr_agrees_with_dashu() {
    use dpdtol::num::{Interval, MpfrFloat};
    let params = LazyUcbParams::printed(q(1, 2));
    let rewards = table(0x5a5, 6);
    let a = law::<Certified>(&params, &rewards, &BITS).unwrap();
    let b = law::<Interval<MpfrFloat>>(&params, &rewards, &BITS).unwrap();
    for ((pulls, x), (_, y)) in a.iter().zip(&b) {
        let (xl, xh) = x.enclosure().unwrap();
        let (yl, yh) = y.enclosure().unwrap();
        assert!(
            xl <= yh && yl <= xh,
            "{pulls:?}: [{xl}, {xh}] vs [{yl}, {yh}]"
        );
    }
}

/// Play the library's policy round by round on the table; the pull sequence
/// as an index into [`law`]'s order (rounds 3.. as binary digits).
fn simulate(params: &LazyUcbParams, rewards: &[[Q; 2]], runs: u64, seed: u64) -> Vec<u64> {
    let horizon = rewards.len();
    let f = |x: &Q| {
        x.numer().to_string().parse::<f64>().unwrap()
            / x.denom().to_string().parse::<f64>().unwrap()
    };
    let mut counts = vec![0u64; 1 << horizon.saturating_sub(2)];
    let mut rng = NoiseRng::seed_from_u64(seed);
    for _ in 0..runs {
        let mut policy = AnytimeLazyUcb::new(2, f(&params.epsilon));
        policy.means.noise_scale = f(&params.scale);
        policy.means.bonus = f(&params.bonus);
        let mut index = 0usize;
        for (t, row) in rewards.iter().enumerate() {
            let pull = policy.choose(t as u64 + 1, 1, &mut rng);
            if t >= 2 {
                index = 2 * index + pull.arm;
            }
            policy.observe(pull.arm, 1, f(&row[pull.arm]), &mut rng);
        }
        counts[index] += 1;
    }
    counts
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
    for (seed, (horizon, code, params)) in cases.into_iter().enumerate() {
        let rewards = table(code, horizon);
        let expected: Vec<f64> = law::<Certified>(&params, &rewards, &BITS)
            .unwrap()
            .iter()
            .map(|(_, p)| p.to_f64())
            .collect();
        let observed = simulate(&params, &rewards, runs, 1300 + seed as u64);
        let p = chi_square_p_value(&observed, &expected);
        assert!(
            p > 1e-4,
            "T = {horizon}, table {code:#x}: chi-square p = {p}"
        );
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
