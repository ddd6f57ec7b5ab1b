//! `dpdtol regret`: the exact pseudo-regret of one or several algorithms on
//! one instance, with the papers' bounds side by side; `--curve` writes the
//! regret at every epoch boundary, `--plot` draws it against T.

use super::report::{self, DIGITS};
use crate::algorithm::{AlgorithmId, Config};
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{
    parse_power_count, parse_rational, parse_rational_list, relative_width, Certified, Exact, Kind,
    Precision, Real, Q,
};
use crate::regret::bounds::{Evaluation, Evaluator};
use crate::regret::plot::{self, Series, Style};
use crate::regret::{self, bernoulli, Instance, Plan, RegretCurve, Round, Setting};
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive};
use serde_json::{json, Value};
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
    let (mut noise_used, mut resample_used, mut scale_used) = (false, false, false);
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
        resample_used |= is_ww;
        scale_used |= id != AlgorithmId::Ftl;
    }
    // A flag that applies to none of the algorithms is refused, not ignored.
    for (given, used, flag) in [
        (
            noise.is_some(),
            noise_used,
            "--noise (wu-wang without :NOISE only)",
        ),
        (
            args.resample.is_some(),
            resample_used,
            "--resample (wu-wang only)",
        ),
        (noise_scale.is_some(), scale_used, "--noise-scale (not ftl)"),
    ] {
        if given && !used {
            return Err(Error::InvalidInput(format!(
                "{flag} applies to none of the algorithms '{}'",
                args.algorithm
            )));
        }
    }
    Ok(out)
}

/// The regret of one algorithm: its curve (exact or certified), a certified
/// copy of the total, and the bounds.
struct Outcome {
    label: String,
    config: Config,
    exact: Option<RegretCurve<Exact>>,
    curve: RegretCurve<Certified>,
    total: Certified,
    precision: Option<Precision>,
    accepted: bool,
    /// Why the requested digits are not all certain (`None` when they are).
    why_uncertain: Option<String>,
    evaluation: Option<Evaluation<Certified>>,
    evaluator: Option<Evaluator<Certified>>,
}

const START_BITS: u32 = 256;
const MAX_BITS: u32 = 2048;

/// Whether an enclosure is tight enough for `digits` certain digits:
/// relative width ≤ 10^−(digits+2), or an absolute width ≤ 1e-60 (for a
/// regret of 0).
fn tight(x: &Certified, digits: u32) -> bool {
    let Some((lo, hi)) = x.enclosure() else {
        return false;
    };
    if &hi - &lo <= Q::new(BigInt::one(), BigInt::from(10u32).pow(60)) {
        return true;
    }
    relative_width(&lo, &hi)
        .is_some_and(|w| w <= Q::new(BigInt::one(), BigInt::from(10u32).pow(digits + 2)))
}

