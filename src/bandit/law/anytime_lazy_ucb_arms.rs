//! The exact law of the pull sequence of Anytime-Lazy-UCB (Hu et al., 004
//! Algorithm 1, L140–L149) with any number K ≥ 2 of arms on a fixed reward
//! table: the event "these pulls" as a polyhedron in the noises, measured by
//! [`crate::measure::polyhedral::laplace_measure`].
//!
//! # The event
//!
//! Given the pulls and the rewards seen, the schedule is deterministic
//! ([`super::anytime_lazy_ucb`]'s walk of [`crate::bandit::policy::LazySchedule`]): each noise `Z_v`
//! (line 2's draw of each arm, then one per epoch end, line 7) is i.i.d.
//! `Lap(b·O_v^p)` (`b = 1/ε`, `p = 0` as printed: [`LazyUcbParams`]), and
//! while it is arm `j`'s current noise, `μ̃_j = (S_v + Z_v)/O_v`. At a round
//! `t > K` pulling arm `a`, line 4 says `μ̄_a(t) ≥ μ̄_j(t)` for every other
//! arm `j` (ties, of probability 0, to the lowest index), that is, with
//! `u, w` the current noises of `a` and `j`,
//!
//! ```text
//! Z_u/O_u − Z_w/O_w + S_u/O_u − S_w/O_w + g(O_u, t) − g(O_w, t) ≥ 0,
//! g(O, t) = √(c ln t/O) + c ln t/(ε O)   (c = 3 as printed).
//! ```
//!
//! The constant is rational when `O_u = O_w` (the bonus terms cancel) and
//! otherwise `q + g(O_u, t) − g(O_w, t)` with the two values of `g` as
//! symbolic atoms, one per distinct `(O, t)`: equal thresholds are then
//! recognised exactly ([`crate::measure::polyhedral`]'s constants). While the pair
//! `(u, w)` is current only `t` changes, and `g(O_u, t) − g(O_w, t)` is
//! monotone in `t` (both of its terms have the sign of `1/O_u − 1/O_w` times
//! an increasing function of `t`): of the rounds where `u`'s arm beat `w`'s,
//! only the tightest is kept — the last when `O_u > O_w` (the threshold
//! `−g(O_u, t) + g(O_w, t)` increases), the first otherwise — as
//! [`super::anytime_lazy_ucb`] keeps one lower and one upper end per edge at K = 2.
//! Noises that no kept inequality involves integrate to 1 and are dropped,
//! so the event depends on the pulls and rewards only through what the
//! probability depends on, and the privacy check computes each distinct one
//! once.
//!
//! At K = 2 the inequalities form [`super::anytime_lazy_ucb`]'s tree of windows; the
//! tests compare the two on every pull sequence (two independent
//! integrations). K ≥ 3 closes cycles (three current noises compared
//! pairwise), which the tree cannot integrate and Fourier–Motzkin can.
//!
//! # Cost
//!
//! At most `K + Σ_j ⌊log₂ n_j⌋` noises (`n_j` arm `j`'s pulls) and at most
//! one inequality per ordered pair of noises current together; the measure
//! is exponential in the number of noises (Fourier–Motzkin); the whole
//! check at K = 3, rewards {0, 1} takes 0.1 s, 1.6 s, 6 s and 52 s at
//! T = 5, 6, 7, 8 (release, one thread).

use super::anytime_lazy_ucb::{
    pull_sequence_count, pull_sequence_of, pull_sequences_of, walk, LazyUcbParams, Step,
};
use super::PullLaw;
use crate::error::{Error, Result};
use crate::measure::polyhedral::{laplace_measure, Inequality, LaplaceFactor};
use crate::num::{Real, Q};
use num_traits::Zero;
use std::collections::BTreeMap;

/// The most laws [`crate::privacy::bandit::exact::check`] computes for [`LazyUcbArms`]
/// without `force`: `K^{T−K}·|V|^T` = 62208 at K = 3, T = 8, |V| = 2 (52 s
/// measured in release, one thread, on a shared machine); T = 9 has 373248.
pub const MAX_LAWS: u64 = 1 << 17;

