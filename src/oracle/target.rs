//! The target of the oracle (`law`, `sample`, `gof`, `audit`) named by its
//! parameters as the user wrote them: an online algorithm on a loss file, one
//! report-noisy-max selection on a loss vector, or a bandit algorithm on a
//! reward table. Each number is read exactly here, and each parameter the
//! target needs and was not given is refused with one line naming it.

use super::bandit::{BanditSpec, BanditTarget};
use super::{io, Target};
use crate::algorithm::{AlgorithmId, Config, LawParameter};
#[cfg(feature = "cli")]
use crate::algorithm::{BestOptions, BestSequenceLaw};
use crate::bandit::law::dp_se::DpSeVariant;
use crate::bandit::policy::{bonus_rounds, BanditId};
use crate::error::{Error, Result};
use crate::mechanism::{Noise, Scale};
use crate::num::given::{parse_bit, parse_count, parse_lengths, parse_tree_depth};
use crate::num::{parse_rational, parse_rational_list, Q};
#[cfg(feature = "cli")]
use crate::progress::{with_progress, Task};
use num_traits::One;
use std::path::{Path, PathBuf};

/// The parameters that name a target, as given (`None`: not given); the
/// names are those of the command line's flags.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TargetSpec {
    /// An online algorithm's id, or a bandit algorithm's.
    pub algorithm: Option<String>,
    /// The number of actions K (default: the width of the loss file).
    pub actions: Option<String>,
    /// The privacy parameter ε.
    pub epsilon: Option<String>,
    /// wu-wang's noise.
    pub noise: Option<String>,
    /// wu-wang's resampling, 0 or 1.
    pub resample: Option<String>,
    /// The noise scale overriding the paper's.
    pub noise_scale: Option<String>,
    /// The loss file of an online algorithm.
    pub losses_file: Option<PathBuf>,
    /// Instead of an algorithm: one selection with this noise.
    pub mechanism: Option<String>,
    /// The selection's noise scale β.
    pub scale: Option<String>,
    /// The selection's losses, comma-separated.
    pub losses: Option<String>,
    /// The reward table of a bandit algorithm.
    pub rewards_file: Option<PathBuf>,
    /// dp-se's epoch lengths, comma-separated.
    pub epoch_length: Option<String>,
    /// hybrid-ucb's tree p-sums' scale.
    pub tree_scale: Option<String>,
    /// hybrid-ucb's factor on both scales.
    pub scale_factor: Option<String>,
    /// The constant of the bonus.
    pub bonus: Option<String>,
    /// dp-se's δ (its failure probability β).
    pub beta: Option<String>,
    /// dp-se's pull order inside an epoch.
    pub pull_order: Option<String>,
    /// dp-se's rounding of its epoch lengths.
    pub rounding: Option<String>,
    /// dp-se's reading of `R_e` in its radius, integer or real.
    pub radius: Option<String>,
    /// dp-se: which entry of the reward table a pull receives, by round or
    /// by pull.
    pub reward_index: Option<String>,
    /// dp-ucb's binary mechanism depth `L`.
    pub tree_depth: Option<String>,
    /// ucb1's reading of ties, lowest, uniform, highest or ordered-uniform.
    pub ties: Option<String>,
    /// dp-ts: the round whose `ln t` its bonus reads; ucb1: the round count
    /// whose logarithm its bonus reads.
    pub bonus_round: Option<String>,
    /// Do work over the size limits.
    pub force: bool,
}

fn missing(flag: &str, with: &str) -> Error {
    Error::InvalidInput(format!("{flag} is required with --{with}"))
}

impl TargetSpec {
    /// Whether a target is named at all.
    pub fn given(&self) -> bool {
        self.algorithm.is_some() || self.mechanism.is_some()
    }

    /// The online algorithm or the selection named, on its own losses.
    pub fn build(&self) -> Result<Target> {
        self.build_on(self.losses_file.as_deref(), self.losses.as_deref())
    }

    /// The bandit algorithm on its reward table, when the algorithm named is
    /// a bandit algorithm ([`crate::oracle::bandit`]).
    pub fn bandit(&self) -> Result<Option<BanditTarget>> {
        self.bandit_spec()?
            .map(|(spec, rewards)| BanditTarget::new(spec, rewards))
            .transpose()
    }

