//! The certified law of DP-UCB-INT's pull sequence
//! (src/bandit/law/dp_ucb_int.rs) against: its total mass (1), values
//! computed independently by quadrature, a second backend (MPFR), the
//! library's own policy simulated round by round (chi-square), and the exact
//! privacy check with a half-noise variant planted.

mod common;

use common::{bit_table, two_arm_table};

use dpdtol::bandit::law::dp_ucb_int::DpUcbIntParams;
use dpdtol::bandit::law::{law, PullLaw};
use dpdtol::bandit::policy::dp_ucb_int::DpUcbInt;
use dpdtol::error::Error;
use dpdtol::num::{Certified, Exact, Precision, Real, Q};
use num_traits::Zero;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

const BITS: Precision = Precision(128);

/// The printed parameters at ε with `v` and the noise factor `b`.
fn dp_ucb_int(epsilon: Q, rate: Q, noise_factor: Q) -> DpUcbIntParams {
    DpUcbIntParams {
        rate,
        noise_factor,
        ..DpUcbIntParams::printed(epsilon)
    }
}

fn variants() -> [DpUcbIntParams; 7] {
    [
        DpUcbIntParams::printed(q(1, 1)),
        dp_ucb_int(q(2, 1), q(1, 2), q(1, 2)),
        // v = 2: every scale is b, the scales of a round always equal.
        dp_ucb_int(q(1, 1), q(2, 1), q(1, 1)),
        dp_ucb_int(q(3, 2), q(3, 2), q(1, 4)),
        // Intervals f = 2 and 3: kept indices, blocks of several rounds.
        DpUcbIntParams::printed(q(1, 2)),
        dp_ucb_int(q(1, 2), q(2, 1), q(1, 2)),
        DpUcbIntParams::printed(q(1, 3)),
    ]
}

#[test]
fn dp_ucb_int_law_sums_to_one_within_its_enclosure() {
    for (horizon, code) in [(3, 0b10_01), (4, 0b10_11_01), (6, 0x9b7), (9, 0x1beef)] {
        for params in variants() {
            let laws = law::<Certified>(&params, &two_arm_table(code, horizon), &BITS).unwrap();
            common::assert_sums_to_one(&laws, &format!("T = {horizon}, {params:?}"));
        }
    }
}

/// Two events at ε = 1, v = 11/10, b = 1, against this mpmath script, which
/// integrates `P(L_0 − L_1 ≥ θ) = ∫ f_a(x) P(L_1 ≤ x − θ) dx` by quadrature
/// split at its kinks (not the closed form of the law):
///
/// ```text
/// from mpmath import mp, mpf, sqrt, log, exp, quad, inf
/// mp.dps = 30
/// v = mpf(11)/10
/// def sigma(n): return mpf(n)**(v/2 - 1)
/// def lap_pdf(x, s): return exp(-abs(x)/s)/(2*s)
/// def lap_cdf(x, s): return exp(x/s)/2 if x < 0 else 1 - exp(-x/s)/2
/// def p_arm0(n0, n1, theta):
///     a, b = sigma(n0), sigma(n1)
///     pts = sorted({mpf(0), theta})
///     return quad(lambda x: lap_pdf(x, a)*lap_cdf(x - theta, b), [-inf] + pts + [inf])
/// def g(n, t): return sqrt(2*log(t)/n)
/// th3 = mpf(0) - mpf(1)
/// th4 = mpf(0) - mpf(2)/2 + g(1, 4) - g(2, 4)
/// print(p_arm0(1, 1, th3) * (1 - p_arm0(2, 1, th4)))          # 0.259731423432483064569616157013
/// th3 = mpf(1); th4 = mpf(1) + g(2, 4) - g(1, 4); th5 = mpf(1)
/// print((1 - p_arm0(1, 1, th3)) * p_arm0(1, 2, th4) * (1 - p_arm0(2, 2, th5)))
///                                                              # 0.203971770174438502710767213124
/// ```
///
/// The first: pulls 0 1 0 1 seeing 1, 0, 1 (round 4 compares counts (2, 1),
/// unequal scales `2^{−0.45}` and 1); the second: pulls 0 1 1 0 1 seeing
/// 0, 1, 1, 0 (counts (1, 2) then (2, 2)).
#[test]
fn dp_ucb_int_matches_an_independent_quadrature() {
    let params = DpUcbIntParams::printed(q(1, 1));
    for (pulls, seen, expected) in [
        (
            vec![0, 1, 0, 1],
            vec![q(1, 1), q(0, 1), q(1, 1), q(0, 1)],
            "0.259731423432483064569616157013",
        ),
        (
            vec![0, 1, 1, 0, 1],
            vec![q(0, 1), q(1, 1), q(1, 1), q(0, 1), q(1, 1)],
            "0.203971770174438502710767213124",
        ),
    ] {
        assert_quadrature(&params, &pulls, &seen, expected);
    }
}

