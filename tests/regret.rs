//! Exact pseudo-regret: the closed forms against the generic
//! law-based computation, the Bernoulli engine against brute force, backends
//! against each other, hand-derived values, the samplers' Monte Carlo means
//! against the exact regret, the bounds, and the command line.

mod common;

use common::{dpdtol, json};

use dpdtol::algorithm::{AlgorithmId, Config, OnlineAlgorithm};
use dpdtol::mechanism::{Noise, Scale};
use dpdtol::num::{parse_rational, parse_rational_list, Certified, Exact, Precision, Real, Q};
use dpdtol::regret::bernoulli::Engine;
use dpdtol::regret::bounds::Evaluator;
use dpdtol::regret::deterministic::{self, Options};
use dpdtol::regret::{self, law_based, Instance, Plan, RegretCurve, Setting};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const BITS: Precision = Precision(256);

fn q(text: &str) -> Q {
    parse_rational(text).unwrap()
}

fn instance(means: &str) -> Instance {
    Instance::new(parse_rational_list(means).unwrap()).unwrap()
}

/// Every algorithm variant of the guide's table that regret covers (wu-wang
/// with each noise and both resampling bits).
fn configs(k: usize, epsilon: &Q) -> Vec<Config> {
    let mut out = Vec::new();
    for id in AlgorithmId::ALL {
        if !regret::covers(id) {
            assert!(
                Plan::of(&Config::new(id, k, epsilon.clone())).is_err(),
                "{id}"
            );
        } else if id == AlgorithmId::WuWang {
            for noise in Noise::ALL {
                for resample in [false, true] {
                    let mut c = Config::new(id, k, epsilon.clone());
                    c.noise = Some(noise);
                    c.resample = resample;
                    out.push(c);
                }
            }
        } else {
            out.push(Config::new(id, k, epsilon.clone()));
        }
    }
    out
}

fn name(c: &Config) -> String {
    format!("{} {:?} B={}", c.id, c.noise, c.resample)
}

/// `10^{−digits}`.
fn tenth(digits: u32) -> Q {
    Q::new(BigInt::one(), BigInt::from(10u32).pow(digits))
}

/// The two enclosures overlap (both certified) and each is within
/// `10^{−digits}` relative (or absolute, near 0) of the other's midpoint.
fn assert_agree<R: Real, S: Real>(a: &R, b: &S, digits: u32, what: &str) {
    let (a_lo, a_hi) = a.enclosure().unwrap();
    let (b_lo, b_hi) = b.enclosure().unwrap();
    assert!(
        a_lo <= b_hi && b_lo <= a_hi,
        "{what}: disjoint enclosures [{}, {}] and [{}, {}]",
        a.to_f64(),
        a.to_f64(),
        b.to_f64(),
        b.to_f64()
    );
    let scale = a_hi.abs().max(b_hi.abs()).max(Q::one());
    let spread = a_hi.clone().max(b_hi.clone()) - a_lo.clone().min(b_lo.clone());
    assert!(
        spread <= tenth(digits) * scale,
        "{what}: {} and {} differ beyond 1e-{digits} (spread {})",
        a.to_f64(),
        b.to_f64(),
        dpdtol::num::format_sig(&spread, 5)
    );
}

fn closed_form<R: regret::Enclose>(
    config: &Config,
    inst: &Instance,
    setting: Setting,
    t: u128,
    ctx: &R::Context,
) -> RegretCurve<R> {
    regret::regret::<R>(&Plan::of(config).unwrap(), inst, setting, t, ctx, None).unwrap()
}

#[test]
fn closed_forms_match_the_law_based_computation_to_30_digits() {
    let eps = q("1/2");
    for (means, horizons) in [
        ("0.1,0.2,0.5", &[1usize, 2, 3, 6, 17][..]),
        ("0.3,0,0.3", &[5, 9]),
        ("1,0.25", &[16, 33]),
    ] {
        let inst = instance(means);
        for config in configs(inst.k(), &eps) {
            let algorithm = config.build().unwrap();
            for &t in horizons {
                let law: RegretCurve<Certified> =
                    law_based::deterministic(&algorithm, &inst, t, &BITS).unwrap();
                let fast: RegretCurve<Certified> =
                    closed_form(&config, &inst, Setting::Deterministic, t as u128, &BITS);
                let what = format!("{} on {means}, T = {t}", name(&config));
                assert_agree(&law.total(&BITS), &fast.total(&BITS), 30, &what);
                // Every epoch boundary, too.
                for ((s, a), (u, b)) in law.boundaries(&BITS).iter().zip(fast.boundaries(&BITS)) {
                    assert_eq!(*s, u);
                    assert_agree(a, &b, 30, &format!("{what}, at t = {s}"));
                }
            }
        }
    }
}

#[test]
fn bernoulli_engine_matches_brute_force_over_every_window() {
    let eps = q("1");
    for (means, t) in [("0.3,0.6", 7usize), ("1/4,1/2,0", 5), ("0.5,0.5,1", 4)] {
        let inst = instance(means);
        for config in configs(inst.k(), &eps) {
            let algorithm = config.build().unwrap();
            let brute: RegretCurve<Certified> =
                law_based::bernoulli_brute_force(&algorithm, &inst, t, &BITS).unwrap();
            let fast: RegretCurve<Certified> =
                closed_form(&config, &inst, Setting::Bernoulli, t as u128, &BITS);
            assert_agree(
                &brute.total(&BITS),
                &fast.total(&BITS),
                30,
                &format!("{} on {means}, T = {t}", name(&config)),
            );
        }
    }
}

