//! `dpdtol privacy --algorithm ftl|naive-ftnl|hu-rnm-ftnl|wu-wang|prefix-softmax|hedge|decreasing-hedge
//! …`: the exhaustive check of a full-information online algorithm
//! ([`crate::privacy::check`]), and the merge of its shards.

use super::{given, parse_horizon, shard_flag, Args};
use crate::algorithm::{AlgorithmId, Config};
use crate::cli::args::{parse_bit, parse_count};
use crate::error::Result;
use crate::mechanism::Noise;
use crate::num::{parse_rational, parse_rational_list};
use crate::privacy::{check, Options, Problem};
use crate::report::merge::{self, SpotPolicy};
use crate::report::privacy::{DeltaKeys, Described, PrivacyReport};
use crate::report::rendered;
use serde_json::Value;

/// Run the check of the full-information algorithm `--algorithm`.
pub(super) fn run(args: &Args) -> Result<(String, bool)> {
    let id: AlgorithmId = given(&args.algorithm, "--algorithm")?.parse()?;
    let actions = parse_count("--actions", given(&args.actions, "--actions")?)?;
    let horizon = parse_horizon(given(&args.horizon, "--horizon")?)?;
    let epsilon = parse_rational(given(&args.epsilon, "--epsilon")?)?;
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
    let mut report = PrivacyReport::new(&described, &result, &probabilities);
    if let Some(target) = super::delta_flag(args)? {
        let delta =
            crate::privacy::delta::full_information(&algorithm, &problem, &target, args.force)?;
        report.verdict.delta = Some(DeltaKeys::of(&delta));
    }
    Ok(render(&report, args.json))
}

/// `--merge` of the shards of one full-information check
/// ([`merge::merge_parts`]).
pub(super) fn merge(
    inputs: &[(String, Value)],
    policy: SpotPolicy,
    as_json: bool,
) -> Result<(String, bool)> {
    let report: PrivacyReport = merge::merge_parts(inputs, policy)?;
    Ok(render(&report, as_json))
}

/// The report as one JSON object or as a paragraph, and whether it is
/// violated.
fn render(report: &PrivacyReport, json: bool) -> (String, bool) {
    (rendered(report, json), super::violated(&report.verdict))
}
