//! The online algorithms of the papers, their exact laws and samplers.
//!
//! | id | file | source |
//! |---|---|---|
//! | `ftl` | [`ftl`] | follow the leader (non-private baseline) |
//! | `naive-ftnl` | [`epoch_rnm`] | Hu et al. §5 prose (002/004) |
//! | `hu-rnm-ftnl` | [`epoch_rnm`] | Hu et al. Algorithm 4 (004) |
//! | `wu-wang` | [`epoch_rnm`] | Wu & Wang Algorithm 1 (000) |
//! | `prefix-softmax` | [`prefix_softmax`] | Cesari & Colomboni §4 (003) |
//! | `hedge` | [`hedge`] | Freund & Schapire 1997 (non-private baseline, 004 L118) |
//! | `decreasing-hedge` | [`hedge`] | Mourtada & Gaïffas 2019, arXiv:1809.01382 (004 L118) |
//!
//! # The structure every algorithm here has
//!
//! An algorithm makes a sequence of random **choices**. Choice `c` selects one
//! action, which is played on every round of `plays` (a range of rounds, the
//! ranges partitioning `1..=t`), and its law depends on the losses of the
//! rounds `reads` only (all before `plays`). The randomness of different
//! choices is independent (fresh noise, fresh resampling, fresh random prefix
//! per choice), so for a fixed loss sequence `x` the law of the whole action
//! sequence is the product
//!
//! ```text
//! P(I_1..I_t = a | x) = ∏_c 1[a constant on plays_c] · P_c(a_{plays_c} | x_{reads_c}).
//! ```
//!
//! This is a property of the algorithms as printed (each draws fresh
//! randomness per epoch), not of any privacy proof: `reads` may overlap
//! between choices, and the privacy checker compares whole sequences.

mod config;
mod dispatch;
pub mod epoch_rnm;
pub mod ftl;
pub mod hedge;
pub mod prefix_softmax;

pub use self::config::{AlgorithmId, Config, LawParameter};
pub use self::dispatch::Algorithm;

use crate::error::{Error, Result};
use crate::num::{refine_until, relative_width, Certified, Kind, Precision, Real, Q};
use num_traits::{One, Signed, Zero};
use rand::Rng;
use std::ops::Range;

/// One random choice: the action it selects is played on the rounds `plays`,
/// and its law depends only on the losses of the rounds `reads`. Rounds are
/// numbered from 1; ranges are half-open.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Choice {
    /// The rounds the selected action is played on.
    pub plays: Range<usize>,
    /// The rounds whose losses the choice depends on.
    pub reads: Range<usize>,
}

/// An online algorithm with the choice structure of the module documentation.
pub trait OnlineAlgorithm: Sync + Send {
    /// The number of actions K.
    fn actions(&self) -> usize;

    /// The choices up to horizon `t ≥ 1`: their `plays` ranges partition
    /// `1..t+1` in order, and every `reads` range ends at or before the start
    /// of its `plays`.
    fn schedule(&self, horizon: usize) -> Vec<Choice>;

    /// The law over the K actions of the choice `index` of the schedule,
    /// given `window`, the loss vectors of its `reads` rounds in order.
    fn choice_law<R: Real>(
        &self,
        index: usize,
        choice: &Choice,
        window: &[Vec<Q>],
        ctx: &R::Context,
    ) -> Result<Vec<R>>;

    /// The number of one-shot selection laws [`OnlineAlgorithm::choice_law`]
    /// evaluates for choice `index` on `window`: 1 unless the law is a
    /// mixture over hidden randomness (a prefix length, a resampling), whose
    /// outcomes it enumerates. [`SequenceLaw::best`] refuses a law whose
    /// total cost exceeds [`MAX_LAW_COST`] unless forced.
    fn choice_cost(&self, _index: usize, _choice: &Choice, _window: &[Vec<Q>]) -> u128 {
        1
    }

    /// Run the algorithm online on f64 losses (one vector per round) and
    /// return the actions played, 0-based, drawing its randomness from `rng`.
    fn sample<G: Rng + ?Sized>(&self, losses: &[Vec<f64>], rng: &mut G) -> Vec<usize>;
}

/// The dyadic blocks `B_b = {2^b, …, 2^{b+1} − 1}` cut at the horizon: block
/// 0 is round 1 and reads nothing; block `b ≥ 1` plays `B_b ∩ [1, t]` and
/// reads the whole previous block `B_{b−1}` (Hu et al. epoch `s` = `B_s`;
/// Wu & Wang epoch `r` = `B_{r−1}`; Cesari & Colomboni block `r` = `B_r`).
pub fn dyadic_schedule(horizon: usize) -> Vec<Choice> {
    let mut out = vec![Choice {
        plays: 1..2,
        reads: 1..1,
    }];
    let mut start = 2;
    while start <= horizon {
        let end = (2 * start).min(horizon + 1);
        out.push(Choice {
            plays: start..end,
            reads: start / 2..start,
        });
        start *= 2;
    }
    out
}