#[test]
fn ftl_in_the_bernoulli_setting_is_exact_and_matches_brute_force() {
    let inst = instance("1/2,1/3,1/4");
    let config = Config::new(AlgorithmId::Ftl, 3, q("1"));
    let algorithm = config.build().unwrap();
    let brute: RegretCurve<Exact> =
        law_based::bernoulli_brute_force(&algorithm, &inst, 6, &()).unwrap();
    let fast: RegretCurve<Exact> = closed_form(&config, &inst, Setting::Bernoulli, 6, &());
    assert_eq!(brute.total(&()), fast.total(&()));
    // Tied means around the best and a tie for the lead (ties go to the
    // lowest index): the prefix and suffix products of the leader's law.
    let inst = instance("1/2,1/4,1/3,1/4");
    let config = Config::new(AlgorithmId::Ftl, 4, q("1"));
    let algorithm = config.build().unwrap();
    let brute: RegretCurve<Exact> =
        law_based::bernoulli_brute_force(&algorithm, &inst, 5, &()).unwrap();
    let fast: RegretCurve<Exact> = closed_form(&config, &inst, Setting::Bernoulli, 5, &());
    assert_eq!(brute.total(&()), fast.total(&()));
    // Hand-derived, K = 2, μ = (1/2, 0), T = 2: round 1 plays action 1 (gap
    // 1/2); round 2 plays action 1 iff S_1 ≤ S_2 = 0, probability 1/2.
    let inst = instance("1/2,0");
    let curve: RegretCurve<Exact> = closed_form(
        &Config::new(AlgorithmId::Ftl, 2, q("1")),
        &inst,
        Setting::Bernoulli,
        2,
        &(),
    );
    assert_eq!(curve.total(&()), q("3/4"));
}

#[test]
fn resampling_in_the_deterministic_setting_matches_the_poisson_binomial_law() {
    // wu-wang B = 1 on deterministic losses: the algorithm's own choice law
    // enumerates the Poisson-binomial resampled sums; the closed form uses
    // Binomial(n, μ) sums through the Bernoulli engine.
    let inst = instance("0.2,0.7,0.5");
    for noise in Noise::ALL {
        let mut config = Config::new(AlgorithmId::WuWang, 3, q("1"));
        config.noise = Some(noise);
        config.resample = true;
        let algorithm = config.build().unwrap();
        let law: RegretCurve<Certified> =
            law_based::deterministic(&algorithm, &inst, 15, &BITS).unwrap();
        let fast: RegretCurve<Certified> =
            closed_form(&config, &inst, Setting::Deterministic, 15, &BITS);
        assert_agree(
            &law.total(&BITS),
            &fast.total(&BITS),
            30,
            &format!("{noise}"),
        );
    }
}

#[test]
fn backends_agree() {
    let eps = q("1");
    let inst = instance("0.1,0.2,0.5,0.9");
    for config in configs(4, &eps) {
        let t: u128 = if config.resample { 15 } else { 1 << 30 };
        let certified: RegretCurve<Certified> =
            closed_form(&config, &inst, Setting::Deterministic, t, &BITS);
        let wider: RegretCurve<Certified> =
            closed_form(&config, &inst, Setting::Deterministic, t, &Precision(512));
        let float: RegretCurve<f64> = closed_form(&config, &inst, Setting::Deterministic, t, &());
        let c = certified.total(&BITS);
        assert_agree(&c, &wider.total(&Precision(512)), 60, &name(&config));
        let f = float.total(&());
        assert!(
            (c.to_f64() - f).abs() <= 1e-9 * c.to_f64().abs().max(1e-12),
            "{}: f64 {f} vs certified {}",
            name(&config),
            c.to_f64()
        );
        #[cfg(feature = "mpfr")]
        {
            use dpdtol::num::{Interval, MpfrFloat};
            let m: RegretCurve<Interval<MpfrFloat>> =
                closed_form(&config, &inst, Setting::Deterministic, t, &BITS);
            assert_agree(
                &c,
                &m.total(&BITS),
                60,
                &format!("{} (mpfr)", name(&config)),
            );
        }
    }
    // ftl is exact.
    let ftl = Config::new(AlgorithmId::Ftl, 4, eps);
    let exact: RegretCurve<Exact> = closed_form(
        &ftl,
        &instance("0.5,0.1,0.2,0.9"),
        Setting::Deterministic,
        1 << 60,
        &(),
    );
    assert_eq!(exact.total(&()), q("0.4"));
}

/// `e^{x}` for a rational `|x| ≤ 1` enclosed by its Taylor series to 60
/// terms (remainder below 1e-70), independent of the crate's exp.
fn exp_enclosure(x: &Q) -> (Q, Q) {
    let mut sum = Q::zero();
    let mut term = Q::one();
    for n in 0..60i64 {
        sum += &term;
        term = term * x / Q::from_integer((n + 1).into());
    }
    let slack = tenth(70);
    (sum.clone() - &slack, sum + slack)
}

fn mid(pair: &(Q, Q)) -> Q {
    (&pair.0 + &pair.1) / Q::from_integer(2.into())
}

