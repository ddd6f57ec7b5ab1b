//! DP-SE, differentially private successive elimination: Sajed & Sheffet,
//! "An Optimal Private Stochastic-MAB Algorithm Based on an Optimal Private
//! Stopping Rule", ICML 2019 (PMLR 97:5579–5588; arXiv:1905.09383). It is the
//! baseline of both of Hu et al.'s experiments (004 §6, L341; 002 §6). Neither
//! of Hu et al.'s papers prints it.
//!
//! Its definition, as the re-implementation named under "Provenance" writes it
//! (the paper's own pseudo-code could not be read here):
//!
//! ```text
//! Input: arms [K], failure probability β, privacy ε.
//! S ← [K]; e ← 0
//! repeat
//!   e ← e + 1;  Δ_e ← 2^{−e}
//!   R_e ← max{ 32 ln(8|S|e²/β)/Δ_e² , 8 ln(4|S|e²/β)/(ε Δ_e) } + 1
//!   for each i ∈ S: pull i R_e times (fresh observations: means reset),
//!                   μ̃_i ← μ̄_i + Lap(1/(R_e ε))
//!   μ̃_max ← max_{i∈S} μ̃_i
//!   h_e ← √(ln(8|S|e²/β)/(2R_e));  c_e ← ln(4|S|e²/β)/(R_e ε)
//!   remove from S every j with μ̃_max − μ̃_j > 2(h_e + c_e)
//! until |S| = 1
//! pull the remaining arm until the horizon.
//! ```
//!
//! `R_e` is a number of pulls: the `+ 1` of the definition is read as
//! `⌊max{…}⌋ + 1` (the integer part of the real expression, plus one), the
//! default [`Rounding::FloorPlusOne`]. Implementations that take `⌈max{…}⌉`
//! ([`Rounding::Ceiling`]) pull as many rounds: the maximum is never an
//! integer (a positive rational times the logarithm of a rational ≠ 1 is
//! transcendental), so the two readings have one law and the default
//! accepts both. Implementations that drop the `+ 1` and take `⌊max{…}⌋`
//! ([`Rounding::Floor`]) pull one round fewer per arm and epoch; those
//! that pull until the count reaches the real `max{…} + 1`
//! ([`Rounding::CeilingPlusOne`], `⌊max{…}⌋ + 2`) one round more.
//! `|S|` is the number of surviving arms at the start of epoch `e`.
//!
//! **Provenance.** Sajed & Sheffet's own pseudo-code is not quoted here, so
//! its algorithm number is not cited. Hu et al. do not print DP-SE either
//! (004 L34, L112, L341; 002 L43, L135: "DP-SE progresses in epochs and at
//! the end of each epoch, the arms with smaller differentially private
//! empirical means are eliminated", with per-epoch pulls depending on Δ and
//! ε — consistent with the block above, not a definition).
//!
//! The definition above is the one of a public re-implementation used as a
//! baseline in the code of Azize, Jourdan, Al Marjani & Basu's
//! differentially private best-arm identification experiments (NeurIPS 2023;
//! a Python class `DPSE`, author Aymen Al Marjani, project `DP_BAI`; no
//! repository and commit are pinned here). Its `compute_Re`
//! (`max{Re1, Re2} + 1`, the two terms above),
//! `do_eliminations` (`h_e`, `c_e`, the rule `μ̃_max − μ̃_j > 2(h_e + c_e)`)
//! and `privatize` (`Lap(1/(εR_e))` on each mean) are what the block above
//! states. Where this file reads that code differently, and why:
//! - it pulls each arm `int(R_e)` times and scales the noise by that integer,
//!   as here, but evaluates `h_e` and `c_e` at the real `R_e = max{…} + 1`;
//!   here they use the integer number of pulls by default (the paper's `R_e`
//!   is a number of pulls; the two radii differ by a relative `< 1/R_e`, and
//!   the radius is data-independent, so privacy is unaffected), and that
//!   code's reading is [`Radius::Real`] with [`Rounding::FloorPlusOne`];
//! - it takes `μ̃_max` over all `K` stored values, which for eliminated arms
//!   are a reset `0` plus fresh noise (an artefact of that code's storage);
//!   here the maximum is over the surviving set `S`, which is what "the arms
//!   with smaller differentially private empirical means are eliminated"
//!   (002 L43) describes;
//! - the stopping differs (it is a best-arm identification code): for regret,
//!   the survivor is pulled until the horizon.
//!
//! `R_e` is the **maximum** of the two terms, not their sum; the constants
//! are fields of [`Constants`] so that a reader holding the paper can check
//! and change them.
//!
//! Parameters of the experiments: Hu et al. 004 §6 (L341) do not state β, and
//! 002's value of β was lost in extraction (L135). Azize & Basu (NeurIPS 2022,
//! "When privacy meets partial information", §5), whose experiment has 004 §6's
//! setting 1 (K = 5, means {0.75, …, 0.25}, 20 runs; there T = 10⁷, ε = 1),
//! state "β = 1/T for DP-SE"; that is the default here (`BanditConfig::beta`
//! overrides it).
//!
//! The order of the pulls inside an epoch is left open by the definition
//! ("for each i ∈ S: pull i R_e times"); it changes neither the private
//! means nor the pseudo-regret at an epoch's end, but it changes the pull
//! sequence. [`PullOrder::Blocks`] (the default) pulls all `R_e` pulls of the
//! first surviving arm, then the next; [`PullOrder::RoundRobin`] cycles
//! through the surviving arms `R_e` times. Per-round cost: `O(1)` amortised
//! (one [`Pull`] per block, or per pull round-robin, `O(|S|)` per epoch end).
//! [`PullOrder::Any`] is the reading that fixes no order: the oracle then
//! tests the per-epoch pull counts only ([`crate::bandit::law::dp_se`]),
//! whose law is the same for every order when the rewards are read by pull
//! ([`RewardIndex::Pull`]); the policy here plays it in blocks.
//!
//! The radius `h_e + c_e` is evaluated at the integer number of pulls
//! ([`Radius::Integer`], the default) or, as the re-implementation named
//! under "Provenance" does, at the real `R_e` before it is made an integer
//! ([`Radius::Real`]: `max{…} + 1` with [`Rounding::FloorPlusOne`],
//! `max{…}` otherwise); the noise is scaled by the integer in both.

