//! The oracle for bandit implementations: the law of a bandit algorithm's
//! pull sequence on a fixed reward table, seeded reference samples of it,
//! and the goodness-of-fit of anyone's pull sequences against it.
//!
//! # The contract a tested implementation follows
//!
//! The input is a reward table `x`, `T` rows of `K` rewards in `[0, 1]`:
//! row `t` (rounds from 1) holds every arm's reward in round `t`. At round
//! `t` the learner pulls `a_t` and sees `x[t][a_t]` only, before choosing
//! `a_{t+1}`; the other arms' rewards of that round are never shown. The
//! randomness is the algorithm's own noise, so the pull sequence
//! `a = (a_1 … a_T)` has a law `P(a | x)` that every correct implementation
//! reading the same table reproduces ([`crate::bandit::law`]). Arms are
//! 0-based in the library; files and the command line state their base.
//!
//! # What is exact, certified or refused
//!
//! - Anytime-Lazy-UCB (Hu, Huang, Mehta & Hegde, arXiv:2102.07929,
//!   Algorithm 1): K = 2 by the tree of windows
//!   ([`crate::bandit::law::anytime_lazy_ucb`]), any `2 ≤ K ≤ T` by the
//!   Laplace measure of a polyhedron
//!   ([`crate::bandit::law::anytime_lazy_ucb_arms`]);
//! - DP-SE (Sajed & Sheffet, arXiv:1905.09383), K = 2
//!   ([`crate::bandit::law::dp_se`]);
//! - Hybrid-UCB as inferred ([`crate::bandit::law::hybrid_ucb`]), K = 2;
//! - UCB1 (Auer, Cesa-Bianchi & Fischer 2002), non-private, exact
//!   ([`crate::bandit::law::ucb1`], each comparison of two indices decided
//!   exactly): with ties to the lowest arm (`--ties lowest`) deterministic
//!   given the table, its law a point mass; with ties drawn uniformly among
//!   the maximal indices, unplayed arms' `+∞` included (`--ties uniform`),
//!   a finite tree of rational probabilities; with each arm once in order,
//!   then ties to the highest arm (`--ties highest`), a point mass again;
//!   with each arm once in order, then ties drawn uniformly among the
//!   maximal indices (`--ties ordered-uniform`), a tree again;
//!   its bonus reading `ln n` of the plays so far, `n = t − 1` (default,
//!   `--bonus-round plays`), or `ln t` of the current round
//!   (`--bonus-round current`).
//!
//! The law is computed in the exact backend when every probability it needs
//! is rational (a table too short for a threshold to be consulted), else
//! certified: interval arithmetic at 192 bits, the precision doubled (up to
//! 4096) while a cut point is unresolved or a probability is not enclosed to
//! 42 significant digits.
//!
//! **Lazy-DP-TS** (the same paper, Algorithm 3) is refused: given the
//! private means, a round's pull is the argmax of K independent
//! `Beta(μ̄O + 1, (1 − μ̄)O + 1)` draws whose parameters depend on the
//! Laplace noise continuously (through `μ̄ = Clip(μ̃ + 3 ln t/(εO))`), so
//! `P(a | x)` integrates an incomplete-beta expression with non-integer
//! parameters against Laplace densities. There is no closed form, and no
//! rigorous (error-bounded) quadrature of it is implemented here, so no
//! exact or certified law exists to test against: [`simulate`] plays the
//! library's own policy on the table, and [`super::two_sample`] holds a
//! user's pull sequences against it, a test labelled as two-sample. Thompson sampling (non-private)
//! is not covered either: its pulls compare Beta draws whose parameters are
//! the reward sums, an incomplete-beta law with non-integer parameters on a
//! table of fractional rewards. AdaP-KLUCB is not covered.

//!
//! ```
//! use dpdtol::bandit::policy::BanditId;
//! use dpdtol::num::Q;
//! use dpdtol::oracle::bandit::{gof, sample, BanditSpec, BanditTarget};
//! let q = |n: i64, d: i64| Q::new(n.into(), d.into());
//! // T = 4 rounds of K = 2 rewards; Anytime-Lazy-UCB at ε = 1 as printed.
//! let rewards = vec![vec![q(1, 4), q(3, 4)], vec![q(1, 1), q(0, 1)], vec![q(1, 2), q(1, 2)], vec![q(0, 1), q(1, 1)]];
//! let target = BanditTarget::new(BanditSpec::new(BanditId::AnytimeLazyUcb, q(1, 1)), rewards).unwrap();
//! let law = target.law(false).unwrap();
//! let (lo, hi) = law.total();
//! assert!(lo <= q(1, 1) && q(1, 1) <= hi);
//! // Line 2 pulls arm 0 then arm 1: a sequence starting with arm 1 is impossible.
//! assert_eq!(law.probability(&[1, 0, 0, 0]).unwrap().hi, q(0, 1));
//! let samples = sample(&law, 2000, 7, false).unwrap();
//! assert!(!gof(&law, &samples, &Default::default()).unwrap().reject);
//! ```

use super::drive::drive;
use super::gof::{
    chi_square_test, tests_run, ChiSquareTest, Departure, GofOptions, SupportViolation,
};
use super::law::{check_neighbouring, Enclosed};
use super::sample::{check_values, try_sample_with, Categorical, Samples};
use crate::bandit::law::dp_se::{DpSeParams, DpSeVariant};
use crate::bandit::law::params::{LawParams, Overrides};
use crate::bandit::law::{counted_law, PullLaw, PRECISIONS, WORK_UNIT};
use crate::bandit::policy::dp_se::PullOrder;
use crate::bandit::policy::dp_ts::BonusRound;
use crate::bandit::policy::ucb1::{self, Ties};
use crate::bandit::policy::Named;
use crate::bandit::policy::{BanditConfig, BanditId};
use crate::error::{Error, Result};
use crate::num::{Certified, Exact, Kind, Precision, Real, Q};
use crate::progress::{with_progress, Task};
use num_traits::{One, Signed, Zero};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The most closed-form integrations a law costs without `force`
/// ([`PullLaw::integrations`]: one a pull sequence, for DP-SE one an epoch
/// end of each).
pub const MAX_SEQUENCES: u64 = 1 << 16;

/// The most work a law (or UCB1's pulls) costs without `force`.
pub use crate::bandit::law::MAX_WORK;

