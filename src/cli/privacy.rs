//! `dpdtol privacy`: the exhaustive privacy check of an online algorithm on
//! every pair of neighbouring loss sequences over a finite alphabet.

mod all_epsilon;
mod bandit;
mod one_shot;
mod statistical;

use super::args::{parse_bit, parse_count};
use super::report::{self, DIGITS};
use crate::algorithm::{Algorithm, AlgorithmId, Config};
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{parse_power_count, parse_rational, parse_rational_list, Kind, Precision, Q};
use crate::privacy::{check, Method, Options, Problem, Ratio, Report, Shard, Verdict, Witness};
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

/// Run the command; the text to print on stdout.
pub fn run(args: &Args) -> Result<String> {
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
        let (described, merged) = merge_reports(&inputs)?;
        return Ok(if args.json {
            json_output(&described, &merged).to_string()
        } else {
            paragraph(&described, &merged)
        });
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
    if args.json {
        Ok(json_output(&described, &result).to_string())
    } else {
        Ok(paragraph(&described, &result))
    }
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

/// The algorithm as the output names it: its noise and the scale in use.
#[derive(Debug, PartialEq, Eq)]
struct Described {
    id: AlgorithmId,
    noise: Option<Noise>,
    scale: Option<Q>,
    resample: bool,
}

impl Described {
    fn of(config: &Config, algorithm: &Algorithm) -> Described {
        let (noise, scale) = match algorithm {
            Algorithm::Ftl(_) => (None, None),
            Algorithm::EpochRnm(a) => (
                Some(if config.id == AlgorithmId::WuWang {
                    config.noise.unwrap_or(Noise::Laplace)
                } else {
                    Noise::Laplace
                }),
                Some(a.scale().clone()),
            ),
            Algorithm::PrefixSoftmax(a) => (Some(Noise::Gumbel), Some(a.eta().recip())),
        };
        Described {
            id: config.id,
            noise,
            scale,
            resample: config.resample,
        }
    }

    fn text(&self) -> String {
        let mut out = self.id.name().to_string();
        match (self.noise, &self.scale) {
            (Some(Noise::Gumbel), Some(s)) if self.id == AlgorithmId::PrefixSoftmax => {
                let _ = write!(out, " (softmax, temperature 1/η = {s})");
            }
            (Some(noise), Some(s)) => {
                let _ = write!(out, " ({noise} noise, scale {s}");
                if self.resample {
                    out.push_str(", Bernoulli resampling");
                }
                out.push(')');
            }
            _ => {}
        }
        out
    }
}

fn vectors_json(losses: &[Vec<Q>]) -> Value {
    losses
        .iter()
        .map(|v| v.iter().map(report::exact).collect::<Vec<_>>())
        .collect()
}

/// A ratio as a decimal string (`"inf"` when infinite): exact values to
/// [`DIGITS`] significant digits; an enclosure `[lo, hi]` to the most digits
/// (at most [`DIGITS`]) on which both ends round alike, so that every digit
/// printed is that of the true value correctly rounded (the interval itself
/// when not one digit is).
fn ratio_decimal(ratio: &Ratio) -> String {
    match ratio {
        Ratio::Infinite => "inf".to_string(),
        Ratio::Exact(q) => report::decimal(q),
        Ratio::Certified { lo, hi } => certain_decimal(lo, hi),
    }
}

fn certain_decimal(lo: &Q, hi: &Q) -> String {
    crate::num::format_certain(lo, hi, DIGITS)
}

/// The fewest certain significant digits `digits_certain` asks of a decimal.
const MIN_DIGITS: usize = 30;

/// Whether the decimals `max_ratio` and `bound` carry at least
/// [`MIN_DIGITS`] digits: every digit printed is certain
/// ([`crate::num::format_certain`]), but an enclosure may certify fewer.
fn digits_certain(r: &Report) -> bool {
    digits_certain_of(&r.max_ratio, &r.bound)
}

/// [`digits_certain`] of a maximum ratio and an enclosure of `e^ε`.
fn digits_certain_of(max_ratio: &Ratio, bound: &crate::num::Certified) -> bool {
    use crate::num::Real;
    let agree = |lo: &Q, hi: &Q| {
        crate::num::certain_digits(lo, hi, DIGITS).is_some_and(|(_, d)| d >= MIN_DIGITS)
    };
    let ratio = match max_ratio {
        Ratio::Certified { lo, hi } => agree(lo, hi),
        _ => true,
    };
    ratio && bound.enclosure().is_some_and(|(lo, hi)| agree(&lo, &hi))
}

/// `e^ε` to the digits its enclosure certifies.
fn bound_decimal(bound: &crate::num::Certified) -> String {
    use crate::num::Real;
    match bound.enclosure() {
        Some((lo, hi)) => certain_decimal(&lo, &hi),
        None => report::decimal(bound),
    }
}

fn ratio_interval(ratio: &Ratio) -> Value {
    match (ratio.lo(), ratio.hi()) {
        (Some(lo), Some(hi)) => match report::interval(lo) {
            Value::Array(mut ends) if ends.len() == 2 => {
                if let Value::Array(upper) = report::interval(hi) {
                    ends[1] = upper[1].clone();
                }
                Value::Array(ends)
            }
            other => other,
        },
        _ => Value::Null,
    }
}

fn json_output(algorithm: &Described, r: &Report) -> Value {
    let mut out = verdict_json(r, r.witness.round);
    out.extend(json_object(json!({
        "schema_version": report::SCHEMA_VERSION,
        "algorithm": algorithm.id.name(),
        "actions": r.actions,
        // A string of the exact integer, as in `regret` (whose horizons
        // reach 2^100, beyond JSON's safe integers); --merge also reads a number.
        "horizon": r.problem.horizon.to_string(),
        "alphabet": r.problem.alphabet.iter().map(report::exact).collect::<Vec<_>>(),
        "epsilon": report::exact(&r.problem.epsilon),
        "noise": algorithm.noise.map(Noise::name),
        "noise_scale": algorithm.scale.as_ref().map(report::exact),
        "resample": algorithm.resample,
        "shard": r.shard.to_string(),
        "why_not_exact": r.why_not_exact,
        "merge": {
            "max_ratio": ratio_exact_json(&r.max_ratio),
            "witness_ratio": ratio_exact_json(&r.witness.ratio),
            "sequence": r.witness.sequence,
            "neighbour_sequence": r.witness.neighbour_sequence,
        },
    })));
    Value::Object(out)
}

/// The keys of a privacy report that every check shares (the verdict, the
/// maximum ratio, the witness with its `round`), as one JSON object.
fn verdict_json(r: &Report, round: usize) -> serde_json::Map<String, Value> {
    json_object(json!({
        "bound": bound_decimal(&r.bound),
        "bound_interval": report::interval(&r.bound),
        "max_ratio": ratio_decimal(&r.max_ratio),
        "max_ratio_interval": ratio_interval(&r.max_ratio),
        "max_ratio_exact": match &r.max_ratio {
            Ratio::Exact(q) => report::exact(q),
            _ => Value::Null,
        },
        "verdict": r.verdict.name(),
        "digits_certain": digits_certain(r),
        "attained": r.attained,
        "method": r.method.name(),
        "witness": {
            "losses": vectors_json(&r.witness.losses),
            "neighbour": vectors_json(&r.witness.neighbour),
            "actions": r.witness.actions.iter().map(|a| a + 1).collect::<Vec<_>>(),
            "round": round,
            "ratio": ratio_decimal(&r.witness.ratio),
            "ratio_interval": ratio_interval(&r.witness.ratio),
        },
        "pairs": r.pairs,
        "kind": r.kind.label(),
        "precision_bits": r.precision.map(|p| p.0),
    }))
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
    match ratio {
        Ratio::Infinite => json!("inf"),
        Ratio::Exact(q) => json!({ "exact": report::exact(q) }),
        Ratio::Certified { lo, hi } => json!({ "lo": report::exact(lo), "hi": report::exact(hi) }),
    }
}

/// The largest merge input read (a shard's report is a few kilobytes).
pub const MAX_MERGE_BYTES: u64 = 8 << 20;

/// The longest number string read from a merge input.
const MAX_NUMBER_CHARS: usize = 20_000;

/// A field of a merge input that is missing or malformed.
fn field(name: &str) -> Error {
    Error::InvalidInput(format!(
        "field '{name}' is missing or malformed (not the --json output of dpdtol privacy)"
    ))
}

/// A number of a merge input: a string, at most [`MAX_NUMBER_CHARS`] long,
/// parsed exactly.
fn number(name: &str, v: Option<&Value>) -> Result<Q> {
    let text = v.and_then(Value::as_str).ok_or_else(|| field(name))?;
    if text.len() > MAX_NUMBER_CHARS {
        return Err(Error::InvalidInput(format!(
            "field '{name}' is a number of {} characters (at most {MAX_NUMBER_CHARS})",
            text.len()
        )));
    }
    parse_rational(text).map_err(|_| field(name))
}

fn ratio_from_json(name: &str, v: Option<&Value>) -> Result<Ratio> {
    let v = v.ok_or_else(|| field(name))?;
    match v {
        Value::String(s) if s == "inf" => Ok(Ratio::Infinite),
        Value::Object(o) if o.len() == 1 && o.contains_key("exact") => {
            Ok(Ratio::Exact(number(name, v.get("exact"))?))
        }
        Value::Object(o) if o.len() == 2 => Ok(Ratio::Certified {
            lo: number(name, v.get("lo"))?,
            hi: number(name, v.get("hi"))?,
        }),
        _ => Err(field(name)),
    }
}

/// The report of one shard, read back from its `--json` output, with the
/// algorithm it names; every field's type is checked here, its value by
/// [`crate::privacy::recheck`].
fn report_from_json(v: &Value) -> Result<(Described, Report)> {
    let text = |key: &str| v.get(key).and_then(Value::as_str).ok_or_else(|| field(key));
    let count = |key: &str| v.get(key).and_then(Value::as_u64).ok_or_else(|| field(key));
    let size = |key: &str| count(key).and_then(|c| usize::try_from(c).map_err(|_| field(key)));
    let vectors = |key: &str, w: Option<&Value>| -> Result<Vec<Vec<Q>>> {
        w.and_then(Value::as_array)
            .ok_or_else(|| field(key))?
            .iter()
            .map(|row| {
                row.as_array()
                    .ok_or_else(|| field(key))?
                    .iter()
                    .map(|x| number(key, Some(x)))
                    .collect()
            })
            .collect()
    };
    let epsilon = number("epsilon", v.get("epsilon"))?;
    let alphabet: Vec<Q> = v
        .get("alphabet")
        .and_then(Value::as_array)
        .ok_or_else(|| field("alphabet"))?
        .iter()
        .map(|x| number("alphabet", Some(x)))
        .collect::<Result<_>>()?;
    // The horizon is a string of the integer (a number in older reports).
    let horizon = match v.get("horizon") {
        Some(Value::String(h)) => h.parse::<usize>().map_err(|_| field("horizon"))?,
        _ => size("horizon")?,
    };
    let problem = Problem::new(horizon, alphabet, epsilon.clone())?;
    let merge = v.get("merge").ok_or_else(|| field("merge"))?;
    let witness = v.get("witness").ok_or_else(|| field("witness"))?;
    let max_ratio = ratio_from_json("merge.max_ratio", merge.get("max_ratio"))?;
    let precision = match v.get("precision_bits") {
        None | Some(Value::Null) => None,
        Some(b) => Some(Precision(
            b.as_u64()
                .and_then(|b| u32::try_from(b).ok())
                .ok_or_else(|| field("precision_bits"))?,
        )),
    };
    if let Some(p) = precision.filter(|p| p.0 > crate::privacy::MAX_PRECISION) {
        // Refused before the verdict is decided at that precision.
        return Err(Error::InvalidInput(format!(
            "precision_bits is {}, above the checker's largest precision {}",
            p.0,
            crate::privacy::MAX_PRECISION
        )));
    }
    let (enclosed, bound) =
        crate::privacy::decide(&max_ratio, &epsilon, precision.map_or(0, |p| p.0))?;
    // An exact decision in the field Q(w) (an attained maximum, or a
    // difference the enclosures leave open) may settle what the enclosure does
    // not: `recheck` then decides the witness again, exactly.
    let verdict = match (enclosed, text("verdict")?) {
        (v, claimed) if claimed == v.name() => v,
        (Verdict::Undecided, "private") => Verdict::Private,
        (Verdict::Undecided, "violated") => Verdict::Violated,
        (v, claimed) => {
            return Err(Error::InvalidInput(format!(
                "verdict is '{claimed}', but its max_ratio gives '{}'",
                v.name()
            )));
        }
    };
    let attained = match v.get("attained") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(field("attained")),
    };
    let method: Method = match v.get("method") {
        None => Method::Enumeration,
        Some(Value::String(m)) => m.parse().map_err(|_| field("method"))?,
        Some(_) => return Err(field("method")),
    };
    let kind = match text("kind")? {
        k if k == Kind::Exact.label() => Kind::Exact,
        k if k == Kind::Certified.label() => Kind::Certified,
        _ => return Err(field("kind")),
    };
    // The exact value shown must be the one merged (null unless exact).
    let shown_exact = match &max_ratio {
        Ratio::Exact(q) => report::exact(q),
        _ => Value::Null,
    };
    if v.get("max_ratio_exact") != Some(&shown_exact) {
        return Err(Error::InvalidInput(
            "max_ratio_exact disagrees with merge.max_ratio".into(),
        ));
    }
    let report = Report {
        problem,
        actions: size("actions")?,
        max_ratio,
        witness: Witness {
            losses: vectors("witness.losses", witness.get("losses"))?,
            neighbour: vectors("witness.neighbour", witness.get("neighbour"))?,
            actions: witness
                .get("actions")
                .and_then(Value::as_array)
                .ok_or_else(|| field("witness.actions"))?
                .iter()
                .map(|a| {
                    a.as_u64()
                        .and_then(|a| a.checked_sub(1))
                        .and_then(|a| usize::try_from(a).ok())
                        .ok_or_else(|| field("witness.actions"))
                })
                .collect::<Result<_>>()?,
            round: witness
                .get("round")
                .and_then(Value::as_u64)
                .and_then(|r| usize::try_from(r).ok())
                .ok_or_else(|| field("witness.round"))?,
            ratio: ratio_from_json("merge.witness_ratio", merge.get("witness_ratio"))?,
            sequence: merge
                .get("sequence")
                .and_then(Value::as_u64)
                .ok_or_else(|| field("merge.sequence"))?,
            neighbour_sequence: merge
                .get("neighbour_sequence")
                .and_then(Value::as_u64)
                .ok_or_else(|| field("merge.neighbour_sequence"))?,
        },
        verdict,
        attained,
        method,
        bound,
        pairs: count("pairs")?,
        kind,
        precision,
        shard: text("shard")?.parse().map_err(|_| field("shard"))?,
        why_not_exact: match v.get("why_not_exact") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(field("why_not_exact")),
        },
    };
    let described = Described {
        id: text("algorithm")?.parse()?,
        noise: match v.get("noise") {
            Some(Value::Null) => None,
            n => Some(
                n.and_then(Value::as_str)
                    .ok_or_else(|| field("noise"))?
                    .parse()?,
            ),
        },
        scale: match v.get("noise_scale") {
            Some(Value::Null) => None,
            s => Some(number("noise_scale", s)?),
        },
        resample: v
            .get("resample")
            .and_then(Value::as_bool)
            .ok_or_else(|| field("resample"))?,
    };
    Ok((described, report))
}

