//! `dpdtol privacy --mechanism gumbel|exponential|laplace …`: one
//! report-noisy-max selection checked over every input of `alphabet^K` and
//! every ordered pair the neighbour relation allows
//! ([`crate::privacy::one_shot`]), under the verdicts and JSON keys of the
//! online check (`horizon` "1", `algorithm` "report-noisy-max", the witness's
//! `losses` and `neighbour` one vector each, plus `mechanism`, `neighbours`,
//! `sensitivity`, `inputs`, `classes`, `class_pairs` and `decision`).

use super::{parse_count, Args};
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{parse_rational, parse_rational_list};
use crate::privacy::one_shot::{check, witness_probabilities, Neighbours, OneShot, OneShotOptions};
use crate::report::one_shot_privacy::OneShotPrivacyReport;
use crate::report::privacy::DeltaKeys;
use crate::report::rendered;

/// Run the one-shot check (the caller has seen `--mechanism`).
pub(super) fn run(args: &Args) -> Result<(String, bool)> {
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
    let mut report = OneShotPrivacyReport::new(&problem, &out, &probabilities);
    if let Some(target) = super::delta_flag(args)? {
        let delta = crate::privacy::delta::one_shot(&problem, &target, args.force)?;
        report.verdict.delta = Some(DeltaKeys::of(&delta));
    }
    Ok((
        rendered(&report, args.json),
        super::violated(&report.verdict),
    ))
}
