//! `dpdtol privacy … --epsilon-range a..b | --all-epsilon`: the ε-intervals
//! where the algorithm is private, decided exactly for every ε of the range
//! ([`crate::privacy::all_epsilon`]). The scale is `--scale-factor` (default
//! 1) times the paper's, so that it follows ε.

use super::{given, parse_count, parse_horizon, report, sequence_text, vectors_json, Args};
use crate::algorithm::{AlgorithmId, Config};
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{format_sig_directed, parse_rational, parse_rational_list, Dir, Q};
use crate::privacy::all_epsilon::{
    all_epsilon, AllEpsilon, AllOptions, Bound, EpsPoint, EpsilonRange, Family, Piece,
};
use report::DIGITS;
use serde_json::{json, Value};
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
    let ends = sharpen(&mut result)?;
    let violated = result.pieces.iter().any(|p| !p.private);
    let text = if args.json {
        json_output(&family, horizon, &alphabet, &result, &ends).to_string()
    } else {
        paragraph(&family, horizon, &alphabet, &result, &ends)
    };
    Ok((text, violated))
}

/// An end as printed: its decimal (certain digits), enclosure and exact value.
struct End {
    decimal: String,
    interval: (Q, Q),
    exact: Option<Q>,
}

impl End {
    /// A rational end exactly, a root to its certain digits.
    fn text(&self) -> String {
        self.exact
            .as_ref()
            .map_or_else(|| self.decimal.clone(), Q::to_string)
    }
}

fn end_of_point(p: &mut EpsPoint) -> Result<End> {
    let (lo, hi) = p.sharpen(DIGITS)?;
    Ok(End {
        decimal: crate::num::format_certain(&lo, &hi, DIGITS),
        interval: (lo, hi),
        exact: None,
    })
}

fn end_of(bound: &mut Bound) -> Result<Option<End>> {
    Ok(match bound {
        Bound::Rational(q) => Some(End {
            decimal: report::decimal(&crate::num::Exact::from(q.clone())),
            interval: (q.clone(), q.clone()),
            exact: Some(q.clone()),
        }),
        Bound::Point(p) => Some(end_of_point(p)?),
        Bound::Infinity => None,
    })
}

/// Every piece's ends and equality points, sharpened to [`DIGITS`] certain
/// digits.
type Ends = Vec<(Option<End>, Option<End>, Vec<End>)>;

fn sharpen(result: &mut AllEpsilon) -> Result<Ends> {
    result
        .pieces
        .iter_mut()
        .map(|p: &mut Piece| {
            Ok((
                end_of(&mut p.lo.0)?,
                end_of(&mut p.hi.0)?,
                p.attained_at
                    .iter_mut()
                    .map(end_of_point)
                    .collect::<Result<Vec<_>>>()?,
            ))
        })
        .collect()
}

fn describe(family: &Family) -> String {
    if family.config.id == AlgorithmId::PrefixSoftmax {
        return format!(
            "prefix-softmax (softmax, temperature {}2/ε: the paper's for ε <= 1/4)",
            if family.factor == Q::from_integer(1.into()) {
                String::new()
            } else {
                format!("{} × ", family.factor)
            }
        );
    }
    let noise = family.config.noise.map_or("laplace", Noise::name);
    let printed = match family.config.noise {
        Some(Noise::Exponential) => "1/ε",
        _ => "2/ε",
    };
    let scale = if family.factor == Q::from_integer(1.into()) {
        format!("scale {printed} as printed")
    } else {
        format!("scale {} × {printed}", family.factor)
    };
    format!(
        "{} ({noise} noise, {scale}{})",
        family.config.id.name(),
        if family.config.resample {
            ", Bernoulli resampling"
        } else {
            ""
        }
    )
}

fn interval_text(piece: &Piece, lo: &Option<End>, hi: &Option<End>) -> String {
    format!(
        "{}{}, {}{}",
        if piece.lo.1 { "[" } else { "(" },
        lo.as_ref().map_or("0".into(), End::text),
        hi.as_ref().map_or("∞".into(), End::text),
        if piece.hi.1 { "]" } else { ")" },
    )
}

fn range_text(range: &EpsilonRange) -> String {
    match &range.hi {
        None => "(0, ∞)".into(),
        Some(hi) => format!("[{}, {hi}]", range.lo),
    }
}

