//! The noise of report-noisy-max and its scale ([`Noise`], [`Scale`]), and
//! the loss vector a selection acts on, through its gaps `L_i − L_min` and
//! their weights `e^{−(L_i − L_min)/β}`: what every selection law shares.

use crate::error::{Error, Result};
use crate::num::{Real, Q};
use num_traits::{One, Signed, Zero};
use std::fmt;
use std::str::FromStr;

/// The noise added to each score by report-noisy-max; reports name it
/// `gumbel`, `exponential` or `laplace`.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Noise {
    /// Gumbel noise of scale β: the exponential mechanism with η = 1/β.
    Gumbel,
    /// Exponential noise of scale β (mean β): permute-and-flip.
    Exponential,
    /// Laplace noise of scale β.
    Laplace,
}

impl Noise {
    /// All noises, in the order the command line lists them.
    pub const ALL: [Noise; 3] = [Noise::Gumbel, Noise::Exponential, Noise::Laplace];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Noise::Gumbel => "gumbel",
            Noise::Exponential => "exponential",
            Noise::Laplace => "laplace",
        }
    }
}

impl fmt::Display for Noise {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Noise {
    type Err = Error;
    fn from_str(s: &str) -> Result<Noise> {
        Noise::ALL
            .into_iter()
            .find(|n| n.name() == s)
            .ok_or_else(|| {
                Error::InvalidInput(format!(
                    "unknown noise '{s}' (expected gumbel, exponential or laplace)"
                ))
            })
    }
}

/// The scale β > 0 of a noise, given exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scale {
    /// β itself.
    Beta(Q),
    /// The weight `w = e^{−1/β} ∈ (0, 1)` of one unit of loss, so that
    /// `β = −1/ln w`. This is how an exact law is asked for.
    UnitWeight(Q),
}

impl Scale {
    /// The scale β; an error unless `β > 0`.
    pub fn beta(beta: Q) -> Result<Scale> {
        if beta.is_positive() {
            Ok(Scale::Beta(beta))
        } else {
            Err(Error::InvalidInput(format!(
                "the noise scale must be positive, got {beta}"
            )))
        }
    }

    /// The scale with unit weight `w = e^{−1/β}`; an error unless `0 < w < 1`.
    pub fn unit_weight(w: Q) -> Result<Scale> {
        if w.is_positive() && w < Q::one() {
            Ok(Scale::UnitWeight(w))
        } else {
            Err(Error::InvalidInput(format!(
                "the unit weight e^(-1/scale) must lie in (0, 1), got {w}"
            )))
        }
    }

    /// `e^{−x/β}` for a rational `x ≥ 0`, in the backend `R`.
    ///
    /// Exact backends succeed when the scale is a [`Scale::UnitWeight`] `w`
    /// and `w^x` is rational; otherwise they return
    /// [`Error::NotRepresentable`].
    pub fn weight<R: Real>(&self, x: &Q, ctx: &R::Context) -> Result<R> {
        if x.is_zero() {
            return Ok(R::from_int(1, ctx));
        }
        match self {
            Scale::Beta(beta) => R::from_rational(&(-x / beta), ctx).exp(),
            Scale::UnitWeight(w) => R::pow_rational(w, x, ctx),
        }
    }

    /// `1/β` in the backend `R` (`−ln w` for a unit weight, which no exact
    /// backend can represent).
    pub fn inverse<R: Real>(&self, ctx: &R::Context) -> Result<R> {
        match self {
            Scale::Beta(beta) => Ok(R::from_rational(&beta.recip(), ctx)),
            Scale::UnitWeight(w) => Ok(-R::from_rational(w, ctx).ln()?),
        }
    }

    /// β as a double, for samplers.
    pub fn to_f64(&self) -> f64 {
        match self {
            Scale::Beta(beta) => Real::to_f64(beta),
            Scale::UnitWeight(w) => -1.0 / Real::to_f64(w).ln(),
        }
    }
}

/// Check a loss vector: at least two actions, every loss finite (rationals
/// always are). Losses outside `[0,1]` are allowed: the mechanisms are
/// defined for any scores, and the online algorithms feed them sums.
pub fn check_losses(losses: &[Q]) -> Result<()> {
    if losses.len() < 2 {
        return Err(Error::InvalidInput(format!(
            "a selection needs at least 2 actions, got {}",
            losses.len()
        )));
    }
    Ok(())
}

/// The gaps `L_i − min_j L_j ≥ 0`.
pub fn gaps(losses: &[Q]) -> Vec<Q> {
    match losses.iter().min() {
        Some(min) => losses.iter().map(|l| l - min).collect(),
        None => Vec::new(),
    }
}

/// The weights `p_i = e^{−(L_i − L_min)/β} ∈ (0, 1]`, the largest equal to 1.
pub fn weights<R: Real>(losses: &[Q], scale: &Scale, ctx: &R::Context) -> Result<Vec<R>> {
    gaps(losses).iter().map(|g| scale.weight(g, ctx)).collect()
}
