//! The exact law of report-noisy-max with Laplace noise
//! (`dpdtol::mechanism::laplace`), checked against a hand-derived closed form
//! (K = 2), high-precision quadrature by an independent program (K = 3, 4, 5),
//! symmetry, and the properties every law must have.

use dpdtol::mechanism::{self, laplace, Noise, Scale};
use dpdtol::num::{
    format_sig, parse_rational, relative_width, Certified, Exact, Precision, Real, Q,
};
use dpdtol::Error;
use proptest::prelude::*;
use std::cmp::Ordering;

const BITS: Precision = Precision(256);

fn q(text: &str) -> Q {
    parse_rational(text).unwrap()
}

fn qs(texts: &[&str]) -> Vec<Q> {
    texts.iter().map(|t| q(t)).collect()
}

fn beta(text: &str) -> Scale {
    Scale::beta(q(text)).unwrap()
}

fn unit_weight(text: &str) -> Scale {
    Scale::unit_weight(q(text)).unwrap()
}

fn certified(losses: &[Q], scale: &Scale, bits: Precision) -> Vec<Certified> {
    laplace::law::<Certified>(losses, scale, &bits).unwrap()
}

fn bounds(x: &Certified) -> (Q, Q) {
    x.enclosure().unwrap()
}

/// `x`'s enclosure, printed for failure messages.
fn show(x: &Certified) -> String {
    let (lo, hi) = bounds(x);
    format!("[{}, {}]", format_sig(&lo, 40), format_sig(&hi, 40))
}

/// The relative width of `x`'s enclosure is below `1e-30`.
fn narrow(x: &Certified) -> bool {
    let (lo, hi) = bounds(x);
    relative_width(&lo, &hi).is_some_and(|w| w < q("1e-30"))
}

/// The two enclosures intersect and both are narrow: at least 30 significant
/// digits agree.
fn agree(a: &Certified, b: &Certified) -> bool {
    let ((alo, ahi), (blo, bhi)) = (bounds(a), bounds(b));
    alo <= bhi && blo <= ahi && narrow(a) && narrow(b)
}

fn contains(x: &Certified, value: &Q) -> bool {
    let (lo, hi) = bounds(x);
    &lo <= value && value <= &hi
}

fn total(law: &[Certified]) -> Certified {
    law.iter().cloned().reduce(|a, b| a + b).unwrap()
}

// ---------------------------------------------------------------------------
// 1. K = 2, by hand.
//
// Action 2 (loss L_1 + d, d ≥ 0) is selected iff −L_2 + Z_2 > −L_1 + Z_1, i.e.
// D = Z_2 − Z_1 > d. The difference of two independent Lap(β) has density
// (convolution of e^{−|z|/β}/(2β) with itself)
//     g(z) = (1/(4β)) (1 + |z|/β) e^{−|z|/β},
// so with u = z/β and ℓ = d/β, using ∫ (1 + u) e^{−u} du = −(2 + u) e^{−u},
//     P(2) = ∫_d^∞ g(z) dz = ¼ ∫_ℓ^∞ (1 + u) e^{−u} du = ¼ (2 + ℓ) e^{−ℓ},
// which is exactly 1/2 at d = 0. For a unit weight w = e^{−1/β}: ℓ = −d ln w.
// The reference is evaluated with the certified backend's own exp and ln.
// ---------------------------------------------------------------------------

fn k2_reference(d: &Q, scale: &Scale) -> Certified {
    let c = |x: &Q| Certified::from_rational(x, &BITS);
    let ell = match scale {
        Scale::Beta(b) => c(&(d / b)),
        Scale::UnitWeight(w) => -(c(d) * c(w).ln().unwrap()),
    };
    let e = (-ell.clone()).exp().unwrap();
    c(&q("1/4")) * (c(&q("2")) + ell) * e
}