/// `P(pulls | seen)`, certified, is within `10^{−18}` of the quadrature's
/// `expected` (a decimal `0.…`).
fn assert_quadrature(params: &DpUcbIntParams, pulls: &[usize], seen: &[Q], expected: &str) {
    let event = params.event(pulls, seen).unwrap().unwrap();
    let p = params.probability::<Certified>(&event, &BITS).unwrap();
    let (lo, hi) = p.enclosure().unwrap();
    let digits = expected.trim_start_matches("0.");
    let quadrature = Q::new(
        digits.parse::<num_bigint::BigInt>().unwrap(),
        num_bigint::BigInt::from(10).pow(digits.len() as u32),
    );
    let slack = q(1, 1_000_000_000_000_000_000);
    assert!(
        &lo - &slack <= quadrature && quadrature <= &hi + &slack,
        "{pulls:?}: [{lo}, {hi}] against the quadrature's {expected}"
    );
}

/// At ε = 1/2 (interval f = 2), v = 11/10, b = 1: pulls 0 1 0 1 (round-robin)
/// then 0 1 1 0 seeing 1, 0, 0, 1, 1, 1, 0. Round 5 opens a block (counts
/// (2, 2), both means 1/2): arm 0 keeps `X ~ Lap(σ(2))` with index
/// `1/2 + X + g(2, 5)`; arm 1's draws lose at round 5 (`L ≤ X`, equal
/// bonuses), win at round 6 (`L > X + g(2, 5) − g(2, 6)`), and after the
/// forced round 7 (both kept) lose at round 8 with count 4 and mean 1/2
/// (`L ≤ X + g(2, 5) − g(4, 8)`, `L ~ Lap(σ(4))`), closing the block. This
/// mpmath script integrates the block by quadrature split at its kinks:
///
/// ```text
/// from mpmath import mp, mpf, sqrt, log, exp, quad, inf
/// mp.dps = 30
/// v = mpf(11)/10
/// def sigma(n): return mpf(n)**(v/2 - 1)
/// def lap_pdf(x, s): return exp(-abs(x)/s)/(2*s)
/// def lap_cdf(x, s): return exp(x/s)/2 if x < 0 else 1 - exp(-x/s)/2
/// def g(n, t): return sqrt(2*log(t)/n)
/// d2 = g(2, 5) - g(2, 6)
/// d3 = g(2, 5) - g(4, 8)
/// h = lambda x: lap_pdf(x, sigma(2)) * lap_cdf(x, sigma(2)) * (1 - lap_cdf(x + d2, sigma(2))) * lap_cdf(x + d3, sigma(4))
/// print(quad(h, [-inf] + sorted([mpf(0), -d2, -d3]) + [inf]))   # 0.112753103088045537804579993792
/// ```
///
/// Pulling arm 0 in the forced round 7 has probability 0.
#[test]
fn dp_ucb_int_interval_two_matches_an_independent_quadrature() {
    let params = DpUcbIntParams::printed(q(1, 2));
    assert_eq!(params.interval, 2);
    let seen: Vec<Q> = [1, 0, 0, 1, 1, 1, 0, 0].map(|y| q(y, 1)).to_vec();
    let pulls = [0, 1, 0, 1, 0, 1, 1, 0];
    assert_quadrature(&params, &pulls, &seen, "0.112753103088045537804579993792");
    assert!(params
        .event(&[0, 1, 0, 1, 0, 1, 0, 0], &seen)
        .unwrap()
        .is_none());
}

