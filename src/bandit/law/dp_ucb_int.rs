//! The law of DP-UCB-INT's pull sequence (Tossou & Dimitrakakis 2016,
//! arXiv:1511.08681, Algorithm 3, as read in
//! [`crate::bandit::policy::dp_ucb_int`]) on a fixed reward table,
//! certified, at any `2 ≤ K ≤ T` and any interval `f = ⌈1/ε⌉`.
//!
//! # The draws form a forest
//!
//! Arm `j`'s index is `I_j = S_j/n_j + L + √(c ln t/n_j)` with a fresh
//! `L ~ Lap(σ(n_j))`, `σ(n) = b·n^{v/2 − 1}` (`b` the noise factor, printed
//! 1), drawn at every round `t > Kf` at which `n_j` is a multiple of `f`
//! ("fresh"); otherwise the arm keeps the index it was last pulled with, a
//! draw `X` with the constant `m_j + g_j` of its round. After the `Kf` rounds
//! of round-robin every arm is fresh. Given the pulls and the rewards seen,
//! each round's pull `w` beats every other index, `L_o ≤ X_w + d` with
//! `d = m_w + g_w − m_o − g_o`, and the kept indices form a *stack*:
//!
//! - a fresh draw that wins is kept (when `f ≥ 2`) above the kept index on
//!   top, which it beat: the stack increases upward, so a round need only
//!   compare the top with the fresh draws — a pull of a kept arm below the
//!   top has probability 0, and with every arm kept the top's pull is
//!   forced (probability 1, no constraint);
//! - a fresh draw that loses appears in that round only (the arm draws again
//!   at the next round), a leaf under the winner's draw;
//! - the top is freed when its arm's count is a multiple of `f` again, and
//!   the index below is the top.
//!
//! So each draw is compared with one earlier draw first — a fresh winner
//! with the top it beat, a fresh loser with the winner — and every other
//! comparison is implied by these: the draws form a forest whose edges are
//! difference constraints `V_c ≤ V_p + d` or `V_c > V_p + d`, with real
//! scales and shifts. With `f = 1` no index is kept and each round after
//! the first `K` is a star of its own (the pulled arm's draw against every
//! other arm's); with `K = 2` the stack holds at most the two arms. The
//! probability is the forest's, integrated leaf to root in closed form
//! ([`crate::measure::laplace_line::forest_probability`]):
//!
//! ```text
//! P(pulls | seen) = ∏_roots ∫ f_{σ(n_r)}(x) ∏_{children c} m_c(x) dx,
//! m_c(x) = P(V_c ≤ x + d_c or V_c > x + d_c, and the subtree of c's constraints | V_p = x).
//! ```
//!
//! # What is certified
//!
//! `σ(n) = b·exp((v/2 − 1) ln n)` is computed in the backend (exact when it
//! is rational, [`Real::pow_rational`]), never through `f64`; scales are
//! equal exactly when the counts are or `v = 2`. A shift is a rational mean
//! difference plus bonuses `√(c ln t/n)`, one atom per value (equal bonuses
//! decided exactly, `t^{n'} = t'^{n}`), so cuts with the same bonuses are
//! ordered exactly (two bonuses in a rational ratio, `√(8 ln 2) =
//! 2√(2 ln 2)`, are distinct atoms: a cut where they cancel stays
//! undecided); every factor `e^{−x/σ}` is transcendental: the law is
//! certified, and an exact backend declines unless every scale is rational
//! and every shift cancels. A cut or a rate whose sign its enclosure does
//! not decide is an [`Error::Domain`] that asks for more precision.
//!
//! Cost: a draw with `m` leaves integrates up to `2^m` exponential terms on
//! each of `m + 2` pieces, times the terms of its kept children's messages.

use super::anytime_lazy_ucb::{pull_sequence_count, pull_sequence_of, pull_sequences_of};
use super::{check_scale, PullLaw};
use crate::error::{Error, Result};
use crate::measure::laplace_line::{forest_probability, Edge, Offset, Scale, Variable};
use crate::num::{Real, Q};
use num_bigint::BigInt;
use num_traits::{One, Pow, Signed, Zero};