/// One choice a round: round `t` plays its own choice, which reads every
/// round before it (`ftl`, Hedge).
pub fn every_round_schedule(horizon: usize) -> Vec<Choice> {
    (1..=horizon)
        .map(|t| Choice {
            plays: t..t + 1,
            reads: 1..t,
        })
        .collect()
}

/// The uniform law on K actions.
pub fn uniform_law<R: Real>(k: usize, ctx: &R::Context) -> Vec<R> {
    vec![R::from_rational(&Q::new(1.into(), k.into()), ctx); k]
}

/// The point mass on action `action` (0-based) among K.
pub fn point_mass<R: Real>(k: usize, action: usize, ctx: &R::Context) -> Vec<R> {
    (0..k)
        .map(|j| R::from_int(i64::from(j == action), ctx))
        .collect()
}

/// Run a schedule online: `choose(index, choice)` picks the action of each
/// choice in turn, which is then played on all of the choice's rounds.
pub fn play_schedule(
    schedule: Vec<Choice>,
    mut choose: impl FnMut(usize, &Choice) -> usize,
) -> Vec<usize> {
    let mut actions = Vec::new();
    for (index, choice) in schedule.iter().enumerate() {
        let action = choose(index, choice);
        actions.extend(std::iter::repeat_n(action, choice.plays.len()));
    }
    actions
}

/// The exact law of the whole action sequence `I_1..I_t` for one loss
/// sequence: the schedule with each choice's law.
#[derive(Clone, Debug)]
pub struct SequenceLaw<R> {
    /// The choices with their laws over the K actions.
    pub choices: Vec<(Choice, Vec<R>)>,
}

impl<R: Real> SequenceLaw<R> {
    /// The law of `algorithm`'s actions on `losses` (rounds `1..=losses.len()`).
    pub fn of<A: OnlineAlgorithm>(
        algorithm: &A,
        losses: &[Vec<Q>],
        ctx: &R::Context,
    ) -> Result<Self> {
        Self::of_with_progress(algorithm, losses, ctx, &mut |_, _| {})
    }