#[test]
fn hand_derived_values() {
    let two = Q::from_integer(2.into());
    let four = Q::from_integer(4.into());
    // wu-wang Gumbel(2/ε), μ = (0, 1), ε = 1, T = 3: round 1 uniform (1/2),
    // rounds 2–3 play softmax(−(ε/2)·(0, 1)): 2·e^{−1/2}/(1 + e^{−1/2}).
    let w = mid(&exp_enclosure(&q("-1/2")));
    let expected = q("1/2") + &two * &w / (Q::one() + &w);
    let mut config = Config::new(AlgorithmId::WuWang, 2, q("1"));
    config.noise = Some(Noise::Gumbel);
    let curve: RegretCurve<Certified> =
        closed_form(&config, &instance("0,1"), Setting::Deterministic, 3, &BITS);
    assert_agree(&curve.total(&BITS), &expected, 60, "wu-wang gumbel T = 3");

    // hu-rnm-ftnl Lap(1/ε), μ = (0, 1), ε = 1, T = 7: round 1 plays the best
    // action; P(worse) = ¼e^{−ℓ}(2 + ℓ), ℓ = nΔε: rounds 2–3 (ℓ = 1) and
    // 4–7 (ℓ = 2).
    let e1 = mid(&exp_enclosure(&q("-1")));
    let expected =
        &two * &e1 * Q::from_integer(3.into()) / &four + &four * &e1 * &e1 * &four / &four;
    let config = Config::new(AlgorithmId::HuRnmFtnl, 2, q("1"));
    let curve: RegretCurve<Certified> =
        closed_form(&config, &instance("0,1"), Setting::Deterministic, 7, &BITS);
    assert_agree(&curve.total(&BITS), &expected, 60, "hu-rnm-ftnl T = 7");

    // prefix-softmax, η = 1/8 (ε = 1), μ = (0, 1), T = 7: 1/2 + 2σ(η) + 4σ(2η),
    // σ(x) = e^{−x}/(1 + e^{−x}).
    let s1 = mid(&exp_enclosure(&q("-1/8")));
    let s2 = mid(&exp_enclosure(&q("-1/4")));
    let expected = q("1/2") + &two * &s1 / (Q::one() + &s1) + &four * &s2 / (Q::one() + &s2);
    let config = Config::new(AlgorithmId::PrefixSoftmax, 2, q("1"));
    let curve: RegretCurve<Certified> =
        closed_form(&config, &instance("0,1"), Setting::Deterministic, 7, &BITS);
    assert_agree(&curve.total(&BITS), &expected, 60, "prefix-softmax T = 7");

    // ftl: exactly Δ_1 at any horizon.
    let config = Config::new(AlgorithmId::Ftl, 3, q("1"));
    let curve: RegretCurve<Exact> = closed_form(
        &config,
        &instance("0.7,0.2,0.4"),
        Setting::Deterministic,
        1 << 60,
        &(),
    );
    assert_eq!(curve.total(&()), q("1/2"));
}

#[test]
fn prefix_enclosure_contains_the_full_sum() {
    // With 3 exact terms per block the rest of each block is enclosed by the
    // integrals of R; the enclosure must contain the fully summed value.
    let inst = instance("0.1,0.15,0.5");
    let plan = Plan::of(&Config::new(AlgorithmId::PrefixSoftmax, 3, q("1"))).unwrap();
    let full: RegretCurve<Certified> = deterministic::regret_with(
        &plan,
        &inst,
        4096,
        &BITS,
        None,
        &Options {
            prefix_terms: Some(1 << 20),
        },
    )
    .unwrap();
    let enclosed: RegretCurve<Certified> = deterministic::regret_with(
        &plan,
        &inst,
        4096,
        &BITS,
        None,
        &Options {
            prefix_terms: Some(3),
        },
    )
    .unwrap();
    let (lo, hi) = enclosed.total(&BITS).enclosure().unwrap();
    let (flo, fhi) = full.total(&BITS).enclosure().unwrap();
    assert!(lo <= flo && fhi <= hi, "the enclosure misses the full sum");
    assert!(
        &hi - &lo > tenth(40),
        "3 terms per block should not be exact"
    );
    assert!(&hi - &lo < q("1"), "the enclosure is too wide to be useful");
    // Lemma 4's Σ F_m with a small budget also encloses the full one.
    let eta = q("1/8");
    let small: Certified = deterministic::softmax_error_sum(
        &eta,
        &inst,
        &BITS,
        &Options {
            prefix_terms: Some(1),
        },
    )
    .unwrap();
    let big: Certified =
        deterministic::softmax_error_sum(&eta, &inst, &BITS, &Options::default()).unwrap();
    let (slo, shi) = small.enclosure().unwrap();
    let (blo, bhi) = big.enclosure().unwrap();
    assert!(slo <= blo && bhi <= shi);
    assert!(relative_width_ok(&big, 30));
}

fn relative_width_ok(x: &Certified, digits: u32) -> bool {
    let (lo, hi) = x.enclosure().unwrap();
    dpdtol::num::relative_width(&lo, &hi).is_some_and(|w| w <= tenth(digits))
}

#[test]
fn huge_horizons_stay_certified_and_cheap() {
    let inst = instance("0.1,0.2,0.5,0.5001");
    for config in configs(4, &q("1/2")) {
        if config.resample {
            continue;
        }
        for t in [1u128 << 60, (1 << 100) - 1] {
            let curve: RegretCurve<Certified> =
                closed_form(&config, &inst, Setting::Deterministic, t, &BITS);
            assert!(
                relative_width_ok(&curve.total(&BITS), 30) || config.id == AlgorithmId::Ftl,
                "{}",
                name(&config)
            );
        }
    }
}

/// Mean and standard error of the realized regret Σ_t Δ_{I_t} over runs.
fn monte_carlo(
    algorithm: &dpdtol::algorithm::Algorithm,
    inst: &Instance,
    setting: Setting,
    t: usize,
    runs: usize,
    seed: u64,
) -> (f64, f64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let gaps: Vec<f64> = inst.gaps().iter().map(|g| g.to_f64()).collect();
    let means: Vec<f64> = inst.means().iter().map(|m| m.to_f64()).collect();
    let (mut sum, mut sum_sq) = (0.0, 0.0);
    for _ in 0..runs {
        let losses: Vec<Vec<f64>> = (0..t)
            .map(|_| match setting {
                Setting::Deterministic => means.clone(),
                Setting::Bernoulli => means
                    .iter()
                    .map(|&m| f64::from(u8::from(rng.random_bool(m))))
                    .collect(),
            })
            .collect();
        let actions = algorithm.sample(&losses, &mut rng);
        let r: f64 = actions.iter().map(|&a| gaps[a]).sum();
        sum += r;
        sum_sq += r * r;
    }
    let n = runs as f64;
    let mean = sum / n;
    let var = (sum_sq / n - mean * mean).max(0.0) * n / (n - 1.0);
    (mean, (var / n).sqrt())
}

