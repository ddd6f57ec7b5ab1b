//! The two-sample test: are two files of sequences draws from one law?
//!
//! Where no exact or certified law exists (Lazy-DP-TS,
//! [`super::bandit`]), a user's samples are held against dpdtol's own
//! simulation of the algorithm instead ([`super::bandit::simulate`]). This
//! is weaker than [`super::gof`] and says so: the reference is itself a
//! sample (of the f64 simulation, approximate), and a rejection means the
//! two samplers differ, not which one is wrong.
//!
//! **Test**: Pearson's chi-square of homogeneity on the `2 × m` table of
//! the counts of the `m` distinct sequences seen in either file. Cells are
//! sorted by their combined count, ascending, and merged greedily into
//! groups whose expected counts are ≥ 5 in both rows; a last group short of
//! that joins the previous one; `df = groups − 1`; the p-value is statrs's
//! chi-square survival function (approximate).
//!
//! **Power**: with `n₁`, `n₂` samples of laws `p`, `q` at total-variation
//! distance `D`, the noncentrality is
//! `λ = n₁n₂/(n₁+n₂) Σ (p_i − q_i)²/m_i ≥ 4D² n₁n₂/(n₁+n₂)` (Cauchy–Schwarz,
//! `m` the pooled law), `2nD²` for equal sizes `n`. So the test rejects with
//! probability at least `power` once `n ≥ λ*/(2D²)` on each side, `λ*` as in
//! [`super::gof::noncentrality_for_power`] (asymptotic, unpooled cells).

use super::gof::{noncentrality_for_power, ChiSquareTest, GofOptions};
use super::sample::Samples;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use statrs::distribution::{ChiSquared, ContinuousCDF};
use std::collections::HashMap;

/// The outcome of [`homogeneity`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TwoSample {
    /// The size of the reference sample.
    pub n_reference: usize,
    /// The size of the sample tested.
    pub n: usize,
    /// The chi-square test of homogeneity (`cells`: the distinct sequences;
    /// `n_for_tv`: the size of each sample that detects the distance).
    pub test: ChiSquareTest,
    /// Whether the two samples are rejected as draws of one law at level α.
    pub reject: bool,
}

/// Test whether `samples` and `reference` (sequences of the same length)
/// are draws from one law.
pub fn homogeneity(
    reference: &Samples,
    samples: &Samples,
    options: &GofOptions,
) -> Result<TwoSample> {
    options.check()?;
    if reference.cols() != samples.cols() {
        return Err(Error::InvalidInput(format!(
            "the samples have {} rounds, the reference {}",
            samples.cols(),
            reference.cols()
        )));
    }
    let (n_r, n_s) = (reference.rows(), samples.rows());
    if n_r == 0 || n_s == 0 {
        return Err(Error::InvalidInput("there are no samples".into()));
    }
    let mut counts: HashMap<&[u32], (u64, u64)> = HashMap::new();
    for i in 0..n_r {
        counts.entry(reference.row(i)).or_default().0 += 1;
    }
    for i in 0..n_s {
        counts.entry(samples.row(i)).or_default().1 += 1;
    }
    let mut cells: Vec<(u64, u64)> = counts.into_values().collect();
    cells.sort_by_key(|&(a, b)| (a + b, a));
    let total = (n_r + n_s) as f64;
    let (share_r, share_s) = (n_r as f64 / total, n_s as f64 / total);
    let enough = |(a, b): (u64, u64)| {
        let c = (a + b) as f64;
        c * share_r >= 5.0 && c * share_s >= 5.0
    };
    let mut groups: Vec<(u64, u64)> = Vec::new();
    let mut open = (0, 0);
    for (a, b) in &cells {
        open = (open.0 + a, open.1 + b);
        if enough(open) {
            groups.push(open);
            open = (0, 0);
        }
    }
    if open != (0, 0) {
        match groups.last_mut() {
            Some(last) => *last = (last.0 + open.0, last.1 + open.1),
            None => groups.push(open),
        }
    }
    let statistic: f64 = groups
        .iter()
        .map(|&(a, b)| {
            let c = (a + b) as f64;
            let (e_r, e_s) = (c * share_r, c * share_s);
            (a as f64 - e_r).powi(2) / e_r + (b as f64 - e_s).powi(2) / e_s
        })
        .sum();
    let df = groups.len().saturating_sub(1);
    let p_value = match ChiSquared::new(df as f64) {
        Ok(chi) if df > 0 => chi.sf(statistic),
        _ => 1.0,
    };
    let n_for_tv = options.tv.and_then(|d| {
        noncentrality_for_power(cells.len().saturating_sub(1), options.alpha, options.power)
            .map(|lambda| (lambda / (2.0 * d * d)).ceil())
    });
    Ok(TwoSample {
        n_reference: n_r,
        n: n_s,
        test: ChiSquareTest {
            cells: cells.len(),
            groups: groups.len(),
            statistic,
            df,
            p_value,
            n_for_tv,
            rare_cells: None,
        },
        reject: p_value < options.alpha,
    })
}
