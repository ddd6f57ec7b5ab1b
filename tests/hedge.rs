//! `hedge` and `decreasing-hedge` (`src/algorithm/hedge.rs`): laws derived
//! by hand in the exact field of `ExpRational` and set against the certified
//! backends, the privacy ratios derived by hand, and the f64 sampler against
//! the law (chi-square, fixed seeds) with a planted wrong learning rate that
//! must be rejected.
//!
//! Conventions: rounds and actions are 1-based in comments, 0-based in code.
//! Round `t` plays `j` with probability `e^{−η_t L_j} / Σ_i e^{−η_t L_i}`,
//! `L_j` the loss of `j` summed over rounds `1..t`.

mod common;

use dpdtol::algorithm::{
    AlgorithmId, BestOptions, BestSequenceLaw, Config, OnlineAlgorithm, SequenceLaw,
};
use dpdtol::num::{Certified, ExpRational, Precision, Real, Q};
use dpdtol::privacy::{check, Options, Problem, Verdict};
use dpdtol::Error;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

/// `hedge` on K actions at learning rate `eta` (temperature `1/η`).
fn hedge(k: usize, eta: Q) -> Config {
    let mut c = Config::new(AlgorithmId::Hedge, k, q(1, 1));
    c.noise_scale = Some(eta.recip());
    c
}

fn decreasing(k: usize) -> Config {
    Config::new(AlgorithmId::DecreasingHedge, k, q(1, 1))
}

/// Rows of rational losses from integer pairs.
fn rows(pairs: &[[i64; 2]]) -> Vec<Vec<Q>> {
    pairs
        .iter()
        .map(|r| r.iter().map(|&x| q(x, 1)).collect())
        .collect()
}

/// Every action sequence of `[K]^t` in lexicographic order.
fn sequences(k: usize, t: usize) -> Vec<Vec<usize>> {
    (0..k.pow(t as u32))
        .map(|mut n| {
            let mut s = vec![0; t];
            for a in s.iter_mut().rev() {
                *a = n % k;
                n /= k;
            }
            s
        })
        .collect()
}

fn exact(x: &Q) -> ExpRational {
    ExpRational::from_rational(x, &())
}

fn exp(x: &Q) -> ExpRational {
    ExpRational::exp_of(x)
}

/// The losses of the hand derivations: rounds (0,1), (0,1), (1,0).
fn by_hand_losses() -> Vec<Vec<Q>> {
    rows(&[[0, 1], [0, 1], [1, 0]])
}

#[test]
fn hedge_law_by_hand_in_the_exact_field() {
    // η = 1/2 on (0,1), (0,1), (1,0). The cumulative losses before rounds
    // 1, 2, 3 are (0,0), (0,1), (0,2), so with w = e^{−η}:
    //   round 1: (1/2, 1/2)
    //   round 2: (1, w)/(1 + w)
    //   round 3: (1, w²)/(1 + w²)
    // and P(2, 2, 1) = 1/2 · w/(1 + w) · 1/(1 + w²).
    let eta = q(1, 2);
    let algorithm = hedge(2, eta.clone()).build().unwrap();
    let law = SequenceLaw::<ExpRational>::of(&algorithm, &by_hand_losses(), &()).unwrap();
    let one = exact(&q(1, 1));
    let w = exp(&-eta.clone());
    let w2 = exp(&-(eta * q(2, 1)));
    let half = exact(&q(1, 2));
    let round2 = [
        one.clone() / &(one.clone() + &w),
        w.clone() / &(one.clone() + &w),
    ];
    let round3 = [
        one.clone() / &(one.clone() + &w2),
        w2.clone() / &(one.clone() + &w2),
    ];
    let mut total = exact(&q(0, 1));
    for s in sequences(2, 3) {
        let p = law.probability(&s, &());
        let by_hand = half.clone() * &round2[s[1]] * &round3[s[2]];
        assert_eq!(p, by_hand, "sequence {s:?}");
        total = total + &p;
    }
    // The law sums to exactly 1.
    assert_eq!(total, one);
    // P(2, 2, 1) = 1/2 · w/(1 + w) · 1/(1 + w²), 0.07751… in doubles:
    // w = e^{−1/2} = 0.6065306597, w/(1+w) = 0.3775406688,
    // 1/(1+w²) = 1/(1 + e^{−1}) = 0.7310585786; half of their product.
    let p = law.probability(&[1, 1, 0], &()).to_f64();
    assert!(
        (p - 0.5 * 0.377_540_668_8 * 0.731_058_578_6).abs() < 1e-9,
        "{p}"
    );
}

