//! The Laplace measure of a polyhedron (src/measure/polyhedral.rs) against
//! probabilities derived by hand (exact rationals), a closed-form tail, the
//! additivity of a measure over generated instances, and a second backend.

use dpdtol::measure::polyhedral::{laplace_measure, Inequality, LaplaceFactor};
use dpdtol::num::{Certified, Exact, Precision, Real, Q};
use proptest::prelude::*;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

fn qs(v: &[i64]) -> Vec<Q> {
    v.iter().map(|&n| q(n, 1)).collect()
}

/// Independent noises `x_i ~ Lap(scale_i)`.
fn noises(scales: &[Q]) -> Vec<LaplaceFactor> {
    (0..scales.len())
        .map(|i| LaplaceFactor {
            form: (0..scales.len()).map(|j| q(i64::from(i == j), 1)).collect(),
            scale: scales[i].clone(),
        })
        .collect()
}

/// `coefficients·x + c ≥ 0` with a rational `c`, no atoms.
fn ineq(x: &[i64], c: Q) -> Inequality {
    Inequality::rational(qs(x), c, 0)
}

fn exact(vars: usize, factors: &[LaplaceFactor], ineqs: &[Inequality]) -> Q {
    laplace_measure::<Exact>(vars, factors, ineqs, &[], &()).unwrap()
}

const BITS: Precision = Precision(128);

#[test]
fn orderings_and_quadrants_are_the_rationals_derived_by_hand() {
    let one = [q(1, 1), q(1, 1), q(1, 1)];
    // No constraint: the density's mass.
    assert_eq!(exact(3, &noises(&one), &[]), q(1, 1));
    // Three i.i.d. noises: each of the 3! orders has probability 1/6.
    let order = [ineq(&[1, -1, 0], q(0, 1)), ineq(&[0, 1, -1], q(0, 1))];
    assert_eq!(exact(3, &noises(&one), &order), q(1, 6));
    // 0 ≤ x_1 ≤ x_2, both Lap(1): ∫_0^∞ ½e^{−z}·½e^{−z} dz = 1/8.
    let two = [ineq(&[1, 0], q(0, 1)), ineq(&[-1, 1], q(0, 1))];
    assert_eq!(exact(2, &noises(&one[..2]), &two), q(1, 8));
    // The same with x_2 ~ Lap(2): ∫_0^∞ ½e^{−z}·½e^{−z/2} dz = 1/6.
    assert_eq!(exact(2, &noises(&[q(1, 1), q(2, 1)]), &two), q(1, 6));
    // A running sum w_1 = z_1, w_2 = w_1 + z_2 (factors on z_1 and w_2 − w_1):
    // P(w_1 ≥ 0, w_2 ≥ 0) = ∫_0^∞ ½e^{−z}(1 − ½e^{−z}) dz = 1/2 − 1/8 = 3/8.
    let running = [
        LaplaceFactor {
            form: qs(&[1, 0]),
            scale: q(1, 1),
        },
        LaplaceFactor {
            form: qs(&[-1, 1]),
            scale: q(1, 1),
        },
    ];
    let both = [ineq(&[1, 0], q(0, 1)), ineq(&[0, 1], q(0, 1))];
    assert_eq!(exact(2, &running, &both), q(3, 8));
    // Contradictory: x_1 ≥ 1 and x_1 ≤ 1/2.
    let empty = [ineq(&[1], q(-1, 1)), ineq(&[-1], q(1, 2))];
    assert_eq!(exact(1, &noises(&one[..1]), &empty), q(0, 1));
}

