//! The (ε, δ) check from the whole law (`dpdtol::privacy::delta`): exact
//! values derived by hand on tiny instances, two backends that agree, the
//! agreement with the ratio check at δ = 0, and a mechanism that is not ε-DP
//! but is (ε, δ)-DP for the right δ.

use dpdtol::algorithm::{AlgorithmId, Config};
use dpdtol::bandit::law::dp_se::{DpSeParams, DpSeVariant};
use dpdtol::bandit::law::params::Overrides;
use dpdtol::bandit::policy::dp_se::RewardIndex;
use dpdtol::bandit::policy::BanditId;
use dpdtol::error::Error;
use dpdtol::mechanism::{softmax, Noise};
use dpdtol::num::{Certified, Exact, ExpRational, Kind, Precision, Real, Q};
use dpdtol::privacy::bandit::setup::{Law, Setup};
use dpdtol::privacy::delta::{self, largest, Found};
use dpdtol::privacy::one_shot::{self, Neighbours, OneShot, OneShotOptions};
use dpdtol::privacy::{check, Options, Problem, Verdict};

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

/// The exponential mechanism with the rational base w = 1/2 on two actions
/// over the inputs (0,0), (0,1), (1,0), (1,1) (P(j) ∝ w^{x_j}): the laws
/// (1/2, 1/2), (2/3, 1/3), (1/3, 2/3), (1/2, 1/2), every ordered pair of
/// distinct inputs a neighbour, against e^ε = `c`.
fn softmax_base_half<R: Real>(c: &Q, target: &Q, ctx: &R::Context) -> Found<R> {
    let half = R::from_rational(&q(1, 2), ctx);
    let one = R::from_int(1, ctx);
    let weight = |loss: i64| if loss == 0 { one.clone() } else { half.clone() };
    let inputs = [(0, 0), (0, 1), (1, 0), (1, 1)];
    let laws: Vec<Vec<R>> = inputs
        .iter()
        .map(|&(a, b)| softmax::law(&[weight(a), weight(b)]))
        .collect();
    let pairs = (0..4).flat_map(|x| (0..4).filter(move |&y| y != x).map(move |y| (x, y)));
    largest(&laws, pairs, &R::from_rational(c, ctx), target).unwrap()
}

/// δ of the exponential mechanism with base 1/2, by hand: the pair
/// ((0,1), (1,0)) is the worst, δ = (2/3 − c/3)₊ + (1/3 − 2c/3)₊ =
/// (2 − c)/3 for 1 ≤ c ≤ 2 (the second term vanishes); the pair
/// ((0,1), (0,0)) gives (2/3 − c/2)₊ + (1/3 − c/2)₊ = (4 − 3c)/6 ≤ (2 − c)/3.
/// So δ(e^ε = 1) = 1/3 (the total variation), δ(3/2) = 1/6, δ(2) = 0. Exact
/// and certified backends agree.
#[test]
fn exponential_mechanism_with_a_rational_base_has_the_closed_form_delta() {
    for (c, expected) in [(q(1, 1), q(1, 3)), (q(3, 2), q(1, 6)), (q(2, 1), q(0, 1))] {
        let exact = softmax_base_half::<Exact>(&c, &expected, &());
        assert_eq!(
            exact.lower,
            Exact::from_rational(&expected, &()),
            "e^ε = {c}"
        );
        assert_eq!(exact.upper, expected, "e^ε = {c}");
        // The witness is ((0,1), (1,0)) while δ > 0; at δ = 0 every pair
        // ties and the first, ((0,0), (0,1)), is kept.
        let witness = if expected > q(0, 1) { (1, 2) } else { (0, 1) };
        assert_eq!(exact.pair, witness, "e^ε = {c}");
        assert_eq!(exact.verdict(), Verdict::Private, "δ(ε) = D is private");
        assert_eq!(exact.pairs, 12);
        let certified = softmax_base_half::<Certified>(&c, &expected, &Precision(128));
        let (lo, hi) = certified.lower.enclosure().unwrap();
        assert!(lo <= expected && expected <= certified.upper, "e^ε = {c}");
        assert!(hi >= expected);
        assert_eq!(certified.pair, exact.pair);
    }
}

