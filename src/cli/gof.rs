//! `dpdtol gof`: samples from any implementation tested against the exact
//! law ([`crate::oracle::gof`]); exit status 1 when the test rejects, so it
//! drops into any CI.

use super::applies::{scope, Scope, EVERY};
use super::args::parse_f64;
use super::law::{parse_base, target_text, TargetArgs};
use crate::error::Result;
use crate::oracle::gof::{gof, ChiSquareTest, GofOptions};
use crate::oracle::io;
use crate::report::gof::{GofReport, Verdict};
use crate::report::to_json;
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

/// Where the flags of `gof` act besides the target's.
pub(super) const SCOPES: &[Scope] = &[
    scope("samples", EVERY),
    scope("base", EVERY),
    scope("alpha", EVERY),
    scope("tv", EVERY),
    scope("power", EVERY),
    scope("json", EVERY),
];

impl Args {
    /// The flags that name the target.
    pub(super) fn target(&self) -> &TargetArgs {
        &self.target
    }
}

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
        base,
        ..GofOptions::default()
    };
    let target = args.target.build()?;
    let samples = io::read_samples(&args.samples, base)?;
    // Expected counts are f64: 20 certain digits are far more than enough.
    let law = args.target.law(&target, 20)?;
    let outcome = gof(&law, &samples, &options)?;
    let report = GofReport::new(
        args.target.describe(),
        &law,
        &args.samples,
        base,
        &options,
        &outcome,
    );
    if report.reject {
        *status = 1;
    }
    Ok(if args.json {
        to_json(&report)
    } else {
        table(&report)
    })
}

/// The report as a table: one row per test, then the rule and the verdict.
fn table(r: &GofReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} samples against the law",
        target_text(&r.target),
        r.n
    );
    if let Some(v) = &r.support_violation {
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
        if r.tv.is_some() { "  n for TV" } else { "" }
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
    for c in &r.per_choice {
        let _ = writeln!(out, "{}", line(format!("choice {}", c.choice), &c.test));
    }
    if let Some(t) = &r.joint {
        let _ = writeln!(out, "{}", line("joint".into(), t));
    }
    if let Some(why) = &r.joint_skipped {
        let _ = writeln!(out, "joint test skipped: {why}");
    }
    let _ = writeln!(
        out,
        "rule: {}\n{}: {} tests, each at {:.3e} (alpha {})",
        r.rules,
        match r.verdict {
            Verdict::Rejected => "REJECTED",
            Verdict::Consistent => "consistent with the law",
        },
        r.tests,
        r.per_test_alpha,
        r.alpha
    );
    out.trim_end().to_string()
}