fn compute(
    entry: &Entry,
    inst: &Instance,
    setting: Setting,
    horizon: Round,
    limit: Option<u128>,
    with_bounds: bool,
    digits: u32,
) -> Result<Outcome> {
    let plan = Plan::of(&entry.config)?;
    // ftl is exact (the Bernoulli engine only while its growing rationals
    // are affordable, bernoulli::exact_ftl_cost).
    let exact = if plan == Plan::Ftl
        && (setting == Setting::Deterministic
            || bernoulli::exact_ftl_cost(inst, horizon) <= bernoulli::MAX_EXACT_FTL_WORK)
    {
        Some(regret::regret::<Exact>(
            &plan,
            inst,
            setting,
            horizon,
            &(),
            limit,
        )?)
    } else {
        None
    };
    // An enumeration is long and redone at each precision: start it at 192
    // bits (its rounding errors add up to far below 1e-32 of the regret).
    let enumerates = setting == Setting::Bernoulli || entry.config.resample;
    let mut bits = if enumerates { 192 } else { START_BITS };
    let mut previous_width: Option<Q> = None;
    let task = crate::progress::Task {
        name: "regret",
        unit: "blocks",
    };
    crate::progress::with_progress(true, task, 1, |bar| loop {
        bar.stage(&format!("{} bits", bits));
        let ctx = Precision(bits);
        let curve: RegretCurve<Certified> = match &exact {
            Some(e) => RegretCurve {
                terms: e
                    .terms
                    .iter()
                    .map(|t| regret::Term {
                        first: t.first,
                        last: t.last,
                        gap: Certified::from_rational(&t.gap, &ctx),
                    })
                    .collect(),
            },
            None => regret::regret_counted::<Certified>(
                &plan, inst, setting, horizon, &ctx, limit, bar,
            )?,
        };
        let total = match &exact {
            Some(e) => Certified::from_rational(&e.total(&()), &ctx),
            None => curve.total(&ctx),
        };
        let (evaluator, evaluation) = if with_bounds {
            let evaluator =
                Evaluator::<Certified>::new(&entry.config, inst, setting, horizon, &ctx, limit)?;
            let evaluation = evaluator.at(horizon, &curve)?;
            (Some(evaluator), Some(evaluation))
        } else {
            (None, None)
        };
        // A row left undecided by an enclosure wider than rounding (the
        // enclosed tail of CC Lemma 4–5's Σ F_m in the Bernoulli setting)
        // stays undecided at any precision: it does not ask for more bits.
        let decided = evaluation.as_ref().is_none_or(|e| {
            e.bounds.iter().all(|b| {
                b.holds(&total).is_some()
                    || !tight(&b.value, digits)
                    || b.quantity.as_ref().is_some_and(|(_, v)| !tight(v, digits))
            })
        });
        let accepted = (exact.is_some() || tight(&total, digits)) && decided;
        // More precision only helps when rounding limits the width: stop when
        // doubling it did not shrink the enclosure (the prefix-softmax
        // integral enclosure, an undecided bound at the limit of its own
        // accuracy).
        let width = total.enclosure().map(|(lo, hi)| hi - lo);
        let stalled = match (&previous_width, &width) {
            (Some(before), Some(now)) => now * Q::from_integer(1024.into()) > *before,
            _ => false,
        };
        previous_width = width;
        let cap = if enumerates { 384 } else { MAX_BITS };
        if accepted || stalled || bits >= cap {
            let why_uncertain = (!accepted).then(|| {
                if !decided {
                    "a bound's comparison with the regret is not decided at the precision reached".to_string()
                } else if stalled {
                    format!("the enclosure stopped shrinking when the precision was doubled to {bits} bits: its width comes from an integral bound of the closed form, not from rounding, and more bits do not shrink it")
                } else {
                    format!("the precision cap of {cap} bits was reached")
                }
            });
            return Ok(Outcome {
                why_uncertain,
                label: entry.label.clone(),
                config: entry.config.clone(),
                precision: exact.is_none().then_some(ctx),
                exact,
                curve,
                total,
                accepted,
                evaluation,
                evaluator,
            });
        }
        bits *= 2;
    })
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
    let outcomes = entries
        .iter()
        .map(|e| {
            compute(
                e,
                &inst,
                setting,
                horizon,
                limit,
                !args.no_bounds,
                args.digits,
            )
        })
        .collect::<Result<Vec<_>>>()?;
    if let Some(path) = &args.curve {
        write_curve(path, &outcomes)?;
    }
    if let Some(path) = &args.plot {
        draw(path, &inst, setting, &epsilon, &outcomes)?;
    }
    if args.json {
        let results: Vec<Value> = outcomes
            .iter()
            .map(|o| outcome_json(o, &inst, setting, horizon, args))
            .collect();
        let value = if results.len() == 1 {
            results.into_iter().next().unwrap_or(Value::Null)
        } else {
            json!({ "results": results })
        };
        Ok(report::versioned(value).to_string())
    } else {
        Ok(tables(&outcomes, &inst, setting, horizon, &epsilon))
    }
}

fn write_curve(path: &Path, outcomes: &[Outcome]) -> Result<()> {
    let mut text = String::from("algorithm,T,regret,regret_lo,regret_hi\n");
    for o in outcomes {
        let ctx = o.precision.unwrap_or(Precision(START_BITS));
        for (t, value) in o.curve.boundaries(&ctx) {
            let interval = report::interval(&value);
            let _ = writeln!(
                text,
                "{},{t},{},{},{}",
                o.label.replace(',', ";"),
                report::decimal(&value),
                interval[0].as_str().unwrap_or(""),
                interval[1].as_str().unwrap_or("")
            );
        }
    }
    std::fs::write(path, text).map_err(|e| Error::Write(format!("{}: {e}", path.display())))
}