use super::named::named;
use super::{laplace, NoiseRng, Policy, Pull};

/// The order of the pulls inside an epoch, which DP-SE's definition leaves
/// open (`--pull-order`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PullOrder {
    /// All `R_e` pulls of each surviving arm in turn, arms in increasing order.
    #[default]
    Blocks,
    /// The surviving arms in increasing order, one pull each, `R_e` times.
    RoundRobin,
    /// Any order: only the per-epoch pull counts are tested (the policy
    /// plays blocks).
    Any,
}

/// Where the elimination radius `h_e + c_e` reads `R_e` (`--radius`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Radius {
    /// At the integer number of pulls `R_e`.
    #[default]
    Integer,
    /// At the real `R_e` before rounding ([`real_length`]).
    Real,
}

/// Which entry of a reward table a pull receives (`--reward-index`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RewardIndex {
    /// The pull of round `t` receives row `t`'s entry of its arm.
    #[default]
    Round,
    /// Arm `a`'s `n`-th pull receives row `n`'s entry of arm `a`: each
    /// column is the arm's own reward stream (the stochastic model's i.i.d.
    /// draws per arm), whatever the rounds of its pulls.
    Pull,
}

/// How `R_e` is made an integer (`--rounding`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// `⌊max{…}⌋ + 1`: the definition's `+ 1` on the integer part.
    #[default]
    FloorPlusOne,
    /// `⌈max{…}⌉`: the same integer as `⌊max{…}⌋ + 1` (the maximum is never
    /// an integer).
    Ceiling,
    /// `⌊max{…}⌋` (at least 1): the definition without its `+ 1`.
    Floor,
    /// `⌈max{…} + 1⌉ = ⌊max{…}⌋ + 2`: the real `R_e = max{…} + 1` pulled
    /// until the count reaches it (an epoch that ends once `r ≥ R_e`).
    CeilingPlusOne,
}

named!(PullOrder, "--pull-order", {
    Blocks => "blocks",
    RoundRobin => "round-robin",
    Any => "any",
});
named!(Radius, "--radius", { Integer => "integer", Real => "real" });
named!(RewardIndex, "--reward-index", { Round => "round", Pull => "pull" });
named!(Rounding, "--rounding", {
    FloorPlusOne => "floor-plus-one",
    Ceiling => "ceiling",
    Floor => "floor",
    CeilingPlusOne => "ceiling-plus-one",
});