/// Whether the oracle has the exact or certified law of `id`'s pulls (the
/// algorithms `law`, `sample`, `gof` and `audit` take on a reward table).
pub fn has_law(id: BanditId) -> bool {
    matches!(
        id,
        BanditId::AnytimeLazyUcb
            | BanditId::DpSe
            | BanditId::DpUcb
            | BanditId::DpUcbBound
            | BanditId::DpUcbInt
            | BanditId::HybridUcb
            | BanditId::Ucb1
            | BanditId::Thompson
    )
}

/// Whether the oracle has certified *bounds* on the law of `id`'s pulls,
/// not the law itself ([`law_bounds`]): DP-TS and Lazy-DP-TS.
pub fn has_bounds(id: BanditId) -> bool {
    matches!(id, BanditId::DpTs | BanditId::LazyDpTs)
}

/// The most pull sequences [`law_bounds`] bounds without `force`: K = 2,
/// T = 6 takes about 3 s (release).
pub const MAX_BOUNDED_SEQUENCES: u64 = 1 << 4;

/// Certified bounds on the law of DP-TS or Lazy-DP-TS on `rewards`
/// ([`crate::bandit::law::dp_ts`]): `(pulls, lo, hi)` for every pull
/// sequence whose first K rounds pull the arms in order, and the precision
/// in bits. Refused past [`MAX_BOUNDED_SEQUENCES`] unless `force`.
pub fn law_bounds(spec: &BanditSpec, rewards: &[Vec<Q>], force: bool) -> Result<LawBounds> {
    use crate::bandit::law::dp_ts::{self, PrivateThompson};
    check_reward_table(rewards)?;
    spec.check_applicable()?;
    let (arms, horizon) = (rewards[0].len(), rewards.len());
    let law = PrivateThompson::of(spec.id, arms, spec.epsilon.clone(), &spec.overrides())?;
    let count = crate::bandit::law::anytime_lazy_ucb::pull_sequence_count(arms, arms, horizon);
    if !force && count.is_none_or(|n| n > MAX_BOUNDED_SEQUENCES) {
        return Err(Error::TooLarge(format!(
            "the bounds on {}'s law cover {} pull sequences, above {MAX_BOUNDED_SEQUENCES} (each a sum over the cells of its draws, which grow with T): pass --force to compute them",
            spec.id,
            count.map_or("more than 2^64".into(), |n| n.to_string())
        )));
    }
    crate::size::table(
        "the bounds' pull sequences, (T + 16) words each",
        count.map(|n| u128::from(n) * (horizon as u128 + 16)),
        8,
    )?;
    let (entries, precision_bits) =
        dp_ts::certified(|bits| dp_ts::law_bounds::<_, Certified>(&law, rewards, bits))?;
    Ok(LawBounds {
        law,
        entries,
        precision_bits,
    })
}

/// Certified bounds on a law ([`law_bounds`]).
#[derive(Clone, Debug)]
pub struct LawBounds {
    /// The law bounded.
    pub law: crate::bandit::law::dp_ts::PrivateThompson,
    /// `(pulls, lo, hi)`, pulls 0-based.
    pub entries: Vec<(Vec<usize>, Certified, Certified)>,
    /// The precision of the certified arithmetic, in bits.
    pub precision_bits: u32,
}

/// Whether `gof` tests samples of `id` by a two-sample test against the
/// library's own simulation ([`simulate`]), for want of a law.
pub fn has_two_sample_test(id: BanditId) -> bool {
    matches!(id, BanditId::LazyDpTs | BanditId::DpTs)
}

/// The refusal of `--explain` (`explain=True`) for `id`, an algorithm
/// tested by the two-sample test: without a law there is no reading's law
/// to test the samples against.
pub fn explain_two_sample(id: BanditId) -> Error {
    Error::InvalidInput(format!(
        "--explain does not apply to {id}: its gof is a two-sample test against dpdtol's simulation, with no law whose readings could be tried"
    ))
}

/// A bandit algorithm with its parameters, as `dpdtol privacy` takes them:
/// the papers' defaults, each overridable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BanditSpec {
    /// Which algorithm.
    pub id: BanditId,
    /// The privacy parameter ε > 0 (ignored by the non-private `ucb1`).
    pub epsilon: Q,
    /// The Laplace scale of the noise (default: the paper's, `1/ε`; for
    /// Hybrid-UCB the array blocks' `2/ε`).
    pub noise_scale: Option<Q>,
    /// DP-SE: the epoch lengths `R_1, R_2, …` (the last repeats; default
    /// the printed ones).
    pub epoch_lengths: Option<Vec<u64>>,
    /// Hybrid-UCB and DP-UCB-Bound: the tree p-sums' per-level scale
    /// (default `2/ε`).
    pub tree_scale: Option<Q>,
    /// Hybrid-UCB and DP-UCB-Bound: a factor on both of their scales.
    pub scale_factor: Option<Q>,
    /// Anytime-Lazy-UCB and Hybrid-UCB: the constant 3 of the bonus; UCB1:
    /// its constant 2.
    pub bonus: Option<Q>,
    /// DP-UCB: the binary mechanism's depth `L` (default `⌈log₂ T⌉`).
    pub tree_depth: Option<u32>,
    /// DP-SE: its reading of the choices its pseudo-code leaves open (δ,
    /// the pull order inside an epoch, the rounding of `R_e`).
    pub dp_se: DpSeVariant,
    /// UCB1: how it chooses among arms of equal index.
    pub ties: Ties,
    /// DP-TS: the round whose `ln t` its bonus reads.
    pub bonus_round: BonusRound,
    /// UCB1: the round count whose logarithm its bonus reads.
    pub ucb1_bonus_round: ucb1::BonusRound,
}

impl BanditSpec {
    /// The parameters given, as overrides of the printed ones.
    fn overrides(&self) -> Overrides {
        Overrides {
            scale: self.noise_scale.clone(),
            tree_scale: self.tree_scale.clone(),
            scale_factor: self.scale_factor.clone(),
            bonus: self.bonus.clone(),
            lengths: self.epoch_lengths.clone(),
            dp_se: self.dp_se.clone(),
            tree_depth: self.tree_depth,
            bonus_round: self.bonus_round,
        }
    }

    /// `id` at `epsilon` with the papers' defaults.
    pub fn new(id: BanditId, epsilon: Q) -> BanditSpec {
        BanditSpec {
            id,
            epsilon,
            noise_scale: None,
            epoch_lengths: None,
            tree_scale: None,
            scale_factor: None,
            bonus: None,
            tree_depth: None,
            dp_se: DpSeVariant::default(),
            ties: Ties::default(),
            bonus_round: BonusRound::default(),
            ucb1_bonus_round: ucb1::BonusRound::default(),
        }
    }

