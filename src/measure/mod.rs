//! General mathematics, exact or certified, that knows nothing of any
//! algorithm: the tools with which the laws of Laplace-noise algorithms and
//! the all-ε privacy analysis are computed in closed form, never by
//! numerical quadrature.
//!
//! - [`piecewise`]: piecewise exponential-polynomials of one real variable,
//!   `f(z) = Σ c·z^k·e^{λz}` on each piece between cuts (`λ` rational, `c` a
//!   backend number), closed under product, difference, composition with
//!   `z ↦ s·z + c` and integration from `−∞`. The Laplace density
//!   `e^{−|z|/b}/(2b)` is one such function, so the probability of a *tree*
//!   of one-dimensional windows on independent Laplace noises is integrated
//!   leaf to root in closed form.
//! - [`polyhedral`]: the Laplace measure of a polyhedron,
//!
//!   ```text
//!   P = ∫_{ℝⁿ} ∏_i f_{b_i}(d_i·x) ∏_j 1[a_j·x + c_j ≥ 0] dx,   f_b(z) = e^{−|z|/b}/(2b),
//!   ```
//!
//!   by Fourier–Motzkin elimination of one variable at a time, each cell's
//!   exponential-polynomial integrated exactly between its bounds; the
//!   constants `c_j` are symbolic (rational combinations of real atoms), so
//!   every structural decision is exact and only the signs of irrational
//!   constants need a certified comparison.
//! - [`laplace_line`]: the probability that independent Laplace variables
//!   whose scales are backend numbers (irrational scales too) satisfy
//!   difference constraints `V_c ≤ V_p + d` (or `>`) along the edges of a
//!   forest, integrated leaf to root on the line: each message a piecewise
//!   sum of `c·x^k·e^{λx}` with real rates `λ`, between cuts that are sums
//!   of the shifts.
//! - [`roots`]: exact real root isolation of integer polynomials on
//!   `(0, 1)` (Descartes' rule of signs with bisection, on square-free
//!   parts), and refinement of an isolating interval by exact signs.
//!
//! Every result is exact (a rational) or certified in the backend of
//! [`crate::num`]; a comparison the backend cannot decide is an
//! [`crate::Error::Domain`] that asks the caller for more precision, never a
//! guess.

pub mod laplace_line;
pub mod piecewise;
pub mod polyhedral;
pub mod roots;