fn draw(
    path: &Path,
    inst: &Instance,
    setting: Setting,
    epsilon: &Q,
    outcomes: &[Outcome],
) -> Result<()> {
    let mut series = Vec::new();
    for (group, o) in outcomes.iter().enumerate() {
        let ctx = o.precision.unwrap_or(Precision(START_BITS));
        let points = o.curve.boundaries(&ctx);
        series.push(Series {
            label: format!("{}: exact regret", o.label),
            group,
            style: Style::Regret,
            points: points
                .iter()
                .map(|(t, v)| (*t as f64, v.to_f64()))
                .collect(),
        });
        let Some(evaluator) = &o.evaluator else {
            continue;
        };
        // Bound rows on the regret itself (lemma rows bound other quantities).
        let mut lines: Vec<Series> = Vec::new();
        for (t, _) in &points {
            let evaluation = evaluator.at(*t, &o.curve)?;
            for b in evaluation
                .bounds
                .iter()
                .filter(|b| b.quantity.is_none() || b.id == "ww-thm3")
            {
                let style = match b.kind {
                    crate::regret::bounds::BoundKind::Upper => Style::Upper,
                    crate::regret::bounds::BoundKind::Lower => Style::Lower,
                };
                let fails = o.evaluation.as_ref().is_some_and(|e| {
                    e.bounds
                        .iter()
                        .any(|f| f.id == b.id && f.holds(&o.total) == Some(false))
                });
                let label = format!(
                    "{}: {} ({}{})",
                    o.label,
                    b.id,
                    b.kind.name(),
                    if fails { ", FAILS at T" } else { "" }
                );
                let point = (*t as f64, b.value.to_f64());
                match lines.iter_mut().find(|s| s.label == label) {
                    Some(s) => s.points.push(point),
                    None => lines.push(Series {
                        label,
                        group,
                        style,
                        points: vec![point],
                    }),
                }
            }
        }
        series.extend(lines);
    }
    let means: Vec<String> = inst.means().iter().map(|m| m.to_string()).collect();
    let title = format!(
        "Pseudo-regret, μ = ({}), ε = {epsilon}, {setting} setting",
        means.join(", ")
    );
    plot::draw(path, &title, &series)
}

fn holds_json(h: Option<bool>) -> Value {
    match h {
        Some(b) => json!(b),
        None => Value::Null,
    }
}

fn outcome_json(
    o: &Outcome,
    inst: &Instance,
    setting: Setting,
    horizon: Round,
    args: &Args,
) -> Value {
    let exact_total = o.exact.as_ref().map(|e| e.total(&()));
    let kind = if exact_total.is_some() {
        Kind::Exact
    } else {
        Kind::Certified
    };
    let regret = match &exact_total {
        Some(q) => report::decimal(q),
        None => report::decimal(&o.total),
    };
    let (bounds, rates, skipped) = match &o.evaluation {
        Some(e) => (
            e.bounds
                .iter()
                .map(|b| {
                    json!({
                        "id": b.id,
                        "source": b.source,
                        "statement": b.statement,
                        "kind": b.kind.name(),
                        "value": report::decimal(&b.value),
                        "value_interval": report::interval(&b.value),
                        "holds": holds_json(b.holds(&o.total)),
                        "applies": b.applies,
                        "note": b.note,
                        "quantity": b.quantity.as_ref().map(|(n, _)| n.clone()),
                        "quantity_value": b.quantity.as_ref().map(|(_, v)| report::decimal(v)),
                    })
                })
                .collect::<Vec<_>>(),
            e.rates
                .iter()
                .map(|r| {
                    let constant = o.total.clone() / &r.value;
                    json!({
                        "id": r.id,
                        "source": r.source,
                        "expression": r.expression,
                        "rate": report::decimal(&r.value),
                        "implied_constant": report::decimal(&constant),
                        "implied_constant_interval": report::interval(&constant),
                    })
                })
                .collect::<Vec<_>>(),
            e.not_evaluated
                .iter()
                .map(|n| json!({ "id": n.id, "source": n.source, "reason": n.reason }))
                .collect::<Vec<_>>(),
        ),
        None => (Vec::new(), Vec::new(), Vec::new()),
    };
    let plan = Plan::of(&o.config).ok();
    let (noise, scale) = match &plan {
        Some(Plan::Epoch { noise, scale, .. }) => (json!(noise.name()), json!(scale.to_string())),
        Some(Plan::Prefix { eta }) => (Value::Null, json!(eta.recip().to_string())),
        _ => (Value::Null, Value::Null),
    };
    json!({
        "algorithm": o.config.id.name(),
        "label": o.label,
        "noise": noise,
        "noise_scale": scale,
        "resample": o.config.resample,
        "setting": setting.name(),
        "horizon": horizon.to_string(),
        "means": inst.means().iter().map(report::exact).collect::<Vec<_>>(),
        "epsilon": o.config.epsilon.to_string(),
        "kind": kind.label(),
        "precision_bits": o.precision.map(|p| p.0),
        "regret": regret,
        "regret_interval": report::interval(&o.total),
        "regret_exact": exact_total.as_ref().map(report::exact),
        "digits_certain": o.accepted,
        "digits_requested": args.digits,
        "digits_reason": o.why_uncertain,
        "bounds": bounds,
        "rates": rates,
        "bounds_not_evaluated": skipped,
        "curve": args.curve.as_ref().map(|p| p.display().to_string()),
        "plot": args.plot.as_ref().map(|p| p.display().to_string()),
    })
}