/// K = 3 at ε = 1, v = 11/10, b = 1: pulls 0 1 2 1 0 seeing 1, 0, 1/2, 1.
/// Round 4 (counts (1, 1, 1), means (1, 0, 1/2), equal bonuses): arm 1's
/// draw beats both others, `P(L_0 ≤ X − 1, L_2 ≤ X − 1/2)`; round 5 (counts
/// (1, 2, 1), means (1, 1/2, 1/2)): arm 0's draw beats arm 1's
/// (`Lap(σ(2))`, shift `1/2 + g(1, 5) − g(2, 5)`) and arm 2's (shift 1/2).
/// This mpmath script integrates both by quadrature split at the kinks:
///
/// ```text
/// from mpmath import mp, mpf, sqrt, log, exp, quad, inf
/// mp.dps = 30
/// v = mpf(11)/10
/// def sigma(n): return mpf(n)**(v/2 - 1)
/// def lap_pdf(x, s): return exp(-abs(x)/s)/(2*s)
/// def lap_cdf(x, s): return exp(x/s)/2 if x < 0 else 1 - exp(-x/s)/2
/// def g(n, t): return sqrt(2*log(t)/n)
/// def wins(n, others):   # ∫ f(x) ∏ F(x + d) over the others' (count, d)
///     h = lambda x: lap_pdf(x, sigma(n)) * mp.fprod(lap_cdf(x + d, sigma(m)) for m, d in others)
///     return quad(h, [-inf] + sorted({mpf(0)} | {-d for _, d in others}) + [inf])
/// r4 = wins(1, [(1, mpf(0) - 1), (1, mpf(0) - mpf(1)/2)])
/// r5 = wins(1, [(2, mpf(1) - mpf(1)/2 + g(1, 5) - g(2, 5)), (1, mpf(1) - mpf(1)/2)])
/// print(r4 * r5)   # 0.0951587629714802419881624946071
/// ```
#[test]
fn dp_ucb_int_three_arms_match_an_independent_quadrature() {
    let params = DpUcbIntParams {
        arms: 3,
        ..DpUcbIntParams::printed(q(1, 1))
    };
    let seen = [q(1, 1), q(0, 1), q(1, 2), q(1, 1), q(0, 1)];
    assert_quadrature(
        &params,
        &[0, 1, 2, 1, 0],
        &seen,
        "0.0951587629714802419881624946071",
    );
}

/// K = 3 and 4 at ε = 1 and 2 (interval 1): the total mass, MPFR against
/// dashu, and the library's policy simulated (chi-square).
#[test]
fn dp_ucb_int_more_arms_sum_to_one_and_match_the_simulated_policy() {
    for (i, (arms, horizon, code, epsilon)) in [
        (3, 5, 0x5a5u32, q(1, 1)),
        (3, 6, 0x2d2d5, q(2, 1)),
        (4, 6, 0x9b7c3, q(1, 1)),
    ]
    .into_iter()
    .enumerate()
    {
        let params = DpUcbIntParams {
            arms,
            ..DpUcbIntParams::printed(epsilon)
        };
        let rewards = bit_table(arms, code.into(), horizon);
        let laws = law::<Certified>(&params, &rewards, &BITS).unwrap();
        common::assert_sums_to_one(&laws, &format!("K = {arms}, T = {horizon}"));
        #[cfg(feature = "mpfr")]
        common::assert_mpfr_agrees(&params, &rewards);
        let seed = 2200 + i as u64;
        let new_policy = || DpUcbInt::new(arms, params.epsilon.to_f64());
        let observed = common::simulate_policy(new_policy, arms, &rewards, 100_000, seed);
        let observed = common::in_law_order(&params, horizon, &observed);
        let what = format!("K = {arms}, T = {horizon}, table {code:#x}, seed {seed}");
        common::assert_law_fits(&params, &rewards, &observed, &what);
    }
}

