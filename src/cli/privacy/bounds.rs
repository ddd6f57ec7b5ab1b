//! `dpdtol privacy --algorithm dp-ts|lazy-dp-ts --method bounds`: the
//! certified check from bounds on every law
//! ([`crate::privacy::bandit::sandwich`]): `private`, `violated` or
//! `undecided` when the bounds are too wide to tell, with certified bounds
//! on the largest ratio and on δ(ε). `--actions` is K, `--horizon` T,
//! `--alphabet` the reward values (in `[0, 1]`); the noise scale, the
//! bonus, DP-TS's tree scale, scale factor and bonus round as in the
//! statistical audit.

use super::{given, parse_count, parse_horizon, Args};
use crate::bandit::law::dp_ts::{certified, PrivateThompson};
use crate::bandit::policy::BanditId;
use crate::error::Result;
use crate::num::{parse_rational, parse_rational_list, Certified};
use crate::privacy::bandit::sandwich::check;
use crate::privacy::{Problem, Verdict};
use crate::report::bandit_bounds::BoundsPrivacyReport;
use crate::report::rendered;

/// Whether `--method bounds` asks for this check (DP-TS and Lazy-DP-TS
/// only).
pub(super) fn chosen(args: &Args, id: BanditId) -> bool {
    matches!(id, BanditId::DpTs | BanditId::LazyDpTs)
        && args.method.as_deref().map(str::trim) == Some("bounds")
}

/// Run the check of `id`.
pub(super) fn run(args: &Args, id: BanditId) -> Result<(String, bool)> {
    let actions = parse_count("--actions", given(&args.actions, "--actions")?)?;
    let horizon = parse_horizon(given(&args.horizon, "--horizon")?)?;
    let epsilon = parse_rational(given(&args.epsilon, "--epsilon")?)?;
    let alphabet = parse_rational_list(given(&args.alphabet, "--alphabet")?)?;
    // Rewards in [0, 1], as every privacy check takes them.
    Problem::new(horizon, alphabet.clone(), epsilon.clone())?;
    let overrides = super::statistical::overrides(args)?;
    let law = PrivateThompson::of(id, actions, epsilon.clone(), &overrides)?;
    let pool = super::thread_pool(args.threads.as_deref())?;
    let (outcome, bits) = pool.install(|| {
        certified(|bits| {
            check::<_, Certified>(&law, &alphabet, horizon, &epsilon, args.force, bits)
        })
    })?;
    let report = BoundsPrivacyReport::new(&law, &epsilon, &alphabet, horizon, &outcome, bits);
    let violated = report.verdict == Verdict::Violated;
    Ok((rendered(&report, args.json), violated))
}
