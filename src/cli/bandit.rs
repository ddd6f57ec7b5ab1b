//! `dpdtol bandit`: Monte Carlo simulation (f64, **approximate**) of the
//! private bandit algorithms of Hu et al. and their baselines
//! ([`crate::bandit`]), with the mean pseudo-regret at logarithmically spaced
//! checkpoints, two confidence intervals at the chosen level (Student t, which
//! assumes normal sample means; empirical Bernstein, valid for any law of the
//! per-run regret on `[0, Δ_max t]`), the final regret table, a CSV file and a
//! plot like the papers' figures. Presets reproduce 004 §6 (`hu-fig1`,
//! `hu-fig2`) and what 002 §6 states (`hu2021`).

use super::applies::{scope, Scope, Subject, EVERY};
use crate::bandit::policy::experiment::{algorithms, preset, Given, Plan};
use crate::bandit::policy::sim::{self, checkpoints, Run};
use crate::bandit::policy::{BanditConfig, BanditId};
use crate::error::{Error, Result};
use crate::num::{parse_rational_list, Q};
use crate::progress::{with_progress, Task};
use crate::report::bandit::{BanditReport, BanditResult, Simulation};
use crate::report::{plot, to_json};
use std::path::PathBuf;

/// Flags of `dpdtol bandit`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The algorithm(s), comma-separated: anytime-lazy-ucb, lazy-dp-ts, hybrid-ucb, dp-se, adap-klucb, ucb1, thompson.
    #[arg(long)]
    algorithm: Option<String>,
    /// Bernoulli means μ_1..μ_K in [0, 1], comma-separated: 0.75,0.625,1/2.
    #[arg(long, allow_hyphen_values = true)]
    means: Option<String>,
    /// The privacy parameter(s) ε > 0, comma-separated: 1/4,1/2,1.
    #[arg(long, allow_hyphen_values = true)]
    epsilon: Option<String>,
    /// The horizon T ≥ K: 1000000, 10^6 or 1e6.
    #[arg(long)]
    horizon: Option<String>,
    /// Independent runs per algorithm and ε (≥ 2).
    #[arg(long)]
    runs: Option<u64>,
    /// The master seed; run i uses streams 2i (rewards) and 2i+1 (noise).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: rayon's, one per core); results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// A preset: hu-fig1, hu-fig2 (Hu, Huang, Mehta & Hegde, journal version, §6) or hu2021 (their earlier version, §6, as far as its text allows).
    #[arg(long)]
    experiment: Option<String>,
    /// Confidence level of the intervals, in (0, 1).
    #[arg(long, default_value = "0.95")]
    confidence: String,
    /// Overrides each algorithm's Laplace noise scale.
    #[arg(long, allow_hyphen_values = true)]
    noise_scale: Option<String>,
    /// Overrides the constant of the confidence terms (3 in 004, 2 in UCB1, α = 3.1 in AdaP-KLUCB).
    #[arg(long, allow_hyphen_values = true)]
    bonus: Option<String>,
    /// DP-SE's failure probability β (default 1/T).
    #[arg(long, allow_hyphen_values = true)]
    beta: Option<String>,
    /// Write every checkpoint of every algorithm to this CSV file.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// Draw mean regret against t with its band (.svg or .png); with several ε, one file per ε (suffix -eps<ε>).
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Run more than 2·10¹⁰ simulated rounds in total.
    #[arg(long)]
    force: bool,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    json: bool,
}

fn parse_exact_list(flag: &str, text: &str) -> Result<Vec<Q>> {
    parse_rational_list(text).map_err(|e| Error::InvalidInput(format!("{flag}: {e}")))
}

fn parse_f64_list(flag: &str, text: &str) -> Result<Vec<f64>> {
    let parts: Vec<&str> = text.split(',').collect();
    parse_exact_list(flag, text)?
        .iter()
        .zip(parts)
        .map(|(q, given)| super::args::f64_of(flag, given, q))
        .collect()
}

fn parse_one(flag: &str, text: &str) -> Result<f64> {
    let list = parse_f64_list(flag, text)?;
    match list.as_slice() {
        [x] => Ok(*x),
        _ => Err(Error::InvalidInput(format!(
            "{flag} takes one number, got '{text}'"
        ))),
    }
}

/// `1000000`, `10^6`, `1e6`.
fn parse_horizon(text: &str) -> Result<u64> {
    let t = text.trim();
    let bad = || {
        Error::InvalidInput(format!(
            "--horizon expects a positive integer such as 1000000, 10^6 or 1e6, got '{t}'"
        ))
    };
    let power = |base: &str, exp: &str| -> Result<u64> {
        let b: u64 = base.parse().map_err(|_| bad())?;
        let e: u32 = exp.parse().map_err(|_| bad())?;
        b.checked_pow(e).ok_or_else(bad)
    };
    let value = if let Some((b, e)) = t.split_once('^') {
        power(b, e)?
    } else if let Some((m, e)) = t.split_once(['e', 'E']) {
        let m: u64 = m.parse().map_err(|_| bad())?;
        m.checked_mul(power("10", e)?).ok_or_else(bad)?
    } else {
        t.parse().map_err(|_| bad())?
    };
    if value == 0 {
        return Err(bad());
    }
    Ok(value)
}

