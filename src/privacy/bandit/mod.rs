//! The privacy checks of the bandit algorithms ([`crate::bandit`]) on every
//! pair of neighbouring reward tables over a finite alphabet:
//!
//! - [`exact`]: exhaustive, from the closed-form pull-sequence laws of
//!   [`crate::bandit::law`] (exact or certified ratios, a witness);
//! - [`setup`]: an exact check as it is run, reported and merged;
//! - [`audit_run`]: a statistical audit as it is run, reported and merged;
//! - [`sandwich`]: certified, from bounds on the laws of the private
//!   Thompson samplings (DP-TS, Lazy-DP-TS), a verdict or `undecided`;
//! - [`statistical`]: a statistical audit from simulated runs of a policy,
//!   for algorithms whose law this crate cannot give (Lazy-DP-TS) or gives
//!   only at a cost too high past small horizons (Hybrid-UCB).

pub mod audit_run;
pub mod exact;
pub mod sandwich;
pub mod setup;
pub mod statistical;