/// K ≥ 3 below ε = 1, where kept indices nest (a fresh draw that beats the
/// top kept index is kept above it): the total mass, MPFR and f64 against
/// dashu, and the library's policy simulated (chi-square), which never plays a
/// pull sequence of probability 0 (a kept index pulled below a higher one).
fn nested_kept_indices(runs: u64, cases: &[(usize, usize, u64, Q, Q)]) {
    for (i, (arms, horizon, code, epsilon, rate)) in cases.iter().cloned().enumerate() {
        let params = DpUcbIntParams {
            arms,
            rate,
            ..DpUcbIntParams::printed(epsilon)
        };
        let rewards = bit_table(arms, code, horizon);
        let what = format!("K = {arms}, T = {horizon}, f = {}", params.interval);
        let laws = law::<Certified>(&params, &rewards, &BITS).unwrap();
        common::assert_sums_to_one(&laws, &what);
        #[cfg(feature = "mpfr")]
        common::assert_mpfr_agrees(&params, &rewards);
        common::assert_f64_agrees(&params, &rewards, 1e-13);
        let seed = 2300 + i as u64;
        let new_policy = || {
            let mut policy = DpUcbInt::new(arms, params.epsilon.to_f64());
            policy.rate = params.rate.to_f64();
            policy
        };
        let observed = common::simulate_policy(new_policy, arms, &rewards, runs, seed);
        let observed = common::in_law_order(&params, horizon, &observed);
        for ((pulls, p), &n) in laws.iter().zip(&observed) {
            let impossible = p.enclosure().unwrap().1 == Q::zero();
            assert!(!impossible || n == 0, "{what}: {pulls:?} played {n} times");
        }
        let what = format!("{what}, table {code:#x}, seed {seed}, {runs} runs");
        common::assert_fits(&laws, &observed, &what);
    }
}

fn nested_cases() -> Vec<(usize, usize, u64, Q, Q)> {
    vec![
        // Four rounds after round-robin: up to three kept indices nested,
        // then a forced round.
        (3, 10, 0x5_2d5b_7a9c, q(1, 2), q(11, 10)),
        // v = 2: every scale is b, rates cancel exactly.
        (3, 10, 0x3_1c3a_5e6b, q(1, 2), q(2, 1)),
        (4, 11, 0x9b7_c35a_1d2e, q(1, 2), q(11, 10)),
        (3, 13, 0x5a_3a5c_96b5, q(1, 3), q(11, 10)),
    ]
}

#[test]
fn dp_ucb_int_nested_kept_indices_sum_to_one_and_match_the_simulated_policy() {
    nested_kept_indices(100_000, &nested_cases());
}

/// K = 3 at ε = 1/2 (interval f = 2), v = 11/10, b = 1: round-robin
/// 0 1 2 0 1 2 seeing 1, 0, 1, 0, 1, 1 (counts 2, means (1/2, 1/2, 1)), then
/// 0 1 1 0 seeing 1, 0, 1, 0. Round 7: arm 0's draw `X ~ Lap(σ(2))` beats
/// the fresh draws of arms 1 and 2 and is kept. Round 8: arm 1's fresh draw
/// `Y ~ Lap(σ(2))` beats `X` (`Y > X + g(2, 7) − g(2, 8)`) and arm 2's, and
/// is kept above `X`. Round 9: `Y`, the top kept index, beats arm 2's fresh
/// draw; arm 1's count 4 frees it. Round 10: `X` is the top again and beats
/// the fresh draws of arms 1 (count 4, `Lap(σ(4))`) and 2. The draws form a
/// tree of depth 2 (`X` above `Y` above two leaves). This mpmath script
/// integrates it by nested quadrature split at its kinks (20 s):
///
/// ```text
/// from mpmath import mp, mpf, sqrt, log, exp, quad, inf
/// mp.dps = 20
/// v = mpf(11)/10
/// def sigma(n): return mpf(n)**(v/2 - 1)
/// def lap_pdf(x, s): return exp(-abs(x)/s)/(2*s)
/// def lap_cdf(x, s): return exp(x/s)/2 if x < 0 else 1 - exp(-x/s)/2
/// def g(n, t): return sqrt(2*log(t)/n)
/// h = mpf(1)/2
/// s2, s4 = sigma(2), sigma(4)
/// e = g(2, 7) - g(2, 8)                      # Y > X + e
/// inner_cuts = [mpf(0), h, h - g(2, 8) + g(2, 9)]
/// def inner(x):                              # ∫_{y > x + e} f(y) F(y − 1/2) F(y − 1/2 + g28 − g29)
///     lo = x + e
///     f = lambda y: lap_pdf(y, s2) * lap_cdf(y - h, s2) * lap_cdf(y - h + g(2, 8) - g(2, 9), s2)
///     return quad(f, [lo] + sorted(c for c in inner_cuts if c > lo) + [inf])
/// d3, d4 = g(2, 7) - g(4, 10), -h + g(2, 7) - g(2, 10)
/// outer = lambda x: lap_pdf(x, s2) * lap_cdf(x, s2) * lap_cdf(x - h, s2) * lap_cdf(x + d3, s4) * lap_cdf(x + d4, s2) * inner(x)
/// cuts = sorted({mpf(0), h, -d3, -d4} | {c - e for c in inner_cuts})
/// print(quad(outer, [-inf] + cuts + [inf]))   # 0.011272593362748864383
/// ```
///
/// Pulling arm 0 at round 9 (kept below `Y`) has probability 0.
#[test]
fn dp_ucb_int_nested_kept_indices_match_an_independent_quadrature() {
    let params = DpUcbIntParams {
        arms: 3,
        ..DpUcbIntParams::printed(q(1, 2))
    };
    let seen: Vec<Q> = [1, 0, 1, 0, 1, 1, 1, 0, 1, 0].map(|y| q(y, 1)).to_vec();
    let pulls = [0, 1, 2, 0, 1, 2, 0, 1, 1, 0];
    assert_quadrature(&params, &pulls, &seen, "0.011272593362748864383");
    let below_the_top = [0, 1, 2, 0, 1, 2, 0, 1, 0, 0];
    assert!(params.event(&below_the_top, &seen).unwrap().is_none());
}