/// Anytime-Lazy-UCB with `arms` arms and the parameters `params`, as a
/// [`PullLaw`] whose events are polyhedra.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LazyUcbArms {
    /// ε, the noise scale and the bonus constant.
    pub params: LazyUcbParams,
    /// K ≥ 2.
    pub arms: usize,
}

/// The event "these pulls" given the rewards seen (module documentation):
/// the noises' `O`, the atoms `g(O, t)` by their `(O, t)`, the inequalities.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Event {
    /// `O_v` of each variable (its scale is `b·O_v^p`).
    o: Vec<u64>,
    /// `(O, t)` of each atom `g(O, t)`.
    atoms: Vec<(u64, u64)>,
    /// `a·z + c ≥ 0`, `c` over the atoms.
    inequalities: Vec<Inequality>,
}

/// The tightest round of a pair (winner's noise, loser's noise), with what
/// its inequality needs.
struct Kept {
    t: u64,
    /// `O` of the winner's and the loser's noise.
    o: [u64; 2],
    /// `S_u/O_u − S_w/O_w`.
    offset: Q,
}

impl Event {
    /// The event of `pulls` (arms `0..arms`) with `seen[t]` the reward of
    /// round `t + 1`; `None` when line 2 rules the pulls out.
    pub fn new(arms: usize, pulls: &[usize], seen: &[Q]) -> Result<Option<Event>> {
        if arms < 2 {
            return Err(Error::InvalidInput(format!(
                "a bandit needs K ≥ 2 arms, got {arms}"
            )));
        }
        let mut kept: BTreeMap<(usize, usize), Kept> = BTreeMap::new();
        // `O` of every noise a kept inequality involves, by number.
        let mut o_of: BTreeMap<usize, u64> = BTreeMap::new();
        let possible = walk(arms, pulls, seen, |step| {
            let Step::Compare { t, arm, current } = step else {
                return;
            };
            let u = &current[arm];
            for (_, w) in current.iter().enumerate().filter(|&(j, _)| j != arm) {
                o_of.insert(u.id, u.o);
                o_of.insert(w.id, w.o);
                let o = [u.o, w.o];
                let mean = |s: &Q, o: u64| s / Q::from_integer(o.into());
                let entry = kept.entry((u.id, w.id)).or_insert_with(|| Kept {
                    t,
                    o,
                    offset: mean(&u.s, u.o) - mean(&w.s, w.o),
                });
                // The threshold g(O_w, t) − g(O_u, t) increases in t iff O_u > O_w.
                if o[0] > o[1] {
                    entry.t = t;
                }
            }
        })?;
        if !possible {
            return Ok(None);
        }
        // Variables in the order of the noises' numbers; atoms in the order
        // of first use.
        let var: BTreeMap<usize, usize> = o_of.keys().enumerate().map(|(i, &id)| (id, i)).collect();
        let mut atoms: Vec<(u64, u64)> = Vec::new();
        let mut atom: BTreeMap<(u64, u64), usize> = BTreeMap::new();
        for k in kept.values().filter(|k| k.o[0] != k.o[1]) {
            for key in [(k.o[0], k.t), (k.o[1], k.t)] {
                atom.entry(key).or_insert_with(|| {
                    atoms.push(key);
                    atoms.len()
                });
            }
        }
        let inequalities = kept
            .iter()
            .map(|(&(u, w), k)| {
                let mut x = vec![Q::zero(); var.len()];
                x[var[&u]] = Q::from_integer(k.o[0].into()).recip();
                x[var[&w]] = -Q::from_integer(k.o[1].into()).recip();
                let mut ineq = Inequality::rational(x, k.offset.clone(), atoms.len());
                if k.o[0] != k.o[1] {
                    // + g(O_u, t) − g(O_w, t); `atom` holds 1-based positions.
                    ineq.constant[atom[&(k.o[0], k.t)]] = Q::from_integer(1.into());
                    ineq.constant[atom[&(k.o[1], k.t)]] = Q::from_integer((-1).into());
                }
                ineq
            })
            .collect();
        let o = o_of.into_values().collect();
        Ok(Some(Event {
            o,
            atoms,
            inequalities,
        }))
    }

