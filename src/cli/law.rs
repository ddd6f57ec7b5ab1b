//! `dpdtol law`: the exact (else certified) law of an online algorithm's
//! action sequence on a given loss sequence — its schedule and each choice's
//! law — or of one selection (`--mechanism`), and with `--sequence` the
//! probability of one action sequence. The flags that name the target are
//! shared by `sample`, `gof` and `audit` ([`TargetArgs`]).

use super::args::{parse_bit, parse_count};
use super::report::{DIGITS, SCHEMA_VERSION};
use crate::algorithm::{AlgorithmId, BestOptions, BestSequenceLaw, Choice, Config};
use crate::error::{Error, Result};
use crate::mechanism::{Noise, Scale};
use crate::num::{format_sig, format_sig_directed, parse_rational, parse_rational_list, Dir, Q};
use crate::oracle::law::{choice_laws, sequence_probability};
use crate::oracle::{io, Enclosed, Target};
use serde_json::{json, Value};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The flags that name what the oracle answers about: an online algorithm
/// on a loss file, or one selection on a loss vector.
#[derive(Debug, clap::Args)]
pub struct TargetArgs {
    /// The online algorithm: ftl, naive-ftnl, hu-rnm-ftnl, wu-wang or prefix-softmax.
    #[arg(long, conflicts_with = "mechanism")]
    algorithm: Option<String>,
    /// The number of actions K ≥ 2 (default: the width of the loss file).
    #[arg(long, allow_hyphen_values = true)]
    actions: Option<String>,
    /// The privacy parameter ε > 0 the paper's default scales derive from, exactly: 1, 0.5, 1/2.
    #[arg(long, allow_hyphen_values = true)]
    epsilon: Option<String>,
    /// wu-wang only: the noise, laplace (default), exponential or gumbel.
    #[arg(long)]
    noise: Option<String>,
    /// wu-wang only: Bernoulli resampling of the losses, 0 (default) or 1.
    #[arg(long)]
    resample: Option<String>,
    /// Overrides the paper's noise scale (for prefix-softmax: the temperature 1/η), exactly.
    #[arg(long, allow_hyphen_values = true)]
    noise_scale: Option<String>,
    /// The loss sequence: CSV (one round a line, K losses) or JSON (an array of rounds), exact decimals or p/q.
    #[arg(long)]
    losses_file: Option<PathBuf>,
    /// Instead of --algorithm: one report-noisy-max selection with this noise, gumbel, exponential or laplace.
    #[arg(long)]
    mechanism: Option<String>,
    /// --mechanism only: the noise scale β > 0, exactly.
    #[arg(long, allow_hyphen_values = true)]
    scale: Option<String>,
    /// --mechanism only: the losses, comma-separated: 0,1/2,1.
    #[arg(long, allow_hyphen_values = true)]
    losses: Option<String>,
    /// Do work over the limits: a law that enumerates more than 2^16 one-shot selection laws, a sample of more than 2·10^8 values.
    #[arg(long)]
    force: bool,
}

/// The base actions are numbered from in files and on the command line.
pub(super) fn parse_base(text: &str) -> Result<u32> {
    parse_bit("--base", text)
}

impl TargetArgs {
    /// Whether `--force` was given.
    pub(super) fn force_given(&self) -> bool {
        self.force
    }

    /// Whether the flags name a target at all.
    pub(super) fn given(&self) -> bool {
        self.algorithm.is_some() || self.mechanism.is_some()
    }

    /// The target the flags name.
    pub(super) fn build(&self) -> Result<Target> {
        self.build_on(self.losses_file.as_deref(), self.losses.as_deref())
    }

    /// The same target on other losses: a loss file for an algorithm, a
    /// comma-separated list for a mechanism.
    pub(super) fn build_on(&self, file: Option<&Path>, list: Option<&str>) -> Result<Target> {
        let missing = |flag: &str, with: &str| {
            Error::InvalidInput(format!("{flag} is required with --{with}"))
        };
        if let Some(noise) = &self.mechanism {
            let noise: Noise = noise.parse()?;
            let scale = Scale::beta(parse_rational(
                self.scale
                    .as_deref()
                    .ok_or_else(|| missing("--scale", "mechanism"))?,
            )?)?;
            let losses =
                parse_rational_list(list.ok_or_else(|| missing("--losses", "mechanism"))?)?;
            return Target::mechanism(noise, scale, losses);
        }
        let id: AlgorithmId = self
            .algorithm
            .as_deref()
            .ok_or_else(|| Error::InvalidInput("--algorithm or --mechanism is required".into()))?
            .parse()?;
        let losses = io::read_losses(file.ok_or_else(|| missing("--losses-file", "algorithm"))?)?;
        let width = losses.first().map_or(0, Vec::len);
        let actions = match &self.actions {
            Some(text) => parse_count("--actions", text)?,
            None => width,
        };
        let resample = match &self.resample {
            Some(text) => parse_bit("--resample", text)? == 1,
            None => false,
        };
        let config = Config {
            id,
            actions,
            epsilon: parse_rational(
                self.epsilon
                    .as_deref()
                    .ok_or_else(|| missing("--epsilon", "algorithm"))?,
            )?,
            noise: self.noise.as_deref().map(str::parse::<Noise>).transpose()?,
            noise_scale: self
                .noise_scale
                .as_deref()
                .map(parse_rational)
                .transpose()?,
            resample,
        };
        Target::algorithm(config.build()?, losses)
    }

