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
//! ([`merge()`]) and prints what the whole run prints.

use super::{given, parse_count, parse_horizon, Args};
use crate::bandit::policy::BanditId;
use crate::error::Result;
use crate::num::{parse_rational, parse_rational_list};
use crate::privacy::bandit::setup::{exact_check_of, Setup};
use crate::privacy::Problem;
use crate::report::bandit_privacy::BanditPrivacyReport;
use crate::report::merge::{self, SpotPolicy};
use crate::report::privacy::DeltaKeys;
use crate::report::rendered;
use serde_json::Value;

/// Run the bandit check for `id` (the caller has seen a bandit id).
pub(super) fn run(args: &Args, id: BanditId) -> Result<(String, bool)> {
    if super::bounds::chosen(args, id) {
        return super::bounds::run(args, id);
    }
    if super::statistical::chosen(args, id)? {
        return super::statistical::run(args, id);
    }
    exact_check_of(id)?;
    let actions = parse_count("--actions", given(&args.actions, "--actions")?)?;
    let horizon = parse_horizon(given(&args.horizon, "--horizon")?)?;
    let epsilon = parse_rational(given(&args.epsilon, "--epsilon")?)?;
    let problem = Problem::new(
        horizon,
        parse_rational_list(given(&args.alphabet, "--alphabet")?)?,
        epsilon,
    )?;
    let setup = Setup::new(id, actions, problem, super::statistical::overrides(args)?)?;
    let shard = super::shard_flag(args)?;
    let pool = super::thread_pool(args.threads.as_deref())?;
    let delta = super::delta_flag(args)?
        .map(|target| setup.delta(&target, args.force))
        .transpose()?;
    let decided = pool.install(|| setup.check(shard, args.force))?;
    let mut report = BanditPrivacyReport::new(&decided);
    report.verdict.delta = delta.as_ref().map(DeltaKeys::of);
    Ok(output(&report, args.json))
}

/// The report as JSON or a paragraph, and whether it is violated.
fn output(r: &BanditPrivacyReport, json: bool) -> (String, bool) {
    (rendered(r, json), super::violated(&r.verdict))
}

/// `--merge` of the shards of one bandit check ([`merge::merge_parts`]).
pub(super) fn merge(
    inputs: &[(String, Value)],
    policy: SpotPolicy,
    as_json: bool,
) -> Result<(String, bool)> {
    let report: BanditPrivacyReport = merge::merge_parts(inputs, policy)?;
    Ok(output(&report, as_json))
}
