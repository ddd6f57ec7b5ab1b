//! `dpdtol privacy`: the exhaustive privacy check of an online algorithm on
//! every pair of neighbouring loss sequences over a finite alphabet.

mod all_epsilon;
mod bandit;
mod one_shot;
mod statistical;

use super::args::{parse_bit, parse_count};
use crate::algorithm::{Algorithm, AlgorithmId, Config};
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{parse_power_count, parse_rational, parse_rational_list};
use crate::privacy::{check, Method, Options, Problem, Shard, Verdict};
use crate::report::privacy::{
    self as report_privacy, algorithm_text, Described, ExactRatio, PrivacyReport,
};
use crate::report::{merge, to_json, Enclosure, NumberKind};
use serde_json::Value;
use std::fmt::Write;

/// Flags of `dpdtol privacy`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// [required unless --merge or --mechanism] The algorithm: ftl, naive-ftnl, hu-rnm-ftnl, wu-wang or prefix-softmax; or the bandit anytime-lazy-ucb or dp-se (exact, certified) or lazy-dp-ts and hybrid-ucb (statistical audits): K = 2, the alphabet holds rewards.
    #[arg(long, required_unless_present_any = ["merge", "mechanism"])]
    algorithm: Option<String>,
    /// [required unless --merge] The number of actions K ≥ 2.
    #[arg(long, allow_hyphen_values = true, required_unless_present = "merge")]
    actions: Option<String>,
    /// [required unless --merge or --mechanism] The horizon t ≥ 1 (rounds per loss sequence): 3, 2^2, 2^2-1.
    #[arg(long, allow_hyphen_values = true, required_unless_present_any = ["merge", "mechanism"])]
    horizon: Option<String>,
    /// [required unless --merge] The loss values each loss may take, comma-separated, in [0, 1]: 0,1/2,1.
    #[arg(long, allow_hyphen_values = true, required_unless_present = "merge")]
    alphabet: Option<String>,
    /// [required unless --merge, --epsilon-range or --all-epsilon] The privacy parameter ε > 0 to check (and the paper's default scales derive from), exactly: 1, 0.5, 1/2.
    #[arg(long, allow_hyphen_values = true, required_unless_present_any = ["merge", "epsilon_range", "all_epsilon"])]
    epsilon: Option<String>,
    /// Instead of one ε: decide privacy for every ε in [a, b] (a..b, exactly: 1/2..4), with the scale following ε (--scale-factor); wu-wang with gumbel or exponential noise.
    #[arg(long, conflicts_with = "merge")]
    epsilon_range: Option<String>,
    /// Instead of one ε: decide privacy for every ε > 0 (as --epsilon-range, over (0, ∞)).
    #[arg(long, conflicts_with = "merge")]
    all_epsilon: bool,
    /// The noise scale as a multiple of the paper's (2: doubled), following ε; excludes --noise-scale.
    #[arg(long, allow_hyphen_values = true, conflicts_with_all = ["merge", "noise_scale"])]
    scale_factor: Option<String>,
    /// wu-wang only: Bernoulli resampling of the losses, 0 (default) or 1.
    #[arg(long)]
    resample: Option<String>,
    /// wu-wang only: the noise, laplace (default), exponential or gumbel.
    #[arg(long)]
    noise: Option<String>,
    /// Overrides the paper's noise scale (for prefix-softmax: the temperature 1/η), exactly. Defaults: naive-ftnl Laplace K/ε, hu-rnm-ftnl Laplace 1/ε, wu-wang Laplace or Gumbel 2/ε and exponential 1/ε, prefix-softmax temperature 1/η = max{2/ε, 8}; hybrid-ucb: the array blocks' Laplace 2/ε (and the tree's unless --tree-scale).
    #[arg(long, allow_hyphen_values = true)]
    noise_scale: Option<String>,
    /// The number of worker threads (default: one per core).
    #[arg(long, allow_hyphen_values = true)]
    threads: Option<String>,
    /// Check only part I of N (1 ≤ I ≤ N) of the loss sequences, each against all its neighbours (anytime-lazy-ucb, dp-se: of the laws P(pulls | rewards seen), each against its neighbours; lazy-dp-ts, hybrid-ucb: of every table's chunks of 4096 runs, whose counts --merge sums and audits).
    #[arg(long)]
    shard: Option<String>,
    /// Run even when the enumeration has more than 10^8 ordered pairs (a table of more than 2^22 losses, |alphabet|^K · K, is refused even so).
    #[arg(long)]
    force: bool,
    /// Instead of checking: merge the --json outputs of all the shards of one run (regular files of at most 8 MiB, comma-separated; each is validated and its witness re-evaluated).
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["algorithm", "actions", "horizon", "alphabet", "epsilon", "shard", "resample", "noise", "noise_scale", "threads", "force", "epoch_length", "mechanism", "neighbours", "scale"])]
    merge: Vec<std::path::PathBuf>,
    /// dp-se only: the epoch lengths R_1,R_2,… (the last repeats) instead of the printed ones, which end no epoch before round 2R_1 (hundreds of rounds).
    #[arg(long)]
    epoch_length: Option<String>,
    /// How the maximum is searched: structural (default: over the changed round and the statistics of the windows that read it) or enumeration (every ordered pair of sequences, the cross-check).
    #[arg(long)]
    method: Option<String>,
    /// lazy-dp-ts and hybrid-ucb only (statistical audits): simulated runs per reward table, half to choose each pair's event, half to bound it (default 200000).
    #[arg(long)]
    runs: Option<String>,
    /// lazy-dp-ts and hybrid-ucb only: the master seed of the simulation (default 1).
    #[arg(long)]
    seed: Option<String>,
    /// lazy-dp-ts and hybrid-ucb only: the confidence level of the lower bound on ε, Bonferroni across pairs (default 0.95).
    #[arg(long)]
    confidence: Option<String>,
    /// lazy-dp-ts and hybrid-ucb only: overrides the bonus constant 3 (lazy-dp-ts: line 4's 3 ln t/(εO); hybrid-ucb: index (35)), exactly (for planted variants).
    #[arg(long, allow_hyphen_values = true)]
    bonus: Option<String>,
    /// hybrid-ucb only: overrides the per-level scale of the tree p-sums' Laplace noise (default: --noise-scale, itself the array blocks' scale, default 2/ε), exactly.
    #[arg(long, allow_hyphen_values = true)]
    tree_scale: Option<String>,
    /// Instead of an online algorithm: one report-noisy-max selection with gumbel (softmax), exponential (permute-and-flip) or laplace noise, over every input of alphabet^K (--actions, --alphabet: any rationals, the losses) and every ordered pair that --neighbours allows.
    #[arg(long)]
    mechanism: Option<String>,
    /// --mechanism only: which inputs are neighbours: any (default: every replacement), linf:D (every loss moves by at most D) or one:D (exactly one loss moves, by at most D).
    #[arg(long)]
    neighbours: Option<String>,
    /// --mechanism only: the noise scale β, exactly. Default: the textbook 2Δ/ε for every noise, Δ = D for linf:D and one:D, the alphabet's range for any (exponential mechanism: McSherry & Talwar 2007, Dwork & Roth 2014 Thm 3.10; permute-and-flip: McKenna & Sheldon 2020; Laplace report-noisy-max: Dwork & Roth 2014 §3.3).
    #[arg(long, allow_hyphen_values = true)]
    scale: Option<String>,
    /// Print one JSON object instead of a paragraph.
    #[arg(long)]
    json: bool,
}

