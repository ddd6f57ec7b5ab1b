//! DP-SE, differentially private successive elimination: Sajed & Sheffet,
//! "An Optimal Private Stochastic-MAB Algorithm Based on an Optimal Private
//! Stopping Rule", ICML 2019 (PMLR 97:5579–5588; arXiv:1905.09383), the
//! algorithm "DP-SE" of their Section 4. It is the baseline of both of Hu et
//! al.'s experiments (004 §6, L341; 002 §6). Neither of Hu et al.'s papers
//! prints it.
//!
//! Its definition, as written here from Sajed & Sheffet's paper:
//!
//! ```text
//! Input: arms [K], privacy ε, failure probability β.
//! S ← [K]; e ← 0
//! repeat
//!   e ← e + 1;  Δ_e ← 2^{−e}
//!   R_e ← ⌈ 32 ln(8|S|e²/β)/Δ_e² + 8 ln(4|S|e²/β)/(ε Δ_e) ⌉
//!   for each i ∈ S: pull i R_e times (fresh observations: counters reset),
//!                   μ̃_i ← μ̂_i + Lap(1/(ε R_e))
//!   c_e ← √(ln(8|S|e²/β)/(2R_e)) + ln(4|S|e²/β)/(ε R_e)
//!   remove from S every i with μ̃_i < max_{j∈S} μ̃_j − 2 c_e
//! until |S| = 1
//! pull the remaining arm until the horizon.
//! ```
//!
//! **Provenance, honestly:** the `search` tool of this session did not return
//! the paper's text, so the constants above (32, 8, 8, 4, the radius `c_e`)
//! are those of Sajed & Sheffet's Algorithm DP-SE as recalled, not checked
//! against a copy; they are fields of [`DpSe`] so that anyone holding the
//! paper can correct them without touching the code. `|S|` is the number of
//! surviving arms at the start of epoch `e`. Hu et al. set β in their
//! experiments to a value lost in 002's extraction (L135); the default here is
//! `β = 1/T`, the choice of Sajed & Sheffet's regret theorem.
//!
//! Arms of an epoch are pulled in blocks (all `R_e` pulls of the first
//! surviving arm, then the next), which the paper leaves open and which does
//! not change the pseudo-regret at the end of an epoch. Per-round cost:
//! `O(1)` amortised (one [`Pull`] per block, `O(|S|)` per epoch end).

use super::{laplace, NoiseRng, Policy, Pull};

/// The constants of DP-SE's epoch length and radius.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Constants {
    /// 32 in `R_e`.
    pub r_sq: f64,
    /// 8 inside the first logarithm, `ln(8|S|e²/β)`.
    pub log_sq: f64,
    /// 8 in `R_e`'s privacy term.
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

/// `R_e` for epoch `e ≥ 1` with `s` surviving arms.
pub fn epoch_length(c: &Constants, e: u32, s: usize, epsilon: f64, beta: f64) -> u64 {
    let delta = 0.5f64.powi(e as i32);
    let ee = f64::from(e) * f64::from(e);
    let l1 = (c.log_sq * s as f64 * ee / beta).ln();
    let l2 = (c.log_lin * s as f64 * ee / beta).ln();
    let r = c.r_sq * l1 / (delta * delta) + c.r_lin * l2 / (epsilon * delta);
    r.ceil().max(1.0) as u64
}

/// The elimination radius `c_e` for epoch `e` with `s` arms and length `r`.
pub fn radius(c: &Constants, e: u32, s: usize, r: u64, epsilon: f64, beta: f64) -> f64 {
    let ee = f64::from(e) * f64::from(e);
    let l1 = (c.log_sq * s as f64 * ee / beta).ln();
    let l2 = (c.log_lin * s as f64 * ee / beta).ln();
    let r = r as f64;
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
    /// The surviving arms `S`, increasing.
    pub alive: Vec<usize>,
    /// The epoch `e`.
    pub epoch: u32,
    /// `R_e`.
    pub length: u64,
    /// Position in `alive` of the arm being pulled.
    pub position: usize,
    /// Pulls of that arm in this epoch.
    pub done: u64,
    /// Its reward sum in this epoch.
    pub sum: f64,
    /// `μ̃_i` of this epoch, by position in `alive`.
    pub noisy: Vec<f64>,
    k: usize,
}

impl DpSe {
    /// DP-SE on `k` arms with the defaults above.
    pub fn new(k: usize, epsilon: f64, beta: f64) -> DpSe {
        let constants = Constants::default();
        DpSe {
            epsilon,
            beta,
            noise_scale: 1.0 / epsilon,
            constants,
            alive: (0..k).collect(),
            epoch: 1,
            length: epoch_length(&constants, 1, k, epsilon, beta),
            position: 0,
            done: 0,
            sum: 0.0,
            noisy: Vec::with_capacity(k),
            k,
        }
    }

    fn end_epoch(&mut self) {
        let c = radius(
            &self.constants,
            self.epoch,
            self.alive.len(),
            self.length,
            self.epsilon,
            self.beta,
        );
        let best = self.noisy.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut kept = Vec::with_capacity(self.alive.len());
        for (i, &arm) in self.alive.iter().enumerate() {
            if self.noisy[i] >= best - 2.0 * c {
                kept.push(arm);
            }
        }
        self.alive = kept;
        self.noisy.clear();
        self.epoch += 1;
        self.position = 0;
        self.length = epoch_length(
            &self.constants,
            self.epoch,
            self.alive.len(),
            self.epsilon,
            self.beta,
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
        Pull {
            arm: self.alive[self.position],
            run: max_run.min(self.length - self.done),
        }
    }

    fn observe(&mut self, _arm: usize, n: u64, sum: f64, rng: &mut NoiseRng) {
        if self.alive.len() == 1 {
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