    /// The target in words and as JSON.
    pub(super) fn describe(&self) -> (String, Value) {
        if let Some(noise) = &self.mechanism {
            let text = format!(
                "report-noisy-max, {noise} noise, scale {}",
                self.scale.as_deref().unwrap_or("?")
            );
            let value = json!({
                "mechanism": noise,
                "scale": self.scale,
                "losses": self.losses,
            });
            return (text, value);
        }
        let algorithm = self.algorithm.as_deref().unwrap_or("?");
        let mut text = format!(
            "{algorithm}, ε = {}",
            self.epsilon.as_deref().unwrap_or("?")
        );
        for (flag, value) in [
            ("noise", &self.noise),
            ("resample", &self.resample),
            ("noise-scale", &self.noise_scale),
        ] {
            if let Some(v) = value {
                let _ = write!(text, ", {flag} {v}");
            }
        }
        let value = json!({
            "algorithm": algorithm,
            "epsilon": self.epsilon,
            "noise": self.noise,
            "resample": self.resample,
            "noise_scale": self.noise_scale,
            "losses_file": self.losses_file.as_ref().map(|p| p.display().to_string()),
        });
        (text, value)
    }

    /// The target's law to `digits` relative digits, with a progress bar on
    /// stderr for long ones.
    pub(super) fn law(&self, target: &Target, digits: u32) -> Result<BestSequenceLaw> {
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(1),
            indicatif::ProgressDrawTarget::stderr(),
        );
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "law {wide_bar} {pos}/{len} selection laws, {elapsed}",
        ) {
            bar.set_style(style);
        }
        // Small laws finish before a bar would be of use; the bar advances
        // a choice at a time, so its clock ticks on its own.
        let show = target.cost() >= 1 << 12;
        if show {
            bar.enable_steady_tick(std::time::Duration::from_millis(500));
        }
        let mut progress = |done: u128, total: u128| {
            if show {
                bar.set_length(u64::try_from(total).unwrap_or(u64::MAX));
                bar.set_position(u64::try_from(done).unwrap_or(u64::MAX));
            }
        };
        let law = target.law(BestOptions {
            digits,
            force: self.force,
            progress: Some(&mut progress),
        });
        bar.finish_and_clear();
        law
    }
}

/// Flags of `dpdtol law`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    target: TargetArgs,
    /// The probability of this action sequence, one action a round, comma-separated.
    #[arg(long)]
    sequence: Option<String>,
    /// How --sequence numbers the actions: 1 (default, as the papers) or 0.
    #[arg(long, default_value = "1")]
    base: String,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

/// The conventions every oracle command's output states.
pub(super) const CONVENTIONS: &str = "rounds are numbered from 1 and round ranges are inclusive; choices are numbered from 0 in schedule order; law[a] is the probability of action a + base";

/// A probability as JSON: decimal, exact `p/q` (or null), enclosure.
pub(super) fn enclosed_json(p: &Enclosed) -> (Value, Value, Value) {
    let mid = (&p.lo + &p.hi) / Q::from_integer(2.into());
    (
        json!(format_sig(&mid, DIGITS)),
        p.exact().map_or(Value::Null, |q| json!(q.to_string())),
        json!([
            format_sig_directed(&p.lo, DIGITS, Dir::Down),
            format_sig_directed(&p.hi, DIGITS, Dir::Up)
        ]),
    )
}

/// A probability for people: the decimal, and `= p/q` when exact.
fn enclosed_text(p: &Enclosed) -> String {
    let (decimal, exact, _) = enclosed_json(p);
    let decimal = decimal.as_str().unwrap_or_default().to_string();
    match exact.as_str() {
        Some(q) if q.len() <= 40 => format!("{decimal} = {q}"),
        _ => decimal,
    }
}

/// The rounds of a half-open range as an inclusive `[first, last]`, or
/// null when it is empty.
pub(super) fn rounds_json(range: &std::ops::Range<usize>) -> Value {
    if range.is_empty() {
        Value::Null
    } else {
        json!([range.start, range.end - 1])
    }
}

fn rounds_text(range: &std::ops::Range<usize>) -> String {
    match range.len() {
        0 => "nothing".into(),
        1 => format!("round {}", range.start),
        _ => format!("rounds {}–{}", range.start, range.end - 1),
    }
}

