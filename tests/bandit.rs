//! The bandit algorithms against second implementations written here straight
//! from the papers' pseudo-code, on shared randomness; the noise samplers
//! against their distribution functions; the simulation's reproducibility;
//! the command line's contract.
//!
//! Shared randomness: a table of Bernoulli rewards (`table[j][k]` is the
//! reward of arm j's (k+1)-th pull — in a stochastic bandit the law is the
//! same as indexing by round) and one noise stream, consumed in the order the
//! pseudo-code draws. The library plays through its engine (lazy algorithms in
//! runs of rounds, reward sums at once); the references step round by round.
//! With distinct gaps, equal regret at every round (up to float summation)
//! means equal pull sequences.

mod common;

use common::{chi_square_p_value, dpdtol};
use dpdtol::bandit::policy::adap_klucb::kl_upper;
use dpdtol::bandit::policy::dp_ts::BonusRound;
use dpdtol::bandit::policy::sim::{play, simulate, simulate_run, RewardLaw, Table};
use dpdtol::bandit::policy::{beta, BanditConfig, BanditId, NoiseRng};
use dpdtol::mechanism::{sampler, Noise};
use rand::{Rng, SeedableRng};
use statrs::distribution::{Beta as BetaLaw, ContinuousCDF, Laplace as LaplaceLaw};

const MEANS: [f64; 4] = [0.7, 0.55, 0.5, 0.2];

fn gaps() -> Vec<f64> {
    MEANS.iter().map(|m| 0.7 - m).collect()
}

fn table(seed: u64, len: usize) -> Vec<Vec<f64>> {
    let mut rng = NoiseRng::seed_from_u64(seed);
    MEANS
        .iter()
        .map(|&m| {
            (0..len)
                .map(|_| f64::from(u8::from(rng.random::<f64>() < m)))
                .collect()
        })
        .collect()
}

fn lap(scale: f64, rng: &mut NoiseRng) -> f64 {
    sampler::noise(Noise::Laplace, scale, rng)
}

/// The first index of the maximum.
fn first_max(v: &[f64]) -> usize {
    let mut best = 0;
    for j in 1..v.len() {
        if v[j] > v[best] {
            best = j;
        }
    }
    best
}

/// The library's regret at every round 1..=T through the engine.
fn engine(
    config: &BanditConfig,
    streams: Vec<Vec<f64>>,
    horizon: u64,
    noise_seed: u64,
) -> Vec<f64> {
    let mut policy = config.build(MEANS.len(), horizon).unwrap();
    let mut rewards = Table::new(streams);
    let mut noise = NoiseRng::seed_from_u64(noise_seed);
    let marks: Vec<u64> = (1..=horizon).collect();
    play(
        policy.as_mut(),
        &mut rewards,
        &mut noise,
        &gaps(),
        horizon,
        &marks,
    )
    .regret
}

/// Regret at every round of a pull sequence.
fn regret_of(pulls: &[usize]) -> Vec<f64> {
    let g = gaps();
    let mut total = 0.0;
    pulls
        .iter()
        .map(|&j| {
            total += g[j];
            total
        })
        .collect()
}

fn assert_same(id: &str, seed: u64, ours: &[f64], reference: &[f64]) {
    assert_eq!(ours.len(), reference.len());
    // Gaps 0, 0.15, 0.2, 0.5: a different arm moves the regret by ≥ 0.05; the
    // engine sums `gap × run` where the reference adds gaps one by one.
    if let Some(t) = (0..ours.len()).find(|&t| (ours[t] - reference[t]).abs() > 1e-6) {
        panic!(
            "{id}, seed {seed}: regret differs first at round {}: {} vs {}",
            t + 1,
            ours[t],
            reference[t]
        );
    }
}

/// The lazy schedule as Algorithms 1 and 3 print it (004 L142, L145–L148;
/// L192, L196–L199), with the choice of line 4 (Alg. 1) or lines 4–5 (Alg. 3)
/// given by `choose(t, μ̃, O, rng)`.
fn reference_lazy(
    x: &[Vec<f64>],
    eps: f64,
    horizon: usize,
    rng: &mut NoiseRng,
    mut choose: impl FnMut(f64, &[f64], &[f64], &mut NoiseRng) -> usize,
) -> Vec<usize> {
    let k = x.len();
    // Line 2: pull each arm once; O_j ← 1, r_j ← 0, μ̃_j ← X_j + Lap(1/ε), N_j, Φ_j ← 0.
    let mut next = vec![1usize; k];
    let mut pulls: Vec<usize> = (0..k).collect();
    let (mut o, mut r, mut n, mut phi) = (vec![1.0; k], vec![0u32; k], vec![0u64; k], vec![0.0; k]);
    let mut mu: Vec<f64> = (0..k).map(|j| x[j][0] + lap(1.0 / eps, rng)).collect();
    for t in k + 1..=horizon {
        let jt = choose(t as f64, &mu, &o, rng);
        let reward = x[jt][next[jt]];
        next[jt] += 1;
        // N_J ← N_J + 1, Φ_J ← Φ_J + X_J(t).
        n[jt] += 1;
        phi[jt] += reward;
        if n[jt] == 1 << (r[jt] + 1) {
            // O_J ← 2^{r_J+1}, μ̃_J ← (Φ_J + Lap(1/ε))/O_J, r_J ← r_J + 1, reset.
            o[jt] = (1u64 << (r[jt] + 1)) as f64;
            mu[jt] = (phi[jt] + lap(1.0 / eps, rng)) / o[jt];
            r[jt] += 1;
            n[jt] = 0;
            phi[jt] = 0.0;
        }
        pulls.push(jt);
    }
    pulls
}

