//! The result of `dpdtol gof`: samples from any implementation tested
//! against a target's exact (else certified) law ([`crate::oracle::gof`]).

use super::oracle::{fixed_string, Approximate, LawHeader, Rounds, TargetGiven, CONVENTIONS};
use super::{Human, SchemaVersion};
use crate::algorithm::BestSequenceLaw;
use crate::oracle::gof::{
    ChiSquareTest, GofOptions, GofReport as Outcome, RareCellTest, SupportViolation,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt::Write;
use std::path::Path;

fixed_string!(
    /// `"gof"`.
    GofCommand = "gof"
);

/// The pooling and multiple-testing rules of [`crate::oracle::gof`], as
/// the report states them.
pub const RULES: &str = "Pearson chi-square per choice and over the joint cells (the choices' product law); cells of certainly zero probability left out (a sample there is a support violation), the others merged in order of increasing expected count into groups of expected count >= 5, a last group below 5 joining the previous; df = groups - 1 (one group of two cells or more: the p-value is the exact two-sided binomial test of the count outside the likeliest cell); p-values from statrs's chi-square survival function (approximate); with three cells or more, the cells of expected count < 5 (rare, summed with others by the pooling) also tested on their own: t the smallest exact tail P(Bin(n, p_i) >= o_i) among them, p-value min(1, sum over the rare cells of the largest P(Bin(n, p_i) >= c) <= t) (discrete Bonferroni, exact); Bonferroni: reject when a support violation is found or some p-value < alpha / tests (the chi-square and the rare-cell tests)";

/// The verdict of the test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The samples are rejected at level α (the exit status is 1).
    Rejected,
    /// Nothing in the samples contradicts the law at level α.
    Consistent,
}

impl Verdict {
    /// `Rejected` when `reject`, else `Consistent`.
    pub fn of(reject: bool) -> Verdict {
        if reject {
            Verdict::Rejected
        } else {
            Verdict::Consistent
        }
    }
}

/// The test of one choice: the actions it played against its law.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChoiceTest {
    /// The choice's index in the schedule, from 0.
    pub choice: usize,
    /// The rounds it plays.
    pub plays: Rounds,
    /// The test.
    #[serde(flatten)]
    pub test: ChiSquareTest,
}

/// Samples tested against a target's law. The exit status is 1 when
/// `reject` is true.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GofReport {
    /// The family-wise level α.
    pub alpha: f64,
    /// Actions are numbered from this (0 or 1) in the sample file.
    #[schemars(range(max = 1))]
    pub base: u32,
    /// The command.
    pub command: GofCommand,
    /// The index conventions, in words.
    pub conventions: String,
    /// The joint test over all choices (null when skipped or after a
    /// support violation).
    pub joint: Option<ChiSquareTest>,
    /// Why the joint test was skipped (null when it was not).
    pub joint_skipped: Option<String>,
    /// How the law tested against was computed.
    pub law: LawHeader,
    /// The number of samples.
    #[schemars(range(min = 1))]
    pub n: usize,
    /// One test per choice of the schedule (empty after a support
    /// violation).
    pub per_choice: Vec<ChoiceTest>,
    /// The level of each test: α / tests (Bonferroni).
    pub per_test_alpha: f64,
    /// The power at which `n_for_tv` detects the distance `tv`.
    pub power: f64,
    /// Whether the samples are rejected at level α.
    pub reject: bool,
    /// The pooling and multiple-testing rules, in words.
    pub rules: String,
    /// The sample file.
    pub samples: String,
    /// The version of this report's keys.
    pub schema_version: SchemaVersion,
    /// The statistics and p-values are f64.
    pub statistics_kind: Approximate,
    /// The first sample outside the law's support (null: none).
    pub support_violation: Option<SupportViolation>,
    /// The target as given.
    pub target: TargetGiven,
    /// The number m of tests: the chi-square tests and their rare-cell
    /// tests.
    pub tests: usize,
    /// The total-variation distance whose detecting sample size is
    /// reported (null: none asked for).
    pub tv: Option<f64>,
    /// `rejected` or `consistent`, as `reject` says.
    pub verdict: Verdict,
}

impl GofReport {
    /// The report of `outcome`, the test under `options` of the samples in
    /// the file `samples` (actions numbered from `base`) against `law`, the
    /// law of the target given as `given`.
    pub fn new(
        given: TargetGiven,
        law: &BestSequenceLaw,
        samples: &Path,
        base: u32,
        options: &GofOptions,
        outcome: &Outcome,
    ) -> GofReport {
        GofReport {
            alpha: options.alpha,
            base,
            command: GofCommand,
            conventions: CONVENTIONS.to_string(),
            joint: outcome.joint.clone(),
            joint_skipped: outcome.joint_skipped.clone(),
            law: LawHeader::of(law),
            n: outcome.n,
            per_choice: outcome
                .per_choice
                .iter()
                .zip(&law.schedule())
                .enumerate()
                .map(|(c, (test, choice))| ChoiceTest {
                    choice: c,
                    plays: Rounds::inclusive(&choice.plays),
                    test: test.clone(),
                })
                .collect(),
            per_test_alpha: outcome.per_test_alpha,
            power: options.power,
            reject: outcome.reject,
            rules: RULES.to_string(),
            samples: samples.display().to_string(),
            schema_version: SchemaVersion,
            statistics_kind: Approximate,
            support_violation: outcome.support_violation.clone(),
            target: given,
            tests: outcome.tests,
            tv: options.tv,
            verdict: Verdict::of(outcome.reject),
        }
    }
}

