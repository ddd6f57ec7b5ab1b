//! `dpdtol privacy --algorithm anytime-lazy-ucb|dp-se|hybrid-ucb …`: the exhaustive
//! check of a bandit algorithm ([`crate::privacy::bandit::exact`]) under the flags
//! and JSON keys of the full-information check. `--actions` is K (2 for
//! DP-SE; any K ≥ 2 up to T for Anytime-Lazy-UCB: the tree of windows at
//! K = 2, [`crate::bandit::law::anytime_lazy_ucb`], the polyhedra of
//! [`crate::bandit::law::anytime_lazy_ucb_arms`] at K ≥ 3),
//! `--horizon` T, `--alphabet` the reward values; a neighbour replaces one
//! round's reward vector. The laws are certified: the check runs at 128 bits
//! and doubles the precision (to 4096) while a cut point or the verdict is
//! unresolved. DP-SE takes `--epoch-length R_1,R_2,…` (its printed lengths
//! end no epoch within small horizons: then the check is trivial and says so).
//! Hybrid-UCB (as inferred) takes `--tree-scale`, `--scale-factor` and
//! `--bonus`; `--method statistical` (or the audit's own flags) sends it to
//! the statistical audit instead ([`super::statistical`]).
//!
//! `--shard I/N` checks part `I` of `N` of the numerator laws `P(a|y)` (pull
//! sequence `a`, seen rewards `y`, in the order of
//! [`crate::privacy::bandit::exact::Position`]), each against all its neighbours;
//! `--merge` reads the shards' `--json` outputs back as untrusted input
//! ([`merge`]) and prints what the whole run prints.

use super::{
    bound_decimal, digits_certain_of, field, given, number, parse_count, parse_horizon,
    ratio_decimal, ratio_from_json, ratio_interval, sequence_text,
};
use super::{ratio_exact_json, report, vectors_json, Args};
use crate::bandit::law::anytime_lazy_ucb::LazyUcbParams;
use crate::bandit::law::anytime_lazy_ucb_arms::LazyUcbArms;
use crate::bandit::law::dp_se::DpSeParams;
use crate::bandit::law::hybrid_ucb::HybridLawParams;
use crate::bandit::law::PullLaw;
use crate::bandit::policy::BanditId;
use crate::cli::args::parse_lengths;
use crate::error::{Error, Result};
use crate::num::{parse_rational, parse_rational_list, Certified, Precision, Q};
use crate::privacy::bandit::exact::{
    check_certified_part, laws_needed, merge as merge_parts, table_pairs, witness_at, Outcome,
    PRECISIONS,
};
use crate::privacy::{decide, Problem, Ratio, Shard, Verdict};
use crate::proofs::bandit_privacy::ratio_of;
use serde_json::{json, Value};
use std::fmt::Write;

/// Why Anytime-Lazy-UCB's laws are certified, not exact.
const WHY_NOT_EXACT: &str = "the thresholds √(3 ln t/O) + 3 ln t/(εO) of line 4 are transcendental";

/// Why Hybrid-UCB's laws are certified, not exact.
const WHY_NOT_EXACT_HYBRID: &str =
    "the thresholds √(3 ln t/n) + 3 ln t·B(n)/n of index (35) are transcendental";

/// Why DP-SE's laws are certified, not exact.
const WHY_NOT_EXACT_DP_SE: &str =
    "the elimination radius 2c_e = 2√(ln(16e²/β)/(2R_e)) + 2 ln(8e²/β)/(εR_e) is transcendental";

