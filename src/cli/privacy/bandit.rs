//! `dpdtol privacy --algorithm anytime-lazy-ucb|dp-se …`: the exhaustive
//! check of a bandit algorithm ([`crate::bandit::privacy`]) under the flags
//! and JSON keys of the full-information check. `--actions` is K (2 only),
//! `--horizon` T, `--alphabet` the reward values; a neighbour replaces one
//! round's reward vector. The laws are certified: the check runs at 128 bits
//! and doubles the precision (to 4096) while a cut point or the verdict is
//! unresolved. DP-SE takes `--epoch-length R_1,R_2,…` (its printed lengths
//! end no epoch within small horizons: then the check is trivial and says so).

use super::{
    bound_decimal, digits_certain_of, given, parse_count, parse_horizon, ratio_decimal,
    ratio_interval, sequence_text,
};
use super::{report, vectors_json, Args};
use crate::bandit::dp_se_law::DpSeParams;
use crate::bandit::law::LazyUcbParams;
use crate::bandit::privacy::{check_certified, Outcome, PullLaw};
use crate::bandit::BanditId;
use crate::error::{Error, Result};
use crate::num::{parse_rational, parse_rational_list, Certified, Q};
use crate::privacy::{decide, Problem, Ratio, Verdict};
use crate::proofs::bandit_privacy::ratio_of;
use serde_json::{json, Value};
use std::fmt::Write;

/// Why Anytime-Lazy-UCB's laws are certified, not exact.
const WHY_NOT_EXACT: &str = "the thresholds √(3 ln t/O) + 3 ln t/(εO) of line 4 are transcendental";

/// Why DP-SE's laws are certified, not exact.
const WHY_NOT_EXACT_DP_SE: &str =
    "the elimination radius 2c_e = 2√(ln(16e²/β)/(2R_e)) + 2 ln(8e²/β)/(εR_e) is transcendental";

/// Run the bandit check for `id` (the caller has seen a bandit id).
pub(super) fn run(args: &Args, id: BanditId) -> Result<String> {
    if matches!(id, BanditId::LazyDpTs | BanditId::HybridUcb) {
        return super::statistical::run(args, id);
    }
    if !matches!(id, BanditId::AnytimeLazyUcb | BanditId::DpSe) {
        return Err(Error::InvalidInput(format!(
            "the exact privacy check of bandit algorithms covers anytime-lazy-ucb and dp-se only, not {id}"
        )));
    }
    for (flag, given) in [
        ("--resample", args.resample.is_some()),
        ("--noise", args.noise.is_some()),
        ("--shard", args.shard.is_some()),
        (
            "--epoch-length",
            args.epoch_length.is_some() && id != BanditId::DpSe,
        ),
    ] {
        if given {
            return Err(Error::InvalidInput(format!(
                "{flag} does not apply to {id} (Laplace noise, one run)"
            )));
        }
    }
    let actions = parse_count("--actions", given(&args.actions, "--actions")?)?;
    if actions != 2 {
        return Err(Error::InvalidInput(format!(
            "the law of {id}'s pulls is implemented for K = 2 arms, got --actions {actions}"
        )));
    }
    let horizon = parse_horizon(given(&args.horizon, "--horizon")?)?;
    let epsilon = parse_rational(given(&args.epsilon, "--epsilon")?)?;
    let problem = Problem::new(
        horizon,
        parse_rational_list(given(&args.alphabet, "--alphabet")?)?,
        epsilon.clone(),
    )?;
    let scale = args
        .noise_scale
        .as_deref()
        .map(parse_rational)
        .transpose()?;
    if id == BanditId::DpSe {
        let mut params = DpSeParams::printed(epsilon.clone(), horizon)?;
        if let Some(s) = scale {
            params.scale = s;
        }
        if let Some(text) = args.epoch_length.as_deref() {
            params.lengths = parse_lengths(text)?;
            params.printed_lengths = false;
        }
        params.validate()?;
        let scheme = Scheme {
            id,
            scale: params.scale.clone(),
            why_not_exact: WHY_NOT_EXACT_DP_SE,
            note: dp_se_note(&params, horizon),
            extra: json!({
                "epoch_lengths": params.lengths.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "epoch_lengths_printed": params.printed_lengths,
                "noise_consulted": params.noise_consulted(horizon),
            }),
        };
        return scheme.check(args, &params, &problem);
    }
    let mut params = LazyUcbParams::printed(epsilon.clone());
    if let Some(s) = scale {
        params.scale = s;
    }
    params.validate()?;
    let scheme = Scheme {
        id,
        scale: params.scale.clone(),
        why_not_exact: WHY_NOT_EXACT,
        note: None,
        extra: json!({}),
    };
    scheme.check(args, &params, &problem)
}

