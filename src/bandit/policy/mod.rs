//! The private stochastic bandit algorithms of Hu et al. and their baselines
//! (DP-SE, AdaP-KLUCB, UCB1, Thompson sampling), and their f64 simulation.
//!
//! The bandit setting is not the full-information one of [`crate::algorithm`]:
//! in round `t` the learner pulls one arm `J_t` and sees only that arm's reward
//! `X_{J_t}(t) ∈ [0, 1]`. So the algorithms share a trait of their own,
//! [`Policy`], instead of `OnlineAlgorithm`.
//!
//! # The trait, and how it separates decisions from noise
//!
//! A policy is asked for a [`Pull`]: the arm of round `t` **and** the number of
//! consecutive rounds `t, t+1, …` at which that arm is pulled whatever the
//! rewards are (its *run*). Lazy algorithms know their runs in advance: between
//! two epoch ends of Anytime-Lazy-UCB no statistic changes except `ln t`, so the
//! argmax can only move at computable rounds ([`lazy_run`]); DP-SE pulls each
//! surviving arm a fixed number of times; AdaP-KLUCB plays an episode's arm
//! until its count doubles. The simulation engine ([`sim`]) then
//! draws the run's reward **sum** at once (a Binomial for Bernoulli rewards)
//! instead of stepping round by round. Per-round algorithms (Thompson sampling,
//! UCB1, Hybrid-UCB, DP-TS) return runs of length 1.
//!
//! Each algorithm keeps its deterministic decision rule (given the private
//! statistics, which arm) in plain functions of those statistics —
//! [`anytime_lazy_ucb::index`], [`lazy_dp_ts::beta_parameters`],
//! [`dp_ts::optimistic_mean`],
//! [`ucb1::index`], [`dp_se::radius`], [`hybrid_ucb::index`],
//! [`adap_klucb::index`] — and its
//! schedule ([`LazySchedule`], DP-SE's epoch lengths, Hybrid-UCB's blocks) apart
//! from the noise draws, which all go through [`laplace`] and [`beta`] on one
//! [`NoiseRng`]. The exact laws of the pull sequence ([`crate::bandit::law`])
//! reuse the schedules and decision rules and replace the draws.
//!
//! Every number the simulation produces is an f64 estimate and is labelled
//! approximate where it is printed.

pub mod adap_klucb;
pub mod anytime_lazy_ucb;
pub mod bounds;
pub mod dp_se;
pub mod dp_ts;
pub mod dp_ucb;
pub mod dp_ucb_bound;
pub mod dp_ucb_int;
pub mod experiment;
pub mod hybrid_ucb;
pub mod lazy;
pub mod lazy_dp_ts;
pub mod learner;
pub mod reading;
pub mod sim;
pub mod thompson;
pub mod ucb1;

pub use self::lazy::{lazy_run, LazyMeans, LazySchedule};
pub use self::learner::{
    argmax, beta, beta_argmax, each_once_then_argmax, laplace, NoiseRng, Policy, Pull,
};
pub use self::reading::Named;

use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// The algorithms, by command-line id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BanditId {
    /// Hu et al. 004 Algorithm 1.
    AnytimeLazyUcb,
    /// Hu et al. 004 Algorithm 3.
    LazyDpTs,
    /// Hu & Hegde (UAI 2022), DP-TS (inferred: see [`dp_ts`]).
    DpTs,
    /// Hu et al. 002 Appendix E, Algorithm 4 (rebuilt: see [`hybrid_ucb`]).
    HybridUcb,
    /// Sajed & Sheffet (2019), DP-SE.
    DpSe,
    /// Mishra & Thakurta (2015), DP-UCB: UCB on binary-mechanism sums.
    DpUcb,
    /// Tossou & Dimitrakakis (2016), DP-UCB-Bound: UCB on Hybrid-mechanism
    /// sums.
    DpUcbBound,
    /// Tossou & Dimitrakakis (2016), DP-UCB-INT: UCB with noisy means
    /// recomputed at intervals.
    DpUcbInt,
    /// Azize & Basu (2022), AdaP-KLUCB.
    AdapKlucb,
    /// UCB1 of Auer, Cesa-Bianchi & Fischer (2002), non-private.
    Ucb1,
    /// Thompson sampling with Beta priors, 004 Algorithm 2, non-private.
    Thompson,
}