    /// An error for a private algorithm's ε ≤ 0, or naming the first
    /// override that does not apply to the algorithm.
    fn check_applicable(&self) -> Result<()> {
        let id = self.id;
        if id.is_private() && !self.epsilon.is_positive() {
            return Err(Error::InvalidInput(format!(
                "--epsilon must be positive, got {}",
                self.epsilon
            )));
        }
        let hybrid = id == BanditId::HybridUcb;
        let two_scales = hybrid || id == BanditId::DpUcbBound;
        for (flag, given) in [
            (
                "--epoch-length",
                self.epoch_lengths.is_some() && id != BanditId::DpSe,
            ),
            ("--tree-scale", self.tree_scale.is_some() && !two_scales),
            ("--scale-factor", self.scale_factor.is_some() && !two_scales),
            ("--bonus", self.bonus.is_some() && id == BanditId::DpSe),
            (
                "--tree-depth",
                self.tree_depth.is_some() && id != BanditId::DpUcb,
            ),
            (
                "--ties",
                self.ties != Ties::default() && id != BanditId::Ucb1,
            ),
            (
                "--beta, --pull-order, --rounding, --radius or --reward-index",
                self.dp_se != DpSeVariant::default() && id != BanditId::DpSe,
            ),
            (
                "--bonus-round",
                self.bonus_round != BonusRound::default() && id != BanditId::DpTs,
            ),
            (
                "--bonus-round",
                self.ucb1_bonus_round != ucb1::BonusRound::default() && id != BanditId::Ucb1,
            ),
        ] {
            if given {
                return Err(Error::InvalidInput(format!(
                    "{flag} does not apply to {id}"
                )));
            }
        }
        if hybrid && self.scale_factor.is_some() && self.tree_scale.is_some() {
            return Err(Error::InvalidInput(
                "--scale-factor multiplies both of hybrid-ucb's scales; it excludes --tree-scale"
                    .into(),
            ));
        }
        Ok(())
    }
}

/// The law of an algorithm with one, its parameters built.
#[derive(Clone, Debug)]
enum Law {
    /// UCB1 with its bonus constant and its readings of ties and of the
    /// round its logarithm reads: deterministic given the table with ties
    /// to the lowest arm.
    Ucb1 {
        /// The constant 2 of the bonus.
        bonus: Q,
        /// How ties are broken.
        ties: Ties,
        /// The round count whose logarithm the bonus reads.
        bonus_round: ucb1::BonusRound,
    },
    /// Thompson sampling with Beta(1, 1) priors on rewards 0 and 1: a tree
    /// of rational pull probabilities.
    Thompson,
    /// An algorithm whose noise makes the pulls random.
    Noisy(Box<LawParams>),
}

impl Law {
    /// The parameters of `spec` for `arms` arms and `horizon` rounds.
    fn of(spec: &BanditSpec, arms: usize, horizon: usize) -> Result<Law> {
        spec.check_applicable()?;
        let id = spec.id;
        let epsilon = spec.epsilon.clone();
        match id {
            BanditId::LazyDpTs => {
                return Err(Error::InvalidInput(
                    "lazy-dp-ts has no exact or certified law, only certified bounds on it (dpdtol law): a pull is the argmax of Beta draws whose parameters move continuously with the Laplace noise, an incomplete-beta integral with no closed form (gof tests it against dpdtol's own simulation; its privacy: dpdtol privacy --algorithm lazy-dp-ts, --method bounds for the certified check)".into(),
                ))
            }
            BanditId::DpTs => {
                return Err(Error::InvalidInput(
                    "dp-ts has no exact or certified law, only certified bounds on it (dpdtol law): a pull is the argmax of Beta draws whose parameters move continuously with the hybrid mechanism's Laplace noise (a sum of Laplace terms in each mean), an incomplete-beta integral with no closed form (gof tests it against dpdtol's own simulation; its privacy: dpdtol privacy --algorithm dp-ts, --method bounds for the certified check)".into(),
                ))
            }
            other if !has_law(other) => {
                let covered: Vec<&str> = BanditId::ALL
                    .into_iter()
                    .filter(|&id| has_law(id))
                    .map(BanditId::name)
                    .collect();
                return Err(Error::InvalidInput(format!(
                    "the bandit oracle covers {} only, not {other}",
                    covered.join(", ")
                )));
            }
            _ => {}
        }
        if !matches!(
            id,
            BanditId::AnytimeLazyUcb | BanditId::DpUcbInt | BanditId::Ucb1 | BanditId::Thompson
        ) && arms != 2
        {
            return Err(Error::InvalidInput(format!(
                "the law of {id}'s pulls is implemented for K = 2 arms, the reward table has {arms}"
            )));
        }
        if id == BanditId::Thompson {
            if arms < 2 {
                return Err(Error::InvalidInput(format!(
                    "a reward table of K = {arms} arms: thompson's law needs K ≥ 2"
                )));
            }
            if let Some(flag) = [
                ("--noise-scale", spec.noise_scale.is_some()),
                ("--bonus", spec.bonus.is_some()),
            ]
            .iter()
            .find_map(|&(flag, given)| given.then_some(flag))
            {
                return Err(Error::InvalidInput(format!(
                    "{flag} does not apply to thompson (it draws from Beta posteriors, with no noise or bonus)"
                )));
            }
            return Ok(Law::Thompson);
        }
        if !(2..=horizon.max(2)).contains(&arms) || horizon < arms {
            return Err(Error::InvalidInput(format!(
                "a reward table of K = {arms} arms needs 2 ≤ K ≤ T rounds (the first K rounds pull each arm once), it has T = {horizon}"
            )));
        }
        if id == BanditId::Ucb1 {
            let bonus = spec
                .bonus
                .clone()
                .unwrap_or_else(|| Q::from_integer(2.into()));
            if spec.noise_scale.is_some() {
                return Err(Error::InvalidInput(
                    "--noise-scale does not apply to ucb1 (it draws no noise)".into(),
                ));
            }
            if !bonus.is_positive() {
                return Err(Error::InvalidInput(format!(
                    "--bonus must be positive, got {bonus}"
                )));
            }
            return Ok(Law::Ucb1 {
                bonus,
                ties: spec.ties,
                bonus_round: spec.ucb1_bonus_round,
            });
        }
        let law = LawParams::new(id, epsilon, horizon, arms, &spec.overrides())?;
        Ok(Law::Noisy(Box::new(law)))
    }
}

