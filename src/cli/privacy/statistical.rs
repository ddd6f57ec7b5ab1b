//! `dpdtol privacy --algorithm lazy-dp-ts|hybrid-ucb …`: the **statistical**
//! audit of Lazy-DP-TS and Hybrid-UCB ([`crate::privacy::bandit::statistical`], which
//! says why no certified law is available for Lazy-DP-TS; Hybrid-UCB's is
//! its exact check, the default, and this audit `--method statistical`) under the flags and
//! JSON keys of the other privacy checks, plus `--runs`, `--seed`,
//! `--confidence` and `--bonus` (and Hybrid-UCB's `--tree-scale`). Its
//! numbers are approximate (f64 simulation, Clopper–Pearson bounds) and say
//! so; its verdict is "violated" or "undecided" (no violation detected),
//! never "private".

use super::{given, parse_count, parse_horizon, sequence_text, Args};
use crate::bandit::policy::BanditId;
use crate::error::{Error, Result};
use crate::num::{parse_rational, parse_rational_list, Q};
use crate::privacy::bandit::audit_run::{self, Audit, Given, Scales, DEFAULT_RUNS};
use crate::privacy::bandit::statistical::AuditSetup;
use crate::report::merge::{self, SpotPolicy};
use crate::report::statistical_privacy::{self as report, StatisticalPrivacyReport};
use crate::report::to_json;
use num_traits::ToPrimitive;
use serde_json::Value;
use std::fmt::Write;

/// Whether one of the audit's own flags is given.
pub(super) fn audit_flags_given(args: &Args) -> bool {
    args.runs.is_some()
        || args.seed.is_some()
        || args.confidence.is_some()
        || args.bonus.is_some()
        || args.tree_scale.is_some()
}

/// Whether Hybrid-UCB's statistical audit is asked for rather than its exact
/// check: `--method statistical`, or one of the audit's own flags (`--runs`,
/// `--seed`, `--confidence`) without `--method`.
pub(super) fn chosen(args: &Args) -> Result<bool> {
    let sampling = args.runs.is_some() || args.seed.is_some() || args.confidence.is_some();
    match args.method.as_deref().map(str::trim) {
        None => Ok(sampling),
        Some("statistical") => Ok(true),
        Some("exact") if sampling => Err(Error::InvalidInput(
            "--runs, --seed and --confidence apply to --method statistical, not to hybrid-ucb's exact check".into(),
        )),
        Some("exact") => Ok(false),
        Some(other) => Err(Error::InvalidInput(format!(
            "--method for hybrid-ucb is exact (the default) or statistical, got '{other}'"
        ))),
    }
}

/// [`Scales`] from the flags at `epsilon` ([`Scales::resolve`]).
pub(super) fn scales(args: &Args, epsilon: &Q, id: BanditId) -> Result<Scales> {
    let exact = |text: &Option<String>| text.as_deref().map(parse_rational).transpose();
    Scales::resolve(
        id,
        epsilon,
        exact(&args.noise_scale)?,
        exact(&args.tree_scale)?,
        exact(&args.bonus)?,
        exact(&args.scale_factor)?,
    )
}

/// Run the audit of `id` (Lazy-DP-TS or Hybrid-UCB), or the part
/// `--shard I/N` of its runs.
pub(super) fn run(args: &Args, id: BanditId) -> Result<(String, bool)> {
    for (flag, given) in [
        ("--resample", args.resample.is_some()),
        ("--noise", args.noise.is_some()),
        // Hybrid-UCB's --method was read by [`chosen`].
        (
            "--method",
            args.method.is_some() && id != BanditId::HybridUcb,
        ),
        ("--epoch-length", args.epoch_length.is_some()),
        (
            "--tree-scale",
            args.tree_scale.is_some() && id != BanditId::HybridUcb,
        ),
        (
            "--scale-factor",
            args.scale_factor.is_some() && id != BanditId::HybridUcb,
        ),
    ] {
        if given {
            return Err(Error::InvalidInput(format!(
                "{flag} does not apply to {id} (Laplace noise, a statistical audit)"
            )));
        }
    }
    let actions = parse_count("--actions", given(&args.actions, "--actions")?)?;
    if actions != 2 {
        return Err(Error::InvalidInput(format!(
            "the {id} audit is implemented for K = 2 arms, got --actions {actions}"
        )));
    }
    let horizon = parse_horizon(given(&args.horizon, "--horizon")?)?;
    let epsilon = parse_rational(given(&args.epsilon, "--epsilon")?)?;
    let alphabet = parse_rational_list(given(&args.alphabet, "--alphabet")?)?;
    Audit::default_scale(id, &epsilon)?;
    let scales = scales(args, &epsilon, id)?;
    let runs = match args.runs.as_deref() {
        Some(r) => parse_count("--runs", r)? as u64,
        None => DEFAULT_RUNS,
    };
    let seed = match args.seed.as_deref() {
        Some(s) => s.trim().parse::<u64>().map_err(|_| {
            Error::Parse(format!("--seed expects a non-negative integer, got '{s}'"))
        })?,
        None => 1,
    };
    let confidence = match args.confidence.as_deref() {
        Some(c) => parse_rational(c)?.to_f64().unwrap_or(f64::NAN),
        None => 0.95,
    };
    let audit = Audit::new(
        id,
        Given {
            epsilon,
            alphabet,
            scales,
        },
        AuditSetup {
            horizon,
            alphabet: Vec::new(),
            runs,
            seed,
            confidence,
            force: args.force,
        },
    )?;
    let shard = super::shard_flag(args)?;
    let pool = super::thread_pool(args.threads.as_deref())?;
    let run = audit.run(shard, &pool)?;
    Ok(rendered(&StatisticalPrivacyReport::new(&run), args.json))
}