#[test]
fn two_actions_match_the_hand_derived_closed_form() {
    let cases: [(&str, &str, Scale); 9] = [
        ("0", "0", beta("1")),
        ("2/3", "0", unit_weight("1/3")),
        ("0", "1", beta("1")),
        ("0", "1/4", beta("1/2")),
        ("5/7", "1/3", beta("7")),
        ("1", "3", beta("1/10")),
        ("0", "1", unit_weight("1/2")),
        ("-2", "5/4", unit_weight("3/4")),
        ("1/2", "1/1000", beta("2")),
    ];
    for (base, d, scale) in cases {
        let (base, d) = (q(base), q(d));
        let reference = k2_reference(&d, &scale);
        let one = Certified::from_int(1, &BITS);
        // Both orders of the two actions.
        for swap in [false, true] {
            let mut losses = vec![base.clone(), &base + &d];
            if swap {
                losses.reverse();
            }
            let law = certified(&losses, &scale, BITS);
            let (better, worse) = if swap {
                (&law[1], &law[0])
            } else {
                (&law[0], &law[1])
            };
            assert!(
                agree(worse, &reference),
                "d = {d}, {scale:?}: law {} vs closed form {}",
                show(worse),
                show(&reference)
            );
            assert!(
                agree(better, &(one.clone() - reference.clone())),
                "d = {d}, {scale:?}"
            );
            if d == Q::from_integer(0.into()) {
                assert!(contains(worse, &q("1/2")) && contains(better, &q("1/2")));
            }
        }
    }
}

#[test]
fn unit_weight_one_half_is_two_plus_ln2_over_eight() {
    // w = 1/2, d = 1: e^{−ℓ} = 1/2, ℓ = ln 2, so P(2) = (2 + ln 2)/8
    // = 0.33664398...; ln 2 = 0.69314718055994530941723212145817656807550013436.
    let law = certified(&qs(&["0", "1"]), &unit_weight("1/2"), BITS);
    let ln2 = q("0.69314718055994530941723212145817656807550013436");
    let value = (q("2") + ln2) / q("8");
    let (lo, hi) = bounds(&law[1]);
    let tolerance = q("1e-45");
    assert!(
        lo <= &value + &tolerance && &value - &tolerance <= hi,
        "{}",
        show(&law[1])
    );
}

// ---------------------------------------------------------------------------
// 2. Symmetry.
// ---------------------------------------------------------------------------

#[test]
fn equal_losses_give_the_uniform_law() {
    for k in 2..=7i64 {
        let losses = vec![q("3/8"); k as usize];
        let uniform = Q::new(1.into(), k.into());
        for scale in [beta("1/3"), unit_weight("2/5")] {
            for p in certified(&losses, &scale, BITS) {
                assert!(
                    contains(&p, &uniform) && narrow(&p),
                    "K = {k}: {}",
                    show(&p)
                );
            }
            // No length term occurs, so even the exact backend answers, exactly.
            let exact = laplace::law::<Exact>(&losses, &scale, &()).unwrap();
            assert_eq!(exact, vec![uniform.clone(); k as usize]);
        }
    }
}

#[test]
fn permuting_the_losses_permutes_the_law() {
    let losses = qs(&["0", "1/4", "1/2", "1", "3/4", "1/4"]);
    let perm = [4usize, 2, 5, 0, 3, 1];
    let permuted: Vec<Q> = perm.iter().map(|&i| losses[i].clone()).collect();
    for scale in [beta("1/2"), unit_weight("1/5")] {
        let law = certified(&losses, &scale, BITS);
        let law_p = certified(&permuted, &scale, BITS);
        for (slot, &i) in perm.iter().enumerate() {
            assert!(
                agree(&law_p[slot], &law[i]),
                "slot {slot}: {} vs {}",
                show(&law_p[slot]),
                show(&law[i])
            );
        }
        // The two tied actions (losses 1/4) get the same probability.
        assert!(agree(&law[1], &law[5]));
    }
}