#[test]
fn samplers_monte_carlo_means_fall_within_their_confidence_interval_of_the_exact_regret() {
    let inst = instance("0.2,0.35,0.6");
    let eps = q("1");
    let t = 63usize;
    let runs = 4000;
    for setting in [Setting::Deterministic, Setting::Bernoulli] {
        for (i, config) in configs(3, &eps).into_iter().enumerate() {
            let seed = 0x5eed + i as u64;
            let algorithm = config.build().unwrap();
            let exact: RegretCurve<Certified> =
                closed_form(&config, &inst, setting, t as u128, &BITS);
            let exact = exact.total(&BITS).to_f64();
            let (mean, se) = monte_carlo(&algorithm, &inst, setting, t, runs, seed);
            // 5 standard errors (p ≈ 6e-7 two-sided), plus a floor for the
            // deterministic runs whose variance is zero.
            assert!(
                (mean - exact).abs() <= 5.0 * se + 1e-9,
                "{} {setting}: Monte Carlo mean {mean} ± {se} vs exact {exact} (seed {seed}, {runs} runs, T = {t})",
                name(&config)
            );
        }
    }
}

#[test]
fn monte_carlo_detects_a_wrong_regret() {
    // Negative control: the same test against an exact value perturbed by
    // 20% fails.
    let inst = instance("0.2,0.35,0.6");
    let mut config = Config::new(AlgorithmId::WuWang, 3, q("1"));
    config.noise = Some(Noise::Gumbel);
    let algorithm = config.build().unwrap();
    let exact: RegretCurve<Certified> = closed_form(&config, &inst, Setting::Bernoulli, 63, &BITS);
    let wrong = exact.total(&BITS).to_f64() * 1.2;
    let (mean, se) = monte_carlo(&algorithm, &inst, Setting::Bernoulli, 63, 4000, 7);
    assert!(
        (mean - wrong).abs() > 5.0 * se,
        "{mean} ± {se} does not reject {wrong}"
    );
}

#[test]
fn bounds_rows_are_labelled_and_decided() {
    let inst = instance("0.1,0.2,0.5");
    let eps = q("1");
    for config in configs(3, &eps) {
        for setting in [Setting::Deterministic, Setting::Bernoulli] {
            let t: u128 = if setting == Setting::Bernoulli || config.resample {
                15
            } else {
                1 << 20
            };
            let curve: RegretCurve<Certified> = closed_form(&config, &inst, setting, t, &BITS);
            let total = curve.total(&BITS);
            let evaluator =
                Evaluator::<Certified>::new(&config, &inst, setting, t, &BITS, None).unwrap();
            let evaluation = evaluator.at(t, &curve).unwrap();
            for b in &evaluation.bounds {
                assert!(b.id.contains('-') && !b.source.is_empty());
                assert!(b.holds(&total).is_some(), "{} undecided", b.id);
            }
        }
    }
    // CC Theorem 1 eq. (1) by hand: 1 + 800 ln 3/0.1 + 16 ln 3/(1/8).
    let config = Config::new(AlgorithmId::PrefixSoftmax, 3, eps.clone());
    let curve: RegretCurve<Certified> =
        closed_form(&config, &inst, Setting::Deterministic, 100, &BITS);
    let evaluation =
        Evaluator::<Certified>::new(&config, &inst, Setting::Deterministic, 100, &BITS, None)
            .unwrap()
            .at(100, &curve)
            .unwrap();
    let row = evaluation
        .bounds
        .iter()
        .find(|b| b.id == "cc-thm1-eq1")
        .unwrap();
    let expected = 1.0 + 8000.0 * 3f64.ln() + 128.0 * 3f64.ln();
    assert!((row.value.to_f64() - expected).abs() < 1e-9 * expected);
    assert_eq!(row.holds(&curve.total(&BITS)), Some(true));
}

#[test]
fn the_lower_bound_on_hard_instances() {
    // K = 2, ε = 1, T = 1: (1/ε) ln(e²/(e²+1) · (e+1)/e), against the
    // average regret over the two hard instances. ftl plays action 1 in round
    // 1: regret 0 on (0,1) and 1 on (1,0), average 1/2 ≥ 0.44.
    let inst = instance("0,1");
    let config = Config::new(AlgorithmId::Ftl, 2, q("1"));
    let curve: RegretCurve<Certified> =
        closed_form(&config, &inst, Setting::Deterministic, 1, &BITS);
    let evaluation =
        Evaluator::<Certified>::new(&config, &inst, Setting::Deterministic, 1, &BITS, None)
            .unwrap()
            .at(1, &curve)
            .unwrap();
    let row = evaluation
        .bounds
        .iter()
        .find(|b| b.id == "ww-thm3")
        .unwrap();
    let e = std::f64::consts::E;
    let expected = ((e * e / (e * e + 1.0)) * ((e + 1.0) / e)).ln();
    assert!((row.value.to_f64() - expected).abs() < 1e-12);
    assert_eq!(row.quantity.as_ref().unwrap().1.to_f64(), 0.5);
    assert_eq!(row.holds(&curve.total(&BITS)), Some(true));
    assert!(!row.applies, "ftl is not private");
    // The private algorithms on a hard instance with many actions.
    let inst = instance("1,1,0,1,1");
    for config in configs(5, &q("1/2")) {
        let t = if config.resample { 63 } else { 1 << 30 };
        let curve: RegretCurve<Certified> =
            closed_form(&config, &inst, Setting::Deterministic, t, &BITS);
        let evaluation =
            Evaluator::<Certified>::new(&config, &inst, Setting::Deterministic, t, &BITS, None)
                .unwrap()
                .at(t, &curve)
                .unwrap();
        let row = evaluation
            .bounds
            .iter()
            .find(|b| b.id == "ww-thm3")
            .unwrap();
        if row.applies {
            assert_eq!(
                row.holds(&curve.total(&BITS)),
                Some(true),
                "{}",
                name(&config)
            );
        }
    }
}