/// `--epoch-length`: positive integers, comma-separated.
fn parse_lengths(text: &str) -> Result<Vec<u64>> {
    text.split(',')
        .map(|r| match r.trim().parse::<u64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(Error::Parse(format!(
                "--epoch-length expects positive integers R_1,R_2,… (the last repeats), got '{text}'"
            ))),
        })
        .collect()
}

/// What DP-SE's output says about its schedule.
fn dp_se_note(params: &DpSeParams, horizon: usize) -> Option<String> {
    let which = if params.printed_lengths {
        "printed"
    } else {
        "given"
    };
    let shown: Vec<String> = params
        .lengths
        .iter()
        .take(4)
        .map(ToString::to_string)
        .collect();
    let lengths = format!("{which} epoch lengths R_e = {}", shown.join(", "));
    Some(if params.noise_consulted(horizon) {
        format!("{lengths}: epochs end within the horizon, the noise is exercised")
    } else {
        format!(
            "{lengths}: the first epoch ends at round 2R_1 = {} > T = {horizon}, so no noise is ever consulted and every pull sequence is deterministic: the check is trivial (ratio 1); --epoch-length exercises the noise",
            2 * params.length(1)
        )
    })
}

/// One algorithm's way through the check and its report.
struct Scheme {
    id: BanditId,
    scale: Q,
    why_not_exact: &'static str,
    note: Option<String>,
    /// Keys added to the JSON object.
    extra: Value,
}

impl Scheme {
    fn check(&self, args: &Args, law: &impl PullLaw, problem: &Problem) -> Result<String> {
        let epsilon = &problem.epsilon;
        let pool = super::thread_pool(args.threads.as_deref())?;
        let (outcome, precision) = pool.install(|| {
            check_certified(
                law,
                problem.horizon,
                &problem.alphabet,
                args.force,
                |o, p| Ok(decide(&ratio_of(&o.max_ratio), epsilon, p.0)?.0 != Verdict::Undecided),
            )
        })?;
        let bits = precision.0;
        let (verdict, bound) = decide(&ratio_of(&outcome.max_ratio), epsilon, bits)?;
        let shown = Shown {
            scheme: self,
            problem,
            outcome: &outcome,
            verdict,
            bound: &bound,
            bits,
        };
        Ok(if args.json {
            shown.json().to_string()
        } else {
            shown.paragraph()
        })
    }
}

/// What is printed.
struct Shown<'a> {
    scheme: &'a Scheme,
    problem: &'a Problem,
    outcome: &'a Outcome,
    verdict: Verdict,
    bound: &'a Certified,
    bits: u32,
}

