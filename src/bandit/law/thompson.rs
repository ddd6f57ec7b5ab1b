//! The law of Thompson sampling's pull sequence with Beta priors for
//! Bernoulli bandits (Agrawal & Goyal, *Analysis of Thompson sampling for
//! the multi-armed bandit problem*, COLT 2012, arXiv:1111.1797, Algorithm 1;
//! restated by Hu, Huang, Mehta & Hegde as Algorithm 2, 004 L180–L186) on a
//! reward table of 0s and 1s, exact.
//!
//! Arm `j` with `s_j` rewards 1 and `f_j` rewards 0 draws
//! `θ_j ~ Beta(s_j + 1, f_j + 1)`, independently of the other arms, and the
//! round pulls `argmax_j θ_j` (ties have probability 0). So round `t` pulls
//! `a` with probability
//!
//! ```text
//! P(J_t = a) = ∫₀¹ f_a(x) · Π_{j≠a} F_j(x) dx,
//! f_a(x) = n_a·C(n_a − 1, s_a) · x^{s_a} (1 − x)^{f_a},            n_a = s_a + f_a + 1,
//! F_j(x) = P(Beta(s_j + 1, f_j + 1) ≤ x) = P(Bin(n_j, x) ≥ s_j + 1)
//!        = Σ_{i = s_j+1}^{n_j} C(n_j, i) x^i (1 − x)^{n_j − i},
//! ```
//!
//! the Beta density with integer parameters and its distribution function,
//! the binomial tail (the order-statistic identity). The integrand is a
//! polynomial with integer coefficients, integrated term by term
//! (`∫₀¹ x^m dx = 1/(m + 1)`): every pull probability is rational, and the
//! probability of a pull sequence is their product over the rounds, given
//! the rewards the pulls saw. The pull probabilities depend on the records
//! `(s_j, f_j)` only, and are computed once per record.
//!
//! The printed update adds the reward to the arm's sum (`μ̂·O`); on a reward
//! other than 0 and 1 the parameters are not integers, and the comparison of
//! two Beta draws is an incomplete-beta integral with no closed form: such a
//! table is refused.

use crate::error::{Error, Result};
use crate::num::Q;
use crate::progress::Progress;
use num_bigint::BigInt;
use num_traits::{One, Zero};
use std::collections::HashMap;

/// An arm's record: the rewards 1 (`successes`) and 0 (`failures`) it has
/// seen; its draw is `Beta(successes + 1, failures + 1)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Record {
    /// `s_j`, the rewards 1.
    pub successes: u32,
    /// `f_j`, the rewards 0.
    pub failures: u32,
}

/// A polynomial in `x` with integer coefficients, of `x^0, x^1, …`.
type Poly = Vec<BigInt>;

