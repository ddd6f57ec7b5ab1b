//! Exact real root isolation of integer polynomials on `(0, 1)` (used to
//! decide privacy for all ε at once): Descartes' rule of signs with bisection (the
//! Collins–Akritas form of Vincent's method), on square-free parts.
//!
//! # The method
//!
//! A polynomial `p ∈ Z[x]` of degree `n` is first made square-free,
//! `s = p / gcd(p, p')` (the gcd by the primitive pseudo-remainder sequence,
//! exact over `Z` by Gauss's lemma); `s` has the distinct roots of `p`, each
//! simple. On an interval `(c/2^k, (c+1)/2^k)` the polynomial
//! `s_{k,c}(x) = 2^{kn} s((x + c)/2^k)` has its roots in `(0, 1)`, and the
//! number `V` of sign variations of the coefficients of
//! `(x + 1)^n s_{k,c}(1/(x + 1))` exceeds the number of those roots by an even
//! number (Descartes' rule, after the Möbius map `(0, 1) → (0, ∞)`). `V = 0`
//! proves no root, `V = 1` exactly one; otherwise the interval is halved:
//! `2^n s_{k,c}(x/2)` on the left, its Taylor shift by 1 on the right. By
//! Vincent's theorem (the two-circle form of Krandick and Mehlhorn) the
//! bisection stops for a square-free `s`. A root at a midpoint shows as a
//! zero constant term of the right half: it is recorded exactly (a rational)
//! and divided out. Every open isolating interval has dyadic ends at which
//! `s` is not zero.
//!
//! Refinement halves an isolating interval by the exact sign of `s` at its
//! midpoint ([`sign_at`], homogenised integer evaluation).
//!
//! No crate was used: the crates.io candidates either carry an AGPL licence
//! (find-real-roots-of-polynomial) or a whole computer-algebra system
//! (symplex, oxiz-math, rssn).
//!
//! ```
//! use dpdtol::measure::roots::{isolate, Root};
//! use num_bigint::BigInt;
//! // (2x − 1)·(2x² − 1): roots 1/2 (exact) and 1/√2 (irrational) in (0, 1).
//! let p: Vec<BigInt> = [1, -2, -2, 4].iter().map(|&c| BigInt::from(c)).collect();
//! let roots = isolate(&p);
//! assert_eq!(roots.len(), 2);
//! assert!(matches!(roots[0], Root::Exact(_)));
//! ```

use crate::num::Q;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;

/// A polynomial with integer coefficients, constant term first.
pub type Poly = Vec<BigInt>;

/// An isolated root in `(0, 1)` of a square-free polynomial.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Root {
    /// A rational root, exactly.
    Exact(Q),
    /// The only root in the open interval `(lo, hi)`; the polynomial is not
    /// zero at either end (so no point between two isolated roots'
    /// enclosures is a root).
    Open {
        /// The lower end.
        lo: Q,
        /// The upper end.
        hi: Q,
    },
}

impl Root {
    /// The ends of the enclosure (equal for an exact root).
    pub fn ends(&self) -> (Q, Q) {
        match self {
            Root::Exact(q) => (q.clone(), q.clone()),
            Root::Open { lo, hi } => (lo.clone(), hi.clone()),
        }
    }
}

fn trim(mut p: Poly) -> Poly {
    while p.last().is_some_and(Zero::is_zero) {
        p.pop();
    }
    p
}

/// The degree (`None` for the zero polynomial).
pub fn degree(p: &[BigInt]) -> Option<usize> {
    p.iter().rposition(|c| !c.is_zero())
}

fn derivative(p: &[BigInt]) -> Poly {
    trim(
        p.iter()
            .enumerate()
            .skip(1)
            .map(|(i, c)| c * BigInt::from(i))
            .collect(),
    )
}

/// `p` divided by the gcd of its coefficients, leading coefficient positive.
pub fn primitive(p: &[BigInt]) -> Poly {
    let p = trim(p.to_vec());
    let content = p.iter().fold(BigInt::zero(), |g, c| g.gcd(c));
    if content.is_zero() {
        return p;
    }
    let sign = if p.last().is_some_and(Signed::is_negative) {
        -BigInt::one()
    } else {
        BigInt::one()
    };
    p.iter().map(|c| c / &content * &sign).collect()
}

