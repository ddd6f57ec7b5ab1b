//! `dpdtol audit`: a lower confidence bound on the ε of a black-box
//! sampler from its outputs on two neighbouring inputs
//! ([`crate::oracle::audit`]), beside dpdtol's exact ratio for its own
//! algorithm when the target and both inputs are given.

use super::law::{parse_base, target_text, TargetArgs};
use super::report::{DIGITS, SCHEMA_VERSION};
use crate::error::{Error, Result};
use crate::num::{format_sig_directed, Dir, Kind};
use crate::oracle::audit::{audit, exact_ratios, AuditOptions, AuditReport, Event, Ratio};
use crate::oracle::io;
use crate::report::oracle::CONVENTIONS;
use serde_json::{json, Value};
use std::fmt::Write;
use std::path::PathBuf;

/// Flags of `dpdtol audit`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Samples of the sampler's outputs on the input x: .npy or CSV, one sequence a row.
    #[arg(long)]
    first: PathBuf,
    /// Samples of its outputs on the neighbour x'.
    #[arg(long)]
    second: PathBuf,
    /// How the files number the actions: 1 (default) or 0.
    #[arg(long, default_value = "1")]
    base: String,
    /// The confidence level of the lower bound.
    #[arg(long, default_value = "0.95")]
    confidence: String,
    /// Optional: dpdtol's own algorithm (or mechanism) on x, to print its exact ratio beside the bound.
    #[command(flatten)]
    target: TargetArgs,
    /// With --algorithm: the loss file of the neighbour x'.
    #[arg(long)]
    neighbour_file: Option<PathBuf>,
    /// With --mechanism: the neighbour's losses, comma-separated.
    #[arg(long, allow_hyphen_values = true)]
    neighbour: Option<String>,
    /// Print one JSON object instead of a paragraph.
    #[arg(long)]
    json: bool,
}

fn ratio_json(r: &Ratio) -> Value {
    let end = |q: &Option<crate::num::Q>, dir| {
        q.as_ref()
            .map_or(json!("inf"), |q| json!(format_sig_directed(q, DIGITS, dir)))
    };
    json!({
        "kind": r.kind.label(),
        "exact": match (&r.lo, &r.hi) {
            (Some(lo), Some(hi)) if r.kind == Kind::Exact && lo == hi => json!(lo.to_string()),
            _ => Value::Null,
        },
        "interval": [end(&r.lo, Dir::Down), end(&r.hi, Dir::Up)],
    })
}

fn event_json(event: &Event, base: u32) -> Value {
    match event {
        Event::Round { round, action } => {
            json!({ "round": round, "action": *action as u64 + u64::from(base) })
        }
        Event::Sequence(s) => {
            json!({ "sequence": s.iter().map(|&a| u64::from(a) + u64::from(base)).collect::<Vec<_>>() })
        }
    }
}

fn event_text(event: &Event, base: u32) -> String {
    match event {
        Event::Round { round, action } => {
            format!(
                "round {round} plays action {}",
                *action as u64 + u64::from(base)
            )
        }
        Event::Sequence(s) => format!(
            "the sequence {}",
            s.iter()
                .map(|&a| (u64::from(a) + u64::from(base)).to_string())
                .collect::<Vec<_>>()
                .join(",")
        ),
    }
}

/// Run the command; the text to print on stdout.
pub fn run(args: &Args) -> Result<String> {
    let base = parse_base(&args.base)?;
    let confidence: f64 = args.confidence.trim().parse().map_err(|_| {
        Error::Parse(format!(
            "--confidence expects a number, got '{}'",
            args.confidence
        ))
    })?;
    let first = io::read_samples(&args.first, base)?;
    let second = io::read_samples(&args.second, base)?;
    let options = AuditOptions {
        confidence,
        ..AuditOptions::default()
    };
    let report = audit(&first, &second, &options)?;
    let exact = if args.target.given() {
        let x = args.target.build()?;
        let y = args
            .target
            .build_on(args.neighbour_file.as_deref(), args.neighbour.as_deref())
            .map_err(|e| match e {
                Error::InvalidInput(s) if s.contains("is required") => Error::InvalidInput(
                    "the neighbour is required: --neighbour-file (algorithm) or --neighbour (mechanism)"
                        .into(),
                ),
                e => e,
            })?;
        let digits = DIGITS as u32 + 2;
        let (lx, ly) = (args.target.law(&x, digits)?, args.target.law(&y, digits)?);
        Some(exact_ratios(&lx, &ly, x.actions(), &report)?)
    } else {
        None
    };
    let given = args.target.describe();
    let (described, target_json) = (target_text(&given), json!(given));
    if args.json {
        return Ok(json!({
            "schema_version": SCHEMA_VERSION,
            "command": "audit",
            "conventions": CONVENTIONS,
            "base": base,
            "method": "Clopper-Pearson, one-sided at (1 - confidence)/2 for each probability; the event (a round's action or a whole sequence, either direction) chosen on the first half of each file, the bound computed on the second halves",
            "confidence": report.confidence,
            "event": event_json(&report.event, base),
            "direction": if report.first_over_second { "first/second" } else { "second/first" },
            "candidates": report.candidates,
            "selection_rows": [report.selection_rows.0, report.selection_rows.1],
            "test_rows": [report.test_rows.0, report.test_rows.1],
            "numerator_count": report.numerator_count,
            "denominator_count": report.denominator_count,
            "numerator_lower": report.numerator_lower,
            "denominator_upper": report.denominator_upper,
            "epsilon_lower": report.epsilon_lower,
            "epsilon_lower_kind": "approximate",
            "target": if args.target.given() { target_json } else { Value::Null },
            "exact_event_ratio": exact.as_ref().and_then(|e| e.0.as_ref()).map(ratio_json),
            "exact_max_ratio": exact.as_ref().map(|e| ratio_json(&e.1)),
        })
        .to_string());
    }
    Ok(paragraph(&report, base, exact.as_ref(), &described))
}

fn paragraph(
    report: &AuditReport,
    base: u32,
    exact: Option<&(Option<Ratio>, Ratio)>,
    described: &str,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "ε ≥ {:.6} with confidence {} (approximate f64; Clopper–Pearson on the event \"{}\", {} over {}, chosen on the first halves among {} candidates, counted on the second halves: {}/{} vs {}/{})",
        report.epsilon_lower,
        report.confidence,
        event_text(&report.event, base),
        if report.first_over_second { "first" } else { "second" },
        if report.first_over_second { "second" } else { "first" },
        report.candidates,
        report.numerator_count,
        if report.first_over_second { report.test_rows.0 } else { report.test_rows.1 },
        report.denominator_count,
        if report.first_over_second { report.test_rows.1 } else { report.test_rows.0 },
    );
    let _ = writeln!(out, "({CONVENTIONS}; base {base})");
    if let Some((event, max)) = exact {
        let show = |r: &Ratio| {
            let end = |q: &Option<crate::num::Q>, dir| {
                q.as_ref()
                    .map_or("inf".to_string(), |q| format_sig_directed(q, 12, dir))
            };
            format!(
                "[{}, {}] ({})",
                end(&r.lo, Dir::Down),
                end(&r.hi, Dir::Up),
                r.kind.label()
            )
        };
        if let Some(event) = event {
            let _ = writeln!(
                out,
                "{described}: this event's exact ratio is {}",
                show(event)
            );
        }
        let _ = writeln!(
            out,
            "{described}: the largest ratio of any sequence's probabilities (e^ε on this pair) is {}",
            show(max)
        );
    }
    out.trim_end().to_string()
}