/// At round 3 the counts are (1, 1): both scales are `b·1^{v/2−1} = b`,
/// rational, and the bonuses cancel, so with equal rewards seen (`θ = 0`)
/// the exact backend gives ½ — and declines as soon as a round compares
/// unequal counts (`√(ln t)`, `2^{v/2−1}`).
#[test]
fn dp_ucb_int_exact_backend_where_rational_and_declines_elsewhere() {
    let params = DpUcbIntParams::printed(q(1, 1));
    let event = params
        .event(&[0, 1, 1], &[q(1, 1), q(1, 1), q(0, 1)])
        .unwrap()
        .unwrap();
    assert_eq!(params.probability::<Exact>(&event, &()).unwrap(), q(1, 2));
    let event = params
        .event(&[0, 1, 1, 0], &[q(1, 1), q(0, 1), q(0, 1), q(0, 1)])
        .unwrap()
        .unwrap();
    assert!(matches!(
        params.probability::<Exact>(&event, &()),
        Err(Error::NotRepresentable(_))
    ));
}

#[test]
fn dp_ucb_int_f64_agrees_with_the_certified_backend() {
    for (horizon, code) in [(5, 0x2d5), (7, 0x1234)] {
        for params in variants() {
            common::assert_f64_agrees(&params, &two_arm_table(code, horizon), 1e-13);
        }
    }
}

#[cfg(feature = "mpfr")]
#[test]
fn dp_ucb_int_mpfr_agrees_with_dashu() {
    for params in variants() {
        common::assert_mpfr_agrees(&params, &two_arm_table(0x5a5, 6));
    }
}

/// Play the library's `DpUcbInt` with the parameters of `params` round by
/// round on the table: the counts in the order of its law.
fn simulate(params: &DpUcbIntParams, rewards: &[[Q; 2]], runs: u64, seed: u64) -> Vec<u64> {
    let new_policy = || {
        let mut policy = DpUcbInt::new(2, params.epsilon.to_f64());
        policy.rate = params.rate.to_f64();
        policy.noise_factor = params.noise_factor.to_f64();
        policy.bonus = params.bonus.to_f64();
        policy
    };
    let observed = common::simulate_policy(new_policy, 2, rewards, runs, seed);
    common::in_law_order(params, rewards.len(), &observed)
}

fn goodness_of_fit(runs: u64) {
    let [printed, half, flat, _, f2, f2_flat, f3] = variants();
    for (i, (horizon, code, params)) in [
        (6, 0x9b7u32, printed),
        (5, 0x2d5, half),
        (7, 0x1234, flat),
        (8, 0xbeef, f2),
        (7, 0x6a6a, f2_flat),
        (9, 0x1b7b7, f3),
    ]
    .into_iter()
    .enumerate()
    {
        let seed = 2100 + i as u64;
        let rewards = two_arm_table(code, horizon);
        let observed = simulate(&params, &rewards, runs, seed);
        let what = format!("T = {horizon}, table {code:#x}, seed {seed}, {runs} runs");
        common::assert_law_fits(&params, &rewards, &observed, &what);
    }
}

#[test]
fn dp_ucb_int_law_matches_the_simulated_policy() {
    goodness_of_fit(100_000);
}

