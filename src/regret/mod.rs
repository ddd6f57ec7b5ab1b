//! Exact pseudo-regret of every algorithm, and the papers' regret bounds.
//!
//! The pseudo-regret at horizon `T` on an instance with loss means
//! `μ_1..μ_K` and gaps `Δ_j = μ_j − min_i μ_i` is
//!
//! ```text
//! Reg_T = Σ_{t ≤ T} E[Δ_{I_t}].
//! ```
//!
//! Two settings:
//!
//! * **deterministic** — the loss vector is `μ` in every round;
//! * **Bernoulli** — `X_{t,j} ~ Bernoulli(μ_j)`, independent across actions
//!   and rounds.
//!
//! Every algorithm of [`crate::algorithm`] makes a sequence of independent
//! choices, choice `c` playing one action on its rounds `plays_c`; so
//! `Reg_T = Σ_c |plays_c ∩ [1, T]| · Σ_j Δ_j P(choice c = j)` needs only each
//! choice's marginal law, and the answer is a list of [`Term`]s (a run of
//! rounds with the same expected gap) whose partial sums are the regret at
//! every epoch boundary (the `--curve`).
//!
//! Three ways to compute it, which the tests set against each other:
//!
//! * [`law_based`] — the generic computation from the algorithms' own
//!   [`choice_law`](crate::algorithm::OnlineAlgorithm::choice_law) on the
//!   materialised loss sequence (small `T`), and, for the Bernoulli setting,
//!   the brute-force average over every 0/1 window of every choice;
//! * [`deterministic`] — closed forms per epoch, for horizons up to `2^60`
//!   and beyond: cost grows with the number of epochs, not with `T`;
//! * [`bernoulli`] — exact expectations over the binomial laws of the epoch
//!   (or prefix) sums.
//!
//! [`bounds`] evaluates every explicit bound the papers state, labelled with
//! its source, and the rates without constants with their implied constant.
//!
//! Round counts are `u128` (a horizon of `2^60` and the block lengths near it
//! do not fit a `usize` on every platform, and sums of them must not wrap).

pub mod bernoulli;
pub mod bounds;
pub mod certify;
mod compute;
pub mod deterministic;
pub mod laplace_transform;
pub mod law_based;
pub mod lineup;
#[cfg(feature = "cli")]
pub mod plot;

pub use self::compute::regret;
pub(crate) use self::compute::regret_counted;

use crate::algorithm::epoch_rnm::{EpochRnm, FirstAction};
use crate::algorithm::prefix_softmax::PrefixSoftmax;
use crate::algorithm::{AlgorithmId, Config};
use crate::error::{Error, Result};
use crate::mechanism::Noise;
use crate::num::{Endpoint, Kind};
use crate::num::{Exact, Interval, Real, Q};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use std::fmt;
use std::str::FromStr;

/// A round number or a count of rounds.
pub type Round = u128;

/// A backend in which a value can be widened to contain another: what the
/// closed forms need to enclose a negligible quantity by `[0, t]` without
/// computing it (a weight `e^{−2^{59}·Δ/β}`, whose binary exponent would not
/// fit the float's exponent range).
///
/// Exact backends can only "widen" a value to itself; f64 returns the
/// midpoint (it is approximate anyway).
pub trait Enclose: Real {
    /// An enclosure of both `self` and `other`: the interval hull for
    /// certified backends; [`Error::NotRepresentable`] for an exact backend
    /// unless the two are equal.
    fn hull_with(&self, other: &Self) -> Result<Self>;

    /// The working precision in bits of numbers built with `ctx` (for an
    /// exact backend, a nominal 1024: it never rounds).
    fn working_bits(ctx: &Self::Context) -> u32;
}

impl Enclose for f64 {
    fn hull_with(&self, other: &Self) -> Result<Self> {
        Ok((self + other) / 2.0)
    }

    fn working_bits(_: &()) -> u32 {
        53
    }
}

impl Enclose for Exact {
    fn working_bits(_: &()) -> u32 {
        1024
    }

    fn hull_with(&self, other: &Self) -> Result<Self> {
        if self == other {
            Ok(self.clone())
        } else {
            Err(Error::NotRepresentable(
                "an enclosure of a negligible term is not an exact rational".into(),
            ))
        }
    }
}