    /// [`SequenceLaw::of`], calling `progress(done, total)` after each
    /// choice with the cost (in the units of
    /// [`OnlineAlgorithm::choice_cost`]) done so far and in all.
    pub fn of_with_progress<A: OnlineAlgorithm>(
        algorithm: &A,
        losses: &[Vec<Q>],
        ctx: &R::Context,
        progress: &mut dyn FnMut(u128, u128),
    ) -> Result<Self> {
        check_loss_sequence(losses, algorithm.actions())?;
        let total = law_cost(algorithm, losses);
        let mut done = 0u128;
        let choices = algorithm
            .schedule(losses.len())
            .into_iter()
            .enumerate()
            .map(|(i, choice)| {
                let window = &losses[choice.reads.start - 1..choice.reads.end - 1];
                let law = algorithm.choice_law::<R>(i, &choice, window, ctx)?;
                done = done.saturating_add(algorithm.choice_cost(i, &choice, window));
                progress(done, total);
                Ok((choice, law))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(SequenceLaw { choices })
    }

    /// `P(I_1..I_t = actions)` (0-based actions): zero unless the sequence is
    /// constant on every choice's rounds, else the product of the choices'
    /// probabilities.
    pub fn probability(&self, actions: &[usize], ctx: &R::Context) -> R {
        let mut p = R::from_int(1, ctx);
        for (choice, law) in &self.choices {
            let first = actions[choice.plays.start - 1];
            if actions[choice.plays.start - 1..choice.plays.end - 1]
                .iter()
                .any(|&a| a != first)
            {
                return R::from_int(0, ctx);
            }
            p = p * &law[first];
        }
        p
    }
}

/// The largest total cost ([`law_cost`]) that [`SequenceLaw::best`] accepts
/// without `force`: 2¹⁶ one-shot selection laws. Measured: the 62 450 laws
/// of `wu-wang` with B = 1, K = 5, T = 31 and fractional losses take 25 s
/// (Laplace noise) and 18 s (Gumbel) of CPU in a release build. The resampling (B = 1) law of `wu-wang`
/// costs `∏_j (n_j + 1)` per choice, `n_j` the number of losses of action `j`
/// in the epoch strictly between 0 and 1, so `(n+1)^K`: K = 5, T = 63 with
/// fractional losses is `33⁵ ≈ 3.9·10⁷` for the last epoch alone.
pub const MAX_LAW_COST: u128 = 1 << 16;

/// The largest numerator or denominator, in bits, of ε and of a noise scale
/// (about 1233 decimal digits): the certified laws' precision grows with
/// them, and a scale of `10^99999` (read back from a hand-edited merge file)
/// kept the checker busy for minutes.
pub const MAX_PARAMETER_BITS: u64 = 4096;

/// Refuse a parameter (`name`: ε, a noise scale) whose numerator or
/// denominator has more than [`MAX_PARAMETER_BITS`] bits.
pub fn check_parameter_bits(name: &str, q: &crate::num::Q) -> crate::error::Result<()> {
    let bits = q.numer().bits().max(q.denom().bits());
    if bits > MAX_PARAMETER_BITS {
        return Err(crate::error::Error::TooLarge(format!(
            "{name} has a numerator or denominator of {bits} bits; at most {MAX_PARAMETER_BITS} bits (about 1233 decimal digits) are accepted"
        )));
    }
    Ok(())
}

/// The cost of [`SequenceLaw::of`] for `algorithm` on `losses`: the sum of
/// [`OnlineAlgorithm::choice_cost`] over the schedule (saturating). The loss
/// sequence is assumed checked.
pub fn law_cost<A: OnlineAlgorithm>(algorithm: &A, losses: &[Vec<Q>]) -> u128 {
    algorithm
        .schedule(losses.len())
        .iter()
        .enumerate()
        .map(|(i, choice)| {
            let window = &losses[choice.reads.start - 1..choice.reads.end - 1];
            algorithm.choice_cost(i, choice, window)
        })
        .fold(0u128, u128::saturating_add)
}

/// The most trustworthy law of an action sequence the input allows (like
/// [`crate::mechanism::BestLaw`] for one selection).
#[derive(Clone, Debug)]
pub enum BestSequenceLaw {
    /// Every choice's law as exact rationals.
    Exact(SequenceLaw<Q>),
    /// Enclosures of every choice's law.
    Certified {
        /// The law, in the certified backend.
        law: SequenceLaw<Certified>,
        /// The working precision of the last attempt.
        precision: Precision,
        /// Whether every entry met the requested relative width.
        accepted: bool,
        /// Why the exact backend could not give the law.
        why_not_exact: String,
    },
}

impl BestSequenceLaw {
    /// How far the law can be trusted: exact or certified.
    pub fn kind(&self) -> Kind {
        match self {
            BestSequenceLaw::Exact(_) => Kind::Exact,
            BestSequenceLaw::Certified { .. } => Kind::Certified,
        }
    }

    /// The schedule (the choices, in order).
    pub fn schedule(&self) -> Vec<Choice> {
        match self {
            BestSequenceLaw::Exact(law) => law.choices.iter().map(|c| c.0.clone()).collect(),
            BestSequenceLaw::Certified { law, .. } => {
                law.choices.iter().map(|c| c.0.clone()).collect()
            }
        }
    }

    /// Each choice's law as doubles (midpoints of the enclosures): for
    /// expected counts of statistical tests, which are approximate anyway.
    pub fn laws_f64(&self) -> Vec<Vec<f64>> {
        fn to_f64<R: Real>(law: &SequenceLaw<R>) -> Vec<Vec<f64>> {
            law.choices
                .iter()
                .map(|(_, p)| p.iter().map(Real::to_f64).collect())
                .collect()
        }
        match self {
            BestSequenceLaw::Exact(law) => to_f64(law),
            BestSequenceLaw::Certified { law, .. } => to_f64(law),
        }
    }

    /// For each choice, which actions certainly have probability zero.
    pub fn impossible(&self) -> Vec<Vec<bool>> {
        fn zeros<R: Real>(law: &SequenceLaw<R>) -> Vec<Vec<bool>> {
            law.choices
                .iter()
                .map(|(_, p)| p.iter().map(Real::is_zero_certain).collect())
                .collect()
        }
        match self {
            BestSequenceLaw::Exact(law) => zeros(law),
            BestSequenceLaw::Certified { law, .. } => zeros(law),
        }
    }
}

/// How [`SequenceLaw::best`] works: the digits wanted, whether to exceed
/// [`MAX_LAW_COST`], and a progress callback `(done, total)`.
pub struct BestOptions<'a> {
    /// Certified laws are refined until every entry's relative width is
    /// below `10^−digits` (precision from `max(128, 3.33·digits + 64)` bits,
    /// doubled up to 2¹⁶).
    pub digits: u32,
    /// Compute the law even when its cost exceeds [`MAX_LAW_COST`].
    pub force: bool,
    /// Called after each choice of each pass with the cost done and in all.
    pub progress: Option<&'a mut dyn FnMut(u128, u128)>,
}

impl Default for BestOptions<'_> {
    fn default() -> Self {
        BestOptions {
            digits: 42,
            force: false,
            progress: None,
        }
    }
}

