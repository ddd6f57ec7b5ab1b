//! The Bernoulli setting's two engines for softmax (Gumbel) choices set
//! against each other: the Laplace-transform quadrature
//! (`regret::laplace_transform`) against the enumeration of the binomial
//! outcomes, on certified backends (agreement to 30 digits) and against
//! exact rationals (interval containment) with a rational unit weight; a
//! negative control for the remainder and tail enclosures; and the
//! whole-curve regret of wu-wang (Gumbel) and prefix-softmax by both.
//!
//! Run with `cargo test --test bernoulli` (and `--features mpfr` for the
//! MPFR backend).

use dpdtol::algorithm::{AlgorithmId, Config};
use dpdtol::mechanism::{Noise, Scale};
use dpdtol::num::{parse_rational, parse_rational_list, Certified, Exact, Precision, Real, Q};
use dpdtol::regret::bernoulli::{self, expected_gap, regret_with, Engine};
use dpdtol::regret::laplace_transform::{softmax_gap, Enclosure, Options};
use dpdtol::regret::{self, Enclose, Instance, Plan, RegretCurve, Setting};
use num_bigint::BigInt;
use num_traits::One;
use proptest::prelude::*;

/// The precision of the containment tests (the command line's for the
/// Bernoulli setting).
const BITS: Precision = Precision(192);

/// Enough for 30-digit agreement (the quadrature's tolerance is
/// `2^{−(bits−32)}`), and cheaper in the debug builds the tests run in.
const AGREE: Precision = Precision(160);

fn q(text: &str) -> Q {
    parse_rational(text).unwrap()
}

fn instance(means: &str) -> Instance {
    Instance::new(parse_rational_list(means).unwrap()).unwrap()
}

/// `10^{−digits}`.
fn tenth(digits: u32) -> Q {
    Q::new(BigInt::one(), BigInt::from(10u32).pow(digits))
}

/// Both enclosures meet, and together they span at most `10^{−digits}`
/// relative to the larger value (absolute below 1).
fn assert_agree<R: Real>(a: &R, b: &R, digits: u32, what: &str) {
    let (a_lo, a_hi) = a.enclosure().unwrap();
    let (b_lo, b_hi) = b.enclosure().unwrap();
    assert!(
        a_lo <= b_hi && b_lo <= a_hi,
        "{what}: disjoint enclosures around {} and {}",
        a.to_f64(),
        b.to_f64()
    );
    let spread = a_hi.clone().max(b_hi.clone()) - a_lo.min(b_lo);
    let scale = a_hi.max(b_hi).max(Q::one());
    assert!(
        spread <= tenth(digits) * scale,
        "{what}: {} and {} differ beyond 1e-{digits}",
        a.to_f64(),
        b.to_f64()
    );
}

/// `value ∈ enclosure`, and the enclosure is narrower than `10^{−digits}`.
fn assert_encloses<R: Real>(enclosure: &R, value: &Q, digits: u32, what: &str) {
    let (lo, hi) = enclosure.enclosure().unwrap();
    assert!(
        &lo <= value && value <= &hi,
        "{what}: {} is outside the enclosure [{}, {}]",
        Real::to_f64(value),
        Real::to_f64(&lo),
        Real::to_f64(&hi)
    );
    assert!(
        &hi - &lo <= tenth(digits),
        "{what}: width {} is over 1e-{digits}",
        Real::to_f64(&(&hi - &lo))
    );
}

fn quadrature<R: Enclose>(
    scale: &Scale,
    inst: &Instance,
    n: u64,
    ctx: &R::Context,
    bits: u32,
) -> Enclosure<R> {
    let deltas = inst.gaps_in::<R>(ctx);
    softmax_gap(
        scale,
        inst.means(),
        &deltas,
        n,
        ctx,
        &Options::for_bits(bits),
    )
    .unwrap()
}

fn gap<R: Enclose>(scale: &Scale, inst: &Instance, n: u64, ctx: &R::Context, engine: Engine) -> R {
    let deltas = inst.gaps_in::<R>(ctx);
    expected_gap(Noise::Gumbel, scale, inst, &deltas, n, ctx, engine).unwrap()
}

/// The exact `E[Σ_i Δ_i w^{S_i}/Σ_j w^{S_j}]` for a rational unit weight.
fn exact_gap(w: &Q, inst: &Instance, n: u64) -> Q {
    let scale = Scale::unit_weight(w.clone()).unwrap();
    gap::<Exact>(&scale, inst, n, &(), Engine::Enumeration)
}

