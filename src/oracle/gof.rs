//! Goodness-of-fit of anyone's samples of an action sequence against the
//! exact (or certified) law.
//!
//! 1. **Support.** Every sample must be a possible sequence: each action
//!    below K, constant on every choice's rounds, and never an action whose
//!    probability is certainly zero. The first offending sample is reported
//!    and the test rejects.
//! 2. **Per-choice tests.** For choice `c`, the counts of the action it
//!    played against `n · P_c(a)`: Pearson's chi-square.
//! 3. **Joint test.** The choices are independent given the losses, so the
//!    joint law of all choices is the product of theirs: Pearson's
//!    chi-square over the `K^C` joint cells (when at most
//!    [`GofOptions::max_joint_cells`]).
//!
//! **Pooling rule** (every test): cells of probability certainly zero are
//! left out (they are the support check's); the others are sorted by
//! expected count, ascending, and merged greedily in that order into groups
//! of expected count ≥ 5; a last group below 5 joins the previous one. With
//! `g ≥ 2` groups the statistic has `g − 1` degrees of freedom. One group
//! (`df = 0`) leaves the statistic nothing to test: then, with two cells or
//! more, the p-value is the exact two-sided binomial test of the count `o`
//! outside the likeliest cell, `X ~ Bin(n, q)` with `q` their probability:
//! `min(1, 2·min(P(X ≥ o), P(X ≤ o)))` (so that samples piled on cells of
//! tiny probability are rejected, and so are samples all on the likeliest
//! cell when that is unlikely: ten on a cell of probability 0.35,
//! `0.35^10`); with one cell, p = 1.
//!
//! **Rare cells.** Pooling adds a cell of expected count below 5 to others,
//! so an excess on it is lost in their sum: one sample on a cell of
//! probability `10⁻⁴⁰` beside groups of hundreds is overwhelming evidence
//! that the statistic cannot see. So whenever a test has three cells or
//! more and some of expected count `n·p_i < 5` (its *rare* cells `R`; with
//! two cells a rare cell is never summed with another: its count is the one
//! the one-group test already tests), a second test runs on `R` alone. Each
//! rare count `O_i ~ Bin(n, p_i)` has the one-sided exact tail
//! `S_i(o) = P(Bin(n, p_i) ≥ o)`; the statistic is the smallest observed
//! tail `t = min_{i∈R} S_i(O_i)`, and its p-value the discrete Bonferroni
//! bound (P. H. Westfall, R. D. Wolfinger, *Multiple tests with discrete
//! distributions*, The American Statistician 51(1), 1997)
//! `p = min(1, Σ_{i∈R} max{S_i(c) : c ∈ ℕ, S_i(c) ≤ t})`. It is valid at
//! every `n` (no asymptotics): under the law,
//! `P(min_i S_i(O_i) ≤ t) ≤ Σ_i P(S_i(O_i) ≤ t)`, and
//! `P(S_i(O_i) ≤ t) = S_i(c_i)` for the smallest count `c_i` whose tail is at
//! most `t` (`S_i` decreases), the term of the sum; so `P(p ≤ u) ≤ u` for
//! every `u`. Each term is at most `t`, so `p ≤ |R|·t` (plain Bonferroni
//! over the rare cells), and a cell too unlikely to be observed at all adds
//! only its `S_i(1) = 1 − (1 − p_i)^n`: many cells of tiny expected count
//! cost the test almost nothing. With equal `p_i` it is the union bound on
//! the largest rare count, `|R|·P(Bin(n, p) ≥ max_i O_i)`. The cell of tail
//! `t` is named: where the samples depart.
//!
//! **Multiple testing**: Bonferroni over the `m` tests run (the per-choice
//! chi-squares and the joint one, and the rare-cell test of each that has
//! rare cells; which tests run depends on the law and `n` only, never on
//! the counts): the sample is rejected when the support check fails or some
//! p-value is below `α/m`. Under the law, the probability of a rejection is
//! then at most α (asymptotically: the chi-square p-values are
//! approximations for large expected counts; the rare-cell ones are exact
//! bounds).
//!
//! **Numbers**: the statistics and p-values are f64 (`kind: approximate`);
//! the chi-square survival function is statrs's regularized incomplete
//! gamma function, the binomial tails its regularized incomplete beta
//! function (`P(Bin(n, p) ≥ c) = I_p(c, n − c + 1)`). Expected counts use the midpoints of the law's
//! enclosures, which are far narrower than f64's precision.
//!
//! **Detectable total variation.** For a test over `k` cells of positive
//! probability, an alternative `q` at total-variation distance `D` from the
//! law `p` has Pearson noncentrality `λ = n Σ (q_i − p_i)²/p_i ≥ 4nD²`
//! (Cauchy–Schwarz: `(Σ|q_i − p_i|)² ≤ Σ (q_i − p_i)²/p_i · Σ p_i`). So
//! the test at level `α/m` with `k − 1` degrees of freedom rejects every
//! such alternative with probability at least `power` once
//! `n ≥ λ*/(4D²)`, `λ*` the noncentrality at which the noncentral
//! chi-square exceeds the critical value with probability `power`
//! (asymptotic, and for the unpooled cells: pooling can hide a difference
//! between cells it merges).

