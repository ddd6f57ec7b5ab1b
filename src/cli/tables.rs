//! Pieces the oracle commands' tables share (`law`, `gof` and their bandit
//! forms): how a law was computed, a probability, the head of a
//! goodness-of-fit table and its tests.

use crate::oracle::gof::{ChiSquareTest, SupportViolation};
use crate::report::oracle::LawHeader;
use crate::report::{Decimal, Fraction};
use std::fmt::Write;

/// A probability for people: the decimal, and `= p/q` when exact.
pub(super) fn probability_text(decimal: &Decimal, exact: Option<&Fraction>) -> String {
    match exact {
        Some(q) if q.0.len() <= 40 => format!("{} = {}", decimal.0, q.0),
        _ => decimal.0.clone(),
    }
}

/// How a law was computed, for people.
pub(super) fn how_text(header: &LawHeader) -> String {
    match header.precision_bits {
        None => "exact".to_string(),
        Some(bits) => format!(
            "certified ({bits} bits; {})",
            if header.digits_certain {
                "every digit shown is correct to ±1 in the last place"
            } else {
                "NOT all digits shown are certain: see --json"
            }
        ),
    }
}

/// The first lines of a goodness-of-fit table: the target, `n` samples
/// (called `what`), and the first sample outside the support, if any.
pub(super) fn table_head(
    target: &str,
    n: usize,
    what: &str,
    violation: Option<&SupportViolation>,
) -> String {
    let mut out = format!("{target}: {n} {what} against the law\n");
    if let Some(v) = violation {
        let _ = writeln!(
            out,
            "support violation in sample {} (rows from 0): {}",
            v.sample, v.reason
        );
    }
    out
}

/// The chi-square tests as rows under a header, each named (with the
/// sample size that detects the distance when `tv`).
pub(super) fn tests_table(tests: &[(String, &ChiSquareTest)], tv: bool) -> String {
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
            "{name:>8}  {:>6}  {:>12.4}  {:>4}  {:>10.3e}{}",
            t.groups,
            t.statistic,
            t.df,
            t.p_value,
            t.n_for_tv.map_or(String::new(), |n| format!("  {n:.0}"))
        );
    }
    out
}