#[test]
#[ignore = "10^6 runs on each of 6 tables: about 15 s in debug"]
fn dp_ucb_int_law_matches_the_simulated_policy_at_a_million_runs() {
    goodness_of_fit(1_000_000);
}

fn decimal(v: &serde_json::Value) -> f64 {
    v.as_str().unwrap().parse().unwrap()
}

/// `dpdtol privacy` of dp-ucb-int on {0, 1} with K = `actions`, `--noise-scale b`
/// and `--delta 1/1000`, its JSON.
fn privacy(actions: &str, horizon: &str, epsilon: &str, b: &str) -> serde_json::Value {
    common::json(&[
        "privacy",
        "--algorithm",
        "dp-ucb-int",
        "--actions",
        actions,
        "--horizon",
        horizon,
        "--alphabet",
        "0,1",
        "--epsilon",
        epsilon,
        "--noise-scale",
        b,
        "--delta",
        "1/1000",
        "--json",
    ])
}

/// At T = 3 only round 3 is random: counts (1, 1), both scales `b`, the
/// bonuses cancel, so arm 1 is pulled with `P(L_0 − L_1 ≥ θ) = S(θ)`,
/// `S(θ) = e^{−θ/b}(2 + θ/b)/4` at `θ = y_2 − y_1 ≥ 0` (the law's module
/// documentation, and the quadrature above). A neighbour moves `θ` by 1, the
/// largest ratio being `S(0)/S(1)`: `(1/2)/(¾e^{−1}) = 2e/3 ≈ 1.81 < e` at the
/// printed `b = 1` — private, `δ(1) = 0` — and `(1/2)/e^{−2} = e²/2 ≈ 3.69 > e`
/// at half the noise (`b = 1/2`), refuted with `δ(1) = 1/2 − e·e^{−2} =
/// 1/2 − 1/e` (the pair θ = 0 against θ = 1, arm 1).
#[test]
fn dp_ucb_int_half_the_noise_is_refuted_at_three_rounds() {
    let e = 1f64.exp();
    let printed = privacy("2", "3", "1", "1");
    assert_eq!(printed["verdict"], "private", "{printed}");
    let ratio = decimal(&printed["witness"]["ratio"]);
    assert!((ratio - 2.0 * e / 3.0).abs() < 1e-12, "{ratio}");
    assert_eq!(printed["delta"]["verdict"], "private", "{printed}");
    assert_eq!(decimal(&printed["delta"]["value"]), 0.0);
    let planted = privacy("2", "3", "1", "1/2");
    assert_eq!(planted["verdict"], "violated", "{planted}");
    assert_eq!(planted["noise_scale"], "1/2");
    let ratio = decimal(&planted["witness"]["ratio"]);
    assert!((ratio - e * e / 2.0).abs() < 1e-12, "{ratio}");
    assert_eq!(planted["delta"]["verdict"], "violated");
    let delta = decimal(&planted["delta"]["value"]);
    assert!((delta - (0.5 - 1.0 / e)).abs() < 1e-12, "{delta}");
}

/// At ε = 1/2 (f = 2) and T = 5 rounds 1–4 are round-robin and round 5 one
/// comparison at counts (2, 2): scales `a = b·2^{−9/20}` for both arms, the
/// bonuses cancel, `θ = m_1 − m_0` in steps of 1/2 and a neighbour moves it
/// by 1/2. The largest ratio is `S(1/2)/S(1) = e^{1/(2a)}(2 + 1/(2a))/(2 + 1/a)`
/// (`S` of the three-round test): about 1.578 < e^{1/2} at the printed `b = 1`,
/// about 2.79 > e^{1/2} at `b = 1/2`, refuted.
#[test]
fn dp_ucb_int_kept_indices_half_the_noise_is_refuted_at_five_rounds() {
    let expected = |b: f64| {
        let inverse = 1.0 / (b * 2f64.powf(-0.45));
        (inverse / 2.0).exp() * (2.0 + inverse / 2.0) / (2.0 + inverse)
    };
    for (b, factor, verdict) in [("1", 1.0, "private"), ("1/2", 0.5, "violated")] {
        let report = privacy("2", "5", "1/2", b);
        assert_eq!(report["verdict"], verdict, "{report}");
        let ratio = decimal(&report["witness"]["ratio"]);
        assert!(
            (ratio - expected(factor)).abs() < 1e-12,
            "b = {b}: {ratio} vs {}",
            expected(factor)
        );
    }
}

