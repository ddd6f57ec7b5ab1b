//! Certified bounds on the laws of the two private Thompson samplings,
//! DP-TS and Lazy-DP-TS, at any K: their events in the terms of
//! [`super::beta_sandwich`], and the bounds of every pull sequence on a
//! reward table.
//!
//! - **DP-TS** (Hu & Hegde, UAI 2022, as inferred in
//!   [`crate::bandit::policy::dp_ts`]): arm `j`'s mean after `n`
//!   observations is `(S_j(n) + W_j(n))/n`, `W_j` the Hybrid mechanism's
//!   tree of increments (the noises of
//!   [`super::hybrid_ucb`]'s law: `W(n) = W(p(n)) + Z(n)`), and the bonus
//!   `c·√(8 ln(n + 1) ln t)/(εn)` reads the round of the draw
//!   ([`BonusRound::Current`]) or of the arm's last observation
//!   ([`BonusRound::LastUpdate`]; `ln 1 = 0` for the first arm's first
//!   mean).
//! - **Lazy-DP-TS** (Hu, Huang, Mehta & Hegde, arXiv:2102.07929,
//!   Algorithm 3, 004 L190–L200): the mean of the latest epoch,
//!   `(Φ + Lap(b))/O` with a fresh noise per epoch (the initial pull, then
//!   epochs of 2, 4, 8, … observations, [`crate::bandit::policy::lazy`]),
//!   and the bonus `3 ln t/(εO)` of the round of the draw.
//!
//! Rounds `1..=K` pull arms `0..K` in order; the rounds after them draw.
//! A pull sequence whose first `K` rounds differ has probability 0.

use super::beta_sandwich::{bounds, ArmEvent, Atom, Cells, Event, Mean};
use super::hybrid_ucb::{check_hybrid_params, hybrid_increment};
use super::params::{Overrides, Scales};
use super::{check_bonus, check_positive, check_scale};
use crate::bandit::policy::dp_ts::BonusRound;
use crate::bandit::policy::BanditId;
use crate::error::{Error, Result};
use crate::num::{Precision, Real, Q};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A private Thompson sampling whose law [`super::beta_sandwich`] bounds.
pub trait SandwichLaw: Sync {
    /// K.
    fn arms(&self) -> usize;
    /// Check the parameters.
    fn validate(&self) -> Result<()>;
    /// The event of `pulls` when the learner sees `seen` (`seen[t]` the
    /// reward of round `t + 1`); `None` when the first `K` pulls are not
    /// arms `0..K` in order.
    fn event(&self, pulls: &[usize], seen: &[Q]) -> Result<Option<Event>>;
    /// The algorithm's name in messages.
    fn name(&self) -> &'static str;
}

/// The parameters of DP-TS's law, exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DpTsLawParams {
    /// K.
    pub arms: usize,
    /// ε of the bonus.
    pub epsilon: Q,
    /// The scale of each array block's Laplace noise (inferred `2/ε`).
    pub array_scale: Q,
    /// The per-level scale of a tree p-sum's noise (inferred `2/ε`).
    pub tree_scale: Q,
    /// The constant `c = 6` of the bonus.
    pub bonus: Q,
    /// The round whose `ln t` the bonus reads.
    pub bonus_round: BonusRound,
}

impl DpTsLawParams {
    /// The inferred defaults ([`crate::bandit::policy::dp_ts::DpTs::new`]).
    pub fn inferred(arms: usize, epsilon: Q) -> DpTsLawParams {
        let two_over = Q::from_integer(2.into()) / &epsilon;
        DpTsLawParams {
            arms,
            array_scale: two_over.clone(),
            tree_scale: two_over,
            bonus: Q::from_integer(6.into()),
            bonus_round: BonusRound::default(),
            epsilon,
        }
    }
}

/// An error unless the pulls are arms below `k`, one per reward seen.
fn check_pulls(k: usize, pulls: &[usize], seen: &[Q]) -> Result<()> {
    if k < 2 {
        return Err(Error::InvalidInput(format!(
            "a bandit needs at least 2 arms, got {k}"
        )));
    }
    if pulls.len() != seen.len() || pulls.iter().any(|&a| a >= k) {
        return Err(Error::InvalidInput(format!(
            "the pulls must be arms below {k}, one per reward seen"
        )));
    }
    Ok(())
}

/// Whether round `t ≤ K` pulled arm `t − 1` for every such round.
fn initial_pulls_in_order(k: usize, pulls: &[usize]) -> bool {
    pulls.iter().take(k).enumerate().all(|(i, &a)| a == i)
}

/// Each arm's means and the rounds' reads, filled by the walk over the
/// rounds: `read(arm, mean key, atom)` returns the `(mean, read)` indices.
struct Reads {
    means: Vec<Vec<Mean>>,
    rounds: Vec<(Vec<(usize, usize)>, usize)>,
}

