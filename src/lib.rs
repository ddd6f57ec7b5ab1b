//! # dpdtol
//!
//! A formally checked reference implementation, with exact arithmetic, of the
//! algorithms and claims of four papers on differentially private stochastic
//! decision-theoretic online learning (K actions, full-information losses in
//! `[0,1]^K`, event-level pure ε-DP).
//!
//! Every number is exact (a rational), certified (an interval that provably
//! contains the true value), or labelled approximate (f64 simulation); see
//! [`num::Kind`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod algorithm;
pub mod bandit;
#[cfg(feature = "cli")]
pub mod cli;
pub mod error;
pub mod measure;
pub mod mechanism;
pub mod num;
pub mod oracle;
pub mod privacy;
pub(crate) mod progress;
#[path = "../proofs/mod.rs"]
pub mod proofs;
pub mod regret;
pub mod report;
pub mod size;
pub mod verify;

pub use error::{Error, Result};