/// At e^ε = 3/2 the mechanism is not ε-DP (the ratio (2/3)/(1/3) = 2 >
/// 3/2, so δ = 0 is violated), but it is (ε, 1/6)-DP and not (ε, 1/7)-DP.
#[test]
fn not_epsilon_private_but_epsilon_delta_private_for_the_right_delta() {
    let c = q(3, 2);
    let at = |d: Q| softmax_base_half::<Exact>(&c, &d, &()).verdict();
    assert_eq!(at(q(0, 1)), Verdict::Violated);
    assert_eq!(at(q(1, 7)), Verdict::Violated);
    assert_eq!(at(q(1, 6)), Verdict::Private);
    assert_eq!(at(q(1, 5)), Verdict::Private);
}

/// The Gumbel report-noisy-max (exponential mechanism) with scale β = 1 on
/// two actions, losses {0, 1}, ε = 1/2: with w = e^{−1} the better action
/// has probability 1/(1 + w). The worst pair swaps the losses ((0,1) against
/// (1,0)): δ = (1/(1+w) − e^{1/2} w/(1+w))₊ = (e − √e)/(e + 1) ≈ 0.28765
/// (the other action's term is negative; the pair against (0,0) gives
/// e/(e+1) − √e/2 < 0). Certified (and, at the open target, the exact
/// field) contain it; the verdict flips between D = 0.287 and 0.288.
#[test]
fn gumbel_selection_delta_matches_its_closed_form() {
    let problem = OneShot::new(
        Noise::Gumbel,
        2,
        vec![q(0, 1), q(1, 1)],
        Neighbours::Any,
        q(1, 2),
        Some(q(1, 1)),
    )
    .unwrap();
    let ctx = Precision(256);
    let e = Certified::from_int(1, &ctx).exp().unwrap();
    let root = Certified::from_rational(&q(1, 2), &ctx).exp().unwrap();
    let closed = (e.clone() - root) / (e + Certified::from_int(1, &ctx));
    let (clo, chi) = closed.enclosure().unwrap();
    let below = delta::one_shot(&problem, &q(287, 1000), false).unwrap();
    assert_eq!(below.verdict, Verdict::Violated);
    let above = delta::one_shot(&problem, &q(288, 1000), false).unwrap();
    assert_eq!(above.verdict, Verdict::Private);
    for d in [below, above] {
        assert!(d.lo <= chi && clo <= d.hi, "[{}, {}]", d.lo, d.hi);
        assert_eq!(d.kind, Kind::Certified);
        assert_eq!(d.input, vec![vec![q(0, 1), q(1, 1)]]);
        assert_eq!(d.neighbour, vec![vec![q(1, 1), q(0, 1)]]);
        assert_eq!(d.pairs, 12);
    }
    // The exact field on the same laws: its value lies in the certified one.
    let scale = dpdtol::mechanism::Scale::beta(q(1, 1)).unwrap();
    let inputs = [[0, 1], [1, 0]].map(|v| v.map(|x| q(x, 1)).to_vec());
    let laws: Vec<Vec<ExpRational>> = inputs
        .iter()
        .map(|x| dpdtol::mechanism::law::<ExpRational>(Noise::Gumbel, x, &scale, &()).unwrap())
        .collect();
    let exact = largest(&laws, [(0, 1)], &ExpRational::exp_of(&q(1, 2)), &q(0, 1)).unwrap();
    let (lo, hi) = exact
        .lower
        .enclose(Precision(256))
        .unwrap()
        .enclosure()
        .unwrap();
    assert!(lo <= chi && clo <= hi);
}

/// An attained maximum (permute-and-flip at scale 2/ε, neighbours one unit
/// apart: the ratio equals e^ε) has δ(ε) = 0 exactly, decided in the exact
/// field where the certified terms straddle 0.
#[test]
fn an_attained_maximum_has_delta_exactly_zero() {
    let problem = OneShot::new(
        Noise::Exponential,
        2,
        vec![q(0, 1), q(1, 1), q(2, 1)],
        Neighbours::Linf(q(1, 1)),
        q(1, 1),
        None,
    )
    .unwrap();
    let d = delta::one_shot(&problem, &q(0, 1), false).unwrap();
    assert_eq!(d.verdict, Verdict::Private);
    assert_eq!(d.kind, Kind::Exact);
    assert_eq!(d.exact, Some(q(0, 1)));
    assert_eq!(d.pairs, problem.pairs().unwrap());
}

