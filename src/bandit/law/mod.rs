//! The law of a bandit algorithm's pull sequence on a fixed reward table,
//! exact or certified: for a table `x ∈ (V^K)^T` and pulls `a_1 … a_T`, the
//! probability `P(a | y)` over the algorithm's own noise, where the learner
//! sees `y_t = x_t(a_t)`. Given the pulls and the rewards seen, a lazy
//! schedule is deterministic, so each event "these pulls" is a set of linear
//! inequalities in named Laplace noises, measured in closed form by
//! [`crate::measure`].
//!
//! A [`PullLaw`] lists the candidate pull sequences, maps (pulls, rewards
//! seen) to a hashable event and gives the event's probability; the privacy
//! check ([`crate::privacy::bandit::exact`]) and the tests see a law only
//! through it. Implemented by:
//!
//! - [`anytime_lazy_ucb`]: Anytime-Lazy-UCB (Hu et al., 004 Algorithm 1),
//!   K = 2, a tree of one-dimensional windows;
//! - [`anytime_lazy_ucb_arms`]: the same at any K ≥ 2, a polyhedron;
//! - [`hybrid_ucb`]: Hybrid-UCB (002 Appendix E, as inferred in
//!   [`crate::bandit::policy::hybrid_ucb`]), K = 2, a polyhedron in the arms'
//!   noisy sums;
//! - [`dp_se`]: DP-SE (Sajed & Sheffet 2019), K = 2;
//! - [`dp_ucb`]: DP-UCB (Mishra & Thakurta 2015), K = 2, a polyhedron in
//!   the binary mechanism's node noises;
//! - [`dp_ucb_bound`]: DP-UCB-Bound (Tossou & Dimitrakakis 2016), K = 2, a
//!   polyhedron in the Hybrid mechanism's noises;
//! - [`dp_ucb_int`]: DP-UCB-INT (Tossou & Dimitrakakis 2016), any K and
//!   interval, a forest of Laplace draws integrated leaf to root in closed
//!   form.
//!
//! The private Thompson samplings, DP-TS and Lazy-DP-TS ([`dp_ts`]), have
//! no [`PullLaw`]: their Beta draws have real parameters, and their laws are
//! certified *bounds* ([`beta_sandwich`]), not values.
//!
//! UCB1 (non-private, [`ucb1`]) has no noise and no [`PullLaw`]: its law is
//! a point mass, or a finite tree when its ties are drawn uniformly, with
//! every comparison of two indices decided exactly. Thompson sampling
//! (non-private, [`thompson`]) on rewards 0 and 1 has none either: its law
//! is a tree of rational pull probabilities, integrals of polynomials.
//!
//! The laws reuse the policies' schedules and decision rules
//! ([`crate::bandit::policy`]) and replace their draws.

pub mod anytime_lazy_ucb;
pub mod anytime_lazy_ucb_arms;
pub mod beta_sandwich;
pub mod dp_se;
pub mod dp_ts;
pub mod dp_ucb;
pub mod dp_ucb_bound;
pub mod dp_ucb_int;
pub mod hybrid_ucb;
pub mod params;
pub mod thompson;
pub mod ucb1;