#[test]
fn quadrature_matches_the_enumeration_to_30_digits_on_small_instances() {
    // K ∈ {2, 3, 4}; means with 0, 1 and ties; β from small to large.
    let cases = [
        ("0.3,0.6", "2"),
        ("0,1", "1/2"),
        ("0.5,0.5", "3"),
        ("0.1,0.2,0.5", "2"),
        ("0,0.5,1", "8"),
        ("1/4,1/4,3/4", "1"),
        ("0.2,0.7,0.2,0.9", "2"),
        ("0,1,1,1", "4"),
        ("1/3,0.5,1,0", "1/2"),
    ];
    let lengths = [1u64, 2, 3, 5, 8, 16];
    for (c, (means, beta)) in cases.iter().enumerate() {
        let inst = instance(means);
        let scale = Scale::beta(q(beta)).unwrap();
        // Two lengths per case, all six per K.
        for &n in &lengths[2 * (c % 3)..2 * (c % 3) + 2] {
            let what = format!("μ = {means}, β = {beta}, n = {n}");
            let by_quadrature: Certified = gap(&scale, &inst, n, &AGREE, Engine::Quadrature);
            let by_enumeration: Certified = gap(&scale, &inst, n, &AGREE, Engine::Enumeration);
            assert_agree(&by_quadrature, &by_enumeration, 30, &what);
        }
    }
}