use super::sample::Samples;
use crate::algorithm::BestSequenceLaw;
use crate::error::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use statrs::distribution::{ChiSquared, ContinuousCDF};

/// The parameters of [`gof`].
#[derive(Clone, Debug, PartialEq)]
pub struct GofOptions {
    /// The family-wise level α of the test (default 10⁻³).
    pub alpha: f64,
    /// A total-variation distance `D` for which to report the sample size
    /// that detects it.
    pub tv: Option<f64>,
    /// The power of that detection (default 0.9).
    pub power: f64,
    /// The largest number of joint cells `K^C` for the joint test (default
    /// 2²⁰); beyond it the joint test is skipped and says so.
    pub max_joint_cells: u64,
    /// The number of the first action in messages, 0 or 1 (default 1, as
    /// the papers and the command line number them); the samples
    /// themselves are read 0-based.
    pub base: u32,
}

impl Default for GofOptions {
    fn default() -> Self {
        GofOptions {
            alpha: 1e-3,
            tv: None,
            power: 0.9,
            max_joint_cells: 1 << 20,
            base: 1,
        }
    }
}

impl GofOptions {
    /// An error unless α and the power lie in (0, 1) and the distance in
    /// (0, 1].
    pub fn check(&self) -> Result<()> {
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err(Error::InvalidInput(format!(
                "alpha must lie in (0, 1), got {}",
                self.alpha
            )));
        }
        if !(self.power > 0.0 && self.power < 1.0) {
            return Err(Error::InvalidInput(format!(
                "the power must lie in (0, 1), got {}",
                self.power
            )));
        }
        if let Some(d) = self.tv {
            if !(d > 0.0 && d <= 1.0) {
                return Err(Error::InvalidInput(format!(
                    "the total-variation distance must lie in (0, 1], got {d}"
                )));
            }
        }
        Ok(())
    }
}

/// The first sample outside the law's support.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SupportViolation {
    /// The sample's row (0-based).
    pub sample: usize,
    /// What is wrong with it.
    pub reason: String,
}

/// One Pearson chi-square test after pooling.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChiSquareTest {
    /// The cells of positive probability before pooling.
    pub cells: usize,
    /// The groups after pooling.
    pub groups: usize,
    /// Pearson's statistic `Σ (O − E)²/E` over the groups.
    pub statistic: f64,
    /// Degrees of freedom, `groups − 1`.
    pub df: usize,
    /// The asymptotic p-value (1 when there is nothing to test).
    pub p_value: f64,
    /// The sample size that detects a total-variation distance
    /// [`GofOptions::tv`] with probability [`GofOptions::power`].
    pub n_for_tv: Option<f64>,
    /// The test of the cells of expected count below 5 on their own (null
    /// when pooling hides none: fewer than three cells, or none rare).
    #[serde(default)]
    pub rare_cells: Option<RareCellTest>,
}

impl ChiSquareTest {
    /// The number of tests it runs: the chi-square, and the rare-cell test
    /// when there is one.
    pub fn tests(&self) -> usize {
        1 + usize::from(self.rare_cells.is_some())
    }

    /// Whether one of its tests has a p-value below `level`.
    pub fn rejects(&self, level: f64) -> bool {
        self.p_value < level || self.rare_cells.as_ref().is_some_and(|r| r.p_value < level)
    }
}

/// The expected count below which a cell is pooled with others (and is
/// rare).
const POOLED_BELOW: f64 = 5.0;

/// The exact test of the rare cells of a pooled test: the smallest
/// binomial tail among them, with its discrete Bonferroni p-value (the
/// module documentation's "Rare cells").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RareCellTest {
    /// The rare cells: those of expected count below 5.
    pub cells: usize,
    /// The p-value `min(1, Σ_i max{S_i(c) ≤ t})`, `t` the smallest tail
    /// (exact up to f64 rounding; 1 when no rare cell was observed).
    pub p_value: f64,
    /// The observed rare cell of smallest tail (null when no rare cell was
    /// observed).
    pub extreme: Option<RareCell>,
}

