//! The law of DP-SE's pull sequence with K = 2 arms on a fixed reward table,
//! in closed form, for the privacy check ([`crate::privacy::bandit::exact`]).
//!
//! # The algorithm as implemented ([`crate::bandit::policy::dp_se`])
//!
//! Epoch `e = 1, 2, …` pulls arm 0 `R_e` times, then arm 1 `R_e` times
//! ([`PullOrder::Blocks`]), or arms 0 and 1 alternately, `R_e` times each
//! ([`PullOrder::RoundRobin`]); with `S_i` arm `i`'s reward sum over its
//! pulls of the epoch, the private means are
//! `μ̃_i = (S_i + Z_i)/R_e` with `Z_0, Z_1` i.i.d. `Lap(b)`, fresh each epoch
//! (`b = 1/ε`: `Lap(1/(εR_e))` on the mean, as [`crate::bandit::policy::dp_se::DpSe`]
//! implements Sajed & Sheffet's DP-SE). Then arm `i` is eliminated iff
//! `μ̃_i < max_j μ̃_j − 2c_e`, with
//! `c_e = √(ln(8|S|e²/β)/(2R_e)) + ln(4|S|e²/β)/(εR_e)` (`|S| = 2` while both
//! survive, the constants read from [`crate::bandit::policy::dp_se::Constants`]); a lone
//! survivor is pulled to the horizon.
//!
//! # The law is a product over epochs
//!
//! With `D = Z_0 − Z_1`, `x = S_1 − S_0` and `w = 2c_eR_e > 0`, the end of
//! epoch `e` keeps only arm 0 iff `D > x + w`, only arm 1 iff `D < x − w`,
//! both otherwise. `D` is symmetric with tail (the convolution of two
//! Laplace densities; tests/bandit_law.rs integrates it again with
//! [`crate::measure::piecewise`])
//!
//! ```text
//! G(u) = P(D > u) = ½ e^{−u/b} (1 + u/(2b))   (u ≥ 0),   G(u) = 1 − G(−u)   (u < 0).
//! ```
//!
//! Given the pulls, the decisions are read off: a later pull of arm 1 after
//! only arm-0 pulls means both survived; if every remaining pull is arm 1,
//! arm 0 was eliminated (`P = G(w − x)`); if every remaining pull is arm 0,
//! arm 1 was eliminated (`G(x + w)`) — or, when the next epoch's first pull
//! of arm 1 (after its arm-0 block, or its first round, round-robin) would
//! fall at or after the horizon, "arm 0 survived" (`1 − G(w − x)`), the two
//! being indistinguishable within `T` rounds. Both surviving has probability
//! `1 − G(x + w) − G(w − x)`. The noises of different epochs are
//! independent, so `P(pulls | seen)` is the product over the epochs that end
//! before the horizon. The cut points `x ± w` involve `√(ln …)` and `ln …`:
//! the law is certified, and an exact backend declines (unless no epoch ends
//! before the horizon: then the one possible pull sequence has probability 1,
//! exactly, and no noise is consulted).
//!
//! # Any order: the per-epoch pull counts, on a table read by pull
//!
//! The definition does not fix the order of an epoch's pulls. Read by round
//! (row `t` is round `t`'s rewards), the order decides which rows an arm
//! sees, so the law of the per-epoch pull counts depends on it. Read by pull
//! ([`RewardIndex::Pull`]: arm `a`'s `n`-th pull sees row `n`'s entry of arm
//! `a`, each column the arm's own stream, as in the stochastic model), while
//! both arms survive each has been pulled `c_e = R_1 + … + R_{e−1}` times
//! when epoch `e` starts, so its epoch sum is that of rows `c_e … c_e + R_e − 1`
//! whatever the order: the decisions, hence the per-epoch counts, have one
//! law for every order. [`PullOrder::Any`] tests that statistic: a pull
//! sequence is mapped to its counts in each epoch complete within `T`
//! ([`DpSeParams::epoch_counts`], written as the blocks sequence that has
//! them); the rounds after the last complete epoch are not read (the counts
//! of an epoch cut by the horizon depend on the order), so the law is the
//! blocks law on the rounds observed ([`DpSeParams::observed`]). It is
//! refused on a table read by round.
//!
//! # The printed epoch lengths never end an epoch at small T
//!
//! `R_1 = ⌊max{32 ln(16/β)·4, 8 ln(8/β)·2/ε}⌋ + 1` is in the hundreds for any
//! `β ≤ 1/2`, so for `T < 2R_1` DP-SE pulls arm 0 `T` times, deterministically:
//! its privacy check at `T ≤ 8` is trivial (ratio 1). [`DpSeParams::lengths`]
//! can be overridden (`--epoch-length`) so that epochs end within `T` and the
//! noise is exercised; the radius `c_e` is then computed with the overridden
//! `R_e`.

