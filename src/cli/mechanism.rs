//! `dpdtol mechanism`: the law of one report-noisy-max selection.

use super::applies::{scope, Scope, EVERY};
use crate::error::Result;
use crate::mechanism::{best_law, Budget, Noise, Scale};
use crate::num::{parse_rational, parse_rational_list, read_rational_file};
use crate::report::mechanism::MechanismReport;
use crate::report::{rendered, DIGITS};

/// Flags of `dpdtol mechanism`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[arg(
        long,
        help = "[required] The noise added to each score −loss: gumbel (softmax), exponential (permute-and-flip) or laplace"
    )]
    noise: String,
    /// [required unless --unit-weight] The noise scale β > 0, exactly: 1, 0.5, 2/3 (no default: the mechanism has no ε).
    #[arg(
        long,
        required_unless_present = "unit_weight",
        conflicts_with = "unit_weight",
        allow_hyphen_values = true
    )]
    scale: Option<String>,
    /// Instead of --scale: the weight w = e^(−1/β) in (0, 1) of one unit of loss; a rational w gives exact laws. (`--base`, its former name, is still read, with a warning on stderr.)
    #[arg(long, alias = "base", allow_hyphen_values = true)]
    unit_weight: Option<String>,
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

/// Where the flags of `mechanism` act ([`super::applies`]): one selection,
/// every flag (clap refuses the pairs that exclude each other).
pub(super) const SCOPES: &[Scope] = &[
    scope("noise", EVERY),
    scope("scale", EVERY),
    scope("unit_weight", EVERY),
    scope("losses", EVERY),
    scope("losses_file", EVERY),
    scope("force", EVERY),
    scope("json", EVERY),
];

/// `--base`, the former name of `--unit-weight`, which clap still reads
/// as an alias.
const FORMER_NAME: &str = "--base";

/// The deprecation warning when `--unit-weight` was given by its former
/// name: `--base w` or `--base=w` among `args` (the command line parsed into
/// `matches`; clap does not say which name of a flag was used).
pub(super) fn former_name_used(
    args: &[std::ffi::OsString],
    matches: &clap::ArgMatches,
) -> Option<String> {
    let given = matches.value_source("unit_weight") == Some(clap::parser::ValueSource::CommandLine);
    given.then_some(())?;
    let former = args.iter().skip(1).filter_map(|a| a.to_str()).any(|a| {
        a.strip_prefix(FORMER_NAME)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('='))
    });
    former.then(|| {
        format!("{FORMER_NAME} is the former name of --unit-weight and will be removed; use --unit-weight")
    })
}

/// Run the command; the text to print on stdout.
pub fn run(args: &Args) -> Result<String> {
    let noise: Noise = args.noise.parse()?;
    let scale = match (&args.scale, &args.unit_weight) {
        (Some(s), _) => Scale::beta(parse_rational(s)?)?,
        (None, Some(w)) => Scale::unit_weight(parse_rational(w)?)?,
        (None, None) => unreachable!("clap requires --scale or --unit-weight"),
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
    let report = MechanismReport::new(noise, &scale, &losses, &law);
    Ok(rendered(&report, args.json))
}
