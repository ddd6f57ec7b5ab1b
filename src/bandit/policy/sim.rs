//! The simulation engine: many independent runs of bandit algorithms on a
//! stochastic instance, in f64 — **approximate** (Monte Carlo), and labelled
//! so wherever printed.
//!
//! * Rewards: Bernoulli arms as in the papers' experiments, or any law on a
//!   finite alphabet in `[0, 1]` ([`RewardLaw`]).
//! * Seeds: run `i` of a master seed `S` draws its rewards from the ChaCha8
//!   stream `2i` and its algorithm noise from stream `2i + 1` of the key
//!   `seed_from_u64(S)` ([`run_rngs`]). Runs are independent, results do not
//!   depend on the number of threads (each run is computed by one thread and
//!   stored at its index), and any run can be replayed alone with
//!   [`simulate_run`]. Every algorithm of a grid sees the same streams (common
//!   random numbers), which makes their comparison less noisy.
//! * Speed by design: a [`Policy`] returns runs of rounds during which its arm
//!   is fixed; the engine draws the run's reward sum at once (a Binomial, or a
//!   multinomial on the alphabet) and fills the checkpoints it crosses. A
//!   per-round policy costs its own per-round work and nothing more (no
//!   allocation per round).
//! * Output: the pseudo-regret `Σ_{s≤t} Δ_{J_s}` at logarithmically spaced
//!   checkpoints ([`checkpoints`]).

use super::{BanditConfig, NoiseRng, Policy};
use crate::error::{Error, Result};
use rand::{Rng, SeedableRng};
use rand_distr::{Binomial, Distribution};
use rayon::prelude::*;

/// The reward law of each arm.
#[derive(Clone, Debug, PartialEq)]
pub enum RewardLaw {
    /// `X_j ~ Bernoulli(μ_j)`.
    Bernoulli(Vec<f64>),
    /// `X_j` takes `values[v]` with probability `probs[j][v]`.
    Finite {
        /// The alphabet, in `[0, 1]`.
        values: Vec<f64>,
        /// One probability vector per arm.
        probs: Vec<Vec<f64>>,
    },
}

impl RewardLaw {
    /// Bernoulli arms, checked: `K ≥ 2`, every mean in `[0, 1]`.
    pub fn bernoulli(means: Vec<f64>) -> Result<RewardLaw> {
        let law = RewardLaw::Bernoulli(means);
        law.validate()?;
        Ok(law)
    }

    /// The number of arms.
    pub fn arms(&self) -> usize {
        match self {
            RewardLaw::Bernoulli(m) => m.len(),
            RewardLaw::Finite { probs, .. } => probs.len(),
        }
    }

    /// The means `μ_j`.
    pub fn means(&self) -> Vec<f64> {
        match self {
            RewardLaw::Bernoulli(m) => m.clone(),
            RewardLaw::Finite { values, probs } => probs
                .iter()
                .map(|p| p.iter().zip(values).map(|(p, v)| p * v).sum())
                .collect(),
        }
    }

    /// The gaps `Δ_j = max μ − μ_j`.
    pub fn gaps(&self) -> Vec<f64> {
        let means = self.means();
        let best = means.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        means.iter().map(|m| best - m).collect()
    }

