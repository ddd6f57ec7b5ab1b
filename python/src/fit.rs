//! Goodness-of-fit of samples of an action sequence against its exact law.
//!
//! Under the law (module documentation of `dpdtol::algorithm`) a sample
//! plays one action throughout each choice's rounds, and the choices are
//! independent with the laws `P_c`. So the test is, in order:
//!
//! 1. **support**: every action in `0..K`, constant on each choice's rounds,
//!    of positive probability; the first sample that is not is reported, and
//!    any such sample rejects (no statistics are computed on it);
//! 2. **one Pearson chi-square per choice** on the counts of its action;
//! 3. **one Pearson chi-square on the joint law** of all choices (the product
//!    of the `P_c`, `K^C` cells, when at most [`MAX_JOINT_CELLS`]): it sees
//!    dependence between choices that the marginal tests cannot.
//!
//! Cells are pooled by a rule that depends on the law only: sorted by
//! expected count (ascending, ties by index), consecutive cells merge until
//! each group expects at least [`MIN_EXPECTED`]; a last group below it joins
//! the one before. Cells of probability exactly 0 are left out (a sample in
//! one is a support violation). The p-values (statrs' χ² survival function,
//! `groups − 1` degrees of freedom) are approximate, as the chi-square
//! approximation is; the expected counts use the f64 midpoints of the exact
//! or certified law (relative error below 10^−12). The sample is rejected
//! when a p-value is below `α / m` over the `m` tests (Bonferroni).

use crate::laws::{self, Laws};
use dpdtol::algorithm::{Algorithm, Choice, OnlineAlgorithm};
use dpdtol::num::{Real, Q};
use dpdtol::{Error, Result};
use num_traits::{One, Zero};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use statrs::distribution::{ChiSquared, ContinuousCDF};

/// The least expected count of a pooled cell.
pub const MIN_EXPECTED: f64 = 5.0;

/// The most cells of the joint test (else it is skipped, and says so).
pub const MAX_JOINT_CELLS: usize = 1 << 20;

/// The most actions one sample array may hold (8 bytes each).
pub const MAX_SAMPLE_CELLS: usize = 1 << 27;

/// The relative width of the law's enclosures the test asks for.
const LAW_DIGITS: u32 = 12;

/// One chi-square test.
#[derive(Clone, Debug)]
pub struct Test {
    /// `"choice c"` (0-based, in schedule order) or `"joint"`.
    pub name: String,
    /// Pearson's statistic.
    pub statistic: f64,
    /// Degrees of freedom (pooled groups − 1).
    pub df: usize,
    /// The (approximate) p-value; 1 when `df = 0`.
    pub p_value: f64,
}

/// The first sample outside the law's support.
#[derive(Clone, Debug)]
pub struct Violation {
    /// Its index (0-based row of the array).
    pub sample: usize,
    /// The round (1-based) where it leaves the support.
    pub round: usize,
    /// Why.
    pub reason: String,
}

/// The outcome of [`run`].
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The number of samples.
    pub n: usize,
    /// The law tested against.
    pub laws: Laws,
    /// The number of samples outside the support.
    pub violations: usize,
    /// The first of them.
    pub first_violation: Option<Violation>,
    /// The tests run (none when the support is violated).
    pub tests: Vec<Test>,
    /// Why the joint test was not run, if it was not.
    pub joint_skipped: Option<String>,
    /// The level α.
    pub alpha: f64,
    /// `α / m`.
    pub threshold: f64,
    /// Whether the sample is rejected.
    pub rejected: bool,
}

/// Test `samples` (`n` rows of `t` actions, 0-based, row-major) against the
/// law of `alg` on `losses` at level `alpha ∈ (0, 1)`.
pub fn run(
    alg: &Algorithm,
    losses: &[Vec<Q>],
    samples: &[i64],
    n: usize,
    t: usize,
    alpha: &Q,
) -> Result<Outcome> {
    check_alpha(alpha)?;
    if t != losses.len() {
        return Err(Error::InvalidInput(format!(
            "the samples have {t} columns (rounds) but the loss sequence has {} rounds",
            losses.len()
        )));
    }
    let laws = laws::sequence(alg, losses, LAW_DIGITS)?;
    test(laws, alg.actions(), samples, n, t, alpha)
}