/// 004 Algorithm 1 (L140–L149): line 4's UCB, argmax.
fn reference_anytime_lazy_ucb(
    x: &[Vec<f64>],
    eps: f64,
    horizon: usize,
    rng: &mut NoiseRng,
) -> Vec<usize> {
    reference_lazy(x, eps, horizon, rng, |t, mu, o, _| {
        let lt = t.ln();
        let ucb: Vec<f64> = (0..mu.len())
            .map(|j| mu[j] + (3.0 * lt / o[j]).sqrt() + 3.0 * lt / (eps * o[j]))
            .collect();
        first_max(&ucb)
    })
}

/// 004 Algorithm 3 (L190–L200): line 4's clipped optimistic Beta draws, line 5's argmax.
fn reference_lazy_dp_ts(
    x: &[Vec<f64>],
    eps: f64,
    horizon: usize,
    rng: &mut NoiseRng,
) -> Vec<usize> {
    reference_lazy(x, eps, horizon, rng, |t, mu, o, rng| {
        let lt = t.ln();
        let theta: Vec<f64> = (0..mu.len())
            .map(|j| {
                let v = mu[j] + 3.0 * lt / (eps * o[j]);
                let clip = if v > 1.0 {
                    1.0
                } else if v >= 0.0 {
                    v
                } else {
                    0.0
                };
                beta(clip * o[j] + 1.0, (1.0 - clip) * o[j] + 1.0, rng)
            })
            .collect();
        first_max(&theta)
    })
}

/// 004 Algorithm 2 (L180–L186).
fn reference_thompson(x: &[Vec<f64>], horizon: usize, rng: &mut NoiseRng) -> Vec<usize> {
    let k = x.len();
    let (mut o, mut s) = (vec![0usize; k], vec![0.0; k]);
    (0..horizon)
        .map(|_| {
            let theta: Vec<f64> = (0..k)
                .map(|j| beta(s[j] + 1.0, o[j] as f64 - s[j] + 1.0, rng))
                .collect();
            let jt = first_max(&theta);
            s[jt] += x[jt][o[jt]];
            o[jt] += 1;
            jt
        })
        .collect()
}

/// UCB1 (Auer et al. 2002, Fig. 1).
fn reference_ucb1(x: &[Vec<f64>], horizon: usize) -> Vec<usize> {
    let k = x.len();
    let (mut n, mut s) = (vec![0usize; k], vec![0.0; k]);
    let mut pulls = Vec::new();
    for t in 1..=horizon {
        let jt = if t <= k {
            t - 1
        } else {
            let plays = ((t - 1) as f64).ln();
            let idx: Vec<f64> = (0..k)
                .map(|j| s[j] / n[j] as f64 + (2.0 * plays / n[j] as f64).sqrt())
                .collect();
            first_max(&idx)
        };
        s[jt] += x[jt][n[jt]];
        n[jt] += 1;
        pulls.push(jt);
    }
    pulls
}

/// DP-SE as in src/bandit/policy/dp_se.rs's quoted definition (Sajed & Sheffet's
/// Algorithm 1 as re-implemented in Azize et al.'s code), epoch by epoch.
fn reference_dp_se(x: &[Vec<f64>], eps: f64, horizon: usize, rng: &mut NoiseRng) -> Vec<usize> {
    let beta = 1.0 / horizon as f64;
    let mut alive: Vec<usize> = (0..x.len()).collect();
    let mut next = vec![0usize; x.len()];
    let mut pulls = Vec::new();
    let mut e = 1u32;
    while alive.len() > 1 && pulls.len() < horizon {
        let d = 0.5f64.powi(e as i32);
        let s = alive.len() as f64;
        let ee = f64::from(e) * f64::from(e);
        // R_e = max{32 ln(8|S|e²/β)/Δ_e², 8 ln(4|S|e²/β)/(εΔ_e)} + 1, an integer.
        let r1 = 32.0 * (8.0 * s * ee / beta).ln() / (d * d);
        let r2 = 8.0 * (4.0 * s * ee / beta).ln() / (eps * d);
        let r = r1.max(r2).floor() as usize + 1;
        let mut noisy = Vec::new();
        for &i in &alive {
            let mut sum = 0.0;
            for _ in 0..r {
                if pulls.len() < horizon {
                    pulls.push(i);
                }
                sum += x[i][next[i]];
                next[i] += 1;
            }
            noisy.push((sum + lap(1.0 / eps, rng)) / r as f64);
        }
        if pulls.len() >= horizon {
            break;
        }
        let h = ((8.0 * s * ee / beta).ln() / (2.0 * r as f64)).sqrt();
        let c = (4.0 * s * ee / beta).ln() / (eps * r as f64);
        let best = noisy.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        // Remove every j with μ̃_max − μ̃_j > 2(h_e + c_e).
        alive = alive
            .iter()
            .zip(&noisy)
            .filter(|(_, &m)| best - m <= 2.0 * (h + c))
            .map(|(&i, _)| i)
            .collect();
        e += 1;
    }
    while pulls.len() < horizon {
        pulls.push(alive[0]);
    }
    pulls
}

