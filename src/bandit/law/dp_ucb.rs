//! The law of DP-UCB's pull sequence (Mishra & Thakurta 2015, Algorithm 1,
//! as read in [`crate::bandit::policy::dp_ucb`]) with K = 2 arms on a fixed
//! reward table, certified.
//!
//! Arm `j`'s noisy sum after `n` rewards is `S_j(n) + W_j(n)`, `W_j(n)` the
//! sum of the Laplace noises of the binary mechanism's nodes it reads
//! ([`crate::mechanism::counter`]): `W_j(n) = W_j(n − lowbit(n)) + Z_j(n)`,
//! `Z_j(n) ~ Lap(b)` the noise of the node reward `n` completes, `b = L/ε`.
//! Each node's noise is a named variable; at round `t ≥ 3` with counts
//! `(n_0, n_1)` arm 0 is pulled iff
//!
//! ```text
//! W_0(n_0)/n_0 − W_1(n_1)/n_1 ≥ S_1(n_1)/n_1 − S_0(n_0)/n_0 + g(n_1, t) − g(n_0, t),
//! g(n, t) = √(c ln(t − 1)/n) + Γ/n,   Γ = K ln²T · ln(K T ln T/γ)/ε,
//! ```
//!
//! so "these pulls" is a polyhedron in the node noises, measured in closed
//! form as Hybrid-UCB's is ([`super::hybrid_ucb::Event::measure`], the same
//! staircase of counts with the binary mechanism's increments). The atoms
//! `g(n_1, t) − g(n_0, t)` involve `√(ln t)` and `ln T`: the law is certified,
//! and an exact backend declines.

use super::hybrid_ucb::staircase_pull_law;
use super::hybrid_ucb::Event;
use super::{check_positive, check_scale, PullLaw};
use crate::error::{Error, Result};
use crate::mechanism::counter::BinaryTree;
use crate::num::{Real, Q};

/// The parameters of DP-UCB's law, exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DpUcbParams {
    /// ε of the algorithm (in `Γ`) and of the verdict.
    pub epsilon: Q,
    /// The horizon `T` of `Γ`'s `ln T` (the law's tables have `T` rounds).
    pub horizon: u64,
    /// The binary mechanism's depth `L` (printed: `⌈log₂ T⌉`).
    pub tree: BinaryTree,
    /// The Laplace scale of a node (printed: `L/ε`).
    pub node_scale: Q,
    /// The constant 2 of `√(2 ln t'/n)`.
    pub bonus: Q,
    /// The failure probability γ of `Γ` (default `1/10`).
    pub gamma: Q,
}

impl DpUcbParams {
    /// The defaults ([`crate::bandit::policy::dp_ucb::DpUcb::new`]) at ε
    /// over `horizon` rounds.
    pub fn printed(epsilon: Q, horizon: usize) -> DpUcbParams {
        let tree = BinaryTree::for_items((horizon as u64).saturating_sub(1));
        DpUcbParams {
            node_scale: tree.node_scale(&epsilon),
            tree,
            bonus: Q::from_integer(2.into()),
            gamma: Q::new(1.into(), 10.into()),
            horizon: horizon as u64,
            epsilon,
        }
    }

    /// With a tree of `depth` levels: its node scale `depth/ε` too.
    pub fn set_depth(&mut self, depth: u32) -> Result<()> {
        self.tree = BinaryTree::new(depth)?;
        self.node_scale = self.tree.node_scale(&self.epsilon);
        Ok(())
    }

    /// Check that every parameter is positive, `γ < 1` and the scale not too
    /// small.
    pub fn validate(&self) -> Result<()> {
        check_positive(&[
            ("--epsilon", &self.epsilon),
            ("--noise-scale", &self.node_scale),
            ("the bonus", &self.bonus),
            ("γ", &self.gamma),
        ])?;
        if self.gamma >= Q::from_integer(1.into()) {
            return Err(Error::InvalidInput(format!(
                "γ must lie in (0, 1), got {}",
                self.gamma
            )));
        }
        super::check_bonus(&self.bonus)?;
        check_scale(&self.epsilon, &self.node_scale)
    }

    /// `Γ = K ln²T · ln(K T ln T/γ)/ε` at K = 2 (`T ≥ 2`).
    pub fn relaxation<R: Real>(&self, ctx: &R::Context) -> Result<R> {
        let t = R::from_int(self.horizon.max(2) as i64, ctx);
        let ln_t = t.ln()?;
        let k_over_gamma = R::from_rational(&(Q::from_integer(2.into()) / &self.gamma), ctx);
        let inner = (k_over_gamma * t * ln_t.clone()).ln()?;
        Ok(
            R::from_int(2, ctx) * ln_t.clone() * ln_t * inner
                / R::from_rational(&self.epsilon, ctx),
        )
    }

    /// `g(n, t) = √(c ln(t − 1)/n) + Γ/n`, `relaxation = Γ`.
    fn bonus_at<R: Real>(&self, relaxation: &R, n: u64, t: u64, ctx: &R::Context) -> Result<R> {
        let n_r = R::from_int(n as i64, ctx);
        let c_ln = R::from_rational(&self.bonus, ctx) * R::from_int(t as i64 - 1, ctx).ln()?;
        let half = R::from_rational(&Q::new(1.into(), 2.into()), ctx);
        let root = (half * (c_ln / &n_r).ln()?).exp()?;
        Ok(root + relaxation.clone() / n_r)
    }
}

impl PullLaw for DpUcbParams {
    staircase_pull_law!();
    fn validate(&self) -> Result<()> {
        DpUcbParams::validate(self)
    }
    fn probability<R: Real>(&self, event: &Event, ctx: &R::Context) -> Result<R> {
        let relaxation = std::cell::OnceCell::new();
        let node_scale = &self.node_scale;
        event.measure(
            |n| (BinaryTree::parent(n), node_scale.clone()),
            |n, t| {
                if relaxation.get().is_none() {
                    let _ = relaxation.set(self.relaxation::<R>(ctx)?);
                }
                let gamma = relaxation
                    .get()
                    .ok_or_else(|| Error::Domain("the relaxation Γ was not computed".into()))?;
                self.bonus_at(gamma, n, t, ctx)
            },
            ctx,
        )
    }
    fn name(&self) -> &'static str {
        "dp-ucb"
    }
}