/// One rare cell and its upper binomial tail.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RareCell {
    /// The cell, numbered from the report's base: the action of a choice;
    /// one action per choice for the joint test; a pull sequence for a
    /// bandit.
    pub cell: Vec<usize>,
    /// Its count in the samples.
    pub observed: u64,
    /// Its expected count, `n · P(cell)`.
    pub expected: f64,
    /// `P(Bin(n, P(cell)) ≥ observed)`.
    pub tail: f64,
}

/// Where the samples depart first from the law: among the cells of every
/// round (a bandit's pull prefixes `a_1 … a_t`), the standardized residual
/// `r = (O − E)/√E` of each, significant when `|r|` exceeds the two-sided
/// normal quantile `z = Φ⁻¹(1 − α/(2m))`, Bonferroni over the `m` cells of
/// positive probability of all rounds. The departure is the cell of largest
/// `|r|` at the first round with a significant cell, or of largest `|r|`
/// overall (the first round on a tie) when none is significant. A sample
/// outside the support departs at the first round its prefix has
/// probability 0 (`E = 0`, no residual).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Departure {
    /// The round, from 1.
    pub round: usize,
    /// The cell: the actions (pulls) of rounds 1 to `round`, numbered from
    /// the report's base.
    pub cell: Vec<usize>,
    /// Its count in the samples.
    pub observed: u64,
    /// Its expected count, `n · P(cell)`.
    pub expected: f64,
    /// `(O − E)/√E`; null when `E = 0`.
    pub residual: Option<f64>,
    /// The threshold `z` on `|r|`.
    pub threshold: f64,
    /// Whether `|r| > z` (always, when `E = 0`).
    pub significant: bool,
}

impl Departure {
    /// The departure among `cells`, each `(round, cell, observed, expected)`
    /// with `expected > 0`, at family-wise level `alpha`.
    pub fn among(cells: &[(usize, Vec<usize>, u64, f64)], alpha: f64) -> Option<Departure> {
        let m = cells.len().max(1) as f64;
        let threshold = statrs::distribution::Normal::new(0.0, 1.0)
            .map_or(f64::INFINITY, |z| z.inverse_cdf(1.0 - alpha / (2.0 * m)));
        let residual = |(_, _, o, e): &(usize, Vec<usize>, u64, f64)| (*o as f64 - e) / e.sqrt();
        let first_significant = cells
            .iter()
            .filter(|c| residual(c).abs() > threshold)
            .map(|c| c.0)
            .min();
        let pool = cells
            .iter()
            .filter(|c| first_significant.is_none_or(|round| c.0 == round));
        let best = pool.fold(
            None::<&(usize, Vec<usize>, u64, f64)>,
            |best, c| match best {
                Some(b)
                    if residual(b).abs() > residual(c).abs()
                        || (residual(b).abs() == residual(c).abs() && b.0 <= c.0) =>
                {
                    Some(b)
                }
                _ => Some(c),
            },
        )?;
        let r = residual(best);
        Some(Departure {
            round: best.0,
            cell: best.1.clone(),
            observed: best.2,
            expected: best.3,
            residual: Some(r),
            threshold,
            significant: r.abs() > threshold,
        })
    }

    /// The departure numbered from `base`.
    pub fn based(mut self, base: u32) -> Departure {
        for a in &mut self.cell {
            *a += base as usize;
        }
        self
    }
}

impl std::fmt::Display for Departure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cell: Vec<String> = self.cell.iter().map(ToString::to_string).collect();
        write!(
            f,
            "{} at round {}: the cell {} (rounds 1–{}) observed {}, expected {:.1}",
            if self.significant {
                "departs first"
            } else {
                "departs most (not significantly)"
            },
            self.round,
            cell.join(","),
            self.round,
            self.observed,
            self.expected
        )?;
        match self.residual {
            Some(r) => write!(
                f,
                ", standardized residual {r:.2} (threshold ±{:.2})",
                self.threshold
            ),
            None => write!(f, ", probability 0"),
        }
    }
}

/// The outcome of [`gof`].
#[derive(Clone, Debug, PartialEq)]
pub struct GofReport {
    /// The number of samples.
    pub n: usize,
    /// The first sample outside the support, if any.
    pub support_violation: Option<SupportViolation>,
    /// One test per choice, in schedule order (empty after a support
    /// violation).
    pub per_choice: Vec<ChiSquareTest>,
    /// The joint test, unless skipped.
    pub joint: Option<ChiSquareTest>,
    /// Why the joint test was skipped, if it was.
    pub joint_skipped: Option<String>,
    /// The number `m` of tests run: the chi-square tests and their
    /// rare-cell tests.
    pub tests: usize,
    /// The per-test level `α/m` (Bonferroni).
    pub per_test_alpha: f64,
    /// Whether the samples are rejected at level α.
    pub reject: bool,
}