use super::PullLaw;
use crate::bandit::policy::dp_se::{DpSe, PullOrder, Radius, RewardIndex, Rounding};
use crate::bandit::policy::Named;
use crate::error::{Error, Result};
use crate::num::{parse_rational, Certified, Precision, Real, Q};
use num_traits::{One, Signed};
use std::cmp::Ordering;

/// DP-SE's parameters for K = 2, as exact rationals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DpSeParams {
    /// ε of the epoch lengths and the radius.
    pub epsilon: Q,
    /// The Laplace scale `b` of the noise on each epoch's reward sum
    /// (printed `1/ε`, i.e. `Lap(1/(εR_e))` on the mean).
    pub scale: Q,
    /// The failure probability β (default `1/T`, as [`crate::bandit::policy::BanditConfig`]).
    pub beta: Q,
    /// The constants `[32, 8, 8, 4]` of `R_e` and `c_e`, in the order of
    /// [`crate::bandit::policy::dp_se::Constants`]: `r_sq`, `log_sq`, `r_lin`, `log_lin`.
    pub constants: [Q; 4],
    /// `R_1, R_2, …`; the last one repeats.
    pub lengths: Vec<u64>,
    /// Whether `lengths` are the printed ones (computed from the constants).
    pub printed_lengths: bool,
    /// The order of the pulls inside an epoch.
    pub order: PullOrder,
    /// How the printed `R_e` are made integers.
    pub rounding: Rounding,
    /// Where the radius reads `R_e`.
    pub radius: Radius,
    /// Which entry of the table a pull receives.
    pub reward_index: RewardIndex,
}

/// An error unless `0 < β < 1` and `β ≥ 2^{−1022}`: the schedule's
/// epoch lengths are computed in f64 (`ln(1/β)`), where a smaller β is 0
/// and its epochs would never end.
fn check_beta(beta: &Q) -> Result<()> {
    if !beta.is_positive() || *beta >= Q::one() {
        return Err(Error::InvalidInput(format!(
            "--beta (DP-SE's β) must lie in (0, 1), got {}",
            crate::num::format_brief(beta)
        )));
    }
    let b = Real::to_f64(beta);
    if b.is_nan() || b < f64::MIN_POSITIVE {
        return Err(Error::InvalidInput(format!(
            "--beta (DP-SE's β) must be at least 2^-1022 (its schedule is computed in floating point), got {}",
            crate::num::format_brief(beta)
        )));
    }
    Ok(())
}

/// The readings of DP-SE's definition that its pseudo-code leaves open:
/// δ (the failure probability β), the pull order inside an epoch, the
/// rounding of `R_e` and where the radius reads `R_e`; and the reading of
/// the reward table (by round or by pull). The default is the reading of
/// [`crate::bandit::policy::dp_se`]: `β = 1/T`, blocks, `⌊·⌋ + 1`, the
/// radius at the integer `R_e`, rewards by round.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DpSeVariant {
    /// β, in `(0, 1)` (`None`: `1/T`).
    pub beta: Option<Q>,
    /// The pull order inside an epoch.
    pub order: PullOrder,
    /// The rounding of `R_e`.
    pub rounding: Rounding,
    /// Where the radius reads `R_e`.
    pub radius: Radius,
    /// Which entry of the table a pull receives.
    pub reward_index: RewardIndex,
}

/// An f64 constant of [`crate::bandit::policy::dp_se::Constants`] as the rational it is.
fn exact(x: f64) -> Result<Q> {
    Q::from_float(x).ok_or_else(|| Error::InvalidInput(format!("DP-SE constant {x} is not finite")))
}

impl DpSeVariant {
    /// The reading named by the texts of `--beta` (an exact number in
    /// `(0, 1)`), `--pull-order`, `--rounding`, `--radius` and
    /// `--reward-index`, each `None` for its default: the one parser of the command line, the oracle's targets and
    /// the Python package.
    pub fn parse(
        beta: Option<&str>,
        pull_order: Option<&str>,
        rounding: Option<&str>,
        radius: Option<&str>,
        reward_index: Option<&str>,
    ) -> Result<DpSeVariant> {
        let beta = beta.map(parse_rational).transpose()?;
        if let Some(beta) = &beta {
            check_beta(beta)?;
        }
        Ok(DpSeVariant {
            beta,
            order: pull_order.map(str::parse).transpose()?.unwrap_or_default(),
            rounding: rounding.map(str::parse).transpose()?.unwrap_or_default(),
            radius: radius.map(str::parse).transpose()?.unwrap_or_default(),
            reward_index: reward_index
                .map(str::parse)
                .transpose()?
                .unwrap_or_default(),
        })
    }

