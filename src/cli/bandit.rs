//! `dpdtol bandit`: Monte Carlo simulation (f64, **approximate**) of the
//! private bandit algorithms of Hu et al. and their baselines
//! ([`crate::bandit`]), with the mean pseudo-regret at logarithmically spaced
//! checkpoints, two confidence intervals at the chosen level (Student t, which
//! assumes normal sample means; empirical Bernstein, valid for any law of the
//! per-run regret on `[0, Δ_max t]`), the final regret table, a CSV file and a
//! plot like the papers' figures. Presets reproduce 004 §6 (`hu-fig1`,
//! `hu-fig2`) and what 002 §6 states (`hu2021`).

use super::applies::{scope, Scope, Subject, EVERY};
use super::args::{parse_exact_list, parse_f64_list, parse_one, parse_rounds, parse_tree_depth};
use crate::bandit::law::dp_se::DpSeVariant;
use crate::bandit::policy::experiment::{algorithms, preset, Given, Plan, Readings};
use crate::bandit::policy::ucb1::Ties;
use crate::bandit::policy::{bonus_rounds, BanditConfig, BanditId, Named};
use crate::error::Result;
use crate::progress::{with_progress, Task};
use crate::report::bandit::BanditReport;
use crate::report::{plot, to_json};
use std::path::PathBuf;

/// Flags of `dpdtol bandit`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The algorithm (its help, the list of the algorithms accepted, is
    /// generated: `cli::algorithm_help`).
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
    /// The failure probability: DP-SE's β (default 1/T), DP-UCB's γ (default 1/10).
    #[arg(long, allow_hyphen_values = true)]
    beta: Option<String>,
    /// dp-se only: the order of the pulls inside an epoch, blocks (default: each arm's R_e pulls in turn) or round-robin.
    #[arg(long)]
    pull_order: Option<String>,
    /// dp-se only: the epoch length R_e as floor-plus-one (default, ⌊·⌋ + 1), ceiling (⌈·⌉, the same integers), floor (⌊·⌋) or ceiling-plus-one (⌈· + 1⌉ = ⌊·⌋ + 2).
    #[arg(long)]
    rounding: Option<String>,
    /// dp-se only: the R_e its elimination radius reads, integer (default: the number of pulls) or real (the real R_e before rounding).
    #[arg(long)]
    radius: Option<String>,
    /// dp-ucb only: the binary mechanism's depth L, an integer in 1..=63 (default ⌈log₂ T⌉; the node scale is L/ε unless --noise-scale).
    #[arg(long)]
    tree_depth: Option<String>,
    /// ucb1 only: how it chooses among arms of equal index, lowest (default: each arm once in order, then ties to the lowest arm), uniform (an unplayed arm's index is +inf, and the arm is drawn uniformly among those of maximal index, the first K rounds included), highest (each arm once in order, then ties to the highest arm) or ordered-uniform (each arm once in order, then ties drawn uniformly among the arms of maximal index).
    #[arg(long)]
    ties: Option<String>,
    /// dp-ts and ucb1: the round whose ln its bonus reads. dp-ts: current (default: the round of the draw) or last-update (the round of the arm's last observation, the bonus and Beta parameters frozen until its next one); ucb1: plays (default: ln n, n = t − 1 the plays before round t, as Auer et al. print it) or current (ln t of the current round, as in Bubeck & Cesa-Bianchi's α-UCB). Each algorithm simulated reads the value when it is one of its names.
    #[arg(long)]
    bonus_round: Option<String>,
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

/// The private algorithms (those with an ε and a noise scale).
const PRIVATE: &[&str] = &[
    "anytime-lazy-ucb",
    "lazy-dp-ts",
    "dp-ts",
    "hybrid-ucb",
    "dp-se",
    "dp-ucb",
    "dp-ucb-bound",
    "dp-ucb-int",
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
            "dp-ts",
            "hybrid-ucb",
            "adap-klucb",
            "ucb1",
            "dp-ucb",
            "dp-ucb-bound",
            "dp-ucb-int",
        ],
    ),
    scope("beta", &["dp-se", "dp-ucb"]),
    scope("pull_order", &["dp-se"]),
    scope("rounding", &["dp-se"]),
    scope("radius", &["dp-se"]),
    scope("tree_depth", &["dp-ucb"]),
    scope("ties", &["ucb1"]),
    scope("bonus_round", &["dp-ts", "ucb1"]),
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
        horizon: args.horizon.as_deref().map(parse_rounds).transpose()?,
        runs: args.runs,
        level: parse_one("--confidence", &args.confidence)?,
    })?;
    // DP-SE's β is `--beta`, shared with DP-UCB's γ (read as f64 here).
    let dp_se = DpSeVariant::parse(
        None,
        args.pull_order.as_deref(),
        args.rounding.as_deref(),
        args.radius.as_deref(),
        None,
    )?;
    let (ucb1_bonus_round, bonus_round) =
        bonus_rounds(args.bonus_round.as_deref(), &plan.algorithms)?;
    let configs = plan.configs(
        optional("--noise-scale", &args.noise_scale)?,
        optional("--bonus", &args.bonus)?,
        optional("--beta", &args.beta)?,
        Readings {
            pull_order: dp_se.order,
            rounding: dp_se.rounding,
            radius: dp_se.radius,
            tree_depth: args
                .tree_depth
                .as_deref()
                .map(parse_tree_depth)
                .transpose()?,
            ties: Ties::given(args.ties.as_deref())?,
            bonus_round,
            ucb1_bonus_round,
        },
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
    let report = simulate_with_progress(&configs, &plan, args)?;
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

/// The report of the runs of every configuration, with a progress bar on
/// stderr ([`crate::progress`]), on `--threads` workers.
fn simulate_with_progress(
    configs: &[BanditConfig],
    plan: &Plan,
    args: &Args,
) -> Result<BanditReport> {
    let task = Task {
        name: "bandit",
        unit: "runs",
    };
    let total = configs.len() as u64 * plan.runs;
    let work = || {
        with_progress(true, task, total, |bar| {
            BanditReport::simulate(
                plan,
                configs,
                args.experiment.as_deref(),
                args.seed,
                &|| bar.add(1),
            )
        })
    };
    crate::size::with_threads(args.threads, work)
}