/// AdaP-KLUCB from Azize & Basu's Algorithm 1 and index (quoted in
/// src/bandit/policy/adap_klucb.rs), round by round: after one pull of each arm, an
/// episode starts at t_ℓ with the arm of largest index and lasts until that
/// arm's count has doubled; its private mean is the episode's mean plus
/// Lap(1/(nε)), n its length. The inversion `max{q : d(p, q) ≤ c}` is the
/// library's [`kl_upper`] (a numerical primitive, tested on its own in
/// src/bandit/policy/adap_klucb.rs); everything else is written here.
fn reference_adap_klucb(
    x: &[Vec<f64>],
    eps: f64,
    horizon: usize,
    rng: &mut NoiseRng,
) -> Vec<usize> {
    let k = x.len();
    let alpha = 3.1;
    let mut count = vec![0usize; k]; // N_a
    let mut n = vec![0usize; k]; // samples behind μ̃_a
    let mut mu = vec![0.0; k];
    let mut pulls = Vec::new();
    // Line 3: each arm once; μ̃_a = X_a + Lap(1/ε).
    for a in 0..k {
        pulls.push(a);
        mu[a] = x[a][0] + lap(1.0 / eps, rng);
        count[a] = 1;
        n[a] = 1;
    }
    while pulls.len() < horizon {
        let t_l = (pulls.len() + 1) as f64;
        let idx: Vec<f64> = (0..k)
            .map(|a| {
                let half = n[a] as f64;
                let bonus = alpha * t_l.ln() / half;
                let clipped = (mu[a] + bonus / eps).clamp(0.0, 1.0);
                kl_upper(clipped, bonus)
            })
            .collect();
        let a = first_max(&idx);
        let length = count[a];
        let mut sum = 0.0;
        for s in 0..length {
            if pulls.len() == horizon {
                return pulls;
            }
            pulls.push(a);
            sum += x[a][count[a] + s];
        }
        mu[a] = (sum + lap(1.0 / eps, rng)) / length as f64;
        n[a] = length;
        count[a] += length;
    }
    pulls
}

/// Chan, Shi & Song's Hybrid mechanism as src/bandit/policy/hybrid_ucb.rs
/// infers it, per arm: observations kept, every dyadic block's noisy sum
/// drawn when the block completes (`Lap(b)` for observation 1 and each
/// power-of-two block, `Lap((m+1)·b)` for a p-sum of the open tree), prefix
/// sums assembled from the blocks.
struct Hybrid {
    b: f64,
    obs: Vec<Vec<f64>>,
    arrays: Vec<f64>,
    m: Vec<u32>,
    /// Noisy sums of the completed dyadic blocks of the current tree, by size (level).
    blocks: Vec<Vec<f64>>,
}

impl Hybrid {
    fn new(k: usize, b: f64) -> Hybrid {
        Hybrid {
            b,
            obs: vec![Vec::new(); k],
            arrays: vec![0.0; k],
            m: vec![0; k],
            blocks: vec![Vec::new(); k],
        }
    }

    /// `n_j`, the tree's leaves and arm `j`'s noisy sum.
    fn sum(&self, j: usize) -> (usize, u64, f64) {
        let n = self.obs[j].len();
        let leaves = (n - (1usize << self.m[j])) as u64;
        let tree: f64 = (0..self.blocks[j].len())
            .filter(|&l| leaves >> l & 1 == 1)
            .map(|l| self.blocks[j][l])
            .sum();
        (n, leaves, self.arrays[j] + tree)
    }

    /// Arm `jt`'s next observation from the table.
    fn push(&mut self, x: &[Vec<f64>], jt: usize, rng: &mut NoiseRng) {
        let b = self.b;
        let reward = x[jt][self.obs[jt].len()];
        self.obs[jt].push(reward);
        let n = self.obs[jt].len();
        if n == 1 {
            self.arrays[jt] = reward + lap(b, rng);
        } else {
            let start = 1usize << self.m[jt];
            let leaves = n - start;
            if leaves == start {
                let tree_sum: f64 = self.obs[jt][start..].iter().sum();
                self.arrays[jt] += tree_sum + lap(b, rng);
                self.m[jt] += 1;
                self.blocks[jt].clear();
            } else {
                let level = leaves.trailing_zeros() as usize;
                let block: f64 = self.obs[jt][n - (1 << level)..].iter().sum();
                if self.blocks[jt].len() <= level {
                    self.blocks[jt].resize(level + 1, 0.0);
                }
                self.blocks[jt][level] = block + lap(f64::from(self.m[jt] + 1) * b, rng);
            }
        }
    }
}