/// `sample` on two neighbouring tables (rows (1/2, 0), (1, 1/2), (0, 1) and
/// the first row replaced by (0, 0)), then `audit` of the samples: round 3
/// compares counts (1, 1), so arm 0 (action 1 of the files) is pulled with
/// `S(θ)`, `θ = m_1 − m_0`: `1/2 − 1/2 = 0` on the first table (1/2) and
/// `1/2` on the second, `S(1/2) = e^{−1/2}(5/2)/4`; the exact ratio the audit
/// prints for the event it picks with these seeds, "round 3 plays action 1",
/// is `(1/2)/S(1/2) = (4/5)e^{1/2} ≈ 1.319`, below `e`: consistent.
#[test]
fn dp_ucb_int_samples_of_neighbouring_tables_audit_as_consistent() {
    let dir = common::scratch("dp-ucb-int-audit");
    let file =
        |name: &str, rows: &str| common::scratch_file(dir.to_str().unwrap(), name, rows.as_bytes());
    let (x, y) = (
        file("x.csv", "1/2,0\n1,1/2\n0,1\n"),
        file("y.csv", "0,0\n1,1/2\n0,1\n"),
    );
    let samples = |table: &str, seed: &str, out: &str| {
        let out = dir.join(out).to_str().unwrap().to_string();
        let args = ["sample", "--algorithm", "dp-ucb-int", "--epsilon", "1"];
        let run = common::dpdtol(
            &[
                &args[..],
                &[
                    "--rewards-file",
                    table,
                    "--n",
                    "4000",
                    "--seed",
                    seed,
                    "--out",
                    &out,
                ],
            ]
            .concat(),
        );
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        out
    };
    let (first, second) = (samples(&x, "1", "px.csv"), samples(&y, "2", "py.csv"));
    let report = common::json(&[
        "audit",
        "--algorithm",
        "dp-ucb-int",
        "--epsilon",
        "1",
        "--rewards-file",
        &x,
        "--neighbour-file",
        &y,
        "--first",
        &first,
        "--second",
        &second,
        "--json",
    ]);
    assert_eq!(report["verdict"], "consistent", "{report}");
    let interval = &report["exact_event_ratio"]["interval"];
    let expected = 0.8 * 0.5f64.exp();
    for end in [0, 1] {
        assert!(
            (decimal(&interval[end]) - expected).abs() < 1e-12,
            "{report}"
        );
    }
}

/// K = 3, T = 4, ε = 1: rounds 1–3 pull arms 0, 1, 2 and round 4 compares
/// three draws of scale 1 with equal bonuses, the means `m ∈ {0, 1}³`; a
/// neighbour flips one arm's mean. This mpmath script maximises the ratio of
/// round 4's probabilities by quadrature:
///
/// ```text
/// from mpmath import mp, mpf, exp, quad, inf
/// from itertools import product
/// mp.dps = 30
/// def lap_pdf(x): return exp(-abs(x))/2
/// def lap_cdf(x): return exp(x)/2 if x < 0 else 1 - exp(-x)/2
/// def p_wins(a, m):
///     ds = [m[a] - m[b] for b in range(3) if b != a]
///     h = lambda x: lap_pdf(x) * mp.fprod(lap_cdf(x + d) for d in ds)
///     return quad(h, [-inf] + sorted({mpf(0)} | {mpf(-d) for d in ds}) + [inf])
/// best = 0
/// for m in product([0, 1], repeat=3):
///     for j in range(3):
///         m2 = list(m); m2[j] = 1 - m2[j]
///         for a in range(3):
///             best = max(best, p_wins(a, m) / p_wins(a, m2))
/// print(best)   # 2.3473325393296640838877923522
/// ```
#[test]
fn dp_ucb_int_three_arms_check_matches_an_independent_maximum() {
    let report = privacy("3", "4", "1", "1");
    assert_eq!(report["verdict"], "private", "{report}");
    let ratio = decimal(&report["witness"]["ratio"]);
    assert!((ratio - 2.347_332_539_329_664).abs() < 1e-12, "{ratio}");
}

