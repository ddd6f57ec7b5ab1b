//! `dpdtol mechanism`: the law of one report-noisy-max selection.

use super::report::{self, DIGITS};
use crate::error::Result;
use crate::mechanism::{best_law, BestLaw, Budget, Noise, Scale};
use crate::num::{parse_rational, parse_rational_list, read_rational_file, Kind, Q};
use serde_json::json;
use std::fmt::Write;

/// Flags of `dpdtol mechanism`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// [required] The noise added to each score −loss: gumbel (softmax), exponential (permute-and-flip) or laplace.
    #[arg(long)]
    noise: String,
    /// [required unless --base] The noise scale β > 0, exactly: 1, 0.5, 2/3 (no default: the mechanism has no ε).
    #[arg(
        long,
        required_unless_present = "base",
        conflicts_with = "base",
        allow_hyphen_values = true
    )]
    scale: Option<String>,
    /// Instead of --scale: the weight w = e^(−1/β) in (0, 1) of one unit of loss; a rational w gives exact laws.
    #[arg(long, allow_hyphen_values = true)]
    base: Option<String>,
    /// [required unless --losses-file] The losses, comma-separated: 0,1/2,1.
    #[arg(
        long,
        allow_hyphen_values = true,
        required_unless_present = "losses_file"
    )]
    losses: Option<String>,
    /// Instead of --losses: a file of losses, CSV (commas or newlines) or a JSON array of exact numbers (at most 16 MiB).
    #[arg(long, conflicts_with = "losses")]
    losses_file: Option<std::path::PathBuf>,
    /// Run past the size limits (weights below e^(-460000), a Laplace law over 1e7 multiply-adds (K ≈ 1190), permute-and-flip over K = 10000).
    #[arg(long)]
    force: bool,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

/// Run the command; the text to print on stdout.
pub fn run(args: &Args) -> Result<String> {
    let noise: Noise = args.noise.parse()?;
    let scale = match (&args.scale, &args.base) {
        (Some(s), _) => Scale::beta(parse_rational(s)?)?,
        (None, Some(w)) => Scale::unit_weight(parse_rational(w)?)?,
        (None, None) => unreachable!("clap requires --scale or --base"),
    };
    let losses = match (&args.losses, &args.losses_file) {
        (Some(text), _) => parse_rational_list(text)?,
        (None, Some(path)) => read_rational_file(path)?,
        (None, None) => unreachable!("clap requires --losses or --losses-file"),
    };
    let budget = Budget {
        force: args.force,
        progress: true,
    };
    let law = best_law(noise, &losses, &scale, DIGITS as u32 + 2, budget)?;
    if args.json {
        Ok(json_output(noise, &scale, &losses, &law).to_string())
    } else {
        Ok(table(noise, &scale, &losses, &law))
    }
}

fn scale_json(scale: &Scale) -> serde_json::Value {
    match scale {
        Scale::Beta(b) => json!({ "scale": report::exact(b) }),
        Scale::UnitWeight(w) => json!({ "base": report::exact(w) }),
    }
}

fn json_output(noise: Noise, scale: &Scale, losses: &[Q], law: &BestLaw) -> serde_json::Value {
    let (decimals, intervals, exact, kind, bits, accepted): (
        Vec<String>,
        Vec<serde_json::Value>,
        serde_json::Value,
        Kind,
        Option<u32>,
        bool,
    ) = match law {
        BestLaw::Exact(p) => (
            p.iter().map(report::decimal).collect(),
            p.iter().map(report::interval).collect(),
            p.iter().map(report::exact).collect(),
            Kind::Exact,
            None,
            true,
        ),
        BestLaw::Certified {
            law,
            precision,
            accepted,
            ..
        } => (
            law.iter().map(report::decimal).collect(),
            law.iter().map(report::interval).collect(),
            serde_json::Value::Null,
            Kind::Certified,
            Some(precision.0),
            *accepted,
        ),
    };
    json!({
        "schema_version": report::SCHEMA_VERSION,
        "noise": noise.name(),
        // `noise_scale` is the key every command uses for the scale β
        // (null when the unit weight `base` is given); `scale` is kept for
        // compatibility.
        "noise_scale": match scale {
            Scale::Beta(b) => report::exact(b),
            Scale::UnitWeight(_) => serde_json::Value::Null,
        },
        "scale": scale_json(scale),
        "losses": losses.iter().map(report::exact).collect::<Vec<_>>(),
        "kind": kind.label(),
        "law": decimals,
        "law_exact": exact,
        "law_interval": intervals,
        "precision_bits": bits,
        "why_not_exact": match law {
            BestLaw::Exact(_) => serde_json::Value::Null,
            BestLaw::Certified { why_not_exact, .. } => json!(why_not_exact),
        },
        "digits_certain": accepted,
    })
}

fn table(noise: Noise, scale: &Scale, losses: &[Q], law: &BestLaw) -> String {
    let mut out = String::new();
    let scale_text = match scale {
        Scale::Beta(b) => format!("scale {b}"),
        Scale::UnitWeight(w) => format!("unit weight e^(-1/scale) = {w}"),
    };
    let how = match law {
        BestLaw::Exact(_) => "exact law".to_string(),
        BestLaw::Certified {
            precision,
            accepted,
            why_not_exact,
            ..
        } => format!(
            "certified law ({} bits; {}) — not exact: {why_not_exact}",
            precision.0,
            if *accepted {
                "every digit shown is certain"
            } else {
                "every digit shown is certain, but fewer than requested at the precision cap: see law_interval in --json"
            }
        ),
    };
    let _ = writeln!(
        out,
        "report-noisy-max, {noise} noise, {scale_text}, K = {}: {how}",
        losses.len()
    );
    let _ = writeln!(out, "{:>6}  {:>10}  probability", "action", "loss");
    for (i, loss) in losses.iter().enumerate() {
        let value = match law {
            BestLaw::Exact(p) => format!("{}  = {}", report::decimal(&p[i]), p[i]),
            BestLaw::Certified { law, .. } => report::decimal(&law[i]),
        };
        let _ = writeln!(out, "{:>6}  {:>10}  {value}", i + 1, loss.to_string());
    }
    out.trim_end().to_string()
}