#[test]
fn hedge_law_is_not_rational_and_certified_encloses_the_exact_field() {
    let algorithm = hedge(2, q(1, 2)).build().unwrap();
    let losses = by_hand_losses();
    // The rational backend refuses: e^{−1/2} is transcendental.
    assert!(matches!(
        SequenceLaw::<Q>::of(&algorithm, &losses, &()),
        Err(Error::NotRepresentable(_))
    ));
    let BestSequenceLaw::Certified { law, .. } =
        SequenceLaw::best(&algorithm, &losses, BestOptions::default()).unwrap()
    else {
        panic!("a law with e^(-1/2) cannot be exact in the rationals");
    };
    let field = SequenceLaw::<ExpRational>::of(&algorithm, &losses, &()).unwrap();
    let bits = Precision(256);
    let mut total = Certified::from_int(0, &bits);
    for s in sequences(2, 3) {
        let p = law.probability(&s, &bits);
        let (lo, hi) = p.enclosure().unwrap();
        let x = field.probability(&s, &());
        assert!(exact(&lo) <= x && x <= exact(&hi), "{s:?}: [{lo}, {hi}]");
        total = total + &p;
    }
    let (lo, hi) = total.enclosure().unwrap();
    assert!(lo <= q(1, 1) && q(1, 1) <= hi, "[{lo}, {hi}]");
}

/// `P(action 1)` of decreasing-hedge's rounds 2 and 3 on (0,1), (0,1),
/// (1,0), K = 2, `c = 2`, from the formula in doubles:
/// `η_2 = 2√(ln 2/2) = √(2 ln 2)`, gap 1: `1/(1 + e^{−η_2})`;
/// `η_3 = 2√(ln 2/3)`, gap 2: `1/(1 + e^{−2η_3})`.
fn decreasing_by_hand() -> [f64; 2] {
    let ln2 = std::f64::consts::LN_2;
    let eta2 = (2.0 * ln2).sqrt();
    let eta3 = 2.0 * (ln2 / 3.0).sqrt();
    [
        1.0 / (1.0 + (-eta2).exp()),
        1.0 / (1.0 + (-2.0 * eta3).exp()),
    ]
}

#[test]
fn decreasing_hedge_law_by_hand_and_certified_only() {
    let algorithm = decreasing(2).build().unwrap();
    let losses = by_hand_losses();
    // √(ln 2) is irrational: neither exact backend represents η_t.
    assert!(SequenceLaw::<Q>::of(&algorithm, &losses, &()).is_err());
    assert!(SequenceLaw::<ExpRational>::of(&algorithm, &losses, &()).is_err());
    let bits = Precision(192);
    let law = SequenceLaw::<Certified>::of(&algorithm, &losses, &bits).unwrap();
    let [p2, p3] = decreasing_by_hand();
    let laws: Vec<&Vec<Certified>> = law.choices.iter().map(|(_, p)| p).collect();
    assert_eq!(laws[0][0].enclosure().unwrap().0, q(1, 2));
    assert!(
        (laws[1][0].to_f64() - p2).abs() < 1e-14,
        "{}",
        laws[1][0].to_f64()
    );
    assert!(
        (laws[2][0].to_f64() - p3).abs() < 1e-14,
        "{}",
        laws[2][0].to_f64()
    );
    // 0.7644817994… (√(2 ln 2) = 1.1774100225) and 0.8723… (2η_3 = 1.9227…).
    assert!((p2 - 0.764_481_799_4).abs() < 1e-9, "{p2}");
    let mut total = Certified::from_int(0, &bits);
    for s in sequences(2, 3) {
        total = total + &law.probability(&s, &bits);
    }
    let (lo, hi) = total.enclosure().unwrap();
    assert!(lo <= q(1, 1) && q(1, 1) <= hi, "[{lo}, {hi}]");
    assert!(&hi - &lo < q(1, 1 << 40), "width {}", hi - lo);
}

