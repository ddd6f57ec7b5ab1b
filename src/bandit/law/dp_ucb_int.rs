//! The law of DP-UCB-INT's pull sequence (Tossou & Dimitrakakis 2016,
//! arXiv:1511.08681, Algorithm 3, as read in
//! [`crate::bandit::policy::dp_ucb_int`]) on a fixed reward table,
//! certified: K = 2 arms at any interval `f = ⌈1/ε⌉`, any `2 ≤ K ≤ T` at
//! `f = 1` (`ε ≥ 1`).
//!
//! # The rounds fall into independent blocks
//!
//! Arm `j`'s index is `I_j = S_j/n_j + L + √(c ln t/n_j)` with a fresh
//! `L ~ Lap(σ(n_j))`, `σ(n) = b·n^{v/2 − 1}` (`b` the noise factor, printed
//! 1), drawn at every round `t > 2f` at which `n_j` is a multiple of `f`
//! ("fresh"); otherwise the arm keeps the index it was last pulled with.
//! After the `2f` rounds of round-robin both arms are fresh. Given the pulls
//! and the rewards seen:
//!
//! - a round with both arms fresh opens a *block*: the pulled arm `w` keeps
//!   its draw `X ~ Lap(σ(n_w))` (with its mean and bonus, a constant index
//!   `J = m_w + X + g_w`) until its count is again a multiple of `f`; the
//!   other arm's draw lost: `L ≤ X + d` with `d = m_w + g_w − m_o − g_o`;
//! - while `X` is kept and the other arm is fresh, each round compares a
//!   fresh draw `L` with `J`: `L ≤ X + d_t` (arm `w` pulled) or `L > X + d_t`
//!   (the other arm pulled, which then keeps `L`);
//! - while both keep an index, the other arm's kept index exceeds `J` (it
//!   won against `J`) and it is pulled until its count is a multiple of `f`:
//!   the rounds are forced (a pull of `w` there has probability 0), and the
//!   kept `L` appears in no other constraint;
//! - when `w`'s count is a multiple of `f` again the other arm is fresh (it
//!   was not pulled), and the next round opens the next block.
//!
//! With `f = 1` every count is a multiple of `f`: each round after the
//! first `K` is a block of its own, the pulled arm's draw against every
//! other arm's (at any K). With `K ≥ 3` and `f ≥ 2` kept indices nest (a
//! fresh draw that beats a kept one is kept above it, and fresh draws face
//! the top one), a law not implemented: refused.
//!
//! So the blocks have disjoint noises and
//!
//! ```text
//! P(pulls | seen) = ∏_blocks ∫ f_{σ(n_w)}(x) ∏_rounds G_t(x) dx,
//! G_t(x) = P(L_t ≤ x + d_t) or P(L_t > x + d_t),   L_t ~ Lap(σ(n_{o,t})),
//! ```
//!
//! each integral in closed form ([`crate::measure::laplace_line`]). A block
//! of one comparison (every block when K = 2 and `f = 1`) is the tail of the
//! difference of two Laplace variables of scales `a = σ(n_w)`,
//! `b = σ(n_o)`: `P(L_w − L_o ≥ θ)` at `θ = −d`, for `θ ≥ 0`
//!
//! ```text
//! (a² e^{−θ/a} − b² e^{−θ/b}) / (2(a² − b²))   (a ≠ b),
//! e^{−θ/a} (2 + θ/a) / 4                         (a = b),
//! ```
//!
//! (integrate the density `(a e^{−|x|/a} − b e^{−|x|/b})/(2(a² − b²))`), and
//! `1 − P(L_w − L_o ≥ −θ)` for `θ < 0`. Scales are equal exactly when the
//! counts are or `v = 2`.
//!
//! # What is certified, what is refused
//!
//! `σ(n) = b·exp((v/2 − 1) ln n)` is computed in the backend (exact when it
//! is rational, [`Real::pow_rational`]), never through `f64`. `d_t` involves
//! `√(ln t)` unless the two bonuses are equal (`t_w^{n_o} = t^{n_w}`, decided
//! exactly; the irrational part of two shifts with the same other bonus is
//! the same atom, so their order is exact), and every factor `e^{−x/σ}`:
//! the law is certified, and an exact
//! backend declines. A cut or a rate whose sign its enclosure does not
//! decide is an [`Error::Domain`] that asks for more precision.
//!
//! Cost: a block of `m` comparisons integrates up to `2^m` exponential terms
//! on each of `m + 2` pieces.