use crate::error::{Error, Result};
use crate::num::{format_brief, Real, Q};
use crate::progress::Progress;
use num_traits::Signed;
use rayon::prelude::*;
use std::hash::Hash;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A bandit algorithm whose law of the pull sequence given the rewards the
/// learner saw is known as a function of a hashable event.
pub trait PullLaw: Sync {
    /// What `P(pulls | seen)` depends on: equal events, equal probabilities.
    type Event: Eq + Hash + Send + Sync;
    /// Check the parameters.
    fn validate(&self) -> Result<()>;
    /// The number of arms K (pulls are `0..K`).
    fn arms(&self) -> usize {
        2
    }
    /// How many pull sequences [`PullLaw::sequences`] gives, `None` when it
    /// does not fit 64 bits (computed without listing them).
    fn sequence_count(&self, horizon: usize) -> Option<u64>;
    /// The closed-form integrations of the whole law on `horizon` rounds,
    /// what the oracle's size guard counts: one a pull sequence unless a
    /// sequence's law is a product of several (`None` past 64 bits).
    fn integrations(&self, horizon: usize) -> Option<u64> {
        self.sequence_count(horizon)
    }
    /// The work of the whole law on `horizon` rounds, in [`WORK_UNIT`]s
    /// (`None` when it overflows): one a one-dimensional integration (the
    /// default), more for a polyhedron, whose Fourier–Motzkin elimination
    /// grows with its number of noises.
    fn work(&self, horizon: usize) -> Option<u128> {
        self.integrations(horizon).map(u128::from)
    }
    /// The work of one law `P(pulls | seen)` on `horizon` rounds, in
    /// [`WORK_UNIT`]s: [`PullLaw::work`] shared by the pull sequences,
    /// rounded up (at least 1; `None` when unknown). The privacy check
    /// multiplies it by the distinct laws it computes.
    fn law_work(&self, horizon: usize) -> Option<u128> {
        let sequences = u128::from(self.sequence_count(horizon)?.max(1));
        Some(self.work(horizon)?.div_ceil(sequences).max(1))
    }
    /// Every pull sequence of `horizon` rounds that may have positive
    /// probability (a superset is fine), arms 0-based.
    fn sequences(&self, horizon: usize) -> Vec<Vec<usize>>;
    /// The pull sequence of index `index` in [`PullLaw::sequences`], `None`
    /// past the end (an implementation whose order allows it computes it
    /// without listing the others).
    fn sequence(&self, horizon: usize, index: u64) -> Option<Vec<usize>> {
        let index = usize::try_from(index).ok()?;
        self.sequences(horizon).into_iter().nth(index)
    }
    /// The cell `(row, arm)` of the reward table each of `pulls` receives:
    /// by default the pull of round `t` receives row `t`'s entry
    /// ([`cells_by_round`]).
    fn cells(&self, pulls: &[usize]) -> Vec<(usize, usize)> {
        cells_by_round(pulls)
    }
    /// The rewards the learner sees when it pulls `pulls` on `rewards`
    /// (`rewards[t][j]`: row `t`, arm `j`): the entries of
    /// [`PullLaw::cells`].
    fn seen(&self, pulls: &[usize], rewards: &[impl AsRef<[Q]>]) -> Vec<Q> {
        self.cells(pulls)
            .into_iter()
            .map(|(t, a)| rewards[t].as_ref()[a].clone())
            .collect()
    }
    /// Whether neighbouring tables differ in one entry rather than one row.
    /// Read by round ([`cells_by_round`], the default), row `t` is round
    /// `t`'s reward vector, of which the learner sees one entry: the
    /// neighbours replace a row (Hu, Huang, Mehta & Hegde, the definition of
    /// privacy, arXiv:2102.07929, L86). Read otherwise, a row
    /// is no round's data and the unit replaced is an entry, what one pull
    /// receives; either way one reward seen changes.
    fn neighbours_replace_an_entry(&self) -> bool {
        false
    }
    /// The event of `pulls` when the rewards seen are `seen`; `None` when
    /// the pulls have probability 0 whatever the noise.
    fn event(&self, pulls: &[usize], seen: &[Q]) -> Result<Option<Self::Event>>;
    /// `P(pulls | seen)` of an event.
    fn probability<R: Real>(&self, event: &Self::Event, ctx: &R::Context) -> Result<R>;
    /// The algorithm's name in messages.
    fn name(&self) -> &'static str;
    /// The most laws one check computes without `force`
    /// ([`MAX_LAWS`] unless a law is costly).
    fn max_laws(&self) -> u64 {
        MAX_LAWS
    }
}

/// The cells read when the pull of round `t` receives row `t`'s entry.
pub fn cells_by_round(pulls: &[usize]) -> Vec<(usize, usize)> {
    pulls.iter().copied().enumerate().collect()
}

/// The default limit on the laws one privacy check computes (without
/// `force`).
pub const MAX_LAWS: u64 = 1 << 22;

/// What [`PullLaw::work`] counts: one closed-form integration of
/// Anytime-Lazy-UCB's K = 2 law, about 3 ms of one core (release build,
/// certified at 192 bits: T = 14, 4096 sequences, 16 s; T = 16, 53 s), the
/// unit the costlier laws are calibrated in (docs/limits.md).
pub const WORK_UNIT: &str = "work units (about 3 ms each)";

/// The first and the largest precision, in bits, of a certified law: it is
/// doubled while a cut point is unresolved or a probability is not
/// enclosed to a relative `10^{−42}` (about 140 bits: the first pass keeps
/// 52 bits for the error the operations accumulate), and so are UCB1's
/// comparisons of two indices ([`ucb1`]).
pub const PRECISIONS: (u32, u32) = (192, 4096);

/// The most work a law, or a privacy check's laws and quotients, costs
/// without `force`, in [`WORK_UNIT`]s: about 50 s of one core (release
/// build).
pub const MAX_WORK: u128 = 1 << 14;

/// The work of `count` sequences of `units` [`WORK_UNIT`]s each, `None`
/// when the count is unknown or the product overflows.
pub fn sequences_work(count: Option<u64>, units: u128) -> Option<u128> {
    u128::from(count?).checked_mul(units)
}

/// The largest `1/b` and `1/(εb)` the exact laws accept (`b` the Laplace
/// scale of a noise): they evaluate `e^{−u/b}` with `u` up to about `T`
/// plus the thresholds' `ln t/ε`, and the enclosure of `e^{−x}` written as a
/// rational has about `1.44x` bits — a scale of `10^{−14}` (read back from a
/// hand-edited merge input) asked for terabytes. The papers' scales are
/// `1/ε` and the planted variants' `1/(2ε)`.
pub const MAX_INVERSE_SCALE: i64 = 1024;