    /// The readings [`crate::oracle::bandit::explain`] tries, a finite grid,
    /// the rewards read by `reward_index`: the pull orders (`any` only by
    /// pull), the three roundings and both radii (only the defaults when
    /// the epoch lengths are given, `printed_lengths` false: they then
    /// change nothing), and β among `beta` (the one tested, `None` for
    /// `1/T`), `1/T`, `1/T²`, `1/10`, `1/20`, `1/100`.
    pub fn grid(
        horizon: usize,
        beta: Option<&Q>,
        printed_lengths: bool,
        reward_index: RewardIndex,
    ) -> Vec<DpSeVariant> {
        let t = Q::from_integer((horizon.max(2) as i64).into());
        let mut betas: Vec<Option<Q>> = vec![beta.cloned(), None];
        for d in [
            t.recip() * t.recip(),
            Q::new(1.into(), 10.into()),
            Q::new(1.into(), 20.into()),
            Q::new(1.into(), 100.into()),
        ] {
            betas.push(Some(d));
        }
        // `1/T` written out is the default.
        let default = t.recip();
        let mut unique: Vec<Option<Q>> = Vec::new();
        for d in betas {
            let d = d.filter(|d| *d != default);
            if !unique.contains(&d) {
                unique.push(d);
            }
        }
        let (roundings, radii): (&[Rounding], &[Radius]) = if printed_lengths {
            (<Rounding as Named>::ALL, <Radius as Named>::ALL)
        } else {
            (&[Rounding::FloorPlusOne], &[Radius::Integer])
        };
        let orders = <PullOrder as Named>::ALL
            .iter()
            .filter(|&&o| o != PullOrder::Any || reward_index == RewardIndex::Pull);
        let mut grid = Vec::new();
        for beta in &unique {
            for &order in orders.clone() {
                for &rounding in roundings {
                    for &radius in radii {
                        grid.push(DpSeVariant {
                            beta: beta.clone(),
                            order,
                            rounding,
                            radius,
                            reward_index,
                        });
                    }
                }
            }
        }
        grid
    }
}

impl DpSeParams {
    /// The parameters of [`DpSe::new`] at `epsilon` with `β = 1/horizon`
    /// (`horizon ≥ 2`), the epoch lengths `R_e` computed (certified) for the
    /// epochs that may end within `horizon` rounds.
    pub fn printed(epsilon: Q, horizon: usize) -> Result<DpSeParams> {
        DpSeParams::printed_as(epsilon, horizon, &DpSeVariant::default())
    }

    /// [`DpSeParams::printed`] in the reading `variant`.
    pub fn printed_as(epsilon: Q, horizon: usize, variant: &DpSeVariant) -> Result<DpSeParams> {
        if !epsilon.is_positive() {
            return Err(Error::InvalidInput(format!(
                "--epsilon must be positive, got {epsilon}"
            )));
        }
        let beta = match &variant.beta {
            Some(beta) => {
                check_beta(beta)?;
                beta.clone()
            }
            None => Q::new(1.into(), (horizon.max(2) as i64).into()),
        };
        let f = |q: &Q| Real::to_f64(q);
        let reference = DpSe::new(2, f(&epsilon), f(&beta));
        let c = reference.constants;
        let constants = [
            exact(c.r_sq)?,
            exact(c.log_sq)?,
            exact(c.r_lin)?,
            exact(c.log_lin)?,
        ];
        let mut params = DpSeParams {
            scale: epsilon.recip(),
            epsilon,
            beta,
            constants,
            lengths: vec![],
            printed_lengths: true,
            order: variant.order,
            rounding: variant.rounding,
            radius: variant.radius,
            reward_index: variant.reward_index,
        };
        // The epochs that start within the horizon (each lasts 2R_e rounds).
        let (mut rounds, mut e) = (0u64, 1);
        while rounds < horizon as u64 || params.lengths.is_empty() {
            let r = params.printed_length(e)?;
            params.lengths.push(r);
            rounds = rounds.saturating_add(r.saturating_mul(2));
            e += 1;
        }
        Ok(params)
    }