impl<E: Endpoint> Enclose for Interval<E> {
    fn hull_with(&self, other: &Self) -> Result<Self> {
        // The ends are floats of at most the context's precision, so
        // `from_bounds` rebuilds them exactly.
        let (a_lo, a_hi) = (self.lo().to_rational(), self.hi().to_rational());
        let (b_lo, b_hi) = (other.lo().to_rational(), other.hi().to_rational());
        let bits = Real::context(self).max(Real::context(other));
        Interval::from_bounds(&a_lo.min(b_lo), &a_hi.max(b_hi), bits)
    }

    fn working_bits(ctx: &crate::num::Precision) -> u32 {
        ctx.0
    }
}

/// The exponent `L` of the enclosure `[0, 2^{−L}]` the closed forms give a
/// negligible quantity at working precision `bits`: `2·bits + 128`, so that
/// even `2^{100}` rounds of it stay far below the last bit of the regret.
pub(crate) fn negligible_bits(bits: u32) -> u64 {
    2 * u64::from(bits) + 128
}

/// `[0, 2^{−bits}]` in the backend (an error for exact backends).
pub(crate) fn negligible<R: Enclose>(bits: u64, ctx: &R::Context) -> Result<R> {
    let tiny = R::from_rational(&Q::new(BigInt::one(), BigInt::one() << bits), ctx);
    R::from_int(0, ctx).hull_with(&tiny)
}

/// `e^{−x_j}` for rationals `x_j ≥ 0`, in the backend.
///
/// When the `x_j` have a common denominator `D ≤ 2^{48}` (decimal or
/// fractional inputs do) and numerators `N_j = x_j·D ≤ 2^{48}`, every value
/// is a power `u^{N_j}` of the single `u = e^{−1/D}`: with the `N_j` sorted,
/// each is the previous one times `u^{N_j − N_{j−1}}` (one exponential in
/// all, and a few multiplications per value; each step widens an interval by
/// a few ulps, so `K` values lose `log₂ K` bits at most). Otherwise one
/// exponential per value.
pub fn exp_weights<R: Real>(xs: &[Q], ctx: &R::Context) -> Result<Vec<R>> {
    use num_integer::Integer;
    use num_traits::ToPrimitive;
    let limit = BigInt::one() << 48;
    let mut denominator = BigInt::one();
    for x in xs {
        denominator = denominator.lcm(x.denom());
        if denominator > limit {
            break;
        }
    }
    let numerators: Option<Vec<u64>> = if denominator <= limit {
        xs.iter()
            .map(|x| {
                let n = x.numer() * (&denominator / x.denom());
                (n <= limit).then(|| n.to_u64()).flatten()
            })
            .collect()
    } else {
        None
    };
    let Some(numerators) = numerators else {
        return xs
            .iter()
            .map(|x| R::from_rational(&-x.clone(), ctx).exp())
            .collect();
    };
    let unit = R::from_rational(&-Q::new(BigInt::one(), denominator), ctx).exp()?;
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by_key(|&j| numerators[j]);
    let mut out = vec![R::from_int(1, ctx); xs.len()];
    let mut cache: std::collections::HashMap<u64, R> = std::collections::HashMap::new();
    let mut current = R::from_int(1, ctx);
    let mut at = 0u64;
    for j in order {
        let step = numerators[j] - at;
        if step > 0 {
            let factor = cache
                .entry(step)
                .or_insert_with(|| unit.pow_u64(step))
                .clone();
            current = current * &factor;
            at = numerators[j];
        }
        out[j] = current.clone();
    }
    Ok(out)
}

/// A count of rounds as a backend value.
pub(crate) fn count<R: Real>(n: Round, ctx: &R::Context) -> R {
    R::from_rational(&Q::from_integer(BigInt::from(n)), ctx)
}

/// A problem instance: the loss means `μ_1..μ_K ∈ [0, 1]`, `K ≥ 2`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    means: Vec<Q>,
    gaps: Vec<Q>,
}