/// Test `samples` (`n` actions, 0-based) of one report-noisy-max selection
/// against its law `laws` (one row, from [`laws::mechanism`]) at level
/// `alpha`: the one-round case of [`run`].
pub fn run_mechanism(mut laws: Laws, samples: &[i64], alpha: &Q) -> Result<Outcome> {
    check_alpha(alpha)?;
    let k = laws.rows.first().map_or(0, Vec::len);
    laws.schedule = Some(vec![Choice {
        plays: 1..2,
        reads: 1..1,
    }]);
    test(laws, k, samples, samples.len(), 1, alpha)
}

/// An error unless `0 < alpha < 1`.
fn check_alpha(alpha: &Q) -> Result<()> {
    if *alpha > Q::zero() && *alpha < Q::one() {
        Ok(())
    } else {
        Err(Error::InvalidInput(format!(
            "alpha must lie in (0, 1), got {alpha}"
        )))
    }
}

/// The support check and the tests of `samples` (`n` rows of `t` actions)
/// against `laws` over `k` actions.
fn test(laws: Laws, k: usize, samples: &[i64], n: usize, t: usize, alpha: &Q) -> Result<Outcome> {
    if n == 0 {
        return Err(Error::InvalidInput("there are no samples".into()));
    }
    let schedule = laws.schedule.clone().unwrap_or_default();
    let c = schedule.len();
    // The action of each choice of each sample, or the first violation.
    let mut chosen = Vec::with_capacity(n * c);
    let mut violations = 0;
    let mut first_violation = None;
    for (i, row) in samples.chunks_exact(t).enumerate() {
        let start = chosen.len();
        let found = schedule.iter().enumerate().find_map(|(j, choice)| {
            let plays = &row[choice.plays.start - 1..choice.plays.end - 1];
            let a = plays[0];
            let Some(a) = usize::try_from(a).ok().filter(|&a| a < k) else {
                return Some((choice.plays.start, format!("action {a} is not in 0..{k}")));
            };
            if let Some(pos) = plays.iter().position(|&x| x != plays[0]) {
                return Some((
                    choice.plays.start + pos,
                    format!(
                        "the action changes from {} to {} inside rounds {}..={} of choice {j}, which plays one action throughout",
                        plays[0],
                        plays[pos],
                        choice.plays.start,
                        choice.plays.end - 1
                    ),
                ));
            }
            if laws.rows[j][a].hi.is_zero() {
                return Some((
                    choice.plays.start,
                    format!("choice {j} selects action {a}, which has probability 0"),
                ));
            }
            chosen.push(a);
            None
        });
        if let Some((round, reason)) = found {
            chosen.truncate(start);
            violations += 1;
            first_violation.get_or_insert(Violation {
                sample: i,
                round,
                reason,
            });
        }
    }
    let alpha = Real::to_f64(alpha);
    let mut tests = Vec::new();
    let mut joint_skipped = None;
    if violations == 0 {
        let probs: Vec<Vec<f64>> = laws
            .rows
            .iter()
            .map(|row| row.iter().map(|e| e.approx).collect())
            .collect();
        for (j, p) in probs.iter().enumerate() {
            let mut counts = vec![0u64; k];
            for a in chosen.iter().skip(j).step_by(c) {
                counts[*a] += 1;
            }
            tests.push(chi_square(format!("choice {j}"), &counts, p, n));
        }
        match joint_cells(k, c) {
            Some(cells) if c >= 2 => {
                // Cell Σ_j a_j K^{C−1−j}: the first choice most significant,
                // as the counts below index it.
                let mut joint = vec![1.0f64];
                for p in &probs {
                    joint = joint
                        .iter()
                        .flat_map(|q| p.iter().map(move |x| q * x))
                        .collect();
                }
                let mut counts = vec![0u64; cells];
                for sample in chosen.chunks_exact(c) {
                    counts[sample.iter().fold(0, |acc, &a| acc * k + a)] += 1;
                }
                tests.push(chi_square("joint".into(), &counts, &joint, n));
            }
            Some(_) => joint_skipped = Some("one choice only: the joint law is its law".into()),
            None => {
                joint_skipped = Some(format!(
                    "K^C = {k}^{c} cells is over the limit of {MAX_JOINT_CELLS}"
                ))
            }
        }
    }
    let threshold = alpha / tests.len().max(1) as f64;
    let rejected = violations > 0 || tests.iter().any(|x| x.p_value < threshold);
    Ok(Outcome {
        n,
        laws,
        violations,
        first_violation,
        tests,
        joint_skipped,
        alpha,
        threshold,
        rejected,
    })
}