    /// `R_e = ⌊max{r_sq ln(log_sq·2e²/β)/Δ², r_lin ln(log_lin·2e²/β)/(εΔ)}⌋ + 1`
    /// (or `⌈max{…}⌉`, `⌊max{…}⌋`, by [`DpSeParams::rounding`];
    /// [`crate::bandit::policy::dp_se::epoch_length`]), `Δ = 2^{−e}`, certified (128 bits,
    /// doubled to 1024 while a floor or ceiling is undecided).
    fn printed_length(&self, e: u32) -> Result<u64> {
        let mut bits = 128;
        loop {
            let terms = self.terms::<Certified>(e, &Precision(bits))?;
            // ⌊max{a, b}⌋ = max{⌊a⌋, ⌊b⌋} (and the same for ⌈·⌉): each
            // decided on its own.
            let round = |x: &Q| match self.rounding {
                Rounding::FloorPlusOne | Rounding::Floor => x.floor(),
                Rounding::Ceiling | Rounding::CeilingPlusOne => x.ceil(),
            };
            let floors: Option<Vec<_>> = terms
                .iter()
                .map(|v| {
                    let (lo, hi) = v.enclosure()?;
                    (round(&lo) == round(&hi)).then(|| round(&lo).to_integer())
                })
                .collect();
            if let Some(floors) = floors {
                let top = floors.into_iter().fold(0.into(), num_bigint::BigInt::max);
                let r = match self.rounding {
                    Rounding::FloorPlusOne | Rounding::CeilingPlusOne => top + 1,
                    Rounding::Ceiling | Rounding::Floor => top.max(1.into()),
                };
                return u64::try_from(r).map_err(|_| {
                    Error::TooLarge(format!("DP-SE's epoch length R_{e} does not fit 64 bits"))
                });
            }
            if bits >= 1024 {
                return Err(Error::Domain(format!(
                    "cannot decide DP-SE's epoch length R_{e} at 1024 bits"
                )));
            }
            bits *= 2;
        }
    }

    /// The two terms of `R_e`'s maximum,
    /// `[r_sq ln(log_sq·2e²/β)/Δ², r_lin ln(log_lin·2e²/β)/(εΔ)]`, `Δ = 2^{−e}`.
    fn terms<R: Real>(&self, e: u32, ctx: &R::Context) -> Result<[R; 2]> {
        let [r_sq, _, r_lin, _] = &self.constants;
        let (l1, l2) = self.logs::<R>(e, ctx)?;
        let inv_delta = Q::from_integer(num_bigint::BigInt::from(1u64) << e);
        Ok([
            R::from_rational(&(r_sq * &inv_delta * &inv_delta), ctx) * l1,
            R::from_rational(&(r_lin * &inv_delta / &self.epsilon), ctx) * l2,
        ])
    }

    /// The `R_e` the radius reads: the integer number of pulls, or
    /// ([`Radius::Real`]) the real before rounding, `max{…} + 1` with
    /// [`Rounding::FloorPlusOne`] and [`Rounding::CeilingPlusOne`], `max{…}`
    /// otherwise
    /// ([`crate::bandit::policy::dp_se::real_length`]).
    fn radius_length<R: Real>(&self, e: u32, ctx: &R::Context) -> Result<R> {
        if self.radius == Radius::Integer {
            return Ok(R::from_int(self.length(e) as i64, ctx));
        }
        let [a, b] = self.terms::<R>(e, ctx)?;
        let top = match a.cmp_certain(&b) {
            Some(Ordering::Less) => b,
            Some(_) => a,
            None => {
                return Err(Error::Domain(format!(
                    "cannot decide the larger term of DP-SE's real R_{e}"
                )))
            }
        };
        Ok(match self.rounding {
            Rounding::FloorPlusOne | Rounding::CeilingPlusOne => top + R::from_int(1, ctx),
            Rounding::Ceiling | Rounding::Floor => top,
        })
    }

    /// `(ln(log_sq·|S|e²/β), ln(log_lin·|S|e²/β))` with `|S| = 2`.
    fn logs<R: Real>(&self, e: u32, ctx: &R::Context) -> Result<(R, R)> {
        let base = Q::from_integer((2 * u64::from(e) * u64::from(e)).into()) / &self.beta;
        let l1 = R::from_rational(&(&self.constants[1] * &base), ctx).ln()?;
        let l2 = R::from_rational(&(&self.constants[3] * &base), ctx).ln()?;
        Ok((l1, l2))
    }

    /// `R_e` (1-based `e`; the last given length repeats).
    pub fn length(&self, e: u32) -> u64 {
        let i = (e as usize)
            .saturating_sub(1)
            .min(self.lengths.len().saturating_sub(1));
        self.lengths.get(i).copied().unwrap_or(1)
    }