/// At δ = 0 the (ε, δ) verdict is the ratio check's, over a grid of
/// full-information algorithms, noise scales and ε (the ratio check is
/// structural, the δ check enumerates whole laws), and of one-shot
/// selections under each neighbour relation.
#[test]
fn delta_zero_agrees_with_the_ratio_check() {
    let mut violated = 0;
    let ids = [
        (AlgorithmId::Ftl, None),
        (AlgorithmId::NaiveFtnl, None),
        (AlgorithmId::HuRnmFtnl, None),
        (AlgorithmId::WuWang, Some(Noise::Gumbel)),
        (AlgorithmId::WuWang, Some(Noise::Exponential)),
        (AlgorithmId::PrefixSoftmax, None),
    ];
    for (id, noise) in ids {
        for eps in [q(1, 2), q(1, 1)] {
            for scale in [None, Some(q(1, 4))] {
                let mut config = Config::new(id, 2, eps.clone());
                config.noise = noise;
                config.noise_scale = scale.clone().filter(|_| id != AlgorithmId::Ftl);
                let algorithm = config.build().unwrap();
                let problem = Problem::new(3, vec![q(0, 1), q(1, 1)], eps.clone()).unwrap();
                let ratio = check(&algorithm, &problem, &Options::default()).unwrap();
                let d = delta::full_information(&algorithm, &problem, &q(0, 1), false).unwrap();
                assert_eq!(
                    ratio.verdict, d.verdict,
                    "{id} {noise:?} ε = {eps} scale {scale:?}: δ = [{}, {}]",
                    d.lo, d.hi
                );
                violated += usize::from(d.verdict == Verdict::Violated);
            }
        }
    }
    assert!(violated >= 4, "the grid has violations to agree on");
    for noise in [Noise::Gumbel, Noise::Exponential, Noise::Laplace] {
        for neighbours in [
            Neighbours::Any,
            Neighbours::Linf(q(1, 1)),
            Neighbours::One(q(1, 1)),
        ] {
            for scale in [None, Some(q(1, 2))] {
                let problem = OneShot::new(
                    noise,
                    2,
                    vec![q(0, 1), q(1, 1), q(2, 1)],
                    neighbours.clone(),
                    q(1, 1),
                    scale.clone(),
                )
                .unwrap();
                let ratio = one_shot::check(&problem, &OneShotOptions::default()).unwrap();
                let d = delta::one_shot(&problem, &q(0, 1), false).unwrap();
                assert_eq!(
                    ratio.report.verdict, d.verdict,
                    "{noise:?} {neighbours} scale {scale:?}"
                );
                assert_eq!(d.pairs, problem.pairs().unwrap(), "{neighbours}");
            }
        }
    }
}

/// Anytime-Lazy-UCB with half its Laplace scale is not ε-DP at T = 4 (the
/// ratio check refutes it), so δ(ε) > 0 and δ = 0 is violated; at the
/// printed scale both checks say private.
#[test]
fn bandit_delta_zero_agrees_with_the_ratio_check() {
    for (scale, private) in [(None, true), (Some(q(1, 2)), false)] {
        let problem = Problem::new(4, vec![q(0, 1), q(1, 1)], q(1, 1)).unwrap();
        let overrides = Overrides {
            scale,
            ..Overrides::default()
        };
        let setup = Setup::new(BanditId::AnytimeLazyUcb, 2, problem, overrides).unwrap();
        let d = setup.delta(&q(0, 1), false).unwrap();
        let ratio = setup.check(dpdtol::privacy::Shard::WHOLE, false).unwrap();
        assert_eq!(ratio.verdict, d.verdict);
        let expected = if private {
            Verdict::Private
        } else {
            Verdict::Violated
        };
        assert_eq!(d.verdict, expected);
        if !private {
            assert!(d.lo > q(0, 1));
            assert_eq!(d.witness.0, d.lo);
        }
    }
}

