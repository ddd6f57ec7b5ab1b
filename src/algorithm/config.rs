//! The algorithms by command-line id ([`AlgorithmId`]) and their
//! parameters ([`Config`]): the papers' defaults, each overridable, checked
//! before anything is built.

use super::check_parameter_bits;
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{format_brief, Q};
use num_traits::Signed;
use std::fmt;
use std::str::FromStr;

/// The identifiers of the algorithms on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AlgorithmId {
    /// Follow the leader.
    Ftl,
    /// Naive follow-the-noisy-leader (Hu et al. §5).
    NaiveFtnl,
    /// Hu et al. Algorithm 4.
    HuRnmFtnl,
    /// Wu & Wang Algorithm 1.
    WuWang,
    /// Cesari & Colomboni's randomized-prefix softmax.
    PrefixSoftmax,
    /// Hedge at a constant learning rate (Freund & Schapire 1997).
    Hedge,
    /// Hedge with `η_t = c·√(ln K / t)` (Mourtada & Gaïffas 2019).
    DecreasingHedge,
}

impl AlgorithmId {
    /// Every algorithm: the baseline, then by paper, then the Hedge
    /// baselines.
    pub const ALL: [AlgorithmId; 7] = [
        AlgorithmId::Ftl,
        AlgorithmId::NaiveFtnl,
        AlgorithmId::HuRnmFtnl,
        AlgorithmId::WuWang,
        AlgorithmId::PrefixSoftmax,
        AlgorithmId::Hedge,
        AlgorithmId::DecreasingHedge,
    ];

    /// The parameters that have a default and change this algorithm's law.
    /// An oracle (law, sample, gof, audit) answers about one law, so it
    /// requires each of them named: `wu-wang`'s noise and its Bernoulli
    /// resampling B (Wu & Wang, Algorithm 1), empty for the others.
    pub fn law_parameters(self) -> &'static [LawParameter] {
        match self {
            AlgorithmId::WuWang => &[LawParameter::Noise, LawParameter::Resample],
            _ => &[],
        }
    }

    /// An error unless every [`Self::law_parameters`] is given: an oracle's
    /// law must not rest on a default. `missing(p)` says how to name `p`
    /// when it is not given (in the caller's terms: a flag, a keyword), and
    /// is `None` when it is.
    pub fn require_law_parameters(
        self,
        missing: impl Fn(LawParameter) -> Option<&'static str>,
    ) -> Result<()> {
        let missing: Vec<&str> = self
            .law_parameters()
            .iter()
            .filter_map(|p| missing(*p))
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(Error::InvalidInput(format!(
            "{self}'s law depends on its noise and its resampling, which have no default here: name {}",
            missing.join(" and ")
        )))
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            AlgorithmId::Ftl => "ftl",
            AlgorithmId::NaiveFtnl => "naive-ftnl",
            AlgorithmId::HuRnmFtnl => "hu-rnm-ftnl",
            AlgorithmId::WuWang => "wu-wang",
            AlgorithmId::PrefixSoftmax => "prefix-softmax",
            AlgorithmId::Hedge => "hedge",
            AlgorithmId::DecreasingHedge => "decreasing-hedge",
        }
    }
}

/// A parameter with a default that changes an algorithm's law
/// ([`AlgorithmId::law_parameters`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LawParameter {
    /// The noise of the selection (`wu-wang`: Laplace by default).
    Noise,
    /// Bernoulli resampling of the losses (`wu-wang`: off by default).
    Resample,
}

impl fmt::Display for AlgorithmId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for AlgorithmId {
    type Err = Error;
    fn from_str(s: &str) -> Result<AlgorithmId> {
        AlgorithmId::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = AlgorithmId::ALL.iter().map(|a| a.name()).collect();
                Error::InvalidInput(format!(
                    "unknown algorithm '{s}' (expected one of {})",
                    names.join(", ")
                ))
            })
    }
}

/// Everything that configures an algorithm on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Which algorithm.
    pub id: AlgorithmId,
    /// The number of actions K ≥ 2.
    pub actions: usize,
    /// The privacy parameter ε > 0 the paper's default scale is derived from.
    pub epsilon: Q,
    /// `wu-wang` only: the noise (default Laplace).
    pub noise: Option<Noise>,
    /// Overrides the paper's default noise scale (for `prefix-softmax` and
    /// `hedge`, the temperature 1/η; for `decreasing-hedge`, `1/c`).
    pub noise_scale: Option<Q>,
    /// `wu-wang` only: Bernoulli resampling B = 1.
    pub resample: bool,
}

impl Config {
    /// A configuration with the paper's defaults.
    pub fn new(id: AlgorithmId, actions: usize, epsilon: Q) -> Config {
        Config {
            id,
            actions,
            epsilon,
            noise: None,
            noise_scale: None,
            resample: false,
        }
    }

    /// Check the configuration: K ≥ 2, ε > 0, a positive scale, and the
    /// wu-wang-only flags only with wu-wang.
    pub fn validate(&self) -> Result<()> {
        if self.actions < 2 {
            return Err(Error::InvalidInput(format!(
                "K must be at least 2, got {}",
                self.actions
            )));
        }
        if !self.epsilon.is_positive() {
            return Err(Error::InvalidInput(format!(
                "epsilon must be positive, got {}",
                self.epsilon
            )));
        }
        if let Some(s) = &self.noise_scale {
            if !s.is_positive() {
                return Err(Error::InvalidInput(format!(
                    "--noise-scale must be positive, got {s}"
                )));
            }
        }
        let parameters = [
            ("epsilon", Some(&self.epsilon)),
            ("--noise-scale", self.noise_scale.as_ref()),
        ];
        for (name, value) in parameters {
            if let Some(q) = value {
                check_parameter_bits(name, q)?;
            }
        }
        if self.id != AlgorithmId::WuWang && (self.noise.is_some() || self.resample) {
            return Err(Error::InvalidInput(format!(
                "--noise and --resample apply to wu-wang only, not to {}",
                self.id
            )));
        }
        if self.id == AlgorithmId::Ftl && self.noise_scale.is_some() {
            return Err(Error::InvalidInput("ftl has no noise to scale".into()));
        }
        Ok(())
    }

    /// An error unless ε and `1/b` (the noise scale `b`, when given) are at
    /// most `limit`, written `shown` in the message; `why` says what lies
    /// past it. The laws weigh `e^{−gap/b}`, `b = 1/ε` by default.
    pub fn check_reach(&self, limit: &Q, shown: &str, why: &str) -> Result<()> {
        if &self.epsilon > limit {
            return Err(Error::TooLarge(format!(
                "--epsilon {} is over the limit of {shown}: {why}",
                format_brief(&self.epsilon)
            )));
        }
        if let Some(b) = self.noise_scale.as_ref().filter(|b| &b.recip() > limit) {
            return Err(Error::TooLarge(format!(
                "--noise-scale {} is under the limit of 1/{shown}: {why}",
                format_brief(b)
            )));
        }
        Ok(())
    }
}
