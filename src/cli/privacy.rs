//! `dpdtol privacy`: the exhaustive privacy check of an online algorithm on
//! every pair of neighbouring loss sequences over a finite alphabet.

use super::report::{self, DIGITS};
use crate::algorithm::{Algorithm, AlgorithmId, Config};
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{format_sig, parse_rational, parse_rational_list, Kind, Precision, Q};
use crate::privacy::{check, Options, Problem, Ratio, Report, Shard, Verdict, Witness};
use serde_json::{json, Value};
use std::fmt::Write;

/// Flags of `dpdtol privacy`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The algorithm: ftl, naive-ftnl, hu-rnm-ftnl, wu-wang or prefix-softmax.
    #[arg(long, required_unless_present = "merge")]
    algorithm: Option<String>,
    /// The number of actions K ≥ 2.
    #[arg(long, allow_hyphen_values = true, required_unless_present = "merge")]
    actions: Option<String>,
    /// The horizon t ≥ 1 (rounds per loss sequence).
    #[arg(long, allow_hyphen_values = true, required_unless_present = "merge")]
    horizon: Option<String>,
    /// The loss values each loss may take, comma-separated, in [0, 1]: 0,1/2,1.
    #[arg(long, allow_hyphen_values = true, required_unless_present = "merge")]
    alphabet: Option<String>,
    /// The privacy parameter ε > 0 to check (and the paper's default scales derive from), exactly: 1, 0.5, 1/2.
    #[arg(long, allow_hyphen_values = true, required_unless_present = "merge")]
    epsilon: Option<String>,
    /// wu-wang only: Bernoulli resampling of the losses, 0 (default) or 1.
    #[arg(long)]
    resample: Option<String>,
    /// wu-wang only: the noise, laplace (default), exponential or gumbel.
    #[arg(long)]
    noise: Option<String>,
    /// Overrides the paper's noise scale (for prefix-softmax: the temperature 1/η), exactly.
    #[arg(long, allow_hyphen_values = true)]
    noise_scale: Option<String>,
    /// The number of worker threads (default: one per core).
    #[arg(long, allow_hyphen_values = true)]
    threads: Option<String>,
    /// Check only part I of N (1 ≤ I ≤ N) of the loss sequences, each against all its neighbours.
    #[arg(long)]
    shard: Option<String>,
    /// Run even when the enumeration has more than 10^8 ordered pairs.
    #[arg(long)]
    force: bool,
    /// Instead of checking: merge the --json outputs of all the shards of one run (files, comma-separated).
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["algorithm", "actions", "horizon", "alphabet", "epsilon", "shard"])]
    merge: Vec<std::path::PathBuf>,
    /// How the maximum is searched: structural (default: over the changed round and the statistics of the windows that read it) or enumeration (every ordered pair of sequences, the cross-check).
    #[arg(long)]
    method: Option<String>,
    /// Print one JSON object instead of a paragraph.
    #[arg(long)]
    json: bool,
}

fn parse_count(flag: &str, text: &str) -> Result<usize> {
    text.trim().parse().map_err(|_| {
        Error::Parse(format!(
            "{flag} expects a non-negative integer, got '{text}'"
        ))
    })
}

/// A flag clap requires unless `--merge` is given.
fn given<'a>(value: &'a Option<String>, flag: &str) -> Result<&'a str> {
    value
        .as_deref()
        .ok_or_else(|| Error::InvalidInput(format!("{flag} is required")))
}

