//! The parameters of a certified pull law, built in one place for the
//! oracle ([`crate::oracle::bandit`]) and the exact privacy check
//! ([`crate::privacy::bandit::setup`]): the printed parameters of
//! Anytime-Lazy-UCB (Hu et al., 004 Algorithm 1), Hybrid-UCB (as inferred,
//! [`crate::bandit::policy::hybrid_ucb`]) or DP-SE (Sajed & Sheffet 2019) at ε and T, then the
//! given overrides, then checked ([`PullLaw::validate`]).

use super::anytime_lazy_ucb::LazyUcbParams;
use super::anytime_lazy_ucb_arms::LazyUcbArms;
use super::dp_se::{DpSeParams, DpSeVariant};
use super::dp_ucb::DpUcbParams;
use super::dp_ucb_bound::DpUcbBoundParams;
use super::dp_ucb_int::DpUcbIntParams;
use super::hybrid_ucb::HybridLawParams;
use super::PullLaw;
use crate::bandit::policy::dp_ts::BonusRound;
use crate::bandit::policy::BanditId;
use crate::error::{Error, Result};
use crate::num::Q;
use num_traits::Signed;

/// Overrides of the printed parameters (none: the printed ones).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    /// The Laplace scale (Hybrid-UCB, DP-UCB-Bound: the array blocks';
    /// DP-UCB-INT: the noise factor `b` of `b/n^{1 − v/2}`).
    pub scale: Option<Q>,
    /// Hybrid-UCB's tree p-sums' scale per level.
    pub tree_scale: Option<Q>,
    /// Hybrid-UCB: a factor > 0 on both scales (after the two above).
    pub scale_factor: Option<Q>,
    /// The constant of the bonus (Anytime-Lazy-UCB, Hybrid-UCB,
    /// DP-UCB-Bound).
    pub bonus: Option<Q>,
    /// DP-SE's epoch lengths R_1, R_2, … (the last repeats).
    pub lengths: Option<Vec<u64>>,
    /// DP-SE's reading of its open choices (δ, pull order, rounding).
    pub dp_se: DpSeVariant,
    /// DP-UCB's tree depth `L` (its node scale `L/ε` unless `scale` is
    /// given).
    pub tree_depth: Option<u32>,
    /// DP-TS's round whose `ln t` its bonus reads (read by its statistical
    /// audit; no law reads it).
    pub bonus_round: BonusRound,
}

impl Overrides {
    /// Refuse an override that the law of `id` does not read (`--bonus` of
    /// DP-SE, `--epoch-length` of a UCB), instead of ignoring it.
    pub fn refuse_unread(&self, id: BanditId) -> Result<()> {
        let given = [
            ("--tree-scale", self.tree_scale.is_some()),
            ("--scale-factor", self.scale_factor.is_some()),
            ("--bonus", self.bonus.is_some()),
            ("--epoch-length", self.lengths.is_some()),
            ("--tree-depth", self.tree_depth.is_some()),
            ("--bonus-round", self.bonus_round != BonusRound::default()),
        ];
        let read: &[&str] = match id {
            BanditId::DpSe => &["--epoch-length"],
            BanditId::DpUcb => &["--tree-depth"],
            BanditId::HybridUcb | BanditId::DpUcbBound => {
                &["--tree-scale", "--scale-factor", "--bonus"]
            }
            BanditId::DpTs => &["--tree-scale", "--scale-factor", "--bonus", "--bonus-round"],
            BanditId::DpUcbInt => &["--bonus"],
            BanditId::AnytimeLazyUcb | BanditId::LazyDpTs => &["--bonus"],
            _ => return Ok(()),
        };
        match given
            .iter()
            .find(|(flag, set)| *set && !read.contains(flag))
        {
            Some((flag, _)) => Err(Error::InvalidInput(format!(
                "{flag} does not apply to {id}"
            ))),
            None => Ok(()),
        }
    }
}

/// The parameters of a certified pull law, whichever algorithm it is.
#[derive(Clone, Debug)]
pub enum LawParams {
    /// Anytime-Lazy-UCB at K = 2 (the tree of windows).
    LazyUcb(LazyUcbParams),
    /// Anytime-Lazy-UCB at K ≥ 3 (polyhedra).
    LazyUcbArms(LazyUcbArms),
    /// Hybrid-UCB as inferred.
    Hybrid(HybridLawParams),
    /// DP-SE.
    DpSe(Box<DpSeParams>),
    /// DP-UCB.
    DpUcb(DpUcbParams),
    /// DP-UCB-Bound.
    DpUcbBound(DpUcbBoundParams),
    /// DP-UCB-INT.
    DpUcbInt(DpUcbIntParams),
}