impl LawParams {
    /// Why the certified law is not exact.
    fn why_not_exact(&self) -> &'static str {
        match self {
            LawParams::LazyUcb(_) | LawParams::LazyUcbArms(_) => {
                "the thresholds √(3 ln t/O) + 3 ln t/(εO) of line 4 are transcendental"
            }
            LawParams::Hybrid(_) => {
                "the thresholds √(3 ln t/n) + 3 ln t·B(n)/n of index (35) are transcendental"
            }
            LawParams::DpUcb(_) => {
                "the thresholds √(2 ln(t − 1)/n) + Γ/n of line 7, Γ = K ln²T · ln(K T ln T/γ)/ε, are transcendental"
            }
            LawParams::DpUcbBound(_) => {
                "the thresholds √(2 ln(t − 1)/n) + ν/n of Algorithm 1, ν = √8 ln(4(t − 1)^4)/ε · (ln n + 1), are transcendental"
            }
            LawParams::DpUcbInt(_) => crate::bandit::law::dp_ucb_int::WHY_NOT_EXACT,
            LawParams::DpSe(_) => {
                "the elimination radius 2c_e = 2√(ln(16e²/β)/(2R_e)) + 2 ln(8e²/β)/(εR_e) is transcendental"
            }
        }
    }

    /// `f` of the law's parameters, whichever they are.
    fn with<T>(&self, f: impl LawFn<T>) -> T {
        match self {
            LawParams::LazyUcb(l) => f.call(l),
            LawParams::LazyUcbArms(l) => f.call(l),
            LawParams::Hybrid(l) => f.call(l),
            LawParams::DpUcb(l) => f.call(l),
            LawParams::DpUcbBound(l) => f.call(l),
            LawParams::DpUcbInt(l) => f.call(l),
            LawParams::DpSe(l) => f.call(&**l),
        }
    }
}

/// A function of any [`PullLaw`] (a closure cannot be generic).
trait LawFn<T> {
    fn call<L: PullLaw>(self, law: &L) -> T;
}

/// The pulls' law computed on `rewards`: exact when the exact backend can,
/// else certified.
struct Computed {
    entries: Vec<(Vec<usize>, Enclosed)>,
    precision_bits: Option<u32>,
    digits_certain: bool,
}

/// The relative width a certified probability is computed to: `10^{−42}`,
/// two digits beyond the 40 the reports print.
fn certain(p: &Enclosed) -> bool {
    let width = &p.hi - &p.lo;
    width.is_zero() || width * Q::from_integer(num_bigint::BigInt::from(10).pow(42)) <= p.lo
}

/// [`LawFn`] that computes the law on a table.
struct Compute<'a> {
    rewards: &'a [Vec<Q>],
    force: bool,
}

impl LawFn<Result<Computed>> for Compute<'_> {
    fn call<L: PullLaw>(self, params: &L) -> Result<Computed> {
        let horizon = self.rewards.len();
        let count = params.integrations(horizon);
        let limit = MAX_SEQUENCES.min(params.max_laws());
        let what = format!(
            "{}'s law on T = {horizon} rounds: its closed-form integrations",
            params.name()
        );
        let count = count.ok_or_else(|| {
            Error::TooLarge(format!("{what}: over 2^64, which --force does not lift"))
        })?;
        crate::size::work(&what, Some(count.into()), limit.into(), self.force)?;
        let work = format!(
            "{}'s law on T = {horizon} rounds of K = {} arms: its estimated {WORK_UNIT}",
            params.name(),
            params.arms()
        );
        crate::size::work(&work, params.work(horizon), MAX_WORK, self.force)?;
        // The list of candidate sequences and their probabilities is held.
        let cells = params
            .sequence_count(horizon)
            .and_then(|n| u128::from(n).checked_mul(horizon as u128 + 8));
        crate::size::table("the law's pull sequences, T + 8 words each", cells, 8)?;
        // A bar on stderr when the law takes long (each precision a pass).
        let task = Task {
            name: "law",
            unit: "pull sequences",
        };
        with_progress(true, task, count, |progress| {
            if let Ok(law) = counted_law::<Exact>(params, self.rewards, &(), progress) {
                return Ok(Computed {
                    entries: enclosed(law)?,
                    precision_bits: None,
                    digits_certain: true,
                });
            }
            let mut bits = PRECISIONS.0;
            loop {
                let last = bits >= PRECISIONS.1;
                match counted_law::<Certified>(params, self.rewards, &Precision(bits), progress) {
                    Err(Error::Domain(_)) if !last => {}
                    Err(e) => return Err(e),
                    Ok(law) => {
                        let entries = enclosed(law)?;
                        let digits_certain = entries.iter().all(|(_, p)| certain(p));
                        if digits_certain || last {
                            return Ok(Computed {
                                entries,
                                precision_bits: Some(bits),
                                digits_certain,
                            });
                        }
                    }
                }
                bits = (bits * 2).min(PRECISIONS.1);
            }
        })
    }
}

/// `(pulls, P)` with `P` as an [`Enclosed`].
fn enclosed<R: Real>(law: Vec<(Vec<usize>, R)>) -> Result<Vec<(Vec<usize>, Enclosed)>> {
    law.into_iter()
        .map(|(a, p)| Ok((a, Enclosed::of(&p)?)))
        .collect()
}

/// The law of UCB1's pulls on `rewards` ([`crate::bandit::law::ucb1`]:
/// every comparison of two indices decided exactly, the probabilities
/// exact), the rounds counted on a progress bar; refused past
/// [`MAX_WORK`], or with ties drawn uniformly past [`MAX_SEQUENCES`] pull
/// sequences, unless `force`.
fn ucb1_law(
    rewards: &[Vec<Q>],
    bonus: &Q,
    ties: Ties,
    bonus_round: ucb1::BonusRound,
    force: bool,
) -> Result<Vec<(Vec<usize>, Enclosed)>> {
    let task = Task {
        name: "ucb1",
        unit: "rounds",
    };
    let law = with_progress(true, task, rewards.len() as u64, |progress| {
        crate::bandit::law::ucb1::counted_law(
            rewards,
            bonus,
            ties,
            bonus_round,
            MAX_SEQUENCES,
            force,
            progress,
        )
    })?;
    Ok(law
        .into_iter()
        .map(|(pulls, p)| (pulls, Enclosed::exactly(p)))
        .collect())
}