/// The first lines of a goodness-of-fit table: the target, `n` samples
/// (`what` names one), and the first sample outside the support, if any.
pub fn table_head(
    target: &str,
    n: usize,
    what: &str,
    violation: Option<&SupportViolation>,
) -> String {
    let mut out = format!("{target}: {} against the law\n", super::counted(n, what));
    if let Some(v) = violation {
        let _ = writeln!(
            out,
            "support violation in sample {} (rows from 0): {}",
            v.sample, v.reason
        );
    }
    out
}

/// The smallest p-value printed as a number: below it the f64 survival
/// function has lost its digits (it reaches 0 near `10^−308`).
const SMALLEST_P: f64 = 1e-300;

/// A p-value for people: `6.505e-1`, or `< 1e-300` where the f64 value is
/// no longer a number of certain digits (never `0.000e0`).
fn p_value_text(p: f64) -> String {
    if p < SMALLEST_P {
        format!("< {SMALLEST_P:e}")
    } else {
        format!("{p:.3e}")
    }
}

/// The chi-square tests as rows under a header, each named (with the
/// sample size that detects the distance when `tv`).
pub fn tests_table(tests: &[(String, &ChiSquareTest)], tv: bool) -> String {
    let mut out = format!(
        "{:>8}  {:>6}  {:>12}  {:>4}  {:>10}{}\n",
        "test",
        "groups",
        "chi-square",
        "df",
        "p-value",
        if tv { "  n for TV" } else { "" }
    );
    for (name, t) in tests {
        let _ = writeln!(
            out,
            "{name:>8}  {:>6}  {:>12.4}  {:>4}  {:>10}{}",
            t.groups,
            t.statistic,
            t.df,
            p_value_text(t.p_value),
            t.n_for_tv.map_or(String::new(), |n| format!("  {n:.0}"))
        );
    }
    out
}

/// The rare-cell tests of `tests` (each named), one line each, the cell of
/// smallest tail said to depart when the test rejects at `level`.
pub fn rare_cells_lines(tests: &[(String, &ChiSquareTest)], level: f64) -> String {
    let mut out = String::new();
    for (name, rare) in tests
        .iter()
        .filter_map(|(name, t)| Some((name, t.rare_cells.as_ref()?)))
    {
        let _ = writeln!(
            out,
            "rare cells of {name}: {}",
            rare_cells_text(rare, level)
        );
    }
    out
}

/// One rare-cell test in words.
fn rare_cells_text(rare: &RareCellTest, level: f64) -> String {
    let head = format!(
        "{} of expected count < 5, p-value {}",
        rare.cells,
        p_value_text(rare.p_value)
    );
    let Some(cell) = &rare.extreme else {
        return format!("{head}, none observed");
    };
    let actions: Vec<String> = cell.cell.iter().map(ToString::to_string).collect();
    format!(
        "{head}; {}: the cell {} observed {}, expected {:.3e}, P(Bin(n, p) >= {}) = {}",
        if rare.p_value < level {
            "departs"
        } else {
            "most extreme (not significantly)"
        },
        actions.join(","),
        cell.observed,
        cell.expected,
        cell.observed,
        p_value_text(cell.tail)
    )
}

impl Verdict {
    /// The verdict against the law, for people.
    pub fn against_law(self) -> &'static str {
        match self {
            Verdict::Rejected => "REJECTED",
            Verdict::Consistent => "consistent with the law",
        }
    }
}

/// A table: one row per test, then the rule and the verdict.
impl Human for GofReport {
    fn human(&self) -> String {
        let mut out = table_head(
            &self.target.to_string(),
            self.n,
            "sample",
            self.support_violation.as_ref(),
        );
        let tests: Vec<(String, &ChiSquareTest)> = self
            .per_choice
            .iter()
            .map(|c| (format!("choice {}", c.choice), &c.test))
            .chain(self.joint.iter().map(|t| ("joint".to_string(), t)))
            .collect();
        out.push_str(&tests_table(&tests, self.tv.is_some()));
        out.push_str(&rare_cells_lines(&tests, self.per_test_alpha));
        if let Some(why) = &self.joint_skipped {
            let _ = writeln!(out, "joint test skipped: {why}");
        }
        let _ = writeln!(
            out,
            "rule: {}\n{}: {}, each at {:.3e} (alpha {})",
            self.rules,
            self.verdict.against_law(),
            super::counted(self.tests, "test"),
            self.per_test_alpha,
            self.alpha
        );
        out.trim_end().to_string()
    }
}
