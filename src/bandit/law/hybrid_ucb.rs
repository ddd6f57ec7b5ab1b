//! The law of Hybrid-UCB's pull sequence (002 Appendix E, Algorithm 4, as
//! inferred in [`crate::bandit::policy::hybrid_ucb`]) with K = 2 arms on a
//! fixed reward table, certified.
//!
//! # The noisy sums are a tree of increments
//!
//! Arm `j`'s private mean after `n` observations is `(S_j(n) + W_j(n))/n`:
//! `S_j(n)` the sum of its first `n` rewards, `W_j(n)` the sum of the
//! Laplace noises its arrays and tree hold. With `m = ⌊log₂ n⌋` the arrays
//! hold the first `2^m` observations in `m + 1` blocks (one `Lap(b_a)` each)
//! and the tree the `i = n − 2^m` others, its prefix sum being the noisy
//! p-sums of the binary digits of `i` (one `Lap((m+1)·b_t)` each). So
//! `W_j(n) = W_j(p(n)) + Z_j(n)`, with one fresh noise `Z_j(n)` per count:
//!
//! ```text
//! n = 1:            W(1) = Z(1),                  Z(1) ~ Lap(b_a)
//! n = 2^m, m ≥ 1:   p(n) = 2^{m−1} (the tree becomes a block),  Z(n) ~ Lap(b_a)
//! otherwise:        p(n) = n − lowbit(i) (the p-sum of i's lowest digit
//!                   replaces the lower ones),     Z(n) ~ Lap((m+1)·b_t)
//! ```
//!
//! (`W(3) = W(2) + T₁`, `W(4) = W(2) + A₃`, `W(6) = W(4) + P₁`,
//! `W(7) = W(6) + P₀`: a noise is dropped when its p-sum is merged.) The
//! scale `B(n)` of index (35) is the sum of the scales inside `W(n)`:
//! `(m+1)·b_a + popcount(i)·(m+1)·b_t`.
//!
//! # The event "these pulls" is a polyhedron
//!
//! Rounds 1 and 2 pull arms 0 and 1. At a round `t ≥ 3` with counts
//! `(n_0, n_1)`, index (35) pulls arm 0 iff (ties, of probability zero, go to
//! arm 0)
//!
//! ```text
//! W_0(n_0)/n_0 − W_1(n_1)/n_1 ≥ θ_t := S_1(n_1)/n_1 − S_0(n_0)/n_0 + g(n_1, t) − g(n_0, t),
//! g(n, t) = √(c ln t/n) + c ln t·B(n)/n,
//! ```
//!
//! an inequality in the variables `W_j(n)`, whose density is the product of
//! the Laplace densities of the increments `W_j(n) − W_j(p(n))` (a triangular
//! change of variables with unit diagonal). The rounds compare the two arms
//! along a staircase of counts and each arm's increments form a tree, so the
//! constraints close cycles: the probability is the Laplace measure of a
//! polyhedron, computed in closed form by [`crate::measure::polyhedral`]. `g(n_1, t) −
//! g(n_0, t)` is irrational unless `n_0 = n_1` (then it is 0): it is the
//! round's atom, so the law is certified, and an exact backend declines.
//!
//! # Cost
//!
//! At round `T` the counts sum to `T − 1`: at most `T − 1` variables, `T − 2`
//! inequalities and `2^{T−1}` sign cells before merging.

use super::anytime_lazy_ucb::ucb_bonus;
use super::{check_positive, check_scale, PullLaw};
use crate::error::{Error, Result};
use crate::measure::polyhedral::{laplace_measure, Inequality, LaplaceFactor};
use crate::num::{Real, Q};
use num_traits::Zero;

/// The parameters of the inferred Algorithm 4 the law depends on, exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HybridLawParams {
    /// ε of the verdict.
    pub epsilon: Q,
    /// `b_a`, the scale of each array block's noise (inferred: `2/ε`).
    pub array_scale: Q,
    /// `b_t`, the per-level scale of a tree p-sum's noise (inferred: `2/ε`).
    pub tree_scale: Q,
    /// The constant 3 of index (35).
    pub bonus: Q,
}

impl HybridLawParams {
    /// As inferred ([`crate::bandit::policy::hybrid_ucb::HybridUcb::new`]): both scales
    /// `2/ε`, bonus 3.
    pub fn inferred(epsilon: Q) -> HybridLawParams {
        let two_over = Q::from_integer(2.into()) / &epsilon;
        HybridLawParams {
            array_scale: two_over.clone(),
            tree_scale: two_over,
            bonus: Q::from_integer(3.into()),
            epsilon,
        }
    }

    /// Check that every parameter is positive and the scales not too small.
    pub fn validate(&self) -> Result<()> {
        check_hybrid_params(
            &self.epsilon,
            &self.array_scale,
            &self.tree_scale,
            &[("the bonus", &self.bonus)],
        )?;
        super::check_bonus(&self.bonus)
    }

    /// `p(n)` and the scale of `Z(n)` (module documentation); `p(1) = None`.
    pub fn increment(&self, n: u64) -> (Option<u64>, Q) {
        hybrid_increment(n, &self.array_scale, |m| {
            Q::from_integer((m + 1).into()) * &self.tree_scale
        })
    }