/// Run the bandit check for `id` (the caller has seen a bandit id).
pub(super) fn run(args: &Args, id: BanditId) -> Result<(String, bool)> {
    if id == BanditId::LazyDpTs || (id == BanditId::HybridUcb && super::statistical::chosen(args)?)
    {
        return super::statistical::run(args, id);
    }
    exact_check_of(id)?;
    let hybrid = id == BanditId::HybridUcb;
    for (flag, given) in [
        ("--resample", args.resample.is_some()),
        ("--noise", args.noise.is_some()),
        (
            "--epoch-length",
            args.epoch_length.is_some() && id != BanditId::DpSe,
        ),
        // Hybrid-UCB's --method was read by `chosen`.
        ("--method", args.method.is_some() && !hybrid),
        ("--tree-scale", args.tree_scale.is_some() && !hybrid),
        ("--scale-factor", args.scale_factor.is_some() && !hybrid),
    ] {
        if given {
            return Err(Error::InvalidInput(format!(
                "{flag} does not apply to {id} (Laplace noise, one run)"
            )));
        }
    }
    let actions = parse_count("--actions", given(&args.actions, "--actions")?)?;
    let horizon = parse_horizon(given(&args.horizon, "--horizon")?)?;
    let epsilon = parse_rational(given(&args.epsilon, "--epsilon")?)?;
    let problem = Problem::new(
        horizon,
        parse_rational_list(given(&args.alphabet, "--alphabet")?)?,
        epsilon,
    )?;
    let (scale, hybrid_scales) = if hybrid {
        let s = super::statistical::scales(args, &problem.epsilon, id)?;
        (Some(s.scale), Some((s.tree_scale, s.bonus)))
    } else {
        let scale = args
            .noise_scale
            .as_deref()
            .map(parse_rational)
            .transpose()?;
        (scale, None)
    };
    let setup = Setup {
        id,
        actions,
        problem,
        scale,
        hybrid: hybrid_scales,
        lengths: args
            .epoch_length
            .as_deref()
            .map(parse_lengths)
            .transpose()?,
    };
    let shard = super::shard_flag(args)?;
    let pool = super::thread_pool(args.threads.as_deref())?;
    let law = setup.law()?;
    let shown = pool.install(|| setup.check(&law, shard, args.force))?;
    Ok(shown.rendered(args.json))
}

/// An error unless `id` has an exact (certified) check.
fn exact_check_of(id: BanditId) -> Result<()> {
    if matches!(
        id,
        BanditId::AnytimeLazyUcb | BanditId::DpSe | BanditId::HybridUcb
    ) {
        Ok(())
    } else {
        Err(Error::InvalidInput(format!(
            "the exact privacy check of bandit algorithms covers anytime-lazy-ucb, dp-se and hybrid-ucb only, not {id}"
        )))
    }
}

/// What a check is of: the algorithm, the problem and the overrides of the
/// printed parameters (`--noise-scale`, `--epoch-length`; Hybrid-UCB's tree
/// scale and bonus, resolved).
#[derive(Debug, PartialEq, Eq)]
struct Setup {
    id: BanditId,
    /// K.
    actions: usize,
    problem: Problem,
    scale: Option<Q>,
    hybrid: Option<(Q, Q)>,
    lengths: Option<Vec<u64>>,
}

/// `$body` with `$l` bound to the parameters of a [`Law`], whichever it is.
macro_rules! on_law {
    ($law:expr, $l:ident => $body:expr) => {
        match $law {
            Law::LazyUcb($l) => $body,
            Law::LazyUcbArms($l) => $body,
            Law::Hybrid($l) => $body,
            Law::DpSe(boxed) => {
                let $l = &**boxed;
                $body
            }
        }
    };
}

/// The law of an algorithm with an exact check, its parameters built.
enum Law {
    LazyUcb(LazyUcbParams),
    LazyUcbArms(LazyUcbArms),
    Hybrid(HybridLawParams),
    DpSe(Box<DpSeParams>),
}

impl Setup {
    /// The parameters: printed, then overridden; an error for a K the law
    /// does not cover (DP-SE, Hybrid-UCB: K = 2; Anytime-Lazy-UCB:
    /// `2 ≤ K ≤ T`, line 2 pulling each arm once).
    fn law(&self) -> Result<Law> {
        let epsilon = self.problem.epsilon.clone();
        let (k, horizon) = (self.actions, self.problem.horizon);
        if self.id != BanditId::AnytimeLazyUcb && k != 2 {
            return Err(Error::InvalidInput(format!(
                "the law of {}'s pulls is implemented for K = 2 arms, got --actions {k}",
                self.id
            )));
        }
        if !(2..=horizon.max(2)).contains(&k) {
            return Err(Error::InvalidInput(format!(
                "--actions must be at least 2 and at most --horizon {horizon} (line 2 pulls each arm once), got {k}"
            )));
        }
        if self.id == BanditId::DpSe {
            let mut params = DpSeParams::printed(epsilon, self.problem.horizon)?;
            if let Some(s) = &self.scale {
                params.scale = s.clone();
            }
            if let Some(lengths) = &self.lengths {
                params.lengths = lengths.clone();
                params.printed_lengths = false;
            }
            params.validate()?;
            return Ok(Law::DpSe(Box::new(params)));
        }
        if let Some((tree_scale, bonus)) = &self.hybrid {
            let mut params = HybridLawParams {
                tree_scale: tree_scale.clone(),
                bonus: bonus.clone(),
                ..HybridLawParams::inferred(epsilon)
            };
            if let Some(s) = &self.scale {
                params.array_scale = s.clone();
            }
            params.validate()?;
            return Ok(Law::Hybrid(params));
        }
        let mut params = LazyUcbParams::printed(epsilon);
        if let Some(s) = &self.scale {
            params.scale = s.clone();
        }
        params.validate()?;
        if k > 2 {
            return Ok(Law::LazyUcbArms(LazyUcbArms { params, arms: k }));
        }
        Ok(Law::LazyUcb(params))
    }