/// The law of Thompson sampling's pulls on `rewards` of 0s and 1s
/// ([`crate::bandit::law::thompson`]: every probability rational), the
/// rounds counted on a progress bar; refused past [`MAX_SEQUENCES`] pull
/// sequences unless `force`.
fn thompson_law(rewards: &[Vec<Q>], force: bool) -> Result<Vec<(Vec<usize>, Enclosed)>> {
    let task = Task {
        name: "thompson",
        unit: "rounds",
    };
    let law = with_progress(true, task, rewards.len() as u64, |progress| {
        crate::bandit::law::thompson::counted_law(rewards, MAX_SEQUENCES, force, progress)
    })?;
    Ok(law
        .into_iter()
        .map(|(pulls, p)| (pulls, Enclosed::exactly(p)))
        .collect())
}

/// A bandit algorithm on a reward table: what [`BanditTarget::law`],
/// [`sample`] and [`gof`] answer about.
#[derive(Clone, Debug)]
pub struct BanditTarget {
    spec: BanditSpec,
    law: Law,
    rewards: Vec<Vec<Q>>,
}

/// An error unless `rewards` is a table of `T ≥ 1` rows of the same width,
/// every entry in `[0, 1]`.
pub fn check_reward_table(rewards: &[Vec<Q>]) -> Result<()> {
    let width = rewards
        .first()
        .map(Vec::len)
        .ok_or_else(|| Error::InvalidInput("the reward table has no rounds".into()))?;
    for (t, row) in rewards.iter().enumerate() {
        if row.len() != width {
            return Err(Error::InvalidInput(format!(
                "round {} has {} rewards, round 1 has {width}: one reward per arm a round",
                t + 1,
                row.len()
            )));
        }
        if let Some(x) = row.iter().find(|x| x.is_negative() || **x > Q::one()) {
            return Err(Error::InvalidInput(format!(
                "round {}: reward {x} is outside [0, 1]",
                t + 1
            )));
        }
    }
    Ok(())
}

impl BanditTarget {
    /// `spec` on the reward table `rewards` (`rewards[t][j]`: arm `j`'s
    /// reward in round `t + 1`, in `[0, 1]`; K is the table's width).
    pub fn new(spec: BanditSpec, rewards: Vec<Vec<Q>>) -> Result<BanditTarget> {
        check_reward_table(&rewards)?;
        let law = Law::of(&spec, rewards[0].len(), rewards.len())?;
        Ok(BanditTarget { spec, law, rewards })
    }

    /// The algorithm and its parameters.
    pub fn spec(&self) -> &BanditSpec {
        &self.spec
    }

    /// The number of arms K.
    pub fn arms(&self) -> usize {
        self.rewards[0].len()
    }

    /// The number of rounds T.
    pub fn horizon(&self) -> usize {
        self.rewards.len()
    }

    /// The reward table.
    pub fn rewards(&self) -> &[Vec<Q>] {
        &self.rewards
    }

    /// An error unless `other` is a neighbouring reward table: the same K
    /// and T, and at most one round's rewards differ (event-level privacy).
    pub fn check_neighbour(&self, other: &BanditTarget) -> Result<()> {
        check_neighbouring(
            "arms",
            [self.arms(), other.arms()],
            [self.horizon(), other.horizon()],
            Some([&self.rewards, &other.rewards]),
        )
    }

    /// The law of the pull sequence: every sequence that may have positive
    /// probability with its probability, exact or certified. Refused over
    /// [`MAX_SEQUENCES`] candidate sequences unless `force`.
    pub fn law(&self, force: bool) -> Result<BanditLaw> {
        let (computed, why_not_exact) = match &self.law {
            Law::Ucb1 {
                bonus,
                ties,
                bonus_round,
            } => (
                Computed {
                    entries: ucb1_law(&self.rewards, bonus, *ties, *bonus_round, force)?,
                    precision_bits: None,
                    digits_certain: true,
                },
                None,
            ),
            Law::Thompson => (
                Computed {
                    entries: thompson_law(&self.rewards, force)?,
                    precision_bits: None,
                    digits_certain: true,
                },
                None,
            ),
            Law::Noisy(noisy) => (
                noisy.with(Compute {
                    rewards: &self.rewards,
                    force,
                })?,
                Some(noisy.why_not_exact()),
            ),
        };
        let mut entries: Vec<(Vec<usize>, Enclosed)> = computed
            .entries
            .into_iter()
            .filter(|(_, p)| p.hi.is_positive())
            .collect();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let (lo, hi) = entries
            .iter()
            .fold((Q::zero(), Q::zero()), |(lo, hi), (_, p)| {
                (lo + &p.lo, hi + &p.hi)
            });
        if !(lo <= Q::one() && Q::one() <= hi) {
            return Err(Error::Domain(format!(
                "the law's probabilities total [{lo}, {hi}], which excludes 1"
            )));
        }
        let kind = if computed.precision_bits.is_some() {
            Kind::Certified
        } else {
            Kind::Exact
        };
        Ok(BanditLaw {
            arms: self.arms(),
            horizon: self.horizon(),
            kind,
            precision_bits: computed.precision_bits,
            digits_certain: computed.digits_certain,
            why_not_exact: computed
                .precision_bits
                .and(why_not_exact)
                .map(str::to_string),
            entries,
            epoch_counts: match &self.law {
                Law::Noisy(noisy) => match &**noisy {
                    LawParams::DpSe(params) if params.order == PullOrder::Any => {
                        Some(params.clone())
                    }
                    _ => None,
                },
                Law::Ucb1 { .. } | Law::Thompson => None,
            },
        })
    }
}

/// The law of a pull sequence: the sequences of possibly positive
/// probability (0-based arms, in lexicographic order), each with its
/// probability, exact or enclosed; every other sequence has probability 0.
#[derive(Clone, Debug)]
pub struct BanditLaw {
    arms: usize,
    horizon: usize,
    kind: Kind,
    precision_bits: Option<u32>,
    digits_certain: bool,
    why_not_exact: Option<String>,
    entries: Vec<(Vec<usize>, Enclosed)>,
    /// DP-SE in any order: the law is of the per-epoch pull counts, each
    /// sample mapped to them ([`DpSeParams::epoch_counts`]).
    epoch_counts: Option<Box<DpSeParams>>,
}