/// The fields every oracle command's JSON shares about a law.
pub(super) fn law_header(law: &BestSequenceLaw) -> Value {
    match law {
        BestSequenceLaw::Exact(_) => json!({
            "kind": "exact", "precision_bits": null, "digits_certain": true, "why_not_exact": null,
        }),
        BestSequenceLaw::Certified {
            precision,
            accepted,
            why_not_exact,
            ..
        } => json!({
            "kind": "certified", "precision_bits": precision.0, "digits_certain": accepted,
            "why_not_exact": why_not_exact,
        }),
    }
}

/// Parse a comma-separated action sequence numbered from `base`.
fn parse_sequence(text: &str, base: u32) -> Result<Vec<usize>> {
    text.split(',')
        .map(|a| {
            let a = a.trim();
            let value: usize = a.parse().map_err(|_| {
                Error::Parse(format!("--sequence expects integer actions, got '{a}'"))
            })?;
            value.checked_sub(base as usize).ok_or_else(|| {
                Error::InvalidInput(format!("action {value} is not a {base}-based action"))
            })
        })
        .collect()
}

/// Run the command; the text to print on stdout.
pub fn run(args: &Args) -> Result<String> {
    let base = parse_base(&args.base)?;
    let target = args.target.build()?;
    let sequence = args
        .sequence
        .as_deref()
        .map(|s| parse_sequence(s, base))
        .transpose()?;
    let law = args.target.law(&target, DIGITS as u32 + 2)?;
    let k = target.actions();
    let laws = choice_laws(&law)?;
    let probability = sequence
        .as_ref()
        .map(|s| sequence_probability(&law, k, s))
        .transpose()?;
    let schedule = law.schedule();
    let (described, target_json) = args.target.describe();
    if args.json {
        let choices: Vec<Value> = schedule
            .iter()
            .zip(&laws)
            .enumerate()
            .map(|(c, (choice, law))| choice_json(c, choice, law))
            .collect();
        let mut out = json!({
            "schema_version": SCHEMA_VERSION,
            "command": "law",
            "target": target_json,
            "conventions": CONVENTIONS,
            "base": base,
            "actions": k,
            "horizon": target.horizon().to_string(),
            "choices": choices,
            "sequence": sequence.as_ref().map(|s| s.iter().map(|a| a + base as usize).collect::<Vec<_>>()),
        });
        if let (Some(map), Value::Object(header)) = (out.as_object_mut(), law_header(&law)) {
            map.extend(header);
            let (decimal, exact, interval) = match &probability {
                Some(p) => enclosed_json(p),
                None => (Value::Null, Value::Null, Value::Null),
            };
            map.insert("probability".into(), decimal);
            map.insert("probability_exact".into(), exact);
            map.insert("probability_interval".into(), interval);
        }
        return Ok(out.to_string());
    }
    let mut out = String::new();
    let how = match &law {
        BestSequenceLaw::Exact(_) => "exact".to_string(),
        BestSequenceLaw::Certified {
            precision,
            accepted,
            ..
        } => format!(
            "certified ({} bits; {})",
            precision.0,
            if *accepted {
                "every digit shown is correct to ±1 in the last place"
            } else {
                "NOT all digits shown are certain: see --json"
            }
        ),
    };
    let _ = writeln!(
        out,
        "{described}: K = {k}, t = {}, {} choices, law {how}",
        target.horizon(),
        schedule.len()
    );
    let _ = writeln!(out, "({CONVENTIONS}; base {base})");
    for (c, (choice, law)) in schedule.iter().zip(&laws).enumerate() {
        let _ = writeln!(
            out,
            "choice {c}: plays {}, reads {}",
            rounds_text(&choice.plays),
            rounds_text(&choice.reads)
        );
        for (a, p) in law.iter().enumerate() {
            let _ = writeln!(
                out,
                "  action {:>3}  {}",
                a + base as usize,
                enclosed_text(p)
            );
        }
    }
    if let Some(p) = &probability {
        let _ = writeln!(out, "P(sequence) = {}", enclosed_text(p));
    }
    Ok(out.trim_end().to_string())
}

fn choice_json(c: usize, choice: &Choice, law: &[Enclosed]) -> Value {
    let (mut decimals, mut exact, mut intervals) = (Vec::new(), Vec::new(), Vec::new());
    for p in law {
        let (d, e, i) = enclosed_json(p);
        decimals.push(d);
        exact.push(e);
        intervals.push(i);
    }
    let all_exact = exact.iter().all(|e| !e.is_null());
    json!({
        "choice": c,
        "plays": rounds_json(&choice.plays),
        "reads": rounds_json(&choice.reads),
        "law": decimals,
        "law_exact": if all_exact { Value::Array(exact) } else { Value::Null },
        "law_interval": intervals,
    })
}