/// An inequality without variables is a constant: `0·x + c ≥ 0` is the whole
/// space when `c ≥ 0` (the measure is unchanged) and empty when `c < 0`. So
/// the degenerate "cut" `0 ≥ 0` is both of its sides, and a generator of cuts
/// must exclude it (see `nonzero_form`).
#[test]
fn an_inequality_without_variables_is_all_or_nothing() {
    let f = noises(&[q(1, 1), q(2, 1)]);
    // P(x_1 ≥ x_2) = 1/2 for independent symmetric noises.
    let base = [ineq(&[1, -1], q(0, 1))];
    assert_eq!(exact(2, &f, &base), q(1, 2));
    for (c, expected) in [(q(0, 1), q(1, 2)), (q(3, 2), q(1, 2)), (q(-1, 2), q(0, 1))] {
        let mut set = base.to_vec();
        set.push(ineq(&[0, 0], c.clone()));
        assert_eq!(exact(2, &f, &set), expected, "0 + {c} ≥ 0");
    }
}

/// `P(Z_1 − Z_2 ≥ u)` for i.i.d. `Lap(b)` and `u ≥ 0`: `½e^{−u/b}(1 + u/(2b))`
/// (the density of the difference is `e^{−|s|/b}(1 + |s|/b)/(4b)`).
fn difference_tail<R: Real>(b: &Q, u: R) -> R {
    let ctx = u.context();
    let x = u / R::from_rational(b, &ctx);
    let half = R::from_rational(&q(1, 2), &ctx);
    half.clone() * (-x.clone()).exp().unwrap() * (R::from_int(1, &ctx) + half * x)
}

#[test]
fn a_difference_beyond_an_irrational_threshold_is_the_closed_form_tail() {
    // The threshold u = √2 is an atom: x_1 − x_2 − √2 ≥ 0. The scales put
    // e^{−√2/b} in the integration as e^{(−1/b)·√2}: a power of a root
    // e^{−√2/d} for b = 3/2 (numerator 2) and b = 7/1000 (numerator 1000,
    // near the largest power), a series for b = 7/3000 (numerator 3000).
    let root2 = Certified::from_int(2, &BITS).ln().unwrap();
    let root2 = (Certified::from_rational(&q(1, 2), &BITS) * root2)
        .exp()
        .unwrap();
    let event = Inequality {
        x: qs(&[1, -1]),
        constant: vec![q(0, 1), q(-1, 1)],
    };
    for b in [q(3, 2), q(7, 1000), q(7, 3000)] {
        let p = laplace_measure::<Certified>(
            2,
            &noises(&[b.clone(), b.clone()]),
            std::slice::from_ref(&event),
            std::slice::from_ref(&root2),
            &BITS,
        )
        .unwrap();
        let expected = difference_tail(&b, root2.clone());
        let (lo, hi) = p.enclosure().unwrap();
        let (elo, ehi) = expected.enclosure().unwrap();
        assert!(
            lo <= ehi && elo <= hi,
            "b = {b}: [{lo}, {hi}] against [{elo}, {ehi}]"
        );
        assert!(
            &hi - &lo < &hi * q(1, 1 << 40),
            "b = {b}: a wide enclosure [{lo}, {hi}]"
        );
    }
}

/// A small instance: `n` noises (running sums when `chain`), scales in
/// {1/2, 1, 2}, inequalities with coefficients in −2..=2 and constants in
/// −3/2..=3/2, and a cut `h`. The cut's coefficients are not all zero: only
/// then is `{h = 0}` a hyperplane (of measure zero), so that `h ≥ 0` and
/// `h ≤ 0` split the space. A zero form with a zero constant makes both
/// sides the whole space, and the additivity below would be false.
fn instance() -> impl Strategy<Value = (usize, bool, Vec<Q>, Vec<Inequality>, Inequality)> {
    (2usize..=3, any::<bool>()).prop_flat_map(|(n, chain)| {
        let scale = prop::sample::select(vec![q(1, 2), q(1, 1), q(2, 1)]);
        let row =
            (prop::collection::vec(-2i64..=2, n), -3i64..=3).prop_map(|(x, c)| ineq(&x, q(c, 2)));
        let cut = (nonzero_form(n), -3i64..=3).prop_map(|(x, c)| ineq(&x, q(c, 2)));
        (
            Just(n),
            Just(chain),
            prop::collection::vec(scale, n),
            prop::collection::vec(row, 0..=3),
            cut,
        )
    })
}

