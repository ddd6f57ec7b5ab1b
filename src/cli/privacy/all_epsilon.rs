//! `dpdtol privacy … --epsilon-range a..b | --all-epsilon`: the ε-intervals
//! where the algorithm is private, decided exactly for every ε of the range
//! ([`crate::privacy::all_epsilon`]). The scale is `--scale-factor` (default
//! 1) times the paper's, so that it follows ε.

use super::{given, parse_count, parse_horizon, sequence_text, Args};
use crate::algorithm::{AlgorithmId, Config};
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{parse_rational, parse_rational_list, Q};
use crate::privacy::all_epsilon::{all_epsilon, AllOptions, EpsilonRange, Family};
use crate::report::all_epsilon::{AllEpsilonReport, End, PieceKeys, RangeKeys};
use crate::report::to_json;
use std::fmt::Write;

/// The family the flags describe, and the range.
fn family_of(args: &Args) -> Result<(Family, EpsilonRange)> {
    for (flag, given) in [
        ("--epsilon", args.epsilon.is_some()),
        (
            "--noise-scale (use --scale-factor: the scale must follow ε)",
            args.noise_scale.is_some(),
        ),
        ("--shard", args.shard.is_some()),
        ("--method", args.method.is_some()),
    ] {
        if given {
            return Err(Error::InvalidInput(format!(
                "{flag} does not apply with --epsilon-range or --all-epsilon"
            )));
        }
    }
    let range = match (&args.epsilon_range, args.all_epsilon) {
        (Some(_), true) => {
            return Err(Error::InvalidInput(
                "give --epsilon-range or --all-epsilon, not both".into(),
            ))
        }
        (Some(text), false) => text.parse()?,
        (None, _) => EpsilonRange::all(),
    };
    let id: AlgorithmId = given(&args.algorithm, "--algorithm")?.parse()?;
    let resample = match &args.resample {
        Some(text) => crate::cli::args::parse_bit("--resample", text)? == 1,
        None => false,
    };
    let config = Config {
        id,
        actions: parse_count("--actions", given(&args.actions, "--actions")?)?,
        epsilon: Q::from_integer(1.into()),
        noise: args.noise.as_deref().map(str::parse::<Noise>).transpose()?,
        noise_scale: None,
        resample,
    };
    let factor = args
        .scale_factor
        .as_deref()
        .map(parse_rational)
        .transpose()?
        .unwrap_or_else(|| Q::from_integer(1.into()));
    Ok((Family { config, factor }, range))
}

/// Run the all-ε check; the text to print, and whether some ε of the range
/// is violated.
pub(super) fn run(args: &Args) -> Result<(String, bool)> {
    let (family, range) = family_of(args)?;
    let horizon = parse_horizon(given(&args.horizon, "--horizon")?)?;
    let alphabet = parse_rational_list(given(&args.alphabet, "--alphabet")?)?;
    let options = AllOptions {
        force: args.force,
        progress: true,
    };
    let threads = args
        .threads
        .as_deref()
        .map(|t| parse_count("--threads", t))
        .transpose()?;
    let go = || all_epsilon(&family, horizon, alphabet.clone(), &range, &options);
    let mut result = match threads {
        None => go()?,
        Some(n) => crate::size::thread_pool(Some(n))?.install(go)?,
    };
    let report = AllEpsilonReport::new(&family, horizon, &alphabet, &mut result)?;
    let text = if args.json {
        to_json(&report)
    } else {
        paragraph(&report)
    };
    Ok((text, report.violated()))
}

/// An end in words: a rational end exactly, a root to its certain digits.
fn end_text(end: &End) -> &str {
    end.exact
        .as_ref()
        .map_or(end.value.0.as_str(), |q| q.0.as_str())
}

fn describe(r: &AllEpsilonReport) -> String {
    let factor = if r.scale_factor.0 == "1" {
        String::new()
    } else {
        format!("{} × ", r.scale_factor)
    };
    if r.algorithm == AlgorithmId::PrefixSoftmax.name() {
        return format!(
            "prefix-softmax (softmax, temperature {factor}2/ε: the paper's for ε <= 1/4)"
        );
    }
    let printed = match r.noise {
        Some(Noise::Exponential) => "1/ε",
        _ => "2/ε",
    };
    let scale = if factor.is_empty() {
        format!("scale {printed} as printed")
    } else {
        format!("scale {factor}{printed}")
    };
    format!(
        "{} ({} noise, {scale}{})",
        r.algorithm,
        r.noise.map_or("laplace", Noise::name),
        if r.resample {
            ", Bernoulli resampling"
        } else {
            ""
        }
    )
}

fn interval_text(piece: &PieceKeys) -> String {
    format!(
        "{}{}, {}{}",
        if piece.lo.closed { "[" } else { "(" },
        if piece.lo.value.0 == "inf" {
            "0"
        } else {
            end_text(&piece.lo)
        },
        if piece.hi.value.0 == "inf" {
            "∞"
        } else {
            end_text(&piece.hi)
        },
        if piece.hi.closed { "]" } else { ")" },
    )
}

fn range_text(range: &RangeKeys) -> String {
    match &range.hi {
        None => "(0, ∞)".into(),
        Some(hi) => format!("[{}, {hi}]", range.lo),
    }
}

fn paragraph(r: &AllEpsilonReport) -> String {
    let mut out = String::new();
    let alphabet: Vec<&str> = r.alphabet.iter().map(|a| a.0.as_str()).collect();
    let _ = writeln!(
        out,
        "{}, K = {}, horizon {}, alphabet {{{}}}, every ε in {}:",
        describe(r),
        r.actions,
        r.horizon,
        alphabet.join(", "),
        range_text(&r.epsilon_range)
    );
    let _ = writeln!(
        out,
        "  decided exactly: {} structural candidates, {} distinct conditions (integer polynomials in w = e^(-ε/{}) of degree at most {}), {} in (0, 1); ends certified, every digit printed certain",
        r.candidates,
        r.conditions,
        r.base_denominator(),
        r.max_degree,
        match r.roots {
            1 => "1 root".to_string(),
            n => format!("{n} roots"),
        }
    );
    for piece in &r.pieces {
        let interval = interval_text(piece);
        if piece.verdict == crate::privacy::Verdict::Private {
            let equal = if piece.attained_everywhere {
                " (maximum ratio = e^ε everywhere on it)".to_string()
            } else if piece.attained_at.is_empty() {
                " (maximum ratio < e^ε)".to_string()
            } else {
                let points: Vec<&str> = piece
                    .attained_at
                    .iter()
                    .map(|e| e.value.0.as_str())
                    .collect();
                format!(" (maximum ratio < e^ε, = e^ε at ε = {})", points.join(", "))
            };
            let _ = writeln!(out, "  PRIVATE  for ε in {interval}{equal}");
        } else {
            let _ = writeln!(out, "  VIOLATED for ε in {interval}");
            if let Some(w) = &piece.witness {
                let _ = writeln!(
                    out,
                    "    witness at ε = {}: x = {}, x' = {} (round {}), actions {}: ratio {} > e^ε = {}",
                    w.epsilon,
                    sequence_text(&w.losses),
                    sequence_text(&w.neighbour),
                    w.round,
                    w.actions.iter().map(u64::to_string).collect::<Vec<_>>().join(","),
                    w.ratio.to_digits(12),
                    w.bound.to_digits(12),
                );
            }
        }
    }
    out
}