/// The number of tests [`chi_square_test`] runs on `probabilities` with
/// `n` samples: the chi-square, and the rare-cell test when there are three
/// cells or more and some of expected count below 5. It depends on the law
/// and `n` alone, so Bonferroni's `m` is fixed before the counts are read.
pub fn tests_run(probabilities: &[f64], n: usize) -> usize {
    1 + usize::from(has_rare_cells(probabilities, n))
}

/// Whether pooling sums a cell of expected count below 5 with others: three
/// cells or more, one of them rare.
fn has_rare_cells(probabilities: &[f64], n: usize) -> bool {
    probabilities.len() >= 3 && probabilities.iter().any(|&p| p * (n as f64) < POOLED_BELOW)
}

/// The pooled Pearson test of `observed` against `probabilities` (cells of
/// probability zero already removed) for `n` samples, at the level
/// `per_test_alpha`, with the sample size that detects `options.tv`, and the
/// rare-cell test when pooling hides a rare cell, `cell(i)` naming cell `i`
/// (the module documentation's rules).
pub fn chi_square_test(
    observed: &[u64],
    probabilities: &[f64],
    n: usize,
    per_test_alpha: f64,
    options: &GofOptions,
    cell: impl Fn(usize) -> Vec<usize>,
) -> ChiSquareTest {
    let cells = probabilities.len();
    let (groups, statistic, df, p_value) = pearson(observed, probabilities, n);
    let rare_cells = has_rare_cells(probabilities, n)
        .then(|| rare_cell_test(observed, probabilities, n as u64, cell));
    let n_for_tv = options.tv.and_then(|d| {
        noncentrality_for_power(cells.saturating_sub(1), per_test_alpha, options.power)
            .map(|lambda| (lambda / (4.0 * d * d)).ceil())
    });
    ChiSquareTest {
        cells,
        groups,
        statistic,
        df,
        p_value,
        n_for_tv,
        rare_cells,
    }
}

/// `P(Bin(n, p) ≥ c)`: `I_p(c, n − c + 1)`, 1 for `c = 0` and 0 past `n`
/// (1, which never rejects, should statrs refuse `p`).
fn upper_tail(n: u64, p: f64, c: u64) -> f64 {
    match c {
        0 => 1.0,
        c if c > n => 0.0,
        c => {
            statrs::function::beta::checked_beta_reg(c as f64, (n - c + 1) as f64, p).unwrap_or(1.0)
        }
    }
}