impl SequenceLaw<Q> {
    /// The law of `algorithm`'s actions on `losses`, exact if the exact
    /// backend can represent it (e.g. `ftl`, or scales whose weights are
    /// rational), else certified to `options.digits` relative digits — as
    /// [`crate::mechanism::best_law`] does for one selection.
    ///
    /// Refuses with [`Error::TooLarge`] when [`law_cost`] exceeds
    /// [`MAX_LAW_COST`] and `options.force` is not set.
    ///
    /// ```
    /// use dpdtol::algorithm::{AlgorithmId, BestOptions, BestSequenceLaw, Config, SequenceLaw};
    /// use dpdtol::num::Q;
    /// let q = |n: i64, d: i64| Q::new(n.into(), d.into());
    /// let wu_wang = Config::new(AlgorithmId::WuWang, 2, q(1, 1)).build().unwrap();
    /// let losses = vec![vec![q(0, 1), q(1, 1)]; 3];
    /// let law = SequenceLaw::best(&wu_wang, &losses, BestOptions::default()).unwrap();
    /// // Laplace noise at scale 2/ε: certified; two choices (rounds 1 and 2–3).
    /// assert!(matches!(law, BestSequenceLaw::Certified { .. }));
    /// assert_eq!(law.schedule().len(), 2);
    /// ```
    pub fn best<A: OnlineAlgorithm>(
        algorithm: &A,
        losses: &[Vec<Q>],
        options: BestOptions<'_>,
    ) -> Result<BestSequenceLaw> {
        check_loss_sequence(losses, algorithm.actions())?;
        crate::num::check_digits(options.digits)?;
        let cost = law_cost(algorithm, losses);
        if cost > MAX_LAW_COST && !options.force {
            return Err(Error::TooLarge(format!(
                "this law enumerates {cost} one-shot selection laws (limit {MAX_LAW_COST}); use a shorter horizon, fewer actions or losses in {{0, 1}}, or --force"
            )));
        }
        let mut no_progress = |_: u128, _: u128| {};
        let progress = options.progress.unwrap_or(&mut no_progress);
        let why_not_exact =
            match SequenceLaw::<Q>::of_with_progress(algorithm, losses, &(), progress) {
                Ok(exact) => return Ok(BestSequenceLaw::Exact(exact)),
                Err(Error::NotRepresentable(why)) => why,
                Err(e) => return Err(e),
            };
        let target = Q::new(
            1.into(),
            num_bigint::BigInt::from(10u32).pow(options.digits),
        );
        // log2(10) < 3.33 bits a digit, plus 64 bits of slack for the
        // arithmetic's widening: one pass usually suffices.
        let start = (f64::from(options.digits) * 3.33 + 64.0) as u32;
        let refined = refine_until(
            Precision(start.max(128)),
            Precision(crate::num::MAX_LAW_PRECISION),
            |bits| SequenceLaw::<Certified>::of_with_progress(algorithm, losses, &bits, progress),
            |law| {
                law.choices.iter().flat_map(|(_, p)| p).all(|p| {
                    p.enclosure()
                        .and_then(|(lo, hi)| relative_width(&lo, &hi))
                        .is_some_and(|w| w <= target)
                        || p.is_zero_certain()
                })
            },
        )?;
        Ok(BestSequenceLaw::Certified {
            law: refined.value,
            precision: refined.precision,
            accepted: refined.accepted,
            why_not_exact,
        })
    }
}

/// Check a loss sequence: at least one round, every vector of length `k`,
/// every loss in `[0, 1]`.
pub fn check_loss_sequence(losses: &[Vec<Q>], k: usize) -> Result<()> {
    if losses.is_empty() {
        return Err(Error::InvalidInput("the horizon must be at least 1".into()));
    }
    for (t, vector) in losses.iter().enumerate() {
        if vector.len() != k {
            return Err(Error::InvalidInput(format!(
                "round {} has {} losses, expected K = {k}",
                t + 1,
                vector.len()
            )));
        }
        if let Some(bad) = vector.iter().find(|l| l.is_negative() || **l > Q::one()) {
            return Err(Error::InvalidInput(format!(
                "loss {bad} in round {} is outside [0, 1]",
                t + 1
            )));
        }
    }
    Ok(())
}

/// The per-action sums of a window of loss vectors.
pub fn window_sums(window: &[Vec<Q>], k: usize) -> Vec<Q> {
    let mut sums = vec![Q::zero(); k];
    for vector in window {
        for (s, l) in sums.iter_mut().zip(vector) {
            *s += l;
        }
    }
    sums
}