    /// How the output names the law and what it adds.
    fn scheme(&self, law: &Law) -> Scheme {
        let horizon = self.problem.horizon;
        match law {
            Law::DpSe(params) => Scheme {
                id: self.id,
                actions: self.actions,
                scale: params.scale.clone(),
                why_not_exact: WHY_NOT_EXACT_DP_SE,
                note: dp_se_note(params, horizon),
                extra: json!({
                    "epoch_lengths": params.lengths.iter().map(ToString::to_string).collect::<Vec<_>>(),
                    "epoch_lengths_printed": params.printed_lengths,
                    "noise_consulted": params.noise_consulted(horizon),
                }),
            },
            Law::LazyUcb(params) | Law::LazyUcbArms(LazyUcbArms { params, .. }) => Scheme {
                id: self.id,
                actions: self.actions,
                scale: params.scale.clone(),
                why_not_exact: WHY_NOT_EXACT,
                note: None,
                extra: json!({}),
            },
            Law::Hybrid(params) => Scheme {
                id: self.id,
                actions: self.actions,
                scale: params.array_scale.clone(),
                why_not_exact: WHY_NOT_EXACT_HYBRID,
                note: Some(format!(
                    "the algorithm is the one inferred in src/bandit/policy/hybrid_ucb.rs (002 lost its formulas): array blocks with Lap({}), tree p-sums with Lap((m+1)·{}), index bonus {}",
                    params.array_scale, params.tree_scale, params.bonus
                )),
                extra: json!({
                    "tree_scale": report::exact(&params.tree_scale),
                    "bonus": report::exact(&params.bonus),
                    "algorithm_inferred": true,
                }),
            },
        }
    }

    /// The numerator laws of `shard`.
    fn part(&self, law: &impl PullLaw, shard: Shard) -> Result<std::ops::Range<u64>> {
        let p = &self.problem;
        let all = laws_needed(law, p.horizon, p.alphabet.len()).ok_or_else(|| {
            Error::TooLarge(format!(
                "horizon {} on {} reward values has over 2^64 pull-sequence laws",
                p.horizon,
                p.alphabet.len()
            ))
        })?;
        shard.range_of(all, "pull-sequence laws")
    }

    /// The check of `shard`, certified, at the precision that decides it.
    fn check(&self, law: &Law, shard: Shard, force: bool) -> Result<Shown> {
        let p = &self.problem;
        let accept = |o: &Outcome, bits: Precision| -> Result<bool> {
            Ok(decide(&ratio_of(&o.max_ratio), &p.epsilon, bits.0)?.0 != Verdict::Undecided)
        };
        let (outcome, precision) = on_law!(law, l => {
            let part = self.part(l, shard)?;
            check_certified_part(l, p.horizon, &p.alphabet, Some(part), force, accept)?
        });
        self.shown(law, outcome, shard, precision.0)
    }

    /// What is printed of `outcome`, the verdict decided at `bits`.
    fn shown(&self, law: &Law, outcome: Outcome, shard: Shard, bits: u32) -> Result<Shown> {
        let (verdict, bound) = decide(&ratio_of(&outcome.max_ratio), &self.problem.epsilon, bits)?;
        Ok(Shown {
            scheme: self.scheme(law),
            problem: self.problem.clone(),
            outcome,
            shard,
            verdict,
            bound,
            bits,
        })
    }
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
    /// K.
    actions: usize,
    scale: Q,
    why_not_exact: &'static str,
    note: Option<String>,
    /// Keys added to the JSON object.
    extra: Value,
}

/// What is printed.
struct Shown {
    scheme: Scheme,
    problem: Problem,
    outcome: Outcome,
    shard: Shard,
    verdict: Verdict,
    bound: Certified,
    bits: u32,
}

