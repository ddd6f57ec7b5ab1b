//! Samplers of report-noisy-max in f64, for simulation: they draw the noise
//! and take the argmax, exactly as the papers' pseudo-code does, and are
//! tested against the exact laws of [`super::law`] by chi-square tests.

use super::Noise;
use rand::Rng;
use rand_distr::{Distribution, Exp1, Gumbel};

/// One draw of noise of the given kind with scale `beta`.
///
/// Laplace(β) is drawn as `β·(E₁ − E₂)` with `E₁, E₂` i.i.d. standard
/// exponentials, which has density `e^{−|z|/β}/(2β)`.
pub fn noise<R: Rng + ?Sized>(noise: Noise, beta: f64, rng: &mut R) -> f64 {
    match noise {
        Noise::Gumbel => {
            let g: f64 = Gumbel::new(0.0, 1.0)
                .map(|d| d.sample(rng))
                .unwrap_or(f64::NAN);
            beta * g
        }
        Noise::Exponential => {
            let e: f64 = Exp1.sample(rng);
            beta * e
        }
        Noise::Laplace => {
            let (a, b): (f64, f64) = (Exp1.sample(rng), Exp1.sample(rng));
            beta * (a - b)
        }
    }
}

/// `argmax_i (−losses[i] + Z_i)` with `Z_i` i.i.d. noise of scale `beta`
/// (the first index on an exact tie, which has probability zero).
/// `losses` must not be empty.
pub fn report_noisy_max<R: Rng + ?Sized>(
    noise_kind: Noise,
    losses: &[f64],
    beta: f64,
    rng: &mut R,
) -> usize {
    let mut best = (0, f64::NEG_INFINITY);
    for (i, loss) in losses.iter().enumerate() {
        let score = -loss + noise(noise_kind, beta, rng);
        if score > best.1 {
            best = (i, score);
        }
    }
    best.0
}