impl Reads {
    fn new(k: usize) -> Reads {
        Reads {
            means: vec![Vec::new(); k],
            rounds: Vec::new(),
        }
    }

    /// The read of `atom` on arm `j`'s mean `(noise, n, sum)`, the mean
    /// added when new and the atom when it is not the mean's last.
    fn read(&mut self, j: usize, noise: usize, n: u64, sum: &Q, atom: Atom) -> (usize, usize) {
        let means = &mut self.means[j];
        let m = match means.iter().position(|m| m.noise == noise) {
            Some(m) => m,
            None => {
                means.push(Mean {
                    noise,
                    n,
                    sum: sum.clone(),
                    reads: Vec::new(),
                });
                means.len() - 1
            }
        };
        let reads = &mut means[m].reads;
        if reads.last() != Some(&atom) {
            reads.push(atom);
        }
        (m, reads.len() - 1)
    }

    /// The event: each arm's means, the noises `noises` gives for them (a
    /// tree of increments, [`ArmEvent::noises`]), and `κ`.
    fn into_event(self, kappa: &Q, noises: impl Fn(&[Mean]) -> Vec<(Option<usize>, Q)>) -> Event {
        let arms = self
            .means
            .into_iter()
            .map(|means| ArmEvent {
                noises: noises(&means),
                kappa: kappa.clone(),
                means,
            })
            .collect();
        Event {
            arms,
            rounds: self.rounds,
        }
    }
}

impl SandwichLaw for DpTsLawParams {
    fn arms(&self) -> usize {
        self.arms
    }

    fn validate(&self) -> Result<()> {
        check_hybrid_params(
            &self.epsilon,
            &self.array_scale,
            &self.tree_scale,
            &[("the bonus", &self.bonus)],
        )?;
        check_bonus(&self.bonus)
    }

    fn event(&self, pulls: &[usize], seen: &[Q]) -> Result<Option<Event>> {
        let k = self.arms;
        check_pulls(k, pulls, seen)?;
        if !initial_pulls_in_order(k, pulls) {
            return Ok(None);
        }
        // Per arm: its count, its running sum and the round of its last
        // observation.
        let mut count = vec![0u64; k];
        let mut sum = vec![Q::from_integer(0.into()); k];
        let mut updated = vec![0u64; k];
        let mut reads = Reads::new(k);
        for (i, (&arm, y)) in pulls.iter().zip(seen).enumerate() {
            let t = i as u64 + 1;
            if i >= k {
                let round = (0..k)
                    .map(|j| {
                        let n = count[j];
                        let at = match self.bonus_round {
                            BonusRound::Current => t,
                            BonusRound::LastUpdate => updated[j],
                        };
                        let atom = Atom::SqrtLogs { n, t: at };
                        reads.read(j, n as usize - 1, n, &sum[j], atom)
                    })
                    .collect();
                reads.rounds.push((round, arm));
            }
            count[arm] += 1;
            sum[arm] += y;
            updated[arm] = t;
        }
        // W(1..=N), N the largest count read: W(n) is noise n − 1.
        Ok(Some(reads.into_event(
            &(&self.bonus / &self.epsilon),
            |means| {
                let top = means.iter().map(|m| m.n).max().unwrap_or(0);
                (1..=top)
                    .map(|n| {
                        let (parent, scale) = hybrid_increment(n, &self.array_scale, |m| {
                            Q::from_integer((m + 1).into()) * &self.tree_scale
                        });
                        (parent.map(|p| p as usize - 1), scale)
                    })
                    .collect()
            },
        )))
    }

    fn name(&self) -> &'static str {
        "dp-ts"
    }
}

/// The parameters of Lazy-DP-TS's law, exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LazyDpTsLawParams {
    /// K.
    pub arms: usize,
    /// ε of the bonus.
    pub epsilon: Q,
    /// The scale of each epoch's Laplace noise (`1/ε` as printed).
    pub noise_scale: Q,
    /// The constant 3 of line 4's bonus.
    pub bonus: Q,
}

impl LazyDpTsLawParams {
    /// As printed: noise `Lap(1/ε)`, bonus `3 ln t/(εO)`.
    pub fn printed(arms: usize, epsilon: Q) -> LazyDpTsLawParams {
        LazyDpTsLawParams {
            arms,
            noise_scale: epsilon.recip(),
            bonus: Q::from_integer(3.into()),
            epsilon,
        }
    }
}

impl SandwichLaw for LazyDpTsLawParams {
    fn arms(&self) -> usize {
        self.arms
    }

    fn validate(&self) -> Result<()> {
        check_positive(&[
            ("--epsilon", &self.epsilon),
            ("--noise-scale", &self.noise_scale),
            ("the bonus", &self.bonus),
        ])?;
        check_scale(&self.epsilon, &self.noise_scale)?;
        check_bonus(&self.bonus)
    }