/// The inferred Hybrid-UCB of src/bandit/policy/hybrid_ucb.rs, from its quoted
/// pseudo-code: index (35) on the Hybrid mechanism's means.
fn reference_hybrid_ucb(
    x: &[Vec<f64>],
    eps: f64,
    horizon: usize,
    rng: &mut NoiseRng,
) -> Vec<usize> {
    let k = x.len();
    let b = 2.0 / eps;
    let mut h = Hybrid::new(k, b);
    let mut pulls = Vec::new();
    for t in 1..=horizon {
        let jt = if t <= k {
            t - 1
        } else {
            let lt = (t as f64).ln();
            let idx: Vec<f64> = (0..k)
                .map(|j| {
                    let (n, leaves, sum) = h.sum(j);
                    let levels = f64::from(h.m[j] + 1);
                    let scale = levels * b + f64::from(leaves.count_ones()) * levels * b;
                    sum / n as f64 + (3.0 * lt / n as f64).sqrt() + 3.0 * lt * scale / n as f64
                })
                .collect();
            first_max(&idx)
        };
        h.push(x, jt, rng);
        pulls.push(jt);
    }
    pulls
}

/// DP-TS as inferred in src/bandit/policy/dp_ts.rs (Hu & Hegde, UAI 2022):
/// `θ_j ~ Beta(μ̄O + 1, (1 − μ̄)O + 1)` with
/// `μ̄ = Clip[0,1](μ̃ + 6√(8 ln(O+1) ln t)/(εO))` on the Hybrid mechanism's
/// means (scales `2/ε`), drawn for every arm in order, argmax pulled. With
/// `frozen`, the public implementation's reading (`DP_TS.py`, `update`):
/// `μ̄_j` and the Beta parameters computed when arm `j` is observed, with
/// `ln t` of that round, and drawn from unchanged until its next observation.
fn reference_dp_ts(
    x: &[Vec<f64>],
    eps: f64,
    horizon: usize,
    frozen: bool,
    rng: &mut NoiseRng,
) -> Vec<usize> {
    let k = x.len();
    let mut h = Hybrid::new(k, 2.0 / eps);
    let parameters = |h: &Hybrid, j: usize, t: usize| {
        let (n, _, sum) = h.sum(j);
        let o = n as f64;
        let lt = (t as f64).ln();
        let v = sum / o + 6.0 * (8.0 * (o + 1.0).ln() * lt).sqrt() / (eps * o);
        let clip = v.clamp(0.0, 1.0);
        (clip * o + 1.0, (1.0 - clip) * o + 1.0)
    };
    let mut stored = vec![(1.0, 1.0); k];
    let mut pulls = Vec::new();
    for t in 1..=horizon {
        let jt = if t <= k {
            t - 1
        } else {
            let theta: Vec<f64> = (0..k)
                .map(|j| {
                    let (a, b) = if frozen {
                        stored[j]
                    } else {
                        parameters(&h, j, t)
                    };
                    beta(a, b, rng)
                })
                .collect();
            first_max(&theta)
        };
        h.push(x, jt, rng);
        stored[jt] = parameters(&h, jt, t);
        pulls.push(jt);
    }
    pulls
}

/// DP-UCB as quoted in src/bandit/policy/dp_ucb.rs (Mishra & Thakurta's
/// Algorithm 1): arm `j`'s private sum after `n` pulls is the sum of the
/// noisy dyadic blocks of `n`'s binary expansion, each block's noise drawn
/// when its last reward arrives, `Lap(L/ε)` with `L = ⌈log₂ T⌉`.
fn reference_dp_ucb(x: &[Vec<f64>], eps: f64, horizon: usize, rng: &mut NoiseRng) -> Vec<usize> {
    let k = x.len();
    let depth = (horizon as f64).log2().ceil().max(1.0);
    let b = depth / eps;
    let (kf, t) = (k as f64, horizon as f64);
    let gamma = kf * t.ln().powi(2) * (kf * t * t.ln() / 0.1).ln() / eps;
    // noise[j][m]: the noise of the block ending at arm j's m-th reward.
    let mut noise: Vec<Vec<f64>> = vec![Vec::new(); k];
    let mut pulls = Vec::new();
    let private_sum = |j: usize, n: usize, noise: &[Vec<f64>]| {
        let (mut sum, mut start) = (0.0, 0);
        for level in (0..usize::BITS).rev().filter(|l| n >> l & 1 == 1) {
            let end = start + (1 << level);
            sum += x[j][start..end].iter().sum::<f64>() + noise[j][end - 1];
            start = end;
        }
        sum
    };
    for t in 1..=horizon {
        let jt = if t <= k {
            t - 1
        } else {
            let plays = ((t - 1) as f64).ln();
            let idx: Vec<f64> = (0..k)
                .map(|j| {
                    let n = noise[j].len() as f64;
                    private_sum(j, noise[j].len(), &noise) / n
                        + (2.0 * plays / n).sqrt()
                        + gamma / n
                })
                .collect();
            first_max(&idx)
        };
        noise[jt].push(lap(b, rng));
        pulls.push(jt);
    }
    pulls
}

