//! `dpdtol regret`: the exact pseudo-regret of one or several algorithms on
//! one instance, with the papers' bounds side by side; `--curve` writes the
//! regret at every epoch boundary, `--plot` draws it against T.

use super::applies::{scope, Scope, Subject, EVERY};
use super::law::NOISY;
use crate::algorithm::AlgorithmId;
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{parse_rational, parse_rational_list};
use crate::regret::certify::certify;
use crate::regret::lineup::{entries, parse_horizon, require_unique_best, Shared};
use crate::regret::{bernoulli, Instance, Setting};
use crate::report::regret::{AlgorithmRegret, OutputFiles, RegretReport, Trajectory};
use crate::report::rendered;
use std::path::PathBuf;

/// Flags of `dpdtol regret`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The algorithm (its help, the list of the algorithms accepted, is
    /// generated: `cli::algorithm_help`).
    #[arg(long)]
    algorithm: String,
    /// [required unless --means-file] The loss means μ_1..μ_K in [0, 1], comma-separated, exactly: 0.1,1/4,1.
    #[arg(
        long,
        allow_hyphen_values = true,
        required_unless_present = "means_file"
    )]
    means: Option<String>,
    #[arg(
        long,
        help = "[required] deterministic (the loss vector is μ every round) or bernoulli (X_{t,j} ~ Bernoulli(μ_j), independent)"
    )]
    setting: String,
    #[arg(
        long,
        allow_hyphen_values = true,
        help = "[required] The horizon T ≥ 1: an integer, or 2^k, 2^k-1, 2^k+1"
    )]
    horizon: String,
    #[arg(
        long,
        allow_hyphen_values = true,
        help = "[required] The privacy parameter ε > 0 the paper's default scales derive from, exactly: 1, 0.5, 1/2"
    )]
    epsilon: String,
    /// wu-wang only: the noise, laplace (default), exponential or gumbel.
    #[arg(long)]
    noise: Option<String>,
    /// Overrides the paper's noise scale (for prefix-softmax: the temperature 1/η), exactly. Defaults: naive-ftnl Laplace K/ε, hu-rnm-ftnl Laplace 1/ε, wu-wang Laplace or Gumbel 2/ε and exponential 1/ε, prefix-softmax temperature 1/η = max{2/ε, 8}.
    #[arg(long, allow_hyphen_values = true)]
    noise_scale: Option<String>,
    /// wu-wang only: Bernoulli resampling of the losses, 0 (default) or 1.
    #[arg(long)]
    resample: Option<String>,
    /// Write the regret at every epoch boundary 2^b − 1 < T and at T to this CSV file.
    #[arg(long)]
    curve: Option<PathBuf>,
    /// Draw regret against T (log axes) with the bounds, to an .svg or .png file.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Skip the bounds (then a tie for the best action is allowed).
    #[arg(long)]
    no_bounds: bool,
    /// Run a Bernoulli-setting enumeration above its size limit.
    #[arg(long)]
    force: bool,
    /// Instead of --means: a file of means, CSV (commas or newlines) or a JSON array of exact numbers (at most 16 MiB).
    #[arg(long, conflicts_with = "means")]
    means_file: Option<PathBuf>,
    /// The significant digits of the regret to certify: the precision is raised (up to 2048 bits) until the enclosure's relative width is below 10^-digits, or the output says why it cannot be.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::regret::certify::MAX_DIGITS)))]
    digits: u32,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    json: bool,
}

/// Where the flags of `regret` act ([`super::applies`]).
pub(super) const SCOPES: &[Scope] = &[
    scope("algorithm", EVERY),
    scope("means", EVERY),
    scope("setting", EVERY),
    scope("horizon", EVERY),
    scope("epsilon", EVERY),
    scope("noise", &["wu-wang"]),
    scope("noise_scale", NOISY),
    scope("resample", &["wu-wang"]),
    scope("curve", EVERY),
    scope("plot", EVERY),
    scope("no_bounds", EVERY),
    scope("force", EVERY),
    scope("means_file", EVERY),
    scope("digits", EVERY),
    scope("json", EVERY),
];

/// The algorithms of `--algorithm` (`wu-wang:gumbel` is wu-wang).
pub(super) fn subjects(args: &Args) -> Result<Vec<Subject>> {
    args.algorithm
        .split(',')
        .map(|name| {
            let text = name.split(':').next().unwrap_or_default();
            match text.parse::<AlgorithmId>() {
                Ok(id) => Ok(Subject::new(id.name(), &[id.name()])),
                Err(_) => Err(Error::InvalidInput(format!(
                    "unknown algorithm '{text}' (expected one of {})",
                    super::algorithm_help::online_regret_names().join(", ")
                ))),
            }
        })
        .collect()
}

/// Run the command; the text to print on stdout.
pub fn run(args: &Args) -> Result<String> {
    let means = match (&args.means, &args.means_file) {
        (Some(text), _) => parse_rational_list(text)?,
        (None, Some(path)) => crate::num::read_rational_file(path)?,
        (None, None) => unreachable!("clap requires --means or --means-file"),
    };
    let inst = Instance::new(means)?;
    let setting: Setting = args.setting.trim().parse()?;
    let horizon = parse_horizon(&args.horizon)?;
    let shared = Shared {
        epsilon: parse_rational(&args.epsilon)?,
        noise: args.noise.as_deref().map(str::parse::<Noise>).transpose()?,
        noise_scale: args
            .noise_scale
            .as_deref()
            .map(parse_rational)
            .transpose()?,
        resample: match &args.resample {
            Some(text) => super::args::parse_bit("--resample", text)? == 1,
            None => false,
        },
    };
    let entries = entries(&args.algorithm, inst.k(), &shared)?;
    if let Some(path) = &args.curve {
        super::output::check_writable("--curve", path, &[])?;
    }
    if let Some(path) = &args.plot {
        super::output::check_writable("--plot", path, &["svg", "png"])?;
    }
    if !args.no_bounds {
        require_unique_best(&entries, &inst, setting)?;
    }
    let limit = (!args.force).then_some(bernoulli::DEFAULT_LIMIT);
    let files = OutputFiles {
        curve: args.curve.as_ref().map(|p| p.display().to_string()),
        plot: args.plot.as_ref().map(|p| p.display().to_string()),
    };
    let mut results = Vec::new();
    let mut trajectories = Vec::new();
    for e in &entries {
        let regret = certify(
            &e.config,
            &inst,
            setting,
            horizon,
            limit,
            !args.no_bounds,
            args.digits,
        )?;
        if args.curve.is_some() || args.plot.is_some() {
            trajectories.push(Trajectory::new(&e.label, &regret, args.plot.is_some())?);
        }
        results.push(AlgorithmRegret::new(
            &e.label,
            &regret,
            &inst,
            setting,
            horizon,
            args.digits,
            &files,
        ));
    }
    let report = RegretReport::new(results);
    if let Some(path) = &args.curve {
        super::output::write_file(path, Trajectory::csv(&trajectories))?;
    }
    if let Some(path) = &args.plot {
        crate::report::plot::draw_regret(path, &report, &trajectories)?;
        super::output::wrote(path);
    }
    Ok(rendered(&report, args.json))
}
