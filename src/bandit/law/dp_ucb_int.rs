//! The law of DP-UCB-INT's pull sequence (Tossou & Dimitrakakis 2016,
//! arXiv:1511.08681, Algorithm 3, as read in
//! [`crate::bandit::policy::dp_ucb_int`]) with K = 2 arms on a fixed reward
//! table, certified, at any interval `f = ⌈1/ε⌉`.
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
//! So the blocks have disjoint noises and
//!
//! ```text
//! P(pulls | seen) = ∏_blocks ∫ f_{σ(n_w)}(x) ∏_rounds G_t(x) dx,
//! G_t(x) = P(L_t ≤ x + d_t) or P(L_t > x + d_t),   L_t ~ Lap(σ(n_{o,t})),
//! ```
//!
//! each integral in closed form ([`crate::measure::laplace_line`]). A block
//! of one comparison (every block when `f = 1`, `ε ≥ 1`) is the tail of the
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
//! exactly), and every factor `e^{−x/σ}`: the law is certified, and an exact
//! backend declines. A cut or a rate whose sign its enclosure does not
//! decide is an [`Error::Domain`] that asks for more precision.
//!
//! Cost: a block of `m` comparisons integrates up to `2^m` exponential terms
//! on each of `m + 2` pieces.

use super::{check_scale, PullLaw};
use crate::error::{Error, Result};
use crate::measure::laplace_line::{density_times_cdfs, CdfFactor, Scale};
use crate::measure::piecewise::Cut;
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
            rate: Q::new(11.into(), 10.into()),
            noise_factor: Q::one(),
            bonus: Q::from_integer(2.into()),
            epsilon,
        }
    }

    /// Check that ε, `b` and the bonus are positive, `f ≥ 1`, `b` not too
    /// small and `v` of bounded size.
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
        if self.interval == 0 {
            return Err(Error::InvalidInput(
                "dp-ucb-int's interval f must be at least 1".into(),
            ));
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

    /// `d = m_w + g(n_w, t_w) − m_o − g(n_o, t)` of a comparison in `block`,
    /// exactly when the bonuses are equal (`ln t_w/n_w = ln t/n_o`).
    fn shift<R: Real>(&self, block: &Block, c: &Comparison, ctx: &R::Context) -> Result<Cut<R>> {
        let rational = &block.mean - &c.mean;
        let (n_w, t_w) = (block.count, block.round);
        let equal_bonuses =
            BigInt::from(t_w).pow(c.count as u32) == BigInt::from(c.round).pow(n_w as u32);
        if equal_bonuses {
            return Ok(Cut::rational(rational, ctx));
        }
        Ok(Cut {
            value: R::from_rational(&rational, ctx) + self.bonus_at::<R>(n_w, t_w, ctx)?
                - self.bonus_at::<R>(c.count, c.round, ctx)?,
            exact: None,
        })
    }

    /// The probability of one block (module documentation).
    fn block_probability<R: Real>(&self, block: &Block, ctx: &R::Context) -> Result<R> {
        let density = self.keyed_scale::<R>(block.count, ctx)?;
        if let [c] = &block.comparisons[..] {
            let other = self.keyed_scale::<R>(c.count, ctx)?;
            let d = self.shift::<R>(block, c, ctx)?;
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
            .map(|c| {
                Ok(CdfFactor {
                    scale: self.keyed_scale::<R>(c.count, ctx)?,
                    shift: self.shift::<R>(block, c, ctx)?,
                    below: c.kept_wins,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        density_times_cdfs(&density, &factors, ctx)
    }
}

/// `P(L_o ≤ X + d) = P(X − L_o ≥ −d)` for `X ~ Lap(a)`, `L_o ~ Lap(b)` (the
/// closed form of the module documentation at `θ = −d`).
fn two_laplace_tail<R: Real>(
    a: &Scale<R>,
    b: &Scale<R>,
    d: &Cut<R>,
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
    let zero = Cut::rational(Q::zero(), ctx);
    // θ = −d ≥ 0 iff d ≤ 0.
    match d.order(&zero)? {
        Ordering::Greater => Ok(R::from_int(1, ctx) - tail(d.value.clone())?),
        _ => tail(-d.value.clone()),
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
    /// The event of `pulls` (arms 0 or 1) with `seen[t]` the reward of round
    /// `t + 1`, at the interval `f`; `None` when the pulls have probability
    /// 0 (round-robin not followed, or a forced round not).
    pub fn new(pulls: &[usize], seen: &[Q], f: u64) -> Result<Option<Event>> {
        if pulls.len() != seen.len() || pulls.iter().any(|&a| a > 1) {
            return Err(Error::InvalidInput(
                "the pulls must be arms 0 or 1, one per reward seen".into(),
            ));
        }
        let mut counts = [0u64; 2];
        let mut sums = [Q::zero(), Q::zero()];
        let mut blocks: Vec<Block> = Vec::new();
        // The arm whose draw the open block keeps.
        let mut kept: Option<usize> = None;
        for (i, (&arm, y)) in pulls.iter().zip(seen).enumerate() {
            let t = i as u64 + 1;
            if t <= f.saturating_mul(2) {
                if arm as u64 != (t - 1) % 2 {
                    return Ok(None);
                }
            } else {
                let mean = |j: usize| &sums[j] / Q::from_integer(counts[j].into());
                let fresh = counts.map(|n| n % f == 0);
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
                        // Both fresh (a kept arm that is fresh again left the other fresh).
                        if !(fresh[0] && fresh[1]) {
                            return Err(Error::Domain(format!(
                                "round {t}: an arm keeps an index outside a block"
                            )));
                        }
                        let o = 1 - arm;
                        blocks.push(Block {
                            count: counts[arm],
                            mean: mean(arm),
                            round: t,
                            comparisons: vec![Comparison {
                                count: counts[o],
                                mean: mean(o),
                                round: t,
                                kept_wins: true,
                            }],
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
    fn sequence_count(&self, horizon: usize) -> Option<u64> {
        1u64.checked_shl(horizon.saturating_sub(2) as u32)
    }
    fn sequences(&self, horizon: usize) -> Vec<Vec<usize>> {
        super::anytime_lazy_ucb::pull_sequences(horizon)
    }
    fn sequence(&self, horizon: usize, index: u64) -> Option<Vec<usize>> {
        super::anytime_lazy_ucb::pull_sequence(horizon, index)
    }
    fn event(&self, pulls: &[usize], seen: &[Q]) -> Result<Option<Event>> {
        Event::new(pulls, seen, self.interval)
    }
    /// `⌈(T − 2)/3⌉` units a sequence (at least 1): its `T − 2` comparisons,
    /// each a few exponentials. Measured (release, 128 bits, the K = 2,
    /// T = 8 table of the benchmark, the machine shared): 64 sequences in
    /// 0.26–0.41 s at ε = 1, 0.05 s at ε = 1/2 (forced rounds rule most
    /// sequences out), that is 1.3–2.1 units a sequence.
    fn work(&self, horizon: usize) -> Option<u128> {
        let units = horizon.saturating_sub(2).div_ceil(3).max(1) as u128;
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