/// A check past the limit on terms is refused, naming its size and
/// `--force`.
#[test]
fn a_large_delta_check_is_refused_with_its_size() {
    let algorithm = Config::new(AlgorithmId::HuRnmFtnl, 2, q(1, 1))
        .build()
        .unwrap();
    let problem = Problem::new(9, vec![q(0, 1), q(1, 1)], q(1, 1)).unwrap();
    match delta::full_information(&algorithm, &problem, &q(0, 1), false) {
        Err(Error::TooLarge(message)) => {
            assert!(message.contains("--force"), "{message}");
            assert!(message.contains("ordered pairs"), "{message}");
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
}

/// DP-SE at K = 2, T = 3, rewards {0, 1}: ε = 1, β = 1/2, R_1 = 1, noise
/// scale b = 2 on each epoch sum, the table read as `reading` says.
fn dp_se_t3(reading: RewardIndex) -> (Setup, DpSeParams) {
    let problem = Problem::new(3, vec![q(0, 1), q(1, 1)], q(1, 1)).unwrap();
    let overrides = Overrides {
        scale: Some(q(2, 1)),
        lengths: Some(vec![1]),
        dp_se: DpSeVariant {
            beta: Some(q(1, 2)),
            reward_index: reading,
            ..DpSeVariant::default()
        },
        ..Overrides::default()
    };
    let setup = Setup::new(BanditId::DpSe, 2, problem, overrides).unwrap();
    match setup.law().unwrap() {
        Law::DpSe(params) => (setup, *params),
        other => panic!("dp-se built {other:?}"),
    }
}

/// `Σ_a (P(a|x) − e^ε P(a|x′))₊` of the two tables, in f64, from the law of
/// the pull sequences (what `dpdtol law` prints for each table).
fn pair_delta_from_law(params: &DpSeParams, x: &[Vec<Q>], y: &[Vec<Q>], epsilon: f64) -> f64 {
    let ctx = Precision(128);
    let p = dpdtol::bandit::law::law::<Certified>(params, x, &ctx).unwrap();
    let r = dpdtol::bandit::law::law::<Certified>(params, y, &ctx).unwrap();
    p.iter()
        .zip(&r)
        .map(|((a, pa), (b, pb))| {
            assert_eq!(a, b);
            (pa.to_f64() - epsilon.exp() * pb.to_f64()).max(0.0)
        })
        .sum()
}

/// DP-SE's δ on a table read by pull (arm a's n-th pull receives row n's
/// entry of arm a), against the closed form. One epoch ends before T = 3
/// (rounds 1–2 pull arms 1, 2), and round 3 pulls arm 2 iff arm 1 was
/// eliminated: `P(1 2 2 | x) = G(w − x)`, `P(1 2 1 | x) = 1 − G(w − x)`,
/// with `G(u) = ½e^{−u/b}(1 + u/(2b))`, `b = 2`, the width
/// `w = 2(√(ln(8·2/β)/2) + ln(4·2/β)/ε) = 8.17795` and `x = S_2 − S_1`,
/// here row 1's arm-2 entry minus its arm-1 entry (by round: row 2's arm-2
/// entry minus row 1's arm-1 entry). Neighbours replace one entry (by
/// round: one row), which moves `x` by one; at e^{2/5} (the law's ε stays
/// 1) the largest δ is the pair x = 1 against x = 0:
///
/// ```text
/// from math import log, sqrt, exp
/// b, eps, beta = 2.0, 1.0, 0.5
/// w = 2 * (sqrt(log(8 * 2 / beta) / 2) + log(4 * 2 / beta) / eps)
/// G = lambda u: 0.5 * exp(-u / b) * (1 + u / (2 * b)) if u >= 0 else 1 - G(-u)
/// law = lambda x: [1 - G(w - x), G(w - x)]
/// d = lambda x, y: sum(max(p - exp(0.4) * r, 0) for p, r in zip(law(x), law(y)))
/// max(d(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if abs(x - y) == 1)
/// # 0.0005486825709043949 (x = 0 against −1: 0.0005321159581042276;
/// # 1 against −1, two entries of row 1 replaced: 0.013625950509271584)
/// ```
///
/// The check reads the table as the law reads it: its witness, given to
/// the by-pull law again, has the δ reported, and the pairs are the
/// 4³ tables times 3 rows times 2 entries. The value equals the by-round
/// one (each reading maps the rewards an epoch sums to distinct cells, the
/// same for every pull sequence), the witnesses differ.
#[test]
fn dp_se_delta_reads_the_table_by_pull() {
    let expected = 0.000_548_682_570_904_394_9;
    let delta_at = |reading| {
        let (setup, params) = dp_se_t3(reading);
        let mut problem = setup.problem.clone();
        problem.epsilon = q(2, 5);
        (
            delta::bandit(&params, &problem, &q(0, 1), false).unwrap(),
            params,
        )
    };
    let (by_pull, params) = delta_at(RewardIndex::Pull);
    assert_eq!(by_pull.verdict, Verdict::Violated);
    assert_eq!(by_pull.pairs, 64 * 3 * 2);
    let lo = by_pull.lo.to_f64();
    assert!((lo - expected).abs() < 1e-15, "δ = {lo}");
    let again = pair_delta_from_law(&params, &by_pull.input, &by_pull.neighbour, 0.4);
    assert!(
        (again - expected).abs() < 1e-15,
        "the witness's δ by pull: {again}"
    );
    let changed = |x: &[Vec<Q>], y: &[Vec<Q>]| {
        x.iter()
            .flatten()
            .zip(y.iter().flatten())
            .filter(|(a, b)| a != b)
            .count()
    };
    assert_eq!(changed(&by_pull.input, &by_pull.neighbour), 1);
    // The witness names the entry it replaces: a row read by pull is no
    // round's data, so the row alone would not say which reward changed.
    let (row, arm) = (by_pull.round - 1, by_pull.arm.expect("an entry"));
    assert_ne!(by_pull.input[row][arm], by_pull.neighbour[row][arm]);
    let (by_round, round_params) = delta_at(RewardIndex::Round);
    assert_eq!(by_round.pairs, 64 * 3 * 3);
    assert_eq!(by_round.arm, None, "a row replaced names no entry");
    assert!((by_round.lo.to_f64() - expected).abs() < 1e-15);
    let again = pair_delta_from_law(&round_params, &by_round.input, &by_round.neighbour, 0.4);
    assert!(
        (again - expected).abs() < 1e-15,
        "the witness's δ by round: {again}"
    );
    // The by-round witness, (0,0) (0,1) (0,0) against (1,0) (0,1) (0,0),
    // read by pull is x = 0 against −1: another δ.
    let other = pair_delta_from_law(&params, &by_round.input, &by_round.neighbour, 0.4);
    assert!(
        (other - 0.000_532_115_958_104_227_6).abs() < 1e-15,
        "{other}"
    );
}

/// On the same DP-SE read by pull, δ(ε) is 0 exactly where the ratio check
/// says ε-DP: at a rational ε just above ln of its largest ratio
/// (1.5236091, ln 0.4210819 by the script above: the largest
/// `P(a|x)/P(a|x′)` over entry neighbours) δ = 0, just below it δ > 0.
#[test]
fn dp_se_by_pull_delta_vanishes_at_the_ratio_checks_epsilon() {
    let (setup, params) = dp_se_t3(RewardIndex::Pull);
    let ratio = setup
        .clone()
        .check(dpdtol::privacy::Shard::WHOLE, false)
        .unwrap();
    let (lo, hi) = ratio.outcome.max_ratio.clone().unwrap();
    let star = lo.to_f64().ln();
    assert!(
        (star - 0.421_081_938_027_190_7).abs() < 1e-12,
        "ln ratio = {star}"
    );
    assert!(hi.to_f64().ln() < 0.4211);
    for (epsilon, verdict) in [
        (q(4211, 10000), Verdict::Private),
        (q(4210, 10000), Verdict::Violated),
    ] {
        let mut problem = setup.problem.clone();
        problem.epsilon = epsilon.clone();
        let d = delta::bandit(&params, &problem, &q(0, 1), false).unwrap();
        assert_eq!(
            d.verdict, verdict,
            "ε = {epsilon}: δ in [{}, {}]",
            d.lo, d.hi
        );
        if verdict == Verdict::Private {
            assert_eq!(d.hi, q(0, 1));
        }
    }
}