impl Instance {
    /// Validate the means: at least two actions, each in `[0, 1]`.
    ///
    /// ```
    /// use dpdtol::regret::Instance;
    /// use dpdtol::num::parse_rational_list;
    /// let inst = Instance::new(parse_rational_list("0.5,0.25,1").unwrap()).unwrap();
    /// assert_eq!(inst.gaps()[0].to_string(), "1/4");
    /// assert!(Instance::new(parse_rational_list("0.5,1.5").unwrap()).is_err());
    /// assert!(Instance::new(parse_rational_list("0.5").unwrap()).is_err());
    /// ```
    pub fn new(means: Vec<Q>) -> Result<Instance> {
        if means.len() < 2 {
            return Err(Error::InvalidInput(format!(
                "an instance needs at least 2 actions, got {}",
                means.len()
            )));
        }
        if let Some((j, m)) = means
            .iter()
            .enumerate()
            .find(|(_, m)| m.is_negative() || **m > Q::one())
        {
            return Err(Error::InvalidInput(format!(
                "the mean {m} of action {} is outside [0, 1]",
                j + 1
            )));
        }
        let min = means.iter().min().cloned().unwrap_or_default();
        let gaps = means.iter().map(|m| m - &min).collect();
        Ok(Instance { means, gaps })
    }

    /// The number of actions K.
    pub fn k(&self) -> usize {
        self.means.len()
    }

    /// The means μ.
    pub fn means(&self) -> &[Q] {
        &self.means
    }

    /// The gaps `Δ_j = μ_j − min_i μ_i ≥ 0`.
    pub fn gaps(&self) -> &[Q] {
        &self.gaps
    }

    /// The actions (0-based) with the smallest mean.
    pub fn best(&self) -> Vec<usize> {
        (0..self.k()).filter(|&j| self.gaps[j].is_zero()).collect()
    }

    /// The actions (0-based) with a positive gap, in order.
    pub fn suboptimal(&self) -> Vec<usize> {
        (0..self.k()).filter(|&j| !self.gaps[j].is_zero()).collect()
    }

    /// `Δ_min`, the smallest positive gap (`None` when all means are equal).
    pub fn delta_min(&self) -> Option<Q> {
        self.gaps.iter().filter(|g| g.is_positive()).min().cloned()
    }

    /// `Δ_max`, the largest gap.
    pub fn delta_max(&self) -> Q {
        self.gaps.iter().max().cloned().unwrap_or_default()
    }

    /// An error unless exactly one action has the smallest mean (what the
    /// bounds with `Δ_min` in a denominator need).
    pub fn require_unique_best(&self, why: &str) -> Result<()> {
        let best = self.best();
        if best.len() == 1 {
            return Ok(());
        }
        let names: Vec<String> = best.iter().map(|j| (j + 1).to_string()).collect();
        Err(Error::InvalidInput(format!(
            "actions {} tie for the best mean {}; {why} need a unique best action (Δmin > 0)",
            names.join(", "),
            self.means[best[0]]
        )))
    }

    /// Whether this is a hard instance of Wu & Wang's Theorem 3: one mean 0
    /// and all others 1.
    pub fn is_hard(&self) -> bool {
        self.best().len() == 1
            && self.means.iter().filter(|m| m.is_zero()).count() == 1
            && self.means.iter().all(|m| m.is_zero() || m.is_one())
    }

    /// The gaps in the backend.
    pub fn gaps_in<R: Real>(&self, ctx: &R::Context) -> Vec<R> {
        self.gaps.iter().map(|g| R::from_rational(g, ctx)).collect()
    }
}

/// How the losses are generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setting {
    /// The loss vector is the mean vector in every round.
    Deterministic,
    /// `X_{t,j} ~ Bernoulli(μ_j)`, independent across actions and rounds.
    Bernoulli,
}

impl Setting {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Setting::Deterministic => "deterministic",
            Setting::Bernoulli => "bernoulli",
        }
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Setting {
    type Err = Error;
    fn from_str(s: &str) -> Result<Setting> {
        match s {
            "deterministic" => Ok(Setting::Deterministic),
            "bernoulli" => Ok(Setting::Bernoulli),
            _ => Err(Error::InvalidInput(format!(
                "unknown setting '{s}' (expected deterministic or bernoulli)"
            ))),
        }
    }
}

