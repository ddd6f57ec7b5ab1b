//! The numeric trait [`Real`], tested generically: each test body is written
//! once and run on every backend of the build —
//!
//! | backend | type | kind |
//! |---|---|---|
//! | IEEE double | `f64` | approximate |
//! | num-rational | [`Exact`] | exact |
//! | dashu interval | [`Certified`] = `Interval<DashuFloat>` | certified |
//! | MPFR interval (feature `mpfr`) | `Interval<MpfrFloat>` | certified |
//! | GMP rational (feature `mpfr`) | `rug::Rational` | exact |
//!
//! A value is checked against its exact rational according to the backend's
//! [`Kind`]: an exact backend must give it exactly, a certified one an
//! enclosure containing it, and f64 a double within a stated tolerance.
//!
//! Run with `cargo test --test backends` and
//! `cargo test --features mpfr --test backends`.

use dpdtol::mechanism::{law, Noise, Scale};
use dpdtol::num::{Certified, DashuFloat, Endpoint, Exact, Interval, Kind, Precision, Real, Q};
use dpdtol::Error;
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;
use std::any::type_name;
use std::cmp::Ordering;

#[cfg(feature = "mpfr")]
use dpdtol::num::{Dir, MpfrFloat};

// ---------------------------------------------------------------------------
// The backends, and running one body on each
// ---------------------------------------------------------------------------

/// A backend under test: a [`Real`] whose context can be made from a
/// precision (which the exact backends and f64 ignore).
trait Backend: Real {
    fn ctx(bits: Precision) -> Self::Context;
}

impl Backend for f64 {
    fn ctx(_: Precision) {}
}

impl Backend for Exact {
    fn ctx(_: Precision) {}
}

impl<E: Endpoint> Backend for Interval<E> {
    fn ctx(bits: Precision) -> Precision {
        bits
    }
}

#[cfg(feature = "mpfr")]
impl Backend for rug::Rational {
    fn ctx(_: Precision) {}
}

/// A test body generic over the backend.
trait OnBackend {
    fn run<R: Backend>(&self);
}

/// Run `body` on every backend of the build.
fn on_all_backends(body: &impl OnBackend) {
    body.run::<f64>();
    body.run::<Exact>();
    body.run::<Certified>();
    #[cfg(feature = "mpfr")]
    {
        body.run::<Interval<MpfrFloat>>();
        body.run::<rug::Rational>();
    }
}

/// A test body generic over the endpoint of a certified interval backend.
trait OnEndpoint {
    fn run<E: Endpoint>(&self);
}