impl Rounding {
    /// The integer number of pulls of the real `r ≥ 0` (f64), `u64::MAX`
    /// past it (an epoch longer than any horizon).
    pub fn apply(self, r: f64) -> u64 {
        match self {
            Rounding::FloorPlusOne => (r.max(0.0).floor() as u64).saturating_add(1),
            Rounding::Ceiling => (r.max(0.0).ceil() as u64).max(1),
            Rounding::Floor => (r.max(0.0).floor() as u64).max(1),
            Rounding::CeilingPlusOne => (r.max(0.0).ceil() as u64).saturating_add(1),
        }
    }
}

/// The constants of DP-SE's epoch length and radius.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Constants {
    /// 32 in `R_e`'s first term.
    pub r_sq: f64,
    /// 8 inside the first logarithm, `ln(8|S|e²/β)`.
    pub log_sq: f64,
    /// 8 in `R_e`'s second (privacy) term.
    pub r_lin: f64,
    /// 4 inside the second logarithm, `ln(4|S|e²/β)`.
    pub log_lin: f64,
}

impl Default for Constants {
    fn default() -> Constants {
        Constants {
            r_sq: 32.0,
            log_sq: 8.0,
            r_lin: 8.0,
            log_lin: 4.0,
        }
    }
}

/// `R_e = ⌊max{32 ln(8se²/β)/Δ_e², 8 ln(4se²/β)/(εΔ_e)}⌋ + 1` (or its
/// ceiling, by `rounding`) for epoch `e ≥ 1` with `s` surviving arms (f64:
/// the logarithms are rounded).
pub fn epoch_length(
    c: &Constants,
    e: u32,
    s: usize,
    epsilon: f64,
    beta: f64,
    rounding: Rounding,
) -> u64 {
    rounding.apply(maximum(c, e, s, epsilon, beta))
}

/// `max{32 ln(8se²/β)/Δ_e², 8 ln(4se²/β)/(εΔ_e)}`, the real of which
/// [`epoch_length`] is an integer.
fn maximum(c: &Constants, e: u32, s: usize, epsilon: f64, beta: f64) -> f64 {
    let delta = 0.5f64.powi(e as i32);
    let ee = f64::from(e) * f64::from(e);
    let l1 = (c.log_sq * s as f64 * ee / beta).ln();
    let l2 = (c.log_lin * s as f64 * ee / beta).ln();
    (c.r_sq * l1 / (delta * delta)).max(c.r_lin * l2 / (epsilon * delta))
}

/// The real `R_e` before rounding, as [`Radius::Real`] reads it:
/// `max{…} + 1` with [`Rounding::FloorPlusOne`] and
/// [`Rounding::CeilingPlusOne`] (the definition's `+ 1`), `max{…}` with the
/// other roundings.
pub fn real_length(
    c: &Constants,
    e: u32,
    s: usize,
    epsilon: f64,
    beta: f64,
    rounding: Rounding,
) -> f64 {
    let m = maximum(c, e, s, epsilon, beta);
    match rounding {
        Rounding::FloorPlusOne | Rounding::CeilingPlusOne => m + 1.0,
        Rounding::Ceiling | Rounding::Floor => m,
    }
}

/// Half the elimination margin, `h_e + c_e`, for epoch `e` with `s` arms,
/// evaluated at `r` (the integer `R_e`, or the real one by [`Radius`]): an
/// arm is removed when `μ̃_max − μ̃_j > 2(h_e + c_e)`.
pub fn radius(c: &Constants, e: u32, s: usize, r: f64, epsilon: f64, beta: f64) -> f64 {
    let ee = f64::from(e) * f64::from(e);
    let l1 = (c.log_sq * s as f64 * ee / beta).ln();
    let l2 = (c.log_lin * s as f64 * ee / beta).ln();
    (l1 / (2.0 * r)).sqrt() + l2 / (epsilon * r)
}

/// The state of DP-SE.
#[derive(Clone, Debug)]
pub struct DpSe {
    /// ε.
    pub epsilon: f64,
    /// β.
    pub beta: f64,
    /// The scale of the Laplace noise on an epoch's reward **sum** (then
    /// divided by `R_e`): default `1/ε`, i.e. `Lap(1/(εR_e))` on the mean.
    pub noise_scale: f64,
    /// The constants of `R_e` and `c_e`.
    pub constants: Constants,
    /// The order of the pulls inside an epoch.
    pub order: PullOrder,
    /// How `R_e` is made an integer.
    pub rounding: Rounding,
    /// Where the radius reads `R_e`.
    pub radius: Radius,
    /// The surviving arms `S`, increasing.
    pub alive: Vec<usize>,
    /// The epoch `e`.
    pub epoch: u32,
    /// `R_e`.
    pub length: u64,
    /// Position in `alive` of the arm being pulled.
    pub position: usize,
    /// Blocks: pulls of that arm in this epoch; round-robin: the cycles
    /// through `alive` completed in this epoch.
    pub done: u64,
    /// Blocks: its reward sum in this epoch.
    pub sum: f64,
    /// Round-robin: the reward sums of this epoch, by position in `alive`.
    pub sums: Vec<f64>,
    /// `μ̃_i` of this epoch, by position in `alive`.
    pub noisy: Vec<f64>,
    k: usize,
}

