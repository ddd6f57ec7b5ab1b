//! The certified bounds on the laws of DP-TS and Lazy-DP-TS
//! (`bandit::law::beta_sandwich`, `bandit::law::dp_ts`) and the privacy
//! check built on them (`privacy::bandit::sandwich`).

use dpdtol::bandit::law::dp_ts::{law_bounds, DpTsLawParams, LazyDpTsLawParams, SandwichLaw};
use dpdtol::bandit::policy::dp_ts::BonusRound;
use dpdtol::bandit::policy::BanditId;
use dpdtol::num::{Certified, Precision, Real, Q};
use dpdtol::oracle::bandit::{simulate, BanditSpec};
use dpdtol::privacy::bandit::sandwich::check;
use dpdtol::privacy::Verdict;
use std::collections::HashMap;

fn q(n: i64) -> Q {
    Q::from_integer(n.into())
}

fn r(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

const BITS: Precision = Precision(192);

/// A law's bounds as rationals.
type Bounds = Vec<(Vec<usize>, Q, Q)>;

/// The bounds as rational enclosure ends: `(pulls, lower end of lo, upper
/// end of hi)`.
fn outer(law: &impl SandwichLaw, table: &[Vec<Q>]) -> Bounds {
    law_bounds::<_, Certified>(law, table, &BITS)
        .unwrap()
        .into_iter()
        .map(|(p, lo, hi)| (p, lo.enclosure().unwrap().0, hi.enclosure().unwrap().1))
        .collect()
}

/// With a bonus of 2^20 every draw's mean is clipped to 1 but with a
/// probability below `e^{−10^5}`, so the law is Thompson sampling's on
/// records `(O_j, 0)`: `P(arm 0) = (O_0 + 1)/(O_0 + O_1 + 2)` at K = 2
/// (`∫ (O_0 + 1) x^{O_0} · x^{O_1 + 1} dx`). DP-TS reads the counts: on
/// pulls 0, 1, 0, 0, 0 the rounds 3, 4, 5 see counts (1, 1), (2, 1),
/// (3, 1), so `1/2 · 3/5 · 4/6 = 1/5`. Lazy-DP-TS reads `O`, which moves
/// only when an epoch of 2, 4, … observations after the first ends:
/// `O = (1, 1), (1, 1), (2, 1)`, so `1/2 · 1/2 · 3/5 = 3/20`.
#[test]
fn an_overwhelming_bonus_gives_thompson_sampling_on_all_ones() {
    let table: Vec<Vec<Q>> = (0..5).map(|t| vec![q(t % 2), q(1 - t % 2)]).collect();
    let mut dp_ts = DpTsLawParams::inferred(2, q(1));
    dp_ts.bonus = q(1 << 20);
    let mut lazy = LazyDpTsLawParams::printed(2, q(1));
    lazy.bonus = q(1 << 20);
    let tiny = r(1, 1_000_000_000_000_000_000);
    for (name, bounds, expected) in [
        ("dp-ts", outer(&dp_ts, &table), r(1, 5)),
        ("lazy-dp-ts", outer(&lazy, &table), r(3, 20)),
    ] {
        let (_, lo, hi) = bounds
            .iter()
            .find(|(p, _, _)| p == &[0, 1, 0, 0, 0])
            .unwrap();
        assert!(lo <= &expected && &expected <= hi, "{name}: {lo} {hi}");
        assert!(hi - lo < tiny, "{name}: width {}", hi - lo);
    }
}

/// Every law's bounds are ordered and enclose a total of 1, at K = 2 and 3,
/// for both of DP-TS's bonus readings and Lazy-DP-TS, on tables with
/// fractional rewards.
#[test]
fn the_bounds_are_ordered_and_enclose_a_total_of_one() {
    let two: Vec<Vec<Q>> = [
        [r(1, 3), q(1)],
        [q(0), r(1, 2)],
        [q(1), q(0)],
        [r(2, 3), q(1)],
        [q(1), r(1, 4)],
    ]
    .into_iter()
    .map(|row| row.to_vec())
    .collect();
    let three: Vec<Vec<Q>> = (0..4)
        .map(|t| (0..3).map(|j| r((t + 2 * j) % 3, 2)).collect())
        .collect();
    let mut last_update = DpTsLawParams::inferred(2, q(1));
    last_update.bonus_round = BonusRound::LastUpdate;
    let mut small_bonus = DpTsLawParams::inferred(3, q(2));
    small_bonus.bonus = r(1, 10);
    let cases: Vec<(&str, Bounds)> = vec![
        ("dp-ts", outer(&DpTsLawParams::inferred(2, q(1)), &two)),
        ("dp-ts last-update", outer(&last_update, &two)),
        (
            "lazy-dp-ts",
            outer(&LazyDpTsLawParams::printed(2, q(1)), &two),
        ),
        ("dp-ts K=3 bonus 1/10", outer(&small_bonus, &three)),
        (
            "lazy-dp-ts K=3",
            outer(&LazyDpTsLawParams::printed(3, r(1, 2)), &three),
        ),
    ];
    for (name, bounds) in cases {
        let (mut lo, mut hi) = (q(0), q(0));
        for (p, l, h) in &bounds {
            assert!(l <= h && l >= &q(0), "{name} {p:?}: {l} > {h}");
            lo += l;
            hi += h;
        }
        assert!(lo <= q(1) && q(1) <= hi, "{name}: {lo} .. {hi}");
    }
}

/// The two bonus readings of DP-TS have different laws: on a table of zeros
/// at the defaults, the current round's bonus clips both means to 1, so
/// pulls 0, 1, 1, 1 have about `1/2 · 3/5 = 0.3` (Thompson sampling on
/// records (1, 0), (1, 0) then (1, 0), (2, 0)); read at arm 0's last
/// observation, round 1, its bonus is `ln 1 = 0` and its mean `Clip(W)`
/// is 0 with probability 1/2, when `Beta(1, 2)` loses to `Beta(2, 1)` with
/// probability 5/6 and to `Beta(3, 1)` with 9/10: at least
/// `1/2 · 5/6 · 9/10 = 0.375`. The bounds are disjoint.
#[test]
fn the_bonus_readings_differ_where_the_bonus_matters() {
    let table = vec![vec![q(0), q(0)]; 4];
    let current = DpTsLawParams::inferred(2, q(1));
    let mut frozen = current.clone();
    frozen.bonus_round = BonusRound::LastUpdate;
    let find = |b: Bounds| {
        b.into_iter()
            .find(|(p, _, _)| p == &[0, 1, 1, 1])
            .map(|(_, l, h)| (l, h))
            .unwrap()
    };
    let (a, b) = (find(outer(&current, &table)), find(outer(&frozen, &table)));
    assert!(a.0 <= r(3, 10) && r(3, 10) <= a.1, "{a:?}");
    assert!(b.0 >= r(375, 1000) - r(1, 1000), "{b:?}");
    assert!(a.1 < b.0, "{a:?} {b:?}");
}

/// The MPFR backend gives the same bounds to 40 digits.
#[cfg(feature = "mpfr")]
#[test]
fn the_mpfr_backend_agrees() {
    use dpdtol::num::{Interval, MpfrFloat};
    use num_traits::Signed;
    let table: Vec<Vec<Q>> = (0..5).map(|t| vec![r(t % 3, 2), q(1)]).collect();
    let law = DpTsLawParams::inferred(2, q(1));
    let dashu = law_bounds::<_, Certified>(&law, &table, &BITS).unwrap();
    let mpfr = law_bounds::<_, Interval<MpfrFloat>>(&law, &table, &BITS).unwrap();
    let tolerance = r(1, 10).pow(40);
    for ((p, lo, hi), (p2, lo2, hi2)) in dashu.iter().zip(&mpfr) {
        assert_eq!(p, p2);
        for (a, b) in [(lo, lo2), (hi, hi2)] {
            let (a, b) = (a.enclosure().unwrap(), b.enclosure().unwrap());
            assert!((&a.0 - &b.0).abs() < tolerance && (&a.1 - &b.1).abs() < tolerance);
        }
    }
}

/// The library's f64 policies fall inside the bounds: every sequence's
/// count of 200 000 runs (fixed seeds) lies within five standard
/// deviations of `n·[lo, hi]`. At the default bonus the bounds are 10⁻⁴
/// wide, so a count off by 1% would be caught.
#[test]
fn the_simulated_policies_fall_inside_the_bounds() {
    let table: Vec<Vec<Q>> = (0..5).map(|t| vec![q(1), q(t % 2)]).collect();
    let runs = 200_000usize;
    for (i, (id, bounds)) in [
        (
            BanditId::DpTs,
            outer(&DpTsLawParams::inferred(2, q(1)), &table),
        ),
        (
            BanditId::LazyDpTs,
            outer(&LazyDpTsLawParams::printed(2, q(1)), &table),
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let samples = simulate(
            &BanditSpec::new(id, q(1)),
            &table,
            runs,
            700 + i as u64,
            false,
        )
        .unwrap();
        let mut counts: HashMap<Vec<usize>, usize> = HashMap::new();
        for s in 0..samples.rows() {
            let pulls = samples.row(s).iter().map(|&a| a as usize).collect();
            *counts.entry(pulls).or_default() += 1;
        }
        for (p, lo, hi) in &bounds {
            let count = counts.get(p).copied().unwrap_or(0) as f64;
            let (lo, hi) = (lo.to_f64() * runs as f64, hi.to_f64() * runs as f64);
            let sd = (hi.max(1.0)).sqrt();
            assert!(
                count >= lo - 5.0 * sd && count <= hi + 5.0 * sd,
                "{id} {p:?}: {count} outside [{lo}, {hi}]"
            );
        }
    }
}

/// At the papers' bonuses the clip to 1 absorbs the noise on small tables:
/// DP-TS at ε = 1, T = 4 on {0, 1} is certainly private, and so is its
/// planted variant with half the noise, whose largest ratio is certainly
/// below 1.00001 — no check on these tables can refute it. Lazy-DP-TS as
/// printed likewise, its ratio below 1.1.
#[test]
fn the_papers_bonuses_make_full_and_half_noise_certainly_private_on_small_tables() {
    let alphabet = [q(0), q(1)];
    let full = DpTsLawParams::inferred(2, q(1));
    let mut half = full.clone();
    half.array_scale = r(1, 1);
    half.tree_scale = r(1, 1);
    let lazy = LazyDpTsLawParams::printed(2, q(1));
    for (name, c, most) in [
        (
            "dp-ts",
            check::<_, Certified>(&full, &alphabet, 4, &q(1), false, &BITS).unwrap(),
            r(1001, 1000),
        ),
        (
            "dp-ts half noise",
            check::<_, Certified>(&half, &alphabet, 4, &q(1), false, &BITS).unwrap(),
            r(100_001, 100_000),
        ),
        (
            "lazy-dp-ts",
            check::<_, Certified>(&lazy, &alphabet, 4, &q(1), false, &BITS).unwrap(),
            r(11, 10),
        ),
    ] {
        assert_eq!(c.verdict, Verdict::Private, "{name}");
        let upper = c.ratio_upper.as_ref().unwrap().0.enclosure().unwrap().1;
        assert!(upper < most, "{name}: {upper}");
        let lower = c.ratio_lower.0.enclosure().unwrap().0;
        assert!(lower <= upper && lower > r(9, 10), "{name}: {lower}");
        let delta = c.delta.as_ref().unwrap();
        assert_eq!(delta.1.enclosure().unwrap().1, q(0), "{name}: δ(ε) = 0");
        assert_eq!(c.laws, 4 * 16);
    }
}

/// Where the clip pins every mean to an atom the bounds are tight and a
/// violation is certain: with almost no noise (scale 1/1000) and rewards
/// −1 and 2, a mean is clipped to 0 or 1 by the reward it saw (`Beta(1, 2)`
/// or `Beta(2, 1)`), so one reward moves round 3's pull of arm 0 from 1/2
/// (both `Beta(2, 1)`: rewards 2, 2) to 1/6 (`Beta(1, 2)` against
/// `Beta(2, 1)`: rewards −1, 2; `∫ 2x·(2x − x²) dx = 5/6` is the other way
/// round), a ratio of 3 > e. The bounds see it.
#[test]
fn an_almost_noiseless_variant_is_certainly_violated() {
    let mut law = DpTsLawParams::inferred(2, q(1));
    law.array_scale = r(1, 1000);
    law.tree_scale = r(1, 1000);
    law.bonus = r(1, 1000);
    let c = check::<_, Certified>(&law, &[q(-1), q(2)], 3, &q(1), false, &BITS).unwrap();
    assert_eq!(c.verdict, Verdict::Violated);
    let lower = c.ratio_lower.0.enclosure().unwrap().0;
    assert!(lower > r(299, 100) && lower <= q(3), "{lower}");
}

/// A check past its size limit is refused with the count and `--force`.
#[test]
fn a_large_check_is_refused_with_its_size() {
    let law = DpTsLawParams::inferred(2, q(1));
    let e = check::<_, Certified>(&law, &[q(0), q(1)], 12, &q(1), false, &BITS).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("4194304 laws") && text.contains("--force"),
        "{text}"
    );
}

mod common;

/// `law` prints the bounds of every sequence and `privacy --method bounds`
/// its verdict; bad input is refused.
#[test]
fn the_command_line_bounds_laws_and_checks_privacy() {
    let dir = common::scratch("dp-ts-bounds");
    let table = dir.join("t4.csv");
    std::fs::write(&table, "1,0\n1,0\n1,0\n1,0\n").unwrap();
    let table = table.to_str().unwrap();
    let law = common::json(&[
        "law",
        "--algorithm",
        "dp-ts",
        "--epsilon",
        "1",
        "--rewards-file",
        table,
        "--json",
    ]);
    // Near Thompson sampling on records (n, 0), 1/2 · 3/5 for 1,2,1,1: the
    // means fall below 1 with probability about 10⁻⁴.
    let first = &law["law"][0];
    assert_eq!(first["pulls"], serde_json::json!([1, 2, 1, 1]));
    let end = |i: usize| {
        first["probability_interval"][i]
            .as_str()
            .unwrap()
            .parse::<f64>()
            .unwrap()
    };
    assert!((end(0) - 0.3).abs() < 1e-3 && end(0) < end(1) && end(1) - end(0) < 1e-3);
    common::refused(
        &[
            "privacy",
            "--algorithm",
            "dp-ts",
            "--method",
            "bounds",
            "--actions",
            "2",
            "--horizon",
            "3",
            "--alphabet",
            "-1,2",
            "--epsilon",
            "1",
        ],
        "outside [0, 1]",
    );
    let private = common::json(&[
        "privacy",
        "--algorithm",
        "lazy-dp-ts",
        "--method",
        "bounds",
        "--actions",
        "2",
        "--horizon",
        "3",
        "--alphabet",
        "0,1",
        "--epsilon",
        "1",
        "--json",
    ]);
    assert_eq!(private["verdict"], "private");
    common::refused(
        &[
            "law",
            "--algorithm",
            "dp-ts",
            "--epsilon",
            "1",
            "--rewards-file",
            table,
            "--sequence",
            "1,3,1,1",
        ],
        "arm 3 in round 2",
    );
    common::refused(
        &[
            "law",
            "--algorithm",
            "lazy-dp-ts",
            "--epsilon",
            "1",
            "--rewards-file",
            table,
            "--tree-scale",
            "1",
        ],
        "--tree-scale",
    );
    common::refused(
        &[
            "privacy",
            "--algorithm",
            "dp-ts",
            "--method",
            "bounds",
            "--actions",
            "2",
            "--horizon",
            "12",
            "--alphabet",
            "0,1",
            "--epsilon",
            "1",
        ],
        "--force",
    );
}

/// Values computed independently, in double precision, by a Python
/// implementation of DP-TS's law written from the policy's description:
/// the Beta comparison `P(θ_0 > θ_1) = ∫ f_0 F_1` (scipy's Beta, a Chebyshev
/// interpolant of it in the two means, within 10⁻¹⁴ of quadrature),
/// integrated over the Hybrid mechanism's noises piecewise between the clip
/// points and the Laplace kinks; checked against a nested quadrature (9
/// digits) and a Monte Carlo of 2·10⁶ runs (|z| ≤ 2). At the defaults on
/// the table `[[1, 0]] × 4` it gives 0.300061, 0.199992, 0.199983,
/// 0.299964 for pulls 1,2,1,1 / 1,2,1,2 / 1,2,2,1 / 1,2,2,2; each lies in
/// the bounds, which are 10⁻⁴ wide.
#[test]
fn an_independent_quadrature_lies_inside_the_bounds() {
    let table = vec![vec![q(1), q(0)]; 4];
    let bounds = outer(&DpTsLawParams::inferred(2, q(1)), &table);
    let expected = [
        r(300_061, 1_000_000),
        r(199_992, 1_000_000),
        r(199_983, 1_000_000),
        r(299_964, 1_000_000),
    ];
    let rounding = r(1, 2_000_000);
    for ((p, lo, hi), v) in bounds.iter().zip(expected) {
        assert!(
            lo <= &(&v + &rounding) && &(&v - &rounding) <= hi,
            "{p:?}: {v} outside [{lo}, {hi}]"
        );
    }
}