impl BanditLaw {
    /// What the law is of, for `pulls` (arms checked below K): the pulls
    /// themselves, or with DP-SE in any order their per-epoch counts
    /// written as the entry that has them; an error names the round at
    /// which `pulls` is no DP-SE pull sequence.
    pub fn statistic(&self, pulls: &[usize]) -> std::result::Result<Vec<usize>, String> {
        match &self.epoch_counts {
            Some(params) => params.epoch_counts(pulls),
            None => Ok(pulls.to_vec()),
        }
    }

    /// Whether the law is of the per-epoch pull counts (DP-SE in any order).
    pub fn of_epoch_counts(&self) -> bool {
        self.epoch_counts.is_some()
    }

    /// The number of arms K.
    pub fn arms(&self) -> usize {
        self.arms
    }

    /// The number of rounds T.
    pub fn horizon(&self) -> usize {
        self.horizon
    }

    /// Exact or certified.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The working precision of a certified law, in bits.
    pub fn precision_bits(&self) -> Option<u32> {
        self.precision_bits
    }

    /// Whether every probability is exact or enclosed to a relative
    /// `10^{−42}` (false only when 4096 bits did not reach it).
    pub fn digits_certain(&self) -> bool {
        self.digits_certain
    }

    /// Why a certified law is not exact.
    pub fn why_not_exact(&self) -> Option<&str> {
        self.why_not_exact.as_deref()
    }

    /// The sequences of possibly positive probability with their
    /// probabilities.
    pub fn entries(&self) -> &[(Vec<usize>, Enclosed)] {
        &self.entries
    }

    /// An error unless `pulls` has one arm below K a round.
    pub fn check_sequence(&self, pulls: &[usize]) -> Result<()> {
        if pulls.len() != self.horizon {
            return Err(Error::InvalidInput(format!(
                "the sequence has {} pulls, expected one a round: {}",
                pulls.len(),
                self.horizon
            )));
        }
        if let Some(bad) = pulls.iter().find(|&&a| a >= self.arms) {
            return Err(Error::InvalidInput(format!(
                "arm {bad} (0-based) is not below K = {}",
                self.arms
            )));
        }
        Ok(())
    }

    /// The index of `pulls` in [`BanditLaw::entries`], if listed.
    fn find<T: AsRef<[usize]>>(&self, pulls: T) -> Option<usize> {
        self.entries
            .binary_search_by(|(a, _)| a.as_slice().cmp(pulls.as_ref()))
            .ok()
    }

    /// `P(pulls | x)` (0-based arms): exact 0 for a sequence not listed.
    pub fn probability(&self, pulls: &[usize]) -> Result<Enclosed> {
        self.check_sequence(pulls)?;
        let Ok(pulls) = self.statistic(pulls) else {
            return Ok(Enclosed {
                kind: Kind::Exact,
                lo: Q::zero(),
                hi: Q::zero(),
            });
        };
        Ok(match self.find(&pulls) {
            Some(i) => self.entries[i].1.clone(),
            None => Enclosed {
                kind: Kind::Exact,
                lo: Q::zero(),
                hi: Q::zero(),
            },
        })
    }

    /// The enclosure `[Σ lo, Σ hi]` of the total probability (it contains 1).
    pub fn total(&self) -> (Q, Q) {
        self.entries
            .iter()
            .fold((Q::zero(), Q::zero()), |(lo, hi), (_, p)| {
                (lo + &p.lo, hi + &p.hi)
            })
    }
}

/// `n` reference pull sequences of `law`, seeded by `seed`: sequence `i`
/// drawn by exact inversion ([`Categorical`]) from
/// [`super::sample::stream`]`(seed, i)`, so identical for any thread count.
/// Refused over [`super::sample::MAX_VALUES`] values unless `force`.
pub fn sample(law: &BanditLaw, n: usize, seed: u64, force: bool) -> Result<Samples> {
    check_values(n, law.horizon, law.arms, force)?;
    let probabilities: Vec<Enclosed> = law.entries.iter().map(|(_, p)| p.clone()).collect();
    let categorical = Categorical::new(&probabilities)?;
    try_sample_with(n, law.horizon, seed, |rng| {
        Ok(law.entries[categorical.draw(rng)?].0.clone())
    })
}

/// `n` pull sequences of `spec` on `rewards` played by the library's own
/// policy ([`crate::bandit::policy`]: its noise and draws in f64, so
/// approximate), round by round as the contract says: pull, then see that
/// arm's entry of the row. Sequence `i` draws from
/// [`super::sample::stream`]`(seed, i)`, so the file is the same for any
/// thread count. The reference of [`super::two_sample`] for an algorithm
/// without a law (Lazy-DP-TS); any algorithm the policies cover is
/// accepted, with the overrides they take (`--noise-scale`, `--bonus`).
pub fn simulate(
    spec: &BanditSpec,
    rewards: &[Vec<Q>],
    n: usize,
    seed: u64,
    force: bool,
) -> Result<Samples> {
    check_reward_table(rewards)?;
    spec.check_applicable()?;
    if spec.epoch_lengths.is_some() || spec.tree_scale.is_some() || spec.scale_factor.is_some() {
        return Err(Error::InvalidInput(format!(
            "the simulation of {} takes --noise-scale and --bonus only",
            spec.id
        )));
    }
    let horizon = rewards.len();
    let f = |x: &Q| Real::to_f64(x);
    let config = BanditConfig {
        noise_scale: spec.noise_scale.as_ref().map(f),
        bonus: spec.bonus.as_ref().map(f),
        beta: spec.dp_se.beta.as_ref().map(f),
        pull_order: spec.dp_se.order,
        rounding: spec.dp_se.rounding,
        radius: spec.dp_se.radius,
        ties: spec.ties,
        bonus_round: spec.bonus_round,
        ucb1_bonus_round: spec.ucb1_bonus_round,
        ..BanditConfig::new(spec.id, f(&spec.epsilon))
    };
    let table: Vec<Vec<f64>> = rewards.iter().map(|r| r.iter().map(f).collect()).collect();
    let k = table[0].len();
    config.build(k, horizon as u64)?;
    let index = spec.dp_se.reward_index;
    drive(
        || config.build(k, horizon as u64),
        &table,
        index,
        n,
        seed,
        force,
    )
}

