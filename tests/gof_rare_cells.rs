//! The rare-cell test of `gof` ([`dpdtol::oracle::gof`], "Rare cells"):
//! one sample on a cell of probability 5.5·10⁻⁴¹, which the pooled
//! chi-square cannot see, is rejected and named; samples drawn from laws
//! with rare cells are not (fixed seeds); the bandit test does the same.

use dpdtol::algorithm::{AlgorithmId, Config};
use dpdtol::bandit::policy::BanditId;
use dpdtol::mechanism::{Noise, Scale};
use dpdtol::num::Q;
use dpdtol::oracle::bandit::{self, BanditSpec, BanditTarget};
use dpdtol::oracle::gof::{gof, GofOptions};
use dpdtol::oracle::sample::sample;
use dpdtol::oracle::{Samples, Target};

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

/// Report-noisy-max with Gumbel noise of scale 1 on `losses` (integers).
fn gumbel(losses: &[i64]) -> Target {
    let scale = Scale::beta(q(1, 1)).unwrap();
    Target::mechanism(
        Noise::Gumbel,
        scale,
        losses.iter().map(|&l| q(l, 1)).collect(),
    )
    .unwrap()
}

/// `dpdtol gof --mechanism gumbel --scale 1 --losses 0,0,92` on 499
/// samples of action 1, 500 of action 2 and one of action 3: the law is
/// the softmax `(1, 1, e^−92)/(2 + e^−92)`, so action 3 has probability
/// 5.54·10⁻⁴¹ and one sample on it is overwhelming evidence. Pooling puts
/// it with action 1 (groups {3, 1} and {2}, observed 500 and 500, expected
/// 500 each): the chi-square is 0 and its p-value 1 — the whole test before
/// the rare cells were tested, "consistent". The rare-cell test rejects:
///
/// ```text
/// from math import exp, expm1, log1p
/// p3 = exp(-92) / (2 + exp(-92))        # 5.544695096560682e-41
/// -expm1(1000 * log1p(-p3))             # P(Bin(1000, p3) >= 1) = 5.544695096560682e-38
/// from scipy.stats import binom, chi2
/// binom.sf(0, 1000, p3)                 # the same
/// chi2.sf(0.0, 1)                       # the old p: 1.0
/// ```
#[test]
fn one_sample_on_a_cell_of_probability_5e_minus_41_is_rejected() {
    let law = gumbel(&[0, 0, 92]).law(Default::default()).unwrap();
    let mut data = vec![0u32; 499];
    data.extend([1; 500]);
    data.push(2);
    let samples = Samples::new(1000, 1, data).unwrap();
    let report = gof(&law, &samples, &GofOptions::default()).unwrap();
    assert!(report.reject, "{report:?}");
    // The choice's test and the joint one (the same cells at C = 1), each
    // with its rare-cell test: m = 4.
    assert_eq!(report.tests, 4);
    assert!((report.per_test_alpha - 0.001 / 4.0).abs() < 1e-18);
    for test in report.per_choice.iter().chain(&report.joint) {
        assert_eq!((test.groups, test.df), (2, 1));
        assert_eq!(test.p_value, 1.0, "the pooled chi-square sees nothing");
        let rare = test.rare_cells.as_ref().unwrap();
        assert_eq!(rare.cells, 1);
        assert!(
            (rare.p_value / 5.544_695_096_560_682e-38 - 1.0).abs() < 1e-9,
            "{rare:?}"
        );
        let cell = rare.extreme.as_ref().unwrap();
        assert_eq!((cell.cell.as_slice(), cell.observed), (&[3][..], 1));
        assert!((cell.expected / 5.544_695_096_560_682e-38 - 1.0).abs() < 1e-9);
    }
}

/// Samples drawn from laws with rare cells are not rejected (fixed seeds):
/// softmax on six actions (expected counts at n = 2000 about 975, 975, 49,
/// 2.4, 0.12, 0.006: three rare), Wu & Wang's algorithm on five choices
/// (243 joint cells, many rare), each test with its rare-cell test.
#[test]
fn samples_of_laws_with_rare_cells_are_not_rejected() {
    let mut config = Config::new(AlgorithmId::WuWang, 3, q(1, 1));
    config.noise = Some(Noise::Gumbel);
    let losses: Vec<Vec<Q>> = (1..=31)
        .map(|t| vec![q(t, 32), q(1, 2), q(32 - t, 32)])
        .collect();
    let wu_wang = Target::algorithm(config.build().unwrap(), losses).unwrap();
    for (what, target, n) in [
        ("softmax", gumbel(&[0, 0, 3, 6, 9, 12]), 2000),
        ("wu-wang", wu_wang, 5000),
    ] {
        let law = target.law(Default::default()).unwrap();
        for seed in 1..=5 {
            let samples = sample(&law, n, seed).unwrap();
            let report = gof(&law, &samples, &GofOptions::default()).unwrap();
            assert!(!report.reject, "{what}, seed {seed}: {report:?}");
            let tests: Vec<_> = report.per_choice.iter().chain(&report.joint).collect();
            assert!(
                tests.iter().any(|t| t.rare_cells.is_some()),
                "{what}: no rare cells"
            );
            let m: usize = tests.iter().map(|t| t.tests()).sum();
            assert_eq!(report.tests, m);
        }
    }
}

/// Anytime-Lazy-UCB (noise scale 1/8) on six rounds of K = 2: 20 000 of
/// the law's own samples pass (six sequences, four rare); with the first one replaced by the least likely pull
/// sequence the bandit test rejects and names it, although the pooled
/// chi-square does not.
#[test]
fn a_bandit_sample_on_a_rare_pull_sequence_is_named() {
    let rewards: Vec<Vec<Q>> = [[1, 3], [4, 0], [2, 2], [0, 4], [3, 1], [4, 4]]
        .iter()
        .map(|r| r.iter().map(|&x| q(x, 4)).collect())
        .collect();
    let mut spec = BanditSpec::new(BanditId::AnytimeLazyUcb, q(1, 1));
    spec.noise_scale = Some(q(1, 8));
    let target = BanditTarget::new(spec, rewards).unwrap();
    let law = target.law(false).unwrap();
    let n = 20_000;
    let samples = bandit::sample(&law, n, 3, false).unwrap();
    let report = bandit::gof(&law, &samples, &GofOptions::default()).unwrap();
    assert!(!report.reject, "seed 3: {report:?}");
    let (rarest, p) = law
        .entries()
        .iter()
        .map(|(s, p)| (s.clone(), p.to_f64()))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap();
    // P(1,2,1,1,1,1) ≈ 9.9·10⁻¹², expected 2·10⁻⁷.
    assert!(p < 1e-11, "{p}");
    let mut data = samples.data().to_vec();
    for (slot, &a) in data.iter_mut().zip(&rarest) {
        *slot = a as u32;
    }
    let planted = Samples::new(n, samples.cols(), data).unwrap();
    let report = bandit::gof(&law, &planted, &GofOptions::default()).unwrap();
    assert_eq!(report.tests, 2);
    let test = report.test.as_ref().unwrap();
    assert!(test.p_value > report.per_test_alpha, "{test:?}");
    let rare = test.rare_cells.as_ref().unwrap();
    assert!(rare.p_value < report.per_test_alpha, "{rare:?}");
    assert!(report.reject);
    let cell = rare.extreme.as_ref().unwrap();
    let based: Vec<usize> = rarest.iter().map(|a| a + 1).collect();
    assert_eq!(cell.cell, based);
}
