//! The text renderings of `dpdtol law`, `sample` and `gof` for a bandit
//! algorithm on a reward table ([`crate::oracle::bandit`],
//! [`crate::report::bandit_oracle`]); the commands' flags and their JSON
//! are the other oracle commands'.

use super::tables::{how_text, probability_text, table_head, tests_table};
use crate::report::bandit_oracle::{
    BanditGiven, BanditGofReport, BanditLawReport, BanditSampleReport, BanditTwoSampleReport,
};
use crate::report::gof::Verdict;
use crate::report::oracle::Horizon;
use std::fmt::Write;

/// The target in words.
pub(super) fn target_text(target: &BanditGiven) -> String {
    let mut text = target.algorithm.clone();
    if let Some(e) = &target.epsilon {
        let _ = write!(text, ", ε = {e}");
    }
    for (flag, value) in [
        ("noise-scale", &target.noise_scale),
        ("epoch-length", &target.epoch_length),
        ("tree-scale", &target.tree_scale),
        ("scale-factor", &target.scale_factor),
        ("bonus", &target.bonus),
    ] {
        if let Some(v) = value {
            let _ = write!(text, ", {flag} {v}");
        }
    }
    if let Some(file) = &target.rewards_file {
        let _ = write!(text, ", rewards {file}");
    }
    text
}

/// Pulls for people, comma-separated.
fn pulls_text(pulls: &[usize]) -> String {
    pulls
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// The law as a table: a line of description, the conventions, then one
/// line per pull sequence of possibly positive probability.
pub(super) fn law_table(r: &BanditLawReport) -> String {
    let mut out = String::new();
    let Horizon(horizon) = &r.horizon;
    let _ = writeln!(
        out,
        "{}: K = {}, T = {horizon}, {} pull sequence{} of positive probability, law {}",
        target_text(&r.target),
        r.arms,
        r.law.len(),
        if r.law.len() == 1 { "" } else { "s" },
        how_text(&r.header)
    );
    let _ = writeln!(out, "({}; base {})", r.conventions, r.base);
    for p in &r.law {
        let _ = writeln!(
            out,
            "  {}  {}",
            pulls_text(&p.pulls),
            probability_text(&p.probability, p.probability_exact.as_ref())
        );
    }
    if let Some(p) = &r.probability {
        let _ = writeln!(
            out,
            "P({}) = {}",
            pulls_text(&p.pulls),
            probability_text(&p.probability, p.probability_exact.as_ref())
        );
    }
    out.trim_end().to_string()
}

/// The sample report as one line.
pub(super) fn sample_line(r: &BanditSampleReport) -> String {
    format!(
        "{}: wrote {} pull sequences of {} rounds ({}, arms from {}, seed {}) to {}",
        target_text(&r.target),
        r.n,
        r.horizon.0,
        r.format.name(),
        r.base,
        r.seed,
        r.out
    )
}

/// The goodness-of-fit report as a table.
pub(super) fn gof_table(r: &BanditGofReport) -> String {
    let mut out = table_head(
        &target_text(&r.target),
        r.n,
        "pull sequences",
        r.support_violation.as_ref(),
    );
    let tests: Vec<(String, _)> = r.test.iter().map(|t| ("joint".to_string(), t)).collect();
    out.push_str(&tests_table(&tests, r.tv.is_some()));
    let _ = writeln!(
        out,
        "rule: {}\n{} (alpha {})",
        r.rules,
        match r.verdict {
            Verdict::Rejected => "REJECTED",
            Verdict::Consistent => "consistent with the law",
        },
        r.alpha
    );
    out.trim_end().to_string()
}

/// The two-sample report as a table, labelled as such.
pub(super) fn two_sample_table(r: &BanditTwoSampleReport) -> String {
    let mut out = format!(
        "{}: {} pull sequences against {} simulated by dpdtol (seed {}): a TWO-SAMPLE test, this algorithm has no exact or certified law\n",
        target_text(&r.target),
        r.n,
        r.n_reference,
        r.seed
    );
    out.push_str(&tests_table(
        &[("2-sample".to_string(), &r.test)],
        r.tv.is_some(),
    ));
    let _ = writeln!(
        out,
        "rule: {}\n{} (alpha {})",
        r.method,
        match r.verdict {
            Verdict::Rejected => "REJECTED: the two samplers differ",
            Verdict::Consistent => "consistent with dpdtol's simulation",
        },
        r.alpha
    );
    out.trim_end().to_string()
}
