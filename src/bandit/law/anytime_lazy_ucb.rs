//! The exact law of the pull sequence of Anytime-Lazy-UCB (Hu et al., 004
//! Algorithm 1, L140–L149) with K = 2 arms on a fixed reward table, in
//! closed form.
//!
//! # The event "these pulls" is a tree of one-dimensional windows
//!
//! Fix the pulls `a_1 … a_T` and the rewards the learner sees,
//! `y_t = X_{a_t}(t)`. Line 2 pulls arm 1 then arm 2 (`a_1 = 1, a_2 = 2`,
//! 0-based 0 and 1 here). Given the pulls, the whole schedule is
//! deterministic ([`crate::bandit::policy::LazySchedule`]): which rounds end an epoch, and
//! with which sum. So the noise variables are known by name: `Z_v`, one per
//! arm per epoch (line 2's draw, then one per epoch end, line 7), each i.i.d.
//! `Lap(b)` (`b = 1/ε` as printed), and while `Z_v` is arm `j`'s current noise
//! its private mean is `μ̃_j = (S_v + Z_v)/O_v` with `S_v` the sum of the epoch
//! that drew it and `O_v = 2^{epoch}`.
//!
//! At a round `t ≥ 3`, with `Z_u`, `Z_w` the current noises of arms 0 and 1,
//! line 4 pulls arm 0 iff (ties, of probability zero, go to arm 0)
//!
//! ```text
//! Y := Z_u/O_u − Z_w/O_w  ≥  θ_t := S_w/O_w − S_u/O_u + g(O_w, t) − g(O_u, t),
//! g(O, t) = √(3 ln t / O) + 3 ln t/(ε O).
//! ```
//!
//! While the pair `(u, w)` is current, `O_u, O_w, S_u, S_w` are fixed, and
//! `θ_t` is monotone in `t` (the sign of `1/O_w − 1/O_u`; constant when
//! `O_u = O_w`, then rational). So the rounds of one pair cut `Y` to a window
//! `lo ≤ Y < hi`: `lo` the largest `θ_t` of the rounds pulling arm 0, `hi` the
//! smallest of those pulling arm 1 (an empty window: probability 0).
//!
//! A new noise enters when its arm's epoch ends, and forms its pairs with the
//! other arm's current noise; call that noise its parent. The pairs are the
//! edges of a tree rooted at arm 0's first noise, and
//!
//! ```text
//! P(a | y) = ∫ ∏_v f(z_v) ∏_{edges (v, parent)} 1[window of the edge] dz,
//! ```
//!
//! `f` the Laplace density. It is integrated leaf to root: a noise's factor
//! `F_v(z_v) = f(z_v) ∏_{children c} m_c(z_v)` is integrated over its window,
//! an interval `[L, U)` whose ends are affine in the parent's variable with
//! slope `O_v/O_parent` (a power of 2), giving the message
//! `m_v(z_p) = H_v(U(z_p)) − H_v(L(z_p))` with `H_v = ∫_{−∞} F_v`. Every
//! function involved is piecewise exponential-polynomial
//! ([`crate::measure::piecewise`]), so `P(a | y)` is a closed form in `e^{rational·cut}`
//! with the cuts built from the thresholds `θ_t`, which involve `√(ln t)` and
//! `ln t`: the law is certified (interval backends), and an exact backend
//! declines.
//!
//! # Cost
//!
//! At most `2 + 2⌊log₂ T⌋` noises; each message multiplies the number of cuts
//! by about 2, so a law costs a few hundred term operations at `T ≤ 8`.

use super::PullLaw;
use crate::error::{Error, Result};
use crate::measure::piecewise::{Cut, Piecewise};
use crate::num::{Real, Q};
use num_traits::Zero;

/// The parameters of Algorithm 1 the law depends on, as exact rationals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LazyUcbParams {
    /// ε of the bonus term `3 ln t/(εO)`.
    pub epsilon: Q,
    /// The Laplace scale `b` of each noise (printed: `1/ε`).
    pub scale: Q,
    /// The constant 3 of both bonus terms.
    pub bonus: Q,
    /// A noise drawn with `O` observations behind it has scale
    /// `scale · O^{scale_o_power}`. 0 as printed (line 7: `Lap(1/ε)` on the
    /// sum); −1 is the variant "noise calibrated to the mean's sensitivity
    /// `1/O` but added to the sum" (`Lap(1/(εO))` on the sum, `Lap(1/(εO²))`
    /// on the mean), which a reader may try and the checker refutes; +1 is
    /// `Lap(1/ε)` added to the mean itself (more noise than printed).
    pub scale_o_power: i32,
}