/// The product of two polynomials.
fn product(a: &[BigInt], b: &[BigInt]) -> Poly {
    let mut out = vec![BigInt::zero(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        if x.is_zero() {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

/// `C(n, i)` for `i = 0..=n`.
fn binomials(n: u32) -> Vec<BigInt> {
    let mut row = vec![BigInt::one()];
    for i in 0..n {
        let next = row[i as usize].clone() * (n - i) / (i + 1);
        row.push(next);
    }
    row
}

/// `c · x^p (1 − x)^q`, added into `out`.
fn add_term(out: &mut Poly, c: &BigInt, p: u32, q: u32) {
    for (k, binomial) in binomials(q).into_iter().enumerate() {
        let term = c * binomial;
        if k % 2 == 0 {
            out[p as usize + k] += term;
        } else {
            out[p as usize + k] -= term;
        }
    }
}

/// The density of `Beta(s + 1, f + 1)`: `n·C(n − 1, s) x^s (1 − x)^f`,
/// `n = s + f + 1`.
fn density(r: Record) -> Poly {
    let n = r.successes + r.failures + 1;
    let mut out = vec![BigInt::zero(); n as usize];
    let c = BigInt::from(n) * &binomials(n - 1)[r.successes as usize];
    add_term(&mut out, &c, r.successes, r.failures);
    out
}

/// The distribution function of `Beta(s + 1, f + 1)`:
/// `Σ_{i=s+1}^{n} C(n, i) x^i (1 − x)^{n−i}`, `n = s + f + 1`.
fn distribution(r: Record) -> Poly {
    let n = r.successes + r.failures + 1;
    let mut out = vec![BigInt::zero(); n as usize + 1];
    let c = binomials(n);
    for i in r.successes + 1..=n {
        add_term(&mut out, &c[i as usize], i, n - i);
    }
    out
}

/// `∫₀¹ p(x) dx = Σ_m c_m/(m + 1)`.
fn integral(p: &[BigInt]) -> Q {
    p.iter()
        .enumerate()
        .map(|(m, c)| Q::new(c.clone(), BigInt::from(m + 1)))
        .fold(Q::zero(), |sum, term| sum + term)
}

/// `P(J = a)` for each arm `a`, when the arms' records are `records`: the
/// probability that `a`'s Beta draw is the largest.
pub fn pull_probabilities(records: &[Record]) -> Vec<Q> {
    let distributions: Vec<Poly> = records.iter().map(|&r| distribution(r)).collect();
    (0..records.len())
        .map(|a| {
            let integrand = distributions
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != a)
                .fold(density(records[a]), |p, (_, d)| product(&p, d));
            integral(&integrand)
        })
        .collect()
}

/// An error unless every reward of `rewards` is 0 or 1, naming the first
/// that is not.
pub fn check_bernoulli(rewards: &[Vec<Q>]) -> Result<()> {
    for (t, row) in rewards.iter().enumerate() {
        if let Some((a, x)) = row
            .iter()
            .enumerate()
            .find(|(_, x)| !x.is_zero() && !x.is_one())
        {
            return Err(Error::InvalidInput(format!(
                "thompson's law is exact on rewards 0 and 1 (its Beta parameters are then integers; on others the comparison of two draws is an incomplete-beta integral with no closed form): round {}, arm {} has {x}",
                t + 1,
                a + 1
            )));
        }
    }
    Ok(())
}

/// A branch of the law: the pulls so far, the arms' records, and the
/// probability of the pulls.
struct Branch {
    pulls: Vec<usize>,
    records: Vec<Record>,
    probability: Q,
}

/// The law of the pull sequence on `rewards` (`rewards[t][j]`: round `t`'s
/// reward of arm `j`, each 0 or 1): every one of the `K^T` pull sequences,
/// in lexicographic order, with its probability. Refused over
/// `max_sequences` sequences unless `force`.
pub fn law(rewards: &[Vec<Q>], max_sequences: u64, force: bool) -> Result<Vec<(Vec<usize>, Q)>> {
    counted_law(rewards, max_sequences, force, &Progress::default())
}

/// [`law`], each round counted on `progress`.
pub(crate) fn counted_law(
    rewards: &[Vec<Q>],
    max_sequences: u64,
    force: bool,
    progress: &Progress,
) -> Result<Vec<(Vec<usize>, Q)>> {
    check_bernoulli(rewards)?;
    let (horizon, arms) = (rewards.len(), rewards.first().map_or(0, Vec::len));
    let count = u32::try_from(horizon)
        .ok()
        .and_then(|t| (arms as u128).checked_pow(t));
    crate::size::work(
        &format!(
            "thompson's law on T = {horizon} rounds of K = {arms} arms: its pull sequences, K^T"
        ),
        count,
        max_sequences.into(),
        force,
    )?;
    crate::size::table(
        "thompson's law: its pull sequences, T + 8 words each",
        count.and_then(|c| c.checked_mul(horizon as u128 + 8)),
        8,
    )?;
    progress.start(horizon as u64);
    let mut known: HashMap<Vec<Record>, Vec<Q>> = HashMap::new();
    let mut tree = vec![Branch {
        pulls: Vec::new(),
        records: vec![Record::default(); arms],
        probability: Q::one(),
    }];
    for row in rewards {
        let mut next = Vec::with_capacity(tree.len() * arms);
        for branch in tree {
            let pulls = known
                .entry(branch.records.clone())
                .or_insert_with(|| pull_probabilities(&branch.records));
            for (a, p) in pulls.iter().enumerate() {
                let mut records = branch.records.clone();
                if row[a].is_one() {
                    records[a].successes += 1;
                } else {
                    records[a].failures += 1;
                }
                let mut sequence = branch.pulls.clone();
                sequence.push(a);
                next.push(Branch {
                    pulls: sequence,
                    records,
                    probability: &branch.probability * p,
                });
            }
        }
        tree = next;
        progress.add(1);
    }
    Ok(tree.into_iter().map(|b| (b.pulls, b.probability)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Q {
        Q::new(n.into(), d.into())
    }

    fn record(successes: u32, failures: u32) -> Record {
        Record {
            successes,
            failures,
        }
    }

    /// By hand: `Beta(2, 1)` (density `2x`) against `Beta(1, 1)` (`F = x`)
    /// is larger with probability `∫ 2x·x dx = 2/3`; `Beta(1, 2)` (density
    /// `2(1 − x)`) with probability `∫ 2(1 − x)·x dx = 1/3`; three fresh arms
    /// each `1/3`.
    #[test]
    fn small_records_by_hand() {
        assert_eq!(
            pull_probabilities(&[record(1, 0), record(0, 0)]),
            vec![q(2, 3), q(1, 3)]
        );
        assert_eq!(
            pull_probabilities(&[record(0, 1), record(0, 0)]),
            vec![q(1, 3), q(2, 3)]
        );
        assert_eq!(
            pull_probabilities(&[record(0, 0); 3]),
            vec![q(1, 3), q(1, 3), q(1, 3)]
        );
    }

    /// `P(Beta(α₂, β₂) > Beta(α₁, β₁))` for integer parameters by the
    /// closed form of Evan Miller ("Formulas for Bayesian A/B testing",
    /// 2015), another route than the polynomial integral:
    /// `Σ_{i=0}^{α₂−1} B(α₁ + i, β₁ + β₂) / ((β₂ + i) B(1 + i, β₂) B(α₁, β₁))`,
    /// with `B(a, b) = (a − 1)!(b − 1)!/(a + b − 1)!`.
    fn miller(a1: u32, b1: u32, a2: u32, b2: u32) -> Q {
        let factorial = |n: u32| (1..=n).fold(BigInt::one(), |f, k| f * k);
        let beta =
            |a: u32, b: u32| Q::new(factorial(a - 1) * factorial(b - 1), factorial(a + b - 1));
        (0..a2)
            .map(|i| {
                beta(a1 + i, b1 + b2)
                    / (Q::from_integer((b2 + i).into()) * beta(1 + i, b2) * beta(a1, b1))
            })
            .fold(Q::zero(), |s, t| s + t)
    }

    #[test]
    fn two_arms_agree_with_miller_s_closed_form() {
        for s1 in 0..5 {
            for f1 in 0..5 {
                for s2 in 0..4 {
                    for f2 in 0..4 {
                        let p = pull_probabilities(&[record(s1, f1), record(s2, f2)]);
                        // Arm 1 is pulled when θ₂ > θ₁.
                        assert_eq!(
                            p[1],
                            miller(s1 + 1, f1 + 1, s2 + 1, f2 + 1),
                            "{s1} {f1} {s2} {f2}"
                        );
                        assert_eq!(&p[0] + &p[1], Q::one());
                    }
                }
            }
        }
    }

    /// With more arms the probabilities sum to 1 exactly, and an arm with
    /// more successes and fewer failures is pulled more often (the Beta
    /// family is stochastically ordered in `(s, f)`).
    #[test]
    fn three_and_four_arms_sum_to_one_and_are_ordered() {
        let cases = [
            vec![record(2, 1), record(0, 3), record(1, 1)],
            vec![record(0, 0), record(4, 0), record(0, 4), record(2, 2)],
            vec![record(1, 2), record(1, 2), record(3, 0)],
        ];
        for records in cases {
            let p = pull_probabilities(&records);
            assert_eq!(p.iter().fold(Q::zero(), |s, x| s + x), Q::one());
            for i in 0..records.len() {
                for j in 0..records.len() {
                    let (a, b) = (records[i], records[j]);
                    if a.successes >= b.successes && a.failures <= b.failures && a != b {
                        assert!(p[i] > p[j], "{records:?}");
                    }
                    if a == b {
                        assert_eq!(p[i], p[j]);
                    }
                }
            }
        }
    }

    /// Three arms against an independent quadrature:
    ///
    /// ```text
    /// from mpmath import mp, quad, betainc, beta
    /// mp.dps = 30
    /// recs = [(2, 1), (0, 3), (1, 1)]
    /// dens = lambda s, f, x: x**s * (1 - x)**f / beta(s + 1, f + 1)
    /// cdf = lambda s, f, x: betainc(s + 1, f + 1, 0, x, regularized=True)
    /// for a in range(3):
    ///     print(quad(lambda x: dens(*recs[a], x) * mp.fprod(
    ///         [cdf(*recs[j], x) for j in range(3) if j != a]), [0, 1]))
    /// # 0.608658008658008658008658008658 = 703/1155
    /// # 0.0324675324675324675324675324675 = 5/154
    /// # 0.358874458874458874458874458874 = 829/2310
    /// ```
    #[test]
    fn three_arms_agree_with_a_quadrature() {
        assert_eq!(
            pull_probabilities(&[record(2, 1), record(0, 3), record(1, 1)]),
            vec![q(703, 1155), q(5, 154), q(829, 2310)]
        );
    }

    /// T = 2 on rows (1, 0), (0, 1): round 1 is a fair coin; after arm 0
    /// saw 1 it is pulled again with probability 2/3, after arm 1 saw 0
    /// arm 0 is pulled with probability 2/3.
    #[test]
    fn two_rounds_by_hand() {
        let rewards = vec![vec![q(1, 1), q(0, 1)], vec![q(0, 1), q(1, 1)]];
        let law = law(&rewards, 16, false).unwrap();
        assert_eq!(
            law,
            vec![
                (vec![0, 0], q(1, 3)),
                (vec![0, 1], q(1, 6)),
                (vec![1, 0], q(1, 3)),
                (vec![1, 1], q(1, 6)),
            ]
        );
    }

    #[test]
    fn a_reward_other_than_zero_or_one_is_refused_by_position() {
        let rewards = vec![vec![q(1, 1), q(0, 1)], vec![q(0, 1), q(1, 2)]];
        let e = law(&rewards, 16, false).unwrap_err();
        assert!(e.to_string().contains("round 2, arm 2 has 1/2"), "{e}");
    }

    #[test]
    fn too_many_sequences_are_refused_with_their_count() {
        let rewards = vec![vec![q(1, 1), q(0, 1)]; 5];
        let e = law(&rewards, 16, false).unwrap_err();
        assert!(e.to_string().contains("32, over the limit of 16"), "{e}");
        assert_eq!(law(&rewards, 16, true).unwrap().len(), 32);
    }
}
