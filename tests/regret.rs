//! Exact pseudo-regret (issue 4): the closed forms against the generic
//! law-based computation, the Bernoulli engine against brute force, backends
//! against each other, hand-derived values, the samplers' Monte Carlo means
//! against the exact regret, the bounds, and the command line.

mod common;

use common::{dpdtol, json};

use dpdtol::algorithm::{AlgorithmId, Config, OnlineAlgorithm};
use dpdtol::mechanism::Noise;
use dpdtol::num::{parse_rational, parse_rational_list, Certified, Exact, Precision, Real, Q};
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

/// Every algorithm variant of the guide's table (wu-wang with each noise and
/// both resampling bits).
fn configs(k: usize, epsilon: &Q) -> Vec<Config> {
    let mut out = Vec::new();
    for id in AlgorithmId::ALL {
        if id == AlgorithmId::WuWang {
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
