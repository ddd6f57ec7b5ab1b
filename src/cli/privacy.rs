//! `dpdtol privacy`: the exhaustive privacy check of an online algorithm on
//! every pair of neighbouring loss sequences over a finite alphabet.

mod all_epsilon;
mod bandit;
mod one_shot;
mod statistical;

use super::applies::{scope, Scope, Subject, EVERY};
use super::args::{parse_bit, parse_count};
use super::law::{MECHANISM, ONLINE};
use super::report;
use crate::algorithm::{Algorithm, AlgorithmId, Config};
use crate::bandit::policy::BanditId;
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{parse_power_count, parse_rational, parse_rational_list, Q};
use crate::privacy::{check, Method, Options, Problem, Ratio, Report, Shard, Verdict};
use crate::report::privacy::{
    self as report_privacy, algorithm_text, bound_decimal, field, number_field, ratio_decimal,
    Described, ExactRatio, PrivacyReport, VerdictKeys,
};
use crate::report::{merge, to_json, Enclosure, NumberKind};
use serde::Deserialize;
use serde_json::{json, Value};
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

/// A check of a bandit algorithm.
const BANDIT: &str = "the bandit checks";
/// A bandit audit by simulation.
const STATISTICAL: &str = "the statistical audits (lazy-dp-ts, hybrid-ucb --method statistical)";
/// An online algorithm checked at one ε.
const ONE_EPSILON: &str = "an online algorithm at one --epsilon";

/// Where the flags of `privacy` act ([`super::applies`]).
pub(super) const SCOPES: &[Scope] = &[
    scope("algorithm", &[ONLINE, BANDIT]),
    scope("actions", EVERY),
    scope("horizon", &[ONLINE, BANDIT]),
    scope("alphabet", EVERY),
    scope("epsilon", &[ONE_EPSILON, BANDIT, MECHANISM]),
    scope("epsilon_range", &[ONLINE]),
    scope("all_epsilon", &[ONLINE]),
    scope("scale_factor", &[ONLINE, "hybrid-ucb"]),
    scope("resample", &["wu-wang"]),
    scope("noise", &["wu-wang"]),
    scope(
        "noise_scale",
        &[
            "naive-ftnl",
            "hu-rnm-ftnl",
            "wu-wang",
            "prefix-softmax",
            BANDIT,
        ],
    ),
    scope("threads", &[ONLINE, BANDIT]),
    scope("shard", &[ONE_EPSILON, BANDIT]),
    scope("force", EVERY),
    scope("merge", EVERY),
    scope("epoch_length", &["dp-se"]),
    scope("method", &[ONE_EPSILON, "hybrid-ucb"]),
    scope("runs", &[STATISTICAL]),
    scope("seed", &[STATISTICAL]),
    scope("confidence", &[STATISTICAL]),
    scope("bonus", &["lazy-dp-ts", "hybrid-ucb"]),
    scope("tree_scale", &["hybrid-ucb"]),
    scope("mechanism", EVERY),
    scope("neighbours", &[MECHANISM]),
    scope("scale", &[MECHANISM]),
    scope("json", EVERY),
];

/// What the run checks, for [`super::applies::enforce`]: the merge, one
/// selection, a bandit algorithm (exact or statistical) or an online
/// algorithm (at one ε or over a range).
pub(super) fn subjects(args: &Args) -> Result<Vec<Subject>> {
    if !args.merge.is_empty() {
        return Ok(vec![Subject::new("--merge", &[])]);
    }
    if let Some(noise) = &args.mechanism {
        return Ok(vec![Subject::new(
            format!("--mechanism {noise}"),
            &[MECHANISM],
        )]);
    }
    let text = given(&args.algorithm, "--algorithm")?;
    if let Ok(id) = text.parse::<BanditId>() {
        let statistical =
            id == BanditId::LazyDpTs || (id == BanditId::HybridUcb && statistical::chosen(args)?);
        let how = if statistical { STATISTICAL } else { BANDIT };
        return Ok(vec![Subject::new(id.name(), &[BANDIT, how, id.name()])]);
    }
    let id: AlgorithmId = text.parse()?;
    let range = args.epsilon_range.is_some() || args.all_epsilon;
    let at = if range { ONLINE } else { ONE_EPSILON };
    Ok(vec![Subject::new(id.name(), &[ONLINE, at, id.name()])])
}