    /// `B(n)`: the sum of the scales of the noises inside `W(n)`.
    pub fn total_scale(&self, n: u64) -> Q {
        let m = n.ilog2();
        let levels = Q::from_integer((m + 1).into());
        let digits = Q::from_integer((n - (1 << m)).count_ones().into());
        &levels * &self.array_scale + digits * levels * &self.tree_scale
    }
}

/// Check a Hybrid mechanism's parameters: ε, the array scale (`--noise-scale`),
/// the tree scale (`--tree-scale`) and the law's `constants` positive, then
/// both scales not too small at ε ([`check_scale`]).
pub fn check_hybrid_params(
    epsilon: &Q,
    array_scale: &Q,
    tree_scale: &Q,
    constants: &[(&str, &Q)],
) -> Result<()> {
    let scales = [
        ("--epsilon", epsilon),
        ("--noise-scale", array_scale),
        ("--tree-scale", tree_scale),
    ];
    check_positive(&[&scales[..], constants].concat())?;
    check_scale(epsilon, array_scale)?;
    check_scale(epsilon, tree_scale)
}

/// The increment of Chan, Shi & Song's Hybrid mechanism (module
/// documentation): `p(n)` and the scale of `Z(n)`, `array_scale` for an
/// array block (`n` a power of two) and `node_scale(m)` for a p-sum of the
/// tree over observations `2^m + 1 .. 2^{m+1} − 1`; `p(1) = None`.
pub fn hybrid_increment(
    n: u64,
    array_scale: &Q,
    node_scale: impl Fn(u32) -> Q,
) -> (Option<u64>, Q) {
    let m = n.ilog2();
    let i = n - (1 << m);
    if n == 1 {
        (None, array_scale.clone())
    } else if i == 0 {
        (Some(n / 2), array_scale.clone())
    } else {
        (Some(n - (1 << i.trailing_zeros())), node_scale(m))
    }
}

/// One round `t ≥ 3` of the event: the counts, the rational part of `θ_t`
/// and the arm pulled.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Round {
    counts: [u64; 2],
    offset: Q,
    arm: usize,
}

/// The event "these pulls" given the rewards seen (module documentation):
/// the rounds from 3 on, round `t` at index `t − 3`. Equal events, equal
/// probabilities.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Event {
    rounds: Vec<Round>,
}

impl Event {
    /// The event of `pulls` (arms 0 or 1) with `seen[t]` the reward of round
    /// `t + 1`; `None` when rounds 1 and 2 rule the pulls out.
    pub fn new(pulls: &[usize], seen: &[Q]) -> Result<Option<Event>> {
        if pulls.len() != seen.len() || pulls.iter().any(|&a| a > 1) {
            return Err(Error::InvalidInput(
                "the pulls must be arms 0 or 1, one per reward seen".into(),
            ));
        }
        if pulls.first().is_some_and(|&a| a != 0) || pulls.get(1).is_some_and(|&a| a != 1) {
            return Ok(None);
        }
        let mut counts = [0u64; 2];
        let mut sums = [Q::zero(), Q::zero()];
        let mut rounds = Vec::with_capacity(pulls.len().saturating_sub(2));
        for (i, (&arm, y)) in pulls.iter().zip(seen).enumerate() {
            if i >= 2 {
                let mean = |j: usize| &sums[j] / Q::from_integer(counts[j].into());
                rounds.push(Round {
                    counts,
                    offset: mean(1) - mean(0),
                    arm,
                });
            }
            counts[arm] += 1;
            sums[arm] += y;
        }
        Ok(Some(Event { rounds }))
    }

    /// Its probability: the Laplace measure of the polyhedron (module
    /// documentation).
    ///
    /// Errors: [`Error::NotRepresentable`] in an exact backend when a round
    /// compares unequal counts; [`Error::Domain`] when a sign cannot be
    /// decided at this precision.
    pub fn probability<R: Real>(&self, params: &HybridLawParams, ctx: &R::Context) -> Result<R> {
        self.measure(
            |n| params.increment(n),
            |n, t| ucb_bonus::<R>(&params.bonus, &params.total_scale(n), n, t, ctx),
            ctx,
        )
    }