/// DP-UCB-Bound as quoted in src/bandit/policy/dp_ucb_bound.rs (Tossou &
/// Dimitrakakis's Algorithm 1): each arm's Hybrid mechanism kept as its
/// observations and the noises of its releases — an array block's
/// `Lap(2/ε)` when the count reaches a power of two, otherwise the noise
/// of the dyadic block of the tree the observation completes, `Lap(m·2/ε)`
/// — and the private sum assembled from them.
fn reference_dp_ucb_bound(
    x: &[Vec<f64>],
    eps: f64,
    horizon: usize,
    rng: &mut NoiseRng,
) -> Vec<usize> {
    let k = x.len();
    let b = 2.0 / eps;
    // noise[j][n − 1]: the noise drawn at arm j's n-th observation.
    let mut noise: Vec<Vec<f64>> = vec![Vec::new(); k];
    let private_sum = |j: usize, n: usize, noise: &[Vec<f64>]| {
        let m = n.ilog2();
        let start = 1usize << m;
        // The array blocks 1, 2, 3–4, …, 2^{m−1}+1–2^m, released at 2^0..2^m.
        let arrays: f64 = x[j][..start].iter().sum::<f64>()
            + (0..=m).map(|l| noise[j][(1 << l) - 1]).sum::<f64>();
        // The tree over start+1..n: the dyadic blocks of the binary digits of n − start.
        let leaves = n - start;
        let (mut tree, mut from) = (0.0, start);
        for level in (0..usize::BITS).rev().filter(|l| leaves >> l & 1 == 1) {
            let end = from + (1 << level);
            tree += x[j][from..end].iter().sum::<f64>() + noise[j][end - 1];
            from = end;
        }
        arrays + tree
    };
    let mut pulls = Vec::new();
    for t in 1..=horizon {
        let jt = if t <= k {
            t - 1
        } else {
            let plays = (t - 1) as f64;
            let idx: Vec<f64> = (0..k)
                .map(|j| {
                    let n = noise[j].len();
                    let nf = n as f64;
                    let mut nu = 8f64.sqrt() * (4.0 * plays.powi(4)).ln() / eps;
                    if !n.is_power_of_two() {
                        nu *= nf.ln() + 1.0;
                    }
                    private_sum(j, n, &noise) / nf + (2.0 * plays.ln() / nf).sqrt() + nu / nf
                })
                .collect();
            first_max(&idx)
        };
        let n = noise[jt].len() + 1;
        let scale = if n.is_power_of_two() {
            b
        } else {
            f64::from(n.ilog2()) * b
        };
        noise[jt].push(lap(scale, rng));
        pulls.push(jt);
    }
    pulls
}

/// DP-UCB-INT as quoted in src/bandit/policy/dp_ucb_int.rs (Tossou &
/// Dimitrakakis's Algorithm 3): round-robin for the first `K⌈1/ε⌉` rounds,
/// then every arm whose count is a multiple of `f = ⌈1/ε⌉` gets a fresh index
/// `mean + Lap(n^{v/2 − 1}) + √(2 ln t/n)`, `v = 1.1`, and the largest index
/// is pulled.
fn reference_dp_ucb_int(
    x: &[Vec<f64>],
    eps: f64,
    horizon: usize,
    rng: &mut NoiseRng,
) -> Vec<usize> {
    let k = x.len();
    let f = (1.0 / eps).ceil() as usize;
    let mut seen: Vec<Vec<f64>> = vec![Vec::new(); k];
    let mut index = vec![0.0; k];
    let mut pulls = Vec::new();
    for t in 1..=horizon {
        let jt = if t <= k * f {
            (t - 1) % k
        } else {
            for j in 0..k {
                let n = seen[j].len();
                if n % f == 0 {
                    let nf = n as f64;
                    let mean = seen[j].iter().sum::<f64>() / nf;
                    index[j] = mean
                        + lap(nf.powf(1.1 / 2.0 - 1.0), rng)
                        + (2.0 * (t as f64).ln() / nf).sqrt();
                }
            }
            first_max(&index)
        };
        let reward = x[jt][seen[jt].len()];
        seen[jt].push(reward);
        pulls.push(jt);
    }
    pulls
}

fn check(id: BanditId, eps: f64, horizon: usize, seeds: std::ops::Range<u64>) {
    check_config(&BanditConfig::new(id, eps), horizon, seeds);
}