/// An error naming the first of `parameters` (its name, its value) that is
/// not positive.
pub fn check_positive(parameters: &[(&str, &Q)]) -> Result<()> {
    match parameters.iter().find(|(_, v)| !v.is_positive()) {
        Some((name, v)) => Err(Error::InvalidInput(format!(
            "{name} must be positive, got {v}"
        ))),
        None => Ok(()),
    }
}

/// An error unless `1/b ≤` [`MAX_INVERSE_SCALE`] and `1/(εb) ≤`
/// [`MAX_INVERSE_SCALE`] (`ε`, `b` positive, checked by the caller).
pub fn check_scale(epsilon: &Q, scale: &Q) -> Result<()> {
    crate::algorithm::check_parameter_bits("epsilon", epsilon)?;
    crate::algorithm::check_parameter_bits("the noise scale", scale)?;
    let limit = Q::from_integer(MAX_INVERSE_SCALE.into());
    for (what, v) in [
        ("1/b", scale.recip()),
        ("1/(εb)", (epsilon * scale).recip()),
    ] {
        if v > limit {
            return Err(Error::InvalidInput(format!(
                "the noise scale b = {} at ε = {} gives {what} = {}, above {MAX_INVERSE_SCALE}: the laws' exponents grow like it (at most {MAX_INVERSE_SCALE} is accepted)",
                format_brief(scale),
                format_brief(epsilon),
                format_brief(&v)
            )));
        }
    }
    Ok(())
}

/// The largest index constant (`--bonus`) the exact laws accept: the
/// bonus `√(c ln t/n)` moves the cut points by about `√c` noise scales, and
/// the enclosure of `e^{−√c}` written as a rational has about `1.44√c`
/// bits (Hybrid-UCB's law at `c = 10^17` took 20 s and 240 MB, at `10^20`
/// gigabytes). The papers' constants are 2 and 3.
pub const MAX_BONUS: i64 = 1 << 20;

/// An error unless `0 < bonus ≤` [`MAX_BONUS`].
pub fn check_bonus(bonus: &Q) -> Result<()> {
    if bonus > &Q::from_integer(MAX_BONUS.into()) {
        return Err(Error::InvalidInput(format!(
            "the bonus constant {} is above {MAX_BONUS}: the laws' exponents grow like its square root (at most {MAX_BONUS} is accepted)",
            format_brief(bonus)
        )));
    }
    Ok(())
}

/// The whole law: `(pulls, P(pulls | seen))` over [`PullLaw::sequences`],
/// where `rewards[t][j]` is arm `j`'s reward in round `t + 1` (a row of K
/// values) and the learner sees `rewards[t][pulls[t]]`.
pub fn law<R: Real>(
    params: &impl PullLaw,
    rewards: &[impl AsRef<[Q]>],
    ctx: &R::Context,
) -> Result<Vec<(Vec<usize>, R)>> {
    counted_law(params, rewards, ctx, &Progress::default())
}

/// [`law`], its pull sequences counted on `progress` as they are done.
///
/// The sequences are integrated in parallel on the current rayon pool; each
/// probability is computed by the same code whatever the thread, so the law
/// is identical to a sequential one. On failure the error is that of the
/// first failing sequence in order (the sequences after a known failure
/// are skipped, those before it still computed), as sequentially.
pub(crate) fn counted_law<R: Real>(
    params: &impl PullLaw,
    rewards: &[impl AsRef<[Q]>],
    ctx: &R::Context,
    progress: &Progress,
) -> Result<Vec<(Vec<usize>, R)>> {
    params.validate()?;
    let k = params.arms();
    if let Some(row) = rewards.iter().find(|r| r.as_ref().len() != k) {
        return Err(Error::InvalidInput(format!(
            "a reward table of K = {k} arms has {k} rewards a round, not {}",
            row.as_ref().len()
        )));
    }
    // The rows as slices, which the threads share.
    let rewards: Vec<&[Q]> = rewards.iter().map(AsRef::as_ref).collect();
    let sequences = params.sequences(rewards.len());
    progress.start(sequences.len() as u64);
    let first_failure = AtomicUsize::new(usize::MAX);
    let probabilities: Vec<Option<Result<R>>> = sequences
        .par_iter()
        .enumerate()
        .map(|(i, pulls)| {
            if i > first_failure.load(Ordering::Relaxed) {
                return None;
            }
            progress.add(1);
            let seen = params.seen(pulls, &rewards);
            let p = match params.event(pulls, &seen) {
                Ok(Some(event)) => params.probability::<R>(&event, ctx),
                Ok(None) => Ok(R::from_int(0, ctx)),
                Err(e) => Err(e),
            };
            if p.is_err() {
                first_failure.fetch_min(i, Ordering::Relaxed);
            }
            Some(p)
        })
        .collect();
    sequences
        .into_iter()
        .zip(probabilities)
        .map(|(pulls, p)| match p {
            Some(p) => Ok((pulls, p?)),
            None => Err(Error::Domain(
                "a pull sequence was skipped after a failure before it".into(),
            )),
        })
        .collect()
}