#[test]
fn decreasing_hedge_constant_and_override() {
    // `--noise-scale b` is 1/c: b = 1/2 is the default c = 2, and b = 1 halves
    // every η_t (so round 2 of the instance above has η = √(ln 2 / 2)).
    let bits = Precision(128);
    let losses = by_hand_losses();
    let default =
        SequenceLaw::<Certified>::of(&decreasing(2).build().unwrap(), &losses, &bits).unwrap();
    let mut named = decreasing(2);
    named.noise_scale = Some(q(1, 2));
    let named = SequenceLaw::<Certified>::of(&named.build().unwrap(), &losses, &bits).unwrap();
    let mut halved = decreasing(2);
    halved.noise_scale = Some(q(1, 1));
    let halved = SequenceLaw::<Certified>::of(&halved.build().unwrap(), &losses, &bits).unwrap();
    let eta2 = (std::f64::consts::LN_2 / 2.0).sqrt();
    for s in sequences(2, 3) {
        assert_eq!(
            default.probability(&s, &bits).enclosure(),
            named.probability(&s, &bits).enclosure()
        );
    }
    let p = halved.choices[1].1[0].to_f64();
    assert!((p - 1.0 / (1.0 + (-eta2).exp())).abs() < 1e-14, "{p}");
}

#[cfg(feature = "mpfr")]
#[test]
fn decreasing_hedge_mpfr_and_dashu_agree() {
    use dpdtol::num::{Interval, MpfrFloat};
    let algorithm = decreasing(3).build().unwrap();
    let losses: Vec<Vec<Q>> = [[0, 1, 2], [2, 1, 0], [1, 1, 2], [0, 2, 2], [1, 0, 1]]
        .iter()
        .map(|r| r.iter().map(|&x| q(x, 2)).collect())
        .collect();
    let bits = Precision(128);
    let a = SequenceLaw::<Certified>::of(&algorithm, &losses, &bits).unwrap();
    let b = SequenceLaw::<Interval<MpfrFloat>>::of(&algorithm, &losses, &bits).unwrap();
    let mut total = Interval::<MpfrFloat>::from_int(0, &bits);
    for s in sequences(3, losses.len()) {
        let (xl, xh) = a.probability(&s, &bits).enclosure().unwrap();
        let p = b.probability(&s, &bits);
        let (yl, yh) = p.enclosure().unwrap();
        assert!(xl <= yh && yl <= xh, "{s:?}: [{xl}, {xh}] vs [{yl}, {yh}]");
        total = total + &p;
    }
    let (lo, hi) = total.enclosure().unwrap();
    assert!(lo <= q(1, 1) && q(1, 1) <= hi, "[{lo}, {hi}]");
}

/// The maximum privacy ratio of `config` on K = 2, alphabet {0, 1}.
fn privacy(config: &Config, horizon: usize, epsilon: Q) -> dpdtol::privacy::Report {
    let problem = Problem::new(horizon, vec![q(0, 1), q(1, 1)], epsilon).unwrap();
    check(&config.build().unwrap(), &problem, &Options::default()).unwrap()
}

