//! The exponential mechanism (softmax), which is report-noisy-max with Gumbel
//! noise: with `Z_i ~ Gumbel(β)` i.i.d.,
//! `P(argmax_i (−L_i + Z_i) = r) = e^{−L_r/β} / Σ_i e^{−L_i/β}`
//! (McSherry & Talwar 2007; the Gumbel-max identity). Wu & Wang use it with
//! `Gumbel(2/ε)` (Algorithm 1, Q = Gumbel), Cesari & Colomboni with inverse
//! temperature `η = min{ε/2, 1/8}` (§4).

use crate::num::Real;

/// The softmax law of the weights `w_i = e^{−(L_i − L_min)/β}`:
/// `P(r) = w_r / Σ_i w_i`. The weights must not all be zero (the largest is 1
/// when they come from [`super::weights`]).
///
/// ```
/// use dpdtol::mechanism::softmax;
/// let p = softmax::law(&[1.0_f64, 1.0, 2.0]);
/// assert_eq!(p, vec![0.25, 0.25, 0.5]);
/// ```
pub fn law<R: Real>(weights: &[R]) -> Vec<R> {
    let Some(total) = crate::num::sum(weights.iter().cloned()) else {
        return Vec::new();
    };
    weights.iter().map(|w| w.clone() / &total).collect()
}

/// The weights `e^{−(L_i − L_min)/β}` of f64 losses, for simulation and the
/// f64 fast path (no rational arithmetic per action).
pub fn weights_f64(losses: &[f64], beta: f64) -> Vec<f64> {
    let min = losses.iter().copied().fold(f64::INFINITY, f64::min);
    losses.iter().map(|l| (-(l - min) / beta).exp()).collect()
}