/// Why the law is certified, not exact (the reports print it).
pub const WHY_NOT_EXACT: &str = "the noise scales b·n^{v/2 − 1} and the bonuses √(2 ln t/n) of Algorithm 3 are irrational, and every round's tail e^{−θ/σ} transcendental";

/// The parameters of DP-UCB-INT's law, exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DpUcbIntParams {
    /// ε of the algorithm (its interval `f = ⌈1/ε⌉`) and of the verdict.
    pub epsilon: Q,
    /// `f`, the pulls between two recomputations of an arm's index.
    pub interval: u64,
    /// The number of arms K.
    pub arms: usize,
    /// `v` of the noise scale `b/n^{1 − v/2}` (default `11/10`).
    pub rate: Q,
    /// `b` of the noise scale `b/n^{1 − v/2}` (printed 1).
    pub noise_factor: Q,
    /// The constant 2 of `√(2 ln t/n)`.
    pub bonus: Q,
}

impl DpUcbIntParams {
    /// The defaults ([`crate::bandit::policy::dp_ucb_int::DpUcbInt::new`])
    /// at ε: `f = ⌈1/ε⌉`, `v = 11/10`, `b = 1`, bonus 2.
    pub fn printed(epsilon: Q) -> DpUcbIntParams {
        let interval = if epsilon.is_positive() {
            epsilon
                .recip()
                .ceil()
                .to_integer()
                .try_into()
                .unwrap_or(u64::MAX)
        } else {
            u64::MAX
        };
        DpUcbIntParams {
            interval: interval.max(1),
            arms: 2,
            rate: Q::new(11.into(), 10.into()),
            noise_factor: Q::one(),
            bonus: Q::from_integer(2.into()),
            epsilon,
        }
    }

    /// Check that ε, `b` and the bonus are positive, `f ≥ 1`, `K ≥ 2`, `b`
    /// not too small and `v` of bounded size.
    pub fn validate(&self) -> Result<()> {
        for (name, v) in [
            ("--epsilon", &self.epsilon),
            ("--noise-scale", &self.noise_factor),
            ("the bonus", &self.bonus),
        ] {
            if !v.is_positive() {
                return Err(Error::InvalidInput(format!(
                    "{name} must be positive, got {v}"
                )));
            }
        }
        if self.interval == 0 || self.arms < 2 {
            return Err(Error::InvalidInput(format!(
                "dp-ucb-int's law needs an interval f ≥ 1 and K ≥ 2 arms, got f = {}, K = {}",
                self.interval, self.arms
            )));
        }
        crate::algorithm::check_parameter_bits("the rate v", &self.rate)?;
        check_scale(&self.epsilon, &self.noise_factor)
    }

    /// `v/2 − 1`, the exponent of `n` in the noise scale.
    pub fn scale_exponent(&self) -> Q {
        &self.rate / Q::from_integer(2.into()) - Q::one()
    }

    /// `σ(n) = b·n^{v/2 − 1}`, the Laplace scale of the mean's noise after
    /// `n` rewards.
    pub fn scale<R: Real>(&self, n: u64, ctx: &R::Context) -> Result<R> {
        let power = R::pow_rational(&Q::from_integer(n.into()), &self.scale_exponent(), ctx)?;
        Ok(R::from_rational(&self.noise_factor, ctx) * power)
    }

    /// `σ(n)` with a key that equal scales share (every count one key, all
    /// counts one key when `v = 2`).
    fn keyed_scale<R: Real>(&self, n: u64, ctx: &R::Context) -> Result<Scale<R>> {
        Ok(Scale {
            key: if self.scale_exponent().is_zero() {
                0
            } else {
                n as usize
            },
            value: self.scale::<R>(n, ctx)?,
        })
    }

    /// `Kf`, the rounds of round-robin.
    fn round_robin(&self) -> usize {
        usize::try_from(self.interval)
            .unwrap_or(usize::MAX)
            .saturating_mul(self.arms)
    }

    /// `√(c ln t/n)`.
    fn bonus_at<R: Real>(&self, n: u64, t: u64, ctx: &R::Context) -> Result<R> {
        let c_ln = R::from_rational(&self.bonus, ctx) * R::from_int(t as i64, ctx).ln()?;
        let half = R::from_rational(&Q::new(1.into(), 2.into()), ctx);
        (half * (c_ln / R::from_int(n as i64, ctx)).ln()?).exp()
    }
}