#[test]
fn bernoulli_enumeration_is_refused_beyond_its_limit() {
    let inst = instance("0.1,0.2,0.5,0.7");
    let plan = Plan::of(&Config::new(AlgorithmId::HuRnmFtnl, 4, q("1"))).unwrap();
    let err = regret::regret::<Certified>(
        &plan,
        &inst,
        Setting::Bernoulli,
        1 << 12,
        &BITS,
        Some(1 << 20),
    )
    .unwrap_err();
    assert!(err.to_string().contains("--force"), "{err}");
}

// ---------------------------------------------------------------- the CLI

fn bad(args: &[&str], needle: &str) {
    let out = dpdtol(args);
    assert_eq!(out.status.code(), Some(2), "{args:?} should exit 2");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains(needle), "{stderr} should mention {needle}");
    assert!(out.stdout.is_empty());
}

#[test]
fn cli_json_contract() {
    let v = json(&[
        "regret",
        "--algorithm",
        "prefix-softmax",
        "--means",
        "0.1,0.2,0.5",
        "--setting",
        "deterministic",
        "--horizon",
        "2^20",
        "--epsilon",
        "1",
        "--json",
    ]);
    let regret = v["regret"].as_str().unwrap();
    assert!(regret.replace(['.', '-'], "").trim_start_matches('0').len() >= 30);
    assert_eq!(v["regret_interval"].as_array().unwrap().len(), 2);
    assert_eq!(v["kind"], "certified");
    let bounds = v["bounds"].as_array().unwrap();
    assert!(!bounds.is_empty());
    for b in bounds {
        for key in ["id", "source", "kind", "value", "holds"] {
            assert!(!b[key].is_null(), "{key} missing in {b}");
        }
    }
    // The regret agrees with the library to 30 digits.
    let config = Config::new(AlgorithmId::PrefixSoftmax, 3, q("1"));
    let curve: RegretCurve<Certified> = closed_form(
        &config,
        &instance("0.1,0.2,0.5"),
        Setting::Deterministic,
        1 << 20,
        &BITS,
    );
    let value = curve.total(&BITS).to_f64();
    let printed = q(regret);
    let exact_mid = {
        let (lo, hi) = curve.total(&BITS).enclosure().unwrap();
        (lo + hi) / Q::from_integer(2.into())
    };
    assert!(
        (printed - exact_mid).abs() <= tenth(35),
        "CLI regret {regret} vs {value}"
    );
    // ftl is exact.
    let v = json(&[
        "regret",
        "--algorithm",
        "ftl",
        "--means",
        "0.3,0.1",
        "--setting",
        "deterministic",
        "--horizon",
        "10",
        "--epsilon",
        "1",
        "--json",
    ]);
    assert_eq!(v["kind"], "exact");
    assert_eq!(v["regret_exact"], "1/5");
    // Several algorithms: one object with results.
    let v = json(&[
        "regret",
        "--algorithm",
        "wu-wang:gumbel,hu-rnm-ftnl",
        "--means",
        "0.1,0.2,0.5",
        "--setting",
        "bernoulli",
        "--horizon",
        "15",
        "--epsilon",
        "1",
        "--json",
    ]);
    assert_eq!(v["results"].as_array().unwrap().len(), 2);
}

#[test]
fn cli_bad_instances_exit_2() {
    let base = |means: &str, horizon: &str, epsilon: &str| {
        vec![
            "regret".to_string(),
            "--algorithm".into(),
            "wu-wang".into(),
            "--means".into(),
            means.into(),
            "--setting".into(),
            "bernoulli".into(),
            "--horizon".into(),
            horizon.into(),
            "--epsilon".into(),
            epsilon.into(),
        ]
    };
    let run = |v: Vec<String>, needle: &str| {
        let refs: Vec<&str> = v.iter().map(String::as_str).collect();
        bad(&refs, needle);
    };
    run(base("0.1,1.5", "10", "1"), "outside [0, 1]");
    run(base("-0.1,0.5", "10", "1"), "outside [0, 1]");
    run(base("0.5", "10", "1"), "at least 2 actions");
    run(base("0.2,0.2,0.5", "10", "1"), "tie for the best");
    run(base("0.2,0.5", "0", "1"), "at least 1");
    run(base("0.2,0.5", "10", "0"), "epsilon");
    run(base("0.2,0.5", "2^40", "1"), "--force");
    run(base("0.2,0.5", "ten", "1"), "--horizon");
    bad(
        &[
            "regret",
            "--algorithm",
            "nope",
            "--means",
            "0,1",
            "--setting",
            "deterministic",
            "--horizon",
            "3",
            "--epsilon",
            "1",
        ],
        "unknown algorithm",
    );
    bad(
        &[
            "regret",
            "--algorithm",
            "ftl",
            "--means",
            "0,1",
            "--setting",
            "deterministic",
            "--horizon",
            "3",
            "--epsilon",
            "1",
            "--plot",
            "/tmp/x.pdf",
        ],
        ".svg or .png",
    );
    // --no-bounds allows a tie.
    let v = json(&[
        "regret",
        "--algorithm",
        "hu-rnm-ftnl",
        "--means",
        "0.2,0.2,0.5",
        "--setting",
        "deterministic",
        "--horizon",
        "100",
        "--epsilon",
        "1",
        "--no-bounds",
        "--json",
    ]);
    assert!(v["bounds"].as_array().unwrap().is_empty());
}