    /// `w = 2 c_e R_e = 2R_e (√(ln(log_sq·2e²/β)/(2ρ)) + ln(log_lin·2e²/β)/(ερ))`,
    /// `R_e` the number of pulls and `ρ` the `R_e` the radius reads
    /// ([`DpSeParams::radius_length`]; `ρ = R_e` gives
    /// `2√(R_e ln(…)/2) + 2 ln(…)/ε`).
    fn width<R: Real>(&self, e: u32, ctx: &R::Context) -> Result<R> {
        let (l1, l2) = self.logs::<R>(e, ctx)?;
        let r = R::from_int(self.length(e) as i64, ctx);
        let rho = self.radius_length::<R>(e, ctx)?;
        let two = R::from_int(2, ctx);
        let half = R::from_rational(&Q::new(1.into(), 2.into()), ctx);
        let root = (half * (l1 / (two.clone() * rho.clone())).ln()?).exp()?;
        let c = root + l2 / (R::from_rational(&self.epsilon, ctx) * rho);
        Ok(two * r * c)
    }

    /// Check ε, the scale and β, and that every epoch length is positive.
    pub fn validate(&self) -> Result<()> {
        super::check_positive(&[("--epsilon", &self.epsilon), ("--noise-scale", &self.scale)])?;
        if !(self.beta.is_positive() && self.beta < Q::one()) {
            return Err(Error::InvalidInput(format!(
                "DP-SE's β must lie in (0, 1), got {}",
                self.beta
            )));
        }
        if self.lengths.is_empty() || self.lengths.contains(&0) {
            return Err(Error::InvalidInput(
                "--epoch-length expects positive integers R_1,R_2,… (the last repeats)".into(),
            ));
        }
        if self.order == PullOrder::Any && self.reward_index == RewardIndex::Round {
            return Err(Error::InvalidInput(
                "--pull-order any needs --reward-index pull: on a table read by round the per-epoch pull counts' law depends on the order inside an epoch (or name the order: blocks, round-robin)".into(),
            ));
        }
        if self.radius == Radius::Real && !self.printed_lengths {
            return Err(Error::InvalidInput(
                "--radius real reads the real R_e of the printed epoch lengths; it does not apply with --epoch-length".into(),
            ));
        }
        super::check_scale(&self.epsilon, &self.scale)?;
        Ok(())
    }

    /// Epoch `e` starting at round `start` (0-based) ends at `start + 2R_e`.
    fn end(&self, e: u32, start: usize) -> usize {
        let r = usize::try_from(self.length(e)).unwrap_or(usize::MAX);
        start.saturating_add(r.saturating_mul(2))
    }

    /// The arm of the epoch's pull `offset` (0-based) when both arms survive.
    fn arm(&self, e: u32, offset: usize) -> usize {
        match self.order {
            PullOrder::Blocks | PullOrder::Any => usize::from(offset as u64 >= self.length(e)),
            PullOrder::RoundRobin => offset % 2,
        }
    }

    /// The round of epoch `e`'s first pull of arm 1, the epoch starting at
    /// `start`.
    fn first_of_arm_one(&self, e: u32, start: usize) -> usize {
        match self.order {
            PullOrder::Blocks | PullOrder::Any => {
                start.saturating_add(usize::try_from(self.length(e)).unwrap_or(usize::MAX))
            }
            PullOrder::RoundRobin => start.saturating_add(1),
        }
    }

    /// Whether an epoch ends before round `horizon` (`2R_1 < T`): otherwise
    /// DP-SE pulls deterministically and no noise is ever consulted.
    pub fn noise_consulted(&self, horizon: usize) -> bool {
        self.end(1, 0) < horizon
    }

    /// Walk the schedule over `horizon` rounds: `visit(e, start, end,
    /// branches)` for each epoch `e`, its rounds `start..end` (clipped to the
    /// horizon) and whether the pulls branch at its end (it ends before the
    /// horizon). The walk stops at the epoch that reaches the horizon, or
    /// after a branching epoch whose successor's first pull of arm 1 would
    /// not come before it (at most `⌈T/2⌉` epochs: every epoch has a round).
    fn walk(&self, horizon: usize, mut visit: impl FnMut(u32, usize, usize, bool)) {
        let horizon = self.observed(horizon);
        let (mut start, mut e) = (0usize, 1u32);
        loop {
            let end = self.end(e, start).min(horizon);
            let branches = end < horizon;
            visit(e, start, end, branches);
            if !branches || self.first_of_arm_one(e.saturating_add(1), end) >= horizon {
                return;
            }
            start = end;
            e = e.saturating_add(1);
        }
    }

    /// The rounds the law reads: all `horizon` of them, or with
    /// [`PullOrder::Any`] those of the epochs complete within the horizon
    /// (module documentation, "Any order").
    pub fn observed(&self, horizon: usize) -> usize {
        if self.order != PullOrder::Any {
            return horizon;
        }
        let (mut start, mut e) = (0usize, 1u32);
        loop {
            let end = self.end(e, start);
            if end > horizon {
                return start;
            }
            start = end;
            e = e.saturating_add(1);
        }
    }

