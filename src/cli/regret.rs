//! `dpdtol regret`: the exact pseudo-regret of one or several algorithms on
//! one instance, with the papers' bounds side by side; `--curve` writes the
//! regret at every epoch boundary, `--plot` draws it against T.

use super::applies::{scope, Scope, Subject, EVERY};
use super::law::NOISY;
use crate::algorithm::{AlgorithmId, Config};
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{parse_power_count, parse_rational, parse_rational_list, Q};
use crate::regret::bounds::BoundKind;
use crate::regret::certify::certify;
use crate::regret::plot::{self, Series, Style};
use crate::regret::{self, bernoulli, Instance, Round, Setting};
use crate::report::regret::{AlgorithmRegret, OutputFiles, RegretReport, Trajectory};
use crate::report::rendered;
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Flags of `dpdtol regret`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// [required] The algorithm(s), comma-separated: ftl, naive-ftnl, hu-rnm-ftnl, wu-wang, prefix-softmax; wu-wang:NOISE picks wu-wang's noise (gumbel, exponential, laplace).
    #[arg(long)]
    algorithm: String,
    /// [required unless --means-file] The loss means μ_1..μ_K in [0, 1], comma-separated, exactly: 0.1,1/4,1.
    #[arg(
        long,
        allow_hyphen_values = true,
        required_unless_present = "means_file"
    )]
    means: Option<String>,
    /// [required] deterministic (the loss vector is μ every round) or bernoulli (X_{t,j} ~ Bernoulli(μ_j), independent).
    #[arg(long)]
    setting: String,
    /// [required] The horizon T ≥ 1: an integer, or 2^k, 2^k-1, 2^k+1.
    #[arg(long, allow_hyphen_values = true)]
    horizon: String,
    /// [required] The privacy parameter ε > 0 the paper's default scales derive from, exactly: 1, 0.5, 1/2.
    #[arg(long, allow_hyphen_values = true)]
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
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=300))]
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
            let id: AlgorithmId = name.split(':').next().unwrap_or_default().parse()?;
            Ok(Subject::new(id.name(), &[id.name()]))
        })
        .collect()
}

/// Parse a horizon with the grammar of [`parse_power_count`]: an integer,
/// or `2^k`, `2^k-c`, `2^k+c`.
pub fn parse_horizon(text: &str) -> Result<Round> {
    let text = text.trim();
    let bad = || {
        Error::Parse(format!(
            "--horizon expects a positive integer such as 1000, 2^40 or 2^10-1, got '{text}'"
        ))
    };
    let value: BigInt = parse_power_count(text).ok_or_else(bad)?;
    if !value.is_positive() {
        return Err(Error::InvalidInput(format!(
            "the horizon T must be at least 1, got {value}"
        )));
    }
    let t: Round = value
        .to_u128()
        .ok_or_else(|| Error::InvalidInput(format!("the horizon T = {value} is above 2^100")))?;
    regret::check_horizon(t)?;
    Ok(t)
}

/// One algorithm of the run with its configuration.
struct Entry {
    config: Config,
    label: String,
}