impl LazyUcbParams {
    /// The printed parameters at `epsilon`: scale `1/ε`, bonus 3.
    pub fn printed(epsilon: Q) -> LazyUcbParams {
        LazyUcbParams {
            scale: epsilon.recip(),
            bonus: Q::from_integer(3.into()),
            epsilon,
            scale_o_power: 0,
        }
    }

    /// Check that ε, the scale and the bonus are positive.
    pub fn validate(&self) -> Result<()> {
        super::check_positive(&[
            ("--epsilon", &self.epsilon),
            ("--noise-scale", &self.scale),
            ("the bonus", &self.bonus),
        ])?;
        super::check_bonus(&self.bonus)?;
        super::check_scale(&self.epsilon, &self.scale)
    }

    /// `g(O, t) = √(c ln t/O) + c ln t/(ε O)` (line 4, `c` the bonus).
    pub(super) fn bonus_term<R: Real>(&self, o: u64, t: u64, ctx: &R::Context) -> Result<R> {
        ucb_bonus(&self.bonus, &self.epsilon.recip(), o, t, ctx)
    }
}

/// `√(c ln t/n) + c ln t · w/n` (`w > 0`), certified: the exploration bonus of
/// Algorithm 1's line 4 (`w = 1/ε`, `n = O`) and of Hybrid-UCB's index (35)
/// (`w` the total scale of the private mean's noises, [`super::hybrid_ucb`]).
pub fn ucb_bonus<R: Real>(c: &Q, w: &Q, n: u64, t: u64, ctx: &R::Context) -> Result<R> {
    let c_ln = R::from_rational(c, ctx) * R::from_int(t as i64, ctx).ln()?;
    let n_r = R::from_int(n as i64, ctx);
    let root = (c_ln.clone() / &n_r).ln()?;
    let half = R::from_rational(&Q::new(1.into(), 2.into()), ctx);
    // As `c ln t/(n · w⁻¹)`: the operations Algorithm 1's law has always used (`w⁻¹ = ε`).
    Ok((half * root).exp()? + c_ln / (n_r * R::from_rational(&w.recip(), ctx)))
}

/// The pull sequences of positive probability candidates for K = 2 arms:
/// arm 0 then arm 1 (line 2), then any arms, in lexicographic order
/// ([`pull_sequences_of`] at K = 2).
pub fn pull_sequences(horizon: usize) -> Vec<Vec<usize>> {
    pull_sequences_of(2, 2, horizon)
}

/// The pull sequence of index `bits` in [`pull_sequences`] (its free rounds
/// are the binary digits of `bits`), `None` past the end.
pub fn pull_sequence(horizon: usize, bits: u64) -> Option<Vec<usize>> {
    pull_sequence_of(2, 2, horizon, bits)
}

/// The pull sequences of positive probability candidates for K arms that
/// play round-robin for `round_robin` rounds (arm `(t − 1) mod K` in round
/// `t`; line 2 of Algorithm 1 is `K` of them), then any arms, in
/// lexicographic order (`K^{T−round_robin}` of them).
pub fn pull_sequences_of(arms: usize, round_robin: usize, horizon: usize) -> Vec<Vec<usize>> {
    let count = pull_sequence_count(arms, round_robin, horizon).unwrap_or(0);
    (0..count)
        .filter_map(|index| pull_sequence_of(arms, round_robin, horizon, index))
        .collect()
}

/// How many [`pull_sequences_of`] there are, `K^{T−round_robin}`; `None`
/// past 64 bits.
pub fn pull_sequence_count(arms: usize, round_robin: usize, horizon: usize) -> Option<u64> {
    let free = u32::try_from(horizon.saturating_sub(round_robin)).ok()?;
    (arms as u64).checked_pow(free)
}

/// The pull sequence of index `index` in [`pull_sequences_of`] (its free
/// rounds are the base-K digits of `index`, the first most significant),
/// `None` past the end.
pub fn pull_sequence_of(
    arms: usize,
    round_robin: usize,
    horizon: usize,
    index: u64,
) -> Option<Vec<usize>> {
    if arms == 0 || index >= pull_sequence_count(arms, round_robin, horizon)? {
        return None;
    }
    let mut pulls: Vec<usize> = (0..horizon.min(round_robin)).map(|t| t % arms).collect();
    let free = horizon.saturating_sub(round_robin);
    let mut rest = index;
    let mut tail = vec![0; free];
    for d in tail.iter_mut().rev() {
        *d = (rest % arms as u64) as usize;
        rest /= arms as u64;
    }
    pulls.extend(tail);
    Some(pulls)
}

/// A noise of Algorithm 1 while it is its arm's current one: the arm's
/// private mean is `(s + Z)/o`, `Z` the noise numbered `id` (line 2's draws
/// are `0..K`, line 7's the next numbers in the order drawn).
#[derive(Clone, Debug)]
pub(super) struct Noise {
    pub(super) id: usize,
    pub(super) o: u64,
    pub(super) s: Q,
}