    /// The bandit algorithm and its reward table, when the algorithm named
    /// is a bandit algorithm.
    pub fn bandit_spec(&self) -> Result<Option<(BanditSpec, Vec<Vec<Q>>)>> {
        let Some(id) = self
            .algorithm
            .as_deref()
            .and_then(|a| a.parse::<BanditId>().ok())
        else {
            return Ok(None);
        };
        let exact = |text: &Option<String>| text.as_deref().map(parse_rational).transpose();
        let epsilon = match (self.epsilon.as_deref(), id.is_private()) {
            (Some(e), _) => parse_rational(e)?,
            // Not read by a non-private algorithm.
            (None, false) => Q::one(),
            (None, true) => {
                return Err(Error::InvalidInput(format!(
                    "--epsilon is required with --algorithm {id}"
                )))
            }
        };
        let (ucb1_bonus_round, bonus_round) = bonus_rounds(self.bonus_round.as_deref(), &[id])?;
        let spec = BanditSpec {
            noise_scale: exact(&self.noise_scale)?,
            epoch_lengths: self
                .epoch_length
                .as_deref()
                .map(parse_lengths)
                .transpose()?,
            tree_scale: exact(&self.tree_scale)?,
            scale_factor: exact(&self.scale_factor)?,
            bonus: exact(&self.bonus)?,
            tree_depth: self
                .tree_depth
                .as_deref()
                .map(parse_tree_depth)
                .transpose()?,
            ties: self
                .ties
                .as_deref()
                .map(str::parse)
                .transpose()?
                .unwrap_or_default(),
            dp_se: DpSeVariant::parse(
                self.beta.as_deref(),
                self.pull_order.as_deref(),
                self.rounding.as_deref(),
                self.radius.as_deref(),
                self.reward_index.as_deref(),
            )?,
            bonus_round,
            ucb1_bonus_round,
            ..BanditSpec::new(id, epsilon)
        };
        let file = self.rewards_file.as_deref().ok_or_else(|| {
            Error::InvalidInput(format!("--rewards-file is required with --algorithm {id}"))
        })?;
        Ok(Some((spec, io::read_rewards(file)?)))
    }

    /// The same target on other losses: a loss file for an algorithm, a
    /// comma-separated list for a selection.
    pub fn build_on(&self, file: Option<&Path>, list: Option<&str>) -> Result<Target> {
        if let Some(noise) = &self.mechanism {
            let noise: Noise = noise.parse()?;
            let scale = self
                .scale
                .as_deref()
                .ok_or_else(|| missing("--scale", "mechanism"))?;
            let scale = Scale::beta(parse_rational(scale)?)?;
            let losses =
                parse_rational_list(list.ok_or_else(|| missing("--losses", "mechanism"))?)?;
            return Target::mechanism(noise, scale, losses);
        }
        let id: AlgorithmId = self
            .algorithm
            .as_deref()
            .ok_or_else(|| Error::InvalidInput("--algorithm or --mechanism is required".into()))?
            .parse()?;
        id.require_law_parameters(|p| match p {
            LawParameter::Noise if self.noise.is_none() => {
                Some("--noise laplace|exponential|gumbel")
            }
            LawParameter::Resample if self.resample.is_none() => Some("--resample 0|1"),
            _ => None,
        })?;
        let losses = io::read_losses(file.ok_or_else(|| missing("--losses-file", "algorithm"))?)?;
        let actions = match &self.actions {
            Some(text) => parse_count("--actions", text)?,
            None => losses.first().map_or(0, Vec::len),
        };
        let resample = match &self.resample {
            Some(text) => parse_bit("--resample", text)? == 1,
            None => false,
        };
        let epsilon = self
            .epsilon
            .as_deref()
            .ok_or_else(|| missing("--epsilon", "algorithm"))?;
        let config = Config {
            id,
            actions,
            epsilon: parse_rational(epsilon)?,
            noise: self.noise.as_deref().map(str::parse::<Noise>).transpose()?,
            noise_scale: self
                .noise_scale
                .as_deref()
                .map(parse_rational)
                .transpose()?,
            resample,
        };
        Target::algorithm(config.build()?, losses)
    }

    /// The law of `target` to `digits` relative digits, over the size limits
    /// when forced, with a progress bar on stderr for a long one
    /// (the command line's, `crate::progress`).
    #[cfg(feature = "cli")]
    pub fn law(&self, target: &Target, digits: u32) -> Result<BestSequenceLaw> {
        let task = Task {
            name: "law",
            unit: "selection laws",
        };
        with_progress(true, task, 1, |bar| {
            let saturated = |n: u128| u64::try_from(n).unwrap_or(u64::MAX);
            let mut progress = |done: u128, total: u128| bar.set(saturated(done), saturated(total));
            target.law(BestOptions {
                digits,
                force: self.force,
                progress: Some(&mut progress),
            })
        })
    }
}