fn check_config(config: &BanditConfig, horizon: usize, seeds: std::ops::Range<u64>) {
    let (id, eps) = (config.id, config.epsilon);
    for seed in seeds {
        let x = table(seed, horizon + 1);
        let mut rng = NoiseRng::seed_from_u64(seed + 1000);
        let reference = match id {
            BanditId::AnytimeLazyUcb => reference_anytime_lazy_ucb(&x, eps, horizon, &mut rng),
            BanditId::LazyDpTs => reference_lazy_dp_ts(&x, eps, horizon, &mut rng),
            BanditId::DpTs => {
                let frozen = config.bonus_round == BonusRound::LastUpdate;
                reference_dp_ts(&x, eps, horizon, frozen, &mut rng)
            }
            BanditId::Thompson => reference_thompson(&x, horizon, &mut rng),
            BanditId::Ucb1 => reference_ucb1(&x, horizon),
            BanditId::DpSe => reference_dp_se(&x, eps, horizon, &mut rng),
            BanditId::HybridUcb => reference_hybrid_ucb(&x, eps, horizon, &mut rng),
            BanditId::DpUcb => reference_dp_ucb(&x, eps, horizon, &mut rng),
            BanditId::DpUcbBound => reference_dp_ucb_bound(&x, eps, horizon, &mut rng),
            BanditId::DpUcbInt => reference_dp_ucb_int(&x, eps, horizon, &mut rng),
            BanditId::AdapKlucb => reference_adap_klucb(&x, eps, horizon, &mut rng),
        };
        let ours = engine(config, x, horizon as u64, seed + 1000);
        assert_same(id.name(), seed, &ours, &regret_of(&reference));
    }
}

#[test]
fn anytime_lazy_ucb_in_runs_matches_the_pseudo_code_stepped_round_by_round() {
    // Runs of rounds (lazy_run's bisection) against line-4 argmax every round.
    check(BanditId::AnytimeLazyUcb, 0.5, 20_000, 0..6);
    check(BanditId::AnytimeLazyUcb, 4.0, 20_000, 6..10);
}

#[test]
fn lazy_dp_ts_matches_the_pseudo_code() {
    check(BanditId::LazyDpTs, 0.5, 5_000, 0..4);
    check(BanditId::LazyDpTs, 8.0, 5_000, 4..6);
}

#[test]
fn dp_ts_matches_its_inferred_definition() {
    // Small ε: the bonus keeps μ̄ clipped at 1 for long; large ε: the noisy
    // means and the Beta draws decide.
    check(BanditId::DpTs, 0.5, 5_000, 0..3);
    check(BanditId::DpTs, 50.0, 5_000, 3..6);
}

#[test]
fn dp_ts_with_the_bonus_frozen_at_the_last_update_matches_its_reference() {
    for (eps, seeds) in [(0.5, 0..3), (50.0, 3..6)] {
        let config = BanditConfig {
            bonus_round: BonusRound::LastUpdate,
            ..BanditConfig::new(BanditId::DpTs, eps)
        };
        check_config(&config, 5_000, seeds);
    }
}

#[test]
fn the_two_dp_ts_readings_pull_differently() {
    // The replays above would pass if the flag were ignored and both
    // references agreed: they do not, on the same seeds.
    let x = table(3, 5_001);
    let pulls =
        |frozen| reference_dp_ts(&x, 50.0, 5_000, frozen, &mut NoiseRng::seed_from_u64(1003));
    assert_ne!(pulls(false), pulls(true));
}

#[test]
fn thompson_matches_the_pseudo_code() {
    check(BanditId::Thompson, 1.0, 5_000, 0..4);
}

#[test]
fn ucb1_matches_auer_et_al() {
    check(BanditId::Ucb1, 1.0, 5_000, 0..4);
}

#[test]
fn dp_se_matches_its_definition() {
    check(BanditId::DpSe, 1.0, 200_000, 0..3);
}

#[test]
fn dp_ucb_matches_mishra_and_thakurta() {
    check(BanditId::DpUcb, 1.0, 5_000, 0..4);
    check(BanditId::DpUcb, 8.0, 5_000, 4..6);
}

#[test]
fn dp_ucb_bound_matches_tossou_and_dimitrakakis() {
    check(BanditId::DpUcbBound, 1.0, 5_000, 0..4);
    check(BanditId::DpUcbBound, 50.0, 5_000, 4..6);
}

#[test]
fn dp_ucb_int_matches_tossou_and_dimitrakakis() {
    check(BanditId::DpUcbInt, 1.0, 5_000, 0..4);
    check(BanditId::DpUcbInt, 0.1, 5_000, 4..6);
}

#[test]
fn adap_klucb_matches_azize_and_basu() {
    check(BanditId::AdapKlucb, 0.5, 100_000, 0..4);
    check(BanditId::AdapKlucb, 8.0, 100_000, 4..6);
}

#[test]
fn hybrid_ucb_matches_its_inferred_definition() {
    check(BanditId::HybridUcb, 1.0, 5_000, 0..3);
    check(BanditId::HybridUcb, 16.0, 5_000, 3..5);
}