impl BanditId {
    /// Every id: the private algorithms, then the non-private baselines.
    pub const ALL: [BanditId; 11] = [
        BanditId::AnytimeLazyUcb,
        BanditId::LazyDpTs,
        BanditId::DpTs,
        BanditId::HybridUcb,
        BanditId::DpSe,
        BanditId::DpUcb,
        BanditId::DpUcbBound,
        BanditId::DpUcbInt,
        BanditId::AdapKlucb,
        BanditId::Ucb1,
        BanditId::Thompson,
    ];

    /// The command-line id.
    pub fn name(self) -> &'static str {
        match self {
            BanditId::AnytimeLazyUcb => "anytime-lazy-ucb",
            BanditId::LazyDpTs => "lazy-dp-ts",
            BanditId::DpTs => "dp-ts",
            BanditId::HybridUcb => "hybrid-ucb",
            BanditId::DpSe => "dp-se",
            BanditId::DpUcb => "dp-ucb",
            BanditId::DpUcbBound => "dp-ucb-bound",
            BanditId::DpUcbInt => "dp-ucb-int",
            BanditId::AdapKlucb => "adap-klucb",
            BanditId::Ucb1 => "ucb1",
            BanditId::Thompson => "thompson",
        }
    }

    /// Whether the algorithm takes a privacy parameter ε.
    pub fn is_private(self) -> bool {
        !matches!(self, BanditId::Ucb1 | BanditId::Thompson)
    }

    /// Whether it needs the horizon T in advance (DP-SE's default β = 1/T,
    /// DP-UCB's tree of `⌈log₂ T⌉` levels).
    pub fn needs_horizon(self) -> bool {
        matches!(self, BanditId::DpSe | BanditId::DpUcb)
    }
}

impl fmt::Display for BanditId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BanditId {
    type Err = Error;
    fn from_str(s: &str) -> Result<BanditId> {
        let s = s.trim();
        BanditId::ALL
            .into_iter()
            .find(|id| id.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = BanditId::ALL.iter().map(|i| i.name()).collect();
                Error::InvalidInput(format!(
                    "unknown bandit algorithm '{s}' (known: {})",
                    names.join(", ")
                ))
            })
    }
}

/// One algorithm with its parameters: the papers' defaults, each overridable.
#[derive(Clone, Debug, PartialEq)]
pub struct BanditConfig {
    /// Which algorithm.
    pub id: BanditId,
    /// The privacy parameter ε (ignored by the non-private baselines).
    pub epsilon: f64,
    /// Overrides the Laplace scale of each noise variable (default: the
    /// paper's, e.g. `1/ε` for Algorithms 1 and 3).
    pub noise_scale: Option<f64>,
    /// Overrides the constant of the confidence terms (default: the paper's,
    /// 3 in 004's `√(3 ln t/O) + 3 ln t/(εO)`, 2 in UCB1's `√(2 ln n/n_j)`,
    /// α = 3.1 in AdaP-KLUCB's `α log t_ℓ/n`).
    pub bonus: Option<f64>,
    /// The failure probability: DP-SE's β (default `1/T`), DP-UCB's γ
    /// (default `1/10`).
    pub beta: Option<f64>,
    /// DP-SE only: the order of the pulls inside an epoch.
    pub pull_order: dp_se::PullOrder,
    /// DP-SE only: how its epoch lengths are made integers.
    pub rounding: dp_se::Rounding,
    /// DP-SE only: where its radius reads `R_e`.
    pub radius: dp_se::Radius,
    /// DP-UCB: the binary mechanism's depth `L` (default `⌈log₂ T⌉`; the node
    /// scale is `L/ε` unless `noise_scale` is given).
    pub tree_depth: Option<u32>,
    /// UCB1 only: how it chooses among arms of equal index.
    pub ties: ucb1::Ties,
    /// DP-TS only: the round whose `ln t` its bonus reads.
    pub bonus_round: dp_ts::BonusRound,
    /// UCB1 only: the round count whose logarithm its bonus reads
    /// (`--bonus-round` too).
    pub ucb1_bonus_round: ucb1::BonusRound,
}

