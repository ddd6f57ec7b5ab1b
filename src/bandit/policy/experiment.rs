//! A simulation of `dpdtol bandit` as planned: the presets of the papers'
//! experiments (Hu, Huang, Mehta & Hegde, journal version, §6, figures 1
//! and 2; their earlier version's §6), and the plan — algorithms, exact
//! means, ε grid, horizon, runs and confidence level — checked, with the
//! configurations to simulate and the size guard of the whole run.

use super::dp_se::{PullOrder, Radius, Rounding};
use super::dp_ts::BonusRound;
use super::sim::RewardLaw;
use super::ucb1::{self, Ties};
use super::{BanditConfig, BanditId};
use crate::error::{Error, Result};
use crate::num::{parse_rational_list, Q};
use num_traits::ToPrimitive;

/// Arm-rounds (configurations × runs × T × K) allowed without `force`.
pub const LIMIT: f64 = 2e10;

/// A preset of the papers' experiments.
pub struct Preset {
    /// The algorithms compared.
    pub algorithms: &'static [BanditId],
    /// The means as the paper prints them, parsed exactly.
    pub means: &'static str,
    /// The ε grid.
    pub epsilons: &'static [f64],
    /// The horizon T.
    pub horizon: u64,
    /// The runs per algorithm and ε.
    pub runs: u64,
}

/// The preset called `name`: `hu-fig1`, `hu-fig2` or `hu2021`.
pub fn preset(name: &str) -> Result<Preset> {
    match name.trim() {
        // 004 §6, L341: T = 10⁶, K = 5, ε ∈ {0.25, 0.5, 1}, 20 runs; setting 1.
        "hu-fig1" => Ok(Preset {
            algorithms: &BanditId::ALL,
            means: "0.75,0.625,0.5,0.375,0.25",
            epsilons: &[0.25, 0.5, 1.0],
            horizon: 1_000_000,
            runs: 20,
        }),
        // 004 §6, L341: setting 2.
        "hu-fig2" => Ok(Preset {
            algorithms: &BanditId::ALL,
            means: "0.5,0.4,0.4,0.4,0.4",
            epsilons: &[0.25, 0.5, 1.0],
            horizon: 1_000_000,
            runs: 20,
        }),
        // 002 §6 (L134–L142): Anytime-Lazy-UCB, Hybrid-UCB and DP-SE; T, the
        // number of runs, β, the ε grid and the means were lost in extraction.
        // Kept: the three algorithms, "small" and "large" ε (L142); taken from
        // 004 §6: T, K, runs and setting 1's means.
        "hu2021" => Ok(Preset {
            algorithms: &[
                BanditId::AnytimeLazyUcb,
                BanditId::HybridUcb,
                BanditId::DpSe,
            ],
            means: "0.75,0.625,0.5,0.375,0.25",
            epsilons: &[0.25, 1.0, 4.0, 16.0],
            horizon: 1_000_000,
            runs: 20,
        }),
        other => Err(Error::InvalidInput(format!(
            "unknown --experiment '{other}' (known: hu-fig1, hu-fig2, hu2021)"
        ))),
    }
}

/// The algorithms simulated: those `given`, else the preset's.
pub fn algorithms(given: Option<Vec<BanditId>>, preset: Option<&Preset>) -> Result<Vec<BanditId>> {
    match (given, preset) {
        (Some(ids), _) => Ok(ids),
        (None, Some(p)) => Ok(p.algorithms.to_vec()),
        (None, None) => Err(Error::InvalidInput(
            "--algorithm is required (or --experiment hu-fig1|hu-fig2|hu2021)".into(),
        )),
    }
}

/// What the user gave (`None`: the preset's value, else the default or an
/// error naming the flag).
pub struct Given<'a> {
    /// The preset's name.
    pub experiment: Option<&'a str>,
    /// The algorithms.
    pub algorithms: Option<Vec<BanditId>>,
    /// The means, exactly.
    pub means: Option<Vec<Q>>,
    /// The ε grid.
    pub epsilons: Option<Vec<f64>>,
    /// The horizon T.
    pub horizon: Option<u64>,
    /// The runs per algorithm and ε.
    pub runs: Option<u64>,
    /// The confidence level of the intervals.
    pub level: f64,
}

/// What to simulate, after the preset and the values given.
pub struct Plan {
    /// The algorithms.
    pub algorithms: Vec<BanditId>,
    /// The means as given (exact); the simulation draws with their nearest f64.
    pub means: Vec<Q>,
    /// The Bernoulli law of the rewards.
    pub law: RewardLaw,
    /// The ε grid (`[1]` when no algorithm is private).
    pub epsilons: Vec<f64>,
    /// The horizon T ≥ K.
    pub horizon: u64,
    /// The runs per algorithm and ε, at least 2.
    pub runs: u64,
    /// 1 − the confidence level.
    pub alpha: f64,
}

/// The readings of the pseudo-code's open choices a simulation is run
/// with: DP-SE's pull order, rounding and radius, DP-UCB's tree depth,
/// UCB1's ties and bonus round, DP-TS's bonus round (default: each paper's
/// printed reading).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Readings {
    /// DP-SE: the order of the pulls inside an epoch.
    pub pull_order: PullOrder,
    /// DP-SE: the rounding of its epoch lengths.
    pub rounding: Rounding,
    /// DP-SE: where its radius reads `R_e`.
    pub radius: Radius,
    /// DP-UCB: the binary mechanism's depth `L` (default `⌈log₂ T⌉`).
    pub tree_depth: Option<u32>,
    /// UCB1: how it chooses among arms of equal index.
    pub ties: Ties,
    /// DP-TS: the round whose `ln t` its bonus reads.
    pub bonus_round: BonusRound,
    /// UCB1: the round count whose logarithm its bonus reads.
    pub ucb1_bonus_round: ucb1::BonusRound,
}