// ---------------------------------------------------------------------------
// 3. K = 3, 4, 5 against numerical quadrature by an independent program.
//
// The digits below were printed by this script (mpmath 1.3.0, 60 digits of
// working precision, tanh-sinh quadrature split at the breakpoints; the same
// 40 digits come out at 90 digits of working precision):
//
// from mpmath import mp, mpf, exp, log, quad, inf, nstr
// mp.dps = 60
//
// def law(losses, beta):
//     u = [-mpf(l) for l in losses]
//     f = lambda z: exp(-abs(z) / beta) / (2 * beta)
//     F = lambda z: exp(z / beta) / 2 if z < 0 else 1 - exp(-z / beta) / 2
//     pts = [-inf] + sorted(set(u)) + [inf]
//     out = []
//     for r in range(len(u)):
//         g = lambda y: f(y - u[r]) * mp.fprod(F(y - u[s]) for s in range(len(u)) if s != r)
//         out.append(quad(g, pts, maxdegree=12))
//     return out
//
// for name, losses, beta in [
//     ("K3", [0, mpf(1)/4, 1], mpf(1)/2),
//     ("K4tie", [mpf(1)/2, 0, mpf(1)/2, mpf(5)/4], 1 / log(2)),   # unit weight w = 1/2
//     ("K5", [mpf(3)/4, mpf(1)/2, 0, mpf(1)/4, mpf(1)/2], mpf(1)/4),
// ]:
//     p = law(losses, beta)
//     print(name, "sum-1 =", nstr(sum(p) - 1, 5))
//     for x in p:
//         print("  ", nstr(x, 40, strip_zeros=False))
//
// Output:
// K3 sum-1 = -7.7788e-62
//    0.5815023246277226418741557895302786253051
//    0.3499262740965017707750962925776491680872
//    0.06857140127577558735074791789207220660775
// K4tie sum-1 = 0.0
//    0.2478497994822500353211328401827003939125
//    0.3676797400190873059874084660364393466253
//    0.2478497994822500353211328401827003939125
//    0.1366206610164126233703258535981598655497
// K5 sum-1 = 0.0
//    0.02508741780380830777733561149668058746131
//    0.07187633915807320885595202075244627006976
//    0.6137425686423277065194104158464113006300
//    0.2174173352377175679913499311520155717692
//    0.07187633915807320885595202075244627006976
// ---------------------------------------------------------------------------

/// Every entry's enclosure is narrow and lies within `1e-40` (the rounding of
/// 40 printed digits of a value below 1) of the reference.
fn assert_matches_reference(name: &str, law: &[Certified], reference: &[&str]) {
    assert_eq!(law.len(), reference.len());
    let tolerance = q("1e-40");
    for (r, (p, digits)) in law.iter().zip(reference).enumerate() {
        let value = q(digits);
        let (lo, hi) = bounds(p);
        assert!(
            lo <= &value + &tolerance && &value - &tolerance <= hi && narrow(p),
            "{name}, action {}: law {} vs quadrature {digits}",
            r + 1,
            show(p)
        );
    }
}

#[test]
fn three_actions_match_quadrature() {
    let law = certified(&qs(&["0", "1/4", "1"]), &beta("1/2"), BITS);
    assert_matches_reference(
        "K3",
        &law,
        &[
            "0.5815023246277226418741557895302786253051",
            "0.3499262740965017707750962925776491680872",
            "0.06857140127577558735074791789207220660775",
        ],
    );
}

#[test]
fn four_actions_with_a_tie_match_quadrature() {
    // β = 1/ln 2, given as the unit weight 1/2; shifted losses give the same law.
    let reference = [
        "0.2478497994822500353211328401827003939125",
        "0.3676797400190873059874084660364393466253",
        "0.2478497994822500353211328401827003939125",
        "0.1366206610164126233703258535981598655497",
    ];
    for losses in [["1/2", "0", "1/2", "5/4"], ["7/2", "3", "7/2", "17/4"]] {
        let law = certified(&qs(&losses), &unit_weight("1/2"), BITS);
        assert_matches_reference("K4tie", &law, &reference);
    }
}

#[test]
fn five_actions_with_a_tie_and_equal_gaps_match_quadrature() {
    let law = certified(&qs(&["3/4", "1/2", "0", "1/4", "1/2"]), &beta("1/4"), BITS);
    assert_matches_reference(
        "K5",
        &law,
        &[
            "0.02508741780380830777733561149668058746131",
            "0.07187633915807320885595202075244627006976",
            "0.6137425686423277065194104158464113006300",
            "0.2174173352377175679913499311520155717692",
            "0.07187633915807320885595202075244627006976",
        ],
    );
}

// ---------------------------------------------------------------------------
// 4. Sum, backends, dispatcher.
// ---------------------------------------------------------------------------