/// `--bonus-round` `text` as each of `ids` that takes it reads it: UCB1's
/// [`ucb1::BonusRound`] and DP-TS's [`dp_ts::BonusRound`], each of them
/// set when `text` is one of its names, else its default. An error when
/// none of `ids` takes the flag or none that takes it knows the name.
pub fn bonus_rounds(
    text: Option<&str>,
    ids: &[BanditId],
) -> Result<(ucb1::BonusRound, dp_ts::BonusRound)> {
    let Some(text) = text else {
        return Ok(Default::default());
    };
    let ucb1 = ids
        .contains(&BanditId::Ucb1)
        .then(|| ucb1::BonusRound::parse(text));
    let dp_ts = ids
        .contains(&BanditId::DpTs)
        .then(|| dp_ts::BonusRound::parse(text));
    match (ucb1, dp_ts) {
        (None, None) => {
            let names: Vec<&str> = ids.iter().map(|id| id.name()).collect();
            Err(Error::InvalidInput(format!(
                "--bonus-round does not apply to {}: it acts on ucb1 and dp-ts only",
                names.join(", ")
            )))
        }
        (Some(Err(e)), None) | (None, Some(Err(e))) => Err(e),
        (Some(Err(_)), Some(Err(_))) => Err(Error::InvalidInput(format!(
            "--bonus-round expects one of plays, current (ucb1) or current, last-update (dp-ts), got '{}'",
            text.trim()
        ))),
        (ucb1, dp_ts) => Ok((
            ucb1.and_then(Result::ok).unwrap_or_default(),
            dp_ts.and_then(Result::ok).unwrap_or_default(),
        )),
    }
}

impl BanditConfig {
    /// The paper's defaults for `id` at `epsilon`.
    pub fn new(id: BanditId, epsilon: f64) -> BanditConfig {
        BanditConfig {
            id,
            epsilon,
            noise_scale: None,
            bonus: None,
            beta: None,
            pull_order: dp_se::PullOrder::default(),
            rounding: dp_se::Rounding::default(),
            radius: dp_se::Radius::default(),
            tree_depth: None,
            ties: ucb1::Ties::default(),
            bonus_round: dp_ts::BonusRound::default(),
            ucb1_bonus_round: ucb1::BonusRound::default(),
        }
    }

    /// Check the parameters (ε > 0 for the private ones, positive overrides).
    pub fn validate(&self) -> Result<()> {
        let positive = |name: &str, x: f64| {
            if x.is_finite() && x > 0.0 {
                Ok(())
            } else {
                Err(Error::InvalidInput(format!(
                    "{name} must be a positive number, got {x}"
                )))
            }
        };
        if self.id.is_private() {
            positive("--epsilon", self.epsilon)?;
        }
        if let Some(b) = self.noise_scale {
            positive("--noise-scale", b)?;
        }
        if let Some(c) = self.bonus {
            positive("--bonus", c)?;
        }
        if let Some(beta) = self.beta {
            if !(beta > 0.0 && beta < 1.0) {
                return Err(Error::InvalidInput(format!(
                    "--beta must lie in (0, 1), got {beta}"
                )));
            }
        }
        if let Some(depth) = self.tree_depth {
            crate::mechanism::counter::BinaryTree::new(depth).map_err(|_| {
                Error::InvalidInput(format!("--tree-depth must lie in 1..=63, got {depth}"))
            })?;
        }
        Ok(())
    }