/// The pseudo-remainder `lc(b)^{deg a − deg b + 1} · a mod b`.
fn pseudo_remainder(a: &[BigInt], b: &[BigInt]) -> Poly {
    let mut r = trim(a.to_vec());
    let db = degree(b).unwrap_or(0);
    let lb = &b[db];
    while let Some(dr) = degree(&r).filter(|&d| d >= db) {
        let lr = r[dr].clone();
        for c in r.iter_mut() {
            *c *= lb;
        }
        for (i, c) in b.iter().enumerate().take(db + 1) {
            r[dr - db + i] -= &lr * c;
        }
        r = trim(r);
    }
    r
}

/// The gcd of `a` and `b` in `Z[x]`, primitive (the primitive
/// pseudo-remainder sequence).
pub fn gcd(a: &[BigInt], b: &[BigInt]) -> Poly {
    let (mut a, mut b) = (primitive(a), primitive(b));
    if degree(&a) < degree(&b) {
        std::mem::swap(&mut a, &mut b);
    }
    while degree(&b).is_some() {
        let r = primitive(&pseudo_remainder(&a, &b));
        a = b;
        b = r;
    }
    primitive(&a)
}

/// `a / b` for a primitive `b` dividing `a` in `Q[x]` (then the quotient
/// has integer coefficients, Gauss's lemma); `None` if `b` does not divide.
pub fn divide(a: &[BigInt], b: &[BigInt]) -> Option<Poly> {
    let db = degree(b)?;
    let mut r = trim(a.to_vec());
    let Some(da) = degree(&r) else {
        return Some(Vec::new());
    };
    if da < db {
        return None;
    }
    let mut q = vec![BigInt::zero(); da - db + 1];
    while let Some(dr) = degree(&r).filter(|&d| d >= db) {
        let (c, rem) = r[dr].div_rem(&b[db]);
        if !rem.is_zero() {
            return None;
        }
        for (i, bc) in b.iter().enumerate().take(db + 1) {
            r[dr - db + i] -= &c * bc;
        }
        q[dr - db] = c;
        r = trim(r);
    }
    degree(&r).is_none().then(|| trim(q))
}

/// The square-free part `p / gcd(p, p')`, primitive.
pub fn square_free(p: &[BigInt]) -> Poly {
    let p = primitive(p);
    if degree(&p).is_none_or(|d| d == 0) {
        return p;
    }
    let g = gcd(&p, &derivative(&p));
    primitive(&divide(&p, &g).unwrap_or(p))
}

/// The exact sign of `p(r)` for a rational `r = a/b` (`b > 0`): the sign of
/// `Σ c_i a^i b^{n−i}`.
pub fn sign_at(p: &[BigInt], r: &Q) -> Ordering {
    let (a, b) = (r.numer(), r.denom());
    let n = p.len();
    let mut total = BigInt::zero();
    let mut a_pow = BigInt::one();
    let mut b_pows = vec![BigInt::one(); n];
    for i in 1..n {
        b_pows[i] = &b_pows[i - 1] * b;
    }
    for (i, c) in p.iter().enumerate() {
        if !c.is_zero() {
            total += c * &a_pow * &b_pows[n - 1 - i];
        }
        a_pow *= a;
    }
    total.cmp(&BigInt::zero())
}

/// `p(x + 1)` (Taylor shift by 1, Horner's scheme).
fn shift_one(p: &[BigInt]) -> Poly {
    let mut q = p.to_vec();
    let n = q.len();
    for i in 0..n {
        for j in (i..n.saturating_sub(1)).rev() {
            let next = q[j + 1].clone();
            q[j] += next;
        }
    }
    q
}

/// Sign variations of the non-zero coefficients.
fn variations(p: &[BigInt]) -> usize {
    let signs: Vec<bool> = p
        .iter()
        .filter(|c| !c.is_zero())
        .map(Signed::is_positive)
        .collect();
    signs.windows(2).filter(|w| w[0] != w[1]).count()
}