#[test]
fn hedge_privacy_ratios_by_hand() {
    // K = 2: round t's law depends on d = L_1 − L_2 only,
    // P(1 | d) = 1/(1 + e^{ηd}). Replacing round 1's (0,1) by (1,0) raises
    // every later d by 2, and P(1 | d)/P(1 | d + 2) = (1 + e^{η(d+2)})/(1 + e^{ηd})
    // grows with d. T = 2: round 2 reads d ∈ {−1, 1}: the ratio is
    // (1 + e^{η})/(1 + e^{−η}) = e^{η}. At η = ε the check is tight: private,
    // the maximum e^ε attained.
    let eta = q(1, 2);
    let report = privacy(&hedge(2, eta.clone()), 2, eta.clone());
    assert_eq!(report.verdict, Verdict::Private);
    assert!(report.attained);
    let (lo, hi) = (
        report.max_ratio.lo().unwrap(),
        report.max_ratio.hi().unwrap(),
    );
    let e_half = exp(&eta);
    assert!(exact(lo) <= e_half && e_half <= exact(hi), "[{lo}, {hi}]");

    // T = 3: round 3 reads d = −1 + δ against 1 + δ, δ ∈ {−1, 0, 1} round
    // 2's difference; the largest factor is at δ = 1: (1 + e^{2η})/2. Round
    // 2's change reaches round 3 only (factor ≤ e^{η}). So the maximum is
    // e^{η}(1 + e^{2η})/2 = e^{1/2}(1 + e)/2 = 3.0652051… at η = 1/2 > e^1.
    let report = privacy(&hedge(2, eta.clone()), 3, q(1, 1));
    assert_eq!(report.verdict, Verdict::Violated);
    let by_hand = e_half * &((exact(&q(1, 1)) + &exp(&q(1, 1))) / &exact(&q(2, 1)));
    let (lo, hi) = (
        report.max_ratio.lo().unwrap(),
        report.max_ratio.hi().unwrap(),
    );
    assert!(exact(lo) <= by_hand && by_hand <= exact(hi), "[{lo}, {hi}]");
    assert!(
        (by_hand.to_f64() - 3.065_205_17).abs() < 1e-6,
        "{}",
        by_hand.to_f64()
    );
    // Any T: the adversary's rounds 2..T−1 of difference +1 put round s at
    // d = s − 3 against s − 1, and the factors telescope:
    //   ∏_{s=2}^{T} (1 + e^{η(s−1)})/(1 + e^{η(s−3)})
    //     = (1 + e^{η(T−1)})(1 + e^{η(T−2)}) / (2(1 + e^{−η})),
    // e^{η} at T = 2 and the value above at T = 3; at T = 4, η = 1/2:
    // (1 + e^{3/2})(1 + e)/(2(1 + e^{−1/2})) = 6.3436…
    let report = privacy(&hedge(2, eta.clone()), 4, q(1, 1));
    let one = exact(&q(1, 1));
    let by_hand = (one.clone() + &exp(&q(3, 2))) * &(one.clone() + &exp(&q(1, 1)))
        / &(exact(&q(2, 1)) * &(one + &exp(&q(-1, 2))));
    let (lo, hi) = (
        report.max_ratio.lo().unwrap(),
        report.max_ratio.hi().unwrap(),
    );
    assert!(exact(lo) <= by_hand && by_hand <= exact(hi), "[{lo}, {hi}]");
}

#[test]
fn decreasing_hedge_privacy_ratio_by_hand() {
    // The same argument with η_2, η_3: e^{η_2}(1 + e^{2η_3})/2 =
    // e^{√(2 ln 2)}(1 + e^{4√(ln 2/3)})/2 = 12.7232… at c = 2.
    let report = privacy(&decreasing(2), 3, q(2, 1));
    assert_eq!(report.verdict, Verdict::Violated);
    let ln2 = std::f64::consts::LN_2;
    let by_hand = (2.0 * ln2).sqrt().exp() * (1.0 + (4.0 * (ln2 / 3.0).sqrt()).exp()) / 2.0;
    let lo = common::to_f64(report.max_ratio.lo().unwrap());
    let hi = common::to_f64(report.max_ratio.hi().unwrap());
    assert!(
        (lo - by_hand).abs() < 1e-12 && (hi - by_hand).abs() < 1e-12,
        "{lo} {hi} vs {by_hand}"
    );
}

/// `draws` sequences of `sampler` (ChaCha8 from `seed`) against the
/// certified law of `law`: the chi-square p-value.
fn sampler_p_value(
    sampler: &Config,
    law: &Config,
    losses: &[Vec<Q>],
    draws: usize,
    seed: u64,
) -> f64 {
    let (sampler, law) = (sampler.build().unwrap(), law.build().unwrap());
    let k = law.actions();
    let bits = Precision(128);
    let exact = SequenceLaw::<Certified>::of(&law, losses, &bits).unwrap();
    let all = sequences(k, losses.len());
    let expected: Vec<f64> = all
        .iter()
        .map(|s| exact.probability(s, &bits).to_f64())
        .collect();
    let f64_losses: Vec<Vec<f64>> = losses
        .iter()
        .map(|r| r.iter().map(Real::to_f64).collect())
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut observed = vec![0u64; all.len()];
    for _ in 0..draws {
        let s = sampler.sample(&f64_losses, &mut rng);
        observed[s.iter().fold(0, |n, a| n * k + a)] += 1;
    }
    common::chi_square_p_value(&observed, &expected)
}