/// What the lazy schedule does in one round `t > K` of given pulls.
pub(super) enum Step<'a> {
    /// Line 4 at round `t` pulled `arm` while the arms' current noises
    /// were `current`.
    Compare {
        t: u64,
        arm: usize,
        current: &'a [Noise],
    },
    /// Line 7 (after that pull) drew `current[arm]`, a new noise.
    Draw { arm: usize, current: &'a [Noise] },
}

/// Walk Algorithm 1's schedule (lines 2, 5–8: [`crate::bandit::policy::LazySchedule`]) on
/// `pulls` (arms `< arms`) with `seen[t]` the reward of round `t + 1`,
/// showing each round `t > K` to `visit`. `Ok(false)` when line 2 rules the
/// pulls out (a round `t ≤ K` not pulling arm `t`).
pub(super) fn walk(
    arms: usize,
    pulls: &[usize],
    seen: &[Q],
    mut visit: impl FnMut(Step<'_>),
) -> Result<bool> {
    if pulls.len() != seen.len() || pulls.iter().any(|&a| a >= arms) {
        return Err(Error::InvalidInput(format!(
            "the pulls must be arms 0..{arms}, one per reward seen"
        )));
    }
    if pulls.iter().take(arms).enumerate().any(|(j, &a)| a != j) {
        return Ok(false);
    }
    if pulls.len() < arms {
        return Ok(true);
    }
    let mut current: Vec<Noise> = (0..arms)
        .map(|j| Noise {
            id: j,
            o: 1,
            s: seen[j].clone(),
        })
        .collect();
    let mut schedule = crate::bandit::policy::LazySchedule::<Q>::new(arms);
    let mut next = arms;
    for (i, (&arm, y)) in pulls.iter().zip(seen).enumerate().skip(arms) {
        visit(Step::Compare {
            t: i as u64 + 1,
            arm,
            current: &current,
        });
        if let Some((s, o)) = schedule.record(arm, 1, y.clone()) {
            current[arm] = Noise { id: next, o, s };
            next += 1;
            visit(Step::Draw {
                arm,
                current: &current,
            });
        }
    }
    Ok(true)
}

/// The edge from a noise to its parent: everything its window depends on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Edge {
    /// The arm whose noise the child is.
    arm: usize,
    /// The parent's index (the other arm's current noise when it was drawn).
    parent: usize,
    /// `O` of arms 0 and 1 while the pair is current.
    o: [u64; 2],
    /// `S_w/O_w − S_u/O_u`, the rational part of every `θ_t` of the pair
    /// (0 when no round uses the pair).
    offset: Q,
    /// The round whose `θ_t` is the lower end `lo ≤ Y` (`None`: no round
    /// pulled arm 0 on this pair).
    lo: Option<u64>,
    /// The round whose `θ_t` is the upper end `Y < hi`.
    hi: Option<u64>,
}

/// The event "these pulls" given the rewards seen: the tree of windows (module
/// documentation), noise `v ≥ 1` having edge `v − 1`. Two pull sequences and
/// reward sequences with equal events have equal probabilities, so the
/// privacy check computes each distinct event once.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Event {
    edges: Vec<Edge>,
}

impl Event {
    /// The event of `pulls` (arms 0 or 1) with `seen[t]` the reward of round
    /// `t + 1`; `None` when line 2 rules the pulls out (probability 0).
    pub fn new(pulls: &[usize], seen: &[Q]) -> Result<Option<Event>> {
        let mut edges = Vec::new();
        if pulls.len() >= 2 {
            edges.push(Edge {
                arm: 1,
                parent: 0,
                o: [1, 1],
                offset: Q::zero(),
                lo: None,
                hi: None,
            });
        }
        let possible = walk(2, pulls, seen, |step| match step {
            Step::Compare { t, arm, current } => {
                let (u, w) = (&current[0], &current[1]);
                let offset =
                    &w.s / Q::from_integer(w.o.into()) - &u.s / Q::from_integer(u.o.into());
                // θ_t increases in t iff O_w < O_u: keep the largest lower and
                // the smallest upper end (the first of equal ones).
                let (increasing, decreasing) = (w.o < u.o, w.o > u.o);
                let edge = &mut edges[u.id.max(w.id) - 1];
                edge.offset = offset;
                if arm == 0 {
                    if edge.lo.is_none() || increasing {
                        edge.lo = Some(t);
                    }
                } else if edge.hi.is_none() || decreasing {
                    edge.hi = Some(t);
                }
            }
            Step::Draw { arm, current } => edges.push(Edge {
                arm,
                parent: current[1 - arm].id,
                o: [current[0].o, current[1].o],
                offset: Q::zero(),
                lo: None,
                hi: None,
            }),
        })?;
        Ok(possible.then_some(Event { edges }))
    }