impl DpSe {
    /// DP-SE on `k` arms with the defaults above.
    pub fn new(k: usize, epsilon: f64, beta: f64) -> DpSe {
        DpSe::with_variant(k, epsilon, beta, PullOrder::default(), Rounding::default())
    }

    /// DP-SE on `k` arms with the given pull order and rounding of `R_e`.
    pub fn with_variant(
        k: usize,
        epsilon: f64,
        beta: f64,
        order: PullOrder,
        rounding: Rounding,
    ) -> DpSe {
        let constants = Constants::default();
        DpSe {
            epsilon,
            beta,
            noise_scale: 1.0 / epsilon,
            constants,
            order,
            rounding,
            radius: Radius::default(),
            alive: (0..k).collect(),
            epoch: 1,
            length: epoch_length(&constants, 1, k, epsilon, beta, rounding),
            position: 0,
            done: 0,
            sum: 0.0,
            sums: vec![0.0; k],
            noisy: Vec::with_capacity(k),
            k,
        }
    }

    fn end_epoch(&mut self) {
        let (e, s) = (self.epoch, self.alive.len());
        let r = match self.radius {
            Radius::Integer => self.length as f64,
            Radius::Real => real_length(
                &self.constants,
                e,
                s,
                self.epsilon,
                self.beta,
                self.rounding,
            ),
        };
        let c = radius(&self.constants, e, s, r, self.epsilon, self.beta);
        let best = self.noisy.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut kept = Vec::with_capacity(self.alive.len());
        for (i, &arm) in self.alive.iter().enumerate() {
            // Kept unless μ̃_max − μ̃_j > 2(h_e + c_e).
            if best - self.noisy[i] <= 2.0 * c {
                kept.push(arm);
            }
        }
        self.alive = kept;
        self.noisy.clear();
        self.epoch += 1;
        self.position = 0;
        self.done = 0;
        self.sums.clear();
        self.sums.resize(self.alive.len(), 0.0);
        self.length = epoch_length(
            &self.constants,
            self.epoch,
            self.alive.len(),
            self.epsilon,
            self.beta,
            self.rounding,
        );
    }
}

impl Policy for DpSe {
    fn arms(&self) -> usize {
        self.k
    }

    fn choose(&mut self, _t: u64, max_run: u64, _rng: &mut NoiseRng) -> Pull {
        if self.alive.len() == 1 {
            return Pull {
                arm: self.alive[0],
                run: max_run,
            };
        }
        let run = match self.order {
            PullOrder::Blocks | PullOrder::Any => max_run.min(self.length - self.done),
            PullOrder::RoundRobin => 1,
        };
        Pull {
            arm: self.alive[self.position],
            run,
        }
    }

    fn observe(&mut self, _arm: usize, n: u64, sum: f64, rng: &mut NoiseRng) {
        if self.alive.len() == 1 {
            return;
        }
        if self.order == PullOrder::RoundRobin {
            // One pull (`n = 1`): the next arm, and at the end of the
            // R_e-th cycle every arm's private mean, in order.
            self.sums[self.position] += sum;
            self.position += 1;
            if self.position == self.alive.len() {
                self.position = 0;
                self.done += 1;
                if self.done == self.length {
                    for i in 0..self.alive.len() {
                        let noisy =
                            (self.sums[i] + laplace(self.noise_scale, rng)) / self.length as f64;
                        self.noisy.push(noisy);
                    }
                    self.end_epoch();
                }
            }
            return;
        }
        self.done += n;
        self.sum += sum;
        if self.done == self.length {
            let noisy = (self.sum + laplace(self.noise_scale, rng)) / self.length as f64;
            self.noisy.push(noisy);
            self.done = 0;
            self.sum = 0.0;
            self.position += 1;
            if self.position == self.alive.len() {
                self.end_epoch();
            }
        }
    }
}