/// Chi-square of `n` draws against 20 cells of equal probability under `cdf`
/// (cut points by bisection on the distribution function).
fn gof(draw: &mut dyn FnMut() -> f64, cdf: &dyn Fn(f64) -> f64, lo: f64, hi: f64, n: usize) -> f64 {
    let cells = 20;
    let cuts: Vec<f64> = (1..cells)
        .map(|i| {
            let target = i as f64 / cells as f64;
            let (mut a, mut b) = (lo, hi);
            for _ in 0..200 {
                let mid = 0.5 * (a + b);
                if cdf(mid) < target {
                    a = mid;
                } else {
                    b = mid;
                }
            }
            0.5 * (a + b)
        })
        .collect();
    let mut observed = vec![0u64; cells];
    for _ in 0..n {
        let v = draw();
        observed[cuts.partition_point(|c| *c < v)] += 1;
    }
    let expected: Vec<f64> = (0..cells)
        .map(|i| {
            let left = if i == 0 { 0.0 } else { cdf(cuts[i - 1]) };
            let right = if i + 1 == cells { 1.0 } else { cdf(cuts[i]) };
            right - left
        })
        .collect();
    chi_square_p_value(&observed, &expected)
}

#[test]
fn laplace_draws_fit_the_laplace_law() {
    for (seed, scale) in [(11u64, 4.0), (12, 0.25)] {
        let mut rng = NoiseRng::seed_from_u64(seed);
        let law = LaplaceLaw::new(0.0, scale).unwrap();
        let p = gof(
            &mut || dpdtol::bandit::policy::laplace(scale, &mut rng),
            &|x| law.cdf(x),
            -200.0 * scale,
            200.0 * scale,
            40_000,
        );
        assert!(
            p > 1e-6,
            "Laplace({scale}), seed {seed}: chi-square p = {p}"
        );
    }
}

#[test]
fn beta_draws_fit_the_beta_law() {
    // Both branches: b = 1 (inverse distribution function) and two Gammas,
    // with the parameters Algorithms 2 and 3 produce (≥ 1, possibly large).
    for (seed, a, b) in [
        (21u64, 1.0, 1.0),
        (22, 5.0, 1.0),
        (23, 3.5, 7.25),
        (24, 700.3, 325.7),
        (25, 1.0, 33.0),
    ] {
        let mut rng = NoiseRng::seed_from_u64(seed);
        let law = BetaLaw::new(a, b).unwrap();
        let p = gof(
            &mut || beta(a, b, &mut rng),
            &|x| law.cdf(x),
            0.0,
            1.0,
            40_000,
        );
        assert!(p > 1e-6, "Beta({a}, {b}), seed {seed}: chi-square p = {p}");
    }
}

#[test]
fn every_run_replays_alone_and_results_do_not_depend_on_threads() {
    let law = RewardLaw::bernoulli(vec![0.5, 0.4, 0.4, 0.3]).unwrap();
    let configs: Vec<BanditConfig> = BanditId::ALL
        .iter()
        .map(|&id| BanditConfig::new(id, 0.5))
        .collect();
    let marks = dpdtol::bandit::policy::sim::checkpoints(20_000, 5);
    let run_with = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| simulate(&configs, &law, 20_000, 5, 9, &marks, &|| ()).unwrap())
    };
    let one = run_with(1);
    assert_eq!(one, run_with(2));
    for (c, config) in configs.iter().enumerate() {
        let alone = simulate_run(config, &law, 20_000, &marks, 9, 3).unwrap();
        assert_eq!(alone, one[c][3], "{}", config.id);
        if config.id == BanditId::Thompson {
            // Different runs are different draws.
            assert_ne!(one[c][0], one[c][1]);
        }
    }
}

#[test]
fn json_is_byte_identical_with_one_and_two_threads() {
    let args = |threads: &'static str| {
        vec![
            "bandit",
            "--algorithm",
            "anytime-lazy-ucb,lazy-dp-ts,hybrid-ucb,dp-se,ucb1,thompson",
            "--means",
            "0.75,0.625,0.5,0.375,0.25",
            "--epsilon",
            "1/4,1",
            "--horizon",
            "10^4",
            "--runs",
            "6",
            "--seed",
            "5",
            "--threads",
            threads,
            "--json",
        ]
    };
    let one = dpdtol(&args("1"));
    let two = dpdtol(&args("2"));
    assert!(
        one.status.success(),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
    assert!(!one.stdout.is_empty());
    assert_eq!(one.stdout, two.stdout);
    let v: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    assert_eq!(v["kind"], "approximate");
    assert_eq!(v["results"].as_array().unwrap().len(), 4 * 2 + 2);
}