fn instances() -> Vec<(Vec<Q>, Scale)> {
    vec![
        (qs(&["0", "1"]), beta("1")),
        (qs(&["0", "1/4", "1"]), beta("1/2")),
        (qs(&["1/2", "0", "1/2", "5/4"]), unit_weight("1/2")),
        (
            qs(&["3/4", "1/2", "0", "1/4", "1/2", "1/2", "2"]),
            beta("1/4"),
        ),
        (
            qs(&["0.1", "0.35", "0.2", "0.9", "0.65", "0.4", "0.15", "0.8"]),
            beta("3/10"),
        ),
        (
            qs(&["0", "0", "0", "1", "1", "2", "2", "2"]),
            unit_weight("9/10"),
        ),
        (qs(&["5", "0", "1/3"]), beta("1/20")),
    ]
}

#[test]
fn the_law_sums_to_one() {
    let one = q("1");
    for (losses, scale) in instances() {
        let law = certified(&losses, &scale, BITS);
        let sum = total(&law);
        let (lo, hi) = bounds(&sum);
        assert!(contains(&sum, &one), "{losses:?}: sum {}", show(&sum));
        assert!(&hi - &lo < q("1e-30"), "{losses:?}: sum {}", show(&sum));
    }
}

#[test]
fn extreme_gaps_neither_overflow_nor_underflow() {
    // Gaps up to 10⁵ scale units: weights down to e^{−100000}, far below f64.
    let losses = qs(&["0", "1000", "1/100", "1000", "500"]);
    let law = certified(&losses, &beta("1/100"), BITS);
    let sum = total(&law);
    assert!(
        contains(&sum, &q("1")) && narrow(&sum),
        "sum {}",
        show(&sum)
    );
    for p in &law {
        let (lo, _) = bounds(p);
        assert!(lo > q("0") && narrow(p), "{}", show(p));
    }
    // Actions 1 and 3 alone (ℓ = 1) give P(3) = ¼(2 + 1)e^{−1} by the K = 2
    // closed form; the far actions change it by less than e^{−49000}.
    let fast: Vec<f64> = laplace::law(&losses, &beta("1/100"), &()).unwrap();
    assert!((fast[2] - 0.75 * (-1.0f64).exp()).abs() < 1e-12, "{fast:?}");
    assert_eq!(fast[1], 0.0);
}

#[test]
fn twenty_actions_sum_to_one_with_narrow_entries() {
    // Losses on the grid of denominator 8 in [0, 2], with ties.
    let losses: Vec<Q> = (0..20i64)
        .map(|i| Q::new(((i * 7) % 17).into(), 8.into()))
        .collect();
    let law = certified(&losses, &beta("1/2"), BITS);
    let sum = total(&law);
    assert!(contains(&sum, &q("1")), "sum {}", show(&sum));
    assert!(law.iter().all(narrow), "entries not narrow");
}

#[test]
fn f64_agrees_with_certified() {
    for (losses, scale) in instances() {
        let law = certified(&losses, &scale, BITS);
        let fast: Vec<f64> = laplace::law(&losses, &scale, &()).unwrap();
        for (p, f) in law.iter().zip(&fast) {
            assert!(
                (p.to_f64() - f).abs() < 1e-12,
                "{losses:?}: f64 {f} vs certified {}",
                show(p)
            );
        }
    }
}

#[test]
fn exact_backend_is_refused_with_a_clear_message() {
    for scale in [beta("1/2"), unit_weight("1/2")] {
        match laplace::law::<Exact>(&qs(&["0", "1"]), &scale, &()) {
            Err(Error::NotRepresentable(why)) => {
                // Why, in the user's terms: what is not rational.
                assert!(
                    why.contains("Laplace") && why.contains("is transcendental (not rational)"),
                    "{why}"
                )
            }
            other => panic!("expected NotRepresentable for {scale:?}, got {other:?}"),
        }
    }
}

#[test]
fn fewer_than_two_actions_are_rejected() {
    assert!(matches!(
        laplace::law::<f64>(&qs(&["0"]), &beta("1"), &()),
        Err(Error::InvalidInput(_))
    ));
}

#[test]
fn the_dispatcher_gives_the_same_law() {
    let losses = qs(&["0", "1/4", "1"]);
    let scale = beta("1/2");
    let direct = certified(&losses, &scale, BITS);
    let via: Vec<Certified> = mechanism::law(Noise::Laplace, &losses, &scale, &BITS).unwrap();
    for (a, b) in direct.iter().zip(&via) {
        assert!(agree(a, b));
    }
}