/// Whether the regret computations cover the algorithm `id`: ftl and the
/// algorithms of dyadic blocks, not Hedge, whose every round is a choice.
pub fn covers(id: AlgorithmId) -> bool {
    !matches!(id, AlgorithmId::Hedge | AlgorithmId::DecreasingHedge)
}

/// What the regret computations need to know about an algorithm: its
/// first action, the law of each later choice, and its schedule (dyadic for
/// every algorithm but `ftl`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Follow the leader.
    Ftl,
    /// `naive-ftnl`, `hu-rnm-ftnl`, `wu-wang`: report-noisy-max on the
    /// previous block's sums.
    Epoch {
        /// How round 1 is played.
        first: FirstAction,
        /// The noise.
        noise: Noise,
        /// Its scale β.
        scale: Q,
        /// Bernoulli resampling (Wu & Wang's B = 1).
        resample: bool,
    },
    /// Cesari & Colomboni's randomized-prefix softmax at inverse
    /// temperature η.
    Prefix {
        /// The inverse temperature η.
        eta: Q,
    },
}

impl Plan {
    /// The plan of a configuration (validated by building the algorithm,
    /// whose scale it then reads).
    pub fn of(config: &Config) -> Result<Plan> {
        config.validate()?;
        // e^ε and the laws' weights e^(±gap/b) stay inside the certified
        // arithmetic's range, 2^(±2^63) (ε = 10^100 left it).
        config.check_reach(
            &Q::from_integer(BigInt::one() << 60),
            "2^60",
            "the laws weigh e^(-gap/b) (b = 1/ε by default), whose exponents would leave the certified arithmetic's range, 2^(±2^63)",
        )?;
        Ok(match config.id {
            AlgorithmId::Ftl => Plan::Ftl,
            id if !covers(id) => {
                return Err(Error::InvalidInput(format!(
                    "regret covers ftl and the algorithms of dyadic blocks, not {id}, which draws every round afresh; its law on a loss file is `dpdtol law`"
                )))
            }
            AlgorithmId::PrefixSoftmax => Plan::Prefix {
                eta: PrefixSoftmax::new(
                    config.actions,
                    &config.epsilon,
                    config.noise_scale.clone(),
                )?
                .eta(),
            },
            _ => {
                let algorithm = EpochRnm::from_config(config)?;
                Plan::Epoch {
                    first: algorithm.first(),
                    noise: algorithm.noise(),
                    scale: algorithm.scale().clone(),
                    resample: algorithm.resample(),
                }
            }
        })
    }

    /// `E[Δ_{I_1}]`: the expected gap of the data-independent first round.
    pub fn first_gap<R: Real>(&self, inst: &Instance, ctx: &R::Context) -> R {
        let uniform = || {
            let total: Q = inst.gaps().iter().sum();
            R::from_rational(&(total / Q::from_integer(inst.k().into())), ctx)
        };
        match self {
            Plan::Ftl
            | Plan::Epoch {
                first: FirstAction::One,
                ..
            } => R::from_rational(&inst.gaps()[0], ctx),
            Plan::Epoch {
                first: FirstAction::Uniform,
                ..
            }
            | Plan::Prefix { .. } => uniform(),
        }
    }
}

/// A run of consecutive rounds `first..=last` on which `E[Δ_{I_t}]` is the
/// same value `gap` (the rounds of one choice).
#[derive(Clone, Debug)]
pub struct Term<R> {
    /// The first round.
    pub first: Round,
    /// The last round (inclusive).
    pub last: Round,
    /// `E[Δ_{I_t}]` for each of these rounds.
    pub gap: R,
}

impl<R: Real> Term<R> {
    /// The number of rounds.
    pub fn rounds(&self) -> Round {
        self.last - self.first + 1
    }

    /// The regret of these rounds, `rounds · gap`.
    pub fn regret(&self) -> R {
        count::<R>(self.rounds(), &self.gap.context()) * &self.gap
    }
}

/// The regret of the rounds `1..=T`, as the terms of its choices.
#[derive(Clone, Debug)]
pub struct RegretCurve<R> {
    /// The terms, in order, covering `1..=T`.
    pub terms: Vec<Term<R>>,
}