/// The report as JSON or a paragraph, and whether it shows a violation (a
/// lower confidence bound on ε above ε).
fn rendered(r: &StatisticalPrivacyReport, json: bool) -> (String, bool) {
    let text = if json { to_json(r) } else { paragraph(r) };
    (text, r.verdict == crate::privacy::Verdict::Violated)
}

/// An f64 written by the report, read back (the same double: 40 digits of
/// its exact value).
fn float(d: &crate::report::Decimal) -> f64 {
    d.0.parse().unwrap_or(f64::NAN)
}

fn paragraph(r: &StatisticalPrivacyReport) -> String {
    let alphabet: Vec<&str> = r.alphabet.iter().map(|a| a.0.as_str()).collect();
    let mut out = String::new();
    let scales = match &r.tree_scale {
        Some(tree) => format!(
            "array scale {}, tree scale {tree} per level, inferred algorithm",
            r.noise_scale
        ),
        None => format!("scale {}", r.noise_scale),
    };
    let _ = writeln!(
        out,
        "{} (Laplace noise, {scales}, bonus {}), K = 2, horizon {}, rewards {{{}}}, ε = {}: STATISTICAL AUDIT (approximate)",
        r.algorithm,
        r.bonus,
        r.horizon,
        alphabet.join(", "),
        r.epsilon
    );
    let Some(w) = &r.witness else {
        let runs: u64 = r
            .merge
            .counts
            .iter()
            .map(|[selection, test]| selection.iter().chain(test).sum::<u64>())
            .sum();
        let _ = write!(
            out,
            "SHARD {}: {runs} runs of tables {}..{} of {} simulated ({} runs per table, seed {}); counts only: the audit is made by --merge of the --json outputs of all {} shards",
            r.shard,
            r.merge.first_table,
            r.merge.first_table + r.merge.counts.len() as u64,
            r.tables,
            r.runs_per_table,
            r.seed,
            r.shard.parse::<crate::privacy::Shard>().map_or(0, |s| s.count)
        );
        return out;
    };
    let lower = float(&r.epsilon_lower);
    let _ = writeln!(
        out,
        "{}: ε_actual ≥ {:.4} (ratio ≥ {:.4}) vs ε = {} (e^ε = {})",
        r.verdict_text.to_uppercase(),
        lower,
        lower.exp(),
        r.epsilon,
        r.bound
    );
    let _ = writeln!(
        out,
        "  most discriminating pair (round {} replaced; rows (arm 1, arm 2)):",
        w.round
    );
    let _ = writeln!(out, "    rewards   {}", sequence_text(&w.losses));
    let _ = writeln!(out, "    neighbour {}", sequence_text(&w.neighbour));
    let seqs: Vec<String> = w
        .event
        .iter()
        .map(|s| s.iter().map(ToString::to_string).collect::<String>())
        .collect();
    let test = w.test_runs;
    let _ = writeln!(
        out,
        "    event: pulls in {{{}}}; test counts {}/{test} vs {}/{test}, estimated ratio {:.4} (biased upward: the largest of the pairs' estimates)",
        seqs.join(", "),
        w.counts[0],
        w.counts[1],
        float(&w.ratio_estimate)
    );
    let _ = write!(
        out,
        "  {} ordered pairs of {} tables, {} runs per table (seed {}); each Clopper–Pearson bound one-sided at {:.3e} (Bonferroni); not a proof of privacy",
        r.pairs, r.tables, r.runs_per_table, r.seed, r.level_per_bound
    );
    if let Some(spot) = &r.spot_check {
        let _ = write!(out, "\n  {}", spot.line());
    }
    out
}

/// Whether a merge input is a report of this module's audits.
pub(super) fn is_report(v: &Value) -> bool {
    report::is_report(v)
}

/// `--merge` of the shards of one statistical audit (`inputs`: each file's
/// name and its parsed JSON): each is accepted through the merge contract
/// ([`merge::accept`]: its audit rebuilt and checked as the command line's
/// is, its counts those of its own tables), then the counts are summed and
/// analysed once ([`audit_run::merge`]): what the whole run prints, and
/// what was re-verified by simulating a sample of the shards' tables again
/// ([`merge::spot_check`]).
pub(super) fn merge(
    inputs: &[(String, Value)],
    policy: SpotPolicy,
    as_json: bool,
) -> Result<(String, bool)> {
    let parts = inputs
        .iter()
        .map(|(name, v)| {
            if !is_report(v) {
                return Err(Error::InvalidInput(format!(
                    "{name} is not the report of a lazy-dp-ts or hybrid-ucb audit, as the other inputs are"
                )));
            }
            Ok((name.clone(), merge::accept::<StatisticalPrivacyReport>(name, v)?))
        })
        .collect::<Result<Vec<_>>>()?;
    let spot_check = merge::spot_check(&parts, policy)?;
    let merged = audit_run::merge(parts)?;
    let report = StatisticalPrivacyReport {
        spot_check: Some(spot_check),
        ..StatisticalPrivacyReport::new(&merged)
    };
    Ok(rendered(&report, as_json))
}