#[test]
fn quadrature_encloses_the_exact_rational_value() {
    for (means, w, n) in [
        ("0.3,0.6", "1/2", 5u64),
        ("0,1,1/2", "3/4", 3),
        ("1/4,1/4,3/4", "9/10", 8),
        ("1/3,1/2,1,0", "2/3", 2),
        ("1/5,3/5", "1/3", 1),
    ] {
        let inst = instance(means);
        let w = q(w);
        let exact = exact_gap(&w, &inst, n);
        let scale = Scale::unit_weight(w.clone()).unwrap();
        let what = format!("μ = {means}, w = {w}, n = {n}");
        let dashu: Enclosure<Certified> = quadrature(&scale, &inst, n, &BITS, BITS.0);
        assert_encloses(&dashu.total(), &exact, 40, &what);
        #[cfg(feature = "mpfr")]
        {
            use dpdtol::num::{Interval, MpfrFloat};
            let mpfr: Enclosure<Interval<MpfrFloat>> = quadrature(&scale, &inst, n, &BITS, BITS.0);
            assert_encloses(&mpfr.total(), &exact, 40, &format!("{what} (MPFR)"));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// Random small instances: the quadrature encloses the exact value (a
    /// rational unit weight) to 30 digits, and f64 agrees to 1e-12.
    #[test]
    fn quadrature_encloses_random_small_instances(
        means in prop::collection::vec(
            prop_oneof![Just(0i64), Just(10), 0i64..=10],
            2..=4,
        ),
        n in 1u64..=6,
        w in 1i64..=9,
    ) {
        let inst = Instance::new(
            means.iter().map(|&m| Q::new(m.into(), 10.into())).collect(),
        )
        .unwrap();
        let w = Q::new(w.into(), 10.into());
        let exact = exact_gap(&w, &inst, n);
        let scale = Scale::unit_weight(w.clone()).unwrap();
        let what = format!("μ = {means:?}/10, w = {w}, n = {n}");
        let certified: Enclosure<Certified> = quadrature(&scale, &inst, n, &AGREE, AGREE.0);
        assert_encloses(&certified.total(), &exact, 30, &what);
        let float: Enclosure<f64> = quadrature(&scale, &inst, n, &(), 53);
        prop_assert!(
            (float.total() - Real::to_f64(&exact)).abs() <= 1e-12,
            "{}: f64 {} against {}", what, float.total(), Real::to_f64(&exact)
        );
    }
}

#[test]
fn dropping_the_remainder_or_the_tail_misses_the_true_value() {
    // With two or three Taylor terms per step the remainders are large, and
    // with two grid steps the tail is: the enclosure stays correct but wide,
    // and leaving either part out (or flipping the remainder's sign) misses
    // the exact value.
    let inst = instance("0.2,0.7,0.5");
    let w = q("1/2");
    let n = 5;
    let exact = exact_gap(&w, &inst, n);
    let scale = Scale::unit_weight(w).unwrap();
    let deltas = inst.gaps_in::<Certified>(&BITS);
    let run = |terms: Option<usize>, max_steps: Option<u64>| -> Enclosure<Certified> {
        let options = Options {
            terms,
            max_steps,
            ..Options::for_bits(BITS.0)
        };
        softmax_gap(&scale, inst.means(), &deltas, n, &BITS, &options).unwrap()
    };
    let contains = |x: &Certified| {
        let (lo, hi) = x.enclosure().unwrap();
        lo <= exact && exact <= hi
    };
    let width = |x: &Certified| {
        let (lo, hi) = x.enclosure().unwrap();
        Real::to_f64(&(hi - lo))
    };
    for terms in [2usize, 3] {
        let e = run(Some(terms), None);
        assert!(contains(&e.total()), "{terms} terms: the truth is outside");
        assert!(
            width(&e.total()) > 1e-4,
            "{terms} terms: suspiciously narrow"
        );
        // The remainder has the sign (−1)^m: [0, b] or [−b, 0].
        let (r_lo, r_hi) = e.remainder.enclosure().unwrap();
        if terms % 2 == 0 {
            assert!(r_lo >= Q::from_integer(0.into()) && r_hi > r_lo);
        } else {
            assert!(r_hi <= Q::from_integer(0.into()) && r_hi > r_lo);
        }
        let without = e.series.clone() + &e.tail;
        assert!(
            !contains(&without),
            "{terms} terms: no remainder, still contains"
        );
        let flipped = e.series.clone() - &e.remainder + &e.tail;
        assert!(
            !contains(&flipped),
            "{terms} terms: flipped remainder contains"
        );
    }
    let e = run(None, Some(2));
    assert!(contains(&e.total()), "two steps: the truth is outside");
    assert!(width(&e.total()) > 1e-3, "two steps: suspiciously narrow");
    let without = e.series.clone() + &e.remainder;
    assert!(!contains(&without), "two steps: no tail, still contains");
    // The full computation is narrow and contains it.
    assert_encloses(&run(None, None).total(), &exact, 40, "full");
}

#[test]
fn whole_curve_bernoulli_regret_matches_the_enumeration_to_30_digits() {
    let inst = instance("0.1,0.2,0.5");
    let eps = q("1");
    let mut gumbel = Config::new(AlgorithmId::WuWang, 3, eps.clone());
    gumbel.noise = Some(Noise::Gumbel);
    for config in [gumbel, Config::new(AlgorithmId::PrefixSoftmax, 3, eps)] {
        let plan = Plan::of(&config).unwrap();
        let curve = |engine| -> RegretCurve<Certified> {
            regret_with(&plan, &inst, 63, &AGREE, None, engine).unwrap()
        };
        let (quad, enumeration) = (curve(Engine::Quadrature), curve(Engine::Enumeration));
        let what = format!("{}", config.id);
        assert_agree(&quad.total(&AGREE), &enumeration.total(&AGREE), 30, &what);
        for ((t, a), (u, b)) in quad
            .boundaries(&AGREE)
            .iter()
            .zip(enumeration.boundaries(&AGREE))
        {
            assert_eq!(*t, u);
            assert_agree(a, &b, 30, &format!("{what} at t = {t}"));
        }
    }
}

#[test]
fn auto_engine_enumerates_small_choices_and_integrates_large_ones() {
    let inst = instance("0.1,0.2,0.5");
    let mut config = Config::new(AlgorithmId::WuWang, 3, q("1"));
    config.noise = Some(Noise::Gumbel);
    let plan = Plan::of(&config).unwrap();
    // Small horizons: every choice is enumerated, so Auto is the
    // enumeration exactly.
    let auto: RegretCurve<Certified> =
        regret::regret(&plan, &inst, Setting::Bernoulli, 15, &BITS, None).unwrap();
    let enumeration: RegretCurve<Certified> =
        regret_with(&plan, &inst, 15, &BITS, None, Engine::Enumeration).unwrap();
    assert_eq!(
        auto.total(&BITS).enclosure(),
        enumeration.total(&BITS).enclosure()
    );
    // T = 2^12 − 1: the enumeration is over the default limit, Auto is not.
    let cost = |engine| bernoulli::cost::<Certified>(&plan, &inst, 4095, &BITS, engine);
    assert!(cost(Engine::Enumeration) > bernoulli::DEFAULT_LIMIT);
    assert!(cost(Engine::Auto) < bernoulli::DEFAULT_LIMIT);
    assert!(cost(Engine::Auto) < cost(Engine::Quadrature));
    // Exact backends and other noises only enumerate.
    let exact_scale = Scale::unit_weight(q("1/2")).unwrap();
    let deltas = inst.gaps_in::<Exact>(&());
    assert!(expected_gap(
        Noise::Gumbel,
        &exact_scale,
        &inst,
        &deltas,
        4,
        &(),
        Engine::Quadrature
    )
    .is_err());
    let deltas = inst.gaps_in::<Certified>(&BITS);
    assert!(expected_gap(
        Noise::Laplace,
        &exact_scale,
        &inst,
        &deltas,
        4,
        &BITS,
        Engine::Quadrature
    )
    .is_err());
}
