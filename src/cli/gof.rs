//! `dpdtol gof`: samples from any implementation tested against the exact
//! law ([`crate::oracle::gof`]); exit status 1 when the test rejects, so it
//! drops into any CI.

use super::law::{parse_base, target_text, TargetArgs};
use super::report::SCHEMA_VERSION;
use crate::error::{Error, Result};
use crate::oracle::gof::{gof, ChiSquareTest, GofOptions, GofReport};
use crate::oracle::io;
use crate::report::oracle::CONVENTIONS;
use serde_json::{json, Value};
use std::fmt::Write;
use std::path::PathBuf;

/// Flags of `dpdtol gof`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    target: TargetArgs,
    /// The samples: .npy (integer array, sequences × rounds) or CSV (one sequence a line).
    #[arg(long)]
    samples: PathBuf,
    /// How the file numbers the actions: 1 (default, as the papers) or 0 (numpy).
    #[arg(long, default_value = "1")]
    base: String,
    /// The family-wise level of the test (Bonferroni over the chi-square tests).
    #[arg(long, default_value = "0.001")]
    alpha: String,
    /// Also report the sample size that detects this total-variation distance from the law.
    #[arg(long)]
    tv: Option<String>,
    /// The power of that detection.
    #[arg(long, default_value = "0.9")]
    power: String,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

fn parse_f64(flag: &str, text: &str) -> Result<f64> {
    text.trim()
        .parse()
        .map_err(|_| Error::Parse(format!("{flag} expects a number, got '{text}'")))
}

/// The pooling and multiple-testing rules, as stated in the output.
const RULES: &str = "Pearson chi-square per choice and over the joint cells (the choices' product law); cells of certainly zero probability left out (a sample there is a support violation), the others merged in order of increasing expected count into groups of expected count >= 5, a last group below 5 joining the previous; df = groups - 1; p-values from statrs's chi-square survival function (approximate); Bonferroni: reject when a support violation is found or some p-value < alpha / tests";

/// Run the command; the text to print on stdout. Sets `status` to 1 when
/// the samples are rejected.
pub fn run(args: &Args, status: &mut i32) -> Result<String> {
    let base = parse_base(&args.base)?;
    let options = GofOptions {
        alpha: parse_f64("--alpha", &args.alpha)?,
        tv: args
            .tv
            .as_deref()
            .map(|t| parse_f64("--tv", t))
            .transpose()?,
        power: parse_f64("--power", &args.power)?,
        ..GofOptions::default()
    };
    let target = args.target.build()?;
    let samples = io::read_samples(&args.samples, base)?;
    // Expected counts are f64: 20 certain digits are far more than enough.
    let law = args.target.law(&target, 20)?;
    let report = gof(&law, &samples, &options)?;
    if report.reject {
        *status = 1;
    }
    let given = args.target.describe();
    let (described, target_json) = (target_text(&given), json!(given));
    if args.json {
        let schedule = law.schedule();
        let per_choice: Vec<Value> = report
            .per_choice
            .iter()
            .zip(&schedule)
            .enumerate()
            .map(|(c, (test, choice))| {
                let mut value = test_json(test);
                if let Some(map) = value.as_object_mut() {
                    map.insert("choice".into(), json!(c));
                    map.insert(
                        "plays".into(),
                        json!(crate::report::oracle::Rounds::inclusive(&choice.plays)),
                    );
                }
                value
            })
            .collect();
        let mut out = json!({
            "schema_version": SCHEMA_VERSION,
            "command": "gof",
            "target": target_json,
            "conventions": CONVENTIONS,
            "base": base,
            "samples": args.samples.display().to_string(),
            "n": report.n,
            "alpha": options.alpha,
            "rules": RULES,
            "tests": report.tests,
            "per_test_alpha": report.per_test_alpha,
            "support_violation": report.support_violation.as_ref().map(|v| json!({
                "sample": v.sample,
                "reason": v.reason,
            })),
            "per_choice": per_choice,
            "joint": report.joint.as_ref().map(test_json),
            "joint_skipped": report.joint_skipped,
            "tv": options.tv,
            "power": options.power,
            "statistics_kind": "approximate",
            "reject": report.reject,
            "verdict": if report.reject { "rejected" } else { "consistent" },
        });
        if let (Some(map), Value::Object(header)) = (
            out.as_object_mut(),
            json!(crate::report::oracle::LawHeader::of(&law)),
        ) {
            map.insert("law".into(), Value::Object(header));
        }
        return Ok(out.to_string());
    }
    Ok(table(&described, &report, &options))
}

fn test_json(test: &ChiSquareTest) -> Value {
    json!({
        "cells": test.cells,
        "groups": test.groups,
        "statistic": test.statistic,
        "df": test.df,
        "p_value": test.p_value,
        "n_for_tv": test.n_for_tv,
    })
}

fn table(described: &str, report: &GofReport, options: &GofOptions) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{described}: {} samples against the law", report.n);
    if let Some(v) = &report.support_violation {
        let _ = writeln!(
            out,
            "support violation in sample {} (rows from 0): {}",
            v.sample, v.reason
        );
    }
    let _ = writeln!(
        out,
        "{:>8}  {:>6}  {:>12}  {:>4}  {:>10}{}",
        "test",
        "groups",
        "chi-square",
        "df",
        "p-value",
        if options.tv.is_some() {
            "  n for TV"
        } else {
            ""
        }
    );
    let line = |name: String, t: &ChiSquareTest| {
        format!(
            "{name:>8}  {:>6}  {:>12.4}  {:>4}  {:>10.3e}{}",
            t.groups,
            t.statistic,
            t.df,
            t.p_value,
            t.n_for_tv.map_or(String::new(), |n| format!("  {n:.0}"))
        )
    };
    for (c, t) in report.per_choice.iter().enumerate() {
        let _ = writeln!(out, "{}", line(format!("choice {c}"), t));
    }
    if let Some(t) = &report.joint {
        let _ = writeln!(out, "{}", line("joint".into(), t));
    }
    if let Some(why) = &report.joint_skipped {
        let _ = writeln!(out, "joint test skipped: {why}");
    }
    let _ = writeln!(
        out,
        "rule: {RULES}\n{}: {} tests, each at {:.3e} (alpha {})",
        if report.reject {
            "REJECTED"
        } else {
            "consistent with the law"
        },
        report.tests,
        report.per_test_alpha,
        options.alpha
    );
    out.trim_end().to_string()
}