/// The private algorithms (those with an ε and a noise scale).
const PRIVATE: &[&str] = &[
    "anytime-lazy-ucb",
    "lazy-dp-ts",
    "hybrid-ucb",
    "dp-se",
    "adap-klucb",
];

/// Where the flags of `bandit` act ([`super::applies`]): a parameter acts on
/// the algorithms that have it.
pub(super) const SCOPES: &[Scope] = &[
    scope("algorithm", EVERY),
    scope("means", EVERY),
    scope("epsilon", PRIVATE),
    scope("horizon", EVERY),
    scope("runs", EVERY),
    scope("seed", EVERY),
    scope("threads", EVERY),
    scope("experiment", EVERY),
    scope("confidence", EVERY),
    scope("noise_scale", PRIVATE),
    scope(
        "bonus",
        &[
            "anytime-lazy-ucb",
            "lazy-dp-ts",
            "hybrid-ucb",
            "adap-klucb",
            "ucb1",
        ],
    ),
    scope("beta", &["dp-se"]),
    scope("csv", EVERY),
    scope("plot", EVERY),
    scope("force", EVERY),
    scope("json", EVERY),
];

/// The algorithms of `--algorithm`, when given.
fn given_algorithms(args: &Args) -> Result<Option<Vec<BanditId>>> {
    args.algorithm
        .as_deref()
        .map(|text| text.split(',').map(str::parse).collect())
        .transpose()
}

/// The algorithms as the subjects of the flags.
pub(super) fn subjects(args: &Args) -> Result<Vec<Subject>> {
    let preset = args.experiment.as_deref().map(preset).transpose()?;
    Ok(algorithms(given_algorithms(args)?, preset.as_ref())?
        .into_iter()
        .map(|id| Subject::new(id.name(), &[id.name()]))
        .collect())
}

/// Run the command; the text to print on stdout.
pub fn run(args: &Args) -> Result<String> {
    let optional =
        |flag: &str, text: &Option<String>| text.as_deref().map(|s| parse_one(flag, s)).transpose();
    let plan = Plan::new(Given {
        experiment: args.experiment.as_deref(),
        algorithms: given_algorithms(args)?,
        means: args
            .means
            .as_deref()
            .map(|text| parse_exact_list("--means", text))
            .transpose()?,
        epsilons: args
            .epsilon
            .as_deref()
            .map(|text| parse_f64_list("--epsilon", text))
            .transpose()?,
        horizon: args.horizon.as_deref().map(parse_horizon).transpose()?,
        runs: args.runs,
        level: parse_one("--confidence", &args.confidence)?,
    })?;
    let configs = plan.configs(
        optional("--noise-scale", &args.noise_scale)?,
        optional("--bonus", &args.bonus)?,
        optional("--beta", &args.beta)?,
        args.force,
    )?;
    // Output files are checked before the work, not after it.
    if let Some(path) = &args.csv {
        super::output::check_writable("--csv", path, &[])?;
    }
    if let Some(path) = &args.plot {
        for (_, file) in plot::bandit_files(path, &plan.epsilons) {
            super::output::check_writable("--plot", &file, &["svg", "png"])?;
        }
    }
    let marks = checkpoints(plan.horizon, 10);
    let grid = simulate_with_progress(&configs, &plan, &marks, args)?;
    let results = configs
        .iter()
        .zip(grid)
        .map(|(config, runs)| BanditResult::new(config, &runs, &marks, &plan.law, plan.alpha))
        .collect();
    let simulation = Simulation {
        experiment: args.experiment.as_deref(),
        means: &plan.means,
        horizon: plan.horizon,
        runs: plan.runs,
        seed: args.seed,
        alpha: plan.alpha,
        checkpoints: &marks,
    };
    let report = BanditReport::new(&simulation, results);
    if let Some(path) = &args.csv {
        super::output::write_file(path, report.csv())?;
    }
    if let Some(path) = &args.plot {
        for file in plot::draw_bandit(path, &report, &plan.epsilons)? {
            super::output::wrote(&file);
        }
    }
    Ok(if args.json {
        to_json(&report)
    } else {
        report.tables(&plan.epsilons)
    })
}

/// The runs of every configuration, with a progress bar on stderr
/// ([`crate::progress`]), on `--threads` workers.
fn simulate_with_progress(
    configs: &[BanditConfig],
    plan: &Plan,
    marks: &[u64],
    args: &Args,
) -> Result<Vec<Vec<Run>>> {
    let task = Task {
        name: "bandit",
        unit: "runs",
    };
    let total = configs.len() as u64 * plan.runs;
    let work = || {
        with_progress(true, task, total, |bar| {
            let done = || bar.add(1);
            sim::simulate(
                configs,
                &plan.law,
                plan.horizon,
                plan.runs,
                args.seed,
                marks,
                &done,
            )
        })
    };
    match args.threads {
        Some(n) => crate::size::thread_pool(Some(n))?.install(work),
        None => work(),
    }
}
