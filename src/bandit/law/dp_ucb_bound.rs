//! The law of DP-UCB-Bound's pull sequence (Tossou & Dimitrakakis 2016,
//! arXiv:1511.08681, Algorithm 1, as read in
//! [`crate::bandit::policy::dp_ucb_bound`]) with K = 2 arms on a fixed
//! reward table, certified.
//!
//! Arm `j`'s noisy sum after `n` rewards is `S_j(n) + W_j(n)`, `W_j` the
//! Hybrid mechanism's noise: `W_j(n) = W_j(p(n)) + Z_j(n)` with
//! [`super::hybrid_ucb::hybrid_increment`] (`Z(n) ~ Lap(b_a)` at a power of
//! two, `Lap(m·b_t)` for a p-sum of the tree over `2^m + 1 .. 2^{m+1} − 1`).
//! At round `t ≥ 3` with counts `(n_0, n_1)` arm 0 is pulled iff
//!
//! ```text
//! W_0(n_0)/n_0 − W_1(n_1)/n_1 ≥ S_1(n_1)/n_1 − S_0(n_0)/n_0 + g(n_1, t) − g(n_0, t),
//! g(n, t) = √(c ln(t − 1)/n) + ν(n, t − 1)/n,
//! ν(n, t') = √a · ln(4t'^4)/ε · (ln n + 1)   (without the factor at n = 2^k)
//! ```
//!
//! a polyhedron in the increments, measured in closed form as Hybrid-UCB's
//! ([`super::hybrid_ucb::Event::measure`]). The atoms involve `√(ln t)` and
//! `ln n`: the law is certified, and an exact backend declines.

use super::hybrid_ucb::staircase_pull_law;
use super::hybrid_ucb::{check_hybrid_params, hybrid_increment, Event};
use super::PullLaw;
use crate::error::Result;
use crate::num::{Real, Q};

/// The parameters of DP-UCB-Bound's law, exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DpUcbBoundParams {
    /// ε of the algorithm (in `ν`) and of the verdict.
    pub epsilon: Q,
    /// `b_a`, the scale of an array block's noise (`2/ε`).
    pub array_scale: Q,
    /// `b_t`, the per-level scale of a tree p-sum's noise (`2/ε`, times `m`).
    pub tree_scale: Q,
    /// The constant 2 of `√(2 ln t'/n)`.
    pub bonus: Q,
    /// The constant 8 of `√8` in `ν`.
    pub confidence: Q,
}

impl DpUcbBoundParams {
    /// The defaults ([`crate::bandit::policy::dp_ucb_bound::DpUcbBound::new`])
    /// at ε.
    pub fn printed(epsilon: Q) -> DpUcbBoundParams {
        let two_over = Q::from_integer(2.into()) / &epsilon;
        DpUcbBoundParams {
            array_scale: two_over.clone(),
            tree_scale: two_over,
            bonus: Q::from_integer(2.into()),
            confidence: Q::from_integer(8.into()),
            epsilon,
        }
    }

    /// Both noise scales times `factor`.
    pub fn scaled(mut self, factor: &Q) -> DpUcbBoundParams {
        self.array_scale *= factor;
        self.tree_scale *= factor;
        self
    }

    /// Check that every parameter is positive and the scales not too small.
    pub fn validate(&self) -> Result<()> {
        check_hybrid_params(
            &self.epsilon,
            &self.array_scale,
            &self.tree_scale,
            &[
                ("the bonus", &self.bonus),
                ("the confidence constant", &self.confidence),
            ],
        )?;
        super::check_bonus(&self.bonus)
    }

    /// `p(n)` and the scale of `Z(n)`: the Hybrid mechanism with a tree of
    /// `m` levels over `2^m + 1 .. 2^{m+1} − 1`.
    pub fn increment(&self, n: u64) -> (Option<u64>, Q) {
        hybrid_increment(n, &self.array_scale, |m| {
            Q::from_integer(m.into()) * &self.tree_scale
        })
    }

    /// `g(n, t) = √(c ln t'/n) + ν(n, t')/n`, `t' = t − 1 ≥ 2`.
    pub fn bonus_at<R: Real>(&self, n: u64, t: u64, ctx: &R::Context) -> Result<R> {
        let half = R::from_rational(&Q::new(1.into(), 2.into()), ctx);
        let sqrt = |x: R| -> Result<R> { (half.clone() * x.ln()?).exp() };
        let n_r = R::from_int(n as i64, ctx);
        let plays = R::from_int(t as i64 - 1, ctx);
        let root = sqrt(R::from_rational(&self.bonus, ctx) * plays.ln()? / &n_r)?;
        let fourth = plays.clone() * plays.clone() * plays.clone() * plays;
        let mut nu = sqrt(R::from_rational(&self.confidence, ctx))?
            * (R::from_int(4, ctx) * fourth).ln()?
            / R::from_rational(&self.epsilon, ctx);
        if !n.is_power_of_two() {
            nu = nu * (n_r.ln()? + R::from_int(1, ctx));
        }
        Ok(root + nu / n_r)
    }
}

impl PullLaw for DpUcbBoundParams {
    staircase_pull_law!();
    fn validate(&self) -> Result<()> {
        DpUcbBoundParams::validate(self)
    }
    fn probability<R: Real>(&self, event: &Event, ctx: &R::Context) -> Result<R> {
        event.measure(|n| self.increment(n), |n, t| self.bonus_at(n, t, ctx), ctx)
    }
    fn name(&self) -> &'static str {
        "dp-ucb-bound"
    }
}