    /// Its probability: the Laplace measure of the polyhedron, the atoms
    /// evaluated in `R` ([`LazyUcbParams`]'s `g`).
    ///
    /// Errors: [`Error::NotRepresentable`] in an exact backend when an atom
    /// or an `e^{constant}` is needed; [`Error::Domain`] when a sign cannot
    /// be decided at this precision.
    pub fn probability<R: Real>(&self, params: &LazyUcbParams, ctx: &R::Context) -> Result<R> {
        if self.inequalities.is_empty() {
            return Ok(R::from_int(1, ctx));
        }
        let n = self.o.len();
        let factors: Vec<LaplaceFactor> = self
            .o
            .iter()
            .enumerate()
            .map(|(v, &o)| LaplaceFactor {
                form: (0..n)
                    .map(|i| Q::from_integer(i64::from(i == v).into()))
                    .collect(),
                scale: &params.scale
                    * num_traits::pow::Pow::pow(&Q::from_integer(o.into()), params.scale_o_power),
            })
            .collect();
        let atoms: Vec<R> = self
            .atoms
            .iter()
            .map(|&(o, t)| params.bonus_term::<R>(o, t, ctx))
            .collect::<Result<_>>()?;
        laplace_measure(n, &factors, &self.inequalities, &atoms, ctx)
    }
}

impl LazyUcbArms {
    /// The printed parameters at `epsilon` with `arms` arms.
    pub fn printed(epsilon: Q, arms: usize) -> LazyUcbArms {
        LazyUcbArms {
            params: LazyUcbParams::printed(epsilon),
            arms,
        }
    }
}

impl PullLaw for LazyUcbArms {
    type Event = Event;
    fn validate(&self) -> Result<()> {
        if self.arms < 2 {
            return Err(Error::InvalidInput(format!(
                "a bandit needs K ≥ 2 arms, got {}",
                self.arms
            )));
        }
        self.params.validate()
    }
    fn arms(&self) -> usize {
        self.arms
    }
    /// A law at K ≥ 3 is a Fourier–Motzkin integration, far dearer than
    /// K = 2's tree: at most [`MAX_LAWS`] laws (K = 3, rewards {0, 1}:
    /// T ≤ 8) without `--force`.
    fn max_laws(&self) -> u64 {
        MAX_LAWS
    }
    fn name(&self) -> &'static str {
        "anytime-lazy-ucb"
    }
    fn sequence_count(&self, horizon: usize) -> Option<u64> {
        pull_sequence_count(self.arms, self.arms, horizon)
    }
    /// `⌈d²/16⌉` units a sequence, `d = K + ⌊K·log₂(T/K)⌋` the most noises
    /// an event keeps (`K + Σ_j ⌊log₂ n_j⌋`, `Σ_j n_j = T`, bounded by
    /// concavity). Measured (release, one core, K = 3, rewards {0, 1}):
    /// T = 8, 9 take 1.5 s, 5.8 s, 243 and 729 sequences of `d = 7`, 4
    /// units each, at 1.6–2.0 ms a unit.
    fn work(&self, horizon: usize) -> Option<u128> {
        let k = self.arms as f64;
        let spread = (k * (horizon as f64 / k).log2()).floor().max(0.0);
        let noises = self.arms as u128 + spread as u128;
        let units = noises.checked_mul(noises)?.div_ceil(16);
        super::sequences_work(self.sequence_count(horizon), units)
    }
    fn sequences(&self, horizon: usize) -> Vec<Vec<usize>> {
        pull_sequences_of(self.arms, self.arms, horizon)
    }
    fn sequence(&self, horizon: usize, index: u64) -> Option<Vec<usize>> {
        pull_sequence_of(self.arms, self.arms, horizon, index)
    }
    fn event(&self, pulls: &[usize], seen: &[Q]) -> Result<Option<Event>> {
        Event::new(self.arms, pulls, seen)
    }
    fn probability<R: Real>(&self, event: &Event, ctx: &R::Context) -> Result<R> {
        event.probability(&self.params, ctx)
    }
}
