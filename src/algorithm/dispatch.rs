//! One of the algorithms as one type ([`Algorithm`]), built from a
//! [`Config`], dispatching [`OnlineAlgorithm`] by `match`.

use super::hedge::{Hedge, LearningRate};
use super::{epoch_rnm, ftl, prefix_softmax, AlgorithmId, Choice, Config, OnlineAlgorithm};
use crate::error::{Error, Result};
use crate::mechanism::MAX_FORCED_NATS;
use crate::num::{Real, Q};
use rand::Rng;

impl Config {
    /// Build the algorithm, for its exact or certified laws: besides
    /// [`Config::validate`], ε and `1/b` (a noise scale `b`) at most
    /// [`MAX_FORCED_NATS`] (`2^24`). The laws weigh `e^{−gap/b}` with
    /// `b = 1/ε` by default and are compared with `e^ε`: `ε = 10^6` prints
    /// `e^{10^6}` in seconds, but past `e^{2^24}` (about `10^{7286252}`) the
    /// decimals take integers of tens of millions of bits, and `ε = 10^18`
    /// asked for petabytes.
    pub fn build(&self) -> Result<Algorithm> {
        self.validate()?;
        self.check_reach(
            &Q::from_integer(MAX_FORCED_NATS.into()),
            &MAX_FORCED_NATS.to_string(),
            "the laws weigh e^(-gap/b) (b = 1/ε by default) and are compared with e^ε, numbers past e^(±16777216) (about 10^±7286252), whose decimals cannot be written in reasonable time or memory",
        )?;
        Ok(match self.id {
            AlgorithmId::Ftl => Algorithm::Ftl(ftl::Ftl::new(self.actions)),
            AlgorithmId::PrefixSoftmax => {
                Algorithm::PrefixSoftmax(prefix_softmax::PrefixSoftmax::new(
                    self.actions,
                    &self.epsilon,
                    self.noise_scale.clone(),
                )?)
            }
            AlgorithmId::Hedge => Algorithm::Hedge(Hedge::new(
                self.actions,
                LearningRate::Constant(
                    self.noise_scale
                        .clone()
                        .unwrap_or_else(|| self.epsilon.recip()),
                ),
            )?),
            AlgorithmId::DecreasingHedge => Algorithm::Hedge(Hedge::new(
                self.actions,
                LearningRate::Decreasing(
                    self.noise_scale
                        .clone()
                        .unwrap_or_else(|| Q::new(1.into(), 2.into())),
                ),
            )?),
            _ => Algorithm::EpochRnm(epoch_rnm::EpochRnm::from_config(self)?),
        })
    }

    /// The configuration whose noise scale is `factor > 0` times the
    /// paper's default at its ε (for prefix-softmax and hedge, the
    /// temperature 1/η; for decreasing-hedge, `1/c`);
    /// an error for ftl, which has no noise.
    pub fn scaled(self, factor: &Q) -> Result<Config> {
        if !num_traits::Signed::is_positive(factor) {
            return Err(Error::InvalidInput(format!(
                "--scale-factor must be positive, got {factor}"
            )));
        }
        let default = match self.build()? {
            Algorithm::EpochRnm(a) => a.scale().clone(),
            Algorithm::PrefixSoftmax(a) => a.eta().recip(),
            Algorithm::Hedge(a) => a.noise_scale().clone(),
            Algorithm::Ftl(_) => {
                return Err(Error::InvalidInput("ftl has no noise to scale".into()))
            }
        };
        Ok(Config {
            noise_scale: Some(default * factor),
            ..self
        })
    }
}

/// One of the algorithms, ready to run (dispatches the trait by `match`).
#[derive(Clone, Debug)]
pub enum Algorithm {
    /// `ftl`.
    Ftl(ftl::Ftl),
    /// `naive-ftnl`, `hu-rnm-ftnl`, `wu-wang`.
    EpochRnm(epoch_rnm::EpochRnm),
    /// `prefix-softmax`.
    PrefixSoftmax(prefix_softmax::PrefixSoftmax),
    /// `hedge`, `decreasing-hedge`.
    Hedge(Hedge),
}

macro_rules! dispatch {
    ($self:expr, $a:ident => $body:expr) => {
        match $self {
            Algorithm::Ftl($a) => $body,
            Algorithm::EpochRnm($a) => $body,
            Algorithm::PrefixSoftmax($a) => $body,
            Algorithm::Hedge($a) => $body,
        }
    };
}

impl OnlineAlgorithm for Algorithm {
    fn actions(&self) -> usize {
        dispatch!(self, a => a.actions())
    }

    fn schedule(&self, horizon: usize) -> Vec<Choice> {
        dispatch!(self, a => a.schedule(horizon))
    }

    fn choice_law<R: Real>(
        &self,
        index: usize,
        choice: &Choice,
        window: &[Vec<Q>],
        ctx: &R::Context,
    ) -> Result<Vec<R>> {
        dispatch!(self, a => a.choice_law::<R>(index, choice, window, ctx))
    }

    fn choice_cost(&self, index: usize, choice: &Choice, window: &[Vec<Q>]) -> u128 {
        dispatch!(self, a => a.choice_cost(index, choice, window))
    }

    fn sample<G: Rng + ?Sized>(&self, losses: &[Vec<f64>], rng: &mut G) -> Vec<usize> {
        dispatch!(self, a => a.sample(losses, rng))
    }
}