    /// A fresh learner for `k` arms and horizon `horizon`.
    pub fn build(&self, k: usize, horizon: u64) -> Result<Box<dyn Policy>> {
        self.validate()?;
        if k < 2 {
            return Err(Error::InvalidInput(format!(
                "a bandit needs K ≥ 2 arms, got {k}"
            )));
        }
        let eps = self.epsilon;
        Ok(match self.id {
            BanditId::AnytimeLazyUcb => {
                let mut p = anytime_lazy_ucb::AnytimeLazyUcb::new(k, eps);
                override_opt(&mut p.means.noise_scale, self.noise_scale);
                override_opt(&mut p.means.bonus, self.bonus);
                Box::new(p)
            }
            BanditId::LazyDpTs => {
                let mut p = lazy_dp_ts::LazyDpTs::new(k, eps);
                override_opt(&mut p.means.noise_scale, self.noise_scale);
                override_opt(&mut p.means.bonus, self.bonus);
                Box::new(p)
            }
            BanditId::DpTs => {
                let mut p = dp_ts::DpTs::new(k, eps);
                // Both Hybrid-mechanism scales, as the audit's default tree scale follows it.
                override_opt(&mut p.array_scale, self.noise_scale);
                override_opt(&mut p.tree_scale, self.noise_scale);
                override_opt(&mut p.bonus, self.bonus);
                p.bonus_round = self.bonus_round;
                Box::new(p)
            }
            BanditId::HybridUcb => {
                let mut p = hybrid_ucb::HybridUcb::new(k, eps);
                override_opt(&mut p.array_scale, self.noise_scale);
                override_opt(&mut p.bonus, self.bonus);
                Box::new(p)
            }
            BanditId::DpSe => {
                let beta = self.beta.unwrap_or(1.0 / horizon.max(2) as f64);
                let mut p = dp_se::DpSe::with_variant(k, eps, beta, self.pull_order, self.rounding);
                override_opt(&mut p.noise_scale, self.noise_scale);
                p.radius = self.radius;
                Box::new(p)
            }
            BanditId::DpUcb => {
                let depth = self
                    .tree_depth
                    .unwrap_or_else(|| dp_ucb::printed_depth(horizon));
                let mut p = dp_ucb::DpUcb::with(k, eps, horizon, depth, self.beta.unwrap_or(0.1));
                override_opt(&mut p.node_scale, self.noise_scale);
                override_opt(&mut p.bonus, self.bonus);
                Box::new(p)
            }
            BanditId::DpUcbBound => {
                let mut p = dp_ucb_bound::DpUcbBound::new(k, eps);
                override_opt(&mut p.array_scale, self.noise_scale);
                override_opt(&mut p.bonus, self.bonus);
                Box::new(p)
            }
            BanditId::DpUcbInt => {
                let mut p = dp_ucb_int::DpUcbInt::new(k, eps);
                override_opt(&mut p.noise_factor, self.noise_scale);
                override_opt(&mut p.bonus, self.bonus);
                Box::new(p)
            }
            BanditId::AdapKlucb => {
                let mut p = adap_klucb::AdapKlucb::new(k, eps);
                override_opt(&mut p.noise_scale, self.noise_scale);
                override_opt(&mut p.alpha, self.bonus);
                Box::new(p)
            }
            BanditId::Ucb1 => {
                let mut p = ucb1::Ucb1::new(k);
                override_opt(&mut p.bonus, self.bonus);
                p.ties = self.ties;
                p.bonus_round = self.ucb1_bonus_round;
                Box::new(p)
            }
            BanditId::Thompson => Box::new(thompson::Thompson::new(k)),
        })
    }

    /// A short label: `anytime-lazy-ucb ε=1/4` (or the id alone).
    pub fn label(&self) -> String {
        if self.id.is_private() {
            format!("{} ε={}", self.id, self.epsilon)
        } else {
            self.id.to_string()
        }
    }
}

fn override_opt(slot: &mut f64, value: Option<f64>) {
    if let Some(v) = value {
        *slot = v;
    }
}
