//! Report-noisy-max with exponential noise, whose law is that of
//! permute-and-flip (McKenna & Sheldon 2020; Ding et al. 2021): with
//! `p_s = e^{−(L_s − L_min)/β} ∈ (0, 1]`,
//!
//! ```text
//! P(r) = p_r ∫₀¹ ∏_{s≠r} (1 − p_s x) dx.
//! ```
//!
//! Wu & Wang use it as `Q = Exp(1/ε)` in Algorithm 1 (scale 1/ε).
//!
//! # How the law is computed, stably, in O(K²)
//!
//! Write `q_s = 1 − p_s ∈ [0, 1)` and `m = K − 1`. Then
//! `1 − p_s x = (1 − x) + q_s x`, and expanding the product in the Bernstein
//! basis `x^k (1 − x)^{m−k}`, whose integral over `[0, 1]` is the Beta value
//! `c_k = k!(m−k)!/(m+1)! = 1/((m+1)·C(m,k))`, gives
//!
//! ```text
//! I_r = ∫₀¹ ∏_{s≠r} (1 − p_s x) dx = Σ_{k=0}^{m} c_k · e_k(q without q_r),
//! ```
//!
//! with `e_k` the elementary symmetric polynomials. Every term is
//! non-negative, so no cancellation can occur, unlike the monomial expansion
//! `∏(1 − p_s x) = Σ (−1)^k e_k(p) x^k`, whose alternating terms reach
//! `C(K, K/2)` and lose every digit at K = 1000.
//!
//! The leave-one-out sums `I_r` for all `r` come from one product tree: each
//! node holds `e(q_S)` for its set `S` (children convolved), and a *dual
//! vector* `v_S(j) = Σ_i e_i(q outside S) · c_{i+j}` passed from the root
//! (`v_root = c`) to the leaves by
//! `v_left(j) = Σ_b e_b(q_right) · v_parent(b + j)`; at a leaf `{r}`,
//! `I_r = v_{r}(0)`. A node of size `n` split `a + b` costs `O(ab)`, so the
//! whole law costs `O(K²)` multiply-adds of non-negative numbers. Sibling
//! subtrees and the rows of each convolution are independent and run in
//! parallel (rayon).

use crate::num::{Real, Q};
use num_bigint::BigInt;
use num_traits::One;
use rayon::prelude::*;

/// Below this many multiply-adds a loop or subtree runs on one thread.
const PARALLEL_WORK: usize = 4096;

/// The permute-and-flip law of the weights `p_s ∈ [0, 1]`, whose largest must
/// be 1 (as [`super::weights`] gives): `law[r] = p_r · I_r`.
///
/// In the exact backend the entries sum to exactly 1.
///
/// ```
/// use dpdtol::mechanism::exponential;
/// use dpdtol::num::Q;
/// // K = 2: P(2) = p ∫₀¹ (1 − x) dx = p/2.
/// let p = exponential::law(&[Q::from_integer(1.into()), Q::new(1.into(), 4.into())]);
/// assert_eq!(p, vec![Q::new(7.into(), 8.into()), Q::new(1.into(), 8.into())]);
/// ```
pub fn law<R: Real>(weights: &[R]) -> Vec<R> {
    let integrals = leave_one_out_integrals(weights);
    weights.iter().zip(integrals).map(|(p, i)| i * p).collect()
}

/// The integrals `I_r = ∫₀¹ ∏_{s≠r} (1 − p_s x) dx` for all `r`, for any
/// `p_s ∈ [0, 1]` (the terms stay non-negative), by the product tree of the
/// module documentation. The Laplace law uses them with `p_s ≤ ½`.
///
/// ```
/// use dpdtol::mechanism::exponential::leave_one_out_integrals;
/// // ∫₀¹ (1 − x/2) dx = 3/4 for both actions.
/// assert_eq!(leave_one_out_integrals(&[0.5_f64, 0.5]), vec![0.75, 0.75]);
/// ```
pub fn leave_one_out_integrals<R: Real>(p: &[R]) -> Vec<R> {
    let Some(first) = p.first() else {
        return Vec::new();
    };
    let ctx = first.context();
    let one = R::from_int(1, &ctx);
    let q: Vec<R> = p.iter().map(|p| one.clone() - p).collect();
    let tree = Node::build(&q, 0, false);
    let mut integrals = vec![one; p.len()];
    tree.descend(beta_integrals(p.len() - 1, &ctx), &mut integrals);
    integrals
}