/// A reward table of `horizon` rows for three arms (the first 13 rows of a
/// fixed pattern), written to a scratch file.
fn three_arm_table(dir: &std::path::Path, horizon: usize) -> String {
    let rows = "1,0,1\n0,1,1\n1,1,0\n1,0,1\n1,0,0\n1,1,1\n0,1,0\n1,0,1\n0,1,1\n1,1,0\n0,0,1\n1,0,1\n0,1,0\n";
    let table: String = rows
        .lines()
        .take(horizon)
        .map(|r| format!("{r}\n"))
        .collect();
    let name = format!("table{horizon}.csv");
    common::scratch_file(dir.to_str().unwrap(), &name, table.as_bytes())
}

/// K = 3 at ε = 1/2 (f = 2) from the command line: `law` at T = 10 (rounds
/// 7–10 nest kept indices) sums to 1, `sample` then `gof` of the library's
/// policy is consistent with it, and T = 13 (`3^7` sequences after
/// round-robin, `⌈7·4/3⌉` units each: 21 870) is refused naming `--force`.
#[test]
fn dp_ucb_int_three_arms_below_epsilon_one_from_the_command_line() {
    let dir = common::scratch("dp-ucb-int-nested");
    let table = three_arm_table(&dir, 10);
    let args = [
        "--algorithm",
        "dp-ucb-int",
        "--epsilon",
        "1/2",
        "--rewards-file",
    ];
    let law = common::json(&[&["law"], &args[..], &[&table, "--json"]].concat());
    let total: f64 = law["law"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| decimal(&row["probability"]))
        .sum();
    assert!((total - 1.0).abs() < 1e-12, "{total}");
    assert_eq!(law["kind"], "certified");
    let samples = dir.join("samples.csv").to_str().unwrap().to_string();
    let sample = common::dpdtol(
        &[
            &["sample"],
            &args[..],
            &[&table, "--n", "20000", "--seed", "7", "--out", &samples],
        ]
        .concat(),
    );
    assert!(sample.status.success(), "{sample:?}");
    let gof = common::json(
        &[
            &["gof"],
            &args[..],
            &[&table, "--samples", &samples, "--json"],
        ]
        .concat(),
    );
    assert_eq!(gof["reject"], false, "{gof}");
    common::refused(
        &[&["law"], &args[..], &[&three_arm_table(&dir, 13)]].concat(),
        "21870",
    );
}

/// K = 3, T = 7, ε = 1/2 (f = 2): rounds 1–6 are round-robin and round 7
/// compares three fresh draws of scale `σ(2) = 2^{−9/20}` with equal bonuses,
/// the means `m ∈ {0, 1/2, 1}³`; a neighbour moves one arm's mean by 1/2.
/// This mpmath script maximises the ratio of round 7's probabilities by
/// quadrature (not the closed form): above `e^{1/2}`, violated.
///
/// ```text
/// from mpmath import mp, mpf, exp, quad, inf
/// from itertools import product
/// mp.dps = 30
/// s = mpf(2)**(mpf(11)/20 - 1)   # σ(2) = 2^{v/2 − 1}, v = 11/10
/// def lap_pdf(x): return exp(-abs(x)/s)/(2*s)
/// def lap_cdf(x): return exp(x/s)/2 if x < 0 else 1 - exp(-x/s)/2
/// def p_wins(a, m):
///     ds = [m[a] - m[b] for b in range(3) if b != a]
///     h = lambda x: lap_pdf(x) * mp.fprod(lap_cdf(x + d) for d in ds)
///     return quad(h, [-inf] + sorted({mpf(0)} | {mpf(-d) for d in ds}) + [inf])
/// half = mpf(1)/2
/// best = 0
/// for m in product([0, half, 1], repeat=3):
///     for j in range(3):
///         for step in (-half, half):
///             m2 = list(m); m2[j] += step
///             if not 0 <= m2[j] <= 1: continue
///             for a in range(3):
///                 best = max(best, p_wins(a, m) / p_wins(a, m2))
/// print(best)   # 1.87554404875250929496323693345
/// ```
#[test]
fn dp_ucb_int_three_arms_below_epsilon_one_check_matches_an_independent_maximum() {
    let report = common::json(&[
        "privacy",
        "--algorithm",
        "dp-ucb-int",
        "--actions",
        "3",
        "--horizon",
        "7",
        "--alphabet",
        "0,1",
        "--epsilon",
        "1/2",
        "--json",
    ]);
    assert_eq!(report["verdict"], "violated", "{report}");
    let ratio = decimal(&report["witness"]["ratio"]);
    assert!((ratio - 1.875_544_048_752_509_3).abs() < 1e-12, "{ratio}");
}
