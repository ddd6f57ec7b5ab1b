//! `dpdtol bandit`: Monte Carlo simulation (f64, **approximate**) of the
//! private bandit algorithms of Hu et al. and their baselines
//! ([`crate::bandit`]), with the mean pseudo-regret at logarithmically spaced
//! checkpoints, two confidence intervals at the chosen level (Student t, which
//! assumes normal sample means; empirical Bernstein, valid for any law of the
//! per-run regret on `[0, Δ_max t]`), the final regret table, a CSV file and a
//! plot like the papers' figures. Presets reproduce 004 §6 (`hu-fig1`,
//! `hu-fig2`) and what 002 §6 states (`hu2021`).

use super::applies::{scope, Scope, Subject, EVERY};
use crate::bandit::policy::sim::{self, checkpoints, RewardLaw, Run};
use crate::bandit::policy::{BanditConfig, BanditId};
use crate::error::{Error, Result};
use crate::num::{parse_rational_list, Q};
use crate::regret::plot::{self, Series, Style};
use crate::report::bandit::{BanditReport, BanditResult, Simulation};
use crate::report::to_json;
use num_traits::ToPrimitive;
use std::fmt::Write;
use std::path::{Path, PathBuf};

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

/// Arm-rounds (configurations × runs × T × K) allowed without `--force`.
const LIMIT: f64 = 2e10;

/// A preset of the papers' experiments.
struct Preset {
    algorithms: &'static [BanditId],
    /// The means as the paper prints them, parsed exactly.
    means: &'static str,
    epsilons: &'static [f64],
    horizon: u64,
    runs: u64,
}

const ALL: &[BanditId] = &BanditId::ALL;

fn preset(name: &str) -> Result<Preset> {
    match name.trim() {
        // 004 §6, L341: T = 10⁶, K = 5, ε ∈ {0.25, 0.5, 1}, 20 runs; setting 1.
        "hu-fig1" => Ok(Preset {
            algorithms: ALL,
            means: "0.75,0.625,0.5,0.375,0.25",
            epsilons: &[0.25, 0.5, 1.0],
            horizon: 1_000_000,
            runs: 20,
        }),
        // 004 §6, L341: setting 2.
        "hu-fig2" => Ok(Preset {
            algorithms: ALL,
            means: "0.5,0.4,0.4,0.4,0.4",
            epsilons: &[0.25, 0.5, 1.0],
            horizon: 1_000_000,
            runs: 20,
        }),
        // 002 §6 (L134–L142): Anytime-Lazy-UCB, Hybrid-UCB and DP-SE; T, the
        // number of runs, β, the ε grid and the means were lost in extraction.
        // Kept: the three algorithms, "small" and "large" ε (L142); taken from
        // 004 §6: T, K, runs and setting 1's means.
        "hu2021" => Ok(Preset {
            algorithms: &[
                BanditId::AnytimeLazyUcb,
                BanditId::HybridUcb,
                BanditId::DpSe,
            ],
            means: "0.75,0.625,0.5,0.375,0.25",
            epsilons: &[0.25, 1.0, 4.0, 16.0],
            horizon: 1_000_000,
            runs: 20,
        }),
        other => Err(Error::InvalidInput(format!(
            "unknown --experiment '{other}' (known: hu-fig1, hu-fig2, hu2021)"
        ))),
    }
}

