//! `dpdtol privacy --algorithm lazy-dp-ts|dp-ts|hybrid-ucb …`: the **statistical**
//! audit of Lazy-DP-TS, DP-TS and Hybrid-UCB ([`crate::privacy::bandit::statistical`], which
//! says why no certified law is available for Lazy-DP-TS and DP-TS; Hybrid-UCB's is
//! its exact check, the default, and this audit `--method statistical`) under the flags and
//! JSON keys of the other privacy checks, plus `--runs`, `--seed`,
//! `--confidence` and `--bonus` (and Hybrid-UCB's and DP-TS's `--tree-scale` and `--scale-factor`). Its
//! numbers are approximate (f64 simulation, Clopper–Pearson bounds) and say
//! so; its verdict is "violated" or "undecided" (no violation detected),
//! never "private".

use super::{given, parse_count, parse_horizon, Args};
use crate::bandit::law::dp_se::DpSeVariant;
use crate::bandit::law::params::Overrides;
use crate::bandit::policy::dp_ts::BonusRound;
use crate::bandit::policy::{BanditId, Named};
use crate::cli::args::{parse_lengths, parse_tree_depth};
use crate::error::{Error, Result};
use crate::num::{parse_rational, parse_rational_list};
use crate::privacy::bandit::audit_run::{self, Audit, DEFAULT_RUNS};
use crate::privacy::bandit::statistical::AuditSetup;
use crate::report::merge::{self, SpotPolicy};
use crate::report::rendered;
use crate::report::statistical_privacy::StatisticalPrivacyReport;
use num_traits::ToPrimitive;
use serde_json::Value;

/// Whether `id` is audited by simulation rather than checked exactly
/// ([`audit_run::is_statistical`]).
pub(super) fn chosen(args: &Args, id: BanditId) -> Result<bool> {
    let sampling = args.runs.is_some() || args.seed.is_some() || args.confidence.is_some();
    audit_run::is_statistical(id, args.method.as_deref(), sampling)
}

/// The printed parameters the flags override.
pub(super) fn overrides(args: &Args) -> Result<Overrides> {
    let exact = |text: &Option<String>| text.as_deref().map(parse_rational).transpose();
    Ok(Overrides {
        scale: exact(&args.noise_scale)?,
        tree_scale: exact(&args.tree_scale)?,
        bonus: exact(&args.bonus)?,
        scale_factor: exact(&args.scale_factor)?,
        lengths: args
            .epoch_length
            .as_deref()
            .map(parse_lengths)
            .transpose()?,
        dp_se: DpSeVariant::parse(
            args.beta.as_deref(),
            args.pull_order.as_deref(),
            args.rounding.as_deref(),
            args.radius.as_deref(),
            args.reward_index.as_deref(),
        )?,
        tree_depth: args
            .tree_depth
            .as_deref()
            .map(parse_tree_depth)
            .transpose()?,
        bonus_round: BonusRound::given(args.bonus_round.as_deref())?,
    })
}

/// Run the audit of `id` (Lazy-DP-TS, DP-TS or Hybrid-UCB), or the part
/// `--shard I/N` of its runs.
pub(super) fn run(args: &Args, id: BanditId) -> Result<(String, bool)> {
    let actions = parse_count("--actions", given(&args.actions, "--actions")?)?;
    let horizon = parse_horizon(given(&args.horizon, "--horizon")?)?;
    let epsilon = parse_rational(given(&args.epsilon, "--epsilon")?)?;
    let alphabet = parse_rational_list(given(&args.alphabet, "--alphabet")?)?;
    let overrides = overrides(args)?;
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
    let setup = AuditSetup {
        horizon,
        alphabet: Vec::new(),
        runs,
        seed,
        confidence,
        force: args.force,
    };
    let audit = Audit::of(id, actions, epsilon, alphabet, overrides, setup)?;
    let shard = super::shard_flag(args)?;
    let pool = super::thread_pool(args.threads.as_deref())?;
    let run = audit.run(shard, &pool)?;
    Ok(output(&StatisticalPrivacyReport::new(&run), args.json))
}

/// The report as JSON or a paragraph, and whether it shows a violation (a
/// lower confidence bound on ε above ε).
fn output(r: &StatisticalPrivacyReport, json: bool) -> (String, bool) {
    (
        rendered(r, json),
        r.verdict == crate::privacy::Verdict::Violated,
    )
}

/// `--merge` of the shards of one statistical audit
/// ([`merge::merge_parts`]).
pub(super) fn merge(
    inputs: &[(String, Value)],
    policy: SpotPolicy,
    as_json: bool,
) -> Result<(String, bool)> {
    let report: StatisticalPrivacyReport = merge::merge_parts(inputs, policy)?;
    Ok(output(&report, as_json))
}