    /// Every pull sequence of `horizon` rounds of positive probability (for a
    /// generic reward table): the schedule, branching at each epoch end
    /// before the horizon into "arm 0 to the end", "arm 1 to the end" and
    /// (when the next epoch then pulls arm 1 before the horizon) "both".
    /// With [`PullOrder::Any`], the sequences of the rounds observed
    /// ([`DpSeParams::observed`]) in blocks, each padded to `horizon` by
    /// `pad` (the last pull repeated).
    pub fn sequences(&self, horizon: usize) -> Vec<Vec<usize>> {
        let full = horizon;
        let horizon = self.observed(full);
        let mut out = Vec::new();
        let mut prefix = Vec::with_capacity(horizon);
        self.walk(horizon, |e, start, end, branches| {
            prefix.extend((start..end).map(|t| self.arm(e, t - start)));
            if !branches {
                out.push(prefix.clone());
                return;
            }
            for arm in [0, 1] {
                let mut alone = prefix.clone();
                alone.resize(horizon, arm);
                out.push(alone);
            }
        });
        for pulls in &mut out {
            pad(pulls, full);
        }
        out
    }

    /// The per-epoch pull counts of `pulls` ([`PullOrder::Any`]), written
    /// as the sequence of [`DpSeParams::sequences`] that has them: each
    /// epoch complete within the horizon in blocks, the rest padded with the last pull.
    /// An error names the first round (from 1) at which `pulls` is no
    /// DP-SE pull sequence in any order: an arm pulled more than `R_e`
    /// times in an epoch where the other is pulled too (or in the first
    /// epoch, which pulls both), or an arm pulled after the other was left
    /// alone.
    pub fn epoch_counts(&self, pulls: &[usize]) -> std::result::Result<Vec<usize>, String> {
        let horizon = pulls.len();
        let mut canonical = Vec::with_capacity(horizon);
        let (mut start, mut e) = (0usize, 1u32);
        let mut alone: Option<usize> = None;
        while start < horizon {
            let r = self.length(e);
            let end = self.end(e, start);
            let mut counts = [0u64; 2];
            for (t, &arm) in pulls.iter().enumerate().take(end.min(horizon)).skip(start) {
                if let Some(j) = alone {
                    if arm != j {
                        return Err(format!(
                            "round {}: arm {arm} is pulled after arm {j} was left alone (arms from 0)",
                            t + 1
                        ));
                    }
                    continue;
                }
                counts[arm] += 1;
                let over = |a: usize| counts[a] > r && (counts[1 - a] > 0 || e == 1);
                if let Some(a) = [0, 1].into_iter().find(|&a| over(a)) {
                    return Err(format!(
                        "round {}: arm {a} is pulled {} times and arm {} {} times in epoch {e}, which pulls each of both surviving arms R_{e} = {r} times (arms from 0)",
                        t + 1,
                        counts[a],
                        1 - a,
                        counts[1 - a]
                    ));
                }
            }
            if end > horizon {
                break;
            }
            if alone.is_none() && (counts[0] == 0 || counts[1] == 0) {
                alone = Some(usize::from(counts[0] == 0));
            }
            canonical.extend((0..end - start).map(|offset| match alone {
                Some(j) => j,
                None => self.arm(e, offset),
            }));
            start = end;
            e = e.saturating_add(1);
        }
        pad(&mut canonical, horizon);
        Ok(canonical)
    }

    /// How many sequences [`DpSeParams::sequences`] lists, counted on the
    /// schedule without listing them: two a branching epoch, one for the
    /// epoch that reaches the horizon (at most `3⌈T/2⌉`).
    pub fn sequence_count(&self, horizon: usize) -> u64 {
        let mut count = 0u64;
        self.walk(horizon, |_, _, _, branches| {
            count = count.saturating_add(if branches { 2 } else { 1 });
        });
        count
    }