/// Drive the policies that `make` builds `n` times on `target`'s reward
/// table ([`drive`]: fresh policy a run, run `i` seeded by
/// [`super::sample::stream`]`(seed, i)`, the protocol checked) and test their
/// pull sequences against the law of `target` ([`gof`]). Returns the pull
/// sequences and the test; an arm out of range or a run past the horizon is
/// an error naming its run and round.
pub fn drive_gof<F>(
    target: &BanditTarget,
    make: F,
    n: usize,
    seed: u64,
    options: &GofOptions,
    force: bool,
) -> Result<(Samples, BanditGof)>
where
    F: Fn() -> Result<Box<dyn crate::bandit::policy::Policy>> + Sync,
{
    let law = target.law(force)?;
    let f = |x: &Q| Real::to_f64(x);
    let table: Vec<Vec<f64>> = target
        .rewards()
        .iter()
        .map(|r| r.iter().map(f).collect())
        .collect();
    let index = target.spec().dp_se.reward_index;
    let samples = drive(make, &table, index, n, seed, force)?;
    let report = gof(&law, &samples, options)?;
    Ok((samples, report))
}

/// The outcome of [`gof`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BanditGof {
    /// The number of samples.
    pub n: usize,
    /// The first sample outside the law's support, if any.
    pub support_violation: Option<SupportViolation>,
    /// Pearson's chi-square over the pull sequences of possibly positive
    /// probability, with its rare-cell test (none after a support
    /// violation).
    pub test: Option<ChiSquareTest>,
    /// The number `m` of tests: 1, or 2 with the rare-cell test.
    pub tests: usize,
    /// The level of each test, `α/m` (Bonferroni).
    pub per_test_alpha: f64,
    /// Whether the samples are rejected at level α.
    pub reject: bool,
    /// Where the samples depart first from the law ([`Departure`], pulls
    /// 0-based).
    pub departure: Option<Departure>,
}

/// A reading of an algorithm's open choices by name: each choice by its
/// flag without `--` (`ties`, `bonus-round`, `tree-depth`, `beta`,
/// `pull-order`, `rounding`, `radius`) and its value as the flag takes it.
pub type Readings = std::collections::BTreeMap<String, String>;

/// One reading of the algorithm's open choices and how the samples fit its
/// law ([`explain`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VariantFit {
    /// The reading tested, every choice of the grid named (for DP-SE the
    /// four below too).
    #[serde(default)]
    pub readings: Readings,
    /// DP-SE: δ (its β), exactly; `1/T` when not given (absent for other
    /// algorithms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beta: Option<String>,
    /// DP-SE: the pull order inside an epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pull_order: Option<String>,
    /// DP-SE: the rounding of the epoch lengths.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounding: Option<String>,
    /// DP-SE: the `R_e` the radius reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<String>,
    /// The test's p-value (null after a support violation).
    pub p_value: Option<f64>,
    /// Whether the samples are rejected against this reading.
    pub reject: bool,
    /// Whether a sample lies outside this reading's support.
    pub support_violation: bool,
}

/// A reading [`explain`] did not test: its law is over the work limit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RefusedReading {
    /// The reading, as in [`VariantFit::readings`].
    pub readings: Readings,
    /// Why its law was not computed: its size, and how to force it.
    pub reason: String,
}

/// What [`explain`] found: the readings tested, and those refused.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Explanation {
    /// The test against each reading whose law was computed.
    pub fits: Vec<VariantFit>,
    /// The readings whose law is over the work limit (without `force`).
    pub refused: Vec<RefusedReading>,
}

/// A reading to try: the target in it and its names.
struct Reading {
    spec: BanditSpec,
    names: Readings,
}

