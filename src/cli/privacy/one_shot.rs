//! `dpdtol privacy --mechanism gumbel|exponential|laplace …`: one
//! report-noisy-max selection checked over every input of `alphabet^K` and
//! every ordered pair the neighbour relation allows
//! ([`crate::privacy::one_shot`]), under the verdicts and JSON keys of the
//! online check (`horizon` "1", `algorithm` "report-noisy-max", the witness's
//! `losses` and `neighbour` one vector each, plus `mechanism`, `neighbours`,
//! `sensitivity`, `inputs`, `classes`, `class_pairs` and `decision`).

use super::{
    bound_decimal, json_object, parse_count, ratio_decimal, report, sequence_text, verdict_json,
    Args,
};
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{parse_rational, parse_rational_list};
use crate::privacy::one_shot::{check, Neighbours, OneShot, OneShotOptions, OneShotReport};
use crate::privacy::Verdict;
use serde_json::{json, Value};
use std::fmt::Write;

/// Run the one-shot check (the caller has seen `--mechanism`).
pub(super) fn run(args: &Args) -> Result<(String, bool)> {
    for (flag, given) in [
        ("--algorithm", args.algorithm.is_some()),
        ("--horizon", args.horizon.is_some()),
        ("--resample", args.resample.is_some()),
        ("--noise", args.noise.is_some()),
        ("--noise-scale", args.noise_scale.is_some()),
        ("--shard", args.shard.is_some()),
        ("--method", args.method.is_some()),
        ("--epoch-length", args.epoch_length.is_some()),
        ("--epsilon-range", args.epsilon_range.is_some()),
        ("--all-epsilon", args.all_epsilon),
        ("--scale-factor", args.scale_factor.is_some()),
    ] {
        if given {
            return Err(Error::InvalidInput(format!(
                "{flag} does not apply to --mechanism (one selection over the inputs; the noise is --mechanism, its scale --scale)"
            )));
        }
    }
    let noise: Noise = args.mechanism.as_deref().unwrap_or_default().parse()?;
    let required = |value: &Option<String>, flag: &str| {
        value
            .clone()
            .ok_or_else(|| Error::InvalidInput(format!("{flag} is required with --mechanism")))
    };
    let problem = OneShot::new(
        noise,
        parse_count("--actions", &required(&args.actions, "--actions")?)?,
        parse_rational_list(&required(&args.alphabet, "--alphabet")?)?,
        args.neighbours
            .as_deref()
            .map(str::parse)
            .transpose()?
            .unwrap_or(Neighbours::Any),
        parse_rational(&required(&args.epsilon, "--epsilon")?)?,
        args.scale.as_deref().map(parse_rational).transpose()?,
    )?;
    let options = OneShotOptions {
        force: args.force,
        threads: args
            .threads
            .as_deref()
            .map(|t| parse_count("--threads", t))
            .transpose()?,
        ..OneShotOptions::default()
    };
    let out = check(&problem, &options)?;
    let text = if args.json {
        json_output(&problem, &out).to_string()
    } else {
        paragraph(&problem, &out)
    };
    Ok((text, out.report.verdict == Verdict::Violated))
}

/// How the verdict was reached: by the certified enclosures, or in the
/// exact field.
fn decision(out: &OneShotReport) -> &'static str {
    if out.closed_form.is_some() {
        "exact-field"
    } else {
        "certified"
    }
}

fn json_output(p: &OneShot, out: &OneShotReport) -> Value {
    let r = &out.report;
    let mut keys = verdict_json(r, 1);
    keys.extend(json_object(json!({
        "schema_version": report::SCHEMA_VERSION,
        "algorithm": "report-noisy-max",
        "mechanism": p.noise.name(),
        "actions": p.actions,
        "horizon": "1",
        "alphabet": p.alphabet.iter().map(report::exact).collect::<Vec<_>>(),
        "epsilon": report::exact(&p.epsilon),
        "noise": p.noise.name(),
        "noise_scale": report::exact(&p.scale),
        "resample": false,
        "neighbours": p.neighbours.to_string(),
        "sensitivity": report::exact(&p.sensitivity()),
        "inputs": out.inputs,
        "classes": out.classes,
        "class_pairs": out.class_pairs,
        "max_ratio_closed_form": out.closed_form,
        "decision": decision(out),
        "shard": "1/1",
        "why_not_exact": r.why_not_exact,
        "merge": Value::Null,
    })));
    Value::Object(keys)
}

fn paragraph(p: &OneShot, out: &OneShotReport) -> String {
    let r = &out.report;
    let mut text = String::new();
    let alphabet: Vec<String> = p.alphabet.iter().map(ToString::to_string).collect();
    let _ = writeln!(
        text,
        "report-noisy-max ({} noise, scale {}), K = {}, alphabet {{{}}}, neighbours {} (sensitivity {}), ε = {}:",
        p.noise,
        p.scale,
        p.actions,
        alphabet.join(", "),
        p.neighbours,
        p.sensitivity(),
        p.epsilon
    );
    let (verdict, relation) = match r.verdict {
        Verdict::Private if r.attained => ("PRIVATE (maximum attained)", "="),
        Verdict::Private => ("PRIVATE", "<="),
        Verdict::Violated => ("VIOLATED", ">"),
        Verdict::Undecided => ("UNDECIDED", "~"),
    };
    let _ = writeln!(
        text,
        "{verdict}: max privacy-loss ratio {} {relation} e^ε = {}",
        ratio_decimal(&r.max_ratio),
        bound_decimal(&r.bound)
    );
    if let Some(form) = &out.closed_form {
        let _ = writeln!(text, "  decided exactly in Q(e^(1/q)): max ratio = {form}");
    }
    let w = &r.witness;
    let _ = writeln!(text, "  witness:");
    let _ = writeln!(text, "    losses    {}", sequence_text(&w.losses));
    let _ = writeln!(text, "    neighbour {}", sequence_text(&w.neighbour));
    let _ = writeln!(
        text,
        "    action    {}   P(action | losses) / P(action | neighbour) = {}",
        w.actions[0] + 1,
        ratio_decimal(&w.ratio)
    );
    let _ = write!(
        text,
        "  {} ordered input pairs of {} inputs checked through {} classes of equal gaps ({} class pairs), {}",
        r.pairs,
        out.inputs,
        out.classes,
        out.class_pairs,
        match &out.closed_form {
            Some(_) => "certified laws, the open comparison decided exactly".to_string(),
            None => format!("certified laws at {} bits", r.precision.map_or(0, |p| p.0)),
        }
    );
    text
}