/// Descartes' bound on the roots of `p` in `(0, 1)`: the sign variations of
/// `(x + 1)^n p(1/(x + 1))`.
fn descartes(p: &[BigInt]) -> usize {
    let mut reversed = p.to_vec();
    reversed.reverse();
    variations(&shift_one(&reversed))
}

/// The distinct roots of `p ≠ 0` in the open interval `(0, 1)`, in
/// increasing order, each exact or in an isolating interval (module
/// documentation). The zero polynomial has no isolated roots: `[]`.
pub fn isolate(p: &[BigInt]) -> Vec<Root> {
    isolate_square_free(&square_free(p))
}

/// [`isolate`] for a polynomial known to be square-free (a product of
/// pairwise coprime square-free factors, say): the gcd with the derivative,
/// the costly step at high degree, is skipped.
pub fn isolate_square_free(s: &[BigInt]) -> Vec<Root> {
    let mut s = primitive(s);
    if degree(&s).is_none_or(|d| d == 0) {
        return Vec::new();
    }
    // Roots at 0 and 1 are outside the open interval: divide them out.
    if s[0].is_zero() {
        s.remove(0);
    }
    let one = [-BigInt::one(), BigInt::one()];
    if sign_at(&s, &Q::one()) == Ordering::Equal {
        s = divide(&s, &one).unwrap_or(s);
    }
    let mut roots = Vec::new();
    // Work list: (the polynomial moved to (0, 1) from the interval
    // (c/2^k, (c+1)/2^k), c, k).
    let mut stack = vec![(s.clone(), BigInt::zero(), 0u32)];
    while let Some((poly, c, k)) = stack.pop() {
        let scale = Q::from_integer(BigInt::one() << k);
        let v = descartes(&poly);
        if v == 0 {
            continue;
        }
        if v == 1 {
            roots.push(Root::Open {
                lo: Q::from_integer(c.clone()) / &scale,
                hi: Q::from_integer(&c + 1) / &scale,
            });
            continue;
        }
        let n = poly.len() - 1;
        let left: Poly = poly.iter().enumerate().map(|(i, a)| a << (n - i)).collect();
        let mut right = shift_one(&left);
        let mid = Q::from_integer(&c * 2 + 1) / (&scale * Q::from_integer(2.into()));
        if right[0].is_zero() {
            right.remove(0);
            roots.push(Root::Exact(mid));
        }
        stack.push((right, &c * 2 + 1, k + 1));
        stack.push((left, &c * 2, k + 1));
    }
    // An open interval beside an exact root has it as an end: moved off.
    let mut roots: Vec<Root> = roots
        .iter()
        .map(|r| match r {
            Root::Open { lo, hi } => refine(&s, r, &(hi - lo)),
            exact => exact.clone(),
        })
        .collect();
    // The intervals are disjoint (an exact root is a midpoint, an end of the
    // open intervals beside it): ordered by lower end, an exact root before
    // the open interval starting at it.
    roots.sort_by_key(|r| (r.ends().0, matches!(r, Root::Open { .. })));
    roots
}

/// The sign of `s` just right of `x`: `s(x)`'s, or `s'(x)`'s at a simple
/// root.
fn sign_right_of(s: &[BigInt], x: &Q) -> Ordering {
    match sign_at(s, x) {
        Ordering::Equal => sign_at(&derivative(s), x),
        o => o,
    }
}