#[test]
fn more_bits_give_nested_narrower_enclosures() {
    let losses = qs(&["0", "1/4", "1/4", "3/4", "1"]);
    let scale = beta("1/3");
    let coarse = certified(&losses, &scale, Precision(96));
    let fine = certified(&losses, &scale, BITS);
    for (c, f) in coarse.iter().zip(&fine) {
        let ((clo, chi), (flo, fhi)) = (bounds(c), bounds(f));
        assert!(clo <= fhi && flo <= chi, "{} vs {}", show(c), show(f));
        assert!(fhi - flo < chi - clo);
    }
}

// ---------------------------------------------------------------------------
// 5. Properties on generated instances.
// ---------------------------------------------------------------------------

fn instance() -> impl Strategy<Value = (Vec<i64>, usize, i64)> {
    (prop::collection::vec(0i64..=12, 2..6), 0usize..4, -8i64..=8)
}

const BETAS: [&str; 4] = ["1/4", "1/2", "1", "3"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Losses n/4 in [0, 3], β in a small grid, a shift c/3.
    #[test]
    fn law_properties((numerators, b, shift) in instance()) {
        let bits = Precision(128);
        let losses: Vec<Q> = numerators.iter().map(|&n| Q::new(n.into(), 4.into())).collect();
        let scale = beta(BETAS[b]);
        let law = certified(&losses, &scale, bits);

        // Sums to one.
        let sum = total(&law);
        prop_assert!(contains(&sum, &q("1")), "{:?}: sum {}", losses, show(&sum));

        // Entries in [0, 1], positive.
        for p in &law {
            let (lo, hi) = bounds(p);
            prop_assert!(lo > q("0") && hi <= q("1"), "{:?}: entry {}", losses, show(p));
        }

        // A smaller loss gets a (certainly) larger probability; ties agree.
        for i in 0..losses.len() {
            for j in 0..losses.len() {
                let expected = losses[j].cmp(&losses[i]);
                let got = law[i].cmp_certain(&law[j]);
                match expected {
                    Ordering::Equal => prop_assert!(got != Some(Ordering::Less) && got != Some(Ordering::Greater)),
                    _ => prop_assert_eq!(got, Some(expected), "{:?}: actions {} and {}", losses, i, j),
                }
            }
        }

        // Invariant to adding a constant to every loss.
        let c = Q::new(shift.into(), 3.into());
        let shifted: Vec<Q> = losses.iter().map(|l| l + &c).collect();
        let law_shifted = certified(&shifted, &scale, bits);
        for (a, s) in law.iter().zip(&law_shifted) {
            let ((alo, ahi), (slo, shi)) = (bounds(a), bounds(s));
            prop_assert!(alo <= shi && slo <= ahi);
        }
    }
}

fn larger_instance() -> impl Strategy<Value = (Vec<i64>, usize)> {
    (prop::collection::vec(0i64..=40, 2..24), 0usize..4)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The `O(K²)` transposed recurrence of [`laplace::law`] against the
    /// earlier `O(K³)` evaluation by quotients ([`laplace::law_reference`]),
    /// an independent computation of every left share: the certified
    /// enclosures meet and both are narrow; f64 agrees to 1e-9 relative.
    /// Losses n/8 with many ties (up to 23 actions on 41 values).
    #[test]
    fn transposed_recurrence_agrees_with_the_quotients((numerators, b) in larger_instance()) {
        let bits = Precision(192);
        let losses: Vec<Q> = numerators.iter().map(|&n| Q::new(n.into(), 8.into())).collect();
        let scale = beta(BETAS[b]);
        let fast = certified(&losses, &scale, bits);
        let reference = laplace::law_reference::<Certified>(&losses, &scale, &bits).unwrap();
        for (a, r) in fast.iter().zip(&reference) {
            prop_assert!(narrow(a) && narrow(r), "{:?}: {} vs {}", losses, show(a), show(r));
            prop_assert!(agree(a, r), "{:?}: {} vs {}", losses, show(a), show(r));
        }
        let fast: Vec<f64> = laplace::law(&losses, &scale, &()).unwrap();
        let reference: Vec<f64> = laplace::law_reference(&losses, &scale, &()).unwrap();
        for (a, r) in fast.iter().zip(&reference) {
            prop_assert!((a - r).abs() <= 1e-9 * r, "{:?}: {} vs {}", losses, a, r);
        }
    }
}
