//! The binary mechanism, a continual-release counter: Chan, Shi & Song,
//! *Private and Continual Release of Statistics* (ICALP 2010; TISSEC 2011),
//! §3.4, Algorithm 2 ("Binary Mechanism B"); the tree-based aggregation of
//! Dwork, Naor, Pitassi & Rothblum (STOC 2010) is the same idea.
//!
//! The stream `x_1, x_2, …` is cut into **nodes** (p-sums): node
//! `(level ℓ, index i)`, `i ≥ 1`, sums the `2^ℓ` items
//! `x_{(i−1)2^ℓ+1} … x_{i·2^ℓ}`, and is released with one Laplace noise when
//! its last item arrives. The item `n` completes exactly one node, of level
//! `ℓ = ν₂(n)` (the number of trailing zero bits of `n`), which replaces the
//! lower-level nodes it covers. The noisy prefix sum after `n` items reads
//! one node per binary digit of `n`:
//!
//! ```text
//! n = Σ_k 2^{ℓ_k} (ℓ_1 > ℓ_2 > …):  Ŝ(n) = Σ_k α̂(ℓ_k, ⌊n/2^{ℓ_k}⌋),
//! α̂ = α + Lap(b),  b = L/ε,  L = the tree's depth (levels)
//! ```
//!
//! An item lies in one node per level, so a tree of `L` levels
//! (`n < 2^L` items) makes the released prefix sums `ε`-DP for items in
//! `[0, 1]` with per-node scale `L/ε` (Chan et al., Theorem 3.5, their
//! `ε' = ε/log T` with `L = ⌈log₂ T⌉`).
//!
//! The noise inside `Ŝ(n)` is `W(n) = W(n − lowbit(n)) + Z(n)`, `Z(n)` the
//! noise of the node item `n` completes ([`BinaryTree::parent`]): a tree of
//! increments, so an event "these comparisons of prefix sums" is a
//! polyhedron in the node noises (`crate::bandit::law::dp_ucb`).

use crate::error::{Error, Result};
use crate::num::Q;
use rand::Rng;

/// One node (p-sum) of the binary mechanism: the `2^level` items
/// `(index − 1)·2^level + 1 ..= index·2^level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Node {
    /// `ℓ`, the node sums `2^ℓ` items.
    pub level: u32,
    /// `i ≥ 1`, its position among the nodes of its level.
    pub index: u64,
}

/// The shape of a binary mechanism: its depth `L` (levels `0..L`), which
/// bounds the items it counts (`n < 2^L`) and sets the Laplace scale of a
/// node, `L/ε`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BinaryTree {
    /// `L`, the number of levels.
    pub depth: u32,
}

impl BinaryTree {
    /// A tree of `depth` levels, `1 ≤ depth ≤ 63`.
    pub fn new(depth: u32) -> Result<BinaryTree> {
        if !(1..=63).contains(&depth) {
            return Err(Error::InvalidInput(format!(
                "the tree depth must lie in 1..=63, got {depth}"
            )));
        }
        Ok(BinaryTree { depth })
    }

    /// The depth that counts `items` items: `⌈log₂(items + 1)⌉` (at least 1).
    /// For one arm of a K-armed bandit over `T` rounds (`items = T − K + 1`
    /// at most) at K = 2 this is `⌈log₂ T⌉`, Chan et al.'s `log T`.
    pub fn for_items(items: u64) -> BinaryTree {
        BinaryTree {
            depth: (u64::BITS - items.leading_zeros()).clamp(1, 63),
        }
    }

    /// The most items the tree counts, `2^L − 1`.
    pub fn capacity(self) -> u64 {
        (1u64 << self.depth) - 1
    }

    /// The node item `n ≥ 1` completes: level `ν₂(n)`, index `n/2^{ν₂(n)}`.
    pub fn completed(n: u64) -> Node {
        let level = n.trailing_zeros();
        Node {
            level,
            index: n >> level,
        }
    }

    /// The nodes the prefix sum after `n` items reads, one per binary
    /// digit of `n`, highest level first (none for `n = 0`).
    pub fn read(n: u64) -> Vec<Node> {
        (0..u64::BITS)
            .rev()
            .filter(|&l| n >> l & 1 == 1)
            .map(|level| Node {
                level,
                index: n >> level,
            })
            .collect()
    }

    /// `n − lowbit(n)`: the prefix whose nodes `Ŝ(n)` reads besides the one
    /// item `n` completes; `None` when that prefix is empty (`n` a power of
    /// two, or 0).
    pub fn parent(n: u64) -> Option<u64> {
        let p = n & n.wrapping_sub(1);
        (p > 0).then_some(p)
    }

    /// The Laplace scale of a node at ε: `L/ε`.
    pub fn node_scale(self, epsilon: &Q) -> Q {
        Q::from_integer(self.depth.into()) / epsilon
    }
}