impl Shown {
    /// The report as JSON or a paragraph, and whether it is violated.
    fn rendered(&self, json: bool) -> (String, bool) {
        let text = if json {
            self.json().to_string()
        } else {
            self.paragraph()
        };
        (text, self.verdict == Verdict::Violated)
    }

    fn json(&self) -> Value {
        let (p, o, w) = (&self.problem, &self.outcome, &self.outcome.witness);
        let max = ratio_of(&o.max_ratio);
        let ratio = ratio_of(&w.ratio);
        let whole = self.shard == Shard::WHOLE;
        let mut out = json!({
            "schema_version": report::SCHEMA_VERSION,
            "algorithm": self.scheme.id.name(),
            "actions": self.scheme.actions,
            // A string of the integer, as in the full-information report.
            "horizon": p.horizon.to_string(),
            "alphabet": p.alphabet.iter().map(report::exact).collect::<Vec<_>>(),
            "epsilon": report::exact(&p.epsilon),
            "noise": "laplace",
            "noise_scale": report::exact(&self.scheme.scale),
            "resample": false,
            "bound": bound_decimal(&self.bound),
            "bound_interval": report::interval(&self.bound),
            "max_ratio": ratio_decimal(&max),
            "max_ratio_interval": ratio_interval(&max),
            "max_ratio_exact": Value::Null,
            "verdict": self.verdict.name(),
            // Certified laws only: a maximum equal to e^ε is never claimed
            // (it would be undecided), and every observed-reward event is
            // enumerated.
            "attained": false,
            "method": "enumeration",
            "digits_certain": digits_certain_of(&max, &self.bound),
            "witness": {
                "losses": vectors_json(&w.rewards),
                "neighbour": vectors_json(&w.neighbour),
                "actions": w.pulls.iter().map(|a| a + 1).collect::<Vec<_>>(),
                "round": w.round,
                "ratio": ratio_decimal(&ratio),
                "ratio_interval": ratio_interval(&ratio),
            },
            // The ordered pairs of reward tables: covered by the whole run
            // only (a shard covers quotients, not a set of table pairs).
            "pairs": if whole { json!(o.pairs) } else { Value::Null },
            "quotients": o.quotients,
            "kind": "certified",
            "precision_bits": self.bits,
            "shard": self.shard.to_string(),
            "why_not_exact": self.scheme.why_not_exact,
            // What --merge reads back: the exact enclosures and where the
            // maximum is attained (the law's index and the replacing value's).
            "merge": {
                "max_ratio": ratio_exact_json(&max),
                "witness_ratio": ratio_exact_json(&ratio),
                "law": o.position.0,
                "replacement": o.position.2,
            },
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
        let (p, o, w) = (&self.problem, &self.outcome, &self.outcome.witness);
        let max = ratio_of(&o.max_ratio);
        let alphabet: Vec<String> = p.alphabet.iter().map(ToString::to_string).collect();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} (Laplace noise, scale {}), K = {}, horizon {}, rewards {{{}}}, ε = {}{}:",
            self.scheme.id,
            self.scheme.scale,
            self.scheme.actions,
            p.horizon,
            alphabet.join(", "),
            p.epsilon,
            if self.shard == Shard::WHOLE {
                String::new()
            } else {
                format!(", shard {}", self.shard)
            }
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
            bound_decimal(&self.bound)
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
        if o.is_empty() {
            let _ = writeln!(
                out,
                "  no pull sequence of this shard's laws has positive probability: nothing to compare"
            );
        } else {
            let arms: Vec<String> = (1..=self.scheme.actions)
                .map(|j| format!("arm {j}"))
                .collect();
            let _ = writeln!(
                out,
                "  witness, round {} replaced (rows: {}):",
                w.round,
                arms.join(", ")
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
        }
        if let Some(note) = &self.scheme.note {
            let _ = writeln!(out, "  {note}");
        }
        let covered = if self.shard == Shard::WHOLE {
            format!(
                "{} ordered neighbour pairs of reward tables covered",
                o.pairs
            )
        } else {
            format!(
                "{} quotients P(pulls|seen)/P(pulls|seen') of shard {} checked (the merged shards cover {} ordered neighbour pairs of reward tables)",
                o.quotients, self.shard, o.pairs
            )
        };
        let _ = write!(
            out,
            "  {covered}, certified laws at {} bits ({})",
            self.bits, self.scheme.why_not_exact
        );
        out
    }
}

/// Whether a merge input is a report of this module's check (its
/// `algorithm` names anytime-lazy-ucb, dp-se or hybrid-ucb, and it is
/// certified: hybrid-ucb's statistical audit is not this check).
pub(super) fn is_report(v: &Value) -> bool {
    v.get("algorithm")
        .and_then(Value::as_str)
        .and_then(|a| a.parse::<BanditId>().ok())
        .is_some_and(|id| exact_check_of(id).is_ok())
        && v.get("kind").and_then(Value::as_str) == Some("certified")
}

/// `--merge` of the shards of one bandit check (`inputs`: each file's name
/// and its parsed JSON): each report is checked ([`read_report`]) before the
/// merge; the output is what the whole run prints when every shard settled
/// at the precision the whole run settles at (the merge decides at the
/// largest precision of its shards).
pub(super) fn merge(inputs: &[(String, Value)], as_json: bool) -> Result<(String, bool)> {
    let mut first: Option<(Setup, Law)> = None;
    let mut parts = Vec::with_capacity(inputs.len());
    for (name, v) in inputs {
        let in_file = super::in_file(name);
        if !is_report(v) {
            return Err(Error::InvalidInput(format!(
                "{name} is not the report of an exact anytime-lazy-ucb, dp-se or hybrid-ucb check, as the other inputs are"
            )));
        }
        let (setup, law, part) = read_report(v).map_err(in_file)?;
        match &first {
            Some((s, _)) if *s != setup => {
                return Err(Error::InvalidInput(format!(
                    "{name} checks another problem or other parameters than {} (algorithm, arms, horizon, alphabet, ε, noise scale, epoch lengths, tree scale, bonus)",
                    inputs[0].0
                )));
            }
            Some(_) => {}
            None => first = Some((setup, law)),
        }
        parts.push(part);
    }
    let (setup, law) = first.ok_or_else(|| Error::InvalidInput("nothing to merge".into()))?;
    Shard::check_coverage(parts.iter().map(|p| p.shard))?;
    let bits = parts.iter().map(|p| p.bits).max().unwrap_or(PRECISIONS.0);
    let outcomes: Vec<Outcome> = parts.into_iter().map(|p| p.outcome).collect();
    let shown = setup.shown(&law, merge_parts(&outcomes)?, Shard::WHOLE, bits)?;
    Ok(shown.rendered(as_json))
}

/// One shard's report, read back.
struct Part {
    shard: Shard,
    bits: u32,
    outcome: Outcome,
}

/// A shard's `--json` report read back as untrusted input: the problem and
/// parameters it names are rebuilt, its shard's numerator laws counted, its
/// witness position checked to lie in them and the witness **evaluated
/// again** from the laws at the report's precision (the numerator must be
/// positive, the maximum's lower end the witness's); then the report is
/// printed again from these data and must be the input, key for key (the
/// first key that differs is named). A shard that under-reports its maximum
/// is only caught by running it again; a forged witness always is.
fn read_report(v: &Value) -> Result<(Setup, Law, Part)> {
    let text = |key: &str| v.get(key).and_then(Value::as_str).ok_or_else(|| field(key));
    let (id, actions, horizon, alphabet) = super::bandit_fields_arms(v)?;
    let problem = Problem::new(horizon, alphabet, number("epsilon", v.get("epsilon"))?)?;
    let lengths = match v.get("epoch_lengths_printed") {
        None if id != BanditId::DpSe => None,
        Some(Value::Bool(true)) if id == BanditId::DpSe => None,
        Some(Value::Bool(false)) if id == BanditId::DpSe => Some(
            v.get("epoch_lengths")
                .and_then(Value::as_array)
                .ok_or_else(|| field("epoch_lengths"))?
                .iter()
                .map(|r| {
                    r.as_str()
                        .and_then(|r| r.parse::<u64>().ok())
                        .filter(|&r| r > 0)
                        .ok_or_else(|| field("epoch_lengths"))
                })
                .collect::<Result<Vec<u64>>>()?,
        ),
        _ => return Err(field("epoch_lengths_printed")),
    };
    let hybrid = if id == BanditId::HybridUcb {
        Some((
            number("tree_scale", v.get("tree_scale"))?,
            number("bonus", v.get("bonus"))?,
        ))
    } else {
        None
    };
    let setup = Setup {
        id,
        actions,
        problem,
        scale: Some(number("noise_scale", v.get("noise_scale"))?),
        hybrid,
        lengths,
    };
    let shard: Shard = text("shard")?.parse().map_err(|_| field("shard"))?;
    let bits = v
        .get("precision_bits")
        .and_then(Value::as_u64)
        .and_then(|b| u32::try_from(b).ok())
        .filter(|&b| (PRECISIONS.0..=PRECISIONS.1).contains(&b) && (b / PRECISIONS.0).is_power_of_two() && b % PRECISIONS.0 == 0)
        .ok_or_else(|| {
            Error::InvalidInput(format!(
                "field 'precision_bits' is not one of the check's precisions ({} doubled up to {} bits)",
                PRECISIONS.0, PRECISIONS.1
            ))
        })?;
    let merge = v.get("merge").ok_or_else(|| field("merge"))?;
    let enclosure = |name: &str| -> Result<Option<(Q, Q)>> {
        Ok(match ratio_from_json(name, merge.get(&name[6..]))? {
            Ratio::Infinite => None,
            Ratio::Exact(q) => Some((q.clone(), q)),
            Ratio::Certified { lo, hi } => Some((lo, hi)),
        })
    };
    let max_ratio = enclosure("merge.max_ratio")?;
    let claimed = enclosure("merge.witness_ratio")?;
    let index = |key: &str| {
        merge
            .get(key)
            .and_then(Value::as_u64)
            .ok_or_else(|| field(&format!("merge.{key}")))
    };
    let round = v
        .get("witness")
        .and_then(|w| w.get("round"))
        .and_then(Value::as_u64)
        .and_then(|r| usize::try_from(r).ok())
        .ok_or_else(|| field("witness.round"))?;
    let replacement =
        usize::try_from(index("replacement")?).map_err(|_| field("merge.replacement"))?;
    let law = setup.law()?;
    let p = &setup.problem;
    let quotients = |part: &std::ops::Range<u64>| {
        (part.end - part.start)
            .saturating_mul(p.horizon as u64)
            .saturating_mul(p.alphabet.len() as u64 - 1)
    };
    let pairs = table_pairs(p.horizon, p.alphabet.len(), setup.actions);
    if round == 0 {
        // A shard without a positive numerator law (`Outcome::empty`): what
        // it says is printed again below and compared.
        let part = on_law!(&law, l => setup.part(l, shard)?);
        let outcome = Outcome::empty(part.start, pairs, quotients(&part));
        return finish(v, setup, law, shard, bits, outcome);
    }
    let position = (index("law")?, round - 1, replacement);
    let (part, (witness, positive)) = on_law!(&law, l => {
        let part = setup.part(l, shard)?;
        if !part.contains(&position.0) {
            return Err(Error::InvalidInput(format!(
                "the witness's law {} is not in shard {shard}, laws {}..{}",
                position.0, part.start, part.end
            )));
        }
        (part, witness_at::<Certified>(l, p.horizon, &p.alphabet, position, &Precision(bits))?)
    });
    if !positive {
        return Err(Error::InvalidInput(
            "the witness's pulls have probability 0 on its reward table".into(),
        ));
    }
    let consistent = match (&max_ratio, &witness.ratio, &claimed) {
        (None, None, None) => true,
        (Some((lo, hi)), Some((wlo, whi)), Some(c)) => {
            lo == wlo && hi >= whi && c == &(wlo.clone(), whi.clone())
        }
        _ => false,
    };
    if !consistent {
        return Err(Error::InvalidInput(
            "the witness's ratio, evaluated again, is not the one claimed, or the maximum does not start at it".into(),
        ));
    }
    let outcome = Outcome {
        max_ratio,
        witness,
        pairs,
        position,
        quotients: quotients(&part),
    };
    finish(v, setup, law, shard, bits, outcome)
}

/// The end of [`read_report`]: print the report again from `outcome` and
/// compare it with the input `v`, key for key.
fn finish(
    v: &Value,
    setup: Setup,
    law: Law,
    shard: Shard,
    bits: u32,
    outcome: Outcome,
) -> Result<(Setup, Law, Part)> {
    let shown = setup.shown(&law, outcome, shard, bits)?;
    super::same_report(&shown.json(), v)?;
    let Shown { outcome, .. } = shown;
    Ok((
        setup,
        law,
        Part {
            shard,
            bits,
            outcome,
        },
    ))
}
