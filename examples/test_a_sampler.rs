//! Test your own sampler against the exact law: here a fast report-noisy-max
//! written from scratch (Gumbel noise = the exponential mechanism) with a
//! planted bug — the noise scale halved — which `gof` rejects, while the
//! correct version passes.
//!
//! Run: `cargo run --release --example test_a_sampler`

use dpdtol::mechanism::{Noise, Scale};
use dpdtol::num::Q;
use dpdtol::oracle::gof::{gof, GofOptions};
use dpdtol::oracle::sample::sample_with;
use dpdtol::oracle::Target;
use rand::Rng;

/// argmax_i (−loss_i + β·G_i), G_i standard Gumbel = −ln(−ln U).
fn my_sampler<R: Rng + ?Sized>(losses: &[f64], beta: f64, rng: &mut R) -> usize {
    let mut best = (0, f64::NEG_INFINITY);
    for (i, l) in losses.iter().enumerate() {
        let u: f64 = rng.random_range(f64::MIN_POSITIVE..1.0);
        let score = -l + beta * -(-u.ln()).ln();
        if score > best.1 {
            best = (i, score);
        }
    }
    best.0
}

fn main() -> dpdtol::Result<()> {
    let q = |n: i64, d: i64| Q::new(n.into(), d.into());
    let losses = vec![q(0, 1), q(1, 2), q(1, 1), q(2, 1)];
    let target = Target::mechanism(Noise::Gumbel, Scale::beta(q(1, 1))?, losses.clone())?;
    let law = target.law(Default::default())?;
    let f: Vec<f64> = losses.iter().map(dpdtol::num::Real::to_f64).collect();
    for (name, beta) in [("correct", 1.0), ("scale halved", 0.5)] {
        let samples = sample_with(100_000, 1, 7, |rng| vec![my_sampler(&f, beta, rng)]);
        let report = gof(&law, &samples, &GofOptions::default())?;
        println!(
            "{name}: p = {:.3e}, {}",
            report.per_choice[0].p_value,
            if report.reject {
                "rejected"
            } else {
                "consistent with the law"
            }
        );
    }
    Ok(())
}
