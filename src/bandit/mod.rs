//! The private stochastic bandit algorithms of Hu et al. and their baselines
//! (the learner pulls one arm a round and sees only that arm's reward):
//!
//! - [`policy`]: the algorithms, the [`policy::Policy`] trait they share, and
//!   their f64 simulation;
//! - [`law`]: the exact (or certified) law of an algorithm's pull sequence on
//!   a fixed reward table, built from the policies' own schedules and
//!   decision rules.
//!
//! Their privacy checks, exact and statistical, are [`crate::privacy::bandit`];
//! the general mathematics the laws integrate with is [`crate::measure`].

pub mod law;
pub mod policy;