    /// `K ≥ 2`, values and means in `[0, 1]`, probability vectors summing to 1.
    pub fn validate(&self) -> Result<()> {
        let unit = |x: f64| (0.0..=1.0).contains(&x);
        if self.arms() < 2 {
            return Err(Error::InvalidInput(format!(
                "a bandit needs K ≥ 2 arms, got {}",
                self.arms()
            )));
        }
        match self {
            RewardLaw::Bernoulli(m) => {
                if let Some(x) = m.iter().find(|x| !unit(**x)) {
                    return Err(Error::InvalidInput(format!(
                        "--means: {x} is outside [0, 1]"
                    )));
                }
            }
            RewardLaw::Finite { values, probs } => {
                if let Some(x) = values.iter().find(|x| !unit(**x)) {
                    return Err(Error::InvalidInput(format!(
                        "reward value {x} is outside [0, 1]"
                    )));
                }
                for p in probs {
                    let total: f64 = p.iter().sum();
                    if p.len() != values.len()
                        || p.iter().any(|x| !unit(*x))
                        || (total - 1.0).abs() > 1e-9
                    {
                        return Err(Error::InvalidInput(
                            "each arm needs one probability per reward value, summing to 1".into(),
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Where a run's rewards come from: the sum of the next `n` rewards of `arm`.
pub trait Rewards {
    /// The sum of `n ≥ 1` fresh rewards of `arm`.
    fn sum(&mut self, arm: usize, n: u64) -> f64;
}

/// Rewards drawn from a [`RewardLaw`] with their own stream.
#[derive(Clone, Debug)]
pub struct Sampled<'a> {
    law: &'a RewardLaw,
    rng: NoiseRng,
}

impl<'a> Sampled<'a> {
    /// Rewards of `law` from `rng`.
    pub fn new(law: &'a RewardLaw, rng: NoiseRng) -> Sampled<'a> {
        Sampled { law, rng }
    }
}

fn binomial(n: u64, p: f64, rng: &mut NoiseRng) -> u64 {
    if p <= 0.0 {
        0
    } else if p >= 1.0 {
        n
    } else if n == 1 {
        u64::from(rng.random::<f64>() < p)
    } else {
        Binomial::new(n, p).map(|d| d.sample(rng)).unwrap_or(0)
    }
}

impl Rewards for Sampled<'_> {
    fn sum(&mut self, arm: usize, n: u64) -> f64 {
        match self.law {
            RewardLaw::Bernoulli(m) => binomial(n, m[arm], &mut self.rng) as f64,
            RewardLaw::Finite { values, probs } => {
                // A multinomial count vector by successive conditional binomials.
                let p = &probs[arm];
                let (mut left, mut mass, mut total) = (n, 1.0, 0.0);
                for (v, (value, pv)) in values.iter().zip(p).enumerate() {
                    if left == 0 {
                        break;
                    }
                    let c = if v + 1 == values.len() {
                        left
                    } else {
                        binomial(left, (pv / mass).min(1.0), &mut self.rng)
                    };
                    total += c as f64 * value;
                    left -= c;
                    mass -= pv;
                }
                total
            }
        }
    }
}

/// Fixed rewards: `streams[j][k]` is the reward of arm `j`'s `(k+1)`-th pull
/// (for tests, and for exact analyses on a reward table).
#[derive(Clone, Debug)]
pub struct Table {
    streams: Vec<Vec<f64>>,
    next: Vec<usize>,
}

impl Table {
    /// The table; each stream must be long enough for the pulls asked.
    pub fn new(streams: Vec<Vec<f64>>) -> Table {
        let k = streams.len();
        Table {
            streams,
            next: vec![0; k],
        }
    }
}

impl Rewards for Table {
    fn sum(&mut self, arm: usize, n: u64) -> f64 {
        let start = self.next[arm];
        self.next[arm] += n as usize;
        self.streams[arm][start..start + n as usize].iter().sum()
    }
}

/// About `per_decade` logarithmically spaced rounds in `[1, horizon]`,
/// increasing, without repeats, ending at `horizon`.
pub fn checkpoints(horizon: u64, per_decade: u32) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::new();
    let decades = (horizon as f64).log10();
    let steps = (decades * f64::from(per_decade)).ceil() as u64;
    for i in 0..=steps {
        let t = 10f64.powf(i as f64 / f64::from(per_decade)).round() as u64;
        let t = t.clamp(1, horizon);
        if out.last() != Some(&t) {
            out.push(t);
        }
    }
    if out.last() != Some(&horizon) {
        out.push(horizon);
    }
    out
}

/// What one run produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The pseudo-regret at each checkpoint.
    pub regret: Vec<f64>,
    /// Pulls of each arm by the horizon.
    pub pulls: Vec<u64>,
    /// Calls to [`Policy::choose`] (stretches of rounds simulated at once).
    pub steps: u64,
}

/// Play `policy` for rounds `1..=horizon`, recording the pseudo-regret (gaps
/// `gaps`) at `checkpoints` (increasing, within `[1, horizon]`).
pub fn play(
    policy: &mut dyn Policy,
    rewards: &mut dyn Rewards,
    noise: &mut NoiseRng,
    gaps: &[f64],
    horizon: u64,
    checkpoints: &[u64],
) -> Run {
    let mut regret = Vec::with_capacity(checkpoints.len());
    let mut pulls = vec![0u64; gaps.len()];
    let (mut t, mut total, mut steps, mut next) = (1u64, 0.0f64, 0u64, 0usize);
    while t <= horizon {
        let pull = policy.choose(t, horizon - t + 1, noise);
        let run = pull.run.clamp(1, horizon - t + 1);
        let sum = rewards.sum(pull.arm, run);
        policy.observe(pull.arm, run, sum, noise);
        let gap = gaps[pull.arm];
        while next < checkpoints.len() && checkpoints[next] < t + run {
            regret.push(total + gap * (checkpoints[next] - t + 1) as f64);
            next += 1;
        }
        total += gap * run as f64;
        pulls[pull.arm] += run;
        steps += 1;
        t += run;
    }
    Run {
        regret,
        pulls,
        steps,
    }
}

/// The reward and noise streams of run `index` under `seed`.
pub fn run_rngs(seed: u64, index: u64) -> (NoiseRng, NoiseRng) {
    let mut rewards = NoiseRng::seed_from_u64(seed);
    rewards.set_stream(2 * index);
    let mut noise = NoiseRng::seed_from_u64(seed);
    noise.set_stream(2 * index + 1);
    (rewards, noise)
}

/// Run number `index` of `config` on `law` alone (replayable).
pub fn simulate_run(
    config: &BanditConfig,
    law: &RewardLaw,
    horizon: u64,
    checkpoints: &[u64],
    seed: u64,
    index: u64,
) -> Result<Run> {
    let mut policy = config.build(law.arms(), horizon)?;
    let (reward_rng, mut noise) = run_rngs(seed, index);
    let mut rewards = Sampled::new(law, reward_rng);
    Ok(play(
        policy.as_mut(),
        &mut rewards,
        &mut noise,
        &law.gaps(),
        horizon,
        checkpoints,
    ))
}

/// `runs` runs of each configuration in `configs` on `law`, in parallel over
/// (configuration, run) on rayon's current pool; `done` is called after each
/// run. The result is indexed `[configuration][run]`, whatever the threads.
pub fn simulate(
    configs: &[BanditConfig],
    law: &RewardLaw,
    horizon: u64,
    runs: u64,
    seed: u64,
    checkpoints: &[u64],
    done: &(dyn Fn() + Sync),
) -> Result<Vec<Vec<Run>>> {
    law.validate()?;
    if horizon < law.arms() as u64 {
        return Err(Error::InvalidInput(format!(
            "--horizon {horizon} is smaller than K = {}: the algorithms start by pulling every arm once",
            law.arms()
        )));
    }
    for c in configs {
        c.validate()?;
    }
    // Every run is kept (its regret at each checkpoint, its pulls of each
    // arm): their memory is guarded before the first run.
    let each = std::mem::size_of::<Result<Run>>() + 8 * (checkpoints.len() + law.arms());
    let jobs = crate::size::table(
        "the runs kept in memory (configurations × runs, each with its regret at every checkpoint and its pulls of every arm)",
        crate::size::product([configs.len() as u128, u128::from(runs)]),
        each,
    )?;
    let per_config = usize::try_from(runs).unwrap_or(usize::MAX);
    let results: Vec<Result<Run>> = (0..jobs)
        .into_par_iter()
        .map(|j| {
            let (c, r) = (j / per_config, (j % per_config) as u64);
            let out = simulate_run(&configs[c], law, horizon, checkpoints, seed, r);
            done();
            out
        })
        .collect();
    let mut grid: Vec<Vec<Run>> = (0..configs.len()).map(|_| Vec::new()).collect();
    for (j, run) in results.into_iter().enumerate() {
        grid[j / per_config].push(run?);
    }
    Ok(grid)
}

/// Mean and confidence bounds of `n ≥ 2` i.i.d. samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// The sample mean.
    pub mean: f64,
    /// The unbiased sample standard deviation.
    pub sd: f64,
    /// Two-sided empirical-Bernstein interval (Maurer & Pontil 2009, Thm 4,
    /// each side at `α/2`), valid for any law on `[0, range]`.
    pub bernstein: (f64, f64),
    /// Two-sided Student-t interval (assumes normal sample means).
    pub t: (f64, f64),
}

/// Summarise samples known to lie in `[0, range]` at confidence `1 − alpha`.
///
/// Empirical Bernstein: with probability `≥ 1 − δ`,
/// `E X ≤ X̄ + √(2 V ln(2/δ)/n) + 7 R ln(2/δ)/(3(n−1))` for `X ∈ [0, R]`, `V` the
/// unbiased sample variance (Maurer & Pontil, "Empirical Bernstein Bounds and
/// Sample Variance Penalization", COLT 2009, Theorem 4, rescaled by `R`); the
/// same below; `δ = α/2` on each side. Student t: `X̄ ± t_{n−1,1−α/2} s/√n`.
pub fn summarise(samples: &[f64], range: f64, alpha: f64) -> Summary {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    let var = if n > 1.0 {
        samples.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let sd = var.sqrt();
    let l = (2.0 / (alpha / 2.0)).ln();
    let eb = (2.0 * var * l / n).sqrt() + 7.0 * range * l / (3.0 * (n - 1.0).max(1.0));
    let q = StudentsT::new(0.0, 1.0, (n - 1.0).max(1.0))
        .map(|d| d.inverse_cdf(1.0 - alpha / 2.0))
        .unwrap_or(f64::INFINITY);
    let h = q * sd / n.sqrt();
    Summary {
        mean,
        sd,
        bernstein: ((mean - eb).max(0.0), (mean + eb).min(range)),
        t: (mean - h, mean + h),
    }
}