/// Whether `√(c ln t/n)` is the same at `(n, t)` and `(n', t')`:
/// `ln t/n = ln t'/n'`, that is `t^{n'} = t'^{n}`, decided exactly.
fn same_bonus((n, t): (u64, u64), (n2, t2): (u64, u64)) -> bool {
    let power = |base: u64, exponent: u64| BigInt::from(base).pow(exponent as u32);
    power(t, n2) == power(t2, n)
}

/// One index draw of the event: the count `n` of its arm (its scale
/// `σ(n)`) and its constraint on the draw it was compared with first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Draw {
    count: u64,
    edge: Option<Edge>,
}

/// The event "these pulls" given the rewards seen: the draws, each parent
/// before its children (module documentation), and the bonuses `(n, t)`
/// that are the atoms of the shifts (one per value of `√(c ln t/n)`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Event {
    draws: Vec<Draw>,
    bonuses: Vec<(u64, u64)>,
}

/// An index as the event names it: the draw it holds and its constant
/// `mean + bonus` (a rational and an atom).
#[derive(Clone, Debug)]
struct Index {
    draw: usize,
    constant: Offset,
}

impl Event {
    /// The event of `pulls` (arms `0..k`) with `seen[t]` the reward of round
    /// `t + 1`, at the interval `f`; `None` when the pulls have probability 0
    /// (round-robin not followed, or a kept index pulled below a higher one).
    pub fn new(pulls: &[usize], seen: &[Q], k: usize, f: u64) -> Result<Option<Event>> {
        if pulls.len() != seen.len() || pulls.iter().any(|&a| a >= k) {
            return Err(Error::InvalidInput(format!(
                "the pulls must be arms 0 to {}, one per reward seen",
                k - 1
            )));
        }
        let mut event = Event {
            draws: vec![],
            bonuses: vec![],
        };
        let mut counts = vec![0u64; k];
        let mut sums = vec![Q::zero(); k];
        // The kept indices, each above the one before it.
        let mut kept: Vec<(usize, Index)> = vec![];
        for (i, (&arm, y)) in pulls.iter().zip(seen).enumerate() {
            let t = i as u64 + 1;
            if t <= f.saturating_mul(k as u64) {
                if arm as u64 != (t - 1) % k as u64 {
                    return Ok(None);
                }
            } else {
                let fresh: Vec<usize> = (0..k).filter(|&j| counts[j] % f == 0).collect();
                let mean = |j: usize| &sums[j] / Q::from_integer(counts[j].into());
                let winner = match kept.last() {
                    Some((top, index)) if *top == arm => index.clone(),
                    _ if !fresh.contains(&arm) => return Ok(None),
                    top => {
                        let index = Index {
                            draw: event.draws.len(),
                            constant: event.constant(mean(arm), counts[arm], t),
                        };
                        let edge = top.map(|(_, beaten)| Edge {
                            parent: beaten.draw,
                            shift: beaten.constant.plus(&index.constant.negated()),
                            below: false,
                        });
                        event.draws.push(Draw {
                            count: counts[arm],
                            edge,
                        });
                        index
                    }
                };
                for &o in fresh.iter().filter(|&&o| o != arm) {
                    let loser = event.constant(mean(o), counts[o], t);
                    let shift = winner.constant.plus(&loser.negated());
                    event.draws.push(Draw {
                        count: counts[o],
                        edge: Some(Edge {
                            parent: winner.draw,
                            shift,
                            below: true,
                        }),
                    });
                }
                if fresh.contains(&arm) && (counts[arm] + 1) % f != 0 {
                    kept.push((arm, winner));
                } else if !fresh.contains(&arm) && (counts[arm] + 1) % f == 0 {
                    kept.pop();
                }
            }
            counts[arm] += 1;
            sums[arm] += y;
        }
        event.drop_cancelled_bonuses();
        Ok(Some(event))
    }

