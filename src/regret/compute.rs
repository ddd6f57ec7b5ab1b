//! The pseudo-regret of a plan in a setting: the entry point, which hands
//! the deterministic setting to the closed forms of [`super::deterministic`]
//! and the Bernoulli one to the binomial expectations of [`super::bernoulli`].

use super::{
    bernoulli, check_horizon, deterministic, dyadic_blocks, Enclose, Instance, Plan, RegretCurve,
    Round, Setting,
};
use crate::error::Result;
use crate::progress::Progress;

/// The pseudo-regret of `plan` on `inst` at horizon `horizon` in `setting`,
/// by the fast engines: the closed forms of [`deterministic`] and the
/// binomial expectations of [`bernoulli`] (which refuses an enumeration of
/// more than `limit` terms, when a limit is given).
pub fn regret<R: Enclose>(
    plan: &Plan,
    inst: &Instance,
    setting: Setting,
    horizon: Round,
    ctx: &R::Context,
    limit: Option<u128>,
) -> Result<RegretCurve<R>> {
    regret_counted(
        plan,
        inst,
        setting,
        horizon,
        ctx,
        limit,
        &Progress::default(),
    )
}

/// [`regret`], counting the dyadic blocks done on `progress` (the caller
/// shows it: see [`crate::progress`]).
pub(crate) fn regret_counted<R: Enclose>(
    plan: &Plan,
    inst: &Instance,
    setting: Setting,
    horizon: Round,
    ctx: &R::Context,
    limit: Option<u128>,
    progress: &Progress,
) -> Result<RegretCurve<R>> {
    check_horizon(horizon)?;
    progress.start(dyadic_blocks(horizon).count() as u64 + 1);
    match setting {
        Setting::Deterministic => deterministic::regret_counted(
            plan,
            inst,
            horizon,
            ctx,
            limit,
            &deterministic::Options::default(),
            progress,
        ),
        Setting::Bernoulli => bernoulli::regret_counted(
            plan,
            inst,
            horizon,
            ctx,
            limit,
            bernoulli::Engine::Auto,
            progress,
        ),
    }
}