    /// Its probability (module documentation): an exact zero for an empty
    /// window, otherwise the message passing.
    ///
    /// Errors: [`Error::NotRepresentable`] in an exact backend (the
    /// thresholds involve `ln t`); [`Error::Domain`] when two cut points
    /// cannot be ordered at this precision.
    pub fn probability<R: Real>(&self, params: &LazyUcbParams, ctx: &R::Context) -> Result<R> {
        if self.edges.is_empty() {
            return Ok(R::from_int(1, ctx));
        }
        let theta = |e: &Edge, t: u64| -> Result<Cut<R>> {
            if e.o[0] == e.o[1] {
                return Ok(Cut::rational(e.offset.clone(), ctx));
            }
            let g =
                params.bonus_term::<R>(e.o[1], t, ctx)? - params.bonus_term::<R>(e.o[0], t, ctx)?;
            Ok(Cut {
                value: R::from_rational(&e.offset, ctx) + g,
                exact: None,
            })
        };
        let mut windows = Vec::with_capacity(self.edges.len());
        for e in &self.edges {
            let lo = e.lo.map(|t| theta(e, t)).transpose()?;
            let hi = e.hi.map(|t| theta(e, t)).transpose()?;
            if let (Some(lo), Some(hi)) = (&lo, &hi) {
                if lo.order(hi)? != std::cmp::Ordering::Less {
                    return Ok(R::from_int(0, ctx));
                }
            }
            windows.push((lo, hi));
        }
        // Noise v ≥ 1 is drawn by its edge's arm with that arm's new O;
        // noise 0 (arm 0's line-2 draw) has O = 1.
        let scale_of = |v: usize| -> Q {
            let o = v
                .checked_sub(1)
                .map_or(1, |i| self.edges[i].o[self.edges[i].arm]);
            let o = Q::from_integer(o.into());
            &params.scale * num_traits::pow::Pow::pow(&o, params.scale_o_power)
        };
        // Leaf to root: children have larger indices than their parents.
        let mut factors: Vec<Piecewise<R>> = (0..=self.edges.len())
            .map(|v| Piecewise::laplace(&scale_of(v), ctx))
            .collect();
        for (v, (e, (lo, hi))) in self.edges.iter().zip(&windows).enumerate().rev() {
            let (h, total) = factors[v + 1].integral(ctx)?;
            let o = |j: usize| Q::from_integer(e.o[j].into());
            // The window of z_v as [L, U) with ends s·z_p + c (module doc).
            let (s, upper, lower) = if e.arm == 1 {
                let shift = |c: &Cut<R>| c.scale(&-o(1));
                (o(1) / o(0), lo.as_ref().map(shift), hi.as_ref().map(shift))
            } else {
                let shift = |c: &Cut<R>| c.scale(&o(0));
                (o(0) / o(1), hi.as_ref().map(shift), lo.as_ref().map(shift))
            };
            let up = match upper {
                Some(c) => h.compose(&s, &c)?,
                None => Piecewise::constant(total),
            };
            let message = match lower {
                Some(c) => up.sub(&h.compose(&s, &c)?)?,
                None => up,
            };
            factors[e.parent] = factors[e.parent].mul(&message)?;
        }
        Ok(factors[0].integral(ctx)?.1)
    }
}

/// `P(pulls | rewards seen)` for Anytime-Lazy-UCB with K = 2: `pulls[t]` is the
/// arm (0-based) of round `t + 1` and `seen[t]` its reward ([`Event::new`],
/// [`Event::probability`]).
pub fn probability<R: Real>(
    params: &LazyUcbParams,
    pulls: &[usize],
    seen: &[Q],
    ctx: &R::Context,
) -> Result<R> {
    match Event::new(pulls, seen)? {
        Some(event) => event.probability(params, ctx),
        None => Ok(R::from_int(0, ctx)),
    }
}

impl PullLaw for LazyUcbParams {
    type Event = Event;
    fn validate(&self) -> Result<()> {
        LazyUcbParams::validate(self)
    }
    fn sequence_count(&self, horizon: usize) -> Option<u64> {
        pull_sequence_count(2, 2, horizon)
    }
    fn sequences(&self, horizon: usize) -> Vec<Vec<usize>> {
        pull_sequences(horizon)
    }
    fn sequence(&self, horizon: usize, index: u64) -> Option<Vec<usize>> {
        pull_sequence(horizon, index)
    }
    fn event(&self, pulls: &[usize], seen: &[Q]) -> Result<Option<Event>> {
        Event::new(pulls, seen)
    }
    fn probability<R: Real>(&self, event: &Event, ctx: &R::Context) -> Result<R> {
        event.probability(self, ctx)
    }
    fn name(&self) -> &'static str {
        "anytime-lazy-ucb"
    }
}