#[test]
fn bad_input_gets_one_line_and_status_2() {
    for bad in [
        &[
            "bandit",
            "--algorithm",
            "ucb1",
            "--means",
            "0.5,1.5",
            "--horizon",
            "100",
            "--runs",
            "2",
        ][..],
        &[
            "bandit",
            "--algorithm",
            "ucb1",
            "--means",
            "0.5",
            "--horizon",
            "100",
            "--runs",
            "2",
        ],
        &[
            "bandit",
            "--algorithm",
            "ucb1",
            "--means",
            "0.5,0.4,0.3",
            "--horizon",
            "2",
            "--runs",
            "2",
        ],
        &[
            "bandit",
            "--algorithm",
            "ucb2",
            "--means",
            "0.5,0.4",
            "--horizon",
            "100",
            "--runs",
            "2",
        ],
        &[
            "bandit",
            "--algorithm",
            "dp-se",
            "--means",
            "0.5,0.4",
            "--epsilon",
            "-1",
            "--horizon",
            "100",
        ],
        &["bandit", "--experiment", "hu-fig9"],
        &["bandit", "--experiment", "hu-fig1", "--runs", "100000"],
        // An output file that cannot be written is refused before the work.
        &[
            "bandit",
            "--experiment",
            "hu-fig1",
            "--csv",
            "/nonexistent-dir/x.csv",
        ],
        &["bandit", "--experiment", "hu-fig1", "--plot", "/tmp/x.pdf"],
    ] {
        let out = dpdtol(bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{bad:?}: {err}");
        assert!(out.stdout.is_empty(), "{bad:?}");
    }
}

/// 004 Theorem 3's explicit bound, summed term by term as the proof writes
/// it ((24), (26), (28): one term per s, t and τ), against the library's
/// prefix-table evaluation.
#[test]
fn theorem_3_bound_matches_the_proof_summed_term_by_term() {
    let means = [0.9, 0.5, 0.2, 0.9];
    for (eps, horizon) in [(1.0, 3000u64), (0.25, 20_000), (4.0, 50_000)] {
        let mut direct = 0.0;
        for m in means {
            let gap: f64 = 0.9 - m;
            if gap <= 0.0 {
                continue;
            }
            let omega = |d: i64| 2f64.powi(d as i32 + 1) - 1.0;
            // d_j = ⌈log₂(24 ln T/(Δ min{Δ, ε}))⌉, smallest d with 2^d ≥ the ratio.
            let ratio = 24.0 * (horizon as f64).ln() / (gap * gap.min(eps));
            let mut d = 0i64;
            while 2f64.powi(d as i32) < ratio {
                d += 1;
            }
            let mut pulls = omega(d + 1);
            let mut s = d + 1;
            while 2f64.powi(s as i32) <= horizon as f64 {
                let mut inner = 0.0;
                let from = omega(s - 1) as u64;
                for t in from + 1..=horizon {
                    let mut tau = 0;
                    while 2f64.powi(tau) <= (t - 1) as f64 {
                        let tf = t as f64;
                        inner += 2.0 * (1.0 / (tf * tf * tf) + 2.0 / tf.powi(6));
                        tau += 1;
                    }
                }
                pulls += omega(s + 1) * inner;
                s += 1;
            }
            direct += gap * pulls;
        }
        let ours =
            dpdtol::bandit::policy::bounds::anytime_lazy_ucb_bound(&means, eps, &[horizon])[0];
        assert!(
            (ours - direct).abs() <= 1e-9 * direct,
            "ε = {eps}, T = {horizon}: {ours} vs {direct}"
        );
    }
}

/// The engine's reward sums: `n` pulls at once against the exact law of a sum
/// of `n` i.i.d. rewards (a convolution, computed here), for a Bernoulli arm
/// (a Binomial draw) and a three-letter alphabet (successive binomials).
#[test]
fn reward_sums_fit_the_convolution_of_the_arm_law() {
    use dpdtol::bandit::policy::sim::{Rewards, Sampled};
    let laws = [
        (31u64, RewardLaw::Bernoulli(vec![0.3, 0.8])),
        (
            32,
            RewardLaw::Finite {
                values: vec![0.0, 0.5, 1.0],
                probs: vec![vec![0.2, 0.5, 0.3], vec![0.6, 0.1, 0.3]],
            },
        ),
    ];
    for (seed, law) in laws {
        law.validate().unwrap();
        // Rewards on the grid of halves: law of one reward in units of 1/2.
        let unit: Vec<Vec<f64>> = match &law {
            RewardLaw::Bernoulli(m) => m.iter().map(|p| vec![1.0 - p, 0.0, *p]).collect(),
            RewardLaw::Finite { probs, .. } => probs.clone(),
        };
        for (arm, one) in unit.iter().enumerate() {
            for n in [1u64, 7, 40] {
                let mut exact = vec![1.0];
                for _ in 0..n {
                    let mut next = vec![0.0; exact.len() + 2];
                    for (i, p) in exact.iter().enumerate() {
                        for (v, q) in one.iter().enumerate() {
                            next[i + v] += p * q;
                        }
                    }
                    exact = next;
                }
                let mut rewards = Sampled::new(&law, NoiseRng::seed_from_u64(seed + n));
                let mut observed = vec![0u64; exact.len()];
                for _ in 0..20_000 {
                    let halves = (2.0 * rewards.sum(arm, n)).round() as usize;
                    observed[halves] += 1;
                }
                let p = chi_square_p_value(&observed, &exact);
                assert!(
                    p > 1e-6,
                    "{law:?} arm {arm}, n = {n}, seed {}: chi-square p = {p}",
                    seed + n
                );
            }
        }
    }
}