/// The worker pool of `--threads` (default: one thread per core).
fn thread_pool(threads: Option<&str>) -> Result<rayon::ThreadPool> {
    crate::size::thread_pool(threads.map(|t| parse_count("--threads", t)).transpose()?)
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
        let (described, merged) = report_privacy::merge(parts)?;
        return Ok(render(&PrivacyReport::new(&described, &merged), args.json));
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
    Ok(render(&PrivacyReport::new(&described, &result), args.json))
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

/// Input vectors as JSON (exact rationals).
fn vectors_json(losses: &[Vec<Q>]) -> Value {
    json!(report_privacy::vectors(losses))
}

/// A ratio's enclosure as JSON (null when infinite).
fn ratio_interval(ratio: &Ratio) -> Value {
    json!(report_privacy::ratio_enclosure(ratio))
}

/// [`report_privacy::digits_certain`].
fn digits_certain_of(max_ratio: &Ratio, bound: &crate::num::Certified) -> bool {
    report_privacy::digits_certain(max_ratio, bound)
}

/// The keys of a privacy report that every check shares (the verdict, the
/// maximum ratio, the witness with its `round`), as one JSON object.
fn verdict_json(r: &Report, round: usize) -> serde_json::Map<String, Value> {
    json_object(json!(VerdictKeys::of(r, round)))
}

/// The object inside a `json!({…})`.
fn json_object(value: Value) -> serde_json::Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => serde_json::Map::new(),
    }
}

/// A ratio with its exact rational bounds, for `--merge`.
fn ratio_exact_json(ratio: &Ratio) -> Value {
    json!(ExactRatio::of(ratio))
}

/// A number of a merge input: a string, at most 20 000 characters long,
/// parsed exactly.
fn number(name: &str, v: Option<&Value>) -> Result<Q> {
    number_field(name, v.and_then(Value::as_str).ok_or_else(|| field(name))?)
}

/// A ratio with exact bounds ([`ExactRatio`]) of a merge input, read exactly.
fn ratio_from_json(name: &str, v: Option<&Value>) -> Result<Ratio> {
    let v = v.ok_or_else(|| field(name))?;
    ExactRatio::deserialize(v)
        .map_err(|_| field(name))?
        .read(name)
}

/// The merge inputs (`--merge`), each read with a size cap
/// ([`merge::read_json`]), with its name.
fn read_merge_inputs(paths: &[std::path::PathBuf]) -> Result<Vec<(String, Value)>> {
    paths
        .iter()
        .map(|path| Ok((path.display().to_string(), merge::read_json(path)?)))
        .collect()
}

/// The problem fields of a bandit report read back as a merge input: its
/// `algorithm` (a bandit id), `actions` (2, the only K checked), `horizon`
/// and `alphabet` (exact numbers).
fn bandit_fields(v: &Value) -> Result<(crate::bandit::policy::BanditId, usize, Vec<Q>)> {
    match bandit_fields_arms(v)? {
        (id, 2, horizon, alphabet) => Ok((id, horizon, alphabet)),
        _ => Err(field("actions")),
    }
}

/// [`bandit_fields`] with the number of arms `actions` (any count, checked
/// by the caller's law).
fn bandit_fields_arms(
    v: &Value,
) -> Result<(crate::bandit::policy::BanditId, usize, usize, Vec<Q>)> {
    let text = |key: &str| v.get(key).and_then(Value::as_str).ok_or_else(|| field(key));
    let id = text("algorithm")?.parse()?;
    let actions = v
        .get("actions")
        .and_then(Value::as_u64)
        .and_then(|k| usize::try_from(k).ok())
        .ok_or_else(|| field("actions"))?;
    let horizon: usize = text("horizon")?.parse().map_err(|_| field("horizon"))?;
    let alphabet = v
        .get("alphabet")
        .and_then(Value::as_array)
        .ok_or_else(|| field("alphabet"))?
        .iter()
        .map(|x| number("alphabet", Some(x)))
        .collect::<Result<Vec<Q>>>()?;
    Ok((id, actions, horizon, alphabet))
}

/// An error about merge input `name`, prefixed with its name (one line).
fn in_file(name: &str) -> impl Fn(Error) -> Error + '_ {
    move |e: Error| e.within(name)
}

/// A merge input `given` is the report `printed` again from the data read
/// back from it, key for key.
fn same_report(printed: &Value, given: &Value) -> Result<()> {
    merge::same_keys(printed, given, "dpdtol privacy")
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