/// The worker pool of `--threads` (default: one thread per core).
fn thread_pool(threads: Option<&str>) -> Result<rayon::ThreadPool> {
    let threads = threads.map(|t| parse_count("--threads", t)).transpose()?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| Error::InvalidInput(format!("--threads: {e}")))
}

/// The horizon, in the grammar of every command ([`parse_power_count`]: `3`,
/// `2^2`, `2^2-1`).
fn parse_horizon(text: &str) -> Result<usize> {
    parse_power_count(text)
        .and_then(|t| usize::try_from(t).ok())
        .ok_or_else(|| {
            Error::Parse(format!(
                "--horizon expects a non-negative integer such as 3, 2^2 or 2^2-1, got '{text}'"
            ))
        })
}

/// `--shard I/N` (default: the whole run, `1/1`).
fn shard_flag(args: &Args) -> Result<Shard> {
    Ok(args
        .shard
        .as_deref()
        .map(str::parse)
        .transpose()?
        .unwrap_or(Shard::WHOLE))
}

/// A flag clap requires unless `--merge` is given.
fn given<'a>(value: &'a Option<String>, flag: &str) -> Result<&'a str> {
    value
        .as_deref()
        .ok_or_else(|| Error::InvalidInput(format!("{flag} is required")))
}

/// Run the command; the text to print on stdout, and whether a violation
/// was shown (the exit status is then 1).
pub fn run(args: &Args) -> Result<(String, bool)> {
    if statistical::audit_flags_given(args)
        && !matches!(
            args.algorithm.as_deref().map(str::trim),
            Some("lazy-dp-ts" | "hybrid-ucb")
        )
    {
        return Err(Error::InvalidInput(
            "--runs, --seed, --confidence, --bonus and --tree-scale apply to the lazy-dp-ts and hybrid-ucb audits only".into(),
        ));
    }
    if !args.merge.is_empty() {
        let inputs = read_merge_inputs(&args.merge)?;
        if inputs.iter().any(|(_, v)| statistical::is_report(v)) {
            return statistical::merge(&inputs, args.json);
        }
        if inputs.iter().any(|(_, v)| bandit::is_report(v)) {
            return bandit::merge(&inputs, args.json);
        }
        let parts = inputs
            .iter()
            .map(|(name, value)| Ok((name.clone(), merge::accept::<PrivacyReport>(name, value)?)))
            .collect::<Result<Vec<_>>>()?;
        let (described, merged, probabilities) = report_privacy::merge(parts)?;
        return Ok(render(
            &PrivacyReport::new(&described, &merged, &probabilities),
            args.json,
        ));
    }
    if args.mechanism.is_some() {
        return one_shot::run(args);
    }
    for (flag, given) in [
        ("--neighbours", args.neighbours.is_some()),
        ("--scale", args.scale.is_some()),
    ] {
        if given {
            return Err(Error::InvalidInput(format!(
                "{flag} applies to --mechanism only (an online algorithm's neighbours replace one round; its scale is --noise-scale)"
            )));
        }
    }
    if let Some(id) = args.algorithm.as_deref().and_then(|a| a.parse().ok()) {
        return bandit::run(args, id);
    }
    if args.epsilon_range.is_some() || args.all_epsilon {
        return all_epsilon::run(args);
    }
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
    let config = scaled(config, args.scale_factor.as_deref())?;
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

/// The configuration with `--scale-factor f`: the noise scale `f` times the
/// paper's default at its ε.
fn scaled(config: Config, factor: Option<&str>) -> Result<Config> {
    let Some(text) = factor else {
        return Ok(config);
    };
    let factor = parse_rational(text)?;
    if !num_traits::Signed::is_positive(&factor) {
        return Err(Error::InvalidInput(format!(
            "--scale-factor must be positive, got {factor}"
        )));
    }
    let default = match config.build()? {
        Algorithm::EpochRnm(a) => a.scale().clone(),
        Algorithm::PrefixSoftmax(a) => a.eta().recip(),
        Algorithm::Ftl(_) => return Err(Error::InvalidInput("ftl has no noise to scale".into())),
    };
    Ok(Config {
        noise_scale: Some(default * factor),
        ..config
    })
}

/// The merge inputs (`--merge`), each read with a size cap
/// ([`merge::read_json`]), with its name.
fn read_merge_inputs(paths: &[std::path::PathBuf]) -> Result<Vec<(String, Value)>> {
    paths
        .iter()
        .map(|path| Ok((path.display().to_string(), merge::read_json(path)?)))
        .collect()
}

/// Input vectors in words: `(0,1) (1/2,0)`.
fn sequence_text<T: std::fmt::Display>(rows: &[Vec<T>]) -> String {
    rows.iter()
        .map(|v| {
            format!(
                "({})",
                v.iter().map(T::to_string).collect::<Vec<_>>().join(",")
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
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
    let (verdict, relation) = match v.verdict {
        Verdict::Private if v.attained => ("PRIVATE (maximum attained)", "="),
        Verdict::Private => ("PRIVATE", "<="),
        Verdict::Violated => ("VIOLATED", ">"),
        Verdict::Undecided => ("UNDECIDED", "~"),
    };
    let _ = writeln!(
        out,
        "{verdict}: max privacy-loss ratio {} {relation} e^ε = {}",
        v.max_ratio, v.bound
    );
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