/// Coefficient vectors in −2..=2 of length `n` with at least one non-zero
/// entry: a non-zero entry at a chosen position, the others free (no
/// rejection sampling, so no case is ever discarded).
fn nonzero_form(n: usize) -> impl Strategy<Value = Vec<i64>> {
    let nonzero = prop::sample::select(vec![-2i64, -1, 1, 2]);
    (prop::collection::vec(-2i64..=2, n), 0..n, nonzero).prop_map(|(mut x, at, v)| {
        x[at] = v;
        x
    })
}

fn factors(n: usize, chain: bool, scales: &[Q]) -> Vec<LaplaceFactor> {
    let mut f = noises(scales);
    if chain {
        for (i, factor) in f.iter_mut().enumerate().skip(1) {
            factor.form[i - 1] = q(-1, 1);
        }
    }
    debug_assert_eq!(f.len(), n);
    f
}

fn overlap(a: &Certified, b: &Certified) -> bool {
    overlap_any(a, b)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A measure is additive: `P(S) = P(S, h ≥ 0) + P(S, h ≤ 0)` (the
    /// hyperplane has measure zero), and `P(S) ≤ 1`; certified.
    #[test]
    fn the_measure_is_additive_over_a_cut((n, chain, scales, set, h) in instance()) {
        let f = factors(n, chain, &scales);
        let p = |extra: Option<Inequality>| {
            let mut all = set.clone();
            all.extend(extra);
            laplace_measure::<Certified>(n, &f, &all, &[], &BITS).unwrap()
        };
        let whole = p(None);
        let split = p(Some(h.clone())) + p(Some(h.negated()));
        prop_assert!(overlap(&whole, &split), "{whole:?} against {split:?}");
        let (lo, _) = whole.enclosure().unwrap();
        prop_assert!(lo <= q(1, 1));
    }

    /// f64 agrees with dashu (to 1e-9), and so does the exact backend when
    /// every constant is zero (then every coefficient is rational).
    #[test]
    fn backends_agree((n, chain, scales, set, _h) in instance()) {
        let f = factors(n, chain, &scales);
        let dashu = laplace_measure::<Certified>(n, &f, &set, &[], &BITS).unwrap();
        let float = laplace_measure::<f64>(n, &f, &set, &[], &()).unwrap();
        prop_assert!((dashu.to_f64() - float).abs() < 1e-9);
        let homogeneous: Vec<Inequality> = set
            .iter()
            .map(|i| Inequality { constant: vec![q(0, 1)], ..i.clone() })
            .collect();
        let exact = exact(n, &f, &homogeneous);
        let dashu = laplace_measure::<Certified>(n, &f, &homogeneous, &[], &BITS).unwrap();
        let (lo, hi) = dashu.enclosure().unwrap();
        prop_assert!(lo <= exact && exact <= hi, "{exact} outside [{lo}, {hi}]");
    }
}

#[cfg(feature = "mpfr")]
#[test]
fn mpfr_agrees_with_dashu() {
    use dpdtol::num::{Interval, MpfrFloat};
    // Two running sums against a third noise, with rational thresholds.
    let f = factors(3, true, &[q(1, 2), q(1, 1), q(2, 1)]);
    let set = [
        ineq(&[1, -2, 1], q(1, 2)),
        ineq(&[0, 1, -1], q(-1, 1)),
        ineq(&[2, 0, -1], q(3, 2)),
    ];
    let a = laplace_measure::<Certified>(3, &f, &set, &[], &BITS).unwrap();
    let b = laplace_measure::<Interval<MpfrFloat>>(3, &f, &set, &[], &BITS).unwrap();
    assert!(overlap_any(&a, &b), "{a:?} against {b:?}");
}

fn overlap_any<A: Real, B: Real>(a: &A, b: &B) -> bool {
    let ((alo, ahi), (blo, bhi)) = (a.enclosure().unwrap(), b.enclosure().unwrap());
    alo <= bhi && blo <= ahi
}
