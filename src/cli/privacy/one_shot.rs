//! `dpdtol privacy --mechanism gumbel|exponential|laplace …`: one
//! report-noisy-max selection checked over every input of `alphabet^K` and
//! every ordered pair the neighbour relation allows
//! ([`crate::privacy::one_shot`]), under the verdicts and JSON keys of the
//! online check (`horizon` "1", `algorithm` "report-noisy-max", the witness's
//! `losses` and `neighbour` one vector each, plus `mechanism`, `neighbours`,
//! `sensitivity`, `inputs`, `classes`, `class_pairs` and `decision`).

use super::{parse_count, sequence_text, Args};
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{parse_rational, parse_rational_list};
use crate::privacy::one_shot::{check, witness_probabilities, Neighbours, OneShot, OneShotOptions};
use crate::privacy::Verdict;
use crate::report::one_shot_privacy::OneShotPrivacyReport;
use crate::report::to_json;
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
    let probabilities = witness_probabilities(&problem, &out.report)?;
    let report = OneShotPrivacyReport::new(&problem, &out, &probabilities);
    let text = if args.json {
        to_json(&report)
    } else {
        paragraph(&report)
    };
    Ok((text, report.verdict.verdict == Verdict::Violated))
}

fn paragraph(r: &OneShotPrivacyReport) -> String {
    let v = &r.verdict;
    let mut text = String::new();
    let alphabet: Vec<&str> = r.alphabet.iter().map(|a| a.0.as_str()).collect();
    let _ = writeln!(
        text,
        "report-noisy-max ({} noise, scale {}), K = {}, alphabet {{{}}}, neighbours {} (sensitivity {}), ε = {}:",
        r.mechanism,
        r.noise_scale,
        r.actions,
        alphabet.join(", "),
        r.neighbours,
        r.sensitivity,
        r.epsilon
    );
    text.push_str(&super::verdict_line(v));
    if let Some(form) = &r.max_ratio_closed_form {
        let _ = writeln!(text, "  decided exactly in Q(e^(1/q)): max ratio = {form}");
    }
    let w = &v.witness;
    let _ = writeln!(text, "  witness:");
    let _ = writeln!(text, "    losses    {}", sequence_text(&w.losses));
    let _ = writeln!(text, "    neighbour {}", sequence_text(&w.neighbour));
    let _ = writeln!(
        text,
        "    action    {}   P(action | losses) / P(action | neighbour) = {}",
        w.actions.first().copied().unwrap_or(0),
        w.ratio
    );
    let _ = write!(
        text,
        "  {} ordered input pairs of {} inputs checked through {} classes of equal gaps ({} class pairs), {}",
        v.pairs.unwrap_or(0),
        r.inputs,
        r.classes,
        r.class_pairs,
        match &r.max_ratio_closed_form {
            Some(_) => "certified laws, the open comparison decided exactly".to_string(),
            None => format!("certified laws at {} bits", v.precision_bits.unwrap_or(0)),
        }
    );
    text
}
