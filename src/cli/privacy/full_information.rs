//! `dpdtol privacy --algorithm ftl|naive-ftnl|hu-rnm-ftnl|wu-wang|prefix-softmax
//! …`: the exhaustive check of a full-information online algorithm
//! ([`crate::privacy::check`]), and the merge of its shards.

use super::{given, parse_horizon, sequence_text, shard_flag, Args};
use crate::algorithm::{AlgorithmId, Config};
use crate::cli::args::{parse_bit, parse_count};
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{parse_rational, parse_rational_list};
use crate::privacy::{check, Method, Options, Problem, Shard, Verdict};
use crate::report::privacy::{
    self as report_privacy, algorithm_text, Described, ExactRatio, PrivacyReport,
};
use crate::report::{merge, to_json, Enclosure, NumberKind};
use serde_json::Value;
use std::fmt::Write;

/// Run the check of the full-information algorithm `--algorithm`.
pub(super) fn run(args: &Args) -> Result<(String, bool)> {
    let id: AlgorithmId = given(&args.algorithm, "--algorithm")?.parse()?;
    if args.epoch_length.is_some() {
        return Err(Error::InvalidInput(format!(
            "--epoch-length applies to dp-se only, not to {id}"
        )));
    }
    let actions = parse_count("--actions", given(&args.actions, "--actions")?)?;
    let horizon = parse_horizon(given(&args.horizon, "--horizon")?)?;
    let epsilon = parse_rational(given(&args.epsilon, "--epsilon")?)?;
    if args.resample.is_some() && id != AlgorithmId::WuWang {
        return Err(Error::InvalidInput(format!(
            "--resample applies to wu-wang only, not to {id}"
        )));
    }
    let resample = match &args.resample {
        Some(text) => parse_bit("--resample", text)? == 1,
        None => false,
    };
    let config = Config {
        id,
        actions,
        epsilon: epsilon.clone(),
        noise: args.noise.as_deref().map(str::parse::<Noise>).transpose()?,
        noise_scale: args
            .noise_scale
            .as_deref()
            .map(parse_rational)
            .transpose()?,
        resample,
    };
    let config = match args.scale_factor.as_deref() {
        Some(factor) => config.scaled(&parse_rational(factor)?)?,
        None => config,
    };
    let algorithm = config.build()?;
    let problem = Problem::new(
        horizon,
        parse_rational_list(given(&args.alphabet, "--alphabet")?)?,
        epsilon,
    )?;
    let options = Options {
        method: args
            .method
            .as_deref()
            .map(str::parse)
            .transpose()?
            .unwrap_or_default(),
        shard: shard_flag(args)?,
        threads: args
            .threads
            .as_deref()
            .map(|t| parse_count("--threads", t))
            .transpose()?,
        force: args.force,
        progress: true,
        ..Options::default()
    };
    let result = check(&algorithm, &problem, &options)?;
    let described = Described::of(&config, &algorithm);
    let probabilities = crate::privacy::witness_probabilities(&algorithm, &result)?;
    Ok(render(
        &PrivacyReport::new(&described, &result, &probabilities),
        args.json,
    ))
}

/// `--merge` of the shards of one full-information check (`inputs`: each
/// file's name and its parsed JSON), each accepted through the merge
/// contract ([`merge::accept`]).
pub(super) fn merge(inputs: &[(String, Value)], as_json: bool) -> Result<(String, bool)> {
    let parts = inputs
        .iter()
        .map(|(name, value)| Ok((name.clone(), merge::accept::<PrivacyReport>(name, value)?)))
        .collect::<Result<Vec<_>>>()?;
    let (described, merged, probabilities) = report_privacy::merge(parts)?;
    Ok(render(
        &PrivacyReport::new(&described, &merged, &probabilities),
        as_json,
    ))
}

/// The report as one JSON object or as a paragraph, and whether it is
/// violated.
fn render(report: &PrivacyReport, json: bool) -> (String, bool) {
    let text = if json {
        to_json(report)
    } else {
        paragraph(report)
    };
    (text, report.verdict.verdict == Verdict::Violated)
}

/// An enclosure in words, `[lo, hi]` (`[?, ?]` when there is none).
fn enclosure_text(e: Option<&Enclosure>) -> String {
    match e {
        Some(Enclosure([lo, hi])) => format!("[{lo}, {hi}]"),
        None => "[?, ?]".into(),
    }
}

/// The report as a paragraph.
fn paragraph(r: &PrivacyReport) -> String {
    let mut out = String::new();
    let alphabet: Vec<&str> = r.alphabet.iter().map(|a| a.0.as_str()).collect();
    let _ = writeln!(
        out,
        "{}, K = {}, horizon {}, alphabet {{{}}}, ε = {}{}:",
        algorithm_text(&r.algorithm, r.noise, r.noise_scale.as_ref(), r.resample),
        r.actions,
        r.horizon,
        alphabet.join(", "),
        r.epsilon,
        if r.shard == Shard::WHOLE.to_string() {
            String::new()
        } else {
            format!(", shard {}", r.shard)
        }
    );
    let v = &r.verdict;
    let precision = v.precision_bits.unwrap_or(0);
    let how = match (&r.merge.max_ratio, &v.max_ratio_exact) {
        (ExactRatio::Infinite(_), _) => {
            "infinite: a neighbour gives probability 0 where the sequence does not".to_string()
        }
        (_, Some(q)) => format!("exact, = {q}"),
        _ => format!(
            "certified at {precision} bits, in {}",
            enclosure_text(v.max_ratio_interval.as_ref())
        ),
    };
    out.push_str(&super::verdict_line(v));
    let _ = writeln!(out, "  max ratio {how}");
    if v.verdict == Verdict::Undecided {
        let _ = writeln!(
            out,
            "  e^ε in {}: the enclosures overlap at the largest precision tried",
            enclosure_text(v.bound_interval.as_ref())
        );
    }
    let w = &v.witness;
    let _ = writeln!(out, "  witness, round {} replaced:", w.round);
    let _ = writeln!(out, "    losses    {}", sequence_text(&w.losses));
    let _ = writeln!(out, "    neighbour {}", sequence_text(&w.neighbour));
    let actions: Vec<String> = w.actions.iter().map(u64::to_string).collect();
    let _ = writeln!(
        out,
        "    actions   {}   P(actions | losses) / P(actions | neighbour) = {}",
        actions.join(" "),
        w.ratio
    );
    let _ = write!(
        out,
        "  {} {} checked, {}",
        v.pairs.unwrap_or(0),
        match v.method {
            Method::Structural => "structural candidates (classes of ordered neighbour pairs)",
            Method::Enumeration => "ordered neighbour pairs",
        },
        match v.kind {
            NumberKind::Exact => "exact laws".to_string(),
            _ => format!(
                "certified laws at {precision} bits (the laws involve transcendental numbers; why_not_exact in --json)"
            ),
        }
    );
    out
}