impl<R: Real> RegretCurve<R> {
    /// The horizon T.
    pub fn horizon(&self) -> Round {
        self.terms.last().map_or(0, |t| t.last)
    }

    /// `Reg_T`.
    pub fn total(&self, ctx: &R::Context) -> R {
        self.terms
            .iter()
            .fold(R::from_int(0, ctx), |acc, t| acc + t.regret())
    }

    /// `Reg_t` for `t ≤ T`: the terms over the rounds `1..=t` (a term that
    /// straddles `t` counts its rounds up to `t`).
    pub fn at(&self, t: Round, ctx: &R::Context) -> R {
        self.terms
            .iter()
            .filter(|term| term.first <= t)
            .fold(R::from_int(0, ctx), |acc, term| {
                acc + count::<R>(term.last.min(t) - term.first + 1, ctx) * &term.gap
            })
    }

    /// The regret at every epoch boundary `2^{b+1} − 1 < T` and at `T`:
    /// `(t, Reg_t)`, increasing in `t`.
    pub fn boundaries(&self, ctx: &R::Context) -> Vec<(Round, R)> {
        let horizon = self.horizon();
        let mut points = Vec::new();
        let mut t: Round = 1;
        while t < horizon {
            points.push(t);
            t = 2 * t + 1;
        }
        points.push(horizon);
        let mut out = Vec::with_capacity(points.len());
        let mut acc = R::from_int(0, ctx);
        let mut terms = self.terms.iter().peekable();
        for p in points {
            while let Some(term) = terms.next_if(|term| term.last <= p) {
                acc = acc + term.regret();
            }
            let value = match terms.peek() {
                Some(term) if term.first <= p => {
                    acc.clone() + count::<R>(p - term.first + 1, ctx) * &term.gap
                }
                _ => acc.clone(),
            };
            out.push((p, value));
        }
        out
    }

    /// Whether every term is exact (a [`Kind::Exact`] backend).
    pub fn kind() -> Kind {
        R::KIND
    }
}

/// `Σ_j Δ_j p_j`.
pub(crate) fn expected<R: Real>(deltas: &[R], law: &[R], ctx: &R::Context) -> R {
    deltas
        .iter()
        .zip(law)
        .fold(R::from_int(0, ctx), |acc, (d, p)| acc.mul_add(d, p))
}

/// The law of `Binomial(n, p)` as exact rationals: `pmf[s] = C(n,s) p^s (1−p)^{n−s}`.
pub fn binomial(n: u64, p: &Q) -> Vec<Q> {
    let mut out = vec![Q::zero(); n as usize + 1];
    if p.is_zero() {
        out[0] = Q::one();
        return out;
    }
    if p.is_one() {
        out[n as usize] = Q::one();
        return out;
    }
    let q = Q::one() - p;
    let ratio = p / &q;
    let mut term = num_traits::pow::pow(q, n as usize);
    for s in 0..=n {
        out[s as usize] = term.clone();
        if s < n {
            term = term * &ratio * Q::new(BigInt::from(n - s), BigInt::from(s + 1));
        }
    }
    out
}

/// The largest horizon accepted: `2^100` (beyond it a block's weight
/// `e^{−2^b Δ/β}` may not be representable even as a bound).
pub const MAX_HORIZON: Round = 1 << 100;

/// An error unless `1 ≤ T ≤ 2^100`.
pub fn check_horizon(horizon: Round) -> Result<()> {
    if horizon == 0 {
        return Err(Error::InvalidInput(
            "the horizon T must be at least 1".into(),
        ));
    }
    if horizon > MAX_HORIZON {
        return Err(Error::InvalidInput(format!(
            "the horizon T = {horizon} is above 2^100"
        )));
    }
    Ok(())
}

/// The dyadic blocks `B_b ∩ [1, T]` for `b ≥ 1`: `(b, first, last)`.
pub(crate) fn dyadic_blocks(horizon: Round) -> impl Iterator<Item = (u32, Round, Round)> {
    (1u32..128)
        .map(|b| (b, 1u128 << b))
        .take_while(move |&(_, first)| first <= horizon)
        .map(move |(b, first)| (b, first, (2 * first - 1).min(horizon)))
}
