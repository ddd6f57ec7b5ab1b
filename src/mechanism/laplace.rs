//! Report-noisy-max with Laplace noise (placeholder, being written).

use crate::error::{Error, Result};
use crate::num::{Real, Q};
use super::Scale;

/// The law of report-noisy-max with Laplace noise.
pub fn law<R: Real>(_losses: &[Q], _scale: &Scale, _ctx: &R::Context) -> Result<Vec<R>> {
    Err(Error::NotRepresentable("laplace law in progress".into()))
}