#[test]
fn cli_curve_and_plot_files() {
    let dir = std::env::temp_dir().join(format!("dpdtol-regret-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("curve.csv");
    let svg = dir.join("plot.svg");
    let png = dir.join("plot.png");
    for plot in [&svg, &png] {
        let out = dpdtol(&[
            "regret",
            "--algorithm",
            "wu-wang:gumbel,prefix-softmax",
            "--means",
            "0.1,0.2,0.5",
            "--setting",
            "deterministic",
            "--horizon",
            "2^12",
            "--epsilon",
            "1",
            "--curve",
            csv.to_str().unwrap(),
            "--plot",
            plot.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "algorithm,T,regret,regret_lo,regret_hi");
    // Boundaries 1, 3, …, 2047 and 4096, for each of the two algorithms.
    assert_eq!(lines.len(), 1 + 2 * 13);
    assert!(lines[1].starts_with("wu-wang (gumbel),1,"));
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    assert_eq!(&std::fs::read(&png).unwrap()[..4], b"\x89PNG");
    let _ = std::fs::remove_dir_all(&dir);
}

// ============================================================================
// The bound rows of CC Lemmas 4–5 in the Bernoulli setting and
// Hu et al.'s Theorem 12 (src/regret/bounds.rs, module doc).
// ============================================================================

use dpdtol::regret::bounds::{Bound, Evaluation};

/// `C(n, s)`.
fn choose(n: u64, s: u64) -> BigInt {
    // C(n, i + 1) = C(n, i)(n − i)/(i + 1), exact at every step.
    (0..s).fold(BigInt::one(), |acc, i| acc * (n - i) / (i + 1))
}

/// `F_m = E[Σ_j Δ_j P_{m,j}]` (CC L361) by brute force: every outcome of the
/// independent sums `S_j ~ Binomial(m, μ_j)`, with its exact rational
/// probability `Π_j C(m, S_j) μ_j^{S_j} (1 − μ_j)^{m − S_j}`, and the softmax
/// law `e^{−ηS_j}/Σ_i e^{−ηS_i}` with certified weights.
fn f_m_brute_force(means: &[Q], eta: &Q, m: u64) -> Certified {
    let k = means.len();
    let best = means.iter().min().unwrap().clone();
    let deltas: Vec<Certified> = means
        .iter()
        .map(|mu| Certified::from_rational(&(mu - &best), &BITS))
        .collect();
    let pmf: Vec<Vec<Q>> = means
        .iter()
        .map(|mu| {
            (0..=m)
                .map(|s| {
                    Q::from_integer(choose(m, s))
                        * num_traits::pow(mu.clone(), s as usize)
                        * num_traits::pow(Q::one() - mu, (m - s) as usize)
                })
                .collect()
        })
        .collect();
    let weights: Vec<Certified> = (0..=m)
        .map(|s| {
            Certified::from_rational(&-(eta * Q::from_integer(s.into())), &BITS)
                .exp()
                .unwrap()
        })
        .collect();
    let mut total = Certified::from_int(0, &BITS);
    let mut outcome = vec![0usize; k];
    loop {
        let p: Q = (0..k).map(|j| pmf[j][outcome[j]].clone()).product();
        if !p.is_zero() {
            let mut numerator = Certified::from_int(0, &BITS);
            let mut denominator = Certified::from_int(0, &BITS);
            for j in 0..k {
                numerator = numerator + deltas[j].clone() * &weights[outcome[j]];
                denominator = denominator + &weights[outcome[j]];
            }
            total = total + Certified::from_rational(&p, &BITS) * numerator / denominator;
        }
        let mut j = 0;
        loop {
            if j == k {
                return total;
            }
            outcome[j] += 1;
            if outcome[j] <= m as usize {
                break;
            }
            outcome[j] = 0;
            j += 1;
        }
    }
}

/// The tail bound `Σ_{j≠b} Δ_j ρ_j^{M+1}/(1 − ρ_j)` written out from the
/// closed form: `ρ_j = (1 − μ_j + μ_j e^{−η})(1 − μ_b + μ_b e^{η})` (λ = η),
/// or, when `x*² = μ_j(1 − μ_b)/((1 − μ_j)μ_b) < e^{2η}` (f64 is enough to
/// tell on the test instances), the minimum over λ,
/// `(√((1 − μ_j)(1 − μ_b)) + √(μ_j μ_b))²`.
fn tail_closed_form(means: &[Q], eta: &Q, m: u64) -> Certified {
    let c = |x: &Q| Certified::from_rational(x, &BITS);
    let sqrt = |x: &Q| {
        (Certified::from_rational(x, &BITS).ln().unwrap() / Certified::from_int(2, &BITS))
            .exp()
            .unwrap()
    };
    let b = (0..means.len()).min_by_key(|&j| means[j].clone()).unwrap();
    let mu_b = &means[b];
    let e_eta = c(eta).exp().unwrap();
    let mut tail = Certified::from_int(0, &BITS);
    for (_, mu_j) in means.iter().enumerate().filter(|&(j, _)| j != b) {
        let one = Q::one();
        let x2 = if mu_b.is_zero() {
            f64::INFINITY
        } else {
            (mu_j * (&one - mu_b) / ((&one - mu_j) * mu_b)).to_f64()
        };
        let rho = if x2 < (2.0 * eta.to_f64()).exp() {
            let s = sqrt(&((&one - mu_j) * (&one - mu_b))) + sqrt(&(mu_j * mu_b));
            s.clone() * &s
        } else {
            (c(&(&one - mu_j)) + c(mu_j) / &e_eta) * (c(&(&one - mu_b)) + c(mu_b) * &e_eta)
        };
        let one_r = Certified::from_int(1, &BITS);
        tail = tail + c(&(mu_j - mu_b)) * rho.pow_u64(m + 1) / (one_r - &rho);
    }
    tail
}

fn evaluate(config: &Config, inst: &Instance, setting: Setting, t: u128) -> Evaluation<Certified> {
    let curve: RegretCurve<Certified> = closed_form(config, inst, setting, t, &BITS);
    Evaluator::<Certified>::new(config, inst, setting, t, &BITS, None)
        .unwrap()
        .at(t, &curve)
        .unwrap()
}

fn row<'a>(evaluation: &'a Evaluation<Certified>, id: &str) -> &'a Bound<Certified> {
    evaluation
        .bounds
        .iter()
        .find(|b| b.id == id)
        .unwrap_or_else(|| panic!("no row {id}"))
}

/// An end `end` of an enclosure agrees with the certified `x` to `digits`
/// digits (relative): the ends of the rows' enclosures are points, and the
/// test's own computation is an interval.
fn assert_end(end: &Q, x: &Certified, digits: u32, what: &str) {
    let (lo, hi) = x.enclosure().unwrap();
    let mid = (&lo + &hi) / Q::from_integer(2.into());
    let error = (end - &mid).abs() + (hi - lo);
    assert!(
        error <= tenth(digits) * mid.abs().max(Q::one()),
        "{what}: {} against {} (error {})",
        end.to_f64(),
        mid.to_f64(),
        dpdtol::num::format_sig(&error, 5)
    );
}

#[test]
fn cc_lemmas_4_and_5_in_the_bernoulli_setting_match_brute_force() {
    // ε = 1: η = min{ε/2, 1/8} = 1/8. T = 15 reaches blocks 1..3, so
    // M = 2^{3−1} = 4; T = 8 reaches the same blocks (block 3 cut short).
    // (1/4, 3/4): λ = η; (9/20, 1/2): the interior minimiser (x*² = 11/9 <
    // e^{1/4}); (1/10, 1/5, 1/2) and (0, 1/2, 1): λ = η (μ_b = 0 in the last).
    let eta = q("1/8");
    for (means, t, m) in [
        ("1/4,3/4", 15u128, 4u64),
        ("9/20,1/2", 8, 4),
        ("1/10,1/5,1/2", 15, 4),
        ("0,1/2,1", 7, 2),
    ] {
        let inst = instance(means);
        let config = Config::new(AlgorithmId::PrefixSoftmax, inst.k(), q("1"));
        let evaluation = evaluate(&config, &inst, Setting::Bernoulli, t);
        let head = (1..=m).fold(Certified::from_int(0, &BITS), |acc, m| {
            acc + f_m_brute_force(inst.means(), &eta, m)
        });
        let tail = tail_closed_form(inst.means(), &eta, m);
        let one = Certified::from_int(1, &BITS);
        let four = Certified::from_int(4, &BITS);
        let lem4 = row(&evaluation, "cc-lem4");
        let (lo, hi) = lem4.value.enclosure().unwrap();
        assert_end(&lo, &(one.clone() + four.clone() * &head), 30, means);
        assert_end(
            &hi,
            &(one + four * (head.clone() + &tail)),
            30,
            &format!("{means}: 1 + 4(Σ F + tail)"),
        );
        assert_eq!(lem4.holds(&curve_total(&config, &inst, t)), Some(true));
        let lem5 = row(&evaluation, "cc-lem5");
        let (lo, hi) = lem5.quantity.as_ref().unwrap().1.enclosure().unwrap();
        assert_end(&lo, &head, 30, &format!("{means}: Σ_{{m≤M}} F_m"));
        assert_end(&hi, &(head + &tail), 30, &format!("{means}: Σ F + tail"));
        assert!(lem5.applies);
        assert_eq!(lem5.holds(&curve_total(&config, &inst, t)), Some(true));
        assert!(!evaluation
            .not_evaluated
            .iter()
            .any(|n| n.id.starts_with("cc-lem")));
    }
    // The brute force agrees with the crate's enumeration of F_m.
    let inst = instance("1/10,1/5,1/2");
    let deltas = inst.gaps_in::<Certified>(&BITS);
    // Both engines: the enumeration and the Laplace-transform quadrature.
    for engine in [Engine::Enumeration, Engine::Quadrature] {
        let crate_f3: Certified = regret::bernoulli::expected_gap(
            Noise::Gumbel,
            &Scale::Beta(q("8")),
            &inst,
            &deltas,
            3,
            &BITS,
            engine,
        )
        .unwrap();
        assert_agree(
            &crate_f3,
            &f_m_brute_force(inst.means(), &eta, 3),
            30,
            &format!("F_3 by {engine:?}"),
        );
    }
}

fn curve_total(config: &Config, inst: &Instance, t: u128) -> Certified {
    let curve: RegretCurve<Certified> = closed_form(config, inst, Setting::Bernoulli, t, &BITS);
    curve.total(&BITS)
}

#[test]
fn the_prefix_tail_bound_bounds_the_next_twenty_terms() {
    // T = 7: M = 2; Σ_{m=3}^{22} F_m ≤ the row's tail (the width of
    // cc-lem5's enclosure of Σ F_m), for λ = η and for the interior λ.
    let eta = q("1/8");
    for means in ["3/10,3/5", "9/20,1/2", "0,1/4,1/2"] {
        let inst = instance(means);
        let config = Config::new(AlgorithmId::PrefixSoftmax, inst.k(), q("1"));
        let evaluation = evaluate(&config, &inst, Setting::Bernoulli, 7);
        let (lo, hi) = evaluation
            .bounds
            .iter()
            .find(|b| b.id == "cc-lem5")
            .unwrap()
            .quantity
            .as_ref()
            .unwrap()
            .1
            .enclosure()
            .unwrap();
        let bound = hi - lo;
        let twenty = (3..=22).fold(Certified::from_int(0, &BITS), |acc, m| {
            acc + f_m_brute_force(inst.means(), &eta, m)
        });
        let (_, twenty_hi) = twenty.enclosure().unwrap();
        assert!(
            twenty_hi <= bound,
            "{means}: Σ_{{m=3}}^{{22}} F_m = {} above the tail bound {}",
            twenty.to_f64(),
            bound.to_f64()
        );
    }
}

#[test]
fn cc_lemma_rows_are_not_evaluated_when_rho_below_one_is_not_certified() {
    // Δ = 2^{−300}: ρ = 1 − O(Δ²) cannot be told from 1 at 256 bits.
    let tiny = Q::new(BigInt::one(), BigInt::one() << 300);
    let half = q("1/2");
    let inst = Instance::new(vec![&half - &tiny, half]).unwrap();
    let config = Config::new(AlgorithmId::PrefixSoftmax, 2, q("1"));
    let evaluation = evaluate(&config, &inst, Setting::Bernoulli, 3);
    for id in ["cc-lem4", "cc-lem5"] {
        assert!(evaluation.bounds.iter().all(|b| b.id != id));
        let skipped = evaluation
            .not_evaluated
            .iter()
            .find(|n| n.id == id)
            .unwrap();
        assert!(skipped.reason.contains("ρ_2 < 1"), "{}", skipped.reason);
    }
}

#[test]
fn hu_theorem_12_row() {
    // 0.2 · 0.49 · m*·Δ with m* = ln K/(10εΔ): 0.0098 ln K/ε. K = 4, ε = 1:
    // 0.0098 · ln 4 = 0.01358568473897….
    let value = 0.0098 * 4f64.ln();
    let prefix = |k: usize| Config::new(AlgorithmId::PrefixSoftmax, k, q("1"));
    // Δ = 1/5 < 1/4, K = 4, T = 15 ≥ max{ln 4/(16/25), ln 4/2} = 2.166….
    let inst = instance("3/10,1/2,1/2,1/2");
    let evaluation = evaluate(&prefix(4), &inst, Setting::Bernoulli, 15);
    let r = row(&evaluation, "hu-thm12");
    assert!(
        (r.value.to_f64() - value).abs() < 1e-15,
        "{}",
        r.value.to_f64()
    );
    assert!(r.applies, "{:?}", r.note);
    assert_eq!(r.kind.name(), "lower");
    let total = curve_total(&prefix(4), &inst, 15);
    // prefix-softmax is symmetric in the actions: the largest regret over
    // the packing is the run's own.
    assert_agree(&r.quantity.as_ref().unwrap().1, &total, 30, "symmetric");
    assert_eq!(r.holds(&total), Some(true));
    // The hypotheses, one at a time.
    for (means, t, what) in [
        ("3/10,1/2,1/2", 15u128, "K ≥ 4"),
        ("1/4,1/2,1/2,1/2", 15, "Δmin < 1/4"),
        ("3/10,1/2,1/2,1/2", 2, "T ≥ ln K/(16Δmin²)"),
    ] {
        let inst = instance(means);
        let r = evaluate(&prefix(inst.k()), &inst, Setting::Bernoulli, t);
        let r = row(&r, "hu-thm12");
        assert!(!r.applies, "{means} T = {t}");
        assert!(r.note.as_ref().unwrap().contains(what), "{:?}", r.note);
    }
    // T ≥ ln K/(10εΔmin) = 6.93… binds at ε = 1/10 (η = 1/20): T = 6 fails, 7 passes.
    let small = Config::new(AlgorithmId::PrefixSoftmax, 4, q("1/10"));
    for (t, applies) in [(6u128, false), (7, true)] {
        let r = evaluate(&small, &inst, Setting::Bernoulli, t);
        assert_eq!(row(&r, "hu-thm12").applies, applies, "T = {t}");
    }
    // hu-rnm-ftnl (Lap(1/ε), not ε-DP) plays action 1 first: the quantity is
    // the larger regret of the best action at position 1 or 2.
    let config = Config::new(AlgorithmId::HuRnmFtnl, 4, q("1"));
    let evaluation = evaluate(&config, &inst, Setting::Bernoulli, 15);
    let r = row(&evaluation, "hu-thm12");
    assert!(!r.applies);
    let first = curve_total(&config, &instance("3/10,1/2,1/2,1/2"), 15);
    let second = curve_total(&config, &instance("1/2,3/10,1/2,1/2"), 15);
    assert!(second.to_f64() > first.to_f64());
    assert_agree(
        &r.quantity.as_ref().unwrap().1,
        &second,
        30,
        "max over placements",
    );
    // Not evaluated off the packing or in the deterministic setting.
    for (means, setting) in [
        ("3/10,1/2,1/2,1/2", Setting::Deterministic),
        ("3/10,1/2,1/2,3/5", Setting::Bernoulli),
    ] {
        let inst = instance(means);
        let evaluation = evaluate(&prefix(4), &inst, setting, 15);
        assert!(evaluation.bounds.iter().all(|b| b.id != "hu-thm12"));
        assert!(evaluation.not_evaluated.iter().any(|n| n.id == "hu-thm12"));
    }
}

#[test]
fn cli_bernoulli_prefix_softmax_shows_the_lemma_rows_and_theorem_12() {
    let v = json(&[
        "regret",
        "--setting",
        "bernoulli",
        "--algorithm",
        "prefix-softmax",
        "--means",
        "0.3,0.5,0.5,0.5",
        "--horizon",
        "15",
        "--epsilon",
        "1",
        "--json",
    ]);
    let bounds = v["bounds"].as_array().unwrap();
    let find = |id: &str| {
        bounds
            .iter()
            .find(|b| b["id"] == id)
            .unwrap_or_else(|| panic!("no {id} in {v}"))
    };
    for id in ["cc-lem4", "cc-lem5", "hu-thm12"] {
        let b = find(id);
        assert_eq!(b["holds"], true, "{b}");
        assert_eq!(b["applies"], true, "{b}");
        assert_eq!(b["value_interval"].as_array().unwrap().len(), 2);
    }
    assert_eq!(find("hu-thm12")["kind"], "lower");
    assert!(find("cc-lem5")["quantity_value"].is_string());
    assert!(find("cc-lem4")["note"]
        .as_str()
        .unwrap()
        .contains("Σ_{m≤4} F_m"));
    // The Lemma 4 value is an enclosure [1 + 4ΣF, 1 + 4(ΣF + tail)]: its ends
    // differ by four times a positive tail.
    let interval = find("cc-lem4")["value_interval"].as_array().unwrap();
    assert!(q(interval[0].as_str().unwrap()) < q(interval[1].as_str().unwrap()));
    assert!(v["bounds_not_evaluated"]
        .as_array()
        .unwrap()
        .iter()
        .all(|n| n["id"] != "cc-lem4" && n["id"] != "hu-thm12"));
}