    /// The event of `pulls` given the rewards `seen` (module documentation);
    /// `None` when the schedule rules the pulls out.
    pub fn event(&self, pulls: &[usize], seen: &[Q]) -> Result<Option<Event>> {
        if pulls.len() != seen.len() || pulls.iter().any(|&a| a > 1) {
            return Err(Error::InvalidInput(
                "the pulls must be arms 0 or 1, one per reward seen".into(),
            ));
        }
        // Any order: the rounds observed, the rest padded.
        let horizon = self.observed(pulls.len());
        let mut padded = pulls[..horizon].to_vec();
        pad(&mut padded, pulls.len());
        if padded != pulls {
            return Ok(None);
        }
        let (pulls, seen) = (&pulls[..horizon], &seen[..horizon]);
        let mut steps = Vec::new();
        let (mut start, mut e) = (0, 1);
        loop {
            let end = self.end(e, start).min(horizon);
            if (start..end).any(|t| pulls[t] != self.arm(e, t - start)) {
                return Ok(None);
            }
            if end == horizon {
                return Ok(Some(Event { steps }));
            }
            // x = S_1 − S_0 over the epoch's pulls.
            let diff: Q = (start..end)
                .map(|t| {
                    if pulls[t] == 1 {
                        seen[t].clone()
                    } else {
                        -&seen[t]
                    }
                })
                .sum();
            let rest = &pulls[end..];
            let kind = if rest.iter().all(|&a| a == 1) {
                Kind::OnlyOne
            } else if rest.iter().all(|&a| a == 0) {
                if self.first_of_arm_one(e + 1, end) >= horizon {
                    Kind::ZeroSurvives
                } else {
                    Kind::OnlyZero
                }
            } else {
                Kind::Both
            };
            steps.push(Step {
                epoch: e,
                diff,
                kind,
            });
            if kind != Kind::Both {
                return Ok(Some(Event { steps }));
            }
            start = end;
            e += 1;
        }
    }

    /// `G(u) = P(Z_0 − Z_1 > u)` for `u = x + s·w` (module documentation).
    fn tail<R: Real>(&self, x: &Q, w: &R, plus: bool, ctx: &R::Context) -> Result<R> {
        let x_r = R::from_rational(x, ctx);
        let u = if plus { x_r + w } else { x_r - w };
        let zero = R::from_int(0, ctx);
        let sign = u.cmp_certain(&zero).ok_or_else(|| {
            Error::Domain(format!("cannot decide the sign of DP-SE's cut point {u:?}"))
        })?;
        let positive_tail = |u: R| -> Result<R> {
            let b = R::from_rational(&self.scale, ctx);
            let half = R::from_rational(&Q::new(1.into(), 2.into()), ctx);
            let decay = (-(u.clone() / &b)).exp()?;
            Ok(half.clone() * decay * (R::from_int(1, ctx) + half * u / b))
        };
        Ok(match sign {
            Ordering::Less => R::from_int(1, ctx) - positive_tail(zero - u)?,
            _ => positive_tail(u)?,
        })
    }

    /// `P(pulls | seen)` of an event: the product of its steps' probabilities.
    pub fn probability<R: Real>(&self, event: &Event, ctx: &R::Context) -> Result<R> {
        let mut p = R::from_int(1, ctx);
        for step in &event.steps {
            let w = self.width::<R>(step.epoch, ctx)?;
            // Only arm 0 survives: D > x + w; only arm 1: D < x − w, i.e.
            // −D > w − x, of probability G(w − x) by symmetry.
            let only_zero = || self.tail(&step.diff, &w, true, ctx);
            let only_one = || self.tail(&(-&step.diff), &w, true, ctx);
            let one = R::from_int(1, ctx);
            let factor = match step.kind {
                Kind::OnlyZero => only_zero()?,
                Kind::OnlyOne => only_one()?,
                Kind::ZeroSurvives => one - only_one()?,
                Kind::Both => one - only_zero()? - only_one()?,
            };
            p = p * factor;
        }
        Ok(p)
    }
}

/// Extend `pulls` to `horizon` rounds by repeating its last pull (arm 0 if
/// it has none): the rounds [`PullOrder::Any`] does not read.
fn pad(pulls: &mut Vec<usize>, horizon: usize) {
    let last = pulls.last().copied().unwrap_or(0);
    pulls.resize(horizon, last);
}

/// What an epoch's end decided, as far as the pulls tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Arm 1 eliminated.
    OnlyZero,
    /// Arm 0 eliminated.
    OnlyOne,
    /// Arm 0 not eliminated (arm 1 eliminated, or both kept with the next
    /// epoch's arm-0 block reaching the horizon).
    ZeroSurvives,
    /// Both kept.
    Both,
}

/// One epoch end before the horizon.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// The epoch `e` (1-based).
    pub epoch: u32,
    /// `x = S_1 − S_0`, the difference of the two blocks' reward sums.
    pub diff: Q,
    /// What it decided.
    pub kind: Kind,
}

/// The event "these pulls" given the rewards seen: the epoch ends before the
/// horizon, each with its sums and decision.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Event {
    /// In order of the epochs.
    pub steps: Vec<Step>,
}