/// A short decimal for tables (the full digits are in `--json`).
fn short<R: Real>(x: &R) -> String {
    match x.enclosure() {
        Some((lo, hi)) => crate::num::format_certain(&lo, &hi, 12),
        None => "nan".into(),
    }
}

fn tables(
    outcomes: &[Outcome],
    inst: &Instance,
    setting: Setting,
    horizon: Round,
    epsilon: &Q,
) -> String {
    let mut out = String::new();
    let means: Vec<String> = inst.means().iter().map(|m| m.to_string()).collect();
    let _ = writeln!(
        out,
        "pseudo-regret on μ = ({}), K = {}, {setting} setting, T = {horizon}, ε = {epsilon}",
        means.join(", "),
        inst.k()
    );
    for o in outcomes {
        let _ = writeln!(out);
        let how = match (&o.exact, o.precision) {
            (Some(e), _) => format!("exact = {}", e.total(&())),
            (None, Some(p)) => format!(
                "certified, {} bits{}",
                p.0,
                match &o.why_uncertain {
                    None => "; every digit shown is certain".to_string(),
                    Some(why) =>
                        format!("; only the digits shown are certain, fewer than requested: {why}"),
                }
            ),
            _ => String::new(),
        };
        let value = match &o.exact {
            Some(e) => report::decimal(&e.total(&())),
            None => report::decimal(&o.total),
        };
        let _ = writeln!(out, "{}: Reg_T = {value}  ({how})", o.label);
        let Some(e) = &o.evaluation else {
            continue;
        };
        if !e.bounds.is_empty() {
            let _ = writeln!(
                out,
                "  {:<18} {:<6} {:>18} {:>18}  {:<5}  source",
                "bound", "kind", "value", "bounded quantity", "holds"
            );
            for b in &e.bounds {
                let quantity = match &b.quantity {
                    Some((_, v)) => short(v),
                    None => "Reg_T".to_string(),
                };
                let holds = match b.holds(&o.total) {
                    Some(true) => "yes",
                    Some(false) => "NO",
                    None => "?",
                };
                let applies = if b.applies {
                    ""
                } else {
                    " [hypotheses not met]"
                };
                let _ = writeln!(
                    out,
                    "  {:<18} {:<6} {:>18} {:>18}  {:<5}  {}{applies}",
                    b.id,
                    b.kind.name(),
                    short(&b.value),
                    quantity,
                    holds,
                    b.source
                );
            }
        }
        if !e.rates.is_empty() {
            let _ = writeln!(
                out,
                "  {:<18} {:>18} {:>18}  expression",
                "rate (no constant)", "rate", "Reg_T / rate"
            );
            for r in &e.rates {
                let constant = o.total.clone() / &r.value;
                let _ = writeln!(
                    out,
                    "  {:<18} {:>18} {:>18}  O({})  [{}]",
                    r.id,
                    short(&r.value),
                    short(&constant),
                    r.expression,
                    r.source
                );
            }
        }
        for n in &e.not_evaluated {
            let _ = writeln!(out, "  not evaluated: {} — {}", n.id, n.reason);
        }
    }
    let _ = DIGITS;
    out.trim_end().to_string()
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
        // Issue 14: a doubled sign was read as 2^10 + 5.
        for bad in [
            "2^10--5", "2^10+-5", "2^10-", "2^-3", "2^1.5", "2^ 10", "2^10-1-1",
        ] {
            assert!(parse_horizon(bad).is_err(), "{bad}");
        }
    }
}
