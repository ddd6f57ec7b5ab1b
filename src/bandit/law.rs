//! The exact law of the pull sequence of Anytime-Lazy-UCB (Hu et al., 004
//! Algorithm 1, L140–L149) with K = 2 arms on a fixed reward table, in
//! closed form (issue #13).
//!
//! # The event "these pulls" is a tree of one-dimensional windows
//!
//! Fix the pulls `a_1 … a_T` and the rewards the learner sees,
//! `y_t = X_{a_t}(t)`. Line 2 pulls arm 1 then arm 2 (`a_1 = 1, a_2 = 2`,
//! 0-based 0 and 1 here). Given the pulls, the whole schedule is
//! deterministic ([`super::LazySchedule`]): which rounds end an epoch, and
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
//! ([`super::piecewise`]), so `P(a | y)` is a closed form in `e^{rational·cut}`
//! with the cuts built from the thresholds `θ_t`, which involve `√(ln t)` and
//! `ln t`: the law is certified (interval backends), and an exact backend
//! declines.
//!
//! # Cost
//!
//! At most `2 + 2⌊log₂ T⌋` noises; each message multiplies the number of cuts
//! by about 2, so a law costs a few hundred term operations at `T ≤ 8`.

use super::piecewise::{Cut, Piecewise};
use super::pull_law::PullLaw;
use crate::error::{Error, Result};
use crate::num::{Real, Q};
use num_traits::{Signed, Zero};

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
        for (name, v) in [
            ("--epsilon", &self.epsilon),
            ("--noise-scale", &self.scale),
            ("the bonus", &self.bonus),
        ] {
            if !v.is_positive() {
                return Err(Error::InvalidInput(format!(
                    "{name} must be positive, got {v}"
                )));
            }
        }
        super::pull_law::check_scale(&self.epsilon, &self.scale)?;
        Ok(())
    }

    /// `g(O, t) = √(c ln t/O) + c ln t/(ε O)` (line 4, `c` the bonus).
    fn bonus_term<R: Real>(&self, o: u64, t: u64, ctx: &R::Context) -> Result<R> {
        ucb_bonus(&self.bonus, &self.epsilon.recip(), o, t, ctx)
    }
}

/// `√(c ln t/n) + c ln t · w/n` (`w > 0`), certified: the exploration bonus of
/// Algorithm 1's line 4 (`w = 1/ε`, `n = O`) and of Hybrid-UCB's index (35)
/// (`w` the total scale of the private mean's noises, [`super::hybrid_law`]).
pub fn ucb_bonus<R: Real>(c: &Q, w: &Q, n: u64, t: u64, ctx: &R::Context) -> Result<R> {
    let c_ln = R::from_rational(c, ctx) * R::from_int(t as i64, ctx).ln()?;
    let n_r = R::from_int(n as i64, ctx);
    let root = (c_ln.clone() / &n_r).ln()?;
    let half = R::from_rational(&Q::new(1.into(), 2.into()), ctx);
    // As `c ln t/(n · w⁻¹)`: the operations Algorithm 1's law has always used (`w⁻¹ = ε`).
    Ok((half * root).exp()? + c_ln / (n_r * R::from_rational(&w.recip(), ctx)))
}

/// The pull sequences of positive probability candidates for K = 2 arms:
/// arm 0 then arm 1 (line 2), then any arms, in lexicographic order.
pub fn pull_sequences(horizon: usize) -> Vec<Vec<usize>> {
    let free = horizon.saturating_sub(2);
    (0..1u64 << free)
        .filter_map(|bits| pull_sequence(horizon, bits))
        .collect()
}

/// The pull sequence of index `bits` in [`pull_sequences`] (its free rounds
/// are the binary digits of `bits`), `None` past the end.
pub fn pull_sequence(horizon: usize, bits: u64) -> Option<Vec<usize>> {
    let free = horizon.saturating_sub(2);
    if free >= 64 || bits >> free != 0 {
        return None;
    }
    Some(
        (0..horizon)
            .map(|t| match t {
                0 => 0,
                1 => 1,
                _ => ((bits >> (free - 1 - (t - 2))) & 1) as usize,
            })
            .collect(),
    )
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

/// Arm `j`'s schedule state (line 2 and lines 5–8).
struct ArmState {
    /// Its current noise.
    noise: usize,
    /// `O_j` and the sum `S` behind its private mean.
    o: u64,
    s: Q,
    /// `r_j`, `N_j`, `Φ_j`.
    r: u32,
    n: u64,
    phi: Q,
}

impl Event {
    /// The event of `pulls` (arms 0 or 1) with `seen[t]` the reward of round
    /// `t + 1`; `None` when line 2 rules the pulls out (probability 0).
    pub fn new(pulls: &[usize], seen: &[Q]) -> Result<Option<Event>> {
        if pulls.len() != seen.len() || pulls.iter().any(|&a| a > 1) {
            return Err(Error::InvalidInput(
                "the pulls must be arms 0 or 1, one per reward seen".into(),
            ));
        }
        if pulls.first().is_some_and(|&a| a != 0) || pulls.get(1).is_some_and(|&a| a != 1) {
            return Ok(None);
        }
        if pulls.len() <= 1 {
            return Ok(Some(Event { edges: vec![] }));
        }
        let new_arm = |noise, s: &Q| ArmState {
            noise,
            o: 1,
            s: s.clone(),
            r: 0,
            n: 0,
            phi: Q::zero(),
        };
        let mut arms = [new_arm(0, &seen[0]), new_arm(1, &seen[1])];
        let mut edges = vec![Edge {
            arm: 1,
            parent: 0,
            o: [1, 1],
            offset: Q::zero(),
            lo: None,
            hi: None,
        }];
        for (i, (&arm, y)) in pulls.iter().zip(seen).enumerate().skip(2) {
            let t = i as u64 + 1;
            let (u, w) = (&arms[0], &arms[1]);
            let offset = &w.s / Q::from_integer(w.o.into()) - &u.s / Q::from_integer(u.o.into());
            // θ_t increases in t iff O_w < O_u: keep the largest lower and
            // the smallest upper end (the first of equal ones).
            let (increasing, decreasing) = (w.o < u.o, w.o > u.o);
            let edge = &mut edges[u.noise.max(w.noise) - 1];
            edge.offset = offset;
            if arm == 0 {
                if edge.lo.is_none() || increasing {
                    edge.lo = Some(t);
                }
            } else if edge.hi.is_none() || decreasing {
                edge.hi = Some(t);
            }
            // Lines 5–8.
            let parent = arms[1 - arm].noise;
            let state = &mut arms[arm];
            state.n += 1;
            state.phi += y;
            if state.n == 1u64 << (state.r + 1) {
                state.o = state.n;
                state.s = std::mem::take(&mut state.phi);
                state.r += 1;
                state.n = 0;
                state.noise = edges.len() + 1;
                edges.push(Edge {
                    arm,
                    parent,
                    o: [arms[0].o, arms[1].o],
                    offset: Q::zero(),
                    lo: None,
                    hi: None,
                });
            }
        }
        Ok(Some(Event { edges }))
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
        1u64.checked_shl(horizon.saturating_sub(2) as u32)
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