/// `K^C` if at most [`MAX_JOINT_CELLS`].
fn joint_cells(k: usize, c: usize) -> Option<usize> {
    let c = u32::try_from(c).ok()?;
    k.checked_pow(c).filter(|&x| x <= MAX_JOINT_CELLS)
}

/// Pearson's chi-square of `counts` against `probs` (`n` samples), with the
/// pooling rule of the module documentation.
fn chi_square(name: String, counts: &[u64], probs: &[f64], n: usize) -> Test {
    let n = n as f64;
    let mut order: Vec<usize> = (0..probs.len()).filter(|&i| probs[i] > 0.0).collect();
    order.sort_by(|&a, &b| probs[a].total_cmp(&probs[b]).then(a.cmp(&b)));
    // (observed, expected) per group.
    let mut groups: Vec<(f64, f64)> = Vec::new();
    let mut open = (0.0, 0.0);
    for i in order {
        open.0 += counts[i] as f64;
        open.1 += n * probs[i];
        if open.1 >= MIN_EXPECTED {
            groups.push(open);
            open = (0.0, 0.0);
        }
    }
    if open.1 > 0.0 {
        match groups.last_mut() {
            Some(last) => {
                last.0 += open.0;
                last.1 += open.1;
            }
            None => groups.push(open),
        }
    }
    let statistic: f64 = groups.iter().map(|(o, e)| (o - e) * (o - e) / e).sum();
    let df = groups.len().saturating_sub(1);
    let p_value = if df == 0 {
        1.0
    } else {
        ChiSquared::new(df as f64).map_or(f64::NAN, |d| d.sf(statistic))
    };
    Test {
        name,
        statistic,
        df,
        p_value,
    }
}

impl Outcome {
    /// The outcome as a dict (see the Python package's `gof`).
    pub fn into_dict(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let d = PyDict::new(py);
        d.set_item("n", self.n)?;
        d.set_item("support_violations", self.violations)?;
        let first = match &self.first_violation {
            Some(v) => {
                let f = PyDict::new(py);
                f.set_item("sample", v.sample)?;
                f.set_item("round", v.round)?;
                f.set_item("reason", &v.reason)?;
                Some(f)
            }
            None => None,
        };
        d.set_item("first_violation", first)?;
        let tests = self
            .tests
            .iter()
            .map(|x| {
                let t = PyDict::new(py);
                t.set_item("name", &x.name)?;
                t.set_item("statistic", x.statistic)?;
                t.set_item("df", x.df)?;
                t.set_item("p_value", x.p_value)?;
                Ok(t)
            })
            .collect::<PyResult<Vec<_>>>()?;
        d.set_item("tests", tests)?;
        d.set_item("joint_skipped", self.joint_skipped)?;
        d.set_item(
            "p_min",
            self.tests.iter().map(|x| x.p_value).fold(1.0, f64::min),
        )?;
        d.set_item("alpha", self.alpha)?;
        d.set_item("threshold", self.threshold)?;
        d.set_item("rejected", self.rejected)?;
        d.set_item("law", self.laws.into_dict(py)?)?;
        Ok(d.into_any().unbind())
    }
}