    /// The probability of the event for any two-arm index policy whose
    /// private sums are trees of increments: `W_j(n) = W_j(p(n)) + Z_j(n)`
    /// with `increment(n) = (p(n), scale of Z(n))`, and which pulls arm 0 at
    /// round `t` iff `W_0/n_0 − W_1/n_1 ≥ θ_t`, `θ_t` the round's offset plus
    /// `g(n_1, t) − g(n_0, t)`, `g = bonus` (the atom; none when the counts
    /// are equal). Hybrid-UCB's arrays and tree, and DP-UCB's binary
    /// mechanism ([`super::dp_ucb`]), are such trees.
    pub fn measure<R: Real>(
        &self,
        increment: impl Fn(u64) -> (Option<u64>, Q),
        bonus: impl Fn(u64, u64) -> Result<R>,
        ctx: &R::Context,
    ) -> Result<R> {
        // The variables W_j(n), n = 1..=N_j, arm 0's first.
        let top = |j: usize| self.rounds.iter().map(|r| r.counts[j]).max().unwrap_or(0);
        let first = [0, top(0) as usize];
        let vars = first[1] + top(1) as usize;
        let var = |j: usize, n: u64| first[j] + n as usize - 1;
        let mut factors = Vec::with_capacity(vars);
        for j in 0..2 {
            for n in 1..=top(j) {
                let (parent, scale) = increment(n);
                let mut form = vec![Q::zero(); vars];
                form[var(j, n)] = Q::from_integer(1.into());
                if let Some(p) = parent {
                    form[var(j, p)] = Q::from_integer((-1).into());
                }
                factors.push(LaplaceFactor { form, scale });
            }
        }
        let atoms = self.rounds.len();
        let mut values = Vec::with_capacity(atoms);
        let mut inequalities = Vec::with_capacity(atoms);
        for (k, r) in self.rounds.iter().enumerate() {
            let t = k as u64 + 3;
            let [n0, n1] = r.counts;
            // W_0/n_0 − W_1/n_1 − offset − atom ≥ 0 pulls arm 0.
            let mut x = vec![Q::zero(); vars];
            x[var(0, n0)] = Q::new(1.into(), n0.into());
            x[var(1, n1)] = Q::new((-1).into(), n1.into());
            let mut constant = vec![Q::zero(); atoms + 1];
            constant[0] = -r.offset.clone();
            if n0 == n1 {
                values.push(R::from_int(0, ctx));
            } else {
                values.push(bonus(n1, t)? - bonus(n0, t)?);
                constant[k + 1] = Q::from_integer((-1).into());
            }
            let ineq = Inequality { x, constant };
            inequalities.push(if r.arm == 0 { ineq } else { ineq.negated() });
        }
        laplace_measure(vars, &factors, &inequalities, &values, ctx)
    }
}

/// The methods of [`PullLaw`] shared by the two-arm laws whose event is a
/// staircase [`Event`] (Hybrid-UCB, DP-UCB, DP-UCB-Bound): the `2^{T−2}`
/// pull sequences after each arm's first pull, the event of one, and the
/// cost of its polyhedron.
macro_rules! staircase_pull_law {
    () => {
        type Event = $crate::bandit::law::hybrid_ucb::Event;
        fn sequence_count(&self, horizon: usize) -> Option<u64> {
            1u64.checked_shl(horizon.saturating_sub(2) as u32)
        }
        fn sequences(&self, horizon: usize) -> Vec<Vec<usize>> {
            $crate::bandit::law::anytime_lazy_ucb::pull_sequences(horizon)
        }
        fn sequence(&self, horizon: usize, index: u64) -> Option<Vec<usize>> {
            $crate::bandit::law::anytime_lazy_ucb::pull_sequence(horizon, index)
        }
        fn event(
            &self,
            pulls: &[usize],
            seen: &[$crate::num::Q],
        ) -> $crate::error::Result<Option<Self::Event>> {
            $crate::bandit::law::hybrid_ucb::Event::new(pulls, seen)
        }
        /// A law costs far more than Anytime-Lazy-UCB's (a Fourier–Motzkin
        /// integration: Hybrid-UCB's takes about 16 ms at T = 6, 43 ms at
        /// T = 7, 0.5 s at T = 8, release): 2^15 laws, so that T = 8 on
        /// {0, 1} (16384 laws) passes this count and the work estimate
        /// decides ([`PullLaw::law_work`]).
        fn max_laws(&self) -> u64 {
            1 << 15
        }
        /// `4^{T−2}/16` units a sequence (at least 1): the `2^{T−1}` sign
        /// cells of its `T − 1` variables, paired by each elimination.
        /// Measured (one core, rewards {0, 1}): Hybrid-UCB's law at T = 6,
        /// 7, 8 takes 0.95 s, 5.7 s, 59 s (release), 16, 64, 256 units a
        /// sequence at 2.8–3.6 ms a unit; DP-UCB-Bound's the same; DP-UCB's
        /// 0.36 s, 1.5 s, 7.4 s, 52 s at T = 6 to 9 (debug build, its
        /// dependencies optimised), within the estimate.
        fn work(&self, horizon: usize) -> Option<u128> {
            let exponent = 2 * u32::try_from(horizon.saturating_sub(2)).ok()?;
            let units = 1u128.checked_shl(exponent.saturating_sub(4))?;
            $crate::bandit::law::sequences_work(self.sequence_count(horizon), units)
        }
    };
}
pub(crate) use staircase_pull_law;

impl PullLaw for HybridLawParams {
    staircase_pull_law!();
    fn validate(&self) -> Result<()> {
        HybridLawParams::validate(self)
    }
    fn probability<R: Real>(&self, event: &Event, ctx: &R::Context) -> Result<R> {
        event.probability(self, ctx)
    }
    fn name(&self) -> &'static str {
        "hybrid-ucb"
    }
}