/// Halve `root`'s isolating interval (for the square-free `s`) until its
/// width is at most `width` and neither end is a root of `s` (an end may be
/// an exact root found beside it), or the root is found exactly.
pub fn refine(s: &[BigInt], root: &Root, width: &Q) -> Root {
    let mut root = root.clone();
    while let Root::Open { lo, hi } = &root {
        let ends_clear = sign_at(s, lo) != Ordering::Equal && sign_at(s, hi) != Ordering::Equal;
        if &(hi - lo) <= width && ends_clear {
            break;
        }
        let mid = (lo + hi) / Q::from_integer(2.into());
        // On (lo, α) the sign is that just right of lo; α is simple.
        let left = sign_right_of(s, lo);
        root = match sign_at(s, &mid) {
            Ordering::Equal => Root::Exact(mid),
            m if m == left => Root::Open {
                lo: mid,
                hi: hi.clone(),
            },
            _ => Root::Open {
                lo: lo.clone(),
                hi: mid,
            },
        };
    }
    root
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poly(c: &[i64]) -> Poly {
        c.iter().map(|&x| BigInt::from(x)).collect()
    }

    fn q(n: i64, d: i64) -> Q {
        Q::new(n.into(), d.into())
    }

    /// The product of the given factors (each constant term first).
    fn product(factors: &[&[i64]]) -> Poly {
        factors.iter().fold(poly(&[1]), |acc, f| {
            let f = poly(f);
            let mut out = vec![BigInt::zero(); acc.len() + f.len() - 1];
            for (i, a) in acc.iter().enumerate() {
                for (j, b) in f.iter().enumerate() {
                    out[i + j] += a * b;
                }
            }
            out
        })
    }

    /// Whether `root` encloses `value` (given by a predicate on rationals:
    /// `below(r)` is true when `r` is below the value).
    fn encloses(root: &Root, below: impl Fn(&Q) -> bool) -> bool {
        match root {
            Root::Exact(r) => {
                !below(r) && {
                    // r is not below the value; it must not be above either.
                    let tiny = q(1, 1 << 40);
                    below(&(r - tiny))
                }
            }
            Root::Open { lo, hi } => below(lo) && !below(hi),
        }
    }

    #[test]
    fn rational_roots_with_multiplicities_are_exact() {
        // (2x − 1)^2 (4x − 3)^3 (x − 2) x: in (0, 1) the roots 1/2 and 3/4
        // (dyadic: 1/2 is met as the first midpoint, 3/4 is isolated in
        // (1/2, 1) and met exactly by refining); 0 and 2 are outside.
        let p = product(&[
            &[-1, 2],
            &[-1, 2],
            &[-3, 4],
            &[-3, 4],
            &[-3, 4],
            &[-2, 1],
            &[0, 1],
        ]);
        let roots = isolate(&p);
        assert_eq!(roots.len(), 2);
        assert_eq!(roots[0], Root::Exact(q(1, 2)));
        assert!(encloses(&roots[1], |r| r < &q(3, 4)));
        let s = square_free(&p);
        assert_eq!(refine(&s, &roots[1], &q(1, 1000)), Root::Exact(q(3, 4)));
    }

    #[test]
    fn irrational_and_non_dyadic_roots_are_isolated_and_refined() {
        // (3x − 1)(2x² − 1)(5x − 4)^2 (x² + 1): roots 1/3, 1/√2, 4/5 in (0, 1).
        let p = product(&[&[-1, 3], &[-1, 0, 2], &[-4, 5], &[-4, 5], &[1, 0, 1]]);
        let roots = isolate(&p);
        assert_eq!(roots.len(), 3);
        let s = square_free(&p);
        // 1/3: below(r) ⟺ r < 1/3.
        let third = refine(&s, &roots[0], &q(1, 1 << 30));
        assert!(encloses(&third, |r| r < &q(1, 3)));
        // 1/√2: below(r) ⟺ r² < 1/2 (for r > 0).
        let root2 = refine(&s, &roots[1], &q(1, 1 << 50));
        assert!(encloses(&root2, |r| r * r < q(1, 2)));
        let (lo, hi) = root2.ends();
        assert!(&hi - &lo <= q(1, 1 << 50));
        assert!(encloses(&roots[2], |r| r < &q(4, 5)));
    }

    #[test]
    fn no_roots_and_endpoint_roots() {
        // x² + x + 1 has no real roots; x(x − 1) has none in the open (0, 1);
        // the zero and constant polynomials have none.
        assert!(isolate(&poly(&[1, 1, 1])).is_empty());
        assert!(isolate(&poly(&[0, -1, 1])).is_empty());
        assert!(isolate(&poly(&[])).is_empty());
        assert!(isolate(&poly(&[7])).is_empty());
        // Close roots: (1000x − 499)(1000x − 501) separates 0.499 and 0.501.
        let roots = isolate(&product(&[&[-499, 1000], &[-501, 1000]]));
        assert_eq!(roots.len(), 2);
        assert!(encloses(&roots[0], |r| r < &q(499, 1000)));
        assert!(encloses(&roots[1], |r| r < &q(501, 1000)));
    }

    #[test]
    fn an_interval_beside_an_exact_root_is_moved_off_it() {
        // (2x − 1)(20x − 11): 1/2 is met exactly as the first midpoint, and
        // 11/20 is first isolated in (1/2, 1), whose lower end is the root
        // 1/2; the interval returned has ends that are not roots.
        let p = product(&[&[-1, 2], &[-11, 20]]);
        let roots = isolate(&p);
        assert_eq!(roots[0], Root::Exact(q(1, 2)));
        let Root::Open { lo, hi } = &roots[1] else {
            panic!("11/20 is not dyadic: {:?}", roots[1]);
        };
        assert_ne!(sign_at(&p, lo), Ordering::Equal);
        assert_ne!(sign_at(&p, hi), Ordering::Equal);
        assert!(encloses(&roots[1], |r| r < &q(11, 20)));
    }

    #[test]
    fn gcd_and_square_free_parts() {
        // gcd((x − 1)^2 (x + 2), (x − 1)(x + 3)) = x − 1; the square-free part
        // of (x − 1)^2 (x + 2) is (x − 1)(x + 2) = x² + x − 2.
        let a = product(&[&[-1, 1], &[-1, 1], &[2, 1]]);
        let b = product(&[&[-1, 1], &[3, 1]]);
        assert_eq!(gcd(&a, &b), poly(&[-1, 1]));
        assert_eq!(square_free(&a), poly(&[-2, 1, 1]));
        assert_eq!(
            divide(&a, &poly(&[2, 1])),
            Some(product(&[&[-1, 1], &[-1, 1]]))
        );
        assert_eq!(divide(&a, &poly(&[3, 1])), None);
    }

    proptest::proptest! {
        /// Products of (b x − a)^m with a/b in (0, 1), times x² + 1 and a root
        /// outside (0, 1): exactly the distinct a/b are found, in order, each
        /// in its own enclosure (refined to width 2^−40 to check it).
        #[test]
        fn products_of_known_linear_factors(
            factors in proptest::collection::vec((1i64..40, 2i64..41, 1usize..3), 0..6),
        ) {
            let mut fs: Vec<Vec<i64>> = vec![vec![1, 0, 1], vec![-3, 1]];
            let mut expected: Vec<Q> = Vec::new();
            for &(a, b, m) in &factors {
                let (a, b) = (a % b, b);
                if a == 0 {
                    continue;
                }
                for _ in 0..m {
                    fs.push(vec![-a, b]);
                }
                expected.push(q(a, b));
            }
            expected.sort();
            expected.dedup();
            let refs: Vec<&[i64]> = fs.iter().map(Vec::as_slice).collect();
            let p = product(&refs);
            let roots = isolate(&p);
            proptest::prop_assert_eq!(roots.len(), expected.len());
            let s = square_free(&p);
            for (root, r) in roots.iter().zip(&expected) {
                let fine = refine(&s, root, &q(1, 1 << 40));
                let (lo, hi) = fine.ends();
                proptest::prop_assert!(&lo <= r && r <= &hi, "{r} outside [{lo}, {hi}]");
            }
        }
    }

    #[test]
    fn signs_at_rationals() {
        // 2x² − 1 at 7/10: 98/100 − 1 < 0; at 3/4: 9/8 − 1 > 0.
        let p = poly(&[-1, 0, 2]);
        assert_eq!(sign_at(&p, &q(7, 10)), Ordering::Less);
        assert_eq!(sign_at(&p, &q(3, 4)), Ordering::Greater);
        assert_eq!(sign_at(&poly(&[-1, 2]), &q(1, 2)), Ordering::Equal);
    }
}