    fn event(&self, pulls: &[usize], seen: &[Q]) -> Result<Option<Event>> {
        let k = self.arms;
        check_pulls(k, pulls, seen)?;
        if !initial_pulls_in_order(k, pulls) {
            return Ok(None);
        }
        // Per arm: its epochs' (O, Φ), the unprocessed count and sum.
        let zero = Q::from_integer(0.into());
        let mut epochs: Vec<Vec<(u64, Q)>> = vec![Vec::new(); k];
        let mut pending = vec![(0u64, zero.clone()); k];
        let mut reads = Reads::new(k);
        for (i, (&arm, y)) in pulls.iter().zip(seen).enumerate() {
            let t = i as u64 + 1;
            if i >= k {
                let round = (0..k)
                    .map(|j| {
                        let e = epochs[j].len() - 1;
                        let (o, phi) = &epochs[j][e];
                        reads.read(j, e, *o, phi, Atom::Log { t })
                    })
                    .collect();
                reads.rounds.push((round, arm));
            }
            if epochs[arm].is_empty() {
                epochs[arm].push((1, y.clone()));
                continue;
            }
            let (n, phi) = &mut pending[arm];
            *n += 1;
            *phi += y;
            let length = 1u64 << epochs[arm].len();
            if *n == length {
                let phi = std::mem::replace(phi, zero.clone());
                *n = 0;
                epochs[arm].push((length, phi));
            }
        }
        // One independent noise per epoch. Every epoch but one ended in the
        // last round is read in the round after it ends, so an arm's means
        // are its epochs 0, 1, … in order and epoch e is noise e.
        Ok(Some(
            reads.into_event(&(&self.bonus / &self.epsilon), |means| {
                vec![(None, self.noise_scale.clone()); means.len()]
            }),
        ))
    }

    fn name(&self) -> &'static str {
        "lazy-dp-ts"
    }
}

/// Each arm's cell law, by its part of the event.
type Memo<R> = HashMap<ArmEvent, Arc<Cells<R>>>;

/// DP-TS or Lazy-DP-TS: the laws [`law_bounds`] bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrivateThompson {
    /// DP-TS.
    DpTs(DpTsLawParams),
    /// Lazy-DP-TS.
    LazyDpTs(LazyDpTsLawParams),
}

impl PrivateThompson {
    /// The law of `id` (`dp-ts` or `lazy-dp-ts`) for `arms` arms at
    /// `epsilon`, the printed (DP-TS: inferred) parameters `overrides`
    /// where given: the noise scale, DP-TS's tree scale and a factor on
    /// both of its scales, the bonus constant, resolved as their audit
    /// resolves them ([`Scales::resolve`]), and DP-TS's bonus round. The
    /// overrides no law reads are the caller's to refuse
    /// ([`Overrides::refuse_unread`]).
    pub fn of(
        id: BanditId,
        arms: usize,
        epsilon: Q,
        overrides: &Overrides,
    ) -> Result<PrivateThompson> {
        if id == BanditId::LazyDpTs {
            let flag = [
                ("--tree-scale", overrides.tree_scale.is_some()),
                ("--scale-factor", overrides.scale_factor.is_some()),
                (
                    "--bonus-round",
                    overrides.bonus_round != BonusRound::default(),
                ),
            ]
            .into_iter()
            .find_map(|(flag, set)| set.then_some(flag));
            if let Some(flag) = flag {
                return Err(Error::InvalidInput(format!(
                    "{flag} does not apply to lazy-dp-ts"
                )));
            }
        }
        if !matches!(id, BanditId::DpTs | BanditId::LazyDpTs) {
            return Err(Error::InvalidInput(format!(
                "certified bounds on the law cover dp-ts and lazy-dp-ts, not {id}"
            )));
        }
        let Scales {
            scale,
            tree_scale,
            bonus,
        } = Scales::resolve(
            id,
            &epsilon,
            overrides.scale.clone(),
            overrides.tree_scale.clone(),
            overrides.bonus.clone(),
            overrides.scale_factor.clone(),
        )?;
        Ok(if id == BanditId::DpTs {
            PrivateThompson::DpTs(DpTsLawParams {
                arms,
                epsilon,
                array_scale: scale,
                tree_scale,
                bonus,
                bonus_round: overrides.bonus_round,
            })
        } else {
            PrivateThompson::LazyDpTs(LazyDpTsLawParams {
                arms,
                epsilon,
                noise_scale: scale,
                bonus,
            })
        })
    }

