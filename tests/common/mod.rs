//! Shared test helpers: chi-square goodness of fit, and running the binary.
#![allow(dead_code)]

use statrs::distribution::{ChiSquared, ContinuousCDF};
use std::process::{Command, Output};

/// Run the `dpdtol` binary with `args`.
pub fn dpdtol(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dpdtol"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Run `dpdtol` with `args`, which must succeed, and parse its stdout as
/// one JSON object.
pub fn json(args: &[&str]) -> serde_json::Value {
    let out = dpdtol(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON object")
}

/// Pearson's chi-square test of `observed` counts against `expected`
/// probabilities. Cells are merged, in order of increasing expected count,
/// until every merged cell expects at least 5. Returns the p-value.
pub fn chi_square_p_value(observed: &[u64], expected: &[f64]) -> f64 {
    assert_eq!(observed.len(), expected.len());
    let n: u64 = observed.iter().sum();
    let mut cells: Vec<(f64, f64)> = observed
        .iter()
        .zip(expected)
        .map(|(&o, &p)| (o as f64, p * n as f64))
        .collect();
    cells.sort_by(|a, b| a.1.total_cmp(&b.1));
    let mut merged: Vec<(f64, f64)> = Vec::new();
    let mut pending = (0.0, 0.0);
    for (o, e) in cells {
        pending = (pending.0 + o, pending.1 + e);
        if pending.1 >= 5.0 {
            merged.push(pending);
            pending = (0.0, 0.0);
        }
    }
    if pending.1 > 0.0 || pending.0 > 0.0 {
        match merged.last_mut() {
            Some(last) => *last = (last.0 + pending.0, last.1 + pending.1),
            None => merged.push(pending),
        }
    }
    if merged.len() < 2 {
        return 1.0;
    }
    let statistic: f64 = merged.iter().map(|(o, e)| (o - e) * (o - e) / e).sum();
    let dof = (merged.len() - 1) as f64;
    1.0 - ChiSquared::new(dof)
        .expect("positive degrees of freedom")
        .cdf(statistic)
}

/// `e^x` for an integer `x < 0` enclosed by its alternating Taylor series
/// `Σ_{n ≤ terms} x^n/n!` ± `slack` (the caller bounds the remainder,
/// `|x|^{terms+1}/(terms+1)!`, by `slack`): independent of the crate's exp.
pub fn exp_taylor(x: i64, terms: i64, slack: &str) -> (dpdtol::num::Q, dpdtol::num::Q) {
    use dpdtol::num::{parse_rational, Q};
    use num_traits::{One, Zero};
    let mut partial = Q::zero();
    let mut term = Q::one();
    for n in 0..=terms {
        partial += &term;
        term *= Q::new(x.into(), (n + 1).into());
    }
    let slack = parse_rational(slack).unwrap();
    (partial.clone() - &slack, partial + slack)
}