impl PullLaw for DpSeParams {
    type Event = Event;
    fn validate(&self) -> Result<()> {
        DpSeParams::validate(self)
    }
    /// Counted on the schedule ([`DpSeParams::sequence_count`]).
    fn sequence_count(&self, horizon: usize) -> Option<u64> {
        Some(DpSeParams::sequence_count(self, horizon))
    }
    /// One a decided epoch end of each sequence (at least one a sequence):
    /// the sequences branching at the `i`-th end have `i` factors, the one
    /// reaching the horizon one for each end before it.
    fn integrations(&self, horizon: usize) -> Option<u64> {
        let (mut ends, mut total) = (0u64, 0u64);
        self.walk(horizon, |_, _, _, branches| {
            if branches {
                ends += 1;
                total = total.saturating_add(2 * ends);
            } else {
                total = total.saturating_add(ends.max(1));
            }
        });
        Some(total)
    }
    fn sequences(&self, horizon: usize) -> Vec<Vec<usize>> {
        DpSeParams::sequences(self, horizon)
    }
    /// By [`RewardIndex`]: by round, or arm `a`'s `n`-th pull sees row
    /// `n`'s entry of arm `a`.
    fn cells(&self, pulls: &[usize]) -> Vec<(usize, usize)> {
        match self.reward_index {
            RewardIndex::Round => super::cells_by_round(pulls),
            RewardIndex::Pull => {
                let mut count = [0usize; 2];
                pulls
                    .iter()
                    .map(|&a| {
                        count[a] += 1;
                        (count[a] - 1, a)
                    })
                    .collect()
            }
        }
    }
    /// Read by pull, an entry.
    fn neighbours_replace_an_entry(&self) -> bool {
        self.reward_index == RewardIndex::Pull
    }
    fn event(&self, pulls: &[usize], seen: &[Q]) -> Result<Option<Event>> {
        DpSeParams::event(self, pulls, seen)
    }
    fn probability<R: Real>(&self, event: &Event, ctx: &R::Context) -> Result<R> {
        DpSeParams::probability(self, event, ctx)
    }
    fn name(&self) -> &'static str {
        "dp-se"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::Zero;

    #[test]
    fn the_readings_parse_as_the_flags_name_them() {
        assert_eq!(
            DpSeVariant::parse(None, None, None, None, None).unwrap(),
            DpSeVariant::default()
        );
        assert_eq!(
            DpSeVariant::parse(
                Some("1/10"),
                Some("round-robin"),
                Some("ceiling"),
                Some("real"),
                Some("pull")
            )
            .unwrap(),
            DpSeVariant {
                beta: Some(Q::new(1.into(), 10.into())),
                order: PullOrder::RoundRobin,
                rounding: Rounding::Ceiling,
                radius: Radius::Real,
                reward_index: RewardIndex::Pull,
            }
        );
        let refused = |beta, order, rounding, needle: &str| {
            let message = DpSeVariant::parse(beta, order, rounding, None, None)
                .unwrap_err()
                .to_string();
            assert!(message.contains(needle), "{message}");
        };
        for beta in ["0", "1", "-1/2", "3/2"] {
            refused(
                Some(beta),
                None,
                None,
                "--beta (DP-SE's β) must lie in (0, 1)",
            );
        }
        refused(Some("x"), None, None, "'x'");
        refused(
            None,
            Some("zigzag"),
            None,
            "--pull-order expects one of blocks, round-robin",
        );
        refused(
            None,
            None,
            Some("up"),
            "--rounding expects one of floor-plus-one, ceiling, floor, ceiling-plus-one",
        );
    }

    #[test]
    fn the_count_is_the_number_of_sequences_listed() {
        let params = |lengths: Vec<u64>| DpSeParams {
            lengths,
            printed_lengths: false,
            ..DpSeParams::printed(Q::from_integer(1.into()), 2).unwrap()
        };
        for lengths in [vec![1], vec![2], vec![1, 3], vec![3, 1, 2], vec![5]] {
            let p = params(lengths.clone());
            for horizon in 1..=150 {
                let listed = p.sequences(horizon).len() as u64;
                assert_eq!(
                    p.sequence_count(horizon),
                    listed,
                    "{lengths:?}, T = {horizon}"
                );
            }
        }
        // Each sequence's law has one factor an epoch end it passes.
        let p = params(vec![1, 3]);
        for horizon in 1..=60 {
            let factors: usize = p
                .sequences(horizon)
                .iter()
                .map(|pulls| {
                    let seen = vec![Q::zero(); horizon];
                    let event = p.event(pulls, &seen).unwrap().unwrap();
                    event.steps.len().max(1)
                })
                .sum();
            assert_eq!(
                PullLaw::integrations(&p, horizon),
                Some(factors as u64),
                "T = {horizon}"
            );
        }
        // R = 1: an epoch every two rounds, two branches each, one last.
        assert_eq!(params(vec![1]).sequence_count(1 << 20), (1 << 20) - 1);
    }
}