impl LawParams {
    /// The parameters of `id` at `epsilon` for `arms` arms and `horizon`
    /// rounds: printed, then `overrides`, then checked. The caller checks
    /// that the law covers `arms` (K = 2, or `2 ≤ K ≤ T` for
    /// Anytime-Lazy-UCB).
    pub fn new(
        id: BanditId,
        epsilon: Q,
        horizon: usize,
        arms: usize,
        overrides: &Overrides,
    ) -> Result<LawParams> {
        overrides.refuse_unread(id)?;
        let set = |value: &mut Q, given: &Option<Q>| {
            if let Some(v) = given {
                *value = v.clone();
            }
        };
        if id != BanditId::DpSe && overrides.dp_se != DpSeVariant::default() {
            return Err(Error::InvalidInput(format!(
                "--beta, --pull-order, --rounding, --radius and --reward-index apply to dp-se only, not {id}"
            )));
        }
        let params = match id {
            BanditId::DpSe => {
                let mut params = DpSeParams::printed_as(epsilon, horizon, &overrides.dp_se)?;
                set(&mut params.scale, &overrides.scale);
                if let Some(lengths) = &overrides.lengths {
                    params.lengths = lengths.clone();
                    params.printed_lengths = false;
                }
                LawParams::DpSe(Box::new(params))
            }
            BanditId::HybridUcb => {
                let mut params = HybridLawParams::inferred(epsilon);
                set(&mut params.array_scale, &overrides.scale);
                set(&mut params.tree_scale, &overrides.tree_scale);
                set(&mut params.bonus, &overrides.bonus);
                if let Some(f) = positive_factor(overrides)? {
                    params.array_scale *= f;
                    params.tree_scale *= f;
                }
                LawParams::Hybrid(params)
            }
            BanditId::DpUcbBound => {
                let mut params = DpUcbBoundParams::printed(epsilon);
                set(&mut params.array_scale, &overrides.scale);
                set(&mut params.tree_scale, &overrides.tree_scale);
                set(&mut params.bonus, &overrides.bonus);
                if let Some(f) = positive_factor(overrides)? {
                    params = params.scaled(f);
                }
                LawParams::DpUcbBound(params)
            }
            BanditId::DpUcbInt => {
                let mut params = DpUcbIntParams::printed(epsilon);
                params.arms = arms;
                set(&mut params.noise_factor, &overrides.scale);
                set(&mut params.bonus, &overrides.bonus);
                LawParams::DpUcbInt(params)
            }
            BanditId::DpUcb => {
                let mut params = DpUcbParams::printed(epsilon, horizon);
                if let Some(depth) = overrides.tree_depth {
                    params.set_depth(depth)?;
                }
                set(&mut params.node_scale, &overrides.scale);
                set(&mut params.bonus, &overrides.bonus);
                LawParams::DpUcb(params)
            }
            BanditId::AnytimeLazyUcb => {
                let mut params = LazyUcbParams::printed(epsilon);
                set(&mut params.scale, &overrides.scale);
                set(&mut params.bonus, &overrides.bonus);
                if arms > 2 {
                    LawParams::LazyUcbArms(LazyUcbArms { params, arms })
                } else {
                    LawParams::LazyUcb(params)
                }
            }
            other => {
                return Err(Error::InvalidInput(format!(
                    "{other} has no certified law of its pulls (anytime-lazy-ucb, dp-se, dp-ucb, dp-ucb-bound, dp-ucb-int and hybrid-ucb have)"
                )))
            }
        };
        params.validate()?;
        Ok(params)
    }

    /// The Laplace scale in use (Hybrid-UCB, DP-UCB-Bound: the array
    /// blocks'; DP-UCB-INT: the noise factor `b` of `b/n^{1 − v/2}`).
    pub fn scale(&self) -> &Q {
        match self {
            LawParams::DpSe(params) => &params.scale,
            LawParams::LazyUcb(params) | LawParams::LazyUcbArms(LazyUcbArms { params, .. }) => {
                &params.scale
            }
            LawParams::Hybrid(params) => &params.array_scale,
            LawParams::DpUcb(params) => &params.node_scale,
            LawParams::DpUcbBound(params) => &params.array_scale,
            LawParams::DpUcbInt(params) => &params.noise_factor,
        }
    }