/// K = 3, horizon 5, losses in {0, 1/2, 1}.
fn sampler_losses() -> Vec<Vec<Q>> {
    [[0, 1, 2], [2, 1, 0], [1, 1, 2], [0, 2, 2], [1, 0, 1]]
        .iter()
        .map(|r| r.iter().map(|&x| q(x, 2)).collect())
        .collect()
}

#[test]
fn samplers_fit_their_laws() {
    let losses = sampler_losses();
    for (i, c) in [hedge(3, q(1, 1)), hedge(3, q(3, 2)), decreasing(3)]
        .iter()
        .enumerate()
    {
        let seed = 20_261_129 + i as u64;
        let p = sampler_p_value(c, c, &losses, 20_000, seed);
        assert!(p > 1e-6, "{:?} (seed {seed}): p = {p}", c.id);
    }
}

#[test]
fn a_doubled_learning_rate_is_rejected() {
    // Negative control: the sampler at 2η against the law at η.
    let losses = sampler_losses();
    let p = sampler_p_value(&hedge(3, q(2, 1)), &hedge(3, q(1, 1)), &losses, 20_000, 7);
    assert!(p < 1e-6, "η doubled went unnoticed: p = {p}");
    let mut doubled = decreasing(3);
    doubled.noise_scale = Some(q(1, 4));
    let p = sampler_p_value(&doubled, &decreasing(3), &losses, 20_000, 8);
    assert!(p < 1e-6, "c doubled went unnoticed: p = {p}");
}

#[test]
fn hedge_default_learning_rate_is_epsilon() {
    // No paper prints η for constant-rate Hedge: the default is η = ε
    // (temperature 1/ε), and `scaled` multiplies that temperature.
    let c = Config::new(AlgorithmId::Hedge, 2, q(1, 3));
    let by_default = c.clone().build().unwrap();
    let named = hedge(2, q(1, 3)).build().unwrap();
    let losses = by_hand_losses();
    let a = SequenceLaw::<ExpRational>::of(&by_default, &losses, &()).unwrap();
    let b = SequenceLaw::<ExpRational>::of(&named, &losses, &()).unwrap();
    for s in sequences(2, 3) {
        assert_eq!(a.probability(&s, &()), b.probability(&s, &()));
    }
    assert_eq!(c.scaled(&q(2, 1)).unwrap().noise_scale, Some(q(6, 1)));
    assert_eq!(
        decreasing(2).scaled(&q(2, 1)).unwrap().noise_scale,
        Some(q(1, 1))
    );
}

#[test]
fn hedge_deterministic_regret_by_hand() {
    // μ = (0, 1/2), Δ_2 = 1/2, η = 2: round t plays action 2 with
    // probability e^{−η(t−1)/2}/(1 + e^{−η(t−1)/2}) = e^{1−t}/(1 + e^{1−t}),
    // so Reg_4 = 1/2 · Σ_{t=1}^{4} e^{1−t}/(1 + e^{1−t}) = 0.4677851…, exactly in
    // the exact field (the generic regret of `regret::law_based`).
    use dpdtol::regret::{law_based, Instance};
    let algorithm = hedge(2, q(2, 1)).build().unwrap();
    let inst = Instance::new(vec![q(0, 1), q(1, 2)]).unwrap();
    let curve = law_based::deterministic::<ExpRational, _>(&algorithm, &inst, 4, &()).unwrap();
    let one = exact(&q(1, 1));
    let mut by_hand = exact(&q(0, 1));
    for t in 1..=4i64 {
        let w = exp(&q(1 - t, 1));
        by_hand = by_hand + &(w.clone() / &(one.clone() + &w));
    }
    by_hand = by_hand * &exact(&q(1, 2));
    assert_eq!(curve.total(&()), by_hand);
    assert!(
        (by_hand.to_f64() - 0.467_785_108_3).abs() < 1e-9,
        "{}",
        by_hand.to_f64()
    );
}