/// `max{S(c) : c ∈ ℕ, S(c) ≤ t}` for `S(c) = P(Bin(n, p) ≥ c)`: the
/// probability that the tail of a cell's count is at most `t`, the term of
/// the discrete Bonferroni sum (`S` decreases from `S(0) = 1` to
/// `S(n + 1) = 0`: the first `c` with `S(c) ≤ t` by doubling, then
/// bisection; a rare cell's `c` is small).
fn attainable_at_most(n: u64, p: f64, t: f64) -> f64 {
    if t >= 1.0 {
        return 1.0;
    }
    // Most rare cells are settled by their first count.
    let first = upper_tail(n, p, 1);
    if first <= t {
        return first;
    }
    // S(lo) > t ≥ S(hi).
    let (mut lo, mut hi) = (1, 2.min(n + 1));
    while upper_tail(n, p, hi) > t {
        lo = hi;
        hi = (2 * hi).min(n + 1);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if upper_tail(n, p, mid) <= t {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    upper_tail(n, p, hi)
}

/// The rare-cell test of `observed` against `probabilities` for `n`
/// samples (the module documentation's "Rare cells"), `cell(i)` naming
/// cell `i`.
fn rare_cell_test(
    observed: &[u64],
    probabilities: &[f64],
    n: u64,
    cell: impl Fn(usize) -> Vec<usize>,
) -> RareCellTest {
    let rare: Vec<usize> = (0..probabilities.len())
        .filter(|&i| probabilities[i] * (n as f64) < POOLED_BELOW)
        .collect();
    let extreme = rare
        .iter()
        .filter(|&&i| observed[i] > 0)
        .map(|&i| (i, upper_tail(n, probabilities[i], observed[i])))
        .min_by(|a, b| a.1.total_cmp(&b.1));
    let Some((i, t)) = extreme else {
        return RareCellTest {
            cells: rare.len(),
            p_value: 1.0,
            extreme: None,
        };
    };
    // Cells of one probability add one term each: computed once.
    let mut by_probability: Vec<f64> = rare.iter().map(|&i| probabilities[i]).collect();
    by_probability.sort_by(f64::total_cmp);
    let mut sum = 0.0;
    let mut last = None;
    for p in by_probability {
        let term = match last {
            Some((q, term)) if q == p => term,
            _ => attainable_at_most(n, p, t),
        };
        last = Some((p, term));
        sum += term;
        if sum >= 1.0 {
            break;
        }
    }
    RareCellTest {
        cells: rare.len(),
        p_value: sum.min(1.0),
        extreme: Some(RareCell {
            cell: cell(i),
            observed: observed[i],
            expected: probabilities[i] * n as f64,
            tail: t,
        }),
    }
}

/// The pooled Pearson test of `observed` against `probabilities` (cells of
/// probability zero already removed) for `n` samples.
fn pearson(observed: &[u64], probabilities: &[f64], n: usize) -> (usize, f64, usize, f64) {
    let n = n as f64;
    let mut cells: Vec<(f64, f64)> = probabilities
        .iter()
        .zip(observed)
        .map(|(&p, &o)| (p * n, o as f64))
        .collect();
    cells.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut groups: Vec<(f64, f64)> = Vec::new();
    let mut open = (0.0, 0.0);
    for (e, o) in cells {
        open = (open.0 + e, open.1 + o);
        if open.0 >= 5.0 {
            groups.push(open);
            open = (0.0, 0.0);
        }
    }
    if open.0 > 0.0 || open.1 > 0.0 {
        match groups.last_mut() {
            Some(last) => *last = (last.0 + open.0, last.1 + open.1),
            None => groups.push(open),
        }
    }
    let statistic: f64 = groups.iter().map(|(e, o)| (o - e) * (o - e) / e).sum();
    let df = groups.len().saturating_sub(1);
    let p_value = match ChiSquared::new(df as f64) {
        Ok(chi) if df > 0 => chi.sf(statistic),
        _ => outside_likeliest_tail(observed, probabilities, n as u64),
    };
    (groups.len(), statistic, df, p_value)
}

/// `min(1, 2·min(P(X ≥ o), P(X ≤ o)))` for `X ~ Bin(n, q)`, `o` the
/// samples outside the likeliest cell and `q` the probability of those
/// cells: the two-sided test of one pooled group (1 for a single cell).
fn outside_likeliest_tail(observed: &[u64], probabilities: &[f64], n: u64) -> f64 {
    let Some(likeliest) =
        (0..probabilities.len()).max_by(|&i, &j| probabilities[i].total_cmp(&probabilities[j]))
    else {
        return 1.0;
    };
    let outside = |i: &usize| *i != likeliest;
    let count: u64 = (0..observed.len())
        .filter(outside)
        .map(|i| observed[i])
        .sum();
    let q: f64 = (0..probabilities.len())
        .filter(outside)
        .map(|i| probabilities[i])
        .sum();
    let Ok(binomial) = statrs::distribution::Binomial::new(q.clamp(0.0, 1.0), n) else {
        return 1.0;
    };
    use statrs::distribution::DiscreteCDF;
    let at_least = match count {
        0 => 1.0,
        _ => binomial.sf(count - 1),
    };
    let at_most = binomial.cdf(count);
    (2.0 * at_least.min(at_most)).min(1.0)
}

/// The noncentrality `λ*` at which a noncentral chi-square with `df`
/// degrees of freedom exceeds the level-`level` critical value with
/// probability `power` (bisection on the Poisson mixture of central
/// chi-squares; approximate).
pub fn noncentrality_for_power(df: usize, level: f64, power: f64) -> Option<f64> {
    let central = ChiSquared::new(df as f64).ok()?;
    let critical = central.inverse_cdf(1.0 - level);
    let exceed = |lambda: f64| -> f64 {
        // P(χ'² > c) = Σ_j Pois(j; λ/2) P(χ²_{df+2j} > c).
        let half = lambda / 2.0;
        let top = (half + 12.0 * half.sqrt() + 50.0) as usize;
        let mut log_weight = -half;
        let mut total = 0.0;
        for j in 0..=top {
            if j > 0 {
                log_weight += half.ln() - (j as f64).ln();
            }
            if let Ok(chi) = ChiSquared::new((df + 2 * j) as f64) {
                total += log_weight.exp() * chi.sf(critical);
            }
        }
        total
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    while exceed(hi) < power {
        hi *= 2.0;
        if hi > 1e9 {
            return None;
        }
    }
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if exceed(mid) < power {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(hi)
}

/// Test `samples` (0-based actions, one row a sequence) against `law`.
///
/// Errors (bad input) when the options are out of range or the samples'
/// length is not the law's horizon.
pub fn gof(law: &BestSequenceLaw, samples: &Samples, options: &GofOptions) -> Result<GofReport> {
    options.check()?;
    let schedule = law.schedule();
    let horizon = schedule.last().map_or(0, |c| c.plays.end - 1);
    if samples.cols() != horizon {
        return Err(Error::InvalidInput(format!(
            "the samples have {} rounds, the law {horizon}",
            samples.cols()
        )));
    }
    if samples.rows() == 0 {
        return Err(Error::InvalidInput("there are no samples".into()));
    }
    let laws = law.laws_f64();
    let impossible = law.impossible();
    let k = laws.first().map_or(0, Vec::len);
    let choices = schedule.len();
    let joint_cells = (k as u64).checked_pow(choices as u32);
    let joint_skipped = match joint_cells {
        Some(cells) if cells <= options.max_joint_cells => None,
        _ => Some(format!(
            "K^C = {k}^{choices} joint cells, over the limit of {}",
            options.max_joint_cells
        )),
    };
    let mut counts = vec![vec![0u64; k]; choices];
    let mut joint_counts = vec![
        0u64;
        if joint_skipped.is_none() {
            joint_cells.unwrap_or(0) as usize
        } else {
            0
        }
    ];
    let base = options.base as usize;
    let mut violation = None;
    'rows: for i in 0..samples.rows() {
        let row = samples.row(i);
        let mut cell = 0usize;
        for (c, choice) in schedule.iter().enumerate() {
            let plays = &row[choice.plays.start - 1..choice.plays.end - 1];
            let a = plays[0] as usize;
            let reason = if a >= k {
                Some(format!(
                    "round {}: action {} is not one of the K = {k} actions {base} to {}",
                    choice.plays.start,
                    a + base,
                    k - 1 + base
                ))
            } else if let Some(j) = plays.iter().position(|&b| b as usize != a) {
                Some(format!(
                    "choice {c} plays rounds {}–{} with one action, but round {} has action {} and round {} has action {}",
                    choice.plays.start,
                    choice.plays.end - 1,
                    choice.plays.start,
                    a + base,
                    choice.plays.start + j,
                    plays[j] as usize + base
                ))
            } else if impossible[c][a] {
                Some(format!(
                    "choice {c} (round {}) selects action {}, which has probability 0",
                    choice.plays.start,
                    a + base
                ))
            } else {
                None
            };
            if let Some(reason) = reason {
                violation = Some(SupportViolation { sample: i, reason });
                break 'rows;
            }
            counts[c][a] += 1;
            cell = cell * k + a;
        }
        if let Some(slot) = joint_counts.get_mut(cell) {
            *slot += 1;
        }
    }
    let n = samples.rows();
    // Each test's cells of positive probability: the actions of a choice,
    // and the joint cells (choice 0 the most significant digit).
    let choice_cells: Vec<Vec<usize>> = (0..choices)
        .map(|c| (0..k).filter(|&a| !impossible[c][a]).collect())
        .collect();
    let actions_of = |cell: usize| -> Vec<usize> {
        let mut rest = cell;
        let mut actions = vec![0; choices];
        for slot in actions.iter_mut().rev() {
            *slot = rest % k;
            rest /= k;
        }
        actions
    };
    let joint_cells: Vec<(usize, f64)> = (0..joint_counts.len())
        .filter_map(|cell| {
            let actions = actions_of(cell);
            let possible = actions.iter().enumerate().all(|(c, &a)| !impossible[c][a]);
            possible.then(|| {
                // In the order of the choices' digits, last first.
                let p = actions
                    .iter()
                    .enumerate()
                    .rev()
                    .map(|(c, &a)| laws[c][a])
                    .product();
                (cell, p)
            })
        })
        .collect();
    let choice_probabilities: Vec<Vec<f64>> = choice_cells
        .iter()
        .enumerate()
        .map(|(c, cells)| cells.iter().map(|&a| laws[c][a]).collect())
        .collect();
    let joint_probabilities: Vec<f64> = joint_cells.iter().map(|&(_, p)| p).collect();
    let tests = choice_probabilities
        .iter()
        .map(|p| tests_run(p, n))
        .sum::<usize>()
        + if joint_skipped.is_none() {
            tests_run(&joint_probabilities, n)
        } else {
            0
        };
    let per_test_alpha = options.alpha / tests as f64;
    if violation.is_some() {
        return Ok(GofReport {
            n,
            support_violation: violation,
            per_choice: Vec::new(),
            joint: None,
            joint_skipped,
            tests,
            per_test_alpha,
            reject: true,
        });
    }
    let based = |actions: Vec<usize>| actions.into_iter().map(|a| a + base).collect();
    let per_choice: Vec<ChiSquareTest> = (0..choices)
        .map(|c| {
            let cells = &choice_cells[c];
            let observed: Vec<u64> = cells.iter().map(|&a| counts[c][a]).collect();
            chi_square_test(
                &observed,
                &choice_probabilities[c],
                n,
                per_test_alpha,
                options,
                |i| vec![cells[i] + base],
            )
        })
        .collect();
    let joint = joint_skipped.is_none().then(|| {
        let observed: Vec<u64> = joint_cells
            .iter()
            .map(|&(cell, _)| joint_counts[cell])
            .collect();
        chi_square_test(
            &observed,
            &joint_probabilities,
            n,
            per_test_alpha,
            options,
            |i| based(actions_of(joint_cells[i].0)),
        )
    });
    let reject = per_choice
        .iter()
        .chain(&joint)
        .any(|t| t.rejects(per_test_alpha));
    Ok(GofReport {
        n,
        support_violation: None,
        per_choice,
        joint,
        joint_skipped,
        tests,
        per_test_alpha,
        reject,
    })
}

#[cfg(test)]
mod tests {
    use super::{pearson, rare_cell_test, tests_run};
    use rand::Rng;

    /// The actions of a test's cells, from 1.
    fn from_one(i: usize) -> Vec<usize> {
        vec![i + 1]
    }

    #[test]
    fn the_rare_cell_p_value_is_the_discrete_bonferroni_sum() {
        // n = 100, cells (0.5, 0.49, 0.009, 0.001): expected (50, 49, 0.9,
        // 0.1), two rare. Observed (50, 47, 1, 2): the smallest tail is the
        // last cell's, t = P(Bin(100, 0.001) ≥ 2); the third cell adds
        // P(Bin(100, 0.009) ≥ 5), its first tail at most t. By scipy:
        //   from scipy.stats import binom
        //   t = binom.sf(1, 100, 0.001)          # 0.004638068390424184
        //   t + binom.sf(4, 100, 0.009)          # 0.0068291081329753854
        let p = [0.5, 0.49, 0.009, 0.001];
        assert_eq!(tests_run(&p, 100), 2);
        let rare = rare_cell_test(&[50, 47, 1, 2], &p, 100, from_one);
        assert_eq!(rare.cells, 2);
        assert!(
            (rare.p_value / 0.006_829_108_132_975_385 - 1.0).abs() < 1e-9,
            "{rare:?}"
        );
        let extreme = rare.extreme.unwrap();
        assert_eq!((extreme.cell, extreme.observed), (vec![4], 2));
        assert!((extreme.tail / 0.004_638_068_390_424_184 - 1.0).abs() < 1e-9);
        assert!((extreme.expected - 0.1).abs() < 1e-12);
        // Five cells of 0.002 and one of 0.99 at n = 200, three samples on
        // one rare cell: the union bound on the largest count,
        // 5·P(Bin(200, 0.002) ≥ 3) = 5 * binom.sf(2, 200, 0.002) =
        // 0.03920265306667488.
        let p = [0.002, 0.002, 0.99, 0.002, 0.002, 0.002];
        let rare = rare_cell_test(&[0, 0, 196, 1, 3, 0], &p, 200, from_one);
        assert!(
            (rare.p_value / 0.039_202_653_066_674_88 - 1.0).abs() < 1e-9,
            "{rare:?}"
        );
        // No rare cell observed: nothing against the law.
        let rare = rare_cell_test(&[0, 0, 200, 0, 0, 0], &p, 200, from_one);
        assert_eq!((rare.p_value, rare.extreme), (1.0, None));
    }

    #[test]
    fn two_cells_or_no_rare_cell_run_the_chi_square_alone() {
        // Two cells: the rare one is the count the one-group test tests.
        assert_eq!(tests_run(&[0.99, 0.01], 200), 1);
        // Three cells, none of expected count below 5.
        assert_eq!(tests_run(&[0.5, 0.25, 0.25], 20), 1);
        assert_eq!(tests_run(&[0.5, 0.25, 0.25], 19), 2);
    }

    /// The rare-cell test keeps its level: on 4000 multinomial samples of a
    /// law with four rare cells (n = 50, expected counts 15, 15, 10, 5, 2.5,
    /// 1.5, 0.75, 0.25), drawn by inversion from fixed streams, its
    /// rejection rates match the exact rejection probabilities, 0.03706 at
    /// level 0.05 and 0.00987 at 0.01, both below the level. Those are the
    /// sums over the rare cells' multinomial counts, independently:
    ///
    /// ```text
    /// from scipy.stats import binom; from math import lgamma, log, exp
    /// import itertools
    /// n = 50; p = [0.05, 0.03, 0.015, 0.005]; rest = 1 - sum(p)
    /// S = lambda c, q: binom.sf(c - 1, n, q) if c > 0 else 1.0
    /// def pval(o):
    ///     tails = [S(o[i], p[i]) for i in range(4) if o[i] > 0]
    ///     if not tails: return 1.0
    ///     t, total = min(tails), 0
    ///     for q in p:
    ///         c = 1
    ///         while S(c, q) > t * (1 + 1e-12): c += 1
    ///         total += S(c, q)
    ///     return min(1, total)
    /// rate = {0.05: 0, 0.01: 0}
    /// for o in itertools.product(range(12), repeat=4):   # mass 1 - 5e-6
    ///     k = sum(o)
    ///     pr = exp(lgamma(n + 1) - sum(lgamma(x + 1) for x in o) - lgamma(n - k + 1)
    ///              + sum(x * log(q) for x, q in zip(o, p)) + (n - k) * log(rest))
    ///     for a in rate: rate[a] += pr * (pval(o) < a)
    /// # {0.05: 0.037061648439925696, 0.01: 0.009871756769731715}
    /// ```
    #[test]
    fn the_rare_cell_test_keeps_its_level() {
        let p = [0.3, 0.3, 0.2, 0.1, 0.05, 0.03, 0.015, 0.005];
        let n = 50;
        let replications = 4000;
        let (mut at_5, mut at_1) = (0, 0);
        for i in 0..replications {
            let mut rng = crate::oracle::sample::stream(20261129, i);
            let mut counts = [0u64; 8];
            for _ in 0..n {
                let u: f64 = rng.random();
                let mut cumulative = 0.0;
                let cell = p
                    .iter()
                    .position(|&q| {
                        cumulative += q;
                        u < cumulative
                    })
                    .unwrap_or(p.len() - 1);
                counts[cell] += 1;
            }
            let rare = rare_cell_test(&counts, &p, n, from_one);
            at_5 += usize::from(rare.p_value < 0.05);
            at_1 += usize::from(rare.p_value < 0.01);
        }
        // Within four standard deviations of the exact rates.
        for (rejected, exact) in [(at_5, 0.037_061_648), (at_1, 0.009_871_757)] {
            let rate = rejected as f64 / replications as f64;
            let sd = (exact * (1.0 - exact) / replications as f64).sqrt();
            assert!(
                (rate - exact).abs() < 4.0 * sd,
                "seed 20261129: rate {rate}, exact {exact}"
            );
        }
    }

    #[test]
    fn one_group_is_tested_by_the_count_outside_the_likeliest_cell() {
        // n = 200, cells (0.99, 0.01): expected (198, 2), one group.
        // One sample outside: P(X ≥ 1) = 1 − 0.99^200 = 0.866 and P(X ≤ 1) =
        // 0.99^200 + 200·0.01·0.99^199 = 0.405, X ~ Bin(200, 0.01): p is
        // twice the smaller tail.
        let (groups, _, df, p) = pearson(&[199, 1], &[0.99, 0.01], 200);
        assert_eq!((groups, df), (1, 0));
        let at_most_one = 0.99f64.powi(200) + 2.0 * 0.99f64.powi(199);
        assert!((p - 2.0 * at_most_one).abs() < 1e-9, "{p}");
        // None outside: P(X ≤ 0) = 0.99^200 = 0.134, nothing against the law.
        let p = pearson(&[200, 0], &[0.99, 0.01], 200).3;
        assert!((p - 2.0 * 0.99f64.powi(200)).abs() < 1e-9, "{p}");
        // Ten samples, all on the likeliest of cells (0.35, 0.25, 0.2, 0.2):
        // expected 10 in all, one group; P(X ≤ 0) = 0.35^10 = 2.8e-5 for the
        // count outside the likeliest, X ~ Bin(10, 0.65): rejected at 0.001.
        let (groups, _, _, p) = pearson(&[10, 0, 0, 0], &[0.35, 0.25, 0.2, 0.2], 10);
        assert_eq!(groups, 1);
        assert!((p - 2.0 * 0.35f64.powi(10)).abs() < 1e-12, "{p}");
        // Every sample on a cell of probability 4.5e-5 (report-noisy-max,
        // Gumbel noise of scale 1 on the losses 0 and 10: e^-10/(1 + e^-10)):
        // P(Bin(200, q) ≥ 200) = q^200, below f64's range.
        let q = (-10f64).exp() / (1.0 + (-10f64).exp());
        let p = pearson(&[0, 200], &[1.0 - q, q], 200).3;
        assert!(p < 1e-300, "{p}");
        // A single cell has nothing to test.
        assert_eq!(pearson(&[200], &[1.0], 200).3, 1.0);
    }
}