fn to_f64(q: &Q) -> f64 {
    q.to_f64().unwrap_or(f64::NAN)
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

/// What to simulate, after presets and flags.
struct Plan {
    algorithms: Vec<BanditId>,
    /// The means as given (exact); the simulation draws with their nearest f64.
    means: Vec<Q>,
    law: RewardLaw,
    epsilons: Vec<f64>,
    horizon: u64,
    runs: u64,
    alpha: f64,
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

/// The algorithms simulated: `--algorithm`, else the preset's.
fn algorithms(args: &Args, preset: Option<&Preset>) -> Result<Vec<BanditId>> {
    match (&args.algorithm, preset) {
        (Some(text), _) => text.split(',').map(str::parse).collect(),
        (None, Some(p)) => Ok(p.algorithms.to_vec()),
        (None, None) => Err(Error::InvalidInput(
            "--algorithm is required (or --experiment hu-fig1|hu-fig2|hu2021)".into(),
        )),
    }
}

/// The algorithms as the subjects of the flags.
pub(super) fn subjects(args: &Args) -> Result<Vec<Subject>> {
    let preset = args.experiment.as_deref().map(preset).transpose()?;
    Ok(algorithms(args, preset.as_ref())?
        .into_iter()
        .map(|id| Subject::new(id.name(), &[id.name()]))
        .collect())
}

fn plan(args: &Args) -> Result<Plan> {
    let preset = args.experiment.as_deref().map(preset).transpose()?;
    let algorithms = algorithms(args, preset.as_ref())?;
    let means = match (&args.means, &preset) {
        (Some(text), _) => parse_exact_list("--means", text)?,
        (None, Some(p)) => parse_exact_list("--means", p.means)?,
        (None, None) => return Err(Error::InvalidInput("--means is required".into())),
    };
    let law = RewardLaw::bernoulli(means.iter().map(to_f64).collect())?;
    let epsilons = match (&args.epsilon, &preset) {
        (Some(text), _) => parse_f64_list("--epsilon", text)?,
        (None, Some(p)) => p.epsilons.to_vec(),
        (None, None) if algorithms.iter().all(|a| !a.is_private()) => vec![1.0],
        (None, None) => return Err(Error::InvalidInput("--epsilon is required".into())),
    };
    if let Some(e) = epsilons.iter().find(|e| !(e.is_finite() && **e > 0.0)) {
        return Err(Error::InvalidInput(format!(
            "--epsilon must be positive, got {e}"
        )));
    }
    let horizon = match (&args.horizon, &preset) {
        (Some(text), _) => parse_horizon(text)?,
        (None, Some(p)) => p.horizon,
        (None, None) => return Err(Error::InvalidInput("--horizon is required".into())),
    };
    if horizon < law.arms() as u64 {
        return Err(Error::InvalidInput(format!(
            "--horizon {horizon} is smaller than K = {}",
            law.arms()
        )));
    }
    let runs = args.runs.or(preset.as_ref().map(|p| p.runs)).unwrap_or(20);
    if runs < 2 {
        return Err(Error::InvalidInput(format!(
            "--runs must be at least 2, got {runs}"
        )));
    }
    let level = parse_one("--confidence", &args.confidence)?;
    if !(level > 0.0 && level < 1.0) {
        return Err(Error::InvalidInput(format!(
            "--confidence must lie in (0, 1), got {level}"
        )));
    }
    Ok(Plan {
        algorithms,
        means,
        law,
        epsilons,
        horizon,
        runs,
        alpha: 1.0 - level,
    })
}

/// Run the command; the text to print on stdout.
pub fn run(args: &Args) -> Result<String> {
    let plan = plan(args)?;
    let overrides = |id: BanditId, eps: f64| -> Result<BanditConfig> {
        let mut c = BanditConfig::new(id, eps);
        c.noise_scale = args
            .noise_scale
            .as_deref()
            .map(|s| parse_one("--noise-scale", s))
            .transpose()?;
        c.bonus = args
            .bonus
            .as_deref()
            .map(|s| parse_one("--bonus", s))
            .transpose()?;
        c.beta = args
            .beta
            .as_deref()
            .map(|s| parse_one("--beta", s))
            .transpose()?;
        c.validate()?;
        Ok(c)
    };
    // Non-private baselines do not depend on ε: simulated once.
    let mut configs = Vec::new();
    for id in &plan.algorithms {
        if id.is_private() {
            for &e in &plan.epsilons {
                configs.push(overrides(*id, e)?);
            }
        } else {
            configs.push(overrides(*id, plan.epsilons[0])?);
        }
    }
    // Each simulated round may look at every arm (UCB1, Thompson sampling).
    let arms = plan.law.arms() as f64;
    let work = configs.len() as f64 * plan.runs as f64 * plan.horizon as f64 * arms;
    if work > LIMIT && !args.force {
        return Err(Error::TooLarge(format!(
            "{work:.3e} arm-rounds ({} configurations × {} runs × T = {} × K = {arms}) exceed {LIMIT:.0e}; pass --force to run them",
            configs.len(),
            plan.runs,
            plan.horizon
        )));
    }
    // Output files are checked before the work, not after it.
    if let Some(path) = &args.csv {
        super::output::check_writable("--csv", path, &[])?;
    }
    if let Some(path) = &args.plot {
        for (_, file) in plot_files(path, &plan.epsilons) {
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
        write_csv(path, &report)?;
    }
    if let Some(path) = &args.plot {
        draw(path, &report, &plan.epsilons)?;
    }
    Ok(if args.json {
        to_json(&report)
    } else {
        report.tables(&plan.epsilons)
    })
}

fn simulate_with_progress(
    configs: &[BanditConfig],
    plan: &Plan,
    marks: &[u64],
    args: &Args,
) -> Result<Vec<Vec<Run>>> {
    let total = configs.len() as u64 * plan.runs;
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(total),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("bandit {wide_bar} {pos}/{len} runs, {elapsed}")
    {
        bar.set_style(style);
    }
    let done = || bar.inc(1);
    let work = || {
        sim::simulate(
            configs,
            &plan.law,
            plan.horizon,
            plan.runs,
            args.seed,
            marks,
            &done,
        )
    };
    let out = match args.threads {
        Some(n) => crate::size::thread_pool(Some(n))?.install(work),
        None => work(),
    };
    bar.finish_and_clear();
    out
}

fn write_csv(path: &Path, report: &BanditReport) -> Result<()> {
    let mut text =
        String::from("algorithm,epsilon,t,mean,sd,t_lo,t_hi,bernstein_lo,bernstein_hi\n");
    for r in &report.results {
        let eps = r.epsilon.map_or(String::new(), |e| e.0.to_string());
        for (i, t) in report.checkpoints.iter().enumerate() {
            let [t_lo, t_hi] = r.t_interval[i];
            let [b_lo, b_hi] = r.bernstein_interval[i];
            let _ = writeln!(
                text,
                "{},{eps},{t},{},{},{},{},{},{}",
                r.algorithm, r.mean[i].0, r.sd[i].0, t_lo.0, t_hi.0, b_lo.0, b_hi.0
            );
        }
    }
    super::output::write_file(path, text)
}

/// The plot file of each ε: `path` itself for one ε, else `<stem>-eps<ε>.<ext>`.
fn plot_files(path: &Path, epsilons: &[f64]) -> Vec<(f64, PathBuf)> {
    epsilons
        .iter()
        .map(|&eps| {
            let file = if epsilons.len() == 1 {
                path.to_path_buf()
            } else {
                let stem = path
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or("bandit");
                let ext = path.extension().and_then(|s| s.to_str()).unwrap_or("svg");
                path.with_file_name(format!("{stem}-eps{eps}.{ext}"))
            };
            (eps, file)
        })
        .collect()
}

/// Mean regret against t with its t-band, one file per ε of `epsilons`.
fn draw(path: &Path, report: &BanditReport, epsilons: &[f64]) -> Result<()> {
    for (eps, file) in plot_files(path, epsilons) {
        let mut series = Vec::new();
        for (group, r) in report.panel(eps).enumerate() {
            let points = |values: &dyn Fn(usize) -> f64| -> Vec<(f64, f64)> {
                report
                    .checkpoints
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (*t as f64, values(i)))
                    .collect()
            };
            let name = &r.algorithm;
            series.push(Series {
                label: format!("{name}: mean regret"),
                group,
                style: Style::Regret,
                points: points(&|i| r.mean[i].0),
            });
            for end in [0, 1] {
                series.push(Series {
                    label: format!("{name}: t-band"),
                    group,
                    style: Style::Band,
                    points: points(&|i| r.t_interval[i][end].0),
                });
            }
        }
        let title = format!(
            "means {}, ε = {eps}, {} runs (dotted: the {}% t-band; approximate)",
            report.exact_means(),
            report.runs,
            report.percent()
        );
        plot::draw(&file, &title, "rounds t", &series)?;
        super::output::wrote(&file);
    }
    Ok(())
}