impl Plan {
    /// The plan of `given`: every value checked.
    pub fn new(given: Given<'_>) -> Result<Plan> {
        let preset = given.experiment.map(preset).transpose()?;
        let algorithms = algorithms(given.algorithms, preset.as_ref())?;
        let means = match (given.means, &preset) {
            (Some(means), _) => means,
            (None, Some(p)) => parse_rational_list(p.means)?,
            (None, None) => return Err(Error::InvalidInput("--means is required".into())),
        };
        let law = RewardLaw::bernoulli(
            means
                .iter()
                .map(|q| q.to_f64().unwrap_or(f64::NAN))
                .collect(),
        )?;
        let epsilons = match (given.epsilons, &preset) {
            (Some(epsilons), _) => epsilons,
            (None, Some(p)) => p.epsilons.to_vec(),
            (None, None) if algorithms.iter().all(|a| !a.is_private()) => vec![1.0],
            (None, None) => return Err(Error::InvalidInput("--epsilon is required".into())),
        };
        if let Some(e) = epsilons.iter().find(|e| !(e.is_finite() && **e > 0.0)) {
            return Err(Error::InvalidInput(format!(
                "--epsilon must be positive, got {e}"
            )));
        }
        let horizon = match (given.horizon, &preset) {
            (Some(t), _) => t,
            (None, Some(p)) => p.horizon,
            (None, None) => return Err(Error::InvalidInput("--horizon is required".into())),
        };
        if horizon < law.arms() as u64 {
            return Err(Error::InvalidInput(format!(
                "--horizon {horizon} is smaller than K = {}",
                law.arms()
            )));
        }
        let runs = given.runs.or(preset.as_ref().map(|p| p.runs)).unwrap_or(20);
        if runs < 2 {
            return Err(Error::InvalidInput(format!(
                "--runs must be at least 2, got {runs}"
            )));
        }
        if !(given.level > 0.0 && given.level < 1.0) {
            return Err(Error::InvalidInput(format!(
                "--confidence must lie in (0, 1), got {}",
                given.level
            )));
        }
        Ok(Plan {
            algorithms,
            means,
            law,
            epsilons,
            horizon,
            runs,
            alpha: 1.0 - given.level,
        })
    }

    /// The configurations to simulate, each with the noise scale, bonus, β
    /// and DP-SE's pull order and rounding given (else the paper's), checked: a private algorithm at every ε,
    /// a non-private baseline once (it does not depend on ε). Refused when
    /// the whole run would exceed [`LIMIT`] arm-rounds (each simulated round
    /// may look at every arm: UCB1, Thompson sampling), unless `force`.
    pub fn configs(
        &self,
        noise_scale: Option<f64>,
        bonus: Option<f64>,
        beta: Option<f64>,
        readings: Readings,
        force: bool,
    ) -> Result<Vec<BanditConfig>> {
        let dp_se = Readings {
            tree_depth: None,
            ties: Ties::default(),
            bonus_round: BonusRound::default(),
            ucb1_bonus_round: ucb1::BonusRound::default(),
            ..readings
        };
        if dp_se != Readings::default() && !self.algorithms.contains(&BanditId::DpSe) {
            return Err(Error::InvalidInput(
                "--pull-order, --rounding and --radius apply to dp-se only, which is not simulated"
                    .into(),
            ));
        }
        if readings.tree_depth.is_some() && !self.algorithms.contains(&BanditId::DpUcb) {
            return Err(Error::InvalidInput(
                "--tree-depth applies to dp-ucb only, which is not simulated".into(),
            ));
        }
        if readings.ties != Ties::default() && !self.algorithms.contains(&BanditId::Ucb1) {
            return Err(Error::InvalidInput(
                "--ties applies to ucb1 only, which is not simulated".into(),
            ));
        }
        if readings.ucb1_bonus_round != ucb1::BonusRound::default()
            && !self.algorithms.contains(&BanditId::Ucb1)
        {
            return Err(Error::InvalidInput(
                "--bonus-round current applies to ucb1, which is not simulated".into(),
            ));
        }
        if readings.bonus_round != BonusRound::default()
            && !self.algorithms.contains(&BanditId::DpTs)
        {
            return Err(Error::InvalidInput(
                "--bonus-round last-update applies to dp-ts, which is not simulated".into(),
            ));
        }
        let mut configs = Vec::new();
        for &id in &self.algorithms {
            let epsilons = if id.is_private() {
                &self.epsilons[..]
            } else {
                &self.epsilons[..1]
            };
            for &epsilon in epsilons {
                let config = BanditConfig {
                    noise_scale,
                    bonus,
                    beta,
                    pull_order: readings.pull_order,
                    rounding: readings.rounding,
                    radius: readings.radius,
                    tree_depth: readings.tree_depth,
                    ties: readings.ties,
                    bonus_round: readings.bonus_round,
                    ucb1_bonus_round: readings.ucb1_bonus_round,
                    ..BanditConfig::new(id, epsilon)
                };
                config.validate()?;
                configs.push(config);
            }
        }
        let arms = self.law.arms() as f64;
        let work = configs.len() as f64 * self.runs as f64 * self.horizon as f64 * arms;
        if work > LIMIT && !force {
            return Err(Error::TooLarge(format!(
                "{work:.3e} arm-rounds ({} configurations × {} runs × T = {} × K = {arms}) exceed {LIMIT:.0e}; pass --force to run them",
                configs.len(),
                self.runs,
                self.horizon
            )));
        }
        Ok(configs)
    }
}