/// Run `body` on every certified backend of the build.
fn on_certified_backends(body: &impl OnEndpoint) {
    body.run::<DashuFloat>();
    #[cfg(feature = "mpfr")]
    body.run::<MpfrFloat>();
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

fn qi(n: i64) -> Q {
    Q::from_integer(n.into())
}

/// `2^e` for an integer `e` of either sign.
fn pow2(e: i32) -> Q {
    let power = Q::from_integer(BigInt::one() << e.unsigned_abs());
    if e >= 0 {
        power
    } else {
        power.recip()
    }
}

/// The decimal `digits · 10^{−scale}`, as a rational.
fn dec(digits: &str, scale: u32) -> Q {
    let n: BigInt = digits.parse().expect("decimal digits");
    Q::new(n, BigInt::from(10).pow(scale))
}

/// e = 2.718281828459045235360287471352662497757|247…, 40 significant digits,
/// truncated (OEIS A001113; also Python's `decimal`:
/// `getcontext().prec = 60; Decimal(1).exp()`). Returns `[lo, lo + 10^{-39}]`.
fn e_reference() -> (Q, Q) {
    let lo = dec("2718281828459045235360287471352662497757", 39);
    let hi = dec("2718281828459045235360287471352662497758", 39);
    (lo, hi)
}

/// ln 2 = 0.6931471805599453094172321214581765680755|00134…, 40 significant
/// digits, truncated (OEIS A002162; Python: `Decimal(2).ln()`).
/// Returns `[lo, lo + 10^{-40}]`.
fn ln2_reference() -> (Q, Q) {
    let lo = dec("6931471805599453094172321214581765680755", 40);
    let hi = dec("6931471805599453094172321214581765680756", 40);
    (lo, hi)
}

fn to_f64(x: &Q) -> f64 {
    num_traits::ToPrimitive::to_f64(x).expect("a finite double")
}

fn enclosure<R: Real>(x: &R) -> (Q, Q) {
    x.enclosure()
        .unwrap_or_else(|| panic!("{}: no enclosure of {x:?}", type_name::<R>()))
}

/// Check that `x` is the real `exact` as far as `R`'s [`Kind`] promises:
/// equal for exact backends, contained for certified ones, and for f64
/// within `1e-13 · magnitude` (`magnitude` bounds the sizes of the terms of
/// the computation, so the f64 error is a few units of `2^{-53}` of it).
#[track_caller]
fn assert_is<R: Real>(x: &R, exact: &Q, magnitude: f64, what: &str) {
    let (lo, hi) = enclosure(x);
    let name = type_name::<R>();
    match R::KIND {
        Kind::Exact => assert!(
            lo == *exact && hi == *exact,
            "{name}: {what} = {lo}, expected exactly {exact}"
        ),
        Kind::Certified => assert!(
            lo <= *exact && *exact <= hi,
            "{name}: {what} ∈ [{lo}, {hi}] misses the exact {exact}"
        ),
        Kind::Approximate => {
            let error = (x.to_f64() - to_f64(exact)).abs();
            assert!(
                error <= 1e-13 * magnitude,
                "{name}: {what} = {x:?}, expected {exact} (error {error:e})"
            );
        }
    }
}

/// Check that `x` is a real known to lie in `[lo, hi]`: certified
/// enclosures must meet it, f64 must be within `1e-13 · magnitude` of it.
#[track_caller]
fn assert_meets<R: Real>(x: &R, lo: &Q, hi: &Q, magnitude: f64, what: &str) {
    let (xlo, xhi) = enclosure(x);
    let name = type_name::<R>();
    match R::KIND {
        Kind::Approximate => {
            let error = (x.to_f64() - to_f64(lo)).abs();
            assert!(
                error <= 1e-13 * magnitude,
                "{name}: {what} = {x:?}, expected about {lo} (error {error:e})"
            );
        }
        _ => assert!(
            xlo <= *hi && *lo <= xhi,
            "{name}: {what} ∈ [{xlo}, {xhi}] is disjoint from the reference [{lo}, {hi}]"
        ),
    }
}

/// `hi − lo ≤ 2^{−shift} · max(|lo|, |hi|)`.
#[track_caller]
fn assert_narrow<R: Real>(x: &R, shift: u32, what: &str) {
    let (lo, hi) = enclosure(x);
    let bound = lo.abs().max(hi.abs()) * pow2(-(shift as i32));
    assert!(
        &hi - &lo <= bound,
        "{}: {what} ∈ [{lo}, {hi}] is wider than 2^-{shift} relative",
        type_name::<R>()
    );
}

/// Rationals `n/d · 2^e` of many magnitudes and both signs.
fn rational() -> impl Strategy<Value = Q> {
    (any::<i32>(), 1i64..=1_000_000, -64i32..=64).prop_map(|(n, d, e)| q(n.into(), d) * pow2(e))
}

/// Rationals in `[lo, hi]` with denominators up to 10^4.
fn rational_in(lo: i64, hi: i64) -> impl Strategy<Value = Q> {
    (1i64..=10_000).prop_flat_map(move |d| (lo * d..=hi * d).prop_map(move |n| q(n, d)))
}

// ---------------------------------------------------------------------------
// Arithmetic and identities on every backend
// ---------------------------------------------------------------------------

/// `+ − × ÷`, negation, `mul_add` and `pow_u64` of rationals, against the
/// same operations in `Q`.
struct Arithmetic {
    a: Q,
    b: Q,
    c: Q,
    bits: Precision,
}

impl OnBackend for Arithmetic {
    fn run<R: Backend>(&self) {
        let ctx = R::ctx(self.bits);
        let (a, b, c) = (&self.a, &self.b, &self.c);
        let (fa, fb, fc) = (to_f64(a).abs(), to_f64(b).abs(), to_f64(c).abs());
        let (ra, rb, rc) = (
            R::from_rational(a, &ctx),
            R::from_rational(b, &ctx),
            R::from_rational(c, &ctx),
        );
        assert_is(&ra, a, fa, "a");
        if R::KIND == Kind::Certified {
            assert_narrow(&ra, self.bits.0 - 1, "a");
        }
        assert_is(&(ra.clone() + &rb), &(a + b), fa + fb, "a + b");
        assert_is(
            &(ra.clone() + rb.clone()),
            &(a + b),
            fa + fb,
            "a + b (by value)",
        );
        assert_is(&(ra.clone() - &rb), &(a - b), fa + fb, "a - b");
        assert_is(
            &(ra.clone() - rb.clone()),
            &(a - b),
            fa + fb,
            "a - b (by value)",
        );
        assert_is(&(ra.clone() * &rb), &(a * b), fa * fb, "a * b");
        assert_is(
            &(ra.clone() * rb.clone()),
            &(a * b),
            fa * fb,
            "a * b (by value)",
        );
        assert_is(&-ra.clone(), &-a, fa, "-a");
        assert_is(
            &rc.clone().mul_add(&ra, &rb),
            &(c + a * b),
            fc + fa * fb,
            "c + a*b",
        );
        // All operands non-negative: the fused, once-rounded path of intervals.
        let (aa, ab, ac) = (a.abs(), b.abs(), c.abs());
        let fused = R::from_rational(&ac, &ctx)
            .mul_add(&R::from_rational(&aa, &ctx), &R::from_rational(&ab, &ctx));
        assert_is(&fused, &(&ac + &aa * &ab), fc + fa * fb, "|c| + |a|*|b|");
        assert_is(&ra.pow_u64(3), &(a * a * a), fa * fa * fa, "a^3");
        assert_is(&ra.pow_u64(0), &Q::one(), 1.0, "a^0");
        if !b.is_zero() {
            assert_is(&(ra.clone() / &rb), &(a / b), fa / fb, "a / b");
            assert_is(
                &(ra.clone() / rb.clone()),
                &(a / b),
                fa / fb,
                "a / b (by value)",
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn arithmetic_agrees_on_all_backends(
        a in rational(), b in rational(), c in rational(), bits in 2u32..=300,
    ) {
        on_all_backends(&Arithmetic { a, b, c, bits: Precision(bits) });
    }
}

/// Constants and edge cases every backend must get right.
struct Identities;

impl OnBackend for Identities {
    fn run<R: Backend>(&self) {
        let name = type_name::<R>();
        let ctx = R::ctx(Precision(128));
        let int = |n| R::from_int(n, &ctx);
        let third = R::from_rational(&q(1, 3), &ctx);
        assert_is(
            &(third.clone() + &third + &third),
            &Q::one(),
            1.0,
            "1/3 + 1/3 + 1/3",
        );
        assert_is(&int(-7), &qi(-7), 7.0, "-7");
        assert_is(
            &int(0).exp().expect("exp(0) is rational"),
            &Q::one(),
            1.0,
            "exp(0)",
        );
        assert_is(
            &int(1).ln().expect("ln(1) is rational"),
            &Q::zero(),
            1.0,
            "ln(1)",
        );
        assert!(
            matches!(int(0).ln(), Err(Error::Domain(_))),
            "{name}: ln(0)"
        );
        assert!(
            matches!(int(-2).ln(), Err(Error::Domain(_))),
            "{name}: ln(-2)"
        );
        assert!(int(0).is_zero_certain(), "{name}: 0 is certainly zero");
        assert!(
            !third.is_zero_certain(),
            "{name}: 1/3 is not certainly zero"
        );
        assert_eq!(
            int(1).cmp_certain(&int(2)),
            Some(Ordering::Less),
            "{name}: 1 < 2"
        );
        assert_eq!(
            int(2).cmp_certain(&int(1)),
            Some(Ordering::Greater),
            "{name}: 2 > 1"
        );
        assert_eq!(
            int(1).cmp_certain(&int(1)),
            Some(Ordering::Equal),
            "{name}: 1 = 1"
        );
        assert_eq!(third.to_f64(), 1.0 / 3.0, "{name}: to_f64(1/3)");
        assert_eq!(int(-7).to_f64(), -7.0, "{name}: to_f64(-7)");
        let (e, ln2) = (int(1).exp(), int(2).ln());
        if R::KIND == Kind::Exact {
            assert!(
                matches!(e, Err(Error::NotRepresentable(_))),
                "{name}: exp(1) is refused"
            );
            assert!(
                matches!(ln2, Err(Error::NotRepresentable(_))),
                "{name}: ln(2) is refused"
            );
        } else {
            let (lo, hi) = e_reference();
            assert_meets(&e.expect("exp(1)"), &lo, &hi, 3.0, "exp(1)");
            let (lo, hi) = ln2_reference();
            assert_meets(&ln2.expect("ln(2)"), &lo, &hi, 1.0, "ln(2)");
        }
    }
}

#[test]
fn identities_on_all_backends() {
    on_all_backends(&Identities);
}

/// `pow_rational`: exact for perfect powers, through exp/ln otherwise (which
/// exact backends refuse).
struct PowRational;

impl OnBackend for PowRational {
    fn run<R: Backend>(&self) {
        let name = type_name::<R>();
        let ctx = R::ctx(Precision(128));
        let pow = |b: Q, e: Q| R::pow_rational(&b, &e, &ctx);
        // (4/9)^{3/2} = (2/3)^3 = 8/27; (9/4)^{-1/2} = 2/3; (8/27)^{-2/3} = 9/4.
        assert_is(
            &pow(q(4, 9), q(3, 2)).expect("rational"),
            &q(8, 27),
            1.0,
            "(4/9)^(3/2)",
        );
        assert_is(
            &pow(q(9, 4), q(-1, 2)).expect("rational"),
            &q(2, 3),
            1.0,
            "(9/4)^(-1/2)",
        );
        assert_is(
            &pow(q(8, 27), q(-2, 3)).expect("rational"),
            &q(9, 4),
            3.0,
            "(8/27)^(-2/3)",
        );
        assert_is(
            &pow(q(3, 7), qi(5)).expect("rational"),
            &q(243, 16807),
            1.0,
            "(3/7)^5",
        );
        assert_is(
            &pow(qi(1), q(1, 3)).expect("rational"),
            &Q::one(),
            1.0,
            "1^(1/3)",
        );
        assert!(
            matches!(pow(qi(0), q(1, 2)), Err(Error::Domain(_))),
            "{name}: 0^(1/2)"
        );
        assert!(
            matches!(pow(qi(-4), q(1, 2)), Err(Error::Domain(_))),
            "{name}: (-4)^(1/2)"
        );
        // Irrational: 2^{1/2} and (1/2)^{1/3}, through exp(e · ln b).
        let sqrt2 = pow(qi(2), q(1, 2));
        let cbrt = pow(q(1, 2), q(1, 3));
        match R::KIND {
            Kind::Exact => {
                assert!(
                    matches!(sqrt2, Err(Error::NotRepresentable(_))),
                    "{name}: 2^(1/2)"
                );
                assert!(
                    matches!(cbrt, Err(Error::NotRepresentable(_))),
                    "{name}: (1/2)^(1/3)"
                );
            }
            Kind::Certified => {
                // Positive enclosures [lo, hi] of x^{1/n} satisfy lo^n ≤ x ≤ hi^n.
                for (root, n, x, what) in [
                    (sqrt2, 2, qi(2), "2^(1/2)"),
                    (cbrt, 3, q(1, 2), "(1/2)^(1/3)"),
                ] {
                    let root = root.expect("certified");
                    let (lo, hi) = enclosure(&root);
                    assert!(
                        lo.is_positive() && lo.pow(n) <= x && x <= hi.pow(n),
                        "{name}: {what} ∈ [{lo}, {hi}]"
                    );
                    assert_narrow(&root, 120, what);
                }
            }
            Kind::Approximate => {
                assert!((sqrt2.expect("f64").to_f64() - std::f64::consts::SQRT_2).abs() < 1e-15);
                assert!((cbrt.expect("f64").to_f64() - 0.5f64.cbrt()).abs() < 1e-15);
            }
        }
    }
}

#[test]
fn pow_rational_on_all_backends() {
    on_all_backends(&PowRational);
}

// ---------------------------------------------------------------------------
// Certified backends: inclusion, constants, comparisons
// ---------------------------------------------------------------------------

/// The inclusion property: for intervals `X ∋ x`, `Y ∋ y`, `Z ∋ z` (random
/// rational ends, random precision), `X ∘ Y ∋ x ∘ y` for `∘ ∈ {+, −, ×, ÷}`
/// and `Z + X·Y ∋ z + x·y`.
struct Inclusion {
    /// `(lo, hi, t)`: the interval `[lo, hi]` and its point `lo + t (hi − lo)`.
    x: (Q, Q, Q),
    y: (Q, Q, Q),
    z: (Q, Q, Q),
    bits: Precision,
}

impl OnEndpoint for Inclusion {
    fn run<E: Endpoint>(&self) {
        let make = |(lo, hi, t): &(Q, Q, Q)| {
            let interval = Interval::<E>::from_bounds(lo, hi, self.bits).expect("lo ≤ hi");
            (interval, lo + t * (hi - lo))
        };
        let ((x, px), (y, py), (z, pz)) = (make(&self.x), make(&self.y), make(&self.z));
        let check = |r: Interval<E>, exact: Q, what: &str| assert_is(&r, &exact, 0.0, what);
        check(x.clone(), px.clone(), "x");
        check(x.clone() + &y, &px + &py, "x + y");
        check(x.clone() - &y, &px - &py, "x - y");
        check(x.clone() * &y, &px * &py, "x * y");
        check(-x.clone(), -&px, "-x");
        check(z.clone().mul_add(&x, &y), &pz + &px * &py, "z + x*y");
        check(x.hull(&y), px.clone(), "hull(x, y) ∋ x");
        check(x.hull(&y), py.clone(), "hull(x, y) ∋ y");
        let (ylo, yhi) = enclosure(&y);
        if ylo.is_positive() || yhi.is_negative() {
            check(x.clone() / &y, &px / &py, "x / y");
        }
    }
}

/// An interval `[lo, lo + width]` with a point in it (`t ∈ [0, 1]`).
fn interval() -> impl Strategy<Value = (Q, Q, Q)> {
    let width = prop_oneof![Just(Q::zero()), rational().prop_map(|w| w.abs())];
    (rational(), width, 0i64..=16).prop_map(|(lo, w, t)| (lo.clone(), lo + w, q(t, 16)))
}

/// A non-negative interval, for the fused multiply-add path.
fn nonneg_interval() -> impl Strategy<Value = (Q, Q, Q)> {
    interval().prop_map(|(lo, hi, t)| {
        let shift = lo.abs() + lo.abs();
        (&lo + &shift, hi + shift, t)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn certified_operations_contain_the_exact_result(
        x in interval(), y in interval(), z in interval(), bits in 2u32..=300,
    ) {
        on_certified_backends(&Inclusion { x, y, z, bits: Precision(bits) });
    }

    #[test]
    fn certified_fused_multiply_add_contains_the_exact_result(
        x in nonneg_interval(), y in nonneg_interval(), z in nonneg_interval(), bits in 2u32..=300,
    ) {
        on_certified_backends(&Inclusion { x, y, z, bits: Precision(bits) });
    }
}

/// e and ln 2 against 40-digit references, at several precisions; the
/// enclosures are narrow (a few units in the last place).
struct Constants;

impl OnEndpoint for Constants {
    fn run<E: Endpoint>(&self) {
        for bits in [24, 53, 64, 113, 128, 140, 200, 400] {
            let ctx = Precision(bits);
            let e = Interval::<E>::from_int(1, &ctx).exp().expect("exp(1)");
            let ln2 = Interval::<E>::from_int(2, &ctx).ln().expect("ln(2)");
            for (value, (lo, hi), what) in [
                (e, e_reference(), "exp(1)"),
                (ln2, ln2_reference(), "ln(2)"),
            ] {
                let what = format!("{what} at {bits} bits");
                assert_meets(&value, &lo, &hi, 0.0, &what);
                // Correctly rounded ends of a point argument: one ulp apart.
                assert_narrow(&value, bits - 1, &what);
                if bits >= 140 {
                    // Width ≤ 3·2^-139 < 10^-41: the enclosure lies within
                    // 10^-41 of the reference interval, confirming its digits.
                    let (vlo, vhi) = enclosure(&value);
                    let slack = dec("1", 41);
                    assert!(
                        vlo >= &lo - &slack && vhi <= &hi + &slack,
                        "{what}: [{vlo}, {vhi}]"
                    );
                }
            }
        }
    }
}

#[test]
fn certified_constants_match_references() {
    on_certified_backends(&Constants);
}

/// `exp(ln x) ∋ x` and `ln(exp y) ∋ y`.
struct ExpLnRoundTrip {
    x: Q,
    y: Q,
    bits: Precision,
}

impl OnEndpoint for ExpLnRoundTrip {
    fn run<E: Endpoint>(&self) {
        let x = Interval::<E>::from_rational(&self.x, &self.bits);
        let y = Interval::<E>::from_rational(&self.y, &self.bits);
        let back = x.ln().expect("x > 0").exp().expect("in range");
        assert_is(&back, &self.x, 0.0, "exp(ln x)");
        let back = y.exp().expect("in range").ln().expect("e^y > 0");
        assert_is(&back, &self.y, 0.0, "ln(exp y)");
        let ex = y.exp().expect("in range");
        let (lo, _) = enclosure(&ex);
        assert!(lo.is_positive(), "exp(y) > 0 at {:?}", self.bits);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn certified_exp_ln_round_trip(
        x in rational().prop_map(|x| x.abs() + pow2(-80)),
        y in rational_in(-40, 40),
        bits in 8u32..=300,
    ) {
        on_certified_backends(&ExpLnRoundTrip { x, y, bits: Precision(bits) });
    }
}

/// `cmp_certain` decides separated intervals and answers `None` on overlap.
struct Comparisons;

impl OnEndpoint for Comparisons {
    fn run<E: Endpoint>(&self) {
        let name = type_name::<E>();
        let p = Precision(64);
        let iv = |lo: Q, hi: Q| Interval::<E>::from_bounds(&lo, &hi, p).expect("lo ≤ hi");
        let (a, b) = (iv(qi(1), qi(2)), iv(qi(3), qi(4)));
        assert_eq!(
            a.cmp_certain(&b),
            Some(Ordering::Less),
            "{name}: [1,2] < [3,4]"
        );
        assert_eq!(
            b.cmp_certain(&a),
            Some(Ordering::Greater),
            "{name}: [3,4] > [1,2]"
        );
        let (c, d) = (iv(qi(1), qi(3)), iv(qi(2), qi(4)));
        assert_eq!(c.cmp_certain(&d), None, "{name}: [1,3] and [2,4] overlap");
        assert_eq!(d.cmp_certain(&c), None, "{name}: [2,4] and [1,3] overlap");
        let (touch_lo, touch_hi) = (iv(qi(1), qi(2)), iv(qi(2), qi(3)));
        assert_eq!(
            touch_lo.cmp_certain(&touch_hi),
            None,
            "{name}: [1,2] and [2,3] share 2"
        );
        let inner = iv(q(3, 2), q(7, 4));
        assert_eq!(a.cmp_certain(&inner), None, "{name}: [1,2] ⊃ [3/2,7/4]");
        let point = iv(q(1, 4), q(1, 4));
        assert_eq!(
            point.cmp_certain(&point),
            Some(Ordering::Equal),
            "{name}: [1/4] = [1/4]"
        );
        assert_eq!(
            a.cmp_certain(&a),
            None,
            "{name}: [1,2] vs itself is undecided"
        );
        // 1/3 and 1/3 + 2^-200: undecided at 64 bits, decided at 256.
        let (x, y) = (q(1, 3), q(1, 3) + pow2(-200));
        for (bits, expected) in [(64, None), (256, Some(Ordering::Less))] {
            let ctx = Precision(bits);
            let (rx, ry) = (
                Interval::<E>::from_rational(&x, &ctx),
                Interval::<E>::from_rational(&y, &ctx),
            );
            assert_eq!(
                rx.cmp_certain(&ry),
                expected,
                "{name}: 1/3 vs 1/3 + 2^-200 at {bits} bits"
            );
            assert_eq!(
                ry.cmp_certain(&rx),
                expected.map(Ordering::reverse),
                "{name}: reversed at {bits} bits"
            );
        }
    }
}

#[test]
fn certified_cmp_certain() {
    on_certified_backends(&Comparisons);
}

// ---------------------------------------------------------------------------
// dashu against MPFR: both correctly rounded, so they agree exactly
// ---------------------------------------------------------------------------

/// MPFR rounds every operation correctly in the requested direction, and so
/// does dashu for conversions, `exp` and `ln`: the same operation on the same
/// floats gives the same float, so their enclosures are identical at equal
/// precision and nested (the more precise inside the less precise) otherwise.
#[cfg(feature = "mpfr")]
mod dashu_vs_mpfr {
    use super::*;

    fn both(x: &Q, bits: u32, dir: Dir) -> (DashuFloat, MpfrFloat) {
        (
            DashuFloat::from_rational(x, bits, dir),
            MpfrFloat::from_rational(x, bits, dir),
        )
    }

    #[track_caller]
    fn same(d: &DashuFloat, m: &MpfrFloat, what: &str) {
        assert_eq!(
            d.to_rational(),
            m.to_rational(),
            "dashu and MPFR differ on {what}"
        );
        assert_eq!(d.precision(), m.precision(), "precision of {what}");
    }

    /// `lo ≤ inner.lo ≤ inner.hi ≤ hi`.
    #[track_caller]
    fn nested<A: Real, B: Real>(outer: &A, inner: &B, what: &str) {
        let ((olo, ohi), (ilo, ihi)) = (enclosure(outer), enclosure(inner));
        assert!(
            olo <= ilo && ihi <= ohi,
            "{what}: [{ilo}, {ihi}] ({}) is not inside [{olo}, {ohi}] ({})",
            type_name::<B>(),
            type_name::<A>()
        );
    }

    /// MPFR's result is the exact result of the floats, correctly rounded;
    /// dashu's lies between MPFR's and the exact result. (dashu-float 0.6
    /// sometimes returns from `add`, `sub` and `fma` a float finer than its
    /// precision — a tighter, still valid bound.)
    #[track_caller]
    fn check(op: &str, dir: Dir, d: DashuFloat, m: MpfrFloat, exact: Q) {
        let bits = m.precision();
        let rounded = MpfrFloat::from_rational(&exact, bits, dir).to_rational();
        let (d, m) = (d.to_rational(), m.to_rational());
        assert_eq!(
            m, rounded,
            "MPFR {op} {dir:?} at {bits} bits is not correctly rounded: exact {exact}"
        );
        let between = match dir {
            Dir::Down => m <= d && d <= exact,
            Dir::Up => exact <= d && d <= m,
        };
        assert!(between, "dashu {op} {dir:?} at {bits} bits: {d} is not between MPFR's {m} and the exact {exact}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn endpoint_operations_are_correctly_rounded(
            a in rational(), b in rational(), c in rational(),
            pa in 2u32..=200, pb in 2u32..=200, pc in 2u32..=200, up in any::<bool>(),
        ) {
            let dir = if up { Dir::Up } else { Dir::Down };
            let (da, ma) = both(&a, pa, dir);
            let (db, mb) = both(&b, pb, dir);
            let (dc, mc) = both(&c, pc, dir);
            same(&da, &ma, "from_rational");
            same(&db, &mb, "from_rational");
            same(&dc, &mc, "from_rational");
            let (a, b, c) = (ma.to_rational(), mb.to_rational(), mc.to_rational());
            check("add", dir, da.add(&db, dir), ma.add(&mb, dir), &a + &b);
            check("sub", dir, da.sub(&db, dir), ma.sub(&mb, dir), &a - &b);
            check("mul", dir, da.mul(&db, dir), ma.mul(&mb, dir), &a * &b);
            check("mul_add", dir, dc.mul_add(&da, &db, dir), mc.mul_add(&ma, &mb, dir), &c + &a * &b);
            if !b.is_zero() {
                check("div", dir, da.div(&db, dir), ma.div(&mb, dir), &a / &b);
            }
            same(&da.neg(), &ma.neg(), "neg");
            prop_assert_eq!(da.signum(), ma.signum());
            prop_assert_eq!(da.total_cmp(&db), ma.total_cmp(&mb));
            prop_assert_eq!(ma.to_f64(), to_f64(&a), "MPFR's to_f64 is the nearest double");
        }

        #[test]
        fn endpoint_exp_ln_are_identical(
            x in rational_in(-60, 60), y in rational(), bits in 2u32..=300, up in any::<bool>(),
        ) {
            let dir = if up { Dir::Up } else { Dir::Down };
            let (dx, mx) = both(&x, bits, dir);
            same(&dx.exp(dir).expect("exp"), &mx.exp(dir).expect("exp"), "exp");
            let y = y.abs() + pow2(-100);
            let (dy, my) = both(&y, bits, dir);
            same(&dy.ln(dir).expect("ln"), &my.ln(dir).expect("ln"), "ln");
        }

        /// The dashu enclosure of exp and ln at `p` bits contains the MPFR
        /// one at `q ≥ p` bits, and the other way round.
        #[test]
        fn exp_ln_enclosures_nest(
            x in rational_in(-60, 60), y in rational(), p in 8u32..=200, extra in 0u32..=100,
        ) {
            let (p, q) = (Precision(p), Precision(p + extra));
            let y = y.abs() + pow2(-100);
            let exp_d = |bits| Certified::from_rational(&x, &bits).exp().expect("exp");
            let exp_m = |bits| Interval::<MpfrFloat>::from_rational(&x, &bits).exp().expect("exp");
            let ln_d = |bits| Certified::from_rational(&y, &bits).ln().expect("ln");
            let ln_m = |bits| Interval::<MpfrFloat>::from_rational(&y, &bits).ln().expect("ln");
            nested(&exp_d(p), &exp_m(q), "exp");
            nested(&exp_m(p), &exp_d(q), "exp");
            nested(&ln_d(p), &ln_m(q), "ln");
            nested(&ln_m(p), &ln_d(q), "ln");
            nested(&exp_d(p), &exp_m(p), "exp at equal precision");
            nested(&exp_m(p), &exp_d(p), "exp at equal precision");
        }
    }
}

// ---------------------------------------------------------------------------
// Mechanism laws on every backend
// ---------------------------------------------------------------------------

/// The noises whose laws are cross-checked; adding a noise is adding it here.
const NOISES: &[Noise] = &[Noise::Gumbel, Noise::Exponential, Noise::Laplace];

/// Whether the law is a rational function of the weights `w^{L_i − L_min}`,
/// so that a rational unit weight gives an exact law (`ARCHITECTURE.md`,
/// "Exact, then certified"). Laplace's law also involves `1/β = −ln w`: not
/// rational.
fn rational_in_the_weights(noise: Noise) -> bool {
    matches!(noise, Noise::Gumbel | Noise::Exponential)
}

/// The precision of the certified laws.
const LAW_BITS: Precision = Precision(128);

/// A law of `noise` on `losses` with `scale`, and the references every
/// backend is held to: the exact law when the exact backend can give it
/// (a rational unit weight), else `None`; and the dashu enclosure at
/// [`LAW_BITS`].
struct LawCase {
    noise: Noise,
    losses: Vec<Q>,
    scale: Scale,
    exact: Option<Vec<Q>>,
    certified: Vec<(Q, Q)>,
}

impl LawCase {
    fn new(noise: Noise, losses: Vec<Q>, scale: Scale) -> LawCase {
        let context = format!("{noise} law, losses {losses:?}, {scale:?}");
        let exact = match law::<Exact>(noise, &losses, &scale, &()) {
            Ok(p) => Some(p),
            Err(Error::NotRepresentable(_)) => None,
            Err(e) => panic!("{context}: exact backend failed: {e}"),
        };
        let certified = law::<Certified>(noise, &losses, &scale, &LAW_BITS)
            .unwrap_or_else(|e| panic!("{context}: certified backend failed: {e}"))
            .iter()
            .map(enclosure)
            .collect();
        LawCase {
            noise,
            losses,
            scale,
            exact,
            certified,
        }
    }
}

impl OnBackend for LawCase {
    fn run<R: Backend>(&self) {
        let name = type_name::<R>();
        let context = format!(
            "{name}: {} law, losses {:?}, {:?}",
            self.noise, self.losses, self.scale
        );
        let law = match (
            law::<R>(self.noise, &self.losses, &self.scale, &R::ctx(LAW_BITS)),
            &self.exact,
        ) {
            (Ok(law), _) => law,
            (Err(Error::NotRepresentable(_)), None) if R::KIND == Kind::Exact => return,
            (Err(e), _) => panic!("{context}: {e}"),
        };
        assert_eq!(
            law.len(),
            self.losses.len(),
            "{context}: one probability per action"
        );
        let total = dpdtol::num::sum(law.iter().cloned()).expect("K ≥ 2");
        // Probabilities sum to 1: exactly, within the enclosure, or within 1e-12.
        assert_is(&total, &Q::one(), 10.0, &format!("{context}: the total"));
        for (i, p) in law.iter().enumerate() {
            let what = format!("{context}: P({i})");
            let (lo, hi) = &self.certified[i];
            match (R::KIND, &self.exact) {
                (Kind::Exact, Some(exact)) => assert_is(p, &exact[i], 0.0, &what),
                (Kind::Exact, None) => panic!("{what}: an exact law where Exact refused one"),
                (Kind::Certified, exact) => {
                    if let Some(exact) = exact {
                        assert_is(p, &exact[i], 0.0, &what);
                    }
                    // Both contain the same real: dashu's and this one meet.
                    assert_meets(p, lo, hi, 0.0, &format!("{what} (dashu's enclosure)"));
                    assert_narrow(p, 100, &what);
                }
                (Kind::Approximate, exact) => {
                    let reference = match exact {
                        Some(exact) => to_f64(&exact[i]),
                        None => to_f64(&((lo + hi) / qi(2))),
                    };
                    let error = (p.to_f64() - reference).abs();
                    assert!(
                        error <= 1e-12,
                        "{what}: {p:?} vs {reference} (error {error:e})"
                    );
                }
            }
        }
    }
}

/// A unit weight `w` and a loss grid `1/d` with `w^{1/d}` rational, so the
/// exact law exists: integer losses with any `w`, halves with squares.
fn unit_weight_case() -> impl Strategy<Value = (Vec<Q>, Scale)> {
    let integer = (
        prop::sample::select(vec![q(1, 2), q(1, 3), q(2, 3), q(3, 4), q(1, 5)]),
        Just(1i64),
    );
    let halves = (
        prop::sample::select(vec![q(1, 4), q(4, 9), q(9, 16)]),
        Just(2i64),
    );
    (
        prop_oneof![integer, halves],
        prop::collection::vec(0i64..=8, 2..=6),
    )
        .prop_map(|((w, d), numerators)| {
            let losses = numerators.into_iter().map(|n| q(n, d)).collect();
            (losses, Scale::unit_weight(w).expect("0 < w < 1"))
        })
}

/// A scale β given directly (e^{−1/β} is transcendental) and losses on a
/// grid of quarters in [0, 2].
fn beta_case() -> impl Strategy<Value = (Vec<Q>, Scale)> {
    let betas = vec![q(1, 2), qi(1), q(4, 3), qi(2), q(5, 2), qi(10)];
    (
        prop::sample::select(betas),
        prop::collection::vec(0i64..=8, 2..=6),
    )
        .prop_map(|(beta, numerators)| {
            let losses = numerators.into_iter().map(|n| q(n, 4)).collect();
            (losses, Scale::beta(beta).expect("β > 0"))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A rational unit weight: exact laws (where the law is rational in the
    /// weights) agree across the exact backends and sum to exactly 1, the
    /// certified enclosures contain them, and f64 is within 1e-12; other
    /// noises are checked as with a scale.
    #[test]
    fn mechanism_laws_agree_with_a_rational_unit_weight((losses, scale) in unit_weight_case()) {
        for &noise in NOISES {
            let case = LawCase::new(noise, losses.clone(), scale.clone());
            if rational_in_the_weights(noise) {
                prop_assert!(case.exact.is_some(), "{noise}: no exact law for {losses:?}, {scale:?}");
            }
            on_all_backends(&case);
        }
    }

    /// Transcendental weights (a scale β): exact backends refuse unless all
    /// losses are equal; certified enclosures meet and are narrow; f64 is
    /// within 1e-12.
    #[test]
    fn mechanism_laws_agree_with_a_scale((losses, scale) in beta_case()) {
        for &noise in NOISES {
            on_all_backends(&LawCase::new(noise, losses.clone(), scale.clone()));
        }
    }
}

/// One exact law worked by hand, as an anchor for the generic checks:
/// Gumbel noise with unit weight 1/2 on losses (0, 1, 3) has weights
/// (1, 1/2, 1/8), total 13/8, so P = (8/13, 4/13, 1/13). Permute-and-flip
/// with p = (1, 1/2, 1/8): P(r) = p_r ∫₀¹ ∏_{s≠r} (1 − p_s x) dx gives
/// P(2) = 1/8 · ∫(1 − x)(1 − x/2) = 1/8 · 5/12 = 5/96,
/// P(1) = 1/2 · ∫(1 − x)(1 − x/8) = 1/2 · 23/48 = 23/96, P(0) = 68/96.
#[test]
fn mechanism_law_anchor() {
    let scale = Scale::unit_weight(q(1, 2)).expect("valid");
    let losses = vec![qi(0), qi(1), qi(3)];
    let gumbel = law::<Exact>(Noise::Gumbel, &losses, &scale, &()).expect("exact");
    assert_eq!(gumbel, vec![q(8, 13), q(4, 13), q(1, 13)]);
    let pf = law::<Exact>(Noise::Exponential, &losses, &scale, &()).expect("exact");
    assert_eq!(pf, vec![q(68, 96), q(23, 96), q(5, 96)]);
    for noise in [Noise::Gumbel, Noise::Exponential] {
        on_all_backends(&LawCase::new(noise, losses.clone(), scale.clone()));
    }
}

/// The product of two intervals (of every sign class: non-negative,
/// non-positive, straddling zero, points) contains the four exact corner
/// products, and is the interval they span rounded outward: no wider than
/// one ulp-scale rounding on each end.
struct IntervalProduct {
    a: (Q, Q),
    b: (Q, Q),
}

impl OnEndpoint for IntervalProduct {
    fn run<E: Endpoint>(&self) {
        let bits = Precision(200);
        let x = Interval::<E>::from_bounds(&self.a.0, &self.a.1, bits).unwrap();
        let y = Interval::<E>::from_bounds(&self.b.0, &self.b.1, bits).unwrap();
        let (lo, hi) = (x * &y).enclosure().unwrap();
        let corners = [
            &self.a.0 * &self.b.0,
            &self.a.0 * &self.b.1,
            &self.a.1 * &self.b.0,
            &self.a.1 * &self.b.1,
        ];
        let min = corners.iter().min().unwrap();
        let max = corners.iter().max().unwrap();
        assert!(
            &lo <= min && max <= &hi,
            "[{lo}, {hi}] misses [{min}, {max}]"
        );
        let slack = Q::new(1.into(), BigInt::from(1u8) << 150u32);
        assert!(
            min - &lo <= slack && &hi - max <= slack,
            "[{lo}, {hi}] is wider than [{min}, {max}]"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn interval_products_span_their_corners(
        a in (rational_in(-4, 4), rational_in(-4, 4)),
        b in (rational_in(-4, 4), rational_in(-4, 4)),
    ) {
        let order = |(x, y): (Q, Q)| if x <= y { (x, y) } else { (y, x) };
        on_certified_backends(&IntervalProduct { a: order(a), b: order(b) });
    }
}
