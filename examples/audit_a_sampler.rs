//! Audit a black-box sampler's privacy: samples of its outputs on two
//! neighbouring inputs give a lower confidence bound on its ε, set beside
//! dpdtol's exact ratio for the same mechanism.
//!
//! Run: `cargo run --release --example audit_a_sampler`

use dpdtol::mechanism::{Noise, Scale};
use dpdtol::num::{Real, Q};
use dpdtol::oracle::audit::{audit, exact_ratios, AuditOptions};
use dpdtol::oracle::{sample, Target};

fn main() -> dpdtol::Result<()> {
    let q = |n: i64, d: i64| Q::new(n.into(), d.into());
    // Permute-and-flip (exponential noise) at scale 1: neighbours differ by
    // one unit in each loss.
    let scale = Scale::beta(q(1, 1))?;
    let x = Target::mechanism(
        Noise::Exponential,
        scale.clone(),
        vec![q(0, 1), q(1, 1), q(1, 1)],
    )?;
    let y = Target::mechanism(Noise::Exponential, scale, vec![q(1, 1), q(0, 1), q(1, 1)])?;
    // The "black box": here the crate's simulation of the mechanism; any
    // sampler's outputs do.
    let (sx, sy) = (
        sample::simulate(&x, 200_000, 1),
        sample::simulate(&y, 200_000, 2),
    );
    let report = audit(&sx, &sy, &AuditOptions::default())?;
    println!(
        "ε ≥ {:.4} with confidence {} (event {:?})",
        report.epsilon_lower, report.confidence, report.event
    );
    let (_, max) = exact_ratios(
        &x.law(Default::default())?,
        &y.law(Default::default())?,
        3,
        &report,
    )?;
    if let (Some(lo), Some(hi)) = (max.lo, max.hi) {
        println!(
            "exact: e^ε on this pair ∈ [{:.12}, {:.12}] ({}), ε ≈ {:.4}",
            lo.to_f64(),
            hi.to_f64(),
            max.kind.label(),
            lo.to_f64().ln()
        );
    }
    Ok(())
}
