//! Driving an implementation of [`Policy`] through a reward table: `n` runs
//! of a fresh policy, each to the horizon, with the protocol checked as it
//! is played; [`super::bandit::drive_gof`] tests the pull sequences against
//! the exact law.
//!
//! The table is the contract of [`super::bandit`]: row `t − 1` holds every
//! arm's reward in round `t` ([`RewardIndex::Round`]), or, read by pull
//! ([`RewardIndex::Pull`]), row `n − 1` holds every arm's reward at its
//! `n`-th pull. At round `t` the driver asks
//! [`Policy::choose`] with the cap `max_run = T − t + 1`, checks that the
//! [`crate::bandit::policy::Pull`] names one of the `K` arms and a run
//! `1 ≤ run ≤ max_run`, records the arm for those rounds and hands
//! [`Policy::observe`] the sum of that arm's rewards over them (over its next
//! pulls, by pull). Run `i`
//! draws its noise from [`super::sample::stream`]`(seed, i)`, so the pull
//! sequences depend on `seed` only, not on the number of threads. A policy
//! that breaks the protocol is an error naming the run (from 0) and the
//! round (from 1); when several runs break it, the first of them is named.

use super::sample::{check_values, try_sample_indexed, Samples};
use crate::bandit::policy::dp_se::RewardIndex;
use crate::bandit::policy::{NoiseRng, Policy};
use crate::error::{Error, Result};

/// `n` pull sequences (0-based arms) of the policies that `make` builds, one
/// fresh policy a run, each played to the horizon on `rewards` (`T` rows of
/// `K ≥ 2` finite rewards, read by `index`). Refused over
/// [`super::sample::MAX_VALUES`] values unless `force`.
pub fn drive<F>(
    make: F,
    rewards: &[Vec<f64>],
    index: RewardIndex,
    n: usize,
    seed: u64,
    force: bool,
) -> Result<Samples>
where
    F: Fn() -> Result<Box<dyn Policy>> + Sync,
{
    let arms = rewards.first().map_or(0, Vec::len);
    if arms < 2 || rewards.iter().any(|row| row.len() != arms) {
        return Err(Error::InvalidInput(format!(
            "the reward table must have T ≥ 1 rows of the same K ≥ 2 rewards, got {} rows of {arms}",
            rewards.len()
        )));
    }
    if let Some(t) = rewards
        .iter()
        .position(|row| row.iter().any(|x| !x.is_finite()))
    {
        return Err(Error::InvalidInput(format!(
            "round {}: every reward must be a finite number",
            t + 1
        )));
    }
    check_values(n, rewards.len(), arms, force)?;
    try_sample_indexed(n, rewards.len(), seed, |i, rng| {
        let policy = make()?;
        play(policy, rewards, index, rng)
            .map_err(|why| Error::InvalidInput(format!("run {i}, {why}")))
    })
}

/// One run of `policy` on `rewards`: its pulls, or what broke the protocol
/// (with its round).
fn play(
    mut policy: Box<dyn Policy>,
    rewards: &[Vec<f64>],
    index: RewardIndex,
    rng: &mut NoiseRng,
) -> std::result::Result<Vec<usize>, String> {
    let (horizon, arms) = (rewards.len(), rewards[0].len());
    if policy.arms() != arms {
        return Err(format!(
            "round 1: the policy has {} arms, the table K = {arms}",
            policy.arms()
        ));
    }
    let mut pulls = Vec::with_capacity(horizon);
    // The pulls of each arm so far.
    let mut count = vec![0usize; arms];
    while pulls.len() < horizon {
        let t = pulls.len() + 1;
        let max_run = (horizon - pulls.len()) as u64;
        let pull = policy.choose(t as u64, max_run, rng);
        if pull.arm >= arms {
            return Err(format!(
                "round {t}: arm {} is not one of the K = {arms} arms 0 to {} (0-based)",
                pull.arm,
                arms - 1
            ));
        }
        if pull.run == 0 || pull.run > max_run {
            return Err(format!(
                "round {t}: a run of {} pulls, where 1 to {max_run} are left",
                pull.run
            ));
        }
        let run = pull.run as usize;
        let rows = match index {
            RewardIndex::Round => t - 1..t - 1 + run,
            RewardIndex::Pull => count[pull.arm]..count[pull.arm] + run,
        };
        count[pull.arm] += run;
        let sum = rewards[rows].iter().map(|row| row[pull.arm]).sum();
        let rounds = t - 1..t - 1 + run;
        pulls.extend(rounds.map(|_| pull.arm));
        policy.observe(pull.arm, pull.run, sum, rng);
    }
    Ok(pulls)
}