    /// [`PullLaw::neighbours_replace_an_entry`] of the law they are.
    pub fn neighbours_replace_an_entry(&self) -> bool {
        match self {
            LawParams::DpSe(l) => PullLaw::neighbours_replace_an_entry(&**l),
            LawParams::LazyUcb(l) => PullLaw::neighbours_replace_an_entry(l),
            LawParams::LazyUcbArms(l) => PullLaw::neighbours_replace_an_entry(l),
            LawParams::Hybrid(l) => PullLaw::neighbours_replace_an_entry(l),
            LawParams::DpUcb(l) => PullLaw::neighbours_replace_an_entry(l),
            LawParams::DpUcbBound(l) => PullLaw::neighbours_replace_an_entry(l),
            LawParams::DpUcbInt(l) => PullLaw::neighbours_replace_an_entry(l),
        }
    }

    /// Check the parameters ([`PullLaw::validate`] of the law they are).
    fn validate(&self) -> Result<()> {
        match self {
            LawParams::LazyUcb(l) => PullLaw::validate(l),
            LawParams::LazyUcbArms(l) => PullLaw::validate(l),
            LawParams::Hybrid(l) => PullLaw::validate(l),
            LawParams::DpSe(l) => PullLaw::validate(&**l),
            LawParams::DpUcb(l) => PullLaw::validate(l),
            LawParams::DpUcbBound(l) => PullLaw::validate(l),
            LawParams::DpUcbInt(l) => PullLaw::validate(l),
        }
    }
}

/// `--scale-factor`, checked positive.
fn positive_factor(overrides: &Overrides) -> Result<Option<&Q>> {
    match &overrides.scale_factor {
        Some(f) if !f.is_positive() => Err(Error::InvalidInput(format!(
            "--scale-factor must be positive, got {f}"
        ))),
        given => Ok(given.as_ref()),
    }
}

/// The Laplace scales and the bonus of Lazy-DP-TS, DP-TS or Hybrid-UCB, as
/// their statistical audit, their exact check and DP-TS's bounds resolve them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scales {
    /// The noise scale (Hybrid-UCB: the array blocks').
    pub scale: Q,
    /// Hybrid-UCB's per-level tree scale.
    pub tree_scale: Q,
    /// The bonus constant.
    pub bonus: Q,
}

impl Scales {
    /// The default noise scale of `id`: Hybrid-UCB's inferred `2/ε`,
    /// Lazy-DP-TS's printed `1/ε`
    /// (DP-TS's inferred `2/ε` too).
    pub fn default_scale(id: BanditId, epsilon: &Q) -> Result<Q> {
        if *epsilon <= Q::from_integer(0.into()) {
            return Err(Error::InvalidInput(format!(
                "--epsilon must be positive, got {epsilon}"
            )));
        }
        let numerator = if matches!(id, BanditId::HybridUcb | BanditId::DpTs) {
            2
        } else {
            1
        };
        Ok(Q::from_integer(numerator.into()) / epsilon)
    }

    /// The scales of `id` at `epsilon` from the values given (`None`: the
    /// default — the scale Hybrid-UCB's inferred `2/ε` or Lazy-DP-TS's
    /// printed `1/ε`, the tree scale the scale, the bonus 3); `factor`
    /// (positive) multiplies both scales, and excludes a tree scale given.
    pub fn resolve(
        id: BanditId,
        epsilon: &Q,
        scale: Option<Q>,
        tree_scale: Option<Q>,
        bonus: Option<Q>,
        factor: Option<Q>,
    ) -> Result<Scales> {
        if factor.is_some() && tree_scale.is_some() {
            return Err(Error::InvalidInput(format!(
                "--scale-factor multiplies both of {id}'s scales; it excludes --tree-scale"
            )));
        }
        let mut scale = match scale {
            Some(s) => s,
            None => Scales::default_scale(id, epsilon)?,
        };
        let mut tree_scale = tree_scale.unwrap_or_else(|| scale.clone());
        if let Some(f) = factor {
            if !num_traits::Signed::is_positive(&f) {
                return Err(Error::InvalidInput(format!(
                    "--scale-factor must be positive, got {f}"
                )));
            }
            scale *= &f;
            tree_scale *= &f;
        }
        Ok(Scales {
            scale,
            tree_scale,
            bonus: bonus.unwrap_or_else(|| {
                Q::from_integer(if id == BanditId::DpTs { 6 } else { 3 }.into())
            }),
        })
    }
}
