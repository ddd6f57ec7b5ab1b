//! UCB1 of Auer, Cesa-Bianchi & Fischer (2002, Fig. 1), non-private baseline
//! (004 footnote 9, L138, builds Algorithm 1's index on it).
//!
//! ```text
//! Initialization: play each machine once.
//! Loop: play machine j that maximizes x̄_j + √(2 ln n / n_j), where x̄_j is the
//!       average reward obtained from machine j, n_j the number of times j has
//!       been played so far, and n the overall number of plays done so far.
//! ```
//!
//! At round `t > K`, `n = t − 1`. Default constant 2 (overridable as
//! `bonus`). Per-round cost `O(K)` (`K` square roots and one logarithm),
//! independent of `T`.
//!
//! # The round the logarithm reads (`--bonus-round`)
//!
//! [`BonusRound::Plays`] (the default) reads `ln n` with `n = t − 1`, the
//! plays done before round `t`, as Auer et al. print it.
//! [`BonusRound::Current`] reads `ln t` of the current round, one more: the
//! form of Bubeck & Cesa-Bianchi ("Regret Analysis of Stochastic and
//! Nonstochastic Multi-armed Bandit Problems", arXiv:1204.5721, §2.2), whose
//! (α, ψ)-UCB plays at time `t` an arm maximising
//! `μ̂_{i,T_i(t−1)} + (ψ*)⁻¹(α ln t / T_i(t−1))`, for rewards in `[0, 1]`
//! (`ψ(λ) = λ²/8`) α-UCB's `μ̂ + √(α ln t / (2 T_i(t−1)))`, this index with
//! `c = α/2`; and of the public implementations whose clock starts at 1
//! before the first play. The two readings pull differently where two
//! indices are closer than the bonuses' change from `ln(t − 1)` to `ln t`.
//!
//! # Ties (`--ties`)
//!
//! The pseudo-code leaves two further choices open: the order in which the
//! machines are first played, and the machine played when several maximise
//! the index. [`Ties`] names the readings: [`Ties::Lowest`] (the default) plays
//! the machines in order and breaks ties to the lowest index;
//! [`Ties::Uniform`] gives an unplayed machine the index `+∞` and draws the
//! machine uniformly among those of maximal index, so that the first `K`
//! rounds are a uniformly random order of the machines (the reading of
//! index-policy libraries that draw among the argmax set); [`Ties::Highest`]
//! plays the machines in order and breaks ties to the highest index (the
//! reading of code that takes the first of a descending sort of the
//! indices); [`Ties::OrderedUniform`] plays the machines in order and then
//! draws the machine uniformly among those of maximal index (the reading of
//! code that initialises in order and then draws among the argmax set). In
//! f64 two
//! indices tie when their doubles are equal: the exact ties when the reward
//! sums are exact in binary (Bernoulli or dyadic rewards), an approximation
//! otherwise; the exact law decides every tie exactly
//! ([`crate::bandit::law::ucb1`]).

use super::reading::named;
use super::{each_once_then_argmax, NoiseRng, Policy, Pull};
use rand::Rng;

/// The round count whose logarithm the bonus reads (`--bonus-round`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BonusRound {
    /// `ln n`, `n = t − 1` the plays done before round `t` (Auer et al.).
    #[default]
    Plays,
    /// `ln t`, `t` the current round (Bubeck & Cesa-Bianchi's α-UCB).
    Current,
}

named!(BonusRound, "--bonus-round", { Plays => "plays", Current => "current" });

impl BonusRound {
    /// The count whose logarithm the bonus of round `round` (from 1) reads.
    pub fn count(self, round: u64) -> u64 {
        match self {
            BonusRound::Plays => round.saturating_sub(1),
            BonusRound::Current => round,
        }
    }
}

/// How UCB1 chooses among machines of equal index (`--ties`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ties {
    /// Each machine once in order, then ties to the lowest index.
    #[default]
    Lowest,
    /// An unplayed machine's index is `+∞`; the machine is drawn uniformly
    /// among those of maximal index, in every round.
    Uniform,
    /// Each machine once in order, then ties to the highest index.
    Highest,
    /// Each machine once in order, then the machine drawn uniformly among
    /// those of maximal index.
    OrderedUniform,
}

named!(Ties, "--ties", {
    Lowest => "lowest",
    Uniform => "uniform",
    Highest => "highest",
    OrderedUniform => "ordered-uniform",
});

impl Ties {
    /// Whether the first `K` rounds play the machines in order, `0, 1, …`.
    pub fn plays_in_order(self) -> bool {
        self != Ties::Uniform
    }

    /// Whether a tie is drawn uniformly, so that the law branches.
    pub fn draws(self) -> bool {
        matches!(self, Ties::Uniform | Ties::OrderedUniform)
    }
}

/// The UCB1 index `x̄ + √(c ln n / n_j)`, `c = bonus`.
pub fn index(mean: f64, n_j: u64, ln_n: f64, bonus: f64) -> f64 {
    mean + (bonus * ln_n / n_j as f64).sqrt()
}

/// The state of UCB1.
#[derive(Clone, Debug)]
pub struct Ucb1 {
    /// The constant 2 of the index.
    pub bonus: f64,
    /// How ties are broken.
    pub ties: Ties,
    /// The round count whose logarithm the bonus reads.
    pub bonus_round: BonusRound,
    /// `n_j`.
    pub n: Vec<u64>,
    /// Reward sums.
    pub sum: Vec<f64>,
}

impl Ucb1 {
    /// Auer et al.'s UCB1 for `k` arms.
    pub fn new(k: usize) -> Ucb1 {
        Ucb1 {
            bonus: 2.0,
            ties: Ties::default(),
            bonus_round: BonusRound::default(),
            n: vec![0; k],
            sum: vec![0.0; k],
        }
    }

    /// The index of arm `j` at `ln n`, `+∞` while it is unplayed.
    fn index_of(&self, j: usize, ln_n: f64) -> f64 {
        if self.n[j] == 0 {
            f64::INFINITY
        } else {
            index(self.sum[j] / self.n[j] as f64, self.n[j], ln_n, self.bonus)
        }
    }

    /// The arms of maximal index at `ln n`, in increasing order (the
    /// unplayed ones while there are any).
    fn maximal(&self, ln_n: f64) -> Vec<usize> {
        let indices: Vec<f64> = (0..self.n.len()).map(|j| self.index_of(j, ln_n)).collect();
        let top = indices.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (0..self.n.len()).filter(|&j| indices[j] == top).collect()
    }
}

impl Policy for Ucb1 {
    fn arms(&self) -> usize {
        self.n.len()
    }

    fn choose(&mut self, t: u64, _max_run: u64, rng: &mut NoiseRng) -> Pull {
        let ln_n = (self.bonus_round.count(t) as f64).ln();
        let k = self.n.len();
        if self.ties == Ties::Lowest {
            return each_once_then_argmax(t, k, |j| self.index_of(j, ln_n));
        }
        let arm = if t <= k as u64 && self.ties.plays_in_order() {
            (t - 1) as usize
        } else {
            let maximal = self.maximal(ln_n);
            match (self.ties, maximal.len()) {
                (_, 0 | 1) => maximal.first().copied().unwrap_or(0),
                (Ties::Highest, m) => maximal[m - 1],
                (_, m) => maximal[rng.random_range(0..m)],
            }
        };
        Pull { arm, run: 1 }
    }

    fn observe(&mut self, arm: usize, n: u64, sum: f64, _rng: &mut NoiseRng) {
        self.n[arm] += n;
        self.sum[arm] += sum;
    }
}