/// The readings of `spec`'s open choices [`explain`] tries on `horizon`
/// rounds, the one tested among them:
///
/// - DP-SE: [`DpSeVariant::grid`];
/// - UCB1: every tie rule ([`Ties`]) with every bonus round
///   ([`ucb1::BonusRound`]);
/// - DP-UCB: the tree depths `1..=L + 2`, `L` the larger of the printed
///   `⌈log₂ T⌉` and the depth tested (none when `--noise-scale` is given:
///   the depth then sets nothing);
/// - any other algorithm: none.
fn readings(spec: &BanditSpec, horizon: usize) -> Vec<Reading> {
    let named = |pairs: &[(&str, String)]| -> Readings {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_string(), v.clone()))
            .collect()
    };
    match spec.id {
        BanditId::DpSe => DpSeVariant::grid(
            horizon,
            spec.dp_se.beta.as_ref(),
            spec.epoch_lengths.is_none(),
            spec.dp_se.reward_index,
        )
        .into_iter()
        .map(|variant| Reading {
            names: named(&[
                ("beta", beta_name(&variant)),
                ("pull-order", variant.order.name().into()),
                ("rounding", variant.rounding.name().into()),
                ("radius", variant.radius.name().into()),
            ]),
            spec: BanditSpec {
                dp_se: variant,
                ..spec.clone()
            },
        })
        .collect(),
        BanditId::Ucb1 => <Ties as Named>::ALL
            .iter()
            .flat_map(|&ties| {
                <ucb1::BonusRound as Named>::ALL
                    .iter()
                    .map(move |&bonus_round| (ties, bonus_round))
            })
            .map(|(ties, bonus_round)| Reading {
                names: named(&[
                    ("ties", ties.name().into()),
                    ("bonus-round", bonus_round.name().into()),
                ]),
                spec: BanditSpec {
                    ties,
                    ucb1_bonus_round: bonus_round,
                    ..spec.clone()
                },
            })
            .collect(),
        BanditId::DpUcb if spec.noise_scale.is_none() => {
            let printed = crate::bandit::policy::dp_ucb::printed_depth(horizon as u64);
            let deepest = spec.tree_depth.unwrap_or(printed).max(printed) + 2;
            (1..=deepest.min(63))
                .map(|depth| Reading {
                    names: named(&[("tree-depth", depth.to_string())]),
                    spec: BanditSpec {
                        tree_depth: Some(depth),
                        ..spec.clone()
                    },
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// DP-SE's δ as reports name it: `1/T` when not given.
fn beta_name(variant: &DpSeVariant) -> String {
    variant
        .beta
        .as_ref()
        .map_or_else(|| "1/T".to_string(), ToString::to_string)
}

/// The samples tested against every reading of `spec`'s open choices on a
/// small grid (`readings`: DP-SE's, UCB1's ties and bonus rounds, DP-UCB's tree depth; an
/// empty list for an algorithm without named readings), each at the level
/// of `options`: which conventions the samples follow. Each law is
/// computed as [`BanditTarget::law`]; one over its work limit (unless
/// `force`) is not tested but listed in [`Explanation::refused`].
pub fn explain(
    spec: &BanditSpec,
    rewards: &[Vec<Q>],
    samples: &Samples,
    options: &GofOptions,
    force: bool,
) -> Result<Explanation> {
    let quiet = GofOptions {
        tv: None,
        ..options.clone()
    };
    let mut explanation = Explanation::default();
    for reading in readings(spec, rewards.len()) {
        let dp_se = (spec.id == BanditId::DpSe).then(|| reading.spec.dp_se.clone());
        let target = BanditTarget::new(reading.spec, rewards.to_vec())?;
        let law = match target.law(force) {
            Err(Error::TooLarge(reason)) => {
                explanation.refused.push(RefusedReading {
                    readings: reading.names,
                    reason,
                });
                continue;
            }
            law => law?,
        };
        let outcome = gof(&law, samples, &quiet)?;
        explanation.fits.push(VariantFit {
            readings: reading.names,
            beta: dp_se.as_ref().map(beta_name),
            pull_order: dp_se.as_ref().map(|v| v.order.name().into()),
            rounding: dp_se.as_ref().map(|v| v.rounding.name().into()),
            radius: dp_se.as_ref().map(|v| v.radius.name().into()),
            p_value: outcome.test.as_ref().map(|t| t.p_value),
            reject: outcome.reject,
            support_violation: outcome.support_violation.is_some(),
        });
    }
    Ok(explanation)
}

/// The departure of `samples` from `law` ([`Departure`]): over the pull
/// prefixes of every round, or, when a sample leaves the support, at the
/// first round its prefix has probability 0.
fn departure(law: &BanditLaw, samples: &Samples, alpha: f64) -> Option<Departure> {
    let n = samples.rows();
    let rows: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            let pulls: Vec<usize> = samples.row(i).iter().map(|&a| a as usize).collect();
            law.statistic(&pulls).unwrap_or(pulls)
        })
        .collect();
    let possible = |prefix: &[usize]| {
        law.entries
            .iter()
            .any(|(s, p)| s.starts_with(prefix) && p.hi.is_positive())
    };
    if let Some(row) = rows.iter().find(|r| law.find(r).is_none()) {
        let round = (1..=row.len()).find(|&t| !possible(&row[..t]))?;
        let cell = row[..round].to_vec();
        return Some(Departure {
            round,
            observed: rows.iter().filter(|r| r.starts_with(&cell)).count() as u64,
            cell,
            expected: 0.0,
            residual: None,
            threshold: 0.0,
            significant: true,
        });
    }
    let mut cells = Vec::new();
    for t in 1..=law.horizon {
        let mut expected: std::collections::BTreeMap<&[usize], f64> = Default::default();
        for (s, p) in &law.entries {
            *expected.entry(&s[..t]).or_default() += p.to_f64() * n as f64;
        }
        let mut observed: std::collections::BTreeMap<&[usize], u64> = Default::default();
        for r in &rows {
            *observed.entry(&r[..t]).or_default() += 1;
        }
        for (prefix, e) in expected {
            if e > 0.0 {
                let o = observed.get(prefix).copied().unwrap_or(0);
                cells.push((t, prefix.to_vec(), o, e));
            }
        }
    }
    Departure::among(&cells, alpha)
}

/// Test `samples` (0-based arms, one pull sequence a row) against `law`.
///
/// 1. **Support**: the first row whose sequence has probability 0 (an arm
///    out of range, or a sequence not in the law) is reported and the test
///    rejects.
/// 2. **Chi-square**: the counts of the sequences against `n · P(a | x)`,
///    one Pearson test with the pooling rule of [`super::gof`]
///    ([`chi_square_test`]), and the exact test of its rare cells when
///    pooling hides one; rejected when a p-value is below `α/m`, `m` the
///    tests run (Bonferroni).
pub fn gof(law: &BanditLaw, samples: &Samples, options: &GofOptions) -> Result<BanditGof> {
    options.check()?;
    if samples.cols() != law.horizon {
        return Err(Error::InvalidInput(format!(
            "the samples have {} rounds, the law {}",
            samples.cols(),
            law.horizon
        )));
    }
    if samples.rows() == 0 {
        return Err(Error::InvalidInput("there are no samples".into()));
    }
    let n = samples.rows();
    let probabilities: Vec<f64> = law.entries.iter().map(|(_, p)| p.to_f64()).collect();
    let tests = tests_run(&probabilities, n);
    let per_test_alpha = options.alpha / tests as f64;
    let mut counts = vec![0u64; law.entries.len()];
    let mut row_pulls = Vec::with_capacity(law.horizon);
    for i in 0..n {
        let row = samples.row(i);
        row_pulls.clear();
        row_pulls.extend(row.iter().map(|&a| a as usize));
        // Arms as the samples number them (from `options.base`).
        let arm = |a: usize| a + options.base as usize;
        let reason = if let Some(t) = row_pulls.iter().position(|&a| a >= law.arms) {
            Some(format!(
                "round {}: arm {} is not one of the K = {} arms {} to {}",
                t + 1,
                arm(row_pulls[t]),
                law.arms,
                arm(0),
                arm(law.arms - 1)
            ))
        } else {
            match law.statistic(&row_pulls).map(|s| law.find(s)) {
                Err(reason) => Some(reason),
                Ok(Some(cell)) => {
                    counts[cell] += 1;
                    None
                }
                Ok(None) => Some(format!(
                    "the pull sequence {} (arms from {}) has probability 0",
                    row_pulls
                        .iter()
                        .map(|&a| arm(a).to_string())
                        .collect::<Vec<_>>()
                        .join(","),
                    arm(0)
                )),
            }
        };
        if let Some(reason) = reason {
            let departure = if row_pulls.iter().all(|&a| a < law.arms) {
                departure(law, samples, options.alpha)
            } else {
                None
            };
            return Ok(BanditGof {
                n,
                support_violation: Some(SupportViolation { sample: i, reason }),
                test: None,
                tests,
                per_test_alpha,
                reject: true,
                departure,
            });
        }
    }
    let sequence = |i: usize| -> Vec<usize> {
        law.entries[i]
            .0
            .iter()
            .map(|&a| a + options.base as usize)
            .collect()
    };
    let test = chi_square_test(
        &counts,
        &probabilities,
        n,
        per_test_alpha,
        options,
        sequence,
    );
    Ok(BanditGof {
        n,
        support_violation: None,
        reject: test.rejects(per_test_alpha),
        test: Some(test),
        tests,
        per_test_alpha,
        departure: departure(law, samples, options.alpha),
    })
}