/// A running binary mechanism in f64 (simulation): the true and noisy
/// p-sums `α_ℓ`, `α̂_ℓ` of the nodes the next prefix sum may read, one per
/// level (Chan et al., Algorithm 2, lines 4–8).
#[derive(Clone, Debug, Default)]
pub struct BinaryCounter {
    /// Items counted so far.
    pub items: u64,
    alpha: Vec<f64>,
    alpha_hat: Vec<f64>,
}

impl BinaryCounter {
    /// An empty counter.
    pub fn new() -> BinaryCounter {
        BinaryCounter::default()
    }

    /// Count the item `x`: the node it completes gets its true p-sum and a
    /// fresh `Lap(scale)` (drawn by `laplace`), the lower nodes it covers
    /// are dropped.
    pub fn insert<R: Rng + ?Sized>(&mut self, x: f64, scale: f64, rng: &mut R) {
        self.items += 1;
        let level = self.items.trailing_zeros() as usize;
        if self.alpha.len() <= level {
            self.alpha.resize(level + 1, 0.0);
            self.alpha_hat.resize(level + 1, 0.0);
        }
        let mut alpha = x;
        for k in 0..level {
            alpha += self.alpha[k];
            self.alpha[k] = 0.0;
            self.alpha_hat[k] = 0.0;
        }
        self.alpha[level] = alpha;
        self.alpha_hat[level] = alpha + super::sampler::noise(super::Noise::Laplace, scale, rng);
    }

    /// The noisy prefix sum `Ŝ(items)`: the noisy p-sums of the binary
    /// digits of `items`.
    pub fn noisy_sum(&self) -> f64 {
        (0..self.alpha_hat.len())
            .filter(|&k| self.items >> k & 1 == 1)
            .map(|k| self.alpha_hat[k])
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn nodes_read_partition_the_prefix() {
        // The nodes Ŝ(n) reads cover 1..=n exactly once, and the last is the
        // node n completes; the parent's nodes are the others.
        for n in 1..200u64 {
            let nodes = BinaryTree::read(n);
            let mut next = 1;
            for node in &nodes {
                assert_eq!((node.index - 1) << node.level, next - 1, "n = {n}");
                next += 1 << node.level;
            }
            assert_eq!(next, n + 1);
            assert_eq!(*nodes.last().unwrap(), BinaryTree::completed(n));
            let parent = BinaryTree::parent(n).map_or(vec![], BinaryTree::read);
            assert_eq!(parent, nodes[..nodes.len() - 1]);
        }
    }

    #[test]
    fn depth_and_scale() {
        // ⌈log₂ T⌉ = ⌊log₂(T − 1)⌋ + 1 items-depth at K = 2 (T − 1 items).
        for (t, depth) in [
            (2u64, 1),
            (3, 2),
            (4, 2),
            (5, 3),
            (8, 3),
            (9, 4),
            (1024, 10),
        ] {
            assert_eq!(BinaryTree::for_items(t - 1).depth, depth, "T = {t}");
        }
        let tree = BinaryTree::new(3).unwrap();
        assert_eq!(tree.capacity(), 7);
        assert_eq!(
            tree.node_scale(&Q::new(1.into(), 2.into())),
            Q::from_integer(6.into())
        );
        assert!(BinaryTree::new(0).is_err());
    }

    #[test]
    fn counter_sums_and_noise_covariances() {
        // Without noise the counter is the running sum. With Lap(1) nodes
        // (variance 2) the noise W(n) of Ŝ(n) has variance 2·popcount(n), and
        // Cov(W(m), W(n)) = 2·|nodes read by both| (W(5) and W(6) share the
        // node (2, 1), W(6) and W(7) the nodes (2, 1) and (1, 3)).
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut exact = BinaryCounter::new();
        let mut sum = 0.0;
        for n in 1..100u64 {
            let x = (n % 3) as f64 / 2.0;
            sum += x;
            exact.insert(x, 0.0, &mut rng);
            assert!((exact.noisy_sum() - sum).abs() < 1e-9);
        }
        let runs = 40_000;
        let mut w = vec![[0.0f64; 9]; runs];
        for row in w.iter_mut() {
            let mut c = BinaryCounter::new();
            for slot in row.iter_mut().skip(1) {
                c.insert(0.0, 1.0, &mut rng);
                *slot = c.noisy_sum();
            }
        }
        let cov = |a: usize, b: usize| w.iter().map(|r| r[a] * r[b]).sum::<f64>() / runs as f64;
        let shared = |a: u64, b: u64| {
            let nodes = BinaryTree::read(b);
            BinaryTree::read(a)
                .iter()
                .filter(|n| nodes.contains(n))
                .count() as f64
        };
        for (a, b) in [(7, 7), (8, 8), (5, 6), (6, 7), (3, 4), (4, 5), (1, 2)] {
            let expected = 2.0 * shared(a as u64, b as u64);
            // Standard error of a (co)variance of Laplace sums: below 0.12 here.
            assert!(
                (cov(a, b) - expected).abs() < 0.5,
                "Cov(W({a}), W({b})) = {} against {expected} (seed 7, {runs} runs)",
                cov(a, b)
            );
        }
    }
}