/// Run the command; the text to print on stdout.
pub fn run(args: &Args) -> Result<String> {
    if !args.merge.is_empty() {
        let (described, merged) = merge_files(&args.merge)?;
        return Ok(if args.json {
            json_output(&described, &merged).to_string()
        } else {
            paragraph(&described, &merged)
        });
    }
    let id: AlgorithmId = given(&args.algorithm, "--algorithm")?.parse()?;
    let actions = parse_count("--actions", given(&args.actions, "--actions")?)?;
    let horizon = parse_count("--horizon", given(&args.horizon, "--horizon")?)?;
    let epsilon = parse_rational(given(&args.epsilon, "--epsilon")?)?;
    let resample = match args.resample.as_deref().map(str::trim) {
        None | Some("0") => false,
        Some("1") => true,
        Some(other) => {
            return Err(Error::InvalidInput(format!(
                "--resample expects 0 or 1, got '{other}'"
            )));
        }
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
        shard: args
            .shard
            .as_deref()
            .map(str::parse)
            .transpose()?
            .unwrap_or(Shard::WHOLE),
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
/// printed is that of the true value correctly rounded — at least
/// [`MIN_DIGITS`], beyond which the midpoint is printed and the interval is
/// the authority.
fn ratio_decimal(ratio: &Ratio) -> String {
    match ratio {
        Ratio::Infinite => "inf".to_string(),
        Ratio::Exact(q) => report::decimal(q),
        Ratio::Certified { lo, hi } => certain_decimal(lo, hi),
    }
}

/// The fewest significant digits a decimal in the output has.
const MIN_DIGITS: usize = 30;

fn certain_decimal(lo: &Q, hi: &Q) -> String {
    (MIN_DIGITS..=DIGITS)
        .rev()
        .map(|d| (format_sig(lo, d), format_sig(hi, d)))
        .find(|(a, b)| a == b)
        .map(|(a, _)| a)
        .unwrap_or_else(|| format_sig(&((lo + hi) / Q::from_integer(2.into())), MIN_DIGITS))
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
    json!({
        "algorithm": algorithm.id.name(),
        "actions": r.actions,
        "horizon": r.problem.horizon,
        "alphabet": r.problem.alphabet.iter().map(report::exact).collect::<Vec<_>>(),
        "epsilon": report::exact(&r.problem.epsilon),
        "noise": algorithm.noise.map(Noise::name),
        "noise_scale": algorithm.scale.as_ref().map(report::exact),
        "resample": algorithm.resample,
        "bound": bound_decimal(&r.bound),
        "bound_interval": report::interval(&r.bound),
        "max_ratio": ratio_decimal(&r.max_ratio),
        "max_ratio_interval": ratio_interval(&r.max_ratio),
        "max_ratio_exact": match &r.max_ratio {
            Ratio::Exact(q) => report::exact(q),
            _ => Value::Null,
        },
        "verdict": r.verdict.name(),
        "attained": r.attained,
        "method": r.method.name(),
        "witness": {
            "losses": vectors_json(&r.witness.losses),
            "neighbour": vectors_json(&r.witness.neighbour),
            "actions": r.witness.actions.iter().map(|a| a + 1).collect::<Vec<_>>(),
            "round": r.witness.round,
            "ratio": ratio_decimal(&r.witness.ratio),
            "ratio_interval": ratio_interval(&r.witness.ratio),
        },
        "pairs": r.pairs,
        "kind": r.kind.label(),
        "precision_bits": r.precision.map(|p| p.0),
        "shard": r.shard.to_string(),
        "why_not_exact": r.why_not_exact,
        "merge": {
            "max_ratio": ratio_exact_json(&r.max_ratio),
            "witness_ratio": ratio_exact_json(&r.witness.ratio),
            "sequence": r.witness.sequence,
            "neighbour_sequence": r.witness.neighbour_sequence,
        },
    })
}

/// A ratio with its exact rational bounds, for `--merge`.
fn ratio_exact_json(ratio: &Ratio) -> Value {
    match ratio {
        Ratio::Infinite => json!("inf"),
        Ratio::Exact(q) => json!({ "exact": report::exact(q) }),
        Ratio::Certified { lo, hi } => json!({ "lo": report::exact(lo), "hi": report::exact(hi) }),
    }
}

fn ratio_from_json(v: &Value) -> Option<Ratio> {
    let q = |key: &str| v.get(key)?.as_str().and_then(|s| parse_rational(s).ok());
    match v {
        Value::String(s) if s == "inf" => Some(Ratio::Infinite),
        _ if v.get("exact").is_some() => Some(Ratio::Exact(q("exact")?)),
        _ => Some(Ratio::Certified {
            lo: q("lo")?,
            hi: q("hi")?,
        }),
    }
}

/// The report of one shard, read back from its `--json` output.
fn report_from_json(v: &Value) -> Option<(Described, Report)> {
    let text = |key: &str| v.get(key)?.as_str();
    let count = |key: &str| v.get(key)?.as_u64();
    let vectors = |w: &Value| -> Option<Vec<Vec<Q>>> {
        w.as_array()?
            .iter()
            .map(|row| {
                row.as_array()?
                    .iter()
                    .map(|x| parse_rational(x.as_str()?).ok())
                    .collect()
            })
            .collect()
    };
    let epsilon = parse_rational(text("epsilon")?).ok()?;
    let alphabet: Vec<Q> = v
        .get("alphabet")?
        .as_array()?
        .iter()
        .map(|x| parse_rational(x.as_str()?).ok())
        .collect::<Option<_>>()?;
    let problem = Problem::new(count("horizon")? as usize, alphabet, epsilon.clone()).ok()?;
    let merge = v.get("merge")?;
    let witness = v.get("witness")?;
    let max_ratio = ratio_from_json(merge.get("max_ratio")?)?;
    let precision = v
        .get("precision_bits")
        .and_then(Value::as_u64)
        .map(|b| Precision(b as u32));
    let (verdict, bound) =
        crate::privacy::decide(&max_ratio, &epsilon, precision.map_or(0, |p| p.0)).ok()?;
    let report = Report {
        problem,
        actions: count("actions")? as usize,
        max_ratio,
        witness: Witness {
            losses: vectors(witness.get("losses")?)?,
            neighbour: vectors(witness.get("neighbour")?)?,
            actions: witness
                .get("actions")?
                .as_array()?
                .iter()
                .map(|a| Some(a.as_u64()?.checked_sub(1)? as usize))
                .collect::<Option<_>>()?,
            round: witness.get("round")?.as_u64()? as usize,
            ratio: ratio_from_json(merge.get("witness_ratio")?)?,
            sequence: merge.get("sequence")?.as_u64()?,
            neighbour_sequence: merge.get("neighbour_sequence")?.as_u64()?,
        },
        verdict: match (verdict, text("verdict")) {
            // An exact decision (attained or separated in Q(w)) that the
            // shard's enclosures alone leave open.
            (Verdict::Undecided, Some("private")) => Verdict::Private,
            (Verdict::Undecided, Some("violated")) => Verdict::Violated,
            (v, _) => v,
        },
        attained: v.get("attained").and_then(Value::as_bool).unwrap_or(false),
        method: text("method").unwrap_or("enumeration").parse().ok()?,
        bound,
        pairs: count("pairs")?,
        kind: if text("kind")? == Kind::Exact.label() {
            Kind::Exact
        } else {
            Kind::Certified
        },
        precision,
        shard: text("shard")?.parse().ok()?,
        why_not_exact: text("why_not_exact").map(str::to_string),
    };
    let described = Described {
        id: text("algorithm")?.parse().ok()?,
        noise: match v.get("noise")? {
            Value::Null => None,
            n => Some(n.as_str()?.parse().ok()?),
        },
        scale: match v.get("noise_scale")? {
            Value::Null => None,
            s => Some(parse_rational(s.as_str()?).ok()?),
        },
        resample: v.get("resample")?.as_bool()?,
    };
    Some((described, report))
}

/// Merge the `--json` reports of the shards of one run (`--merge`).
fn merge_files(paths: &[std::path::PathBuf]) -> Result<(Described, Report)> {
    let mut described: Option<Described> = None;
    let mut reports = Vec::with_capacity(paths.len());
    for path in paths {
        let name = path.display();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::InvalidInput(format!("cannot read {name}: {e}")))?;
        let value: Value = serde_json::from_str(&text)
            .map_err(|e| Error::Parse(format!("{name} is not JSON: {e}")))?;
        let (d, r) = report_from_json(&value).ok_or_else(|| {
            Error::InvalidInput(format!("{name} is not the --json output of dpdtol privacy"))
        })?;
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