impl Shown<'_> {
    fn json(&self) -> Value {
        let (p, o, w) = (self.problem, self.outcome, &self.outcome.witness);
        let max = ratio_of(&o.max_ratio);
        let ratio = ratio_of(&w.ratio);
        let mut out = json!({
            "schema_version": report::SCHEMA_VERSION,
            "algorithm": self.scheme.id.name(),
            "actions": 2,
            // A string of the integer, as in the full-information report.
            "horizon": p.horizon.to_string(),
            "alphabet": p.alphabet.iter().map(report::exact).collect::<Vec<_>>(),
            "epsilon": report::exact(&p.epsilon),
            "noise": "laplace",
            "noise_scale": report::exact(&self.scheme.scale),
            "resample": false,
            "bound": bound_decimal(self.bound),
            "bound_interval": report::interval(self.bound),
            "max_ratio": ratio_decimal(&max),
            "max_ratio_interval": ratio_interval(&max),
            "max_ratio_exact": Value::Null,
            "verdict": self.verdict.name(),
            // Certified laws only: a maximum equal to e^ε is never claimed
            // (it would be undecided), and every observed-reward event is
            // enumerated.
            "attained": false,
            "method": "enumeration",
            "digits_certain": digits_certain_of(&max, self.bound),
            "witness": {
                "losses": vectors_json(&w.rewards),
                "neighbour": vectors_json(&w.neighbour),
                "actions": w.pulls.iter().map(|a| a + 1).collect::<Vec<_>>(),
                "round": w.round,
                "ratio": ratio_decimal(&ratio),
                "ratio_interval": ratio_interval(&ratio),
            },
            "pairs": o.pairs,
            "kind": "certified",
            "precision_bits": self.bits,
            "shard": "1/1",
            "why_not_exact": self.scheme.why_not_exact,
            "merge": Value::Null,
        });
        if let (Some(map), Value::Object(extra)) = (out.as_object_mut(), &self.scheme.extra) {
            map.extend(extra.clone());
            if let Some(note) = &self.scheme.note {
                map.insert("note".into(), note.clone().into());
            }
        }
        out
    }

    fn paragraph(&self) -> String {
        let (p, o, w) = (self.problem, self.outcome, &self.outcome.witness);
        let max = ratio_of(&o.max_ratio);
        let alphabet: Vec<String> = p.alphabet.iter().map(ToString::to_string).collect();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} (Laplace noise, scale {}), K = 2, horizon {}, rewards {{{}}}, ε = {}:",
            self.scheme.id,
            self.scheme.scale,
            p.horizon,
            alphabet.join(", "),
            p.epsilon
        );
        let (verdict, relation) = match self.verdict {
            Verdict::Private => ("PRIVATE", "<="),
            Verdict::Violated => ("VIOLATED", ">"),
            Verdict::Undecided => ("UNDECIDED", "~"),
        };
        let _ = writeln!(
            out,
            "{verdict}: max privacy-loss ratio {} {relation} e^ε = {}",
            ratio_decimal(&max),
            bound_decimal(self.bound)
        );
        if let Ratio::Certified { .. } = max {
            let i = ratio_interval(&max);
            let _ = writeln!(
                out,
                "  max ratio certified at {} bits, in [{}, {}]",
                self.bits,
                i[0].as_str().unwrap_or("?"),
                i[1].as_str().unwrap_or("?")
            );
        }
        let _ = writeln!(
            out,
            "  witness, round {} replaced (rows: arm 1, arm 2):",
            w.round
        );
        let _ = writeln!(out, "    rewards   {}", sequence_text(&w.rewards));
        let _ = writeln!(out, "    neighbour {}", sequence_text(&w.neighbour));
        let pulls: Vec<String> = w.pulls.iter().map(|a| (a + 1).to_string()).collect();
        let _ = writeln!(
            out,
            "    pulls     {}   P(pulls | rewards) / P(pulls | neighbour) = {}",
            pulls.join(" "),
            ratio_decimal(&ratio_of(&w.ratio))
        );
        if let Some(note) = &self.scheme.note {
            let _ = writeln!(out, "  {note}");
        }
        let _ = write!(
            out,
            "  {} ordered neighbour pairs of reward tables covered, certified laws at {} bits ({})",
            o.pairs, self.bits, self.scheme.why_not_exact
        );
        out
    }
}