fn paragraph(
    family: &Family,
    horizon: usize,
    alphabet: &[Q],
    r: &AllEpsilon,
    ends: &Ends,
) -> String {
    let mut out = String::new();
    let alphabet: Vec<String> = alphabet.iter().map(Q::to_string).collect();
    let _ = writeln!(
        out,
        "{}, K = {}, horizon {horizon}, alphabet {{{}}}, every ε in {}:",
        describe(family),
        family.config.actions,
        alphabet.join(", "),
        range_text(&r.range)
    );
    let _ = writeln!(
        out,
        "  decided exactly: {} structural candidates, {} distinct conditions (integer polynomials in w = e^(-ε/{}) of degree at most {}), {} in (0, 1); ends certified, every digit printed certain",
        r.candidates,
        r.conditions,
        r.q,
        r.max_degree,
        match r.roots {
            1 => "1 root".to_string(),
            n => format!("{n} roots"),
        }
    );
    for (piece, (lo, hi, at)) in r.pieces.iter().zip(ends) {
        let interval = interval_text(piece, lo, hi);
        if piece.private {
            let equal = if r.attained_everywhere {
                " (maximum ratio = e^ε everywhere on it)".to_string()
            } else if at.is_empty() {
                " (maximum ratio < e^ε)".to_string()
            } else {
                let points: Vec<&str> = at.iter().map(|e| e.decimal.as_str()).collect();
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
                    w.actions.iter().map(|a| (a + 1).to_string()).collect::<Vec<_>>().join(","),
                    crate::num::format_certain(&w.ratio.0, &w.ratio.1, 12),
                    crate::num::format_certain(&w.bound.0, &w.bound.1, 12),
                );
            }
        }
    }
    out
}

fn interval_json(lo: &Q, hi: &Q) -> Value {
    json!([
        format_sig_directed(lo, DIGITS, Dir::Down),
        format_sig_directed(hi, DIGITS, Dir::Up)
    ])
}

fn end_json(end: &Option<End>, closed: bool) -> Value {
    match end {
        None => json!({"value": "inf", "interval": null, "exact": null, "closed": false}),
        Some(e) => json!({
            "value": e.decimal,
            "interval": interval_json(&e.interval.0, &e.interval.1),
            "exact": e.exact.as_ref().map(report::exact),
            "closed": closed,
        }),
    }
}

fn json_output(
    family: &Family,
    horizon: usize,
    alphabet: &[Q],
    r: &AllEpsilon,
    ends: &Ends,
) -> Value {
    let pieces: Vec<Value> = r
        .pieces
        .iter()
        .zip(ends)
        .map(|(piece, (lo, hi, at))| {
            json!({
                "verdict": if piece.private { "private" } else { "violated" },
                "lo": end_json(lo, piece.lo.1),
                "hi": end_json(hi, piece.hi.1),
                "attained_everywhere": piece.private && r.attained_everywhere,
                "attained_at": at.iter().map(|e| json!({
                    "value": e.decimal,
                    "interval": interval_json(&e.interval.0, &e.interval.1),
                })).collect::<Vec<_>>(),
                "witness": piece.witness.as_ref().map(|w| json!({
                    "epsilon": report::exact(&w.epsilon),
                    "losses": vectors_json(&w.losses),
                    "neighbour": vectors_json(&w.neighbour),
                    "actions": w.actions.iter().map(|a| a + 1).collect::<Vec<_>>(),
                    "round": w.round,
                    "ratio": crate::num::format_certain(&w.ratio.0, &w.ratio.1, DIGITS),
                    "ratio_interval": interval_json(&w.ratio.0, &w.ratio.1),
                    "bound": crate::num::format_certain(&w.bound.0, &w.bound.1, DIGITS),
                    "bound_interval": interval_json(&w.bound.0, &w.bound.1),
                })),
            })
        })
        .collect();
    json!({
        "schema_version": report::SCHEMA_VERSION,
        "algorithm": family.config.id.name(),
        "actions": family.config.actions,
        "horizon": horizon.to_string(),
        "alphabet": alphabet.iter().map(report::exact).collect::<Vec<_>>(),
        "noise": family.config.noise.map(Noise::name),
        "scale_factor": report::exact(&family.factor),
        "resample": family.config.resample,
        "method": "all-epsilon",
        "epsilon_range": {
            "lo": report::exact(&r.range.lo),
            "hi": r.range.hi.as_ref().map(report::exact),
        },
        "base": format!("e^(-epsilon/{})", r.q),
        "pieces": pieces,
        "candidates": r.candidates,
        "conditions": r.conditions,
        "max_degree": r.max_degree,
        "roots": r.roots,
        "kind": "certified",
    })
}