    /// Keep only the bonuses some shift still names (a bonus that cancels
    /// in every shift is never computed: the exact backend then declines
    /// only when an irrational bonus is read), renumbered in order.
    fn drop_cancelled_bonuses(&mut self) {
        let mut named = vec![false; self.bonuses.len()];
        for edge in self.draws.iter().filter_map(|d| d.edge.as_ref()) {
            for (k, _) in &edge.shift.atoms {
                named[*k] = true;
            }
        }
        let mut renumbered = vec![0; named.len()];
        let mut next = 0;
        for (k, &is_named) in named.iter().enumerate() {
            renumbered[k] = next;
            next += usize::from(is_named);
        }
        for edge in self.draws.iter_mut().filter_map(|d| d.edge.as_mut()) {
            for (k, _) in &mut edge.shift.atoms {
                *k = renumbered[*k];
            }
        }
        let mut kept = named.into_iter();
        self.bonuses.retain(|_| kept.next().unwrap_or(false));
    }

    /// `mean + √(c ln t/n)`, the bonus an atom shared by equal bonuses.
    fn constant(&mut self, mean: Q, n: u64, t: u64) -> Offset {
        let atom = match self
            .bonuses
            .iter()
            .position(|&other| same_bonus(other, (n, t)))
        {
            Some(k) => k,
            None => {
                self.bonuses.push((n, t));
                self.bonuses.len() - 1
            }
        };
        Offset {
            rational: mean,
            atoms: vec![(atom, Q::one())],
        }
    }
}

impl PullLaw for DpUcbIntParams {
    type Event = Event;
    fn validate(&self) -> Result<()> {
        DpUcbIntParams::validate(self)
    }
    fn arms(&self) -> usize {
        self.arms
    }
    /// Round-robin for `Kf` rounds, then any arms: `K^{T−Kf}`.
    fn sequence_count(&self, horizon: usize) -> Option<u64> {
        pull_sequence_count(self.arms, self.round_robin(), horizon)
    }
    fn sequences(&self, horizon: usize) -> Vec<Vec<usize>> {
        pull_sequences_of(self.arms, self.round_robin(), horizon)
    }
    fn sequence(&self, horizon: usize, index: u64) -> Option<Vec<usize>> {
        pull_sequence_of(self.arms, self.round_robin(), horizon, index)
    }
    fn event(&self, pulls: &[usize], seen: &[Q]) -> Result<Option<Event>> {
        Event::new(pulls, seen, self.arms, self.interval)
    }
    /// `⌈r(K − 1)²/3⌉` units a sequence (at least 1): its `r = T − Kf`
    /// rounds after round-robin, each up to `K − 1` draws, a few
    /// exponentials a term of `2^{K−1}` on `K + 1` pieces. Measured (release,
    /// 192 bits, one core's time on 2 cores under a load of 3–4): the K = 2,
    /// T = 8 table of the benchmark, 64 sequences in 0.39 s at ε = 1 (2 units
    /// a sequence); at ε = 1/2, K = 3, T = 12: 729 sequences in 4.9 s (2.2
    /// units, estimated 8); K = 4, T = 12: 256 in 3.5 s (4.5, estimated 12);
    /// K = 5, T = 13: 125 in 2.5 s (6.6, estimated 16).
    fn work(&self, horizon: usize) -> Option<u128> {
        let rounds = horizon.saturating_sub(self.round_robin()) as u128;
        let pairs = (self.arms as u128 - 1).pow(2);
        let units = (rounds * pairs).div_ceil(3).max(1);
        super::sequences_work(self.sequence_count(horizon), units)
    }
    /// The draws' forest integrated leaf to root in closed form.
    fn probability<R: Real>(&self, event: &Event, ctx: &R::Context) -> Result<R> {
        let atoms = event
            .bonuses
            .iter()
            .map(|&(n, t)| self.bonus_at::<R>(n, t, ctx))
            .collect::<Result<Vec<_>>>()?;
        let variables = event
            .draws
            .iter()
            .map(|d| {
                Ok(Variable {
                    scale: self.keyed_scale::<R>(d.count, ctx)?,
                    edge: d.edge.clone(),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        forest_probability(&variables, &atoms, ctx)
    }
    fn name(&self) -> &'static str {
        "dp-ucb-int"
    }
}