fn entries(args: &Args, k: usize, epsilon: &Q) -> Result<Vec<Entry>> {
    let names: Vec<&str> = args.algorithm.split(',').map(str::trim).collect();
    let several = names.len() > 1;
    let noise = args.noise.as_deref().map(str::parse::<Noise>).transpose()?;
    let noise_scale = args
        .noise_scale
        .as_deref()
        .map(parse_rational)
        .transpose()?;
    let resample = match &args.resample {
        Some(text) => super::args::parse_bit("--resample", text)? == 1,
        None => false,
    };
    let mut out = Vec::new();
    let mut noise_used = false;
    for name in names {
        let (id_text, inline_noise) = match name.split_once(':') {
            Some((id, n)) => (id, Some(n.parse::<Noise>()?)),
            None => (name, None),
        };
        let id: AlgorithmId = id_text.parse()?;
        if inline_noise.is_some() && id != AlgorithmId::WuWang {
            return Err(Error::InvalidInput(format!(
                "'{name}': only wu-wang takes a noise (wu-wang:gumbel)"
            )));
        }
        // With several algorithms the wu-wang-only flags apply to wu-wang,
        // and --noise-scale to every algorithm that has noise.
        let is_ww = id == AlgorithmId::WuWang;
        let config = Config {
            id,
            actions: k,
            epsilon: epsilon.clone(),
            noise: inline_noise.or(if several && !is_ww { None } else { noise }),
            noise_scale: if several && id == AlgorithmId::Ftl {
                None
            } else {
                noise_scale.clone()
            },
            resample: if several && !is_ww { false } else { resample },
        };
        config.validate()?;
        let mut label = id.name().to_string();
        if is_ww {
            let n = config.noise.unwrap_or(Noise::Laplace);
            label = format!(
                "{label} ({n}{})",
                if config.resample { ", B=1" } else { "" }
            );
        }
        out.push(Entry { config, label });
        noise_used |= is_ww && inline_noise.is_none();
    }
    // The flag table refuses --noise without wu-wang; with only wu-wang:NOISE
    // it would still act on none of them.
    if noise.is_some() && !noise_used {
        return Err(Error::InvalidInput(format!(
            "--noise (wu-wang without :NOISE only) applies to none of the algorithms '{}'",
            args.algorithm
        )));
    }
    Ok(out)
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
    let epsilon = parse_rational(&args.epsilon)?;
    if !epsilon.is_positive() {
        return Err(Error::InvalidInput(format!(
            "epsilon must be positive, got {epsilon}"
        )));
    }
    let entries = entries(args, inst.k(), &epsilon)?;
    if let Some(path) = &args.curve {
        super::output::check_writable("--curve", path, &[])?;
    }
    if let Some(path) = &args.plot {
        super::output::check_writable("--plot", path, &["svg", "png"])?;
    }
    if !args.no_bounds {
        for e in &entries {
            let exempt = e.config.id == AlgorithmId::WuWang && setting == Setting::Deterministic;
            if !exempt {
                inst.require_unique_best(&format!(
                    "the regret bounds of {} (pass --no-bounds to compute the regret alone)",
                    e.config.id
                ))?;
            }
        }
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
        write_curve(path, &trajectories)?;
    }
    if let Some(path) = &args.plot {
        draw(path, &report, &trajectories)?;
    }
    Ok(rendered(&report, args.json))
}

/// The regret at every boundary of every algorithm, as CSV.
fn write_curve(path: &Path, trajectories: &[Trajectory]) -> Result<()> {
    let mut text = String::from("algorithm,T,regret,regret_lo,regret_hi\n");
    for c in trajectories {
        for p in &c.points {
            let [lo, hi] = p
                .interval
                .as_ref()
                .map_or(["", ""], |i| [i.0[0].0.as_str(), i.0[1].0.as_str()]);
            let _ = writeln!(
                text,
                "{},{},{},{lo},{hi}",
                c.label.replace(',', ";"),
                p.t,
                p.regret.0
            );
        }
    }
    super::output::write_file(path, text)
}

/// Regret against T on log axes, with the bounds on the regret itself.
fn draw(path: &Path, report: &RegretReport, trajectories: &[Trajectory]) -> Result<()> {
    let mut series = Vec::new();
    for (group, c) in trajectories.iter().enumerate() {
        series.push(Series {
            label: format!("{}: exact regret", c.label),
            group,
            style: Style::Regret,
            points: c
                .points
                .iter()
                .map(|p| (p.t as f64, p.approximate))
                .collect(),
        });
        let (mut uppers, mut lowers) = (0, 0);
        series.extend(c.bounds.iter().map(|line| Series {
            label: format!(
                "{}: {} ({}{})",
                c.label,
                line.id,
                line.kind.name(),
                if line.fails { ", FAILS at T" } else { "" }
            ),
            group,
            style: match line.kind {
                BoundKind::Upper => {
                    uppers += 1;
                    Style::Upper(uppers - 1)
                }
                BoundKind::Lower => {
                    lowers += 1;
                    Style::Lower(lowers - 1)
                }
            },
            points: line.points.clone(),
        }));
    }
    let first = &report.results()[0];
    let title = format!(
        "Pseudo-regret, μ = ({}), ε = {}, {} setting",
        first.means_text(),
        first.epsilon.0,
        first.setting
    );
    plot::draw(path, &title, "horizon T", &series)?;
    super::output::wrote(path);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn horizons_parse() {
        assert_eq!(parse_horizon("1000").unwrap(), 1000);
        assert_eq!(parse_horizon("2^40").unwrap(), 1 << 40);
        assert_eq!(parse_horizon("2^10-1").unwrap(), 1023);
        assert!(parse_horizon("0").is_err());
        assert!(parse_horizon("1.5").is_err());
        assert!(parse_horizon("2^101").is_err());
        // A doubled sign or a malformed power is refused (2^10--5 is not 2^10 + 5).
        for bad in [
            "2^10--5", "2^10+-5", "2^10-", "2^-3", "2^1.5", "2^ 10", "2^10-1-1",
        ] {
            assert!(parse_horizon(bad).is_err(), "{bad}");
        }
    }
}