/// `c_k = ∫₀¹ x^k (1 − x)^{m−k} dx = 1/((m+1)·C(m, k))` for `k = 0..=m`.
fn beta_integrals<R: Real>(m: usize, ctx: &R::Context) -> Vec<R> {
    let mut binomial = BigInt::one();
    let mut out = Vec::with_capacity(m + 1);
    for k in 0..=m {
        out.push(R::from_rational(
            &Q::new(BigInt::one(), binomial.clone() * (m + 1)),
            ctx,
        ));
        binomial = binomial * (m - k) / (k + 1);
    }
    out
}

/// A node of the product tree over a contiguous range of actions.
struct Node<R> {
    /// Index of the first action of the range.
    start: usize,
    /// Number of actions in the range.
    size: usize,
    /// `e_0..e_n` of the `q`'s of the range (n = its size), needed by the
    /// sibling's dual vector; empty at the root, which has no sibling.
    symmetric: Vec<R>,
    children: Option<Box<(Node<R>, Node<R>)>>,
}

impl<R: Real> Node<R> {
    /// The tree over `q`, whose first entry is action `start`; `with_symmetric`
    /// says whether this node's own polynomial will be needed.
    fn build(q: &[R], start: usize, with_symmetric: bool) -> Node<R> {
        if q.len() == 1 {
            let one = R::from_int(1, &q[0].context());
            return Node {
                start,
                size: 1,
                symmetric: vec![one, q[0].clone()],
                children: None,
            };
        }
        let (left, right) = q.split_at(q.len() / 2);
        let (left, right) = join_if(
            left.len() * right.len() >= PARALLEL_WORK,
            || Node::build(left, start, true),
            || Node::build(right, start + left.len(), true),
        );
        let symmetric = if with_symmetric {
            convolve(&left.symmetric, &right.symmetric)
        } else {
            Vec::new()
        };
        Node {
            start,
            size: q.len(),
            symmetric,
            children: Some(Box::new((left, right))),
        }
    }

    /// Pass the dual vector `v` (length = size) down; write `I_r` at leaves
    /// (`out` is the slice of the node's own range).
    fn descend(&self, v: Vec<R>, out: &mut [R]) {
        match &self.children {
            None => {
                if let (Some(i), Some(slot)) = (v.into_iter().next(), out.first_mut()) {
                    *slot = i;
                }
            }
            Some(children) => {
                let (left, right) = &**children;
                let (v_left, v_right) = join_if(
                    left.size * right.size >= PARALLEL_WORK,
                    || correlate(&right.symmetric, &v, left.size),
                    || correlate(&left.symmetric, &v, right.size),
                );
                let (out_left, out_right) = out.split_at_mut(right.start - self.start);
                join_if(
                    left.size * right.size >= PARALLEL_WORK,
                    || left.descend(v_left, out_left),
                    || right.descend(v_right, out_right),
                );
            }
        }
    }
}

/// The product of two polynomials given by their coefficients.
fn convolve<R: Real>(a: &[R], b: &[R]) -> Vec<R> {
    rows(a.len() + b.len() - 1, a.len() * b.len(), |k| {
        let from = k.saturating_sub(b.len() - 1);
        let to = k.min(a.len() - 1);
        dot((from..=to).map(|i| (&a[i], &b[k - i])))
    })
}

/// `out(j) = Σ_b e(b) · v(b + j)` for `j < len`.
fn correlate<R: Real>(e: &[R], v: &[R], len: usize) -> Vec<R> {
    rows(len, len * e.len(), |j| dot(e.iter().zip(&v[j..])))
}

/// `(0..len).map(row)`, in parallel when the total `work` is large.
fn rows<R: Real>(len: usize, work: usize, row: impl Fn(usize) -> R + Sync + Send) -> Vec<R> {
    if work >= PARALLEL_WORK {
        (0..len).into_par_iter().map(row).collect()
    } else {
        (0..len).map(row).collect()
    }
}

/// `(a(), b())`, in parallel when `parallel`.
fn join_if<A: Send, B: Send>(
    parallel: bool,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    if parallel {
        rayon::join(a, b)
    } else {
        (a(), b())
    }
}

fn dot<'a, R: Real>(mut pairs: impl Iterator<Item = (&'a R, &'a R)>) -> R {
    let (a, b) = pairs.next().expect("a non-empty dot product");
    pairs.fold(a.clone() * b, |acc, (a, b)| acc.mul_add(a, b))
}
