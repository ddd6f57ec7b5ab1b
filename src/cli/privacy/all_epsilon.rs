//! `dpdtol privacy … --epsilon-range a..b | --all-epsilon`: the ε-intervals
//! where the algorithm is private, decided exactly for every ε of the range
//! ([`crate::privacy::all_epsilon`]). The scale is `--scale-factor` (default
//! 1) times the paper's, so that it follows ε.

use super::{given, parse_count, parse_horizon, Args};
use crate::algorithm::AlgorithmId;
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{parse_rational, parse_rational_list};
use crate::privacy::all_epsilon::{all_epsilon, AllOptions, EpsilonRange, Family};
use crate::report::all_epsilon::AllEpsilonReport;
use crate::report::rendered;

/// The family the flags describe, and the range.
fn family_of(args: &Args) -> Result<(Family, EpsilonRange)> {
    if args.noise_scale.is_some() {
        return Err(Error::InvalidInput(
            "--noise-scale (use --scale-factor: the scale must follow ε) does not apply with --epsilon-range or --all-epsilon".into(),
        ));
    }
    let range = match (&args.epsilon_range, args.all_epsilon) {
        (Some(_), true) => {
            return Err(Error::InvalidInput(
                "give --epsilon-range or --all-epsilon, not both".into(),
            ))
        }
        (Some(text), false) => text.parse()?,
        (None, _) => EpsilonRange::all(),
    };
    let id: AlgorithmId = given(&args.algorithm, "--algorithm")?.parse()?;
    let resample = match &args.resample {
        Some(text) => crate::cli::args::parse_bit("--resample", text)? == 1,
        None => false,
    };
    let family = Family::new(
        id,
        parse_count("--actions", given(&args.actions, "--actions")?)?,
        args.noise.as_deref().map(str::parse::<Noise>).transpose()?,
        resample,
        args.scale_factor
            .as_deref()
            .map(parse_rational)
            .transpose()?,
    );
    Ok((family, range))
}

/// Run the all-ε check; the text to print, and whether some ε of the range
/// is violated.
pub(super) fn run(args: &Args) -> Result<(String, bool)> {
    let (family, range) = family_of(args)?;
    let horizon = parse_horizon(given(&args.horizon, "--horizon")?)?;
    let alphabet = parse_rational_list(given(&args.alphabet, "--alphabet")?)?;
    let options = AllOptions {
        force: args.force,
        progress: true,
    };
    let threads = args
        .threads
        .as_deref()
        .map(|t| parse_count("--threads", t))
        .transpose()?;
    let mut result = crate::size::with_threads(threads, || {
        all_epsilon(&family, horizon, alphabet.clone(), &range, &options)
    })?;
    let report = AllEpsilonReport::new(&family, horizon, &alphabet, &mut result)?;
    Ok((rendered(&report, args.json), report.violated()))
}