use super::anytime_lazy_ucb::{pull_sequence_count, pull_sequence_of, pull_sequences_of};
use super::{check_scale, PullLaw};
use crate::error::{Error, Result};
use crate::measure::laplace_line::{density_times_cdfs, CdfFactor, Scale, Shift};
use crate::num::{Real, Q};
use num_bigint::BigInt;
use num_traits::{One, Pow, Signed, Zero};
use std::cmp::Ordering;

/// Why the law is certified, not exact (the reports print it).
pub const WHY_NOT_EXACT: &str = "the noise scales b·n^{v/2 − 1} and the bonuses √(2 ln t/n) of Algorithm 3 are irrational, and every round's tail e^{−θ/σ} transcendental";

/// The parameters of DP-UCB-INT's law, exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DpUcbIntParams {
    /// ε of the algorithm (its interval `f = ⌈1/ε⌉`) and of the verdict.
    pub epsilon: Q,
    /// `f`, the pulls between two recomputations of an arm's index.
    pub interval: u64,
    /// The number of arms K (`f = 1` when `K ≥ 3`).
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

    /// Check that ε, `b` and the bonus are positive, `f ≥ 1`, `K ≥ 2` (and
    /// `f = 1` when `K ≥ 3`), `b` not too small and `v` of bounded size.
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
        if self.arms > 2 && self.interval > 1 {
            return Err(Error::InvalidInput(format!(
                "dp-ucb-int's law at K = {} arms is implemented for the interval f = 1 only (ε ≥ 1), got f = {} (ε = {}): with K ≥ 3 kept indices nest (K = 2 covers every f)",
                self.arms, self.interval, self.epsilon
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

    /// `√(c ln t/n)`.
    fn bonus_at<R: Real>(&self, n: u64, t: u64, ctx: &R::Context) -> Result<R> {
        let c_ln = R::from_rational(&self.bonus, ctx) * R::from_int(t as i64, ctx).ln()?;
        let half = R::from_rational(&Q::new(1.into(), 2.into()), ctx);
        (half * (c_ln / R::from_int(n as i64, ctx)).ln()?).exp()
    }

    /// `d = m_w − m_o + α` of the comparison `j` of `block`, the atom
    /// `α = g(n_w, t_w) − g(n_o, t)` absent when the bonuses are equal and
    /// keyed by the first comparison of the block with the same bonus
    /// (equal bonuses decided exactly, [`same_bonus`]).
    fn shift<R: Real>(&self, block: &Block, j: usize, ctx: &R::Context) -> Result<Shift<R>> {
        let c = &block.comparisons[j];
        let rational = &block.mean - &c.mean;
        if same_bonus((block.count, block.round), (c.count, c.round)) {
            return Ok(Shift {
                rational,
                atom: None,
            });
        }
        let key = (0..j)
            .find(|&k| {
                let other = &block.comparisons[k];
                same_bonus((other.count, other.round), (c.count, c.round))
            })
            .unwrap_or(j);
        let atom = self.bonus_at::<R>(block.count, block.round, ctx)?
            - self.bonus_at::<R>(c.count, c.round, ctx)?;
        Ok(Shift {
            rational,
            atom: Some((key, atom)),
        })
    }

    /// The probability of one block (module documentation).
    fn block_probability<R: Real>(&self, block: &Block, ctx: &R::Context) -> Result<R> {
        let density = self.keyed_scale::<R>(block.count, ctx)?;
        if let [c] = &block.comparisons[..] {
            let other = self.keyed_scale::<R>(c.count, ctx)?;
            let d = self.shift::<R>(block, 0, ctx)?;
            let p = two_laplace_tail(&density, &other, &d, ctx)?;
            return Ok(if c.kept_wins {
                p
            } else {
                R::from_int(1, ctx) - p
            });
        }
        let factors = block
            .comparisons
            .iter()
            .enumerate()
            .map(|(j, c)| {
                Ok(CdfFactor {
                    scale: self.keyed_scale::<R>(c.count, ctx)?,
                    shift: self.shift::<R>(block, j, ctx)?,
                    below: c.kept_wins,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        density_times_cdfs(&density, &factors, ctx)
    }
}

/// Whether `√(c ln t/n)` is the same at `(n, t)` and `(n', t')`:
/// `ln t/n = ln t'/n'`, that is `t^{n'} = t'^{n}`, decided exactly.
fn same_bonus((n, t): (u64, u64), (n2, t2): (u64, u64)) -> bool {
    let power = |base: u64, exponent: u64| BigInt::from(base).pow(exponent as u32);
    power(t, n2) == power(t2, n)
}

/// `P(L_o ≤ X + d) = P(X − L_o ≥ −d)` for `X ~ Lap(a)`, `L_o ~ Lap(b)` (the
/// closed form of the module documentation at `θ = −d`).
fn two_laplace_tail<R: Real>(
    a: &Scale<R>,
    b: &Scale<R>,
    d: &Shift<R>,
    ctx: &R::Context,
) -> Result<R> {
    let (a, equal, b) = (&a.value, a.key == b.key, &b.value);
    let tail = |x: R| -> Result<R> {
        if equal {
            let z = x / a;
            Ok((-z.clone()).exp()? * (R::from_int(2, ctx) + z) / R::from_int(4, ctx))
        } else {
            let (a2, b2) = (a.clone() * a, b.clone() * b);
            let ea = (-(x.clone() / a)).exp()?;
            let eb = (-(x / b)).exp()?;
            Ok((a2.clone() * ea - b2.clone() * eb) / (R::from_int(2, ctx) * (a2 - b2)))
        }
    };
    let zero = Shift {
        rational: Q::zero(),
        atom: None,
    };
    // θ = −d ≥ 0 iff d ≤ 0.
    match d.order(&zero, ctx)? {
        Ordering::Greater => Ok(R::from_int(1, ctx) - tail(d.value(ctx))?),
        _ => tail(-d.value(ctx)),
    }
}

/// A round that compares a fresh draw of the other arm with the kept index:
/// the other arm's count and mean, the round, and whether the kept index
/// won.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Comparison {
    count: u64,
    mean: Q,
    round: u64,
    kept_wins: bool,
}

/// A block (module documentation): the kept draw's count, mean and round,
/// and the rounds that compare it with the other arm's fresh draws (the
/// first is the other arm's draw at the block's opening).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Block {
    count: u64,
    mean: Q,
    round: u64,
    comparisons: Vec<Comparison>,
}

/// The event "these pulls" given the rewards seen: its blocks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Event {
    blocks: Vec<Block>,
}

impl Event {
    /// The event of `pulls` (arms `0..k`) with `seen[t]` the reward of round
    /// `t + 1`, at the interval `f` (1 when `k ≥ 3`); `None` when the pulls
    /// have probability 0 (round-robin not followed, or a forced round not).
    pub fn new(pulls: &[usize], seen: &[Q], k: usize, f: u64) -> Result<Option<Event>> {
        if pulls.len() != seen.len() || pulls.iter().any(|&a| a >= k) {
            return Err(Error::InvalidInput(format!(
                "the pulls must be arms 0 to {}, one per reward seen",
                k - 1
            )));
        }
        if k > 2 && f > 1 {
            return Err(Error::InvalidInput(format!(
                "kept indices at K = {k} arms (interval f = {f}) are not implemented"
            )));
        }
        let mut counts = vec![0u64; k];
        let mut sums = vec![Q::zero(); k];
        let mut blocks: Vec<Block> = Vec::new();
        // The arm whose draw the open block keeps.
        let mut kept: Option<usize> = None;
        for (i, (&arm, y)) in pulls.iter().zip(seen).enumerate() {
            let t = i as u64 + 1;
            if t <= f.saturating_mul(k as u64) {
                if arm as u64 != (t - 1) % k as u64 {
                    return Ok(None);
                }
            } else {
                let mean = |j: usize| &sums[j] / Q::from_integer(counts[j].into());
                let fresh: Vec<bool> = counts.iter().map(|n| n % f == 0).collect();
                match kept {
                    Some(w) if !fresh[w] => {
                        let o = 1 - w;
                        if fresh[o] {
                            let last = blocks.last_mut().ok_or_else(|| {
                                Error::Domain("a kept index without its block".into())
                            })?;
                            last.comparisons.push(Comparison {
                                count: counts[o],
                                mean: mean(o),
                                round: t,
                                kept_wins: arm == w,
                            });
                        } else if arm != o {
                            // Both kept: the other arm's index won against w's.
                            return Ok(None);
                        }
                    }
                    _ => {
                        // All fresh (a kept arm that is fresh again left the other fresh).
                        if !fresh.iter().all(|&f| f) {
                            return Err(Error::Domain(format!(
                                "round {t}: an arm keeps an index outside a block"
                            )));
                        }
                        blocks.push(Block {
                            count: counts[arm],
                            mean: mean(arm),
                            round: t,
                            comparisons: (0..k)
                                .filter(|&o| o != arm)
                                .map(|o| Comparison {
                                    count: counts[o],
                                    mean: mean(o),
                                    round: t,
                                    kept_wins: true,
                                })
                                .collect(),
                        });
                        kept = Some(arm);
                    }
                }
            }
            counts[arm] += 1;
            sums[arm] += y;
        }
        Ok(Some(Event { blocks }))
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
    /// Arms `0 … K − 1` first (round-robin's first round), then any arms:
    /// `K^{T−K}`.
    fn sequence_count(&self, horizon: usize) -> Option<u64> {
        pull_sequence_count(self.arms, horizon)
    }
    fn sequences(&self, horizon: usize) -> Vec<Vec<usize>> {
        pull_sequences_of(self.arms, horizon)
    }
    fn sequence(&self, horizon: usize, index: u64) -> Option<Vec<usize>> {
        pull_sequence_of(self.arms, horizon, index)
    }
    fn event(&self, pulls: &[usize], seen: &[Q]) -> Result<Option<Event>> {
        Event::new(pulls, seen, self.arms, self.interval)
    }
    /// `⌈(T − K)(K − 1)²/3⌉` units a sequence (at least 1): its `T − K`
    /// rounds, each a few exponentials a term of `2^{K−1}` on `K + 1` pieces.
    /// Measured (release, 128 bits, the K = 2, T = 8 table of the benchmark,
    /// three runs on 2 cores under a load of 11–14): 64 sequences in
    /// 0.26–0.67 s at ε = 1, 0.05–0.13 s at ε = 1/2 (forced rounds rule most
    /// sequences out), that is 1.3–3.5 units a sequence.
    fn work(&self, horizon: usize) -> Option<u128> {
        let rounds = horizon.saturating_sub(self.arms) as u128;
        let pairs = (self.arms as u128 - 1).pow(2);
        let units = (rounds * pairs).div_ceil(3).max(1);
        super::sequences_work(self.sequence_count(horizon), units)
    }
    /// The product over the blocks of their closed forms.
    fn probability<R: Real>(&self, event: &Event, ctx: &R::Context) -> Result<R> {
        event
            .blocks
            .iter()
            .try_fold(R::from_int(1, ctx), |p, block| {
                Ok(p * self.block_probability::<R>(block, ctx)?)
            })
    }
    fn name(&self) -> &'static str {
        "dp-ucb-int"
    }
}