    /// The law's parameters: `(noise scale, tree scale, bonus, bonus round)`
    /// (Lazy-DP-TS has no tree scale, and its bonus reads the current round).
    pub fn parameters(&self) -> (&Q, Option<&Q>, &Q, BonusRound) {
        match self {
            PrivateThompson::DpTs(p) => {
                (&p.array_scale, Some(&p.tree_scale), &p.bonus, p.bonus_round)
            }
            PrivateThompson::LazyDpTs(p) => (&p.noise_scale, None, &p.bonus, BonusRound::default()),
        }
    }
}

impl SandwichLaw for PrivateThompson {
    fn arms(&self) -> usize {
        match self {
            PrivateThompson::DpTs(p) => p.arms(),
            PrivateThompson::LazyDpTs(p) => p.arms(),
        }
    }

    fn validate(&self) -> Result<()> {
        match self {
            PrivateThompson::DpTs(p) => p.validate(),
            PrivateThompson::LazyDpTs(p) => p.validate(),
        }
    }

    fn event(&self, pulls: &[usize], seen: &[Q]) -> Result<Option<Event>> {
        match self {
            PrivateThompson::DpTs(p) => p.event(pulls, seen),
            PrivateThompson::LazyDpTs(p) => p.event(pulls, seen),
        }
    }

    fn name(&self) -> &'static str {
        match self {
            PrivateThompson::DpTs(p) => p.name(),
            PrivateThompson::LazyDpTs(p) => p.name(),
        }
    }
}

/// `compute` at the first certified precision of [`super::PRECISIONS`]
/// that decides every sign it meets, doubling while it reports an
/// undecided one ([`Error::Domain`]); the result and its precision.
pub fn certified<T>(mut compute: impl FnMut(&Precision) -> Result<T>) -> Result<(T, u32)> {
    let (mut bits, top) = super::PRECISIONS;
    loop {
        match compute(&Precision(bits)) {
            Err(Error::Domain(_)) if bits < top => bits = (bits * 2).min(top),
            other => return other.map(|t| (t, bits)),
        }
    }
}

/// Bounds on `P(pulls | seen)` for one law at one precision, each arm's
/// cell law computed once and shared by the events that repeat it.
pub struct Sandwich<'a, L, R: Real> {
    law: &'a L,
    ctx: R::Context,
    cells: Mutex<Memo<R>>,
}

impl<'a, L: SandwichLaw, R: Real> Sandwich<'a, L, R> {
    /// An empty memo for `law` at `ctx`.
    pub fn new(law: &'a L, ctx: R::Context) -> Result<Sandwich<'a, L, R>> {
        law.validate()?;
        Ok(Sandwich {
            law,
            ctx,
            cells: Mutex::new(HashMap::new()),
        })
    }

    /// `(lo, hi)` around `P(pulls | seen)`; `(0, 0)` when the pulls are
    /// impossible.
    pub fn bounds(&self, pulls: &[usize], seen: &[Q]) -> Result<(R, R)> {
        let zero = || R::from_int(0, &self.ctx);
        let Some(event) = self.law.event(pulls, seen)? else {
            return Ok((zero(), zero()));
        };
        let cells = event
            .arms
            .iter()
            .map(|arm| {
                if let Some(c) = self.memo().get(arm) {
                    return Ok(Arc::clone(c));
                }
                let c = Arc::new(arm.cells::<R>(&self.ctx)?);
                self.memo().insert(arm.clone(), Arc::clone(&c));
                Ok(c)
            })
            .collect::<Result<Vec<_>>>()?;
        let refs: Vec<&Cells<R>> = cells.iter().map(|c| c.as_ref()).collect();
        bounds(&event, &refs, &self.ctx)
    }

    fn memo(&self) -> std::sync::MutexGuard<'_, Memo<R>> {
        self.cells.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The bounds of every pull sequence (rounds `1..=K` in order, then any
/// arms, lexicographic) on `rewards` (`rewards[t][j]`: arm `j`'s reward in
/// round `t + 1`), in parallel.
pub fn law_bounds<L: SandwichLaw, R: Real>(
    law: &L,
    rewards: &[Vec<Q>],
    ctx: &R::Context,
) -> Result<Vec<(Vec<usize>, R, R)>> {
    let k = law.arms();
    if let Some(row) = rewards.iter().find(|r| r.len() != k) {
        return Err(Error::InvalidInput(format!(
            "a reward table of K = {k} arms has {k} rewards a round, not {}",
            row.len()
        )));
    }
    let sandwich = Sandwich::<L, R>::new(law, ctx.clone())?;
    let sequences = super::anytime_lazy_ucb::pull_sequences_of(k, k, rewards.len());
    sequences
        .into_par_iter()
        .map(|pulls| {
            let seen: Vec<Q> = pulls
                .iter()
                .enumerate()
                .map(|(t, &a)| rewards[t][a].clone())
                .collect();
            let (lo, hi) = sandwich.bounds(&pulls, &seen)?;
            Ok((pulls, lo, hi))
        })
        .collect()
}