/// Rebuild the algorithm a report names and check that report against it
/// ([`crate::privacy::recheck`], which re-evaluates the witness).
fn recheck(described: &Described, report: &Report) -> Result<()> {
    let config = Config {
        id: described.id,
        actions: report.actions,
        epsilon: report.problem.epsilon.clone(),
        noise: described
            .noise
            .filter(|_| described.id == AlgorithmId::WuWang),
        noise_scale: described.scale.clone(),
        resample: described.resample,
    };
    // Only K's range is checked before the algorithm is built from it (on
    // one round: the structural method's horizons go far past enumeration).
    let one_round = Problem::new(
        1,
        report.problem.alphabet.clone(),
        report.problem.epsilon.clone(),
    )?;
    crate::privacy::Space::powers(report.actions, &one_round)?;
    let algorithm = config.build()?;
    if Described::of(&config, &algorithm) != *described {
        return Err(Error::InvalidInput(format!(
            "the noise and scale named ({}) are not those of {}",
            described.text(),
            described.id
        )));
    }
    crate::privacy::recheck(&algorithm, report)
}

/// The text of a merge input: a regular file of at most [`MAX_MERGE_BYTES`]
/// (devices and pipes are refused before they are read; a file that grows
/// while read is cut at the cap and refused).
pub(super) fn read_merge_input(path: &std::path::Path) -> Result<String> {
    use std::io::Read;
    let name = path.display();
    let cannot = |e: std::io::Error| Error::InvalidInput(format!("cannot read {name}: {e}"));
    let meta = std::fs::metadata(path).map_err(cannot)?;
    if !meta.is_file() {
        return Err(Error::InvalidInput(format!(
            "{name} is not a regular file (a merge input is a shard's --json output)"
        )));
    }
    let too_big = || {
        Error::InvalidInput(format!(
            "{name} is larger than {MAX_MERGE_BYTES} bytes, the cap on a merge input"
        ))
    };
    if meta.len() > MAX_MERGE_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(cannot)?
        .take(MAX_MERGE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_MERGE_BYTES {
        return Err(too_big());
    }
    String::from_utf8(bytes).map_err(|_| Error::InvalidInput(format!("{name} is not UTF-8 text")))
}

/// The merge inputs (`--merge`), each read with a size cap
/// ([`read_merge_input`]) and parsed as JSON, with its name.
fn read_merge_inputs(paths: &[std::path::PathBuf]) -> Result<Vec<(String, Value)>> {
    paths
        .iter()
        .map(|path| {
            let name = path.display().to_string();
            let text = read_merge_input(path)?;
            let value: Value = serde_json::from_str(&text).map_err(|e| {
                Error::InvalidInput(format!(
                    "{name} is not valid JSON (line {}, column {})",
                    e.line(),
                    e.column()
                ))
            })?;
            Ok((name, value))
        })
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
    move |e: Error| {
        Error::InvalidInput(format!(
            "{name}: {}",
            e.to_string().trim_start_matches("invalid input: ")
        ))
    }
}

/// A merge input `given` is the report `printed` again from the data read
/// back from it, key for key (the first key that differs is named).
fn same_report(printed: &Value, given: &Value) -> Result<()> {
    let (Value::Object(printed), Value::Object(given)) = (printed, given) else {
        return Err(field("the report"));
    };
    match printed
        .keys()
        .chain(given.keys())
        .find(|k| printed.get(*k) != given.get(*k))
    {
        Some(key) => Err(Error::InvalidInput(format!(
            "field '{key}' is not what the report's own data give (not the --json output of dpdtol privacy, or altered)"
        ))),
        None => Ok(()),
    }
}

/// Merge the `--json` reports of the shards of one run (`--merge`): each
/// input is checked (its witness re-evaluated) before the merge.
fn merge_reports(inputs: &[(String, Value)]) -> Result<(Described, Report)> {
    let mut described: Option<Described> = None;
    let mut reports = Vec::with_capacity(inputs.len());
    for (name, value) in inputs {
        let (d, r) = report_from_json(value).map_err(in_file(name))?;
        recheck(&d, &r).map_err(in_file(name))?;
        match &described {
            Some(first) if *first != d => {
                return Err(Error::InvalidInput(format!(
                    "{name} checks {}, the others {}",
                    d.text(),
                    first.text()
                )));
            }
            Some(_) => {}
            None => described = Some(d),
        }
        reports.push(r);
    }
    let merged = crate::privacy::merge(&reports)?;
    let described = described.ok_or_else(|| Error::InvalidInput("nothing to merge".into()))?;
    Ok((described, merged))
}

fn sequence_text(losses: &[Vec<Q>]) -> String {
    losses
        .iter()
        .map(|v| {
            format!(
                "({})",
                v.iter().map(Q::to_string).collect::<Vec<_>>().join(",")
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn paragraph(algorithm: &Described, r: &Report) -> String {
    let mut out = String::new();
    let alphabet: Vec<String> = r.problem.alphabet.iter().map(Q::to_string).collect();
    let _ = writeln!(
        out,
        "{}, K = {}, horizon {}, alphabet {{{}}}, ε = {}{}:",
        algorithm.text(),
        r.actions,
        r.problem.horizon,
        alphabet.join(", "),
        r.problem.epsilon,
        if r.shard == Shard::WHOLE {
            String::new()
        } else {
            format!(", shard {}", r.shard)
        }
    );
    let bound = bound_decimal(&r.bound);
    let ratio = ratio_decimal(&r.max_ratio);
    let how = match (&r.max_ratio, r.kind) {
        (Ratio::Infinite, _) => {
            "infinite: a neighbour gives probability 0 where the sequence does not".to_string()
        }
        (Ratio::Exact(q), _) => format!("exact, = {q}"),
        (Ratio::Certified { .. }, _) => {
            let interval = ratio_interval(&r.max_ratio);
            format!(
                "certified at {} bits, in [{}, {}]",
                r.precision.map_or(0, |p| p.0),
                interval[0].as_str().unwrap_or("?"),
                interval[1].as_str().unwrap_or("?")
            )
        }
    };
    let (verdict, relation) = match r.verdict {
        Verdict::Private if r.attained => ("PRIVATE (maximum attained)", "="),
        Verdict::Private => ("PRIVATE", "<="),
        Verdict::Violated => ("VIOLATED", ">"),
        Verdict::Undecided => ("UNDECIDED", "~"),
    };
    let _ = writeln!(
        out,
        "{verdict}: max privacy-loss ratio {ratio} {relation} e^ε = {bound}"
    );
    let _ = writeln!(out, "  max ratio {how}");
    if r.verdict == Verdict::Undecided {
        let b = report::interval(&r.bound);
        let _ = writeln!(
            out,
            "  e^ε in [{}, {}]: the enclosures overlap at the largest precision tried",
            b[0].as_str().unwrap_or("?"),
            b[1].as_str().unwrap_or("?")
        );
    }
    let w = &r.witness;
    let _ = writeln!(out, "  witness, round {} replaced:", w.round);
    let _ = writeln!(out, "    losses    {}", sequence_text(&w.losses));
    let _ = writeln!(out, "    neighbour {}", sequence_text(&w.neighbour));
    let actions: Vec<String> = w.actions.iter().map(|a| (a + 1).to_string()).collect();
    let _ = writeln!(
        out,
        "    actions   {}   P(actions | losses) / P(actions | neighbour) = {}",
        actions.join(" "),
        ratio_decimal(&w.ratio)
    );
    let _ = write!(
        out,
        "  {} {} checked, {}",
        r.pairs,
        match r.method {
            crate::privacy::Method::Structural => {
                "structural candidates (classes of ordered neighbour pairs)"
            }
            crate::privacy::Method::Enumeration => "ordered neighbour pairs",
        },
        match r.kind {
            Kind::Exact => "exact laws".to_string(),
            _ => format!(
                "certified laws at {} bits (the laws involve transcendental numbers; why_not_exact in --json)",
                r.precision.map_or(0, |p| p.0)
            ),
        }
    );
    out
}
